//! The examples the OpenAPI document shows, taken from `fixtures/` (the document itself is
//! `crate::openapi`).

/// A fixture as JSON, for the document's examples. The fixtures are built into the binary.
pub fn example(path: &str) -> serde_json::Value {
    let text = match path {
        "worked/seed000-hand1.json" => include_str!("../../fixtures/worked/seed000-hand1.json"),
        "worked/fft-deal5.json" => include_str!("../../fixtures/worked/fft-deal5.json"),
        _ => "null",
    };
    serde_json::from_str(text).unwrap_or_default()
}

/// An append: the first bid of a fixture's game, after its deal.
pub fn append_example() -> serde_json::Value {
    let game = example("worked/seed000-hand1.json");
    serde_json::json!({ "expected_version": 1, "events": [game["events"][1]], "ids": ["first-bid"] })
}

/// A game compared under two rulesets: TarotClub's `tarotmag_17`, legal under fft-4p, where the first
/// hand leads, and not under the Queen of Tarot's rules, where the declarer leads.
pub fn compare_example() -> serde_json::Value {
    let game: serde_json::Value = serde_json::from_str(include_str!("../../fixtures/fft-4p/tarotclub/tarotmag_17.json")).unwrap_or_default();
    serde_json::json!({ "game": game, "rulesets": ["fft-4p", "queen-of-tarot"] })
}

/// The verdict of seed 000's Hand #1, as `/validate` returns it.
pub fn verdict_example() -> serde_json::Value {
    // Worked out once: utoipa asks for it wherever the verdict's schema is used, and compiling the
    // rulesets for it each time cost seconds before a debug server could answer.
    static VERDICT: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    VERDICT
        .get_or_init(|| {
            let record: Option<tarot_engine::GameRecord> = serde_json::from_value(example("worked/seed000-hand1.json")).ok();
            let rules = record.as_ref().and_then(|rec| {
                let file = tarot_engine::Registry::builtin_files().remove(&rec.ruleset)?;
                tarot_engine::Registry::from_files([(rec.ruleset.clone(), file)].into()).ok()
            });
            match (rules, record) {
                (Some(reg), Some(rec)) => reg.get(&rec.ruleset).and_then(|r| tarot_engine::replay(r, &rec).ok()).and_then(|v| serde_json::to_value(v).ok()).unwrap_or_default(),
                _ => serde_json::Value::Null,
            }
        })
        .clone()
}

/// Two recorded games, one per line, for the documentation.
pub(crate) fn ndjson_example() -> String {
    ["worked/fft-deal5.json", "worked/seed000-hand1.json"].iter().map(|f| format!("{}\n", example(f))).collect()
}
