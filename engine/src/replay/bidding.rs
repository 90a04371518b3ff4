//! The `bidding` section: whose turn it is to bid (once round, or until one is left), what a bid
//! must outbid, the reserving bid and its second round, all passing, and the dog of the contract won.

use crate::ir::*;
use crate::verdict::{Annulled, Next};

use super::{Game, Phase, Stop};

impl<'s, 'r> Game<'s, 'r> {
    pub(super) fn bid(&mut self, p: u8, choice: Bid) -> Result<(), Stop> {
        let Some(b) = &self.rules().bidding else {
            return Err(self.input(format!("{} has no bidding", self.rules().id)));
        };
        let turn = self.bidding_turn();
        let Some(speaker) = turn.next.filter(|_| self.phase == Phase::Bidding) else {
            return Err(self.violation(&b.turns_clause, p, "the bidding is over".into()));
        };
        if speaker != p {
            return Err(self.violation(&b.turns_clause, p, format!("it is {}'s turn to bid, not {}'s", self.name(speaker), self.name(p))));
        }
        match choice {
            Bid::Pass => {}
            Bid::Contract(c) => {
                if let Some((h, best)) = turn.holder.filter(|(_, best)| c <= *best) {
                    return Err(self.violation(
                        &b.contracts[c].clause,
                        p,
                        format!("{}'s {} does not outbid {}'s {}", self.name(p), b.contracts[c].label, self.name(h), b.contracts[best].label),
                    ));
                }
                if turn.second_round && !self.setup.reserve_contracts.contains(&c) {
                    let r = b.reserve.as_ref().expect("a second round needs a reserving bid");
                    let allowed: Vec<&str> = self.setup.reserve_contracts.iter().map(|&i| b.contracts[i].label.as_str()).collect();
                    return Err(self.violation(&r.clause, p, format!("after a {} the second round allows only {}, not {}", r.label, allowed.join(", "), b.contracts[c].label)));
                }
            }
            Bid::Reserve => {
                let r = b.reserve.as_ref().expect("read only when the ruleset has one");
                if turn.second_round {
                    return Err(self.violation(&r.clause, p, format!("a {} is said in the first round; the second round is for choosing", r.label)));
                }
            }
        }
        self.bids.push((p, choice));
        let after = self.bidding_turn();
        if after.next.is_some() {
            return Ok(());
        }
        match after.holder {
            None => {
                let c = b.all_pass.clone().unwrap_or(b.turns_clause.clone());
                Err(Stop::Annulled(Annulled { rule: c.rule, reason: "all players passed".into(), player: None, source: c.source }))
            }
            Some((t, c)) => {
                self.taker = Some(t);
                self.contract = Some(c);
                self.setup = self.setup.after_auction(c);
                match self.setup.contract_dogs[c] {
                    DogUse::Taker => self.dog_to_taker(t),
                    DogUse::TakerUnseen => self.piles[t as usize] = self.piles[t as usize].or(self.dog),
                    // The defence is known only once the sides are: after the call, where there is one.
                    DogUse::Defence => {}
                }
                if let Some(call) = &self.rules().call {
                    let callable = self.callable();
                    if callable.minus(self.dealt[t as usize]).is_empty() {
                        // Every card that may be called is his own (the next level, if any, may not
                        // be): he calls nothing and plays alone.
                        let c = call.callable_levels.as_ref().map_or(&call.clause, |(_, c)| c);
                        self.notes.push(format!(
                            "{} holds {}: there is no card to call, and {} plays alone ({})",
                            self.name(t),
                            self.rules().cards_named(callable),
                            self.name(t),
                            c.rule
                        ));
                        self.sides_settled();
                        self.phase = Phase::Discard;
                        self.owe_discards();
                    } else {
                        self.phase = Phase::Call;
                    }
                } else {
                    self.sides_settled();
                    self.phase = Phase::Discard;
                    self.owe_discards();
                }
                Ok(())
            }
        }
    }

    /// Replays the bids said so far: who speaks next (if anyone) and the best contract bid.
    fn bidding_turn(&self) -> Turn {
        let n = self.n();
        let first = self.first_hand() as usize;
        let in_order = (0..n).map(|i| ((first + i) % n) as u8);
        let mut turn = Turn { next: None, holder: None, second_round: false };
        let Some(b) = &self.rules().bidding else { return turn };
        for &(p, bid) in &self.bids {
            if let Bid::Contract(c) = bid {
                turn.holder = Some((p, c));
            }
        }
        match b.turns {
            Turns::Once => {
                // Those who reserved in the first round speak again, in the same order.
                let reserving = self.bids.iter().take(n).filter(|(_, bid)| *bid == Bid::Reserve).fold(0u16, |seats, (p, _)| seats | 1 << p);
                let said = self.bids.len();
                turn.second_round = said >= n;
                turn.next = if said < n { Some(((first + said) % n) as u8) } else { in_order.filter(|p| reserving >> p & 1 == 1).nth(said - n) };
            }
            Turns::UntilOneLeft => {
                // Each player who has not spoken challenges the holder in turn; the player outbid
                // answers at once; whoever passes is out.
                let mut queue = in_order;
                let mut answer: Option<u8> = None;
                let mut holder: Option<u8> = None;
                for &(p, bid) in &self.bids {
                    if answer == Some(p) {
                        answer = None;
                    } else {
                        queue.next();
                    }
                    if let Bid::Contract(_) = bid {
                        answer = holder.filter(|h| *h != p);
                        holder = Some(p);
                    }
                }
                turn.next = answer.or_else(|| queue.next());
            }
        }
        turn
    }

    /// Once the sides are known (after the bidding, or after the call where the taker calls a
    /// partner), a dog that counts for the defence goes to the pile of its first player: never to a
    /// seat that may still turn out to be the taker's partner.
    pub(super) fn sides_settled(&mut self) {
        let Some(c) = self.contract else { return };
        if self.setup.contract_dogs[c] == DogUse::Defence {
            let attack = self.attack();
            let d = (0..self.n() as u8).find(|&q| attack >> q & 1 == 0).unwrap_or(0);
            self.piles[d as usize] = self.piles[d as usize].or(self.dog);
        }
    }

    /// Who bids next and the bids open to him (`Game::next` in the bidding).
    pub(super) fn next_bid(&self) -> Option<Next> {
        let b = self.rules().bidding.as_ref()?;
        let turn = self.bidding_turn();
        let speaker = turn.next?;
        let floor = turn.holder.map(|(_, c)| c + 1).unwrap_or(0);
        let mut legal = vec!["pass".to_string()];
        legal.extend((floor..b.contracts.len()).filter(|c| !turn.second_round || self.setup.reserve_contracts.contains(c)).map(|c| b.contracts[c].name.clone()));
        if let Some(r) = b.reserve.as_ref().filter(|_| !turn.second_round) {
            legal.push(r.name.clone());
        }
        Some(Next { player: self.name(speaker), phase: "bid".into(), legal, count: None, table: vec![], declarations: vec![] })
    }
}

/// Where the bidding stands: who speaks next (`None` once it is over), the best contract so far and
/// its bidder, and whether this is the second round of a reserving bid.
#[derive(Clone, Copy, Debug)]
struct Turn {
    next: Option<u8>,
    holder: Option<(u8, usize)>,
    second_round: bool,
}

/// What a player says in the bidding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bid {
    Pass,
    /// A contract, by index.
    Contract(usize),
    /// The reserving bid (a parole): no contract yet, a say in the second round.
    Reserve,
}
