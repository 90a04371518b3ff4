//! The `steal` section: after the deal, the cutter and then the dealer take cards from the head of the
//! stock (the dog, in the order the deal event lists it) while they may be stolen, each in a `take`
//! event, and each lays away as many cards from his hand in a `discard`, which go to the stock, out
//! of play (Minchiate's *rubare*: "quando ruba, scarta").

use crate::cards::{Card, CardSet};
use crate::ir::StealHow;
use crate::verdict::{Next, Phase};

use super::{Game, Stage, Stop};

impl<'s, 'r> Game<'s, 'r> {
    /// Once the cards are dealt: who steals, in turn (the cutter, the player before the dealer, then
    /// the dealer).
    pub(super) fn begin_steal(&mut self) {
        let Some(s) = &self.rules().steal else { return };
        let n = self.n() as u8;
        let cutter = (self.dealer + n - 1) % n;
        self.steal_steps = s.cutter.as_ref().map(|h| (cutter, h.0)).into_iter().chain(s.dealer.as_ref().map(|h| (self.dealer, h.0))).collect();
        self.settle_steal();
    }

    /// The stock's first cards that may be stolen, in order.
    fn stealable_run(&self) -> Vec<Card> {
        let Some(s) = &self.rules().steal else { return vec![] };
        self.dog_order.iter().copied().take_while(|c| s.cards.cards.contains(*c)).collect()
    }

    /// Passes over the stealers who have nothing to take; once nobody has, play begins.
    fn settle_steal(&mut self) {
        if self.steal_owed.is_some() {
            self.stage = Stage::Discard;
            return;
        }
        if !self.steal_steps.is_empty() && self.stealable_run().is_empty() {
            self.steal_steps.clear();
        }
        if self.steal_steps.is_empty() {
            if self.pending_discards.is_empty() && self.talon_taker.is_none() && self.stage == Stage::Discard {
                self.stage = Stage::Play;
            }
        } else {
            self.stage = Stage::Discard;
        }
    }

    /// Whether a take or a discard by `p` is a steal's.
    pub(super) fn stealing(&self) -> bool {
        self.steal_owed.is_some() || !self.steal_steps.is_empty()
    }

    fn steal_stop(&self, p: u8, message: String) -> Stop {
        let c = &self.rules().steal.as_ref().expect("stealing without `steal`").clause;
        self.violation(c, p, message)
    }

    /// `p` steals `set` from the head of the stock.
    pub(super) fn steal_take(&mut self, p: u8, set: CardSet) -> Result<(), Stop> {
        if let Some((q, k)) = self.steal_owed {
            return Err(self.steal_stop(p, format!("{} must first lay away {k} cards for those stolen", self.name(q))));
        }
        // A cutter who may steal some and is not the one taking stole nothing.
        while let Some(&(q, StealHow::Some)) = self.steal_steps.first() {
            if q == p {
                break;
            }
            self.steal_steps.remove(0);
        }
        let Some(&(q, how)) = self.steal_steps.first() else {
            return Err(self.steal_stop(p, format!("{} has nothing to steal from {} now", self.name(p), self.rules().the_dog())));
        };
        if q != p {
            return Err(self.steal_stop(p, format!("{} steals from {} now, not {}", self.name(q), self.rules().the_dog(), self.name(p))));
        }
        let rules = self.rules();
        let s = rules.steal.as_ref().expect("stealing without `steal`");
        let outside = set.minus(self.dog);
        if !outside.is_empty() {
            return Err(self.steal_stop(p, format!("{} steals {}, which is not in {}", self.name(p), rules.cards_named(outside), rules.the_dog())));
        }
        let head: CardSet = self.dog_order.iter().copied().take(set.len()).collect();
        let run = self.stealable_run();
        if set != head {
            let next: CardSet = self.dog_order.iter().copied().take(set.len().max(1)).collect();
            return Err(self.steal_stop(
                p,
                format!("{} steals {}; {} is taken from its head, in order: its next cards are {}", self.name(p), rules.cards_named(set), rules.the_dog(), rules.cards_named(next)),
            ));
        }
        let bad = set.minus(s.cards.cards);
        if !bad.is_empty() {
            return Err(self.violation(&s.cards.clause, p, format!("{} may not steal {}: only {} may be, while they come", self.name(p), rules.cards_named(bad), s.cards.label)));
        }
        if how == StealHow::All && set.len() < run.len() {
            let left: CardSet = run[set.len()..].iter().copied().collect();
            return Err(self.violation(self.stealer_clause(p), p, format!("{} must steal every card while they come: {} too", self.name(p), rules.cards_named(left))));
        }
        self.hands[p as usize] = self.hands[p as usize].or(set);
        self.dog = self.dog.minus(set);
        self.dog_order.drain(..set.len());
        self.steal_steps.remove(0);
        self.steal_owed = Some((p, set.len()));
        self.notes.push(format!("{} steals {} from {} ({})", self.name(p), rules.cards_named(set), rules.the_dog(), s.clause.rule));
        self.stage = Stage::Discard;
        Ok(())
    }

    /// The clause that says how `q` steals (`cutter = ...` or `dealer = ...`).
    fn stealer_clause(&self, q: u8) -> &'r crate::ir::Clause {
        let s = self.rules().steal.as_ref().expect("stealing without `steal`");
        let (cutter, dealer) = (s.cutter.as_ref().map(|h| &h.1), s.dealer.as_ref().map(|h| &h.1));
        if q == self.dealer { dealer.or(cutter) } else { cutter.or(dealer) }.unwrap_or(&s.clause)
    }

    /// `p` lays away as many cards as he stole; they go to the stock.
    pub(super) fn steal_discard(&mut self, p: u8, set: CardSet) -> Result<(), Stop> {
        let Some((q, k)) = self.steal_owed else {
            let who = self.steal_steps.first().map(|&(q, _)| self.name(q)).unwrap_or_else(|| self.name(p));
            return Err(self.steal_stop(p, format!("{} has stolen nothing to lay away: {who} steals from {} now", self.name(p), self.rules().the_dog())));
        };
        if q != p {
            return Err(self.steal_stop(p, format!("{} lays away {k} cards now, not {}", self.name(q), self.name(p))));
        }
        let rules = self.rules();
        let hand = self.hands[p as usize];
        let missing = set.minus(hand);
        if !missing.is_empty() {
            return Err(self.steal_stop(p, format!("{} lays away {}, which {} does not hold", self.name(p), rules.cards_named(missing), self.name(p))));
        }
        if set.len() != k {
            return Err(self.steal_stop(p, format!("{} stole {k} cards and must lay away as many, not {}", self.name(p), set.len())));
        }
        self.hands[p as usize] = hand.minus(set);
        self.dog = self.dog.or(set);
        self.steal_owed = None;
        self.settle_steal();
        Ok(())
    }

    /// A move other than a steal's while stealing: a cutter who could have stolen stole nothing; a
    /// stealer who owes a discard, or a dealer who must steal, has not.
    pub(super) fn steal_missing(&mut self, p: u8) -> Option<Stop> {
        if let Some((q, k)) = self.steal_owed {
            return Some(self.steal_stop(p, format!("{} stole {k} cards and must first lay away as many", self.name(q))));
        }
        while let Some(&(q, how)) = self.steal_steps.first() {
            if how == StealHow::All {
                let rules = self.rules();
                let run: CardSet = self.stealable_run().into_iter().collect();
                return Some(self.violation(self.stealer_clause(q), p, format!("{} must first steal {} from {}", self.name(q), rules.cards_named(run), rules.the_dog())));
            }
            self.steal_steps.remove(0);
        }
        self.settle_steal();
        None
    }

    /// Whether a steal is owed before any other move: a discard after a steal, or a steal its stealer
    /// must make (`steal_missing` refuses the move then; a steal he may make he gives up by it).
    pub(super) fn steal_due(&self) -> bool {
        self.steal_owed.is_some() || self.steal_steps.iter().any(|&(_, how)| how == StealHow::All)
    }

    /// The stealer and what he may take, or the discard he owes (`Game::next`).
    pub(super) fn next_steal(&self) -> Option<Next> {
        if let Some((q, k)) = self.steal_owed {
            let legal = self.hands[q as usize].iter().map(|c| c.to_string()).collect();
            return Some(Next {
                player: self.name(q),
                phase: Phase::Discard,
                legal,
                count: Some(k),
                packets: vec![],
                table: Default::default(),
                declarations: vec![],
                sit_out: vec![],
            });
        }
        let &(q, how) = self.steal_steps.first()?;
        let run = self.stealable_run();
        let first = |k: usize| run[..k].iter().map(|c| c.to_string()).collect();
        let packets = match how {
            StealHow::All => vec![first(run.len())],
            StealHow::Some => (1..=run.len()).map(first).collect(),
        };
        Some(Next { player: self.name(q), phase: Phase::Take, legal: vec![], count: None, packets, table: Default::default(), declarations: vec![], sit_out: vec![] })
    }
}
