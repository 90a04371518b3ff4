//! Bulk files: the large values of an imported batch (each game's events and verdict) written
//! together in one file beside sled, with sled keeping a short pointer to each.
//!
//! sled 0.34 copies a whole leaf (up to 16 entries) to apply each insert, and rewrites it to its
//! log when it consolidates, so values of several kilobytes make every insert cost tens of
//! kilobytes of copying and logging. An import writes each batch's values once, in one file
//! `bulk/<first game number, 16 hex digits>`, and stores in sled, where the value would be, a
//! pointer: the byte `POINTER`, then the file number, offset and length (big-endian u64s).
//! Readers resolve a pointer to the bytes the value would have held; nothing else changes.
//!
//! Durability: the file and its directory entry are on disk (fsync) before the sled transaction
//! that points into it is applied, and that transaction is flushed before the import returns. A
//! crash in between leaves a file that nothing points to: the next batch, given the same first
//! game number, writes over it. Values written later in place of a pointer (a projection
//! recomputed by `rebuild`) are stored in sled as before.

use std::borrow::Cow;
use std::fs::{self, File};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::StoreError;

/// The first byte of a pointer. Inline values start with `{` (JSON) or with the top byte of a
/// position (0), never with this.
pub(crate) const POINTER: u8 = 0xFE;

/// The values of one batch being gathered for its file.
pub(crate) struct BulkFile {
    number: u64,
    /// Where in the file `bytes` will be written.
    base: u64,
    bytes: Vec<u8>,
}

impl BulkFile {
    /// A file for the batch whose first new game is `number`.
    pub(crate) fn new(number: u64, capacity: usize) -> BulkFile {
        BulkFile { number, base: 0, bytes: Vec::with_capacity(capacity) }
    }

    /// Adds a value; returns the pointer to store in its place.
    pub(crate) fn push(&mut self, value: &[u8]) -> Vec<u8> {
        let offset = self.base + self.bytes.len() as u64;
        self.bytes.extend_from_slice(value);
        let mut pointer = Vec::with_capacity(25);
        pointer.push(POINTER);
        pointer.extend_from_slice(&self.number.to_be_bytes());
        pointer.extend_from_slice(&offset.to_be_bytes());
        pointer.extend_from_slice(&(value.len() as u64).to_be_bytes());
        pointer
    }

    /// Writes the file in `dir`/bulk and waits until it and its name are on disk.
    pub(crate) fn write(&self, dir: &Path) -> Result<(), StoreError> {
        let folder = dir.join("bulk");
        let failed = |e: std::io::Error| StoreError::Io(format!("{}: {e}", folder.display()));
        fs::create_dir_all(&folder).map_err(failed)?;
        let mut file = File::create(path(dir, self.number)).map_err(failed)?;
        file.write_all(&self.bytes).map_err(failed)?;
        file.sync_data().map_err(failed)?;
        File::open(&folder).and_then(|f| f.sync_all()).map_err(failed)?;
        Ok(())
    }
}

/// A bulk file kept open and added to batch after batch: the one the writer thread of
/// `Store::create_later` fills, named after the first game it holds. Its length grows only once a
/// batch is on disk; a batch that fails leaves bytes after it that nothing points to, and the
/// writer drops the file (a name is reused only for a file whose games were never stored).
pub(crate) struct OpenBulk {
    number: u64,
    file: File,
    len: u64,
}

impl OpenBulk {
    /// Creates the file for games from `number` on, its name on disk.
    pub(crate) fn create(dir: &Path, number: u64) -> Result<OpenBulk, StoreError> {
        let folder = dir.join("bulk");
        let failed = |e: std::io::Error| StoreError::Io(format!("{}: {e}", folder.display()));
        fs::create_dir_all(&folder).map_err(failed)?;
        let file = File::create(path(dir, number)).map_err(failed)?;
        File::open(&folder).and_then(|f| f.sync_all()).map_err(failed)?;
        Ok(OpenBulk { number, file, len: 0 })
    }

    /// A batch to add at the end of this file.
    pub(crate) fn batch(&self, capacity: usize) -> BulkFile {
        BulkFile { number: self.number, base: self.len, bytes: Vec::with_capacity(capacity) }
    }

    /// Writes `batch` (made by `batch`) at the end and waits until it is on disk.
    pub(crate) fn add(&mut self, batch: &BulkFile) -> Result<(), StoreError> {
        let failed = |e: std::io::Error| StoreError::Io(format!("bulk file {:016x}: {e}", self.number));
        self.file.write_all_at(&batch.bytes, self.len).map_err(failed)?;
        self.file.sync_data().map_err(failed)?;
        self.len += batch.bytes.len() as u64;
        Ok(())
    }
}

fn path(dir: &Path, number: u64) -> PathBuf {
    dir.join("bulk").join(format!("{number:016x}"))
}

/// The bytes of a stored value: itself, or what it points to.
pub(crate) fn resolve<'a>(dir: &Path, value: &'a [u8]) -> Result<Cow<'a, [u8]>, StoreError> {
    if value.first() != Some(&POINTER) {
        return Ok(Cow::Borrowed(value));
    }
    let field = |i: usize| value.get(1 + 8 * i..9 + 8 * i).and_then(|b| b.try_into().ok()).map(u64::from_be_bytes);
    let (Some(number), Some(offset), Some(len), 25) = (field(0), field(1), field(2), value.len()) else {
        return Err(StoreError::Io("a bulk pointer stored in the database cannot be read".into()));
    };
    let at = path(dir, number);
    let failed = |e: std::io::Error| StoreError::Io(format!("{}: {e}", at.display()));
    let file = File::open(&at).map_err(failed)?;
    let mut bytes = vec![0; len as usize];
    file.read_exact_at(&mut bytes, offset).map_err(failed)?;
    Ok(Cow::Owned(bytes))
}
