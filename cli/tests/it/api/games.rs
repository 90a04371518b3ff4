//! Games checked, stored, listed and read; kept across a restart; and a broken ruleset told from a
//! client's mistake.

use super::{problem, server};
use crate::common::{self, fixture, spawn, spawn_fresh, tarot_archive, temp_dir};
use serde_json::{json, Value};

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

/// At a take, `next` gives the choices as lists of cards (`packets`), none joined into one string,
/// and `legal` is empty: the talon's packet a Dreyer gets, Minchiate's runs of the dog to steal.
#[test]
fn validate_gives_a_take_its_packets_as_lists_of_cards() {
    let s = server();
    for (f, player, packets) in [
        ("tapp-tarock-1821/in_progress/tapper-outbid.json", "Bob", json!([["T4", "T8", "1H"]])),
        ("minchiate/in_progress/steal-pending.json", "Dan", json!([["T25"], ["T25", "KS"], ["T25", "KS", "T36"], ["T25", "KS", "T36", "T22"]])),
    ] {
        let v = s.post("/validate", &fixture(f)).json();
        assert_eq!(v["status"], "in_progress", "{f}: {v}");
        let next = &v["next"];
        assert_eq!((&next["phase"], &next["player"]), (&json!("take"), &json!(player)), "{f}: {next}");
        assert_eq!(next["packets"], packets, "{f}: {next}");
        assert_eq!(next["legal"], json!([]), "{f}: {next}");
    }
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

/// A stored game's view gives its whole header: the pots and the standing the deal began with too,
/// which its verdict was refereed with (a Tarocchini call-out at 800 is valid only with the standing
/// carried in), so that the record can be rebuilt from the view and the events and refereed again
/// to the same verdict.
#[test]
fn a_stored_game_gives_back_the_pots_and_standing_it_was_refereed_with() {
    let s = server();
    for f in ["tarocchini/valid/call-out-at-800.json", "grosstarock/sessions/follow/deal-3.json", "fft-4p/valid/4p-1.json"] {
        let record: Value = serde_json::from_str(&fixture(f)).unwrap();
        let made = s.post("/games", &record.to_string());
        assert_eq!(made.status, 201, "{f}: {}", made.text);
        let id = made.json()["id"].as_str().unwrap().to_string();
        let (again, game) = common::stored_record(&s, &id);
        for field in ["pots", "standing"] {
            assert_eq!(game.get(field), record.get(field), "{f}: {field}");
        }
        let replayed = s.post("/validate", &again.to_string()).json();
        assert_eq!(replayed["status"], game["verdict"]["status"], "{f}");
        assert_eq!(replayed["outcome"], game["verdict"]["outcome"], "{f}");
    }
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

/// A rule of the game's ruleset that cannot be worked out on it (here a term dividing by a count that
/// is 0 in this game) is the archive's fault, not the client's: a 500 problem naming the ruleset and
/// the rule, never a 422 about the game; `validate` exits 3 and says so in `broken_ruleset`.
#[test]
fn a_broken_ruleset_is_a_500_naming_the_ruleset_and_the_rule() {
    let text = "ruleset broken \"FFT with a term that divides by zero\"\nextends fft-4p\nscore {\n  term t \"t\" = 10 / count(p in players where points(p) > 90)\n}\n";
    let rules = common::rules_dir("broken-rules", &[("broken.tarot", text.to_string())]);
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
