//! Python bindings of the grundy engine: the extension module
//! `grundy._grundy`, which the `grundy` package (`python/grundy`) re-exports
//! with type stubs.
//!
//! The layout follows the engine's: [`rules`] adapts games (built-in or a
//! Python callable) to the engine's ruleset traits, [`game`] and
//! [`positions`] are the Python classes that solve them, [`results`] the
//! answers they return, and [`errors`] turns engine errors into Python
//! exceptions and keeps long runs interruptible.

mod census;
mod errors;
mod game;
mod notebook;
mod positions;
mod results;
mod sweep;
mod user_rules;
mod values;

use grundy::session::{
    self, ByFormula, Certificate, CoinsAnswer, CoinsQuestion, CountAnswer, CountEnd, CountQuery,
    Counted, HackenbushAnswer, Histogram, MovesGame, MovesQuery, Partitions, Picture, ScriptLimits,
    SumAnswer, SumItem, SumQuery, TupleBudget,
};
use grundy::spec::GameSpec;
use grundy::{Component, nim_field};
use pyo3::exceptions::PyZeroDivisionError;
use pyo3::prelude::*;

use errors::{
    GrundyError, Heap, Heaps, Max, MaxOptions, Modulo, NimSum, Progress, Start, To, Whole,
    detached, optional, reporting, to_py, watched,
};
use game::{FormulaArg, Game};
use positions::{GeneralRules, Infinite, Sum};
use results::{
    Analysis, Genus, MisereAnalysis, Move, NimSumCounts, Quotient, SumAnalysis, count_document,
    document,
};

/// Heaps of (possibly different) games played together: each component is
/// a `(Game, heap)` pair. Returns the values, the nim-sum, who wins and
/// every winning move.
#[pyfunction]
fn analyze_sum(py: Python<'_>, components: Vec<(Py<Game>, Whole<Heap>)>) -> PyResult<SumAnalysis> {
    // Each distinct game once, so its table is computed once.
    let mut games: Vec<&Game> = Vec::new();
    let mut written = Vec::with_capacity(components.len());
    for (game, heap) in &components {
        let game = game.get();
        let index = match games.iter().position(|g| std::ptr::eq(*g, game)) {
            Some(index) => index,
            None => {
                games.push(game);
                games.len() - 1
            }
        };
        written.push(Component {
            game: index,
            heap: heap.index()?,
        });
    }
    let rules: Vec<_> = games.iter().map(|g| &g.rules.game).collect();
    let mut found = detached(py, |_| {
        grundy::analyze_sum(
            &rules,
            &written,
            &grundy::TableSolver::new(),
            grundy::LISTED_OPTIONS_LIMIT,
        )
    });
    for game in &games {
        found = game.rules.checked(found);
    }
    SumAnalysis::of_heaps(py, found?)
}

/// `"first"` or `"second"`: who wins the sum of `(Game, heap)` components
/// with perfect play.
#[pyfunction]
fn sum_winner(py: Python<'_>, components: Vec<(Py<Game>, Whole<Heap>)>) -> PyResult<&'static str> {
    let sum = analyze_sum(py, components)?;
    Ok(if sum.nim_sum() != 0 {
        "first"
    } else {
        "second"
    })
}

/// One component of [`sum_report`]: written in the component syntax, or a
/// `(Game, heap)` pair.
#[derive(FromPyObject)]
enum SumComponent {
    Written(String),
    Heap(Py<Game>, usize),
}

/// Components of any kinds played together: the document `grundy sum
/// --format json` prints (heaps alone: `components`, `nim_sum`, `winner`,
/// `winning_moves`, `winning_move_count`, `complete`; any other mix also
/// `outcome`, `drawing_moves` and `move_count`). A component is a string
/// in the component syntax (`"kayles:7"`, `"wythoff:3,5"`,
/// `"graph:tasks.txt:start"`, `"ruler:3,4,6"`, `"(()())"`) or a `(Game,
/// heap)` pair; `game` is the game of strings written as a bare position;
/// `work_limit` bounds coin tables and Hackenbush cuts.
#[pyfunction]
#[pyo3(
    signature = (components, *, game = None, work_limit = session::DEFAULT_WORK),
    text_signature = "(components, *, game=None, work_limit=1000000000)"
)]
fn sum_report<'py>(
    py: Python<'py>,
    components: Vec<SumComponent>,
    game: Option<String>,
    work_limit: u64,
) -> PyResult<Bound<'py, PyAny>> {
    // Games are told apart by name in the answer: two Game objects with
    // the same name are numbered.
    let mut named: Vec<(*const Game, String)> = Vec::new();
    let mut items = Vec::with_capacity(components.len());
    for component in &components {
        items.push(match component {
            SumComponent::Written(text) => SumItem::Written(text.clone()),
            SumComponent::Heap(held, heap) => {
                let held = held.get();
                let pointer: *const Game = held;
                let name = match named.iter().find(|(p, _)| *p == pointer) {
                    Some((_, name)) => name.clone(),
                    None => {
                        let base = held.written();
                        let name = if named.iter().any(|(_, n)| n == base) {
                            format!("{base}#{}", named.len() + 1)
                        } else {
                            base.to_owned()
                        };
                        named.push((pointer, name.clone()));
                        name
                    }
                };
                SumItem::Heap {
                    name,
                    game: held.rules.game.clone(),
                    heap: *heap,
                }
            }
        });
    }
    let solver = grundy::TableSolver::new();
    let mut found = detached(py, |watch| {
        let query = SumQuery {
            game: game.as_deref(),
            items,
            script: Default::default(),
            solver: &solver,
            max_options: grundy::LISTED_OPTIONS_LIMIT,
            work_limit,
            files: true,
        };
        session::sum(&query, &mut |n, _| watch(n))
    });
    for component in &components {
        if let SumComponent::Heap(held, _) = component {
            found = held.get().rules.checked(found);
        }
    }
    match found? {
        SumAnswer::Heaps(report) => document(py, &report),
        SumAnswer::Pairs(report) => document(py, &report),
        SumAnswer::Parts(report) => document(py, &report),
    }
}

/// The game [`count_report`] counts: a specification or a `Game`.
#[derive(FromPyObject)]
enum CountedGame {
    Spec(String),
    Held(Py<Game>),
}

/// The last heap [`count_report`] counts: a number, or text as the command
/// line writes it (`"1e18"`, a grid's `"X,Y"`).
enum CountTo {
    Heap(Whole<To>),
    Text(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for CountTo {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<CountTo> {
        match obj.extract::<String>() {
            Ok(text) => Ok(CountTo::Text(text)),
            Err(_) => obj.extract().map(CountTo::Heap),
        }
    }
}

/// The part sizes [`count_report`] takes: text as `--parts` writes them
/// (`"1,3,5..9"`, `"squares"`), or a list of sizes.
#[derive(FromPyObject)]
enum PartsArg {
    Text(String),
    Sizes(Vec<Whole<errors::Parts>>),
}

impl PartsArg {
    /// The sizes as `--parts` writes them.
    fn text(&self) -> PyResult<String> {
        match self {
            PartsArg::Text(text) => Ok(text.clone()),
            PartsArg::Sizes(sizes) => Ok(sizes
                .iter()
                .map(|s| s.get().map(|s| s.to_string()))
                .collect::<PyResult<Vec<_>>>()?
                .join(",")),
        }
    }
}

/// Heaps, positions or coins counted by value or nim-sum: the document
/// `grundy count GAME --to N --format json` prints, with the same options
/// (`start` is `--from`, heap 1 unless given; `heaps`, `order`
/// (`"ordered"`, `"ordered-distinct"`, `"unordered"`, `"distinct"`),
/// `modulo` (`--mod`), `nim_sum`, `all`, `by_formula`: `True` for the
/// formula `guess` finds or a formula's text, `work_limit` is
/// `--work-limit`); or with `partitions=N` (no `to`), the partitions of
/// `N` into heaps of the game by nim-sum (`--partitions N`): `parts` the
/// sizes a part may have (a list, or text such as `"1,3,5..9"` or
/// `"squares"`), `distinct=True` for distinct parts, `heaps` for exactly
/// that many. The web's `/api/count` answers the same.
#[pyfunction]
#[pyo3(
    signature = (
        game, to = None, *, start = None, heaps = None, order = "ordered", modulo = None,
        nim_sum = None, all = false, by_formula = FormulaArg::Flag(false), max = None,
        partitions = None, parts = None, distinct = false,
        work_limit = session::DEFAULT_WORK, progress = None
    ),
    text_signature = "(game, to=None, *, start=1, heaps=None, order='ordered', modulo=None, \
                      nim_sum=None, all=False, by_formula=False, max=None, partitions=None, \
                      parts=None, distinct=False, work_limit=1000000000, progress=None)"
)]
#[allow(clippy::too_many_arguments)]
fn count_report<'py>(
    py: Python<'py>,
    game: CountedGame,
    to: Option<CountTo>,
    start: Option<Whole<Start>>,
    heaps: Option<Whole<Heaps>>,
    order: &str,
    modulo: Option<Whole<Modulo>>,
    nim_sum: Option<Whole<NimSum>>,
    all: bool,
    by_formula: FormulaArg,
    max: Option<Whole<Max>>,
    partitions: Option<Whole<errors::Partitions>>,
    parts: Option<PartsArg>,
    distinct: bool,
    work_limit: u64,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let start = errors::optional(start)?.unwrap_or(1);
    let parts = parts.as_ref().map(PartsArg::text).transpose()?;
    let partitions =
        Partitions::from_options(errors::optional(partitions)?, parts.as_deref(), distinct)
            .map_err(to_py)?;
    let (heaps, modulo, nim_sum, max) = (
        errors::optional(heaps)?,
        errors::optional(modulo)?,
        errors::optional(nim_sum)?,
        errors::optional(max)?,
    );
    let to = match to {
        Some(CountTo::Heap(n)) => Some(CountEnd::Last(n.get()?)),
        Some(CountTo::Text(text)) => Some(CountEnd::parse(&text).map_err(to_py)?),
        None => None,
    };
    // The total is the last heap or coin (a grid's cells), or the number
    // partitioned; the library tells how far its tables are where it
    // computes them.
    let total = match (to, &partitions) {
        (_, Some(partitions)) => partitions.of.saturating_add(1),
        (Some(CountEnd::Last(n)), None) => n.saturating_add(1),
        (Some(CountEnd::Grid(x, y)), None) => x.saturating_mul(y),
        (None, None) => 0,
    };
    let query = CountQuery {
        from: start,
        to,
        heaps,
        order: game::tuples(order)?,
        modulus: modulo,
        nim_sum,
        all,
        by_formula: match by_formula {
            FormulaArg::Flag(false) => ByFormula::No,
            FormulaArg::Flag(true) => ByFormula::Guessed,
            FormulaArg::Text(text) => ByFormula::Given(text.parse().map_err(to_py)?),
        },
        max,
        budget: TupleBudget {
            work: work_limit,
            ..TupleBudget::default()
        },
        partitions,
    };
    let (name, counted, held) = match &game {
        CountedGame::Spec(spec) => {
            let parsed = GameSpec::parse(spec).map_err(to_py)?;
            let counted = Counted::from_spec(&parsed, &Default::default()).map_err(to_py)?;
            (spec.trim().to_owned(), counted, None)
        }
        CountedGame::Held(held) => {
            let held = held.get();
            let counted = Counted::Heaps(held.rules.game.clone());
            (held.written().to_owned(), counted, Some(held))
        }
    };
    let solver = grundy::TableSolver::new();
    let told = Progress::new(py, progress.as_ref(), total, "count")?;
    let found = reporting(py, &told, |progress| {
        session::count(&name, &counted, &query, &solver, progress)
    });
    let answer = match held {
        Some(held) => held.rules.checked(found)?,
        None => found?,
    };
    match answer {
        CountAnswer::Heaps(report) => count_document(py, &report),
        CountAnswer::Positions(report) => count_document(py, &report),
        CountAnswer::Coins(report) => count_document(py, &report),
        CountAnswer::Partitions(report) => count_document(py, &report),
    }
}

/// One range of heaps [`count_positions`] takes: a game's heaps
/// `start..=to`, or a histogram (`{value: count}`, e.g. one Rogalski
/// published, or the counts by value `Game.histogram` returns).
#[derive(FromPyObject)]
enum HeapRange {
    Game(Py<Game>, Whole<Start>, Whole<To>),
    Histogram(std::collections::BTreeMap<usize, u128>),
    Counts(Vec<u128>),
}

/// Positions made of one heap from each range (`(game, start, to)` for
/// sizes `start..=to`, or a histogram `{value: count}`), counted by
/// nim-sum; with `heaps=K`, positions of `K` heaps of the one range given,
/// in `order` (`"ordered"`, `"ordered-distinct"`, `"unordered"`,
/// `"distinct"`); `modulo` gives residues instead of exact counts.
#[pyfunction]
#[pyo3(signature = (ranges, *, heaps = None, order = "ordered", modulo = None))]
fn count_positions(
    py: Python<'_>,
    ranges: Vec<HeapRange>,
    heaps: Option<Whole<Heaps>>,
    order: &str,
    modulo: Option<Whole<Modulo>>,
) -> PyResult<NimSumCounts> {
    let (heaps, modulo) = (errors::optional(heaps)?, errors::optional(modulo)?);
    let query = CountQuery {
        heaps,
        order: game::tuples(order)?,
        modulus: modulo,
        ..CountQuery::default()
    };
    let histograms = ranges
        .iter()
        .map(|range| match range {
            HeapRange::Game(game, start, to) => game.get().histogram_of(
                py,
                start.get()?,
                to.get()?,
                None,
                &ByFormula::No,
                &Progress::none(),
            ),
            HeapRange::Histogram(counts) => {
                Histogram::of_pairs(counts.iter().map(|(&v, &c)| (v, c))).map_err(to_py)
            }
            HeapRange::Counts(counts) => Histogram::given(counts.clone()).map_err(to_py),
        })
        .collect::<PyResult<Vec<_>>>()?;
    let counts = py
        .detach(|| session::count_histograms(&histograms, &query))
        .map_err(to_py)?;
    Ok(NimSumCounts::new(counts, modulo))
}

/// Checks a periodicity certificate (the JSON text `Analysis.certificate()`
/// or `grundy analyze --certificate` writes) by recomputing its values with
/// the plain solver and its theorem's window; raises `GrundyError` naming
/// what fails.
#[pyfunction]
fn check_certificate(py: Python<'_>, text: &str) -> PyResult<()> {
    let certificate: Certificate = serde_json::from_str(text)
        .map_err(|e| GrundyError::new_err(format!("not a certificate: {e}")))?;
    py.detach(|| certificate.check()).map_err(to_py)
}

/// The built-in games and families, as `(name, code, description,
/// example)` tuples (`code` is `None` where there is none).
#[pyfunction]
fn games() -> Vec<(
    &'static str,
    Option<&'static str>,
    &'static str,
    &'static str,
)> {
    grundy::spec::CATALOGUE
        .iter()
        .map(|e| (e.name, e.code, e.description, e.example))
        .collect()
}

/// Values of coins `1..=to` of a coin-turning rule (`turtles`,
/// `mock-turtles`, `twins`, `ruler`, `grunt`, `turn(K)`, `turn(=K)`,
/// `ruler(K)`), within `work_limit` machine-word operations (`--work-limit`).
#[pyfunction]
#[pyo3(
    signature = (rule, to, *, work_limit = session::DEFAULT_WORK),
    text_signature = "(rule, to, *, work_limit=1000000000)"
)]
fn coin_values(py: Python<'_>, rule: &str, to: u64, work_limit: u64) -> PyResult<Vec<u32>> {
    let answer = detached(py, |progress| {
        session::coins(
            rule,
            CoinsQuestion::Values(to),
            grundy::TableSolver::new().memory_limit(),
            work_limit,
            progress,
        )
    })?;
    match answer {
        CoinsAnswer::Values(report) => Ok(report.values.iter().map(|v| v.get()).collect()),
        _ => Err(GrundyError::new_err(
            "a product A*B has a table of values: ask coin values of one rule",
        )),
    }
}

/// A row of coins with heads on `heads` (numbered from 1): the document
/// `grundy coins RULE HEADS --format json` prints (`heads`, `nim_sum`,
/// `winner`, every winning move as `{"turn": [coins]}`, `complete`), with
/// `values`, the `(coin, value)` pairs, as well; `work_limit` as for
/// [`coin_values`].
#[pyfunction]
#[pyo3(
    signature = (rule, heads, *, work_limit = session::DEFAULT_WORK),
    text_signature = "(rule, heads, *, work_limit=1000000000)"
)]
fn coins<'py>(
    py: Python<'py>,
    rule: &str,
    heads: Vec<usize>,
    work_limit: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let answer = detached(py, |progress| {
        session::coins(
            rule,
            CoinsQuestion::Row(heads),
            grundy::TableSolver::new().memory_limit(),
            work_limit,
            progress,
        )
    })?;
    let CoinsAnswer::Row(report) = answer else {
        unreachable!("a row's question is answered by a row")
    };
    let pairs: Vec<(usize, u32)> = report
        .heads
        .iter()
        .map(|h| (h.coin, h.value.get()))
        .collect();
    let found = document(py, &report)?;
    found.set_item("values", pairs)?;
    Ok(found)
}

/// The winning moves of every heap of `start..=to` of `game` (any game
/// written as the CLI takes it: a heap game, `wythoff` or `rook(A,B)`, a
/// coin rule or a product `A*B`, a script `FILE.rhai`): the document
/// `grundy moves GAME --to N --format json` prints, counts as `int`s. A
/// game on pairs gives every position `(a, b)` with `a, b <= to`; coins a
/// lone head on every coin (of a grid: `(x, y)`, `x, y <= to`); a script's
/// `positions` (heaps, tuples of ints or `"[3,4]"`) in place of `to`
/// every position reachable from them. `rows=False` counts by value only;
/// `max_options` bounds the options listed for one heap, `work_limit` a
/// coin rule's tables.
#[pyfunction]
#[pyo3(
    signature = (
        game, to = None, *, start = None, positions = None, rows = true, max_options = None,
        work_limit = session::DEFAULT_WORK
    ),
    text_signature = "(game, to=None, *, start=0, positions=None, rows=True, \
                      max_options=10000000, work_limit=1000000000)"
)]
#[allow(clippy::too_many_arguments)]
fn moves_report<'py>(
    py: Python<'py>,
    game: &str,
    to: Option<Whole<To>>,
    start: Option<Whole<Start>>,
    positions: Option<Vec<Bound<'py, PyAny>>>,
    rows: bool,
    max_options: Option<Whole<MaxOptions>>,
    work_limit: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let positions = game::written_positions(positions)?;
    let (start, to) = (optional(start)?.unwrap_or(0), optional(to)?);
    let max_options = optional(max_options)?.unwrap_or(grundy::LISTED_OPTIONS_LIMIT);
    let spec = GameSpec::parse(game).map_err(to_py)?;
    let rules = MovesGame::from_spec(&spec, &ScriptLimits::default()).map_err(to_py)?;
    let solver = grundy::TableSolver::new();
    let answer = detached(py, |progress| {
        let query = MovesQuery {
            from: start,
            to,
            positions: &positions,
            rows,
            max_rows: None,
            solver: &solver,
            max_options,
            work_limit,
        };
        session::moves(game, &rules, &query, &mut |n, _| progress(n))
    })?;
    count_document(py, &answer)
}

/// The positions (sets of heads) of a row of coins `1..=columns` of a
/// coin-turning rule, or of the grid `columns x rows` of a product `A*B`,
/// counted by nim-sum: the document `grundy count RULE --to X,Y --format
/// json` prints (`total`, `p_positions`, `n_positions`, `rank`,
/// `span_basis`, `per_nim_sum`, and `nim_sum` for the one asked), counts
/// as `int`s, modulo `modulo` when given; a coin table within
/// `work_limit` machine-word operations.
#[pyfunction]
#[pyo3(
    signature = (
        rule, columns, rows = 1, *, nim_sum = None, modulo = None,
        work_limit = session::DEFAULT_WORK
    ),
    text_signature = "(rule, columns, rows=1, *, nim_sum=None, modulo=None, work_limit=1000000000)"
)]
fn count_coins<'py>(
    py: Python<'py>,
    rule: &str,
    columns: u64,
    rows: u64,
    nim_sum: Option<u64>,
    modulo: Option<u64>,
    work_limit: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let game = Counted::from_spec(&GameSpec::coins(rule).map_err(to_py)?, &Default::default())
        .map_err(to_py)?;
    // A single rule's row ends at one coin; a product's grid at a column
    // and a row.
    let to = if rule.contains('*') {
        CountEnd::Grid(columns, rows)
    } else if rows == 1 {
        CountEnd::Last(columns)
    } else {
        CountEnd::Grid(columns, rows)
    };
    let query = CountQuery {
        to: Some(to),
        modulus: modulo,
        nim_sum,
        budget: TupleBudget {
            work: work_limit,
            ..TupleBudget::default()
        },
        ..CountQuery::default()
    };
    let solver = grundy::TableSolver::new();
    let answer = detached(py, |progress| {
        session::count(rule.trim(), &game, &query, &solver, progress)
    })?;
    match answer {
        CountAnswer::Coins(report) => count_document(py, &report),
        _ => unreachable!("coins are counted as coins"),
    }
}

/// Green Hackenbush pictures played together: each a rooted tree in
/// bracket notation (`"(()())"`) or an edge list (`"g a\na b\nb g"`, the
/// ground named `g`). Returns the document `grundy hackenbush --format
/// json` prints (`pictures`, `nim_sum`, `winner`, `winning_cuts`: `[{"picture",
/// "edge", "between"}]`, pictures from 0 and edges from 1), with `values`,
/// each picture's value, as well. The cuts of a picture with cycles take
/// at most `work_limit` machine-word operations; Ctrl-C stops them.
#[pyfunction]
#[pyo3(
    signature = (pictures, *, work_limit = session::DEFAULT_WORK),
    text_signature = "(pictures, *, work_limit=1000000000)"
)]
fn hackenbush<'py>(
    py: Python<'py>,
    pictures: Vec<String>,
    work_limit: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let written: Vec<Picture> = pictures
        .iter()
        .map(|text| Picture {
            name: text.clone(),
            text: text.clone(),
        })
        .collect();
    let answer = watched(py, || {
        session::hackenbush(&written, false, Some(work_limit))
    })?;
    let HackenbushAnswer::Sum(report) = answer else {
        unreachable!("a sum is asked")
    };
    let values: Vec<u32> = report.pictures.iter().map(|p| p.value.get()).collect();
    let found = document(py, &report)?;
    found.set_item("values", values)?;
    Ok(found)
}

/// A Fibonacci Nim ratio as Python gives it: an int, or a string.
#[derive(FromPyObject)]
enum RatioArg {
    Whole(u64),
    Written(String),
}

/// Fibonacci Nim (each take at most `ratio` times the last, rounded down:
/// an int, or a fraction as a string such as `"3/2"` or `"1.5"`; 2 when
/// not given; `limit` the
/// largest take now, by default the opening `heap - 1`): the document
/// `grundy fibonacci-nim --format json` prints (`heap`, `limit`, `ratio`,
/// `winner`, `winning_takes`, `zeckendorf`); a table within `work_limit`
/// takes tried, stopped by Ctrl-C.
#[pyfunction]
#[pyo3(
    signature = (heap, *, limit = None, ratio = None, work_limit = session::DEFAULT_WORK),
    text_signature = "(heap, *, limit=None, ratio=None, work_limit=1000000000)"
)]
fn fibonacci_nim<'py>(
    py: Python<'py>,
    heap: u64,
    limit: Option<u64>,
    ratio: Option<RatioArg>,
    work_limit: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let ratio = match ratio.unwrap_or(RatioArg::Whole(2)) {
        RatioArg::Whole(n) => n.to_string(),
        RatioArg::Written(text) => text,
    };
    let report = watched(py, || {
        session::fibonacci_nim(heap, limit, &ratio, Some(work_limit))
    })?;
    document(py, &report)
}

/// Nim-addition: `a ^ b`.
#[pyfunction]
fn nim_add(a: u64, b: u64) -> u64 {
    a ^ b
}

/// Nim-multiplication of 64-bit values (the field GF(2^64) of Conway's
/// nimbers).
#[pyfunction]
fn nim_mul(a: u64, b: u64) -> u64 {
    nim_field::mul(a, b)
}

/// `a` nim-multiplied by itself `e` times.
#[pyfunction]
fn nim_pow(a: u64, e: u64) -> u64 {
    nim_field::pow(a, e)
}

/// The nim-multiplicative inverse of `a`; `ZeroDivisionError` for 0.
#[pyfunction]
fn nim_inv(a: u64) -> PyResult<u64> {
    nim_field::inverse(a).ok_or_else(|| PyZeroDivisionError::new_err("0 has no nim-inverse"))
}

/// The nim-square root of `a` (every nimber has exactly one).
#[pyfunction]
fn nim_sqrt(a: u64) -> u64 {
    nim_field::sqrt(a)
}

/// The extension module; `import grundy` re-exports all of it.
#[pymodule]
fn _grundy(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GrundyError", m.py().get_type::<GrundyError>())?;
    m.add("GrundyMemoryError", errors::make_memory_error(m.py())?)?;
    m.add_class::<Game>()?;
    m.add_class::<Analysis>()?;
    m.add_class::<SumAnalysis>()?;
    m.add_class::<Move>()?;
    m.add_class::<NimSumCounts>()?;
    m.add_class::<GeneralRules>()?;
    m.add_class::<Sum>()?;
    m.add_class::<Infinite>()?;
    m.add_class::<MisereAnalysis>()?;
    m.add_class::<Genus>()?;
    m.add_class::<Quotient>()?;
    m.add_class::<sweep::Outcomes>()?;
    m.add_function(wrap_pyfunction!(sweep::outcomes, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_sum, m)?)?;
    m.add_class::<census::CensusRun>()?;
    m.add_function(wrap_pyfunction!(census::census_games, m)?)?;
    m.add_function(wrap_pyfunction!(census::census_row, m)?)?;
    m.add_function(wrap_pyfunction!(census::census_classify, m)?)?;
    m.add_function(wrap_pyfunction!(sum_winner, m)?)?;
    m.add_function(wrap_pyfunction!(sum_report, m)?)?;
    m.add_function(wrap_pyfunction!(count_report, m)?)?;
    m.add_function(wrap_pyfunction!(moves_report, m)?)?;
    m.add_function(wrap_pyfunction!(count_positions, m)?)?;
    m.add_function(wrap_pyfunction!(check_certificate, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(coin_values, m)?)?;
    m.add_function(wrap_pyfunction!(coins, m)?)?;
    m.add_function(wrap_pyfunction!(count_coins, m)?)?;
    m.add_function(wrap_pyfunction!(hackenbush, m)?)?;
    m.add_function(wrap_pyfunction!(fibonacci_nim, m)?)?;
    m.add_function(wrap_pyfunction!(nim_add, m)?)?;
    m.add_function(wrap_pyfunction!(nim_mul, m)?)?;
    m.add_function(wrap_pyfunction!(nim_pow, m)?)?;
    m.add_function(wrap_pyfunction!(nim_inv, m)?)?;
    m.add_function(wrap_pyfunction!(nim_sqrt, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
