//! `dog_name`: the game's own word for the dog, said by the rules in words and by the verdicts
//! wherever they would say "the dog" (or "the talon"), inherited by a child, "dog" by default.

use crate::common::registry_with;
use tarot_engine::{describe, parse_record, replay, Registry};

fn texts(registry: &Registry, id: &str) -> Vec<(String, String)> {
    describe(registry.get(id).unwrap(), &Default::default()).rules.into_iter().map(|l| (l.rule.to_string(), l.text)).collect()
}

fn text(lines: &[(String, String)], rule: &str) -> String {
    lines.iter().find(|(r, _)| r == rule).map(|(_, t)| t.clone()).unwrap_or_else(|| panic!("no {rule}"))
}

#[test]
fn the_rules_in_words_name_the_dog_in_the_games_word() {
    let registry = registry_with("named", "ruleset named \"FFT, the dog named\"\nextends fft-4p\ndeal {\n  dog_name = \"chien\"\n}\n");
    let lines = texts(&registry, "named");
    assert_eq!(text(&lines, "deal"), "hand 18, chien 6");
    assert_eq!(text(&lines, "deal.dog_name"), "the cards dealt aside are called the chien");
    assert_eq!(text(&lines, "deal.dog_packets"), "the chien 1 card at a time, between the players' packets");
    assert_eq!(text(&lines, "deal.dog_apart"), "never the first or the last card of the pack to the chien");
    assert!(text(&lines, "bidding.contract.garde").ends_with("the chien goes to the taker, who discards as many cards"), "{lines:?}");
    // Unnamed, the parent says "the dog", and has no line for the name.
    let parent = texts(&registry, "fft-4p");
    assert_eq!(text(&parent, "deal"), "hand 18, dog 6");
    assert!(text(&parent, "bidding.contract.garde").ends_with("the dog goes to the taker, who discards as many cards"));
    assert!(!parent.iter().any(|(r, _)| r == "deal.dog_name"));
}

#[test]
fn cego_calls_its_dog_the_blinde_and_its_children_inherit_the_word() {
    let registry = Registry::builtin().unwrap();
    for id in ["cego", "cego-3", "cego-oberwolfach"] {
        let lines = texts(&registry, id);
        assert!(text(&lines, "deal").ends_with(&format!(", Blinde {}", if id == "cego" { 10 } else { 12 })), "{id}");
        assert!(text(&lines, "bidding.contract.cego").ends_with("the Blinde goes to the taker, who discards as many cards"), "{id}");
        assert!(text(&lines, "talon").starts_with("the Blinde is shown in packets"), "{id}");
        assert!(text(&lines, "talon.split").contains("before he sees the Blinde,"), "{id}");
    }
    assert_eq!(registry.get("fft-4p").unwrap().the_dog(), "the dog");
}

#[test]
fn a_verdict_names_the_dog_in_the_games_word() {
    let registry = Registry::builtin().unwrap();
    let record = parse_record(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/cego/invalid/talon.split.json")).unwrap()).unwrap();
    let text = replay(registry.get("cego").unwrap(), &record).unwrap().to_text();
    assert!(text.contains("cards before he sees the Blinde, and"), "{text}");
    // The same game under the same rules with the word taken out says "the talon".
    let plain = registry_with("cego", &Registry::builtin_files()["cego"].text.lines().filter(|l| !l.starts_with("  dog_name")).collect::<Vec<_>>().join("\n"));
    let text = replay(plain.get("cego").unwrap(), &record).unwrap().to_text();
    assert!(text.contains("cards before he sees the talon, and"), "{text}");
}

#[test]
fn a_name_that_is_not_a_word_in_quotes_or_has_no_dog_is_refused() {
    let refused = |deal: &str| {
        let mut files = Registry::builtin_files();
        files.insert("bad".into(), tarot_engine::RuleFile { path: "rulesets/bad.tarot".into(), text: format!("ruleset bad \"bad\"\nextends fft-4p\ndeal {{\n{deal}\n}}\n") });
        Registry::from_files(files).err().map(|e| e.to_string()).unwrap_or_default()
    };
    assert!(refused("  dog_name = 3").contains("`dog_name` is the game's word for the dog, in quotes"));
    assert!(refused("  dog_name = \"the chien\" + 1").contains("`dog_name` is the game's word for the dog, in quotes"));
    assert!(refused("  dog_name = \" chien\"").contains("`dog_name` is the game's word for the dog, in quotes"));
    assert!(refused("  without dog\n  dog_name = \"chien\"").contains("`dog_name` names the dog, and this deal has none"));
}
