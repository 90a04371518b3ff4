//! What the engine writes, read against the served document: every fixture's record, its verdict and
//! its stored events, every ruleset's description and statistics, comparisons. The schemas are
//! derived from the types that write the JSON, so these tests watch what the derive cannot see: a
//! field written in another form than its type says (a card code, an amount, a figure), a
//! schema written by hand.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use rayon::prelude::*;
use serde_json::Value;
use tarot_engine::{GameRecord as Record, Registry};

/// Where `value` breaks `schema` (a subset of JSON Schema: the keywords the document uses, but
/// `format`), or `Ok`.
pub(crate) fn check(doc: &Value, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    // First without a word of explanation, then, if it breaks, again to say where: most of the work
    // is in the alternatives of a oneOf that fail, and formatting each failure (the value, the
    // alternatives) made the fixtures' check take 33 s instead of a few.
    walk(doc, schema, value, None).or_else(|_| walk(doc, schema, value, Some(at)))
}

/// The failure at `$at` (where the value is, when an explanation is wanted), said by the format
/// arguments only when `$at` is `Some`.
macro_rules! fail {
    ($at:ident, $($message:tt)*) => {
        return Err(if let Some($at) = $at { format!($($message)*) } else { String::new() })
    };
}

/// `check`, saying where and why only when `at` is given.
fn walk(doc: &Value, schema: &Value, value: &Value, at: Option<&str>) -> Result<(), String> {
    let within = |inner: std::fmt::Arguments| at.map(|at| format!("{at}{inner}"));
    if let Some(name) = schema["$ref"].as_str() {
        let Some(name) = name.strip_prefix("#/components/schemas/") else { fail!(at, "{at}: reference {name}") };
        let Some(target) = doc["components"]["schemas"].get(name) else { fail!(at, "{at}: no schema {name}") };
        return walk(doc, target, value, at);
    }
    if let Some(all) = schema["allOf"].as_array() {
        all.iter().try_for_each(|s| walk(doc, s, value, at))?;
    }
    if let Some(one) = schema["oneOf"].as_array() {
        let matching = one.iter().filter(|s| walk(doc, s, value, None).is_ok()).count();
        if matching != 1 {
            fail!(at, "{at}: {value} matches {matching} of the oneOf {}", Value::Array(one.clone()));
        }
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    let is = |t: &str| match t {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    };
    if !types.is_empty() && !types.iter().any(|t| is(t)) {
        fail!(at, "{at}: {value} is not of type {types:?}");
    }
    if let Some(values) = schema["enum"].as_array() {
        if !values.contains(value) {
            fail!(at, "{at}: {value} is not one of {values:?}");
        }
    }
    if let (Some(min), Some(n)) = (schema["minimum"].as_f64(), value.as_f64()) {
        if n < min {
            fail!(at, "{at}: {n} is below {min}");
        }
    }
    if let (Some(max), Some(n)) = (schema["maximum"].as_f64(), value.as_f64()) {
        if n > max {
            fail!(at, "{at}: {n} is above {max}");
        }
    }
    if let (Some(pattern), Some(text)) = (schema["pattern"].as_str(), value.as_str()) {
        if !matches(pattern, text).map_err(|e| format!("{}: pattern {pattern}: {e}", at.unwrap_or("")))? {
            fail!(at, "{at}: {value} does not match the pattern {pattern}");
        }
    }
    if let (Some(min), Some(text)) = (schema["minLength"].as_u64(), value.as_str()) {
        if (text.chars().count() as u64) < min {
            fail!(at, "{at}: {value} is shorter than {min}");
        }
    }
    if let Some(items) = value.as_array() {
        let count = |k: &str| schema[k].as_u64().map(|n| n as usize);
        if count("minItems").is_some_and(|m| items.len() < m) || count("maxItems").is_some_and(|m| items.len() > m) {
            fail!(at, "{at}: {} items", items.len());
        }
        if schema["uniqueItems"] == Value::Bool(true) {
            if let Some((i, item)) = items.iter().enumerate().find(|(i, item)| items[..*i].contains(item)) {
                fail!(at, "{at}[{i}]: {item} is listed twice, and the items are unique");
            }
        }
        let prefix = schema["prefixItems"].as_array().map_or(&[][..], Vec::as_slice);
        for (i, item) in items.iter().enumerate() {
            let s = prefix.get(i).or(schema.get("items").filter(|s| s.is_object()));
            if let Some(s) = s {
                walk(doc, s, item, within(format_args!("[{i}]")).as_deref())?;
            }
        }
    }
    if let Some(fields) = value.as_object() {
        let properties = schema["properties"].as_object();
        for name in schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
            if !fields.contains_key(name) {
                fail!(at, "{at}: no `{name}`");
            }
        }
        for (name, v) in fields {
            let inner = within(format_args!(".{name}"));
            if schema["propertyNames"].is_object() {
                let named = within(format_args!(".{name} (its name)"));
                walk(doc, &schema["propertyNames"], &Value::String(name.clone()), named.as_deref())?;
            }
            match (properties.and_then(|p| p.get(name)), &schema["additionalProperties"]) {
                (Some(s), _) => walk(doc, s, v, inner.as_deref())?,
                (None, Value::Bool(false)) => {
                    let at = inner.as_deref();
                    fail!(at, "{at}: not in the schema")
                }
                (None, s) if s.is_object() => walk(doc, s, v, inner.as_deref())?,
                (None, _) => {}
            }
        }
    }
    Ok(())
}

/// Whether `text` matches `pattern`, each pattern compiled once (the card's is met thousands of times).
fn matches(pattern: &str, text: &str) -> Result<bool, regex::Error> {
    thread_local! {
        static COMPILED: std::cell::RefCell<BTreeMap<String, regex::Regex>> = const { std::cell::RefCell::new(BTreeMap::new()) };
    }
    COMPILED.with(|c| {
        let mut c = c.borrow_mut();
        if !c.contains_key(pattern) {
            c.insert(pattern.to_string(), regex::Regex::new(pattern)?);
        }
        Ok(c[pattern].is_match(text))
    })
}

/// `value` matches the document's schema `name`.
fn conforms(doc: &Value, name: &str, what: &str, value: &Value) {
    if let Err(e) = check(doc, &serde_json::json!({ "$ref": format!("#/components/schemas/{name}") }), value, name) {
        panic!("{what} does not match its schema: {e}");
    }
}

fn fixtures() -> Vec<(String, String)> {
    let mut out = vec![];
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_fixture_record_and_verdict_matches_its_schema() {
    let registry = Registry::builtin().unwrap();
    let doc = crate::openapi::document();
    // Each fixture on every core; what each gives back: whether the document refused its record, and
    // the events of a game refereed.
    let checked: Vec<(bool, Vec<tarot_engine::Event>)> = fixtures()
        .into_par_iter()
        .filter_map(|(path, text)| {
            let record = serde_json::from_str::<Record>(&text).ok()?;
            // A record the document refuses (a fixture of what is refused: an unknown card, a card
            // dealt twice) is one the server refuses too, never one it referees.
            let written: Value = serde_json::from_str(&text).unwrap();
            if let Err(e) = check(&doc, &serde_json::json!({ "$ref": "#/components/schemas/GameRecord" }), &written, "GameRecord") {
                assert!(crate::usecases::referee(&registry, &record).is_err(), "{path} breaks the document ({e}), yet is refereed");
                return Some((true, vec![]));
            }
            conforms(&doc, "GameRecord", &path, &written);
            conforms(&doc, "GameRecord", &path, &serde_json::to_value(&record).unwrap());
            let verdict = tarot_engine::replay(registry.get(&record.ruleset)?, &record).ok()?;
            conforms(&doc, "Verdict", &path, &serde_json::to_value(&verdict).unwrap());
            Some((false, record.events))
        })
        .collect();
    let refused = checked.iter().filter(|(refused, _)| *refused).count();
    let verdicts = checked.len() - refused;
    // Every event of those games, stored: each distinct one once (a card played by a player is the
    // same event in hundreds of games).
    let events: BTreeSet<String> = checked
        .into_iter()
        .flat_map(|(_, events)| events)
        .map(|event| serde_json::to_string(&tarot_store::StoredEvent { version: 1, position: 1, id: Some("a".into()), event }).unwrap())
        .collect();
    events.par_iter().for_each(|stored| conforms(&doc, "StoredEvent", stored, &serde_json::from_str(stored).unwrap()));
    assert!(verdicts > 100, "only {verdicts} verdicts");
    assert!(refused < verdicts / 10, "{refused} fixtures break the document");
}

#[test]
fn rulesets_comparisons_and_statistics_match_their_schemas() {
    let registry = Registry::builtin().unwrap();
    let doc = crate::openapi::document();
    let all: Vec<_> = registry.all().collect();
    for r in &all {
        conforms(&doc, "RulesetDescription", &r.id, &serde_json::to_value(tarot_engine::describe(r, &BTreeMap::new())).unwrap());
        let stats = tarot_engine::deal_stats(r, r.players.0, 50, 1, &mut |_| {}).unwrap();
        conforms(&doc, "DealStats", &r.id, &serde_json::to_value(stats).unwrap());
    }
    conforms(&doc, "Comparison", "every ruleset", &serde_json::to_value(tarot_engine::compare(&all)).unwrap());
    let game: Record = serde_json::from_value(crate::docs::compare_example()["game"].clone()).unwrap();
    conforms(&doc, "GameComparison", "a game compared", &serde_json::to_value(tarot_engine::compare_game(&all, &game)).unwrap());
}

/// The checker refuses what it should: a field the schema does not have, a required field missing,
/// a value of the wrong type or outside an enumeration, and a value matching two of a oneOf.
#[test]
fn the_checker_refuses_what_breaks_a_schema() {
    let doc = crate::openapi::document();
    let record: Value = crate::docs::example("worked/seed000-hand1.json");
    conforms(&doc, "GameRecord", "the example", &record);
    let broken = |f: &dyn Fn(&mut Value)| {
        let mut r = record.clone();
        f(&mut r);
        check(&doc, &serde_json::json!({ "$ref": "#/components/schemas/GameRecord" }), &r, "GameRecord")
    };
    assert!(broken(&|r| r["colour"] = "blue".into()).is_err());
    assert!(broken(&|r| r["events"][1]["colour"] = "blue".into()).is_err());
    assert!(broken(&|r| r.as_object_mut().unwrap().remove("dealer").map(drop).unwrap()).is_err());
    assert!(broken(&|r| r["events"][1]["type"] = "shuffle".into()).is_err());
    assert!(broken(&|r| r["players"] = 4.into()).is_err());
    let two = serde_json::json!({ "oneOf": [{ "type": "string" }, { "type": "string" }] });
    assert!(check(&doc, &two, &"x".into(), "two").is_err());
}

/// The listing's line as the store writes it matches `GameSummary`; a field the store does not write
/// is refused there and in `StoredEvent`, though the store itself reads such a field back (from a
/// database another version wrote): `tarot_store::openapi::Closed` closes the two in the document.
#[test]
fn the_store_s_summary_matches_its_schema_and_its_objects_are_closed() {
    let doc = crate::openapi::document();
    let players = ["Ann", "Bob", "Cid", "Dan"].map(String::from).to_vec();
    let summary = tarot_store::Summary {
        game: tarot_store::GameId("g2s".into()),
        ruleset: "fft-4p".into(),
        ruleset_version: "1".into(),
        players,
        status: "valid".into(),
        version: 78,
        checkpoint: 312,
    };
    let stored = tarot_store::StoredEvent { version: 1, position: 1, id: None, event: tarot_engine::Event::Bid { player: "Ann".into(), bid: "pass".into() } };
    for (name, value) in [("GameSummary", serde_json::to_value(&summary).unwrap()), ("StoredEvent", serde_json::to_value(&stored).unwrap())] {
        conforms(&doc, name, name, &value);
        let mut more = value.clone();
        more["note"] = "from another version".into();
        assert!(check(&doc, &serde_json::json!({ "$ref": format!("#/components/schemas/{name}") }), &more, name).is_err(), "{name} allows a field the store does not write");
    }
}
