//! Values in words: a set of cards by its class, its rank or what it lacks ("trumps except trull"),
//! numbers, texts and lists plainly, and the pack (its suits, trumps and Fool, the trumps' order).

use crate::cards::{Card, CardSet};
use crate::expr::Value;

use super::InForce;

impl InForce<'_> {
    pub(in crate::describe) fn value_words(&self, v: &Value) -> String {
        match v {
            Value::Cards(c) if c.len() == 1 => {
                let card = c.iter().next().expect("one card");
                match self.rules.classes.iter().find(|k| k.cards == *c).and_then(|k| k.label.clone()) {
                    Some(label) => label,
                    None => self.rules.card_name(card),
                }
            }
            Value::Cards(c) if c.is_empty() => "no card".into(),
            Value::Cards(c) if *c == self.rules.pack.trumps() && !c.is_empty() => "trumps".into(),
            Value::Cards(c) => match self.rules.classes.iter().find(|k| k.cards == *c) {
                Some(k) => k.name.replace('_', " "),
                None => self.as_rank(*c).filter(|_| self.people).or_else(|| self.as_classes(*c)).or_else(|| self.as_difference(*c)).unwrap_or_else(|| cards_short(*c)),
            },
            Value::Num(q) if *q < crate::num::Q::ZERO => format!("−{}", plain(&Value::Num(-*q))),
            Value::List(l) => format!("[{}]", l.iter().map(|v| self.value_words(v)).collect::<Vec<_>>().join(", ")),
            v => plain(v),
        }
    }

    /// The cards of one rank in every suit of the pack, by the rank's name: "the kings".
    pub(in crate::describe) fn as_rank(&self, set: CardSet) -> Option<String> {
        let first = set.iter().next()?;
        let crate::cards::Kind::Suited(_, rank) = first.kind() else { return None };
        let all: CardSet = (0..4u8).map(|s| Card::suited(s, rank)).filter(|c| self.rules.pack.cards.contains(*c)).collect();
        let name = &self.rules.pack.rank_names[rank as usize];
        (all == set && set.len() > 1 && !name.is_empty()).then(|| format!("the {name}s"))
    }

    /// A set of cards as the trumps and classes it is made of ("trumps and tarots"), the largest
    /// first, when two or three of them make it up exactly.
    pub(in crate::describe) fn as_classes(&self, set: CardSet) -> Option<String> {
        let mut parts: Vec<(String, CardSet)> = vec![("trumps".into(), self.rules.pack.trumps())];
        parts.extend(self.rules.classes.iter().map(|k| (k.name.replace('_', " "), k.cards)));
        parts.retain(|(_, p)| !p.is_empty() && p.minus(set).is_empty());
        parts.sort_by_key(|(_, p)| std::cmp::Reverse(p.len()));
        let mut covered = CardSet::EMPTY;
        let mut names = vec![];
        for (name, p) in parts {
            if !p.minus(covered).is_empty() {
                covered = covered.or(p);
                names.push(name);
            }
        }
        (covered == set && (2..=3).contains(&names.len())).then(|| names.join(" and "))
    }

    /// A set of cards as the smallest of the trumps and classes that holds it, except what it lacks
    /// ("trumps except trull"), when what it lacks is a class, two or three of them, or a few cards:
    /// `trumps - trull`, folded to its cards by the compiler, read "19 cards".
    /// Only for sets too large to list (more than 12 cards): a few cards read better by their codes.
    pub(in crate::describe) fn as_difference(&self, set: CardSet) -> Option<String> {
        if set.len() <= 12 {
            return None;
        }
        let mut parts: Vec<(String, CardSet)> = vec![("trumps".into(), self.rules.pack.trumps())];
        parts.extend(self.rules.classes.iter().map(|k| (k.name.replace('_', " "), k.cards)));
        parts.retain(|(_, p)| p.len() > set.len() && set.minus(*p).is_empty());
        parts.sort_by_key(|(_, p)| p.len());
        parts.into_iter().find_map(|(name, whole)| {
            let rest = whole.minus(set);
            // A class taken away, though it may hold cards the whole has not (`trumps - trull`, the
            // trull holding the Excuse).
            let lacks = match self.rules.classes.iter().find(|k| !k.cards.and(whole).is_empty() && whole.minus(k.cards) == set) {
                Some(k) => k.name.replace('_', " "),
                None => self.as_classes(rest).or_else(|| (rest.len() <= 3).then(|| rest.iter().map(|c| self.rules.card_name(c)).collect::<Vec<_>>().join(" and ")))?,
            };
            Some(format!("{name} except {lacks}"))
        })
    }
}

pub(in crate::describe) fn plain_json(v: &serde_json::Value) -> String {
    v.as_str().map(String::from).unwrap_or_else(|| v.to_string())
}

/// A value for people: numbers as they are, texts without quotes, lists with commas.
pub(in crate::describe) fn plain(v: &Value) -> String {
    match v {
        Value::Num(q) => q.to_string(),
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        Value::Str(s) => s.to_string(),
        Value::Cards(c) => cards_short(*c),
        Value::List(l) => l.iter().map(plain).collect::<Vec<_>>().join(", "),
        other => format!("{other:?}"),
    }
}

/// "1 card", "3 cards".
pub(in crate::describe) fn cards(v: &Value) -> String {
    match v {
        Value::Num(q) if q.to_string() == "1" => "1 card".into(),
        v => format!("{} cards", plain(v)),
    }
}

/// The pack's trumps when they are not the usual 21 by number (`None` then, and the description says
/// "21 trumps" as it always has): how many, and their order high to low with names, ties and the
/// pack's own codes.
pub(in crate::describe) fn trumps_words(p: &crate::ir::Pack) -> Option<(String, String)> {
    let trumps: Vec<Card> = p.trumps().iter().collect();
    let by_number = trumps.iter().all(|c| matches!(c.kind(), crate::cards::Kind::Trump(n) if p.strength[c.0 as usize] == n));
    if (trumps.is_empty() || trumps.len() == 21) && by_number && p.trump_names.iter().all(|n| n.is_empty()) && p.aliases.is_empty() && p.later_wins.is_empty() {
        return None;
    }
    let mut ranked = trumps.clone();
    // High to low, and tied trumps by number, high to low.
    ranked.sort_by_key(|c| {
        std::cmp::Reverse((
            p.strength[c.0 as usize],
            match c.kind() {
                crate::cards::Kind::Trump(n) => n,
                _ => 0,
            },
        ))
    });
    let mut words: Vec<String> = vec![];
    for (i, c) in ranked.iter().enumerate() {
        let name = match p.trump_name(*c) {
            n if n == c.to_string() => n,
            n => format!("{c} ({n})"),
        };
        let tied_with_previous = i > 0 && p.strength[ranked[i - 1].0 as usize] == p.strength[c.0 as usize];
        words.push(if tied_with_previous { format!("= {name}") } else { name });
    }
    let mut order = format!("trumps high to low: {}", words.join(" "));
    if !p.later_wins.is_empty() {
        order.push_str(&format!("; of the tied trumps {}, the later played wins", cards_short(p.later_wins)));
    }
    let equal_not_later = ranked.windows(2).any(|w| p.strength[w[0].0 as usize] == p.strength[w[1].0 as usize] && !p.later_wins.contains(w[0]));
    if equal_not_later {
        order.push_str("; of other tied trumps, the first played wins");
    }
    for (code, c) in &p.aliases {
        order.push_str(&format!("; records may write {code} for {c}"));
    }
    Some((format!("{} trumps", trumps.len()), order))
}

/// The pack in words: how many cards, the suits, the trumps and the Fool; the trumps' order where it
/// is not the usual one.
pub(in crate::describe) fn pack_texts(p: &crate::ir::Pack) -> Vec<String> {
    // A suit with no card in the pack (the trump suit of `trump-suit`) is not named.
    let suits: Vec<String> = (0..4).filter(|&s| !CardSet::of_lane(s).and(p.cards).is_empty()).map(|s| p.suit_names[s as usize].clone()).collect();
    match trumps_words(p) {
        None => vec![format!("{} cards: suits {}, 21 trumps, {}", p.cards.len(), suits.join(", "), p.fool_name)],
        Some((count, order)) => {
            let fool = if p.cards.contains(crate::cards::FOOL) { format!(", {}", p.fool_name) } else { String::new() };
            vec![format!("{} cards: suits {}, {count}{fool}", p.cards.len(), suits.join(", ")), order]
        }
    }
}

pub(in crate::describe) fn cards_short(set: CardSet) -> String {
    let v: Vec<String> = set.iter().map(|c: Card| c.to_string()).collect();
    if v.len() > 12 {
        format!("{} cards", v.len())
    } else {
        v.join(" ")
    }
}
