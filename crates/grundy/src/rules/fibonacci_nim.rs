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

use crate::error::human_bytes;
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

/// Who wins a position of [`FibonacciNim`] and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeOutcome {
    /// Whether the player to move wins.
    pub first_player_wins: bool,
    /// Winning takes, in increasing order: all of them when the position
    /// was tabulated, else the one the theorem gives.
    pub winning_takes: Vec<u64>,
    /// The Zeckendorf representation of the heap (for `c = 2`), largest
    /// term first.
    pub zeckendorf: Option<Vec<u64>>,
}

/// The Zeckendorf representation of `n`: its greedy decomposition into
/// non-consecutive Fibonacci numbers, largest first.
///
/// ```
/// assert_eq!(grundy::rules::zeckendorf(100), [89, 8, 3]);
/// ```
pub fn zeckendorf(mut n: u64) -> Vec<u64> {
    let mut fibonacci = vec![1u64, 2];
    while let Some(next) =
        fibonacci[fibonacci.len() - 2].checked_add(fibonacci[fibonacci.len() - 1])
    {
        if next > n {
            break;
        }
        fibonacci.push(next);
    }
    let mut terms = Vec::new();
    for &f in fibonacci.iter().rev() {
        if f <= n {
            terms.push(f);
            n -= f;
        }
    }
    terms
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

    /// `w(0..=to)`, the least winning take of each heap when any take is
    /// allowed (`u64::MAX` for the empty heap, where the mover has lost).
    pub fn least_winning_takes(&self, to: u64, memory_limit: u64) -> Result<Vec<u64>> {
        let needed = (u128::from(to) + 1) * 8;
        if needed > u128::from(memory_limit) || usize::try_from(to).is_err() {
            return Err(Error::TableTooLarge {
                to,
                needed: human_bytes(needed),
                limit: human_bytes(u128::from(memory_limit)),
            });
        }
        let mut least = vec![u64::MAX];
        for n in 1..=to {
            // Taking everything always wins, so the search ends by t = n.
            let w = (1..=n)
                .find(|&t| least[(n - t) as usize] > self.ratio.limit_after(t).min(n - t))
                .unwrap_or(n);
            least.push(w);
        }
        Ok(least)
    }

    /// Who wins `(heap, limit)` and with which takes: by Whinihan's theorem
    /// for `c = 2` when the heap is past `table_to`, else from the table
    /// of least winning takes (every winning take listed).
    pub fn outcome(
        &self,
        heap: u64,
        limit: u64,
        table_to: u64,
        memory_limit: u64,
    ) -> Result<TakeOutcome> {
        let limit = limit.min(heap);
        let zeckendorf = (self.ratio == Ratio::whole(2)).then(|| zeckendorf(heap));
        if heap > table_to {
            let Some(terms) = zeckendorf else {
                return Err(Error::InvalidRange {
                    reason: format!(
                        "a heap of {heap} is past the table ({table_to}); only c = 2 has a \
                         theorem for any heap"
                    ),
                });
            };
            let smallest = terms.last().copied().unwrap_or(u64::MAX);
            let wins = heap > 0 && smallest <= limit;
            return Ok(TakeOutcome {
                first_player_wins: wins,
                winning_takes: if wins { vec![smallest] } else { Vec::new() },
                zeckendorf: Some(terms),
            });
        }
        let least = self.least_winning_takes(heap, memory_limit)?;
        let winning_takes: Vec<u64> = (1..=limit)
            .filter(|&t| least[(heap - t) as usize] > self.ratio.limit_after(t).min(heap - t))
            .collect();
        Ok(TakeOutcome {
            first_player_wins: !winning_takes.is_empty(),
            winning_takes,
            zeckendorf,
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemoSolver;

    #[test]
    fn zeckendorf_terms_are_greedy_and_non_consecutive() {
        assert_eq!(zeckendorf(0), Vec::<u64>::new());
        assert_eq!(zeckendorf(1), [1]);
        assert_eq!(zeckendorf(4), [3, 1]);
        assert_eq!(zeckendorf(u64::MAX).iter().sum::<u64>(), u64::MAX);
    }

    #[test]
    fn whinihans_theorem_matches_search() {
        let game = FibonacciNim::FIBONACCI;
        let mut solver = MemoSolver::new(&game);
        let least = game.least_winning_takes(150, 1 << 20).unwrap();
        for heap in 1..=150u64 {
            assert_eq!(
                least[heap as usize],
                *zeckendorf(heap).last().unwrap(),
                "w({heap})"
            );
            for limit in 1..=heap {
                let wins = !solver.value(&(heap, limit)).unwrap().is_zero();
                let by_theorem = game.outcome(heap, limit, 0, 1 << 20).unwrap();
                let by_table = game.outcome(heap, limit, u64::MAX, 1 << 20).unwrap();
                assert_eq!(by_theorem.first_player_wins, wins, "({heap}, {limit})");
                assert_eq!(by_table.first_player_wins, wins, "({heap}, {limit})");
                for &take in by_theorem
                    .winning_takes
                    .iter()
                    .chain(&by_table.winning_takes)
                {
                    let next = (heap - take, (2 * take).min(heap - take));
                    assert!(
                        solver.value(&next).unwrap().is_zero(),
                        "({heap}, {limit}) - {take}"
                    );
                }
            }
        }
    }

    #[test]
    fn other_ratios_are_tabulated_and_match_search() {
        let ratios = ["1", "3", "4", "3/2", "1.5", "5/3", "0.5", "2.25"];
        for ratio in ratios.map(|r| r.parse::<Ratio>().unwrap()) {
            let game = FibonacciNim { ratio };
            let mut solver = MemoSolver::new(&game);
            for heap in 1..=80u64 {
                for limit in 1..=heap {
                    let found = game.outcome(heap, limit, u64::MAX, 1 << 20).unwrap();
                    let wins = !solver.value(&(heap, limit)).unwrap().is_zero();
                    assert_eq!(
                        found.first_player_wins, wins,
                        "c = {ratio} ({heap}, {limit})"
                    );
                }
            }
            assert!(game.outcome(1 << 40, 5, 1000, 1 << 20).is_err());
        }
    }

    #[test]
    fn ratios_are_exact_and_refuse_what_is_not_one() {
        let r: Ratio = "1.5".parse().unwrap();
        assert_eq!(r, Ratio::new(3, 2).unwrap());
        assert_eq!(r.to_string(), "3/2");
        assert_eq!("6/4".parse::<Ratio>().unwrap(), r);
        assert_eq!("2".parse::<Ratio>().unwrap(), Ratio::whole(2));
        // floor(1.618 t), with no rounding error: 1618 t / 1000.
        let golden: Ratio = "1.618".parse().unwrap();
        assert_eq!(golden.limit_after(1000), 1618);
        assert_eq!(golden.limit_after(999), 1616);
        for bad in [
            "0",
            "0/3",
            "3/0",
            "-1",
            "x",
            "1.5.2",
            "",
            "1.0000000000000000001",
        ] {
            assert!(bad.parse::<Ratio>().is_err(), "{bad}");
        }
    }
}
