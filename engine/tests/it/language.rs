//! The rules language as a rules author meets it: a new variant written as a file changes the scores
//! with no engine change; mistakes are all reported at once with file, line and column; and no
//! ruleset is named in the engine's code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::registry_with;
use tarot_engine::Q;
use tarot_engine::{compile, RuleFile};
use tarot_engine::{parse_record, replay, Registry, Status};

const RULESETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets");

/// A scratch folder holding the built-in rule files plus the given new ones.
fn rules_dir_with(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tarot-language-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(RULESETS).unwrap().flatten() {
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

fn ledger_term(v: &tarot_engine::Verdict, rule: &str) -> Q {
    v.ledger.iter().find(|l| &*l.rule == rule).map(|l| l.amount).unwrap_or_else(|| panic!("no {rule} in the ledger"))
}

#[test]
fn a_variant_the_engine_has_never_seen_changes_the_scores() {
    let variant = r#"
# A house variant of seed 003: garde contre x8 and poignées worth 20/40/60.
ruleset house-x8 "FFT with garde contre x8 and poignée 20/40/60"
extends fft-4p

bidding {
  contract garde-contre "garde contre le chien" { multiplier = 8; dog = "defence" }   @S003 "Higher Garde Contre"
}
let poignee_values = [20, 40, 60]                                                     @S003 "Poignée"
"#;
    let dir = rules_dir_with("x8", &[("house-x8.tarot", variant)]);
    let registry = Registry::from_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(registry.get("house-x8").unwrap().chain, vec!["house-x8", "fft-4p"]);

    // TarotClub's maximum_points: garde contre, a triple poignée (15 trumps), petit au bout, 88 points.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/fft-4p/tarotclub/maximum_points.json");
    let mut rec = parse_record(&std::fs::read_to_string(path).unwrap()).unwrap();
    let fft = replay(registry.get("fft-4p").unwrap(), &rec).unwrap();
    rec.ruleset = "house-x8".into();
    let house = replay(registry.get("house-x8").unwrap(), &rec).unwrap();
    assert_eq!((fft.status, house.status), (Status::Valid, Status::Valid));

    for term in ["score.term.contract", "score.term.petit_au_bout"] {
        assert_eq!(ledger_term(&house, term), ledger_term(&fft, term) * Q::new(8, 6), "{term} is multiplied by 8 instead of 6");
    }
    assert_eq!(ledger_term(&fft, "score.term.poignee"), Q::int(40));
    assert_eq!(ledger_term(&house, "score.term.poignee"), Q::int(60));
    let taker = |v: &tarot_engine::Verdict| v.outcome.as_ref().unwrap().players.iter().map(|p| p.score).max().unwrap();
    assert_eq!(taker(&fft), Q::int(2886));
    // Margin 52, announced chelem made: (25 + 52) x 8 + 10 x 8 + 60 + 400 = 1156 from each defender.
    assert_eq!(taker(&house), Q::int(3 * 1156));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_mistake_of_a_rule_file_is_reported_with_its_position() {
    let text = r#"ruleset broken "A file with several mistakes"
source S "somewhere.txt" "A source"
pack {
  suit S "spades" K Q C J 10 9 8 7 6 5 4 3 2 1
  suit H "hearts" K Q X J
  trumps 21
  fool "the Fool"
}
class oudlers = T1 + T21 + EX
class bad = oudlers + wizards
counting {
  group 2
  counter 5 = oudlers
  surplus exact
}
players 4
sides each
deal {
  hand = 13
}
bidding {
  contract prise { multiplier = 1; dog = "taker" }
}
play {
  must follow @NOPE "nowhere"
  must dance
}
score {
  let points = points(attack)
  term t = pointz * 2
  pay defence to attack = total
}
"#;
    let files: BTreeMap<String, RuleFile> = [("broken".to_string(), RuleFile { path: "rulesets/broken.tarot".into(), text: text.into() })].into();
    let errors = compile("broken", &|id| files.get(id).cloned()).expect_err("the file has mistakes").0;
    let shown: Vec<String> = errors.iter().map(|d| d.to_string()).collect();
    let all = shown.join("\n");
    for (line, col, words) in [
        (5, 23, "unknown rank `X`"),
        (10, 23, "unknown card class `wizards`"),
        (21, 1, "bidding chooses a taker, so it needs `sides taker`"),
        (25, 15, "unknown source `NOPE`"),
        (26, 3, "`must` is followed by follow, trump, overtrump or beat"),
        (30, 12, "`pointz` is not defined"),
    ] {
        let want = format!("rulesets/broken.tarot:{line}:{col}: ");
        assert!(shown.iter().any(|s| s.starts_with(&want) && s.contains(words)), "expected {want}{words} among:\n{all}");
    }
}

#[test]
fn a_syntax_error_says_where_and_what_was_expected() {
    let files: BTreeMap<String, RuleFile> = [("x".to_string(), RuleFile { path: "x.tarot".into(), text: "ruleset x \"X\"\nlet a = (1 + \n".into() })].into();
    let errors = compile("x", &|id| files.get(id).cloned()).err().unwrap().0;
    assert_eq!(errors.len(), 1);
    let e = errors[0].to_string();
    assert!(e.starts_with("x.tarot:3:1: syntax error: expected"), "{e}");
}

#[test]
fn no_ruleset_is_named_in_engine_code() {
    let registry = tarot_testkit::registry();
    let ids: Vec<String> = registry.ids().map(|s| format!("\"{s}\"")).chain(registry.ids().filter(|s| s.contains('-')).map(String::from)).collect();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), Path::new(env!("CARGO_MANIFEST_DIR")).join("../cli/src")];
    let mut checked = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let code = std::fs::read_to_string(&path).unwrap();
            // The TarotClub importer converts French Tarot logs and says so in its output.
            let code = if path.ends_with("tarotclub.rs") { code.replace("\"fft-4p\"", "") } else { code };
            for id in &ids {
                assert!(!code.contains(id.as_str()), "{} names the ruleset {id}: a variant is data", path.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 10);
}

#[test]
fn a_setting_that_cannot_be_read_names_its_rule_and_line() {
    let mut record = parse_record(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/worked/fft-deal1.json")).unwrap()).unwrap();
    for (setting, says) in [
        ("dog_apart = \"ends\"", "deal.dog_apart (rulesets/bad.tarot:4): "),
        ("packets = [5, 5]", "deal.packets (rulesets/bad.tarot:4): packets of [5, 5] make 10 cards, not the hand of 18"),
        ("dog_packets = 4", "deal.dog_packets (rulesets/bad.tarot:4): the dog of 6 cards cannot be dealt 4 at a time"),
        ("dog_apart = 40", "deal.dog_apart (rulesets/bad.tarot:4): with 40 cards kept from the dog at each end, a pack of 78 has no room for a dog of 6"),
    ] {
        let registry = registry_with("bad", &format!("ruleset bad \"FFT with a setting that cannot be read\"\nextends fft-4p\ndeal {{\n  {setting}\n}}\n"));
        record.ruleset = "bad".into();
        let e = replay(registry.get("bad").unwrap(), &record).unwrap_err();
        assert!(e.message.starts_with(says), "{}", e.message);
    }
}

/// A ruleset that changes one statement of a block it extends is described with the parent's other
/// statements, read from the parent's file.
#[test]
fn a_block_changed_in_part_is_described_whole() {
    let registry = registry_with("apart-3", "ruleset apart-3 \"FFT with three cards apart\"\nextends fft-4p\ndeal {\n  dog_apart = 3\n}\n");
    let lines = tarot_engine::describe(registry.get("apart-3").unwrap(), &Default::default()).rules;
    let text = |rule: &str| lines.iter().find(|l| &*l.rule == rule).map(|l| l.text.clone()).unwrap_or_else(|| panic!("no {rule}"));
    assert_eq!(text("deal"), "hand 18, dog 6");
    assert_eq!(text("deal.dog_packets"), "the dog 1 card at a time, between the players' packets");
    assert_eq!(text("deal.dog_apart"), "never the first 3 cards or the last 3 of the pack to the dog");
}

/// Statements that could not work are refused where they are written: `sit-out dealer` needs two
/// players left to play, the dealer's packets need the others', an untouchable card must be a card
/// and have its condition. Partners are counted among those who play.
#[test]
fn statements_that_cannot_work_are_refused_and_partners_count_those_who_play() {
    for (text, at, words) in [
        ("extends basic\nsit-out dealer\n", "3:1", "`sit-out dealer` needs a table of 3 or more, so that two play; `players` allows 2"),
        ("extends fft-5p-mort\nsit-out dealer now\n", "3:1", "`sit-out dealer` is the only form"),
        ("extends fft-4p-petit-imprenable\nuntouchable X9 \"x\" = true\n", "3:1", "`X9` is not a card: an untouchable card is written"),
        ("extends fft-4p-petit-imprenable\nuntouchable T1 \"x\"\n", "3:1", "`untouchable` needs a value: the statement ends with `= ...`"),
        ("extends marolles-78\ndeal {\n  dealer_packets = 3\n}\n", "4:3", "`dealer_packets` (the dealer's packets, when they differ from the others') needs `packets`"),
    ] {
        let mut files = Registry::builtin_files();
        files.insert("x".into(), RuleFile { path: "rulesets/x.tarot".into(), text: format!("ruleset x \"X\"\n{text}") });
        let e = Registry::from_files(files).err().expect("the file has a mistake").to_string();
        assert!(e.contains(&format!("rulesets/x.tarot:{at}: {words}")), "{e}");
    }
    let registry = registry_with("mort-partners", "ruleset mort-partners \"Partners, the dealer sitting out\"\nextends basic-partners\nplayers 5..7\nsit-out dealer\n");
    let rules = registry.get("mort-partners").unwrap();
    assert!(tarot_engine::Setup::new(rules, 5, &BTreeMap::new()).is_ok(), "five at the table, four play");
    let e = tarot_engine::Setup::new(rules, 6, &BTreeMap::new()).err().unwrap();
    assert!(e.contains("by an even number of players, not 5 (the dealer of 6 sitting out)"), "{e}");
}

/// The compiled child `x` of fft-4p with `body`, or its diagnostics as text.
fn child_of_fft(body: &str) -> Result<tarot_engine::ir::Ruleset, String> {
    let mut files = Registry::builtin_files();
    files.insert("x".into(), RuleFile { path: "rulesets/x.tarot".into(), text: format!("ruleset x \"x\"\nextends fft-4p\n{body}\n") });
    compile("x", &|id: &str| files.get(id).cloned()).map_err(|d| d.to_string())
}

fn fixture(path: &str) -> tarot_engine::GameRecord {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(path)).unwrap();
    parse_record(&text).unwrap()
}

#[test]
fn an_obligation_with_a_condition_applies_only_where_it_holds() {
    // Issue 14: `must overtrump = <condition>` compiled and the condition was dropped.
    let rules =
        child_of_fft("option overtrump \"Whether a trump must beat the trumps in the trick\" = [\"no\", \"yes\"]\nplay {\n  must overtrump = option.overtrump == \"yes\"\n}")
            .unwrap();
    let mut rec = fixture("fft-4p/invalid/play.must.overtrump.json");
    rec.ruleset = "x".into();
    let shown = tarot_engine::describe(&rules, &BTreeMap::new()).to_text();
    assert!(shown.contains(r#"a trump played must beat the highest trump in the trick if possible, when option.overtrump == "yes""#), "{shown}");
    // The fixture's card swapped in for an overtrump is legal when overtrumping is not required (the
    // game then breaks later, where the swapped card was meant to be played).
    let at = |v: &tarot_engine::Verdict| v.violation.as_ref().map(|x| (x.event, x.rule.to_string()));
    let (event, rule) = at(&replay(&rules, &rec).unwrap()).unwrap();
    rec.options.insert("overtrump".into(), "yes".into());
    let (overtrump_at, overtrump) = at(&replay(&rules, &rec).unwrap()).unwrap();
    assert_eq!(overtrump, "play.must.overtrump");
    assert!(event > overtrump_at && rule != overtrump, "by default: {rule} at {event}");
    // `= no` turns it off for every game; a value that is not yes or no is refused.
    let off = child_of_fft("play {\n  must overtrump = no\n}").unwrap();
    rec.options.clear();
    rec.ruleset = "x".into();
    assert_eq!(at(&replay(&off, &rec).unwrap()).unwrap().0, event);
    let e = child_of_fft("play {\n  must overtrump = 2\n}").unwrap_err();
    assert!(e.contains("rulesets/x.tarot:4:3: `must` takes a condition, yes or no"), "{e}");
}

#[test]
fn a_statement_never_says_more_than_the_compiler_reads() {
    for (body, at, says) in [
        ("fool {\n  excuse = no\n}", "4:3", "`excuse` is a switch and takes no value: writing it turns it on, and to turn it off leave it out"),
        ("fool {\n  slam_wins = no\n}", "4:3", r#"`slam_wins` is one of "led", "played""#),
        ("deal {\n  cut = no\n}", "4:3", "`cut` is a switch"),
        ("players 4 5", "3:1", "`players` takes at most 1 word(s), so `5` would be ignored"),
        ("bidding {\n  all-pass redeal\n}", "4:3", "`all-pass redeal`: when everyone passes the deal is annulled"),
        ("play {\n  lead = first_hand { must follow }\n}", "4:3", "`lead` takes no block"),
        ("let a = 1\nlet a = 2", "4:1", "`let a` is written twice in this block (first at line 3)"),
        ("extends basic", "3:1", "a ruleset extends one parent, and this file already says `extends fft-4p`"),
        ("without players 5", "3:1", "`without players 5` removes nothing: the parent has no statement with the key `players 5` at this level; did you mean `without players`?"),
        ("without must trump", "3:1", "`without must trump` removes nothing: the parent has no statement with the key `must trump` at this level; it is inside `play { ... }`, so write `play { without must trump }`"),
        ("play {\n  without must trumps\n}", "4:3", "did you mean `without must trump`?"),
        ("score {\n  without term poignees\n}", "4:3", "did you mean `without term poignee`?"),
        ("play {\n  without players\n}", "4:3", "it is at the top level, outside this block, so write `without players` there"),
        ("bidding {\n  contract garde \"garde\" {\n    without turns\n  }\n}", "5:5", "it is in `bidding { ... }`, outside this block, so write `without turns` there"),
        ("without extends fft-4p @FFT", "3:1", "a citation on it would go nowhere"),
        ("without counting { this is nonsense 123 }", "3:1", "`without counting` takes no block, so the statements in `{ ... }` would be ignored"),
        ("play {\n  without must trump { must follow }\n}", "4:3", "`without must trump` takes no block"),
        ("without players = 5", "3:1", "`without players` takes no value, so `= ...` would be ignored"),
        ("call {\n  without levels\n}", "4:3", "`without levels` removes nothing: the parent has no block here for it to remove from"),
        ("option x \"x\" = [\"a\", \"b\" + \"c\"]", "3:22", "option `x`: each choice is a string or a number written out"),
        ("bidding {\n  contract prise \"prise\" { multiplier = 1; dog = \"taker\"; bonus = 10 }\n}", "4:59", "no formula reads this contract's `bonus`"),
    ] {
        let e = child_of_fft(body).unwrap_err();
        assert!(e.contains(&format!("rulesets/x.tarot:{at}: ")) && e.contains(says), "{body}:\n{e}");
    }
}

#[test]
fn a_diagnostic_says_the_problem_once() {
    // `counter option.x = EX`: the value must be a number, said as such.
    let e = child_of_fft("counting {\n  counter option.x = EX\n}").unwrap_err();
    assert!(e.contains("rulesets/x.tarot:4:3: `counter V = cards` gives the cards worth V points in a group: `option.x` is not a whole number of points"), "{e}");
    // An option in a class: the cause, once, and nothing about the classes and rules built on it.
    let e = child_of_fft(
        "option h \"h\" = [\"a\", \"b\"]\nclass h_cards = option.h\nclass more = h_cards + KS\nclass most = more + QS\non play most \"most\" = 1\nlet n = count(more)",
    )
    .unwrap_err();
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("rulesets/x.tarot:4:17: a card class is fixed when the rules are compiled, so it cannot depend on `option.h`"), "{e}");
    // A `let` that fails is not reported again where it is used.
    let e = child_of_fft("let a = nothing_here + 1\nlet b = a * 2\nscore {\n  term t \"t\" = a + b\n}").unwrap_err();
    assert_eq!(e.lines().count(), 1, "{e}");
}

#[test]
fn a_missing_king_call_is_reported_as_missing() {
    let registry = tarot_testkit::registry();
    let rules = registry.get("fft-5p").unwrap();
    let mut rec = fixture("fft-5p/valid/5p-1.json");
    let call = rec.events.iter().position(|e| matches!(e, tarot_engine::Event::Call { .. })).expect("a call");
    rec.events.remove(call);
    let v = replay(rules, &rec).unwrap();
    let violation = v.violation.unwrap();
    assert_eq!(violation.event, call, "the first move after the bidding");
    assert!(violation.message.starts_with("the call is missing: "), "{}", violation.message);
    assert!(violation.rule.starts_with("call"), "{}", violation.rule);
}

#[test]
fn nesting_past_the_limit_is_refused_before_it_can_overflow_the_stack() {
    // Issue 14: a list nested 5,000 deep aborted the process.
    for (open, close) in [("[", "]"), ("(", ")"), ("abs(", ")")] {
        let e = child_of_fft(&format!("let deep = {}1{}", open.repeat(5000), close.repeat(5000))).unwrap_err();
        assert!(e.contains("rulesets/x.tarot:3:") && e.contains("nested too deeply"), "{e}");
    }
}

#[test]
fn every_part_of_a_formula_is_checked_and_counts_as_read() {
    // Both unknown names are reported, and the option beside them is not "read by nothing".
    let e = child_of_fft("option h \"h\" = [1, 2]\nlet x = [nothing1, option.h][abs(nothing2)]\nscore {\n  term t \"t\" = x\n}").unwrap_err();
    assert!(e.contains("4:10: `nothing1` is not defined") && e.contains("4:34: `nothing2` is not defined"), "{e}");
    assert!(!e.contains("no formula reads"), "{e}");
}

#[test]
fn a_failing_let_is_the_one_error_of_its_file() {
    // The option, the constant and the formula that the failing `let` reads were each reported as
    // read by nothing besides.
    let e = child_of_fft("option h \"h\" = [1, 2]\nlet k = 3\nlet twice x = 2 * x\nlet a = nothing(twice(option.h) + k)\nscore {\n  term t \"t\" = a\n}").unwrap_err();
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("rulesets/x.tarot:6:9: unknown function `nothing`"), "{e}");
}

#[test]
fn a_divisor_of_0_whatever_the_game_is_refused_where_it_is_written() {
    // `25 / 0` was 0.
    for (body, at) in [("let x = 25 / 0\nscore {\n  term t \"t\" = x\n}", "3:14"), ("score {\n  term t \"t\" = points(taker) / (3 - 3)\n}", "4:33")] {
        let e = child_of_fft(body).unwrap_err();
        assert!(e.contains(&format!("rulesets/x.tarot:{at}: division by zero: this divisor is 0 whatever the game")), "{body}:\n{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

#[test]
fn a_rule_that_divides_by_zero_in_a_game_is_the_rulesets_error_naming_the_rule_and_the_contract() {
    let mut rec = fixture("fft-4p/valid/4p-1.json");
    rec.ruleset = "x".into();
    // A setting after the auction that divides by 0 for one contract (a `discard` of 0 cards for the
    // garde, once, and then "the dog cannot be cut" or nothing at all).
    let rules = child_of_fft("discard {\n  taker = deal.dog / (2 - contract.multiplier)\n}").unwrap();
    let e = replay(&rules, &rec).unwrap_err();
    let fault = e.ruleset_fault.as_ref().unwrap_or_else(|| panic!("the ruleset's fault, not the record's: {e}"));
    assert_eq!(fault.ruleset, "x");
    assert!(e.message.contains("with the contract `garde`: discard.taker (rulesets/x.tarot:4): division by zero (6 / 0)"), "{e}");
    // A score term that divides by a count that is 0 in this game: the rule, where it is written, and
    // the division.
    let rules = child_of_fft("score {\n  term t \"t\" = 10 / count(p in players where points(p) > 90)\n}").unwrap();
    let e = replay(&rules, &rec).unwrap_err();
    let fault = e.ruleset_fault.as_ref().unwrap_or_else(|| panic!("the ruleset's fault, not the record's: {e}"));
    assert_eq!((fault.rule.as_deref(), fault.at.as_deref()), (Some("score.term.t"), Some("rulesets/x.tarot:4")));
    assert!(e.to_string().contains("the ruleset x is broken: the rule score.term.t (rulesets/x.tarot:4) cannot be evaluated: division by zero (10 / 0)"), "{e}");
    // The record's mistakes stay the record's.
    rec.players[1] = rec.players[0].clone();
    let e = replay(&rules, &rec).unwrap_err();
    assert!(e.ruleset_fault.is_none(), "{e}");
}
