//! The state of a game in progress (`Game`) and what it is made of: the phase, the tricks.

use std::sync::Arc;

use crate::cards::{Card, CardSet, PACK_SIZE};
use crate::ir::*;
use crate::num::Q;
use crate::verdict::LedgerEntry;

use super::{Bid, Declaration, Setup, MAX_PLAYERS};

/// Where the interpreter stands in a game: coarser than the verdict's `Phase`, which a client reads
/// (a take of the talon falls within `Discard`, a buy within `Play`), and with the game's end.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stage {
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
    pub(super) fn push(&mut self, play: (u8, Card)) {
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

/// The tricks a lead of several cards began at once (`play { lead-together }`), while in play: the
/// leader plays one card to each in a row, then each player in turn one to each, the k-th of his cards
/// to the k-th trick. The trick the next card goes to is `Game::current`, its slot here left empty.
#[derive(Clone, Debug)]
pub(super) struct Together {
    /// The rule (its index in `Play::together`).
    pub(super) rule: usize,
    pub(super) leader: u8,
    pub(super) tricks: Vec<Plays>,
    /// The cards played to them so far.
    pub(super) played: usize,
}

impl Together {
    /// The trick the next card goes to (from 0).
    pub(super) fn at(&self) -> usize {
        self.played % self.tricks.len()
    }
}

/// A game in progress.
#[derive(Clone)]
pub struct Game<'s, 'r> {
    pub setup: &'s Setup<'r>,
    pub names: Vec<Arc<str>>,
    pub dealer: u8,
    pub stage: Stage,
    pub hands: [CardSet; MAX_PLAYERS],
    pub dealt: [CardSet; MAX_PLAYERS],
    /// Each player's first packet, when the record gives the order of the deal.
    pub(super) first_packets: Option<[CardSet; MAX_PLAYERS]>,
    /// Each player's cards in the order dealt, when the record gives the order (`dealt(p, N)`).
    pub(super) deal_order: Option<Vec<Vec<Card>>>,
    /// A move other than a declaration has followed the deal: `when after-deal` is past.
    pub(super) after_deal_closed: bool,
    /// The untouchable card and its owner, when the rules have one and the deal made it so.
    pub(super) untouchable: Option<(u8, Card)>,
    /// The cards each player withheld from a trump obligation (`play { withhold }`), by seat.
    pub(super) withheld: [CardSet; MAX_PLAYERS],
    /// The cards played as the Excuse by `play { excuse }` so far: they set no suit and take no trick.
    pub(super) excused: CardSet,
    /// The cards played that take no trick by `play { loses }`: they set no suit when led.
    pub(super) powerless: CardSet,
    pub dog: CardSet,
    /// The dog in the order dealt, where the rules cut it into packets (`talon`).
    pub(super) dog_order: Vec<Card>,
    /// Cards the taker may still buy (`buy`), until he buys them, declines or the play starts.
    pub(super) buys_left: usize,
    /// Cards bought: (buyer, card bought, its holder, card given back), in order.
    pub bought: Vec<(u8, Card, u8, Card)>,
    /// The taker, while he has a packet of the talon to take.
    pub(super) talon_taker: Option<u8>,
    /// The taker and the packet he took from an unseen talon (`talon { unseen }`): cards he may not
    /// show before the hand's end.
    pub(super) talon_unseen: Option<(u8, CardSet)>,
    /// The taker who discards before he sees the talon (`talon { discard = "before" }`), until he
    /// has discarded.
    pub(super) talon_after_discard: Option<u8>,
    /// The taker whose discard is split around the talon (`talon { split }`) and the cards he lays
    /// away once it has come to him, owed after his first discard.
    pub(super) talon_split_rest: Option<(u8, usize)>,
    /// Who has still to steal from the stock, in turn, and how (`steal`).
    pub(super) steal_steps: Vec<(u8, StealHow)>,
    /// The stealer who owes a discard, and of how many cards.
    pub(super) steal_owed: Option<(u8, usize)>,
    /// The player who sits the deal out by choice (`sit-out-by-choice`), and the fee he pays.
    pub sat_out: Option<u8>,
    /// The player who sits the deal out but pays and receives as a member of the defence (`sit-out
    /// ... scores-as defence`): his seat, after those who play (his name is the last of `names`).
    pub sitter: Option<u8>,
    pub(super) sit_fee: Q,
    pub(super) cut: Option<Card>,
    /// Each player's piles on the table, bottom card first; the top card is also in `hands`, where
    /// it is playable as if in hand.
    pub table_piles: Vec<Vec<Vec<Card>>>,
    /// Bids so far: (player, contract index or None for a pass).
    pub bids: Vec<(u8, Bid)>,
    /// The auction's winner and the contract he won, while he may still choose another in its place
    /// (`bidding { instead }`) or raise it (`bidding { raise }`): his next bid says which.
    pub(super) choosing: Option<(u8, usize)>,
    /// Everyone having passed, the `all-pass play CONTRACT by` (its index in `Bidding::all_pass_by`)
    /// that named the taker.
    pub(super) named: Option<usize>,
    pub taker: Option<u8>,
    pub partner: Option<u8>,
    pub called: Option<Card>,
    /// Cards the first lead may not be (the called suit, at the FFT).
    pub(super) lead_excluded: CardSet,
    pub contract: Option<usize>,
    /// Discards still owed: (player, number of cards).
    pub pending_discards: Vec<(u8, usize)>,
    pub discards: [CardSet; MAX_PLAYERS],
    pub declarations: Vec<Declaration>,
    pub tricks: Vec<Trick>,
    /// The trick in play: the one the next card goes to (during a lead of several cards at once,
    /// `together`, one of the tricks it began).
    pub current: Plays,
    /// A lead of several cards beginning as many tricks at once (`play { lead-together }`), while its
    /// tricks are in play.
    pub(super) together: Option<Together>,
    /// The players of the current trick whose card was a paid fault that gives back what it takes
    /// (`fault ... gives-back CLASS`), each with the fault's index in `Play::faults`.
    pub(super) gives_back: Vec<(u8, usize, CardSet)>,
    pub(super) leader: Option<u8>,
    pub(super) piles: [CardSet; MAX_PLAYERS],
    /// Empty cards owed (negative) or owed to (positive) each player by the Excuse exchange.
    pub(super) empties: [i8; MAX_PLAYERS],
    pub ledger: Vec<LedgerEntry>,
    pub notes: Vec<String>,
    pub(super) event: usize,
    /// The rule that annulled the deal and the event where it did: the game is over there.
    pub(super) annulled_at: Option<(Arc<str>, usize)>,
    /// The `end` rule (its index in `play.ends`) that ended play before the last trick.
    pub(super) ended_by: Option<usize>,
    /// The `next-lead` rule (its index in `play.next_leads`) that gave the lead of the trick to come,
    /// while no card of it is played.
    pub(super) next_lead_by: Option<usize>,
    /// The empty card the Fool's holder owes for it, and to whom: (holder, winner of its trick).
    pub(super) fool_owed: Option<(u8, u8)>,
    /// The cards of a trick its winner does not keep: (the trick's index, the card, the player whose
    /// pile it goes to, whether he gives the winner an empty card for it).
    pub(super) not_taken: Vec<(usize, Card, u8, bool)>,
    /// What each pot (`Ruleset::pots`) held at the start of the deal, and holds now.
    pub carried: Vec<Q>,
    pub pots: Vec<Q>,
    /// Each player's running total in the match before this deal (the record's `standing`), by seat.
    pub standing: Vec<Q>,
    /// The player whose declaration ended the deal and the match (`ends-match`).
    pub ended_match: Option<u8>,
    /// The player named by a declaration to deal the match's last deal (`ends-match after-deal-by`).
    pub last_dealer: Option<u8>,
    /// The contract (by index) with which the auction was won and the deal settled unplayed (`settle`).
    pub settled: Option<usize>,
    /// The player and the declaration (by index) that ended the deal unplayed (`ends-deal`).
    pub ended_deal: Option<(u8, usize)>,
    /// The deal was thrown in for all passing and the rules pay for it (`all-pass pay`): the
    /// annulled deal scores its payments.
    pub thrown_in_paid: bool,
    /// The move whose fault ended the deal (a card that broke an obligation, `fault ... ends-deal`;
    /// a discard of the wrong size, `discard { fault size }`): its player, the fault's label and
    /// clause.
    pub fault_ended: Option<(u8, Arc<str>, Clause)>,
}

impl<'s, 'r> Game<'s, 'r> {
    pub fn new(setup: &'s Setup<'r>, names: &[String], dealer: u8) -> Self {
        Game {
            setup,
            names: names.iter().map(|n| Arc::from(n.as_str())).collect(),
            dealer,
            stage: Stage::Deal,
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
            together: None,
            gives_back: vec![],
            leader: None,
            piles: [CardSet::EMPTY; MAX_PLAYERS],
            empties: [0; MAX_PLAYERS],
            ledger: vec![],
            notes: vec![],
            event: 0,
            annulled_at: None,
            ended_by: None,
            next_lead_by: None,
            fool_owed: None,
            not_taken: vec![],
            carried: vec![Q::ZERO; setup.rules.pots.len()],
            pots: vec![Q::ZERO; setup.rules.pots.len()],
            standing: vec![Q::ZERO; names.len()],
            ended_match: None,
            last_dealer: None,
            settled: None,
            ended_deal: None,
            thrown_in_paid: false,
            fault_ended: None,
        }
    }

    /// The deal starts with the pots holding `carried` (in the order of `Ruleset::pots`).
    pub fn carry(&mut self, carried: &[Q]) {
        for (i, q) in carried.iter().enumerate().take(self.pots.len()) {
            self.carried[i] = *q;
            self.pots[i] = *q;
        }
    }

    pub(super) fn rules(&self) -> &'r Ruleset {
        self.setup.rules
    }

    /// A requirement's label with the values in force in this game (`crate::label`).
    pub(super) fn label(&self, text: &str) -> String {
        let rules = self.rules();
        crate::label::fill(text, |name| rules.constants.iter().position(|l| &*l.name == name).and_then(|i| self.setup.constants.get(i)?.as_ref().ok()).map(crate::label::words))
    }

    pub(super) fn n(&self) -> usize {
        self.setup.n
    }

    pub fn first_hand(&self) -> u8 {
        (self.dealer + 1) % self.n() as u8
    }

    pub(super) fn name(&self, p: u8) -> Arc<str> {
        self.names[p as usize].clone()
    }
}
