//! Declarations: the misère's payment, Marolles' maximal declarations, every declaration judged on
//! any show, an announcement that shows no card.

use std::collections::BTreeMap;

use super::{games, records, ruleset};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::Q;
use tarot_engine::{replay, Status, Verdict};

/// The misère of seed 003: "gives the declarer 30 points and subtracts 10 from the other players".
#[test]
fn a_misere_is_paid_10_by_every_other_player() {
    let mut seen = 0;
    for v in games("fft-4p-misere", 4, BTreeMap::new(), 1500) {
        let entries: Vec<_> = v.ledger.iter().filter(|l| &*l.rule == "declaration.misere").collect();
        if entries.is_empty() {
            continue;
        }
        seen += 1;
        // Each declarer is paid by the three others, 10 each.
        let mut paid: BTreeMap<String, (usize, Q)> = BTreeMap::new();
        for e in &entries {
            let t = paid.entry(e.to.as_deref().unwrap().to_string()).or_insert((0, Q::ZERO));
            t.0 += 1;
            t.1 = t.1 + e.amount;
        }
        assert!(paid.values().all(|&t| t == (3, Q::int(30))), "{paid:?}");
    }
    assert!(seen > 3, "only {seen} misères");
}

/// Marolles, "Variations and Uncertainties": "Marolles does not specify whether declarations must be
/// maximum ... The assumption seems to be that players will always try to declare the maximum they are
/// entitled to." Maximal (the default): declaring less than the hand allows breaks the rule; free: it is
/// paid for what is declared.
#[test]
fn marolles_declarations_are_maximal_unless_free() {
    let rules = ruleset("marolles-1637");
    let mut checked = 0;
    for game in records("marolles-1637", 3, BTreeMap::new(), 5).take(400) {
        // A Tarots declaration of five or more: show one fewer.
        let Some(i) = game.events.iter().position(|e| matches!(e, tarot_engine::Event::Declare { declaration, cards, .. } if declaration == "tarots" && cards.len() >= 5)) else {
            continue;
        };
        let mut less = game.clone();
        if let tarot_engine::Event::Declare { cards, .. } = &mut less.events[i] {
            cards.pop();
        }
        let v = replay(rules, &less).unwrap();
        assert_eq!(v.status, Status::Invalid, "{:?}", v.violation);
        let x = v.violation.unwrap();
        assert_eq!(x.event, i);
        assert!(x.message.contains("declarations are maximal"), "{}", x.message);
        assert!(x.rule.starts_with("declaration.tarots.require"), "{}", x.rule);
        less.options.insert("declarations".into(), serde_json::json!("free"));
        let free = replay(rules, &less).unwrap();
        assert_eq!(free.status, Status::Valid, "{:?}", free.violation);
        // Paid for what was declared: one marque less from each opponent.
        let paid = |v: &Verdict| v.ledger.iter().filter(|l| &*l.rule == "declaration.tarots").map(|l| l.amount).sum::<Q>();
        let full = replay(rules, &game).unwrap();
        assert_eq!(paid(&full) - paid(&free), Q::int(2), "two opponents, one marque each");
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} games with five Tarots declared");
}

/// A declaration's value is worked out only once the requirements that do not read it hold, and must
/// then mean something: for every ruleset, random shows of every declaration (any subset of the cards
/// it may show) made before the first card give a verdict, never a formula that cannot be evaluated
/// (issue 14, item 2: a poignée of 11 trumps was "index -1 is outside a list of 3").
#[test]
fn every_declaration_can_be_judged_on_any_show() {
    use rand::Rng;
    use tarot_engine::Event;
    use tarot_engine::{Card, CardSet};
    let registry = tarot_testkit::registry();
    let mut rng = ChaCha8Rng::seed_from_u64(142);
    let mut tried = 0;
    for rules in registry.all().filter(|r| !r.declarations.is_empty()) {
        for g in records(&rules.id, rules.players.0, BTreeMap::new(), 14).take(30) {
            let Some(at) = g.events.iter().position(|e| matches!(e, Event::Play { .. })) else { continue };
            let Event::Deal { hands, .. } = &g.events[0] else { unreachable!() };
            for d in &rules.declarations {
                for (player, hand) in hands {
                    let held: CardSet = hand.iter().filter_map(|c| Card::parse(c)).collect();
                    let pool: Vec<Card> = if d.shows.is_empty() { vec![] } else { held.and(d.shows).iter().collect() };
                    let shown: Vec<_> = pool.iter().filter(|_| rng.gen_bool(0.6)).map(|c| c.code()).collect();
                    let mut r = g.clone();
                    r.events.insert(at, Event::Declare { player: player.clone(), declaration: d.name.as_str().into(), cards: shown });
                    if let Err(e) = replay(rules, &r) {
                        panic!("{}: {} declaring a {} gets no verdict: {e}", rules.id, player, d.name);
                    }
                    tried += 1;
                }
            }
        }
    }
    assert!(tried > 1000, "{tried}");
}

/// An announcement (a declaration without `shows`: the chelem, the misère) shows no card: one that
/// lists cards is refused, citing the declaration, as a Marolles show with a stray card is.
#[test]
fn an_announcement_shows_no_card() {
    use tarot_engine::Event;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/fft-4p-misere/valid/4p-1.json");
    let rec = tarot_engine::parse_record(&std::fs::read_to_string(path).unwrap()).unwrap();
    let at = rec.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap();
    let Event::Play { player, .. } = rec.events[at].clone() else { unreachable!() };
    let Event::Deal { hands, .. } = &rec.events[0] else { unreachable!() };
    let cards = hands[player.as_str()][..2].to_vec();
    for (declaration, rule) in [("misere", "declaration.misere"), ("chelem", "declaration.chelem")] {
        let mut r = rec.clone();
        r.events.insert(at, Event::Declare { player: player.clone(), declaration: declaration.into(), cards: cards.clone() });
        let v = replay(ruleset("fft-4p-misere"), &r).unwrap();
        let x = v.violation.unwrap_or_else(|| panic!("{declaration} with cards: {:?}", v.status));
        assert_eq!(&*x.rule, rule, "{}", x.message);
        if declaration == "misere" {
            assert!(x.message.contains("announced, not shown"), "{}", x.message);
        }
    }
}
