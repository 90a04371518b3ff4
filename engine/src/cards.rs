//! Cards and sets of cards. Every tarot pack of the sources is a subset of the 78-card pack with up to
//! 19 more trumps (Minchiate has 40 trumps and 97 cards), so a card is an index into that pack and a
//! set of cards is a 128-bit mask: hands, tricks and card classes are all `CardSet`s, and the trick
//! obligations are a few mask operations.

use std::fmt;

/// The four suits, in the order of the card codes: spades/swords, hearts/cups, diamonds/coins,
/// clubs/batons.
pub const SUITS: [char; 4] = ['S', 'H', 'D', 'C'];

/// Rank codes from 1 to 14: numerals, then jack (J), cavalier (C), queen (Q), king (K).
pub const RANK_CODES: [&str; 14] = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"];

/// One card of the pack: trumps 1..21 are 0..20, the Fool is 21, suited cards follow, fourteen per
/// suit (22..77), and trumps 22..40 come last (78..96), so that the 78 cards of the usual pack keep
/// their indices.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Card(pub u8);

pub const FOOL: Card = Card(21);
pub const PACK_SIZE: usize = 97;
/// The most trumps a pack may have (Minchiate's 40).
pub const MAX_TRUMPS: u8 = 40;

/// What a card is, for the trick rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Trump(u8),
    Fool,
    /// Suit index 0..4 and rank 1..=14.
    Suited(u8, u8),
}

impl Card {
    pub fn trump(n: u8) -> Card {
        debug_assert!((1..=MAX_TRUMPS).contains(&n));
        if n <= 21 {
            Card(n - 1)
        } else {
            Card(78 + n - 22)
        }
    }
    pub fn suited(suit: u8, rank: u8) -> Card {
        debug_assert!(suit < 4 && (1..=14).contains(&rank));
        Card(22 + suit * 14 + rank - 1)
    }
    pub fn kind(self) -> Kind {
        match self.0 {
            0..=20 => Kind::Trump(self.0 + 1),
            21 => Kind::Fool,
            n @ 22..=77 => Kind::Suited((n - 22) / 14, (n - 22) % 14 + 1),
            n => Kind::Trump(n - 78 + 22),
        }
    }
    pub fn is_trump(self) -> bool {
        self.0 <= 20 || self.0 >= 78
    }
    pub fn is_fool(self) -> bool {
        self == FOOL
    }
    /// The "suit" a card belongs to for following: 0..4 for the suits, 4 for trumps, 5 for the Fool.
    pub fn lane(self) -> u8 {
        match self.kind() {
            Kind::Trump(_) => 4,
            Kind::Fool => 5,
            Kind::Suited(s, _) => s,
        }
    }
    /// Parses a card code: `T1`..`T40`, `EX`, or rank then suit (`KS`, `10H`, `CD`), in any case,
    /// with white space around it allowed. A replay parses every card of the deal and of every play:
    /// a code as written is decoded inline, by one `match` per length, and only a code that is not
    /// one goes on to be trimmed.
    #[inline]
    pub fn parse(code: &str) -> Option<Card> {
        Card::parse_exact(code.as_bytes()).or_else(|| Card::parse_trimmed(code))
    }

    #[cold]
    fn parse_trimmed(code: &str) -> Option<Card> {
        let trimmed = code.trim();
        if trimmed.len() == code.len() {
            return None;
        }
        Card::parse_exact(trimmed.as_bytes())
    }

    #[inline]
    fn parse_exact(b: &[u8]) -> Option<Card> {
        let suit = |s: u8| match s.to_ascii_uppercase() {
            b'S' => Some(0),
            b'H' => Some(1),
            b'D' => Some(2),
            b'C' => Some(3),
            _ => None,
        };
        match *b {
            [r, s] => match (r.to_ascii_uppercase(), s.to_ascii_uppercase()) {
                (b'E', b'X') => Some(FOOL),
                (b'T', d @ b'1'..=b'9') => Some(Card::trump(d - b'0')),
                (r, s) => {
                    let rank = match r {
                        b'1'..=b'9' => r - b'0',
                        b'J' => 11,
                        b'C' => 12,
                        b'Q' => 13,
                        b'K' => 14,
                        _ => return None,
                    };
                    Some(Card::suited(suit(s)?, rank))
                }
            },
            [b'1', b'0', s] => Some(Card::suited(suit(s)?, 10)),
            [t, d @ b'1'..=b'4', e @ b'0'..=b'9'] if t.eq_ignore_ascii_case(&b'T') => {
                let n = (d - b'0') * 10 + (e - b'0');
                (n <= MAX_TRUMPS).then(|| Card::trump(n))
            }
            _ => None,
        }
    }
    /// The card's code as recorded games write it (a `record::Text`).
    pub fn code(self) -> compact_str::CompactString {
        compact_str::CompactString::const_new(self.code_str())
    }
    /// The same, borrowed from a table built once.
    pub fn code_str(self) -> &'static str {
        static CODES: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| Card::all().map(|c| c.to_string()).collect());
        CODES[self.0 as usize].as_str()
    }
    /// Every card of the largest pack (97 cards, trumps to T40), in index order: a ruleset's own
    /// pack is its `Pack::cards`.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..PACK_SIZE as u8).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            Kind::Trump(n) => write!(f, "T{n}"),
            Kind::Fool => write!(f, "EX"),
            Kind::Suited(s, r) => write!(f, "{}{}", RANK_CODES[r as usize - 1], SUITS[s as usize]),
        }
    }
}

impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code_str())
    }
}

/// A set of cards.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct CardSet(pub u128);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    pub fn full() -> CardSet {
        CardSet((1u128 << PACK_SIZE) - 1)
    }
    /// Every trump a pack may have, T1 to T40: a pack's own are `Pack::trumps`.
    pub fn trumps() -> CardSet {
        CardSet(((1u128 << 21) - 1) | (((1u128 << (MAX_TRUMPS - 21)) - 1) << 78))
    }
    pub fn of_lane(lane: u8) -> CardSet {
        match lane {
            4 => CardSet::trumps(),
            5 => CardSet::single(FOOL),
            s => CardSet(((1u128 << 14) - 1) << (22 + 14 * s as u32)),
        }
    }
    pub fn single(c: Card) -> CardSet {
        CardSet(1u128 << c.0)
    }
    pub fn contains(self, c: Card) -> bool {
        self.0 >> c.0 & 1 == 1
    }
    pub fn insert(&mut self, c: Card) {
        self.0 |= 1u128 << c.0
    }
    pub fn remove(&mut self, c: Card) {
        self.0 &= !(1u128 << c.0)
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn and(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }
    pub fn or(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }
    pub fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(Card(i))
        })
    }
    /// The `n`-th card of the set in index order (for uniform random choice).
    pub fn nth(self, n: usize) -> Option<Card> {
        self.iter().nth(n)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(it: I) -> Self {
        let mut s = CardSet::EMPTY;
        for c in it {
            s.insert(c);
        }
        s
    }
}
