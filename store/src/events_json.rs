//! An append's events (`[NewEvent]`) written as JSON by hand, byte for byte what `serde_json::to_vec`
//! writes from the derived `Serialize` (the definition of the format, kept): an import writes every
//! game's events, and serde's serializer was a tenth of the CPU of an import of 20,000 simulated
//! four-player games (perf, release build), most of it per card code and name in `serialize_str`.
//! Texts that need no escape (card codes and names, as a rule) are copied as they are; any other is
//! written by serde_json. The matches below name every field, so a field or an event added to the
//! record does not compile until it is written here too; a test compares the two on simulated games
//! of every built-in ruleset and on events of every kind.
//!
//! What it saves today, measured (`cargo bench -p tarot-store --bench events`, medians, the events of
//! 20 simulated fft-4p games written one game at a time): 1.21 ms against serde_json's 1.50 ms, about
//! a fifth, on a shared 2-core machine under load.

use std::collections::BTreeMap;

use tarot_engine::Event;
use tarot_engine::Packet;

use crate::NewEvent;

/// `serde_json::to_vec(events)`.
pub fn encode_events(events: &[NewEvent]) -> Vec<u8> {
    // About what a game's events take (a deal, then moves of about 60 bytes), so that it is
    // rarely copied as it grows.
    let mut w = Writer(Vec::with_capacity(512 + 64 * events.len()));
    w.0.push(b'[');
    for (i, new) in events.iter().enumerate() {
        if i > 0 {
            w.0.push(b',');
        }
        w.0.push(b'{');
        if let Some(id) = &new.id {
            w.0.extend_from_slice(b"\"id\":");
            w.str(id);
            w.0.push(b',');
        }
        w.0.extend_from_slice(b"\"event\":");
        w.event(&new.event);
        w.0.push(b'}');
    }
    w.0.push(b']');
    w.0
}

struct Writer(Vec<u8>);

impl Writer {
    /// A JSON string, as serde_json writes it.
    fn str(&mut self, text: &str) {
        if text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
            serde_json::to_writer(&mut self.0, text).expect("a string can be written to memory");
        } else {
            self.0.push(b'"');
            self.0.extend_from_slice(text.as_bytes());
            self.0.push(b'"');
        }
    }

    /// `,"key":`: keys are plain words, written as they are.
    fn key(&mut self, key: &str) {
        self.0.extend_from_slice(b",\"");
        self.0.extend_from_slice(key.as_bytes());
        self.0.extend_from_slice(b"\":");
    }

    fn texts<T: AsRef<str>>(&mut self, texts: &[T]) {
        self.0.push(b'[');
        for (i, text) in texts.iter().enumerate() {
            if i > 0 {
                self.0.push(b',');
            }
            self.str(text.as_ref());
        }
        self.0.push(b']');
    }

    fn map<K: AsRef<str>, V>(&mut self, map: &BTreeMap<K, V>, mut value: impl FnMut(&mut Self, &V)) {
        self.0.push(b'{');
        for (i, (key, v)) in map.iter().enumerate() {
            if i > 0 {
                self.0.push(b',');
            }
            self.str(key.as_ref());
            self.0.push(b':');
            value(self, v);
        }
        self.0.push(b'}');
    }

    /// `"player":..` after the type, as every event but the deal has it.
    fn player(&mut self, kind: &str, player: &str) {
        self.0.extend_from_slice(b"{\"type\":\"");
        self.0.extend_from_slice(kind.as_bytes());
        self.0.extend_from_slice(b"\"");
        self.key("player");
        self.str(player);
    }

    fn event(&mut self, event: &Event) {
        match event {
            Event::Deal { hands, dog, cut, piles, packets } => {
                self.0.extend_from_slice(b"{\"type\":\"deal\"");
                self.key("hands");
                self.map(hands, |w, cards| w.texts(cards));
                if !dog.is_empty() {
                    self.key("dog");
                    self.texts(dog);
                }
                if let Some(cut) = cut {
                    self.key("cut");
                    self.str(cut);
                }
                if !piles.is_empty() {
                    self.key("piles");
                    self.map(piles, |w, piles| {
                        w.0.push(b'[');
                        for (i, pile) in piles.iter().enumerate() {
                            if i > 0 {
                                w.0.push(b',');
                            }
                            w.texts(pile);
                        }
                        w.0.push(b']');
                    });
                }
                if !packets.is_empty() {
                    self.key("packets");
                    self.0.push(b'[');
                    for (i, Packet { to, cards }) in packets.iter().enumerate() {
                        if i > 0 {
                            self.0.push(b',');
                        }
                        self.0.push(b'{');
                        if let Some(to) = to {
                            self.0.extend_from_slice(b"\"to\":");
                            self.str(to);
                            self.0.push(b',');
                        }
                        self.0.extend_from_slice(b"\"cards\":");
                        self.texts(cards);
                        self.0.push(b'}');
                    }
                    self.0.push(b']');
                }
            }
            Event::Bid { player, bid } => {
                self.player("bid", player);
                self.key("bid");
                self.str(bid);
            }
            Event::Call { player, card } => {
                self.player("call", player);
                self.key("card");
                self.str(card);
            }
            Event::Discard { player, cards } => {
                self.player("discard", player);
                self.key("cards");
                self.texts(cards);
            }
            Event::Take { player, cards } => {
                self.player("take", player);
                self.key("cards");
                self.texts(cards);
            }
            Event::Buy { player, card, gives } => {
                self.player("buy", player);
                if let Some(card) = card {
                    self.key("card");
                    self.str(card);
                }
                if let Some(gives) = gives {
                    self.key("gives");
                    self.str(gives);
                }
            }
            Event::Declare { player, declaration, cards } => {
                self.player("declare", player);
                self.key("declaration");
                self.str(declaration);
                self.key("cards");
                self.texts(cards);
            }
            Event::Play { player, card } => {
                self.player("play", player);
                self.key("card");
                self.str(card);
            }
            Event::SitOut { player } => self.player("sit-out", player),
        }
        self.0.push(b'}');
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use rand::SeedableRng;
    use tarot_engine::Packet;
    use tarot_engine::{Event, Registry};

    use super::encode_events;
    use crate::NewEvent;

    fn same(events: &[NewEvent]) {
        let serde = serde_json::to_vec(events).unwrap();
        assert_eq!(String::from_utf8(encode_events(events)).unwrap(), String::from_utf8(serde).unwrap());
    }

    /// Simulated games of every built-in ruleset, with and without ids.
    #[test]
    fn simulated_games_are_written_as_serde_writes_them() {
        let registry = Registry::builtin().unwrap_or_else(|d| panic!("{d}"));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        let mut games = 0;
        for rules in registry.all() {
            for players in rules.players.0..=rules.players.1 {
                for _ in 0..3 {
                    let Ok(game) = tarot_engine::random_game(rules, players, &BTreeMap::new(), &mut rng) else { continue };
                    let events: Vec<NewEvent> = game.events.into_iter().map(|event| NewEvent { id: None, event }).collect();
                    same(&events);
                    let with_ids: Vec<NewEvent> = events.into_iter().enumerate().map(|(i, e)| NewEvent { id: Some(format!("e{i}")), ..e }).collect();
                    same(&with_ids);
                    games += 1;
                }
            }
        }
        assert!(games > 20, "only {games} games simulated");
    }

    /// Every kind of event, every optional field present and absent, and texts that need escapes.
    #[test]
    fn every_event_is_written_as_serde_writes_it() {
        let t = |s: &str| tarot_engine::Text::from(s);
        let odd = ["A\"b", "back\\slash", "tab\there", "\u{1}\u{1f}\n\r\u{8}\u{c}", "é€😀", "", "\u{7f}"];
        let mut events = vec![];
        for name in odd.iter().chain(&["Ann"]) {
            let p = t(name);
            events.extend([
                Event::Deal {
                    hands: BTreeMap::from([(p.clone(), vec![t("1C"), t(name)]), (t("Bob"), vec![])]),
                    dog: vec![t(name)],
                    cut: Some(t(name)),
                    piles: BTreeMap::from([(p.clone(), vec![vec![t("2C"), t(name)], vec![]])]),
                    packets: vec![Packet { to: Some(p.clone()), cards: vec![t(name)] }, Packet { to: None, cards: vec![] }],
                },
                Event::Deal { hands: BTreeMap::new(), dog: vec![], cut: None, piles: BTreeMap::new(), packets: vec![] },
                Event::Bid { player: p.clone(), bid: t(name) },
                Event::Call { player: p.clone(), card: t(name) },
                Event::Discard { player: p.clone(), cards: vec![t(name), t("3C")] },
                Event::Take { player: p.clone(), cards: vec![] },
                Event::Buy { player: p.clone(), card: Some(t(name)), gives: Some(t("4C")) },
                Event::Buy { player: p.clone(), card: None, gives: None },
                Event::Declare { player: p.clone(), declaration: t(name), cards: vec![] },
                Event::Declare { player: p.clone(), declaration: t("poignee"), cards: vec![t(name)] },
                Event::Play { player: p.clone(), card: t(name) },
                Event::SitOut { player: p.clone() },
            ]);
        }
        let events: Vec<NewEvent> =
            events.into_iter().zip(odd.iter().cycle()).enumerate().map(|(i, (event, id))| NewEvent { id: (i % 3 > 0).then(|| id.to_string()), event }).collect();
        same(&events);
        same(&[]);
    }
}
