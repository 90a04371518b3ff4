//! Writes the fixtures of `cego-twos` that show the count in twos at the edges of pagat.com's table
//! (P "Cards counted in twos"): a game won at exactly 40 and one lost at 39 (both base 1), the rows'
//! edges either side (44 and 45 won, 35 and 34 lost), a game lost without a trick and one won in the
//! top row (base 8) (fixtures/cego-twos/valid/). Each is a seeded simulated game found by
//! search among the declarer's games, so it is reproducible:
//!
//!     cargo run -p tarot-engine --example generators -- cego_twos_fixtures

use crate::common;

use std::collections::BTreeMap;

use tarot_engine::{Registry, SimOptions, Verdict};

const ID: &str = "cego-twos";

fn value(v: &Verdict, name: &str) -> Option<i64> {
    v.outcome.as_ref()?.values.iter().find(|(k, _)| &**k == name).and_then(|(_, x)| x.to_string().parse().ok())
}

/// Each fixture: its file, the seed of its search, the declarer's points it must show (from and to),
/// and its description.
const WANTS: &[(&str, u64, (i64, i64), &str)] = &[
    ("won-40", 40, (40, 40), "A game won at exactly 40, the least that wins: base 1"),
    ("lost-39", 39, (39, 39), "A game lost at 39, one short of 40: base 1"),
    ("won-44", 44, (44, 44), "A game won at 44, the top of the first row: base 1"),
    ("won-45", 45, (45, 45), "A game won at 45, the foot of the second row: base 2"),
    ("lost-35", 35, (35, 35), "A game lost at 35, half of the threes' count and no tie here: base 1"),
    ("lost-34", 34, (34, 34), "A game lost at 34, the top of the second row lost: base 2"),
    ("no-trick", 1, (0, 0), "A game lost without a trick, paid as none of the 79: base 8"),
    ("won-top", 65, (75, 79), "A game won at 75 or more, the top row: base 8"),
];

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("cego-twos is built in");
    let root = common::fixtures().join(ID);
    for &(file, seed, (lo, hi), what) in WANTS {
        let found = common::find_game(rules, 4, &BTreeMap::new(), &SimOptions::steered(), (seed, 20_000), |rec, v| {
            // A declarer's game (a special game or a Räuber has no factor).
            let normal = value(&v, "mult").is_some_and(|m| m > 0);
            (normal && value(&v, "counted").is_some_and(|c| (lo..=hi).contains(&c))).then_some(rec)
        });
        match found {
            Some((n, mut rec)) => {
                rec.description = Some(format!("{what} (P \"Cards counted in twos\"): game {n} of seed {seed} of `cego_twos_fixtures`"));
                common::write_valid(&root.join("valid").join(format!("{file}.json")), &rec, rules);
            }
            None => eprintln!("{ID}: {file} not found in 20000 games"),
        }
    }
}
