//! The quick reader: a recorded game read with no tree in between, in two passes. The first finds
//! where every token starts, 64 bytes at a time with SIMD compares (`index`); the second reads the
//! record from token to token, never looking at white space or inside a string twice. It reads every
//! field a game record and its events have, and gives up, returning `None`, on anything else: a string with an escape, a number outside the options, a field met twice, any text that is
//! not JSON. The caller then reads the body with serde_json, which has the last word on what is a
//! game and says where a text is wrong; so this reader only has to be right about what it accepts,
//! and a test compares it with serde_json on every fixture and on many broken copies of them.

use std::collections::BTreeMap;

use wide::u8x16;

use super::{fields_of, Event, Field, GameRecord, Packet, Text};

/// Reads a recorded game, or `None` where serde_json must read it instead.
pub fn read(bytes: &[u8]) -> Option<GameRecord> {
    // Checked as a whole, the text is UTF-8 at once, and strings are slices of it.
    let text = std::str::from_utf8(bytes).ok()?;
    let tokens = index(bytes)?;
    let mut c = Cursor { text, t: &tokens, k: 0 };
    let rec = c.record()?;
    (c.k == tokens.len()).then_some(rec)
}

/// Where the tokens start, found 64 bytes at a time: every `{}[]:,` outside strings, both quotes of
/// every string, and the first byte of any other value (`true`, a number, or bytes no JSON has). So
/// the bytes between two tokens are white space or the rest of the first token, and the reader can
/// step from token to token without looking at white space or inside strings. `None` where the text
/// has a backslash (escapes are serde_json's), a control character, a tab or a line break in a
/// string, or a string that never closes.
fn index(b: &[u8]) -> Option<Vec<u32>> {
    u32::try_from(b.len()).ok()?;
    let mut tokens = Vec::with_capacity(b.len() / 4);
    // Carried from one block to the next: inside a string (all ones), inside another value (1).
    let (mut in_string, mut in_value) = (0u64, 0u64);
    let mut last = [b' '; 64];
    let rest = b.chunks_exact(64).remainder();
    last[..rest.len()].copy_from_slice(rest);
    let blocks = b.chunks_exact(64).map(|c| c.try_into().expect("64 bytes")).chain((!rest.is_empty()).then_some(&last));
    for (n, block) in blocks.enumerate() {
        let Bytes { quotes, breaks, spaces, structure, backslashes, controls } = Bytes::of(block);
        // A string's opening quote and its contents: an odd number of quotes up to the byte.
        let strings = prefix_xor(quotes) ^ in_string;
        if backslashes | controls | (breaks & strings) != 0 {
            return None;
        }
        let values = !(quotes | breaks | structure | spaces | strings);
        let mut starts = (structure & !strings) | quotes | (values & !(values << 1 | in_value));
        in_string = ((strings as i64) >> 63) as u64;
        in_value = values >> 63;
        while starts != 0 {
            tokens.push(n as u32 * 64 + starts.trailing_zeros());
            starts &= starts - 1;
        }
    }
    (in_string == 0).then_some(tokens)
}

/// The bytes of a block of 64 that are of each kind, one bit per byte.
#[derive(Default)]
struct Bytes {
    quotes: u64,
    /// Tab, line feed and carriage return.
    breaks: u64,
    spaces: u64,
    /// `{}[]:,`
    structure: u64,
    backslashes: u64,
    /// Below a space, except the breaks.
    controls: u64,
}

impl Bytes {
    fn of(block: &[u8; 64]) -> Bytes {
        let mut k = Bytes::default();
        for (i, lane) in block.chunks_exact(16).enumerate() {
            let v = u8x16::new(lane.try_into().expect("16 bytes"));
            let bits = |m: u8x16| u64::from(m.to_bitmask()) << (16 * i);
            let is = |c: u8| v.simd_eq(u8x16::splat(c));
            // `[` and `]` differ from `{` and `}` by one bit.
            let folded = v | u8x16::splat(0x20);
            let breaks = is(b'\t') | is(b'\n') | is(b'\r');
            k.quotes |= bits(is(b'"'));
            k.breaks |= bits(breaks);
            k.spaces |= bits(is(b' '));
            k.structure |= bits(folded.simd_eq(u8x16::splat(b'{')) | folded.simd_eq(u8x16::splat(b'}')) | is(b':') | is(b','));
            k.backslashes |= bits(is(b'\\'));
            k.controls |= bits((v & u8x16::splat(0xe0)).simd_eq(u8x16::splat(0)) & !breaks);
        }
        k
    }
}

/// Each bit set where the bits up to it, itself included, are odd in number.
fn prefix_xor(mut x: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16, 32] {
        x ^= x << shift;
    }
    x
}

/// An integer as JSON writes it, with no leading zero, no "-0", no fraction and no exponent (those
/// are serde_json's).
fn integer(run: &[u8]) -> Option<i64> {
    let digits = run.strip_prefix(b"-").unwrap_or(run);
    let leading_zero = digits.first() == Some(&b'0') && (digits.len() > 1 || digits.len() != run.len());
    if digits.is_empty() || leading_zero || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(run).ok()?.parse().ok()
}

/// The reader, on the tokens `index` found.
struct Cursor<'a> {
    text: &'a str,
    t: &'a [u32],
    /// The next token.
    k: usize,
}

/// Sets a field read once; a second time gives up (serde_json says "duplicate field").
fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    slot.replace(value).is_none().then_some(())
}

impl<'a> Cursor<'a> {
    /// The first byte of the next token.
    fn peek(&self) -> Option<u8> {
        self.t.get(self.k).map(|&at| self.text.as_bytes()[at as usize])
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.k += 1)
    }

    /// A string with no escape and no control character: from its opening quote to its closing
    /// quote, the next token.
    fn str(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let (start, end) = (self.t[self.k - 1] as usize + 1, *self.t.get(self.k)? as usize);
        self.k += 1;
        self.text.get(start..end)
    }

    fn text(&mut self) -> Option<Text> {
        self.str().map(Text::from)
    }

    /// A value other than a string, a list or an object: its bytes up to the next token, less the
    /// white space before it (`index` made the value's whole run of bytes one token).
    fn value(&mut self) -> Option<&'a [u8]> {
        let start = *self.t.get(self.k)? as usize;
        self.k += 1;
        let end = self.t.get(self.k).map_or(self.text.len(), |&at| at as usize);
        Some(self.text.as_bytes()[start..end].trim_ascii_end())
    }

    /// An object, calling `field` with each key, the cursor on its value.
    fn object(&mut self, mut field: impl FnMut(&mut Self, &'a str) -> Option<()>) -> Option<()> {
        self.eat(b'{')?;
        if self.peek()? == b'}' {
            self.k += 1;
            return Some(());
        }
        loop {
            let key = self.str()?;
            self.eat(b':')?;
            field(self, key)?;
            match self.peek()? {
                b',' => self.k += 1,
                b'}' => {
                    self.k += 1;
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
            self.k += 1;
            return Some(out);
        }
        loop {
            out.push(item(self)?);
            match self.peek()? {
                b',' => self.k += 1,
                b']' => {
                    self.k += 1;
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
            b'{' | b'[' => return None,
            _ => match self.value()? {
                b"true" => serde_json::Value::Bool(true),
                b"false" => serde_json::Value::Bool(false),
                run => integer(run)?.into(),
            },
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
                let text = if c.peek()? == b'"' { Some(c.str()?.to_string()) } else { (c.value()? == b"null").then_some(None)? };
                once(&mut description, text)
            }
            // A game has at most 78 plays and a few other events.
            "events" => once(&mut events, c.array(100, |c| c.simple_event().or_else(|| c.event()))?),
            _ => None,
        })?;
        Some(GameRecord { ruleset: ruleset?, options: options.unwrap_or_default(), players: players?, dealer: dealer?, description: description.flatten(), events: events? })
    }

    /// Most events are moves written `{"type": ..., "player": ..., "card" (or "bid"): ...}`: read
    /// straight through when they are, with these keys in this order; anything else is left to
    /// `event`, from the same place.
    fn simple_event(&mut self) -> Option<Event> {
        let start = self.k;
        let mut read = || {
            self.eat(b'{')?;
            (self.str()? == "type").then_some(())?;
            self.eat(b':')?;
            let kind = self.str()?;
            self.eat(b',')?;
            (self.str()? == "player").then_some(())?;
            self.eat(b':')?;
            let player = self.text()?;
            self.eat(b',')?;
            let key = self.str()?;
            self.eat(b':')?;
            let value = self.text()?;
            self.eat(b'}')?;
            match (kind, key) {
                ("play", "card") => Some(Event::Play { player, card: value }),
                ("bid", "bid") => Some(Event::Bid { player, bid: value }),
                ("call", "card") => Some(Event::Call { player, card: value }),
                _ => None,
            }
        };
        let event = read();
        if event.is_none() {
            self.k = start;
        }
        event
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
