//! Sitting out by choice (issue 15's N7, `sit-out-by-choice { ... }`), checked on replayed games of
//! `tests/rules/sit-out-choice.tarot`: after the deal one player of four may sit out, paying 30, 40,
//! 50 or 60 by his place in turn from first hand to the taker of the last trick; the others play on,
//! three cards a trick. A sit-out at three players, a second one, one after the first card and a move
//! by the sitter are refused.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::random_game;
use tarot_engine::{replay, Event, GameRecord, Phase, Status, Verdict};

fn compiled(text: Option<(&str, &str)>) -> Result<Ruleset, String> {
    common::test_rules("sit-out-choice", text)
}

/// A dealt game of `n` players, its deal only.
fn dealt(rules: &Ruleset, n: usize, seed: u64) -> GameRecord {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = random_game(rules, n, &BTreeMap::new(), &mut rng).unwrap();
    assert_eq!(replay(rules, &g).unwrap().status, Status::Valid);
    g.events.truncate(1);
    g
}

/// Plays the game out, each player his first legal card.
fn play_out(rules: &Ruleset, g: &mut GameRecord) -> Verdict {
    loop {
        let v = replay(rules, g).unwrap();
        match &v.next {
            Some(n) if v.status == Status::InProgress && n.phase == Phase::Play => {
                g.events.push(Event::Play { player: n.player.as_ref().into(), card: n.legal[0].as_str().into() });
            }
            _ => return v,
        }
    }
}

fn sit(g: &mut GameRecord, place: usize) -> String {
    let d = g.players.iter().position(|p| *p == g.dealer).unwrap();
    let who = g.players[(d + 1 + place) % g.players.len()].to_string();
    g.events.push(Event::SitOut { player: who.as_str().into() });
    who
}

fn refused(v: &Verdict, event: usize, rule: &str, says: &str) {
    let x = v.violation.as_ref().unwrap_or_else(|| panic!("not refused: {:?}", v.status));
    assert_eq!((x.event, &*x.rule), (event, rule), "{}", x.message);
    assert!(x.message.contains(says), "{}", x.message);
}

#[test]
fn a_player_sits_out_and_pays_his_place_to_the_last_trick() {
    let rules = compiled(None).unwrap();
    for (place, fee) in [(0, 30), (1, 40), (2, 50), (3, 60)] {
        let mut g = dealt(&rules, 4, place as u64);
        let who = sit(&mut g, place);
        let v = play_out(&rules, &mut g);
        assert_eq!(v.status, Status::Valid, "{:?}", v.violation);
        assert_eq!(v.tricks.len(), 18);
        assert!(v.tricks.iter().all(|t| t.cards.len() == 3 && *t.leader != *who && *t.winner != *who));
        assert!(!g.events.iter().any(|e| matches!(e, Event::Play { player, .. } if **player == *who)));
        let paid: Vec<_> = v.ledger.iter().filter(|l| &*l.rule == "sit-out-by-choice.fee").collect();
        assert_eq!(paid.len(), 1);
        assert_eq!(paid[0].from.as_deref(), Some(who.as_str()));
        assert_eq!(paid[0].to.as_deref(), Some(&*v.tricks.last().unwrap().winner));
        assert_eq!(paid[0].amount, tarot_engine::Q::int(fee));
        assert!(v.notes.iter().any(|n| n.contains("sits the deal out")), "{:?}", v.notes);
    }
}

#[test]
fn the_simulator_sits_a_player_out_now_and_then() {
    let rules = compiled(None).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut sat = 0;
    for i in 0..80 {
        let g = random_game(&rules, 3 + i % 2, &BTreeMap::new(), &mut rng).unwrap();
        let v = replay(&rules, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "{:?}", v.violation);
        if g.events.iter().any(|e| matches!(e, Event::SitOut { .. })) {
            assert_eq!(g.players.len(), 4, "nobody sits out at three");
            assert!(v.ledger.iter().any(|l| &*l.rule == "sit-out-by-choice.fee"));
            sat += 1;
        }
    }
    assert!(sat > 3, "{sat} of 80 games had a player sit out");
}

#[test]
fn a_sit_out_against_the_rule_is_refused() {
    let rules = compiled(None).unwrap();
    // At a table of three nobody may.
    let mut g = dealt(&rules, 3, 1);
    sit(&mut g, 0);
    refused(&replay(&rules, &g).unwrap(), 1, "sit-out-by-choice.allowed", "nobody may sit out at a table of 3");
    // A second player after the first.
    let mut g = dealt(&rules, 4, 2);
    sit(&mut g, 1);
    sit(&mut g, 2);
    refused(&replay(&rules, &g).unwrap(), 2, "sit-out-by-choice", "already sits this deal out");
    // After the first card.
    let mut g = dealt(&rules, 4, 3);
    let v = replay(&rules, &g).unwrap();
    let n = v.next.unwrap();
    g.events.push(Event::Play { player: n.player.as_ref().into(), card: n.legal[0].as_str().into() });
    sit(&mut g, 2);
    refused(&replay(&rules, &g).unwrap(), 2, "sit-out-by-choice", "before the first declaration or card");
    // The sitter plays a card.
    let mut g = dealt(&rules, 4, 4);
    let hands = match &g.events[0] {
        Event::Deal { hands, .. } => hands.clone(),
        _ => unreachable!(),
    };
    let who = sit(&mut g, 0);
    let card = hands[who.as_str()][0].clone();
    g.events.push(Event::Play { player: who.as_str().into(), card });
    refused(&replay(&rules, &g).unwrap(), 2, "sit-out-by-choice", "sits this deal out: no cards and no moves");
    // The sitter's turn passes: the next player leads.
    let mut g = dealt(&rules, 4, 5);
    let who = sit(&mut g, 0);
    let v = replay(&rules, &g).unwrap();
    let d = g.players.iter().position(|p| *p == g.dealer).unwrap();
    assert_eq!(&*v.next.unwrap().player, g.players[(d + 2) % 4].as_str(), "{who} sat out");
}

#[test]
fn a_sit_out_without_the_rule_cannot_be_read() {
    let rules = compiled(Some(("sit-out-by-choice {\n  allowed = count(players) == 4\n  fee = [30, 40, 50, 60]\n}\n", ""))).unwrap();
    let mut g = dealt(&rules, 4, 1);
    g.ruleset = "sit-out-choice".into();
    sit(&mut g, 0);
    let e = replay(&rules, &g).unwrap_err();
    assert!(e.message.contains("has no sitting out by choice"), "{}", e.message);
}

#[test]
fn sitting_out_is_compiled_with_its_checks() {
    let e = compiled(Some(("  fee = [30, 40, 50, 60]\n", ""))).unwrap_err();
    assert!(e.contains("sitting out by choice needs `fee = [...]`"), "{e}");
    let e = compiled(Some(("  fee = [30, 40, 50, 60]", "  fee = 30"))).unwrap_err();
    assert!(e.contains("the fee is a list"), "{e}");
    let e = compiled(Some(("  fee = [30, 40, 50, 60]", "  fee = [30, 40, 50, 60]\n  when = \"after-deal\""))).unwrap_err();
    assert!(e.contains("unknown sit-out-by-choice statement `when`"), "{e}");
    let e = compiled(Some(("without discard\n", "without discard\nbidding {\n  turns once\n  contract prise \"prise\" { dog = \"defence\" }\n}\nsides taker\n"))).unwrap_err();
    assert!(e.contains("in a game without `bidding`"), "{e}");
    let e = compiled(Some(("players 3..4\n", "players 3..4\nsit-out dealer\n"))).unwrap_err();
    assert!(e.contains("not both"), "{e}");
}

/// fixtures/minchiate's sit-out games are what this makes from its other fixtures: the deal and the
/// steals kept, a `sit-out`, then each player's first legal card. With `TAROT_WRITE_FIXTURES=1` it
/// writes them (`TAROT_WRITE_FIXTURES=1 cargo test -p tarot-engine --test it sit_out::`); the fixtures
/// test replays them.
#[test]
fn minchiate_sit_out_fixtures_are_made_from_the_others() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/minchiate");
    let registry = tarot_testkit::registry();
    let rules = registry.get("minchiate").unwrap();
    let read = |f: &str| tarot_engine::parse_record(&std::fs::read_to_string(root.join(f)).unwrap()).unwrap();
    // Up to the first declaration or card: the deal and the steals.
    let dealt = |mut g: GameRecord| {
        let first = g.events.iter().position(|e| matches!(e, Event::Declare { .. } | Event::Play { .. })).unwrap();
        g.events.truncate(first);
        g
    };
    let writing = std::env::var_os("TAROT_WRITE_FIXTURES").is_some();
    let write = |g: &GameRecord, f: &str| {
        let made = serde_json::to_string_pretty(g).unwrap() + "\n";
        if writing {
            std::fs::write(root.join(f), made).unwrap();
        } else {
            let stored = std::fs::read_to_string(root.join(f)).unwrap();
            assert!(stored == made, "fixtures/minchiate/{f} is not what this test makes (write it with TAROT_WRITE_FIXTURES=1 and review)");
        }
    };
    for (base, place, out, what) in [
        ("valid/steals.json", 0, "valid/sit-out-30.json", "first hand sits out after the steals, for 30"),
        ("valid/4p-1.json", 1, "valid/sit-out-40.json", "the second in turn sits out, for 40"),
    ] {
        let mut g = dealt(read(base));
        sit(&mut g, place);
        let v = play_out(rules, &mut g);
        assert_eq!(v.status, Status::Valid, "{out}: {:?}", v.violation);
        g.description =
            Some(format!("A complete legal game: {what}, paid to the taker of the last trick (M4); the deal and steals of {base}, then each player's first legal card"));
        write(&g, out);
    }
    let mut g = dealt(read("valid/2p-1.json"));
    sit(&mut g, 0);
    g.description = Some("Invalid: a player sits out at a table of two; only at four may anyone (M4)".into());
    write(&g, "invalid/sit-out-by-choice.allowed.json");
    let mut g = dealt(read("valid/4p-2.json"));
    let v = replay(rules, &g).unwrap();
    let n = v.next.unwrap();
    g.events.push(Event::Play { player: n.player.as_ref().into(), card: n.legal[0].as_str().into() });
    sit(&mut g, 2);
    g.description = Some("Invalid: the third in turn sits out after the first card is played; he may only before it (M4)".into());
    write(&g, "invalid/sit-out-by-choice.json");
}

/// `next` offers the sit-out (`sit_out`, beside the moves of the player to move) to each player who
/// may still take it, the first four in turn from first hand, each of whom it then accepts; nobody once
/// a player sits out or the first card is played, nor at three players.
#[test]
fn next_offers_the_sit_out_while_it_is_allowed() {
    let rules = compiled(None).unwrap();
    let g = dealt(&rules, 4, 5);
    let v = replay(&rules, &g).unwrap();
    let n = v.next.as_ref().unwrap();
    let d = g.players.iter().position(|p| *p == g.dealer).unwrap();
    let in_turn: Vec<&str> = (0..4).map(|k| g.players[(d + 1 + k) % 4].as_str()).collect();
    assert_eq!(n.sit_out.iter().map(|p| &**p).collect::<Vec<_>>(), in_turn);
    assert!(v.to_text().contains(&format!("or sits out: {}", in_turn.join(", "))), "{}", v.to_text());
    for who in &n.sit_out {
        let mut sat = g.clone();
        sat.events.push(Event::SitOut { player: who.as_ref().into() });
        let after = replay(&rules, &sat).unwrap();
        assert_eq!(after.status, Status::InProgress, "{who}: {:?}", after.violation);
        assert!(after.next.unwrap().sit_out.is_empty(), "{who}: only one sits out");
    }
    let mut played = g.clone();
    played.events.push(Event::Play { player: n.player.as_ref().into(), card: n.legal[0].as_str().into() });
    assert!(replay(&rules, &played).unwrap().next.unwrap().sit_out.is_empty(), "not after the first card");
    let three = dealt(&rules, 3, 5);
    assert!(replay(&rules, &three).unwrap().next.unwrap().sit_out.is_empty(), "not at three players");
}
