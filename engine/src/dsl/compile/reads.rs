//! What a formula reads or may give, looked at whole: the options it reads, the names it writes, a
//! constant that is not cards.

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
