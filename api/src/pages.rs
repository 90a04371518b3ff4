//! Pages for people, rendered on the server with maud (checked at compile time, escaped by
//! default) and no script, nothing fetched from elsewhere. One module per page; `game_view` draws a
//! verdict (the deal, the auction, the tricks as cards, the score sheet and the ledger), for a stored
//! game and for a record checked through the form alike.

use actix_web::http::header::CONTENT_SECURITY_POLICY;
use actix_web::HttpResponse;
use maud::{html, Markup, PreEscaped, DOCTYPE};
use tarot_engine::ir::Ruleset;
use tarot_engine::{Card, Kind};

mod check;
mod compare_game;
mod compare_rules;
mod example;
mod family;
mod game;
mod game_view;
mod index;
mod overview;
mod ruleset;
mod score_sheet;
mod session;
mod source;
mod stats;
mod step;

pub use check::{check, check_form};
pub use compare_game::compare_game_page;
pub use compare_rules::compare_rules;
pub use example::example;
pub use game::game;
pub use index::index;
pub use ruleset::ruleset;
pub use session::{open as open_session, session};
pub use source::{list as sources, source};
pub use stats::stats;

const STYLE: &str = "body{font-family:Georgia,serif;margin:2em;max-width:110em;color:#222}\
table{border-collapse:collapse;width:100%;margin-bottom:1em}td,th{border:1px solid #bbb;padding:.4em;vertical-align:top;text-align:left}\
th{background:#eee}tr.differs td{background:#fffaf0}tr.same td{color:#555}.src{color:#777;font-size:.85em}\
td div.differs{background:#ffe7a8;border-left:4px solid #d99a00;padding-left:.3em}\
.diverge{background:#ffd6d6}.valid{color:#176317}.invalid{color:#a11}.annulled{color:#8a5a00}.in_progress{color:#1b4f8a}code{font-size:.95em}\
.card{display:inline-block;min-width:2.1em;padding:.15em .25em;margin:.1em;border:1px solid #999;border-radius:.3em;background:#fff;text-align:center;font-family:sans-serif;font-weight:bold;box-shadow:1px 1px 0 #ccc}\
.card.red{color:#c0131b}.card.black{color:#111}.card.trump{background:#e9f0ff;border-color:#5b76b5;color:#1d3470}\
.card.italian .suit,.card.german .suit{font-size:.7em;margin-left:.1em;padding:0 .15em;border-radius:.2em;color:#fff}\
.card.swords{color:#37474f;background:#f1f3f4}.card.swords .suit{background:#37474f}.card.cups{color:#a3162a;background:#fdf0f1}.card.cups .suit{background:#a3162a}\
.card.coins{color:#8a6500;background:#fdf7e3}.card.coins .suit{background:#b38600}.card.batons{color:#2f6b1f;background:#f0f8ec}.card.batons .suit{background:#2f6b1f}\
.card.leaves{color:#2e6b1f;background:#eff8ea}.card.leaves .suit{background:#2e6b1f}.card.acorns{color:#6b4414;background:#f8f0e6}.card.acorns .suit{background:#6b4414}\
.card.bells{color:#8f5d00;background:#fff6e0}.card.bells .suit{background:#c28000}\
.card.excuse{background:#f4e6ff;border-color:#8a4fb8;color:#5a1f86}.card.won{outline:3px solid #2b8a3e}.card.bad{outline:3px solid #c0131b;background:#ffe0e0}\
.who{display:block;font-size:.7em;font-weight:normal;color:#555}.play{display:inline-block;text-align:center;margin-right:.3em}\
.stop{background:#ffe0e0;border:2px solid #c0131b;padding:.5em}.notice{background:#f3f3f3;padding:.4em;margin:.3em 0}\
nav a{margin-right:1em}nav.steps a{display:inline-block;padding:.2em .5em;border:1px solid #999;border-radius:.3em;background:#fff}.step{border:1px solid #bbb}dl.overview dt{font-weight:bold;margin-top:.5em}dl.overview dd{margin-left:1.5em}ul.items{margin:0;padding-left:1.1em}table.values td{max-width:60em}.count{color:#555;font-size:.85em}.deal-options{color:#555;font-size:.85em}form.inline{display:inline}\
table.bars{width:auto}table.bars th{max-width:22em;font-weight:normal;background:#f7f7f7}table.bars td{border:none;border-bottom:1px solid #eee;padding:.15em .4em}\
td.track{width:32em}.bar{height:.9em;min-width:1px}.swatch{display:inline-block;width:.9em;height:.9em}\
.c0{background:#1d3470}.c1{background:#c0131b}.c2{background:#2f6b1f}.c3{background:#b38600}.c4{background:#8a4fb8}.c5{background:#37474f}";

/// A whole page: the title as heading, the body, a way home.
pub(crate) fn page(title: &str, body: Markup) -> HttpResponse {
    let html = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                nav { a href="/" { "Tarot rules archive" } a href="/pages/check" { "Check a game" } a href="/docs/" { "API" } }
                h1 { (title) }
                (body)
            }
        }
    };
    HttpResponse::Ok().content_type("text/html; charset=utf-8").insert_header((CONTENT_SECURITY_POLICY, POLICY)).body(html.into_string())
}

/// A problem met while making a page, as a page: its status, what went wrong and where, and ways on
/// (a person's browser shows it; the JSON API answers problems as problem+json).
pub(crate) fn problem_page(p: crate::problem::Problem) -> HttpResponse {
    let status = actix_web::http::StatusCode::from_u16(p.status).unwrap_or(actix_web::http::StatusCode::INTERNAL_SERVER_ERROR);
    let body = html! {
        div class="stop problem" { strong { (p.status) " — " (p.title) } p { (p.detail) } }
        p { "Go back, or start again from " a href="/" { "the list of rulesets" } ", " a href="/pages/check" { "the check form" } " or " a href="/pages/stats" { "the statistics" } "." }
    };
    let mut r = page(&p.title, body);
    *r.status_mut() = status;
    r
}

/// A page's handler's answer: the page, or its problem as a page.
pub(crate) fn or_problem_page(r: Result<HttpResponse, crate::problem::Problem>) -> HttpResponse {
    r.unwrap_or_else(problem_page)
}

/// A query the page cannot read, as a page (400).
pub(crate) fn bad_query(e: actix_web::Error) -> HttpResponse {
    let text = e.to_string();
    let why = text.rsplit("cannot be read: ").next().unwrap_or(&text);
    problem_page(crate::problem::Problem::new(actix_web::http::StatusCode::BAD_REQUEST, "bad-query", format!("the address's query cannot be read: {why}")))
}

/// The pages need nothing from elsewhere and run no script: their own origin for everything, the one
/// inline style sheet above (`<style>`, hence `'unsafe-inline'` for styles only), the check form
/// posting to this server, and no framing by other sites. Markup that slipped past maud's escaping
/// could still run nothing and send nothing away.
const POLICY: &str = "default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// A card drawn as a card: suit symbol in its colour, trumps and the Excuse set apart, the
/// ruleset's own name for it on hover. `class` adds a mark (`won`, `bad`).
pub(crate) fn card(rules: Option<&Ruleset>, c: Card, class: &str) -> Markup {
    let name = rules.map(|r| r.card_name(c)).unwrap_or_else(|| c.to_string());
    let (face, kind) = match c.kind() {
        // The Fool as a trump (records write it `EX`) is drawn as the Fool, among the trumps.
        Kind::Trump(_) if rules.is_some_and(|r| r.pack.aliases.iter().any(|(a, x)| *x == c && a == "EX")) => ("★".to_string(), "trump"),
        // A trump of a suit made trumps (the hearts of the German-suited games: `trump-suit`) is drawn
        // as that card, rank and suit, among the trumps; its number would name another card.
        Kind::Trump(n) => match rules.and_then(|r| r.pack.aliases.iter().find(|(a, x)| *x == c && a.len() >= 2 && a.ends_with(['S', 'H', 'D', 'C']))) {
            Some((a, _)) => {
                let (rank, suit) = a.split_at(a.len() - 1);
                let symbol = match suit {
                    "S" => "♠",
                    "H" => "♥",
                    "D" => "♦",
                    _ => "♣",
                };
                (format!("{rank}{symbol}"), "trump")
            }
            None => (n.to_string(), "trump"),
        },
        Kind::Fool => ("★".to_string(), "excuse"),
        Kind::Suited(s, r) => {
            let code = c.to_string();
            let rank = &code[..code.len() - 1];
            let _ = r;
            match rules.map(|r| r.pack.suit_names[s as usize].as_str()).and_then(named_suit) {
                // Swords, cups, coins and batons, leaves, acorns and bells have no symbol of their own in
                // the fonts a browser is sure to have: the start of the suit's name, in the suit's
                // colour, on its own tint.
                Some((initial, suit, family)) => {
                    return html! {
                        span class={ "card " (family) " " (suit) " " (class) } title=(name) data-code=(code) { (rank) span class="suit" { (initial) } }
                    };
                }
                None => {
                    let (symbol, colour) = [("♠", "black"), ("♥", "red"), ("♦", "red"), ("♣", "black")][s as usize];
                    (format!("{rank}{symbol}"), colour)
                }
            }
        }
    };
    html! { span class={ "card " (kind) " " (class) } title=(name) data-code=(c.to_string()) { (face) } }
}

/// An Italian or German suit by the ruleset's name for it, in English, Italian or German: the first
/// letters of its name drawn (two, as cups and coins share the first), the class of its colour and
/// that of its pack's family. Hearts, a suit of the French and the German packs alike, keeps its symbol.
fn named_suit(name: &str) -> Option<(&'static str, &'static str, &'static str)> {
    Some(match name {
        "swords" => ("sw", "swords", "italian"),
        "cups" => ("cu", "cups", "italian"),
        "coins" => ("co", "coins", "italian"),
        "batons" => ("ba", "batons", "italian"),
        "spade" | "spada" => ("sp", "swords", "italian"),
        "coppe" | "coppa" => ("co", "cups", "italian"),
        "denari" | "denaro" => ("de", "coins", "italian"),
        "bastoni" | "bastone" => ("ba", "batons", "italian"),
        "leaves" | "gras" | "laub" => ("le", "leaves", "german"),
        "acorns" | "eichel" => ("ac", "acorns", "german"),
        "bells" | "schellen" => ("be", "bells", "german"),
        _ => return None,
    })
}

/// A card as the record wrote it: drawn when it is a card, the text itself otherwise.
pub(crate) fn card_code(rules: Option<&Ruleset>, code: &str, class: &str) -> Markup {
    match rules.map_or_else(|| Card::parse(code), |r| r.pack.parse_card(code)) {
        Some(c) => card(rules, c, class),
        None => html! { code class={ "card " (class) } { (code) } },
    }
}

/// A line the engine wrote (a broken rule, a record it cannot replay, a note), as people read it:
/// a card code drawn as the card, a term the engine quotes in backticks (`call`) as a word set apart.
pub(crate) fn engine_line(rules: Option<&Ruleset>, text: &str) -> Markup {
    let text = text.trim_end();
    let as_card = |w: &str| {
        let looks = (2..=3).contains(&w.len()) && w.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) && w.chars().any(|c| c.is_ascii_uppercase());
        if looks {
            rules.map_or_else(|| Card::parse(w), |r| r.pack.parse_card(w))
        } else {
            None
        }
    };
    // Words and what lies between them, each word a card where it is one.
    let words = |part: &str| {
        let mut out: Vec<Result<Card, String>> = vec![];
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut Vec<Result<Card, String>>| {
            if !word.is_empty() {
                out.push(as_card(word).ok_or_else(|| word.clone()));
                word.clear();
            }
        };
        for c in part.chars() {
            if c.is_ascii_alphanumeric() {
                word.push(c);
            } else {
                flush(&mut word, &mut out);
                out.push(Err(c.to_string()));
            }
        }
        flush(&mut word, &mut out);
        out
    };
    // A card the ruleset's pack does not hold (a message saying so) is drawn as a plain card, not
    // under that pack's suits.
    let drawn = |c: Card| card(rules.filter(|r| r.pack.cards.contains(c)), c, "");
    html! {
        @for (i, part) in text.split('`').enumerate() {
            @if i % 2 == 1 && !part.is_empty() {
                @if let Some(c) = as_card(part) { (drawn(c)) } @else { em class="term" { (part) } }
            } @else {
                @for w in words(part) {
                    @match w { Ok(c) => (drawn(c)), Err(t) => (t) }
                }
            }
        }
    }
}

/// A figure as people read it: `1/2` as ½ would lose the exact value, so it stays as written.
pub(crate) fn status_word(status: tarot_engine::Status) -> (&'static str, &'static str) {
    use tarot_engine::Status;
    match status {
        Status::Valid => ("valid", "valid: no rule broken"),
        Status::Invalid => ("invalid", "invalid: a rule is broken"),
        Status::InProgress => ("in_progress", "in progress"),
        Status::Annulled => ("annulled", "annulled"),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use tarot_engine::Card;

    /// A trump above T21 is drawn with its number; the Fool as a trump, written `EX` in its pack, as
    /// the Fool among the trumps, named as its pack names it.
    #[test]
    fn trumps_of_larger_packs_are_drawn() {
        let t40 = super::card(None, Card::parse("T40").unwrap(), "").into_string();
        assert!(t40.contains(">40<") && t40.contains("card trump"), "{t40}");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/rules/pack");
        let registry = tarot_engine::Registry::from_dir(&dir).unwrap();
        let drawn = super::card_code(registry.get("skus"), "EX", "").into_string();
        assert!(drawn.contains('★') && drawn.contains("card trump") && drawn.contains("the Sküs"), "{drawn}");
    }
}
