//! The functions a formula calls: the engine's functions checked and compiled (`call`), with the
//! arguments some of them take written out (a contract, a combination's order).

use super::*;

impl Compiler {
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
}
