//! The quick reader: a recorded game read in one pass over the bytes, with no tree in between. It
//! reads every field a game record and its events have, and gives up, returning `None`, on anything
//! else: a string with an escape, a number outside the options, a field met twice, any text that is
//! not JSON. The caller then reads the body with serde_json, which has the last word on what is a
//! game and says where a text is wrong; so this reader only has to be right about what it accepts,
//! and a test compares it with serde_json on every fixture and on many broken copies of them.

use std::collections::BTreeMap;

use super::{fields_of, Event, Field, GameRecord, Packet, Text};

/// Reads a recorded game, or `None` where serde_json must read it instead.
pub fn read(bytes: &[u8]) -> Option<GameRecord> {
    // Checked as a whole, the text is UTF-8 at once, and strings are slices of it. With no control
    // character but the three that are white space, any byte up to a space is white space.
    let text = std::str::from_utf8(bytes).ok()?;
    let controls = bytes.iter().fold(false, |found, &b| found | (b < b' ' && !matches!(b, b'\n' | b'\r' | b'\t')));
    if controls {
        return None;
    }
    let mut c = Cursor { text, b: bytes, i: 0 };
    let rec = c.record()?;
    c.ws();
    (c.i == bytes.len()).then_some(rec)
}

struct Cursor<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

// Eight bytes at a time (SWAR): a mask with the high bit of each byte that passes a test. Only the
// lowest byte marked is sure (a borrow or a carry may mark bytes above it), which is the one wanted.
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

fn below(w: u64, n: u8) -> u64 {
    w.wrapping_sub(ONES * n as u64) & !w & HIGHS
}

fn above_space(w: u64) -> u64 {
    (w.wrapping_add(ONES * 0x5f) | w) & HIGHS
}

fn equal(w: u64, b: u8) -> u64 {
    below(w ^ (ONES * b as u64), 1)
}

/// Sets a field read once; a second time gives up (serde_json says "duplicate field").
fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    slot.replace(value).is_none().then_some(())
}

impl<'a> Cursor<'a> {
    fn word(&self, at: usize) -> Option<u64> {
        self.b.get(at..at + 8).map(|w| u64::from_le_bytes(w.try_into().expect("eight bytes")))
    }

    fn ws(&mut self) {
        while let Some(w) = self.word(self.i) {
            let m = above_space(w);
            if m != 0 {
                self.i += m.trailing_zeros() as usize / 8;
                return;
            }
            self.i += 8;
        }
        while self.b.get(self.i).is_some_and(|&c| c <= b' ') {
            self.i += 1;
        }
    }

    /// The next byte that is not white space, left in place.
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.i += 1)
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        self.ws();
        self.b[self.i..].starts_with(word).then(|| self.i += word.len())
    }

    /// A string with no escape and no control character.
    fn str(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        let mut end = start;
        loop {
            match self.word(end) {
                Some(w) => {
                    let m = equal(w, b'"') | equal(w, b'\\') | below(w, b' ');
                    if m != 0 {
                        end += m.trailing_zeros() as usize / 8;
                        break;
                    }
                    end += 8;
                }
                None => {
                    end += self.b[end..].iter().position(|&c| c == b'"' || c == b'\\' || c < b' ')?;
                    break;
                }
            }
        }
        if self.b[end] != b'"' {
            return None;
        }
        self.i = end + 1;
        self.text.get(start..end)
    }

    fn text(&mut self) -> Option<Text> {
        self.str().map(Text::from)
    }

    /// An object, calling `field` with each key, the cursor on its value.
    fn object(&mut self, mut field: impl FnMut(&mut Self, &'a str) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(());
        }
        loop {
            let key = self.str()?;
            self.eat(b':')?;
            field(self, key)?;
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A list, room made for `expected` items.
    fn array<T>(&mut self, expected: usize, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.eat(b'[')?;
        let mut out = Vec::with_capacity(expected);
        if self.peek()? == b']' {
            self.i += 1;
            return Some(out);
        }
        loop {
            out.push(item(self)?);
            match self.peek()? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return Some(out);
                }
                _ => return None,
            }
        }
    }

    /// Card codes: a hand has at most 24 cards at the tables the sources describe.
    fn texts(&mut self) -> Option<Vec<Text>> {
        self.array(24, Self::text)
    }

    /// An option's value: a string, a boolean or an integer (other numbers, `null`, lists and
    /// objects go to serde_json).
    fn option_value(&mut self) -> Option<serde_json::Value> {
        Some(match self.peek()? {
            b'"' => serde_json::Value::String(self.str()?.to_string()),
            b't' => self.literal(b"true").map(|_| serde_json::Value::Bool(true))?,
            b'f' => self.literal(b"false").map(|_| serde_json::Value::Bool(false))?,
            b'-' | b'0'..=b'9' => {
                let start = self.i;
                self.i += usize::from(self.b[self.i] == b'-');
                let digits = self.b[self.i..].iter().take_while(|d| d.is_ascii_digit()).count();
                // No leading zero, no "-0", no fraction or exponent: those are serde_json's.
                if digits == 0 || (self.b[self.i] == b'0' && (digits > 1 || start != self.i)) {
                    return None;
                }
                self.i += digits;
                if matches!(self.b.get(self.i), Some(b'.' | b'e' | b'E')) {
                    return None;
                }
                let n: i64 = std::str::from_utf8(&self.b[start..self.i]).ok()?.parse().ok()?;
                serde_json::Value::from(n)
            }
            _ => return None,
        })
    }

    fn record(&mut self) -> Option<GameRecord> {
        let (mut ruleset, mut options, mut players, mut dealer, mut description, mut events) = (None, None, None, None, None, None);
        self.object(|c, key| match key {
            "ruleset" => once(&mut ruleset, c.str()?.to_string()),
            "options" => {
                let mut map = BTreeMap::new();
                c.object(|c, name| map.insert(name.to_string(), c.option_value()?).is_none().then_some(()))?;
                once(&mut options, map)
            }
            "players" => once(&mut players, c.array(8, |c| c.str().map(str::to_string))?),
            "dealer" => once(&mut dealer, c.str()?.to_string()),
            "description" => {
                let text = if c.peek()? == b'n' { c.literal(b"null").map(|_| None)? } else { Some(c.str()?.to_string()) };
                once(&mut description, text)
            }
            // A game has at most 78 plays and a few other events.
            "events" => once(&mut events, c.array(100, Self::event)?),
            _ => None,
        })?;
        Some(GameRecord { ruleset: ruleset?, options: options.unwrap_or_default(), players: players?, dealer: dealer?, description: description.flatten(), events: events? })
    }

    fn event(&mut self) -> Option<Event> {
        let (mut kind, mut player, mut hands, mut dog, mut cut, mut piles, mut packets) = (None, None, None, None, None, None, None);
        let (mut bid, mut card, mut cards, mut declaration) = (None, None, None, None);
        let mut met = 0;
        self.object(|c, key| {
            let (field, read) = match key {
                "type" => (Field::Type, once(&mut kind, c.str()?)),
                "player" => (Field::Player, once(&mut player, c.text()?)),
                "hands" => {
                    let mut map = BTreeMap::new();
                    c.object(|c, name| map.insert(Text::from(name), c.texts()?).is_none().then_some(()))?;
                    (Field::Hands, once(&mut hands, map))
                }
                "dog" => (Field::Dog, once(&mut dog, c.texts()?)),
                "cut" => (Field::Cut, once(&mut cut, c.text()?)),
                "piles" => {
                    let mut map = BTreeMap::new();
                    c.object(|c, name| map.insert(Text::from(name), c.array(4, Self::texts)?).is_none().then_some(()))?;
                    (Field::Piles, once(&mut piles, map))
                }
                "packets" => (Field::Packets, once(&mut packets, c.array(32, Self::packet)?)),
                "bid" => (Field::Bid, once(&mut bid, c.text()?)),
                "card" => (Field::Card, once(&mut card, c.text()?)),
                "cards" => (Field::Cards, once(&mut cards, c.texts()?)),
                "declaration" => (Field::Declaration, once(&mut declaration, c.text()?)),
                _ => return None,
            };
            met |= field.bit();
            read
        })?;
        // Each type takes its own fields and no other.
        let kind = kind?;
        let allowed = fields_of(kind)?.iter().fold(Field::Type.bit(), |bits, f| bits | f.bit());
        if met & !allowed != 0 {
            return None;
        }
        Some(match kind {
            "deal" => Event::Deal { hands: hands?, dog: dog.unwrap_or_default(), cut, piles: piles.unwrap_or_default(), packets: packets.unwrap_or_default() },
            "bid" => Event::Bid { player: player?, bid: bid? },
            "call" => Event::Call { player: player?, card: card? },
            "discard" => Event::Discard { player: player?, cards: cards? },
            "declare" => Event::Declare { player: player?, declaration: declaration?, cards: cards.unwrap_or_default() },
            _ => Event::Play { player: player?, card: card? },
        })
    }

    fn packet(&mut self) -> Option<Packet> {
        let (mut to, mut cards) = (None, None);
        self.object(|c, key| match key {
            "to" => once(&mut to, c.text()?),
            "cards" => once(&mut cards, c.texts()?),
            _ => None,
        })?;
        Some(Packet { to, cards: cards? })
    }
}
