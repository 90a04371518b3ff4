//! The Ministranten's penalties (P "Penalties": the offender pays 70 to each other player, and the
//! deal is abandoned): a defender who does not follow suit (valid/revoke-by-a-defender.json), the
//! declarer who, void of the suit led, plays no Trock though he holds one
//! (valid/revoke-of-a-trump-by-the-declarer.json), each played on after the revoke
//! (invalid/play.fault.follow.json, invalid/play.fault.trump.json: the next card is refused); and the
//! further card of a Cego's Legage forgotten, a discard of none (valid/discard-forgotten.json). The
//! same for the Ministranten's game for three, and its claims of a skinned Solo (P "Three Player
//! Version": "the possibility of challenging"), won and lost (`claims`).

use crate::common::{self, write};

use std::collections::BTreeMap;
use std::path::Path;

use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, ContractChoice, Event, GameRecord, SimOptions, Status};

/// Whose revoke, of which obligation: the file, whether the declarer revokes, the fault's rule, and
/// what it shows.
const REVOKES: [(&str, bool, &str, &str); 2] = [
    ("revoke-by-a-defender", false, "play.fault.follow", "A defender does not follow suit, holding it"),
    ("revoke-of-a-trump-by-the-declarer", true, "play.fault.trump", "The declarer, void of the suit led, plays no Trock, holding one"),
];

/// The declarer of a game: the last player to bid something other than a pass.
fn declarer(rec: &GameRecord) -> Option<String> {
    rec.events.iter().filter_map(|e| if let Event::Bid { player, bid } = e { (&**bid != "pass").then(|| player.to_string()) } else { None }).next_back()
}

/// `rec` up to the first play of the declarer (or of a defender) in place of which a card he held
/// would have been the fault `rule`: that card played instead, the deal ending there.
fn revoked(rules: &Ruleset, rec: &GameRecord, by_declarer: bool, rule: &str) -> Option<GameRecord> {
    let taker = declarer(rec)?;
    let Event::Deal { hands, dog, .. } = &rec.events[0] else { return None };
    let cards: Vec<String> = hands.values().flatten().chain(dog).map(|c| c.to_string()).collect();
    for (i, e) in rec.events.iter().enumerate() {
        let Event::Play { player, card } = e else { continue };
        if (**player == *taker) != by_declarer {
            continue;
        }
        for c in cards.iter().filter(|c| c.as_str() != &**card) {
            let mut out = GameRecord { events: rec.events[..i].to_vec(), ..rec.clone() };
            out.events.push(Event::Play { player: player.clone(), card: c.as_str().into() });
            if replay(rules, &out).is_ok_and(|v| v.status == Status::Valid && v.ledger.iter().any(|l| &*l.rule == rule)) {
                return Some(out);
            }
        }
    }
    None
}

pub fn write_all(rules: &Ruleset, players: usize, seed: u64, root: &Path) {
    let id = &rules.id;
    let steered = |c: &str| SimOptions { contract: ContractChoice::Only(c.into()), ..SimOptions::steered() };
    for (file, by_declarer, rule, what) in REVOKES {
        let Some((n, (rec, bad))) =
            common::find_game(rules, players, &BTreeMap::new(), &steered("cego"), (seed, 400), |rec, _| revoked(rules, &rec, by_declarer, rule).map(|b| (rec, b)))
        else {
            eprintln!("{id}: no {file} found in 400 games");
            continue;
        };
        let mut bad = bad;
        bad.description = Some(format!(
            "{what}: the deal is abandoned there, and he pays 70 to each other player (P \"Penalties\"): game {n} of seed {seed} of `cego_local_fixtures`, a card he could not play put in"
        ));
        common::write_valid(&root.join("valid").join(format!("{file}.json")), &bad, rules);
        // Played on after the revoke: the next card of the game is refused, under the fault's rule.
        let at = bad.events.len() - 1;
        let mut on = bad.clone();
        on.events.extend(rec.events[at + 1..].iter().find(|e| matches!(e, Event::Play { .. })).cloned());
        on.description =
            Some(format!("The game of valid/{file}.json played on after the revoke, which abandoned the deal (P \"Penalties\"): game {n} of seed {seed} of `cego_local_fixtures`"));
        let v = replay(rules, &on).expect("replayable");
        assert_eq!(v.violation.as_ref().map(|b| b.rule.to_string()).as_deref(), Some(rule), "{id}: {}", v.to_text());
        write(&root.join("invalid").join(format!("{rule}.json")), &on);
    }
    // P's example: "having retained two cards and picked up the 10 cards from the middle, you forget to
    // discard a further card but lead to the first trick instead": the second discard of a Cego made
    // of no card.
    let Some((n, mut rec)) = common::find_game(rules, players, &BTreeMap::new(), &steered("cego"), (seed + 1, 400), |rec, _| {
        let second = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Discard { .. })).nth(1)?.0;
        let mut out = rec.clone();
        out.events.truncate(second + 1);
        if let Event::Discard { cards, .. } = &mut out.events[second] {
            cards.clear();
        }
        Some(out)
    }) else {
        eprintln!("{id}: no Cego found in 400 games");
        return;
    };
    rec.description = Some(format!(
        "The declarer of a Cego forgets the further card of his Legage, after the cego: a discard of none; the deal is abandoned there, and he pays 70 to each other player (P \"Penalties\"): game {n} of seed {} of `cego_local_fixtures`, his second discard emptied",
        seed + 1
    ));
    common::write_valid(&root.join("valid").join("discard-forgotten.json"), &rec, rules);
}

/// The claim of a skinned Solo at three (P "Three Player Version", "Three Player Game"): the first seeded
/// game in which the simulator, told to end deals whenever it may, makes the claim and wins it (a
/// player was dealt a Solo hand: valid/skinned-solo-won.json), and the first in which it loses it
/// (valid/skinned-solo-lost.json): the hands are shown, and the loser pays each other player 35 times
/// the game's factor.
pub fn claims(rules: &Ruleset, root: &Path) {
    use rand::SeedableRng;
    let sim = SimOptions { end_deal: 1.0, ..SimOptions::steered() };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(160);
    let claimed = |e: &Event| matches!(e, Event::Declare { declaration, .. } if &**declaration == "skinned_solo");
    let mut want = vec![("skinned-solo-won", true), ("skinned-solo-lost", false)];
    for n in 0..20_000u64 {
        if want.is_empty() {
            break;
        }
        let Ok(mut rec) = tarot_engine::random_game_with(rules, 3, &BTreeMap::new(), &sim, &mut rng) else { continue };
        let Some(Event::Declare { player, .. }) = rec.events.last().filter(|e| claimed(e)).cloned() else { continue };
        let v = replay(rules, &rec).expect("replayable");
        let score = v.outcome.as_ref().and_then(|o| o.players.iter().find(|p| *p.player == *player).map(|p| p.score)).expect("the claimant's score");
        let won = score > tarot_engine::Q::ZERO;
        let Some(i) = want.iter().position(|&(_, w)| w == won) else { continue };
        let (file, _) = want.remove(i);
        rec.description = Some(format!(
            "Nobody having bid Solo, {player}, the auction's winner, claims once he has seen the cego that a player skinned a Solo; the hands are shown, {} (P \"Three Player Version\", \"Three Player Game\"): game {n} of seed 160 of `cego_local_fixtures`",
            if won { "a player was dealt a Solo hand and pays each other player the game lost without a trick" } else { "nobody was dealt a Solo hand, and the claimant pays each other player the game lost without a trick" }
        ));
        common::write_valid(&root.join("valid").join(format!("{file}.json")), &rec, rules);
    }
    for (file, _) in want {
        eprintln!("{}: no {file} found in 20000 games", rules.id);
    }
}
