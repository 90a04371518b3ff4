//! What a contract requires of the game once the announcements are closed (`contract NAME { ...;
//! require "label" = condition }`), Königrufen's Besserrufer: its declarer must announce a bird he held
//! before the talon (HK 5.3, OÖ23 "Ansagen 4"). The first card played without it breaks
//! `bidding.contract.besserrufer.require.1`, charged to the declarer; a bird from the talon does not
//! count; the simulator, taking the contract, announces the bird.

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::compile;
use tarot_engine::ir::Ruleset;
use tarot_engine::{describe, parse_record, random_game_with, replay, ContractChoice, Event, GameRecord, Registry, SimOptions, Status};

const BIRDS: [&str; 4] = ["pagat", "uhu", "kakadu", "quapil"];
const BIRD_CARDS: [&str; 4] = ["T1", "T2", "T3", "T4"];

fn koenigrufen(find: &str, replace: &str) -> Ruleset {
    let mut files = Registry::builtin_files();
    let file = files.get_mut("koenigrufen").expect("the koenigrufen rule file");
    assert_eq!(file.text.matches(find).count(), 1, "{find}");
    file.text = file.text.replace(find, replace);
    compile("koenigrufen", &|id: &str| files.get(id).cloned()).unwrap_or_else(|d| panic!("{d}"))
}

fn fixture(rel: &str) -> GameRecord {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/koenigrufen").join(rel);
    parse_record(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn first_play(rec: &GameRecord) -> usize {
    rec.events.iter().position(|e| matches!(e, Event::Play { .. })).expect("a card played")
}

/// Besserrufer games of the steered simulator, from seed 0.
fn besserrufer_games(n: u64) -> impl Iterator<Item = GameRecord> {
    let rules = tarot_testkit::registry().get("koenigrufen").unwrap();
    let sim = SimOptions { contract: ContractChoice::Only("besserrufer".into()), ..SimOptions::steered() };
    (0..n).map(move |seed| random_game_with(rules, 4, &BTreeMap::new(), &sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap())
}

fn taker(rec: &GameRecord) -> String {
    let v = replay(tarot_testkit::registry().get("koenigrufen").unwrap(), rec).unwrap();
    v.outcome.and_then(|o| o.taker.map(|t| t.to_string())).expect("a taker")
}

fn dealt(rec: &GameRecord, who: &str) -> Vec<String> {
    match &rec.events[0] {
        Event::Deal { hands, .. } => hands[who].iter().map(|c| c.to_string()).collect(),
        _ => panic!("the deal first"),
    }
}

#[test]
fn the_first_card_without_the_bird_breaks_the_requirement() {
    let rules = tarot_testkit::registry().get("koenigrufen").unwrap();
    let rec = fixture("invalid/bidding.contract.besserrufer.require.1.json");
    let v = replay(rules, &rec).unwrap();
    let x = v.violation.expect("a violation");
    assert_eq!(&*x.rule, "bidding.contract.besserrufer.require.1");
    assert_eq!(x.event, first_play(&rec), "{}", x.message);
    assert_eq!(x.player.as_deref(), Some(&*taker_of_bids(&rec)));
    assert!(x.message.contains("plays a Besserrufer, which requires the announcement of a bird he held before the talon"), "{}", x.message);
    assert_eq!(x.source.as_deref(), Some("HK \"5.3\""));

    // The requirement always met, the same game is valid: the rule is what breaks it.
    let free = koenigrufen(r#"before the talon" = \"#, r#"before the talon" = yes or \"#);
    assert_eq!(replay(&free, &rec).unwrap().status, Status::Valid);
}

/// The bidder of the contract won (the last bid that is not a pass).
fn taker_of_bids(rec: &GameRecord) -> String {
    rec.events.iter().rev().find_map(|e| if let Event::Bid { player, bid } = e { (bid.as_str() != "pass").then(|| player.to_string()) } else { None }).unwrap()
}

#[test]
fn a_bird_from_the_talon_does_not_count() {
    let rules = tarot_testkit::registry().get("koenigrufen").unwrap();
    // A Besserrufer whose declarer took a bird he was not dealt: his own birds' announcements taken
    // out, that one announced in their place.
    let mut tried = 0;
    for mut rec in besserrufer_games(400) {
        let t = taker(&rec);
        let mine = dealt(&rec, &t);
        let Some(talon_bird) = rec.events.iter().find_map(|e| match e {
            Event::Take { cards, .. } => cards.iter().map(|c| c.to_string()).find(|c| BIRD_CARDS.contains(&c.as_str()) && !mine.contains(c)),
            _ => None,
        }) else {
            continue;
        };
        let name = BIRDS[BIRD_CARDS.iter().position(|b| *b == talon_bird).unwrap()];
        rec.events.retain(|e| !matches!(e, Event::Declare { declaration, .. } if BIRDS.contains(&declaration.as_str())));
        let at = first_play(&rec);
        rec.events.insert(at, Event::Declare { player: t.as_str().into(), declaration: name.into(), cards: vec![] });
        let x = replay(rules, &rec).unwrap().violation.expect("a violation");
        assert_eq!(&*x.rule, "bidding.contract.besserrufer.require.1", "{}", x.message);
        assert_eq!(x.event, at + 1);
        tried += 1;
    }
    assert!(tried > 0, "no Besserrufer with a bird taken from the talon");
}

#[test]
fn the_simulator_announces_a_bird_it_was_dealt() {
    let rules = tarot_testkit::registry().get("koenigrufen").unwrap();
    for rec in besserrufer_games(60) {
        let v = replay(rules, &rec).unwrap();
        assert_eq!(v.status, Status::Valid, "{}", v.to_text());
        assert_eq!(v.outcome.as_ref().and_then(|o| o.contract.as_deref()), Some("besserrufer"));
        let t = taker(&rec);
        let mine = dealt(&rec, &t);
        let own = rec.events.iter().any(|e| {
            matches!(e, Event::Declare { player, declaration, .. } if player.as_str() == t
                && BIRDS.iter().position(|b| *b == declaration.as_str()).is_some_and(|i| mine.iter().any(|c| c == BIRD_CARDS[i])))
        });
        assert!(own, "{t} announced no bird he was dealt");
    }
}

#[test]
fn only_a_holder_of_a_bird_may_bid_it_and_describe_says_so() {
    let rules = tarot_testkit::registry().get("koenigrufen").unwrap();
    let d = describe(rules, &Default::default());
    let text = |rule: &str| d.rules.iter().find(|l| &*l.rule == rule).map(|l| l.text.clone()).unwrap_or_else(|| panic!("no {rule}"));
    assert_eq!(text("bidding.contract.besserrufer.by"), "Besserrufer may be bid only by a player with three kings at most and a bird");
    let req = text("bidding.contract.besserrufer.require.1");
    assert!(req.starts_with("Besserrufer requires the announcement of a bird he held before the talon: its taker may not play the first card without it ("), "{req}");
}
