//! What the compiler checks once every section is compiled: sections that need one another, and
//! nothing written that no rule reads (an option, a formula, a parameter, a constant, a contract's
//! attribute), which would change nothing.

use super::*;

impl Compiler {
    /// A statement of one section that needs another one the file does not have.
    pub(super) fn sections_agree(&mut self, stmts: &[Stmt], has_match: bool, pots: &[PotDef]) {
        // A declaration that ends the match needs a match to end.
        if !has_match {
            for s in stmts.iter().filter(|s| s.key == "declaration") {
                if let Some(st) = s.block.iter().flatten().find(|st| st.key == "ends-match") {
                    self.err_at(st, "`ends-match` ends the match, but the ruleset has no `match { ... }`: say how a match ends (`deals`, `target`) first");
                }
            }
        }
        // A declaration made before the talon is taken needs a talon taken in packets; one that reads
        // the called card in its `allowed` needs a call.
        let has = |key: &str| stmts.iter().any(|s| s.key == key);
        for s in stmts.iter().filter(|s| s.key == "declaration") {
            for st in s.block.iter().flatten() {
                if !has("talon") && st.key == "when" && st.args.first().is_some_and(|w| w.text == "before-take") {
                    self.err_at(st, "`when before-take` is made before the taker takes his packet of the talon, but the ruleset has no `talon { ... }`: no packet is ever taken");
                }
                if !has("call") && st.key == "allowed" && st.value.as_ref().is_some_and(|v| reads::mentions(v, "called")) {
                    self.err_at(st, "this `allowed` reads `called`, but the ruleset has no `call { ... }`: no card is ever called");
                }
            }
        }
        // Cards laid away can only be shown where someone lays cards away.
        if !stmts.iter().any(|s| s.key == "discard") {
            for s in stmts.iter().filter(|s| s.key == "declaration") {
                if let Some(st) = s.block.iter().flatten().find(|st| st.key == "from" && st.args.first().is_some_and(|w| w.text == "hand-and-discard")) {
                    self.err_at(st, "`from hand-and-discard` shows cards the declarer laid away, but the ruleset has no `discard { ... }`: nobody lays cards away");
                }
            }
        }
        // A pot that no payment goes into only ever holds what records say it carries.
        for (i, p) in pots.iter().enumerate() {
            if !self.pots_paid_in.contains(&i) {
                if let Some(st) = stmts.iter().find(|s| s.key == "pot" && s.args.first().is_some_and(|w| *w.text == *p.name)) {
                    self.err_at(
                        st,
                        format!(
                            "nothing is paid into pot `{}`; a pot is paid into by `pay PAYERS to pot.{} = amount` or `on play CLASS \"label\" to pot.{} = marques`",
                            p.name, p.name, p.name
                        ),
                    );
                }
            }
        }
    }

    /// The ruleset's own options, formulas, parameters, constants and contracts' attributes that no
    /// formula reads.
    pub(super) fn nothing_unread(&mut self, file: &str, stmts: &[Stmt], constants: &[Let]) {
        // An option or a constant that no formula reads changes nothing. Only the ruleset's own are
        // reported: a parent's may be read by the parent's rules that a child removed.
        // A name that a formula writes but that was never compiled as read is not unread: the
        // formula that writes it failed (its error said why), or is a formula with parameters that
        // nothing calls (reported itself).
        let uncalled: Vec<Ast> = self.formulas.iter().filter(|f| !f.read).map(|f| f.body.clone()).collect();
        let failed_before = !self.errors.is_empty();
        let written = |name: &str, definition: &Stmt| written_elsewhere(stmts, name, definition) && (failed_before || uncalled.iter().any(|b| reads::mentions(b, name)));
        for (i, o) in self.options.clone().iter().enumerate() {
            if !self.opts_read.contains(&i) {
                if let Some(st) = stmts
                    .iter()
                    .find(|s| s.key == "option" && *s.file == *file && s.args.first().is_some_and(|w| w.text == o.name))
                    .filter(|st| !written(&format!("option.{}", o.name), st))
                {
                    self.err_at(
                        st,
                        format!(
                            "no formula reads `option.{}`, so choosing it would change nothing; use it in a rule, or remove it (`without option {}` in a child)",
                            o.name, o.name
                        ),
                    );
                }
            }
        }
        for f in self.formulas.clone().iter().filter(|f| !f.read && *f.file == *file) {
            if let Some(st) = stmts.iter().find(|s| s.key == "let" && *s.file == *file && s.args.first().is_some_and(|w| *w.text == f.name)).filter(|st| !written(&f.name, st)) {
                self.err_at(st, format!("no formula calls `{}`, so it would change nothing; call it (`{}(...)`) in a rule, or remove it", f.name, f.name));
            }
        }
        // A parameter its formula never reads: the argument given for it would be ignored.
        for f in self.formulas.clone().iter().filter(|f| f.read && *f.file == *file) {
            let Some(st) = stmts.iter().find(|s| s.key == "let" && *s.file == *file && s.args.first().is_some_and(|w| *w.text == f.name)) else { continue };
            for (k, w) in st.args[1..].iter().enumerate() {
                if !f.params_read.get(k).copied().unwrap_or(true) {
                    self.err(
                        &st.file,
                        w.pos,
                        format!(
                            "`{}` is a parameter of `{}` that its formula never reads, so the argument given for it would change nothing; use it in the formula, or remove it",
                            w.text, f.name
                        ),
                    );
                }
            }
        }
        for (i, l) in constants.iter().enumerate() {
            if !self.lets_read.contains(&i) {
                if let Some(st) = stmts.iter().find(|s| s.key == "let" && *s.file == *file && s.args.first().is_some_and(|w| *w.text == *l.name)).filter(|st| !written(&l.name, st))
                {
                    self.err_at(st, format!("no formula reads `{}`, so it would change nothing; use it in a rule, or remove it (`without let {}` in a child)", l.name, l.name));
                }
            }
        }
        // A contract's attribute takes effect through the formulas that read it; one that none reads
        // (a misspelt `multipler`) would change nothing.
        for b in stmts.iter().filter(|s| s.key == "bidding") {
            for a in b.block.iter().flatten().filter(|c| c.key == "contract").flat_map(|c| c.block.iter().flatten()) {
                if !["dog", "by", "settle", "require"].contains(&a.key.as_str()) && !self.attrs_read.contains(&a.key) && !written(&format!("contract.{}", a.key), a) {
                    let read: Vec<&str> = self.attrs_read.iter().map(|x| x.as_str()).collect();
                    self.err_at(
                        a,
                        format!(
                            "no formula reads this contract's `{}` (as `contract.{}`), so it would change nothing; attributes read: {}",
                            a.key,
                            a.key,
                            if read.is_empty() { "none".to_string() } else { read.join(", ") }
                        ),
                    );
                }
            }
        }
    }
}

/// Whether a formula of `stmts` (blocks included), other than `definition`'s own, writes `name`.
fn written_elsewhere(stmts: &[Stmt], name: &str, definition: &Stmt) -> bool {
    stmts.iter().any(|s| {
        !std::ptr::eq(s, definition) && (s.value.as_ref().is_some_and(|a| reads::mentions(a, name)) || s.block.as_ref().is_some_and(|b| written_elsewhere(b, name, definition)))
    })
}
