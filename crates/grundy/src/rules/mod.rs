//! Built-in rulesets and the short specifications that name them.
//!
//! A game is named by a built-in name (`kayles`), a take-and-break code
//! (`0.137`, `4!.0`) or a subtraction set (`sub(1,3,4)`, `sub(squares)`);
//! [`HeapGame`] parses any of them. [`CATALOGUE`] lists what exists.

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
use std::str::FromStr;

pub use coins::{
    CoinGrid, CoinMove, CoinRow, CoinRule, CoinTable, GridMove, analyze_coins, analyze_grid,
    tartan_table,
};
pub use divisor::DivisorGame;
pub use fibonacci_nim::{FibonacciNim, TakeOutcome, zeckendorf};
pub use graph::{GameGraph, GraphValues};
pub use hackenbush::{Hackenbush, HackenbushSum, analyze_hackenbush};
pub use maze::Maze;
pub use pair::PairGame;
pub use script::{
    ExploredGame, LoopyScript, PRINTED_LINE_CHARS, PRINTED_LINES, ScriptGame, ScriptLimits,
    ScriptMove, ScriptPosition, ScriptSum, script_loopy, script_sum,
};
pub use subtraction::{PrimeTable, Subtraction, SubtractionSet};
pub use take_break::TakeBreak;

use crate::{Error, HeapRuleset, MexScratch, Nimber, Options, Result, Ruleset};

/// One entry of the list of built-in games and families.
#[derive(Clone, Copy, Debug)]
pub struct CatalogueEntry {
    /// What to type: a name, or the shape of a family's notation.
    pub name: &'static str,
    /// The take-and-break code of a named game, if it has one.
    pub code: Option<&'static str>,
    /// One line on what the game is.
    pub description: &'static str,
    /// A specification that works as written.
    pub example: &'static str,
}

/// The built-in games and the notations accepted for families.
pub const CATALOGUE: &[CatalogueEntry] = &[
    CatalogueEntry {
        name: "nim",
        code: Some("0.[3]"),
        description: "Nim: remove any number of tokens from one heap; g(n) = n",
        example: "nim",
    },
    CatalogueEntry {
        name: "kayles",
        code: Some("0.77"),
        description: "Kayles: knock down one pin or two adjacent pins from a row",
        example: "kayles",
    },
    CatalogueEntry {
        name: "dawsons-kayles",
        code: Some("0.07"),
        description: "Dawson's Kayles: knock down exactly two adjacent pins",
        example: "dawsons-kayles",
    },
    CatalogueEntry {
        name: "dawsons-chess",
        code: Some("0.137"),
        description: "Dawson's chess: pawns on a 3xN board where captures are compulsory",
        example: "dawsons-chess",
    },
    CatalogueEntry {
        name: "treblecross",
        code: Some("0.007"),
        description: "Treblecross: one-dimensional tic-tac-toe where both play X",
        example: "treblecross",
    },
    CatalogueEntry {
        name: "officers",
        code: Some("0.6"),
        description: "Officers: remove one token, leaving one or two non-empty heaps",
        example: "officers",
    },
    CatalogueEntry {
        name: "grundy",
        code: Some("4!.0"),
        description: "Grundy's game: split a heap into two unequal heaps",
        example: "grundy",
    },
    CatalogueEntry {
        name: "lasker",
        code: Some("4.[3]"),
        description: "Lasker's Nim: remove any number of tokens, or split a heap into two",
        example: "lasker",
    },
    CatalogueEntry {
        name: "take-and-split",
        code: Some("0.37"),
        description: "take 1, take 2, or take 2 and split the rest into two non-empty heaps",
        example: "take-and-split",
    },
    CatalogueEntry {
        name: "proper-divisors",
        code: None,
        description: "remove a proper divisor of the heap (heap 1 cannot move)",
        example: "proper-divisors",
    },
    CatalogueEntry {
        name: "divisors",
        code: None,
        description: "remove any divisor of the heap, the whole heap included",
        example: "divisors",
    },
    CatalogueEntry {
        name: "equal-split",
        code: None,
        description: "split a heap of n into k >= 2 equal heaps, for a divisor k of n",
        example: "equal-split",
    },
    CatalogueEntry {
        name: "mark",
        code: None,
        description: "MARK: remove one token, or halve the heap rounding down",
        example: "mark",
    },
    CatalogueEntry {
        name: "rook(A,B)",
        code: None,
        description: "a token moving left by heap game A or up by heap game B: the sum of \
                      the two, g = g_A(a) ^ g_B(b) (rook = two-heap Nim); compare wythoff, \
                      whose diagonal moves make it no sum (`grundy values rook --to N`)",
        example: "rook(sub(1,2),kayles)",
    },
    CatalogueEntry {
        name: "fibonacci-nim",
        code: None,
        description: "one heap; take 1 to n-1 first, then at most twice the last take \
                      (--ratio C: C times); who wins and how (`grundy fibonacci-nim N`)",
        example: "fibonacci-nim",
    },
    CatalogueEntry {
        name: "turn(K)",
        code: None,
        description: "coin-turning (`grundy coins RULE HEADS...`): turn at most K coins, the \
                      rightmost from heads to tails; turn(=K) exactly K; turtles = turn(2), \
                      mock-turtles = turn(3), twins = turn(=2)",
        example: "mock-turtles",
    },
    CatalogueEntry {
        name: "ruler(K)",
        code: None,
        description: "coin-turning: turn at most K consecutive coins (ruler: any number); \
                      grunt turns four symmetric coins (Grundy's game); A*B plays two \
                      rules on a grid (Tartan theorem)",
        example: "ruler*ruler",
    },
    CatalogueEntry {
        name: "hackenbush",
        code: None,
        description: "Green Hackenbush pictures: trees in bracket notation, graphs with \
                      cycles as edge lists (`grundy hackenbush '(()())' --graph FILE`)",
        example: "(()())",
    },
    CatalogueEntry {
        name: "wythoff",
        code: None,
        description: "Wythoff's game on two heaps: take from one, or equally from both \
                      (`grundy values wythoff --to N` prints the table)",
        example: "wythoff",
    },
    CatalogueEntry {
        name: "d0.d1d2...",
        code: None,
        description: "take-and-break code: digit d_t says what may remain after removing t \
                      tokens (1 = nothing, 2 = one heap, 4 = two heaps, 8 = three ...; add \
                      them; A-Z and &n; past 9, or the set {k,...} of heap counts, {2+} for \
                      two or more heaps); a digit \
                      followed by ! leaves unequal heaps, ? not all equal, = all equal; \
                      [..] repeats forever",
        example: "0.137",
    },
    CatalogueEntry {
        name: "sub(a,b,...)",
        code: None,
        description: "subtraction game: remove a, b, ... tokens from one heap",
        example: "sub(1,3,4)",
    },
    CatalogueEntry {
        name: "sub(squares)",
        code: None,
        description: "subtract-a-square: remove any positive square number of tokens; also \
                      sub(primes), sub(powers-of-2), sub(fibonacci), sub(factorials), \
                      sub(triangular)",
        example: "sub(squares)",
    },
    CatalogueEntry {
        name: "sub(a+dk)",
        code: None,
        description: "remove a, a+d, a+2d, ... tokens (an arithmetic progression)",
        example: "sub(2+3k)",
    },
    CatalogueEntry {
        name: "allbut(a,b,...)",
        code: None,
        description: "remove any positive number of tokens except a, b, ...",
        example: "allbut(1,2)",
    },
    CatalogueEntry {
        name: "FILE.rhai",
        code: None,
        description: "your own rules: a Rhai script defining options(p) for heaps or tuples \
                      (`grundy values FILE.rhai --to N` or `--position [a,b]`; see README)",
        example: "examples/take-and-split.rhai",
    },
];

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
        if let Some(code) = CATALOGUE
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
        // (game names have none).
        if spec.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '.' | '&' | '{'))
            || spec.contains('.')
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

    fn visit_options(&self, n: usize, visit: &mut dyn FnMut(&[usize])) {
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
    fn every_catalogue_example_parses() {
        // Coin-turning rules (and their products) and Hackenbush pictures
        // have commands of their own.
        let coins = |example: &str| example.split('*').all(|r| r.parse::<CoinRule>().is_ok());
        let pictures = |example: &str| Hackenbush::tree(example).is_ok();
        for entry in CATALOGUE.iter().filter(|e| {
            PairGame::parse(e.example).is_none()
                && !e.example.ends_with(".rhai")
                && !coins(e.example)
                && !pictures(e.example)
                && e.example != "fibonacci-nim"
        }) {
            let game: HeapGame = entry.example.parse().unwrap();
            if let Some(code) = entry.code {
                assert_eq!(game, code.parse().unwrap(), "{}", entry.name);
                assert_eq!(
                    game.to_string(),
                    code,
                    "{} is printed canonically",
                    entry.name
                );
            }
        }
    }

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
