//! Check a game: paste or upload a record in a plain form (no script), and see its verdict drawn as
//! a stored game's is. Nothing is stored.

use std::collections::HashMap;

use actix_web::http::header::CONTENT_TYPE;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use maud::{html, Markup};

use crate::body::BODY_LIMIT;

use crate::pages::{game_view, page};
use crate::state::AppState;
use crate::usecases::Refusal;

const EXAMPLE: &str = r#"{"ruleset": "fft-4p", "players": ["South", "East", "North", "West"], "dealer": "West", "events": [...]}"#;

fn form(text: &str) -> Markup {
    html! {
        p { "Paste a recorded game (the JSON that " code { "POST /validate" } " takes) or choose its file, then check it. "
            "The game is replayed under the ruleset it names; nothing is stored." }
        form method="post" action="/pages/check" enctype="multipart/form-data" {
            p { label { "The record:" br; textarea name="record" rows="12" cols="100" placeholder=(EXAMPLE) { (text) } } }
            p { label { "or its file: " input type="file" name="file" accept=".json,application/json"; } }
            p { button type="submit" { "Check the game" } }
        }
    }
}

/// Records to try the form with: (what it is, the record).
const EXAMPLES: [(&str, &str); 3] = [
    ("a French Tarot deal of four, valid", include_str!("../../../fixtures/fft-4p/tarotclub/tarotmag_17.json")),
    ("a French Tarot deal that breaks a rule (a trump played under)", include_str!("../../../fixtures/fft-4p/invalid/play.must.overtrump.json")),
    ("a Tarocchini deal, its accusi and its count", include_str!("../../../fixtures/tarocchini/valid/4p-1.json")),
];

/// The form, empty or (`?example=N`) holding the example record N to check.
pub async fn check_form(req: HttpRequest) -> HttpResponse {
    let chosen = web::Query::<HashMap<String, String>>::from_query(req.query_string())
        .ok()
        .and_then(|q| q.get("example").and_then(|n| n.parse::<usize>().ok()))
        .and_then(|n| EXAMPLES.get(n.wrapping_sub(1)));
    let body = html! {
        p class="examples" { "No record at hand? Try an example: "
            @for (i, (what, _)) in EXAMPLES.iter().enumerate() { @if i > 0 { "; " } a href={ "/pages/check?example=" (i + 1) } { (what) } } "." }
        (form(chosen.map_or("", |(_, record)| record)))
    };
    page("Check a game", body)
}

/// The form's answer: the verdict drawn, or what is wrong with the text, above the form again.
pub async fn check(state: web::Data<AppState>, req: HttpRequest, payload: web::Payload) -> HttpResponse {
    let read = actix_web::rt::time::timeout(crate::limits::BODY_TIMEOUT, read(payload)).await.unwrap_or(Err(Unread::TooSlow));
    let body = match read {
        Ok(body) => body,
        Err(Unread::TooSlow) => {
            let shown = html! { div class="stop" id="stop" { strong { "The form took too long to arrive: " } (crate::body::too_slow().detail) } };
            let mut r = page("Check a game", html! { (shown) (form("")) });
            *r.status_mut() = StatusCode::REQUEST_TIMEOUT;
            return r;
        }
        Err(Unread::TooLarge(sent)) => return too_large(sent),
        Err(Unread::Broken(e)) => {
            let shown = html! { div class="stop" id="stop" { strong { "The form could not be read: " } (e) } };
            let mut r = page("Check a game", html! { (shown) (form("")) });
            *r.status_mut() = StatusCode::BAD_REQUEST;
            return r;
        }
    };
    let content_type = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let fields = if content_type.starts_with("multipart/form-data") {
        multipart(content_type, &body)
    } else {
        web::Query::<HashMap<String, String>>::from_query(&String::from_utf8_lossy(&body)).map(|q| q.into_inner()).unwrap_or_default()
    };
    // An uploaded file wins over the text box; either may be empty.
    let text = [fields.get("file"), fields.get("record")].into_iter().flatten().find(|t| !t.trim().is_empty()).cloned().unwrap_or_default();
    let shown = if text.trim().is_empty() {
        html! { div class="stop" id="stop" { "Nothing to check: paste a record or choose a file." } }
    } else {
        match tarot_engine::parse_record(&text) {
            Err(e) => html! { div class="stop" id="stop" { strong { "This is not a recorded game: " } (e) } },
            Ok(record) => {
                let rules = state.registry.get(&record.ruleset);
                let verdict = crate::usecases::referee(&state.registry, &record).map_err(|refusal| match refusal {
                    Refusal::UnknownRuleset { id, known } => format!("the ruleset `{id}` is not in this archive; it has {}", known.join(", ")),
                    refusal => refusal.to_string(),
                });
                game_view::view(rules, &record, verdict.as_ref().map_err(Clone::clone))
            }
        }
    };
    page("Check a game", html! { (shown) h2 { "Check another" } (form(&text)) })
}

/// Past this, an oversized body is no longer read to the end to say how large it was.
const COUNTED: usize = 64 * 1024 * 1024;

enum Unread {
    /// More than [`BODY_LIMIT`] bytes: how many were sent (counted up to [`COUNTED`]), and whether
    /// the count stopped there.
    TooLarge((usize, bool)),
    Broken(String),
    /// Not all there within [`crate::limits::BODY_TIMEOUT`].
    TooSlow,
}

/// The body, up to [`BODY_LIMIT`] bytes; past it, the rest is read and counted (not kept), so that
/// the page can say how much was sent and the browser, still sending, gets the answer.
async fn read(mut payload: web::Payload) -> Result<web::Bytes, Unread> {
    let mut kept = web::BytesMut::new();
    let mut sent = 0usize;
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| Unread::Broken(e.to_string()))?;
        sent += chunk.len();
        if sent > COUNTED {
            return Err(Unread::TooLarge((sent, true)));
        }
        if sent <= BODY_LIMIT {
            kept.extend_from_slice(&chunk);
        }
    }
    if sent > BODY_LIMIT {
        return Err(Unread::TooLarge((sent, false)));
    }
    Ok(kept.freeze())
}

/// A size in words: bytes, KiB or MiB, with the exact count of bytes.
fn size(bytes: usize) -> String {
    match bytes {
        b if b < 1024 => format!("{b} bytes"),
        b if b % 1024 == 0 && b < 1024 * 1024 => format!("{} KiB ({b} bytes)", b / 1024),
        b if b < 1024 * 1024 => format!("{:.1} KiB ({b} bytes)", b as f64 / 1024.0),
        b => format!("{:.1} MiB ({b} bytes)", b as f64 / (1024.0 * 1024.0)),
    }
}

/// 413, as a page: the limit, what was sent, and the empty form to try again.
fn too_large((sent, more): (usize, bool)) -> HttpResponse {
    let sent = if more { format!("more than {}", size(sent)) } else { size(sent) };
    let shown = html! {
        div class="stop" id="stop" {
            strong { "Too large to check: " }
            "the form sent " (sent) ", and a form (the record with its file, if any) may be at most "
            (size(BODY_LIMIT)) ". A recorded game is a few kilobytes: is this the right file?"
        }
    };
    let mut r = page("Check a game", html! { (shown) h2 { "Check another" } (form("")) });
    *r.status_mut() = StatusCode::PAYLOAD_TOO_LARGE;
    r
}

/// The text fields of a `multipart/form-data` body, by name (a file by its field's name).
fn multipart(content_type: &str, body: &[u8]) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let Some(boundary) = content_type.split(';').filter_map(|p| p.trim().strip_prefix("boundary=")).next() else { return out };
    let delimiter = format!("--{}", boundary.trim_matches('"'));
    let text = String::from_utf8_lossy(body);
    for part in text.split(delimiter.as_str()).skip(1) {
        let Some((head, value)) = part.split_once("\r\n\r\n") else { continue };
        let Some(name) = head.split(';').filter_map(|p| p.trim().strip_prefix("name=")).next() else { continue };
        let value = value.strip_suffix("\r\n").unwrap_or(value);
        out.insert(name.trim_matches('"').to_string(), value.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::multipart;

    #[test]
    fn reads_the_fields_of_a_multipart_body() {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"record\"\r\n\r\n{\"a\": 1}\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"g.json\"\r\nContent-Type: application/json\r\n\r\n{\"b\":\r\n2}\r\n--XyZ--\r\n";
        let f = multipart("multipart/form-data; boundary=XyZ", body.as_bytes());
        assert_eq!(f["record"], "{\"a\": 1}");
        assert_eq!(f["file"], "{\"b\":\r\n2}");
    }
}
