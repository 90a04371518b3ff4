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
//!
//! Staged imports (`SledStore::stage_import`) write their games' values before the games are
//! numbered, so the bulk file holds only what does not depend on the numbers (the events' JSON, the
//! verdict's JSON) and sled keeps the rest beside the pointer: the byte `AROUND`, the file number,
//! offset and length, then the length of a prefix (big-endian u32), the prefix and a suffix; the
//! value is the prefix, the bytes in the file, then the suffix (the segment's first position; the
//! projection's fields before its verdict and the closing brace). Those files are named from
//! `STAGED_FILES` on (the top bit set), so never after a game number: one is written batch after
//! batch while the importing store is open, and a new one is started after a failed batch or once
//! it holds `STAGED_FILE_SIZE` bytes. A crash before a batch's transaction leaves bytes that
//! nothing points to, never overwritten.

use std::borrow::Cow;
use std::fs::{self, File};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::StoreError;

/// The first byte of a pointer. Inline values start with `{` (JSON) or with the top byte of a
/// position (0), never with this.
pub(crate) const POINTER: u8 = 0xFE;

/// The first byte of a pointer with a prefix and a suffix kept in sled (see above).
pub(crate) const AROUND: u8 = 0xFD;

/// The first name of the files of staged imports: above every game number.
pub(crate) const STAGED_FILES: u64 = 1 << 63;

/// A staged import's file is not added to once it holds this many bytes.
pub(crate) const STAGED_FILE_SIZE: u64 = 1 << 30;

/// Where a value is in a bulk file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Place {
    pub(crate) number: u64,
    pub(crate) offset: u64,
    pub(crate) len: u64,
}

impl Place {
    /// The value to store in sled for the bytes `prefix`, this place's, then `suffix`.
    pub(crate) fn around(&self, prefix: &[u8], suffix: &[u8]) -> Vec<u8> {
        let mut pointer = Vec::with_capacity(29 + prefix.len() + suffix.len());
        pointer.push(AROUND);
        pointer.extend_from_slice(&self.number.to_be_bytes());
        pointer.extend_from_slice(&self.offset.to_be_bytes());
        pointer.extend_from_slice(&self.len.to_be_bytes());
        pointer.extend_from_slice(&(prefix.len() as u32).to_be_bytes());
        pointer.extend_from_slice(prefix);
        pointer.extend_from_slice(suffix);
        pointer
    }
}

/// The values of one batch being gathered for its file.
pub(crate) struct BulkFile {
    number: u64,
    /// Where in the file `bytes[start..]` will be written.
    base: u64,
    bytes: Vec<u8>,
    /// The bytes before this one only align the rest in memory (see `DIRECT_ALIGN`).
    start: usize,
}

/// The alignment in memory, in the file and of the length, of what a file opened with `O_DIRECT`
/// writes: a page, a multiple of the block size of every file system that takes `O_DIRECT`.
const DIRECT_ALIGN: usize = 4096;

impl BulkFile {
    /// Adds a value; returns where it will be.
    pub(crate) fn place(&mut self, value: &[u8]) -> Place {
        let offset = self.base + (self.bytes.len() - self.start) as u64;
        self.bytes.extend_from_slice(value);
        Place { number: self.number, offset, len: value.len() as u64 }
    }

    /// Adds a value; returns the pointer to store in its place.
    pub(crate) fn push(&mut self, value: &[u8]) -> Vec<u8> {
        let offset = self.base + (self.bytes.len() - self.start) as u64;
        self.bytes.extend_from_slice(value);
        let mut pointer = Vec::with_capacity(25);
        pointer.push(POINTER);
        pointer.extend_from_slice(&self.number.to_be_bytes());
        pointer.extend_from_slice(&offset.to_be_bytes());
        pointer.extend_from_slice(&(value.len() as u64).to_be_bytes());
        pointer
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
    /// Opened with `O_DIRECT`: each batch written from memory to the disk with no copy in the
    /// page cache, at offsets, addresses and lengths aligned to `DIRECT_ALIGN` (a batch's last
    /// bytes padded with zeros that nothing points to).
    direct: bool,
    /// The memory of the last batch written, kept for the next: a fresh batch of megabytes was
    /// fresh pages for the kernel to fault in and zero, 2% of an import's CPU (perf, 20,000 games).
    spare: Vec<u8>,
}

impl OpenBulk {
    /// Creates the file for games from `number` on, its name on disk.
    pub(crate) fn create(dir: &Path, number: u64) -> Result<OpenBulk, StoreError> {
        let folder = dir.join("bulk");
        let failed = |e: std::io::Error| StoreError::io(folder.display(), &e);
        fs::create_dir_all(&folder).map_err(failed)?;
        let file = File::create(path(dir, number)).map_err(failed)?;
        File::open(&folder).and_then(|f| f.sync_all()).map_err(failed)?;
        Ok(OpenBulk { number, file, len: 0, direct: false, spare: Vec::new() })
    }

    /// `create`, the file written with `O_DIRECT` where the file system takes it (not tmpfs).
    ///
    /// For staged imports, whose batches are megabytes written once: copying them into the page
    /// cache (`copy_folio_from_iter_atomic` in the kernel) was 13% of the CPU of an import of
    /// 20,000 fft-4p games (perf, release build).
    pub(crate) fn create_direct(dir: &Path, number: u64) -> Result<OpenBulk, StoreError> {
        use std::os::unix::fs::OpenOptionsExt;
        let mut bulk = OpenBulk::create(dir, number)?;
        if let Ok(file) = fs::OpenOptions::new().write(true).custom_flags(libc::O_DIRECT).open(path(dir, number)) {
            bulk.file = file;
            bulk.direct = true;
        }
        Ok(bulk)
    }

    /// How many bytes the file holds.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// A batch to add at the end of this file.
    pub(crate) fn batch(&mut self, capacity: usize) -> BulkFile {
        let mut bytes = std::mem::take(&mut self.spare);
        bytes.clear();
        if !self.direct {
            bytes.reserve(capacity);
            return BulkFile { number: self.number, base: self.len, bytes, start: 0 };
        }
        // Room to align the start and pad the end, so that the bytes are not moved as they grow.
        if bytes.capacity() < capacity + 2 * DIRECT_ALIGN {
            bytes = Vec::with_capacity(capacity + 2 * DIRECT_ALIGN);
        }
        let start = bytes.as_ptr().align_offset(DIRECT_ALIGN);
        let mut batch = BulkFile { number: self.number, base: self.len, bytes, start };
        batch.bytes.resize(start, 0);
        batch
    }

    /// Writes `batch` (made by `batch`) at the end and waits until it is on disk.
    pub(crate) fn add(&mut self, batch: &mut BulkFile) -> Result<(), StoreError> {
        let failed = |e: std::io::Error| StoreError::io(format_args!("bulk file {:016x}", self.number), &e);
        let mut len = batch.bytes.len() - batch.start;
        if self.direct {
            len = len.next_multiple_of(DIRECT_ALIGN);
            batch.bytes.resize(batch.start + len, 0);
            if !(batch.bytes.as_ptr() as usize + batch.start).is_multiple_of(DIRECT_ALIGN) {
                // Moved as it grew beyond the room `batch` made: copied to an aligned place.
                let mut aligned: Vec<u8> = Vec::with_capacity(len + DIRECT_ALIGN);
                let start = aligned.as_ptr().align_offset(DIRECT_ALIGN);
                aligned.resize(start, 0);
                aligned.extend_from_slice(&batch.bytes[batch.start..]);
                (batch.bytes, batch.start) = (aligned, start);
            }
        }
        let written = self.file.write_all_at(&batch.bytes[batch.start..batch.start + len], self.len).and_then(|()| self.file.sync_data());
        self.spare = std::mem::take(&mut batch.bytes);
        written.map_err(failed)?;
        self.len += len as u64;
        Ok(())
    }
}

fn path(dir: &Path, number: u64) -> PathBuf {
    dir.join("bulk").join(format!("{number:016x}"))
}

/// The bytes of a stored value: itself, or what it points to.
pub(crate) fn resolve<'a>(dir: &Path, value: &'a [u8]) -> Result<Cow<'a, [u8]>, StoreError> {
    let unreadable = || StoreError::Io("a bulk pointer stored in the database cannot be read".into());
    let field = |i: usize| value.get(1 + 8 * i..9 + 8 * i).and_then(|b| b.try_into().ok()).map(u64::from_be_bytes);
    let (Some(number), Some(offset), Some(len)) = (field(0), field(1), field(2)) else {
        return match value.first() {
            Some(&POINTER | &AROUND) => Err(unreadable()),
            _ => Ok(Cow::Borrowed(value)),
        };
    };
    let (prefix, suffix): (&[u8], &[u8]) = match value[0] {
        POINTER if value.len() == 25 => (&[], &[]),
        AROUND => {
            let prefix_len = value.get(25..29).and_then(|b| b.try_into().ok()).map(u32::from_be_bytes).ok_or_else(unreadable)? as usize;
            let rest = &value[29..];
            if prefix_len > rest.len() {
                return Err(unreadable());
            }
            rest.split_at(prefix_len)
        }
        POINTER => return Err(unreadable()),
        _ => return Ok(Cow::Borrowed(value)),
    };
    let at = path(dir, number);
    let failed = |e: std::io::Error| StoreError::io(at.display(), &e);
    let file = File::open(&at).map_err(failed)?;
    let mut bytes = vec![0; prefix.len() + len as usize + suffix.len()];
    bytes[..prefix.len()].copy_from_slice(prefix);
    let end = prefix.len() + len as usize;
    file.read_exact_at(&mut bytes[prefix.len()..end], offset).map_err(failed)?;
    bytes[end..].copy_from_slice(suffix);
    Ok(Cow::Owned(bytes))
}

/// The name for the next staged import's file: above every file of a staged import in `dir`.
pub(crate) fn next_staged_file(dir: &Path) -> u64 {
    let names = fs::read_dir(dir.join("bulk")).into_iter().flatten().flatten();
    names.filter_map(|e| u64::from_str_radix(e.file_name().to_str()?, 16).ok()).filter(|n| *n >= STAGED_FILES).map(|n| n + 1).max().unwrap_or(STAGED_FILES)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pointer with a prefix and a suffix reads as the three together; one cut short, or whose
    /// prefix is longer than what follows, is an error, not a panic.
    #[test]
    fn a_pointer_around_reads_its_prefix_the_file_and_its_suffix() {
        let dir = std::env::temp_dir().join(format!("tarot-bulk-around-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let mut file = OpenBulk::create_direct(&dir, STAGED_FILES).unwrap();
        let mut batch = file.batch(16);
        batch.place(b"xx");
        let first = batch.place(b"first batch");
        file.add(&mut batch).unwrap();
        // A second batch, after the first (padded to a block when written with O_DIRECT); its
        // room exceeded, so that it moves in memory as it grows.
        let mut batch = file.batch(1);
        let place = batch.place(b"middle");
        let long = batch.place(&[7; 10_000]);
        file.add(&mut batch).unwrap();
        // A third, in the memory the second left (`spare`).
        let mut batch = file.batch(4);
        let third = batch.place(b"third");
        file.add(&mut batch).unwrap();
        assert_eq!(&*resolve(&dir, &third.around(b"", b"")).unwrap(), b"third");
        assert_eq!(&*resolve(&dir, &first.around(b"", b"")).unwrap(), b"first batch");
        assert_eq!(&*resolve(&dir, &long.around(b"", b"")).unwrap(), &[7; 10_000][..]);
        let pointer = place.around(b"<<", b">");
        assert_eq!(&*resolve(&dir, &pointer).unwrap(), b"<<middle>");
        assert_eq!(&*resolve(&dir, &place.around(b"", b"")).unwrap(), b"middle");
        assert!(resolve(&dir, &pointer[..27]).is_err());
        let mut long = pointer.clone();
        long[28] = 200;
        assert!(resolve(&dir, &long).is_err());
        assert_eq!(next_staged_file(&dir), STAGED_FILES + 1);
        let _ = fs::remove_dir_all(&dir);
    }
}
