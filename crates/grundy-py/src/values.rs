//! Value tables as Python `array.array`s: compact (one, two or four bytes a
//! heap, as the engine stores them; two for a table folded to a byte a
//! heap), indexable, and readable by NumPy without a copy
//! (`numpy.asarray(values)`), with no NumPy needed.

use grundy::{ValueSlice, ValueTable};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Heaps `0..len` of `table` in native byte order, with the `array`
/// typecode of their width (`B`, `H` or `I`).
pub fn encode(table: &ValueTable, len: usize) -> (&'static str, Vec<u8>) {
    match table.as_slice() {
        ValueSlice::U8(values) => ("B", values[..len].to_vec()),
        ValueSlice::U16(values) => (
            "H",
            values[..len].iter().flat_map(|v| v.to_ne_bytes()).collect(),
        ),
        // Values below 512 kept at a byte each: two bytes each here.
        ValueSlice::Folded(values) => (
            "H",
            values
                .to_u16(len)
                .iter()
                .flat_map(|v| v.to_ne_bytes())
                .collect(),
        ),
        ValueSlice::U32(values) => (
            "I",
            values[..len]
                .iter()
                .flat_map(|&v| u32::from(v).to_ne_bytes())
                .collect(),
        ),
    }
}

/// An `array.array` of the typecode holding `bytes`.
pub fn to_array<'py>(
    py: Python<'py>,
    (typecode, bytes): (&str, Vec<u8>),
) -> PyResult<Bound<'py, PyAny>> {
    let array = py.import("array")?.getattr("array")?.call1((typecode,))?;
    array.call_method1("frombytes", (PyBytes::new(py, &bytes),))?;
    Ok(array)
}
