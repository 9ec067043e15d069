//! Subtraction games: remove `s` tokens from a heap for some `s` in a set.
//!
//! `sub(1,3,4)` allows removing 1, 3 or 4 tokens; `sub(squares)` removing any
//! positive square (subtract-a-square, OEIS A014586).

use std::fmt;
use std::str::FromStr;

use crate::{Error, HeapRuleset, MexScratch, Nimber, Options, Result, Ruleset};

/// The set of amounts a move may remove.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubtractionSet {
    /// A finite set, sorted and without repeats.
    Finite(Vec<usize>),
    /// The positive squares 1, 4, 9, 16, …
    Squares,
}

/// A subtraction game.
///
/// ```
/// use grundy::Subtraction;
/// let game: Subtraction = "sub(4, 1, 3, 3)".parse().unwrap();
/// assert_eq!(game.to_string(), "sub(1,3,4)");
/// assert!("sub(0,1)".parse::<Subtraction>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtraction {
    set: SubtractionSet,
}

impl Subtraction {
    /// A game with the given finite set.
    pub fn finite(amounts: impl IntoIterator<Item = usize>) -> Result<Subtraction> {
        let mut amounts: Vec<usize> = amounts.into_iter().collect();
        amounts.sort_unstable();
        amounts.dedup();
        let game = Subtraction {
            set: SubtractionSet::Finite(amounts),
        };
        let reason = match &game.set {
            SubtractionSet::Finite(a) if a.is_empty() => "the set is empty",
            SubtractionSet::Finite(a) if a[0] == 0 => "removing 0 tokens is not a move",
            _ => return Ok(game),
        };
        Err(Error::InvalidSubtractionSet {
            spec: game.to_string(),
            reason: reason.into(),
        })
    }

    /// Subtract-a-square.
    pub fn squares() -> Subtraction {
        Subtraction {
            set: SubtractionSet::Squares,
        }
    }

    /// The set of amounts.
    pub fn set(&self) -> &SubtractionSet {
        &self.set
    }

    /// Calls `f(s)` for every allowed amount `s <= n`, in increasing order.
    #[inline]
    fn for_each_amount(&self, n: usize, mut f: impl FnMut(usize)) {
        match &self.set {
            SubtractionSet::Finite(amounts) => {
                amounts.iter().take_while(|&&s| s <= n).for_each(|&s| f(s));
            }
            SubtractionSet::Squares => {
                (1..).map(|k| k * k).take_while(|&s| s <= n).for_each(f);
            }
        }
    }
}

impl fmt::Display for Subtraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.set {
            SubtractionSet::Squares => f.write_str("sub(squares)"),
            SubtractionSet::Finite(amounts) => {
                let listed: Vec<String> = amounts.iter().map(usize::to_string).collect();
                write!(f, "sub({})", listed.join(","))
            }
        }
    }
}

impl FromStr for Subtraction {
    type Err = Error;

    /// Parses `sub(a,b,…)` with positive integers, or `sub(squares)`.
    fn from_str(spec: &str) -> Result<Subtraction> {
        let invalid = |reason: String| Error::InvalidSubtractionSet {
            spec: spec.to_owned(),
            reason,
        };
        let trimmed = spec.trim();
        let inner = trimmed
            .strip_prefix("sub(")
            .ok_or_else(|| invalid("expected 'sub(' at the start".into()))?
            .strip_suffix(')')
            .ok_or_else(|| invalid("expected ')' at the end".into()))?;
        if inner.trim() == "squares" {
            return Ok(Subtraction::squares());
        }
        if inner.trim().is_empty() {
            return Err(invalid("the set is empty".into()));
        }
        let amounts = inner
            .split(',')
            .map(|item| {
                let item = item.trim();
                if item.is_empty() {
                    Err(invalid("an amount is missing".into()))
                } else if item.starts_with('-') {
                    Err(invalid(format!(
                        "'{item}' is negative; amounts must be positive"
                    )))
                } else if !item.bytes().all(|b| b.is_ascii_digit()) {
                    Err(invalid(format!(
                        "'{item}' is not a positive integer or the name of a set (squares)"
                    )))
                } else {
                    match item.parse::<usize>() {
                        Ok(0) => Err(invalid("removing 0 tokens is not a move".into())),
                        Ok(s) => Ok(s),
                        Err(_) => Err(invalid(format!("'{item}' is too large"))),
                    }
                }
            })
            .collect::<Result<Vec<usize>>>()?;
        Subtraction::finite(amounts)
    }
}

impl Ruleset for Subtraction {
    type Position = usize;

    fn options(&self, &n: &usize, out: &mut Options<usize>) {
        self.visit_options(n, &mut |parts| out.push(parts.iter().copied()));
    }
}

impl HeapRuleset for Subtraction {
    fn gather(
        &self,
        n: usize,
        values: &[Nimber],
        _max: Nimber,
        seen: &mut MexScratch,
        _scratch: &mut Options<usize>,
    ) -> Result<()> {
        // Plain loops, not `for_each_amount`: this is the hot path, and a
        // closure here was left out of line by the compiler.
        match &self.set {
            SubtractionSet::Finite(amounts) => {
                for &s in amounts.iter().take_while(|&&s| s <= n) {
                    seen.insert(values[n - s]);
                }
            }
            SubtractionSet::Squares => {
                let mut k = 1;
                while k * k <= n {
                    seen.insert(values[n - k * k]);
                    k += 1;
                }
            }
        }
        Ok(())
    }

    fn visit_options(&self, n: usize, visit: &mut dyn FnMut(&[usize])) {
        // Removing the whole heap leaves nothing, not an empty heap.
        self.for_each_amount(n, |s| {
            if s < n {
                visit(&[n - s]);
            } else {
                visit(&[]);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_sets_are_rejected() {
        for bad in [
            "sub()",
            "sub(0)",
            "sub(1,0)",
            "sub(-1)",
            "sub(1,,2)",
            "sub(1",
            "sub(x)",
            "sub(1.5)",
            "subtract(1)",
            "sub(+3)",
            "sub(99999999999999999999999)",
        ] {
            assert!(
                matches!(
                    bad.parse::<Subtraction>(),
                    Err(Error::InvalidSubtractionSet { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn sets_are_normalised() {
        let game: Subtraction = " sub( 4,1 ,3,1) ".parse().unwrap();
        assert_eq!(game.set(), &SubtractionSet::Finite(vec![1, 3, 4]));
        assert_eq!("sub(squares)".parse(), Ok(Subtraction::squares()));
    }
}
