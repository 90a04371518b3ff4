//! Kleiner Mann's Geiß taken back ("frei": P's Oberwolfach and Schmidt versions, PW), where the
//! option `geiss_frei` allows it: the declarer leads another card to the first trick and must take
//! the last trick with the Geiß (`last-trick`), or any trick (`a-trick`). For each choice, a steered
//! game in which the Geiß takes its trick (fixtures/cego/valid/kleiner-mann-frei-<choice>.json) and one
//! in which it does not, though he takes a trick, paid as a game without one (…-failed.json); and, bound to the last
//! trick, the won game with the Geiß played at an earlier trick where another card was legal
//! (fixtures/cego/invalid/play.keep.LABEL.json).

use super::{contract, expect};
use crate::common::write;

use std::collections::BTreeMap;
use std::path::Path;

use crate::common;
use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, ContractChoice, Event, GameRecord, SimOptions, Verdict};

/// Whether the game's notes say the Geiß taken back failed.
fn failed(v: &Verdict) -> bool {
    v.notes.iter().any(|n| n.contains("the Geiß taken back did not take"))
}

/// Whether the declarer took a trick, so that the failure is what makes him paid as without one.
fn took_a_trick(v: &Verdict) -> bool {
    v.outcome.as_ref().is_some_and(|o| o.players.iter().any(|p| o.taker.as_deref() == Some(&*p.player) && p.tricks > 0))
}

/// Whether the first trick was led with another card than the Geiß.
fn taken_back(rec: &GameRecord) -> bool {
    rec.events.iter().find_map(|e| match e {
        Event::Play { card, .. } => Some(&**card != "T1"),
        _ => None,
    }) == Some(true)
}

pub(super) fn main(rules: &Ruleset, root: &Path) {
    let sim = SimOptions { contract: ContractChoice::Only("kleiner-mann".into()), ..SimOptions::steered() };
    for (choice, seed0) in [("last-trick", 48), ("a-trick", 50)] {
        let options = BTreeMap::from([("geiss_frei".to_string(), serde_json::json!(choice))]);
        for (won, seed0) in [(true, seed0), (false, seed0 + 1)] {
            let found = common::find_game(rules, 4, &options, &sim, (seed0, 20_000), |rec, v| {
                (contract(&v) == "kleiner-mann" && taken_back(&rec) && failed(&v) != won && (won || took_a_trick(&v))).then_some(rec)
            });
            let Some((seed, mut rec)) = found else {
                eprintln!("kleiner-mann, geiss_frei {choice}: no game in 20000");
                continue;
            };
            let what = match (choice, won) {
                ("last-trick", true) => "A Kleiner Mann whose declarer takes the Geiß back and takes the last trick with it",
                ("last-trick", false) => "A Kleiner Mann whose declarer takes the Geiß back and does not take the last trick with it: paid as a game without a trick",
                (_, true) => "A Kleiner Mann whose declarer takes the Geiß back and takes a trick with it",
                _ => "A Kleiner Mann whose declarer takes the Geiß back and takes no trick with it: paid as a game without a trick",
            };
            let origin = format!("game {seed} of seed {seed0} of `cego_fixtures`");
            rec.description = Some(format!("{what} (option geiss_frei {choice}): {origin}"));
            let name = if won { format!("kleiner-mann-frei-{choice}") } else { format!("kleiner-mann-frei-{choice}-failed") };
            write(&root.join("valid").join(format!("{name}.json")), &rec);
            if choice == "last-trick" && won {
                kept_broken(rules, root, &rec, &origin);
            }
        }
    }
}

/// The Geiß, kept to the last trick, played instead at the declarer's first card after the first
/// trick at which it is refused.
fn kept_broken(rules: &Ruleset, root: &Path, rec: &GameRecord, origin: &str) {
    let taker = replay(rules, rec).expect("replayable").outcome.and_then(|o| o.taker).expect("a declarer");
    let plays: Vec<usize> = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).collect();
    for &at in plays.iter().skip(4) {
        let Event::Play { player, card } = &rec.events[at] else { continue };
        if **player != *taker || &**card == "T1" {
            continue;
        }
        let mut g = rec.clone();
        g.events.truncate(at);
        g.events.push(Event::Play { player: player.clone(), card: "T1".into() });
        let v = replay(rules, &g).expect("replayable");
        if v.violation.as_ref().is_some_and(|b| b.rule.starts_with("play.keep.")) {
            g.description = Some(format!("A Kleiner Mann whose declarer, having taken the Geiß back (option geiss_frei last-trick), plays it before the last trick: event {at} of {origin}, where he played {card}"));
            let rule = expect(rules, &g, "play.keep.");
            write(&root.join("invalid").join(format!("{rule}.json")), &g);
            return;
        }
    }
    eprintln!("kleiner-mann, geiss_frei last-trick: no card at which the Geiß is refused");
}
