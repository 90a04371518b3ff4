//! The sled store's projections (see `crate::projection`) and the indexes used for listing. They
//! are not flushed when written: a crash can lose only what a rebuild restores.
//!
//! Trees (game numbers are big-endian, so entries come in the order games were created):
//! - `projections`: game → `Projection` (JSON, with the verdict); none for a game whose projection
//!   an import stored, which its summary holds
//! - `summaries`: game → `Summary` (JSON, without the verdict, for listing); for a game stored by
//!   an import, until its projection is replaced, the byte `IMPORTED`, the length of a pointer to
//!   its verdict in a bulk file (4 bytes), the pointer, then the JSON (see `imported_summary`):
//!   a summary and its verdict are the whole projection, so one value a game is written, not two
//! - `by_ruleset`, `by_player`, `by_status`: the value's text, the byte 0xFF, the game → nothing;
//!   or, for games created together (an import's batch), the value's text, 0xFF, the first game
//!   and the byte 0 → the games (8 bytes each). UTF-8 text never contains 0xFF, so a value's
//!   entries are exactly the keys under its prefix. An entry may name a game whose summary no
//!   longer has that value (a projection replaced): listing checks the summaries.

use sled::transaction::{ConflictableTransactionError, Transactional};

use super::streams::IMPORTED;
use super::{bulk, read_u64, SledStore};
use crate::stream::{decode, encode};
use crate::{Filter, GameId, Projection, StoreError, Summary};

impl SledStore {
    /// Stores a game's projection and its index entries in place of the one before, unless the one
    /// before was computed at a later checkpoint: when projections of one game race, the newest stays.
    pub fn put_projection(&self, game: &GameId, projection: &Projection) -> Result<(), StoreError> {
        let number = self.number(game)?;
        let header = self.header_of(number)?;
        if projection.ruleset != header.ruleset || projection.players != header.players {
            return Err(StoreError::Invalid(format!(
                "the projection is of a {} game of {}, but {game} is a {} game of {}",
                projection.ruleset,
                projection.players.join(", "),
                header.ruleset,
                header.players.join(", ")
            )));
        }
        let summary = projection.summary(game);
        let key = number.to_be_bytes();
        let trees = (&self.projections, &self.summaries, &self.by_ruleset, &self.by_player, &self.by_status);
        trees.transaction(|(projections, summaries, by_ruleset, by_player, by_status)| {
            if let Some(bytes) = summaries.get(key)? {
                let old: Summary = read_summary(number, &bytes).and_then(|(json, _)| decode("a summary", json)).map_err(ConflictableTransactionError::Abort)?;
                if old.checkpoint > projection.checkpoint {
                    return Ok(());
                }
                by_ruleset.remove(index_key(&old.ruleset, number))?;
                by_status.remove(index_key(&old.status, number))?;
                for player in &old.players {
                    by_player.remove(index_key(player, number))?;
                }
            }
            by_ruleset.insert(index_key(&summary.ruleset, number), &b""[..])?;
            by_status.insert(index_key(&summary.status, number), &b""[..])?;
            for player in &summary.players {
                by_player.insert(index_key(player, number), &b""[..])?;
            }
            summaries.insert(&key, encode(&summary))?;
            projections.insert(&key, encode(projection))?;
            Ok(())
        })?;
        Ok(())
    }

    /// Stores the projections of games just created, which have none yet, with their index entries:
    /// each game's number, summary and projection (JSON, or a pointer to it or to its verdict in a
    /// bulk file).
    ///
    /// The index entries are one per value for the whole batch (see `batch_key`), not one per game:
    /// an import of fft-4p games made six index inserts a game, half of its sled inserts.
    pub(crate) fn put_new_projections(&self, projections: &[(u64, Summary, NewProjection)]) -> Result<(), StoreError> {
        let (mut all, mut summaries) = <(sled::Batch, sled::Batch)>::default();
        let (mut by_ruleset, mut by_player, mut by_status) = <(Postings, Postings, Postings)>::default();
        for (number, summary, projection) in projections {
            by_ruleset.add(&summary.ruleset, *number);
            by_status.add(&summary.status, *number);
            for player in &summary.players {
                by_player.add(player, *number);
            }
            match projection {
                NewProjection::Value(value) => {
                    put_entry(&mut summaries, number, encode(summary));
                    put_entry(&mut all, number, value.clone());
                }
                NewProjection::InSummary(verdict) => put_entry(&mut summaries, number, imported_summary(verdict, &encode(summary))),
            }
        }
        let (by_ruleset, by_player, by_status) = (by_ruleset.batch(), by_player.batch(), by_status.batch());
        // Tree by tree, each batch atomic in its tree, rather than in one transaction (which reads
        // every key before it writes it: those reads were 6% of POST /games's server CPU in a
        // profile, this and the primary transaction together). The summaries, which make a game
        // listed, come last:
        // a reader, or a crash, between two batches finds a game with a projection that is not
        // listed yet, as a game whose projection is not stored yet (`list` skips index entries
        // without a summary; `put_projection` writes the index entries again, harmlessly).
        self.projections.apply_batch(all)?;
        self.by_ruleset.apply_batch(by_ruleset)?;
        self.by_player.apply_batch(by_player)?;
        self.by_status.apply_batch(by_status)?;
        self.summaries.apply_batch(summaries)?;
        Ok(())
    }

    /// The game's stored projection, if one was computed.
    pub fn projection(&self, game: &GameId) -> Result<Option<Projection>, StoreError> {
        let number = self.number(game)?;
        if let Some(bytes) = self.projections.get(number.to_be_bytes())? {
            return decode("a projection", &bulk::resolve(&self.dir, &bytes)?).map(Some);
        }
        // Stored by an import: the summary and the verdict it points to.
        let Some(bytes) = self.summaries.get(number.to_be_bytes())? else { return Ok(None) };
        let (json, Some(verdict)) = read_summary(number, &bytes)? else { return Ok(None) };
        let summary: Summary = decode("a summary", json)?;
        Ok(Some(Projection {
            ruleset: summary.ruleset,
            ruleset_version: summary.ruleset_version,
            players: summary.players,
            status: summary.status,
            version: summary.version,
            checkpoint: summary.checkpoint,
            verdict: decode("a verdict", &bulk::resolve(&self.dir, verdict)?)?,
        }))
    }

    /// One page of the projected games matching `filter`, in creation order, and how many match in
    /// all. Games without a projection are not listed. One index is scanned (ruleset, else player,
    /// else status) and the other fields are checked on the summaries.
    pub fn list(&self, filter: &Filter, offset: usize, limit: usize) -> Result<(Vec<Summary>, usize), StoreError> {
        let (tree, prefix) = match filter {
            Filter { ruleset: Some(ruleset), .. } => (&self.by_ruleset, index_prefix(ruleset)),
            Filter { player: Some(player), .. } => (&self.by_player, index_prefix(player)),
            Filter { status: Some(status), .. } => (&self.by_status, index_prefix(status)),
            _ => (&self.summaries, vec![]),
        };
        let mut page = vec![];
        let mut total = 0;
        let mut numbers: Vec<u64> = vec![];
        for entry in tree.scan_prefix(&prefix) {
            let (key, value) = entry?;
            match key.len() - prefix.len() {
                // A game (`index_key`; every key of `summaries`, whose prefix is empty).
                8 => numbers.push(read_u64(&key[prefix.len()..])?),
                // The games of a batch (`batch_key`), in the value.
                9 => numbers.extend(value.chunks_exact(8).map(|n| u64::from_be_bytes(n.try_into().expect("8 bytes")))),
                _ => return Err(StoreError::Io("an index entry stored in the database cannot be read".into())),
            }
        }
        // A game written again by `put_projection` after its batch has an entry of its own as well
        // as its place in the batch's: listed once, in creation order.
        if !numbers.is_sorted_by(|a, b| a < b) {
            numbers.sort_unstable();
            numbers.dedup();
        }
        for number in numbers {
            // A summary may have gone since the index was read, or changed (an entry left from an
            // earlier projection): the filter is checked on the summary.
            let Some(bytes) = self.summaries.get(number.to_be_bytes())? else { continue };
            let summary: Summary = decode("a summary", read_summary(number, &bytes)?.0)?;
            if filter.matches(&summary) {
                if total >= offset && page.len() < limit {
                    page.push(summary);
                }
                total += 1;
            }
        }
        Ok((page, total))
    }

    /// Deletes every projection and index entry; the streams are untouched.
    pub fn clear_projections(&self) -> Result<(), StoreError> {
        for tree in [&self.projections, &self.summaries, &self.by_ruleset, &self.by_player, &self.by_status] {
            tree.clear()?;
        }
        Ok(())
    }
}

fn index_prefix(value: &str) -> Vec<u8> {
    let mut prefix = value.as_bytes().to_vec();
    prefix.push(0xFF);
    prefix
}

fn index_key(value: &str, number: u64) -> Vec<u8> {
    let mut key = index_prefix(value);
    key.extend_from_slice(&number.to_be_bytes());
    key
}

/// The index entry of a batch of games created together, whose first game is `first`: the
/// value's prefix, `first` and one more byte (so that it is never the key of one game, which
/// `put_projection` may write later), with the games' numbers (8 bytes each) as its value.
fn batch_key(value: &str, first: u64) -> Vec<u8> {
    let mut key = index_key(value, first);
    key.push(0);
    key
}

/// The index entries of a batch being gathered: each value's games in the order added.
#[derive(Default)]
struct Postings(std::collections::BTreeMap<String, Vec<u8>>);

impl Postings {
    fn add(&mut self, value: &str, number: u64) {
        let games = match self.0.get_mut(value) {
            Some(games) => games,
            None => self.0.entry(value.to_string()).or_default(),
        };
        games.extend_from_slice(&number.to_be_bytes());
    }

    fn batch(self) -> sled::Batch {
        let mut batch = sled::Batch::default();
        for (value, games) in self.0 {
            let first = u64::from_be_bytes(games[..8].try_into().expect("a game added"));
            batch.insert(batch_key(&value, first), games);
        }
        batch
    }
}

/// A new game's projection as `put_new_projections` stores it.
pub(crate) enum NewProjection {
    /// The projection's value (JSON, or a pointer to it in a bulk file), stored in `projections`.
    Value(Vec<u8>),
    /// A pointer to the verdict in a bulk file, stored in the summary (an import's games).
    InSummary(Vec<u8>),
}

/// An imported game's summary: `IMPORTED`, the pointer's length (4 bytes), the pointer to its
/// verdict, then the summary's JSON.
fn imported_summary(verdict: &[u8], json: &[u8]) -> Vec<u8> {
    let mut value = Vec::with_capacity(5 + verdict.len() + json.len());
    value.push(IMPORTED);
    value.extend_from_slice(&(verdict.len() as u32).to_be_bytes());
    value.extend_from_slice(verdict);
    value.extend_from_slice(json);
    value
}

/// Game `number`'s stored summary: its JSON and, for a game stored by an import, the pointer to its
/// verdict (see `imported_summary`).
fn read_summary(number: u64, bytes: &[u8]) -> Result<(&[u8], Option<&[u8]>), StoreError> {
    if bytes.first() != Some(&IMPORTED) {
        return Ok((bytes, None));
    }
    let unreadable = || {
        StoreError::Io(format!("the summary of game {} (stored by an import: a pointer to its verdict, then its JSON) is cut short in the database", GameId::from_number(number)))
    };
    let len = bytes.get(1..5).and_then(|b| b.try_into().ok()).map(u32::from_be_bytes).ok_or_else(unreadable)? as usize;
    let verdict = bytes.get(5..5 + len).ok_or_else(unreadable)?;
    Ok((&bytes[5 + len..], Some(verdict)))
}

fn put_entry(batch: &mut sled::Batch, number: &u64, value: Vec<u8>) {
    batch.insert(&number.to_be_bytes()[..], value);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An imported game's summary reads back as written; a plain summary is its JSON; one cut
    /// short anywhere is an error, not a panic.
    #[test]
    fn an_imported_summary_reads_back_and_one_cut_short_is_an_error() {
        let value = imported_summary(b"pointer", b"{}");
        assert_eq!(read_summary(1, &value).unwrap(), (&b"{}"[..], Some(&b"pointer"[..])));
        assert_eq!(read_summary(1, b"{}").unwrap(), (&b"{}"[..], None));
        for cut in 1..5 + 7 {
            let error = read_summary(37, &value[..cut]).err().unwrap_or_else(|| panic!("cut at {cut}: read"));
            assert!(error.to_string().contains("game g11") && error.to_string().contains("cut short"), "{error}");
        }
    }
}
