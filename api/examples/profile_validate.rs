//! The steps of `POST /validate` in a loop, for a profiler: N times reading the body (`parse`),
//! replaying (`replay`), writing the verdict (`write`), or all three (`all`, the default). Instruction
//! counts under callgrind repeat exactly from run to run, whatever else the machine does:
//!
//!     cargo build --release -p tarot-api --example profile_validate
//!     valgrind --tool=callgrind target/release/examples/profile_validate 2000 replay
//!     perf record --call-graph dwarf target/release/examples/profile_validate 100000
//!
//! One step's instructions per request are the difference between a run of N + 1 and a run of 1,
//! divided by N: that leaves out building the registry.
//!
//! A loop runs warm. Inside the server under load the same steps cost more: between two requests,
//! the HTTP stack, the kernel and the load generator leave the caches and branch predictors cold,
//! and on a machine whose two CPUs share one core they also slow each other down.

use tarot_engine::Registry;

/// The server's allocator, so the figures are the server's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let body = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/worked/fft-deal1.json")).unwrap();
    let n: usize = std::env::args().nth(1).map(|a| a.parse().unwrap()).unwrap_or(1000);
    let what = std::env::args().nth(2).unwrap_or_else(|| "all".into());
    assert!(["parse", "replay", "write", "all"].contains(&what.as_str()), "the step is parse, replay, write or all, not `{what}`");
    let mut total = 0;
    let record = tarot_api::body::read_record(&body).unwrap();
    let verdict = tarot_engine::replay(registry.get(&record.ruleset).unwrap(), &record).unwrap();
    for _ in 0..n {
        match what.as_str() {
            "parse" => total += tarot_api::body::read_record(&body).unwrap().events.len(),
            "replay" => total += tarot_engine::replay(registry.get(&record.ruleset).unwrap(), &record).unwrap().tricks.len(),
            "write" => total += verdict.to_json().len(),
            _ => {
                let record = tarot_api::body::read_record(&body).unwrap();
                total += tarot_engine::replay(registry.get(&record.ruleset).unwrap(), &record).unwrap().to_json().len();
            }
        }
    }
    println!("{total}");
}
