//! `grundy.Game`: a heap game (built-in or a Python callable) with its value
//! table, analysis and counts.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use grundy::report::{ComparisonReport, CountReport, FormulaReport};
use grundy::session::{
    self, ByFormula, CountQuery, HeapRules, Histogram, ScriptLimits, Tuples, analyze_range,
    heap_histogram,
};
use grundy::spec::{GameSpec, Question};
use grundy::{Component, HeapRuleset, TableSolver, ValueTable};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::{detached, to_py, watched};
use crate::results::{
    Analysis, Genus, MisereAnalysis, NimSumCounts, Quotient, SumAnalysis, document,
};
use crate::user_rules::{PythonRules, Rules};
use crate::values::{encode, to_array};

/// `count_heaps`'s `by_formula`: `True` for the formula `guess` finds, or
/// a formula's text.
#[derive(FromPyObject)]
pub(crate) enum FormulaArg {
    Flag(bool),
    Text(String),
}

/// A heap game: `Game("kayles")`, `Game("0.137")`, `Game("sub(1,3,4)")` (any
/// specification `grundy games` lists), or `Game.from_options(f)` for rules
/// written in Python.
///
/// Values are computed by the engine and kept, so asking again or for a
/// smaller heap is free; `clear_cache()` lets the memory go.
#[pyclass(frozen, module = "grundy")]
pub struct Game {
    pub(crate) rules: Rules,
    name: String,
    /// The specification as the user wrote it, which reports name the
    /// game by, as the CLI's and the web's do (`kayles`, canonically
    /// `0.77`).
    written: String,
    solver: TableSolver,
    table: Mutex<ValueTable>,
    /// The thread holding `table` ([`thread_number`]; 0: none), so that a
    /// rule asking its own game for values while the engine asks it for
    /// options raises instead of waiting for itself forever.
    holder: AtomicU64,
}

/// A number for the current thread, from 1.
fn thread_number() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local! {
        static NUMBER: u64 = NEXT.fetch_add(1, Ordering::Relaxed);
    }
    NUMBER.with(|n| *n)
}

/// The value table, held by this thread until dropped.
struct HeldTable<'g> {
    table: MutexGuard<'g, ValueTable>,
    holder: &'g AtomicU64,
}

impl Drop for HeldTable<'_> {
    fn drop(&mut self) {
        self.holder.store(0, Ordering::Release);
    }
}

impl std::ops::Deref for HeldTable<'_> {
    type Target = ValueTable;
    fn deref(&self) -> &ValueTable {
        &self.table
    }
}

impl std::ops::DerefMut for HeldTable<'_> {
    fn deref_mut(&mut self) -> &mut ValueTable {
        &mut self.table
    }
}

fn solver(threads: Option<usize>, memory_limit: Option<u64>) -> TableSolver {
    let solver = match threads {
        Some(threads) => TableSolver::new().with_threads(threads),
        None => TableSolver::new(),
    };
    match memory_limit {
        Some(bytes) => solver.with_memory_limit(bytes),
        None => solver,
    }
}

impl Game {
    /// The game as the user wrote it, as reports name it.
    pub(crate) fn written(&self) -> &str {
        &self.written
    }

    fn new(rules: Rules, name: String, written: String, solver: TableSolver) -> Game {
        Game {
            rules,
            name,
            written,
            solver,
            table: Mutex::new(ValueTable::new()),
            holder: AtomicU64::new(0),
        }
    }

    /// Calls `read` on a table holding at least heaps `0..=to`, computing
    /// the missing ones with the GIL released.
    /// The value table, waited for while another thread computes it; a
    /// rule of this game asking for it while the engine asks the rule for
    /// options (the table held by this very thread) is refused at once.
    fn lock_table(&self) -> grundy::Result<HeldTable<'_>> {
        let me = thread_number();
        if self.holder.load(Ordering::Acquire) == me {
            return Err(grundy::Error::InvalidPosition {
                text: self.written.clone(),
                reason: "a rule asked its own game for values while the engine was asking \
                         the rule for options (a re-entrant call): compute what the rule \
                         needs with another Game"
                    .into(),
            });
        }
        let table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        self.holder.store(me, Ordering::Release);
        Ok(HeldTable {
            table,
            holder: &self.holder,
        })
    }

    fn with_table<T: Send>(
        &self,
        py: Python<'_>,
        to: u64,
        read: impl FnOnce(&ValueTable) -> T + Send,
    ) -> PyResult<T> {
        let result = detached(py, |progress| {
            let mut table = self.lock_table()?;
            let before = table.len();
            if table.len() as u64 <= to {
                let extended = self
                    .solver
                    .extend(&self.rules.game, &mut table, to, progress);
                // Values computed after a rule failed are not values: they
                // are dropped, and `checked` raises the rule's error.
                if extended.is_err() || self.rules.failed() {
                    table.truncate(before);
                    extended?;
                    return Err(grundy::Error::Cancelled);
                }
            }
            Ok(read(&table))
        });
        self.rules.checked(result)
    }

    /// How many heaps of `start..=to` have each value.
    pub(crate) fn histogram_of(
        &self,
        py: Python<'_>,
        start: u64,
        to: u64,
        max: Option<u64>,
        by_formula: &ByFormula,
    ) -> PyResult<Histogram> {
        let found = detached(py, |_| {
            heap_histogram(&self.rules, start, to, max, by_formula, &self.solver)
        });
        self.rules.checked(found)
    }

    /// The value, winner and winning moves of heaps of this game played
    /// together.
    pub(crate) fn sum_of(&self, py: Python<'_>, heaps: &[usize]) -> PyResult<SumAnalysis> {
        let components: Vec<Component> = heaps
            .iter()
            .map(|&heap| Component { game: 0, heap })
            .collect();
        let found = detached(py, |_| {
            grundy::analyze_sum(
                &[&self.rules.game],
                &components,
                &self.solver,
                grundy::LISTED_OPTIONS_LIMIT,
            )
        });
        SumAnalysis::of_heaps(py, self.rules.checked(found)?)
    }
}

#[pymethods]
impl Game {
    /// The game named by `spec`: a name (`kayles`), a take-and-break code
    /// (`0.137`, `4.007`), a subtraction set (`sub(1,3,4)`), … as listed by
    /// `grundy.games()`, or a heap game written as a Rhai script
    /// (`FILE.rhai`). The library's spec parser reads it, as the CLI's does;
    /// kinds that are not heap games are refused with `GrundyError` saying
    /// which command plays them.
    ///
    /// `threads` (default: every core) is how many threads the sparse engine
    /// may compute heaps on (1 keeps it on one); `memory_limit` (bytes) bounds a table, which is refused with
    /// `GrundyError` rather than grown past it.
    #[new]
    #[pyo3(signature = (spec, *, threads = None, memory_limit = None))]
    fn py_new(spec: &str, threads: Option<usize>, memory_limit: Option<u64>) -> PyResult<Game> {
        let written = spec.trim().to_owned();
        let spec = GameSpec::parse(spec).map_err(to_py)?;
        // A Game answers `analyze` and what follows from it: a kind that
        // cannot is refused as `grundy analyze` refuses it.
        let rules = HeapRules::from_spec(&spec, Question::Analyze, &ScriptLimits::default())
            .map_err(to_py)?;
        let name = rules.to_string();
        Ok(Game::new(
            Rules::library(rules),
            name,
            written,
            solver(threads, memory_limit),
        ))
    }

    /// A game whose rules are a Python callable: `options(n)` returns an
    /// iterable of the heaps a move from heap `n` can leave, each an `int`,
    /// or a tuple of `int`s for a move that leaves several heaps (a split).
    /// Every heap left must be smaller than `n`.
    ///
    /// Exceptions raised by `options` propagate unchanged.
    #[staticmethod]
    #[pyo3(signature = (options, *, name = "custom", memory_limit = None))]
    fn from_options(
        options: Bound<'_, PyAny>,
        name: &str,
        memory_limit: Option<u64>,
    ) -> PyResult<Game> {
        if !options.is_callable() {
            return Err(PyValueError::new_err(
                "options must be a callable: options(n) -> iterable of heaps",
            ));
        }
        Ok(Game::new(
            Rules::python(PythonRules::new(options.unbind(), name.to_owned())),
            name.to_owned(),
            name.to_owned(),
            solver(Some(1), memory_limit),
        ))
    }

    /// The game's canonical specification (`Game("kayles").name == "0.77"`),
    /// or the name given to `from_options`.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    fn __repr__(&self) -> String {
        if self.rules.is_python() {
            format!("Game.from_options(name={:?})", self.name)
        } else {
            format!("Game({:?})", self.name)
        }
    }

    /// The values of heaps `0..=to` (`to + 1` of them) as an `array.array`
    /// of the smallest unsigned type that holds them.
    fn values<'py>(&self, py: Python<'py>, to: u64) -> PyResult<Bound<'py, PyAny>> {
        let encoded = self.with_table(py, to, |table| encode(table, to as usize + 1))?;
        to_array(py, encoded)
    }

    /// The Grundy value of heap `n` (from the closed form when a theorem
    /// gives one, as for Nim at any size).
    fn value(&self, py: Python<'_>, n: u64) -> PyResult<u64> {
        let heap = usize::try_from(n).unwrap_or(usize::MAX);
        if let Some(value) = self.rules.closed_form(heap) {
            return Ok(value);
        }
        self.with_table(py, n, |table| u64::from(table.at(heap)))
    }

    /// Every option of heap `n`, each the heaps it leaves (sorted, without
    /// empty heaps), in the order the rules list them: at most `limit`
    /// (default 10^6), past which `GrundyError` is raised before more are
    /// listed.
    #[pyo3(
        signature = (n, *, limit = session::LISTED_HEAP_OPTIONS),
        text_signature = "(self, /, n, *, limit=1000000)"
    )]
    fn options(&self, py: Python<'_>, n: usize, limit: u64) -> PyResult<Vec<Vec<usize>>> {
        let found = detached(py, |_| session::heap_options(&self.rules, n, limit));
        self.rules.checked(found)
    }

    /// Values, period and proof, by the library's analysis: adaptively up
    /// to `max` heaps until a periodicity theorem proves the period, or
    /// exactly heaps `0..=to`. `max` defaults to 2^17 for built-in games and
    /// to 1000 for scripts and games from Python, which no theorem covers
    /// (their period is reported as observed).
    #[pyo3(signature = (*, to = None, max = None))]
    fn analyze(&self, py: Python<'_>, to: Option<u64>, max: Option<u64>) -> PyResult<Analysis> {
        let found = detached(py, |progress| {
            let mut table = self.lock_table()?;
            let found = analyze_range(&self.rules, table.clone(), to, max, &self.solver, progress)?;
            if found.values.len() > table.len() && !self.rules.failed() {
                *table = found.values.clone();
            }
            Ok(found)
        });
        let found = self.rules.checked(found)?;
        Ok(Analysis::new(found, self.written.clone()))
    }

    /// The formulas `grundy guess GAME --format json` finds (the same
    /// document): for the values of heaps `0..=to`, or of the analysis
    /// when `to` is not given; proven where the period is.
    #[pyo3(signature = (*, to = None))]
    fn guess<'py>(&self, py: Python<'py>, to: Option<u64>) -> PyResult<Bound<'py, PyAny>> {
        let found = detached(py, |_| session::guess(&self.rules, to, &self.solver));
        let report = self.rules.checked(found)?;
        document(py, &FormulaReport::new(&self.written, &report))
    }

    /// This game and `other` compared value by value on heaps `0..=to`
    /// (further when both periods can be proven, to prove them equal
    /// everywhere): the document `grundy compare A B --format json` prints.
    #[pyo3(signature = (other, *, to = 1000))]
    fn compare<'py>(&self, py: Python<'py>, other: &Game, to: u64) -> PyResult<Bound<'py, PyAny>> {
        let time = ScriptLimits::default().time;
        let found = detached(py, |_| {
            session::compare(
                &self.rules,
                &other.rules,
                to,
                &self.solver,
                time,
                &|_, _| true,
            )
        });
        let comparison = other.rules.checked(self.rules.checked(found))?;
        document(
            py,
            &ComparisonReport::new([&self.written, &other.written], &comparison),
        )
    }

    /// How many heaps in `start..=to` (from heap 1, as `grundy count`,
    /// unless `start` says otherwise) have each value, as `{value: count}`.
    /// Ranges past 2^22 heaps are counted through a proven period, so `to`
    /// may be as large as 2^64 - 1 for games whose period can be proven.
    #[pyo3(signature = (to, *, start = 1, max = None))]
    fn histogram(
        &self,
        py: Python<'_>,
        to: u64,
        start: u64,
        max: Option<u64>,
    ) -> PyResult<BTreeMap<usize, u128>> {
        let histogram = self.histogram_of(py, start, to, max, &ByFormula::No)?;
        Ok(histogram
            .counts
            .iter()
            .enumerate()
            .filter(|&(_, &count)| count > 0)
            .map(|(value, &count)| (value, count))
            .collect())
    }

    /// The heaps of `start..=to` counted by value: the document `grundy
    /// count GAME --to N --format json` prints (`heaps`, `p_positions`,
    /// `n_positions`, `histogram`, `source`, `through_period`). With
    /// `by_formula=True`, a range past the heaps computed (2^22, or `max`)
    /// and without a proven period is counted past them by the formula
    /// `guess` finds; with a formula string (`"g(n) = ctz(n)"`, written as
    /// `guess` prints it) the count is by that formula, checked against
    /// every computed value first (a wrong one raises `GrundyError` naming
    /// the first heap where it fails). The report's `by_formula` then says
    /// which, the last heap it was verified on, and whether it is `proven`
    /// (else a conjecture past that heap).
    #[pyo3(
        signature = (to, *, start = 1, max = None, by_formula = FormulaArg::Flag(false)),
        text_signature = "(self, /, to, *, start=1, max=None, by_formula=False)"
    )]
    fn count_heaps<'py>(
        &self,
        py: Python<'py>,
        to: u64,
        start: u64,
        max: Option<u64>,
        by_formula: FormulaArg,
    ) -> PyResult<Bound<'py, PyAny>> {
        let by_formula = match by_formula {
            FormulaArg::Flag(false) => ByFormula::No,
            FormulaArg::Flag(true) => ByFormula::Guessed,
            FormulaArg::Text(text) => ByFormula::Given(text.parse().map_err(to_py)?),
        };
        let histogram = self.histogram_of(py, start, to, max, &by_formula)?;
        document(py, &CountReport::new(&self.written, start, to, &histogram))
    }

    /// Positions of `heaps` heaps with sizes in `start..=to` (from heap 1,
    /// as `grundy count`, unless `start` says otherwise), counted by
    /// nim-sum. `order` is `"ordered"` (tuples), `"ordered-distinct"`,
    /// `"unordered"` (multisets) or `"distinct"` (sets); `modulo` gives
    /// counts modulo an integer instead of exact ones.
    #[pyo3(signature = (to, heaps, *, start = 1, order = "ordered", modulo = None, max = None))]
    #[allow(clippy::too_many_arguments)]
    fn count(
        &self,
        py: Python<'_>,
        to: u64,
        heaps: u64,
        start: u64,
        order: &str,
        modulo: Option<u64>,
        max: Option<u64>,
    ) -> PyResult<NimSumCounts> {
        let query = CountQuery {
            heaps: Some(heaps),
            order: tuples(order)?,
            modulus: modulo,
            ..CountQuery::default()
        };
        query.arithmetic().map_err(to_py)?;
        let histogram = self.histogram_of(py, start, to, max, &ByFormula::No)?;
        let counts = py
            .detach(|| session::count_histograms(std::slice::from_ref(&histogram), &query))
            .map_err(to_py)?;
        Ok(NimSumCounts::new(counts, modulo))
    }

    /// Heaps of this game played together: their values, nim-sum, who wins
    /// and every winning move.
    fn analyze_sum(&self, py: Python<'_>, heaps: Vec<usize>) -> PyResult<SumAnalysis> {
        self.sum_of(py, &heaps)
    }

    /// Misère play (the last player to move loses): who wins `heaps` played
    /// together, and every winning move, by memoized search over multisets
    /// of heaps (Bouton's rule for Nim heaps and the tame rule for
    /// hereditarily tame heaps spare most of it). Stops with `GrundyError`
    /// past `budget` positions.
    #[pyo3(signature = (heaps, *, budget = 5_000_000))]
    fn misere(&self, py: Python<'_>, heaps: Vec<usize>, budget: usize) -> PyResult<MisereAnalysis> {
        let found = watched(py, || session::misere_sum(&self.rules, &heaps, 3, budget));
        let (value, moves) = self.rules.checked(found)?;
        MisereAnalysis::new(py, &heaps, value, moves)
    }

    /// Conway's genus of heaps `0..=to` (`terms` misère values each): a
    /// list of `Genus`.
    #[pyo3(signature = (to, *, terms = 6, budget = 5_000_000))]
    fn genus(
        &self,
        py: Python<'_>,
        to: usize,
        terms: usize,
        budget: usize,
    ) -> PyResult<Vec<Genus>> {
        let found = watched(py, || session::genera(&self.rules, to, terms, budget));
        Ok(self
            .rules
            .checked(found)?
            .into_iter()
            .map(Genus::new)
            .collect())
    }

    /// The misère quotient of heaps `1..=max_heap` (Plambeck–Siegel),
    /// verified against exhaustive search; `max_fold` bounds the heap
    /// multiplicities folded (see the CLI's `--fold`).
    #[pyo3(signature = (max_heap, *, max_fold = 5, budget = 5_000_000))]
    fn misere_quotient(
        &self,
        py: Python<'_>,
        max_heap: usize,
        max_fold: u32,
        budget: usize,
    ) -> PyResult<Quotient> {
        let found = watched(py, || {
            session::misere_quotient(&self.rules, max_heap, max_fold, budget, &[])
        });
        Ok(Quotient::new(self.rules.checked(found)?.0))
    }

    /// Forgets the values computed so far.
    fn clear_cache(&self, py: Python<'_>) -> PyResult<()> {
        detached(py, |_| {
            *self.lock_table()? = ValueTable::new();
            Ok(())
        })
    }
}

/// The [`Tuples`] an `order` argument names.
pub(crate) fn tuples(order: &str) -> PyResult<Tuples> {
    Ok(match order {
        "ordered" => Tuples::Ordered,
        "ordered-distinct" => Tuples::OrderedDistinct,
        "unordered" => Tuples::Unordered,
        "distinct" => Tuples::Distinct,
        other => {
            return Err(PyValueError::new_err(format!(
                "order '{other}' is not one of 'ordered', 'ordered-distinct', 'unordered', \
                 'distinct'"
            )));
        }
    })
}
