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
//!   (or `(1 + y)^P (1 - y)^M`), whose coefficient of `y^k` is a sum of `k +
//!   1` products of binomials. Ordered tuples of distinct heaps are the
//!   sets times `k!`.
//! - `c` copies of one component are `W(H)^c`, a pointwise power.
//! - Histograms of games with a proven period come from it, for ranges up
//!   to `10^18` heaps: the heaps before the pre-period, whole periods, and
//!   a remainder; other games are tabulated within the memory limit.
//!
//! Counts are exact big integers, or residues modulo `m`: with the
//! transform when `m` is odd (so `V = 2^b` is invertible), by direct
//! convolution otherwise; counts of unordered positions modulo `m` are
//! computed exactly and reduced.

use std::fmt;

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};

use super::{Limits, Periodicity, Theorem, analyze};
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
}

impl Histogram {
    /// The number of heaps counted.
    pub fn heaps(&self) -> u128 {
        self.counts.iter().sum()
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
    if Theorem::for_rules(game).is_some() {
        let adaptive = Limits {
            to: None,
            max: limits.max.min(to),
            ..limits.clone()
        };
        let found = analyze(game, &adaptive, solver, &mut |_| true)?;
        if let Some(period) = found
            .periodicity
            .filter(|p| found.is_proven() && p.saltus == 0)
        {
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
        return Err(Error::InvalidRange {
            reason: format!(
                "counting heaps up to {to} needs a proven period, and {why}; without one, \
                 ranges are tabulated up to {tabulate} heaps (raise --max to tabulate further, \
                 within --memory-limit, or count past the table by the values' formula with \
                 --by-formula)"
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

/// Refuses an empty range `from..=to`.
fn non_empty(from: u64, to: u64) -> Result<()> {
    if from > to {
        return Err(Error::InvalidRange {
            reason: format!("the range {from}..={to} is empty"),
        });
    }
    Ok(())
}

/// The value histogram of heaps `from..=to` by a formula guessed from the
/// computed values (`grundy count --by-formula`): the heaps up to the
/// tabulation bound (`limits.to` when given, else [`TABULATE_LIMIT`] or
/// `limits.max` if larger; `to` if smaller) are computed and counted; past them, the heaps are
/// counted by the formula [`super::guess_formula`] finds for every
/// computed value from its start on ([`super::Formula::counts_between`]),
/// without listing them. What is counted past the table is a conjecture
/// unless a proven period implies the formula; the source says which.
pub fn formula_histogram<G: HeapRuleset + fmt::Display + ?Sized>(
    game: &G,
    from: u64,
    to: u64,
    solver: &TableSolver,
    limits: &Limits,
) -> Result<Histogram> {
    non_empty(from, to)?;
    let table_to = to.min(limits.to.unwrap_or(limits.max.max(TABULATE_LIMIT)));
    solver.check_fits(table_to)?;
    let exact = Limits {
        to: Some(table_to),
        ..limits.clone()
    };
    let found = analyze(game, &exact, solver, &mut |_| true)?;
    let values = &found.values;
    let mut counts = Vec::new();
    for v in values.iter().take(to as usize + 1).skip(from as usize) {
        add(&mut counts, v.index(), 1);
    }
    let computed = (values.len() as u64).saturating_sub(1);
    if to <= computed {
        return Ok(Histogram {
            counts,
            source: HistogramSource::Tabulated,
        });
    }
    let report = super::guess_report(&values.to_vec(), Some(&found));
    let no_formula = |why: &str| Error::InvalidRange {
        reason: format!(
            "counting heaps up to {to} of {game} by a formula: {why} (computed g(0..={computed}); \
             raise --max to compute further)"
        ),
    };
    let guess = report
        .guess
        .ok_or_else(|| no_formula("no formula fits the values computed"))?;
    let beyond = guess
        .formula
        .counts_between(from.max(computed + 1), to, FORMULA_VALUES)
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
            proven: report.proven,
        },
    })
}

/// The histogram of heaps `from..=to` of a sequence periodic from
/// `period.preperiod` (saltus zero), given its values up to at least one
/// period past the pre-period.
fn periodic_histogram(values: &ValueTable, period: &Periodicity, from: u64, to: u64) -> Histogram {
    let (n0, p) = (period.preperiod as u128, period.period as u128);
    // C(x): the histogram of heaps 0..=x, for any x.
    let upto = |x: u128, counts: &mut Vec<u128>, sign: bool| {
        let mut count = |v: usize, c: u128| {
            if sign {
                add(counts, v, c);
            } else {
                counts[v] -= c;
            }
        };
        let direct = x.min(n0 + p - 1);
        for n in 0..=direct.min(values.len() as u128 - 1) {
            count(values.at(n as usize).index(), 1);
        }
        if x > direct {
            // Heaps direct+1..=x repeat heaps n0..n0+p: whole periods and
            // a remainder.
            let beyond = x - direct;
            let (whole, rest) = (beyond / p, beyond % p);
            for offset in 0..p {
                let v = values.at((n0 + offset) as usize).index();
                count(v, whole + u128::from(offset < rest));
            }
        }
    };
    let mut counts = Vec::new();
    upto(u128::from(to), &mut counts, true);
    if from > 0 {
        upto(u128::from(from) - 1, &mut counts, false);
    }
    while counts.last() == Some(&0) {
        counts.pop();
    }
    Histogram {
        counts,
        source: HistogramSource::Period {
            preperiod: period.preperiod,
            period: period.period,
        },
    }
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// The default limit on the heaps of unordered positions, and ordered ones
/// of distinct heaps: more would cost too much big-integer arithmetic
/// (each transform point sums `k + 1` products of numbers of about
/// `k log N` bits, so the work grows as `k^2` multiplications).
pub const UNORDERED_HEAPS_LIMIT: u64 = 1000;

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
            let powered = t.iter().map(|&x| ring.pow(x, copies)).collect();
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
/// notes), for at most `max_heaps` heaps unless ordered
/// ([`UNORDERED_HEAPS_LIMIT`] by default; past it, [`Error::TooManyHeaps`]).
/// Unordered counts modulo `m` are computed exactly and then reduced.
pub fn count_tuples(
    range: &Histogram,
    k: u64,
    tuples: Tuples,
    arithmetic: Arithmetic,
    max_heaps: u64,
) -> Result<NimSumCounts> {
    if tuples == Tuples::Ordered {
        return count_copies(range, k, arithmetic);
    }
    if k > max_heaps {
        let kind = match tuples {
            Tuples::OrderedDistinct => "ordered positions of distinct heaps",
            _ => "unordered positions",
        };
        return Err(Error::TooManyHeaps {
            kind,
            heaps: k,
            limit: max_heaps,
        });
    }
    let k = k as usize;
    let size = transform_size(std::iter::once(range));
    let t = Exact.transform(Exact.lift(range, size));
    let heaps = BigInt::from(range.heaps());
    let sets = matches!(tuples, Tuples::Distinct | Tuples::OrderedDistinct);
    let sum: Vec<BigInt> = t
        .iter()
        .map(|signed| {
            let plus = (&heaps + signed) / 2;
            let minus = &heaps - &plus;
            coefficient(k, &plus, &minus, sets)
        })
        .collect();
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

/// The coefficient of `y^k` in `(1 + y)^plus (1 - y)^minus` (`sets`) or
/// in `(1 - y)^{-plus} (1 + y)^{-minus}`: `sum_i a_i b_{k-i}` with
/// `a_i = C(plus, i)` and `b_j = (-1)^j C(minus, j)` for sets, and
/// `a_i = C(plus + i - 1, i)`, `b_j = (-1)^j C(minus + j - 1, j)` for
/// multisets.
fn coefficient(k: usize, plus: &BigInt, minus: &BigInt, sets: bool) -> BigInt {
    let series = |n: &BigInt, alternate: bool| {
        let mut terms = Vec::with_capacity(k + 1);
        let mut c = BigInt::one();
        for i in 0..=k {
            terms.push(if alternate && i % 2 == 1 {
                -&c
            } else {
                c.clone()
            });
            // C(n, i + 1) = C(n, i) (n - i) / (i + 1), and for multisets
            // C(n + i, i + 1) = C(n + i - 1, i) (n + i) / (i + 1).
            let i = BigInt::from(i);
            let factor = if sets { n - &i } else { n + &i };
            c = c * factor / (i + 1);
        }
        terms
    };
    let a = series(plus, false);
    let b = series(minus, true);
    (0..=k).map(|i| &a[i] * &b[k - i]).sum()
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
struct Residues(u64);

impl Residues {
    fn one(&self) -> u64 {
        1 % self.0
    }

    fn mul(&self, a: &u64, b: &u64) -> u64 {
        (u128::from(*a) * u128::from(*b) % u128::from(self.0)) as u64
    }

    fn pow(&self, mut base: u64, mut e: u64) -> u64 {
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
        let inverse = self.pow(size, totient_exponent(self.0));
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
