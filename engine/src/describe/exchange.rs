//! The cards that change hands after the auction, in words: the dog and the discard, the talon, the
//! buy and the steal.

use super::words::*;
use super::*;

/// `discard`, `talon`, `buy` and `steal`.
pub(super) fn exchange(force: &InForce, lines: &mut Vec<Line>) {
    let r = force.rules;
    if let Some(d) = &r.discard {
        let who: Vec<String> = [("taker", &d.taker), ("dealer", &d.dealer), ("others", &d.others)]
            .iter()
            .filter(|(_, e)| e.is_some())
            .map(|(k, e)| format!("{k} {}", e.as_ref().map(|e| setting(force, e, &format!("discard.{k}"))).unwrap_or_default()))
            .collect();
        lines.push(line("dog and discard", &d.clause, format!("cards discarded: {}", who.join(", "))));
        for (i, f) in d.forbid.iter().enumerate() {
            // A class that follows options: the cards it forbids with the options in force.
            let in_force = d.forbid_by_option.iter().find(|(j, _)| *j == i).and_then(|(_, e)| force.value(e));
            let cards = match in_force {
                Some(Value::Cards(set)) if set.is_empty() => " (with these options: no card)".to_string(),
                Some(Value::Cards(set)) => format!(" (with these options: {})", cards_short(set)),
                _ => String::new(),
            };
            lines.push(Line {
                aspect: "dog and discard",
                rule: f.clause.rule.clone(),
                text: format!("may never discard {}{cards}", f.label),
                source: f.clause.source.clone(),
                at: f.clause.at.clone(),
            });
        }
        if let Some(u) = &d.unless_unavoidable {
            lines.push(Line {
                aspect: "dog and discard",
                rule: u.clause.rule.clone(),
                text: format!("may discard {} only when unavoidable, and only as many as must go, shown", u.label),
                source: u.clause.source.clone(),
                at: u.clause.at.clone(),
            });
        }
        if let Some((k, e, penalty)) = &d.penalize {
            lines.push(line("dog and discard", penalty, format!("discarding {} is paid for, to each opponent: {}", k.label, force.words(e))));
        }
        for (label, e, c) in &d.requires {
            lines.push(line("dog and discard", c, format!("a discard must meet \"{}\": {}", force.label(label), force.words(e))));
        }
        if let Some((w, c)) = &d.goes_to {
            lines.push(line("dog and discard", c, format!("at the end of play, each discard goes to: {}", force.words(&w.expr()))));
        }
        if let Some(f) = &d.size_fault {
            let pays = if f.by_side { "each player of the discarder's side pays each player of the other" } else { "the discarder pays each other player" };
            let text = format!("a discard of the wrong number of cards is a fault, \"{}\", not refused: the deal ends there and {pays} {}", f.label, force.words(&f.amount));
            lines.push(line("dog and discard", &f.clause, text));
        }
    }
    if let Some(t) = &r.talon {
        let rest = match &t.rest {
            Some((_, _)) if t.rest_per_packet => "the defence or the taker, packet by packet (below)".to_string(),
            Some((w, _)) => force.words(&w.expr()),
            None => "the defence".to_string(),
        };
        lines.push(line(
            "dog and discard",
            &t.clause,
            format!(
                "{} is {} in packets: {}; the taker takes one, the rest goes to {rest}",
                r.the_dog(),
                if t.unseen.is_some() { "cut" } else { "shown" },
                force.words(&t.packets)
            ),
        ));
        if let (Some((w, c)), true) = (&t.rest, t.rest_per_packet) {
            lines.push(line(
                "dog and discard",
                c,
                format!(
                    "each packet the taker does not take, and each packet of a {} he does not take at all (a contract whose {} counts for the defence), goes where this says for it (the packet's cards are \"the packet\"): {}",
                    r.talon_word(),
                    r.dog_word(),
                    force.words(&w.expr())
                ),
            ));
        }
        if let Some((e, c)) = &t.split {
            lines.push(line(
                "dog and discard",
                c,
                format!("the taker lays away part of his discard before he sees {}, the rest once it has come to him; before: {}", r.the_talon(), force.words(e)),
            ));
        }
        if let Some((e, c)) = &t.given {
            lines.push(line("dog and discard", c, format!("the taker gets, with no choice, the packet numbered (in the order dealt): {}", force.words(e))));
        }
        if let Some(c) = &t.unseen {
            lines.push(line(
                "dog and discard",
                c,
                format!(
                    "{} is not turned up: the taker takes his packet unseen, the rest stays unseen, and he shows none of the cards he took before the hand's end",
                    r.the_talon()
                ),
            ));
        }
    }
    if let Some(b) = &r.buy {
        lines.push(line(
            "dog and discard",
            &b.clause,
            format!(
                "after his discard the taker may buy cards, as many as: {}; for each he calls a card of another hand, whose holder gives it to him and takes back a card of his hand",
                force.words(&b.cards)
            ),
        ));
    }
    if let Some(st) = &r.steal {
        let how = |h: crate::ir::StealHow| if h == crate::ir::StealHow::All { "every one while they come" } else { "as many as he likes" };
        lines.push(line(
            "dog and discard",
            &st.clause,
            format!("after the deal, players steal from the head of {}, in turn, and each lays away as many cards, to {}", r.the_dog(), r.the_dog()),
        ));
        lines.push(line("dog and discard", &st.cards.clause, format!("only {} may be stolen", st.cards.label)));
        if let Some((h, c)) = &st.cutter {
            lines.push(line("dog and discard", c, format!("the cutter (the player before the dealer) steals first: {}", how(*h))));
        }
        if let Some((h, c)) = &st.dealer {
            lines.push(line("dog and discard", c, format!("the dealer steals from where the cutter stopped: {}", how(*h))));
        }
    }
}
