//! A match: the deals one table plays, in order, read against the ruleset's `match { deals; target }`
//! and the declarations that end it (`ends-match`, at once or after a later deal).
//! Each deal is refereed on its own (`replay`); this adds them up: how many deals count, whether the
//! match is over and after which deal, and who won it. Deals that were not played to the end (annulled
//! and dealt again, broken off, or invalid) score nothing and do not count as deals of the match; a
//! deal thrown in that the rules pay for (`all-pass pay`) scores its payments, and does not count.
//! And whether a table's deals follow one another: the pots carried on, each player's standing, and
//! the deal passed as the rules say (`deal { next_dealer }`).
//! A table may play deals of different rulesets, or of one ruleset with different options: what is
//! asked of one deal (who deals after it, which pots and standing it carries) is read under the rules
//! and options it was played by; the match, which spans deals, under the first deal's ruleset, over
//! deals of that ruleset alone that give the match the same count of deals and target
//! (`table_match`).

use std::sync::Arc;

use crate::expr::{too_large, Value};
use crate::ir::{Match, NextDealer, Ruleset};
use crate::num::Q;
use crate::record::GameRecord;
use crate::replay::Setup;
use crate::verdict::{Status, Verdict};

/// Where a match stands after a sequence of deals.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchState {
    /// The deals that count, up to the end of the match: those played to the end.
    pub played: usize,
    /// How many deals make the match (`deals`), if the ruleset says.
    pub deals: Option<usize>,
    /// The total that ends the match (`target`), if the ruleset says.
    pub target: Option<Q>,
    /// Whether a player's total reached the target.
    pub target_reached: bool,
    /// The position (from 1, in the sequence given) of the deal after which the match was over; deals
    /// after it belong to no match.
    pub over_after: Option<usize>,
    /// Each player's total at the end of the match, or so far: the scores of the deals that count.
    pub totals: Vec<(Arc<str>, Q)>,
    /// When the match is over, the players with the highest total (partners share theirs).
    pub winners: Vec<Arc<str>>,
    /// The player a declaration named to deal the match's last deal (`ends-match after-deal-by`),
    /// and the position (from 1) of the deal it was made in: the match is over after the first later
    /// deal played to the end that he deals. The first named stands.
    pub last_dealer: Option<(Arc<str>, usize)>,
}

impl MatchState {
    pub fn over(&self) -> bool {
        self.over_after.is_some()
    }
}

/// A deal a table played: the rules it was played by (its own ruleset), its record (whose options
/// and table it was played with), and its verdict.
pub type Played<'a> = (&'a Ruleset, &'a GameRecord, &'a Verdict);

/// How a table's deals read as a match (`table_match`).
#[derive(Clone, Debug, PartialEq)]
pub enum TableMatch {
    /// The first deal's ruleset plays no match, nor does any later deal's.
    None,
    /// The match under the first deal's ruleset: every deal up to its end is of that ruleset, and
    /// its options and table give the match the first deal's count of deals and target.
    Read(MatchState),
    /// No match is read, though a deal's ruleset plays one: why, naming the first deal that differs.
    NotAMatch(String),
}

/// The match of a table's deals (in the order played), read under the ruleset, options and table of
/// the first: its `match` block, its count of deals and its target. The match is read only when every
/// deal up to its end is of the first deal's ruleset and its own options and table give the match
/// the same count of deals and target (options that change nothing of the match may differ); deals
/// after its end are not asked. Otherwise no match
/// is read, and why is said: a deal of another ruleset before its end, one whose options make another
/// match, or (the first deal's ruleset playing none) a later deal whose ruleset plays one.
/// Each deal's scores and declarations are its own verdict's.
pub fn table_match(deals: &[Played]) -> Result<TableMatch, String> {
    let Some(&(rules, first, _)) = deals.first() else { return Ok(TableMatch::None) };
    let Some(m) = &rules.game_match else {
        return Ok(match deals.iter().position(|(r, _, _)| r.game_match.is_some()) {
            Some(i) => TableMatch::NotAMatch(format!(
                "deal {} is of {}, which plays a match, but deal 1 is of {}, which plays none: a session's match is read under the ruleset of its first deal",
                i + 1,
                deals[i].0.id,
                rules.id
            )),
            None => TableMatch::None,
        });
    };
    let setup = Setup::new(rules, first.players.len(), &first.options)?;
    let wanted = settings(&setup, m)?;
    let pairs: Vec<(&GameRecord, &Verdict)> = deals.iter().map(|&(_, r, v)| (r, v)).collect();
    let Some(state) = match_state(&setup, &pairs)? else { return Ok(TableMatch::None) };
    let end = state.over_after.unwrap_or(deals.len());
    for (i, &(r, rec, _)) in deals.iter().enumerate().take(end).skip(1) {
        if r.id != rules.id {
            return Ok(TableMatch::NotAMatch(format!(
                "deal {} is of {}, deal 1 of {}: a session's match is read under the ruleset of its first deal, and every deal up to its end must be of that ruleset",
                i + 1,
                r.id,
                rules.id
            )));
        }
        let own = Setup::new(r, rec.players.len(), &rec.options)?;
        let theirs = settings(&own, m)?;
        if theirs != wanted {
            return Ok(TableMatch::NotAMatch(format!(
                "deal {}'s options make the match {}, deal 1's {}: every deal up to the match's end must make it the same",
                i + 1,
                said(theirs),
                said(wanted)
            )));
        }
    }
    Ok(TableMatch::Read(state))
}

/// A match's count of deals and target, in words.
fn said((deals, target): (Option<usize>, Option<Q>)) -> String {
    let deals = deals.map_or("no count of deals".to_string(), |n| format!("{n} deals"));
    let target = target.map_or("no target".to_string(), |t| format!("a target of {t}"));
    format!("{deals} and {target}")
}

/// The match of `deals` (a table's records with their verdicts, in the order played) under the
/// ruleset of `setup`, whose options and table size give the match's settings; `None` when the
/// ruleset has no `match`. A record gives who dealt its deal, for a match that ends after a deal
/// by a player a declaration named (`ends-match after-deal-by`).
pub fn match_state(setup: &Setup, deals: &[(&GameRecord, &Verdict)]) -> Result<Option<MatchState>, String> {
    let Some(m) = &setup.rules.game_match else { return Ok(None) };
    let (n_deals, target) = settings(setup, m)?;
    let mut state = MatchState { played: 0, deals: n_deals, target, target_reached: false, over_after: None, totals: vec![], winners: vec![], last_dealer: None };
    for (i, (rec, v)) in deals.iter().enumerate() {
        let Some(outcome) = scored(v) else { continue };
        // A deal thrown in and paid for (`all-pass pay`) adds its payments, but is no deal played.
        if v.status == Status::Valid {
            state.played += 1;
        }
        for p in &outcome.players {
            match state.totals.iter_mut().find(|(name, _)| *name == p.player) {
                Some((_, t)) => *t = t.checked_add(p.score).ok_or_else(|| too_large(&format!("{}'s total {t} + {} (deal {})", p.player, p.score, i + 1)))?,
                None => state.totals.push((p.player.clone(), p.score)),
            }
        }
        state.target_reached = target.is_some_and(|t| state.totals.iter().any(|(_, total)| *total >= t));
        // A declaration that ends the match (`ends-match`): its side wins, whatever the totals.
        if !outcome.ends_match.is_empty() {
            state.over_after = Some(i + 1);
            state.winners = outcome.ends_match.clone();
            return Ok(Some(state));
        }
        // The last deal a declaration named: one played to the end, dealt by the player it named, after
        // the deal it was made in. A declaration counts where its deal was played to the end.
        let valid = v.status == Status::Valid;
        let last_deal = valid && state.last_dealer.as_ref().is_some_and(|(p, _)| **p == *rec.dealer);
        if let (true, None, Some(p)) = (valid, &state.last_dealer, &outcome.last_dealer) {
            state.last_dealer = Some((p.clone(), i + 1));
        }
        if state.target_reached || n_deals == Some(state.played) || last_deal {
            state.over_after = Some(i + 1);
            break;
        }
    }
    if state.over() {
        let top = state.totals.iter().map(|(_, t)| *t).max();
        state.winners = state.totals.iter().filter(|(_, t)| Some(*t) == top).map(|(p, _)| p.clone()).collect();
    }
    Ok(Some(state))
}

/// What a deal scores: a deal played to the end, or one thrown in that the rules pay for (`all-pass
/// pay`, an annulled deal with an outcome); nothing for any other.
fn scored(v: &Verdict) -> Option<&crate::verdict::Outcome> {
    v.outcome.as_ref().filter(|_| matches!(v.status, Status::Valid | Status::Annulled))
}

/// The match's number of deals and target at this table, with these options.
fn settings(setup: &Setup, m: &Match) -> Result<(Option<usize>, Option<Q>), String> {
    let number = |slot: &Option<(crate::expr::Expr, crate::ir::Clause)>| -> Result<Option<Q>, String> {
        let Some((e, clause)) = slot else { return Ok(None) };
        match setup.eval_setup(e) {
            Ok(Value::Num(q)) if q > Q::ZERO => Ok(Some(q)),
            Ok(other) => Err(format!("{} ({}): expected a number above 0, found {other:?}", clause.rule, clause.at)),
            Err(e) => Err(format!("{} ({}): {e}", clause.rule, clause.at)),
        }
    };
    let deals = match number(&m.deals)? {
        Some(q) if q.is_integer() => Some(q.numer() as usize),
        Some(q) => return Err(format!("match.deals: {q} is not a whole number of deals")),
        None => None,
    };
    Ok((deals, number(&m.target)?))
}

/// A deal that does not follow the deals before it: a pot or a player's standing not carried on, or
/// a dealer other than the one due.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The deal (from 1, in the order played) that does not follow.
    pub deal: usize,
    pub gap: Gap,
    /// The same in words.
    pub message: String,
}

/// What of the deals before it a deal does not follow: a pot, a player's standing, or who deals.
#[derive(Clone, Debug, PartialEq)]
pub enum Gap {
    /// A pot (`pot NAME`, by its name): what the deal before closed it at, and what the deal says
    /// it carries.
    Pot { pot: String, expected: Q, given: Q },
    /// A player's standing: his total of the deals before, and what the deal says he carries.
    Standing { player: String, expected: Q, given: Q },
    /// The player who dealt the deal, and the one the rules make due to deal it (`deal {
    /// next_dealer }`).
    Dealer { dealer: String, due: String },
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Whether a table's deals (each with its rules, record and verdict, in the order played) carry the
/// pots on from one to the next: each pot a deal's ruleset keeps (`pot NAME`) it carries at what the
/// last deal before it whose ruleset keeps that pot closed it with (the verdict's `closing`); deals of
/// rules without that pot leave it as it was, and the first deal to keep a pot may carry any amount.
/// A deal not played to the end makes no payment, so it closes with what it carried. The error names
/// the first deal (from 1) that does not follow, and the pot.
pub fn pots_follow(deals: &[Played]) -> Result<(), String> {
    for (i, &(rules, after, _)) in deals.iter().enumerate().skip(1) {
        pots_carried_on(&deals[..i], rules, after, i + 1).map_err(|m| m.message)?;
    }
    Ok(())
}

/// Whether deal number `number` (`after`, played by `rules`) carries on the pots of its ruleset as the
/// deals `before` it left them.
fn pots_carried_on(before: &[Played], rules: &Ruleset, after: &GameRecord, number: usize) -> Result<(), Mismatch> {
    let carried = |rec: &GameRecord, name: &str| Q::int(rec.pots.get(name).copied().unwrap_or(0));
    for pot in &rules.pots {
        // The last deal before whose rules keep this pot; none: the pot starts here.
        let Some(j) = before.iter().rposition(|(r, _, _)| r.pots.iter().any(|p| p.name == pot.name)) else { continue };
        let (_, last, verdict) = before[j];
        let closed = match verdict.outcome.as_ref().filter(|_| verdict.status == Status::Valid) {
            Some(o) => o.pots.iter().find(|p| p.pot == pot.name).map(|p| p.closing).unwrap_or(Q::ZERO),
            None => carried(last, &pot.name),
        };
        let carries = carried(after, &pot.name);
        if carries != closed {
            let between = if j + 2 < number { " (the deals between keep no such pot)" } else { "" };
            return Err(Mismatch {
                deal: number,
                gap: Gap::Pot { pot: pot.name.to_string(), expected: closed, given: carries },
                message: format!(
                    "deal {number} carries {} at {carries}, but deal {} closed it at {closed}{between}: a deal's `pots` are what the deal before it left in them",
                    pot.label,
                    j + 1
                ),
            });
        }
    }
    Ok(())
}

/// Whether a table's deals (each with its rules, record and verdict, in the order played) say each player's running
/// total in the match before the deal (`standing`) as the deals before it add up: the first deal
/// carries nothing, and each next one what the one before carried plus its scores (a deal not played
/// to the end scores nothing). Checked on each deal whose own ruleset reads the standing
/// (`carried(p)`), the totals adding every deal before it, whatever its rules; the error names the
/// first deal (from 1) that does not follow, and the player.
pub fn standing_follows(deals: &[Played]) -> Result<(), String> {
    if !deals.iter().any(|(r, _, _)| r.reads_standing) {
        return Ok(());
    }
    let mut totals: Vec<(&str, Q)> = vec![];
    for (i, &(rules, rec, verdict)) in deals.iter().enumerate() {
        if rules.reads_standing {
            standing_carried_on(&totals, rec, i + 1).map_err(|m| m.message)?;
        }
        add_scores(&mut totals, verdict, i + 1).map_err(|(_, m)| m)?;
    }
    Ok(())
}

/// Adds the scores of deal number `number` to the running totals (a deal not played to the end
/// scores nothing). A total too large to keep exact is refused with the player's name and why.
fn add_scores<'a>(totals: &mut Vec<(&'a str, Q)>, verdict: &'a Verdict, number: usize) -> Result<(), (&'a str, String)> {
    if let Some(o) = scored(verdict) {
        for p in &o.players {
            match totals.iter_mut().find(|(name, _)| *name == &*p.player) {
                Some((_, t)) => *t = t.checked_add(p.score).ok_or_else(|| (&*p.player, too_large(&format!("{}'s total {t} + {} (deal {number})", p.player, p.score))))?,
                None => totals.push((&p.player, p.score)),
            }
        }
    }
    Ok(())
}

/// Whether deal number `number` (`rec`) says each player's standing as `totals`, the deals before it.
fn standing_carried_on(totals: &[(&str, Q)], rec: &GameRecord, number: usize) -> Result<(), Mismatch> {
    for name in &rec.players {
        let due = totals.iter().find(|(p, _)| *p == name.as_str()).map(|(_, t)| *t).unwrap_or(Q::ZERO);
        let carries = Q::int(rec.standing.get(name).copied().unwrap_or(0));
        if carries != due {
            let after = if number == 1 { "the first deal of the table carries nothing".to_string() } else { format!("the deals before it add up to {due}") };
            return Err(Mismatch {
                deal: number,
                gap: Gap::Standing { player: name.clone(), expected: due, given: carries },
                message: format!("deal {number} says {name} carries {carries} from the match, but {after}: a deal's `standing` is each player's total before it"),
            });
        }
    }
    Ok(())
}

/// Whether a table's deals (each with its rules, record and verdict, in the order played) are each
/// dealt by the player due after the deal before, as the rules and options that deal was played by say
/// (`deal { next_dealer; next_dealer_annulled }`). The error names the first deal (from 1) that is
/// not, who dealt it, who was due, and the rule.
pub fn dealer_follows(deals: &[Played]) -> Result<(), String> {
    for (i, pair) in deals.windows(2).enumerate() {
        dealt_in_turn(pair[0], pair[1].1, i + 2).map_err(|m| m.message)?;
    }
    Ok(())
}

/// Whether deal number `number` (`next`) is dealt by the player due after the deal before it, under the
/// rules and options the deal before was played by: after a deal played to the end, the one `next_dealer` names; after an annulled deal, the one
/// `next_dealer_annulled` names, or else `next_dealer`'s. First hand is the player after the deal's
/// dealer in the direction of play, round the whole table (a dealer who sits out included). Nobody is
/// due, and any player may deal, where the rules say nothing, after a deal that broke a rule or is
/// not finished, and where the taker deals next after a deal that had none.
fn dealt_in_turn((rules, before, verdict): Played, next: &GameRecord, number: usize) -> Result<(), Mismatch> {
    let rule = match verdict.status {
        Status::Valid => rules.deal.next_dealer.as_ref(),
        Status::Annulled => rules.deal.next_dealer_annulled.as_ref().or(rules.deal.next_dealer.as_ref()),
        Status::Invalid | Status::InProgress => None,
    };
    let Some((choice, clause)) = rule else { return Ok(()) };
    // The deal before as it was set up: its options choose the direction of play, and may choose
    // who deals next. A record its own rules cannot set up (never one stored) makes nobody due.
    let Ok(setup) = Setup::new(rules, before.players.len(), &before.options) else { return Ok(()) };
    let Ok(who) = setup.word(choice) else { return Ok(()) };
    let dealer = &before.dealer;
    let (due, why) = match who {
        NextDealer::FirstHand => {
            let Some(i) = before.players.iter().position(|p| p == dealer) else { return Ok(()) };
            let n = before.players.len();
            let j = if setup.clockwise { (i + n - 1) % n } else { (i + 1) % n };
            (before.players[j].clone(), format!("the deal passes from {dealer} to the next player in the direction of play"))
        }
        NextDealer::Dealer => (dealer.clone(), format!("its dealer, {dealer}, deals again")),
        NextDealer::Taker => match verdict.outcome.as_ref().and_then(|o| o.taker.as_deref()) {
            Some(taker) => (taker.to_string(), format!("its taker, {taker}, deals next")),
            None => return Ok(()),
        },
    };
    if next.dealer == due {
        return Ok(());
    }
    let after = match verdict.status {
        Status::Annulled => format!("deal {} was annulled, and {why}", number - 1),
        _ => format!("after deal {}, {why}", number - 1),
    };
    let source = clause.source.as_deref().map(|s| format!(", source {s}")).unwrap_or_default();
    Err(Mismatch {
        deal: number,
        message: format!("deal {number} is dealt by {}, but {due} was due to deal it: {after} (rule {}{source})", next.dealer, clause.rule),
        gap: Gap::Dealer { dealer: next.dealer.clone(), due },
    })
}

/// Whether `next`, played by `rules`, may be the next deal of a table that played `deals` (each with
/// its rules, record and verdict, in order): under its own ruleset, its `pots` are what the deals
/// before left in them (`pots_follow`) and (where it reads the standing) its `standing` each player's
/// total of the deals before; and (where the last deal's rules say who deals next) its dealer the one
/// due after the last deal, under the last deal's rules and options. Only `next` is checked: the error
/// is the first pot, then the first player, it does not carry on, then the dealer.
pub fn next_follows(deals: &[Played], rules: &Ruleset, next: &GameRecord) -> Result<(), Mismatch> {
    let number = deals.len() + 1;
    pots_carried_on(deals, rules, next, number)?;
    if rules.reads_standing {
        let mut totals: Vec<(&str, Q)> = vec![];
        for (i, &(_, _, verdict)) in deals.iter().enumerate() {
            // A total past what arithmetic keeps exact is past what a record may carry
            // (`num::AMOUNT_LIMIT`): no deal can follow it.
            if let Err((name, why)) = add_scores(&mut totals, verdict, i + 1) {
                let due = totals.iter().find(|(p, _)| *p == name).map_or(Q::ZERO, |(_, t)| *t);
                return Err(Mismatch {
                    deal: number,
                    gap: Gap::Standing { player: name.to_string(), expected: due, given: Q::int(next.standing.get(name).copied().unwrap_or(0)) },
                    message: format!("deal {number} cannot carry {name}'s standing from the match: {why}"),
                });
            }
        }
        standing_carried_on(&totals, next, number)?;
    }
    if let Some(&last) = deals.last() {
        dealt_in_turn(last, next, number)?;
    }
    Ok(())
}
