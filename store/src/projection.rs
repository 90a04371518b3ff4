//! Projections: replay's answer for each game, kept beside the streams so that reading a verdict or
//! listing games needs no replay. They are derived data. Each notes the ruleset version and the
//! checkpoint (the global position of the last event replayed) it was computed at, and all of them
//! can be deleted and recomputed from the streams alone (`rebuild_projections`), for instance after
//! a ruleset changes. Each store keeps them its own way (sled: `sled::projections`; PostgreSQL: the
//! `projections` table); this module computes them from verdicts, whatever the store.

use serde::{Deserialize, Serialize};
use serde_json::json;
use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, GameRecord, Registry, Verdict};

use crate::stream::encode;
use crate::StoreError;
use crate::{Appended, GameId, Store};

/// A game's verdict and what it was computed from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Projection {
    pub ruleset: String,
    /// `Ruleset::version` of the rules replayed; empty when the registry has no such ruleset.
    pub ruleset_version: String,
    pub players: Vec<String>,
    /// The verdict's status (`valid`, `invalid`, `in_progress`, `annulled`), or `unreadable` when
    /// the game cannot be replayed at all.
    pub status: String,
    /// How many events were replayed: the stream's version at the time.
    pub version: u64,
    /// The global position of the last event replayed (0 for a game without events).
    pub checkpoint: u64,
    /// The verdict as replay writes it, or `{"error": {"message", "event"}}` when `unreadable`.
    pub verdict: serde_json::Value,
}

// A projection without its verdict. Read back leniently (no `deny_unknown_fields`): a summary
// stored by another version with a field this one does not know still lists; the document says
// `additionalProperties: false` through `crate::openapi::Closed`.
/// One stored game in a listing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = GameSummary))]
pub struct Summary {
    /// The game's id: `g` and a number in base 36.
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "g1"))]
    pub game: GameId,
    pub ruleset: String,
    pub ruleset_version: String,
    pub players: Vec<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = tarot_engine::Status))]
    pub status: String,
    /// The stream's version (its number of events) the verdict was computed at.
    pub version: u64,
    /// The archive's global position the verdict was computed at.
    pub checkpoint: u64,
}

/// Which games to list: those matching every field given.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Filter {
    pub ruleset: Option<String>,
    pub player: Option<String>,
    pub status: Option<String>,
}

impl Filter {
    pub(crate) fn matches(&self, summary: &Summary) -> bool {
        self.ruleset.as_ref().is_none_or(|r| *r == summary.ruleset)
            && self.player.as_ref().is_none_or(|p| summary.players.contains(p))
            && self.status.as_ref().is_none_or(|s| *s == summary.status)
    }
}

impl Projection {
    pub(crate) fn summary(&self, game: &GameId) -> Summary {
        Summary {
            game: game.clone(),
            ruleset: self.ruleset.clone(),
            ruleset_version: self.ruleset_version.clone(),
            players: self.players.clone(),
            status: self.status.clone(),
            version: self.version,
            checkpoint: self.checkpoint,
        }
    }
}

/// Replays the game with the registry's rules, stores the projection (unless the disk is full), and
/// returns it.
pub fn project(store: &Store, registry: &Registry, game: &GameId) -> Result<Projection, StoreError> {
    let header = store.header(game)?;
    let events = store.events(game)?;
    let (version, checkpoint) = (events.len() as u64, events.last().map_or(0, |e| e.position));
    let record = header.into_record(events.into_iter().map(|e| e.event).collect());
    let projection = compute(registry, game, &record, version, checkpoint)?;
    match store.put_projection(game, &projection) {
        // A read is answered even when the disk has no room to keep what it worked out: the
        // projection is derived, and a later read or a rebuild stores it.
        Ok(()) | Err(StoreError::Full(_)) => Ok(projection),
        Err(e) => Err(e),
    }
}

/// The projection of a game just created from `record`, without reading its events back: the
/// same as `project` once `Store::create_game` has stored them (`appended` says where).
pub fn project_created(store: &Store, registry: &Registry, record: &GameRecord, appended: &Appended) -> Result<Projection, StoreError> {
    put(store, registry, &appended.game, record, appended.version, appended.last_position)
}

/// The projection of a game just created from `record`, whose verdict under `rules` the caller has
/// already computed: the same as `project_created`, without replaying the game a second time.
pub fn project_verdict(store: &Store, rules: &Ruleset, record: &GameRecord, appended: &Appended, verdict: &Verdict) -> Result<Projection, StoreError> {
    let projection = of_verdict(rules, &appended.game, record, verdict, appended.version, appended.last_position)?;
    store.put_projection(&appended.game, &projection)?;
    Ok(projection)
}

/// A projection from a verdict computed under `rules`.
fn of_verdict(rules: &Ruleset, game: &GameId, record: &GameRecord, verdict: &Verdict, version: u64, checkpoint: u64) -> Result<Projection, StoreError> {
    let verdict = serde_json::to_value(verdict).map_err(|e| StoreError::Invalid(format!("the verdict of {game} cannot be written as JSON: {e}")))?;
    let status = verdict["status"].as_str().unwrap_or_default().to_string();
    Ok(Projection { ruleset: record.ruleset.clone(), ruleset_version: rules.version.clone(), players: record.players.clone(), status, version, checkpoint, verdict })
}

fn put(store: &Store, registry: &Registry, game: &GameId, record: &GameRecord, version: u64, checkpoint: u64) -> Result<Projection, StoreError> {
    let projection = compute(registry, game, record, version, checkpoint)?;
    store.put_projection(game, &projection)?;
    Ok(projection)
}

/// A game to import, refereed: its header, events and projection, or why it cannot be stored (an
/// unknown ruleset, a game replay cannot read), as `POST /games` refuses it. Games that break a rule
/// are stored, with their verdict.
pub fn prepare(registry: &Registry, record: GameRecord) -> Result<crate::Import, StoreError> {
    let rules = registry.get(&record.ruleset).ok_or_else(|| StoreError::Invalid(format!("unknown ruleset `{}`", record.ruleset)))?;
    let verdict = replay(rules, &record).map_err(|e| StoreError::Invalid(e.to_string()))?;
    let verdict = crate::Refereed::of(rules, &verdict)?;
    // The record's fields moved into the header, not copied.
    let GameRecord { ruleset, options, players, dealer, pots, standing, description, events } = record;
    let header = crate::Header { ruleset, options, players, dealer, pots, standing, description };
    header.check()?;
    let events = events.into_iter().map(|event| crate::NewEvent { id: None, event }).collect();
    Ok(crate::Import { header, events, verdict })
}

impl crate::Refereed {
    /// A verdict replay computed under `rules`, as a projection holds it.
    pub fn of(rules: &Ruleset, verdict: &Verdict) -> Result<crate::Refereed, StoreError> {
        let status = match serde_json::to_value(verdict.status) {
            Ok(serde_json::Value::String(status)) => status,
            _ => return Err(StoreError::Invalid("the verdict's status cannot be written".into())),
        };
        Ok(crate::Refereed { ruleset_version: rules.version.clone(), status, json: verdict.to_json() })
    }
}

/// The games of a batch that can be stored, and each line's report in order: the status of its
/// verdict, or why it was refused. The API's import and the CLI's share it.
pub fn split_batch(prepared: Vec<Result<crate::Import, String>>) -> (Vec<crate::Import>, Vec<Result<String, String>>) {
    let mut imports = Vec::with_capacity(prepared.len());
    let reports = prepared
        .into_iter()
        .map(|p| {
            p.map(|import| {
                let status = import.verdict.status.clone();
                imports.push(import);
                status
            })
        })
        .collect();
    (imports, reports)
}

impl crate::Import {
    /// The summary and the projection's JSON of this game once stored as `appended`: the JSON
    /// `Projection` has, its verdict copied as replay wrote it rather than read and written again.
    pub(crate) fn projection(&self, appended: &Appended) -> (Summary, Vec<u8>) {
        let summary = self.summary(appended);
        #[derive(Serialize)]
        struct Head<'a> {
            ruleset: &'a str,
            ruleset_version: &'a str,
            players: &'a [String],
            status: &'a str,
            version: u64,
            checkpoint: u64,
        }
        let head = Head {
            ruleset: &summary.ruleset,
            ruleset_version: &summary.ruleset_version,
            players: &summary.players,
            status: &summary.status,
            version: summary.version,
            checkpoint: summary.checkpoint,
        };
        // `{...}` with `,"verdict":VERDICT` before its closing brace.
        let mut json = encode(&head);
        json.pop();
        json.extend_from_slice(b",\"verdict\":");
        json.extend_from_slice(&self.verdict.json);
        json.push(b'}');
        (summary, json)
    }

    /// The summary of this game once stored as `appended`.
    pub(crate) fn summary(&self, appended: &Appended) -> Summary {
        Summary {
            game: appended.game.clone(),
            ruleset: self.header.ruleset.clone(),
            ruleset_version: self.verdict.ruleset_version.clone(),
            players: self.header.players.clone(),
            status: self.verdict.status.clone(),
            version: appended.version,
            checkpoint: if appended.version == 0 { 0 } else { appended.last_position },
        }
    }
}

/// Replays `record` with the registry's rules: its projection at `version` and `checkpoint`,
/// not stored. `game` only names it in an error.
pub fn compute(registry: &Registry, game: &GameId, record: &GameRecord, version: u64, checkpoint: u64) -> Result<Projection, StoreError> {
    let (ruleset, players) = (record.ruleset.clone(), record.players.clone());
    let (ruleset_version, status, verdict) = match registry.get(&ruleset) {
        None => (String::new(), "unreadable".to_string(), json!({ "error": { "message": format!("there is no ruleset '{ruleset}'") } })),
        Some(rules) => match replay(rules, record) {
            Ok(verdict) => return of_verdict(rules, game, record, &verdict, version, checkpoint),
            Err(error) => (rules.version.clone(), "unreadable".to_string(), json!({ "error": error })),
        },
    };
    Ok(Projection { ruleset, ruleset_version, players, status, version, checkpoint, verdict })
}

/// Deletes every projection and recomputes them all from the streams, on every core; returns how
/// many games were projected.
pub fn rebuild_projections(store: &Store, registry: &Registry) -> Result<usize, StoreError> {
    use rayon::prelude::*;
    store.clear_projections()?;
    let games = store.games()?;
    games.par_iter().try_for_each(|game| project(store, registry, game).map(|_| ()))?;
    Ok(games.len())
}
