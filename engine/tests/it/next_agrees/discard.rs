//! Discards: sets of cards drawn from `next.legal`, and sets `next` does not offer.
//!
//! What `next` promises of a discard: `legal` lists the cards the rules on single cards let go
//! (`forbid`; `unless-unavoidable`'s cards once some must go), `count` how many. A set of `count` of
//! them is accepted, but where a rule on the set as a whole refuses it: `unless-unavoidable`, which
//! lets go only as many of its cards as must (the size less the other cards of `legal`; checked to
//! the number where the discard has no `require`), and a `require`, which `legal` does not solve
//! (REFERENCE, `require` in the discard). Where the discard has no `require`, each card of `legal` is
//! in some lawful discard: a set holding it, with as few of `unless-unavoidable`'s cards as may be,
//! is accepted. The record's own discard there (which replay accepts) is one of `count` cards of
//! `legal`. A set with a card of the hand outside `legal` is refused for `forbid` or
//! `unless-unavoidable`, one of another size is refused (or a paid fault, where the rules make a
//! wrong size one), and a card listed twice is no record.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{Card, CardSet, Event};

use super::{At, Said, Tried};

/// Random sets of `count` cards drawn from `legal` at each discard.
const DRAWN: usize = 8;

/// The discards tried at a `discard` of `at`; `Err` where `next` itself is wrong (a card of `legal`
/// not in the hand, no count, fewer cards than the count).
pub(super) fn tried(at: &At, moves: &mut Vec<Tried>) -> Result<(), String> {
    let who = &at.next.player;
    let legal: Vec<Card> = at.next.legal.iter().filter_map(|l| at.code(l)).collect();
    let outside: Vec<&String> = at.next.legal.iter().filter(|l| !at.code(l).is_some_and(|c| at.hand.contains(c))).collect();
    let Some(count) = at.next.count.filter(|&n| outside.is_empty() && n <= legal.len()) else {
        return Err(format!("the discard lists {:?} ({outside:?} not in {who}'s hand), count {:?}", at.next.legal, at.next.count));
    };
    let d = at.rules.discard.as_ref();
    let requires = d.is_some_and(|d| !d.requires.is_empty());
    let restricted = d.and_then(|d| d.unless_unavoidable.as_ref()).map_or(CardSet::EMPTY, |u| u.cards);
    let legal_set: CardSet = legal.iter().copied().collect();
    // As many of the restricted cards as must go: the size less the other cards of `legal`.
    let must = count.saturating_sub(legal_set.minus(restricted).len());
    let breaks = |rules: &[&str]| Said::Breaks(rules.iter().map(|r| r.to_string()).collect());
    let said = |set: CardSet| match (requires, set.and(restricted).len() > must) {
        (true, _) => Said::Drawn,
        (false, true) => breaks(&["discard.unless-unavoidable"]),
        (false, false) => Said::Offered,
    };
    let event = |cards: Vec<Card>| Event::Discard { player: at.player(), cards: cards.iter().map(|c| c.code()).collect() };
    let name = |cards: &[Card]| cards.iter().map(|c| c.code().to_string()).collect::<Vec<_>>().join(" ");
    // The cards of `legal` with `first` first, then those outside `unless-unavoidable`.
    let holding = |first: Card| -> Vec<Card> {
        let free = legal.iter().filter(|c| **c != first && !restricted.contains(**c));
        let rest = legal.iter().filter(|c| **c != first && restricted.contains(**c));
        [first].into_iter().chain(free.chain(rest).copied()).take(count).collect()
    };
    // The discard the record makes here, which replay accepts: of `count` cards of `legal`.
    if let Some(Event::Discard { player, cards }) = at.rec.events.get(at.k) {
        let set: Vec<Card> = cards.iter().filter_map(|l| at.code(l)).collect();
        if *player == at.player() {
            let within = set.len() == count && set.iter().all(|c| legal.contains(c));
            moves.push(Tried { what: format!("{who} discarding {}, as the record does", name(&set)), event: event(set), said: if within { Said::Offered } else { Said::LeftOut } });
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(at.k as u64);
    for _ in 0..DRAWN {
        let set: Vec<Card> = legal.choose_multiple(&mut rng, count).copied().collect();
        let s = said(set.iter().copied().collect());
        moves.push(Tried { what: format!("{who} discarding {}, drawn from legal", name(&set)), event: event(set), said: s });
    }
    if !requires {
        for &c in &legal {
            let set = holding(c);
            moves.push(Tried { what: format!("{who} discarding {}, holding {}", name(&set), c.code()), event: event(set), said: Said::Offered });
        }
    }
    let base = match legal.first() {
        Some(&c) => holding(c),
        None => vec![],
    };
    for c in at.hand.minus(legal_set).iter() {
        let set: Vec<Card> = [c].into_iter().chain(base.iter().copied().take(count.saturating_sub(1))).collect();
        let said = breaks(&["discard.forbid", "discard.unless-unavoidable"]);
        moves.push(Tried { what: format!("{who} discarding {}, {} not in legal", name(&set), c.code()), event: event(set), said });
    }
    if count > 0 {
        let fewer = base[..count - 1].to_vec();
        moves.push(Tried { what: format!("{who} discarding {}, one card fewer", name(&fewer)), event: event(fewer), said: Said::LeftOut });
        let mut twice = base.clone();
        twice.push(base[0]);
        moves.push(Tried { what: format!("{who} discarding {}, a card twice", name(&twice)), event: event(twice), said: Said::Malformed });
    }
    if let Some(more) = legal.iter().chain(at.hand.iter().collect::<Vec<_>>().iter()).find(|c| !base.contains(c)) {
        let mut set = base.clone();
        set.push(*more);
        moves.push(Tried { what: format!("{who} discarding {}, one card more", name(&set)), event: event(set), said: Said::LeftOut });
    }
    Ok(())
}
