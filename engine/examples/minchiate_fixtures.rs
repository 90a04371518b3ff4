//! Writes the fixtures of `minchiate` under the option `revoke = "two-resti"` (the modern Florentine
//! rules' penalty, MF: two resti to each opponent for not following or not trumping, the hand standing),
//! which the simulator's command line cannot give (fixtures/minchiate/valid/):
//!
//! - `two-resti-revoke-king`: valid/revoke-king.json (M5's own example) under MF's penalty.
//! - `two-resti-not-trumping`: invalid/play.must.trump.json's bad card, paid for under MF: the record
//!   up to that card, then each player's first legal card.
//!
//!     cargo run -p tarot-engine --example minchiate_fixtures

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use tarot_engine::{parse_record, replay, Event, Registry, Status};

const ID: &str = "minchiate";

fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("minchiate is built in");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(ID);
    let read = |p: &str| parse_record(&std::fs::read_to_string(root.join(p)).unwrap()).unwrap();
    let two_resti = BTreeMap::from([("revoke".to_string(), serde_json::json!("two-resti"))]);

    let mut rec = read("valid/revoke-king.json");
    rec.options = two_resti.clone();
    rec.description = Some(
        "M5's example of a revoke (valid/revoke-king.json: Bob, holding denari, trumps Ann's King of denari with the 30) under the modern Florentine penalty (option revoke = two-resti, MF): Bob pays two resti, 120, to Ann, and keeps the King (the hand stands); the King is paid for as a noble card captured".into(),
    );
    common::write_valid(&root.join("valid/two-resti-revoke-king.json"), &rec, rules);

    // The bad card of invalid/play.must.trump.json stands under MF; what the record played after it
    // no longer fits the hands, so the rest is each player's first legal card.
    let mut rec = read("invalid/play.must.trump.json");
    rec.options = two_resti;
    let bad = replay(rules, &read("invalid/play.must.trump.json")).unwrap().violation.expect("refused").event;
    rec.events.truncate(bad + 1);
    loop {
        let v = replay(rules, &rec).unwrap();
        match v.status {
            Status::InProgress => {
                let next = v.next.expect("someone moves");
                rec.events.push(Event::Play { player: next.player.as_ref().into(), card: next.legal[0].as_str().into() });
            }
            Status::Valid => break,
            other => panic!("two-resti-not-trumping: {other:?}: {}", v.to_text()),
        }
    }
    rec.description = Some(format!(
        "Not trumping, paid for under the modern Florentine penalty (option revoke = two-resti, MF): the record of invalid/play.must.trump.json up to its bad card (event {bad}, a card that breaks must trump), which stands: the offender pays two resti, 120, to the other player; then each player's first legal card"
    ));
    common::write_valid(&root.join("valid/two-resti-not-trumping.json"), &rec, rules);
}
