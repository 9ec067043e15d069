//! A census from Python: the steps of `grundy census` as a run object and
//! functions, so that `grundy.census` (python/grundy/__init__.py) can hand
//! the games to any `concurrent.futures.Executor` — a process pool, or a
//! Dask cluster — and record (resumably) and classify the rows where they
//! are gathered, with the library's code for shards and output files.

use std::path::PathBuf;

use grundy::report::CensusRow;
use grundy::session::{self, CensusLimits};
use pyo3::prelude::*;

use crate::errors::{GrundyError, to_py};
use crate::results::document;

/// The games of `families` (patterns such as `0.??`, `4.???`,
/// `0.[0-f]7`, single games, or files listing games), each once.
fn expand(families: &[String]) -> PyResult<Vec<grundy::HeapGame>> {
    session::census_games(families).map_err(to_py)
}

/// The canonical codes of the games of `families`, each once, costliest
/// first (the order to start them in).
#[pyfunction]
pub fn census_games(families: Vec<String>) -> PyResult<Vec<String>> {
    let run = session::CensusRun::new(expand(&families)?, None, None).map_err(to_py)?;
    Ok(run.todo().iter().map(ToString::to_string).collect())
}

/// A census under way (the library's `CensusRun`, as `grundy census` runs
/// it): the games of `families`, only the `k`-th of `n` shares for
/// `shard=(k, n)`, resumed from the rows in `output` (JSON lines, or CSV
/// for `*.csv`) and appending every row recorded to it.
#[pyclass(module = "grundy", name = "CensusRun")]
pub struct CensusRun(Option<session::CensusRun>);

impl CensusRun {
    fn run(&mut self) -> PyResult<&mut session::CensusRun> {
        self.0
            .as_mut()
            .ok_or_else(|| GrundyError::new_err("this census run is finished"))
    }
}

#[pymethods]
impl CensusRun {
    /// As HTML (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        crate::notebook::html(slf.as_any())
    }

    fn __repr__(&self) -> String {
        match &self.0 {
            Some(run) => format!("CensusRun(todo={}, done={})", run.todo().len(), run.done()),
            None => "CensusRun(finished)".to_owned(),
        }
    }

    #[new]
    #[pyo3(signature = (families, *, shard = None, output = None))]
    fn new(
        families: Vec<String>,
        shard: Option<(usize, usize)>,
        output: Option<PathBuf>,
    ) -> PyResult<CensusRun> {
        let run =
            session::CensusRun::new(expand(&families)?, shard, output.as_deref()).map_err(to_py)?;
        Ok(CensusRun(Some(run)))
    }

    /// The canonical codes of the games still to run, costliest first.
    #[getter]
    fn todo(&mut self) -> PyResult<Vec<String>> {
        Ok(self.run()?.todo().iter().map(ToString::to_string).collect())
    }

    /// How many rows the run has (read back from `output` or recorded).
    #[getter]
    fn done(&mut self) -> PyResult<usize> {
        Ok(self.run()?.done())
    }

    /// Keeps a finished game's row (as `census_row` returns it), appending
    /// it to `output`.
    fn record<'py>(&mut self, py: Python<'py>, row: Bound<'py, PyAny>) -> PyResult<()> {
        let row = parse_row(py, &row)?;
        self.run()?.record(row).map_err(to_py)
    }

    /// Every row, classified and in census order (`output` rewritten with
    /// them); the run is over.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let run = self
            .0
            .take()
            .ok_or_else(|| GrundyError::new_err("this census run is finished"))?;
        document(py, &run.finish().map_err(to_py)?)
    }
}

/// A census row from its Python form (a dict, as `census_row` returns it).
fn parse_row<'py>(py: Python<'py>, row: &Bound<'py, PyAny>) -> PyResult<CensusRow> {
    let text: String = py
        .import("json")?
        .getattr("dumps")?
        .call1((row,))?
        .extract()?;
    serde_json::from_str(&text).map_err(|e| GrundyError::new_err(format!("not a census row: {e}")))
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
    let row = py
        .detach(|| session::census_row(game, &limits, memory_limit))
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
    let parsed = rows
        .iter()
        .map(|row| parse_row(py, row))
        .collect::<PyResult<Vec<CensusRow>>>()?;
    document(py, &session::census_classify(parsed))
}
