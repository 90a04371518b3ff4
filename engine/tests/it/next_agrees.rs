//! `next` against replay, move by move: at each event of a simulated game, in every ruleset and at
//! every table (with each option's choices), each move of the phase is put in place of the rest of
//! the record, and a move is in `next` exactly when replay accepts it there. What `next` offers,
//! replay accepts (a client building its move list from `next` never offers a move that is then
//! refused); what `next` leaves out, replay refuses for a rule (a violation at that event: not
//! accepted, not an engine error), so that `next` is never narrower than the rules.
//!
//! The moves tried at each event, for the player `next` names:
//! - `play`: every card of his hand, and one card of the pack he does not hold (refused);
//! - `bid`: every contract of the ruleset, `pass`, and the reserving bid where there is one;
//! - `call`: every card of the pack;
//! - `buy`: every card of the pack bought for a card of his hand, and `pass` (buying nothing);
//! - `take`: each packet `next` lists (accepted); others are not enumerated;
//! - `discard`: not enumerated (every choice of `count` cards is too many), but its list is checked
//!   to be cards of the discarder's hand;
//! - every declaration of the ruleset, for every player, made with the show the simulator would make
//!   (where it shows cards and his hand has one): accepted exactly when `next.declarations` lists it
//!   for him;
//! - sitting out (`sit-out`), for every player: accepted exactly for those `next.sit_out` names.
//!
//! A card whose play the rules make a paid fault (`play { fault ... }`, Minucci's revoke) is accepted
//! by replay, which records the fault, but is not in `next.legal`: `next` lists the lawful cards, the
//! ones a player may play without paying for it. So a card out of `next.legal` is refused *or* a paid
//! fault (a ledger line `play.fault.*` at that event), and a card in it is accepted with no fault.
//!
//! `NEXT_AGREES_COUNTS=1` prints what was checked (tables, games, moves, disagreements);
//! `NEXT_AGREES_GAMES=N` plays N games of each table and simulator in the sweep.

use std::collections::BTreeMap;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::testing::{Game, Seating};
use tarot_engine::{ir::Ruleset, Setup};
use tarot_engine::{random_game_with, replay, Card, Event, GameRecord, Next, Phase, SimOptions, Status, Text};
use tarot_testkit::registry;

use crate::common;
use crate::properties::{config, option_tables};

/// What replay made of one move put at event `k`.
#[derive(Debug, PartialEq)]
enum Judged {
    Accepted,
    /// Accepted, a fault paid for it (`play { fault ... }`).
    Fault,
    /// Refused at event `k` for a rule: the violation's rule.
    Refused(String),
    /// Anything else: an error of the input or of the ruleset, or a refusal elsewhere.
    Error(String),
}

/// What one sweep checked, and every disagreement found.
#[derive(Default)]
struct Tally {
    games: usize,
    moves: usize,
    by_phase: BTreeMap<&'static str, usize>,
    disagreements: Vec<String>,
}

fn judge(rules: &Ruleset, rec: &GameRecord, k: usize, e: Event) -> Judged {
    let mut r = rec.clone();
    r.events.truncate(k);
    r.events.push(e);
    match replay(rules, &r) {
        Ok(v) if v.status == Status::Invalid => {
            let violation = v.violation.unwrap();
            match violation.event == k {
                true => Judged::Refused(violation.rule.to_string()),
                false => Judged::Error(format!("refused at event {}, not {k}: {}", violation.event, violation.message)),
            }
        }
        Ok(v) if v.ledger.iter().any(|l| l.rule.starts_with("play.fault.") && l.event == Some(k)) => Judged::Fault,
        Ok(_) => Judged::Accepted,
        Err(e) => Judged::Error(format!("{e:?}")),
    }
}

/// Checks every move at every event of `rec` (simulated for `rules`); adds to `tally`.
fn check_game(rules: &Ruleset, rec: &GameRecord, tally: &mut Tally) {
    let setup = Setup::new(rules, rec.players.len(), &rec.options).unwrap();
    let dealer = rec.players.iter().position(|p| *p == rec.dealer).unwrap();
    let seats = Seating::of(&setup, &rec.players, dealer);
    let names = seats.playing.clone();
    let mut game = Game::new(&setup, &names, seats.dealer);
    tally.games += 1;
    let label = |k: usize| format!("{} at {} {:?}, event {k}", rules.id, rec.players.len(), rec.options);
    for k in 1..=rec.events.len() {
        // The game walked to event k, for the hands.
        if game.apply(k - 1, &rec.events[k - 1]).is_err() {
            break;
        }
        let mut prefix = rec.clone();
        prefix.events.truncate(k);
        let v = replay(rules, &prefix).unwrap();
        if v.status != Status::InProgress {
            break;
        }
        let Some(next) = v.next.as_ref() else { continue };
        // Each move tried: what it is in words, the event, and whether `next` offers it.
        let mut moves: Vec<(String, Event, bool)> = vec![];
        let p = names.iter().position(|n| **n == *next.player);
        let player: Text = next.player.as_ref().into();
        let hand = p.map(|p| game.hands[p]).unwrap_or_default();
        let pack = rules.pack.cards;
        let code = |l: &str| rules.pack.parse_card(l);
        let in_legal = |c: Card| next.legal.iter().any(|l| code(l) == Some(c));
        let who = &next.player;
        match next.phase {
            Phase::Play => {
                for c in hand.iter() {
                    moves.push((format!("{who} playing {}", c.code()), Event::Play { player: player.clone(), card: c.code() }, in_legal(c)));
                }
                if let Some(c) = pack.minus(hand).iter().next() {
                    moves.push((format!("{who} playing {}, not his", c.code()), Event::Play { player: player.clone(), card: c.code() }, false));
                }
            }
            Phase::Bid => {
                let b = rules.bidding.as_ref().unwrap();
                let words = ["pass"].into_iter().chain(b.contracts.iter().map(|c| c.name.as_str())).chain(b.reserve.as_ref().map(|r| r.name.as_str()));
                for w in words {
                    moves.push((format!("{who} bidding {w}"), Event::Bid { player: player.clone(), bid: w.into() }, next.legal.iter().any(|l| l == w)));
                }
            }
            Phase::Call => {
                for c in pack.iter() {
                    moves.push((format!("{who} calling {}", c.code()), Event::Call { player: player.clone(), card: c.code() }, in_legal(c)));
                }
            }
            Phase::Buy => {
                if let Some(g) = hand.iter().next() {
                    for c in pack.iter() {
                        let e = Event::Buy { player: player.clone(), card: Some(c.code()), gives: Some(g.code()) };
                        moves.push((format!("{who} buying {} for {}", c.code(), g.code()), e, in_legal(c)));
                    }
                }
                moves.push((format!("{who} buying nothing"), Event::Buy { player: player.clone(), card: None, gives: None }, next.legal.iter().any(|l| l == "pass")));
            }
            Phase::Take => {
                for packet in &next.packets {
                    let e = Event::Take { player: player.clone(), cards: packet.iter().map(|c| c.as_str().into()).collect() };
                    moves.push((format!("{who} taking {}", packet.join(" ")), e, true));
                }
            }
            Phase::Discard => {
                let outside: Vec<&String> = next.legal.iter().filter(|l| !code(l).is_some_and(|c| hand.contains(c))).collect();
                if !outside.is_empty() || next.count.is_none() {
                    tally.disagreements.push(format!("{}: the discard lists {outside:?}, not in {who}'s hand, count {:?}", label(k), next.count));
                }
            }
            other => tally.disagreements.push(format!("{}: a phase the test does not know: {other}", label(k))),
        }
        declarations(rules, &game, &names, next, &mut moves);
        if rules.sit_out_choice.is_some() {
            for name in &names {
                let listed = next.sit_out.iter().any(|s| **s == **name);
                moves.push((format!("{name} sitting out"), Event::SitOut { player: name.as_str().into() }, listed));
            }
        }
        for (what, e, offered) in moves {
            tally.moves += 1;
            *tally.by_phase.entry(next.phase.word()).or_default() += 1;
            let j = judge(rules, rec, k, e);
            let agrees = matches!((&j, offered), (Judged::Accepted, true) | (Judged::Refused(_) | Judged::Fault, false));
            if !agrees {
                tally.disagreements.push(format!("{}: {what} {} by next, replay: {j:?}", label(k), if offered { "offered" } else { "left out" }));
            }
        }
    }
}

/// The declarations at this moment, for every player: each made with the show the simulator would
/// make (where it shows cards and one is found in his hand), open or not.
fn declarations(rules: &Ruleset, game: &Game, names: &[String], next: &Next, moves: &mut Vec<(String, Event, bool)>) {
    for (q, name) in names.iter().enumerate() {
        for d in &rules.declarations {
            let open = next.declarations.iter().find(|o| *o.player == **name && o.declaration == d.name);
            let cards: Option<Vec<Text>> = match d.shows.is_empty() {
                true => Some(vec![]),
                false => game.best_show(q as u8, game.hands[q], d).map(|s| s.iter().map(Card::code).collect()),
            };
            let Some(cards) = cards else { continue };
            let e = Event::Declare { player: name.as_str().into(), declaration: d.name.as_str().into(), cards: cards.clone() };
            moves.push((format!("{name} declaring {} {cards:?}", d.name), e, open.is_some()));
        }
    }
}

/// One simulated game of option table `i`, checked.
fn one_game(i: usize, seed: u64, steered: bool, tally: &mut Tally) {
    let all = option_tables();
    let (id, n, options) = all[i % all.len()].clone();
    let rules = registry().get(&id).unwrap();
    let sim = if steered { SimOptions::steered() } else { SimOptions::default() };
    let rec = random_game_with(rules, n, &options, &sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap_or_else(|e| panic!("{id} {options:?} seed {seed}: {e}"));
    check_game(rules, &rec, tally);
}

fn assert_agree(tally: &Tally, what: &str) {
    if std::env::var("NEXT_AGREES_COUNTS").is_ok() {
        eprintln!("next_agrees {what}: {} games, {} moves checked {:?}, {} disagreements", tally.games, tally.moves, tally.by_phase, tally.disagreements.len());
        for d in &tally.disagreements {
            eprintln!("  {d}");
        }
    }
    assert!(
        tally.disagreements.is_empty(),
        "{} disagreements between next and replay, the first:\n{}",
        tally.disagreements.len(),
        tally.disagreements[..tally.disagreements.len().min(20)].join("\n")
    );
}

proptest! {
    #![proptest_config(config(common::count("NEXT_AGREES_CASES", 200) as u32))]

    #[test]
    fn next_offers_exactly_what_replay_accepts(i in 0..416usize, seed in any::<u64>(), steered in any::<bool>()) {
        let mut tally = Tally::default();
        one_game(i, seed, steered, &mut tally);
        assert_agree(&tally, "case");
    }
}

/// Every table of every ruleset, with each option's choices: at full strength a game of each simulated
/// uniform and one steered (`NEXT_AGREES_GAMES` of each), every move checked; in a plain run one game
/// of each table, uniform and steered in turn.
#[test]
fn next_agrees_with_replay_at_every_table() {
    let full = std::env::var("TAROT_TESTS").is_ok_and(|v| v == "full");
    let games = common::count_or("NEXT_AGREES_GAMES", 1, 1);
    let all = option_tables();
    let mut tally = Tally::default();
    for i in 0..all.len() {
        for steered in [false, true].into_iter().filter(|s| full || *s == (i % 2 == 1)) {
            for g in 0..games {
                one_game(i, 1000 * g + i as u64, steered, &mut tally);
            }
        }
    }
    if std::env::var("NEXT_AGREES_COUNTS").is_ok() {
        eprintln!("next_agrees sweep: {} tables", all.len());
    }
    assert_agree(&tally, "sweep");
}

/// A game of `rules` simulated from `seed`, and its prefix of `k` events.
fn game_of(rules: &Ruleset, n: usize, options: &BTreeMap<String, serde_json::Value>, sim: &SimOptions, seed: u64) -> GameRecord {
    random_game_with(rules, n, options, sim, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap()
}

fn prefix(rec: &GameRecord, k: usize) -> GameRecord {
    GameRecord { events: rec.events[..k].to_vec(), ..rec.clone() }
}

/// Before the first card, while a declaration is owed (Grosstarock's compulsory declarations,
/// Königrufen's Besserrufer's bird, which its contract requires), `play` refuses every card: `next`
/// offers none, and lists the declaration open.
#[test]
fn no_card_is_offered_while_a_declaration_is_owed() {
    let cases =
        [("grosstarock", SimOptions::default()), ("koenigrufen", SimOptions { contract: tarot_engine::ContractChoice::Only("besserrufer".into()), ..SimOptions::steered() })];
    for (id, sim) in cases {
        let rules = registry().get(id).unwrap();
        let mut owed = 0;
        let mut tally = Tally::default();
        for seed in 0..12 {
            let rec = game_of(rules, 4, &BTreeMap::new(), &sim, seed);
            let Some(first) = rec.events.iter().position(|e| matches!(e, Event::Play { .. })) else { continue };
            for k in 1..first {
                let Event::Declare { player, declaration, .. } = &rec.events[k] else { continue };
                let before = replay(rules, &prefix(&rec, k)).unwrap();
                let next = before.next.unwrap();
                let mut with_card = prefix(&rec, k);
                with_card.events.push(rec.events[first].clone());
                let refused = replay(rules, &with_card).unwrap().violation.filter(|v| v.event == k);
                if next.phase == Phase::Play && refused.is_some() {
                    owed += 1;
                    assert!(next.legal.is_empty(), "{id} seed {seed}, event {k}: {next:?}");
                    assert!(next.declarations.iter().any(|o| *o.player == **player && o.declaration == declaration.as_str()), "{id} seed {seed}: {next:?}");
                }
            }
            check_game(rules, &rec, &mut tally);
        }
        assert!(owed > 0, "{id}: no declaration owed before the first card");
        assert_agree(&tally, id);
    }
}

/// Nothing is offered to declare while a steal is owed (the dealer's steal of the run of top trumps
/// at the bottom of the stock, or the discard after a steal): replay refuses any other move first.
/// Minchiate at two: every declaration `next` lists while the stock is being stolen from is one
/// replay accepts (a steal that may be made is given up by it).
#[test]
fn nothing_is_declared_open_while_a_steal_is_owed() {
    let rules = registry().get("minchiate").unwrap();
    let mut owed = 0;
    for seed in 0..300 {
        let rec = game_of(rules, 2, &BTreeMap::new(), &SimOptions::default(), seed);
        for k in 1..rec.events.len() {
            if !matches!(rec.events[k], Event::Take { .. } | Event::Discard { .. }) {
                continue;
            }
            let Some(next) = replay(rules, &prefix(&rec, k)).unwrap().next else { continue };
            owed += usize::from(next.declarations.is_empty());
            for o in &next.declarations {
                let e = Event::Declare { player: o.player.as_ref().into(), declaration: o.declaration.as_str().into(), cards: o.cards.iter().map(|c| c.as_str().into()).collect() };
                let j = judge(rules, &rec, k, e);
                assert!(matches!(j, Judged::Accepted), "seed {seed}, event {k}: {} declaring {} offered, replay: {j:?}", o.player, o.declaration);
            }
        }
    }
    assert!(owed > 0, "no steal reached");
}

/// While the taker may still buy a card (Droggn's Simple), nothing may be declared: `declare` asks
/// for the buy first, so `next` lists no declaration open, the Pagat's Ultimo included.
#[test]
fn nothing_is_declared_open_before_the_buy() {
    let rules = registry().get("droggn").unwrap();
    let sim = SimOptions { contract: tarot_engine::ContractChoice::Only("simple".into()), ..SimOptions::steered() };
    let (mut buys, mut tally) = (0, Tally::default());
    for seed in 0..10 {
        let rec = game_of(rules, 4, &BTreeMap::new(), &sim, seed);
        for k in 1..rec.events.len() {
            let v = replay(rules, &prefix(&rec, k)).unwrap();
            if let Some(next) = v.next.filter(|n| n.phase == Phase::Buy) {
                buys += 1;
                assert!(next.declarations.is_empty(), "seed {seed}, event {k}: {next:?}");
            }
        }
        check_game(rules, &rec, &mut tally);
    }
    assert!(buys > 0, "no buy");
    assert_agree(&tally, "droggn");
}
