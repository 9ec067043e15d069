//! A census from Python: the three steps of `grundy census` as functions,
//! so that `grundy.census` (python/grundy/__init__.py) can hand the games
//! to any `concurrent.futures.Executor` — a process pool, or a Dask
//! cluster — and classify the rows where they are gathered.

use grundy::TableSolver;
use grundy::analysis::{
    CensusLimits, census_game, classify, expand_family, expected_cost, in_census_order,
};
use grundy::report::CensusRow;
use pyo3::prelude::*;

use crate::errors::{GrundyError, to_py};
use crate::results::document;

/// The canonical codes of the games of `families` (patterns such as
/// `0.??`, `4.???`, `0.[0-f]7`, or single games), each once, costliest
/// first (the order to start them in).
#[pyfunction]
pub fn census_games(families: Vec<String>) -> PyResult<Vec<String>> {
    let mut games = Vec::new();
    for family in &families {
        games.extend(expand_family(family).map_err(to_py)?);
    }
    let mut games = in_census_order(games);
    games.sort_by_key(|g| std::cmp::Reverse(expected_cost(g)));
    Ok(games.iter().map(ToString::to_string).collect())
}

/// One game's census row (the object `grundy census --format json` prints
/// for it, before classification): analysed adaptively up to `max`, within
/// `time_per_game` seconds and `memory_limit` bytes.
#[pyfunction]
#[pyo3(signature = (game, *, max = 1 << 17, time_per_game = None, memory_limit = 1 << 30))]
pub fn census_row<'py>(
    py: Python<'py>,
    game: &str,
    max: u64,
    time_per_game: Option<f64>,
    memory_limit: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let game: grundy::HeapGame = game.parse().map_err(to_py)?;
    let time_per_game = time_per_game
        .map(|s| {
            std::time::Duration::try_from_secs_f64(s).map_err(|_| {
                GrundyError::new_err(format!(
                    "invalid time_per_game {s}: expected a non-negative number of seconds"
                ))
            })
        })
        .transpose()?;
    let limits = CensusLimits { max, time_per_game };
    let solver = TableSolver::new().with_memory_limit(memory_limit);
    let row = py
        .detach(|| census_game(&game, &limits, &solver))
        .map_err(to_py)?;
    document(py, &row)
}

/// Census rows (as `census_row` returns them, from any machine) with their
/// equivalence classes filled in, in census order.
#[pyfunction]
pub fn census_classify<'py>(
    py: Python<'py>,
    rows: Vec<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let dumps = py.import("json")?.getattr("dumps")?;
    let mut parsed: Vec<CensusRow> = Vec::with_capacity(rows.len());
    for row in rows {
        let text: String = dumps.call1((row,))?.extract()?;
        parsed.push(
            serde_json::from_str(&text)
                .map_err(|e| GrundyError::new_err(format!("not a census row: {e}")))?,
        );
    }
    classify(&mut parsed);
    document(py, &parsed)
}
