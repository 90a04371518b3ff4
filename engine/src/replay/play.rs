//! The `play` section: who leads and who plays next, the obligations (`must follow`, `must trump`,
//! `must overtrump`: the cards a player may play, `legal`, and why another is refused, `illegal`),
//! a card played, and a trick finished (its winner, where its cards go, the marques of `on play`).
//! What the Fool does in a trick is in `fool.rs`.

use crate::cards::{Card, CardSet, FOOL};
use crate::expr::{eval, Value};
use crate::ir::*;
use crate::num::Q;
use crate::verdict::{LedgerEntry, Next};

use super::{Game, Phase, Stop, Trick};

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
        let has_played = self.tricks.iter().any(|t| t.cards.iter().any(|&(q, _)| q == p)) || self.current.iter().any(|&(q, _)| q == p);
        if self.phase != Phase::Play || self.buys_left > 0 || has_played {
            return Ok(false);
        }
        Ok(self.turn()? == p)
    }

    /// The suit a trick follows: that of its first card not played like the Fool.
    fn led_lane(&self, cards: &[(u8, Card)]) -> Option<u8> {
        cards.iter().find(|&&(p, c)| !self.plays_like_the_fool(p, c)).map(|&(_, c)| c.lane())
    }

    /// The cards of `p`'s hand the obligations bind: all but the untouchable card, which, played like
    /// the Fool, neither has to be played nor makes its owner hold a trump.
    fn bound(&self, p: u8) -> CardSet {
        let hand = self.hands[p as usize];
        self.untouchable.filter(|&(q, _)| q == p).map_or(hand, |(_, c)| hand.minus(CardSet::single(c)))
    }

    /// The trump that wins the trick so far, if any (of tied trumps, the first played unless the
    /// later wins). Where trumps do not win unless led (`trumps-win`), none on a suit led.
    fn top_trump(&self) -> Option<Card> {
        if !self.setup.trumps_win && self.led_lane(&self.current) != Some(4) {
            return None;
        }
        self.current.iter().filter(|(_, c)| c.is_trump()).fold(None, |best, &(_, c)| match best {
            Some(b) if !self.beats(c, b) => Some(b),
            _ => Some(c),
        })
    }

    /// Whether trump `c`, played after trump `b`, beats it: it is stronger, or tied with it where the
    /// later wins.
    fn beats(&self, c: Card, b: Card) -> bool {
        let (sc, sb) = (self.strength(c), self.strength(b));
        sc > sb || sc == sb && self.rules().pack.later_wins.contains(c)
    }

    /// The trumps of `set` that beat `top`.
    fn beating(&self, set: CardSet, top: Card) -> CardSet {
        set.and(CardSet::trumps()).iter().filter(|&c| self.beats(c, top)).collect()
    }

    /// The cards `p` may play now: those the trick obligations allow, less the cards a declaration
    /// binds him to keep (`declarations.rs`), or only the Fool when its deadline has come (`fool.rs`).
    pub fn legal(&self, p: u8) -> CardSet {
        let obliged = self.obliged(p);
        self.fool_deadline_binds(p, obliged).unwrap_or_else(|| self.keeping(p, self.last_trumps_kept(p, obliged)))
    }

    /// `allowed` less the cards `p` may play only as his last trump (`play { last-trump }`) while he
    /// holds another trump, unless nothing else would be left to play.
    fn last_trumps_kept(&self, p: u8, allowed: CardSet) -> CardSet {
        let last = self.setup.last_trump;
        let other_trumps = self.hands[p as usize].and(CardSet::trumps()).minus(last);
        let rest = allowed.minus(last);
        if last.is_empty() || other_trumps.is_empty() || rest.is_empty() {
            allowed
        } else {
            rest
        }
    }

    /// The cards the trick obligations (and the Fool's and the call's rules for the lead) allow `p`.
    fn obliged(&self, p: u8) -> CardSet {
        let s = self.setup;
        let hand = self.hands[p as usize];
        let fool = hand.and(CardSet::single(FOOL));
        if self.current.is_empty() {
            let mut lead = hand;
            if self.tricks.is_empty() && !hand.minus(self.lead_excluded).is_empty() {
                lead = lead.minus(self.lead_excluded);
            }
            if s.fool_led_forbidden && lead.len() > 1 {
                lead = lead.minus(fool);
            }
            return lead;
        }
        let excuse = if self.rules().fool.excuse.is_some() { fool } else { CardSet::EMPTY };
        let Some(lane) = self.led_lane(&self.current) else { return hand };
        let bound = self.bound(p);
        let trumps = bound.and(CardSet::trumps());
        let higher = |set: CardSet| -> CardSet {
            match (s.overtrump, self.top_trump()) {
                (Some(_), Some(top)) => {
                    let above = self.beating(set, top);
                    if above.is_empty() {
                        set
                    } else {
                        above
                    }
                }
                _ => set,
            }
        };
        let same = bound.and(CardSet::of_lane(lane));
        let cand = if s.follow.is_some() && !same.is_empty() {
            if lane == 4 {
                higher(same)
            } else {
                same
            }
        } else if s.trump.is_some() && !trumps.is_empty() {
            higher(trumps)
        } else {
            hand
        };
        cand.or(excuse).or(hand.minus(bound))
    }

    /// Explains why `c` is not among `p`'s legal cards, citing the obligation.
    fn illegal(&self, p: u8, c: Card) -> Stop {
        if self.obliged(p).contains(c) {
            // Allowed by the obligations, so held back by the Fool's deadline or a declaration.
            return self.held_back(p, c);
        }
        let rules = self.rules();
        let s = self.setup;
        let who = self.name(p);
        if self.current.is_empty() {
            if self.lead_excluded.contains(c) {
                if let (Some(call), Some(called)) = (&rules.call, self.called) {
                    let clause = call.opening_lead_excludes.as_ref().map(|(_, c)| c).unwrap_or(&call.clause);
                    return self.violation(
                        clause,
                        p,
                        format!("{who} may not open with {}: the first lead may not be in the called suit, but for {} itself", rules.card_name(c), rules.card_name(called)),
                    );
                }
            }
            return self.violation(&rules.fool.clause, p, format!("{who} may not lead {} while holding other cards", rules.card_name(c)));
        }
        let lane = self.led_lane(&self.current).unwrap_or(5);
        let bound = self.bound(p);
        let same = bound.and(CardSet::of_lane(lane));
        let lane_name = if lane == 4 { "trumps".to_string() } else { rules.pack.suit_names[lane as usize].clone() };
        let ladder = &rules.play.ladder;
        if let (Some(i), false) = (s.follow, same.is_empty()) {
            if c.lane() != lane {
                return self.violation(&ladder[i].1, p, format!("{who} must follow {lane_name}: holds {}", rules.cards_named(same)));
            }
        } else if let (Some(i), true) = (s.trump, !bound.and(CardSet::trumps()).is_empty()) {
            if !c.is_trump() {
                return self.violation(&ladder[i].1, p, format!("{who} has no {lane_name} and must trump: holds {}", rules.cards_named(bound.and(CardSet::trumps()))));
            }
        }
        if let (Some(i), Some(top)) = (s.overtrump, self.top_trump()) {
            let beats = self.beating(bound, top);
            return self.violation(
                &ladder[i].1,
                p,
                format!(
                    "{who} must overtrump: holds {}, which beat{} {} on the table",
                    rules.cards_named(beats),
                    if beats.len() == 1 { "s" } else { "" },
                    rules.pack.trump_name(top)
                ),
            );
        }
        self.violation(&rules.play.order_clause, p, format!("{who} may not play {} here", rules.card_name(c)))
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
    /// the amount to each other player in the ledger (rule `play.fault.OBLIGATION`). Where the fault
    /// gives back what the card takes (`gives-back CLASS`), the trick's end sees to it (`fault_gives_back`).
    fn fault(&mut self, p: u8, c: Card, stop: Stop) -> Result<(), Stop> {
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
        self.notes.push(format!(
            "{} ({}{source}): {} played {}, but {}; he pays {amount} to each other player",
            f.label,
            f.clause.rule,
            self.name(p),
            rules.card_name(c),
            v.message
        ));
        if amount != Q::ZERO {
            for o in (0..self.n() as u8).filter(|&o| o != p) {
                let (from, to, a) = if amount > Q::ZERO { (p, o, amount) } else { (o, p, -amount) };
                self.ledger.push(LedgerEntry {
                    rule: f.clause.rule.clone(),
                    label: f.label.clone(),
                    from: Some(self.name(from)),
                    to: Some(self.name(to)),
                    amount: a,
                    source: f.clause.source.clone(),
                    event: Some(self.event),
                });
            }
        }
        Ok(())
    }

    /// How many cards `p` has still to play, this one included: his hand and the cards not yet turned
    /// up in his piles. Before he plays to a trick, the tricks left, that one included.
    pub(super) fn cards_to_play(&self, p: u8) -> usize {
        let hidden: usize = self.table_piles.get(p as usize).map_or(0, |ps| ps.iter().map(|pile| pile.len().saturating_sub(1)).sum());
        self.hands[p as usize].len() + hidden
    }

    /// Why `c`, which the trick obligations allow, is not among `p`'s legal cards: the Fool's deadline
    /// has come, or a declaration binds him to keep `c` while he has another card to play.
    fn held_back(&self, p: u8, c: Card) -> Stop {
        let rules = self.rules();
        let who = self.name(p);
        if let Some((_, clause)) = rules.fool.deadline.as_ref().filter(|_| self.fool_deadline_binds(p, self.obliged(p)).is_some()) {
            let n = self.setup.fool_deadline;
            return self.violation(
                clause,
                p,
                format!("{who} must play {} now: it must be played before the last {n} trick{}", rules.pack.fool_name, if n == 1 { "" } else { "s" }),
            );
        }
        if let (Some((_, clause)), false) = (&rules.play.last_trump, self.last_trumps_kept(p, self.obliged(p)).contains(c)) {
            let others = self.hands[p as usize].and(CardSet::trumps()).minus(self.setup.last_trump);
            return self.violation(clause, p, format!("{who} may play {} only as his last trump: holds {}", rules.card_name(c), rules.cards_named(others)));
        }
        match self.kept_by(p, c) {
            Some(d) => {
                let clause = d.keeps.as_ref().map_or(&d.clause, |(_, c)| c);
                let others = self.legal(p);
                self.violation(
                    clause,
                    p,
                    format!(
                        "{who} declared {} and must keep {} until the last trick: holds {}, which may be played instead",
                        crate::label::with_article(&d.label),
                        rules.card_name(c),
                        rules.cards_named(others)
                    ),
                )
            }
            None => self.violation(&rules.play.order_clause, p, format!("{who} may not play {} here", rules.card_name(c))),
        }
    }

    pub(super) fn play(&mut self, p: u8, c: Card) -> Result<(), Stop> {
        let rules = self.rules();
        match self.phase {
            Phase::Play => {}
            Phase::Bidding => return Err(self.violation(&rules.play.order_clause, p, "no card may be played before the bidding is over".into())),
            Phase::Call => {
                let clause = rules.call.as_ref().map(|c| c.clause.clone()).unwrap_or(rules.play.order_clause.clone());
                return Err(self.violation(&clause, p, "no card may be played before the taker calls a partner".into()));
            }
            _ => {
                if let Some(stop) = self.talon_missing(p) {
                    return Err(stop);
                }
                let (q, k) = self.pending_discards[0];
                let d = rules.discard.as_ref().map(|d| d.clause.clone()).unwrap_or(rules.play.order_clause.clone());
                return Err(self.violation(&d, p, format!("{} must first discard {k} cards", self.name(q))));
            }
        }
        if let Some(stop) = self.buy_missing(p) {
            return Err(stop);
        }
        let turn = self.to_play()?;
        if turn != p {
            return Err(self.violation(&rules.play.order_clause, p, format!("it is {}'s turn to play, not {}'s", self.name(turn), self.name(p))));
        }
        if let Some(stop) = self.compulsory_missing(p) {
            return Err(stop);
        }
        if !self.hands[p as usize].contains(c) {
            return Err(self.violation(&rules.play.hold_clause, p, format!("{} does not hold {}", self.name(p), rules.card_name(c))));
        }
        if !self.legal(p).contains(c) {
            let stop = self.illegal(p, c);
            self.fault(p, c, stop)?;
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
        if self.current.len() == self.in_trick() {
            self.finish_trick()?;
        }
        Ok(())
    }

    /// A trick finished: its winner (the strongest trump, else the strongest card of the suit led),
    /// where its cards go (the Fool and the untouchable card as `fool.rs` says), the marques of
    /// `on play`, and the end of the game after the last trick.
    fn finish_trick(&mut self) -> Result<(), Stop> {
        let s = self.setup;
        let cards = std::mem::take(&mut self.current);
        let leader = self.leader.take().unwrap_or(cards[0].0);
        let last = self.hands.iter().all(|h| h.is_empty());
        let number = self.tricks.len();
        let lane = self.led_lane(&cards);
        let fool_play = cards.iter().find(|(_, c)| c.is_fool()).map(|&(p, _)| p);
        let mut best: Option<(u8, Card)> = None;
        for &(p, c) in cards.iter() {
            if c.is_fool() {
                continue;
            }
            let better = match best {
                None => true,
                Some((_, b)) => {
                    if c.is_trump() != b.is_trump() {
                        // Trumps win unless `trumps-win` is no and a suit was led: then only a card
                        // of the suit led can take the trick from a trump.
                        if s.trumps_win || lane == Some(4) {
                            c.is_trump()
                        } else {
                            Some(c.lane()) == lane
                        }
                    } else if c.is_trump() {
                        self.beats(c, b)
                    } else {
                        (c.is_trump() || Some(c.lane()) == lane) && self.strength(c) > self.strength(b)
                    }
                }
            };
            if better {
                best = Some((p, c));
            }
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
        self.leader = Some(winner);
        if last {
            self.leader = None;
            self.phase = Phase::Done;
            self.pay_sit_fee(winner);
            if s.fool_shut_out {
                self.fool_to_a_side_with_no_trick(fool_play);
            }
            self.discards_go()?;
        }
        Ok(())
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
        Some(Next {
            player: self.name(p),
            phase: "play".into(),
            legal: self.legal(p).iter().map(|c| c.to_string()).collect(),
            count: None,
            table,
            declarations: vec![],
            sit_out: vec![],
        })
    }
}
