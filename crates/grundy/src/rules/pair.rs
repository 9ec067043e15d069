//! Games on two integers, drawn as a token on a quarter-infinite board.
//!
//! Two ways to move in two directions, documented side by side because only
//! one of them is a sum:
//!
//! - `rook(A,B)`: the token moves left by the rule of heap game `A` or up by
//!   the rule of `B`. Each move changes one coordinate, so the position
//!   `(a, b)` *is* the sum of heap `a` of `A` and heap `b` of `B`, and by the
//!   Sprague–Grundy theorem `g(a, b) = g_A(a) ^ g_B(b)`; `rook` alone is
//!   `rook(nim,nim)`, two-heap Nim. (A move of `A` that splits a heap is
//!   played as a sum too: the parts are heaps of `A` beside the token.)
//! - `wythoff`: Wythoff's game (Wyt Queens) — a queen that moves left, up
//!   or diagonally up-left; equivalently take from one heap, or equally from
//!   both. The diagonal move changes both coordinates at once, so the game
//!   is *not* a sum of its rows and columns and its values are computed
//!   position by position (P-positions `(⌊kφ⌋, ⌊kφ²⌋)`, Wythoff 1907).

use std::fmt;

use crate::error::human_bytes;
use crate::{Error, HeapGame, MexScratch, Nimber, Options, Result, Ruleset, TableSolver};

/// A game whose positions are pairs of integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairGame {
    /// Take from one heap, or equally from both.
    Wythoff,
    /// Move left by the first game's rule or up by the second's: their sum.
    Rook(Box<HeapGame>, Box<HeapGame>),
}

impl PairGame {
    /// The pair game `spec` names (`wythoff`, `rook`, `rook(A,B)`), `None`
    /// when it names none, or the error in `A` or `B`.
    ///
    /// ```
    /// use grundy::rules::PairGame;
    /// let game = PairGame::parse("rook(sub(1,2),kayles)").unwrap()?;
    /// assert_eq!(game.to_string(), "rook(sub(1,2),0.77)");
    /// assert!(PairGame::parse("kayles").is_none());
    /// # Ok::<(), grundy::Error>(())
    /// ```
    pub fn parse(spec: &str) -> Option<Result<PairGame>> {
        let spec = spec.trim();
        let lower = spec.to_ascii_lowercase();
        match lower.as_str() {
            "wythoff" => return Some(Ok(PairGame::Wythoff)),
            "rook" => {
                let nim = "nim".parse::<HeapGame>().map(Box::new);
                return Some(nim.map(|nim| PairGame::Rook(nim.clone(), nim)));
            }
            _ => {}
        }
        let inner = lower.strip_prefix("rook(")?.strip_suffix(')')?;
        let inner = &spec[5..5 + inner.len()];
        // The comma between the games is the one outside any parentheses.
        let mut depth = 0i32;
        let split = inner.char_indices().find_map(|(i, c)| {
            match c {
                '(' | '{' | '[' => depth += 1,
                ')' | '}' | ']' => depth -= 1,
                ',' if depth == 0 => return Some(i),
                _ => {}
            }
            None
        });
        let Some(split) = split else {
            return Some(Err(Error::UnknownGame {
                spec: format!("{spec} (write rook(A,B) with two heap games)"),
            }));
        };
        let parse = |text: &str| text.trim().parse::<HeapGame>().map(Box::new);
        Some(
            parse(&inner[..split]).and_then(|a| Ok(PairGame::Rook(a, parse(&inner[split + 1..])?))),
        )
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

impl fmt::Display for PairGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairGame::Wythoff => f.write_str("wythoff"),
            PairGame::Rook(a, b) => write!(f, "rook({a},{b})"),
        }
    }
}

impl Ruleset for PairGame {
    type Position = (usize, usize);

    fn options(&self, &(a, b): &(usize, usize), out: &mut Options<(usize, usize)>) {
        match self {
            PairGame::Wythoff => {
                (0..a).for_each(|x| out.push([(x, b)]));
                (0..b).for_each(|y| out.push([(a, y)]));
                (1..=a.min(b)).for_each(|k| out.push([(a - k, b - k)]));
            }
            PairGame::Rook(across, down) => {
                // A move of one game leaves its parts: the first carries the
                // token, the others are heaps of that game beside it.
                let mut parts = Options::new();
                across.options(&a, &mut parts);
                for option in parts.iter() {
                    let (first, rest) = option.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
                    out.push(std::iter::once((first, b)).chain(rest.iter().map(|&p| (p, 0))));
                }
                parts.clear();
                down.options(&b, &mut parts);
                for option in parts.iter() {
                    let (first, rest) = option.split_first().map_or((0, &[][..]), |(f, r)| (*f, r));
                    out.push(std::iter::once((a, first)).chain(rest.iter().map(|&p| (0, p))));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemoSolver;

    #[test]
    fn the_table_agrees_with_the_generic_solver() {
        for spec in [
            "wythoff",
            "rook",
            "rook(sub(1,2),kayles)",
            "rook(grundy, 0.137)",
        ] {
            let game = PairGame::parse(spec).unwrap().unwrap();
            let table = game.table(25, 1 << 20).unwrap();
            let mut solver = MemoSolver::new(&game);
            for (a, row) in table.iter().enumerate() {
                for (b, &value) in row.iter().enumerate() {
                    assert_eq!(solver.value(&(a, b)).unwrap(), value, "{spec} ({a}, {b})");
                }
            }
            assert!(game.table(1_000_000, 1 << 30).is_err());
        }
    }

    /// Positions played together: the same answer as the memoized search,
    /// from tables checked against the memory limit before they are built.
    #[test]
    fn positions_are_analysed_from_checked_tables() {
        for spec in ["wythoff", "rook(sub(1,2),kayles)", "rook(grundy, 0.137)"] {
            let game = PairGame::parse(spec).unwrap().unwrap();
            let positions = [(3, 5), (7, 2), (0, 9), (12, 12)];
            let expected = crate::analyze_positions(&game, &positions).unwrap();
            assert_eq!(
                game.analyze_positions(&positions, 1 << 20),
                Ok(expected),
                "{spec}"
            );
        }
        let wythoff = PairGame::Wythoff;
        let huge = wythoff.analyze_positions(&[(1_000_000_000, 1_000_000_000)], 1 << 30);
        assert!(matches!(huge, Err(Error::TableTooLarge { .. })), "{huge:?}");
    }

    #[test]
    fn rook_is_the_nim_sum_and_specs_parse() {
        let rook = PairGame::parse("rook").unwrap().unwrap();
        assert_eq!(rook.to_string(), "rook(0.[3],0.[3])");
        let table = rook.table(20, 1 << 20).unwrap();
        for (a, row) in table.iter().enumerate() {
            for (b, value) in row.iter().enumerate() {
                assert_eq!(value.index(), a ^ b);
            }
        }
        assert!(PairGame::parse("rook(kayles)").unwrap().is_err());
        assert!(PairGame::parse("rook(kayles,chess)").unwrap().is_err());
        assert!(PairGame::parse("nim").is_none());
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
