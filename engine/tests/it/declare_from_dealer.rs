//! Declarations in turn from the dealer and compulsory as options say (`in-turn from dealer [=
//! condition of options]`, `compulsory = condition of options`; the Leipzig rules of 1754, §2):
//! `engine/tests/rules/declare-from-dealer.tarot`. The dealer is Cid: in turn from first hand is Ann,
//! Bob, Cid; from the dealer Cid, Ann, Bob. Plain `in-turn` and `compulsory` are unchanged
//! (engine/tests/it/declare_in_turn.rs, compulsory.rs).

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::ir::Ruleset;
use tarot_engine::Setup;
use tarot_engine::{random_deal, random_game_from};
use tarot_engine::{replay, Event, GameRecord, Status};

use crate::common::test_rules;

fn rules(edit: Option<(&str, &str)>) -> Result<Ruleset, String> {
    test_rules("declare-from-dealer", edit)
}

fn table() -> Vec<String> {
    ["Ann", "Bob", "Cid"].iter().map(|s| s.to_string()).collect()
}

fn options(declarations: &str) -> BTreeMap<String, serde_json::Value> {
    BTreeMap::from([("declarations".to_string(), serde_json::Value::from(declarations))])
}

/// A game simulated with Cid dealing under `declarations`, its declarations replaced by `declares`
/// (player, declaration), made in that order before the first card.
fn game(rules: &Ruleset, declarations: &str, declares: &[(&str, &str)]) -> GameRecord {
    let options = options(declarations);
    let setup = Setup::new(rules, 3, &options).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1754);
    let deal = random_deal(&setup, &table(), 2, &mut rng);
    let mut rec = random_game_from(rules, &table(), 2, deal, &options, &mut rng).unwrap_or_else(|e| panic!("{declarations}: {e}"));
    rec.events.retain(|e| !matches!(e, Event::Declare { .. }));
    let at = rec.events.iter().position(|e| matches!(e, Event::Play { .. })).expect("a card played");
    for (i, (p, d)) in declares.iter().enumerate() {
        rec.events.insert(at + i, Event::Declare { player: (*p).into(), declaration: (*d).into(), cards: vec![] });
    }
    rec
}

fn broken(rules: &Ruleset, declarations: &str, declares: &[(&str, &str)]) -> (String, Option<String>, String) {
    let v = replay(rules, &game(rules, declarations, declares)).unwrap();
    let text = v.to_text();
    let x = v.violation.unwrap_or_else(|| panic!("a violation expected: {text}"));
    (x.rule.to_string(), x.player.map(|p| p.to_string()), x.message.to_string())
}

fn valid(rules: &Ruleset, declarations: &str, declares: &[(&str, &str)]) {
    let v = replay(rules, &game(rules, declarations, declares)).unwrap();
    assert_eq!(v.status, Status::Valid, "{declarations} {declares:?}: {}", v.to_text());
}

#[test]
fn under_1754_the_dealer_declares_first() {
    let rules = rules(None).unwrap();
    valid(&rules, "1754", &[("Cid", "hail"), ("Ann", "bow"), ("Ann", "hail"), ("Bob", "hail")]);
    // Under PW the same game is out of turn: the dealer is last from first hand.
    let (rule, who, msg) = broken(&rules, "PW", &[("Cid", "hail"), ("Ann", "hail"), ("Bob", "hail")]);
    assert_eq!((rule.as_str(), who.as_deref()), ("declaration.hail.in-turn", Some("Ann")), "{msg}");
    assert!(msg.contains("from first hand"), "{msg}");
    valid(&rules, "PW", &[("Ann", "hail"), ("Bob", "hail"), ("Cid", "hail")]);
}

#[test]
fn under_1754_first_hand_may_not_declare_before_the_dealer() {
    let rules = rules(None).unwrap();
    let (rule, who, msg) = broken(&rules, "1754", &[("Ann", "hail"), ("Cid", "hail")]);
    assert_eq!((rule.as_str(), who.as_deref()), ("declaration.hail.in-turn", Some("Cid")), "{msg}");
    assert!(msg.contains("out of turn") && msg.contains("from the dealer") && msg.contains("Ann"), "{msg}");
    // The bow is in turn under 1754 only: under PW it is made at any moment.
    let (rule, _, _) = broken(&rules, "1754", &[("Bob", "bow"), ("Ann", "bow")]);
    assert_eq!(rule, "declaration.bow.in-turn");
    valid(&rules, "PW", &[("Ann", "hail"), ("Bob", "hail"), ("Cid", "hail"), ("Bob", "bow"), ("Ann", "bow")]);
    // `in-turn from dealer` with no condition: from the dealer under every option, PW's too.
    // (The hail without its plain `in-turn`, so that the two are not ordered from two seats at once.)
    let always = self::rules(Some((
        "  in-turn\n  in-turn from dealer = option.declarations == \"1754\"\n}\n\ndeclaration bow \"bow\" {\n  in-turn from dealer = option.declarations == \"1754\"",
        "  in-turn from dealer = option.declarations == \"1754\"\n}\n\ndeclaration bow \"bow\" {\n  in-turn from dealer",
    )))
    .unwrap();
    let (rule, who, msg) = broken(&always, "PW", &[("Ann", "hail"), ("Bob", "hail"), ("Cid", "hail"), ("Ann", "bow"), ("Cid", "bow")]);
    assert_eq!((rule.as_str(), who.as_deref()), ("declaration.bow.in-turn", Some("Cid")), "{msg}");
    // Without `in-turn from dealer` on the bow, it is not in turn under 1754 either.
    let free = self::rules(Some(("declaration bow \"bow\" {\n  in-turn from dealer = option.declarations == \"1754\"\n}", "declaration bow \"bow\" {\n}"))).unwrap();
    valid(&free, "1754", &[("Bob", "bow"), ("Ann", "bow")]);
}

#[test]
fn compulsory_follows_the_option() {
    let rules = rules(None).unwrap();
    // Under 1754 a hail not made is simply not made; under PW the first card breaks the rule.
    valid(&rules, "1754", &[]);
    let (rule, _, msg) = broken(&rules, "PW", &[]);
    assert_eq!(rule, "declaration.hail.compulsory", "{msg}");
    let (rule, who, _) = broken(&rules, "PW", &[("Ann", "hail"), ("Bob", "hail")]);
    assert_eq!((rule.as_str(), who.as_deref()), ("declaration.hail.compulsory", Some("Cid")));
}

#[test]
fn the_simulator_declares_from_the_dealer_under_1754() {
    let rules = rules(None).unwrap();
    for (declarations, order) in [("1754", ["Cid", "Ann", "Bob"]), ("PW", ["Ann", "Bob", "Cid"])] {
        let options = options(declarations);
        let setup = Setup::new(&rules, 3, &options).unwrap();
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let deal = random_deal(&setup, &table(), 2, &mut rng);
            let rec = random_game_from(&rules, &table(), 2, deal, &options, &mut rng).expect("a game");
            let v = replay(&rules, &rec).unwrap();
            assert_eq!(v.status, Status::Valid, "{declarations} seed {seed}: {}", v.to_text());
            let turns: Vec<usize> = rec
                .events
                .iter()
                .filter_map(|e| match e {
                    Event::Declare { player, declaration, .. } if &**declaration == "hail" => Some(order.iter().position(|p| **p == **player).unwrap()),
                    _ => None,
                })
                .collect();
            assert!(turns.windows(2).all(|w| w[0] <= w[1]), "{declarations} seed {seed}: {turns:?}");
        }
    }
}

#[test]
fn the_forms_are_refused_where_they_mean_nothing_or_read_the_game() {
    let refused = |find: &str, replace: &str, want: &str| {
        let e = rules(Some((find, replace))).expect_err("refused");
        assert!(e.contains(want), "{replace}: {e}");
    };
    let hail = "  compulsory = option.declarations == \"PW\"\n";
    refused(hail, "  compulsory = count(hand, trumps) > 3\n", "`hand` is not known before the deal");
    refused(hail, "  compulsory = true\n", "reads none");
    refused(hail, "  compulsory = if option.declarations == \"PW\" then 1 else 0\n", "must be true or false");
    let bow = "declaration bow \"bow\" {\n  in-turn from dealer = option.declarations == \"1754\"\n}";
    refused(bow, "declaration bow \"bow\" {\n  in-turn from first-hand\n}", "`in-turn` is written");
    refused(bow, "declaration bow \"bow\" {\n  in-turn from dealer = true\n}", "reads none");
    refused(bow, "declaration bow \"bow\" {\n  in-turn from dealer = count(hand) > 3\n}", "`hand` is not known before the deal");
    refused(bow, "declaration bow \"bow\" {\n  in-turn from dealer = if option.declarations == \"PW\" then 1 else 0\n}", "must be true or false");
    refused(bow, "declaration bow \"bow\" {\n  in-turn = option.declarations == \"PW\"\n}", "`in-turn` is a switch and takes no value");
}
