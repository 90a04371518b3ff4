//! What a page draws of a replayed game, worked out here so that no page drives the interpreter: each
//! trick's plays and winner, what becomes of the Excuse in it (in words, and the empty card handed
//! back for it), who plays with whom, how the game counts card points, and the dog's count where the
//! contract gives it to one side. The words follow the ruleset's settings for the game's options.

use crate::cards::{Card, CardSet};
use crate::expr::Value;
use crate::ir::{self, Clause, Counting, Ruleset};
use crate::num::Q;
use crate::record::{Event, GameRecord};
use crate::replay::{card_points, counting_for, Game, Setup};
use crate::verdict::{Status, Verdict};

/// A card played: the event that played it, by whom, and the card as the record wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    pub event: usize,
    pub player: String,
    pub card: String,
}

/// The Excuse, or a card played like it, played to a trick its player did not win.
#[derive(Clone, Debug, PartialEq)]
pub struct ExcuseInTrick {
    /// Who played it.
    pub player: String,
    /// The card, by the rules' name for it ("the Excuse", "the Bättler").
    pub card: String,
    /// The rule that sends it there: the `fool` section, an `untouchable` card, a card played as the
    /// Excuse (`play { excuse }`); absent where none of them does (a card a fault gives back).
    pub clause: Option<Clause>,
    /// What becomes of it, in the ruleset's terms ("p played the Excuse: it goes back to p's side, and
    /// p gives w an empty card in exchange."); absent where the rules' words for it are unknown.
    pub words: Option<String>,
    /// The empty card's worth that the Excuse's side hands the trick's winner's side in exchange, where
    /// the rules exchange it (not in the last trick, nor between partners).
    pub exchange: Option<Q>,
}

/// One trick the verdict counts, with the plays that made it.
#[derive(Clone, Debug, PartialEq)]
pub struct TrickDrawing {
    pub number: usize,
    pub leader: String,
    pub winner: String,
    /// The plays in order, from the leader round the table.
    pub plays: Vec<Play>,
    pub excuse: Option<ExcuseInTrick>,
    /// The cards of the trick that do not go to the winner's pile (their codes), and whose pile they
    /// go to, as the verdict says.
    pub not_taken: Vec<(String, String)>,
}

/// The dog (talon) counted for one side under the contract played.
#[derive(Clone, Debug, PartialEq)]
pub struct DogCount {
    /// "the defence", or "the taker, unseen".
    pub whom: &'static str,
    /// The contract's name in the ruleset ("garde contre le chien") and the clause that says so.
    pub contract: String,
    pub clause: Clause,
    pub cards: CardSet,
    pub points: Q,
}

/// Who plays with whom: partners sitting opposite, the taker and his partner against the defence, or
/// each for himself, as the ruleset seats them.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSides {
    kind: Option<ir::Sides>,
    players: Vec<String>,
    attack: Vec<String>,
}

impl GameSides {
    /// The sides of `record` judged by `verdict` under `rules` (absent: by the taker and his partner).
    pub fn new(rules: Option<&Ruleset>, record: &GameRecord, verdict: &Verdict) -> GameSides {
        GameSides { kind: rules.map(|r| r.sides), players: record.players.clone(), attack: attack(record, verdict).into_iter().map(String::from).collect() }
    }

    /// Whether `a` and `b` play on one side (a player with himself too).
    pub fn same_side(&self, a: &str, b: &str) -> bool {
        if a == b {
            return true;
        }
        let seat = |p: &str| self.players.iter().position(|x| x == p);
        match self.kind {
            Some(ir::Sides::Partners) => {
                let half = (self.players.len() / 2).max(1);
                matches!((seat(a), seat(b)), (Some(i), Some(j)) if i % half == j % half)
            }
            Some(ir::Sides::Each) => false,
            _ => !self.attack.is_empty() && self.attack.iter().any(|x| x == a) == self.attack.iter().any(|x| x == b),
        }
    }
}

/// What a page draws of a replayed game; [`draw_game`] makes it.
#[derive(Clone, Debug)]
pub struct GameDrawing {
    pub sides: GameSides,
    /// The tricks the verdict counts.
    pub tricks: Vec<TrickDrawing>,
    /// The plays after them: the trick being played, or the one where the game stopped.
    pub after: Vec<Play>,
    /// How this game counts card points (absent without rules, or where its settings cannot be read).
    pub counting: Option<Counting>,
    /// The dog counted for one side by the contract played, where the game is scored.
    pub dog: Option<DogCount>,
}

impl GameDrawing {
    /// The card points of a pile, counted card by card as this game counts them (0 without a counting).
    pub fn card_points(&self, cards: CardSet) -> Q {
        self.counting.as_ref().map(|c| card_points(c, cards)).unwrap_or(Q::ZERO)
    }

    /// The cards each side has taken after the first `n` tricks, by the first of its players to take
    /// one: each trick to its winner's side but the cards the verdict sends elsewhere (the Excuse kept
    /// by its player's side where the rules say so, a card played like it, a card a fault gives back).
    pub fn taken_after(&self, rules: &Ruleset, n: usize) -> Vec<(String, CardSet)> {
        let mut taken: Vec<(String, CardSet)> = vec![];
        for trick in self.tricks.iter().take(n) {
            for play in &trick.plays {
                let Some(c) = rules.pack.parse_card(&play.card) else { continue };
                let owner = trick.not_taken.iter().find(|(code, _)| *code == play.card).map_or(&trick.winner, |(_, to)| to);
                match taken.iter_mut().find(|(q, _)| self.sides.same_side(q, owner)) {
                    Some((_, set)) => set.insert(c),
                    None => taken.push((owner.to_string(), CardSet::single(c))),
                }
            }
        }
        taken
    }
}

/// What a page draws of `record` judged by `verdict` under `rules` (the pack the game's options
/// choose), absent when the registry has no such ruleset.
pub fn draw_game(rules: Option<&Ruleset>, record: &GameRecord, verdict: &Verdict) -> GameDrawing {
    let sides = GameSides::new(rules, record, verdict);
    let setup = rules.and_then(|r| Setup::new(r, record.players.len(), &record.options).ok());
    let game = setup.as_ref().map(|s| Game::new(s, &record.players, 0));
    let word = |e: &crate::expr::Expr| match game.as_ref()?.constant(e) {
        Some(Value::Str(s)) => Some(s.to_string()),
        _ => None,
    };
    let counting = rules.zip(game.as_ref()).and_then(|(r, g)| counting_for(&r.counting, &|e| g.constant(e).ok_or_else(|| "needs a game".to_string())).ok());
    let keep = rules.and_then(|r| word(&r.fool.keep.expr()));
    let last_rule = rules.and_then(|r| word(&r.fool.last_trick.expr()));
    let plays: Vec<Play> = record
        .events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| if let Event::Play { player, card } = e { Some(Play { event: i, player: player.to_string(), card: card.to_string() }) } else { None })
        .collect();
    let the_fool = rules.map_or("the Excuse", |r| r.pack.fool_name.as_str());
    let parse = |code: &str| rules.map_or_else(|| Card::parse(code), |r| r.pack.parse_card(code));
    let is_fool = |code: &str| parse(code).is_some_and(|c| c.is_fool());
    // Each trick's plays, found by its cards: a lead of several cards at once (`lead-together`)
    // interleaves the plays of the tricks it begins.
    let mut used = vec![false; plays.len()];
    let mut tricks = vec![];
    for (t, trick) in verdict.tricks.iter().enumerate() {
        let mut these = vec![];
        for &card in trick.cards.iter() {
            if let Some(i) = (0..plays.len()).find(|&i| !used[i] && parse(&plays[i].card) == Some(card)) {
                used[i] = true;
                these.push(plays[i].clone());
            }
        }
        let last = t + 1 == verdict.tricks.len();
        let not_taken: Vec<(String, String)> = trick.not_taken.iter().map(|x| (x.code.clone(), x.to.to_string())).collect();
        let empty_card = || counting.as_ref().map(|c| Q::new(if c.empty_zero { 0 } else { 1 }, c.group as i64));
        // A card played like the Excuse (an untouchable card, `play { excuse }`) that goes back to its
        // player's side: the verdict says where it goes and whether an empty card is given for it.
        let like_excuse = trick.not_taken.iter().filter(|x| !is_fool(&x.code)).find_map(|x| {
            let play = these.iter().find(|p| p.card == x.code && p.player != *trick.winner)?;
            let name = rules.and_then(|r| r.pack.parse_card(&x.code).map(|c| r.card_name(c))).unwrap_or_else(|| x.code.clone());
            let (p, w, to) = (&play.player, &trick.winner, &x.to);
            let words = if x.for_empty_card {
                format!("{p} played {name}: it goes to {to}'s pile, and {to} gives {w} an empty card in exchange.")
            } else {
                format!("{p} played {name}: it goes to {to}'s pile, not to {w}, who won the trick.")
            };
            let clause = rules.and_then(|r| {
                let c = r.pack.parse_card(&x.code)?;
                let untouchable = r.untouchable.as_ref().filter(|u| u.card == c).map(|u| &u.clause);
                untouchable.or_else(|| r.play.excuses.iter().find(|e| e.cards.contains(c)).map(|e| &e.clause)).cloned()
            });
            Some(ExcuseInTrick { player: p.clone(), card: name, clause, words: Some(words), exchange: x.for_empty_card.then(empty_card).flatten() })
        });
        let excuse = these.iter().find(|p| is_fool(&p.card)).filter(|p| *p.player != *trick.winner).map(|fool| {
            let p = &fool.player;
            let w = &trick.winner;
            let words = match (&keep, &last_rule) {
                (Some(keep), Some(last_rule)) => Some(if last && verdict.status == Status::Valid {
                    match last_rule.as_str() {
                        "changes-side" => format!("{p} played {the_fool} to the last trick: it goes to the other side (the rules: in the last trick it changes side)."),
                        "to-winner" => format!("{p} played {the_fool} to the last trick: it goes to {w}, who won the trick."),
                        _ => format!("{p} played {the_fool} to the last trick and keeps it."),
                    }
                } else if keep == "exchange" && !sides.same_side(p, w) {
                    format!("{p} played {the_fool}: it goes back to {p}'s side, and {p} gives {w} an empty card in exchange.")
                } else if keep == "exchange" {
                    format!("{p} played {the_fool}: it stays on {p}'s side, which won the trick; nothing is exchanged.")
                } else {
                    format!("{p} played {the_fool} and keeps it, with no card in exchange.")
                }),
                _ => None,
            };
            let exchange = counting
                .as_ref()
                .filter(|_| keep.as_deref() == Some("exchange") && !last && !sides.same_side(p, w))
                .map(|c| Q::new(if c.empty_zero { 0 } else { 1 }, c.group as i64));
            ExcuseInTrick { player: p.clone(), card: the_fool.to_string(), clause: rules.map(|r| r.fool.clause.clone()), words, exchange }
        });
        let excuse = excuse.or(like_excuse);
        tricks.push(TrickDrawing { number: trick.number, leader: trick.leader.to_string(), winner: trick.winner.to_string(), plays: these, excuse, not_taken });
    }
    let after = plays.iter().zip(&used).filter(|(_, &u)| !u).map(|(p, _)| p.clone()).collect::<Vec<_>>();
    let dog = rules.zip(game.as_ref()).zip(counting.as_ref()).and_then(|((r, g), counting)| {
        let contract = verdict.outcome.as_ref()?.contract.as_deref()?;
        let k = r.bidding.as_ref()?.contracts.iter().find(|k| k.name == contract)?;
        let (_, e) = k.attrs.iter().find(|(n, _)| n == "dog")?;
        let whom = match g.constant(e)? {
            Value::Str(s) if &*s == "defence" => "the defence",
            Value::Str(s) if &*s == "taker-unseen" => "the taker, unseen",
            _ => return None,
        };
        let cards: CardSet =
            record.events.iter().find_map(|e| if let Event::Deal { dog, .. } = e { Some(dog.iter().filter_map(|c| r.pack.parse_card(c)).collect()) } else { None })?;
        (!cards.is_empty()).then(|| DogCount { whom, contract: k.label.clone(), clause: k.clause.clone(), cards, points: card_points(counting, cards) })
    });
    GameDrawing { sides, tricks, after, counting, dog }
}

/// The taker and his partner: as the score says, or, in a game not yet scored, the last to bid and
/// the holder of the card he called.
fn attack<'a>(record: &'a GameRecord, verdict: &'a Verdict) -> Vec<&'a str> {
    if let Some(o) = verdict.outcome.as_ref().filter(|o| o.taker.is_some()) {
        return o.taker.iter().chain(o.partner.iter()).map(|p| &**p).collect();
    }
    let taker = record.events.iter().rev().find_map(|e| match e {
        Event::Bid { player, bid } if bid != "pass" => Some(player.as_str()),
        _ => None,
    });
    let called = record.events.iter().find_map(|e| if let Event::Call { card, .. } = e { Card::parse(card) } else { None });
    let partner = record.events.iter().find_map(|e| match (e, called) {
        (Event::Deal { hands, .. }, Some(c)) => hands.iter().find(|(_, h)| h.iter().any(|x| Card::parse(x) == Some(c))).map(|(p, _)| p.as_str()),
        _ => None,
    });
    taker.into_iter().chain(partner.filter(|p| Some(*p) != taker)).collect()
}
