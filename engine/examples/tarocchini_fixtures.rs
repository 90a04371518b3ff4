//! Writes the fixtures of `tarocchini` under the options of another era, `moors_aces = "sequences"` (the
//! Moors and the aces as sequences of their own: PCS and MBT p. 125 for the 18th century, MJ's values)
//! and `suit_ace = "counted"`, which the simulator's command line cannot give (fixtures/tarocchini/valid/):
//!
//! - `every-trick-moors-and-aces`: valid/every-trick-mezzo-criccone.json under the option.
//! - `accuso-moors-with-the-begato`: the same game, where Cid declares his four Moors with the Bégato
//!   before his first card.
//! - `every-trick-suit-aces`: valid/every-trick-mezzo-criccone.json under `suit_ace = "counted"` (a suit's
//!   ace adds a card to its sequence: MBT p. 79, MJ).
//!
//!     cargo run -p tarot-engine --example generators -- tarocchini_fixtures

use crate::common;

use std::collections::BTreeMap;

use tarot_engine::{parse_record, Event, Registry};

const ID: &str = "tarocchini";

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("tarocchini is built in");
    let root = common::fixtures().join(ID);
    let read = |p: &str| parse_record(&std::fs::read_to_string(root.join(p)).unwrap()).unwrap();
    let sequences = BTreeMap::from([("moors_aces".to_string(), serde_json::json!("sequences"))]);

    let mut rec = read("valid/every-trick-mezzo-criccone.json");
    rec.options = sequences;
    rec.description = Some(
        "The game of every-trick-mezzo-criccone.json under the option moors_aces = sequences (the Moors and the aces as sequences of their own, PCS, MBT p. 125; MJ's values): the dealer's side also counts the four Moors with both contatori (six cards, 25) and the four aces with both (25); seven sequences, doubled: (105 + 4 x 25 + 25 + 25) x 2 = 510, and 296 + 510 + 93 = 899 (799 without the option)".into(),
    );
    common::write_valid(&root.join("valid/every-trick-moors-and-aces.json"), &rec, rules);

    // The same game with a suit's ace counted in its sequence (option suit_ace, MBT p. 79, MJ).
    let mut aces = read("valid/every-trick-mezzo-criccone.json");
    aces.options = BTreeMap::from([("suit_ace".to_string(), serde_json::json!("counted"))]);
    aces.description = Some(
        "The game of every-trick-mezzo-criccone.json under the option suit_ace = counted (a suit's ace adds a card to its sequence of three or more: MBT p. 79 for the 18th century, MJ's value): each suit's sequence, King to jack with both contatori, is seven cards with its ace, 30 instead of 25; (105 + 4 x 30) x 2 = 450, and 296 + 450 + 93 = 839 (799 without the option)".into(),
    );
    common::write_valid(&root.join("valid/every-trick-suit-aces.json"), &aces, rules);

    // Cid's accuso before his first card: the four Moors and the Bégato, a contatore: five cards, 20.
    let first = rec.events.iter().position(|e| matches!(e, Event::Play { player, .. } if player == "Cid")).expect("Cid plays");
    let cards = ["T2", "T3", "T4", "T5", "T1"].iter().map(|c| (*c).into()).collect();
    rec.events.insert(first, Event::Declare { player: "Cid".into(), declaration: "accuso".into(), cards });
    rec.description = Some(
        "The game of every-trick-moors-and-aces.json, where Cid declares an accuso before his first card: his four Moors and the Bégato, a contatore (the Moors' own sequence under the option moors_aces = sequences, headless: five cards, 20; without the option it is no combination). His side counts 899 at the end and 919 with the accuso".into(),
    );
    common::write_valid(&root.join("valid/accuso-moors-with-the-begato.json"), &rec, rules);
}
