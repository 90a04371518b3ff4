//! Writes the corner fixtures of `koenigrufen` (fixtures/koenigrufen/valid/): each contract made and
//! lost, the Besserrufer (made, lost, and with a bird from the talon announced besides), Trischaken (with a player who took no trick), the Sechserdreier lost (the game doubled), a
//! Valat, the Pagat announced, a Rufer whose called king lay in the talon, a Solorufer whose called king
//! lay in the talon (its half counted for him), the target of 35 and two
//! cards (107 thirds) against the Styrian 35 and one (option `target = 106`), and forehand's "Vorhand"
//! raised to a Dreier at his last word, and a Rufer and a Besserrufer given up (Schleifen). Every game
//! is a seeded simulated game found by search, so the fixtures are reproducible:
//!
//!     cargo run -p tarot-engine --example generators -- koenigrufen_fixtures
//!
//! The simulated fixtures of the ruleset (two valid games, one invalid game per rule the simulator can
//! break, malformed records) come from `make_fixtures only koenigrufen`.

use crate::common;

use common::write;

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::Outcome;
use tarot_engine::{random_game_with, ContractChoice, SimOptions};
use tarot_engine::{replay, Event, GameRecord, Registry, Status};

const ID: &str = "koenigrufen";

type Want = fn(&GameRecord, &Outcome) -> bool;

fn yes(o: &Outcome, name: &str) -> bool {
    o.value(name) == Some(serde_json::json!(true))
}

fn declared(rec: &GameRecord, name: &str) -> bool {
    rec.events.iter().any(|e| matches!(e, Event::Declare { declaration, .. } if declaration.as_str() == name))
}

fn attack_thirds(o: &Outcome) -> i64 {
    let taker = o.taker.as_deref();
    let mut sum = tarot_engine::Q::int(0);
    for p in &o.players {
        if Some(&*p.player) == taker || o.partner.as_deref() == Some(&*p.player) {
            sum = sum + p.card_points;
        }
    }
    let thirds = sum * tarot_engine::Q::int(3);
    if thirds.is_integer() {
        thirds.numer()
    } else {
        -1
    }
}

pub fn main() {
    let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
    let rules = registry.get(ID).expect("koenigrufen is built in");
    let root = common::fixtures().join(ID);
    let none = BTreeMap::new();
    let styrian = BTreeMap::from([("target".to_string(), serde_json::json!(106))]);
    let positive: Want = |_, o| yes(o, "made");
    let lost: Want = |_, o| !yes(o, "made") && !yes(o, "valat_on");
    let neg_made: Want = |_, o| yes(o, "neg_made");
    let neg_lost: Want = |_, o| !yes(o, "neg_made");
    let mut cases: Vec<(String, &str, &BTreeMap<String, serde_json::Value>, Want, String)> = vec![];
    for c in ["rufer", "solorufer", "farbendreier", "sechserdreier", "dreier", "farbensolo", "solodreier"] {
        cases.push((format!("{c}-made"), c, &none, positive, format!("A {c} made: the declarer's side with 107 thirds (35 and 2 cards) or more (HK 1.6)")));
        cases.push((format!("{c}-lost"), c, &none, lost, format!("A {c} lost{} (HK 7.2)", if c == "sechserdreier" { ", the game counted twice" } else { "" })));
    }
    for c in ["piccolo", "bettel", "piccolo-ouvert", "bettel-ouvert"] {
        cases.push((format!("{c}-made"), c, &none, neg_made, format!("A {c} made (HK 3.2)")));
        cases.push((format!("{c}-lost"), c, &none, neg_lost, format!("A {c} lost, play ending when it is decided (HK 6.8)")));
    }
    // The Besserrufer (HK 3.1, 5.3): a Rufer with a bird announced that the declarer was dealt.
    cases.push(("besserrufer-made".into(), "besserrufer", &none, positive, "A Besserrufer made, the declarer announcing a bird he was dealt (HK 3.1, 5.3)".into()));
    cases.push(("besserrufer-lost".into(), "besserrufer", &none, lost, "A Besserrufer lost, its bird announced all the same (HK 3.1, 5.3, 7.2)".into()));
    cases.push((
        "besserrufer-talon-bird".into(),
        "besserrufer",
        &none,
        |r, _| talon_bird(r).is_some_and(|(who, name)| declared_by(r, &who, name)),
        "A Besserrufer in which the declarer also announces a bird he took from the talon, besides the one he was dealt (HK 5.3)".into(),
    ));
    cases.push(("trischaken".into(), "trischaken", &none, |_, _| true, "Trischaken: forehand, the others having passed, chooses it; the most card points loses (HK 7.6)".into()));
    cases.push((
        "trischaken-jungfrau".into(),
        "trischaken",
        &none,
        |_, o| o.players.iter().any(|p| p.tricks == 0),
        "Trischaken with a player who took no trick, who takes the whole payment (HK 7.6)".into(),
    ));
    cases.push(("valat".into(), "dreier", &none, |_, o| yes(o, "slam_att"), "A Dreier in which the declarer takes every trick: the Valat, four times the game (HK 7.4)".into()));
    cases.push(("pagat-announced".into(), "dreier", &none, |r, _| declared(r, "pagat"), "A Dreier with the Pagat announced (HK 5.1-5.3)".into()));
    cases.push(("king-in-talon".into(), "rufer", &none, |_, o| o.partner.is_none(), "A Rufer whose called king lay in the talon: the declarer plays alone (HK 4.5)".into()));
    cases.push((
        "solorufer-king-in-talon".into(),
        "solorufer",
        &none,
        |r, o| yes(o, "made") && king_half(r).is_some_and(|h| attack_thirds(o) - h < 107),
        "A Solorufer whose called king lay in the talon: the declarer plays alone, and the talon's half with the king counts for him, the other for the opponents; he makes the game only with it (HK 1.8, 4.5 b)".into(),
    ));
    cases.push((
        "target-106-made".into(),
        "dreier",
        &styrian,
        |_, o| attack_thirds(o) == 106,
        "A Dreier with 35 and 1 card (106 thirds), made under the Styrian target (option target = 106); under the default of 107 it is lost".into(),
    ));
    // Schleifen (HK 4.5 a, 7.7 a): the called king seen in the talon, the declarer gives up.
    cases.push((
        "rufer-schleifen".into(),
        "rufer",
        &none,
        |r, _| declared(r, "schleifen"),
        "A Rufer given up (Schleifen): the called king seen in the talon, the declarer pays each of the other three the game, 1 (HK 4.5 a, 7.7 a)".into(),
    ));
    cases.push((
        "besserrufer-schleifen".into(),
        "besserrufer",
        &none,
        |r, _| declared(r, "schleifen_besserrufer"),
        "A Besserrufer given up (Schleifen): the called king seen in the talon, the declarer pays each of the other three the game and the bird he shows (HK 4.5 a, 7.7 a)".into(),
    ));
    let raised: Want = |r, _| bids(r) == ["rufer", "pass", "pass", "pass", "dreier"];
    cases.push((
        "raise-dreier".into(),
        "dreier",
        &none,
        raised,
        "Forehand says 'Vorhand' (a Rufer), the other three pass, and at his last word he names a Dreier, which he plays as declarer (HK 3.3)".into(),
    ));
    for (name, contract, options, want, what) in cases {
        // Forehand's raise is reached through his last word (`SimOptions::last_word`).
        let last_word = if name.starts_with("raise-") { 1.0 } else { 0.0 };
        // The Solorufer's called king in the talon is reached by calling a king that lies there.
        // So is a Rufer or Besserrufer given up (`SimOptions::end_deal`).
        let end_deal = if name.ends_with("-schleifen") { 1.0 } else { 0.0 };
        let call_dog = if name == "solorufer-king-in-talon" || end_deal > 0.0 { 1.0 } else { 0.0 };
        let sim = SimOptions { contract: ContractChoice::Only(contract.into()), last_word, call_dog, end_deal, ..SimOptions::steered() };
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let mut found = None;
        for seed in 0..20_000u64 {
            let Ok(rec) = random_game_with(rules, 4, options, &sim, &mut rng) else { continue };
            let v = replay(rules, &rec).expect("replayable");
            let Some(o) = v.outcome.as_ref().filter(|_| v.status == Status::Valid) else { continue };
            if o.contract.as_deref() == Some(contract) && want(&rec, o) {
                found = Some((seed, rec));
                break;
            }
        }
        let Some((seed, mut rec)) = found else {
            eprintln!("{name}: not found in 20000 games");
            continue;
        };
        rec.description = Some(format!("{what}: game {seed} of seed 42 of `koenigrufen_fixtures`"));
        write(&root.join("valid").join(format!("{name}.json")), &rec);
    }
    invalid(rules, &root);
}

const BIRDS: [(&str, &str); 4] = [("T1", "pagat"), ("T2", "uhu"), ("T3", "kakadu"), ("T4", "quapil")];

/// A bird the declarer took from the talon and was not dealt: (the declarer, the bird's declaration).
fn talon_bird(rec: &GameRecord) -> Option<(String, &'static str)> {
    let Some(Event::Deal { hands, .. }) = rec.events.first() else { return None };
    rec.events.iter().find_map(|e| match e {
        Event::Take { player, cards } => {
            BIRDS.iter().find(|(c, _)| cards.iter().any(|x| x.as_str() == *c) && !hands[player].iter().any(|x| x.as_str() == *c)).map(|(_, name)| (player.to_string(), *name))
        }
        _ => None,
    })
}

/// The talon's half (its first or last three cards as dealt) that holds the called card: its worth in
/// thirds (each card its value less two thirds, HK 1.5), where it lies there.
fn king_half(rec: &GameRecord) -> Option<i64> {
    let Some(Event::Deal { dog, .. }) = rec.events.first() else { return None };
    let called = rec.events.iter().find_map(|e| if let Event::Call { card, .. } = e { Some(card.to_string()) } else { None })?;
    let half = dog.chunks(3).find(|h| h.iter().any(|c| c.as_str() == called))?;
    let value = |c: &str| match c {
        "EX" | "T22" | "T21" | "T1" => 5,
        _ if c.starts_with('K') => 5,
        _ if c.starts_with('Q') => 4,
        _ if c.starts_with('C') => 3,
        _ if c.starts_with('J') => 2,
        _ => 1,
    };
    Some(half.iter().map(|c| 3 * value(c.as_str()) - 2).sum())
}

fn declared_by(rec: &GameRecord, who: &str, name: &str) -> bool {
    rec.events.iter().any(|e| matches!(e, Event::Declare { player, declaration, .. } if player.as_str() == who && declaration.as_str() == name))
}

/// The bids of a record, in order.
fn bids(rec: &GameRecord) -> Vec<&str> {
    rec.events.iter().filter_map(|e| if let Event::Bid { bid, .. } = e { Some(bid.as_str()) } else { None }).collect()
}

fn card_is_tarock(c: &str) -> bool {
    c == "EX" || c.starts_with('T')
}

/// Rules the simulator does not break, each broken by one edit of a valid game found above: the
/// Besserrufer's bird not announced, or only one from the talon, and the Besserrufer bid by a player
/// dealt no bird; forehand passing at his first word, a queen called, a tarock led in a colour game by a player who holds a
/// suit card, a tarock laid away while a suit card could go, forehand raising his "Vorhand" to the
/// Sechserdreier, another player than forehand naming a contract at forehand's last word, and the
/// Solorufer's declarer taking the talon's half with his called king.
fn invalid(rules: &tarot_engine::ir::Ruleset, root: &Path) {
    let read = |name: &str| -> GameRecord {
        let text = std::fs::read_to_string(root.join("valid").join(format!("{name}.json"))).expect("written above");
        serde_json::from_str(&text).expect("a record")
    };
    let mut cases: Vec<(&str, GameRecord, &str)> = vec![];

    // The last word, forehand's Dreier: the Sechserdreier named instead, and a Dreier named by the
    // player after forehand.
    let last = |rec: &GameRecord| rec.events.iter().rposition(|e| matches!(e, Event::Bid { .. })).expect("a bid");
    let mut rec = read("raise-dreier");
    let at = last(&rec);
    if let Event::Bid { bid, .. } = &mut rec.events[at] {
        *bid = "sechserdreier".into();
    }
    rec.events.truncate(at + 1);
    cases.push((
        "bidding.raise.rufer--sechserdreier",
        rec,
        "at his last word after the other three passed his 'Vorhand', forehand names the Sechserdreier, which is said only as his first word (HK 3.3)",
    ));
    let mut rec = read("raise-dreier");
    let at = last(&rec);
    let second = match &rec.events[at - 3] {
        Event::Bid { player, .. } => player.clone(),
        _ => unreachable!("the bids are together"),
    };
    if let Event::Bid { player, .. } = &mut rec.events[at] {
        *player = second;
    }
    rec.events.truncate(at + 1);
    cases.push((
        "bidding.raise.rufer--not-forehand",
        rec,
        "the other three having passed forehand's 'Vorhand', the player after him names a Dreier: the last word is forehand's alone (HK 3.3)",
    ));

    let mut rec = read("rufer-made");
    let first = rec.events.iter().position(|e| matches!(e, Event::Bid { .. })).expect("a bid");
    if let Event::Bid { bid, .. } = &mut rec.events[first] {
        *bid = "pass".into();
    }
    cases.push(("bidding.must-bid.rufer", rec, "forehand passes at his first word, where he must open with 'Vorhand' (a Rufer) or a contract (HK 3.3)"));

    let mut rec = read("rufer-made");
    for e in rec.events.iter_mut() {
        if let Event::Call { card, .. } = e {
            *card = if card.as_str() == "QS" { "QH".into() } else { "QS".into() };
        }
    }
    cases.push(("call.levels", rec, "the declarer calls a queen: only a king may be called (HK 4.1)"));

    let mut rec = read("farbendreier-made");
    let plays: Vec<usize> = rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { .. })).map(|(i, _)| i).collect();
    'leads: for (n, &i) in plays.iter().enumerate().step_by(4) {
        let Event::Play { player, card } = rec.events[i].clone() else { unreachable!() };
        if card_is_tarock(&card) {
            continue;
        }
        for &j in &plays[n + 1..] {
            if let Event::Play { player: q, card: later } = rec.events[j].clone() {
                if q == player && card_is_tarock(&later) {
                    rec.events[i] = Event::Play { player: player.clone(), card: later.clone() };
                    rec.events[j] = Event::Play { player: q, card };
                    break 'leads;
                }
            }
        }
    }
    cases.push(("play.must.lead.suit-cards-first-in-a-colour-game", rec, "in a Farbendreier a player leads a tarock while he holds a suit card (HK 6.3)"));

    let mut rec = read("dreier-made");
    let (mut taker_cards, mut who) = (vec![], None);
    for e in &rec.events {
        if let Event::Take { player, cards } = e {
            who = Some(player.clone());
            taker_cards.extend(cards.iter().map(|c| c.to_string()));
        }
    }
    let who = who.expect("a take");
    if let Some(Event::Deal { hands, .. }) = rec.events.first() {
        taker_cards.extend(hands[&who].iter().map(|c| c.to_string()));
    }
    let discard = rec.events.iter().position(|e| matches!(e, Event::Discard { .. })).expect("a discard");
    if let Event::Discard { cards, .. } = &mut rec.events[discard] {
        let laid: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
        let tarock = taker_cards.iter().find(|c| card_is_tarock(c) && !["T1", "T21", "EX", "T22"].contains(&c.as_str()) && !laid.contains(c)).expect("a tarock to lay away");
        let slot = laid.iter().position(|c| !card_is_tarock(c)).expect("a suit card laid away");
        cards[slot] = tarock.as_str().into();
    }
    cases.push(("discard.require.1", rec, "the Dreier's declarer lays a tarock away while he keeps a suit card that could go (HK 4.6)"));

    // The Besserrufer's bird: not announced, and (where the declarer took one from the talon) only
    // the bird from the talon announced. And the contract bid by a player who was dealt no bird.
    let is_bird = |name: &str| BIRDS.iter().any(|(_, b)| *b == name);
    let mut rec = read("besserrufer-made");
    rec.events.retain(|e| !matches!(e, Event::Declare { declaration, .. } if is_bird(declaration)));
    cases.push(("bidding.contract.besserrufer.require.1", rec, "the Besserrufer's declarer announces no bird, and the first card is played (HK 5.3, OÖ23 'Ansagen 4')"));
    let mut rec = read("besserrufer-talon-bird");
    let (who, name) = talon_bird(&rec).expect("a bird from the talon");
    rec.events.retain(|e| !matches!(e, Event::Declare { player, declaration, .. } if is_bird(declaration) && (player.as_str() != who || declaration.as_str() != name)));
    cases.push((
        "bidding.contract.besserrufer.require.1--talon-bird",
        rec,
        "the Besserrufer's declarer announces only the bird he took from the talon, not one he was dealt: a wrong announcer (HK 5.3, OÖ23 'Ansagen 5')",
    ));
    let mut by = None;
    for name in ["rufer-made", "dreier-made", "solorufer-made", "farbendreier-made"] {
        let rec = read(name);
        let Some(Event::Deal { hands, .. }) = rec.events.first() else { continue };
        let no_bird = |p: &str| !hands[p].iter().any(|c| BIRDS.iter().any(|(b, _)| c.as_str() == *b));
        if let Some(at) = rec.events.iter().position(|e| matches!(e, Event::Bid { player, bid } if bid.as_str() != "pass" && no_bird(player))) {
            by = Some((rec, at));
            break;
        }
    }
    let (mut rec, at) = by.expect("a bid by a player dealt no bird");
    if let Event::Bid { bid, .. } = &mut rec.events[at] {
        *bid = "besserrufer".into();
    }
    rec.events.truncate(at + 1);
    cases.push(("bidding.contract.besserrufer.by--no-bird", rec, "a player dealt no bird bids the Besserrufer (HK 3.5, 3.7)"));

    // The Solorufer's talon is not taken, even where its half with the called king counts for him.
    let mut rec = read("solorufer-king-in-talon");
    let call = rec.events.iter().position(|e| matches!(e, Event::Call { .. })).expect("a call");
    let (Some(Event::Deal { dog, .. }), Event::Call { player, card }) = (rec.events.first().cloned(), rec.events[call].clone()) else { unreachable!("a deal and a call") };
    let half: Vec<_> = dog.chunks(3).find(|h| h.contains(&card)).expect("the king in the talon").to_vec();
    rec.events.insert(call + 1, Event::Take { player, cards: half });
    rec.events.truncate(call + 2);
    cases.push((
        "talon--solorufer-take",
        rec,
        "the Solorufer's declarer takes the talon's half with the king he called: the talon is not taken in a Solorufer, the half counts for him only at the end (HK 4.2, 4.5 b)",
    ));

    // Schleifen (HK 4.5 a): given up with the called king not in the talon, after taking a half, with
    // no bird shown in a Besserrufer, and followed by a move.
    let schleifen = read("rufer-schleifen");
    let at = schleifen.events.iter().position(|e| matches!(e, Event::Declare { .. })).expect("the Schleifen");
    let mut rec = read("rufer-made");
    let take = rec.events.iter().position(|e| matches!(e, Event::Take { .. })).expect("a take");
    let Event::Take { player, .. } = rec.events[take].clone() else { unreachable!() };
    rec.events.insert(take, Event::Declare { player, declaration: "schleifen".into(), cards: vec![] });
    rec.events.truncate(take + 1);
    cases.push(("declaration.schleifen.allowed--king-not-in-talon", rec, "the Rufer's declarer gives up, but the king he called is not in the talon (HK 4.5 a)"));
    let Some(Event::Deal { dog, .. }) = schleifen.events.first().cloned() else { unreachable!("a deal") };
    let Event::Declare { player, .. } = schleifen.events[at].clone() else { unreachable!() };
    let mut rec = schleifen.clone();
    rec.events.insert(at, Event::Take { player, cards: dog[..3].to_vec() });
    cases.push(("declaration.schleifen--after-take", rec, "the Rufer's declarer gives up after taking a half of the talon: he may give up only before (HK 4.5 a)"));
    let mut rec = read("besserrufer-schleifen");
    for e in rec.events.iter_mut() {
        if let Event::Declare { cards, .. } = e {
            cards.clear();
        }
    }
    cases.push((
        "declaration.schleifen_besserrufer.require.1",
        rec,
        "the Besserrufer's declarer gives up without naming the bird he planned, which he pays with the game (HK 7.7 a)",
    ));
    let mut rec = schleifen.clone();
    let Event::Declare { player, .. } = schleifen.events[at].clone() else { unreachable!() };
    rec.events.push(Event::Take { player, cards: dog[..3].to_vec() });
    cases.push(("declaration.schleifen.ends-deal", rec, "the Rufer given up, the declarer takes a half of the talon all the same: the deal ended there (HK 4.5 a)"));

    for (name, mut rec, what) in cases {
        let rule = name.split("--").next().expect("a rule");
        let v = replay(rules, &rec).expect("replayable");
        let broken = v.violation.as_ref().map(|x| x.rule.to_string());
        if broken.as_deref() != Some(rule) {
            eprintln!("{rule}: the edit breaks {broken:?} instead");
            continue;
        }
        rec.description = Some(format!("Breaks {rule}: {what}"));
        write(&root.join("invalid").join(format!("{name}.json")), &rec);
    }
}
