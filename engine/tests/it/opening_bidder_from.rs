//! The opening round's bidder out of the auction after it, that auction from first hand
//! (`bidding { opening-bidder out from first-hand }`), on the Bräunlingen tournament's Cego (P
//! "Bräunlingen Tournament Version"): B says Solo, and the second phase begins with Vorhand (A), not
//! with C, the player after B, as plain `opening-bidder out` has it; B never speaks again. Where Vorhand
//! bid the Solo, both forms begin with the player after him.

use crate::common;

use tarot_engine::{replay, Event, GameRecord, Registry, Status};

const ID: &str = "cego-braeunlingen";
const FROM: &str = "  opening-bidder out from first-hand";

fn read(rel: &str) -> GameRecord {
    tarot_engine::read_record(tarot_testkit::fixture(&format!("{ID}/{rel}")).as_bytes()).unwrap()
}

/// The built-in rules with the tournament's file changed by `change`.
fn registry_with(change: impl Fn(&str) -> String) -> Registry {
    common::builtin_changed(ID, |text| {
        assert!(text.contains(FROM), "the tournament's file says `{FROM}`");
        change(text)
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

fn rule(v: &tarot_engine::Verdict) -> Option<String> {
    v.violation.as_ref().map(|b| b.rule.to_string())
}

#[test]
fn after_the_solo_vorhand_speaks_first() {
    let rules = tarot_testkit::registry().get(ID).unwrap();
    let plain = registry_with(|t| t.replace(FROM, "  opening-bidder out"));
    let plain = plain.get(ID).unwrap();
    // B's Solo, A's Gegensolo, C and D passing: valid from first hand; from the player after B, A has
    // spoken out of turn.
    let game = read("valid/gegensolo.json");
    assert_eq!(replay(rules, &game).unwrap().status, Status::Valid);
    let v = replay(plain, &game).unwrap();
    assert_eq!(rule(&v).as_deref(), Some("bidding.turns"), "{}", v.to_text());
    // C, the player after B, beginning: refused from first hand, his turn under plain `out`.
    let bad = read("invalid/bidding.turns--after-solo.json");
    assert_eq!(rule(&replay(rules, &bad).unwrap()).as_deref(), Some("bidding.turns"));
    let v = replay(plain, &bad).unwrap();
    assert_eq!((v.violation.is_none(), v.status), (true, Status::InProgress), "{}", v.to_text());
    // B holding A's Gegensolo: refused by both, B being out.
    let held = read("invalid/bidding.opening-bidder.json");
    assert_eq!(rule(&replay(rules, &held).unwrap()).as_deref(), Some("bidding.opening-bidder"));
    // Before A's Gegensolo, A is next.
    let mut cut = game.clone();
    let at = game.events.iter().position(|e| matches!(e, Event::Bid { bid, .. } if &**bid == "cego")).unwrap();
    cut.events.truncate(at);
    let next = replay(rules, &cut).unwrap().next.expect("a bid is next").player;
    let Event::Bid { player, .. } = &game.events[at] else { unreachable!() };
    assert_eq!(*next, **player);
}

#[test]
fn where_vorhand_bid_the_solo_both_forms_begin_after_him() {
    let rules = tarot_testkit::registry().get(ID).unwrap();
    let plain = registry_with(|t| t.replace(FROM, "  opening-bidder out"));
    let plain = plain.get(ID).unwrap();
    let game = read("valid/gegensolo.json");
    // The same deal, A (Vorhand) saying Solo and B the Gegensolo, C and D passing.
    let seat = |k: usize| {
        let n = game.players.len();
        let d = game.players.iter().position(|p| *p == game.dealer).unwrap();
        game.players[(d + 1 + k) % n].clone()
    };
    // The auction alone (the play stored is A's as the declarer).
    let mut rec = game.clone();
    rec.events = vec![game.events[0].clone()];
    for (k, bid) in [(0, "solo"), (1, "cego"), (2, "pass"), (3, "pass")] {
        rec.events.push(Event::Bid { player: seat(k).as_str().into(), bid: bid.into() });
    }
    for r in [rules, plain] {
        let v = replay(r, &rec).unwrap();
        assert!(v.violation.is_none(), "{}", v.to_text());
        assert_eq!(v.status, Status::InProgress);
    }
}
