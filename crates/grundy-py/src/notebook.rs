//! What notebooks see: the classes' HTML, plots, pandas tables and NumPy
//! arrays are made by the pure-Python module `grundy._notebook`, which
//! imports matplotlib, pandas, NumPy and tqdm only when asked (each is
//! optional); the classes here call it.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The function `grundy._notebook.NAME`.
fn helper<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("grundy._notebook")?.getattr(name)
}

/// The HTML of any of the package's objects (`_repr_html_`).
pub fn html(object: &Bound<'_, PyAny>) -> PyResult<String> {
    helper(object.py(), "html")?.call1((object,))?.extract()
}

/// A value table (an `array.array`) as a NumPy array over the same memory
/// where NumPy is installed, else as it is.
pub fn values<'py>(array: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    helper(array.py(), "values_array")?.call1((array,))
}

/// Counts by value (`counts[v]`) as a NumPy `int64` array where NumPy is
/// installed (an object array past 2^63), else a list of `int`.
pub fn counts<'py>(py: Python<'py>, counts: &[u128]) -> PyResult<Bound<'py, PyAny>> {
    helper(py, "counts_array")?.call1((counts.to_vec(),))
}

/// A plot of `object` (`kind` says which), on `ax` when given, with its
/// long axis (heaps, or counts) logarithmic when `log`: the matplotlib
/// `Axes`.
pub fn plot<'py>(
    object: &Bound<'py, PyAny>,
    kind: &str,
    ax: Option<Bound<'py, PyAny>>,
    log: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = object.py();
    let keywords = PyDict::new(py);
    keywords.set_item("kind", kind)?;
    keywords.set_item("ax", ax)?;
    keywords.set_item("log", log)?;
    helper(py, "plot")?.call((object,), Some(&keywords))
}

/// `object.to_pandas(what)`: a `pandas.DataFrame`.
pub fn to_pandas<'py>(object: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyAny>> {
    helper(object.py(), "to_pandas")?.call1((object, what))
}
