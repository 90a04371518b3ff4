//! When everyone passes, a player the rules name plays a contract as its taker (`all-pass play
//! CONTRACT by "who" = condition`), on `tests/rules/auction-all-pass-named.tarot`: the holder of the
//! 21 a garde, else the holder of the Petit a prise, else the Räuber each for himself; and, in a ruleset
//! with nothing else said, the deal annulled when nobody is named.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{random_deal, random_game_with, replay, ContractChoice, Event, GameRecord, Phase, Setup, SimOptions, Status, Verdict};

fn rules() -> Ruleset {
    common::rules("auction-all-pass-named", &["auction-all-pass", "auction-all-pass-named"])
}

const NAMES: [&str; 4] = ["Ann", "Bob", "Cid", "Dan"];

/// The first seeded deal (of four, Ann dealing) that `wanted` accepts, with four passes after it.
fn all_passed(rules: &Ruleset, wanted: impl Fn(&Event) -> bool) -> GameRecord {
    let setup = Setup::new(rules, 4, &BTreeMap::<String, serde_json::Value>::new()).unwrap();
    let names: Vec<String> = NAMES.iter().map(|n| n.to_string()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let deal = (0..20_000).map(|_| random_deal(&setup, &names, 0, &mut rng)).find(|d| wanted(d)).expect("such a deal");
    let mut events = vec![deal];
    // Ann deals: Bob speaks first.
    for p in ["Bob", "Cid", "Dan", "Ann"] {
        events.push(Event::Bid { player: p.into(), bid: "pass".into() });
    }
    GameRecord {
        ruleset: rules.id.clone(),
        options: BTreeMap::new(),
        players: names,
        dealer: "Ann".into(),
        pots: BTreeMap::new(),
        standing: BTreeMap::new(),
        description: None,
        events,
    }
}

/// Who was dealt `card`, if anyone.
fn holder(deal: &Event, card: &str) -> Option<String> {
    let Event::Deal { hands, .. } = deal else { panic!("a deal") };
    hands.iter().find(|(_, cards)| cards.iter().any(|c| c.as_str() == card)).map(|(p, _)| p.to_string())
}

fn note(v: &Verdict, text: &str) -> bool {
    v.notes.iter().any(|n| n.contains(text))
}

#[test]
fn everyone_passing_the_holder_of_the_21_plays_a_garde_as_its_taker() {
    let r = rules();
    let g = all_passed(&r, |d| holder(d, "T21").is_some());
    let who = holder(&g.events[0], "T21").unwrap();
    let v = replay(&r, &g).unwrap();
    assert_eq!(v.status, Status::InProgress, "{:?}", v.violation);
    let next = v.next.as_ref().unwrap();
    assert_eq!(*next.player, *who, "{next:?}");
    assert_ne!(next.phase, Phase::Bid);
    assert!(note(&v, &format!("all players passed: {who}, the holder of the 21, plays garde as its taker (bidding.all-pass.garde)")), "{:?}", v.notes);
    // The bidding is over: nobody bids after the last pass.
    let mut late = g.clone();
    late.events.push(Event::Bid { player: "Bob".into(), bid: "garde".into() });
    assert_eq!(replay(&r, &late).unwrap().violation.unwrap().message, "the bidding is over");
}

#[test]
fn the_21_in_the_dog_the_holder_of_the_petit_plays_a_prise() {
    let r = rules();
    let g = all_passed(&r, |d| holder(d, "T21").is_none() && holder(d, "T1").is_some());
    let who = holder(&g.events[0], "T1").unwrap();
    let v = replay(&r, &g).unwrap();
    assert_eq!(*v.next.as_ref().unwrap().player, *who);
    assert!(note(&v, &format!("all players passed: {who}, the holder of the Petit, plays prise as its taker (bidding.all-pass.prise)")), "{:?}", v.notes);
}

#[test]
fn nobody_named_what_all_passing_says_besides_applies() {
    let r = rules();
    // Both in the dog: the Räuber, each for himself.
    let g = all_passed(&r, |d| holder(d, "T21").is_none() && holder(d, "T1").is_none());
    let v = replay(&r, &g).unwrap();
    assert_eq!((v.status, v.next.as_ref().unwrap().phase), (Status::InProgress, Phase::Play));
    assert!(note(&v, "all players passed: Räuber is played"), "{:?}", v.notes);
    // With the parent's `all-pass annul`, annulled under it; with nothing else said, under the first
    // statement that could name a player.
    let forced = "  all-pass play garde by \"the holder of the 21\" = has(hand, T21)\n";
    for (without, rule) in [("", "bidding.all-pass"), ("  without all-pass annul\n", "bidding.all-pass.garde")] {
        let text = format!("ruleset t \"t\"\nextends fft-4p\nbidding {{\n{without}{forced}}}\n");
        let t = common::compile_text("t", &text).unwrap();
        let g = all_passed(&t, |d| holder(d, "T21").is_none());
        let v = replay(&t, &g).unwrap();
        assert_eq!((v.status, v.annulled.as_ref().map(|a| a.rule.to_string())), (Status::Annulled, Some(rule.to_string())), "{without}");
        // The 21 held, its holder plays the garde.
        let g = all_passed(&t, |d| holder(d, "T21").is_some());
        assert_eq!(replay(&t, &g).unwrap().status, Status::InProgress);
    }
}

#[test]
fn played_out_the_named_taker_plays_and_scores_as_if_he_had_won_the_auction() {
    let r = rules();
    // Steered to the Räuber, which nobody bids: everyone passes.
    let sim = SimOptions { contract: ContractChoice::Only("raeuber".into()), ..SimOptions::steered() };
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut seen = BTreeMap::new();
    for _ in 0..40 {
        let g = random_game_with(&r, 4, &BTreeMap::new(), &sim, &mut rng).unwrap();
        let v = replay(&r, &g).unwrap();
        if v.status == Status::Annulled {
            continue; // a petit sec, as in the parent
        }
        assert_eq!(v.status, Status::Valid, "{:?}", v.violation);
        let o = v.outcome.as_ref().unwrap();
        // A lower contract bid on the way (a quarter of the time): the auction was won.
        if g.events.iter().any(|e| matches!(e, Event::Bid { bid, .. } if bid.as_str() != "pass")) {
            continue;
        }
        let deal = &g.events[0];
        let (contract, taker) = match (holder(deal, "T21"), holder(deal, "T1")) {
            (Some(p), _) => ("garde", Some(p)),
            (None, Some(p)) => ("prise", Some(p)),
            (None, None) => ("raeuber", None),
        };
        assert_eq!((o.contract.as_deref(), o.taker.as_deref()), (Some(contract), taker.as_deref()), "{:?}", v.notes);
        *seen.entry(contract).or_insert(0) += 1;
    }
    assert!(seen.get("garde").is_some_and(|&n| n > 5), "{seen:?}");
}

#[test]
fn describe_says_who_is_named_and_what_then() {
    let d = tarot_engine::describe(&rules(), &BTreeMap::new());
    let texts: Vec<&str> = d.rules.iter().map(|l| l.text.as_str()).collect();
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("all players pass: the holder of the 21, the first in turn from first hand whose hand as dealt meets it")
                && t.contains("plays garde as its taker")),
        "{texts:#?}"
    );
    assert!(texts.iter().any(|t| t.starts_with("all players pass and nobody named above: the holder of the Petit")), "{texts:#?}");
    assert!(texts.iter().any(|t| t.starts_with("all players pass and nobody is named: Räuber is played, each for himself")), "{texts:#?}");
}
