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

use crate::{Error, HeapGame, Options, Result, Ruleset};

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
