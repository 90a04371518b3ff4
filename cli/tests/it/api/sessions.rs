//! Sessions: the running score sheet, and a deal that does not follow.

use super::{problem, server};
use crate::common::fixture;
use serde_json::{json, Value};

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
