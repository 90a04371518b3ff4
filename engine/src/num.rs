//! Exact numbers for the rules: card points come in halves (FFT) and thirds (packets of three), and
//! payment tables divide; a rational keeps every figure exact until a formula rounds it.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// A rational number with a positive denominator, always in lowest terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Q {
    n: i64,
    d: i64,
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

impl Q {
    pub const ZERO: Q = Q { n: 0, d: 1 };
    pub const ONE: Q = Q { n: 1, d: 1 };
    pub fn new(n: i64, d: i64) -> Q {
        assert!(d != 0, "denominator is zero");
        let g = gcd(n, d) * d.signum();
        Q { n: n / g, d: d / g }
    }
    pub fn int(n: i64) -> Q {
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
        -(-self).floor()
    }
    /// Rounds to the nearest integer, halves away from zero.
    pub fn round(self) -> Q {
        let twice = Q::new(2 * self.n + self.d * self.n.signum(), 2 * self.d);
        if self.n >= 0 {
            twice.floor()
        } else {
            twice.ceil()
        }
    }
    pub fn abs(self) -> Q {
        Q { n: self.n.abs(), d: self.d }
    }
    pub fn to_f64(self) -> f64 {
        self.n as f64 / self.d as f64
    }
    /// Parses `12`, `-3`, `4.5`, `2/3`.
    pub fn parse(s: &str) -> Option<Q> {
        if let Some((a, b)) = s.split_once('/') {
            let d: i64 = b.trim().parse().ok()?;
            let n: i64 = a.trim().parse().ok()?;
            return (d != 0).then(|| Q::new(n, d));
        }
        if let Some((a, b)) = s.split_once('.') {
            let scale = 10i64.checked_pow(b.len() as u32)?;
            let whole: i64 = a.parse().ok()?;
            let frac: i64 = b.parse().ok()?;
            let sign = if a.starts_with('-') { -1 } else { 1 };
            return Some(Q::new(whole * scale + sign * frac, scale));
        }
        s.parse().ok().map(Q::int)
    }
}

impl Add for Q {
    type Output = Q;
    fn add(self, o: Q) -> Q {
        // Most figures are whole: no common divisor to look for.
        if self.d == 1 && o.d == 1 {
            return Q::int(self.n + o.n);
        }
        Q::new(self.n * o.d + o.n * self.d, self.d * o.d)
    }
}
impl Sub for Q {
    type Output = Q;
    fn sub(self, o: Q) -> Q {
        self + -o
    }
}
impl Neg for Q {
    type Output = Q;
    fn neg(self) -> Q {
        Q { n: -self.n, d: self.d }
    }
}
impl Mul for Q {
    type Output = Q;
    fn mul(self, o: Q) -> Q {
        if self.d == 1 && o.d == 1 {
            return Q::int(self.n * o.n);
        }
        Q::new(self.n * o.n, self.d * o.d)
    }
}
impl Div for Q {
    type Output = Q;
    /// Division by zero gives zero; the compiler cannot see every divisor, and a rule that divides by
    /// an empty count means "nothing to share".
    fn div(self, o: Q) -> Q {
        if o.n == 0 {
            Q::ZERO
        } else {
            Q::new(self.n * o.d, self.d * o.n)
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_and_parsing() {
        assert_eq!(Q::parse("4.5"), Some(Q::new(9, 2)));
        assert_eq!(Q::parse("2/3"), Some(Q::new(2, 3)));
        assert_eq!(Q::new(-7, 2).floor(), Q::int(-4));
        assert_eq!(Q::new(-7, 2).ceil(), Q::int(-3));
        assert_eq!(Q::new(7, 3).round(), Q::int(2));
        assert_eq!(Q::new(8, 3).round(), Q::int(3));
        assert_eq!(Q::new(5, 2).round(), Q::int(3));
        assert_eq!(Q::new(1, 3) + Q::new(1, 6), Q::new(1, 2));
        assert!(Q::new(81, 2) < Q::int(41));
    }
}
