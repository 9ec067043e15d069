//! Counting the partitions of a number into heaps of a game by nim-sum.
//!
//! A game that starts from one pile split into any number of heaps, or any
//! position of heaps with a given total `N`, is a partition of `N`: an
//! unordered multiset of parts (heaps) adding up to `N`. It is a P-position
//! exactly when the nim-sum of its parts' values `g(part)` is zero. The
//! partitions into part sizes `S` are counted by their generating function
//!
//! ```text
//! prod_{s in S} 1 / (1 - y x^{g(s)} q^s)     (any number of parts of each size)
//! prod_{s in S} (1 + y x^{g(s)} q^s)         (distinct parts)
//! ```
//!
//! where `q` counts the total, `x` multiplies by XOR (its exponent is the
//! nim-sum) and `y` counts the parts. Multiplying the factors in one at a
//! time is a knapsack over `(total, nim-sum)`, with `c[t][x]` the
//! partitions of `t` of nim-sum `x` into the sizes taken so far:
//!
//! - a part size `s` of value `v`, any number of times (`f' = f + z f'`
//!   for the factor `1 / (1 - z)`): `c[t][x] += c[t - s][x ^ v]` for `t`
//!   ascending, so that `c[t - s]` already counts parts of size `s`;
//! - at most once (`f' = f + z f`): the same for `t` descending, so that
//!   `c[t - s]` does not count it yet;
//! - exactly `k` parts (`grundy count --heaps K`): a layer `c[j]` for each
//!   number of parts `j <= k`, and `c[j][t][x] += c[j - 1][t - s][x ^ v]`,
//!   layers ascending (any number of parts of a size) or descending (at
//!   most one).
//!
//! Nim-sums of values below `V = 2^b` stay below it, so each total holds
//! `V` counts, `V` the power of two above the largest value of a part: the
//! whole count takes `sum_{s in S} (N - s + 1) V` additions, of numbers of
//! `log2 p(N)` bits when exact (`p(N)` the number of partitions of `N`,
//! which bounds every count; see [`exact_words`]) or one residue modulo
//! `m` (any `m`: the knapsack only adds).

use std::fmt;

use num_bigint::BigUint;
use num_traits::Zero;

use super::{Arithmetic, NimSumCounts, TableBudget};
use crate::error::human_bytes;
use crate::rules::Subtraction;
use crate::{Error, Knob, Result};

/// The sizes the parts of a partition may have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartSizes {
    /// Every heap size `1..=N`.
    Every,
    /// The members of a set, written as a subtraction set's amounts:
    /// `1,3,5..9`, `squares`, `primes`, `2+3k`, ...
    Set(Subtraction),
}

impl PartSizes {
    /// The sizes `text` lists as `sub(...)` lists its amounts: positive
    /// integers and inclusive ranges `a..b` (`1,3,5..9`, at most 2^20
    /// sizes), a named set (`squares`, `primes`, `powers-of-2`,
    /// `fibonacci`, `factorials`, `triangular`) or a progression `a+dk`.
    ///
    /// ```
    /// use grundy::analysis::PartSizes;
    /// assert_eq!(PartSizes::parse("5..9, 1,3")?.to_string(), "1,3,5..9");
    /// assert_eq!(PartSizes::parse("squares")?.to_string(), "squares");
    /// assert!(PartSizes::parse("0,1").is_err());
    /// # Ok::<(), grundy::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<PartSizes> {
        let invalid = |reason: &str| Error::InvalidRange {
            reason: format!("invalid part sizes '{}': {reason}", text.trim()),
        };
        let zero = text
            .split([',', '.'])
            .map(str::trim)
            .any(|item| !item.is_empty() && item.bytes().all(|b| b == b'0'));
        if zero {
            return Err(invalid("a part is a heap of at least one token"));
        }
        match format!("sub({text})").parse::<Subtraction>() {
            Ok(set) => Ok(PartSizes::Set(set)),
            Err(Error::InvalidSubtractionSet { reason, .. }) => Err(invalid(&reason)),
            Err(other) => Err(other),
        }
    }

    /// Calls `f(s)` for every size `s <= n`, in increasing order.
    fn for_each_up_to(&self, n: usize, mut f: impl FnMut(usize)) {
        match self {
            PartSizes::Every => (1..=n).for_each(f),
            PartSizes::Set(set) => set.for_each_amount(n, &mut f),
        }
    }
}

impl fmt::Display for PartSizes {
    /// `every size`, or the set as `--parts` takes it (`1,3,5..9`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartSizes::Every => f.write_str("every size"),
            PartSizes::Set(set) => {
                let written = set.to_string();
                let inner = written
                    .strip_prefix("sub(")
                    .and_then(|s| s.strip_suffix(')'))
                    .unwrap_or(&written);
                f.write_str(inner)
            }
        }
    }
}

/// What a partition count counts (`grundy count GAME --partitions N`):
/// the partitions of `of` into heaps of the sizes `parts` allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partitions {
    /// The number partitioned: the heaps of every partition add up to it.
    pub of: u64,
    /// The sizes a part (a heap) may have.
    pub parts: PartSizes,
    /// Whether the parts of a partition are all different.
    pub distinct: bool,
}

impl Partitions {
    /// The partitions a front end's options ask for: of `of` (`--partitions
    /// N`), into the sizes `parts` lists ([`PartSizes::parse`]; every size
    /// without it), distinct when `distinct`. Sizes or distinct parts
    /// without a number to partition are refused; no number, no options:
    /// `None`.
    pub fn from_options(
        of: Option<u64>,
        parts: Option<&str>,
        distinct: bool,
    ) -> Result<Option<Partitions>> {
        match (of, parts) {
            (Some(of), parts) => Ok(Some(Partitions {
                of,
                parts: parts.map_or(Ok(PartSizes::Every), PartSizes::parse)?,
                distinct,
            })),
            (None, None) if !distinct => Ok(None),
            (None, _) => Err(Error::Refused {
                reason: "part sizes and distinct parts are of partitions: give the number \
                         partitioned"
                    .into(),
                knob: Knob::Partitions,
            }),
        }
    }

    /// The part sizes up to the number partitioned, in increasing order,
    /// for partitions into exactly `heaps` parts when given. Refused before
    /// they are listed when the count would pass `budget` even if every
    /// value were 0 (its table of counts, its additions), so that no value
    /// is computed for a count that cannot run.
    pub fn sizes(
        &self,
        heaps: Option<u64>,
        arithmetic: Arithmetic,
        budget: TableBudget,
    ) -> Result<Vec<usize>> {
        let shape = Shape::new(self.of, heaps, arithmetic)?;
        shape.check_memory(1, budget.memory)?;
        let unit = shape.additions_per_total(1);
        let mut sizes = Vec::new();
        let mut additions = 0u128;
        self.parts.for_each_up_to(shape.total, |s| {
            // Past the limit the sizes are no longer kept: the count is
            // refused below.
            if additions <= u128::from(budget.work) {
                additions += (shape.total - s + 1) as u128 * unit;
                sizes.push(s);
            }
        });
        shape.check_work(self, additions, None, budget.work)?;
        Ok(sizes)
    }

    /// The partitions into `parts`, each `(size, value)` (the sizes of
    /// [`Partitions::sizes`], with their Grundy values), counted by the
    /// nim-sum of their values: exactly, or modulo `m`; into exactly
    /// `heaps` parts when given. The table of counts takes at most
    /// `budget.memory` bytes and the knapsack `budget.work` additions of
    /// machine words ([`Error::MemoryLimit`], [`Error::WorkLimit`] past
    /// them, before it starts). `progress(s)` is told each part size `s`
    /// done; when it answers `false` the count stops with
    /// [`Error::Interrupted`].
    ///
    /// ```
    /// use grundy::analysis::{Arithmetic, PartSizes, Partitions, TableBudget};
    /// // The partitions of 6 into Nim heaps (g(n) = n) whose parts XOR to 0
    /// // are 3+3, 3+2+1, 2+2+1+1 and 1+1+1+1+1+1: 4 of the 11.
    /// let six = Partitions { of: 6, parts: PartSizes::Every, distinct: false };
    /// let parts: Vec<(usize, usize)> = (1..=6).map(|s| (s, s)).collect();
    /// let budget = TableBudget { memory: 1 << 20, work: 1 << 20 };
    /// let counts = six.count(&parts, None, Arithmetic::Exact, budget, &mut |_| true)?;
    /// assert_eq!(counts.total.to_string(), "11");
    /// assert_eq!(counts.p_positions().to_string(), "4");
    /// # Ok::<(), grundy::Error>(())
    /// ```
    pub fn count(
        &self,
        parts: &[(usize, usize)],
        heaps: Option<u64>,
        arithmetic: Arithmetic,
        budget: TableBudget,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<NimSumCounts> {
        let shape = Shape::new(self.of, heaps, arithmetic)?;
        let largest = parts.iter().map(|&(_, v)| v).max().unwrap_or(0);
        let values = largest
            .checked_add(1)
            .and_then(usize::checked_next_power_of_two)
            .ok_or_else(|| Error::InvalidRange {
                reason: format!("a part's value {largest} is too large to count nim-sums of"),
            })?;
        shape.check_memory(values, budget.memory)?;
        let additions = parts
            .iter()
            .filter(|&&(s, _)| s <= shape.total)
            .map(|&(s, _)| (shape.total - s + 1) as u128)
            .sum::<u128>()
            * shape.additions_per_total(values);
        shape.check_work(self, additions, Some(values), budget.work)?;
        if shape.answer_layer.is_none() {
            // More parts than tokens: no partition.
            let by_nim_sum = vec![BigUint::zero(); values];
            return Ok(NimSumCounts {
                by_nim_sum,
                total: BigUint::zero(),
            });
        }
        match arithmetic {
            Arithmetic::Exact => {
                let words = shape.words;
                let row = shape.knapsack(&Wide(words), self.distinct, parts, values, progress)?;
                let by_nim_sum: Vec<BigUint> = row.chunks_exact(words).map(wide_number).collect();
                let total = by_nim_sum.iter().sum();
                Ok(NimSumCounts { by_nim_sum, total })
            }
            Arithmetic::Modulo(m) => {
                let ring = Modular(m);
                let row = shape.knapsack(&ring, self.distinct, parts, values, progress)?;
                let total = row.iter().fold(0, |sum, &c| ring.add(sum, c));
                Ok(NimSumCounts {
                    by_nim_sum: row.into_iter().map(BigUint::from).collect(),
                    total: BigUint::from(total),
                })
            }
        }
    }
}

/// The table of a partition count: totals `0..=total`, layers of parts.
struct Shape {
    /// The number partitioned.
    total: usize,
    /// Whether the layers count the parts (exactly `k` parts asked).
    by_parts: bool,
    /// Layers of counts: one (any number of parts), or one for each number
    /// of parts `0..=min(k, total)`.
    layers: usize,
    /// The layer the answer is read from; `None` when more parts are asked
    /// than the total has tokens.
    answer_layer: Option<usize>,
    /// Machine words per count.
    words: usize,
}

impl Shape {
    fn new(of: u64, heaps: Option<u64>, arithmetic: Arithmetic) -> Result<Shape> {
        let total = usize::try_from(of).map_err(|_| Error::InvalidRange {
            reason: format!("the partitions of {of}: at most {} here", usize::MAX),
        })?;
        let (layers, answer_layer) = match heaps.map(|k| usize::try_from(k).ok()) {
            None => (1, Some(0)),
            // At most `total` parts, each of at least one token: more make
            // no partition, and nothing to compute.
            Some(Some(k)) if k <= total => (k + 1, Some(k)),
            Some(_) => (1, None),
        };
        let words = match arithmetic {
            Arithmetic::Exact => exact_words(total),
            Arithmetic::Modulo(0) => {
                return Err(Error::Refused {
                    reason: "counts modulo 0: the modulus must be at least 1".into(),
                    knob: Knob::Modulus,
                });
            }
            Arithmetic::Modulo(_) => 1,
        };
        Ok(Shape {
            total,
            by_parts: heaps.is_some(),
            layers,
            answer_layer,
            words,
        })
    }

    /// Word additions for each total a part size updates, with `values`
    /// nim-sums: in every layer past the first (none when no partition has
    /// the parts asked), or in the one.
    fn additions_per_total(&self, values: usize) -> u128 {
        let layers = if self.by_parts { self.layers - 1 } else { 1 };
        layers as u128 * values as u128 * self.words as u128
    }

    /// Refuses a table of counts past `limit` bytes.
    fn check_memory(&self, values: usize, limit: u64) -> Result<()> {
        let bytes = self.layers as u128
            * (self.total as u128 + 1)
            * values as u128
            * self.words as u128
            * 8;
        if bytes > u128::from(limit) {
            return Err(Error::MemoryLimit {
                what: format!(
                    "counting the partitions of {} by nim-sum ({} counts of {} bytes)",
                    self.total,
                    self.layers as u128 * (self.total as u128 + 1) * values as u128,
                    self.words * 8
                ),
                needed: human_bytes(bytes),
                limit: human_bytes(u128::from(limit)),
            });
        }
        Ok(())
    }

    /// Refuses a knapsack of more than `limit` word additions; `values`,
    /// the nim-sums of a total, is `None` before the values are known
    /// (the additions are then those of one nim-sum).
    fn check_work(
        &self,
        partitions: &Partitions,
        additions: u128,
        values: Option<usize>,
        limit: u64,
    ) -> Result<()> {
        if additions <= u128::from(limit) {
            return Ok(());
        }
        let mut what = format!(
            "counting the partitions of {} into {}heaps of {} by nim-sum",
            self.total,
            if partitions.distinct { "distinct " } else { "" },
            match &partitions.parts {
                PartSizes::Every => "every size".to_owned(),
                set => format!("sizes {set}"),
            },
        );
        let mut notes = Vec::new();
        if self.by_parts {
            notes.push(format!("{} layers of parts", self.layers - 1));
        }
        notes.push(match values {
            Some(values) => format!("{values} nim-sums"),
            None => "whatever the values".to_owned(),
        });
        if self.words > 1 {
            notes.push(format!(
                "exact counts of {} words each; counts modulo m take one",
                self.words
            ));
        }
        what.push_str(&format!(" ({})", notes.join(", ")));
        Err(Error::WorkLimit {
            what,
            at_least: additions,
            limit,
        })
    }

    /// Runs the knapsack of the module notes over `parts` with counts in
    /// `cells`, `values` nim-sums a total, and returns the counts of the
    /// answer's layer at the last total, by nim-sum.
    fn knapsack<C: Cells>(
        &self,
        cells: &C,
        distinct: bool,
        parts: &[(usize, usize)],
        values: usize,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<Vec<u64>> {
        let words = cells.words();
        let row = values * words;
        let per_layer = (self.total + 1) * row;
        // Checked against the memory limit, so it fits a usize.
        let length = self.layers * per_layer;
        let mut table: Vec<u64> = Vec::new();
        table
            .try_reserve_exact(length)
            .map_err(|_| Error::OutOfMemory {
                to: self.total as u64,
                needed: human_bytes(length as u128 * 8),
            })?;
        table.resize(length, 0);
        // The empty partition of 0: no part, nim-sum 0.
        table[0] = cells.one();
        let ascending: Vec<usize> = (1..self.layers).collect();
        let descending: Vec<usize> = (1..self.layers).rev().collect();
        for (done, &(s, v)) in parts.iter().enumerate() {
            crate::cancel::check()?;
            if !progress(s) {
                return Err(Error::Interrupted { heaps: done as u64 });
            }
            if s == 0 || s > self.total {
                continue;
            }
            // Adds row `from` (a cell index) shifted by `v` into row `to`,
            // which comes after it in the table.
            let mut add = |to: usize, from: usize| {
                let (before, rest) = table.split_at_mut(to * row);
                cells.add_shifted(&mut rest[..row], &before[from * row..][..row], v);
            };
            if !self.by_parts {
                if distinct {
                    (s..=self.total).rev().for_each(|t| add(t, t - s));
                } else {
                    (s..=self.total).for_each(|t| add(t, t - s));
                }
                continue;
            }
            let width = self.total + 1;
            for &j in if distinct { &descending } else { &ascending } {
                // `j - 1` parts have at least `j - 1` tokens.
                for t in (s + j - 1)..=self.total {
                    add(j * width + t, (j - 1) * width + t - s);
                }
            }
        }
        let layer = self.answer_layer.unwrap_or(0);
        let at = layer * per_layer + self.total * row;
        Ok(table[at..at + row].to_vec())
    }
}

/// Machine words of an exact count of partitions of `n`: every count of
/// the knapsack counts some partitions of some `t <= n`, so at most
/// `p(n) < e^{pi sqrt(2n/3)}` (Apostol, *Introduction to Analytic Number
/// Theory*, Theorem 14.5), of fewer than `pi sqrt(2n/3) log2(e)` bits; two
/// bits more cover the rounding of the bound.
fn exact_words(n: usize) -> usize {
    let bits = std::f64::consts::PI * (2.0 * n as f64 / 3.0).sqrt() * std::f64::consts::LOG2_E;
    (bits as usize + 2).div_ceil(64).max(1)
}

/// A count of [`Wide`] words, least significant first, as a number.
fn wide_number(words: &[u64]) -> BigUint {
    words
        .iter()
        .rev()
        .fold(BigUint::zero(), |n, &w| (n << 64u32) + w)
}

/// How the knapsack's counts are added: rows of `values` counts of
/// [`Cells::words`] words each.
trait Cells {
    /// Words per count.
    fn words(&self) -> usize;
    /// The count of one partition, in its first word.
    fn one(&self) -> u64;
    /// `into[x] += from[x ^ v]` for every nim-sum `x` of the rows.
    fn add_shifted(&self, into: &mut [u64], from: &[u64], v: usize);
}

/// Exact counts of a fixed number of words, sized by [`exact_words`] so
/// that no sum carries out of them.
struct Wide(usize);

impl Cells for Wide {
    fn words(&self) -> usize {
        self.0
    }

    fn one(&self) -> u64 {
        1
    }

    fn add_shifted(&self, into: &mut [u64], from: &[u64], v: usize) {
        let words = self.0;
        for (x, sum) in into.chunks_exact_mut(words).enumerate() {
            let added = &from[(x ^ v) * words..][..words];
            let mut carry = false;
            for (a, &b) in sum.iter_mut().zip(added) {
                let (low, first) = a.overflowing_add(b);
                let (low, second) = low.overflowing_add(u64::from(carry));
                *a = low;
                carry = first | second;
            }
        }
    }
}

/// Residues modulo `m >= 1`, one word each.
struct Modular(u64);

impl Modular {
    /// `a + b mod m` for residues `a, b < m`: the sum is below `2m`, so one
    /// subtraction reduces it, also when it passes `2^64`.
    fn add(&self, a: u64, b: u64) -> u64 {
        let (sum, over) = a.overflowing_add(b);
        let (reduced, under) = sum.overflowing_sub(self.0);
        // Without branches: the knapsack's sums are unpredictable.
        if over | !under { reduced } else { sum }
    }
}

impl Cells for Modular {
    fn words(&self) -> usize {
        1
    }

    fn one(&self) -> u64 {
        1 % self.0
    }

    fn add_shifted(&self, into: &mut [u64], from: &[u64], v: usize) {
        for (x, sum) in into.iter_mut().enumerate() {
            *sum = self.add(*sum, from[x ^ v]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every partition of `n` into parts of `sizes` (distinct when asked),
    /// each a list of parts in decreasing order.
    fn partitions(n: usize, sizes: &[usize], distinct: bool) -> Vec<Vec<usize>> {
        fn walk(
            left: usize,
            sizes: &[usize],
            distinct: bool,
            parts: &mut Vec<usize>,
            out: &mut Vec<Vec<usize>>,
        ) {
            if left == 0 {
                out.push(parts.clone());
                return;
            }
            // Parts in decreasing order: the next is at most the last.
            for (i, &s) in sizes.iter().enumerate().rev() {
                if s <= left {
                    parts.push(s);
                    let rest = if distinct { &sizes[..i] } else { &sizes[..=i] };
                    walk(left - s, rest, distinct, parts, out);
                    parts.pop();
                }
            }
        }
        let mut out = Vec::new();
        walk(n, sizes, distinct, &mut Vec::new(), &mut out);
        out
    }

    const ROOMY: TableBudget = TableBudget {
        memory: 1 << 30,
        work: u64::MAX,
    };

    /// The knapsack's counts equal those of every partition listed, for
    /// every combination of options, exactly and modulo odd, even and tiny
    /// moduli.
    #[test]
    fn counts_equal_the_partitions_listed() {
        // g(n) = n (Nim), a period of small values, values with gaps.
        type Values = fn(usize) -> usize;
        let games: [(&str, Values); 3] = [
            ("nim", |n| n),
            ("kayles-like", |n| {
                [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6][n % 12]
            }),
            ("sparse", |n| if n % 3 == 0 { 5 } else { n % 2 }),
        ];
        let sets: [(&str, PartSizes); 5] = [
            ("every", PartSizes::Every),
            ("listed", PartSizes::parse("1,3,5..9,13,17").unwrap()),
            ("odd", PartSizes::parse("1+2k").unwrap()),
            ("squares", PartSizes::parse("squares").unwrap()),
            ("2..4", PartSizes::parse("2..4").unwrap()),
        ];
        for (name, g) in games {
            for (set_name, parts) in &sets {
                for n in 0..=22 {
                    for distinct in [false, true] {
                        let asked = Partitions {
                            of: n as u64,
                            parts: parts.clone(),
                            distinct,
                        };
                        let sizes = asked.sizes(None, Arithmetic::Exact, ROOMY).unwrap();
                        let listed = partitions(n, &sizes, distinct);
                        let valued: Vec<(usize, usize)> =
                            sizes.iter().map(|&s| (s, g(s))).collect();
                        for heaps in [None, Some(0), Some(1), Some(3), Some(n as u64 + 1)] {
                            let mut expected = vec![0u64; 64];
                            for p in listed
                                .iter()
                                .filter(|p| heaps.is_none_or(|k| p.len() as u64 == k))
                            {
                                expected[p.iter().fold(0, |x, &s| x ^ g(s))] += 1;
                            }
                            for arithmetic in [
                                Arithmetic::Exact,
                                Arithmetic::Modulo(7),
                                Arithmetic::Modulo(4),
                                Arithmetic::Modulo(1),
                                Arithmetic::Modulo(u64::MAX),
                            ] {
                                let what = format!(
                                    "{name} {set_name} n={n} distinct={distinct} heaps={heaps:?} {arithmetic:?}"
                                );
                                let counts = asked
                                    .count(&valued, heaps, arithmetic, ROOMY, &mut |_| true)
                                    .unwrap();
                                let reduce = |c: u64| match arithmetic {
                                    Arithmetic::Exact => c,
                                    Arithmetic::Modulo(m) => c % m,
                                };
                                for (x, c) in counts.by_nim_sum.iter().enumerate() {
                                    assert_eq!(
                                        c,
                                        &BigUint::from(reduce(expected[x])),
                                        "{what} nim-sum {x}"
                                    );
                                }
                                assert!(
                                    expected[counts.by_nim_sum.len()..].iter().all(|&c| c == 0),
                                    "{what}"
                                );
                                let all: u64 = expected.iter().sum();
                                assert_eq!(counts.total, BigUint::from(reduce(all)), "{what}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// p(n) by Euler's pentagonal number recurrence, exactly.
    fn partition_numbers(n: usize) -> Vec<BigUint> {
        let mut p = vec![BigUint::from(1u32)];
        for m in 1..=n {
            let (mut plus, mut minus) = (BigUint::zero(), BigUint::zero());
            for k in 1.. {
                let pentagonal = k * (3 * k - 1) / 2;
                if pentagonal > m {
                    break;
                }
                for q in [pentagonal, pentagonal + k] {
                    if q <= m {
                        if k % 2 == 1 {
                            plus += &p[m - q];
                        } else {
                            minus += &p[m - q];
                        }
                    }
                }
            }
            p.push(plus - minus);
        }
        p
    }

    /// Large exact counts fit their words: the total over every nim-sum is
    /// p(n), whatever the values, for n far past u128 (p(1000) has 32
    /// digits, p(3000) 58).
    #[test]
    fn exact_totals_are_the_partition_numbers() {
        let p = partition_numbers(3000);
        for n in [1, 2, 63, 100, 500, 1000, 3000] {
            let every = Partitions {
                of: n as u64,
                parts: PartSizes::Every,
                distinct: false,
            };
            let sizes = every.sizes(None, Arithmetic::Exact, ROOMY).unwrap();
            let valued: Vec<(usize, usize)> = sizes.iter().map(|&s| (s, s % 4)).collect();
            let counts = every
                .count(&valued, None, Arithmetic::Exact, ROOMY, &mut |_| true)
                .unwrap();
            assert_eq!(counts.total, p[n], "p({n})");
        }
        assert_eq!(
            p[1000].to_string(),
            "24061467864032622473692149727991",
            "Euler's recurrence"
        );
    }

    #[test]
    fn budgets_refuse_before_counting() {
        let every = |of| Partitions {
            of,
            parts: PartSizes::Every,
            distinct: false,
        };
        let tight = TableBudget {
            memory: 1 << 30,
            work: 1_000_000,
        };
        // 10^4 * 10^4 / 2 additions at least, whatever the values.
        let refused = every(10_000).sizes(None, Arithmetic::Modulo(7), tight);
        assert!(
            matches!(refused, Err(Error::WorkLimit { .. })),
            "{refused:?}"
        );
        let small = TableBudget {
            memory: 1 << 10,
            work: u64::MAX,
        };
        let refused = every(1_000).sizes(None, Arithmetic::Exact, small);
        assert!(
            matches!(refused, Err(Error::MemoryLimit { .. })),
            "{refused:?}"
        );
        // Values make a count costlier: 1000 sizes of value up to 1000
        // are 1024 nim-sums.
        let thousand = every(1000);
        let sizes = thousand.sizes(None, Arithmetic::Modulo(7), tight).unwrap();
        let valued: Vec<(usize, usize)> = sizes.iter().map(|&s| (s, s)).collect();
        let refused = thousand.count(&valued, None, Arithmetic::Modulo(7), tight, &mut |_| true);
        assert!(
            matches!(refused, Err(Error::WorkLimit { .. })),
            "{refused:?}"
        );
        // A progress that says stop stops.
        let stopped = thousand.count(&valued, None, Arithmetic::Modulo(7), ROOMY, &mut |_| false);
        assert!(
            matches!(stopped, Err(Error::Interrupted { .. })),
            "{stopped:?}"
        );
        // A huge number is refused, not allocated.
        let refused = every(u64::MAX).sizes(Some(3), Arithmetic::Modulo(7), ROOMY);
        assert!(refused.is_err());
        // More parts than tokens: no partition, and nothing computed.
        let counts = thousand
            .count(
                &valued,
                Some(u64::MAX),
                Arithmetic::Exact,
                tight,
                &mut |_| false,
            )
            .unwrap();
        assert_eq!(counts.total, BigUint::zero());
        let refused = thousand.count(&valued, None, Arithmetic::Modulo(0), ROOMY, &mut |_| true);
        assert!(
            matches!(
                refused,
                Err(Error::Refused {
                    knob: Knob::Modulus,
                    ..
                })
            ),
            "{refused:?}"
        );
    }

    #[test]
    fn part_sizes_are_read_as_a_subtraction_set_is() {
        let sizes = |text: &str| {
            let asked = Partitions {
                of: 30,
                parts: PartSizes::parse(text).unwrap(),
                distinct: false,
            };
            asked.sizes(None, Arithmetic::Exact, ROOMY).unwrap()
        };
        assert_eq!(sizes("1,3,5..9"), [1, 3, 5, 6, 7, 8, 9]);
        assert_eq!(sizes("squares"), [1, 4, 9, 16, 25]);
        assert_eq!(sizes("2+7k"), [2, 9, 16, 23, 30]);
        assert_eq!(sizes("40, 7"), [7]);
        for wrong in ["", "0", "1,00", "3..1", "x", "-2"] {
            let refused = PartSizes::parse(wrong);
            assert!(
                matches!(&refused, Err(Error::InvalidRange { reason }) if reason.contains("part sizes")),
                "{wrong}: {refused:?}"
            );
        }
        assert_eq!(
            Partitions::from_options(None, Some("1,2"), false).unwrap_err(),
            Error::Refused {
                reason: "part sizes and distinct parts are of partitions: give the number \
                         partitioned"
                    .into(),
                knob: Knob::Partitions,
            }
        );
        assert_eq!(Partitions::from_options(None, None, false), Ok(None));
    }
}
