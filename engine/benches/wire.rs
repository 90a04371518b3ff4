//! The hand-written JSON paths against serde's derived ones, on a complete fft-4p game: reading the
//! record (the quick reader, which the server uses, against serde_json) and writing its verdict
//! (`Verdict::to_json` against `serde_json::to_vec`). The two give the same values and bytes (tests
//! `quick_reader` and `fixtures`); this says what the hand-written ones save.
//!
//!     cargo bench -p tarot-engine --bench wire

use criterion::{criterion_group, criterion_main, Criterion};
use tarot_engine::{GameRecord, Registry};

fn bench(c: &mut Criterion) {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let body = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/worked/fft-deal1.json")).unwrap();
    let record: GameRecord = serde_json::from_slice(&body).unwrap();
    let verdict = tarot_engine::replay(registry.get(&record.ruleset).unwrap(), &record).unwrap();
    assert_eq!(tarot_engine::read_quick(&body).as_ref(), Some(&record));
    assert_eq!(verdict.to_json(), serde_json::to_vec(&verdict).unwrap());
    let mut g = c.benchmark_group("wire");
    g.bench_function("read the record (serde_json)", |b| b.iter(|| serde_json::from_slice::<GameRecord>(&body).unwrap()));
    g.bench_function("read the record (quick reader)", |b| b.iter(|| tarot_engine::read_quick(&body).unwrap()));
    g.bench_function("write the verdict (serde_json)", |b| b.iter(|| serde_json::to_vec(&verdict).unwrap()));
    g.bench_function("write the verdict (by hand)", |b| b.iter(|| verdict.to_json()));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
