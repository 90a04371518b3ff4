//! Compulsory declarations (`declaration NAME { compulsory }`, Grosstarock's "each player must
//! declare"): the card that closes the declaration breaks `declaration.NAME.compulsory` while a
//! holder of a valid show has not made it. Before play (the default), that is the first card of the
//! game, whoever plays it; with `when first-play`, the holder's own first card.

use std::path::Path;

use tarot_engine::compile;
use tarot_engine::ir::Ruleset;
use tarot_engine::{parse_record, replay, Event, GameRecord, Registry, Status};

fn grosstarock(find: &str, replace: &str) -> Ruleset {
    let mut files = Registry::builtin_files();
    let file = files.get_mut("grosstarock").expect("the grosstarock rule file");
    assert_eq!(file.text.matches(find).count(), 1, "{find}");
    file.text = file.text.replace(find, replace);
    compile("grosstarock", &|id: &str| files.get(id).cloned()).unwrap_or_else(|d| panic!("{d}"))
}

/// The fixture whose Trumps declaration was left out.
fn undeclared() -> GameRecord {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/grosstarock/invalid/declaration.trumps.compulsory.json");
    parse_record(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn plays_of(rec: &GameRecord, who: &str) -> Vec<usize> {
    rec.events.iter().enumerate().filter(|(_, e)| matches!(e, Event::Play { player, .. } if &**player == who)).map(|(i, _)| i).collect()
}

#[test]
fn a_compulsory_declaration_left_out_is_broken_by_the_first_card() {
    let registry = tarot_testkit::registry();
    let rules = registry.get("grosstarock").unwrap();
    let rec = undeclared();
    let v = replay(rules, &rec).unwrap();
    let x = v.violation.expect("a violation");
    assert_eq!(&*x.rule, "declaration.trumps.compulsory");
    let first = rec.events.iter().position(|e| matches!(e, Event::Play { .. })).unwrap();
    assert_eq!(x.event, first, "{}", x.message);
    assert!(x.message.contains("must declare it before the first card"), "{}", x.message);

    // Not compulsory, the same game is valid: the rule is what breaks it.
    let free = grosstarock("declaration trumps \"Trumps\" {\n  compulsory", "declaration trumps \"Trumps\" {\n  # compulsory");
    assert_eq!(replay(&free, &rec).unwrap().status, Status::Valid);
}

#[test]
fn with_first_play_it_is_broken_by_the_holders_own_first_card() {
    let builtin = tarot_testkit::registry();
    let rec = undeclared();
    let holder = replay(builtin.get("grosstarock").unwrap(), &rec).unwrap().violation.unwrap().player.unwrap();
    let rules = grosstarock("declaration trumps \"Trumps\" {\n  compulsory", "declaration trumps \"Trumps\" {\n  when first-play\n  compulsory");
    let x = replay(&rules, &rec).unwrap().violation.expect("a violation");
    assert_eq!(&*x.rule, "declaration.trumps.compulsory");
    assert_eq!(x.player.as_deref(), Some(&*holder));
    assert_eq!(x.event, plays_of(&rec, &holder)[0], "{}", x.message);
    assert!(x.message.contains("before his first card"), "{}", x.message);
}
