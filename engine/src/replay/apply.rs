//! The driver of a game: `apply` reads an event and hands it to its section; `next` asks the phase's
//! section what it expects.

use crate::record::Event;
use crate::verdict::{Next, Phase};

use super::{clause_violation, read, Game, Move, Stage, Stop};

impl Game<'_, '_> {
    /// Applies one event; `Err` says why the game cannot go on.
    pub fn apply(&mut self, index: usize, e: &Event) -> Result<(), Stop> {
        self.event = index;
        // The sitter who scores is not one of those who move.
        let m = read(self.setup, &self.names[..self.n()], index, e).map_err(Stop::Input)?;
        self.apply_move(index, &m)
    }

    /// Applies one event already read. An annulled deal is over, as a finished game is: no event may
    /// follow it.
    pub fn apply_move(&mut self, index: usize, m: &Move) -> Result<(), Stop> {
        self.event = index;
        if let Some((rule, at)) = &self.annulled_at {
            return Err(self.input(format!("the deal was annulled at event {at} ({rule}), but the record goes on with a {} event", m.kind())));
        }
        if let Some(stop) = self.after_settled(m) {
            return Err(stop);
        }
        if self.stage == Stage::Done && !self.claimed_after_play(m) {
            // Play ended when the contract was decided: what follows breaks the rule that ended it.
            if let Some(i) = self.ended_by {
                let end = &self.rules().play.ends[i];
                let message = format!("play ended after trick {} ({}), but the record goes on with a {} event", self.tricks.len(), end.label, m.kind());
                return Err(clause_violation(&end.clause, index, m.player().map(|p| self.name(p)), message));
            }
            return Err(self.input(format!("the game is over, but the record goes on with a {} event", m.kind())));
        }
        let applied = self.apply_read(m);
        if let Err(Stop::Annulled(a)) = &applied {
            self.annulled_at = Some((a.rule.clone(), index));
            self.stage = Stage::Done;
        }
        applied
    }

    fn apply_read(&mut self, m: &Move) -> Result<(), Stop> {
        self.close_after_deal(m);
        match *m {
            Move::Deal(ref d) => {
                if self.rules().talon.is_some() || self.rules().steal.is_some() {
                    self.dog_order = d.dog_order.clone();
                }
                self.deal(&d.hands, d.dog, d.cut, &d.piles, &d.packets)
            }
            _ if self.stage == Stage::Deal => Err(self.input(format!("a game starts with the deal, not a {} event", m.kind()))),
            _ if self.sat_out.is_some() && m.player() == self.sat_out => Err(self.sat_out_moves(m).expect("the move of the player who sits out")),
            Move::Bid { player, bid } => self.bid(player, bid),
            Move::Call { .. } | Move::Discard { .. } | Move::Take { .. } | Move::Buy { .. } | Move::Play { .. } if self.choosing.is_some() => {
                Err(self.last_word_missing(m.player()))
            }
            Move::Call { player, card } => self.call(player, card),
            Move::Discard { player, cards } if self.stealing() => self.steal_discard(player, cards),
            Move::Take { player, cards } if self.stealing() => self.steal_take(player, cards),
            Move::Discard { player, cards } => self.discard(player, cards),
            Move::Take { player, cards } => self.take(player, cards),
            Move::Declare { player, .. } | Move::Play { player, .. } | Move::SitOut { player } if self.stealing() => match self.steal_missing(player) {
                Some(stop) => Err(stop),
                None => self.apply_read(m),
            },
            Move::Buy { player, cards } => self.buy(player, cards),
            Move::Declare { player, kind, cards } => self.declare(player, kind, cards),
            Move::Play { player, card } => self.play(player, card),
            Move::SitOut { player } => self.sit_out(player),
        }
    }

    /// What the game expects next, for a game in progress.
    #[allow(clippy::should_implement_trait)] // a question to the game, not an iterator
    pub fn next(&mut self) -> Option<Next> {
        match self.stage {
            // The dealer deals (at a table where he sits out, `replay_with` names him).
            Stage::Deal => Some(Next {
                player: self.name(self.dealer),
                phase: Phase::Deal,
                legal: vec![],
                count: None,
                packets: vec![],
                table: Default::default(),
                declarations: vec![],
                sit_out: vec![],
            }),
            Stage::Bidding => self.next_bid(),
            Stage::Call => self.next_call(),
            Stage::Discard => self.next_steal().or_else(|| self.next_take()).or_else(|| self.next_discard()),
            Stage::Play => self.next_buy().or_else(|| self.next_play()),
            Stage::Done => None,
        }
    }
}
