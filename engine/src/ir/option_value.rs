//! An option's value as the rules read it: a yes or no, a number or a text, as a rule file's `option
//! NAME "..." = [...]` lists them and a game chooses one. The rules core knows no JSON: a game's
//! options, which the wire gives as JSON, are read into these at the edge (`record.rs`).

use std::fmt;

use crate::expr::Value;
use crate::num::Q;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Bool(bool),
    /// A number as JSON writes it (`6`, `0.5`): two are the same choice when written alike, so `1.0`
    /// is not the choice `1`.
    Number(String),
    Text(String),
    /// What a game gave that no option can be (a list, an object, `null`), as JSON writes it: never
    /// one of an option's choices, only named in the message that refuses it.
    Other(String),
}

impl OptionValue {
    /// A number of a rule file, as its choice is written on the wire: a whole number, a half, or
    /// else its fraction as a text.
    pub fn from_q(q: Q) -> OptionValue {
        if q.is_integer() {
            OptionValue::Number(q.numer().to_string())
        } else if q.denom() == 2 {
            OptionValue::Number(format!("{:?}", q.to_f64()))
        } else {
            OptionValue::Text(q.to_string())
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            OptionValue::Text(t) => Some(t),
            _ => None,
        }
    }

    /// The value as people read it: a text without its quotes.
    pub fn plain(&self) -> String {
        self.as_str().map_or_else(|| self.to_string(), str::to_string)
    }

    /// The value formulas read (`option.NAME`); `None` for what no option can be.
    pub fn to_value(&self) -> Option<Value> {
        Some(match self {
            OptionValue::Bool(b) => Value::Bool(*b),
            OptionValue::Number(n) => Value::Num(Q::parse(n)?),
            OptionValue::Text(t) => Value::Str(t.as_str().into()),
            OptionValue::Other(_) => return None,
        })
    }
}

/// As JSON writes it: a text quoted and escaped.
impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Number(n) | OptionValue::Other(n) => f.write_str(n),
            OptionValue::Text(t) => {
                f.write_str("\"")?;
                for c in t.chars() {
                    match c {
                        '"' => f.write_str("\\\"")?,
                        '\\' => f.write_str("\\\\")?,
                        '\u{8}' => f.write_str("\\b")?,
                        '\u{c}' => f.write_str("\\f")?,
                        '\n' => f.write_str("\\n")?,
                        '\r' => f.write_str("\\r")?,
                        '\t' => f.write_str("\\t")?,
                        c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
                        c => write!(f, "{c}")?,
                    }
                }
                f.write_str("\"")
            }
        }
    }
}

impl serde::Serialize for OptionValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            OptionValue::Bool(b) => s.serialize_bool(*b),
            OptionValue::Number(n) => match (n.parse::<i64>(), n.parse::<u64>(), n.parse::<f64>()) {
                (Ok(i), _, _) => s.serialize_i64(i),
                (_, Ok(u), _) => s.serialize_u64(u),
                (_, _, Ok(x)) => s.serialize_f64(x),
                _ => s.serialize_str(n),
            },
            OptionValue::Text(t) | OptionValue::Other(t) => s.serialize_str(t),
        }
    }
}

/// The options a game chooses, by name, as the rules read them: a record's (JSON, read at the edge,
/// `record.rs`, which implements it).
pub trait ChosenOptions {
    fn is_empty(&self) -> bool;
    fn names(&self) -> Vec<&str>;
    fn chosen(&self, name: &str) -> Option<OptionValue>;
}
