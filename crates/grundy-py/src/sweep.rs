//! Who wins, for games that are not sums, from Python: the engine's forward
//! sweep over numbered states ([`session::state_outcomes`]) with the
//! moves listed by a Python callable.

use grundy::session;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// The outcome of every state `0..states`, one bit each, and the callable
/// that lists the moves (for the winning moves of a state). Made by
/// `grundy.outcomes(options, states)`.
#[pyclass(frozen, module = "grundy")]
pub struct Outcomes {
    found: session::Outcomes,
    options: Py<PyAny>,
}

/// The states one move from `state`, as `options(state)` lists them.
fn listed(py: Python<'_>, options: &Py<PyAny>, state: u64) -> PyResult<Vec<u64>> {
    let mut out = Vec::new();
    for item in options.bind(py).call1((state,))?.try_iter()? {
        let item = item?;
        out.push(item.extract::<u64>().map_err(|_| {
            PyTypeError::new_err(format!(
                "options({state}) listed {}: a state is an int >= 0",
                item.repr()
                    .map_or_else(|_| "?".to_owned(), |r| r.to_string())
            ))
        })?);
    }
    Ok(out)
}

/// Classifies the states `0..states` of a game whose moves always lower the
/// state number: `options(s)` lists the states one move from `s` (each
/// smaller than `s`). One pass in increasing order, one bit per state
/// (2^32 states take 512 MiB; `memory_limit` bounds it). Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (options, states, *, memory_limit = 1 << 30))]
pub fn outcomes(
    py: Python<'_>,
    options: Py<PyAny>,
    states: u64,
    memory_limit: u64,
) -> PyResult<Outcomes> {
    // The first Python error (from `options`, or Ctrl-C), raised once the
    // sweep has stopped.
    let raised: std::cell::RefCell<Option<PyErr>> = std::cell::RefCell::new(None);
    let found = session::state_outcomes(
        states,
        memory_limit,
        &mut |s, out| match listed(py, &options, s) {
            Ok(listed) => {
                out.extend(listed);
                Ok(())
            }
            Err(error) => {
                raised.borrow_mut().get_or_insert(error);
                // Stops the sweep; the Python error is raised below.
                Err(grundy::Error::Interrupted { heaps: s })
            }
        },
        &mut |_| match py.check_signals() {
            Ok(()) => true,
            Err(error) => {
                raised.borrow_mut().get_or_insert(error);
                false
            }
        },
    );
    if let Some(error) = raised.into_inner() {
        return Err(error);
    }
    Ok(Outcomes {
        found: found.map_err(crate::errors::to_py)?,
        options,
    })
}

#[pymethods]
impl Outcomes {
    /// As HTML (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        crate::notebook::html(slf.as_any())
    }

    /// How many states were classified: `0..states`.
    #[getter]
    fn states(&self) -> u64 {
        self.found.states()
    }

    /// How many states the player to move loses (P-positions).
    #[getter]
    fn loss_count(&self) -> u64 {
        self.found.loss_count()
    }

    /// Whether the player to move at `state` loses.
    fn is_loss(&self, state: u64) -> PyResult<bool> {
        self.check(state)?;
        Ok(self.found.is_loss(state))
    }

    /// The lost states in increasing order, the first `limit` of them (all
    /// when `limit` is `None`).
    #[pyo3(signature = (limit = None))]
    fn losses(&self, limit: Option<usize>) -> Vec<u64> {
        self.found
            .losses()
            .take(limit.unwrap_or(usize::MAX))
            .collect()
    }

    /// Every move from `state` to a state lost for the opponent, in
    /// increasing order (empty when `state` is lost).
    fn winning_moves(&self, py: Python<'_>, state: u64) -> PyResult<Vec<u64>> {
        self.check(state)?;
        let options = listed(py, &self.options, state)?;
        Ok(self.found.winning_moves(state, options))
    }

    fn __repr__(&self) -> String {
        format!(
            "Outcomes(states={}, loss_count={})",
            self.found.states(),
            self.found.loss_count()
        )
    }
}

impl Outcomes {
    fn check(&self, state: u64) -> PyResult<()> {
        if state >= self.found.states() {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "state {state} is not among the states 0..{}",
                self.found.states()
            )));
        }
        Ok(())
    }
}
