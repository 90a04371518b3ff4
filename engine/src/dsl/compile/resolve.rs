//! A name in a formula resolved in its context (`name`): a comprehension variable, a parameter, a
//! card, a class of cards, a pot, an option, a contract's attribute, a `let`, a fact of the game.

use super::*;

impl Compiler {
    pub(super) fn name(&mut self, file: &Arc<str>, pos: Pos, n: &str, ctx: Ctx) -> Option<Expr> {
        if let Some(d) = self.vars.iter().rev().position(|v| v == n) {
            return Some(Expr::Var(d));
        }
        // A parameter of the formula being called: the argument, moved under the formula's own
        // comprehensions (compiled with the caller's variables, which the formula does not see).
        if let Some(k) = self.params.iter().position(|(p, _)| p == n) {
            if let Some(f) = self.expanding.last().and_then(|name| self.formulas.iter_mut().find(|f| f.name == *name)) {
                f.params_read[k] = true;
            }
            return Some(shift_vars(&self.params[k].1, self.vars.len(), 0));
        }
        if let Some((_, c)) = self.pack_aliases.iter().find(|(a, _)| a.eq_ignore_ascii_case(n)) {
            return Some(Expr::Const(Value::Cards(CardSet::single(*c))));
        }
        if let Some(c) = Card::parse(n).filter(|_| n.chars().any(|c| c.is_ascii_digit()) || n.eq_ignore_ascii_case("EX") || n.len() == 2) {
            if !self.in_pack(file, pos, n, c) {
                return None;
            }
            return Some(Expr::Const(Value::Cards(CardSet::single(c))));
        }
        match n {
            "trumps" => return Some(Expr::Const(Value::Cards(self.pack_trumps.unwrap_or(CardSet((1u128 << 21) - 1))))),
            "none" => return Some(Expr::Const(Value::Cards(CardSet::EMPTY))),
            "true" | "yes" => return Some(Expr::Const(Value::Bool(true))),
            "false" | "no" => return Some(Expr::Const(Value::Bool(false))),
            _ => {}
        }
        if let Some(c) = self.classes.iter().find(|c| c.name == n) {
            return Some(Expr::Const(Value::Cards(c.cards)));
        }
        if self.failed.contains(n) {
            // Its own definition failed, and that error says why: no cascade of errors downstream.
            return None;
        }
        if ctx == Ctx::Class && n.starts_with("option.") {
            // Read, though wrongly: one error, not a second saying nothing reads it.
            if let Some(i) = self.options.iter().position(|o| n.strip_prefix("option.") == Some(o.name.as_str())) {
                self.opts_read.insert(i);
            }
            self.err(
                file,
                pos,
                format!(
                    "a card class is fixed when the rules are compiled, so it cannot depend on `{n}`; \
                     write the classes for each choice and choose between them where the class is used (`if {n} == ... then ... else ...`)"
                ),
            );
            return None;
        }
        if ctx == Ctx::Class && (self.lets.iter().any(|l| l == n) || FACTS.iter().any(|(f, _)| *f == n)) {
            self.err(file, pos, format!("a card class is fixed when the rules are compiled, so it can only use cards and other classes, not `{n}`"));
            return None;
        }
        if ctx == Ctx::Class {
            self.err(file, pos, format!("unknown card class `{n}`; classes defined so far: {}", self.classes.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")));
            return None;
        }
        // `pot.NAME`: what the pot holds at this point of the deal's payments; `pot.NAME.carried`: what
        // it held at the start of the deal (the record's `pots`).
        if let Some(rest) = n.strip_prefix("pot.") {
            let (name, f) = match rest.strip_suffix(".carried") {
                Some(name) => (name, Func::Carried),
                None => (rest, Func::Pot),
            };
            let Some(i) = self.pot_names.iter().position(|p| p == name) else {
                let m = self.unknown_pot(name);
                self.err(file, pos, m);
                return None;
            };
            if !matches!(ctx, Ctx::Trigger | Ctx::Score | Ctx::Pay | Ctx::PerPlayer) {
                self.err(file, pos, format!("`{n}` is not known {}: a pot is read by payments (the score's, and those made during play)", ctx_words(ctx)));
                return None;
            }
            return Some(Expr::Call(f, vec![Expr::Const(Value::Num(Q::int(i as i64)))]));
        }
        if let Some(opt) = n.strip_prefix("option.") {
            return match self.options.iter().position(|o| o.name == opt) {
                Some(i) => {
                    self.opts_read.insert(i);
                    Some(Expr::Opt(i))
                }
                None => {
                    self.err(file, pos, format!("unknown option `{opt}`; options: {}", self.options.iter().map(|o| o.name.as_str()).collect::<Vec<_>>().join(", ")));
                    None
                }
            };
        }
        if let Some(attr) = n.strip_prefix("contract.") {
            if !matches!(ctx, Ctx::Score | Ctx::Pay | Ctx::PerPlayer | Ctx::Lead | Ctx::Discard | Ctx::AfterAuction | Ctx::Allowed | Ctx::DeclarationPay | Ctx::Turn | Ctx::Packet)
            {
                self.err(
                    file,
                    pos,
                    format!(
                        "`{n}` is not known {}: the contract is known once the auction is won, so it can be read by the discard (its sizes, \
                         `require`, `penalty`), `callable-levels`, `must ... = condition`, the fool's settings, the play's `lead`, a declaration's `allowed` and `pay`, the condition of `must lead|play` and `keep`, and the score",
                        ctx_words(ctx)
                    ),
                );
                return None;
            }
            if matches!(ctx, Ctx::AfterAuction | Ctx::Packet) {
                self.reads_contract = true;
            }
            // The contract's own name, unless a contract has an attribute of that name.
            if attr == "name" && !self.contract_attrs.is_empty() && !self.contract_attrs.contains(attr) {
                return Some(Expr::Attr(attr.into()));
            }
            if !self.contract_attrs.contains(attr) {
                self.err(file, pos, format!("no contract has an attribute `{attr}`; attributes: {}", self.contract_attrs.iter().cloned().collect::<Vec<_>>().join(", ")));
                return None;
            }
            self.attrs_read.insert(attr.to_string());
            return Some(Expr::Attr(attr.into()));
        }
        if let Some(i) = self.lets.iter().position(|l| l == n) {
            self.lets_read.insert(i);
            return Some(Expr::Let(i));
        }
        if matches!(ctx, Ctx::Score | Ctx::Pay | Ctx::PerPlayer) {
            if let Some(i) = self.score_lets.iter().position(|l| l == n) {
                if self.score_lets_per_player[i] {
                    if ctx == Ctx::PerPlayer || self.in_score_let {
                        self.score_let_reads_player = true;
                    } else {
                        self.err(
                            file,
                            pos,
                            format!("`{n}` reads `player`, so it has a value for each player and none {}: read it in `standing`, `winner` or another score `let`", ctx_words(ctx)),
                        );
                        return None;
                    }
                }
                return Some(Expr::Let(self.lets.len() + i));
            }
        }
        if let Some((_, f)) = FACTS.iter().find(|(name, _)| *name == n) {
            if *f == Fact::Player && ctx == Ctx::Score && self.in_score_let {
                // A score `let` that reads `player` is worked out for each player where it is read.
                self.score_let_reads_player = true;
                return Some(Expr::Fact(*f));
            }
            if fact_allowed(*f, ctx) {
                return Some(Expr::Fact(*f));
            }
            self.err(file, pos, format!("`{n}` is not known {}", ctx_words(ctx)));
            return None;
        }
        self.err(file, pos, format!("`{n}` is not defined: not a card, class, option, `let`, or a name known {}", ctx_words(ctx)));
        None
    }
}
