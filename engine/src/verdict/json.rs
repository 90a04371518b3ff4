//! The verdict written as JSON by hand, byte for byte what `serde_json::to_vec` writes from the
//! derived `Serialize`, in a third of the instructions: keys are written with their quotes and
//! colon in one copy, card codes and names need no escape scan beyond a check, and no serializer
//! state is kept. The derive stays the definition of the wire format (the OpenAPI document and the
//! store use it); a test compares the two on every fixture's verdict, so a field added to one and
//! not the other fails it.

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

struct Writer(Vec<u8>);

impl Writer {
    /// `"name":`, after a comma unless it is the object's first key.
    fn key(&mut self, first: bool, name: &str) {
        if !first {
            self.0.push(b',');
        }
        self.0.push(b'"');
        self.0.extend_from_slice(name.as_bytes());
        self.0.extend_from_slice(b"\":");
    }

    /// A string; one with a byte JSON escapes (a control character, `"` or `\`) goes to serde_json.
    fn str(&mut self, s: &str) {
        if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
            self.0.push(b'"');
            self.0.extend_from_slice(s.as_bytes());
            self.0.push(b'"');
        } else {
            self.serde(s);
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
        self.list(cards, |w, c| w.str(c.code_str()));
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
            w.serde(value);
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
        self.0.push(b'}');
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
        self.cards(&t.cards);
        self.str_field("winner", &t.winner);
        self.0.push(b'}');
    }
}
