//! Writes the fixtures of `dobbm` that the simulator's plain runs reach only now and then, each a
//! seeded simulated game found by search (some with the doubles written into them), so reproducible:
//!
//! - valid/retour-twice.json: a Schwacher, the declarer's Retour, the defenders' Retour and the
//!   declarer's second one (P "Schwacher": "and so on without limit"): the payment doubled four times.
//! - valid/solo-made.json, valid/solo-lost.json: a Solo, the Dobb counted for the declarer unseen,
//!   the payment doubled.
//! - valid/drawn-at-60.json: 60 card points each, "eingestellt": nobody pays.
//! - valid/shut-out.json: the declarer takes no trick and loses the Dobb as well: he pays 60 to each.
//! - valid/stake-12-won-by-one.json and valid/stake-12-lost-by-one.json: at a stake of 12 Schilling,
//!   61 to 65 card points win 1 from each defender and 55 to 59 pay 1 (P's table).
//! - annulled/bidding.all-pass--stockerl-5p.json, annulled/bidding.all-pass--stockerl-5p-stake-12.json:
//!   at five, everyone passes: the deal is thrown in, and first hand, who deals next, has a Stockerl
//!   (10 card points' worth: 10 Schilling at 60, 2 at 12) from each other player, the one who sat
//!   out included (P "Scoring").
//! - valid/revoke-by-a-defender.json, valid/revoke-of-a-heart-by-a-defender.json: a defender revokes
//!   ("verleugnen") in an ordinary game at four, not following suit, or playing no heart when bound
//!   to: the deal ends at the card, and each defender pays the declarer half a Match, 30 (P "Scoring").
//! - valid/revoke-by-the-declarer-in-a-solo-5p.json: the declarer of a Solo revokes at five: he pays
//!   half a Solo's Match, 60, to each defender and to the one who sits out.
//! - invalid/play.fault.follow.json, invalid/play.fault.trump.json: the games of the defenders'
//!   revokes played on after them: the deal ended there, and the next card is refused.
//! - valid/discard-of-the-wrong-size.json: the declarer lays away three cards, not four: the deal ends
//!   there, and he pays each defender half a Match, 30 (P "Scoring": the revoke's penalty).
//! - invalid/declaration.retour.require.1--twice-running.json: the declarer's second Retour before
//!   the defenders answered his first.
//! - invalid/discard.require.1.json: a sow laid away without a trump beside it.
//! - malformed/doubled-past-the-numbers.json: 81 doubles, past the 48 declarations made again that
//!   the archive referees in a deal: the record is refused at the 49th, before any score.
//!
//!     cargo run -p tarot-engine --example generators -- dobbm_fixtures

use crate::common;

use common::{find_game, write, write_valid};

use std::collections::BTreeMap;

use tarot_engine::{replay, ContractChoice, Event, GameRecord, Registry, SimOptions, Status, Verdict};

const ID: &str = "dobbm";
const SEED: u64 = 96;

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("dobbm is built in");
    let root = common::fixtures().join(ID);
    let none = BTreeMap::new();
    // No double drawn: those of a fixture are written into it.
    let quiet = |contract: &str| SimOptions { contract: ContractChoice::Only(contract.into()), announce: 0.0, announce_strong: 0.0, ..SimOptions::steered() };
    let points = |v: &Verdict| v.outcome.as_ref().and_then(|o| o.values.iter().find(|(k, _)| &**k == "taken").map(|(_, x)| x.to_string()));
    type Wanted = (&'static str, &'static str, &'static str, fn(&Verdict, Option<String>) -> bool);
    let wanted: [Wanted; 4] = [
        ("solo-made", "solo", "A Solo made: the Dobb counts for the declarer unseen, and the payment is doubled (P \"Exchanging\", \"Scoring\")", |v, t| {
            t.is_some_and(|t| t.parse::<i64>().is_ok_and(|t| t > 60)) && v.status == Status::Valid
        }),
        ("solo-lost", "solo", "A Solo lost: the declarer pays each defender twice the points he fell short of 60 (P \"Scoring\")", |_, t| {
            t.is_some_and(|t| t.parse::<i64>().is_ok_and(|t| t < 60))
        }),
        ("drawn-at-60", "dobbm", "60 card points each: \"eingestellt\", a draw, and nobody pays (P \"Scoring\")", |_, t| t.as_deref() == Some("60")),
        ("shut-out", "dobbm", "The declarer takes no trick: the defenders get the Dobb as well, a Match worth 60 from him to each (P \"Scoring\")", |v, _| {
            v.outcome.as_ref().is_some_and(|o| o.players.iter().any(|p| Some(&p.player) == o.taker.as_ref() && p.tricks == 0))
        }),
    ];
    for (name, contract, why, want) in &wanted {
        // A declarer shut out is sought among games without strong hands.
        let sim = if *name == "shut-out" { SimOptions { strong_hand: 0.0, ..quiet(contract) } } else { quiet(contract) };
        let (n, rec) = find_game(rules, 4, &none, &sim, (SEED, 20_000), |rec, v| want(&v, points(&v)).then_some(rec)).unwrap_or_else(|| panic!("{name}: not found in 20000 games"));
        let mut rec = rec;
        rec.description = Some(format!("{why}: game {n} of seed {SEED} of `dobbm_fixtures`"));
        write_valid(&root.join("valid").join(format!("{name}.json")), &rec, rules);
    }

    // The small stakes, rounded up: 61 to 65 win 1, 55 to 59 pay 1, at 12 Schilling (P "Scoring").
    let twelve = BTreeMap::from([("stake".to_string(), serde_json::json!(12))]);
    for (name, range, why) in [
        ("stake-12-won-by-one", 61..=65, "At a stake of 12 Schilling, a declarer with 61 to 65 card points wins 1 from each defender, rounded up (P \"Scoring\")"),
        ("stake-12-lost-by-one", 55..=59, "At a stake of 12 Schilling, a declarer with 55 to 59 card points pays 1 to each defender, rounded up (P \"Scoring\")"),
    ] {
        let (n, mut rec) =
            find_game(rules, 4, &twelve, &quiet("dobbm"), (SEED, 20_000), |rec, v| points(&v).and_then(|t| t.parse::<i64>().ok()).filter(|t| range.contains(t)).map(|_| rec))
                .unwrap_or_else(|| panic!("{name}: not found in 20000 games"));
        rec.description = Some(format!("{why}: game {n} of seed {SEED} of `dobbm_fixtures`"));
        write_valid(&root.join("valid").join(format!("{name}.json")), &rec, rules);
    }

    // At five, the deal of a game thrown in: everyone passes, and first hand, the next dealer, has a
    // Stockerl from each other player (P "Scoring").
    for (name, options, why) in [
        ("stockerl-5p", &none, "At five, everyone passes: the deal is thrown in and passes to the left, and the new dealer, first hand, has a Stockerl of 10 from each other player, the one who sat out included (P \"Bidding\", \"Scoring\")"),
        ("stockerl-5p-stake-12", &twelve, "At five and a stake of 12 Schilling, everyone passes: the new dealer, first hand, has a Stockerl of 2 (10 card points' worth) from each other player (P \"Scoring\")"),
    ] {
        let (n, base) = find_game(rules, 5, options, &quiet("dobbm"), (SEED, 100), |rec, _| Some(rec)).expect("a game at five");
        let mut rec = thrown_in(&base);
        rec.description = Some(format!("{why}: the deal of game {n} of seed {SEED} of `dobbm_fixtures`, every bid made a pass"));
        let v = replay(rules, &rec).expect("replayable");
        assert!(v.status == Status::Annulled && v.outcome.is_some(), "{}", v.to_text());
        let path = root.join("annulled").join(format!("bidding.all-pass--{name}.json"));
        write(&path, &rec);
        println!("{}:\n{}", path.display(), v.to_text());
    }

    // A revoke ends the deal: the offender's side pays half a Match (P "Scoring"), not following
    // suit, or not playing a heart when bound to.
    type Revoke = (&'static str, usize, &'static str, bool, &'static str, &'static str);
    let revokes: [Revoke; 3] = [
        ("revoke-by-a-defender", 4, "dobbm", false, "play.fault.follow", "A defender does not follow suit (verleugnen): the deal ends at the card, and each defender pays the declarer half a Match, 30 (P \"Scoring\")"),
        (
            "revoke-of-a-heart-by-a-defender",
            4,
            "dobbm",
            false,
            "play.fault.trump",
            "A defender with no card of the suit led plays no heart, holding one (verleugnen): the deal ends at the card, and each defender pays the declarer half a Match, 30 (P \"Scoring\")",
        ),
        (
            "revoke-by-the-declarer-in-a-solo-5p",
            5,
            "solo",
            true,
            "play.fault.follow",
            "At five, the declarer of a Solo revokes: the deal ends at the card, and he pays half a Solo's Match, 60, to each defender and to the one who sits out (P \"Scoring\")",
        ),
    ];
    for (name, n, contract, declarer, rule, why) in revokes {
        let (k, (rec, revoked)) = find_game(rules, n, &none, &quiet(contract), (SEED, 400), |rec, _| revoked(rules, &rec, declarer, rule).map(|r| (rec, r))).expect("a revoke");
        let mut out = revoked;
        out.description = Some(format!("{why}: game {k} of seed {SEED} of `dobbm_fixtures`, a card it could not play put in"));
        write_valid(&root.join("valid").join(format!("{name}.json")), &out, rules);
        if !declarer {
            // Played on after the revoke: the next card of the game is refused, under the fault's rule.
            let at = out.events.len() - 1;
            let mut on = out.clone();
            on.events.extend(rec.events[at + 1..].iter().find(|e| matches!(e, Event::Play { .. })).cloned());
            on.description = Some(format!(
                "Breaks {rule}: the game of valid/{name}.json played on after the revoke, which ended the deal (P \"Scoring\": \"The deal is abandoned\"): game {k} of seed {SEED} of `dobbm_fixtures`"
            ));
            write_invalid(&root.join("invalid").join(format!("{rule}.json")), &on, rules, rule);
        }
    }

    // The declarer lays away three cards, not four: the revoke's penalty, and the deal ends there.
    let (n, base) = find_game(rules, 4, &none, &quiet("dobbm"), (SEED, 100), |rec, _| Some(rec)).expect("a game");
    let mut short = base.clone();
    let at = short.events.iter().position(|e| matches!(e, Event::Discard { .. })).expect("a discard");
    if let Event::Discard { cards, .. } = &mut short.events[at] {
        cards.pop();
    }
    short.events.truncate(at + 1);
    short.description = Some(format!(
        "The declarer lays away three cards, not four: the deal ends there, and he pays each defender half a Match, 30 (P \"Scoring\": the revoke's penalty, \"payable by the declarer if the wrong number of cards were discarded\"): game {n} of seed {SEED} of `dobbm_fixtures`, a card of its discard taken out"
    ));
    write_valid(&root.join("valid").join("discard-of-the-wrong-size.json"), &short, rules);

    // The doubles: the first game made by an ordinary game, the Schwacher and the Retours written
    // after the discard.
    let (n, base) = find_game(rules, 4, &none, &quiet("dobbm"), (SEED, 100), |rec, _| Some(rec)).expect("a game");
    let taker = taker(&base);
    let defender = base.players.iter().find(|p| **p != taker).expect("a defender").clone();
    let other = base.players.iter().rev().find(|p| **p != taker).expect("a defender").clone();
    let chain = [(defender.as_str(), "schwacher"), (taker.as_str(), "retour"), (other.as_str(), "gegenretour"), (taker.as_str(), "retour")];
    let mut rec = with_declarations(&base, &chain);
    rec.description = Some(format!(
        "A Schwacher, the declarer's Retour, a Retour from another defender and the declarer's second: the payment doubled four times (P \"Schwacher\": \"and so on without limit\"): game {n} of seed {SEED} of `dobbm_fixtures`, the doubles written in"
    ));
    write_valid(&root.join("valid").join("retour-twice.json"), &rec, rules);
    let mut bad = with_declarations(&base, &[(defender.as_str(), "schwacher"), (taker.as_str(), "retour"), (taker.as_str(), "retour")]);
    bad.description = Some(format!(
        "Breaks declaration.retour.require.1: the declarer says Retour twice running, the defenders not having answered his first (P \"Schwacher\"): game {n} of seed {SEED} of `dobbm_fixtures`, the doubles written in"
    ));
    write_invalid(&root.join("invalid").join("declaration.retour.require.1--twice-running.json"), &bad, rules, "declaration.retour.require.1");

    // Doubles past what the archive referees: the Retours answered forty times each, 81 doubles, a
    // stake 2^81 times its own. The record is refused at the 49th made again, before any score.
    let mut many = vec![(defender.as_str(), "schwacher")];
    for _ in 0..40 {
        many.extend([(taker.as_str(), "retour"), (other.as_str(), "gegenretour")]);
    }
    let mut rec = with_declarations(&base, &many);
    rec.description = Some(format!(
        "81 doubles, the Retours answered forty times each: past the 48 declarations made again that the archive referees in a deal (each doubles the game, and the numbers hold no stake 2^81 times its own), the record is refused at the 49th: game {n} of seed {SEED} of `dobbm_fixtures`, the doubles written in"
    ));
    let e = replay(rules, &rec).expect_err("refused");
    assert!(e.ruleset_fault.is_none() && e.message.contains("past the 48 declarations made again"), "{e}");
    write(&root.join("malformed").join("doubled-past-the-numbers.json"), &rec);

    // A sow laid away with no trump beside it: a declarer who took a plain sow lays it away with
    // three other plain cards.
    let (n, bad) = find_game(rules, 4, &none, &quiet("dobbm"), (SEED, 2_000), |rec, _| sow_without_trump(&rec)).expect("a declarer with a sow and three plain cards");
    let mut bad = bad;
    bad.description = Some(format!(
        "Breaks discard.require.1: the declarer lays away a sow with three plain cards and no trump (P \"Exchanging\": \"a sow may only be discarded if a trump is discarded with it\"): game {n} of seed {SEED} of `dobbm_fixtures`, its discard changed"
    ));
    write_invalid(&root.join("invalid").join("discard.require.1.json"), &bad, rules, "discard.require.1");
}

fn taker(rec: &GameRecord) -> String {
    rec.events.iter().filter_map(|e| if let Event::Bid { player, bid } = e { (bid.as_str() != "pass").then(|| player.to_string()) } else { None }).next_back().expect("a taker")
}

/// The deal of `rec` with every player passing, in the order they bid: the deal thrown in.
fn thrown_in(rec: &GameRecord) -> GameRecord {
    let mut out = rec.clone();
    let passes: Vec<Event> =
        rec.events.iter().filter_map(|e| if let Event::Bid { player, .. } = e { Some(Event::Bid { player: player.clone(), bid: "pass".into() }) } else { None }).collect();
    out.events.truncate(1);
    out.events.extend(passes);
    out
}

/// `rec` up to the first card the declarer (or a defender) could not play where he held one, that
/// card played in place of his own: a revoke, the first that the fault `rule` pays.
fn revoked(rules: &tarot_engine::ir::Ruleset, rec: &GameRecord, declarer: bool, rule: &str) -> Option<GameRecord> {
    let taker = taker(rec);
    let Event::Deal { hands, dog, .. } = &rec.events[0] else { return None };
    let mut held: BTreeMap<String, Vec<String>> = hands.iter().map(|(p, h)| (p.to_string(), h.iter().map(|c| c.to_string()).collect())).collect();
    for (i, e) in rec.events.iter().enumerate() {
        match e {
            Event::Discard { player, cards } => {
                let hand = held.get_mut(player.as_str())?;
                hand.extend(dog.iter().map(|c| c.to_string()));
                hand.retain(|c| !cards.iter().any(|d| d.as_str() == c));
            }
            Event::Play { player, card } => {
                if (player.as_str() == taker) == declarer {
                    let before = GameRecord { events: rec.events[..i].to_vec(), ..rec.clone() };
                    let legal = replay(rules, &before).ok()?.next?.legal;
                    for bad in held[player.as_str()].iter().filter(|c| !legal.contains(c)) {
                        let mut out = before.clone();
                        out.events.push(Event::Play { player: player.clone(), card: bad.as_str().into() });
                        if replay(rules, &out).ok()?.ledger.iter().any(|l| &*l.rule == rule) {
                            return Some(out);
                        }
                    }
                }
                held.get_mut(player.as_str())?.retain(|c| c != card.as_str());
            }
            _ => {}
        }
    }
    None
}

/// `rec` with these declarations made right after the discard, in this order.
fn with_declarations(rec: &GameRecord, made: &[(&str, &str)]) -> GameRecord {
    let mut out = rec.clone();
    let at = out.events.iter().position(|e| matches!(e, Event::Discard { .. })).expect("a discard") + 1;
    for (i, (player, name)) in made.iter().enumerate() {
        out.events.insert(at + i, Event::Declare { player: (*player).into(), declaration: (*name).into(), cards: vec![] });
    }
    out
}

/// The game with the declarer's discard made of a plain sow and three other plain cards he held,
/// where he held them.
fn sow_without_trump(rec: &GameRecord) -> Option<GameRecord> {
    let taker = taker(rec);
    let Event::Deal { hands, dog, .. } = &rec.events[0] else { return None };
    let held: Vec<String> = hands[taker.as_str()].iter().chain(dog).map(|c| c.to_string()).collect();
    let plain = |c: &String| !c.starts_with('T') && !c.ends_with('H');
    let sow = held.iter().find(|c| plain(c) && c.starts_with('1') && !c.starts_with("10"))?;
    let others: Vec<&String> = held.iter().filter(|c| plain(c) && *c != sow).take(3).collect();
    if others.len() < 3 {
        return None;
    }
    let mut out = rec.clone();
    let i = out.events.iter().position(|e| matches!(e, Event::Discard { .. }))?;
    out.events[i] = Event::Discard { player: taker.as_str().into(), cards: std::iter::once(sow).chain(others).map(|c| c.as_str().into()).collect() };
    out.events.truncate(i + 1);
    Some(out)
}

/// Writes `rec` once it breaks `rule`, and prints its verdict.
fn write_invalid(path: &std::path::Path, rec: &GameRecord, rules: &tarot_engine::ir::Ruleset, rule: &str) {
    let v = replay(rules, rec).expect("replayable");
    assert_eq!(v.violation.as_ref().map(|x| x.rule.to_string()).as_deref(), Some(rule), "{}: {}", path.display(), v.to_text());
    write(path, rec);
    println!("{}:\n{}", path.display(), v.to_text());
}
