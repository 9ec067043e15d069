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
//! | `runs(a,b,…)` | a run of `a`, `b`, … consecutive coins (lengths up to 64) | `runs(1,2,…,k)` = `ruler(k)` |
//! | `grunt` | four symmetric coins `1, 1 + i, n - i, n` | `G(n - 1)`, Grundy's game |
//!
//! Products `A*B` are played on a grid (Tartan theorem, Winning Ways ch. 14):
//! a move turns the coins of `S x T` for a move `S` of `A` and `T` of `B`,
//! whose bottom-right corner must go from heads to tails, and coin `(x, y)`
//! is worth `g_A(x) ⊗ g_B(y)`, the nim-product.

use std::fmt;
use std::str::FromStr;

use rustc_hash::FxHashMap;

use crate::analysis::{Periodicity, Support, Theorem, period_candidate, prove};
use crate::bitset::{contains, first_absent, xor_translate_into};
use crate::error::human_bytes;
use crate::nim_field::XorBasis;
use crate::{Error, Nimber, Result, ValueTable, nim_field};

/// Which sets of coins a move may turn (always including its rightmost coin,
/// which goes from heads to tails).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoinRule {
    /// At most `k` coins anywhere to the left, the rightmost included.
    UpTo(usize),
    /// Exactly `k` coins.
    Exactly(usize),
    /// Consecutive coins ending at the rightmost, of any number (the ruler
    /// game).
    Ruler,
    /// Consecutive coins ending at the rightmost, as many as a length of
    /// the set allows: bit `j` of the mask allows runs of `j + 1` coins
    /// (`ruler(k)`: the lengths `1..=k`).
    Runs(u64),
    /// Grunt: four coins placed symmetrically, `1 < 1 + i < n - i < n`, the
    /// leftmost coin always among them; coin `n` is worth `G(n - 1)` in
    /// Grundy's game (Winning Ways ch. 14), since the move splits a heap of
    /// `n - 1` into `i` and `n - 1 - i`.
    Grunt,
}

/// Rows of more coins than this have their rule's period searched before
/// the whole row is tabulated ([`CoinRule::value_span`]).
pub const COIN_PERIOD_FIRST: u64 = 1 << 12;

/// The most coins a period search tabulates ([`CoinRule::proven_period`]).
pub const COIN_PERIOD_MAX: u64 = 1 << 20;

/// How the values of a row of coins were known ([`CoinRule::value_span`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValuesBy {
    /// A closed form (Winning Ways ch. 14), for any number of coins.
    ClosedForm,
    /// Every coin was computed.
    Table,
    /// Coins up to `computed_to` were computed, and the period `theorem`
    /// proves on them covers the rest.
    Period {
        /// The period (saltus zero).
        periodicity: Periodicity,
        /// The theorem whose window was checked.
        theorem: Theorem,
        /// The last coin computed.
        computed_to: u64,
    },
}

impl ValuesBy {
    /// Whether a theorem gave the values (a closed form or a proven
    /// period) rather than a table alone.
    pub fn by_theorem(&self) -> bool {
        !matches!(self, ValuesBy::Table)
    }
}

/// A period of a coin rule's values proven by its theorem
/// ([`CoinRule::proven_period`]).
#[derive(Clone, Debug)]
pub struct CoinPeriod {
    /// `g(0..=N)`, the coins computed (`g(0) = 0`).
    pub values: ValueTable,
    /// The period found.
    pub periodicity: Periodicity,
    /// The theorem whose window was checked.
    pub theorem: Theorem,
    /// The largest coin whose value the proof used.
    pub last_coin_needed: usize,
}

/// Where a coin table may stop, at coin `n`: when `progress(n)` says so
/// ([`Error::Interrupted`]) or the thread's [`Cancel`](crate::Cancel) token
/// has stopped (a server's deadline).
fn stop_point(n: usize, progress: &mut dyn FnMut(usize) -> bool) -> Result<()> {
    crate::cancel::check()?;
    if progress(n) {
        Ok(())
    } else {
        Err(Error::Interrupted { heaps: n as u64 })
    }
}

/// Lists the coins of one move, when asked (see `CoinRule::each_completion`).
type ListCoins<'a> = dyn Fn() -> Vec<usize> + 'a;

/// The largest set of coins a `turn(k)` rule may name: the value table
/// costs `k` bitsets per coin.
const MAX_TURNED: usize = 64;

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
            ("ruler", None) => Ok(CoinRule::Runs(u64::MAX >> (64 - count(argument)?))),
            ("runs", None) => {
                let mut mask = 0u64;
                for length in argument.split(',') {
                    mask |= 1 << (count(length)? - 1);
                }
                Ok(CoinRule::Runs(mask))
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
            CoinRule::Runs(mask) if mask & mask.wrapping_add(1) == 0 => {
                write!(f, "ruler({})", mask.count_ones())
            }
            CoinRule::Runs(mask) => {
                let lengths: Vec<String> = (0..64)
                    .filter(|j| mask >> j & 1 == 1)
                    .map(|j| (j + 1).to_string())
                    .collect();
                write!(f, "runs({})", lengths.join(","))
            }
            CoinRule::Grunt => f.write_str("grunt"),
        }
    }
}

/// The values of coins `1..=to` of a rule, and for each coin the set of
/// nim-sums its moves can add (its option values), as bitsets when kept.
#[derive(Clone, Debug)]
pub struct CoinTable {
    /// `values[n] = g(n)`; `values[0]` is 0 (there is no coin 0).
    pub values: Vec<Nimber>,
    /// For the coins asked for, the bitset of `g(S)` over the sets `S` of
    /// other coins a move turning that coin may turn.
    options: FxHashMap<usize, Vec<u64>>,
}

impl CoinTable {
    /// Whether a move turning coin `n` can turn other coins worth `v`
    /// (false unless `n`'s options were kept).
    pub fn can_add(&self, n: usize, v: Nimber) -> bool {
        self.options
            .get(&n)
            .is_some_and(|set| contains(set, v.get()))
    }

    /// The option values of coin `n` (kept ones only), in increasing order.
    pub fn option_values(&self, n: usize) -> impl Iterator<Item = Nimber> + '_ {
        let set = self.options.get(&n).map_or(&[][..], |s| &s[..]);
        (0..set.len() as u32 * 64)
            .filter(|&v| contains(set, v))
            .map(Nimber::new)
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

    /// The value of coin `n` (closed form, or computed up to `n` within
    /// `memory_limit` bytes).
    pub fn value(&self, n: u64, memory_limit: u64) -> Result<u64> {
        if n == 0 {
            return Err(Error::InvalidPosition {
                text: "0".into(),
                reason: "coins are numbered from 1".into(),
            });
        }
        if let Some(v) = self.closed_form(n) {
            return Ok(v);
        }
        let table = self.table(n, &[], memory_limit)?;
        Ok(u64::from(table.values[n as usize]))
    }

    /// `g(0..=to)` (`g(0) = 0`: there is no coin 0), from the closed form
    /// when there is one, else by [`CoinRule::table`], calling
    /// `progress(n)` every few thousand coins (`false` stops the run with
    /// [`Error::Interrupted`]).
    pub fn values(
        &self,
        to: u64,
        memory_limit: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<Vec<Nimber>> {
        self.values_within(to, memory_limit, u64::MAX, progress)
    }

    /// [`CoinRule::values`] within `work_limit` machine-word operations of
    /// a `turn(k)` or `turn(=k)` table ([`Error::WorkLimit`] as soon as the
    /// table is sure to pass it).
    fn values_within(
        &self,
        to: u64,
        memory_limit: u64,
        work_limit: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<Vec<Nimber>> {
        if self.closed_form(1).is_some() {
            let needed = (u128::from(to) + 1) * 4;
            if needed > u128::from(memory_limit) {
                return Err(Error::TableTooLarge {
                    to,
                    needed: human_bytes(needed),
                    limit: human_bytes(u128::from(memory_limit)),
                });
            }
            return std::iter::once(Ok(Nimber::ZERO))
                .chain((1..=to).map(|n| {
                    let v = self.closed_form(n).unwrap_or(0);
                    u32::try_from(v)
                        .map(Nimber::new)
                        .map_err(|_| Error::NimberOverflow { value: v })
                }))
                .collect();
        }
        if *self == CoinRule::Grunt {
            // Coin n + 1 is heap n of Grundy's game, computed by its engine.
            let grundy: crate::HeapGame = "grundy".parse()?;
            let heaps = crate::TableSolver::new()
                .with_memory_limit(memory_limit)
                .values(&grundy, to.saturating_sub(1))?;
            return Ok(std::iter::once(Nimber::ZERO)
                .chain(heaps.iter().take(to as usize))
                .collect());
        }
        Ok(self
            .table_with_progress(to, &[], memory_limit, work_limit, progress)?
            .values)
    }

    /// The span under nim-addition of the values `g(1..=to)` (`to >= 1`),
    /// and how the values were known: by a closed form, by a proven period,
    /// or computed (by [`CoinRule::values`], within `memory_limit`, with
    /// `progress`).
    ///
    /// With a closed form the span needs no table, for any `to` whose
    /// values stay below `2^64` (every `u64`; Mock Turtles up to coin
    /// `2^63`, past which [`Error::InvalidRange`]): the values `g(1..=to)` contain every power of two up to
    /// their largest value `M`, so they span every number below
    /// `2^bits(M)`. Turning Turtles takes the values `1..=to`, Twins
    /// `0..to`, the ruler game the powers of two up to `to`, and Mock
    /// Turtles the first `to` odious numbers in increasing order, among
    /// which every power of two up to the largest (a power of two has one
    /// bit set, so it is odious); `turn(1)` and `turn(=1)` are worth 1.
    /// Every closed form but the ruler's is nondecreasing, so `M = g(to)`;
    /// the ruler's is the largest power of two up to `to`.
    ///
    /// Other rules are tabulated to the side, within `memory_limit` and,
    /// for `turn(k)` and `turn(=k)`, `work_limit` machine-word operations:
    /// no closed form is known for `turn(k)`, `k >= 4` (its values are the
    /// greedy lexicode of distance `k + 1`, Conway and Sloane,
    /// "Lexicographic codes: error-correcting codes from game theory",
    /// IEEE Trans. Inform. Theory 32 (1986); they grow like a power of the
    /// coin, so the table's bitsets do too), nor for Grunt, whose values
    /// are those of Grundy's game (no period known).
    ///
    /// Rules of runs (`runs(...)`, `ruler(k)`) are periodic, by
    /// [`Theorem::CoinRuns`]: for more than [`COIN_PERIOD_FIRST`] coins the
    /// period is searched first ([`CoinRule::proven_period`]), and once it
    /// is proven the coins past those computed only repeat values already
    /// seen, so the span of the computed ones is the span of all, for any
    /// `to`.
    pub fn value_span(
        &self,
        to: u64,
        memory_limit: u64,
        work_limit: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<(XorBasis, ValuesBy)> {
        if to == 0 {
            return Err(Error::InvalidPosition {
                text: "0".into(),
                reason: "coins are numbered from 1".into(),
            });
        }
        let largest = match *self {
            CoinRule::Ruler => Some(1 << to.ilog2()),
            _ => self.closed_form(to),
        };
        if let Some(m) = largest {
            let span = XorBasis::below_power_of_two(64 - m.leading_zeros());
            return Ok((span, ValuesBy::ClosedForm));
        }
        if self.closed_form(1).is_some() {
            // Mock Turtles past coin 2^63: values past 2^64 - 1.
            return Err(Error::InvalidRange {
                reason: format!(
                    "the values of {self} on coins 1..={to} pass 2^64 - 1, past the nim field \
                     the engine computes in"
                ),
            });
        }
        // The span of coins 1..=to of values listed from coin 0.
        let span_of = |values: &mut dyn Iterator<Item = Nimber>| {
            let mut span = XorBasis::new();
            for v in values.take(to.saturating_add(1) as usize).skip(1) {
                span.insert(u64::from(v.get()));
            }
            span
        };
        if to > COIN_PERIOD_FIRST {
            let most = to.min(COIN_PERIOD_MAX);
            if let Some(found) = self.proven_period(most, memory_limit, progress)? {
                let computed = found.values.len() as u64 - 1;
                let span = span_of(&mut found.values.iter());
                if to <= computed {
                    return Ok((span, ValuesBy::Table));
                }
                return Ok((
                    span,
                    ValuesBy::Period {
                        periodicity: found.periodicity,
                        theorem: found.theorem,
                        computed_to: computed,
                    },
                ));
            }
        }
        let values = self.values_within(to, memory_limit, work_limit, progress)?;
        Ok((span_of(&mut values.into_iter()), ValuesBy::Table))
    }

    /// The theorem that proves the period of this rule's values, if any:
    /// [`Theorem::CoinRuns`] for rules of runs of bounded length.
    pub fn theorem(&self) -> Option<Theorem> {
        match *self {
            CoinRule::Runs(mask) => Some(Theorem::CoinRuns {
                longest_run: 64 - mask.leading_zeros() as usize,
            }),
            _ => None,
        }
    }

    /// The period of the values `g(0), g(1), ...` (`g(0) = 0`, no coin)
    /// proven by the rule's [`CoinRule::theorem`]: tables of
    /// [`COIN_PERIOD_FIRST`] coins, then twice as many each time up to
    /// `most` coins, are searched by [`period_candidate`] and the candidate
    /// proven by the theorem's window. `None` when the rule has no theorem
    /// or no period is proven within `most` coins.
    pub fn proven_period(
        &self,
        most: u64,
        memory_limit: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<Option<CoinPeriod>> {
        let Some(theorem) = self.theorem() else {
            return Ok(None);
        };
        let mut to = COIN_PERIOD_FIRST.min(most);
        loop {
            let values: ValueTable = self
                .values(to, memory_limit, progress)?
                .into_iter()
                .collect();
            if let Some(found) = period_candidate(&values) {
                let proof = prove(theorem, &found, values.len(), |from, end| {
                    found.holds_on(&values, from, end)
                });
                if let Ok(Support::Proven {
                    theorem,
                    last_heap_needed,
                }) = proof
                {
                    return Ok(Some(CoinPeriod {
                        values,
                        periodicity: found,
                        theorem,
                        last_coin_needed: last_heap_needed,
                    }));
                }
            }
            if to >= most {
                return Ok(None);
            }
            to = to.saturating_mul(2).min(most);
        }
    }

    /// Values of coins `1..=to` by the definition (no closed forms), with
    /// the option bitsets of the coins in `keep` (sorted).
    ///
    /// For `turn(k)` and `turn(=k)`, `reach[j]` holds the nim-sums of every
    /// `j` distinct coins seen so far; coin `n` may add any of `reach[0..k]`
    /// (`turn(k)`) or `reach[k - 1]` (`turn(=k)`), and then joins them:
    /// `reach[j] |= reach[j - 1] ^ g(n)`. Values stay below twice the coin
    /// count, so a table of `N` coins costs `O(N k N / 64)` word operations.
    pub fn table(&self, to: u64, keep: &[usize], memory_limit: u64) -> Result<CoinTable> {
        self.table_with_progress(to, keep, memory_limit, u64::MAX, &mut |_| true)
    }

    fn table_with_progress(
        &self,
        to: u64,
        keep: &[usize],
        memory_limit: u64,
        work_limit: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<CoinTable> {
        let to = usize::try_from(to).unwrap_or(usize::MAX);
        let coins = to.saturating_add(1);
        // Bitsets of at most 2(to + 1) bits, one per reachable count, plus
        // the options kept per coin.
        let words = (2 * coins as u128).next_power_of_two().div_ceil(64);
        let kept = keep.len() as u128;
        // The bytes of the table with bitsets of `words` words each.
        let bytes =
            |words: u128| (self.turned() as u128 + 1 + kept) * words * 8 + coins as u128 * 4;
        let too_large = |needed: u128| Error::TableTooLarge {
            to: to as u64,
            needed: human_bytes(needed),
            limit: human_bytes(u128::from(memory_limit)),
        };
        if bytes(words) > u128::from(memory_limit) {
            return Err(too_large(bytes(words)));
        }
        let mut values = vec![Nimber::ZERO; coins];
        let mut options = FxHashMap::default();
        let kept = |n: usize| keep.binary_search(&n).is_ok();
        match *self {
            CoinRule::UpTo(k) | CoinRule::Exactly(k) => {
                let exactly = matches!(self, CoinRule::Exactly(_));
                let mut width = 1usize; // words per bitset, doubled as values grow
                let mut reach: Vec<Vec<u64>> = vec![vec![0; width]; k];
                reach[0][0] = 1;
                let mut union = Vec::new();
                // Word operations: a coin ORs `counts` bitsets and shifts
                // `k - 1` of them, `width` words each; the rest of the
                // table costs at least that much per coin, as the values
                // (and `width`) only grow.
                let per_word = if exactly { 1 } else { k } as u128 + k as u128 - 1;
                let mut work = 0u128;
                for (n, value) in values.iter_mut().enumerate().skip(1) {
                    if n % 1024 == 0 {
                        stop_point(n, progress)?;
                    }
                    work += per_word * width as u128;
                    let at_least = work + per_word * width as u128 * (coins - 1 - n) as u128;
                    if at_least > u128::from(work_limit) {
                        return Err(Error::WorkLimit {
                            what: format!("a table of {self} to coin {to}"),
                            at_least,
                            limit: work_limit,
                        });
                    }
                    union.clear();
                    union.resize(width, 0);
                    let counts = if exactly { k - 1..k } else { 0..k };
                    for set in &reach[counts] {
                        union.iter_mut().zip(set).for_each(|(u, s)| *u |= s);
                    }
                    let g = first_absent(&union);
                    *value = Nimber::new(g);
                    if kept(n) {
                        options.insert(n, union.clone());
                    }
                    while g as usize >= width * 64 {
                        width *= 2;
                        // Values grow past twice the coins for k >= 4.
                        if bytes(width as u128) > u128::from(memory_limit) {
                            return Err(too_large(bytes(width as u128)));
                        }
                        reach.iter_mut().for_each(|set| set.resize(width, 0));
                    }
                    for j in (1..k).rev() {
                        let (lower, upper) = reach.split_at_mut(j);
                        xor_translate_into(&lower[j - 1], g, &mut upper[0]);
                    }
                }
            }
            CoinRule::Ruler | CoinRule::Runs(_) | CoinRule::Grunt => {
                let mut found = Vec::new();
                for n in 1..coins {
                    if n % 1024 == 0 {
                        stop_point(n, progress)?;
                    }
                    found.clear();
                    self.each_completion(&values, n, &mut |sum, _| {
                        found.push(sum);
                        false
                    });
                    let mut set =
                        vec![0u64; (found.iter().max().map_or(0, |v| v.index()) / 64) + 2];
                    for v in &found {
                        set[v.index() / 64] |= 1 << (v.get() % 64);
                    }
                    values[n] = Nimber::new(first_absent(&set));
                    if kept(n) {
                        options.insert(n, set);
                    }
                }
            }
        }
        Ok(CoinTable { values, options })
    }

    /// How many other coins a move may turn at most (sizes the tables).
    fn turned(&self) -> usize {
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
    /// `N^2 / 2` runs and keeps none (listing each made it cubic).
    fn each_completion(
        &self,
        values: &[Nimber],
        n: usize,
        visit: &mut dyn FnMut(Nimber, &ListCoins) -> bool,
    ) {
        match *self {
            CoinRule::Ruler | CoinRule::Runs(_) => {
                // Runs of j + 1 coins: the j coins left of n with it.
                let (longest, allowed) = match *self {
                    CoinRule::Runs(mask) => ((64 - mask.leading_zeros() as usize).min(n), mask),
                    _ => (n, u64::MAX),
                };
                let mut sum = Nimber::ZERO;
                for j in 0..longest {
                    if j > 0 {
                        sum ^= values[n - j];
                    }
                    if (j >= 64 || allowed >> j & 1 == 1) && visit(sum, &|| (n - j..n).collect()) {
                        return;
                    }
                }
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

    /// Coins left of `n` that a move turning `n` may also turn, whose
    /// values nim-sum to `target`; `None` when there are none.
    pub fn completion(&self, values: &[Nimber], n: usize, target: Nimber) -> Option<Vec<usize>> {
        self.completions(values, n, target, 1).pop()
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

/// A move in a row of coins: turn coin `coin` (heads to tails) and the
/// coins `also`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoinMove {
    /// The rightmost coin turned, which goes from heads to tails.
    pub coin: usize,
    /// The other coins turned, in increasing order.
    pub also: Vec<usize>,
}

/// A row of coins analysed: the value of each head, their nim-sum, and
/// every winning move (up to [`COIN_MOVES_LISTED`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoinRow {
    /// `(coin, g(coin))` for each head, in increasing order.
    pub heads: Vec<(usize, Nimber)>,
    /// The nim-sum of the heads: the first player wins when it is not 0.
    pub nim_sum: Nimber,
    /// Every winning move, by head in increasing order, at most
    /// [`COIN_MOVES_LISTED`] of them.
    pub winning_moves: Vec<CoinMove>,
    /// Whether `winning_moves` is every winning move.
    pub complete: bool,
}

/// The most winning moves a row lists (rules that turn many coins can
/// have a number of winning moves that grows like a power of the row).
pub const COIN_MOVES_LISTED: usize = 1000;

/// Analyses a row whose heads are `heads` (coin numbers from 1).
///
/// ```
/// use grundy::rules::{analyze_coins, CoinRule};
/// let ruler: CoinRule = "ruler".parse()?;
/// let row = analyze_coins(&ruler, &[3, 4, 6], 1 << 20)?;
/// assert_eq!(row.nim_sum.get(), 1 ^ 4 ^ 2);
/// assert!(!row.winning_moves.is_empty());
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn analyze_coins(rule: &CoinRule, heads: &[usize], memory_limit: u64) -> Result<CoinRow> {
    let mut heads = heads.to_vec();
    heads.sort_unstable();
    heads.dedup();
    if heads.first() == Some(&0) {
        return Err(Error::InvalidPosition {
            text: "0".into(),
            reason: "coins are numbered from 1".into(),
        });
    }
    let last = heads.last().copied().unwrap_or(0);
    let table = rule.table(last as u64, &heads, memory_limit)?;
    let valued: Vec<(usize, Nimber)> = heads.iter().map(|&h| (h, table.values[h])).collect();
    let values: Vec<Nimber> = valued.iter().map(|&(_, v)| v).collect();
    let nim_sum: Nimber = values.iter().copied().sum();
    let mut winning_moves = Vec::new();
    let mut complete = true;
    for (i, target) in crate::winning_targets(&values) {
        let coin = valued[i].0;
        // Searched only where the option values say a completion exists.
        if !table.can_add(coin, target) {
            continue;
        }
        let room = COIN_MOVES_LISTED - winning_moves.len();
        // One more than there is room for tells whether the list is whole.
        let found = rule.completions(&table.values, coin, target, room + 1);
        complete &= found.len() <= room;
        winning_moves.extend(found.into_iter().take(room).map(|mut also| {
            also.sort_unstable();
            CoinMove { coin, also }
        }));
        if !complete {
            break;
        }
    }
    Ok(CoinRow {
        heads: valued,
        nim_sum,
        winning_moves,
        complete,
    })
}

/// A move on a grid of coins: turn the coins of `columns x rows`, whose
/// bottom-right corner `(columns.last(), rows.last())` goes from heads to
/// tails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridMove {
    /// The columns turned, in increasing order.
    pub columns: Vec<usize>,
    /// The rows turned, in increasing order.
    pub rows: Vec<usize>,
}

/// A grid of coins analysed under the product of two rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoinGrid {
    /// `(column, row, value)` for each head.
    pub heads: Vec<(usize, usize, Nimber)>,
    /// The nim-sum of the heads.
    pub nim_sum: Nimber,
    /// A winning move, when the first player wins.
    pub winning_move: Option<GridMove>,
}

/// Values of the product game `columns * rows` on coins `(x, y)`, `1 <= x, y
/// <= to`: `table[y][x] = g_columns(x) ⊗ g_rows(y)` (Tartan theorem).
pub fn tartan_table(
    columns: &CoinRule,
    rows: &CoinRule,
    to: u64,
    memory_limit: u64,
) -> Result<Vec<Vec<Nimber>>> {
    let side = u128::from(to) + 1;
    if side * side * 4 > u128::from(memory_limit) {
        return Err(Error::TableTooLarge {
            to,
            needed: human_bytes(side * side * 4),
            limit: human_bytes(u128::from(memory_limit)),
        });
    }
    let across = columns.values(to, memory_limit, &mut |_| true)?;
    let down = rows.values(to, memory_limit, &mut |_| true)?;
    Ok(down
        .iter()
        .map(|&gy| across.iter().map(|&gx| nim_product(gx, gy)).collect())
        .collect())
}

/// The nim-product `a ⊗ b` of two values (Tartan theorem: a grid's head
/// is worth the product of its column's and row's values).
pub(crate) fn nim_product(a: Nimber, b: Nimber) -> Nimber {
    // Values below 2^32 lie in the subfield GF(2^32), closed under products.
    Nimber::new(nim_field::mul(u64::from(a.get()), u64::from(b.get())) as u32)
}

/// Analyses a grid whose heads are `heads` (`(column, row)`, from 1) in the
/// product game `columns * rows`, with a winning move when there is one.
///
/// The move is found from values: turning `S x T` from head `(x, y)`
/// changes the nim-sum by `(g(x) ^ a) ⊗ (g(y) ^ b)`, with `a`, `b` option
/// values of `x` and `y`; it wins when that equals the nim-sum `G`, so for
/// each head and each `a` the needed `b = G ⊗ (g(x) ^ a)^-1 ^ g(y)` is
/// looked up among `y`'s option values.
pub fn analyze_grid(
    columns: &CoinRule,
    rows: &CoinRule,
    heads: &[(usize, usize)],
    memory_limit: u64,
) -> Result<CoinGrid> {
    if let Some(&(x, y)) = heads.iter().find(|&&(x, y)| x == 0 || y == 0) {
        return Err(Error::InvalidPosition {
            text: format!("({x}, {y})"),
            reason: "coins are numbered from 1".into(),
        });
    }
    let mut heads = heads.to_vec();
    heads.sort_unstable();
    heads.dedup();
    let width = heads.iter().map(|h| h.0).max().unwrap_or(0);
    let height = heads.iter().map(|h| h.1).max().unwrap_or(0);
    let mut xs: Vec<usize> = heads.iter().map(|h| h.0).collect();
    let mut ys: Vec<usize> = heads.iter().map(|h| h.1).collect();
    xs.sort_unstable();
    ys.sort_unstable();
    let across = columns.table(width as u64, &xs, memory_limit)?;
    let down = rows.table(height as u64, &ys, memory_limit)?;
    let valued: Vec<(usize, usize, Nimber)> = heads
        .iter()
        .map(|&(x, y)| (x, y, nim_product(across.values[x], down.values[y])))
        .collect();
    let nim_sum: Nimber = valued.iter().map(|h| h.2).sum();
    let mut winning_move = None;
    if !nim_sum.is_zero() {
        'search: for &(x, y, _) in &valued {
            let (gx, gy) = (across.values[x], down.values[y]);
            for a in across.option_values(x) {
                let u = u64::from((gx ^ a).get());
                let Some(inverse) = nim_field::inverse(u) else {
                    continue;
                };
                let v = nim_field::mul(u64::from(nim_sum.get()), inverse);
                let b = Nimber::new((v as u32) ^ gy.get());
                if down.can_add(y, b) {
                    let also_x = columns.completion(&across.values, x, a);
                    let also_y = rows.completion(&down.values, y, b);
                    if let (Some(mut cs), Some(mut rs)) = (also_x, also_y) {
                        cs.push(x);
                        rs.push(y);
                        cs.sort_unstable();
                        rs.sort_unstable();
                        winning_move = Some(GridMove {
                            columns: cs,
                            rows: rs,
                        });
                        break 'search;
                    }
                }
            }
        }
    }
    Ok(CoinGrid {
        heads: valued,
        nim_sum,
        winning_move,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
            "runs(65)",
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
            let table = rule.table(600, &[], LIMIT).unwrap();
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
            let table = rule.table(300, &[], LIMIT).unwrap();
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
        for v in &rule.table(20, &[], LIMIT).unwrap().values {
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
    fn moves_by_definition(rule: CoinRule, n: usize) -> Vec<Vec<usize>> {
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
        match rule {
            CoinRule::UpTo(k) => subsets(0..k),
            CoinRule::Exactly(k) => subsets(k - 1..k),
            CoinRule::Ruler => (0..n).map(|j| (n - j..n).collect()).collect(),
            CoinRule::Runs(mask) => (0..n.min(64))
                .filter(|j| mask >> j & 1 == 1)
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
            let table = rule.table(12, &all, LIMIT).unwrap();
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
                    let mut expected: Vec<Vec<usize>> = moves_by_definition(rule, n)
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
        let row = analyze_coins(&rule, &[3, 5, 9], LIMIT).unwrap();
        assert!(row.complete);
        let all: Vec<usize> = (1..=9).collect();
        let table = rule.table(9, &all, LIMIT).unwrap();
        let heads = [3, 5, 9];
        // Brute force: every move from every head that leaves nim-sum 0.
        let mut expected = 0;
        for &coin in &heads {
            for also in moves_by_definition(rule, coin) {
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
            let table = rule.table(40, &all, LIMIT).unwrap();
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
            rule.table(1 << 40, &[], LIMIT),
            Err(Error::TableTooLarge { .. })
        ));
        assert!(rule.value(0, LIMIT).is_err());
    }
}
