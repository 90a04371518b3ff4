//! The functions a formula calls that need no game (`count`, `has`, `pow`, `run`, `suit_of`...),
//! worked out on their arguments; the others are passed to the game through `Env::game_func`.

use std::sync::Arc;

use crate::cards::CardSet;
use crate::combinations;
use crate::num::Q;

use super::eval::{cards, items, num, too_large, Env};
use super::{Func, Value};

/// The steps of a run's order: a list of sets of cards, highest first.
fn steps(v: &Value, env: &dyn Env) -> Result<Vec<CardSet>, String> {
    items(v)?.iter().map(|x| cards(x, env)).collect::<Result<_, _>>().map_err(|e| format!("the order of a run is a list of sets of cards: {e}"))
}

pub(super) fn call(f: Func, a: &[Value], env: &dyn Env) -> Result<Value, String> {
    let n = |i: usize| num(a[i].clone());
    Ok(match f {
        Func::Count => match (a.first(), a.get(1)) {
            (Some(Value::List(l)), None) => Value::Num(Q::int(l.len() as i64)),
            (Some(Value::Players(m)), None) => Value::Num(Q::int(m.count_ones() as i64)),
            (Some(x), None) => Value::Num(Q::int(cards(x, env)?.len() as i64)),
            (Some(x), Some(y)) => Value::Num(Q::int(cards(x, env)?.and(cards(y, env)?).len() as i64)),
            _ => return Err("count needs one or two arguments".into()),
        },
        Func::Has => Value::Bool({
            let (set, want) = (cards(&a[0], env)?, cards(&a[1], env)?);
            !want.is_empty() && set.and(want) == want
        }),
        Func::Abs => {
            let x = n(0)?;
            Value::Num(x.checked_abs().ok_or_else(|| too_large(&format!("abs({x})")))?)
        }
        Func::Floor => Value::Num(n(0)?.floor()),
        Func::Ceil => Value::Num(n(0)?.ceil()),
        Func::Round => Value::Num(n(0)?.round()),
        Func::Pow => {
            let (x, e) = (n(0)?, n(1)?);
            if !e.is_integer() || e < Q::ZERO {
                return Err(format!("pow raises to a whole number from 0, not {e}"));
            }
            if e > Q::int(62) {
                return Err(too_large(&format!("pow({x}, {e})")));
            }
            let mut acc = Q::ONE;
            for _ in 0..e.numer() {
                acc = acc.checked_mul(x).ok_or_else(|| too_large(&format!("pow({x}, {e})")))?;
            }
            Value::Num(acc)
        }
        Func::Min | Func::Max => {
            let mut best = n(0)?;
            for i in 1..a.len() {
                let x = n(i)?;
                best = if f == Func::Min { best.min(x) } else { best.max(x) };
            }
            Value::Num(best)
        }
        Func::Contains => Value::Bool(items(&a[0])?.contains(&a[1])),
        Func::Index => {
            let pos = items(&a[0])?.iter().position(|x| x == &a[1]);
            Value::Num(Q::int(pos.map(|p| p as i64).unwrap_or(-1)))
        }
        Func::Complete => {
            let set = cards(&a[0], env)?;
            let full = a[1..].iter().map(|x| cards(x, env)).filter(|c| matches!(c, Ok(c) if set.and(*c) == *c)).count();
            Value::Num(Q::int(full as i64))
        }
        Func::Run => {
            let set = cards(&a[0], env)?;
            let optional = |i: usize| a.get(i).map(|x| cards(x, env)).unwrap_or(Ok(CardSet::EMPTY));
            Value::Num(Q::int(combinations::run_from_head(set, &steps(&a[1], env)?, optional(2)?, optional(3)?) as i64))
        }
        Func::Runs | Func::InRuns => {
            let (set, order) = (cards(&a[0], env)?, steps(&a[1], env)?);
            let min = n(2)?;
            if !min.is_integer() || min < Q::ONE {
                return Err(format!("the shortest run counted must be a whole number from 1, not {min}"));
            }
            let min = min.numer() as usize;
            if f == Func::Runs {
                Value::List(Arc::new(combinations::runs(set, &order, min).into_iter().map(|l| Value::Num(Q::int(l as i64))).collect()))
            } else {
                Value::Cards(combinations::in_runs(set, &order, min))
            }
        }
        Func::SuitOf => {
            let set = cards(&a[0], env)?;
            Value::Cards(set.iter().fold(CardSet::EMPTY, |acc, c| acc.or(CardSet::of_lane(c.lane()))))
        }
        _ => env.game_func(f, a)?,
    })
}
