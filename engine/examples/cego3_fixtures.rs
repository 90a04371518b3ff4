//! Writes the fixtures of `cego-3`, Cego for three (fixtures/cego-3/): one game played out for each
//! contract, a deal all passed (Vorhand plays the Cego he must say), the claim of a skinned Solo won
//! (a defender was dealt a Solo hand and pays each other player) and lost (nobody was: the claimant
//! pays), and one invalid game for each rule the game for three changes: a Cego's Legage of the
//! four-player game's nine cards, the claim made after a Solo was bid, by a defender, and followed by
//! a card, and the auction's rules (Vorhand's Cego forced, no jump bid, nothing after an Ulti); and the
//! records it cannot replay (fixtures/cego-3/malformed/): a Piccolo bid, a hand of fourteen cards, a
//! card the 51-card pack lacks.
//! Each is a seeded simulated game found by search, or one changed from it, so it is reproducible:
//!
//!     cargo run -p tarot-engine --example generators -- cego3_fixtures

use crate::common;

use common::write;

use std::collections::BTreeMap;

use tarot_engine::ir::Ruleset;
use tarot_engine::{replay, Card, Event, GameRecord, Registry, Verdict};
use tarot_engine::{ContractChoice, SimOptions};

const ID: &str = "cego-3";

fn contract(v: &Verdict) -> String {
    v.outcome.as_ref().and_then(|o| o.contract.clone()).unwrap_or_default()
}

fn taker(v: &Verdict) -> String {
    v.outcome.as_ref().and_then(|o| o.taker.as_deref().map(str::to_string)).unwrap_or_default()
}

/// The claim of a skinned Solo in a game, if made.
fn claimed(rec: &GameRecord) -> bool {
    rec.events.iter().any(|e| matches!(e, Event::Declare { declaration, .. } if &**declaration == "skinned_solo"))
}

/// The most trumps (the Gstieß one) dealt to a player.
fn most_trumps(rec: &GameRecord) -> usize {
    let Some(Event::Deal { hands, .. }) = rec.events.first() else { return 0 };
    hands.values().map(|h| h.iter().filter(|c| Card::parse(c).is_some_and(|c| c.is_trump() || c.is_fool())).count()).max().unwrap_or(0)
}

/// Who pays for the claim: the payers of its ledger entries.
fn claim_payers(v: &Verdict) -> Vec<String> {
    let mut out: Vec<String> = v.ledger.iter().filter(|l| &*l.rule == "declaration.skinned_solo.pay").filter_map(|l| l.from.as_deref().map(str::to_string)).collect();
    out.dedup();
    out
}

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("cego-3 is built in");
    let root = common::fixtures().join(ID);
    let none = BTreeMap::new();
    // Each contract played out, steered to it, the claim never made.
    let contracts = [
        ("solo", 60, "A Solo: the cego of twelve counts for the soloist unseen, and the 70th point is his with a trick"),
        ("cego", 61, "A Cego: eleven cards laid away before the cego is seen, one after"),
        ("eine", 62, "An Eine: twelve cards laid away before the cego is seen"),
        ("eine-leere", 63, "An Eine Leere: the card kept is an empty card, twelve laid away"),
        ("zwei-leere", 64, "A Zwei Leere: two empty cards of one suit kept, eleven laid away, the lowest trump from the cego"),
        ("zwei-verschiedene", 65, "A Zwei Verschiedene: two empty cards of two suits kept, eleven laid away, the highest trump from the cego"),
        ("kleiner-mann", 66, "A Kleiner Mann: the Geiß kept and led, twelve laid away"),
        ("ulti", 67, "An Ulti: the Geiß kept to the last trick"),
    ];
    let mut ulti = None;
    for (name, seed0, what) in contracts {
        let sim = SimOptions { contract: ContractChoice::Only(name.into()), hold_petit: if name == "ulti" { 1.0 } else { 0.0 }, ..SimOptions::steered() };
        let found = common::find_game(rules, 3, &none, &sim, (seed0, 20_000), |rec, v| (contract(&v) == name).then_some(rec));
        if name == "ulti" {
            ulti = found.clone();
        }
        save(&root, "valid", name, found, seed0, what);
    }
    // All passed: after three Forts Vorhand, the first to speak, must say Cego, and plays it when the
    // others pass it.
    let sim = SimOptions { contract: ContractChoice::Uniform, ..SimOptions::steered() };
    let found = common::find_game(rules, 3, &none, &sim, (68, 20_000), |rec, v| {
        let first = rec.events.iter().find_map(|e| if let Event::Bid { player, .. } = e { Some(player.to_string()) } else { None })?;
        let said: Vec<(String, String)> = rec
            .events
            .iter()
            .filter_map(|e| if let Event::Bid { player, bid } = e { Some((player.to_string(), bid.to_string())) } else { None })
            .filter(|(_, b)| b != "pass")
            .collect();
        (said == [(first.clone(), "cego".to_string())] && contract(&v) == "cego" && taker(&v) == first).then_some(rec)
    });
    save(&root, "valid", "all-passed", found.clone(), 68, "All passed: after three Forts Vorhand must say Cego, and plays it when the others pass it");
    auction(rules, &root, found, ulti);
    // The claim, won and lost.
    let claim = |seed0: u64, won: bool| {
        let sim = SimOptions { contract: ContractChoice::Even, end_deal: 1.0, ..SimOptions::steered() };
        common::find_game(rules, 3, &none, &sim, (seed0, 20_000), |rec, v| {
            let payers = claim_payers(&v);
            // Lost: nobody was dealt eight trumps, so nobody a Solo hand.
            let most = most_trumps(&rec);
            (claimed(&rec) && !payers.is_empty() && payers.iter().all(|p| *p != taker(&v)) == won && (won || most < 8)).then_some(rec)
        })
    };
    save(&root, "valid", "skinned-solo-won", claim(69, true), 69, "The claim of a skinned Solo, won: a defender was dealt a Solo hand and passed it, and pays each other player");
    let lost = claim(70, false);
    save(&root, "valid", "skinned-solo-lost", lost.clone(), 70, "The claim of a skinned Solo, lost: nobody was dealt a Solo hand, and the claimant pays each other player");
    invalid(rules, &root, lost);
}

/// Writes a game found, or says it was not.
fn save(root: &std::path::Path, folder: &str, file: &str, found: Option<(u64, GameRecord)>, seed0: u64, what: &str) {
    match found {
        Some((seed, mut rec)) => {
            rec.description = Some(format!("{what}: game {seed} of seed {seed0} of `cego3_fixtures`"));
            write(&root.join(folder).join(format!("{file}.json")), &rec);
        }
        None => eprintln!("{file}: not found in 20000 games"),
    }
}

/// The rule a record breaks, which must start with `rule`.
fn expect(rules: &Ruleset, rec: &GameRecord, rule: &str) -> String {
    let v = replay(rules, rec).expect("replayable");
    let broke = v.violation.map(|b| b.rule.to_string()).unwrap_or_default();
    assert!(broke.starts_with(rule), "{rule}: the record breaks {broke:?}");
    broke
}

/// The rules the game for three changes, each broken once: from the claim lost (`claim`), and from
/// seeded games of the contracts they need.
fn invalid(rules: &Ruleset, root: &std::path::Path, claim: Option<(u64, GameRecord)>) {
    let write_broken = |rec: &mut GameRecord, rule: &str, what: String| {
        let broke = expect(rules, rec, rule);
        rec.description = Some(what);
        write(&root.join("invalid").join(format!("{broke}.json")), rec);
    };
    // A record the rules for three cannot replay at all (a contract they do not have, a deal they
    // do not make): malformed, with what the replay says.
    let write_malformed = |rec: &mut GameRecord, file: &str, what: String| {
        let e = replay(rules, rec).expect_err("malformed");
        rec.description = Some(format!("{what} ({})", e.message));
        write(&root.join("malformed").join(format!("{file}.json")), rec);
    };
    let none = BTreeMap::new();
    let Some((seed, rec)) = claim else { return };
    let origin = format!("game {seed} of seed 70 of `cego3_fixtures`");
    let at = rec.events.iter().position(|e| matches!(e, Event::Declare { .. })).expect("the claim");
    // A Piccolo bid: the first bid made a Piccolo, a contract of the four-player game only.
    let first = rec.events.iter().position(|e| matches!(e, Event::Bid { .. })).expect("a bid");
    let mut piccolo = rec.clone();
    let Event::Bid { player, bid } = rec.events[first].clone() else { unreachable!("a bid") };
    piccolo.events[first] = Event::Bid { player: player.clone(), bid: "piccolo".into() };
    write_malformed(&mut piccolo, "piccolo-bid", format!("A Piccolo bid at three, where it is not played: event {first} of {origin}, where {player} said {bid}"));
    // The claim by a defender.
    let mut by = rec.clone();
    let Event::Declare { player: claimant, declaration, cards } = rec.events[at].clone() else { unreachable!("a declaration") };
    let other = rec.players.iter().find(|p| ***p != *claimant).expect("a defender").clone();
    by.events[at] = Event::Declare { player: other.as_str().into(), declaration: declaration.clone(), cards: cards.clone() };
    write_broken(&mut by, "declaration.skinned_solo", format!("The claim of a skinned Solo made by {other}, a defender: event {at} of {origin}, where {claimant} claimed"));
    // A card led after the claim, which ended the deal: the declarer's first card kept.
    let mut after = rec.clone();
    let kept = hand_after(&rec, &claimant).into_iter().next().expect("a card kept");
    after.events.push(Event::Play { player: claimant.clone(), card: kept.as_str().into() });
    write_broken(
        &mut after,
        "declaration.skinned_solo.ends-deal",
        format!("A card led after the claim of a skinned Solo, which ended the deal unplayed: {origin}, with {claimant}'s lead of {kept} added"),
    );
    // The claim after a Solo was bid: a Gegensolo (a Cego bid over a Solo) whose declarer claims.
    let uniform = SimOptions { contract: ContractChoice::Uniform, ..SimOptions::steered() };
    let over = common::find_game(rules, 3, &none, &uniform, (72, 20_000), |g, v| {
        let solo = g.events.iter().any(|e| matches!(e, Event::Bid { bid, .. } if &**bid == "solo"));
        (solo && contract(&v) == "cego").then_some((g, taker(&v)))
    });
    if let Some((seed, (g, t))) = over {
        let play = g.events.iter().position(|e| matches!(e, Event::Play { .. })).expect("a card");
        let mut late = g.clone();
        late.events.truncate(play);
        late.events.push(Event::Declare { player: t.as_str().into(), declaration: "skinned_solo".into(), cards: vec![] });
        write_broken(
            &mut late,
            "declaration.skinned_solo.allowed",
            format!("The claim of a skinned Solo made after a Solo was bid: game {seed} of seed 72 of `cego3_fixtures`, a Cego bid over a Solo, its play replaced by the claim"),
        );
    }
    // A Cego whose declarer lays away nine cards before the cego, as at four.
    let sim = SimOptions { contract: ContractChoice::Only("cego".into()), ..SimOptions::steered() };
    let cego = common::find_game(rules, 3, &none, &sim, (73, 20_000), |g, v| (contract(&v) == "cego").then_some(g));
    if let Some((seed, g)) = cego {
        let first = g.events.iter().position(|e| matches!(e, Event::Discard { .. })).expect("a Legage");
        let Event::Discard { player, cards } = g.events[first].clone() else { unreachable!("a discard") };
        let mut nine = g.clone();
        nine.events.truncate(first);
        nine.events.push(Event::Discard { player: player.clone(), cards: cards[..9].to_vec() });
        write_broken(
            &mut nine,
            "talon.split",
            format!("A Cego at three whose declarer lays away nine cards before the cego, as at four, not eleven: game {seed} of seed 73 of `cego3_fixtures`, cut at its Legage"),
        );
        // The deal: a hand of fourteen cards, the cego's first card dealt to the dealer's right-hand
        // neighbour; and a card the pack lacks in place of one of a hand.
        let Event::Deal { hands, dog, cut, piles, packets } = g.events[0].clone() else { unreachable!("a deal") };
        let (first_player, _) = hands.iter().next().expect("a hand");
        let mut more = hands.clone();
        more.get_mut(first_player).expect("his hand").push(dog[0].clone());
        let mut fourteen = g.clone();
        fourteen.events.truncate(1);
        fourteen.events[0] = Event::Deal { hands: more, dog: dog[1..].to_vec(), cut: cut.clone(), piles: piles.clone(), packets: packets.clone() };
        write_malformed(
            &mut fourteen,
            "hand-of-fourteen",
            format!("A hand of fourteen cards and a cego of eleven: the deal of game {seed} of seed 73 of `cego3_fixtures`, the cego's first card dealt to {first_player}"),
        );
        let mut lacks = hands.clone();
        let hand = lacks.get_mut(first_player).expect("his hand");
        let gone = std::mem::replace(&mut hand[0], "7C".into());
        let mut seven = g.clone();
        seven.events.truncate(1);
        seven.events[0] = Event::Deal { hands: lacks, dog, cut, piles, packets };
        write_malformed(
            &mut seven,
            "seven-of-clubs",
            format!("The seven of clubs, taken out at three, dealt to {first_player} in place of {gone}: the deal of game {seed} of seed 73 of `cego3_fixtures`"),
        );
    }
}

/// The auction for three, pagat.com's for four, each of its rules broken once: from the deal all
/// passed (`passed`: three Forts, Vorhand's Cego, two passes), Vorhand passing where he must say Cego,
/// and the player after him jumping to Eine Leere over it; from the Ulti (`ulti`), a bid after it.
fn auction(rules: &Ruleset, root: &std::path::Path, passed: Option<(u64, GameRecord)>, ulti: Option<(u64, GameRecord)>) {
    let write_broken = |rec: &mut GameRecord, rule: &str, what: String| {
        let broke = expect(rules, rec, rule);
        assert_eq!(broke, rule, "{what}");
        rec.description = Some(what);
        write(&root.join("invalid").join(format!("{broke}.json")), rec);
    };
    let bids = |rec: &GameRecord| -> Vec<usize> { rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Bid { .. })).map(|(i, _)| i).collect() };
    if let Some((seed, rec)) = passed {
        let origin = format!("game {seed} of seed 68 of `cego3_fixtures`");
        let at = bids(&rec);
        // Events 1 to 3 are the Forts, 4 Vorhand's Cego, 5 and 6 the others' passes.
        let Event::Bid { player: vorhand, .. } = rec.events[at[3]].clone() else { unreachable!("a bid") };
        let mut pass = rec.clone();
        pass.events.truncate(at[3]);
        pass.events.push(Event::Bid { player: vorhand.clone(), bid: "pass".into() });
        write_broken(&mut pass, "bidding.must-bid.cego", format!("Vorhand ({vorhand}) passes where, all having said Fort, he must say Cego: {origin}, his Cego made a pass"));
        let Event::Bid { player: next, .. } = rec.events[at[4]].clone() else { unreachable!("a bid") };
        let mut jump = rec.clone();
        jump.events.truncate(at[4]);
        jump.events.push(Event::Bid { player: next.clone(), bid: "eine-leere".into() });
        write_broken(
            &mut jump,
            "bidding.step",
            format!("A jump bid: {next} bids Eine Leere over Vorhand's Cego, where the next bid is Eine: {origin}, {next}'s pass made an Eine Leere"),
        );
    }
    if let Some((seed, rec)) = ulti {
        let at = bids(&rec);
        let last = *at.last().expect("a bid");
        let Event::Bid { player: bidder, .. } = rec.events[last].clone() else { unreachable!("a bid") };
        let other = rec.players.iter().find(|p| ***p != *bidder).expect("another player").clone();
        let mut after = rec.clone();
        after.events.truncate(last + 1);
        after.events.push(Event::Bid { player: other.as_str().into(), bid: "solo".into() });
        write_broken(
            &mut after,
            "bidding.closing",
            format!("A Solo bid after {bidder}'s Ulti, which ended the auction: game {seed} of seed 67 of `cego3_fixtures`, cut after the Ulti"),
        );
    }
}

/// The cards `player` holds once every event of `rec` is applied: those dealt him and taken, less
/// those laid away and played.
fn hand_after(rec: &GameRecord, player: &str) -> Vec<String> {
    let mut hand: Vec<String> = vec![];
    for e in &rec.events {
        match e {
            Event::Deal { hands, .. } => hand = hands[player].iter().map(|c| c.to_string()).collect(),
            Event::Take { player: p, cards } if **p == *player => hand.extend(cards.iter().map(|c| c.to_string())),
            Event::Discard { player: p, cards } if **p == *player => hand.retain(|c| !cards.iter().any(|x| **x == **c)),
            Event::Play { player: p, card } if **p == *player => hand.retain(|c| **c != **card),
            _ => {}
        }
    }
    hand
}
