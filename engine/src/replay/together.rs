//! `play { lead-together }`: a lead of several cards beginning as many tricks at once. The leader
//! plays one card to each in a row, then each player in turn one to each, the k-th of his cards to
//! the k-th trick, so a record lists them as any cards, in the order played. The trick a card goes to
//! is the trick in play (`Game::current`) while it is played: its obligations (`must follow`, `must
//! trump`, the lead's `must lead`) are that trick's, judged with the hand as it stands, the cards
//! already sent to the other tricks gone from it. When every card is in, each trick goes to its own
//! highest card, as any trick, and the next lead to whoever won with the highest winning card.

use crate::cards::{Card, CardSet};

use super::game::Together;
use super::{Game, Plays, Stop};

impl<'s, 'r> Game<'s, 'r> {
    /// The cards of the tricks in play with who played them: the trick in play and, during a lead
    /// together, the other tricks it began.
    pub(super) fn in_play(&self) -> impl Iterator<Item = &(u8, Card)> {
        self.current.iter().chain(self.together.iter().flat_map(|t| t.tricks.iter().flat_map(|k| k.iter())))
    }

    /// Whether a card of the trick (or the tricks) in play has been played.
    pub(super) fn trick_begun(&self) -> bool {
        self.in_play().next().is_some()
    }

    /// Who plays next during a lead together: the leader his `n` cards, then each player his `n`.
    pub(super) fn together_turn(&self) -> Option<u8> {
        let t = self.together.as_ref()?;
        let k = t.played / t.tricks.len();
        Some(if self.sat_out.is_some() { self.after(t.leader, k) } else { ((t.leader as usize + k) % self.n()) as u8 })
    }

    /// At `p`'s lead, the first `lead-together` whose condition holds for him: his lead begins that
    /// many tricks at once, if every player has that many cards to play.
    pub(super) fn begin_together(&mut self, p: u8) -> Result<(), Stop> {
        if self.together.is_some() || !self.current.is_empty() {
            return Ok(());
        }
        let rules = self.rules();
        for (i, t) in rules.play.together.iter().enumerate() {
            let holds = self.holds(&Some(t.when.clone()), p).map_err(|e| self.rule_error(&t.clause, e))?;
            if holds && self.cards_to_play(p) >= t.n {
                self.together = Some(Together { rule: i, leader: p, tricks: vec![Plays::default(); t.n], played: 0 });
                return Ok(());
            }
        }
        Ok(())
    }

    /// A refusal of a card sent to one of the tricks led together says which.
    pub(super) fn sent_to(&self, stop: Stop) -> Stop {
        match (&self.together, stop) {
            (Some(t), Stop::Violation(mut v)) => {
                v.message = format!("{} (the card to trick {} of the {} led together)", v.message, self.tricks.len() + t.at() + 1, t.tricks.len());
                Stop::Violation(v)
            }
            (_, stop) => stop,
        }
    }

    /// The card just played (in `current`) during a lead together: put with its trick, and the next
    /// trick made the one in play; once every card is in, the tricks are finished.
    pub(super) fn together_played(&mut self) -> Result<bool, Stop> {
        let in_trick = self.in_trick();
        let Some(t) = self.together.as_mut() else { return Ok(false) };
        let at = t.at();
        t.tricks[at] = std::mem::take(&mut self.current);
        t.played += 1;
        if t.played < t.tricks.len() * in_trick {
            let next = t.at();
            self.current = std::mem::take(&mut t.tricks[next]);
            return Ok(true);
        }
        let t = self.together.take().expect("a lead together");
        self.leader = None;
        let all_played = self.hands.iter().all(|h| h.is_empty());
        let k = t.tricks.len();
        let mut won = vec![];
        let mut fool_play = None;
        for (i, cards) in t.tricks.into_iter().enumerate() {
            let (winner, fool, best) = self.close_trick(cards, t.leader, all_played && i + 1 == k)?;
            won.push((winner, best));
            fool_play = fool;
        }
        let (next, parted) = self.highest_winner(t.rule, &won);
        if won.iter().any(|&(w, _)| w != next) {
            let rules = self.rules();
            let rule = &rules.play.together[t.rule];
            let source = rule.clause.source.as_deref().map(|s| format!(", {s}")).unwrap_or_default();
            let first = self.tricks.len() - k;
            let (i, card) = won.iter().enumerate().find(|(_, &(w, _))| w == next).map(|(i, &(_, c))| (i, c)).unwrap_or((0, None));
            let card = card.map_or("no card".to_string(), |c| rules.card_name(c));
            let parted = parted.map_or(String::new(), |c| format!(" (as high as {}, of a lower suit)", rules.card_name(c)));
            self.notes.push(format!(
                "{} ({}{source}): {} leads trick {}, having won trick {} with {}, the highest of the winning cards{parted}",
                rule.label,
                rule.clause.rule,
                self.name(next),
                self.tricks.len() + 1,
                first + i + 1,
                card
            ));
        }
        self.trick_done(next, won.last().map_or(next, |&(w, _)| w), fool_play, all_played)?;
        Ok(true)
    }

    /// Of the tricks led together, won as `won` says (each winner and his winning card), who leads
    /// next: the highest winning card's player. A trump is above a suit card, trumps rank as in play,
    /// suit cards by their height in their suit counted from its top; of equal ones, the suit first in
    /// the rule's order; of equal trumps, the earlier trick's. With the winning card as high as his
    /// that the suits' order put below it, if any.
    fn highest_winner(&self, rule: usize, won: &[(u8, Option<Card>)]) -> (u8, Option<Card>) {
        let rules = self.rules();
        let suits = &rules.play.together[rule].suits;
        let key = |c: Option<Card>| -> (u8, i64, i64) {
            match c {
                None => (0, 0, 0),
                Some(c) if c.is_trump() => (2, self.strength(c) as i64, 0),
                Some(c) => {
                    let above = rules.pack.cards.and(CardSet::of_lane(c.lane())).iter().filter(|&d| self.strength(d) > self.strength(c)).count() as i64;
                    let order = suits.iter().position(|&l| l == c.lane()).unwrap_or(suits.len()) as i64;
                    (1, -above, -order)
                }
            }
        };
        let mut best = won[0];
        for &w in &won[1..] {
            if key(w.1) > key(best.1) {
                best = w;
            }
        }
        let (k, _, _) = key(best.1);
        let parted = won.iter().filter(|&&(p, c)| c != best.1 && p != best.0 && k == 1 && key(c).0 == 1 && key(c).1 == key(best.1).1).find_map(|&(_, c)| c);
        (best.0, parted)
    }
}
