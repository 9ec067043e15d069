//! Counting positions by value instead of enumerating them.
//!
//! A position of `k` heaps is a P-position exactly when the nim-sum of its
//! values is zero, so counting P-positions among all `k`-heap positions only
//! needs, for each component, how many heaps have each value — a
//! [`Histogram`] — and the XOR convolution of those histograms:
//! `(A * B)[s] = sum_{x ^ y = s} A[x] B[y]`. The Walsh–Hadamard transform
//! `W` turns XOR convolution into a pointwise product
//! (`W(A * B) = W(A) W(B)`, and `W(W(A)) = V A` for `V` values), so `k`
//! components cost `O(k V log V)`.
//!
//! - Unordered positions (`a <= b <= c`, heaps from one range) by their
//!   generating function: the multisets of heaps are the coefficients of
//!   `prod_h 1 / (1 - y x^{g(h)})`, the sets of distinct heaps those of
//!   `prod_h (1 + y x^{g(h)})`, with `x` multiplied by XOR and `y` counting
//!   heaps. At transform point `w` each heap's `x^{g(h)}` becomes its sign
//!   `+1` or `-1`; if `P` heaps have `+1` and `M` have `-1` (so `P - M` is
//!   `W(H)(w)` and `P + M = N`), the product is `(1 - y)^{-P} (1 + y)^{-M}`
//!   (or `(1 + y)^P (1 - y)^M`), whose coefficient of `y^k` follows a
//!   three-term recurrence in `k` steps (see `coefficients_by_recurrence`).
//!   Ordered tuples of distinct heaps are the sets times `k!`.
//! - `c` copies of one component are `W(H)^c`, a pointwise power.
//! - Histograms of games with a proven period come from it, for ranges up
//!   to `10^18` heaps: the heaps before the pre-period, whole periods, and
//!   a remainder; other games are tabulated within the memory limit.
//!
//! Counts are exact big integers, or residues modulo `m`: with the
//! transform when `m` is odd (so `V = 2^b` is invertible), by direct
//! convolution otherwise; counts of unordered positions take residues at
//! every step modulo an odd prime above the number of heaps, and are
//! computed exactly and reduced modulo any other `m`.

use std::fmt;

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};

use super::{Formula, Limits, Periodicity, analyze};
use crate::rules::PairGame;
use crate::transform::walsh_hadamard;
use crate::{Error, HeapRuleset, Result, TableSolver, ValueTable};

/// Without a proven period, ranges are tabulated up to this many heaps, or
/// up to the analysis bound (`--max`) when that is larger.
pub const TABULATE_LIMIT: u64 = 1 << 22;

/// The most values a histogram counted by a formula may have (each costs
/// sixteen bytes, and the nim-sum counts that follow grow with them).
const FORMULA_VALUES: u64 = 1 << 20;

/// How many heaps of a range have each value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    /// `counts[v]`: heaps in the range with value `v`.
    pub counts: Vec<u128>,
    /// How the counts were obtained.
    pub source: HistogramSource,
}

/// Where a [`Histogram`]'s counts come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistogramSource {
    /// Every heap of the range was computed.
    Tabulated,
    /// Counted through a period proven by a theorem.
    Period {
        /// Where the period starts.
        preperiod: usize,
        /// Its length.
        period: usize,
    },
    /// Heaps up to `verified_to` were computed; past them the counts are
    /// those of a formula that fits every computed value from its start
    /// on. Unless `proven`, they are a conjecture past `verified_to`.
    Formula {
        /// The formula, in words.
        formula: String,
        /// The last heap computed.
        verified_to: u64,
        /// Whether a proven period implies the formula for every heap.
        proven: bool,
    },
    /// Given by the user ([`Histogram::parse`]): a published histogram or
    /// a table of values, trusted as it is.
    Given,
}

/// The largest value a given histogram may have: its counts become a
/// transform of the next power of two, 16 bytes a value for each heap
/// counted together.
pub const GIVEN_VALUE_LIMIT: usize = 1 << 20;

impl Histogram {
    /// The number of heaps counted.
    pub fn heaps(&self) -> u128 {
        self.counts.iter().sum()
    }

    /// A histogram the user gives as text, in either of two forms:
    ///
    /// - `value count` lines, as Rogalski publishes the histograms of his
    ///   record runs (`0 1`, `1 611062`, ...; lines with a count of 0
    ///   allowed; a value may not repeat);
    /// - a table of values, one heap's value after another, separated by
    ///   spaces, commas or line breaks (`0 1 1 2 0 3 1 1 0 3 3 2 2 4`);
    ///   each value counts one heap.
    ///
    /// Blank lines and `#` comments are skipped. The form is the first
    /// line's: two numbers on it mean `value count` lines. Values are at
    /// most [`GIVEN_VALUE_LIMIT`], counts at most `2^128 - 1` in total.
    pub fn parse(text: &str) -> Result<Histogram> {
        let invalid = |line: usize, reason: String| Error::InvalidRange {
            reason: format!("histogram line {line}: {reason}"),
        };
        let number = |line: usize, word: &str| {
            word.parse::<u128>()
                .map_err(|_| invalid(line, format!("'{word}' is not a non-negative integer")))
        };
        let value = |line: usize, word: &str| {
            number(line, word).and_then(|v| {
                usize::try_from(v)
                    .ok()
                    .filter(|&v| v <= GIVEN_VALUE_LIMIT)
                    .ok_or_else(|| invalid(line, format!("value {v} is past {GIVEN_VALUE_LIMIT}")))
            })
        };
        let lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or_default().trim()))
            .filter(|(_, l)| !l.is_empty());
        let mut counts: Vec<u128> = Vec::new();
        let mut seen: Vec<bool> = Vec::new();
        let mut pairs = None;
        for (line, content) in lines {
            let words: Vec<&str> = content
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .collect();
            let as_pairs = *pairs.get_or_insert(words.len() == 2 && !content.contains(','));
            if as_pairs {
                let [v, c] = words[..] else {
                    return Err(invalid(line, "write 'value count'".to_owned()));
                };
                let (v, c) = (value(line, v)?, number(line, c)?);
                if v >= counts.len() {
                    counts.resize(v + 1, 0);
                    seen.resize(v + 1, false);
                }
                if std::mem::replace(&mut seen[v], true) {
                    return Err(invalid(line, format!("value {v} is listed twice")));
                }
                counts[v] = c;
            } else {
                for word in words {
                    let v = value(line, word)?;
                    if v >= counts.len() {
                        counts.resize(v + 1, 0);
                    }
                    counts[v] += 1;
                }
            }
        }
        Histogram::given(counts)
    }

    /// The histogram of `(value, count)` pairs a user gives (each value
    /// once), checked as [`Histogram::given`] checks.
    pub fn of_pairs(pairs: impl IntoIterator<Item = (usize, u128)>) -> Result<Histogram> {
        let mut counts = Vec::new();
        for (v, c) in pairs {
            if v > GIVEN_VALUE_LIMIT {
                return Err(Error::InvalidRange {
                    reason: format!("the histogram has values past {GIVEN_VALUE_LIMIT}"),
                });
            }
            if v >= counts.len() {
                counts.resize(v + 1, 0);
            }
            counts[v] = c;
        }
        Histogram::given(counts)
    }

    /// The histogram with `counts[v]` heaps of value `v`, as a user gives
    /// it: values at most [`GIVEN_VALUE_LIMIT`], at least one heap, at
    /// most `2^128 - 1` in all.
    pub fn given(mut counts: Vec<u128>) -> Result<Histogram> {
        while counts.last() == Some(&0) {
            counts.pop();
        }
        let refuse = |reason: &str| {
            Err(Error::InvalidRange {
                reason: format!("the histogram {reason}"),
            })
        };
        if counts.len() > GIVEN_VALUE_LIMIT + 1 {
            return refuse(&format!("has values past {GIVEN_VALUE_LIMIT}"));
        }
        if counts
            .iter()
            .try_fold(0u128, |sum, &c| sum.checked_add(c))
            .is_none()
        {
            return refuse("counts more than 2^128 - 1 heaps");
        }
        if counts.is_empty() {
            return refuse("counts no heap");
        }
        Ok(Histogram {
            counts,
            source: HistogramSource::Given,
        })
    }
}

/// The value histogram of any heap game over heaps `from..=to`.
///
/// ```
/// use grundy::analysis::{value_histogram, Limits};
/// let kayles: grundy::HeapGame = "kayles".parse().unwrap();
/// let h = value_histogram(&kayles, 1, 1_000_000_000_000_000_000, &grundy::TableSolver::new(), &Limits::default())?;
/// assert_eq!(h.heaps(), 1_000_000_000_000_000_000);
/// # Ok::<(), grundy::Error>(())
/// ```
///
/// A game with a periodicity theorem is analysed first (up to `limits.max`
/// heaps, or `to` if smaller); a proven plain period counts any range up to
/// `10^18` as whole periods and a remainder. Otherwise the range is
/// tabulated, up to [`TABULATE_LIMIT`] heaps (or `limits.max`, if larger)
/// and within the solver's memory limit.
pub fn value_histogram<G: HeapRuleset + fmt::Display + ?Sized>(
    game: &G,
    from: u64,
    to: u64,
    solver: &TableSolver,
    limits: &Limits,
) -> Result<Histogram> {
    non_empty(from, to)?;
    let mut values = ValueTable::new();
    if let Some(found) = super::analyze_toward_proof(game, to, limits.max, solver, &mut |_| true)? {
        if let Some(period) = found.proven_periodicity().filter(|p| p.saltus == 0) {
            return Ok(periodic_histogram(&found.values, &period, from, to));
        }
        values = found.values;
    }
    let tabulate = limits.max.max(TABULATE_LIMIT);
    if to > tabulate || solver.check_fits(to).is_err() {
        let why = if values.is_empty() {
            format!("no periodicity theorem covers {game}")
        } else {
            format!(
                "{game} has none within {} heaps",
                values.len().saturating_sub(1)
            )
        };
        return Err(Error::Refused {
            knob: crate::Knob::PastTheTable,
            reason: format!(
                "counting heaps up to {to} needs a proven period, and {why}; without one, \
                 ranges are tabulated up to {tabulate} heaps (raise the analysis bound to \
                 tabulate further, within the memory limit, or count past the table by the \
                 values' formula)"
            ),
        });
    }
    solver.extend(game, &mut values, to, &mut |_| true)?;
    let mut counts = Vec::new();
    for v in values.iter().take(to as usize + 1).skip(from as usize) {
        add(&mut counts, v.index(), 1);
    }
    Ok(Histogram {
        counts,
        source: HistogramSource::Tabulated,
    })
}

/// How a count goes on past the heaps it computes where no period is
/// proven (`grundy count --by-formula` or `--formula F`, the web's and
/// Python's `by_formula`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ByFormula {
    /// It does not: such a range is refused.
    #[default]
    No,
    /// By the formula [`super::guess_formula`] finds for the computed
    /// values, where the range is past the table.
    Guessed,
    /// By this formula, which the user writes: it is checked against every
    /// computed value of the range from the formula's first heap on
    /// ([`Formula::first_heap`]), whatever the range, and a wrong one is
    /// refused ([`Error::FormulaRefuted`]).
    Given(Formula),
}

/// [`value_histogram`], or by a formula as `by_formula` asks: a guessed
/// formula takes over where the range is refused for want of a proven
/// period ([`formula_histogram`]), a given one is always checked and used.
/// The one choice `grundy count`, the web's `/api/count` and Python's
/// `count_heaps` share.
pub fn range_histogram<G: HeapRuleset + fmt::Display + ?Sized>(
    game: &G,
    from: u64,
    to: u64,
    solver: &TableSolver,
    limits: &Limits,
    by_formula: &ByFormula,
) -> Result<Histogram> {
    match by_formula {
        ByFormula::No => value_histogram(game, from, to, solver, limits),
        ByFormula::Guessed => match value_histogram(game, from, to, solver, limits) {
            Err(Error::Refused {
                knob: crate::Knob::PastTheTable,
                ..
            }) if from <= to => formula_histogram(game, from, to, solver, limits, None),
            counted => counted,
        },
        ByFormula::Given(formula) => {
            formula_histogram(game, from, to, solver, limits, Some(formula))
        }
    }
}

/// Refuses an empty range `from..=to`.
fn non_empty(from: u64, to: u64) -> Result<()> {
    if from > to {
        return Err(Error::InvalidRange {
            reason: format!("the range {from}..={to} is empty"),
        });
    }
    Ok(())
}

/// The value histogram of heaps `from..=to` by a formula (`grundy count
/// --by-formula`, or `--formula F` with `given`): the heaps up to the
/// tabulation bound (`limits.to` when given, else [`TABULATE_LIMIT`] or
/// `limits.max` if larger; `to` if smaller) are computed and counted; past
/// them, the heaps are counted by the formula ([`Formula::counts_between`]:
/// a family without listing them, an expression heap by heap within the
/// sieve's limits). Without `given` the formula is the one
/// [`super::guess_formula`] finds for every computed value from its start
/// on; a `given` one must fit every computed heap of the range from its
/// [`Formula::first_heap`] on, or the count is refused naming the first
/// heap where it fails. What is counted past the table is a conjecture
/// unless a proven period implies the formula ([`super::Guess::is_proven_by`]);
/// the source says which.
pub fn formula_histogram<G: HeapRuleset + fmt::Display + ?Sized>(
    game: &G,
    from: u64,
    to: u64,
    solver: &TableSolver,
    limits: &Limits,
    given: Option<&Formula>,
) -> Result<Histogram> {
    non_empty(from, to)?;
    let table_to = to.min(limits.to.unwrap_or(limits.max.max(TABULATE_LIMIT)));
    solver.check_fits(table_to)?;
    let exact = Limits {
        to: Some(table_to),
        ..limits.clone()
    };
    let found = analyze(game, &exact, solver, &mut |_| true)?;
    // Every heap up to `table_to`: computed, or through a proven period.
    let values = &found.values_to_end()?;
    let mut counts = Vec::new();
    for v in values.iter().take(to as usize + 1).skip(from as usize) {
        add(&mut counts, v.index(), 1);
    }
    let computed = (values.len() as u64).saturating_sub(1);
    let no_formula = |why: &str| Error::Refused {
        reason: format!(
            "counting heaps up to {to} of {game} by a formula: {why} (computed g(0..={computed}); \
             raise the analysis bound to compute further)"
        ),
        knob: crate::Knob::Max,
    };
    let guess = match given {
        Some(formula) => {
            let first = formula.first_heap().max(from);
            if first > computed {
                return Err(no_formula(&format!(
                    "{formula} starts at heap {first}, past the heaps computed"
                )));
            }
            let wrong =
                formula.first_difference(first, computed, |n| u64::from(values.at(n as usize)))?;
            if let Some(heap) = wrong {
                return Err(Error::FormulaRefuted {
                    formula: formula.to_string(),
                    game: game.to_string(),
                    heap,
                    value: u64::from(values.at(heap as usize)),
                    predicted: formula.eval(heap),
                    from: first,
                    checked_to: computed,
                });
            }
            super::Guess {
                formula: formula.clone(),
                from: first as usize,
                exceptions: Vec::new(),
            }
        }
        None if to <= computed => {
            return Ok(Histogram {
                counts,
                source: HistogramSource::Tabulated,
            });
        }
        None => super::guess_formula(&values.to_vec())
            .ok_or_else(|| no_formula("no formula fits the values computed"))?,
    };
    if to <= computed {
        return Ok(Histogram {
            counts,
            source: HistogramSource::Tabulated,
        });
    }
    let proven = guess.is_proven_by(&found);
    let beyond = guess
        .formula
        .counts_between(from.max(computed + 1), to, FORMULA_VALUES)?
        .ok_or_else(|| {
            no_formula(&format!(
                "the values follow {}, which does not count a range without listing it",
                guess.formula
            ))
        })?;
    for (v, c) in beyond.into_iter().enumerate() {
        add(&mut counts, v, c);
    }
    Ok(Histogram {
        counts,
        source: HistogramSource::Formula {
            formula: guess.formula.to_string(),
            verified_to: computed,
            proven,
        },
    })
}

/// The histogram of heaps `from..=to` of a sequence periodic from
/// `period.preperiod` (saltus zero), given its values up to at least one
/// period past the pre-period.
fn periodic_histogram(values: &ValueTable, period: &Periodicity, from: u64, to: u64) -> Histogram {
    Histogram {
        counts: periodic_counts(values, period, from, to),
        source: HistogramSource::Period {
            preperiod: period.preperiod,
            period: period.period,
        },
    }
}

/// `counts[v]`: how many heaps of `from..=to` have value `v`, where
/// `period` holds for every heap and `values` holds at least the heaps up
/// to its first repetition (`preperiod + period`). Heaps before that are
/// read from `values`; each later heap `n0 + r + kp` (`k >= 1`) is worth
/// `g(n0 + r) + ks`, so for each offset `r` the heaps of the range add one
/// to every value of an arithmetic progression of step `s`: a difference
/// array over values with stride `s` counts them all in time proportional
/// to the period and the largest value, not to the range. With `s = 0` a
/// progression is one value counted `k` times.
pub fn periodic_counts(values: &ValueTable, period: &Periodicity, from: u64, to: u64) -> Vec<u128> {
    let (n0, p, s) = (
        period.preperiod as u128,
        period.period as u128,
        u128::from(period.saltus),
    );
    let (from, to) = (u128::from(from), u128::from(to));
    let mut counts = Vec::new();
    let direct_end = to.min(n0 + p - 1);
    for n in from..=direct_end {
        add(&mut counts, values.at(n as usize).index(), 1);
    }
    if to < n0 + p {
        return trimmed(counts);
    }
    // Heaps n0 + r + k p with k >= 1 and from <= n <= to.
    let mut steps: Vec<(usize, usize)> = Vec::new(); // (first value, last value) of each progression
    for r in 0..p {
        let base = n0 + r;
        let k_low = from.saturating_sub(base).div_ceil(p).max(1);
        if base + k_low * p > to {
            continue;
        }
        let k_high = (to - base) / p;
        let value = u128::from(values.at(base as usize).get());
        if s == 0 {
            add(&mut counts, value as usize, k_high - k_low + 1);
        } else {
            steps.push(((value + s * k_low) as usize, (value + s * k_high) as usize));
        }
    }
    if steps.is_empty() {
        return trimmed(counts);
    }
    let stride = s as usize;
    let last = steps.iter().map(|&(_, high)| high).max().unwrap_or(0);
    let mut starts = vec![0u128; last + stride + 1];
    for &(low, high) in &steps {
        starts[low] = starts[low].wrapping_add(1);
        starts[high + stride] = starts[high + stride].wrapping_sub(1);
    }
    // A running count per residue class of the stride.
    for v in 0..=last {
        let running = if v >= stride {
            starts[v - stride].wrapping_add(starts[v])
        } else {
            starts[v]
        };
        starts[v] = running;
        if running > 0 {
            add(&mut counts, v, running);
        }
    }
    trimmed(counts)
}

/// `counts` without trailing zeros.
fn trimmed(mut counts: Vec<u128>) -> Vec<u128> {
    while counts.last() == Some(&0) {
        counts.pop();
    }
    counts
}

fn add(counts: &mut Vec<u128>, v: usize, c: u128) {
    if v >= counts.len() {
        counts.resize(v + 1, 0);
    }
    counts[v] += c;
}

/// The value histogram of the positions `(a, b)` of a pair game with both
/// coordinates in `from..=to`.
///
/// `rook(A,B)` is the sum of its coordinates, so its histogram is the XOR
/// convolution of the histograms of `A` and `B` over the range (each found
/// by [`value_histogram`], through a proven period where there is one);
/// Wythoff's game is tabulated, within the solver's memory limit.
///
/// ```
/// use grundy::analysis::{pair_histogram, Limits};
/// use grundy::rules::PairGame;
/// let rook = PairGame::parse("rook").unwrap()?;
/// // Two-heap Nim on 0..=3: the P-positions are the 4 pairs (a, a).
/// let h = pair_histogram(&rook, 0, 3, &grundy::TableSolver::new(), &Limits::default())?;
/// assert_eq!(h.counts[0], 4);
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn pair_histogram(
    game: &PairGame,
    from: u64,
    to: u64,
    solver: &TableSolver,
    limits: &Limits,
) -> Result<Histogram> {
    match game {
        PairGame::Rook(across, down) => {
            let a = value_histogram(across.as_ref(), from, to, solver, limits)?;
            let b = value_histogram(down.as_ref(), from, to, solver, limits)?;
            let width = (a.counts.len().max(b.counts.len())).next_power_of_two();
            let mut counts = vec![0u128; width];
            for (x, &ca) in a.counts.iter().enumerate() {
                for (y, &cb) in b.counts.iter().enumerate() {
                    counts[x ^ y] += ca * cb;
                }
            }
            while counts.last() == Some(&0) {
                counts.pop();
            }
            let source = match (a.source, b.source) {
                (HistogramSource::Tabulated, HistogramSource::Tabulated) => {
                    HistogramSource::Tabulated
                }
                (period @ HistogramSource::Period { .. }, _) | (_, period) => period,
            };
            Ok(Histogram { counts, source })
        }
        PairGame::Wythoff => {
            if from > to {
                return Err(Error::InvalidRange {
                    reason: format!("the range {from}..={to} is empty"),
                });
            }
            let table = game.table(to, solver.memory_limit())?;
            let mut counts = Vec::new();
            for row in table.iter().skip(from as usize) {
                for v in row.iter().skip(from as usize) {
                    add(&mut counts, v.index(), 1);
                }
            }
            Ok(Histogram {
                counts,
                source: HistogramSource::Tabulated,
            })
        }
    }
}

/// How counts are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arithmetic {
    /// Exact big integers.
    Exact,
    /// Residues modulo `m >= 1`.
    Modulo(u64),
}

/// Which `k`-heap positions are counted, for heaps from one range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tuples {
    /// Ordered tuples: `(1, 2)` and `(2, 1)` are two positions.
    Ordered,
    /// Ordered tuples of distinct heaps.
    OrderedDistinct,
    /// Multisets `a <= b <= ...`: the heaps of a position played together,
    /// in any order.
    Unordered,
    /// Sets `a < b < ...`: unordered, with distinct heaps.
    Distinct,
}

/// Counts of positions by nim-sum: `by_nim_sum[s]` positions have nim-sum
/// `s`; `by_nim_sum[0]` are the P-positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NimSumCounts {
    /// Indexed by nim-sum, over a power-of-two number of values.
    pub by_nim_sum: Vec<BigUint>,
    /// All positions counted (modulo `m` when counting modulo `m`).
    pub total: BigUint,
}

impl NimSumCounts {
    /// The P-positions: nim-sum zero, the player to move loses.
    pub fn p_positions(&self) -> &BigUint {
        &self.by_nim_sum[0]
    }

    /// The N-positions: nim-sum not zero, the player to move wins; modulo
    /// `modulus` when the counts are residues.
    pub fn n_positions(&self, modulus: Option<u64>) -> BigUint {
        let losses = self.p_positions();
        match modulus {
            Some(m) => {
                let m = BigUint::from(m);
                (&self.total + &m - losses % &m) % &m
            }
            None => &self.total - losses,
        }
    }
}

/// Positions of one heap from each of `ranges` (ordered), by nim-sum.
pub fn count_ordered(ranges: &[Histogram], arithmetic: Arithmetic) -> NimSumCounts {
    let size = transform_size(ranges.iter());
    match arithmetic {
        Arithmetic::Modulo(m) if m.is_multiple_of(2) => {
            // 2^b has no inverse: convolve directly.
            let ring = Residues(m);
            let mut product = ring.delta(size);
            for h in ranges {
                product = ring.convolve(&product, &ring.lift(h, size));
            }
            ring.finish(product)
        }
        Arithmetic::Modulo(m) => {
            let ring = Residues(m);
            let mut product = vec![ring.one(); size];
            for h in ranges {
                let t = ring.transform(ring.lift(h, size));
                product = product
                    .iter()
                    .zip(&t)
                    .map(|(a, b)| ring.mul(a, b))
                    .collect();
            }
            let back = ring.untransform(product);
            ring.finish(back)
        }
        Arithmetic::Exact => {
            let mut product = vec![BigInt::one(); size];
            for h in ranges {
                let t = Exact.transform(Exact.lift(h, size));
                product = product.iter().zip(&t).map(|(a, b)| a * b).collect();
            }
            Exact.finish(Exact.untransform(product))
        }
    }
}

/// Exact counts of more copies than this would have millions of digits.
pub const EXACT_COPIES_LIMIT: u64 = 100_000;

/// The most heaps a count of unordered positions, or of ordered ones of
/// distinct heaps, takes (each transform point runs a recurrence of `k`
/// steps; see `coefficients_by_recurrence`).
pub const UNORDERED_HEAPS_LIMIT: u64 = 1_000_000;

/// The default for the most machine-word operations an unordered count may
/// cost (about ten seconds on one core): transform points times heaps,
/// times the words of the numbers when counting exactly (see
/// `unordered_cost`).
pub const UNORDERED_WORK_LIMIT: u64 = 1_000_000_000;

/// The budgets of [`count_tuples`] for unordered and distinct counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TupleBudget {
    /// The most heaps a position may have (default
    /// [`UNORDERED_HEAPS_LIMIT`]; the recurrence keeps a table of `k`
    /// inverses modulo a prime).
    pub max_heaps: u64,
    /// The most machine-word operations (`unordered_cost`; default
    /// [`UNORDERED_WORK_LIMIT`]).
    pub work: u64,
}

impl Default for TupleBudget {
    fn default() -> TupleBudget {
        TupleBudget {
            max_heaps: UNORDERED_HEAPS_LIMIT,
            work: UNORDERED_WORK_LIMIT,
        }
    }
}

/// `copies` heaps from one range played together, ordered, by nim-sum:
/// the transform raised to the power `copies`. Exact counts are limited to
/// [`EXACT_COPIES_LIMIT`] copies; residues to none.
pub fn count_copies(
    range: &Histogram,
    copies: u64,
    arithmetic: Arithmetic,
) -> Result<NimSumCounts> {
    if arithmetic == Arithmetic::Exact && copies > EXACT_COPIES_LIMIT {
        return Err(Error::InvalidRange {
            reason: format!(
                "exact counts of {copies} heaps would have millions of digits; count modulo m \
                 instead (at most {EXACT_COPIES_LIMIT} heaps exactly)"
            ),
        });
    }
    let size = transform_size(std::iter::once(range));
    Ok(match arithmetic {
        Arithmetic::Modulo(m) if m.is_multiple_of(2) => {
            // Exponentiation by squaring of the convolution itself.
            let ring = Residues(m);
            let (mut result, mut base, mut e) = (ring.delta(size), ring.lift(range, size), copies);
            while e > 0 {
                if e & 1 == 1 {
                    result = ring.convolve(&result, &base);
                }
                base = ring.convolve(&base, &base);
                e >>= 1;
            }
            ring.finish(result)
        }
        Arithmetic::Modulo(m) => {
            let ring = Residues(m);
            let t = ring.transform(ring.lift(range, size));
            let powered = t.iter().map(|&x| ring.pow(x, u128::from(copies))).collect();
            ring.finish(ring.untransform(powered))
        }
        Arithmetic::Exact => {
            // copies <= EXACT_COPIES_LIMIT fits in u32.
            let t = Exact.transform(Exact.lift(range, size));
            let powered = t.iter().map(|x| x.pow(copies as u32)).collect();
            Exact.finish(Exact.untransform(powered))
        }
    })
}

/// `k` heaps from one range played together, by nim-sum, as ordered
/// tuples, multisets or sets (by generating functions; see the module
/// notes), within `budget` unless ordered: at most `budget.max_heaps`
/// heaps (past them, [`Error::TooManyHeaps`]) and `budget.work`
/// operations (`unordered_cost`).
///
/// Modulo a prime `m > k` every step is a residue operation; otherwise the
/// counts are computed exactly and then reduced.
pub fn count_tuples(
    range: &Histogram,
    k: u64,
    tuples: Tuples,
    arithmetic: Arithmetic,
    budget: TupleBudget,
) -> Result<NimSumCounts> {
    if tuples == Tuples::Ordered {
        let size = transform_size(std::iter::once(range));
        let cost = copies_cost(range.heaps(), k, size, arithmetic);
        if cost > budget.work as f64 {
            return Err(Error::WorkLimit {
                what: format!(
                    "counting ordered positions of {k} heaps from {} heaps with {size} values",
                    range.heaps()
                ),
                at_least: cost as u128,
                limit: budget.work,
            });
        }
        return count_copies(range, k, arithmetic);
    }
    let kind = match tuples {
        Tuples::OrderedDistinct => "ordered positions of distinct heaps",
        _ => "unordered positions",
    };
    if k > budget.max_heaps {
        return Err(Error::TooManyHeaps {
            kind,
            heaps: k,
            limit: budget.max_heaps,
        });
    }
    let size = transform_size(std::iter::once(range));
    let residues = match arithmetic {
        // An odd prime above k: the divisions by 1..=k and by the transform
        // size are multiplications by inverses.
        Arithmetic::Modulo(m) if m > k && m > 2 && is_prime(m) => Some(Residues(m)),
        _ => None,
    };
    let cost = unordered_cost(range.heaps(), k, size, residues.is_some());
    let work_limit = budget.work;
    if cost > work_limit as f64 {
        return Err(Error::WorkLimit {
            what: format!(
                "counting {kind} of {k} heaps from {} heaps{}",
                range.heaps(),
                if residues.is_some() {
                    ""
                } else {
                    " exactly (counts modulo a prime larger than the number of heaps take \
                     residues at every step, far fewer operations)"
                }
            ),
            at_least: cost as u128,
            limit: work_limit,
        });
    }
    let sets = matches!(tuples, Tuples::Distinct | Tuples::OrderedDistinct);
    let k = k as usize;
    // At most 10^18 + 1 heaps per range.
    let heaps = range.heaps() as i128;
    if let Some(Residues(p)) = residues {
        let field = PrimeResidues::new(p, k);
        let ring = &field.ring;
        let sum = at_every_point(range, size, |signed| {
            coefficients_by_recurrence(&field, k, signed, heaps, sets)
        });
        let counts = ring.untransform(sum);
        let counts = match tuples {
            Tuples::OrderedDistinct => {
                let k_factorial = (1..=k as u64).fold(ring.one(), |acc, i| ring.mul(&acc, &i));
                counts.iter().map(|c| ring.mul(c, &k_factorial)).collect()
            }
            _ => counts,
        };
        return Ok(ring.finish(counts));
    }
    let sum = at_every_point(range, size, |signed| {
        coefficients_by_recurrence(&Exact, k, signed, heaps, sets)
    });
    let counts = Exact.untransform(sum);
    // Sets times k! orders are the ordered tuples of distinct heaps.
    let exact = Exact.finish(match tuples {
        Tuples::OrderedDistinct => {
            let k_factorial = factorial(k);
            counts.into_iter().map(|c| c * &k_factorial).collect()
        }
        _ => counts,
    });
    Ok(match arithmetic {
        Arithmetic::Exact => exact,
        Arithmetic::Modulo(m) => NimSumCounts {
            by_nim_sum: exact.by_nim_sum.iter().map(|c| c % m).collect(),
            total: exact.total % m,
        },
    })
}

/// `coefficient(P - M)` at every transform point of a histogram, where
/// `P - M` (the heaps of sign `+1` less those of sign `-1`) is the
/// transform's value there: computed once for each distinct value, on
/// every core.
fn at_every_point<T: Clone + Send>(
    range: &Histogram,
    size: usize,
    coefficient: impl Fn(i128) -> T + Sync,
) -> Vec<T> {
    // At most 10^18 + 1 heaps per range, so every value fits.
    let mut signed: Vec<i128> = range.counts.iter().map(|&c| c as i128).collect();
    signed.resize(size, 0);
    walsh_hadamard(&mut signed, |a, b| (a + b, a - b));
    let mut distinct = signed.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = distinct.len().div_ceil(threads).max(1);
    let coefficient = &coefficient;
    let computed: Vec<T> = std::thread::scope(|scope| {
        let workers: Vec<_> = distinct
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || part.iter().map(|&s| coefficient(s)).collect::<Vec<T>>())
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a coefficient worker panicked"))
            .collect()
    });
    signed
        .iter()
        .map(|s| computed[distinct.binary_search(s).expect("every value is listed")].clone())
        .collect()
}

/// The estimated cost, in machine-word operations, of [`count_copies`]:
/// two transforms of `points` values (`points log2 points` additions each)
/// and a power at every point, on numbers of up to `k log2(heaps + 1)`
/// bits when exact (the counts are at most `heaps^k`), of `log2 k`
/// residue multiplications modulo an odd number; an even modulus has no
/// inverse of the transform's size, so the convolution is squared.
fn copies_cost(heaps: u128, k: u64, points: usize, arithmetic: Arithmetic) -> f64 {
    let points = points as f64;
    let passes = 2.0 * points * points.log2().max(1.0);
    match arithmetic {
        // An even modulus squares the convolution itself: points^2 a step.
        Arithmetic::Modulo(m) if m.is_multiple_of(2) => {
            2.0 * points * points * (k.max(2) as f64).log2()
        }
        Arithmetic::Modulo(_) => passes + points * (k.max(2) as f64).log2() * 2.0,
        Arithmetic::Exact => {
            let words = (k as f64 * ((heaps as f64) + 1.0).log2() / 64.0).max(1.0);
            (passes + points * (k.max(2) as f64).log2()) * words
        }
    }
}

/// The estimated cost, in machine-word operations, of counting positions
/// of `k` heaps from `heaps` heaps over `points` transform points: `k`
/// recurrence steps per point, each on numbers of up to
/// `log2 C(heaps + k, k)` bits when exact (bounded by the binary entropy:
/// `log2 C(n, k) <= n H(k / n)`), one residue operation when modular.
pub fn unordered_cost(heaps: u128, k: u64, points: usize, modular: bool) -> f64 {
    let per_step = if modular {
        1.0
    } else {
        let n = heaps as f64 + k as f64;
        let q = k as f64 / n.max(1.0);
        let entropy = if q <= 0.0 || q >= 1.0 {
            0.0
        } else {
            -(q * q.log2() + (1.0 - q) * (1.0 - q).log2())
        };
        (n * entropy / 64.0).max(1.0)
    };
    points as f64 * k as f64 * per_step
}

/// The coefficients of `y^k` the unordered counts need, at a transform
/// point where `signed = P - M` of the `heaps = P + M` heaps have sign
/// `+1` (see the module notes): in `f = (1 - y)^{-P} (1 + y)^{-M}` for
/// multisets, `f = (1 + y)^P (1 - y)^M` for sets.
///
/// Both satisfy a first-order differential equation, `(1 - y^2) f' =
/// (s + N y) f` for multisets and `(1 - y^2) f' = (s - N y) f` for sets
/// (`s = P - M`, `N = P + M`: take logarithmic derivatives), so their
/// coefficients `a_0 = 1`, `a_1 = s` follow the three-term recurrence
/// `(n + 1) a_{n+1} = s a_n + (N + n - 1) a_{n-1}` (multisets) or
/// `(n + 1) a_{n+1} = s a_n + (n - 1 - N) a_{n-1}` (sets): `k` steps of a
/// few ring operations, where summing the products of two binomial series
/// costs `k` products of large numbers.
fn coefficients_by_recurrence<R: Recurrence>(
    ring: &R,
    k: usize,
    signed: i128,
    heaps: i128,
    sets: bool,
) -> R::T {
    let (mut before, mut now) = (
        ring.scaled(&ring.one(), 1),
        ring.scaled(&ring.one(), signed),
    );
    if k == 0 {
        return before;
    }
    for n in 1..k {
        // |weight| <= heaps + k fits: heaps <= 10^18 * 2 and k <= 10^6.
        let step = n as i128 - 1;
        let weight = if sets { step - heaps } else { step + heaps };
        let next = ring.add_scaled(ring.scaled(&now, signed), &before, weight);
        before = std::mem::replace(&mut now, ring.divide_small(next, n + 1));
    }
    now
}

/// What `coefficients_by_recurrence` computes in: exact integers, or
/// residues modulo a prime larger than every divisor. Multipliers are
/// machine integers (at most the number of heaps plus `k`), so each step
/// is linear in the size of the numbers.
trait Recurrence {
    type T;
    fn one(&self) -> Self::T;
    /// `a x`.
    fn scaled(&self, a: &Self::T, x: i128) -> Self::T;
    /// `sum + a x`.
    fn add_scaled(&self, sum: Self::T, a: &Self::T, x: i128) -> Self::T;
    /// `a / n` for `1 <= n <= k`, where the quotient is known to be an
    /// integer.
    fn divide_small(&self, a: Self::T, n: usize) -> Self::T;
}

impl Recurrence for Exact {
    type T = BigInt;
    fn one(&self) -> BigInt {
        BigInt::one()
    }
    fn scaled(&self, a: &BigInt, x: i128) -> BigInt {
        a * x
    }
    fn add_scaled(&self, mut sum: BigInt, a: &BigInt, x: i128) -> BigInt {
        sum += a * x;
        sum
    }
    fn divide_small(&self, mut a: BigInt, n: usize) -> BigInt {
        a /= n as u64;
        a
    }
}

/// Residues modulo a prime `p`, with the inverses of `1..=k < p`.
struct PrimeResidues {
    ring: Residues,
    inverses: Vec<u64>,
}

impl PrimeResidues {
    /// The inverses by `1/i = -(p / i) (1 / (p mod i))`, in `O(k)`.
    fn new(p: u64, k: usize) -> PrimeResidues {
        let mut inverses = vec![0u64, 1 % p];
        let wide = u128::from(p);
        for i in 2..=k as u64 {
            let earlier = u128::from(inverses[(p % i) as usize]);
            let inverse = (wide - (wide / u128::from(i)) * earlier % wide) % wide;
            inverses.push(inverse as u64);
        }
        PrimeResidues {
            ring: Residues(p),
            inverses,
        }
    }
}

impl PrimeResidues {
    fn residue(&self, x: i128) -> u64 {
        x.rem_euclid(i128::from(self.ring.0)) as u64
    }
}

impl Recurrence for PrimeResidues {
    type T = u64;
    fn one(&self) -> u64 {
        self.ring.one()
    }
    fn scaled(&self, a: &u64, x: i128) -> u64 {
        self.ring.mul(a, &self.residue(x))
    }
    fn add_scaled(&self, sum: u64, a: &u64, x: i128) -> u64 {
        let m = u128::from(self.ring.0);
        ((u128::from(sum) + u128::from(self.scaled(a, x))) % m) as u64
    }
    fn divide_small(&self, a: u64, n: usize) -> u64 {
        self.ring.mul(&a, &self.inverses[n])
    }
}

/// Whether `m` is prime: trial division by the primes to 37, then
/// Miller–Rabin with those twelve primes as bases, which is deterministic
/// for every `m < 3.3 * 10^24` (Sorenson and Webster, "Strong pseudoprimes
/// to twelve prime bases", Math. Comp. 2017), so for every `u64`.
pub(super) fn is_prime(m: u64) -> bool {
    if m < 2 {
        return false;
    }
    for p in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        if m.is_multiple_of(p) {
            return m == p;
        }
    }
    let ring = Residues(m);
    let (mut d, mut r) = (m - 1, 0);
    while d.is_multiple_of(2) {
        d /= 2;
        r += 1;
    }
    [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]
        .iter()
        .all(|&base| {
            let mut x = ring.pow(base, u128::from(d));
            if x == 1 || x == m - 1 {
                return true;
            }
            for _ in 1..r {
                x = ring.mul(&x, &x);
                if x == m - 1 {
                    return true;
                }
            }
            false
        })
}

fn factorial(k: usize) -> BigInt {
    (1..=k).fold(BigInt::one(), |acc, i| acc * i)
}

/// The transform size: a power of two above every value of every range.
fn transform_size<'a>(ranges: impl Iterator<Item = &'a Histogram>) -> usize {
    ranges
        .map(|h| h.counts.len())
        .max()
        .unwrap_or(1)
        .max(1)
        .next_power_of_two()
}

/// Exact arithmetic on big integers.
struct Exact;

impl Exact {
    fn lift(&self, h: &Histogram, size: usize) -> Vec<BigInt> {
        let mut v: Vec<BigInt> = h.counts.iter().map(|&c| BigInt::from(c)).collect();
        v.resize(size, BigInt::zero());
        v
    }

    fn transform(&self, mut v: Vec<BigInt>) -> Vec<BigInt> {
        walsh_hadamard(&mut v, |a, b| (a + b, a - b));
        v
    }

    /// The inverse transform: the transform again, divided by the size
    /// (exactly, since the result is a vector of integers).
    fn untransform(&self, v: Vec<BigInt>) -> Vec<BigInt> {
        let size = BigInt::from(v.len());
        self.transform(v).into_iter().map(|x| x / &size).collect()
    }

    fn finish(&self, counts: Vec<BigInt>) -> NimSumCounts {
        let by_nim_sum: Vec<BigUint> = counts
            .into_iter()
            .map(|c| c.to_biguint().unwrap_or_default())
            .collect();
        let total = by_nim_sum.iter().sum();
        NimSumCounts { by_nim_sum, total }
    }
}

/// Arithmetic modulo `m`.
pub(super) struct Residues(pub(super) u64);

impl Residues {
    pub(super) fn one(&self) -> u64 {
        1 % self.0
    }

    pub(super) fn mul(&self, a: &u64, b: &u64) -> u64 {
        (u128::from(*a) * u128::from(*b) % u128::from(self.0)) as u64
    }

    /// `base^e`, for exponents up to `2^128 - 1` (cells of a grid).
    pub(super) fn pow(&self, mut base: u64, mut e: u128) -> u64 {
        let mut result = self.one();
        while e > 0 {
            if e & 1 == 1 {
                result = self.mul(&result, &base);
            }
            base = self.mul(&base, &base);
            e >>= 1;
        }
        result
    }

    fn lift(&self, h: &Histogram, size: usize) -> Vec<u64> {
        let mut v: Vec<u64> = h
            .counts
            .iter()
            .map(|&c| (c % u128::from(self.0)) as u64)
            .collect();
        v.resize(size, 0);
        v
    }

    /// The convolution unit: one position of nim-sum zero.
    fn delta(&self, size: usize) -> Vec<u64> {
        let mut v = vec![0; size];
        v[0] = self.one();
        v
    }

    fn convolve(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let m = u128::from(self.0);
        let mut out = vec![0u128; a.len()];
        for (x, &ax) in a.iter().enumerate().filter(|&(_, &ax)| ax != 0) {
            for (y, &by) in b.iter().enumerate() {
                out[x ^ y] = (out[x ^ y] + u128::from(ax) * u128::from(by)) % m;
            }
        }
        out.into_iter().map(|x| x as u64).collect()
    }

    fn transform(&self, mut v: Vec<u64>) -> Vec<u64> {
        let m = self.0;
        walsh_hadamard(&mut v, |a, b| {
            let (a, b) = (u128::from(*a), u128::from(*b));
            let m = u128::from(m);
            (((a + b) % m) as u64, ((a + m - b % m) % m) as u64)
        });
        v
    }

    /// The inverse transform, for odd `m`: times the inverse of the size.
    fn untransform(&self, v: Vec<u64>) -> Vec<u64> {
        let size = v.len() as u64 % self.0;
        // m is odd and the size a power of two: the inverse exists.
        let inverse = self.pow(size, u128::from(totient_exponent(self.0)));
        self.transform(v)
            .iter()
            .map(|x| self.mul(x, &inverse))
            .collect()
    }

    fn finish(&self, counts: Vec<u64>) -> NimSumCounts {
        let total = counts.iter().fold(0u64, |acc, &c| {
            ((u128::from(acc) + u128::from(c)) % u128::from(self.0)) as u64
        });
        NimSumCounts {
            by_nim_sum: counts.into_iter().map(BigUint::from).collect(),
            total: BigUint::from(total),
        }
    }
}

/// An exponent `e` with `x^e = x^-1 (mod m)` for every `x` coprime to `m`:
/// `phi(m) - 1`, with Euler's totient from the factorisation of `m`.
fn totient_exponent(m: u64) -> u64 {
    let (mut phi, mut rest, mut p) = (m, m, 2u64);
    while p.saturating_mul(p) <= rest {
        if rest.is_multiple_of(p) {
            while rest.is_multiple_of(p) {
                rest /= p;
            }
            phi -= phi / p;
        }
        p += 1;
    }
    if rest > 1 {
        phi -= phi / rest;
    }
    phi - 1
}
