//! What one request may cost: the answer of a raw connection, for requests a client like ureq would
//! not send (a body a byte at a time, a request left hanging).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::{problem, server};
use crate::common::{self, fixture, spawn_fresh, Server};
use serde_json::{json, Value};

/// A server that answers already: the raw connections below are timed, and a server still
/// starting would hold them in its backlog.
fn ready(name: &str) -> Server {
    let s = spawn_fresh(name, &[]);
    assert_eq!(s.get("/health").status, 200);
    s
}

/// A connection that has sent `head` (a request line and headers) and nothing more yet.
fn open(s: &Server, head: &str) -> TcpStream {
    let mut c = TcpStream::connect(s.addr()).unwrap();
    c.write_all(head.as_bytes()).unwrap();
    c
}

/// The status of the answer on `c`, read within `wait`; `None` if none came.
fn status_within(c: &mut TcpStream, wait: Duration) -> Option<u16> {
    c.set_read_timeout(Some(wait)).unwrap();
    let mut head = [0u8; 12];
    c.read_exact(&mut head).ok()?;
    std::str::from_utf8(&head[9..12]).ok()?.parse().ok()
}

/// The server's CPU time so far (user and system), in clock ticks, from /proc.
fn cpu_ticks(s: &Server) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", s.pid())).unwrap();
    let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// The most memory the server has held (`VmHWM`), in KiB.
fn peak_kib(s: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", s.pid())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// GET, waiting at most `wait` for the answer; `None` if none came.
fn get_within(s: &Server, path: &str, wait: Duration) -> Option<common::Reply> {
    match ureq::AgentBuilder::new().timeout(wait).build().get(&s.url(path)).call() {
        Err(ureq::Error::Transport(_)) => None,
        r => Some(common::reply(r)),
    }
}

/// Statistics past the budget of a request are refused before any deal, saying the budget and how
/// many deals fit; a ruleset named twice is dealt once; the home page's own link is within the
/// budget. A million deals of Tarocchini took 81 s of a release build's CPU per 100,000.
#[test]
fn statistics_cost_at_most_a_budget_per_request() {
    let s = ready("limits");
    let fit = most_deals(&s, "tarocchini");
    assert!((100..1_000_000).contains(&fit), "{fit}");
    // Twice the same ruleset, or a thousand times: dealt once.
    let twice = s.get("/stats?rulesets=fft-4p,fft-4p&deals=100").json();
    assert_eq!(twice.as_array().unwrap().len(), 1, "{twice}");
    let many = format!("/stats?rulesets={}&deals=100", vec!["fft-4p"; 1000].join(","));
    assert_eq!(get_within(&s, &many, Duration::from_secs(20)).expect("answered").json(), twice);
    // The home page's link to the statistics is within the budget.
    let home = s.get("/").text;
    let link = home.split("href=\"/pages/stats?").nth(1).unwrap().split('"').next().unwrap().replace("&amp;", "&");
    let page = get_within(&s, &format!("/pages/stats?{link}"), Duration::from_secs(120)).expect("the statistics page answers");
    assert_eq!(page.status, 200, "/pages/stats?{link}: {}", page.text);
}

/// Two requests of statistics at once: a third waits a little, then is told to come back (503
/// with `Retry-After`), unless its answer is in the cache. When the clients of the two go, their
/// deals stop: the places are free again and the server's CPU rests.
#[test]
fn statistics_are_few_at_once_cached_and_stopped_when_the_client_goes() {
    let s = ready("limits");
    let cheap = "/stats?rulesets=fft-4p&deals=10&seed=9";
    let known = s.get(cheap).json();
    // The most deals a request may ask of the dearest ruleset: about 5 s of the server's time.
    let deals = most_deals(&s, "tarocchini");
    let dear = |seed: u32| format!("GET /stats?rulesets=tarocchini&deals={deals}&seed={seed} HTTP/1.1\r\nHost: test\r\n\r\n");
    let mut slow: Vec<TcpStream> = (0..2).map(|k| open(&s, &dear(k))).collect();
    let start = Instant::now();
    // Another seed each time: an answer, once given, is cached, and a cached answer needs no place.
    let busy = (100..).find_map(|seed| {
        let r = get_within(&s, &format!("/stats?rulesets=fft-4p&deals=10&seed={seed}"), Duration::from_secs(30)).expect("answered");
        (r.status == 503 || start.elapsed() > Duration::from_secs(20)).then_some(r)
    });
    let busy = busy.unwrap();
    let p = problem(&busy, 503);
    assert!(p["detail"].as_str().unwrap().contains("ask again in a few seconds"), "{p}");
    assert_eq!(busy.retry_after.as_deref(), Some("5"));
    assert_eq!(s.get(cheap).json(), known, "a cached answer needs no place");
    for c in &mut slow {
        assert_eq!(status_within(c, Duration::from_millis(100)), None, "still dealing");
    }
    drop(slow);
    // Their deals stop within a few hundred deals, a fraction of a second: a place comes free while
    // the next request waits for one (2 s), seconds before the deals would have ended by themselves.
    let r = get_within(&s, "/stats?rulesets=fft-4p&deals=10&seed=11", Duration::from_secs(30)).expect("answered");
    assert_eq!(r.status, 200, "the deals of clients gone go on: {}", r.text);
    // The other place comes free when its deals reach their next check (every 256 deals): then
    // the server rests.
    let start = Instant::now();
    loop {
        let before = cpu_ticks(&s);
        std::thread::sleep(Duration::from_secs(1));
        let spent = cpu_ticks(&s) - before;
        if spent < 25 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "the server spent {spent} ticks in 1 s with no client, 30 s after they went");
    }
}

/// The most deals of `ruleset` one request of statistics may ask for, as the server's refusal of a
/// million says (422 `over-budget`, which names the budget).
fn most_deals(s: &Server, ruleset: &str) -> u64 {
    let r = get_within(s, &format!("/stats?rulesets={ruleset}&deals=1000000"), Duration::from_secs(20)).expect("refused at once, not dealt");
    let p = problem(&r, 422);
    assert_eq!(p["type"], "urn:tarot-archive:problem:over-budget", "{p}");
    let detail = p["detail"].as_str().unwrap();
    assert!(detail.contains("a request may take 5.0 s") && detail.contains("ask for at most "), "{detail}");
    detail.split("ask for at most ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap()
}

/// A comparison counts each ruleset once, and takes at most 16.
#[test]
fn comparisons_count_each_ruleset_once_and_take_at_most_sixteen() {
    let s = server();
    let ids = vec!["fft-4p,basic"; 1000].join(",");
    let c = s.get(&format!("/rulesets/compare?ids={ids}")).json();
    assert_eq!(c["rulesets"], json!(["fft-4p", "basic"]));
    let all: Vec<String> = s.get("/rulesets").json().as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_string()).collect();
    assert!(all.len() > 16, "{all:?}");
    let seventeen = all[..17].join(",");
    let p = problem(&s.get(&format!("/rulesets/compare?ids={seventeen}")), 422);
    assert!(p["detail"].as_str().unwrap().contains("`ids` names 17 rulesets; a comparison takes at most 16"), "{p}");
    let page = s.get(&format!("/pages/rulesets/compare?ids={seventeen}"));
    assert!(page.status == 422 && page.content_type.starts_with("text/html") && page.text.contains("a comparison takes at most 16"), "{}", page.text);
    let game: Value = serde_json::from_str(&fixture("fft-4p/tarotclub/tarotmag_17.json")).unwrap();
    let p = problem(&s.post("/compare", &json!({"game": game, "rulesets": all[..17]}).to_string()), 422);
    assert!(p["detail"].as_str().unwrap().contains("`rulesets` names 17 rulesets"), "{p}");
    let twice_each = ["fft-4p", "queen-of-tarot"].repeat(500);
    let c = s.post("/compare", &json!({"game": game, "rulesets": twice_each}).to_string()).json();
    assert_eq!(c["rulesets"], json!(["fft-4p", "queen-of-tarot"]));
}

/// A hostile import of a thousand lines of 250 KiB is read a batch of 16 MiB at a time: the server
/// never holds the quarter of a gigabyte at once.
#[test]
fn an_import_holds_a_bounded_batch() {
    let s = server();
    let line = format!("{}\n", "x".repeat(250 * 1024));
    let body = line.repeat(1000);
    let r = s.post_as("/games:import", &body, "application/x-ndjson", None);
    assert_eq!(r.status, 200);
    assert_eq!(r.text.lines().count(), 1000, "a line of answer per line");
    let peak = peak_kib(&s);
    assert!(peak < 160 * 1024, "the server held {} MiB", peak / 1024);
}

/// Two imports at once; a third is told to come back (503 with `Retry-After`).
#[test]
fn imports_are_few_at_once() {
    let s = ready("limits");
    let head = "POST /games:import HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n";
    let _waiting: Vec<TcpStream> = (0..2).map(|_| open(&s, head)).collect();
    std::thread::sleep(Duration::from_millis(500));
    let r = s.post_as("/games:import", &fixture("worked/fft-deal1.json").replace('\n', " "), "application/x-ndjson", None);
    let p = problem(&r, 503);
    assert!(p["detail"].as_str().unwrap().contains("imports already"), "{p}");
}

/// A body sent a byte a second is not waited for: 408 once the deadline (10 s) has passed, and the
/// connection is closed. The three endpoints that read a body crawl at the same time, each on its
/// own connection (the deadline is each request's own).
#[test]
fn a_body_that_crawls_is_answered_408() {
    let s = ready("limits");
    let endpoints = [("/validate", "application/json"), ("/games:import", "application/x-ndjson"), ("/pages/check", "application/x-www-form-urlencoded")];
    std::thread::scope(|scope| {
        for (path, content_type) in endpoints {
            let s = &s;
            scope.spawn(move || {
                let mut c = open(s, &format!("POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: {content_type}\r\nContent-Length: 1000\r\n\r\n"));
                let mut writer = c.try_clone().unwrap();
                let crawl = std::thread::spawn(move || {
                    for _ in 0..30 {
                        if writer.write_all(b" ").is_err() {
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(500));
                    }
                });
                let start = Instant::now();
                assert_eq!(status_within(&mut c, Duration::from_secs(20)), Some(408), "{path}");
                assert!(start.elapsed() < Duration::from_secs(15), "{path}: {:?}", start.elapsed());
                crawl.join().unwrap();
            });
        }
    });
}
