//! Each bound the document puts on a record, both ways: the document's schema refuses a record past
//! it, and so does the server (what `POST /validate` answers: the record read, then refereed), with a
//! 422 saying which field and why. A schema-valid record is refused only for what a schema cannot say.
//! (A module of its own, not one of `schema`'s: it reads records as the body does and referees them,
//! and `schema` is a leaf that no handler's module imports back.)

use serde_json::{json, Value};
use tarot_engine::Registry;

use crate::problem::Problem;
use crate::schema::tests::check;

/// What `POST /validate` answers a body: the verdict's status, or the problem's status and detail.
fn answer(registry: &Registry, record: &Value) -> Result<String, (u16, String)> {
    let bytes = record.to_string();
    let refereed = crate::body::read_record(bytes.as_bytes()).and_then(|r| crate::usecases::referee(registry, &r).map_err(Problem::from));
    refereed.map(|v| format!("{:?}", v.status)).map_err(|p| (p.status, p.detail))
}

/// A record of fft-4p with no events, so that its players alone are read.
fn table() -> Value {
    json!({"ruleset": "fft-4p", "players": ["A", "B", "C", "D"], "dealer": "A", "events": []})
}

#[test]
fn a_record_past_a_bound_of_the_document_is_refused_by_the_document_and_by_the_server() {
    let registry = Registry::builtin().unwrap();
    let doc = crate::openapi::document();
    let record = |base: Value, f: &dyn Fn(&mut Value)| {
        let mut r = base;
        f(&mut r);
        r
    };
    let game = || crate::docs::example("worked/seed000-hand1.json");
    let limit = tarot_engine::AMOUNT_LIMIT;
    // (what, the record, what the schema says, what the server's problem says)
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        ("a blank player", record(table(), &|r| r["players"][3] = " ".into()), "GameRecord.players[3]", "player 4 has no name"),
        ("a player blank in another script", record(table(), &|r| r["players"][1] = "\u{3000}".into()), "GameRecord.players[1]", "player 2 has no name"),
        // White space in one reading of `\s` and not in another: blank to the document and the server.
        ("a player named by a next line (U+0085)", record(table(), &|r| r["players"][2] = "\u{85}".into()), "GameRecord.players[2]", "player 3 has no name"),
        ("a player named by a byte order mark (U+FEFF)", record(table(), &|r| r["players"][2] = " \u{feff}".into()), "GameRecord.players[2]", "player 3 has no name"),
        ("a blank dealer", record(table(), &|r| r["dealer"] = "".into()), "GameRecord.dealer", "the dealer \"\" is not one of the players"),
        ("a blank event player", record(game(), &|r| r["events"][1]["player"] = "".into()), "GameRecord.events[1]", "unknown player \"\""),
        ("a blank bid", record(game(), &|r| r["events"][1]["bid"] = " ".into()), "GameRecord.events[1]", "unknown bid \" \""),
        (
            "a blank declaration",
            record(game(), &|r| r["events"][1] = json!({"type": "declare", "player": "A", "declaration": ""})),
            "GameRecord.events[1]",
            "unknown declaration \"\"",
        ),
        ("a hand of no one", record(game(), &|r| r["events"][0]["hands"][" "] = json!([])), "GameRecord.events[0]", "unknown player \" \""),
        ("a card twice in a hand", record(game(), &|r| r["events"][0]["hands"]["A"][1] = r["events"][0]["hands"]["A"][0].clone()), "GameRecord.events[0]", "is dealt twice"),
        ("a card twice in the dog", record(game(), &|r| r["events"][0]["dog"][1] = r["events"][0]["dog"][0].clone()), "GameRecord.events[0]", "is both dealt and in the dog"),
        ("a packet to no one", record(game(), &|r| r["events"][0]["packets"] = json!([{"to": " ", "cards": []}])), "GameRecord.events[0]", "unknown player \" \""),
        (
            "a card twice in a discard",
            record(game(), &|r| r["events"][1] = json!({"type": "discard", "player": "A", "cards": ["T1", "T1"]})),
            "GameRecord.events[1]",
            "is listed twice",
        ),
        ("a card twice in a take", record(game(), &|r| r["events"][1] = json!({"type": "take", "player": "A", "cards": ["T1", "T1"]})), "GameRecord.events[1]", "is listed twice"),
        ("a blank pot", record(table(), &|r| r["pots"] = json!({" ": 1})), "GameRecord.pots. ", "the record carries pot ` `"),
        ("a pot past the limit", record(table(), &|r| r["pots"] = json!({"king": limit + 1})), "GameRecord.pots.king", "at `pots.king`"),
        ("a pot below the limit", record(table(), &|r| r["pots"] = json!({"king": -limit - 1})), "GameRecord.pots.king", "at `pots.king`"),
        ("a blank standing", record(table(), &|r| r["standing"] = json!({"": 1})), "GameRecord.standing.", "the record's standing names , who is not at the table"),
        ("a standing past the limit", record(table(), &|r| r["standing"] = json!({"A": limit + 1})), "GameRecord.standing.A", "at `standing.A`"),
    ];
    let schema = json!({"$ref": "#/components/schemas/GameRecord"});
    for base in [table(), game()] {
        check(&doc, &schema, &base, "GameRecord").unwrap();
        assert!(answer(&registry, &base).is_ok(), "{base}");
    }
    for (what, record, at, why) in cases {
        let broken = check(&doc, &schema, &record, "GameRecord").expect_err(what);
        assert!(broken.starts_with(at), "{what}: the document refuses it elsewhere: {broken}");
        let (status, detail) = answer(&registry, &record).expect_err(what);
        assert_eq!(status, 422, "{what}: {detail}");
        assert!(detail.contains(why), "{what}: {detail}");
    }
    // Within the bounds: the largest amounts either way are read.
    let edge = record(table(), &|r| r["standing"] = json!({"A": limit, "B": -limit}));
    check(&doc, &schema, &edge, "GameRecord").unwrap();
    assert!(answer(&registry, &edge).is_ok(), "{edge}");
}
