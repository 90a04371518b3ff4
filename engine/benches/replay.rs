//! Replay speed per ruleset: verdict and score of complete recorded games, JSON parsing excluded.
//! The games are simulated once with a fixed seed; each iteration replays one of them.
//!
//!     cargo bench -p tarot-engine --bench replay

use std::collections::BTreeMap;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::SeedableRng;
use tarot_engine::replay::{replay_with, Setup};
use tarot_engine::simulate::random_game;
use tarot_engine::{Registry, Status};

fn bench(c: &mut Criterion) {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let mut group = c.benchmark_group("replay");
    for (id, players) in [("fft-4p", 4), ("marolles-1637", 3), ("basic", 4)] {
        let rules = registry.get(id).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
        let games: Vec<_> = (0..200)
            .map(|_| random_game(rules, players, &BTreeMap::new(), &mut rng).unwrap())
            .filter(|g| tarot_engine::replay(rules, g).map(|v| v.status == Status::Valid).unwrap_or(false))
            .collect();
        let setup = Setup::new(rules, players, &BTreeMap::new()).unwrap();
        group.throughput(Throughput::Elements(1));
        let mut i = 0;
        group.bench_function(format!("{id} complete game"), |b| {
            b.iter_batched(
                || {
                    i = (i + 1) % games.len();
                    &games[i]
                },
                |g| replay_with(&setup, g).unwrap(),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
