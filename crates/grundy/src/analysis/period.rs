//! Finding the period of a value sequence.
//!
//! A sequence is *periodic* with period `p` and pre-period `n0` when
//! `g(n + p) = g(n)` for every `n >= n0`, and *arithmetic-periodic* with
//! saltus `s` when `g(n + p) = g(n) + s` instead. From a finite prefix we can
//! only observe such behaviour; proving it is the job of
//! [`Theorem`](super::Theorem).
//!
//! Two facts make the answer well defined. If `p` is the minimal period, every
//! period is a multiple of `p`, and all of them share the same smallest
//! pre-period: were `g(n0 - 1 + kp) = g(n0 - 1) + ks` while
//! `g(n0 - 1 + p) != g(n0 - 1) + s`, then since both `n0 - 1 + p` and
//! `n0 - 1 + kp` lie in the periodic part, `g(n0 - 1 + kp) = g(n0 - 1 + p) +
//! (k - 1)s`, a contradiction. So we report the minimal period and its
//! smallest pre-period, never a multiple.

use crate::values::FoldedValues;
use crate::values::value_counts;
use crate::{Result, ValueTable, with_slice};

/// Tables up to this length are searched with the exact `O(N)`-memory
/// failure-function method; longer ones with markers (see
/// [`period_candidate`]), which needs memory only for the positions of one
/// value.
pub(super) const FAILURE_FUNCTION_LIMIT: usize = 1 << 22;

/// How often the marker value of [`candidate_by_markers`] should occur in
/// the last quarter of the table, when some value does.
const MARKERS_WANTED: u64 = 64;

/// Periodic behaviour observed in a finite sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Periodicity {
    /// The smallest `n0` from which the behaviour holds.
    pub preperiod: usize,
    /// The minimal period `p`.
    pub period: usize,
    /// The saltus `s`: `g(n + p) = g(n) + s`; zero for plain periodicity.
    pub saltus: u64,
}

impl Periodicity {
    /// Whether `g(n + p) = g(n) + s` holds for every `n` in `from..to` (and
    /// `n + p` within `values`).
    pub fn holds_on(&self, values: &ValueTable, from: usize, to: usize) -> bool {
        let end = to.min(values.len().saturating_sub(self.period));
        if from >= end {
            return true;
        }
        if self.saltus == 0 {
            return values.ranges_equal(from, from + self.period, end - from);
        }
        (from..end)
            .all(|n| u64::from(values.at(n + self.period)) == u64::from(values.at(n)) + self.saltus)
    }

    /// The value this periodicity predicts for heap `n >= preperiod`, from
    /// the values of the first period after the pre-period.
    pub fn predict(&self, values: &ValueTable, n: usize) -> Option<u64> {
        let offset = n.checked_sub(self.preperiod)?;
        let base = values.get(self.preperiod + offset % self.period)?;
        Some(u64::from(base) + self.saltus * (offset / self.period) as u64)
    }
}

/// The periodic behaviour of the tail of `values`, if the tail shows it
/// clearly. Among the periods whose periodic tail spans at least two full
/// periods, the one with the longest tail wins; that tail must cover at least
/// half of the sequence, so a few coincidences at the end of an aperiodic
/// sequence are not reported.
///
/// Plain periodicity is looked for first (see [`period_candidate`]).
/// Arithmetic periodicity (for growing sequences) is tried next, for each
/// candidate period in turn, scanning back from the end until the first
/// mismatch.
///
/// ```
/// use grundy::analysis::find_period;
/// use grundy::{Nimber, ValueTable};
/// let seq: ValueTable = [5, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]
///     .into_iter().map(Nimber::new).collect();
/// let found = find_period(&seq).unwrap();
/// assert_eq!((found.preperiod, found.period, found.saltus), (1, 3, 0));
/// ```
pub fn find_period(values: &ValueTable) -> Option<Periodicity> {
    find_period_given(values, period_candidate(values))
}

/// [`find_period`] given `candidate`, the [`period_candidate`] of `values`.
pub(crate) fn find_period_given(
    values: &ValueTable,
    candidate: Option<Periodicity>,
) -> Option<Periodicity> {
    candidate
        .filter(|found| reportable(values.len() - found.preperiod, found.period, values.len()))
        .or_else(|| {
            with_slice!(values.as_slice(), s => find_arithmetic_period(s.len(), |n| s[n].into()),
            folded f => {
                let reader = f.cells().reader();
                find_arithmetic_period(f.len(), |n| reader.value(n))
            })
        })
}

/// Whether a periodic part of `length` with period `period` is convincing in
/// a sequence of `total` values.
fn convincing(length: usize, period: usize, total: usize) -> bool {
    length >= 2 * period && 2 * length >= total
}

/// Whether a periodic tail is worth reporting: [`convincing`], or repeated
/// at least [`CONVINCING_REPEATS`] times (a long pre-period, as 4.0477's
/// 25959, leaves a short tail, but 32 repeats of 210 values are no
/// coincidence).
pub(super) fn reportable(length: usize, period: usize, total: usize) -> bool {
    convincing(length, period, total) || length >= CONVINCING_REPEATS * period
}

/// Repeats of a period that make a tail convincing however long the
/// pre-period.
const CONVINCING_REPEATS: usize = 16;

/// The plain period of the longest tail of `values` that spans at least two
/// of its periods, however short that tail is: a candidate to prove or
/// refute, not a finding to report. Its period is the minimal period of that
/// tail and its pre-period the smallest for that period.
///
/// Up to 2^22 values the search is exact, in `O(N)` time and memory: with
/// `r` the sequence reversed, a tail of length `l` has minimal period
/// `l - border(l)`, where `border` is the Knuth–Morris–Pratt failure
/// function of `r`. Longer tables would need four bytes per heap for that,
/// more than the table itself, so they are searched through the positions of
/// one *marker* value instead (see `candidate_by_markers`).
pub fn period_candidate(values: &ValueTable) -> Option<Periodicity> {
    // A slice, and a folded table, read without error.
    with_slice!(values.as_slice(), s => if s.len() <= FAILURE_FUNCTION_LIMIT {
        candidate_by_failure_function(s.len(), |k| s[k])
    } else {
        candidate_by_markers(s).ok().flatten()
    }, folded f => if f.len() <= FAILURE_FUNCTION_LIMIT {
        let reader = f.cells().reader();
        candidate_by_failure_function(f.len(), |k| reader.value(k))
    } else {
        candidate_by_markers(&f).ok().flatten()
    })
}

/// [`period_candidate`] by the failure function of the reversed sequence.
/// (Of the `len` values `value(0..len)`, read in no order.)
fn candidate_by_failure_function<T: Eq>(
    len: usize,
    value: impl Fn(usize) -> T,
) -> Option<Periodicity> {
    let (period, length) =
        *periodic_prefixes(len, |i, j| value(len - 1 - i) == value(len - 1 - j)).last()?;
    Some(Periodicity {
        preperiod: len - length,
        period,
        saltus: 0,
    })
}

/// For a sequence `x` of `len` symbols compared by `same(i, j)`: each
/// minimal period `p` of a prefix that spans at least two periods, with the
/// longest such prefix, in increasing order of `p`. Knuth–Morris–Pratt: a
/// prefix of length `l` has minimal period `l - border(l)`, which never
/// decreases as the prefix grows.
fn periodic_prefixes(len: usize, same: impl Fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
    let mut found: Vec<(usize, usize)> = Vec::new();
    if len < 2 {
        return found;
    }
    // border[i]: the longest proper border of x[0..=i]; `k` is the last
    // one. The prefix of length `i + 1` is looked at as soon as its border
    // is known (one pass: the table is long and the loop is bound by its
    // branches).
    let mut border = vec![0u32; len];
    let mut k = 0usize;
    for i in 1..len {
        loop {
            if same(i, k) {
                k += 1;
                break;
            }
            if k == 0 {
                break;
            }
            k = border[k - 1] as usize;
        }
        border[i] = k as u32;
        let (length, period) = (i + 1, i + 1 - k);
        match found.last_mut() {
            Some((p, longest)) if *p == period => *longest = length,
            _ if length >= 2 * period => found.push((period, length)),
            _ => {}
        }
    }
    found
}

/// [`period_candidate`] for long tables, in memory proportional to the
/// occurrences of one value.
///
/// If the tail from `n0` has period `p`, the positions of any value `v` in
/// that tail are invariant under a shift by `p`, so the gaps between
/// consecutive positions of `v`, read from the end, repeat with some `k`
/// gaps summing to `p`. The marker `v` is the least frequent value seen in
/// the last quarter (at least 64 times there, if some value is), which lies
/// in any convincing periodic tail (one covering half of the table), so `v`
/// occurs in every period of it. The failure function of its
/// reversed gap sequence gives, for each stretch of marker positions from
/// the end, its minimal gap period; over the stretch inside the values'
/// periodic tail that period divides `k` (Fine and Wilf), so `p` is a
/// multiple of the shift `s` it spans. The multiples `s, 2s, ...` of every
/// such shift are tried on the values themselves, each by scanning back from
/// the end to its first mismatch; the one with the longest tail spanning two
/// periods is then reduced to the minimal period of that tail by trying
/// `p/q` for each prime `q | p`.
/// Every reported period is verified on the values. The search is exact for
/// convincing tails spanning three periods; a shorter tail may be missed (no
/// candidate yet), never misreported.
pub(super) fn candidate_by_markers<S: Sequence + ?Sized>(
    values: &S,
) -> Result<Option<Periodicity>> {
    let total = values.len();
    if total == 0 {
        return Ok(None);
    }
    // How often each value occurs everywhere, and in the last quarter: in
    // one pass, or in a pass over the last quarter where the counts of
    // every value are known (a record run counts its values as it goes).
    let late = total - total / 4;
    let known = values
        .counts()
        .filter(|c| c.len() <= 1 << 24 && c.iter().sum::<u64>() == total as u64);
    let counted = known.is_some();
    let from = if counted { late } else { 0 };
    let mut counts = known.map_or_else(Vec::new, <[u64]>::to_vec);
    let mut counts_late = vec![0; counts.len()];
    let mut too_large = false;
    values.stretches_from(from, |first, stretch| {
        let top = stretch.iter().copied().max().unwrap_or(0) as usize;
        too_large |= top >= 1 << 24;
        if too_large {
            return;
        }
        if counts.len() <= top {
            counts.resize(top + 1, 0);
            counts_late.resize(top + 1, 0);
        }
        let (early, later) = stretch.split_at(late.saturating_sub(first).min(stretch.len()));
        // In tallies that a repeated value does not serialise.
        let add = |counts: &mut Vec<u64>, more: &[u64]| {
            for (count, more) in counts.iter_mut().zip(more) {
                *count += more;
            }
        };
        let later = value_counts(later);
        if !counted {
            add(&mut counts, &value_counts(early));
            add(&mut counts, &later);
        }
        add(&mut counts_late, &later);
    })?;
    if too_large {
        return Ok(None);
    }
    // A marker seen only once or twice per period needs three periods of
    // tail to show its gap period; one seen often shows it within a little
    // more than two.
    let rarest_with = |least: u64| {
        (0..counts.len())
            .filter(|&v| counts_late[v] >= least)
            .min_by_key(|&v| counts[v])
    };
    let Some(marker) = rarest_with(MARKERS_WANTED).or_else(|| rarest_with(1)) else {
        return Ok(None);
    };
    let marker = marker as u32;
    // Positions of the marker, from the end.
    let mut positions: Vec<usize> = Vec::new();
    values.stretches(|first, stretch| {
        // The marker is rare: most stretches have none, found in a loop
        // the compiler vectorises.
        if stretch.contains(&marker) {
            let at = stretch.iter().enumerate().filter(|&(_, &v)| v == marker);
            positions.extend(at.map(|(i, _)| first + i));
        }
    })?;
    positions.reverse();
    let gaps: Vec<usize> = positions.windows(2).map(|w| w[0] - w[1]).collect();
    // Each periodic stretch of gaps proposes the shift of one gap period.
    let shifts = periodic_prefixes(gaps.len(), |i, j| gaps[i] == gaps[j])
        .into_iter()
        .map(|(k, _)| positions[0] - positions[k]);
    // The longest tail wins. A multiple of the best period so far is
    // periodic on that period's tail already: only what lies before it is
    // scanned.
    let mut best: Option<(usize, usize)> = None; // (period, tail)
    for shift in shifts {
        for p in (1..).map(|j| j * shift).take_while(|&p| 2 * p <= total) {
            let known = best
                .filter(|&(q, _)| p.is_multiple_of(q))
                .map_or(p, |(_, l)| l.max(p));
            let length = total - values.agree_back(total - known, p)?;
            if length >= 2 * p && best.is_none_or(|(_, longest)| length > longest) {
                best = Some((p, length));
            }
        }
    }
    let Some((p, length)) = best else {
        return Ok(None);
    };
    Ok(Some(Periodicity {
        preperiod: total - length,
        period: minimal_period(values, p, length)?,
        saltus: 0,
    }))
}

/// A sequence searched for a period by markers: a table in memory, or a
/// value stream read back chunk by chunk (`analysis::record`), so that a
/// record run's whole stream is searched in the memory of one marker's
/// positions.
pub(super) trait Sequence {
    /// The number of values.
    fn len(&self) -> usize;
    /// Calls `visit(first, values)` for consecutive stretches of the
    /// values, in order, `values[i]` being `g(first + i)`: a stretch at a
    /// time, so that the passes over a long stream are loops over slices.
    fn stretches(&self, visit: impl FnMut(usize, &[u32])) -> Result<()> {
        self.stretches_from(0, visit)
    }
    /// [`Self::stretches`] from heap `from` on: the first stretch may
    /// start before it.
    fn stretches_from(&self, from: usize, visit: impl FnMut(usize, &[u32])) -> Result<()>;
    /// How many of the values are each value (index: value), when known
    /// without a pass.
    fn counts(&self) -> Option<&[u64]> {
        None
    }
    /// The smallest `s <= start` such that `g(n) = g(n + p)` for every `n`
    /// in `s..start` (given `start + p <= len`): the tail of period `p`
    /// that the heaps from `start` on are already known to have, extended
    /// back as far as it goes.
    fn agree_back(&self, start: usize, p: usize) -> Result<usize>;
}

impl Sequence for FoldedValues<'_> {
    fn len(&self) -> usize {
        FoldedValues::len(self)
    }

    fn stretches_from(&self, from: usize, mut visit: impl FnMut(usize, &[u32])) -> Result<()> {
        let mut stretch = Vec::with_capacity(STRETCH);
        let cells = self.cells();
        cells.stretches(from.min(cells.len()), cells.len(), |first, values| {
            stretch.clear();
            stretch.extend(values.iter().map(|&v| u32::from(v)));
            visit(first, &stretch);
        });
        Ok(())
    }

    /// Compared a block at a time going back, as a slice is.
    fn agree_back(&self, mut start: usize, p: usize) -> Result<usize> {
        let cells = self.cells();
        let mut block = 8;
        while start > 0 {
            let low = start.saturating_sub(block);
            if !cells.ranges_equal(low, low + p, start - low) {
                while cells.value(start - 1) == cells.value(start - 1 + p) {
                    start -= 1;
                }
                break;
            }
            start = low;
            block = (2 * block).min(1 << 12);
        }
        Ok(start)
    }
}

/// Values a table in memory passes to [`Sequence::stretches`] at a time.
const STRETCH: usize = 1 << 12;

impl<C: Copy + Eq + Into<u32>> Sequence for [C] {
    fn len(&self) -> usize {
        <[C]>::len(self)
    }

    fn stretches_from(&self, from: usize, mut visit: impl FnMut(usize, &[u32])) -> Result<()> {
        let mut stretch = Vec::with_capacity(STRETCH);
        let from = from.min(self.len());
        for (k, cells) in self[from..].chunks(STRETCH).enumerate() {
            stretch.clear();
            stretch.extend(cells.iter().map(|&v| v.into()));
            visit(from + k * STRETCH, &stretch);
        }
        Ok(())
    }

    /// Compared a block at a time going back; blocks start small and
    /// double, so a wrong `p` is rejected after a few comparisons.
    fn agree_back(&self, mut start: usize, p: usize) -> Result<usize> {
        let mut block = 8;
        while start > 0 {
            let low = start.saturating_sub(block);
            if self[low..start] != self[low + p..start + p] {
                while self[start - 1] == self[start - 1 + p] {
                    start -= 1;
                }
                break;
            }
            start = low;
            block = (2 * block).min(1 << 12);
        }
        Ok(start)
    }
}

/// The length of the longest tail of `values` with period `p < len`.
fn periodic_tail<S: Sequence + ?Sized>(values: &S, p: usize) -> Result<usize> {
    Ok(values.len() - values.agree_back(values.len() - p, p)?)
}

/// The minimal period of the tail of `length` values that has period `p`:
/// every period `p' < p` of a tail spanning `p + p'` values divides `p`
/// (Fine and Wilf), so dividing out prime factors while the quotient still
/// fits finds it.
fn minimal_period<S: Sequence + ?Sized>(values: &S, mut p: usize, length: usize) -> Result<usize> {
    let mut rest = p;
    let mut q = 2;
    while rest > 1 {
        if q * q > rest {
            q = rest; // what is left is prime
        }
        if rest.is_multiple_of(q) {
            while rest.is_multiple_of(q) {
                rest /= q;
            }
            while p.is_multiple_of(q) && periodic_tail(values, p / q)? >= length {
                p /= q;
            }
        }
        q += 1;
    }
    Ok(p)
}

/// The arithmetic period of the `total` values `value(0..total)` whose
/// periodic tail is [`convincing`], the shortest such period, if any.
fn find_arithmetic_period(total: usize, value: impl Fn(usize) -> u32) -> Option<Periodicity> {
    let last = total.checked_sub(1)?;
    let value = |n: usize| u64::from(value(n));
    (1..=total / 4).find_map(|period| {
        let top = value(last);
        let saltus = top.checked_sub(value(last - period))?;
        if saltus == 0 {
            return None;
        }
        let mut start = last - period;
        while start > 0 && value(start - 1 + period) == value(start - 1) + saltus {
            start -= 1;
        }
        convincing(total - start, period, total).then_some(Periodicity {
            preperiod: start,
            period,
            saltus,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Nimber;
    use proptest::prelude::*;

    fn nimbers(values: &[u32]) -> ValueTable {
        values.iter().copied().map(Nimber::new).collect()
    }

    /// By brute force: among the periods `p` whose longest periodic tail
    /// `l(p)` spans two periods, the one with the longest tail (the smallest
    /// `p` on ties), if that tail covers half the sequence or repeats
    /// [`CONVINCING_REPEATS`] times.
    fn brute_force(values: &ValueTable) -> Option<(usize, usize)> {
        let values = values.to_vec();
        let total = values.len();
        let tail = |p: usize| {
            total
                - (0..total - p)
                    .rev()
                    .find(|&n| values[n + p] != values[n])
                    .map_or(0, |n| n + 1)
        };
        let (p, length) = (1..total)
            .map(|p| (p, tail(p)))
            .filter(|&(p, length)| length >= 2 * p)
            .max_by_key(|&(p, length)| (length, std::cmp::Reverse(p)))?;
        reportable(length, p, total).then_some((p, total - length))
    }

    /// A folded table's periods are those of the same values two bytes
    /// each: by the failure function, and by markers past its limit.
    #[test]
    fn a_folded_tables_period_is_that_of_its_values() {
        for (len, preperiod, period) in
            [(5000, 31, 17), (FAILURE_FUNCTION_LIMIT + 5000, 1000, 4093)]
        {
            let value = |n: usize| match n {
                0 => 4,
                _ if n < preperiod => 256 + (n % 250) as u32,
                _ => 256 + ((n % period) * 37 % 256) as u32,
            };
            let folded: ValueTable = (0..len).map(|n| Nimber::new(value(n))).collect();
            assert!(matches!(folded.as_slice(), crate::ValueSlice::Folded(_)));
            let mut wide = folded.clone();
            wide.widen();
            assert_eq!(wide.width(), 2);
            let found = find_period(&folded).expect("a period");
            assert_eq!(found.period, period);
            assert_eq!(Some(found), find_period(&wide));
            assert_eq!(period_candidate(&folded), period_candidate(&wide));
        }
    }

    #[test]
    fn reports_the_minimal_period_not_a_multiple() {
        let seq = nimbers(&[0, 1, 2].repeat(10));
        let found = find_period(&seq).unwrap();
        assert_eq!((found.period, found.preperiod), (3, 0));
    }

    #[test]
    fn finds_the_smallest_preperiod() {
        // 1 2 3 | then (0 1) repeated: g(2) = 3 differs from g(4) = 0 ...
        let mut seq: Vec<u32> = vec![1, 2, 3];
        seq.extend([0, 1].repeat(10));
        let found = find_period(&nimbers(&seq)).unwrap();
        assert_eq!((found.period, found.preperiod), (2, 3));
        // ... but a prefix that happens to fit the period is not pre-period.
        let mut seq: Vec<u32> = vec![7, 0, 1];
        seq.extend([0, 1].repeat(10));
        let found = find_period(&nimbers(&seq)).unwrap();
        assert_eq!((found.period, found.preperiod), (2, 1));
    }

    #[test]
    fn aperiodic_tails_are_not_reported() {
        // Values of Nim are not periodic; a few repeats at the end are not
        // a period either.
        let mut seq: Vec<u32> = (0..100).collect();
        seq.extend([1, 2, 1, 2]);
        assert_eq!(find_period(&nimbers(&seq)), None);
    }

    #[test]
    fn arithmetic_periodicity_of_lasker() {
        let lasker: Vec<u32> = (0..200u32)
            .map(|n| match n % 4 {
                0 if n > 0 => n - 1,
                3 => n + 1,
                _ => n,
            })
            .collect();
        let found = find_period(&nimbers(&lasker)).unwrap();
        assert_eq!((found.preperiod, found.period, found.saltus), (1, 4, 4));
        assert_eq!(found.predict(&nimbers(&lasker), 199), Some(200));
        let nim: Vec<u32> = (0..50).collect();
        let found = find_period(&nimbers(&nim)).unwrap();
        assert_eq!((found.preperiod, found.period, found.saltus), (0, 1, 1));
    }

    #[test]
    fn markers_find_long_periods_and_reduce_to_the_minimal_one() {
        // A pre-period of noise, then a block of 500 repeated 9 times; the
        // block itself is (x, 3, 3, ...) with one rare value 9 at its start.
        let block: Vec<u32> = (0..500u32)
            .map(|i| if i == 0 { 9 } else { i % 7 % 3 })
            .collect();
        let mut seq: Vec<u32> = (0..300).map(|i| (i * 7 + 1) % 5).collect();
        for _ in 0..9 {
            seq.extend(&block);
        }
        seq.extend(&block[..123]);
        let found = candidate_by_markers(&seq[..]).unwrap().unwrap();
        assert_eq!(found.period, 500);
        assert_eq!(
            Some(found),
            candidate_by_failure_function(seq.len(), |k| seq[k])
        );
        // Pseudo-random values: a pre-period, then a tail of barely more
        // than two periods, as when an adaptive run first sees its period.
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % 40) as u32
        };
        let mut seq: Vec<u32> = (0..3000).map(|_| next()).collect();
        let block: Vec<u32> = (0..2000).map(|_| next()).collect();
        seq.extend(&block);
        seq.extend(&block);
        seq.extend(&block[..500]);
        let found = candidate_by_markers(&seq[..]).unwrap().unwrap();
        assert_eq!((found.period, found.preperiod), (2000, 3000));
        // A tail of period 6 whose markers repeat every 3 heaps.
        let seq: Vec<u32> = [0, 1, 0, 0, 2, 0].repeat(40);
        let found = candidate_by_markers(&seq[..]).unwrap().unwrap();
        assert_eq!((found.period, found.preperiod), (6, 0));
    }

    proptest! {
        #[test]
        fn agrees_with_brute_force(
            prefix in prop::collection::vec(0u32..4, 0..30),
            cycle in prop::collection::vec(0u32..4, 1..12),
            repeats in 0usize..8,
            tail in 0usize..12,
        ) {
            let mut seq = prefix;
            for _ in 0..repeats {
                seq.extend(&cycle);
            }
            seq.extend(cycle.iter().take(tail));
            let seq = nimbers(&seq);
            let found = find_period(&seq).filter(|f| f.saltus == 0).map(|f| (f.period, f.preperiod));
            prop_assert_eq!(found, brute_force(&seq));
        }

        #[test]
        fn markers_agree_with_the_failure_function(
            prefix in prop::collection::vec(0u32..5, 0..60),
            cycle in prop::collection::vec(0u32..5, 1..40),
            repeats in 2usize..16,
            tail in 0usize..40,
        ) {
            let mut seq = prefix;
            for _ in 0..repeats {
                seq.extend(&cycle);
            }
            seq.extend(cycle.iter().take(tail));
            let exact = candidate_by_failure_function(seq.len(), |k| seq[k]);
            let by_markers = candidate_by_markers(&seq[..]).unwrap();
            // Markers need a little more than two periods of evidence.
            let clear = |f: &Periodicity| {
                let length = seq.len() - f.preperiod;
                convincing(length, f.period, seq.len()) && length >= 3 * f.period
            };
            if seq.len() >= 16 && exact.as_ref().is_some_and(clear) {
                prop_assert_eq!(by_markers, exact);
            } else if let Some(found) = by_markers {
                // Whatever it reports is a real periodic tail.
                prop_assert!(periodic_tail(&seq[..], found.period).unwrap() == seq.len() - found.preperiod);
                prop_assert!(seq.len() - found.preperiod >= 2 * found.period);
            }
        }
    }
}
