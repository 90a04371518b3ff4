//! The players and the deal in words: the table, who sits out, how the cards are dealt, what a deal
//! must meet, the annulments, who deals next, and sitting a deal out by choice.

use super::words::*;
use super::*;

/// The table, the deal and the annulments.
pub(super) fn players_and_deal(force: &InForce, lines: &mut Vec<Line>) {
    let r = force.rules;
    let players = players_text(r);
    lines.push(line(
        "players and deal",
        &r.players_clause,
        format!(
            "{players} players, {}",
            match r.sides {
                Sides::Taker => "a taker against the defence",
                Sides::Each => "each for himself",
                Sides::Partners => "partners sitting opposite",
            }
        ),
    ));
    if let Some(c) = &r.sit_out {
        let at = if r.sit_out_from > 0 { format!(" at a table of {} or more", r.sit_out_from) } else { String::new() };
        let who = if r.sit_out_opposite { "the player opposite the dealer sits the deal out" } else { "the dealer deals to the others and sits the deal out" };
        let score = if r.sit_out_scores { "he is dealt no cards and makes no move, but pays and receives as a member of the defence" } else { "and he scores nothing" };
        let score = if r.sit_out_scores { format!("; {score}") } else { format!(", {score}") };
        lines.push(line("players and deal", c, format!("{who}{at}: one fewer play{score}")));
    }
    let deal_line = format!(
        "hand {}{}{}",
        setting(force, &r.deal.hand, "deal.hand"),
        r.deal.dealer.as_ref().map(|e| format!(", dealer {}", setting(force, e, "deal.dealer"))).unwrap_or_default(),
        r.deal.dog.as_ref().map(|e| format!(", {} {}", r.dog_word(), setting(force, e, "deal.dog"))).unwrap_or_default(),
    );
    lines.push(line("players and deal", &r.deal.clause, deal_line));
    if let Some((w, c)) = &r.deal.dog_name {
        lines.push(line("players and deal", c, format!("the cards dealt aside are called the {w}")));
    }
    if let Some(c) = &r.deal.cut {
        lines.push(line("players and deal", c, "the cut card, the bottom of the pack, is shown and dealt last, to the dealer".into()));
    }
    // Each from its own statement, which may be in the file a ruleset extends.
    if let Some((e, c)) = &r.deal.packets {
        let dealer = r.deal.dealer_packets.as_ref().map(|(e, _)| format!(", the dealer's {}", force.text(e, packets))).unwrap_or_default();
        lines.push(line("players and deal", c, format!("in packets of {} round the table from first hand{dealer}", force.text(e, packets))));
    }
    if let Some((e, c)) = &r.deal.dog_packets {
        lines.push(line("players and deal", c, format!("{} {} at a time, between the players' packets", r.the_dog(), force.text(e, cards))));
    }
    if let Some((e, c)) = &r.deal.dog_after {
        lines.push(line("players and deal", c, format!("{}'s packets together, after {} round(s) of the players' packets", r.the_dog(), force.text(e, plain))));
    }
    if let Some((e, c)) = &r.deal.dog_apart {
        let text = match force.value(e) {
            Some(Value::Num(q)) if q.to_string() == "1" => format!("never the first or the last card of the pack to {}", r.the_dog()),
            Some(v) => format!("never the first {} or the last {} of the pack to {}", cards(&v), plain(&v), r.the_dog()),
            None => format!("not the first or last cards of the pack to {}: {}", r.the_dog(), force.words(e)),
        };
        lines.push(line("players and deal", c, text));
    }
    for (label, e, c) in &r.deal.requires {
        let label = force.label(label);
        let text = match force.value(e) {
            Some(Value::Bool(true)) => format!("a deal must meet \"{label}\": met whatever the match, with these options"),
            _ => format!("a deal must meet \"{label}\": {}", force.words(e)),
        };
        lines.push(line("players and deal", c, text));
    }
    for a in &r.annulments {
        lines.push(Line {
            aspect: "annulments",
            rule: a.clause.rule.clone(),
            text: match force.value(&a.when) {
                Some(Value::Bool(false)) => format!("{}: not with these options", a.label),
                _ => format!("{}: when {}", a.label, force.words(&a.when)),
            },
            source: a.clause.source.clone(),
            at: a.clause.at.clone(),
        });
    }
    if let Some((w, c)) = &r.deal.next_dealer {
        let after = if r.deal.next_dealer_annulled.is_some() { "after a deal played to the end" } else { "after each deal" };
        lines.push(line("players and deal", c, format!("{after}, {}", next_dealer(force, w))));
    }
    if let Some((w, c)) = &r.deal.next_dealer_annulled {
        lines.push(line("players and deal", c, format!("after an annulled deal, {}", next_dealer(force, w))));
    }
}

/// A `packets` setting in words: the sizes, or the orders the dealer chooses among ("either 5, 6 or
/// 6, 5, as the dealer chooses").
fn packets(v: &Value) -> String {
    match v {
        Value::List(l) if l.iter().any(|o| matches!(o, Value::List(_))) => {
            format!("either {} (as the dealer chooses)", l.iter().map(plain).collect::<Vec<_>>().join(" or "))
        }
        v => plain(v),
    }
}

/// Who deals next (`next_dealer`), in words.
fn next_dealer(force: &InForce, w: &Choice<NextDealer>) -> String {
    force.text(&w.expr(), |v| match plain(v).as_str() {
        "first-hand" => "the deal passes to first hand, the player after the dealer in the direction of play".into(),
        "dealer" => "the same dealer deals again".into(),
        "taker" => "the deal's taker deals the next".into(),
        other => other.into(),
    })
}

/// Sitting the deal out by choice (`sit-out-by-choice`).
pub(super) fn sit_out_choice(force: &InForce, lines: &mut Vec<Line>) {
    let r = force.rules;
    if let Some(so) = &r.sit_out_choice {
        lines.push(line(
            "players and deal",
            &so.clause,
            "after the deal (and the steals), before the first card, one player may sit the deal out, in turn from first hand; his hand is out of play and the others play on"
                .into(),
        ));
        if let Some((e, c)) = &so.allowed {
            lines.push(line("players and deal", c, format!("anyone may sit out only where {}", force.words(e))));
        }
        lines.push(line("players and deal", &so.fee_clause, format!("who sits out pays the taker of the last trick, by his place in turn: {}", force.words(&so.fee))));
    }
}
