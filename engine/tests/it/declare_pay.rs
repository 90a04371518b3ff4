//! A declaration's payments between any players (`pay PAYERS to PAYEES = amount` in a declaration),
//! checked by replay on `tests/rules/declare-pay.tarot` (Tapp Tarock's Three, whose declarer may have
//! the hands dealt counted: whoever was dealt the most trumps pays each other player): each payment is
//! in the ledger under `declaration.count_call.pay`, worked out on every hand as dealt, and counts in
//! the score; the compiler refuses a payment it could never make.

use crate::common;

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::{random_game_with, replay, Card, ContractChoice, Event, SimOptions, Status, Q};

const ID: &str = "declare-pay";

fn rules() -> Ruleset {
    common::rules(ID, &[ID])
}

fn refused(find: &str, replace: &str) -> String {
    common::test_rules(ID, Some((find, replace))).expect_err("refused")
}

#[test]
fn the_count_is_paid_by_the_hands_dealt() {
    let rules = rules();
    let sim = SimOptions { contract: ContractChoice::Only("three".into()), announce: 1.0, ..SimOptions::steered() };
    let mut made = 0;
    for seed in 0..30u64 {
        let g = random_game_with(&rules, 3, &BTreeMap::new(), &sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        let Some(declarer) = g.events.iter().find_map(|e| match e {
            Event::Declare { player, declaration, .. } if &**declaration == "count_call" => Some(player.to_string()),
            _ => None,
        }) else {
            continue;
        };
        made += 1;
        let Some(Event::Deal { hands, .. }) = g.events.first() else { panic!("a deal first") };
        let trumps = |p: &str| hands[p].iter().filter(|c| Card::parse(c).is_some_and(|c| c.is_trump() || c.is_fool())).count();
        let most = g.players.iter().map(|p| trumps(p)).max().unwrap();
        let v = replay(&rules, &g).unwrap();
        assert_eq!(v.status, Status::Valid, "{:?}", v.violation);
        // Each player dealt the most trumps pays each other player: 3 if he is the declarer, else 2.
        let mut want: Vec<(String, String, Q)> = vec![];
        for a in g.players.iter().filter(|p| trumps(p) == most) {
            for b in g.players.iter().filter(|b| *b != a) {
                want.push((a.to_string(), b.to_string(), Q::int(if **a == *declarer { 3 } else { 2 })));
            }
        }
        let mut got: Vec<(String, String, Q)> = v
            .ledger
            .iter()
            .filter(|l| &*l.rule == "declaration.count_call.pay")
            .map(|l| (l.from.as_deref().unwrap().to_string(), l.to.as_deref().unwrap().to_string(), l.amount))
            .collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "seed {seed}");
        assert!(v.ledger.iter().filter(|l| &*l.rule == "declaration.count_call.pay").all(|l| &*l.label == "the most trumps dealt"));
        // The payments count in each player's score, with the game's own.
        let o = v.outcome.as_ref().unwrap();
        let balance = |p: &str| {
            v.ledger
                .iter()
                .filter(|l| l.from.is_some())
                .map(|l| {
                    if l.to.as_deref() == Some(p) {
                        l.amount
                    } else if l.from.as_deref() == Some(p) {
                        -l.amount
                    } else {
                        Q::ZERO
                    }
                })
                .fold(Q::ZERO, |a, b| a + b)
        };
        for p in &o.players {
            assert_eq!(p.score, balance(&p.player), "{}", p.player);
        }
        // Without the declaration, no such payment.
        let mut without = g.clone();
        without.events.retain(|e| !matches!(e, Event::Declare { declaration, .. } if &**declaration == "count_call"));
        let w = replay(&rules, &without).unwrap();
        assert!(w.ledger.iter().all(|l| &*l.rule != "declaration.count_call.pay"));
    }
    assert!(made >= 10, "{made}");
}

#[test]
fn described() {
    let text: Vec<String> = tarot_engine::describe(&rules(), &BTreeMap::new()).rules.iter().map(|l| l.text.to_string()).collect();
    let text = text.join("\n");
    assert!(text.contains("when a count of the trumps dealt is made, each player pays each other player (“the most trumps dealt”): "), "{text}");
}

#[test]
fn refused_where_it_could_never_apply() {
    const PAY: &str = "  pay players to players \"the most trumps dealt\" = ";
    // Between players only: a declaration pays no pot.
    let e = refused(PAY, "  pay players to pot.kitty = ");
    assert!(e.contains("a declaration's payment goes between players, not into or out of a pot"), "{e}");
    // Its form.
    assert!(refused(PAY, "  pay players \"the most trumps dealt\" = ").contains("a declaration's payment is written `pay PAYERS to PAYEES"));
    // Made right after the deal, before the auction: no contract, side or card called to pay by.
    let early = refused(
        "  when after-discard\n  by taker\n  allowed = contract.name == \"three\"\n  pay players to players \"the most trumps dealt\" = ",
        "  when after-deal\n  pay players to players \"the most trumps dealt\" = contract.value * ",
    );
    assert!(early.contains("a declaration `when after-deal` cannot pay by the contract, the sides or the card called"), "{early}");
    // What a payment reads: the payer and the payee, not the play.
    assert!(refused(PAY, "  pay players to players \"the most trumps dealt\" = count(tricks) + 0 * ").contains("`tricks` is not known in a declaration's `pay`"));
    // `payee` is the payment's: a declaration's value does not read it.
    assert!(refused("  by taker\n", "  by taker\n  value = payee\n").contains("`payee` is not known in a declaration"));
}
