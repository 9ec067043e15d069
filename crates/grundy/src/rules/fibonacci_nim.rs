//! Fibonacci Nim and its relatives: a rule that depends on the last move,
//! folded into the state.
//!
//! One heap of `n`; the first player takes from 1 to `n - 1` tokens, and
//! after that each player takes from 1 to `c` times what the opponent just
//! took, rounded down (`c = 2`: Fibonacci Nim; `c` may be any positive
//! rational, such as `3/2`, in exact arithmetic). Whoever takes the last token wins. The
//! history matters only through the largest take allowed, so a position is
//! the pair `(heap, limit)`, and every play is finite.
//!
//! For `c = 2` Whinihan (1963) proved: the player to move at `(n, k)` wins
//! exactly when the smallest term of the Zeckendorf representation of `n`
//! (as a sum of non-consecutive Fibonacci numbers) is at most `k`, and
//! taking that term wins. So the first player wins exactly when `n` is not
//! a Fibonacci number. For other `c` the least winning take `w(n)` is
//! tabulated: `(n, k)` is a win exactly when `w(n) <= k`, and
//! `w(n) = min { t >= 1 : w(n - t) > min(floor(c t), n - t) }` with
//! `w(0) = ∞`. (The mover at `(n, k)` wins when some take `t <= k` leaves
//! a loss, and the winning positions of a heap grow with `k`, since the
//! limit after a take, `floor(c t)`, does not decrease in `t`: so one
//! number per heap, the least winning take, says everything; Schwenk,
//! "Take-away games", Fibonacci Quarterly 8 (1970).)

use crate::{Error, Options, Result, Ruleset};

/// Take from 1 to `ratio` times the previous take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FibonacciNim {
    /// `c`: the next take may be at most `c` times the last one.
    pub ratio: Ratio,
}

/// A positive rational `numerator / denominator`, in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    numerator: u64,
    denominator: u64,
}

impl Ratio {
    /// The ratio `n / 1`.
    pub const fn whole(n: u64) -> Ratio {
        Ratio {
            numerator: n,
            denominator: 1,
        }
    }

    /// `numerator / denominator` in lowest terms; `None` unless both are
    /// positive.
    pub fn new(numerator: u64, denominator: u64) -> Option<Ratio> {
        if numerator == 0 || denominator == 0 {
            return None;
        }
        let a = crate::analysis::gcd(numerator, denominator);
        Some(Ratio {
            numerator: numerator / a,
            denominator: denominator / a,
        })
    }

    /// `floor(c t)`, the largest take after a take of `t` (saturating).
    pub fn limit_after(&self, take: u64) -> u64 {
        let exact = u128::from(take) * u128::from(self.numerator) / u128::from(self.denominator);
        u64::try_from(exact).unwrap_or(u64::MAX)
    }
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.denominator {
            1 => write!(f, "{}", self.numerator),
            d => write!(f, "{}/{d}", self.numerator),
        }
    }
}

impl std::str::FromStr for Ratio {
    type Err = Error;

    /// `2`, `3/2` or a decimal such as `1.618` (taken exactly, as
    /// `1618/1000`), positive, with at most 18 digits after the point.
    fn from_str(text: &str) -> Result<Ratio> {
        let invalid = |reason: &str| Error::InvalidRange {
            reason: format!(
                "invalid ratio '{text}': write a positive integer, fraction P/Q or decimal \
                 ({reason})"
            ),
        };
        let whole = |digits: &str| {
            digits
                .trim()
                .parse::<u64>()
                .map_err(|_| invalid(&format!("'{}' is not a number", digits.trim())))
        };
        let (numerator, denominator) = if let Some((p, q)) = text.split_once('/') {
            (whole(p)?, whole(q)?)
        } else if let Some((int, frac)) = text.trim().split_once('.') {
            if frac.len() > 18 || !frac.bytes().all(|b| b.is_ascii_digit()) {
                return Err(invalid("at most 18 digits after the point"));
            }
            let scale = 10u64.pow(frac.len() as u32);
            let int = if int.is_empty() { 0 } else { whole(int)? };
            let frac = if frac.is_empty() { 0 } else { whole(frac)? };
            let numerator = int
                .checked_mul(scale)
                .and_then(|n| n.checked_add(frac))
                .ok_or_else(|| invalid("too large"))?;
            (numerator, scale)
        } else {
            (whole(text)?, 1)
        };
        Ratio::new(numerator, denominator).ok_or_else(|| invalid("it must be positive"))
    }
}

impl serde::Serialize for Ratio {
    /// A whole ratio as a number, any other as the string `"P/Q"`.
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        if self.denominator == 1 {
            serializer.serialize_u64(self.numerator)
        } else {
            serializer.collect_str(self)
        }
    }
}

impl FibonacciNim {
    /// Fibonacci Nim itself: `c = 2`.
    pub const FIBONACCI: FibonacciNim = FibonacciNim {
        ratio: Ratio::whole(2),
    };

    /// The largest take allowed at the start: all but one token.
    pub fn opening_limit(heap: u64) -> u64 {
        heap.saturating_sub(1)
    }
}

impl Ruleset for FibonacciNim {
    /// `(heap, largest take allowed)`, the limit capped at the heap.
    type Position = (u64, u64);

    fn options(&self, &(heap, limit): &(u64, u64), out: &mut Options<(u64, u64)>) {
        for take in 1..=limit.min(heap) {
            let left = heap - take;
            out.push([(left, self.ratio.limit_after(take).min(left))]);
        }
    }
}
