//! Declarations scoped to a side or a contract (`by attack | defence | any-side`, `allowed`), a
//! declaration that binds play (`keeps`), and the Fool's deadline (`fool { deadline = N }`), checked
//! by replay on `tests/rules/tarock-declarations.tarot`: games the simulator makes under it are valid,
//! and each rule, broken by one changed event, is the violation the verdict cites.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{random_game_with, ContractChoice, SimOptions};
use tarot_engine::{replay, Event, GameRecord};

const ID: &str = "tarock-declarations";

fn rules() -> Ruleset {
    common::rules(ID, &[ID])
}

fn parent() -> Ruleset {
    tarot_testkit::registry().get("fft-3p").unwrap().clone()
}

/// Seeded games of three, with announcements half the time (`declaring`) or none.
fn games(rules: &Ruleset, contract: ContractChoice, count: usize, seed: u64, declaring: bool) -> Vec<GameRecord> {
    let chance = if declaring { 0.5 } else { 0.0 };
    let sim = SimOptions { contract, announce: chance, announce_strong: chance, declare: chance, hold_petit: 0.5, hold_excuse: 0.5, ..SimOptions::steered() };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count).filter_map(|_| random_game_with(rules, 3, &BTreeMap::new(), &sim, &mut rng).ok()).filter(|g| g.events.iter().any(|e| matches!(e, Event::Play { .. }))).collect()
}

/// The rule the game breaks, and at which event; `None` for a valid (or unfinished) game.
fn broken(rules: &Ruleset, rec: &GameRecord) -> Option<(String, usize, String)> {
    let v = replay(rules, rec).unwrap_or_else(|e| panic!("{e:?}"));
    v.violation.map(|x| (x.rule.to_string(), x.event, x.message))
}

fn declarations(rec: &GameRecord) -> Vec<(String, String)> {
    rec.events
        .iter()
        .filter_map(|e| match e {
            Event::Declare { player, declaration, .. } => Some((player.to_string(), declaration.to_string())),
            _ => None,
        })
        .collect()
}

fn first_play(rec: &GameRecord) -> usize {
    rec.events.iter().position(|e| matches!(e, Event::Play { .. })).expect("a game with play")
}

/// The taker: the player whose bid was the last that was not a pass.
fn taker(rec: &GameRecord) -> String {
    rec.events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Bid { player, bid } if bid != "pass" => Some(player.to_string()),
            _ => None,
        })
        .expect("a taker")
}

fn with_declaration(rec: &GameRecord, player: &str, name: &str) -> (GameRecord, usize) {
    let mut out = rec.clone();
    let at = first_play(rec);
    out.events.insert(at, Event::Declare { player: player.into(), declaration: name.into(), cards: vec![] });
    (out, at)
}

#[test]
fn the_simulator_makes_the_new_declarations_and_its_games_are_valid() {
    let rules = rules();
    let games = games(&rules, ContractChoice::Even, 200, 15, true);
    assert!(games.len() > 150, "{} games", games.len());
    let mut seen = BTreeMap::new();
    for g in &games {
        assert_eq!(broken(&rules, g), None, "a simulated game breaks a rule");
        for (_, d) in declarations(g) {
            *seen.entry(d).or_insert(0) += 1;
        }
        // Never two Kontras, never a Rekontra without one, never both sides' valat twice.
        let ds = declarations(g);
        assert!(ds.iter().filter(|(_, d)| d == "kontra").count() <= 1);
        assert!(ds.iter().all(|(_, d)| d != "rekontra") || ds.iter().any(|(_, d)| d == "kontra"));
    }
    for d in ["ultimo", "kontra", "rekontra", "valat"] {
        assert!(seen.get(d).copied().unwrap_or(0) > 0, "the simulator never made a {d}: {seen:?}");
    }
}

#[test]
fn kontra_is_the_defences_rekontra_the_takers_after_a_kontra() {
    let rules = rules();
    let games = games(&rules, ContractChoice::Only("garde".into()), 30, 16, false);
    let g = games.iter().find(|g| declarations(g).is_empty()).expect("a game without declarations");
    let t = taker(g);
    let defender = g.players.iter().find(|p| **p != t).unwrap().clone();
    // The taker may not say Kontra.
    let (bad, at) = with_declaration(g, &t, "kontra");
    let (rule, event, message) = broken(&rules, &bad).expect("a Kontra by the taker is refused");
    assert_eq!((rule.as_str(), event), ("declaration.kontra", at), "{message}");
    assert!(message.contains("only the defence"), "{message}");
    // A defender may, and the taker answers.
    let (good, _) = with_declaration(g, &defender, "kontra");
    assert_eq!(broken(&rules, &good), None);
    let (good, _) = with_declaration(&good, &t, "rekontra");
    let rekontra_at = good.events.iter().position(|e| matches!(e, Event::Declare { declaration, .. } if declaration == "rekontra")).unwrap();
    assert!(rekontra_at > good.events.iter().position(|e| matches!(e, Event::Declare { declaration, .. } if declaration == "kontra")).unwrap());
    assert_eq!(broken(&rules, &good), None);
    let kontra = replay(&rules, &with_declaration(g, &defender, "kontra").0).unwrap();
    let plain = replay(&rules, g).unwrap();
    let total = |v: &tarot_engine::Verdict| v.ledger.iter().map(|l| l.amount.to_string()).collect::<Vec<_>>().join(" ");
    assert_ne!(total(&kontra), total(&plain), "a Kontra doubles the game");
    // A Rekontra with no Kontra, and a second Kontra, break their requirements.
    let (bad, at) = with_declaration(g, &t, "rekontra");
    assert_eq!(broken(&rules, &bad).map(|(r, e, _)| (r, e)), Some(("declaration.rekontra.require.1".into(), at)));
    let other = g.players.iter().find(|p| **p != t && **p != defender).unwrap().clone();
    let (twice, _) = with_declaration(&with_declaration(g, &defender, "kontra").0, &other, "kontra");
    let second = twice.events.iter().rposition(|e| matches!(e, Event::Declare { declaration, .. } if declaration == "kontra")).unwrap();
    assert_eq!(broken(&rules, &twice).map(|(r, e, _)| (r, e)), Some(("declaration.kontra.require.1".into(), second)));
}

#[test]
fn kontra_is_allowed_only_in_the_contracts_that_say_so() {
    let rules = rules();
    for (contract, allowed) in [("garde", true), ("garde-sans", false), ("garde-contre", false)] {
        let games = games(&rules, ContractChoice::Only(contract.into()), 30, 17, false);
        let g = games.iter().find(|g| declarations(g).is_empty()).expect("a game without declarations");
        let t = taker(g);
        let defender = g.players.iter().find(|p| **p != t).unwrap().clone();
        let (rec, at) = with_declaration(g, &defender, "kontra");
        match broken(&rules, &rec) {
            None => assert!(allowed, "a Kontra accepted in a {contract}"),
            Some((rule, event, message)) => {
                assert!(!allowed, "{contract}: {message}");
                assert_eq!((rule.as_str(), event), ("declaration.kontra.allowed", at), "{message}");
                assert!(message.contains("not allowed in a garde"), "{message}");
            }
        }
    }
}

#[test]
fn a_side_announces_the_valat_once() {
    let rules = rules();
    let games = games(&rules, ContractChoice::Only("garde".into()), 30, 18, false);
    let g = games.iter().find(|g| declarations(g).is_empty()).expect("a game without declarations");
    let t = taker(g);
    let defenders: Vec<String> = g.players.iter().filter(|p| **p != t).cloned().collect();
    // One player of each side: valid.
    let (both, _) = with_declaration(&with_declaration(g, &t, "valat").0, &defenders[0], "valat");
    assert_eq!(broken(&rules, &both), None);
    // Two of the defence: the second breaks the rule.
    let (twice, _) = with_declaration(&with_declaration(g, &defenders[0], "valat").0, &defenders[1], "valat");
    let (rule, event, message) = broken(&rules, &twice).expect("a second valat of one side is refused");
    assert_eq!((rule.as_str(), event), ("declaration.valat", first_play(&twice) - 1));
    assert!(message.contains("each side declares it once"), "{message}");
}

/// The Pagat's holder announced the Ultimo, then played it before the last trick while he had another
/// card he might play: `declaration.ultimo.keeps`. Without the announcement the same play is legal.
#[test]
fn an_announced_ultimo_keeps_the_pagat_to_the_last_trick() {
    let rules = rules();
    let mut checked = 0;
    for g in games(&rules, ContractChoice::Even, 60, 19, true) {
        let Some((holder, _)) = declarations(&g).into_iter().find(|(_, d)| d == "ultimo") else { continue };
        let plays: Vec<usize> = g.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { player, .. } if *player == holder)).map(|(i, _)| i).collect();
        let pagat = plays.iter().position(|&i| matches!(&g.events[i], Event::Play { card, .. } if card == "T1")).unwrap();
        // The Pagat played early by the simulator was driven out: no other card was legal.
        for &i in &plays[..pagat] {
            let mut early = g.clone();
            early.events[i] = Event::Play { player: holder.as_str().into(), card: "T1".into() };
            let Some((rule, event, message)) = broken(&rules, &early) else { continue };
            if rule != "declaration.ultimo.keeps" {
                continue;
            }
            assert_eq!(event, i);
            assert!(message.contains("must keep"), "{message}");
            // Without the announcement, the same card is legal there.
            let mut unannounced = early.clone();
            unannounced.events.retain(|e| !matches!(e, Event::Declare { declaration, .. } if declaration == "ultimo"));
            let v = broken(&rules, &unannounced);
            assert!(v.as_ref().is_none_or(|(_, e, _)| *e >= i), "{v:?}");
            checked += 1;
            break;
        }
    }
    assert!(checked >= 3, "only {checked} games showed the kept Pagat");
    // Where the simulator played the Pagat before the last trick all the same, it had no other card to
    // play, and the verdict says it was driven out.
    let mut driven_out = 0;
    for g in games(&rules, ContractChoice::Even, 200, 22, true) {
        let Some((holder, _)) = declarations(&g).into_iter().find(|(_, d)| d == "ultimo") else { continue };
        let plays: Vec<&Event> = g.events.iter().filter(|e| matches!(e, Event::Play { .. })).collect();
        let early = plays[..plays.len() - 3].iter().any(|e| matches!(e, Event::Play { player, card } if *player == holder && card == "T1"));
        let v = replay(&rules, &g).unwrap();
        assert_eq!(early, v.notes.iter().any(|n| n.contains("driven out")), "{:?}", v.notes);
        driven_out += early as usize;
    }
    assert!(driven_out > 0, "no game drove the Pagat out");
}

#[test]
fn the_fool_is_played_before_the_last_three_tricks() {
    let rules = rules();
    // Under the deadline the simulator never keeps the Fool into the last three tricks (it is an
    // excuse, so always playable).
    for g in games(&rules, ContractChoice::Even, 60, 20, true) {
        let plays: Vec<&Event> = g.events.iter().filter(|e| matches!(e, Event::Play { .. })).collect();
        assert!(!plays.iter().rev().take(9).any(|e| matches!(e, Event::Play { card, .. } if card == "EX")));
    }
    // A game of the parent, where the Fool went to one of the last three tricks, breaks the deadline
    // in the trick before them, at its holder's card.
    let parent = parent();
    let mut broken_games = 0;
    for g in games(&parent, ContractChoice::Even, 80, 21, false) {
        let plays: Vec<usize> = g.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).collect();
        let Some(fool) = plays.iter().rposition(|&i| matches!(&g.events[i], Event::Play { card, .. } if card == "EX")) else { continue };
        if fool < plays.len() - 9 || !declarations(&g).is_empty() {
            continue;
        }
        let holder = match &g.events[plays[fool]] {
            Event::Play { player, .. } => player.clone(),
            _ => unreachable!(),
        };
        let mut rec = g.clone();
        rec.ruleset = ID.into();
        assert_eq!(broken(&parent, &g), None);
        let (rule, event, message) = broken(&rules, &rec).expect("the Fool kept too long");
        assert_eq!(rule, "fool.deadline", "{message}");
        // The holder's card in the fourth trick from the end.
        let deadline_trick = &plays[plays.len() - 12..plays.len() - 9];
        assert!(deadline_trick.contains(&event) && matches!(&rec.events[event], Event::Play { player, .. } if *player == holder), "{message}");
        assert!(message.contains("before the last 3 tricks"), "{message}");
        broken_games += 1;
    }
    assert!(broken_games >= 3, "only {broken_games} games kept the Fool to the end");
}

/// `by attack` on fft-5p's chelem: the taker's called partner may announce it, a defender may not.
#[test]
fn the_attack_is_the_taker_and_his_called_partner() {
    let text = "ruleset five \"five\"\nextends fft-5p\ndeclaration chelem \"chelem\" {\n  by attack\n}\n";
    let rules = common::compile_text("five", text).unwrap_or_else(|d| panic!("{d}"));
    let sim = SimOptions { contract: ContractChoice::Only("garde".into()), announce: 0.0, announce_strong: 0.0, declare: 0.0, ..SimOptions::default() };
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mut checked = 0;
    for _ in 0..40 {
        let Ok(g) = random_game_with(&rules, 5, &BTreeMap::new(), &sim, &mut rng) else { continue };
        let Some(called) = g.events.iter().find_map(|e| match e {
            Event::Call { card, .. } => Some(card.clone()),
            _ => None,
        }) else {
            continue;
        };
        let Some(Event::Deal { hands, .. }) = g.events.first() else { continue };
        let t = taker(&g);
        let Some(partner) = hands.iter().find(|(p, cards)| **p != t && cards.contains(&called)).map(|(p, _)| p.to_string()) else { continue };
        let defender = g.players.iter().find(|p| **p != t && **p != partner).unwrap().clone();
        let (good, _) = with_declaration(&g, &partner, "chelem");
        // The partner's chelem is accepted (the game may then break a rule later: he leads).
        assert!(broken(&rules, &good).is_none_or(|(_, e, _)| e > first_play(&good) - 1));
        let (bad, at) = with_declaration(&g, &defender, "chelem");
        let (rule, event, message) = broken(&rules, &bad).expect("a defender's chelem is refused");
        assert_eq!((rule.as_str(), event), ("declaration.chelem", at));
        assert!(message.contains("only the taker and his partner"), "{message}");
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} games had a called partner");
}

/// A declaration refused by one of several `allowed` says which, with its source: the first false
/// one in the order written. Dreierles' Kontra (P "Knocking: Kontra and Re"), the stored game in
/// which Cid, who passed before anyone bid, knocks against Bob's Solo.
#[test]
fn a_declaration_not_allowed_says_which_condition_fails() {
    let registry = tarot_testkit::registry();
    let rules = registry.get("dreierles").unwrap();
    let mut rec = tarot_engine::parse_record(&tarot_testkit::fixture("dreierles/invalid/declaration.kontra.allowed.json")).unwrap();
    let refusal = |rec: &GameRecord| {
        let x = replay(rules, rec).unwrap().violation.expect("refused");
        (x.rule.to_string(), x.event, x.message, x.source.as_deref().unwrap_or("").to_string())
    };
    let (rule, event, message, source) = refusal(&rec);
    assert_eq!((rule.as_str(), event), ("declaration.kontra.allowed", 5));
    assert_eq!(message, "Cid may not declare a Kontra: an opponent who passed when he could have bid Dreier may not knock");
    assert!(source.contains("Knocking: Kontra and Re"), "{source}");
    // At a table that does not knock, Ann's Kontra (event 4) is refused first, for the reason written
    // before: the table's, not Cid's passing.
    rec.options.insert("knocks".into(), serde_json::json!(0));
    let (_, event, message, _) = refusal(&rec);
    assert_eq!((event, message.as_str()), (4, "Ann may not declare a Kontra: only where the table knocks (option knocks)"));
}

/// Without a reason, a refusal names the contract; a reason may name a top-level `let`, said with
/// its value. The FFT's chelem allowed only from a Garde Sans, on the rulebook's fifth example (a
/// Garde with a chelem announced).
#[test]
fn a_declaration_not_allowed_names_the_contract_or_its_reason() {
    let rec = tarot_engine::parse_record(&tarot_testkit::fixture("worked/fft-deal5.json")).unwrap();
    let refusal = |allowed: &str| {
        let least = if allowed.contains("least") { "let least = 4\n" } else { "" };
        let text = format!("ruleset chelem-sans \"t\"\nextends fft-4p\n{least}declaration chelem \"chelem\" {{\n  when after-discard\n  by taker\n{allowed}\n}}\n");
        let registry = common::registry_with("chelem-sans", &text);
        let mut rec = rec.clone();
        rec.ruleset = "chelem-sans".into();
        let x = replay(registry.get("chelem-sans").unwrap(), &rec).unwrap().violation.expect("refused");
        assert_eq!((&*x.rule, x.event), ("declaration.chelem.allowed", 6), "{}", x.message);
        x.message
    };
    assert_eq!(refusal("  allowed = contract.multiplier >= 4"), "DUPONT may not declare a chelem: it is not allowed in a garde");
    assert_eq!(
        refusal("  allowed = yes\n  allowed \"only from a contract worth {least} times\" = contract.multiplier >= least"),
        "DUPONT may not declare a chelem: only from a contract worth 4 times"
    );
    // Both false: the first written is the one refused.
    assert_eq!(
        refusal("  allowed \"written first\" = contract.multiplier >= 6\n  allowed \"written second\" = contract.multiplier >= 4"),
        "DUPONT may not declare a chelem: written first"
    );
}
