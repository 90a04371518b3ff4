//! Numbers in a record never wrap, never panic (issue 26, section 2). A record's amounts (`pots`,
//! `standing`) are bounded when it is read (`record::AMOUNT_LIMIT`), arithmetic on figures is checked
//! (`num::Q::checked_*`), and a formula that still leaves the range is an error naming its rule.
//!
//! - `a_pot_past_the_bound_is_refused`, `a_standing_past_the_bound_is_refused`: the Grosstarock record
//!   whose King pot was i64::MAX was valid with the pot wrapped to about -9.2·10^18 (release) or
//!   panicked (debug).
//! - `amounts_at_the_bound_are_scored_exactly`: the largest amounts a record may carry are scored
//!   to the last point.
//! - `a_formula_past_the_range_names_its_rule`: a rule multiplying two large amounts.
//! - `mutated_records_never_panic_nor_wrap`: seeded mutations of every valid fixture (amounts at and
//!   past every edge, names, card codes, events reordered, doubled, dropped); `TAROT_MUTATIONS=N`
//!   runs N records instead of the default.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value as Json};
use tarot_engine::ir::Ruleset;
use tarot_engine::Figure;
use tarot_engine::AMOUNT_LIMIT;
use tarot_engine::Q;
use tarot_engine::{parse_record, replay, GameRecord, Registry, Verdict};

fn fixture(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The record of `rel` with `field` (`pots` or `standing`) set to `{name: amount}`, as text.
fn with_amount(rel: &str, field: &str, name: &str, amount: Json) -> String {
    let mut v: Json = serde_json::from_str(&fixture(rel)).unwrap();
    v[field] = json!({ name: amount });
    serde_json::to_string_pretty(&v).unwrap()
}

#[test]
fn a_pot_past_the_bound_is_refused() {
    let registry = tarot_testkit::registry();
    let rules = registry.get("grosstarock").unwrap();
    for amount in [json!(i64::MAX), json!(i64::MIN), json!(u64::MAX), json!(AMOUNT_LIMIT + 1), json!(-AMOUNT_LIMIT - 1)] {
        // Read from JSON (the quick reader gives up, serde_json says where and why).
        let text = with_amount("grosstarock/valid/3p-1.json", "pots", "king", amount.clone());
        let e = parse_record(&text).unwrap_err();
        assert!(e.contains("at `pots.king`") && e.contains(&AMOUNT_LIMIT.to_string()), "{amount}: {e}");
        // Made in code: replay refuses it all the same, before any event.
        if let Some(amount) = amount.as_i64() {
            let mut rec: GameRecord = parse_record(&fixture("grosstarock/valid/3p-1.json")).unwrap();
            rec.pots.insert("king".into(), amount);
            let e = replay(rules, &rec).unwrap_err();
            assert_eq!(e.event, None);
            assert!(e.message.contains("`pots.king`") && e.message.contains(&AMOUNT_LIMIT.to_string()), "{amount}: {e}");
        }
    }
}

#[test]
fn a_standing_past_the_bound_is_refused() {
    let registry = tarot_testkit::registry();
    let rules = registry.get("tarocchini").unwrap();
    let rel = first_valid("tarocchini");
    let mut rec: GameRecord = parse_record(&fixture(&rel)).unwrap();
    let player = rec.players[0].clone();
    for amount in [json!(i64::MAX), json!(i64::MIN), json!(u64::MAX), json!(AMOUNT_LIMIT + 1)] {
        let e = parse_record(&with_amount(&rel, "standing", &player, amount.clone())).unwrap_err();
        assert!(e.contains(&format!("at `standing.{player}`")) && e.contains(&AMOUNT_LIMIT.to_string()), "{amount}: {e}");
    }
    rec.standing.insert(player.clone(), i64::MIN);
    let e = replay(rules, &rec).unwrap_err();
    assert!(e.message.contains(&format!("`standing.{player}`")), "{e}");
}

/// The first valid fixture of a ruleset, as a path under `fixtures/`.
fn first_valid(ruleset: &str) -> String {
    let files = tarot_testkit::fixture_files(ruleset, "valid");
    format!("{ruleset}/valid/{}", files[0].file_name().unwrap().to_string_lossy())
}

#[test]
fn amounts_at_the_bound_are_scored_exactly() {
    let registry = tarot_testkit::registry();
    let rules = registry.get("grosstarock").unwrap();
    let mut paid = 0;
    for rel in ["grosstarock/valid/3p-1.json", "grosstarock/valid/3p-2.json", "grosstarock/valid/4p-1.json"] {
        for amount in [AMOUNT_LIMIT, -AMOUNT_LIMIT, AMOUNT_LIMIT - 1] {
            let text = format!(r#"{{"king": {amount}, "pagat": {amount}}}"#);
            let mut v: Json = serde_json::from_str(&fixture(rel)).unwrap();
            v["pots"] = serde_json::from_str(&text).unwrap();
            let rec = parse_record(&v.to_string()).unwrap();
            let verdict = replay(rules, &rec).unwrap();
            assert_eq!(verdict.status, tarot_engine::Status::Valid, "{rel}: {}", verdict.to_text());
            check_verdict(rules, &rec, &verdict).unwrap_or_else(|e| panic!("{rel} at {amount}: {e}\n{}", verdict.to_text()));
            let pots = &verdict.outcome.as_ref().unwrap().pots;
            assert!(pots.iter().all(|p| p.carried == Q::int(amount)), "{rel}");
            paid += pots.iter().filter(|p| p.closing != p.carried).count();
        }
    }
    assert!(paid > 0, "some deal pays into or out of a pot");
}

/// Two kitties past the range, over Basic Tarot: one staked at the square of what it carried (at
/// the bound, 10^24), one staked 10^18 a player and then doubled by each player in turn, whose sum
/// wrapped (release) or panicked (debug) before pots were added up with checks.
const KITTIES: [(&str, &str); 2] = [
    (
        "squared-kitty",
        r#"ruleset squared-kitty "Basic Tarot with a kitty staked at its square"
extends basic

pot kitty "the kitty"

score {
  without standing
  without winner
  pay players to pot.kitty "stake" = pot.kitty.carried * pot.kitty.carried
  pay players to players "card points" = (points(payee) - points(payer)) / 2
}
"#,
    ),
    (
        "doubled-kitty",
        r#"ruleset doubled-kitty "Basic Tarot with a kitty staked high and doubled"
extends basic

pot kitty "the kitty"

score {
  without standing
  without winner
  pay players to pot.kitty "stake" = if pot.kitty.carried == 0 then 1000000000000000 * 1000 else 1
  pay players to pot.kitty "doubling" = pot.kitty
  pay players to players "card points" = (points(payee) - points(payer)) / 2
}
"#,
    ),
];

#[test]
fn a_formula_past_the_range_names_its_rule() {
    let mut files = Registry::builtin_files();
    for (id, text) in KITTIES {
        files.insert(id.into(), tarot_engine::RuleFile { path: format!("rulesets/{id}.tarot"), text: text.into() });
    }
    let registry = Registry::from_files(files).unwrap_or_else(|d| panic!("{d}"));
    let record = |id: &str, kitty: i64| {
        let mut rec: GameRecord = parse_record(&fixture("basic/valid/3p-1.json")).unwrap();
        rec.ruleset = id.into();
        rec.pots.insert("kitty".into(), kitty);
        (registry.get(id).unwrap(), rec)
    };
    // A thousand squared is kept; the bound squared is the rule's error, not a wrapped stake.
    let (rules, rec) = record("squared-kitty", 1_000);
    let v = replay(rules, &rec).unwrap();
    check_verdict(rules, &rec, &v).unwrap();
    assert_eq!(v.outcome.as_ref().unwrap().pots[0].closing, Q::int(1_000 + 3 * 1_000_000), "{}", v.to_text());
    let (rules, rec) = record("squared-kitty", AMOUNT_LIMIT);
    // The rule's error, the ruleset's fault (not the record's): it names the rule and where it is.
    let e = replay(rules, &rec).unwrap_err();
    let fault = e.ruleset_fault.as_ref().unwrap_or_else(|| panic!("{e}"));
    assert_eq!((fault.rule.as_deref(), fault.at.as_deref()), (Some("score.pay.stake"), Some("rulesets/squared-kitty.tarot:9")), "{e}");
    assert!(e.to_string().ends_with("1000000000000 * 1000000000000 is too large a number to keep exact"), "{e}");
    // A stake of 1 doubled by three players is 8 times the kitty and the stakes; 10^18 staked by
    // two players is already past the range.
    let (rules, rec) = record("doubled-kitty", 5);
    let v = replay(rules, &rec).unwrap();
    check_verdict(rules, &rec, &v).unwrap();
    assert_eq!(v.outcome.as_ref().unwrap().pots[0].closing, Q::int(8 * (5 + 3)), "{}", v.to_text());
    let (rules, rec) = record("doubled-kitty", 0);
    let e = replay(rules, &rec).unwrap_err();
    let fault = e.ruleset_fault.as_ref().unwrap_or_else(|| panic!("{e}"));
    assert_eq!((fault.rule.as_deref(), fault.at.as_deref()), (Some("score.pay.stake"), Some("rulesets/doubled-kitty.tarot:9")), "{e}");
    assert!(e.to_string().contains("pot.kitty holding 1000000000000000000 + 1000000000000000000"), "{e}");
}

/// A figure of a verdict as an exact fraction in 128 bits, where no sum of a deal's figures wraps.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Wide(i128, i128);

impl Wide {
    fn of(q: Q) -> Wide {
        Wide(q.numer() as i128, q.denom() as i128)
    }
    fn plus(self, o: Wide) -> Wide {
        let (n, d) = (self.0 * o.1 + o.0 * self.1, self.1 * o.1);
        let g = gcd(n, d);
        Wide(n / g, d / g)
    }
    fn neg(self) -> Wide {
        Wide(-self.0, self.1)
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// The amounts a record carries, in magnitude, added up.
fn carried_magnitude(rec: &GameRecord) -> i128 {
    rec.pots.values().chain(rec.standing.values()).map(|v| (*v as i128).abs()).sum()
}

/// What a verdict must be, whatever the record: no figure far beyond what the record's amounts and a
/// deal's own figures (a few thousand points) can make, and, for a ruleset settled by payments,
/// every player's score and every pot's closing what the ledger's payments make of them, worked out
/// here in 128 bits: a figure that had wrapped could not agree.
fn check_verdict(rules: &Ruleset, rec: &GameRecord, v: &Verdict) -> Result<(), String> {
    let bound = 1_000 * (1_000_000 + carried_magnitude(rec));
    let mut figures: Vec<(String, Q)> = v.ledger.iter().map(|l| (format!("ledger {} ({})", l.label, l.rule), l.amount)).collect();
    if let Some(o) = &v.outcome {
        figures.extend(o.players.iter().flat_map(|p| [(format!("{}'s score", p.player), p.score), (format!("{}'s card points", p.player), p.card_points)]));
        figures.extend(o.pots.iter().flat_map(|p| [(format!("pot {} carried", p.pot), p.carried), (format!("pot {} closing", p.pot), p.closing)]));
        figures.extend(o.hand_score.map(|h| ("hand score".to_string(), h)));
        fn nums(name: &str, f: &Figure, out: &mut Vec<(String, Q)>) {
            match f {
                Figure::Num(q) => out.push((name.to_string(), *q)),
                Figure::List(items) => items.iter().for_each(|x| nums(name, x, out)),
                _ => {}
            }
        }
        for (name, f) in &o.values {
            nums(name, f, &mut figures);
        }
    }
    for (what, q) in &figures {
        let magnitude = (q.numer() as i128).abs() / q.denom() as i128;
        if q.denom() <= 0 || magnitude > bound {
            return Err(format!("{what} is {q}, beyond {bound} (the record carries {} in all)", carried_magnitude(rec)));
        }
    }
    let Some(o) = &v.outcome else { return Ok(()) };
    let flow = |account: &str| {
        v.ledger.iter().fold(Wide(0, 1), |acc, l| {
            let mut acc = acc;
            if l.to.as_deref() == Some(account) {
                acc = acc.plus(Wide::of(l.amount));
            }
            if l.from.as_deref() == Some(account) {
                acc = acc.plus(Wide::of(l.amount).neg());
            }
            acc
        })
    };
    for p in &o.pots {
        let closing = Wide::of(p.carried).plus(flow(&format!("pot.{}", p.pot)));
        if closing != Wide::of(p.closing) {
            return Err(format!("pot {} closes at {}, but it carried {} and the ledger makes it {closing:?}", p.pot, p.closing, p.carried));
        }
    }
    if !rules.score.pays.is_empty() {
        for p in &o.players {
            let balance = flow(&p.player);
            if balance != Wide::of(p.score) {
                return Err(format!("{} scores {}, but the ledger makes it {balance:?}", p.player, p.score));
            }
        }
    }
    Ok(())
}

/// The valid fixtures of every ruleset: (path under `fixtures/`, the record as JSON).
fn valid_fixtures() -> Vec<(String, Json)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut rulesets: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().flatten().map(|e| e.path()).filter(|p| p.join("valid").is_dir()).collect();
    rulesets.sort();
    let mut out = vec![];
    for dir in rulesets {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("valid")).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            let rel = f.strip_prefix(&root).unwrap().display().to_string();
            out.push((rel, serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap()));
        }
    }
    out
}

/// Amounts at and past every edge: the bound, i64 and u64, 2^53 (where a float stops being exact)
/// and 2^60 (`num::LIMIT`), and what is not a whole number.
fn edge_amount(rng: &mut ChaCha8Rng, amounts_only: bool) -> Json {
    let edges = [
        json!(0),
        json!(1),
        json!(-1),
        json!(45),
        json!(-9),
        json!(AMOUNT_LIMIT),
        json!(-AMOUNT_LIMIT),
        json!(AMOUNT_LIMIT + 1),
        json!(-AMOUNT_LIMIT - 1),
        json!(1i64 << 53),
        json!(1i64 << 60),
        json!(i64::MAX),
        json!(i64::MIN),
        json!(i64::MAX - 1),
        json!(i64::MIN + 1),
        json!(u64::MAX),
        json!(1u64 << 63),
        json!(i32::MAX),
        json!(1.5),
        json!(1e300),
        json!("7"),
        json!(null),
    ];
    // Records whose amounts alone change mostly carry amounts a record may carry, so that their
    // scores are checked; the others mostly amounts at the edges.
    match rng.gen_range(0..4) {
        0 => json!(rng.gen_range(-AMOUNT_LIMIT..=AMOUNT_LIMIT)),
        1 if amounts_only => json!(rng.gen_range(-AMOUNT_LIMIT..=AMOUNT_LIMIT)),
        2 if amounts_only => edges[..8].choose(rng).unwrap().clone(),
        _ => edges.choose(rng).unwrap().clone(),
    }
}

/// Card codes of every kind: of the pack, of larger packs, lower case, padded, unknown, empty.
fn card_code(rng: &mut ChaCha8Rng) -> Json {
    let codes = ["T1", "T21", "EX", "ex", "KS", "QH", "1C", "10D", "T22", "T40", "T0", " T5 ", "15X", "", "KS KS", "t7", "T\u{0}1", "ÉX", "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"];
    json!(codes.choose(rng).unwrap())
}

/// A name: one at the table, a near miss, or none at all.
fn name(rng: &mut ChaCha8Rng, players: &[Json]) -> Json {
    match rng.gen_range(0..6) {
        0 => json!(""),
        1 => json!("Zoë"),
        2 => json!(" ".repeat(3)),
        3 => json!(7),
        _ => players.choose(rng).cloned().unwrap_or(json!("Ann")),
    }
}

/// One mutation of a record, by its JSON (only of its amounts, `pots` and `standing`, with
/// `amounts_only`). Each keeps most of the record, so that replay goes far.
fn mutate(rng: &mut ChaCha8Rng, rec: &mut Json, rules: &Ruleset, amounts_only: bool) {
    let players: Vec<Json> = rec["players"].as_array().cloned().unwrap_or_default();
    let n_events = rec["events"].as_array().map_or(0, Vec::len);
    match rng.gen_range(0..if amounts_only { 5 } else { 14 }) {
        // Amounts: a pot of the ruleset (or not), a player's standing.
        0..=2 if !rules.pots.is_empty() => {
            let pot = match (rules.pots.choose(rng), rng.gen_bool(0.9)) {
                (Some(p), true) => p.name.to_string(),
                _ => "jackpot".to_string(),
            };
            if !rec["pots"].is_object() {
                rec["pots"] = json!({});
            }
            rec["pots"][pot] = edge_amount(rng, amounts_only);
        }
        0..=4 => {
            let who = if amounts_only { players.choose(rng).cloned().unwrap_or_default() } else { name(rng, &players) };
            let who = who.as_str().unwrap_or("Ann").to_string();
            if !rec["standing"].is_object() {
                rec["standing"] = json!({});
            }
            rec["standing"][who] = edge_amount(rng, amounts_only);
        }
        // An option set to one of its choices, to an amount, or to a text.
        5 => {
            let (key, value) = match rules.options.choose(rng) {
                Some(o) if rng.gen_bool(0.6) => (o.name.clone(), o.choices.choose(rng).map(|c| c.to_json()).unwrap_or(json!(null))),
                Some(o) => (o.name.clone(), edge_amount(rng, false)),
                None => ("stakes".into(), edge_amount(rng, false)),
            };
            if !rec["options"].is_object() {
                rec["options"] = json!({});
            }
            rec["options"][key] = value;
        }
        // A player's name or the dealer.
        6 => {
            if let Some(p) = rec["players"].as_array_mut().filter(|p| !p.is_empty()) {
                let i = rng.gen_range(0..p.len());
                p[i] = name(rng, &players);
            }
        }
        7 => rec["dealer"] = name(rng, &players),
        // A card code where a card is: a play, a discard, a hand.
        8 => {
            let Some(e) = rec["events"].as_array_mut().and_then(|e| e.choose_mut(rng)) else { return };
            if e.get("card").is_some() {
                e["card"] = card_code(rng);
            } else if let Some(cards) = e.get_mut("cards").and_then(Json::as_array_mut).filter(|c| !c.is_empty()) {
                let i = rng.gen_range(0..cards.len());
                cards[i] = card_code(rng);
            } else if let Some(hands) = e.get_mut("hands").and_then(Json::as_object_mut) {
                if let Some(hand) = hands.values_mut().filter_map(Json::as_array_mut).find(|h| !h.is_empty()) {
                    let i = rng.gen_range(0..hand.len());
                    hand[i] = card_code(rng);
                }
            }
        }
        // Events swapped, doubled, dropped, cut short; a move by someone else.
        9 if n_events >= 2 => {
            let (i, j) = (rng.gen_range(0..n_events), rng.gen_range(0..n_events));
            rec["events"].as_array_mut().unwrap().swap(i, j);
        }
        10 if n_events >= 1 => {
            let events = rec["events"].as_array_mut().unwrap();
            let e = events[rng.gen_range(0..n_events)].clone();
            events.insert(rng.gen_range(0..=n_events), e);
        }
        11 if n_events >= 1 => {
            rec["events"].as_array_mut().unwrap().remove(rng.gen_range(0..n_events));
        }
        12 => rec["events"].as_array_mut().unwrap().truncate(rng.gen_range(0..=n_events)),
        _ => {
            let Some(e) = rec["events"].as_array_mut().and_then(|e| e.choose_mut(rng)) else { return };
            if e.get("player").is_some() {
                e["player"] = name(rng, &players);
            }
        }
    }
}

#[test]
fn mutated_records_never_panic_nor_wrap() {
    let count = crate::common::number("TAROT_MUTATIONS").unwrap_or(2_000) as usize;
    let registry = tarot_testkit::registry();
    let fixtures = valid_fixtures();
    assert!(fixtures.len() > 50, "the valid fixtures of every ruleset: {}", fixtures.len());
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    let started = Instant::now();
    let (mut replayed, mut valid, mut failures) = (0, 0, vec![]);
    // Panics are caught and counted, not printed thousands of times.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for i in 0..count {
        let (rel, original) = &fixtures[i % fixtures.len()];
        let rules = registry.get(original["ruleset"].as_str().unwrap()).unwrap();
        let mut rec = original.clone();
        // Every other record has only its amounts changed, so that many reach the score.
        let amounts_only = i % 2 == 0;
        for _ in 0..rng.gen_range(1..=3) {
            mutate(&mut rng, &mut rec, rules, amounts_only);
        }
        let text = rec.to_string();
        let outcome = catch_unwind(AssertUnwindSafe(|| -> Result<Option<bool>, String> {
            let Ok(rec) = parse_record(&text) else { return Ok(None) };
            let Ok(verdict) = replay(rules, &rec) else { return Ok(Some(false)) };
            check_verdict(rules, &rec, &verdict)?;
            // The hand-written verdict JSON is serde_json's, figures and all.
            if verdict.to_json() != serde_json::to_vec(&verdict).unwrap() {
                return Err("the verdict's JSON differs from serde_json's".into());
            }
            Ok(Some(verdict.status == tarot_engine::Status::Valid))
        }));
        match outcome {
            Ok(Ok(None)) => {}
            Ok(Ok(Some(ok))) => {
                replayed += 1;
                valid += ok as usize;
            }
            Ok(Err(e)) => failures.push(format!("{rel}, mutation {i}: {e}\n{text}")),
            Err(p) => {
                let why = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
                failures.push(format!("{rel}, mutation {i}: panicked: {why}\n{text}"));
            }
        }
    }
    std::panic::set_hook(hook);
    println!(
        "{count} mutated records of {} fixtures in {:.1} s: {replayed} read and replayed or refused by replay ({valid} valid), {} failures (panics or wrapped figures)",
        fixtures.len(),
        started.elapsed().as_secs_f64(),
        failures.len()
    );
    assert!(failures.is_empty(), "{} of {count} mutated records failed; the first:\n{}", failures.len(), failures[0]);
    assert!(valid > count / 20, "enough mutated records stay valid to reach the score: {valid} of {count}");
}

/// The rational numbers of the scores: rounding, parsing, and no figure that wraps.
mod figures {
    use tarot_engine::testing::LIMIT;
    use tarot_engine::Q;

    #[test]
    fn rounding_and_parsing() {
        assert_eq!(Q::parse("4.5"), Some(Q::new(9, 2)));
        assert_eq!(Q::parse("2/3"), Some(Q::new(2, 3)));
        assert_eq!(Q::new(-7, 2).floor(), Q::int(-4));
        assert_eq!(Q::new(-7, 2).ceil(), Q::int(-3));
        assert_eq!(Q::new(7, 3).round(), Q::int(2));
        assert_eq!(Q::new(8, 3).round(), Q::int(3));
        assert_eq!(Q::new(5, 2).round(), Q::int(3));
        assert_eq!(Q::new(-5, 2).round(), Q::int(-3));
        assert_eq!(Q::new(-7, 3).round(), Q::int(-2));
        assert_eq!(Q::new(1, 3) + Q::new(1, 6), Q::new(1, 2));
        assert!(Q::new(81, 2) < Q::int(41));
    }

    /// The edges of i64 and of `LIMIT`: every checked operation says `None` past them, and nothing
    /// wraps or panics on the way (this panicked in a debug build and wrapped in a release build
    /// before the operations were checked).
    #[test]
    fn no_figure_wraps() {
        let (max, min, limit) = (Q::int(i64::MAX), Q::int(i64::MIN), Q::int(LIMIT));
        assert_eq!(max.checked_add(Q::ONE), None);
        assert_eq!(min.checked_sub(Q::ONE), None);
        assert_eq!(max.checked_mul(Q::int(2)), None);
        assert_eq!(min.checked_mul(Q::int(-1)), None);
        assert_eq!(min.checked_div(Q::int(-1)), None);
        assert_eq!(min.checked_neg(), None);
        assert_eq!(min.checked_abs(), None);
        assert_eq!(limit.checked_add(Q::ONE), None);
        assert_eq!(limit.checked_add(Q::ZERO), Some(limit));
        assert_eq!(Q::new(1, 2).checked_add(limit), None);
        assert_eq!(Q::new(1, 3).checked_mul(Q::new(1, LIMIT)), None);
        assert_eq!(Q::checked_sum([limit, Q::ONE, -Q::ONE]), None);
        assert_eq!(Q::checked_new(i64::MIN as i128, -1), None);
        assert_eq!(Q::checked_new(i128::MIN, 1), None);
        assert_eq!(Q::checked_new(1, 0), None);
        // Whole numbers at the edge of i64 still floor, ceil, round and compare.
        assert_eq!((min.floor(), min.ceil(), min.round()), (min, min, min));
        assert_eq!((max.floor(), max.ceil(), max.round()), (max, max, max));
        assert!(min < max && Q::new(LIMIT - 1, LIMIT) < Q::ONE);
        // A figure beyond LIMIT is not read as one.
        assert_eq!(Q::parse("9223372036854775807"), None);
        assert_eq!(Q::parse(&LIMIT.to_string()), Some(limit));
        assert_eq!(Q::parse("9223372036854775807.5"), None);
        assert_eq!(Q::parse("-9223372036854775808/-1"), None);
        assert_eq!(Q::parse("1.0000000000000000000001"), None);
        assert_eq!(Q::parse("1/0"), None);
    }

    #[test]
    #[should_panic(expected = "too large a figure")]
    fn an_operator_past_the_limit_panics_rather_than_wraps() {
        let _ = Q::int(i64::MAX) + Q::ONE;
    }
}
