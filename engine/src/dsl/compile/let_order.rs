//! The order the `let`s are worked out in: each after the `let`s it reads, wherever they are written
//! (a parent's `let` may read one its child adds, a file may write its `let`s in the order that
//! reads best), and otherwise in the order written. `let`s that read one another in a circle are
//! refused, each named with the place it is written.

use super::*;

/// The `let`s of `names` (by index) that `a` reads: its names that no comprehension of it binds
/// (`bound`), and those of the formulas with parameters it calls, each looked into once (`calling`:
/// a formula that calls itself is refused where it is compiled).
fn lets_read(a: &Ast, names: &[&str], formulas: &[Formula], bound: &mut Vec<String>, calling: &mut Vec<usize>, out: &mut BTreeSet<usize>) {
    let mut each = |xs: &[&Ast], bound: &mut Vec<String>| xs.iter().for_each(|x| lets_read(x, names, formulas, bound, calling, out));
    match &a.kind {
        AstKind::Name(n) => {
            if !bound.contains(n) {
                if let Some(i) = names.iter().position(|m| m == n) {
                    out.insert(i);
                }
            }
        }
        AstKind::Call(f, args) => {
            each(&args.iter().collect::<Vec<_>>(), bound);
            if let Some(k) = formulas.iter().position(|x| x.name == *f).filter(|k| !calling.contains(k)) {
                // Its body sees its parameters, not the caller's comprehension variables.
                calling.push(k);
                let mut params = formulas[k].params.clone();
                lets_read(&formulas[k].body, names, formulas, &mut params, calling, out);
                calling.pop();
            }
        }
        AstKind::Comp { var, set, cond, body, .. } => {
            each(&[set], bound);
            bound.push(var.clone());
            each(&[cond.as_deref(), body.as_deref()].into_iter().flatten().collect::<Vec<_>>(), bound);
            bound.pop();
        }
        AstKind::List(xs) => each(&xs.iter().collect::<Vec<_>>(), bound),
        AstKind::Index(x, y) | AstKind::Binary(_, x, y) => each(&[x, y], bound),
        AstKind::Unary(_, x) => each(&[x], bound),
        AstKind::If(x, y, z) => each(&[x, y, z], bound),
        AstKind::Num(_) | AstKind::Str(_) | AstKind::Invalid(_) => {}
    }
}

/// Depth first from `i`: the `let`s it reads before it (`order`), and each circle met, as the `let`s
/// on it in the order they read one another (`circles`).
fn visit(i: usize, reads: &[Vec<usize>], state: &mut [u8], path: &mut Vec<usize>, order: &mut Vec<usize>, circles: &mut Vec<Vec<usize>>) {
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    state[i] = ON_PATH;
    path.push(i);
    for &j in &reads[i] {
        match state[j] {
            ON_PATH => {
                let at = path.iter().position(|&k| k == j).unwrap_or(0);
                circles.push(path[at..].to_vec());
            }
            DONE => {}
            _ => visit(j, reads, state, path, order, circles),
        }
    }
    path.pop();
    state[i] = DONE;
    order.push(i);
}

impl Compiler {
    /// The `let NAME = formula`s of one level (the top level's, or a score's) in the order they are
    /// compiled, and so evaluated: each after the `let`s of `lets` it reads, the others in the order
    /// written (so a file whose `let`s read only those above them keeps its order). A circle of
    /// `let`s reading one another is refused where its first `let` is written (first in the order
    /// after `extends` merged the files), naming each with its place; its `let`s are left out, as
    /// failed, so what reads them is not a second error.
    pub(super) fn let_order<'s>(&mut self, lets: &[&'s Stmt]) -> Vec<&'s Stmt> {
        let names: Vec<&str> = lets.iter().map(|s| s.args.first().map_or("", |w| w.text.as_str())).collect();
        let reads: Vec<Vec<usize>> = lets
            .iter()
            .map(|s| {
                let mut out = BTreeSet::new();
                if let Some(v) = &s.value {
                    lets_read(v, &names, &self.formulas, &mut vec![], &mut vec![], &mut out);
                }
                out.into_iter().collect()
            })
            .collect();
        let (mut state, mut path, mut order, mut circles) = (vec![0u8; lets.len()], vec![], vec![], vec![]);
        for i in 0..lets.len() {
            if state[i] == 0 {
                visit(i, &reads, &mut state, &mut path, &mut order, &mut circles);
            }
        }
        let mut left_out = BTreeSet::new();
        for mut circle in circles {
            // Told from its first `let` (in the merged order), each reading the next.
            let first = circle.iter().enumerate().min_by_key(|(_, &i)| i).map_or(0, |(k, _)| k);
            circle.rotate_left(first);
            let at = |i: usize| format!("`{}` ({}:{})", names[i], lets[i].file, lets[i].pos.line);
            let message = match circle[..] {
                [i] => format!("{} reads itself, so it cannot be worked out: a `let` is worked out from the values it reads", at(i)),
                _ => {
                    let rest: Vec<String> = circle[1..].iter().map(|&i| at(i)).collect();
                    format!(
                        "these `let`s read one another in a circle, so none of them can be worked out: {} reads {}, which reads `{}`",
                        at(circle[0]),
                        rest.join(", which reads "),
                        names[circle[0]]
                    )
                }
            };
            self.err_at(lets[circle[0]], message);
            left_out.extend(circle);
        }
        for &i in &left_out {
            self.failed.insert(names[i].to_string());
        }
        order.into_iter().filter(|i| !left_out.contains(i)).map(|i| lets[i]).collect()
    }
}
