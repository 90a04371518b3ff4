//! The compiled rules: what the compiler produces from a rule file and the interpreter runs. Every
//! clause keeps where it came from (`Clause`), so a verdict can cite the rule and its source.
//!
//! Nothing here names a variant: the three families of the sources differ only in the values below.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::cards::{Card, CardSet, PACK_SIZE};
use crate::expr::{Expr, Value};

mod option_value;
mod play;
mod words;
pub use option_value::*;
pub use play::*;
pub use words::*;

/// Where a rule clause comes from: its id in the ruleset, the file and line it is written at, and the
/// source text it follows.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Clause {
    /// A stable id such as `play.must.overtrump` or `declaration.poignee.require.1`.
    pub rule: Arc<str>,
    /// `rulesets/<id>.tarot:57`
    pub at: Arc<str>,
    /// `FFT "Le jeu de la carte"`, with the source's file in `source_file`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Arc<str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_file: Option<Arc<str>>,
}

/// A source a ruleset follows.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// e.g. `seed 000`, `FFT`.
    pub id: String,
    /// Where the source is found: its web address, or, where none is known, how to find it.
    pub file: String,
    pub title: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct OptionDef {
    pub name: String,
    pub default: OptionValue,
    pub choices: Vec<OptionValue>,
    pub doc: String,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct Ruleset {
    pub id: String,
    pub title: String,
    /// The family of games it belongs to (`family "French"`), for grouping rulesets; one of
    /// `FAMILIES`.
    pub family: Option<(String, Clause)>,
    /// The year its source dates the rules from (`dated 1637`), where the source dates them.
    pub dated: Option<(u16, Clause)>,
    /// This ruleset first, then its parents.
    pub chain: Vec<String>,
    /// The text of every file in the chain, child first, for display.
    pub texts: Vec<(String, String)>,
    /// A hash of the resolved rules, so stored verdicts know which rules they were computed with.
    pub version: String,
    pub sources: Vec<Source>,
    pub options: Vec<OptionDef>,
    pub constants: Vec<Let>,
    pub pack: Pack,
    pub classes: Vec<Class>,
    pub counting: Counting,
    pub players: (usize, usize),
    pub players_clause: Clause,
    /// The dealer deals to the others and sits the deal out (the FFT's "mort" at a table of five):
    /// `players` is then the size of the table, and one fewer play each deal.
    pub sit_out: Option<Clause>,
    /// The smallest table at which the dealer sits out (`sit-out dealer from N`; 0: at every table).
    pub sit_out_from: usize,
    /// `sit-out opposite from N`: the player opposite the dealer sits out instead, the dealer playing.
    pub sit_out_opposite: bool,
    /// `sit-out ... scores-as defence`: the player who sits out pays and receives as one more member
    /// of the defence (Dreierles' dealer at a table of four, "a third opponent"), where otherwise he
    /// scores nothing.
    pub sit_out_scores: bool,
    pub sides: Sides,
    pub deal: Deal,
    pub annulments: Vec<Annulment>,
    pub bidding: Option<Bidding>,
    pub call: Option<Call>,
    pub discard: Option<Discard>,
    /// `talon { ... }`: the dog shown in packets, of which the taker takes one.
    pub talon: Option<Talon>,
    /// `buy { cards = N }`: after the discard the taker buys cards from the others' hands.
    pub buy: Option<Buy>,
    /// `fool "name" trump = condition` (the pack follows an option): the ruleset compiled with the
    /// Fool the other way, for the games whose options make the condition say so (`Setup::new`).
    pub fool_variant: Option<FoolVariant>,
    /// `steal { ... }`: after the deal, players take cards from the stock and lay away as many.
    pub steal: Option<Steal>,
    /// `sit-out-by-choice { ... }`: after the deal (and the steals) one player may sit the deal out,
    /// paying a fee by his place in turn to the taker of the last trick.
    pub sit_out_choice: Option<SitOutChoice>,
    pub declarations: Vec<DeclarationKind>,
    pub play: Play,
    pub fool: FoolRules,
    pub untouchable: Option<Untouchable>,
    pub triggers: Vec<Trigger>,
    pub score: Score,
    /// `pot NAME "label"`: money kept on the table from deal to deal, which payments go into and out
    /// of (`pay players to pot.NAME`, `on play ... to pot.NAME`); a record says what each holds at the
    /// start of its deal (`pots`), the verdict what it holds at the end.
    pub pots: Vec<PotDef>,
    /// `match { ... }`: the deals a table plays make one match with a final winner (`matches.rs`).
    pub game_match: Option<Match>,
    /// Where each setting of the `deal`, `discard` and `fool` blocks is written, by rule id
    /// (`deal.hand`, `fool.led`): a block a ruleset changes in part keeps its parent's other
    /// statements, in the parent's file.
    pub settings: BTreeMap<String, Clause>,
    /// What the settings come to with the default options, by size of table, worked out on first
    /// use (`replay::Setup::new`): most games choose no option.
    pub defaults: Defaults,
    /// A setting that applies after the auction (the discard's sizes, `callable-levels`, `must ... =
    /// condition`, the fool's settings) reads `contract.ATTR` or `contract.name`: the settings are
    /// then worked out again for each contract (`Settings::after_auction`).
    pub reads_contract: bool,
    /// Some formula reads the match so far (`carried(p)`): a record then says each player's running
    /// total before its deal (`standing`), which a table's deals must follow (`matches::standing_follows`).
    pub reads_standing: bool,
}

/// The families of games a ruleset may belong to (`family NAME`), by the country the game is played
/// in and the pack it uses.
pub const FAMILIES: [&str; 5] = ["French", "Italian", "Swiss", "Austrian", "German"];

/// The most players at a table.
pub(crate) const MAX_PLAYERS: usize = 8;

/// What a ruleset's settings come to at a table of so many players with the options chosen. Worked out
/// by the interpreter (`replay::Setup::new`, in `replay/setup.rs`); kept here, beside the ruleset that
/// keeps them for its default options (`Defaults`), so that the IR needs nothing from the interpreter.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The players who play (the table, less a dealer who sits out).
    pub n: usize,
    pub(crate) options: Vec<Value>,
    pub(crate) constants: Vec<Value>,
    pub hand: usize,
    pub dealer_hand: usize,
    pub dog: usize,
    /// Piles before each player, and cards in each.
    pub piles: usize,
    pub pile_size: usize,
    pub(crate) strength: [u8; PACK_SIZE],
    /// The counting of this game, where counters follow options (`Counting::by_option`).
    pub(crate) counting: Option<Counting>,
    /// The discard's forbidden cards of this game, where some follow options (`Discard::forbid_by_option`).
    pub(crate) forbid: Option<Vec<CardClass>>,
    /// The hold of this game is by seniority (`hold seniority`, or `hold = formula` choosing it).
    pub(crate) hold_seniority: bool,
    pub(crate) fool_led_forbidden: bool,
    pub(crate) fool_exchange: bool,
    pub(crate) fool_last: FoolLast,
    pub(crate) fool_shut_out: bool,
    /// The Fool of a side that won every other trick wins the last trick however it is played, not
    /// only when led.
    pub(crate) fool_slam_played: bool,
    /// The Fool must be played before the last so many tricks (0: no deadline).
    pub(crate) fool_deadline: usize,
    /// How many of the call's levels may be called.
    pub(crate) call_levels: usize,
    pub(crate) contract_dogs: Vec<DogUse>,
    /// The contracts a player who reserved may choose in the second round.
    pub(crate) reserve_contracts: Vec<usize>,
    /// The sizes of each player's packets, round by round (the dealer's apart), when the rules say
    /// how the cards go round; the dog's packet size and the cards at each end kept from the dog.
    pub(crate) packets: Option<(Vec<usize>, Vec<usize>)>,
    pub(crate) dog_packet: Option<usize>,
    pub(crate) dog_apart: usize,
    pub(crate) dog_after: Option<usize>,
    /// Play goes clockwise: each player's next is the one before him in the record's list.
    pub(crate) clockwise: bool,
    pub(crate) discard_taker: usize,
    pub(crate) discard_dealer: usize,
    pub(crate) discard_others: usize,
    /// The talon's packets (0 or 1: the dog is taken whole), and whether the rest goes to the taker.
    /// The cards that may be played only as one's last trump (`play { last-trump }`).
    /// The cards of each `Play::keeps`, in this game.
    pub(crate) keeps: Vec<CardSet>,
    /// The cards of each `Play::wins`, in this game (empty: the exception does not apply).
    pub(crate) wins_with: Vec<CardSet>,
    /// Trumps take tricks when not led (`play { trumps-win }`, the default yes).
    pub(crate) trumps_win: bool,
    pub(crate) talon_packets: usize,
    pub(crate) talon_rest_taker: bool,
    /// The packet the taker gets with no choice (`talon { given }`, counted from 1), 0 for his choice.
    pub(crate) talon_given: usize,
    /// How many cards the taker may buy after his discard (`buy { cards = N }`), 0 for none.
    pub(crate) buy_cards: usize,
    pub(crate) talon_discard_first: bool,
    /// Cards the taker lays away before he sees the talon, the rest of his discard after it
    /// (`talon { split = N }`); 0 where the discard is not split.
    pub(crate) talon_split: usize,
    pub(crate) follow: Option<usize>,
    pub(crate) trump: Option<usize>,
    pub(crate) overtrump: Option<usize>,
    /// `must beat`: its place in the ladder, when it holds in this game.
    pub(crate) beat: Option<usize>,
    /// The contract these settings were worked out for, with its attributes' values: `None` before the
    /// auction (the settings every game starts with).
    pub(crate) contract: Option<ContractValues>,
    /// Where a setting that applies after the auction reads the contract (`Ruleset::reads_contract`):
    /// the settings once each contract is known, one per contract. Empty otherwise.
    pub(crate) after_auction: Vec<std::sync::Arc<Settings>>,
}

/// A contract's name and its attributes' values, as the settings after the auction read them.
pub(crate) type ContractValues = (Arc<str>, Vec<(String, Value)>);

/// Where the Fool played to the last trick goes (the fool's `last_trick`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FoolLast {
    ChangesSide,
    Winner,
    Keep,
}

/// A ruleset's settings with its default options, at each size of table, once worked out.
#[derive(Clone, Default)]
pub struct Defaults([DefaultsAt; MAX_PLAYERS + 1]);

type DefaultsAt = std::sync::OnceLock<Result<std::sync::Arc<Settings>, String>>;

impl Defaults {
    pub(crate) fn at_table(&self, n: usize) -> Option<&DefaultsAt> {
        self.0.get(n)
    }
}

/// The table sizes worked out so far, not the settings themselves.
impl std::fmt::Debug for Defaults {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries((0..self.0.len()).filter(|&n| self.0[n].get().is_some())).finish()
    }
}

#[derive(Clone, Debug)]
pub struct Let {
    pub name: Arc<str>,
    pub expr: Expr,
    pub clause: Clause,
    /// A score `let` that reads `player` (itself or through another score `let`): worked out for
    /// each player, where `standing` and `winner` read it.
    pub per_player: bool,
}

#[derive(Clone, Debug)]
pub struct Pack {
    pub cards: CardSet,
    pub suit_names: [String; 4],
    /// Indexed by rank 1..=14; index 0 unused.
    pub rank_names: [String; 15],
    pub fool_name: String,
    /// Trump names in messages (`trump-name T40 "the Trumpet"`), by number; empty for `T{n}`.
    pub trump_names: Vec<String>,
    /// Other codes records may write for a card of this pack (`code SK = T22`; `fool "the Sküs"
    /// trump` makes `EX` one): a record is read with them, verdicts give the card's own code.
    pub aliases: Vec<(String, Card)>,
    /// Trumps of equal strength where the one played later wins (`tie ... "later-wins"`).
    pub later_wins: CardSet,
    /// Strength of each card within its suit (higher beats lower); trumps by number unless a
    /// `trump-order` says otherwise, tied trumps equal.
    pub strength: [u8; PACK_SIZE],
    /// Suits whose numerals may be reversed, and the condition (usually an option) that reverses them.
    pub reversible: Option<(Vec<u8>, Expr, Clause)>,
    /// Orders of the trumps, high to low, that follow options (`trump-order CARDS = condition`): the
    /// first whose condition holds for a game replaces `strength`'s order of the trumps there.
    pub trump_orders: Vec<(Vec<Card>, Expr, Clause)>,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct Class {
    pub name: String,
    pub label: Option<String>,
    pub cards: CardSet,
    pub clause: Clause,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Surplus {
    /// Fractions are kept (half points in French Tarot).
    Exact,
    /// Each pile's total is rounded to the nearest point.
    Nearest,
    /// Cards are laid out in packets as the source describes; a short last packet counts as if padded
    /// with empties when it holds more than half a packet, and otherwise each card in it is worth its
    /// value less one (an empty nothing).
    Packets,
}

/// `match { deals = N; target = N }`: a match of several deals, evaluated over a table's deals in order
/// by `matches::match_state`. It is over after `deals` deals that were played to the end (an annulled
/// deal is dealt again and does not count), or after the deal in which a player's running total
/// reaches `target`, whichever comes first; its winners are the players with the highest total then.
#[derive(Clone, Debug)]
pub struct Match {
    /// `deals = N`: how many deals make the match (a setup formula, so an option may choose).
    pub deals: Option<(Expr, Clause)>,
    /// `target = N`: the running total that ends the match (a setup formula).
    pub target: Option<(Expr, Clause)>,
    pub clause: Clause,
}

/// How `surplus packets` counts a short last packet (`short-packet WORD` in `counting`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShortPacket {
    /// `over-half` (the default, Marolles): over half a packet counts as if padded with empties;
    /// otherwise each counter in it is worth its value less one, an empty nothing.
    OverHalf,
    /// `sum-less-one` (Troccas' Skat, Berther §3): a short packet counts as a full one, its counters'
    /// sum less one for each counter after the first, or 1 when it holds none.
    SumLessOne,
}

#[derive(Clone, Debug)]
pub struct Counting {
    pub group: u32,
    /// A counter's whole value in a group (5 for a king), 0 for an empty card.
    pub values: [u8; PACK_SIZE],
    /// The same values as sets: the cards worth each value above 0, so that a pile is counted with a
    /// few mask operations rather than card by card.
    pub counters: Vec<(u8, CardSet)>,
    /// `empty 0`: cards no counter lists are worth nothing, the others their value, card by card
    /// (with groups of one).
    pub empty_zero: bool,
    /// Counters whose cards follow options (`counter 5 = if option.x == "y" then T1 else none`):
    /// their value, the setup formula that gives the cards, and where it is written. Each game adds
    /// them to `values` when its options are known (`Settings::counting`).
    pub by_option: Vec<(u8, Expr, Clause)>,
    /// `group = formula`: a group size that follows options (Galician Tarok counted singly, or in
    /// threes as the 1821 Tappen with 42 cards): the setup formula and where it is written. Each game
    /// sets `group` from it when its options are known (`Settings::counting`); `group` holds the
    /// default options' size.
    pub group_by_option: Option<(Expr, Clause)>,
    pub surplus: Surplus,
    /// How a short last packet counts (only with `surplus packets`).
    pub short_packet: ShortPacket,
    pub clause: Clause,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sides {
    /// A taker (with a called partner, if any) against the defence.
    Taker,
    /// Every player for himself.
    Each,
    /// Fixed partners sitting opposite each other (an even number of players).
    Partners,
}

#[derive(Clone, Debug)]
pub struct Deal {
    pub hand: Expr,
    pub dealer: Option<Expr>,
    pub dog: Option<Expr>,
    /// The cut card (the pack's bottom card, which goes to the dealer) is shown and recorded: the
    /// statement that says so.
    pub cut: Option<Clause>,
    /// Piles on the table before each player (how many, and cards in each), played from the top as
    /// if in hand; the next card is turned up when the top is played (the two-player game).
    pub piles: Option<(Expr, Expr)>,
    /// How the cards go round, when a record gives the order of the deal: the size of each player's
    /// packets (a number: all of that size; a list: round by round), from first hand round to the
    /// dealer; `dealer_packets` for the dealer's, when they differ.
    pub packets: Option<(Expr, Clause)>,
    pub dealer_packets: Option<(Expr, Clause)>,
    /// The dog's cards are dealt this many at a time, between the players' packets.
    pub dog_packets: Option<(Expr, Clause)>,
    /// So many cards at each end of the pack may not go to the dog.
    pub dog_apart: Option<(Expr, Clause)>,
    /// The dog's packets are dealt together, after this many rounds of the players' packets (Tapp
    /// Tarock: after the first round).
    pub dog_after: Option<(Expr, Clause)>,
    /// Conditions the deal must meet once dealt (`require "label" = condition`), in order: rule
    /// `deal.require.N`. They read the match so far (`carried(p)`): who may ask for what.
    pub requires: Vec<(String, Expr, Clause)>,
    /// Who deals the table's next deal (`next_dealer`): read across a session's deals
    /// (`matches::next_follows`), never within one.
    pub next_dealer: Option<(Choice<NextDealer>, Clause)>,
    /// Who deals after an annulled deal, where not as after the others (`next_dealer_annulled`).
    pub next_dealer_annulled: Option<(Choice<NextDealer>, Clause)>,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct Annulment {
    pub name: String,
    pub label: String,
    pub when: Expr,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct Bidding {
    pub turns: Turns,
    pub turns_clause: Clause,
    pub contracts: Vec<Contract>,
    pub all_pass: Option<Clause>,
    /// `all-pass play CONTRACT`: when everyone passes, this contract (by index) is played, each for
    /// himself, with no taker; it cannot be bid.
    pub all_pass_play: Option<usize>,
    /// `all-pass play CONTRACT by "who" = condition`: when everyone passes, tried in the order
    /// written, before `all_pass`/`all_pass_play`: the first player in turn from first hand whose hand
    /// as dealt meets a condition becomes the taker of its contract, as if he had won the auction.
    pub all_pass_by: Vec<AllPassBy>,
    pub reserve: Option<Reserve>,
    /// `hold forehand`: forehand may bid the contract another player holds, and so take it over;
    /// every other bid must be higher (the Tarock games' hold).
    pub hold: Option<Clause>,
    /// `hold seniority` (a constant) or `hold = formula of options`: the hold's kind, "forehand" or
    /// "seniority" (each player may bid the contract a player later in turn from first hand holds);
    /// `None` is `hold forehand`. Each game reads it once (`Settings::hold_seniority`).
    pub hold_by: Option<Choice<Hold>>,
    /// `no-reraise`: a player whose bid was outbid may only pass afterwards.
    pub no_reraise: Option<Clause>,
    /// `must-bid CONTRACT "label" = condition`: a player whose hand as dealt meets the condition may
    /// neither pass nor bid lower while that contract is open to him.
    pub must_bid: Vec<MustBid>,
    /// `first-turn CONTRACT ...`: contracts (by index) a player may bid only the first time he
    /// speaks (rule `bidding.first-turn`).
    pub first_turn: Option<(Vec<usize>, Clause)>,
    /// `step CONTRACT ...`: contracts (by index, lowest first) of which one held may be outbid only
    /// by the next (rule `bidding.step`).
    pub step: Option<(Vec<usize>, Clause)>,
    /// `instead WON CHOSEN "label" = condition`: the winner of the auction with WON, whose hand as
    /// dealt meets the condition, may play CHOSEN in its place, each for himself (rule
    /// `bidding.instead.CHOSEN`; TG42's Trischaken, declared by eldest who won with a Single).
    pub instead: Vec<Instead>,
    /// `raise WON [except C ... | to C ...] "label" = condition`: the winner of the auction with WON,
    /// whose hand as dealt meets the condition, names once more the contract he plays, WON or one of
    /// `to`, played with him as taker (rule `bidding.raise.WON`; Königrufen's forehand, the other
    /// three having passed his "Vorhand"). At most one per contract won.
    pub raise: Vec<Raise>,
}

/// A raise of the contract won at the winner's last word (`raise`): the contracts he may name in
/// its place, each played as if he had won the auction with it (its talon, call and discard).
#[derive(Clone, Debug)]
pub struct Raise {
    /// The contract won (by index), and the contracts (by index, lowest first) he may raise it to.
    pub won: usize,
    pub to: Vec<usize>,
    pub label: String,
    /// A condition on the winner's hand as dealt (`hand` context: `player` is the winner).
    pub when: Expr,
    pub clause: Clause,
}

/// A contract the auction's winner may choose in place of the one he won (`instead`): played with no
/// taker, every player for himself, the dog counting for nobody; nobody bids it.
#[derive(Clone, Debug)]
pub struct Instead {
    /// The contract won (by index) that may be exchanged, and the contract chosen in its place.
    pub won: usize,
    pub chosen: usize,
    pub label: String,
    /// A condition on the winner's hand as dealt (`hand` context: `player` is the winner).
    pub when: Expr,
    pub clause: Clause,
}

/// A bid the hand forces (`must-bid`): rule `bidding.must-bid.CONTRACT`.
#[derive(Clone, Debug)]
pub struct MustBid {
    /// The contract, by index: the least the player must bid.
    pub contract: usize,
    pub label: String,
    /// A condition on the hand (`hand` context), as dealt.
    pub when: Expr,
    pub clause: Clause,
}

/// Who speaks when in the bidding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turns {
    /// Each player speaks once, in turn, outbidding or passing (then a second round for those who
    /// reserved, if the ruleset has a reserving bid).
    Once,
    /// Bidding with immediate hold: a player who is outbid answers at once, outbidding in turn or
    /// leaving; when one of the two leaves, the next player who has not spoken challenges the one who
    /// stayed. A player who passes is out.
    UntilOneLeft,
    /// Round and round from first hand: each player in turn outbids or passes, and a player who
    /// passes is out; the one holding the best bid is skipped. The bidding ends when nobody is left
    /// to outbid him (or everyone has passed).
    Rounds,
}

/// A bid that commits to no contract but reserves the right to speak in a second round (the parole of
/// seed 003), where the player may choose among `contracts` (a formula: a list of contract names).
#[derive(Clone, Debug)]
pub struct Reserve {
    pub name: String,
    pub label: String,
    pub contracts: Expr,
    pub clause: Clause,
}

/// The taker calls a card before the dog is shown; its holder is his secret partner.
#[derive(Clone, Debug)]
pub struct Call {
    /// The ranks that may be called, in order: the first, or the next when the taker holds all of the
    /// ones before (kings, then queens, cavaliers, jacks).
    pub levels: Vec<CardSet>,
    pub clause: Clause,
    /// The cards the first lead may not be, given the called card (`called` in the formula): the
    /// called suit but the called card itself, at the FFT.
    pub opening_lead_excludes: Option<(Expr, Clause)>,
    /// `callable-levels = N`, a setup formula: only the first N levels may be called, and a taker who
    /// holds every card of them calls nothing and plays alone (seed 003: "A taker with all kings,
    /// queens and knights must play alone"). Without it, every level may be called.
    pub callable_levels: Option<(Expr, Clause)>,
}

#[derive(Clone, Debug)]
pub struct Contract {
    pub name: String,
    pub label: String,
    pub attrs: Vec<(String, Expr)>,
    /// `dog = "taker" | "taker-unseen" | "defence"`: what becomes of the dog (also among `attrs`).
    pub dog: Choice<DogUse>,
    pub clause: Clause,
    /// `by "who" = condition`: only a player who meets the condition (`hand` context, `player` the
    /// bidder, his hand as dealt) may bid the contract; rule `bidding.contract.NAME.by`.
    pub by: Option<By>,
    /// `settle = amount`: when the auction is won with this contract the deal ends unplayed, and each
    /// opponent pays the taker the amount (a setting after the auction; negative: he pays each of
    /// them); rule `bidding.contract.NAME.settle`.
    pub settle: Option<(Expr, Clause)>,
    /// `require "label" = condition`: what the contract asks of its taker once the announcements are
    /// closed (`allowed` context, `player` the taker, `hand` his hand then), checked before the first
    /// card of play; the first false one breaks `bidding.contract.NAME.require.1`, `.2`, ... (the
    /// Besserrufer's bird, announced compulsorily and held before the talon).
    pub requires: Vec<(String, Expr, Clause)>,
}

/// A player the rules name to play a contract as taker when everyone passes (`all-pass play
/// CONTRACT by "who" = condition`).
#[derive(Clone, Debug)]
pub struct AllPassBy {
    /// The contract he plays, by index.
    pub contract: usize,
    /// Who he is, in words ("the holder of the Fool").
    pub label: String,
    /// A condition on a player's hand as dealt, as a contract's `by` reads it.
    pub when: Expr,
    pub clause: Clause,
}

/// Who may bid a contract (`by` in the contract's block): its label ("forehand"), the condition on
/// the bidder and his hand as dealt, and the rule.
#[derive(Clone, Debug)]
pub struct By {
    pub label: String,
    pub when: Expr,
    pub clause: Clause,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DogUse {
    /// Shown, taken into the taker's hand; the taker discards as many cards.
    Taker,
    /// Unseen, counts for the taker.
    TakerUnseen,
    /// Unseen, counts for the defence.
    Defence,
}

#[derive(Clone, Debug)]
pub struct Discard {
    pub taker: Option<Expr>,
    pub dealer: Option<Expr>,
    pub others: Option<Expr>,
    pub clause: Clause,
    /// Cards that may never be discarded: a violation.
    pub forbid: Vec<CardClass>,
    /// Cards that may be discarded only when nothing else can, and are then shown.
    pub unless_unavoidable: Option<CardClass>,
    /// Cards whose discard is paid for rather than forbidden: the amount each opponent receives, and
    /// the clause that sets it.
    pub penalize: Option<(CardClass, Expr, Clause)>,
    /// `require "label" = condition`: conditions over the discard (`discarded`), the hand left
    /// (`hand`) and the dog, checked in order; rule `discard.require.N`.
    pub requires: Vec<(String, Expr, Clause)>,
    /// `goes-to = formula`, evaluated at scoring for each discarder (`player`): "discarder" (the
    /// default) or "opponents" (the next opponent in the order of play takes the discard).
    pub goes_to: Option<(Choice<GoesTo>, Clause)>,
    /// `forbid "label" = formula of options`: the index in `forbid` of each class whose cards follow
    /// options, and the setup formula that gives them (`forbid` holds the default options' cards).
    pub forbid_by_option: Vec<(usize, Expr)>,
}

/// The pack compiled the other way where the Fool is a trump by an option: the condition (over
/// options only), and the whole ruleset with the Fool a trump if the condition's default choice makes
/// it the Excuse, or the Excuse if it makes it a trump.
#[derive(Clone, Debug)]
pub struct FoolVariant {
    pub when: Expr,
    pub rules: Box<Ruleset>,
    pub clause: Clause,
    /// A choice of the options that makes the pack the other one (the options that differ from their
    /// defaults, by name): what descriptions and statistics name.
    pub other_way: BTreeMap<String, OptionValue>,
}

/// Buying a card (Droggn's Simple): after the exchange the taker calls any card he does not hold;
/// its holder gives it to him and takes back a card of the taker's hand (event `buy`). Its setting
/// applies after the auction, so it may read the contract.
#[derive(Clone, Debug)]
pub struct Buy {
    /// `cards = N`: how many cards the taker may buy, one `buy` event each (0: none).
    pub cards: Expr,
    pub clause: Clause,
}

/// The talon (the dog) shown in packets, of which the taker takes one when his contract's dog is
/// `"taker"` (Tapp Tarock's halves, Königrufen's six packets); the others go to the defence or to
/// the taker's pile. Its settings apply after the auction, so they may read the contract.
#[derive(Clone, Debug)]
pub struct Talon {
    /// `packets = N`: how many packets, cut in the order the deal lists the dog; 1 gives the whole dog.
    pub packets: Expr,
    /// `rest = "defence" | "taker"`: where the packets not taken go (default the defence); where
    /// its conditions read the game (`packet`, `called`, the sides), it is read for each packet as
    /// the packet goes, and it also sends the packets of a talon not taken (a contract whose `dog`
    /// is `"defence"`).
    pub rest: Option<(Choice<TalonRest>, Clause)>,
    /// Whether `rest` reads the game, and so is read packet by packet.
    pub rest_per_packet: bool,
    /// `discard = "after" | "before"`: whether the taker discards after taking the talon (the
    /// default) or before he sees it.
    pub discard: Option<Choice<TalonDiscard>>,
    /// `split = N`: the taker lays away N of the cards he owes (`discard { taker }`) before he sees
    /// the talon, in a first `discard` event, and the rest once it has come to him, in a second
    ///; rule `talon.split`.
    pub split: Option<(Expr, Clause)>,
    /// `given = K`: the taker gets the Kth packet, in the order the deal lists the dog, with no
    /// choice (0: his choice); rule `talon.given` (the 1821 Dreyer's top three).
    pub given: Option<(Expr, Clause)>,
    /// `unseen`: the talon is not turned up, and the taker never shows the cards he took from it
    /// before the hand's end; rule `talon.unseen`.
    pub unseen: Option<Clause>,
    pub clause: Clause,
}

/// Stealing from the stock (Minchiate's *rubare*): after the deal, the cutter and then the dealer take
/// cards that may be stolen from the head of the stock, in the order the deal event lists it, each in
/// a `take` event, and each then lays away as many cards from his hand (a `discard`), which go to the
/// stock, out of play. Rule `steal`.
#[derive(Clone, Debug)]
pub struct Steal {
    /// `cards "label" = cards`: what may be stolen.
    pub cards: CardClass,
    /// `cutter = "some"`: the cutter (the player before the dealer) may take the stock's first cards,
    /// as many as he likes while each may be stolen; he takes nothing when no `take` is recorded.
    pub cutter: Option<(StealHow, Clause)>,
    /// `dealer = "all"` (or `"some"`): the dealer then takes the cards that follow.
    pub dealer: Option<(StealHow, Clause)>,
    pub clause: Clause,
}

/// Sitting out by choice (Minchiate's four-player table, M4): after the deal and the steals, before the
/// first declaration or card, one player may sit the deal out (a `sit-out` event); the players before
/// him in turn from first hand are taken to have chosen to play. His hand is out of play, tricks have
/// one card fewer and the turn passes him by; he pays `fee[place]` (place 0 for first hand) to the
/// winner of the last trick. Rule `sit-out-by-choice`.
#[derive(Clone, Debug)]
pub struct SitOutChoice {
    /// `allowed = condition`: at which tables anyone may (Setup context); absent, at every table.
    pub allowed: Option<(Expr, Clause)>,
    /// `fee = [first hand's, second's, ...]`: the fee by place in turn; a player past the list may not.
    pub fee: Expr,
    pub fee_clause: Clause,
    pub clause: Clause,
}

/// How much of the head of the stock a stealer takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StealHow {
    /// Any number of its first cards (none, one, ...), each one that may be stolen.
    Some,
    /// Every card while they may be stolen, stopping at the first that may not.
    All,
}

#[derive(Clone, Debug)]
pub struct CardClass {
    pub cards: CardSet,
    pub label: String,
    pub clause: Clause,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum When {
    /// Before the first card is played (Marolles' declarations).
    BeforePlay,
    /// After the discard, before play (an announced chelem).
    AfterDiscard,
    /// Just before the declarer plays his first card (poignée).
    FirstPlay,
    /// Once the deal is done, before any other move (bid, discard, card): the dealer who has not
    /// taken his last cards yet (Tarocchini's call on his first 15, `dealt(player, 15)`).
    AfterDeal,
    /// Once the last trick is played: a claim at the hand's end (the 1821 honours, ATT1821 §49), from
    /// the cards the player held before his discard.
    AfterPlay,
    /// Once the talon is shown in packets (after the auction and any call), before the taker takes
    /// his packet: the declarer who sees the called king in the talon and gives up (Königrufen's
    /// Schleifen).
    BeforeTake,
}

/// Who may make a declaration (`by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeclaredBy {
    /// Any player, each once (the default).
    Any,
    /// The taker alone (an announced chelem).
    Taker,
    /// The taker or his partner.
    Attack,
    /// A player of the defence (a Kontra).
    Defence,
    /// Any player, but each side once: a player whose side has made it may not make it again.
    AnySide,
}

/// One condition under which a declaration may be made (`allowed "reason" = condition`).
#[derive(Clone, Debug)]
pub struct Allowed {
    /// What the condition asks, in words (`"not by one who passed up the Dreier"`); without one, a
    /// refusal names the contract.
    pub reason: Option<Arc<str>>,
    pub condition: Expr,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct DeclarationKind {
    pub name: String,
    pub label: Arc<str>,
    pub when: When,
    pub by: DeclaredBy,
    /// `allowed ["reason"] = condition`, each of them: read when the declaration is made, after the
    /// auction (they may read the contract's attributes); a declaration made where one is false breaks
    /// `declaration.NAME.allowed`, and its reason (else the contract) says why.
    pub allowed: Vec<Allowed>,
    /// `keeps = cards`: the declarer must keep these cards (those he holds) until the last trick,
    /// playing one earlier only when he has no other legal card (`declaration.NAME.keeps`).
    pub keeps: Option<(CardSet, Clause)>,
    /// `compulsory`: a player whose hand holds a valid show must make the declaration before its time
    /// runs out (the first card, or his own first card with `when first-play`); the card that closes
    /// it while he has not breaks `declaration.NAME.compulsory` (Grosstarock's declarations).
    pub compulsory: Option<Clause>,
    /// `compulsory = condition of options`: compulsory only in games whose options make it true (the
    /// Leipzig rules of 1754, where an honour not declared is simply not paid); `None` with plain
    /// `compulsory` (always). The compiler has tried every choice of the options it reads.
    pub compulsory_if: Option<Expr>,
    /// `in-turn`: the declarations with this switch (and the same `when`) are made in turn from first
    /// hand: a player declares none of them after a player later in turn has declared one (rule
    /// `declaration.NAME.in-turn`; Grosstarock's "in turn, each player must declare"). A player with
    /// nothing to declare lets his turn pass unrecorded.
    pub in_turn: Option<Clause>,
    /// `in-turn from dealer [= condition of options]`: in games whose options make the condition true
    /// (always without one), the declaration is made in turn as with `in-turn`, the turn starting at
    /// the dealer (the Leipzig rules of 1754: the dealer declares first, then the others); elsewhere
    /// plain `in-turn` (from first hand) rules, if written. Rule `declaration.NAME.in-turn`.
    pub in_turn_from_dealer: Option<(Expr, Clause)>,
    /// `ends-match`: once made, the deal ends at this declaration (valid, scored on what has been
    /// played), and the match ends after it with the declarer's side the winner (Tarocchini's calling
    /// out at 800). Rule `declaration.NAME.ends-match`.
    pub ends_match: Option<Clause>,
    /// `ends-deal`: once made, the deal ends at this declaration unplayed: no move may follow, the
    /// score section (which works on tricks) is not run, and each player's score is his balance of
    /// the payments made (the declaration's own `paid`); the match goes on. Rule
    /// `declaration.NAME.ends-deal`.
    pub ends_deal: Option<Clause>,
    /// `every-card-counts`: each card shown must count, its value dropping (or a requirement failing)
    /// without it (Tarocchini's accusi). Rule `declaration.NAME.every-card-counts`.
    pub every_card_counts: Option<Clause>,
    /// `from hand-and-discard`: the cards shown may be those the declarer laid away as well as those
    /// in his hand, and `hand` in the declaration's formulas is both (Grosstarock's dealer, who still
    /// declares a combination he had to break in his discard). `None`: the hand alone (`from hand`).
    pub from_discard: Option<Clause>,
    pub shows: CardSet,
    pub requires: Vec<(String, Expr, Clause)>,
    pub value: Option<Expr>,
    /// A declaration paid at once (Marolles) is paid by each opponent for whom this holds; `None` for a
    /// declaration that only counts in the score (a poignée).
    pub paid_by: Option<Expr>,
    /// Paid by every other player, partners too (a misère), not only by the declarer's opponents.
    pub paid_by_everyone: bool,
    pub clause: Clause,
}

/// A card that, in the hand of a player for whom `when` holds at the deal, is played like the Excuse
/// (to any trick, whatever the obligations, and leaving the next card to set the suit) but keeps its
/// rank and may win; when it does not, it goes back to its owner for an empty card (seed 003's "Petit
/// imprenable").
#[derive(Clone, Debug)]
pub struct Untouchable {
    pub card: Card,
    pub label: String,
    pub when: Expr,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct FoolRules {
    /// The Fool may be played to any trick instead of obeying.
    pub excuse: Option<Clause>,
    /// "next-card-sets-suit" or "forbidden".
    pub led: Choice<FoolLed>,
    /// "exchange" (its side keeps it and hands the trick's winner an empty card) or "keep".
    pub keep: Choice<FoolKeep>,
    /// Who gets it when played to the last trick: "changes-side", "to-winner" or "keep".
    pub last_trick: Choice<FoolLast>,
    /// Played to the last trick by a side that won every other trick, it wins that trick and stays
    /// with its side: only when it is led (`"led"`, the bare statement) or however it is played
    /// (`"played"`).
    pub slam_wins: Option<Clause>,
    /// `slam_wins = "led" | "played"`, a setup formula; `None` for the bare statement (`"led"`).
    pub slam_wins_when: Option<Choice<FoolSlamWins>>,
    /// "to-winner": a holder who takes no trick gives it to the winner of the trick it was played to.
    pub shut_out: Option<Choice<FoolShutOut>>,
    /// `deadline = N` (a setup formula): the Fool must be played before the last N tricks; its holder
    /// who still has it in the trick before them must play it there, if he may (`fool.deadline`).
    pub deadline: Option<(Expr, Clause)>,
    pub clause: Clause,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerEvent {
    Cut,
    Play,
}

/// A payment made during play: each opponent pays the player `value` marques (negative: the player
/// pays each opponent).
#[derive(Clone, Debug)]
pub struct Trigger {
    pub on: TriggerEvent,
    pub cards: CardSet,
    /// `on play CLASS "label" to pot.NAME = marques`: the player and the pot settle instead (negative:
    /// the player pays the pot).
    pub pot: Option<usize>,
    pub label: Arc<str>,
    pub value: Expr,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct Term {
    pub name: String,
    pub label: Arc<str>,
    pub expr: Expr,
    pub clause: Clause,
}

/// A pot (`pot NAME "label"`): an account that is no player's, carried from deal to deal.
#[derive(Clone, Debug)]
pub struct PotDef {
    pub name: Arc<str>,
    pub label: Arc<str>,
    pub clause: Clause,
}

/// One side of a payment: players (a formula), or a pot, by index.
#[derive(Clone, Debug)]
pub enum Account {
    Players(Expr),
    Pot(usize),
}

#[derive(Clone, Debug)]
pub struct Pay {
    pub from: Account,
    pub to: Account,
    pub amount: Expr,
    /// How the ledger names the payment ("settlement" unless the rule file says).
    pub label: Arc<str>,
    pub clause: Clause,
}

#[derive(Clone, Debug)]
pub struct Score {
    pub lets: Vec<Let>,
    pub terms: Vec<Term>,
    pub pays: Vec<Pay>,
    pub standing: Option<(Expr, Clause)>,
    pub winner: Option<(Expr, Clause)>,
    /// Remarks the verdict makes when their condition holds: where the source is silent.
    pub notes: Vec<(String, Expr, Clause)>,
}

impl Pack {
    /// The pack's trumps (with the Fool, when it is a trump: it is then the card above the top trump).
    pub fn trumps(&self) -> CardSet {
        self.cards.and(CardSet::trumps())
    }
    /// A trump by its name in messages, or `T{n}`.
    pub fn trump_name(&self, c: Card) -> String {
        match c.kind() {
            crate::cards::Kind::Trump(n) => match self.trump_names.get(n as usize) {
                Some(name) if !name.is_empty() => name.clone(),
                _ => format!("T{n}"),
            },
            _ => c.to_string(),
        }
    }
    /// A card code as a record of this pack writes it: the pack's own codes (`code`), then the usual
    /// ones. A code of a card outside the pack is returned too, for the caller to refuse.
    pub fn parse_card(&self, code: &str) -> Option<Card> {
        if !self.aliases.is_empty() {
            let t = code.trim();
            if let Some((_, c)) = self.aliases.iter().find(|(a, _)| a.eq_ignore_ascii_case(t)) {
                return Some(*c);
            }
        }
        Card::parse(code)
    }
}

impl Ruleset {
    /// Whether the dealer sits the deal out at a table of `n`.
    pub fn sits_out(&self, n: usize) -> bool {
        self.sit_out.is_some() && n >= self.sit_out_from
    }

    /// The century of `dated`, counted as historians do: 1637 is in the 17th, 2000 in the 20th.
    pub fn century(&self) -> Option<u16> {
        self.dated.as_ref().map(|(year, _)| year.div_ceil(100))
    }

    pub fn class(&self, name: &str) -> Option<&Class> {
        self.classes.iter().find(|c| c.name == name)
    }

    /// A card in the ruleset's own words: "ace of coins (la Belle)", "T15", "the Excuse".
    pub fn card_name(&self, c: Card) -> String {
        use crate::cards::Kind;
        let base = match c.kind() {
            Kind::Trump(_) => self.pack.trump_name(c),
            Kind::Fool => self.pack.fool_name.clone(),
            Kind::Suited(s, r) => format!("{} of {}", self.pack.rank_names[r as usize], self.pack.suit_names[s as usize]),
        };
        // A class of one card names it ("la Belle", "le Petit").
        match self.classes.iter().find(|k| k.cards == CardSet::single(c) && k.label.is_some()) {
            Some(k) => format!("{base} ({})", k.label.as_deref().unwrap_or_default()),
            None => base,
        }
    }

    pub fn cards_named(&self, set: CardSet) -> String {
        let names: Vec<String> = set.iter().map(|c| self.card_name(c)).collect();
        names.join(", ")
    }

    pub fn source(&self, id: &str) -> Option<&Source> {
        self.sources.iter().find(|s| s.id == id)
    }
}

/// The cards worth each value above 0, as sets (`Counting::counters`), from the table of values.
pub fn counters_of(values: &[u8; PACK_SIZE]) -> Vec<(u8, CardSet)> {
    let mut counters: Vec<(u8, CardSet)> = vec![];
    for card in Card::all() {
        match values[card.0 as usize] {
            0 => {}
            v => match counters.iter_mut().find(|(w, _)| *w == v) {
                Some((_, set)) => set.insert(card),
                None => counters.push((v, CardSet::single(card))),
            },
        }
    }
    counters
}
