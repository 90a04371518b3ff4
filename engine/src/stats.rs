//! Deal statistics: how often, over many seeded random deals, each annulment strikes, each
//! declaration can be made, and each count of a named card class (oudlers, Tarots) is dealt. They
//! depend on the deal alone: no card is played here, so nothing that depends on play (a petit au bout,
//! a slam) is counted.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::cards::{Card, CardSet};
use crate::ir::Ruleset;
use crate::replay::{Game, Setup};
use crate::verdict::InputError;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DealStats {
    pub ruleset: String,
    pub players: usize,
    pub deals: u64,
    pub seed: u64,
    pub note: &'static str,
    /// Deals annulled, by annulment (a deal counts once, for the first that strikes).
    pub annulments: BTreeMap<String, u64>,
    /// Hands that could make each declaration (by `shows` and `require`), by kind.
    pub declarations: BTreeMap<String, u64>,
    /// For each labelled card class: how many hands were dealt 0, 1, 2... of its cards.
    pub classes: BTreeMap<String, Vec<u64>>,
}

pub const NOTE: &str = "statistics of the deal alone: no card is played, so nothing that depends on the play is counted";

/// Deals `deals` random deals (seeded) and counts; `progress` is called now and then with the
/// number of deals done.
pub fn deal_stats(rules: &Ruleset, players: usize, deals: u64, seed: u64, progress: &mut dyn FnMut(u64)) -> Result<DealStats, InputError> {
    let setup = Setup::new(rules, players, &BTreeMap::new()).map_err(|message| InputError { event: None, message })?;
    let names: Vec<String> = (0..players).map(|p| format!("P{p}")).collect();
    let classes: Vec<(&str, CardSet)> = rules.classes.iter().filter_map(|c| c.label.as_ref().map(|_| (c.name.as_str(), c.cards))).collect();
    let mut stats = DealStats {
        ruleset: rules.id.clone(),
        players,
        deals,
        seed,
        note: NOTE,
        annulments: rules.annulments.iter().map(|a| (a.name.clone(), 0)).collect(),
        declarations: rules.declarations.iter().filter(|d| !d.shows.is_empty()).map(|d| (d.name.clone(), 0)).collect(),
        classes: classes.iter().map(|(n, c)| (n.to_string(), vec![0; c.len() + 1])).collect(),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pack: Vec<Card> = rules.pack.cards.iter().collect();
    let game = Game::new(&setup, &names, 0);
    for i in 0..deals {
        if i % 65536 == 0 {
            progress(i);
        }
        pack.shuffle(&mut rng);
        let mut at = 0;
        let mut hands = vec![CardSet::EMPTY; players];
        for (p, hand) in hands.iter_mut().enumerate() {
            let k = if p == 0 { setup.dealer_hand } else { setup.hand };
            *hand = pack[at..at + k].iter().copied().collect();
            at += k;
        }
        for (p, hand) in hands.iter().enumerate() {
            for (name, set) in &classes {
                stats.classes.get_mut(*name).expect("listed")[hand.and(*set).len()] += 1;
            }
            for d in rules.declarations.iter().filter(|d| !d.shows.is_empty()) {
                if game.best_show(p as u8, *hand, d).is_some() {
                    *stats.declarations.get_mut(&d.name).expect("listed") += 1;
                }
            }
        }
        match game.first_annulment(&hands) {
            Ok(Some((a, _))) => *stats.annulments.get_mut(&rules.annulments[a].name).expect("listed") += 1,
            Ok(None) => {}
            Err(_) => return Err(InputError { event: None, message: format!("{}: an annulment cannot be evaluated", rules.id) }),
        }
    }
    progress(deals);
    Ok(stats)
}

/// Several rulesets' statistics side by side, as text.
pub fn to_text(all: &[DealStats]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for s in all {
        let _ = writeln!(out, "{} — {} players, {} deals, seed {}", s.ruleset, s.players, s.deals, s.seed);
        let pct = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
        for (name, n) in &s.annulments {
            let _ = writeln!(out, "  annulment {name:<20} {n:>10} deals  {:>8.4}%", pct(*n, s.deals));
        }
        let hands = s.deals * s.players as u64;
        for (name, n) in &s.declarations {
            let _ = writeln!(out, "  declaration {name:<18} {n:>10} hands  {:>8.4}%", pct(*n, hands));
        }
        for (name, counts) in &s.classes {
            let spread: Vec<String> = counts.iter().enumerate().map(|(k, n)| format!("{k}: {:.2}%", pct(*n, hands))).collect();
            let _ = writeln!(out, "  {name} per hand: {}", spread.join(", "));
        }
    }
    let _ = writeln!(out, "({NOTE})");
    out
}
