//! The `deal` section, and what is judged on the cards dealt: the hands, the dog, the piles and the
//! cut card checked against the settings, the recorded order of the deal (packets round the table, the
//! dog's packets and where they may fall, the cut card dealt last), the annulments (`annul`), the
//! untouchable card (`untouchable`) and the marques paid on the cut (`on cut`).

use crate::cards::{Card, CardSet};
use crate::expr::{eval, truthy, Expr};
use crate::ir::*;
use crate::verdict::Annulled;

use super::{Game, Stage, Stop, MAX_PLAYERS};

impl<'s, 'r> Game<'s, 'r> {
    pub(super) fn deal(&mut self, hands: &[CardSet], dog: CardSet, cut: Option<Card>, piles: &[Vec<Vec<Card>>], packets: &[(Option<u8>, Vec<Card>)]) -> Result<(), Stop> {
        if self.stage != Stage::Deal {
            return Err(self.input("the cards were already dealt".into()));
        }
        let mut seen = CardSet::EMPTY;
        for p in 0..self.n() as u8 {
            let hand = hands[p as usize];
            let want = if p == self.dealer { self.setup.dealer_hand } else { self.setup.hand };
            if hand.len() != want {
                let name = self.name(p);
                return Err(self.input(format!("{name} is dealt {} cards; {} deals {want}{}", hand.len(), self.rules().id, if p == self.dealer { " to the dealer" } else { "" })));
            }
            seen = seen.or(hand);
            self.hands[p as usize] = hand;
            self.dealt[p as usize] = hand;
        }
        if dog.len() != self.setup.dog {
            return Err(self.input(format!("{} has {} cards; {} deals {} to it", self.rules().the_dog(), dog.len(), self.rules().id, self.setup.dog)));
        }
        self.dog = dog;
        self.table_piles = vec![vec![]; self.n()];
        for p in 0..self.n() {
            let mine = piles.get(p).cloned().unwrap_or_default();
            let (want, size) = (self.setup.piles, self.setup.pile_size);
            if mine.len() != want || mine.iter().any(|pile| pile.len() != size) {
                let name = self.name(p as u8);
                return Err(self.input(format!(
                    "{name} has {} piles of {:?} cards; {} deals {want} piles of {size}",
                    mine.len(),
                    mine.iter().map(Vec::len).collect::<Vec<_>>(),
                    self.rules().id
                )));
            }
            for pile in &mine {
                seen = seen.or(pile.iter().copied().collect());
                self.dealt[p] = self.dealt[p].or(pile.iter().copied().collect());
                if let Some(&top) = pile.last() {
                    self.hands[p].insert(top);
                }
            }
            self.table_piles[p] = mine;
        }
        let missing = self.rules().pack.cards.minus(seen.or(dog));
        if !missing.is_empty() {
            return Err(self.input(format!("cards missing from the deal: {}", self.rules().cards_named(missing))));
        }
        if self.rules().deal.cut.is_some() {
            let Some(c) = cut else {
                return Err(self.input(format!("{} shows the cut card: the deal needs \"cut\"", self.rules().id)));
            };
            if !self.hands[self.dealer as usize].contains(c) {
                return Err(self.input(format!("the cut card {c} goes to the dealer, but it is not in {}'s hand", self.name(self.dealer))));
            }
            self.cut = Some(c);
        }
        if !packets.is_empty() {
            self.deal_order(packets)?;
        }
        // The deal's requirements, which may read the match so far (`carried`).
        for (label, e, c) in &self.rules().deal.requires {
            let env = self.env(None);
            if !eval(e, &env).and_then(|v| truthy(&v)).map_err(|m| self.rule_error(c, m))? {
                return Err(self.violation(c, self.dealer, format!("{}: this deal does not meet it", self.label(label))));
            }
        }
        if let Some((a, p)) = self.first_annulment(&self.hands[..self.n()])? {
            let a = &self.rules().annulments[a];
            return Err(Stop::Annulled(Annulled {
                rule: a.clause.rule.clone(),
                reason: format!("{}: {}", self.name(p), a.label),
                player: Some(self.name(p)),
                source: a.clause.source.clone(),
            }));
        }
        if let Some(u) = &self.rules().untouchable {
            if let Some(p) = (0..self.n() as u8).find(|&p| self.hands[p as usize].contains(u.card)) {
                if self.hand_holds(p, self.hands[p as usize], &u.when, &u.clause)? {
                    self.untouchable = Some((p, u.card));
                    self.notes.push(format!("{} holds {}: {}, played like the Excuse ({})", self.name(p), self.rules().card_name(u.card), u.label, u.clause.rule));
                }
            }
        }
        if let Some(c) = self.cut {
            for t in self.rules().triggers.iter().filter(|t| t.on == TriggerEvent::Cut && t.cards.contains(c)) {
                let env = self.env(Some(self.dealer)).with_card(c, false, false);
                let v = self.number(&t.value, &env, &t.clause)?;
                match t.pot {
                    Some(i) => self.pay_pot(self.dealer, i, v, &t.label, &t.clause)?,
                    None => self.pay_each_opponent(self.dealer, v, &t.label, &t.clause),
                }
            }
        }
        self.stage = if self.rules().bidding.is_some() { Stage::Bidding } else { Stage::Discard };
        if self.stage == Stage::Discard {
            self.owe_discards();
            self.begin_steal();
        }
        Ok(())
    }

    /// Checks the recorded order of the deal against the rules (packet sizes round the table from
    /// first hand, the dog's packets and where they may fall, the cut card dealt last to the dealer)
    /// and keeps each player's first packet.
    fn deal_order(&mut self, packets: &[(Option<u8>, Vec<Card>)]) -> Result<(), Stop> {
        let rules = self.rules();
        let mut first = [CardSet::EMPTY; MAX_PLAYERS];
        let mut seen = [false; MAX_PLAYERS];
        for (to, cards) in packets {
            if let Some(p) = *to {
                if !std::mem::replace(&mut seen[p as usize], true) {
                    first[p as usize] = cards.iter().copied().collect();
                }
            }
        }
        self.first_packets = Some(first);
        self.keep_deal_order(packets);
        let cards = |n: usize| if n == 1 { "1 card".to_string() } else { format!("{n} cards") };
        // The order the record follows, among those the rules allow (the dealer's choice where they
        // allow several).
        let mut order = 0;
        if let (false, Some((_, c))) = (self.setup.packets.is_empty(), &rules.deal.packets) {
            // The players' packets, with their place among all the packets recorded.
            let got: Vec<(usize, u8, usize)> = packets.iter().enumerate().filter_map(|(i, (to, dealt))| to.map(|p| (i, p, dealt.len()))).collect();
            // For each order, the first packet that departs from it (none: the record follows it).
            let departs = |k: usize| {
                let want = self.setup.packet_order(self.dealer, k);
                (0..want.len().max(got.len())).find(|&j| want.get(j).copied() != got.get(j).map(|&(_, p, n)| (p, n))).map(|j| (j, want))
            };
            let choices = self.setup.packets.len();
            match (0..choices).find(|&k| departs(k).is_none()) {
                Some(k) => order = k,
                None => {
                    // The order followed longest names the packet that departs.
                    let (j, want) = (0..choices).filter_map(departs).max_by_key(|(j, _)| *j).expect("an order departed from");
                    let given = got.get(j).map(|&(i, p, n)| format!("packet {} gives {} to {}", i + 1, cards(n), self.name(p))).unwrap_or_else(|| "the packets stop".into());
                    let due = want.get(j).map(|&(p, n)| format!("{} to {}", cards(n), self.name(p))).unwrap_or_else(|| "nothing more".into());
                    let among = if choices > 1 {
                        format!(" (in the order the record follows furthest of the {choices} the dealer may choose: {})", self.setup.orders_words())
                    } else {
                        String::new()
                    };
                    return Err(self.violation(c, self.dealer, format!("{given}; going round from first hand, the deal's packet {} to a player is {due}{among}", j + 1)));
                }
            }
            if choices > 1 {
                let name = self.name(self.dealer);
                self.notes.push(format!("{name} deals the packets {}, one of the orders the dealer may choose ({})", self.setup.order_words(order), c.rule));
            }
        }
        if let (Some(k), Some((_, c))) = (self.setup.dog_packet, &rules.deal.dog_packets) {
            if let Some((i, (_, dealt))) = packets.iter().enumerate().find(|(_, (to, dealt))| to.is_none() && dealt.len() != k) {
                let named = rules.cards_named(dealt.iter().copied().collect());
                return Err(self.violation(
                    c,
                    self.dealer,
                    format!("packet {} gives {dog} {} ({named}); {dog} is dealt {} at a time", i + 1, cards(dealt.len()), cards(k), dog = rules.the_dog()),
                ));
            }
        }
        if let (Some(r), Some((_, c))) = (self.setup.dog_after, &rules.deal.dog_after) {
            let due = self.setup.packets_in_rounds(order, r);
            let mut players_before = 0;
            for (i, (to, dealt)) in packets.iter().enumerate() {
                match to {
                    Some(_) => players_before += 1,
                    None if players_before != due => {
                        let named = rules.cards_named(dealt.iter().copied().collect());
                        // The talon dealt first (`dog_after = 0`) has no round before it to name.
                        let when = if r == 0 { "first, before any packet to a player".to_string() } else { format!("after {r} round(s), the first {due}") };
                        return Err(self.violation(
                            c,
                            self.dealer,
                            format!("packet {} gives {dog} {named} after {players_before} packets to players; {dog} is dealt {when}", i + 1, dog = rules.the_dog()),
                        ));
                    }
                    None => {}
                }
            }
        }
        if let (apart, Some((_, c))) = (self.setup.dog_apart, &rules.deal.dog_apart) {
            let total: usize = packets.iter().map(|(_, cards)| cards.len()).sum();
            let mut at = 0;
            for (to, cards) in packets {
                if to.is_none() && (at < apart || at + cards.len() > total - apart) {
                    return Err(self.violation(
                        c,
                        self.dealer,
                        format!(
                            "{} goes to {} as card {} of {total}; the first {apart} and the last {apart} cards of the pack may not",
                            rules.cards_named(cards.iter().copied().collect()),
                            rules.the_dog(),
                            at + 1
                        ),
                    ));
                }
                at += cards.len();
            }
        }
        if let (Some(cut), Some(c)) = (self.cut, &rules.deal.cut) {
            let last = packets.last().and_then(|(to, dealt)| dealt.last().map(|c| (*to, *c)));
            if last != Some((Some(self.dealer), cut)) {
                let dealt_last = match last {
                    Some((to, c)) => format!("{} to {}", rules.card_name(c), to.map_or_else(|| rules.the_dog(), |p| self.name(p).to_string())),
                    None => "nothing".into(),
                };
                return Err(self.violation(
                    c,
                    self.dealer,
                    format!("the cut card {} is the bottom of the pack and is dealt last, to the dealer; the last card dealt is {dealt_last}", rules.card_name(cut)),
                ));
            }
        }
        Ok(())
    }

    /// The first annulment that strikes these hands, and whose hand it is.
    pub fn first_annulment(&self, hands: &[CardSet]) -> Result<Option<(usize, u8)>, Stop> {
        for i in 0..self.rules().annulments.len() {
            for (p, hand) in hands.iter().enumerate() {
                if self.annuls(i, p as u8, *hand)? {
                    return Ok(Some((i, p as u8)));
                }
            }
        }
        Ok(None)
    }

    /// Whether annulment `i` strikes player `p`'s `hand`.
    pub fn annuls(&self, i: usize, p: u8, hand: CardSet) -> Result<bool, Stop> {
        let a = &self.rules().annulments[i];
        self.hand_holds(p, hand, &a.when, &a.clause)
    }

    /// Whether a condition on a hand (an annulment's, the untouchable card's) holds for player `p`.
    pub(super) fn hand_holds(&self, p: u8, hand: CardSet, cond: &Expr, c: &Clause) -> Result<bool, Stop> {
        eval(cond, &self.env(Some(p)).with_hand(hand)).and_then(|v| truthy(&v)).map_err(|e| self.rule_error(c, e))
    }
}

impl Settings {
    /// How many packets the players are dealt in the first `rounds` rounds of order `k` (the first
    /// where the rules give one).
    pub fn packets_in_rounds(&self, k: usize, rounds: usize) -> usize {
        let Some((others, dealers)) = self.packets.get(k) else { return 0 };
        (self.n - 1) * others.len().min(rounds) + dealers.len().min(rounds)
    }

    /// The players' packets in order `k` of those the rules deal (the first where they give one),
    /// `(seat, cards)`: round by round, from first hand round to the dealer; empty when the rules give
    /// no order.
    pub fn packet_order(&self, dealer: u8, k: usize) -> Vec<(u8, usize)> {
        let Some((others, dealers)) = self.packets.get(k) else { return vec![] };
        let mut order = vec![];
        for r in 0..others.len().max(dealers.len()) {
            for i in 1..=self.n {
                let p = ((dealer as usize + i) % self.n) as u8;
                let sizes = if p == dealer { dealers } else { others };
                if let Some(&k) = sizes.get(r) {
                    order.push((p, k));
                }
            }
        }
        order
    }

    /// Order `k` of the packets in words: each player's sizes round by round, "5 + 6" (the dealer's
    /// after, where they differ).
    pub fn order_words(&self, k: usize) -> String {
        let join = |sizes: &[usize]| sizes.iter().map(usize::to_string).collect::<Vec<_>>().join(" + ");
        match self.packets.get(k) {
            Some((others, dealers)) if others == dealers => join(others),
            Some((others, dealers)) => format!("{}, the dealer's {}", join(others), join(dealers)),
            None => String::new(),
        }
    }

    /// Every order the dealer may choose, in words: "5 + 6 or 6 + 5".
    pub fn orders_words(&self) -> String {
        (0..self.packets.len()).map(|k| self.order_words(k)).collect::<Vec<_>>().join(" or ")
    }
}
