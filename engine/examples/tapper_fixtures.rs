//! Writes the fixtures of ATT1821 §19 in `tapp-tarock-1821` (a forehand who said Tapper may not then
//! play a Solo himself): a valid game in which forehand says Tapper and another player wins with a
//! Solo, and on the same deal, an auction in which forehand, his Tapper outbid by a Three, bids the
//! Solo himself (invalid: `bidding.contract.solo.by`). The valid game is the first seeded simulated
//! game found with that auction, so the fixtures are reproducible. Also the 1821 Dreyer's top three
//! talon cards bought unseen (ATT1821 §20): a take of the other three (invalid: `talon.given`); the
//! honours claimed after the last trick (§49); and the booklet's worked sums of the consolation
//! scoring (§5, §6) on the first simulated games that reach them:
//!
//!     cargo run -p tarot-engine --example generators -- tapper_fixtures

use crate::common;

use common::write;

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::{replay, Event, GameRecord, Phase, Registry, Status, Verdict};

const ID: &str = "tapp-tarock-1821";
const ID42: &str = "tapp-tarock-1821-42";

fn bids(g: &GameRecord) -> Vec<(String, String)> {
    g.events.iter().filter_map(|e| if let Event::Bid { player, bid } = e { Some((player.to_string(), bid.to_string())) } else { None }).collect()
}

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("built-in ruleset");
    let dir = common::fixtures().join(ID);
    tapper_then_solo(rules, &dir);
    dreyer_unseen(rules, &dir);
    worked_sums(rules, &dir);
    honours_after_play(rules, &dir);
    let rules42 = registry.get(ID42).expect("built-in ruleset");
    bought_42(rules42, &common::fixtures().join(ID42));
}

fn tapper_then_solo(rules: &Ruleset, dir: &Path) {
    let none = BTreeMap::new();
    for seed in 0..20_000u64 {
        let mut g = random_game(rules, 3, &none, &mut ChaCha8Rng::seed_from_u64(seed)).expect("a game");
        let b = bids(&g);
        let forehand = b.first().map(|(p, _)| p.clone()).unwrap_or_default();
        let anothers_solo = b.iter().any(|(p, c)| *p != forehand && c == "solo");
        if b.first().map(|(_, c)| c.as_str()) != Some("tapp") || !anothers_solo || replay(rules, &g).expect("replayable").status != Status::Valid {
            continue;
        }
        let solo = b.iter().find(|(_, c)| c == "solo").map(|(p, _)| p.clone()).unwrap_or_default();
        g.description = Some(format!(
            "ATT1821 §19 (HT): forehand {forehand} says Tapper, and {solo}, who did not, bids and plays a Solo; seed {seed} of `tapper_fixtures`, the first simulated game with that auction"
        ));
        write(&dir.join("valid/tapper-then-anothers-solo.json"), &g);
        // The same deal: forehand's Tapper, a Three, a pass, and forehand's own Solo, each said by
        // whoever the verdict says speaks next.
        let mut bad = g.clone();
        bad.events.truncate(1);
        let mut said = vec![];
        for bid in ["tapp", "three", "pass", "solo"] {
            let who = replay(rules, &bad).expect("replayable").next.expect("someone to bid").player.to_string();
            said.push(who.clone());
            bad.events.push(Event::Bid { player: who.as_str().into(), bid: bid.into() });
        }
        assert!(said[0] == forehand && said[3] == forehand, "{said:?}");
        bad.description = Some(format!(
            "Breaks bidding.contract.solo.by: forehand {} says Tapper, {} outbids him with a Three, {} passes, and {} bids a Solo himself, which ATT1821 §19 (HT) forbids; the deal of seed {seed} of `tapper_fixtures`",
            said[0], said[1], said[2], said[3]
        ));
        let v = replay(rules, &bad).expect("replayable");
        assert_eq!(v.violation.as_ref().map(|x| x.rule.to_string()).as_deref(), Some("bidding.contract.solo.by"), "{:?}", v.status);
        write(&dir.join("invalid/bidding.contract.solo.by.json"), &bad);
        // The same deal: forehand's Dreyer, a pass, rear hand's Solo, and forehand holding the Solo,
        // which §19 allows him for having declared a Dreyer; rear hand then passes.
        let mut held = g.clone();
        held.events.truncate(1);
        let mut spoke = vec![];
        for bid in ["three", "pass", "solo", "solo", "pass"] {
            let who = replay(rules, &held).expect("replayable").next.expect("someone to bid").player.to_string();
            spoke.push(who.clone());
            held.events.push(Event::Bid { player: who.as_str().into(), bid: bid.into() });
        }
        assert!(spoke[0] == forehand && spoke[3] == forehand, "{spoke:?}");
        let v = replay(rules, &held).expect("replayable");
        assert!(v.violation.is_none() && v.next.as_ref().is_some_and(|n| n.phase != Phase::Bid), "{:?} {:?}", v.violation, v.next);
        held.description = Some(format!(
            "ATT1821 §19 (HT): forehand {} declares a Dreyer, {} passes, {} (rear hand) declares a Solo, and {} holds the Solo, as a forehand who declared a Dreyer may; {} passes and the Solo is {}'s; the deal of seed {seed} of `tapper_fixtures`",
            spoke[0], spoke[1], spoke[2], spoke[3], spoke[4], spoke[0]
        ));
        write(&dir.join("in_progress/dreyer-holds-the-solo.json"), &held);
        println!("seed {seed}: forehand {forehand}, Solo by {solo}");
        return;
    }
    panic!("no simulated game with forehand's Tapper and another's Solo");
}

/// The first seeded simulated game that is valid and meets `keep`, with its verdict.
fn first_game(rules: &Ruleset, keep: impl Fn(&GameRecord, &Verdict) -> bool) -> (u64, GameRecord, Verdict) {
    let none = BTreeMap::new();
    for seed in 0..50_000u64 {
        let g = random_game(rules, 3, &none, &mut ChaCha8Rng::seed_from_u64(seed)).expect("a game");
        let v = replay(rules, &g).expect("replayable");
        if v.status == Status::Valid && keep(&g, &v) {
            return (seed, g, v);
        }
    }
    panic!("no simulated game found");
}

fn contract(v: &Verdict) -> String {
    v.outcome.as_ref().and_then(|o| o.contract.clone()).unwrap_or_default()
}

/// The index and cards of the `take` event.
fn take(g: &GameRecord) -> Option<(usize, Vec<String>)> {
    g.events.iter().enumerate().find_map(|(i, e)| if let Event::Take { cards, .. } = e { Some((i, cards.iter().map(|c| c.to_string()).collect())) } else { None })
}

fn dog(g: &GameRecord) -> Vec<String> {
    match &g.events[0] {
        Event::Deal { dog, .. } => dog.iter().map(|c| c.to_string()).collect(),
        _ => vec![],
    }
}

/// A Dreyer whose declarer takes the bottom three (`talon.given`). (No declaration of this ruleset
/// shows a card before the hand's end, so none can break `talon.unseen`: the honours are claimed after
/// the last trick.)
fn dreyer_unseen(rules: &Ruleset, dir: &Path) {
    let trull = ["T1", "T21", "T22", "EX"];
    let (seed, g, v) = first_game(rules, |g, v| contract(v) == "three" && take(g).is_some_and(|(_, t)| t.iter().any(|c| trull.contains(&c.as_str()))));
    let taker = v.outcome.as_ref().and_then(|o| o.taker.clone()).expect("a taker").to_string();
    let (at, top) = take(&g).expect("a take");
    let bottom = dog(&g)[3..].to_vec();
    let mut given = g.clone();
    given.events[at] = Event::Take { player: taker.as_str().into(), cards: bottom.iter().map(|c| c.as_str().into()).collect() };
    given.description = Some(format!(
        "Breaks talon.given: {taker}, declarer of a Dreyer, takes the bottom three of the talon ({}), not the top three ({}), which the 1821 Dreyer buys with no choice (ATT1821 §20, HT); seed {seed} of `tapper_fixtures`",
        bottom.join(" "),
        top.join(" ")
    ));
    let x = replay(rules, &given).expect("replayable").violation.expect("a violation");
    assert_eq!(&*x.rule, "talon.given", "{}", x.message);
    write(&dir.join("invalid/talon.given.json"), &given);
    println!("seed {seed}: talon.given");
}

/// The booklet's sums at a consolation of 50, each on the first simulated game with no honour, no
/// Ultimo and the Pagat not in the last trick: a Dreyer won with 37 ("won by two": 54, §5), a Dreyer
/// lost by five (30 points: 50 + 5 x 2 = 60, §48), a Dreyer at 35 to 35 (lost: the full consolation,
/// §5) and a Solo won by three (38 points: 112, §6).
fn worked_sums(rules: &Ruleset, dir: &Path) {
    let plain = |g: &GameRecord, v: &Verdict| {
        let declared = g.events.iter().any(|e| matches!(e, Event::Declare { .. }));
        let last_pagat = v.tricks.last().is_some_and(|t| t.cards.codes().any(|c| c == "T1"));
        !declared && !last_pagat
    };
    let points = |v: &Verdict| {
        let o = v.outcome.as_ref().expect("an outcome");
        let taker = o.taker.clone().expect("a taker");
        o.players.iter().find(|p| p.player == taker).map(|p| p.card_points).expect("the taker's result")
    };
    let cases = [
        (
            "dreyer-won-by-two",
            "three",
            37,
            54,
            "a Dreyer won with 37 points, \"won by two\": the consolation 50 and the 2 points over 35 counted double, 54 from each opponent (ATT1821 §5, HT)",
        ),
        ("dreyer-lost-by-five", "three", 30, -60, "a Dreyer lost with 30 points, \"lost by five\": 50 + 5 x 2 = 60 to each opponent (ATT1821 §48, HT)"),
        ("dreyer-remis", "three", 35, -50, "a Dreyer at 35 to 35, which is lost: the declarer credits each opponent the full consolation, 50 (ATT1821 §5, HT)"),
        (
            "solo-won-by-three",
            "solo",
            38,
            112,
            "a Solo won with 38 points, \"won by three\": the consolation doubled and the points fourfold, 2 x 50 + 4 x 3 = 112 from each opponent (ATT1821 §6, HT)",
        ),
    ];
    for (name, bid, pts, each, what) in cases {
        let (seed, mut g, v) = first_game(rules, |g, v| contract(v) == bid && plain(g, v) && points(v) == tarot_engine::Q::int(pts));
        let hand = v.outcome.as_ref().and_then(|o| o.hand_score).expect("a hand score");
        assert_eq!(hand, tarot_engine::Q::int(each), "{name}");
        g.description = Some(format!("The booklet's worked sum: {what}; the first such game of `tapper_fixtures`, seed {seed}"));
        write(&dir.join(format!("valid/{name}.json")), &g);
        println!("seed {seed}: {name}");
    }
}

/// The 42-card game's Zweyer and Einer (ATT1821 §E.5), each on the first simulated game that plays it:
/// the top two or the top card bought unseen, two or one laid away; and the Einer's buyer taking the
/// talon's last card instead (invalid: `talon.given`).
fn bought_42(rules: &Ruleset, dir: &Path) {
    for (bid, name, what) in [
        ("two", "zweyer", "a Zweyer: the top two talon cards bought unseen, two laid away, the points counted threefold"),
        ("one", "einer", "an Einer: the top talon card bought unseen, one laid away, the points counted fourfold"),
    ] {
        let (seed, mut g, _) = first_game(rules, |g, v| contract(v) == bid && take(g).is_some());
        g.description = Some(format!("The 42-card game (ATT1821 §E, HT): {what}; the first such game of `tapper_fixtures`, seed {seed}"));
        write(&dir.join(format!("valid/{name}.json")), &g);
        println!("seed {seed}: 42 {name}");
        if bid == "one" {
            let (at, top) = take(&g).expect("a take");
            let last = dog(&g)[5].clone();
            let taker = match &g.events[at] {
                Event::Take { player, .. } => player.to_string(),
                _ => unreachable!(),
            };
            let mut bad = g.clone();
            bad.events[at] = Event::Take { player: taker.as_str().into(), cards: vec![last.as_str().into()] };
            bad.description = Some(format!(
                "Breaks talon.given: {taker}, declarer of an Einer, takes the talon's last card ({last}), not its top card ({}), which he buys with no choice; seed {seed} of `tapper_fixtures`",
                top.join(" ")
            ));
            let x = replay(rules, &bad).expect("replayable").violation.expect("a violation");
            assert_eq!(&*x.rule, "talon.given", "{}", x.message);
            write(&dir.join("invalid/talon.given.json"), &bad);
        }
    }
}

/// Tous les trois claimed after the last trick by the player dealt them (valid, ATT1821 §49), and the
/// same claim made before the first card (invalid: `declaration.trull_bonus`).
fn honours_after_play(rules: &Ruleset, dir: &Path) {
    let holder = |g: &GameRecord| -> Option<String> {
        let Event::Deal { hands, .. } = &g.events[0] else { return None };
        hands.iter().find(|(_, cards)| ["T1", "T21", "T22"].iter().all(|t| cards.iter().any(|c| &**c == *t))).map(|(p, _)| p.to_string())
    };
    let (seed, g, _) = first_game(rules, |g, v| contract(v) == "three" && holder(g).is_some());
    let who = holder(&g).expect("a holder");
    let claim = Event::Declare { player: who.as_str().into(), declaration: "trull_bonus".into(), cards: vec!["T1".into(), "T21".into(), "T22".into()] };
    let mut after = g.clone();
    after.events.push(claim.clone());
    after.description = Some(format!(
        "{who}, dealt the Sküs, the Mond and the Pagat, claims Tous les trois once the last trick is played, and each opponent pays him the consolation, 50 (ATT1821 §2, §49, HT); seed {seed} of `tapper_fixtures`"
    ));
    assert_eq!(replay(rules, &after).expect("replayable").status, Status::Valid);
    write(&dir.join("valid/tous-les-trois-after-play.json"), &after);
    let first = g.events.iter().position(|e| matches!(e, Event::Play { .. })).expect("a card played");
    let mut before = g.clone();
    before.events.insert(first, claim);
    before.description = Some(format!(
        "Breaks declaration.trull_bonus: {who} claims Tous les trois before the first card; the honours are said when the hand is over, never before (ATT1821 §49, HT); seed {seed} of `tapper_fixtures`"
    ));
    let x = replay(rules, &before).expect("replayable").violation.expect("a violation");
    assert_eq!(&*x.rule, "declaration.trull_bonus", "{}", x.message);
    write(&dir.join("invalid/declaration.trull_bonus.json"), &before);
    println!("seed {seed}: tous-les-trois-after-play");
}
