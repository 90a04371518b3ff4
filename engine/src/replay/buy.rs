//! The `buy` section: after his discard the taker buys cards (Droggn's Simple). He calls a card he
//! does not hold; its holder gives it to him and takes back a card of the taker's hand (event `buy`,
//! with `card` and `gives`), or he buys nothing (a `buy` event with neither). The buys come before the
//! first card and before any declaration made after the discard.

use crate::cards::{Card, CardSet};
use crate::verdict::{Next, Phase};

use super::{Game, Stage, Stop};

impl<'s, 'r> Game<'s, 'r> {
    /// The taker buys `cards` (the card called, the card given back), or nothing.
    pub(super) fn buy(&mut self, p: u8, cards: Option<(Card, Card)>) -> Result<(), Stop> {
        let rules = self.rules();
        let Some(b) = &rules.buy else {
            return Err(self.input(format!("{} has no buying of cards", rules.id)));
        };
        let clause = &b.clause;
        let started = !self.tricks.is_empty() || self.trick_begun();
        let Some(t) = self.taker.filter(|_| self.stage == Stage::Play && self.buys_left > 0 && !started) else {
            let why = match self.stage {
                Stage::Bidding | Stage::Call | Stage::Discard => "cards are bought after the discard",
                _ => "there is no card to buy now",
            };
            return Err(self.violation(clause, p, why.into()));
        };
        if p != t {
            return Err(self.violation(clause, p, format!("the taker, {}, buys cards, not {}", self.name(t), self.name(p))));
        }
        let Some((c, g)) = cards else {
            self.buys_left = 0;
            self.notes.push(format!("{} buys no card ({})", self.name(t), clause.rule));
            return Ok(());
        };
        let hand = self.hands[t as usize];
        if hand.contains(c) {
            return Err(self.violation(clause, p, format!("{} calls {}, which he holds himself", self.name(t), rules.card_name(c))));
        }
        let Some(h) = (0..self.n() as u8).find(|&q| q != t && self.hands[q as usize].contains(c)) else {
            return Err(self.violation(clause, p, format!("{} calls {}, which no other player holds", self.name(t), rules.card_name(c))));
        };
        if !hand.contains(g) {
            return Err(self.violation(clause, p, format!("{} gives back {}, which he does not hold", self.name(t), rules.card_name(g))));
        }
        let (one_c, one_g) = (CardSet::single(c), CardSet::single(g));
        self.hands[t as usize] = hand.minus(one_g).or(one_c);
        self.hands[h as usize] = self.hands[h as usize].minus(one_c).or(one_g);
        self.bought.push((t, c, h, g));
        self.buys_left -= 1;
        self.notes.push(format!("{} buys {} from {} and gives back {} ({})", self.name(t), rules.card_name(c), self.name(h), rules.card_name(g), clause.rule));
        Ok(())
    }

    /// A card played or a declaration made while the taker may still buy a card.
    pub(super) fn buy_missing(&self, p: u8) -> Option<Stop> {
        if self.buys_left == 0 || self.stage != Stage::Play {
            return None;
        }
        let t = self.taker?;
        let clause = &self.rules().buy.as_ref()?.clause;
        Some(self.violation(clause, p, format!("{} must first buy a card, or say that he buys none (a `buy` event without cards)", self.name(t))))
    }

    /// The taker and the cards he may call (`Game::next`), with `pass` to buy nothing; the card he
    /// gives back is any of his hand.
    pub(super) fn next_buy(&self) -> Option<Next> {
        if self.buys_left == 0 || !self.tricks.is_empty() || self.trick_begun() {
            return None;
        }
        let t = self.taker?;
        let others = (0..self.n()).filter(|&q| q != t as usize).fold(CardSet::EMPTY, |s, q| s.or(self.hands[q]));
        let mut legal: Vec<String> = others.iter().map(|c| c.to_string()).collect();
        legal.push("pass".into());
        Some(Next { player: self.name(t), phase: Phase::Buy, legal, count: Some(1), packets: vec![], table: Default::default(), declarations: vec![], sit_out: vec![] })
    }
}
