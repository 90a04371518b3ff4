//! The `play` section's statements about given cards: `must lead|play`, `keep`, `withhold`,
//! `excuse`, `loses` and `lead-together`; and `untouchable`, a card that may not be played.

use super::*;

impl Compiler {
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
    pub(super) fn withhold(&mut self, st: &Stmt, ladder: &[(Obligation, Clause)]) -> Option<CardRule> {
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
    pub(super) fn as_excuse(&mut self, st: &Stmt) -> Option<CardRule> {
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
    pub(super) fn forced(&mut self, st: &Stmt) -> Option<Forced> {
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
    pub(super) fn lead_together(&mut self, st: &Stmt) -> Option<LeadTogether> {
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
    pub(super) fn loses(&mut self, st: &Stmt) -> Option<Loses> {
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
    pub(super) fn keep(&mut self, st: &Stmt) -> Option<Keep> {
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
