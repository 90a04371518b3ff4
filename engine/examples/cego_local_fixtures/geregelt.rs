//! The Ministranten's Geregelter Räuber (P "The possible Games"), Vorhand's choice under the option
//! `geregelter_rauber`: a game played right (valid/geregelter-rauber.json), in whose first three tricks
//! a player gives a trump on a suit led that he holds, and a player whose only trumps are owed to a
//! later trick gives Brettli (P's example: "the 16 to the first trick, a Brettli to the second trick,
//! and the 1 to the third"); and one invalid game per rule of its play, broken at a card of that game
//! (invalid/RULE.json): each card owed to its trick held back for another, Brettli given where a trump
//! could be, and the trump owed to a later trick given where Brettli are due.

use crate::common::{self, write};

use std::collections::BTreeMap;
use std::path::Path;

use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, ContractChoice, Event, GameRecord, SimOptions};

const CONTRACT: &str = "geregelter-rauber";
const SEED: u64 = 84;
/// The card owed to each of the first three tricks (the Gstieß is T22 in a record).
const OWED: [&str; 3] = ["T22", "T21", "T1"];
const OWED_RULES: [&str; 3] = ["play.must.play.the-top-trump-to-the-first-trick", "play.must.play.the-21-to-the-second-trick", "play.must.play.the-1-to-the-third-trick"];
const TRUMPS_RULE: &str = "play.must.play.trumps-to-the-first-three-tricks";
const BRETTLI_RULE: &str = "play.must.play.brettli-where-no-trump-can-be-given";

/// A card played to one of the first three tricks: the event's index, the player, the card, the trick,
/// the card that led it (none for the lead), and the cards he held before it.
struct Played {
    at: usize,
    player: String,
    card: String,
    trick: usize,
    led: Option<String>,
    held: Vec<String>,
}

fn trump(c: &str) -> bool {
    c == "EX" || c.starts_with('T')
}

/// A Brettli: a numeral card of a suit (its rank written in digits).
fn brettli(c: &str) -> bool {
    !trump(c) && c.starts_with(|x: char| x.is_ascii_digit())
}

fn suit(c: &str) -> Option<char> {
    (!trump(c)).then(|| c.chars().last().expect("a card code"))
}

/// The cards owed to a trick after trick `k`.
fn owed_later(k: usize) -> &'static [&'static str] {
    &OWED[(k + 1).min(3)..]
}

/// The cards played to the first three tricks of `rec`, at a table of `n`.
fn first_tricks(rec: &GameRecord, n: usize) -> Vec<Played> {
    let mut hands: BTreeMap<String, Vec<String>> = rec
        .events
        .iter()
        .find_map(|e| if let Event::Deal { hands, .. } = e { Some(hands.iter().map(|(p, h)| (p.to_string(), h.iter().map(|c| c.to_string()).collect())).collect()) } else { None })
        .expect("a deal");
    let mut out: Vec<Played> = vec![];
    for (at, e) in rec.events.iter().enumerate() {
        let Event::Play { player, card } = e else { continue };
        let k = out.len() / n;
        if k == 3 {
            break;
        }
        let led = (!out.len().is_multiple_of(n)).then(|| out[k * n].card.clone());
        let hand = hands.get_mut(player.as_str()).expect("a player dealt");
        out.push(Played { at, player: player.to_string(), card: card.to_string(), trick: k, led, held: hand.clone() });
        hand.retain(|c| c.as_str() != card.as_str());
    }
    out
}

/// P's example: Brettli given by a player whose trumps are all owed to a later trick.
fn brettli_for_a_trump_owed_later(p: &Played) -> bool {
    let trumps: Vec<&String> = p.held.iter().filter(|c| trump(c)).collect();
    brettli(&p.card) && !trumps.is_empty() && trumps.iter().all(|c| owed_later(p.trick).contains(&c.as_str()))
}

/// A trump given on a suit led that the player holds.
fn trump_over_the_suit_led(p: &Played) -> bool {
    let led = p.led.as_deref().and_then(suit);
    trump(&p.card) && led.is_some() && p.held.iter().any(|c| suit(c) == led)
}

/// `rec` cut before the card `p`, and `card` played in its place.
fn broken(rec: &GameRecord, p: &Played, card: &str, what: String) -> GameRecord {
    let mut out = rec.clone();
    out.events.truncate(p.at);
    out.events.push(Event::Play { player: p.player.as_str().into(), card: card.into() });
    out.description = Some(what);
    out
}

pub fn write_all(rules: &Ruleset, root: &Path) {
    let n = 4;
    let options = BTreeMap::from([("geregelter_rauber".to_string(), serde_json::json!("yes"))]);
    let sim = SimOptions { contract: ContractChoice::Only(CONTRACT.into()), ..SimOptions::steered() };
    let found = common::find_game(rules, n, &options, &sim, (SEED, 20_000), |rec, v| {
        let played = first_tricks(&rec, n);
        let shows = v.outcome.as_ref().and_then(|o| o.contract.as_deref()) == Some(CONTRACT)
            && played.iter().any(brettli_for_a_trump_owed_later)
            && played.iter().any(trump_over_the_suit_led);
        shows.then_some(rec)
    });
    let Some((k, mut rec)) = found else {
        eprintln!("cego-ministranten: no Geregelter Räuber showing both in 20000 games");
        return;
    };
    rec.description = Some(format!(
        "A Geregelter Räuber (P \"The possible Games\"), the option geregelter_rauber: trumps to the first three tricks, whatever is led, the Gstieß, the 21 and the kleiner Mann each to its own; a player gives a trump on a suit led that he holds, and one whose trumps are owed to a later trick gives Brettli (P's example); game {k} of seed {SEED} of `cego_local_fixtures`"
    ));
    common::write_valid(&root.join("valid").join(format!("{CONTRACT}.json")), &rec, rules);
    let played = first_tricks(&rec, n);
    let mut games: Vec<(&str, GameRecord)> = vec![];
    // Each card owed to its trick, held back for another card he holds.
    for (k, owed) in OWED.iter().enumerate() {
        let Some(p) = played.iter().find(|p| p.trick == k && p.card == *owed) else { continue };
        let other = p.held.iter().find(|c| c.as_str() != *owed && !owed_later(k).contains(&c.as_str())).expect("another card");
        games.push((
            OWED_RULES[k],
            broken(&rec, p, other, format!("{} holds back {owed}, owed to trick {}, for {other} (P \"The possible Games\"): valid/{CONTRACT}.json cut there", p.player, k + 1)),
        ));
    }
    // Brettli given where a trump could be.
    if let Some((p, b)) = played.iter().filter(|p| trump(&p.card) && p.card != OWED[p.trick]).find_map(|p| p.held.iter().find(|c| brettli(c)).map(|b| (p, b))) {
        games.push((
            TRUMPS_RULE,
            broken(
                &rec,
                p,
                b,
                format!(
                    "{} gives Brettli, {b}, to trick {}, where he holds {}, a trump to give (P \"The possible Games\"): valid/{CONTRACT}.json cut there",
                    p.player,
                    p.trick + 1,
                    p.card
                ),
            ),
        ));
    }
    // The trump owed to a later trick given where Brettli are due (P's example broken).
    if let Some(p) = played.iter().find(|p| brettli_for_a_trump_owed_later(p)) {
        let t = p.held.iter().find(|c| trump(c)).expect("a trump owed later");
        games.push((
            BRETTLI_RULE,
            broken(
                &rec,
                p,
                t,
                format!(
                    "{} gives {t}, owed to a later trick, to trick {}, where Brettli are due (P \"The possible Games\"): valid/{CONTRACT}.json cut there",
                    p.player,
                    p.trick + 1
                ),
            ),
        ));
    }
    for (rule, game) in games {
        let v = replay(rules, &game).expect("replayable");
        assert_eq!(v.violation.map(|b| b.rule.to_string()).as_deref(), Some(rule), "cego-ministranten: {rule}");
        write(&root.join("invalid").join(format!("{rule}.json")), &game);
    }
}
