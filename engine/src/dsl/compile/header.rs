//! What a rule file says before its sections: its sources, options, pack, classes, names, pots and
//! formulas (compiled first, so that any formula may use them), which statements it may hold, and
//! its family and date.

use super::*;

/// The statements a rule file may hold.
const KNOWN: [&str; 30] = [
    "ruleset",
    "source",
    "family",
    "dated",
    "option",
    "pack",
    "class",
    "declaration",
    "let",
    "counting",
    "players",
    "sit-out",
    "sides",
    "deal",
    "annul",
    "bidding",
    "call",
    "discard",
    "talon",
    "buy",
    "steal",
    "sit-out-by-choice",
    "play",
    "fool",
    "untouchable",
    "on",
    "score",
    "match",
    "extends",
    "pot",
];

impl Compiler {
    /// Sources, options, the pack, classes, declarations' names, pots, contracts' attributes and
    /// the formulas: what any formula of the sections may name. Gives the pack, the pots and the
    /// constants (the `let`s without parameters).
    pub(super) fn preamble(&mut self, stmts: &[Stmt]) -> (Pack, Vec<PotDef>, Vec<Let>) {
        for s in stmts.iter().filter(|s| s.key == "source") {
            let (Some(id), Some(file)) = (s.args.first(), s.args.get(1)) else {
                self.err_at(s, "a source is written `source ID \"file\" \"title\"`");
                continue;
            };
            let title = s.args.get(2).map(|w| w.text.clone()).unwrap_or_default();
            self.sources.push(Source { id: id.text.clone(), file: file.text.clone(), title });
        }
        self.check_citations(stmts);
        for s in stmts.iter().filter(|s| s.key == "option") {
            self.option(s);
        }
        let pack = self.pack(stmts.iter().find(|s| s.key == "pack"));
        self.pack_cards = Some(pack.cards);
        for s in stmts.iter().filter(|s| s.key == "class") {
            self.class(s, &pack);
        }
        for s in stmts.iter().filter(|s| s.key == "declaration") {
            self.decl_names.push(s.args.first().map(|w| w.text.clone()).unwrap_or_default());
        }
        let pots = self.pots(stmts);
        for s in stmts.iter().filter(|s| s.key == "bidding").flat_map(|s| s.block.iter().flatten()) {
            // `by`, `settle` and `require` are rules of the contract: no attribute a formula reads.
            for a in s.block.iter().flatten().filter(|a| !["by", "settle", "require"].contains(&a.key.as_str())) {
                self.contract_attrs.insert(a.key.clone());
            }
        }
        let mut constants = vec![];
        for s in stmts.iter().filter(|s| s.key == "let" && s.args.len() > 1) {
            self.formula(s);
        }
        // Each `let` after those it reads, wherever they are written (`let_order`).
        let lets: Vec<&Stmt> = stmts.iter().filter(|s| s.key == "let" && s.args.len() <= 1).collect();
        for s in self.let_order(&lets) {
            if let Some(l) = self.let_stmt(s, Ctx::Setup, "let") {
                self.lets.push(l.name.to_string());
                self.let_exprs.push(l.expr.clone());
                constants.push(l);
            }
        }
        (pack, pots, constants)
    }

    pub(super) fn known_statements(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            if !KNOWN.contains(&s.key.as_str()) {
                self.err_at(s, format!("unknown statement `{}`; a rule file has: {}", s.key, KNOWN.join(", ")));
            }
        }
    }

    pub(super) fn family(&mut self, stmts: &[Stmt]) -> Option<(String, Clause)> {
        stmts.iter().find(|s| s.key == "family").and_then(|s| {
            let name = s.args.first()?.text.clone();
            if !FAMILIES.contains(&name.as_str()) {
                self.err_at(s, format!("`family {name}`: a family is one of {}", FAMILIES.map(|f| format!("\"{f}\"")).join(", ")));
                return None;
            }
            Some((name, self.clause(s, "family")))
        })
    }

    pub(super) fn dated(&mut self, stmts: &[Stmt]) -> Option<(u16, Clause)> {
        stmts.iter().find(|s| s.key == "dated").and_then(|s| {
            let word = &s.args.first()?.text;
            match word.parse::<u16>() {
                Ok(year) if (1400..=2100).contains(&year) => Some((year, self.clause(s, "dated"))),
                _ => {
                    self.err_at(s, format!("`dated {word}`: the year the source dates the rules from is written out, e.g. `dated 1637`"));
                    None
                }
            }
        })
    }

    /// The pots: `pot NAME "label"`, each name once.
    pub(super) fn pots(&mut self, stmts: &[Stmt]) -> Vec<PotDef> {
        let mut out: Vec<PotDef> = vec![];
        for s in stmts.iter().filter(|s| s.key == "pot") {
            let Some(name) = s.args.first().filter(|w| !w.quoted) else {
                self.err_at(s, "a pot is written `pot NAME \"label\"`");
                continue;
            };
            if !name.text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || !name.text.starts_with(|c: char| c.is_ascii_alphabetic()) {
                self.err(&s.file, name.pos, format!("a pot's name is a word of letters, digits and `_` (it is read as `pot.NAME`), not `{}`", name.text));
                continue;
            }
            if out.iter().any(|p| *p.name == *name.text) {
                self.err(&s.file, name.pos, format!("pot `{}` is declared twice", name.text));
                continue;
            }
            let label = s.args.get(1).map(|w| w.text.clone()).unwrap_or_else(|| format!("the {} pot", name.text));
            self.pot_names.push(name.text.clone());
            out.push(PotDef { name: name.text.as_str().into(), label: label.into(), clause: self.clause(s, format!("pot.{}", name.text)) });
        }
        out
    }

    /// A payment's side written `pot.NAME`: `Some(Some(pot))`; `Some(None)` for a word that is not a
    /// pot's; `None` (reported) for an unknown pot.
    pub(super) fn pot_word(&mut self, file: &Arc<str>, w: &Word) -> Option<Option<usize>> {
        let Some(name) = w.text.strip_prefix("pot.") else { return Some(None) };
        match self.pot_names.iter().position(|p| p == name) {
            Some(i) => Some(Some(i)),
            None => {
                self.err(file, w.pos, self.unknown_pot(name));
                None
            }
        }
    }

    pub(super) fn unknown_pot(&self, name: &str) -> String {
        if self.pot_names.is_empty() {
            format!("unknown pot `{name}`: the ruleset has no pots; declare one with `pot {name} \"label\"`")
        } else {
            format!("unknown pot `{name}`; pots are: {}", self.pot_names.join(", "))
        }
    }

    /// Every citation, in blocks too, names a declared source.
    pub(super) fn check_citations(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            if let Some(c) = &s.cite {
                if !self.sources.iter().any(|x| x.id == c.source) {
                    let known: Vec<String> = self.sources.iter().map(|x| x.id.clone()).collect();
                    let f = s.file.clone();
                    self.err(&f, c.pos, format!("unknown source `{}` in citation; sources declared: {}", c.source, known.join(", ")));
                }
            }
            if let Some(b) = &s.block {
                self.check_citations(b);
            }
        }
    }

    pub(super) fn option(&mut self, s: &Stmt) {
        let name = s.args.first().map(|w| w.text.clone()).unwrap_or_default();
        let doc = s.args.get(1).map(|w| w.text.clone()).unwrap_or_default();
        let errors_before = self.errors.len();
        let choices: Vec<OptionValue> = match &s.value {
            Some(Ast { kind: AstKind::List(items), .. }) => items
                .iter()
                .filter_map(|i| match &i.kind {
                    AstKind::Str(t) => Some(OptionValue::Text(t.clone())),
                    AstKind::Num(q) => Some(OptionValue::from_q(*q)),
                    AstKind::Invalid(m) => {
                        self.err(&s.file, i.pos, m.clone());
                        None
                    }
                    _ => {
                        self.err(&s.file, i.pos, format!("option `{name}`: each choice is a string or a number written out (`\"yes\"`, `6`), not a formula"));
                        None
                    }
                })
                .collect(),
            _ => vec![],
        };
        if name.is_empty() || choices.len() < 2 {
            self.failed.insert(format!("option.{name}"));
            if self.errors.len() > errors_before {
                return;
            }
            self.err_at(s, "an option is written `option NAME \"what it decides\" = [default, other, ...]` with at least two choices");
            return;
        }
        if self.options.iter().any(|o| o.name == name) {
            self.err_at(s, format!("option `{name}` is defined twice"));
        }
        let clause = self.clause(s, format!("option.{name}"));
        self.options.push(OptionDef { name, default: choices[0].clone(), choices, doc, clause });
    }
}
