//! Buys: every card of the pack bought for the first card of the hand (offered exactly when it is in
//! `legal`), a card of `legal` bought for each other card of the hand (the card given back is any of
//! his hand), a card of `legal` bought for a card he does not hold (refused), and buying nothing
//! (`pass`).

use tarot_engine::{Card, Event};

use super::{At, Said, Tried};

pub(super) fn tried(at: &At, moves: &mut Vec<Tried>) {
    let who = &at.next.player;
    let buy = |c: Card, g: Card| Event::Buy { player: at.player(), card: Some(c.code()), gives: Some(g.code()) };
    let legal: Vec<Card> = at.next.legal.iter().filter_map(|l| at.code(l)).collect();
    let hand: Vec<Card> = at.hand.iter().collect();
    if let Some(&g) = hand.first() {
        for c in at.rules.pack.cards.iter() {
            moves.push(Tried { what: format!("{who} buying {} for {}", c.code(), g.code()), event: buy(c, g), said: if at.in_legal(c) { Said::Offered } else { Said::LeftOut } });
        }
    }
    if !legal.is_empty() {
        for (i, &g) in hand.iter().enumerate().skip(1) {
            let c = legal[i % legal.len()];
            moves.push(Tried { what: format!("{who} buying {} for {}", c.code(), g.code()), event: buy(c, g), said: Said::Offered });
        }
        // Given back: a card another player holds (the next card of `legal`), or the card bought.
        let (c, g) = (legal[0], legal[1 % legal.len()]);
        moves.push(Tried { what: format!("{who} buying {} for {}, not his", c.code(), g.code()), event: buy(c, g), said: Said::LeftOut });
    }
    let pass = at.next.legal.iter().any(|l| l == "pass");
    moves.push(Tried {
        what: format!("{who} buying nothing"),
        event: Event::Buy { player: at.player(), card: None, gives: None },
        said: if pass { Said::Offered } else { Said::LeftOut },
    });
}
