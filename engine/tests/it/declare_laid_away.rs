//! A declaration that may show cards its declarer laid away (`from hand-and-discard`, Grosstarock's
//! dealer who had to break a combination in his discard and still declares it, naming the cards laid
//! away): `engine/tests/rules/declare-laid-away.tarot`. The dealer, Cid, is dealt the four courts of
//! hearts and must lay one away; the simulator declares them with the card laid away, and the replay
//! accepts that, notes it, refuses a show of a card nobody laid away or another player laid away, and
//! counts the laid-away card in the compulsory check.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game_from;
use tarot_engine::{replay, Event, GameRecord, Status};

use crate::common::test_rules;

/// Cid's 28 cards: the four courts of hearts, no trump, no honour.
const CID: &str = "KH QH CH JH 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1C 2C 3C 4C 5C 6C 7C 8C 9C 10C 1D 2D 3D 4D";

fn rules(edit: Option<(&str, &str)>) -> Ruleset {
    test_rules("declare-laid-away", edit).unwrap_or_else(|e| panic!("{e}"))
}

/// A game simulated from the deal that gives Cid (the dealer) `CID`, the others the rest.
fn game(rules: &Ruleset) -> GameRecord {
    let table: Vec<String> = ["Ann", "Bob", "Cid"].iter().map(|s| s.to_string()).collect();
    let cid: Vec<String> = CID.split_whitespace().map(String::from).collect();
    let rest: Vec<String> = rules.pack.cards.iter().map(|c| c.code().to_string()).filter(|c| !cid.contains(c)).collect();
    let hands = BTreeMap::from([
        ("Ann".into(), rest[..25].iter().map(|c| c.as_str().into()).collect()),
        ("Bob".into(), rest[25..].iter().map(|c| c.as_str().into()).collect()),
        ("Cid".into(), cid.iter().map(|c| c.as_str().into()).collect()),
    ]);
    let deal = Event::Deal { hands, dog: vec![], cut: None, piles: BTreeMap::new(), packets: vec![] };
    random_game_from(rules, &table, 2, deal, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(1783)).expect("a game from the deal")
}

fn declare_at(rec: &GameRecord) -> usize {
    rec.events.iter().position(|e| matches!(e, Event::Declare { declaration, .. } if &**declaration == "hearts")).expect("the hearts declared")
}

fn laid_away(rec: &GameRecord) -> Vec<String> {
    rec.events
        .iter()
        .find_map(|e| match e {
            Event::Discard { cards, .. } => Some(cards.iter().map(|c| c.to_string()).collect()),
            _ => None,
        })
        .expect("a discard")
}

#[test]
fn the_dealer_declares_a_combination_with_a_card_he_laid_away() {
    let rules = rules(None);
    let rec = game(&rules);
    let v = replay(&rules, &rec).unwrap();
    assert_eq!(v.status, Status::Valid, "{}", v.to_text());
    let Event::Declare { player, cards, .. } = &rec.events[declare_at(&rec)] else { unreachable!() };
    assert_eq!(&**player, "Cid");
    assert_eq!(cards.len(), 4);
    let away: Vec<String> = laid_away(&rec).into_iter().filter(|c| c.ends_with('H')).collect();
    assert!(!away.is_empty() && away.iter().all(|c| cards.iter().any(|s| &**s == c.as_str())), "{away:?} {cards:?}");
    assert!(v.notes.iter().any(|n| n.contains("laid away in his discard") && n.contains("declaration.hearts")), "{:?}", v.notes);
    // Paid at once, 7 by each other player.
    assert_eq!(v.ledger.iter().filter(|e| &*e.rule == "declaration.hearts").count(), 2);

    // From the hand alone, the card laid away is not his to show.
    let hand_only = self::rules(Some(("  from hand-and-discard\n", "  from hand\n")));
    let x = replay(&hand_only, &rec).unwrap().violation.expect("a violation");
    assert_eq!(&*x.rule, "declaration.hearts", "{}", x.message);
    assert!(x.message.contains("does not hold"), "{}", x.message);
}

#[test]
fn a_show_of_cards_laid_away_by_another_or_by_nobody_is_refused() {
    let rules = rules(None);
    let rec = game(&rules);
    let at = declare_at(&rec);
    let heart = laid_away(&rec).into_iter().find(|c| c.ends_with('H')).unwrap();
    // Bob shows the court Cid laid away: Cid's, not his.
    let mut other = rec.clone();
    other.events[at] = Event::Declare { player: "Bob".into(), declaration: "hearts".into(), cards: vec![heart.as_str().into()] };
    let x = replay(&rules, &other).unwrap().violation.expect("a violation");
    assert_eq!(&*x.rule, "declaration.hearts");
    assert_eq!(x.player.as_deref(), Some("Bob"));
    assert!(x.message.contains("neither holds nor laid away (Cid laid it away)"), "{}", x.message);
    // Cid shows a card of Ann's, which nobody laid away.
    let mut nobody = rec.clone();
    let Event::Deal { hands, .. } = &rec.events[0] else { unreachable!() };
    let anns = hands["Ann"][0].clone();
    let Event::Declare { cards, .. } = &mut nobody.events[at] else { unreachable!() };
    cards.push(anns);
    let x = replay(&rules, &nobody).unwrap().violation.expect("a violation");
    assert_eq!(&*x.rule, "declaration.hearts");
    assert!(x.message.contains("which Cid neither holds nor laid away") && !x.message.contains("laid it away"), "{}", x.message);
}

#[test]
fn the_compulsory_check_counts_the_cards_laid_away() {
    let rules = rules(None);
    let mut rec = game(&rules);
    rec.events.remove(declare_at(&rec));
    let x = replay(&rules, &rec).unwrap().violation.expect("a violation");
    assert_eq!(&*x.rule, "declaration.hearts.compulsory", "{}", x.message);
    assert_eq!(x.player.as_deref(), Some("Cid"));
    // From the hand alone, three courts are no show, and nothing was owed.
    let hand_only = self::rules(Some(("  from hand-and-discard\n", "  from hand\n")));
    assert_eq!(replay(&hand_only, &rec).unwrap().status, Status::Valid);
}
