//! Check a game: paste or upload a record in a plain form (no script), and see its verdict drawn as
//! a stored game's is. Nothing is stored.

use std::collections::HashMap;

use actix_web::http::header::CONTENT_TYPE;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};

use crate::pages::{game_view, page};
use crate::startup::AppState;

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

/// The empty form.
pub async fn check_form() -> HttpResponse {
    page("Check a game", form(""))
}

/// The form's answer: the verdict drawn, or what is wrong with the text, above the form again.
pub async fn check(state: web::Data<AppState>, req: HttpRequest, body: web::Bytes) -> HttpResponse {
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
                let verdict = match rules {
                    Some(r) => tarot_engine::replay(r, &record).map_err(|e| e.to_string()),
                    None => {
                        let known: Vec<&str> = state.registry.ids().collect();
                        Err(format!("the ruleset `{}` is not in this archive; it has {}", record.ruleset, known.join(", ")))
                    }
                };
                game_view::view(rules, &record, verdict.as_ref().map_err(Clone::clone))
            }
        }
    };
    page("Check a game", html! { (shown) h2 { "Check another" } (form(&text)) })
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
