//! The `discard` section: the discards owed (the taker's after taking the dog, the dealer's, the
//! others'), a discard checked (held, how many, forbidden cards, cards allowed only when unavoidable,
//! penalized classes), and the cards a player may discard.

use std::sync::Arc;

use crate::cards::CardSet;
use crate::expr::{eval, truthy};
use crate::ir::*;
use crate::num::Q;
use crate::verdict::{Next, Phase};

use super::{Game, Stage, Stop};

impl<'s, 'r> Game<'s, 'r> {
    pub(super) fn owe_discards(&mut self) {
        let s = self.setup;
        let mut owed = vec![];
        if let Some(t) = self.taker {
            if s.discard_taker > 0 && self.contract.map(|c| s.contract_dogs[c]) == Some(DogUse::Taker) {
                // A split discard (`talon { split }`): the first part now, the rest once the talon
                // has come to him.
                let first = if s.talon_split > 0 { s.talon_split } else { s.discard_taker };
                if first < s.discard_taker {
                    self.talon_split_rest = Some((t, s.discard_taker - first));
                }
                owed.push((t, first));
            }
        }
        for i in 0..self.n() {
            let p = ((self.first_hand() as usize + i) % self.n()) as u8;
            let k = if p == self.dealer { s.discard_dealer } else { s.discard_others };
            if k > 0 {
                owed.push((p, k));
            }
        }
        self.pending_discards = owed;
        if self.pending_discards.is_empty() && self.talon_taker.is_none() {
            self.stage = Stage::Play;
        }
    }

    pub(super) fn discard(&mut self, p: u8, set: CardSet) -> Result<(), Stop> {
        let rules = self.rules();
        let Some(d) = &rules.discard else {
            return Err(self.input(format!("{} has no discard", rules.id)));
        };
        if let Some(stop) = self.call_missing(p) {
            return Err(stop);
        }
        if let Some(stop) = self.talon_missing(p) {
            return Err(stop);
        }
        let Some(i) = self.pending_discards.iter().position(|&(q, _)| q == p) else {
            return Err(self.violation(&d.clause, p, format!("{} has no discard to make now", self.name(p))));
        };
        let want = self.pending_discards[i].1;
        let hand = self.hands[p as usize];
        let missing = set.minus(hand);
        if !missing.is_empty() {
            return Err(self.violation(&d.clause, p, format!("{} discards {}, which {} does not hold", self.name(p), rules.cards_named(missing), self.name(p))));
        }
        if set.len() != want {
            if let (Some((_, split)), true) = (rules.talon.as_ref().and_then(|t| t.split.as_ref()), self.talon_after_discard == Some(p) && self.setup.talon_split > 0) {
                let rest = self.setup.discard_taker - want;
                return Err(self.violation(
                    split,
                    p,
                    format!("{} lays away {want} cards before he sees {}, and {rest} once it has come to him: not {} now", self.name(p), rules.the_talon(), set.len()),
                ));
            }
            let message = format!("{} must discard {want} card{}, not {}", self.name(p), if want == 1 { "" } else { "s" }, set.len());
            // A discard of the wrong size that the rules make a fault: paid, and the deal ends there.
            if let Some(f) = &d.size_fault {
                let amount = self.number(&f.amount, &self.env(Some(p)), &f.clause)?;
                let who = self.pay_fault(p, amount, f.by_side, &f.label, &f.clause);
                let source = f.clause.source.as_deref().map(|s| format!(", {s}")).unwrap_or_default();
                self.notes.push(format!("{} ({}{source}): {message}; {who}; the deal ends there", f.label, f.clause.rule));
                self.end_at_fault(p, f.label.clone(), f.clause.clone());
                return Ok(());
            }
            return Err(self.violation(&d.clause, p, message));
        }
        for f in self.forbids(d) {
            let bad = set.and(f.cards);
            if !bad.is_empty() {
                return Err(self.violation(&f.clause, p, format!("{} may not discard {}: {} cannot be discarded", self.name(p), rules.cards_named(bad), f.label)));
            }
        }
        let mut unavoidable = None;
        if let Some(u) = &d.unless_unavoidable {
            let restricted = set.and(u.cards);
            if !restricted.is_empty() {
                let forbidden = self.forbids(d).iter().fold(CardSet::EMPTY, |a, f| a.or(f.cards));
                let free = hand.minus(forbidden).minus(u.cards);
                if d.requires.is_empty() {
                    // Only as many as cannot be avoided: the discard less the other cards that may go.
                    let needed = want.saturating_sub(free.len());
                    if restricted.len() > needed {
                        let (who, r) = (self.name(p), restricted.len());
                        let message = if needed == 0 {
                            format!("{who} may discard {} only when nothing else can be: {who} holds {} other cards that may go", u.label, free.len())
                        } else {
                            format!(
                                "{who} may discard {} only when nothing else can be, and only as many as must go: {who} holds {} other cards that may go, so {needed} of the {} at most, not {r}",
                                u.label,
                                free.len(),
                                u.label
                            )
                        };
                        return Err(self.violation(&u.clause, p, message));
                    }
                } else if let Some(instead) = self.discard_meeting_requires(p, hand, free, hand.minus(forbidden).and(u.cards), want, restricted.len()) {
                    return Err(self.violation(
                        &u.clause,
                        p,
                        format!(
                            "{} may discard {} only when nothing else can be, and only as many as must go: {} could lay away {} instead, which every requirement allows",
                            self.name(p),
                            u.label,
                            self.name(p),
                            rules.cards_named(instead)
                        ),
                    ));
                }
                unavoidable = Some(restricted);
            }
        }
        if !d.requires.is_empty() {
            let env = self.env(Some(p)).with_discarded(set).with_hand(hand.minus(set));
            for (label, cond, clause) in &d.requires {
                let holds = eval(cond, &env).and_then(|v| truthy(&v)).map_err(|e| self.rule_error(clause, e))?;
                if !holds {
                    return Err(self.violation(clause, p, format!("{} may not discard {}: {}", self.name(p), rules.cards_named(set), self.label(label))));
                }
            }
        }
        if let Some(restricted) = unavoidable {
            // Noted once the requirements accept the discard: a discard they forbid was never
            // unavoidable.
            self.notes.push(format!("{} discards {} (unavoidable, shown to all)", self.name(p), rules.cards_named(restricted)));
        }
        if let Some((class, amount, penalty)) = &d.penalize {
            if !set.and(class.cards).is_empty() {
                let env = self.env(Some(p)).with_discarded(set).with_hand(hand.minus(set));
                let v = self.number(amount, &env, penalty)?;
                let label: Arc<str> = format!("discarded {}", class.label).into();
                self.pay_each_opponent_reverse(p, v, &label, penalty);
            }
        }
        self.hands[p as usize] = hand.minus(set);
        // A split discard adds its second part to the first.
        self.discards[p as usize] = self.discards[p as usize].or(set);
        self.piles[p as usize] = self.piles[p as usize].or(set);
        self.pending_discards.remove(i);
        self.talon_after_discarding(p);
        if self.pending_discards.is_empty() && self.talon_taker.is_none() {
            self.stage = Stage::Play;
        }
        Ok(())
    }

    /// A discard `p` may make now, where the rules have `require`s: of those with the fewest cards of
    /// `unless-unavoidable`, the first in the order of the pack; `None` when no discard of the owed
    /// size meets every requirement (or `p` owes none). A discard of the owed size, without forbidden
    /// cards, is then lawful exactly when it holds as many cards of `unless-unavoidable` as this one
    /// and meets the requirements (`discard_meets_requires`), which costs one evaluation where
    /// `discard_allowed` may search.
    pub fn first_lawful_discard(&self, p: u8) -> Option<CardSet> {
        let d = self.rules().discard.as_ref()?;
        let want = self.pending_discards.iter().find(|(q, _)| *q == p)?.1;
        let hand = self.hands[p as usize];
        let allowed = hand.minus(self.forbidden());
        let restricted = d.unless_unavoidable.as_ref().map_or(CardSet::EMPTY, |u| u.cards);
        self.discard_meeting_requires(p, hand, allowed.minus(restricted), allowed.and(restricted), want, want + 1)
    }

    /// Whether discarding `set` would meet every `require` of the discard (the rest of the discard's
    /// rules aside).
    pub fn discard_meets_requires(&self, p: u8, set: CardSet) -> bool {
        let Some(d) = &self.rules().discard else { return true };
        let env = self.env(Some(p)).with_discarded(set).with_hand(self.hands[p as usize].minus(set));
        d.requires.iter().all(|(_, cond, _)| eval(cond, &env).and_then(|v| truthy(&v)).unwrap_or(false))
    }

    /// Whether `p` may discard `set` now: the discard replayed on a copy of the game (the simulator
    /// tries discards with it where the rules have `require`s, which no set of cards can say).
    pub fn discard_allowed(&self, p: u8, set: CardSet) -> bool {
        self.clone().discard(p, set).is_ok()
    }

    /// Once the last trick is played, each discard goes where `goes-to` says: to the discarder (as
    /// it went when made) or to his next opponent in the order of play.
    pub(super) fn discards_go(&mut self) -> Result<(), Stop> {
        let Some((w, clause)) = self.rules().discard.as_ref().and_then(|d| d.goes_to.as_ref()) else { return Ok(()) };
        for p in 0..self.n() as u8 {
            let set = self.discards[p as usize];
            if set.is_empty() {
                continue;
            }
            let to = match w.get(&self.env(Some(p))) {
                Ok(GoesTo::Discarder) => continue,
                Ok(to) => to.word(),
                Err(m) => return Err(self.rule_error(clause, m)),
            };
            let side = self.side_of(p);
            let Some(o) = (1..self.n()).map(|i| ((p as usize + i) % self.n()) as u8).find(|&o| side >> o & 1 == 0) else { continue };
            self.piles[p as usize] = self.piles[p as usize].minus(set);
            self.piles[o as usize] = self.piles[o as usize].or(set);
            self.notes.push(format!("{}'s discard goes to the {to}: {} takes {} ({})", self.name(p), self.name(o), self.rules().cards_named(set), clause.rule));
        }
        Ok(())
    }

    /// `p` pays each opponent `v`.
    fn pay_each_opponent_reverse(&mut self, p: u8, v: Q, label: &Arc<str>, c: &Clause) {
        self.pay_each_opponent(p, -v, label, c)
    }

    /// The discard's forbidden classes in this game: the ruleset's, with the cards of those that follow
    /// options set for the options chosen.
    fn forbids<'a>(&'a self, d: &'a Discard) -> &'a [CardClass] {
        self.setup.forbid.as_deref().unwrap_or(&d.forbid)
    }

    /// Every card the discard forbids outright in this game.
    pub fn forbidden(&self) -> CardSet {
        let Some(d) = &self.rules().discard else { return CardSet::EMPTY };
        self.forbids(d).iter().fold(CardSet::EMPTY, |a, f| a.or(f.cards))
    }

    /// Cards the rules on single cards let `p` put in his discard (without regard to how many: with
    /// `unless-unavoidable`, the cards it restricts are among them when some must go, though only as
    /// many as must), the `require`s aside: the simulator draws its discards from them, and `next`
    /// lists those of them that some lawful discard holds (`discard_cards`).
    pub fn discardable(&self, p: u8) -> CardSet {
        let hand = self.hands[p as usize];
        let Some(d) = &self.rules().discard else { return hand };
        let forbidden = self.forbidden();
        let allowed = hand.minus(forbidden);
        let want = self.pending_discards.iter().find(|(q, _)| *q == p).map(|x| x.1).unwrap_or(0);
        match &d.unless_unavoidable {
            Some(u) if d.requires.is_empty() && allowed.minus(u.cards).len() >= want => allowed.minus(u.cards),
            Some(u) if !d.requires.is_empty() && want > 0 && self.discard_meeting_requires(p, hand, allowed.minus(u.cards), allowed.and(u.cards), want, 1).is_some() => {
                allowed.minus(u.cards)
            }
            _ => allowed,
        }
    }

    /// A discard of `want` cards, fewer than `fewer` of them from `restricted` (the cards of
    /// `unless-unavoidable` that are not forbidden) and the rest from `free` (the cards neither
    /// forbidden nor restricted), that meets every `require` of the discard: of those with the fewest
    /// restricted cards, the first in the order of the pack; `None` when there is none. With
    /// requirements, `unless-unavoidable` means this: a discard may hold only as many restricted cards
    /// as every discard that meets the requirements must.
    fn discard_meeting_requires(&self, p: u8, hand: CardSet, free: CardSet, restricted: CardSet, want: usize, fewer: usize) -> Option<CardSet> {
        let requires = &self.rules().discard.as_ref()?.requires;
        let free: Vec<_> = free.iter().collect();
        let restricted: Vec<_> = restricted.iter().collect();
        let meets = |set: CardSet| {
            let env = self.env(Some(p)).with_discarded(set).with_hand(hand.minus(set));
            requires.iter().all(|(_, cond, _)| eval(cond, &env).and_then(|v| truthy(&v)).unwrap_or(false))
        };
        (0..fewer.min(want + 1)).find_map(|m| {
            if want - m > free.len() {
                return None;
            }
            first_choice(&restricted, m, &mut |r| first_choice(&free, want - m, &mut |f| meets(r.or(f)).then(|| r.or(f))))
        })
    }

    /// Who discards next, how many cards, and which he may (`Game::next` in the discards).
    pub(super) fn next_discard(&self) -> Option<Next> {
        let (p, k) = *self.pending_discards.first()?;
        let legal = self.discard_cards(p).cards;
        Some(Next {
            player: self.name(p),
            phase: Phase::Discard,
            legal: legal.iter().map(|c| c.to_string()).collect(),
            count: Some(k),
            packets: vec![],
            table: Default::default(),
            declarations: vec![],
            sit_out: vec![],
        })
    }
}

/// The first choice of `k` of `cards` (as increasing indexes, in the order given) for which `f` gives
/// something; `None` when none does (or there are fewer than `k` cards).
fn first_choice<T>(cards: &[crate::cards::Card], k: usize, f: &mut dyn FnMut(CardSet) -> Option<T>) -> Option<T> {
    if cards.len() < k {
        return None;
    }
    let mut at: Vec<usize> = (0..k).collect();
    loop {
        if let Some(found) = f(at.iter().map(|&i| cards[i]).collect()) {
            return Some(found);
        }
        let i = (0..k).rev().find(|&i| at[i] < cards.len() - k + i)?;
        at[i] += 1;
        for j in i + 1..k {
            at[j] = at[j - 1] + 1;
        }
    }
}
