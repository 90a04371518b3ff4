//! The interpreter: replays a recorded game against compiled rules, event by event, and stops at the
//! first rule broken. The same `Game` serves replay, the live referee (what may be done next) and the
//! simulator, so the moves the simulator generates are by construction the moves replay accepts.
//!
//! Laid out as a rule file: each section (`pack`, `counting`, `deal`, `bidding`, `call`, `discard`,
//! `declaration`, `play`, `fool`, `score`) is interpreted in the module of the same name, as methods
//! of `Game`. This module holds the game's state and its driver: `apply` reads an event (`read`) and
//! hands it to its section, `next` asks the phase's section what it expects, and `replay_moves` runs a
//! game through and scores it. The settings are evaluated once per game in `setup`; `env` is what a
//! formula sees.

use std::sync::Arc;

use crate::cards::{Card, CardSet, PACK_SIZE};
use crate::expr::{eval, too_large, Expr, Value};
pub(crate) use crate::ir::MAX_PLAYERS;
use crate::ir::*;
use crate::num::Q;
use crate::record::{Event, GameRecord};
use crate::verdict::*;

mod after_deal;
mod bidding;
mod buy;
mod call;
mod counting;
mod deal;
mod declarations;
mod discard;
mod env;
mod fool;
mod idle_cards;
mod last_word;
mod obligations;
mod pack;
mod play;
mod read;
mod score;
mod seating;
mod settle;
mod setup;
mod sit_out;
mod steal;
mod talon;

pub use bidding::Bid;
pub use counting::{card_points, count_packets, count_points, counting_for};
pub use declarations::Declaration;
pub use env::GameEnv;
use read::seat_of;
pub use read::{name_key, read, Move};
pub use seating::Seating;
pub use setup::Setup;
use setup::SetupEnv;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    Deal,
    Bidding,
    /// The taker calls a partner's card.
    Call,
    Discard,
    Play,
    Done,
}

#[derive(Clone, Debug)]
pub struct Trick {
    pub leader: u8,
    pub cards: Plays,
    pub winner: u8,
}

/// The cards of one trick in the order played, with who played them: at most one per player, kept
/// inline so that replaying a game does not allocate per trick.
#[derive(Clone, Copy, Debug, Default)]
pub struct Plays {
    len: u8,
    items: [(u8, Card); MAX_PLAYERS],
}

impl Plays {
    fn push(&mut self, play: (u8, Card)) {
        self.items[self.len as usize] = play;
        self.len += 1;
    }
}

impl std::ops::Deref for Plays {
    type Target = [(u8, Card)];
    fn deref(&self) -> &[(u8, Card)] {
        &self.items[..self.len as usize]
    }
}

/// What a rule that reads the order of the deal says when the record leaves it out: the record's
/// lack, not the rule's mistake (a rule may read what only some records give).
pub(super) const NO_DEAL_ORDER: &str = "the record does not give the order of the deal (`packets` in the deal event)";

/// Why replay stopped before the end of the record.
pub enum Stop {
    Violation(Violation),
    Annulled(Annulled),
    /// The record cannot be read as a game.
    Input(InputError),
    /// A rule cannot be worked out on the game: the ruleset's mistake (`ruleset_fault` is set).
    Ruleset(ReplayError),
}

/// A game in progress.
#[derive(Clone)]
pub struct Game<'s, 'r> {
    pub setup: &'s Setup<'r>,
    pub names: Vec<Arc<str>>,
    pub dealer: u8,
    pub phase: Phase,
    pub hands: [CardSet; MAX_PLAYERS],
    pub dealt: [CardSet; MAX_PLAYERS],
    /// Each player's first packet, when the record gives the order of the deal.
    first_packets: Option<[CardSet; MAX_PLAYERS]>,
    /// Each player's cards in the order dealt, when the record gives the order (`dealt(p, N)`).
    deal_order: Option<Vec<Vec<Card>>>,
    /// A move other than a declaration has followed the deal: `when after-deal` is past.
    pub(super) after_deal_closed: bool,
    /// The untouchable card and its owner, when the rules have one and the deal made it so.
    untouchable: Option<(u8, Card)>,
    /// The cards each player withheld from a trump obligation (`play { withhold }`), by seat.
    withheld: [CardSet; MAX_PLAYERS],
    /// The cards played as the Excuse by `play { excuse }` so far: they set no suit and take no trick.
    excused: CardSet,
    /// The cards played that take no trick by `play { loses }`: they set no suit when led.
    powerless: CardSet,
    pub dog: CardSet,
    /// The dog in the order dealt, where the rules cut it into packets (`talon`).
    dog_order: Vec<Card>,
    /// Cards the taker may still buy (`buy`), until he buys them, declines or the play starts.
    buys_left: usize,
    /// Cards bought: (buyer, card bought, its holder, card given back), in order.
    pub bought: Vec<(u8, Card, u8, Card)>,
    /// The taker, while he has a packet of the talon to take.
    talon_taker: Option<u8>,
    /// The taker and the packet he took from an unseen talon (`talon { unseen }`): cards he may not
    /// show before the hand's end.
    talon_unseen: Option<(u8, CardSet)>,
    /// The taker who discards before he sees the talon (`talon { discard = "before" }`), until he
    /// has discarded.
    talon_after_discard: Option<u8>,
    /// The taker whose discard is split around the talon (`talon { split }`) and the cards he lays
    /// away once it has come to him, owed after his first discard.
    talon_split_rest: Option<(u8, usize)>,
    /// Who has still to steal from the stock, in turn, and how (`steal`).
    steal_steps: Vec<(u8, StealHow)>,
    /// The stealer who owes a discard, and of how many cards.
    steal_owed: Option<(u8, usize)>,
    /// The player who sits the deal out by choice (`sit-out-by-choice`), and the fee he pays.
    pub sat_out: Option<u8>,
    /// The player who sits the deal out but pays and receives as a member of the defence (`sit-out
    /// ... scores-as defence`): his seat, after those who play (his name is the last of `names`).
    pub sitter: Option<u8>,
    sit_fee: Q,
    cut: Option<Card>,
    /// Each player's piles on the table, bottom card first; the top card is also in `hands`, where
    /// it is playable as if in hand.
    pub table_piles: Vec<Vec<Vec<Card>>>,
    /// Bids so far: (player, contract index or None for a pass).
    pub bids: Vec<(u8, Bid)>,
    /// The auction's winner and the contract he won, while he may still choose another in its place
    /// (`bidding { instead }`) or raise it (`bidding { raise }`): his next bid says which.
    choosing: Option<(u8, usize)>,
    /// Everyone having passed, the `all-pass play CONTRACT by` (its index in `Bidding::all_pass_by`)
    /// that named the taker.
    named: Option<usize>,
    pub taker: Option<u8>,
    pub partner: Option<u8>,
    pub called: Option<Card>,
    /// Cards the first lead may not be (the called suit, at the FFT).
    lead_excluded: CardSet,
    pub contract: Option<usize>,
    /// Discards still owed: (player, number of cards).
    pub pending_discards: Vec<(u8, usize)>,
    pub discards: [CardSet; MAX_PLAYERS],
    pub declarations: Vec<Declaration>,
    pub tricks: Vec<Trick>,
    pub current: Plays,
    /// The players of the current trick whose card was a paid fault that gives back what it takes
    /// (`fault ... gives-back CLASS`), each with the fault's index in `Play::faults`.
    gives_back: Vec<(u8, usize, CardSet)>,
    leader: Option<u8>,
    piles: [CardSet; MAX_PLAYERS],
    /// Empty cards owed (negative) or owed to (positive) each player by the Excuse exchange.
    empties: [i8; MAX_PLAYERS],
    pub ledger: Vec<LedgerEntry>,
    pub notes: Vec<String>,
    event: usize,
    /// The rule that annulled the deal and the event where it did: the game is over there.
    annulled_at: Option<(Arc<str>, usize)>,
    /// The `end` rule (its index in `play.ends`) that ended play before the last trick.
    ended_by: Option<usize>,
    /// The empty card the Fool's holder owes for it, and to whom: (holder, winner of its trick).
    fool_owed: Option<(u8, u8)>,
    /// The cards of a trick its winner does not keep: (the trick's index, the card, the player whose
    /// pile it goes to, whether he gives the winner an empty card for it).
    not_taken: Vec<(usize, Card, u8, bool)>,
    /// What each pot (`Ruleset::pots`) held at the start of the deal, and holds now.
    pub carried: Vec<Q>,
    pub pots: Vec<Q>,
    /// Each player's running total in the match before this deal (the record's `standing`), by seat.
    pub standing: Vec<Q>,
    /// The player whose declaration ended the deal and the match (`ends-match`).
    pub ended_match: Option<u8>,
    /// The contract (by index) with which the auction was won and the deal settled unplayed (`settle`).
    pub settled: Option<usize>,
    /// The player and the declaration (by index) that ended the deal unplayed (`ends-deal`).
    pub ended_deal: Option<(u8, usize)>,
}

fn clause_violation(c: &Clause, event: usize, player: Option<Arc<str>>, message: String) -> Stop {
    Stop::Violation(Violation { event, player, rule: c.rule.clone(), message, source: c.source.clone(), at: c.at.clone() })
}

impl<'s, 'r> Game<'s, 'r> {
    pub fn new(setup: &'s Setup<'r>, names: &[String], dealer: u8) -> Self {
        Game {
            setup,
            names: names.iter().map(|n| Arc::from(n.as_str())).collect(),
            dealer,
            phase: Phase::Deal,
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            dealt: [CardSet::EMPTY; MAX_PLAYERS],
            first_packets: None,
            deal_order: None,
            after_deal_closed: false,
            untouchable: None,
            withheld: [CardSet::EMPTY; MAX_PLAYERS],
            excused: CardSet::EMPTY,
            powerless: CardSet::EMPTY,
            dog: CardSet::EMPTY,
            dog_order: vec![],
            talon_taker: None,
            talon_unseen: None,
            buys_left: 0,
            bought: vec![],
            talon_after_discard: None,
            talon_split_rest: None,
            steal_steps: vec![],
            steal_owed: None,
            sat_out: None,
            sitter: None,
            sit_fee: Q::ZERO,
            cut: None,
            table_piles: vec![],
            bids: vec![],
            choosing: None,
            named: None,
            taker: None,
            partner: None,
            called: None,
            lead_excluded: CardSet::EMPTY,
            contract: None,
            pending_discards: vec![],
            discards: [CardSet::EMPTY; MAX_PLAYERS],
            declarations: vec![],
            tricks: Vec::with_capacity(PACK_SIZE / setup.n.max(1)),
            current: Plays::default(),
            gives_back: vec![],
            leader: None,
            piles: [CardSet::EMPTY; MAX_PLAYERS],
            empties: [0; MAX_PLAYERS],
            ledger: vec![],
            notes: vec![],
            event: 0,
            annulled_at: None,
            ended_by: None,
            fool_owed: None,
            not_taken: vec![],
            carried: vec![Q::ZERO; setup.rules.pots.len()],
            pots: vec![Q::ZERO; setup.rules.pots.len()],
            standing: vec![Q::ZERO; names.len()],
            ended_match: None,
            settled: None,
            ended_deal: None,
        }
    }

    /// The deal starts with the pots holding `carried` (in the order of `Ruleset::pots`).
    pub fn carry(&mut self, carried: &[Q]) {
        for (i, q) in carried.iter().enumerate().take(self.pots.len()) {
            self.carried[i] = *q;
            self.pots[i] = *q;
        }
    }

    /// The name of pot `i` as the ledger gives it: `pot.NAME`.
    pub(super) fn pot_account(&self, i: usize) -> Arc<str> {
        format!("pot.{}", self.rules().pots[i].name).into()
    }

    /// A payment between player `p` and pot `i`: `v` from the pot to him (negative: from him into it).
    /// A pot that would hold more than arithmetic keeps exact is the rule's error, not a wrapped sum.
    fn pay_pot(&mut self, p: u8, i: usize, v: Q, label: &Arc<str>, c: &Clause) -> Result<(), Stop> {
        if v == Q::ZERO {
            return Ok(());
        }
        self.pots[i] = self.pots[i].checked_sub(v).ok_or_else(|| self.rule_error(c, too_large(&format!("{} holding {} less {v}", self.pot_account(i), self.pots[i]))))?;
        let (from, to, amount) = if v > Q::ZERO { (self.pot_account(i), self.name(p), v) } else { (self.name(p), self.pot_account(i), -v) };
        self.ledger.push(LedgerEntry { rule: c.rule.clone(), label: label.clone(), from: Some(from), to: Some(to), amount, source: c.source.clone(), event: Some(self.event) });
        Ok(())
    }

    fn rules(&self) -> &'r Ruleset {
        self.setup.rules
    }

    /// A requirement's label with the values in force in this game (`crate::label`).
    fn label(&self, text: &str) -> String {
        let rules = self.rules();
        crate::label::fill(text, |name| rules.constants.iter().position(|l| &*l.name == name).and_then(|i| self.setup.constants.get(i)).map(crate::label::words))
    }

    fn n(&self) -> usize {
        self.setup.n
    }

    pub fn first_hand(&self) -> u8 {
        (self.dealer + 1) % self.n() as u8
    }

    fn name(&self, p: u8) -> Arc<str> {
        self.names[p as usize].clone()
    }

    /// `name` sits the deal out but pays and receives as a member of the defence (`sit-out ...
    /// scores-as defence`): he takes the seat after those who play, in the payments and the score only.
    pub fn seat_sitter(&mut self, name: &str) {
        self.sitter = Some(self.names.len() as u8);
        self.names.push(Arc::from(name));
    }

    /// The sitter who scores, as a mask (none: 0).
    fn sitter_bit(&self) -> u16 {
        self.sitter.map_or(0, |s| 1 << s)
    }

    /// Everyone who pays and receives: the players and the sitter who scores.
    pub(super) fn paying(&self) -> u16 {
        self.all() | self.sitter_bit()
    }

    /// `p`'s side in the payments and the score: his side, where the sitter who scores is one more
    /// member of the defence; with no taker, each for himself (the sitter too).
    pub(super) fn paying_side(&self, p: u8) -> u16 {
        let s = self.sitter_bit();
        if s == 0 {
            return self.side_of(p);
        }
        let attack = self.attack();
        match self.taker {
            Some(_) if attack >> p & 1 == 1 => attack,
            Some(_) => (self.all() & !attack) | s,
            None => 1 << p,
        }
    }

    /// The players on `p`'s side, as a mask.
    pub fn side_of(&self, p: u8) -> u16 {
        match (self.rules().sides, self.taker) {
            (Sides::Taker, Some(_)) => {
                let attack = self.attack();
                if attack >> p & 1 == 1 {
                    attack
                } else {
                    self.all() & !attack
                }
            }
            // Partners sit opposite: with n players, p and p + n/2.
            (Sides::Partners, _) => {
                let half = (self.n() / 2) as u8;
                (1 << p) | (1 << ((p + half) % self.n() as u8))
            }
            _ => 1 << p,
        }
    }

    fn all(&self) -> u16 {
        (1u16 << self.n()) - 1
    }

    fn attack(&self) -> u16 {
        match self.taker {
            Some(t) => (1 << t) | self.partner.map(|p| 1u16 << p).unwrap_or(0),
            None => 0,
        }
    }

    fn violation(&self, c: &Clause, player: u8, message: String) -> Stop {
        clause_violation(c, self.event, Some(self.name(player)), message)
    }

    fn input(&self, message: String) -> Stop {
        Stop::Input(InputError { event: Some(self.event), message })
    }

    /// Applies one event; `Err` says why the game cannot go on.
    pub fn apply(&mut self, index: usize, e: &Event) -> Result<(), Stop> {
        self.event = index;
        // The sitter who scores is not one of those who move.
        let m = read(self.setup, &self.names[..self.n()], index, e).map_err(Stop::Input)?;
        self.apply_move(index, &m)
    }

    /// Applies one event already read. An annulled deal is over, as a finished game is: no event may
    /// follow it.
    pub fn apply_move(&mut self, index: usize, m: &Move) -> Result<(), Stop> {
        self.event = index;
        if let Some((rule, at)) = &self.annulled_at {
            return Err(self.input(format!("the deal was annulled at event {at} ({rule}), but the record goes on with a {} event", m.kind())));
        }
        if let Some(stop) = self.after_settled(m) {
            return Err(stop);
        }
        if self.phase == Phase::Done && !self.claimed_after_play(m) {
            // Play ended when the contract was decided: what follows breaks the rule that ended it.
            if let Some(i) = self.ended_by {
                let end = &self.rules().play.ends[i];
                let message = format!("play ended after trick {} ({}), but the record goes on with a {} event", self.tricks.len(), end.label, m.kind());
                return Err(clause_violation(&end.clause, index, m.player().map(|p| self.name(p)), message));
            }
            return Err(self.input(format!("the game is over, but the record goes on with a {} event", m.kind())));
        }
        let applied = self.apply_read(m);
        if let Err(Stop::Annulled(a)) = &applied {
            self.annulled_at = Some((a.rule.clone(), index));
            self.phase = Phase::Done;
        }
        applied
    }

    fn apply_read(&mut self, m: &Move) -> Result<(), Stop> {
        self.close_after_deal(m);
        match *m {
            Move::Deal(ref d) => {
                if self.rules().talon.is_some() || self.rules().steal.is_some() {
                    self.dog_order = d.dog_order.clone();
                }
                self.deal(&d.hands, d.dog, d.cut, &d.piles, &d.packets)
            }
            _ if self.phase == Phase::Deal => Err(self.input(format!("a game starts with the deal, not a {} event", m.kind()))),
            _ if self.sat_out.is_some() && m.player() == self.sat_out => Err(self.sat_out_moves(m).expect("the move of the player who sits out")),
            Move::Bid { player, bid } => self.bid(player, bid),
            Move::Call { .. } | Move::Discard { .. } | Move::Take { .. } | Move::Buy { .. } | Move::Play { .. } if self.choosing.is_some() => {
                Err(self.last_word_missing(m.player()))
            }
            Move::Call { player, card } => self.call(player, card),
            Move::Discard { player, cards } if self.stealing() => self.steal_discard(player, cards),
            Move::Take { player, cards } if self.stealing() => self.steal_take(player, cards),
            Move::Discard { player, cards } => self.discard(player, cards),
            Move::Take { player, cards } => self.take(player, cards),
            Move::Declare { player, .. } | Move::Play { player, .. } | Move::SitOut { player } if self.stealing() => match self.steal_missing(player) {
                Some(stop) => Err(stop),
                None => self.apply_read(m),
            },
            Move::Buy { player, cards } => self.buy(player, cards),
            Move::Declare { player, kind, cards } => self.declare(player, kind, cards),
            Move::Play { player, card } => self.play(player, card),
            Move::SitOut { player } => self.sit_out(player),
        }
    }

    /// A formula that fails on a move the rules accept: the ruleset's fault, not the player's.
    fn rule_bug(&self, c: &Clause, e: String) -> Stop {
        self.rule_error(c, e)
    }

    /// A rule's formula that fails on this game: the ruleset's fault, unless what it lacks is the
    /// record's (the order of the deal, which a record may leave out).
    fn rule_error(&self, c: &Clause, e: String) -> Stop {
        if e.contains(NO_DEAL_ORDER) {
            return self.input(format!("the rule {} ({}) cannot be evaluated: {e}", c.rule, c.at));
        }
        Stop::Ruleset(ReplayError::ruleset(&self.rules().id, Some((&*c.rule, &*c.at)), Some(self.event), e))
    }

    /// A formula evaluated where its rule is not known (`eval_rule` names it).
    fn eval(&self, e: &Expr, env: &GameEnv) -> Result<Value, Stop> {
        eval(e, env).map_err(|m| {
            if m.contains(NO_DEAL_ORDER) {
                return self.input(format!("a rule cannot be evaluated: {m}"));
            }
            Stop::Ruleset(ReplayError::ruleset(&self.rules().id, None, Some(self.event), format!("a rule cannot be evaluated: {m}")))
        })
    }

    /// A formula of the rule `c` evaluated; its failure names the rule.
    fn eval_rule(&self, e: &Expr, env: &GameEnv, c: &Clause) -> Result<Value, Stop> {
        eval(e, env).map_err(|m| self.rule_error(c, m))
    }

    fn number(&self, e: &Expr, env: &GameEnv, c: &Clause) -> Result<Q, Stop> {
        match eval(e, env) {
            Ok(Value::Num(q)) => Ok(q),
            Ok(Value::Bool(b)) => Ok(Q::int(b as i64)),
            Ok(other) => Err(self.rule_error(c, format!("expected a number, found {}", other.type_name()))),
            Err(m) => Err(self.rule_error(c, m)),
        }
    }

    /// Each opponent of `p` pays him `v` (or he pays each of them, when `v` is negative); the sitter
    /// who scores is an opponent of the attack's players, and of each player where nobody took.
    fn pay_each_opponent(&mut self, p: u8, v: Q, label: &Arc<str>, c: &Clause) {
        if v == Q::ZERO {
            return;
        }
        let opponents = self.paying() & !self.paying_side(p);
        for o in 0..MAX_PLAYERS as u8 {
            if opponents >> o & 1 == 0 {
                continue;
            }
            let (from, to, amount) = if v > Q::ZERO { (o, p, v) } else { (p, o, -v) };
            self.ledger.push(LedgerEntry {
                rule: c.rule.clone(),
                label: label.clone(),
                from: Some(self.name(from)),
                to: Some(self.name(to)),
                amount,
                source: c.source.clone(),
                event: Some(self.event),
            });
        }
    }

    /// What the game expects next, for a game in progress.
    #[allow(clippy::should_implement_trait)] // a question to the game, not an iterator
    pub fn next(&mut self) -> Option<Next> {
        match self.phase {
            // The dealer deals (at a table where he sits out, `replay_with` names him).
            Phase::Deal => {
                Some(Next { player: self.name(self.dealer), phase: "deal".into(), legal: vec![], count: None, table: Default::default(), declarations: vec![], sit_out: vec![] })
            }
            Phase::Bidding => self.next_bid(),
            Phase::Call => self.next_call(),
            Phase::Discard => self.next_steal().or_else(|| self.next_take()).or_else(|| self.next_discard()),
            Phase::Play => self.next_buy().or_else(|| self.next_play()),
            Phase::Done => None,
        }
    }
}

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
    if let Some(next) = verdict.next.as_mut().filter(|n| n.phase == "deal") {
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

/// The codes `rec` writes for cards otherwise than by their own code (`EX` for the Fool made a
/// trump, a `code` alias), the first it writes for each; `None` when there is none.
fn spellings_of(rules: &Ruleset, rec: &GameRecord) -> Spellings {
    let mut out: Vec<(Card, crate::record::Text)> = vec![];
    let mut note = |code: &crate::record::Text| {
        if let Some(c) = rules.pack.parse_card(code) {
            let written = code.trim();
            if !written.eq_ignore_ascii_case(c.code_str()) && !out.iter().any(|(k, _)| *k == c) {
                out.push((c, written.into()));
            }
        }
    };
    for e in &rec.events {
        match e {
            Event::Deal { hands, dog, cut, piles, packets } => {
                hands.values().flatten().chain(dog).chain(cut).chain(piles.values().flatten().flatten()).chain(packets.iter().flat_map(|k| &k.cards)).for_each(&mut note)
            }
            Event::Call { card, .. } | Event::Play { card, .. } => note(card),
            Event::Discard { cards, .. } | Event::Take { cards, .. } | Event::Declare { cards, .. } => cards.iter().for_each(&mut note),
            Event::Buy { card, gives, .. } => card.iter().chain(gives).for_each(&mut note),
            Event::Bid { .. } | Event::SitOut { .. } => {}
        }
    }
    (!out.is_empty()).then(|| out.into())
}

/// Writes the verdict's cards as the record wrote them (`spellings`): the tricks, the cards on the
/// table, the legal cards and declarations of the next move, and the score's values that are cards.
fn respell(verdict: &mut Verdict, spellings: &Arc<[(Card, crate::record::Text)]>) {
    let some = Some(spellings.clone());
    let word = |w: &str| match Card::parse(w) {
        Some(c) if w == c.code_str() => spelled(&some, c).to_string(),
        _ => w.to_string(),
    };
    for t in &mut verdict.tricks {
        t.cards.spellings = some.clone();
        for x in &mut t.not_taken {
            x.code = spelled(&some, x.card).to_string();
        }
    }
    if let Some(n) = &mut verdict.next {
        n.table.spellings = some.clone();
        if matches!(n.phase.as_str(), "play" | "discard" | "call" | "take" | "buy") {
            // A packet of the talon is its cards' codes, one space between.
            for l in &mut n.legal {
                *l = l.split(' ').map(word).collect::<Vec<_>>().join(" ");
            }
        }
        for d in &mut n.declarations {
            for c in &mut d.cards {
                *c = word(c);
            }
        }
    }
    fn figure(f: &mut Figure, word: &dyn Fn(&str) -> String) {
        if let Figure::List(items) = f {
            for x in items {
                match x {
                    Figure::Text(t) => *t = word(t).into(),
                    other => figure(other, word),
                }
            }
        }
    }
    if let Some(o) = &mut verdict.outcome {
        for (_, v) in &mut o.values {
            figure(v, &word);
        }
    }
}

/// What stopped the scoring of a finished game: only a rule that cannot be evaluated does.
fn replay_error(s: Stop) -> ReplayError {
    match s {
        Stop::Input(e) => e.into(),
        Stop::Ruleset(e) => e,
        _ => InputError { event: None, message: "scoring stopped".into() }.into(),
    }
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
        }
        None if game.settled.is_some() || game.ended_deal.is_some() => {
            verdict.status = Status::Valid;
            verdict.outcome = Some(game.settled_outcome().map_err(replay_error)?);
        }
        None if game.phase == Phase::Done => {
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
