//! Formulas: a formula compiled in its context (`expr`), and `let` with parameters, compiled at each
//! call. The names a formula may use are resolved in `resolve.rs` (the contexts and the names each
//! sees are in `names.rs`), its functions in `functions.rs`, a statement's value in `value.rs`;
//! `fold.rs` folds what depends on nothing of a game, `reads.rs` says what a formula reads.

use super::*;

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

/// Whether a formula is the number 0 (or `no`, which counts as 0 in arithmetic), written out.
fn is_zero(e: &Expr) -> bool {
    matches!(e, Expr::Const(Value::Num(q)) if *q == Q::ZERO) || matches!(e, Expr::Const(Value::Bool(false)))
}

impl Compiler {
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
}
