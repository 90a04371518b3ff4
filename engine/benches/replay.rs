//! Replay speed per ruleset: verdict and score of complete recorded games, JSON parsing excluded.
//! The games are simulated once with a fixed seed. Two measures: `complete game` replays events
//! already read (the interpreter's work: legality of every move, the verdict, the score and its
//! ledger); `from record` also reads the record's names and card codes first.
//!
//!     cargo bench -p tarot-engine --bench replay

use std::collections::BTreeMap;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::SeedableRng;
use tarot_engine::random_game;
use tarot_engine::testing::{read, replay_moves, replay_with, Move};
use tarot_engine::Setup;
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
        let read_games: Vec<Vec<Move>> = games.iter().map(|g| g.events.iter().enumerate().map(|(i, e)| read(&setup, &g.players, i, e).unwrap()).collect()).collect();
        let dealers: Vec<u8> = games.iter().map(|g| g.players.iter().position(|p| *p == g.dealer).unwrap() as u8).collect();
        group.throughput(Throughput::Elements(1));
        let mut i = 0;
        group.bench_function(format!("{id} complete game"), |b| {
            b.iter_batched(
                || {
                    i = (i + 1) % games.len();
                    i
                },
                |i| replay_moves(&setup, &games[i].players, dealers[i], &read_games[i]).unwrap(),
                BatchSize::SmallInput,
            )
        });
        group.bench_function(format!("{id} from record"), |b| {
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

    // Deal statistics: shuffling and dealing, the annulments, the declarations each hand could make
    // and the card classes per hand, for a batch of deals.
    let mut stats = c.benchmark_group("deal statistics");
    let batch = 10_000;
    stats.throughput(Throughput::Elements(batch));
    let rules = registry.get("fft-4p").unwrap();
    stats.bench_function("fft-4p", |b| b.iter(|| tarot_engine::deal_stats(rules, 4, batch, 7, &mut |_| {}).unwrap()));
    stats.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
