//! The worked scoring examples of the sources, each reproduced by a complete recorded game under
//! `fixtures/worked/` (made by `examples/worked_examples.rs`). Every test replays the committed record
//! and checks the figures the source states.
//!
//! - French Tarot (`fft-4p`): seed 000's Hands #1–#5, seed 003's garde sans, and the five examples of
//!   the FFT rulebook, which are also the five deals of its score sheet.
//! - Marolles (`marolles-1637`): the declaration example worth 6 marques, and the pack's 74 points.
//! - Basic Tarot (`basic`): the counting examples of seed 002's table, and the 78 points of a
//!   three-player and a six-player game.
//! - Minchiate (`minchiate`): Minucci's versicola of trumps 32 to 35, shown whole, broken and saved.

use std::path::Path;

use tarot_engine::testing::count_points;
use tarot_engine::Q;
use tarot_engine::{parse_record, replay, Event, GameRecord, Status, Verdict};
use tarot_engine::{Card, CardSet};

/// Replays a committed fixture; the game must be complete and valid.
fn replay_fixture(name: &str) -> (GameRecord, Verdict) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/worked").join(format!("{name}.json"));
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let record = parse_record(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(record.description.is_some(), "{name} says which example it reproduces");
    let registry = tarot_testkit::registry();
    let rules = registry.get(&record.ruleset).expect("a built-in ruleset");
    let verdict = replay(rules, &record).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(verdict.status, Status::Valid, "{name}:\n{}", verdict.to_text());
    (record, verdict)
}

#[test]
fn every_worked_fixture_is_a_complete_valid_game() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/worked");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .filter_map(|e| e.path().file_stem().and_then(|s| s.to_str()).map(String::from))
        .collect();
    names.sort();
    assert_eq!(names.len(), 17, "{names:?}");
    for name in names {
        replay_fixture(&name);
    }
}

// French Tarot

#[derive(Clone, Copy, Debug, PartialEq)]
enum Side {
    Taker,
    Defence,
}
use Side::*;

/// What a source says about one deal of French Tarot for four players.
struct Deal {
    fixture: &'static str,
    taker: &'static str,
    contract: &'static str,
    /// The taker's card points less his target (negative: the contract fails).
    margin: f64,
    /// The taker's card points and bouts, where the source states them.
    points_and_bouts: Option<(f64, i64)>,
    /// The Petit in the last trick: the side that played it and the side that took the trick.
    petit_au_bout: Option<(Side, Side)>,
    /// The side that showed a poignée of ten trumps.
    poignee: Option<Side>,
    /// The hand score's terms as the source works them out: contract, petit au bout, poignée, chelem.
    /// Each defender pays their sum to the taker (receives it when negative); the taker gets three times it.
    terms: [i64; 4],
}

/// Replays the deal's fixture, checks every figure, and returns each player's score.
fn check(deal: Deal) -> Vec<(String, Q)> {
    let name = deal.fixture;
    let (record, verdict) = replay_fixture(name);
    let text = verdict.to_text();
    let outcome = verdict.outcome.as_ref().expect("a finished game");
    let side = |player: &str| if player == deal.taker { Taker } else { Defence };
    assert_eq!(outcome.taker.as_deref(), Some(deal.taker), "{name}: taker\n{text}");
    assert_eq!(outcome.contract.as_deref(), Some(deal.contract), "{name}: contract\n{text}");
    let value = |key: &str| outcome.value(key).and_then(|v| v.as_f64()).unwrap_or_else(|| panic!("{name}: no {key}"));
    assert_eq!(value("points") - value("target"), deal.margin, "{name}: points less target\n{text}");
    if let Some((points, bouts)) = deal.points_and_bouts {
        assert_eq!((value("points"), value("bouts") as i64), (points, bouts), "{name}: taker's card points and bouts\n{text}");
    }

    let petit = petit_in_last_trick(&record, &verdict).map(|(by, winner)| (side(&by), side(&winner)));
    assert_eq!(petit, deal.petit_au_bout, "{name}: the Petit in the last trick (played by, taken by)\n{text}");

    let poignees: Vec<(Side, usize)> = record
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Declare { player, declaration, cards } if declaration == "poignee" => Some((side(player), cards.len())),
            _ => None,
        })
        .collect();
    assert_eq!(poignees, deal.poignee.map(|s| (s, 10)).into_iter().collect::<Vec<_>>(), "{name}: poignées shown");

    let terms =
        ["contract", "petit au bout", "poignée", "chelem"].map(|label| verdict.ledger.iter().filter(|l| &*l.label == label && l.from.is_none()).map(|l| l.amount).sum::<Q>());
    assert_eq!(terms, deal.terms.map(Q::int), "{name}: terms of the hand score (contract, petit au bout, poignée, chelem)\n{text}");
    let hand: i64 = deal.terms.iter().sum();
    assert_eq!(outcome.hand_score, Some(Q::int(hand)), "{name}: hand score\n{text}");
    for p in &outcome.players {
        let expected = if *p.player == *deal.taker { 3 * hand } else { -hand };
        assert_eq!(p.score, Q::int(expected), "{name}: {}'s score\n{text}", p.player);
    }
    outcome.players.iter().map(|p| (p.player.to_string(), p.score)).collect()
}

#[test]
fn seed000_hand1_garde_56_points_2_bouts() {
    // Each other player gives (25 + 15) * 2 = 80 points to A.
    check(Deal {
        fixture: "seed000-hand1",
        taker: "A",
        contract: "garde",
        margin: 15.0,
        points_and_bouts: Some((56.0, 2)),
        petit_au_bout: None,
        poignee: None,
        terms: [80, 0, 0, 0],
    });
}

#[test]
fn seed000_hand2_taker_takes_the_last_trick_with_the_petit() {
    // Each other player gives (25 + 13 + 10) * 2 = 96 points to B.
    check(Deal {
        fixture: "seed000-hand2",
        taker: "B",
        contract: "garde",
        margin: 13.0,
        points_and_bouts: Some((49.0, 3)),
        petit_au_bout: Some((Taker, Taker)),
        poignee: None,
        terms: [76, 20, 0, 0],
    });
    assert!(petit_takes_the_last_trick("seed000-hand2"));
}

#[test]
fn seed000_hand3_defence_takes_the_last_trick_with_the_petit() {
    // C gives (25 + 1 + 10) * 2 = 72 points to each other player.
    check(Deal {
        fixture: "seed000-hand3",
        taker: "C",
        contract: "garde",
        margin: -1.0,
        points_and_bouts: Some((40.0, 2)),
        petit_au_bout: Some((Defence, Defence)),
        poignee: None,
        terms: [-52, -20, 0, 0],
    });
    assert!(petit_takes_the_last_trick("seed000-hand3"));
}

#[test]
fn seed000_hand4_defence_captures_the_takers_petit_in_the_last_trick() {
    // C holds 3 bouts, loses the Petit and with it a bout: target 41, (25 + 0 - 10) * 2 = 30 to C.
    let (record, _) = replay_fixture("seed000-hand4");
    for bout in ["T1", "T21", "EX"] {
        assert_eq!(dealt_holder(&record, bout), "C", "C holds {bout}");
    }
    check(Deal {
        fixture: "seed000-hand4",
        taker: "C",
        contract: "garde",
        margin: 0.0,
        points_and_bouts: Some((41.0, 2)),
        petit_au_bout: Some((Taker, Defence)),
        poignee: None,
        terms: [50, -20, 0, 0],
    });
}

#[test]
fn seed000_hand5_defence_shows_a_poignee() {
    // Each other player gives (25 + 4) * 2 + 20 = 78 points to D: the poignée goes to the side that
    // wins, whoever showed it.
    check(Deal {
        fixture: "seed000-hand5",
        taker: "D",
        contract: "garde",
        margin: 4.0,
        points_and_bouts: Some((40.0, 3)),
        petit_au_bout: None,
        poignee: Some(Defence),
        terms: [58, 0, 20, 0],
    });
}

#[test]
fn seed003_garde_sans_with_a_single_poignee_made_by_12() {
    // ((25 + 12 + 0) * 4) + 20 + 0 = 168: A +504, B, C and D -168 each.
    check(Deal {
        fixture: "seed003-garde-sans",
        taker: "A",
        contract: "garde-sans",
        margin: 12.0,
        points_and_bouts: None,
        petit_au_bout: None,
        poignee: Some(Taker),
        terms: [148, 0, 20, 0],
    });
}

/// The FFT rulebook's five examples, which are also the five deals of its score sheet. The players in
/// order of play are Nord DURAND, Ouest DESPRES, Sud DUPONT and Est DUBOIS.
fn fft_deals() -> Vec<Deal> {
    vec![
        // Garde, poignée of 10, the taker brings the Petit to the end and makes 49 points with 2 bouts:
        // (25 + 8) * 2 + 20 + 10 * 2 = 106.
        Deal {
            fixture: "fft-deal1",
            taker: "DUBOIS",
            contract: "garde",
            margin: 8.0,
            points_and_bouts: Some((49.0, 2)),
            petit_au_bout: Some((Taker, Taker)),
            poignee: Some(Taker),
            terms: [66, 20, 20, 0],
        },
        // Garde sans won by 4, the defence brings the Petit to the end: (25 + 4) * 4 - 40 = 76.
        Deal {
            fixture: "fft-deal2",
            taker: "DESPRES",
            contract: "garde-sans",
            margin: 4.0,
            points_and_bouts: None,
            petit_au_bout: Some((Defence, Defence)),
            poignee: None,
            terms: [116, -40, 0, 0],
        },
        // Prise failed by 7 with the taker's poignée, the taker bringing the Petit to the end:
        // 25 + 7 + 20 - 10 = 42 to each defender.
        Deal {
            fixture: "fft-deal3",
            taker: "DUPONT",
            contract: "prise",
            margin: -7.0,
            points_and_bouts: None,
            petit_au_bout: Some((Taker, Taker)),
            poignee: Some(Taker),
            terms: [-32, 10, -20, 0],
        },
        // Garde won by 11, the defence having shown a poignée: (25 + 11) * 2 + 20 = 92.
        Deal { fixture: "fft-deal4", taker: "DURAND", contract: "garde", margin: 11.0, points_and_bouts: None, petit_au_bout: None, poignee: Some(Defence), terms: [72, 0, 20, 0] },
        // Garde, announced chelem made, poignée of 10, Petit au bout, the defence keeps its Excuse:
        // 87 points with 2 bouts, (46 + 25) * 2 + 20 + 20 + 400 = 582.
        Deal {
            fixture: "fft-deal5",
            taker: "DUPONT",
            contract: "garde",
            margin: 46.0,
            points_and_bouts: Some((87.0, 2)),
            petit_au_bout: Some((Taker, Taker)),
            poignee: Some(Taker),
            terms: [142, 20, 20, 400],
        },
    ]
}

#[test]
fn fft_rulebook_examples_add_up_to_the_score_sheet() {
    let mut totals: Vec<(String, Q)> = vec![];
    for deal in fft_deals() {
        for (player, score) in check(deal) {
            match totals.iter_mut().find(|(p, _)| *p == player) {
                Some((_, total)) => *total = *total + score,
                None => totals.push((player, score)),
            }
        }
    }
    let total = |player: &str| totals.iter().find(|(p, _)| p == player).map(|(_, t)| *t);
    // The sheet's "Bilan": Nord DURAND -446, Sud DUPONT +1346, Est DUBOIS -390, Ouest DESPRES -510.
    assert_eq!(total("DURAND"), Some(Q::int(-446)));
    assert_eq!(total("DUPONT"), Some(Q::int(1346)));
    assert_eq!(total("DUBOIS"), Some(Q::int(-390)));
    assert_eq!(total("DESPRES"), Some(Q::int(-510)));
}

#[test]
fn fft_chelem_announced_and_the_excuse_stays_with_the_defence() {
    // "La défense conserve l'Excuse qu'elle possédait": a defender holds it; the taker, who announced
    // the chelem, takes every trick.
    let (record, verdict) = replay_fixture("fft-deal5");
    assert_ne!(dealt_holder(&record, "EX"), "DUPONT");
    assert!(verdict.tricks.iter().all(|t| &*t.winner == "DUPONT"));
    assert!(record.events.iter().any(|e| matches!(e, Event::Declare { player, declaration, .. } if player == "DUPONT" && declaration == "chelem")));
}

/// Whether the Petit itself takes the last trick.
fn petit_takes_the_last_trick(fixture: &str) -> bool {
    let (record, verdict) = replay_fixture(fixture);
    matches!(petit_in_last_trick(&record, &verdict), Some((by, winner)) if by == winner)
}

/// If the Petit is in the last trick: who played it and who took the trick.
fn petit_in_last_trick(record: &GameRecord, verdict: &Verdict) -> Option<(String, String)> {
    let plays: Vec<(&str, &str)> = record
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Play { player, card } => Some((player.as_str(), card.as_str())),
            _ => None,
        })
        .collect();
    let last_trick = &plays[plays.len() - record.players.len()..];
    let (by, _) = last_trick.iter().find(|(_, card)| *card == "T1")?;
    Some((by.to_string(), verdict.tricks.last()?.winner.to_string()))
}

/// Who was dealt a card (the dog counts as nobody's).
fn dealt_holder<'a>(record: &'a GameRecord, code: &str) -> &'a str {
    let Some(Event::Deal { hands, .. }) = record.events.first() else { panic!("a game starts with the deal") };
    hands.iter().find(|(_, cards)| cards.iter().any(|c| c == code)).map(|(p, _)| p.as_str()).unwrap_or_else(|| panic!("nobody was dealt {code}"))
}

// Marolles

#[test]
fn marolles_two_kings_the_i_the_xxi_and_the_fool_are_worth_6_marques() {
    // "Tous les Trois (3M), 2 Kings with the Fool (1M) and 5 Tarots (2M) for a total of 6M from each
    // opponent": Ann holds the kings of swords and cups, the I, the XXI and the Fool, and declares them.
    let (_, verdict) = replay_fixture("marolles-declarations");
    let text = verdict.to_text();
    let paid_to_ann = |from: &str, rule: &str| -> Q {
        verdict.ledger.iter().filter(|l| l.rule.starts_with(rule) && l.from.as_deref() == Some(from) && l.to.as_deref() == Some("Ann")).map(|l| l.amount).sum()
    };
    for opponent in ["Bob", "Cid"] {
        let each = ["declaration.tous_les_trois", "declaration.kings_fool", "declaration.tarots"].map(|rule| paid_to_ann(opponent, rule));
        assert_eq!(each, [3, 1, 2].map(Q::int), "{opponent} pays Ann for Tous les trois, Kings with the Fool, Tarots\n{text}");
        assert_eq!(paid_to_ann(opponent, "declaration."), Q::int(6), "{opponent} pays Ann 6 marques in all\n{text}");
    }
}

#[test]
fn marolles_the_pack_counts_74() {
    // "The total value of the 66-card pack is 74 points", counted as one...
    let registry = tarot_testkit::registry();
    let rules = registry.get("marolles-1637").expect("marolles");
    assert_eq!(count_points(&rules.counting, rules.pack.cards, 0), Q::int(74));
    // ... and the three players' piles of a complete game together.
    let (_, verdict) = replay_fixture("marolles-declarations");
    let total: Q = verdict.outcome.as_ref().expect("a finished game").players.iter().map(|p| p.card_points).sum();
    assert_eq!(total, Q::int(74), "{}", verdict.to_text());
}

// Basic Tarot

#[test]
fn basic_counting_examples_of_seed_002() {
    let registry = tarot_testkit::registry();
    let rules = registry.get("basic").expect("basic");
    let group = |codes: [&str; 3]| -> CardSet { codes.iter().map(|c| Card::parse(c).expect("a card code")).collect() };
    // Batons are clubs (C), coins are diamonds (D), swords are spades (S).
    let examples = [
        (["2C", "4D", "5D"], 1),  // 2 Batons; 4, 5 Coins = 1 point
        (["T3", "T7", "T21"], 5), // 3, 7, 21 Trumps = 5 points
        (["8S", "JS", "KS"], 6),  // 8, J, K Swords = 2 + 5 - 1 = 6 points
        (["T1", "QD", "KD"], 12), // 1 Trumps, Q, K Coins = 5 + 4 + 5 - 2 = 12 points
    ];
    for (codes, points) in examples {
        assert_eq!(count_points(&rules.counting, group(codes), 0), Q::int(points), "{codes:?}");
    }
}

#[test]
fn basic_three_and_six_players_take_78_points_in_all() {
    for (fixture, players) in [("basic-3-players", 3), ("basic-6-players", 6)] {
        let (_, verdict) = replay_fixture(fixture);
        let outcome = verdict.outcome.as_ref().expect("a finished game");
        assert_eq!(outcome.players.len(), players);
        let total: Q = outcome.players.iter().map(|p| p.card_points).sum();
        assert_eq!(total, Q::int(78), "{fixture}\n{}", verdict.to_text());
    }
}

#[test]
fn minchiate_a_versicola_of_32_to_35_whole_broken_and_saved() {
    // Minucci (M3): trumps 32 to 35 shown count each card three times; if the 33 or 34 is taken the
    // versicola is broken and the rest count twice; if the 32 or 35 is taken, three remain in sequence
    // and still count three times. At five a card: 60, 30 and 45. Ann's honours are her nobili counted
    // once (her card points) and the versicola's surplus over that; Dan takes no noble card, so his
    // honours are 0 and he pays Ann hers whole.
    for (fixture, versicola, its_cards_once) in [("whole", 60, 20), ("broken", 30, 15), ("saved", 45, 15)] {
        let name = format!("minchiate-versicola-{fixture}");
        let (_, verdict) = replay_fixture(&name);
        let text = verdict.to_text();
        let outcome = verdict.outcome.as_ref().expect("a finished game");
        let points = |who: &str| outcome.players.iter().find(|p| &*p.player == who).map(|p| p.card_points).unwrap();
        assert_eq!(points("Dan"), Q::ZERO, "{name}: Dan takes no noble card\n{text}");
        let honours: Q =
            verdict.ledger.iter().filter(|l| &*l.rule == "score.pay.honours" && l.from.as_deref() == Some("Dan") && l.to.as_deref() == Some("Ann")).map(|l| l.amount).sum();
        assert_eq!(honours - points("Ann"), Q::int(versicola - its_cards_once), "{name}: the versicola counts {versicola}\n{text}");
    }
}
