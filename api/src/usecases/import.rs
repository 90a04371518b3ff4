//! Import: many recorded games, a batch at a time, each game refereed and stored with its verdict,
//! each batch one transaction on disk before its games are reported. `POST /games:import` gives it
//! the batches of a request body, `tarot-archive import games` those of its files; each writes the
//! reports in its own form.
//!
//! Batches go through four steps, each batch's overlapping those of the batches before and after
//! it. The caller's thread reads the lines and hands each batch to the rayon pool, where each game
//! is read, refereed and staged by the same core (`stage_game`: its JSON and digest, nothing stored
//! read, no lock taken). Up to [`IN_FLIGHT`] batches are read and not yet stored, so that the pool
//! always has the next batch's games to work on rather than waiting for the reader or for a batch's
//! serial steps. A second thread finishes staging the batches in the order read (`stage_finish`:
//! which games were imported before; on sled the others' events and verdicts written to a bulk file
//! and on disk), a third stores them (`import_staged`: one transaction), and a fourth waits until
//! each is on disk (`flush`) and reports its games, in order. Neither the reads nor the waits for
//! the disk hold up the pool or the storing of the next batch.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::mpsc;

use rayon::prelude::*;
use tarot_engine::Registry;
use tarot_store::{Appended, Store, StoreError};

/// How many batches are read and not yet stored, at most: those refereed in the pool, the next one
/// read, and those in the staging and storing threads.
pub const IN_FLIGHT: usize = 5;

/// One game of a batch: where it comes from (a line of a body, a file), the number of its first line
/// in that stream (its errors are placed there), and its text.
pub struct Line<S> {
    pub source: S,
    pub first_line: usize,
    pub text: Vec<u8>,
}

/// What became of one game.
pub enum Outcome {
    /// Stored (`new`), or found stored before by an earlier import of the same record.
    Stored { appended: Appended, new: bool, status: String },
    /// Not a readable game, or not one of its ruleset: why. Nothing is stored for it.
    Refused(String),
}

/// The games of an import so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub stored: usize,
    pub again: usize,
    pub refused: usize,
}

/// Why an import stopped. The batches reported before it are stored.
#[derive(Debug)]
pub enum Failure {
    /// Storing a batch failed: nothing of it was stored.
    Store(StoreError),
    /// Waiting for a stored batch to reach the disk failed: it may not be on disk.
    Flush(StoreError),
    /// The caller's reading or reporting failed.
    Caller(String),
}

impl Failure {
    /// The store's error, where the store failed.
    pub fn store_error(self) -> Result<StoreError, String> {
        match self {
            Failure::Store(e) | Failure::Flush(e) => Ok(e),
            Failure::Caller(e) => Err(e),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Store(e) => write!(f, "storing games failed (nothing of this batch was stored): {e}"),
            Failure::Flush(e) => write!(f, "storing games failed (this batch may not be on disk): {e}"),
            Failure::Caller(e) => write!(f, "{e}"),
        }
    }
}

/// A game read from its text, in the words of a person who wrote it: where the text is wrong as a
/// line and column of the stream it came in (`first_line` is the number of the text's first line),
/// once, and at which field, or why it is not a game of its ruleset.
pub fn read_game(registry: &Registry, text: &[u8], first_line: usize) -> Result<tarot_store::Import, String> {
    let record = match std::str::from_utf8(text) {
        Ok(json) => tarot_engine::parse_record(json).map_err(|e| placed(&e, first_line))?,
        Err(e) => return Err(format!("line {first_line}: the text is not UTF-8 (byte {})", e.valid_up_to() + 1)),
    };
    tarot_store::prepare(registry, record).map_err(|e| e.to_string())
}

/// `parse_record`'s "line L, column C, at `PATH`: what" with L counted in the stream, and without a
/// field the reader could not name (`?`, `events[0].?`: the field where the text stops being JSON).
fn placed(message: &str, first_line: usize) -> String {
    let read = || -> Option<(usize, &str, &str)> {
        let rest = message.strip_prefix("line ")?;
        let (line, rest) = rest.split_once(", column ")?;
        let line: usize = line.parse().ok()?;
        let end = rest.find(|c: char| !c.is_ascii_digit())?;
        Some((line, &rest[..end], &rest[end..]))
    };
    let Some((line, column, rest)) = read() else { return message.to_string() };
    let line = first_line + line - 1;
    let (field, what) = match rest.strip_prefix(", at `").and_then(|r| r.split_once("`: ")) {
        Some((path, what)) => {
            let mut path = path;
            while let Some(p) = path.strip_suffix(".?") {
                path = p;
            }
            (if path == "?" || path.is_empty() { String::new() } else { format!(", at `{path}`") }, what)
        }
        None => (String::new(), rest.strip_prefix(": ").unwrap_or(rest)),
    };
    format!("line {line}, column {column}{field}: {what}")
}

type Refereed<S> = (Vec<S>, u64, Vec<Result<String, String>>, Vec<tarot_store::StagedGame>);
type Staged<S> = (Vec<S>, u64, Vec<Result<String, String>>, tarot_store::Staged);
type Stored<S> = (Vec<S>, u64, Vec<Result<String, String>>, Vec<(Appended, bool)>);

/// Imports the batches `read` hands over (through the function it is given, which answers false
/// once the import has stopped), and gives `report` each batch's games in order once the batch is
/// on disk, with the bytes of text it held and the counts so far. `read` runs on the caller's
/// thread; `report` on a thread of its own.
pub fn import<S: Send>(
    store: &Store,
    registry: &Registry,
    read: impl FnOnce(&mut dyn FnMut(Vec<Line<S>>) -> bool) -> Result<(), String>,
    report: impl FnMut(Vec<(S, Outcome)>, u64, Counts) -> Result<(), String> + Send,
) -> Result<Counts, Failure> {
    let (to_stage, refereed) = mpsc::channel::<(u64, Result<Refereed<S>, StoreError>)>();
    let (to_store, staged) = mpsc::sync_channel::<Staged<S>>(1);
    // A batch takes a slot when it is read and gives it back once stored.
    let (slots, freed) = mpsc::sync_channel::<()>(IN_FLIGHT);
    let (to_report, stored) = mpsc::sync_channel::<Stored<S>>(1);
    let staging = move |refereed: mpsc::Receiver<(u64, Result<Refereed<S>, StoreError>)>| -> Result<(), Failure> {
        // Batches arrive in the order the pool finishes them, and are staged in the order read.
        let mut waiting = BTreeMap::new();
        let mut next = 0u64;
        for (number, batch) in refereed {
            waiting.insert(number, batch);
            while let Some(batch) = waiting.remove(&next) {
                let (sources, bytes, reports, games) = batch.map_err(Failure::Store)?;
                let staged = store.stage_finish(games).map_err(Failure::Store)?;
                next += 1;
                if to_store.send((sources, bytes, reports, staged)).is_err() {
                    return Ok(());
                }
            }
        }
        Ok(())
    };
    let storing = move |staged: mpsc::Receiver<Staged<S>>| -> Result<(), Failure> {
        for (sources, bytes, reports, staged) in staged {
            let results = store.import_staged(staged).map_err(Failure::Store)?;
            let _ = freed.recv();
            if to_report.send((sources, bytes, reports, results)).is_err() {
                return Ok(());
            }
        }
        Ok(())
    };
    let mut report = report;
    let mut reporting = move |stored: mpsc::Receiver<Stored<S>>| -> Result<Counts, Failure> {
        let mut counts = Counts::default();
        for (sources, bytes, reports, results) in stored {
            store.flush().map_err(Failure::Flush)?;
            let mut results = results.into_iter();
            let outcomes = sources
                .into_iter()
                .zip(reports)
                .map(|(source, report)| {
                    let outcome = match report {
                        Ok(status) => {
                            let (appended, new) = results.next().expect("a result per game stored");
                            if new {
                                counts.stored += 1;
                            } else {
                                counts.again += 1;
                            }
                            Outcome::Stored { appended, new, status }
                        }
                        Err(e) => {
                            counts.refused += 1;
                            Outcome::Refused(e)
                        }
                    };
                    (source, outcome)
                })
                .collect();
            report(outcomes, bytes, counts).map_err(Failure::Caller)?;
        }
        Ok(counts)
    };
    // Reads, referees and stages one batch, on the pool: each game's text is dropped once read, and
    // its events once staged, on the core that read it.
    let referee = move |batch: Vec<Line<S>>| -> Result<Refereed<S>, StoreError> {
        let bytes: u64 = batch.iter().map(|line| line.text.len() as u64 + 1).sum();
        type Done<S> = (S, Result<Result<(String, tarot_store::StagedGame), String>, StoreError>);
        let done: Vec<Done<S>> = batch
            .into_par_iter()
            .map(|Line { source, first_line, text }| {
                let prepared = read_game(registry, &text, first_line);
                drop(text);
                let staged = match prepared {
                    Ok(game) => {
                        let status = game.verdict.status.clone();
                        store.stage_game(game).map(|staged| Ok((status, staged)))
                    }
                    Err(e) => Ok(Err(e)),
                };
                (source, staged)
            })
            .collect();
        // Each game's status, or why it was refused; the games themselves go to the store.
        let (mut sources, mut reports, mut games) = (Vec::with_capacity(done.len()), Vec::with_capacity(done.len()), Vec::with_capacity(done.len()));
        for (source, staged) in done {
            sources.push(source);
            reports.push(match staged? {
                Ok((status, game)) => {
                    games.push(game);
                    Ok(status)
                }
                Err(e) => Err(e),
            });
        }
        Ok((sources, bytes, reports, games))
    };
    let panicked: std::sync::Mutex<Option<Box<dyn std::any::Any + Send>>> = std::sync::Mutex::new(None);
    let panicked = &panicked;
    let (read, counts) = std::thread::scope(|scope| {
        let stager = scope.spawn(move || staging(refereed));
        let storer = scope.spawn(move || storing(staged));
        let reporter = scope.spawn(move || reporting(stored));
        let referee = &referee;
        let read = rayon::in_place_scope(|pool| -> Result<(), String> {
            let mut number = 0u64;
            // Hands a batch to the pool once a slot is free; false once storing has stopped.
            let mut send = |batch: Vec<Line<S>>| -> bool {
                if slots.send(()).is_err() {
                    return false;
                }
                let to_stage = to_stage.clone();
                let this = number;
                number += 1;
                pool.spawn(move |_| {
                    // A panic stops the import as it would have stopped a batch refereed on this
                    // thread, once the batches before are stored: the staging thread, waiting for
                    // this batch, is told, and the panic is raised again once the others are done.
                    let refereed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| referee(batch))).unwrap_or_else(|panic| {
                        *panicked.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(panic);
                        Err(StoreError::Io("refereeing the batch panicked".into()))
                    });
                    // A send fails only when staging has stopped on an error, which it returns.
                    let _ = to_stage.send((this, refereed));
                });
                true
            };
            read(&mut send)
        });
        // The other steps end once the last batch has gone through them (the pool's batches are
        // done when `in_place_scope` returns).
        drop(to_stage);
        drop(slots);
        let staged = stager.join().expect("the staging thread does not panic");
        let stored = storer.join().expect("the storing thread does not panic");
        let reported = reporter.join().expect("the reporting thread does not panic");
        // The first step that failed: the later ones stop because of it, with no error.
        (read, staged.and(stored).and(reported))
    });
    if let Some(panic) = panicked.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() {
        std::panic::resume_unwind(panic);
    }
    // A failure to store comes first: reading stops because of it.
    let counts = counts?;
    read.map_err(Failure::Caller)?;
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::placed;

    #[test]
    fn a_place_is_said_once_in_the_stream_and_without_unnamed_fields() {
        assert_eq!(placed("line 1, column 107, at `events[0].card`: invalid type", 5), "line 5, column 107, at `events[0].card`: invalid type");
        assert_eq!(placed("line 1, column 113, at `?`: trailing comma", 3), "line 3, column 113: trailing comma");
        assert_eq!(placed("line 2, column 9, at `events[0].?`: expected `,` or `}`", 1), "line 2, column 9, at `events[0]`: expected `,` or `}`");
        assert_eq!(placed("line 1, column 1: a recorded game is a JSON object, not a list", 7), "line 7, column 1: a recorded game is a JSON object, not a list");
        assert_eq!(placed("event 3: unknown card", 7), "event 3: unknown card");
    }
}
