//! Coin-turning games analysed ([`CoinRule`]): the span of a row's values
//! (through a closed form, a period proven by [`Theorem::CoinRuns`], or a
//! table), and rows and grids of heads with their winning moves (the
//! coin-turning theorem; the Tartan theorem for grids).

use super::{Periodicity, Support, Theorem, period_candidate, prove};
use crate::nim_field::XorBasis;
use crate::rules::{CoinRule, CompletionCounts};
use crate::solve::nim_product;
use crate::{Error, Nimber, Result, ValueTable, nim_field};

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
/// use grundy::analysis::analyze_coins;
/// use grundy::rules::CoinRule;
/// let ruler: CoinRule = "ruler".parse()?;
/// let row = analyze_coins(&ruler, &[3, 4, 6], 1 << 20, u64::MAX)?;
/// assert_eq!(row.nim_sum.get(), 1 ^ 4 ^ 2);
/// assert!(!row.winning_moves.is_empty());
/// # Ok::<(), grundy::Error>(())
/// ```
///
/// The table behind it is bounded by `memory_limit` and `work_limit`
/// ([`CoinRule::table`]).
pub fn analyze_coins(
    rule: &CoinRule,
    heads: &[usize],
    memory_limit: u64,
    work_limit: u64,
) -> Result<CoinRow> {
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
    let table = rule.table(last as u64, &heads, memory_limit, work_limit)?;
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
    /// A winning move, when the first player wins: the first of
    /// `winning_moves`.
    pub winning_move: Option<GridMove>,
    /// Every winning move, by head then by the columns' option value, at
    /// most [`COIN_MOVES_LISTED`] of them.
    pub winning_moves: Vec<GridMove>,
    /// Whether `winning_moves` is every winning move.
    pub complete: bool,
}

/// A lone head's winning moves, in a table of every coin
/// ([`coin_move_table`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoinWins {
    /// The coin (of a grid, its column), from 1.
    pub coin: usize,
    /// Its row, on a grid.
    pub row: Option<usize>,
    /// The value of a lone head there.
    pub value: Nimber,
    /// Its moves to value 0.
    pub count: u128,
}

/// The winning moves of a lone head on every coin `1..=to` of a row of
/// `columns`, or with `rows`, on every coin `(x, y)`, `x, y <= to`, of the
/// product `columns * rows` (row by row), within `memory_limit` bytes and
/// `work_limit` machine-word operations for each rule's values and counts
/// ([`CoinRule::completion_counts`]) and for the grid's pairing of them
/// ([`Error::WorkLimit`] before it starts).
///
/// A move from a lone head on coin `n` leaves the heads `S` it turns up,
/// worth `g(S)`: it wins when `g(S) = 0`. On a grid a move from `(x, y)`
/// turns `S' x T'` (`S' = S + {x}`, `T' = T + {y}`), which changes the
/// value by `(g(x) ^ g(S)) ⊗ (g(y) ^ g(T))` (the nim-product distributes
/// over nim-sums, Tartan theorem), so it wins when that equals
/// `G = g(x) ⊗ g(y)`. For each value `a = g(S)` of the column's moves
/// (`a != g(x)`, by the mex) the row's moves must be worth
/// `b = G ⊗ (g(x) ^ a)^-1 ^ g(y)`, and every such pair of sets is one
/// winning move, so the count is a sum of products of counts by value.
pub fn coin_move_table(
    columns: &CoinRule,
    rows: Option<&CoinRule>,
    to: usize,
    memory_limit: u64,
    work_limit: u64,
) -> Result<Vec<CoinWins>> {
    let counted = |rule: &CoinRule| -> Result<(Vec<Nimber>, Vec<CompletionCounts>)> {
        let values = rule.values_within(to as u64, memory_limit, work_limit, &mut |_| true)?;
        let counts = rule.completion_counts(&values, to, memory_limit, work_limit)?;
        Ok((values, counts))
    };
    let count_of = |counts: &[(Nimber, u128)], value: Nimber| {
        counts
            .binary_search_by_key(&value, |&(v, _)| v)
            .map_or(0, |i| counts[i].1)
    };
    let (across, across_counts) = counted(columns)?;
    let Some(rows) = rows else {
        return Ok((1..=to)
            .map(|n| CoinWins {
                coin: n,
                row: None,
                value: across[n],
                count: count_of(&across_counts[n], Nimber::ZERO),
            })
            .collect());
    };
    let (down, down_counts) = counted(rows)?;
    // Each coin of a column pairs each value of its moves with a row's.
    let pairs = across_counts.iter().map(|c| c.len() as u128).sum::<u128>() * to as u128;
    if pairs > u128::from(work_limit) {
        return Err(Error::WorkLimit {
            what: format!("counting the moves of every coin of {columns}*{rows} to ({to}, {to})"),
            at_least: pairs,
            limit: work_limit,
        });
    }
    let too_many = || Error::InvalidRange {
        reason: format!("a coin of {columns}*{rows} has more than 2^128 winning moves"),
    };
    let mut table = Vec::with_capacity(to * to);
    for y in 1..=to {
        for x in 1..=to {
            let (gx, gy) = (across[x], down[y]);
            let value = nim_product(gx, gy);
            let mut count = 0u128;
            if !value.is_zero() {
                for &(a, ways) in &across_counts[x] {
                    let Some(inverse) = nim_field::inverse(u64::from((gx ^ a).get())) else {
                        continue;
                    };
                    let needed = nim_field::mul(u64::from(value.get()), inverse) as u32;
                    let b = Nimber::new(needed) ^ gy;
                    let pairs = ways
                        .checked_mul(count_of(&down_counts[y], b))
                        .ok_or_else(too_many)?;
                    count = count.checked_add(pairs).ok_or_else(too_many)?;
                }
            }
            table.push(CoinWins {
                coin: x,
                row: Some(y),
                value,
                count,
            });
        }
    }
    Ok(table)
}

/// Analyses a grid whose heads are `heads` (`(column, row)`, from 1) in the
/// product game `columns * rows`, with every winning move (up to
/// [`COIN_MOVES_LISTED`]).
///
/// The moves are found from values: turning `S x T` from head `(x, y)`
/// changes the nim-sum by `(g(x) ^ a) ⊗ (g(y) ^ b)`, with `a`, `b` option
/// values of `x` and `y`; it wins when that equals the nim-sum `G`, so for
/// each head and each `a` the needed `b = G ⊗ (g(x) ^ a)^-1 ^ g(y)` is
/// looked up among `y`'s option values. Every column set of `x` worth `a`
/// with every row set of `y` worth `b` is then a winning move, and moves
/// from different heads or values differ (a move's corner is its head,
/// and its columns determine `a`).
pub fn analyze_grid(
    columns: &CoinRule,
    rows: &CoinRule,
    heads: &[(usize, usize)],
    memory_limit: u64,
    work_limit: u64,
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
    let across = columns.table(width as u64, &xs, memory_limit, work_limit)?;
    let down = rows.table(height as u64, &ys, memory_limit, work_limit)?;
    let valued: Vec<(usize, usize, Nimber)> = heads
        .iter()
        .map(|&(x, y)| (x, y, nim_product(across.values[x], down.values[y])))
        .collect();
    let nim_sum: Nimber = valued.iter().map(|h| h.2).sum();
    let mut winning_moves = Vec::new();
    let mut complete = true;
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
                if !down.can_add(y, b) {
                    continue;
                }
                // One more than there is room for tells whether the list
                // is whole.
                let room = COIN_MOVES_LISTED - winning_moves.len();
                let column_sets = columns.completions(&across.values, x, a, room + 1);
                let row_sets = rows.completions(&down.values, y, b, room + 1);
                for cs in &column_sets {
                    for rs in &row_sets {
                        if winning_moves.len() == COIN_MOVES_LISTED {
                            complete = false;
                            break 'search;
                        }
                        let mut cs = cs.clone();
                        let mut rs = rs.clone();
                        cs.push(x);
                        rs.push(y);
                        cs.sort_unstable();
                        rs.sort_unstable();
                        winning_moves.push(GridMove {
                            columns: cs,
                            rows: rs,
                        });
                    }
                }
            }
        }
    }
    Ok(CoinGrid {
        heads: valued,
        nim_sum,
        winning_move: winning_moves.first().cloned(),
        winning_moves,
        complete,
    })
}

impl CoinRule {
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
            CoinRule::Runs(ref lengths) => Some(Theorem::CoinRuns {
                longest_run: lengths.longest(),
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
}
