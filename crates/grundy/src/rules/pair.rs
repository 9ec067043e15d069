//! Games on two integers.
//!
//! `wythoff`: Wythoff's game (Wyt Queens) — remove any number of tokens from
//! one of two heaps, or the same number from both; equivalently a queen that
//! moves left, up or diagonally up-left on a quarter-infinite board.

use std::fmt;

use crate::error::human_bytes;
use crate::{Error, MexScratch, Nimber, Options, Result, Ruleset};

/// A game whose positions are pairs of integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairGame {
    /// Take from one heap, or equally from both.
    Wythoff,
}

impl PairGame {
    /// The game named `name`, if it is one of these.
    pub fn named(name: &str) -> Option<PairGame> {
        (name == "wythoff").then_some(PairGame::Wythoff)
    }

    /// Calls `f` with every position one move from `(a, b)`.
    fn for_each_option(self, (a, b): (usize, usize), mut f: impl FnMut((usize, usize))) {
        match self {
            PairGame::Wythoff => {
                (0..a).for_each(|x| f((x, b)));
                (0..b).for_each(|y| f((a, y)));
                (1..=a.min(b)).for_each(|k| f((a - k, b - k)));
            }
        }
    }

    /// `g(a, b)` for `0 <= a, b <= to`, as `table[a][b]`; refused with
    /// [`Error::TableTooLarge`] past `memory_limit` bytes.
    ///
    /// ```
    /// use grundy::rules::PairGame;
    /// let table = PairGame::Wythoff.table(4, 1 << 20).unwrap();
    /// assert_eq!(table[1][2].get(), 0); // (1, 2) is a P-position
    /// assert_eq!(table[3][3].get(), 6);
    /// ```
    pub fn table(self, to: u64, memory_limit: u64) -> Result<Vec<Vec<Nimber>>> {
        let side = u128::from(to) + 1;
        let needed = side * side * 4;
        if needed > u128::from(memory_limit) {
            return Err(Error::TableTooLarge {
                to,
                needed: human_bytes(needed),
                limit: human_bytes(u128::from(memory_limit)),
            });
        }
        let side = side as usize;
        let mut table: Vec<Vec<Nimber>> = Vec::with_capacity(side);
        let mut seen = MexScratch::new();
        for a in 0..side {
            let mut row = Vec::with_capacity(side);
            for b in 0..side {
                seen.clear();
                // Options lie in earlier rows, or earlier in this row.
                self.for_each_option((a, b), |(x, y)| {
                    seen.insert(if x == a { row[y] } else { table[x][y] });
                });
                row.push(seen.mex()?);
            }
            table.push(row);
        }
        Ok(table)
    }
}

impl fmt::Display for PairGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PairGame::Wythoff => "wythoff",
        })
    }
}

impl Ruleset for PairGame {
    type Position = (usize, usize);

    fn options(&self, &position: &(usize, usize), out: &mut Options<(usize, usize)>) {
        self.for_each_option(position, |option| out.push([option]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemoSolver;

    #[test]
    fn the_table_agrees_with_the_generic_solver() {
        let table = PairGame::Wythoff.table(25, 1 << 20).unwrap();
        let mut solver = MemoSolver::new(&PairGame::Wythoff);
        for (a, row) in table.iter().enumerate() {
            for (b, &value) in row.iter().enumerate() {
                assert_eq!(solver.value(&(a, b)).unwrap(), value, "({a}, {b})");
            }
        }
        assert!(PairGame::Wythoff.table(1_000_000, 1 << 30).is_err());
    }

    #[test]
    fn p_positions_are_the_wythoff_pairs() {
        // (floor(k phi), floor(k phi^2)): Wythoff 1907.
        let phi = (1.0 + 5f64.sqrt()) / 2.0;
        let table = PairGame::Wythoff.table(100, 1 << 20).unwrap();
        for (a, row) in table.iter().enumerate() {
            for (b, value) in row.iter().enumerate() {
                let (low, high) = (a.min(b), a.max(b));
                let k = ((high - low) as f64) as usize;
                let is_pair = (k as f64 * phi).floor() as usize == low;
                assert_eq!(value.is_zero(), is_pair, "({a}, {b})");
            }
        }
    }
}
