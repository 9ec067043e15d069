//! `grundy.Rules`: games whose positions are any hashable Python values.
//!
//! The positions reachable from the ones asked about are explored once by
//! calling the Python `options` callable, numbered, and handed to the
//! engine's generic solver ([`grundy::analyze_positions`]) as an explicit
//! game, so cycles are reported instead of looping.

use grundy::solve::Memo;
use grundy::solve::{Adjacency, LoopyValue, Outcome, loopy_values, sum_outcome};
use grundy::{Error, MemoSolver, Options, Ruleset, analyze_positions, analyze_positions_with};
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
    /// Where the options of each explored position lie in `listed`.
    explored: Vec<Option<(usize, usize)>>,
    listed: Options<u32>,
    /// The values found so far: explored positions keep their options, so
    /// a value once found stays right, and a query searches only what it
    /// adds (a fresh search per call made calls slower as the cache grew).
    memo: Memo<u32>,
}

/// The explored part of a game, as the engine's solvers see it: positions
/// are their numbers.
struct Explored<'a>(&'a GeneralRules);

impl Ruleset for Explored<'_> {
    type Position = u32;

    fn options(&self, &p: &u32, out: &mut Options<u32>) {
        if let Some(Some((first, end))) = self.0.explored.get(p as usize) {
            for i in *first..*end {
                out.push(self.0.listed.get(i).iter().copied());
            }
        }
    }
}

impl GeneralRules {
    /// Runs `search` with the memoized solver of the explored positions,
    /// keeping the values it finds for later calls.
    fn solve<T>(&mut self, search: impl FnOnce(&mut MemoSolver<'_, Explored<'_>>) -> T) -> T {
        let memo = std::mem::take(&mut self.memo);
        let (found, memo) = {
            let explored = Explored(self);
            let mut solver = MemoSolver::resume(&explored, memo);
            let found = search(&mut solver);
            (found, solver.into_memo())
        };
        self.memo = memo;
        found
    }

    /// Generalized values of every explored position.
    fn loopy(&self, py: Python<'_>) -> PyResult<Vec<LoopyValue>> {
        let (starts, targets) = self.graph().ok_or_else(|| {
            GrundyError::new_err(
                "the game has a cycle, and a move that leaves a Sum of positions has no value \
                 then; list single positions",
            )
        })?;
        py.detach(|| {
            loopy_values(Adjacency {
                starts: &starts,
                targets: &targets,
            })
        })
        .map_err(to_py)
    }

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
        let number = self.positions.len() as u32;
        index.set_item(position, number)?;
        self.positions.push(position.clone().unbind());
        self.explored.push(None);
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
            if self.explored[p as usize].is_some() {
                continue;
            }
            let position = self.positions[p as usize].bind(py).clone();
            let first = self.listed.len();
            for item in options.bind(py).call1((position,))?.try_iter()? {
                let item = item?;
                let parts: Vec<Bound<'_, PyAny>> = match item.cast::<Sum>() {
                    Ok(sum) => sum.get().parts.bind(py).iter().collect(),
                    Err(_) => vec![item],
                };
                let mut option = Vec::with_capacity(parts.len());
                for part in &parts {
                    let number = self.number(part)?;
                    if self.explored[number as usize].is_none() {
                        pending.push(number);
                    }
                    option.push(number);
                }
                self.listed.push(option);
            }
            self.explored[p as usize] = Some((first, self.listed.len()));
        }
        Ok(numbers)
    }

    /// The explored game as a graph, when every option is a single
    /// position (what the loopy solver needs).
    fn graph(&self) -> Option<(Vec<usize>, Vec<u32>)> {
        let mut starts = vec![0usize];
        let mut targets = Vec::new();
        for range in &self.explored {
            if let Some((first, end)) = *range {
                for i in first..end {
                    match self.listed.get(i) {
                        [single] => targets.push(*single),
                        _ => return None,
                    }
                }
            }
            starts.push(targets.len());
        }
        Some((starts, targets))
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
            explored: Vec::new(),
            listed: Options::new(),
            memo: Memo::default(),
        })
    }

    /// The Grundy value of `position`.
    fn value(&mut self, py: Python<'_>, position: Bound<'_, PyAny>) -> PyResult<u32> {
        // The value alone: a cached position costs a look-up, not the
        // listing of its winning moves.
        let numbers = self.explore(py, &[position])?;
        let found = self.solve(|solver| solver.value(&numbers[0]));
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
        let found = self.solve(|solver| analyze_positions_with(solver, &numbers));
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
        match analyze_positions(&Explored(self), &numbers) {
            Ok(found) => Ok(if found.nim_sum.is_zero() {
                "loss"
            } else {
                "win"
            }),
            Err(Error::Cycle { .. }) => {
                let values = self.loopy(py)?;
                let parts: Vec<LoopyValue> = numbers
                    .iter()
                    .map(|&n| values[n as usize].clone())
                    .collect();
                Ok(match sum_outcome(&parts) {
                    Outcome::Win => "win",
                    Outcome::Loss => "loss",
                    Outcome::Draw => "draw",
                })
            }
            Err(other) => Err(self.error(py, other)),
        }
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
        let values = self.loopy(py)?;
        Ok(match &values[numbers[0] as usize] {
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
