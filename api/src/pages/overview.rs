//! A ruleset's overview for a player, before its clauses: what the game is about, the cards, the
//! deal, the bidding, the play and the score, each said from the rules in words (the clauses below
//! say the same at length, with their sources), and where to see a game of it.

use maud::{html, Markup};
use tarot_engine::ir::{Ruleset, Sides};
use tarot_engine::Description;

/// The texts of the clauses of one aspect, the first `n`.
fn texts<'d>(d: &'d Description, aspect: &str, n: usize) -> Vec<&'d str> {
    d.rules.iter().filter(|l| l.aspect == aspect).take(n).map(|l| l.text.as_str()).collect()
}

/// A sentence begun with a capital.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// What a player sets out to do, from how the ruleset seats the players and settles a deal.
fn objective(r: &Ruleset) -> String {
    let settle = if !r.score.pays.is_empty() {
        "each deal is settled in payments between the players"
    } else if r.score.standing.is_some() {
        "each deal adds to a running total"
    } else {
        "the deal is scored"
    };
    let who = match r.sides {
        Sides::Taker if r.call.is_some() => "The highest bidder, the taker, with the partner whose card he calls, plays against the others (the defence) to make his contract",
        Sides::Taker => "The highest bidder, the taker, plays against the others (the defence) to make his contract",
        Sides::Partners => "Two sides of partners, sitting opposite, take tricks for the cards and combinations they count",
        Sides::Each => "Each player plays for himself, taking tricks for the cards they count",
    };
    let target = r.game_match.as_ref().map(|_| "; a match of deals decides the winners").unwrap_or("");
    format!("{who}; {settle}{target}.")
}

/// The overview of `r`, described as `d`.
pub(crate) fn overview(r: &Ruleset, d: &Description, example: Markup) -> Markup {
    let contracts: Vec<&str> = r.bidding.iter().flat_map(|b| b.contracts.iter().map(|k| k.label.as_str())).collect();
    let declarations: Vec<&str> = r.declarations.iter().map(|k| &*k.label).collect();
    let terms: Vec<&str> = r.score.terms.iter().map(|t| &*t.label).collect();
    let play = texts(d, "trick obligations", 4);
    let pays: Vec<&str> = d.rules.iter().filter(|l| l.aspect == "scoring" && l.rule.starts_with("score.pay")).map(|l| l.text.as_str()).collect();
    let standing: Vec<&str> = d.rules.iter().filter(|l| l.rule.starts_with("score.standing") || l.aspect == "the match").map(|l| l.text.as_str()).collect();
    html! {
        h2 id="overview" { "Overview" }
        dl class="overview" {
            dt { "The game" } dd { (objective(r)) }
            dt { "The cards" } dd { (sentence(&texts(d, "pack and ranks", 1).join("; "))) @for c in texts(d, "counting", 1) { "; card points counted " (c) } "." }
            dt { "The deal" } dd { (sentence(&texts(d, "players and deal", 3).join("; "))) "." }
            @if !contracts.is_empty() {
                dt { "The bidding" } dd { (sentence(&texts(d, "bidding and contracts", 1).join(""))) "; the contracts, lowest first: " (contracts.join(", ")) "." }
            }
            @if !declarations.is_empty() {
                dt { "Declarations" } dd { (sentence(&declarations.join(", "))) "." }
            }
            dt { "The play" } dd { @if play.is_empty() { "no obligation" } @else { (sentence(&play.join("; "))) } "." }
            dt { "The score" } dd {
                @if !terms.is_empty() { "The hand score adds: " (terms.join(", ")) ". " }
                @for p in &pays { (sentence(p)) ". " }
                @for s in &standing { (sentence(s)) ". " }
            }
            dt { "A game" } dd { "The games stored under it: " a href={ "/games?ruleset=" (r.id) } { "the list (JSON)" } "; each has its page, step by step, with its score sheet. "
                "Or " a href="/pages/check" { "check a record" } " of your own." }
            (example)
        }
        p class="src" { "Every clause follows, by aspect, with its source and where it is written." }
    }
}
