//! The talon's `rest` read packet by packet (`packet`): each packet the taker leaves, and each packet
//! of a talon he does not take (a contract whose `dog` is `"defence"`), goes where `rest` says for it.
//! Checked on seeded games of `tests/rules/talon-halves.tarot` (fft-3p, the prise taking one of two
//! halves, the garde contre not taking the dog), replayed with a `rest` that reads the packet.

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{compile, RuleFile};
use tarot_engine::{random_game_with, SimOptions};
use tarot_engine::{replay, Event, GameRecord, Registry, Status, Verdict, Q};

/// `talon-halves` with its `rest` written as `rest`.
fn halves(rest: &str) -> Ruleset {
    let mut files = Registry::builtin_files();
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rules/talon-halves.tarot")).unwrap();
    assert_eq!(text.matches("  rest = \"defence\"\n").count(), 1);
    let text = text.replace("  rest = \"defence\"\n", &format!("  rest = {rest}\n"));
    files.insert("talon-halves".into(), RuleFile { path: "engine/tests/rules/talon-halves.tarot".into(), text });
    compile("talon-halves", &|id: &str| files.get(id).cloned()).unwrap_or_else(|d| panic!("{d}"))
}

fn games(rules: &Ruleset, count: usize) -> Vec<GameRecord> {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    (0..count).map(|_| random_game_with(rules, 3, &BTreeMap::new(), &SimOptions::steered(), &mut rng).unwrap()).collect()
}

fn taker_points(v: &Verdict) -> Q {
    let o = v.outcome.as_ref().unwrap();
    o.players.iter().find(|p| Some(&*p.player) == o.taker.as_deref()).unwrap().card_points
}

fn dog(g: &GameRecord) -> Vec<String> {
    match &g.events[0] {
        Event::Deal { dog, .. } => dog.iter().map(|c| c.to_string()).collect(),
        _ => unreachable!(),
    }
}

fn taken(g: &GameRecord) -> Option<Vec<String>> {
    g.events.iter().find_map(|e| if let Event::Take { cards, .. } = e { Some(cards.iter().map(|c| c.to_string()).collect()) } else { None })
}

#[test]
fn a_packet_left_goes_where_rest_says_for_it() {
    let plain = halves("\"defence\"");
    let per_packet = halves("if count(packet, trumps) > 0 then \"taker\" else \"defence\"");
    let (mut to_taker, mut to_defence) = (0, 0);
    for g in games(&plain, 300) {
        let Some(take) = taken(&g) else { continue };
        let before = replay(&plain, &g).unwrap();
        let after = replay(&per_packet, &g).unwrap();
        if before.status != Status::Valid || dog(&g).len() != 6 || take.len() != 3 {
            continue;
        }
        let left: Vec<String> = dog(&g).into_iter().filter(|c| !take.contains(c)).collect();
        assert_eq!(after.status, Status::Valid);
        if left.iter().any(|c| c.starts_with('T')) {
            to_taker += 1;
            assert!(taker_points(&after) > taker_points(&before), "the half left, with a trump, counts for the taker: {}", after.to_text());
            assert!(after.notes.iter().any(|n| n.contains("the rest goes to the taker's pile") || n.contains("counts for the taker")), "{:?}", after.notes);
        } else {
            to_defence += 1;
            assert_eq!(after.to_text(), before.to_text());
        }
    }
    assert!(to_taker > 10 && to_defence > 10, "{to_taker} halves to the taker, {to_defence} to the defence");
}

#[test]
fn a_talon_not_taken_goes_packet_by_packet() {
    let plain = halves("\"defence\"");
    // The garde contre's dog (one packet, `talon = 1`) counts for the taker when it holds the 21.
    let per_packet = halves("if has(packet, T21) then \"taker\" else \"defence\"");
    let (mut to_taker, mut to_defence) = (0, 0);
    for g in games(&plain, 600) {
        let before = replay(&plain, &g).unwrap();
        if before.status != Status::Valid || before.outcome.as_ref().unwrap().contract.as_deref() != Some("garde-contre") {
            continue;
        }
        let after = replay(&per_packet, &g).unwrap();
        if dog(&g).iter().any(|c| c == "T21") {
            to_taker += 1;
            assert!(taker_points(&after) > taker_points(&before), "{}", after.to_text());
            assert!(after.notes.iter().any(|n| n.contains("the talon is not taken") && n.contains("(talon.rest)")), "{:?}", after.notes);
        } else {
            to_defence += 1;
            assert_eq!(after.to_text(), before.to_text());
        }
    }
    assert!(to_taker > 0 && to_defence > 0, "{to_taker} dogs to the taker, {to_defence} to the defence");
}

#[test]
fn a_rest_that_reads_no_packet_leaves_a_talon_not_taken_alone() {
    // "taker" for every contract, read once per contract: the garde contre's dog stays the defence's.
    let plain = halves("\"defence\"");
    let taker = halves("if contract.name == \"prise\" then \"defence\" else \"taker\"");
    let mut seen = 0;
    for g in games(&plain, 600) {
        let before = replay(&plain, &g).unwrap();
        if before.outcome.as_ref().and_then(|o| o.contract.as_deref()) == Some("garde-contre") {
            seen += 1;
            assert_eq!(replay(&taker, &g).unwrap().to_text(), before.to_text());
        }
    }
    assert!(seen > 0);
}
