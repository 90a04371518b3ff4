//! Writes the worked fixtures of `dreierles` (fixtures/dreierles/valid/ and invalid/): the source's
//! example of scoring (pagat "Scoring": Anne's Solo with the Pfeife laid out and lost, 42 card points,
//! four kings claimed, Bert's ten trumps claimed), games that reach each contract, the knocks, the
//! Pfeife and the Räuber, and the invalid game the simulator does not make (the top of the blind; the
//! knock by an opponent who passed up the Dreier and a Räuber knock out of turn are make_fixtures'
//! `declaration.kontra.allowed` and `declaration.rauber_knock.in-turn`), and for each choice of the
//! Räuber's restrictions (`rauber_rules`) a Räuber in which they bind and one invalid game per rule of
//! the choice. At a table of four, where the dealer sits out and pays and receives as a third
//! opponent: the source's example with the figures it gives for four, a contract won with a
//! combination claimed by an opponent, a contract lost and knocked, Räuber (knocked, and two tied for
//! the most), and two malformed records (the dealer dealt a hand; the dealer speaking in the auction).
//! Every game is a seeded game found by search, so the fixtures are reproducible:
//!
//!     cargo run -p tarot-engine --example generators -- dreierles_fixtures
//!
//! The simulated fixtures of the ruleset (two valid games, one invalid game per rule the simulator can
//! break, malformed records) come from `make_fixtures only dreierles`.

use crate::common;

use common::write;

use std::collections::BTreeMap;
use std::path::Path;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::testing::Game;
use tarot_engine::{random_game_with, replay, ContractChoice, Event, GameRecord, Kind, Registry, Setup, SimOptions, Status, Verdict};

const ID: &str = "dreierles";

fn declared(rec: &GameRecord, name: &str) -> bool {
    rec.events.iter().any(|e| matches!(e, Event::Declare { declaration, .. } if declaration.as_str() == name))
}

fn value(v: &Verdict, name: &str) -> Option<serde_json::Value> {
    let o = v.outcome.as_ref()?;
    o.values.iter().find(|(k, _)| &**k == name).map(|(_, x)| serde_json::to_value(x).unwrap())
}

fn score(v: &Verdict, p: &str) -> i64 {
    v.outcome.as_ref().and_then(|o| o.players.iter().find(|q| &*q.player == p)).map_or(0, |q| q.score.numer())
}

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("dreierles is built in");
    let root = common::fixtures().join(ID);
    worked(rules, &root);
    type Want = fn(&GameRecord, &Verdict) -> bool;
    let cases: [(&str, &str, Want, &str); 8] = [
        ("dreier-kontra", "dreier", |r, v| declared(r, "kontra") && !declared(r, "rekontra") && score(v, "Ann") != 0, "A Dreier knocked once (Kontra): the game doubled"),
        ("zweier-rekontra", "zweier", |r, _| declared(r, "rekontra") && !declared(r, "kontra3"), "A Zweier with Kontra and Rekontra: the game four times"),
        ("einer-third-knock", "einer", |r, _| declared(r, "kontra3"), "An Einer knocked three times: the game eight times"),
        ("solo-zehn-druck", "solo", |r, _| declared(r, "zehn_druck"), "A Solo with ten trumps announced by the declarer, paid 1 by each other player outside the multiplier"),
        (
            "pfeife-raus-won",
            "dreier",
            |r, v| declared(r, "pfeife_raus") && value(v, "pfeife_won") == Some(serde_json::json!(true)),
            "A Dreier with the Pfeife laid out taking the last trick: 2 from each opponent",
        ),
        (
            "pfeife-raus-forced",
            "dreier",
            |r, v| declared(r, "pfeife_raus") && v.notes.iter().any(|n| n.contains("play ends after trick")),
            "A Dreier with the Pfeife laid out and forced out before the last trick: play ends, that trick and the cards still held count for the opponents, 2 to each",
        ),
        (
            "pfeife-last-lost",
            "zweier",
            |r, v| !declared(r, "pfeife_raus") && value(v, "pfeife_last") == Some(serde_json::json!(true)) && value(v, "pfeife_won") == Some(serde_json::json!(false)),
            "A Zweier whose declarer plays the Pfeife, not laid out, to the last trick, where it is beaten: 1 to each opponent",
        ),
        ("rauber-knocked", "rauber", |r, _| declared(r, "rauber_knock"), "All pass: a Räuber, knocked, the most card points paying each other player"),
    ];
    for (name, contract, want, what) in cases {
        let Some((seed, mut rec)) = search(rules, 3, contract, want) else {
            eprintln!("{name}: not found in 20000 games");
            continue;
        };
        rec.description = Some(format!("{what}: game {seed} of seed 27 of `dreierles_fixtures`, the combinations held claimed at the end"));
        write(&root.join("valid").join(format!("{name}.json")), &rec);
    }
    invalid(rules, &root);
    rauber_restrictions(rules, &root);
    four(rules, &root);
}

/// The first of 20,000 games of `contract` at a table of `players`, steered from seed 27, the
/// combinations held claimed at the end, that is valid and that `want` accepts, with its number.
fn search(rules: &Ruleset, players: usize, contract: &str, want: impl Fn(&GameRecord, &Verdict) -> bool) -> Option<(u64, GameRecord)> {
    let sim = SimOptions { contract: ContractChoice::Only(contract.into()), ..SimOptions::steered() };
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    for seed in 0..20_000u64 {
        let Ok(rec) = random_game_with(rules, players, &BTreeMap::new(), &sim, &mut rng) else { continue };
        let rec = claim_all(rules, rec);
        let v = replay(rules, &rec).expect("replayable");
        if v.status == Status::Valid && v.outcome.as_ref().and_then(|o| o.contract.as_deref()) == Some(contract) && want(&rec, &v) {
            return Some((seed, rec));
        }
    }
    None
}

/// The games of a table of four (Ann, Bob, Cid, Dan), the dealer sitting out, found by search from
/// seed 27, the combinations held claimed at the end; then the source's example at four and the two
/// malformed records.
fn four(rules: &Ruleset, root: &Path) {
    type Want = fn(&GameRecord, &Verdict) -> bool;
    let cases: [(&str, &str, Want, &str); 4] = [
        (
            "4p-dreier-won",
            "dreier",
            |r, v| {
                let taker = v.outcome.as_ref().and_then(|o| o.taker.clone());
                score(v, &r.dealer) < 0
                    && r.events.iter().any(|e| matches!(e, Event::Declare { player, declaration, .. } if Some(&**player) != taker.as_deref() && ["zehn_druck_claimed", "drull", "vier_koenige"].contains(&declaration.as_str())))
            },
            "A table of four: a Dreier won, and a combination claimed by an opponent; the dealer, sitting out, pays the declarer as each opponent does and pays the combination as every other player does",
        ),
        (
            "4p-contract-lost-kontra",
            "solo",
            |r, v| declared(r, "kontra") && score(v, &r.dealer) > 0,
            "A table of four: a Solo knocked once (Kontra) and lost; the dealer, sitting out, receives the doubled game as each opponent does",
        ),
        ("4p-rauber-knocked", "rauber", |r, v| declared(r, "rauber_knock") && score(v, &r.dealer) > 0, "A table of four: all three pass, a Räuber knocked; the most card points pay each other player, the dealer sitting out among them"),
        (
            "4p-rauber-two-tied",
            "rauber",
            |_, v| v.outcome.as_ref().is_some_and(|o| o.players.iter().filter(|p| p.score < tarot_engine::Q::ZERO).count() == 2),
            "A table of four: a Räuber in which two share the most card points, each paying 1 (doubled for each knock) to the third player and to the dealer sitting out",
        ),
    ];
    for (name, contract, want, what) in cases {
        let Some((seed, mut rec)) = search(rules, 4, contract, want) else {
            eprintln!("{name}: not found in 20000 games");
            continue;
        };
        rec.description = Some(format!("{what}: game {seed} of seed 27 of `dreierles_fixtures` at four, the combinations held claimed at the end"));
        write(&root.join("valid").join(format!("{name}.json")), &rec);
    }
    worked_four(rules, root);
    let read = |name: &str| -> Option<GameRecord> { serde_json::from_str(&std::fs::read_to_string(root.join("valid").join(name)).ok()?).ok() };
    let Some(base) = read("4p-dreier-won.json") else { return };
    // The dealer, who sits out at four, dealt the hand of the player to his left.
    let mut dealt = base.clone();
    if let Some(Event::Deal { hands, packets, .. }) = dealt.events.first_mut() {
        let left = dealt.players.iter().rev().find(|p| **p != dealt.dealer).cloned().expect("a player");
        let hand = hands.remove(left.as_str()).expect("a hand");
        hands.insert(dealt.dealer.as_str().into(), hand);
        packets.clear();
    }
    malformed(rules, root, dealt, "dealer-at-four-dealt", "a table of four whose dealer, who sits out, is dealt the hand of the player to his left");
    // The dealer, who sits out at four, passes in the auction before forehand speaks.
    let mut bids = base.clone();
    let at = bids.events.iter().position(|e| matches!(e, Event::Bid { .. })).expect("an auction");
    bids.events.insert(at, Event::Bid { player: bids.dealer.as_str().into(), bid: "pass".into() });
    malformed(rules, root, bids, "dealer-at-four-bids", "a table of four whose dealer, who sits out, passes in the auction before forehand speaks");
}

/// A record refused as no game of the ruleset (the dealer who sits out named in it), in `malformed/`.
fn malformed(rules: &Ruleset, root: &Path, mut rec: GameRecord, name: &str, what: &str) {
    match replay(rules, &rec) {
        Err(e) if e.to_string().contains("sits this deal out") => {
            rec.description = Some(format!("Malformed dreierles record: {what} (from valid/4p-dreier-won.json)"));
            write(&root.join("malformed").join(format!("{name}.json")), &rec);
        }
        other => eprintln!("{name}: not refused for the dealer sitting out: {:?}", other.map(|v| v.status)),
    }
}

/// The source's example at a table of four, its figures given by the page: the game of `worked`, Dan
/// dealing and sitting out. Ann receives 7 from each of the three others and pays Bob 1 (+20, "2.00€"
/// at 10 cents a point); Bob pays Ann 7 and receives 1 from each of the three others (-4); Cid and Dan
/// each pay Ann 7 and Bob 1 (-8).
fn worked_four(rules: &Ruleset, root: &Path) {
    let Ok(three) = std::fs::read_to_string(root.join("valid").join("worked-example.json")) else { return };
    let mut rec: GameRecord = serde_json::from_str(&three).expect("a record");
    rec.players.push("Dan".into());
    rec.dealer = "Dan".into();
    let v = replay(rules, &rec).expect("replayable");
    assert_eq!(v.status, Status::Valid, "{}", v.to_text());
    assert_eq!((score(&v, "Ann"), score(&v, "Bob"), score(&v, "Cid"), score(&v, "Dan")), (20, -4, -8, -8), "the source's figures at four");
    rec.description = Some(
        "The source's example of scoring at a table of four (pagat \"Scoring\"): the game of valid/worked-example.json, Dan dealing and sitting out as a third opponent. Ann receives 7 from each of the three others and pays Bob 1: +20 (\"Anne wins 2.00€\" at 10 cents a point); Bob pays Ann 7 and receives 1 from each of the three others: -4; Cid and Dan each pay Ann 7 and Bob 1: -8"
            .into(),
    );
    write(&root.join("valid").join("4p-worked-example.json"), &rec);
}

/// A rule of the Räuber's restrictions, the turn at which a fixture breaks it (the tricks played, the
/// cards on the table, the player's legal cards), and what that fixture shows.
type Restriction = (&'static str, fn(usize, &[String], &[String]) -> bool, &'static str);

/// For each choice of `rauber_rules`, seeded Räuber played under it: the first in which each of its
/// rules binds at some card (the cards legal there differ from those with no restriction) is a valid
/// fixture (with no restriction, the first game played), and each rule gives an invalid one: a
/// seeded Räuber up to the first turn its `when` accepts where a card allowed with no restriction
/// breaks that rule, and that card.
fn rauber_restrictions(rules: &Ruleset, root: &Path) {
    let steinmauern: &[Restriction] = &[
        ("play.must.play.the-pfeife-to-the-third-trick-a-trump-is-led-to", |_, _, _| true, "the Pfeife withheld from the third trick a trump led, though its holder could play it"),
        (
            "play.keep.the-pfeife-not-before-the-third-trick-a-trump-is-led-to",
            |_, table, _| table.first().is_some_and(|c| c.starts_with('T')),
            "the Pfeife played to an earlier trick a trump led, though its holder had another trump",
        ),
        ("play.keep.the-21-not-to-a-trick-holding-the-stiess", |_, _, _| true, "the 21 played to a trick holding the Stiess, though its holder had another trump"),
    ];
    let iffezheim: &[Restriction] = &[
        ("play.must.lead.trumps-led-to-the-first-three-tricks", |done, _, _| done == 1, "a suit led to the second trick by a player holding a trump"),
        (
            "play.must.play.the-stiess-and-the-21-at-the-first-opportunity",
            |done, _, legal| done == 0 && legal.iter().any(|c| c == "T22"),
            "the Stiess held back in the first trick, though its holder could play it",
        ),
        ("play.must.play.the-pfiff-in-the-third-trick", |_, _, _| true, "the Pfiff withheld from the third trick, though its holder could play it"),
        ("play.keep.the-stiess-and-the-21-not-in-the-same-trick", |_, _, _| true, "the Stiess and the 21 in one trick, though the second's holder had another trump"),
        ("play.keep.the-pfiff-not-before-the-third-trick", |_, _, _| true, "the Pfiff played before the third trick, though its holder had another card he might play"),
    ];
    let choices: [(&str, &str, &[Restriction]); 3] =
        [("Steinmauern", "rauber-steinmauern", steinmauern), ("Iffezheim", "rauber-iffezheim", iffezheim), ("none", "rauber-none", &[])];
    let sim = SimOptions { contract: ContractChoice::Only("rauber".into()), ..SimOptions::default() };
    for (choice, name, restrictions) in choices {
        let options = BTreeMap::from([("rauber_rules".to_string(), serde_json::json!(choice))]);
        let mut rng = ChaCha8Rng::seed_from_u64(27);
        let (mut valid, mut broken) = (None, BTreeMap::new());
        for seed in 0..2_000u64 {
            let Ok(rec) = random_game_with(rules, 3, &options, &sim, &mut rng) else { continue };
            if replay(rules, &rec).expect("replayable").status != Status::Valid {
                continue;
            }
            let binding = breaches(rules, &rec, restrictions, &mut broken);
            // With no restriction, a game that both other choices refuse.
            let reaches = restrictions.len() == binding && (choice != "none" || ["Steinmauern", "Iffezheim"].iter().all(|other| refused_at(rules, &rec, other).is_some()));
            if valid.is_none() && reaches {
                valid = Some((seed, rec));
            }
            if valid.is_some() && broken.len() == restrictions.len() {
                break;
            }
        }
        match valid {
            Some((seed, mut rec)) => {
                let what = match choice {
                    "none" => format!(
                        "with no restriction on the Drull (as the Achertal's Ramsch), which Steinmauern's refuse ({}) and Iffezheim's ({})",
                        refused_at(rules, &rec, "Steinmauern").unwrap_or_default(),
                        refused_at(rules, &rec, "Iffezheim").unwrap_or_default()
                    ),
                    _ => format!("at {choice}, each of its restrictions binding at some card"),
                };
                rec.description = Some(format!("A Räuber played {what}: game {seed} of seed 27 of `dreierles_fixtures` with `rauber_rules = \"{choice}\"`"));
                write(&root.join("valid").join(format!("{name}.json")), &rec);
            }
            None => eprintln!("{name}: no Räuber in 2000 where every restriction binds"),
        }
        for (rule, _, what) in restrictions {
            match broken.remove(*rule) {
                Some(rec) => check(rules, root, rec, rule, &format!("{what}, in a Räuber at {choice} (`rauber_rules = \"{choice}\"`)")),
                None => eprintln!("{rule}: never broken in 2000 Räuber"),
            }
        }
    }
}

/// The rule `rec` breaks, and at which event, under the restrictions of `choice`; none if it is valid.
fn refused_at(rules: &Ruleset, rec: &GameRecord, choice: &str) -> Option<String> {
    let mut other = rec.clone();
    other.options.insert("rauber_rules".into(), serde_json::json!(choice));
    let v = replay(rules, &other).expect("replayable");
    v.violation.map(|x| format!("{} at event {}", x.rule, x.event))
}

/// How many of `restrictions` bind at some card of `rec` (a card allowed with no restriction is
/// refused by the rule); each rule first broken at a turn its `when` accepts, the record up to that
/// card, is added to `broken`.
fn breaches(rules: &Ruleset, rec: &GameRecord, restrictions: &[Restriction], broken: &mut BTreeMap<&'static str, GameRecord>) -> usize {
    let mut binding = std::collections::BTreeSet::new();
    let first = rec.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap_or(rec.events.len());
    let mut free = rec.clone();
    free.options.insert("rauber_rules".into(), serde_json::json!("none"));
    for at in first..rec.events.len() {
        let Event::Play { player, .. } = &rec.events[at] else { break };
        let before = GameRecord { events: rec.events[..at].to_vec(), ..rec.clone() };
        let Some(next) = replay(rules, &before).expect("replayable").next else { break };
        let without = replay(rules, &GameRecord { events: before.events.clone(), ..free.clone() }).expect("replayable").next.map(|n| n.legal).unwrap_or_default();
        let plays: Vec<String> = rec.events[first..at].iter().filter_map(|e| if let Event::Play { card, .. } = e { Some(card.to_string()) } else { None }).collect();
        let (done, table) = (plays.len() / 3, &plays[plays.len() / 3 * 3..]);
        for card in without.iter().filter(|c| !next.legal.contains(c)) {
            let mut bad = before.clone();
            bad.events.push(Event::Play { player: player.clone(), card: card.as_str().into() });
            let v = replay(rules, &bad).expect("replayable");
            let Some((rule, when, _)) = v.violation.as_ref().and_then(|x| restrictions.iter().find(|(r, ..)| *r == &*x.rule)) else { continue };
            binding.insert(*rule);
            if !broken.contains_key(rule) && when(done, table, &next.legal) {
                broken.insert(rule, bad);
            }
        }
    }
    binding.len()
}

/// The game with every combination its players hold claimed after the last trick (the simulator
/// claims none): an opponent's ten trumps, anyone's Drull or four kings, from the hand before the play.
fn claim_all(rules: &Ruleset, mut rec: GameRecord) -> GameRecord {
    let v = replay(rules, &rec).expect("replayable");
    if v.status != Status::Valid {
        return rec;
    }
    let Some(Event::Deal { hands, .. }) = rec.events.first().cloned() else { return rec };
    let taker = v.outcome.as_ref().and_then(|o| o.taker.clone());
    for (player, dealt) in &hands {
        let mut held: Vec<String> = dealt.iter().map(|c| c.to_string()).collect();
        for e in &rec.events {
            if let Event::Take { player: q, cards } = e {
                if q == player {
                    held.extend(cards.iter().map(|c| c.to_string()));
                }
            }
        }
        let trumps = held.iter().filter(|c| c.starts_with('T')).count();
        let mine = taker.as_deref() == Some(player.as_ref());
        let mut claims: Vec<(&str, Vec<&str>)> = vec![];
        if !mine && trumps >= 10 {
            claims.push(("zehn_druck_claimed", vec![]));
        }
        if ["T1", "T21", "T22"].iter().all(|c| held.iter().any(|h| h == c)) {
            claims.push(("drull", vec!["T1", "T21", "T22"]));
        }
        if ["KS", "KH", "KD", "KC"].iter().all(|c| held.iter().any(|h| h == c)) {
            claims.push(("vier_koenige", vec!["KS", "KH", "KD", "KC"]));
        }
        for (d, cards) in claims {
            rec.events.push(Event::Declare { player: player.clone(), declaration: d.into(), cards: cards.into_iter().map(Into::into).collect() });
        }
    }
    rec
}

/// The source's example, at a table of three: Ann (Anne) bids a Solo, lays the Pfeife out, loses the
/// last trick with it, takes 42 card points and claims four kings; Bob (Bert) claims ten trumps. Ann
/// receives 4 x 2 + 1 - 2 = 7 from each opponent and pays Bob 1; Bob receives 1 from each: Ann +13,
/// Bob -5, Cid -8. The deal is arranged; the play is drawn at random (a suit card
/// played, most of the time, while one may be) until it gives those figures.
fn worked(rules: &Ruleset, root: &Path) {
    let hand = |s: &str| s.split_whitespace().map(Into::into).collect::<Vec<_>>();
    let hands = BTreeMap::from([
        ("Ann".into(), hand("KC KS KH KD QC QS QH QD T1 T2 T3 T4 T5 T6 T7 T21")),
        ("Bob".into(), hand("T8 T12 T13 T14 T15 T16 T17 T18 T19 T20 CH CD JH JD CC CS")),
        ("Cid".into(), hand("T22 T9 JC JS 10C 9C 8C 7C 1H 2H 3H 4H 1D 2D 3D 4D")),
    ]);
    let deal = Event::Deal { hands, dog: hand("T10 T11 10S 9S 8S 7S"), cut: None, piles: BTreeMap::new(), packets: vec![] };
    let names: Vec<String> = ["Ann", "Bob", "Cid"].iter().map(|s| s.to_string()).collect();
    let setup = Setup::new(rules, 3, &BTreeMap::new()).expect("a table of three");
    let before = [
        deal,
        Event::Bid { player: "Ann".into(), bid: "solo".into() },
        Event::Bid { player: "Bob".into(), bid: "pass".into() },
        Event::Bid { player: "Cid".into(), bid: "pass".into() },
        Event::Declare { player: "Ann".into(), declaration: "pfeife_raus".into(), cards: vec!["T1".into()] },
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for seed in 0..50_000u64 {
        let mut game = Game::new(&setup, &names, 2);
        let mut events = vec![];
        for e in &before {
            assert!(game.apply(events.len(), e).is_ok(), "the arranged start is legal");
            events.push(e.clone());
        }
        while let Some(next) = game.next() {
            let p = names.iter().position(|n| **n == *next.player).expect("a player") as u8;
            // Each player keeps his trumps, most of the time, while he has a suit card he may play.
            let legal = game.legal(p);
            let suits: Vec<_> = legal.iter().filter(|c| !matches!(c.kind(), Kind::Trump(_) | Kind::Fool)).collect();
            let pool: Vec<_> = if !suits.is_empty() && rng.gen_bool(0.85) { suits } else { legal.iter().collect() };
            let c = pool[rng.gen_range(0..pool.len())];
            let e = Event::Play { player: next.player.as_ref().into(), card: c.code() };
            assert!(game.apply(events.len(), &e).is_ok(), "a legal card");
            events.push(e);
        }
        events.push(Event::Declare { player: "Ann".into(), declaration: "vier_koenige".into(), cards: ["KS", "KH", "KD", "KC"].iter().map(|&c| c.into()).collect() });
        events.push(Event::Declare { player: "Bob".into(), declaration: "zehn_druck_claimed".into(), cards: vec![] });
        let mut rec = GameRecord {
            ruleset: ID.into(),
            options: BTreeMap::new(),
            players: names.clone(),
            dealer: "Cid".into(),
            pots: BTreeMap::new(),
            standing: BTreeMap::new(),
            description: None,
            events,
        };
        let v = replay(rules, &rec).expect("replayable");
        let points = value(&v, "declarer_points");
        if v.status == Status::Valid
            && points == Some(serde_json::json!(42))
            && value(&v, "pfeife_won") == Some(serde_json::json!(false))
            && value(&v, "forced_out") == Some(serde_json::json!(false))
        {
            assert_eq!((score(&v, "Ann"), score(&v, "Bob"), score(&v, "Cid")), (13, -5, -8), "the source's figures");
            rec.description = Some(format!(
                "The source's example of scoring (pagat \"Scoring\"): Ann (Anne) plays a Solo, lays out the Pfeife, fails to win the last trick with it, takes 42 card points and claims four kings; Bob (Bert) claims ten trumps. Ann receives 4 x 2 + 1 - 2 = 7 from each opponent and pays Bob 1, Bob receives 1 from each: Ann +13, Bob -5, Cid -8 at a table of three. The deal is arranged, the play drawn at random (game {seed} of seed 1 of `dreierles_fixtures`)"
            ));
            write(&root.join("valid").join("worked-example.json"), &rec);
            return;
        }
    }
    eprintln!("worked-example: not found in 50000 plays");
}

/// The rules the simulator does not break, each broken by one edit of a valid game found above.
fn invalid(rules: &Ruleset, root: &Path) {
    let read = |name: &str| -> Option<GameRecord> { serde_json::from_str(&std::fs::read_to_string(root.join("valid").join(name)).ok()?).ok() };
    // The top of the blind: the Dreier's declarer takes the bottom three cards instead.
    if let Some(mut rec) = read("dreier-kontra.json") {
        let dog: Vec<_> = match rec.events.first() {
            Some(Event::Deal { dog, .. }) => dog.clone(),
            _ => vec![],
        };
        if let Some(Event::Take { cards, .. }) = rec.events.iter_mut().find(|e| matches!(e, Event::Take { .. })) {
            *cards = dog[3..].to_vec();
        }
        check(rules, root, rec, "talon.given", "the Dreier's declarer takes the bottom three cards of the blind, not the top three an opponent turns up");
    }
}

fn check(rules: &Ruleset, root: &Path, mut rec: GameRecord, rule: &str, what: &str) {
    let v = replay(rules, &rec).expect("replayable");
    let broken = v.violation.as_ref().map(|x| x.rule.to_string());
    if broken.as_deref() != Some(rule) {
        eprintln!("{rule}: the edit breaks {broken:?} instead");
        return;
    }
    rec.description = Some(format!("Breaks {rule}: {what}"));
    write(&root.join("invalid").join(format!("{rule}.json")), &rec);
}
