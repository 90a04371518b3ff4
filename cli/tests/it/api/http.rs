//! HTTP as a client expects it: the log, the write token, methods and HEAD, problems in plain
//! words, the headers of every answer.

use super::{problem, server};
use crate::common::{self, fixture, spawn, spawn_fresh, temp_dir};
use serde_json::json;

/// One line per request, with its method, path, status and latency; no colour codes in a file.
#[test]
fn each_request_is_logged_with_its_status_and_latency() {
    // The directory outlives the server, so its log can be read once the server has stopped.
    let dir = temp_dir("log");
    let server = spawn(&dir, &[]);
    let log = server.log.clone();
    server.get("/health");
    server.post("/validate", "{");
    assert!(server.stop().success());
    let text = std::fs::read_to_string(&log).unwrap();
    for want in ["GET /health 200 ", "POST /validate 400 "] {
        let line = text.lines().find(|l| l.contains(want)).unwrap_or_else(|| panic!("no line for `{want}` in\n{text}"));
        let latency = line.rsplit(' ').next().unwrap();
        assert!(latency.strip_suffix("µs").is_some_and(|n| n.parse::<u64>().is_ok()), "the latency in microseconds: {line}");
    }
    assert!(!text.contains('\x1b'), "colour codes in the log file:\n{text}");
}

#[test]
fn writes_need_the_token_when_there_is_one() {
    let s = spawn_fresh("token", &["--write-token", "s3cret"]);
    let game = fixture("worked/seed000-hand2.json");
    problem(&s.post("/games", &game), 401);
    problem(&s.post_as("/games", &game, "application/json", Some("wrong")), 403);
    assert_eq!(s.post_as("/games", &game, "application/json", Some("s3cret")).status, 201);
    problem(&s.post("/sessions", "{\"name\": \"x\", \"players\": [\"a\", \"b\"]}"), 401);
    // Reads stay public.
    assert_eq!(s.get("/games").json()["total"], 1);
    assert_eq!(s.post("/validate", &game).status, 200);
}

/// HTTP as a client expects it: every GET answers HEAD, a known path with another method is 405
/// with `Allow`, and a 401 says how to authenticate.
#[test]
fn methods_head_and_authentication_are_answered_as_http_says() {
    let s = spawn_fresh("methods", &["--write-token", "s3cret"]);
    for path in ["/health", "/rulesets", "/rulesets/fft-4p", "/games", "/stats?rulesets=fft-4p&deals=10", "/openapi.json", "/"] {
        let head = ureq::head(&s.url(path)).call().unwrap_or_else(|e| panic!("HEAD {path}: {e}"));
        assert_eq!(head.status(), 200, "HEAD {path}");
        assert!(head.into_string().unwrap().is_empty(), "HEAD {path} has a body");
    }
    for (method, path, allow) in [
        ("DELETE", "/games", "GET, HEAD, POST"),
        ("PUT", "/health", "GET, HEAD"),
        ("GET", "/validate", "POST"),
        ("PATCH", "/games/g1/events", "GET, HEAD, POST"),
        ("TRACE", "/sessions", "POST"),
    ] {
        let r = match ureq::request(method, &s.url(path)).call() {
            Err(ureq::Error::Status(_, r)) => r,
            other => panic!("{method} {path}: {other:?}"),
        };
        assert_eq!(r.status(), 405, "{method} {path}");
        assert_eq!(r.header("allow"), Some(allow), "{method} {path}");
        assert!(r.header("content-type").unwrap().starts_with("application/problem+json"));
    }
    let r = match ureq::post(&s.url("/games")).set("Content-Type", "application/json").send_string(&fixture("worked/fft-deal1.json")) {
        Err(ureq::Error::Status(401, r)) => r,
        other => panic!("{other:?}"),
    };
    assert!(r.header("www-authenticate").is_some_and(|h| h.starts_with("Bearer")), "{:?}", r.header("www-authenticate"));
    problem(&s.get("/no/such/route"), 404);
}

/// Problems speak the client's language: no Rust types, the place said once, the field named.
#[test]
fn problems_say_what_is_wrong_in_plain_words() {
    let s = server();
    let detail = |r: &common::Reply, status: u16| problem(r, status)["detail"].as_str().unwrap().to_string();
    for body in ["[]", "[1, 2]", "\"a game\"", "42"] {
        let d = detail(&s.post("/validate", body), 422);
        assert!(d.contains("the body must be a JSON object"), "{body}: {d}");
    }
    let d = detail(&s.post("/validate", "{}"), 422);
    assert!(d.contains("missing field `ruleset`") && !d.contains(" at line "), "{d}");
    let d = detail(&s.post("/validate", r#"{"ruleset": "fft-4p", "players": "Ann", "dealer": "Ann", "events": []}"#), 422);
    assert!(d.contains("at `players`") && d.contains("expected a list"), "{d}");
    let d = detail(&s.post("/validate", r#"{"ruleset": "fft-4p", "players": ["A", "B"], "dealer": "A", "events": [{"type": "play", "player": "A", "card": 5}]}"#), 422);
    assert!(d.contains("at `events[0].card`"), "{d}");
    let d = detail(&s.post("/validate", r#"{"ruleset": "fft-4p", "players": ["A", "B"], "dealer": "A", "events": [{"type": "play"}]}"#), 422);
    assert!(d.contains("at `events[0]`") && d.contains("needs `player`"), "{d}");
    let d = detail(&s.post("/validate", "{\n  \"ruleset\": \"fft-4p\",\n  \"players\": [oops]\n}"), 400);
    assert_eq!(d.matches("line 3").count(), 1, "{d}");
    let d = detail(&s.post("/games/g1/events", r#"{"expected_version": "two", "events": []}"#), 422);
    assert!(d.contains("at `expected_version`") && d.contains("expected a whole number"), "{d}");
    for d in [detail(&s.get("/games?offset=x"), 400), detail(&s.get("/games?limit=-1"), 400)] {
        assert!(d.contains("`offset`") || d.contains("`limit`"), "{d}");
        assert!(!d.contains("invalid digit"), "{d}");
    }
    let d = detail(&s.get("/rulesets/compare"), 400);
    assert!(d.contains("the parameter `ids` is required"), "{d}");
    let d = detail(&s.get("/sessions/nope"), 404);
    assert!(!d.contains("NotFound"), "{d}");
    // An empty filter is no filter, as a form sends it.
    s.post("/games", &fixture("worked/fft-deal1.json"));
    assert_eq!(s.get("/games?ruleset=&player=&status=").json()["total"], 1);
    // Empty paging is paging not given, as the README writes the query: the first page of 50.
    let page = s.get("/games?ruleset=&player=&status=&offset=&limit=").json();
    assert_eq!((page["total"].as_u64(), page["offset"].as_u64(), page["limit"].as_u64()), (Some(1), Some(0), Some(50)), "{page}");
    assert_eq!(s.get("/games?limit=").status, 200);
    assert_eq!(s.get("/games?offset=%20").status, 200);
    // Paging has no largest value (the document sets none): an offset past every game there can be
    // is an empty page, a limit larger than any is the largest page (schemathesis found such an
    // offset answered 400 against a schema that allows it).
    let page = s.get("/games?offset=4940565589888641922173987979264").json();
    assert_eq!((page["total"].as_u64(), page["games"].as_array().map(Vec::len)), (Some(1), Some(0)), "{page}");
    assert_eq!(s.get("/games?limit=99999999999999999999999").json()["games"].as_array().map(Vec::len), Some(1));
    // A session exists; the game named in the body does not: 422, not 404.
    let session = s.post("/sessions", &json!({"name": "t", "players": ["a", "b"]}).to_string()).json();
    let d = detail(&s.post(&format!("/sessions/{}/games", session["id"].as_str().unwrap()), r#"{"game": "g99"}"#), 422);
    assert!(d.contains("no game `g99`"), "{d}");
}

/// The write token's scheme is read in any case, as HTTP says.
#[test]
fn the_bearer_scheme_is_read_in_any_case() {
    let s = spawn_fresh("bearer", &["--write-token", "s3cret"]);
    for scheme in ["bearer", "BEARER", "Bearer"] {
        let r =
            ureq::post(&s.url("/games")).set("Content-Type", "application/json").set("Authorization", &format!("{scheme} s3cret")).send_string(&fixture("worked/fft-deal1.json"));
        assert_eq!(r.map(|r| r.status()).unwrap_or_else(|e| panic!("{scheme}: {e}")), 201, "{scheme}");
    }
    problem(&s.post_as("/games", &fixture("worked/fft-deal1.json"), "application/json", Some("s3cre")), 403);
}

/// Pages run no script and load nothing from elsewhere, by policy; no answer is sniffed.
#[test]
fn pages_send_a_content_security_policy_and_nothing_is_sniffed() {
    let s = server();
    for path in ["/", "/pages/check", "/pages/rulesets/fft-4p", "/pages/stats?rulesets=fft-4p&deals=10"] {
        let r = ureq::get(&s.url(path)).call().unwrap();
        let policy = r.header("content-security-policy").unwrap_or_else(|| panic!("{path}: no policy"));
        assert!(policy.contains("default-src 'self'") && policy.contains("script-src 'none'"), "{path}: {policy}");
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"), "{path}");
    }
    for path in ["/health", "/openapi.json", "/no/such/route"] {
        let r = match ureq::get(&s.url(path)).call() {
            Ok(r) | Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{path}: {e}"),
        };
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"), "{path}");
    }
}
