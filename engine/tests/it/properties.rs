//! Properties of every ruleset over simulated games: a simulated game replays as valid; payments sum
//! to zero; the card points of a whole game total the pack's value; an illegal card put in place of
//! one play is caught at exactly that event; packet counting equals the rounded sum of per-card
//! thirds. The first two hold of games steered to the rare cases too, and steering to a contract wins it.

use std::collections::BTreeMap;
use tarot_testkit::registry;

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Surplus;
use tarot_engine::testing::{count_packets, count_points};
use tarot_engine::Q;
use tarot_engine::{illegal_variant, random_game_with, SimOptions};
use tarot_engine::{replay, Status};
use tarot_engine::{Card, CardSet};

/// Every ruleset at every table size it allows, with how far the players' card points may stray from
/// the pack's total: not at all where points are counted exactly (French Tarot's halves) or where the
/// source says so (Basic Tarot with 3 or 6 players: 78); by one where each pile is counted in packets
/// and rounded (Marolles: every pile starts with a discard of one or four cards, so the rounded piles
/// add up to 73, 74 or 75 while the pack is worth 74); not checked where cards are left out of play.
fn tables() -> Vec<(String, usize, Option<i64>)> {
    let mut out = vec![];
    for r in registry().all() {
        for n in r.players.0..=r.players.1 {
            // Some sizes in the range cannot sit (partners need an even number).
            if tarot_engine::Setup::new(r, n, &BTreeMap::new()).is_err() {
                continue;
            }
            let slack = match (r.counting.surplus, r.id.as_str(), n) {
                (_, "basic", 3 | 6) => Some(0),
                (Surplus::Exact, ..) => Some(0),
                (Surplus::Packets, ..) => Some(1),
                _ => None,
            };
            out.push((r.id.clone(), n, slack));
        }
    }
    out
}

fn whole_games(table: usize, seed: u64, sim: &SimOptions) {
    let (id, n, slack) = tables()[table % tables().len()].clone();
    let rules = registry().get(&id).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rec = random_game_with(rules, n, &BTreeMap::new(), sim, &mut rng).unwrap();
    let v = replay(rules, &rec).unwrap();
    assert_eq!(String::from_utf8(v.to_json()).unwrap(), serde_json::to_string(&v).unwrap(), "{id} seed {seed}: the hand-written JSON");
    if v.status == Status::Annulled {
        return;
    }
    assert_eq!(v.status, Status::Valid, "{id} seed {seed}: {}", v.to_text());
    let o = v.outcome.as_ref().unwrap();
    // Every payment is paid by someone and received by someone: scores balance, the pots' takings
    // counted as an account of their own (players + pots = 0).
    if !rules.score.pays.is_empty() {
        let sum: Q = o.players.iter().map(|p| p.score).sum::<Q>() + o.pots.iter().map(|p| p.closing - p.carried).sum::<Q>();
        assert_eq!(sum, Q::ZERO, "{id} seed {seed}: scores and pots do not sum to zero\n{}", v.to_text());
    }
    assert_eq!(o.pots.len(), rules.pots.len(), "{id} seed {seed}: every pot is in the verdict");
    // Carried into the deal with something in them, the pots still balance with the players, and
    // each closes at what it carried plus what it took.
    if !rules.pots.is_empty() {
        let mut carried = rec.clone();
        for (i, p) in rules.pots.iter().enumerate() {
            carried.pots.insert(p.name.to_string(), (seed % 97) as i64 + 10 * i as i64);
        }
        let w = replay(rules, &carried).unwrap();
        assert_eq!(w.status, Status::Valid, "{id} seed {seed}: {}", w.to_text());
        let o = w.outcome.as_ref().unwrap();
        let took: Q = o.pots.iter().map(|p| p.closing - p.carried).sum();
        assert_eq!(o.players.iter().map(|p| p.score).sum::<Q>() + took, Q::ZERO, "{id} seed {seed}: carried pots\n{}", w.to_text());
        for (i, p) in o.pots.iter().enumerate() {
            assert_eq!(p.carried, Q::int((seed % 97) as i64 + 10 * i as i64), "{id} seed {seed}");
        }
    }
    // Cards set aside (a dog nobody takes, as in a game without bidding or a contract played with no
    // taker, each for himself) are out of play; otherwise every card ends in a pile.
    let out_of_play = (rules.bidding.is_none() || o.taker.is_none()) && rules.deal.dog.is_some();
    // A deal settled at the auction (`settle`) plays no card: nothing is counted.
    let unplayed = v.tricks.is_empty() && rules.bidding.as_ref().is_some_and(|b| b.contracts.iter().any(|c| c.settle.is_some()));
    if let (Some(slack), false, false) = (slack, out_of_play, unplayed) {
        // The pack's total with the counters of the game's options (`counter V = if option...`).
        let setup = tarot_engine::Setup::new(rules, n, &BTreeMap::new()).unwrap();
        let total = count_points(setup.counting(), rules.pack.cards, 0);
        // Fixed partners counted in packets or rounded are each given their side's count: each side
        // is counted once (partners sit opposite, so the first half of the table has one of each).
        let c = &rules.counting;
        let per_side = rules.sides == tarot_engine::ir::Sides::Partners && !(c.empty_zero || c.surplus == tarot_engine::ir::Surplus::Exact);
        let counted = if per_side { o.players.len() / 2 } else { o.players.len() };
        let sum: Q = o.players.iter().take(counted).map(|p| p.card_points).sum();
        // Play ended when the contract was decided (`end`, a Bettel's declarer taking a trick): the
        // cards still held are counted for nobody, so the piles hold less than the pack, never more.
        let ended = !rules.play.ends.is_empty() && v.notes.iter().any(|n| n.contains("cards still held are not played"));
        if ended {
            assert!(sum <= total + Q::int(slack) && sum >= Q::ZERO, "{id} seed {seed}: card points total {sum}, pack {total}\n{}", v.to_text());
        } else {
            assert!((sum - total).abs() <= Q::int(slack), "{id} seed {seed}: card points total {sum}, pack {total}\n{}", v.to_text());
        }
    }
}

fn illegal_card_is_caught_where_it_is(table: usize, seed: u64, sim: &SimOptions) {
    let (id, n, _) = tables()[table % tables().len()].clone();
    let rules = registry().get(&id).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rec = random_game_with(rules, n, &BTreeMap::new(), sim, &mut rng).unwrap();
    let Some((bad, at)) = illegal_variant(rules, &rec, &mut rng) else { return };
    let v = replay(rules, &bad).unwrap();
    assert_eq!(String::from_utf8(v.to_json()).unwrap(), serde_json::to_string(&v).unwrap(), "{id} seed {seed}: the hand-written JSON");
    // The bad card is one the rules refuse: `illegal_variant` skips the cards whose play the rules
    // make a fault paid (`play { fault ... }`), which are not refused.
    assert!(!v.ledger.iter().any(|l| l.rule.starts_with("play.fault.") && l.event == Some(at)), "{id} seed {seed}: the bad card at event {at} is a paid fault");
    assert_eq!(v.status, Status::Invalid, "{id} seed {seed}");
    let violation = v.violation.unwrap();
    assert_eq!(violation.event, at, "{id} seed {seed}: {}", violation.message);
    // A trick obligation, the Fool's lead, the called suit's opening lead, or a card kept for a
    // declaration (an announced Ultimo's Pagat).
    assert!(
        ["play.", "fool", "call.opening-lead"].iter().any(|r| violation.rule.starts_with(r)) || (violation.rule.starts_with("declaration.") && violation.rule.ends_with(".keeps")),
        "{}",
        violation.rule
    );
}

/// The seed proptest draws the cases from, unless `PROPTEST_RNG_SEED` gives another.
const SEED: u64 = 20_260_101;

/// proptest's settings for these properties: `cases` cases, drawn from a fixed seed so that every run
/// tries the same cases and a failure found once is found again (and shrunk, and kept in
/// `proptest-regressions/`); `PROPTEST_RNG_SEED=N` draws another sequence.
pub(crate) fn config(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    let rng_seed = match default.rng_seed {
        RngSeed::Random => RngSeed::Fixed(SEED),
        chosen => chosen,
    };
    ProptestConfig { cases, rng_seed, ..default }
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn simulated_games_replay_valid_balanced_and_whole(table in 0..128usize, seed in any::<u64>()) {
        whole_games(table, seed, &SimOptions::default());
    }

    #[test]
    fn an_illegal_card_is_caught_at_its_event(table in 0..128usize, seed in any::<u64>()) {
        illegal_card_is_caught_where_it_is(table, seed, &SimOptions::default());
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
        prop_assert_eq!(Q::int(count_packets(&counters, empties, 3, tarot_engine::ir::ShortPacket::OverHalf)), thirds.round());
        prop_assert_eq!(count_points(&rules.counting, pile, 0), thirds.round());
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// The same over games steered to the rare cases (every contract, strong hands, chelems, the Fool
    /// and the lowest trump held back): the steering only chooses among the interpreter's legal moves.
    #[test]
    fn steered_games_replay_valid_balanced_and_whole(table in 0..128usize, seed in any::<u64>()) {
        whole_games(table, seed, &SimOptions::steered());
    }

    #[test]
    fn an_illegal_card_is_caught_at_its_event_in_steered_games(table in 0..128usize, seed in any::<u64>()) {
        illegal_card_is_caught_where_it_is(table, seed, &SimOptions::steered());
    }
}

/// Steering to one contract gives that contract, in every ruleset that bids, or says there is no such
/// contract. A contract that only a choice of an option opens (the Ministranten's Geregelter Räuber,
/// under `geregelter_rauber`) is steered to with the options at their defaults, then with each other
/// choice of one option in turn, and one of them must win it.
#[test]
fn steering_to_one_contract_wins_it() {
    for r in registry().all() {
        let Some(bidding) = &r.bidding else { continue };
        let n = r.players.0.max(3).min(r.players.1);
        if tarot_engine::Setup::new(r, n, &BTreeMap::new()).is_err() {
            continue;
        }
        let mut choices = vec![BTreeMap::new()];
        for o in &r.options {
            choices.extend(o.choices.iter().filter(|c| **c != o.default).map(|c| BTreeMap::from([(o.name.clone(), c.to_json())])));
        }
        for (i, c) in bidding.contracts.iter().enumerate() {
            // The contract played each for himself when all pass and the rules name nobody to play
            // another (`all-pass play CONTRACT by`): steering reaches all passing, and the deal decides.
            let after_names = bidding.all_pass_play == Some(i) && !bidding.all_pass_by.is_empty();
            let sim = SimOptions { contract: tarot_engine::ContractChoice::Only(c.name.clone()), ..SimOptions::default() };
            let wins = |options: &BTreeMap<String, serde_json::Value>| {
                let mut won = 0;
                for seed in 0..20 {
                    let rec = random_game_with(r, n, options, &sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
                    let v = replay(r, &rec).unwrap();
                    let passed = rec.events.iter().all(|e| !matches!(e, tarot_engine::Event::Bid { bid, .. } if bid.as_str() != "pass"));
                    if v.status == Status::Valid && (v.outcome.as_ref().and_then(|o| o.contract.as_deref()) == Some(c.name.as_str()) || after_names && passed) {
                        won += 1;
                    }
                }
                won
            };
            let won = choices.iter().filter(|o| tarot_engine::Setup::new(r, n, *o).is_ok()).map(wins).find(|&w| w >= 10).unwrap_or_else(|| wins(&BTreeMap::new()));
            assert!(won >= 10, "{}: {} won {won} of 20 steered games, under the options' defaults and every other choice of each", r.id, c.name);
        }
        let sim = SimOptions { contract: tarot_engine::ContractChoice::Only("no-such".into()), ..SimOptions::default() };
        let err = random_game_with(r, n, &BTreeMap::new(), &sim, &mut ChaCha8Rng::seed_from_u64(0)).unwrap_err();
        assert!(err.contains("no contract `no-such`"), "{err}");
    }
}

/// Every ruleset at every table, with no option given, then each option at each of its other choices
/// in turn (the others at their defaults), where the table can sit with it.
pub(crate) fn option_tables() -> Vec<(String, usize, BTreeMap<String, serde_json::Value>)> {
    let mut out = vec![];
    for (id, n, _) in tables() {
        let r = registry().get(&id).unwrap();
        out.push((id.clone(), n, BTreeMap::new()));
        for o in &r.options {
            for c in o.choices.iter().filter(|c| **c != o.default) {
                let options = BTreeMap::from([(o.name.clone(), c.to_json())]);
                if tarot_engine::Setup::new(r, n, &options).is_ok() {
                    out.push((id.clone(), n, options));
                }
            }
        }
    }
    out
}

/// A game simulated with options (one choice of one option), as a deal of a match under way or not
/// (`SimOptions::carry`): it replays valid (or annulled), whatever its `deal { require }` asks of the
/// standing it carries; what it carries is a match's: each pot 0 or more, the standings summing to
/// nothing, nothing at all where the ruleset keeps no pots and reads no standing.
fn games_with_options(i: usize, seed: u64, carry: bool) {
    let all = option_tables();
    let (id, n, options) = all[i % all.len()].clone();
    let rules = registry().get(&id).unwrap();
    let sim = SimOptions { carry, ..SimOptions::default() };
    let rec = random_game_with(rules, n, &options, &sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap_or_else(|e| panic!("{id} {options:?} seed {seed}: {e}"));
    let v = replay(rules, &rec).unwrap();
    assert!(matches!(v.status, Status::Valid | Status::Annulled), "{id} {options:?} seed {seed}: {}", v.to_text());
    assert!(rec.pots.values().all(|p| *p >= 0), "{id}: {:?}", rec.pots);
    assert_eq!(rec.standing.values().sum::<i64>(), 0, "{id}: {:?}", rec.standing);
    if !rules.reads_standing {
        assert!(rec.standing.is_empty(), "{id}: {:?}", rec.standing);
    }
    if rules.pots.is_empty() {
        assert!(rec.pots.is_empty(), "{id}: {:?}", rec.pots);
    }
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn games_with_each_option_choice_replay_valid(i in 0..448usize, seed in any::<u64>(), carry in any::<bool>()) {
        games_with_options(i, seed, carry);
    }
}

/// Each choice of each option of each table is drawn by the property above, and every one is tried
/// once here, as a first deal and as one of a match under way.
#[test]
fn every_option_choice_is_covered_and_simulated_valid() {
    let all = option_tables();
    assert!(all.len() <= 448, "{} tables with options", all.len());
    for i in 0..all.len() {
        for carry in [false, true] {
            games_with_options(i, i as u64, carry);
        }
    }
}

/// Troccas with `asked = "yes"` (a side owing nine or more asked for the cards nine and ten): the
/// deal's `require` reads the standing the record carries, so the simulator writes one in which the
/// dealer's or first hand's side owes nine or more, partners carrying alike; every game replays valid.
#[test]
fn troccas_asked_games_carry_a_debt_of_nine_or_more() {
    let rules = registry().get("troccas").unwrap();
    let options = BTreeMap::from([("asked".to_string(), serde_json::json!("yes"))]);
    for seed in 0..30 {
        let rec = random_game_with(rules, 4, &options, &SimOptions::default(), &mut ChaCha8Rng::seed_from_u64(seed)).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let v = replay(rules, &rec).unwrap();
        assert!(matches!(v.status, Status::Valid | Status::Annulled), "seed {seed}: {}", v.to_text());
        let at = |k: usize| rec.standing[&rec.players[k]];
        assert_eq!((at(0), at(1)), (at(2), at(3)), "partners opposite carry alike: {:?}", rec.standing);
        assert!(at(0) <= -9 || at(1) <= -9, "seed {seed}: nobody owes nine: {:?}", rec.standing);
    }
    // Without the option a deal is a table's first: it carries nothing.
    let rec = random_game_with(rules, 4, &BTreeMap::new(), &SimOptions::default(), &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
    assert!(rec.standing.is_empty() && rec.pots.is_empty());
}

#[test]
fn every_table_of_every_ruleset_is_covered() {
    // The property tests pick a table by index modulo the number of tables; check there are fewer
    // tables than indexes, so that each is drawn.
    assert!(tables().len() <= 128, "{} tables", tables().len());
}

#[test]
fn pack_totals() {
    for (id, total) in [
        ("fft-4p", 91),
        ("marolles-1637", 74),
        ("basic", 78),
        ("marolles-78", 78),
        ("troccas", 72),
        ("grosstarock", 78),
        ("tapp-tarock", 70),
        ("point-tarock", 70),
        ("tapp-tarock-1821-42", 66),
        ("tarocchini", 87),
        ("galician-tarok", 94),
        ("minchiate", 142),
        ("droggn", 74),
        ("scarto", 77),
        ("troggu", 114),
        ("cego", 70),
        ("koenigrufen", 70),
        ("dreierles", 70),
    ] {
        let rules = registry().get(id).unwrap();
        // With the options' defaults (Scarto's 5-point trump follows an option).
        let setup = tarot_engine::Setup::new(rules, rules.players.0, &BTreeMap::new()).unwrap();
        assert_eq!(count_points(setup.counting(), rules.pack.cards, 0), Q::int(total), "{id}");
    }
}

/// Every ruleset with a declaration made right after the deal (`when after-deal`), each of its tables,
/// simulated uniform and steered as deals of a match near its end (`SimOptions::match_end`), where such
/// a declaration can be lawful: every game replays valid (or annulled), and the declaration, where made,
/// is made right after the deal.
#[test]
fn declarations_right_after_the_deal_are_simulated_valid() {
    let mut rulesets = 0;
    for rules in registry().all().filter(|r| r.declarations.iter().any(|d| d.when == tarot_engine::ir::When::AfterDeal)) {
        rulesets += 1;
        let names: Vec<&str> = rules.declarations.iter().filter(|d| d.when == tarot_engine::ir::When::AfterDeal).map(|d| d.name.as_str()).collect();
        for n in rules.players.0..=rules.players.1 {
            for (k, sim) in [SimOptions::default(), SimOptions::steered()].into_iter().enumerate() {
                let sim = SimOptions { match_end: 1.0, ..sim };
                let mut rng = ChaCha8Rng::seed_from_u64(11 + k as u64);
                for _ in 0..20 {
                    let rec = random_game_with(rules, n, &BTreeMap::new(), &sim, &mut rng).unwrap_or_else(|e| panic!("{} at {n}: {e}", rules.id));
                    let v = replay(rules, &rec).unwrap();
                    assert!(matches!(v.status, Status::Valid | Status::Annulled), "{} at {n}: {}", rules.id, v.to_text());
                    for (i, e) in rec.events.iter().enumerate() {
                        if let tarot_engine::Event::Declare { declaration, .. } = e {
                            if names.contains(&&**declaration) {
                                assert!(rec.events[1..i].iter().all(|e| matches!(e, tarot_engine::Event::Declare { .. })), "{}: {declaration} at event {i}", rules.id);
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(rulesets > 0, "no ruleset declares right after the deal");
}
