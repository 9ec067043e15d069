//! Guessing a formula for a value sequence, and a rule for its zeros.
//!
//! Every candidate is checked against every value given: a guess is a
//! description that fits the whole computed range from some heap on, and a
//! conjecture beyond it. Candidates are tried from the simplest up, so a
//! game whose values are `n mod 3` is described so, not by a periodic block.

use std::fmt;
use std::ops::ControlFlow;

use super::expression::{self, Expression, NONE};
use super::find_period;
use crate::{Nimber, Result, ValueTable};

/// A closed description of `g(n)` for `n` from some heap on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formula {
    /// `g(n) = c`.
    Constant(u64),
    /// `g(n) = floor(n / k) + c`; with `k = 1, c = 0` this is Nim's `g(n) = n`.
    Linear {
        /// The divisor `k`.
        divisor: u64,
        /// The offset `c`.
        offset: u64,
    },
    /// `g(n) = n mod k`.
    Modulo(u64),
    /// `g(n) = popcount(n) mod 2`, or one minus it (`evil` numbers give 0).
    PopcountParity {
        /// `true` when `g(n) = 1 - popcount(n) mod 2`.
        inverted: bool,
    },
    /// `g(n) = popcount(n)`, the number of ones in binary.
    Popcount,
    /// `g(n) = ctz(n) + c` for `n >= 1`: the exponent of 2 in `n`, plus `c`.
    TrailingZeros {
        /// The offset `c`.
        offset: u64,
    },
    /// `g(n) = 2n + (popcount(n) mod 2)`: the `n`-th odious number (Mock
    /// Turtles, OEIS A000069), or with `evil` the `n`-th evil number.
    OdiousNumbers {
        /// The `n`-th evil number `2n + 1 - popcount(n) mod 2` instead.
        evil: bool,
    },
    /// `g(n) = block[(n - n0) mod p]`.
    Periodic {
        /// The first heap of the periodic part, `n0`.
        preperiod: usize,
        /// The values of one period.
        block: Vec<u64>,
    },
    /// `g(n) = block[(n - n0) mod p] + s * floor((n - n0) / p)`.
    ArithmeticPeriodic {
        /// The first heap of the arithmetic-periodic part, `n0`.
        preperiod: usize,
        /// The values of the first period.
        block: Vec<u64>,
        /// The saltus `s`.
        saltus: u64,
    },
    /// Any other formula of the language (`bigomega(n)`, `digitsum(n, 10)
    /// mod 3`, ...; see [`FORMULA_FUNCTIONS`](super::FORMULA_FUNCTIONS)),
    /// as parsed from its words: its ranges are counted heap by heap, the
    /// number-theoretic functions by a segmented sieve.
    Expression(Expression),
}

impl Formula {
    /// The value the formula gives at heap `n`: `None` where it says
    /// nothing (`ctz(0)`, a difference below 0) or its value passes
    /// `u64::MAX` (a formula the user writes may have any parameters; a
    /// divisor or modulus of 0, which no parse produces, says nothing
    /// either; an expression's values stop at `u64::MAX - 1`, and its
    /// `primepi(n)` at `n` = [`PRIME_COUNT_LAST`](super::PRIME_COUNT_LAST)).
    /// The number-theoretic functions of one heap come from factoring it
    /// (Pollard's rho) and from Lucy's count of primes.
    pub fn eval(&self, n: u64) -> Option<u64> {
        match self {
            Formula::Expression(expression) => expression.eval(n),
            Formula::Constant(c) => Some(*c),
            Formula::Linear { divisor, offset } => n.checked_div(*divisor)?.checked_add(*offset),
            Formula::Modulo(k) => n.checked_rem(*k),
            Formula::PopcountParity { inverted } => {
                Some(u64::from(n.count_ones() % 2 == 1) ^ u64::from(*inverted))
            }
            Formula::Popcount => Some(u64::from(n.count_ones())),
            Formula::TrailingZeros { offset } => {
                (n > 0).then_some(())?;
                u64::from(n.trailing_zeros()).checked_add(*offset)
            }
            Formula::OdiousNumbers { evil } => n
                .checked_mul(2)?
                .checked_add(u64::from(n.count_ones() % 2 == 1) ^ u64::from(*evil)),
            Formula::Periodic { preperiod, block } => {
                // Before the pre-period, the period extended backwards.
                let offset =
                    (i128::from(n) - *preperiod as i128).checked_rem_euclid(block.len() as i128)?;
                block.get(offset as usize).copied()
            }
            Formula::ArithmeticPeriodic {
                preperiod,
                block,
                saltus,
            } => {
                let p = block.len() as i128;
                let offset = i128::from(n) - *preperiod as i128;
                let steps = i128::from(*saltus).checked_mul(offset.checked_div_euclid(p)?)?;
                let first = *block.get(offset.checked_rem_euclid(p)? as usize)?;
                let value = i128::from(first).checked_add(steps)?;
                u64::try_from(value).ok()
            }
        }
    }

    /// The first heap the formula is stated for: the pre-period of a
    /// periodic block, heap 1 for `ctz(n)` (undefined at 0), for an
    /// expression the first where its functions' arguments are in their
    /// domains (1 for `bigomega(n)`), else heap 0.
    pub fn first_heap(&self) -> u64 {
        match self {
            Formula::Expression(expression) => expression.first_heap(),
            Formula::Periodic { preperiod, .. } | Formula::ArithmeticPeriodic { preperiod, .. } => {
                *preperiod as u64
            }
            Formula::TrailingZeros { .. } => 1,
            _ => 0,
        }
    }

    /// How many heaps of `lo..=hi` (`1 <= lo`) have each value, by the
    /// formula alone: `Ok(None)` where a value passes `max_value` (formulas
    /// whose values grow with the heap have as many values as the range
    /// has heaps, or periods) and before the pre-period of a periodic
    /// formula. The families are counted without listing the heaps:
    ///
    /// - `popcount(n)`: the numbers up to `x` with `k` ones, digit by digit
    ///   of `x` (choosing where `n` first falls below `x`);
    /// - `ctz(n)`: `floor(x / 2^k) - floor(x / 2^(k+1))` numbers `1..=x`
    ///   have exactly `k` trailing zeros;
    /// - odd popcount: each pair `2i, 2i + 1` holds one of each parity;
    /// - periodic and modular values: whole periods and a remainder;
    /// - `floor(n / k) + c`: each value `q + c` is taken by the heaps
    ///   `qk..qk + k` within the range;
    /// - odious and evil numbers: increasing, so each value once;
    /// - arithmetic-periodic values: each place `i` of the block takes the
    ///   values `block[i] + s j` for a run of `j`, an arithmetic progression
    ///   added by a difference array of stride `s`;
    /// - expressions (`bigomega(n)`, ...): heap by heap, the
    ///   number-theoretic functions by a segmented sieve; refused
    ///   ([`crate::Error::Refused`]) past
    ///   [`SIEVE_WORK`](super::SIEVE_WORK) steps and where the expression
    ///   gives no value, and stopped by the current
    ///   [`Cancel`](crate::Cancel) token.
    pub fn counts_between(&self, lo: u64, hi: u64, max_value: u64) -> Result<Option<Vec<u128>>> {
        if lo == 0 || lo > hi {
            return Ok(None);
        }
        let Formula::Expression(expression) = self else {
            return Ok(self.closed_counts(lo, hi, max_value));
        };
        let mut counts = Vec::new();
        let (mut missing, mut past) = (None, false);
        expression.each_block(lo, hi, |start, values| {
            for (i, &v) in values.iter().enumerate() {
                if v == NONE {
                    missing = Some(start + i as u64);
                } else if v > max_value {
                    past = true;
                } else {
                    let v = v as usize;
                    if counts.len() <= v {
                        counts.resize(v + 1, 0u128);
                    }
                    counts[v] += 1;
                    continue;
                }
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        })?;
        if let Some(heap) = missing {
            return Err(expression::no_value(expression, heap));
        }
        Ok((!past).then_some(counts))
    }

    /// The first heap of `lo..=hi` where the formula's value is not
    /// `value(n)` (gives another, or none), if any: heap by heap, an
    /// expression a block at a time as [`Formula::counts_between`] lists
    /// it, within the same limits.
    pub fn first_difference(
        &self,
        lo: u64,
        hi: u64,
        value: impl Fn(u64) -> u64,
    ) -> Result<Option<u64>> {
        if lo > hi {
            return Ok(None);
        }
        let Formula::Expression(expression) = self else {
            return Ok((lo..=hi).find(|&n| self.eval(n) != Some(value(n))));
        };
        let mut found = None;
        expression.each_block(lo, hi, |start, values| {
            found = (start..=start + (values.len() as u64 - 1))
                .zip(values)
                .find(|&(n, &v)| v == NONE || v != value(n))
                .map(|(n, _)| n);
            if found.is_some() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })?;
        Ok(found)
    }

    /// [`Formula::counts_between`] for the families, in closed form
    /// (`1 <= lo <= hi`).
    fn closed_counts(&self, lo: u64, hi: u64, max_value: u64) -> Option<Vec<u128>> {
        if let Some(counts) = self.growing_counts(lo, hi, max_value) {
            let mut counts = counts?;
            while counts.last() == Some(&0) {
                counts.pop();
            }
            return Some(counts);
        }
        // C(x): the counts over heaps 1..=x (x >= lo - 1 >= 0).
        let upto = |x: u64| -> Option<Vec<u128>> {
            let x128 = u128::from(x);
            let mut counts = Vec::new();
            let mut put = |v: u64, c: u128| -> Option<()> {
                if v > max_value {
                    return (c == 0).then_some(());
                }
                let v = v as usize;
                if counts.len() <= v {
                    counts.resize(v + 1, 0);
                }
                counts[v] += c;
                Some(())
            };
            match self {
                Formula::Constant(c) => put(*c, x128)?,
                Formula::Modulo(k) => {
                    // Heaps 0..=x, less heap 0 (value 0).
                    let (k, all) = (u128::from(*k), x128 + 1);
                    if k > u128::from(max_value) + 1 {
                        return None;
                    }
                    for v in 0..k {
                        let c = all / k + u128::from(v < all % k) - u128::from(v == 0);
                        put(v as u64, c)?;
                    }
                }
                Formula::PopcountParity { inverted } => {
                    let all = x128 + 1;
                    let odd_last = all % 2 == 1 && x.count_ones() % 2 == 1;
                    let odious = all / 2 + u128::from(odd_last);
                    let evil = all - odious - 1; // less heap 0, which is evil
                    put(u64::from(!*inverted), odious)?;
                    put(u64::from(*inverted), evil)?;
                }
                Formula::Popcount => {
                    // Numbers 0..=x with k ones: walk the ones of x from the
                    // top; below each one, the lower bits are free.
                    let mut by_ones = [0u128; 65];
                    let mut ones_above = 0usize;
                    for bit in (0..64).rev() {
                        if x >> bit & 1 == 1 {
                            for free in 0..=bit {
                                by_ones[ones_above + free] += binomial(bit, free);
                            }
                            ones_above += 1;
                        }
                    }
                    by_ones[ones_above] += 1; // x itself
                    by_ones[0] -= 1; // heap 0
                    for (k, &c) in by_ones.iter().enumerate() {
                        put(k as u64, c)?;
                    }
                }
                Formula::TrailingZeros { offset } => {
                    for k in 0..64 {
                        let c = (x >> k) - (x >> k >> 1);
                        put(offset.saturating_add(k), u128::from(c))?;
                    }
                }
                Formula::Periodic { preperiod, block } => {
                    // Only from the pre-period on, where the block repeats.
                    let n0 = *preperiod as u64;
                    if lo < n0 {
                        return None;
                    }
                    if x >= n0 {
                        let (p, span) = (block.len() as u128, u128::from(x - n0) + 1);
                        for (i, &v) in block.iter().enumerate() {
                            put(v, span / p + u128::from((i as u128) < span % p))?;
                        }
                    }
                }
                Formula::Linear { .. }
                | Formula::OdiousNumbers { .. }
                | Formula::ArithmeticPeriodic { .. } => unreachable!("counted by growing_counts"),
                Formula::Expression(_) => unreachable!("counted by counts_between"),
            }
            Some(counts)
        };
        let mut counts = upto(hi)?;
        for (v, c) in upto(lo - 1)?.into_iter().enumerate() {
            counts[v] -= c;
        }
        while counts.last() == Some(&0) {
            counts.pop();
        }
        Some(counts)
    }

    /// [`Formula::counts_between`] for the formulas whose values grow with
    /// the heap, listed value by value (`lo >= 1`, `lo <= hi`): `Some(None)`
    /// where a value passes `max_value`, `None` for the other formulas.
    #[allow(clippy::option_option)]
    fn growing_counts(&self, lo: u64, hi: u64, max_value: u64) -> Option<Option<Vec<u128>>> {
        let listed = |largest: Option<u64>| largest.filter(|&v| v <= max_value);
        Some(match self {
            Formula::Linear { divisor, offset } => {
                let d = u128::from(*divisor);
                listed(self.eval(hi)).map(|_| {
                    let (first, last) = (lo / divisor, hi / divisor);
                    let mut counts = vec![0u128; (last + offset + 1) as usize];
                    for q in first..=last {
                        let (start, end) = (u128::from(q) * d, u128::from(q) * d + d - 1);
                        counts[(q + offset) as usize] =
                            end.min(u128::from(hi)) - start.max(u128::from(lo)) + 1;
                    }
                    counts
                })
            }
            Formula::OdiousNumbers { .. } => listed(self.eval(hi)).map(|largest| {
                let mut counts = vec![0u128; largest as usize + 1];
                for n in lo..=hi {
                    // Increasing in n, so every value is below the last.
                    counts[self.eval(n).unwrap_or(largest) as usize] += 1;
                }
                counts
            }),
            Formula::ArithmeticPeriodic {
                preperiod,
                block,
                saltus: 0,
            } => Formula::Periodic {
                preperiod: *preperiod,
                block: block.clone(),
            }
            .closed_counts(lo, hi, max_value),
            Formula::ArithmeticPeriodic {
                preperiod,
                block,
                saltus,
            } => {
                let (n0, p, s) = (*preperiod as u64, block.len() as u64, *saltus);
                if lo < n0 || p == 0 {
                    return Some(None);
                }
                let periods = (hi - n0) / p;
                let top = block.iter().max().copied().unwrap_or(0);
                let largest = s.checked_mul(periods).and_then(|v| v.checked_add(top));
                listed(largest).map(|largest| {
                    // diff[v]: progressions of step s starting (+1) or
                    // ending past (-1) at v, summed with stride s.
                    let len = largest as usize + 1;
                    let mut counts = vec![0i128; len];
                    for (i, &first) in block.iter().enumerate() {
                        let at = n0 + i as u64; // the first heap of place i
                        if at > hi {
                            continue;
                        }
                        let j_lo = lo.saturating_sub(at).div_ceil(p);
                        let j_hi = (hi - at) / p;
                        if j_lo > j_hi {
                            continue;
                        }
                        counts[(first + s * j_lo) as usize] += 1;
                        let past = first + s * (j_hi + 1);
                        if let Some(slot) = counts.get_mut(past as usize) {
                            *slot -= 1;
                        }
                    }
                    for v in s as usize..len {
                        counts[v] += counts[v - s as usize];
                    }
                    counts.into_iter().map(|c| c as u128).collect()
                })
            }
            _ => return None,
        })
    }

    /// `(p, s)` when the formula is arithmetic-periodic from its start:
    /// `eval(n + p) = eval(n) + s`.
    fn arithmetic_period(&self) -> Option<(u64, u64)> {
        match self {
            Formula::Constant(_) => Some((1, 0)),
            Formula::Linear { divisor, .. } => Some((*divisor, 1)),
            Formula::Modulo(k) => Some((*k, 0)),
            Formula::Periodic { block, .. } => Some((block.len() as u64, 0)),
            Formula::ArithmeticPeriodic { block, saltus, .. } => {
                Some((block.len() as u64, *saltus))
            }
            _ => None,
        }
    }

    /// How many numbers it takes to state the formula: guesses prefer the
    /// least.
    fn complexity(&self) -> usize {
        match self {
            Formula::Constant(_) => 1,
            Formula::Linear { .. } | Formula::Modulo(_) => 2,
            Formula::PopcountParity { .. }
            | Formula::Popcount
            | Formula::TrailingZeros { .. }
            | Formula::OdiousNumbers { .. } => 3,
            Formula::Periodic { block, .. } => 3 + block.len(),
            Formula::ArithmeticPeriodic { block, .. } => 4 + block.len(),
            Formula::Expression(expression) => expression.size(),
        }
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |block: &[u64]| {
            let items: Vec<String> = block.iter().map(u64::to_string).collect();
            items.join(" ")
        };
        match self {
            Formula::Constant(c) => write!(f, "g(n) = {c}"),
            Formula::Linear {
                divisor: 1,
                offset: 0,
            } => write!(f, "g(n) = n"),
            Formula::Linear { divisor: 1, offset } => write!(f, "g(n) = n + {offset}"),
            Formula::Linear { divisor, offset: 0 } => write!(f, "g(n) = floor(n / {divisor})"),
            Formula::Linear { divisor, offset } => {
                write!(f, "g(n) = floor(n / {divisor}) + {offset}")
            }
            Formula::Modulo(k) => write!(f, "g(n) = n mod {k}"),
            Formula::PopcountParity { inverted: false } => {
                write!(f, "g(n) = popcount(n) mod 2 (1 on odious n, 0 on evil n)")
            }
            Formula::PopcountParity { inverted: true } => {
                write!(
                    f,
                    "g(n) = 1 - popcount(n) mod 2 (1 on evil n, 0 on odious n)"
                )
            }
            Formula::Popcount => write!(f, "g(n) = popcount(n), the number of 1 bits of n"),
            Formula::TrailingZeros { offset: 0 } => {
                write!(f, "g(n) = ctz(n), the exponent of 2 in n")
            }
            Formula::TrailingZeros { offset } => {
                write!(f, "g(n) = ctz(n) + {offset}, ctz(n) the exponent of 2 in n")
            }
            Formula::OdiousNumbers { evil: false } => {
                write!(f, "g(n) = 2n + popcount(n) mod 2, the n-th odious number")
            }
            Formula::OdiousNumbers { evil: true } => {
                write!(f, "g(n) = 2n + 1 - popcount(n) mod 2, the n-th evil number")
            }
            Formula::Periodic {
                preperiod: 0,
                block,
            } => write!(f, "g(n) = [{}][n mod {}]", list(block), block.len()),
            Formula::Periodic { preperiod, block } => write!(
                f,
                "g(n) = [{}][(n - {preperiod}) mod {}]",
                list(block),
                block.len()
            ),
            Formula::ArithmeticPeriodic {
                preperiod,
                block,
                saltus,
            } => write!(
                f,
                "g(n) = [{}][(n - {preperiod}) mod {p}] + {saltus} * floor((n - {preperiod}) / {p})",
                list(block),
                p = block.len()
            ),
            Formula::Expression(expression) => write!(f, "g(n) = {expression}"),
        }
    }
}

/// A formula that fits the values from some heap on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guess {
    /// The formula.
    pub formula: Formula,
    /// The formula fits every value from this heap on.
    pub from: usize,
    /// Heaps below `from` where it does not fit.
    pub exceptions: Vec<usize>,
}

impl Guess {
    /// Whether the guess holds for every heap from `from` on, not only the
    /// computed ones: `analysis` must have a proven (arithmetic) period, and
    /// the formula must be arithmetic-periodic too. Two sequences with
    /// `g(n + p) = g(n) + s` and `f(n + q) = f(n) + t` from heap `m` on agree
    /// everywhere past `m` when they agree on `m..m + L`, `L = lcm(p, q)`, and
    /// gain the same over `L` (`s L / p = t L / q`): both are then determined
    /// by that window and that gain.
    pub fn is_proven_by(&self, analysis: &super::Analysis) -> bool {
        let (Some(found), Some((q, t))) = (analysis.periodicity, self.formula.arithmetic_period())
        else {
            return false;
        };
        if !analysis.is_proven() {
            return false;
        }
        let p = found.period as u64;
        let lcm = p / gcd(p, q) * q;
        if found.saltus * (lcm / p) != t * (lcm / q) || lcm > 1 << 24 {
            return false;
        }
        let start = self.from.max(found.preperiod) as u64;
        (start..start + lcm)
            .all(|n| self.formula.eval(n) == found.predict(&analysis.values, n as usize))
    }
}

/// Everything `guess` says about a value sequence: the simplest formula,
/// whether a proven period makes it a theorem, and a rule for the
/// P-positions.
#[derive(Clone, Debug, PartialEq)]
pub struct GuessReport {
    /// The values were `g(0..=computed_to)`.
    pub computed_to: usize,
    /// The formula, if one fits.
    pub guess: Option<Guess>,
    /// Whether the analysis's proven period proves the formula for every
    /// heap ([`Guess::is_proven_by`]).
    pub proven: bool,
    /// The P-positions (heaps of value 0) found.
    pub p_positions: Vec<u64>,
    /// A rule for them: proven for every heap when `p_rule_proven`, else
    /// verified on the computed heaps only.
    pub p_rule: Option<SetRule>,
    /// Whether the proven period makes `p_rule` hold for every heap.
    pub p_rule_proven: bool,
}

/// Guesses a formula for `values` and a rule for their P-positions;
/// `analysis`, when the values come from one, may prove the formula.
pub fn guess_report(values: &[Nimber], analysis: Option<&super::Analysis>) -> GuessReport {
    let computed_to = values.len().saturating_sub(1);
    let guess = guess_formula(values);
    let proven = match (&guess, analysis) {
        (Some(g), Some(a)) => g.is_proven_by(a),
        _ => false,
    };
    let p_positions: Vec<u64> = (0..values.len())
        .filter(|&n| values[n].is_zero())
        .map(|n| n as u64)
        .collect();
    let proven_rule = analysis.and_then(proven_p_rule);
    let p_rule_proven = proven_rule.is_some();
    let p_rule = proven_rule.or_else(|| guess_set(&p_positions, computed_to as u64));
    GuessReport {
        computed_to,
        guess,
        proven,
        p_positions,
        p_rule,
        p_rule_proven,
    }
}

/// The P-positions of a game whose periodicity is proven, as a rule that
/// holds for every heap. From the pre-period `n0` on, `g(n)` repeats with
/// period `p`, so the heaps of value 0 do too: they are the residues of
/// the block's zeros, and the heaps before `n0` are listed. The rule is
/// then made minimal: the smallest period `q` dividing `p` with which the
/// zeros repeat over one block (then everywhere, as everything repeats
/// over `p`), and the smallest start from which they repeat with `q`
/// (checked heap by heap below `n0`). With a saltus `s > 0`,
/// `g(n0 + r + kp) >= ks > 0` for `k >= 1`: the zeros are those before
/// `n0 + p`, a finite set.
fn proven_p_rule(analysis: &super::Analysis) -> Option<SetRule> {
    let found = analysis.proven_periodicity()?;
    let values = &analysis.values;
    let (n0, p) = (found.preperiod, found.period);
    if values.len() < n0 + p {
        return None;
    }
    let zero = |n: usize| -> bool {
        if n < n0 + p {
            values.at(n).is_zero()
        } else {
            values.at(n0 + (n - n0) % p).is_zero()
        }
    };
    if found.saltus > 0 || (n0..n0 + p).all(|n| !zero(n)) {
        let members = (0..n0 + p).filter(|&n| zero(n)).map(|n| n as u64).collect();
        return Some(SetRule::Finite { members });
    }
    let q = (1..=p)
        .filter(|q| p % q == 0)
        .find(|&q| (n0..n0 + p).all(|n| zero(n) == zero(n + q)))
        .unwrap_or(p);
    let mut from = n0;
    while from > 0 && zero(from - 1) == zero(from - 1 + q) {
        from -= 1;
    }
    let residues: std::collections::BTreeSet<u64> = (from..from + q)
        .filter(|&n| zero(n))
        .map(|n| (n % q) as u64)
        .collect();
    Some(SetRule::Residues {
        modulus: q as u64,
        residues: residues.into_iter().collect(),
        from: from as u64,
        early: (0..from).filter(|&n| zero(n)).map(|n| n as u64).collect(),
    })
}

/// The greatest common divisor, by Euclid's algorithm (`gcd(a, 0) = a`).
pub(crate) fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The simplest formula that fits every value of `values` from some heap on,
/// with at most half of the range before it.
///
/// ```
/// use grundy::analysis::{guess_formula, Formula};
/// use grundy::Nimber;
/// let values: Vec<Nimber> = (0..60).map(|n| Nimber::new(n % 3)).collect();
/// assert_eq!(guess_formula(&values).unwrap().formula, Formula::Modulo(3));
/// ```
pub fn guess_formula(values: &[Nimber]) -> Option<Guess> {
    let len = values.len();
    if len < 4 {
        return None;
    }
    let values: Vec<u64> = values.iter().map(|&v| u64::from(v)).collect();
    let last = *values.last()?;
    let mut candidates = vec![
        Formula::Constant(last),
        Formula::PopcountParity { inverted: false },
        Formula::PopcountParity { inverted: true },
        Formula::Popcount,
        Formula::OdiousNumbers { evil: false },
        Formula::OdiousNumbers { evil: true },
    ];
    let n = (len - 1) as u64;
    for divisor in 1..=16u64 {
        if let Some(offset) = last.checked_sub(n / divisor) {
            candidates.push(Formula::Linear { divisor, offset });
        }
    }
    candidates.extend((2..=64u64).map(Formula::Modulo));
    if let Some(offset) = last.checked_sub(u64::from(n.trailing_zeros())) {
        candidates.push(Formula::TrailingZeros { offset });
    }
    if let Some(found) = find_period(
        &values
            .iter()
            .map(|&v| Nimber::new(v as u32))
            .collect::<ValueTable>(),
    ) {
        let block = values[found.preperiod..found.preperiod + found.period].to_vec();
        candidates.push(if found.saltus == 0 {
            Formula::Periodic {
                preperiod: found.preperiod,
                block,
            }
        } else {
            Formula::ArithmeticPeriodic {
                preperiod: found.preperiod,
                block,
                saltus: found.saltus,
            }
        });
    }
    let allowed_start = len / 2;
    candidates
        .into_iter()
        .filter_map(|formula| {
            // The smallest heap from which the formula fits every value.
            let from = (0..len)
                .rev()
                .find(|&n| formula.eval(n as u64) != Some(values[n]))
                .map_or(0, |n| n + 1);
            (from <= allowed_start).then(|| {
                let exceptions = (0..from)
                    .filter(|&n| formula.eval(n as u64) != Some(values[n]))
                    .collect();
                Guess {
                    formula,
                    from,
                    exceptions,
                }
            })
        })
        .min_by_key(|g| (g.formula.complexity(), g.exceptions.len(), g.from))
}

/// A rule describing a set of heaps, such as the P-positions.
#[derive(Clone, Debug, PartialEq)]
pub enum SetRule {
    /// `{first, first + step, first + 2 step, ...}`.
    Arithmetic {
        /// The first member.
        first: u64,
        /// The common difference.
        step: u64,
    },
    /// The Fibonacci numbers 1, 2, 3, 5, 8, ...
    Fibonacci,
    /// The heaps `n >= from` with `n mod modulus` in `residues`, plus the
    /// listed smaller ones.
    Residues {
        /// The modulus.
        modulus: u64,
        /// The residues in the set, increasing.
        residues: Vec<u64>,
        /// Where the periodic pattern starts.
        from: u64,
        /// Members below `from`.
        early: Vec<u64>,
    },
    /// Exactly these heaps, and no others.
    Finite {
        /// The members, increasing.
        members: Vec<u64>,
    },
    /// A Beatty sequence `floor(k * alpha)` for `k = 1, 2, ...`; every
    /// `alpha` in `low..high` fits, `named` is a known constant among them.
    Beatty {
        /// The least `alpha` that fits.
        low: f64,
        /// Every fitting `alpha` is below this.
        high: f64,
        /// A known constant in the interval, such as the golden ratio.
        named: Option<&'static str>,
    },
}

impl fmt::Display for SetRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetRule::Arithmetic { first, step } => {
                write!(f, "{first} + {step}k for k = 0, 1, 2, ...")
            }
            SetRule::Fibonacci => write!(f, "the Fibonacci numbers 1, 2, 3, 5, 8, ..."),
            SetRule::Residues {
                modulus,
                residues,
                from,
                early,
            } => {
                let listed: Vec<String> = residues.iter().map(u64::to_string).collect();
                write!(f, "n = {} (mod {modulus})", listed.join(", "))?;
                if *from > 0 {
                    write!(f, " for n >= {from}")?;
                    if !early.is_empty() {
                        let early: Vec<String> = early.iter().map(u64::to_string).collect();
                        write!(f, ", and {}", early.join(", "))?;
                    }
                }
                Ok(())
            }
            SetRule::Finite { members } if members.is_empty() => write!(f, "none"),
            SetRule::Finite { members } => {
                let listed: Vec<String> = members.iter().map(u64::to_string).collect();
                write!(f, "n = {} only", listed.join(", "))
            }
            SetRule::Beatty { low, high, named } => {
                write!(f, "floor(k * alpha), any alpha in [{low:.9}, {high:.9})")?;
                if let Some(name) = named {
                    write!(f, ", e.g. alpha = {name}")?;
                }
                Ok(())
            }
        }
    }
}

/// Constants a Beatty sequence is often built from.
const NAMED_CONSTANTS: [(&str, f64); 7] = [
    ("the golden ratio (1+sqrt 5)/2", 1.618_033_988_749_895),
    ("phi^2 = (3+sqrt 5)/2", 2.618_033_988_749_895),
    ("sqrt 2", std::f64::consts::SQRT_2),
    ("2 + sqrt 2", 2.0 + std::f64::consts::SQRT_2),
    ("sqrt 3", 1.732_050_807_568_877_2),
    ("e", std::f64::consts::E),
    ("pi", std::f64::consts::PI),
];

/// A rule that lists exactly `members` (sorted, increasing) among
/// `0..=limit`, if one of the known kinds fits. Needs at least 4 members.
///
/// ```
/// use grundy::analysis::{guess_set, SetRule};
/// // Lower Wythoff numbers floor(k * phi), k = 0, 1, 2, ...
/// let members: Vec<u64> = (0..=40).map(|k| (k as f64 * 1.618033988749895) as u64).collect();
/// assert!(matches!(guess_set(&members, 64), Some(SetRule::Beatty { named: Some(_), .. })));
/// ```
pub fn guess_set(members: &[u64], limit: u64) -> Option<SetRule> {
    if members.len() < 4 {
        return None;
    }
    let (first, step) = (members[0], members[1] - members[0]);
    let arithmetic = step > 0
        && members.windows(2).all(|w| w[1] - w[0] == step)
        && members.last()? + step > limit;
    if arithmetic {
        return Some(SetRule::Arithmetic { first, step });
    }
    let mut fibonacci = vec![1u64, 2];
    while fibonacci[fibonacci.len() - 1] <= limit {
        let next = fibonacci[fibonacci.len() - 1] + fibonacci[fibonacci.len() - 2];
        fibonacci.push(next);
    }
    fibonacci.retain(|&f| f <= limit);
    let positive = members.strip_prefix(&[0]).unwrap_or(members);
    if positive == fibonacci.as_slice() {
        return Some(SetRule::Fibonacci);
    }
    beatty(members, limit).or_else(|| residues(members, limit))
}

/// The set as an eventually periodic pattern of membership.
fn residues(members: &[u64], limit: u64) -> Option<SetRule> {
    let mut indicator = vec![Nimber::ZERO; usize::try_from(limit).ok()? + 1];
    for &m in members {
        *indicator.get_mut(usize::try_from(m).ok()?)? = Nimber::new(1);
    }
    let found = find_period(&ValueTable::from(indicator.clone())).filter(|f| f.saltus == 0)?;
    let (from, modulus) = (found.preperiod as u64, found.period as u64);
    let residues: Vec<u64> = (from..from + modulus)
        .filter(|&n| indicator[n as usize].get() == 1)
        .map(|n| n % modulus)
        .collect::<std::collections::BTreeSet<u64>>()
        .into_iter()
        .collect();
    if residues.is_empty() {
        return None;
    }
    let early = members.iter().copied().filter(|&m| m < from).collect();
    Some(SetRule::Residues {
        modulus,
        residues,
        from,
        early,
    })
}

/// `floor(k alpha) = members[k]` for every `k` (starting at 0, or at 1
/// when 0 is not a member) means `members[k] / k <= alpha < (members[k] +
/// 1) / k`; intersect those intervals.
fn beatty(members: &[u64], limit: u64) -> Option<SetRule> {
    let first_k = if members[0] == 0 { 0 } else { 1 };
    let mut low = f64::MIN;
    let mut high = f64::MAX;
    for (i, &m) in members.iter().enumerate() {
        let k = (i + first_k) as f64;
        if k > 0.0 {
            low = low.max(m as f64 / k);
            high = high.min((m + 1) as f64 / k);
        }
    }
    // The next member must lie beyond the range, or the set is incomplete.
    let next = ((members.len() + first_k) as f64 * low).floor() as u64;
    if low >= high || next <= limit || low <= 1.0 {
        return None;
    }
    let named = NAMED_CONSTANTS
        .iter()
        .find(|(_, value)| (low..high).contains(value))
        .map(|(name, _)| *name);
    Some(SetRule::Beatty { low, high, named })
}

/// `n choose k`, exactly, for `n <= 64`.
fn binomial(n: usize, k: usize) -> u128 {
    (0..k).fold(1u128, |c, i| c * (n - i) as u128 / (i + 1) as u128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_counts_equal_the_counts_of_the_values_they_give() {
        let formulas = [
            Formula::Constant(3),
            Formula::Modulo(5),
            Formula::PopcountParity { inverted: false },
            Formula::PopcountParity { inverted: true },
            Formula::Popcount,
            Formula::TrailingZeros { offset: 0 },
            Formula::TrailingZeros { offset: 2 },
            Formula::Periodic {
                preperiod: 7,
                block: vec![0, 4, 1, 1, 2],
            },
            Formula::Linear {
                divisor: 1,
                offset: 0,
            },
            Formula::Linear {
                divisor: 7,
                offset: 3,
            },
            Formula::OdiousNumbers { evil: false },
            Formula::OdiousNumbers { evil: true },
            Formula::ArithmeticPeriodic {
                preperiod: 7,
                block: vec![3, 0, 5],
                saltus: 2,
            },
            Formula::ArithmeticPeriodic {
                preperiod: 7,
                block: vec![1, 0, 4, 2],
                saltus: 0,
            },
        ];
        for formula in &formulas {
            for (lo, hi) in [(1, 1), (1, 2), (7, 64), (8, 1000), (513, 4095), (100, 101)] {
                let periodic = matches!(
                    formula,
                    Formula::Periodic { .. } | Formula::ArithmeticPeriodic { .. }
                );
                if periodic && lo < 7 {
                    // Before its pre-period a periodic formula says nothing.
                    assert_eq!(formula.counts_between(lo, hi, 1000), Ok(None));
                    continue;
                }
                let mut expected: Vec<u128> = Vec::new();
                for n in lo..=hi {
                    let v = formula.eval(n).unwrap() as usize;
                    if expected.len() <= v {
                        expected.resize(v + 1, 0);
                    }
                    expected[v] += 1;
                }
                while expected.last() == Some(&0) {
                    expected.pop();
                }
                let counted = formula.counts_between(lo, hi, 10_000).unwrap().unwrap();
                assert_eq!(counted, expected, "{formula} on {lo}..={hi}");
            }
        }
        // Up to 10^18 without listing a heap: ctz(n) = k for 10^18 / 2^(k+1)
        // heaps, about.
        let ctz =
            Formula::TrailingZeros { offset: 0 }.counts_between(1, 1_000_000_000_000_000_000, 64);
        let ctz = ctz.unwrap().unwrap();
        assert_eq!(ctz.iter().sum::<u128>(), 1_000_000_000_000_000_000);
        assert_eq!(ctz[0], 500_000_000_000_000_000);
        // Values past the cap: growing formulas have one value per heap
        // (or period).
        assert!(
            Formula::Linear {
                divisor: 1,
                offset: 0
            }
            .counts_between(1, 101, 100)
            .unwrap()
            .is_none()
        );
        assert!(
            Formula::OdiousNumbers { evil: false }
                .counts_between(1, 1 << 40, 1 << 20)
                .unwrap()
                .is_none()
        );
        assert!(
            Formula::Modulo(5).counts_between(1, 10, 3) == Ok(None),
            "values past the cap"
        );
    }

    fn nimbers(values: impl IntoIterator<Item = u64>) -> Vec<Nimber> {
        values.into_iter().map(|v| Nimber::new(v as u32)).collect()
    }

    fn guessed(values: impl IntoIterator<Item = u64>) -> Formula {
        guess_formula(&nimbers(values)).unwrap().formula
    }

    #[test]
    fn simple_formulas_win_over_periodic_blocks() {
        assert_eq!(
            guessed(0..200),
            Formula::Linear {
                divisor: 1,
                offset: 0
            }
        );
        assert_eq!(guessed((0..200).map(|n| n % 5)), Formula::Modulo(5));
        assert_eq!(
            guessed((0..200).map(|n| n / 3 + 2)),
            Formula::Linear {
                divisor: 3,
                offset: 2
            }
        );
        assert_eq!(guessed((0..200).map(|_| 4)), Formula::Constant(4));
        assert_eq!(
            guessed((0..256u64).map(|n| u64::from(n.count_ones() % 2))),
            Formula::PopcountParity { inverted: false }
        );
        assert_eq!(
            guessed((0..256u64).map(|n| u64::from(n.count_ones()))),
            Formula::Popcount
        );
        // g(0) = 0, then ctz(n) + 1: heap 0 is the one exception.
        let ruler =
            std::iter::once(0).chain((1..256u64).map(|n| u64::from(n.trailing_zeros()) + 1));
        let guess = guess_formula(&nimbers(ruler)).unwrap();
        assert_eq!(guess.formula, Formula::TrailingZeros { offset: 1 });
        assert_eq!((guess.from, guess.exceptions), (1, vec![0]));
        // Mock Turtles: the odious numbers.
        assert_eq!(
            guessed((0..100u64).map(|n| 2 * n + u64::from(n.count_ones() % 2))),
            Formula::OdiousNumbers { evil: false }
        );
    }

    #[test]
    fn periodic_games_get_their_block() {
        let mut values = vec![5, 5, 5];
        values.extend([0, 1, 1, 2].repeat(20));
        let guess = guess_formula(&nimbers(values)).unwrap();
        assert_eq!(
            guess.formula,
            Formula::Periodic {
                preperiod: 3,
                block: vec![0, 1, 1, 2]
            }
        );
        assert_eq!(guess.formula.eval(3 + 4 * 1000 + 3), Some(2));
        // The exceptions are the heaps that break the period extended
        // backwards, not every heap before it.
        assert_eq!(guess.exceptions, vec![0, 1, 2]);
        let mut values = vec![0, 1, 9];
        values.extend([0, 1, 1, 2].repeat(20));
        let guess = guess_formula(&nimbers(values)).unwrap();
        assert_eq!((guess.from, guess.exceptions), (3, vec![0, 2]));
    }

    #[test]
    fn sets_of_heaps() {
        assert_eq!(
            guess_set(&[3, 10, 17, 24, 31], 35),
            Some(SetRule::Arithmetic { first: 3, step: 7 })
        );
        // Not complete up to the limit: 38 should be in it.
        assert_eq!(guess_set(&[3, 10, 17, 24, 31], 40), None);
        assert_eq!(
            guess_set(&[1, 2, 3, 5, 8, 13, 21], 33),
            Some(SetRule::Fibonacci)
        );
        let sqrt2: Vec<u64> = (1..=50)
            .map(|k| (k as f64 * std::f64::consts::SQRT_2) as u64)
            .collect();
        match guess_set(&sqrt2, 71) {
            Some(SetRule::Beatty { named, low, high }) => {
                assert_eq!(named, Some("sqrt 2"));
                assert!(low <= std::f64::consts::SQRT_2 && std::f64::consts::SQRT_2 < high);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(guess_set(&[1, 2, 4, 8, 16, 32], 63), None);
        // Subtraction {1,3,4}: P-positions are 0 and 2 mod 7.
        let p: Vec<u64> = (0..=200).filter(|n| n % 7 == 0 || n % 7 == 2).collect();
        assert_eq!(
            guess_set(&p, 200),
            Some(SetRule::Residues {
                modulus: 7,
                residues: vec![0, 2],
                from: 0,
                early: vec![]
            })
        );
    }
}
