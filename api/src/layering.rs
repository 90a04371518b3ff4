//! The state, the problems and the examples are leaves a reader understands alone, and the handlers
//! (`routes`) and the pages sit on top; that no module of any crate imports another in a cycle is
//! checked for the whole workspace (`engine/tests/it/architecture.rs`). Test code (`#[cfg(test)]` to the end of a file) is
//! left out: a test may read the whole document.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module of `src/` and the top-level modules its code names.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            // `routes/games.rs` and `routes.rs` are both the module `routes`.
            let relative = path.strip_prefix(&src).unwrap();
            let first = relative.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
            if first == "lib" || first == "layering" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            // Code, not comments: a comment may name a module without depending on it.
            let code: String = text.split("\n#[cfg(test)]").next().unwrap().lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
            let names = graph.entry(first.clone()).or_default();
            for (at, _) in code.match_indices("crate::") {
                let rest = &code[at + "crate::".len()..];
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                let name = if name.is_empty() {
                    // `use crate::{a, b};`
                    let group = &rest[1..rest.find('}').unwrap()];
                    for part in group.split(',').map(|p| p.trim().split("::").next().unwrap().to_string()).filter(|p| !p.is_empty()) {
                        if part != first {
                            names.insert(part);
                        }
                    }
                    continue;
                } else {
                    name
                };
                if name != first {
                    names.insert(name);
                }
            }
        }
    }
    graph
}

#[test]
fn the_state_the_problems_and_the_examples_are_leaves() {
    let graph = imports();
    // What each may name: nothing of the handlers, pages or document.
    for (leaf, allowed) in [("docs", &[][..]), ("problem", &["schema", "usecases"][..]), ("state", &["limits", "problem"][..]), ("usecases", &[][..])] {
        let names: Vec<&String> = graph.get(leaf).into_iter().flatten().filter(|n| !allowed.contains(&n.as_str())).collect();
        assert!(names.is_empty(), "{leaf} names {names:?}");
    }
}

/// The use cases are written once: outside `usecases`, no handler, page or command stores, stages,
/// appends, imports or rebuilds by itself (the store's writes are called from `usecases` only; the
/// one exception, `create_later`, hands `POST /games`'s game, made by `usecases::create`, to the
/// store's writer thread). And `usecases` knows no HTTP.
#[test]
fn the_use_cases_are_written_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    let mut stack = vec![root.join("src"), root.join("../cli/src")];
    while let Some(dir) = stack.pop() {
        for path in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()) {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let writes = [
        "tarot_store::prepare(",
        "stage_game(",
        "stage_finish(",
        "import_staged(",
        "split_batch(",
        "store.import(",
        "store.append(",
        "store.create_session(",
        "store.add_to_session(",
        "rebuild_projections(",
        "Refereed::of(",
    ];
    let mut found = vec![];
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let in_usecases = file.components().any(|c| c.as_os_str() == "usecases");
        let code: String = text.split("\n#[cfg(test)]").next().unwrap().lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        if in_usecases {
            for http in ["actix", "HttpResponse", "Problem", "StatusCode"] {
                assert!(!code.contains(http), "{} names {http}", file.display());
            }
            continue;
        }
        if file.ends_with("layering.rs") {
            continue;
        }
        for w in writes.iter().filter(|w| code.contains(*w)) {
            found.push(format!("{}: {w}", file.display()));
        }
    }
    assert!(found.is_empty(), "a use case written outside `usecases`: {found:#?}");
}
