//! What only the sled store does, on games the simulator plays: its group commit (concurrent
//! appends share flushes) and its own flushing (what was acknowledged survives kill -9). What both
//! stores do is tested once for both, in `contract.rs`.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::thread;

use crate::common::{game, registry, without_ids, TempDir};
use tarot_engine::GameRecord;
use tarot_store::{Appended, GameId, Header, NewEvent, Store};

// ---------------------------------------------------------------------------------------------
// Durability

#[test]
fn concurrent_appends_share_flushes() {
    const THREADS: usize = 32;
    const APPENDS: usize = 25;
    let dir = TempDir::new("group-commit");
    let store = Store::open(&dir.0).unwrap();
    let record = game("fft-4p", 4, 8);
    let games: Vec<GameId> = (0..THREADS).map(|_| store.create_game(&Header::of(&record), vec![]).unwrap().game).collect();
    let before = store.flushes();
    thread::scope(|s| {
        for g in &games {
            let (store, record) = (&store, &record);
            s.spawn(move || {
                for (version, chunk) in record.events.chunks(3).take(APPENDS).enumerate() {
                    store.append(g, version as u64 * 3, without_ids(chunk)).unwrap();
                }
            });
        }
    });
    // How many writers one flush serves depends on how long a flush takes against a commit: on a
    // disk whose fsync takes milliseconds, dozens; on a fast virtual disk with a debug build of sled,
    // about two. Any sharing at all shows that writers wait for a common flush.
    let flushes = store.flushes() - before;
    let appends = (THREADS * APPENDS) as u64;
    println!("{appends} appends, {flushes} flushes");
    assert!(flushes < appends, "{appends} appends took {flushes} flushes");
}

/// Where the child half of the kill -9 test writes; it is set only for the child process.
const CRASH_DIR: &str = "TAROT_STORE_CRASH_DIR";

#[test]
fn acknowledged_appends_survive_kill_9() {
    let dir = TempDir::new("kill-9");
    let mut child = Command::new(std::env::current_exe().unwrap())
        // The test's name in the binary is its module's and its own.
        .args(["--exact", "store::crash_child", "--nocapture", "--test-threads=1"])
        .env(CRASH_DIR, &dir.0)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut acknowledged = 0;
    while acknowledged < 100 {
        let line = lines.next().expect("the child appends until it is killed").unwrap();
        if let Some(version) = line.strip_prefix("acknowledged ") {
            acknowledged = version.parse().unwrap();
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Lines the child printed before it died may still be in the pipe.
    for line in lines {
        if let Some(version) = line.unwrap().strip_prefix("acknowledged ") {
            acknowledged = version.parse().unwrap();
        }
    }
    let store = Store::open(&dir.0).unwrap();
    let events = store.events(&GameId("g1".into())).unwrap();
    assert!(events.len() as u64 >= acknowledged, "{acknowledged} appends were acknowledged, {} survived", events.len());
    assert!(events.iter().enumerate().all(|(i, e)| e.version == i as u64 + 1 && e.position == i as u64 + 1));
}

/// The child process of `acknowledged_appends_survive_kill_9`: appends one event at a time and
/// prints each acknowledged version until it is killed. Run on its own, it does nothing.
#[test]
fn crash_child() {
    let Some(dir) = std::env::var_os(CRASH_DIR) else { return };
    let store = Store::open(&PathBuf::from(dir)).unwrap();
    let record = game("fft-4p", 4, 9);
    let g = store.create_game(&Header::of(&record), vec![]).unwrap().game;
    for version in 0.. {
        let event = record.events[version as usize % record.events.len()].clone();
        store.append(&g, version, vec![NewEvent { id: None, event }]).unwrap();
        println!("acknowledged {}", version + 1);
    }
}

// ---------------------------------------------------------------------------------------------
// Bulk files

/// An import writes its games' events and verdicts to one bulk file beside sled; reading the
/// games back, after the store is reopened, appending to one, retrying the import and rebuilding
/// the projections all see the same games as before.
#[test]
fn imported_games_keep_their_large_values_in_bulk_files() {
    let dir = TempDir::new("bulk");
    let records: Vec<GameRecord> = (0..20).map(|seed| game("fft-4p", 4, 100 + seed)).collect();
    let imports = || records.iter().map(|r| tarot_store::prepare(registry(), r.clone()).unwrap()).collect::<Vec<_>>();
    let store = Store::open(&dir.0).unwrap();
    let first = store.import(imports()).unwrap();
    let files: Vec<_> = std::fs::read_dir(dir.0.join("bulk")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(files.len(), 1, "one bulk file per batch: {files:?}");
    // Written before the games are numbered, so named above every game number (never the name of
    // a file that `create_games` names after its first game).
    assert!(files[0].file_name().unwrap().to_str().unwrap().starts_with('8'), "{files:?}");
    let bytes: usize = records.iter().map(|r| serde_json::to_vec(&r.events).unwrap().len()).sum();
    assert!(std::fs::metadata(&files[0]).unwrap().len() as usize > bytes, "the events are in the bulk file");
    let verdicts: Vec<_> = first.iter().map(|(a, _)| store.projection(&a.game).unwrap().unwrap()).collect();
    drop(store);

    let store = Store::open(&dir.0).unwrap();
    for ((appended, new), record) in first.iter().zip(&records) {
        assert!(new);
        assert_eq!(store.record(&appended.game).unwrap(), *record);
        // An imported game keeps its version and first segment in its header (no `versions` or
        // `events` entry), and its verdict through its summary (no `projections` entry).
        assert_eq!(store.version(&appended.game).unwrap(), appended.version);
    }
    assert_eq!(first.iter().map(|(a, _)| store.projection(&a.game).unwrap().unwrap()).collect::<Vec<_>>(), verdicts);
    let (listed, total) = store.list(&tarot_store::Filter::default(), 0, 100).unwrap();
    assert_eq!((listed.len(), total), (20, 20));
    assert!(listed.iter().zip(&verdicts).all(|(summary, verdict)| summary.status == verdict.status && summary.checkpoint == verdict.checkpoint));
    let valid = tarot_store::Filter { status: Some("valid".into()), player: Some(records[0].players[0].clone()), ..Default::default() };
    assert_eq!(store.list(&valid, 0, 100).unwrap().1, verdicts.iter().filter(|v| v.status == "valid").count());
    // A retry finds every game; an append after an imported stream goes on from its last event.
    assert_eq!(store.import(imports()).unwrap().iter().map(|(a, new)| (a.clone(), *new)).collect::<Vec<_>>(), first.iter().map(|(a, _)| (a.clone(), false)).collect::<Vec<_>>());
    let (g, version) = (&first[0].0.game, first[0].0.version);
    let extra = records[0].events[0].clone();
    let appended = store.append(g, version, vec![NewEvent { id: Some("x".into()), event: extra.clone() }]).unwrap();
    assert_eq!(appended.version, version + 1);
    let events = store.events(g).unwrap();
    assert_eq!(events.len() as u64, version + 1);
    assert!(events[..version as usize].iter().enumerate().all(|(i, e)| e.version == i as u64 + 1 && e.position == first[0].0.first_position + i as u64));
    assert_eq!((events[version as usize].id.as_deref(), &events[version as usize].event), (Some("x"), &extra));
    assert_eq!(store.version(g).unwrap(), version + 1);
    // Its retry is recognised; one with the wrong expected version is refused with the version.
    assert_eq!(store.append(g, version, vec![NewEvent { id: Some("x".into()), event: extra.clone() }]).unwrap(), appended);
    assert!(
        matches!(store.append(g, version, vec![NewEvent { id: None, event: extra.clone() }]), Err(tarot_store::StoreError::Conflict { current, .. }) if current == version + 1)
    );
    assert_eq!(store.version(&first[1].0.game).unwrap(), first[1].0.version);
    // A projection put in place of an imported one replaces it, in the listing too.
    let mut replaced = verdicts[1].clone();
    (replaced.status, replaced.checkpoint) = ("unreadable".into(), replaced.checkpoint + 1);
    store.put_projection(&first[1].0.game, &replaced).unwrap();
    assert_eq!(store.projection(&first[1].0.game).unwrap().unwrap(), replaced);
    let unreadable = tarot_store::Filter { status: Some("unreadable".into()), ..Default::default() };
    assert_eq!(store.list(&unreadable, 0, 100).unwrap().0.iter().map(|s| s.game.clone()).collect::<Vec<_>>(), [first[1].0.game.clone()]);
    assert_eq!(store.list(&tarot_store::Filter::default(), 0, 100).unwrap().1, 20);
    // Cleared, an imported game has no projection; the rebuild below computes it again.
    store.clear_projections().unwrap();
    assert_eq!(store.projection(&first[2].0.game).unwrap(), None);
    assert_eq!(store.list(&tarot_store::Filter::default(), 0, 100).unwrap().1, 0);
    // Each opening of the store starts a file of its own, which its later imports add to.
    let more: Vec<GameRecord> = (0..3).map(|seed| game("fft-4p", 4, 300 + seed)).collect();
    let prepare = |records: &[GameRecord]| records.iter().map(|r| tarot_store::prepare(registry(), r.clone()).unwrap()).collect::<Vec<_>>();
    let bulk_files = || std::fs::read_dir(dir.0.join("bulk")).unwrap().count();
    let mut later = store.import(prepare(&more[..1])).unwrap();
    assert_eq!(bulk_files(), 2);
    later.extend(store.import(prepare(&more[1..2])).unwrap());
    assert_eq!(bulk_files(), 2);
    drop(store);
    let store = Store::open(&dir.0).unwrap();
    later.extend(store.import(prepare(&more[2..])).unwrap());
    assert_eq!(bulk_files(), 3);
    for ((appended, new), record) in later.iter().zip(&more) {
        assert!(new);
        assert_eq!(store.record(&appended.game).unwrap(), *record);
        assert_eq!(store.projection(&appended.game).unwrap().unwrap().version, appended.version);
    }
    // Rebuilt projections are written in sled, in place of the pointers, and read the same.
    tarot_store::rebuild_projections(&store, registry()).unwrap();
    assert_eq!(first[1..].iter().map(|(a, _)| store.projection(&a.game).unwrap().unwrap()).collect::<Vec<_>>(), verdicts[1..]);
}

/// Games created together (POST /games through the writer thread) keep their events and verdicts
/// in one bulk file that batch after batch adds to; they read back the same after a reopen, and
/// after it the writer starts a file of its own.
#[test]
fn games_created_together_keep_their_large_values_in_a_bulk_file() {
    let dir = TempDir::new("bulk-writer");
    let records: Vec<GameRecord> = (0..6).map(|seed| game("fft-4p", 4, 200 + seed)).collect();
    let imports = |records: &[GameRecord]| records.iter().map(|r| tarot_store::prepare(registry(), r.clone()).unwrap()).collect::<Vec<_>>();
    let bulk_files = || std::fs::read_dir(dir.0.join("bulk")).unwrap().count();
    let store = Store::open(&dir.0).unwrap();
    let mut created: Vec<_> = store.create_games(imports(&records[..3])).into_iter().map(Result::unwrap).collect();
    created.extend(store.create_games(imports(&records[3..5])).into_iter().map(Result::unwrap));
    assert_eq!(bulk_files(), 1);
    let verdicts: Vec<_> = created.iter().map(|a| store.projection(&a.game).unwrap().unwrap()).collect();
    drop(store);
    let store = Store::open(&dir.0).unwrap();
    for (appended, record) in created.iter().zip(&records) {
        assert_eq!(store.record(&appended.game).unwrap(), *record);
    }
    assert_eq!(created.iter().map(|a| store.projection(&a.game).unwrap().unwrap()).collect::<Vec<_>>(), verdicts);
    let last = store.create_games(imports(&records[5..])).pop().unwrap().unwrap();
    assert_eq!(bulk_files(), 2);
    assert_eq!(store.record(&last.game).unwrap(), records[5]);
    assert_eq!(store.events(&created[4].game).unwrap().last().unwrap().position + 1, last.first_position);
}

/// Games stored together (an import's batch) have one index entry per value and batch, which
/// lists every game of the batch; a projection written again later (a different status) adds an
/// entry of the game's own. Listings read both: each game once, in creation order, under the
/// values its summary has now.
#[test]
fn games_stored_together_are_listed_through_their_batch_index_entries() {
    use tarot_store::{Filter, Summary};
    let dir = TempDir::new("batch-index");
    let records: Vec<GameRecord> = (0..12).map(|seed| if seed % 3 == 0 { game("basic", 3, 300 + seed) } else { game("fft-4p", 4, 300 + seed) }).collect();
    let imports = |records: &[GameRecord]| records.iter().map(|r| tarot_store::prepare(registry(), r.clone()).unwrap()).collect::<Vec<_>>();
    let store = Store::open(&dir.0).unwrap();
    let mut games: Vec<GameId> = store.import(imports(&records[..7])).unwrap().into_iter().map(|(a, _)| a.game).collect();
    games.extend(store.import(imports(&records[7..])).unwrap().into_iter().map(|(a, _)| a.game));
    // One game's projection replaced by one with another status.
    let mut changed = store.projection(&games[4]).unwrap().unwrap();
    changed.status = if changed.status == "valid" { "invalid".into() } else { "valid".into() };
    store.put_projection(&games[4], &changed).unwrap();
    drop(store);
    let store = Store::open(&dir.0).unwrap();
    let all: Vec<Summary> = store.list(&Filter::default(), 0, 100).unwrap().0;
    assert_eq!(all.iter().map(|s| &s.game).collect::<Vec<_>>(), games.iter().collect::<Vec<_>>());
    assert_eq!(all[4].status, changed.status);
    let mut values: Vec<Filter> = vec![];
    for s in &all {
        values.push(Filter { ruleset: Some(s.ruleset.clone()), ..Filter::default() });
        values.push(Filter { status: Some(s.status.clone()), ..Filter::default() });
        values.extend(s.players.iter().map(|p| Filter { player: Some(p.clone()), ..Filter::default() }));
        values.push(Filter { ruleset: Some(s.ruleset.clone()), player: Some(s.players[0].clone()), status: Some(s.status.clone()) });
    }
    values.push(Filter { status: Some(if changed.status == "valid" { "invalid".into() } else { "valid".into() }), ..Filter::default() });
    for filter in values {
        let expected: Vec<&Summary> = all
            .iter()
            .filter(|s| {
                filter.ruleset.as_ref().is_none_or(|r| *r == s.ruleset)
                    && filter.player.as_ref().is_none_or(|p| s.players.contains(p))
                    && filter.status.as_ref().is_none_or(|st| *st == s.status)
            })
            .collect();
        let mut listed = vec![];
        for page in 0..6 {
            let (summaries, total) = store.list(&filter, page * 3, 3).unwrap();
            assert_eq!(total, expected.len(), "{filter:?}");
            listed.extend(summaries);
        }
        assert_eq!(listed.iter().collect::<Vec<_>>(), expected, "{filter:?}");
    }
}

/// A batch staged before other batches are stored finds the games they stored: through the
/// digests of the last batches remembered, or in `creations` once more batches went by.
#[test]
fn a_batch_staged_before_others_are_stored_finds_the_games_they_stored() {
    let dir = TempDir::new("staged");
    let records: Vec<GameRecord> = (0..4).map(|seed| game("fft-4p", 4, 400 + seed)).collect();
    let prepare = |records: &[GameRecord]| records.iter().map(|r| tarot_store::prepare(registry(), r.clone()).unwrap()).collect::<Vec<_>>();
    let store = Store::open(&dir.0).unwrap();
    let (a, b, c) = (store.stage_import(prepare(&records[..2])).unwrap(), store.stage_import(prepare(&records[1..3])).unwrap(), store.stage_import(prepare(&records)).unwrap());
    let a = store.import_staged(a).unwrap();
    let b = store.import_staged(b).unwrap();
    for _ in 0..6 {
        store.import_staged(store.stage_import(vec![]).unwrap()).unwrap();
    }
    let c = store.import_staged(c).unwrap();
    store.flush().unwrap();
    let new = |results: &[(Appended, bool)]| results.iter().map(|(_, new)| *new).collect::<Vec<_>>();
    assert_eq!((new(&a), new(&b), new(&c)), (vec![true, true], vec![false, true], vec![false, false, false, true]));
    assert_eq!(b[0].0, a[1].0);
    assert_eq!(c.iter().map(|(x, _)| x.clone()).collect::<Vec<_>>()[..3], [a[0].0.clone(), a[1].0.clone(), b[1].0.clone()]);
    assert_eq!(store.games().unwrap().len(), 4);
    for ((appended, _), record) in c.iter().zip(&records) {
        assert_eq!(store.record(&appended.game).unwrap(), *record);
    }
}

/// A snapshot that sled began and could not finish (a server started on a full disk leaves an empty
/// `snap.*.generating`) does not make the store unreadable: it opens, with everything it held.
#[test]
fn an_unfinished_snapshot_does_not_make_the_store_unreadable() {
    let dir = TempDir::new("unfinished-snapshot");
    let record = game("fft-4p", 4, 3);
    let created = {
        let store = Store::open(&dir.0).unwrap();
        let created = store.create_game(&Header::of(&record), without_ids(&record.events)).unwrap();
        store.flush().unwrap();
        created
    };
    let snapshot = std::fs::read_dir(&dir.0)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with("snap."))
        .max()
        .unwrap_or_else(|| "snap.0000000000000000".into());
    std::fs::write(dir.0.join(format!("{snapshot}.generating")), b"").unwrap();
    let store = Store::open(&dir.0).unwrap_or_else(|e| panic!("the store does not open: {e}"));
    assert_eq!(store.record(&created.game).unwrap(), record);
    assert!(!dir.0.join(format!("{snapshot}.generating")).exists());
}
