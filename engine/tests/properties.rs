//! Properties of every ruleset over simulated games: a simulated game replays as valid; payments sum
//! to zero; the card points of a whole game total the pack's value; an illegal card put in place of
//! one play is caught at exactly that event; packet counting equals the rounded sum of per-card
//! thirds.

use std::collections::BTreeMap;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::cards::{Card, CardSet};
use tarot_engine::num::Q;
use tarot_engine::replay::{count_packets, count_points};
use tarot_engine::simulate::{illegal_variant, random_game};
use tarot_engine::{replay, Registry, Status};

/// Rulesets and table sizes under test, with the total of card points a whole game must show and how
/// far the players' rounded totals may stray from it. Marolles counts each player's pile in packets of
/// three, and every pile starts with a discard of one or four cards, so the piles' surpluses round and
/// the players' totals add up to 73, 74 or 75 while the pack itself is worth 74 (see `pack_totals`).
const TABLES: &[(&str, usize, Option<(i64, i64)>)] = &[
    ("fft-4p", 4, Some((91, 0))),
    ("marolles-1637", 3, Some((74, 1))),
    ("basic", 3, Some((78, 0))),
    ("basic", 6, Some((78, 0))),
    ("basic", 2, None),
    ("basic", 4, None),
    ("basic", 5, None),
];

fn registry() -> &'static Registry {
    static R: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    R.get_or_init(|| Registry::builtin().unwrap_or_else(|d| panic!("{d}")))
}

fn whole_games(table: usize, seed: u64) {
    let (id, n, total) = TABLES[table];
    let rules = registry().get(id).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rec = random_game(rules, n, &BTreeMap::new(), &mut rng).unwrap();
    let v = replay(rules, &rec).unwrap();
    if v.status == Status::Annulled {
        return;
    }
    assert_eq!(v.status, Status::Valid, "{id} seed {seed}: {}", v.to_text());
    let o = v.outcome.as_ref().unwrap();
    // Every payment is paid by someone and received by someone: scores balance.
    if !rules.score.pays.is_empty() {
        let sum: Q = o.players.iter().map(|p| p.score).sum();
        assert_eq!(sum, Q::ZERO, "{id} seed {seed}: scores do not sum to zero\n{}", v.to_text());
    }
    if let Some((total, slack)) = total {
        let sum: Q = o.players.iter().map(|p| p.card_points).sum();
        assert!((sum - Q::int(total)).abs() <= Q::int(slack), "{id} seed {seed}: card points total {sum}\n{}", v.to_text());
    }
}

fn illegal_card_is_caught_where_it_is(table: usize, seed: u64) {
    let (id, n, _) = TABLES[table];
    let rules = registry().get(id).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rec = random_game(rules, n, &BTreeMap::new(), &mut rng).unwrap();
    let Some((bad, at)) = illegal_variant(rules, &rec, &mut rng) else { return };
    let v = replay(rules, &bad).unwrap();
    assert_eq!(v.status, Status::Invalid, "{id} seed {seed}");
    let violation = v.violation.unwrap();
    assert_eq!(violation.event, at, "{id} seed {seed}: {}", violation.message);
    assert!(violation.rule.starts_with("play.") || violation.rule.starts_with("fool"), "{}", violation.rule);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn simulated_games_replay_valid_balanced_and_whole(table in 0..TABLES.len(), seed in any::<u64>()) {
        whole_games(table, seed);
    }

    #[test]
    fn an_illegal_card_is_caught_at_its_event(table in 0..TABLES.len(), seed in any::<u64>()) {
        illegal_card_is_caught_where_it_is(table, seed);
    }

    /// The Marolles packets (and Basic's groups) against the per-card thirds: a counter is worth its
    /// value less 2/3, an empty card 1/3, and the pile's total is that sum rounded.
    #[test]
    fn packet_counting_is_the_rounded_sum_of_thirds(cards in proptest::collection::btree_set(0u8..78, 0..40)) {
        let rules = registry().get("marolles-1637").unwrap();
        let pile: CardSet = cards.iter().map(|&c| Card(c)).filter(|c| rules.pack.cards.contains(*c)).collect();
        let counters: Vec<i64> = pile.iter().map(|c| rules.counting.values[c.0 as usize] as i64).filter(|&v| v > 0).collect();
        let empties = pile.len() as i64 - counters.len() as i64;
        let thirds: Q = counters.iter().map(|&v| Q::new(3 * v - 2, 3)).sum::<Q>() + Q::new(empties, 3);
        prop_assert_eq!(Q::int(count_packets(&counters, empties, 3)), thirds.round());
        prop_assert_eq!(count_points(&rules.counting, pile, 0), thirds.round());
    }
}

#[test]
fn pack_totals() {
    for (id, total) in [("fft-4p", 91), ("marolles-1637", 74), ("basic", 78)] {
        let rules = registry().get(id).unwrap();
        assert_eq!(count_points(&rules.counting, rules.pack.cards, 0), Q::int(total), "{id}");
    }
}
