//! The auction and the call in words.

use super::words::*;
use super::*;

/// The auction (`bidding`) and the taker's call (`call`).
pub(super) fn bidding(force: &InForce, lines: &mut Vec<Line>) {
    let r = force.rules;
    if let Some(b) = &r.bidding {
        let turns = match b.turns {
            Turns::Once => "each player speaks once, outbidding or passing",
            Turns::UntilOneLeft => "bidding with immediate hold: a player outbid answers at once, outbidding in turn or leaving; who passes is out",
            Turns::Rounds => "round and round from first hand, each outbidding or passing; who passes is out, and the bidding ends when nobody is left to outbid the best bid",
        };
        lines.push(line("bidding and contracts", &b.turns_clause, turns.into()));
        if let Some(c) = &b.hold {
            // The hold of the options in force: forehand's (no `hold_by`, or it gives "forehand"), or
            // by seniority.
            let kind = b.hold_by.as_ref().map(|w| force.value(&w.expr()));
            let text = match kind {
                None => "forehand may hold: bid the contract another player holds, and take it over; every other bid must be higher".to_string(),
                Some(Some(Value::Str(w))) if &*w == "forehand" => "forehand may hold: bid the contract another player holds, and take it over; every other bid must be higher".to_string(),
                Some(Some(Value::Str(_))) => "each player may hold the bid of a player after him in turn from first hand (seniority): bid the contract he holds, and take it over; every other bid must be higher".to_string(),
                Some(_) => "forehand may hold, or each player the bid of a player after him (seniority), as the options choose".to_string(),
            };
            let text = if b.hold_by.as_ref().is_some_and(|w| !matches!(w, Choice::Is(_))) { format!("{text} (with these options)") } else { text };
            lines.push(line("bidding and contracts", c, text));
        }
        let names = |cs: &[usize]| cs.iter().map(|&i| b.contracts[i].label.as_str()).collect::<Vec<_>>().join(", ");
        // `opening-bidder out = condition`: read on the options chosen (it reads nothing else); where
        // it is false the opening bidder speaks again, as without the statement.
        let out_when = b.opening_out_if.as_ref().map(|e| (force.value(e), e));
        let out = b.opening_out.as_ref().filter(|_| !matches!(out_when, Some((Some(Value::Bool(false)), _))));
        if let Some((cs, c)) = &b.opening_round {
            // With `opening-bidder out`, its own line says what becomes of the opening bidder.
            let who = if out.is_some() {
                "which every player but the opening bidder enters again"
            } else {
                "which every player enters again, the opening bid held by its bidder, who comes first in the auction's order, before first hand"
            };
            let text = format!(
                "an opening round comes first: from first hand, each player bids {} or passes, and the first bid ends it; these are bid only there, the other contracts only in the auction after it, {who}",
                names(cs)
            );
            lines.push(line("bidding and contracts", c, text));
        }
        if let Some(c) = out {
            let when = match out_when {
                Some((Some(Value::Bool(true)), _)) | None => String::new(),
                Some((_, e)) => format!(" (when {})", force.words(e)),
            };
            let begins = if b.opening_out_from_first {
                "that auction begins with first hand (with the player after him if it was first hand who bid) and goes round the others in turn"
            } else {
                "that auction begins with the player after him in turn"
            };
            lines.push(line(
                "bidding and contracts",
                c,
                format!("the opening round's bidder does not speak again{when}: his bid is the best bid as the auction after it begins, nobody may hold it, and {begins}"),
            ));
        }
        if let Some((cs, c)) = &b.closing {
            lines.push(line("bidding and contracts", c, format!("a bid of {} ends the auction at once: its bidder plays it", names(cs))));
        }
        if let Some((cs, c)) = &b.out_of_turn {
            lines.push(line("bidding and contracts", c, format!("{} may also be bid before the bidder's turn, by a player who has not yet spoken in the round", names(cs))));
        }
        if let Some(c) = &b.no_reraise {
            lines.push(line("bidding and contracts", c, "a player outbid may not bid again, only pass".into()));
        }
        if let Some((cs, c)) = &b.first_turn {
            let names: Vec<&str> = cs.iter().map(|&i| b.contracts[i].label.as_str()).collect();
            lines.push(line("bidding and contracts", c, format!("{} may be bid only at a player's first turn", names.join(", "))));
        }
        if let Some((cs, c)) = &b.step {
            let names: Vec<&str> = cs.iter().map(|&i| b.contracts[i].label.as_str()).collect();
            let lowest = if b.step_lowest { "; a player who may hold the one held only holds it or passes (no jump bids)" } else { "" };
            lines.push(line("bidding and contracts", c, format!("of {}, one held may be outbid only by the next{lowest}", names.join(", "))));
        }
        for m in &b.must_bid {
            lines.push(line(
                "bidding and contracts",
                &m.clause,
                format!("{}: must bid at least {} while it is open to him ({})", m.label, b.contracts[m.contract].label, force.words(&m.when)),
            ));
        }
        if let Some(res) = &b.reserve {
            lines.push(line(
                "bidding and contracts",
                &res.clause,
                format!("a player may say {} (no contract yet) and choose in a second round among: {}", res.label, force.text(&res.contracts, plain)),
            ));
        }
        for (i, k) in b.contracts.iter().enumerate() {
            // A contract chosen after the auction (`instead`) has no taker: its dog counts for nobody.
            let chosen = b.instead.iter().any(|x| x.chosen == i);
            let attrs: Vec<String> = k
                .attrs
                .iter()
                .map(|(name, e)| {
                    let v = force.value(e).map(|v| plain(&v)).unwrap_or_else(|| "a value worked out in play".into());
                    match name.as_str() {
                        "multiplier" => format!("scores {v} times the base"),
                        "dog" if chosen => format!("no taker: {} counts for nobody", r.the_dog()),
                        "dog" => format!("{} {}", r.the_dog(), dog_words(&v)),
                        "value" | "amount" => format!("worth {v}"),
                        _ => format!("{} {v}", name.replace('_', " ")),
                    }
                })
                .collect();
            lines.push(Line {
                aspect: "bidding and contracts",
                rule: k.clause.rule.clone(),
                text: format!("{}: {}", k.label, attrs.join("; ")),
                source: k.clause.source.clone(),
                at: k.clause.at.clone(),
            });
            // Who may bid it (`by`) and its settlement unplayed (`settle`): rules of their own.
            if let Some(by) = &k.by {
                lines.push(line("bidding and contracts", &by.clause, format!("{} may be bid only by {}", k.label, by.label)));
            }
            // What it requires of the game once the announcements are closed (`require`).
            for (label, e, c) in &k.requires {
                lines.push(line("bidding and contracts", c, format!("{} requires {label}: its taker may not play the first card without it ({})", k.label, force.words(e))));
            }
            if let Some((e, c)) = &k.settle {
                lines.push(line(
                    "bidding and contracts",
                    c,
                    format!("{} is not played: once it wins the auction the deal ends, and each opponent pays the taker {}", k.label, force.text(e, plain)),
                ));
            }
        }
        for i in &b.instead {
            lines.push(line(
                "bidding and contracts",
                &i.clause,
                format!(
                    "{}: may choose {} in place of {} once the auction is won (when {}), each then playing for himself, {} counting for nobody; nobody bids it",
                    i.label,
                    b.contracts[i.chosen].label,
                    b.contracts[i.won].label,
                    force.words(&i.when),
                    r.the_dog()
                ),
            ));
        }
        for x in &b.raise {
            let to: Vec<&str> = x.to.iter().map(|&c| b.contracts[c].label.as_str()).collect();
            let (won, when) = (&b.contracts[x.won].label, force.words(&x.when));
            let text = format!("{}: having won the auction with {won} (when {when}), names once more the contract he plays: {won} or, as its taker, {}", x.label, to.join(", "));
            lines.push(line("bidding and contracts", &x.clause, text));
        }
        // The players named to play when all pass, tried in turn; then what happens when nobody is.
        for (i, x) in b.all_pass_by.iter().enumerate() {
            let (k, when) = (&b.contracts[x.contract].label, force.words(&x.when));
            let first = if i == 0 { "all players pass" } else { "all players pass and nobody named above" };
            let text = format!(
                "{first}: {}, the first in turn from first hand whose hand as dealt meets it ({when}), plays {k} as its taker, as if he had won the auction with it",
                x.label
            );
            lines.push(line("bidding and contracts", &x.clause, text));
        }
        let nobody = if b.all_pass_by.is_empty() { "all players pass" } else { "all players pass and nobody is named" };
        match (&b.all_pass, b.all_pass_play, b.all_pass_by.first()) {
            (Some(c), Some(k), _) => lines.push(line(
                "bidding and contracts",
                c,
                format!("{nobody}: {} is played, each for himself, with no taker; {} counts for nobody", b.contracts[k].label, r.the_dog()),
            )),
            (Some(c), None, _) | (None, _, Some(AllPassBy { clause: c, .. })) => {
                lines.push(Line { aspect: "annulments", rule: c.rule.clone(), text: format!("{nobody}: the deal is void"), source: c.source.clone(), at: c.at.clone() });
            }
            (None, _, None) => {}
        }
        for pay in &b.all_pass_pays {
            // `all-pass pay players to first_hand = amount`: who pays whom, then how much.
            let head = statement_text(r, &pay.clause);
            let who = head.split(" = ").next().unwrap_or_default().strip_prefix("all-pass pay ").unwrap_or_default().split('"').next().unwrap_or_default().trim().to_string();
            let (from, to) = who.split_once(" to ").unwrap_or((&who, ""));
            let side = |s: &str, other: bool| match s {
                "players" if other => "each other player".to_string(),
                "players" => "each player".to_string(),
                s if s.contains(' ') || s.contains('(') => s.to_string(),
                s => format!("the {}", s.replace('_', " ")),
            };
            let text = format!("{nobody} and the deal is thrown in: {} pays {} (“{}”): {}", side(from, false), side(to, true), pay.label, force.words(&pay.amount));
            lines.push(Line { aspect: "annulments", rule: pay.clause.rule.clone(), text, source: pay.clause.source.clone(), at: pay.clause.at.clone() });
        }
    }
    if let Some(c) = &r.call {
        let levels: Vec<String> = c.levels.iter().map(|l| cards_short(*l)).collect();
        lines.push(line(
            "bidding and contracts",
            &c.clause,
            format!(
                "the taker calls a partner's card: {}, each level only when he holds all of the one before; the card in {} or his own hand leaves him alone",
                levels.join(", then "),
                r.the_dog()
            ),
        ));
        if let Some((e, clause)) = &c.opening_lead_excludes {
            lines.push(line("trick obligations", clause, format!("the first lead may not be: {}", force.words(e))));
        }
        if let Some((e, clause)) = &c.callable_levels {
            lines.push(line(
                "bidding and contracts",
                clause,
                format!("levels that may be called: {}; a taker holding every card of them calls nothing and plays alone", force.words(e)),
            ));
        }
    }
}
