//! The `play` section: who leads and who plays next, a card played (refused by the obligations of
//! `obligations.rs`, or a fault paid), and a trick finished (its winner, where its cards go, the
//! marques of `on play`). What the Fool does in a trick is in `fool.rs`.

use std::sync::Arc;

use crate::cards::{Card, CardSet};
use crate::expr::{eval, truthy, Value};
use crate::ir::*;
use crate::num::Q;
use crate::verdict::{LedgerEntry, Next, Phase};

use super::{Game, Plays, Stage, Stop, Trick};

impl<'s, 'r> Game<'s, 'r> {
    /// Who must play next, once the play has started; before the first card, the leader is worked
    /// out and kept.
    pub fn to_play(&mut self) -> Result<u8, Stop> {
        let p = self.turn()?;
        if self.leader.is_none() {
            self.leader = Some(p);
        }
        Ok(p)
    }

    /// Who plays next, as `to_play` says, without keeping the leader worked out (a declaration made
    /// before the first card may yet change who leads).
    pub(super) fn turn(&self) -> Result<u8, Stop> {
        if let Some(p) = self.together_turn() {
            return Ok(p);
        }
        if let Some(l) = self.leader {
            return Ok(if self.sat_out.is_some() { self.after(l, self.current.len()) } else { ((l as usize + self.current.len()) % self.n()) as u8 });
        }
        let env = self.env(None);
        let lead = match eval(&self.rules().play.lead, &env) {
            Ok(Value::Player(p)) => p,
            Ok(other) => return Err(self.rule_error(&self.rules().play.lead_clause, format!("the leader must be a player, not {}", other.type_name()))),
            Err(e) => return Err(self.rule_error(&self.rules().play.lead_clause, e)),
        };
        // Who sits out does not lead: the next player does.
        Ok(self.after(lead, 0))
    }

    /// Whether it is `p`'s turn to play his first card now: the cards are to be played (the discards,
    /// the talon and the buys done) and he is next, having played none.
    pub(super) fn at_first_card(&self, p: u8) -> Result<bool, Stop> {
        let has_played = self.tricks.iter().any(|t| t.cards.iter().any(|&(q, _)| q == p)) || self.in_play().any(|&(q, _)| q == p);
        if self.stage != Stage::Play || self.buys_left > 0 || has_played {
            return Ok(false);
        }
        Ok(self.turn()? == p)
    }

    /// The suit a trick follows: that of its first card not played like the Fool.
    pub(super) fn led_lane(&self, cards: &[(u8, Card)]) -> Option<u8> {
        cards.iter().find(|&&(p, c)| !self.plays_like_the_fool(p, c)).map(|&(_, c)| c.lane())
    }

    /// The fault (its index in `Play::faults`) that a refusal of `p`'s card makes paid instead, if any:
    /// the refusal breaks an obligation of the section that the rules make a fault, and the fault's
    /// amount is not `none` in this game (an option choosing between two eras' penalties: where it is
    /// `none`, breaking the obligation is no fault, and the card is refused).
    fn fault_for(&self, p: u8, stop: &Stop) -> Option<usize> {
        let rules = self.rules();
        let Stop::Violation(v) = stop else { return None };
        let broken = rules.play.ladder.iter().find(|(_, clause)| clause.rule == v.rule).map(|(o, _)| *o)?;
        let env = self.env(Some(p));
        rules.play.faults.iter().position(|f| f.obligation == broken && !matches!(self.eval(&f.amount, &env), Ok(Value::Cards(s)) if s.is_empty()))
    }

    /// Whether `p` playing `c`, which he holds but may not play, would be a fault paid rather than a
    /// refused card (the simulator's bad cards skip these: they are not refused).
    pub(crate) fn is_paid_fault(&self, p: u8, c: Card) -> bool {
        self.hands[p as usize].contains(c) && !self.legal(p).contains(c) && self.fault_for(p, &self.illegal(p, c)).is_some()
    }

    /// A card that breaks an obligation (`stop`, from `illegal`): refused, unless the rules make that
    /// obligation a fault (`fault follow "revoke" = 60`). Then the card stands, the verdict notes the
    /// fault (who, the card, the obligation's message, the rule and its source), and the offender pays
    /// the amount to each other player in the ledger (rule `play.fault.OBLIGATION`); with `by-side`
    /// each player of his side pays each player of the other. Where the fault gives back what the card
    /// takes (`gives-back CLASS`), the trick's end sees to it (`fault_gives_back`). `Ok(true)` where
    /// the fault ends the deal (`ends-deal`): the card is not played, and the deal is over.
    fn fault(&mut self, p: u8, c: Card, stop: Stop) -> Result<bool, Stop> {
        let rules = self.rules();
        let Some(i) = self.fault_for(p, &stop) else { return Err(stop) };
        let Stop::Violation(v) = &stop else { return Err(stop) };
        let f = &rules.play.faults[i];
        let amount = self.number(&f.amount, &self.env(Some(p)), &f.clause)?;
        if let Some(e) = &f.gives_back {
            match self.eval_rule(e, &self.env(Some(p)), &f.clause)? {
                Value::Cards(class) if class.is_empty() => {}
                Value::Cards(class) => self.gives_back.push((p, i, class)),
                other => return Err(self.rule_error(&f.clause, format!("`gives-back` takes cards, found {}", other.type_name()))),
            }
        }
        let source = f.clause.source.as_deref().map(|s| format!(", {s}")).unwrap_or_default();
        let who = self.pay_fault(p, amount, f.by_side, &f.label, &f.clause);
        let ends = if f.ends_deal { "; the deal ends there, the card not played" } else { "" };
        self.notes.push(format!("{} ({}{source}): {} played {}, but {}; {who}{ends}", f.label, f.clause.rule, self.name(p), rules.card_name(c), v.message));
        if f.ends_deal {
            self.end_at_fault(p, f.label.clone(), f.clause.clone());
            return Ok(true);
        }
        Ok(false)
    }

    /// A fault's payment, into the ledger: `p` (with `by_side`, each player of his side) pays the
    /// amount to each player of the other side (the other way when it is negative); in words, who
    /// pays, for the verdict's note.
    pub(super) fn pay_fault(&mut self, p: u8, amount: Q, by_side: bool, label: &Arc<str>, clause: &Clause) -> String {
        let (payers, payees) = if by_side {
            let side = self.paying_side(p);
            (side, self.paying() & !side)
        } else {
            (1 << p, self.paying() & !(1 << p))
        };
        if amount != Q::ZERO {
            for a in (0..MAX_PLAYERS as u8).filter(|&a| payers >> a & 1 == 1) {
                for o in (0..MAX_PLAYERS as u8).filter(|&o| payees >> o & 1 == 1) {
                    let (from, to, x) = if amount > Q::ZERO { (a, o, amount) } else { (o, a, -amount) };
                    self.ledger.push(LedgerEntry {
                        rule: clause.rule.clone(),
                        label: label.clone(),
                        from: Some(self.name(from)),
                        to: Some(self.name(to)),
                        amount: x,
                        source: clause.source.clone(),
                        event: Some(self.event),
                    });
                }
            }
        }
        if by_side {
            format!("his side pays {amount} to each player of the other")
        } else {
            format!("he pays {amount} to each other player")
        }
    }

    /// The deal ends at `p`'s fault (`ends-deal`): nothing more is played, and what was paid is its
    /// score; a move after it breaks the fault's rule.
    pub(super) fn end_at_fault(&mut self, p: u8, label: Arc<str>, clause: Clause) {
        self.fault_ended = Some((p, label, clause));
        self.leader = None;
        self.stage = Stage::Done;
    }

    /// How many cards `p` has still to play, this one included: his hand and the cards not yet turned
    /// up in his piles. Before he plays to a trick, the tricks left, that one included.
    pub(super) fn cards_to_play(&self, p: u8) -> usize {
        let hidden: usize = self.table_piles.get(p as usize).map_or(0, |ps| ps.iter().map(|pile| pile.len().saturating_sub(1)).sum());
        self.hands[p as usize].len() + hidden
    }

    pub(super) fn play(&mut self, p: u8, c: Card) -> Result<(), Stop> {
        let rules = self.rules();
        match self.stage {
            Stage::Play => {}
            Stage::Bidding => return Err(self.violation(&rules.play.order_clause, p, "no card may be played before the bidding is over".into())),
            Stage::Call => {
                // A taker named when everyone passed: the card says that he was to call first.
                if let Some(stop) = self.named_taker().and_then(|_| self.call_missing(p)) {
                    return Err(stop);
                }
                let clause = rules.call.as_ref().map(|c| c.clause.clone()).unwrap_or(rules.play.order_clause.clone());
                return Err(self.violation(&clause, p, "no card may be played before the taker calls a partner".into()));
            }
            _ => {
                if let Some(stop) = self.talon_missing(p) {
                    return Err(stop);
                }
                let (q, k) = self.pending_discards[0];
                let d = rules.discard.as_ref().map(|d| d.clause.clone()).unwrap_or(rules.play.order_clause.clone());
                return Err(self.violation(&d, p, format!("{} must first discard {k} card{}", self.name(q), if k == 1 { "" } else { "s" })));
            }
        }
        if let Some(stop) = self.buy_missing(p) {
            return Err(stop);
        }
        let turn = self.to_play()?;
        if turn != p {
            // A lead the rules give another than the trick's winner (`next-lead`) cites that rule.
            if let Some(r) = self.next_lead_by.filter(|_| self.current.is_empty() && self.together.is_none()).map(|i| &rules.play.next_leads[i]) {
                return Err(self.violation(&r.clause, p, format!("it is {}'s lead, not {}'s: {}", self.name(turn), self.name(p), r.label)));
            }
            return Err(self.violation(&rules.play.order_clause, p, format!("it is {}'s turn to play, not {}'s", self.name(turn), self.name(p))));
        }
        if let Some(stop) = self.contract_requirement_missing()? {
            return Err(stop);
        }
        if let Some(stop) = self.compulsory_missing(p) {
            return Err(stop);
        }
        if !self.hands[p as usize].contains(c) {
            return Err(self.violation(&rules.play.hold_clause, p, format!("{} does not hold {}", self.name(p), rules.card_name(c))));
        }
        self.turn_conditions(p)?;
        self.begin_together(p)?;
        let walk = self.walk(p, None);
        if !walk.allowed.contains(c) {
            let stop = self.sent_to(self.illegal(p, c));
            if self.fault(p, c, stop)? {
                return Ok(());
            }
        }
        // Played as the Excuse as the rules stand at his turn, before this card withholds anything.
        let as_excuse = self.as_excuse(p).contains(c);
        let loses = self.losing(p).contains(c);
        self.withhold(p, c, walk.spared);
        if as_excuse {
            self.excused.insert(c);
        }
        if loses {
            self.powerless.insert(c);
        }
        if self.cards_to_play(p) > 1 {
            if let Some(d) = self.kept_by(p, c) {
                // Legal only because nothing else was: the score may count the declaration lost.
                self.notes.push(format!("{} had to play {} before the last trick, kept for the {} he declared: it was driven out", self.name(p), rules.card_name(c), d.label));
            }
        }
        self.hands[p as usize].remove(c);
        // A card played from the top of a pile turns up the next one.
        if let Some(pile) = self.table_piles.get_mut(p as usize).and_then(|ps| ps.iter_mut().find(|pile| pile.last() == Some(&c))) {
            pile.pop();
            if let Some(&next) = pile.last() {
                self.hands[p as usize].insert(next);
            }
        }
        self.current.push((p, c));
        if !self.together_played()? && self.current.len() == self.in_trick() {
            self.finish_trick()?;
        }
        Ok(())
    }

    /// A trick finished, and the game after it (`trick_done`).
    fn finish_trick(&mut self) -> Result<(), Stop> {
        let cards = std::mem::take(&mut self.current);
        let leader = self.leader.take().unwrap_or(cards[0].0);
        let last = self.hands.iter().all(|h| h.is_empty());
        let (winner, fool_play, _) = self.close_trick(cards, leader, last)?;
        self.trick_done(winner, winner, fool_play, last)
    }

    /// A trick closed: its winner (the strongest trump, else the strongest card of the suit led),
    /// where its cards go (the Fool and the untouchable card as `fool.rs` says), the marques of
    /// `on play`. Gives its winner, who played the Fool to it, and the winning card (`None` when no
    /// card of it could take it).
    pub(super) fn close_trick(&mut self, cards: Plays, leader: u8, last: bool) -> Result<(u8, Option<u8>, Option<Card>), Stop> {
        let number = self.tricks.len();
        let lane = self.led_lane(&cards);
        let fool_play = cards.iter().find(|(_, c)| c.is_fool()).map(|&(p, _)| p);
        let best = self.best_of(&cards, lane);
        if let (Some(i), Some((w, _))) = (self.exception_in(&cards), best) {
            let rules = self.rules();
            let x = &rules.play.wins[i];
            let source = x.clause.source.as_deref().map(|s| format!(", {s}")).unwrap_or_default();
            let with = self.setup.wins_with.get(i).copied().unwrap_or(CardSet::EMPTY);
            self.notes.push(format!(
                "{} ({}{source}): {} takes trick {} with {}, {} being in it",
                x.label,
                x.clause.rule,
                self.name(w),
                number + 1,
                rules.card_name(x.card),
                rules.cards_named(with)
            ));
        }
        let slam_fool = self.fool_wins_slam(&cards, fool_play, last, number);
        let winner = match (slam_fool, best, fool_play) {
            (true, _, Some(h)) => h,
            (_, None, _) | (true, _, None) => cards[0].0,
            (false, Some((w, _)), _) => w,
        };
        let mut won = cards.iter().fold(CardSet::EMPTY, |a, &(_, c)| {
            let mut a = a;
            a.insert(c);
            a
        });
        if let (Some(h), false) = (fool_play, slam_fool) {
            self.fool_leaves_its_trick(&mut won, h, winner, last);
        }
        self.untouchable_goes_back(&mut won, &cards, winner, number);
        self.excused_go_back(&mut won, &cards, winner, number);
        let given_back = self.fault_gives_back(&mut won, &cards, winner);
        self.piles[winner as usize] = self.piles[winner as usize].or(won);
        self.tricks.push(Trick { leader, cards, winner });
        for &(p, c) in cards.iter() {
            for t in self.rules().triggers.iter().filter(|t| t.on == TriggerEvent::Play && t.cards.contains(c)) {
                // A card given back is not lost: its player has it again.
                let env = self.env(Some(p)).with_card(c, last, winner == p || given_back.contains(c));
                let v = self.number(&t.value, &env, &t.clause)?;
                match t.pot {
                    Some(i) => self.pay_pot(p, i, v, &t.label, &t.clause)?,
                    None => self.pay_each_opponent(p, v, &t.label, &t.clause),
                }
            }
        }
        Ok((winner, fool_play, best.map(|(_, c)| c)))
    }

    /// After the tricks in play are closed: `next` leads, unless that was the last trick or an `end`
    /// holds; then the play is over, the sitter's fee goes to `last_winner`, the winner of the last
    /// trick, and the Fool (played by `fool_play` to it) as `fool.rs` says.
    pub(super) fn trick_done(&mut self, next: u8, last_winner: u8, fool_play: Option<u8>, last: bool) -> Result<(), Stop> {
        let s = self.setup;
        self.leader = Some(next);
        self.next_lead_by = None;
        if last || self.play_ends()? {
            self.leader = None;
            self.stage = Stage::Done;
            self.pay_sit_fee(last_winner);
            if s.fool_shut_out {
                self.fool_to_a_side_with_no_trick(fool_play);
            }
            self.discards_go()?;
        } else if let Some((i, p)) = self.next_lead()? {
            self.leader = Some(p);
            self.next_lead_by = Some(i);
            if p != next {
                let rule = &self.rules().play.next_leads[i];
                let source = rule.clause.source.as_deref().map(|s| format!(", {s}")).unwrap_or_default();
                self.notes.push(format!(
                    "{} ({}{source}): {} leads trick {} in place of {}, who would lead it",
                    rule.label,
                    rule.clause.rule,
                    self.name(p),
                    self.tricks.len() + 1,
                    self.name(next)
                ));
            }
        }
        Ok(())
    }

    /// `play { next-lead "label" = formula }`: after a trick that leaves play going on, the first
    /// rule (in the order written) whose formula gives a player, and that player, who leads the next
    /// trick; `None` when each gives `none` (the usual leader leads).
    fn next_lead(&self) -> Result<Option<(usize, u8)>, Stop> {
        let rules = self.rules();
        for (i, r) in rules.play.next_leads.iter().enumerate() {
            match self.eval_rule(&r.who, &self.env(None), &r.clause)? {
                Value::Player(p) => return Ok(Some((i, self.after(p, 0)))),
                Value::Cards(c) if c.is_empty() => {}
                other => return Err(self.rule_error(&r.clause, format!("`next-lead` gives a player or none, not {}", other.type_name()))),
            }
        }
        Ok(None)
    }

    /// `play { withhold }`: `p` plays `c` where a trump obligation spared him `spared`, his only trumps
    /// (`Walk::spared`): another card withholds them (`withheld(p)`), and the verdict notes it.
    fn withhold(&mut self, p: u8, c: Card, spared: CardSet) {
        if spared.is_empty() || spared.contains(c) {
            return;
        }
        self.withheld[p as usize] = self.withheld[p as usize].or(spared);
        let rules = self.rules();
        let Some(w) = rules.play.withholds.iter().find(|w| !w.cards.and(spared).is_empty()) else { return };
        let source = w.clause.source.as_deref().map(|s| format!(", {s}")).unwrap_or_default();
        let only = if spared.len() == 1 { "his only trump" } else { "his only trumps" };
        self.notes.push(format!(
            "{} ({}{source}): {} withholds {}, {only}, where a trump was due, and plays {}",
            w.label,
            w.clause.rule,
            self.name(p),
            rules.cards_named(spared),
            rules.card_name(c)
        ));
    }

    /// `play { end "label" = condition }`: after a trick before the last, whether a condition holds
    /// (the first that does, in the order written): the contract is decided, play ends there, and the
    /// deal is scored as it stands; a note says why, and `next` expects no further card.
    fn play_ends(&mut self) -> Result<bool, Stop> {
        let rules = self.rules();
        for (i, end) in rules.play.ends.iter().enumerate() {
            let v = self.eval_rule(&end.when, &self.env(None), &end.clause)?;
            if truthy(&v).map_err(|e| self.rule_error(&end.clause, e))? {
                self.ended_by = Some(i);
                let source = end.clause.source.as_deref().map(|s| format!(", {s}")).unwrap_or_default();
                let held: usize = self.hands.iter().map(|h| h.len()).sum();
                self.notes.push(format!("play ends after trick {} ({}{source}): {}; the {held} cards still held are not played", self.tricks.len(), end.clause.rule, end.label));
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The card that takes `cards` (a trick, or a trick so far) and who played it: the strongest
    /// trump, else the strongest card of the suit `lane` led; the Fool and a card played as the Excuse
    /// never. `None` when only such cards were played.
    pub(super) fn best_of(&self, cards: &[(u8, Card)], lane: Option<u8>) -> Option<(u8, Card)> {
        if let Some(i) = self.exception_in(cards) {
            let card = self.rules().play.wins[i].card;
            return cards.iter().copied().find(|&(_, c)| c == card);
        }
        let mut best: Option<(u8, Card)> = None;
        for &(p, c) in cards.iter().filter(|&&(_, c)| !self.takes_no_trick(c)) {
            if best.is_none_or(|(_, b)| self.takes_over(c, b, lane)) {
                best = Some((p, c));
            }
        }
        best
    }

    /// The trick-winner exception (`wins CARD "label" = cards`, its index) that takes `cards`: the
    /// first whose card and all whose cards are in them.
    pub(super) fn exception_in(&self, cards: &[(u8, Card)]) -> Option<usize> {
        let wins = &self.rules().play.wins;
        if wins.is_empty() {
            return None;
        }
        let held: CardSet = cards.iter().map(|&(_, c)| c).collect();
        wins.iter().enumerate().position(|(i, w)| {
            let with = self.setup.wins_with.get(i).copied().unwrap_or(CardSet::EMPTY);
            !with.is_empty() && held.contains(w.card) && with.minus(held).is_empty()
        })
    }

    /// Whether `c`, played after `b` to a trick whose suit led is `lane`, takes the trick from it.
    pub(super) fn takes_over(&self, c: Card, b: Card, lane: Option<u8>) -> bool {
        if c.is_trump() != b.is_trump() {
            // Trumps win unless `trumps-win` is no and a suit was led: then only a card of the suit
            // led can take the trick from a trump.
            if self.setup.trumps_win || lane == Some(4) {
                c.is_trump()
            } else {
                Some(c.lane()) == lane
            }
        } else if c.is_trump() {
            self.beats(c, b)
        } else {
            Some(c.lane()) == lane && self.strength(c) > self.strength(b)
        }
    }

    /// A paid fault that gives back what it takes (`fault ... gives-back CLASS`, Minucci's revoke: the
    /// revoker "rende il Re a colui di chi era", M5): when the offender's card won the trick, each
    /// card of the class that another player played to it goes back to that player, into the cards he
    /// has taken, and the verdict notes it. The trick stays the offender's; the cards given back are
    /// returned, so that `on play` counts them as not lost.
    fn fault_gives_back(&mut self, won: &mut CardSet, cards: &[(u8, Card)], winner: u8) -> CardSet {
        let faulted = std::mem::take(&mut self.gives_back);
        let Some(&(_, i, class)) = faulted.iter().find(|&&(p, _, _)| p == winner) else { return CardSet::EMPTY };
        let rules = self.rules();
        let f = &rules.play.faults[i];
        let source = f.clause.source.as_deref().map(|s| format!(", {s}")).unwrap_or_default();
        let mut back = CardSet::EMPTY;
        let taken = *won;
        for &(p, c) in cards.iter().filter(|&&(p, c)| p != winner && class.contains(c) && taken.contains(c)) {
            won.remove(c);
            self.piles[p as usize].insert(c);
            self.not_taken.push((self.tricks.len(), c, p, false));
            back.insert(c);
            self.notes.push(format!(
                "{} ({}{source}): {} took {} with the card of his fault and gives it back to {}",
                f.label,
                f.clause.rule,
                self.name(winner),
                rules.card_name(c),
                self.name(p)
            ));
        }
        back
    }

    /// Who plays next, the cards he may play and the trick so far (`Game::next` in the play).
    pub(super) fn next_play(&mut self) -> Option<Next> {
        let p = self.to_play().ok()?;
        let table = self.current.iter().map(|&(_, c)| c).collect();
        // No card may be played while a declaration the rules make compulsory is owed before it, or
        // while the contract's requirement (`require`) is unmet at the first card: `play` refuses
        // every card then, and the declarations open (the verdict's) say what is owed.
        let owed = self.compulsory_missing(p).is_some() || matches!(self.contract_requirement_missing(), Ok(Some(_)));
        Some(Next {
            player: self.name(p),
            phase: Phase::Play,
            legal: if owed { vec![] } else { self.legal(p).iter().map(|c| c.to_string()).collect() },
            count: None,
            packets: vec![],
            table,
            declarations: vec![],
            sit_out: vec![],
        })
    }
}
