//! What a formula of the rules sees during a game (`GameEnv`): the game's facts (taker, tricks,
//! the hand in question...), the game functions (`points`, `won`, `declared`...) and the values
//! the score has computed so far.

use std::sync::Arc;

use crate::cards::{Card, CardSet};
use crate::expr::{eval, too_large, Env, Expr, Fact, Func, Value};
use crate::ir::LetValue;
use crate::num::Q;

use super::{Game, Plays, SetupEnv, Trick, NO_DEAL_ORDER};

impl<'s, 'r> Game<'s, 'r> {
    pub(super) fn env(&self, player: Option<u8>) -> GameEnv<'_, 's, 'r> {
        GameEnv {
            game: self,
            player,
            hand: None,
            shown: None,
            decl_value: None,
            best_value: None,
            card: None,
            last: false,
            won: false,
            payer: None,
            payee: None,
            scoring: false,
            total: None,
            discarded: None,
            packet: None,
            lets: vec![],
            pots: self.pots.clone(),
        }
    }

    /// The value of a formula that needs no player, hand or game state (options, constants, card
    /// classes); `None` when it does need one.
    pub fn constant(&self, e: &Expr) -> Option<Value> {
        eval(e, &self.env(None)).ok()
    }
}

/// The facts a formula sees, for one evaluation.
pub struct GameEnv<'g, 's, 'r> {
    pub(super) game: &'g Game<'s, 'r>,
    pub(super) player: Option<u8>,
    pub(super) hand: Option<CardSet>,
    pub(super) shown: Option<CardSet>,
    pub(super) decl_value: Option<Q>,
    pub(super) best_value: Option<Q>,
    pub(super) card: Option<Card>,
    pub(super) last: bool,
    pub(super) won: bool,
    pub(super) payer: Option<u8>,
    pub(super) payee: Option<u8>,
    /// In the score and the payments: the sitter who scores (`sit-out ... scores-as defence`) is one
    /// of `players` and of the `defence`, and on a defender's side.
    pub(super) scoring: bool,
    pub(super) total: Option<Q>,
    pub(super) discarded: Option<CardSet>,
    /// The packet of the talon whose fate the talon's `rest` decides.
    pub(super) packet: Option<CardSet>,
    /// The `let`s' values, the top level's then the score's (empty outside the score: the top
    /// level's are the setup's), each an error where its formula fails in this game.
    pub(super) lets: Vec<LetValue>,
    /// What each pot holds at this point of the payments (the score's own change it as they go).
    pub(super) pots: Vec<Q>,
}

impl GameEnv<'_, '_, '_> {
    pub(super) fn with_hand(mut self, h: CardSet) -> Self {
        self.hand = Some(h);
        self
    }
    pub(super) fn with_card(mut self, c: Card, last: bool, won: bool) -> Self {
        self.card = Some(c);
        self.last = last;
        self.won = won;
        self
    }
    pub(super) fn with_discarded(mut self, d: CardSet) -> Self {
        self.discarded = Some(d);
        self
    }
    pub(super) fn with_packet(mut self, k: CardSet) -> Self {
        self.packet = Some(k);
        self
    }
    /// `p`'s side: in the score and the payments, the sitter who scores is a defender.
    fn side(&self, p: u8) -> u16 {
        if self.scoring {
            self.game.paying_side(p)
        } else {
            self.game.side_of(p)
        }
    }
    fn player_arg(&self, v: &Value) -> Result<u16, String> {
        match v {
            Value::Player(p) => Ok(1 << p),
            Value::Players(m) => Ok(*m),
            other => Err(format!("expected a player or a side, found {}", other.type_name())),
        }
    }
    /// A trick played, with its winner; the trick in play has none yet.
    pub(super) fn trick(&self, v: &Value) -> Result<&Trick, String> {
        match v {
            Value::Trick(i) if *i as usize == self.game.tricks.len() => Err("the trick in play is not over: it has no winner yet".into()),
            Value::Trick(i) => self.game.tricks.get(*i as usize).ok_or_else(|| "no such trick".into()),
            other => Err(format!("expected a trick, found {}", other.type_name())),
        }
    }
    /// The cards of a trick played, or of the trick in play (numbered after the tricks played), in
    /// the order played.
    fn trick_cards(&self, v: &Value) -> Result<&Plays, String> {
        match v {
            Value::Trick(i) if *i as usize == self.game.tricks.len() => Ok(&self.game.current),
            _ => self.trick(v).map(|t| &t.cards),
        }
    }
}

impl Env for GameEnv<'_, '_, '_> {
    fn option(&self, i: usize) -> Value {
        self.game.setup.options[i].clone()
    }
    /// A `let`'s value; one whose formula failed in this game fails what reads it, naming it.
    fn let_value(&self, i: usize) -> Result<Value, String> {
        let v = if i < self.game.setup.constants.len() && self.lets.is_empty() {
            &self.game.setup.constants[i]
        } else {
            self.lets.get(i).ok_or("a value is used before it is computed")?
        };
        v.clone().map_err(|e| e.to_string())
    }
    fn fact(&self, f: Fact) -> Result<Value, String> {
        let g = self.game;
        let need = |o: Option<u8>, what: &str| o.map(Value::Player).ok_or_else(|| format!("there is no {what} in this game"));
        Ok(match f {
            Fact::Players => Value::Players(if self.scoring { g.paying() } else { g.all() }),
            Fact::Dealer => Value::Player(g.dealer),
            Fact::FirstHand => Value::Player(g.first_hand()),
            Fact::Taker => need(g.taker, "taker")?,
            Fact::Partner => need(g.partner, "partner")?,
            Fact::Called => Value::Cards(CardSet::single(g.called.ok_or("no card was called")?)),
            Fact::Attack => Value::Players(g.attack()),
            Fact::Defence => Value::Players((if self.scoring { g.paying() } else { g.all() }) & !g.attack()),
            Fact::Tricks => Value::List(Arc::new((0..g.tricks.len()).map(|i| Value::Trick(i as u8)).collect())),
            Fact::LastTrick => Value::Trick(g.tricks.len().checked_sub(1).ok_or("no trick was played")? as u8),
            Fact::Trick => Value::Trick(g.tricks.len() as u8),
            Fact::DogSize => Value::Num(Q::int(g.setup.dog as i64)),
            Fact::Table => Value::Num(Q::int(g.setup.table as i64)),
            Fact::Dog => Value::Cards(g.dog),
            Fact::Hand => Value::Cards(self.hand.ok_or("no hand here")?),
            Fact::Shown => Value::Cards(self.shown.ok_or("nothing is shown here")?),
            Fact::FirstPacket => {
                let p = self.player.ok_or("`first_packet` needs a player")?;
                let first = g.first_packets.ok_or_else(|| format!("{NO_DEAL_ORDER}, which this rule needs"))?;
                Value::Cards(first[p as usize])
            }
            Fact::DeclValue => Value::Num(self.decl_value.ok_or("the value is not known yet")?),
            Fact::BestValue => Value::Num(self.best_value.ok_or("the best value is known only in a declaration's requirements")?),
            Fact::Discarded => Value::Cards(self.discarded.ok_or("no discard here")?),
            Fact::Packet => Value::Cards(self.packet.ok_or("no packet of the talon here")?),
            Fact::Card => Value::Cards(CardSet::single(self.card.ok_or("no card here")?)),
            Fact::Last => Value::Bool(self.last),
            Fact::WonByPlayer => Value::Bool(self.won),
            Fact::Player => need(self.player, "player")?,
            Fact::Payer => need(self.payer, "payer")?,
            Fact::Payee => need(self.payee, "payee")?,
            Fact::Total => Value::Num(self.total.ok_or("the total is not known yet")?),
        })
    }
    fn attr(&self, name: &str) -> Result<Value, String> {
        let g = self.game;
        let c = g.contract.ok_or("there is no contract in this game")?;
        let b = g.rules().bidding.as_ref().ok_or("there is no bidding")?;
        match b.contracts[c].attrs.iter().find(|(k, _)| k == name) {
            Some((_, e)) => eval(e, &SetupEnv(g.setup)),
            None if name == "name" => Ok(Value::Str(b.contracts[c].name.as_str().into())),
            None => Err(format!("contract {} has no {name}", b.contracts[c].name)),
        }
    }
    fn game_func(&self, f: Func, a: &[Value]) -> Result<Value, String> {
        let g = self.game;
        Ok(match f {
            Func::Points => Value::Num(g.points(self.player_arg(&a[0])?)),
            Func::PointsOf => match &a[0] {
                Value::Cards(cards) => Value::Num(super::card_points(g.counting(), *cards)),
                other => return Err(format!("points_of takes cards, not {}", other.type_name())),
            },
            Func::Pile => match &a[0] {
                Value::Trick(_) => Value::Cards(self.trick_cards(&a[0])?.iter().map(|&(_, c)| c).collect()),
                v => {
                    let m = self.player_arg(v)?;
                    Value::Cards((0..g.n()).filter(|p| m >> p & 1 == 1).fold(CardSet::EMPTY, |s, p| s.or(g.piles[p])))
                }
            },
            Func::Taken => {
                let m = self.player_arg(&a[0])?;
                let n: i64 = (0..g.n()).filter(|p| m >> p & 1 == 1).map(|p| g.piles[p].len() as i64 + g.empties[p] as i64).sum();
                Value::Num(Q::int(n))
            }
            Func::HandOf => match &a[0] {
                Value::Player(p) => Value::Cards(g.dealt[*p as usize]),
                other => return Err(format!("hand_of takes a player, not {}", other.type_name())),
            },
            Func::Played => {
                let m = self.player_arg(&a[0])?;
                let mut cards = CardSet::EMPTY;
                for &(q, c) in g.tricks.iter().flat_map(|t| t.cards.iter()).chain(g.in_play()) {
                    if m >> q & 1 == 1 {
                        cards = cards.or(CardSet::single(c));
                    }
                }
                Value::Cards(cards)
            }
            Func::Withheld => {
                let m = self.player_arg(&a[0])?;
                Value::Cards((0..g.n()).filter(|p| m >> p & 1 == 1).fold(CardSet::EMPTY, |s, p| s.or(g.withheld[p])))
            }
            Func::WinnerSide => Value::Players(self.side(self.trick(&a[0])?.winner)),
            Func::Winner => Value::Player(self.trick(&a[0])?.winner),
            Func::SatOut => match &a[0] {
                Value::Player(p) => Value::Bool(g.sat_out == Some(*p)),
                other => return Err(format!("sat_out takes a player, not {}", other.type_name())),
            },
            Func::Side => match &a[0] {
                Value::Player(p) => Value::Players(self.side(*p)),
                other => return Err(format!("side takes a player, not {}", other.type_name())),
            },
            Func::Won => {
                let side = self.player_arg(&a[0])?;
                Value::Num(Q::int(g.tricks.iter().filter(|t| side >> t.winner & 1 == 1).count() as i64))
            }
            Func::WinningCard => {
                let t = self.trick(&a[0])?;
                let c = t.cards.iter().find(|&&(p, _)| p == t.winner).map(|&(_, c)| c).ok_or("the trick has no winner")?;
                Value::Cards(CardSet::single(c))
            }
            Func::LeadingCard => Value::Cards(self.trick_cards(&a[0])?.first().map_or(CardSet::EMPTY, |&(_, c)| CardSet::single(c))),
            Func::Declared | Func::Showed | Func::Announced | Func::Declarer => {
                let Value::Num(k) = &a[0] else { return Err("expected a declaration".into()) };
                let k = k.numer() as usize;
                let who = match a.get(1) {
                    Some(v) => Some(self.player_arg(v)?),
                    None => None,
                };
                let mine = g.declarations.iter().filter(|d| d.kind == k && who.map(|m| m >> d.player & 1 == 1).unwrap_or(true));
                match f {
                    Func::Declared => Value::Num(Q::checked_sum(mine.map(|d| d.value)).ok_or_else(|| too_large("the sum of the declarations' values"))?),
                    Func::Showed => Value::Cards(mine.fold(CardSet::EMPTY, |s, d| s.or(d.shown))),
                    Func::Announced => Value::Bool(mine.count() > 0),
                    _ => match g.declarations.iter().find(|d| d.kind == k) {
                        Some(d) => Value::Player(d.player),
                        None => return Err("nobody made that declaration".into()),
                    },
                }
            }
            Func::Pot | Func::Carried => {
                let Value::Num(k) = &a[0] else { return Err("expected a pot".into()) };
                let held = if f == Func::Pot { &self.pots } else { &g.carried };
                Value::Num(*held.get(k.numer() as usize).ok_or("no such pot")?)
            }
            Func::Standing => {
                let who = self.player_arg(&a[0])?;
                Value::Num(Q::checked_sum((0..g.standing.len()).filter(|&p| who >> p & 1 == 1).map(|p| g.standing[p])).ok_or_else(|| too_large("the sum of the standings"))?)
            }
            Func::Dealt => match (&a[0], &a[1]) {
                (Value::Player(p), Value::Num(n)) if n.is_integer() && n.numer() >= 0 => Value::Cards(g.dealt_first(*p, n.numer() as usize)?),
                (x, y) => return Err(format!("dealt takes a player and a whole number of cards, not {} and {}", x.type_name(), y.type_name())),
            },
            Func::BidBefore => match (&a[0], &a[1]) {
                (Value::Player(p), Value::Num(c)) => Value::Bool(g.bids.iter().any(|&(q, b)| q == *p && b == super::Bid::Contract(c.numer() as usize))),
                (x, _) => return Err(format!("bid_before takes a player, not {}", x.type_name())),
            },
            Func::PassedOver => match (&a[0], &a[1]) {
                (Value::Player(p), Value::Num(c)) => {
                    let c = c.numer() as usize;
                    // At each of his passes, the highest contract bid before it: none, or one below `c`.
                    let open_at = |i: usize| g.bids[..i].iter().filter_map(|&(_, b)| if let super::Bid::Contract(k) = b { Some(k) } else { None }).all(|k| k < c);
                    Value::Bool(g.bids.iter().enumerate().any(|(i, &(q, b))| q == *p && b == super::Bid::Pass && open_at(i)))
                }
                (x, _) => return Err(format!("passed_over takes a player, not {}", x.type_name())),
            },
            other => return Err(format!("{other:?} is not a game function")),
        })
    }
}
