//! Questions about a value stream, the file a record run writes (`grundy
//! analyze --values-out FILE`, [`crate::solve::ValueStream`]): whether it
//! is whole (`grundy stream verify`: its checksums) and right (`--recompute`:
//! its values computed again), the values of a range of
//! heaps (`stream cat`), and the histogram of a prefix (`stream hist`).

use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::report::{StreamHistogramReport, StreamValuesReport, StreamVerifyReport};
use crate::scratch::ScratchFile;
use crate::solve::{Recompute, ValueStream, verify_stream};
use crate::{Error, Knob, Result};

/// The most heaps [`stream_values`] lists at once.
pub const STREAM_LISTED_HEAPS: u64 = 10_000_000;

/// The heaps the stream at `path` holds (its header, checked).
pub fn stream_heaps(path: &Path) -> Result<u64> {
    Ok(ValueStream::open(path)?.heaps)
}

/// What `grundy stream verify --recompute` asks besides the checksums:
/// the values computed again with the windowed engine.
#[derive(Clone, Debug)]
pub struct RecomputeQuery {
    /// The most bytes the recomputation's window may take.
    pub memory_limit: u64,
    /// Go on from this checkpoint of the run that wrote the stream,
    /// instead of computing from heap 0 (see [`crate::solve::Recompute`]).
    pub from: Option<PathBuf>,
}

/// Checks the stream at `path`, chunks `chunks` (every chunk when
/// `None`): each against the checksum it stores and the root against
/// every chunk's, reading those chunks once and computing nothing — damage
/// to the file is refused with [`Error::Stream`] naming the heaps. With
/// `recompute`, every chunk's checksum is checked, and then `chunks` are
/// computed again with the windowed engine (from heap 0, or from a
/// checkpoint) and compared value by value: what a run wrote is checked,
/// not only what the disk kept. `progress` hears the heaps checked or
/// recomputed; returning false stops the check.
pub fn stream_verify(
    path: &Path,
    chunks: Option<Range<u64>>,
    recompute: Option<RecomputeQuery>,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<StreamVerifyReport> {
    let Some(query) = recompute else {
        let stream = ValueStream::open(path)?;
        let chunks = stream.chunk_range(chunks)?;
        stream.check(chunks.clone(), progress)?;
        return Ok(StreamVerifyReport::new(
            stream.game,
            stream.heaps,
            stream.root,
            chunks,
            None,
        ));
    };
    let scratch = ScratchFile::beside(path, "verify");
    let recompute = Recompute {
        scratch: scratch.path().to_owned(),
        memory_limit: query.memory_limit,
        from: query.from,
    };
    let (stream, chunks, start) =
        verify_stream(path, chunks, &recompute, &mut |p| progress(p.heaps))?;
    let every = 0..stream.chunks();
    Ok(StreamVerifyReport::new(
        stream.game,
        stream.heaps,
        stream.root,
        every,
        Some((chunks, start)),
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
