//! Coin-turning games (Winning Ways, chapter 14).
//!
//! A row of coins numbered 1, 2, 3, … from the left shows heads or tails. A
//! move turns over a set of coins that the rule allows; the rightmost coin
//! turned must go from heads to tails, so play ends. By the coin-turning
//! theorem (Lenstra; Winning Ways ch. 14) a position is worth the nim-sum of
//! the values of its heads, and the value of a lone head on coin `n` is
//!
//! ```text
//! g(n) = mex { g(s1) ^ g(s2) ^ … : {s1, s2, …} the other coins a move turning n may also turn }
//! ```
//!
//! since turning a tail up adds its value and turning a head down removes
//! it. The rules here:
//!
//! | rule | a move turns | `g(n)` |
//! | --- | --- | --- |
//! | `turn(k)` | at most `k` coins | `turtles` = `turn(2)`: `n`; `mock-turtles` = `turn(3)`: the `n`-th odious number |
//! | `turn(=k)` | exactly `k` coins | `twins` = `turn(=2)`: `n - 1` |
//! | `ruler(k)` | at most `k` consecutive coins | `ruler` (any number): the largest power of 2 dividing `n` |
//! | `runs(a,b,…)` | a run of `a`, `b`, … consecutive coins (any lengths; `a..b` a range) | `runs(1..k)` = `ruler(k)` |
//! | `grunt` | four symmetric coins `1, 1 + i, n - i, n` | `G(n - 1)`, Grundy's game |
//!
//! Products `A*B` are played on a grid (Tartan theorem, Winning Ways ch. 14):
//! a move turns the coins of `S x T` for a move `S` of `A` and `T` of `B`,
//! whose bottom-right corner must go from heads to tails, and coin `(x, y)`
//! is worth `g_A(x) ⊗ g_B(y)`, the nim-product.
//!
//! This module describes the rules: which coins a move turns, and the
//! closed forms the theorems give. Their tables are computed in
//! `solve/coins.rs`, their periods proven and rows and grids analysed in
//! `analysis/coins.rs`.

use std::fmt;
use std::str::FromStr;

use rustc_hash::FxHashMap;

use crate::{Error, Nimber, Result};

/// The sets of other coins a move turning one coin may also turn, counted
/// by their value: `(g(S), how many S)` in increasing order of value
/// ([`CoinRule::completion_counts`]).
pub type CompletionCounts = Vec<(Nimber, u128)>;

/// Which sets of coins a move may turn (always including its rightmost coin,
/// which goes from heads to tails).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoinRule {
    /// At most `k` coins anywhere to the left, the rightmost included.
    UpTo(usize),
    /// Exactly `k` coins.
    Exactly(usize),
    /// Consecutive coins ending at the rightmost, of any number (the ruler
    /// game).
    Ruler,
    /// Consecutive coins ending at the rightmost, as many as a length of
    /// the set allows (`ruler(k)`: the lengths `1..=k`).
    Runs(RunLengths),
    /// Grunt: four coins placed symmetrically, `1 < 1 + i < n - i < n`, the
    /// leftmost coin always among them; coin `n` is worth `G(n - 1)` in
    /// Grundy's game (Winning Ways ch. 14), since the move splits a heap of
    /// `n - 1` into `i` and `n - 1 - i`.
    Grunt,
}

/// Lists the coins of one move, when asked (see `CoinRule::each_completion`).
pub(crate) type ListCoins<'a> = dyn Fn() -> Vec<usize> + 'a;

/// The largest set of coins a `turn(k)` rule may name: the value table
/// costs `k` bitsets per coin.
const MAX_TURNED: usize = 64;

/// The lengths of the runs a `runs(...)` rule turns: inclusive ranges
/// `(low, high)` of lengths from 1, in increasing order, no two touching,
/// so that equal sets compare equal and `runs(1..10^6)` is one pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunLengths(Vec<(usize, usize)>);

impl RunLengths {
    /// The lengths of the ranges given, in any order and overlapping
    /// (`None` when there are none or one is empty or holds 0).
    pub fn new(mut ranges: Vec<(usize, usize)>) -> Option<RunLengths> {
        if ranges.is_empty() || ranges.iter().any(|&(low, high)| low == 0 || high < low) {
            return None;
        }
        ranges.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
        for (low, high) in ranges {
            match merged.last_mut() {
                Some(last) if low <= last.1.saturating_add(1) => last.1 = last.1.max(high),
                _ => merged.push((low, high)),
            }
        }
        Some(RunLengths(merged))
    }

    /// The lengths `1..=k`: `ruler(k)`.
    pub fn up_to(k: usize) -> Option<RunLengths> {
        RunLengths::new(vec![(1, k)])
    }

    /// The ranges of lengths, in increasing order.
    pub fn ranges(&self) -> &[(usize, usize)] {
        &self.0
    }

    /// The longest run.
    pub fn longest(&self) -> usize {
        self.0.last().map_or(0, |&(_, high)| high)
    }

    /// How many runs a table of coins `1..=to` lists: `sum over n <= to`
    /// of the lengths at most `n`, range by range in closed form (a range
    /// `a..=b`, `b <= to`, gives `1, 2, ..., b - a + 1` on coins `a..=b`
    /// and `b - a + 1` on each coin after).
    pub fn runs_listed(&self, to: u64) -> u128 {
        let to = u128::from(to);
        self.0
            .iter()
            .filter(|&&(low, _)| low as u128 <= to)
            .map(|&(low, high)| {
                let width = (high as u128).min(to) - low as u128 + 1;
                width * (width + 1) / 2 + (to - (high as u128).min(to)) * width
            })
            .sum()
    }
}

impl fmt::Display for RunLengths {
    /// The lengths separated by commas, runs of four or more consecutive
    /// lengths as a range `a..b`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items = Vec::new();
        for &(low, high) in &self.0 {
            if high - low >= 3 {
                items.push(format!("{low}..{high}"));
            } else {
                items.extend((low..=high).map(|j| j.to_string()));
            }
        }
        f.write_str(&items.join(","))
    }
}

impl FromStr for CoinRule {
    type Err = Error;

    fn from_str(spec: &str) -> Result<CoinRule> {
        let spec = spec.trim();
        let invalid = |reason: &str| Error::InvalidCoinRule {
            spec: spec.to_owned(),
            reason: reason.to_owned(),
        };
        let count = |text: &str| -> Result<usize> {
            match text.trim().parse::<usize>() {
                Ok(k) if (1..=MAX_TURNED).contains(&k) => Ok(k),
                _ => Err(invalid(&format!(
                    "'{}' is not a number of coins from 1 to {MAX_TURNED}",
                    text.trim()
                ))),
            }
        };
        // A run length: any positive number (a row has at most as many
        // coins as it reaches).
        let length = |text: &str| -> Result<usize> {
            match text.trim().parse::<usize>() {
                Ok(k) if k >= 1 => Ok(k),
                _ => Err(invalid(&format!(
                    "'{}' is not a run length (a whole number from 1 to {})",
                    text.trim(),
                    usize::MAX
                ))),
            }
        };
        let lower = spec.to_ascii_lowercase();
        match lower.as_str() {
            "turtles" | "turning-turtles" => return Ok(CoinRule::UpTo(2)),
            "mock-turtles" => return Ok(CoinRule::UpTo(3)),
            "twins" => return Ok(CoinRule::Exactly(2)),
            "ruler" => return Ok(CoinRule::Ruler),
            "grunt" => return Ok(CoinRule::Grunt),
            _ => {}
        }
        let Some((name, rest)) = lower.split_once('(') else {
            return Err(invalid(
                "expected turtles, mock-turtles, twins, ruler, grunt, turn(k), turn(=k), ruler(k) or runs(a,b,...)",
            ));
        };
        let argument = rest
            .strip_suffix(')')
            .ok_or_else(|| invalid("missing ')'"))?;
        match (name.trim(), argument.trim().strip_prefix('=')) {
            ("turn", Some(k)) => Ok(CoinRule::Exactly(count(k)?)),
            ("turn", None) => Ok(CoinRule::UpTo(count(argument)?)),
            ("ruler", None) => {
                let k = length(argument)?;
                Ok(CoinRule::Runs(
                    RunLengths::up_to(k).ok_or_else(|| invalid("'0' is not a run length"))?,
                ))
            }
            ("runs", None) => {
                let mut ranges = Vec::new();
                for item in argument.split(',') {
                    let item = item.trim();
                    ranges.push(match item.split_once("..") {
                        Some((low, high)) => {
                            let (low, high) = (length(low)?, length(high)?);
                            if high < low {
                                return Err(invalid(&format!(
                                    "the range '{item}' is empty: write it low..high"
                                )));
                            }
                            (low, high)
                        }
                        None => (length(item)?, length(item)?),
                    });
                }
                // Every range is non-empty and from 1: some lengths.
                RunLengths::new(ranges)
                    .map(CoinRule::Runs)
                    .ok_or_else(|| invalid("no run length given"))
            }
            _ => Err(invalid(
                "expected turtles, mock-turtles, twins, ruler, grunt, turn(k), turn(=k), ruler(k) or runs(a,b,...)",
            )),
        }
    }
}

impl fmt::Display for CoinRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoinRule::UpTo(2) => f.write_str("turtles"),
            CoinRule::UpTo(3) => f.write_str("mock-turtles"),
            CoinRule::UpTo(k) => write!(f, "turn({k})"),
            CoinRule::Exactly(2) => f.write_str("twins"),
            CoinRule::Exactly(k) => write!(f, "turn(={k})"),
            CoinRule::Ruler => f.write_str("ruler"),
            // A prefix 1..=k of lengths is ruler(k).
            CoinRule::Runs(lengths) => match lengths.ranges() {
                &[(1, k)] => write!(f, "ruler({k})"),
                _ => write!(f, "runs({lengths})"),
            },
            CoinRule::Grunt => f.write_str("grunt"),
        }
    }
}

impl CoinRule {
    /// `g(n)` by a theorem, where one is known: Turning Turtles `n`, Mock
    /// Turtles the `n`-th odious number `2(n-1) + [popcount(n-1) even]`,
    /// Twins `n - 1`, the ruler game the largest power of 2 dividing `n`
    /// (Winning Ways ch. 14). `n >= 1`; `None` where there is no closed
    /// form, or its value passes `2^64 - 1`.
    pub fn closed_form(&self, n: u64) -> Option<u64> {
        match *self {
            CoinRule::UpTo(1) => Some(1),
            CoinRule::UpTo(2) => Some(n),
            CoinRule::UpTo(3) => {
                // None past 2^63 coins, whose values pass 2^64.
                let m = n - 1;
                m.checked_mul(2)?
                    .checked_add(u64::from(m.count_ones().is_multiple_of(2)))
            }
            CoinRule::Exactly(1) => Some(1),
            CoinRule::Exactly(2) => Some(n - 1),
            CoinRule::Ruler => Some(n & n.wrapping_neg()),
            _ => None,
        }
    }

    /// How many other coins a move may turn at most (sizes the tables).
    pub(crate) fn turned(&self) -> usize {
        match *self {
            CoinRule::UpTo(k) | CoinRule::Exactly(k) => k,
            CoinRule::Ruler | CoinRule::Runs(_) | CoinRule::Grunt => 1,
        }
    }

    /// For rules whose moves from coin `n` are few (at most `n`), calls
    /// `visit(g(S), S)` for each set `S` of other coins a move may turn,
    /// until `visit` returns true.
    ///
    /// The coins come as a closure that lists them, so that only the sets
    /// kept pay for a list: the table of `N` coins of the ruler game visits
    /// `N^2 / 2` runs and keeps none (listing each made it cubic). A run's
    /// coins are summed from `n` leftwards, up to the longest run that
    /// fits: `O(min(L, n))` for runs of at most `L` coins.
    pub(crate) fn each_completion(
        &self,
        values: &[Nimber],
        n: usize,
        visit: &mut dyn FnMut(Nimber, &ListCoins) -> bool,
    ) {
        match self {
            CoinRule::Ruler | CoinRule::Runs(_) => {
                // left[j]: the nim-sum of the j coins left of n.
                let longest = self.longest_run().map_or(n, |l| l.min(n));
                let mut left = Vec::with_capacity(longest);
                let mut sum = Nimber::ZERO;
                left.push(sum);
                for j in 1..longest {
                    sum ^= values[n - j];
                    left.push(sum);
                }
                self.each_run(n, &|j| left[j], visit);
            }
            CoinRule::Grunt => {
                let mut i = 1;
                while 1 + i < n - i {
                    let sum = values[1] ^ values[1 + i] ^ values[n - i];
                    if visit(sum, &|| vec![1, 1 + i, n - i]) {
                        return;
                    }
                    i += 1;
                }
            }
            CoinRule::UpTo(_) | CoinRule::Exactly(_) => {}
        }
    }

    /// The longest run a rule of runs turns, `None` for the ruler game (any
    /// run) and the rules that turn no runs.
    pub(crate) fn longest_run(&self) -> Option<usize> {
        match self {
            CoinRule::Runs(lengths) => Some(lengths.longest()),
            _ => None,
        }
    }

    /// For the ruler game and rules of runs: calls `visit(g(S), S)` for
    /// each run ending at coin `n` that the rule allows, shortest first, `S`
    /// the coins of the run left of `n`, until `visit` returns true;
    /// `left(j)` is the nim-sum of the `j` coins left of `n`. Each run costs
    /// one call, so a table of `runs(3,1000000)` pays for two runs a coin,
    /// not a million.
    pub(crate) fn each_run(
        &self,
        n: usize,
        left: &dyn Fn(usize) -> Nimber,
        visit: &mut dyn FnMut(Nimber, &ListCoins) -> bool,
    ) {
        let all = [(1, n)];
        let ranges = match self {
            CoinRule::Runs(lengths) => lengths.ranges(),
            CoinRule::Ruler => &all[..],
            _ => &[],
        };
        for &(low, high) in ranges {
            // A run of `length` coins turns `length - 1` left of n.
            for length in low..=high.min(n) {
                let j = length - 1;
                if visit(left(j), &|| (n - j..n).collect()) {
                    return;
                }
            }
        }
    }

    /// Coins left of `n` that a move turning `n` may also turn, whose
    /// values nim-sum to `target`; `None` when there are none.
    pub fn completion(&self, values: &[Nimber], n: usize, target: Nimber) -> Option<Vec<usize>> {
        self.completions(values, n, target, 1).pop()
    }

    /// For each coin `n` of `1..=to` (`values[c] = g(c)` for `c <= to`),
    /// the sets of coins left of `n` that a move turning `n` may also turn,
    /// counted by their value: `counts[n]` lists `(g(S), how many S)`, in
    /// increasing order of value (`counts[0]` is empty: there is no coin
    /// 0). A move from a lone head on `n` leaves exactly the heads `S`, so
    /// these are the values its moves reach, each with its number of moves.
    ///
    /// Rules of runs and Grunt list their sets (`O(min(L, n))` and `O(n)`
    /// a coin); `turn(k)` and `turn(=k)` count the subsets of the coins
    /// left of `n` by size and value, a table over sizes below `k` and
    /// values below the next power of two `V` updated coin by coin
    /// (`O(k V)` a coin, `16 k V` bytes). [`Error::WorkLimit`] when the
    /// whole would pass `work_limit` machine-word operations, and
    /// [`Error::TableTooLarge`] when the table would pass `memory_limit`
    /// bytes, before any is done.
    pub fn completion_counts(
        &self,
        values: &[Nimber],
        to: usize,
        memory_limit: u64,
        work_limit: u64,
    ) -> Result<Vec<CompletionCounts>> {
        let to = to.min(values.len().saturating_sub(1));
        // Every nim-sum of values up to M lies below the power of two
        // past M.
        let span = (u64::from(values[..=to].iter().map(|v| v.get()).max().unwrap_or(0)) + 1)
            .next_power_of_two();
        let sizes = match *self {
            CoinRule::UpTo(k) => 0..k,
            CoinRule::Exactly(k) => k.saturating_sub(1)..k,
            _ => 0..0,
        };
        let to_u = to as u128;
        let work = match self {
            CoinRule::UpTo(_) | CoinRule::Exactly(_) => to_u * sizes.end as u128 * u128::from(span),
            CoinRule::Runs(lengths) => to_u * lengths.longest().min(to) as u128,
            CoinRule::Ruler | CoinRule::Grunt => to_u * to_u / 2,
        };
        if work > u128::from(work_limit) {
            return Err(Error::WorkLimit {
                what: format!("counting the moves of every coin of {self} to coin {to}"),
                at_least: work,
                limit: work_limit,
            });
        }
        let needed = sizes.end as u128 * u128::from(span) * 16;
        if needed > u128::from(memory_limit) {
            return Err(Error::TableTooLarge {
                to: to as u64,
                needed: crate::error::human_bytes_near(needed, u128::from(memory_limit)),
                limit: crate::error::human_bytes_near(u128::from(memory_limit), needed),
            });
        }
        let mut counts = vec![Vec::new()];
        match self {
            CoinRule::UpTo(_) | CoinRule::Exactly(_) => {
                // subsets[size][v]: the subsets of the coins so far with
                // `size` coins and value `v`.
                let span = span as usize;
                let mut subsets = vec![vec![0u128; span]; sizes.end];
                if let Some(empty) = subsets.first_mut() {
                    empty[0] = 1;
                }
                for &g in &values[1..=to] {
                    let mut totals = vec![0u128; span];
                    for size in sizes.clone() {
                        for (total, &count) in totals.iter_mut().zip(&subsets[size]) {
                            *total += count;
                        }
                    }
                    counts.push(
                        totals
                            .into_iter()
                            .enumerate()
                            .filter(|&(_, count)| count > 0)
                            .map(|(v, count)| (Nimber::new(v as u32), count))
                            .collect(),
                    );
                    // Coin n joins the coins left of the next one: the
                    // largest sizes first, so that it joins each set once.
                    let g = g.get() as usize;
                    for size in (1..sizes.end).rev() {
                        let (smaller, larger) = subsets.split_at_mut(size);
                        let from = &smaller[size - 1];
                        for (v, &count) in from.iter().enumerate() {
                            larger[0][v ^ g] += count;
                        }
                    }
                }
            }
            _ => {
                for n in 1..=to {
                    let mut by_value: FxHashMap<Nimber, u128> = FxHashMap::default();
                    self.each_completion(values, n, &mut |sum, _| {
                        *by_value.entry(sum).or_default() += 1;
                        false
                    });
                    let mut by_value: Vec<(Nimber, u128)> = by_value.into_iter().collect();
                    by_value.sort_unstable();
                    counts.push(by_value);
                }
            }
        }
        Ok(counts)
    }

    /// Every set of coins left of `n` that a move turning `n` may also
    /// turn whose values nim-sum to `target` (each in decreasing order),
    /// at most `limit` of them.
    pub fn completions(
        &self,
        values: &[Nimber],
        n: usize,
        target: Nimber,
        limit: usize,
    ) -> Vec<Vec<usize>> {
        let mut found = Vec::new();
        if limit == 0 {
            return found;
        }
        match *self {
            CoinRule::Ruler | CoinRule::Runs(_) | CoinRule::Grunt => {
                self.each_completion(values, n, &mut |sum, coins| {
                    if sum == target {
                        found.push(coins().into_iter().rev().collect());
                    }
                    found.len() >= limit
                });
            }
            CoinRule::UpTo(k) | CoinRule::Exactly(k) => {
                let mut by_value: FxHashMap<Nimber, Vec<usize>> = FxHashMap::default();
                for (coin, &v) in values.iter().enumerate().take(n).skip(1) {
                    by_value.entry(v).or_default().push(coin);
                }
                let sizes = if matches!(self, CoinRule::Exactly(_)) {
                    k - 1..k
                } else {
                    0..k
                };
                let mut search = Completions {
                    values,
                    by_value: &by_value,
                    chosen: Vec::new(),
                    found: &mut found,
                    limit,
                };
                for size in sizes {
                    if search.pick(size, target, n) {
                        break;
                    }
                }
            }
        }
        found
    }
}

/// A depth-first search for sets of distinct coins whose values nim-sum to
/// a target (largest coins first; the last coin is looked up by value).
struct Completions<'a> {
    values: &'a [Nimber],
    by_value: &'a FxHashMap<Nimber, Vec<usize>>,
    /// The coins chosen so far, in decreasing order.
    chosen: Vec<usize>,
    found: &'a mut Vec<Vec<usize>>,
    limit: usize,
}

impl Completions<'_> {
    /// Records every way to add `size` coins below `below` worth `target`
    /// to the chosen ones; true once `limit` sets are found.
    fn pick(&mut self, size: usize, target: Nimber, below: usize) -> bool {
        match size {
            0 => {
                if target.is_zero() {
                    self.found.push(self.chosen.clone());
                }
            }
            1 => {
                let coins = self.by_value.get(&target).map_or(&[][..], Vec::as_slice);
                let below_count = coins.partition_point(|&c| c < below);
                for &coin in coins[..below_count].iter().rev() {
                    let mut set = self.chosen.clone();
                    set.push(coin);
                    self.found.push(set);
                    if self.found.len() >= self.limit {
                        return true;
                    }
                }
            }
            _ => {
                for coin in (size..below).rev() {
                    self.chosen.push(coin);
                    let done = self.pick(size - 1, target ^ self.values[coin], coin);
                    self.chosen.pop();
                    if done {
                        return true;
                    }
                }
            }
        }
        self.found.len() >= self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{ValuesBy, analyze_coins};
    use crate::nim_field::XorBasis;

    const LIMIT: u64 = 1 << 30;

    /// A rule of every kind: at most k, exactly k, runs, the ruler, a
    /// closed form, Grunt.
    const ONE_OF_EACH_RULE: [&str; 7] = [
        "turn(4)",
        "turn(=3)",
        "ruler(3)",
        "runs(1,3,4)",
        "ruler",
        "mock-turtles",
        "grunt",
    ];

    #[test]
    fn rules_parse_and_print_canonically() {
        for (spec, shown) in [
            ("turtles", "turtles"),
            ("turn(2)", "turtles"),
            ("Mock-Turtles", "mock-turtles"),
            ("turn(5)", "turn(5)"),
            ("turn(=2)", "twins"),
            ("turn(= 4)", "turn(=4)"),
            ("ruler", "ruler"),
            ("ruler(3)", "ruler(3)"),
            ("runs(1,2,3)", "ruler(3)"),
            ("runs(4, 1,3)", "runs(1,3,4)"),
            ("GRUNT", "grunt"),
        ] {
            assert_eq!(
                spec.parse::<CoinRule>().unwrap().to_string(),
                shown,
                "{spec}"
            );
        }
        for bad in [
            "turn(0)",
            "turn(65)",
            "turn(x)",
            "ruler(=2)",
            "runs(0,2)",
            "runs(5..2)",
            "runs()",
            "spin(2)",
            "turn(2",
            "rule",
        ] {
            assert!(bad.parse::<CoinRule>().is_err(), "{bad}");
        }
    }

    #[test]
    fn closed_forms_match_the_definition() {
        for rule in [
            "turn(1)",
            "turtles",
            "mock-turtles",
            "turn(=1)",
            "twins",
            "ruler",
        ] {
            let rule: CoinRule = rule.parse().unwrap();
            let table = rule.table(600, &[], LIMIT, u64::MAX).unwrap();
            for n in 1..=600 {
                assert_eq!(
                    rule.closed_form(n as u64),
                    Some(u64::from(table.values[n])),
                    "{rule} coin {n}"
                );
            }
        }
    }

    #[test]
    fn value_spans_of_closed_forms_match_the_computed_values() {
        for spec in [
            "turn(1)",
            "turn(=1)",
            "turtles",
            "mock-turtles",
            "twins",
            "ruler",
        ] {
            let rule: CoinRule = spec.parse().unwrap();
            // By the definition: no closed form is used.
            let table = rule.table(300, &[], LIMIT, u64::MAX).unwrap();
            let mut computed = XorBasis::new();
            for to in 1..=300 {
                computed.insert(u64::from(table.values[to].get()));
                let (span, by) = rule
                    .value_span(to as u64, LIMIT, u64::MAX, &mut |_| true)
                    .unwrap();
                assert_eq!(by, ValuesBy::ClosedForm);
                assert_eq!(span, computed, "{spec} coins 1..={to}");
            }
        }
        let rule: CoinRule = "turn(4)".parse().unwrap();
        let (span, by) = rule.value_span(20, LIMIT, u64::MAX, &mut |_| true).unwrap();
        assert_eq!(by, ValuesBy::Table);
        let mut computed = XorBasis::new();
        for v in &rule.table(20, &[], LIMIT, u64::MAX).unwrap().values {
            computed.insert(u64::from(v.get()));
        }
        assert_eq!(span, computed);
        let ruler: CoinRule = "ruler".parse().unwrap();
        assert_eq!(
            ruler
                .value_span(u64::MAX, LIMIT, u64::MAX, &mut |_| true)
                .unwrap()
                .0
                .rank(),
            64
        );
        assert!(ruler.value_span(0, LIMIT, u64::MAX, &mut |_| true).is_err());
        let mock: CoinRule = "mock-turtles".parse().unwrap();
        assert_eq!(
            mock.value_span(1 << 63, LIMIT, u64::MAX, &mut |_| true)
                .unwrap()
                .0
                .rank(),
            64
        );
        assert!(matches!(
            mock.value_span((1 << 63) + 1, LIMIT, u64::MAX, &mut |_| true),
            Err(Error::InvalidRange { .. })
        ));
    }

    /// Every set of other coins a move turning `n` may turn, by the rule's
    /// definition (sorted sets).
    fn moves_by_definition(rule: &CoinRule, n: usize) -> Vec<Vec<usize>> {
        let below: Vec<usize> = (1..n).collect();
        let subsets = |sizes: std::ops::Range<usize>| {
            (0u32..1 << below.len())
                .map(|mask| {
                    below
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask >> i & 1 == 1)
                        .map(|(_, &c)| c)
                        .collect::<Vec<usize>>()
                })
                .filter(|set| sizes.contains(&set.len()))
                .collect::<Vec<_>>()
        };
        match *rule {
            CoinRule::UpTo(k) => subsets(0..k),
            CoinRule::Exactly(k) => subsets(k - 1..k),
            CoinRule::Ruler => (0..n).map(|j| (n - j..n).collect()).collect(),
            CoinRule::Runs(ref lengths) => (0..n)
                .filter(|&j| {
                    let length = j + 1;
                    lengths
                        .ranges()
                        .iter()
                        .any(|&(low, high)| low <= length && length <= high)
                })
                .map(|j| (n - j..n).collect())
                .collect(),
            CoinRule::Grunt => (1..n)
                .filter(|&i| 1 + i < n - i)
                .map(|i| vec![1, 1 + i, n - i])
                .collect(),
        }
    }

    #[test]
    fn every_completion_is_listed_as_the_definition_gives_them() {
        for spec in ONE_OF_EACH_RULE {
            let rule: CoinRule = spec.parse().unwrap();
            let all: Vec<usize> = (1..=12).collect();
            let table = rule.table(12, &all, LIMIT, u64::MAX).unwrap();
            for n in 1..=12 {
                for v in 0..32 {
                    let target = Nimber::new(v);
                    let mut listed: Vec<Vec<usize>> = rule
                        .completions(&table.values, n, target, usize::MAX)
                        .into_iter()
                        .map(|mut set| {
                            set.sort_unstable();
                            set
                        })
                        .collect();
                    listed.sort();
                    let mut expected: Vec<Vec<usize>> = moves_by_definition(&rule, n)
                        .into_iter()
                        .filter(|set| {
                            set.iter().map(|&c| table.values[c]).sum::<Nimber>() == target
                        })
                        .collect();
                    expected.sort();
                    assert_eq!(listed, expected, "{spec}, coin {n}, target {v}");
                }
            }
        }
    }

    #[test]
    fn a_row_lists_every_winning_move_and_each_leaves_a_p_position() {
        let rule: CoinRule = "mock-turtles".parse().unwrap();
        let row = analyze_coins(&rule, &[3, 5, 9], LIMIT, u64::MAX).unwrap();
        assert!(row.complete);
        let all: Vec<usize> = (1..=9).collect();
        let table = rule.table(9, &all, LIMIT, u64::MAX).unwrap();
        let heads = [3, 5, 9];
        // Brute force: every move from every head that leaves nim-sum 0.
        let mut expected = 0;
        for &coin in &heads {
            for also in moves_by_definition(&rule, coin) {
                let mut after: Vec<usize> = heads.iter().copied().filter(|&h| h != coin).collect();
                for c in also {
                    match after.iter().position(|&h| h == c) {
                        Some(i) => drop(after.remove(i)),
                        None => after.push(c),
                    }
                }
                if after
                    .iter()
                    .map(|&c| table.values[c])
                    .sum::<Nimber>()
                    .is_zero()
                {
                    expected += 1;
                }
            }
        }
        assert_eq!(row.winning_moves.len(), expected);
        assert!(expected > 1);
        for m in &row.winning_moves {
            let sum: Nimber = m.also.iter().map(|&c| table.values[c]).sum();
            assert_eq!(sum ^ table.values[m.coin] ^ row.nim_sum, Nimber::ZERO);
        }
    }

    #[test]
    fn completions_reach_every_option_value() {
        for rule in ONE_OF_EACH_RULE {
            let rule: CoinRule = rule.parse().unwrap();
            let all: Vec<usize> = (1..=40).collect();
            let table = rule.table(40, &all, LIMIT, u64::MAX).unwrap();
            for n in 1..=40 {
                for v in 0..256 {
                    let v = Nimber::new(v);
                    let found = rule.completion(&table.values, n, v);
                    assert_eq!(
                        found.is_some(),
                        table.can_add(n, v),
                        "{rule} coin {n} adds {v}"
                    );
                    if let Some(coins) = found {
                        assert!(coins.iter().all(|&c| 1 <= c && c < n));
                        let sum: Nimber = coins.iter().map(|&c| table.values[c]).sum();
                        assert_eq!(sum, v);
                    }
                }
            }
        }
    }

    #[test]
    fn tables_refuse_past_the_memory_limit() {
        let rule: CoinRule = "turn(5)".parse().unwrap();
        assert!(matches!(
            rule.table(1 << 40, &[], LIMIT, u64::MAX),
            Err(Error::TableTooLarge { .. })
        ));
        assert!(rule.value(0, LIMIT).is_err());
    }
}
