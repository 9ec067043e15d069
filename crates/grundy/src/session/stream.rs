//! Questions about a value stream, the file a record run writes (`grundy
//! analyze --values-out FILE`, [`crate::solve::ValueStream`]): whether it
//! is whole and right (`grundy stream verify`), the values of a range of
//! heaps (`stream cat`), and the histogram of a prefix (`stream hist`).

use std::ops::Range;
use std::path::{Path, PathBuf};

use super::Scratch;
use crate::report::{StreamHistogramReport, StreamValuesReport, StreamVerifyReport};
use crate::solve::{ValueStream, verify_stream};
use crate::{Error, Knob, Result};

/// The most heaps [`stream_values`] lists at once.
pub const STREAM_LISTED_HEAPS: u64 = 10_000_000;

/// The heaps the stream at `path` holds (its header, checked).
pub fn stream_heaps(path: &Path) -> Result<u64> {
    Ok(ValueStream::open(path)?.heaps)
}

/// Checks the stream at `path`: every chunk against its checksum and the
/// root, then recomputes `chunks` (every chunk when `None`) with the
/// windowed engine within `memory_limit` bytes and compares them value by
/// value. `progress` hears how many heaps are recomputed; returning false
/// stops the check.
pub fn stream_verify(
    path: &Path,
    chunks: Option<Range<u64>>,
    memory_limit: u64,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<StreamVerifyReport> {
    let mut scratch = path.as_os_str().to_owned();
    scratch.push(format!(".verify-{}", std::process::id()));
    let scratch = Scratch(PathBuf::from(scratch));
    let (stream, chunks) = verify_stream(path, chunks, &scratch.0, memory_limit, &mut |p| {
        progress(p.heaps)
    })?;
    Ok(StreamVerifyReport::new(
        stream.game,
        stream.heaps,
        stream.root,
        chunks,
    ))
}

/// The values of heaps `from..=to` of the stream at `path` (to its last
/// heap, at most [`STREAM_LISTED_HEAPS`] of them, when `to` is `None`).
pub fn stream_values(path: &Path, from: u64, to: Option<u64>) -> Result<StreamValuesReport> {
    let stream = ValueStream::open(path)?;
    let last = stream.heaps.saturating_sub(1);
    let to = to.unwrap_or(last.min(from.saturating_add(STREAM_LISTED_HEAPS - 1)));
    if to.saturating_sub(from) >= STREAM_LISTED_HEAPS {
        return Err(Error::Refused {
            reason: format!("a stream lists at most {STREAM_LISTED_HEAPS} heaps at once"),
            knob: Knob::To,
        });
    }
    let values = stream.values(from, to)?;
    Ok(StreamValuesReport {
        game: stream.game,
        from,
        values,
    })
}

/// How many heaps of `1..=to` (to the stream's last heap when `None`) of
/// the stream at `path` have each value.
pub fn stream_histogram(path: &Path, to: Option<u64>) -> Result<StreamHistogramReport> {
    let stream = ValueStream::open(path)?;
    let last = stream.heaps.saturating_sub(1);
    let to = to.unwrap_or(last);
    if to > last {
        return Err(Error::Refused {
            reason: format!("the stream holds heaps 0..={last}, not {to}"),
            knob: Knob::To,
        });
    }
    let counts = stream.histogram(to)?;
    Ok(StreamHistogramReport::new(stream.game, to, &counts))
}
