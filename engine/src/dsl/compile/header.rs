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
        for s in stmts.iter().filter(|s| s.key == "let" && s.args.len() <= 1) {
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
}
