//! The settings that are one of a few words, resolved here into typed choices (`ir::Choice`): a word
//! the setting does not know, in a constant, in an option's choices or in a branch of `if`, is
//! refused at the line that writes it, with the words allowed.

use super::*;

impl Compiler {
    /// A word setting: its value compiled in `ctx`, then resolved (`word_of`).
    pub(super) fn word<T: Words>(&mut self, st: &Stmt, ctx: Ctx) -> Option<Choice<T>> {
        let e = self.value(st, ctx)?;
        self.word_of(st, &e)
    }

    /// A compiled formula resolved into a word setting: a word, an option whose every choice is one,
    /// or `if ... then ... else ...` between such; anything else is refused.
    pub(super) fn word_of<T: Words>(&mut self, st: &Stmt, e: &Expr) -> Option<Choice<T>> {
        match self.resolve_word::<T>(&st.key, e) {
            Ok(w) => Some(w),
            Err(m) => {
                self.err_at(st, m);
                None
            }
        }
    }

    fn resolve_word<T: Words>(&self, key: &str, e: &Expr) -> Result<Choice<T>, String> {
        match e {
            Expr::Const(Value::Str(t)) => T::parse(t).map(Choice::Is).ok_or_else(|| T::refusal(key, t)),
            Expr::Const(v) => Err(T::refusal(key, &format!("({})", v.type_name()))),
            Expr::Opt(i) => {
                let o = &self.options[*i];
                let mut table = vec![];
                for c in &o.choices {
                    let word = c.as_str().and_then(T::parse);
                    match (word, c.to_value()) {
                        (Some(w), Some(v)) => table.push((v, w)),
                        _ => {
                            let given = c.as_str().map(str::to_string).unwrap_or_else(|| c.to_string());
                            return Err(format!("{} (a choice of option.{})", T::refusal(key, &given), o.name));
                        }
                    }
                }
                Ok(Choice::ByOption(*i, table))
            }
            Expr::If(c, a, b) => Ok(Choice::If((**c).clone(), Box::new(self.resolve_word(key, a)?), Box::new(self.resolve_word(key, b)?))),
            _ => Err(format!("`{key}` is a word ({}), an option whose choices are such words, or `if ... then ... else ...` between them", T::listed())),
        }
    }
}
