//! The questions of the kinds that are not heap games, each asked with
//! the game as its text and answered with its report: coins (`grundy
//! coins`), Green Hackenbush, Fibonacci Nim, game graphs and mazes. The
//! front ends parse their arguments into these queries and render the
//! reports; the rules and solvers stay behind this module.

use crate::Component;
use crate::analysis::{analyze_coins, analyze_grid, analyze_hackenbush, hackenbush_move_counts};
use crate::report::{
    CoinGridReport, CoinRowReport, CoinTableReport, CoinValuesReport, FibonacciNimReport,
    GraphReport, GraphSumReport, HackenbushReport, LoopyGraphReport, LoopySumReport, MazeReport,
    MoveCountReport,
};
use crate::rules::{FibonacciNim, GameGraph, Hackenbush, Maze, Ratio};
use crate::solve::tartan_table;
use crate::spec::coin_rules;
use crate::{Error, Result};

use super::{GraphSolution, play_loopy_graph, solve_graph};

/// What is asked of a coin-turning rule (or a product `A*B`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoinsQuestion {
    /// The values of coins `1..=N` (of a product: the table `N x N`).
    Values(u64),
    /// A row whose heads are these coins (from 1).
    Row(Vec<usize>),
    /// A grid whose heads are these `(column, row)` coins (from 1).
    Grid(Vec<(usize, usize)>),
}

/// The answer of [`coins`].
pub enum CoinsAnswer {
    /// The values of a row's coins.
    Values(CoinValuesReport),
    /// The values of a grid's coins (Tartan theorem).
    Table(CoinTableReport),
    /// A row played: its value and every winning move.
    Row(CoinRowReport),
    /// A grid played: its value and a winning move.
    Grid(CoinGridReport),
}

/// Answers `question` of the coin-turning rule (or product) `rule`,
/// within `memory_limit` bytes and `work_limit` machine-word operations
/// ([`CoinRule::table`](crate::rules::CoinRule)); `progress` hears the
/// coins done of a long table and stops it by returning `false`.
pub fn coins(
    rule: &str,
    question: CoinsQuestion,
    memory_limit: u64,
    work_limit: u64,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<CoinsAnswer> {
    let (columns, rows) = coin_rules(rule)?;
    let refused = |reason: &str| Error::InvalidPosition {
        text: rule.trim().to_owned(),
        reason: reason.to_owned(),
    };
    Ok(match (rows, question) {
        (None, CoinsQuestion::Values(to)) => {
            let values = columns.values_within(to, memory_limit, work_limit, progress)?;
            CoinsAnswer::Values(CoinValuesReport::new(columns.to_string(), &values))
        }
        (Some(rows), CoinsQuestion::Values(to)) => {
            let table = tartan_table(&columns, &rows, to, memory_limit, work_limit)?;
            CoinsAnswer::Table(CoinTableReport::new(format!("{columns}*{rows}"), &table))
        }
        (None, CoinsQuestion::Row(heads)) => {
            let row = analyze_coins(&columns, &heads, memory_limit, work_limit)?;
            CoinsAnswer::Row(CoinRowReport::new(columns.to_string(), &row))
        }
        (Some(rows), CoinsQuestion::Grid(heads)) => {
            let grid = analyze_grid(&columns, &rows, &heads, memory_limit, work_limit)?;
            CoinsAnswer::Grid(CoinGridReport::new(format!("{columns}*{rows}"), &grid))
        }
        (None, CoinsQuestion::Grid(_)) => {
            return Err(refused(
                "a single rule plays a row; a grid is played by a product A*B",
            ));
        }
        (Some(_), CoinsQuestion::Row(_)) => {
            return Err(refused("a product A*B plays a grid: its heads are X,Y"));
        }
    })
}

/// A Green Hackenbush picture as written: a tree in bracket notation
/// (`(()())`), an edge list (the text of a file), or `hackenbush:FILE`,
/// the file that holds either (read here), named `name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// How the answer names it.
    pub name: String,
    /// The tree, the edge list, or `hackenbush:FILE`.
    pub text: String,
}

impl Picture {
    /// The picture: read from its file, or from its text
    /// ([`Hackenbush::read`]), whose errors name the picture when the
    /// name is not the text (an edge list from a file, a tree too long to
    /// repeat).
    fn parse(&self) -> Result<Hackenbush> {
        let text = self.text.trim();
        if let Some(path) = text
            .get(..HACKENBUSH_FILE.len())
            .filter(|head| head.eq_ignore_ascii_case(HACKENBUSH_FILE))
            .map(|_| &text[HACKENBUSH_FILE.len()..])
        {
            return Hackenbush::read_file(std::path::Path::new(path));
        }
        Hackenbush::read(&self.text).map_err(|e| match self.name == self.text {
            true => e,
            false => Error::InvalidPosition {
                text: self.name.clone(),
                reason: e.to_string(),
            },
        })
    }
}

/// How a picture names the file that holds it (as a game: `grundy sum
/// hackenbush:FILE`).
const HACKENBUSH_FILE: &str = "hackenbush:";

/// The answer of [`hackenbush`].
pub enum HackenbushAnswer {
    /// The pictures played together: values and every winning cut.
    Sum(HackenbushReport),
    /// Each picture's cuts counted by the value they leave.
    Moves(MoveCountReport),
}

/// Green Hackenbush `pictures` played together, or with `count_moves`
/// each one's cuts counted by value; the cuts of pictures with cycles
/// within `work_limit` machine-word operations (default
/// [`HACKENBUSH_WORK`](crate::solve::HACKENBUSH_WORK)).
pub fn hackenbush(
    pictures: &[Picture],
    count_moves: bool,
    work_limit: Option<u64>,
) -> Result<HackenbushAnswer> {
    let work_limit = work_limit.unwrap_or(crate::solve::HACKENBUSH_WORK);
    if pictures.is_empty() {
        return Err(Error::EmptySum);
    }
    let parsed = pictures
        .iter()
        .map(Picture::parse)
        .collect::<Result<Vec<_>>>()?;
    let names: Vec<String> = pictures.iter().map(|p| p.name.clone()).collect();
    if count_moves {
        let counts = hackenbush_move_counts(&parsed, work_limit)?;
        let components: Vec<Component> = parsed
            .iter()
            .enumerate()
            .map(|(game, p)| Component {
                game,
                heap: p.edge_count(),
            })
            .collect();
        return Ok(HackenbushAnswer::Moves(MoveCountReport::new(
            &names,
            &components,
            &counts,
        )));
    }
    let sum = analyze_hackenbush(&parsed, work_limit)?;
    Ok(HackenbushAnswer::Sum(HackenbushReport::new(
        &names, &parsed, &sum,
    )))
}

/// Heaps of Fibonacci Nim tabulated in full (every winning take listed);
/// larger ones use Whinihan's theorem.
const FIBONACCI_TABLE: u64 = 1 << 20;

/// The memory a Fibonacci Nim table may take.
const FIBONACCI_MEMORY: u64 = 1 << 30;

/// Fibonacci Nim (or its generalization where a take may be `ratio` times
/// the last, written `2`, `3/2`, `1.5`) from `heap` with the first take at
/// most `limit` (all but one token when not given): who wins and how; a
/// table within `work_limit` takes tried (default
/// [`DEFAULT_WORK`](crate::solve::DEFAULT_WORK)).
pub fn fibonacci_nim(
    heap: u64,
    limit: Option<u64>,
    ratio: &str,
    work_limit: Option<u64>,
) -> Result<FibonacciNimReport> {
    let work_limit = work_limit.unwrap_or(crate::solve::DEFAULT_WORK);
    let ratio: Ratio = ratio.parse()?;
    let limit = limit.unwrap_or(FibonacciNim::opening_limit(heap));
    let game = FibonacciNim { ratio };
    let found = game.outcome(heap, limit, FIBONACCI_TABLE, FIBONACCI_MEMORY, work_limit)?;
    Ok(FibonacciNimReport::new(heap, limit, ratio, &found))
}

/// The answer of [`graph`].
pub enum GraphAnswer {
    /// Every position's value.
    Values(GraphReport),
    /// Tokens played together.
    Sum(GraphSumReport),
    /// Every position's generalized value, when the graph has cycles.
    LoopyValues(LoopyGraphReport),
    /// Tokens played together on a graph with cycles (Smith's theorem).
    LoopySum(LoopySumReport),
}

/// The game graph `text` (an edge list or JSON): every position's value,
/// or with `tokens` (position names) those tokens played together;
/// generalized values when the graph has cycles.
pub fn graph(text: &str, tokens: &[String]) -> Result<GraphAnswer> {
    let graph = GameGraph::parse(text)?;
    let tokens = tokens
        .iter()
        .map(|name| {
            graph.position(name).ok_or_else(|| Error::InvalidPosition {
                text: name.clone(),
                reason: "the graph has no such position".into(),
            })
        })
        .collect::<Result<Vec<usize>>>()?;
    Ok(match solve_graph(&graph)? {
        GraphSolution::Loopy(values, plain) if tokens.is_empty() => {
            GraphAnswer::LoopyValues(LoopyGraphReport::new(&graph, &values, &plain))
        }
        GraphSolution::Loopy(values, _) => {
            let play = play_loopy_graph(&graph, &values, &tokens);
            GraphAnswer::LoopySum(LoopySumReport::new(&play))
        }
        GraphSolution::Acyclic(values) if tokens.is_empty() => {
            GraphAnswer::Values(GraphReport::new(&graph, &values))
        }
        GraphSolution::Acyclic(values) => {
            GraphAnswer::Sum(GraphSumReport::new(&graph, &values, &tokens))
        }
    })
}

/// The maze `text`: every square's value and its figures played together,
/// within `memory_limit` bytes.
pub fn maze(text: &str, memory_limit: u64) -> Result<MazeReport> {
    let maze = Maze::parse(text)?;
    let values = maze.values(memory_limit)?;
    Ok(MazeReport::new(&maze, values))
}
