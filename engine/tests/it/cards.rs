//! Card codes and the pack's lanes.

use tarot_engine::testing::{MAX_TRUMPS, PACK_SIZE};
use tarot_engine::{Card, CardSet, Kind};

#[test]
fn codes_round_trip_for_every_card() {
    for c in Card::all() {
        assert_eq!(Card::parse(&c.to_string()), Some(c), "{c}");
    }
    assert_eq!(Card::parse("ks"), Card::parse("KS"));
    assert_eq!(Card::parse("10h").map(|c| c.to_string()), Some("10H".into()));
    assert_eq!(Card::parse("T40").map(|c| c.kind()), Some(Kind::Trump(40)));
    assert_eq!(Card::parse("t22"), Some(Card(78)));
    for bad in ["T0", "T41", "T50", "11S", "KX", "", "E", "T01", "0S", "XS", "TT"] {
        assert_eq!(Card::parse(bad), None, "{bad}");
    }
}

/// Every text of up to four characters from the bytes codes are made of (and a few others): it is
/// a card exactly when, trimmed and in capitals, it is that card's code.
#[test]
fn a_code_is_a_card_exactly_when_it_is_its_code() {
    let codes: std::collections::HashMap<String, Card> = Card::all().map(|c| (c.to_string(), c)).collect();
    let alphabet = b" 01249TtEeXxSHDCcsJQKkA-";
    let mut text = Vec::new();
    let mut checked = 0;
    for len in 0..=4u32 {
        for mut k in 0..alphabet.len().pow(len) {
            text.clear();
            for _ in 0..len {
                text.push(alphabet[k % alphabet.len()]);
                k /= alphabet.len();
            }
            let s = std::str::from_utf8(&text).unwrap();
            assert_eq!(Card::parse(s), codes.get(&s.trim().to_ascii_uppercase()).copied(), "{s:?}");
            checked += 1;
        }
    }
    assert!(checked > 290_000);
}

#[test]
fn lanes_partition_the_pack() {
    let union = (0..6).fold(CardSet::EMPTY, |a, l| a.or(CardSet::of_lane(l)));
    assert_eq!(union, CardSet::full());
    assert_eq!((0..6).map(|l| CardSet::of_lane(l).len()).sum::<usize>(), PACK_SIZE);
    assert_eq!(CardSet::trumps().len(), MAX_TRUMPS as usize);
    assert!(CardSet::trumps().iter().all(|c| c.is_trump() && matches!(c.kind(), Kind::Trump(_))));
}
