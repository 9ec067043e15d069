//! Value tables `g(0), g(1), …, g(N)` for heap games, with the engine
//! chosen automatically: a closed form when the ruleset knows one; for
//! take-and-break codes the sparse-space solver applies to, whichever of
//! the sparse and dense engines is cheaper per heap, measured as the table
//! grows; the dense solver otherwise.
//!
//! Dense: for a [`HeapRuleset`] every option of heap `n` is a sum of smaller
//! heaps, so the table fills in increasing order, each entry the mex of
//! values already in it ("pull"). The ruleset's [`HeapRuleset::gather`]
//! supplies the option values directly from the table.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::clock::thread_time;

use super::{Checkpoint, Pipeline, SparseSolver, SparseStats};
use crate::error::human_bytes;
use crate::{Error, HeapRuleset, MexScratch, Nimber, Options, Result, ValueTable};

/// Which engine fills a table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// For codes the sparse-space solver applies to, the cheaper of sparse
    /// and dense per heap, measured as the table grows (dense only while its
    /// working copy fits the memory limit); dense for everything else.
    #[default]
    Auto,
    /// Always the dense solver (for comparison).
    Dense,
    /// The sparse-space solver; an error where it does not apply.
    Sparse,
}

/// The default memory limit for one value table: 4 GiB.
pub const DEFAULT_TABLE_LIMIT: u64 = 4 << 30;

/// Heaps the automatic choice computes with the sparse engine before it
/// first measures both engines.
const AUTO_START: u64 = 1 << 10;

/// Each time the table doubles, the automatic choice times both engines on
/// this fraction of the next stretch (at least [`AUTO_MIN_SAMPLE`] heaps)
/// and computes the rest with the cheaper: the slower engine's samples
/// cost a few percent at most.
const AUTO_SAMPLE_FRACTION: u64 = 64;

/// How many times cheaper per heap an engine must be for the automatic
/// choice to stop measuring and let it finish the table.
const AUTO_CLEAR_LEAD: f64 = 4.0;

/// Samples on shorter tables are too small to settle the choice for good.
const AUTO_CLEAR_FROM: u64 = 1 << 15;

/// The least time the dense engine's sample is given: its first heaps pay
/// for setting up, and a few microseconds measure that rather than the
/// cost per heap.
const AUTO_MIN_DENSE_TIME: Duration = Duration::from_micros(200);

/// Options the dense engine lists per nanosecond, at most: it visits every
/// option of a heap, and its fastest rate measured is about ten a
/// nanosecond (Kayles, BENCHMARKS.md's table kernel); this bound leaves a
/// margin of six for wider vector units. A heap with `k` options costs
/// that engine `k / DENSE_MOST_OPTIONS_PER_NS` nanoseconds at least.
const DENSE_MOST_OPTIONS_PER_NS: f64 = 64.0;

/// The fewest heaps a cost sample times.
const AUTO_MIN_SAMPLE: u64 = 32;

/// How often, in heaps, the progress callback is called.
const PROGRESS_STRIDE: usize = 4096;

/// How often, in heaps, the dense engine checks the current
/// [`Cancel`](crate::Cancel) token. Heaps that are costly alone (moves into
/// many heaps, scripts) check it inside as well.
const CANCEL_STRIDE: usize = 16;

/// How often, in heaps, the dense engine looks at the clock, to call the
/// progress callback at least every [`PROGRESS_INTERVAL`].
const PROGRESS_CHECK: usize = 64;

/// The longest the dense engine goes without calling the progress
/// callback, past one [`PROGRESS_CHECK`] of heaps.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(200);

/// Seconds per heap of a sample.
fn per_heap(elapsed: Duration, heaps: u64) -> f64 {
    elapsed.as_secs_f64() / heaps.max(1) as f64
}

/// Fills value tables for heap games, choosing the engine.
///
/// ```
/// use grundy::{TableSolver, HeapGame};
/// let kayles: HeapGame = "kayles".parse().unwrap();
/// let values = TableSolver::new().values(&kayles, 12).unwrap();
/// let values: Vec<u32> = values.iter().map(|v| v.get()).collect();
/// assert_eq!(values, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
/// ```
#[derive(Clone, Debug)]
pub struct TableSolver {
    memory_limit: u64,
    use_closed_forms: bool,
    engine: Engine,
    pipeline: Pipeline,
    threads: usize,
    checkpoint: Option<CheckpointPolicy>,
}

/// Where and how often [`TableSolver::extend`] saves its table.
#[derive(Clone, Debug)]
struct CheckpointPolicy {
    path: PathBuf,
    game: String,
    every: Duration,
}

impl Default for TableSolver {
    fn default() -> Self {
        TableSolver {
            memory_limit: DEFAULT_TABLE_LIMIT,
            use_closed_forms: true,
            engine: Engine::Auto,
            pipeline: Pipeline::Auto,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            checkpoint: None,
        }
    }
}

impl TableSolver {
    /// A solver with the default memory limit that uses closed forms.
    pub fn new() -> TableSolver {
        TableSolver::default()
    }

    /// Sets the largest table, in bytes, the solver may allocate.
    pub fn with_memory_limit(mut self, bytes: u64) -> TableSolver {
        self.memory_limit = bytes;
        self
    }

    /// Saves the table of `game` to `path` about every `every` (and when
    /// interrupted), in chunks, so that a run can be resumed with
    /// [`Checkpoint::load`]. A run killed outright loses at most one chunk.
    pub fn with_checkpoint(mut self, path: PathBuf, game: String, every: Duration) -> TableSolver {
        self.checkpoint = Some(CheckpointPolicy { path, game, every });
        self
    }

    /// How many threads a table may use: the sparse engine uses them all
    /// while heaps are expensive (see [`Pipeline`]); 1 keeps every run on
    /// one thread. The default is every core of the machine.
    pub fn with_threads(mut self, threads: usize) -> TableSolver {
        self.threads = threads.max(1);
        self.pipeline = if threads >= 2 {
            Pipeline::Auto
        } else {
            Pipeline::Off
        };
        self
    }

    /// Chooses the engine.
    pub fn with_engine(mut self, engine: Engine) -> TableSolver {
        self.engine = engine;
        self
    }

    /// Always searches, even when the ruleset knows a closed form (for
    /// cross-checking the closed form).
    pub fn without_closed_forms(mut self) -> TableSolver {
        self.use_closed_forms = false;
        self
    }

    /// How many threads a table (or a windowed run) may use (see
    /// [`Self::with_threads`]).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The memory limit, in bytes.
    pub fn memory_limit(&self) -> u64 {
        self.memory_limit
    }

    /// The engine chosen ([`Self::with_engine`]).
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// The bytes a table of heaps `0..=to` may take at its peak. The table
    /// itself holds one byte per heap while every value is below 256 and two
    /// below 65536; the sparse engine works on it in place (3 bytes per heap
    /// at the moment it widens from one byte to two), while the dense engine
    /// also keeps a four-byte working copy.
    pub fn table_bytes(&self, to: u64) -> u128 {
        let per_heap = match self.engine {
            Engine::Dense => 6,
            Engine::Auto | Engine::Sparse => 3,
        };
        (u128::from(to) + 1) * per_heap
    }

    /// Checks up front that a table of heaps `0..=to` fits the memory limit.
    pub fn check_fits(&self, to: u64) -> Result<()> {
        self.check_bytes(to, self.table_bytes(to))
    }

    /// [`Self::check_fits`] for the table of `rules`: where a closed form
    /// gives the values, the widest of them is known up front (Nim to 10^9
    /// stores four bytes per heap beside the four-byte working copy, not
    /// the one byte [`Self::table_bytes`] assumes).
    pub fn check_fits_for<R: HeapRuleset + ?Sized>(&self, rules: &R, to: u64) -> Result<()> {
        let widest = usize::try_from(to)
            .ok()
            .filter(|_| self.use_closed_forms)
            .and_then(|n| rules.closed_form(n));
        match widest {
            Some(value) => {
                let width: u128 = match value {
                    0..=0xff => 1,
                    0x100..=0xffff => 2,
                    _ => 4,
                };
                self.check_bytes(to, (u128::from(to) + 1) * (4 + width))
            }
            None => self.check_fits(to),
        }
    }

    /// Checks up front that `needed` bytes, for heaps `0..=to`, fit the
    /// memory limit.
    pub(crate) fn check_bytes(&self, to: u64, needed: u128) -> Result<()> {
        if needed > u128::from(self.memory_limit) || usize::try_from(to).is_err() {
            return Err(Error::TableTooLarge {
                to,
                needed: crate::error::human_bytes_near(needed, u128::from(self.memory_limit)),
                limit: crate::error::human_bytes_near(u128::from(self.memory_limit), needed),
            });
        }
        Ok(())
    }

    /// The values of heaps `0..=to`.
    pub fn values<R: HeapRuleset + ?Sized>(&self, rules: &R, to: u64) -> Result<ValueTable> {
        let mut values = ValueTable::new();
        self.extend(rules, &mut values, to, &mut |_| true)?;
        Ok(values)
    }

    /// Extends `values` (a table of heaps `0..values.len()`) to heaps
    /// `0..=to`, calling `progress(n)` every few thousand heaps; when it
    /// returns `false` the run stops with [`Error::Interrupted`], keeping
    /// every finished heap (and saving them, with a checkpoint). Returns the
    /// sparse solver's statistics when that engine ran.
    pub fn extend<R: HeapRuleset + ?Sized>(
        &self,
        rules: &R,
        values: &mut ValueTable,
        to: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<Option<SparseStats>> {
        let Some(policy) = &self.checkpoint else {
            return self.extend_once(rules, values, to, progress);
        };
        self.check_fits(to)?;
        // Each chunk is sized from the rate of the last one to take about
        // the interval, growing at most eightfold at a time.
        let mut chunk: u64 = 1 << 16;
        let mut stats = None;
        loop {
            let started = Instant::now();
            let before = values.len() as u64;
            let target = to.min(before + chunk - 1);
            let result = self.extend_once(rules, values, target, progress);
            Checkpoint::save(&policy.path, &policy.game, values)?;
            stats = result?.or(stats);
            if values.len() as u64 > to {
                return Ok(stats);
            }
            let done = values.len() as u64 - before;
            let seconds = started.elapsed().as_secs_f64().max(1e-3);
            let fitting = (done as f64 / seconds * policy.every.as_secs_f64()) as u64;
            chunk = fitting.clamp(1 << 16, chunk.saturating_mul(8));
        }
    }

    fn extend_once<R: HeapRuleset + ?Sized>(
        &self,
        rules: &R,
        values: &mut ValueTable,
        to: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<Option<SparseStats>> {
        self.check_fits_for(rules, to)?;
        let end = to as usize + 1; // check_fits_for proved `to` fits in usize
        if values.len() >= end {
            return Ok(None);
        }
        values
            .try_reserve_exact(end - values.len())
            .map_err(|_| Error::OutOfMemory {
                to,
                needed: human_bytes(self.table_bytes(to)),
            })?;
        let closed_form = self.use_closed_forms && rules.closed_form(0).is_some();
        let sparse = rules
            .as_take_break()
            .and_then(SparseSolver::new)
            .map(|sparse| {
                sparse
                    .with_pipeline(self.pipeline)
                    .with_threads(self.threads)
            });
        match (self.engine, sparse) {
            (Engine::Sparse, None) => Err(Error::EngineUnavailable {
                reason: "the sparse engine applies only to take-and-break codes without a \
                         repeating block whose moves leave at most two heaps"
                    .into(),
            }),
            (Engine::Sparse, Some(sparse)) if !closed_form => {
                sparse.extend(values, to, progress).map(Some)
            }
            (Engine::Auto, Some(sparse)) if !closed_form => {
                self.extend_measured(rules, &sparse, values, to, progress)
            }
            _ => self
                .extend_dense(rules, values, end, progress)
                .map(|()| None),
        }
    }

    /// The automatic engine: both engines give the same values, so each
    /// stretch of heaps goes to the one that is cheaper per heap, measured
    /// on the heaps just before it. Costs move as the table grows (dense
    /// work per heap grows with `n` for games that split heaps, sparse work
    /// with the number of rare heaps), so the choice is made again each
    /// time the table doubles.
    fn extend_measured<R: HeapRuleset + ?Sized>(
        &self,
        rules: &R,
        sparse: &SparseSolver,
        values: &mut ValueTable,
        to: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<Option<SparseStats>> {
        let mut stats = None;
        // The dense engine's working copy takes 4 more bytes per heap.
        let dense_fits = (u128::from(to) + 1) * 6 <= u128::from(self.memory_limit);
        if !dense_fits {
            return sparse.extend(values, to, progress).map(Some);
        }
        let first = to.min(AUTO_START - 1);
        if values.len() as u64 <= first {
            stats = Some(sparse.extend(values, first, progress)?);
        }
        while values.len() as u64 <= to {
            let n = values.len() as u64;
            let stretch_end = to.min(2 * n - 1);
            let sample = ((stretch_end + 1 - n) / AUTO_SAMPLE_FRACTION).max(AUTO_MIN_SAMPLE);
            // The sparse engine first rebuilds its rare list from the
            // table, which is not a cost per heap: the sample's cost leaves
            // it out. Both samples are timed by this thread's CPU clock,
            // which other work on the machine does not move.
            let started = thread_time();
            let before = values.len();
            let (sample_stats, setup) =
                sparse.extend_timed(values, to.min(n + sample - 1), progress)?;
            stats = Some(sample_stats);
            let sparse_time = thread_time() - started;
            let sparse_cost = per_heap(
                sparse_time.saturating_sub(setup),
                (values.len() - before) as u64,
            );
            if values.len() as u64 > to {
                break;
            }
            // The dense engine's least possible cost of the next heap: where
            // even that is a clear loss it stands for the sample, which
            // copies the whole table to four bytes a heap and back.
            let dense_floor = rules.as_take_break().map_or(0.0, |code| {
                let options = code.option_count(values.len(), u64::MAX) as f64;
                options / DENSE_MOST_OPTIONS_PER_NS * 1e-9
            });
            let dense_cost = if n >= AUTO_CLEAR_FROM && sparse_cost * AUTO_CLEAR_LEAD < dense_floor
            {
                dense_floor
            } else {
                // Dense gets no more time than sparse took: where it is
                // much slower (games that split heaps, on long tables), a
                // sample of the same size would cost more than the stretch
                // saves.
                let before = values.len();
                let dense_end = to.min(before as u64 + sample - 1) as usize + 1;
                let budget = sparse_time.max(AUTO_MIN_DENSE_TIME);
                let dense_time = self.dense_timed(rules, values, dense_end, budget, progress)?;
                if values.len() as u64 > to {
                    break;
                }
                per_heap(dense_time, (values.len() - before) as u64)
            };
            // A clear winner finishes the table: measuring again would
            // cost more (each sparse start rebuilds its rare list) than a
            // late change of lead could save.
            let clear = n >= AUTO_CLEAR_FROM
                && (dense_cost * AUTO_CLEAR_LEAD < sparse_cost
                    || sparse_cost * AUTO_CLEAR_LEAD < dense_cost);
            let end = if clear { to } else { stretch_end };
            if dense_cost < sparse_cost {
                // Statistics describe the engine that computes the end of
                // the table.
                stats = None;
                self.extend_dense(rules, values, end as usize + 1, progress)?;
            } else {
                stats = Some(sparse.extend(values, end, progress)?);
            }
        }
        Ok(stats)
    }

    /// [`Self::extend_dense`] for at most `budget` of computing (at least
    /// one heap), timing only the computation (not the copies between the
    /// table and the working vector).
    fn dense_timed<R: HeapRuleset + ?Sized>(
        &self,
        rules: &R,
        table: &mut ValueTable,
        end: usize,
        budget: Duration,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<Duration> {
        let mut values = table.to_vec();
        let started = thread_time();
        let result =
            self.fill_dense_until(rules, &mut values, end, Some(started + budget), progress);
        let elapsed = thread_time() - started;
        *table = ValueTable::from(values);
        result.map(|()| elapsed)
    }

    /// The dense engine: each heap's options gathered from a four-byte
    /// working copy of the table, which is compacted back at the end (also
    /// when interrupted).
    fn extend_dense<R: HeapRuleset + ?Sized>(
        &self,
        rules: &R,
        table: &mut ValueTable,
        end: usize,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<()> {
        let mut values = table.to_vec();
        let result = self.fill_dense_until(rules, &mut values, end, None, progress);
        *table = ValueTable::from(values);
        result
    }

    /// Fills `values` up to `end` heaps, or until this thread's CPU clock
    /// ([`thread_time`]) passes `until` (checked after each heap; at least
    /// one heap is computed).
    fn fill_dense_until<R: HeapRuleset + ?Sized>(
        &self,
        rules: &R,
        values: &mut Vec<Nimber>,
        end: usize,
        until: Option<Duration>,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<()> {
        values
            .try_reserve_exact(end.saturating_sub(values.len()))
            .map_err(|_| Error::OutOfMemory {
                to: end as u64 - 1,
                needed: human_bytes(self.table_bytes(end as u64 - 1)),
            })?;
        if let Some(code) = rules.as_take_break() {
            // What the table leaves of the limit bounds its many-part split
            // sets.
            let table = self.table_bytes(end as u64 - 1);
            code.limit_split_sets(
                u64::try_from(u128::from(self.memory_limit).saturating_sub(table))
                    .unwrap_or(u64::MAX),
            );
        }
        let mut seen = MexScratch::new();
        let mut scratch = Options::new();
        let mut max = values.iter().copied().max().unwrap_or(Nimber::ZERO);
        let mut reported = Instant::now();
        for n in values.len()..end {
            let value = match rules.closed_form(n).filter(|_| self.use_closed_forms) {
                Some(v) => Nimber::try_from(v)?,
                None => {
                    seen.clear();
                    rules.gather(n, values, max, &mut seen, &mut scratch)?;
                    seen.mex()?
                }
            };
            max = max.max(value);
            values.push(value);
            if n % CANCEL_STRIDE == 0 {
                crate::cancel::check()?;
            }
            // Every few thousand heaps, and as often as the interval allows
            // where heaps are slow (games that split into many heaps), so
            // that a caller's time limit or Ctrl-C stops the run promptly.
            let due = n % PROGRESS_STRIDE == 0
                || (n % PROGRESS_CHECK == 0 && reported.elapsed() >= PROGRESS_INTERVAL);
            if due {
                reported = Instant::now();
                if !progress(n) {
                    return Err(Error::Interrupted {
                        heaps: values.len() as u64,
                    });
                }
            }
            if until.is_some_and(|t| thread_time() >= t) {
                return Ok(());
            }
        }
        progress(end - 1);
        Ok(())
    }
}
