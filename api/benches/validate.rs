//! What `POST /validate` does with a complete fft-4p game besides HTTP: read the JSON body, replay it,
//! write the verdict as JSON; each step alone and the three together, as the server does them.
//!
//!     cargo bench -p tarot-api --bench validate

use criterion::{criterion_group, criterion_main, Criterion};
use tarot_engine::{GameRecord, Registry};

/// The server's allocator, so the figures are the server's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench(c: &mut Criterion) {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let body = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/worked/fft-deal1.json")).unwrap();
    let record: GameRecord = serde_json::from_slice(&body).unwrap();
    let rules = registry.get(&record.ruleset).unwrap();
    let verdict = tarot_engine::replay(rules, &record).unwrap();
    let mut g = c.benchmark_group("validate");
    g.bench_function("read the body (serde_json)", |b| b.iter(|| serde_json::from_slice::<GameRecord>(&body).unwrap()));
    g.bench_function("read the body (as the server does: the quick reader)", |b| b.iter(|| tarot_api::body::read_record(&body).unwrap()));
    g.bench_function("replay", |b| b.iter(|| tarot_engine::replay(rules, &record).unwrap()));
    g.bench_function("write the verdict (serde_json)", |b| b.iter(|| serde_json::to_vec(&verdict).unwrap()));
    g.bench_function("write the verdict (as the server does: by hand)", |b| b.iter(|| verdict.to_json()));
    g.bench_function("all three", |b| {
        b.iter(|| {
            let record = tarot_api::body::read_record(&body).unwrap();
            tarot_engine::replay(registry.get(&record.ruleset).unwrap(), &record).unwrap().to_json()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
