//! The sled store's format on disk: a store written before the format had a version is rewritten
//! once, when opened, to the current format, and reads back exactly; a second open changes
//! nothing; a store of a newer format is refused. Each old layout is written here with sled
//! directly, value by value, as the programs of its time wrote it.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;
use tarot_engine::Event;
use tarot_store::{Filter, GameId, Header, NewEvent, Projection, Session, Store, StoredEvent, Summary};

/// The format this program writes.
const CURRENT: u64 = 1;

/// Opens the store's directory with sled itself, waiting for a store just closed to release it.
fn sled_db(dir: &Path) -> sled::Db {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        match sled::Config::new().path(dir).open() {
            Ok(db) => return db,
            Err(e) if Instant::now() < deadline => {
                let _ = e;
                thread::sleep(Duration::from_millis(10));
            }
            Err(e) => panic!("{}: {e}", dir.display()),
        }
    }
}

/// Every tree of the store, every entry.
type Dump = Vec<(Vec<u8>, Vec<(Vec<u8>, Vec<u8>)>)>;

fn dump(dir: &Path) -> Dump {
    let db = sled_db(dir);
    let mut names = db.tree_names();
    names.sort();
    names.into_iter().map(|name| (name.to_vec(), db.open_tree(&name).unwrap().iter().map(|e| e.map(|(k, v)| (k.to_vec(), v.to_vec())).unwrap()).collect())).collect()
}

/// The store's format, as `meta` holds it.
fn format_of(dir: &Path) -> Option<u64> {
    sled_db(dir).open_tree("meta").unwrap().get("format").unwrap().map(|v| u64::from_be_bytes(v.as_ref().try_into().unwrap()))
}

/// Writes values into the store's trees with sled, as a program of another time wrote them.
fn write_old(dir: &Path, values: &[(&str, Vec<u8>, Vec<u8>)]) {
    let db = sled_db(dir);
    for (tree, key, value) in values {
        db.open_tree(tree).unwrap().insert(key, value.clone()).unwrap();
    }
    db.flush().unwrap();
}

fn json<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap()
}

fn be(n: u64) -> Vec<u8> {
    n.to_be_bytes().to_vec()
}

/// Game `game`, version `version`: the key of `events`.
fn event_key(game: u64, version: u64) -> Vec<u8> {
    [be(game), be(version)].concat()
}

fn header(ruleset: &str) -> Header {
    Header {
        ruleset: ruleset.into(),
        options: BTreeMap::new(),
        players: vec!["Ann".into(), "Bob".into(), "Cid".into()],
        dealer: "Ann".into(),
        pots: BTreeMap::new(),
        standing: BTreeMap::new(),
        description: None,
    }
}

fn pass(player: &str) -> Event {
    Event::Bid { player: player.into(), bid: "pass".into() }
}

fn event(version: u64, position: u64, id: Option<&str>, player: &str) -> StoredEvent {
    StoredEvent { version, position, id: id.map(str::to_string), event: pass(player) }
}

fn projection(ruleset: &str, version: u64, checkpoint: u64) -> Projection {
    Projection {
        ruleset: ruleset.into(),
        ruleset_version: "7".into(),
        players: header(ruleset).players,
        status: "in_progress".into(),
        version,
        checkpoint,
        verdict: json!({ "status": "in_progress", "scores": { "Ann": 0 } }),
    }
}

fn summary(game: u64, projection: &Projection) -> Summary {
    Summary {
        game: GameId(format!("g{game}")),
        ruleset: projection.ruleset.clone(),
        ruleset_version: projection.ruleset_version.clone(),
        players: projection.players.clone(),
        status: projection.status.clone(),
        version: projection.version,
        checkpoint: projection.checkpoint,
    }
}

/// The values of a game's projection as stored then: the projection, its summary and one index
/// entry per value (the value, 0xFF, the game → nothing).
fn projected(game: u64, projection: &Projection) -> Vec<(&'static str, Vec<u8>, Vec<u8>)> {
    let entry = |value: &str| [value.as_bytes(), &[0xFF], &be(game)].concat();
    let mut values = vec![
        ("projections", be(game), json(projection)),
        ("summaries", be(game), json(&summary(game, projection))),
        ("by_ruleset", entry(&projection.ruleset), vec![]),
        ("by_status", entry(&projection.status), vec![]),
    ];
    values.extend(projection.players.iter().map(|p| ("by_player", entry(p), vec![])));
    values
}

/// The session the old stores hold, and the counters of `meta` for their two games and four
/// events.
fn session_and_counters() -> Vec<(&'static str, Vec<u8>, Vec<u8>)> {
    let session = Session { id: "s1".into(), name: "Thursday".into(), players: header("basic").players, games: vec![GameId("g1".into()), GameId("g2".into())] };
    vec![("sessions", be(1), json(&session)), ("meta", b"games".to_vec(), be(2)), ("meta", b"position".to_vec(), be(4)), ("meta", b"sessions".to_vec(), be(1))]
}

/// What the old stores hold: game 1, three events in two appends (positions 1, 2 and 4, ids
/// `a` and `c`); game 2, one event (position 3, id `b`); game 1's projection; a session of both.
fn expected() -> Vec<(GameId, Header, Vec<StoredEvent>, Option<Projection>)> {
    vec![
        (GameId("g1".into()), header("basic"), vec![event(1, 1, Some("a"), "Bob"), event(2, 2, None, "Cid"), event(3, 4, Some("c"), "Ann")], Some(projection("basic", 3, 4))),
        (GameId("g2".into()), header("other"), vec![event(1, 3, Some("b"), "Bob")], None),
    ]
}

/// The store reads back exactly what was written, in the current format; retries of the old
/// appends are recognised, new appends go on from them; a second open changes nothing.
fn reads_back_migrated(dir: &Path) {
    let store = Store::open(dir).unwrap();
    let expected = expected();
    assert_eq!(store.games().unwrap(), expected.iter().map(|g| g.0.clone()).collect::<Vec<_>>());
    for (game, header, events, projection) in &expected {
        assert_eq!(store.header(game).unwrap(), *header, "{game}");
        assert_eq!(store.events(game).unwrap(), *events, "{game}");
        assert_eq!(store.version(game).unwrap(), events.len() as u64, "{game}");
        assert_eq!(store.projection(game).unwrap(), *projection, "{game}");
    }
    assert_eq!(store.last_position().unwrap(), 4);
    let session = store.session("s1").unwrap();
    assert_eq!((session.name.as_str(), session.games.len()), ("Thursday", 2));
    let listed = store.list(&Filter { player: Some("Cid".into()), ..Filter::default() }, 0, 10).unwrap();
    assert_eq!(listed, (vec![summary(1, expected[0].3.as_ref().unwrap())], 1));
    drop(store);
    assert_eq!(format_of(dir), Some(CURRENT), "the format is not written");

    // A second open does nothing.
    let before = dump(dir);
    drop(Store::open(dir).unwrap());
    assert_eq!(dump(dir), before, "a second open changed the store");

    // Retries of old appends are recognised (ids scoped to their game), and appends go on.
    let store = Store::open(dir).unwrap();
    let g1 = GameId("g1".into());
    let retry = store.append(&g1, 0, vec![NewEvent { id: Some("a".into()), event: pass("Bob") }]).unwrap();
    assert_eq!((retry.version, retry.first_position, retry.last_position), (1, 1, 1));
    let retry = store.append(&g1, 2, vec![NewEvent { id: Some("c".into()), event: pass("Ann") }]).unwrap();
    assert_eq!((retry.version, retry.first_position), (3, 4));
    let appended = store.append(&GameId("g2".into()), 1, vec![NewEvent { id: Some("a".into()), event: pass("Cid") }]).unwrap();
    assert_eq!((appended.version, appended.first_position), (2, 5));
    assert_eq!(store.events(&GameId("g2".into())).unwrap(), [event(1, 3, Some("b"), "Bob"), event(2, 5, Some("a"), "Cid")]);
}

/// The store as the first programs wrote it: one `StoredEvent` (JSON) per event, and event ids
/// for the whole archive (id → game, version).
#[test]
fn a_store_of_one_event_per_value_and_global_ids_is_migrated() {
    let dir = common::TempDir::new("format-one-per-value");
    let [(_, h1, e1, p1), (_, h2, e2, _)] = <[_; 2]>::try_from(expected()).unwrap();
    let mut values = vec![("headers", be(1), json(&h1)), ("headers", be(2), json(&h2)), ("versions", be(1), be(3)), ("versions", be(2), be(1))];
    for (game, events) in [(1, &e1), (2, &e2)] {
        for e in events {
            values.push(("events", event_key(game, e.version), json(e)));
            if let Some(id) = &e.id {
                values.push(("event_ids", id.as_bytes().to_vec(), event_key(game, e.version)));
            }
        }
    }
    values.extend(projected(1, p1.as_ref().unwrap()));
    values.extend(session_and_counters());
    write_old(&dir.0, &values);
    reads_back_migrated(&dir.0);
}

/// Events and summaries written by another version with a field this one does not know: the store
/// reads them without it (it does not deny unknown fields; only the API's document closes them).
#[test]
fn events_and_summaries_with_a_field_this_version_does_not_know_are_read() {
    let dir = common::TempDir::new("format-unknown-field");
    let with_note = |bytes: Vec<u8>| {
        let mut value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        value["note"] = json!("from another version");
        json(&value)
    };
    let [(_, h1, e1, p1), (_, h2, e2, _)] = <[_; 2]>::try_from(expected()).unwrap();
    let mut values = vec![("headers", be(1), json(&h1)), ("headers", be(2), json(&h2)), ("versions", be(1), be(3)), ("versions", be(2), be(1))];
    for (game, events) in [(1, &e1), (2, &e2)] {
        for e in events {
            values.push(("events", event_key(game, e.version), with_note(json(e))));
            if let Some(id) = &e.id {
                values.push(("event_ids", id.as_bytes().to_vec(), event_key(game, e.version)));
            }
        }
    }
    values.extend(projected(1, p1.as_ref().unwrap()).into_iter().map(|(tree, key, value)| if tree == "summaries" { (tree, key, with_note(value)) } else { (tree, key, value) }));
    values.extend(session_and_counters());
    write_old(&dir.0, &values);
    reads_back_migrated(&dir.0);
}

/// The store as written once appends were one value each, but before segments: a JSON array of
/// the append's `StoredEvent`s; ids scoped to their game.
#[test]
fn a_store_of_appends_as_arrays_of_events_is_migrated() {
    let dir = common::TempDir::new("format-arrays");
    let [(_, h1, e1, p1), (_, h2, e2, _)] = <[_; 2]>::try_from(expected()).unwrap();
    let mut values = vec![("headers", be(1), json(&h1)), ("headers", be(2), json(&h2)), ("versions", be(1), be(3)), ("versions", be(2), be(1))];
    values.push(("events", event_key(1, 1), json(&e1[..2])));
    values.push(("events", event_key(1, 3), json(&e1[2..])));
    values.push(("events", event_key(2, 1), json(&e2)));
    for (game, id, version) in [(1, "a", 1), (1, "c", 3), (2, "b", 1)] {
        values.push(("event_ids", [be(game), id.as_bytes().to_vec()].concat(), be(version)));
    }
    values.extend(projected(1, p1.as_ref().unwrap()));
    values.extend(session_and_counters());
    write_old(&dir.0, &values);
    reads_back_migrated(&dir.0);
}

/// The store as written once segments held `[NewEvent]` after the first position, with game 1
/// imported then: its header plain JSON, its version in `versions`, its segment in `events` as a
/// pointer into a staged import's bulk file (the position before it), and its projection a
/// pointer with the projection's JSON before the verdict and `}` after. That is also how a game
/// created by the writer thread is stored now: it reads as it is, and the migration leaves it.
#[test]
fn a_store_with_a_game_imported_before_headers_held_segments_is_migrated() {
    let dir = common::TempDir::new("format-old-import");
    let [(_, h1, e1, p1), (_, h2, e2, _)] = <[_; 2]>::try_from(expected()).unwrap();
    let new = |events: &[StoredEvent]| json(&events.iter().map(|e| NewEvent { id: e.id.clone(), event: e.event.clone() }).collect::<Vec<_>>());
    let segment = |events: &[StoredEvent]| [be(events[0].position), new(events)].concat();
    // The staged import's bulk file: game 1's first append's events, then its verdict.
    let p1 = p1.unwrap();
    let (events_json, verdict_json) = (new(&e1[..2]), json(&p1.verdict));
    let file = 1u64 << 63;
    std::fs::create_dir_all(dir.0.join("bulk")).unwrap();
    std::fs::write(dir.0.join("bulk").join(format!("{file:016x}")), [&events_json[..], &verdict_json].concat()).unwrap();
    let around = |offset: usize, len: usize, prefix: &[u8], suffix: &[u8]| {
        [&[0xFD][..], &be(file), &be(offset as u64), &be(len as u64), &(prefix.len() as u32).to_be_bytes(), prefix, suffix].concat()
    };
    let mut head = json(&p1);
    let verdict_at = head.windows(10).position(|w| w == b"\"verdict\":").unwrap() + 10;
    head.truncate(verdict_at);
    let mut values = vec![("headers", be(1), json(&h1)), ("headers", be(2), json(&h2)), ("versions", be(1), be(3)), ("versions", be(2), be(1))];
    values.push(("events", event_key(1, 1), around(0, events_json.len(), &be(1), b"")));
    values.push(("events", event_key(1, 3), segment(&e1[2..])));
    values.push(("events", event_key(2, 1), segment(&e2)));
    for (game, id, version) in [(1, "a", 1), (1, "c", 3), (2, "b", 1)] {
        values.push(("event_ids", [be(game), id.as_bytes().to_vec()].concat(), be(version)));
    }
    values.extend(projected(1, &p1));
    let at = values.iter().position(|v| v.0 == "projections").unwrap();
    values[at].2 = around(events_json.len(), verdict_json.len(), &head, b"}");
    values.extend(session_and_counters());
    write_old(&dir.0, &values);
    reads_back_migrated(&dir.0);
}

/// A new store is written in the current format from the start; a store of a newer format than
/// this program's is refused, with both versions named, and left as it is.
#[test]
fn a_new_store_is_current_and_a_newer_format_is_refused() {
    let dir = common::TempDir::new("format-newer");
    drop(Store::open(&dir.0).unwrap());
    assert_eq!(format_of(&dir.0), Some(CURRENT));
    write_old(&dir.0, &[("meta", b"format".to_vec(), be(CURRENT + 1))]);
    let before = dump(&dir.0);
    let refused = Store::open(&dir.0).err().expect("a store of a newer format was opened");
    let message = refused.to_string();
    assert!(message.contains(&format!("format {}", CURRENT + 1)) && message.contains(&format!("formats up to {CURRENT}")), "{message}");
    assert_eq!(dump(&dir.0), before);
}

/// A migration cut short (a crash) leaves some values rewritten and no `format`: the next open
/// takes it up again, and the store reads back as if it had never stopped. Here game 2's event and
/// id are already rewritten; game 1's are as the first programs wrote them.
#[test]
fn a_migration_cut_short_is_taken_up_again() {
    let dir = common::TempDir::new("format-cut-short");
    let [(_, h1, e1, p1), (_, h2, e2, _)] = <[_; 2]>::try_from(expected()).unwrap();
    let mut values = vec![("headers", be(1), json(&h1)), ("headers", be(2), json(&h2)), ("versions", be(1), be(3)), ("versions", be(2), be(1))];
    for e in &e1 {
        values.push(("events", event_key(1, e.version), json(e)));
        if let Some(id) = &e.id {
            values.push(("event_ids", id.as_bytes().to_vec(), event_key(1, e.version)));
        }
    }
    let rewritten = [be(e2[0].position), json(&[NewEvent { id: e2[0].id.clone(), event: e2[0].event.clone() }])].concat();
    values.push(("events", event_key(2, 1), rewritten));
    values.push(("event_ids", [be(2), b"b".to_vec()].concat(), be(1)));
    values.extend(projected(1, p1.as_ref().unwrap()));
    values.extend(session_and_counters());
    write_old(&dir.0, &values);
    reads_back_migrated(&dir.0);
}
