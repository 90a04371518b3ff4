//! Hostile records over HTTP. The valid games of every ruleset (more of them for the rulesets whose
//! constructs are the newest: an auction in rounds with bids out of turn, declarations made again or
//! paying between players, a deal in one of several packet orders, a partner called at seven or
//! eight) are mutated by a seeded generator: an event dropped, repeated or given to another player, a
//! bid or a declaration of the ruleset's slipped in, two cards of the deal swapped, another dealer,
//! an option given another choice or a value no option has (an unknown name, a value not among the
//! choices, true, a list), the record read under another ruleset. Each is sent to `POST /validate`,
//! and one in four to `POST /games`: no answer is a 5xx or slow, a game stored holds what was
//! refereed (its stored events, replayed by `POST /validate`, give the verdict that its creation
//! answered), and its pages for people are drawn.

use std::time::{Duration, Instant};

use crate::common::{fixture, root, spawn_fresh};
use serde_json::{json, Value};

/// The rulesets of the newest constructs, mutated more than the others.
const NEWEST: [&str; 6] = ["cego-3", "cego-pagat", "dobbm", "troggu-graechen", "troggu-st-niklaus", "troggu-7-8"];

/// A small seeded generator (xorshift): the same records on every run.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The values of `field` in the events of type `kind` of the games: the bids or the declarations a
/// ruleset's records make, to slip in elsewhere.
fn said_in(games: &[Value], kind: &str, field: &str) -> Vec<String> {
    let mut v: Vec<String> =
        games.iter().flat_map(|g| g["events"].as_array().unwrap().iter()).filter(|e| e["type"] == kind).filter_map(|e| e[field].as_str().map(String::from)).collect();
    v.sort();
    v.dedup();
    v
}

/// What a ruleset's records may be mutated with: the bids and declarations its valid games make, its
/// options (each name with its choices, from `GET /rulesets/{id}`), and every ruleset's id.
struct Said {
    bids: Vec<String>,
    declarations: Vec<String>,
    options: Vec<(String, Vec<Value>)>,
    ids: Vec<String>,
}

fn mutate(game: &Value, said: &Said, d: &mut Draw) -> Value {
    let Said { bids, declarations, options, ids } = said;
    let mut game = game.clone();
    let players: Vec<Value> = game["players"].as_array().unwrap().clone();
    for _ in 0..1 + d.below(3) {
        let events = game["events"].as_array_mut().unwrap();
        let i = 1 + d.below(events.len().max(2) - 1);
        let i = i.min(events.len());
        match d.below(9) {
            0 if events.len() > 2 && i < events.len() => {
                events.remove(i);
            }
            1 => {
                let e = events[1 + d.below(events.len() - 1)].clone();
                events.insert(i, e);
            }
            2 if i < events.len() && events[i].get("player").is_some() => events[i]["player"] = d.pick(&players).clone(),
            3 if !declarations.is_empty() => events.insert(i, json!({"type": "declare", "player": d.pick(&players), "declaration": d.pick(declarations), "cards": []})),
            4 if !bids.is_empty() => events.insert(i, json!({"type": "bid", "player": d.pick(&players), "bid": d.pick(bids)})),
            5 => {
                let deal = &mut events[0];
                if let Some(o) = deal.as_object_mut() {
                    o.remove("packets");
                }
                let hands = deal["hands"].as_object_mut().unwrap();
                let names: Vec<String> = hands.keys().cloned().collect();
                let (a, b) = (d.pick(&names).clone(), d.pick(&names).clone());
                let (x, y) = (d.below(hands[&a].as_array().unwrap().len()), d.below(hands[&b].as_array().unwrap().len()));
                let card = hands[&a][x].clone();
                hands[&a][x] = hands[&b][y].clone();
                hands[&b][y] = card;
            }
            6 => {
                let (name, value) = match options.is_empty() {
                    true => ("no_such_option".to_string(), json!("x")),
                    false => {
                        let (name, choices) = d.pick(options);
                        let odd = [json!("no-such-choice"), json!(true), json!([1]), json!(-1), json!(null)];
                        (name.clone(), if d.below(2) == 0 { d.pick(choices).clone() } else { d.pick(&odd).clone() })
                    }
                };
                game["options"] = json!({ name: value });
            }
            7 => game["ruleset"] = json!(d.pick(ids)),
            _ => game["dealer"] = d.pick(&players).clone(),
        }
    }
    game
}

/// Every ruleset with valid games, and how many mutated records of each to send.
fn rulesets() -> Vec<(String, usize)> {
    let mut ids: Vec<String> =
        std::fs::read_dir(root().join("fixtures")).unwrap().flatten().filter(|e| e.path().join("valid").is_dir()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    ids.sort();
    ids.into_iter()
        .map(|id| {
            let n = if NEWEST.contains(&id.as_str()) { 80 } else { 24 };
            (id, n)
        })
        .collect()
}

#[test]
fn hostile_records_of_every_ruleset_are_refereed_and_stored_as_refereed() {
    let s = spawn_fresh("hostile", &[]);
    let mut d = Draw(0x9E37_79B9_7F4A_7C15);
    let (mut sent, mut stored, mut valid) = (0, 0, 0);
    let all = rulesets();
    assert!(all.len() > 50 && NEWEST.iter().all(|id| all.iter().any(|(a, _)| a == id)), "{all:?}");
    let ids: Vec<String> = all.iter().map(|(id, _)| id.clone()).collect();
    for (id, count) in &all {
        let id = id.as_str();
        let mut files: Vec<_> = std::fs::read_dir(root().join("fixtures").join(id).join("valid")).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        let games: Vec<Value> = files.iter().map(|f| serde_json::from_str(&fixture(&format!("{id}/valid/{}", f.file_name().unwrap().to_str().unwrap()))).unwrap()).collect();
        let described = s.get(&format!("/rulesets/{id}")).json();
        let options =
            described["rules"]["options"].as_array().unwrap().iter().map(|o| (o["name"].as_str().unwrap().to_string(), o["choices"].as_array().unwrap().clone())).collect();
        let said = Said { bids: said_in(&games, "bid", "bid"), declarations: said_in(&games, "declare", "declaration"), options, ids: ids.clone() };
        for n in 0..*count {
            let record = mutate(d.pick(&games), &said, &mut d).to_string();
            let started = Instant::now();
            let r = s.post("/validate", &record);
            assert!(started.elapsed() < Duration::from_secs(2), "{id}, record {n}: {:?} for {record}", started.elapsed());
            assert!(r.status == 200 || r.status == 422, "{id}, record {n}: {} {} for {record}", r.status, r.text);
            sent += 1;
            valid += usize::from(r.status == 200 && r.json()["status"] == "valid");
            if n % 4 != 0 {
                continue;
            }
            let created = s.post("/games", &record);
            assert_eq!(created.status == 201, r.status == 200, "{id}, record {n}: /validate {}, /games {} {}", r.status, created.status, created.text);
            if created.status != 201 {
                continue;
            }
            stored += 1;
            let created = created.json();
            let id_stored = created["id"].as_str().unwrap();
            // Its pages for people: the game at its end and at its first trick, and beside a sibling
            // ruleset's reading of it.
            let other = ids.iter().filter(|o| *o != id).nth(d.below(ids.len() - 1)).unwrap();
            for page in [format!("/pages/games/{id_stored}"), format!("/pages/games/{id_stored}?trick=1"), format!("/pages/games/{id_stored}/compare?ids={id},{other}")] {
                let r = s.get(&page);
                assert!(r.status == 200 && r.content_type.starts_with("text/html"), "{id}, record {n}: {page} answered {} {}", r.status, r.text);
            }
            // Rebuilt from the game's view and its events, as a client would.
            let (again, _) = crate::common::stored_record(&s, id_stored);
            let replayed = s.post("/validate", &again.to_string()).json();
            for field in ["status", "violation", "outcome"] {
                assert_eq!(replayed[field], created["verdict"][field], "{id}, record {n}: the stored game's {field} differs from its creation's");
            }
        }
    }
    println!("{sent} hostile records sent, {valid} of them valid, {stored} stored and replayed");
}
