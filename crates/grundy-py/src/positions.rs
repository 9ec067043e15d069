//! `grundy.Rules`: games whose positions are any hashable Python values.
//!
//! The positions reachable from the ones asked about are explored once by
//! calling the Python `options` callable, numbered, and handed to the
//! session as an explicit game ([`ExplicitGame`]), which answers: cycles
//! are reported (or valued by Smith's theory) instead of looping.

use grundy::Error;
use grundy::session::{ExplicitGame, LoopyValue, Outcome};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::{GrundyError, to_py};
use crate::results::SumAnalysis;

/// A move that leaves several independent games, for `Rules` options:
/// `Sum(a, b)` is played as `a` and `b` side by side, worth `g(a) ^ g(b)`.
#[pyclass(frozen, module = "grundy")]
pub struct Sum {
    /// The positions played together.
    #[pyo3(get)]
    parts: Py<PyTuple>,
}

#[pymethods]
impl Sum {
    /// As HTML (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        crate::notebook::html(slf.as_any())
    }

    #[new]
    #[pyo3(signature = (*parts))]
    fn new(parts: Bound<'_, PyTuple>) -> Sum {
        Sum {
            parts: parts.unbind(),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let parts: Vec<String> = self
            .parts
            .bind(py)
            .iter()
            .map(|p| Ok(p.repr()?.to_string()))
            .collect::<PyResult<_>>()?;
        Ok(format!("Sum({})", parts.join(", ")))
    }
}

/// The value of a position of a game with cycles from which play can go on
/// forever (`∞` in Smith's theory), with the finite values among its
/// options: the player to move wins exactly when 0 is among them.
#[pyclass(frozen, module = "grundy")]
pub struct Infinite {
    /// The finite values of the position's options, in increasing order.
    #[pyo3(get)]
    finite_options: Vec<u32>,
}

#[pymethods]
impl Infinite {
    /// As HTML (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        crate::notebook::html(slf.as_any())
    }

    #[new]
    fn new(finite_options: Vec<u32>) -> Infinite {
        let mut finite_options = finite_options;
        finite_options.sort_unstable();
        finite_options.dedup();
        Infinite { finite_options }
    }

    fn __repr__(&self) -> String {
        format!("Infinite({:?})", self.finite_options)
    }

    fn __str__(&self) -> String {
        let shown: Vec<String> = self.finite_options.iter().map(u32::to_string).collect();
        format!("∞{{{}}}", shown.join(","))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Infinite>()
            .is_ok_and(|o| o.get().finite_options == self.finite_options)
    }
}

/// The rules of a game on any hashable positions: `options(p)` returns an
/// iterable of the positions one move from `p` can reach (a `Sum(a, b)`
/// for a move that leaves independent games side by side).
///
/// Positions reached are explored once and kept, so later questions about
/// them cost no calls. Exploring stops with `GrundyError` past
/// `max_positions` positions (10^7 unless told); a game with a cycle raises `GrundyError`
/// naming a position on it.
#[pyclass(module = "grundy", name = "Rules")]
pub struct GeneralRules {
    options: Py<PyAny>,
    max_positions: usize,
    /// Position -> its number.
    index: Py<PyDict>,
    /// Number -> position.
    positions: Vec<Py<PyAny>>,
    /// The explored game, numbered as `positions`.
    game: ExplicitGame,
}

impl GeneralRules {
    /// The number of `position`, numbering it if it is new.
    fn number(&mut self, position: &Bound<'_, PyAny>) -> PyResult<u32> {
        let index = self.index.bind(position.py());
        if let Some(known) = index.get_item(position)? {
            return known.extract();
        }
        if self.positions.len() >= self.max_positions {
            return Err(to_py(Error::PositionBudget {
                limit: self.max_positions,
            }));
        }
        let number = self.game.add_position();
        index.set_item(position, number)?;
        self.positions.push(position.clone().unbind());
        Ok(number)
    }

    /// Explores everything reachable from `starts`; returns their numbers.
    fn explore(&mut self, py: Python<'_>, starts: &[Bound<'_, PyAny>]) -> PyResult<Vec<u32>> {
        let numbers = starts
            .iter()
            .map(|p| self.number(p))
            .collect::<PyResult<Vec<u32>>>()?;
        let mut pending: Vec<u32> = numbers.clone();
        let options = self.options.clone_ref(py);
        while let Some(p) = pending.pop() {
            if self.game.is_explored(p) {
                continue;
            }
            let position = self.positions[p as usize].bind(py).clone();
            let mut listed = Vec::new();
            let called = options.bind(py).call1((position.clone(),))?;
            for (i, item) in called.try_iter()?.enumerate() {
                // An endless iterator raises instead of filling memory, and
                // Ctrl-C is heard as it goes.
                if i >= self.max_positions {
                    return Err(GrundyError::new_err(format!(
                        "options({}) listed more than {} options (max_positions): list each \
                         option once",
                        position.repr()?,
                        self.max_positions
                    )));
                }
                if i % 4096 == 4095 {
                    py.check_signals()?;
                }
                let item = item?;
                let parts: Vec<Bound<'_, PyAny>> = match item.cast::<Sum>() {
                    Ok(sum) => sum.get().parts.bind(py).iter().collect(),
                    Err(_) => vec![item],
                };
                let mut option = Vec::with_capacity(parts.len());
                for part in &parts {
                    let number = self.number(part)?;
                    if !self.game.is_explored(number) {
                        pending.push(number);
                    }
                    option.push(number);
                }
                listed.push(option);
            }
            self.game.set_options(p, listed);
        }
        Ok(numbers)
    }

    /// An engine error, with the position a cycle runs through shown as
    /// Python shows it.
    fn error(&self, py: Python<'_>, error: Error) -> PyErr {
        if let Error::Cycle { position } = &error
            && let Some(p) = position
                .parse::<usize>()
                .ok()
                .and_then(|p| self.positions.get(p))
            && let Ok(shown) = p.bind(py).repr()
        {
            return to_py(Error::Cycle {
                position: shown.to_string(),
            });
        }
        to_py(error)
    }
}

#[pymethods]
impl GeneralRules {
    /// As HTML (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        crate::notebook::html(slf.as_any())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Rules({}, explored={})",
            self.options.bind(py).repr()?,
            self.positions.len()
        ))
    }

    /// The callable that lists the options.
    #[getter]
    fn options(&self, py: Python<'_>) -> Py<PyAny> {
        self.options.clone_ref(py)
    }

    /// The most positions explored before `GrundyError` is raised.
    #[getter]
    fn max_positions(&self) -> usize {
        self.max_positions
    }

    #[new]
    #[pyo3(signature = (options, *, max_positions = 10_000_000))]
    fn new(py: Python<'_>, options: Bound<'_, PyAny>, max_positions: usize) -> PyResult<Self> {
        if !options.is_callable() {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "options must be a callable: options(position) -> iterable of positions",
            ));
        }
        Ok(GeneralRules {
            options: options.unbind(),
            max_positions,
            index: PyDict::new(py).unbind(),
            positions: Vec::new(),
            game: ExplicitGame::default(),
        })
    }

    /// The Grundy value of `position`.
    fn value(&mut self, py: Python<'_>, position: Bound<'_, PyAny>) -> PyResult<u32> {
        // The value alone: a cached position costs a look-up, not the
        // listing of its winning moves.
        let numbers = self.explore(py, &[position])?;
        let found = py.detach(|| self.game.value(numbers[0]));
        Ok(found.map_err(|e| self.error(py, e))?.get())
    }

    /// Positions played together: values, nim-sum, who wins and every
    /// winning move (`Move.after` holds the positions a component becomes).
    fn analyze_sum(
        &mut self,
        py: Python<'_>,
        positions: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<SumAnalysis> {
        let numbers = self.explore(py, &positions)?;
        let found = py.detach(|| self.game.sum(&numbers));
        let found = found.map_err(|e| self.error(py, e))?;
        let moves = found
            .winning_moves
            .into_iter()
            .map(|m| {
                let before = positions[m.component].clone().unbind();
                let after =
                    m.to.iter()
                        .map(|&p| self.positions[p as usize].clone_ref(py))
                        .collect();
                (m.component, before, after)
            })
            .collect();
        SumAnalysis::new(py, &found.values, moves)
    }

    /// Who wins `positions` played together: `"win"` or `"loss"` for the
    /// player to move, or `"draw"` when the game can cycle and neither side
    /// can force a win. Games with cycles are valued by the generalized
    /// Sprague–Grundy function and Smith's sum rule; their options must
    /// then be single positions.
    fn outcome(
        &mut self,
        py: Python<'_>,
        positions: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<&'static str> {
        let numbers = self.explore(py, &positions)?;
        let found = py.detach(|| self.game.outcome(&numbers));
        Ok(match found.map_err(|e| self.error(py, e))? {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
        })
    }

    /// The generalized Sprague–Grundy value of `position`: an `int`, or
    /// `Infinite` (play from it can go on forever) listing the finite
    /// values among its options.
    fn generalized_value(
        &mut self,
        py: Python<'_>,
        position: Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let numbers = self.explore(py, std::slice::from_ref(&position))?;
        let found = py.detach(|| self.game.generalized_value(numbers[0]));
        Ok(match &found.map_err(|e| self.error(py, e))? {
            LoopyValue::Finite(v) => v.get().into_pyobject(py)?.into_any().unbind(),
            LoopyValue::Infinite(k) => Py::new(
                py,
                Infinite {
                    finite_options: k.iter().map(|v| v.get()).collect(),
                },
            )?
            .into_any(),
        })
    }

    /// How many positions have been explored.
    #[getter]
    fn explored(&self) -> usize {
        self.positions.len()
    }
}
