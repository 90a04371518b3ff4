//! The archive on PostgreSQL, as clients see it, with real `serve` processes on a real PostgreSQL
//! (`store/tests/it/common/postgres.rs` starts it): several servers on one database with clients
//! racing on the same games (one winner per version, gapless positions, a write through one read
//! through another at once); a server killed with SIGKILL under load (no acknowledged append lost);
//! PostgreSQL itself stopped and started under load (503 while it is down, then the same servers
//! carry on); clients racing legal and illegal appends at right, stale and early versions through
//! two servers (nothing unrefereed is stored).

use crate::common;
use crate::pg;

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use crate::common::{deal_only, fixture, tarot_archive, temp_dir, TempDir};
use serde_json::{json, Value};

/// A `serve` process on a PostgreSQL database.
struct PgServer {
    child: Option<Child>,
    base: String,
    _log: TempDir,
}

impl PgServer {
    fn start(url: &str) -> PgServer {
        let log = temp_dir("pg-server");
        let mut child = tarot_archive()
            .args(["serve", "--addr", "127.0.0.1:0", "--store", url])
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(log.with_extension("log")).unwrap())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let base = line.trim().strip_prefix("listening on ").unwrap_or_else(|| panic!("unexpected first line: {line}")).to_string();
        PgServer { child: Some(child), base, _log: log }
    }

    fn kill(mut self) {
        let mut child = self.child.take().unwrap();
        unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
        let _ = child.wait();
    }

    fn get(&self, path: &str) -> Value {
        ureq::get(&format!("{}{path}", self.base)).call().unwrap_or_else(|e| panic!("GET {path}: {e}")).into_json().unwrap()
    }

    fn post(&self, path: &str, body: &Value) -> Value {
        ureq::post(&format!("{}{path}", self.base)).send_json(body.clone()).unwrap_or_else(|e| panic!("POST {path}: {e}")).into_json().unwrap()
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn games() -> Vec<Value> {
    ["fft-4p/valid/4p-1.json", "fft-4p/valid/4p-2.json", "marolles-1637/valid/3p-1.json", "basic/valid/4p-1.json"]
        .iter()
        .map(|f| serde_json::from_str(&fixture(f)).unwrap())
        .collect()
}

/// Every stored event's position, through `server`: they must be 1, 2, 3... with none missing.
fn assert_gapless(server: &PgServer, ids: &[String]) {
    let mut positions: Vec<u64> = ids
        .iter()
        .flat_map(|id| server.get(&format!("/games/{id}/events"))["events"].as_array().unwrap().iter().map(|e| e["position"].as_u64().unwrap()).collect::<Vec<_>>())
        .collect();
    positions.sort();
    assert_eq!(positions, (1..=positions.len() as u64).collect::<Vec<_>>(), "global positions are gapless");
}

#[test]
#[ignore = "needs PostgreSQL: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn several_servers_on_one_database_agree() {
    let url = pg::database("several");
    let servers: Vec<PgServer> = (0..3).map(|_| PgServer::start(&url)).collect();
    let games = games();
    // Created through one, read through each of the others at once.
    let ids: Vec<String> = games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let id = servers[i % 3].post("/games", &deal_only(g))["id"].as_str().unwrap().to_string();
            for s in &servers {
                assert_eq!(s.get(&format!("/games/{id}"))["version"], 1, "{id} through {}", s.base);
            }
            id
        })
        .collect();

    // Clients race through all three servers: every round, each sends its game's next move under
    // its own event id to a different server; exactly one wins each version.
    let (clients, rounds) = (6, 12);
    let barrier = Arc::new(Barrier::new(clients));
    let wins = Arc::new(Mutex::new(vec![vec![0usize; rounds]; games.len()]));
    let bases: Vec<String> = servers.iter().map(|s| s.base.clone()).collect();
    std::thread::scope(|scope| {
        for c in 0..clients {
            let (bases, ids, games, barrier, wins) = (&bases, &ids, &games, barrier.clone(), wins.clone());
            scope.spawn(move || {
                for round in 0..rounds {
                    barrier.wait();
                    for (g, (id, game)) in ids.iter().zip(games).enumerate() {
                        let version = round + 1;
                        let base = &bases[(c + g + round) % bases.len()];
                        let body = json!({"expected_version": version, "events": [game["events"][version]], "ids": [format!("c{c}-r{round}")]});
                        match ureq::post(&format!("{base}/games/{id}/events")).send_json(body) {
                            Ok(_) => wins.lock().unwrap()[g][round] += 1,
                            Err(ureq::Error::Status(409, r)) => assert_eq!(r.into_json::<Value>().unwrap()["current_version"], version as u64 + 1),
                            Err(e) => panic!("{id} round {round}: {e}"),
                        }
                    }
                    barrier.wait();
                }
            });
        }
    });
    for (g, wins) in wins.lock().unwrap().iter().enumerate() {
        assert!(wins.iter().all(|&w| w == 1), "game {}: winners per version {wins:?}", ids[g]);
    }
    for (id, game) in ids.iter().zip(&games) {
        let through: Vec<Value> = servers.iter().map(|s| s.get(&format!("/games/{id}/events"))).collect();
        assert!(through.iter().all(|t| *t == through[0]), "{id} reads the same through every server");
        let events = through[0]["events"].as_array().unwrap();
        assert_eq!(events.len(), rounds + 1);
        for (v, e) in events.iter().enumerate() {
            assert_eq!(e["event"], game["events"][v]);
        }
    }
    assert_gapless(&servers[1], &ids);
}

/// Clients append every game's moves one at a time through `base`, recording each version
/// acknowledged, until `stop` or until the server stops answering (when `give_up` is set).
fn append_in_turn(base: &str, ids: &[String], games: &[Value], acknowledged: &Mutex<Vec<usize>>, stop: &AtomicBool, statuses: &Mutex<Vec<u16>>) {
    std::thread::scope(|scope| {
        for (i, (id, game)) in ids.iter().zip(games).enumerate() {
            scope.spawn(move || {
                let events = game["events"].as_array().unwrap();
                let mut v = 1;
                while v < events.len() && !stop.load(Ordering::SeqCst) {
                    let body = json!({"expected_version": v, "events": [events[v]], "ids": [format!("{id}-{v}")]});
                    match ureq::post(&format!("{base}/games/{id}/events")).timeout(Duration::from_secs(10)).send_json(body) {
                        Ok(_) => {
                            acknowledged.lock().unwrap()[i] = v + 1;
                            v += 1;
                        }
                        Err(ureq::Error::Status(code, _)) => {
                            statuses.lock().unwrap().push(code);
                            std::thread::sleep(Duration::from_millis(20));
                        }
                        // The server is gone.
                        Err(_) => return,
                    }
                }
            });
        }
    });
}

#[test]
#[ignore = "needs PostgreSQL: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn sigkill_under_load_loses_no_acknowledged_append() {
    let url = pg::database("sigkill");
    let server = PgServer::start(&url);
    let games = games();
    let ids: Vec<String> = games.iter().map(|g| server.post("/games", &deal_only(g))["id"].as_str().unwrap().to_string()).collect();
    let acknowledged = Mutex::new(vec![1; games.len()]);
    let (stop, statuses) = (AtomicBool::new(false), Mutex::new(vec![]));
    std::thread::scope(|scope| {
        scope.spawn(|| append_in_turn(&server.base, &ids, &games, &acknowledged, &stop, &statuses));
        let started = Instant::now();
        while acknowledged.lock().unwrap().iter().sum::<usize>() < games.len() * 15 && started.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(5));
        }
        let child = server.child.as_ref().unwrap().id();
        unsafe { libc::kill(child as i32, libc::SIGKILL) };
    });
    server.kill();
    let acknowledged = acknowledged.into_inner().unwrap();
    assert!(acknowledged.iter().sum::<usize>() >= games.len() * 15, "the clients appended too little before the kill");
    assert_eq!(statuses.into_inner().unwrap(), Vec::<u16>::new());

    let server = PgServer::start(&url);
    for ((game, id), acked) in games.iter().zip(&ids).zip(&acknowledged) {
        let stored = server.get(&format!("/games/{id}/events"));
        let stored = stored["events"].as_array().unwrap();
        assert!(stored.len() >= *acked, "game {id}: {acked} events acknowledged, {} stored", stored.len());
        for (v, e) in stored.iter().enumerate() {
            assert_eq!(e["version"], v as u64 + 1);
            assert_eq!(e["event"], game["events"][v]);
        }
    }
    assert_gapless(&server, &ids);
}

#[test]
#[ignore = "needs PostgreSQL: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn postgres_restarted_under_load_gives_503_then_recovers() {
    // A cluster of its own: stopping the shared one would disturb the other tests.
    let cluster = pg::Cluster::create("restart");
    let url = cluster.database("restart");
    let server = PgServer::start(&url);
    let games = games();
    let ids: Vec<String> = games.iter().map(|g| server.post("/games", &deal_only(g))["id"].as_str().unwrap().to_string()).collect();
    let acknowledged = Mutex::new(vec![1; games.len()]);
    let (stop, statuses) = (AtomicBool::new(false), Mutex::new(vec![]));
    let mut while_down = 0;
    std::thread::scope(|scope| {
        scope.spawn(|| append_in_turn(&server.base, &ids, &games, &acknowledged, &stop, &statuses));
        let progress = || acknowledged.lock().unwrap().iter().sum::<usize>();
        let started = Instant::now();
        while progress() < games.len() * 5 && started.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(5));
        }
        cluster.stop();
        // While PostgreSQL is down, the server answers, with 503 and a problem that says why.
        let down = ureq::get(&format!("{}/games/{}", server.base, ids[0])).call();
        match down {
            Err(ureq::Error::Status(503, r)) => {
                assert_eq!(r.content_type(), "application/problem+json");
                let problem: Value = r.into_json().unwrap();
                assert!(problem["detail"].as_str().unwrap().contains("database cannot be reached"), "{problem}");
            }
            other => panic!("expected 503 while PostgreSQL is down, got {other:?}"),
        }
        std::thread::sleep(Duration::from_millis(500));
        while_down = statuses.lock().unwrap().len();
        cluster.start();
        // The same server carries on: the clients' appends succeed again.
        let before = progress();
        let restarted = Instant::now();
        while progress() < before + games.len() * 5 && restarted.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(progress() >= before + games.len() * 5, "appends did not resume after PostgreSQL restarted");
        stop.store(true, Ordering::SeqCst);
    });
    let statuses = statuses.into_inner().unwrap();
    assert!(while_down > 0, "the clients saw no error while PostgreSQL was down");
    assert!(statuses.iter().all(|&s| s == 503), "errors while PostgreSQL was down are 503s: {statuses:?}");
    let acknowledged = acknowledged.into_inner().unwrap();
    for (id, acked) in ids.iter().zip(&acknowledged) {
        assert!(server.get(&format!("/games/{id}/events"))["events"].as_array().unwrap().len() >= *acked);
    }
    assert_gapless(&server, &ids);
}

/// A session on PostgreSQL refuses a deal whose pots do not carry on from the deal before (409,
/// `does_not_follow`), as on sled (tests/it/session_match.rs), and keeps the deals before it.
#[test]
#[ignore = "needs PostgreSQL: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn a_session_refuses_a_deal_whose_pots_do_not_follow() {
    let url = pg::database("session_pots");
    let server = PgServer::start(&url);
    let deal = |k: usize| -> Value { serde_json::from_str(&fixture(&format!("grosstarock/sessions/broken/deal-{k}.json"))).unwrap() };
    let session = server.post("/sessions", &json!({"name": "broken", "players": deal(1)["players"]}))["id"].as_str().unwrap().to_string();
    for k in 1..=3 {
        let game = server.post("/games", &deal(k));
        let added = ureq::post(&format!("{}/sessions/{session}/games", server.base)).send_json(json!({"game": game["id"]}));
        match (k, added) {
            (3, Err(ureq::Error::Status(409, r))) => {
                let p: Value = r.into_json().unwrap();
                assert_eq!(p["does_not_follow"], json!({"deal": 3, "pot": "king", "expected": 0, "given": 75}), "{p}");
            }
            (1 | 2, Ok(_)) => {}
            (k, other) => panic!("deal {k}: {other:?}"),
        }
    }
    assert_eq!(server.get(&format!("/sessions/{session}"))["deals"].as_array().unwrap().len(), 2);
}

/// Two deals POSTed to one session at once on PostgreSQL, each of which would follow the first deal
/// alone: one is added and the other refused (409), never both, as on sled
/// (tests/it/session_match.rs); the session holds the first deal and the winner.
#[test]
#[ignore = "needs PostgreSQL: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn two_deals_posted_at_once_to_one_session_add_one() {
    let url = pg::database("session_race");
    let server = PgServer::start(&url);
    let troccas = |name: &str| -> Value { serde_json::from_str(&fixture(&format!("troccas/valid/{name}.json"))).unwrap() };
    let standing = json!({"Ann": 4, "Bob": -4, "Cid": 4, "Dan": -4});
    for round in 0..6 {
        let store = |mut game: Value, what: &str| -> String {
            game["description"] = format!("race {round}: {what}").into();
            server.post("/games", &game)["id"].as_str().unwrap().to_string()
        };
        let first = store(troccas("4p-1"), "the first deal");
        let mut a = troccas("4p-2");
        a["standing"] = standing.clone();
        let mut b = troccas("4p-1");
        b["standing"] = standing.clone();
        let seconds = [store(a, "a second deal"), store(b, "another second deal")];
        let session = server.post("/sessions", &json!({"name": format!("race {round}"), "players": troccas("4p-1")["players"]}))["id"].as_str().unwrap().to_string();
        let path = format!("{}/sessions/{session}/games", server.base);
        ureq::post(&path).send_json(json!({"game": first})).unwrap();
        let gate = Barrier::new(2);
        let statuses: Vec<u16> = std::thread::scope(|scope| {
            let posts: Vec<_> = seconds
                .iter()
                .map(|game| {
                    let (gate, path) = (&gate, &path);
                    scope.spawn(move || {
                        gate.wait();
                        match ureq::post(path).send_json(json!({"game": game})) {
                            Ok(r) => r.status(),
                            Err(ureq::Error::Status(code, _)) => code,
                            Err(e) => panic!("{e}"),
                        }
                    })
                })
                .collect();
            posts.into_iter().map(|p| p.join().unwrap()).collect()
        });
        let mut sorted = statuses.clone();
        sorted.sort();
        assert_eq!(sorted, [200, 409], "round {round}");
        let won = &seconds[statuses.iter().position(|s| *s == 200).unwrap()];
        let sheet = server.get(&format!("/sessions/{session}"));
        let games: Vec<&str> = sheet["deals"].as_array().unwrap().iter().map(|d| d["game"].as_str().unwrap()).collect();
        assert_eq!(games, [first.as_str(), won.as_str()], "round {round}: {sheet}");
    }
}

/// Many clients append to the same games through two servers on one database, with legal and
/// illegal moves, at the version they read, one past it and one before it: every game replays from
/// its stored events without breaking a rule and holds exactly the moves answered 200, as on sled
/// (tests/it/api/referee.rs).
#[test]
#[ignore = "needs PostgreSQL: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn racing_appends_through_two_servers_store_only_refereed_moves() {
    let url = pg::database("race");
    let servers: Vec<PgServer> = (0..2).map(|_| PgServer::start(&url)).collect();
    let games = games();
    let ids: Vec<String> = games.iter().map(|g| servers[0].post("/games", &deal_only(g))["id"].as_str().unwrap().to_string()).collect();
    let bases: Vec<String> = servers.iter().map(|s| s.base.clone()).collect();
    let acknowledged = common::race::race(&bases, &ids, &games, 8, 16);
    common::race::assert_no_lie(&bases[1], &ids, &acknowledged);
    assert!(acknowledged.iter().all(|a| a.len() == 16), "moves acknowledged per game: {:?}", acknowledged.iter().map(|a| a.len()).collect::<Vec<_>>());
    assert_gapless(&servers[0], &ids);
}
