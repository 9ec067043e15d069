//! Game specifications: every kind of game a user can name, parsed in one
//! place, and the one catalogue that `grundy games`, the web playground and
//! Python's `grundy.games()` list.
//!
//! A specification is what a user types: a built-in name (`kayles`), a
//! take-and-break code (`0.137`, `4!.0`), a subtraction set
//! (`sub(1,3,4)`), a divisor family, a game on pairs (`rook(A,B)`,
//! `wythoff`), a coin-turning rule or product (`mock-turtles`,
//! `ruler*ruler`), a Green Hackenbush tree (`(()())`), Fibonacci Nim, or a
//! file: a Rhai script `FILE.rhai`, `graph:FILE`, `maze:FILE` or
//! `hackenbush:FILE`. [`GameSpec::parse`] decides which, so no front end
//! inspects a game string itself, and [`GameSpec::kind`] says which
//! questions the game answers ([`SpecKind::check`]).
//!
//! ```
//! use grundy::spec::{GameSpec, Question, SpecKind};
//! let kayles = GameSpec::parse("kayles")?;
//! assert_eq!(kayles.kind(), SpecKind::Heap);
//! assert_eq!(GameSpec::parse("examples/take-and-split.rhai")?.kind(), SpecKind::Script);
//! assert_eq!(GameSpec::parse("rook(nim,kayles)")?.kind(), SpecKind::Pair);
//! assert_eq!(GameSpec::parse("(()())")?.kind(), SpecKind::Hackenbush);
//! assert!(SpecKind::Graph.check(Question::Count).is_err());
//! # Ok::<(), grundy::Error>(())
//! ```

use std::fmt;
use std::path::PathBuf;

pub use crate::rules::parse_size;
use crate::rules::{CoinRule, Hackenbush, PairGame};
use crate::{Error, HeapGame, Result};

/// The largest file a spec may name (a script, a graph, a maze, a
/// picture): `/dev/zero` is refused, not read forever.
pub const INPUT_FILE_LIMIT: u64 = 256 << 20;

/// The text of a file a spec names, of at most [`INPUT_FILE_LIMIT`]
/// bytes.
pub fn read_input(path: &std::path::Path) -> Result<String> {
    use std::io::Read;
    let unreadable = |reason: String| Error::Unreadable {
        path: path.display().to_string(),
        reason,
    };
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(INPUT_FILE_LIMIT + 1).read_to_string(&mut text))
        .map_err(|e| unreadable(e.to_string()))?;
    if text.len() as u64 > INPUT_FILE_LIMIT {
        return Err(unreadable(format!(
            "larger than {} MiB",
            INPUT_FILE_LIMIT >> 20
        )));
    }
    Ok(text)
}

/// A game as the user named it, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameSpec {
    /// A game on one heap: a name, a take-and-break code, a subtraction set
    /// or a divisor family.
    Heap(HeapGame),
    /// Rules written as a Rhai script (the file).
    Script(PathBuf),
    /// A game on pairs of integers: `rook(A,B)` or `wythoff`.
    Pair(PairGame),
    /// A coin-turning rule.
    Coins(CoinRule),
    /// Two coin-turning rules played on a grid (Tartan theorem).
    CoinGrid(CoinRule, CoinRule),
    /// A Green Hackenbush tree in bracket notation.
    HackenbushTree(String),
    /// A Green Hackenbush picture as an edge-list file.
    HackenbushFile(PathBuf),
    /// An explicit game graph file.
    Graph(PathBuf),
    /// A maze file (figures moving left or up).
    Maze(PathBuf),
    /// Fibonacci Nim.
    FibonacciNim,
}

/// The kinds of game, by the questions they answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpecKind {
    /// Heaps of a built-in game.
    Heap,
    /// A script: heaps (or tuples) of a user's rules.
    Script,
    /// Positions `(a, b)`.
    Pair,
    /// Coin-turning: rows or grids of coins.
    Coins,
    /// Green Hackenbush pictures.
    Hackenbush,
    /// An explicit graph of positions.
    Graph,
    /// A maze of figures.
    Maze,
    /// Fibonacci Nim (not a sum: the last take matters).
    FibonacciNim,
}

/// A question a front end asks of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// The values of heaps `0..=N`.
    Values,
    /// Period, pre-period and proof.
    Analyze,
    /// A formula for the values.
    Guess,
    /// Value-by-value comparison with another game.
    Compare,
    /// Who wins a sum of positions, and every winning move.
    Sum,
    /// Counts of heaps and positions by value.
    Count,
    /// Misère play.
    Misere,
    /// A plot of the values.
    Plot,
    /// The winning moves of every heap of a range.
    Moves,
}

impl Question {
    /// The command that asks it.
    pub fn command(self) -> &'static str {
        match self {
            Question::Values => "values",
            Question::Analyze => "analyze",
            Question::Guess => "guess",
            Question::Compare => "compare",
            Question::Sum => "sum",
            Question::Count => "count",
            Question::Misere => "misere",
            Question::Plot => "plot",
            Question::Moves => "moves",
        }
    }
}

impl SpecKind {
    /// A short name for messages.
    pub fn name(self) -> &'static str {
        match self {
            SpecKind::Heap => "a heap game",
            SpecKind::Script => "a script",
            SpecKind::Pair => "a game on pairs",
            SpecKind::Coins => "a coin-turning game",
            SpecKind::Hackenbush => "a Hackenbush picture",
            SpecKind::Graph => "a game graph",
            SpecKind::Maze => "a maze",
            SpecKind::FibonacciNim => "Fibonacci Nim",
        }
    }

    /// `Ok` when games of this kind answer `question`, else
    /// [`Error::Unsupported`] saying why and which questions it does
    /// answer (each front end names its own way to ask them).
    pub fn check(self, question: Question) -> Result<()> {
        use Question as Q;
        use SpecKind as K;
        let reason = match (self, question) {
            (K::Heap | K::Script, _) => return Ok(()),
            (K::Pair, Q::Values | Q::Sum | Q::Count | Q::Moves) => return Ok(()),
            (K::Coins | K::Hackenbush | K::Graph | K::Maze, Q::Sum) => return Ok(()),
            (K::Pair, _) => {
                "its positions are pairs (a, b), not heaps; ask values, sum, count or moves"
            }
            (K::Coins, Q::Count) => {
                "a row of coins is counted up to its last coin (N), a grid up to its last \
                 column and row (X,Y)"
            }
            (K::Coins, _) => {
                "its positions are rows or grids of coins, not heaps; ask count, or sum with \
                 the heads"
            }
            (K::Hackenbush, _) => "a picture is played whole; ask sum",
            (K::Graph, _) => {
                "a graph has named positions, not heaps; ask sum with its positions \
                 (graph:FILE:NODE)"
            }
            (K::Maze, _) => "a maze is played whole, all its figures; ask sum",
            (K::FibonacciNim, _) => {
                "each take depends on the last, so its positions are not heaps and it is no sum"
            }
        };
        Err(Error::Unsupported {
            kind: self.name(),
            question: question.command(),
            reason: reason.to_owned(),
        })
    }
}

impl GameSpec {
    /// Parses what a user typed.
    pub fn parse(text: &str) -> Result<GameSpec> {
        let spec = text.trim();
        if spec.is_empty() {
            return Err(Error::UnknownGame {
                spec: String::new(),
            });
        }
        let lower = spec.to_ascii_lowercase();
        for (prefix, kind) in [
            ("graph:", GameSpec::Graph as fn(PathBuf) -> GameSpec),
            ("maze:", GameSpec::Maze),
            ("hackenbush:", GameSpec::HackenbushFile),
            ("script:", GameSpec::Script),
        ] {
            if lower.starts_with(prefix) {
                return Ok(kind(PathBuf::from(&spec[prefix.len()..])));
            }
        }
        if lower.ends_with(".rhai") {
            return Ok(GameSpec::Script(PathBuf::from(spec)));
        }
        if spec.starts_with('(') {
            Hackenbush::tree(spec)?;
            return Ok(GameSpec::HackenbushTree(spec.to_owned()));
        }
        if let Some(pair) = PairGame::parse(spec) {
            return pair.map(GameSpec::Pair);
        }
        if lower == "fibonacci-nim" {
            return Ok(GameSpec::FibonacciNim);
        }
        let heap = spec.parse::<HeapGame>();
        if let Err(Error::UnknownGame { .. }) = heap {
            if spec.contains('*') {
                return GameSpec::coins(spec);
            }
            if let Ok(coins) = GameSpec::coins(spec) {
                return Ok(coins);
            }
        }
        heap.map(GameSpec::Heap)
    }

    /// Parses a coin-turning rule (`mock-turtles`, `turn(3)`) or a product
    /// of two (`ruler*ruler`), with the coin parser's error when it is
    /// neither: for commands that expect coins.
    pub fn coins(text: &str) -> Result<GameSpec> {
        Ok(match coin_rules(text)? {
            (rule, None) => GameSpec::Coins(rule),
            (columns, Some(rows)) => GameSpec::CoinGrid(columns, rows),
        })
    }

    /// Whether the game is read from a file the spec names.
    pub fn reads_file(&self) -> bool {
        matches!(
            self,
            GameSpec::Script(_)
                | GameSpec::HackenbushFile(_)
                | GameSpec::Graph(_)
                | GameSpec::Maze(_)
        )
    }

    /// The kind of game.
    pub fn kind(&self) -> SpecKind {
        match self {
            GameSpec::Heap(_) => SpecKind::Heap,
            GameSpec::Script(_) => SpecKind::Script,
            GameSpec::Pair(_) => SpecKind::Pair,
            GameSpec::Coins(_) | GameSpec::CoinGrid(..) => SpecKind::Coins,
            GameSpec::HackenbushTree(_) | GameSpec::HackenbushFile(_) => SpecKind::Hackenbush,
            GameSpec::Graph(_) => SpecKind::Graph,
            GameSpec::Maze(_) => SpecKind::Maze,
            GameSpec::FibonacciNim => SpecKind::FibonacciNim,
        }
    }
}

/// A coin-turning rule, or the two rules of a product `A*B` (columns,
/// rows).
pub fn coin_rules(text: &str) -> Result<(CoinRule, Option<CoinRule>)> {
    match text.trim().split_once('*') {
        Some((a, b)) => Ok((a.parse()?, Some(b.parse()?))),
        None => Ok((text.parse()?, None)),
    }
}

impl std::str::FromStr for GameSpec {
    type Err = Error;

    fn from_str(text: &str) -> Result<GameSpec> {
        GameSpec::parse(text)
    }
}

impl fmt::Display for GameSpec {
    /// The canonical specification (files by their path).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSpec::Heap(game) => game.fmt(f),
            GameSpec::Script(path) => write!(f, "{}", path.display()),
            GameSpec::Pair(game) => game.fmt(f),
            GameSpec::Coins(rule) => rule.fmt(f),
            GameSpec::CoinGrid(a, b) => write!(f, "{a}*{b}"),
            GameSpec::HackenbushTree(tree) => f.write_str(tree),
            GameSpec::HackenbushFile(path) => write!(f, "hackenbush:{}", path.display()),
            GameSpec::Graph(path) => write!(f, "graph:{}", path.display()),
            GameSpec::Maze(path) => write!(f, "maze:{}", path.display()),
            GameSpec::FibonacciNim => f.write_str("fibonacci-nim"),
        }
    }
}

/// One entry of the list of built-in games and families (the JSON of
/// `grundy games` and the web's `/api/games`).
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct CatalogueEntry {
    /// What to type: a name, or the shape of a family's notation.
    pub name: &'static str,
    /// The take-and-break code of a named game, if it has one.
    pub code: Option<&'static str>,
    /// One line on what the game is.
    pub description: &'static str,
    /// A specification that works as written.
    pub example: &'static str,
    /// What kind of game it is, which decides the questions it answers.
    pub kind: SpecKind,
}

/// The built-in games and the notations accepted for families.
pub const CATALOGUE: &[CatalogueEntry] = &[
    CatalogueEntry {
        name: "nim",
        code: Some("0.[3]"),
        description: "Nim: remove any number of tokens from one heap; g(n) = n",
        example: "nim",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "kayles",
        code: Some("0.77"),
        description: "Kayles: knock down one pin or two adjacent pins from a row",
        example: "kayles",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "dawsons-kayles",
        code: Some("0.07"),
        description: "Dawson's Kayles: knock down exactly two adjacent pins",
        example: "dawsons-kayles",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "dawsons-chess",
        code: Some("0.137"),
        description: "Dawson's chess: pawns on a 3xN board where captures are compulsory",
        example: "dawsons-chess",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "treblecross",
        code: Some("0.007"),
        description: "Treblecross: one-dimensional tic-tac-toe where both play X",
        example: "treblecross",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "officers",
        code: Some("0.6"),
        description: "Officers: remove one token, leaving one or two non-empty heaps",
        example: "officers",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "grundy",
        code: Some("4!.0"),
        description: "Grundy's game: split a heap into two unequal heaps",
        example: "grundy",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "lasker",
        code: Some("4.[3]"),
        description: "Lasker's Nim: remove any number of tokens, or split a heap into two",
        example: "lasker",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "take-and-split",
        code: Some("0.37"),
        description: "take 1, take 2, or take 2 and split the rest into two non-empty heaps",
        example: "take-and-split",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "proper-divisors",
        code: None,
        description: "remove a proper divisor of the heap (heap 1 cannot move)",
        example: "proper-divisors",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "divisors",
        code: None,
        description: "remove any divisor of the heap, the whole heap included",
        example: "divisors",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "equal-split",
        code: None,
        description: "split a heap of n into k >= 2 equal heaps, for a divisor k of n",
        example: "equal-split",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "mark",
        code: None,
        description: "MARK: remove one token, or halve the heap rounding down",
        example: "mark",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "rook(A,B)",
        code: None,
        description: "a token moving left by heap game A or up by heap game B: the sum of \
                      the two, g = g_A(a) ^ g_B(b) (rook = two-heap Nim); compare wythoff, \
                      whose diagonal moves make it no sum (`grundy values rook --to N`)",
        example: "rook(sub(1,2),kayles)",
        kind: SpecKind::Pair,
    },
    CatalogueEntry {
        name: "fibonacci-nim",
        code: None,
        description: "one heap; take 1 to n-1 first, then at most twice the last take \
                      (--ratio C: C times); who wins and how (`grundy fibonacci-nim N`)",
        example: "fibonacci-nim",
        kind: SpecKind::FibonacciNim,
    },
    CatalogueEntry {
        name: "turn(K)",
        code: None,
        description: "coin-turning (`grundy coins RULE HEADS...`): turn at most K coins, the \
                      rightmost from heads to tails; turn(=K) exactly K; turtles = turn(2), \
                      mock-turtles = turn(3), twins = turn(=2)",
        example: "mock-turtles",
        kind: SpecKind::Coins,
    },
    CatalogueEntry {
        name: "ruler(K)",
        code: None,
        description: "coin-turning: turn at most K consecutive coins (ruler: any number); \
                      runs(A,B,...) a run of A, B, ... coins (a..b a range, any lengths); \
                      grunt turns four symmetric coins (Grundy's game); A*B plays two \
                      rules on a grid (Tartan theorem)",
        example: "ruler*ruler",
        kind: SpecKind::Coins,
    },
    CatalogueEntry {
        name: "hackenbush",
        code: None,
        description: "Green Hackenbush pictures: trees in bracket notation, graphs with \
                      cycles as edge lists (`grundy hackenbush '(()())' --graph FILE`, or \
                      hackenbush:FILE as a game)",
        example: "(()())",
        kind: SpecKind::Hackenbush,
    },
    CatalogueEntry {
        name: "wythoff",
        code: None,
        description: "Wythoff's game on two heaps: take from one, or equally from both \
                      (`grundy values wythoff --to N` prints the table)",
        example: "wythoff",
        kind: SpecKind::Pair,
    },
    CatalogueEntry {
        name: "d0.d1d2...",
        code: None,
        description: "take-and-break code: digit d_t says what may remain after removing t \
                      tokens (1 = nothing, 2 = one heap, 4 = two heaps, 8 = three ...; add \
                      them; A-Z and &n; past 9, or the set {k,...} of heap counts, a..b a \
                      range of any size as in {2..200}, {2+} for two or more heaps); a digit \
                      followed by ! leaves unequal heaps, ? not all equal, = all equal; \
                      [..] repeats forever",
        example: "0.137",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "sub(a,b,...)",
        code: None,
        description: "subtraction game: remove a, b, ... tokens from one heap; a..b is \
                      a range (sub(1..10,15))",
        example: "sub(1,3,4)",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "sub(squares)",
        code: None,
        description: "subtract-a-square: remove any positive square number of tokens; also \
                      sub(primes), sub(powers-of-2), sub(fibonacci), sub(factorials), \
                      sub(triangular)",
        example: "sub(squares)",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "sub(a+dk)",
        code: None,
        description: "remove a, a+d, a+2d, ... tokens (an arithmetic progression)",
        example: "sub(2+3k)",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "allbut(a,b,...)",
        code: None,
        description: "remove any positive number of tokens except a, b, ...",
        example: "allbut(1,2)",
        kind: SpecKind::Heap,
    },
    CatalogueEntry {
        name: "FILE.rhai",
        code: None,
        description: "your own rules: a Rhai script defining options(p) for heaps or tuples \
                      (`grundy values FILE.rhai --to N` or `--position [a,b]`; see README)",
        example: "examples/take-and-split.rhai",
        kind: SpecKind::Script,
    },
    CatalogueEntry {
        name: "graph:FILE",
        code: None,
        description: "an explicit game graph: FROM TO [LABEL] per line, or JSON; cycles \
                      allowed (`grundy graph FILE`)",
        example: "graph:examples/tasks.txt",
        kind: SpecKind::Graph,
    },
    CatalogueEntry {
        name: "maze:FILE",
        code: None,
        description: "figures moving left or up through an ASCII map ('#' wall, '.' floor) \
                      (`grundy maze FILE`)",
        example: "maze:examples/maze.txt",
        kind: SpecKind::Maze,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalogue_example_parses_to_its_kind() {
        for entry in CATALOGUE {
            let spec =
                GameSpec::parse(entry.example).unwrap_or_else(|e| panic!("{}: {e}", entry.example));
            assert_eq!(spec.kind(), entry.kind, "{}", entry.name);
            if let Some(code) = entry.code {
                assert_eq!(
                    spec.to_string(),
                    code,
                    "{} is printed canonically",
                    entry.name
                );
                assert_eq!(GameSpec::parse(code).unwrap(), spec, "{}", entry.name);
            }
        }
    }

    #[test]
    fn kinds_are_told_apart_by_the_parser_alone() {
        let kind = |s: &str| GameSpec::parse(s).unwrap().kind();
        assert_eq!(kind("4!.0"), SpecKind::Heap);
        assert_eq!(kind("sub(1,3,4)"), SpecKind::Heap);
        assert_eq!(kind("proper-divisors"), SpecKind::Heap);
        assert_eq!(kind("wythoff"), SpecKind::Pair);
        assert_eq!(kind("mock-turtles"), SpecKind::Coins);
        assert_eq!(kind("ruler*turn(2)"), SpecKind::Coins);
        assert_eq!(kind("graph:x.txt"), SpecKind::Graph);
        assert_eq!(kind("MAZE:x.txt"), SpecKind::Maze);
        assert_eq!(kind("hackenbush:pic.txt"), SpecKind::Hackenbush);
        assert_eq!(kind("Script:rules.txt"), SpecKind::Script);
        assert_eq!(kind("fibonacci-nim"), SpecKind::FibonacciNim);
        assert!(matches!(
            GameSpec::parse("chess"),
            Err(Error::UnknownGame { .. })
        ));
        assert!(GameSpec::parse("0.9#").is_err());
        assert!(GameSpec::parse("(()").is_err());
    }

    #[test]
    fn refusals_name_the_kind_the_question_and_what_it_answers() {
        let message = SpecKind::Maze
            .check(Question::Count)
            .unwrap_err()
            .to_string();
        assert!(
            message.contains("a maze") && message.contains("count"),
            "{message}"
        );
        assert!(message.contains("ask sum"), "{message}");
        // The library names no command or flag: each front end names its own.
        assert!(
            !message.contains("grundy") && !message.contains("--"),
            "{message}"
        );
        assert!(SpecKind::Pair.check(Question::Sum).is_ok());
        assert!(SpecKind::Maze.check(Question::Sum).is_ok());
        assert!(SpecKind::Script.check(Question::Misere).is_ok());
    }
}
