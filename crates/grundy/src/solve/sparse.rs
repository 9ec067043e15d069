//! The sparse-space ("rare/common") solver for take-and-break games whose
//! moves leave at most two heaps.
//!
//! Fix a bit mask `M` and let `chi(v) = parity(popcount(v & M))`; `chi` is
//! linear over XOR. Call a value *common* if `chi(v) = 1` and *rare* if
//! `chi(v) = 0`, and a heap rare when its value is. A split into heaps `a`
//! and `b` has value `g(a) ^ g(b)`, which is common exactly when one of `a`,
//! `b` is rare. In many octal games almost every heap is common, so for heap
//! `n`:
//!
//! 1. gather the values of the moves that leave one heap or none, and of the
//!    splits with a rare part: `O(#rare)` per splitting digit;
//! 2. take `m`, the mex of those. Every common value among the options has
//!    been seen, so if `m` is common it is `g(n)`;
//! 3. otherwise `m` is rare and a split of two common heaps may produce it:
//!    scan the splits `a = 1, 2, ...` (every splitting digit at the same
//!    `a`), marking what they produce and raising `m` past every value seen,
//!    until `m` is common or the splits run out. If they run out, `g(n) = m`
//!    is rare and `n` joins the rare heaps. (Before the scan from `a = 1`,
//!    a few thousand pairs from a point the run learns are read first: see
//!    the `probe` module.)
//!
//! The values are exact for every mask; a bad mask only costs time. The mask
//! is chosen from the value counts: with `cnt[v]` the number of heaps of
//! value `v`, the Walsh–Hadamard transform `W(M) = sum cnt[v] (-1)^{|v & M|}`
//! equals (rare heaps) - (common heaps) for every `M` at once, so the best
//! mask minimises `W`. It is chosen again, and the rare list rebuilt, each
//! time the number of heaps doubles. (Method: Gangolli & Plambeck 1989; see
//! also Flammenkamp's octal game tables.)
//!
//! The table is kept compact while the engine runs — one byte per heap while
//! every value is below 256, two bytes after that — and the step-3 scan
//! marks nothing: it lists the values it may still need (every unmarked
//! value from `m` up to the least one no common pair can be worth) and tests
//! blocks of pairs for any of them with vector instructions, crossing off
//! what the few hits hold (see the `wanted` module).

use std::time::{Duration, Instant};

use super::clock::thread_time;
use super::crew::{Advisor, Behind, Block, Guesses, Heaps};
use super::load::idle_core;
use super::premark::{Partners, Premarks, uncovered};
use super::probe::{PROBE_PAIRS, Probe};
use super::wanted::Wanted;
use crate::fold::{Fold, Split, fewest_rare};
use crate::values::Cells;
use crate::{Error, Nimber, Result, TakeBreak, ValueTable};

/// Heaps computed by plain scans before the first mask is chosen.
const WARM_UP: usize = 1 << 10;

/// Pairs tested together in a block of a scan (see [`block_end`]).
pub(super) const BLOCK: usize = 4096;

/// Where the block of a scan that starts at pair `a` ends: the blocks are
/// `[1, 4097)`, `[4097, 8193)`, ..., one grid fixed by `a` alone, so that a
/// scan resumed at a block's start (by a windowed run) passes the same
/// blocks in the same order as one that was not, and counts the same pairs;
/// every block but a scan's last is a whole number of the vector tests'
/// steps of 64 pairs. Every block test stops as soon as no wanted value is
/// left, so a long block costs a short scan nothing, while each block costs
/// a call of the test per splitting digit (its tables made, its members
/// brought up to date): whole blocks from the first pair make the fewest
/// calls (blocks growing from 64 pairs cost Grundy's game 1.16x the time;
/// see docs/engine-history.md, "Blocks of 4096 pairs from the first
/// pair").
#[inline(always)]
fn block_end(a: usize) -> usize {
    let from = a.max(1) - 1;
    (from / BLOCK + 1) * BLOCK + 1
}

/// Counters describing a sparse run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SparseStats {
    /// The mask in force at the end: values `v` with `|v & mask|` even are
    /// rare.
    pub mask: u32,
    /// The number of rare heaps (heap 0 excluded) under that mask.
    pub rare_count: usize,
    /// The largest rare heap, if any.
    pub last_rare: Option<usize>,
    /// How many heaps needed a scan of common pairs.
    pub scans: u64,
    /// How many pairs those scans looked at.
    pub scan_pairs: u64,
    /// How many times the mask was chosen.
    pub mask_choices: u32,
    /// Whether the final split is the position-parity one: heap `k` of value
    /// `v` is rare when `parity(popcount(v & mask)) ^ (k mod 2)` equals the
    /// parity of the splitting digits.
    pub position_parity: bool,
    /// Heaps computed on several threads whose answer a deferred option
    /// (one with a heap not committed when the answer was computed) could
    /// change, or whose scan ran past a window's heaps, computed again.
    pub repaired: u64,
    /// Heaps computed again because the thread computing them was late.
    pub taken_over: u64,
}

/// Values of a take-and-break game by the rare/common method.
///
/// ```
/// use grundy::solve::{Engine, SparseSolver};
/// use grundy::{TableSolver, HeapGame, TakeBreak};
/// let code: TakeBreak = "0.165".parse().unwrap();
/// let sparse = SparseSolver::new(&code).unwrap();
/// let mut values = grundy::ValueTable::new();
/// sparse.extend(&mut values, 20_000, &mut |_| true).unwrap();
/// let dense = TableSolver::new()
///     .with_engine(Engine::Dense)
///     .values(&HeapGame::TakeBreak(code), 20_000)
///     .unwrap();
/// assert_eq!(values, dense);
/// ```
#[derive(Clone, Debug)]
pub struct SparseSolver {
    /// `(t, leave nothing, leave one)` for digits with those bits.
    pub(super) takes: Vec<(usize, bool, bool)>,
    /// `(t, parts unequal)` for digits that may leave two heaps, by `t`.
    pub(super) splits: Vec<(usize, bool)>,
    /// `Some(t)` when the digits that split are exactly two, taking `t`
    /// and `t + 1` tokens, both allowing equal parts.
    neighbour_splits: Option<usize>,
    pub(super) pipeline: Pipeline,
    /// Threads a run may use when the pipeline is on.
    threads: usize,
}

/// Whether a run computes heaps on several threads (see the `crew`
/// module: each heap on one thread from a table a few heaps short, the
/// answers committed in order and the few that a missing heap changes
/// computed again). Values are exact either way.
///
/// Threads pay only when heaps are expensive: a heap costs 0.2 to 5 µs,
/// and every chunk of 32 heaps passes one lock and a few cache lines
/// between cores.
/// [`Pipeline::Auto`] times each block of 4096 heaps (65536 once several
/// threads have won one), tries several threads above a cost per heap
/// (`crew::PARALLEL_FROM_NANOS`, 160 ns, tuned on one machine), and keeps
/// them only while they are faster.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pipeline {
    /// One thread.
    Off,
    /// Several threads while heaps are expensive enough to pay for it.
    #[default]
    Auto,
    /// Several threads from the first heap on (for testing).
    Always,
}

/// Heaps per block: progress is reported, and the threads decided, once
/// per block.
const STRIDE: usize = 4096;

/// Heaps per block once several threads have won a block: each block
/// starts its helper threads anew and ends when the slowest is done, so
/// long blocks spend less on that (see docs/engine-history.md, "Two
/// threads: the crew's per-heap costs and the probe's tries", item 6);
/// blocks that may lose, the tries, stay short (but for cheap heaps, see
/// [`Advisor::try_blocks`]).
const PARALLEL_STRIDE: usize = 16 * STRIDE;

/// Heaps in a run's first block, which measures the cost of a heap on one
/// thread before any block may run on several: the automatic engine
/// starts a run for each stretch of the table it gives the sparse engine,
/// and a first block of a whole [`STRIDE`] would keep each stretch's first
/// heaps on one thread before the advisor could try several (see
/// docs/engine-history.md, "Two threads' shared reads, repairs and first
/// blocks", item 2).
const FIRST_STRIDE: usize = STRIDE / 8;

/// The work of one thread in a run, each compiled for the vector
/// instructions the CPU has.
enum Job<'a, 'b, C> {
    /// The main thread of a run to `end`.
    Lead(
        &'a mut Vec<C>,
        &'a mut Run,
        usize,
        &'a mut [Scratch],
        &'a mut dyn FnMut(usize) -> bool,
    ),
    /// One thread's share of a block computed by several.
    Work(&'a Block<'b, C>, &'a mut Scratch),
}

/// How one pass of the main loop ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Every heap asked for is computed.
    Done,
    /// A value does not fit the cell type: go on with a wider one.
    Widen,
    /// The progress callback asked to stop.
    Stopped,
}

/// How a run paces its blocks: how long each is, and whether it runs on
/// one thread or on every thread of the crew, as the [`Advisor`] finds
/// from the blocks before. The full-table engine's main loop and the
/// windowed engine's share it.
pub(super) struct Pace {
    advisor: Advisor,
    /// The next block runs on several threads (if there are several).
    parallel: bool,
    /// The last block ran on several threads and won.
    won: bool,
    pipeline: Pipeline,
    threads: usize,
    /// The run's first heap.
    start: usize,
    /// When the current block started.
    started: Instant,
}

impl Pace {
    /// The pace of a run on `threads` threads (the first the caller's)
    /// from heap `start`.
    pub(super) fn new(pipeline: Pipeline, threads: usize, start: usize) -> Pace {
        Pace {
            advisor: Advisor::default(),
            parallel: pipeline == Pipeline::Always,
            won: false,
            pipeline,
            threads,
            start,
            started: Instant::now(),
        }
    }

    /// Whether the current block runs on several threads.
    pub(super) fn parallel(&self) -> bool {
        self.parallel && self.threads > 1
    }

    /// Where the block from heap `n` ends (at `end` at the latest), its
    /// time counted from now.
    pub(super) fn block(&mut self, n: usize, end: usize) -> usize {
        let stride = match (self.won, self.parallel) {
            (true, _) => PARALLEL_STRIDE,
            (false, true) => self.advisor.try_blocks() * STRIDE,
            (false, false) if n == self.start => FIRST_STRIDE,
            (false, false) => STRIDE,
        };
        self.started = Instant::now();
        ((n / stride + 1) * stride).min(end)
    }

    /// Takes in the time of the block just ended, of `heaps` heaps.
    pub(super) fn ended(&mut self, heaps: usize) {
        if self.pipeline == Pipeline::Auto && self.threads > 1 {
            let per_heap = self.started.elapsed().as_nanos() / heaps.max(1) as u128;
            let next = self
                .advisor
                .parallel_next(self.parallel, per_heap, idle_core);
            self.won = self.parallel && next;
            self.parallel = next;
        }
    }
}

/// The instruction sets the engine's loops are compiled for, the widest
/// the CPU has: the scan's block test vectorises only with them, and
/// `chi`'s parity of a popcount is one instruction with `popcnt`.
#[derive(Clone, Copy)]
pub(super) enum Features {
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    Plain,
}

impl Features {
    /// The CPU's features, found once (the windowed engine asks at every
    /// block).
    pub(super) fn detect() -> Features {
        static FEATURES: std::sync::OnceLock<Features> = std::sync::OnceLock::new();
        *FEATURES.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            {
                use std::arch::is_x86_feature_detected as has;
                let base =
                    has!("avx2") && has!("popcnt") && has!("bmi1") && has!("bmi2") && has!("lzcnt");
                if base && has!("avx512f") && has!("avx512bw") && has!("avx512vl") {
                    return Features::Avx512;
                }
                if base {
                    return Features::Avx2;
                }
            }
            Features::Plain
        })
    }
}

/// A compact table cell holding values below `LIMIT`.
pub(super) trait Cell:
    Copy + Default + Eq + std::ops::BitXor<Output = Self> + Send + Sync + 'static
{
    /// Every value stored is below this.
    const LIMIT: u32;
    /// Whether scans read a table of folded bytes beside this one while
    /// every value is below 512 (see [`Fold`]): for two-byte cells.
    const FOLDS: bool = false;
    /// The cell of a value below `LIMIT`.
    fn new(v: u32) -> Self;
    /// The value.
    fn get(self) -> u32;
    /// The cells as bytes, for one-byte cells.
    #[inline(always)]
    fn bytes(_cells: &[Self]) -> Option<&[u8]> {
        None
    }
    /// Crosses off of `wanted` the values of the pairs `(low[i],
    /// high[high.len() - 1 - i])`, stopping when none is left. Pair by pair
    /// here, with a vector test of 32 pairs at a time for one- and two-byte
    /// cells.
    #[inline(always)]
    fn cross_off(wanted: &mut Wanted, low: &[Self], high: &[Self]) {
        wanted.cross_off_plain(
            low.iter()
                .zip(high.iter().rev())
                .map(|(&a, &b)| (a ^ b).get()),
        );
    }
    /// [`Self::cross_off`] given also the folded bytes of the same heaps,
    /// and, when every value wanted lies in the coset of the pairs of two
    /// common heaps, which pairs have a rare part (bit `i` of
    /// `rare_pairs(at)` for pair `at + i`); cells that do not fold ignore
    /// both.
    #[inline(always)]
    fn cross_off_folded(
        wanted: &mut Wanted,
        _folded: (&[u8], &[u8]),
        low: &[Self],
        high: &[Self],
        _rare_pairs: Option<impl Fn(usize) -> u64>,
    ) {
        Self::cross_off(wanted, low, high);
    }
}

impl Cell for u8 {
    const LIMIT: u32 = 1 << 8;
    #[inline(always)]
    fn new(v: u32) -> u8 {
        v as u8
    }
    #[inline(always)]
    fn get(self) -> u32 {
        u32::from(self)
    }
    #[inline(always)]
    fn bytes(cells: &[u8]) -> Option<&[u8]> {
        Some(cells)
    }
    #[inline(always)]
    fn cross_off(wanted: &mut Wanted, low: &[u8], high: &[u8]) {
        wanted.cross_off_pairs(low, high);
    }
}

impl Cell for Nimber {
    const LIMIT: u32 = u32::MAX;
    #[inline(always)]
    fn new(v: u32) -> Nimber {
        Nimber::new(v)
    }
    #[inline(always)]
    fn get(self) -> u32 {
        Nimber::get(self)
    }
}

impl Cell for u16 {
    const LIMIT: u32 = 1 << 16;
    const FOLDS: bool = true;
    #[inline(always)]
    fn new(v: u32) -> u16 {
        v as u16
    }
    #[inline(always)]
    fn get(self) -> u32 {
        u32::from(self)
    }
    #[inline(always)]
    fn cross_off(wanted: &mut Wanted, low: &[u16], high: &[u16]) {
        wanted.cross_off_pairs(low, high);
    }
    #[inline(always)]
    fn cross_off_folded(
        wanted: &mut Wanted,
        folded: (&[u8], &[u8]),
        low: &[u16],
        high: &[u16],
        rare_pairs: Option<impl Fn(usize) -> u64>,
    ) {
        wanted.cross_off_folded(folded, low, high, rare_pairs);
    }
}

/// The values a heap's computation reads: heaps `low_base..` in `low` (the
/// small partners `a` of a scan's pairs) and heaps `high_base..` in `high`
/// (the heap's own neighbourhood: takes, the partners of rare heaps, the
/// large partners `rest - a`). A full table is both; a windowed run keeps
/// the front of the table and a tail behind the heap, and reads a scan that
/// runs past them back from its value stream (see the `window` module).
#[derive(Clone, Copy)]
pub(super) struct View<'a, C> {
    pub(super) low: &'a [C],
    pub(super) low_base: usize,
    pub(super) high: &'a [C],
    pub(super) high_base: usize,
    /// The partners of the rare heaps `high` does not reach, if any.
    pub(super) far: Option<&'a FarPartners<C>>,
    /// The folded bytes of the same heaps, if the scan may test them.
    pub(super) folded: Option<Folded<'a>>,
}

/// The folded bytes (see [`Fold`]) of a [`View`]'s heaps: `low` and `high`
/// hold the bytes of the heaps of the view's `low` and `high`. Only for a
/// table whose values are all below 512, folded for the split in force.
#[derive(Clone, Copy)]
pub(super) struct Folded<'a> {
    pub(super) fold: Fold,
    pub(super) low: &'a [u8],
    pub(super) high: &'a [u8],
}

/// The partners `rest - d - r` of the *far* rare heaps `r = rare[from..]`,
/// those a windowed run's tail does not reach: for the `i`-th of them, the
/// heaps `base..base + values.len()` read back from the value stream, a
/// stretch that slides forward with the heap (see the `window` module), so
/// a rare heap far out costs a small buffer instead of a tail reaching back
/// to it.
#[derive(Default)]
pub(super) struct FarPartners<C> {
    pub(super) from: usize,
    pub(super) readers: Vec<(usize, Vec<C>)>,
}

impl<C: Cell> FarPartners<C> {
    /// [`mark_rare_splits`] for the far rare heaps `rare[range]`: marks
    /// `values[i] ^ g(rest - d - rare[i])` for every `d` in `0..=also`.
    /// These heaps are few, so plain indexing does; most windowed runs
    /// have none, and then make no call (the marking is not inlined).
    #[inline(always)]
    fn mark(
        &self,
        marks: &mut [u8],
        rare: (&[usize], &[u32]),
        range: std::ops::Range<usize>,
        split: (usize, usize),
    ) {
        if !range.is_empty() {
            self.mark_far(marks, rare, range, split);
        }
    }

    /// [`Self::mark`] for a range with at least one far rare heap.
    #[inline(never)]
    fn mark_far(
        &self,
        marks: &mut [u8],
        (rare, values): (&[usize], &[u32]),
        range: std::ops::Range<usize>,
        (rest, also): (usize, usize),
    ) {
        let top = marks.len() - 1;
        for i in range {
            let (base, partners) = &self.readers[i - self.from];
            for d in 0..=also {
                let partner = partners[rest - d - rare[i] - base].get();
                marks[(values[i] ^ partner) as usize & top] = 1;
            }
        }
    }
}

impl<'a, C: Cell> View<'a, C> {
    /// Every heap of a full table.
    #[inline(always)]
    pub(super) fn full(g: &'a [C]) -> Self {
        View {
            low: g,
            low_base: 0,
            high: g,
            high_base: 0,
            far: None,
            folded: None,
        }
    }

    /// Every heap of a full table, with the folded bytes of every heap if
    /// `folded` is them.
    #[inline(always)]
    pub(super) fn full_folded(g: &'a [C], folded: Option<(Fold, &'a [u8])>) -> Self {
        View {
            folded: folded
                .filter(|(_, bytes)| bytes.len() == g.len())
                .map(|(fold, bytes)| Folded {
                    fold,
                    low: bytes,
                    high: bytes,
                }),
            ..View::full(g)
        }
    }

    /// How many heaps are computed: `high` ends at the last one.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.high_base + self.high.len()
    }

    /// The value of heap `k`, which `high` holds.
    #[inline(always)]
    pub(super) fn near(&self, k: usize) -> u32 {
        self.high[k - self.high_base].get()
    }

    /// The pairs `(a, rest - a)` for `a` in `from..last`, as the slices of
    /// `a` and of `rest - a` (reversed), and their folded bytes if the view
    /// has them, if the view holds them.
    #[inline(always)]
    pub(super) fn block(&self, from: usize, last: usize, rest: usize) -> Option<Pairs<'a, C>> {
        let low = from.checked_sub(self.low_base)?..last.checked_sub(self.low_base)?;
        let high = (rest + 1 - last).checked_sub(self.high_base)?
            ..(rest + 1 - from).checked_sub(self.high_base)?;
        let folded = self
            .folded
            .and_then(|f| Some((f.low.get(low.clone())?, f.high.get(high.clone())?)));
        Some((self.low.get(low)?, self.high.get(high)?, folded))
    }
}

/// The pairs of a block: the cells of the small parts, of the large parts
/// (reversed), and their folded bytes if the view has them.
pub(super) type Pairs<'a, C> = (&'a [C], &'a [C], Option<(&'a [u8], &'a [u8])>);

/// Where a scan stopped for pairs its view does not hold: every pair below
/// `a = start` is marked, and `m` is the partial mex so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct Resume {
    pub(super) start: usize,
    pub(super) m: u32,
}

/// A heap's value, or where its scan must go on.
pub(super) type Scanned = std::result::Result<u32, Resume>;

/// The evolving state of one run.
#[derive(Default)]
pub(super) struct Run {
    pub(super) split: Split,
    /// Rare heaps, heap 0 excluded, increasing.
    pub(super) rare: Vec<usize>,
    /// Their values, side by side, so the gathering loop reads one table
    /// entry per pair instead of two.
    pub(super) rare_values: Vec<u32>,
    /// `histogram[k mod 2][v]`: heaps of each parity with value `v`.
    pub(super) histogram: [Vec<u64>; 2],
    /// The parity of `t` shared by every splitting digit, which the
    /// position-parity split needs.
    pub(super) split_parity: Option<usize>,
    /// Every table value is below `2^bits`.
    pub(super) bits: u32,
    pub(super) next_choice: usize,
    pub(super) stats: SparseStats,
    /// The fold of the split in force while the table has two-byte cells
    /// and every value is below 512, and the folded bytes of the table's
    /// heaps (see [`Run::keep_folded`]).
    pub(super) fold: Option<Fold>,
    pub(super) folded: Vec<u8>,
    /// Where scans look first, learned from the tries of every thread.
    pub(super) probe: Probe,
}

/// What computing a heap reads of a run: the split, the rare heaps with
/// their values, and a bound on every value.
#[derive(Clone, Copy)]
pub(super) struct Rares<'a> {
    pub(super) split: Split,
    pub(super) rare: &'a [usize],
    pub(super) rare_values: &'a [u32],
    /// Every value of the table is below `2^bits`.
    pub(super) bits: u32,
}

/// What one thread needs to compute a heap: marks and counters. Aligned
/// to a pair of cache lines, so that the threads' scratches, side by side
/// in one Vec, share no line: each bumps its counters once a heap.
#[derive(Default)]
#[repr(align(128))]
pub(super) struct Scratch {
    /// Option values of the current heap, one byte per value, sized for
    /// every XOR of two table values plus one byte that stays unmarked.
    seen: Vec<u8>,
    /// The values a scan still has to find.
    wanted: Wanted,
    /// The run's rare heaps as bits, for the scans of folded bytes.
    rare_heaps: RareHeaps,
    /// The rare gathers of the current chunk of heaps, made ahead.
    pub(super) premarks: Premarks,
    pub(super) scans: u64,
    pub(super) scan_pairs: u64,
    /// Where scans look first, and the tries of this thread's heaps.
    pub(super) probe: Probe,
    /// This thread's values for the uncommitted heaps of its chunk, on
    /// several threads.
    pub(super) guesses: Guesses,
    /// The values this thread committed in a block on several threads,
    /// counted by the heap's parity as in [`Run`]'s histogram, into which
    /// they move when the block ends.
    pub(super) counted: [Vec<u64>; 2],
    /// How many rare heaps lay below the last partial table's lowest
    /// partner on this thread, where the next count starts.
    rare_below: usize,
    /// How many rare heaps lay below half of the last rest that an
    /// unequal split's digit looked for, where the next search starts.
    rare_half: usize,
}

/// How many of the rare heaps `rare` (increasing) lie below `heap`, counted
/// from `*from`, the count for a heap near it, and stored there for the
/// next: a few steps when the heap moved by one or two since (heaps are
/// computed in order on each thread), a binary search when it is farther.
#[inline(always)]
fn rares_below(rare: &[usize], heap: usize, from: &mut usize) -> usize {
    let mut i = (*from).min(rare.len());
    for _ in 0..4 {
        if i > 0 && rare[i - 1] >= heap {
            i -= 1;
        } else if i < rare.len() && rare[i] < heap {
            i += 1;
        } else {
            *from = i;
            return i;
        }
    }
    *from = rare.partition_point(|&r| r < heap);
    *from
}

impl Scratch {
    /// Sizes `seen` for values below `2^bits`.
    fn fit(&mut self, bits: u32) {
        let size = (1usize << bits) + 1;
        if self.seen.len() < size {
            self.seen.resize(size, 0);
        }
    }
}

/// A thread's copy of the run's rare heaps as a bit set, which the scan of
/// folded bytes reads to leave out the pairs with a rare part (their
/// values were gathered, and only those fold onto a wanted byte from the
/// other coset: see [`Fold`]). Brought up to date from the rare list
/// before a scan: the list of one split only grows.
#[derive(Default)]
struct RareHeaps {
    split: Option<Split>,
    listed: usize,
    /// Bit `k % 64` of word `k / 64` for rare heap `k`; two words past the
    /// last rare heap's, 0, so that every read below `end + 64` is in.
    words: Vec<u64>,
    /// Past the last rare heap: `64 * (words.len() - 2)`.
    end: usize,
}

impl RareHeaps {
    fn sync(&mut self, rares: &Rares<'_>) {
        if self.split != Some(rares.split) || self.listed > rares.rare.len() {
            self.split = Some(rares.split);
            self.listed = 0;
            self.words.clear();
        }
        for &r in &rares.rare[self.listed..] {
            if self.words.len() < r / 64 + 3 {
                self.words.resize(r / 64 + 3, 0);
            }
            self.words[r / 64] |= 1 << (r % 64);
        }
        self.listed = rares.rare.len();
        self.end = 64 * self.words.len().saturating_sub(2);
    }

    /// Bit `i` set when heap `from + i` is rare, `from < end + 64`.
    #[inline(always)]
    fn from(&self, from: usize) -> u64 {
        let (w, shift) = (from / 64, from % 64);
        // The second shift in two, so that a shift of 0 takes nothing.
        self.words[w] >> shift | (self.words[w + 1] << 1) << (63 - shift)
    }

    /// Bit `i` set when pair `at + i` of the pairs `(from + k, rest - from -
    /// k)` has a rare part.
    #[inline(always)]
    fn pairs(&self, from: usize, rest: usize, at: usize) -> u64 {
        let low = from + at;
        // The high parts are `top - i`.
        let top = rest - low;
        let rare_low = if low < self.end { self.from(low) } else { 0 };
        let rare_high = match top.checked_sub(63) {
            _ if top >= self.end + 63 => 0,
            Some(bottom) => self.from(bottom).reverse_bits(),
            None => (self.from(0) << (63 - top)).reverse_bits(),
        };
        rare_low | rare_high
    }
}

/// Crosses off of `wanted` what the pairs `(from + k, rest - from - k)` of
/// a block are worth, with the rare heaps when the scan's wanted values
/// lie in one coset (see [`Cell::cross_off_folded`]).
#[inline(always)]
fn cross_off_block<C: Cell>(
    wanted: &mut Wanted,
    (low, high, folded): Pairs<'_, C>,
    (from, rest): (usize, usize),
    rare_heaps: Option<&RareHeaps>,
) {
    match folded {
        Some(folded) => C::cross_off_folded(
            wanted,
            folded,
            low,
            high,
            rare_heaps.map(|rare| move |at| rare.pairs(from, rest, at)),
        ),
        None => C::cross_off(wanted, low, high),
    }
}

/// Marks `v` as the value of an option. `seen` holds one byte per value, so
/// a mark is a plain store: no read-modify-write chains consecutive marks
/// of the same word together.
#[inline(always)]
fn mark(seen: &mut [u8], v: u32) {
    seen[v as usize] = 1;
}

/// The least value `>= from` not marked in `seen` (the last byte of `seen`
/// is never marked, so there always is one).
#[inline(always)]
fn mex_from(seen: &[u8], from: u32) -> u32 {
    let from = from as usize;
    let Some(rest) = seen.get(from..) else {
        return from as u32;
    };
    // Eight bytes at a time: the lowest zero byte of a word is found with
    // the classic has-zero-byte bit trick.
    let mut chunks = rest.chunks_exact(8);
    let mut offset = from;
    for chunk in chunks.by_ref() {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of eight"));
        let zero = word.wrapping_sub(0x0101_0101_0101_0101) & !word & 0x8080_8080_8080_8080;
        if zero != 0 {
            return (offset + zero.trailing_zeros() as usize / 8) as u32;
        }
        offset += 8;
    }
    let tail = chunks.remainder();
    tail.iter()
        .position(|&b| b == 0)
        .map_or(offset + tail.len(), |i| offset + i) as u32
}

/// Marks `values[i] ^ near[reach - rare[i] - d]` for every rare heap
/// `rare[i]` and every `d` in `0..=also`: the splits `(r, rest - d - r)`
/// of the digits that take `t + d` tokens, `reach` being `rest`'s place
/// in `near`. `marks.len()` is a power of two above every value.
#[inline(always)]
fn mark_rare_splits<C: Cell>(
    marks: &mut [u8],
    near: &[C],
    reach: usize,
    (rare, values): (&[usize], &[u32]),
    also: usize,
) {
    let top = marks.len() - 1;
    // Every partner `reach - d - r` is a heap of `near`: `rare` increases,
    // so checking the first and the last suffices, once rather than at
    // every rare heap.
    let inside = match (rare.first(), rare.last()) {
        (Some(&first), Some(&last)) => last + also <= reach && reach - first < near.len(),
        _ => true,
    };
    assert!(inside, "a rare heap's partner lies outside the view");
    for (&r, &value) in rare.iter().zip(values) {
        for d in 0..=also {
            // SAFETY: `reach - d - r < near.len()` (checked above), and the
            // XOR of two values below 2^bits is at most `top`, below
            // `marks.len()`.
            #[allow(unsafe_code)]
            unsafe {
                let partner = near.get_unchecked(reach - d - r).get();
                *marks.get_unchecked_mut((value ^ partner) as usize & top) = 1;
            }
        }
    }
}

impl SparseSolver {
    /// The solver for `code`, if the method applies: a finite code whose
    /// moves leave at most two heaps, unconstrained or unequal.
    pub fn new(code: &TakeBreak) -> Option<SparseSolver> {
        let digits = code.octal_digits()?;
        let takes = digits
            .iter()
            .filter(|&&(_, leaves, _)| leaves & 3 != 0)
            .map(|&(t, leaves, _)| (t, leaves & 1 != 0, leaves & 2 != 0))
            .collect();
        let splits: Vec<(usize, bool)> = digits
            .iter()
            .filter(|&&(_, leaves, _)| leaves & 4 != 0)
            .map(|&(t, _, unequal)| (t, unequal))
            .collect();
        let neighbour_splits = match splits[..] {
            [(t, false), (u, false)] if u == t + 1 => Some(t),
            _ => None,
        };
        Some(SparseSolver {
            takes,
            splits,
            neighbour_splits,
            pipeline: Pipeline::Off,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        })
    }

    /// Chooses whether runs use several threads (off by default).
    pub fn with_pipeline(mut self, pipeline: Pipeline) -> SparseSolver {
        self.pipeline = pipeline;
        self
    }

    /// How many threads a run uses when the pipeline is on (default: the
    /// machine's cores; [`Pipeline::Always`] uses two at least).
    pub fn with_threads(mut self, threads: usize) -> SparseSolver {
        self.threads = threads.max(1);
        self
    }

    /// Extends `values` (heaps `0..values.len()`) to heaps `0..=to`, in
    /// place at the table's width (widening it when a value needs it).
    /// Returns statistics of the run, or [`Error::Interrupted`] when
    /// `progress` (called after each block, of 512 to 65536 heaps) returns
    /// `false` (the current [`Cancel`](crate::Cancel) token's error when it
    /// stops); `values` then holds every heap finished so far.
    pub fn extend(
        &self,
        values: &mut ValueTable,
        to: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<SparseStats> {
        self.extend_timed(values, to, progress)
            .map(|(stats, _)| stats)
    }

    /// [`Self::extend`], with the CPU time this thread spent before the
    /// first heap: choosing the split and listing the rare heaps of the
    /// table it was given, a cost per run rather than per heap (the
    /// automatic engine's samples leave it out).
    pub(super) fn extend_timed(
        &self,
        values: &mut ValueTable,
        to: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<(SparseStats, Duration)> {
        let end = usize::try_from(to)
            .ok()
            .and_then(|t| t.checked_add(1))
            .ok_or(Error::NimberOverflow { value: to })?;
        if let Cells::Folded(_) = values.cells_mut() {
            // The engine computes into two-byte cells past 255; widened
            // before the clock starts, as the automatic engine's samples
            // time the heaps and the setup of a run, not the table's form.
            values.widen();
        }
        let started = thread_time();
        let mut run = self.start(values);
        let setup = thread_time() - started;
        let mut scratch = Scratch::default();
        loop {
            let outcome = match values.cells_mut() {
                Cells::U8(table) => self.run(table, end, &mut run, &mut scratch, progress),
                Cells::U16(table) => self.run(table, end, &mut run, &mut scratch, progress),
                // Widened above; a folded table is widened all the same.
                Cells::Folded(_) => Outcome::Widen,
                Cells::U32(_) => {
                    return Err(Error::NimberOverflow {
                        value: u64::from(u16::LIMIT),
                    });
                }
            };
            match outcome {
                Outcome::Done => return Ok((run.finish(&scratch), setup)),
                Outcome::Stopped => {
                    // A Cancel token's error, or the progress callback's.
                    crate::cancel::check()?;
                    return Err(Error::Interrupted {
                        heaps: values.len() as u64,
                    });
                }
                Outcome::Widen => values.widen(),
            }
        }
    }

    /// The state of a run over `values`: counts, and the split chosen for
    /// them with its rare heaps.
    pub(super) fn start(&self, values: &ValueTable) -> Run {
        let parities: Vec<usize> = self.splits.iter().map(|&(t, _)| t & 1).collect();
        let histogram = values.counts_by_parity();
        // The histograms run to the largest value, `2^bits - 1` at most.
        let bits = usize::BITS - histogram[0].len().saturating_sub(1).leading_zeros();
        let mut run = Run {
            split: Split::default(),
            rare: Vec::new(),
            rare_values: Vec::new(),
            histogram,
            split_parity: parities
                .first()
                .copied()
                .filter(|&p| parities.iter().all(|&q| q == p)),
            bits,
            next_choice: values.len().max(WARM_UP).next_power_of_two(),
            stats: SparseStats::default(),
            fold: None,
            folded: Vec::new(),
            probe: Probe::default(),
        };
        let heaps = values.iter().map(Nimber::get);
        match values.len() {
            ..WARM_UP => run.rebuild_rare(heaps, values.len()),
            _ => run.choose_mask(heaps, values.len()),
        }
        run
    }

    /// Computes heaps `table.len()..end` into `table`, until done, until a
    /// value does not fit the cell type (nothing is pushed for it), or until
    /// `progress` returns `false`.
    fn run<C: Cell>(
        &self,
        table: &mut Vec<C>,
        end: usize,
        run: &mut Run,
        scratch: &mut Scratch,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Outcome {
        table.reserve(end.saturating_sub(table.len()));
        // Scratch of every thread; the first is the main thread's.
        let mut scratches: Vec<Scratch> =
            (0..self.crew_size()).map(|_| Scratch::default()).collect();
        std::mem::swap(&mut scratches[0], scratch);
        let outcome = self.dispatch(Job::Lead(table, run, end, &mut scratches, progress));
        std::mem::swap(&mut scratches[0], scratch);
        for helper in &scratches[1..] {
            scratch.scans += helper.scans;
            scratch.scan_pairs += helper.scan_pairs;
        }
        outcome
    }

    /// The threads a run uses: one with the pipeline off, two at least
    /// with it always on.
    pub(super) fn crew_size(&self) -> usize {
        match self.pipeline {
            Pipeline::Off => 1,
            Pipeline::Auto => self.threads,
            Pipeline::Always => self.threads.max(2),
        }
    }

    /// Runs `job` compiled for the widest vector instructions the CPU has.
    fn dispatch<C: Cell>(&self, job: Job<'_, '_, C>) -> Outcome {
        match Features::detect() {
            // SAFETY: the CPU supports these features (`detect`).
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            Features::Avx512 => unsafe { self.job_avx512(job) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            Features::Avx2 => unsafe { self.job_avx2(job) },
            Features::Plain => self.job(job),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,popcnt,bmi1,bmi2,lzcnt")]
    fn job_avx512<C: Cell>(&self, job: Job<'_, '_, C>) -> Outcome {
        self.job(job)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    fn job_avx2<C: Cell>(&self, job: Job<'_, '_, C>) -> Outcome {
        self.job(job)
    }

    #[inline(always)]
    fn job<C: Cell>(&self, job: Job<'_, '_, C>) -> Outcome {
        match job {
            Job::Lead(table, run, end, scratches, progress) => {
                self.lead(table, run, end, scratches, progress)
            }
            Job::Work(block, scratch) => {
                block.work(scratch);
                Outcome::Done
            }
        }
    }

    /// Computes heaps `table.len()..stop` one at a time; `false` when a
    /// value does not fit the cell type.
    #[inline(always)]
    fn one_by_one<C: Cell>(
        &self,
        table: &mut Vec<C>,
        stop: usize,
        run: &mut Run,
        scratch: &mut Scratch,
    ) -> bool {
        for n in table.len()..stop {
            if n == run.next_choice {
                run.choose_mask(table.iter().map(|c| c.get()), table.len());
                run.next_choice *= 2;
            }
            run.keep_folded(table);
            let rares = run.rares();
            let folded = run.folded_of(table);
            if scratch.premarks.of(n, rares.split).is_none() {
                scratch
                    .premarks
                    .make(self, n, Partners::table(table, folded), &rares);
            }
            let view = View::full_folded(table, folded);
            let v = self.value(n, view, &rares, scratch);
            if v >= C::LIMIT {
                return false;
            }
            run.record(table, n, v);
        }
        true
    }

    /// Computes heaps `heaps.heaps()..stop` on every thread of
    /// `scratches` (see the `crew` module), into a table or, with its far
    /// partners and its stream, a window's tail and front; `Ok(false)`
    /// when a value does not fit the cell type, and in a window ends after
    /// a new rare heap. `stop` must not pass the next choice of the split.
    pub(super) fn all_hands<'a, C: Cell>(
        &'a self,
        mut heaps: Heaps<'_, C>,
        window: (Option<&'a FarPartners<C>>, Option<&'a mut dyn Behind<C>>),
        stop: usize,
        run: &'a mut Run,
        scratches: &mut [Scratch],
    ) -> Result<bool> {
        let Run {
            split,
            rare,
            rare_values,
            histogram,
            bits,
            stats,
            ..
        } = run;
        let threads = scratches.len();
        let block = Block::new(
            self,
            *split,
            &mut heaps,
            (rare, rare_values),
            window,
            bits,
            stop,
            threads,
        );
        std::thread::scope(|scope| {
            let (main, helpers) = scratches.split_first_mut().expect("one thread at least");
            for helper in helpers {
                let block = &block;
                scope.spawn(move || self.dispatch(Job::Work(block, helper)));
            }
            // Through `dispatch`, like the helpers: the scope's closure is
            // compiled without the vector features.
            self.dispatch(Job::Work(&block, main));
        });
        let (ended, repairs) = block.close(&mut heaps, (rare, rare_values));
        for scratch in scratches.iter_mut() {
            for (counts, counted) in histogram.iter_mut().zip(&mut scratch.counted) {
                if counts.len() < counted.len() {
                    counts.resize(counted.len(), 0);
                }
                for (count, more) in counts.iter_mut().zip(counted.drain(..)) {
                    *count += more;
                }
            }
        }
        stats.repaired += repairs.deferred;
        stats.taken_over += repairs.taken_over;
        ended
    }

    /// The main thread of a run: block by block, on one thread or on every
    /// thread, as the block timings advise.
    #[inline(always)]
    fn lead<C: Cell>(
        &self,
        table: &mut Vec<C>,
        run: &mut Run,
        end: usize,
        scratches: &mut [Scratch],
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Outcome {
        let mut pace = Pace::new(self.pipeline, scratches.len(), table.len());
        let mut n = table.len();
        while n < end {
            run.probe.learn(n, scratches);
            let stop = pace.block(n, end);
            let fits = if pace.parallel() {
                // A block on several threads does not cross a choice of
                // the split: it is made here, between blocks.
                let mut fits = true;
                let mut at = n;
                while fits && at < stop {
                    if at == run.next_choice {
                        run.choose_mask(table.iter().map(|c| c.get()), table.len());
                        run.next_choice *= 2;
                    }
                    let part = stop.min(run.next_choice.max(at + 1));
                    run.keep_folded(table);
                    let mut folded = std::mem::take(&mut run.folded);
                    let heaps = Heaps {
                        tail: table,
                        base: 0,
                        front: None,
                        folded: run.fold.map(|fold| (fold, &mut folded, None)),
                    };
                    fits = match self.all_hands(heaps, (None, None), part, run, scratches) {
                        Ok(fits) => fits,
                        Err(_) => unreachable!("only a window's stream fails"),
                    };
                    run.folded = folded;
                    at = table.len();
                }
                fits
            } else {
                self.one_by_one(table, stop, run, &mut scratches[0])
            };
            if !fits {
                return Outcome::Widen;
            }
            pace.ended(stop - n);
            n = stop;
            if !progress(n - 1) || crate::cancel::stopped() {
                return Outcome::Stopped;
            }
        }
        Outcome::Done
    }

    /// `g(n)` from the values of smaller heaps, a view of a full table
    /// `g(0..n)`.
    #[inline(always)]
    fn value<C: Cell>(
        &self,
        n: usize,
        g: View<'_, C>,
        run: &Rares<'_>,
        scratch: &mut Scratch,
    ) -> u32 {
        match self.value_in::<C, false>(n, g, run, scratch) {
            Ok(v) => v,
            Err(_) => unreachable!("a full table holds every pair of a scan"),
        }
    }

    /// [`Self::value_in`] after making the premarks of heap `n`'s chunk
    /// from `g.high`, if the scratch has none for it.
    #[inline(always)]
    pub(super) fn value_premarked<C: Cell>(
        &self,
        n: usize,
        g: View<'_, C>,
        run: &Rares<'_>,
        scratch: &mut Scratch,
    ) -> Scanned {
        if scratch.premarks.of(n, run.split).is_none() {
            let partners = Partners {
                heaps: g.high,
                base: g.high_base,
                folded: g.folded.map(|folded| (folded.fold, folded.high)),
            };
            scratch.premarks.make(self, n, partners, run);
        }
        self.value_in::<C, false>(n, g, run, scratch)
    }

    /// [`Self::value`] from the heaps a [`View`] holds: `Err` when the scan
    /// of common pairs needs pairs the view does not hold, to be continued
    /// with [`Self::scan_from`] on a view that holds them.
    ///
    /// With `PARTIAL`, the view is a table `g(0..L)` that may end short of
    /// heap `n - 1` (heaps `L..n` are being computed on other threads), and
    /// the answer is the mex of every option of `n` whose parts all lie
    /// below `L` (see the `crew` module).
    #[inline(always)]
    pub(super) fn value_in<C: Cell, const PARTIAL: bool>(
        &self,
        n: usize,
        g: View<'_, C>,
        run: &Rares<'_>,
        scratch: &mut Scratch,
    ) -> Scanned {
        scratch.fit(run.bits);
        let premarked = scratch.premarks.of(n, run.split);
        let seen = &mut scratch.seen[..];
        // Whether a split of the chunk's own was left out: a partner the
        // view does not hold (past a short table, or before a window's
        // tail), gathered below as the chunk's uncovered ones are.
        let missed = match premarked {
            Some(pre) => {
                let before = || {
                    C::bytes(g.high)
                        .and_then(|high| {
                            high.get(n.checked_sub(g.high_base + 16)?..n - g.high_base)
                        })
                        .and_then(|bytes| bytes.try_into().ok())
                };
                pre.write(seen, n, before, |heap| {
                    (heap >= g.high_base && heap < g.len()).then(|| g.near(heap))
                })
            }
            None => {
                seen.fill(0);
                false
            }
        };
        for &(t, nothing, one) in &self.takes {
            if t > n {
                break;
            }
            if nothing && n == t {
                mark(seen, 0);
            }
            // Without `PARTIAL` the table ends at `n - 1`; with it, takes
            // leaving a heap past it count with this thread's value for
            // the heap, if it has one (see the `crew` module), else are
            // deferred. A guess past the table's values would mark the
            // byte that stays unmarked: it is deferred too.
            if one && n > t {
                let heap = n - t;
                if heap < g.len() {
                    mark(seen, g.near(heap));
                } else if PARTIAL
                    && let Some(guess) = scratch.guesses.of(heap).filter(|&v| v < 1 << run.bits)
                {
                    mark(seen, guess);
                }
            }
        }
        // Two digits splitting after taking t and t + 1 tokens read
        // neighbouring partners: one pass over the rare heaps marks both,
        // when every rare heap is a part of both (the usual case).
        let mut splits = &self.splits[..];
        if let Some(t) = self.neighbour_splits {
            let top = (1usize << run.bits) - 1;
            let rest = n.saturating_sub(t);
            let whole = premarked.is_none();
            if !PARTIAL && whole && run.rare.last().is_some_and(|&last| last + 1 < rest) {
                let near = g.far.map_or(run.rare.len(), |far| far.from);
                let rare = (&run.rare[..near], &run.rare_values[..near]);
                mark_rare_splits(&mut seen[..=top], g.high, rest - g.high_base, rare, 1);
                if let Some(far) = g.far {
                    let rare = (run.rare, run.rare_values);
                    far.mark(&mut seen[..=top], rare, near..run.rare.len(), (rest, 1));
                }
                splits = &[];
            }
        }
        for (digit, &(t, unequal)) in splits.iter().enumerate() {
            let Some(rest) = n.checked_sub(t) else { break };
            // Rare heaps are mostly small: usually all of them are below.
            let below = match run.rare.last() {
                Some(&last) if last >= rest => run.rare.partition_point(|&r| r < rest),
                _ => run.rare.len(),
            };
            // Partners past a short table: the rare heaps below `lowest`,
            // a few dozen heaps at most (distinct heaps from 1 on, so at
            // most `lowest` of them), counted from the count of the last
            // heap: `lowest` moves by a heap or two from one to the next.
            // (A binary search per heap would be about 4% of 0.161's time
            // on two threads.)
            // The rare list, read after the table's length, may hold heaps
            // committed since; with an empty table (`lowest = rest + 1`)
            // they may reach `rest` itself, past `below`: then no rare
            // heap's partner is in the table.
            let above = match (rest + 1).checked_sub(g.len()) {
                Some(lowest) if PARTIAL => rares_below(run.rare, lowest, &mut scratch.rare_below),
                _ => 0,
            }
            .min(below);
            // XORs of two values below 2^bits stay below it; masking with
            // 2^bits - 1 lets the compiler drop the bounds check.
            let top = (1usize << run.bits) - 1;
            let marks = &mut seen[..=top];
            // Every partner `rest - r` lies in `g.high`, but those of the
            // far rare heaps of a windowed run.
            let (near, reach) = (g.high, rest - g.high_base);
            let mut gather = |from: usize, to: usize| {
                let split = g.far.map_or(to, |far| far.from.clamp(from, to));
                let rare = (&run.rare[from..split], &run.rare_values[from..split]);
                mark_rare_splits(marks, near, reach, rare, 0);
                if let Some(far) = g.far {
                    let rare = (run.rare, run.rare_values);
                    far.mark(marks, rare, split..to, (rest, 0));
                }
            };
            // A digit that forbids equal parts skips the one split (r, r),
            // found once here rather than tested at every rare heap, from
            // where the last heap's was: `rest / 2` moves by a heap at most
            // from one heap to the next, a step of the walk or none.
            let equal = if unequal && rest % 2 == 0 {
                let half = rest / 2;
                let i = rares_below(run.rare, half, &mut scratch.rare_half);
                (i >= above && i < below && run.rare[i] == half).then_some(i)
            } else {
                None
            };
            match premarked {
                Some(pre) => {
                    if missed {
                        // Marked twice where written: marks are idempotent.
                        let to = pre.recent_to[digit].min(below);
                        gather(above.min(to), to);
                    }
                    uncovered(above, below, &pre.covered[digit], equal, |piece| {
                        gather(piece.start, piece.end)
                    });
                }
                None => match equal {
                    Some(i) => {
                        gather(above, i);
                        gather(i + 1, below);
                    }
                    None => gather(above, below),
                },
            }
        }
        let m = mex_from(seen, 0);
        // Under the warm-up split every heap is rare, so the gathering above
        // already saw every split.
        if run.split == Split::default() || self.exact(n, m, run) {
            return Ok(m);
        }
        scratch.scans += 1;
        let (plan, tries) = scratch.probe.plan_for(n);
        let started = tries.map(|_| Instant::now());
        scratch.wanted.set_listing(plan.listed);
        let value = self.scan_from::<C, PARTIAL>(n, g, run, scratch, m, (1, plan.point));
        if let Some((k, started)) = tries.zip(started) {
            scratch.probe.record(k, started.elapsed());
        }
        value
    }

    /// Whether no split of two common heaps can be worth `m`, so that `m`,
    /// missing from what was gathered, is `g(n)`. A value past every XOR of
    /// two table values cannot come from a split at all.
    #[inline(always)]
    fn exact(&self, n: usize, m: u32, run: &Rares<'_>) -> bool {
        m >= 1 << run.bits
            || !self
                .splits
                .iter()
                .any(|&(t, _)| n >= t + 2 && run.split.common_pairs_may_give(m, n - t))
    }

    /// Step 3: finds `g(n)` when the partial mex `m` is rare, scanning the
    /// pairs `(a, rest - a)` from `a = start` on (the pairs below are
    /// marked in `scratch` already), after the [`PROBE_PAIRS`] pairs from
    /// `a = probe` when `probe > 0` (see the `probe` module: the scan from
    /// `start` still reads them, so the probe changes only how soon the
    /// scan ends).
    ///
    /// Every common value below `c`, the least unmarked value that no pair
    /// of common heaps can be worth ([`Self::exact`]), was gathered; so
    /// `g(n)` is the least of the unmarked values from `m` up to `c` that no
    /// pair is worth, or `c`. The scan lists those values ([`Wanted`]) and
    /// tests blocks of pairs for them — every splitting digit within a
    /// block, with vector instructions, in blocks of 4096 pairs
    /// ([`block_end`]) — looking pair by pair only at the pairs that the
    /// test finds worth a value still wanted, which it then crosses off. It stops
    /// when none is left (`g(n) = c`) or the pairs run out (the least one
    /// left). A block the view does not hold ends the scan with `Err`, the
    /// values found marked.
    #[inline(always)]
    pub(super) fn scan_from<C: Cell, const PARTIAL: bool>(
        &self,
        n: usize,
        g: View<'_, C>,
        run: &Rares<'_>,
        scratch: &mut Scratch,
        m: u32,
        (start, probe): (usize, usize),
    ) -> Scanned {
        let pairs_of = |rest: usize, unequal: bool| if unequal { (rest - 1) / 2 } else { rest / 2 };
        // The splits (a, rest - a) of one digit for a in `from..to`: none
        // when the digit has no pair there, `Some(None)` when the view
        // does not hold them. (A plain loop over the digits calls this,
        // not an iterator: on several threads the iterator's `next` was
        // compiled out of line, a call and a copy of its answer per block.)
        let block = |(t, unequal): (usize, bool), from: usize, to: usize| {
            let rest = n.checked_sub(t).filter(|&r| r >= 2)?;
            // Partners must lie in the table: a > rest - g.len().
            let from = if PARTIAL {
                from.max((rest + 1).saturating_sub(g.len()))
            } else {
                from
            };
            let last = to.min(pairs_of(rest, unequal) + 1);
            (last > from).then(|| g.block(from, last, rest).map(|pairs| (pairs, (from, rest))))
        };
        let most = self
            .splits
            .iter()
            .filter(|&&(t, _)| t + 2 <= n)
            .map(|&(t, unequal)| pairs_of(n - t, unequal))
            .max()
            .unwrap_or(0);
        let Scratch {
            seen,
            wanted,
            rare_heaps,
            scan_pairs,
            ..
        } = scratch;
        if g.folded.is_some() {
            rare_heaps.sync(run);
        }
        let rare_heaps = &*rare_heaps;
        let count = |scan_pairs: &mut u64, to: usize| {
            *scan_pairs += (to.min(most + 1) - start) as u64 * self.splits.len() as u64;
        };
        // The values to find. `seen` ends with a byte never marked, at
        // 2^bits, where `exact` holds: the loop stops there at the latest.
        let mut at = start;
        wanted.reset(seen.len(), g.folded.map(|f| f.fold));
        // The values common pairs may be worth, those `exact` rejects, are
        // one coset of `chi`: `chi = 0` under the plain split, `chi = rest
        // mod 2` under the position-parity one, whose digits' rests share
        // a parity.
        let mut cosets = self
            .splits
            .iter()
            .filter(|&&(t, _)| n >= t + 2)
            .map(|&(t, _)| run.split.parity.is_some() && (n - t) % 2 == 1);
        let coset = cosets.next();
        let one_coset = coset.is_some() && cosets.all(|o| Some(o) == coset);
        let c = match coset {
            Some(odd) if one_coset => wanted.fill(&seen[..=1 << run.bits], m, run.split.mask, odd),
            _ => {
                let mut c = m;
                while seen[c as usize] != 0 || !self.exact(n, c, run) {
                    if seen[c as usize] == 0 {
                        wanted.insert(c);
                    }
                    c += 1;
                }
                c
            }
        };
        let rare_heaps = one_coset.then_some(rare_heaps);
        if probe > start && probe + PROBE_PAIRS <= most + 1 {
            *scan_pairs += (PROBE_PAIRS * self.splits.len()) as u64;
            // A block the view does not hold ends the probe; what it
            // crossed off was found.
            for &digit in &self.splits {
                let Some(block) = block(digit, probe, probe + PROBE_PAIRS) else {
                    continue;
                };
                let Some((pairs, block)) = block else {
                    break;
                };
                cross_off_block(wanted, pairs, block, rare_heaps);
            }
            if wanted.is_empty() {
                return Ok(c);
            }
        }
        while at <= most {
            let stop = block_end(at).min(most + 1);
            let mut outside = false;
            for &digit in &self.splits {
                let Some(block) = block(digit, at, stop) else {
                    continue;
                };
                let Some((pairs, block)) = block else {
                    outside = true;
                    break;
                };
                cross_off_block(wanted, pairs, block, rare_heaps);
            }
            if outside {
                // Every value below `c` not wanted is now gathered or found.
                for v in m..c {
                    if !wanted.contains(v) {
                        seen[v as usize] = 1;
                    }
                }
                count(scan_pairs, at);
                let m = wanted.members(m, c).next().unwrap_or(c);
                return Err(Resume { start: at, m });
            }
            if wanted.is_empty() {
                count(scan_pairs, stop);
                return Ok(c);
            }
            at = stop;
        }
        count(scan_pairs, at);
        Ok(wanted.members(m, c).next().unwrap_or(c))
    }
}

impl Run {
    /// What computing a heap reads of the run.
    #[inline(always)]
    pub(super) fn rares(&self) -> Rares<'_> {
        Rares {
            split: self.split,
            rare: &self.rare,
            rare_values: &self.rare_values,
            bits: self.bits,
        }
    }

    /// Brings `folded` up to date with `table`: the folded bytes of every
    /// heap while a fold applies (two-byte cells, every value below 512, a
    /// split with a mask), nothing otherwise. Made again whole when the
    /// fold changes with the split; otherwise one byte per new heap.
    #[inline(always)]
    pub(super) fn keep_folded<C: Cell>(&mut self, table: &[C]) {
        let fold = self.fold_in_force::<C>();
        if fold != self.fold {
            self.fold = fold;
            self.folded = Vec::new();
        }
        if let Some(fold) = fold {
            let done = self.folded.len();
            self.folded
                .extend(table[done..].iter().map(|c| fold.of(c.get())));
        }
    }

    /// The fold scans of `C` cells use now: the split's, while every value
    /// is below 512 and the cells are two bytes wide.
    pub(super) fn fold_in_force<C: Cell>(&self) -> Option<Fold> {
        if C::FOLDS && self.bits <= 9 {
            Fold::for_mask(self.split.mask)
        } else {
            None
        }
    }

    /// The fold and folded bytes, if they cover `table`.
    #[inline(always)]
    pub(super) fn folded_of<C>(&self, table: &[C]) -> Option<(Fold, &[u8])> {
        self.fold
            .filter(|_| self.folded.len() == table.len())
            .map(|fold| (fold, &self.folded[..]))
    }

    /// Appends `g(n) = v` to the table and to the counts and rare heaps.
    #[inline(always)]
    fn record<C: Cell>(&mut self, table: &mut Vec<C>, n: usize, v: u32) {
        table.push(C::new(v));
        self.note(n, v);
    }

    /// Counts `g(n) = v`, and lists `n` if it is rare.
    #[inline(always)]
    pub(super) fn note(&mut self, n: usize, v: u32) {
        count_value(&mut self.histogram, &mut self.bits, n, v);
        if n > 0 && self.split.is_rare(n, v) {
            self.rare.push(n);
            self.rare_values.push(v);
        }
    }

    pub(super) fn finish(mut self, scratch: &Scratch) -> SparseStats {
        self.stats.scans += scratch.scans;
        self.stats.scan_pairs += scratch.scan_pairs;
        self.stats.mask = self.split.mask;
        self.stats.position_parity = self.split.parity.is_some();
        self.stats.rare_count = self.rare.len();
        self.stats.last_rare = self.rare.last().copied();
        self.stats
    }

    /// Picks the split with the fewest rare heaps for the values so far,
    /// plain or (when the splitting digits share a parity) position-parity,
    /// and rebuilds the rare list.
    /// `values` are those of heaps `0..heaps`, read up to the last rare
    /// heap (see [`Self::rebuild_rare`]).
    fn choose_mask(&mut self, values: impl Iterator<Item = u32>, heaps: usize) {
        self.probe.age();
        if self.choose_split() {
            self.rebuild_rare(values, heaps);
        }
    }

    /// The choice of [`Self::choose_mask`], made from the counts alone
    /// ([`fewest_rare`]; position-parity splits when the splitting digits
    /// share a parity): `true` when the split changed (or no rare list was
    /// built yet) and the rare heaps must be listed again.
    pub(super) fn choose_split(&mut self) -> bool {
        let parities: Vec<usize> = self.split_parity.into_iter().collect();
        let best = fewest_rare(&self.histogram, &parities).map(|(_, split)| split);
        self.stats.mask_choices += 1;
        match best {
            Some(best) if best != self.split || self.rare.is_empty() => {
                self.split = best;
                true
            }
            _ => false,
        }
    }

    /// The rare heaps (heap 0 excluded) under the current split, from the
    /// values of heaps `0, 1, 2, ...` in order, `heaps` of them.
    ///
    /// The run's counts say how many of them are rare, so the values are
    /// read only up to the last rare heap: usually a few hundred heaps of
    /// a long table (0.1777's 15 all lie below heap 124, where each
    /// adaptive step read every heap so far: 2% of its profile). Counts
    /// that do not add up to `heaps` are not trusted: every heap is read.
    pub(super) fn rebuild_rare(&mut self, values: impl Iterator<Item = u32>, heaps: usize) {
        let split = self.split;
        // Whether each value below 2^bits (cells are at most two bytes) is
        // rare at an even and at an odd heap, looked up rather than
        // counted: this pass over the whole table is not compiled for the
        // CPU's popcount instruction.
        let rare: Vec<[bool; 2]> = (0..1u32 << self.bits.min(16))
            .map(|v| [split.is_rare(0, v), split.is_rare(1, v)])
            .collect();
        let is_rare = |k: usize, v: u32| {
            rare.get(v as usize)
                .map_or_else(|| split.is_rare(k, v), |both| both[k & 1])
        };
        let counted: u64 = self.histogram.iter().flatten().sum();
        let mut left = match counted == heaps as u64 {
            true => (0..2)
                .flat_map(|parity| {
                    let counts = self.histogram[parity].iter().enumerate();
                    counts.filter(move |&(v, _)| is_rare(parity, v as u32))
                })
                .map(|(_, &count)| count)
                .sum(),
            false => u64::MAX,
        };
        self.rare.clear();
        self.rare_values.clear();
        // Stopping after the last rare heap, not at the next heap's turn:
        // a windowed run's values are read back from its stream.
        let mut values = values.enumerate();
        while left > 0
            && let Some((k, v)) = values.next()
        {
            if is_rare(k, v) {
                left -= 1;
                if k > 0 {
                    self.rare.push(k);
                    self.rare_values.push(v);
                }
            }
        }
    }
}

/// Counts `g(k) = v` in `histogram` (by the parity of `k`) and raises
/// `bits` to cover `v`.
#[inline(always)]
pub(super) fn count_value(histogram: &mut [Vec<u64>; 2], bits: &mut u32, k: usize, v: u32) {
    let counts = &mut histogram[k & 1];
    if v as usize >= counts.len() {
        counts.resize(v as usize + 1, 0);
    }
    counts[v as usize] += 1;
    // Scratch `seen` arrays are sized for every XOR of two values.
    *bits = (*bits).max(u32::BITS - v.leading_zeros());
}

#[cfg(test)]
mod tests {
    use super::{
        BLOCK, RareHeaps, Rares, Scratch, SparseSolver, Split, View, block_end, rares_below,
    };
    use proptest::prelude::*;

    proptest! {
        /// The rare list read up to its last rare heap (as the run's counts
        /// say) is the list of every rare heap, and reads no heap past it
        /// (the heaps after `last`, past a rare-free tail, are never
        /// asked for); with counts that do not add up to the table, every
        /// heap is read.
        #[test]
        fn the_rare_list_stops_at_the_last_rare_heap(
            mut values in proptest::collection::vec(0u32..40, 1100..1400),
            tail in 0usize..1000,
            mask in 1u32..64,
            parity in proptest::option::of(0usize..2),
            miscount in any::<bool>(),
        ) {
            let split = Split { mask, parity };
            // A tail of common heaps: each value moved to the next one
            // that is common at its heap.
            let cut = values.len() - tail;
            for (k, v) in values.iter_mut().enumerate().skip(cut) {
                while split.is_rare(k, *v) {
                    *v += 1;
                }
            }
            let table: crate::ValueTable = values.iter().map(|&v| crate::Nimber::new(v)).collect();
            let solver = SparseSolver::new(&"0.137".parse().unwrap()).unwrap();
            let mut run = solver.start(&table);
            run.split = split;
            let every: Vec<usize> = (1..values.len())
                .filter(|&k| split.is_rare(k, values[k]))
                .collect();
            if miscount {
                run.histogram[0][values[0] as usize] += 1;
                run.rebuild_rare(values.iter().copied(), values.len());
            } else {
                let last = every.last().map_or(0, |&k| k);
                let read = values[..=last].iter().copied();
                let past = std::iter::from_fn(|| panic!("read past the last rare heap"));
                run.rebuild_rare(read.chain(past), values.len());
            }
            prop_assert_eq!(&run.rare, &every);
            let every_value: Vec<u32> = every.iter().map(|&k| values[k]).collect();
            prop_assert_eq!(&run.rare_values, &every_value);
        }

        /// The count of rare heaps below a heap, from any count kept
        /// before (near or far, or past the list), is the binary search's,
        /// for heaps in any order and for heaps in order (where it walks).
        #[test]
        fn rares_below_counts_from_any_start(
            mut rare in proptest::collection::vec(0usize..300, 0..40),
            heaps in proptest::collection::vec(0usize..320, 1..30),
            from in 0usize..60,
        ) {
            rare.sort_unstable();
            rare.dedup();
            let mut kept = from;
            for heap in heaps.into_iter().chain(0..320) {
                let count = rares_below(&rare, heap, &mut kept);
                prop_assert_eq!(count, rare.partition_point(|&r| r < heap));
                prop_assert_eq!(kept, count);
            }
        }
    }

    /// From `a = 1` the blocks are [`BLOCK`] pairs, a whole number of
    /// 64-pair vector steps; from any pair the next block ends where the
    /// grid from 1 does.
    #[test]
    fn blocks_lie_on_one_grid_of_whole_vector_steps() {
        let mut ends = vec![];
        let mut a = 1;
        while a < 40_000 {
            let end = block_end(a);
            assert!(
                end > a && (end - a).is_multiple_of(64) && end - a == BLOCK,
                "{a}..{end}"
            );
            ends.push(end);
            a = end;
        }
        assert_eq!(ends[..3], [4097, 8193, 12289]);
        for from in 1..40_000 {
            let end = block_end(from);
            let on_grid = ends.iter().find(|&&e| e > from);
            assert_eq!(Some(&end), on_grid, "from {from}");
        }
    }

    /// A worker that read an empty table's length, and then a rare list
    /// the committer had grown meanwhile up to the heap's own rest, gathers
    /// no rare split (every partner lies past the table) instead of
    /// slicing the rare list backwards (a panic two threads hit under
    /// load, Officers from an empty table: rest 3, rare heaps 1, 2, 3).
    #[test]
    fn a_rare_list_newer_than_an_empty_table_gathers_nothing() {
        let code: crate::TakeBreak = "0.6".parse().expect("a code");
        let solver = SparseSolver::new(&code).expect("the method applies");
        let rares = Rares {
            split: Split::default(),
            rare: &[1, 2, 3],
            rare_values: &[1, 2, 3],
            bits: 2,
        };
        let empty: &[u8] = &[];
        let mut scratch = Scratch::default();
        let value =
            solver.value_in::<u8, true>(4, View::full_folded(empty, None), &rares, &mut scratch);
        assert_eq!(value.ok(), Some(0), "no option has both parts in the table");
    }

    proptest! {
        /// The pairs with a rare part, as a synced copy of a growing rare
        /// list names them, are those of the definition, at every offset:
        /// the low parts from any heap, the high ones down to heap 0.
        #[test]
        fn rare_pairs_are_those_with_a_rare_part(
            rare in proptest::collection::btree_set(1usize..400, 0..40),
            grown in 0usize..40,
            (from, rest) in (1usize..300, 0usize..600),
            at in (0usize..5).prop_map(|k| 64 * k),
        ) {
            let rare: Vec<usize> = rare.into_iter().collect();
            let values = vec![0; rare.len()];
            let rares = |len: usize| Rares {
                split: Split::default(),
                rare: &rare[..len],
                rare_values: &values[..len],
                bits: 8,
            };
            let mut heaps = RareHeaps::default();
            heaps.sync(&rares(grown.min(rare.len())));
            heaps.sync(&rares(rare.len()));
            let rest = rest + from + at + 64;
            let expected = (0..64).fold(0u64, |word, i| {
                let low = from + at + i;
                word | u64::from(rare.contains(&low) || rare.contains(&(rest - low))) << i
            });
            prop_assert_eq!(heaps.pairs(from, rest, at), expected);
        }
    }
}
