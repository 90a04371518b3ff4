//! The `fool` section, and the cards played like it (the untouchable card, a card played as the
//! Excuse by `play { excuse }`): what sets no suit, what takes no trick, and where the Fool goes from
//! its trick (kept by its holder for an empty card, to the winner, changing side in the last trick,
//! winning the last trick of a slam, given up by a side that took no trick).

use crate::cards::{Card, CardSet, FOOL};
use crate::ir::FoolLast;

use super::Game;

impl<'s, 'r> Game<'s, 'r> {
    /// The Fool, the untouchable card in its owner's hand, a card played as the Excuse, or one that
    /// takes no trick (`play { loses }`): led, it sets no suit (the next card does).
    pub(super) fn plays_like_the_fool(&self, p: u8, c: Card) -> bool {
        c.is_fool() || self.untouchable == Some((p, c)) || self.excused.contains(c) || self.powerless.contains(c)
    }

    /// The Fool, a card played as the Excuse (`play { excuse }`), or one the rules make take no trick
    /// (`play { loses }`).
    pub(super) fn takes_no_trick(&self, c: Card) -> bool {
        c.is_fool() || self.excused.contains(c) || self.powerless.contains(c)
    }

    /// With `deadline = N`, in the trick before the last N, a holder of the Fool who may play it
    /// (it is among `allowed`) must: `Some` of the Fool alone then, `None` otherwise.
    pub(super) fn fool_deadline_binds(&self, p: u8, allowed: CardSet) -> Option<CardSet> {
        let n = self.setup.fool_deadline;
        (n > 0 && allowed.contains(FOOL) && self.cards_to_play(p) == n + 1).then_some(CardSet::single(FOOL))
    }

    /// Card `c` of the trick `winner` took goes to `to`'s pile instead; with `exchange`, `to` gives
    /// the winner an empty card for it.
    fn give_back(&mut self, won: &mut CardSet, c: Card, to: u8, winner: u8, exchange: bool) {
        won.remove(c);
        self.piles[to as usize].insert(c);
        self.not_taken.push((self.tricks.len(), c, to, exchange));
        if exchange {
            self.empties[to as usize] -= 1;
            self.empties[winner as usize] += 1;
            if c.is_fool() {
                self.fool_owed = Some((to, winner));
            }
        }
    }

    /// Led to the last trick by a side that took every other trick (or, with `slam_wins =
    /// "played"`, played to it in any place), the Fool wins it: it neither loses the trick nor
    /// changes side. `fool_play`: who played the Fool to this trick, the trick number `number`.
    pub(super) fn fool_wins_slam(&self, cards: &[(u8, Card)], fool_play: Option<u8>, last: bool, number: usize) -> bool {
        match fool_play {
            Some(h) if last && number > 0 && self.rules().fool.slam_wins.is_some() && (cards[0].0 == h || self.setup.fool_slam_played) => {
                self.tricks.iter().all(|t| self.side_of(t.winner) >> h & 1 == 1)
            }
            _ => false,
        }
    }

    /// Where the Fool `h` played goes from a trick `winner` took (not a slam's last trick): back to `h`
    /// (for an empty card, where the rules exchange it), or in the last trick as `last_trick` says.
    pub(super) fn fool_leaves_its_trick(&mut self, won: &mut CardSet, h: u8, winner: u8, last: bool) {
        let same_side = self.side_of(h) >> winner & 1 == 1;
        let to = if !last {
            Some(h)
        } else {
            match self.setup.fool_last {
                FoolLast::Keep => Some(h),
                FoolLast::Winner => None,
                FoolLast::ChangesSide => {
                    // The other side's representative: the winner if he is on it, else its first player.
                    let other = self.all() & !self.side_of(h);
                    if other >> winner & 1 == 1 {
                        Some(winner)
                    } else {
                        (0..self.n() as u8).find(|&q| other >> q & 1 == 1)
                    }
                }
            }
        };
        if let Some(to) = to {
            // Whoever receives the Fool without winning its trick hands the winner an empty card.
            let to_side_wins = self.side_of(to) >> winner & 1 == 1;
            self.give_back(won, FOOL, to, winner, self.setup.fool_exchange && !to_side_wins);
            if last && self.setup.fool_last == FoolLast::ChangesSide && same_side {
                self.notes.push(format!("{} played the Excuse to the last trick: it changes side, though {}'s side took the trick", self.name(h), self.name(h)));
            }
        }
    }

    /// The untouchable card, played like the Excuse, that does not take its trick (number `number`)
    /// goes back to its owner, for an empty card.
    pub(super) fn untouchable_goes_back(&mut self, won: &mut CardSet, cards: &[(u8, Card)], winner: u8, number: usize) {
        if let Some((owner, c)) = self.untouchable.filter(|&(q, c)| cards.contains(&(q, c))) {
            if self.side_of(owner) >> winner & 1 == 0 {
                self.give_back(won, c, owner, winner, true);
                self.notes.push(format!(
                    "{}'s {} did not take trick {}: it goes back to {}, who gives {} an empty card",
                    self.name(owner),
                    self.rules().card_name(c),
                    number + 1,
                    self.name(owner),
                    self.name(winner)
                ));
            }
        }
    }

    /// A card played as the Excuse (`play { excuse }`), which takes no trick, stays with its player's
    /// side: where another side took its trick (number `number`), it goes back to its player, who gives
    /// the trick's winner an empty card for it.
    pub(super) fn excused_go_back(&mut self, won: &mut CardSet, cards: &[(u8, Card)], winner: u8, number: usize) {
        let excused = self.excused;
        for &(q, c) in cards.iter().filter(|&&(_, c)| excused.contains(c)) {
            if self.side_of(q) >> winner & 1 == 1 {
                continue;
            }
            self.give_back(won, c, q, winner, true);
            let rules = self.rules();
            let Some(x) = rules.play.excuses.iter().find(|x| x.cards.contains(c)) else { continue };
            let source = x.clause.source.as_deref().map(|s| format!(", {s}")).unwrap_or_default();
            self.notes.push(format!(
                "{} ({}{source}): {}'s {}, played as the Excuse, takes no trick: it goes back from trick {} to {}, who gives {} an empty card",
                x.label,
                x.clause.rule,
                self.name(q),
                rules.card_name(c),
                number + 1,
                self.name(q),
                self.name(winner)
            ));
        }
    }

    /// With `shut_out = "to-winner"`, at the end of the game: a side that took no trick gives the Fool
    /// to the winner of its trick. `fool_play`: who played the Fool to the last trick, if he did.
    pub(super) fn fool_to_a_side_with_no_trick(&mut self, fool_play: Option<u8>) {
        if let Some(h) = fool_play.or_else(|| self.tricks.iter().flat_map(|t| t.cards.iter()).find(|(_, c)| c.is_fool()).map(|&(p, _)| p)) {
            // "Took no trick" is said of the holder's side, where there are sides: a player
            // whose partner took tricks keeps the Fool.
            let side = self.side_of(h);
            if !self.tricks.iter().any(|t| side >> t.winner & 1 == 1) && self.piles[h as usize].contains(FOOL) {
                let t = self.tricks.iter().find(|t| t.cards.iter().any(|(_, c)| c.is_fool())).map(|t| t.winner).unwrap_or(h);
                self.piles[h as usize].remove(FOOL);
                self.piles[t as usize].insert(FOOL);
                self.not_taken.retain(|&(_, c, ..)| c != FOOL);
                // The Fool itself goes to the winner now: the empty card owed for it is not.
                if let Some((holder, winner)) = self.fool_owed.take() {
                    self.empties[holder as usize] += 1;
                    self.empties[winner as usize] -= 1;
                }
                let who = if side.count_ones() > 1 { format!("{}'s side", self.name(h)) } else { self.name(h).to_string() };
                self.notes.push(format!("{who} took no trick and gives the Fool to {}", self.name(t)));
            }
        }
    }
}
