//! `grundy.Game`: a heap game (built-in or a Python callable) with its value
//! table, analysis and counts.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use grundy::report::{ComparisonReport, CountReport, FormulaReport};
use grundy::session::{
    self, ByFormula, CountQuery, HeapRules, Histogram, HistogramSource, MovesGame, MovesQuery,
    ScriptLimits, TABULATE_LIMIT, Tuples, analyze_range, heap_histogram,
};
use grundy::spec::{GameSpec, Question};
use grundy::{Component, HeapRuleset, TableSolver, ValueTable};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::{
    Budget, Heap, Heaps, Limit, Max, MaxHeap, MaxOptions, Modulo, N, Progress, Start, Terms, To,
    Whole, detached, optional, reporting, to_py, watched, watched_reporting,
};
use crate::notebook;
use crate::results::{
    Analysis, Genus, MisereAnalysis, NimSumCounts, Quotient, SumAnalysis, count_document, document,
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
    /// What games are compared and hashed by: the canonical specification
    /// (`0.77` for `kayles`; a script by its file), or `None` for rules
    /// from a Python callable, which are equal only to themselves.
    canonical: Option<String>,
    /// The keywords the game was made with, for pickling.
    threads: Option<usize>,
    memory_limit: Option<u64>,
    /// The values given for a script's constants (`defines=`), by name.
    defines: BTreeMap<String, i64>,
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

    fn new(
        rules: Rules,
        name: String,
        written: String,
        canonical: Option<String>,
        (threads, memory_limit): (Option<usize>, Option<u64>),
    ) -> Game {
        Game {
            rules,
            name,
            written,
            canonical,
            threads,
            memory_limit,
            defines: BTreeMap::new(),
            solver: solver(threads, memory_limit),
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
        told: &Progress,
        read: impl FnOnce(&ValueTable) -> T + Send,
    ) -> PyResult<T> {
        let result = reporting(py, told, |progress| {
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
    ///
    /// A range a table holds (up to [`TABULATE_LIMIT`] heaps, or `max`) is
    /// counted by the game's own analysis of `0..=to`, which the library
    /// answers through a proven period where the game has one and by its
    /// table otherwise: the values computed are kept (a count after
    /// `values()` costs nothing more, and `values()` after a count neither)
    /// and `progress` hears how far it is. Longer ranges, and counts by a
    /// formula, are the library's [`heap_histogram`]: through a proven
    /// period, or refused saying why.
    pub(crate) fn histogram_of(
        &self,
        py: Python<'_>,
        start: u64,
        to: u64,
        max: Option<u64>,
        by_formula: &ByFormula,
        told: &Progress,
    ) -> PyResult<Histogram> {
        let bound = max.unwrap_or(self.rules.default_max()).max(TABULATE_LIMIT);
        if *by_formula == ByFormula::No && start <= to && to <= bound {
            let found = reporting(py, told, |progress| {
                self.histogram_by_analysis(start, to, max, progress)
            });
            return self.rules.checked(found);
        }
        let found = watched_reporting(py, told, || {
            heap_histogram(&self.rules, start, to, max, by_formula, &self.solver)
        });
        self.rules.checked(found)
    }

    /// The histogram of `start..=to` from the game's table, extended (and
    /// kept) by an analysis of `0..=to` when it is too short.
    fn histogram_by_analysis(
        &self,
        start: u64,
        to: u64,
        max: Option<u64>,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> grundy::Result<Histogram> {
        let mut table = self.lock_table()?;
        let last = usize::try_from(to).unwrap_or(usize::MAX);
        let first = usize::try_from(start).unwrap_or(usize::MAX);
        if last < table.len() {
            let mut counts = Vec::new();
            for v in table.iter().take(last + 1).skip(first) {
                add(&mut counts, v.index(), 1);
            }
            return Ok(Histogram {
                counts,
                source: HistogramSource::Tabulated,
            });
        }
        let found = analyze_range(
            &self.rules,
            table.clone(),
            Some(to),
            max,
            &self.solver,
            progress,
        )?;
        if found.values.len() > table.len() && !self.rules.failed() {
            *table = found.values.clone();
        }
        let mut counts: Vec<u128> = Vec::new();
        for (value, count) in found.histogram() {
            add(&mut counts, value.index(), u128::from(count));
        }
        // Less the heaps before `start`: from the table, or through the
        // proven period that answered past it.
        if first > 0 {
            let below: Vec<(usize, u128)> = if first <= found.values.len() {
                let mut below = Vec::new();
                for v in found.values.iter().take(first) {
                    add(&mut below, v.index(), 1);
                }
                below.into_iter().enumerate().collect()
            } else {
                let before = analyze_range(
                    &self.rules,
                    found.values.clone(),
                    Some(start - 1),
                    max,
                    &self.solver,
                    &mut |_| true,
                )?;
                before
                    .histogram()
                    .into_iter()
                    .map(|(v, c)| (v.index(), u128::from(c)))
                    .collect()
            };
            for (value, count) in below {
                if let Some(slot) = counts.get_mut(value) {
                    *slot -= count;
                }
            }
        }
        while counts.last() == Some(&0) {
            counts.pop();
        }
        let source = match found.proven_periodicity() {
            Some(p) if found.to > found.computed_to() => HistogramSource::Period {
                preperiod: p.preperiod,
                period: p.period,
            },
            _ => HistogramSource::Tabulated,
        };
        Ok(Histogram { counts, source })
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
    /// may compute heaps on (1 keeps it on one); `memory_limit` (bytes)
    /// bounds a table, which is refused with `GrundyMemoryError` rather than
    /// grown past it. `defines` gives a script's constants (`const K = 3;`
    /// outside its functions: its parameters) other integer values, as
    /// `--define K=5` does: `Game("take.rhai", defines={"K": 5})`.
    ///
    /// Games are equal (and hash alike) when their canonical specifications
    /// are: `Game("kayles") == Game("0.77")`; a script's names its defines
    /// (`script:take.rhai(K=5)`). They pickle as their specification, so
    /// they can be sent to a process pool.
    #[new]
    #[pyo3(signature = (spec, *, threads = None, memory_limit = None, defines = None))]
    fn py_new(
        spec: &str,
        threads: Option<usize>,
        memory_limit: Option<u64>,
        defines: Option<BTreeMap<String, i64>>,
    ) -> PyResult<Game> {
        let written = spec.trim().to_owned();
        let spec = GameSpec::parse(spec).map_err(to_py)?;
        let defines = defines.unwrap_or_default();
        let mut limits = ScriptLimits::default();
        for (name, &value) in &defines {
            limits.defines.insert(name, value).map_err(to_py)?;
        }
        if !defines.is_empty() && !matches!(spec, GameSpec::Script(_)) {
            return Err(PyValueError::new_err(format!(
                "defines gives values to a script's constants, and {written:?} is not a script \
                 (FILE.rhai)"
            )));
        }
        // A Game answers `analyze` and what follows from it: a kind that
        // cannot is refused as `grundy analyze` refuses it.
        let rules = HeapRules::from_spec(&spec, Question::Analyze, &limits).map_err(to_py)?;
        let name = rules.to_string();
        // A script is the game of its file and its defines, whatever name
        // it gives itself.
        let canonical = match spec {
            GameSpec::Script(_) => format!("script:{name}"),
            _ => name.clone(),
        };
        let mut game = Game::new(
            Rules::library(rules),
            name,
            written,
            Some(canonical),
            (threads, memory_limit),
        );
        game.defines = defines;
        Ok(game)
    }

    /// A game whose rules are a Python callable: `options(n)` returns an
    /// iterable of the heaps a move from heap `n` can leave, each an `int`,
    /// or a tuple of `int`s for a move that leaves several heaps (a split).
    /// Every heap left must be smaller than `n`.
    ///
    /// Exceptions raised by `options` propagate unchanged. Such a game is
    /// equal only to itself and cannot be pickled.
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
            None,
            (Some(1), memory_limit),
        ))
    }

    /// The game's canonical specification (`Game("kayles").name == "0.77"`),
    /// or the name given to `from_options`.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The specification as it was written (`"kayles"`), which reports
    /// name the game by.
    #[getter]
    fn spec(&self) -> &str {
        &self.written
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let written = pyo3::types::PyString::new(py, &self.written).repr()?;
        Ok(if self.rules.is_python() {
            format!("Game.from_options(name={written})")
        } else {
            format!("Game({written})")
        })
    }

    /// The game, its canonical specification and its first values, as an
    /// HTML table (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        notebook::html(slf.as_any())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(other) = other.cast::<Game>() else {
            return false;
        };
        let other = other.get();
        match (&self.canonical, &other.canonical) {
            (Some(a), Some(b)) => a == b,
            _ => std::ptr::eq(self, other),
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        match &self.canonical {
            Some(canonical) => canonical.hash(&mut hasher),
            None => std::ptr::from_ref(self).hash(&mut hasher),
        }
        // Python takes -1 for an error: keep clear of it.
        hasher.finish() >> 1
    }

    /// Pickles as the specification and keywords; a game of a Python
    /// callable cannot be (the callable need not be picklable, and its
    /// values are Python's to compute).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let game = slf.get();
        if game.rules.is_python() {
            return Err(PyTypeError::new_err(format!(
                "Game.from_options(name={:?}) holds a Python callable and cannot be pickled: \
                 make the game where it is used (in the worker process), or describe it by a \
                 specification or a script file (Game(\"rules.rhai\")), which pickle",
                game.name
            )));
        }
        let class = py.get_type::<Game>().into_any();
        let args = PyTuple::new(py, [game.written.as_str()])?;
        if game.threads.is_none() && game.memory_limit.is_none() && game.defines.is_empty() {
            return Ok((class, args));
        }
        let keywords = PyDict::new(py);
        keywords.set_item("threads", game.threads)?;
        keywords.set_item("memory_limit", game.memory_limit)?;
        if !game.defines.is_empty() {
            keywords.set_item("defines", &game.defines)?;
        }
        let made = py
            .import("functools")?
            .getattr("partial")?
            .call((class,), Some(&keywords))?;
        Ok((made, args))
    }

    /// The values of heaps `0..=to` (`to + 1` of them), of the smallest
    /// unsigned type that holds them: a NumPy array where NumPy is
    /// installed (over the memory of the compact `array.array`, no second
    /// copy), an `array.array` otherwise. `progress` is `True` for a
    /// progress bar (tqdm where it is installed) or a callable
    /// `progress(done, total)` told the heaps done.
    #[pyo3(
        signature = (to, *, progress = None),
        text_signature = "(self, /, to, *, progress=None)"
    )]
    fn values<'py>(
        &self,
        py: Python<'py>,
        to: Whole<To>,
        progress: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let to = to.get()?;
        let told = Progress::new(py, progress.as_ref(), to.saturating_add(1), "values")?;
        let encoded = self.with_table(py, to, &told, |table| encode(table, to as usize + 1))?;
        notebook::values(to_array(py, encoded)?)
    }

    /// The Grundy value of heap `n` (from the closed form when a theorem
    /// gives one, as for Nim at any size).
    fn value(&self, py: Python<'_>, n: Whole<N>) -> PyResult<u64> {
        let heap = n.index()?;
        if let Some(value) = self.rules.closed_form(heap) {
            return Ok(value);
        }
        self.with_table(py, n.get()?, &Progress::none(), |table| {
            u64::from(table.at(heap))
        })
    }

    /// Every option of heap `n`, each the heaps it leaves (sorted, without
    /// empty heaps), in the order the rules list them: at most `limit`
    /// (default 10^6), past which `GrundyError` is raised before more are
    /// listed.
    #[pyo3(
        signature = (n, *, limit = None),
        text_signature = "(self, /, n, *, limit=1000000)"
    )]
    fn options(
        &self,
        py: Python<'_>,
        n: Whole<N>,
        limit: Option<Whole<Limit>>,
    ) -> PyResult<Vec<Vec<usize>>> {
        let limit = optional(limit)?.unwrap_or(session::LISTED_HEAP_OPTIONS);
        let n = n.index()?;
        let found = detached(py, |_| session::heap_options(&self.rules, n, limit));
        self.rules.checked(found)
    }

    /// Values, period and proof, by the library's analysis: adaptively up
    /// to `max` heaps until a periodicity theorem proves the period, or
    /// exactly heaps `0..=to`. `max` defaults to 2^17 for built-in games and
    /// to 1000 for scripts and games from Python, which no theorem covers
    /// (their period is reported as observed). `progress` as for `values`
    /// (its total is the most heaps the analysis may compute).
    #[pyo3(
        signature = (*, to = None, max = None, progress = None),
        text_signature = "(self, /, *, to=None, max=None, progress=None)"
    )]
    fn analyze(
        &self,
        py: Python<'_>,
        to: Option<Whole<To>>,
        max: Option<Whole<Max>>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Analysis> {
        let (to, max) = (optional(to)?, optional(max)?);
        let most = to.unwrap_or_else(|| max.unwrap_or(self.rules.default_max()));
        let told = Progress::new(py, progress.as_ref(), most.saturating_add(1), "analyze")?;
        let found = reporting(py, &told, |progress| {
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

    /// A plot of the values of heaps `0..=to` (the analysis's heaps when
    /// `to` is not given), as `Analysis.plot` draws it: P-positions marked,
    /// the period shaded when there is one. Returns the matplotlib `Axes`.
    #[pyo3(
        signature = (to = None, *, ax = None, logx = false, progress = None),
        text_signature = "(self, /, to=None, *, ax=None, logx=False, progress=None)"
    )]
    fn plot<'py>(
        &self,
        py: Python<'py>,
        to: Option<Whole<To>>,
        ax: Option<Bound<'py, PyAny>>,
        logx: bool,
        progress: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let found = Bound::new(py, self.analyze(py, to, None, progress)?)?;
        notebook::plot(found.as_any(), "values", ax, logx)
    }

    /// The formulas `grundy guess GAME --format json` finds (the same
    /// document): for the values of heaps `0..=to`, or of the analysis
    /// when `to` is not given; proven where the period is.
    #[pyo3(signature = (*, to = None))]
    fn guess<'py>(&self, py: Python<'py>, to: Option<Whole<To>>) -> PyResult<Bound<'py, PyAny>> {
        let to = optional(to)?;
        let found = detached(py, |_| session::guess(&self.rules, to, &self.solver));
        let report = self.rules.checked(found)?;
        document(py, &FormulaReport::new(&self.written, &report))
    }

    /// This game and `other` compared value by value on heaps `0..=to`
    /// (further when both periods can be proven, to prove them equal
    /// everywhere): the document `grundy compare A B --format json` prints.
    #[pyo3(
        signature = (other, *, to = None),
        text_signature = "(self, /, other, *, to=1000)"
    )]
    fn compare<'py>(
        &self,
        py: Python<'py>,
        other: &Game,
        to: Option<Whole<To>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let to = optional(to)?.unwrap_or(1000);
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
    /// unless `start` says otherwise) have each value: `counts[v]` heaps
    /// have value `v` (a NumPy `int64` array where NumPy is installed, a
    /// list of `int` otherwise). Ranges past 2^22 heaps are counted through
    /// a proven period, so `to` may be as large as 2^64 - 1 for games whose
    /// period can be proven. `progress` as for `values`.
    #[pyo3(
        signature = (to, *, start = None, max = None, progress = None),
        text_signature = "(self, /, to, *, start=1, max=None, progress=None)"
    )]
    fn histogram<'py>(
        &self,
        py: Python<'py>,
        to: Whole<To>,
        start: Option<Whole<Start>>,
        max: Option<Whole<Max>>,
        progress: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (start, to) = (optional(start)?.unwrap_or(1), to.get()?);
        let told = Progress::new(py, progress.as_ref(), to.saturating_add(1), "histogram")?;
        let max = optional(max)?;
        let histogram = self.histogram_of(py, start, to, max, &ByFormula::No, &told)?;
        notebook::counts(py, &histogram.counts)
    }

    /// The heaps of `start..=to` counted by value: the document `grundy
    /// count GAME --to N --format json` prints (`heaps`, `p_positions`,
    /// `n_positions`, `histogram`, `source`, `through_period`), its counts
    /// as `int`s. With `by_formula=True`, a range past the heaps computed
    /// (2^22, or `max`) and without a proven period is counted past them by
    /// the formula `guess` finds; with a formula string (`"g(n) = ctz(n)"`,
    /// written as `guess` prints it) the count is by that formula, checked
    /// against every computed value first (a wrong one raises
    /// `GrundyError` naming the first heap where it fails). The report's
    /// `by_formula` then says which, the last heap it was verified on, and
    /// whether it is `proven` (else a conjecture past that heap).
    #[pyo3(
        signature = (to, *, start = None, max = None, by_formula = FormulaArg::Flag(false)),
        text_signature = "(self, /, to, *, start=1, max=None, by_formula=False)"
    )]
    fn count_heaps<'py>(
        &self,
        py: Python<'py>,
        to: Whole<To>,
        start: Option<Whole<Start>>,
        max: Option<Whole<Max>>,
        by_formula: FormulaArg,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (start, to) = (optional(start)?.unwrap_or(1), to.get()?);
        let max = optional(max)?;
        let by_formula = match by_formula {
            FormulaArg::Flag(false) => ByFormula::No,
            FormulaArg::Flag(true) => ByFormula::Guessed,
            FormulaArg::Text(text) => ByFormula::Given(text.parse().map_err(to_py)?),
        };
        // The report says how the counts were had, as the CLI's does: the
        // library's own choice, not the game's table.
        let found = watched(py, || {
            heap_histogram(&self.rules, start, to, max, &by_formula, &self.solver)
        });
        let histogram = self.rules.checked(found)?;
        count_document(py, &CountReport::new(&self.written, start, to, &histogram))
    }

    /// The winning moves of every heap of `start..=to`: the document
    /// `grundy moves GAME --to N --format json` prints, its counts as
    /// `int`s. `heaps` lists each heap's `value`, `winning_moves` (its
    /// moves to value 0), `fewest_taken` and `most_taken` (tokens a winning
    /// move removes; `None` without one); `by_value` counts the heaps of
    /// each value and their winning moves; `winning_moves` is the total.
    /// With `rows=False` only the counts are made, and a range of a code
    /// whose moves leave at most two heaps is counted through its proven
    /// period (`through_period`), so `to` may be as large as 2^64 - 1.
    /// A script's `positions` (heaps, tuples of ints or their text
    /// `"[3,4]"`) in place of `to` list every position reachable from them,
    /// each with its winning `moves`. `max_options` bounds the options
    /// listed for one heap (codes that move into many heaps). `progress`
    /// as for `values`.
    #[pyo3(
        signature = (
            to = None, *, start = None, positions = None, rows = true, max_options = None,
            progress = None
        ),
        text_signature = "(self, /, to=None, *, start=0, positions=None, rows=True, \
                          max_options=10000000, progress=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn winning_moves<'py>(
        &self,
        py: Python<'py>,
        to: Option<Whole<To>>,
        start: Option<Whole<Start>>,
        positions: Option<Vec<Bound<'py, PyAny>>>,
        rows: bool,
        max_options: Option<Whole<MaxOptions>>,
        progress: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (start, to) = (optional(start)?.unwrap_or(0), optional(to)?);
        let positions = written_positions(positions)?;
        let max_options = optional(max_options)?.unwrap_or(grundy::LISTED_OPTIONS_LIMIT);
        let rows_told = to.map_or(positions.len() as u64, |to| to.saturating_add(1));
        let told = Progress::new(py, progress.as_ref(), rows_told, "moves")?;
        let game = MovesGame::Heaps(self.rules.clone());
        let found = reporting(py, &told, |progress| {
            let query = MovesQuery {
                from: start,
                to,
                positions: &positions,
                rows,
                max_rows: None,
                solver: &self.solver,
                max_options,
                work_limit: session::DEFAULT_WORK,
            };
            session::moves(&self.written, &game, &query, &mut |n, _| progress(n))
        });
        count_document(py, &self.rules.checked(found)?)
    }

    /// Positions of `heaps` heaps with sizes in `start..=to` (from heap 1,
    /// as `grundy count`, unless `start` says otherwise), counted by
    /// nim-sum. `order` is `"ordered"` (tuples), `"ordered-distinct"`,
    /// `"unordered"` (multisets) or `"distinct"` (sets); `modulo` gives
    /// counts modulo an integer instead of exact ones. `progress` as for
    /// `values` (told the heaps of `0..=to` computed; a count through a
    /// proven period ends early).
    #[pyo3(
        signature = (
            to, heaps, *, start = None, order = "ordered", modulo = None, max = None,
            progress = None
        ),
        text_signature = "(self, /, to, heaps, *, start=1, order='ordered', modulo=None, \
                          max=None, progress=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn count(
        &self,
        py: Python<'_>,
        to: Whole<To>,
        heaps: Whole<Heaps>,
        start: Option<Whole<Start>>,
        order: &str,
        modulo: Option<Whole<Modulo>>,
        max: Option<Whole<Max>>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<NimSumCounts> {
        let (start, to) = (optional(start)?.unwrap_or(1), to.get()?);
        let modulo = optional(modulo)?;
        let query = CountQuery {
            heaps: Some(heaps.get()?),
            order: tuples(order)?,
            modulus: modulo,
            ..CountQuery::default()
        };
        query.arithmetic().map_err(to_py)?;
        let told = Progress::new(py, progress.as_ref(), to.saturating_add(1), "count")?;
        let max = optional(max)?;
        let histogram = self.histogram_of(py, start, to, max, &ByFormula::No, &told)?;
        let counts = py
            .detach(|| session::count_histograms(std::slice::from_ref(&histogram), &query))
            .map_err(to_py)?;
        Ok(NimSumCounts::new(counts, modulo))
    }

    /// Heaps of this game played together: their values, nim-sum, who wins
    /// and every winning move.
    fn analyze_sum(&self, py: Python<'_>, heaps: Vec<Whole<Heap>>) -> PyResult<SumAnalysis> {
        let heaps = heaps
            .iter()
            .map(Whole::index)
            .collect::<PyResult<Vec<_>>>()?;
        self.sum_of(py, &heaps)
    }

    /// Misère play (the last player to move loses): who wins `heaps` played
    /// together, and every winning move, by memoized search over multisets
    /// of heaps (Bouton's rule for Nim heaps and the tame rule for
    /// hereditarily tame heaps spare most of it). Stops with `GrundyError`
    /// past `budget` positions.
    #[pyo3(
        signature = (heaps, *, budget = None),
        text_signature = "(self, /, heaps, *, budget=5000000)"
    )]
    fn misere(
        &self,
        py: Python<'_>,
        heaps: Vec<Whole<Heap>>,
        budget: Option<Whole<Budget>>,
    ) -> PyResult<MisereAnalysis> {
        let heaps = heaps
            .iter()
            .map(Whole::index)
            .collect::<PyResult<Vec<_>>>()?;
        let budget = index_or(budget, 5_000_000)?;
        let found = watched(py, || session::misere_sum(&self.rules, &heaps, 3, budget));
        let (value, moves) = self.rules.checked(found)?;
        MisereAnalysis::new(py, &heaps, value, moves)
    }

    /// Conway's genus of heaps `0..=to` (`terms` misère values each): a
    /// list of `Genus`.
    #[pyo3(
        signature = (to, *, terms = None, budget = None),
        text_signature = "(self, /, to, *, terms=6, budget=5000000)"
    )]
    fn genus(
        &self,
        py: Python<'_>,
        to: Whole<To>,
        terms: Option<Whole<Terms>>,
        budget: Option<Whole<Budget>>,
    ) -> PyResult<Vec<Genus>> {
        let to = to.index()?;
        let terms = index_or(terms, 6)?;
        let budget = index_or(budget, 5_000_000)?;
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
    #[pyo3(
        signature = (max_heap, *, max_fold = 5, budget = None),
        text_signature = "(self, /, max_heap, *, max_fold=5, budget=5000000)"
    )]
    fn misere_quotient(
        &self,
        py: Python<'_>,
        max_heap: Whole<MaxHeap>,
        max_fold: u32,
        budget: Option<Whole<Budget>>,
    ) -> PyResult<Quotient> {
        let max_heap = max_heap.index()?;
        let budget = index_or(budget, 5_000_000)?;
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

    /// How many heaps the game's table holds now (`values`, `analyze` and
    /// counts of short ranges fill it; `clear_cache` empties it).
    #[getter]
    fn cached(&self, py: Python<'_>) -> PyResult<usize> {
        detached(py, |_| Ok(self.lock_table()?.len()))
    }
}

/// The optional size `arg` as an index, `default` when not given.
fn index_or<N>(arg: Option<Whole<N>>, default: usize) -> PyResult<usize> {
    arg.map_or(Ok(default), |a| a.index())
}

/// Adds `count` heaps of value `value` to `counts`.
fn add(counts: &mut Vec<u128>, value: usize, count: u128) {
    if counts.len() <= value {
        counts.resize(value + 1, 0);
    }
    counts[value] += count;
}

/// A script's positions as Python gives them (a heap `7`, a tuple of
/// ints `(3, 4)`, or the text `"[3,4]"`), written as the library reads
/// them; none when `None`.
pub(crate) fn written_positions(items: Option<Vec<Bound<'_, PyAny>>>) -> PyResult<Vec<String>> {
    items
        .unwrap_or_default()
        .iter()
        .map(written_position)
        .collect()
}

/// One position of [`written_positions`].
fn written_position(item: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = item.extract::<String>() {
        return Ok(text);
    }
    if let Ok(heap) = item.extract::<u64>() {
        return Ok(heap.to_string());
    }
    let items: Vec<i64> = item.extract().map_err(|_| {
        PyTypeError::new_err(
            "a script's position is a heap (an int), a tuple of ints, or its text such as \
             '[3,4]'",
        )
    })?;
    let items: Vec<String> = items.iter().map(ToString::to_string).collect();
    Ok(format!("[{}]", items.join(",")))
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
