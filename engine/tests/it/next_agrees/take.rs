//! Takes: each packet of the talon `next` lists (accepted), and sets of the talon's cards it does not
//! list (refused): the first packet listed less its last card, with one card of the talon more, with
//! another card of the talon or a card of the hand in place of its last, and each packet of the talon
//! as it is cut (refused unless listed: a packet given, `talon { given }`, is the only one). A steal
//! from the stock is tried the same way (its packets are the runs that may be stolen, from the
//! stock's head; the stock as one packet, whole).

use tarot_engine::{Card, CardSet, Event};

use super::{At, Said, Tried};

pub(super) fn tried(at: &At, moves: &mut Vec<Tried>) {
    let who = &at.next.player;
    let packets: Vec<Vec<Card>> = at.next.packets.iter().map(|p| p.iter().filter_map(|l| at.code(l)).collect()).collect();
    let listed: Vec<CardSet> = packets.iter().map(|p| p.iter().copied().collect()).collect();
    let take = |cards: &[Card]| Event::Take { player: at.player(), cards: cards.iter().map(|c| c.code()).collect() };
    let name = |cards: &[Card]| cards.iter().map(|c| c.code().to_string()).collect::<Vec<_>>().join(" ");
    for p in &packets {
        moves.push(Tried { what: format!("{who} taking {}", name(p)), event: take(p), said: Said::Offered });
    }
    let Some(first) = packets.first().filter(|p| !p.is_empty()) else { return };
    let (head, last) = (&first[..first.len() - 1], first[first.len() - 1]);
    let other = at.game.dog.minus(listed[0]).iter().next();
    let mut sets: Vec<(Vec<Card>, &str)> = vec![(head.to_vec(), "the first packet less its last card")];
    if let Some(o) = other {
        sets.push((first.iter().copied().chain([o]).collect(), "the first packet with one card more"));
        sets.push((head.iter().copied().chain([o]).collect(), "the first packet with another card of the talon in place of its last"));
    }
    if let Some(h) = at.hand.iter().find(|c| *c != last) {
        sets.push((head.iter().copied().chain([h]).collect(), "the first packet with a card of the hand in place of its last"));
    }
    let whole: Vec<(Vec<Card>, &str)> = at.game.talon_packets().iter().map(|k| (k.iter().collect(), "a packet of the talon as cut")).collect();
    for (set, how) in sets.into_iter().filter(|(s, _)| !s.is_empty()).chain(whole) {
        let offered = listed.contains(&set.iter().copied().collect());
        moves.push(Tried { what: format!("{who} taking {}, {how}", name(&set)), event: take(&set), said: if offered { Said::Offered } else { Said::LeftOut } });
    }
}
