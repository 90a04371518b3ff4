//! The declarations and bonuses in words.

use super::words::*;
use super::*;

/// Each declaration: when, by whom, what it shows, when it is allowed, what it binds and pays.
pub(super) fn declarations(force: &InForce, lines: &mut Vec<Line>) {
    let r = force.rules;
    for d in &r.declarations {
        let when = match d.when {
            When::BeforePlay => "before play".to_string(),
            When::AfterDiscard => "after the discard".to_string(),
            When::FirstPlay => "at the declarer's turn to play his first card".to_string(),
            When::AfterDeal => "right after the deal, before any other move".to_string(),
            When::AfterPlay => "claimed after the last trick, from the cards held before the discard".to_string(),
            When::BeforeTake => format!("once {} is shown, before the taker takes his packet", r.the_talon()),
            When::AfterOpeningRound => "once the auction's opening round is over, before the next bid".to_string(),
        };
        lines.push(Line {
            aspect: "declarations and bonuses",
            rule: d.clause.rule.clone(),
            text: format!(
                "{} ({when}{}){}",
                d.label,
                match d.by {
                    DeclaredBy::Any => "",
                    DeclaredBy::Taker => ", by the taker",
                    DeclaredBy::Attack => ", by the taker or his partner",
                    DeclaredBy::Defence => ", by the defence",
                    DeclaredBy::AnySide => ", by either side, each once",
                },
                if d.shows.is_empty() { String::new() } else { format!(", shows {}", cards_short(d.shows)) }
            ),
            source: d.clause.source.clone(),
            at: d.clause.at.clone(),
        });
        for a in &d.allowed {
            let reason = a.reason.as_deref().map(|r| format!(" ({})", force.label(r))).unwrap_or_default();
            // A condition on options alone is settled by the options in force; one that reads the
            // game (the auction, the sides) is not, though an empty game may give it a value.
            let settled = if a.condition.mentions_any_fact() { None } else { force.value(&a.condition) };
            let text = match settled {
                Some(Value::Bool(true)) => format!("{} is allowed with these options{reason}", with_article(&d.label)),
                Some(Value::Bool(false)) => format!("{} is not allowed with these options{reason}", with_article(&d.label)),
                _ => format!("{} is allowed only when {}{reason}", with_article(&d.label), force.words(&a.condition)),
            };
            lines.push(line("declarations and bonuses", &a.clause, text));
        }
        if let Some(c) = &d.compulsory {
            let by = if d.when == When::FirstPlay { "at his turn to play his first card" } else { "before the first card" };
            // `compulsory = condition`: read on the options chosen (it reads nothing else).
            let text = match d.compulsory_if.as_ref().map(|e| force.value(e)) {
                Some(Some(Value::Bool(false))) => format!("{} is not compulsory with these options: one not declared is simply not made, nor paid", with_article(&d.label)),
                Some(Some(Value::Bool(true))) | None => format!("{} is compulsory: a player who holds one must declare it {by}", with_article(&d.label)),
                Some(_) => format!("{} is compulsory when {}: a player who holds one must declare it {by}", with_article(&d.label), force.words(d.compulsory_if.as_ref().unwrap())),
            };
            lines.push(line("declarations and bonuses", c, text));
        }
        // `in-turn from dealer = condition`, read on the options chosen, rules over plain `in-turn`.
        let from_dealer = d.in_turn_from_dealer.as_ref().filter(|(e, _)| force.value(e) == Some(Value::Bool(true)));
        if let Some((_, c)) = from_dealer {
            lines.push(line(
                "declarations and bonuses",
                c,
                format!(
                    "{} is declared in turn from the dealer: the dealer first, then the others in the order of play; no player declares after one later in turn has declared",
                    with_article(&d.label)
                ),
            ));
        } else if let Some(c) = &d.in_turn {
            lines.push(line(
                "declarations and bonuses",
                c,
                format!("{} is declared in turn from first hand: no player declares after one later in turn has declared", with_article(&d.label)),
            ));
        }
        if let Some(c) = &d.from_discard {
            lines.push(line("declarations and bonuses", c, format!("{} may show cards its declarer laid away as well as those in his hand", with_article(&d.label))));
        }
        if let Some(c) = &d.ends_match {
            lines.push(line(
                "declarations and bonuses",
                c,
                format!("{} ends the deal where it is made, scored on what has been played, and the match: the declarer's side wins it", with_article(&d.label)),
            ));
        }
        if let Some(x) = &d.ends_match_after {
            lines.push(line(
                "declarations and bonuses",
                &x.clause,
                format!(
                    "{} does not end the deal; it names {}, the first such in turn from first hand on the hands as dealt, and the match ends after the next deal he deals",
                    with_article(&d.label),
                    x.label
                ),
            ));
        }
        if let Some(c) = d.ends_deal.as_ref().filter(|_| d.annuls) {
            lines.push(line(
                "declarations and bonuses",
                c,
                format!("{} throws the deal in: it is annulled, nobody scores, and the next deal is dealt as after any annulled deal", with_article(&d.label)),
            ));
        } else if let Some(c) = &d.ends_deal {
            let paid = if d.paid_by.is_some() || !d.pays.is_empty() { "what it pays is the deal's whole score" } else { "nobody scores" };
            lines.push(line("declarations and bonuses", c, format!("{} ends the deal where it is made, unplayed: {paid}, and the match goes on", with_article(&d.label))));
        }
        if let Some(c) = &d.repeats {
            lines.push(line("declarations and bonuses", c, format!("{} may be made again, by the same player too, each time counting once more", with_article(&d.label))));
        }
        for pay in &d.pays {
            // `pay players to players = amount`: who pays whom when it is made, then how much.
            let head = statement_text(r, &pay.clause);
            let who = head.split(" = ").next().unwrap_or_default().strip_prefix("pay ").unwrap_or_default().split('"').next().unwrap_or_default().trim().to_string();
            let (from, to) = who.split_once(" to ").unwrap_or((&who, ""));
            let side = |s: &str, other: bool| match s {
                "players" if other => "each other player".to_string(),
                "players" => "each player".to_string(),
                s if s.contains(' ') || s.contains('(') => s.to_string(),
                s => format!("the {s}"),
            };
            lines.push(line(
                "declarations and bonuses",
                &pay.clause,
                format!("when {} is made, {} pays {} (“{}”): {}", with_article(&d.label), side(from, false), side(to, true), pay.label, force.words(&pay.amount)),
            ));
        }
        if let Some(c) = &d.every_card_counts {
            lines.push(line("declarations and bonuses", c, format!("every card shown in {} must count: its value drops without it", with_article(&d.label))));
        }
        if let Some((k, c)) = &d.keeps {
            lines.push(line("declarations and bonuses", c, format!("its declarer keeps {} until the last trick, unless he has no other card to play", r.cards_named(*k))));
        }
        for (msg, _, c) in &d.requires {
            lines.push(Line { aspect: "declarations and bonuses", rule: c.rule.clone(), text: force.label(msg), source: c.source.clone(), at: c.at.clone() });
        }
    }
}
