//! The `counting` section: the card points of a pile, counted in groups (exactly, to the nearest
//! point, or in packets as the Marolles text lays it out), with the empty cards the Excuse exchange owes.

use crate::cards::CardSet;
use crate::expr::{Expr, Value};
use crate::ir::*;
use crate::num::Q;

use super::Game;

impl<'s, 'r> Game<'s, 'r> {
    /// The counting of this game: the ruleset's, with the counters that follow its options.
    pub(super) fn counting(&self) -> &Counting {
        self.setup.counting.as_ref().unwrap_or(&self.rules().counting)
    }

    /// The card points of a pile (a player's, or a side's together).
    pub fn points(&self, players: u16) -> Q {
        let mut pile = CardSet::EMPTY;
        let mut empties = 0i64;
        for p in 0..self.n() {
            if players >> p & 1 == 1 {
                pile = pile.or(self.piles[p]);
                empties += self.empties[p] as i64;
            }
        }
        count_points(self.counting(), pile, empties)
    }

    /// A player's card points in the outcome. Fixed partners count their tricks together, and where
    /// a pile's count is not the sum of its cards' values (packets, or a total rounded), two partners'
    /// own counts would not add up to their side's (Troccas: 28 and 12 for a side that counts 40),
    /// so each partner is given his side's. Elsewhere, the cards the player took.
    pub fn player_points(&self, p: u8) -> Q {
        let c = self.counting();
        let additive = c.empty_zero || c.surplus == Surplus::Exact;
        if self.rules().sides == Sides::Partners && !additive {
            self.points(self.side_of(p))
        } else {
            self.points(1 << p)
        }
    }
}

/// A counting with its counters that follow options added and its group size set, `cards_of` giving
/// each one's cards (and the group's size) for the options chosen. The compiler has tried every
/// choice of the options they read, so an error here is a mistake of the engine, reported rather
/// than hidden.
pub fn counting_for(c: &Counting, cards_of: &dyn Fn(&Expr) -> Result<Value, String>) -> Result<Counting, String> {
    let mut out = c.clone();
    if let Some((e, clause)) = &c.group_by_option {
        out.group = match cards_of(e)? {
            Value::Num(n) if n.is_integer() && (1..=6).contains(&n.numer()) => n.numer() as u32,
            other => return Err(format!("{}: a group of 1 to 6 cards, not {}", clause.at, other.type_name())),
        };
    }
    for (v, e, clause) in &c.by_option {
        let set = match cards_of(e)? {
            Value::Cards(set) => set,
            other => return Err(format!("{}: a counter's cards, not {}", clause.at, other.type_name())),
        };
        for card in set.iter() {
            if out.values[card.0 as usize] != 0 {
                return Err(format!("{}: {card} already has a value", clause.at));
            }
            out.values[card.0 as usize] = *v;
        }
    }
    out.counters = counters_of(&out.values);
    Ok(out)
}

/// Card points of a pile: each counter is worth its value less (group-1)/group, each empty card
/// 1/group, which is exactly what counting in groups gives; `empties` adds (or removes) empty cards
/// owed by the Excuse exchange.
pub fn count_points(c: &Counting, pile: CardSet, empties: i64) -> Q {
    if c.empty_zero {
        return card_points(c, pile);
    }
    let g = c.group as i64;
    if c.surplus == Surplus::Packets {
        let counters: Vec<i64> = pile.iter().map(|card| c.values[card.0 as usize] as i64).filter(|&v| v > 0).collect();
        let blanks = pile.len() as i64 - counters.len() as i64 + empties;
        // A pile that owes empty cards for the Fool and has none to give (its side took no trick)
        // keeps cards that, given, would have gone into the winners' packets: laid out, they make
        // packets of their own, and each packet more is a point more (three counters in one packet
        // count their sum less two, split in two their sum less one). The pile counts the packets it
        // would make had it paid, so that the two sides make the pack's total (Troccas: "Das ganze
        // Spiel zählt 72 Punkte"; the Narr alone 4, the Narr with a Skat of two counters as one packet).
        let packets = |cards: i64| (cards.max(0) + g - 1) / g;
        let unpaid = if blanks < 0 { packets(pile.len() as i64) - packets(pile.len() as i64 + empties) } else { 0 };
        return Q::int(count_packets(&counters, blanks.max(0), c.group as usize, c.short_packet) - unpaid);
    }
    // In 1/g of a point: an empty card is 1, a counter worth v is v * g - (g - 1), so 1 more
    // (v - 1) * g.
    let mut units = empties + pile.len() as i64;
    for &(v, set) in &c.counters {
        units += pile.and(set).len() as i64 * (v as i64 - 1) * g;
    }
    let exact = Q::new(units, g);
    if c.surplus == Surplus::Nearest {
        exact.round()
    } else {
        exact
    }
}

/// What cards are worth one by one, added up (`points_of`): a counter worth V in groups of g is
/// V − (g−1)/g, an empty card 1/g, or nothing with `empty 0`; never rounded.
pub fn card_points(c: &Counting, cards: CardSet) -> Q {
    let g = c.group as i64;
    let blank = if c.empty_zero { 0 } else { 1 };
    let mut units = blank * cards.len() as i64;
    for &(v, set) in &c.counters {
        units += cards.and(set).len() as i64 * (v as i64 - blank) * g;
    }
    Q::new(units, g)
}

/// Counting as the Marolles text lays it out: each counter takes as many empties as it can to make a
/// packet, leftover cards make packets among themselves, and a short last packet follows the surplus
/// rules (`ShortPacket::OverHalf`: over half a packet, as if padded with empties; otherwise each
/// counter less one, empties nothing), or counts as a full packet (`ShortPacket::SumLessOne`, Troccas'
/// Skat of two: two empties 1, a counter and an empty its value, two counters their sum less one).
pub fn count_packets(counters: &[i64], empties: i64, g: usize, short: ShortPacket) -> i64 {
    let mut sequence: Vec<i64> = Vec::with_capacity(counters.len() + empties as usize);
    let mut left = empties;
    for &v in counters {
        sequence.push(v);
        for _ in 0..(g - 1) {
            if left > 0 {
                sequence.push(0);
                left -= 1;
            }
        }
    }
    sequence.extend(std::iter::repeat_n(0, left as usize));
    let packet = |cards: &[i64]| -> i64 {
        let k = cards.iter().filter(|&&v| v > 0).count() as i64;
        if k == 0 {
            1
        } else {
            cards.iter().sum::<i64>() - (k - 1)
        }
    };
    let mut total = 0;
    for chunk in sequence.chunks(g) {
        if chunk.len() == g || chunk.len() * 2 > g || short == ShortPacket::SumLessOne {
            total += packet(chunk);
        } else {
            total += chunk.iter().filter(|&&v| v > 0).map(|v| v - 1).sum::<i64>();
        }
    }
    total
}
