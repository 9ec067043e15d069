//! Values of pair games ([`PairGame`]): Wythoff's table by the definition,
//! a rook's by the sum theorem, and positions played together through
//! them.

use crate::error::human_bytes;
use crate::rules::PairGame;
use crate::{Error, MexScratch, Nimber, Result, TableSolver};

impl PairGame {
    /// `g(a, b)` for `0 <= a, b <= to`, as `table[a][b]`; refused with
    /// [`Error::TableTooLarge`] past `memory_limit` bytes.
    ///
    /// ```
    /// use grundy::rules::PairGame;
    /// let table = PairGame::Wythoff.table(4, 1 << 20).unwrap();
    /// assert_eq!(table[1][2].get(), 0); // (1, 2) is a P-position
    /// assert_eq!(table[3][3].get(), 6);
    /// ```
    pub fn table(&self, to: u64, memory_limit: u64) -> Result<Vec<Vec<Nimber>>> {
        // (to + 1)^2 cells of 4 bytes: past 2^128 when `to` is near 2^64, so
        // the product is checked rather than left to wrap to a small size.
        let side = u128::from(to) + 1;
        let needed = side
            .checked_mul(side)
            .and_then(|cells| cells.checked_mul(4));
        let fits = needed.filter(|&bytes| bytes <= u128::from(memory_limit));
        let Some(side) = fits.and_then(|_| usize::try_from(side).ok()) else {
            return Err(Error::TableTooLarge {
                to,
                needed: needed.map_or_else(|| "more than 2^128 bytes".to_owned(), human_bytes),
                limit: human_bytes(u128::from(memory_limit)),
            });
        };
        let mut table: Vec<Vec<Nimber>> = Vec::with_capacity(side);
        match self {
            PairGame::Wythoff => {
                let mut seen = MexScratch::new();
                for a in 0..side {
                    // A row is `side` cells of up to `3 side` options each:
                    // the table takes cubic time, so Ctrl-C or a time limit
                    // is checked once a row.
                    crate::cancel::check()?;
                    let mut row: Vec<Nimber> = Vec::with_capacity(side);
                    for b in 0..side {
                        seen.clear();
                        // Options lie in earlier rows, or earlier in this row.
                        (0..a).for_each(|x| seen.insert(table[x][b]));
                        (0..b).for_each(|y| seen.insert(row[y]));
                        (1..=a.min(b)).for_each(|k| seen.insert(table[a - k][b - k]));
                        row.push(seen.mex()?);
                    }
                    table.push(row);
                }
            }
            PairGame::Rook(across, down) => {
                // The sum theorem: each coordinate is a heap of its game.
                let solver = TableSolver::new().with_memory_limit(memory_limit);
                let rows = solver.values(across.as_ref(), to)?;
                let columns = solver.values(down.as_ref(), to)?;
                for ga in rows.iter() {
                    table.push(columns.iter().map(|gb| ga ^ gb).collect());
                }
            }
        }
        Ok(table)
    }

    /// [`analyze_positions`](crate::analyze_positions) for positions of this
    /// game: their values, the nim-sum and every winning move, with the
    /// values from tables checked against `memory_limit` first (the square
    /// [`table`](PairGame::table) up to the largest coordinate for Wythoff;
    /// one heap table per coordinate for `rook`). The memoized search lists
    /// every option of every position on its path and ran out of memory at
    /// Wythoff's (10^9, 10^9).
    pub fn analyze_positions(
        &self,
        positions: &[(usize, usize)],
        memory_limit: u64,
    ) -> Result<crate::PositionSum<(usize, usize)>> {
        let largest = |pick: fn(&(usize, usize)) -> usize| {
            positions.iter().map(pick).max().unwrap_or(0) as u64
        };
        match self {
            PairGame::Wythoff => {
                let table = self.table(largest(|&(a, b)| a.max(b)), memory_limit)?;
                crate::sum::sum_by_values(self, positions, &mut |&(a, b)| Ok(table[a][b]))
            }
            PairGame::Rook(across, down) => {
                let solver = TableSolver::new().with_memory_limit(memory_limit);
                let rows = solver.values(across.as_ref(), largest(|&(a, _)| a))?;
                let columns = solver.values(down.as_ref(), largest(|&(_, b)| b))?;
                crate::sum::sum_by_values(self, positions, &mut |&(a, b)| {
                    Ok(rows.at(a) ^ columns.at(b))
                })
            }
        }
    }
}

/// One position's winning moves in a pair game (`grundy moves wythoff`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairWins {
    /// The position `(a, b)`.
    pub position: (usize, usize),
    /// Its value.
    pub value: Nimber,
    /// Its distinct moves to a position of value 0.
    pub count: u64,
    /// The fewest tokens a winning move removes (`a + b` less the tokens
    /// left); `None` without a winning move.
    pub fewest_taken: Option<i64>,
    /// The most tokens a winning move removes.
    pub most_taken: Option<i64>,
}

impl PairGame {
    /// The winning moves of every position `(a, b)` with `a, b <= to`, row
    /// by row: the moves to a position worth 0 (with the heaps a rook's
    /// move leaves beside it, worth their nim-sum together), counted once
    /// each. The values come from [`PairGame::table`] (refused past
    /// `memory_limit`); Ctrl-C or a time limit is checked once a row, and
    /// `progress(a, to)` hears each row.
    pub fn move_table(
        &self,
        to: u64,
        memory_limit: u64,
        progress: &mut dyn FnMut(usize, usize) -> bool,
    ) -> Result<Vec<PairWins>> {
        use crate::{Options, Ruleset};
        let table = self.table(to, memory_limit)?;
        let side = table.len();
        let mut found = Vec::with_capacity(side * side);
        let mut options = Options::new();
        for a in 0..side {
            crate::cancel::check()?;
            if !progress(a, side - 1) {
                return Err(Error::Interrupted { heaps: a as u64 });
            }
            for b in 0..side {
                options.clear();
                self.options(&(a, b), &mut options);
                let mut seen = std::collections::BTreeSet::new();
                for option in options.iter() {
                    let reached: Nimber = option.iter().map(|&(x, y)| table[x][y]).sum();
                    if reached.is_zero() {
                        let mut left: Vec<(usize, usize)> =
                            option.iter().copied().filter(|&p| p != (0, 0)).collect();
                        left.sort_unstable();
                        let kept: usize = left.iter().map(|&(x, y)| x + y).sum();
                        seen.insert(((a + b) as i64 - kept as i64, left));
                    }
                }
                found.push(PairWins {
                    position: (a, b),
                    value: table[a][b],
                    count: seen.len() as u64,
                    fewest_taken: seen.iter().map(|m| m.0).min(),
                    most_taken: seen.iter().map(|m| m.0).max(),
                });
            }
        }
        Ok(found)
    }
}
