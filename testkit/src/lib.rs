//! What the crates' tests share, written once: the built-in rulesets compiled once per test binary,
//! the fixtures of `fixtures/`, scratch folders, the real `tarot-archive serve` spawned on port 0
//! (`server`), and a PostgreSQL cluster of its own on a temporary folder and port (`postgres`).
//!
//! A dev-dependency of the engine, store and command line crates; no product crate depends on it.

pub mod postgres;
pub mod server;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use tarot_engine::Registry;

/// The built-in rulesets, compiled once for the test binary.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| Registry::builtin().unwrap_or_else(|d| panic!("{d}")))
}

/// The workspace's folder.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The text of `fixtures/<path>`.
pub fn fixture(path: &str) -> String {
    std::fs::read_to_string(root().join("fixtures").join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The files of `fixtures/<ruleset>/<kind>/` (`valid`, `invalid`, ...), sorted by name; none when
/// the folder does not exist.
pub fn fixture_files(ruleset: &str, kind: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root().join("fixtures").join(ruleset).join(kind)) else { return vec![] };
    let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    files.sort();
    files
}

/// The rulesets that have a folder of fixtures, sorted.
pub fn fixture_rulesets() -> Vec<String> {
    let mut rulesets: Vec<String> =
        std::fs::read_dir(root().join("fixtures")).expect("fixtures/").flatten().filter(|e| e.path().is_dir()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    rulesets.sort();
    rulesets
}

/// A fresh folder under the system's temporary folder, not yet made; dropped, it is removed, with
/// the log beside it of a server that ran on it (`<dir>.log`).
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// Named after the test, the process and a count: the tests of a binary run side by side in one
    /// process, and none may remove another's folder.
    pub fn new(name: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!("tarot-test-{name}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        let _ = std::fs::remove_file(self.0.with_extension("log"));
    }
}
