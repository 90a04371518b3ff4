//! The real server (`tarot-archive serve`) started as a process of its own, and talked to over HTTP.
//! The command line crate's tests build the command (only they know where cargo put the binary);
//! `Server::start` starts it and waits until it says where it listens.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use crate::TempDir;

pub struct Server {
    child: Option<Child>,
    pub base: String,
    pub data: PathBuf,
    /// The server's log (its stderr), beside the data directory.
    pub log: PathBuf,
    /// The data directory, when the server has it to itself: removed after the server stops.
    _dir: Option<TempDir>,
}

impl Server {
    /// Starts `command`, a `serve` on `127.0.0.1:0` with its data in `data`, its stderr written to
    /// `log`, and waits for its first line, `listening on URL`. `dir`, if given, goes with the server.
    pub fn start(mut command: Command, data: PathBuf, log: PathBuf, dir: Option<TempDir>) -> Server {
        let mut child = command.stdout(Stdio::piped()).stderr(std::fs::File::create(&log).expect("a log file")).spawn().expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the server says where it listens");
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}; the log: {}", std::fs::read_to_string(&log).unwrap_or_default()))
            .to_string();
        Server { child: Some(child), base, data, log, _dir: dir }
    }

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

/// A reply as the tests read it, whatever its status; a request that got no reply fails the test.
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
