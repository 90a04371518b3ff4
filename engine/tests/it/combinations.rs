//! Combinations (`run` with wild cards, `runs`, `in_runs`; grammar/REFERENCE.md §3.8) in a small rule
//! file: Basic Tarot with a Tarocchini-like *sequenza* declared from the hand (a run of the top trumps
//! from the 21, the 1 and the Fool standing in as *contatori*, and one of the 20, 19 and 18 that may be
//! passed over), and Minchiate-like *versicole* counted in the tricks won (runs of three or more of
//! trumps 2 to 9). Every figure the engine gives is counted again here by hand, on the cards as
//! numbers, and declarations that break the rules are refused.

use crate::common;

use std::collections::BTreeSet;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::random_game;
use tarot_engine::{replay, Event, GameRecord, Status, Verdict};

const RULES: &str = r#"ruleset combos "Basic Tarot with combinations of trumps (a test of run, runs and in_runs)"
extends basic

class contatori "contatore" = T1 + EX
let grande = [T21, T20, T19, T18, T17, T16, T15, T14, T13, T12, T11, T10]
let low = [T2, T3, T4, T5, T6, T7, T8, T9]

declaration sequenza "a sequence of the top trumps" {
  shows = trumps + EX
  require "from the 21, three or more" = has(shown, T21) and run(shown, grande, contatori) >= 3
  require "every card shown is in the sequence" = count(shown) == run(shown, grande, contatori)
  value = 5 * run(shown, grande, contatori)
}

score {
  let hand0 = run(hand_of(players[0]), grande, contatori)
  let hand1 = run(hand_of(players[1]), grande, contatori)
  let hand2 = run(hand_of(players[2]), grande, contatori)
  let passed0 = run(hand_of(players[0]), grande, contatori, T20 + T19 + T18)
  let passed1 = run(hand_of(players[1]), grande, contatori, T20 + T19 + T18)
  let passed2 = run(hand_of(players[2]), grande, contatori, T20 + T19 + T18)
  let pile0 = pile(players[0])
  let runs0 = runs(pile(players[0]), low, 3)
  let cards0 = in_runs(pile(players[0]), low, 3)
  standing = points(player) + declared(sequenza, player) + 2 * count(in_runs(pile(player), low, 3))
}
"#;

/// A card's trump number (the Fool is 0), or `None` for a suit card.
fn trump(code: &str) -> Option<u8> {
    if code == "EX" {
        Some(0)
    } else {
        code.strip_prefix('T').and_then(|n| n.parse().ok())
    }
}

/// By hand: the sequence from the 21 down to the 10 that a hand holds, the 1 and the Fool each
/// standing in for one missing trump; returns its length and the cards that make it.
fn sequence_by_hand(hand: &[String]) -> (usize, Vec<String>) {
    let trumps: BTreeSet<u8> = hand.iter().filter_map(|c| trump(c)).collect();
    let mut wild: Vec<String> = hand.iter().filter(|c| *c == "T1" || *c == "EX").cloned().collect();
    let (mut length, mut cards) = (0, vec![]);
    for number in (10..=21).rev() {
        if trumps.contains(&number) {
            cards.push(format!("T{number}"));
        } else if let Some(w) = wild.pop() {
            cards.push(w);
        } else {
            break;
        }
        length += 1;
    }
    (length, cards)
}

/// By hand, another way: the same sequence when one of the 20, 19 and 18 may also be missing, passed
/// over uncounted. Every choice of the step passed over (or none) is tried, and the longest kept.
fn sequence_passing_by_hand(hand: &[String]) -> usize {
    let trumps: BTreeSet<u8> = hand.iter().filter_map(|c| trump(c)).filter(|n| *n >= 2).collect();
    let wild = hand.iter().filter(|c| *c == "T1" || *c == "EX").count();
    [None, Some(20), Some(19), Some(18)]
        .into_iter()
        .filter(|pass| pass.is_none_or(|p| !trumps.contains(&p)))
        .map(|pass| {
            let (mut length, mut spare) = (0, wild);
            for number in (10..=21).rev() {
                if Some(number) == pass {
                    continue;
                }
                if !trumps.contains(&number) {
                    if spare == 0 {
                        break;
                    }
                    spare -= 1;
                }
                length += 1;
            }
            length
        })
        .max()
        .unwrap()
}

/// By hand: the runs of three or more consecutive trumps among 2 to 9 in a pile, as lengths, and
/// their cards.
fn versicole_by_hand(pile: &[String]) -> (Vec<usize>, BTreeSet<String>) {
    let trumps: BTreeSet<u8> = pile.iter().filter_map(|c| trump(c)).collect();
    let (mut lengths, mut cards) = (vec![], BTreeSet::new());
    let mut n = 2;
    while n <= 9 {
        let start = n;
        while n <= 9 && trumps.contains(&n) {
            n += 1;
        }
        if n - start >= 3 {
            lengths.push((n - start) as usize);
            cards.extend((start..n).map(|t| format!("T{t}")));
        }
        n += 1;
    }
    (lengths, cards)
}

fn value(v: &Verdict, name: &str) -> serde_json::Value {
    v.outcome.as_ref().and_then(|o| o.value(name)).unwrap_or_else(|| panic!("no value {name}"))
}

fn codes(v: &serde_json::Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect()
}

fn hands(rec: &GameRecord) -> Vec<Vec<String>> {
    let Event::Deal { hands, .. } = &rec.events[0] else { panic!("the first event is the deal") };
    rec.players.iter().map(|p| hands[p.as_str()].iter().map(|c| c.to_string()).collect()).collect()
}

/// The record with `declare` events of its own in place of the simulator's, before the first card.
fn with_declarations(rec: &GameRecord, declares: Vec<(String, Vec<String>)>) -> GameRecord {
    let mut out = rec.clone();
    out.events.retain(|e| !matches!(e, Event::Declare { .. }));
    let first_play = out.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap();
    for (i, (player, cards)) in declares.into_iter().enumerate() {
        out.events.insert(first_play + i, Event::Declare { player: player.into(), declaration: "sequenza".into(), cards: cards.into_iter().map(Into::into).collect() });
    }
    out
}

#[test]
fn combinations_counted_by_the_engine_match_a_count_by_hand() {
    let registry = common::registry_with("combos", RULES);
    let rules = registry.get("combos").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let (mut with_wild, mut passed, mut versicole, mut declared, mut refused) = (0, 0, 0, 0, 0);
    for _ in 0..150 {
        let rec = random_game(rules, 3, &Default::default(), &mut rng).unwrap();
        let hands = hands(&rec);
        // The dealer discards after the deal; the others keep their hands whole until play.
        let dealer = rec.players.iter().position(|p| *p == rec.dealer).unwrap();

        // No declarations: the hands' sequences and the first player's versicole, as score values.
        let bare = with_declarations(&rec, vec![]);
        let v = replay(rules, &bare).unwrap();
        assert_eq!(v.status, Status::Valid, "{:?}", v.violation);
        for (seat, hand) in hands.iter().enumerate() {
            let (length, cards) = sequence_by_hand(hand);
            assert_eq!(value(&v, &format!("hand{seat}")), serde_json::json!(length), "hand {hand:?}");
            let passing = sequence_passing_by_hand(hand);
            assert_eq!(value(&v, &format!("passed{seat}")), serde_json::json!(passing), "hand {hand:?}");
            if passing > length {
                passed += 1;
            }
            if cards.iter().any(|c| c == "T1" || c == "EX") && length > cards.iter().filter(|c| *c != "T1" && *c != "EX").count() {
                with_wild += 1;
            }
        }
        let pile = codes(&value(&v, "pile0"));
        let (lengths, cards) = versicole_by_hand(&pile);
        assert_eq!(value(&v, "runs0"), serde_json::json!(lengths), "pile {pile:?}");
        assert_eq!(codes(&value(&v, "cards0")).into_iter().collect::<BTreeSet<_>>(), cards, "pile {pile:?}");
        versicole += lengths.len();
        let o = v.outcome.as_ref().unwrap();
        assert_eq!(o.players[0].score, o.players[0].card_points + tarot_engine::Q::int(2 * cards.len() as i64));

        // Each player but the dealer who holds the 21 and a sequence of three declares exactly it.
        let mut declares = vec![];
        for (seat, hand) in hands.iter().enumerate() {
            let (length, cards) = sequence_by_hand(hand);
            if seat != dealer && hand.iter().any(|c| c == "T21") && length >= 3 {
                declares.push((seat, length, cards));
            }
        }
        let Some((seat, length, cards)) = declares.first().cloned() else { continue };
        let player = rec.players[seat].clone();
        let v = replay(rules, &with_declarations(&rec, vec![(player.clone(), cards.clone())])).unwrap();
        assert_eq!(v.status, Status::Valid, "{player} shows {cards:?}: {:?}", v.violation);
        let o = v.outcome.as_ref().unwrap();
        let r = &o.players[seat];
        let own_versicole = versicole_by_hand(&codes(&value(&v, "pile0"))).1.len();
        if seat == 0 {
            assert_eq!(r.score, r.card_points + tarot_engine::Q::int(5 * length as i64 + 2 * own_versicole as i64));
        }
        declared += 1;

        // One card more that is not in the sequence breaks the second requirement.
        if let Some(extra) = hands[seat].iter().find(|c| trump(c).is_some_and(|n| n >= 2) && !cards.contains(c)) {
            let mut more = cards.clone();
            more.push(extra.clone());
            let v = replay(rules, &with_declarations(&rec, vec![(player.clone(), more)])).unwrap();
            assert_eq!(v.status, Status::Invalid);
            assert_eq!(&*v.violation.as_ref().unwrap().rule, "declaration.sequenza.require.2");
            refused += 1;
        }
        // Without the 21 the first requirement fails, whatever stands in for it.
        let headless: Vec<String> = cards.iter().filter(|c| *c != "T21").cloned().collect();
        let v = replay(rules, &with_declarations(&rec, vec![(player.clone(), headless)])).unwrap();
        assert_eq!(v.status, Status::Invalid);
        assert_eq!(&*v.violation.as_ref().unwrap().rule, "declaration.sequenza.require.1");
        refused += 1;
    }
    println!("wild {with_wild}, passed over {passed}, versicole {versicole}, declared {declared}, refused {refused}");
    // The games showed what they are meant to: wild cards in use, versicole won, declarations both ways.
    assert!(
        with_wild > 0 && passed > 0 && versicole > 0 && declared > 0 && refused > 0,
        "wild {with_wild}, passed {passed}, versicole {versicole}, declared {declared}, refused {refused}"
    );
}

/// Mistakes in a combination's arguments are refused when the rules are compiled, each saying why.
#[test]
fn mistaken_combinations_are_refused_with_a_reason() {
    for (formula, message) in [
        ("run(hand_of(player), [T21, T20], 3)", "the wild cards of `run` are a set of cards"),
        ("count(runs(hand_of(player), [T21, \"x\"], 3))", "each step of the order of `runs` is a set of cards"),
        ("count(in_runs(hand_of(player), [T1, T2, T3], 2.5))", "is a whole number from 1 (`3` for runs of three or more), not 2.5"),
        ("run(hand_of(player), [T21, T20], EX, [T20])", "the steps `run` may pass over are a set of cards (`T20 + T19`), not a list"),
        ("count(runs(hand_of(player), 3, 3))", "the order of `runs` is a list of sets of cards"),
        ("count(runs(hand_of(player), [T1, T2]))", "`runs` takes 3 argument(s), not 2"),
    ] {
        let text = format!("ruleset bad \"a mistaken combination\"\nextends basic\nscore {{\n  standing = points(player) + {formula}\n}}\n");
        let mut files = tarot_engine::Registry::builtin_files();
        files.insert("bad".into(), tarot_engine::RuleFile { path: "rulesets/bad.tarot".into(), text });
        let err = tarot_engine::Registry::from_files(files).err().unwrap_or_else(|| panic!("{formula} was accepted")).to_string();
        assert!(err.contains(message), "{formula}: {err}");
    }
}

/// The counting of runs itself, on sets of cards counted by hand.
mod counted_by_hand {
    use tarot_engine::testing::{in_runs, run_from_head, runs};
    use tarot_engine::{Card, CardSet};

    /// A set of cards from codes: "T21 T20 EX".
    fn set(codes: &str) -> CardSet {
        codes.split_whitespace().fold(CardSet::EMPTY, |acc, c| acc.or(CardSet::single(Card::parse(c).unwrap_or_else(|| panic!("{c}")))))
    }

    /// An order of single cards, highest first.
    fn order(codes: &str) -> Vec<CardSet> {
        codes.split_whitespace().map(set).collect()
    }

    fn check_run(hand: &str, steps: &str, wild: &str, expected: usize) {
        assert_eq!(run_from_head(set(hand), &order(steps), set(wild), CardSet::EMPTY), expected, "run of {hand} along {steps}, wild {wild}");
    }

    #[test]
    fn a_run_from_the_head_counted_by_hand() {
        let top = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12";
        // 21 20 19, then the 18 is missing: three.
        check_run("T21 T20 T19 T17 KS", top, "", 3);
        // The Fool stands for the 18, and the run goes on to the 17: five.
        check_run("T21 T20 T19 T17 EX", top, "T1 EX", 5);
        // Two wild cards: they fill the 18 and the 16, and the run breaks at the missing 15: six.
        check_run("T21 T20 T19 T17 EX T1", top, "T1 EX", 6);
        // The Fool fills the 20, then the run goes 19 18 17 16 15 and breaks at the missing 14: seven steps.
        check_run("T21 T19 T18 T17 T16 T15 T13 EX", top, "T1 EX", 7);
        // Without the head the run is none, unless a wild card stands for it: a formula that wants the head
        // itself writes `has(hand, T21) and ...`.
        check_run("T20 T19 T18", top, "", 0);
        check_run("T20 T19 T18 EX", top, "EX", 4);
        // A wild card held is wild only: T1 at the bottom of the order fills the first gap, not its own place.
        check_run("T3 T2 T1", "T3 T2 T1", "T1", 3);
        check_run("T3 T1", "T3 T2 T1", "T1", 2);
        // Wild cards never lengthen a run past the last step.
        check_run("KS EX T1", "KS QS", "EX T1", 2);
    }

    /// Pisarri (1754), as Dummett and McLeod give it (A History of Games Played with the Tarot Pack,
    /// p. 261 n. 6, quoted at forum.tarothistory.com): "if one side has World, 14, 12, 10, 9, 7, 5, Begato,
    /// the critical trump is the 12 (since the Matto can be substituted for the 14) ... the value of the
    /// grande held by the other side is 105-(12+3) x 5=30": a grande of seven, Angel, Sun, Moon, 16, 15,
    /// the Matto for the 14, and 13, the World passed over. Codes as in a 78-card stand-in: the Angel
    /// T21, World T20, Sun T19, Moon T18, the numbered trumps 16 to 5 as T17 to T6, the Moors T5 to T2,
    /// the Bagattino T1, the Matto EX.
    #[test]
    fn pisarris_grande_of_seven() {
        let grande = order("T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7 T6");
        let other_side = set("T20 T15 T13 T11 T10 T8 T6 T1");
        let angel_side = CardSet::trumps().or(set("EX")).minus(other_side);
        let (contatori, top) = (set("T1 EX"), set("T20 T19 T18"));
        let length = run_from_head(angel_side, &grande, contatori, top);
        assert_eq!(length, 7);
        // Barilli: three cards make a sequence, and each card more adds 5; Pisarri's reckoning agrees.
        assert_eq!(10 + 5 * (length - 3), 105 - (12 + 3) * 5);
        // Without the World passed over, the Matto fills the World and the run breaks at the 14.
        assert_eq!(run_from_head(angel_side, &grande, contatori, CardSet::EMPTY), 6);
    }

    #[test]
    fn a_step_passed_over_counted_by_hand() {
        let suit = order("KS QS CS JS");
        // Barilli: in a suit's sequence one card but the king may be missing: K, C, J is three.
        assert_eq!(run_from_head(set("KS CS JS"), &suit, CardSet::EMPTY, set("QS CS JS")), 3);
        // Only one step may be passed over: with the queen and cavalier missing, the run is the king alone.
        assert_eq!(run_from_head(set("KS JS"), &suit, CardSet::EMPTY, set("QS CS JS")), 1);
        // The king is not passable, so without him there is no run.
        assert_eq!(run_from_head(set("QS CS JS"), &suit, CardSet::EMPTY, set("QS CS JS")), 0);
        // A wild card to spare at the end of the order fills the step passed over: K, Q, [C], J = 4.
        assert_eq!(run_from_head(set("KS QS JS EX"), &suit, set("EX"), set("QS CS JS")), 4);
    }

    #[test]
    fn runs_anywhere_counted_by_hand() {
        let low = order("T1 T2 T3 T4 T5");
        // Minchiate's trumps 28 to 35 stand here as T14 to T21 (the 78-card pack has no trump 28): the
        // order is data, so the codes do not matter to the counting.
        let high = order("T14 T15 T16 T17 T18 T19 T20 T21");
        // Minucci's example: 32, 33, 34, 35 shown (T18 to T21): one run of four.
        assert_eq!(runs(set("T18 T19 T20 T21"), &high, 3), vec![4]);
        // The 33 captured: 32 alone and 34 35, no run of three left ("the versicola is broken").
        assert_eq!(runs(set("T18 T20 T21"), &high, 3), Vec::<usize>::new());
        assert_eq!(in_runs(set("T18 T20 T21"), &high, 3), CardSet::EMPTY);
        // The 35 captured: 32 33 34 remain, still a versicola.
        assert_eq!(runs(set("T18 T19 T20"), &high, 3), vec![3]);
        // Two runs in one order, and a stretch too short.
        assert_eq!(runs(set("T14 T15 T16 T18 T19 T21"), &high, 3), vec![3]);
        assert_eq!(runs(set("T14 T15 T16 T18 T19 T20 T21 KS"), &high, 3), vec![3, 4]);
        assert_eq!(runs(set("T14 T15 T16 T18 T19 T21"), &high, 2), vec![3, 2]);
        assert_eq!(in_runs(set("T14 T15 T16 T18 T19 T21 KS"), &high, 3), set("T14 T15 T16"));
        assert_eq!(runs(set("T1 T2 T3 T4 T5"), &low, 3), vec![5]);
        assert_eq!(runs(set("T1 T2 T4 T5"), &low, 3), Vec::<usize>::new());
        // `min` below 1 counts as 1: every stretch.
        assert_eq!(runs(set("T1 T3"), &low, 0), vec![1, 1]);
    }

    #[test]
    fn a_step_of_several_equal_cards() {
        // Four equal cards as one step (Tarocchini's Moors): any one of them has the step.
        let steps = vec![set("T6"), set("T5"), set("T4 T3 T2 T1")];
        assert_eq!(run_from_head(set("T6 T5 T2"), &steps, CardSet::EMPTY, CardSet::EMPTY), 3);
        assert_eq!(runs(set("T6 T5 T3 T2"), &steps, 3), vec![3]);
        assert_eq!(in_runs(set("T6 T5 T3 T2 KS"), &steps, 3), set("T6 T5 T3 T2"));
    }
}
