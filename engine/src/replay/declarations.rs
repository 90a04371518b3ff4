//! The `declaration` sections: a declaration checked when made (its timing, who may make it, the
//! cards shown, its `require`s and value) and paid. Who may declare when, and the declarations open
//! to each player now, are in `may_declare`; the best show a hand has is in `shows`.

use crate::cards::CardSet;
use crate::expr::{eval, truthy, Expr, Fact, Value};
use crate::ir::*;
use crate::label::with_article;
use crate::num::Q;
use crate::verdict::{Annulled, LedgerEntry};

use super::{Game, GameEnv, Move, Stage, Stop};

/// The most declarations made again (`repeats`) that a deal may hold, all kinds together: doubles
/// answered each other 48 times make a stake 2^48 times its own, and a few more would pass the 2^60
/// the numbers hold (§7 of the reference). A record with more is refused as one the archive cannot
/// referee, before any score is worked out.
pub(crate) const MAX_REPEATED: usize = 48;

impl<'s, 'r> Game<'s, 'r> {
    /// Whether `d`, a declaration made again, would pass the [`MAX_REPEATED`] a deal may hold.
    pub(super) fn past_repeat_limit(&self, d: &DeclarationKind) -> bool {
        let rules = self.rules();
        d.repeats.is_some() && self.declarations.iter().filter(|x| rules.declarations[x.kind].repeats.is_some()).count() >= MAX_REPEATED
    }

    pub(super) fn declare(&mut self, p: u8, k: usize, shown: CardSet) -> Result<(), Stop> {
        let rules = self.rules();
        let d = &rules.declarations[k];
        let started = !self.tricks.is_empty() || self.trick_begun();
        let has_played = self.tricks.iter().any(|t| t.cards.iter().any(|&(q, _)| q == p)) || self.in_play().any(|&(q, _)| q == p);
        let too_late = match d.when {
            When::BeforePlay | When::AfterDiscard => started,
            When::FirstPlay => has_played,
            When::AfterDeal => self.after_deal_closed,
            When::AfterPlay => false,
            When::BeforeTake => !matches!(self.stage, Stage::Bidding | Stage::Call) && !self.before_take(),
            When::AfterOpeningRound => self.after_opening_round() == Err(false),
        };
        if let Some(stop) = self.call_missing(p) {
            return Err(stop);
        }
        if let Some(stop) = self.buy_missing(p) {
            return Err(stop);
        }
        let too_early = !matches!(d.when, When::AfterDeal | When::AfterOpeningRound) && matches!(self.stage, Stage::Bidding | Stage::Call)
            || (d.when == When::AfterOpeningRound && self.after_opening_round() == Err(true))
            || (d.when == When::AfterDiscard && !self.pending_discards.is_empty())
            || (d.when == When::FirstPlay && !too_late && !self.at_first_card(p)?)
            || (d.when == When::AfterPlay && self.stage != Stage::Done);
        if too_late || too_early {
            let when = match d.when {
                When::BeforePlay => "before the first card is played".to_string(),
                When::AfterDiscard => "after the discard and before the first card".to_string(),
                When::FirstPlay => "at the declarer's own turn to play his first card".to_string(),
                When::AfterDeal => "right after the deal, before any other move".to_string(),
                When::AfterPlay => "once the last trick is played".to_string(),
                When::BeforeTake => format!("once {} is shown, before the taker takes his packet of it", self.rules().the_talon()),
                When::AfterOpeningRound => "once the auction's opening round is over, before the next bid".to_string(),
            };
            // Said too early, at a declarer's first card: what is still to come before his turn.
            let now = match d.when {
                When::FirstPlay if too_early && self.stage != Stage::Play => ": the cards are not yet being played".to_string(),
                When::FirstPlay if too_early => match self.turn() {
                    Ok(q) => format!(": it is {}'s turn to play, not {}'s", self.name(q), self.name(p)),
                    Err(_) => String::new(),
                },
                _ => String::new(),
            };
            return Err(self.violation(&d.clause, p, format!("{} is declared {when}{now}", with_article(&d.label))));
        }
        if let Some(why) = self.not_his_to_declare(p, k, d) {
            return Err(self.violation(&d.clause, p, why));
        }
        if self.past_repeat_limit(d) {
            return Err(self.input(format!(
                "{} makes {} again, past the {MAX_REPEATED} declarations made again that the archive referees in a deal (each double doubles the game: so many are past what its numbers hold)",
                self.name(p),
                with_article(&d.label)
            )));
        }
        if let Some(stop) = self.shows_unseen_talon(p, shown) {
            return Err(stop);
        }
        let hand = self.declaring_hand(p, d);
        if let Some(a) = self.not_allowed(p, d).map_err(|(a, e)| self.rule_error(&a.clause, e))? {
            let why = match &a.reason {
                Some(reason) => self.label(reason),
                None => {
                    let contract = self.contract.and_then(|c| rules.bidding.as_ref().map(|b| format!(" in {}", with_article(&b.contracts[c].label))));
                    format!("it is not allowed{}", contract.as_deref().unwrap_or(" in this game"))
                }
            };
            return Err(self.violation(&a.clause, p, format!("{} may not declare {}: {why}", self.name(p), with_article(&d.label))));
        }
        let missing = shown.minus(hand);
        if !missing.is_empty() {
            return Err(self.violation(&d.clause, p, self.not_his_to_show(p, d, missing)));
        }
        let stray = shown.minus(d.shows);
        if !stray.is_empty() && !d.shows.is_empty() {
            return Err(self.violation(&d.clause, p, format!("{} cannot show {}", with_article(&d.label), rules.cards_named(stray))));
        }
        if d.shows.is_empty() && !shown.is_empty() {
            // An announcement (no `shows`) claims no card: cards shown with it would be taken for a
            // show the rules do not have.
            return Err(self.violation(
                &d.clause,
                p,
                format!("{} is announced, not shown: it shows no card, but {} shows {}", with_article(&d.label), self.name(p), rules.cards_named(shown)),
            ));
        }
        let mut env = self.env(Some(p)).with_hand(hand);
        env.shown = Some(shown);
        if d.requires.iter().any(|(_, c, _)| c.mentions(Fact::BestValue)) {
            env.best_value = Some(self.best_value(p, hand, d));
        }
        // The requirements that do not read the value come first: the value of a show that breaks
        // them may mean nothing (a poignée of 11 trumps has no place in the table of values).
        let check = |env: &GameEnv, reads_value: bool| -> Result<(), Stop> {
            for (msg, cond, clause) in d.requires.iter().filter(|(_, c, _)| c.mentions(Fact::DeclValue) == reads_value) {
                let ok = eval(cond, env).and_then(|v| truthy(&v)).map_err(|e| self.rule_bug(clause, e))?;
                if !ok {
                    let shown_text = if shown.is_empty() { String::new() } else { format!(" (shows {} cards)", shown.len()) };
                    return Err(self.violation(clause, p, format!("{}'s {} is not valid{shown_text}: {}", self.name(p), d.label, self.label(msg))));
                }
            }
            Ok(())
        };
        check(&env, false)?;
        let value = match &d.value {
            Some(e) => match eval(e, &env) {
                Ok(Value::Num(q)) => q,
                Ok(Value::Bool(b)) => Q::int(b as i64),
                Ok(other) => return Err(self.rule_bug(&d.clause, format!("expected a number, found {}", other.type_name()))),
                Err(m) => return Err(self.rule_bug(&d.clause, m)),
            },
            None => Q::ZERO,
        };
        env.decl_value = Some(value);
        check(&env, true)?;
        if let (Some(c), Some(idle)) = (&d.every_card_counts, self.idle_card(p, hand, d, shown, value)) {
            return Err(self.violation(
                c,
                p,
                format!(
                    "{} shows {}, which counts in none of the combinations of his {}: every card shown must count",
                    self.name(p),
                    rules.cards_named(CardSet::single(idle)),
                    d.label
                ),
            ));
        }
        // Out of turn comes last: a declaration that is not valid breaks its own rule first.
        if let Some(why) = self.out_of_turn(p, d) {
            return Err(self.violation(self.in_turn(d).map_or(&d.clause, |(c, _)| c), p, why));
        }
        // Who deals the match's last deal (`ends-match after-deal-by`): the first in turn from first
        // hand whose hand as dealt meets the condition. Where nobody does, it cannot be made here.
        let last_dealer = match &d.ends_match_after {
            Some(x) => match self.first_meeting(&x.when, &x.clause)? {
                Some(q) => Some((q, x)),
                None => {
                    return Err(self.violation(
                        &x.clause,
                        p,
                        format!("{} cannot be made in this deal: nobody is {}, to deal the match's last deal", with_article(&d.label), x.label),
                    ))
                }
            },
            None => None,
        };
        if let Some(cond) = &d.paid_by {
            // Every other player, or each opponent; the sitter who scores with them as a defender.
            let payers = self.paying() & !if d.paid_by_everyone { 1 << p } else { self.paying_side(p) };
            for o in (0..MAX_PLAYERS as u8).filter(|o| payers >> o & 1 == 1) {
                let mut env = self.env(Some(p));
                env.payer = Some(o);
                env.scoring = true;
                if truthy(&self.eval(cond, &env)?).map_err(|e| self.rule_error(&d.clause, e))? && value != Q::ZERO {
                    // A negative value is paid the other way: the declarer pays each of them.
                    let (from, to, amount) = if value > Q::ZERO { (o, p, value) } else { (p, o, -value) };
                    self.ledger.push(LedgerEntry {
                        rule: d.clause.rule.clone(),
                        label: d.label.clone(),
                        from: Some(self.name(from)),
                        to: Some(self.name(to)),
                        amount,
                        source: d.clause.source.clone(),
                        event: Some(self.event),
                    });
                }
            }
        }
        self.declaration_pays(p, d, hand, shown, value)?;
        self.note_laid_away(p, d, shown);
        self.declarations.push(Declaration { player: p, kind: k, shown, value });
        if let Some((q, x)) = last_dealer {
            // The first named stands: a later one names no other end.
            if self.last_dealer.is_none() {
                self.last_dealer = Some(q);
                self.notes.push(format!(
                    "{} makes {}: {}, {}, deals the match's last deal, the next he deals after this one ({})",
                    self.name(p),
                    with_article(&d.label),
                    self.name(q),
                    x.label,
                    x.clause.rule
                ));
            }
        }
        if let Some(c) = &d.ends_match {
            // The deal ends here, valid, scored on what has been played; the match ends after it.
            self.ended_match = Some(p);
            self.leader = None;
            self.stage = Stage::Done;
            self.notes.push(format!("{} ends the deal and the match with {}: the hand is not played on ({})", self.name(p), with_article(&d.label), c.rule));
            self.discards_go()?;
            return Ok(());
        }
        if let Some(c) = d.ends_deal.as_ref().filter(|_| d.annuls) {
            // Thrown in: the deal is void, dealt again as after any annulled deal.
            let reason = format!("{} throws the deal in with {}", self.name(p), with_article(&d.label));
            return Err(Stop::Annulled(Annulled { rule: c.rule.clone(), reason, player: Some(self.name(p)), source: c.source.clone() }));
        }
        if let Some(c) = &d.ends_deal {
            // The deal ends here unplayed; what was paid is its whole score, and the match goes on.
            self.ended_deal = Some((p, k));
            self.leader = None;
            self.stage = Stage::Done;
            self.notes.push(format!("{} ends the deal unplayed with {}: nothing more is played or scored ({})", self.name(p), with_article(&d.label), c.rule));
            return Ok(());
        }
        if !started {
            // A declaration may change who leads (an announced chelem); the leader is chosen again.
            self.leader = None;
        }
        Ok(())
    }

    /// The payments of declaration `d` made by `p` (`pay PAYERS to PAYEES = amount`), into the
    /// ledger: each payer pays each other payee the amount worked out for the pair, the other way
    /// when it is negative. The sitter who scores as a defender is one of `players` and of the
    /// `defence`, as in the score.
    fn declaration_pays(&mut self, p: u8, d: &DeclarationKind, hand: CardSet, shown: CardSet, value: Q) -> Result<(), Stop> {
        let mut entries = vec![];
        for pay in &d.pays {
            let mut env = self.env(Some(p)).with_hand(hand);
            env.shown = Some(shown);
            env.decl_value = Some(value);
            entries.extend(self.pays_between(pay, &mut env, Some(self.event))?);
        }
        self.ledger.extend(entries);
        Ok(())
    }

    /// The ledger lines of a payment between players (`pay PAYERS to PAYEES = amount`, in a
    /// declaration, when everyone passes, or in the score), read in `env`: each payer pays each other
    /// payee the amount worked out for the pair (`payer` and `payee` set in `env` while it is), the
    /// other way when it is negative. The sitter who scores as a defender is one of `players` and of
    /// the `defence`, as in the score. The lines name the event they were made at, when there is one.
    pub(super) fn pays_between(&self, pay: &Pay, env: &mut GameEnv<'_, 's, 'r>, event: Option<usize>) -> Result<Vec<LedgerEntry>, Stop> {
        let (Account::Players(from), Account::Players(to)) = (&pay.from, &pay.to) else { return Ok(vec![]) };
        env.scoring = true;
        let (from, to) = (self.payment_side(from, env, pay)?, self.payment_side(to, env, pay)?);
        let mut entries = vec![];
        for a in (0..self.names.len() as u8).filter(|a| from >> a & 1 == 1) {
            for b in (0..self.names.len() as u8).filter(|&b| b != a && to >> b & 1 == 1) {
                env.payer = Some(a);
                env.payee = Some(b);
                let v = self.number(&pay.amount, env, &pay.clause)?;
                if v == Q::ZERO {
                    continue;
                }
                let (f, t, v) = if v > Q::ZERO { (a, b, v) } else { (b, a, -v) };
                entries.push(LedgerEntry {
                    rule: pay.clause.rule.clone(),
                    label: pay.label.clone(),
                    from: Some(self.name(f)),
                    to: Some(self.name(t)),
                    amount: v,
                    source: pay.clause.source.clone(),
                    event,
                });
            }
        }
        (env.payer, env.payee) = (None, None);
        Ok(entries)
    }

    /// The players one side of payment `pay` names (`players`, `dealer`, a formula), as a set of seats.
    pub(super) fn payment_side(&self, e: &Expr, env: &GameEnv, pay: &Pay) -> Result<u16, Stop> {
        match self.eval_rule(e, env, &pay.clause)? {
            Value::Players(m) => Ok(m),
            Value::Player(q) => Ok(1 << q),
            other => Err(self.rule_error(&pay.clause, format!("a payment goes between players, not {}", other.type_name()))),
        }
    }

    /// A claim made once the last trick is played (`when after-play`): the one move that may follow it.
    pub(super) fn claimed_after_play(&self, m: &Move) -> bool {
        matches!(*m, Move::Declare { kind, .. } if self.rules().declarations.get(kind).is_some_and(|d| d.when == When::AfterPlay))
    }
}

impl Game<'_, '_> {
    /// The cards `p` may show in declaration `d`, which its formulas read as `hand`: his hand, and
    /// with `from hand-and-discard` the cards he laid away too (Grosstarock's dealer declares a
    /// combination he had to break in his discard, naming the cards laid away).
    pub fn declaring_hand(&self, p: u8, d: &DeclarationKind) -> CardSet {
        if d.when == When::AfterPlay {
            // Claimed at the hand's end: the cards he held before his discard, those left in his
            // hand, those he played and those he laid away.
            let played = self.tricks.iter().flat_map(|t| t.cards.iter()).filter(|&&(q, _)| q == p).map(|&(_, c)| c).collect::<CardSet>();
            return self.hands[p as usize].or(played).or(self.discards[p as usize]);
        }
        let hand = self.hands[p as usize];
        if d.from_discard.is_some() {
            hand.or(self.discards[p as usize])
        } else {
            hand
        }
    }

    /// Why `p` may not show `missing`, cards not in what he may show: not in his hand, and with
    /// `from hand-and-discard` not laid away by him either (a card another player laid away says so).
    fn not_his_to_show(&self, p: u8, d: &DeclarationKind, missing: CardSet) -> String {
        let rules = self.rules();
        let (who, cards) = (self.name(p), rules.cards_named(missing));
        if d.from_discard.is_none() {
            return format!("{who} shows {cards}, which {who} does not hold");
        }
        let others: Vec<String> = (0..self.n() as u8).filter(|&o| o != p && !self.discards[o as usize].and(missing).is_empty()).map(|o| self.name(o).to_string()).collect();
        if others.is_empty() {
            format!("{who} shows {cards}, which {who} neither holds nor laid away")
        } else {
            format!(
                "{who} shows {cards}, which {who} neither holds nor laid away ({} laid it away): {} shows the declarer's own cards laid away, no one else's",
                others.join(", "),
                with_article(&d.label)
            )
        }
    }

    /// With `from hand-and-discard`, a show that names cards `p` laid away: the verdict notes them.
    fn note_laid_away(&mut self, p: u8, d: &DeclarationKind, shown: CardSet) {
        let Some(clause) = &d.from_discard else { return };
        let away = shown.and(self.discards[p as usize]);
        if !away.is_empty() {
            let note = format!("{}'s {} shows {}, laid away in his discard ({})", self.name(p), d.label, self.rules().cards_named(away), clause.rule);
            self.notes.push(note);
        }
    }
}

#[derive(Clone, Debug)]
pub struct Declaration {
    pub player: u8,
    pub kind: usize,
    pub shown: CardSet,
    pub value: Q,
}
