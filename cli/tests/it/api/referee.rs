//! The live referee: a stored game continued move by move, what it says may come next, where it
//! stops, and clients racing to append.

use super::{problem, server};
use crate::common::{self, fixture};
use serde_json::{json, Value};

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
