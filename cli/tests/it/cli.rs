//! The command line as a user runs it: exit codes of `validate`, the ruleset listing, `simulate`
//! writing games that validate, and `import tarotclub`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tarot-archive")).args(args).current_dir(root()).output().expect("the binary runs")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn validate_exits_0_1_or_2() {
    let ok = run(&["validate", "fixtures/fft-4p/valid/4p-1.json", "fixtures/basic/valid/3p-1.json"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    let out: Vec<serde_json::Value> = serde_json::Deserializer::from_slice(&ok.stdout).into_iter().map(|v| v.unwrap()).collect();
    assert_eq!(out.len(), 2);
    assert_eq!(out[0]["verdict"]["status"], "valid");

    let bad = run(&["validate", "fixtures/fft-4p/valid/4p-1.json", "fixtures/fft-4p/invalid/play.must.overtrump.json"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(text(&bad.stdout).contains("must overtrump"));

    let malformed = run(&["validate", "fixtures/fft-4p/invalid/play.must.overtrump.json", "fixtures/fft-4p/malformed/unknown-card.json"]);
    assert_eq!(malformed.status.code(), Some(2));
    assert!(text(&malformed.stderr).contains("unknown card \"15X\""), "{}", text(&malformed.stderr));

    let missing = run(&["validate", "no/such/file.json"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("cannot read"));
}

/// `validate` prints one verdict per line, each a JSON document a parser reads alone.
#[test]
fn validate_prints_one_json_verdict_per_line() {
    let out = run(&["validate", "fixtures/fft-4p/valid/4p-1.json", "fixtures/fft-4p/invalid/play.must.overtrump.json", "no/such/file.json"]);
    let lines: Vec<serde_json::Value> = text(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["verdict"]["status"], "valid");
    assert_eq!(lines[1]["verdict"]["status"], "invalid");
    assert!(lines[2]["error"].as_str().is_some_and(|e| e.contains("cannot read")), "{}", lines[2]);
}

/// Every command answers `--help`, the program `--version`, and a missing value is refused (exit 2)
/// rather than read as the next word.
#[test]
fn help_version_and_missing_values() {
    let version = run(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert_eq!(text(&version.stdout).trim(), format!("tarot-archive {}", env!("CARGO_PKG_VERSION")));
    // Every command, those under `import` and `rulesets` too, answers --help and --version.
    for command in ["serve", "rebuild", "import", "import games", "import tarotclub", "openapi", "validate", "rulesets", "rulesets show", "compare", "stats", "simulate"] {
        let words: Vec<&str> = command.split(' ').collect();
        let help = run(&[&words[..], &["--help"]].concat());
        assert_eq!(help.status.code(), Some(0), "{command} --help: {}", text(&help.stderr));
        assert!(text(&help.stdout).contains(&format!("Usage: tarot-archive {command}")), "{command}: {}", text(&help.stdout));
        let version = run(&[&words[..], &["--version"]].concat());
        assert_eq!(version.status.code(), Some(0), "{command} --version: {}", text(&version.stderr));
        assert!(text(&version.stdout).trim().ends_with(env!("CARGO_PKG_VERSION")), "{command} --version: {}", text(&version.stdout));
    }
    for args in [&["validate"][..], &["serve", "--addr"], &["stats", "--rulesets", "fft-4p", "--deals"], &["nonsense"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).starts_with("error:"), "{args:?}: {}", text(&out.stderr));
    }
}

#[test]
fn text_verdicts_read_as_a_timeline_and_score_sheet() {
    let out = run(&["validate", "--text", "fixtures/worked/fft-deal5.json"]);
    let t = text(&out.stdout);
    assert!(t.contains("trick 18") && t.contains("score sheet") && t.contains("1746"), "{t}");
}

#[test]
fn rulesets_are_listed_and_shown_with_sources() {
    let list = text(&run(&["rulesets"]).stdout);
    for id in ["fft-4p", "marolles-1637", "basic"] {
        assert!(list.contains(id), "{list}");
    }
    let show = run(&["rulesets", "show", "marolles-1637"]);
    let t = text(&show.stdout);
    assert!(t.contains("no obligation") || t.contains("must follow"), "{t}");
    assert!(t.contains("M \"Deal and Discard\""), "{t}");
    assert!(t.contains("ultimo_failure = 6"), "{t}");
    let unknown = run(&["rulesets", "show", "nope"]);
    assert_eq!(unknown.status.code(), Some(2));
    // Lists that name too few rulesets say so, and what they named.
    for (args, says) in [
        (&["stats", "--rulesets", ",", "--deals", "10", "--seed", "1"][..], "stats needs at least one ruleset (--rulesets a,b); `,` names none"),
        (&["compare", "--rulesets", "fft-4p"][..], "compare needs at least two rulesets (--rulesets a,b); `fft-4p` names only fft-4p"),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(says), "{}", text(&out.stderr));
    }
}

#[test]
fn simulated_games_validate() {
    let dir = std::env::temp_dir().join(format!("tarot-cli-sim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&["simulate", "--ruleset", "marolles-1637", "--games", "5", "--seed", "9", "--out", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut files: Vec<String> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path().display().to_string()).collect();
    files.sort();
    assert_eq!(files.len(), 5);
    let mut args = vec!["validate"];
    args.extend(files.iter().map(String::as_str));
    let v = run(&args);
    assert_eq!(v.status.code(), Some(0), "{}", text(&v.stdout));
    let _ = std::fs::remove_dir_all(dir);
}

/// `simulate --match-end 1`: every Tarocchini deal is one of a match near its target (800), so the
/// dealer calls himself out right after the deal where his first 15 cards allow it; every game validates,
/// and the description names the flag.
#[test]
fn simulate_deals_near_the_matchs_end() {
    let dir = std::env::temp_dir().join(format!("tarot-cli-match-end-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&["simulate", "--ruleset", "tarocchini", "--games", "30", "--seed", "2", "--match-end", "1", "--out", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let files: Vec<String> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path().display().to_string()).collect();
    let records: Vec<serde_json::Value> = files.iter().map(|f| serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap()).collect();
    assert!(records.iter().all(|r| r["description"].as_str().unwrap().contains("--match-end 1") && r["standing"]["Ann"].as_i64().is_some_and(|s| s >= 720)));
    let called = records.iter().filter(|r| r["events"][1]["declaration"] == "fuori_mazziere").count();
    assert!(called > 0, "no call-out in 30 games near the match's end");
    let mut args = vec!["validate"];
    args.extend(files.iter().map(String::as_str));
    let v = run(&args);
    assert_eq!(v.status.code(), Some(0), "{}", text(&v.stdout));
    let bad = run(&["simulate", "--ruleset", "tarocchini", "--games", "1", "--seed", "3", "--match-end", "2", "--out", "/tmp/unused"]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));
    let _ = std::fs::remove_dir_all(dir);
}

/// Troccas with the option `asked = "yes"`: the deal's `require` reads the standing, so the simulator
/// writes one it allows (a side owing nine or more); with `--carry` every Grosstarock deal carries pots.
#[test]
fn simulate_writes_the_standing_and_pots_a_deal_needs() {
    for (id, extra, field) in [("troccas", vec!["--option", "asked=yes"], "standing"), ("grosstarock", vec!["--carry"], "pots")] {
        let dir = std::env::temp_dir().join(format!("tarot-cli-carry-{id}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut args = vec!["simulate", "--ruleset", id, "--games", "4", "--seed", "5", "--out", dir.to_str().unwrap()];
        args.extend(extra);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let mut files: Vec<String> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path().display().to_string()).collect();
        files.sort();
        assert_eq!(files.len(), 4);
        for f in &files {
            let rec: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            assert!(rec[field].as_object().is_some_and(|m| !m.is_empty()), "{f}: no {field}");
        }
        let mut args = vec!["validate"];
        args.extend(files.iter().map(String::as_str));
        let v = run(&args);
        assert_eq!(v.status.code(), Some(0), "{}", text(&v.stdout));
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn simulate_steers_to_a_contract_and_refuses_one_the_ruleset_lacks() {
    let dir = std::env::temp_dir().join(format!("tarot-cli-steer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&["simulate", "--ruleset", "fft-5p", "--games", "4", "--seed", "3", "--steer", "--contract", "garde-contre", "--out", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut files: Vec<String> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path().display().to_string()).collect();
    files.sort();
    let mut args = vec!["validate"];
    args.extend(files.iter().map(String::as_str));
    let v = run(&args);
    assert_eq!(v.status.code(), Some(0), "{}", text(&v.stdout));
    let verdicts: Vec<serde_json::Value> = serde_json::Deserializer::from_slice(&v.stdout).into_iter().map(|v| v.unwrap()).collect();
    assert!(verdicts.iter().all(|v| v["verdict"]["status"] == "annulled" || v["verdict"]["outcome"]["contract"] == "garde-contre"), "{}", text(&v.stdout));
    let _ = std::fs::remove_dir_all(dir);

    let bad = run(&["simulate", "--ruleset", "marolles-1637", "--games", "1", "--seed", "3", "--contract", "garde", "--out", "/tmp/unused"]);
    assert_ne!(bad.status.code(), Some(0));
    assert!(text(&bad.stderr).contains("no contract `garde`"), "{}", text(&bad.stderr));
    let bad = run(&["simulate", "--ruleset", "fft-4p", "--games", "1", "--seed", "3", "--hold-excuse", "2", "--out", "/tmp/unused"]);
    assert!(text(&bad.stderr).contains("--hold-excuse must be a chance from 0 to 1"), "{}", text(&bad.stderr));
}

#[test]
fn tarotclub_logs_import_and_say_what_was_inferred() {
    let out = run(&["import", "tarotclub", "fixtures/peers/tarotclub-deals/tarotmag_17.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rec: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rec["events"].as_array().unwrap().len(), 1 + 4 + 1 + 72);
    assert!(text(&out.stderr).contains("inferred"));
}

#[test]
fn deal_statistics_print_side_by_side_with_a_progress_bar() {
    let out = run(&["stats", "--rulesets", "fft-4p,basic", "--deals", "2000", "--seed", "9"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("fft-4p — 4 players, 2000 deals, seed 9"), "{stdout}");
    assert!(stdout.contains("annulment petit_sec") && stdout.contains("declaration poignee") && stdout.contains("oudlers per hand"), "{stdout}");
    assert!(stdout.contains("basic — 2 players"), "{stdout}");
    assert!(stdout.contains("no card is played"), "{stdout}");
    assert!(text(&out.stderr).contains("100%"), "no progress bar: {}", text(&out.stderr));
    assert_eq!(run(&["stats", "--rulesets", "fft-4p", "--deals", "2000", "--seed", "9"]).stdout, run(&["stats", "--rulesets", "fft-4p", "--deals", "2000", "--seed", "9"]).stdout);
    for bad in [
        &["stats", "--rulesets", "fft-4p", "--deals", "0", "--seed", "1"][..],
        &["stats", "--rulesets", "nope", "--deals", "10", "--seed", "1"],
        &["stats", "--deals", "10", "--seed", "1"],
    ] {
        let out = run(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", text(&out.stderr));
        assert!(!text(&out.stderr).trim().is_empty());
    }
}

/// 200 verdicts are far more than a pipe holds: without the default SIGPIPE, the print after the
/// reader closes would panic.
#[test]
fn output_piped_into_a_reader_that_stops_early_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut args = vec!["validate", "--text"];
    args.extend(std::iter::repeat_n("fixtures/worked/fft-deal1.json", 200));
    let mut child = Command::new(env!("CARGO_BIN_EXE_tarot-archive")).args(&args).current_dir(root()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    stdout.read_exact(&mut [0u8; 64]).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert!(!text(&out.stderr).contains("panicked"), "{}", text(&out.stderr));
}

/// With `--text`, a file that cannot be read is a line of the text like a verdict, in its place and
/// once: not a JSON object among the text, and not repeated on stderr.
#[test]
fn text_output_says_errors_as_text() {
    let out = run(&["validate", "--text", "fixtures/worked/fft-deal1.json", "fixtures/fft-4p/malformed/unknown-card.json", "no/such/file.json"]);
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    assert!(!stdout.lines().any(|l| l.starts_with('{')), "{stdout}");
    assert!(stdout.contains("fixtures/fft-4p/malformed/unknown-card.json: error: event 0: unknown card \"15X\""), "{stdout}");
    assert!(stdout.trim_end().ends_with("no/such/file.json: error: cannot read: No such file or directory (os error 2)"), "{stdout}");
    assert!(stdout.find("fft-deal1.json").unwrap() < stdout.find("unknown-card.json").unwrap(), "in the order of the files: {stdout}");
    assert_eq!(text(&out.stderr), "", "said once, on stdout");
}

/// The listing's columns line up: each ruleset's table size and title start at the same column.
#[test]
fn the_ruleset_list_is_aligned() {
    let list = text(&run(&["rulesets"]).stdout);
    let columns: std::collections::BTreeSet<(usize, usize)> = list
        .lines()
        .map(|l| {
            let players = l.find(' ').map(|i| i + l[i..].find(|c: char| c != ' ').unwrap()).unwrap();
            let title = players + l[players..].find(' ').map(|i| i + l[players + i..].find(|c: char| c != ' ').unwrap()).unwrap();
            (players, title)
        })
        .collect();
    assert_eq!(columns.len(), 1, "{list}");
}

/// A folder of folders holds no game at its first level: `import games` (and `validate`) say what
/// they found there, and which folder to name, rather than storing nothing in silence.
#[test]
fn a_folder_of_folders_is_described() {
    let dir = crate::common::temp_dir("folders");
    for sub in ["fft-4p", "marolles-1637"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::copy(root().join("fixtures/fft-4p/valid/4p-1.json"), dir.join(sub).join("1.json")).unwrap();
    }
    std::fs::write(dir.join("README.md"), "games by ruleset").unwrap();
    let data = dir.join("data");
    let out = crate::common::tarot_archive().args(["import", "games"]).arg(&*dir).arg("--data").arg(&data).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let said = text(&out.stderr);
    assert!(said.contains("no .json, .ndjson or .jsonl file here, but 2 folders (fft-4p, marolles-1637) and 1 other file"), "{said}");
    assert!(said.contains("name the folders that hold the games (e.g. ") && said.contains("fft-4p)"), "{said}");
    let out = run(&["validate", &dir.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("but 2 folders (fft-4p, marolles-1637)"), "{}", text(&out.stderr));
    // Named, the folders are read.
    let out = crate::common::tarot_archive().args(["import", "games"]).arg(dir.join("fft-4p")).arg(dir.join("marolles-1637")).arg("--data").arg(&data).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("1 games stored, 1 already stored, 0 refused"), "{}", text(&out.stderr));
}
