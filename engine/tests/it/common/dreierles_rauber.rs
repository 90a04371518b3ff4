//! The Räuber's restrictions on the Drull, checked from pagat's Dreierles page (section "Räuber" for
//! Steinmauern; "3 Variations", "Iffezheim", "Play Restrictions in Räuber"), not from the rule file
//! or the engine: a Räuber's cards played out one by one, each checked against the restrictions the
//! record's `rauber_rules` chooses (none by default), as docs/family/dreierles.md reads them.

use std::collections::BTreeMap;

use tarot_engine::{Event, GameRecord};

use super::dreierles::Card;

const PFEIFE: Card = Card::Trump(1);
const XXI: Card = Card::Trump(21);
const STIESS: Card = Card::Trump(22);

fn trump(c: &Card) -> bool {
    matches!(c, Card::Trump(_))
}

fn top(c: &Card) -> bool {
    *c == STIESS || *c == XXI
}

/// The restriction a card breaks, in the page's words.
pub const PFEIFE_WITHHELD: &str = "the Pfeife must be played if possible to the third trick to which a trump is led";
pub const PFEIFE_EARLY: &str = "it may fall earlier if the Pfeife holder is required to play a trump and has no others left to play";
pub const XXI_ON_STIESS: &str = "the 21 cannot be played to a trick that already contains the Stiess unless the holder of the 21 has no alternative trump to play";
pub const TRUMPS_LED: &str = "if possible trumps must be led to the first three tricks";
pub const TOP_WITHHELD: &str = "if you hold either of these two top trumps you must play it at the first opportunity";
pub const TOP_TOGETHER: &str = "the Alt and Eisen ... not both in the same trick";
pub const PFIFF_WITHHELD: &str = "in the third trick the Pfiff (1) must be played";
pub const PFIFF_EARLY: &str = "a player with fewer than three trumps may be forced to play a Drull card earlier";

/// The cards of `hand` its player may play to `table` by the rules of every contract: "follow suit;
/// unable, trump; unable, anything" (the Stiess is a trump).
fn playable(hand: &[Card], table: &[Card]) -> Vec<Card> {
    let Some(led) = table.first() else { return hand.to_vec() };
    let same: Vec<Card> = hand
        .iter()
        .copied()
        .filter(|c| match (c, led) {
            (Card::Trump(_), Card::Trump(_)) => true,
            (Card::Suit(s, _), Card::Suit(l, _)) => s == l,
            _ => false,
        })
        .collect();
    if !same.is_empty() {
        return same;
    }
    let trumps: Vec<Card> = hand.iter().copied().filter(trump).collect();
    if trumps.is_empty() {
        hand.to_vec()
    } else {
        trumps
    }
}

/// Where a Räuber first breaks the restrictions of its `rauber_rules`: the event, and the restriction
/// in the page's words; none when it keeps them, when it chooses none, or when it is no Räuber.
pub fn breach(rec: &GameRecord) -> Option<(usize, &'static str)> {
    let rules = rec.options.get("rauber_rules").and_then(|v| v.as_str()).unwrap_or("none").to_string();
    let bid = rec.events.iter().any(|e| matches!(e, Event::Bid { bid, .. } if bid.as_str() != "pass"));
    if rules == "none" || bid {
        return None;
    }
    let mut hands: BTreeMap<String, Vec<Card>> = BTreeMap::new();
    let (mut table, mut done, mut trump_leads) = (vec![], 0, 0);
    for (at, e) in rec.events.iter().enumerate() {
        match e {
            Event::Deal { hands: dealt, .. } => {
                hands = dealt.iter().map(|(p, cards)| (p.to_string(), cards.iter().map(|c| Card::parse(c)).collect())).collect();
            }
            Event::Play { player, card } => {
                let c = Card::parse(card);
                let hand = hands.get_mut(player.as_str())?;
                let broken = match rules.as_str() {
                    "Steinmauern" => steinmauern(c, &playable(hand, &table), &table, trump_leads),
                    _ => iffezheim(c, hand, &playable(hand, &table), &table, done),
                };
                if let Some(why) = broken {
                    return Some((at, why));
                }
                hand.retain(|x| *x != c);
                table.push(c);
                if table.len() == rec.players.len() {
                    trump_leads += trump(&table[0]) as usize;
                    done += 1;
                    table.clear();
                }
            }
            _ => {}
        }
    }
    None
}

/// Steinmauern: `legal`, what the player may play by the rules of every contract; `trump_leads`, how
/// many of the tricks played a trump led.
fn steinmauern(c: Card, legal: &[Card], table: &[Card], trump_leads: usize) -> Option<&'static str> {
    let third = trump_leads == 2 && table.first().is_some_and(trump);
    if third && legal.contains(&PFEIFE) && c != PFEIFE {
        return Some(PFEIFE_WITHHELD);
    }
    // Before that trick (its leader may lead the Pfeife to it), the Pfeife only when nothing else may go.
    let before = trump_leads < 2 || (trump_leads == 2 && !table.is_empty() && !third);
    let pfeife_kept = before && legal.contains(&PFEIFE) && legal.len() > 1;
    if c == PFEIFE && pfeife_kept {
        return Some(PFEIFE_EARLY);
    }
    // A Pfeife kept back is no alternative trump.
    let alternative = legal.iter().any(|x| trump(x) && *x != XXI && !(*x == PFEIFE && pfeife_kept));
    (c == XXI && table.contains(&STIESS) && alternative).then_some(XXI_ON_STIESS)
}

/// Iffezheim: `done`, how many tricks were played.
fn iffezheim(c: Card, hand: &[Card], legal: &[Card], table: &[Card], done: usize) -> Option<&'static str> {
    let mut may = legal.to_vec();
    if table.is_empty() && done < 3 && hand.iter().any(trump) {
        if !trump(&c) {
            return Some(TRUMPS_LED);
        }
        may.retain(trump);
    }
    let top_in_trick = table.iter().any(top);
    if !top_in_trick && may.iter().any(top) {
        if !top(&c) {
            return Some(TOP_WITHHELD);
        }
        may.retain(top);
    }
    if done == 2 && may.contains(&PFEIFE) && c != PFEIFE {
        return Some(PFIFF_WITHHELD);
    }
    if top_in_trick && top(&c) && may.iter().any(|x| trump(x) && !top(x)) {
        return Some(TOP_TOGETHER);
    }
    (done < 2 && c == PFEIFE && may.len() > 1).then_some(PFIFF_EARLY)
}
