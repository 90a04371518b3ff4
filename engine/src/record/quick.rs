//! The quick reader: a recorded game read with no tree in between, in one pass over the bytes. Strings
//! and white space are looked at 16 bytes at a time with SIMD compares (`block`): a card code or a
//! name is found, with the indentation before it and both its quotes, in one block. Most events are
//! moves, and a program writes all the moves of a game the same way: once one is read key by key, the
//! next are read by their values only, the bytes between them compared whole with the last's
//! (`Layout`). It reads every field a game record and its events have, and gives up, returning
//! `None`, on anything else: a string with an escape, a number outside the options, a field met
//! twice, any text that is not JSON. The caller then reads the body with serde_json, which has the
//! last word on what is a game and says where a text is wrong; so this reader only has to be right
//! about what it accepts, and a test compares it with serde_json on every fixture and on many broken
//! copies of them.
//!
//! What it saves, measured (`cargo bench -p tarot-engine --bench wire`, medians, a complete four-player
//! game of 8.5 kB, `fixtures/worked/fft-deal1.json`): 18.0 µs against serde_json's 99.9 µs, on a
//! shared 2-core machine under load. The test is `engine/tests/it/quick_reader.rs` (every fixture, and broken
//! copies of them, read the same as serde_json reads them).
//!
//! The small functions are `#[inline(always)]`: the reader is then a few loops in which the compiler
//! keeps the cursor in registers (left to it, reading a game took 9% more instructions).

use std::collections::BTreeMap;

use wide::i8x16;

use super::{fields_of, Event, Field, GameRecord, Packet, Text, AMOUNT_LIMIT};

/// Reads a recorded game, or `None` where serde_json must read it instead.
pub fn read(bytes: &[u8]) -> Option<GameRecord> {
    let mut c = Cursor { b: bytes, i: 0, layout: Layout::default() };
    let rec = c.record()?;
    c.ws();
    (c.i == bytes.len()).then_some(rec)
}

/// The 16 bytes at `at`, `None` within 16 bytes of the end: white space and strings are looked at
/// a block at a time, with SIMD compares.
#[inline(always)]
fn block(b: &[u8], at: usize) -> Option<i8x16> {
    let bytes: [u8; 16] = b.get(at..at + 16)?.try_into().ok()?;
    Some(i8x16::new(bytes.map(|c| c as i8)))
}

/// The bytes of a block that are any of `bytes`, one bit each, the first byte's the lowest.
#[inline(always)]
fn any_of(v: i8x16, bytes: &[u8]) -> u32 {
    bytes.iter().fold(i8x16::ZERO, |m, &c| m | v.simd_eq(i8x16::splat(c as i8))).to_bitmask()
}

/// How many spaces a block starts with.
#[inline(always)]
fn spaces(v: i8x16) -> usize {
    (!any_of(v, b" ")).trailing_zeros() as usize
}

/// The bytes of a block that stop a string's plain run, one bit each: a quote, a backslash, a
/// control byte or a byte that is not ASCII (the last two are those below 0x20 as signed bytes).
#[inline(always)]
fn stops(v: i8x16) -> u32 {
    any_of(v, b"\"\\") | v.simd_lt(i8x16::splat(0x20)).to_bitmask()
}

/// Where a string's plain run from `at` ends: its first stop (see `stops`), or the end of the text.
fn plain_end(b: &[u8], mut at: usize) -> usize {
    while let Some(v) = block(b, at) {
        match stops(v) {
            0 => at += 16,
            stops => return at + stops.trailing_zeros() as usize,
        }
    }
    at + b[at..].iter().position(|&c| c == b'"' || c == b'\\' || !(0x20..0x80).contains(&c)).unwrap_or(b.len() - at)
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

/// An amount of `pots` or `standing`, within `AMOUNT_LIMIT` (serde_json says what is wrong with one
/// that is not).
fn amount(run: &[u8]) -> Option<i64> {
    integer(run).filter(|v| v.unsigned_abs() <= AMOUNT_LIMIT as u64)
}

/// The events `simple_event` reads: moves, with a player and one other field.
#[derive(Clone, Copy)]
enum Move {
    Play,
    Bid,
    Call,
}

/// How a game lays out its moves: the bytes around a move's type and values (braces, keys, colons,
/// commas and white space), as they were in the last move read key by key (see
/// `Cursor::laid_out_move`); empty until then. Each stretch runs from a closing quote to the next
/// opening quote, neither included.
#[derive(Default)]
struct Layout<'a> {
    /// From the white space before the opening brace to the type.
    open: &'a [u8],
    /// From the type to the player.
    player: &'a [u8],
    /// From the player to the card (or bid), for each type of move.
    value: [&'a [u8]; 3],
    /// From that value to the closing brace, included.
    close: &'a [u8],
}

/// The reader: the text, the next byte to read, and how the moves read so far were laid out.
struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
    layout: Layout<'a>,
}

/// Sets a field read once; a second time gives up (serde_json says "duplicate field").
fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    slot.replace(value).is_none().then_some(())
}

impl<'a> Cursor<'a> {
    /// Steps over white space, JSON's four bytes. Between most tokens there is none; or one space,
    /// after a colon; or a line break and the next line's indentation, where a game is
    /// pretty-printed (nearly half its bytes). Those are stepped over here, the rest by `skip_ws`.
    #[inline(always)]
    fn ws(&mut self) {
        match self.b.get(self.i) {
            Some(&c) if c > b' ' => return,
            Some(b'\n') => self.i += 1 + block(self.b, self.i + 1).map_or(0, spaces),
            Some(b' ') => self.i += 1,
            _ => {}
        }
        if self.b.get(self.i).is_some_and(|&c| c <= b' ') {
            self.skip_ws();
        }
    }

    /// White space, 16 bytes at a time.
    #[inline(never)]
    fn skip_ws(&mut self) {
        while let Some(v) = block(self.b, self.i) {
            let run = (!any_of(v, b" \n\t\r")).trailing_zeros();
            self.i += run as usize;
            if run < 16 {
                return;
            }
        }
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    /// The first byte of the next token.
    #[inline(always)]
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }

    #[inline(always)]
    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.i += 1)
    }

    /// Steps over `bytes` if they come next: a key of the common event, quotes and colon included.
    #[inline(always)]
    fn literal(&mut self, bytes: &[u8]) -> Option<()> {
        self.ws();
        self.b[self.i..].starts_with(bytes).then(|| self.i += bytes.len())
    }

    /// Steps over `bytes` if they are next, with no white space before them.
    #[inline(always)]
    fn follows(&mut self, bytes: &[u8]) -> Option<()> {
        self.b[self.i..].starts_with(bytes).then(|| self.i += bytes.len())
    }

    /// Steps over `seen`, a stretch of the text read before, if it comes again next; never over
    /// none. Compared 8 bytes at a time in registers, the last word overlapping the one before: a
    /// call to `memcmp` cost more than the comparison, for the few bytes of a layout.
    #[inline(always)]
    fn repeats(&mut self, seen: &[u8]) -> Option<()> {
        let next = self.b.get(self.i..self.i + seen.len())?;
        let word = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"));
        let half = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().expect("4 bytes"));
        let same = match seen.len() {
            0 => false,
            1..4 => next.iter().zip(seen).all(|(a, b)| a == b),
            n @ 4..8 => half(next, 0) == half(seen, 0) && half(next, n - 4) == half(seen, n - 4),
            n => {
                let mut at = 0;
                while at + 8 < n && word(next, at) == word(seen, at) {
                    at += 8;
                }
                at + 8 >= n && word(next, n - 8) == word(seen, n - 8)
            }
        };
        same.then(|| self.i += seen.len())
    }

    /// A string with no escape and no control character, after any white space. Most are short,
    /// after a line break and indentation, or a space, or nothing: read here in one block, white
    /// space and quotes and all.
    #[inline(always)]
    fn str(&mut self) -> Option<&'a str> {
        if let Some(v) = block(self.b, self.i) {
            if let Some(s) = self.in_block(v, (!any_of(v, b" \n")).trailing_zeros()) {
                return Some(s);
            }
        }
        self.ws();
        self.quoted()
    }

    /// A string from its opening quote, the next byte.
    #[inline(always)]
    fn quoted(&mut self) -> Option<&'a str> {
        if let Some(v) = block(self.b, self.i) {
            if let Some(s) = self.in_block(v, 0) {
                return Some(s);
            }
        }
        self.long_str()
    }

    /// The string whose opening quote is byte `open` of `v`, the block at the cursor, where it
    /// closes in the block with no stop before (see `stops`); the cursor is then after it.
    #[inline(always)]
    fn in_block(&mut self, v: i8x16, open: u32) -> Option<&'a str> {
        // Shifted, the opening quote is bit 0 and the string's first byte bit 1.
        let (quotes, stops) = (any_of(v, b"\"") >> open, stops(v) >> open);
        let first = (stops >> 1) & (stops >> 1).wrapping_neg();
        if quotes & 1 == 0 || quotes >> 1 & first == 0 {
            return None;
        }
        let start = self.i + open as usize + 1;
        let end = start + first.trailing_zeros() as usize;
        self.i = end + 1;
        // SAFETY: these bytes are ASCII, so UTF-8: `stops` marks every byte above 0x7f, and the
        // first stop after the opening quote is the closing quote. Checking them again made reading
        // a game take 41% more instructions (checking the whole text at once instead, 18% more).
        Some(unsafe { std::str::from_utf8_unchecked(&self.b[start..end]) })
    }

    /// A string from its opening quote, the others: those that do not close in the block, or are not
    /// ASCII, or too near the end of the text for a block. Checked as UTF-8 here: outside strings, a
    /// byte that is not ASCII is not JSON anyway.
    #[inline(never)]
    fn long_str(&mut self) -> Option<&'a str> {
        self.follows(b"\"")?;
        let start = self.i;
        let mut end = plain_end(self.b, start);
        while *self.b.get(end)? >= 0x80 {
            end = plain_end(self.b, end + 1);
        }
        (self.b[end] == b'"').then_some(())?;
        self.i = end + 1;
        std::str::from_utf8(&self.b[start..end]).ok()
    }

    #[inline(always)]
    fn text(&mut self) -> Option<Text> {
        self.str().map(Text::from)
    }

    /// A value other than a string, a list or an object: its run of letters, digits and minus signs
    /// (whatever follows must be a comma or a closing bracket, or the reader gives up).
    fn word(&mut self) -> &'a [u8] {
        self.ws();
        let start = self.i;
        let len = self.b[start..].iter().position(|&c| !(c.is_ascii_alphanumeric() || c == b'-')).unwrap_or(self.b.len() - start);
        self.i += len;
        &self.b[start..self.i]
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

    /// A list, calling `item` with the cursor on each of its items.
    #[inline(always)]
    fn list(&mut self, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.eat(b'[')?;
        if self.peek()? == b']' {
            self.i += 1;
            return Some(());
        }
        loop {
            item(self)?;
            match self.peek()? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A list, room made for `expected` items.
    #[inline(always)]
    fn array<T>(&mut self, expected: usize, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let mut out = Vec::with_capacity(expected);
        self.list(|c| {
            out.push(item(c)?);
            Some(())
        })?;
        Some(out)
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
            _ => match self.word() {
                b"true" => serde_json::Value::Bool(true),
                b"false" => serde_json::Value::Bool(false),
                run => integer(run)?.into(),
            },
        })
    }

    fn record(&mut self) -> Option<GameRecord> {
        let (mut ruleset, mut options, mut players, mut dealer, mut description, mut events, mut pots, mut standing) = (None, None, None, None, None, None, None, None);
        self.object(|c, key| match key {
            "ruleset" => once(&mut ruleset, c.str()?.to_string()),
            "options" => {
                let mut map = BTreeMap::new();
                c.object(|c, name| map.insert(name.to_string(), c.option_value()?).is_none().then_some(()))?;
                once(&mut options, map)
            }
            "players" => once(&mut players, c.array(8, |c| c.str().map(str::to_string))?),
            "dealer" => once(&mut dealer, c.str()?.to_string()),
            // Whole amounts within the bound only; anything else goes to serde_json, which says what
            // is wrong.
            "pots" => {
                let mut map = BTreeMap::new();
                c.object(|c, name| map.insert(name.to_string(), amount(c.word())?).is_none().then_some(()))?;
                once(&mut pots, map)
            }
            "standing" => {
                let mut map = BTreeMap::new();
                c.object(|c, name| map.insert(name.to_string(), amount(c.word())?).is_none().then_some(()))?;
                once(&mut standing, map)
            }
            "description" => {
                let text = if c.peek()? == b'"' { Some(c.str()?.to_string()) } else { (c.word() == b"null").then_some(None)? };
                once(&mut description, text)
            }
            // A game has at most 78 plays and a few other events.
            "events" => {
                let mut list = Vec::with_capacity(100);
                c.list(|c| {
                    if c.simple_event(&mut list).is_none() {
                        list.push(c.event()?);
                    }
                    Some(())
                })?;
                once(&mut events, list)
            }
            _ => None,
        })?;
        Some(GameRecord {
            ruleset: ruleset?,
            options: options.unwrap_or_default(),
            players: players?,
            dealer: dealer?,
            pots: pots.unwrap_or_default(),
            standing: standing.unwrap_or_default(),
            description: description.flatten(),
            events: events?,
        })
    }

    /// Most events are moves written `{"type": ..., "player": ..., "card" (or "bid"): ...}`: read
    /// straight through when they are, laid out as the last (`laid_out_move`) or key by key
    /// (`move_by_keys`), and pushed onto `out`; anything else is left to `event`, from the same place.
    fn simple_event(&mut self, out: &mut Vec<Event>) -> Option<()> {
        let start = self.i;
        let read = self.laid_out_move().or_else(|| {
            self.i = start;
            self.move_by_keys()
        });
        let Some((kind, player, value)) = read else {
            self.i = start;
            return None;
        };
        // Pushed here rather than returned: a move is a fifth of the size of the largest event, a
        // deal, and would be copied whole.
        let (player, value) = (Text::from(player), Text::from(value));
        out.push(match kind {
            Move::Play => Event::Play { player, card: value },
            Move::Bid => Event::Bid { player, bid: value },
            Move::Call => Event::Call { player, card: value },
        });
        Some(())
    }

    /// A move laid out as the last one `move_by_keys` read: a program writes every move of a game
    /// the same way, so after the first only the type and the values are read, and the bytes around
    /// them compared whole with the layout. The same bytes at the same place in a move, they are the
    /// same JSON: a valid layout, each key once.
    #[inline(always)]
    fn laid_out_move(&mut self) -> Option<(Move, &'a str, &'a str)> {
        self.repeats(self.layout.open)?;
        let kind = self.move_type()?;
        self.repeats(self.layout.player)?;
        let player = self.quoted()?;
        self.repeats(self.layout.value[kind as usize])?;
        let value = self.quoted()?;
        self.repeats(self.layout.close)?;
        Some((kind, player, value))
    }

    /// A move with its keys in this order, each with its colon right after it, read key by key; its
    /// layout is kept for the next.
    fn move_by_keys(&mut self) -> Option<(Move, &'a str, &'a str)> {
        let start = self.i;
        self.eat(b'{')?;
        self.literal(br#""type":"#)?;
        self.ws();
        let kind_at = self.i;
        let kind = self.move_type()?;
        let kind_end = self.i;
        self.eat(b',')?;
        self.literal(br#""player":"#)?;
        self.ws();
        let player_at = self.i;
        let player = self.quoted()?;
        let player_end = self.i;
        self.eat(b',')?;
        match kind {
            Move::Bid => self.literal(br#""bid":"#)?,
            _ => self.literal(br#""card":"#)?,
        }
        self.ws();
        let value_at = self.i;
        let value = self.quoted()?;
        let value_end = self.i;
        self.eat(b'}')?;
        let b = self.b;
        self.layout.open = &b[start..kind_at];
        self.layout.player = &b[kind_end..player_at];
        self.layout.value[kind as usize] = &b[player_end..value_at];
        self.layout.close = &b[value_end..self.i];
        Some((kind, player, value))
    }

    /// A move's type, quotes and all.
    #[inline(always)]
    fn move_type(&mut self) -> Option<Move> {
        if self.follows(br#""play""#).is_some() {
            Some(Move::Play)
        } else if self.follows(br#""bid""#).is_some() {
            Some(Move::Bid)
        } else {
            self.follows(br#""call""#).map(|()| Move::Call)
        }
    }

    fn event(&mut self) -> Option<Event> {
        let (mut kind, mut player, mut hands, mut dog, mut cut, mut piles, mut packets) = (None, None, None, None, None, None, None);
        let (mut bid, mut card, mut cards, mut declaration, mut gives) = (None, None, None, None, None);
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
                "gives" => (Field::Gives, once(&mut gives, c.text()?)),
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
            "take" => Event::Take { player: player?, cards: cards? },
            "buy" => Event::Buy { player: player?, card, gives },
            "declare" => Event::Declare { player: player?, declaration: declaration?, cards: cards.unwrap_or_default() },
            "sit-out" => Event::SitOut { player: player? },
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
