//! One headless Chromium for every page the tests open, driven over the DevTools protocol on a pipe
//! (`--remote-debugging-pipe`: commands as JSON on the browser's fd 3, replies on its fd 4, each
//! message ended by a NUL byte). Each page is a tab of its own, so tests open pages side by side.
//!
//! Written here rather than taken from a crate: the DevTools crates (headless_chrome, chromiumoxide)
//! bring a WebSocket client and more to build, for the six commands below. What one browser saves:
//! a Chromium takes about 1.1 s of CPU to start, and a page about 0.5 s more to load, render and
//! capture. The pages tests (`pages_browser::`, 17 tests, run with `--include-ignored` by the cli
//! crate's test binary under `/usr/bin/time`) took 77 s of CPU and 98-101 s with a Chromium per
//! page, 25-27 s and 31-33 s with this one (two runs of each, on a loaded 2-core machine).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, PipeReader, PipeWriter, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};

/// A page as Chromium rendered it: its DOM serialised and a PNG of the window.
pub struct Page {
    pub dom: String,
    pub png: Vec<u8>,
}

type Reply = Result<Value, String>;

struct Browser {
    commands: Mutex<Option<PipeWriter>>,
    child: Mutex<Option<Child>>,
    profile: PathBuf,
    next_id: AtomicU64,
    waiting: Arc<Mutex<HashMap<u64, Sender<Reply>>>>,
}

static BROWSER: OnceLock<Browser> = OnceLock::new();

/// Opens `url` in a new tab of a window `width` by `height` pixels, once the page has loaded: its
/// DOM (what `chromium --dump-dom` prints) and its screenshot. The browser starts at the first call
/// and stops when the test binary exits.
pub fn open(url: &str, width: u32, height: u32) -> Page {
    let browser = BROWSER.get_or_init(Browser::start);
    let target = browser.call(None, "Target.createTarget", json!({ "url": "about:blank" }))["targetId"].as_str().expect("a target id").to_string();
    let session = browser.call(None, "Target.attachToTarget", json!({ "targetId": target, "flatten": true }))["sessionId"].as_str().expect("a session id").to_string();
    let tab = |method: &str, params: Value| browser.call(Some(&session), method, params);
    tab("Emulation.setDeviceMetricsOverride", json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false }));
    let navigated = tab("Page.navigate", json!({ "url": url }));
    if let Some(error) = navigated.get("errorText") {
        panic!("Chromium could not open {url}: {error}");
    }
    // Loaded: the new document (not the blank one the tab opened on) has fired its load event.
    let deadline = Instant::now() + Duration::from_secs(60);
    let evaluate = |expression: &str| tab("Runtime.evaluate", json!({ "expression": expression, "returnByValue": true }))["result"]["value"].clone();
    while evaluate("document.readyState === 'complete' && location.href !== 'about:blank'") != json!(true) {
        assert!(Instant::now() < deadline, "{url} did not load within 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    let dom = evaluate("document.documentElement.outerHTML").as_str().expect("the page's HTML").to_string();
    let png = tab("Page.captureScreenshot", json!({ "format": "png" }))["data"].as_str().expect("a screenshot").to_string();
    let png = base64::engine::general_purpose::STANDARD.decode(png).expect("a screenshot in base64");
    browser.call(None, "Target.closeTarget", json!({ "targetId": target }));
    Page { dom, png }
}

impl Browser {
    fn start() -> Browser {
        let profile = std::env::temp_dir().join(format!("tarot-test-chromium-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let (from_us, to_browser) = std::io::pipe().expect("a pipe");
        let (from_browser, to_us) = std::io::pipe().expect("a pipe");
        let (read_fd, write_fd) = (from_us.as_raw_fd(), to_us.as_raw_fd());
        let mut command = Command::new(super::chromium());
        command
            .args(super::CHROMIUM_FLAGS)
            .arg("--remote-debugging-pipe")
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(profile.with_extension("log")).expect("a log file"));
        // SAFETY: between fork and exec, only dup and dup2 (async-signal-safe) on descriptors this
        // process owns. The pipes are moved out of the way first, so that one already numbered 3 or
        // 4 is not closed by the other's dup2; dup2 leaves the copies open across exec.
        unsafe {
            command.pre_exec(move || {
                let (r, w) = (libc::fcntl(read_fd, libc::F_DUPFD, 10), libc::fcntl(write_fd, libc::F_DUPFD, 10));
                if r < 0 || w < 0 || libc::dup2(r, 3) < 0 || libc::dup2(w, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("chromium runs");
        drop((from_us, to_us));
        let waiting: Arc<Mutex<HashMap<u64, Sender<Reply>>>> = Arc::default();
        let replies = Arc::clone(&waiting);
        std::thread::spawn(move || read_replies(from_browser, &replies));
        // SAFETY: `stop` only reads the browser set up here, once, as the process exits.
        unsafe {
            libc::atexit(stop);
        }
        Browser { commands: Mutex::new(Some(to_browser)), child: Mutex::new(Some(child)), profile, next_id: AtomicU64::new(1), waiting }
    }

    /// Sends a command (to a tab's session, or to the browser) and waits for its result.
    fn call(&self, session: Option<&str>, method: &str, params: Value) -> Value {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let (tx, rx) = channel();
        self.waiting.lock().unwrap().insert(id, tx);
        {
            let mut commands = self.commands.lock().unwrap();
            let pipe = commands.as_mut().expect("the browser is running");
            let mut bytes = serde_json::to_vec(&message).unwrap();
            bytes.push(0);
            pipe.write_all(&bytes).unwrap_or_else(|e| panic!("Chromium stopped ({e}): see {}", self.profile.with_extension("log").display()));
        }
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(Ok(result)) => result,
            Ok(Err(error)) => panic!("Chromium refused {method}: {error}"),
            Err(_) => panic!("no reply from Chromium to {method}: see {}", self.profile.with_extension("log").display()),
        }
    }
}

/// Hands each reply to the call waiting for it; events, which no test waits for, are dropped. When
/// the browser closes its end, every waiting call is woken with an error.
fn read_replies(pipe: PipeReader, waiting: &Mutex<HashMap<u64, Sender<Reply>>>) {
    let mut reader = BufReader::new(pipe);
    let mut message = Vec::new();
    while reader.read_until(0, &mut message).is_ok_and(|n| n > 0) {
        message.pop_if(|b| *b == 0);
        let value: Value = serde_json::from_slice(&message).expect("Chromium sends JSON");
        message.clear();
        let Some(id) = value.get("id").and_then(Value::as_u64) else { continue };
        if let Some(tx) = waiting.lock().unwrap().remove(&id) {
            let _ = tx.send(match value.get("error") {
                Some(error) => Err(error.to_string()),
                None => Ok(value["result"].clone()),
            });
        }
    }
    waiting.lock().unwrap().clear();
}

/// At exit: closes the command pipe, on which Chromium quits, waits for it, and removes its profile.
extern "C" fn stop() {
    let Some(browser) = BROWSER.get() else { return };
    drop(browser.commands.lock().map(|mut c| c.take()));
    if let Ok(mut child) = browser.child.lock() {
        if let Some(mut child) = child.take() {
            let deadline = Instant::now() + Duration::from_secs(5);
            while child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
    let _ = std::fs::remove_dir_all(&browser.profile);
    let _ = std::fs::remove_file(browser.profile.with_extension("log"));
}
