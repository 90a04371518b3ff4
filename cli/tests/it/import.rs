//! Bulk import, through `POST /games:import` and `tarot-archive import games`, on sled and on
//! PostgreSQL: every line reported in order (its id, or why it was refused), games stored with their
//! verdicts, and a retried import storing nothing twice.

use crate::pg;

use crate::common::{fixture, spawn, spawn_fresh, tarot_archive, temp_dir};
use serde_json::Value;

/// Fixtures of every kind as NDJSON lines (one game per line), then a line that is not a game.
fn ndjson() -> (String, Vec<Value>) {
    let games: Vec<Value> = ["fft-4p/valid/4p-1.json", "fft-4p/valid/4p-2.json", "marolles-1637/valid/3p-1.json", "basic/valid/4p-1.json"]
        .iter()
        .map(|f| serde_json::from_str(&fixture(f)).unwrap())
        .collect();
    let mut text: String = games.iter().map(|g| format!("{g}\n")).collect();
    text.push_str("\n{\"ruleset\": \"fft-4p\"}\n");
    (text, games)
}

fn lines(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn the_import_endpoint_reports_every_line_and_a_retry_stores_nothing_twice() {
    let server = spawn_fresh("import", &[]);
    let (body, games) = ndjson();
    let first = server.post_as("/games:import", &body, "application/x-ndjson", None);
    assert_eq!((first.status, first.content_type.as_str()), (200, "application/x-ndjson"), "{}", first.text);
    let reported = lines(&first.text);
    assert_eq!(reported.len(), 5);
    for line in &reported {
        // Each line is an `ImportLine` of the document, every field of it documented.
        if let Err(e) = serde_json::from_value::<tarot_api::schema::ImportLine>(line.clone()) {
            panic!("{line} is not an ImportLine: {e}");
        }
    }
    for (i, line) in reported[..4].iter().enumerate() {
        assert_eq!((line["line"].as_u64(), line["id"].as_str(), line["new"].as_bool()), (Some(i as u64 + 1), Some(format!("g{}", i + 1).as_str()), Some(true)), "{line}");
        assert_eq!(line["status"], "valid");
        assert_eq!(line["version"], games[i]["events"].as_array().unwrap().len());
    }
    // The blank line 5 is skipped; line 6 is not a game.
    assert_eq!(reported[4]["line"], 6);
    assert!(reported[4]["error"].as_str().unwrap().contains("missing field"), "{}", reported[4]);
    // Stored with their verdicts, listed at once.
    assert_eq!(server.get("/games?status=valid").json()["total"], 4);
    assert_eq!(server.get("/games/g3").json()["verdict"]["status"], "valid");

    let again = lines(&server.post_as("/games:import", &body, "application/x-ndjson", None).text);
    assert!(again[..4].iter().zip(&reported).all(|(a, r)| a["id"] == r["id"] && a["new"] == false), "{again:?}");
    assert_eq!(server.get("/games").json()["total"], 4);

    assert_eq!(server.post_as("/games:import", &body, "text/csv", None).status, 415);
    let locked = spawn_fresh("import-token", &["--write-token", "secret"]);
    assert_eq!(locked.post_as("/games:import", &body, "application/x-ndjson", None).status, 401);
    assert_eq!(locked.post_as("/games:import", &body, "application/x-ndjson", Some("secret")).status, 200);
}

/// `import games` into `store_args`, from a directory of .json files and an .ndjson file.
fn import_with_the_cli(store_args: &[&str]) -> Vec<Value> {
    let dir = temp_dir("import-files");
    std::fs::create_dir_all(dir.join("games")).unwrap();
    let (body, games) = ndjson();
    for (i, g) in games.iter().enumerate() {
        std::fs::write(dir.join("games").join(format!("{i}.json")), serde_json::to_string_pretty(g).unwrap()).unwrap();
    }
    std::fs::write(dir.join("more.ndjson"), &body).unwrap();
    let out = tarot_archive().args(["import", "games"]).arg(dir.join("games")).arg(dir.join("more.ndjson")).args(store_args).output().unwrap();
    // One line refused (exit 1); the four games of the .ndjson file are those of the directory.
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let reported = lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(reported.len(), 9);
    assert!(reported[..4].iter().all(|l| l["new"] == true));
    assert!(reported[4..8].iter().zip(&reported[..4]).all(|(again, first)| again["new"] == false && again["id"] == first["id"]));
    assert!(reported[8]["source"].as_str().unwrap().ends_with("more.ndjson:6"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("4 games stored, 4 already stored, 1 refused"));
    reported
}

#[test]
fn import_games_stores_files_in_a_sled_directory() {
    let data = temp_dir("import-sled");
    let reported = import_with_the_cli(&["--data", data.to_str().unwrap()]);
    let server = spawn(&data, &[]);
    assert_eq!(server.get("/games").json()["total"], 4);
    assert_eq!(server.get(&format!("/games/{}", reported[2]["id"].as_str().unwrap())).json()["verdict"]["status"], "valid");
}

#[test]
fn import_games_stores_files_in_postgres_and_rebuild_recomputes_them() {
    let url = pg::database("import");
    import_with_the_cli(&["--store", &url]);
    let out = tarot_archive().args(["rebuild", "--store", &url]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("rebuilt the verdicts of 4 games"));
}

#[test]
fn a_long_import_is_answered_as_it_is_stored() {
    let server = spawn_fresh("import-long", &[]);
    let (_, games) = ndjson();
    // 2,500 different games (each its own description): three batches, the answer streamed.
    let body: String = (0..2500)
        .map(|i| {
            let mut g = games[i % games.len()].clone();
            g["description"] = Value::String(format!("copy {i}"));
            format!("{g}\n")
        })
        .collect();
    let reply = server.post_as("/games:import", &body, "application/x-ndjson", None);
    assert_eq!(reply.status, 200);
    let reported = lines(&reply.text);
    assert_eq!(reported.len(), 2500);
    for (i, line) in reported.iter().enumerate() {
        assert_eq!((line["line"].as_u64(), line["new"].as_bool()), (Some(i as u64 + 1), Some(true)), "{line}");
    }
    assert_eq!(reported[2499]["id"], "g1xg", "2,500 in base 36");
    assert_eq!(server.get("/games?limit=1").json()["total"], 2500);
}

/// `import games` of more batches than it referees at once (1,000 games a batch, several in flight):
/// each line reported in the order read, new games numbered in that order, and a game repeated in a
/// later batch, staged while the batch that stores it first may not be stored yet, stored once.
#[test]
fn batches_in_flight_are_stored_and_reported_in_order() {
    let dir = temp_dir("import-in-flight");
    std::fs::create_dir_all(&*dir).unwrap();
    let (_, games) = ndjson();
    // Lines 2,000 to 5,199 repeat the games of lines 0 to 3,199; every 997th line is refused.
    let line = |i: usize| -> String {
        if i % 997 == 500 {
            return "{\"ruleset\": \"fft-4p\"}\n".into();
        }
        let mut g = games[i % 2000 % games.len()].clone();
        g["description"] = Value::String(format!("copy {}", i % 2000));
        format!("{g}\n")
    };
    let body: String = (0..5200).map(line).collect();
    std::fs::write(dir.join("many.ndjson"), &body).unwrap();
    let data = dir.join("data");
    let out = tarot_archive().args(["import", "games"]).arg(dir.join("many.ndjson")).arg("--data").arg(&data).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let reported = lines(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(reported.len(), 5200);
    let mut first: std::collections::HashMap<usize, Value> = std::collections::HashMap::new();
    let (mut new, mut refused) = (0, 0);
    for (i, report) in reported.iter().enumerate() {
        assert!(report["source"].as_str().unwrap().ends_with(&format!("many.ndjson:{}", i + 1)), "{report}");
        if i % 997 == 500 {
            assert!(report["error"].is_string(), "{report}");
            refused += 1;
            continue;
        }
        match first.get(&(i % 2000)) {
            Some(id) => assert_eq!((&report["id"], report["new"].as_bool()), (id, Some(false)), "line {}", i + 1),
            None => {
                new += 1;
                let expected = format!("g{}", radix36(new));
                assert_eq!((report["id"].as_str(), report["new"].as_bool()), (Some(expected.as_str()), Some(true)), "line {}", i + 1);
                first.insert(i % 2000, report["id"].clone());
            }
        }
    }
    let distinct: std::collections::HashSet<usize> = (0..5200).filter(|i| i % 997 != 500).map(|i| i % 2000).collect();
    assert_eq!(new, distinct.len());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("{new} games stored, {} already stored, {refused} refused", 5200 - new - refused)), "{stderr}");
}

fn radix36(mut n: usize) -> String {
    let mut digits = vec![];
    loop {
        digits.push(std::char::from_digit((n % 36) as u32, 36).unwrap());
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
}

/// Lines that are not games, imported through the endpoint and through the command line: each
/// refused with its place said once, as the line of the stream it is on ("line 3, column 113"), and
/// a field named only where the reader could name one; the two answers say the same, as they run
/// the same import.
#[test]
fn an_import_error_says_its_line_in_the_stream_once() {
    let game = serde_json::to_string(&serde_json::from_str::<Value>(&fixture("fft-4p/valid/4p-1.json")).unwrap()).unwrap();
    let bad_card = r#"{"ruleset":"fft-4p","players":["A","B","C","D"],"dealer":"A","events":[{"type":"play","player":"A","card":7}]}"#;
    let trailing_comma = r#"{"ruleset":"fft-4p","players":["A","B","C","D"],"dealer":"A","events":[{"type":"play","player":"A","card":"7H",}]}"#;
    let body = format!("{game}\n{bad_card}\n\n{trailing_comma}\n");
    let server = spawn_fresh("import-errors", &[]);
    let answer = lines(&server.post_as("/games:import", &body, "application/x-ndjson", None).text);
    let dir = temp_dir("import-errors");
    std::fs::create_dir_all(&*dir).unwrap();
    std::fs::write(dir.join("games.ndjson"), &body).unwrap();
    let out = tarot_archive().args(["import", "games"]).arg(dir.join("games.ndjson")).arg("--data").arg(dir.join("data")).output().unwrap();
    let printed = lines(&String::from_utf8(out.stdout).unwrap());
    for reported in [&answer, &printed] {
        assert_eq!(reported.len(), 3, "{reported:?}");
        let (card, comma) = (reported[1]["error"].as_str().unwrap(), reported[2]["error"].as_str().unwrap());
        assert!(card.starts_with("line 2, column 107, at `events[0].card`: invalid type: integer `7`, expected a string"), "{card}");
        assert!(comma.starts_with("line 4, column "), "{comma}");
        for e in [card, comma] {
            assert_eq!(e.matches("line").count(), 1, "{e}");
            assert!(!e.contains('?') && !e.contains(" at line "), "{e}");
        }
    }
    assert_eq!(answer[1]["error"], printed[1]["error"]);
    assert_eq!(answer[2]["error"], printed[2]["error"]);
    assert_eq!((answer[0]["status"].as_str(), printed[0]["status"].as_str()), (Some("valid"), Some("valid")));
}
