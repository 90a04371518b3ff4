//! Formulas: names resolved in their context (the contexts and the names each sees are in `names.rs`),
//! functions called, `let` with parameters, and the forms whose value follows the options
//! (`each_choice`).

use super::*;

/// The options `e` reads (`Expr::Opt`), added to `out`.
pub(super) fn options_in(e: &Expr, out: &mut BTreeSet<usize>) {
    let mut each = |xs: &[&Expr]| xs.iter().for_each(|x| options_in(x, out));
    match e {
        Expr::Opt(i) => {
            out.insert(*i);
        }
        Expr::Un(_, x) => each(&[x]),
        Expr::Bin(_, x, y) => each(&[x, y]),
        Expr::If(c, t, f) => each(&[c, t, f]),
        Expr::List(xs) | Expr::Call(_, xs) => each(&xs.iter().collect::<Vec<_>>()),
        Expr::Index(l, i) => each(&[l, i]),
        Expr::Comp { set, cond, body, .. } => each(&[Some(&**set), cond.as_deref(), body.as_deref()].into_iter().flatten().collect::<Vec<_>>()),
        // Leaves, named one by one as in `shift_vars`.
        Expr::Var(_) | Expr::Const(_) | Expr::Let(_) | Expr::Fact(_) | Expr::Attr(_) | Expr::Decl(_) => {}
    }
}

/// `let NAME PARAM... = formula`: a formula with parameters, kept as written and compiled at each call.
#[derive(Clone)]
pub(super) struct Formula {
    pub(super) name: String,
    pub(super) params: Vec<String>,
    pub(super) body: Ast,
    pub(super) file: Arc<str>,
    pub(super) read: bool,
    /// Which parameters its body reads (at a call): one it never reads would drop its argument.
    pub(super) params_read: Vec<bool>,
}

/// `e`, compiled outside `by` comprehensions, moved inside them: its comprehension variables (by
/// depth) are `by` deeper. Variables bound inside `e` itself (below `cutoff`) stay as they are.
pub(super) fn shift_vars(e: &Expr, by: usize, cutoff: usize) -> Expr {
    let b = |x: &Expr, c: usize| Box::new(shift_vars(x, by, c));
    match e {
        Expr::Var(d) if *d >= cutoff => Expr::Var(d + by),
        Expr::Un(op, x) => Expr::Un(*op, b(x, cutoff)),
        Expr::Bin(op, x, y) => Expr::Bin(*op, b(x, cutoff), b(y, cutoff)),
        Expr::If(c, t, f) => Expr::If(b(c, cutoff), b(t, cutoff), b(f, cutoff)),
        Expr::List(xs) => Expr::List(xs.iter().map(|x| shift_vars(x, by, cutoff)).collect()),
        Expr::Index(l, i) => Expr::Index(b(l, cutoff), b(i, cutoff)),
        Expr::Call(f, xs) => Expr::Call(*f, xs.iter().map(|x| shift_vars(x, by, cutoff)).collect()),
        Expr::Comp { func, var, set, cond, body } => {
            Expr::Comp { func: *func, var: var.clone(), set: b(set, cutoff), cond: cond.as_ref().map(|c| b(c, cutoff + 1)), body: body.as_ref().map(|x| b(x, cutoff + 1)) }
        }
        // Leaves, named one by one: a new kind of expression holding others must say how it shifts.
        Expr::Var(_) | Expr::Const(_) | Expr::Opt(_) | Expr::Let(_) | Expr::Fact(_) | Expr::Attr(_) | Expr::Decl(_) => e.clone(),
    }
}

/// A constant that `e` may give and that is not cards: a constant, or a branch of an `if` that is
/// (what `gives-back LET` refuses); none where every branch is cards or a formula.
pub(super) fn not_cards(e: &Expr) -> Option<&Value> {
    match e {
        Expr::Const(Value::Cards(_)) => None,
        Expr::Const(v) => Some(v),
        Expr::If(_, t, f) => not_cards(t).or_else(|| not_cards(f)),
        _ => None,
    }
}

/// Folds sub-expressions that depend on nothing but constants, bottom up, so a formula evaluated for
/// every game does not rebuild its tables and card sets each time.
/// A constant part that cannot be evaluated (`[1, 2][5]`, `"a" + 1`) leaves its error in `failed`.
pub(super) fn fold(e: Expr, failed: &mut Option<String>) -> Expr {
    let mut b = |x: Box<Expr>| Box::new(fold(*x, failed));
    let e = match e {
        Expr::Un(op, x) => Expr::Un(op, b(x)),
        Expr::Bin(op, x, y) => {
            let x = b(x);
            Expr::Bin(op, x, b(y))
        }
        Expr::If(c, t, f) => {
            let c = b(c);
            let t = b(t);
            Expr::If(c, t, b(f))
        }
        Expr::List(xs) => Expr::List(xs.into_iter().map(|x| fold(x, failed)).collect()),
        Expr::Index(l, i) => {
            let l = b(l);
            Expr::Index(l, b(i))
        }
        Expr::Call(f, args) => Expr::Call(f, args.into_iter().map(|x| fold(x, failed)).collect()),
        Expr::Comp { func, var, set, cond, body } => {
            let set = b(set);
            let cond = cond.map(&mut b);
            Expr::Comp { func, var, set, cond, body: body.map(b) }
        }
        other => other,
    };
    if !matches!(e, Expr::Const(_)) && constant(&e) {
        match eval(&e, &NO_GAME) {
            Ok(v) => return Expr::Const(v),
            Err(m) => {
                failed.get_or_insert(m);
            }
        }
    }
    e
}

/// Whether a formula is the number 0 (or `no`, which counts as 0 in arithmetic), written out.
fn is_zero(e: &Expr) -> bool {
    matches!(e, Expr::Const(Value::Num(q)) if *q == Q::ZERO) || matches!(e, Expr::Const(Value::Bool(false)))
}

/// Nothing of a game at all: constant folding, and counters that follow no option.
pub(super) const NO_GAME: Chosen<'static> = Chosen(&[]);

/// The options of a game, and nothing else of it: a counter that follows options, tried with each
/// choice.
pub(super) struct Chosen<'a>(pub(super) &'a [Value]);

impl Env for Chosen<'_> {
    /// An option not given reads as false (`NO_GAME` evaluates only formulas that read no option).
    fn option(&self, i: usize) -> Value {
        self.0.get(i).cloned().unwrap_or(Value::Bool(false))
    }
    fn let_value(&self, _: usize) -> Result<Value, String> {
        Err(String::new())
    }
    fn fact(&self, _: Fact) -> Result<Value, String> {
        Err(String::new())
    }
    fn attr(&self, _: &str) -> Result<Value, String> {
        Err(String::new())
    }
    fn game_func(&self, _: Func, _: &[Value]) -> Result<Value, String> {
        Err(String::new())
    }
}

/// Whether an expression depends on nothing but constants (pure functions of constants included).
pub(super) fn constant(e: &Expr) -> bool {
    match e {
        Expr::Const(_) => true,
        Expr::Un(_, x) => constant(x),
        Expr::Bin(_, a, b) => constant(a) && constant(b),
        Expr::List(xs) => xs.iter().all(constant),
        Expr::Index(l, i) => constant(l) && constant(i),
        Expr::Call(f, args) => !GAME_FUNCS.contains(f) && args.iter().all(constant),
        _ => false,
    }
}

/// Whether a formula writes `name`: as a name (a `let`, `option.NAME`, `contract.ATTR`, a parameter)
/// or as a function it calls (a formula with parameters).
pub(super) fn mentions(a: &Ast, name: &str) -> bool {
    match &a.kind {
        AstKind::Name(n) => n == name,
        AstKind::Call(f, args) => f == name || args.iter().any(|x| mentions(x, name)),
        AstKind::List(args) => args.iter().any(|x| mentions(x, name)),
        AstKind::Comp { set, cond, body, .. } => mentions(set, name) || cond.as_deref().is_some_and(|c| mentions(c, name)) || body.as_deref().is_some_and(|b| mentions(b, name)),
        AstKind::Index(x, y) | AstKind::Binary(_, x, y) => mentions(x, name) || mentions(y, name),
        AstKind::Unary(_, x) => mentions(x, name),
        AstKind::If(x, y, z) => mentions(x, name) || mentions(y, name) || mentions(z, name),
        AstKind::Num(_) | AstKind::Str(_) | AstKind::Invalid(_) => false,
    }
}

/// Whether a formula names an option (`option.NAME`): a statement whose value is otherwise fixed when
/// the rules are compiled (`forbid`) then follows the options instead.
pub(super) fn reads_option(a: &Ast) -> bool {
    match &a.kind {
        AstKind::Name(n) => n.starts_with("option."),
        AstKind::Call(_, args) | AstKind::List(args) => args.iter().any(reads_option),
        AstKind::Comp { set, cond, body, .. } => reads_option(set) || cond.as_deref().is_some_and(reads_option) || body.as_deref().is_some_and(reads_option),
        AstKind::Index(a, b) | AstKind::Binary(_, a, b) => reads_option(a) || reads_option(b),
        AstKind::Unary(_, a) => reads_option(a),
        AstKind::If(a, b, c) => reads_option(a) || reads_option(b) || reads_option(c),
        AstKind::Num(_) | AstKind::Str(_) | AstKind::Invalid(_) => false,
    }
}

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

    /// Compiles a formula in a context, resolving every name; reports what it cannot resolve.
    pub(super) fn expr(&mut self, file: &Arc<str>, a: &Ast, ctx: Ctx) -> Option<Expr> {
        let e = self.expr_inner(file, a, ctx)?;
        let mut failed = None;
        let e = fold(e, &mut failed);
        match failed {
            // A part that depends on nothing but constants fails in every game: a ruleset bug.
            Some(m) => {
                self.err(file, a.pos, format!("this formula cannot be evaluated, whatever the game: {m}"));
                None
            }
            None => Some(e),
        }
    }

    /// A part of a formula compiled, and folded when it depends on nothing but constants: a part that
    /// fails whatever the game is reported where it is written (in a formula with parameters, in the
    /// formula's own text, not at the caller's).
    pub(super) fn expr_inner(&mut self, file: &Arc<str>, a: &Ast, ctx: Ctx) -> Option<Expr> {
        let e = self.expr_part(file, a, ctx)?;
        if matches!(e, Expr::Const(_)) || !constant(&e) {
            return Some(e);
        }
        match eval(&e, &NO_GAME) {
            Ok(v) => Some(Expr::Const(v)),
            Err(m) => {
                self.err(file, a.pos, format!("this formula cannot be evaluated, whatever the game: {m}"));
                // Inside a formula with parameters, a part that reads none of them fails at every
                // call alike: the callers have nothing to be told.
                if !self.expanding.is_empty() && !self.params.iter().any(|(p, _)| mentions(a, p)) {
                    self.call_independent += 1;
                }
                None
            }
        }
    }

    fn expr_part(&mut self, file: &Arc<str>, a: &Ast, ctx: Ctx) -> Option<Expr> {
        let err = |c: &mut Compiler, m: String| {
            c.err(file, a.pos, m);
            None
        };
        Some(match &a.kind {
            AstKind::Num(q) => Expr::Const(Value::Num(*q)),
            AstKind::Str(s) => Expr::Const(Value::Str(s.as_str().into())),
            AstKind::Name(n) => return self.name(file, a.pos, n, ctx),
            // Every part is compiled, so that every mistake is reported and every name counts as read.
            AstKind::List(xs) => Expr::List(xs.iter().map(|x| self.expr_inner(file, x, ctx)).collect::<Vec<_>>().into_iter().collect::<Option<_>>()?),
            AstKind::Index(l, i) => {
                let (l, i) = (self.expr_inner(file, l, ctx), self.expr_inner(file, i, ctx));
                Expr::Index(Box::new(l?), Box::new(i?))
            }
            AstKind::Unary(op, x) => Expr::Un(*op, Box::new(self.expr_inner(file, x, ctx)?)),
            AstKind::Binary(op, x, y_ast) => {
                let (x, y) = (self.expr_inner(file, x, ctx), self.expr_inner(file, y_ast, ctx));
                let y = y?;
                // A divisor that is 0 whatever the game fails every game that reaches it.
                if *op == BinOp::Div && is_zero(&fold(y.clone(), &mut None)) {
                    self.err(file, y_ast.pos, "division by zero: this divisor is 0 whatever the game");
                    return None;
                }
                Expr::Bin(*op, Box::new(x?), Box::new(y))
            }
            AstKind::If(c, t, e) => {
                let (c, t, e) = (self.expr_inner(file, c, ctx), self.expr_inner(file, t, ctx), self.expr_inner(file, e, ctx));
                Expr::If(Box::new(c?), Box::new(t?), Box::new(e?))
            }
            AstKind::Comp { func, var, set, cond, body } => {
                let f = match func.as_str() {
                    "count" => CompFunc::Count,
                    "sum" => CompFunc::Sum,
                    "max" => CompFunc::Max,
                    "min" => CompFunc::Min,
                    "all" => CompFunc::All,
                    "any" => CompFunc::Any,
                    other => return err(self, format!("`{other}` cannot go through a set; use count, sum, max, min, all or any")),
                };
                let set = self.expr_inner(file, set, ctx);
                self.vars.push(var.clone());
                let cond = cond.as_ref().map(|c| self.expr_inner(file, c, ctx));
                let body = body.as_ref().map(|b| self.expr_inner(file, b, ctx));
                self.vars.pop();
                if matches!(f, CompFunc::Count | CompFunc::All | CompFunc::Any) && body.is_some() {
                    return err(self, format!("`{func}(x in set where condition)` takes a condition, not a value after `:`"));
                }
                if matches!(f, CompFunc::Sum | CompFunc::Max | CompFunc::Min) && body.is_none() {
                    return err(self, format!("`{func}(x in set : value)` needs the value after `:`"));
                }
                Expr::Comp {
                    func: f,
                    var: var.clone(),
                    set: Box::new(set?),
                    cond: match cond {
                        Some(c) => Some(Box::new(c?)),
                        None => None,
                    },
                    body: match body {
                        Some(b) => Some(Box::new(b?)),
                        None => None,
                    },
                }
            }
            AstKind::Call(name, args) => return self.call(file, a.pos, name, args, ctx),
            AstKind::Invalid(m) => return err(self, m.clone()),
        })
    }

    /// `let NAME PARAM... = formula`: kept as written, compiled at each call (`call_formula`).
    pub(super) fn formula(&mut self, s: &Stmt) {
        let name = s.args[0].text.clone();
        let params: Vec<String> = s.args[1..].iter().map(|w| w.text.clone()).collect();
        if self.classes.iter().any(|c| c.name == name) || Card::parse(&name).is_some() || FACTS.iter().any(|(f, _)| *f == name) || FUNCS.iter().any(|(f, ..)| *f == name) {
            self.err_at(s, format!("`{name}` is already the name of a card, class, function or a name the engine provides; give this formula another name"));
            return;
        }
        if self.formulas.iter().any(|f| f.name == name) {
            self.err_at(s, format!("`{name}` is already the name of another `let`; give this formula another name"));
            return;
        }
        for (i, w) in s.args[1..].iter().enumerate() {
            if w.quoted || params[..i].contains(&w.text) {
                self.err(&s.file, w.pos, format!("`let {name} PARAM... = formula`: `{}` is not a parameter name (each is a bare name, given once)", w.text));
                return;
            }
        }
        let Some(body) = s.value.clone() else { return };
        let params_read = vec![false; params.len()];
        self.formulas.push(Formula { name, params, body, file: s.file.clone(), read: false, params_read });
    }

    /// A call of `let NAME PARAM... = formula`: the formula compiled here, in the caller's context,
    /// its parameters standing for the arguments (each compiled in the caller's scope). Its own free
    /// names are resolved as at the top level: it does not see the caller's comprehension variables.
    pub(super) fn call_formula(&mut self, file: &Arc<str>, pos: Pos, i: usize, args: &[Ast], ctx: Ctx) -> Option<Expr> {
        let f = self.formulas[i].clone();
        self.formulas[i].read = true;
        if args.len() != f.params.len() {
            self.err(file, pos, format!("`{}` takes {} argument(s) ({}), not {}", f.name, f.params.len(), f.params.join(", "), args.len()));
            // Its body is not reached here: no second error for the parameters it did not read.
            self.formulas[i].params_read.fill(true);
            return None;
        }
        if self.expanding.contains(&f.name) {
            self.err(file, pos, format!("`{}` calls itself (through {}): a formula cannot", f.name, self.expanding.join(", ")));
            return None;
        }
        let compiled: Vec<Option<Expr>> = args.iter().map(|a| self.expr_inner(file, a, ctx)).collect();
        let Some(compiled) = compiled.into_iter().collect::<Option<Vec<Expr>>>() else {
            // An argument failed, and says why; the body is not reached.
            self.formulas[i].params_read.fill(true);
            return None;
        };
        let vars = std::mem::take(&mut self.vars);
        let params = std::mem::replace(&mut self.params, f.params.iter().cloned().zip(compiled).collect());
        self.expanding.push(f.name.clone());
        let (before, independent) = (self.errors.len(), self.call_independent);
        let body = self.expr_inner(&f.file, &f.body, ctx);
        self.expanding.pop();
        self.params = params;
        self.vars = vars;
        if body.is_none() {
            // Its body failed, and says why: no second error for the parameters it did not reach.
            self.formulas[i].params_read.fill(true);
        }
        if body.is_none() && self.errors.len() - before > self.call_independent - independent {
            // The error is in the formula's own text and comes of this call (its context, its
            // arguments): say where it was called, in what context.
            self.err(file, pos, format!("`{}` cannot be worked out where it is called here, {}: see the error in its formula", f.name, ctx_words(ctx)));
        }
        body
    }

    pub(super) fn call(&mut self, file: &Arc<str>, pos: Pos, name: &str, args: &[Ast], ctx: Ctx) -> Option<Expr> {
        if let Some(i) = self.formulas.iter().position(|f| f.name == name) {
            return self.call_formula(file, pos, i, args, ctx);
        }
        // Card-set builders are resolved here, at compile time.
        match name {
            "rank" | "suit" => {
                let mut set = CardSet::EMPTY;
                for a in args {
                    let code = match &a.kind {
                        AstKind::Name(n) => n.clone(),
                        AstKind::Num(q) => q.to_string(),
                        _ => String::new(),
                    };
                    if name == "rank" {
                        match RANK_CODES.iter().position(|r| *r == code) {
                            Some(r) => (0..4).filter(|s| Some(*s) != self.trump_suit).for_each(|s| set.insert(Card::suited(s, r as u8 + 1))),
                            None => self.err(file, a.pos, format!("`{code}` is not a rank; ranks are K Q C J 10 .. 1")),
                        }
                    } else {
                        match SUITS.iter().position(|s| s.to_string() == code) {
                            Some(s) => set = set.or(CardSet::of_lane(s as u8)),
                            None => self.err(file, a.pos, format!("`{code}` is not a suit; suits are S H D C")),
                        }
                    }
                }
                return Some(Expr::Const(Value::Cards(set)));
            }
            "both" => {
                let parts: Vec<Expr> = args.iter().map(|a| self.expr(file, a, Ctx::Class)).collect::<Option<_>>()?;
                let mut set = CardSet::full();
                for p in parts {
                    match p {
                        Expr::Const(Value::Cards(c)) => set = set.and(c),
                        _ => {
                            self.err(file, pos, "`both(a, b)` takes sets of cards");
                            return None;
                        }
                    }
                }
                return Some(Expr::Const(Value::Cards(set)));
            }
            _ => {}
        }
        let Some(&(_, f, lo, hi)) = FUNCS.iter().find(|(n, ..)| *n == name) else {
            let known: Vec<&str> = FUNCS.iter().map(|(n, ..)| *n).collect();
            self.err(file, pos, format!("unknown function `{name}`; functions are {}, rank, suit, both", known.join(", ")));
            return None;
        };
        if args.len() < lo || args.len() > hi {
            let want = if lo == hi { lo.to_string() } else { format!("{lo} to {hi}") };
            self.err(file, pos, format!("`{name}` takes {want} argument(s), not {}", args.len()));
            return None;
        }
        if GAME_FUNCS.contains(&f) && matches!(ctx, Ctx::Class | Ctx::Setup | Ctx::AfterAuction) {
            self.err(file, pos, format!("`{name}` looks at the game being played, which is not known here"));
            return None;
        }
        if f == Func::Standing {
            self.reads_standing = true;
        }
        let mut out = vec![];
        if f == Func::BidBefore {
            // The auction so far: in a contract's `by`, the bids before the one judged; in the play
            // and the score, the whole auction.
            let contracts = self.contract_names.clone();
            if contracts.is_empty() {
                self.err(file, pos, "`bid_before` reads the auction, and this ruleset has no `bidding`");
                return None;
            }
            return self.player_and_contract(file, args, ctx, f, "bid_before", "tapp", &contracts);
        }
        if f == Func::PassedOver {
            let contracts = self.contract_names.clone();
            if contracts.is_empty() {
                self.err(file, pos, "`passed_over` reads the auction, and this ruleset has no `bidding`");
                return None;
            }
            return self.player_and_contract(file, args, ctx, f, "passed_over", "dreier", &contracts);
        }
        for (i, a) in args.iter().enumerate() {
            // Declarations are named by their id in declared/showed/announced/declarer.
            if matches!(f, Func::Declared | Func::Showed | Func::Announced | Func::Declarer) && i == 0 {
                let AstKind::Name(n) = &a.kind else {
                    self.err(file, a.pos, format!("`{name}` takes the name of a declaration"));
                    return None;
                };
                match self.decl_names.iter().position(|d| d == n) {
                    Some(d) => out.push(Some(Expr::Decl(d))),
                    None => {
                        self.err(file, a.pos, format!("unknown declaration `{n}`; declarations are: {}", self.decl_names.join(", ")));
                        return None;
                    }
                }
                continue;
            }
            out.push(self.expr_inner(file, a, ctx));
        }
        let out: Vec<Expr> = out.into_iter().collect::<Option<_>>()?;
        if matches!(f, Func::Run | Func::Runs | Func::InRuns) {
            self.check_run_args(file, f, name, args, &out)?;
        }
        Some(Expr::Call(f, out))
    }

    /// `bid_before(player, CONTRACT)`, `passed_over(player, CONTRACT)`: a player, and a contract of
    /// `contracts` named bare, or as a string when it has a `-` (read as a minus otherwise), compiled
    /// to its index.
    #[allow(clippy::too_many_arguments)]
    fn player_and_contract(&mut self, file: &Arc<str>, args: &[Ast], ctx: Ctx, f: Func, name: &str, example: &str, contracts: &[String]) -> Option<Expr> {
        let p = self.expr_inner(file, &args[0], ctx);
        let (AstKind::Name(n) | AstKind::Str(n)) = &args[1].kind else {
            self.err(
                file,
                args[1].pos,
                format!("`{name}` takes a player and the name of a contract: `{name}(player, {example})`, or `{name}(player, \"garde-contre\")` for a name with `-`"),
            );
            return None;
        };
        let Some(c) = contracts.iter().position(|k| k == n) else {
            self.err(file, args[1].pos, format!("unknown contract `{n}` in `{name}`; the contracts are {}", contracts.join(", ")));
            return None;
        };
        Some(Expr::Call(f, vec![p?, Expr::Const(Value::Num(Q::int(c as i64)))]))
    }

    /// The arguments of a combination (`run`, `runs`, `in_runs`) that are written out: the order is a
    /// list of sets of cards, the wild cards a set of cards, the shortest run a whole number from 1.
    /// What only the game knows (a `let`, an option) is checked when the formula is evaluated.
    pub(super) fn check_run_args(&mut self, file: &Arc<str>, f: Func, name: &str, args: &[Ast], out: &[Expr]) -> Option<()> {
        let mut ok = true;
        // The steps written out: a list of formulas, or, all of them constants, a list folded whole.
        let steps: Vec<Option<&Value>> = match &out[1] {
            Expr::List(steps) => steps.iter().map(|x| if let Expr::Const(v) = x { Some(v) } else { None }).collect(),
            Expr::Const(Value::List(steps)) => steps.iter().map(Some).collect(),
            _ => vec![],
        };
        let written: &[Ast] = match &args[1].kind {
            AstKind::List(xs) => xs.as_slice(),
            _ => &[],
        };
        for (step, a) in steps.iter().zip(written) {
            if let Some(v) = step.filter(|v| !matches!(v, Value::Cards(_))) {
                self.err(file, a.pos, format!("each step of the order of `{name}` is a set of cards (a card, a class, `T4 + T3`), not {}", v.type_name()));
                ok = false;
            }
        }
        match &out[1] {
            Expr::Const(v) if !matches!(v, Value::Cards(_) | Value::List(_)) => {
                self.err(file, args[1].pos, format!("the order of `{name}` is a list of sets of cards, highest first (`[T21, T20, T19]`), not {}", v.type_name()));
                ok = false;
            }
            _ => {}
        }
        // What a written-out argument is when it is not a set of cards.
        let not_cards = |e: &Expr| match e {
            Expr::Const(Value::Cards(_)) => None,
            Expr::Const(v) => Some(v.type_name()),
            Expr::List(_) => Some("a list"),
            _ => None,
        };
        if let (Func::Run, Some(kind)) = (f, out.get(2).and_then(not_cards)) {
            self.err(file, args[2].pos, format!("the wild cards of `run` are a set of cards (`EX + T1`), not {kind}"));
            ok = false;
        }
        if let Some(kind) = out.get(3).and_then(not_cards) {
            self.err(file, args[3].pos, format!("the steps `run` may pass over are a set of cards (`T20 + T19`), not {kind}"));
            ok = false;
        }
        match (name, out.get(2)) {
            ("runs" | "in_runs", Some(Expr::Const(v))) if !matches!(v, Value::Num(q) if q.is_integer() && *q >= Q::ONE) => {
                self.err(
                    file,
                    args[2].pos,
                    format!(
                        "the shortest run `{name}` counts is a whole number from 1 (`3` for runs of three or more), not {}",
                        match v {
                            Value::Num(q) => q.to_string(),
                            other => other.type_name().to_string(),
                        }
                    ),
                );
                ok = false;
            }
            _ => {}
        }
        ok.then_some(())
    }

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
