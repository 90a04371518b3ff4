//! Who deals next (`deal { next_dealer; next_dealer_annulled }`), checked across a table's deals by
//! `matches::next_follows` (a deal offered as a session's next) and `matches::dealer_follows` (a
//! session's deals as stored): the deal passing to first hand in the direction of play (the FFT, "La
//! distribution"), the same dealer again after an annulled deal (the FFT's table of five with a mort),
//! the taker of a deal dealing the next (Droggn, P "Deal"). The deals are simulated, each dealt by the
//! player a test asks for.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{dealer_follows, next_follows, random_game, replay, GameRecord, Gap, Mismatch, Played, Registry, Status, Verdict};

type Options = BTreeMap<String, serde_json::Value>;

/// A simulated deal of `rules` at a table of `n` (Ann, Bob, Cid, ... in the order of the record),
/// dealt by `dealer`, whose verdict is `status`.
fn dealt_by(rules: &Ruleset, n: usize, options: &Options, dealer: &str, status: Status, rng: &mut ChaCha8Rng) -> (GameRecord, Verdict) {
    for _ in 0..20_000 {
        let rec = random_game(rules, n, options, rng).unwrap();
        if rec.dealer != dealer {
            continue;
        }
        let v = replay(rules, &rec).unwrap();
        if v.status == status {
            return (rec, v);
        }
    }
    panic!("{}: no {status:?} deal dealt by {dealer} in 20,000 tries", rules.id);
}

fn pairs<'a>(rules: &'a Ruleset, deals: &'a [(GameRecord, Verdict)]) -> Vec<Played<'a>> {
    deals.iter().map(|(r, v)| (rules, r, v)).collect()
}

/// Whether `next` may follow `deals` as the rules say who deals next: the mismatch, if not.
fn follows(rules: &Ruleset, deals: &[(GameRecord, Verdict)], next: &GameRecord) -> Result<(), Mismatch> {
    next_follows(&pairs(rules, deals), rules, next)
}

fn dealer_gap(m: &Mismatch) -> (usize, &str, &str) {
    match &m.gap {
        Gap::Dealer { dealer, due } => (m.deal, dealer.as_str(), due.as_str()),
        other => panic!("not the dealer: {other:?}"),
    }
}

/// FFT: the players deal in turn in the direction of play (anticlockwise: the record's order). A
/// session of five deals dealt so follows; the third dealt by Dan, where Cid was due, does not, and
/// the refusal names the deal, the dealer, the player due and the rule with its source.
#[test]
fn the_deal_passes_to_first_hand() {
    let r = Registry::builtin().unwrap();
    let rules = r.get("fft-4p").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let none = Options::new();
    let turn = ["Ann", "Bob", "Cid", "Dan", "Ann"];
    let session: Vec<(GameRecord, Verdict)> = turn.iter().map(|d| dealt_by(rules, 4, &none, d, Status::Valid, &mut rng)).collect();
    assert_eq!(dealer_follows(&pairs(rules, &session)), Ok(()));
    for k in 1..session.len() {
        assert_eq!(follows(rules, &session[..k], &session[k].0), Ok(()), "deal {}", k + 1);
    }
    let wrong = dealt_by(rules, 4, &none, "Dan", Status::Valid, &mut rng);
    let m = follows(rules, &session[..2], &wrong.0).unwrap_err();
    assert_eq!(dealer_gap(&m), (3, "Dan", "Cid"));
    assert_eq!(
        m.message,
        r#"deal 3 is dealt by Dan, but Cid was due to deal it: after deal 2, the deal passes from Bob to the next player in the direction of play (rule deal.next_dealer, source FFT "La distribution")"#
    );
    // The same session as stored says so of its first deal out of turn.
    let mut stored = session.clone();
    stored[2] = wrong;
    assert_eq!(dealer_follows(&pairs(rules, &stored)), Err(m.message));
    // Any player may deal a session's first deal.
    assert_eq!(follows(rules, &[], &stored[2].0), Ok(()));
}

/// FFT: after a deal annulled (four passes, a petit sec) the dealer's right-hand neighbour deals, as
/// after any other: the same dealer again is refused.
#[test]
fn after_an_annulled_deal_first_hand_deals_too() {
    let r = Registry::builtin().unwrap();
    let rules = r.get("fft-4p").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    let none = Options::new();
    let annulled = vec![dealt_by(rules, 4, &none, "Bob", Status::Annulled, &mut rng)];
    let next = dealt_by(rules, 4, &none, "Cid", Status::Valid, &mut rng);
    assert_eq!(follows(rules, &annulled, &next.0), Ok(()));
    let again = dealt_by(rules, 4, &none, "Bob", Status::Valid, &mut rng);
    let m = follows(rules, &annulled, &again.0).unwrap_err();
    assert_eq!(dealer_gap(&m), (2, "Bob", "Cid"));
    assert!(m.message.contains("deal 1 was annulled, and the deal passes from Bob to the next player in the direction of play (rule deal.next_dealer,"), "{}", m.message);
}

/// FFT's table of five with a mort: the mort deals again while nobody takes (`next_dealer_annulled =
/// "dealer"`), and after a deal played the mort's turn passes on round the whole table, he included.
#[test]
fn the_mort_deals_again_while_nobody_takes() {
    let r = Registry::builtin().unwrap();
    let rules = r.get("fft-5p-mort").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    let none = Options::new();
    let annulled = vec![dealt_by(rules, 5, &none, "Eve", Status::Annulled, &mut rng)];
    let again = dealt_by(rules, 5, &none, "Eve", Status::Valid, &mut rng);
    assert_eq!(follows(rules, &annulled, &again.0), Ok(()));
    let on = dealt_by(rules, 5, &none, "Ann", Status::Valid, &mut rng);
    let m = follows(rules, &annulled, &on.0).unwrap_err();
    assert_eq!(dealer_gap(&m), (2, "Ann", "Eve"));
    assert_eq!(
        m.message,
        r#"deal 2 is dealt by Ann, but Eve was due to deal it: deal 1 was annulled, and its dealer, Eve, deals again (rule deal.next_dealer_annulled, source FFT "LE JEU A 5 JOUEURS")"#
    );
    // A deal played: the next player of the table of five deals, Eve's right-hand neighbour Ann.
    let played = vec![again];
    assert_eq!(follows(rules, &played, &on.0), Ok(()));
    assert_eq!(dealer_gap(&follows(rules, &played, &annulled[0].0).unwrap_err()), (2, "Eve", "Ann"));
    // Four deals: annulled (Eve), Eve again, played; then Ann; then Bob.
    let bob = dealt_by(rules, 5, &none, "Bob", Status::Valid, &mut rng);
    let session = vec![annulled[0].clone(), played[0].clone(), on, bob];
    assert_eq!(dealer_follows(&pairs(rules, &session)), Ok(()));
}

/// Droggn: the deal does not go round; the declarer of a deal deals the next, and after a deal thrown
/// in (all passed) the same player deals again. Play is clockwise there, which changes neither.
#[test]
fn the_taker_deals_next() {
    let r = Registry::builtin().unwrap();
    let rules = r.get("droggn").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let none = Options::new();
    let first = dealt_by(rules, 3, &none, "Ann", Status::Valid, &mut rng);
    let taker = first.1.outcome.as_ref().unwrap().taker.as_deref().unwrap().to_string();
    let by_taker = dealt_by(rules, 3, &none, &taker, Status::Valid, &mut rng);
    assert_eq!(follows(rules, std::slice::from_ref(&first), &by_taker.0), Ok(()));
    let other = ["Ann", "Bob", "Cid"].into_iter().find(|p| *p != taker).unwrap();
    let wrong = dealt_by(rules, 3, &none, other, Status::Valid, &mut rng);
    let m = follows(rules, std::slice::from_ref(&first), &wrong.0).unwrap_err();
    assert_eq!(dealer_gap(&m), (2, other, taker.as_str()));
    assert_eq!(
        m.message,
        format!(r#"deal 2 is dealt by {other}, but {taker} was due to deal it: after deal 1, its taker, {taker}, deals next (rule deal.next_dealer, source P "Deal")"#)
    );
    // All passed: the same player deals again, not the taker of the deal before that.
    let thrown_in = dealt_by(rules, 3, &none, &taker, Status::Annulled, &mut rng);
    let again = dealt_by(rules, 3, &none, &taker, Status::Valid, &mut rng);
    let session = vec![first, thrown_in, again];
    assert_eq!(dealer_follows(&pairs(rules, &session)), Ok(()));
    let m = follows(rules, &session[..2], &wrong.0).unwrap_err();
    assert!(m.message.contains(&format!("deal 2 was annulled, and its dealer, {taker}, deals again (rule deal.next_dealer_annulled, source P \"Bidding\")")), "{}", m.message);
}

/// First hand follows the direction of play, which an option may choose (Basic Tarot's `direction`),
/// and `next_dealer` may itself follow an option, as any word setting.
#[test]
fn first_hand_is_the_next_player_in_the_direction_of_play() {
    let text = "ruleset basic-turns \"Basic Tarot, the deal in turn\"\nextends basic\n\
                option next \"Who deals next\" = [\"first-hand\", \"dealer\"]\n\
                deal {\n  next_dealer = option.next\n}\n";
    let r = common::registry_with("basic-turns", text);
    let rules = r.get("basic-turns").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    let with = |pairs: &[(&str, &str)]| -> Options { pairs.iter().map(|(k, v)| (k.to_string(), serde_json::json!(v))).collect() };
    for (options, due) in [(with(&[]), "Bob"), (with(&[("direction", "clockwise")]), "Dan"), (with(&[("next", "dealer")]), "Ann")] {
        let first = vec![dealt_by(rules, 4, &options, "Ann", Status::Valid, &mut rng)];
        for dealer in ["Ann", "Bob", "Cid", "Dan"] {
            let next = dealt_by(rules, 4, &options, dealer, Status::Valid, &mut rng);
            match follows(rules, &first, &next.0) {
                Ok(()) => assert_eq!(dealer, due, "{options:?}"),
                Err(m) => assert_eq!(dealer_gap(&m), (2, dealer, due), "{options:?}"),
            }
        }
    }
}

/// Where the rules say nothing, any player may deal: a ruleset without `next_dealer` (Basic Tarot),
/// and after a deal that stopped on a broken rule or is not finished.
#[test]
fn nobody_is_due_where_the_rules_say_nothing() {
    let r = Registry::builtin().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    let none = Options::new();
    let basic = r.get("basic").unwrap();
    let first = vec![dealt_by(basic, 4, &none, "Ann", Status::Valid, &mut rng)];
    for dealer in ["Ann", "Bob", "Cid", "Dan"] {
        assert_eq!(follows(basic, &first, &dealt_by(basic, 4, &none, dealer, Status::Valid, &mut rng).0), Ok(()));
    }
    let rules = r.get("fft-4p").unwrap();
    let (mut rec, _) = dealt_by(rules, 4, &none, "Ann", Status::Valid, &mut rng);
    let plays = rec.events.iter().filter(|e| matches!(e, tarot_engine::Event::Play { .. })).count();
    rec.events.truncate(rec.events.len() - plays / 2);
    let unfinished = replay(rules, &rec).unwrap();
    assert_eq!(unfinished.status, Status::InProgress);
    let (bad, _) = tarot_engine::illegal_variant(rules, &dealt_by(rules, 4, &none, "Ann", Status::Valid, &mut rng).0, &mut rng).expect("a card played against the rules");
    let invalid = replay(rules, &bad).unwrap();
    assert_eq!(invalid.status, Status::Invalid);
    for before in [(rec, unfinished), (bad, invalid)] {
        let next = dealt_by(rules, 4, &none, "Ann", Status::Valid, &mut rng);
        assert_eq!(follows(rules, &[before], &next.0), Ok(()));
    }
}

/// Grächen (`troggu-graechen`, P "Variations": "if everyone passes the deal passes to the next
/// dealer"): a deal all pass is annulled, and the player to the dealer's right deals the next; the
/// same dealer again is refused under `deal.next_dealer_annulled`.
#[test]
fn in_graechen_a_deal_all_pass_passes_to_the_next_dealer() {
    let r = Registry::builtin().unwrap();
    let rules = r.get("troggu-graechen").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let none = Options::new();
    let annulled = vec![dealt_by(rules, 4, &none, "Bob", Status::Annulled, &mut rng)];
    assert_eq!(annulled[0].1.annulled.as_ref().map(|a| a.rule.to_string()).as_deref(), Some("bidding.all-pass"));
    let next = dealt_by(rules, 4, &none, "Cid", Status::Valid, &mut rng);
    assert_eq!(follows(rules, &annulled, &next.0), Ok(()));
    let again = dealt_by(rules, 4, &none, "Bob", Status::Valid, &mut rng);
    let m = follows(rules, &annulled, &again.0).unwrap_err();
    assert_eq!(dealer_gap(&m), (2, "Bob", "Cid"));
    assert!(m.message.contains("(rule deal.next_dealer_annulled, source P \"Variations\")"), "{}", m.message);
}

/// Dobbm (P "Bidding"): a deal thrown in is dealt again by the same player at four, and passes to the
/// left at five, where the dealer sits out: `next_dealer_annulled = if table_size == 5 then "first-hand"
/// else "dealer"`, `table_size` counting the dealer who sits out (`players` counts four at both tables).
/// Play goes clockwise, so the dealer's left is the player before him in the record's list.
#[test]
fn in_dobbm_a_deal_thrown_in_is_dealt_again_at_four_and_passes_left_at_five() {
    let r = Registry::builtin().unwrap();
    let rules = r.get("dobbm").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    let none = Options::new();
    let annulled = vec![dealt_by(rules, 4, &none, "Bob", Status::Annulled, &mut rng)];
    let again = dealt_by(rules, 4, &none, "Bob", Status::Valid, &mut rng);
    assert_eq!(follows(rules, &annulled, &again.0), Ok(()));
    let left = dealt_by(rules, 4, &none, "Ann", Status::Valid, &mut rng);
    let m = follows(rules, &annulled, &left.0).unwrap_err();
    assert_eq!(dealer_gap(&m), (2, "Ann", "Bob"));
    let annulled = vec![dealt_by(rules, 5, &none, "Bob", Status::Annulled, &mut rng)];
    let left = dealt_by(rules, 5, &none, "Ann", Status::Valid, &mut rng);
    assert_eq!(follows(rules, &annulled, &left.0), Ok(()));
    let again = dealt_by(rules, 5, &none, "Bob", Status::Valid, &mut rng);
    let m = follows(rules, &annulled, &again.0).unwrap_err();
    assert_eq!(dealer_gap(&m), (2, "Bob", "Ann"));
    assert!(m.message.contains("(rule deal.next_dealer_annulled, source P \"Bidding\")"), "{}", m.message);
}
