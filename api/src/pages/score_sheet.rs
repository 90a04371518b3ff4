//! A finished game's score sheet in the ruleset's words: each value the score names, with what it
//! means (its formula read for people) and its figure per side or player, cards drawn as cards; what
//! changes card points besides the tricks (the empty card handed back for the Excuse, a dog counted
//! for one side); then the ledger, who pays whom, how much, by which rule and from which source, for
//! every ruleset (where the rules keep a standing instead of payments, each side's standing by the
//! rule that sets it).

use maud::{html, Markup};
use tarot_engine::ir::Ruleset;
use tarot_engine::{Card, Figure, GameDrawing, GameRecord, GameSides as Seats, Outcome, ScoreValue, Verdict, Q};

use crate::pages::card_code;
use crate::pages::game_view::{contract_label, pot_label, rule_ref, sorted};

/// The players of `o` in groups that score together: a side whose players have the same figure in
/// every value worked out per player is one column; otherwise each player is one.
fn columns(o: &Outcome, per_player: &[&[Figure]], seats: &Seats) -> Vec<Vec<usize>> {
    let n = o.players.len();
    let mut groups: Vec<Vec<usize>> = vec![];
    for i in 0..n {
        let joins = groups.iter_mut().find(|g| seats.same_side(&o.players[g[0]].player, &o.players[i].player) && per_player.iter().all(|v| v[g[0]] == v[i]));
        match joins {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups
}

/// A figure for people: yes or no, a trick by its number, cards drawn, a list item by item with
/// what each item counts where the rule file writes the list out.
fn figure(rules: Option<&Ruleset>, f: &Figure, items: &[String]) -> Markup {
    let is_card = |t: &str| rules.map_or_else(|| Card::parse(t), |r| r.pack.parse_card(t)).is_some();
    match f {
        Figure::Num(q) => html! { (amount(*q)) },
        Figure::Bool(true) => html! { "yes" },
        Figure::Bool(false) => html! { "no" },
        Figure::Trick(t) => html! { "trick " (t + 1) },
        Figure::Text(t) if is_card(t) => card_code(rules, t, ""),
        Figure::Text(t) => html! { (contract_label(rules, t)) },
        Figure::List(l) if l.is_empty() => html! { "none" },
        Figure::List(l) if l.iter().all(|x| matches!(x, Figure::Text(t) if is_card(t))) => {
            let codes: Vec<&str> = l.iter().filter_map(|x| if let Figure::Text(t) = x { Some(&**t) } else { None }).collect();
            html! { span class="count" { (codes.len()) " cards: " } (sorted(rules, &codes)) }
        }
        Figure::List(l) if items.len() == l.len() => html! {
            ul class="items" { @for (x, what) in l.iter().zip(items) { li { (what) ": " strong { (figure(rules, x, &[])) } } } }
        },
        Figure::List(l) => html! { @for (i, x) in l.iter().enumerate() { @if i > 0 { ", " } (figure(rules, x, &[])) } },
    }
}

/// An amount as people write it: a half as ½ ("4½"), a minus sign as a minus.
pub(crate) fn amount(q: Q) -> String {
    let text = q.to_string().replacen('-', "−", 1);
    match text.strip_suffix(".5") {
        Some("0") => "½".into(),
        Some("−0") => "−½".into(),
        Some(whole) => format!("{whole}½"),
        None => text,
    }
}

/// A value's meaning in words, under its name: folded away when long, and left out when it says no
/// more than the figure (a list of numbers the rules set).
fn meaning(w: Option<&ScoreValue>) -> Markup {
    let Some(w) = w.filter(|w| w.words.chars().any(char::is_alphabetic) && !matches!(w.words.as_str(), "yes" | "no")) else { return html! {} };
    html! { br; (long_words(&w.words, "how the rules count it")) }
}

/// Words that may run long: shown as they are when short, folded under `summary` otherwise.
fn long_words(words: &str, summary: &str) -> Markup {
    html! {
        @if words.chars().count() > 140 {
            details class="src" { summary { (summary) } (words) }
        } @else {
            span class="src" { (words) }
        }
    }
}

/// The names of a group of players: "Ann", "Ann and Cid".
fn names(o: &Outcome, group: &[usize]) -> String {
    let names: Vec<&str> = group.iter().map(|&i| &*o.players[i].player).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The score sheet of a finished game.
pub(crate) fn score_sheet(rules: Option<&Ruleset>, record: &GameRecord, verdict: &Verdict, drawing: &GameDrawing) -> Markup {
    let seats = &drawing.sides;
    let Some(o) = &verdict.outcome else { return html! {} };
    let words: Vec<ScoreValue> = rules.map(|r| tarot_engine::score_values(r, &record.options)).unwrap_or_default();
    let about = |name: &str| words.iter().find(|w| &*w.name == name);
    // The values worked out per player, one figure a player.
    let n = o.players.len();
    let per_player: Vec<&[Figure]> = o
        .values
        .iter()
        .filter(|(k, _)| about(k).is_some_and(|w| w.per_player))
        .filter_map(|(_, v)| match v {
            Figure::List(l) if l.len() == n => Some(l.as_slice()),
            _ => None,
        })
        .collect();
    let groups = columns(o, &per_player, seats);
    let many = groups.len();
    html! {
        h2 id="score-sheet" { "The score sheet" }
        @if let Some(t) = &o.taker {
            p { "Taker " strong { (t) } @if let Some(p) = &o.partner { ", with " strong { (p) } } @if let Some(c) = &o.contract { "; contract " strong { (contract_label(rules, c)) } } "." }
        }
        @if !o.values.is_empty() {
            table class="values" {
                tr { th { "what the rules count" } @for g in &groups { @if per_player.is_empty() { } @else { th { (names(o, g)) } } } @if per_player.is_empty() { th { "for this game" } } }
                @for (k, v) in &o.values {
                    @let w = about(k);
                    @let items = w.map_or(&[][..], |w| w.items.as_slice());
                    @let each = match v { Figure::List(l) if w.is_some_and(|w| w.per_player) && l.len() == n => Some(l), _ => None };
                    @let split = each.filter(|l| !items.is_empty() && l.iter().all(|x| matches!(x, Figure::List(i) if i.len() == items.len())));
                    @if let Some(l) = split {
                        // A list written out, per player: one row per item, its words as its name.
                        @for (i, what) in items.iter().enumerate() {
                            tr {
                                td { @if i == 0 { strong { (k.replace('_', " ")) } } @else { span class="src" { "and" } }
                                    " " @if what.chars().count() > 140 { (long_words(what, &format!("item {} of the list: how it is counted", i + 1))) } @else { (what) } }
                                @for g in &groups { td { @if let Figure::List(x) = &l[g[0]] { (figure(rules, &x[i], &[])) } } }
                            }
                        }
                    } @else {
                        tr {
                            td { strong { (k.replace('_', " ")) } (meaning(w)) }
                            @if let Some(l) = each {
                                @for g in &groups { td { (figure(rules, &l[g[0]], items)) } }
                            } @else {
                                td colspan=[(many > 1 && !per_player.is_empty()).then_some(many)] { (figure(rules, v, items)) }
                            }
                        }
                    }
                }
                @if let Some(h) = o.hand_score {
                    tr { td { strong { "hand score" } br; span class="src" { "the sum of the terms below, in the ledger" } }
                        td colspan=[(many > 1 && !per_player.is_empty()).then_some(many)] { strong { (amount(h)) } } }
                }
            }
        }
        (card_point_changes(rules, drawing))
        table class="players" {
            tr { th { "player" } th { "card points" } th { "tricks" } th { "score" } }
            @for p in &o.players {
                tr { td { (p.player) @if p.winner { " (winner)" } } td { (amount(p.card_points)) } td { (p.tricks) } td { strong { (amount(p.score)) } } }
            }
        }
        @if !o.pots.is_empty() {
            h3 { "The pots" }
            table class="pots" {
                tr { th { "pot" } th { "carried in" } th { "at the end of the deal" } }
                @for p in &o.pots { tr { td { (pot_label(rules, &p.pot)) } td { (p.carried) } td { strong { (p.closing) } } } }
            }
            p class="src" { "The next deal carries each pot at its amount at the end of this one (its record's " code { "pots" } ")." }
        }
        @if let Some((declarer, side)) = o.ends_match.split_first() {
            h3 { "The end of the match" }
            p class="ends-match" { strong { (declarer) } "'s declaration ends the deal and the match: "
                @if side.is_empty() { (declarer) " wins" } @else { (declarer) " and " (side.join(", ")) " win" }
                " the match, whatever the totals. No later deal belongs to it." }
        }
        @if let Some(who) = &o.last_dealer {
            h3 { "The end of the match" }
            p class="last-dealer" { "A declaration in this deal names " strong { (who) } " to deal the match's last deal: the match ends with the next deal he deals after this one." }
        }
    }
}

/// What moves card points from one side to the other besides the tricks: the empty card handed back
/// for the Excuse, a dog that counts for the defence (or for the taker, unseen).
fn card_point_changes(rules: Option<&Ruleset>, drawing: &GameDrawing) -> Markup {
    if rules.is_none() {
        return html! {};
    }
    let mut lines: Vec<Markup> = vec![];
    // The Excuse (or a card played like it): who played it, to which trick, whether an empty card went
    // back for it, and the rule that says so.
    for trick in &drawing.tricks {
        let Some((e, empty)) = trick.excuse.as_ref().and_then(|e| Some((e, e.exchange?))) else { continue };
        lines.push(html! {
            li { (e.player) "'s side keeps " (e.card) ", played to trick " (trick.number) ", and hands " (trick.winner) "'s side an empty card for it"
                @if empty != Q::ZERO { ": " strong { (amount(empty)) " card point" @if empty > Q::ONE { "s" } } " go to " (trick.winner) "'s side." } @else { "." }
                @if let Some(c) = &e.clause { " " (rule_ref(&c.rule, c.source.as_deref(), None)) } }
        });
    }
    // The dog (talon) and to whom it counts under the contract played.
    if let Some(d) = &drawing.dog {
        lines.push(html! {
            li { "Under " (d.contract) ", " (rules.map_or_else(|| "the dog".to_string(), |r| r.the_dog())) " (" (d.cards.len()) " cards, " strong { (amount(d.points)) " card points" } ") counts for " (d.whom) "."
                " " (rule_ref(&d.clause.rule, d.clause.source.as_deref(), None)) }
        });
    }
    if lines.is_empty() {
        return html! {};
    }
    html! {
        h3 { "Card points besides the tricks" }
        ul class="point-changes" { @for l in lines { (l) } }
    }
}

/// The ledger: each payment (who pays whom, how much, by which rule and from which source), each term
/// of the hand score; where the rules keep a standing and no payment, each side's standing by the rule
/// that sets it, and the winners by theirs.
pub(crate) fn ledger(rules: Option<&Ruleset>, verdict: &Verdict, seats: &Seats) -> Markup {
    let Some(o) = &verdict.outcome else { return html! {} };
    let standing = rules.and_then(|r| r.score.standing.as_ref());
    let winner = rules.and_then(|r| r.score.winner.as_ref());
    if verdict.ledger.is_empty() && standing.is_none() && winner.is_none() {
        return html! {};
    }
    // Sides by their standing: partners with one figure are one line.
    let scores: Vec<Figure> = o.players.iter().map(|p| Figure::Num(p.score)).collect();
    let groups = columns(o, &[scores.as_slice()], seats);
    let winners: Vec<&str> = o.players.iter().filter(|p| p.winner).map(|p| &*p.player).collect();
    html! {
        h2 { "The ledger" }
        table class="ledger" {
            tr { th { "line" } th { "who" } th { "amount" } th { "rule" } th { "source" } }
            @for l in &verdict.ledger {
                tr {
                    td { (l.label) @if let Some(e) = l.event { span class="src" { " (event " (e) ")" } } }
                    td { @match (&l.from, &l.to) { (Some(f), Some(t)) => { (f) " pays " (t) }, _ => { "a term of the hand score" } } }
                    td { (amount(l.amount)) }
                    td { code { (l.rule) } }
                    td { (l.source.as_deref().unwrap_or("—")) }
                }
            }
            @if verdict.ledger.is_empty() {
                @if let Some((_, c)) = standing {
                    @for g in &groups {
                        tr {
                            td { "standing" }
                            td { (names(o, g)) " " @if g.len() > 1 { "score" } @else { "scores" } " (no payment: the match adds each deal's standing)" }
                            td { (amount(o.players[g[0]].score)) }
                            td { code { (c.rule) } }
                            td { (c.source.as_deref().unwrap_or("—")) }
                        }
                    }
                }
                @if let Some((_, c)) = winner.filter(|_| !winners.is_empty()) {
                    tr { td { "winner" } td { (winners.join(" and ")) " " @if winners.len() > 1 { "win" } @else { "wins" } } td { "—" } td { code { (c.rule) } } td { (c.source.as_deref().unwrap_or("—")) } }
                }
            }
        }
    }
}
