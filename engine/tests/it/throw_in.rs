//! A hand thrown in between the auction's rounds: a declaration made once the opening round is over
//! (`when after-opening-round`) that annuls the deal (`ends-deal annul`). Oberwolfach's Cego for three
//! (`cego-oberwolfach`, P "Oberwolfach Version"): all three having said Fort Solo, a player dealt seven
//! empty cards or more may throw his hand in, and the next dealer deals. The throw-in annuls the deal,
//! the next dealer due is the player after the dealer; it is refused with six empty cards, before the
//! third Fort, after Vorhand's Cego, and after a Solo; `next` offers it only in its moment; the
//! compiler refuses the forms that could never apply as written.

use crate::common::compile_text;

use tarot_engine::{next_follows, replay, Event, GameRecord, Registry, Status};

/// A deal of Oberwolfach's three, Bob dealing (Cid is Vorhand), in which Bob holds `empties` empty
/// cards (4 to 7): the stored game's deal with some of Ann's empty cards swapped for Bob's trumps.
fn deal(empties: usize) -> GameRecord {
    let text = tarot_testkit::fixture("cego-oberwolfach/in_progress/forced-eine.json");
    let mut rec = tarot_engine::read_record(text.as_bytes()).unwrap();
    rec.events.truncate(1);
    let Event::Deal { hands, .. } = &mut rec.events[0] else { panic!("a deal") };
    // Bob holds 2H 9S 3H 10C; Ann 10S 8C 8S.
    for (give, take) in [("10S", "T13"), ("8C", "T15"), ("8S", "T7")].into_iter().take(empties - 4) {
        let ann = hands.get_mut("Ann").unwrap();
        let i = ann.iter().position(|c| **c == *give).unwrap();
        ann[i] = take.into();
        let bob = hands.get_mut("Bob").unwrap();
        let j = bob.iter().position(|c| **c == *take).unwrap();
        bob[j] = give.into();
    }
    rec
}

fn with(mut rec: GameRecord, events: &[(&str, &str)]) -> GameRecord {
    for &(player, what) in events {
        rec.events.push(if what == "throw_in" {
            Event::Declare { player: player.into(), declaration: what.into(), cards: vec![] }
        } else {
            Event::Bid { player: player.into(), bid: what.into() }
        });
    }
    rec
}

const FORTS: [(&str, &str); 3] = [("Cid", "pass"), ("Ann", "pass"), ("Bob", "pass")];

fn broken(rec: &GameRecord) -> Option<String> {
    let rules = Registry::builtin().unwrap();
    let v = replay(rules.get("cego-oberwolfach").unwrap(), rec).unwrap();
    v.violation.map(|b| b.rule.to_string())
}

#[test]
fn seven_empty_cards_thrown_in_after_three_forts_annul_the_deal() {
    let registry = Registry::builtin().unwrap();
    let rules = registry.get("cego-oberwolfach").unwrap();
    let rec = with(deal(7), &[FORTS[0], FORTS[1], FORTS[2], ("Bob", "throw_in")]);
    let v = replay(rules, &rec).unwrap();
    assert_eq!(v.status, Status::Annulled, "{}", v.to_text());
    let a = v.annulled.as_ref().unwrap();
    assert_eq!(&*a.rule, "declaration.throw_in.ends-deal");
    assert_eq!(a.player.as_deref(), Some("Bob"));
    assert!(a.reason.contains("throws the deal in"), "{}", a.reason);
    assert!(v.outcome.is_none() && v.ledger.is_empty(), "nobody scores");
    // The next dealer deals: Cid, the player after Bob, not Bob again.
    let mut next = deal(4);
    next.dealer = "Cid".into();
    assert!(next_follows(&[(rules, &rec, &v)], rules, &next).is_ok());
    next.dealer = "Bob".into();
    assert!(next_follows(&[(rules, &rec, &v)], rules, &next).is_err());
    // Nothing follows a hand thrown in.
    let after = with(rec.clone(), &[("Cid", "cego")]);
    assert!(replay(rules, &after).is_err(), "an event after the annulment is refused");
}

#[test]
fn the_throw_in_is_refused_with_six_empty_cards_or_out_of_its_moment() {
    // Six empty cards.
    assert_eq!(broken(&with(deal(6), &[FORTS[0], FORTS[1], FORTS[2], ("Bob", "throw_in")])).as_deref(), Some("declaration.throw_in.allowed"));
    // Before the third Fort, or right after the deal.
    assert_eq!(broken(&with(deal(7), &[FORTS[0], FORTS[1], ("Bob", "throw_in")])).as_deref(), Some("declaration.throw_in"));
    assert_eq!(broken(&with(deal(7), &[("Bob", "throw_in")])).as_deref(), Some("declaration.throw_in"));
    // After Vorhand's Cego, the second phase begun.
    assert_eq!(broken(&with(deal(7), &[FORTS[0], FORTS[1], FORTS[2], ("Cid", "cego"), ("Bob", "throw_in")])).as_deref(), Some("declaration.throw_in"));
    // After a Solo: the round is over, but not all said Fort Solo.
    assert_eq!(broken(&with(deal(7), &[("Cid", "pass"), ("Ann", "solo"), ("Bob", "throw_in")])).as_deref(), Some("declaration.throw_in.allowed"));
}

#[test]
fn next_offers_the_throw_in_only_in_its_moment() {
    let registry = Registry::builtin().unwrap();
    let rules = registry.get("cego-oberwolfach").unwrap();
    let offered = |rec: &GameRecord| -> Vec<String> {
        let v = replay(rules, rec).unwrap();
        v.next.map(|n| n.declarations.iter().filter(|d| &*d.declaration == "throw_in").map(|d| d.player.to_string()).collect()).unwrap_or_default()
    };
    assert_eq!(offered(&with(deal(7), &FORTS)), ["Bob"]);
    assert!(offered(&with(deal(6), &FORTS)).is_empty());
    assert!(offered(&with(deal(7), &FORTS[..2])).is_empty());
    assert!(offered(&with(deal(7), &[FORTS[0], FORTS[1], FORTS[2], ("Cid", "cego")])).is_empty());
}

#[test]
fn the_compiler_refuses_a_throw_in_that_could_never_apply() {
    let text = |block: &str, bidding: &str| format!("ruleset x \"x\"\nextends cego-oberwolfach\n{bidding}\ndeclaration t \"t\" {{\n{block}\n}}\n");
    let ok = "when after-opening-round\nallowed \"seven\" = count(hand, pips) >= 7\nends-deal annul";
    assert!(compile_text("x", &text(ok, "")).is_ok());
    // Without an opening round, no round is ever over.
    let err = compile_text("x", &text(ok, "bidding {\n  without opening-round solo\n}")).unwrap_err();
    assert!(err.contains("needs an opening round"), "{err}");
    // A deal thrown in pays nothing.
    let err = compile_text("x", &text(&format!("{ok}\npay players to players = 1"), "")).unwrap_err();
    assert!(err.contains("pays nothing"), "{err}");
    // `ends-deal` takes `annul` and no other word.
    let err = compile_text("x", &text("when after-opening-round\nends-deal void", "")).unwrap_err();
    assert!(err.contains("ends-deal annul"), "{err}");
    // Made in the auction, it cannot read the contract, nor be compulsory.
    let err = compile_text("x", &text("when after-opening-round\nallowed = contract.factor > 0\nends-deal annul", "")).unwrap_err();
    assert!(err.contains("before anyone has won it"), "{err}");
    let err = compile_text("x", &text("when after-opening-round\ncompulsory", "")).unwrap_err();
    assert!(err.contains("cannot be `compulsory`"), "{err}");
}
