//! The HTTP API as a client meets it: the real server on port 0 and a fresh data directory, real
//! requests, every endpoint and every error.

use crate::common;

use crate::common::{fixture, root, spawn, spawn_fresh, tarot_archive, temp_dir, Server};
use serde_json::{json, Value};

fn problem(r: &common::Reply, status: u16) -> Value {
    assert_eq!(r.status, status, "{}", r.text);
    assert!(r.content_type.starts_with("application/problem+json"), "{}: {}", r.content_type, r.text);
    let p = r.json();
    assert_eq!(p["status"], status);
    assert!(p["detail"].as_str().is_some_and(|d| !d.is_empty()), "{p}");
    p
}

fn server() -> Server {
    spawn_fresh("api", &[])
}

#[test]
fn health_and_rulesets() {
    let s = server();
    assert_eq!(s.get("/health").json()["status"], "ok");
    let list = s.get("/rulesets").json();
    let ids: Vec<&str> = list.as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"fft-4p") && ids.contains(&"marolles-1637") && ids.contains(&"basic"), "{ids:?}");
    let marolles = list.as_array().unwrap().iter().find(|r| r["id"] == "marolles-1637").unwrap();
    assert_eq!((&marolles["family"], &marolles["dated"], &marolles["century"]), (&json!("French"), &json!(1637), &json!(17)));
    let queen = list.as_array().unwrap().iter().find(|r| r["id"] == "queen-of-tarot").unwrap();
    assert_eq!((&queen["family"], &queen["dated"], &queen["century"]), (&json!("French"), &json!(null), &json!(null)), "seed 004 dates nothing");
    // A child is dated by its own source, or not at all: never by its parent's.
    let dated = |id: &str| list.as_array().unwrap().iter().find(|r| r["id"] == id).unwrap()["dated"].clone();
    assert_eq!((dated("fft-3p"), dated("fft-2p"), dated("fft-4p-pousse"), dated("marolles-78")), (json!(2012), json!(null), json!(null), json!(null)));
    let one = s.get("/rulesets/marolles-1637").json();
    assert_eq!(one["rules"]["id"], "marolles-1637");
    assert!(one["rules"]["options"].as_array().unwrap().iter().any(|o| o["name"] == "ultimo_failure"));
    assert!(one["files"][0]["text"].as_str().unwrap().contains("ruleset marolles-1637"));
    problem(&s.get("/rulesets/nope"), 404);
    let c = s.get("/rulesets/compare?ids=fft-4p,marolles-1637,basic").json();
    assert_eq!(c["rulesets"], json!(["fft-4p", "marolles-1637", "basic"]));
    let obligations = c["rows"].as_array().unwrap().iter().find(|r| r["aspect"] == "trick obligations").unwrap();
    assert_eq!(obligations["differs"], true);
    assert_eq!(obligations["cells"].as_array().unwrap().len(), 3);
    let p = problem(&s.get("/rulesets/compare?ids=fft-4p"), 422);
    assert!(p["detail"].as_str().unwrap().contains("`ids` names only fft-4p; give at least two rulesets"), "{p}");
    let p = problem(&s.get("/rulesets/compare?ids="), 422);
    assert!(p["detail"].as_str().unwrap().contains("`ids` names none; give at least two rulesets"), "{p}");
    let game: Value = serde_json::from_str(&fixture("fft-4p/tarotclub/tarotmag_17.json")).unwrap();
    let c = s.post("/compare", &json!({"game": game, "rulesets": ["fft-4p", "queen-of-tarot", "marolles-1637"]}).to_string()).json();
    assert_eq!(c["divergence"]["legal_under"], json!(["fft-4p"]));
    assert_eq!(c["divergence"]["illegal_under"], json!(["queen-of-tarot"]));
    assert!(c["replays"][2]["cannot_replay"].as_str().unwrap().contains("3 players"));
    problem(&s.post("/compare", &json!({"game": game, "rulesets": ["fft-4p"]}).to_string()), 422);
    problem(&s.get("/rulesets/compare?ids=fft-4p,nope"), 422);
    problem(&s.get("/no/such/route"), 404);
}

/// Deal statistics over HTTP: the same seed gives the same figures (and the CLI's), another seed
/// other figures, and bad queries are problems.
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
fn deal_statistics_over_http() {
    let s = server();
    let a = s.get("/stats?rulesets=fft-4p,marolles-1637&deals=3000&seed=5").json();
    assert_eq!(a.as_array().unwrap().len(), 2);
    assert_eq!(a[0]["ruleset"], "fft-4p");
    assert_eq!(a[0]["deals"], 3000);
    assert!(a[0]["note"].as_str().unwrap().contains("no card is played"));
    assert_eq!(a[0]["classes"]["oudlers"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).sum::<u64>(), 3000 * 4);
    assert!(a[1]["declarations"].as_object().unwrap().contains_key("triomphes"), "{}", a[1]);
    assert_eq!(s.get("/stats?rulesets=fft-4p,marolles-1637&deals=3000&seed=5").json(), a);
    // A list as generated clients send it, the parameter repeated, is the same list.
    assert_eq!(s.get("/stats?rulesets=fft-4p&rulesets=marolles-1637&deals=3000&seed=5").json(), a);
    assert_eq!(s.get("/rulesets/compare?ids=fft-4p&ids=basic").json(), s.get("/rulesets/compare?ids=fft-4p,basic").json());
    assert_ne!(s.get("/stats?rulesets=fft-4p,marolles-1637&deals=3000&seed=6").json(), a);
    let cli = common::tarot_archive().args(["stats", "--rulesets", "fft-4p,marolles-1637", "--deals", "3000", "--seed", "5", "--json"]).output().unwrap();
    assert_eq!(serde_json::from_slice::<Value>(&cli.stdout).unwrap(), a);
    let five = s.get("/stats?rulesets=fft-5p&players=5&deals=100").json();
    assert_eq!(five[0]["players"], 5);
    let p = problem(&s.get("/stats?rulesets=fft-4p&deals=0"), 422);
    assert!(p["detail"].as_str().unwrap().contains("`deals`: the number of deals is between 1 and 1,000,000, not 0"), "{p}");
    problem(&s.get("/stats?rulesets=fft-4p&deals=1000001"), 422);
    problem(&s.get("/stats?rulesets=nope"), 422);
    problem(&s.get("/stats?rulesets=basic-partners&players=5&deals=10"), 422);
    // The document types the numbers as whole numbers: an empty one is refused here (schemathesis
    // found `players=` accepted), while the statistics page's form, which sends empty boxes, takes it.
    for q in ["players=", "deals=", "seed="] {
        let p = problem(&s.get(&format!("/stats?rulesets=fft-4p&{q}")), 400);
        assert!(p["detail"].as_str().unwrap().contains("is empty: give a whole number, or leave it out"), "{p}");
    }
    assert_eq!(s.get("/pages/stats?rulesets=fft-4p&deals=100&seed=&players=").status, 200);
    let p = problem(&s.get("/stats?rulesets=fft-4p&deals=many"), 400);
    assert!(p["detail"].as_str().unwrap().contains("`deals` is a whole number, not `many`"), "{p}");
    let p = problem(&s.get("/stats?rulesets=fft-4p&seed=-1"), 400);
    assert!(p["detail"].as_str().unwrap().contains("`seed`"), "{p}");
    problem(&s.get("/stats"), 400);
}

/// The statistics take a ruleset's options (`options=NAME=VALUE,...`), as a game record chooses them:
/// each applies to every ruleset asked that has it, and the figures are the CLI's with `--option`; an
/// option no ruleset asked has, a value not among its choices, or a pair without `=` is a 422 (a 400
/// failed schemathesis: the string is of the documented type). The
/// statistics took no options: the default rules and pack only.
#[test]
fn deal_statistics_take_options_over_http() {
    let s = server();
    let q = "/stats?rulesets=fft-4p,marolles-1637&deals=3000&seed=5";
    let default = s.get(q).json();
    let chosen = s.get(&format!("{q}&options=petit_sec=seed-004")).json();
    assert_eq!(chosen[0]["options"], serde_json::json!({"petit_sec": "seed-004"}));
    assert!(chosen[0]["annulments"]["petit_sec"].as_u64() > default[0]["annulments"]["petit_sec"].as_u64(), "{chosen}");
    assert_eq!(chosen[1], default[1], "marolles-1637 has no such option: dealt with its defaults");
    assert!(default[0].get("options").is_none(), "{default}");
    let cli = common::tarot_archive()
        .args(["stats", "--rulesets", "fft-4p,marolles-1637", "--deals", "3000", "--seed", "5", "--option", "petit_sec=seed-004", "--json"])
        .output()
        .unwrap();
    assert!(cli.status.success(), "{}", String::from_utf8_lossy(&cli.stderr));
    assert_eq!(serde_json::from_slice::<Value>(&cli.stdout).unwrap(), chosen);
    // Droggn's Gstieß as the top trump: the other pack is dealt, and said.
    let top = s.get("/stats?rulesets=droggn&deals=100&options=gstiess=top-trump").json();
    assert!(top[0]["pack"].as_str().unwrap().contains("options chosen (gstiess = \"top-trump\"): the Gstieß is a trump"), "{top}");
    // Repeated, as generated clients send a list, is the same list.
    assert_eq!(
        s.get("/stats?rulesets=droggn&deals=100&options=gstiess=top-trump&options=target=38").json(),
        s.get("/stats?rulesets=droggn&deals=100&options=gstiess=top-trump,target=38").json()
    );
    for (options, says) in [
        ("nope=1", "no ruleset asked has an option `nope`; their options are: "),
        ("petit_sec=maybe", "option `petit_sec` of fft-4p cannot be `maybe`; choose one of "),
        ("petit_sec", "`options` takes NAME=VALUE, comma-separated, not `petit_sec`"),
    ] {
        let p = problem(&s.get(&format!("{q}&options={options}")), 422);
        assert!(p["detail"].as_str().unwrap().contains(says), "{options}: {p}");
    }
    assert_eq!(s.get("/pages/stats?rulesets=fft-4p&deals=100&options=petit_sec%3Dseed-004").status, 200);
    // A page answers a page, not problem+json (tested in pages_browser).
    assert_eq!(s.get("/pages/stats?rulesets=fft-4p&deals=100&options=nope%3D1").status, 422);
    let out = common::tarot_archive().args(["stats", "--rulesets", "fft-4p", "--deals", "10", "--seed", "1", "--option", "nope=1"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("no ruleset named has an option `nope`"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn validate_answers_200_whatever_the_verdict_and_explains_bad_requests() {
    let s = server();
    let ok = s.post("/validate", &fixture("worked/seed000-hand1.json"));
    assert_eq!(ok.status, 200);
    assert_eq!(ok.json()["status"], "valid");
    let bad = s.post("/validate", &fixture("fft-4p/invalid/play.must.overtrump.json"));
    assert_eq!(bad.status, 200);
    let v = bad.json();
    assert_eq!(v["status"], "invalid");
    assert_eq!(v["violation"]["rule"], "play.must.overtrump");
    assert!(v["violation"]["message"].as_str().unwrap().contains("must overtrump"));
    let going = s.post("/validate", &fixture("fft-4p/in_progress/mid-trick.json")).json();
    assert_eq!(going["status"], "in_progress");
    assert!(!going["next"]["legal"].as_array().unwrap().is_empty());

    let p = problem(&s.post("/validate", "{\n  \"ruleset\": \"fft-4p\",\n  \"players\": [oops]\n}"), 400);
    assert_eq!((p["line"].as_u64(), p["column"].as_u64()), (Some(3), Some(15)), "{p}");
    problem(&s.post("/validate", "{\"ruleset\": \"fft-4p\"}"), 422);
    let p = problem(&s.post("/validate", &fixture("fft-4p/malformed/unknown-card.json")), 422);
    assert!(p["detail"].as_str().unwrap().contains("15X") && p["event"] == 0, "{p}");
    let p = problem(&s.post("/validate", &fixture("fft-4p/valid/4p-1.json").replace("\"fft-4p\"", "\"fft-9p\"")), 422);
    assert!(p["detail"].as_str().unwrap().contains("unknown ruleset"), "{p}");
    problem(&s.post_as("/validate", &fixture("worked/seed000-hand1.json"), "text/plain", None), 415);
    let huge = format!("{{\"description\": \"{}\"}}", "x".repeat(300 * 1024));
    problem(&s.post("/validate", &huge), 413);
}

#[test]
fn games_are_stored_listed_read_and_continued() {
    let s = server();
    let made = s.post("/games", &fixture("worked/fft-deal5.json"));
    assert_eq!(made.status, 201, "{}", made.text);
    let body = made.json();
    let id = body["id"].as_str().unwrap().to_string();
    assert_eq!(made.location.as_deref(), Some(format!("/games/{id}").as_str()));
    assert_eq!(body["verdict"]["status"], "valid");

    let game = s.get(&format!("/games/{id}")).json();
    assert_eq!(game["ruleset"], "fft-4p");
    assert_eq!(game["verdict"]["outcome"]["hand_score"], 582);
    assert!(game["verdict"]["ledger"].as_array().unwrap().iter().any(|l| l["rule"] == "score.term.chelem"));
    let events = s.get(&format!("/games/{id}/events")).json();
    assert_eq!(events["version"], game["version"]);
    assert_eq!(events["events"][0]["event"]["type"], "deal");
    problem(&s.get("/games/nope"), 404);
    problem(&s.get("/games/nope/events"), 404);

    for f in ["marolles-1637/valid/3p-1.json", "basic/valid/3p-1.json", "fft-4p/invalid/play.must.follow.json"] {
        assert_eq!(s.post("/games", &fixture(f)).status, 201);
    }
    let all = s.get("/games").json();
    assert_eq!(all["total"], 4);
    assert_eq!(s.get("/games?ruleset=fft-4p").json()["total"], 2);
    assert_eq!(s.get("/games?status=invalid").json()["total"], 1);
    assert_eq!(s.get("/games?player=DUPONT").json()["total"], 1);
    let page = s.get("/games?limit=2&offset=1").json();
    assert_eq!(page["games"].as_array().unwrap().len(), 2);
    assert_eq!(page["total"], 4);
    problem(&s.get("/games?status=bogus"), 422);
}

/// A game stored after its deal and continued move by move, as a live referee.
#[test]
fn appending_moves_referees_them() {
    let s = server();
    let full: Value = serde_json::from_str(&fixture("fft-4p/valid/4p-1.json")).unwrap();
    let mut start = full.clone();
    start["events"] = json!([full["events"][0]]);
    let made = s.post("/games", &start.to_string()).json();
    let id = made["id"].as_str().unwrap().to_string();
    assert_eq!(made["version"], 1);
    assert_eq!(made["verdict"]["status"], "in_progress");
    let path = format!("/games/{id}/events");

    let first = json!({"expected_version": 1, "events": [full["events"][1]], "ids": ["move-1"]});
    let r = s.post(&path, &first.to_string());
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json()["version"], 2);
    assert_eq!(r.json()["verdict"]["status"], "in_progress");
    // The same append retried with the same ids is applied once.
    let again = s.post(&path, &first.to_string());
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json()["version"], 2);
    assert_eq!(s.get(&path).json()["events"].as_array().unwrap().len(), 2);
    // A stale expected version is a conflict that says where the game is.
    let p = problem(&s.post(&path, &json!({"expected_version": 1, "events": [full["events"][2]]}).to_string()), 409);
    assert_eq!(p["current_version"], 2);
    // A move out of turn is refused with the rule, and nothing is stored.
    let p = problem(&s.post(&path, &json!({"expected_version": 2, "events": [full["events"][3]]}).to_string()), 422);
    assert!(p["violation"]["rule"].as_str().is_some(), "{p}");
    assert_eq!(s.get(&path).json()["events"].as_array().unwrap().len(), 2);
    // The rest of the game, in one append: the verdict is the final one.
    let rest: Vec<Value> = full["events"].as_array().unwrap()[2..].to_vec();
    let done = s.post(&path, &json!({"expected_version": 2, "events": rest}).to_string());
    assert_eq!(done.status, 200, "{}", done.text);
    assert_eq!(done.json()["verdict"]["status"], "valid");
    problem(&s.post("/games/nope/events", &json!({"expected_version": 0, "events": []}).to_string()), 404);
    problem(&s.post(&path, "{\"expected_version\": \"two\"}"), 422);
    problem(&s.post(&path, &json!({"expected_version": 99, "events": [], "ids": ["a"]}).to_string()), 422);
}

/// A game that has stopped takes no more moves, whether it finished, broke a rule or was annulled:
/// the refusal says where it stopped and why, and nothing is stored.
#[test]
fn a_stopped_game_takes_no_more_moves() {
    let s = server();
    let a_bid = json!({"type": "bid", "player": "Ann", "bid": "pass"});
    let cases = [
        ("worked/fft-deal5.json", "finished", None),
        ("fft-4p/invalid/play.must.follow.json", "broken rule", Some("play.must.follow")),
        ("fft-4p/annulled/annul.petit_sec.json", "annulled", None),
        ("fft-4p/annulled/bidding.all-pass.json", "annulled", None),
    ];
    for (file, why, rule) in cases {
        let made = s.post("/games", &fixture(file)).json();
        let (id, version) = (made["id"].as_str().unwrap(), made["version"].as_u64().unwrap());
        let path = format!("/games/{id}/events");
        let p = problem(&s.post(&path, &json!({"expected_version": version, "events": [a_bid]}).to_string()), 422);
        assert_eq!(p["type"], "urn:tarot-archive:problem:game-over", "{file}: {p}");
        let detail = p["detail"].as_str().unwrap();
        assert!(detail.starts_with("no move can be added to this game: "), "{file}: {detail}");
        match why {
            "finished" => assert!(detail.contains("finished"), "{file}: {detail}"),
            "annulled" => assert!(detail.contains("annulled") && detail.contains("(rule "), "{file}: {detail}"),
            _ => {
                let rule = rule.unwrap();
                assert!(detail.contains("stopped at event") && detail.contains(rule), "{file}: {detail}");
                assert_eq!(p["violation"]["rule"], rule, "{file}: {p}");
                assert_eq!(p["event"], p["violation"]["event"], "{file}: {p}");
            }
        }
        assert_eq!(s.get(&path).json()["version"], version, "{file}: nothing is stored");
    }
}

/// The live referee says everything a client may do next: a deal when there is none, and beside the
/// cards, the declarations open at that moment with the cards each may show.
#[test]
fn next_lists_the_deal_and_the_open_declarations() {
    let s = server();
    let full: Value = serde_json::from_str(&fixture("worked/fft-deal5.json")).unwrap();
    let mut empty = full.clone();
    empty["events"] = json!([]);
    let made = s.post("/games", &empty.to_string()).json();
    assert_eq!(made["verdict"]["status"], "in_progress", "{made}");
    assert_eq!(made["verdict"]["next"]["phase"], "deal", "{made}");
    assert_eq!(made["verdict"]["next"]["player"], full["dealer"], "{made}");
    // DUPONT has taken with 14 trumps and discarded: before the first card he may announce a chelem;
    // a poignée is shown just before one's own first card (FFT « La Poignée »), and DESPRES leads.
    let events = full["events"].as_array().unwrap();
    let open_after = |n: usize| -> (Value, Vec<Value>) {
        let mut record = full.clone();
        record["events"] = json!(events[..n]);
        let v = s.post("/validate", &record.to_string()).json();
        let open = v["next"]["declarations"].as_array().cloned().unwrap_or_default();
        (v, open)
    };
    let (v, open) = open_after(6);
    let find = |open: &[Value], name: &str| open.iter().find(|d| d["declaration"] == name && d["player"] == "DUPONT").cloned();
    assert_eq!(find(&open, "chelem").unwrap_or_else(|| panic!("no chelem in {v}"))["cards"], json!([]));
    assert!(find(&open, "poignee").is_none(), "a poignée before DUPONT's turn: {v}");
    // His chelem announced, he leads: now he may show a poignée of 13 or 10 of his trumps (FFT: 10, 13
    // or 15).
    let (v, open) = open_after(7);
    let poignee = find(&open, "poignee").unwrap_or_else(|| panic!("no poignee in {v}"));
    assert_eq!(poignee["counts"], json!([13, 10]));
    assert_eq!(poignee["cards"].as_array().unwrap().len(), 14);
    // Once declared, it is no longer open, and neither is the chelem, made.
    let mut declared = full.clone();
    declared["events"] = json!(events[..8]);
    let v = s.post("/validate", &declared.to_string()).json();
    assert!(v["next"].get("declarations").is_none(), "{v}");
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

/// The five deals of the FFT rulebook's score sheet give its totals.
#[test]
fn a_session_keeps_the_running_score_sheet() {
    let s = server();
    let players = ["DURAND", "DESPRES", "DUPONT", "DUBOIS"];
    let made = s.post("/sessions", &json!({"name": "Table 3, 15 August 2008", "players": players}).to_string());
    assert_eq!(made.status, 201, "{}", made.text);
    let session = made.json()["id"].as_str().unwrap().to_string();
    for n in 1..=5 {
        let game = s.post("/games", &fixture(&format!("worked/fft-deal{n}.json"))).json();
        let r = s.post(&format!("/sessions/{session}/games"), &json!({"game": game["id"]}).to_string());
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let sheet = s.get(&format!("/sessions/{session}")).json();
    let total = |p: &str| sheet["totals"].as_array().unwrap().iter().find(|t| t[0] == p).map(|t| t[1].clone()).unwrap();
    assert_eq!([total("DURAND"), total("DUPONT"), total("DUBOIS"), total("DESPRES")], [json!(-446), json!(1346), json!(-390), json!(-510)], "{sheet}");
    assert!(sheet["deals"].as_array().unwrap().iter().all(|d| d["balanced"] == true));
    let other = s.post("/games", &fixture("marolles-1637/valid/3p-1.json")).json();
    problem(&s.post(&format!("/sessions/{session}/games"), &json!({"game": other["id"]}).to_string()), 422);
    problem(&s.get("/sessions/nope"), 404);
    problem(&s.post("/sessions", &json!({"name": "alone", "players": ["x"]}).to_string()), 422);
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

/// The committed OpenAPI document is what the server serves and what the code generates.
/// A deal that does not carry on a session's pots or standing, or is dealt out of turn, is refused
/// (409); the document says so, and its problem's `does_not_follow` is typed (tests/it/session_match.rs and tests/it/postgres.rs
/// check the answers on each store).
#[test]
fn a_session_deal_that_does_not_follow_is_a_documented_conflict() {
    let s = server();
    let doc = s.get("/openapi.json").json();
    let conflict = &doc["paths"]["/sessions/{id}/games"]["post"]["responses"]["409"];
    assert!(conflict["description"].as_str().unwrap().contains("does_not_follow"), "{conflict}");
    let member = &doc["components"]["schemas"]["Problem"]["properties"]["does_not_follow"];
    assert!(member.to_string().contains("#/components/schemas/DoesNotFollow"), "{member}");
    let what = &doc["components"]["schemas"]["DoesNotFollow"]["properties"];
    for field in ["deal", "pot", "player", "expected", "given", "dealer", "due"] {
        assert!(what.get(field).is_some(), "{field}: {what}");
    }
    // A Grosstarock session whose third deal carries the King pot at 75 where the second closed it at 0.
    let deal = |k: usize| fixture(&format!("grosstarock/sessions/broken/deal-{k}.json"));
    let players = serde_json::from_str::<Value>(&deal(1)).unwrap()["players"].clone();
    let session = s.post("/sessions", &json!({"name": "pots", "players": players}).to_string()).json();
    let add = |k: usize| {
        let game = s.post("/games", &deal(k)).json();
        s.post(&format!("/sessions/{}/games", session["id"].as_str().unwrap()), &json!({"game": game["id"]}).to_string())
    };
    assert_eq!((add(1).status, add(2).status), (200, 200));
    let p = problem(&add(3), 409);
    assert_eq!(p["type"], "urn:tarot-archive:problem:does-not-follow", "{p}");
    assert_eq!(p["does_not_follow"], json!({"deal": 3, "pot": "king", "expected": 0, "given": 75}), "{p}");
}

#[test]
fn the_committed_openapi_document_is_current() {
    let s = server();
    let served = s.get("/openapi.json").json();
    let committed: Value = serde_json::from_str(&std::fs::read_to_string(common::root().join("openapi/openapi.json")).unwrap()).unwrap();
    assert!(served == committed, "openapi/openapi.json is stale: run `cargo run -p tarot-archive -- openapi > openapi/openapi.json`");
    for (path, ops) in served["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            assert!(op["summary"].as_str().is_some_and(|t| !t.is_empty()), "{method} {path} has no summary");
            assert!(op["description"].as_str().is_some_and(|t| !t.is_empty()), "{method} {path} has no description");
            for param in op["parameters"].as_array().into_iter().flatten() {
                let name = param["name"].as_str().unwrap();
                let in_path = path.contains(&format!("{{{name}}}"));
                assert_eq!(param["in"] == "path", in_path, "{method} {path}: `{name}` is said to be in the {}", param["in"]);
            }
            if method == "post" {
                // Every media type of the body has its example (JSON, or NDJSON for the import).
                let content = op["requestBody"]["content"].as_object().expect("a POST has a body");
                assert!(!content.is_empty() && content.values().all(|c| !c["example"].is_null()), "{method} {path} has no example body");
            }
        }
    }
    // The document says what the server answers: statistics are a list, typed.
    let stats = &served["paths"]["/stats"]["get"]["responses"]["200"]["content"]["application/json"]["schema"];
    assert_eq!(stats["type"], "array", "{stats}");
    for name in [
        "GameRecord",
        "Event",
        "Verdict",
        "Next",
        "Violation",
        "Outcome",
        "LedgerEntry",
        "Trick",
        "Comparison",
        "GameComparison",
        "DealStats",
        "ScoreSheet",
        "GameSummary",
        "StoredEvent",
    ] {
        assert!(served["components"]["schemas"][name].is_object(), "no schema {name}");
    }
    let docs = s.get("/docs/");
    assert_eq!(docs.status, 200);
    assert!(docs.text.contains("swagger"), "{}", docs.text);
}

/// What a client generator needs of the document (scripts/python_client.sh generates a Python client
/// from it and runs a workflow with it): writes that a plain client may call where the server has no
/// token, ruleset ids that are strings (a server with `--rules-dir` has others), no schema that is a
/// boolean in `items`, and the import's answer lines described.
#[test]
fn the_document_suits_generated_clients() {
    let s = server();
    let doc = s.get("/openapi.json").json();
    assert_eq!(doc["security"], json!([{}, {"write_token": []}]), "a token where the server has one, none where it has none");
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            let writes = op["responses"].get("401").is_some();
            if writes {
                assert!(op.get("security").is_none(), "{method} {path} inherits the document's optional token: {}", op["security"]);
            } else {
                assert_eq!(op["security"], json!([]), "{method} {path} is public");
            }
        }
    }
    let writes = ["/games", "/games/{id}/events", "/games:import", "/sessions", "/sessions/{id}/games"];
    assert!(writes.iter().all(|p| doc["paths"][p]["post"].get("security").is_none()), "the writes take the token");

    let id = &doc["components"]["schemas"]["RulesetId"];
    assert_eq!((id["type"].as_str(), id.get("enum")), (Some("string"), None), "{id}");
    assert!(id["examples"].as_array().unwrap().contains(&json!("fft-4p")), "{id}");

    fn no_boolean_items(at: &str, v: &Value) {
        match v {
            Value::Object(map) => {
                assert!(!map.get("items").is_some_and(Value::is_boolean), "{at}: `items` is a boolean");
                map.iter().for_each(|(k, v)| no_boolean_items(&format!("{at}/{k}"), v));
            }
            Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| no_boolean_items(&format!("{at}/{i}"), v)),
            _ => {}
        }
    }
    no_boolean_items("", &doc);

    let import = &doc["paths"]["/games:import"]["post"];
    let answer = &import["responses"]["200"]["content"]["application/x-ndjson"]["schema"];
    assert_eq!((answer["type"].as_str(), answer["format"].as_str()), (Some("string"), Some("binary")), "{answer}");
    assert!(answer["description"].as_str().unwrap().contains("ImportLine"), "{answer}");
    let line = &doc["components"]["schemas"]["ImportLine"]["oneOf"];
    assert_eq!(line.as_array().map(Vec::len), Some(3), "stored, refused, or the failure that ended the answer: {line}");
}

/// Stop the server, start it again on the same directory: everything is there, unchanged; rebuild
/// the projections from the events: the same verdicts.
#[test]
fn games_survive_a_restart_and_projections_rebuild_the_same() {
    let data = temp_dir("restart");
    let s = spawn(&data, &[]);
    let mut ids = vec![];
    for f in ["worked/fft-deal1.json", "worked/marolles-declarations.json", "basic/valid/6p-1.json", "fft-4p/invalid/play.must.trump.json"] {
        ids.push(s.post("/games", &fixture(f)).json()["id"].as_str().unwrap().to_string());
    }
    let before: Vec<Value> = ids.iter().map(|id| s.get(&format!("/games/{id}")).json()).collect();
    let events_before: Vec<Value> = ids.iter().map(|id| s.get(&format!("/games/{id}/events")).json()).collect();
    assert!(s.stop().success());

    let out = common::tarot_archive().args(["rebuild", "--data"]).arg(&data).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("4 games"));

    let s = spawn(&data, &[]);
    let after: Vec<Value> = ids.iter().map(|id| s.get(&format!("/games/{id}")).json()).collect();
    let events_after: Vec<Value> = ids.iter().map(|id| s.get(&format!("/games/{id}/events")).json()).collect();
    assert_eq!(before, after);
    assert_eq!(events_before, events_after);
    assert_eq!(s.get("/games").json()["total"], 4);
}

/// Many clients append to the same games at once, with legal and illegal moves, at the version they
/// read, one past it and one before it: every move stored was refereed after exactly the events it
/// follows, so every game replays from its stored events without breaking a rule, and it holds
/// exactly the moves answered 200. Among the games, the newer constructs of the language: an auction
/// in rounds with a bid out of turn and a closing one (`cego-pagat`: `opening-round`, `out-of-turn`,
/// `closing`), a Solo and its Gegensolo bid in steps (`step lowest`), a declaration that ends the deal
/// paid between players (`cego-3`'s claim: `pay ... to ...`, `ends-deal`: no move after it), doubles
/// made again (`dobbm`: `repeats`), a called partner at seven (`troggu-7-8`), and a deal in one of two
/// packet orders (`troggu-graechen`: `packets = [[5, 6], [6, 5]]`).
#[test]
fn racing_appends_store_only_refereed_moves() {
    let server = server();
    let games: Vec<Value> = [
        "fft-4p/valid/4p-1.json",
        "fft-4p/valid/4p-2.json",
        "marolles-1637/valid/3p-1.json",
        "cego-pagat/valid/p-piccolo.json",
        "cego-pagat/valid/p-solo-eine.json",
        "cego-3/valid/skinned-solo-won.json",
        "cego-3/valid/zwei-leere.json",
        "dobbm/valid/retour-twice.json",
        "troggu-7-8/valid/called-partner-7.json",
        "troggu-graechen/valid/deal-at-five-6-tapp-5.json",
    ]
    .iter()
    .map(|f| serde_json::from_str(&fixture(f)).unwrap())
    .collect();
    let ids: Vec<String> = games
        .iter()
        .map(|g| {
            let mut start = g.clone();
            start["events"] = json!([g["events"][0]]);
            server.post("/games", &start.to_string()).json()["id"].as_str().unwrap().to_string()
        })
        .collect();
    let acknowledged = common::race::race(std::slice::from_ref(&server.base), &ids, &games, 8, 16);
    common::race::assert_no_lie(&server.base, &ids, &acknowledged);
    // One legal move wins each round, while the game has moves left (the claim ends its deal early).
    let moves_left: Vec<usize> = games.iter().map(|g| (g["events"].as_array().unwrap().len() - 1).min(16)).collect();
    assert_eq!(acknowledged.iter().map(|a| a.len()).collect::<Vec<_>>(), moves_left, "moves acknowledged per game");
}

/// A rule of the game's ruleset that cannot be worked out on it (here a term dividing by a count that
/// is 0 in this game) is the archive's fault, not the client's: a 500 problem naming the ruleset and
/// the rule, never a 422 about the game; `validate` exits 3 and says so in `broken_ruleset`.
#[test]
fn a_broken_ruleset_is_a_500_naming_the_ruleset_and_the_rule() {
    let rules = temp_dir("broken-rules");
    std::fs::create_dir_all(&*rules).unwrap();
    for entry in std::fs::read_dir(root().join("rulesets")).unwrap().flatten() {
        std::fs::copy(entry.path(), rules.join(entry.file_name())).unwrap();
    }
    let text = "ruleset broken \"FFT with a term that divides by zero\"\nextends fft-4p\nscore {\n  term t \"t\" = 10 / count(p in players where points(p) > 90)\n}\n";
    std::fs::write(rules.join("broken.tarot"), text).unwrap();
    let s = spawn_fresh("broken", &["--rules-dir", rules.to_str().unwrap()]);
    let mut game: Value = serde_json::from_str(&fixture("fft-4p/valid/4p-1.json")).unwrap();
    game["ruleset"] = json!("broken");
    for path in ["/validate", "/games"] {
        let p = problem(&s.post(path, &game.to_string()), 500);
        assert_eq!(p["type"], "urn:tarot-archive:problem:broken-ruleset", "{p}");
        let detail = p["detail"].as_str().unwrap();
        assert!(detail.contains("the ruleset broken is broken: the rule score.term.t (") && detail.contains("division by zero (10 / 0)"), "{p}");
    }
    // The client's own mistake stays a 422.
    let mut twice = game.clone();
    twice["players"][1] = twice["players"][0].clone();
    assert_eq!(problem(&s.post("/validate", &twice.to_string()), 422)["type"], "urn:tarot-archive:problem:unreadable-game");
    let file = rules.join("game.json");
    std::fs::write(&file, game.to_string()).unwrap();
    let out = tarot_archive().args(["--rules-dir", rules.to_str().unwrap(), "validate"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((&said["broken_ruleset"]["ruleset"], &said["broken_ruleset"]["rule"]), (&json!("broken"), &json!("score.term.t")), "{said}");
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

/// What one request may cost: the answer of a raw connection, for requests a client like ureq would
/// not send (a body a byte at a time, a request left hanging).
mod limits {
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
}

/// The document says what a record's names, cards and amounts may be (a player's name is not blank,
/// a hand lists each card once, a pot holds at most 10^12 either way), and the server refuses a
/// record past them: a blank player is refused by /validate and /compare as POST /games refuses it,
/// 422 naming the player (the api crate's `schema::bounds` checks every bound both ways).
#[test]
fn a_record_the_document_refuses_is_refused_wherever_a_record_is_read() {
    let s = server();
    let doc = s.get("/openapi.json").json();
    let schemas = &doc["components"]["schemas"];
    assert_eq!(schemas["Players"]["items"]["pattern"], "\\S", "{}", schemas["Players"]);
    assert_eq!(schemas["GameRecord"]["properties"]["dealer"]["$ref"], "#/components/schemas/PlayerName");
    assert_eq!(schemas["PlayerName"]["pattern"], "\\S");
    assert_eq!(schemas["PlayEvent"]["properties"]["player"]["$ref"], "#/components/schemas/PlayerName");
    assert_eq!(schemas["BidEvent"]["properties"]["bid"]["pattern"], "\\S");
    assert_eq!(schemas["DealEvent"]["properties"]["hands"]["additionalProperties"]["$ref"], "#/components/schemas/Cards");
    assert_eq!(schemas["DiscardEvent"]["properties"]["cards"]["$ref"], "#/components/schemas/Cards");
    assert_eq!(schemas["Cards"]["uniqueItems"], true);
    for carried in ["Pots", "Standing"] {
        let amount = &schemas[carried]["additionalProperties"];
        assert_eq!((amount["minimum"].as_i64(), amount["maximum"].as_i64()), (Some(-1_000_000_000_000), Some(1_000_000_000_000)), "{carried}: {amount}");
        assert_eq!(schemas[carried]["propertyNames"]["pattern"], "\\S", "{carried}");
    }
    let record = json!({"ruleset": "fft-4p", "players": ["A", "B", "C", "\u{3000}"], "dealer": "A", "events": []});
    for (path, body, detail) in [
        ("/validate", record.clone(), "player 4 has no name"),
        ("/games", record.clone(), "player 4 has no name"),
        ("/compare", json!({"game": record, "rulesets": ["fft-4p", "basic"]}), "`game`: player 4 has no name"),
    ] {
        let p = problem(&s.post(path, &body.to_string()), 422);
        assert_eq!((p["type"].as_str(), p["detail"].as_str()), (Some("urn:tarot-archive:problem:invalid"), Some(detail)), "{path}: {p}");
    }
}
