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

use crate::Nimber;

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
    pub fn holds_on(&self, values: &[Nimber], from: usize, to: usize) -> bool {
        let end = to.min(values.len().saturating_sub(self.period));
        (from..end)
            .all(|n| u64::from(values[n + self.period]) == u64::from(values[n]) + self.saltus)
    }

    /// The value this periodicity predicts for heap `n >= preperiod`, from
    /// the values of the first period after the pre-period.
    pub fn predict(&self, values: &[Nimber], n: usize) -> Option<u64> {
        let offset = n.checked_sub(self.preperiod)?;
        let base = values.get(self.preperiod + offset % self.period)?;
        Some(u64::from(*base) + self.saltus * (offset / self.period) as u64)
    }
}

/// The periodic behaviour of the tail of `values`, if the tail shows it
/// clearly. Among the periods whose periodic tail spans at least two full
/// periods, the one with the longest tail wins; that tail must cover at least
/// half of the sequence, so a few coincidences at the end of an aperiodic
/// sequence are not reported.
///
/// Plain periodicity is looked for first, in `O(N)` time: with `r` the
/// sequence reversed, a tail of length `l` has minimal period
/// `l - border(l)`, where `border` is the Knuth–Morris–Pratt failure function
/// of `r`. Arithmetic periodicity (for growing sequences) is tried next, for
/// each candidate period in turn, scanning back from the end until the first
/// mismatch.
///
/// ```
/// use grundy::analysis::find_period;
/// use grundy::Nimber;
/// let seq: Vec<Nimber> = [5, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]
///     .into_iter().map(Nimber::new).collect();
/// let found = find_period(&seq).unwrap();
/// assert_eq!((found.preperiod, found.period, found.saltus), (1, 3, 0));
/// ```
pub fn find_period(values: &[Nimber]) -> Option<Periodicity> {
    period_candidate(values)
        .filter(|found| convincing(values.len() - found.preperiod, found.period, values.len()))
        .or_else(|| find_arithmetic_period(values))
}

/// Whether a periodic part of `length` with period `period` is convincing in
/// a sequence of `total` values.
fn convincing(length: usize, period: usize, total: usize) -> bool {
    length >= 2 * period && 2 * length >= total
}

/// The plain period of the longest tail of `values` that spans at least two
/// of its periods, however short that tail is: a candidate to prove or
/// refute, not a finding to report. Its period is the minimal period of that
/// tail and its pre-period the smallest for that period.
pub fn period_candidate(values: &[Nimber]) -> Option<Periodicity> {
    let total = values.len();
    if total < 2 {
        return None;
    }

    let reversed = |i: usize| values[total - 1 - i];
    // border[i]: the longest proper border of reversed[0..=i].
    let mut border = vec![0u32; total];
    let mut best: Option<(usize, usize)> = None; // (period, longest tail)
    for i in 1..total {
        let mut k = border[i - 1] as usize;
        while k > 0 && reversed(i) != reversed(k) {
            k = border[k - 1] as usize;
        }
        if reversed(i) == reversed(k) {
            k += 1;
        }
        border[i] = k as u32;
    }
    // The minimal period of a tail never decreases as the tail grows, so
    // scanning lengths upward, the last convincing period is the answer and
    // the longest tail with that period gives the smallest pre-period.
    for length in 1..=total {
        let period = length - border[length - 1] as usize;
        match best {
            Some((p, _)) if p == period => best = Some((p, length)),
            _ if length >= 2 * period => best = Some((period, length)),
            _ => {}
        }
    }
    let (period, length) = best?;
    Some(Periodicity {
        preperiod: total - length,
        period,
        saltus: 0,
    })
}

fn find_arithmetic_period(values: &[Nimber]) -> Option<Periodicity> {
    let total = values.len();
    let last = total.checked_sub(1)?;
    (1..=total / 4).find_map(|period| {
        let top = u64::from(values[last]);
        let saltus = top.checked_sub(u64::from(values[last - period]))?;
        if saltus == 0 {
            return None;
        }
        let mut start = last - period;
        while start > 0
            && u64::from(values[start - 1 + period]) == u64::from(values[start - 1]) + saltus
        {
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
    use proptest::prelude::*;

    fn nimbers(values: &[u32]) -> Vec<Nimber> {
        values.iter().copied().map(Nimber::new).collect()
    }

    /// By brute force: among the periods `p` whose longest periodic tail
    /// `l(p)` spans two periods, the one with the longest tail (the smallest
    /// `p` on ties), if that tail covers half the sequence.
    fn brute_force(values: &[Nimber]) -> Option<(usize, usize)> {
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
        convincing(length, p, total).then_some((p, total - length))
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
        let mut seq = vec![1, 2, 3];
        seq.extend([0, 1].repeat(10));
        let found = find_period(&nimbers(&seq)).unwrap();
        assert_eq!((found.period, found.preperiod), (2, 3));
        // ... but a prefix that happens to fit the period is not pre-period.
        let mut seq = vec![7, 0, 1];
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
    }
}
