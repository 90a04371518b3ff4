//! The verdict written as JSON by hand, byte for byte what `serde_json::to_vec` writes from the
//! derived `Serialize`, in a third of the instructions: keys are written with their quotes and
//! colon in one copy, card codes and names need no escape scan beyond a check, and no serializer
//! state is kept. The derive stays the definition of the wire format (the OpenAPI document and the
//! store use it); a test compares the two on every fixture's verdict (`engine/tests/it/fixtures.rs`),
//! so a field added to one and not the other fails it. What it saves, measured (`cargo bench -p
//! tarot-engine --bench wire`, medians, the verdict of `fixtures/worked/fft-deal1.json`): 7.2 µs
//! against serde_json's 17.9 µs, on a shared 2-core machine under load.

use serde::Serialize;

use super::*;
use crate::cards::Card;

impl Verdict {
    /// The verdict as JSON, as `serde_json::to_vec(self)` writes it.
    pub fn to_json(&self) -> Vec<u8> {
        let mut w = Writer(Vec::with_capacity(1024 + 160 * self.tricks.len() + 200 * self.ledger.len()));
        w.0.push(b'{');
        w.key(true, "ruleset");
        w.str(&self.ruleset);
        w.str_field("ruleset_version", &self.ruleset_version);
        w.key(false, "status");
        w.serde(&self.status);
        if let Some(v) = &self.violation {
            w.key(false, "violation");
            w.violation(v);
        }
        if let Some(a) = &self.annulled {
            w.key(false, "annulled");
            w.annulled(a);
        }
        if let Some(n) = &self.next {
            w.key(false, "next");
            w.serde(n);
        }
        if let Some(o) = &self.outcome {
            w.key(false, "outcome");
            w.outcome(o);
        }
        if !self.ledger.is_empty() {
            w.key(false, "ledger");
            w.list(&self.ledger, Writer::ledger_entry);
        }
        w.key(false, "tricks");
        w.list(&self.tricks, Writer::trick);
        if !self.notes.is_empty() {
            w.key(false, "notes");
            w.list(&self.notes, |w, n| w.str(n));
        }
        w.0.push(b'}');
        w.0
    }
}

/// A text as the verdict's writer writes it, for the tests that hold it to serde_json's escaping.
pub fn json_string(text: &str) -> String {
    let mut w = Writer(vec![]);
    w.str(text);
    String::from_utf8(w.0).expect("the writer escapes into UTF-8")
}

struct Writer(Vec<u8>);

/// Whether any byte of `b` needs an escape, read a word at a time with no loop over bytes: the
/// words from the start, then the last eight bytes (which may overlap the word before); a text
/// shorter than a word is read as two overlapping halves, or, under four bytes, as its first,
/// middle and last bytes padded with letters.
fn any_needs_escape(b: &[u8]) -> bool {
    let n = b.len();
    if n >= 8 {
        let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("eight bytes"));
        let mut i = 0;
        while i + 8 < n {
            if needs_escape(word(i)) {
                return true;
            }
            i += 8;
        }
        return needs_escape(word(n - 8));
    }
    let x = match n {
        0 => return false,
        1..=3 => u64::from(b[0]) | u64::from(b[n / 2]) << 8 | u64::from(b[n - 1]) << 16 | 0x6161_6161_6100_0000,
        _ => {
            let half = |i: usize| u64::from(u32::from_le_bytes(b[i..i + 4].try_into().expect("four bytes")));
            half(0) | half(n - 4) << 32
        }
    };
    needs_escape(x)
}

/// Whether any of eight bytes needs an escape: a control character (below 0x20), `"` or `\`. Each
/// test is the classic "has a byte less than n" on the word; it can flag a byte wrongly only above
/// one that it rightly flags, so "none" is exact.
fn needs_escape(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |v: u64, n: u64| v.wrapping_sub(ONES * n) & !v & HIGH;
    (below(x, 0x20) | below(x ^ (ONES * b'"' as u64), 1) | below(x ^ (ONES * b'\\' as u64), 1)) != 0
}

/// For each byte, how JSON escapes it: 0 for not at all, `u` for `\u00XX`, else the letter after
/// the backslash.
const ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = b'u';
        b += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

impl Writer {
    /// `"name":`, after a comma unless it is the object's first key. Inlined, so that each key, known
    /// where it is written, is copied without a call to `memcpy`.
    #[inline(always)]
    fn key(&mut self, first: bool, name: &str) {
        if !first {
            self.0.push(b',');
        }
        self.0.push(b'"');
        self.0.extend_from_slice(name.as_bytes());
        self.0.extend_from_slice(b"\":");
    }

    /// A string, escaped as serde_json escapes it: `\"`, `\\`, the short escapes of control
    /// characters, `\u00XX` for the others; every other byte as it is.
    fn str(&mut self, s: &str) {
        let bytes = s.as_bytes();
        self.0.reserve(bytes.len() + 2);
        self.0.push(b'"');
        // Most strings (names, rules, labels) have nothing to escape: one copy.
        if !any_needs_escape(bytes) {
            self.0.extend_from_slice(bytes);
            self.0.push(b'"');
            return;
        }
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let escape = ESCAPE[b as usize];
            if escape == 0 {
                continue;
            }
            self.0.extend_from_slice(&bytes[start..i]);
            start = i + 1;
            match escape {
                b'u' => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    self.0.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 0xf) as usize]]);
                }
                short => self.0.extend_from_slice(&[b'\\', short]),
            }
        }
        self.0.extend_from_slice(&bytes[start..]);
        self.0.push(b'"');
    }

    /// A card's code, two or three bytes that never need an escape, copied with its quotes at once.
    fn code(&mut self, c: Card) {
        match *c.code_str().as_bytes() {
            [a, b] => self.0.extend_from_slice(&[b'"', a, b, b'"']),
            [a, b, c] => self.0.extend_from_slice(&[b'"', a, b, c, b'"']),
            _ => self.str(c.code_str()),
        }
    }

    /// `,"name":"text"`: a string field after the object's first.
    fn str_field(&mut self, name: &str, s: &str) {
        self.key(false, name);
        self.str(s);
    }

    fn opt_str(&mut self, name: &str, s: &Option<impl AsRef<str>>) {
        if let Some(s) = s {
            self.str_field(name, s.as_ref());
        }
    }

    fn int(&mut self, n: impl itoa::Integer) {
        self.0.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    }

    fn num(&mut self, q: Q) {
        if q.is_integer() {
            self.int(q.numer());
        } else {
            self.serde(&q);
        }
    }

    /// Anything else, by serde_json.
    fn serde(&mut self, v: &(impl Serialize + ?Sized)) {
        serde_json::to_writer(&mut self.0, v).expect("verdicts are plain data");
    }

    fn list<T>(&mut self, items: &[T], mut item: impl FnMut(&mut Self, &T)) {
        self.0.push(b'[');
        for (i, t) in items.iter().enumerate() {
            if i > 0 {
                self.0.push(b',');
            }
            item(self, t);
        }
        self.0.push(b']');
    }

    fn cards(&mut self, cards: &[Card]) {
        self.list(cards, |w, c| w.code(*c));
    }

    fn violation(&mut self, v: &Violation) {
        self.0.push(b'{');
        self.key(true, "event");
        self.int(v.event);
        self.opt_str("player", &v.player);
        self.str_field("rule", &v.rule);
        self.str_field("message", &v.message);
        self.opt_str("source", &v.source);
        self.str_field("at", &v.at);
        self.0.push(b'}');
    }

    fn annulled(&mut self, a: &Annulled) {
        self.0.push(b'{');
        self.key(true, "rule");
        self.str(&a.rule);
        self.str_field("reason", &a.reason);
        self.opt_str("player", &a.player);
        self.opt_str("source", &a.source);
        self.0.push(b'}');
    }

    fn outcome(&mut self, o: &Outcome) {
        self.0.push(b'{');
        // `values` is always there, so the first key is whichever comes first.
        let mut first = true;
        for (name, value) in [("taker", o.taker.as_deref()), ("partner", o.partner.as_deref()), ("contract", o.contract.as_deref())] {
            if let Some(v) = value {
                self.key(first, name);
                self.str(v);
                first = false;
            }
        }
        self.key(first, "values");
        self.list(&o.values, |w, (name, value)| {
            w.0.push(b'[');
            w.str(name);
            w.0.push(b',');
            w.figure(value);
            w.0.push(b']');
        });
        if let Some(h) = o.hand_score {
            self.key(false, "hand_score");
            self.num(h);
        }
        self.key(false, "players");
        self.list(&o.players, |w, p| {
            w.0.push(b'{');
            w.key(true, "player");
            w.str(&p.player);
            w.key(false, "card_points");
            w.num(p.card_points);
            w.key(false, "tricks");
            w.int(p.tricks);
            w.key(false, "score");
            w.num(p.score);
            if p.winner {
                w.key(false, "winner");
                w.0.extend_from_slice(b"true");
            }
            w.0.push(b'}');
        });
        if !o.pots.is_empty() {
            self.key(false, "pots");
            self.list(&o.pots, |w, p| {
                w.0.push(b'{');
                w.key(true, "pot");
                w.str(&p.pot);
                w.key(false, "carried");
                w.num(p.carried);
                w.key(false, "closing");
                w.num(p.closing);
                w.0.push(b'}');
            });
        }
        if !o.ends_match.is_empty() {
            self.key(false, "ends_match");
            self.list(&o.ends_match, |w, p| w.str(p));
        }
        if let Some(p) = &o.last_dealer {
            self.key(false, "last_dealer");
            self.str(p);
        }
        self.0.push(b'}');
    }

    fn figure(&mut self, f: &Figure) {
        match f {
            Figure::Num(q) => self.num(*q),
            Figure::Bool(b) => self.0.extend_from_slice(if *b { b"true" } else { b"false" }),
            Figure::Text(t) => self.str(t),
            Figure::Trick(t) => {
                self.0.extend_from_slice(b"\"trick ");
                self.int(u16::from(*t) + 1);
                self.0.push(b'"');
            }
            Figure::List(l) => self.list(l, Writer::figure),
        }
    }

    fn ledger_entry(&mut self, l: &LedgerEntry) {
        self.0.push(b'{');
        self.key(true, "rule");
        self.str(&l.rule);
        self.str_field("label", &l.label);
        self.opt_str("from", &l.from);
        self.opt_str("to", &l.to);
        self.key(false, "amount");
        self.num(l.amount);
        self.opt_str("source", &l.source);
        if let Some(e) = l.event {
            self.key(false, "event");
            self.int(e);
        }
        self.0.push(b'}');
    }

    fn trick(&mut self, t: &TrickView) {
        self.0.push(b'{');
        self.key(true, "number");
        self.int(t.number);
        self.str_field("leader", &t.leader);
        self.key(false, "cards");
        match &t.cards.spellings {
            None => self.cards(&t.cards),
            Some(_) => self.list(&t.cards.codes().collect::<Vec<_>>(), |w, c| w.str(c)),
        }
        self.str_field("winner", &t.winner);
        if !t.not_taken.is_empty() {
            self.key(false, "not_taken");
            self.list(&t.not_taken, |w, x| {
                w.0.push(b'{');
                w.key(true, "card");
                w.str(&x.code);
                w.str_field("to", &x.to);
                w.key(false, "for_empty_card");
                w.0.extend_from_slice(if x.for_empty_card { b"true" } else { b"false" });
                w.0.push(b'}');
            });
        }
        self.0.push(b'}');
    }
}
