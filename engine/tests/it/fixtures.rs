//! Replays every fixture under `fixtures/<ruleset>/` and checks what its folder says it is:
//! `valid/` games (and `tarotclub/`, imported from TarotClub's deal logs) are valid, `invalid/<rule>.json` breaks exactly `<rule>` (and so does
//! `invalid/<rule>--<case>.json`, one more way of breaking it), `annulled/<rule>.json` (and
//! `annulled/<rule>--<case>.json`) is annulled by `<rule>`, `in_progress/` games say whose turn it is and the legal moves, `malformed/`
//! records cannot be read. Each verdict is snapshotted as the
//! trick-by-trick timeline and score sheet a person reads, and its hand-written JSON is checked
//! against serde_json's.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use tarot_engine::{parse_record, replay, Next, Phase, Registry, Status};

/// Replays every fixture of `ruleset`. A fixture that fails does not stop the others: its file and
/// what went wrong are added to `failures`.
fn check_folder(registry: &Registry, ruleset: &str, failures: &mut Vec<String>) {
    let mut seen = 0;
    for kind in ["valid", "tarotclub", "invalid", "annulled", "in_progress", "malformed"] {
        for path in tarot_testkit::fixture_files(ruleset, kind) {
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| check_file(registry, ruleset, kind, &path))) {
                let message = panic.downcast_ref::<String>().map(String::as_str).or_else(|| panic.downcast_ref::<&str>().copied()).unwrap_or("(no message)");
                let file = path.file_name().and_then(|s| s.to_str()).unwrap_or_default();
                failures.push(format!("fixtures/{ruleset}/{kind}/{file}: {message}"));
            }
            seen += 1;
        }
    }
    assert!(seen > 0, "no fixtures for {ruleset}");
}

/// Replays one fixture, `path`, of the folder `kind`, checks its verdict and snapshots it.
fn check_file(registry: &Registry, ruleset: &str, kind: &str, path: &Path) {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
    let json = std::fs::read_to_string(path).expect("readable fixture");
    let rec = parse_record(&json).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rules = registry.get(&rec.ruleset).expect("known ruleset");
    let name = format!("{ruleset}__{kind}__{stem}");
    let text = match (kind, replay(rules, &rec)) {
        ("malformed", Err(e)) => format!("cannot be replayed: {e}\n"),
        ("malformed", Ok(v)) => panic!("{name} should be malformed, got {:?}", v.status),
        (_, Err(e)) => panic!("{name}: {e}"),
        (_, Ok(v)) => {
            // The verdict's hand-written JSON is what serde_json writes from its Serialize.
            assert_eq!(String::from_utf8(v.to_json()).unwrap(), serde_json::to_string(&v).unwrap(), "{name}");
            match kind {
                "valid" | "tarotclub" => assert_eq!(v.status, Status::Valid, "{name}: {}", v.to_text()),
                "invalid" => {
                    assert_eq!(v.status, Status::Invalid, "{name}");
                    let rule = stem.split_once("--").map_or(stem.as_str(), |(rule, _)| rule);
                    assert_eq!(v.violation.as_ref().map(|x| &*x.rule), Some(rule), "{name}");
                }
                "in_progress" => {
                    assert_eq!(v.status, Status::InProgress, "{name}");
                    // At a take, the choices are the packets; elsewhere the legal moves.
                    let says = |n: &Next| if n.phase == Phase::Take { n.legal.is_empty() && !n.packets.is_empty() } else { !n.legal.is_empty() };
                    assert!(v.next.as_ref().is_some_and(says), "{name}: says who moves next and how");
                }
                _ => {
                    assert_eq!(v.status, Status::Annulled, "{name}");
                    let rule = stem.split_once("--").map_or(stem.as_str(), |(rule, _)| rule);
                    assert_eq!(v.annulled.as_ref().map(|x| &*x.rule), Some(rule), "{name}");
                }
            }
            v.to_text()
        }
    };
    insta::assert_snapshot!(name, text);
}

/// Every ruleset has fixtures: at least a valid game and an invalid one. Every fixture is replayed
/// and the test fails once at the end, naming each fixture that failed.
#[test]
fn every_ruleset_has_its_fixtures_replayed() {
    let registry = tarot_testkit::registry();
    let mut failures = Vec::new();
    for id in registry.ids() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(id);
        for kind in ["valid", "invalid"] {
            let n = std::fs::read_dir(dir.join(kind)).map(|d| d.count()).unwrap_or(0);
            assert!(n > 0, "{id} has no {kind} fixture: run `cargo run -p tarot-engine --example make_fixtures`");
        }
        check_folder(registry, id, &mut failures);
    }
    assert!(failures.is_empty(), "{} fixtures failed:\n{}", failures.len(), failures.join("\n"));
}

/// Every fixture snapshot belongs to a fixture still stored: a fixture removed or renamed takes its
/// snapshot with it, so no verdict is kept that no file produces.
#[test]
fn every_fixture_snapshot_has_its_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut orphans = Vec::new();
    for entry in std::fs::read_dir(root.join("tests/it/snapshots")).expect("snapshots folder") {
        let file = entry.expect("snapshot entry").file_name().to_string_lossy().into_owned();
        let Some(name) = file.strip_prefix("it__fixtures__").and_then(|f| f.strip_suffix(".snap")) else { continue };
        let parts: Vec<&str> = name.splitn(3, "__").collect();
        let [ruleset, kind, stem] = parts[..] else { panic!("{file}: not named ruleset__kind__stem") };
        if !root.join("../fixtures").join(ruleset).join(kind).join(format!("{stem}.json")).is_file() {
            orphans.push(file);
        }
    }
    assert!(orphans.is_empty(), "snapshots without their fixture (delete them):\n{}", orphans.join("\n"));
}
