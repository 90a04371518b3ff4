//! `play`: the obligations of each trick, their faults, the Fool, and the triggers.

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

    /// `KEY CARDS "label" [= condition]` (`withhold`, `excuse`): the cards, the label, the condition
    /// on the player at his turn, and the clause `play.KEY.LABEL`.
    fn card_rule(&mut self, st: &Stmt, example: &str) -> Option<CardRule> {
        let key = st.key.clone();
        let (cards, label) = match st.args.as_slice() {
            [c, l] if !c.quoted && l.quoted => (c.clone(), l.text.clone()),
            _ => {
                self.err_at(st, format!("`{key}` is written `{key} CARDS \"label\" [= condition]`: `{example}`"));
                return None;
            }
        };
        let set = self.cards_word(st, &cards)?;
        let when = self.turn_condition(st).ok()?;
        let rule = format!("play.{key}.{}", label.to_lowercase().replace(' ', "-"));
        Some(CardRule { cards: set, label: label.as_str().into(), when, clause: self.clause(st, rule) })
    }

    /// `withhold CARDS "label" [= condition]`: cards the trump obligations do not ask of a player whose
    /// only trumps they are. They must be trumps of the pack, and the section must have a trump
    /// obligation to spare them from: otherwise the statement would never apply.
    fn withhold(&mut self, st: &Stmt, ladder: &[(Obligation, Clause)]) -> Option<CardRule> {
        let w = self.card_rule(st, "withhold EX \"the Fool as his only trump\"")?;
        let trumps = self.pack_trumps.unwrap_or(CardSet::trumps());
        let not_trumps = w.cards.minus(trumps);
        if !not_trumps.is_empty() {
            let codes: Vec<String> = not_trumps.iter().map(|c| c.to_string()).collect();
            self.err_at(
                st,
                format!("`withhold` spares trumps from the trump obligations, and {} {} no trump of this pack", codes.join(", "), if codes.len() == 1 { "is" } else { "are" }),
            );
            return None;
        }
        if !ladder.iter().any(|(o, _)| matches!(o, Obligation::Follow | Obligation::Trump)) {
            self.err_at(st, "`withhold` spares cards from the trump obligations, and the play section has neither `must follow` nor `must trump`: it would never apply");
            return None;
        }
        Some(w)
    }

    /// `excuse CARDS "label" [= condition]`: cards played as the Excuse while the condition holds. The
    /// pack's own Excuse is refused: the `fool` section says what it does.
    fn as_excuse(&mut self, st: &Stmt) -> Option<CardRule> {
        let x = self.card_rule(st, "excuse EX \"the Fool withheld\" = has(withheld(player), EX)")?;
        if x.cards.contains(FOOL) {
            self.err_at(st, "`excuse` plays a card as the Excuse, and EX is this pack's Excuse already: the `fool { ... }` section says what it does");
            return None;
        }
        Some(x)
    }

    /// The cards a word names: a class, or one card (by its code, or a code of the pack: `EX` for a
    /// Fool made a trump is the card above the highest trump); `None` (and a diagnostic) otherwise.
    fn cards_word(&mut self, st: &Stmt, w: &Word) -> Option<CardSet> {
        match (self.classes.iter().find(|c| c.name == w.text), self.pack_card(&w.text)) {
            (Some(c), _) => Some(c.cards),
            (None, Some(card)) if !w.quoted => self.in_pack(&st.file, w.pos, &w.text, card).then(|| CardSet::single(card)),
            // The class's own definition failed, and says why.
            _ if self.failed.contains(&w.text) => None,
            _ => {
                self.err(&st.file, w.pos, format!("`{}`: unknown card or card class", w.text));
                None
            }
        }
    }

    /// The condition of `must lead|play` and `keep`, on the player at his turn and the play so far;
    /// none without `=`.
    fn turn_condition(&mut self, st: &Stmt) -> Result<Option<Expr>, ()> {
        match &st.value {
            None => Ok(None),
            Some(_) => self.condition(st, Ctx::Turn).map(Some).ok_or(()),
        }
    }

    /// `must lead|play CARDS "label" [= condition]`, or `must lead|play "label" = cards`: a card
    /// formula read at the player's turn instead of fixed cards and a condition.
    fn forced(&mut self, st: &Stmt) -> Option<Forced> {
        let word = st.args[0].text.clone();
        let form = format!(
            "`must {word}` is written `must {word} CARDS \"label\" [= condition]` (`must lead T1 \"the 1 leads\" = contract.name == \"x\"`) or `must {word} \"label\" = cards` (`must lead \"the suit kept leads\" = if count(tricks) == 0 then suit_of(hand_of(player) - (hand_of(player) - hand)) else none`){}",
            if word == "play" { ", with `instead` after the label where the cards take the place of the trick's obligations" } else { "" }
        );
        let done = if word == "lead" { "led" } else { "played" };
        let not_cards = format!(
            "`must {word} \"label\" = cards` takes the cards that must be {done} (`= if count(tricks) == 0 then T1 else none`), not {{kind}}; a condition on fixed cards is written `must {word} CARDS \"label\" = condition`"
        );
        // `instead` after the label: the cards take the place of the trick's obligations.
        let mut args = &st.args[1..];
        let instead = matches!(args, [.., label, w] if label.quoted && !w.quoted && w.text == "instead");
        if instead {
            args = &args[..args.len() - 1];
            if word == "lead" {
                self.err_at(
                    st,
                    "`instead` sets aside the obligations of a trick begun (follow, trump, overtrump, beat), and a lead has none: write `must play CARDS \"label\" instead`, or `must lead` without it",
                );
                return None;
            }
        }
        let (cards, when, label) = self.cards_at_turn(st, args, &form, &not_cards)?;
        let rule = format!("play.must.{word}.{}", label.to_lowercase().replace(' ', "-"));
        Some(Forced { lead: word == "lead", cards, label: label.as_str().into(), when, instead, clause: self.clause(st, rule) })
    }

    /// `lead-together N "label" highest SUITS = condition`: N cards led at once, each beginning a
    /// trick, when the condition holds for the leader at his lead; the next lead to the highest
    /// winning card, equal ones parted by the suits in the order written.
    fn lead_together(&mut self, st: &Stmt) -> Option<LeadTogether> {
        let form = "`lead-together` is written `lead-together N \"label\" highest SUITS = condition`, N from 2 and every suit of the pack from the highest: `lead-together 2 \"the two cards kept begin two tricks\" highest C S H D = count(tricks) == 0 and player == taker`";
        let (n, label, suits) = match st.args.as_slice() {
            [n, label, how, suits @ ..] if !n.quoted && label.quoted && !how.quoted && how.text == "highest" && st.value.is_some() => {
                (n.clone(), label.text.clone(), suits.to_vec())
            }
            _ => {
                self.err_at(st, form);
                return None;
            }
        };
        let Some(count) = n.text.parse::<usize>().ok().filter(|&k| (2..=8).contains(&k)) else {
            self.err(&st.file, n.pos, format!("`{}`: `lead-together` leads from 2 to 8 cards at once", n.text));
            return None;
        };
        let mut lanes: Vec<u8> = vec![];
        for w in &suits {
            match SUITS.iter().position(|c| c.to_string() == w.text) {
                Some(i) if !lanes.contains(&(i as u8)) => lanes.push(i as u8),
                Some(_) => {
                    self.err(&st.file, w.pos, format!("`{}` is written twice: `highest` orders each suit once", w.text));
                    return None;
                }
                None => {
                    self.err(&st.file, w.pos, format!("`{}` is not a suit: `highest` orders the suits among S H D C from the highest, e.g. `highest C S H D`", w.text));
                    return None;
                }
            }
        }
        let missing: Vec<char> = self.pack_lanes().into_iter().filter(|l| !lanes.contains(l)).map(|l| SUITS[l as usize]).collect();
        if !missing.is_empty() {
            let names: Vec<String> = missing.iter().map(|c| c.to_string()).collect();
            self.err_at(st, format!("`highest` orders every suit of the pack, to part two equal winning cards: {} missing", names.join(" ")));
            return None;
        }
        let when = self.condition(st, Ctx::Turn)?;
        let rule = format!("play.lead-together.{}", label.to_lowercase().replace(' ', "-"));
        Some(LeadTogether { n: count, label: label.as_str().into(), suits: lanes, when, clause: self.clause(st, rule) })
    }

    /// `loses CARDS "label" [= condition]`, or `loses "label" = cards`: cards that take no trick, fixed
    /// with a condition, or a card formula read at the player's turn.
    fn loses(&mut self, st: &Stmt) -> Option<Loses> {
        let form = "`loses` is written `loses CARDS \"label\" [= condition]` (`loses T1 \"the Pagat takes nothing\" = contract.name == \"x\"`) or `loses \"label\" = cards` (`loses \"the card kept takes nothing\" = if player == taker then hand - (hand - hand_of(player)) else none`)";
        let not_cards = "`loses \"label\" = cards` takes the cards that take no trick (`= if player == taker then T1 else none`), not {kind}; a condition on fixed cards is written `loses CARDS \"label\" = condition`";
        let (cards, when, label) = self.cards_at_turn(st, &st.args, form, not_cards)?;
        let rule = format!("play.loses.{}", label.to_lowercase().replace(' ', "-"));
        Some(Loses { cards, label: label.as_str().into(), when, clause: self.clause(st, rule) })
    }

    /// The words `CARDS "label"` with an optional condition, or `"label"` with a card formula in the
    /// turn's context (`args`, the statement's words after its keyword's own): the cards (fixed, or the
    /// formula), the condition, the label. A formula that surely gives no cards (a number, a text, yes
    /// or no) is refused with `not_cards`, its `{kind}` filled; any other shape with `form`.
    fn cards_at_turn(&mut self, st: &Stmt, args: &[Word], form: &str, not_cards: &str) -> Option<(Expr, Option<Expr>, String)> {
        match args {
            [cards, label] if !cards.quoted && label.quoted => {
                let set = self.cards_word(st, cards)?;
                Some((Expr::Const(Value::Cards(set)), self.turn_condition(st).ok()?, label.text.clone()))
            }
            [label] if label.quoted && st.value.is_some() => {
                let e = self.value(st, Ctx::Turn)?;
                if let Some(kind) = surely_not_cards(&e) {
                    self.err_at(st, not_cards.replace("{kind}", kind));
                    return None;
                }
                Some((e, None, label.text.clone()))
            }
            _ => {
                self.err_at(st, form);
                None
            }
        }
    }

    /// `keep CARDS "label" [while CLASS] [= condition]`.
    fn keep(&mut self, st: &Stmt) -> Option<Keep> {
        let form = "`keep` is written `keep CARDS \"label\" [while CLASS] [= condition]`: `keep T1 \"the Pagat to the last trick\"`";
        let args = st.args.clone();
        let (cards, label, among) = match args.as_slice() {
            [c, l] if !c.quoted && l.quoted => (c, l, None),
            [c, l, w, among] if !c.quoted && l.quoted && w.text == "while" && !w.quoted => (c, l, Some(among)),
            _ => {
                self.err_at(st, form);
                return None;
            }
        };
        let set = self.cards_word(st, cards)?;
        let among = match among {
            Some(w) => self.cards_word(st, w)?,
            None => CardSet::full(),
        };
        let when = self.turn_condition(st).ok()?;
        let rule = format!("play.keep.{}", label.text.to_lowercase().replace(' ', "-"));
        Some(Keep { cards: Expr::Const(Value::Cards(set)), label: label.text.as_str().into(), among, when, last_trump: false, clause: self.clause(st, rule) })
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

    pub(super) fn fool(&mut self, s: Option<&Stmt>) -> FoolRules {
        let mut f = FoolRules {
            excuse: None,
            led: Choice::Is(FoolLed::NextCardSetsSuit),
            keep: Choice::Is(FoolKeep::Keep),
            last_trick: Choice::Is(FoolLast::Keep),
            slam_wins: None,
            slam_wins_when: None,
            shut_out: None,
            deadline: None,
            clause: Clause { rule: "fool".into(), at: "".into(), source: None, source_file: None },
        };
        let Some(s) = s else { return f };
        f.clause = self.clause(s, "fool");
        self.settings(s);
        for st in s.block.iter().flatten() {
            match st.key.as_str() {
                "excuse" => f.excuse = Some(self.clause(st, "fool.excuse")),
                "slam_wins" => {
                    f.slam_wins = Some(self.clause(st, "fool.slam_wins"));
                    f.slam_wins_when = if st.value.is_some() { self.word(st, Ctx::AfterAuction) } else { None };
                }
                "led" => f.led = self.word(st, Ctx::AfterAuction).unwrap_or(f.led),
                "keep" => f.keep = self.word(st, Ctx::AfterAuction).unwrap_or(f.keep),
                "last_trick" => f.last_trick = self.word(st, Ctx::AfterAuction).unwrap_or(f.last_trick),
                "shut_out" => f.shut_out = self.word(st, Ctx::AfterAuction),
                "deadline" => {
                    // A number of tricks: a constant is checked here, a formula when a game is set up.
                    if let Some(e) = self.value(st, Ctx::Setup) {
                        match &e {
                            Expr::Const(Value::Num(q)) if !q.is_integer() || *q < Q::ZERO => self.err_at(st, format!("`deadline` is a number of tricks (0, 1, 2, ...), not {q}")),
                            Expr::Const(Value::Num(_)) | Expr::Opt(_) => f.deadline = Some((e, self.clause(st, "fool.deadline"))),
                            Expr::Const(v) => self.err_at(st, format!("`deadline` is a number of tricks (0, 1, 2, ...), not {}", v.type_name())),
                            _ => f.deadline = Some((e, self.clause(st, "fool.deadline"))),
                        }
                    }
                }
                other => self.err_at(st, format!("unknown fool statement `{other}`; expected excuse, led, keep, last_trick, slam_wins, shut_out or deadline")),
            }
        }
        f
    }

    /// The `fool { ... }` rules are the Excuse's: where the pack has no Fool, or its Fool is a trump
    /// whatever the options (`fool "name" trump`), they would never apply, and the compiler accepts no
    /// statement it then ignores. Where the Fool is a trump by an option (`fool "name" trump =
    /// condition`), they apply to the choices that make it the Excuse, and the description says so.
    pub(super) fn fool_section_applies(&mut self, section: Option<&Stmt>, pack: &Pack) {
        let Some(s) = section else { return };
        let by_option = self.fool_trump_when.as_ref().is_some_and(|(_, _, differs)| *differs);
        if pack.cards.contains(FOOL) || by_option {
            return;
        }
        // The Fool made a trump is the top trump, which records may write `EX`.
        let why = if pack.aliases.iter().any(|(code, _)| code == "EX") {
            format!("{} is a trump (`fool \"name\" trump` in the pack) under every choice of the options", pack.fool_name)
        } else {
            "the pack has no Fool".to_string()
        };
        self.err_at(
            s,
            format!("the `fool {{ ... }}` rules are the Excuse's, and {why}: they would never apply; remove the section (in a ruleset that extends another, `without fool`)"),
        );
    }

    pub(super) fn trigger(&mut self, s: &Stmt) -> Option<Trigger> {
        let on = match s.args.first().map(|w| w.text.as_str()) {
            Some("play") => TriggerEvent::Play,
            Some("cut") => TriggerEvent::Cut,
            _ => {
                self.err_at(s, "a payment is written `on play CLASS \"label\" = marques` or `on cut CLASS \"label\" = marques`");
                return None;
            }
        };
        let Some(class) = s.args.get(1) else {
            self.err_at(s, "a payment during play names the cards that trigger it: `on play CLASS \"label\" = marques`");
            return None;
        };
        let cards = match (self.classes.iter().find(|c| c.name == class.text).map(|c| c.cards), self.pack_card(&class.text)) {
            (Some(cards), _) => cards,
            (None, Some(card)) if !self.in_pack(&s.file, class.pos, &class.text, card) => return None,
            (None, Some(card)) => CardSet::single(card),
            // The class's own definition failed, and says why.
            _ if self.failed.contains(&class.text) => return None,
            _ => {
                self.err(&s.file, class.pos, format!("unknown card class `{}`", class.text));
                return None;
            }
        };
        // `on play CLASS ["label"] to pot.NAME = marques`: between the player and a pot.
        let (mut words, mut pot) = (s.args[2..].to_vec(), None);
        if words.len() >= 2 && words[words.len() - 2].text == "to" && !words[words.len() - 2].quoted {
            let w = words.pop().expect("two words");
            words.pop();
            match self.pot_word(&s.file, &w) {
                Some(Some(i)) => pot = Some(i),
                Some(None) => {
                    self.err(&s.file, w.pos, format!("a payment during play goes to each opponent, or to a pot: `to pot.NAME`, not `to {}`", w.text));
                    return None;
                }
                None => return None,
            }
        }
        if words.len() > 1 || words.first().is_some_and(|w| !w.quoted) {
            self.err_at(s, "a payment is written `on play CLASS \"label\" = marques`, or `on play CLASS \"label\" to pot.NAME = marques` for one into or out of a pot");
            return None;
        }
        let label = words.first().map(|w| w.text.clone()).unwrap_or_else(|| class.text.clone());
        let value = self.value(s, Ctx::Trigger)?;
        let rule = format!("on.{}.{}", s.args[0].text, label.to_lowercase().replace(' ', "-"));
        if let Some(i) = pot {
            self.pots_paid_in.insert(i);
        }
        Some(Trigger { on, cards, pot, label: label.into(), value, clause: self.clause(s, rule) })
    }
}

impl Compiler {
    /// `untouchable CARD "label" = condition`: a card that may not be played while the condition
    /// on the hand holds.
    pub(super) fn untouchable(&mut self, stmts: &[Stmt]) -> Option<Untouchable> {
        stmts.iter().find(|s| s.key == "untouchable").and_then(|s| {
            let Some(card) = s.args.first().and_then(|w| self.pack_card(&w.text)) else {
                let what = s.args.first().map_or("no card".to_string(), |w| format!("`{}` is not a card", w.text));
                self.err_at(s, format!("{what}: an untouchable card is written `untouchable CARD \"label\" = condition on the hand`, e.g. `untouchable T1 ...`"));
                return None;
            };
            if !self.in_pack(&s.file, s.args[0].pos, &s.args[0].text, card) {
                return None;
            }
            let label = s.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| card.to_string());
            let when = self.value(s, Ctx::Hand)?;
            Some(Untouchable { card, label, when, clause: self.clause(s, "untouchable") })
        })
    }
}

/// What a formula surely gives when it is not cards, by its outermost operation: a constant, a
/// comparison, `and`, `or`, `not`, or a function that gives a number or yes or no; `None` when it
/// may give cards (the rest is checked at the player's turn).
fn surely_not_cards(e: &Expr) -> Option<&'static str> {
    use crate::expr::{BinOp, Func, UnOp};
    match e {
        Expr::Const(Value::Cards(_)) => None,
        Expr::Const(v) => Some(v.type_name()),
        Expr::Un(UnOp::Not, _) => Some("a yes/no value"),
        Expr::Un(_, _) => Some("a number"),
        Expr::Bin(BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::And | BinOp::Or, _, _) => Some("a yes/no value"),
        Expr::Bin(BinOp::Mul | BinOp::Div, _, _) => Some("a number"),
        Expr::If(_, a, b) => surely_not_cards(a).and(surely_not_cards(b)),
        Expr::Call(Func::Count | Func::Abs | Func::Floor | Func::Ceil | Func::Pow | Func::Round | Func::Index | Func::Points | Func::Taken | Func::Won, _) => Some("a number"),
        Expr::Call(Func::Has | Func::Contains, _) => Some("a yes/no value"),
        _ => None,
    }
}
