//! Pages that draw: the family of rulesets on the index, the deal statistics as bars, a session's
//! running score sheet, a page per source, the worked example of a ruleset's overview.

use std::collections::BTreeMap;

use crate::common::spawn_fresh;

/// One `<g class="ruleset" ...>` of the index's picture: its attributes by name.
fn rulesets_drawn(index: &str) -> Vec<BTreeMap<String, String>> {
    index
        .split("<g class=\"ruleset\" ")
        .skip(1)
        .map(|g| {
            let head = &g[..g.find('>').unwrap()];
            head.split("\" ").map(|kv| kv.trim_end_matches('"')).filter_map(|kv| kv.split_once("=\"")).map(|(k, v)| (k.to_string(), v.to_string())).collect()
        })
        .collect()
}

/// The index draws every ruleset once, in its family's band, at the year its rule file gives (and
/// at no year where it gives none), each variant on a row below its parent with a line from it.
#[test]
fn the_family_is_drawn_on_the_index() {
    let server = spawn_fresh("pages-family", &[]);
    let index = server.get("/").text;
    assert!(index.contains("<svg") && index.contains("The family at a glance"), "a picture on the index");
    let drawn = rulesets_drawn(&index);
    let listed = server.get("/rulesets").json();
    let listed = listed.as_array().unwrap();
    assert_eq!(drawn.len(), listed.len(), "every ruleset once");
    let row_of = |id: &str| drawn.iter().find(|g| g["data-id"] == id).unwrap_or_else(|| panic!("{id} not drawn"))["data-row"].parse::<usize>().unwrap();
    for r in listed {
        let id = r["id"].as_str().unwrap();
        let g = drawn.iter().find(|g| g["data-id"] == id).unwrap_or_else(|| panic!("{id} not drawn"));
        assert_eq!(g.get("data-year").map(String::as_str), r["dated"].as_u64().map(|y| y.to_string()).as_deref(), "{id}: the year of its file, or none");
        assert_eq!(g.get("data-family").map(String::as_str), r["family"].as_str(), "{id}: its family");
        assert!(index.contains(&format!("href=\"/pages/rulesets/{id}\"><g class=\"ruleset\"")), "{id} links to its page");
        if let Some(parent) = r["chain"].get(1).and_then(|p| p.as_str()) {
            assert_eq!(g.get("data-parent").map(String::as_str), Some(parent));
            assert!(index.contains(&format!("class=\"extends\" data-from=\"{parent}\" data-to=\"{id}\"")), "{id}: a line from {parent}");
            // Near its parent: below it, with only the parent's other descendants between them.
            let (p, c) = (row_of(parent), row_of(id));
            assert!(p < c, "{id} below {parent}");
            let depth = |row: usize| drawn.iter().find(|g| g["data-row"] == row.to_string()).unwrap()["data-depth"].parse::<usize>().unwrap();
            assert!((p + 1..c).all(|between| depth(between) > depth(p)), "{id}: only {parent}'s own variants between them");
        }
    }
    // Ordered in time along the line: Marolles (1637) left of the FFT (2012).
    let x = |id: &str| {
        let g = &index[index.find(&format!("data-id=\"{id}\"")).unwrap()..];
        let cx = &g[g.find("cx=\"").unwrap() + 4..];
        cx[..cx.find('"').unwrap()].parse::<f64>().unwrap()
    };
    assert!(x("marolles-1637") < x("minchiate") && x("minchiate") < x("tapp-tarock-1821") && x("tapp-tarock-1821") < x("fft-4p"), "left to right in time");
    assert!(index.contains(">17th century<") && index.contains(">21st century<") && index.contains("not dated by its sources"));
    assert!(!index.contains("<script"), "no script");
}

/// The deal statistics drawn as bars: one bar per ruleset that has the thing counted (none for one
/// that has not, so no empty cell), its length its share against the largest of its part, its figure
/// the API's.
#[test]
fn statistics_are_bars() {
    let server = spawn_fresh("pages-bars", &[]);
    let page = server.get("/pages/stats?rulesets=fft-4p,marolles-1637&deals=300").text;
    let json = server.get("/stats?rulesets=fft-4p,marolles-1637&deals=300").json();
    assert!(!page.contains("<td></td>"), "no empty cell");
    // The poignée is fft-4p's alone: one bar under it.
    let rows: Vec<&str> = page.split("<th rowspan=").skip(1).collect();
    let row = |label: &str| *rows.iter().find(|r| r.contains(&format!(">{label}</th>"))).unwrap_or_else(|| panic!("no row {label}"));
    let bars = |label: &str| row(label).matches("<div class=\"bar c").count();
    assert_eq!(bars("hands that could declare: poignée"), 1);
    assert!(row("hands that could declare: poignée").contains("<code>fft-4p</code>"));
    assert_eq!(bars("hands that could declare: Imperials"), 1);
    assert!(row("hands that could declare: Imperials").contains("<code>marolles-1637</code>"));
    // Its figure: the API's count of hands that could declare it, of 300 deals of 4 hands.
    let n = json[0]["declarations"]["poignee"].as_u64().unwrap();
    assert!(row("hands that could declare: poignée").contains(&format!("({n} of 1200)")), "{}", row("hands that could declare: poignée"));
    // The longest bar of a part is full; the others in proportion.
    let widths: Vec<f64> = page.split("style=\"width:").skip(1).map(|w| w[..w.find('%').unwrap()].parse().unwrap()).collect();
    assert!(widths.contains(&100.0) && widths.iter().all(|w| (0.0..=100.0).contains(w)), "{widths:?}");
    let count = |v: &serde_json::Value| v["annulments"].as_object().unwrap().len() + v["declarations"].as_object().unwrap().len();
    assert!(widths.len() >= count(&json[0]) + count(&json[1]), "a bar for each annulment and declaration at least");
}

/// A session's running score sheet as a page: each deal a row linked to its game's page, each
/// player's score in it and running total under it (the API's figures), the totals drawn as a line
/// per player; the index's form opens it; an unknown session is a page that says so.
#[test]
fn a_session_has_a_score_sheet_page() {
    let server = spawn_fresh("pages-session", &[]);
    let deal = |k: usize| crate::common::fixture(&format!("grosstarock/sessions/follow/deal-{k}.json"));
    let players = serde_json::from_str::<serde_json::Value>(&deal(1)).unwrap()["players"].clone();
    let session = server.post("/sessions", &serde_json::json!({"name": "Table 3", "players": players}).to_string()).json()["id"].as_str().unwrap().to_string();
    let mut games = vec![];
    for k in 1..=3 {
        let game = server.post("/games", &deal(k)).json()["id"].as_str().unwrap().to_string();
        let r = server.post(&format!("/sessions/{session}/games"), &serde_json::json!({"game": game}).to_string());
        assert_eq!(r.status, 200, "{}", r.text);
        games.push(game);
    }
    let sheet = server.get(&format!("/sessions/{session}")).json();
    let r = server.get(&format!("/pages/sessions/{session}"));
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.content_type.starts_with("text/html"));
    let page = r.text.replace('−', "-");
    assert!(page.contains("Score sheet: Table 3"));
    let rows: Vec<&str> = page.split("<tr class=\"deal\"").skip(1).collect();
    assert_eq!(rows.len(), 3, "a row per deal");
    let players: Vec<&str> = players.as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    // An amount as the API sends it: a number, or "n/d" where it is not whole nor a half.
    let text = |v: &serde_json::Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
    for (i, row) in rows.iter().enumerate() {
        let row = &row[..row.find("</tr>").unwrap()];
        assert!(row.contains(&format!("href=\"/pages/games/{}\"", games[i])), "deal {} links to its game", i + 1);
        assert!(!row.contains("deal-options"), "deal {}: no options, so no options line", i + 1);
        let running: Vec<String> = row.split("<strong class=\"running\">").skip(1).map(|c| c[..c.find('<').unwrap()].to_string()).collect();
        let want: Vec<String> = players.iter().map(|p| sheet["deals"][i]["totals"].as_array().unwrap().iter().find(|t| t[0] == *p).unwrap()[1].clone()).map(|v| text(&v)).collect();
        assert_eq!(running, want, "deal {}: the running totals", i + 1);
        let scores: Vec<String> = row.split("<span class=\"deal-score\">").skip(1).map(|c| c[..c.find('<').unwrap()].to_string()).collect();
        let want: Vec<String> = players.iter().map(|p| sheet["deals"][i]["scores"].as_array().unwrap().iter().find(|t| t[0] == *p).unwrap()[1].clone()).map(|v| text(&v)).collect();
        assert_eq!(scores, want, "deal {}: each player's score", i + 1);
    }
    for p in &players {
        assert!(page.contains(&format!("class=\"player-line\" data-player=\"{p}\"")), "{p}'s line");
    }
    // The index's form asks for a session by its id and is sent to its page.
    assert!(server.get("/").text.contains("action=\"/pages/sessions\""));
    let r = server.get(&format!("/pages/sessions?id={session}"));
    assert_eq!(r.status, 200, "followed to the sheet: {}", r.text);
    assert!(r.text.contains("Score sheet: Table 3"));
    let r = server.get("/pages/sessions/s999");
    assert_eq!(r.status, 404);
    assert!(r.content_type.starts_with("text/html") && r.text.contains("class=\"stop problem\""), "{}", r.text);
}

/// A page per source: its title, its address a link, and the clauses of every ruleset that cites it
/// in its own file (as many as the ruleset's description lists); a ruleset's page links each of its
/// sources there, and each clause's citation.
#[test]
fn each_source_has_a_page() {
    let server = spawn_fresh("pages-sources", &[]);
    let marolles = server.get("/pages/rulesets/marolles-1637").text;
    let sources = &marolles[marolles.find("<h2>Sources</h2>").expect("the sources")..];
    let at = sources.find("<strong>M</strong>: <a href=\"/pages/sources/").expect("M linked to its page");
    let link = &sources[at + "<strong>M</strong>: <a href=\"".len()..];
    let link = &link[..link.find('"').unwrap()];
    assert!(marolles[..marolles.find("<h2>Sources</h2>").unwrap()].contains(&format!("<a href=\"{link}\" title=")), "a clause's citation links to its source");
    let r = server.get(link);
    assert_eq!(r.status, 200, "{}", r.text);
    let page = r.text.replace("&#39;", "'");
    assert!(page.contains("<title>Early 17th Century French Tarot (according to the Abbé de Marolles, 1637)</title>"), "its title");
    assert!(page.contains("<a class=\"address\" href=\"https://www.pagat.com/tarot/marolles.html\""), "its address as a link");
    // Every ruleset that gives this address, each with as many clauses as its description has citing
    // it from its own file.
    for r in server.get("/rulesets").json().as_array().unwrap() {
        let id = r["id"].as_str().unwrap();
        let d = server.get(&format!("/rulesets/{id}")).json();
        let Some(key) =
            d["rules"]["sources"].as_array().unwrap().iter().find(|s| s["file"] == "https://www.pagat.com/tarot/marolles.html").map(|s| s["id"].as_str().unwrap().to_string())
        else {
            assert!(!page.contains(&format!("data-ruleset=\"{id}\"")), "{id} does not cite it");
            continue;
        };
        let own = format!("rulesets/{id}.tarot:");
        let want = d["rules"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["at"].as_str().unwrap().starts_with(&own) && l["source"].as_str().is_some_and(|s| s.split(' ').next() == Some(&key)))
            .count();
        assert!(page.contains(&format!("href=\"/pages/rulesets/{id}\"")), "{id} cites it");
        assert_eq!(page.matches(&format!("<tr class=\"clause\" data-ruleset=\"{id}\">")).count(), want, "{id}'s clauses citing it");
        if id == "marolles-1637" {
            assert!(want > 10, "Marolles cites it {want} times");
        }
    }
    let list = server.get("/pages/sources").text;
    assert!(list.contains(&format!("href=\"{link}\"")), "the list of sources links to it");
    assert!(server.get("/").text.contains("href=\"/pages/sources\""), "the index links to the list");
    assert_eq!(server.get("/pages/sources/nope").status, 404);
}

/// The scores a page's worked example shows, in order, as the API writes amounts (a minus sign
/// as a hyphen, halves as decimals).
fn example_scores(page: &str) -> Vec<String> {
    let part = &page[page.find("<dt>A worked example</dt>").expect("a worked example")..];
    let part = &part[..part.find("</dd>").unwrap()];
    part.split("<strong class=\"example-score\">").skip(1).map(|s| s[..s.find('<').unwrap()].replace('−', "-").replace('½', ".5")).collect()
}

/// The API's verdict of a record: its players' scores.
fn scores_of(server: &crate::common::Server, record: &str) -> Vec<String> {
    let v = server.post("/validate", record).json();
    v["outcome"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["score"].to_string())
        .map(|s| if s.starts_with("0.") || s.starts_with("-0.") { s.replacen("0.", ".", 1) } else { s })
        .collect()
}

/// Each ruleset's overview ends with a worked example: a game of its fixtures (none stored), its
/// contract and its scores as the API replays them, linked to the game drawn; once a valid game of
/// it is stored, that game, linked to its step-through.
#[test]
fn the_overview_ends_with_a_worked_example() {
    let server = spawn_fresh("pages-example", &[]);
    for r in server.get("/rulesets").json().as_array().unwrap() {
        let id = r["id"].as_str().unwrap();
        let page = server.get(&format!("/pages/rulesets/{id}")).text;
        let at = page.find("<dt>A worked example</dt>").unwrap_or_else(|| panic!("{id}: no worked example"));
        assert!(at < page.find("</dl>").unwrap(), "{id}: in the overview");
        assert!(page.contains(&format!("href=\"/pages/rulesets/{id}/example\"")), "{id}: the fixture's game linked");
    }
    let page = server.get("/pages/rulesets/fft-4p").text;
    let path = &page[page.find("<code>fixtures/").unwrap() + "<code>fixtures/".len()..];
    let path = &path[..path.find('<').unwrap()];
    let record = crate::common::fixture(path);
    assert_eq!(example_scores(&page), scores_of(&server, &record), "the fixture's scores");
    assert!(page.contains(" takes with <strong>"), "its contract in words");
    let drawn = server.get("/pages/rulesets/fft-4p/example");
    assert_eq!(drawn.status, 200);
    assert!(drawn.text.contains("The ledger") && drawn.text.contains(path), "the example drawn");
    assert_eq!(server.get("/pages/rulesets/nope/example").status, 404);
    // A stored game of the ruleset is the example, linked to its step-through.
    let stored = crate::common::fixture("fft-4p/tarotclub/tarotmag_17.json");
    let id = server.post("/games", &stored).json()["id"].as_str().unwrap().to_string();
    let page = server.get("/pages/rulesets/fft-4p").text;
    assert!(page.contains(&format!("href=\"/pages/games/{id}?trick=1#step\"")), "the stored game's step-through");
    assert_eq!(example_scores(&page), scores_of(&server, &stored), "the stored game's scores");
}

/// The box of a page that says where and why its game stopped.
fn stop_box(page: &str) -> &str {
    let at = page.find("class=\"stop\" id=\"stop\"").unwrap_or_else(|| panic!("no stop in\n{page}"));
    &page[at..at + page[at..].find("</div>").unwrap()]
}

/// Engine lines on pages as people read them: a card code in a broken rule's message drawn as the
/// card, and a message whose list the engine left open (a bid under a ruleset with no contract)
/// not shown cut.
#[test]
fn engine_lines_read_as_cards_and_words() {
    let server = spawn_fresh("pages-lines", &[]);
    let form = |record: &str| {
        let mut body = String::from("record=");
        for b in record.bytes() {
            match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => body.push(b as char),
                _ => body.push_str(&format!("%{b:02X}")),
            }
        }
        server.post_as("/pages/check", &body, "application/x-www-form-urlencoded", None).text
    };
    // "Cid must overtrump: holds T10, T14, T15, which beat T7 on the table".
    let page = form(&crate::common::fixture("fft-4p/invalid/play.must.overtrump.json"));
    let stop = stop_box(&page);
    for code in ["T10", "T14", "T15", "T7"] {
        assert!(stop.contains(&format!("data-code=\"{code}\"")), "{code} drawn in\n{stop}");
    }
    assert!(!stop.contains("holds T10"), "no card code left as text:\n{stop}");
    // A bid under Minchiate, which has no contract: the engine says it has only pass.
    let mut record: serde_json::Value = serde_json::from_str(&crate::common::fixture("minchiate/valid/4p-1.json")).unwrap();
    let first = record["players"][0].clone();
    record["events"].as_array_mut().unwrap().insert(1, serde_json::json!({"type": "bid", "player": first, "bid": "garde"}));
    let page = form(&record.to_string());
    let stop = stop_box(&page);
    assert!(stop.contains("minchiate has only pass"), "{stop}");
    assert!(!stop.contains("has pass,"), "not cut:\n{stop}");
    // A term the engine quotes in backticks, as a word set apart: "the record carries pot `king`".
    let mut record: serde_json::Value = serde_json::from_str(&crate::common::fixture("fft-4p/tarotclub/tarotmag_17.json")).unwrap();
    record["pots"] = serde_json::json!({"king": 5});
    let page = form(&record.to_string());
    let stop = stop_box(&page);
    assert!(stop.contains("<em class=\"term\">king</em>") && !stop.contains('`'), "{stop}");
    // In a comparison: why Tarocchini cannot replay a French deal names a card its pack does not
    // hold, drawn as a plain card (not as a Tarocchini card, which it is not).
    let id = server.post("/games", &crate::common::fixture("fft-4p/tarotclub/tarotmag_17.json")).json()["id"].as_str().unwrap().to_string();
    let page = server.get(&format!("/pages/games/{id}/compare?ids=fft-4p,minchiate,tarocchini")).text;
    let why = |ruleset: &str| {
        let at = page.find(&format!("<code>{ruleset}</code>")).unwrap();
        page[at..at + page[at..].find("</th>").unwrap()].to_string()
    };
    let tarocchini = why("tarocchini");
    assert!(tarocchini.contains("is not in the tarocchini pack") && tarocchini.contains("data-code=") && !tarocchini.contains("card italian"), "{tarocchini}");
    let minchiate = why("minchiate");
    assert!(minchiate.contains("minchiate has only pass") && !minchiate.contains("has pass,"), "{minchiate}");
}

/// A game whose first two tricks are begun together (Cego's Zwei Leere, `play { lead-together }`):
/// its page draws each trick with the cards sent to it, though the record interleaves them, and its
/// step after the first trick has taken from the hands the cards of that trick alone.
#[test]
fn tricks_begun_together_are_drawn_each_with_its_cards() {
    let server = spawn_fresh("pages-together", &[]);
    let record = crate::common::fixture("cego/valid/zwei-leere-higher-card.json");
    let id = server.post("/games", &record).json()["id"].as_str().unwrap().to_string();
    let parsed: serde_json::Value = serde_json::from_str(&record).unwrap();
    let plays: Vec<(String, String)> = parsed["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "play")
        .map(|e| (e["player"].as_str().unwrap().to_string(), e["card"].as_str().unwrap().to_string()))
        .collect();
    let page = server.get(&format!("/pages/games/{id}")).text;
    let tricks = &page[page.find("<h2>The tricks</h2>").expect("the tricks drawn")..];
    let rows: Vec<&str> = tricks.split("<tr>").skip(2).collect();
    for k in 0..2 {
        let row = rows[k];
        let mut at = 0;
        for q in 0..4 {
            let code = format!("data-code=\"{}\"", plays[2 * q + k].1);
            let found = row[at..].find(&code).unwrap_or_else(|| panic!("trick {}: {code} after the cards before it in\n{row}", k + 1));
            at += found + code.len();
        }
    }
    // After the first trick: the declarer still holds the card he sent to the second.
    let step = server.get(&format!("/pages/games/{id}?trick=1")).text;
    let hands = &step[step.find("class=\"step-hands\"").expect("the hands")..];
    let (declarer, second) = &plays[1];
    let row = &hands[hands.find(&format!("<th>{declarer}</th>")).unwrap()..];
    let row = &row[..row.find("</tr>").unwrap()];
    assert!(row.contains(&format!("data-code=\"{second}\"")), "{declarer} holds {second} after trick 1:\n{row}");
    assert!(!row.contains(&format!("data-code=\"{}\"", plays[0].1)), "{declarer} has played {} to trick 1:\n{row}", plays[0].1);
}

/// The drawn pages in a real browser, each kept as a screenshot to look at.
#[test]
#[ignore = "needs chromium: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn the_drawn_pages_in_a_browser() {
    let server = spawn_fresh("pages-drawn", &[]);
    let deal = |k: usize| crate::common::fixture(&format!("grosstarock/sessions/follow/deal-{k}.json"));
    let players = serde_json::from_str::<serde_json::Value>(&deal(1)).unwrap()["players"].clone();
    let session = server.post("/sessions", &serde_json::json!({"name": "Table 3", "players": players}).to_string()).json()["id"].as_str().unwrap().to_string();
    for k in 1..=3 {
        let game = server.post("/games", &deal(k)).json()["id"].as_str().unwrap().to_string();
        assert_eq!(server.post(&format!("/sessions/{session}/games"), &serde_json::json!({"game": game}).to_string()).status, 200);
    }
    let game = server.post("/games", &crate::common::fixture("fft-4p/tarotclub/tarotmag_17.json")).json()["id"].as_str().unwrap().to_string();
    let marolles = server.get("/pages/rulesets/marolles-1637").text;
    let at = marolles.find("<strong>M</strong>: <a href=\"").unwrap() + "<strong>M</strong>: <a href=\"".len();
    let source = marolles[at..at + marolles[at..].find('"').unwrap()].to_string();
    let step = format!("/pages/games/{game}?trick=1#step");
    let together = server.post("/games", &crate::common::fixture("cego/valid/zwei-leere-higher-card.json")).json()["id"].as_str().unwrap().to_string();
    // A Cego evening whose second deal is of the Pflicht-Räuber round: its option in its row.
    let round = |name: &str| crate::common::fixture(&format!("cego-pflicht-rauber/valid/{name}.json"));
    let evening = server.post("/sessions", &serde_json::json!({"name": "Evening", "players": ["Ann", "Bob", "Cid", "Dan"]}).to_string()).json()["id"].as_str().unwrap().to_string();
    for name in ["4p-1", "pflicht-30"] {
        let game = server.post("/games", &round(name)).json()["id"].as_str().unwrap().to_string();
        assert_eq!(server.post(&format!("/sessions/{evening}/games"), &serde_json::json!({"game": game}).to_string()).status, 200);
    }
    let pages: Vec<super::Page> = vec![
        ("family", "/".to_string(), 1100, vec!["The family at a glance", "marolles-1637"]),
        ("stats-bars", "/pages/stats?rulesets=fft-4p,fft-3p,marolles-1637&deals=1000".to_string(), 1600, vec!["hands that could declare: poignée", "class=\"bar c0\""]),
        ("session-sheet", format!("/pages/sessions/{session}"), 1000, vec!["Score sheet: Table 3", "class=\"player-line\""]),
        ("session-options", format!("/pages/sessions/{evening}"), 1000, vec!["Score sheet: Evening", "round = pflicht-rauber"]),
        ("source-marolles", source.clone(), 2400, vec!["Early 17th Century French Tarot", "marolles-1637"]),
        ("sources", "/pages/sources".to_string(), 1600, vec!["Every source a ruleset cites"]),
        ("overview-example-stored", "/pages/rulesets/fft-4p".to_string(), 1100, vec!["A worked example", &step]),
        ("overview-example-fixture", "/pages/rulesets/minchiate".to_string(), 1100, vec!["A worked example", "/pages/rulesets/minchiate/example"]),
        ("example-minchiate", "/pages/rulesets/minchiate/example".to_string(), 2600, vec!["The ledger"]),
        ("tricks-together", format!("/pages/games/{together}?trick=2#step"), 1800, vec!["After trick 2 of 11", "The tricks"]),
        ("compare-cannot", format!("/pages/games/{game}/compare?ids=fft-4p,minchiate,tarocchini"), 900, vec!["cannot be replayed"]),
    ];
    super::check_pages_in_browser(&server, &pages);
}
