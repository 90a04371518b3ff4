//! A session whose ruleset plays a match (`match { deals; target }`): the score sheet of
//! `GET /sessions/{id}` says how many deals of the match were played, whether it is over, and who won.
//! The ruleset is the engine's test rule file `basic-partners-match` (a match of three deals), served
//! with `--rules-dir` beside the built-in files. And what a session checks of each deal added: that
//! it carries on the pots and the standing, and is dealt by the player due to deal it.

use crate::common;

use crate::common::{root, spawn_fresh, tarot_archive, temp_dir};
use serde_json::{json, Value};

#[test]
fn a_session_shows_where_its_match_stands() {
    let matched = std::fs::read_to_string(root().join("engine/tests/rules/basic-partners-match.tarot")).unwrap();
    let rules = common::rules_dir("match-rules", &[("basic-partners-match.tarot", matched)]);
    let games = temp_dir("match-games");
    let made = tarot_archive()
        .args(["--rules-dir", rules.to_str().unwrap(), "simulate", "--ruleset", "basic-partners-match", "--players", "4", "--games", "4", "--seed", "3", "--out"])
        .arg(&*games)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let mut files: Vec<_> = std::fs::read_dir(&*games).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();

    let s = spawn_fresh("match", &["--rules-dir", rules.to_str().unwrap()]);
    let first: Value = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    let session = s.post("/sessions", &json!({"name": "a match of three deals", "players": first["players"]}).to_string()).json();
    let session = session["id"].as_str().unwrap().to_string();
    let mut sheets = vec![];
    for file in &files {
        let game = s.post("/games", &std::fs::read_to_string(file).unwrap()).json();
        let r = s.post(&format!("/sessions/{session}/games"), &json!({"game": game["id"]}).to_string());
        assert_eq!(r.status, 200, "{}", r.text);
        sheets.push(r.json());
    }
    // After two deals: under way, no winner yet.
    let m = &sheets[1]["match"];
    assert_eq!((m["ruleset"].as_str(), m["deals_played"].as_u64(), m["deals"].as_u64(), m["over"].as_bool()), (Some("basic-partners-match"), Some(2), Some(3), Some(false)), "{m}");
    assert_eq!(m["target"], json!(156));
    assert_eq!(m["winners"], json!([]));
    // After four: over after the third deal, whose running totals are the match's, and the side with
    // the highest total won it together.
    let sheet = s.get(&format!("/sessions/{session}")).json();
    let m = &sheet["match"];
    assert_eq!((m["deals_played"].as_u64(), m["over"].as_bool(), m["over_after"].as_u64(), m["target_reached"].as_bool()), (Some(3), Some(true), Some(3), Some(false)), "{m}");
    assert_eq!(m["totals"], sheet["deals"][2]["totals"], "{sheet}");
    let top = m["totals"].as_array().unwrap().iter().map(|t| t[1].as_f64().unwrap()).fold(f64::MIN, f64::max);
    let want: Vec<Value> = m["totals"].as_array().unwrap().iter().filter(|t| t[1].as_f64() == Some(top)).map(|t| t[0].clone()).collect();
    assert_eq!(m["winners"], Value::Array(want));
    assert_eq!(m["winners"].as_array().unwrap().len() % 2, 0, "partners win together: {m}");

    // A ruleset without a match: no `match` on the sheet.
    let game = std::fs::read_to_string(root().join("fixtures/basic-partners/valid/4p-1.json")).unwrap();
    let players = serde_json::from_str::<Value>(&game).unwrap()["players"].clone();
    let other = s.post("/sessions", &json!({"name": "no match", "players": players}).to_string()).json();
    let stored = s.post("/games", &game).json();
    let r = s.post(&format!("/sessions/{}/games", other["id"].as_str().unwrap()), &json!({"game": stored["id"]}).to_string());
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.json().get("match").is_none(), "{}", r.text);
}

/// A Cego session, which only "Der Gstieß gibt ab" ends (`match { }` and a declaration `ends-match
/// after-deal-by` in `rulesets/cego.tarot`): the call made in one deal names the holder of the
/// Gstieß, the sheet says so, and the match is over after the next deal he deals, dealt in turn;
/// a deal after it belongs to no match.
#[test]
fn a_session_ends_after_the_deal_of_the_player_a_call_named() {
    let fixture = |name: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(root().join(format!("fixtures/cego/valid/{name}.json"))).unwrap()).unwrap() };
    let call = fixture("gibt-ab");
    let players: Vec<String> = call["players"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()).collect();
    let declare = call["events"].as_array().unwrap().iter().find(|e| e["type"] == "declare").unwrap().clone();
    assert_eq!(declare["declaration"], "gibt_ab", "{declare}");
    // The holder of the Gstieß, as the call's deal dealt it.
    let holder = players.iter().find(|p| call["events"][0]["hands"][p.as_str()].as_array().unwrap().iter().any(|c| c == "T22" || c == "EX")).unwrap().clone();
    // One four-player deal of each dealer, the call's deal aside: the deal passes to the next player.
    let by_dealer = |dealer: &str| -> Value {
        std::fs::read_dir(root().join("fixtures/cego/valid"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| !p.ends_with("gibt-ab.json"))
            .map(|p| serde_json::from_str::<Value>(&std::fs::read_to_string(p).unwrap()).unwrap())
            .find(|d| d["dealer"] == dealer && d["players"].as_array().unwrap().len() == 4)
            .unwrap_or_else(|| panic!("a deal by {dealer}"))
    };
    let next = |dealer: &str| players[(players.iter().position(|p| p == dealer).unwrap() + 1) % players.len()].clone();
    // The call's deal, then the deals in turn up to the holder's next, then one more.
    let mut deals = vec![call.clone()];
    let mut dealer = next(call["dealer"].as_str().unwrap());
    while dealer != holder {
        deals.push(by_dealer(&dealer));
        dealer = next(&dealer);
    }
    deals.push(by_dealer(&holder));
    deals.push(by_dealer(&next(&holder)));
    let last = deals.len() - 1;

    let s = spawn_fresh("gibt-ab", &[]);
    let session = s.post("/sessions", &json!({"name": "Der Gstieß gibt ab", "players": players}).to_string()).json();
    let session = session["id"].as_str().unwrap().to_string();
    let mut sheets = vec![];
    for deal in &deals {
        let game = s.post("/games", &deal.to_string()).json();
        let r = s.post(&format!("/sessions/{session}/games"), &json!({"game": game["id"]}).to_string());
        assert_eq!(r.status, 200, "{}", r.text);
        sheets.push(r.json());
    }
    // After the call's deal: under way, the holder named from deal 1.
    let m = &sheets[0]["match"];
    assert_eq!((m["ruleset"].as_str(), m["deals_played"].as_u64(), m["over"].as_bool()), (Some("cego"), Some(1), Some(false)), "{m}");
    assert_eq!(m["last_dealer"], json!({"player": holder, "named_in": 1}), "{m}");
    assert!(m.get("deals").is_none() && m.get("target").is_none(), "{m}");
    // Before the holder's deal: still under way.
    let m = &sheets[last - 2]["match"];
    assert_eq!(m["over"], json!(false), "{m}");
    // After it: over, the totals of those deals; the deal after it belongs to no match.
    let sheet = s.get(&format!("/sessions/{session}")).json();
    let m = &sheet["match"];
    assert_eq!((m["deals_played"].as_u64(), m["over"].as_bool(), m["over_after"].as_u64()), (Some(last as u64), Some(true), Some(last as u64)), "{m}");
    assert_eq!(m["totals"], sheet["deals"][last - 1]["totals"], "{sheet}");
    assert_ne!(m["totals"], sheet["deals"][last]["totals"], "{sheet}");
    let top = m["totals"].as_array().unwrap().iter().map(|t| t[1].as_f64().unwrap()).fold(f64::MIN, f64::max);
    let want: Vec<Value> = m["totals"].as_array().unwrap().iter().filter(|t| t[1].as_f64() == Some(top)).map(|t| t[0].clone()).collect();
    assert_eq!(m["winners"], Value::Array(want));
    // The session's page says who was named and that the match is over.
    let page = s.get(&format!("/pages/sessions/{session}")).text;
    assert!(page.contains(&format!("named <strong>{holder}</strong> to deal the last deal")), "{page}");
    assert!(page.contains(&format!("The match is over</strong> after deal {last}")), "{page}");
    // The call's deal is a Räuber, each for himself: its contract stands alone, with no taker before it.
    assert_eq!(sheet["deals"][0]["contract"], "rauber", "{sheet}");
    assert!(page.contains("<td>rauber</td>") && !page.contains("<td>: "), "{page}");
}

/// A session whose deals were played with different options (`cego-pflicht-rauber`'s evening, its
/// `round` chosen deal by deal): each deal on the sheet carries the options its record gives, and
/// none where the record chose none; the session's page shows them in the deal's row.
#[test]
fn a_session_shows_the_options_each_deal_was_played_with() {
    let s = spawn_fresh("deal-options", &[]);
    let fixture =
        |name: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(root().join(format!("fixtures/cego-pflicht-rauber/valid/{name}.json"))).unwrap()).unwrap() };
    let deals = [fixture("4p-1"), fixture("pflicht-30")];
    assert!(deals[0].get("options").is_none() && deals[1]["options"] == json!({"round": "pflicht-rauber"}));
    let session = s.post("/sessions", &json!({"name": "Evening", "players": deals[0]["players"]}).to_string()).json();
    let session = session["id"].as_str().unwrap().to_string();
    for d in &deals {
        let r = s.post(&format!("/sessions/{session}/games"), &json!({"game": s.post("/games", &d.to_string()).json()["id"]}).to_string());
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let sheet = s.get(&format!("/sessions/{session}")).json();
    assert!(sheet["deals"][0].get("options").is_none(), "{sheet}");
    assert_eq!(sheet["deals"][1]["options"], json!({"round": "pflicht-rauber"}), "{sheet}");
    let page = s.get(&format!("/pages/sessions/{session}")).text;
    let rows: Vec<&str> = page.split("<tr class=\"deal\"").skip(1).map(|r| &r[..r.find("</tr>").unwrap()]).collect();
    assert_eq!(rows.len(), 2, "{page}");
    assert!(!rows[0].contains("deal-options"), "{}", rows[0]);
    assert!(rows[1].contains("<span class=\"deal-options\">round = pflicht-rauber</span>"), "{}", rows[1]);
}

/// A session of Grosstarock deals, whose pots (the King and Pagat pots) each deal carries from the one
/// before: the score sheet gives each deal's pots and counts them in `balanced`; a deal that does not
/// carry them on is refused (409, `does_not_follow` naming the pot, the amount left and the amount
/// carried), and the session keeps the deals before it.
#[test]
fn a_session_refuses_a_deal_whose_pots_do_not_follow() {
    let s = spawn_fresh("pots", &[]);
    for (name, refused) in [("follow", false), ("broken", true)] {
        let deal = |k: usize| std::fs::read_to_string(root().join(format!("fixtures/grosstarock/sessions/{name}/deal-{k}.json"))).unwrap();
        let players = serde_json::from_str::<Value>(&deal(1)).unwrap()["players"].clone();
        let session = s.post("/sessions", &json!({"name": name, "players": players}).to_string()).json();
        let session = session["id"].as_str().unwrap().to_string();
        for k in 1..=3 {
            let game = s.post("/games", &deal(k)).json();
            let r = s.post(&format!("/sessions/{session}/games"), &json!({"game": game["id"]}).to_string());
            if refused && k == 3 {
                assert_eq!(r.status, 409, "{}", r.text);
                assert!(r.content_type.starts_with("application/problem+json"), "{}", r.content_type);
                let p = r.json();
                assert_eq!(p["does_not_follow"], json!({"deal": 3, "pot": "king", "expected": 0, "given": 75}), "{p}");
                assert!(p["detail"].as_str().unwrap().contains("cannot be deal 3 of session"), "{p}");
                assert!(p["detail"].as_str().unwrap().contains("deal 3 carries the King pot at 75, but deal 2 closed it at 0"), "{p}");
            } else {
                assert_eq!(r.status, 200, "{}", r.text);
            }
        }
        let sheet = s.get(&format!("/sessions/{session}")).json();
        assert_eq!(sheet["deals"].as_array().unwrap().len(), if refused { 2 } else { 3 }, "{sheet}");
        for d in sheet["deals"].as_array().unwrap() {
            assert_eq!(d["balanced"], json!(true), "{d}");
        }
        assert_eq!(sheet["deals"][1]["pots"][0], json!({"pot": "king", "carried": 75, "closing": 0}), "{sheet}");
        assert!(sheet.get("pots_error").is_none(), "{sheet}");
    }
}

/// A session of Troccas deals, whose rules read the match so far (`carried(p)`: a side owing nine or
/// more may ask for the cards nine and ten): each deal's `standing` must be each player's total of the
/// deals before it; a deal whose standing is not is refused (409, `does_not_follow` naming the player,
/// the total and the standing given), as is a first deal that carries any.
#[test]
fn a_session_refuses_a_deal_whose_standing_does_not_follow() {
    let s = spawn_fresh("standing", &[]);
    let fixture = |name: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(root().join(format!("fixtures/troccas/valid/{name}.json"))).unwrap()).unwrap() };
    let mut follows = fixture("4p-2");
    // 4p-1 scores Ann and Cid 4, Bob and Dan -4.
    follows["standing"] = json!({"Ann": 4, "Bob": -4, "Cid": 4, "Dan": -4});
    let players = fixture("4p-1")["players"].clone();
    let add = |session: &str, deal: &Value| {
        let game = s.post("/games", &deal.to_string()).json();
        s.post(&format!("/sessions/{session}/games"), &json!({"game": game["id"]}).to_string())
    };
    for (name, second, refusal) in [
        ("follows", follows, None),
        (
            "broken",
            fixture("asked-nines-and-tens"),
            Some((json!({"deal": 2, "player": "Ann", "expected": 4, "given": 12}), "deal 2 says Ann carries 12 from the match, but the deals before it add up to 4")),
        ),
    ] {
        let session = s.post("/sessions", &json!({"name": name, "players": players}).to_string()).json();
        let session = session["id"].as_str().unwrap().to_string();
        let r = add(&session, &fixture("4p-1"));
        assert_eq!(r.status, 200, "{}", r.text);
        let r = add(&session, &second);
        match &refusal {
            None => assert_eq!(r.status, 200, "{}", r.text),
            Some((what, detail)) => {
                assert_eq!(r.status, 409, "{}", r.text);
                let p = r.json();
                assert_eq!(&p["does_not_follow"], what, "{p}");
                assert!(p["detail"].as_str().unwrap().contains(detail), "{p}");
            }
        }
        let sheet = s.get(&format!("/sessions/{session}")).json();
        assert_eq!(sheet["deals"].as_array().unwrap().len(), if refusal.is_some() { 1 } else { 2 }, "{sheet}");
        assert!(sheet.get("standing_error").is_none(), "{sheet}");
    }
    // A first deal carries nothing from the match.
    let session = s.post("/sessions", &json!({"name": "late", "players": players}).to_string()).json();
    let r = add(session["id"].as_str().unwrap(), &fixture("asked-nines-and-tens"));
    assert_eq!(r.status, 409, "{}", r.text);
    assert_eq!(r.json()["does_not_follow"], json!({"deal": 1, "player": "Ann", "expected": 0, "given": 12}), "{}", r.text);
}

/// Two deals POSTed to one session at once, each of which would follow its first deal alone (the
/// same standing carried): one is added, the other refused with a 409 (the store's guard, `conflict`,
/// when both were checked against one deal; `does-not-follow` when it was checked after the other
/// was added), never both; the session holds two deals, the winner second, and its sheet reports
/// no standing error. Eight rounds, each on a session of its own, the two requests released together.
#[test]
fn two_deals_posted_at_once_to_one_session_add_one() {
    let s = spawn_fresh("race", &[]);
    let fixture = |name: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(root().join(format!("fixtures/troccas/valid/{name}.json"))).unwrap()).unwrap() };
    let players = fixture("4p-1")["players"].clone();
    // 4p-1 scores Ann and Cid 4, Bob and Dan -4: a second deal carries that standing.
    let standing = json!({"Ann": 4, "Bob": -4, "Cid": 4, "Dan": -4});
    for round in 0..8 {
        let store = |mut game: Value, what: &str| -> String {
            game["description"] = format!("race {round}: {what}").into();
            let r = s.post("/games", &game.to_string());
            assert!(r.status == 200 || r.status == 201, "{}", r.text);
            r.json()["id"].as_str().unwrap().to_string()
        };
        let first = store(fixture("4p-1"), "the first deal");
        let mut a = fixture("4p-2");
        a["standing"] = standing.clone();
        let mut b = fixture("4p-1");
        b["standing"] = standing.clone();
        let seconds = [store(a, "a second deal"), store(b, "another second deal")];
        let session = s.post("/sessions", &json!({"name": format!("race {round}"), "players": players}).to_string()).json()["id"].as_str().unwrap().to_string();
        let path = format!("/sessions/{session}/games");
        assert_eq!(s.post(&path, &json!({"game": first}).to_string()).status, 200);
        let gate = std::sync::Barrier::new(2);
        let replies: Vec<common::Reply> = std::thread::scope(|scope| {
            let posts: Vec<_> = seconds
                .iter()
                .map(|game| {
                    let (gate, path, url) = (&gate, &path, s.url(""));
                    scope.spawn(move || {
                        let body = json!({"game": game}).to_string();
                        gate.wait();
                        let r = ureq::post(&format!("{url}{path}")).set("Content-Type", "application/json").send_string(&body);
                        match r {
                            Ok(r) => (r.status(), r.into_string().unwrap()),
                            Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap()),
                            Err(e) => panic!("{e}"),
                        }
                    })
                })
                .collect();
            posts
                .into_iter()
                .map(|p| p.join().unwrap())
                .map(|(status, text)| common::Reply { status, content_type: String::new(), location: None, retry_after: None, text })
                .collect()
        });
        let mut statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
        statuses.sort();
        assert_eq!(statuses, [200, 409], "round {round}: {:?}", replies.iter().map(|r| &r.text).collect::<Vec<_>>());
        let lost = replies.iter().find(|r| r.status == 409).unwrap().json();
        assert!(matches!(lost["type"].as_str().unwrap_or(""), t if t.ends_with("conflict") || t.ends_with("does-not-follow")), "round {round}: {lost}");
        eprintln!("round {round}: the loser's 409 is {}", lost["type"]);
        let won = seconds[replies.iter().position(|r| r.status == 200).unwrap()].clone();
        let sheet = s.get(&format!("/sessions/{session}")).json();
        let games: Vec<&str> = sheet["deals"].as_array().unwrap().iter().map(|d| d["game"].as_str().unwrap()).collect();
        assert_eq!(games, [first.as_str(), won.as_str()], "round {round}: {sheet}");
        assert!(sheet.get("standing_error").is_none(), "round {round}: {sheet}");
    }
}

/// A session stored before deals were checked on their way in may hold a deal that does not
/// carry on the pots: its sheet still says where (`pots_error`), which no session stored since can
/// show. Made here by adding the broken third deal through the store itself, the server stopped.
#[test]
fn a_session_stored_before_the_check_still_reports_its_broken_pots() {
    let dir = temp_dir("before-the-check");
    let deal = |k: usize| std::fs::read_to_string(root().join(format!("fixtures/grosstarock/sessions/broken/deal-{k}.json"))).unwrap();
    let s = common::spawn(&dir, &[]);
    let players = serde_json::from_str::<Value>(&deal(1)).unwrap()["players"].clone();
    let session = s.post("/sessions", &json!({"name": "before the check", "players": players}).to_string()).json()["id"].as_str().unwrap().to_string();
    let games: Vec<String> = (1..=3).map(|k| s.post("/games", &deal(k)).json()["id"].as_str().unwrap().to_string()).collect();
    for (k, game) in games.iter().enumerate() {
        let r = s.post(&format!("/sessions/{session}/games"), &json!({"game": game}).to_string());
        assert_eq!(r.status, if k == 2 { 409 } else { 200 }, "{}", r.text);
    }
    assert!(s.get(&format!("/sessions/{session}")).json().get("pots_error").is_none());
    assert!(s.stop().success());
    let store = tarot_store::Store::open(&dir).unwrap();
    store.add_to_session(&session, &tarot_store::GameId(games[2].clone()), None).unwrap();
    drop(store);
    let s = common::spawn(&dir, &[]);
    let sheet = s.get(&format!("/sessions/{session}")).json();
    assert_eq!(sheet["deals"].as_array().unwrap().len(), 3, "{sheet}");
    let error = sheet["pots_error"].as_str().unwrap_or_else(|| panic!("no pots_error: {sheet}"));
    assert!(error.contains("deal 3 carries the King pot at 75, but deal 2 closed it at 0"), "{error}");
    assert!(sheet.get("standing_error").is_none(), "{sheet}");
}

/// The FFT rulebook's score sheet, whose deals are dealt in turn (DURAND, DESPRES, DUPONT, DUBOIS:
/// `deal { next_dealer = "first-hand" }`): its third deal offered second, dealt by DUPONT where
/// DESPRES was due, is refused (409, `does_not_follow` naming the dealer and the player due, the
/// detail the rule and its source), and the session keeps the deal before it; the second deal then
/// follows. A deal out of turn added through the store itself, the server stopped (a session stored
/// before the check), is named on the sheet (`dealer_error`).
#[test]
fn a_session_refuses_a_deal_dealt_by_the_wrong_player() {
    let dir = temp_dir("dealer");
    let deal = |k: usize| std::fs::read_to_string(root().join(format!("fixtures/worked/fft-deal{k}.json"))).unwrap();
    let s = common::spawn(&dir, &[]);
    let players = serde_json::from_str::<Value>(&deal(1)).unwrap()["players"].clone();
    let session = s.post("/sessions", &json!({"name": "Table 3", "players": players}).to_string()).json()["id"].as_str().unwrap().to_string();
    let games: Vec<String> = (1..=3).map(|k| s.post("/games", &deal(k)).json()["id"].as_str().unwrap().to_string()).collect();
    let add = |game: &str| s.post(&format!("/sessions/{session}/games"), &json!({"game": game}).to_string());
    assert_eq!(add(&games[0]).status, 200);
    let r = add(&games[2]);
    assert_eq!(r.status, 409, "{}", r.text);
    let p = r.json();
    assert_eq!(p["type"], "urn:tarot-archive:problem:does-not-follow", "{p}");
    assert_eq!(p["does_not_follow"], json!({"deal": 2, "dealer": "DUPONT", "due": "DESPRES"}), "{p}");
    let detail = p["detail"].as_str().unwrap();
    assert!(
        detail.contains(r#"deal 2 is dealt by DUPONT, but DESPRES was due to deal it: after deal 1, the deal passes from DURAND to the next player in the direction of play (rule deal.next_dealer, source FFT "La distribution")"#),
        "{detail}"
    );
    assert_eq!(s.get(&format!("/sessions/{session}")).json()["deals"].as_array().unwrap().len(), 1);
    assert_eq!(add(&games[1]).status, 200);
    let sheet = s.get(&format!("/sessions/{session}")).json();
    assert_eq!(sheet["deals"].as_array().unwrap().len(), 2, "{sheet}");
    assert!(sheet.get("dealer_error").is_none(), "{sheet}");

    // The first deal again, dealt by DURAND where DUPONT is due, past the check.
    let mut again: Value = serde_json::from_str(&deal(1)).unwrap();
    again["description"] = "the first deal once more".into();
    let again = s.post("/games", &again.to_string()).json()["id"].as_str().unwrap().to_string();
    assert!(s.stop().success());
    let store = tarot_store::Store::open(&dir).unwrap();
    store.add_to_session(&session, &tarot_store::GameId(again), None).unwrap();
    drop(store);
    let s = common::spawn(&dir, &[]);
    let sheet = s.get(&format!("/sessions/{session}")).json();
    assert_eq!(sheet["deals"].as_array().unwrap().len(), 3, "{sheet}");
    let error = sheet["dealer_error"].as_str().unwrap_or_else(|| panic!("no dealer_error: {sheet}"));
    assert!(error.starts_with("deal 3 is dealt by DURAND, but DUPONT was due to deal it: after deal 2, the deal passes from DESPRES"), "{error}");
    assert!(sheet.get("pots_error").is_none() && sheet.get("standing_error").is_none(), "{sheet}");
}

/// A session's running totals are numbers the archive keeps exact: a deal that would carry one past
/// them is refused (422, `total-too-large`) before it is stored, so that the sheet can always be added
/// up. Dobbm's game doubles with each Schwacher and Retour, up to the 48 made again that a deal may
/// hold: at the highest stake, twenty such deals bring a defender near the limit, the twenty-first
/// would pass it.
#[test]
fn a_session_refuses_a_deal_that_would_carry_a_total_past_exact_numbers() {
    let base: Value = serde_json::from_str(&std::fs::read_to_string(root().join("fixtures/dobbm/valid/retour-twice.json")).unwrap()).unwrap();
    // After the defenders' Schwacher, 48 Retours in turn, the declarer's (Cid's) and Dan's, at a stake.
    let doubled = |stake: u64| {
        let mut game = base.clone();
        let events = game["events"].as_array().unwrap();
        let declared: Vec<usize> = events.iter().enumerate().filter(|(_, e)| e["type"] == "declare").map(|(i, _)| i).collect();
        let (first, last) = (declared[0], declared[declared.len() - 1]);
        let retours = (0..48).map(|k| {
            let (player, declaration) = if k % 2 == 0 { ("Cid", "retour") } else { ("Dan", "gegenretour") };
            json!({"type": "declare", "player": player, "declaration": declaration, "cards": []})
        });
        let events: Vec<Value> = events[..=first].iter().cloned().chain(retours).chain(events[last + 1..].iter().cloned()).collect();
        game["events"] = Value::Array(events);
        game["options"] = json!({"stake": stake});
        game
    };
    // Each deal moved k places on: its declarer sits after its dealer and deals next
    // (deal.next_dealer), so the deal moved k places follows the one moved k - 1.
    let dir = temp_dir("total-too-large");
    let s = common::spawn(&dir, &[]);
    let session = s.post("/sessions", &json!({"name": "Dobbm, doubled", "players": base["players"]}).to_string()).json()["id"].as_str().unwrap().to_string();
    // Ann, the first player, declares (and loses) in the deal moved two places: at the lowest stake.
    let (high, low) = (doubled(240), doubled(6));
    let mut refused = None;
    for n in 0..24 {
        let game = seats_moved(if n % 4 == 2 { &low } else { &high }, n % 4);
        let stored = s.post("/games", &game.to_string());
        assert_eq!(stored.status, 201, "{}", stored.text);
        let r = s.post(&format!("/sessions/{session}/games"), &json!({"game": stored.json()["id"]}).to_string());
        if r.status != 200 {
            refused = Some((n + 1, r, stored.json()["id"].as_str().unwrap().to_string()));
            break;
        }
    }
    let (deal, r, game) = refused.expect("a deal refused");
    assert_eq!((deal, r.status), (21, 422), "{}", r.text);
    let p = r.json();
    assert_eq!(p["type"], "urn:tarot-archive:problem:total-too-large", "{p}");
    assert!(p["detail"].as_str().unwrap().contains(&format!("cannot be deal 21 of session {session}: Ann's running total ")), "{p}");
    let sheet = s.get(&format!("/sessions/{session}"));
    assert_eq!(sheet.status, 200, "{}", sheet.text);
    assert_eq!(sheet.json()["deals"].as_array().unwrap().len(), 20);
    assert_eq!(s.get(&format!("/pages/sessions/{session}")).status, 200);
    let before = sheet.json()["totals"].clone();

    // The same deal added through the store itself, the server stopped (a session stored before the
    // check): the sheet still answers, its totals stopping before deal 21, which it names.
    assert!(s.stop().success());
    let store = tarot_store::Store::open(&dir).unwrap();
    store.add_to_session(&session, &tarot_store::GameId(game), None).unwrap();
    drop(store);
    let s = common::spawn(&dir, &[]);
    let r = s.get(&format!("/sessions/{session}"));
    assert_eq!(r.status, 200, "{}", r.text);
    let sheet = r.json();
    assert_eq!(sheet["deals"].as_array().unwrap().len(), 21, "{sheet}");
    let error = sheet["totals_error"].as_str().unwrap_or_else(|| panic!("no totals_error: {sheet}"));
    assert!(error.starts_with("deal 21: Ann's running total ") && error.ends_with("the totals stop at deal 20"), "{error}");
    assert_eq!(sheet["totals"], before, "{sheet}");
    let page = s.get(&format!("/pages/sessions/{session}"));
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("the totals stop at deal 20"), "{}", page.text);
}

/// A deal thrown in that the rules pay for (Dobbm at five: everyone passed, and the new dealer has a
/// Stockerl from each other player, `all-pass pay`): the session's sheet shows it annulled, with its
/// scores, balanced, in the running totals.
#[test]
fn a_session_scores_a_deal_thrown_in_and_paid_for() {
    let s = spawn_fresh("stockerl", &[]);
    let game = std::fs::read_to_string(root().join("fixtures/dobbm/annulled/bidding.all-pass--stockerl-5p.json")).unwrap();
    let players = serde_json::from_str::<Value>(&game).unwrap()["players"].clone();
    let session = s.post("/sessions", &json!({"name": "thrown in", "players": players}).to_string()).json();
    let stored = s.post("/games", &game).json();
    let r = s.post(&format!("/sessions/{}/games", session["id"].as_str().unwrap()), &json!({"game": stored["id"]}).to_string());
    assert_eq!(r.status, 200, "{}", r.text);
    let sheet = r.json();
    let deal = &sheet["deals"][0];
    assert_eq!(deal["status"], json!("annulled"), "{sheet}");
    assert_eq!(deal["balanced"], json!(true), "{sheet}");
    let scores: Vec<f64> = deal["scores"].as_array().unwrap().iter().map(|t| t[1].as_f64().unwrap()).collect();
    let mut sorted = scores.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(sorted, vec![-10.0, -10.0, -10.0, -10.0, 40.0], "{sheet}");
    assert_eq!(sheet["totals"], deal["scores"], "{sheet}");
}

/// A session whose deals are of different rulesets, or of one ruleset with different options: each
/// deal is asked under its own rules and options who deals after it, which pots and standing it
/// carries; the match is read only over deals of the first deal's ruleset (`not_a_match` says why
/// not). Cego: after Bob's deal of the Pflicht-Räuber round (its `round` an option cego-pagat lacks),
/// Cid is due, not Ann. FFT at five: after a deal of fft-5p-mort thrown in, its dealer deals again.
/// Grosstarock's pots and Troccas's standing run across a deal of another ruleset.
#[test]
fn a_session_of_mixed_rulesets_reads_each_deal_under_its_own_rules() {
    let s = spawn_fresh("mixed", &[]);
    let fixture = |path: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(root().join("fixtures").join(path)).unwrap()).unwrap() };
    let open = |deals: &[Value]| -> String {
        let session = s.post("/sessions", &json!({"name": "mixed", "players": deals[0]["players"]}).to_string()).json();
        let session = session["id"].as_str().unwrap().to_string();
        for d in deals {
            let r = s.post(&format!("/sessions/{session}/games"), &json!({"game": s.post("/games", &d.to_string()).json()["id"]}).to_string());
            assert_eq!(r.status, 200, "{}", r.text);
        }
        session
    };
    let add = |session: &str, deal: &Value| {
        let game = s.post("/games", &deal.to_string()).json();
        s.post(&format!("/sessions/{session}/games"), &json!({"game": game["id"]}).to_string())
    };

    // Cego: Ann's cego-pagat deal, Bob's of the round; then Ann's is refused, Cid being due.
    let cego = open(&[fixture("cego-pagat/valid/4p-1.json"), fixture("cego-pflicht-rauber/valid/pflicht-30.json")]);
    let r = add(&cego, &fixture("cego-pagat/valid/4p-2.json"));
    assert_eq!(r.status, 409, "{}", r.text);
    assert_eq!(r.json()["does_not_follow"], json!({"deal": 3, "dealer": "Ann", "due": "Cid"}), "{}", r.text);
    let sheet = s.get(&format!("/sessions/{cego}")).json();
    assert_eq!(sheet["deals"].as_array().unwrap().len(), 2, "{sheet}");
    assert!(sheet.get("match").is_none(), "{sheet}");
    let why = sheet["not_a_match"].as_str().unwrap_or_else(|| panic!("no not_a_match: {sheet}"));
    assert!(why.starts_with("deal 2 is of cego-pflicht-rauber, deal 1 of cego-pagat"), "{why}");
    let page = s.get(&format!("/pages/sessions/{cego}")).text;
    assert!(page.contains("No match is read: deal 2 is of cego-pflicht-rauber"), "{page}");
    // One ruleset, the round's option changing from deal to deal: one match, under it.
    let evening = open(&[fixture("cego-pflicht-rauber/valid/4p-1.json"), fixture("cego-pflicht-rauber/valid/pflicht-30.json")]);
    let sheet = s.get(&format!("/sessions/{evening}")).json();
    assert_eq!((sheet["match"]["ruleset"].as_str(), sheet["match"]["deals_played"].as_u64()), (Some("cego-pflicht-rauber"), Some(2)), "{sheet}");
    assert!(sheet.get("not_a_match").is_none(), "{sheet}");

    // FFT at five: Eve's fft-5p deal thrown in, then Ann's fft-5p-mort deal thrown in: Ann deals again.
    let fft = open(&[fixture("fft-5p/annulled/annul.petit_first_packet.json"), fixture("fft-5p-mort/annulled/bidding.all-pass.json")]);
    let r = add(&fft, &fixture("fft-5p-mort/valid/5p-1.json"));
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.json().get("dealer_error").is_none(), "{}", r.text);

    // Grosstarock's pots across a deal of Scarto, which keeps none: deal 3 carries what deal 1 left.
    let pots = open(&[fixture("grosstarock/sessions/follow/deal-1.json"), fixture("scarto/valid/3p-1.json"), fixture("grosstarock/sessions/follow/deal-2.json")]);
    let sheet = s.get(&format!("/sessions/{pots}")).json();
    assert!(sheet.get("pots_error").is_none() && sheet.get("match").is_none(), "{sheet}");
    let mut off = fixture("grosstarock/sessions/follow/deal-2.json");
    off["pots"]["king"] = json!(76);
    let again = open(&[fixture("grosstarock/sessions/follow/deal-1.json"), fixture("scarto/valid/3p-1.json")]);
    let r = add(&again, &off);
    assert_eq!(r.status, 409, "{}", r.text);
    assert_eq!(r.json()["does_not_follow"], json!({"deal": 3, "pot": "king", "expected": 75, "given": 76}), "{}", r.text);

    // Troccas's standing after a Cego deal: the total of both deals before it; a Cego deal after a
    // Troccas deal carries none. Troccas 4p-1 scores Ann and Cid 4, Bob and Dan -4; cego-pagat 4p-1
    // Ann, Bob and Cid 105, Dan -315. Bob deals after Ann's Cego deal.
    let standing = open(&[fixture("troccas/valid/4p-1.json"), fixture("cego-pagat/valid/4p-1.json")]);
    let mut third = fixture("troccas/valid/4p-2.json");
    third["standing"] = json!({"Ann": 50, "Bob": 101, "Cid": 109, "Dan": -319});
    let mut third = seats_moved(&third, 1);
    assert_eq!(third["dealer"], "Bob");
    let r = add(&standing, &third);
    assert_eq!(r.status, 409, "{}", r.text);
    assert_eq!(r.json()["does_not_follow"], json!({"deal": 3, "player": "Ann", "expected": 109, "given": 50}), "{}", r.text);
    third["standing"]["Ann"] = json!(109);
    let r = add(&standing, &third);
    assert_eq!(r.status, 200, "{}", r.text);
    let sheet = r.json();
    assert!(sheet.get("standing_error").is_none() && sheet.get("dealer_error").is_none(), "{sheet}");
    assert!(sheet["not_a_match"].as_str().unwrap().starts_with("deal 2 is of cego-pagat, which plays a match, but deal 1 is of troccas"), "{sheet}");
}

/// The same game with every seat moved `k` places on round the table: the dealer, each event's
/// player, the hands and the packets' players.
fn seats_moved(game: &Value, k: usize) -> Value {
    let players: Vec<String> = game["players"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()).collect();
    let to = |name: &str| players[(players.iter().position(|p| p == name).unwrap() + k) % players.len()].clone();
    let mut game = game.clone();
    game["dealer"] = json!(to(game["dealer"].as_str().unwrap()));
    for e in game["events"].as_array_mut().unwrap() {
        if let Some(p) = e.get("player").and_then(Value::as_str) {
            e["player"] = json!(to(p));
        }
        if let Some(hands) = e.get("hands").and_then(Value::as_object) {
            e["hands"] = Value::Object(hands.iter().map(|(p, h)| (to(p), h.clone())).collect());
        }
        for packet in e.get_mut("packets").and_then(Value::as_array_mut).into_iter().flatten() {
            if let Some(p) = packet.get("to").and_then(Value::as_str) {
                packet["to"] = json!(to(p));
            }
        }
    }
    game
}
