//! Discards with `require`s: `next` lists the cards that some lawful discard holds, not those a
//! requirement keeps in the hand (Cego's declarer, who keeps the Geiß in Kleiner Mann, a pair of one
//! suit in Zwei Leere and lays away his lowest trump from the Blinde).

use std::collections::BTreeMap;

use tarot_engine::ir::Ruleset;
use tarot_engine::testing::{DiscardCards, Game, Seating};
use tarot_engine::{replay, Card, CardSet, ContractChoice, GameRecord, Next, Phase, Setup, SimOptions};
use tarot_testkit::registry;

use super::{assert_agree, check_game, game_of, prefix, Tally};

/// One discard of a game: the contract played, the discarder's hand, `next` there, what the search
/// for its cards found, and, where the hand has `EVERY` sets of `next.count` cards at most, the cards
/// of those that `Game::discard_allowed` accepts.
struct AtDiscard {
    contract: String,
    hand: CardSet,
    next: Next,
    found: DiscardCards,
    lawful: Option<CardSet>,
}

/// The most sets of a hand judged one by one.
const EVERY: usize = 2_000;

/// Every discard of `rec`.
fn discards(rules: &Ruleset, rec: &GameRecord) -> Vec<AtDiscard> {
    let setup = Setup::new(rules, rec.players.len(), &rec.options).unwrap();
    let dealer = rec.players.iter().position(|p| *p == rec.dealer).unwrap();
    let seats = Seating::of(&setup, &rec.players, dealer);
    let mut game = Game::new(&setup, &seats.playing, seats.dealer);
    let mut out = vec![];
    for k in 1..rec.events.len() {
        if game.apply(k - 1, &rec.events[k - 1]).is_err() {
            break;
        }
        let Some(next) = replay(rules, &prefix(rec, k)).unwrap().next.filter(|n| n.phase == Phase::Discard) else { continue };
        let p = seats.playing.iter().position(|n| **n == *next.player).unwrap() as u8;
        let contract = game.contract.map(|c| rules.bidding.as_ref().unwrap().contracts[c].name.to_string()).unwrap_or_default();
        let hand: Vec<Card> = game.hands[p as usize].iter().collect();
        let sets = every_set(&hand, next.count.unwrap());
        let lawful = sets.map(|sets| sets.into_iter().filter(|s| game.discard_allowed(p, *s)).fold(CardSet::EMPTY, CardSet::or));
        out.push(AtDiscard { contract, hand: game.hands[p as usize], next, found: game.discard_cards(p), lawful });
    }
    out
}

/// Every set of `k` of `cards`, where they are `EVERY` at most.
fn every_set(cards: &[Card], k: usize) -> Option<Vec<CardSet>> {
    let mut sets = vec![];
    let mut at: Vec<usize> = (0..k).collect();
    while k <= cards.len() {
        if sets.len() == EVERY {
            return None;
        }
        sets.push(at.iter().map(|&i| cards[i]).collect());
        let Some(i) = (0..k).rev().find(|&i| at[i] < cards.len() - k + i) else { break };
        at[i] += 1;
        for j in i + 1..k {
            at[j] = at[j - 1] + 1;
        }
    }
    Some(sets)
}

fn listed(next: &Next) -> CardSet {
    next.legal.iter().map(|c| Card::parse(c).unwrap()).collect()
}

/// Kleiner Mann: the holder of the Geiß keeps it and lays away the other ten cards of his hand, so
/// `next` lists each of those and not the Geiß (it listed the Geiß, which every discard holding it
/// breaks the requirement with).
#[test]
fn kleiner_mann_lists_every_card_but_the_geiss() {
    let rules = registry().get("cego").unwrap();
    let sim = SimOptions { contract: ContractChoice::Only("kleiner-mann".into()), ..SimOptions::steered() };
    let geiss = Card::parse("T1").unwrap();
    let (mut reached, mut tally) = (0, Tally::default());
    for seed in 0..12 {
        let rec = game_of(rules, 4, &BTreeMap::new(), &sim, seed);
        for AtDiscard { contract, hand, next, lawful, .. } in discards(rules, &rec) {
            if contract != "kleiner-mann" {
                continue;
            }
            reached += 1;
            assert!(hand.contains(geiss) && next.count == Some(10), "seed {seed}: {next:?}");
            assert!(!next.legal.iter().any(|c| c == "T1"), "seed {seed}: the Geiß listed: {:?}", next.legal);
            assert_eq!(listed(&next), hand.minus(CardSet::single(geiss)), "seed {seed}");
            assert_eq!(Some(listed(&next)), lawful, "seed {seed}");
        }
        check_game(rules, &rec, &mut tally);
    }
    assert!(reached > 0, "no Kleiner Mann played");
    assert_agree(&tally, "cego kleiner-mann");
}

/// Zwei Leere, whose requirements read the cards laid away by suit and by the order of the trumps
/// (each card searched alone): before the Blinde, `next` lists the cards of the lawful discards of
/// nine, all his trumps among them, and leaves out a pair he must keep where it is the only one he
/// may; once the Blinde is his, only his lowest trump.
#[test]
fn zwei_leere_lists_the_cards_of_a_lawful_discard() {
    let rules = registry().get("cego").unwrap();
    let sim = SimOptions { contract: ContractChoice::Only("zwei-leere".into()), ..SimOptions::steered() };
    let trumps: Vec<Card> = (1..=21).map(|i| Card::parse(&format!("T{i}")).unwrap()).collect();
    let (mut before, mut after, mut kept, mut tally) = (0, 0, 0, Tally::default());
    for seed in 0..16 {
        let rec = game_of(rules, 4, &BTreeMap::new(), &sim, seed);
        for AtDiscard { contract, hand, next, lawful, .. } in discards(rules, &rec) {
            if contract != "zwei-leere" {
                continue;
            }
            assert_eq!(Some(listed(&next)), lawful, "seed {seed}: {next:?}");
            match next.count {
                Some(9) => {
                    before += 1;
                    let held: CardSet = trumps.iter().copied().filter(|&c| hand.contains(c)).collect();
                    assert_eq!(listed(&next).and(held), held, "seed {seed}: every trump goes");
                    kept += usize::from(listed(&next).len() < hand.len());
                }
                _ => {
                    after += 1;
                    // The numbered trumps from the Geiß up (the Gstieß, above the Mond, is never the lowest
                    // of two).
                    if let Some(lowest) = trumps.iter().copied().find(|&c| hand.contains(c)) {
                        assert_eq!(listed(&next), CardSet::single(lowest), "seed {seed}: {next:?}");
                    }
                }
            }
        }
        check_game(rules, &rec, &mut tally);
    }
    assert!(before > 0 && after > 0 && kept > 0, "Zwei Leere's discards reached: {before} before the Blinde ({kept} keeping cards out), {after} after");
    assert_agree(&tally, "cego zwei-leere");
}

/// Troggu's Tappist lays away the kings only all four together: `next` lists them only where he
/// holds all four. The requirement counts the kings laid away, so the search takes the kings together
/// and the other cards together, and judges a few sets where he lays away 8 of 26 cards (card by
/// card, the sets holding a king he may not lay away number hundreds of thousands, past the bound).
#[test]
fn troggu_lists_the_kings_only_all_four_together() {
    let rules = registry().get("troggu").unwrap();
    let sim = SimOptions { contract: ContractChoice::Only("tapp".into()), ..SimOptions::steered() };
    let kings: CardSet = ["KS", "KH", "KD", "KC"].iter().map(|c| Card::parse(c).unwrap()).collect();
    let (mut all_four, mut fewer, mut tally) = (0, 0, Tally::default());
    for seed in 0..24 {
        let rec = game_of(rules, 3, &BTreeMap::new(), &sim, seed);
        for AtDiscard { contract, hand, next, found, .. } in discards(rules, &rec) {
            if contract != "tapp" {
                continue;
            }
            assert!(found.settled && found.evaluations < 50, "seed {seed}: {} sets judged", found.evaluations);
            assert_eq!(listed(&next), found.cards, "seed {seed}");
            let held = hand.and(kings);
            match held.len() {
                0 => {}
                4 => {
                    all_four += 1;
                    assert_eq!(listed(&next).and(kings), kings, "seed {seed}: {next:?}");
                }
                _ => {
                    fewer += 1;
                    assert!(listed(&next).and(kings).is_empty(), "seed {seed}: {next:?}");
                }
            }
        }
        check_game(rules, &rec, &mut tally);
    }
    assert!(fewer > 0, "no Tappist held one to three kings ({all_four} all four)");
    assert_agree(&tally, "troggu tapp");
}
