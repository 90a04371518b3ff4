//! `extends`: a rule file loaded with its parents, the child's statements merged over its parent's
//! (by each statement's key), and `without` removing a parent's statement.

use super::*;

/// Statements that are identified by all their words (several per section), not only the first.
const KEYED_BY_ALL_ARGS: &[&str] = &["on", "require", "pay", "must", "keep", "withhold", "excuse"];

/// Statements that a section has once, whatever their words: a child's replaces its parent's.
const SINGLE: &[&str] = &[
    "family",
    "dated",
    "players",
    "trump-order",
    "sit-out",
    "untouchable",
    "sides",
    "turns",
    "group",
    "surplus",
    "short-packet",
    "when",
    "by",
    "from",
    "fool",
    "penalize",
    "unless-unavoidable",
    "ranks",
    "trumps",
];

/// How `extends` matches a child's statement with its parent's: by keyword and first word (so each
/// `contract`, `class`, `let`, `suit` is its own), by all words for the few repeated statements, by
/// keyword alone for statements a section has once.
fn stmt_key(s: &Stmt) -> String {
    // A `trump-order` that follows an option (`= condition`) is one of several, each its own order.
    // (`keep` and `excuse` are also the fool's settings, which have no words: their key is their keyword.)
    // So is each `all-pass play CONTRACT by "who"`: one player named, tried before the next.
    let named = s.key == "all-pass" && s.args.get(2).is_some_and(|w| w.text == "by");
    if (KEYED_BY_ALL_ARGS.contains(&s.key.as_str()) && !s.args.is_empty()) || (s.key == "trump-order" && s.value.is_some()) || named {
        let words: Vec<&str> = s.args.iter().map(|w| w.text.as_str()).collect();
        format!("{} {}", s.key, words.join(" "))
    } else if s.key == "instead" && s.args.len() >= 2 {
        // Each `instead WON CHOSEN` is its own: the winner with WON may have several in its place.
        format!("instead {} {}", s.args[0].text, s.args[1].text)
    } else if SINGLE.contains(&s.key.as_str()) {
        s.key.clone()
    } else {
        match s.args.first() {
            Some(w) => format!("{} {}", s.key, w.text),
            None => s.key.clone(),
        }
    }
}

/// A child's statements override its parent's with the same key; blocks merge statement by statement;
/// `without KEY...` removes a parent's statement.
/// `outer` holds the keys of the enclosing levels of the parent, innermost last, with the key of the
/// block each level is (for a `without` written one level too deep).
fn merge(parent: Vec<Stmt>, child: Vec<Stmt>, errors: &mut Vec<Diagnostic>, outer: &[(String, Vec<String>)]) -> Vec<Stmt> {
    let mut out = parent;
    for s in child {
        if s.key == "without" {
            if s.cite.is_some() {
                errors.push(Diagnostic { file: s.file.to_string(), pos: s.pos, message: "a `without` removes a statement, so a citation on it would go nowhere".into() });
            }
            let key: Vec<&str> = s.args.iter().map(|w| w.text.as_str()).collect();
            let key = key.join(" ");
            let before = out.len();
            out.retain(|p| stmt_key(p) != key);
            if key == "dated" && outer.is_empty() {
                errors.push(Diagnostic {
                    file: s.file.to_string(),
                    pos: s.pos,
                    message: "`without dated` removes nothing: a child never inherits its parent's `dated` (give it its own where its source dates it)".into(),
                });
            } else if out.len() == before {
                errors.push(Diagnostic { file: s.file.to_string(), pos: s.pos, message: without_nothing(&key, &out, outer) });
            }
            continue;
        }
        let key = stmt_key(&s);
        let level: Vec<String> = if s.block.is_some() { out.iter().map(stmt_key).collect() } else { vec![] };
        match out.iter_mut().find(|p| stmt_key(p) == key) {
            Some(p) => match (p.block.take(), s.block.clone()) {
                (Some(pb), Some(cb)) => {
                    let mut inner = outer.to_vec();
                    inner.push((key.clone(), level));
                    let merged = merge(pb, cb, errors, &inner);
                    // A child block without a citation keeps its parent's.
                    let cite = s.cite.clone().or(p.cite.take());
                    *p = Stmt { block: Some(merged), cite, ..s };
                }
                _ => *p = s,
            },
            None => out.push(s),
        }
    }
    out
}

/// Why `without KEY` removed nothing from `level` (the parent's statements where it was written),
/// and what it could have meant: the key one level down, or the nearest key here.
fn without_nothing(key: &str, level: &[Stmt], outer: &[(String, Vec<String>)]) -> String {
    if key.is_empty() {
        return "`without` needs the key of the parent's statement to remove: `without players`, `without class kings`, `without must overtrump`".into();
    }
    let head = format!("`without {key}` removes nothing: the parent has no statement with the key `{key}` at this level");
    // Written inside a block, for a statement of an enclosing level.
    for (i, (_, keys)) in outer.iter().enumerate().rev() {
        if keys.iter().any(|k| k == key) {
            let place = if i == 0 { "at the top level".to_string() } else { format!("in `{} {{ ... }}`", outer[i - 1].0) };
            return format!("{head}; it is {place}, outside this block, so write `without {key}` there");
        }
    }
    for p in level {
        if p.block.as_ref().is_some_and(|b| b.iter().any(|s| stmt_key(s) == key)) {
            let block = stmt_key(p);
            return format!("{head}; it is inside `{block} {{ ... }}`, so write `{block} {{ without {key} }}`");
        }
    }
    let mut keys: Vec<String> = level.iter().map(stmt_key).collect();
    keys.sort();
    keys.dedup();
    let near = keys.iter().map(|k| (check::distance(k, key), k)).min();
    match near {
        Some((d, k)) if d <= 2.max(key.len() / 3) => format!("{head}; did you mean `without {k}`?"),
        _ => {
            let nested = level.iter().flat_map(|p| p.block.iter().flatten().map(move |s| (check::distance(&stmt_key(s), key), stmt_key(p), stmt_key(s)))).min();
            match nested {
                Some((d, block, k)) if d <= 2.max(key.len() / 3) => format!("{head}; did you mean `{block} {{ without {k} }}`?"),
                _ => format!("{head}; the keys here are: {}", keys.join(", ")),
            }
        }
    }
}

/// Removes and reports the `without`s that a merge did not consume: in a file that extends nothing,
/// or in a block the parent does not have.
fn leftover_withouts(stmts: &mut Vec<Stmt>, has_parent: bool, errors: &mut Vec<Diagnostic>) {
    stmts.retain(|s| {
        if s.key != "without" {
            return true;
        }
        let key: Vec<&str> = s.args.iter().map(|w| w.text.as_str()).collect();
        let message = if has_parent {
            format!("`without {}` removes nothing: the parent has no block here for it to remove from", key.join(" "))
        } else {
            format!("`without {}` removes nothing: `without` removes a parent's statement, so it only works in a ruleset that `extends` another", key.join(" "))
        };
        errors.push(Diagnostic { file: s.file.to_string(), pos: s.pos, message });
        false
    });
    for s in stmts.iter_mut() {
        if let Some(b) = &mut s.block {
            leftover_withouts(b, has_parent, errors);
        }
    }
}

impl Compiler {
    pub(super) fn load_chain(&mut self, id: &str, load: &dyn Fn(&str) -> Option<RuleFile>, seen: &mut Vec<String>) -> Option<(Header, Vec<Stmt>)> {
        self.load_from(id, load, seen, None)
    }

    /// Loads `id`; `from` is the `extends` statement that asked for it, for error positions.
    pub(super) fn load_from(&mut self, id: &str, load: &dyn Fn(&str) -> Option<RuleFile>, seen: &mut Vec<String>, from: Option<&Stmt>) -> Option<(Header, Vec<Stmt>)> {
        let Some(file) = load(id) else {
            match from {
                Some(ext) => self.err_at(ext, format!("`extends {id}`: there is no ruleset `{id}`")),
                None => self.err(id, Pos::default(), format!("unknown ruleset `{id}`")),
            }
            return None;
        };
        if seen.contains(&id.to_string()) {
            self.err(&file.path, Pos { line: 1, col: 1 }, format!("`extends` goes round in a circle: {} -> {id}", seen.join(" -> ")));
            return None;
        }
        seen.push(id.to_string());
        let stmts = match parse_file(&file.path, &file.text) {
            Ok(s) => s,
            Err(d) => {
                self.errors.push(d);
                return None;
            }
        };
        let mut rest = stmts.into_iter();
        let Some(head) = rest.next().filter(|s| s.key == "ruleset") else {
            self.err(&file.path, Pos { line: 1, col: 1 }, "a rule file starts with `ruleset ID \"title\"`");
            return None;
        };
        if head.args.len() > 2 || head.value.is_some() || head.block.is_some() {
            self.err_at(&head, "a rule file starts with `ruleset ID \"title\"`, and nothing more on that line");
        }
        let name = head.args.first().map(|w| w.text.clone()).unwrap_or_default();
        if name != id {
            self.err(&file.path, head.pos, format!("this file declares ruleset `{name}`, but it is loaded as `{id}`; the file name and the declared id must agree"));
        }
        let title = head.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| id.to_string());
        let body: Vec<Stmt> = rest.collect();
        check::duplicates(&body, &stmt_key, &mut self.errors);
        check::withouts(&body, &mut self.errors);
        let (parent, own): (Vec<Stmt>, Vec<Stmt>) = body.into_iter().partition(|s| s.key == "extends");
        // `extends` never reaches `ruleset()`, which checks the other statements' forms.
        check::shapes(&parent, "", &mut self.errors);
        for ext in parent.iter().skip(1) {
            self.err_at(ext, format!("a ruleset extends one parent, and this file already says `extends {}`", parent[0].args.first().map_or("", |w| w.text.as_str())));
        }
        let mut header = Header { id: id.to_string(), title, chain: vec![id.to_string()], texts: vec![(file.path.clone(), file.text.clone())], file: file.path.as_str().into() };
        let stmts = match parent.first() {
            Some(ext) => {
                let Some(parent_id) = ext.args.first().map(|w| w.text.clone()) else {
                    self.err_at(ext, "`extends` needs the id of the parent ruleset");
                    return None;
                };
                let (ph, mut pstmts) = self.load_from(&parent_id, load, seen, Some(ext))?;
                // The year the parent's source dates its rules from is not the child's: a child
                // is dated by its own `dated`, citing the source that dates it, or not at all.
                pstmts.retain(|s| s.key != "dated");
                header.chain.extend(ph.chain);
                header.texts.extend(ph.texts);
                let mut merged = merge(pstmts, own, &mut self.errors, &[]);
                leftover_withouts(&mut merged, true, &mut self.errors);
                merged
            }
            None => {
                let mut own = own;
                leftover_withouts(&mut own, false, &mut self.errors);
                own
            }
        };
        Some((header, stmts))
    }
}
