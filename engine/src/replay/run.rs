//! The entry points: `replay` reads a record (its players, dealer, pots and standing, every event)
//! and runs it through a `Game`; `replay_moves*` run moves already read and give the verdict.

use crate::ir::*;
use crate::num::Q;
use crate::record::{Event, GameRecord};
use crate::verdict::*;

use super::read::seat_of;
use super::spelling::{respell, spellings_of};
use super::stop::replay_error;
use super::{name_key, read, Game, Move, Seating, Setup, Stage, Stop};

/// Who sits a deal out, in words: "deals and sits" or "sits opposite the dealer and sits".
fn sits_out_how(rules: &Ruleset) -> &'static str {
    if rules.sit_out_opposite {
        "sits opposite the dealer and sits"
    } else {
        "deals and sits"
    }
}

/// Replays a recorded game against a ruleset. An error is the record's (it is not a game of the
/// ruleset) or the ruleset's (a rule cannot be worked out on a game it accepts).
pub fn replay(rules: &Ruleset, rec: &GameRecord) -> Result<Verdict, ReplayError> {
    Setup::table_fits(rules, rec.players.len(), &rec.options).map_err(|message| InputError { event: None, message })?;
    // The table and the options are the ruleset's own: a setting that fails with them is its mistake.
    let setup = Setup::new(rules, rec.players.len(), &rec.options).map_err(|message| ReplayError::ruleset(&rules.id, None, None, message))?;
    replay_with(&setup, rec)
}

/// Replays against rules already set up (the benchmark sets up once).
pub fn replay_with(setup: &Setup, rec: &GameRecord) -> Result<Verdict, ReplayError> {
    let rules = setup.rules;
    if !rec.ruleset.eq_ignore_ascii_case(&rules.id) {
        return Err(InputError { event: None, message: format!("the game is recorded under `{}`, not `{}`", rec.ruleset, rules.id) }.into());
    }
    if let Some((_, p)) = rec.players.iter().enumerate().find(|(i, p)| rec.players[..*i].contains(p)) {
        return Err(InputError { event: None, message: format!("{p} is listed twice among the players") }.into());
    }
    let dealer =
        rec.players.iter().position(|p| *p == rec.dealer).ok_or_else(|| InputError { event: None, message: format!("the dealer \"{}\" is not one of the players", rec.dealer) })?;
    let seats = Seating::of(setup, &rec.players, dealer);
    if let (Some(out), Some(c)) = (&seats.sits_out, &rules.sit_out) {
        let named = |e: &Event| {
            e.player() == Some(out.as_str())
                || matches!(e, Event::Deal { hands, piles, packets, .. }
                    if hands.contains_key(out.as_str()) || piles.contains_key(out.as_str()) || packets.iter().any(|k| k.to.as_deref() == Some(out.as_str())))
        };
        if let Some(i) = rec.events.iter().position(named) {
            return Err(InputError { event: Some(i), message: format!("{out} {} this deal out ({}, {}): no cards and no moves", sits_out_how(rules), c.rule, c.at) }.into());
        }
    }
    // Every event is read before any is applied: a record that cannot be read is refused whole.
    let mut moves = Vec::with_capacity(rec.events.len());
    let keys: Vec<Option<u64>> = seats.playing.iter().map(|n| name_key(n.as_bytes())).collect();
    for (i, e) in rec.events.iter().enumerate() {
        // Most events are plays of a card of the pack by a player at the table: read at once here.
        // Anything else, and any play that is not so, is `read`'s, which says what is wrong.
        let play = match e {
            Event::Play { player, card } => {
                let seat = match name_key(player.as_bytes()) {
                    Some(k) => keys.iter().position(|&m| m == Some(k)).map(|p| p as u8),
                    None => seat_of(&seats.playing, player),
                };
                seat.zip(rules.pack.parse_card(card).filter(|&c| rules.pack.cards.contains(c)))
            }
            _ => None,
        };
        moves.push(match play {
            Some((player, card)) => Move::Play { player, card },
            None => read(setup, &seats.playing, i, e)?,
        });
    }
    // The pots carried into the deal: each one the ruleset's, in its order.
    let mut carried = vec![Q::ZERO; rules.pots.len()];
    for (name, amount) in &rec.pots {
        let Some(i) = rules.pots.iter().position(|p| *p.name == **name) else {
            let known: Vec<&str> = rules.pots.iter().map(|p| &*p.name).collect();
            let message = if known.is_empty() {
                format!("the record carries pot `{name}`, but {} has no pots", rules.id)
            } else {
                format!("the record carries pot `{name}`, which {} does not have; its pots are {}", rules.id, known.join(", "))
            };
            return Err(InputError { event: None, message }.into());
        };
        crate::record::check_amount("pots", name, *amount).map_err(|message| InputError { event: None, message })?;
        carried[i] = Q::int(*amount);
    }
    // Each player's running total in the match before the deal; a player not named carries 0.
    let mut standing = vec![Q::ZERO; seats.playing.len()];
    for (name, amount) in &rec.standing {
        if !rec.players.contains(name) {
            return Err(InputError { event: None, message: format!("the record's standing names {name}, who is not at the table") }.into());
        }
        crate::record::check_amount("standing", name, *amount).map_err(|message| InputError { event: None, message })?;
        if let Some(i) = seats.playing.iter().position(|p| p == name) {
            standing[i] = Q::int(*amount);
        }
    }
    let scorer = seats.sits_out.as_deref().filter(|_| rules.sit_out_scores);
    let mut verdict = replay_moves_standing(setup, &seats.playing, seats.dealer, scorer, &carried, &standing, &moves)?;
    // Only a pack with other codes for its cards (`code`, the Fool made a trump) can be written
    // otherwise than by the cards' own codes.
    if !rules.pack.aliases.is_empty() {
        if let Some(spellings) = spellings_of(rules, rec) {
            respell(&mut verdict, &spellings);
        }
    }
    // A deal is expected from the record's dealer, who may be sitting the deal out.
    if let Some(next) = verdict.next.as_mut().filter(|n| n.phase == Phase::Deal) {
        next.player = rec.dealer.as_str().into();
    }
    if let (Some(out), Some(c)) = (seats.sits_out, &rules.sit_out) {
        // The sitter who scores is in the outcome already, with what he paid and received.
        let score = if rules.sit_out_scores {
            "no cards, but he pays and receives as a member of the defence"
        } else {
            if let Some(o) = &mut verdict.outcome {
                o.players.push(PlayerResult { player: out.as_str().into(), card_points: Q::ZERO, tricks: 0, score: Q::ZERO, winner: false });
            }
            "no cards, no score"
        };
        verdict.notes.insert(0, format!("{out} {} this deal out: {score} ({}{})", sits_out_how(rules), c.rule, c.source.as_deref().map(|s| format!(", {s}")).unwrap_or_default()));
    }
    // The players in the record's order, whatever the order of play.
    if let Some(o) = &mut verdict.outcome {
        o.players.sort_by_key(|r| rec.players.iter().position(|p| **p == *r.player));
    }
    Ok(verdict)
}

/// Replays events already read (the benchmark measures this: the rules' work, without decoding text).
pub fn replay_moves(setup: &Setup, players: &[String], dealer: u8, moves: &[Move]) -> Result<Verdict, ReplayError> {
    replay_moves_carrying(setup, players, dealer, &[], moves)
}

/// Replays events already read, the pots holding `carried` at the start of the deal.
pub fn replay_moves_carrying(setup: &Setup, players: &[String], dealer: u8, carried: &[Q], moves: &[Move]) -> Result<Verdict, ReplayError> {
    replay_moves_standing(setup, players, dealer, None, carried, &[], moves)
}

/// Replays events already read, the pots holding `carried` and the players (by seat) carrying
/// `standing` from the match at the start of the deal; `sitter`, who sits out, pays and receives as a
/// member of the defence (`sit-out ... scores-as defence`).
fn replay_moves_standing(setup: &Setup, players: &[String], dealer: u8, sitter: Option<&str>, carried: &[Q], standing: &[Q], moves: &[Move]) -> Result<Verdict, ReplayError> {
    let rules = setup.rules;
    let mut game = Game::new(setup, players, dealer);
    if let Some(s) = sitter {
        game.seat_sitter(s);
    }
    game.carry(carried);
    for (i, q) in standing.iter().enumerate().take(game.standing.len()) {
        game.standing[i] = *q;
    }
    let mut stop = None;
    for (i, m) in moves.iter().enumerate() {
        if let Err(s) = game.apply_move(i, m) {
            // Events after an annulment are refused, as events after the end of a game are.
            if let (Stop::Annulled(_), Some(next)) = (&s, moves.get(i + 1)) {
                if let Err(after) = game.apply_move(i + 1, next) {
                    stop = Some(after);
                    break;
                }
            }
            stop = Some(s);
            break;
        }
    }
    let mut verdict = Verdict {
        ruleset: rules.id.clone(),
        ruleset_version: rules.version.clone(),
        status: Status::InProgress,
        violation: None,
        annulled: None,
        next: None,
        outcome: None,
        ledger: vec![],
        tricks: vec![],
        notes: vec![],
    };
    match stop {
        Some(Stop::Input(e)) => return Err(e.into()),
        Some(Stop::Ruleset(e)) => return Err(e),
        Some(Stop::Violation(v)) => {
            verdict.status = Status::Invalid;
            verdict.violation = Some(v);
        }
        Some(Stop::Annulled(a)) => {
            verdict.status = Status::Annulled;
            verdict.annulled = Some(a);
            // Thrown in and paid for (`all-pass pay`): each player's balance of the payments.
            if game.thrown_in_paid {
                verdict.outcome = Some(game.settled_outcome().map_err(replay_error)?);
            }
        }
        None if game.settled.is_some() || game.ended_deal.is_some() || game.fault_ended.is_some() => {
            verdict.status = Status::Valid;
            verdict.outcome = Some(game.settled_outcome().map_err(replay_error)?);
        }
        None if game.stage == Stage::Done => {
            let (outcome, score_ledger, score_notes) = game.score().map_err(replay_error)?;
            verdict.status = Status::Valid;
            verdict.outcome = Some(outcome);
            // The score's terms and settlement follow the payments made during the game.
            game.ledger.extend(score_ledger);
            game.notes.extend(score_notes);
        }
        None => {
            verdict.next = game.next();
            if let Some(next) = &mut verdict.next {
                next.declarations = game.open_declarations();
                next.sit_out = game.may_sit_out();
            }
        }
    }
    verdict.tricks = game
        .tricks
        .iter()
        .enumerate()
        .map(|(i, t)| TrickView {
            number: i + 1,
            leader: game.name(t.leader),
            cards: t.cards.iter().map(|&(_, c)| c).collect(),
            winner: game.name(t.winner),
            not_taken: game
                .not_taken
                .iter()
                .filter(|&&(k, ..)| k == i)
                .map(|&(_, card, to, for_empty_card)| NotTaken { card, code: card.code_str().to_string(), to: game.name(to), for_empty_card })
                .collect(),
        })
        .collect();
    verdict.ledger = std::mem::take(&mut game.ledger);
    verdict.notes = std::mem::take(&mut game.notes);
    Ok(verdict)
}
