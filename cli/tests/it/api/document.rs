//! The OpenAPI document: committed and current, fit for generated clients, and its bounds on a
//! record enforced wherever a record is read.

use super::{problem, server};
use crate::common;
use serde_json::{json, Value};

/// The committed OpenAPI document is what the server serves and what the code generates.
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
/// boolean in `items`, no value left untyped, and the import's answer lines described.
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

    // Every value is typed: no schema is empty (any JSON) where a client would read a value, as an
    // option's value, default and choices were, but the innermost list of a score's figure, which is
    // written out one level deep on purpose (verdict/schema.rs).
    fn no_empty_schema(at: &str, v: &Value, empty: &mut Vec<String>) {
        let Value::Object(map) = v else { return };
        for (k, v) in map {
            let schema_place = matches!(k.as_str(), "items" | "additionalProperties" | "schema") || at.ends_with("/properties");
            if schema_place && v.as_object().is_some_and(|m| m.is_empty()) {
                empty.push(format!("{at}/{k}"));
            }
            match v {
                Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| no_empty_schema(&format!("{at}/{k}/{i}"), v, empty)),
                _ => no_empty_schema(&format!("{at}/{k}"), v, empty),
            }
        }
    }
    // A name is not blank by one pattern everywhere, the server's (`tarot_engine::blank`): JSON
    // Schema's `\S` alone let a generator send a session named U+0085, which the server refused.
    let schemas = &doc["components"]["schemas"];
    let patterns = [
        &schemas["NewSession"]["properties"]["name"]["pattern"],
        &schemas["Players"]["items"]["pattern"],
        &schemas["PlayerName"]["pattern"],
        &schemas["DeclareEvent"]["properties"]["declaration"]["pattern"],
    ];
    assert!(patterns.iter().all(|p| p.as_str() == Some(tarot_engine::NOT_BLANK)), "{patterns:?}");
    for name in ["\u{85}", "\u{feff} ", "\u{3000}"] {
        let body = json!({"name": name, "players": ["Ann", "Bob", "Cid", "Dan"]}).to_string();
        let r = s.post("/sessions", &body);
        assert_eq!(r.status, 422, "a session named {name:?}: {}", r.text);
    }
    let named = json!({"name": "\u{85}Les Amis", "players": ["Ann", "Bob", "Cid", "Dan"]}).to_string();
    assert_eq!(s.post("/sessions", &named).status, 201, "a name with a letter in it");

    let mut empty = vec![];
    no_empty_schema("", &doc, &mut empty);
    assert_eq!(empty, ["/components/schemas/Figure/oneOf/3/items/oneOf/3/items"], "untyped schemas");

    let import = &doc["paths"]["/games:import"]["post"];
    let answer = &import["responses"]["200"]["content"]["application/x-ndjson"]["schema"];
    assert_eq!((answer["type"].as_str(), answer["format"].as_str()), (Some("string"), Some("binary")), "{answer}");
    assert!(answer["description"].as_str().unwrap().contains("ImportLine"), "{answer}");
    let line = &doc["components"]["schemas"]["ImportLine"]["oneOf"];
    assert_eq!(line.as_array().map(Vec::len), Some(3), "stored, refused, or the failure that ended the answer: {line}");
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
    let not_blank = tarot_engine::NOT_BLANK;
    assert_eq!(schemas["Players"]["items"]["pattern"], not_blank, "{}", schemas["Players"]);
    assert_eq!(schemas["GameRecord"]["properties"]["dealer"]["$ref"], "#/components/schemas/PlayerName");
    assert_eq!(schemas["PlayerName"]["pattern"], not_blank);
    assert_eq!(schemas["PlayEvent"]["properties"]["player"]["$ref"], "#/components/schemas/PlayerName");
    assert_eq!(schemas["BidEvent"]["properties"]["bid"]["pattern"], not_blank);
    assert_eq!(schemas["DealEvent"]["properties"]["hands"]["additionalProperties"]["$ref"], "#/components/schemas/Cards");
    assert_eq!(schemas["DiscardEvent"]["properties"]["cards"]["$ref"], "#/components/schemas/Cards");
    assert_eq!(schemas["Cards"]["uniqueItems"], true);
    for carried in ["Pots", "Standing"] {
        let amount = &schemas[carried]["additionalProperties"];
        assert_eq!((amount["minimum"].as_i64(), amount["maximum"].as_i64()), (Some(-1_000_000_000_000), Some(1_000_000_000_000)), "{carried}: {amount}");
        assert_eq!(schemas[carried]["propertyNames"]["pattern"], not_blank, "{carried}");
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
