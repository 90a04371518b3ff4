//! Starting the real server (the `tarot-archive serve` binary) on port 0 with a fresh data directory,
//! and talking to it over HTTP.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub use tarot_testkit::server::{reply, Reply, Server};
pub use tarot_testkit::{fixture, TempDir};

pub mod browser;
pub mod race;

pub fn temp_dir(name: &str) -> TempDir {
    TempDir::new(name)
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A game with its deal only: the record a table starts with.
pub fn deal_only(game: &serde_json::Value) -> serde_json::Value {
    let mut start = game.clone();
    start["events"] = serde_json::json!([game["events"][0]]);
    start
}

/// The record of stored game `id` as a client rebuilds it: the header `GET /games/{id}` gives (the
/// ruleset, options, players, dealer, and the pots and standing the deal began with) and the events
/// of `GET /games/{id}/events`. Also the game's view, whose verdict it should replay to.
pub fn stored_record(s: &Server, id: &str) -> (serde_json::Value, serde_json::Value) {
    let game = s.get(&format!("/games/{id}")).json();
    let events = s.get(&format!("/games/{id}/events")).json();
    let mut record = serde_json::json!({"ruleset": game["ruleset"], "players": game["players"], "dealer": game["dealer"]});
    for field in ["options", "pots", "standing"] {
        if game[field].is_object() {
            record[field] = game[field].clone();
        }
    }
    record["events"] = events["events"].as_array().unwrap().iter().map(|e| e["event"].clone()).collect();
    (record, game)
}

/// A folder of rule files named `name`: the built-in ones, and `extra` (file name, text) beside them,
/// for a server or a command started with `--rules-dir`.
pub fn rules_dir(name: &str, extra: &[(&str, String)]) -> TempDir {
    let dir = temp_dir(name);
    std::fs::create_dir_all(&*dir).unwrap();
    for entry in std::fs::read_dir(root().join("rulesets")).unwrap().flatten() {
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    for (file, text) in extra {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

pub fn tarot_archive() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tarot-archive"));
    c.current_dir(root());
    c
}

pub fn spawn(data: &Path, extra: &[&str]) -> Server {
    let mut command = tarot_archive();
    command.args(["serve", "--addr", "127.0.0.1:0", "--data"]).arg(data).args(extra);
    Server::start(command, data.to_path_buf(), data.with_extension("log"), None)
}

/// A server whose data directory is on a tmpfs of `bytes` bytes, mounted in a mount namespace of its
/// own (`unshare --user --map-root-user --mount`, so that no privilege is needed): a disk that fills
/// up. The tmpfs goes with the server.
pub fn spawn_on_small_disk(name: &str, bytes: u64) -> Server {
    let dir = temp_dir(name);
    std::fs::create_dir_all(&*dir).expect("a mount point");
    let script = r#"mount -t tmpfs -o size="$1" tmpfs "$0" && exec "$2" serve --addr 127.0.0.1:0 --data "$0/data""#;
    let mut command = Command::new("unshare");
    command.args(["--user", "--map-root-user", "--mount", "sh", "-c", script]).arg(&*dir).arg(bytes.to_string()).arg(env!("CARGO_BIN_EXE_tarot-archive")).current_dir(root());
    Server::start(command, dir.join("data"), dir.with_extension("log"), Some(dir))
}

/// A server on a directory of its own, removed when the server is dropped.
pub fn spawn_fresh(name: &str, extra: &[&str]) -> Server {
    let dir = temp_dir(name);
    let mut command = tarot_archive();
    command.args(["serve", "--addr", "127.0.0.1:0", "--data"]).arg(&*dir).args(extra);
    Server::start(command, dir.to_path_buf(), dir.with_extension("log"), Some(dir))
}

fn chromium() -> String {
    for c in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"] {
        if std::path::Path::new(c).exists() {
            return c.to_string();
        }
    }
    panic!("no Chromium found: install Debian's `chromium` package (bash scripts/test.sh does)");
}

/// The flags Chromium needs on a machine with no network: headless, no background connections, no
/// first-run or component updates, and no shared memory a container may lack.
const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
];

/// Runs a Chromium of its own, headless, on `url` (with a fresh profile) and `what` to do
/// (`--dump-dom`, `--screenshot=...`, `--virtual-time-budget=...` for a page that runs scripts).
/// Pages without scripts open faster in the one browser of `browser::open`.
pub fn headless(url: &str, what: &[&str]) -> std::process::Output {
    let profile = temp_dir("chromium-profile");
    Command::new(chromium()).args(CHROMIUM_FLAGS).arg(format!("--user-data-dir={}", profile.display())).args(what).arg(url).output().expect("chromium runs")
}
