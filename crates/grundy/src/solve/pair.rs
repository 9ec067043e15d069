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
