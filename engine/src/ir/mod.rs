//! The compiled rules: what the compiler produces from a rule file and the interpreter runs. Every
//! clause keeps where it came from (`Clause`), so a verdict can cite the rule and its source.
//!
//! Nothing here names a variant: the three families of the sources differ only in the values below.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::cards::{Card, CardSet, PACK_SIZE};
use crate::expr::{Expr, Value};

mod bidding;
mod deal;
mod declarations;
mod exchange;
mod option_value;
mod pack;
mod play;
mod score;
mod words;
pub use bidding::*;
pub use deal::*;
pub use declarations::*;
pub use exchange::*;
pub use option_value::*;
pub use pack::*;
pub use play::*;
pub use score::*;
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
    /// The players at the table, one who sits the deal out included (`n` counts those who play).
    pub table: usize,
    pub(crate) options: Vec<Value>,
    /// The top-level `let`s' values at this table, each an error where its formula fails here
    /// (`LetValue`).
    pub(crate) constants: Vec<LetValue>,
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
    /// how the cards go round: one order, or several that the dealer chooses among (`packets =
    /// [[5, 6], [6, 5]]`); empty when the rules give none. The dog's packet size and the cards at
    /// each end kept from the dog.
    pub(crate) packets: Vec<(Vec<usize>, Vec<usize>)>,
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

/// A `let`'s value in one game, or, where its formula fails in that game, why (`Let::failed`). A
/// failed `let` is no error by itself: only a formula that reads it, once evaluated, fails with this.
pub(crate) type LetValue = Result<Value, Arc<str>>;

impl Let {
    /// Why this `let` has no value (`e`, its formula's error, for `whom` where it is worked out for
    /// each player): the `let` named with its clause, said where a formula reads it. Where it has
    /// none because it reads another `let` that has none (`e` is that one's reason), the chain is
    /// said once: "`half` (...) has no value in this game: it reads `share` (...), which has none:
    /// division by zero", and a longer chain "it reads `b` (...), which reads `a` (...), which has
    /// none: ...".
    pub(crate) fn failed(&self, whom: Option<&str>, e: &str) -> Arc<str> {
        let whom = whom.map(|w| format!(" for {w}")).unwrap_or_default();
        let because = match read_failed(e) {
            Some((read, rest)) => match rest.strip_prefix("it reads ") {
                Some(further) => format!("it reads {read}, which reads {further}"),
                None => format!("it reads {read}, which has none: {rest}"),
            },
            None => e.to_string(),
        };
        format!("`{}` ({}, {}) has no value{whom} in this game: {because}", self.name, self.clause.rule, self.clause.at).into()
    }
}

/// A reason given by `Let::failed`, taken apart: the `let` it names with its clause (and the player,
/// if any), and why it has no value. `None` for any other error.
fn read_failed(e: &str) -> Option<(&str, &str)> {
    if !e.starts_with('`') {
        return None;
    }
    let named = e.find(") has no value")? + 1;
    let rest = &e[named..];
    let why = rest.find(" in this game: ")? + " in this game: ".len();
    Some((&e[..named], &rest[why..]))
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

    /// The game's word for the cards dealt aside: "dog" unless the deal names it (`dog_name`).
    pub fn dog_word(&self) -> &str {
        self.deal.dog_name.as_ref().map_or("dog", |(w, _)| w.as_str())
    }

    /// "the dog", "the Blinde", "the stock": the dog in the ruleset's own word.
    pub fn the_dog(&self) -> String {
        format!("the {}", self.dog_word())
    }

    /// "the talon" where the rules name no word of their own, else the same as `the_dog`: the
    /// words for the talon's packets, shown, taken and laid away against.
    pub fn the_talon(&self) -> String {
        format!("the {}", self.talon_word())
    }

    /// "talon" where the rules name no word of their own, else the same as `dog_word`.
    pub fn talon_word(&self) -> &str {
        self.deal.dog_name.as_ref().map_or("talon", |(w, _)| w.as_str())
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
