//! Exact numbers for the rules: card points come in halves (FFT) and thirds (packets of three), and
//! payment tables divide; a rational keeps every figure exact until a formula rounds it.
//!
//! No figure ever wraps. Arithmetic is worked out on 128-bit intermediates and checked back into
//! range: the `checked_*` methods give `None` when a result would be beyond `LIMIT`, and replay
//! turns that into an error naming the rule. The operators (`+ - * /`, unary `-`, `sum`) are for
//! figures known to be small (counts, the code's own constants, tests): past the range they panic,
//! they never wrap.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// The largest numerator or denominator arithmetic may produce, about 1.15·10^18: far beyond any
/// figure of the sources (and a million times the largest amount a record may carry,
/// `record::AMOUNT_LIMIT`), and far enough below the 64-bit limit that negating, rounding and
/// comparing a result stay exact.
pub const LIMIT: i64 = 1 << 60;

/// The most a pot may hold, or a player carry from the match, either way, in a record: 10^12.
///
/// The largest sums of the sources are a few thousand points a deal, so a session's totals stay far
/// below it. It is a million times below `LIMIT`, the largest figure arithmetic keeps exact:
/// the rules' formulas add amounts to the deal's own figures or multiply one by a small constant
/// (a contract's multiplier, a pot doubled by each player), and a million amounts added up, or one
/// multiplied by a million, stay in range. A formula that still leaves it (one multiplying two
/// amounts together) is refused with an error naming its rule, never wrapped.
pub const AMOUNT_LIMIT: i64 = 1_000_000_000_000;

/// A rational number with a positive denominator, always in lowest terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Q {
    n: i64,
    d: i64,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (a, b) = (a.unsigned_abs(), b.unsigned_abs());
    // 64-bit division is several times faster than 128-bit, and most figures are small.
    if let (Ok(a), Ok(b)) = (u64::try_from(a), u64::try_from(b)) {
        return gcd64(a, b) as i128;
    }
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    // `checked_new` refuses i128::MIN, so the divisor is at most i128::MAX.
    a.max(1) as i128
}

fn gcd64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// Whether a numerator or denominator worked out in 128 bits may be kept.
fn fits(x: i128) -> bool {
    x.unsigned_abs() <= LIMIT as u128
}

/// The panic of an operator used on figures too large for it; `checked_*` says `None` instead.
#[cold]
fn too_large(p: Q, op: &str, q: Q) -> ! {
    panic!("{p} {op} {q} is too large a figure to keep exact (beyond 2^60): figures from a record or a formula go through Q::checked_*")
}

impl Q {
    pub const ZERO: Q = Q { n: 0, d: 1 };
    pub const ONE: Q = Q { n: 1, d: 1 };

    /// `n / d` for figures known to be small. Panics when `d` is 0 or the fraction in lowest terms
    /// is beyond `LIMIT`; `checked_new` says `None` instead.
    pub fn new(n: i64, d: i64) -> Q {
        assert!(d != 0, "denominator is zero");
        Q::checked_new(n as i128, d as i128).unwrap_or_else(|| panic!("{n}/{d} is too large a figure to keep exact (beyond 2^60)"))
    }

    /// `n / d` in lowest terms, or `None` when `d` is 0 or the fraction is beyond `LIMIT`.
    pub fn checked_new(n: i128, d: i128) -> Option<Q> {
        if d == 0 || n == i128::MIN || d == i128::MIN {
            return None;
        }
        let g = gcd(n, d) * d.signum();
        let (n, d) = (n / g, d / g);
        (fits(n) && fits(d)).then_some(Q { n: n as i64, d: d as i64 })
    }

    /// Any whole number. Arithmetic on it is checked all the same: a figure read from a record is
    /// bounded when it is read (`record::AMOUNT_LIMIT`), far inside `LIMIT`.
    pub const fn int(n: i64) -> Q {
        Q { n, d: 1 }
    }
    pub fn numer(self) -> i64 {
        self.n
    }
    pub fn denom(self) -> i64 {
        self.d
    }
    pub fn is_integer(self) -> bool {
        self.d == 1
    }
    pub fn floor(self) -> Q {
        Q::int(self.n.div_euclid(self.d))
    }
    pub fn ceil(self) -> Q {
        // -floor(-x), in 128 bits so that the smallest i64 negates; the result lies between
        // `self` and 0 or is `self`, so it fits.
        Q::int(-(-(self.n as i128)).div_euclid(self.d as i128) as i64)
    }
    /// Rounds to the nearest integer, halves away from zero.
    pub fn round(self) -> Q {
        // In 128 bits: (2n ± d) / 2d, floored or ceiled; the result is within one of `self`, and
        // only a whole `self` is at the edge of i64, which comes back as it is.
        if self.d == 1 {
            return self;
        }
        let (n, d) = (self.n as i128, self.d as i128);
        let twice = 2 * n + d * n.signum();
        let r = if n >= 0 { twice.div_euclid(2 * d) } else { -(-twice).div_euclid(2 * d) };
        Q::int(r as i64)
    }
    /// `|self|`, or `None` for the one whole number whose magnitude is past i64.
    pub fn checked_abs(self) -> Option<Q> {
        Some(Q { n: self.n.checked_abs()?, d: self.d })
    }
    pub fn abs(self) -> Q {
        self.checked_abs().unwrap_or_else(|| panic!("|{self}| is too large a figure to keep exact"))
    }
    pub fn checked_neg(self) -> Option<Q> {
        Some(Q { n: self.n.checked_neg()?, d: self.d })
    }
    pub fn to_f64(self) -> f64 {
        self.n as f64 / self.d as f64
    }

    /// `self + o`, or `None` when the result is beyond `LIMIT`.
    pub fn checked_add(self, o: Q) -> Option<Q> {
        let (a, b, c, d) = self.wide(o);
        // Most figures are whole: no common divisor to look for.
        if b == 1 && d == 1 {
            let n = a + c;
            return fits(n).then_some(Q { n: n as i64, d: 1 });
        }
        Q::checked_new(a * d + c * b, b * d)
    }
    /// `self - o`, or `None` when the result is beyond `LIMIT`.
    pub fn checked_sub(self, o: Q) -> Option<Q> {
        let (a, b, c, d) = self.wide(o);
        if b == 1 && d == 1 {
            let n = a - c;
            return fits(n).then_some(Q { n: n as i64, d: 1 });
        }
        Q::checked_new(a * d - c * b, b * d)
    }
    /// `self * o`, or `None` when the result is beyond `LIMIT`.
    pub fn checked_mul(self, o: Q) -> Option<Q> {
        let (a, b, c, d) = self.wide(o);
        if b == 1 && d == 1 {
            let n = a * c;
            return fits(n).then_some(Q { n: n as i64, d: 1 });
        }
        Q::checked_new(a * c, b * d)
    }
    /// `self / o`, or `None` when the result is beyond `LIMIT`. Division by zero gives zero; the
    /// compiler cannot see every divisor, and a rule that divides by an empty count means "nothing
    /// to share".
    pub fn checked_div(self, o: Q) -> Option<Q> {
        let (a, b, c, d) = self.wide(o);
        if c == 0 {
            return Some(Q::ZERO);
        }
        Q::checked_new(a * d, b * c)
    }
    /// The sum of figures, or `None` as soon as a partial sum is beyond `LIMIT`.
    pub fn checked_sum(it: impl IntoIterator<Item = Q>) -> Option<Q> {
        it.into_iter().try_fold(Q::ZERO, Q::checked_add)
    }

    /// Both figures' numerators and denominators in 128 bits, where no product of two overflows.
    fn wide(self, o: Q) -> (i128, i128, i128, i128) {
        (self.n as i128, self.d as i128, o.n as i128, o.d as i128)
    }

    /// Parses `12`, `-3`, `4.5`, `2/3`; `None` for anything else, a zero denominator included, and
    /// for a figure beyond `LIMIT`, so that every figure a formula starts from can be negated.
    pub fn parse(s: &str) -> Option<Q> {
        if let Some((a, b)) = s.split_once('/') {
            let d: i64 = b.trim().parse().ok()?;
            let n: i64 = a.trim().parse().ok()?;
            return Q::checked_new(n as i128, d as i128);
        }
        if let Some((a, b)) = s.split_once('.') {
            let scale = 10i128.checked_pow(b.len() as u32).filter(|&s| s <= LIMIT as i128)?;
            let whole: i64 = a.parse().ok()?;
            let frac: i64 = b.parse().ok()?;
            let sign = if a.starts_with('-') { -1 } else { 1 };
            return Q::checked_new(whole as i128 * scale + sign * frac as i128, scale);
        }
        s.parse::<i64>().ok().filter(|&n| fits(n as i128)).map(Q::int)
    }
}

impl Add for Q {
    type Output = Q;
    fn add(self, o: Q) -> Q {
        self.checked_add(o).unwrap_or_else(|| too_large(self, "+", o))
    }
}
impl Sub for Q {
    type Output = Q;
    fn sub(self, o: Q) -> Q {
        self.checked_sub(o).unwrap_or_else(|| too_large(self, "-", o))
    }
}
impl Neg for Q {
    type Output = Q;
    fn neg(self) -> Q {
        self.checked_neg().unwrap_or_else(|| panic!("-({self}) is too large a figure to keep exact"))
    }
}
impl Mul for Q {
    type Output = Q;
    fn mul(self, o: Q) -> Q {
        self.checked_mul(o).unwrap_or_else(|| too_large(self, "*", o))
    }
}
impl Div for Q {
    type Output = Q;
    /// Division by zero gives zero, as `checked_div` has it.
    fn div(self, o: Q) -> Q {
        self.checked_div(o).unwrap_or_else(|| too_large(self, "/", o))
    }
}
impl PartialOrd for Q {
    fn partial_cmp(&self, o: &Q) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Q {
    fn cmp(&self, o: &Q) -> Ordering {
        (self.n as i128 * o.d as i128).cmp(&(o.n as i128 * self.d as i128))
    }
}
impl std::iter::Sum for Q {
    fn sum<I: Iterator<Item = Q>>(it: I) -> Q {
        it.fold(Q::ZERO, |a, b| a + b)
    }
}

impl fmt::Display for Q {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.d == 1 {
            write!(f, "{}", self.n)
        } else if self.d == 2 {
            // Half points are how players write them.
            write!(f, "{}", self.to_f64())
        } else {
            write!(f, "{}/{}", self.n, self.d)
        }
    }
}

/// Numbers go on the wire as JSON numbers when whole or halves, and as "n/d" strings otherwise, so
/// no figure is silently rounded.
impl serde::Serialize for Q {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.d == 1 {
            s.serialize_i64(self.n)
        } else if self.d == 2 {
            s.serialize_f64(self.to_f64())
        } else {
            s.collect_str(self)
        }
    }
}
