//! The fixtures of `troggu-graechen` and `troggu-st-niklaus`, Troggu as played in Grächen and in St
//! Niklaus (P "Variations"), each a seeded game found by search among steered games, or a found game
//! with its deal arranged, so reproducible:
//!
//! Grächen:
//! - valid/deal-at-four-7-tapp-7.json: at four, 7 cards each, the Tapp of 6, 7 cards each.
//! - valid/deal-at-five-5-tapp-6.json and valid/deal-at-five-6-tapp-5.json: at five, the two orders
//!   the dealer may choose.
//! - valid/stake-doubled-at-20.json: the losers took 20 card points or fewer: 10 Rappen each.
//! - valid/stake-single-over-20.json: the losers took from 21 to 30 card points (doubled in Visp): the
//!   stake of 5 Rappen.
//! - valid/seven-fives-laid-away.json: the Tappist lays away all seven 5-point cards.
//! - invalid/deal.packets--visp-packets-at-five.json: at five, the packets of Visp (4 + 4 + 3).
//! - invalid/discard.require.1--the-four-kings-alone.json: the four kings laid away without the other
//!   three 5-point cards (allowed in Visp).
//! - malformed/misere-after-all-pass.json and malformed/misere-bid.json: a deal all pass, going on
//!   with a Misère led by the dealer, or with a Misère bid: Grächen has none, so these are not records
//!   of its game.
//!
//! St Niklaus:
//! - valid/stake-tapp-made.json: the Tappist wins, the losers over 31: 5 Rappen from each opponent.
//! - valid/stake-doubled-at-31.json: the losers took 31 card points (single in Visp): 10 each.
//! - valid/misere-fewest-points-win.json and valid/misere-tied-for-the-fewest.json: in a Misère the
//!   fewest card points win 5 Rappen from each other player.
//! - valid/seven-fives-laid-away.json and invalid/discard.require.1--the-four-kings-alone.json, as in
//!   Grächen.
//!
//!     cargo run -p tarot-engine --example generators -- troggu_fixtures

use crate::common;

use common::{write, write_valid};

use super::{contract, value};

use std::collections::BTreeMap;
use std::path::Path;

use tarot_engine::ir::Ruleset;
use tarot_engine::{random_game_with, ContractChoice, SimOptions};
use tarot_engine::{replay, Event, GameRecord, Packet, Registry, Status, Text, Verdict};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const GRAECHEN: &str = "troggu-graechen";
const ST_NIKLAUS: &str = "troggu-st-niklaus";
const SEED: u64 = 1987;

/// The seven 5-point cards: the Bättler, the XXI, the I and the four kings.
const FIVES: [&str; 7] = ["T22", "T21", "T1", "KS", "KH", "KD", "KC"];
const KINGS: [&str; 4] = ["KS", "KH", "KD", "KC"];

/// The losers' card points of a contract won or lost, not drawn, and how many times the stake.
fn losers(v: &Verdict) -> Option<(i64, i64)> {
    (value(v, "drawn") == Some(0) && contract(v) != Some("misere")).then(|| (value(v, "losers_points"), value(v, "times"))).and_then(|(p, t)| Some((p?, t?)))
}

/// The players' packet sizes of a record's deal, in order, the Tapp's as 0.
fn packet_sizes(rec: &GameRecord) -> Vec<usize> {
    match &rec.events[0] {
        Event::Deal { packets, .. } => packets.iter().map(|p| if p.to.is_some() { p.cards.len() } else { 0 }).collect(),
        _ => vec![],
    }
}

/// The card points of the Misère's players, fewest first: how many are tied for the fewest.
fn fewest(v: &Verdict) -> usize {
    let Some(outcome) = v.outcome.as_ref() else { return 0 };
    let low = outcome.players.iter().map(|p| p.card_points).min();
    outcome.players.iter().filter(|p| Some(p.card_points) == low).count()
}

type Wanted = (&'static str, usize, &'static str, fn(&GameRecord, &Verdict) -> bool);

/// The first steered game of each kind wanted, written to `valid/`; the games found, by file.
fn found(rules: &Ruleset, root: &Path, seed: u64, sim: &SimOptions, wanted: &[Wanted]) -> BTreeMap<&'static str, (GameRecord, String)> {
    let mut out = BTreeMap::new();
    for (k, (file, players, what, shows)) in wanted.iter().enumerate() {
        let seed0 = seed + k as u64;
        let Some((n, mut rec)) = common::find_game(rules, *players, &BTreeMap::new(), sim, (seed0, 20_000), |rec, v| shows(&rec, &v).then_some(rec)) else {
            eprintln!("{}/{file}: not found in 20000 games", rules.id);
            continue;
        };
        let origin = format!("game {n} of seed {seed0} of `troggu_fixtures`");
        rec.description = Some(format!("{what}: {origin}"));
        write_valid(&root.join("valid").join(format!("{file}.json")), &rec, rules);
        out.insert(*file, (rec, origin));
    }
    out
}

pub(super) fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    graechen(registry.get(GRAECHEN).expect("troggu-graechen is built in"));
    st_niklaus(registry.get(ST_NIKLAUS).expect("troggu-st-niklaus is built in"));
}

fn graechen(rules: &Ruleset) {
    let root = common::fixtures().join(GRAECHEN);
    let wanted: [Wanted; 5] = [
        (
            "deal-at-four-7-tapp-7",
            4,
            "Grächen at four (P \"Variations\": \"with 4 players the deal is 7 + Tapp + 7\"): 7 cards to each player, the Tapp of 6 in one packet, 7 more to each, so 14 cards each",
            |rec, _| packet_sizes(rec) == [7, 7, 7, 7, 0, 7, 7, 7, 7],
        ),
        (
            "deal-at-five-5-tapp-6",
            5,
            "Grächen at five, dealt 5 + Tapp + 6, one of the two orders the dealer may choose (P \"Variations\": \"5 + Tapp + 6 or 6 + Tapp + 5, at the dealer's discretion\")",
            |rec, _| packet_sizes(rec) == [5, 5, 5, 5, 5, 0, 6, 6, 6, 6, 6],
        ),
        (
            "deal-at-five-6-tapp-5",
            5,
            "Grächen at five, dealt 6 + Tapp + 5, the other order the dealer may choose (P \"Variations\")",
            |rec, _| packet_sizes(rec) == [6, 6, 6, 6, 6, 0, 5, 5, 5, 5, 5],
        ),
        (
            "stake-doubled-at-20",
            3,
            "Grächen: the losers took a trick but 20 card points or fewer, so the stake of 5 Rappen is doubled, 10 each (P \"Variations\": doubled \"only if the losers have 20 points or fewer\")",
            |_, v| losers(v).is_some_and(|(points, times)| points <= 20 && times == 2 && contract(v) == Some("tapp")),
        ),
        (
            "stake-single-over-20",
            3,
            "Grächen: the losers took from 21 to 30 card points, which Visp would double: the stake of 5 Rappen, single (P \"Variations\")",
            |_, v| losers(v).is_some_and(|(points, times)| (21..=30).contains(&points) && times == 1 && contract(v) == Some("tapp")),
        ),
    ];
    let games = found(rules, &root, SEED, &SimOptions::steered(), &wanted);
    if let Some((rec, origin)) = games.get("deal-at-five-5-tapp-6") {
        visp_packets(rules, &root, rec, origin);
    }
    discards(rules, &root, SEED + 10);
    no_misere(rules, &root, SEED + 20);
}

fn st_niklaus(rules: &Ruleset) {
    let root = common::fixtures().join(ST_NIKLAUS);
    let wanted: [Wanted; 2] = [
        (
            "stake-tapp-made",
            4,
            "St Niklaus: the Tappist wins, the losers over 31 card points: 5 Rappen from each opponent (P \"Variations\": \"the normal stake was 5 Rappen\")",
            |_, v| losers(v).is_some_and(|(_, times)| times == 1 && contract(v) == Some("tapp")) && value(v, "made") == Some(1),
        ),
        (
            "stake-doubled-at-31",
            3,
            "St Niklaus: the losers took 31 card points (single in Visp), so the stake is doubled, 10 Rappen each (P \"Variations\": doubled at \"31 points or fewer\")",
            |_, v| losers(v).is_some_and(|(points, times)| points == 31 && times == 2),
        ),
    ];
    found(rules, &root, SEED + 30, &SimOptions::steered(), &wanted);
    // Steered to the Misère, which nobody bids: everyone passes.
    let passes = SimOptions { contract: ContractChoice::Only("misere".into()), ..SimOptions::steered() };
    let misere: [Wanted; 2] = [
        (
            "misere-fewest-points-win",
            4,
            "St Niklaus: a Misère, in which the player who took the fewest card points wins 5 Rappen from each other player (P \"Variations\": \"least points\")",
            |_, v| contract(v) == Some("misere") && fewest(v) == 1,
        ),
        (
            "misere-tied-for-the-fewest",
            5,
            "St Niklaus: a Misère with two or more tied for the fewest card points: each of them wins 5 Rappen from each player not tied, and nothing from each other (P \"Variations\", read for a tie)",
            |_, v| contract(v) == Some("misere") && fewest(v) == 2,
        ),
    ];
    found(rules, &root, SEED + 40, &passes, &misere);
    discards(rules, &root, SEED + 50);
}

/// `card` and `other` exchanged everywhere in the deal (hands, Tapp, packets).
fn swap(deal: &mut Event, card: &str, other: &str) {
    let Event::Deal { hands, dog, packets, .. } = deal else { panic!("a deal") };
    let flip = |c: &mut Text| {
        if &**c == card {
            *c = other.into();
        } else if &**c == other {
            *c = card.into();
        }
    };
    hands.values_mut().flatten().for_each(flip);
    dog.iter_mut().for_each(flip);
    packets.iter_mut().flat_map(|p| p.cards.iter_mut()).for_each(flip);
}

/// A Tapp game at three with its deal arranged so that the Tappist holds `cards` (exchanged with cards
/// of his that are not 5-point cards), laying away `cards` and the first other cards of his hand that
/// make up the discard; the play after it each player's first legal card.
fn laid_away(rules: &Ruleset, seed: u64, cards: &[&str]) -> (GameRecord, String) {
    let tapp = SimOptions { contract: ContractChoice::Only("tapp".into()), ..SimOptions::steered() };
    let (n, mut rec) = common::find_game(rules, 3, &BTreeMap::new(), &tapp, (seed, 2_000), |rec, v| (contract(&v) == Some("tapp")).then_some(rec)).expect("a Tapp at three");
    let origin = format!("the deal of game {n} of seed {seed} of `troggu_fixtures`");
    let at = rec.events.iter().position(|e| matches!(e, Event::Discard { .. })).expect("a discard");
    let Event::Discard { player, cards: discarded } = rec.events[at].clone() else { unreachable!("a discard") };
    let Event::Deal { hands, .. } = &rec.events[0] else { panic!("a deal") };
    let mine: Vec<String> = hands[&*player].iter().map(|c| c.to_string()).collect();
    let mut spare = mine.iter().filter(|c| !FIVES.contains(&c.as_str()));
    for card in cards {
        if !mine.iter().any(|c| c == card) {
            let other = spare.next().expect("a card to exchange").clone();
            swap(&mut rec.events[0], card, &other);
        }
    }
    // His hand and the Tapp as now dealt: the discard, the wanted cards first.
    let Event::Deal { hands, dog, .. } = &rec.events[0] else { panic!("a deal") };
    let held: Vec<String> = hands[&*player].iter().chain(dog.iter()).map(|c| c.to_string()).collect();
    let mut discard: Vec<Text> = cards.iter().map(|c| Text::from(*c)).collect();
    discard.extend(held.iter().filter(|c| !FIVES.contains(&c.as_str())).take(discarded.len() - cards.len()).map(|c| Text::from(c.as_str())));
    rec.events.truncate(at);
    rec.events.push(Event::Discard { player, cards: discard });
    (rec, origin)
}

/// The game `rec` played out from its last event: each player's first legal card.
fn play_out(rules: &Ruleset, mut rec: GameRecord) -> GameRecord {
    loop {
        let v = replay(rules, &rec).expect("replayable");
        match v.status {
            Status::InProgress => {
                let next = v.next.expect("someone moves");
                rec.events.push(Event::Play { player: next.player.as_ref().into(), card: next.legal[0].as_str().into() });
            }
            Status::Valid => return rec,
            other => panic!("{other:?}: {}", v.to_text()),
        }
    }
}

/// The seven 5-point cards laid away together (lawful), and the four kings alone (not).
fn discards(rules: &Ruleset, root: &Path, seed: u64) {
    let (rec, origin) = laid_away(rules, seed, &FIVES);
    let mut rec = play_out(rules, rec);
    rec.description = Some(format!(
        "The Tappist, holding all seven 5-point cards (the four kings, the I, the XXI and the Bättler), lays them all away (P \"Variations\": \"discard all seven\"): {origin}, his hand arranged to hold them, then each player's first legal card"
    ));
    write_valid(&root.join("valid").join("seven-fives-laid-away.json"), &rec, rules);
    let (mut bad, origin) = laid_away(rules, seed, &KINGS);
    bad.description = Some(format!(
        "The Tappist lays away the four kings without the other three 5-point cards, as Visp allows: in Grächen and St Niklaus the four kings alone are \"not permitted\" (P \"Variations\"): {origin}, his hand arranged to hold them"
    ));
    let v = replay(rules, &bad).expect("replayable");
    let rule = v.violation.as_ref().map(|x| x.rule.to_string()).expect("the four kings refused");
    assert_eq!(rule, "discard.require.1", "{}", v.to_text());
    write(&root.join("invalid").join(format!("{rule}--the-four-kings-alone.json")), &bad);
    println!("{rule}: {}", v.to_text());
}

/// Grächen's game at five, dealt in Visp's packets (4 + 4 + 3, the Tapp after the first round).
fn visp_packets(rules: &Ruleset, root: &Path, rec: &GameRecord, origin: &str) {
    let mut bad = rec.clone();
    let Event::Deal { packets, .. } = &mut bad.events[0] else { panic!("a deal") };
    let tapp = packets.iter().find(|p| p.to.is_none()).cloned().expect("the Tapp");
    let players: Vec<Text> = packets.iter().filter_map(|p| p.to.clone()).take(5).collect();
    let mut cards: BTreeMap<Text, Vec<Text>> = BTreeMap::new();
    for p in packets.iter() {
        if let Some(to) = &p.to {
            cards.entry(to.clone()).or_default().extend(p.cards.iter().cloned());
        }
    }
    let mut dealt = vec![];
    for (round, size) in [4, 4, 3].into_iter().enumerate() {
        for who in &players {
            dealt.push(Packet { to: Some(who.clone()), cards: cards.get_mut(who).expect("a player").drain(..size).collect() });
        }
        if round == 0 {
            dealt.push(tapp.clone());
        }
    }
    *packets = dealt;
    bad.description = Some(format!(
        "The game of valid/deal-at-five-5-tapp-6.json ({origin}), dealt in Visp's packets, 4 + 4 + 3 (P \"Players and deal\"): in Grächen the dealer deals 5 + Tapp + 6 or 6 + Tapp + 5 (P \"Variations\")"
    ));
    let v = replay(rules, &bad).expect("replayable");
    let rule = v.violation.as_ref().map(|x| x.rule.to_string()).expect("Visp's packets refused");
    assert_eq!(rule, "deal.packets", "{}", v.to_text());
    write(&root.join("invalid").join(format!("{rule}--visp-packets-at-five.json")), &bad);
    println!("{rule}: {}", v.to_text());
}

/// A deal all pass, which Grächen annuls: the record going on with a Misère, led by the dealer, and
/// the same deal with a Misère bid, are not records of Grächen's game (it has no Misère to play or
/// bid), and cannot be read.
fn no_misere(rules: &Ruleset, root: &Path, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (n, passed) = (0..2_000u64)
        .find_map(|n| {
            let rec = random_game_with(rules, 4, &BTreeMap::new(), &SimOptions::default(), &mut rng).ok()?;
            (replay(rules, &rec).ok()?.status == Status::Annulled).then_some((n, rec))
        })
        .expect("a deal all pass");
    let origin = format!("game {n} of seed {seed} of `troggu_fixtures`, in which all pass");
    let Event::Deal { hands, .. } = &passed.events[0] else { panic!("a deal") };
    let mut played = passed.clone();
    played.events.push(Event::Play { player: passed.dealer.as_str().into(), card: hands[&*passed.dealer][0].clone() });
    played.description = Some(format!(
        "{origin}, going on with a Misère led by the dealer, as in Visp (troggu): Grächen has \"no Misere\", and the next dealer deals (P \"Variations\"), so nothing follows the passes"
    ));
    let mut bid = passed.clone();
    let at = bid.events.iter().position(|e| matches!(e, Event::Bid { .. })).expect("a bid");
    let Event::Bid { player, .. } = bid.events[at].clone() else { unreachable!("a bid") };
    bid.events[at] = Event::Bid { player, bid: "misere".into() };
    bid.description = Some(format!("{origin}, its first pass made a bid of a Misère: Grächen has none to bid or play (P \"Variations\")"));
    for (file, rec) in [("misere-after-all-pass", played), ("misere-bid", bid)] {
        let e = replay(rules, &rec).expect_err("not a record of Grächen's game");
        write(&root.join("malformed").join(format!("{file}.json")), &rec);
        println!("malformed/{file}.json: {e}");
    }
}
