//! A verdict's cards written as the record wrote them, where the pack has other codes for them.

use std::sync::Arc;

use crate::cards::Card;
use crate::ir::*;
use crate::record::{Event, GameRecord};
use crate::verdict::*;

/// The codes `rec` writes for cards otherwise than by their own code (`EX` for the Fool made a
/// trump, a `code` alias), the first it writes for each; `None` when there is none.
pub(super) fn spellings_of(rules: &Ruleset, rec: &GameRecord) -> Spellings {
    let mut out: Vec<(Card, crate::record::Text)> = vec![];
    let mut note = |code: &crate::record::Text| {
        if let Some(c) = rules.pack.parse_card(code) {
            let written = code.trim();
            if !written.eq_ignore_ascii_case(c.code_str()) && !out.iter().any(|(k, _)| *k == c) {
                out.push((c, written.into()));
            }
        }
    };
    for e in &rec.events {
        match e {
            Event::Deal { hands, dog, cut, piles, packets } => {
                hands.values().flatten().chain(dog).chain(cut).chain(piles.values().flatten().flatten()).chain(packets.iter().flat_map(|k| &k.cards)).for_each(&mut note)
            }
            Event::Call { card, .. } | Event::Play { card, .. } => note(card),
            Event::Discard { cards, .. } | Event::Take { cards, .. } | Event::Declare { cards, .. } => cards.iter().for_each(&mut note),
            Event::Buy { card, gives, .. } => card.iter().chain(gives).for_each(&mut note),
            Event::Bid { .. } | Event::SitOut { .. } => {}
        }
    }
    (!out.is_empty()).then(|| out.into())
}

/// Writes the verdict's cards as the record wrote them (`spellings`): the tricks, the cards on the
/// table, the legal cards and declarations of the next move, and the score's values that are cards.
pub(super) fn respell(verdict: &mut Verdict, spellings: &Arc<[(Card, crate::record::Text)]>) {
    let some = Some(spellings.clone());
    let word = |w: &str| match Card::parse(w) {
        Some(c) if w == c.code_str() => spelled(&some, c).to_string(),
        _ => w.to_string(),
    };
    for t in &mut verdict.tricks {
        t.cards.spellings = some.clone();
        for x in &mut t.not_taken {
            x.code = spelled(&some, x.card).to_string();
        }
    }
    if let Some(n) = &mut verdict.next {
        n.table.spellings = some.clone();
        if matches!(n.phase, Phase::Play | Phase::Discard | Phase::Call | Phase::Buy) {
            for l in &mut n.legal {
                *l = word(l);
            }
        }
        for c in n.packets.iter_mut().flatten() {
            *c = word(c);
        }
        for d in &mut n.declarations {
            for c in &mut d.cards {
                *c = word(c);
            }
        }
    }
    fn figure(f: &mut Figure, word: &dyn Fn(&str) -> String) {
        if let Figure::List(items) = f {
            for x in items {
                match x {
                    Figure::Text(t) => *t = word(t).into(),
                    other => figure(other, word),
                }
            }
        }
    }
    if let Some(o) = &mut verdict.outcome {
        for (_, v) in &mut o.values {
            figure(v, &word);
        }
    }
}
