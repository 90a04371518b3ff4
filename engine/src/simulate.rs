//! Random legal games: a random deal, then at every turn a move chosen uniformly among the legal moves
//! the interpreter itself generates (`Game::next`, `Game::legal`, `Game::discardable`): each bid, each
//! card, each set of cards to discard. Before the first card each optional declaration a player can
//! make is made or not with even chances, showing the largest set of cards the rules accept
//! (`Game::best_show`).
//!
//! `SimOptions` steers those choices so that the rare cases happen often: a contract drawn evenly (or
//! one contract only) instead of uniform bids, which almost never let a low contract win; a deal that
//! gives one player a strong hand (a long run of the highest trumps, the cards of a declaration, the
//! ranks a taker may call), who plays to take every trick: poignées, chelems, defence chelems, calls of
//! a queen or a jack; the Fool and the lowest trump held back to the end; a card that may be withheld
//! from the trump obligations held back until it is. Steering only changes which
//! legal move is chosen, and how the pack is shuffled: every move still comes from the interpreter's own
//! lists, so replay accepts every game the simulator writes.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::Rng;

use crate::cards::{Card, CardSet};
use crate::ir::{Ruleset, When};
use crate::record::{Event, GameRecord, Packet, Text};
use crate::replay::{Game, Seating, Setup, Stage};

mod choices;
mod deal;
mod play;

use choices::*;
use deal::*;
pub use deal::{random_deal, random_deal_with};
use play::*;

pub const NAMES: [&str; 8] = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"];

/// How the simulator chooses among the legal moves. `SimOptions::default()` is the uniform simulator
/// (every bid, card and declaration as likely as the others), and draws exactly the random numbers it
/// always drew, so seeded games stay the same; `SimOptions::steered()` exercises the rare cases.
#[derive(Clone, Debug, PartialEq)]
pub struct SimOptions {
    /// Which contract the bidding aims at.
    pub contract: ContractChoice,
    /// The chance that a deal gives one player (drawn at random) a strong hand: a run of the highest
    /// trumps, the cards of a declaration, or the ranks a taker may call (see `stack_strong_hand`). Half
    /// the time, that player is then the one who takes.
    pub strong_hand: f64,
    /// Whether the player dealt the strong hand plays, every time, his highest legal card (trumps
    /// first, the Fool last of all), as a player who means to take every trick does.
    pub strong_plays_high: bool,
    /// The chance that, in a game, the Fool is held back as long as another card is legal, so that it
    /// goes to the last trick (led there or played to it).
    pub hold_excuse: f64,
    /// The chance that, in a game, the lowest trump (the Petit, the Pagat) is held back as long as
    /// another card is legal, then played as soon as it is legal once its player has two cards left (half
    /// of these games) or one: au bout, in the Ultimo, or in the trick before.
    pub hold_petit: f64,
    /// The chance that, in a game, the cards a player may withhold from the trump obligations (`play {
    /// withhold }`) are held back as long as another card is legal: so their holder withholds them
    /// whenever a trump is due of him and they are his only trumps. Drawn only where the rules have a
    /// `withhold`, so that the other rulesets' seeded games stay the same.
    pub withhold: f64,
    /// The chance that each declaration that shows cards (a poignée, Marolles' Tarots) is made when the
    /// hand allows it.
    pub declare: f64,
    /// The chance that an announcement (a declaration that shows no card, such as a chelem) is made:
    /// by the player dealt the strong hand, and by any other player.
    pub announce_strong: f64,
    pub announce: f64,
    /// Whether every deal is one of a match under way, where the ruleset keeps pots (`pot`) or reads
    /// the match so far (`carried(p)`): the record carries pots and a standing drawn at random
    /// (`random_carry`). Otherwise a deal is a table's first, carrying nothing, unless its `deal {
    /// require }` refuses that: then it carries what is drawn until the deal is allowed.
    pub carry: bool,
    /// The chance that a deal is one of a match near its end, where the ruleset reads the standing and
    /// its `match` has a `target`: each player's standing drawn from the last tenth below the target
    /// (partners alike), so that a declaration that needs the match almost won (Tarocchini's dealer
    /// calling himself out right after the deal, `when after-deal`) can be made. 0 in both presets,
    /// so their seeded games stay the same.
    pub match_end: f64,
    /// The chance that a game steered to a contract the auction's winner may raise to at his last
    /// word (`bidding { raise }`) reaches it that way: the auction is steered to the contract raised
    /// from, and the winner names the target at his last word. 0 in both presets, so their seeded
    /// games stay the same.
    pub last_word: f64,
    /// The chance that a taker who calls a card (`call`) calls one that lies in the dog, where one
    /// may be called: the called card in the talon, which leaves him alone, reached on purpose. 0 in
    /// both presets, so their seeded games stay the same.
    pub call_dog: f64,
    /// The chance that a player to whom a declaration that ends the deal unplayed (`ends-deal`) is
    /// open makes it: giving up (Königrufen's Schleifen, the called king seen in the talon), or a
    /// claim settled on every hand (Cego's skinned Solo), reached on purpose. 0 in both presets, so
    /// their seeded games stay the same.
    pub end_deal: f64,
    /// The chance that a player to whom a declaration that names who deals the match's last deal
    /// (`ends-match after-deal-by`: Cego's "Der Gstieß gibt ab") is open makes it. 0 in both presets,
    /// so their seeded games stay the same: no random number is drawn for it there.
    pub end_match_later: f64,
}

/// Which contract the bidding aims at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContractChoice {
    /// Each bid uniform among the legal bids (pass included).
    Uniform,
    /// One contract drawn uniformly for each game, bid by a player drawn uniformly among the speakers
    /// (the players before him pass or, a quarter of the time, bid a lower contract), everyone else
    /// passing: every contract wins as often as the others.
    Even,
    /// Only this contract (its name in the ruleset), bid as with `Even`.
    Only(String),
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            contract: ContractChoice::Uniform,
            strong_hand: 0.0,
            strong_plays_high: false,
            hold_excuse: 0.0,
            hold_petit: 0.0,
            withhold: 0.0,
            declare: 0.5,
            announce_strong: 0.5,
            announce: 0.5,
            carry: false,
            match_end: 0.0,
            last_word: 0.0,
            call_dog: 0.0,
            end_deal: 0.0,
            end_match_later: 0.0,
        }
    }
}

impl SimOptions {
    /// Every contract evenly, a strong hand in a third of the deals (announcing its chelem most of the
    /// time), the Fool held back in half the games, the lowest trump in half the games, and the cards
    /// that may be withheld in half the games.
    pub fn steered() -> Self {
        SimOptions {
            contract: ContractChoice::Even,
            strong_hand: 1.0 / 3.0,
            strong_plays_high: true,
            hold_excuse: 0.5,
            hold_petit: 0.5,
            withhold: 0.5,
            declare: 0.5,
            announce_strong: 0.75,
            announce: 0.05,
            carry: false,
            match_end: 0.0,
            last_word: 0.0,
            call_dog: 0.0,
            end_deal: 0.0,
            end_match_later: 0.0,
        }
    }

    fn is_uniform(&self) -> bool {
        *self == SimOptions::default()
    }
}

/// Plays a whole game at random. Returns the record, which may end in an annulment.
pub fn random_game<R: Rng>(rules: &Ruleset, players: usize, options: &BTreeMap<String, serde_json::Value>, rng: &mut R) -> Result<GameRecord, String> {
    random_game_with(rules, players, options, &SimOptions::default(), rng)
}

/// Plays a whole game, choosing among the legal moves as `sim` says.
pub fn random_game_with<R: Rng>(rules: &Ruleset, players: usize, options: &BTreeMap<String, serde_json::Value>, sim: &SimOptions, rng: &mut R) -> Result<GameRecord, String> {
    let setup = Setup::new(rules, players, options)?;
    if let ContractChoice::Only(name) = &sim.contract {
        let contracts = rules.bidding.as_ref().map(|b| b.contracts.iter().map(|c| c.name.clone()).collect::<Vec<_>>()).unwrap_or_default();
        if !contracts.contains(name) {
            return Err(format!("{} has no contract `{name}`; its contracts: {}", rules.id, if contracts.is_empty() { "none".into() } else { contracts.join(", ") }));
        }
    }
    let table: Vec<String> = NAMES[..players].iter().map(|s| s.to_string()).collect();
    // A deal where its taker can lay away no discard the requirements allow is dealt again: one hard
    // deal never costs the run.
    // So too a game steered to a contract that a step below it barred from some player (`step` with
    // `by`) and that missed it, up to `MISSED` times: the last such game is kept.
    let mut stuck = String::new();
    let mut missed = 0;
    let mut tries = 0;
    while tries < REDEALS {
        let dealer_at_table = rng.gen_range(0..players);
        let seats = Seating::of(&setup, &table, dealer_at_table);
        let (deal, strong) = random_deal_with(&setup, &seats.playing, seats.dealer, sim, rng);
        match play_out(&setup, &table, dealer_at_table, seats, deal, options, sim, strong, rng) {
            Ok(record) => return Ok(record),
            Err(Failed::Missed(record)) if missed >= MISSED => return Ok(*record),
            Err(Failed::Missed(_)) => missed += 1,
            Err(Failed::NoLawfulDiscard(why)) => {
                stuck = why;
                tries += 1;
            }
            Err(Failed::Other(e)) => return Err(e),
        }
    }
    Err(format!("{}: in {REDEALS} deals in a row the taker could lay away no discard the rules allow (the last: {stuck}); the `require`s of its `discard` section may be impossible to meet together", rules.id))
}

/// How many deals in a row `random_game_with` deals again when no lawful discard is found.
const REDEALS: usize = 100;

/// How many times `random_game_with` deals again a game steered to a contract that a step of the
/// auction's chain below it barred from some player, and that missed it (`Failed::Missed`).
const MISSED: usize = 20;

/// Why `play_out` could not finish a game.
enum Failed {
    /// The taker holds no discard the requirements allow (none found by `lawful_discard`).
    NoLawfulDiscard(String),
    /// Steered to a contract at the top of a chain that some player could not climb (a step below it
    /// with a `by` his hand does not meet), the game played another: the game, kept if it is the last.
    Missed(Box<GameRecord>),
    Other(String),
}

impl From<String> for Failed {
    fn from(e: String) -> Self {
        Failed::Other(e)
    }
}

impl From<&str> for Failed {
    fn from(e: &str) -> Self {
        Failed::Other(e.to_string())
    }
}

impl From<Failed> for String {
    fn from(e: Failed) -> Self {
        match e {
            Failed::NoLawfulDiscard(e) | Failed::Other(e) => e,
            Failed::Missed(_) => "the game missed the contract it was steered to".into(),
        }
    }
}

/// Plays a game at random from a given deal (`deal`, for the players `table`, `dealer` dealing):
/// a deal arranged to show a rule, played out by the simulator.
pub fn random_game_from<R: Rng>(
    rules: &Ruleset,
    table: &[String],
    dealer: usize,
    deal: Event,
    options: &BTreeMap<String, serde_json::Value>,
    rng: &mut R,
) -> Result<GameRecord, String> {
    let setup = Setup::new(rules, table.len(), options)?;
    let seats = Seating::of(&setup, table, dealer);
    Ok(play_out(&setup, table, dealer, seats, deal, options, &SimOptions::default(), None, rng)?)
}

/// Replaces one card play of a recorded game by a card its player holds but may not play there, chosen
/// at random among all such plays (a card whose play the rules make a fault paid is not one: the
/// game would go on, and break a later rule, if any). Returns the new record and the index of the replaced event; `None`
/// when no play of the game could have been illegal (every hand always had only legal cards).
pub fn illegal_variant<R: Rng>(rules: &Ruleset, rec: &GameRecord, rng: &mut R) -> Option<(GameRecord, usize)> {
    let setup = Setup::new(rules, rec.players.len(), &rec.options).ok()?;
    let dealer = rec.players.iter().position(|p| *p == rec.dealer)?;
    // The seats as replay reads them: in the order of play (the record's list reversed where play is
    // clockwise), without a player who sits the deal out.
    let seats = Seating::of(&setup, &rec.players, dealer);
    let mut game = Game::new(&setup, &seats.playing, seats.dealer);
    // Each play with a card its player may not play, and those of them the rules make a fault paid
    // (`play { fault ... }`): not refused, so not a bad card.
    let mut candidates = vec![];
    for (i, e) in rec.events.iter().enumerate() {
        if let Event::Play { player, .. } = e {
            let p = seats.playing.iter().position(|n| n == player)? as u8;
            let illegal: CardSet = game.hands[p as usize].minus(game.legal(p));
            if !illegal.is_empty() {
                let paid: CardSet = illegal.iter().filter(|&c| game.is_paid_fault(p, c)).collect();
                candidates.push((i, player.clone(), illegal, paid));
            }
        }
        if game.apply(i, e).is_err() {
            break;
        }
    }
    // The draws are those made before paid faults were skipped (a play, then a card of it), so the
    // games drawn after it stay the same; a paid fault drawn gives way to the next card of that play
    // that is not one, else to the first such card of the plays after it (round to the first).
    let (k, (_, _, illegal, _)) = candidates.iter().enumerate().collect::<Vec<_>>().choose(rng).copied()?;
    let drawn = illegal.nth(rng.gen_range(0..illegal.len()))?;
    let (i, player, card) = (0..candidates.len()).map(|j| &candidates[(k + j) % candidates.len()]).find_map(|(i, player, illegal, paid)| {
        let open: Vec<Card> = illegal.minus(*paid).iter().collect();
        let card = if *i == candidates[k].0 { open.iter().find(|c| c.0 >= drawn.0).or(open.first()) } else { open.first() };
        card.map(|c| (*i, player.clone(), *c))
    })?;
    let mut out = rec.clone();
    out.events[i] = Event::Play { player, card: card.code() };
    Some((out, i))
}
