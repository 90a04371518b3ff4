//! Labels that read the rules' values. A requirement's label is what a player reads when he breaks
//! it and what a ruleset's page says; where it names a number the ruleset sets with a `let`, it
//! names the `let` in braces (`"a poignée shows exactly {poignee_sizes} trumps"`), so that a ruleset
//! that changes the value (three players, five) says its own value in its pages and its verdicts.

use crate::expr::Value;

/// A label with its indefinite article: "an accuso", "a Trull"; a label that already begins with
/// "the" (or "a", "an") takes none.
pub fn with_article(label: &str) -> String {
    let first = label.split_whitespace().next().unwrap_or("").to_lowercase();
    if matches!(first.as_str(), "the" | "a" | "an") {
        return label.to_string();
    }
    match first.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {label}"),
        _ => format!("a {label}"),
    }
}

/// The names in braces in `label`, in order; an error when a brace is not closed or a name is empty.
pub fn names(label: &str) -> Result<Vec<&str>, String> {
    let mut names = vec![];
    let mut rest = label;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or_else(|| format!("the label \"{label}\" opens a brace it does not close"))?;
        let name = after[..close].trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!("the label \"{label}\" has `{{{}}}`, which is not the name of a `let`", &after[..close]));
        }
        names.push(name);
        rest = &after[close + 1..];
    }
    if rest.contains('}') {
        return Err(format!("the label \"{label}\" closes a brace it did not open"));
    }
    Ok(names)
}

/// The label with each `{name}` replaced by `value(name)` (left as it is where that is `None`).
pub fn fill(label: &str, mut value: impl FnMut(&str) -> Option<String>) -> String {
    if !label.contains('{') {
        return label.to_string();
    }
    let mut out = String::with_capacity(label.len());
    let mut rest = label;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else { break };
        out.push_str(&rest[..open]);
        let name = rest[open + 1..close].trim();
        match value(name) {
            Some(words) => out.push_str(&words),
            None => out.push_str(&rest[open..=close]),
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A value as a label says it: a list as the choices it offers ("10, 13 or 15"), a number as it is.
pub fn words(v: &Value) -> String {
    match v {
        Value::List(items) => {
            let items: Vec<String> = items.iter().map(words).collect();
            match &items[..] {
                [] => "none".into(),
                [one] => one.clone(),
                [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
            }
        }
        Value::Num(q) => q.to_string(),
        Value::Str(s) => s.to_string(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Cards(c) => c.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "),
        other => format!("{other:?}"),
    }
}
