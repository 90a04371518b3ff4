//! The `talon` section: the dog shown in packets, of which the taker takes one (event `take`) before
//! he discards, the other packets going to the defence or to his own pile (Tapp Tarock's halves,
//! Königrufen's six packets); or a discard made before the talon is seen.

use crate::cards::CardSet;
use crate::ir::TalonRest;
use crate::verdict::{Next, Phase};

use super::{Game, Stage, Stop};

impl<'s, 'r> Game<'s, 'r> {
    /// The dog goes to the taker whose contract takes it: whole, or, where the talon is cut into
    /// packets, one packet of his choice (`take`), which he then owes.
    pub(super) fn dog_to_taker(&mut self, t: u8) {
        if (self.setup.talon_discard_first || self.setup.talon_split > 0) && self.setup.discard_taker > 0 {
            // He discards first, unseen talon; it comes to him after (`talon_after_discarding`).
            self.talon_after_discard = Some(t);
        } else {
            self.talon_to_taker(t);
        }
    }

    /// Once the taker who discards first has discarded, the talon comes to him.
    pub(super) fn talon_after_discarding(&mut self, p: u8) {
        if self.talon_after_discard == Some(p) {
            self.talon_after_discard = None;
            self.talon_to_taker(p);
            // A split discard: the rest of it is owed now, before anything else.
            if let Some((q, k)) = self.talon_split_rest.take() {
                self.pending_discards.insert(0, (q, k));
            }
        }
    }

    fn talon_to_taker(&mut self, t: u8) {
        if self.setup.talon_packets > 1 {
            self.talon_taker = Some(t);
        } else {
            self.hands[t as usize] = self.hands[t as usize].or(self.dog);
            if self.rules().talon.as_ref().is_some_and(|k| k.unseen.is_some()) {
                self.talon_unseen = Some((t, self.dog));
            }
        }
    }

    /// The talon's packets, cut in the order the deal lists the dog.
    pub fn talon_packets(&self) -> Vec<CardSet> {
        let k = self.setup.talon_packets.max(1);
        let size = (self.dog_order.len() / k).max(1);
        self.dog_order.chunks(size).map(|c| c.iter().copied().collect()).collect()
    }

    /// The taker takes one packet of the talon.
    pub(super) fn take(&mut self, p: u8, set: CardSet) -> Result<(), Stop> {
        let rules = self.rules();
        let Some(talon) = &rules.talon else {
            return Err(self.input(format!("{} has no talon to take from", rules.id)));
        };
        let clause = &talon.clause;
        let t = match self.talon_taker {
            Some(t) if self.stage == Stage::Discard => t,
            _ => return Err(self.violation(clause, p, format!("there is no packet of {} to take now", rules.the_talon()))),
        };
        if p != t {
            return Err(self.violation(clause, p, format!("the taker, {}, takes a packet of {}, not {}", self.name(t), rules.the_talon(), self.name(p))));
        }
        let packets = self.talon_packets();
        if !packets.contains(&set) {
            let shown: Vec<String> = packets.iter().map(|k| rules.cards_named(*k)).collect();
            return Err(self.violation(
                clause,
                p,
                format!("{} takes {}, which is not one of {}'s packets: {}", self.name(p), rules.cards_named(set), rules.the_talon(), shown.join("; ")),
            ));
        }
        if let (Some((_, given)), Some(k)) = (&talon.given, self.setup.talon_given.checked_sub(1)) {
            if packets[k] != set {
                return Err(self.violation(
                    given,
                    p,
                    format!(
                        "{} gets packet {} of {}, {}, with no choice, and may not take {}",
                        self.name(p),
                        k + 1,
                        rules.the_talon(),
                        rules.cards_named(packets[k]),
                        rules.cards_named(set)
                    ),
                ));
            }
        }
        if talon.unseen.is_some() {
            self.talon_unseen = Some((t, set));
        }
        // Each packet left goes where the talon's `rest` says (for that packet, where it reads it).
        let mut to_taker = CardSet::EMPTY;
        for k in packets.iter().filter(|k| **k != set) {
            if self.packet_to_taker(*k)? {
                to_taker = to_taker.or(*k);
            }
        }
        self.hands[t as usize] = self.hands[t as usize].or(set);
        let rest = self.dog.minus(set);
        let attack = self.attack();
        let d = (0..self.n() as u8).find(|&q| attack >> q & 1 == 0).unwrap_or(t);
        self.piles[t as usize] = self.piles[t as usize].or(to_taker);
        self.piles[d as usize] = self.piles[d as usize].or(rest.minus(to_taker));
        self.talon_taker = None;
        if self.pending_discards.is_empty() {
            self.stage = Stage::Play;
        }
        let (unseen, rule) = match &talon.unseen {
            Some(c) => (", unseen", &c.rule),
            None => ("", &clause.rule),
        };
        if !to_taker.is_empty() && to_taker != rest {
            // Some packets to each side: the rule that sent them says which.
            let rule = talon.rest.as_ref().map_or(&clause.rule, |(_, c)| &c.rule);
            self.notes.push(format!(
                "{} takes {} from {}{unseen}; {} counts for the taker, and {} for the defence{unseen} ({rule})",
                self.name(t),
                rules.cards_named(set),
                rules.the_talon(),
                rules.cards_named(to_taker),
                rules.cards_named(rest.minus(to_taker))
            ));
        } else if !rest.is_empty() {
            let whose = if to_taker == rest || d == t { "the taker's pile" } else { "the defence" };
            self.notes.push(format!("{} takes {} from {}{unseen}; the rest goes to {whose}{unseen} ({rule})", self.name(t), rules.cards_named(set), rules.the_talon()));
        }
        Ok(())
    }

    /// Whether a packet of the talon that the taker does not take goes to his pile: the talon's
    /// `rest`, read for this packet where it reads the game (`packet`, `called`, the sides).
    fn packet_to_taker(&self, packet: CardSet) -> Result<bool, Stop> {
        let Some(t) = &self.rules().talon else { return Ok(false) };
        match &t.rest {
            Some((w, clause)) if t.rest_per_packet => match w.get(&self.env(None).with_packet(packet)) {
                Ok(r) => Ok(r == TalonRest::Taker),
                Err(m) => Err(self.rule_error(clause, m)),
            },
            _ => Ok(self.setup.talon_rest_taker),
        }
    }

    /// A talon not taken (the contract's `dog` is `"defence"`) where the talon's `rest` is read packet
    /// by packet: the packets it sends to the taker go to his pile, and the verdict notes it; the
    /// cards returned are those, the rest of the dog going to the defence as before.
    pub(super) fn talon_not_taken(&mut self) -> Result<CardSet, Stop> {
        let (Some(t), Some(talon)) = (self.taker, self.rules().talon.as_ref()) else { return Ok(CardSet::EMPTY) };
        if !talon.rest_per_packet || self.dog.is_empty() {
            return Ok(CardSet::EMPTY);
        }
        let mut to_taker = CardSet::EMPTY;
        for k in self.talon_packets() {
            if self.packet_to_taker(k)? {
                to_taker = to_taker.or(k);
            }
        }
        if !to_taker.is_empty() {
            self.piles[t as usize] = self.piles[t as usize].or(to_taker);
            let rule = talon.rest.as_ref().map_or(&talon.clause.rule, |(_, c)| &c.rule);
            let rules = self.rules();
            let rest = self.dog.minus(to_taker);
            let others = if rest.is_empty() { String::new() } else { format!(", and {} for the defence", rules.cards_named(rest)) };
            self.notes.push(format!("{} is not taken: {} counts for the taker, {}{others} ({rule})", rules.the_talon(), rules.cards_named(to_taker), self.name(t)));
        }
        Ok(to_taker)
    }

    /// A discard or a card by `p` while the taker has still to take his packet of the talon.
    pub(super) fn talon_missing(&self, p: u8) -> Option<Stop> {
        let t = self.talon_taker?;
        let clause = &self.rules().talon.as_ref()?.clause;
        Some(self.violation(clause, p, format!("{} must first take a packet of {}", self.name(t), self.rules().the_talon())))
    }

    /// A show by `p` of cards he took from an unseen talon, before the hand's end (`talon { unseen }`).
    pub(super) fn shows_unseen_talon(&self, p: u8, shown: CardSet) -> Option<Stop> {
        if self.stage == Stage::Done {
            return None;
        }
        let (t, taken) = self.talon_unseen?;
        let clause = self.rules().talon.as_ref()?.unseen.as_ref()?;
        let seen = shown.and(taken);
        if t != p || seen.is_empty() {
            return None;
        }
        let cards = self.rules().cards_named(seen);
        Some(self.violation(
            clause,
            p,
            format!("{} shows {cards}, taken unseen from {talon}: the cards of {talon} are not shown before the hand's end", self.name(p), talon = self.rules().the_talon()),
        ))
    }

    /// The cards `p` took from an unseen talon, which he may not show (none for anyone else).
    pub(super) fn unseen_taken(&self, p: u8) -> CardSet {
        match self.talon_unseen {
            Some((t, taken)) if t == p && self.stage != Stage::Done => taken,
            _ => CardSet::EMPTY,
        }
    }

    /// The taker and the packets he may take, each its cards (`Game::next`): only the given one when
    /// he has no choice.
    pub(super) fn next_take(&self) -> Option<Next> {
        let t = self.talon_taker?;
        let mut packets = self.talon_packets();
        if let Some(k) = self.setup.talon_given.checked_sub(1) {
            packets = vec![packets[k]];
        }
        let count = packets.first().map(|k| k.len());
        let packets = packets.iter().map(|k| k.iter().map(|c| c.to_string()).collect()).collect();
        Some(Next { player: self.name(t), phase: Phase::Take, legal: vec![], count, packets, table: Default::default(), declarations: vec![], sit_out: vec![] })
    }
}
