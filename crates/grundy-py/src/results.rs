//! What the engine's answers look like from Python: analyses, sums and
//! their winning moves, and counts by nim-sum.

use grundy::report::{AnalysisReport, PlotDescription};
use grundy::session::{self, Certificate, Support};
use grundy::{BigUint, Nimber};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyString, PyTuple};

use crate::errors::{N, Whole, to_py};
use crate::notebook;
use crate::values::{encode, to_array};

/// The most P-positions [`Analysis::p_positions`] lists.
const P_POSITIONS_LISTED: u64 = 10_000_000;

/// The analysis of a heap game: its values, the period they show and
/// whether a theorem proves it. Made by `Game.analyze()`.
#[pyclass(frozen, module = "grundy")]
pub struct Analysis {
    found: session::Analysis,
    /// The game as the user wrote it, which the report names.
    written: String,
}

impl Analysis {
    pub fn new(found: session::Analysis, written: String) -> Analysis {
        Analysis { found, written }
    }

    fn period_field<T>(&self, field: impl Fn(&session::Periodicity) -> T) -> Option<T> {
        self.found.periodicity.as_ref().map(field)
    }
}

#[pymethods]
impl Analysis {
    /// The game's canonical specification.
    #[getter]
    fn game(&self) -> &str {
        &self.found.game
    }

    /// The values computed, `g(0..=computed_to)`: a NumPy array where
    /// NumPy is installed, an `array.array` otherwise (as `Game.values`).
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        notebook::values(to_array(
            py,
            encode(&self.found.values, self.found.values.len()),
        )?)
    }

    /// The largest heap computed.
    #[getter]
    fn computed_to(&self) -> usize {
        self.found.computed_to()
    }

    /// The minimal period, if the values show one.
    #[getter]
    fn period(&self) -> Option<usize> {
        self.period_field(|p| p.period)
    }

    /// The pre-period: the first heap from which the period holds.
    #[getter]
    fn preperiod(&self) -> Option<usize> {
        self.period_field(|p| p.preperiod)
    }

    /// The saltus `s` of an arithmetic period, `g(n + p) = g(n) + s`
    /// (0 for a plain period).
    #[getter]
    fn saltus(&self) -> Option<u64> {
        self.period_field(|p| p.saltus)
    }

    /// Whether the period holds for every heap (proven by a theorem or a
    /// closed form), not only for the heaps computed.
    #[getter]
    fn proven(&self) -> bool {
        self.found.is_proven()
    }

    /// How the period is supported: `"theorem"`, `"closed-form"`,
    /// `"observed"` or `"none"` (the spelling of the CLI's JSON).
    #[getter]
    fn support(&self) -> &'static str {
        self.found.support_label()
    }

    /// The periodicity theorem that applies to the game, if any.
    #[getter]
    fn theorem(&self) -> Option<&'static str> {
        self.found.theorem.map(|t| t.name())
    }

    /// The largest heap whose value the proof used (proven periods), or
    /// that a proof of the observed period would need.
    #[getter]
    fn last_heap_needed(&self) -> Option<usize> {
        match self.found.support {
            Support::Proven {
                last_heap_needed, ..
            } => Some(last_heap_needed),
            _ => self.found.heaps_needed_for_proof(),
        }
    }

    /// The last heap the analysis answers for: `computed_to`, or further
    /// when `analyze(to=N)` reached past the proof of the period (the
    /// histogram, P-positions and largest value cover `0..=to`).
    #[getter]
    fn to(&self) -> usize {
        self.found.to
    }

    /// The heaps of `0..=to` with value 0, in order: the player to move
    /// there loses. Raises `ValueError` when there are more than 10^7 of
    /// them (`p_position_count` counts them without a list).
    #[getter]
    fn p_positions(&self) -> PyResult<Vec<usize>> {
        let count = self.found.p_position_count();
        if count > P_POSITIONS_LISTED {
            return Err(PyValueError::new_err(format!(
                "{count} P-positions in 0..={}, more than {P_POSITIONS_LISTED} to list; \
                 p_position_count counts them",
                self.found.to
            )));
        }
        Ok(self.found.p_positions().collect())
    }

    /// How many heaps of `0..=to` have value 0.
    #[getter]
    fn p_position_count(&self) -> u64 {
        self.found.p_position_count()
    }

    /// Heaps before the pre-period whose values break the period.
    #[getter]
    fn exceptions(&self) -> Vec<usize> {
        self.found.exceptions().collect()
    }

    /// How many heaps of `0..=to` have each value: `histogram[v]` heaps
    /// have value `v` (a NumPy `int64` array where NumPy is installed, a
    /// list of `int` otherwise).
    #[getter]
    fn histogram<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut counts: Vec<u128> = Vec::new();
        for (value, count) in self.found.histogram() {
            let value = value.index();
            if counts.len() <= value {
                counts.resize(value + 1, 0);
            }
            counts[value] = u128::from(count);
        }
        notebook::counts(py, &counts)
    }

    /// `g(n)` for any heap: computed, or predicted by a proven period (so
    /// `n` may be far beyond `computed_to`). Raises `IndexError` past the
    /// computed heaps when no period is proven.
    fn value(&self, n: Whole<N>) -> PyResult<u64> {
        let (heap, n) = (n.index()?, n.get()?);
        if let Some(v) = self.found.values.get(heap) {
            return Ok(u64::from(v));
        }
        self.found
            .proven_periodicity()
            .and_then(|p| p.predict(&self.found.values, heap))
            .ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "heap {n} is past the computed heaps 0..={} and no period is proven",
                    self.found.computed_to()
                ))
            })
    }

    /// The analysis as the document `grundy analyze --format json` prints
    /// and the web playground serves (a `dict`): the same fields, made by
    /// the same library report.
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        document(py, &AnalysisReport::new(&self.written, &self.found))
    }

    /// The periodicity certificate as JSON text (what `grundy analyze
    /// --certificate` writes), or `None` unless a theorem proved the period.
    fn certificate(&self) -> PyResult<Option<String>> {
        Certificate::from_analysis(&self.found)
            .map(|c| serde_json::to_string_pretty(&c))
            .transpose()
            .map_err(|e| {
                to_py(grundy::Error::InvalidCertificate {
                    reason: e.to_string(),
                })
            })
    }

    fn __repr__(&self) -> String {
        let period = match self.found.periodicity {
            Some(p) => format!(
                "period={}, preperiod={}, saltus={}, {}",
                p.period,
                p.preperiod,
                p.saltus,
                self.support()
            ),
            None => "no period".to_owned(),
        };
        format!(
            "Analysis(game={:?}, computed_to={}, {period})",
            self.found.game,
            self.found.computed_to()
        )
    }

    /// The game, its period and proof, the first values (P-positions
    /// marked) and the histogram, as HTML (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        notebook::html(slf.as_any())
    }

    /// The picture every door draws of these values (`grundy plot`, the
    /// web's `/api/plot`, [`Analysis.plot`]): `title`, `last_heap`,
    /// `largest`, `value_ticks` (whole numbers), `period` (shaded),
    /// `rare_mask` (the rare/common split, when the values have one) and
    /// `values` (each value's `heaps` and `class`: `p`, `rare` or
    /// `common`).
    #[getter]
    fn plot_description<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let title = format!("{}, g(0..={})", self.written, self.found.to);
        document(py, &PlotDescription::new(title, &self.found))
    }

    /// A matplotlib plot, returned as its `Axes` (drawn on `ax` when given):
    /// `kind="values"` scatters `g(n)` against `n` as [`plot_description`]
    /// says (whole-number ticks, P-positions red, rare values orange and
    /// common ones blue where the values split so, the period shaded);
    /// `kind="histogram"` draws the heaps of each value as bars, coloured
    /// alike.
    /// `logx=True` puts the heaps on a logarithmic axis (symlog, so heap 0
    /// stays), for long runs. Needs matplotlib.
    #[pyo3(
        signature = (*, kind = "values", ax = None, logx = false),
        text_signature = "(self, /, *, kind='values', ax=None, logx=False)"
    )]
    fn plot<'py>(
        slf: &Bound<'py, Self>,
        kind: &str,
        ax: Option<Bound<'py, PyAny>>,
        logx: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        notebook::plot(slf.as_any(), kind, ax, logx)
    }

    /// A `pandas.DataFrame`: `what="values"` has columns `heap` and `value`
    /// (one row per computed heap), `what="histogram"` columns `value` and
    /// `heaps` (one row per value that occurs in `0..=to`). Needs pandas.
    #[pyo3(signature = (what = "values"))]
    fn to_pandas<'py>(slf: &Bound<'py, Self>, what: &str) -> PyResult<Bound<'py, PyAny>> {
        notebook::to_pandas(slf.as_any(), what)
    }
}

/// A report as the Python value of its JSON document.
pub fn document<'py>(
    py: Python<'py>,
    report: &impl serde::Serialize,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(report).map_err(|e| {
        pyo3::exceptions::PyValueError::new_err(format!("the report does not serialize: {e}"))
    })?;
    py.import("json")?.call_method1("loads", (text,))
}

/// The fields of the count reports (`grundy count --format json`) whose
/// counts JSON writes as decimal strings (they outgrow 2^53): in Python
/// they are `int`s, under the same names. `histogram` and `by_nim_sum` are
/// lists of `[value, count]` pairs.
const COUNT_FIELDS: [&str; 11] = [
    "heaps",
    "p_positions",
    "n_positions",
    "total",
    "cells",
    "per_nim_sum",
    "positions",
    "heap_count",
    "position_count",
    "coin_count",
    "winning_moves",
];
const COUNT_PAIRS: [&str; 2] = ["histogram", "by_nim_sum"];

/// A count report as [`document`] gives it, with its counts as `int`s.
pub fn count_document<'py>(
    py: Python<'py>,
    report: &impl serde::Serialize,
) -> PyResult<Bound<'py, PyAny>> {
    let found = document(py, report)?;
    counts_as_ints(&found)?;
    Ok(found)
}

/// Turns the decimal strings of [`COUNT_FIELDS`] and [`COUNT_PAIRS`] into
/// `int`s, at any depth.
fn counts_as_ints(value: &Bound<'_, PyAny>) -> PyResult<()> {
    if let Ok(dict) = value.cast::<PyDict>() {
        let items: Vec<_> = dict.iter().collect();
        for (key, item) in items {
            let key_text = key.extract::<String>().unwrap_or_default();
            if COUNT_FIELDS.contains(&key_text.as_str())
                && let Some(n) = int(&item)?
            {
                dict.set_item(&key, n)?;
            } else if COUNT_PAIRS.contains(&key_text.as_str())
                && let Ok(pairs) = item.cast::<PyList>()
            {
                for pair in pairs.iter() {
                    if let Ok(pair) = pair.cast::<PyList>()
                        && pair.len() == 2
                        && let Some(n) = int(&pair.get_item(1)?)?
                    {
                        pair.set_item(1, n)?;
                    }
                }
            } else {
                counts_as_ints(&item)?;
            }
        }
    } else if let Ok(list) = value.cast::<PyList>() {
        for item in list.iter() {
            counts_as_ints(&item)?;
        }
    }
    Ok(())
}

/// `text` as an `int` when it is a count written in decimal.
fn int<'py>(text: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    match text.cast::<PyString>() {
        Ok(written) if decimal(&written.to_cow()?) => {
            Ok(Some(text.py().get_type::<PyInt>().call1((written,))?))
        }
        _ => Ok(None),
    }
}

/// Whether `text` is a count written in decimal.
fn decimal(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// `g(n)` through a periodicity, for heaps that may not fit a `usize`.
/// A winning move: component `component` goes from `before` to the
/// positions in `after` (none when it disappears).
#[pyclass(frozen, module = "grundy")]
pub struct Move {
    /// The 0-based index of the component moved in.
    #[pyo3(get)]
    component: usize,
    /// The component before the move.
    #[pyo3(get)]
    before: Py<PyAny>,
    /// What it becomes: a tuple of positions played together.
    #[pyo3(get)]
    after: Py<PyTuple>,
}

#[pymethods]
impl Move {
    /// As HTML (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        notebook::html(slf.as_any())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Move(component={}, before={}, after={})",
            self.component,
            self.before.bind(py).repr()?,
            self.after.bind(py).repr()?
        ))
    }
}

/// Positions played together: each one's value, the nim-sum, who wins and
/// every winning move (a move to nim-sum 0).
#[pyclass(frozen, module = "grundy")]
pub struct SumAnalysis {
    /// The value of each component, in order.
    #[pyo3(get)]
    values: Vec<u32>,
    /// The XOR of the values: the first player wins when it is not 0.
    #[pyo3(get)]
    nim_sum: u32,
    /// The winning moves, by component (the first 10,000 of a sum with a
    /// huge heap); empty when the player to move loses.
    #[pyo3(get)]
    winning_moves: Vec<Py<Move>>,
    /// How many winning moves there are in all.
    #[pyo3(get)]
    winning_move_count: u64,
}

impl SumAnalysis {
    /// A sum whose moves are `(component, before, after)` with Python
    /// positions.
    pub fn new(
        py: Python<'_>,
        values: &[Nimber],
        moves: Vec<(usize, Py<PyAny>, Vec<Py<PyAny>>)>,
    ) -> PyResult<SumAnalysis> {
        let winning_moves = moves
            .into_iter()
            .map(|(component, before, after)| {
                let after = PyTuple::new(py, after)?.unbind();
                Py::new(
                    py,
                    Move {
                        component,
                        before,
                        after,
                    },
                )
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(SumAnalysis {
            values: values.iter().map(|v| v.get()).collect(),
            nim_sum: values.iter().copied().sum::<Nimber>().get(),
            winning_move_count: winning_moves.len() as u64,
            winning_moves,
        })
    }

    /// The nim-sum of the values.
    pub fn nim_sum(&self) -> u32 {
        self.nim_sum
    }

    /// A sum of heaps, from the engine's answer.
    pub fn of_heaps(py: Python<'_>, found: grundy::SumAnalysis) -> PyResult<SumAnalysis> {
        let moves = found
            .winning_moves
            .into_iter()
            .map(|m| {
                let before = m.from.into_pyobject(py)?.into_any().unbind();
                let after =
                    m.to.into_iter()
                        .map(|heap| Ok(heap.into_pyobject(py)?.into_any().unbind()))
                        .collect::<PyResult<_>>()?;
                Ok((m.component, before, after))
            })
            .collect::<PyResult<_>>()?;
        let count = found.winning_move_count;
        let mut sum = SumAnalysis::new(py, &found.values, moves)?;
        sum.winning_move_count = count;
        Ok(sum)
    }
}

#[pymethods]
impl SumAnalysis {
    /// As HTML (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        notebook::html(slf.as_any())
    }

    /// Whether `winning_moves` lists every winning move.
    #[getter]
    fn complete(&self) -> bool {
        self.winning_moves.len() as u64 == self.winning_move_count
    }

    /// Whether the player to move wins.
    #[getter]
    fn first_player_wins(&self) -> bool {
        self.nim_sum != 0
    }

    /// `"first"` or `"second"`: who wins with perfect play.
    #[getter]
    fn winner(&self) -> &'static str {
        if self.nim_sum != 0 { "first" } else { "second" }
    }

    fn __repr__(&self) -> String {
        format!(
            "SumAnalysis(values={:?}, nim_sum={}, winner={:?}, winning_moves={})",
            self.values,
            self.nim_sum,
            self.winner(),
            self.winning_moves.len()
        )
    }
}

/// Positions counted by nim-sum: `by_nim_sum[v]` positions have nim-sum
/// `v`; `p_positions` (nim-sum 0) are those the player to move loses.
/// Counts are exact `int`s, or residues modulo `modulo`.
#[pyclass(frozen, module = "grundy")]
pub struct NimSumCounts {
    /// Positions with each nim-sum.
    #[pyo3(get)]
    by_nim_sum: Vec<BigUint>,
    /// All positions counted.
    #[pyo3(get)]
    total: BigUint,
    /// The modulus of the counts, or `None` for exact counts.
    #[pyo3(get)]
    modulo: Option<u64>,
    /// Positions of nim-sum other than 0: first-player wins (modulo
    /// `modulo` when given).
    #[pyo3(get)]
    n_positions: BigUint,
}

impl NimSumCounts {
    pub fn new(counts: session::NimSumCounts, modulo: Option<u64>) -> NimSumCounts {
        NimSumCounts {
            n_positions: counts.n_positions(modulo),
            by_nim_sum: counts.by_nim_sum,
            total: counts.total,
            modulo,
        }
    }
}

#[pymethods]
impl NimSumCounts {
    /// The positions of each nim-sum as bars (a matplotlib `Axes`, drawn
    /// on `ax` when given; `logy=True` for counts of many sizes). Needs
    /// matplotlib.
    #[pyo3(
        signature = (*, ax = None, logy = false),
        text_signature = "(self, /, *, ax=None, logy=False)"
    )]
    fn plot<'py>(
        slf: &Bound<'py, Self>,
        ax: Option<Bound<'py, PyAny>>,
        logy: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        notebook::plot(slf.as_any(), "nim_sums", ax, logy)
    }

    /// A `pandas.DataFrame` with columns `nim_sum` and `positions`, one row
    /// per nim-sum (counts are exact `int`s, of dtype `object` when one
    /// passes 2^63). Needs pandas.
    fn to_pandas<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        notebook::to_pandas(slf.as_any(), "nim_sums")
    }

    /// As HTML (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        notebook::html(slf.as_any())
    }

    /// Positions of nim-sum 0: second-player wins.
    #[getter]
    fn p_positions(&self) -> BigUint {
        self.by_nim_sum.first().cloned().unwrap_or_default()
    }

    fn __repr__(&self) -> String {
        let modulo = self
            .modulo
            .map(|m| format!(", modulo={m}"))
            .unwrap_or_default();
        format!(
            "NimSumCounts(total={}, p_positions={}{modulo})",
            self.total,
            self.p_positions()
        )
    }
}

/// Heaps played misère (the last player to move loses): the misère Grundy
/// number (0 exactly when the player to move loses), the winner and every
/// winning move. Made by `Game.misere()`.
#[pyclass(frozen, module = "grundy")]
pub struct MisereAnalysis {
    /// The misère Grundy number of the position: 0 when the player to move
    /// loses.
    #[pyo3(get)]
    misere_value: u32,
    /// Every winning move.
    #[pyo3(get)]
    winning_moves: Vec<Py<Move>>,
}

impl MisereAnalysis {
    pub fn new(
        py: Python<'_>,
        heaps: &[usize],
        misere_value: u32,
        moves: Vec<grundy::session::MisereMove>,
    ) -> PyResult<MisereAnalysis> {
        let winning_moves = moves
            .into_iter()
            .map(|m| {
                let after = PyTuple::new(py, m.to)?.unbind();
                let before = heaps[m.component].into_pyobject(py)?.into_any().unbind();
                Py::new(
                    py,
                    Move {
                        component: m.component,
                        before,
                        after,
                    },
                )
            })
            .collect::<PyResult<_>>()?;
        Ok(MisereAnalysis {
            misere_value,
            winning_moves,
        })
    }
}

#[pymethods]
impl MisereAnalysis {
    /// As HTML (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        notebook::html(slf.as_any())
    }

    /// `"first"` or `"second"`.
    #[getter]
    fn winner(&self) -> &'static str {
        if self.misere_value != 0 {
            "first"
        } else {
            "second"
        }
    }

    /// Whether the player to move wins.
    #[getter]
    fn first_player_wins(&self) -> bool {
        self.misere_value != 0
    }

    fn __repr__(&self) -> String {
        format!(
            "MisereAnalysis(misere_value={}, winner={:?}, winning_moves={})",
            self.misere_value,
            self.winner(),
            self.winning_moves.len()
        )
    }
}

/// Conway's genus of a heap, `g^{γ0 γ1 …}`: the normal value `g` and the
/// misère Grundy numbers `γk` of the heap with `k` extra copies of `*2`.
#[pyclass(frozen, module = "grundy")]
pub struct Genus {
    genus: grundy::session::Genus,
}

impl Genus {
    pub fn new(genus: grundy::session::Genus) -> Genus {
        Genus { genus }
    }
}

#[pymethods]
impl Genus {
    /// As HTML (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        notebook::html(slf.as_any())
    }

    /// The normal-play value `g`.
    #[getter]
    fn normal(&self) -> u32 {
        self.genus.normal.get()
    }

    /// `[γ0, γ1, …]`.
    #[getter]
    fn misere(&self) -> Vec<u32> {
        self.genus.misere.clone()
    }

    /// Whether this is the genus of a Nim position (a tame game).
    #[getter]
    fn tame(&self) -> bool {
        self.genus.is_tame()
    }

    fn __str__(&self) -> String {
        self.genus.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Genus({:?})", self.genus.to_string())
    }
}

/// A misère quotient: generators (letters for heaps), a presentation, the
/// P-portion, and outcomes of any sum of heaps read off it. Made by
/// `Game.misere_quotient()`.
#[pyclass(frozen, module = "grundy")]
pub struct Quotient {
    quotient: grundy::session::MisereQuotient,
}

impl Quotient {
    pub fn new(quotient: grundy::session::MisereQuotient) -> Quotient {
        Quotient { quotient }
    }
}

#[pymethods]
impl Quotient {
    /// As HTML (what Jupyter shows).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        notebook::html(slf.as_any())
    }

    /// The number of elements.
    fn __len__(&self) -> usize {
        self.quotient.len()
    }

    /// `{letter: heap}` for the generators.
    #[getter]
    fn generators(&self) -> Vec<(String, usize)> {
        self.quotient.generators().collect()
    }

    /// The relations of the presentation, as text (`"a^2 = 1"`).
    #[getter]
    fn relations(&self) -> Vec<String> {
        let q = &self.quotient;
        q.relations()
            .iter()
            .map(|(l, r)| format!("{} = {}", q.spell(l), q.spell(r)))
            .collect()
    }

    /// The elements of the P-portion, as words.
    #[getter]
    fn p_portion(&self) -> Vec<String> {
        let q = &self.quotient;
        q.p_portion().map(|e| q.spell(q.word(e))).collect()
    }

    /// Every element, as its shortest word.
    #[getter]
    fn elements(&self) -> Vec<String> {
        let q = &self.quotient;
        (0..q.len()).map(|e| q.spell(q.word(e))).collect()
    }

    /// The element (as its shortest word) of heaps played together.
    fn element(&self, heaps: Vec<usize>) -> PyResult<String> {
        let q = &self.quotient;
        let e = q.element(&heaps).map_err(to_py)?;
        Ok(q.spell(q.word(e)))
    }

    /// Whether heaps played together are a misère P-position.
    fn loses(&self, heaps: Vec<usize>) -> PyResult<bool> {
        self.quotient.loses(&heaps).map_err(to_py)
    }

    fn __repr__(&self) -> String {
        format!(
            "Quotient(size={}, p_portion={:?})",
            self.quotient.len(),
            self.p_portion()
        )
    }
}
