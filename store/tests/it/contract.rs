//! The store's contract, one suite run against each store: sled (`on_sled`) and PostgreSQL
//! (`on_postgres`, on a cluster the test starts; see `common/postgres.rs`). Sections:
//! - streams: create, append, read back, open again.
//! - conflicts and retries: expected versions and event ids (scoped to their game).
//! - bad input: refused with a message that says what is wrong, and nothing written.
//! - concurrency: one winner per version, gapless positions across games.
//! - projections: clear and rebuild give the same; listing by ruleset, player, status, in pages.
//! - sessions.
//! - import: whole games with their verdicts, a retried import storing nothing new.
//!
//! Each test takes a `Backend` and opens the store through it, as many times as it needs (opening
//! again sees what was written before).

use crate::common::{self, game, registry, without_ids};

use std::sync::Arc;
use std::thread;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::illegal_variant;
use tarot_engine::{Event, GameRecord};
use tarot_store::{prepare, project, project_created, rebuild_projections, Filter, GameId, Header, Import, NewEvent, Projection, Store, StoreError, Summary};

/// Where a test's store lives: opening it again opens the same store.
trait Backend {
    fn open(&self) -> Store;
}

/// A sled store in a fresh directory, removed when dropped.
struct Sled(common::TempDir);

impl Sled {
    fn new(name: &str) -> Sled {
        Sled(common::TempDir::new(&format!("contract-{name}")))
    }
}

impl Backend for Sled {
    fn open(&self) -> Store {
        Store::open(&self.0 .0).unwrap()
    }
}

/// A fresh database of the test cluster.
struct Postgres(String);

impl Postgres {
    fn new(name: &str) -> Postgres {
        Postgres(common::postgres::database(name))
    }
}

impl Backend for Postgres {
    fn open(&self) -> Store {
        Store::connect(&self.0).unwrap()
    }
}

/// Runs each named test on both stores.
macro_rules! contract {
    ($($name:ident),* $(,)?) => {
        mod on_sled {
            $(#[test] fn $name() { super::$name(&super::Sled::new(stringify!($name))) })*
        }
        mod on_postgres {
            $(#[test] #[ignore = "needs PostgreSQL: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"] fn $name() { super::$name(&super::Postgres::new(stringify!($name))) })*
        }
    };
}

contract!(
    games_read_back_as_written_and_after_reopening,
    a_stale_expected_version_is_a_conflict_with_the_current_version,
    a_retried_append_returns_the_original_result_and_stores_nothing,
    event_ids_are_scoped_to_their_game,
    bad_input_is_refused_and_nothing_is_written,
    exactly_one_of_sixteen_racing_appends_wins_each_version,
    positions_are_gapless_across_games_appended_concurrently,
    projections_cleared_and_rebuilt_are_the_same,
    an_older_projection_does_not_replace_a_newer_one,
    listing_filters_by_ruleset_player_and_status_in_pages,
    a_session_keeps_its_games_in_order,
    one_store_is_shared_in_an_arc_between_threads,
    imports_store_games_with_their_verdicts_once,
    games_created_together_are_each_created_as_one_by_one,
);

// ---------------------------------------------------------------------------------------------
// Helpers

/// Events with ids `{prefix}-0`, `{prefix}-1`...
fn with_ids(prefix: &str, events: &[Event]) -> Vec<NewEvent> {
    events.iter().enumerate().map(|(i, event)| NewEvent { id: Some(format!("{prefix}-{i}")), event: event.clone() }).collect()
}

/// Asserts that the store refused the input as invalid, with a message containing `words`.
#[track_caller]
fn refused<T: std::fmt::Debug>(result: Result<T, StoreError>, words: &str) {
    match result {
        Err(StoreError::Invalid(message)) => assert!(message.contains(words), "{message:?} does not say {words:?}"),
        other => panic!("expected Invalid saying {words:?}, got {other:?}"),
    }
}

#[track_caller]
fn not_found<T: std::fmt::Debug>(result: Result<T, StoreError>, words: &str) {
    match result {
        Err(StoreError::NotFound(message)) => assert!(message.contains(words), "{message:?} does not say {words:?}"),
        other => panic!("expected NotFound saying {words:?}, got {other:?}"),
    }
}

/// Everything the store holds about its games, to compare before and after.
fn contents(store: &Store) -> Vec<(GameId, Header, Vec<tarot_store::StoredEvent>)> {
    store.games().unwrap().into_iter().map(|g| (g.clone(), store.header(&g).unwrap(), store.events(&g).unwrap())).collect()
}

// ---------------------------------------------------------------------------------------------
// Streams

fn games_read_back_as_written_and_after_reopening(backend: &dyn Backend) {
    let first = game("fft-4p", 4, 1);
    let second = game("basic", 3, 2);
    let expected;
    {
        let store = backend.open();
        let created = store.create_game(&Header::of(&first), with_ids("deal", &first.events[..1])).unwrap();
        assert_eq!((created.game.0.as_str(), created.version, created.first_position, created.last_position), ("g1", 1, 1, 1));
        let mut version = 1;
        for chunk in first.events[1..].chunks(10) {
            let appended = store.append(&created.game, version, without_ids(chunk)).unwrap();
            assert_eq!(appended.first_position, version + 1);
            version = appended.version;
        }
        let other = store.create_game(&Header::of(&second), without_ids(&second.events)).unwrap();
        assert_eq!(other.game.0, "g2");
        assert_eq!(other.first_position, version + 1);

        assert_eq!(store.record(&created.game).unwrap(), first);
        assert_eq!(store.record(&other.game).unwrap(), second);
        assert_eq!(store.version(&created.game).unwrap(), first.events.len() as u64);
        let events = store.events(&created.game).unwrap();
        assert!(events.iter().enumerate().all(|(i, e)| e.version == i as u64 + 1 && e.position == i as u64 + 1));
        assert_eq!(events[0].id.as_deref(), Some("deal-0"));
        assert_eq!(store.last_position().unwrap(), (first.events.len() + second.events.len()) as u64);
        assert_eq!(store.games().unwrap(), vec![created.game, other.game]);
        expected = (contents(&store), store.last_position().unwrap());
    }
    let store = backend.open();
    assert_eq!((contents(&store), store.last_position().unwrap()), expected);
    // Numbers go on where they stopped.
    let third = store.create_game(&Header::of(&second), without_ids(&second.events[..1])).unwrap();
    assert_eq!(third.game.0, "g3");
    assert_eq!(third.first_position, expected.1 + 1);
}

// ---------------------------------------------------------------------------------------------
// Conflicts and retries

fn a_stale_expected_version_is_a_conflict_with_the_current_version(backend: &dyn Backend) {
    let store = backend.open();
    let record = game("fft-4p", 4, 3);
    let g = store.create_game(&Header::of(&record), without_ids(&record.events[..5])).unwrap().game;
    let result = store.append(&g, 3, without_ids(&record.events[5..6]));
    assert_eq!(result, Err(StoreError::Conflict { expected: 3, current: 5 }));
    assert_eq!(result.unwrap_err().to_string(), "the append expected the game at version 3, but it is at version 5: read it again and retry");
    assert_eq!(store.version(&g).unwrap(), 5);
    assert_eq!(store.last_position().unwrap(), 5);
}

fn a_retried_append_returns_the_original_result_and_stores_nothing(backend: &dyn Backend) {
    let store = backend.open();
    let record = game("fft-4p", 4, 4);
    let created = store.create_game(&Header::of(&record), with_ids("a", &record.events[..1])).unwrap();
    let g = created.game.clone();
    let appended = store.append(&g, 1, with_ids("b", &record.events[1..5])).unwrap();
    let later = store.append(&g, 5, with_ids("c", &record.events[5..7])).unwrap();

    // The answer to the first append was lost; the client sends it again, with the same ids.
    assert_eq!(store.append(&g, 1, with_ids("b", &record.events[1..5])).unwrap(), appended);
    assert_eq!(store.create_game(&Header::of(&record), with_ids("a", &record.events[..1])).unwrap(), created);
    assert_eq!(store.games().unwrap(), vec![g.clone()]);
    assert_eq!(store.version(&g).unwrap(), later.version);
    assert_eq!(store.last_position().unwrap(), later.last_position);

    // What cannot be a retry is refused.
    let mut half = with_ids("b", &record.events[3..5]);
    half.extend(with_ids("new", &record.events[7..8]));
    refused(store.append(&g, 7, half), "event id 'b-0' is already stored but other events of this append are new");
    refused(store.append(&g, 7, with_ids("b", &record.events[7..9])), "event id 'b-0' is already stored with a different event");
    let mut skipping = with_ids("b", &record.events[1..2]);
    skipping.extend(with_ids("c", &record.events[5..6]));
    refused(store.append(&g, 7, skipping), "was stored by another append");
    assert_eq!(store.version(&g).unwrap(), 7);
    assert_eq!(store.last_position().unwrap(), 7);
}

fn event_ids_are_scoped_to_their_game(backend: &dyn Backend) {
    let store = backend.open();
    let record = game("fft-4p", 4, 4);
    let g1 = store.create_game(&Header::of(&record), with_ids("a", &record.events[..1])).unwrap();
    let b1 = store.append(&g1.game, 1, with_ids("b", &record.events[1..5])).unwrap();

    // The same ids in another game are other events: stored, at new positions.
    let g2 = store.create_game(&Header::of(&record), vec![]).unwrap().game;
    let b2 = store.append(&g2, 0, with_ids("b", &record.events[1..5])).unwrap();
    assert_eq!((b2.game.0.as_str(), b2.version, b2.first_position, b2.last_position), ("g2", 4, 6, 9));
    assert_eq!(store.events(&g2).unwrap().iter().map(|e| e.id.clone().unwrap()).collect::<Vec<_>>(), ["b-0", "b-1", "b-2", "b-3"]);
    // Each game still recognises its own retry.
    assert_eq!(store.append(&g1.game, 1, with_ids("b", &record.events[1..5])).unwrap(), b1);
    assert_eq!(store.append(&g2, 0, with_ids("b", &record.events[1..5])).unwrap(), b2);

    // A creation is recognised by its header and its first event's id: another header with the
    // same ids is another game, and each creation's retry finds its own game.
    let mut renamed = Header::of(&record);
    renamed.description = Some("another game".into());
    let g3 = store.create_game(&renamed, with_ids("a", &record.events[..1])).unwrap();
    assert_eq!(g3.game.0, "g3");
    assert_eq!(store.create_game(&renamed, with_ids("a", &record.events[..1])).unwrap(), g3);
    assert_eq!(store.create_game(&Header::of(&record), with_ids("a", &record.events[..1])).unwrap(), g1);
    refused(store.create_game(&Header::of(&record), with_ids("a", &record.events[1..2])), "event id 'a-0' is already stored with a different event");
    assert_eq!(store.games().unwrap().len(), 3);
    assert_eq!(store.last_position().unwrap(), 10);
}

// ---------------------------------------------------------------------------------------------
// Bad input

fn bad_input_is_refused_and_nothing_is_written(backend: &dyn Backend) {
    let store = backend.open();
    let record = game("fft-4p", 4, 5);
    let header = Header::of(&record);
    let with = |change: &dyn Fn(&mut Header)| {
        let mut h = header.clone();
        change(&mut h);
        h
    };
    refused(store.create_game(&with(&|h| h.ruleset = " ".into()), vec![]), "the game names no ruleset");
    refused(store.create_game(&with(&|h| h.players.clear()), vec![]), "no players are named");
    refused(store.create_game(&with(&|h| h.players[2] = String::new()), vec![]), "player 3 has no name");
    refused(store.create_game(&with(&|h| h.players[3] = "Ann".into()), vec![]), "player 'Ann' is named twice");
    refused(store.create_game(&with(&|h| h.dealer = "Zoe".into()), vec![]), "the dealer 'Zoe' is not one of the players");
    let mut twice = with_ids("x", &record.events[..2]);
    twice[1].id = Some("x-0".into());
    refused(store.create_game(&header, twice), "event id 'x-0' is given twice in one append");
    let mut long = with_ids("x", &record.events[..1]);
    long[0].id = Some("x".repeat(129));
    refused(store.create_game(&header, long), "must have 1 to 128 bytes");
    assert_eq!(store.games().unwrap(), vec![]);

    let g = store.create_game(&header, without_ids(&record.events[..1])).unwrap().game;
    refused(store.append(&g, 1, vec![]), "an append needs at least one event");
    for unknown in ["g2", "G1", "g01", "x", ""] {
        not_found(store.append(&GameId(unknown.into()), 1, without_ids(&record.events[1..2])), &format!("there is no game {unknown}"));
    }
    not_found(store.events(&GameId("g9".into())), "there is no game g9");
    assert_eq!(contents(&store), vec![(g, header, store.events(&GameId("g1".into())).unwrap())]);
    assert_eq!(store.last_position().unwrap(), 1);
}

// ---------------------------------------------------------------------------------------------
// Concurrency

fn exactly_one_of_sixteen_racing_appends_wins_each_version(backend: &dyn Backend) {
    const THREADS: usize = 16;
    const VERSIONS: u64 = 200;
    let store = backend.open();
    let record = game("fft-4p", 4, 6);
    let g = store.create_game(&Header::of(&record), vec![]).unwrap().game;
    let results: Vec<(Vec<u64>, usize)> = thread::scope(|s| {
        let racers: Vec<_> = (0..THREADS)
            .map(|t| {
                let (store, g, record) = (&store, &g, &record);
                s.spawn(move || {
                    let (mut won, mut conflicts) = (vec![], 0);
                    loop {
                        let version = store.version(g).unwrap();
                        if version == VERSIONS {
                            return (won, conflicts);
                        }
                        let event = record.events[version as usize % record.events.len()].clone();
                        match store.append(g, version, vec![NewEvent { id: Some(format!("t{t}-v{}", version + 1)), event }]) {
                            Ok(appended) => won.push(appended.version),
                            Err(StoreError::Conflict { expected, current }) => {
                                assert!(current > expected);
                                conflicts += 1;
                            }
                            Err(e) => panic!("{e}"),
                        }
                    }
                })
            })
            .collect();
        racers.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let mut won: Vec<u64> = results.iter().flat_map(|(won, _)| won.clone()).collect();
    won.sort();
    assert_eq!(won, (1..=VERSIONS).collect::<Vec<_>>(), "each version has exactly one winner");
    assert!(results.iter().map(|(_, conflicts)| conflicts).sum::<usize>() > 0, "the racers did race");

    let events = store.events(&g).unwrap();
    assert_eq!(events.len() as u64, VERSIONS);
    for (i, e) in events.iter().enumerate() {
        let version = i as u64 + 1;
        assert_eq!((e.version, e.position), (version, version));
        let winner = e.id.as_ref().unwrap().split('-').next().unwrap()[1..].parse::<usize>().unwrap();
        assert!(results[winner].0.contains(&version), "the event at version {version} is the winner's");
        assert_eq!(e.event, record.events[i % record.events.len()]);
    }
}

fn positions_are_gapless_across_games_appended_concurrently(backend: &dyn Backend) {
    const THREADS: usize = 8;
    const APPENDS: usize = 40;
    let store = backend.open();
    let record = game("basic", 5, 7);
    let games: Vec<GameId> = (0..4).map(|_| store.create_game(&Header::of(&record), vec![]).unwrap().game).collect();
    thread::scope(|s| {
        for t in 0..THREADS {
            let (store, games, record) = (&store, &games, &record);
            s.spawn(move || {
                for i in 0..APPENDS {
                    let g = &games[(t + i) % games.len()];
                    let events = with_ids(&format!("t{t}-{i}"), &record.events[..1 + i % 3]);
                    loop {
                        match store.append(g, store.version(g).unwrap(), events.clone()) {
                            Ok(_) => break,
                            Err(StoreError::Conflict { .. }) => continue,
                            Err(e) => panic!("{e}"),
                        }
                    }
                }
            });
        }
    });
    let mut positions = vec![];
    for g in &games {
        let events = store.events(g).unwrap();
        assert!(events.iter().enumerate().all(|(i, e)| e.version == i as u64 + 1), "versions of {g} are 1, 2, 3...");
        assert!(events.windows(2).all(|w| w[0].position < w[1].position), "positions of {g} go up");
        positions.extend(events.iter().map(|e| e.position));
    }
    positions.sort();
    let total = (0..APPENDS).map(|i| 1 + i % 3).sum::<usize>() * THREADS;
    assert_eq!(positions, (1..=total as u64).collect::<Vec<_>>());
    assert_eq!(store.last_position().unwrap(), total as u64);
}

// ---------------------------------------------------------------------------------------------
// Projections

/// Games of every status: valid or annulled (complete), in progress, invalid, unreadable.
fn varied_games() -> Vec<GameRecord> {
    let mut games: Vec<GameRecord> = (1..=4).map(|seed| game("fft-4p", 4, seed)).collect();
    games.extend([game("basic", 3, 5), game("basic", 5, 6), game("marolles-1637", 3, 7)]);
    let mut unfinished = game("fft-4p", 4, 8);
    unfinished.events.truncate(20);
    games.push(unfinished);
    let complete = game("fft-4p", 4, 9);
    let rules = registry().get("fft-4p").unwrap();
    games.push(illegal_variant(rules, &complete, &mut ChaCha8Rng::seed_from_u64(9)).expect("a game with a play to spoil").0);
    let mut unknown_rules = game("basic", 4, 10);
    unknown_rules.ruleset = "no-such-rules".into();
    games.push(unknown_rules);
    let mut stranger = game("basic", 4, 11);
    if let Some(Event::Play { player, .. }) = stranger.events.iter_mut().rev().find(|e| matches!(e, Event::Play { .. })) {
        *player = "Zoe".into();
    }
    games.push(stranger);
    games
}

fn projections(store: &Store) -> Vec<Option<Projection>> {
    store.games().unwrap().iter().map(|g| store.projection(g).unwrap()).collect()
}

fn projections_cleared_and_rebuilt_are_the_same(backend: &dyn Backend) {
    let store = backend.open();
    for (i, record) in varied_games().into_iter().enumerate() {
        let appended = store.create_game(&Header::of(&record), without_ids(&record.events)).unwrap();
        let g = appended.game.clone();
        // As `POST /games` does it, from the record just stored, every other game; the rebuild below
        // reads them all back from their events and must come to the same.
        let projection = if i % 2 == 0 { project(&store, registry(), &g) } else { project_created(&store, registry(), &record, &appended) }.unwrap();
        assert_eq!(projection.version, record.events.len() as u64);
        assert_eq!(projection.checkpoint, store.events(&g).unwrap().last().unwrap().position);
    }
    let statuses: Vec<String> = projections(&store).into_iter().map(|p| p.unwrap().status).collect();
    for status in ["valid", "in_progress", "invalid", "unreadable"] {
        assert!(statuses.iter().any(|s| s == status), "{statuses:?} has no {status}");
    }
    let unknown = store.projection(&GameId("ga".into())).unwrap().unwrap();
    assert_eq!((unknown.ruleset_version.as_str(), &unknown.verdict["error"]["message"]), ("", &"there is no ruleset 'no-such-rules'".into()));
    let stranger = store.projection(&GameId("gb".into())).unwrap().unwrap();
    assert!(stranger.verdict["error"]["message"].as_str().unwrap().contains("Zoe"), "{}", stranger.verdict);

    let before = projections(&store);
    store.clear_projections().unwrap();
    assert!(projections(&store).iter().all(Option::is_none));
    assert_eq!(store.list(&Filter::default(), 0, 100).unwrap(), (vec![], 0));
    assert_eq!(rebuild_projections(&store, registry()).unwrap(), before.len());
    assert_eq!(projections(&store), before);
}

fn an_older_projection_does_not_replace_a_newer_one(backend: &dyn Backend) {
    let store = backend.open();
    let record = game("fft-4p", 4, 12);
    let g = store.create_game(&Header::of(&record), without_ids(&record.events[..10])).unwrap().game;
    let older = project(&store, registry(), &g).unwrap();
    store.append(&g, 10, without_ids(&record.events[10..])).unwrap();
    let newer = project(&store, registry(), &g).unwrap();
    store.put_projection(&g, &older).unwrap();
    assert_eq!(store.projection(&g).unwrap(), Some(newer.clone()));
    assert_eq!(store.list(&Filter { status: Some(older.status), ..Filter::default() }, 0, 10).unwrap().1, 0);

    let mut foreign = newer;
    foreign.players.reverse();
    refused(store.put_projection(&g, &foreign), "the projection is of a fft-4p game of Dan, Cid, Bob, Ann, but g1 is a fft-4p game of Ann, Bob, Cid, Dan");
}

fn listing_filters_by_ruleset_player_and_status_in_pages(backend: &dyn Backend) {
    let store = backend.open();
    let mut all: Vec<Summary> = vec![];
    for record in varied_games() {
        let g = store.create_game(&Header::of(&record), without_ids(&record.events)).unwrap().game;
        let p = project(&store, registry(), &g).unwrap();
        all.push(Summary { game: g, ruleset: p.ruleset, ruleset_version: p.ruleset_version, players: p.players, status: p.status, version: p.version, checkpoint: p.checkpoint });
    }
    // A game without a projection is not listed.
    store.create_game(&Header::of(&game("basic", 3, 13)), vec![]).unwrap();

    let filter = |ruleset: Option<&str>, player: Option<&str>, status: Option<&str>| Filter {
        ruleset: ruleset.map(String::from),
        player: player.map(String::from),
        status: status.map(String::from),
    };
    let filters = [
        filter(None, None, None),
        filter(Some("fft-4p"), None, None),
        filter(Some("basic"), None, None),
        filter(None, Some("Eve"), None),
        filter(None, None, Some("in_progress")),
        filter(None, None, Some("unreadable")),
        filter(Some("fft-4p"), Some("Ann"), Some("valid")),
        filter(None, Some("Ann"), Some("invalid")),
        filter(Some("nobody's"), None, None),
    ];
    for filter in filters {
        let expected: Vec<&Summary> = all
            .iter()
            .filter(|s| {
                filter.ruleset.as_ref().is_none_or(|r| *r == s.ruleset)
                    && filter.player.as_ref().is_none_or(|p| s.players.contains(p))
                    && filter.status.as_ref().is_none_or(|st| *st == s.status)
            })
            .collect();
        let mut listed = vec![];
        for page in 0..5 {
            let (summaries, total) = store.list(&filter, page * 3, 3).unwrap();
            assert_eq!(total, expected.len(), "{filter:?}");
            assert!(summaries.len() <= 3);
            listed.extend(summaries);
        }
        assert_eq!(listed.iter().collect::<Vec<_>>(), expected, "{filter:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Sessions

fn a_session_keeps_its_games_in_order(backend: &dyn Backend) {
    let table: Vec<String> = ["Ann", "Bob", "Cid", "Dan", "Eve"].map(String::from).to_vec();
    let (first, second, third) = (game("fft-4p", 4, 14), game("basic", 5, 15), game("basic", 6, 16));
    let expected;
    {
        let store = backend.open();
        let games: Vec<GameId> = [&first, &second, &third].map(|r| store.create_game(&Header::of(r), without_ids(&r.events)).unwrap().game).to_vec();
        let session = store.create_session("Friday at the club", &table).unwrap();
        assert_eq!(session, "s1");
        store.add_to_session(&session, &games[1], None).unwrap();
        store.add_to_session(&session, &games[0], None).unwrap();
        refused(store.add_to_session(&session, &games[0], None), "game g1 is already in session s1");
        refused(store.add_to_session(&session, &games[2], None), "game g3 is played by Fay, who is not at the table of session s1");
        not_found(store.add_to_session(&session, &GameId("g9".into()), None), "there is no game g9");
        not_found(store.add_to_session("s2", &games[0], None), "there is no session s2");
        // Added only after the deals the caller checked it against: two now, not one.
        assert_eq!(store.add_to_session(&session, &games[2], Some(1)), Err(StoreError::Conflict { expected: 1, current: 2 }));
        refused(store.create_session(" ", &table), "a session needs a name");
        refused(store.create_session("Saturday", &[]), "no players are named");
        expected = store.session(&session).unwrap();
        assert_eq!((expected.name.as_str(), &expected.players, &expected.games), ("Friday at the club", &table, &vec![games[1].clone(), games[0].clone()]));
    }
    let store = backend.open();
    assert_eq!(store.session("s1").unwrap(), expected);
    not_found(store.session("S1"), "there is no session S1");
    assert_eq!(store.create_session("Saturday", &table).unwrap(), "s2");
}

fn one_store_is_shared_in_an_arc_between_threads(backend: &dyn Backend) {
    let store = Arc::new(backend.open());
    let record = game("basic", 4, 17);
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let (store, record) = (Arc::clone(&store), record.clone());
            thread::spawn(move || store.create_game(&Header::of(&record), without_ids(&record.events)).unwrap().game)
        })
        .collect();
    let mut games: Vec<String> = handles.into_iter().map(|h| h.join().unwrap().0).collect();
    games.sort();
    assert_eq!(games, ["g1", "g2", "g3", "g4"]);
}

// ---------------------------------------------------------------------------------------------
// Import

/// A game ready to import, with its verdict computed as `POST /games:import` computes it.
fn to_import(record: &GameRecord) -> Import {
    prepare(registry(), record.clone()).unwrap()
}

fn imports_store_games_with_their_verdicts_once(backend: &dyn Backend) {
    let store = backend.open();
    let games = varied_games();
    let existing = store.create_game(&Header::of(&games[0]), without_ids(&games[0].events[..3])).unwrap();
    let records: Vec<&GameRecord> = games[..4].iter().chain([&games[1]]).collect();
    let results = store.import(records.iter().map(|r| to_import(r)).collect()).unwrap();
    let ids: Vec<(&str, bool)> = results.iter().map(|(a, new)| (a.game.0.as_str(), *new)).collect();
    // The same game twice in one batch is stored once.
    assert_eq!(ids, [("g2", true), ("g3", true), ("g4", true), ("g5", true), ("g3", false)]);
    let mut position = existing.last_position;
    for ((appended, new), record) in results.iter().zip(records) {
        assert_eq!(store.record(&appended.game).unwrap(), *record);
        assert_eq!(appended.version, record.events.len() as u64);
        if *new {
            // Positions go on, gapless, from game to game of the batch.
            assert_eq!(appended.first_position, position + 1);
            position = appended.last_position;
        }
        // The verdict stored is the one `project` computes from the stored events.
        let stored = store.projection(&appended.game).unwrap().unwrap();
        assert_eq!(stored, project(&store, registry(), &appended.game).unwrap());
    }
    assert_eq!(store.last_position().unwrap(), position);
    assert_eq!(store.list(&Filter::default(), 0, 100).unwrap().1, 4);

    // Imported again, with one new game: only that one is stored.
    let again = store.import(games[..5].iter().map(to_import).collect()).unwrap();
    let ids: Vec<(&str, bool)> = again.iter().map(|(a, new)| (a.game.0.as_str(), *new)).collect();
    assert_eq!(ids, [("g2", false), ("g3", false), ("g4", false), ("g5", false), ("g6", true)]);
    assert!(again[..4].iter().zip(&results).all(|(a, b)| a.0 == b.0), "a game imported again answers what its first import answered");
    assert_eq!(store.games().unwrap().len(), 6);

    // A batch with a game the store refuses stores none of it.
    let mut bad = to_import(&games[6]);
    bad.header.dealer = "Zoe".into();
    refused(store.import(vec![to_import(&games[7]), bad]), "the dealer 'Zoe' is not one of the players");
    assert_eq!(store.games().unwrap().len(), 6);
    drop(store);
    assert_eq!(backend.open().games().unwrap().len(), 6);
}

// ---------------------------------------------------------------------------------------------
// Creations together (POST /games through the writer thread)

fn games_created_together_are_each_created_as_one_by_one(backend: &dyn Backend) {
    let store = backend.open();
    let games = varied_games();
    let mut bad = to_import(&games[2]);
    bad.header.dealer = "Zoe".into();
    let mut keyed = to_import(&games[3]);
    keyed.events = with_ids("k", &games[3].events);
    // The same game twice is two games (unlike an import); a bad one fails alone.
    let batch = vec![to_import(&games[0]), to_import(&games[1]), bad, keyed.clone(), to_import(&games[0])];
    let results = store.create_games(batch);
    refused(results[2].clone(), "the dealer 'Zoe' is not one of the players");
    let ok: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    assert_eq!(ok.iter().map(|a| a.game.0.as_str()).collect::<Vec<_>>(), ["g1", "g2", "g3", "g4"]);
    let mut position = 0;
    for (appended, record) in ok.iter().zip([&games[0], &games[1], &games[3], &games[0]]) {
        assert_eq!(store.record(&appended.game).unwrap(), *record);
        assert_eq!((appended.version, appended.first_position), (record.events.len() as u64, position + 1));
        position = appended.last_position;
        let stored = store.projection(&appended.game).unwrap().unwrap();
        assert_eq!(stored, project(&store, registry(), &appended.game).unwrap());
    }
    assert_eq!(store.last_position().unwrap(), position);
    // A creation with ids, sent again, is recognised as create_game recognises it.
    assert_eq!(store.create_games(vec![keyed]), vec![Ok(ok[2].clone())]);
    assert_eq!(store.games().unwrap().len(), 4);

    // Through the writer thread, from many threads at once: every creation answered, gapless.
    let store = Arc::new(store);
    let (send, receive) = std::sync::mpsc::channel();
    for i in 0..40 {
        let send = send.clone();
        store.create_later(to_import(&games[i % 4]), move |result| send.send((i, result)).unwrap());
    }
    drop(send);
    let mut answers: Vec<_> = receive.iter().map(|(i, r)| (i, r.unwrap())).collect();
    assert_eq!(answers.len(), 40);
    answers.sort_by_key(|(_, a)| a.first_position);
    for (_, a) in &answers {
        assert_eq!(a.first_position, position + 1);
        position = a.last_position;
    }
    assert_eq!(store.games().unwrap().len(), 44);
    drop(answers);
    let store = Arc::try_unwrap(store).ok().expect("the only handle");
    drop(store);
    assert_eq!(backend.open().games().unwrap().len(), 44);
}

/// On PostgreSQL, a game and its projection are stored in one transaction: when the projection
/// cannot be written, the creation is refused and nothing is stored (a client that retries a
/// refused creation would otherwise store the game twice), and a game acknowledged is listed.
#[test]
#[ignore = "needs PostgreSQL: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn on_postgres_a_creation_whose_projection_fails_stores_nothing() {
    let url = common::postgres::database("creation_projection");
    let store = Store::connect(&url).unwrap();
    let games = varied_games();
    common::postgres::sql(&url, "ALTER TABLE projections ADD CONSTRAINT refuse_all CHECK (false) NOT VALID");
    let results = store.create_games(vec![to_import(&games[0])]);
    assert!(results[0].is_err(), "{results:?}");
    assert_eq!(store.games().unwrap(), vec![], "a refused creation stored its game");
    common::postgres::sql(&url, "ALTER TABLE projections DROP CONSTRAINT refuse_all");
    let created = store.create_games(vec![to_import(&games[0])]).remove(0).unwrap();
    assert_eq!(store.games().unwrap(), vec![created.game.clone()]);
    assert_eq!(store.list(&Filter::default(), 0, 10).unwrap().1, 1, "an acknowledged game is listed");
}

/// Staged games are for the store that staged them: PostgreSQL refuses sled's staging (a game or
/// a batch) as invalid and stores nothing; sled takes games PostgreSQL staged, which are the games
/// as given, and imports them.
#[test]
fn a_store_refuses_games_another_store_staged() {
    let sled = Sled::new("staged_elsewhere").open();
    let postgres = Store::connect(&common::postgres::database("staged_elsewhere")).unwrap();
    let games = varied_games();
    refused(postgres.import_staged(sled.stage_import(vec![to_import(&games[0])]).unwrap()), "games staged for another store");
    refused(postgres.stage_finish(vec![sled.stage_game(to_import(&games[1])).unwrap()]).map(|_| ()), "games staged for another store");
    assert_eq!(postgres.games().unwrap(), vec![], "a refused staging stored games");
    let from_postgres = postgres.stage_finish(vec![postgres.stage_game(to_import(&games[2])).unwrap()]).unwrap();
    let imported = sled.import_staged(from_postgres).unwrap();
    sled.flush().unwrap();
    assert_eq!(sled.record(&imported[0].0.game).unwrap(), games[2]);
    let mixed = vec![postgres.stage_game(to_import(&games[3])).unwrap(), sled.stage_game(to_import(&games[4])).unwrap()];
    let imported = sled.import_staged(sled.stage_finish(mixed).unwrap()).unwrap();
    assert_eq!(imported.iter().map(|(a, new)| (a.game.0.as_str(), *new)).collect::<Vec<_>>(), [("g2", true), ("g3", true)]);
}
