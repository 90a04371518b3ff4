//! Starting the real server (the `tarot-archive serve` binary) on port 0 with a fresh data directory,
//! and talking to it over HTTP.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

pub mod race;

pub struct Server {
    child: Option<Child>,
    pub base: String,
    pub data: PathBuf,
    /// The server's log (its stderr), beside the data directory.
    pub log: PathBuf,
    /// The data directory, when the server has it to itself (`spawn_fresh`): removed after the
    /// server stops.
    _dir: Option<TempDir>,
}

/// A fresh, empty directory for one test; dropped, it is removed, with the log of a server that
/// ran on it.
pub struct TempDir(PathBuf);

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

pub fn temp_dir(name: &str) -> TempDir {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("tarot-test-{name}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::SeqCst)));
    let _ = std::fs::remove_dir_all(&dir);
    TempDir(dir)
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn fixture(path: &str) -> String {
    std::fs::read_to_string(root().join("fixtures").join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A game with its deal only: the record a table starts with.
pub fn deal_only(game: &serde_json::Value) -> serde_json::Value {
    let mut start = game.clone();
    start["events"] = serde_json::json!([game["events"][0]]);
    start
}

pub fn tarot_archive() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tarot-archive"));
    c.current_dir(root());
    c
}

pub fn spawn(data: &Path, extra: &[&str]) -> Server {
    let log = data.with_extension("log");
    let mut child = tarot_archive()
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).expect("a log file"))
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the server says where it listens");
    let base = line.trim().strip_prefix("listening on ").unwrap_or_else(|| panic!("unexpected first line: {line}")).to_string();
    Server { child: Some(child), base, data: data.to_path_buf(), log, _dir: None }
}

/// A server whose data directory is on a tmpfs of `bytes` bytes, mounted in a mount namespace of its
/// own (`unshare --user --map-root-user --mount`, so that no privilege is needed): a disk that fills
/// up. The tmpfs goes with the server.
pub fn spawn_on_small_disk(name: &str, bytes: u64) -> Server {
    let dir = temp_dir(name);
    std::fs::create_dir_all(&*dir).expect("a mount point");
    let log = dir.with_extension("log");
    let script = r#"mount -t tmpfs -o size="$1" tmpfs "$0" && exec "$2" serve --addr 127.0.0.1:0 --data "$0/data""#;
    let mut child = Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "sh", "-c", script])
        .arg(&*dir)
        .arg(bytes.to_string())
        .arg(env!("CARGO_BIN_EXE_tarot-archive"))
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).expect("a log file"))
        .spawn()
        .expect("unshare (util-linux) runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the server says where it listens");
    let base =
        line.trim().strip_prefix("listening on ").unwrap_or_else(|| panic!("no server on a tmpfs ({line:?}): {}", std::fs::read_to_string(&log).unwrap_or_default())).to_string();
    Server { child: Some(child), base, data: dir.join("data"), log, _dir: Some(dir) }
}

/// A server on a directory of its own, removed when the server is dropped.
pub fn spawn_fresh(name: &str, extra: &[&str]) -> Server {
    let dir = temp_dir(name);
    let mut server = spawn(&dir, extra);
    server._dir = Some(dir);
    server
}

impl Server {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The server's process id, to read what it costs from /proc.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// The address to open a connection of one's own to (`127.0.0.1:PORT`).
    pub fn addr(&self) -> &str {
        self.base.strip_prefix("http://").expect("an http URL")
    }

    /// SIGTERM, and wait for the graceful exit.
    pub fn stop(mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().expect("running");
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        child.wait().expect("exits")
    }

    /// SIGKILL: the process dies at once, mid-write if need be.
    pub fn kill(mut self) {
        let mut child = self.child.take().expect("running");
        unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
        let _ = child.wait();
    }

    pub fn get(&self, path: &str) -> Reply {
        reply(ureq::get(&self.url(path)).call())
    }

    pub fn post(&self, path: &str, body: &str) -> Reply {
        self.post_as(path, body, "application/json", None)
    }

    pub fn post_as(&self, path: &str, body: &str, content_type: &str, token: Option<&str>) -> Reply {
        let mut req = ureq::post(&self.url(path)).set("Content-Type", content_type);
        if let Some(t) = token {
            req = req.set("Authorization", &format!("Bearer {t}"));
        }
        reply(req.send_string(body))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub location: Option<String>,
    pub retry_after: Option<String>,
    pub text: String,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }
}

pub fn reply(r: Result<ureq::Response, ureq::Error>) -> Reply {
    let resp = match r {
        Ok(resp) => resp,
        Err(ureq::Error::Status(_, resp)) => resp,
        Err(e) => panic!("request failed: {e}"),
    };
    let status = resp.status();
    let content_type = resp.header("content-type").unwrap_or("").to_string();
    let location = resp.header("location").map(String::from);
    let retry_after = resp.header("retry-after").map(String::from);
    let text = resp.into_string().unwrap_or_default();
    Reply { status, content_type, location, retry_after, text }
}

fn chromium() -> String {
    for c in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"] {
        if std::path::Path::new(c).exists() {
            return c.to_string();
        }
    }
    panic!("no Chromium found: install Debian's `chromium` package (bash scripts/test.sh does)");
}

/// Runs Debian's Chromium headless on `url`, with the flags it needs on a machine with no network
/// (no background connections, a fresh profile) and `what` to do (`--dump-dom`, `--screenshot=...`).
pub fn headless(url: &str, what: &[&str]) -> std::process::Output {
    let profile = temp_dir("chromium-profile");
    Command::new(chromium())
        .args([
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
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(what)
        .arg(url)
        .output()
        .expect("chromium runs")
}
