//! Builds into the pages the example game of each ruleset that has valid fixtures, so adding a
//! variant with its fixtures gives its overview a worked example: no code names it. The example is
//! `fixtures/<id>/valid/worked-example.json` where there is one, else the first valid game by name.

use std::fmt::Write;
use std::path::{Path, PathBuf};

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut rulesets: Vec<PathBuf> = std::fs::read_dir(&dir).expect("fixtures/ exists").flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    rulesets.sort();
    let mut out = String::from("&[\n");
    for ruleset in rulesets {
        let valid = ruleset.join("valid");
        println!("cargo:rerun-if-changed={}", valid.display());
        let Ok(files) = std::fs::read_dir(&valid) else { continue };
        let mut games: Vec<PathBuf> = files.flatten().map(|e| e.path()).filter(|p| p.extension().and_then(|e| e.to_str()) == Some("json")).collect();
        games.sort();
        let Some(game) = games.iter().find(|p| p.file_name().is_some_and(|n| n == "worked-example.json")).or(games.first()) else { continue };
        let id = ruleset.file_name().and_then(|s| s.to_str()).expect("utf-8 folder name");
        let name = game.file_name().and_then(|s| s.to_str()).expect("utf-8 file name");
        let _ = writeln!(out, "    ({id:?}, {:?}, include_str!({:?})),", format!("{id}/valid/{name}"), game.canonicalize().expect("readable path").display().to_string());
    }
    out.push(']');
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("examples.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
