//! A card code the ruleset's pack does not have (issue 29: `T22` in a pack of 78 cards) is refused
//! where it is written, in every construct that names cards: before, it compiled, and the rule named
//! a card no game deals.

use tarot_engine::Registry;
use tarot_engine::{compile, RuleFile};

/// A ruleset `x` extending FFT (a pack of 78 cards, trumps 1 to 21) with `body` from line 3.
fn child_of_fft(body: &str) -> Result<tarot_engine::ir::Ruleset, String> {
    let mut files = Registry::builtin_files();
    files.insert("x".into(), RuleFile { path: "rulesets/x.tarot".into(), text: format!("ruleset x \"x\"\nextends fft-4p\n{body}\n") });
    compile("x", &|id: &str| files.get(id).cloned()).map_err(|d| d.to_string())
}

#[test]
fn a_card_the_pack_lacks_is_refused_in_every_construct_at_its_line_and_column() {
    for body in [
        "play {\n  must lead T22 \"the 22 leads\"\n}",
        "play {\n  must play T22 \"the 22 first\" = player == taker\n}",
        "play {\n  keep T22 \"the 22 to the last\"\n}",
        "play {\n  keep T21 \"the 21 to the last\" while T22\n}",
        "play {\n  wins T22 \"the 22 takes the 21\" = T21\n}",
        "play {\n  wins T1 \"the 1 takes the 22\" = T21 + T22\n}",
        "play {\n  fault follow \"revoke\" gives-back T22 = 60\n}",
        "play {\n  last-trump = T22\n}",
        "play {\n  withhold T22 \"the 22 withheld\"\n}",
        "play {\n  excuse T22 \"the 22 as the Excuse\"\n}",
        "untouchable T22 \"the 22 imprenable\" = count(hand, trumps) == 1",
        "on play T22 \"the 22 played\" = 5",
        "class big \"big card\" = T21 + T22\nlet bigs = count(big)",
        "discard {\n  forbid \"the 22\" = T22\n}",
        "score {\n  let high = count(pile(taker), T21 + T22)\n}",
    ] {
        // Where `T22` is written: line (the body starts at line 3) and column.
        let (line, text) = body.lines().enumerate().find(|(_, l)| l.contains("T22")).unwrap();
        let at = format!("{}:{}", line + 3, text.find("T22").unwrap() + 1);
        let e = match child_of_fft(body) {
            Ok(_) => panic!("compiled:\n{body}"),
            Err(e) => e,
        };
        assert!(e.contains(&format!("rulesets/x.tarot:{at}: cards not in this ruleset's pack: T22 (a pack of 78 cards)")), "{body}\n{e}");
    }
}

#[test]
fn the_cards_of_the_pack_and_its_own_codes_are_accepted() {
    // The same constructs with a card the pack has compile (a rule that reads nothing aside).
    child_of_fft("play {\n  must lead T21 \"the 21 leads\"\n  keep T1 \"the 1 to the last\" while T21\n  wins T1 \"the 1 takes the 21\" = T21 + EX\n}").unwrap();
}

/// A card word names the pack's own codes too: in Troggu's pack, whose Fool is the trump above the 21,
/// `keep EX` keeps that card (it named the Excuse the pack lacks, and kept nothing).
#[test]
fn a_card_word_names_the_fool_made_a_trump_by_its_code() {
    let registry = crate::common::registry_with("kept", "ruleset kept \"k\"\nextends troggu\nplay {\n  keep EX \"the Fool to the last trick\"\n}\n");
    let kept = registry.get("kept").unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/troggu/valid");
    let mut refused = 0;
    for name in ["3p-1.json", "3p-2.json", "6p-1.json", "6p-2.json"] {
        let mut g = tarot_engine::parse_record(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        // The Bättler (T22) played before the last trick, while its player held other cards.
        let plays: Vec<&str> = g.events.iter().filter_map(|e| if let tarot_engine::Event::Play { card, .. } = e { Some(card.as_str()) } else { None }).collect();
        if !plays[..plays.len() - g.players.len()].contains(&"T22") {
            continue;
        }
        g.ruleset = "kept".into();
        let v = tarot_engine::replay(kept, &g).unwrap();
        assert_eq!(v.violation.map(|x| x.rule.to_string()).as_deref(), Some("play.keep.the-fool-to-the-last-trick"), "{name}");
        refused += 1;
    }
    assert!(refused > 0);
}

/// So does the card of `untouchable CARD` (and of `wins CARD`, `on play CARD`, `gives-back CARD`): in
/// Troggu's pack `untouchable EX` is the Bättler (T22), whose holder plays it like the Excuse; it named
/// the Excuse the pack lacks, and bound nothing.
#[test]
fn an_untouchable_card_is_named_by_the_pack_s_own_code() {
    let registry = crate::common::registry_with("held", "ruleset held \"h\"\nextends troggu\nuntouchable EX \"the Fool held\" = count(hand, trumps) > 0\n");
    let held = registry.get("held").unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/troggu/valid");
    for name in ["3p-1.json", "3p-2.json", "6p-1.json", "6p-2.json"] {
        let mut g = tarot_engine::parse_record(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        g.ruleset = "held".into();
        let v = tarot_engine::replay(held, &g).unwrap();
        assert!(v.notes.iter().any(|n| n.contains("the Fool held, played like the Excuse (untouchable)")), "{name}: {:?}", v.notes);
    }
}
