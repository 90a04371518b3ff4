//! The pack in words: its cards, their ranks (and the numerals reversed or the trumps reordered by
//! an option), the card classes and how the cards are counted.

use super::words::*;
use super::*;

/// The pack and ranks, the classes and the counting; `other_pack` is the pack another choice of the
/// options makes, named by that choice, with the clause that says so.
pub(super) fn pack(force: &InForce, other_pack: &Option<(&Ruleset, String, Clause)>, lines: &mut Vec<Line>) {
    let (r, people) = (force.rules, force.people);
    let p = &r.pack;
    let mut ranks = vec![];
    for s in 0..4u8 {
        let mut in_suit: Vec<Card> = CardSet::of_lane(s).and(p.cards).iter().collect();
        if in_suit.is_empty() {
            continue;
        }
        in_suit.sort_by_key(|c| std::cmp::Reverse(p.strength[c.0 as usize]));
        let codes: Vec<String> = in_suit
            .iter()
            .map(|c| {
                let code = c.to_string();
                code[..code.len() - 1].to_string()
            })
            .collect();
        ranks.push(format!("{}: {}", p.suit_names[s as usize], codes.join(" ")));
    }
    for text in pack_texts(p) {
        lines.push(line("pack and ranks", &p.clause, text));
    }
    lines.push(line("pack and ranks", &p.clause, format!("ranks high to low: {}", ranks.join("; "))));
    if let Some((other, choice, c)) = &other_pack {
        for text in pack_texts(&other.pack) {
            lines.push(line("pack and ranks", c, format!("with {choice}: {text}")));
        }
    }
    if let Some((lanes, _, c)) = &p.reversible {
        let names: Vec<&str> = lanes.iter().map(|l| p.suit_names[*l as usize].as_str()).collect();
        let reversed = r.pack.reversible.as_ref().and_then(|(_, e, _)| force.value(e));
        let text = match reversed {
            Some(Value::Bool(true)) => format!("the numerals of {} rank in reverse, 1 above 10", names.join(" and ")),
            Some(Value::Bool(false)) => format!("the numerals of {} rank as in the other suits (they may rank in reverse; not with these options)", names.join(" and ")),
            _ if people => {
                format!("the numerals of {} rank in reverse when {}", names.join(" and "), r.pack.reversible.as_ref().map(|(_, e, _)| force.words(e)).unwrap_or_default())
            }
            _ => format!("the numerals of {} rank in reverse when: {}", names.join(" and "), force.substitute(&statement_text(r, c))),
        };
        lines.push(line("pack and ranks", c, text));
    }
    for (ranked, e, c) in &p.trump_orders {
        let names: Vec<String> = ranked.iter().map(|t| t.to_string()).collect();
        let text = match force.value(e) {
            Some(Value::Bool(true)) => format!("with these options the trumps rank high to low: {}", names.join(" ")),
            Some(Value::Bool(false)) => format!("the trumps may rank high to low {} (not with these options)", names.join(" ")),
            _ => format!("the trumps rank high to low {} when: {}", names.join(" "), force.substitute(&statement_text(r, c))),
        };
        lines.push(line("pack and ranks", c, text));
    }
    for k in &r.classes {
        lines.push(line("card classes", &k.clause, format!("{}{}: {}", k.name, k.label.as_ref().map(|l| format!(" (\"{l}\")")).unwrap_or_default(), cards_short(k.cards))));
    }
    // Counters that follow options, with the options in force.
    let in_force = crate::replay::counting_for(&r.counting, &|e| force.value(e).ok_or_else(|| "not known before the game".to_string()));
    let c = in_force.as_ref().unwrap_or(&r.counting);
    let mut by_value: Vec<(u8, CardSet)> = vec![];
    for card in p.cards.iter() {
        let v = c.values[card.0 as usize];
        if v == 0 {
            continue;
        }
        match by_value.iter_mut().find(|(x, _)| *x == v) {
            Some((_, s)) => s.insert(card),
            None => by_value.push((v, CardSet::single(card))),
        }
    }
    by_value.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
    let values: Vec<String> = by_value.iter().map(|(v, s)| format!("{v} for {}", cards_short(*s))).collect();
    let total = crate::replay::count_points(c, p.cards, 0);
    lines.push(line(
        "counting",
        &c.clause,
        format!(
            "in groups of {}{}: {}; {}; surplus: {}{}; pack total {total}",
            c.group,
            r.counting
                .group_by_option
                .as_ref()
                .map(|(_, clause)| if people { " (with these options)".to_string() } else { format!(" (with these options; `{}`)", statement_text(r, clause)) })
                .unwrap_or_default(),
            values.join(", "),
            if c.empty_zero { "other cards nothing" } else { "a group of empty cards 1" },
            serde_json::to_value(c.surplus).unwrap_or_default().as_str().unwrap_or_default(),
            if c.short_packet == ShortPacket::SumLessOne { ", a short packet counted as a full one" } else { "" }
        ),
    ));
}
