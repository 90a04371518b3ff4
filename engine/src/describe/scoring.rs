//! The score in words: pots, triggered payments, the score's values, terms and payments, the match,
//! and the values the rules name.

use super::words::*;
use super::*;

/// The pots, the triggers, the score, the match and the top-level values.
pub(super) fn scoring(force: &InForce, lines: &mut Vec<Line>) {
    let r = force.rules;
    for p in &r.pots {
        lines.push(line(
            "pots",
            &p.clause,
            format!("{}: money kept on the table from deal to deal; a record says what it holds at the start of its deal (`pots`), the verdict what it holds at the end", p.label),
        ));
    }
    for t in &r.triggers {
        lines.push(Line {
            aspect: "payments during play",
            rule: t.clause.rule.clone(),
            text: format!(
                "{}, {}: {} {}",
                t.label,
                match t.on {
                    TriggerEvent::Cut => "when the cut card is shown",
                    TriggerEvent::Play => "when one of its cards is played",
                },
                match t.pot {
                    Some(i) => format!("{} pays the player", r.pots[i].label),
                    None => "each opponent pays the player".to_string(),
                },
                force.words(&t.value)
            ),
            source: t.clause.source.clone(),
            at: t.clause.at.clone(),
        });
    }
    for l in &r.score.lets {
        lines.push(Line {
            aspect: "scoring",
            rule: l.clause.rule.clone(),
            text: format!("{}: {}", l.name.replace('_', " "), force.words(&l.expr)),
            source: l.clause.source.clone(),
            at: l.clause.at.clone(),
        });
    }
    for t in &r.score.terms {
        lines.push(Line {
            aspect: "scoring",
            rule: t.clause.rule.clone(),
            text: format!("the hand score's term “{}”: {}", t.label, force.words(&t.expr)),
            source: t.clause.source.clone(),
            at: t.clause.at.clone(),
        });
    }
    for p in &r.score.pays {
        lines.push(Line {
            aspect: "scoring",
            rule: p.clause.rule.clone(),
            text: {
                // `pay defence to attack = total`: who pays whom, then how much.
                let head = statement_text(r, &p.clause);
                let who = head.split(" = ").next().unwrap_or_default().strip_prefix("pay ").unwrap_or_default().split('"').next().unwrap_or_default().trim().to_string();
                let (from, to) = who.split_once(" to ").unwrap_or((&who, ""));
                let side = |s: &str, other: bool| match s {
                    "players" if other => "each other player".to_string(),
                    "players" => "each player".to_string(),
                    s if s.starts_with("pot.") => r.pots.iter().find(|p| s[4..] == *p.name).map_or_else(|| s.to_string(), |p| p.label.to_string()),
                    s if s.contains(' ') || s.contains('(') => s.to_string(),
                    s => format!("the {s}"),
                };
                // Between a pot and players, each player pays or is paid: no "other" player.
                let other = !from.starts_with("pot.");
                format!("{} pays {}: {}", side(from, false), side(to, other), force.words(&p.amount))
            },
            source: p.clause.source.clone(),
            at: p.clause.at.clone(),
        });
    }
    for (what, (e, c)) in [("each player's standing", &r.score.standing), ("a winner", &r.score.winner)].into_iter().filter_map(|(w, x)| Some((w, x.as_ref()?))) {
        lines.push(Line { aspect: "scoring", rule: c.rule.clone(), text: format!("{what}: {}", force.words(e)), source: c.source.clone(), at: c.at.clone() });
    }
    if let Some(m) = &r.game_match {
        for (what, slot) in
            [("the match is over after this many deals played to the end", &m.deals), ("the match is over after the deal in which a player's total reaches", &m.target)]
        {
            if let Some((e, c)) = slot {
                lines.push(line("the match", c, format!("{what}: {}", force.words(e))));
            }
        }
        if m.deals.is_none() && m.target.is_none() {
            lines.push(line("the match", &m.clause, "no number of deals and no target: only a declaration ends the match".into()));
        }
        lines.push(line("the match", &m.clause, "its winners: the players with the highest total when it is over".into()));
    }
    // The values the rules name (`let`), as they are with these options: a ruleset that changes one
    // (the poignées' sizes at three players, their values at 20/40/60) differs here.
    for (i, l) in r.constants.iter().enumerate() {
        let value = force.text(&Expr::Let(i), |v| force.value_words(v));
        lines.push(line("values the rules name", &l.clause, format!("{}: {value}", l.name.replace('_', " "))));
    }
}
