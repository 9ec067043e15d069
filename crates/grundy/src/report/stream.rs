//! Reports of record runs and of the value streams they write.

use serde::Serialize;

use crate::analysis::RecordAnalysis;
use crate::solve::{Stage, WindowProgress};

/// `value count` pairs over heaps `1..=N`, for every value up to the
/// largest (zero counts included): the histograms Rogalski publishes for
/// octal games, line for line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueCount {
    /// The value.
    pub value: u32,
    /// How many heaps of `1..=N` have it.
    pub count: u64,
}

fn value_counts(counts: &[u64]) -> Vec<ValueCount> {
    let len = counts.iter().rposition(|&c| c > 0).map_or(0, |top| top + 1);
    (0u32..)
        .zip(&counts[..len])
        .map(|(value, &count)| ValueCount { value, count })
        .collect()
}

/// A root checksum as people compare it: 16 hexadecimal digits.
fn hex(root: u64) -> String {
    format!("{root:016x}")
}

/// What a windowed ("record") run adds to its [`AnalysisReport`](super::AnalysisReport):
/// `grundy analyze GAME --window`, or a run too large for a table.
#[derive(Clone, Debug, Serialize)]
pub struct RecordRun {
    /// `value count` over heaps `1..=N`, every value up to the largest:
    /// Rogalski's published format.
    pub histogram: Vec<ValueCount>,
    /// Heaps whose scan ran past the window and read the stream back.
    pub far_scans: u64,
    /// Values read back from the stream (far scans, rare-list rebuilds).
    pub values_read: u64,
    /// The most bytes the window held.
    pub window_bytes: u64,
    /// Bytes per value in the stream (a run that widens starts at one and
    /// goes on at two from the first value above 255).
    pub width: u8,
    /// The value stream, when one was kept (`--values-out`).
    pub stream: Option<String>,
    /// The stream's root checksum, 16 hexadecimal digits (checked again
    /// when the period was searched).
    pub root: String,
    /// The last heaps searched for a period: periods up to half of this
    /// are found.
    pub period_window: usize,
}

impl RecordRun {
    /// The record-run part of the report of `found`, whose stream was kept
    /// at `stream` (or not kept).
    pub fn new(found: &RecordAnalysis, stream: Option<String>) -> Self {
        let outcome = &found.outcome;
        RecordRun {
            histogram: value_counts(&outcome.histogram),
            far_scans: outcome.far_scans,
            values_read: outcome.values_read,
            window_bytes: outcome.window_bytes,
            width: outcome.width,
            stream,
            root: hex(outcome.root),
            period_window: found.period_window,
        }
    }
}

/// One progress line of a long run (`--log-every`), printed as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct ProgressLine {
    /// What the run is doing: `compute`, or `check` (reading its stream
    /// back to check a period on every heap).
    pub stage: Stage,
    /// Heaps `0..heaps` are done in this stage.
    pub heaps: u64,
    /// The heaps the stage ends at: those the run computes in all, or those
    /// a check reads back.
    pub total: u64,
    /// Heaps per second since the stage (or the run's resumption) started.
    pub heaps_per_second: f64,
    /// Rare heaps under the current split.
    pub rare: usize,
    /// The largest value so far.
    pub largest: u32,
    /// Heaps whose scan read the stream back.
    pub far_scans: u64,
    /// Seconds left at the rate so far; `null` before the stage has a rate.
    pub eta_seconds: Option<f64>,
}

impl ProgressLine {
    /// Where a stage ending at `total` heaps stands, having done `done`
    /// heaps in `seconds` since it (re)started.
    pub fn new(progress: &WindowProgress, total: u64, done: u64, seconds: f64) -> Self {
        let rate = done as f64 / seconds.max(1e-9);
        let left = total.saturating_sub(progress.heaps) as f64;
        ProgressLine {
            stage: progress.stage,
            heaps: progress.heaps,
            total,
            heaps_per_second: rate.round(),
            rare: progress.rare,
            largest: progress.largest,
            far_scans: progress.far_scans,
            eta_seconds: (done > 0).then(|| (left / rate).round()),
        }
    }
}

/// `grundy stream hist FILE`: the histogram a stream holds.
#[derive(Clone, Debug, Serialize)]
pub struct StreamHistogramReport {
    /// The game the stream is of.
    pub game: String,
    /// The histogram covers heaps `1..=to`.
    pub to: u64,
    /// `value count` pairs.
    pub histogram: Vec<ValueCount>,
}

impl StreamHistogramReport {
    /// The counts `counts[v]` of heaps `1..=to` of `game`.
    pub fn new(game: String, to: u64, counts: &[u64]) -> Self {
        StreamHistogramReport {
            game,
            to,
            histogram: value_counts(counts),
        }
    }
}

/// `grundy stream cat FILE`: the values of a range of heaps.
#[derive(Clone, Debug, Serialize)]
pub struct StreamValuesReport {
    /// The game the stream is of.
    pub game: String,
    /// The first heap listed.
    pub from: u64,
    /// `values[i] = g(from + i)`.
    pub values: Vec<u32>,
}

/// `grundy stream verify FILE`: what was checked.
#[derive(Clone, Debug, Serialize)]
pub struct StreamVerifyReport {
    /// The game the stream is of.
    pub game: String,
    /// Heaps in the stream.
    pub heaps: u64,
    /// The root checksum, checked against every chunk's.
    pub root: String,
    /// The chunks read and checked against their checksums: `[A, B)`.
    pub checked: [u64; 2],
    /// The heaps those chunks cover: `[from, to)`.
    pub heaps_checked: [u64; 2],
    /// The chunks whose values were computed again and compared (`null`
    /// without `--recompute`): `[A, B)`.
    pub recomputed: Option<[u64; 2]>,
    /// The heaps of those chunks recomputed: `[from, to)` (from the heap
    /// the recomputation started at, when that lies inside them).
    pub heaps_recomputed: Option<[u64; 2]>,
    /// The heap the recomputation started at: 0, or a checkpoint's.
    pub recomputed_from: Option<u64>,
}

impl StreamVerifyReport {
    /// A stream of `game` with `heaps` heaps and root checksum `root`,
    /// whose chunks `checked` matched their checksums, and `recomputed`
    /// (the chunks, and the heap the recomputation started at) computed
    /// again and equal.
    pub fn new(
        game: String,
        heaps: u64,
        root: u64,
        checked: std::ops::Range<u64>,
        recomputed: Option<(std::ops::Range<u64>, u64)>,
    ) -> Self {
        let chunk = crate::solve::CHUNK_HEAPS as u64;
        let span = |chunks: &std::ops::Range<u64>| [chunks.start, chunks.end];
        let covered =
            |chunks: &std::ops::Range<u64>| [chunks.start * chunk, (chunks.end * chunk).min(heaps)];
        StreamVerifyReport {
            game,
            heaps,
            root: hex(root),
            checked: span(&checked),
            heaps_checked: covered(&checked),
            recomputed: recomputed.as_ref().map(|(c, _)| span(c)),
            heaps_recomputed: recomputed.as_ref().map(|(c, start)| {
                let [from, to] = covered(c);
                [from.max(*start), to]
            }),
            recomputed_from: recomputed.map(|(_, start)| start),
        }
    }
}
