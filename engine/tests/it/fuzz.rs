//! Nothing a rules author writes crashes the compiler: every input gets a diagnostic or compiles.
//! Deterministic (seeded) so that it runs the same in CI, in seconds: deep nesting of every bracket
//! kind and of operators, huge numbers, bytes that are not UTF-8 (through `Registry::from_dir`), and
//! thousands of mutated built-in rule files, each compiled and, when it compiles, replayed on games.
//! Each test prints how many inputs it tried.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tarot_engine::random_game;
use tarot_engine::{compile, RuleFile};
use tarot_engine::{replay, GameRecord, Registry};

/// A file `fuzz` that extends fft-4p with `body`, compiled with the built-in files.
fn compile_child(body: &str) -> Result<(), String> {
    let mut files = Registry::builtin_files();
    files.insert("fuzz".into(), RuleFile { path: "fuzz.tarot".into(), text: format!("ruleset fuzz \"fuzz\"\nextends fft-4p\n{body}\n") });
    compile("fuzz", &|id: &str| files.get(id).cloned()).map(|_| ()).map_err(|d| d.to_string())
}

/// Runs `f` on its own thread with a small stack (the size of a test thread, or less), so a
/// recursion that grows with the input shows here rather than passing on a large main stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(1 << 20).spawn(f).unwrap().join().unwrap_or_else(|_| panic!("panicked"))
}

fn deep(open: &str, middle: &str, close: &str, n: usize) -> String {
    format!("{}{middle}{}", open.repeat(n), close.repeat(n))
}

#[test]
fn deep_nesting_of_every_kind_gets_a_diagnostic() {
    let mut tried = 0;
    for n in [250, 5_000, 50_000] {
        let cases = vec![
            ("list", format!("let x = {}", deep("[", "1", "]", n))),
            ("list unclosed", format!("let x = {}", "[".repeat(n))),
            ("parentheses", format!("let x = {}", deep("(", "1", ")", n))),
            ("parentheses unclosed", format!("let x = {}", "(".repeat(n))),
            ("calls", format!("let x = {}", deep("abs(", "1", ")", n))),
            ("index", format!("let x = [1]{}", "[0]".repeat(n))),
            ("index nested", format!("let x = {}", deep("[1][", "0", "]", n))),
            ("blocks", format!("play {}", deep("{\n", "must follow\n", "}\n", n))),
            ("contract blocks", format!("bidding {{\n  contract x \"x\" {}\n}}", deep("{ ", "dog = \"taker\"", " }", n))),
            ("if", format!("let x = {}1{}", "if yes then 1 else ".repeat(n), "")),
            ("if in condition", format!("let x = {}yes{}", "if ".repeat(n), " then 1 else 2".repeat(n))),
            ("not", format!("let x = {}yes", "not ".repeat(n))),
            ("minus", format!("let x = {}1", "- ".repeat(n))),
            ("sum", format!("let x = 1{}", " + 1".repeat(n))),
            ("sum over lines", format!("let x = 1{}", " +\n 1".repeat(n))),
            ("comparisons", format!("let x = 1{}", " == 1".repeat(n))),
            ("and", format!("let x = yes{}", " and yes".repeat(n))),
            ("comprehensions", format!("let x = {}", deep("count(x in [", "1", "])", n))),
            ("continued lines", format!("let x = 1 \\\n{}", "+ 1 \\\n".repeat(n))),
            ("mixed", format!("let x = {}", deep("[(abs({", "1", "}))]", n))),
        ];
        for (what, text) in cases {
            tried += 1;
            let started = Instant::now();
            let result = on_small_stack(move || compile_child(&text));
            match result {
                Err(d) => assert!(!d.is_empty(), "{what} x{n}: an empty diagnostic"),
                Ok(()) => assert!(n <= 250, "{what} nested {n} deep compiled"),
            }
            assert!(started.elapsed() < Duration::from_secs(10), "{what} x{n} took {:?}", started.elapsed());
        }
    }
    // The message says what is wrong, where.
    let e = compile_child(&format!("let x = {}", deep("[", "1", "]", 5_000))).unwrap_err();
    assert!(e.contains("fuzz.tarot:3:") && e.contains("nested too deeply"), "{e}");
    println!("deep nesting: {tried} inputs tried");
}

#[test]
fn numbers_too_large_are_refused_not_wrapped_or_read_as_zero() {
    let refused = [
        ("let x = 99999999999999999999999", "is too large"),
        ("let x = 9223372036854775808", "is too large"),
        ("let x = 1000000000000000000", "is too large"),
        ("let x = 0.0000000001", "more than 9 decimals"),
        ("let x = 999999999999999999.9", "is too large"),
        ("let x = 2000000000.000000001", "too large a number to keep exact with its decimals"),
        ("let x = 1000000000000000 * 1000000000000000 * 1000000000000000", "too large a number to keep exact"),
        ("let x = -1000000000000000 * 1000000000000000 * 1000000000000000", "too large a number to keep exact"),
        ("let x = 1 / 1000000000000000 / 1000000000000000 / 1000000000000000", "too large a number to keep exact"),
        ("let x = 1 / 3 + 1 / 1000000000000000 / 999999999999999", "too large a number to keep exact"),
        ("let poignee_values = [20, 30, 40][99999999999]", "cannot be evaluated"),
        ("option big \"b\" = [1, 99999999999999999999]", "`99999999999999999999` is too large"),
    ];
    for (text, want) in refused {
        let e = compile_child(text).unwrap_err();
        assert!(e.contains(want), "{text}: {e}");
    }
    for ok in ["let x = 1000000000000000", "let x = 0.000000001", "let x = 1000000000000000 * 1000"] {
        compile_child(&format!("{ok}\nscore {{\n  term t \"t\" = x\n}}")).unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    // A formula that grows too large while a game is scored: an input error, not a wrapped number.
    let mut files = Registry::builtin_files();
    let text = "ruleset fuzz \"fuzz\"\nextends fft-4p\nscore {\n  term huge \"huge\" = (points + 1) * 1000000000000000 * 1000000000000000\n}\n";
    files.insert("fuzz".into(), RuleFile { path: "fuzz.tarot".into(), text: text.into() });
    let rules = compile("fuzz", &|id: &str| files.get(id).cloned()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut game = random_game(&rules, 4, &BTreeMap::new(), &mut rng).unwrap();
    while replay(&rules, &game).is_ok() || game.events.len() < 70 {
        game = random_game(&rules, 4, &BTreeMap::new(), &mut rng).unwrap();
    }
    let e = replay(&rules, &game).unwrap_err();
    assert!(e.message.contains("too large a number to keep exact"), "{}", e.message);
}

#[test]
fn a_rule_file_that_is_not_utf8_is_reported_where_its_first_bad_byte_is() {
    let dir = std::env::temp_dir().join(format!("tarot-fuzz-utf8-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let rulesets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
    let fft = std::fs::read(rulesets.join("fft-4p.tarot")).unwrap();
    std::fs::write(dir.join("fft-4p.tarot"), &fft).unwrap();
    let mut tried = 0;
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for bad in [&[0xFFu8][..], &[0xC3, 0x28], &[0xE2, 0x82], &[0xF0, 0x28, 0x8C, 0xBC], &[0x80], &[0xED, 0xA0, 0x80]] {
        for _ in 0..20 {
            let at = rng.gen_range(0..fft.len());
            let mut bytes = fft[..at].to_vec();
            // Not inside a UTF-8 sequence of the original.
            if fft[at] & 0xC0 == 0x80 {
                continue;
            }
            bytes.extend_from_slice(bad);
            bytes.extend_from_slice(&fft[at..]);
            bytes = bytes.replace_first(b"ruleset fft-4p ", b"ruleset broken ");
            std::fs::write(dir.join("broken.tarot"), &bytes).unwrap();
            tried += 1;
            let e = Registry::from_dir(&dir).err().expect("a file that is not UTF-8 is refused");
            let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
            assert!(e.contains(&format!("broken.tarot:{line}:")) && e.contains("is not UTF-8 text"), "{e}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("not UTF-8: {tried} inputs tried");
}

trait ReplaceFirst {
    fn replace_first(self, from: &[u8], to: &[u8]) -> Vec<u8>;
}

impl ReplaceFirst for Vec<u8> {
    fn replace_first(self, from: &[u8], to: &[u8]) -> Vec<u8> {
        match self.windows(from.len()).position(|w| w == from) {
            Some(i) => [&self[..i], to, &self[i + from.len()..]].concat(),
            None => self,
        }
    }
}

/// Words a mutation may insert: the language's keywords, brackets, operators and odd tokens.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ";",
    "\n",
    "=",
    "==",
    "+",
    "-",
    "*",
    "/",
    "<",
    ">=",
    "!=",
    "and",
    "or",
    "not",
    "if",
    "then",
    "else",
    "in",
    "where",
    ":",
    "\\\n",
    "#",
    "\"",
    "\"x\"",
    "@FFT",
    "@X",
    "0",
    "1",
    "18",
    "4.5",
    "99999999999999999999",
    "0.0000000001",
    "T1",
    "EX",
    "KS",
    "trumps",
    "kings",
    "option.x",
    "option.petit_sec",
    "contract.multiplier",
    "players",
    "hand",
    "points(",
    "count(",
    "max(p in players : ",
    "declared(",
    "rank(K)",
    "suit(D)",
    "without",
    "without players",
    "without play",
    "extends",
    "extends fft-4p",
    "must",
    "must overtrump",
    "must trump = no",
    "excuse = no",
    "counter",
    "counter option.x = EX",
    "class",
    "let",
    "let x =",
    "deal",
    "pack",
    "play",
    "score",
    "fool",
    "bidding",
    "discard",
    "call",
    "contract",
    "dog",
    "é",
    "\u{FEFF}",
    "\t",
    "\r\n",
    "\\",
    "..",
    "2..6",
    "-1",
    "[[[[",
    "((((",
    "}}}}",
    "]]]]",
    "sit-out dealer",
    "sides partners",
    "group 7",
];

/// One random change to a rule file.
fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let mut t: Vec<char> = text.chars().collect();
    let at = |rng: &mut ChaCha8Rng, t: &Vec<char>| rng.gen_range(0..=t.len());
    match rng.gen_range(0..8) {
        // Delete a run of characters.
        0 => {
            let a = at(rng, &t);
            let b = (a + rng.gen_range(1..40)).min(t.len());
            t.drain(a..b);
        }
        // Insert a token.
        1 | 2 => {
            let a = at(rng, &t);
            let tok = TOKENS.choose(rng).unwrap();
            t.splice(a..a, format!(" {tok} ").chars());
        }
        // Duplicate a line, or swap two.
        3 | 4 => {
            let mut lines: Vec<String> = t.iter().collect::<String>().lines().map(String::from).collect();
            if lines.is_empty() {
                return String::new();
            }
            let (i, j) = (rng.gen_range(0..lines.len()), rng.gen_range(0..lines.len()));
            if rng.gen_bool(0.5) {
                let l = lines[i].clone();
                lines.insert(j, l);
            } else {
                lines.swap(i, j);
            }
            return lines.join("\n");
        }
        // Replace a number by another.
        5 => {
            let digits: Vec<usize> = (0..t.len()).filter(|&i| t[i].is_ascii_digit()).collect();
            if let Some(&i) = digits.choose(rng) {
                let n = ["0", "9", "255", "256", "100000", "99999999999999999999", "-3"].choose(rng).unwrap();
                t.splice(i..i + 1, n.chars());
            }
        }
        // Truncate.
        6 => {
            let a = at(rng, &t);
            t.truncate(a);
        }
        // Flip a character.
        _ => {
            if !t.is_empty() {
                let a = rng.gen_range(0..t.len());
                t[a] = *['{', '}', '(', ')', '[', ']', '"', '=', '@', '#', ' ', '\n', 'x', '.', '\\'].choose(rng).unwrap();
            }
        }
    }
    t.into_iter().collect()
}

#[test]
fn mutated_rule_files_get_a_diagnostic_or_compile_and_replay_without_a_crash() {
    let builtin = tarot_testkit::registry();
    let base = Registry::builtin_files();
    // `TAROT_FUZZ_PER_FILE=5000 TAROT_FUZZ_SEED=2 cargo test -p tarot-engine --test it fuzz::mutated -- --nocapture`
    // for a longer run.
    let seed = crate::common::number("TAROT_FUZZ_SEED").unwrap_or(14);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // A few games per ruleset, to replay under the mutated rules.
    let mut games: BTreeMap<String, Vec<GameRecord>> = BTreeMap::new();
    for r in builtin.all() {
        let g: Vec<GameRecord> = (0..2).filter_map(|_| random_game(r, r.players.0, &BTreeMap::new(), &mut rng).ok()).collect();
        games.insert(r.id.clone(), g);
    }
    let ids: Vec<String> = base.keys().cloned().collect();
    let per_file = crate::common::count("TAROT_FUZZ_PER_FILE", 60) as usize;
    let (mut tried, mut compiled, mut replayed) = (0, 0, 0);
    let mut crashes = vec![];
    let started = Instant::now();
    for id in &ids {
        for _ in 0..per_file {
            let mut files = base.clone();
            let file = files.get_mut(id).unwrap();
            let mut text = file.text.clone();
            for _ in 0..rng.gen_range(1..4) {
                text = mutate(&text, &mut rng);
            }
            file.text = text.clone();
            tried += 1;
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                let mut n = 0;
                let r = compile(id, &|want: &str| files.get(want).cloned());
                if let Ok(rules) = &r {
                    for g in &games[id] {
                        let _ = replay(rules, g);
                        n += 1;
                    }
                }
                (r.is_ok(), r.err().map(|d| d.0.is_empty()).unwrap_or(false), n)
            }));
            match outcome {
                Ok((ok, empty, n)) => {
                    assert!(!empty, "{id}: refused with no diagnostic:\n{text}");
                    compiled += ok as usize;
                    replayed += n;
                }
                Err(_) => {
                    let path = std::env::temp_dir().join(format!("tarot-fuzz-crash-{id}-{}.tarot", crashes.len()));
                    std::fs::write(&path, &text).unwrap();
                    crashes.push(format!("{id}: {}", path.display()));
                }
            }
        }
    }
    println!("mutated rule files: {tried} inputs tried, {compiled} compiled, {replayed} replays of a game under them, in {:.1}s", started.elapsed().as_secs_f64());
    assert!(crashes.is_empty(), "{} inputs crashed; saved as:\n{}", crashes.len(), crashes.join("\n"));
}

/// The nesting bound of a rule file, against the built-in files.
mod nesting {
    /// The built-in rule files nest far less than the limit allows.
    #[test]
    fn the_rule_files_stay_far_from_the_nesting_limit() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets");
        let mut deepest = 0;
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            deepest = deepest.max(tarot_engine::testing::nesting(&text).unwrap());
        }
        println!("deepest nesting bound of the rule files: {deepest}");
        assert!(deepest * 4 < tarot_engine::testing::MAX_NESTING, "{deepest}");
    }
}
