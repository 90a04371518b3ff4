//! A statement's value: its formula compiled with what the statement asks of it (a condition, one of
//! a few texts, a `let`), and the forms whose value follows the options, tried under every choice
//! of the options they read (`each_choice`).

use super::*;

impl Compiler {
    pub(super) fn value(&mut self, s: &Stmt, ctx: Ctx) -> Option<Expr> {
        match &s.value {
            Some(a) => self.expr(&s.file.clone(), a, ctx),
            None => {
                self.err_at(s, format!("`{}` needs a value: the statement ends with `= ...`", s.key));
                None
            }
        }
    }

    /// A statement's value that must be yes or no; a constant of another kind is refused here rather
    /// than when a game is set up.
    pub(super) fn condition(&mut self, s: &Stmt, ctx: Ctx) -> Option<Expr> {
        let e = self.value(s, ctx)?;
        if let Expr::Const(v) = &e {
            if !matches!(v, Value::Bool(_)) {
                self.err_at(s, format!("`{}` takes a condition, yes or no (`= option.NAME == \"yes\"`), not {}", s.key, v.type_name()));
                return None;
            }
        }
        Some(e)
    }

    /// A setting that must give one of `texts`: checked here when it is a text or an option (each of
    /// the option's choices), rather than when a game is set up (the stealing's `cutter`; the word
    /// settings the replay reads are resolved into typed choices instead, `word`).
    pub(super) fn setting_in(&mut self, s: &Stmt, texts: &[&str], ctx: Ctx) -> Option<Expr> {
        let e = self.value(s, ctx)?;
        let given: Vec<OptionValue> = match &e {
            Expr::Const(Value::Str(t)) => vec![OptionValue::Text(t.to_string())],
            Expr::Const(v) => vec![OptionValue::Text(format!("({})", v.type_name()))],
            Expr::Opt(i) => self.options[*i].choices.clone(),
            _ => vec![],
        };
        for g in given {
            if !g.as_str().is_some_and(|t| texts.contains(&t)) {
                let list: Vec<String> = texts.iter().map(|t| format!("\"{t}\"")).collect();
                self.err_at(s, format!("`{}` is one of {}, not {g}", s.key, list.join(", ")));
                return None;
            }
        }
        Some(e)
    }

    /// A statement's value with its clause, the rule named `block.key`.
    pub(super) fn stated(&mut self, st: &Stmt, ctx: Ctx, block: &str) -> Option<(Expr, Clause)> {
        let e = self.value(st, ctx)?;
        Some((e, self.clause(st, format!("{block}.{}", st.key))))
    }

    pub(super) fn let_stmt(&mut self, s: &Stmt, ctx: Ctx, what: &str) -> Option<Let> {
        let name = s.args.first().map(|w| w.text.clone());
        let expr = self.value(s, ctx);
        if let Some(n) = &name {
            let taken = if Card::parse(n).is_some() {
                Some("a card code")
            } else if self.classes.iter().any(|c| &c.name == n) {
                Some("a card class")
            } else if self.lets.contains(n) || self.score_lets.contains(n) {
                Some("another `let`")
            } else if FACTS.iter().any(|(f, _)| f == n) {
                Some("a name the engine provides")
            } else {
                None
            };
            if let Some(what) = taken {
                self.err_at(s, format!("`{n}` is already the name of {what}; give this value another name"));
            }
        }
        match (name, expr) {
            (Some(name), Some(expr)) => {
                let clause = self.clause(s, format!("{what}.{name}"));
                Some(Let { name: name.into(), expr, clause, per_player: false })
            }
            (None, _) => {
                self.err_at(s, format!("`{what}` needs a name: `{what} NAME = ...`"));
                None
            }
            (Some(name), None) => {
                self.failed.insert(name);
                None
            }
        }
    }

    /// A setting's formula (`Ctx::Setup`: options, constants, the table) compiled, with the options
    /// it reads, which also count as read by the file.
    pub(super) fn setting_and_options_read(&mut self, st: &Stmt) -> (Option<Expr>, Vec<usize>) {
        let before = std::mem::take(&mut self.opts_read);
        let e = self.value(st, Ctx::Setup);
        let read: Vec<usize> = std::mem::replace(&mut self.opts_read, before).into_iter().collect();
        self.opts_read.extend(read.iter().copied());
        (e, read)
    }

    /// Every choice of the options `read` (the others at their defaults), the defaults first (an
    /// option's default is its first choice), each with the words that name it ("option.x =
    /// \"y\""). Past 4096 choices together, `None`, and `what` (the form at `st` that follows the
    /// options) is refused: its choices cannot all be checked.
    pub(super) fn each_choice(&mut self, read: &[usize], st: &Stmt, what: &str) -> Option<Vec<(Vec<Value>, String)>> {
        let defaults: Vec<Value> = self.options.iter().map(|o| o.default.to_value().unwrap_or(Value::Bool(false))).collect();
        let choices: Vec<Vec<Value>> = read.iter().map(|&i| self.options[i].choices.iter().filter_map(OptionValue::to_value).collect()).collect();
        let combinations: usize = choices.iter().map(|c| c.len().max(1)).product();
        if combinations > 4096 {
            self.err_at(st, format!("{what} follows options with {combinations} choices together, more than the 4096 that can all be checked"));
            return None;
        }
        let mut out = Vec::with_capacity(combinations);
        for k in 0..combinations {
            let (mut options, mut rest, mut said) = (defaults.clone(), k, vec![]);
            for (j, &i) in read.iter().enumerate() {
                let n = choices[j].len().max(1);
                if let Some(v) = choices[j].get(rest % n) {
                    options[i] = v.clone();
                    said.push(format!("option.{} = {}", self.options[i].name, self.options[i].choices[rest % n]));
                }
                rest /= n;
            }
            out.push((options, said.join(", ")));
        }
        Some(out)
    }

    /// `form` (`compulsory = condition`, `in-turn from dealer = condition`): a condition that may read
    /// the options and nothing else of the game, tried under every choice of the options it reads,
    /// each giving true or false. `none` is said when it reads no option (write the plain form).
    pub(super) fn condition_of_options(&mut self, st: &Stmt, form: &str, none: &str) -> Option<Expr> {
        let (e, read) = self.setting_and_options_read(st);
        let Some(e) = e.filter(|_| !read.is_empty()) else {
            self.err_at(st, format!("`{form}` is for a rule that follows options, and this condition reads none: {none}"));
            return None;
        };
        let combinations = self.each_choice(&read, st, &format!("`{form}`"))?;
        for (options, with) in combinations {
            match eval(&e, &Chosen(&options)) {
                Ok(Value::Bool(_)) => {}
                Ok(other) => {
                    self.err_at(st, format!("with {with}: `{form}` must be true or false, not {}", other.type_name()));
                    return None;
                }
                Err(_) => {
                    self.err_at(st, format!("`{form}` may follow options, and nothing else of the game (players, hands, `let`s, the deal)"));
                    return None;
                }
            }
        }
        Some(e)
    }
}
