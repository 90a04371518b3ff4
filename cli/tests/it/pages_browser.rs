//! The pages for people: every page opened in a real headless Chromium (Debian's `chromium`, which
//! `scripts/test.sh` installs), with a screenshot of each kept in `target/screenshots/` to look at;
//! and the same pages over plain HTTP, for their status and content.

use crate::common;

use crate::common::{browser, fixture, spawn_fresh, Server};

mod drawn;

/// Opens `url` in Chromium, checks that the page as rendered holds each of `wanted`, and saves its
/// screenshot as `target/screenshots/<name>.png` (removed first, so an earlier run's picture does
/// not pass for this one).
fn check_in_browser(name: &str, url: &str, height: u32, wanted: &[&str]) {
    let png = common::root().join(format!("target/screenshots/{name}.png"));
    std::fs::create_dir_all(png.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(&png);
    let page = browser::open(url, 1400, height);
    for w in wanted {
        assert!(page.dom.contains(w), "{name} ({url}): `{w}` not found in\n{}", &page.dom[..page.dom.len().min(3000)]);
    }
    assert!(page.png.starts_with(b"\x89PNG\r\n\x1a\n"), "the screenshot of {url} is not a PNG");
    std::fs::write(&png, &page.png).unwrap();
}

/// A page to open in Chromium: its screenshot's name, its address, the window's height and what its
/// rendered DOM must hold.
type Page<'a> = (&'a str, String, u32, Vec<&'a str>);

/// `check_in_browser` for each page, three tabs at a time: a tab spends much of its time waiting on
/// the server and the browser's other processes.
fn check_pages_in_browser(server: &Server, pages: &[Page]) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((name, path, height, wanted)) = pages.get(i) else { break };
                check_in_browser(name, &server.url(path), *height, wanted);
            });
        }
    });
}

/// Stores a fixture and gives its id.
fn store(server: &Server, path: &str) -> String {
    let r = server.post("/games", &fixture(path));
    assert_eq!(r.status, 201, "{path}: {}", r.text);
    r.json()["id"].as_str().unwrap().to_string()
}

#[test]
#[ignore = "needs chromium: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn every_page_renders_in_a_browser() {
    let server = spawn_fresh("pages-browser", &[]);
    let valid = store(&server, "fft-4p/tarotclub/tarotmag_17.json");
    let invalid = store(&server, "fft-4p/invalid/play.must.overtrump.json");
    let annulled = store(&server, "fft-4p/annulled/annul.petit_sec.json");
    let five = store(&server, "fft-5p/valid/5p-1.json");
    let two = store(&server, "fft-2p/valid/2p-1.json");
    let marolles = store(&server, "marolles-1637/valid/3p-1.json");
    let in_progress = store(&server, "fft-4p/in_progress/mid-trick.json");
    let pots = store(&server, "grosstarock/sessions/follow/deal-2.json");
    let standing = store(&server, "troccas/valid/asked-nines-and-tens.json");
    let called_out = store(&server, "tarocchini/valid/call-out-at-800.json");
    // A Minchiate deal of four, dealt and nothing more: anyone of the four may still sit out.
    let mut dealt: serde_json::Value = serde_json::from_str(&fixture("minchiate/valid/4p-1.json")).unwrap();
    dealt["events"].as_array_mut().unwrap().truncate(1);
    let r = server.post("/games", &dealt.to_string());
    assert_eq!(r.status, 201, "{}", r.text);
    let sit_out = r.json()["id"].as_str().unwrap().to_string();
    let link = format!("href=\"/pages/games/{valid}\"");
    let pages: Vec<Page> = vec![
        (
            "index",
            "/".into(),
            2400,
            vec![
                "marolles-1637",
                "href=\"/pages/rulesets/queen-of-tarot\"",
                "/docs/",
                "/pages/stats",
                "/pages/check",
                &link,
                "French family",
                "17th century",
                "20th century",
                "21st century",
                "Not dated by its sources",
                "The family at a glance",
                "class=\"extends\" data-from=\"fft-4p\" data-to=\"fft-3p\"",
            ],
        ),
        (
            "ruleset-fft-4p",
            "/pages/rulesets/fft-4p".into(),
            4200,
            vec!["Options", "dog_apart", "never the first or the last card of the pack to the dog", "FFT \"La distribution\"", "href=\"/rulesets/fft-4p\""],
        ),
        ("ruleset-marolles-1637", "/pages/rulesets/marolles-1637".into(), 5000, vec!["ultimo_failure", "Sources"]),
        (
            "rules-compare",
            "/pages/rulesets/compare?ids=fft-4p,marolles-1637,basic".into(),
            4600,
            vec!["class=\"differs\"", "trick obligations", "pack total 74", "19 with 4 players"],
        ),
        (
            "rules-compare-parent",
            "/pages/rulesets/compare?ids=fft-4p,fft-4p-garde-contre-x8".into(),
            2400,
            vec!["<div class=\"differs\">garde contre le chien: scores 8 times the base"],
        ),
        (
            "stats",
            "/pages/stats?rulesets=fft-4p,fft-3p,marolles-1637&deals=1000".into(),
            1600,
            vec!["hands that could declare: poignée", "hands with three oudlers", "hands with one oudler", "no card is played"],
        ),
        (
            "game-valid",
            format!("/pages/games/{valid}"),
            3000,
            vec![
                "class=\"card trump",
                "class=\"card excuse",
                "title=\"the Excuse\"",
                "The score sheet",
                "The ledger",
                "score.term.contract",
                "gives South an empty card in exchange",
            ],
        ),
        ("game-invalid", format!("/pages/games/{invalid}"), 1800, vec!["id=\"stop\"", "Stopped here, at event", "play.must.overtrump", "class=\"card trump bad\""]),
        ("game-annulled", format!("/pages/games/{annulled}"), 1400, vec!["The deal is annulled", "annul.petit_sec", "<tr class=\"diverge\"><th>Ann</th>"]),
        ("game-five", format!("/pages/games/{five}"), 3000, vec!["calls", "The tricks", "bids <strong>garde contre le chien</strong>"]),
        ("game-two", format!("/pages/games/{two}"), 3000, vec!["'s piles", "The tricks", "The ledger"]),
        (
            "game-marolles",
            format!("/pages/games/{marolles}"),
            3400,
            vec!["the cut card", "The ledger", "title=\"the Fool (le Math)\"", "title=\"4 of swords\"", "class=\"card italian swords", "<span class=\"suit\">ba</span>"],
        ),
        ("game-in-progress", format!("/pages/games/{in_progress}"), 1600, vec!["being played", "<h2>Next</h2>"]),
        (
            "game-pots",
            format!("/pages/games/{pots}"),
            5200,
            vec![
                "Carried into this deal from the one before: the King pot <strong>75</strong>",
                "<h3>The pots</h3>",
                "<td>the King pot</td><td>75</td><td><strong>0</strong></td>",
                "pot.king pays Cid",
            ],
        ),
        (
            "game-standing",
            format!("/pages/games/{standing}"),
            4200,
            vec![
                "Carried into this deal from the match, each player's total before it",
                "Ann <strong>12</strong>, Bob <strong>-12</strong>, Cid <strong>12</strong>, Dan <strong>-12</strong>",
            ],
        ),
        (
            "game-ends-match",
            format!("/pages/games/{called_out}"),
            3000,
            vec!["<h3>The end of the match</h3>", "<strong>Dan</strong>'s declaration ends the deal and the match: Dan and Bob win the match"],
        ),
        ("game-sit-out-offer", format!("/pages/games/{sit_out}"), 1800, vec!["<h2>Next</h2>", "may sit the deal out (a <code>sit-out</code> event)"]),
        ("game-compare", format!("/pages/games/{valid}/compare?ids=fft-4p,queen-of-tarot"), 2000, vec!["class=\"diverge\"", "legal under fft-4p", "South leads", &link]),
        ("check-form", "/pages/check".into(), 900, vec!["<form method=\"post\" action=\"/pages/check\"", "type=\"file\""]),
    ];
    check_pages_in_browser(&server, &pages);
    // The form's answer, as the browser gets it after a POST: saved to a file and opened from there
    // (the page fetches nothing, so it renders the same).
    let answer = server.post_as("/pages/check", &form_body(&fixture("fft-4p/invalid/play.must.overtrump.json")), "application/x-www-form-urlencoded", None);
    assert_eq!(answer.status, 200, "{}", answer.text);
    let file = common::root().join("target/screenshots/check-answer.html");
    std::fs::write(&file, &answer.text).unwrap();
    check_in_browser("check-answer", &format!("file://{}", file.display()), 1800, &["Stopped here, at event", "play.must.overtrump", "Check another"]);
}

/// A field `record` holding `text`, form-encoded.
fn form_body(text: &str) -> String {
    let mut out = String::from("record=");
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[test]
fn the_pages_over_http() {
    let server = spawn_fresh("pages-http", &[]);
    let valid = store(&server, "fft-4p/tarotclub/tarotmag_17.json");
    let html = |path: &str| {
        let r = server.get(path);
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        assert!(r.content_type.starts_with("text/html"), "{path}: {}", r.content_type);
        r.text
    };
    // The rules in words: no rules-language text where the issue found it, the options' values in force.
    let rules = html("/pages/rulesets/compare?ids=fft-4p,marolles-1637,basic");
    for bad in ["option.", "hand floor(", "count(players)", "card(s)", "play goes option"] {
        assert!(!rules.contains(bad), "`{bad}` in the comparison");
    }
    assert!(rules.contains("play goes anticlockwise"), "the direction in force");
    assert!(rules.contains("in packets of 5, 5, 5, 5, 1"), "Marolles' packets with the option in force");
    let page = html("/pages/rulesets/fft-4p");
    assert!(page.contains("whoever announced a chelem leads the first trick"), "the lead in words");
    assert!(page.contains("the Petit dealt in the first packet: not with these options"));
    // A game's page: every trick drawn, the winner of each, the ledger with its rules and sources.
    let game = html(&format!("/pages/games/{valid}"));
    assert_eq!(game.matches("<span class=\"play\">").count(), 72, "18 tricks of 4 cards");
    assert!(game.contains("title=\"T21\""), "the card names on hover");
    assert!(game.contains("La marque en donnes libres"), "the ledger's sources");
    let r = server.get("/pages/games/g999");
    assert_eq!(r.status, 404, "{}", r.text);
    let r = server.get("/pages/rulesets/nope");
    assert_eq!(r.status, 404, "{}", r.text);
    // Checking a record: pasted (form-encoded), uploaded (multipart), or not a game at all.
    let record = fixture("fft-4p/tarotclub/tarotmag_17.json");
    let pasted = server.post_as("/pages/check", &form_body(&record), "application/x-www-form-urlencoded", None);
    assert_eq!(pasted.status, 200);
    assert!(pasted.text.contains("valid: no rule broken") && pasted.text.contains("The ledger"), "{}", &pasted.text[..2000]);
    let multipart = format!(
        "--B0undary\r\nContent-Disposition: form-data; name=\"record\"\r\n\r\n\r\n--B0undary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"g.json\"\r\nContent-Type: application/json\r\n\r\n{record}\r\n--B0undary--\r\n"
    );
    let uploaded = server.post_as("/pages/check", &multipart, "multipart/form-data; boundary=B0undary", None);
    assert_eq!(uploaded.status, 200);
    assert!(uploaded.text.contains("valid: no rule broken"), "{}", &uploaded.text[..2000]);
    let garbage = server.post_as("/pages/check", "record=%7B%22ruleset%22%3A1%7D", "application/x-www-form-urlencoded", None);
    assert!(garbage.text.contains("This is not a recorded game") && garbage.text.contains("line 1, column 12"), "{}", garbage.text);
    assert!(!garbage.text.contains(" at line "), "the place said once: {}", garbage.text);
    let list = server.post_as("/pages/check", &form_body(r#"["fft-4p", ["A", "B", "C", "D"], "A", []]"#), "application/x-www-form-urlencoded", None);
    assert!(list.text.contains("line 1, column 1: a recorded game is a JSON object, not a list") && !list.text.contains("struct"), "{}", list.text);
    let unknown = server.post_as("/pages/check", &form_body(&record.replace("\"fft-4p\"", "\"fft-9p\"")), "application/x-www-form-urlencoded", None);
    // The ruleset quoted as a word set apart, not in backticks.
    assert!(unknown.text.contains("the ruleset <em class=\"term\">fft-9p</em> is not in this archive") && !unknown.text.contains("`fft-9p`"), "{}", unknown.text);
    // A steal from the stock (`steal`, Minchiate): the page says so, not "from the talon".
    let steals = server.post_as("/pages/check", &form_body(&fixture("minchiate/valid/steals.json")), "application/x-www-form-urlencoded", None);
    assert!(steals.text.contains("steals") && steals.text.contains("from the stock") && !steals.text.contains("from the talon"), "{}", &steals.text[..2000]);
    // A form over the limit: a page (not actix's plain text) that says the limit and what was sent.
    let huge = format!("record={}", "x".repeat(300 * 1024));
    let refused = server.post_as("/pages/check", &huge, "application/x-www-form-urlencoded", None);
    assert_eq!(refused.status, 413, "{}", refused.text);
    assert!(refused.content_type.starts_with("text/html"), "{}", refused.content_type);
    assert!(refused.text.contains("Too large to check") && refused.text.contains("at most 256 KiB (262144 bytes)"), "{}", refused.text);
    assert!(refused.text.contains("the form sent 300.0 KiB (307207 bytes)"), "{}", refused.text);
    assert!(refused.text.contains("<form method=\"post\" action=\"/pages/check\""), "the form again");
    // Just under the limit, the form is read (and the text is not a game).
    let under = format!("record={}", "x".repeat(256 * 1024 - "record=".len()));
    let read = server.post_as("/pages/check", &under, "application/x-www-form-urlencoded", None);
    assert_eq!(read.status, 200);
    assert!(read.text.contains("This is not a recorded game"), "{}", &read.text[..2000]);
    // Italian suits drawn as themselves (their names' first letters in their colours), French suits
    // with their symbols.
    let italian = server.post_as("/pages/check", &form_body(&fixture("marolles-1637/valid/3p-1.json")), "application/x-www-form-urlencoded", None);
    for suit in ["swords", "cups", "coins", "batons"] {
        assert!(italian.text.contains(&format!("class=\"card italian {suit}")), "{suit}");
    }
    assert!(!["♠", "♥", "♦", "♣"].iter().any(|s| italian.text.contains(s)), "no French symbol for an Italian suit");
    assert!(pasted.text.contains("♥") && !pasted.text.contains("card italian"), "French suits keep their symbols");
    // Nothing was stored by checking.
    assert_eq!(server.get("/games").json()["total"], 1);
}

/// The Excuse's exchange in a game not yet scored: the sides are the last bidder and the holder of
/// the card he called, not "every player alone" (before the score was known the page had no sides,
/// and told the taker to give his own partner a card in exchange).
#[test]
fn the_excuse_exchange_knows_the_sides_before_the_score() {
    let server = spawn_fresh("pages-excuse", &[]);
    // fft-5p: Cid takes and calls the king of hearts, which Ann holds; in the tenth trick Cid plays
    // the Excuse and Ann wins with that king. Cut after that trick, the game is in progress.
    let mut record: serde_json::Value = serde_json::from_str(&fixture("fft-5p/valid/garde-contre-dog-to-defence.json")).unwrap();
    let events = record["events"].as_array_mut().unwrap();
    assert_eq!(events[53], serde_json::json!({"type": "play", "player": "Cid", "card": "EX"}));
    assert_eq!(events[56], serde_json::json!({"type": "play", "player": "Ann", "card": "KH"}));
    events.truncate(57);
    let answer = server.post_as("/pages/check", &form_body(&record.to_string()), "application/x-www-form-urlencoded", None);
    assert_eq!(answer.status, 200, "{}", answer.text);
    assert!(!answer.text.contains("The score sheet"), "the game is not scored yet");
    assert!(
        answer.text.contains("Cid played the Excuse: it stays on Cid&#39;s side, which won the trick; nothing is exchanged.")
            || answer.text.contains("Cid played the Excuse: it stays on Cid's side, which won the trick; nothing is exchanged."),
        "{}",
        answer.text
    );
    assert!(!answer.text.contains("gives Ann an empty card"), "the taker gives his partner nothing");
}

/// The part of a game's page from its score sheet to its ledger's end.
/// (an apostrophe as written, whether escaped or not).
fn sheet_of(page: &str) -> String {
    let start = page.find("id=\"score-sheet\"").unwrap_or_else(|| panic!("no score sheet in\n{page}"));
    let end = page[start..].find("<h2>Under other rulesets").map_or(page.len(), |e| start + e);
    page[start..end].replace("&#39;", "'")
}

/// Score sheets in the ruleset's words: every value named and explained, per side, cards drawn as
/// cards, yes and no for truths, and a ledger for every ruleset (a standing where nobody pays); the
/// empty card handed back for the Excuse and a dog counted for the defence said where they move card
/// points.
#[test]
#[ignore = "needs chromium: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn score_sheets_are_in_words() {
    let server = spawn_fresh("pages-sheets", &[]);
    let page = |fixture_path: &str| {
        let id = store(&server, fixture_path);
        let r = server.get(&format!("/pages/games/{id}"));
        assert_eq!(r.status, 200, "{fixture_path}: {}", r.text);
        (id, r.text)
    };
    let (tarocchini, t) = page("tarocchini/valid/4p-1.json");
    let sheet = sheet_of(&t);
    for raw in ["[[", "true", "false", "[\"T1\""] {
        assert!(!sheet.contains(raw), "`{raw}` in the Tarocchini sheet:\n{sheet}");
    }
    assert!(sheet.contains("<th>Ann and Cid</th><th>Bob and Dan</th>"), "one column per side:\n{sheet}");
    assert!(sheet.contains("the number of tarocchi in won") && sheet.contains("the number of the kings in won"), "each item of a list in words:\n{sheet}");
    assert!(sheet.contains("35 cards: ") && sheet.contains("data-code=\"KS\""), "a side's cards drawn");
    assert!(sheet.contains("<h2>The ledger</h2>") && sheet.contains("<code>score.standing</code>") && sheet.contains("Ann and Cid score"), "the standing in the ledger:\n{sheet}");
    assert!(sheet.contains("Ann's side keeps the Matto, played to trick 5, and hands Dan's side an empty card for it"), "{sheet}");
    let (_, f) = page("fft-4p/tarotclub/tarotmag_17.json");
    let sheet = sheet_of(&f);
    assert!(!sheet.contains("true") && !sheet.contains("false") && !sheet.contains("\"trick"), "{sheet}");
    assert!(sheet.contains("<strong>made</strong><br><span class=\"src\">points is at least target</span>"), "{sheet}");
    assert!(sheet.contains("½ card point</strong> go to South's side"), "the Excuse's half point:\n{sheet}");
    let (garde_contre, g) = page("fft-5p/valid/garde-contre-dog-to-defence.json");
    assert!(sheet_of(&g).contains("Under garde contre le chien, the dog (3 cards, <strong>5½ card points</strong>) counts for the defence."), "{}", sheet_of(&g));
    let (_, troccas) = page("troccas/valid/asked-nines-and-tens.json");
    assert!(sheet_of(&troccas).contains("<h2>The ledger</h2>"), "a ledger for every ruleset");
    check_in_browser("sheet-tarocchini", &server.url(&format!("/pages/games/{tarocchini}")), 5000, &["Ann and Cid", "score.standing"]);
    check_in_browser("sheet-garde-contre", &server.url(&format!("/pages/games/{garde_contre}")), 4000, &["counts for the defence"]);
}

/// Each game in its own names: the Fool as its ruleset names it in the notes of the tricks, the
/// declarations by their titles, the pack's own suits (Minchiate's Italian suits, named in Italian),
/// trumps named on hover as the ruleset names them, and headings only for the phases the game has.
#[test]
#[ignore = "needs chromium: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn each_game_in_its_own_names() {
    let server = spawn_fresh("pages-names", &[]);
    let page = |fixture_path: &str| {
        let id = store(&server, fixture_path);
        let r = server.get(&format!("/pages/games/{id}"));
        assert_eq!(r.status, 200, "{fixture_path}: {}", r.text);
        (id, r.text.replace("&#39;", "'"))
    };
    let (_, t) = page("tarocchini/valid/4p-1.json");
    assert!(t.contains("Ann played the Matto: it goes back to Ann's side") && !t.contains("played the Excuse"), "the Matto by its name");
    let (_, m) = page("marolles-1637/valid/3p-2.json");
    assert!(m.contains("declares <strong>Kings and Fool</strong>") && !m.contains("<strong>kings_fool"), "a declaration by its title");
    assert!(m.contains("played the Fool (le Math)") && !m.contains("played the Excuse"), "le Math by its name");
    let (minchiate, mi) = page("minchiate/valid/4p-1.json");
    for suit in ["swords", "cups", "coins", "batons"] {
        assert!(mi.contains(&format!("class=\"card italian {suit}")), "Minchiate's {suit} drawn as Italian");
    }
    assert!(!["♠", "♥", "♦", "♣"].iter().any(|s| mi.contains(s)), "no French pip for an Italian suit");
    assert!(mi.contains("<span class=\"suit\">sp</span>") && mi.contains("<span class=\"suit\">de</span>"), "spade and denari by their own initials");
    assert!(!mi.contains("auction") && !mi.contains("the dog"), "no auction nor dog where the game has none");
    assert!(mi.contains(">the stock</th>"), "Minchiate's stock by its rule file's word");
    // Cego's dog by its own word (`dog_name = "Blinde"`): at the table, in the heading, on the sheet.
    let (_, c) = page("cego/valid/cego.json");
    assert!(c.contains(">the Blinde</th>") && c.contains("the Blinde and the discard</h2>") && !c.contains("the dog"), "{}", &c[..3000.min(c.len())]);
    let (_, solo) = page("cego/valid/solo-made.json");
    assert!(solo.contains("Under Solo, the Blinde (10 cards, ") && !solo.contains("the dog"), "the Blinde on the score sheet");
    let (_, f) = page("fft-5p/valid/garde-contre-dog-to-defence.json");
    assert!(f.contains("<h2>The auction and the call</h2>"), "a garde contre: no dog taken, no discard");
    check_in_browser("names-minchiate", &server.url(&format!("/pages/games/{minchiate}")), 3000, &["card italian swords"]);
    // The German-suited pack: leaves, acorns and bells by their initials in their colours, the hearts
    // made trumps drawn as hearts among the trumps (the sow of hearts, T9, as 1♥, not as a trump 9).
    let (dobbm, d) = page("dobbm/valid/retour-twice.json");
    for suit in ["leaves", "acorns", "bells"] {
        assert!(d.contains(&format!("class=\"card german {suit}")), "Dobbm's {suit} drawn as German");
    }
    assert!(d.contains("title=\"sow of hearts\" data-code=\"T9\">1♥<"), "the top trump drawn as the sow of hearts");
    assert!(!["♠", "♦", "♣"].iter().any(|s| d.contains(s)), "no French pip for a German suit");
    check_in_browser("names-dobbm", &server.url(&format!("/pages/games/{dobbm}")), 2400, &["card german leaves", "1♥"]);
}

/// The rules in words on the pages: no formula of the rules language (an option compared with a
/// value, a contract's name tested) on a ruleset's page or in a comparison, the options' values in
/// force instead; the JSON description keeps its text.
#[test]
fn rules_pages_say_formulas_in_words() {
    let server = spawn_fresh("pages-words", &[]);
    let text = |path: &str| {
        let r = server.get(path);
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        r.text.replace("&quot;", "\"")
    };
    let galician = text("/pages/rulesets/galician-tarok");
    assert!(galician.contains("these cards may be played only as a player's last trump: the Pagat if the contract's name is trischaken; otherwise no card"), "{galician}");
    assert!(galician.contains("in groups of 1 (with these options):"), "the group in force, no formula");
    let droggn = text("/pages/rulesets/droggn");
    assert!(droggn.contains("the Gstieß is the Excuse, or a trump above the others with the option gstiess top-trump"), "{droggn}");
    let minchiate = text("/pages/rulesets/minchiate");
    assert!(minchiate.contains("the cards of revoke back (nobili)") && minchiate.contains("breaking must trump is no fault with these options"), "{minchiate}");
    let compared = text("/pages/rulesets/compare?ids=galician-tarok,droggn,minchiate");
    for (name, page) in [("galician-tarok", &galician), ("droggn", &droggn), ("minchiate", &minchiate), ("the comparison", &compared)] {
        for syntax in ["option.", " == ", "contract.name", " then T1", "else none", "if option"] {
            assert!(!page.contains(syntax), "`{syntax}` on the page of {name}");
        }
    }
    // The JSON description says what it said before.
    let json = server.get("/rulesets/galician-tarok").text;
    assert!(json.contains(r#"if contract.name == \"trischaken\" then T1 else none"#), "the JSON's text unchanged");
}

/// A stored game step by step: links to every trick (no script), each step showing the hands as
/// they stand, the cards each side has taken and its running card points, with the previous and
/// next trick linked; the record itself downloadable.
#[test]
#[ignore = "needs chromium: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn a_game_can_be_stepped_through() {
    let server = spawn_fresh("pages-step", &[]);
    let id = store(&server, "fft-4p/tarotclub/tarotmag_17.json");
    let whole = server.get(&format!("/pages/games/{id}")).text;
    for t in 0..=18 {
        assert!(whole.contains(&format!("href=\"/pages/games/{id}?trick={t}#step\"")), "a link to trick {t}");
    }
    let step = server.get(&format!("/pages/games/{id}?trick=4")).text;
    assert!(step.contains("After trick 4 of 18"), "{step}");
    assert!(step.contains(&format!("rel=\"prev\" href=\"/pages/games/{id}?trick=3#step\"")) && step.contains(&format!("rel=\"next\" href=\"/pages/games/{id}?trick=5#step\"")));
    assert!(step.contains("accesskey=\"n\"") && step.contains("accesskey=\"p\""), "keys without script");
    // After four tricks: the defence has West's Excuse (kept for an empty card) and the hearts of trick
    // 4, 13½ card points; South, the taker, 14½; South holds 14 cards of his 18.
    assert!(step.contains("<th>East, North and West</th>") && step.contains("running-points\"><strong>13½</strong>"), "{step}");
    assert!(step.contains("<th>South</th>") && step.contains("running-points\"><strong>14½</strong>"), "{step}");
    let hands = &step[step.find("step-hands").unwrap()..step.find("step-taken").unwrap()];
    let south = &hands[hands.find("<th>South</th>").unwrap()..];
    let south = &south[..south.find("</tr>").unwrap()];
    assert_eq!(south.matches("data-code=").count(), 14, "{south}");
    let end = server.get(&format!("/pages/games/{id}?trick=18")).text;
    assert!(end.contains("After trick 18 of 18") && !end.contains("rel=\"next\""), "the last step");
    let download = server.get(&format!("/pages/games/{id}?download=record"));
    assert_eq!(download.status, 200);
    let stored: serde_json::Value = serde_json::from_str(&download.text).unwrap();
    let fixture: serde_json::Value = serde_json::from_str(&fixture("fft-4p/tarotclub/tarotmag_17.json")).unwrap();
    assert_eq!(stored["events"], fixture["events"], "the record as stored");
    check_in_browser("game-step", &server.url(&format!("/pages/games/{id}?trick=4")), 1600, &["After trick 4 of 18", "13½"]);
}

/// Under /pages/, what goes wrong is a page (its status, what is wrong, ways on), not problem+json;
/// the check form offers example records to try.
#[test]
#[ignore = "needs chromium: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn errors_under_pages_are_pages() {
    let server = spawn_fresh("pages-errors", &[]);
    for (path, status, says) in [
        ("/pages/rulesets/compare?ids=nope", 422, "unknown ruleset `nope`"),
        ("/pages/games/g999", 404, "there is no game g999"),
        ("/pages/stats?deals=abc", 400, "`deals` is a whole number, not `abc`"),
        ("/pages/games/g1?trick=x", 400, "the address&#39;s query cannot be read"),
        ("/pages/rulesets/nope", 404, "no ruleset `nope`"),
    ] {
        let r = server.get(path);
        assert_eq!(r.status, status, "{path}: {}", r.text);
        assert!(r.content_type.starts_with("text/html"), "{path}: {}", r.content_type);
        let text = r.text.replace("&#39;", "'");
        assert!(text.contains("class=\"stop problem\"") && text.contains(&says.replace("&#39;", "'")), "{path}: {}", r.text);
    }
    // The API itself still answers problems as JSON.
    assert!(server.get("/games/g999").content_type.starts_with("application/problem+json"));
    let form = server.get("/pages/check").text;
    assert!(form.contains("href=\"/pages/check?example=1\""), "{form}");
    let example = server.get("/pages/check?example=1").text;
    assert!(example.contains("tarotmag_17") && example.contains("&quot;ruleset&quot;: &quot;fft-4p&quot;"), "the example in the form");
    check_in_browser("error-page", &server.url("/pages/rulesets/compare?ids=nope"), 700, &["unknown ruleset"]);
    check_in_browser("check-example", &server.url("/pages/check?example=3"), 1000, &["tarocchini", "Try an example"]);
}

/// Honest comparisons of a game: a game's page offers only the rulesets that can replay its deal;
/// a comparison where some cannot says so and claims no agreement for them; the scores are its
/// first row.
#[test]
fn game_comparisons_are_honest() {
    let server = spawn_fresh("pages-honest", &[]);
    let id = store(&server, "fft-4p/tarotclub/tarotmag_17.json");
    let page = server.get(&format!("/pages/games/{id}")).text;
    let offered = &page[page.find("<h2>Under other rulesets").expect("rulesets offered")..];
    assert!(offered.contains("ids=fft-4p,queen-of-tarot") && !offered.contains("ids=fft-4p,minchiate") && !offered.contains("ids=fft-4p,tarocchini"), "{offered}");
    let mixed = server.get(&format!("/pages/games/{id}/compare?ids=fft-4p,minchiate,tarocchini,basic")).text;
    assert!(mixed.contains("3 of the 4 rulesets cannot replay this game") && !mixed.contains("The rulesets agree"), "{mixed}");
    assert!(mixed.contains("Only fft-4p can replay it"), "{mixed}");
    let two = server.get(&format!("/pages/games/{id}/compare?ids=fft-4p,queen-of-tarot")).text;
    let header_end = two.find("</tr>").unwrap();
    assert!(two[header_end..].trim_start_matches("</tr>").starts_with("<tr class=\"scores differs\"><th>scores"), "the scores first:\n{}", &two[header_end..header_end + 300]);
    assert!(two.contains("<td>South −102, East 34, North 34, West 34</td>"), "{two}");
}

/// A ruleset's page opens with an overview a player can read: the game, the cards, the deal, the
/// bidding, the play, the score, and where to see a game; the clauses follow.
#[test]
#[ignore = "needs chromium: `scripts/test.sh` runs it (`cargo test -- --include-ignored`)"]
fn a_rules_page_opens_with_an_overview() {
    let server = spawn_fresh("pages-overview", &[]);
    let page = server.get("/pages/rulesets/fft-4p").text;
    let overview = page.find("<h2 id=\"overview\">Overview</h2>").expect("an overview");
    assert!(overview < page.find("<h2>Options</h2>").unwrap() && overview < page.find("<h2>pack and ranks</h2>").unwrap(), "before the clauses");
    for (what, says) in [
        ("The game", "The highest bidder, the taker, plays against the others (the defence) to make his contract"),
        ("The cards", "78 cards: suits spades, hearts, diamonds, clubs, 21 trumps, the Excuse"),
        ("The bidding", "the contracts, lowest first: prise, garde, garde sans le chien, garde contre le chien"),
        ("The score", "The hand score adds: contract, petit au bout, poignée, chelem."),
    ] {
        assert!(page.contains(&format!("<dt>{what}</dt>")) && page.contains(says), "{what}: {says}");
    }
    let tarocchini = server.get("/pages/rulesets/tarocchini").text;
    assert!(tarocchini.contains("Two sides of partners, sitting opposite") && !tarocchini.contains("<dt>The bidding</dt>"), "no bidding where there is none");
    check_in_browser("ruleset-overview", &server.url("/pages/rulesets/tarocchini"), 1200, &["Overview", "The play"]);
}
