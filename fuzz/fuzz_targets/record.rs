//! Any text as a recorded game, replayed under the ruleset it names: it is read or refused, replayed
//! or refused, and never crashes. A verdict's figures never wrap: each pot closes at what it carried
//! plus the ledger's payments, and where the ruleset settles by payments each player's score is his
//! balance of the ledger, both worked out here in 128 bits. Seed corpus: the valid fixtures
//! (`mkdir -p corpus/record && cp ../fixtures/*/valid/*.json corpus/record/`).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tarot_engine::Q;
use tarot_engine::{parse_record, replay, Registry, Verdict};

/// A figure as a fraction in 128 bits, where a deal's sums cannot wrap.
fn wide(q: Q) -> (i128, i128) {
    (q.numer() as i128, q.denom() as i128)
}

fn plus((a, b): (i128, i128), (c, d): (i128, i128)) -> (i128, i128) {
    let (n, m) = (a * d + c * b, b * d);
    let (mut x, mut y) = (n.abs(), m.abs());
    while y != 0 {
        (x, y) = (y, x % y);
    }
    let g = x.max(1);
    (n / g, m / g)
}

/// What the ledger paid into `account` less what it paid out of it.
fn flow(v: &Verdict, account: &str) -> (i128, i128) {
    v.ledger.iter().fold((0, 1), |acc, l| {
        let acc = if l.to.as_deref() == Some(account) { plus(acc, wide(l.amount)) } else { acc };
        if l.from.as_deref() == Some(account) {
            plus(acc, wide(-l.amount))
        } else {
            acc
        }
    })
}

fuzz_target!(|data: &[u8]| {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    let registry = REGISTRY.get_or_init(|| Registry::builtin().expect("the built-in rulesets compile"));
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(rec) = parse_record(text) else { return };
    let Some(rules) = registry.get(&rec.ruleset) else { return };
    let Ok(v) = replay(rules, &rec) else { return };
    assert_eq!(v.to_json(), serde_json::to_vec(&v).unwrap(), "the hand-written verdict JSON is serde_json's");
    let Some(o) = &v.outcome else { return };
    for p in &o.pots {
        let closing = plus(wide(p.carried), flow(&v, &format!("pot.{}", p.pot)));
        assert_eq!(closing, wide(p.closing), "pot {} carried {} and closes at {}", p.pot, p.carried, p.closing);
    }
    if !rules.score.pays.is_empty() {
        for p in &o.players {
            assert_eq!(flow(&v, &p.player), wide(p.score), "{} scores {}", p.player, p.score);
        }
    }
});
