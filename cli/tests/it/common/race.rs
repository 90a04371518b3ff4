//! Clients racing to append to the same games, with legal and illegal moves and right, stale and
//! early versions, through one or several servers on one store; and the check that afterwards the
//! archive holds no lie: every stored game replays from its stored events without breaking a rule,
//! every stored event was acknowledged, and every acknowledged event is stored.

use std::collections::BTreeSet;
use std::sync::{Barrier, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

/// What a client sends in one round of the race.
#[derive(Clone, Copy, Debug)]
enum Try {
    /// The game's next move, at the version just read: exactly one such append wins each round.
    Legal,
    /// The move the winner of the round plays, one version ahead: once the winner's move is stored,
    /// the same move again breaks a rule.
    Again,
    /// A second deal, one version ahead.
    Redeal,
    /// The game's next move at a version already passed: a stale append.
    Stale,
}

const TRIES: [Try; 4] = [Try::Legal, Try::Again, Try::Redeal, Try::Stale];

/// Races `clients` clients for `rounds` rounds on the games `ids` (started from `games` with their
/// deal alone), each request sent to one of `bases` in turn. Returns the event ids acknowledged
/// (200), per game. Every answer must be 200, 409 or 422; anything else fails the test.
pub fn race(bases: &[String], ids: &[String], games: &[Value], clients: usize, rounds: usize) -> Vec<BTreeSet<String>> {
    let acknowledged = Mutex::new(vec![BTreeSet::new(); ids.len()]);
    let barrier = Barrier::new(clients);
    let agent = ureq::AgentBuilder::new().timeout(Duration::from_secs(30)).build();
    std::thread::scope(|scope| {
        for c in 0..clients {
            let (barrier, acknowledged, agent) = (&barrier, &acknowledged, agent.clone());
            scope.spawn(move || {
                for round in 0..rounds {
                    for (g, (id, game)) in ids.iter().zip(games).enumerate() {
                        let events = game["events"].as_array().unwrap();
                        let base = &bases[(c + g + round) % bases.len()];
                        let version = agent.get(&format!("{base}/games/{id}")).call().unwrap().into_json::<Value>().unwrap()["version"].as_u64().unwrap();
                        let v = version as usize;
                        let (event, expected) = match TRIES[(c + round) % TRIES.len()] {
                            _ if v >= events.len() => (events[0].clone(), version),
                            Try::Legal => (events[v].clone(), version),
                            Try::Again => (events[v].clone(), version + 1),
                            Try::Redeal => (events[0].clone(), version + 1),
                            Try::Stale => (events[v].clone(), version - 1),
                        };
                        let event_id = format!("c{c}-r{round}-g{g}");
                        barrier.wait();
                        let body = json!({"expected_version": expected, "events": [event], "ids": [event_id]});
                        match agent.post(&format!("{base}/games/{id}/events")).send_json(body) {
                            Ok(_) => {
                                acknowledged.lock().unwrap()[g].insert(event_id);
                            }
                            Err(ureq::Error::Status(409 | 422, _)) => {}
                            Err(e) => panic!("{id}, round {round}, client {c}: {e}"),
                        }
                    }
                }
            });
        }
    });
    acknowledged.into_inner().unwrap()
}

/// Every game replays from its stored events (read back and sent to `POST /validate`, which
/// stores nothing) without breaking a rule, and holds exactly the events acknowledged.
pub fn assert_no_lie(base: &str, ids: &[String], acknowledged: &[BTreeSet<String>]) {
    let mut lies = vec![];
    for (id, acked) in ids.iter().zip(acknowledged) {
        let game: Value = ureq::get(&format!("{base}/games/{id}")).call().unwrap().into_json().unwrap();
        let stored: Value = ureq::get(&format!("{base}/games/{id}/events")).call().unwrap().into_json().unwrap();
        let stored = stored["events"].as_array().unwrap();
        let record = json!({
            "ruleset": game["ruleset"],
            "players": game["players"],
            "dealer": game["dealer"],
            "events": stored.iter().map(|e| e["event"].clone()).collect::<Vec<_>>(),
        });
        let verdict: Value = match ureq::post(&format!("{base}/validate")).send_json(record) {
            Ok(r) => r.into_json().unwrap(),
            Err(ureq::Error::Status(_, r)) => {
                lies.push(format!("{id}: its {} stored events cannot be replayed: {}", stored.len(), r.into_string().unwrap()));
                continue;
            }
            Err(e) => panic!("{e}"),
        };
        if verdict["status"] == "invalid" {
            lies.push(format!("{id}: its {} stored events break a rule: {}", stored.len(), verdict["violation"]));
        }
        // The deal was stored at creation, with no id; every later event was appended with one.
        let ids: BTreeSet<String> = stored.iter().skip(1).map(|e| e["id"].as_str().unwrap_or("(none)").to_string()).collect();
        if ids != *acked {
            let never: Vec<_> = ids.difference(acked).collect();
            let lost: Vec<_> = acked.difference(&ids).collect();
            lies.push(format!("{id}: stored but refused {never:?}; acknowledged but not stored {lost:?}"));
        }
    }
    assert!(lies.is_empty(), "the archive holds {} lies:\n{}", lies.len(), lies.join("\n"));
}
