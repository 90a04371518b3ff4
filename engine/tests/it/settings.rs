//! The settings the compiler resolves (issues 27 and 29): a word setting (the fool's `led`, `keep`,
//! `last_trick`, `shut_out`, `slam_wins`, the direction of play, the hold, a contract's `dog`, the
//! talon's `rest` and `discard`, the discard's `goes-to`) is refused where it is written when some
//! choice of the options, or some branch of `if`, gives a word it does not know.

use tarot_engine::Registry;
use tarot_engine::{compile, RuleFile};

/// A ruleset `x` extending FFT with `body` (line 3 on), compiled; its errors as text.
fn child_of_fft(body: &str) -> Result<tarot_engine::ir::Ruleset, String> {
    let mut files = Registry::builtin_files();
    files.insert("x".into(), RuleFile { path: "rulesets/x.tarot".into(), text: format!("ruleset x \"x\"\nextends fft-4p\n{body}\n") });
    compile("x", &|id: &str| files.get(id).cloned()).map_err(|d| d.to_string())
}

fn refused(body: &str) -> String {
    match child_of_fft(body) {
        Ok(_) => panic!("compiled:\n{body}"),
        Err(e) => e,
    }
}

/// `if` on an option: a branch the words do not include.
const IF_KEEP: &str = "if option.excuse_last_trick == \"keep\" then";

#[test]
fn a_word_setting_with_an_unknown_word_in_a_branch_is_refused_at_its_line() {
    for (body, says) in [
        (format!("fool {{\n  led = {IF_KEEP} \"forbiden\" else \"forbidden\"\n}}"), r#"x.tarot:4:3: `led` is one of "next-card-sets-suit", "forbidden", not "forbiden""#),
        (format!("fool {{\n  keep = {IF_KEEP} \"keep\" else \"swap\"\n}}"), r#"x.tarot:4:3: `keep` is one of "keep", "exchange", not "swap""#),
        (format!("fool {{\n  last_trick = {IF_KEEP} \"keep\" else \"winner\"\n}}"), r#"x.tarot:4:3: `last_trick` is one of "changes-side", "to-winner", "keep", not "winner""#),
        (format!("fool {{\n  shut_out = {IF_KEEP} \"keep\" else \"given\"\n}}"), r#"x.tarot:4:3: `shut_out` is one of "keep", "to-winner", not "given""#),
        (format!("fool {{\n  slam_wins = {IF_KEEP} \"led\" else \"won\"\n}}"), r#"x.tarot:4:3: `slam_wins` is one of "led", "played", not "won""#),
        (format!("play {{\n  direction = {IF_KEEP} \"left\" else \"clockwise\"\n}}"), r#"x.tarot:4:3: `direction` is one of "anticlockwise", "clockwise", not "left""#),
        (format!("talon {{\n  packets = 1\n  rest = {IF_KEEP} \"dealer\" else \"taker\"\n}}"), r#"x.tarot:5:3: `rest` is one of "defence", "taker", not "dealer""#),
        (format!("talon {{\n  packets = 1\n  discard = {IF_KEEP} \"after\" else \"later\"\n}}"), r#"x.tarot:5:3: `discard` is one of "after", "before", not "later""#),
        (format!("discard {{\n  goes-to = {IF_KEEP} \"opponent\" else \"discarder\"\n}}"), r#"x.tarot:4:3: `goes-to` is "discarder" or "opponents", not opponent"#),
    ] {
        let e = refused(&body);
        assert!(e.contains(says), "{body}\n{e}");
    }
}

#[test]
fn a_contract_dog_is_one_of_its_words_for_every_choice_of_the_options() {
    // Before, a contract's `dog` was read as text when a game was set up, and a word it did not know
    // made the dog the defence's.
    let e = refused(&format!("bidding {{\n  contract prise \"prise\" {{ multiplier = 1; dog = {IF_KEEP} \"taker\" else \"defense\" }}\n}}"));
    assert!(e.contains(r#"x.tarot:4:"#) && e.contains(r#"a contract's `dog` is "taker" (shown, taken, discarded), "taker-unseen" or "defence", not "defense""#), "{e}");
    let e = refused("option d \"the dog\" = [\"taker\", \"defense\"]\nbidding {\n  contract prise \"prise\" { multiplier = 1; dog = option.d }\n}");
    assert!(e.contains(r#"x.tarot:5:"#) && e.contains(r#"or "defence", not "defense" (a choice of option.d)"#), "{e}");
    // Each of the option's choices a word: the dog follows the option.
    child_of_fft("option d \"the dog\" = [\"taker\", \"taker-unseen\"]\nbidding {\n  contract prise \"prise\" { multiplier = 1; dog = option.d }\n}").unwrap();
}

#[test]
fn a_word_setting_is_a_word_an_option_or_a_choice_between_them() {
    let e = refused("fool {\n  led = [\"forbidden\", \"next-card-sets-suit\"][if option.excuse_last_trick == \"keep\" then 0 else 1]\n}");
    assert!(
        e.contains(r#"x.tarot:4:3: `led` is a word ("next-card-sets-suit", "forbidden"), an option whose choices are such words, or `if ... then ... else ...` between them"#),
        "{e}"
    );
    let e = refused(
        "option priority \"who holds\" = [\"forehand\", \"seniority\"]\nbidding {\n  hold = [\"forehand\", \"seniority\"][if option.priority == \"seniority\" then 1 else 0]\n}",
    );
    assert!(e.contains(r#"x.tarot:5:3: `hold` is a word ("forehand", "seniority")"#), "{e}");
}

/// Issue 29: the trick obligations apply in the order of a trick (`must follow`, `must trump`,
/// `must overtrump`, `must beat`), which the file must write: a file that writes another order,
/// which would mean another game, is refused rather than read in the walk's order.
#[test]
fn the_must_rules_are_written_in_the_order_they_apply() {
    let fft = Registry::builtin_files()["fft-4p"].text.clone();
    let (follow, trump) = ("  must follow  ", "  must trump  ");
    let line_of = |text: &str, what: &str| text.lines().position(|l| l.starts_with(what)).unwrap() + 1;
    let (f, t) = (line_of(&fft, follow), line_of(&fft, trump));
    assert_eq!(t, f + 1, "fft-4p writes `must follow` then `must trump`");
    // The two lines swapped: `must follow` now after `must trump`.
    let mut lines: Vec<&str> = fft.lines().collect();
    lines.swap(f - 1, t - 1);
    let swapped = lines.join("\n").replacen("ruleset fft-4p", "ruleset y", 1);
    let mut files = Registry::builtin_files();
    files.insert("y".into(), RuleFile { path: "rulesets/y.tarot".into(), text: swapped });
    let e = compile("y", &|id: &str| files.get(id).cloned()).map(|_| ()).unwrap_err().to_string();
    assert!(
        e.contains(&format!(
            "rulesets/y.tarot:{t}:3: `must follow` is written after `must trump`, but the obligations apply in the order of a trick: follow, trump, overtrump, beat"
        )),
        "{e}"
    );
    // `must beat` before `must overtrump`, in a child: the order of the merged section counts.
    let e = refused("play {\n  without must overtrump\n  must beat\n  must overtrump\n}");
    assert!(e.contains("x.tarot:6:3: `must overtrump` is written after `must beat`"), "{e}");
    // In the order of a trick, as every built-in file writes them: accepted.
    child_of_fft("play {\n  without must overtrump\n  must overtrump\n  must beat\n}").unwrap();
}
