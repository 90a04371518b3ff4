//! A session's running score sheet, derived from its games' verdicts: per deal each player's score
//! and the running totals, as a table keeps it; and, where the ruleset plays a match, where it stands.

use std::collections::BTreeMap;

use serde::Serialize;
use tarot_engine::{Gap, Q};
use tarot_store::GameId;
use utoipa::ToSchema;

use crate::problem::Problem;
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
pub struct ScoreSheet {
    id: String,
    name: String,
    players: Vec<String>,
    deals: Vec<Deal>,
    /// Each player's total after the last deal.
    #[schema(value_type = Vec<crate::schema::PlayerAmount>)]
    totals: Vec<(String, Q)>,
    /// Where the match stands, when the ruleset of the session's first deal plays one (`match { ... }`
    /// in its rule file): deals played of how many, whether a total reached the target, and once it is
    /// over, its winners. The match is read under the first deal's ruleset, and only when every deal up
    /// to its end is of that ruleset and its options give the match the same count of deals and target
    /// as the first deal's (options that change nothing of the match may differ); else it is absent,
    /// and `not_a_match` says why.
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    game_match: Option<MatchSheet>,
    /// Why no match is read though a deal's ruleset plays one: a deal of another ruleset than the
    /// first deal's before the match's end, a deal whose options give the match another count of deals
    /// or target, or a later deal whose ruleset plays a match where the first deal's plays none. Each
    /// deal's own scores, pots, standing and who deals after it are read under its own ruleset and
    /// options whatever this says.
    #[serde(skip_serializing_if = "Option::is_none")]
    not_a_match: Option<String>,
    /// Where a deal's ruleset keeps pots (`pot NAME`) and the session's deals do not carry them on (a
    /// deal's `pots` must be what the last deal before it whose ruleset keeps the pot left in it): the
    /// first deal that does not, and the pot, in words. Absent when they follow: only a session stored before deals were checked
    /// on their way in (POST /sessions/{id}/games refuses such a deal, 409) can have it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pots_error: Option<String>,
    /// Where a deal's ruleset reads the match so far (`carried(p)`) and the deal's `standing` is not
    /// each player's total of the session's deals before it: the first deal that does not follow, and the
    /// player, in words. Absent when they follow: only a session stored before deals were checked on
    /// their way in can have it.
    #[serde(skip_serializing_if = "Option::is_none")]
    standing_error: Option<String>,
    /// Where a deal's ruleset says who deals next (`deal { next_dealer }`, read with the deal's own
    /// options) and the deal after it was dealt by another player than the one due: the first such deal, who dealt it
    /// and who was due, in words. Absent when they follow: only a session stored before deals were
    /// checked on their way in can have it.
    #[serde(skip_serializing_if = "Option::is_none")]
    dealer_error: Option<String>,
    /// Where a deal would carry a player's running total past what the archive keeps exact: that
    /// deal and the player, in words; the totals (and each later deal's) stop before it, and no match
    /// is read. Absent when they stay exact: only a session stored before deals were checked on their
    /// way in (POST /sessions/{id}/games refuses such a deal, 422 `total-too-large`) can have it.
    #[serde(skip_serializing_if = "Option::is_none")]
    totals_error: Option<String>,
}

/// A match: the session's deals read against its ruleset's `match` block.
#[derive(Serialize, ToSchema)]
#[schema(as = SheetMatch)]
pub struct MatchSheet {
    /// The ruleset whose `match` block this follows: the first deal's, which every deal of the match is of.
    ruleset: String,
    /// Deals played to the end and counted, up to the end of the match (annulled, unfinished and invalid
    /// deals do not count).
    deals_played: usize,
    /// How many deals make the match, where the ruleset says.
    #[serde(skip_serializing_if = "Option::is_none")]
    deals: Option<usize>,
    /// The total that ends the match, where the ruleset says.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::schema::Amount>)]
    target: Option<Q>,
    /// Whether a player's total reached the target.
    target_reached: bool,
    /// Whether the match is over.
    over: bool,
    /// The number of the deal after which it was over; later deals belong to no match.
    #[serde(skip_serializing_if = "Option::is_none")]
    over_after: Option<usize>,
    /// Each player's total in the match (at its end, or so far).
    #[schema(value_type = Vec<crate::schema::PlayerAmount>)]
    totals: Vec<(String, Q)>,
    /// Once it is over, the players with the highest total (partners win together); empty before.
    winners: Vec<String>,
    /// Where a declaration named who deals the match's last deal (`ends-match after-deal-by` in the
    /// rule file: Cego's "Der Gstieß gibt ab", the holder of the Gstieß): that player, and the deal it
    /// was made in. The match is over after the first later deal played to the end that he deals.
    #[serde(skip_serializing_if = "Option::is_none")]
    last_dealer: Option<LastDealer>,
}

/// The player a declaration named to deal a match's last deal, and the deal it was made in.
#[derive(Serialize, ToSchema)]
#[schema(as = SheetLastDealer)]
pub struct LastDealer {
    #[schema(example = "Bob")]
    player: String,
    /// The number of the deal in which the declaration was made.
    named_in: usize,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SheetDeal)]
pub struct Deal {
    number: usize,
    game: String,
    ruleset: String,
    /// The options of its ruleset the deal was played with, as its record gives them (e.g. the round
    /// of `cego-pflicht-rauber`'s evening, `{"round": "pflicht-rauber"}`); the others at their
    /// defaults. Absent where the record chose none.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(value_type = tarot_engine::OptionValues)]
    options: BTreeMap<String, serde_json::Value>,
    #[schema(value_type = crate::schema::Status)]
    status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    taker: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contract: Option<String>,
    /// Each player's score in this deal (0 for a deal that was annulled or not finished, but for a
    /// deal thrown in that the rules pay for, `all-pass pay`: its payments).
    #[schema(value_type = Vec<crate::schema::PlayerAmount>)]
    scores: Vec<(String, Q)>,
    /// Running totals after this deal.
    #[schema(value_type = Vec<crate::schema::PlayerAmount>)]
    totals: Vec<(String, Q)>,
    /// Whether the deal's scores sum to zero (where the ruleset settles by payments), counting what
    /// its pots took as an account of their own.
    #[serde(skip_serializing_if = "Option::is_none")]
    balanced: Option<bool>,
    /// The ruleset's pots over this deal: what each held at its start and at its end.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<crate::schema::PotResult>)]
    pots: Vec<tarot_engine::PotResult>,
}

pub fn score_sheet(state: &AppState, session: &str) -> Result<ScoreSheet, Problem> {
    let s = state.store.session(session).map_err(crate::problem::store_problem)?;
    let mut totals: Vec<(String, Q)> = s.players.iter().map(|p| (p.clone(), Q::ZERO)).collect();
    let mut deals = vec![];
    let mut verdicts = vec![];
    let mut records = vec![];
    let mut rulesets = vec![];
    let mut totals_error = None;
    for (i, game) in s.games.iter().enumerate() {
        let id = GameId(game.0.clone());
        let record = state.store.record(&id).map_err(crate::problem::store_problem)?;
        let rules = state.registry.get(&record.ruleset).ok_or_else(|| Problem::internal(format!("game {} uses an unknown ruleset", id.0)))?;
        let verdict = tarot_engine::replay(rules, &record).map_err(|e| Problem::internal(e.to_string()))?;
        let outcome = verdict.outcome.as_ref();
        let scores: Vec<(String, Q)> =
            s.players.iter().map(|p| (p.clone(), outcome.and_then(|o| o.players.iter().find(|r| &*r.player == p)).map(|r| r.score).unwrap_or(Q::ZERO))).collect();
        // Past what is kept exact, the totals stop before the deal that would carry one past it.
        if totals_error.is_none() {
            let added: Result<Vec<Q>, String> = totals
                .iter()
                .zip(&scores)
                .map(|((name, t), (_, v))| {
                    t.checked_add(*v).ok_or_else(|| format!("deal {}: {name}'s running total {t} + {v} is too large a number to keep exact; the totals stop at deal {}", i + 1, i))
                })
                .collect();
            match added {
                Ok(added) => totals.iter_mut().zip(added).for_each(|((_, t), a)| *t = a),
                Err(e) => totals_error = Some(e),
            }
        }
        let settles_by_payment = !rules.score.pays.is_empty();
        let pots = outcome.map(|o| o.pots.clone()).unwrap_or_default();
        // Checked sums: a sum past what arithmetic keeps exact is not a balance.
        let pots_taken = pots.iter().try_fold(Q::ZERO, |a, p| a.checked_add(p.closing.checked_sub(p.carried)?));
        let balance = Q::checked_sum(scores.iter().map(|(_, v)| *v)).zip(pots_taken).and_then(|(s, t)| s.checked_add(t));
        deals.push(Deal {
            number: i + 1,
            game: id.0,
            ruleset: record.ruleset.clone(),
            options: record.options.clone(),
            status: serde_json::to_value(verdict.status).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default(),
            taker: outcome.and_then(|o| o.taker.as_deref().map(String::from)),
            contract: outcome.and_then(|o| o.contract.clone()),
            balanced: (settles_by_payment && outcome.is_some()).then_some(balance == Some(Q::ZERO)),
            pots,
            scores,
            totals: totals.clone(),
        });
        verdicts.push(verdict);
        records.push(record);
        rulesets.push(rules);
    }
    // Each deal under its own ruleset and options: the pots it carries, its standing, who deals after it.
    let played: Vec<tarot_engine::Played> = rulesets.iter().zip(&records).zip(&verdicts).map(|((rules, r), v)| (*rules, r, v)).collect();
    let pots_error = tarot_engine::pots_follow(&played).err();
    let standing_error = tarot_engine::standing_follows(&played).err();
    let dealer_error = tarot_engine::dealer_follows(&played).err();
    let (game_match, not_a_match) = match totals_error {
        None => match_sheet(&played)?,
        Some(_) => (None, None),
    };
    Ok(ScoreSheet { id: session.to_string(), name: s.name, players: s.players, deals, totals, game_match, not_a_match, pots_error, standing_error, dealer_error, totals_error })
}

/// Whether `game` may be the next deal of session `s`: under its own ruleset and options, its `pots`
/// are what the deals before left in them and its `standing` each player's total of the deals before;
/// and its dealer is the player due after the last deal, under that deal's ruleset and options
/// (`matches::next_follows`). A game whose ruleset the server does not know is checked under the
/// session's first deal's. A 409 naming the pot or player, the amount expected and the amount
/// given, or the dealer and the player due, when not.
pub fn check_next(state: &AppState, s: &tarot_store::Session, game: &GameId) -> Result<(), Problem> {
    let next = state.store.record(game).map_err(crate::problem::store_problem)?;
    let mut deals = vec![];
    for id in &s.games {
        let record = state.store.record(id).map_err(crate::problem::store_problem)?;
        let rules = state.registry.get(&record.ruleset).ok_or_else(|| Problem::internal(format!("game {} uses an unknown ruleset", id.0)))?;
        let verdict = tarot_engine::replay(rules, &record).map_err(|e| Problem::internal(e.to_string()))?;
        deals.push((rules, record, verdict));
    }
    totals_stay_exact(state, s, game, &next, &deals)?;
    let first = deals.first().map(|(rules, _, _)| *rules);
    let Some(rules) = state.registry.get(&next.ruleset).or(first) else { return Ok(()) };
    let played: Vec<tarot_engine::Played> = deals.iter().map(|(rules, r, v)| (*rules, r, v)).collect();
    let Err(m) = tarot_engine::next_follows(&played, rules, &next) else { return Ok(()) };
    let mut p = Problem::new(actix_web::http::StatusCode::CONFLICT, "does-not-follow", format!("game {} cannot be deal {} of session {}: {}", game.0, m.deal, s.id, m.message));
    p.does_not_follow = Some(match m.gap {
        Gap::Pot { pot, expected, given } => serde_json::json!({"deal": m.deal, "pot": pot, "expected": expected, "given": given}),
        Gap::Standing { player, expected, given } => serde_json::json!({"deal": m.deal, "player": player, "expected": expected, "given": given}),
        Gap::Dealer { dealer, due } => serde_json::json!({"deal": m.deal, "dealer": dealer, "due": due}),
    });
    Err(p)
}

/// Each player's running total with `next` added to the session's `deals` stays a number the archive
/// keeps exact, as the score sheet adds them up (a deal's score can be near the limit: each of Dobbm's
/// doubles doubles it). A deal that would carry a total past it is refused (422) before it is stored,
/// so that no stored session has a sheet that cannot be added up.
fn totals_stay_exact(
    state: &AppState,
    s: &tarot_store::Session,
    game: &GameId,
    next: &tarot_engine::GameRecord,
    deals: &[(&tarot_engine::ir::Ruleset, tarot_engine::GameRecord, tarot_engine::Verdict)],
) -> Result<(), Problem> {
    let Some(rules) = state.registry.get(&next.ruleset) else { return Ok(()) };
    let verdict = tarot_engine::replay(rules, next).map_err(|e| Problem::internal(e.to_string()))?;
    let verdicts: Vec<&tarot_engine::Verdict> = deals.iter().map(|(_, _, v)| v).chain([&verdict]).collect();
    for p in &s.players {
        let mut total = Q::ZERO;
        for v in &verdicts {
            let score = v.outcome.as_ref().and_then(|o| o.players.iter().find(|r| &*r.player == p)).map(|r| r.score).unwrap_or(Q::ZERO);
            total = total.checked_add(score).ok_or_else(|| {
                Problem::unprocessable(
                    "total-too-large",
                    format!(
                        "game {} cannot be deal {} of session {}: {p}'s running total {total} + {score} would be too large a number to keep exact",
                        game.0,
                        verdicts.len(),
                        s.id
                    ),
                )
            })?;
        }
    }
    Ok(())
}

/// The match of the session's deals, read under the ruleset (and options, and table) of the first
/// (`tarot_engine::table_match`); or why none is read.
fn match_sheet(played: &[tarot_engine::Played]) -> Result<(Option<MatchSheet>, Option<String>), Problem> {
    let m = match tarot_engine::table_match(played).map_err(Problem::internal)? {
        tarot_engine::TableMatch::None => return Ok((None, None)),
        tarot_engine::TableMatch::NotAMatch(why) => return Ok((None, Some(why))),
        tarot_engine::TableMatch::Read(m) => m,
    };
    let over = m.over();
    Ok((
        Some(MatchSheet {
            ruleset: played[0].0.id.clone(),
            deals_played: m.played,
            deals: m.deals,
            target: m.target,
            target_reached: m.target_reached,
            over,
            over_after: m.over_after,
            totals: m.totals.iter().map(|(p, t)| (p.to_string(), *t)).collect(),
            winners: m.winners.iter().map(|p| p.to_string()).collect(),
            last_dealer: m.last_dealer.map(|(p, named_in)| LastDealer { player: p.to_string(), named_in }),
        }),
        None,
    ))
}
