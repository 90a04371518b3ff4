//! The archive under stress, as clients see it: a server killed with SIGKILL while clients append
//! loses no acknowledged append and leaves every stream a gapless prefix; many clients racing on one
//! game's version get exactly one winner per version.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use crate::common::{deal_only, fixture, spawn, spawn_fresh, spawn_on_small_disk, temp_dir};
use serde_json::{json, Value};

/// The complete legal games the clients replay move by move.
fn games() -> Vec<Value> {
    [
        "fft-4p/valid/4p-1.json",
        "fft-4p/valid/4p-2.json",
        "marolles-1637/valid/3p-1.json",
        "marolles-1637/valid/3p-2.json",
        "basic/valid/3p-1.json",
        "basic/valid/4p-1.json",
        "basic/valid/6p-1.json",
        "basic/valid/6p-2.json",
    ]
    .iter()
    .map(|f| serde_json::from_str(&fixture(f)).unwrap())
    .collect()
}

#[test]
#[ignore = "kills the server with SIGKILL under load: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn sigkill_loses_no_acknowledged_append() {
    let data = temp_dir("crash");
    let server = spawn(&data, &[]);
    let games = games();
    let ids: Vec<String> = games.iter().map(|g| server.post("/games", &deal_only(g).to_string()).json()["id"].as_str().unwrap().to_string()).collect();
    let base = server.base.clone();
    // Each client appends its game's moves one at a time and remembers the last version acknowledged.
    let acknowledged: Arc<Mutex<Vec<usize>>> = Arc::new(Mutex::new(vec![1; games.len()]));
    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = games
        .iter()
        .cloned()
        .zip(ids.clone())
        .enumerate()
        .map(|(i, (game, id))| {
            let (base, acknowledged, stop) = (base.clone(), acknowledged.clone(), stop.clone());
            std::thread::spawn(move || {
                let events = game["events"].as_array().unwrap().clone();
                for (v, event) in events.iter().enumerate().skip(1) {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let body = json!({"expected_version": v, "events": [event], "ids": [format!("{id}-{v}")]}).to_string();
                    match ureq::post(&format!("{base}/games/{id}/events")).set("Content-Type", "application/json").timeout(Duration::from_secs(5)).send_string(&body) {
                        Ok(r) if r.status() == 200 => acknowledged.lock().unwrap()[i] = v + 1,
                        Ok(r) => panic!("append {v} of {id}: {}", r.status()),
                        Err(ureq::Error::Status(code, r)) => panic!("append {v} of {id}: {code} {}", r.into_string().unwrap_or_default()),
                        // The server is gone: this append may or may not have been stored.
                        Err(_) => return,
                    }
                }
            })
        })
        .collect();
    // Let the clients get going, then kill the server in the middle of their appends.
    let started = Instant::now();
    while acknowledged.lock().unwrap().iter().sum::<usize>() < games.len() * 12 && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(5));
    }
    server.kill();
    stop.store(true, Ordering::SeqCst);
    for c in clients {
        c.join().unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(acknowledged.iter().sum::<usize>() >= games.len() * 12, "the clients appended too little before the kill");

    let server = spawn(&data, &[]);
    for ((game, id), acked) in games.iter().zip(&ids).zip(&acknowledged) {
        let stored = server.get(&format!("/games/{id}/events")).json();
        let stored = stored["events"].as_array().unwrap();
        assert!(stored.len() >= *acked, "game {id}: {acked} events acknowledged, {} stored", stored.len());
        for (v, e) in stored.iter().enumerate() {
            assert_eq!(e["version"], v as u64 + 1, "game {id}: versions are gapless");
            assert_eq!(e["event"], game["events"][v], "game {id}: event {v} is the one appended");
        }
    }
    // Global positions are gapless too: every stored event has its own, from 1 up.
    let mut positions: Vec<u64> = ids
        .iter()
        .flat_map(|id| server.get(&format!("/games/{id}/events")).json()["events"].as_array().unwrap().iter().map(|e| e["position"].as_u64().unwrap()).collect::<Vec<_>>())
        .collect();
    positions.sort();
    assert_eq!(positions, (1..=positions.len() as u64).collect::<Vec<_>>());
}

#[test]
fn racing_clients_get_one_winner_per_version() {
    let server = spawn_fresh("race", &[]);
    let game = games().remove(0);
    let id = server.post("/games", &deal_only(&game).to_string()).json()["id"].as_str().unwrap().to_string();
    let clients = 8;
    let rounds = 40;
    let barrier = Arc::new(Barrier::new(clients));
    let wins = Arc::new(Mutex::new(vec![0usize; rounds]));
    let handles: Vec<_> = (0..clients)
        .map(|c| {
            let (base, id, game, barrier, wins) = (server.base.clone(), id.clone(), game.clone(), barrier.clone(), wins.clone());
            std::thread::spawn(move || {
                for round in 0..rounds {
                    let version = round + 1;
                    barrier.wait();
                    // Every client sends the same next move, under its own event id.
                    let body = json!({"expected_version": version, "events": [game["events"][version]], "ids": [format!("client{c}-round{round}")]}).to_string();
                    match ureq::post(&format!("{base}/games/{id}/events")).set("Content-Type", "application/json").send_string(&body) {
                        Ok(r) => {
                            assert_eq!(r.status(), 200);
                            wins.lock().unwrap()[round] += 1;
                        }
                        Err(ureq::Error::Status(409, r)) => {
                            let p: Value = serde_json::from_str(&r.into_string().unwrap()).unwrap();
                            assert_eq!(p["current_version"], version as u64 + 1);
                        }
                        Err(e) => panic!("round {round}: {e}"),
                    }
                    barrier.wait();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert!(wins.lock().unwrap().iter().all(|&w| w == 1), "winners per version: {:?}", wins.lock().unwrap());
    let stored = server.get(&format!("/games/{id}/events")).json();
    let stored = stored["events"].as_array().unwrap();
    assert_eq!(stored.len(), rounds + 1);
    for (v, e) in stored.iter().enumerate() {
        assert_eq!(e["event"], game["events"][v]);
    }
}

/// A disk that fills up (a 4 MiB tmpfs): once the server cannot write, a creation is answered 507
/// `storage-full` (not a 500), the server stays up, and a game answered 201 before is read back with
/// its verdict. Once a write to its disk has failed, sled refuses any operation that must write,
/// and a read that would help finish a change to its tree is one (its "global error", until the
/// store is opened again): such a read is answered 507 `storage-full` too, never a 500 or a wrong
/// verdict, and most games still read back.
#[test]
#[ignore = "mounts a small disk in a user namespace: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn a_full_disk_refuses_writes_with_507_and_keeps_what_was_stored() {
    let server = spawn_on_small_disk("full-disk", 4 << 20);
    let mut game: Value = serde_json::from_str(&fixture("fft-4p/valid/4p-1.json")).unwrap();
    let mut stored = vec![];
    let full = loop {
        assert!(stored.len() < 20_000, "20,000 games stored on a 4 MiB disk");
        game["description"] = json!(format!("game {} on a small disk", stored.len()));
        let r = server.post("/games", &game.to_string());
        match r.status {
            201 => stored.push(r.json()["id"].as_str().expect("an id").to_string()),
            507 => break r,
            other => panic!("game {}: {other} {}", stored.len(), r.text),
        }
    };
    assert!(stored.len() > 10, "the disk was full after {} games", stored.len());
    assert_eq!(full.json()["type"], "urn:tarot-archive:problem:storage-full", "{}", full.text);
    // Still up, and still full: a second write is refused the same way.
    assert_eq!(server.post("/games", &game.to_string()).status, 507);
    let mut read = 0;
    for id in &stored {
        let r = server.get(&format!("/games/{id}"));
        match r.status {
            200 => {
                assert_eq!(r.json()["verdict"]["status"], "valid", "{id}");
                read += 1;
            }
            507 => assert_eq!(r.json()["type"], "urn:tarot-archive:problem:storage-full", "{id}: {}", r.text),
            other => panic!("{id}: {other} {}", r.text),
        }
    }
    assert!(read * 10 >= stored.len() * 9, "only {read} of {} stored games read back on the full disk", stored.len());
}
