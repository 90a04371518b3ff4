//! The play in words: the direction, the lead, the trick's obligations, the cards a player may
//! withhold from them, the forced and kept cards, play that ends early, the Excuse and the cards
//! played like it.

use super::words::*;
use super::*;

/// The play of the cards (`play`).
pub(super) fn play(force: &InForce, lines: &mut Vec<Line>) {
    let (r, people) = (force.rules, force.people);
    let pl = &r.play;
    if let Some((w, c)) = &pl.direction {
        let way = force.text(&w.expr(), |v| match plain(v).as_str() {
            "anticlockwise" => "anticlockwise, each player's turn passing to his right".into(),
            "clockwise" => "clockwise, each player's turn passing to his left".into(),
            other => other.into(),
        });
        lines.push(line("trick obligations", c, format!("play goes {way} (the record lists each player before the one to his right)")));
    }
    lines.push(line("trick obligations", &pl.order_clause, "each plays in turn, once bidding and discards are done".into()));
    lines.push(line("trick obligations", &pl.hold_clause, "a player plays only cards he holds".into()));
    lines.push(Line {
        aspect: "trick obligations",
        rule: pl.lead_clause.rule.clone(),
        text: lead_words(&force.formula(&pl.lead_clause), || force.words(&pl.lead)),
        source: pl.lead_clause.source.clone(),
        at: pl.lead_clause.at.clone(),
    });
    let ladder: Vec<String> = pl.ladder.iter().map(|(o, _)| format!("{o:?}").to_lowercase()).collect();
    for (i, (o, c)) in pl.ladder.iter().enumerate() {
        let text = match o {
            Obligation::Follow => "must follow suit (trumps led: play a trump)",
            Obligation::Trump => "unable to follow: must trump",
            Obligation::Overtrump => "a trump played must beat the highest trump in the trick if possible",
            Obligation::Beat => "must win the trick if possible: a higher card of the suit led, or a higher trump",
        };
        let text = match pl.ladder_when.get(i) {
            Some(Some(e)) if people => format!("{text}, when {}", force.words(e)),
            Some(Some(_)) => format!("{text}, when {}", formula_text(r, c)),
            _ => text.to_string(),
        };
        lines.push(Line { aspect: "trick obligations", rule: c.rule.clone(), text, source: c.source.clone(), at: c.at.clone() });
    }
    let when = |e: &Option<crate::expr::Expr>, c: &Clause| match e {
        Some(e) if people => format!(", when {}", force.words(e)),
        Some(_) => format!(", when {}", formula_text(r, c)),
        None => String::new(),
    };
    for w in &pl.withholds {
        let (only, them) = if w.cards.len() == 1 { ("only trump is", "it") } else { ("only trumps are among", "them") };
        lines.push(line(
            "trick obligations",
            &w.clause,
            format!(
                "{}: a player whose {only} {} need not play {them} where a trump is due (trumps led, or none of the suit led){}; he may play another card instead, and so withholds {them}",
                w.label,
                r.cards_named(w.cards),
                when(&w.when, &w.clause)
            ),
        ));
    }
    for k in &pl.keeps {
        let c = &k.clause;
        let said = |e: &crate::expr::Expr| if people { force.words(e) } else { formula_text(r, c) };
        let when = |w: &Option<crate::expr::Expr>| w.as_ref().map_or(String::new(), |w| format!(", when {}", said(w)));
        let text = match (&k.cards, k.last_trump) {
            (e, true) => format!("these cards may be played only as a player's last trump: {}", said(e)),
            (crate::expr::Expr::Const(crate::expr::Value::Cards(set)), false) => {
                // `while CLASS`: while other cards of the class are held.
                let others = match k.among {
                    a if a == CardSet::full() => "other cards".to_string(),
                    a if a == r.pack.trumps() => "other trumps".to_string(),
                    a => format!("other cards of {}", r.cards_named(a)),
                };
                format!("{}: {} may not be led or played while {others} are held{}", k.label, r.cards_named(*set), when(&k.when))
            }
            (_, false) => format!("{}: cards kept back while others are held{}", k.label, when(&k.when)),
        };
        lines.push(line("trick obligations", c, text));
    }
    // Played as the Excuse (`excuse`): a rule of the play, whatever the pack's own Fool is.
    for x in &pl.excuses {
        lines.push(line(
            "trick obligations",
            &x.clause,
            format!(
                "{}: {} is played as the Excuse{}: it obeys no obligation, sets no suit (the next card does), takes no trick, and stays with its player's side, who gives the trick's winner an empty card for it",
                x.label,
                r.cards_named(x.cards),
                when(&x.when, &x.clause)
            ),
        ));
    }
    for f in &pl.forced {
        let word = if f.lead { "led" } else { "played" };
        let when = match &f.when {
            Some(w) if people => format!(", when {}", force.words(w)),
            Some(_) => format!(", when {}", formula_text(r, &f.clause)),
            None => String::new(),
        };
        let text = match &f.cards {
            crate::expr::Expr::Const(crate::expr::Value::Cards(set)) => format!("{}: {} must be {word} when held{when}", f.label, r.cards_named(*set)),
            e => format!(
                "{}: these cards must be {word} when held, as worked out at the player's turn: {}",
                f.label,
                if people { force.words(e) } else { formula_text(r, &f.clause) }
            ),
        };
        let text = if f.instead { format!("{text}; where one is held, in place of following suit and trumping") } else { text };
        lines.push(line("trick obligations", &f.clause, text));
    }
    // Cards that take no trick (`loses`): they obey the obligations and go with the trick.
    for l in &pl.loses {
        let said = |e: &crate::expr::Expr| if people { force.words(e) } else { formula_text(r, &l.clause) };
        let cards = match &l.cards {
            crate::expr::Expr::Const(crate::expr::Value::Cards(set)) => r.cards_named(*set),
            e => format!("the cards worked out at the player's turn, {}", said(e)),
        };
        let when = l.when.as_ref().map_or(String::new(), |w| format!(", when {}", said(w)));
        lines.push(line(
            "trick obligations",
            &l.clause,
            format!("{}: {cards}, played{when}, take no trick and, led, set no suit (the next card does); they follow suit as any card and go with the trick", l.label),
        ));
    }
    // Several cards led at once (`lead-together`), each beginning a trick.
    for t in &pl.together {
        let when = if people { force.words(&t.when) } else { formula_text(r, &t.clause) };
        let suits: Vec<&str> = t.suits.iter().map(|&l| r.pack.suit_names[l as usize].as_str()).collect();
        lines.push(line(
            "trick obligations",
            &t.clause,
            format!(
                "{}: when {when}, the leader leads {} cards at once, each beginning a trick; each player in turn then plays one card to each, the first to the first trick, each judged by that trick's obligations with his hand as it stands; each trick goes to its highest card, and the next lead to whoever won with the highest winning card (a trump above a suit card, suit cards by their height in their suit), equal cards parted by the suits in the order {}",
                t.label,
                t.n,
                suits.join(", ")
            ),
        ));
    }
    // Who leads after some tricks, where not their winner (`next-lead`).
    for n in &pl.next_leads {
        let who = if people { force.words(&n.who) } else { formula_text(r, &n.clause) };
        lines.push(line(
            "trick obligations",
            &n.clause,
            format!("{}: after each trick (play going on), the next trick is led by {who}; where that is none, by the usual leader", n.label),
        ));
    }
    for end in &pl.ends {
        let when = if people { force.words(&end.when) } else { formula_text(r, &end.clause) };
        lines.push(line("trick obligations", &end.clause, format!("{}: play ends after the trick in which {when}, and the deal is scored as it stands", end.label)));
    }
    if let Some((e, c)) = &pl.trumps_win {
        let when = if people { force.words(e) } else { formula_text(r, c) };
        lines.push(line("trick obligations", c, format!("trumps beat the cards of a suit led only when {when} (otherwise the highest card of the suit led wins)")));
    }
    for f in &pl.faults {
        let word = format!("{:?}", f.obligation).to_lowercase();
        let (stands, pays) = match (f.ends_deal, f.by_side) {
            (false, false) => ("the card stands", "the offender pays"),
            (false, true) => ("the card stands", "each player of the offender's side pays"),
            (true, false) => ("the deal ends there", "the offender pays"),
            (true, true) => ("the deal ends there", "each player of the offender's side pays"),
        };
        let others = if f.by_side { "each player of the other side" } else { "each other player" };
        let mut text = format!(
            "breaking `must {word}` is a fault, \"{}\", not a refused card: {stands} and {pays} {} to {others}",
            f.label,
            if people { force.words(&f.amount) } else { formula_text(r, &f.clause) }
        );
        if f.ends_deal {
            text.push_str(" (nothing more is played or scored)");
        }
        if people && force.known_value(&f.amount) == Some(Value::Cards(CardSet::EMPTY)) {
            text = format!("breaking must {word} is no fault with these options: the card is refused");
        } else if formula_text(r, &f.clause).split(|ch: char| !ch.is_alphanumeric() && ch != '_').any(|w| w == "none") {
            text.push_str(" (where it is `none`, breaking the obligation is no fault: the card is refused)");
        }
        if let Some(e) = &f.gives_back {
            let name = match e {
                Expr::Const(Value::Cards(class)) => r.classes.iter().find(|k| k.cards == *class).map(|k| k.name.clone()).unwrap_or_else(|| cards_short(*class)),
                Expr::Let(i) if people => {
                    r.constants.get(*i).map(|l| format!("{} ({})", l.name.replace('_', " "), force.text(&Expr::Let(*i), |v| force.value_words(v)))).unwrap_or_default()
                }
                Expr::Let(i) => r.constants.get(*i).map(|l| format!("`{}` ({})", l.name, formula_text(r, &l.clause))).unwrap_or_default(),
                _ => "a formula".into(),
            };
            text.push_str(&format!("; the cards of {name} its card takes go back to the players who played them"));
        }
        lines.push(line("trick obligations", &f.clause, text));
    }
    if ladder.is_empty() {
        lines.push(Line { aspect: "trick obligations", rule: "play".into(), text: "no obligation".into(), source: None, at: pl.lead_clause.at.clone() });
    }
}

/// The Excuse (`fool`), where the pack has one, and a card played like it (`untouchable`); `original`
/// and `other_pack` say when the Excuse's rules hold by an option.
pub(super) fn excuse(force: &InForce, original: &Ruleset, other_pack: &Option<(&Ruleset, String, Clause)>, lines: &mut Vec<Line>) {
    let r = force.rules;
    let f = &r.fool;
    // A pack whose Fool is a trump (or that has none) has no Excuse for these rules to describe.
    let excuse_in_pack = r.pack.cards.contains(crate::cards::FOOL);
    let fool_lines: Vec<(&Clause, String)> = if !excuse_in_pack {
        vec![]
    } else {
        [
            f.excuse.as_ref().map(|c| (c, "may be played to any trick instead of obeying".to_string())),
            Some((
                &f.clause,
                format!(
                    "led, {}; played, {}; played to the last trick, {}",
                    force.text(&f.led.expr(), |v| fool_words(&plain(v))),
                    force.text(&f.keep.expr(), |v| fool_words(&plain(v))),
                    force.text(&f.last_trick.expr(), |v| fool_words(&plain(v)))
                ),
            )),
            f.slam_wins.as_ref().map(|c| match &f.slam_wins_when {
                None => (c, "led to the last trick by a side that won every other trick, it wins".to_string()),
                Some(w) => (c, format!("{} to the last trick by a side that won every other trick, it wins", force.text(&w.expr(), plain))),
            }),
            f.deadline.as_ref().map(|(e, c)| (c, format!("must be played before the last {} tricks, by a holder who may play it", force.words(e)))),
        ]
        .into_iter()
        .flatten()
        .collect()
    };
    for (c, t) in fool_lines {
        lines.push(Line { aspect: "the excuse", rule: c.rule.clone(), text: t, source: c.source.clone(), at: c.at.clone() });
    }
    // Where the Fool is a trump by an option, the Excuse's rules hold only while it is not: said
    // under the choice that keeps them, and under the one that voids them.
    if let (Some((_, choice, _)), Some(section)) = (&other_pack, Some(&original.fool.clause).filter(|c| !c.at.is_empty())) {
        let name = &original.pack.fool_name;
        let text = if excuse_in_pack {
            format!("these rules hold while {name} is the Excuse: with {choice} it is a trump, and they do not apply")
        } else {
            format!("{name} is a trump with these options: the rules of the Excuse (the fool section) do not apply; with {choice} they do")
        };
        lines.push(line("the excuse", section, text));
    }
    if let Some(u) = &r.untouchable {
        let when = force.words(&u.when);
        lines.push(line(
            "the excuse",
            &u.clause,
            format!(
                "{}: {} in a hand where {when} is played like the Excuse but keeps its rank; when it does not take its trick, it goes back to its owner for an empty card",
                u.label,
                r.card_name(u.card)
            ),
        ));
    }
}
