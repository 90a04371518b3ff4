//! Reading an event of the record: players by name, cards by code, bids and declarations by the
//! ruleset's names, into a `Move`, which is what the interpreter works on.

use crate::cards::{Card, CardSet};
use crate::record::Event;
use crate::verdict::InputError;

use super::{Bid, Setup};

/// A deal read: hands by seat, the dog, the cut card, the piles by seat (bottom card first), and the
/// packets in the order dealt, when recorded (`None`: to the dog).
#[derive(Clone, Debug, PartialEq)]
pub struct Dealt {
    pub hands: Vec<CardSet>,
    pub dog: CardSet,
    /// The dog's cards in the order the deal event lists them: a talon shown in packets is cut in
    /// that order (`talon { packets = N }`).
    pub dog_order: Vec<Card>,
    pub cut: Option<Card>,
    pub piles: Vec<Vec<Vec<Card>>>,
    pub packets: Vec<(Option<u8>, Vec<Card>)>,
}

/// An event with its names and card codes read: what the interpreter works on.
#[derive(Clone, Debug, PartialEq)]
pub enum Move {
    /// Boxed: a game has one deal and dozens of other moves, which stay small.
    Deal(Box<Dealt>),
    Bid {
        player: u8,
        bid: Bid,
    },
    Call {
        player: u8,
        card: Card,
    },
    Discard {
        player: u8,
        cards: CardSet,
    },
    Take {
        player: u8,
        cards: CardSet,
    },
    /// The taker buys `card` and gives back the second card; `None`: he buys nothing.
    Buy {
        player: u8,
        cards: Option<(Card, Card)>,
    },
    Declare {
        player: u8,
        kind: usize,
        cards: CardSet,
    },
    Play {
        player: u8,
        card: Card,
    },
    /// The player sits the deal out by choice (`sit-out-by-choice`).
    SitOut {
        player: u8,
    },
}

impl Move {
    pub fn kind(&self) -> &'static str {
        match self {
            Move::Deal(_) => "deal",
            Move::Bid { .. } => "bid",
            Move::Call { .. } => "call",
            Move::Discard { .. } => "discard",
            Move::Take { .. } => "take",
            Move::Buy { .. } => "buy",
            Move::Declare { .. } => "declare",
            Move::Play { .. } => "play",
            Move::SitOut { .. } => "sit-out",
        }
    }

    /// The seat of the player who makes the move; `None` for the deal.
    pub fn player(&self) -> Option<u8> {
        match *self {
            Move::Deal(_) => None,
            Move::Bid { player, .. }
            | Move::Call { player, .. }
            | Move::Discard { player, .. }
            | Move::Take { player, .. }
            | Move::Buy { player, .. }
            | Move::Declare { player, .. }
            | Move::Play { player, .. }
            | Move::SitOut { player } => Some(player),
        }
    }
}

/// The seat of the player called `name`. Plays, the most frequent moves, are looked up by
/// [`name_key`] in `replay_with`; this serves every other event and long names.
pub(super) fn seat_of<N: AsRef<str>>(names: &[N], name: &str) -> Option<u8> {
    names.iter().position(|n| n.as_ref() == name).map(|p| p as u8)
}

/// A name of one to seven bytes as one number, equal for two names exactly when their bytes are:
/// its length, then (overlapping halves, or first, middle and last bytes) every byte. `None` for
/// other names. A replay finds the player of each play by it.
pub fn name_key(b: &[u8]) -> Option<u64> {
    let n = b.len();
    let half = |i: usize| u64::from(u32::from_le_bytes(b[i..i + 4].try_into().expect("four bytes")));
    let bytes = match n {
        1..=3 => u64::from(b[0]) | u64::from(b[n / 2]) << 8 | u64::from(b[n - 1]) << 16,
        4..=7 => half(0) | half(n - 4) << (8 * (n - 4)),
        _ => return None,
    };
    Some(bytes | (n as u64) << 56)
}

/// Reads an event: players by name, cards by code, bids and declarations by the ruleset's names.
/// Whatever cannot be read is an input error that says where.
pub fn read<N: AsRef<str>>(setup: &Setup, names: &[N], index: usize, e: &Event) -> Result<Move, InputError> {
    let rules = setup.rules;
    let fail = |message: String| InputError { event: Some(index), message };
    let player = |name: &str| -> Result<u8, InputError> {
        seat_of(names, name).ok_or_else(|| {
            let all: Vec<&str> = names.iter().map(|n| n.as_ref()).collect();
            fail(format!("unknown player \"{name}\"; the players are {}", all.join(", ")))
        })
    };
    let card = |code: &str| -> Result<Card, InputError> {
        match rules.pack.parse_card(code) {
            Some(c) if rules.pack.cards.contains(c) => Ok(c),
            Some(c) => Err(fail(format!("{c} is not in the {} pack", rules.id))),
            None => Err(fail(format!("unknown card \"{code}\"; cards are T1..T{}, EX, and rank then suit like KS, 10H, CD (cavalier)", rules.pack.trumps().len().max(21)))),
        }
    };
    // Cards in the order listed, each passed to `each`; `seen` holds the cards already read, and a
    // card met again is refused: "{card} {twice}".
    let each_card = |codes: &[crate::record::Text], seen: &mut CardSet, twice: &str, each: &mut dyn FnMut(Card)| -> Result<(), InputError> {
        for code in codes {
            let c = card(code)?;
            if seen.contains(c) {
                return Err(fail(format!("{} {twice}", rules.card_name(c))));
            }
            seen.insert(c);
            each(c);
        }
        Ok(())
    };
    let card_list = |codes: &[crate::record::Text], seen: &mut CardSet, twice: &str| -> Result<Vec<Card>, InputError> {
        let mut out = Vec::with_capacity(codes.len());
        each_card(codes, seen, twice, &mut |c| out.push(c))?;
        Ok(out)
    };
    let cards = |codes: &[crate::record::Text], seen: &mut CardSet, twice: &str| -> Result<CardSet, InputError> {
        let before = *seen;
        each_card(codes, seen, twice, &mut |_| {})?;
        Ok(seen.minus(before))
    };
    Ok(match e {
        Event::Deal { hands, dog, cut, piles, packets } => {
            for name in hands.keys() {
                player(name)?;
            }
            let mut seen = CardSet::EMPTY;
            let mut by_seat = vec![CardSet::EMPTY; names.len()];
            for (p, name) in names.iter().map(|n| n.as_ref()).enumerate() {
                let codes = hands.get(name).ok_or_else(|| fail(format!("the deal gives no hand to {name}")))?;
                by_seat[p] = cards(codes, &mut seen, "is dealt twice")?;
            }
            let dog_order = card_list(dog, &mut seen.clone(), "is both dealt and in the dog")?;
            let dog = cards(dog, &mut seen, "is both dealt and in the dog")?;
            let cut = cut.as_deref().map(card).transpose()?;
            for name in piles.keys() {
                player(name)?;
            }
            let mut piles_by_seat = vec![vec![]; names.len()];
            for (p, name) in names.iter().map(|n| n.as_ref()).enumerate() {
                for pile in piles.get(name).into_iter().flatten() {
                    piles_by_seat[p].push(card_list(pile, &mut seen, "is dealt twice")?);
                }
            }
            // The packets, when given, must deal exactly the hands and the dog.
            let mut order = Vec::with_capacity(packets.len());
            let mut given = vec![CardSet::EMPTY; names.len() + 1];
            let mut in_packets = CardSet::EMPTY;
            for (k, packet) in packets.iter().enumerate() {
                let to = packet.to.as_deref().map(player).transpose()?;
                let cards_of_packet = card_list(&packet.cards, &mut in_packets, &format!("is dealt a second time, in packet {}", k + 1))?;
                let slot = to.map(|p| p as usize).unwrap_or(names.len());
                given[slot] = given[slot].or(cards_of_packet.iter().copied().collect());
                order.push((to, cards_of_packet));
            }
            if !packets.is_empty() {
                for (slot, got) in given.iter().enumerate() {
                    let (want, whose) = match names.get(slot) {
                        Some(name) => (by_seat[slot], format!("{}'s hand", name.as_ref())),
                        None => (dog, rules.the_dog()),
                    };
                    if *got != want {
                        let (extra, missing) = (got.minus(want), want.minus(*got));
                        let mut why = vec![];
                        if !extra.is_empty() {
                            why.push(format!("they deal {} to it", rules.cards_named(extra)));
                        }
                        if !missing.is_empty() {
                            why.push(format!("they do not deal it {}", rules.cards_named(missing)));
                        }
                        return Err(fail(format!("the packets and {whose} disagree: {}", why.join(", and "))));
                    }
                }
            }
            Move::Deal(Box::new(Dealt { hands: by_seat, dog, dog_order, cut, piles: piles_by_seat, packets: order }))
        }
        Event::Bid { player: who, bid } => {
            let b = rules.bidding.as_ref();
            let contracts = b.map(|b| b.contracts.as_slice()).unwrap_or_default();
            let reserve = b.and_then(|b| b.reserve.as_ref());
            let bid = if bid.eq_ignore_ascii_case("pass") {
                Bid::Pass
            } else if let Some(i) = contracts.iter().position(|c| c.name.eq_ignore_ascii_case(bid)) {
                Bid::Contract(i)
            } else if reserve.is_some_and(|r| r.name.eq_ignore_ascii_case(bid)) {
                Bid::Reserve
            } else {
                let known: Vec<&str> = contracts.iter().map(|c| c.name.as_str()).chain(reserve.map(|r| r.name.as_str())).collect();
                let bids = if known.is_empty() { "only pass".to_string() } else { format!("pass, {}", known.join(", ")) };
                return Err(fail(format!("unknown bid \"{bid}\"; {} has {bids}", rules.id)));
            };
            Move::Bid { player: player(who)?, bid }
        }
        Event::Call { player: who, card: c } => Move::Call { player: player(who)?, card: card(c)? },
        Event::Discard { player: who, cards: codes } => Move::Discard { player: player(who)?, cards: cards(codes, &mut CardSet::default(), "is listed twice")? },
        Event::Take { player: who, cards: codes } => Move::Take { player: player(who)?, cards: cards(codes, &mut CardSet::default(), "is listed twice")? },
        Event::Buy { player: who, card: c, gives } => Move::Buy {
            player: player(who)?,
            cards: match (c, gives) {
                (Some(c), Some(g)) => Some((card(c)?, card(g)?)),
                (None, None) => None,
                _ => return Err(fail("a `buy` event names both the card bought (`card`) and the card given back (`gives`), or neither to buy nothing".into())),
            },
        },
        Event::Declare { player: who, declaration, cards: codes } => {
            let Some(kind) = rules.declarations.iter().position(|d| d.name.eq_ignore_ascii_case(declaration)) else {
                let known: Vec<&str> = rules.declarations.iter().map(|d| d.name.as_str()).collect();
                return Err(fail(format!("unknown declaration \"{declaration}\"; {} has {}", rules.id, if known.is_empty() { "none".into() } else { known.join(", ") })));
            };
            Move::Declare { player: player(who)?, kind, cards: cards(codes, &mut CardSet::default(), "is listed twice")? }
        }
        Event::Play { player: who, card: c } => Move::Play { player: player(who)?, card: card(c)? },
        Event::SitOut { player: who } => Move::SitOut { player: player(who)? },
    })
}
