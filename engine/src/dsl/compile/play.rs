//! `play`: the obligations of each trick (`must follow`, `trump`, `overtrump`, `beat`) and their
//! faults, and the statements the section holds; those about given cards are in `play_cards.rs`.

use super::*;

/// The order the obligations apply in on a trick begun (`replay/obligations.rs`), which is the order
/// a file must write them in.
const TRICK_ORDER: [Obligation; 4] = [Obligation::Follow, Obligation::Trump, Obligation::Overtrump, Obligation::Beat];

impl Compiler {
    pub(super) fn play(&mut self, s: Option<&Stmt>) -> Play {
        // The section's clauses, one per rule it holds, or placeholders where the section is missing.
        let blank = |clause: &dyn Fn(&str) -> Clause| Play {
            lead: Expr::Fact(Fact::FirstHand),
            lead_clause: clause("play.lead"),
            order_clause: clause("play.order"),
            hold_clause: clause("play.hold"),
            ladder: vec![],
            ladder_when: vec![],
            direction: None,
            forced: vec![],
            keeps: vec![],
            trumps_win: None,
            faults: vec![],
            ends: vec![],
            wins: vec![],
            withholds: vec![],
            excuses: vec![],
            loses: vec![],
            together: vec![],
            next_leads: vec![],
        };
        let Some(s) = s else {
            let f = self.file.clone();
            self.err(&f, Pos { line: 1, col: 1 }, "the ruleset has no `play { ... }` section");
            return blank(&|rule| Clause { rule: rule.into(), at: "".into(), source: None, source_file: None });
        };
        let mut p = blank(&|rule| self.clause(s, rule));
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "lead" => {
                    p.lead = self.value(st, Ctx::Lead).unwrap_or(Expr::Fact(Fact::FirstHand));
                    p.lead_clause = self.clause(st, "play.lead");
                }
                "must" if matches!(st.args.first().map(|w| w.text.as_str()), Some("lead" | "play")) => {
                    if let Some(f) = self.forced(st) {
                        p.forced.push(f);
                    }
                }
                "keep" => {
                    if let Some(k) = self.keep(st) {
                        p.keeps.push(k);
                    }
                }
                // `withhold CARDS "label" [= condition]` and `excuse CARDS "label" [= condition]`:
                // checked once the whole block is read (below), against the obligations it makes.
                "withhold" | "excuse" => {}
                "loses" => {
                    if let Some(l) = self.loses(st) {
                        p.loses.push(l);
                    }
                }
                "lead-together" => {
                    if let Some(t) = self.lead_together(st) {
                        p.together.push(t);
                    }
                }
                "must" => {
                    if let Some(w) = st.args.get(1) {
                        self.err(&st.file, w.pos, format!("`must {}` takes no further word: `{}` would be ignored", st.args[0].text, w.text));
                        continue;
                    }
                    let o = match st.args.first().map(|w| w.text.as_str()) {
                        Some("follow") => Obligation::Follow,
                        Some("trump") => Obligation::Trump,
                        Some("overtrump") => Obligation::Overtrump,
                        Some("beat") => Obligation::Beat,
                        _ => {
                            self.err_at(st, "`must` is followed by follow, trump, overtrump or beat (or lead, play and cards)");
                            continue;
                        }
                    };
                    let rule = format!("play.must.{}", st.args[0].text);
                    // `must trump = option.x == "yes"`: the obligation holds in the games where the
                    // condition does (a setup formula); without `=`, always.
                    let when = match &st.value {
                        Some(_) => match self.condition(st, Ctx::AfterAuction) {
                            Some(e) => Some(e),
                            None => continue,
                        },
                        None => None,
                    };
                    // The walk applies them in the order of a trick, and so must the file write them:
                    // an order it does not implement is refused rather than read another way.
                    if let Some((later, _)) = p.ladder.iter().find(|(q, _)| TRICK_ORDER.iter().position(|x| x == q) > TRICK_ORDER.iter().position(|x| *x == o)) {
                        let name = |o: &Obligation| ["follow", "trump", "overtrump", "beat"][TRICK_ORDER.iter().position(|x| x == o).unwrap_or(0)];
                        self.err_at(
                            st,
                            format!(
                                "`must {}` is written after `must {}`, but the obligations apply in the order of a trick: follow, trump, overtrump, beat; write them in that order",
                                name(&o),
                                name(later)
                            ),
                        );
                        continue;
                    }
                    p.ladder.push((o, self.clause(st, rule)));
                    p.ladder_when.push(when);
                }
                "direction" => {
                    p.direction = self.word(st, Ctx::Setup).map(|w| (w, self.clause(st, "play.direction")));
                }
                // `last-trump = cards`: a card formula worked out once the contract is known.
                "last-trump" => {
                    if let Some(e) = self.value(st, Ctx::AfterAuction) {
                        if let Expr::Const(v) = &e {
                            if !matches!(v, Value::Cards(_)) {
                                self.err_at(st, format!("`last-trump` takes cards (`= T1`, or `= if contract.name == \"x\" then T1 else none`), not {}", v.type_name()));
                                continue;
                            }
                        }
                        let clause = self.clause(st, "play.last-trump");
                        p.keeps.push(Keep { cards: e, label: "last trump".into(), among: CardSet::trumps(), when: None, last_trump: true, clause });
                    }
                }
                "trumps-win" => {
                    if let Some(e) = self.condition(st, Ctx::AfterAuction) {
                        p.trumps_win = Some((e, self.clause(st, "play.trumps-win")));
                    }
                }
                // `fault follow "revoke" = 60`: checked once the whole block is read (below).
                "fault" => {}
                // `wins CARD "label" = cards`: CARD takes a trick that holds all the cards too.
                "wins" => {
                    let (Some(card), Some(label), None) = (st.args.first().filter(|w| !w.quoted), st.args.get(1).filter(|w| w.quoted), st.args.get(2)) else {
                        self.err_at(st, "`wins` is written `wins CARD \"label\" = cards`: `wins T1 \"Pagat, Mond and Skus\" = T21 + EX`");
                        continue;
                    };
                    let (card_word, label) = (card.clone(), label.text.clone());
                    let Some(c) = self.pack_card(&card_word.text) else {
                        self.err(&st.file, card_word.pos, format!("`{}`: unknown card; `wins` names one card", card_word.text));
                        continue;
                    };
                    if !self.in_pack(&st.file, card_word.pos, &card_word.text, c) {
                        continue;
                    }
                    if let Some(e) = self.value(st, Ctx::AfterAuction) {
                        if let Expr::Const(v) = &e {
                            if !matches!(v, Value::Cards(_)) {
                                self.err_at(st, format!("`wins` takes the cards that must be in the trick with {} (`= T21 + EX`), not {}", card_word.text, v.type_name()));
                                continue;
                            }
                        }
                        let rule = format!("play.wins.{}", label.to_lowercase().replace([' ', ','], "-").replace("--", "-"));
                        p.wins.push(WinsWith { card: c, label: label.as_str().into(), with: e, clause: self.clause(st, rule) });
                    }
                }
                // `end "label" = condition`: play ends after a trick when the condition holds.
                "end" => {
                    let label = match st.args.as_slice() {
                        [w] if w.quoted => w.text.clone(),
                        _ => {
                            self.err_at(st, "`end` is written `end \"label\" = condition`: the label says why play ends (`end \"the beggar took a trick\" = won(taker) > 0`)");
                            continue;
                        }
                    };
                    if let Some(when) = self.condition(st, Ctx::Score) {
                        let rule = format!("play.end.{}", label.to_lowercase().replace(' ', "-"));
                        p.ends.push(PlayEnd { label: label.as_str().into(), when, clause: self.clause(st, rule) });
                    }
                }
                // `next-lead "label" = formula`: who leads after the tricks played, or none.
                "next-lead" => {
                    let label = match st.args.as_slice() {
                        [w] if w.quoted => w.text.clone(),
                        _ => {
                            self.err_at(st, "`next-lead` is written `next-lead \"label\" = formula`: the label says who leads and when (`next-lead \"the declarer leads the second trick\" = if count(tricks) == 1 then taker else none`)");
                            continue;
                        }
                    };
                    if let Some(who) = self.value(st, Ctx::Score) {
                        if let Expr::Const(v) = &who {
                            self.err_at(st, format!("`next-lead` takes a formula that gives a player after some tricks and `none` after the others (`= if count(tricks) == 1 then taker else none`), not the constant {}: it would name nobody, or the same player after every trick", v.type_name()));
                            continue;
                        }
                        let rule = format!("play.next-lead.{}", label.to_lowercase().replace(' ', "-"));
                        p.next_leads.push(NextLead { label: label.as_str().into(), who, clause: self.clause(st, rule) });
                    }
                }
                other => self.err_at(
                    st,
                    format!("unknown play statement `{other}`; expected lead, must, keep, direction, last-trump, trumps-win, fault, end, wins, withhold, excuse, loses, lead-together or next-lead"),
                ),
            }
        }
        for st in s.block.iter().flatten().filter(|st| st.key == "fault") {
            if let Some(f) = self.fault(st, &p.ladder) {
                // What a fault gives back is settled at the end of the trick in play, one at a time.
                if f.gives_back.is_some() && !p.together.is_empty() {
                    self.err_at(st, "a fault that `gives-back` cannot be written with `lead-together`: the cards it gives back are settled at the end of one trick in play, not of several begun together");
                    continue;
                }
                p.faults.push(f);
            }
        }
        // `must play ... instead` sets the trick's obligations aside: the section must make one.
        if p.ladder.is_empty() {
            for st in s.block.iter().flatten().filter(|st| st.key == "must" && st.args.len() > 2 && st.args.last().is_some_and(|w| !w.quoted && w.text == "instead")) {
                self.err_at(st, "`must play ... instead` sets aside the obligations of a trick begun, and the play section has no `must follow`, `must trump`, `must overtrump` or `must beat`: it would never apply");
            }
        }
        for st in s.block.iter().flatten().filter(|st| st.key == "withhold") {
            if let Some(w) = self.withhold(st, &p.ladder) {
                p.withholds.push(w);
            }
        }
        for st in s.block.iter().flatten().filter(|st| st.key == "excuse") {
            if let Some(x) = self.as_excuse(st) {
                p.excuses.push(x);
            }
        }
        p
    }

    /// `fault OBLIGATION "label" [gives-back CLASS] = amount`: the obligation must be one the section
    /// makes (`must ...`), the class a known one, and the amount a number (a formula after the auction).
    pub(super) fn fault(&mut self, st: &Stmt, ladder: &[(Obligation, Clause)]) -> Option<Fault> {
        let word = st.args.first().map(|w| w.text.as_str()).unwrap_or("");
        let o = match word {
            "follow" => Obligation::Follow,
            "trump" => Obligation::Trump,
            "overtrump" => Obligation::Overtrump,
            "beat" => Obligation::Beat,
            "lead" | "order" | "hold" | "last-trump" | "trumps-win" | "direction" => {
                self.err_at(
                    st,
                    format!("`fault {word}`: `{word}` is not a trick obligation, so breaking it cannot be a fault paid; a fault names an obligation of the section: follow, trump, overtrump or beat"),
                );
                return None;
            }
            _ => {
                self.err_at(st, format!("`fault {word}`: unknown obligation; a fault names follow, trump, overtrump or beat"));
                return None;
            }
        };
        if !ladder.iter().any(|(l, _)| *l == o) {
            self.err_at(st, format!("`fault {word}`: the play section has no `must {word}`, so there is no obligation to break"));
            return None;
        }
        let Some(label) = st.args.get(1).filter(|w| w.quoted) else {
            self.err_at(st, format!("`fault {word}` needs a label: `fault {word} \"revoke\" = 60`"));
            return None;
        };
        // `gives-back CLASS`: the cards of the class the offending card took go back to who played them;
        // or a setup `let` giving cards, so an option can choose them (`none`: nothing goes back).
        // `by-side`: the offender's side pays; `ends-deal`: the card ends the deal.
        let (mut gives_back, mut by_side, mut ends_deal) = (None, false, false);
        let mut rest = &st.args[2..];
        while let Some(w) = rest.first() {
            match (w.text.as_str(), w.quoted, rest.get(1)) {
                ("by-side", false, _) if !by_side => {
                    by_side = true;
                    rest = &rest[1..];
                }
                ("ends-deal", false, _) if !ends_deal => {
                    ends_deal = true;
                    rest = &rest[1..];
                }
                ("gives-back", false, Some(class)) if !class.quoted && gives_back.is_none() => {
                    gives_back = Some(self.fault_gives_back(st, word, class)?);
                    rest = &rest[2..];
                }
                _ => {
                    self.err_at(
                        st,
                        format!("`fault {word}` is written `fault {word} \"label\" = amount`, or `fault {word} \"label\" gives-back CLASS = amount` for the cards of CLASS the offending card took to go back to who played them, with `by-side` (the offender's side pays) and `ends-deal` (the card ends the deal) after the label as the rules say"),
                    );
                    return None;
                }
            }
        }
        if ends_deal {
            if let Some(Expr::Const(Value::Cards(c))) = &gives_back {
                if c.is_empty() {
                    gives_back = None;
                }
            }
            if gives_back.is_some() {
                self.err_at(st, format!("`fault {word} ... ends-deal` cannot give anything back: the deal ends at the offending card, which takes no trick"));
                return None;
            }
        }
        let amount = self.value(st, Ctx::AfterAuction)?;
        if let Expr::Const(v) = &amount {
            if !matches!(v, Value::Num(_)) {
                self.err_at(st, format!("`fault {word}` takes an amount, a number each other player receives, not {}", v.type_name()));
                return None;
            }
        }
        Some(Fault { obligation: o, label: label.text.as_str().into(), amount, gives_back, by_side, ends_deal, clause: self.clause(st, format!("play.fault.{word}")) })
    }

    /// The cards `gives-back CLASS` names: a class, one card, or a setup `let` giving cards (so an
    /// option can choose them; `none` gives nothing back). `None` (reported) for anything else.
    fn fault_gives_back(&mut self, st: &Stmt, word: &str, class: &Word) -> Option<Expr> {
        let named_let = self.lets.iter().position(|l| *l == class.text);
        match (self.classes.iter().find(|c| c.name == class.text).map(|c| c.cards), self.pack_card(&class.text), named_let) {
            (Some(cards), _, _) => Some(Expr::Const(Value::Cards(cards))),
            (None, Some(card), _) if !self.in_pack(&st.file, class.pos, &class.text, card) => None,
            (None, Some(card), _) => Some(Expr::Const(Value::Cards(CardSet::single(card)))),
            (None, None, Some(i)) => {
                self.lets_read.insert(i);
                // A `let` that gives something other than cards in some game (a branch that
                // is a number or a text) would fail at the fault: refused here.
                if let Some(v) = self.let_exprs.get(i).and_then(not_cards) {
                    self.err(
                        &st.file,
                        class.pos,
                        format!("`fault {word} ... gives-back {}`: `{}` gives {} in some games, not cards (a class, cards, or `none`)", class.text, class.text, v.type_name()),
                    );
                    return None;
                }
                Some(Expr::Let(i))
            }
            // The class's (or the let's) own definition failed, and says why.
            _ if self.failed.contains(&class.text) => None,
            _ => {
                self.err(&st.file, class.pos, format!("`fault {word} ... gives-back {}`: `{}`: unknown card class (or `let` giving cards)", class.text, class.text));
                None
            }
        }
    }
}
