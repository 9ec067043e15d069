//! Counting the positions of a row or grid of coins by nim-sum, without
//! listing them.
//!
//! A position of a coin-turning game is the set of coins showing heads, and
//! its value is the nim-sum of theirs (the coin-turning theorem; on a grid
//! of the product `A*B` coin `(x, y)` is worth `g_A(x) ⊗ g_B(y)`, the
//! Tartan theorem; Winning Ways ch. 14). The values are vectors over
//! `GF(2)` and the nim-sum of a set of heads is their sum, so by
//! [`XorBasis`]'s counting rule each nim-sum in the span of the `n` cells'
//! values is reached by exactly `2^(n - r)` positions, `r` the span's rank,
//! and every other nim-sum by none.
//!
//! The span needs only the spans of the column and row values: by
//! bilinearity of nim-multiplication it is spanned by the products of
//! their bases. So a grid costs the two rules' value spans (a theorem for
//! rules with a closed form, for sides up to `2^64 - 1`, Mock Turtles
//! `2^63`; a table of one side's coins otherwise) and at most `64 x 64`
//! products.

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::Arithmetic;
use super::ValuesBy;
use super::count::Residues;
use crate::nim_field::XorBasis;
use crate::rules::CoinRule;
use crate::{Error, Result};

/// The most cells an exact count takes: `2^(cells - rank)` has about
/// `0.3 cells` decimal digits.
pub const EXACT_GRID_CELLS: u128 = 1 << 20;

/// What the coins' tables of a grid count may take ([`count_grid`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableBudget {
    /// Bytes of one side's table ([`Error::TableTooLarge`] past them).
    pub memory: u64,
    /// Machine-word operations of a `turn(k)` table ([`Error::WorkLimit`]).
    pub work: u64,
}

/// The positions of a row or grid of coins, counted by nim-sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridCounts {
    /// Coins across: `x` in `1..=columns`.
    pub columns: u64,
    /// Coins down: `y` in `1..=rows` (1 for a row).
    pub rows: u64,
    /// The span of the cells' values under nim-addition: the nim-sums some
    /// position has.
    pub span: XorBasis,
    /// How the column rule's values were known: a closed form, a table,
    /// or a proven period past the coins computed.
    pub columns_by: ValuesBy,
    /// The same for the rows (a closed form for a row, whose one row is
    /// worth 1).
    pub rows_by: ValuesBy,
    /// Positions of each nim-sum in the span: `2^(cells - rank)`, modulo
    /// `modulus` when given.
    pub per_nim_sum: BigUint,
    /// All `2^cells` positions, modulo `modulus` when given.
    pub total: BigUint,
    /// The modulus of the counts, if any.
    pub modulus: Option<u64>,
}

impl GridCounts {
    /// The number of coins.
    pub fn cells(&self) -> u128 {
        u128::from(self.columns) * u128::from(self.rows)
    }

    /// The positions whose nim-sum is `v`.
    pub fn with_nim_sum(&self, v: u64) -> BigUint {
        if self.span.contains(v) {
            self.per_nim_sum.clone()
        } else {
            BigUint::zero()
        }
    }

    /// The P-positions: nim-sum 0, lost by the player to move.
    pub fn p_positions(&self) -> &BigUint {
        &self.per_nim_sum
    }

    /// The N-positions, won by the player to move: every position less the
    /// P-positions (modulo `modulus` when given).
    pub fn n_positions(&self) -> BigUint {
        match self.modulus {
            Some(m) => {
                let m = BigUint::from(m);
                (&self.total + &m - &self.per_nim_sum % &m) % &m
            }
            None => &self.total - &self.per_nim_sum,
        }
    }
}

/// Counts the positions (sets of heads) of the grid of coins `(x, y)`,
/// `1 <= x <= columns`, `1 <= y <= rows`, of the product `columns_rule *
/// rows_rule`, or of the row of coins `1..=columns` when `rows_rule` is
/// `None` (then `rows` must be 1), by nim-sum.
///
/// Values of rules without a closed form or proven period are computed to
/// the grid's side within `memory_limit` ([`Error::TableTooLarge`] past
/// it) and `work_limit` word operations ([`Error::WorkLimit`], see
/// [`CoinRule::value_span`]), calling
/// `progress(n)` as [`CoinRule::values`] does. Exact counts take at most
/// [`EXACT_GRID_CELLS`] cells; counts modulo `m` any grid.
///
/// ```
/// use grundy::analysis::{count_grid, Arithmetic, TableBudget};
/// use grundy::rules::CoinRule;
/// let ruler: CoinRule = "ruler".parse()?;
/// // A 2 x 2 grid of the ruler game: coins worth 1, 2, 2, 3 span {0..=3}.
/// let counts = count_grid(&ruler, Some(&ruler), 2, 2, Arithmetic::Exact, TableBudget { memory: 1 << 20, work: u64::MAX }, &mut |_| true)?;
/// assert_eq!(counts.p_positions().to_string(), "4"); // 2^(4 - 2)
/// assert_eq!(counts.with_nim_sum(4).to_string(), "0");
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn count_grid(
    columns_rule: &CoinRule,
    rows_rule: Option<&CoinRule>,
    columns: u64,
    rows: u64,
    arithmetic: Arithmetic,
    budget: TableBudget,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<GridCounts> {
    let TableBudget {
        memory: memory_limit,
        work: work_limit,
    } = budget;
    if rows_rule.is_none() && rows != 1 {
        return Err(Error::InvalidRange {
            reason: format!(
                "a row of {columns_rule} coins has one row, not {rows}; a grid is played by a \
                 product A*B"
            ),
        });
    }
    if columns == 0 || rows == 0 {
        return Err(Error::InvalidRange {
            reason: format!(
                "a grid of {columns} x {rows} coins: coins are numbered from 1, so each side has \
                 at least one"
            ),
        });
    }
    let cells = u128::from(columns) * u128::from(rows);
    if arithmetic == Arithmetic::Exact && cells > EXACT_GRID_CELLS {
        return Err(Error::InvalidRange {
            reason: format!(
                "an exact count of the positions of {columns} x {rows} coins has about {:.1e} \
                 digits; count modulo m instead (--mod), or at most {EXACT_GRID_CELLS} coins \
                 exactly",
                cells as f64 * std::f64::consts::LOG10_2
            ),
        });
    }
    let (across, columns_by) =
        columns_rule.value_span(columns, memory_limit, work_limit, progress)?;
    let (down, rows_by) = match rows_rule {
        Some(rule) => rule.value_span(rows, memory_limit, work_limit, progress)?,
        None => (XorBasis::below_power_of_two(1), ValuesBy::ClosedForm),
    };
    let span = across.products(&down);
    let free = cells - u128::from(span.rank());
    let (per_nim_sum, total) = match arithmetic {
        Arithmetic::Exact => {
            // cells <= EXACT_GRID_CELLS fits in u64.
            let power = |e: u128| BigUint::one() << e as u64;
            (power(free), power(cells))
        }
        Arithmetic::Modulo(m) => {
            let ring = Residues(m);
            (
                BigUint::from(ring.pow(2 % m, free)),
                BigUint::from(ring.pow(2 % m, cells)),
            )
        }
    };
    Ok(GridCounts {
        columns,
        rows,
        span,
        columns_by,
        rows_by,
        per_nim_sum,
        total,
        modulus: match arithmetic {
            Arithmetic::Exact => None,
            Arithmetic::Modulo(m) => Some(m),
        },
    })
}
