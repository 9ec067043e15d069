//! The windowed sparse engine: record runs in bounded memory.
//!
//! At heap `n` the sparse method (see the `sparse` module) reads the rare
//! heaps and their values, the heaps `n - t` of its take moves, the
//! partners `n - t - r` of rare heaps `r`, and the pairs `(a, n - t - a)`
//! of a scan, which rarely runs far. So a run keeps in memory only
//!
//! - the rare heaps with their values and the value counts (the `Run`),
//! - the *front* of the table, heaps `0..2^20` (the small partners `a`),
//! - a *tail* of at least `keep` heaps behind `n` (2^20 by default), kept
//!   as a buffer of up to `2·keep` heaps that drops its older half when
//!   full, which holds the partners of every rare heap `r` with
//!   `r + t + 2 <= keep`,
//! - for each *far* rare heap past that, a reader of its own: its partners
//!   `n - t - r` move forward one heap per heap, so a buffer of 2^14 heaps
//!   read back from the stream serves 2^14 heaps ([`FarPartners`]). A rare
//!   heap far out (Grundy's game has one at 48,399,022) then costs a small
//!   buffer and a sequential read, not a tail reaching back to it;
//!
//! and writes every value to a value stream on disk (see the `stream`
//! module). A scan that runs past the front or the tail goes on with
//! values read back from the stream, 2^20 pairs at a time; the run counts
//! how often ([`WindowOutcome::far_scans`]). A new mask means a new rare
//! list, rebuilt by reading the stream from the start (at most once per
//! doubling of the table, as in the full-table engine). Values are those
//! of the full-table engine, heap for heap: both compute the same mex from
//! the same values; only where the values are read from differs.
//!
//! On several threads, blocks of heaps run on the full-table engine's crew
//! (see the `crew` module and [`SparseSolver::extend_windowed`]): the
//! crew's table is the tail and the front, the tail drops its older half
//! only between blocks, and the crew's committer writes each heap to the
//! stream in order and goes on with the scans past the window there.
//!
//! A checkpoint of a windowed run is its window plus the stream's state
//! ([`StreamState`]), written atomically after the stream is flushed to
//! disk; resuming cuts the stream back to the checkpoint and goes on, so a
//! run killed at any moment ends with the stream an uninterrupted run
//! writes.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::checkpoint::{CHECKSUM, FNV_OFFSET, fnv1a};
use super::crew::{Behind, Heaps};
use super::sparse::{
    BLOCK, Cell, FarPartners, Features, Folded, Pace, Rares, Resume, Run, Scratch, View,
};
use super::stream::{StreamState, StreamWriter};
use super::{SparseSolver, SparseStats};
use crate::error::human_bytes_near;
use crate::fold::{Fold, Split};
use crate::{Error, Result};

/// How much a windowed run keeps in memory. The defaults (2^20 each, a few
/// MiB in all) keep far scans rare; tests make them tiny to exercise every
/// path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowSizes {
    /// Heaps at the front of the table kept in memory.
    pub front: usize,
    /// The least tail kept behind the current heap.
    pub keep: usize,
    /// Pairs a scan past the window reads back from the stream at a time
    /// (at least a block of the scan, 4096).
    pub far: usize,
}

impl Default for WindowSizes {
    fn default() -> Self {
        WindowSizes {
            front: 1 << 20,
            keep: 1 << 20,
            far: 1 << 20,
        }
    }
}

impl WindowSizes {
    /// The bytes a window of these sizes takes, with a tail of `keep` heaps
    /// (kept as up to twice as many) and the far scan's two buffers, values
    /// `width` bytes wide; two-byte values below 512 keep a folded byte
    /// each beside the front and the tail.
    pub fn bytes(&self, keep: usize, width: u8) -> u64 {
        let held = (self.front + 2 * keep) as u64;
        let folded = if width == 2 { held } else { 0 };
        (held + 3 * self.far as u64) * u64::from(width) + folded
    }
}

/// Heaps a far rare heap's reader holds (see [`FarPartners`]).
const FAR_READ: usize = 1 << 14;

/// Rare heaps are not sparse when at least one heap in this many is rare
/// (among the last half of the heaps computed): Dawson's Kayles has one in
/// three, while Grundy's game has 11 rare heaps among 2^15..2^16, 0.376 has
/// 30, and Officers and 0.161 none (their last are below 24000).
const DENSE_RARE: usize = 64;

/// [`SparseSolver::foresee_far`] looks at the rare heaps from this heap
/// on: the split is chosen for the first time at 1024 heaps, and the first
/// few thousand heaps hold many rare ones in most games.
const FORESEE_FROM: usize = 1 << 16;

/// Heaps between two calls of the progress callback, and between two
/// choices of where scans look first (see the `probe` module).
const STRIDE: usize = 4096;

/// The `format` of a windowed run's checkpoint.
pub const WINDOW_FORMAT: &str = "grundy-window/1";

/// The largest windowed checkpoint read (a window is a few MiB).
const MAX_CHECKPOINT: u64 = 1 << 30;

/// How a windowed run is set up.
#[derive(Clone, Debug)]
pub struct WindowOptions {
    /// The game's canonical specification, written into the stream.
    pub game: String,
    /// The value stream.
    pub stream: PathBuf,
    /// Where to save the window, and how often; it is saved when the run
    /// ends too, so that a later run can go on to a larger `to`.
    pub checkpoint: Option<(PathBuf, Duration)>,
    /// Whether to go on from the checkpoint (which must exist).
    pub resume: bool,
    /// The most bytes the window may take.
    pub memory_limit: u64,
    /// Bytes per value in memory and in the stream: 1 (values below 256)
    /// or 2 (below 65536); the width a run starts with.
    pub width: u8,
    /// Whether a one-byte run goes on at two bytes when a value reaches
    /// 256 (the stream so far rewritten once, see `window::widen`), instead of
    /// stopping with [`Error::ValueTooWide`].
    pub widen: bool,
    /// The window's sizes.
    pub sizes: WindowSizes,
    /// Threads for the run of [`analyze_record`](crate::analysis::analyze_record):
    /// 1 keeps it on one; more compute blocks of expensive heaps on
    /// several, as a table's run does ([`Pipeline::Auto`](super::Pipeline)).
    /// [`SparseSolver::extend_windowed`] uses its solver's own threads.
    pub threads: usize,
}

/// What a windowed run is busy with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Computing heaps into the stream.
    Compute,
    /// Reading the stream back, after a run, to check a period on every
    /// heap (see `analysis::analyze_record`).
    Check,
}

/// Where a windowed run stands, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WindowProgress {
    /// The stage, whose heaps `0..heaps` are done.
    pub stage: Stage,
    /// Heaps `0..heaps` are computed (or checked).
    pub heaps: u64,
    /// The heaps a check ends at (the stream's); `None` while computing,
    /// whose end is the caller's (a run's `to`, or an analysis's `max`).
    pub checks: Option<u64>,
    /// Rare heaps under the current split.
    pub rare: usize,
    /// The largest value so far.
    pub largest: u32,
    /// Heaps whose scan read values back from the stream.
    pub far_scans: u64,
}

/// What a windowed run computed.
#[derive(Clone, Debug)]
pub struct WindowOutcome {
    /// Heaps `0..heaps` are in the stream.
    pub heaps: u64,
    /// `histogram[v]`: heaps of `1..heaps` with value `v`.
    pub histogram: Vec<u64>,
    /// The sparse engine's counters.
    pub stats: SparseStats,
    /// Heaps whose scan ran past the window and read the stream.
    pub far_scans: u64,
    /// Values read back from the stream (far scans and rare-list rebuilds).
    pub values_read: u64,
    /// The most bytes the window held at once.
    pub window_bytes: u64,
    /// The stream's root checksum.
    pub root: u64,
    /// Bytes per value the run ended with.
    pub width: u8,
}

/// A windowed run's checkpoint, besides its front and tail bytes.
#[derive(Serialize, Deserialize)]
struct Saved {
    format: String,
    width: u8,
    game: String,
    stream: StreamState,
    keep: usize,
    base: usize,
    front: usize,
    tail: usize,
    mask: u32,
    parity: Option<usize>,
    bits: u32,
    next_choice: usize,
    rare: Vec<usize>,
    rare_values: Vec<u32>,
    histogram: [Vec<u64>; 2],
    scans: u64,
    scan_pairs: u64,
    mask_choices: u32,
    far_scans: u64,
    values_read: u64,
    window_bytes: u64,
}

impl WindowOptions {
    /// The widest values the run may hold, in bytes.
    pub fn widest(&self) -> u8 {
        if self.widen { 2 } else { self.width }
    }
}

/// The values a windowed run holds: the front and the tail.
struct Window<C> {
    /// Heaps `0..front.len()`, up to `limit` of them.
    front: Vec<C>,
    limit: usize,
    tail: Vec<C>,
    /// The heap `tail[0]` holds.
    base: usize,
    keep: usize,
    /// The folded bytes of the front and the tail, while the run keeps
    /// them (two-byte values below 512, as the full-table engine's `Run`
    /// does): the scan and the rare gathers read them.
    folds: Option<Folds>,
}

/// The folded bytes (see [`Fold`]) of a window's front and tail.
struct Folds {
    fold: Fold,
    front: Vec<u8>,
    tail: Vec<u8>,
}

impl<C: Cell> Window<C> {
    /// A window of `front` (heaps from 0, up to `limit`) and `tail` (heaps
    /// from `base`), folded bytes to be made by [`Self::keep_folded`].
    fn new(front: Vec<C>, limit: usize, (tail, base): (Vec<C>, usize), keep: usize) -> Self {
        Window {
            front,
            limit,
            tail,
            base,
            keep,
            folds: None,
        }
    }

    fn heaps(&self) -> usize {
        self.base + self.tail.len()
    }

    /// The window as a scan reads it, with the far partners if there are
    /// far rare heaps (most runs have none: their scans then take the
    /// full table's paths).
    #[inline(always)]
    fn view<'a>(&'a self, far: &'a FarPartners<C>) -> View<'a, C> {
        View {
            low: &self.front,
            low_base: 0,
            high: &self.tail,
            high_base: self.base,
            far: Some(far).filter(|far| !far.readers.is_empty()),
            folded: self.folds.as_ref().map(|folds| Folded {
                fold: folds.fold,
                low: &folds.front,
                high: &folds.tail,
            }),
        }
    }

    /// Keeps the folded bytes of the fold `run` is in, if any: made again
    /// whole when the fold changes with the split (at most once per
    /// doubling of the table), else kept by [`Self::push`].
    fn keep_folded(&mut self, run: &Run) {
        let fold = run.fold_in_force::<C>();
        if fold == self.folds.as_ref().map(|folds| folds.fold) {
            return;
        }
        self.folds = fold.map(|fold| {
            let bytes = |cells: &[C]| cells.iter().map(|c| fold.of(c.get())).collect();
            Folds {
                fold,
                front: bytes(&self.front),
                tail: bytes(&self.tail),
            }
        });
    }

    #[inline(always)]
    fn push(&mut self, v: C) {
        let to_front = self.heaps() < self.limit;
        if to_front {
            self.front.push(v);
        }
        self.tail.push(v);
        match &mut self.folds {
            Some(folds) if v.get() < folds.fold.domain() => {
                let byte = folds.fold.of(v.get());
                if to_front {
                    folds.front.push(byte);
                }
                folds.tail.push(byte);
            }
            // A value past the fold's domain ends the fold (the run's
            // values are no longer all below 512): the bytes go with it.
            _ => self.folds = None,
        }
        self.trim();
    }

    /// Drops the older half of a tail of `2·keep` heaps or more: after
    /// each heap on one thread, and after each block on several, which
    /// extends the tail past that.
    fn trim(&mut self) {
        if self.tail.len() >= 2 * self.keep {
            let drop = self.tail.len() - self.keep;
            self.tail.drain(..drop);
            if let Some(folds) = &mut self.folds {
                folds.tail.drain(..drop);
            }
            self.base += drop;
        }
    }

    /// The window as a block on several threads reads and extends it.
    fn as_heaps(&mut self) -> Heaps<'_, C> {
        Heaps {
            tail: &mut self.tail,
            base: self.base,
            front: Some((&mut self.front, self.limit)),
            folded: self
                .folds
                .as_mut()
                .map(|folds| (folds.fold, &mut folds.tail, Some(&mut folds.front))),
        }
    }

    fn bytes(&self) -> u64 {
        let folded = self
            .folds
            .as_ref()
            .map_or(0, |folds| folds.front.capacity() + folds.tail.capacity());
        ((self.front.capacity() + self.tail.capacity()) * size_of::<C>() + folded) as u64
    }

    /// The same window with its values in cells of another width (its
    /// folded bytes made again by [`Self::keep_folded`]).
    fn recast<D: Cell>(self) -> Window<D> {
        let cast = |cells: Vec<C>| cells.into_iter().map(|c| D::new(c.get())).collect();
        Window::new(
            cast(self.front),
            self.limit,
            (cast(self.tail), self.base),
            self.keep,
        )
    }
}

/// Everything a windowed run carries from one heap to the next.
struct State<C> {
    window: Window<C>,
    run: Run,
    stream: StreamWriter,
    counters: Counters,
    scratch: Scratch,
}

/// How a run at one width ends: done, or stopped before heap `heap`, whose
/// value `value` does not fit its cells, to go on at two bytes.
enum Stop<C> {
    Done(WindowOutcome),
    Widen {
        state: Box<State<C>>,
        heap: u64,
        value: u32,
    },
}

/// A run set up to start (or resume) at one byte a value or at two.
enum Begun {
    Narrow(State<u8>),
    Wide(State<u16>),
}

/// The values of a stream's heaps `0..end` in order, read back a megabyte
/// at a time; the first read error is kept in `error`.
struct ReadBack<'a> {
    stream: &'a mut StreamWriter,
    next: u64,
    end: u64,
    buffer: Vec<u8>,
    at: usize,
    error: Option<Error>,
    far: usize,
    width: usize,
}
impl Iterator for ReadBack<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.at == self.buffer.len() {
            if self.next == self.end || self.error.is_some() {
                return None;
            }
            let stop = self.end.min(self.next + self.far as u64);
            if let Err(e) = self.stream.read(self.next, stop, &mut self.buffer) {
                self.error = Some(e);
                return None;
            }
            self.next = stop;
            self.at = 0;
        }
        self.at += self.width;
        let mut word = [0u8; 4];
        word[..self.width].copy_from_slice(&self.buffer[self.at - self.width..self.at]);
        Some(u32::from_le_bytes(word))
    }
}

impl SparseSolver {
    /// Computes heaps `0..=to` into the value stream of `options`, keeping
    /// only a window of them in memory (see the module docs), on the
    /// threads the solver's pipeline uses (as [`Self::extend`]), and returns
    /// the histogram and counters. `progress` is called after each block
    /// of heaps (4096 on one thread, up to 65536 on several);
    /// when it returns `false` (or the current [`Cancel`](crate::Cancel)
    /// token stops) the window is saved, if a checkpoint is set, and the
    /// run stops with [`Error::Interrupted`]. A one-byte run with
    /// `options.widen` goes on at two bytes from the first value above 255.
    pub fn extend_windowed(
        &self,
        to: u64,
        options: &WindowOptions,
        progress: &mut dyn FnMut(&WindowProgress) -> bool,
    ) -> Result<WindowOutcome> {
        let wide = match self.begin(to, options)? {
            Begun::Narrow(state) => match self.windowed(to, options, progress, state)? {
                Stop::Done(outcome) => return Ok(outcome),
                Stop::Widen { state, .. } => widen(*state, options)?,
            },
            Begun::Wide(state) => state,
        };
        match self.windowed(to, options, progress, wide)? {
            Stop::Done(outcome) => Ok(outcome),
            Stop::Widen { heap, value, .. } => Err(Error::ValueTooWide {
                heap,
                value,
                width: 2,
            }),
        }
    }

    /// A fresh run at `options.width`, or the one its checkpoint saved
    /// (whose width may be two bytes where a run that widens began at one).
    fn begin(&self, to: u64, options: &WindowOptions) -> Result<Begun> {
        let keep = options.sizes.keep.max(2 * (self.reach() + 1));
        let bytes = options.sizes.bytes(keep, options.widest());
        if bytes > options.memory_limit {
            return Err(Error::TableTooLarge {
                to,
                needed: human_bytes_near(u128::from(bytes), u128::from(options.memory_limit)),
                limit: human_bytes_near(u128::from(options.memory_limit), u128::from(bytes)),
            });
        }
        let width = |width: u8| Error::Stream {
            path: options.stream.display().to_string(),
            reason: format!("values {width} bytes wide: windowed runs store 1 or 2"),
        };
        if let Some((path, _)) = &options.checkpoint
            && options.resume
        {
            let (saved, values) = read_checkpoint(path, options)?;
            return match saved.width {
                1 => Ok(Begun::Narrow(self.restore(saved, &values, options)?)),
                2 => Ok(Begun::Wide(self.restore(saved, &values, options)?)),
                w => Err(width(w)),
            };
        }
        match options.width {
            1 => Ok(Begun::Narrow(self.fresh(options, keep)?)),
            2 => Ok(Begun::Wide(self.fresh(options, keep)?)),
            w => Err(width(w)),
        }
    }

    /// A run at heap 0, its tail at least `keep` heaps.
    fn fresh<C: Cell>(&self, options: &WindowOptions, keep: usize) -> Result<State<C>> {
        let window = Window::new(Vec::new(), options.sizes.front, (Vec::new(), 0), keep);
        Ok(State {
            window,
            run: self.start(&crate::ValueTable::new()),
            stream: StreamWriter::create(&options.stream, &options.game, size_of::<C>() as u8)?,
            counters: Counters::default(),
            scratch: Scratch::default(),
        })
    }

    /// Goes on with `state`, values stored as `C`, until heap `to` is
    /// computed, or until a value does not fit `C` in a run that widens.
    /// Blocks of heaps go on one thread, heap by heap, or on the solver's
    /// crew (see the `crew` module) as its pipeline and the blocks' timings
    /// say ([`Pace`]): the crew's table is the window's tail and front,
    /// with the far rare heaps' readers slid once for the block, and its
    /// committer writes each heap to the stream, in order, and goes on
    /// with a scan past the window in the stream. The window drops the
    /// older half of its tail only between blocks, and a block ends after
    /// a new rare heap, which the window sorts before a heap reads it.
    fn windowed<C: Cell>(
        &self,
        to: u64,
        options: &WindowOptions,
        progress: &mut dyn FnMut(&WindowProgress) -> bool,
        state: State<C>,
    ) -> Result<Stop<C>> {
        let end = usize::try_from(to)
            .ok()
            .and_then(|t| t.checked_add(1))
            .ok_or(Error::NimberOverflow { value: to })?;
        // At least one whole block of a scan, which stops only at the
        // blocks' starts.
        let far = options.sizes.far.max(BLOCK);
        let State {
            mut window,
            mut run,
            mut stream,
            mut counters,
            scratch,
        } = state;
        let mut buffers: (Vec<C>, Vec<C>) = (Vec::new(), Vec::new());
        let mut bytes = Vec::new();
        let mut partners = FarPartners::default();
        self.sort_rare(&mut partners, &window, &run, options)?;
        // Every thread's scratch; the first is this thread's, which takes
        // the others' counts after each block.
        let mut scratches: Vec<Scratch> = std::iter::once(scratch)
            .chain((1..self.crew_size()).map(|_| Scratch::default()))
            .collect();
        let mut pace = Pace::new(self.pipeline, scratches.len(), window.heaps());
        let mut saved_at = Instant::now();
        let mut n = window.heaps();
        while n < end {
            let (first, stop) = (n, pace.block(n, end));
            // A heap whose value does not fit the cells goes on one
            // thread, which widens the run or stops it.
            let mut alone = !pace.parallel();
            if !alone {
                run.probe.learn(n, &mut scratches);
            }
            while n < stop {
                if alone {
                    let mut places = Alone {
                        window: &mut window,
                        run: &mut run,
                        stream: &mut stream,
                        partners: &mut partners,
                        buffers: &mut buffers,
                        bytes: &mut bytes,
                        far_scans: &mut counters.far_scans,
                        scratch: &mut scratches[0],
                    };
                    let (at, wide) =
                        self.alone_vectorised(&mut places, n..stop, (end, far), options)?;
                    n = at;
                    let Some(v) = wide else { continue };
                    if options.widen && size_of::<C>() == 1 {
                        let state = Box::new(State {
                            window,
                            run,
                            stream,
                            counters,
                            scratch: std::mem::take(&mut scratches[0]),
                        });
                        let heap = n as u64;
                        return Ok(Stop::Widen {
                            state,
                            heap,
                            value: v,
                        });
                    }
                    return Err(Error::ValueTooWide {
                        heap: n as u64,
                        value: v,
                        width: size_of::<C>() as u8,
                    });
                }
                if n == run.next_choice {
                    let places = (&window, &mut run, &mut stream, &mut partners);
                    self.choose_split_at(n, (end, far), places, options)?;
                }
                window.keep_folded(&run);
                let part = self.part_end(&partners, &run, n, stop.min(run.next_choice.max(n + 1)));
                self.slide(&mut partners, n..part, &run, &mut stream, &mut bytes)?;
                let mut spill = Spill {
                    solver: self,
                    scan: FarScan {
                        stream: &mut stream,
                        buffers: &mut buffers,
                        bytes: &mut bytes,
                        far,
                    },
                    far_scans: 0,
                };
                let window_heaps = window.as_heaps();
                let behind: &mut dyn Behind<C> = &mut spill;
                let fits = self.all_hands(
                    window_heaps,
                    (Some(&partners), Some(behind)),
                    part,
                    &mut run,
                    &mut scratches,
                )?;
                counters.far_scans += spill.far_scans;
                let (main, helpers) = scratches.split_first_mut().expect("one thread");
                for helper in helpers {
                    main.scans += std::mem::take(&mut helper.scans);
                    main.scan_pairs += std::mem::take(&mut helper.scan_pairs);
                }
                window.keep_folded(&run);
                window.trim();
                self.sort_rare(&mut partners, &window, &run, options)?;
                alone = !fits;
                n = window.heaps();
            }
            pace.ended(n - first);
            let readers: usize = partners.readers.iter().map(|(_, r)| r.capacity()).sum();
            let far_bytes =
                (buffers.0.capacity() + buffers.1.capacity() + readers) * size_of::<C>();
            let bytes = window.bytes() + far_bytes as u64;
            counters.window_bytes = counters.window_bytes.max(bytes);
            let report = WindowProgress {
                stage: Stage::Compute,
                heaps: n as u64,
                checks: None,
                rare: run.rare.len(),
                largest: largest(&run),
                far_scans: counters.far_scans,
            };
            let go_on = progress(&report) && !crate::cancel::stopped();
            if let Some((path, every)) = &options.checkpoint
                && (!go_on || saved_at.elapsed() >= *every)
            {
                counters.values_read = stream.read_back;
                save(
                    path,
                    options,
                    &window,
                    &run,
                    &scratches[0],
                    &mut stream,
                    &counters,
                )?;
                saved_at = Instant::now();
            }
            if !go_on {
                crate::cancel::check()?;
                return Err(Error::Interrupted { heaps: n as u64 });
            }
        }
        let scratch = &scratches[0];
        counters.values_read = stream.read_back;
        // The end is saved too, so that a finished run can go on to a
        // larger `to` (an adaptive analysis does, step by step).
        if let Some((path, _)) = &options.checkpoint {
            save(
                path,
                options,
                &window,
                &run,
                scratch,
                &mut stream,
                &counters,
            )?;
        }
        let (heaps, root) = stream.finish()?;
        let mut histogram = vec![0u64; run.histogram[0].len().max(run.histogram[1].len())];
        for counts in &run.histogram {
            for (v, &c) in counts.iter().enumerate() {
                histogram[v] += c;
            }
        }
        if let Some(zero) = histogram.first_mut() {
            *zero -= 1; // heap 0, outside Rogalski's range 1..=N
        }
        let mut stats = run.finish(scratch);
        stats.scans += counters.scans;
        stats.scan_pairs += counters.scan_pairs;
        Ok(Stop::Done(WindowOutcome {
            heaps,
            histogram,
            stats,
            far_scans: counters.far_scans,
            values_read: counters.values_read,
            window_bytes: counters.window_bytes,
            root,
            width: size_of::<C>() as u8,
        }))
    }

    /// At heap `n`, the run's next choice of the split: the rare heaps
    /// listed again from the stream and the far partners sorted again if
    /// the split changed, and the far rare heaps to come foreseen.
    fn choose_split_at<C: Cell>(
        &self,
        n: usize,
        (end, far): (usize, usize),
        (window, run, stream, partners): (
            &Window<C>,
            &mut Run,
            &mut StreamWriter,
            &mut FarPartners<C>,
        ),
        options: &WindowOptions,
    ) -> Result<()> {
        if run.choose_split() {
            self.rebuild_from(run, stream, n, (far, size_of::<C>()))?;
            *partners = FarPartners::default();
            self.sort_rare(partners, window, run, options)?;
        }
        self.foresee_far::<C>(n, end, window, run, options)?;
        run.next_choice *= 2;
        Ok(())
    }

    /// [`Self::alone`] compiled for the widest vector instructions the CPU
    /// has: the scans' block search vectorises only then, and the heap loop
    /// around them is one function (a call per heap through the dispatch
    /// cost about a tenth of 0.1777's cheap heaps).
    fn alone_vectorised<C: Cell>(
        &self,
        places: &mut Alone<'_, C>,
        heaps: std::ops::Range<usize>,
        ends: (usize, usize),
        options: &WindowOptions,
    ) -> Result<(usize, Option<u32>)> {
        match Features::detect() {
            // SAFETY: the CPU supports these features (`detect`).
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            Features::Avx512 => unsafe { self.alone_avx512(places, heaps, ends, options) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            Features::Avx2 => unsafe { self.alone_avx2(places, heaps, ends, options) },
            Features::Plain => self.alone(places, heaps, ends, options),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,popcnt,bmi1,bmi2,lzcnt")]
    fn alone_avx512<C: Cell>(
        &self,
        places: &mut Alone<'_, C>,
        heaps: std::ops::Range<usize>,
        ends: (usize, usize),
        options: &WindowOptions,
    ) -> Result<(usize, Option<u32>)> {
        self.alone(places, heaps, ends, options)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    fn alone_avx2<C: Cell>(
        &self,
        places: &mut Alone<'_, C>,
        heaps: std::ops::Range<usize>,
        ends: (usize, usize),
        options: &WindowOptions,
    ) -> Result<(usize, Option<u32>)> {
        self.alone(places, heaps, ends, options)
    }

    /// Computes `heaps` one at a time on this thread, each value written to
    /// the stream and pushed to the window; returns where it stopped: at
    /// the end of `heaps`, or at a heap whose value (given) does not fit
    /// the cells, not written. `ends` are the run's end and the far
    /// partners' reach.
    #[inline(always)]
    fn alone<C: Cell>(
        &self,
        places: &mut Alone<'_, C>,
        heaps: std::ops::Range<usize>,
        (end, far): (usize, usize),
        options: &WindowOptions,
    ) -> Result<(usize, Option<u32>)> {
        let Alone {
            window,
            run,
            stream,
            partners,
            buffers,
            bytes,
            far_scans,
            scratch,
        } = places;
        for n in heaps.clone() {
            if n == run.next_choice {
                let places = (&**window, &mut **run, &mut **stream, &mut **partners);
                self.choose_split_at(n, (end, far), places, options)?;
            }
            window.keep_folded(run);
            if n % STRIDE == 0 {
                run.probe.learn(n, std::slice::from_mut(scratch));
            }
            self.slide(partners, n..n + 1, run, stream, bytes)?;
            let v = match self.value_premarked(n, window.view(partners), &run.rares(), scratch) {
                Ok(v) => v,
                Err(resume) => {
                    **far_scans += 1;
                    let mut scan = FarScan {
                        stream,
                        buffers,
                        bytes,
                        far,
                    };
                    self.far_scan(n, resume, &run.rares(), scratch, &mut scan)?
                }
            };
            if v >= C::LIMIT {
                return Ok((n, Some(v)));
            }
            run.note(n, v);
            stream.push(v)?;
            window.push(C::new(v));
            if run.rare.last() == Some(&n) {
                self.sort_rare(partners, window, run, options)?;
            }
        }
        Ok((heaps.end, None))
    }

    /// Where a block on several threads from heap `n` ends, at `stop` at
    /// the latest: the far rare heaps' readers, slid once for the block,
    /// must hold the partners of every heap of it, in the stream (before
    /// `n`) and within [`FAR_READ`] heaps each.
    fn part_end<C>(&self, partners: &FarPartners<C>, run: &Run, n: usize, stop: usize) -> usize {
        let first_far = run.rare.get(partners.from);
        let Some(&first_far) = first_far.filter(|_| !partners.readers.is_empty()) else {
            return stop;
        };
        let (least, most) = self.split_reach();
        stop.min(n + least + first_far)
            .min(n + FAR_READ.saturating_sub(most - least))
            .max(n + 1)
    }

    /// The least and the largest `t` of the splitting digits.
    fn split_reach(&self) -> (usize, usize) {
        let digits = self.splits.iter().map(|&(t, _)| t);
        digits.fold((usize::MAX, 0), |(l, m), t| (l.min(t), m.max(t)))
    }

    /// The largest `t` of any digit: takes read heap `n - t`, splits pair
    /// heaps summing to `n - t`.
    fn reach(&self) -> usize {
        let takes = self.takes.iter().map(|&(t, _, _)| t);
        takes
            .chain(self.splits.iter().map(|&(t, _)| t))
            .max()
            .unwrap_or(0)
    }

    /// Keeps `partners` in step with the rare list: the rare heaps whose
    /// partners the tail reaches (`r + reach + 2 <= keep`) are gathered
    /// from it, and each of the others gets a reader of its own (filled by
    /// [`Self::slide`]). Refuses, naming the limit, when the readers would
    /// take the window past `options.memory_limit`.
    fn sort_rare<C: Cell>(
        &self,
        partners: &mut FarPartners<C>,
        window: &Window<C>,
        run: &Run,
        options: &WindowOptions,
    ) -> Result<()> {
        let reach = self.reach();
        // Only splits read the partners of rare heaps.
        let near = match self.splits.is_empty() {
            true => run.rare.len(),
            false => run.rare.partition_point(|&r| r + reach + 2 <= window.keep),
        };
        if near != partners.from {
            partners.readers.clear();
            partners.from = near;
        }
        let far = run.rare.len() - near;
        if far > partners.readers.len() {
            let bytes = options.sizes.bytes(window.keep, options.widest())
                + (far * FAR_READ * size_of::<C>()) as u64;
            if bytes > options.memory_limit {
                return Err(Error::MemoryLimit {
                    what: format!(
                        "the window of a run at heap {} with {far} rare heaps past its tail \
                         (a game whose rare heaps are not sparse; each reads {FAR_READ} heaps \
                         back from the stream)",
                        window.heaps()
                    ),
                    needed: human_bytes_near(u128::from(bytes), u128::from(options.memory_limit)),
                    limit: human_bytes_near(u128::from(options.memory_limit), u128::from(bytes)),
                });
            }
            partners.readers.resize_with(far, || (0, Vec::new()));
        }
        Ok(())
    }

    /// Refuses, at heap `n` (a power of two), a run to heap `end - 1` whose
    /// far rare heaps would take the window past `options.memory_limit`,
    /// as [`Self::sort_rare`] would once they come, when the rare heaps
    /// are not sparse: at least one in [`DENSE_RARE`] of heaps `n / 2..n`.
    /// Their readers are then foreseen at that rate from the tail's end
    /// to `end`. Such a game's heaps each gather over a third of the heaps
    /// before them or so (Dawson's Kayles), so the run to that point takes
    /// time that grows with its square: `--to 2^21` met the limit at heap
    /// 1.8M after more than ten minutes.
    fn foresee_far<C>(
        &self,
        n: usize,
        end: usize,
        window: &Window<C>,
        run: &Run,
        options: &WindowOptions,
    ) -> Result<()> {
        let tail_end = window.keep.saturating_sub(self.reach() + 2);
        if self.splits.is_empty() || n < FORESEE_FROM || end <= tail_end {
            return Ok(());
        }
        let recent = run.rare.len() - run.rare.partition_point(|&r| r < n / 2);
        if recent * DENSE_RARE < n / 2 {
            return Ok(());
        }
        let far = (recent as u128 * (end - tail_end) as u128).div_ceil((n / 2) as u128);
        let bytes = u128::from(options.sizes.bytes(window.keep, options.widest()))
            + far * (FAR_READ * size_of::<C>()) as u128;
        if bytes <= u128::from(options.memory_limit) {
            return Ok(());
        }
        Err(Error::MemoryLimit {
            what: format!(
                "the window of a run to heap {} ({recent} of heaps {}..{n} are rare, so about \
                 {far} rare heaps past its tail, each reading {FAR_READ} heaps back from the \
                 stream: a game whose rare heaps are not sparse)",
                end - 1,
                n / 2
            ),
            needed: human_bytes_near(bytes, u128::from(options.memory_limit)),
            limit: human_bytes_near(u128::from(options.memory_limit), bytes),
        })
    }

    /// Slides each far rare heap's reader forward to hold its partners of
    /// the heaps `heaps`, `n - t - r` for every splitting `t` and every `n`
    /// there, reading `FAR_READ` heaps from the stream when they run out
    /// (every `FAR_READ` heaps or so: the stream is read sequentially, once
    /// per far rare heap). The partners must lie in the stream, before
    /// `heaps.start` (see [`Self::part_end`]).
    #[inline(always)]
    fn slide<C: Cell>(
        &self,
        partners: &mut FarPartners<C>,
        heaps: std::ops::Range<usize>,
        run: &Run,
        stream: &mut StreamWriter,
        bytes: &mut Vec<u8>,
    ) -> Result<()> {
        match partners.readers.is_empty() {
            true => Ok(()),
            false => self.slide_readers(partners, heaps, run, stream, bytes),
        }
    }

    /// [`Self::slide`] where there are far rare heaps (most windowed runs
    /// have none, and then make no call).
    #[inline(never)]
    fn slide_readers<C: Cell>(
        &self,
        partners: &mut FarPartners<C>,
        heaps: std::ops::Range<usize>,
        run: &Run,
        stream: &mut StreamWriter,
        bytes: &mut Vec<u8>,
    ) -> Result<()> {
        let (least, most) = self.split_reach();
        let rare = &run.rare[partners.from..];
        let n = heaps.start;
        let length = FAR_READ.max(heaps.len() + most - least);
        for (&r, (base, values)) in rare.iter().zip(&mut partners.readers) {
            // Gathers read `rest - r` only for `r < rest = n - t`.
            let last = match (heaps.end - 1).checked_sub(least + r) {
                Some(last) if last > 0 => last,
                _ => continue,
            };
            let first = n.saturating_sub(most + r);
            if first < *base || last >= *base + values.len() {
                read_cells(stream, first, (first + length).min(n), bytes, values)?;
                *base = first;
            }
        }
        Ok(())
    }

    /// Lists the rare heaps again, from the stream, after the split changed.
    fn rebuild_from(
        &self,
        run: &mut Run,
        stream: &mut StreamWriter,
        n: usize,
        (far, width): (usize, usize),
    ) -> Result<()> {
        let mut values = ReadBack {
            stream,
            next: 0,
            end: n as u64,
            buffer: Vec::new(),
            at: 0,
            error: None,
            far,
            width,
        };
        run.rebuild_rare(values.by_ref(), n);
        values.error.map_or(Ok(()), Err)
    }

    /// Goes on with a scan past the window, on views read back from the
    /// stream: the pairs `(a, rest - a)` for `a` in `start..start + far`,
    /// for every splitting digit at once.
    fn far_scan<C: Cell>(
        &self,
        n: usize,
        mut resume: Resume,
        rares: &Rares<'_>,
        scratch: &mut Scratch,
        scan: &mut FarScan<'_, C>,
    ) -> Result<u32> {
        let (stream, (low, high), far) = (&mut *scan.stream, &mut *scan.buffers, scan.far);
        let bytes = &mut *scan.bytes;
        let digits = self.splits.iter().map(|&(t, _)| t).filter(|&t| t + 2 <= n);
        let (least, most) = digits.fold((usize::MAX, 0), |(l, m), t| (l.min(t), m.max(t)));
        loop {
            let a0 = resume.start;
            let a1 = (a0 + far).min(n);
            read_cells(stream, a0, a1, bytes, low)?;
            let from = (n + 1 - most).saturating_sub(a1);
            let to = n - least - a0;
            read_cells(stream, from, to + 1, bytes, high)?;
            let view = View {
                low,
                low_base: a0,
                high,
                high_base: from,
                far: None,
                folded: None,
            };
            match self.scan_from::<C, false>(n, view, rares, scratch, resume.m, (a0, 0)) {
                Ok(v) => return Ok(v),
                Err(next) => resume = next,
            }
        }
    }

    /// A windowed run's state from its checkpoint `saved` (with the window's
    /// `values`, see [`read_checkpoint`]), its stream cut back to it.
    fn restore<C: Cell>(
        &self,
        saved: Saved,
        values: &[u8],
        options: &WindowOptions,
    ) -> Result<State<C>> {
        let width = size_of::<C>();
        let (mut front, mut tail) = (Vec::new(), Vec::new());
        decode(&values[..saved.front * width], &mut front);
        decode(&values[saved.front * width..], &mut tail);
        let window = Window::new(front, options.sizes.front, (tail, saved.base), saved.keep);
        let mut run = self.start(&crate::ValueTable::new());
        run.split = Split {
            mask: saved.mask,
            parity: saved.parity,
        };
        run.bits = saved.bits;
        run.next_choice = saved.next_choice;
        run.rare = saved.rare;
        run.rare_values = saved.rare_values;
        run.histogram = saved.histogram;
        run.stats.mask_choices = saved.mask_choices;
        // A run killed between saving its widened checkpoint and renaming
        // the widened stream over the narrow one (see [`widen`]) finishes
        // the rename.
        let wide = widened_path(&options.stream);
        if saved.width == 2 && wide.exists() {
            std::fs::rename(&wide, &options.stream).map_err(|e| Error::Stream {
                path: options.stream.display().to_string(),
                reason: e.to_string(),
            })?;
        }
        let mut stream =
            StreamWriter::resume(&options.stream, &options.game, saved.width, saved.stream)?;
        stream.read_back = saved.values_read;
        let counters = Counters {
            scans: saved.scans,
            scan_pairs: saved.scan_pairs,
            far_scans: saved.far_scans,
            values_read: saved.values_read,
            window_bytes: saved.window_bytes,
        };
        Ok(State {
            window,
            run,
            stream,
            counters,
            scratch: Scratch::default(),
        })
    }
}

/// A windowed checkpoint read and checked: its header and the window's
/// value bytes. Its width must be the run's, or two bytes where the run
/// widens.
fn read_checkpoint(path: &Path, options: &WindowOptions) -> Result<(Saved, Vec<u8>)> {
    let refuse = |reason: String| Error::Checkpoint {
        path: path.display().to_string(),
        reason,
    };
    let size = std::fs::metadata(path)
        .map_err(|e| refuse(e.to_string()))?
        .len();
    if !(CHECKSUM..=MAX_CHECKPOINT).contains(&size) {
        return Err(refuse(format!(
            "is {size} bytes: not a windowed checkpoint"
        )));
    }
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(size).read_to_end(&mut bytes))
        .map_err(|e| refuse(e.to_string()))?;
    let (body, sum) = bytes.split_at(bytes.len() - CHECKSUM as usize);
    if u64::from_le_bytes(sum.try_into().expect("8 bytes")) != fnv1a(FNV_OFFSET, body) {
        return Err(refuse(
            "damaged or truncated (its checksum does not match)".into(),
        ));
    }
    let line = body
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| refuse("not a windowed checkpoint (no header line)".into()))?;
    let saved: Saved = serde_json::from_slice(&body[..line])
        .map_err(|e| refuse(format!("not a windowed checkpoint ({e})")))?;
    if saved.format != WINDOW_FORMAT {
        return Err(refuse(format!("unknown format '{}'", saved.format)));
    }
    if saved.game != options.game {
        return Err(refuse(format!(
            "holds a run of {}, not of {}",
            saved.game, options.game
        )));
    }
    let values = &body[line + 1..];
    let width_fits = saved.width == options.width
        || (options.widen && saved.width > options.width && saved.width <= 2);
    if !width_fits
        || values.len() != (saved.front + saved.tail) * usize::from(saved.width)
        || saved.base + saved.tail != saved.stream.heaps as usize
        || saved.rare.len() != saved.rare_values.len()
    {
        return Err(refuse("its sizes do not add up".into()));
    }
    let values = values.to_vec();
    Ok((saved, values))
}

/// Where [`widen`] writes the two-byte stream before it replaces the
/// one-byte one.
fn widened_path(stream: &Path) -> PathBuf {
    PathBuf::from(format!("{}.wide", stream.display()))
}

/// A one-byte run turned into a two-byte one: the stream so far rewritten
/// at two bytes a value (beside it, then renamed over it) and the window
/// recast. With a checkpoint, the widened state is saved before the rename,
/// so a run killed at any moment resumes: before the save from the narrow
/// checkpoint and stream, after it from the wide checkpoint, finishing the
/// rename first (see [`SparseSolver::restore`]). Costs one read and one
/// write of the stream, once per run.
fn widen(state: State<u8>, options: &WindowOptions) -> Result<State<u16>> {
    let State {
        window,
        run,
        mut stream,
        counters,
        scratch,
    } = state;
    let heaps = stream.heaps();
    let path = widened_path(&options.stream);
    let mut wide = StreamWriter::create(&path, &options.game, 2)?;
    let mut bytes = Vec::new();
    let step = 1u64 << 20;
    for from in (0..heaps).step_by(step as usize) {
        stream.read(from, (from + step).min(heaps), &mut bytes)?;
        for &v in &bytes {
            wide.push(u32::from(v))?;
        }
    }
    wide.read_back = stream.read_back;
    drop(stream);
    let window = window.recast::<u16>();
    if let Some((checkpoint, _)) = &options.checkpoint {
        save(
            checkpoint, options, &window, &run, &scratch, &mut wide, &counters,
        )?;
    }
    let stream = wide.rename(&options.stream)?;
    Ok(State {
        window,
        run,
        stream,
        counters,
        scratch,
    })
}

/// What a scan past the window reads with: the stream and two buffers.
struct FarScan<'a, C> {
    stream: &'a mut StreamWriter,
    buffers: &'a mut (Vec<C>, Vec<C>),
    bytes: &'a mut Vec<u8>,
    far: usize,
}

/// What a windowed run computing heaps one at a time on this thread
/// reads and extends ([`SparseSolver::alone`]).
struct Alone<'a, C> {
    window: &'a mut Window<C>,
    run: &'a mut Run,
    stream: &'a mut StreamWriter,
    partners: &'a mut FarPartners<C>,
    buffers: &'a mut (Vec<C>, Vec<C>),
    bytes: &'a mut Vec<u8>,
    far_scans: &'a mut u64,
    scratch: &'a mut Scratch,
}

/// The stream behind a block of heaps on several threads, for its
/// committer: each heap written to it, and the scans past the window
/// continued in it, counted.
struct Spill<'a, C> {
    solver: &'a SparseSolver,
    scan: FarScan<'a, C>,
    far_scans: u64,
}

impl<C: Cell> Behind<C> for Spill<'_, C> {
    fn push(&mut self, value: u32) -> Result<()> {
        self.scan.stream.push(value)
    }

    fn scan(
        &mut self,
        n: usize,
        resume: Resume,
        rares: &Rares<'_>,
        scratch: &mut Scratch,
    ) -> Result<u32> {
        self.far_scans += 1;
        self.solver
            .far_scan(n, resume, rares, scratch, &mut self.scan)
    }
}

/// Reads heaps `from..to` of the stream into `out`, through `bytes`.
fn read_cells<C: Cell>(
    stream: &mut StreamWriter,
    from: usize,
    to: usize,
    bytes: &mut Vec<u8>,
    out: &mut Vec<C>,
) -> Result<()> {
    stream.read(from as u64, to as u64, bytes)?;
    decode(bytes, out);
    Ok(())
}

/// Values stored little-endian, `size_of::<C>()` bytes each, as cells.
fn decode<C: Cell>(bytes: &[u8], out: &mut Vec<C>) {
    let width = size_of::<C>();
    out.clear();
    out.extend(bytes.chunks_exact(width).map(|b| {
        let mut word = [0u8; 4];
        word[..width].copy_from_slice(b);
        C::new(u32::from_le_bytes(word))
    }));
}

/// Cells as little-endian bytes, `size_of::<C>()` each, appended to `out`.
fn encode<C: Cell>(values: &[C], out: &mut Vec<u8>) {
    let width = size_of::<C>();
    for v in values {
        out.extend_from_slice(&v.get().to_le_bytes()[..width]);
    }
}

/// Counters a windowed run carries across a checkpoint.
#[derive(Default)]
struct Counters {
    scans: u64,
    scan_pairs: u64,
    far_scans: u64,
    values_read: u64,
    window_bytes: u64,
}

fn largest(run: &Run) -> u32 {
    let top = |counts: &Vec<u64>| counts.iter().rposition(|&c| c > 0).unwrap_or(0);
    top(&run.histogram[0]).max(top(&run.histogram[1])) as u32
}

/// Saves the window: the stream first flushed to disk, then the checkpoint
/// written beside its target, synced and renamed over it.
fn save<C: Cell>(
    path: &Path,
    options: &WindowOptions,
    window: &Window<C>,
    run: &Run,
    scratch: &Scratch,
    stream: &mut StreamWriter,
    counters: &Counters,
) -> Result<()> {
    let state = stream.sync()?;
    let saved = Saved {
        format: WINDOW_FORMAT.to_owned(),
        width: size_of::<C>() as u8,
        game: options.game.clone(),
        stream: state,
        keep: window.keep,
        base: window.base,
        front: window.front.len(),
        tail: window.tail.len(),
        mask: run.split.mask,
        parity: run.split.parity,
        bits: run.bits,
        next_choice: run.next_choice,
        rare: run.rare.clone(),
        rare_values: run.rare_values.clone(),
        histogram: run.histogram.clone(),
        scans: counters.scans + scratch.scans,
        scan_pairs: counters.scan_pairs + scratch.scan_pairs,
        mask_choices: run.stats.mask_choices,
        far_scans: counters.far_scans,
        values_read: counters.values_read,
        window_bytes: counters.window_bytes,
    };
    let fail = |e: &dyn std::fmt::Display| Error::Checkpoint {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    let mut bytes = serde_json::to_vec(&saved).map_err(|e| fail(&e))?;
    bytes.push(b'\n');
    encode(&window.front, &mut bytes);
    encode(&window.tail, &mut bytes);
    let sum = fnv1a(FNV_OFFSET, &bytes);
    bytes.extend(sum.to_le_bytes());
    let partial = PathBuf::from(format!("{}.partial", path.display()));
    let write = || -> std::io::Result<()> {
        let mut file = File::create(&partial)?;
        file.write_all(&bytes)?;
        file.sync_all()?;
        std::fs::rename(&partial, path)
    };
    write().map_err(|e| fail(&e))
}

/// Where [`verify_stream`] recomputes a stream's chunks: into a scratch
/// stream, from heap 0 or from a windowed run's checkpoint.
#[derive(Clone, Debug)]
pub struct Recompute {
    /// The scratch stream (removed afterwards; its checkpoint too, beside
    /// it as `SCRATCH.window`).
    pub scratch: PathBuf,
    /// The most bytes the recomputation's window may take.
    pub memory_limit: u64,
    /// A checkpoint the run that wrote the stream saved (`--checkpoint`,
    /// a copy of it kept at some heap `h`): the recomputation goes on from
    /// its window at `h`, with the stream's values before `h` as the run
    /// read them back (checked against their checksums), instead of
    /// computing every heap from 0. The heaps of the chunks from `h` on are
    /// recomputed (at least one: `h` must lie before the chunks' end).
    pub from: Option<PathBuf>,
}

/// Checks the value stream at `path`: every chunk's checksum and the root
/// (refusing damage with [`Error::Stream`]), then computes chunks `chunks`
/// (every chunk when `None`) again with the windowed engine as `recompute`
/// says, and compares them value by value. Returns the stream, the chunks
/// recomputed and the heap the recomputation started at (the heaps of
/// those chunks from it on were recomputed).
///
/// From a checkpoint, what is checked is that the engine, given the
/// checkpoint's window and the stream's earlier values, writes the same
/// values: a wrong value before the checkpoint is not recomputed (its
/// checksum only says it is the value the run wrote).
pub fn verify_stream(
    path: &Path,
    chunks: Option<std::ops::Range<u64>>,
    recompute: &Recompute,
    progress: &mut dyn FnMut(&WindowProgress) -> bool,
) -> Result<(super::ValueStream, std::ops::Range<u64>, u64)> {
    let stream = super::ValueStream::open(path)?;
    stream.check(0..stream.chunks(), &mut |_| true)?;
    let chunks = stream.chunk_range(chunks)?;
    let refuse = |reason: String| Error::Stream {
        path: path.display().to_string(),
        reason,
    };
    let solver = stream
        .game
        .parse::<crate::TakeBreak>()
        .ok()
        .as_ref()
        .and_then(SparseSolver::new)
        .ok_or_else(|| {
            refuse(format!(
                "{} is not a game the windowed engine computes",
                stream.game
            ))
        })?;
    let last = (chunks.end * super::CHUNK_HEAPS as u64).min(stream.heaps) - 1;
    let scratch = &recompute.scratch;
    let mut options = WindowOptions {
        game: stream.game.clone(),
        stream: scratch.clone(),
        checkpoint: None,
        resume: false,
        memory_limit: recompute.memory_limit,
        width: stream.width,
        widen: false,
        sizes: WindowSizes::default(),
        threads: 1,
    };
    let window = PathBuf::from(format!("{}.window", scratch.display()));
    let chunk = super::CHUNK_HEAPS as u64;
    let heaps = chunks.start * chunk..last + 1;
    let computed =
        from_checkpoint(&stream, heaps, recompute, &mut options, &window).and_then(|start| {
            solver.extend_windowed(last, &options, progress)?;
            Ok(start)
        });
    let compared = computed.and_then(|start| {
        let again = super::ValueStream::open(scratch)?;
        stream.for_each_chunk(chunks.clone(), &mut |first, values| {
            let expected = again.values(first, first + values.len() as u64 - 1)?;
            match (0..values.len()).find(|&i| values[i] != expected[i]) {
                Some(i) => Err(refuse(format!(
                    "g({}) is {} in the stream, but the engine computes {}",
                    first + i as u64,
                    values[i],
                    expected[i]
                ))),
                None => Ok(()),
            }
        })?;
        Ok(start)
    });
    let _ = std::fs::remove_file(scratch);
    let _ = std::fs::remove_file(&window);
    compared.map(|start| (stream, chunks, start))
}

/// Sets `options` up to go on from `recompute.from`, a checkpoint of the
/// run that wrote `stream`, when given: the stream's bytes before the
/// checkpoint's heap copied to the scratch stream, the checkpoint to
/// `window` (a run saves its checkpoint when it ends, and the user's must
/// stay as it is). Returns the heap the recomputation starts at: the
/// checkpoint's, which must lie before the end of `heaps` (the heaps to
/// compare; those before it are compared with their copies), or 0.
fn from_checkpoint(
    stream: &super::ValueStream,
    heaps: std::ops::Range<u64>,
    recompute: &Recompute,
    options: &mut WindowOptions,
    window: &Path,
) -> Result<u64> {
    let Some(checkpoint) = &recompute.from else {
        return Ok(0);
    };
    let (saved, _) = read_checkpoint(checkpoint, options)?;
    let start = saved.stream.heaps;
    if start >= heaps.end {
        return Err(Error::InvalidRange {
            reason: format!(
                "the checkpoint {} is at heap {start}, past the heaps to recompute, {}..{}: \
                 recompute later chunks, or from an earlier checkpoint",
                checkpoint.display(),
                heaps.start,
                heaps.end
            ),
        });
    }
    let fail = |path: &Path, e: std::io::Error| Error::Stream {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    let mut prefix = File::open(&stream.path).map_err(|e| fail(&stream.path, e))?;
    let mut copy = File::create(&options.stream).map_err(|e| fail(&options.stream, e))?;
    std::io::copy(
        &mut Read::by_ref(&mut prefix).take(stream.bytes_before(start)),
        &mut copy,
    )
    .map_err(|e| fail(&options.stream, e))?;
    std::fs::copy(checkpoint, window).map_err(|e| fail(window, e))?;
    options.checkpoint = Some((window.to_owned(), Duration::MAX));
    options.resume = true;
    Ok(start)
}
