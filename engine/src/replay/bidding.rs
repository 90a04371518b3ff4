//! The `bidding` section: whose turn it is to bid (once round, until one is left, or round and round),
//! what a bid must outbid (and forehand's hold), who may not bid again, the bids a hand forces, the
//! reserving bid and its second round, all passing, and the dog of the contract won.

use crate::expr::Expr;
use crate::ir::*;
use crate::verdict::{Annulled, Next, Phase};

use super::{Game, Stage, Stop};

impl<'s, 'r> Game<'s, 'r> {
    pub(super) fn bid(&mut self, p: u8, choice: Bid) -> Result<(), Stop> {
        let Some(b) = &self.rules().bidding else {
            return Err(self.input(format!("{} has no bidding", self.rules().id)));
        };
        if let Some((t, won)) = self.choosing {
            return self.choose(p, choice, t, won);
        }
        let turn = self.bidding_turn();
        if let Some(clause) = b.opening_out.as_ref().filter(|_| self.out_head(&turn) == Some(p) && turn.next.is_some()) {
            let (_, c) = turn.carried.expect("an opening bidder is out only after his bid");
            return Err(self.violation(clause, p, format!("{} bid {} in the opening round and does not speak again in the auction after it", self.name(p), b.contracts[c].label)));
        }
        let Some(speaker) = turn.next.filter(|_| self.stage == Stage::Bidding) else {
            // A closing bid ended it: that rule says why nobody speaks after it.
            if let Some((q, c, clause)) = self.closed_by() {
                return Err(self.violation(clause, p, format!("the bidding is over: {}'s {} ended it", self.name(q), b.contracts[c].label)));
            }
            return Err(self.violation(&b.turns_clause, p, "the bidding is over".into()));
        };
        if speaker != p {
            // A closing contract that may be said out of turn, by a player yet to speak in the round.
            match (choice, &b.out_of_turn) {
                (Bid::Contract(c), Some((cs, clause))) if cs.contains(&c) => {
                    if self.has_spoken(p, &turn) {
                        let why = format!("{} may be said before one's turn only until one's first word in the round, and {} has spoken", b.contracts[c].label, self.name(p));
                        return Err(self.violation(clause, p, why));
                    }
                }
                _ => return Err(self.violation(&b.turns_clause, p, format!("it is {}'s turn to bid, not {}'s", self.name(speaker), self.name(p)))),
            }
        }
        if let Some(m) = self.forced_bid(p, &turn)? {
            let lower = match choice {
                Bid::Contract(c) => c < m.contract,
                Bid::Pass | Bid::Reserve => true,
            };
            if lower {
                let said = match choice {
                    Bid::Contract(c) => format!("bid {}", b.contracts[c].label),
                    Bid::Pass => "pass".into(),
                    Bid::Reserve => format!("say {}", b.reserve.as_ref().map_or("", |r| r.label.as_str())),
                };
                return Err(self.violation(&m.clause, p, format!("{} holds {}, so must bid at least {}: may not {said}", self.name(p), m.label, b.contracts[m.contract].label)));
            }
        }
        match choice {
            Bid::Pass => {}
            Bid::Contract(c) if b.all_pass_play == Some(c) => {
                let clause = b.all_pass.as_ref().expect("`all-pass play` sets both");
                return Err(self.violation(clause, p, format!("{} is played when everyone passes; nobody bids it", b.contracts[c].label)));
            }
            Bid::Contract(c) if b.instead.iter().any(|i| i.chosen == c) => {
                let i = b.instead.iter().find(|i| i.chosen == c).expect("just found");
                return Err(self.violation(
                    &i.clause,
                    p,
                    format!("{} is not bid: {} may choose it in place of {} once the auction is won", b.contracts[c].label, i.label, b.contracts[i.won].label),
                ));
            }
            Bid::Contract(c) => {
                if let Some((cs, clause)) = b.opening_round.as_ref().filter(|_| !self.in_round(&turn, c)) {
                    let names: Vec<&str> = cs.iter().map(|&i| b.contracts[i].label.as_str()).collect();
                    let why = if turn.opening {
                        format!("the opening round is for {} or a pass, not {}", names.join(", "), b.contracts[c].label)
                    } else {
                        format!("{} is bid only in the opening round, which is over", b.contracts[c].label)
                    };
                    return Err(self.violation(clause, p, why));
                }
                if let Some(by) = &b.contracts[c].by {
                    if !self.hand_holds(p, self.dealt[p as usize], &by.when, &by.clause)? {
                        return Err(self.violation(&by.clause, p, format!("{} may be bid only by {}, and {} is not", b.contracts[c].label, by.label, self.name(p))));
                    }
                }
                if let Some(clause) = b.no_reraise.as_ref().filter(|_| turn.outbid >> p & 1 == 1) {
                    return Err(self.violation(clause, p, format!("{} was outbid, and may only pass: a player outbid may not bid again", self.name(p))));
                }
                if let Some((h, best)) = turn.holder.filter(|_| c < self.lowest_bid(p, &turn)) {
                    return Err(self.violation(
                        &b.contracts[c].clause,
                        p,
                        format!("{}'s {} does not outbid {}'s {}", self.name(p), b.contracts[c].label, self.name(h), b.contracts[best].label),
                    ));
                }
                if let Some((_, clause)) = b.first_turn.as_ref().filter(|(cs, _)| cs.contains(&c) && self.has_spoken(p, &turn)) {
                    return Err(self.violation(clause, p, format!("{} may be bid only at a player's first turn, and {} has spoken before", b.contracts[c].label, self.name(p))));
                }
                if let Some((why, clause)) = self.step_refuses(p, &turn, c) {
                    return Err(self.violation(clause, p, why));
                }
                if turn.second_round && !self.setup.reserve_contracts.contains(&c) {
                    let r = b.reserve.as_ref().expect("a second round needs a reserving bid");
                    let allowed: Vec<&str> = self.setup.reserve_contracts.iter().map(|&i| b.contracts[i].label.as_str()).collect();
                    return Err(self.violation(
                        &r.clause,
                        p,
                        format!("after {} the second round allows only {}, not {}", crate::label::with_article(&r.label), allowed.join(", "), b.contracts[c].label),
                    ));
                }
            }
            Bid::Reserve => {
                let r = b.reserve.as_ref().expect("read only when the ruleset has one");
                if turn.second_round {
                    return Err(self.violation(&r.clause, p, format!("{} is said in the first round; the second round is for choosing", crate::label::with_article(&r.label))));
                }
            }
        }
        self.bids.push((p, choice));
        if let Some((q, c, clause)) = self.closed_by() {
            let early = if q != speaker { format!(", said out of turn (it was {}'s),", self.name(speaker)) } else { String::new() };
            self.notes.push(format!("{}'s {}{early} ends the auction ({})", self.name(q), b.contracts[c].label, clause.rule));
        }
        let after = self.bidding_turn();
        if after.next.is_some() {
            return Ok(());
        }
        match after.holder {
            // Everyone passed: the first player the rules name plays their contract as its taker.
            None if self.named_by_all_pass()?.is_some() => {
                let (i, t) = self.named_by_all_pass()?.expect("just found");
                let x = &b.all_pass_by[i];
                self.notes.push(format!("all players passed: {}, {}, plays {} as its taker ({})", self.name(t), x.label, b.contracts[x.contract].label, x.clause.rule));
                self.named = Some(i);
                self.won(t, x.contract)
            }
            None => match (b.all_pass_play, &b.all_pass) {
                // Everyone passed: the all-pass contract is played, each for himself, with no taker;
                // the dog counts for nobody.
                (Some(c), Some(clause)) => {
                    self.notes.push(format!("all players passed: {} is played, each for himself ({})", b.contracts[c].label, clause.rule));
                    self.each_for_himself(c);
                    Ok(())
                }
                _ => {
                    // Nobody named and nothing else said: void, under the first rule that could name one.
                    let c = b.all_pass.clone().or_else(|| b.all_pass_by.first().map(|x| x.clause.clone())).unwrap_or(b.turns_clause.clone());
                    // Thrown in, with what the rules pay for it (`all-pass pay`): the deal's score.
                    // Where no payment is due at this table (all amounts 0), the deal is void as ever.
                    for pay in &b.all_pass_pays {
                        let entries = self.pays_between(pay, &mut self.env(None), Some(self.event))?;
                        if !entries.is_empty() {
                            self.notes.push(format!("all players passed: the deal is thrown in, and paid for (“{}”, {})", pay.label, pay.clause.rule));
                            self.ledger.extend(entries);
                            self.thrown_in_paid = true;
                        }
                    }
                    Err(Stop::Annulled(Annulled { rule: c.rule, reason: "all players passed".into(), player: None, source: c.source }))
                }
            },
            // The winner may yet name another contract in its place: his next bid says which.
            Some((t, c)) if self.last_word(t, c)?.is_open() => {
                self.choosing = Some((t, c));
                Ok(())
            }
            Some((t, c)) => self.won(t, c),
        }
    }

    /// Everyone having passed, the player the rules name to play a contract as taker (`all-pass play
    /// CONTRACT by`): the statements in the order written, each trying the players in turn from
    /// first hand on their hands as dealt; the statement's index and the player.
    fn named_by_all_pass(&self) -> Result<Option<(usize, u8)>, Stop> {
        let Some(b) = &self.rules().bidding else { return Ok(None) };
        let (n, first) = (self.n(), self.first_hand() as usize);
        for (i, x) in b.all_pass_by.iter().enumerate() {
            for p in (0..n).map(|k| ((first + k) % n) as u8) {
                if self.hand_holds(p, self.dealt[p as usize], &x.when, &x.clause)? {
                    return Ok(Some((i, p)));
                }
            }
        }
        Ok(None)
    }

    /// The first player in turn from first hand whose hand as dealt meets `cond` (a contract's `by`,
    /// `ends-match after-deal-by`).
    pub(super) fn first_meeting(&self, cond: &Expr, clause: &Clause) -> Result<Option<u8>, Stop> {
        let (n, first) = (self.n(), self.first_hand() as usize);
        for p in (0..n).map(|k| ((first + k) % n) as u8) {
            if self.hand_holds(p, self.dealt[p as usize], cond, clause)? {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    /// The rule that made the taker play, everyone having passed (`all-pass play CONTRACT by`), and
    /// who he is in words.
    pub(super) fn named_taker(&self) -> Option<&'r AllPassBy> {
        Some(&self.rules().bidding.as_ref()?.all_pass_by[self.named?])
    }

    /// Contract `c` is played with no taker, every player for himself (all passed, or the winner
    /// chose it): the dog counts for nobody.
    pub(super) fn each_for_himself(&mut self, c: usize) {
        self.contract = Some(c);
        self.setup = self.setup.after_auction(c);
        self.stage = Stage::Discard;
        self.owe_discards();
    }

    /// The auction is won by `t` with `c`: the dog as the contract says, then the call or the discards.
    pub(super) fn won(&mut self, t: u8, c: usize) -> Result<(), Stop> {
        self.taker = Some(t);
        self.contract = Some(c);
        self.setup = self.setup.after_auction(c);
        self.buys_left = self.setup.buy_cards;
        if self.settle(t, c)? {
            return Ok(());
        }
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
                self.notes.push(self.nothing_to_call(t, c));
                self.sides_settled()?;
                self.stage = Stage::Discard;
                self.owe_discards();
            } else {
                self.stage = Stage::Call;
            }
        } else {
            self.sides_settled()?;
            self.stage = Stage::Discard;
            self.owe_discards();
        }
        Ok(())
    }

    /// Where a declaration made once the opening round is over (`when after-opening-round`) stands:
    /// `Ok` while it may be made (the round is over, and no bid nor other move has followed it),
    /// `Err(true)` too early (the deal or the round still going on), `Err(false)` too late.
    pub(crate) fn after_opening_round(&self) -> Result<(), bool> {
        match self.stage {
            Stage::Deal => return Err(true),
            Stage::Bidding if self.choosing.is_none() => {}
            _ => return Err(false),
        }
        if self.rules().bidding.as_ref().is_none_or(|b| b.opening_round.is_none()) {
            return Err(false);
        }
        let turn = self.bidding_turn();
        if turn.opening {
            Err(true)
        } else if self.bids.len() > turn.from {
            Err(false)
        } else {
            Ok(())
        }
    }

    /// Where the auction stands, for the simulator: whether its opening round (`opening-round`) is in
    /// progress, and how many bids the round in progress has had (all of them, without one).
    pub fn round_so_far(&self) -> (bool, usize) {
        let turn = self.bidding_turn();
        (turn.opening, if turn.opening { self.bids.len() } else { self.round_bids(&turn).count() })
    }

    /// Whether contract `target` is one that no other player than the speaker may bid now (its `by`)
    /// and that one of them may bid once the speaker has bid `opening` (pagat's Ministranten: a
    /// Gegensolo is said only over a Solo), for the simulator steering to it from an opening round.
    pub fn opened_by(&self, target: usize, opening: usize) -> bool {
        let Some(by) = self.rules().bidding.as_ref().and_then(|b| b.contracts.get(target)?.by.as_ref()) else { return false };
        let Some(speaker) = self.bidding_turn().next else { return false };
        let others = || (0..self.n() as u8).filter(move |&q| q != speaker);
        let holds = |g: &Game, q: u8| g.hand_holds(q, g.dealt[q as usize], &by.when, &by.clause).unwrap_or(false);
        if others().any(|q| holds(self, q)) {
            return false;
        }
        let mut after = self.clone();
        after.bids.push((speaker, Bid::Contract(opening)));
        others().any(|q| holds(&after, q))
    }

    /// Whether a step of the `step` chain below contract `target` is one that some player may not bid,
    /// its `by` unmet by the hand dealt him (pagat's Ministranten: the Leere games only with empty
    /// cards), so that the chain may break below the target whoever climbs it: for the simulator,
    /// which deals again a game steered to the target that missed it so.
    pub fn chain_barred_below(&self, target: usize) -> bool {
        let Some(b) = self.rules().bidding.as_ref() else { return false };
        let Some((cs, _)) = b.step.as_ref() else { return false };
        let Some(at) = cs.iter().position(|&c| c == target) else { return false };
        cs[..at]
            .iter()
            .filter_map(|&c| b.contracts[c].by.as_ref())
            .any(|by| (0..self.n() as u8).any(|q| !self.hand_holds(q, self.dealt[q as usize], &by.when, &by.clause).unwrap_or(true)))
    }

    /// Whether the auction is won and its winner is still to say what he plays (`instead`, `raise`).
    pub fn choosing(&self) -> bool {
        self.choosing.is_some()
    }

    /// The closing bid (`closing`) that ended the auction, if one did: its bidder, its contract and
    /// the rule.
    fn closed_by(&self) -> Option<(u8, usize, &'r Clause)> {
        let (cs, clause) = self.rules().bidding.as_ref()?.closing.as_ref()?;
        match self.bids.last() {
            Some(&(q, Bid::Contract(c))) if cs.contains(&c) => Some((q, c, clause)),
            _ => None,
        }
    }

    /// Whether `p` has said anything in the round in progress yet (the whole auction, without an
    /// opening round; after one, his opening bid counts as his first word in the auction).
    fn has_spoken(&self, p: u8, turn: &Turn) -> bool {
        self.round_bids(turn).any(|(q, _)| q == p)
    }

    /// The bids of the round in progress: the opening round's, or those of the auction after it,
    /// led by the opening bid carried into it.
    fn round_bids<'a>(&'a self, turn: &Turn) -> impl Iterator<Item = (u8, Bid)> + 'a {
        let carried = turn.carried.map(|(p, c)| (p, Bid::Contract(c)));
        carried.into_iter().chain(self.bids[turn.from..].iter().copied())
    }

    /// Whether contract `c` may be bid in the round in progress: with an opening round, its
    /// contracts there and the others after it.
    fn in_round(&self, turn: &Turn, c: usize) -> bool {
        let b = self.rules().bidding.as_ref().expect("read in the bidding");
        b.opening_round.as_ref().is_none_or(|(cs, _)| cs.contains(&c) == turn.opening)
    }

    /// The players of the round in progress in their order: from first hand, or, in the auction
    /// after an opening bid, its bidder first and the others from first hand; with `opening-bidder
    /// out`, the others alone, from the player after him in turn (`from first-hand`: from first hand,
    /// skipping him).
    fn round_order(&self, turn: &Turn) -> impl Iterator<Item = u8> + '_ {
        let (n, first) = (self.n(), self.first_hand() as usize);
        let out = self.out_head(turn);
        let head = turn.carried.map(|(p, _)| p).filter(|_| out.is_none());
        let from_first = self.rules().bidding.as_ref().is_some_and(|b| b.opening_out_from_first);
        let start = out.filter(|_| !from_first).map_or(first, |o| o as usize + 1);
        head.into_iter().chain((0..n).map(move |i| ((start + i) % n) as u8).filter(move |&q| Some(q) != head && Some(q) != out))
    }

    /// The opening round's bidder, out of the auction after it (`opening-bidder out`, in the games
    /// whose options make its condition true where it has one).
    fn out_head(&self, turn: &Turn) -> Option<u8> {
        let b = self.rules().bidding.as_ref()?;
        b.opening_out.as_ref()?;
        if let Some(e) = &b.opening_out_if {
            crate::expr::eval(e, &self.env(None)).and_then(|v| crate::expr::truthy(&v)).unwrap_or(false).then_some(())?;
        }
        turn.carried.map(|(p, _)| p)
    }

    /// `p`'s place in the order of the round in progress, from 0.
    fn place(&self, p: u8, turn: &Turn) -> usize {
        self.round_order(turn).position(|q| q == p).unwrap_or(usize::MAX)
    }

    /// Under `step`, why contract `c` may not be bid now, and the rule: a contract of the list held
    /// may be outbid among them only by the next, and one after the first is bid only over the one
    /// before it (or at it, where its holder may be held): "one may only outbid a Single with a
    /// Double, or a Double with a Triple" (TG42).
    fn step_refuses(&self, p: u8, turn: &Turn, c: usize) -> Option<(String, &'r Clause)> {
        let b = self.rules().bidding.as_ref()?;
        let (cs, clause) = b.step.as_ref()?;
        let i = cs.iter().position(|&x| x == c)?;
        let label = |x: usize| b.contracts[x].label.as_str();
        let best = turn.holder.map(|(h, best)| (h, best, cs.iter().position(|&x| x == best)));
        // `step lowest`: a player who may hold the contract held holds it or passes.
        if let Some((h, best, Some(_))) = best.filter(|&(h, best, _)| b.step_lowest && c != best && h != p && self.lowest_bid(p, turn) == best) {
            return Some((
                format!("{} may hold {}'s {} or pass, not bid {}: each bid is the lowest open to its bidder", self.name(p), self.name(h), label(best), label(c)),
                clause,
            ));
        }
        match best {
            Some((h, best, Some(j))) if i > j + 1 => Some((format!("{}'s {} may be outbid only by {}, not by {}", self.name(h), label(best), label(cs[j + 1]), label(c)), clause)),
            Some((_, _, Some(_))) => None,
            _ if i == 0 => None,
            _ => Some((format!("{} is bid only over {}, and none is held", crate::label::with_article(label(c)), crate::label::with_article(label(cs[i - 1]))), clause)),
        }
    }

    /// The lowest contract `p` may bid now: one above the best bid, or the best bid itself for
    /// forehand where he may hold (`hold forehand`), or for any player earlier in turn from first
    /// hand than its holder (`hold seniority`).
    fn lowest_bid(&self, p: u8, turn: &Turn) -> usize {
        let holds = self.rules().bidding.as_ref().is_some_and(|b| b.hold.is_some());
        let place = |q: u8| self.place(q, turn);
        let senior = |h: u8| if self.setup.hold_seniority { place(p) < place(h) } else { place(p) == 0 };
        match turn.holder {
            Some((h, c)) if holds && h != p && Some(h) != self.out_head(turn) && senior(h) => c,
            Some((_, c)) => c + 1,
            None => 0,
        }
    }

    /// The first `must-bid` that binds `p` now: his hand as dealt meets its condition, and its
    /// contract is still open to him (no higher bid held, not outbid where that bars him).
    fn forced_bid(&self, p: u8, turn: &Turn) -> Result<Option<&'r MustBid>, Stop> {
        let Some(b) = &self.rules().bidding else { return Ok(None) };
        if turn.second_round || b.no_reraise.is_some() && turn.outbid >> p & 1 == 1 {
            return Ok(None);
        }
        for m in &b.must_bid {
            if m.contract >= self.lowest_bid(p, turn) && self.in_round(turn, m.contract) && self.hand_holds(p, self.dealt[p as usize], &m.when, &m.clause)? {
                return Ok(Some(m));
            }
        }
        Ok(None)
    }

    /// Replays the bids said so far: who speaks next (if anyone) and the best contract bid.
    fn bidding_turn(&self) -> Turn {
        let n = self.n();
        let first = self.first_hand() as usize;
        let mut turn = Turn { next: None, holder: None, second_round: false, outbid: 0, opening: false, from: 0, carried: None };
        let Some(b) = &self.rules().bidding else { return turn };
        if let Some((cs, _)) = &b.opening_round {
            // The opening round: from first hand, until the first bid of its contracts or n passes.
            let bid_at = self.bids.iter().position(|(_, bid)| matches!(bid, Bid::Contract(c) if cs.contains(c)));
            match bid_at {
                Some(k) => {
                    let (p, bid) = self.bids[k];
                    let Bid::Contract(c) = bid else { unreachable!("a contract") };
                    (turn.from, turn.carried) = (k + 1, Some((p, c)));
                }
                None if self.bids.len() >= n => turn.from = n,
                None => turn.opening = true,
            }
        }
        let round: Vec<(u8, Bid)> = if turn.opening { self.bids.clone() } else { self.round_bids(&turn).collect() };
        for &(p, bid) in &round {
            if let Bid::Contract(c) = bid {
                // Whoever held the best bid before is now outbid (or held, by forehand).
                if let Some((h, _)) = turn.holder.filter(|(h, _)| *h != p) {
                    turn.outbid |= 1 << h;
                }
                turn.holder = Some((p, c));
            }
        }
        // A closing bid ends the auction at once.
        if self.closed_by().is_some() {
            return turn;
        }
        let order: Vec<u8> = self.round_order(&turn).collect();
        if turn.opening {
            turn.holder = None;
            turn.next = order.get(self.bids.len()).copied();
            return turn;
        }
        let in_order = order.iter().copied();
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
                // An opening bidder out of the auction is no speaker of it: he never answers.
                let out = self.out_head(&turn);
                let mut queue = in_order;
                let mut answer: Option<u8> = None;
                let mut holder: Option<u8> = None;
                for &(p, bid) in &round {
                    if answer == Some(p) {
                        answer = None;
                    } else if Some(p) != out {
                        queue.next();
                    }
                    if let Bid::Contract(_) = bid {
                        answer = holder.filter(|h| *h != p && Some(*h) != out);
                        holder = Some(p);
                    }
                }
                turn.next = answer.or_else(|| queue.next());
            }
            Turns::Rounds => {
                // Round and round from first hand: a pass is final, and the holder of the best bid
                // is skipped; it ends when nobody else is left.
                // An opening bidder out of the auction counts as one who passed.
                let out = self.out_head(&turn);
                let mut passed = out.map_or(0u16, |o| 1 << o);
                let mut at = 0usize;
                for &(p, bid) in round.iter().filter(|(p, _)| Some(*p) != out) {
                    if bid == Bid::Pass {
                        passed |= 1 << p;
                    }
                    at = order.iter().position(|&q| q == p).unwrap_or(0) + 1;
                }
                let holder = turn.holder.map(|(h, _)| h);
                turn.next = (0..order.len()).map(|i| order[(at + i) % order.len()]).find(|&q| passed >> q & 1 == 0 && Some(q) != holder);
            }
        }
        turn
    }

    /// Once the sides are known (after the bidding, or after the call where the taker calls a
    /// partner), a dog that counts for the defence goes to the pile of its first player: never to a
    /// seat that may still turn out to be the taker's partner. Where the talon's `rest` is read
    /// packet by packet, each packet goes where it says (`Game::talon_not_taken`).
    pub(super) fn sides_settled(&mut self) -> Result<(), Stop> {
        let Some(c) = self.contract else { return Ok(()) };
        if self.setup.contract_dogs[c] == DogUse::Defence {
            let attack = self.attack();
            let d = (0..self.n() as u8).find(|&q| attack >> q & 1 == 0).unwrap_or(0);
            let to_taker = self.talon_not_taken()?;
            self.piles[d as usize] = self.piles[d as usize].or(self.dog.minus(to_taker));
        }
        Ok(())
    }

    /// Who bids next and the bids open to him (`Game::next` in the bidding).
    pub(super) fn next_bid(&self) -> Option<Next> {
        let b = self.rules().bidding.as_ref()?;
        if let Some((t, won)) = self.choosing {
            let legal = self.last_word(t, won).ok()?.names(b, won);
            return Some(Next { player: self.name(t), phase: Phase::Bid, legal, count: None, packets: vec![], table: Default::default(), declarations: vec![], sit_out: vec![] });
        }
        let turn = self.bidding_turn();
        let speaker = turn.next?;
        // A player outbid where re-raising is barred may only pass; a hand that forces a bid may
        // neither pass nor bid lower (a rule that cannot be evaluated binds nobody here: the bid
        // itself reports it).
        let floor = if b.no_reraise.is_some() && turn.outbid >> speaker & 1 == 1 { b.contracts.len() } else { self.lowest_bid(speaker, &turn) };
        let forced = self.forced_bid(speaker, &turn).ok().flatten().map(|m| m.contract);
        let mut legal = if forced.is_some() { vec![] } else { vec!["pass".to_string()] };
        legal.extend(
            (floor.max(forced.unwrap_or(0))..b.contracts.len())
                .filter(|c| (!turn.second_round || self.setup.reserve_contracts.contains(c)) && b.all_pass_play != Some(*c) && !b.instead.iter().any(|i| i.chosen == *c))
                .filter(|c| self.in_round(&turn, *c))
                .filter(|c| !b.first_turn.as_ref().is_some_and(|(cs, _)| cs.contains(c) && self.has_spoken(speaker, &turn)))
                // A contract only some may bid (`by`) is offered to them alone (a condition that cannot
                // be evaluated offers it: the bid itself reports the error).
                .filter(|c| b.contracts[*c].by.as_ref().is_none_or(|by| self.hand_holds(speaker, self.dealt[speaker as usize], &by.when, &by.clause).unwrap_or(true)))
                .filter(|c| self.step_refuses(speaker, &turn, *c).is_none())
                .map(|c| b.contracts[c].name.clone()),
        );
        if let Some(r) = b.reserve.as_ref().filter(|_| !turn.second_round && forced.is_none()) {
            legal.push(r.name.clone());
        }
        Some(Next { player: self.name(speaker), phase: Phase::Bid, legal, count: None, packets: vec![], table: Default::default(), declarations: vec![], sit_out: vec![] })
    }
}

/// Where the bidding stands: who speaks next (`None` once it is over), the best contract so far and
/// its bidder, and whether this is the second round of a reserving bid.
#[derive(Clone, Copy, Debug)]
struct Turn {
    next: Option<u8>,
    holder: Option<(u8, usize)>,
    second_round: bool,
    /// The seats whose bid someone else's later bid took over.
    outbid: u16,
    /// Whether the opening round (`opening-round`) is in progress.
    opening: bool,
    /// Where the auction after the opening round begins among the bids (0 without one).
    from: usize,
    /// The opening round's bid, carried into the auction after it: its bidder and contract.
    carried: Option<(u8, usize)>,
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
