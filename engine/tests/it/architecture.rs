//! ARCHITECTURE.md's invariants that a test can check: the crates depend only down its table, no
//! crate's modules import one another in a cycle, the rules core names no JSON, and the engine is
//! reached through its façade (its root's re-exports and the public modules lib.rs lists).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The workspace crates a crate's manifest names in its `[dependencies]` (not its dev-dependencies).
fn workspace_dependencies(krate: &str) -> BTreeSet<String> {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join(krate).join("Cargo.toml")).unwrap();
    let mut section = "";
    let mut found = BTreeSet::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[dependencies]" && line.starts_with("tarot-") {
            found.insert(line.split([' ', '=', '.']).next().unwrap().to_string());
        }
    }
    found
}

#[test]
fn the_crates_depend_only_down_the_table() {
    let expected: [(&str, &[&str]); 5] = [
        ("engine", &[]),
        ("store", &["tarot-engine"]),
        ("api", &["tarot-engine", "tarot-store"]),
        ("cli", &["tarot-api", "tarot-engine", "tarot-store"]),
        ("testkit", &["tarot-engine"]),
    ];
    for (krate, deps) in expected {
        let deps: BTreeSet<String> = deps.iter().map(|d| d.to_string()).collect();
        assert_eq!(workspace_dependencies(krate), deps, "{krate}/Cargo.toml: the workspace crates it depends on (ARCHITECTURE.md, Crates)");
    }
}

/// The tests' kit is for tests only: no crate's `[dependencies]` names it (the table above), it is
/// never published, and the workspace lists no crate the table does not.
#[test]
fn the_testkit_is_a_dev_dependency_only() {
    let workspace = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap();
    let members = workspace.lines().find_map(|l| l.trim().strip_prefix("members = ")).expect("the workspace's members");
    let mut members: Vec<&str> = members.trim_matches(|c| c == '[' || c == ']').split(',').map(|m| m.trim().trim_matches('"')).collect();
    members.sort();
    assert_eq!(members, ["api", "cli", "engine", "store", "testkit"], "Cargo.toml: a crate not in ARCHITECTURE.md's table");
    let testkit = std::fs::read_to_string(Path::new(ROOT).join("testkit/Cargo.toml")).unwrap();
    assert!(testkit.lines().any(|l| l.trim() == "publish = false"), "testkit/Cargo.toml: publish = false");
    for krate in ["engine", "store", "api", "cli"] {
        assert!(!workspace_dependencies(krate).contains("tarot-testkit"), "{krate} depends on the tests' kit");
    }
}

/// Every `.rs` file under `dir`, with its path from `dir`.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut found = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                found.push((path.strip_prefix(dir).unwrap().to_path_buf(), text));
            }
        }
    }
    found.sort();
    found
}

/// The text of a source file without its comments (line comments, doc comments included), so that a
/// path named in prose is not read as an import, and without its tests (`#[cfg(test)]` to the end of
/// the file): a test may read the whole crate.
fn code_of(text: &str) -> String {
    let code = text.split("\n#[cfg(test)]").next().unwrap();
    code.lines().map(|line| line.split("//").next().unwrap()).collect::<Vec<_>>().join("\n")
}

/// The module graph of a crate: for each module at the crate's top (a file `src/x.rs` or a folder
/// `src/x/`), the other top modules its code names through `crate::`, directly or through a name the
/// crate's root re-exports (`pub use x::Name` in lib.rs).
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = sources(src);
    let top = |path: &Path| path.iter().next().unwrap().to_string_lossy().trim_end_matches(".rs").to_string();
    let mut reexported: BTreeMap<String, String> = BTreeMap::new();
    for (path, text) in &files {
        if path == Path::new("lib.rs") || path == Path::new("main.rs") {
            // Statement by statement, so that a re-export written over several lines counts.
            for statement in code_of(text).split(';') {
                let statement = statement.split_whitespace().collect::<Vec<_>>().join(" ");
                let Some(at) = statement.find("pub use ") else { continue };
                let rest = &statement[at + "pub use ".len()..];
                let rest = rest.strip_prefix("crate::").unwrap_or(rest);
                let Some((module, names)) = rest.split_once("::") else { continue };
                for name in names.trim_end_matches(';').trim_matches(|c| c == '{' || c == '}').split(',') {
                    let name = name.rsplit("::").next().unwrap().split(" as ").last().unwrap().trim_matches(|c: char| c == '{' || c == '}' || c.is_whitespace());
                    if !name.is_empty() {
                        reexported.insert(name.to_string(), module.to_string());
                    }
                }
            }
        }
    }
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in &files {
        let from = top(path);
        // A module's tests in a file of their own (`#[cfg(test)] mod tests;`) are test code too.
        if from == "lib" || from == "main" || path.file_name().is_some_and(|f| f == "tests.rs") {
            continue;
        }
        let code = code_of(text);
        let mut named = BTreeSet::new();
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                named.extend(group.split(',').map(|n| n.trim().split("::").next().unwrap().to_string()));
            } else {
                named.insert(rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>());
            }
        }
        let edges = graph.entry(from.clone()).or_default();
        for name in named {
            let module = reexported.get(&name).cloned().unwrap_or(name);
            if module != from && files.iter().any(|(p, _)| top(p) == module) {
                edges.insert(module);
            }
        }
    }
    graph
}

/// A cycle of the graph, as the modules in order, if there is one.
fn a_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(node: &str, graph: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| visit(node, graph, &mut vec![], &mut done))
}

#[test]
fn no_crate_imports_its_own_modules_in_a_cycle() {
    for krate in ["engine", "store", "api", "cli"] {
        let graph = module_graph(&Path::new(ROOT).join(krate).join("src"));
        if let Some(cycle) = a_cycle(&graph) {
            panic!("{krate}/src: the modules import one another in a cycle: {}", cycle.join(" → "));
        }
    }
}

#[test]
fn the_cycle_check_finds_a_cycle_and_passes_a_tree() {
    let graph = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
        }
        g
    };
    assert_eq!(a_cycle(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
    assert_eq!(a_cycle(&graph(&[("a", "b"), ("b", "c"), ("c", "a")])), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
}

/// The engine's rules core: the language, the compiled rules and their interpreter, and what they
/// are made of (ARCHITECTURE.md, Invariants: no JSON in the rules core).
const RULES_CORE: &[&str] = &["dsl", "ir", "expr", "label", "replay", "cards", "num", "combinations", "registry"];

/// The files of the rules core (top modules `core` of `src`) whose code names `serde_json`.
fn json_in(src: &Path, core: &[&str]) -> Vec<PathBuf> {
    sources(src)
        .into_iter()
        .filter(|(path, _)| core.contains(&path.iter().next().unwrap().to_string_lossy().trim_end_matches(".rs")))
        .filter(|(_, text)| code_of(text).contains("serde_json"))
        .map(|(path, _)| path)
        .collect()
}

#[test]
fn the_rules_core_names_no_json() {
    let found = json_in(&Path::new(ROOT).join("engine/src"), RULES_CORE);
    assert!(found.is_empty(), "engine/src: these files of the rules core name serde_json, which only the wire's edge may (record, verdict, openapi, the outputs): {found:?}");
}

#[test]
fn the_json_check_finds_json_in_a_core_module_and_not_elsewhere() {
    let dir = std::env::temp_dir().join(format!("architecture-json-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("ir")).unwrap();
    std::fs::write(dir.join("ir/mod.rs"), "pub struct O {\n    // serde_json in a comment is prose\n    pub v: serde_json::Value,\n}\n").unwrap();
    std::fs::write(dir.join("expr.rs"), "/// serde_json named in prose only\npub struct E;\n").unwrap();
    std::fs::write(dir.join("record.rs"), "pub fn f(v: &serde_json::Value) {}\n").unwrap();
    let found = json_in(&dir, RULES_CORE);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, vec![PathBuf::from("ir/mod.rs")]);
}

/// The engine's public modules, as lib.rs's documentation lists them: the compiled rules, and the
/// interpreter's stepping for the engine's own tests, benchmarks and fixture generators.
const PUBLIC_MODULES: &[&str] = &["ir", "testing"];

/// The modules a crate root declares `pub` (`pub mod x;` or `pub mod x {`), a `pub(crate)` one not.
fn public_modules(lib: &str) -> Vec<String> {
    code_of(lib)
        .lines()
        .map(str::trim)
        .filter_map(|line| line.strip_prefix("pub mod "))
        .map(|rest| rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect())
        .collect()
}

/// The files under `dir` whose code reaches into the engine's module `module` (`tarot_engine::module::`
/// or `tarot_engine::module::{`).
fn reaching_into(dir: &Path, module: &str) -> Vec<PathBuf> {
    let path = format!("tarot_engine::{module}::");
    sources(dir).into_iter().filter(|(_, text)| code_of(text).contains(&path)).map(|(p, _)| dir.join(p)).collect()
}

#[test]
fn the_engine_declares_only_the_public_modules_its_facade_lists() {
    let lib = std::fs::read_to_string(Path::new(ROOT).join("engine/src/lib.rs")).unwrap();
    assert_eq!(public_modules(&lib), PUBLIC_MODULES, "engine/src/lib.rs: a public module beyond those its documentation lists (say why in lib.rs and here)");
    let doc: String = lib.lines().filter(|l| l.starts_with("//!")).collect::<Vec<_>>().join("\n");
    for m in PUBLIC_MODULES {
        assert!(doc.contains(&format!("[`{m}`]")), "engine/src/lib.rs: its documentation does not say why `{m}` is public");
    }
    let testing = lib.find("pub mod testing").unwrap();
    assert!(lib[..testing].trim_end().ends_with("#[doc(hidden)]"), "engine/src/lib.rs: `testing` is not part of the API and is hidden from its documentation");
}

/// The engine's library is not built as a test harness (`test = false` in engine/Cargo.toml: it would
/// compile the whole engine again for its unit tests), so a test written in its sources would never
/// run: there is none, and the manifest says so.
#[test]
fn the_engine_keeps_its_tests_in_tests_it() {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("engine/Cargo.toml")).unwrap();
    assert!(manifest.contains("[lib]\ntest = false"), "engine/Cargo.toml: the library's harness is off (tests/it holds the tests)");
    let written: Vec<PathBuf> =
        sources(&Path::new(ROOT).join("engine/src")).into_iter().filter(|(_, text)| text.contains("#[test]") || text.contains("#[cfg(test)]")).map(|(path, _)| path).collect();
    assert!(written.is_empty(), "engine/src: tests that would never run (the library is built with `test = false`; move them to tests/it): {written:?}");
}

#[test]
fn no_service_crate_steps_a_game_itself() {
    // The API, the pages, the store and the command line replay records and draw verdicts (the page's
    // drawing input is `tarot_engine::draw_game`); none drives the interpreter move by move.
    for krate in ["api/src", "cli/src", "store/src", "testkit/src"] {
        let found = reaching_into(&Path::new(ROOT).join(krate), "testing");
        assert!(found.is_empty(), "{krate}: these files use the engine's `testing` module, which is for the engine's own tests: {found:?}");
    }
}

#[test]
fn the_facade_checks_find_a_public_module_and_a_reach_into_testing() {
    let lib = "//! [`ir`] is public\npub mod ir;\nmod replay;\npub(crate) mod cards;\n// pub mod prose;\n#[doc(hidden)]\npub mod testing {\n}\npub mod extra;\n";
    assert_eq!(public_modules(lib), ["ir", "testing", "extra"]);
    let dir = std::env::temp_dir().join(format!("architecture-facade-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("pages")).unwrap();
    std::fs::write(dir.join("pages/step.rs"), "use tarot_engine::testing::{Game, Stage};\n").unwrap();
    std::fs::write(dir.join("page.rs"), "// tarot_engine::testing::Game in prose\nuse tarot_engine::draw_game;\n").unwrap();
    let found = reaching_into(&dir, "testing");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, vec![dir.join("pages/step.rs")]);
}

#[test]
fn the_module_graph_reads_a_reexport_written_over_several_lines() {
    let dir = std::env::temp_dir().join(format!("architecture-reexport-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\npub use b::{\n    One,\n    Two as Deux,\n};\n").unwrap();
    std::fs::write(dir.join("a.rs"), "pub fn f() -> crate::Deux {\n    todo!()\n}\n").unwrap();
    std::fs::write(dir.join("b.rs"), "pub struct One;\npub struct Two;\n").unwrap();
    let graph = module_graph(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(graph["a"], BTreeSet::from(["b".to_string()]));
}
