//! A broken obligation that the rules make a fault paid (`play { fault follow "revoke" = 60 }`), on
//! the test rule file `tests/rules/fault-revoke.tarot` (Basic Tarot with a revoke paid): the card
//! stands, the verdict notes the fault and the ledger has the payment; an obligation the ruleset does
//! not make a fault (`must trump`), and a revoke under `basic` itself, stay invalid. A fault that gives
//! back what it takes (`gives-back CLASS`, `tests/rules/fault-gives-back.tarot`): the kings a revoking
//! trump takes go back to who played them.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::Q;
use tarot_engine::{illegal_variant, random_game};
use tarot_engine::{replay, Event, GameRecord, Status, Verdict};

const ID: &str = "fault-revoke";

/// The test rule file, or a built-in ruleset, compiled.
fn rules(id: &str) -> Ruleset {
    common::rules(id, &[ID])
}

/// A card's suit: `T` for a trump, else the code's last letter (`KS`, `10H`).
fn lane(c: &str) -> char {
    if c.starts_with('T') {
        'T'
    } else {
        c.chars().last().unwrap()
    }
}

/// The test file with the revoke costing nothing.
fn free_revoke() -> Ruleset {
    common::test_rules(ID, Some(("= 60", "= 0"))).unwrap_or_else(|e| panic!("{e}"))
}

/// What the next card breaks, when it is not the first legal card.
#[derive(Clone, Copy, PartialEq)]
enum Break {
    /// A card of another suit while holding the suit led.
    Follow,
    /// A card that is neither of the suit led nor a trump, while holding no card of it but a trump.
    Trump,
    /// The highest trump held, while holding the suit led, on a trick with a king in it.
    TakeKing,
}

/// A seeded random game's deal played out, each player playing his first legal card, except that
/// the first chance to break `what` is taken: the record up to and including that card, its event,
/// and the full game (its continuation with first legal cards) when `finish`.
fn game(r: &Ruleset, seed: u64, what: Break, finish: bool) -> (GameRecord, usize, Verdict) {
    try_game(r, seed, what, finish).expect("no chance to break the obligation")
}

/// `game`, or `None` when the deal gave no chance to break `what`.
fn try_game(r: &Ruleset, seed: u64, what: Break, finish: bool) -> Option<(GameRecord, usize, Verdict)> {
    let mut g = random_game(r, 4, &BTreeMap::new(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
    // The random game's events before the first card (the deal, basic's dealer's discard).
    let first = g.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap();
    g.events.truncate(first);
    let Event::Deal { hands, .. } = &g.events[0] else { panic!("no deal") };
    let mut hands: BTreeMap<String, Vec<String>> = hands.iter().map(|(p, h)| (p.to_string(), h.iter().map(|c| c.to_string()).collect())).collect();
    for e in &g.events {
        if let Event::Discard { player, cards } = e {
            hands.get_mut(player.as_str()).unwrap().retain(|c| !cards.iter().any(|d| d.as_str() == c));
        }
    }
    let mut broken = None;
    loop {
        let v = replay(r, &g).unwrap();
        let Some(next) = v.next.clone() else { return broken.map(|b| (g, b, v)) };
        if broken.is_some() && !finish {
            return broken.map(|b| (g, b, v));
        }
        assert_eq!(v.status, Status::InProgress, "{:?}", v.violation);
        let hand = hands.get_mut(next.player.as_ref()).unwrap();
        let legal = &next.legal;
        let led = next.table.iter().map(|c| c.to_string()).find(|c| c != "EX").map(|c| lane(&c));
        let off = |c: &String| !legal.contains(c) && c != "EX";
        let king_on_table = next.table.iter().any(|c| c.to_string().starts_with('K'));
        let chance = match (broken, led) {
            (None, Some(s)) if what == Break::TakeKing => hand
                .iter()
                .filter(|c| king_on_table && s != 'T' && off(c) && c.starts_with('T') && legal.iter().any(|l| lane(l) == s))
                .max_by_key(|c| c[1..].parse::<u32>().unwrap_or(0)),
            (None, Some(s)) => hand.iter().find(|c| {
                off(c)
                    && match what {
                        Break::Follow => legal.iter().any(|l| lane(l) == s),
                        Break::Trump => s != 'T' && !c.starts_with('T') && legal.iter().all(|l| l.starts_with('T') || l == "EX"),
                        Break::TakeKing => false,
                    }
            }),
            _ => None,
        };
        let card = match chance {
            Some(c) => {
                broken = Some(g.events.len());
                c.clone()
            }
            None => legal[0].clone(),
        };
        hand.retain(|c| *c != card);
        g.events.push(Event::Play { player: next.player.as_ref().into(), card: card.as_str().into() });
    }
}

#[test]
fn a_revoke_is_paid_and_play_goes_on() {
    let r = rules(ID);
    for seed in 1..4 {
        let (g, at, v) = game(&r, seed, Break::Follow, true);
        assert_eq!(v.status, Status::Valid, "{:?}", v.violation);
        let Event::Play { player, card } = &g.events[at] else { panic!() };
        let paid: Vec<_> = v.ledger.iter().filter(|l| &*l.rule == "play.fault.follow").collect();
        assert_eq!(paid.len(), 3, "{:?}", v.ledger);
        for l in &paid {
            assert_eq!(l.from.as_deref(), Some(player.as_ref()));
            assert_ne!(l.to.as_deref(), Some(player.as_ref()));
            assert_eq!(l.amount, Q::int(60));
            assert_eq!(l.event, Some(at));
            assert_eq!(&*l.label, "revoke");
            assert!(l.source.as_deref().unwrap().starts_with("B "), "{:?}", l.source);
        }
        let note = v.notes.iter().find(|n| n.starts_with("revoke (play.fault.follow")).unwrap_or_else(|| panic!("{:?}", v.notes));
        assert!(note.contains(&format!("{player} played")) && note.contains("must follow") && note.contains("pays 60 to each other player"), "{note}");
        assert!(note.contains(&r.card_name(tarot_engine::Card::parse(card).unwrap())), "{note}");
        // Else the game is as if the card were legal: the same record where the fault costs 0 has
        // the same ledger less the three lines (basic's score is its `standing`, the card points).
        let w = replay(&free_revoke(), &g).unwrap();
        assert_eq!(w.status, Status::Valid);
        let rest: Vec<_> = v.ledger.iter().filter(|l| &*l.rule != "play.fault.follow").cloned().collect();
        assert_eq!(rest, w.ledger);
        assert_eq!(w.outcome, v.outcome);
    }
}

#[test]
fn what_the_rules_do_not_make_a_fault_stays_invalid() {
    let r = rules(ID);
    // Failing to trump: refused as before.
    let (g, at, _) = game(&r, 2, Break::Trump, false);
    let v = replay(&r, &g).unwrap();
    assert_eq!(v.status, Status::Invalid);
    let broke = v.violation.unwrap();
    assert_eq!((&*broke.rule, broke.event), ("play.must.trump", at));
    // A revoke under basic itself: refused, with no ledger line.
    let basic = rules("basic");
    let (mut g, at, _) = game(&r, 1, Break::Follow, false);
    g.ruleset = "basic".into();
    let v = replay(&basic, &g).unwrap();
    assert_eq!(v.status, Status::Invalid);
    let broke = v.violation.unwrap();
    assert_eq!((&*broke.rule, broke.event), ("play.must.follow", at));
}

#[test]
fn a_fault_names_an_obligation_of_the_section() {
    let err = |play: &str| common::compile_error(&format!("ruleset t \"t\"\nextends basic\nplay {{\n{play}\n}}\n"));
    assert!(err("  fault revoke \"revoke\" = 60").contains("unknown obligation"));
    assert!(err("  fault hold \"x\" = 60").contains("`hold` is not a trick obligation"));
    assert!(err("  fault overtrump \"x\" = 60").contains("has no `must overtrump`"));
    assert!(err("  fault follow \"x\" = \"sixty\"").contains("takes an amount"));
    assert!(err("  fault follow \"x\"").contains("needs a value"));
    assert!(err("  fault follow = 60").contains("missing words"));
    assert_eq!(err("  fault follow \"revoke\" = 60"), "");
    let e = err("  fault follow \"x\" gives-back queens = 60");
    assert!(e.contains("`queens`: unknown card class"), "{e}");
    assert!(err("  fault follow \"x\" returns KS = 60").contains("or `fault follow \"label\" gives-back CLASS = amount`"));
    assert!(err("  fault follow \"x\" gives-back = 60").contains("or `fault follow \"label\" gives-back CLASS = amount`"));
    assert!(err("  fault follow \"x\" gives-back KS KH = 60").contains("takes at most 4 word(s), so `KH` would be ignored"));
    assert_eq!(err("  fault follow \"revoke\" gives-back KS = 60"), "");
}

/// The simulator's bad card (`illegal_variant`, which make_fixtures files as an invalid fixture) is
/// one the rules refuse, never one they make a fault paid: each variant is invalid at the event it
/// changed, under the rule that refuses it (here `must trump` or another, never `must follow`).
#[test]
fn a_bad_card_of_the_simulator_is_not_a_paid_fault() {
    let r = rules(ID);
    let mut tried = 0;
    for seed in 0..40 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let g = random_game(&r, 4, &BTreeMap::new(), &mut rng).unwrap();
        let Some((bad, at)) = illegal_variant(&r, &g, &mut rng) else { continue };
        tried += 1;
        let v = replay(&r, &bad).unwrap();
        assert_eq!(v.status, Status::Invalid, "seed {seed}: {:?}", v.notes);
        let broke = v.violation.unwrap();
        assert_eq!(broke.event, at, "seed {seed}: {broke:?}");
        assert_ne!(&*broke.rule, "play.must.follow");
    }
    assert!(tried > 20, "{tried}");
}

/// `fault follow "revoke" gives-back kings = 60`: a revoking trump that takes its trick gives back the
/// kings in it to the players who played them (a note each); they are not lost, so the `on play` line
/// for a king lost is not paid for them. The same game where the fault gives nothing back pays it.
#[test]
fn a_revoke_gives_back_the_kings_it_takes() {
    let r = common::test_rules("fault-gives-back", None).unwrap();
    let keeps = common::test_rules("fault-gives-back", Some((" gives-back kings", ""))).unwrap();
    let mut found = 0;
    for seed in 1..200 {
        let Some((g, at, v)) = try_game(&r, seed, Break::TakeKing, true) else { continue };
        assert_eq!(v.status, Status::Valid, "{:?}", v.violation);
        let Event::Play { player, .. } = &g.events[at] else { panic!() };
        // The trick of the revoke: the first whose last card is at or after it.
        let plays_before = g.events[..at].iter().filter(|e| matches!(e, Event::Play { .. })).count();
        let trick = &v.tricks[plays_before / 4];
        if trick.winner.as_ref() != player.as_str() {
            continue;
        }
        found += 1;
        let kings: Vec<String> = trick.cards.iter().map(|c| c.to_string()).filter(|c| c.starts_with('K')).collect();
        let notes: Vec<_> = v.notes.iter().filter(|n| n.contains("gives it back to")).collect();
        assert_eq!(notes.len(), kings.len(), "{notes:?} {kings:?}");
        assert!(notes.iter().all(|n| n.starts_with(&format!("revoke (play.fault.follow, B \"The Basic Tarot Game\"): {player} took king of "))), "{notes:?}");
        // Without the giving back, the same game has the same ledger and more: each king taken is
        // lost, its player paying 5 to each opponent.
        let w = replay(&keeps, &g).unwrap();
        assert_eq!(w.status, Status::Valid);
        assert!(w.notes.iter().all(|n| !n.contains("gives it back")));
        let mut extra = w.ledger.clone();
        for l in &v.ledger {
            let i = extra.iter().position(|x| x == l).unwrap_or_else(|| panic!("{l:?} not paid without the giving back"));
            extra.remove(i);
        }
        assert!(extra.len() >= kings.len(), "{extra:?}");
        assert!(extra.iter().all(|l| &*l.rule == "on.play.king-lost" && l.from.as_deref() != Some(player.as_str()) && l.amount == Q::int(5)), "{extra:?}");
    }
    assert!(found >= 3, "only {found} seeds where the revoking trump took its trick");
}

/// Minchiate's revoke (M5): `fixtures/minchiate/valid/revoke-2p.json` is valid under `minchiate`, Ann
/// paying Bob 60 for the card of event 4; under a child ruleset without the fault it is refused there.
#[test]
fn minchiate_pays_a_revoke_and_without_the_fault_refuses_it() {
    let path = format!("{}/../fixtures/minchiate/valid/revoke-2p.json", env!("CARGO_MANIFEST_DIR"));
    let rec = tarot_engine::parse_record(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = replay(&rules("minchiate"), &rec).unwrap();
    assert_eq!(v.status, Status::Valid);
    let paid: Vec<_> = v.ledger.iter().filter(|l| &*l.rule == "play.fault.follow").map(|l| (l.from.as_deref(), l.to.as_deref(), l.amount, l.event)).collect();
    assert_eq!(paid, [(Some("Ann"), Some("Bob"), Q::int(60), Some(4))]);
    let text = "ruleset strict \"Minchiate, a revoke refused\"\nextends minchiate\nplay {\n  without fault follow\n}\n";
    let strict = common::compile_text("strict", text).unwrap_or_else(|d| panic!("{d}"));
    let mut rec = rec;
    rec.ruleset = "strict".into();
    let v = replay(&strict, &rec).unwrap();
    assert_eq!(v.status, Status::Invalid);
    let broke = v.violation.unwrap();
    assert_eq!((&*broke.rule, broke.event), ("play.must.follow", 4));
    assert!(v.ledger.iter().all(|l| !l.rule.starts_with("play.fault")));
}

/// A record that cannot be read is told where and in words.
mod unreadable {
    use tarot_engine::parse_record;

    #[test]
    fn a_record_that_cannot_be_read_is_told_once_where_and_in_words() {
        let said = |text: &str| parse_record(text).unwrap_err();
        // The place once, not again at the end as serde_json says it.
        let e = said(r#"{"ruleset": 1}"#);
        assert_eq!(e, "line 1, column 13, at `ruleset`: invalid type: integer `1`, expected a string");
        assert_eq!(e.matches("line").count(), 1, "{e}");
        let e = said("{\n  \"ruleset\": \"tarot1\",\n  \"players\": [\"A\" \"B\"]\n}");
        assert!(e.starts_with("line 3, column ") && !e.contains(" at line "), "{e}");
        // No Rust in it: a record that is a list, a string, a number.
        for (text, kind) in [(r#"["tarot1", ["A"], "A", []]"#, "a list"), (r#""tarot1""#, "a string"), ("12", "a number"), ("[]", "a list")] {
            assert_eq!(said(text), format!("line 1, column 1: a recorded game is a JSON object, not {kind}"), "{text}");
        }
        // An event that is not an object, a list where a name is, a count that is not one.
        let e = said(r#"{"ruleset":"tarot1","players":["A"],"dealer":"A","events":[["play","A","T1"]]}"#);
        assert_eq!(
            e,
            "line 1, column 59, at `events[0]`: invalid type: a list, expected an event: an object with a `type` (deal, bid, call, take, discard, buy, declare, sit-out or play)"
        );
        let e = said(r#"{"ruleset":"tarot1","players":"A","dealer":"A","events":[]}"#);
        assert!(e.contains("at `players`: ") && e.contains("expected a list") && !e.contains("sequence"), "{e}");
        let e = said(r#"{"ruleset":"tarot1","players":["A"],"dealer":"A","events":[{"type":"play","player":"A","card":7}]}"#);
        assert!(e.contains(", at `events[0]"), "the event named: {e}");
        let e = said(r#"{"ruleset":"tarot1","players":["A"],"dealer":"A","events":[{"type":"deal","hands":[]}]}"#);
        assert!(!e.contains("sequence") && !e.contains("map"), "{e}");
    }
}
