//! An append's events written as JSON: by hand (`encode_events`, what the store writes) against
//! `serde_json::to_vec` of the derived `Serialize`, which writes the same bytes (tests in
//! `events_json.rs`): the events of 20 simulated fft-4p games, one game at a time, as an import
//! writes them.
//!
//!     cargo bench -p tarot-store --bench events

use std::collections::BTreeMap;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use tarot_engine::Registry;
use tarot_store::NewEvent;

fn bench(c: &mut Criterion) {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get("fft-4p").unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
    let games: Vec<Vec<NewEvent>> = (0..20)
        .map(|_| tarot_engine::random_game(rules, 4, &BTreeMap::new(), &mut rng).unwrap())
        .map(|g| g.events.into_iter().map(|event| NewEvent { id: None, event }).collect())
        .collect();
    for events in &games {
        assert_eq!(tarot_store::encode_events(events), serde_json::to_vec(events).unwrap());
    }
    let mut g = c.benchmark_group("events");
    g.throughput(Throughput::Elements(games.len() as u64));
    g.bench_function("write 20 games' events (serde_json)", |b| b.iter(|| games.iter().map(|e| serde_json::to_vec(e).unwrap().len()).sum::<usize>()));
    g.bench_function("write 20 games' events (by hand)", |b| b.iter(|| games.iter().map(|e| tarot_store::encode_events(e).len()).sum::<usize>()));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
