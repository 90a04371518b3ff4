//! `next` against replay, move by move: at each event of a simulated game, in every ruleset and at
//! every table (with each option's choices), each move tried is put in place of the rest of the
//! record, and a move is in `next` exactly when replay accepts it there. What `next` offers, replay
//! accepts (a client building its move list from `next` never offers a move that is then refused);
//! what `next` leaves out, replay refuses for a rule (a violation at that event: not accepted, not an
//! engine error), so that `next` is never narrower than the rules.
//!
//! The moves tried at each event (one file of this folder for each kind that needs more than a line):
//! - `play`: every card of the hand of the player `next` names, and one card of the pack he does not
//!   hold (refused);
//! - `bid` (`bid.rs`): every contract of the ruleset, `pass`, and the reserving bid where there is
//!   one, by the player `next` names; and the same words said out of turn by every other player. Out
//!   of turn, a word breaks `bidding.turns`, but for the contracts of `out-of-turn`: said by one who
//!   has spoken in the round in progress, they break `bidding.out-of-turn`; by one who has not, all
//!   else binds as at his turn, and `next` offers them at the bidder's own turn only (REFERENCE,
//!   `out-of-turn`), so such a bid is accepted exactly when `next` offers it to him once the players
//!   named before him have passed, and the verdict notes it said out of turn. Where those passes
//!   would end the round or one is refused (a `must-bid`), `next` says nothing of it: it is accepted
//!   or refused for a rule;
//! - `call`: every card of the pack;
//! - `buy` (`buy.rs`): every card of the pack bought for the first card of the hand, a card of
//!   `legal` bought for each other card of the hand, one bought for a card he does not hold
//!   (refused), and `pass` (buying nothing);
//! - `take` (`take.rs`): each packet `next` lists (accepted), and sets it does not list (refused): the
//!   first packet less its last card, with a card of the talon more, with another card of the talon or
//!   a card of the hand in place of its last, and each packet of the talon as cut (a packet given is
//!   the only one listed); a steal from the stock the same way;
//! - `discard` (`discard.rs`): the record's own discard (of `count` cards of `legal`), eight sets of
//!   `count` cards drawn from `legal` at random, and one holding each card of `legal` (accepted:
//!   where the discard has a `require`, the lawful discard `Game::discard_cards` found holding it); a
//!   set with each card of the hand outside `legal` (refused by `forbid`, `unless-unavoidable` or a
//!   `require`; with a `require`, every set of it and `count - 1` cards of `legal`, or 300 drawn, is
//!   refused by `Game::discard_allowed` too), sets of one card fewer and one more (refused, or a
//!   paid fault where the rules make a wrong size one), and a card listed twice (no record). `legal`
//!   lists the cards that some lawful discard holds; a rule on the set as a whole may refuse a set of
//!   them: `unless-unavoidable` one with more of its cards than must go (checked to the number where
//!   there is no `require`), and a `require` (REFERENCE, `require` in the discard);
//! - every declaration of the ruleset, for every player, made with the show the simulator would make
//!   (where it shows cards and his hand has one): accepted exactly when `next.declarations` lists it
//!   for him;
//! - sitting out (`sit-out`), for every player: accepted exactly for those `next.sit_out` names.
//!
//! Not tried: a card played, a call, a take or a buy by another player than the one `next` names; a
//! discard by another player who owes one (where several do, replay takes them in any order, and
//! `next` names the first); a declaration's other shows; every choice of a discard, every grouping of
//! a talon, every pair of cards bought and given (too many).
//!
//! A card whose play the rules make a paid fault (`play { fault ... }`, Minucci's revoke) is accepted
//! by replay, which records the fault, but is not in `next.legal`: `next` lists the lawful cards, the
//! ones a player may play without paying for it. So a card out of `next.legal` is refused *or* a paid
//! fault (a ledger line `play.fault.*` at that event), and a card in it is accepted with no fault; a
//! discard of the wrong size likewise (`discard.fault.size`).
//!
//! `NEXT_AGREES_COUNTS=1` prints what was checked (tables, games, moves by phase, disagreements, the
//! most sets one discard's search judged);
//! `NEXT_AGREES_GAMES=N` plays N games of each table and simulator in the sweep.

mod bid;
mod buy;
mod discard;
mod owed;
mod requires;
mod take;

use std::collections::BTreeMap;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tarot_engine::testing::{Game, Seating};
use tarot_engine::{ir::Ruleset, CardSet, Setup};
use tarot_engine::{random_game_with, replay, Card, Event, GameRecord, Next, Phase, SimOptions, Status, Text};
use tarot_testkit::registry;

use crate::common;
use crate::properties::{config, option_tables};

/// What replay made of one move put at event `k`.
#[derive(Debug, PartialEq)]
enum Judged {
    Accepted,
    /// Accepted, a fault paid for it (`play { fault ... }`, `discard { fault size ... }`).
    Fault,
    /// Refused at event `k` for a rule: the violation's rule.
    Refused(String),
    /// Anything else: an error of the input or of the ruleset, or a refusal elsewhere.
    Error(String),
}

/// What `next` says of a move tried, and so what replay must make of it.
#[derive(Debug, PartialEq)]
enum Said {
    /// Offered: accepted.
    Offered,
    /// Left out: refused, or a paid fault.
    LeftOut,
    /// Left out, and refused for one of these rules.
    Breaks(Vec<String>),
    /// Cards of `legal` taken together, where rules on the discard as a whole judge them (a
    /// `require`, and `unless-unavoidable` beside one): accepted, or refused by such a rule.
    Drawn,
    /// Not a record (a card listed twice): an error of the input.
    Malformed,
    /// A bid out of turn that `next` would offer at the bidder's own turn: accepted, and noted.
    OutOfTurn,
    /// A bid out of turn where the walk to the bidder's turn does not come to him in the same round:
    /// `next` says nothing of it; accepted or refused for a rule.
    Silent,
}

/// One move tried: what it is in words, the event, and what `next` says of it.
struct Tried {
    what: String,
    event: Event,
    said: Said,
}

/// One event of a game, where the moves are tried: `next` there, and the game walked to it.
struct At<'a, 's, 'r> {
    rules: &'a Ruleset,
    rec: &'a GameRecord,
    k: usize,
    game: &'a Game<'s, 'r>,
    names: &'a [String],
    next: &'a Next,
    /// The hand of the player `next` names.
    hand: CardSet,
}

impl At<'_, '_, '_> {
    fn player(&self) -> Text {
        self.next.player.as_ref().into()
    }
    fn code(&self, l: &str) -> Option<Card> {
        self.rules.pack.parse_card(l)
    }
    fn in_legal(&self, c: Card) -> bool {
        self.next.legal.iter().any(|l| self.code(l) == Some(c))
    }
}

/// What one sweep checked, and every disagreement found.
#[derive(Default)]
struct Tally {
    games: usize,
    moves: usize,
    by_phase: BTreeMap<&'static str, usize>,
    /// The moves by what `next` says of them.
    by_said: BTreeMap<String, usize>,
    disagreements: Vec<String>,
    /// The most sets whose requirements one discard's `next` judged (`Game::discard_cards`).
    dearest_discard: usize,
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
        Ok(v) if v.ledger.iter().any(|l| (l.rule.starts_with("play.fault.") || l.rule.starts_with("discard.fault.")) && l.event == Some(k)) => Judged::Fault,
        Ok(_) => Judged::Accepted,
        Err(e) => Judged::Error(format!("{e:?}")),
    }
}

/// Whether replay's judgement is what `next` says of the move.
fn agrees(said: &Said, j: &Judged) -> bool {
    match said {
        Said::Offered | Said::OutOfTurn => *j == Judged::Accepted,
        Said::LeftOut => matches!(j, Judged::Refused(_) | Judged::Fault),
        Said::Breaks(rules) => matches!(j, Judged::Refused(r) if rules.contains(r)),
        Said::Drawn => match j {
            Judged::Accepted => true,
            Judged::Refused(rule) => rule.starts_with("discard.require.") || rule == "discard.unless-unavoidable",
            _ => false,
        },
        Said::Malformed => matches!(j, Judged::Error(e) if e.contains("listed twice")),
        Said::Silent => matches!(j, Judged::Accepted | Judged::Refused(_)),
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
        let p = names.iter().position(|n| **n == *next.player);
        let at = At { rules, rec, k, game: &game, names: &names, next, hand: p.map(|p| game.hands[p]).unwrap_or_default() };
        let mut moves: Vec<Tried> = vec![];
        let (who, player, pack) = (&next.player, at.player(), rules.pack.cards);
        let offered = |b: bool| if b { Said::Offered } else { Said::LeftOut };
        match next.phase {
            Phase::Play => {
                for c in at.hand.iter() {
                    moves.push(Tried { what: format!("{who} playing {}", c.code()), event: Event::Play { player: player.clone(), card: c.code() }, said: offered(at.in_legal(c)) });
                }
                if let Some(c) = pack.minus(at.hand).iter().next() {
                    moves.push(Tried { what: format!("{who} playing {}, not his", c.code()), event: Event::Play { player: player.clone(), card: c.code() }, said: Said::LeftOut });
                }
            }
            Phase::Bid => bid::tried(&at, &mut moves),
            Phase::Call => {
                for c in pack.iter() {
                    moves.push(Tried { what: format!("{who} calling {}", c.code()), event: Event::Call { player: player.clone(), card: c.code() }, said: offered(at.in_legal(c)) });
                }
            }
            Phase::Buy => buy::tried(&at, &mut moves),
            Phase::Take => take::tried(&at, &mut moves),
            Phase::Discard => match discard::tried(&at, &mut moves) {
                Ok(searched) => tally.dearest_discard = tally.dearest_discard.max(searched),
                Err(why) => tally.disagreements.push(format!("{}: {why}", label(k))),
            },
            Phase::Deal => tally.disagreements.push(format!("{}: a deal asked in the middle of a game", label(k))),
        }
        declarations(&at, &mut moves);
        if rules.sit_out_choice.is_some() {
            for name in &names {
                let listed = next.sit_out.iter().any(|s| **s == **name);
                moves.push(Tried { what: format!("{name} sitting out"), event: Event::SitOut { player: name.as_str().into() }, said: offered(listed) });
            }
        }
        for Tried { what, event, said } in moves {
            tally.moves += 1;
            *tally.by_phase.entry(next.phase.word()).or_default() += 1;
            let kind = if let Said::Breaks(_) = said { "Breaks".into() } else { format!("{said:?}") };
            *tally.by_said.entry(kind).or_default() += 1;
            let noted = (said == Said::OutOfTurn).then(|| bid::noted_out_of_turn(rules, rec, k, &event));
            let j = judge(rules, rec, k, event);
            if !agrees(&said, &j) || noted == Some(false) {
                let by = if noted == Some(false) { ", not noted said out of turn" } else { "" };
                tally.disagreements.push(format!("{}: {what}, {said:?} by next, replay: {j:?}{by}", label(k)));
            }
        }
    }
}

/// The declarations at this moment, for every player: each made with the show the simulator would
/// make (where it shows cards and one is found in his hand), open or not.
fn declarations(at: &At, moves: &mut Vec<Tried>) {
    for (q, name) in at.names.iter().enumerate() {
        for d in &at.rules.declarations {
            let open = at.next.declarations.iter().any(|o| *o.player == **name && o.declaration == d.name);
            let cards: Option<Vec<Text>> = match d.shows.is_empty() {
                true => Some(vec![]),
                false => at.game.best_show(q as u8, at.game.hands[q], d).map(|s| s.iter().map(Card::code).collect()),
            };
            let Some(cards) = cards else { continue };
            let event = Event::Declare { player: name.as_str().into(), declaration: d.name.as_str().into(), cards: cards.clone() };
            moves.push(Tried { what: format!("{name} declaring {} {cards:?}", d.name), event, said: if open { Said::Offered } else { Said::LeftOut } });
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
        eprintln!("next_agrees {what}: {} games, {} moves checked {:?} {:?}, {} disagreements", tally.games, tally.moves, tally.by_phase, tally.by_said, tally.disagreements.len());
        eprintln!("next_agrees {what}: the dearest discard's search judged {} sets (bound {})", tally.dearest_discard, tarot_engine::testing::DISCARD_SEARCH_BOUND);
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
