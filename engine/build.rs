//! Builds the list of rule files under `rulesets/` into the engine, so adding a variant is adding a
//! file: no code names it.

use std::fmt::Write;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut entries: Vec<_> = std::fs::read_dir(&dir).expect("rulesets/ exists").flatten().map(|e| e.path()).collect();
    entries.sort();
    let mut out = String::from("&[\n");
    for path in entries.iter().filter(|p| p.extension().and_then(|e| e.to_str()) == Some("tarot")) {
        println!("cargo:rerun-if-changed={}", path.display());
        let id = path.file_stem().and_then(|s| s.to_str()).expect("utf-8 file name");
        let _ = writeln!(out, "    ({id:?}, include_str!({:?})),", path.canonicalize().expect("readable path").display().to_string());
    }
    out.push(']');
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("rulesets.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
