//! Built-in rulesets and the short specifications that name them.
//!
//! A heap game is named by a built-in name (`kayles`), a take-and-break
//! code (`0.137`, `4!.0`) or a subtraction set (`sub(1,3,4)`,
//! `sub(squares)`); [`HeapGame`] parses any of them. Every other kind of
//! game, and the catalogue of all of them, is in [`crate::spec`].

mod coins;
mod divisor;
mod fibonacci_nim;
mod graph;
mod hackenbush;
mod maze;
mod pair;
mod script;
mod subtraction;
mod take_break;

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

pub use coins::{CoinRule, CompletionCounts, RunLengths};
pub use divisor::DivisorGame;
pub use fibonacci_nim::{FibonacciNim, Ratio};
pub use graph::GameGraph;
pub use hackenbush::Hackenbush;
pub use maze::Maze;
pub use pair::PairGame;
pub use script::{
    Defines, ExploredGame, PRINTED_LINE_CHARS, PRINTED_LINES, ScriptGame, ScriptLimits,
    ScriptParameter, ScriptPosition, StateLister, compile_estimate,
};
pub use subtraction::{PrimeTable, Subtraction, SubtractionSet};
pub use take_break::TakeBreak;

use crate::{Error, HeapRuleset, MexScratch, Nimber, Options, Result, Ruleset};

/// A game played on heaps of tokens, named by a specification.
///
/// ```
/// use grundy::HeapGame;
/// let game: HeapGame = "kayles".parse().unwrap();
/// assert_eq!(game.to_string(), "0.77");
/// assert_eq!("dawsons-chess".parse::<HeapGame>().unwrap(), "0.137".parse().unwrap());
/// assert!("chess".parse::<HeapGame>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapGame {
    /// A take-and-break code.
    TakeBreak(TakeBreak),
    /// A subtraction game.
    Subtraction(Subtraction),
    /// A game moving by divisors or halving.
    Divisor(DivisorGame),
}

impl FromStr for HeapGame {
    type Err = Error;

    fn from_str(spec: &str) -> Result<HeapGame> {
        let spec = spec.trim();
        let lower = spec.to_ascii_lowercase();
        if let Some(code) = crate::spec::CATALOGUE
            .iter()
            .find(|entry| entry.name == lower)
            .and_then(|entry| entry.code)
        {
            return code.parse().map(HeapGame::TakeBreak);
        }
        if let Some(game) = DivisorGame::named(&lower) {
            return Ok(HeapGame::Divisor(game));
        }
        if lower.starts_with("sub(") || lower.starts_with("allbut(") {
            return lower.parse().map(HeapGame::Subtraction);
        }
        // A code: starts with a digit, '.', '&' or '{', or has a point
        // (game names have none) and no parenthesis (a coin rule such as
        // runs(1..100) has one; codes never do).
        if spec.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '.' | '&' | '{'))
            || (spec.contains('.') && !spec.contains('('))
        {
            return spec.parse().map(HeapGame::TakeBreak);
        }
        Err(Error::UnknownGame {
            spec: spec.to_owned(),
        })
    }
}

impl fmt::Display for HeapGame {
    /// The canonical specification.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapGame::TakeBreak(game) => game.fmt(f),
            HeapGame::Subtraction(game) => game.fmt(f),
            HeapGame::Divisor(game) => game.fmt(f),
        }
    }
}

impl Ruleset for HeapGame {
    type Position = usize;

    fn options(&self, n: &usize, out: &mut Options<usize>) {
        match self {
            HeapGame::TakeBreak(game) => game.options(n, out),
            HeapGame::Subtraction(game) => game.options(n, out),
            HeapGame::Divisor(game) => game.options(n, out),
        }
    }
}

impl HeapRuleset for HeapGame {
    fn gather(
        &self,
        n: usize,
        values: &[Nimber],
        max: Nimber,
        seen: &mut MexScratch,
        scratch: &mut Options<usize>,
    ) -> Result<()> {
        match self {
            HeapGame::TakeBreak(game) => game.gather(n, values, max, seen, scratch),
            HeapGame::Subtraction(game) => game.gather(n, values, max, seen, scratch),
            HeapGame::Divisor(game) => game.gather(n, values, max, seen, scratch),
        }
    }

    fn visit_options(
        &self,
        n: usize,
        visit: &mut dyn FnMut(&[usize]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self {
            HeapGame::TakeBreak(game) => game.visit_options(n, visit),
            HeapGame::Subtraction(game) => game.visit_options(n, visit),
            HeapGame::Divisor(game) => game.visit_options(n, visit),
        }
    }

    fn as_take_break(&self) -> Option<&TakeBreak> {
        match self {
            HeapGame::TakeBreak(code) => Some(code),
            HeapGame::Subtraction(_) | HeapGame::Divisor(_) => None,
        }
    }

    fn as_heap_game(&self) -> Option<&HeapGame> {
        Some(self)
    }

    fn closed_form(&self, n: usize) -> Option<u64> {
        match self {
            HeapGame::TakeBreak(game) => game.closed_form(n),
            HeapGame::Subtraction(game) => game.closed_form(n),
            HeapGame::Divisor(game) => game.closed_form(n),
        }
    }
}

/// Parses a heap size or count as people write it: `100`, `1_000_000`,
/// `1e6`, `2^20`.
///
/// ```
/// use grundy::rules::parse_size;
/// assert_eq!(parse_size("2^20").unwrap(), 1 << 20);
/// assert_eq!(parse_size("1e6").unwrap(), 1_000_000);
/// assert!(parse_size("-3").is_err());
/// assert!(parse_size("1e30").is_err());
/// ```
pub fn parse_size(text: &str) -> Result<u64> {
    let invalid = |reason: &str| Error::InvalidSize {
        text: text.to_owned(),
        reason: reason.to_owned(),
    };
    let digits = |s: &str| -> Result<u64> {
        let cleaned = s.replace('_', "");
        if cleaned.is_empty() || !cleaned.bytes().all(|b| b.is_ascii_digit()) {
            return Err(invalid(
                "expected a non-negative integer such as 100, 1e6 or 2^20",
            ));
        }
        cleaned
            .parse::<u64>()
            .map_err(|_| invalid("too large (at most 2^64 - 1)"))
    };
    let power = |base: u64, exponent: u64| {
        u32::try_from(exponent)
            .ok()
            .and_then(|e| base.checked_pow(e))
            .ok_or_else(|| invalid("too large (at most 2^64 - 1)"))
    };
    let text = text.trim();
    if text.starts_with('-') {
        return Err(invalid("sizes cannot be negative"));
    }
    if let Some((base, exponent)) = text.split_once('^') {
        power(digits(base)?, digits(exponent)?)
    } else if let Some((mantissa, exponent)) = text.split_once(['e', 'E']) {
        let scale = power(10, digits(exponent)?)?;
        digits(mantissa)?
            .checked_mul(scale)
            .ok_or_else(|| invalid("too large (at most 2^64 - 1)"))
    } else {
        digits(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_as_written() {
        assert_eq!(parse_size("1_000").unwrap(), 1000);
        assert_eq!(parse_size(" 7 ").unwrap(), 7);
        assert_eq!(parse_size("3e2").unwrap(), 300);
        assert_eq!(
            parse_size("2^64"),
            Err(Error::InvalidSize {
                text: "2^64".into(),
                reason: "too large (at most 2^64 - 1)".into()
            })
        );
        for bad in [
            "",
            "-1",
            "1.5",
            "abc",
            "1e",
            "^2",
            "0x10",
            "99999999999999999999",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_are_case_insensitive() {
        assert_eq!("Kayles".parse::<HeapGame>(), "0.77".parse());
        assert_eq!("SUB(1,2)".parse::<HeapGame>(), "sub(2,1)".parse());
    }
}
