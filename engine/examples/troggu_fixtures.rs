//! Writes the fixtures of `troggu` that show the Bättler withheld (P "Play": a player whose one trump
//! left it is need not give it when trumps are led or he has none of the suit led), which the
//! simulator's command line reaches only now and then. Each is a seeded
//! game simulated with the cards that may be withheld held back (`SimOptions::withhold`), found by
//! search, so it is reproducible:
//!
//! - valid/fool-withheld.json: the Bättler withheld, then played to the last trick, which another side
//!   takes: it takes no trick and goes back to its holder, who gives the winner an empty card.
//! - valid/fool-withheld-led.json: its holder leads the last trick with it: the next card sets the suit.
//! - valid/fool-withheld-own-side.json: a defender's, whose partner takes the last trick: nothing is
//!   given for it.
//! - in_progress/fool-may-be-withheld.json: stopped where a trump is due of a player whose only trump is
//!   the Bättler: he may play it, or any other card.
//! - invalid/play.must.trump--the-fool-beside-another-trump.json and
//!   invalid/play.must.follow--the-fool-beside-another-trump.json: a player who holds one other trump
//!   beside the Bättler plays neither where a trump is due (none of the suit led; trumps led).
//!
//!
//! And the stakes (P "Scoring" and "Misere"), each case of pagat's figures in a game of its own:
//!
//! - valid/stake-tapp-made.json: the Tappist wins, the losers over 30: 10 Rappen from each opponent.
//! - valid/stake-doubled.json: the losers took 30 card points or fewer: 20 each.
//! - valid/stake-trebled.json: the losers took no trick: 30 each.
//! - valid/stake-solo-doubled.json and valid/stake-solo-no-trick.json: a Solo doubles, 20 and 60 each.
//! - valid/drawn-at-57.json: 57 each, neither side wins, nothing is paid.
//! - valid/misere-most-points-pay.json: the most card points pay 10 to each other player;
//!   valid/misere-tied-for-the-most.json: tied for the most, each of them pays the others.
//! - valid/misere-led-by-first-hand.json: with the option misere_lead = "first-hand", the player to the
//!   dealer's right leads the Misère (P "Misere"); invalid/play.order--misere-led-by-the-dealer.json:
//!   under that option, the dealer leads it (the game of misere-most-points-pay.json).
//!
//! And the fixtures of troggu-7-8, seven and eight players (`seven_eight.rs`), and of troggu-graechen
//! and troggu-st-niklaus, the rules of Grächen and St Niklaus (`villages.rs`).
//!
//!     cargo run -p tarot-engine --example generators -- troggu_fixtures

use crate::common;

mod seven_eight;
mod villages;

use common::{write, write_valid};

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Event, Figure, GameRecord, Registry, Verdict};

const ID: &str = "troggu";
const SEED: u64 = 41;

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("troggu is built in");
    let root = common::fixtures().join(ID);
    let sim = SimOptions { withhold: 1.0, ..SimOptions::steered() };
    type Wanted = (&'static str, usize, &'static str, fn(&GameRecord, &Verdict) -> bool);
    let wanted: [Wanted; 3] = [
        (
            "fool-withheld",
            3,
            "The Bättler withheld (P \"Play\"): its holder, whose only trump it is, plays another card where a trump is due; he keeps it to the last trick, which another side takes: it takes no trick and goes back to him, and he gives the winner an empty card",
            |_, v| withheld(v).is_some() && v.notes.iter().any(|n| n.contains("goes back from trick")),
        ),
        (
            "fool-withheld-led",
            3,
            "The Bättler withheld (P \"Play\"), its holder leading the last trick with it: the next card sets the suit, and the Bättler takes no trick",
            |_, v| withheld(v).is_some_and(|who| v.tricks.last().is_some_and(|t| *t.leader == *who && t.cards.codes().next() == Some("T22"))),
        ),
        (
            "fool-withheld-own-side",
            6,
            "The Bättler withheld (P \"Play\") by a defender whose partner takes the last trick: it stays with their side, and nothing is given for it",
            |rec, v| {
                let Some(who) = withheld(v) else { return false };
                let last = v.tricks.last().expect("a trick");
                let taker = rec.events.iter().find_map(|e| match e {
                    Event::Bid { player, bid } if bid.as_str() != "pass" => Some(player.to_string()),
                    _ => None,
                });
                *last.winner != *who && taker.is_some_and(|t| *t != *who && *t != *last.winner)
            },
        ),
    ];
    for (k, (file, players, what, shows)) in wanted.iter().enumerate() {
        let seed0 = SEED + k as u64;
        let found = common::find_game(rules, *players, &BTreeMap::new(), &sim, (seed0, 20_000), |rec, v| shows(&rec, &v).then_some(rec));
        let Some((seed, mut rec)) = found else {
            eprintln!("{file}: not found in 20000 games");
            continue;
        };
        rec.description = Some(format!("{what}: game {seed} of seed {seed0} of `troggu_fixtures`"));
        write_valid(&root.join("valid").join(format!("{file}.json")), &rec, rules);
        if k == 0 {
            may_be_withheld(&root, rules, &rec, &format!("game {seed} of seed {seed0} of `troggu_fixtures`"));
        }
    }
    // A player with another trump beside the Bättler: the one game of each kind, from the first
    // games of a seed that give one.
    let mut rng = ChaCha8Rng::seed_from_u64(SEED + 10);
    let mut left = vec![("play.must.trump", false), ("play.must.follow", true)];
    for seed in 0..2_000u64 {
        let Ok(rec) = random_game_with(rules, 3, &BTreeMap::new(), &sim, &mut rng) else { continue };
        left.retain(|&(rule, trumps_led)| {
            let Some((bad, at, played, instead)) = renege_beside_another_trump(&rec, trumps_led) else { return true };
            let v = replay(rules, &bad).expect("replayable");
            if v.violation.as_ref().map(|x| &*x.rule) != Some(rule) {
                return true;
            }
            let mut bad = bad;
            let due = if trumps_led { "trumps being led" } else { "having none of the suit led" };
            bad.description = Some(format!(
                "Breaks {rule}: event {at} of game {seed} of seed {} of `troggu_fixtures`, where its player, {due}, played {played}, replaced by {instead}: he holds one other trump beside the Bättler, so a trump is due of him (P \"Play\": the Bättler may be withheld only when it is his only trump)",
                SEED + 10
            ));
            write(&root.join("invalid").join(format!("{rule}--the-fool-beside-another-trump.json")), &bad);
            println!("{rule}: {}", v.to_text());
            false
        });
        if left.is_empty() {
            break;
        }
    }
    for (rule, _) in left {
        eprintln!("{rule}--the-fool-beside-another-trump: not found in 2000 games");
    }
    stakes(rules, &root);
    seven_eight::main();
    villages::main();
}

/// A number the score worked out (`outcome.values`).
fn value(v: &Verdict, name: &str) -> Option<i64> {
    let outcome = v.outcome.as_ref()?;
    outcome.values.iter().find(|(n, _)| &**n == name).and_then(|(_, f)| match f {
        Figure::Num(q) => q.to_string().parse().ok(),
        Figure::Bool(b) => Some(i64::from(*b)),
        _ => None,
    })
}

fn contract(v: &Verdict) -> Option<&str> {
    v.outcome.as_ref()?.contract.as_deref()
}

fn misere(v: &Verdict) -> bool {
    contract(v) == Some("misere")
}

/// A contract won or lost (not drawn) for this many times the basic stake.
fn stake(v: &Verdict, name: &str, times: i64) -> bool {
    contract(v) == Some(name) && value(v, "drawn") == Some(0) && value(v, "times") == Some(times)
}

/// The players tied for the most card points in a Misère.
fn most(v: &Verdict) -> usize {
    let Some(outcome) = v.outcome.as_ref() else { return 0 };
    let top = outcome.players.iter().map(|p| p.card_points).max();
    outcome.players.iter().filter(|p| Some(p.card_points) == top).count()
}

/// One game for each of pagat's stakes, found by search among steered games, so reproducible.
fn stakes(rules: &tarot_engine::ir::Ruleset, root: &std::path::Path) {
    type Wanted = (&'static str, usize, Option<&'static str>, &'static str, fn(&Verdict) -> bool);
    let wanted: [Wanted; 9] = [
        ("stake-tapp-made", 4, None, "The Tappist wins and the losers took more than 30 card points: each opponent pays him the basic stake, 10 Rappen (P \"Scoring\")", |v| {
            stake(v, "tapp", 1) && value(v, "made") == Some(1)
        }),
        ("stake-doubled", 5, None, "The losers took a trick but 30 card points or fewer: the stake is doubled, 20 Rappen each (P \"Scoring\")", |v| stake(v, "tapp", 2)),
        ("stake-trebled", 6, None, "The losers took no trick: the stake is trebled, 30 Rappen each (P \"Scoring\")", |v| stake(v, "tapp", 3)),
        ("stake-solo-doubled", 3, None, "A Solo, the losers over 30: the stake doubled for the Solo, 20 Rappen each (P \"Scoring\": \"20, 40 or 60\")", |v| {
            stake(v, "solo", 2)
        }),
        ("stake-solo-no-trick", 4, None, "A Solo whose losers took no trick: trebled and doubled, 60 Rappen each (P \"Scoring\": \"20, 40 or 60\")", |v| {
            stake(v, "solo", 6)
        }),
        ("drawn-at-57", 3, None, "The card points divided 57-57: neither side wins, and nothing is paid (P \"Scoring\")", |v| value(v, "drawn") == Some(1)),
        ("misere-most-points-pay", 4, None, "A Misère: the player with the most card points pays 10 Rappen to each other player (P \"Misere\"); the dealer leads (IG, the option misere_lead's default)", |v| {
            misere(v) && most(v) == 1
        }),
        ("misere-tied-for-the-most", 5, None, "A Misère with two or more tied for the most card points: each of them pays 10 Rappen to each player not tied, and nothing to each other (P \"Misere\", read for a tie)", |v| {
            misere(v) && most(v) > 1
        }),
        ("misere-led-by-first-hand", 4, Some("first-hand"), "A Misère under the option misere_lead = \"first-hand\": the player to the dealer's right leads (P \"Misere\")", |v| {
            misere(v)
        }),
    ];
    for (k, (file, players, lead, what, shows)) in wanted.iter().enumerate() {
        let seed0 = SEED + 20 + k as u64;
        let options: BTreeMap<String, serde_json::Value> = lead.iter().map(|l| ("misere_lead".to_string(), serde_json::json!(l))).collect();
        let found = common::find_game(rules, *players, &options, &SimOptions::steered(), (seed0, 20_000), |rec, v| shows(&v).then_some(rec));
        let Some((seed, mut rec)) = found else {
            eprintln!("{file}: not found in 20000 games");
            continue;
        };
        let origin = format!("game {seed} of seed {seed0} of `troggu_fixtures`");
        rec.description = Some(format!("{what}: {origin}"));
        write_valid(&root.join("valid").join(format!("{file}.json")), &rec, rules);
        if *file == "misere-most-points-pay" {
            // The same Misère, the dealer leading, under the option that has first hand lead it.
            let mut bad = rec.clone();
            bad.options.insert("misere_lead".to_string(), serde_json::json!("first-hand"));
            bad.description = Some(format!(
                "The Misère of valid/misere-most-points-pay.json ({origin}), led by the dealer, under the option misere_lead = \"first-hand\": the player to the dealer's right should lead (P \"Misere\")"
            ));
            let v = replay(rules, &bad).expect("replayable");
            let rule = v.violation.as_ref().map(|x| x.rule.to_string()).expect("the dealer's lead refused");
            write(&root.join("invalid").join(format!("{rule}--misere-led-by-the-dealer.json")), &bad);
            println!("{rule}: {}", v.to_text());
        }
    }
}

/// The player who withheld the Bättler, from the verdict's note.
fn withheld(v: &Verdict) -> Option<String> {
    v.notes.iter().find_map(|n| n.split_once("): ").and_then(|(_, rest)| rest.split_once(" withholds der Bättler")).map(|(who, _)| who.to_string()))
}

/// The game `rec` stopped at the card where its player withheld the Bättler: the verdict's next says
/// he may play the Bättler or any other card.
fn may_be_withheld(root: &std::path::Path, rules: &tarot_engine::ir::Ruleset, rec: &GameRecord, origin: &str) {
    let v = replay(rules, rec).expect("replayable");
    let Some(who) = withheld(&v) else { return };
    for at in (1..rec.events.len()).filter(|&i| matches!(&rec.events[i], Event::Play { player, card } if **player == *who && !card.starts_with('T'))) {
        let mut cut = rec.clone();
        cut.events.truncate(at);
        let next = replay(rules, &cut).expect("replayable").next.expect("a next move");
        if next.legal.iter().any(|c| c == "T22") && next.legal.iter().all(|c| c == "T22" || !c.starts_with('T')) && next.legal.len() > 1 {
            let Event::Play { card, .. } = &rec.events[at] else { unreachable!("a play") };
            cut.description = Some(format!(
                "The game of valid/fool-withheld.json ({origin}) stopped before {who} withholds the Bättler (P \"Play\"): a trump is due of him, and the Bättler is his only trump, so he may play it or any other card (he played {card})"
            ));
            write(&root.join("in_progress").join("fool-may-be-withheld.json"), &cut);
            return;
        }
    }
}

/// In a game, the first card played where trumps were led (`trumps_led`) or its player had none of
/// the suit led, by a player holding the Bättler and one other trump, who played a trump: the game
/// with a card of his other suits in its place. The record, the event, the card played and the card
/// put in its place.
fn renege_beside_another_trump(rec: &GameRecord, trumps_led: bool) -> Option<(GameRecord, usize, String, String)> {
    let n = rec.players.len();
    let plays: Vec<usize> = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).collect();
    let card = |i: usize| match &rec.events[i] {
        Event::Play { card, .. } => card.to_string(),
        _ => unreachable!("a play"),
    };
    let is_trump = |c: &str| c.starts_with('T') || c == "EX";
    let suit = |c: &str| c.chars().last().unwrap_or(' ');
    for (k, &at) in plays.iter().enumerate().filter(|(k, _)| k % n != 0) {
        let Event::Play { player, .. } = &rec.events[at] else { continue };
        let led = card(plays[k - k % n]);
        // His hand: the cards he plays from this one on.
        let hand: Vec<String> = plays[k..].iter().filter(|&&i| matches!(&rec.events[i], Event::Play { player: p, .. } if p == player)).map(|&i| card(i)).collect();
        let trumps = hand.iter().filter(|c| is_trump(c)).count();
        let void = !hand.iter().any(|c| !is_trump(c) && suit(c) == suit(&led));
        let due = if trumps_led { is_trump(&led) } else { !is_trump(&led) && void };
        if !due || trumps != 2 || !hand.iter().any(|c| c == "T22") || !is_trump(&card(at)) {
            continue;
        }
        let Some(instead) = hand.iter().find(|c| !is_trump(c)) else { continue };
        let mut bad = rec.clone();
        bad.events[at] = Event::Play { player: player.clone(), card: instead.as_str().into() };
        return Some((bad, at, card(at), instead.clone()));
    }
    None
}
