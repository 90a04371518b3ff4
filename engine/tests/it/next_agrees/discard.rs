//! Discards: sets of cards drawn from `next.legal`, and sets `next` does not offer.
//!
//! What `next` promises of a discard: `legal` lists the cards that some lawful discard holds, `count`
//! how many go. Without a `require`, those are the cards the rules on single cards let go (`forbid`;
//! `unless-unavoidable`'s cards once some must go); with one, the search of `Game::discard_cards`
//! finds a lawful discard holding each card it lists. A set of `count` of them is accepted, but where
//! a rule on the set as a whole refuses it: `unless-unavoidable`, which lets go only as many of its
//! cards as must (the size less the other cards of `legal`; checked to the number where the discard
//! has no `require`), and a `require`. Each card of `legal` is in some lawful discard: without a
//! `require`, a set holding it, with as few of `unless-unavoidable`'s cards as may be, is accepted;
//! with one, the discard the search found holding it is. The record's own discard there (which replay
//! accepts) is one of `count` cards of `legal`. A set with a card of the hand outside `legal` is
//! refused for `forbid`, `unless-unavoidable` or a `require`; with a `require`, every set of such a
//! card and `count - 1` cards of `legal` (all of them, or `HOLDING` drawn where they are more) is
//! refused too, as `Game::discard_allowed` judges it (a lawful discard holding the card would hold
//! only cards of `legal` besides it). One of another size is refused (or a paid fault, where the rules
//! make a wrong size one), and a card listed twice is no record.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{Card, CardSet, Event};

use super::{At, Said, Tried};

/// Random sets of `count` cards drawn from `legal` at each discard.
const DRAWN: usize = 8;

/// The most sets holding a card outside `legal` judged with `Game::discard_allowed`, where the
/// discard has a `require`.
const HOLDING: usize = 300;

/// The discards tried at a `discard` of `at`, and how many sets the search for `legal` judged (none
/// without a `require`); `Err` where `next` itself is wrong (a card of `legal` not in the hand, no
/// count, fewer cards than the count, a card of `legal` in no lawful discard found, a search past its
/// bound).
pub(super) fn tried(at: &At, moves: &mut Vec<Tried>) -> Result<usize, String> {
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
    let mut searched = 0;
    if !requires {
        for &c in &legal {
            let set = holding(c);
            moves.push(Tried { what: format!("{who} discarding {}, holding {}", name(&set), c.code()), event: event(set), said: Said::Offered });
        }
    } else {
        let p = at.names.iter().position(|n| **n == **who).ok_or_else(|| format!("{who} is not at the table"))? as u8;
        let found = at.game.discard_cards(p);
        searched = found.evaluations;
        if !found.settled {
            return Err(format!("the search for the cards of a lawful discard stopped at its bound, {} sets", found.evaluations));
        }
        for &c in &legal {
            let Some(set) = found.holding(c).filter(|s| s.contains(c) && s.len() == count) else {
                return Err(format!("{} is in legal {:?}, but no lawful discard found holds it", c.code(), at.next.legal));
            };
            let set: Vec<Card> = set.iter().collect();
            moves.push(Tried { what: format!("{who} discarding {}, a lawful discard found holding {}", name(&set), c.code()), event: event(set), said: Said::Offered });
        }
        for c in at.hand.minus(legal_set).iter() {
            if let Some(set) = with_legal(c, &legal, count, at.k).into_iter().find(|s| at.game.discard_allowed(p, *s)) {
                let set: Vec<Card> = set.iter().collect();
                moves.push(Tried { what: format!("{who} discarding {}, {} not in legal, allowed", name(&set), c.code()), event: event(set), said: Said::LeftOut });
            }
        }
    }
    let base = match legal.first() {
        Some(&c) => holding(c),
        None => vec![],
    };
    // The rules that refuse a card outside `legal`.
    let written = d.map_or(0, |d| d.requires.len());
    let refusing: Vec<String> =
        ["discard.forbid".to_string(), "discard.unless-unavoidable".to_string()].into_iter().chain((1..=written).map(|i| format!("discard.require.{i}"))).collect();
    for c in at.hand.minus(legal_set).iter() {
        let set: Vec<Card> = [c].into_iter().chain(base.iter().copied().take(count.saturating_sub(1))).collect();
        let said = Said::Breaks(refusing.clone());
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
    Ok(searched)
}

/// Sets of `c` and `count - 1` cards of `legal`: all of them where they are `HOLDING` at most, else
/// `HOLDING` drawn at random (from a seed of `k`).
fn with_legal(c: Card, legal: &[Card], count: usize, k: usize) -> Vec<CardSet> {
    let rest = count.saturating_sub(1);
    if rest > legal.len() {
        return vec![];
    }
    let mut all = 1usize;
    for i in 0..rest {
        all = all.saturating_mul(legal.len() - i) / (i + 1);
    }
    let one = CardSet::single(c);
    if all > HOLDING {
        let mut rng = ChaCha8Rng::seed_from_u64(k as u64 + 1);
        return (0..HOLDING).map(|_| one.or(legal.choose_multiple(&mut rng, rest).copied().collect())).collect();
    }
    let mut sets = vec![];
    let mut at: Vec<usize> = (0..rest).collect();
    loop {
        sets.push(one.or(at.iter().map(|&i| legal[i]).collect()));
        let Some(i) = (0..rest).rev().find(|&i| at[i] < legal.len() - rest + i) else { return sets };
        at[i] += 1;
        for j in i + 1..rest {
            at[j] = at[j - 1] + 1;
        }
    }
}
