//! Bids: every word of the ruleset by the player `next` names, and by every other player out of turn.
//!
//! REFERENCE (`out-of-turn`): a bid out of turn is refused (`bidding.turns`) but for the contracts of
//! `out-of-turn`, which a player who has not yet spoken in the round in progress may say before his
//! turn, all else binding as at his turn (`by`, outbidding, `first-turn`); said by one who has spoken,
//! they break `bidding.out-of-turn`. `next` offers them at the bidder's own turn, and the verdict notes
//! a closing bid said out of turn. So such a bid is accepted exactly when its bidder has not spoken in
//! the round and `next` offers it to him at his turn, reached by the players named before him passing
//! (in the same round: where the passes would end the opening round, or one is refused, `next` says
//! nothing of it, and an acceptance or a refusal for a rule is all that is asked).

use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, Event, GameRecord, Phase, Status, Text};

use super::{At, Said, Tried};

/// The bids tried at a `bid` of `at`.
pub(super) fn tried(at: &At, moves: &mut Vec<Tried>) {
    let b = at.rules.bidding.as_ref().unwrap();
    let words: Vec<&str> = ["pass"].into_iter().chain(b.contracts.iter().map(|c| c.name.as_str())).chain(b.reserve.as_ref().map(|r| r.name.as_str())).collect();
    let who = &at.next.player;
    for w in &words {
        let said = if at.next.legal.iter().any(|l| l == w) { Said::Offered } else { Said::LeftOut };
        moves.push(Tried { what: format!("{who} bidding {w}"), event: Event::Bid { player: at.player(), bid: (*w).into() }, said });
    }
    let early: Vec<&str> = b.out_of_turn.iter().flat_map(|(cs, _)| cs.iter().map(|&c| b.contracts[c].name.as_str())).collect();
    // The rule a bid out of turn breaks: `bidding.turns` for a word not of `out-of-turn`, that one's
    // rule for one said after one's first word in the round; any, while the winner has his last word
    // (`instead`, `raise`) or where an opening bidder out may not speak (its rule comes first).
    let breaks = |rule: &str| if at.game.choosing() || b.opening_out.is_some() { Said::LeftOut } else { Said::Breaks(vec![rule.into()]) };
    let bids = bids(at.rec, at.k);
    for q in at.names.iter().filter(|q| q.as_str() != &**who) {
        for w in &words {
            let said = match b.out_of_turn.as_ref().filter(|_| early.contains(w) && !at.game.choosing()) {
                None => breaks(&b.turns_clause.rule),
                Some((_, clause)) if spoken_in_round(at.rules, &bids, at.names.len(), q) => breaks(&clause.rule),
                Some(_) => match at_his_turn(at.rules, at.rec, at.k, q, at.names.len()) {
                    Some(legal) if legal.iter().any(|l| l == w) => Said::OutOfTurn,
                    Some(_) => Said::LeftOut,
                    None => Said::Silent,
                },
            };
            moves.push(Tried { what: format!("{q} bidding {w} out of turn ({who}'s)"), event: Event::Bid { player: q.as_str().into(), bid: (*w).into() }, said });
        }
    }
}

/// The bids of the record's first `k` events: who, and what.
fn bids(rec: &GameRecord, k: usize) -> Vec<(Text, Text)> {
    rec.events[..k].iter().filter_map(|e| if let Event::Bid { player, bid } = e { Some((player.clone(), bid.clone())) } else { None }).collect()
}

/// Where the round in progress begins among `bids`, as REFERENCE says of `opening-round`: the
/// auction's first bid without one; the opening bid (carried into the auction after it, his first word
/// there); after `n` passes of the opening round, the bid after them; while it goes on, its first.
fn round_start(rules: &Ruleset, bids: &[(Text, Text)], n: usize) -> usize {
    let b = rules.bidding.as_ref().unwrap();
    let Some((cs, _)) = &b.opening_round else { return 0 };
    let opening = |w: &Text| cs.iter().any(|&c| b.contracts[c].name.eq_ignore_ascii_case(w));
    match bids.iter().position(|(_, w)| opening(w)) {
        Some(j) => j,
        None if bids.len() >= n => n,
        None => 0,
    }
}

fn spoken_in_round(rules: &Ruleset, bids: &[(Text, Text)], n: usize, q: &str) -> bool {
    bids[round_start(rules, bids, n)..].iter().any(|(p, _)| p == q)
}

/// The bids `next` offers `q` at his own turn, the players named before him passing, in the round in
/// progress at event `k`; `None` where the walk does not come to him so (a pass refused, the round or
/// the auction over first).
fn at_his_turn(rules: &Ruleset, rec: &GameRecord, k: usize, q: &str, n: usize) -> Option<Vec<String>> {
    let mut r = GameRecord { events: rec.events[..k].to_vec(), ..rec.clone() };
    let start = round_start(rules, &bids(rec, k), n);
    for _ in 0..=n {
        let v = replay(rules, &r).ok()?;
        let next = v.next.filter(|x| v.status == Status::InProgress && x.phase == Phase::Bid)?;
        if round_start(rules, &bids(&r, r.events.len()), n) != start {
            return None;
        }
        if &*next.player == q {
            return Some(next.legal);
        }
        r.events.push(Event::Bid { player: next.player.as_ref().into(), bid: "pass".into() });
    }
    None
}

/// Whether the verdict notes a bid out of turn, put at event `k`.
pub(super) fn noted_out_of_turn(rules: &Ruleset, rec: &GameRecord, k: usize, e: &Event) -> bool {
    let mut r = GameRecord { events: rec.events[..k].to_vec(), ..rec.clone() };
    r.events.push(e.clone());
    replay(rules, &r).is_ok_and(|v| v.notes.iter().any(|n| n.contains("said out of turn")))
}
