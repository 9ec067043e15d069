//! Subtraction games: remove `s` tokens from a heap for some `s` in a set.
//!
//! `sub(1,3,4)` allows removing 1, 3 or 4 tokens; `sub(squares)` removing any
//! positive square (subtract-a-square, OEIS A014586); `sub(primes)`,
//! `sub(powers-of-2)`, `sub(fibonacci)`, `sub(factorials)` (OEIS A014587),
//! `sub(triangular)` and progressions `sub(2+3k)` (2, 5, 8, ...) name
//! infinite sets; `allbut(1,2)` allows removing any number but 1 or 2.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::RwLock;

use crate::{Error, HeapRuleset, MexScratch, Nimber, Options, Result, Ruleset};

/// The set of amounts a move may remove.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubtractionSet {
    /// A finite set, sorted and without repeats.
    Finite(Vec<usize>),
    /// The positive squares 1, 4, 9, 16, …
    Squares,
    /// The primes 2, 3, 5, 7, …
    Primes(PrimeTable),
    /// The powers of two 1, 2, 4, 8, …
    PowersOfTwo,
    /// The Fibonacci numbers 1, 2, 3, 5, 8, …
    Fibonacci,
    /// The factorials 1, 2, 6, 24, …
    Factorials,
    /// The triangular numbers 1, 3, 6, 10, …
    Triangular,
    /// `first, first + step, first + 2 step, …`
    Progression {
        /// The least amount, at least 1.
        first: usize,
        /// The difference, at least 1.
        step: usize,
    },
    /// Every positive amount except these (sorted, without repeats).
    AllBut(Vec<usize>),
}

/// The primes found so far, grown (by doubling the bound) as larger heaps
/// ask for them. Shared between threads behind a lock; two tables are equal
/// whatever they have cached.
#[derive(Debug, Default)]
pub struct PrimeTable {
    /// `(bound, primes up to bound)`.
    known: RwLock<(usize, Vec<usize>)>,
}

impl Clone for PrimeTable {
    fn clone(&self) -> PrimeTable {
        PrimeTable::default()
    }
}

impl PartialEq for PrimeTable {
    fn eq(&self, _: &PrimeTable) -> bool {
        true
    }
}

impl Eq for PrimeTable {}

impl PrimeTable {
    /// Calls `f` with every prime up to `n`, in increasing order.
    fn for_each_up_to(&self, n: usize, mut f: impl FnMut(usize)) {
        let known = self.known.read().unwrap_or_else(|e| e.into_inner());
        if known.0 >= n {
            known.1.iter().take_while(|&&p| p <= n).for_each(|&p| f(p));
            return;
        }
        drop(known);
        let mut known = self.known.write().unwrap_or_else(|e| e.into_inner());
        if known.0 < n {
            let bound = n.max(2 * known.0).max(64);
            *known = (bound, sieve(bound));
        }
        known.1.iter().take_while(|&&p| p <= n).for_each(|&p| f(p));
    }
}

/// The primes up to `bound` (Eratosthenes).
fn sieve(bound: usize) -> Vec<usize> {
    let mut composite = vec![false; bound + 1];
    let mut primes = Vec::new();
    for k in 2..=bound {
        if !composite[k] {
            primes.push(k);
            let mut multiple = k * k;
            while multiple <= bound {
                composite[multiple] = true;
                multiple += k;
            }
        }
    }
    primes
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

    /// Calls `f(s)` for every allowed amount `s <= n`, in increasing order
    /// (also the part sizes of a partition count, `grundy count --parts`).
    #[inline]
    pub(crate) fn for_each_amount(&self, n: usize, mut f: impl FnMut(usize)) {
        /// The members of a sequence `first, next(first), ...` up to `n`.
        fn walk(
            n: usize,
            first: usize,
            next: impl Fn(usize, usize) -> usize,
            f: impl FnMut(usize),
        ) {
            std::iter::successors(Some((first, 1usize)), |&(s, k)| Some((next(s, k), k + 1)))
                .map(|(s, _)| s)
                .take_while(|&s| s <= n)
                .for_each(f);
        }
        match &self.set {
            SubtractionSet::Finite(amounts) => {
                amounts.iter().take_while(|&&s| s <= n).for_each(|&s| f(s));
            }
            SubtractionSet::Squares => {
                (1..).map(|k| k * k).take_while(|&s| s <= n).for_each(f);
            }
            SubtractionSet::Primes(table) => table.for_each_up_to(n, f),
            SubtractionSet::PowersOfTwo => walk(n, 1, |s, _| s.saturating_mul(2), f),
            SubtractionSet::Factorials => walk(n, 1, |s, k| s.saturating_mul(k + 1), f),
            SubtractionSet::Triangular => walk(n, 1, |s, k| s.saturating_add(k + 1), f),
            SubtractionSet::Fibonacci => {
                let (mut a, mut b) = (1usize, 2usize);
                while a <= n {
                    f(a);
                    (a, b) = (b, a.saturating_add(b));
                }
            }
            SubtractionSet::Progression { first, step } => {
                (0..)
                    .map(|k: usize| first.saturating_add(k.saturating_mul(*step)))
                    .take_while(|&s| s <= n)
                    .for_each(f);
            }
            SubtractionSet::AllBut(excluded) => {
                let mut skip = excluded.iter().peekable();
                for s in 1..=n {
                    if skip.next_if_eq(&&s).is_none() {
                        f(s);
                    }
                }
            }
        }
    }
}

impl fmt::Display for Subtraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Runs of four or more consecutive amounts are written `a..b`.
        let list = |amounts: &[usize]| {
            let mut listed: Vec<String> = Vec::new();
            let mut rest = amounts;
            while let Some(&first) = rest.first() {
                let run = rest
                    .iter()
                    .zip(first..)
                    .take_while(|&(&amount, expected)| amount == expected)
                    .count();
                if run >= 4 {
                    listed.push(format!("{first}..{}", first + run - 1));
                    rest = &rest[run..];
                } else {
                    listed.push(first.to_string());
                    rest = &rest[1..];
                }
            }
            listed.join(",")
        };
        match &self.set {
            SubtractionSet::Finite(amounts) => write!(f, "sub({})", list(amounts)),
            SubtractionSet::AllBut(excluded) => write!(f, "allbut({})", list(excluded)),
            SubtractionSet::Progression { first, step } => write!(f, "sub({first}+{step}k)"),
            family => {
                let name = families()
                    .into_iter()
                    .find(|(_, set)| set == family)
                    .map_or("?", |(name, _)| name);
                write!(f, "sub({name})")
            }
        }
    }
}

/// The named infinite sets, as written inside `sub(...)`.
fn families() -> [(&'static str, SubtractionSet); 6] {
    [
        ("squares", SubtractionSet::Squares),
        ("primes", SubtractionSet::Primes(PrimeTable::default())),
        ("powers-of-2", SubtractionSet::PowersOfTwo),
        ("fibonacci", SubtractionSet::Fibonacci),
        ("factorials", SubtractionSet::Factorials),
        ("triangular", SubtractionSet::Triangular),
    ]
}

/// The most amounts `sub(...)` or `allbut(...)` may list, ranges
/// included (a set of more is a progression or `allbut`).
pub const MAX_LISTED_AMOUNTS: usize = 1 << 20;

impl FromStr for Subtraction {
    type Err = Error;

    /// Parses `sub(a,b,…)` with positive integers and inclusive ranges
    /// `a..b` (`sub(1..10,15)`; at most [`MAX_LISTED_AMOUNTS`] amounts in
    /// all), `sub(NAME)` for a named set (`squares`, `primes`,
    /// `powers-of-2`, `fibonacci`, `factorials`, `triangular`), `sub(a+dk)`
    /// for a progression, or `allbut(a,b,…)` (ranges too).
    fn from_str(spec: &str) -> Result<Subtraction> {
        let invalid = |reason: String| Error::InvalidSubtractionSet {
            spec: spec.to_owned(),
            reason,
        };
        let trimmed = spec.trim();
        let (all_but, inner) = if let Some(rest) = trimmed.strip_prefix("allbut(") {
            (true, rest)
        } else if let Some(rest) = trimmed.strip_prefix("sub(") {
            (false, rest)
        } else {
            return Err(invalid("expected 'sub(' or 'allbut(' at the start".into()));
        };
        let inner = inner
            .strip_suffix(')')
            .ok_or_else(|| invalid("expected ')' at the end".into()))?
            .trim();
        if !all_but {
            if let Some((_, set)) = families().into_iter().find(|(name, _)| *name == inner) {
                return Ok(Subtraction { set });
            }
            if let Some((first, step)) = inner.strip_suffix('k').and_then(|p| p.split_once('+')) {
                let number = |text: &str| {
                    let text = text.trim();
                    text.bytes()
                        .all(|b| b.is_ascii_digit())
                        .then(|| text.parse::<usize>().ok())
                        .flatten()
                        .filter(|&v| v > 0)
                        .ok_or_else(|| {
                            invalid(format!(
                                "'{text}' in a progression a+dk must be a positive integer"
                            ))
                        })
                };
                return Ok(Subtraction {
                    set: SubtractionSet::Progression {
                        first: number(first)?,
                        step: number(step)?,
                    },
                });
            }
        }
        if inner.is_empty() && !all_but {
            return Err(invalid("the set is empty".into()));
        }
        let amount = |item: &str| -> Result<usize> {
            let item = item.trim();
            if item.is_empty() {
                Err(invalid("an amount is missing".into()))
            } else if item.starts_with('-') {
                Err(invalid(format!(
                    "'{item}' is negative; amounts must be positive"
                )))
            } else if !item.bytes().all(|b| b.is_ascii_digit()) {
                Err(invalid(format!(
                    "'{item}' is not a positive integer, a range a..b or the name of a set \
                     (squares, primes, powers-of-2, fibonacci, factorials, triangular)"
                )))
            } else {
                match item.parse::<usize>() {
                    Ok(0) => Err(invalid("removing 0 tokens is not a move".into())),
                    Ok(s) => Ok(s),
                    Err(_) => Err(invalid(format!("'{item}' is too large"))),
                }
            }
        };
        let mut amounts: Vec<usize> = Vec::new();
        for item in inner.split(',').filter(|_| !inner.is_empty()) {
            let (low, high) = match item.split_once("..") {
                Some((low, high)) => (amount(low)?, amount(high)?),
                None => {
                    let single = amount(item)?;
                    (single, single)
                }
            };
            if low > high {
                return Err(invalid(format!(
                    "the range '{}' is empty: write it low..high",
                    item.trim()
                )));
            }
            if (high - low) as u64 + amounts.len() as u64 >= MAX_LISTED_AMOUNTS as u64 {
                return Err(invalid(format!(
                    "more than {MAX_LISTED_AMOUNTS} amounts listed: write a long set as \
                     allbut(...) or a progression a+dk"
                )));
            }
            amounts.extend(low..=high);
        }
        if all_but {
            let mut excluded = amounts;
            excluded.sort_unstable();
            excluded.dedup();
            return Ok(Subtraction {
                set: SubtractionSet::AllBut(excluded),
            });
        }
        Subtraction::finite(amounts)
    }
}

impl Ruleset for Subtraction {
    type Position = usize;

    fn options(&self, &n: &usize, out: &mut Options<usize>) {
        let _ = self.visit_options(n, &mut |parts| {
            out.push(parts.iter().copied());
            ControlFlow::Continue(())
        });
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
            _ => self.for_each_amount(n, |s| seen.insert(values[n - s])),
        }
        Ok(())
    }

    fn visit_options(
        &self,
        n: usize,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        // Removing the whole heap leaves nothing, not an empty heap. At
        // most `n` options: the rest are skipped once `visit` breaks.
        let mut flow = ControlFlow::Continue(());
        self.for_each_amount(n, |s| {
            if flow.is_continue() {
                flow = if s < n { visit(&[n - s]) } else { visit(&[]) };
            }
        });
        flow
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_list_every_amount_and_are_written_back_as_ranges() {
        let ranged: Subtraction = "sub(1..10, 15)".parse().unwrap();
        let listed = Subtraction::finite((1..=10).chain([15])).unwrap();
        assert_eq!(ranged, listed);
        // Runs of four or more are written as ranges, so the name reads
        // back as the same game.
        assert_eq!(ranged.to_string(), "sub(1..10,15)");
        assert_eq!(
            "sub(1,2,3,5)".parse::<Subtraction>().unwrap().to_string(),
            "sub(1,2,3,5)"
        );
        assert_eq!(ranged.to_string().parse::<Subtraction>().unwrap(), ranged);
        let all_but: Subtraction = "allbut(2..5)".parse().unwrap();
        assert_eq!(all_but, "allbut(2,3,4,5)".parse().unwrap());
        assert_eq!(all_but.to_string(), "allbut(2..5)");
        // The values are those of the listed set.
        let solver = crate::TableSolver::new();
        assert_eq!(
            solver.values(&ranged, 200).unwrap().to_vec(),
            solver.values(&listed, 200).unwrap().to_vec()
        );
    }

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
            "sub(cubes)",
            "sub(0+3k)",
            "sub(2+0k)",
            "sub(x+1k)",
            "allbut(1,x)",
            "sub(5..1)",
            "sub(0..3)",
            "sub(1..)",
            "sub(..3)",
            "sub(1..2..3)",
            "sub(1..2000000)",
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
