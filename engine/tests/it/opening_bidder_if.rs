//! The opening round's bidder out of the auction after it only in the games whose options say so
//! (`bidding { opening-bidder out = condition }`), on Oberwolfach's Cego changed to follow its option
//! `geiss_frei`: where the condition is true, A, who said Solo, may not hold B's Gegensolo (rule
//! `bidding.opening-bidder`); where it is false, A speaks again, his Solo held by him as without the
//! statement. A condition that reads no option, or reads the game, is refused.

use crate::common;

use tarot_engine::{describe, replay, Event, GameRecord, Registry, Status};

const ID: &str = "cego-oberwolfach";
const OUT: &str = "  opening-bidder out ";

fn read(rel: &str) -> GameRecord {
    tarot_engine::read_record(tarot_testkit::fixture(&format!("{ID}/{rel}")).as_bytes()).unwrap()
}

/// The built-in rules with Oberwolfach's file changed by `change`, or the compiler's diagnostics.
fn registry_with(change: impl Fn(&str) -> String) -> Result<Registry, String> {
    common::builtin_changed(ID, |text| {
        assert!(text.contains(OUT), "Oberwolfach's file says `{OUT}`");
        change(text)
    })
}

fn rule(v: &tarot_engine::Verdict) -> Option<String> {
    v.violation.as_ref().map(|b| b.rule.to_string())
}

#[test]
fn the_opening_bidder_is_out_only_where_the_condition_holds() {
    let changed = registry_with(|t| t.replacen(OUT, "  opening-bidder out = option.geiss_frei == \"no\" ", 1)).unwrap();
    let rules = changed.get(ID).unwrap();
    // A (Vorhand) says Solo, B Gegensolo, and A holds it: from the fixture's deal, its seats read
    // from its bids (A passes, B says Solo, C Gegensolo).
    let stored = read("invalid/bidding.opening-bidder.json");
    let seat = |k: usize| match &stored.events[k + 1] {
        Event::Bid { player, .. } => player.clone(),
        other => panic!("a bid: {other:?}"),
    };
    let mut held = stored.clone();
    held.events.truncate(1);
    for (k, bid) in [(0, "solo"), (1, "cego"), (0, "cego")] {
        held.events.push(Event::Bid { player: seat(k), bid: bid.into() });
    }
    // With `geiss_frei` "no" A is out, as under plain `opening-bidder out`.
    held.options.insert("geiss_frei".into(), serde_json::json!("no"));
    assert_eq!(rule(&replay(rules, &held).unwrap()).as_deref(), Some("bidding.opening-bidder"));
    let plain = tarot_testkit::registry().get(ID).unwrap();
    assert_eq!(rule(&replay(plain, &held).unwrap()).as_deref(), Some("bidding.opening-bidder"));
    // With the default ("last-trick") the condition is false: A speaks again, holding the Gegensolo.
    held.options.clear();
    let v = replay(rules, &held).unwrap();
    assert!(v.violation.is_none(), "{}", v.to_text());
    assert_eq!(v.status, Status::InProgress);
    // The description says the rule only where it holds.
    let text = |options: &[(&str, &str)]| {
        let o = options.iter().map(|(k, v)| (k.to_string(), serde_json::json!(v))).collect();
        describe(rules, &o).rules.iter().map(|l| l.text.clone()).collect::<Vec<_>>().join("\n")
    };
    let silent = "the opening round's bidder does not speak again";
    assert!(text(&[("geiss_frei", "no")]).contains(silent));
    assert!(!text(&[]).contains(silent));
    assert!(text(&[]).contains("which every player enters again, the opening bid held by its bidder"));
}

#[test]
fn a_condition_of_something_else_than_the_options_is_refused() {
    let none = registry_with(|t| t.replacen(OUT, "  opening-bidder out = yes ", 1)).map(|_| ()).unwrap_err();
    assert!(none.contains("reads none"), "{none}");
    let hand = registry_with(|t| t.replacen(OUT, "  opening-bidder out = count(hand, pips) > 3 ", 1)).map(|_| ()).unwrap_err();
    assert!(hand.contains("is not known before the deal"), "{hand}");
}
