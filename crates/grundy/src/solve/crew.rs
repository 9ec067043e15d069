//! The sparse engine on several threads: heaps computed out of order, each
//! on one thread, and committed in order.
//!
//! A worker claims the next heap `j` and reads how far the table is
//! committed, `L <= j`. It computes the mex `v'` of every option of `j`
//! whose parts all lie below `L` (the sparse method's gather and scan with
//! a table of `L` heaps: `SparseSolver::value_in` with `PARTIAL`). The
//! options it left out are those with a part in `L..j`: taking `t` tokens
//! and leaving `j - t >= L`, and the splits `(a, rest - a)` with
//! `rest - a >= L`, so `a <= rest - L` — a few dozen when the workers
//! keep pace, because `j - L` is about a chunk of heaps per thread. Heaps are
//! committed in order: once `0..j` are, the committer lists the values `D`
//! of those deferred options and keeps `g(j) = v'` unless `v'` is in `D`
//! (every value below `v'` is an option already, and `v'` is none); then,
//! and only then, it computes heap `j` again from the whole table. Values
//! are exact either way.
//!
//! A worker also counts the options that take tokens and leave one heap
//! of its own chunk, `j - t`, which it computed itself but has not
//! committed, with the value it found for that heap ([`Guesses`]). Left
//! out, these options cause most repairs: on 0.376, where `j - 1`, `j - 2`
//! and `j - 3` are options, a quarter of the heaps on two threads would be
//! repaired, and 4% are with the guesses (a simulation on 3000 heaps past
//! 2^20 with the real values; see docs/engine-history.md, "Guesses, the
//! advisor's margin and the load check"). A guess the committer changed
//! (a repair, or a heap it took over) is checked at `j`: a wrong guess at
//! or above `v'` did not count, one below `v'` must be the value of some
//! option of `j` with a part past `L` all the same (every other value below
//! `v'` being an option of parts below `L` or a right guess); otherwise `j`
//! is computed again.
//!
//! This is the speculation of J. P. Grossman's parallel octal-game solver
//! (every heap computed from a table that is a few heaps short, the few
//! heaps whose missing options matter repaired in order), in the shape the
//! rare/common method needs: the repair is a test of one value against
//! `D`, and a repaired heap is recomputed, not patched.
//!
//! What the threads share, for one block of heaps: the table, the rare
//! heaps and their values, each an append-only array with a published
//! length. The Vecs behind them have room for the whole block before it
//! starts and are not touched as Vecs until it ends, so readers see a
//! prefix that never changes while the committer (one thread at a time,
//! behind a lock it only tries) writes past it. Workers claim heaps a
//! chunk at a time and commit after each chunk. A result travels in one
//! 64-bit word per slot of a ring (a chunk's slots on lines of their own) that
//! names its heap, so a slow worker's late answer can never be read as
//! another heap's. No worker waits for a particular
//! thread: one that runs too far ahead of the committed table (the ring is
//! full) commits what is ready, and if the heap at the front has been
//! pending that long — its worker descheduled by other work on the
//! machine, say — computes that heap itself from the whole table and
//! commits it; the owner's answer, when it comes, is ignored.
//!
//! The same block runs inside a windowed run (see the `window` module):
//! its table is then the window's tail, heaps from a base, beside the
//! window's front ([`Heaps`]), and the far rare heaps' partners come from
//! readers slid once for the whole block. A worker whose scan runs past
//! the window answers [`FAR`], and the committer computes that heap whole,
//! going on with the scan in the window's stream ([`Behind`]), to which it
//! writes every heap it commits, in order. The readers cover the rare
//! heaps listed when the block started, so a windowed block ends after the
//! next rare heap, and the window sorts it (near, or a reader of its own)
//! before the next block.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use super::SparseSolver;
use super::premark::{HEAPS, Partners};
use super::sparse::{Cell, FarPartners, Folded, Rares, Resume, Scratch, View, count_value};
use crate::fold::{Fold, Split};
use crate::{Error, Result};

/// Spins a worker that cannot go on waits before it takes over the heap
/// at the front of the table.
const STEAL_AFTER_SPINS: u32 = 1 << 12;

/// A value alone on its (pair of) cache lines, so that threads writing
/// neighbouring values do not slow each other down.
#[repr(align(128))]
struct CacheLine<T>(T);

/// One worker's answer for a heap, packed into a word: the heap (37
/// bits), how many heaps short of it the table was (10 bits), and the
/// partial mex (17 bits: every value of a table of two-byte cells is below
/// 2^16, so a mex is at most 2^16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Answer {
    heap: usize,
    short: usize,
    value: u32,
}

const SHORT_BITS: u32 = 10;
const VALUE_BITS: u32 = 17;
/// The most heaps a worker may run ahead of the committed table: the
/// deferred options of a heap must be counted in [`SHORT_BITS`].
const MOST_AHEAD: usize = 1 << 9;
/// Heaps a worker claims at once, computes one after another, and then
/// commits: the threads touch the counters and lines they share once a
/// chunk rather than once a heap, at the price of a table a few heaps
/// shorter for each heap. The rare gathers are made [`HEAPS`] heaps at a
/// time ([`Premarks`](super::premark::Premarks)), each pass from the table
/// committed when it starts. (Claimed a heap at a time, the slot store and
/// the lock are the hottest instructions outside the gather and the scan on
/// two threads; 32 heaps gain over 16 on every game timed, for twice the
/// repairs, and 64 gain nothing more: see docs/engine-history.md, "Two
/// threads: the crew's per-heap costs and the probe's tries", item 5.)
const CHUNK: usize = 2 * HEAPS;
/// No answer in the slot yet.
const EMPTY: u64 = u64::MAX;
/// A heap committed without its worker's answer (taken over).
const UNANSWERED: u32 = u32::MAX;
/// A worker's answer for a heap whose scan ran past a window's heaps: the
/// committer computes it whole, reading the window's stream. Past every
/// value (below 2^17, see [`Answer`]).
const FAR: u32 = (1 << VALUE_BITS) - 1;

/// This thread's values for the heaps of the chunk it is computing, not
/// yet committed: counted as the values of options that take tokens and
/// leave one of them (see the module's documentation).
#[derive(Default)]
pub(super) struct Guesses {
    first: usize,
    values: Vec<u32>,
}

impl Guesses {
    /// Forgets the last chunk's values: the next is heap `first`'s.
    fn start(&mut self, first: usize) {
        self.first = first;
        self.values.clear();
    }

    /// The value found for the next heap, or [`UNANSWERED`] for a heap
    /// this thread left to others.
    fn push(&mut self, value: u32) {
        self.values.push(value);
    }

    /// The value this thread found for `heap`, if it computed it in its
    /// current chunk.
    #[inline(always)]
    pub(super) fn of(&self, heap: usize) -> Option<u32> {
        let value = *self.values.get(heap.checked_sub(self.first)?)?;
        (value != UNANSWERED).then_some(value)
    }
}

impl Answer {
    /// The word for this answer, if it fits one.
    fn pack(self) -> Option<u64> {
        let fits = self.heap < 1 << (64 - SHORT_BITS - VALUE_BITS)
            && self.short < 1 << SHORT_BITS
            && self.value < 1 << VALUE_BITS;
        fits.then(|| {
            (self.heap as u64) << (SHORT_BITS + VALUE_BITS)
                | (self.short as u64) << VALUE_BITS
                | u64::from(self.value)
        })
    }

    fn unpack(word: u64) -> Option<Answer> {
        (word != EMPTY).then_some(Answer {
            heap: (word >> (SHORT_BITS + VALUE_BITS)) as usize,
            short: (word >> VALUE_BITS) as usize & ((1 << SHORT_BITS) - 1),
            value: (word & ((1 << VALUE_BITS) - 1)) as u32,
        })
    }
}

/// An array written in order by one thread at a time and read by others
/// up to a length published elsewhere ([`Front`]): the spare capacity of a
/// Vec, which must not be touched as a Vec while this lives.
struct Shelf<T> {
    base: *mut T,
    capacity: usize,
}

// SAFETY: items below the published length are only read, after an
// Acquire load of that length that follows the Release store made once
// they were written; items past it are written by the one thread that
// holds the committer's lock, and read by no one else. `T` is plain data
// (table cells, heaps, values).
#[allow(unsafe_code)]
unsafe impl<T: Send + Sync> Sync for Shelf<T> {}

impl<T: Copy> Shelf<T> {
    fn new(items: &mut Vec<T>, room: usize) -> Shelf<T> {
        items.reserve(room);
        Shelf {
            base: items.as_mut_ptr(),
            capacity: items.capacity(),
        }
    }

    /// The first `len` items. The caller has read `len` from a [`Front`]
    /// with Acquire, or is the committer, which wrote them.
    #[inline(always)]
    fn prefix(&self, len: usize) -> &[T] {
        assert!(len <= self.capacity, "a prefix lies within the shelf");
        // SAFETY: the first `len` items are written and stay unchanged
        // while `self` lives (see the `Sync` impl).
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts(self.base, len)
        }
    }

    /// Writes item `at`, past the published length. Only the committer
    /// calls this, holding its lock.
    fn write(&self, at: usize, item: T) {
        assert!(at < self.capacity, "a shelf has room for its block");
        // SAFETY: `at` is within the Vec's capacity and at or past the
        // published length, where no reader looks (see the `Sync` impl).
        #[allow(unsafe_code)]
        unsafe {
            self.base.add(at).write(item);
        }
    }

    /// Ends the block: the Vec takes the first `len` items, all written.
    fn close(self, items: &mut Vec<T>, len: usize) {
        assert!(len <= items.capacity() && items.as_ptr() == self.base.cast_const());
        // SAFETY: the first `len` items of the buffer are written, and it
        // is the Vec's own buffer (checked above).
        #[allow(unsafe_code)]
        unsafe {
            items.set_len(len);
        }
    }
}

/// What the committer publishes, together on one cache line, so that a
/// worker reads it in one transfer: the committed heaps, the rare heaps
/// among them, and a bound on their values. The committer stores `bits`,
/// then `rares`, then `heaps` (Release); a worker loads them in the other
/// order (Acquire), so the rare list it reads covers the heaps it reads,
/// and `bits` covers both.
#[derive(Default)]
struct Front {
    heaps: AtomicUsize,
    rares: AtomicUsize,
    bits: AtomicU32,
    /// The block ends short: a value did not fit the cell type, the
    /// window's stream failed, or a windowed block met a new rare heap.
    cut: AtomicBool,
}

/// The heaps a block reads and extends, as the Vecs that hold them: a
/// whole table (`tail` from heap 0, no `front`), or a windowed run's tail
/// (heaps from `base`) and front (heaps `0..front.len()`, which grows up
/// to `limit`, see the `window` module), each with its folded bytes while
/// a fold is in force (see [`Fold`]): the tail's, and the front's for a
/// window.
pub(super) struct Heaps<'v, C> {
    pub(super) tail: &'v mut Vec<C>,
    pub(super) base: usize,
    pub(super) front: Option<(&'v mut Vec<C>, usize)>,
    pub(super) folded: Option<FoldedBytes<'v>>,
}

/// A fold and the folded bytes of a table (or a window's tail) and of a
/// window's front.
pub(super) type FoldedBytes<'v> = (Fold, &'v mut Vec<u8>, Option<&'v mut Vec<u8>>);

/// A block's shelves of [`FoldedBytes`], and the heaps it started with.
type FoldedShelves = (Fold, Shelf<u8>, Option<Shelf<u8>>, usize);

impl<C> Heaps<'_, C> {
    /// Heaps `0..heaps()` are computed.
    fn heaps(&self) -> usize {
        self.base + self.tail.len()
    }
}

/// What lies behind a windowed run's block (see the `window` module): the
/// value stream, which the committer extends with every heap it commits,
/// in order, and from which it reads back the pairs of a scan that runs
/// past the window.
pub(super) trait Behind<C>: Send {
    /// Appends the next heap's value to the stream.
    fn push(&mut self, value: u32) -> Result<()>;

    /// Goes on with heap `n`'s scan, stopped at `resume` for pairs the
    /// window does not hold, on values read back from the stream.
    fn scan(
        &mut self,
        n: usize,
        resume: Resume,
        rares: &Rares<'_>,
        scratch: &mut Scratch,
    ) -> Result<u32>;
}

/// The state the threads share while they compute heaps
/// `heaps.heaps()..stop`.
pub(super) struct Block<'a, C> {
    solver: &'a SparseSolver,
    split: Split,
    /// The table, or a window's tail: heaps from `base`.
    table: Shelf<C>,
    base: usize,
    /// A window's front, heaps from 0, and the heap it stops growing at.
    front: Option<(Shelf<C>, usize)>,
    rare: Shelf<usize>,
    rare_values: Shelf<u32>,
    /// The folded bytes of the table's (or tail's) heaps and of the
    /// front's, written with them while every value is below 512, and
    /// how many heaps the block started with.
    folded: Option<FoldedShelves>,
    /// A window's readers of the partners of its far rare heaps, slid to
    /// hold those of every heap of the block.
    far: Option<&'a FarPartners<C>>,
    /// The rare heaps a worker reads: in a window, those listed when the
    /// block started (its far partners cover no others; the block ends at
    /// the next rare heap), else all.
    rare_cap: usize,
    /// The first heap of the block, where the first chunk starts.
    origin: usize,
    stop: usize,
    /// The answers of the heaps `committed..committed + ahead`, a chunk to
    /// a cache line.
    slots: Vec<CacheLine<[AtomicU64; CHUNK]>>,
    /// The first heap of the next chunk to claim.
    next: CacheLine<AtomicUsize>,
    front_line: CacheLine<Front>,
    committer: CacheLine<Mutex<Committer<'a, C>>>,
}

/// Cuts a block short when the thread holding it unwinds from a panic (an
/// engine bug): the other threads then leave the block instead of waiting
/// for the heaps the panicking thread claimed, or for a committer's lock
/// that the panic poisoned, and the thread scope passes the panic on.
struct CutOnPanic<'b>(&'b AtomicBool);

impl Drop for CutOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// What the thread committing heaps holds.
struct Committer<'a, C> {
    /// The bits of the largest value committed (see [`count_value`]).
    bits: &'a mut u32,
    repairs: Repairs,
    /// The workers' answers for the last [`Block::ahead`] committed heaps
    /// (at [`Block::ring`]), [`UNANSWERED`] where the committer took one
    /// over: the guesses later heaps of the chunk were computed with.
    answered: Vec<u32>,
    /// A window's stream.
    behind: Option<&'a mut dyn Behind<C>>,
    /// Why the block was cut short, when the window's stream failed.
    failed: Option<Error>,
    /// A value did not fit the cell type.
    too_wide: bool,
}

/// Heaps the committer had to compute itself.
#[derive(Default)]
pub(super) struct Repairs {
    /// A deferred option was worth the worker's answer, or the worker's
    /// scan ran past the window.
    pub(super) deferred: u64,
    /// The worker was late.
    pub(super) taken_over: u64,
}

impl<'a, C: Cell> Block<'a, C> {
    /// A block from the end of `heaps` to `stop`, for `threads` workers;
    /// for a window, with its far partners and its stream.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        solver: &'a SparseSolver,
        split: Split,
        heaps: &mut Heaps<'_, C>,
        (rare, rare_values): (&mut Vec<usize>, &mut Vec<u32>),
        (far, behind): (Option<&'a FarPartners<C>>, Option<&'a mut dyn Behind<C>>),
        bits: &'a mut u32,
        stop: usize,
        threads: usize,
    ) -> Block<'a, C> {
        let start = heaps.heaps();
        let room = stop - start;
        let front_room = |limit: usize| limit.min(stop).saturating_sub(start);
        let limit = heaps.front.as_ref().map(|&(_, limit)| limit);
        let folded = heaps
            .folded
            .as_mut()
            .filter(|(_, bytes, front)| {
                bytes.len() == heaps.tail.len()
                    && front.as_ref().map(|f| f.len()) == limit.map(|l| start.min(l))
                    && *bits <= 9
            })
            .map(|(fold, bytes, front)| {
                let front = front
                    .as_mut()
                    .zip(limit)
                    .map(|(front, limit)| Shelf::new(front, front_room(limit)));
                (*fold, Shelf::new(bytes, room), front, start)
            });
        // A power of two, so that a heap's place in the ring is a mask.
        let chunks = (4 * threads)
            .clamp(4, MOST_AHEAD / CHUNK)
            .next_power_of_two();
        let front = Front {
            heaps: AtomicUsize::new(start),
            rares: AtomicUsize::new(rare.len()),
            bits: AtomicU32::new(*bits),
            cut: AtomicBool::new(false),
        };
        let committer = Committer {
            bits,
            repairs: Repairs::default(),
            answered: vec![UNANSWERED; chunks * CHUNK],
            behind,
            failed: None,
            too_wide: false,
        };
        Block {
            solver,
            split,
            origin: start,
            next: CacheLine(AtomicUsize::new(start)),
            table: Shelf::new(heaps.tail, room),
            base: heaps.base,
            front: heaps
                .front
                .as_mut()
                .map(|(front, limit)| (Shelf::new(front, front_room(*limit)), *limit)),
            rare_cap: if far.is_some() {
                rare.len()
            } else {
                usize::MAX
            },
            rare: Shelf::new(rare, room),
            rare_values: Shelf::new(rare_values, room),
            folded,
            far,
            stop,
            slots: (0..chunks)
                .map(|_| CacheLine(std::array::from_fn(|_| AtomicU64::new(EMPTY))))
                .collect(),
            front_line: CacheLine(front),
            committer: CacheLine(Mutex::new(committer)),
        }
    }

    /// Ends the block: the Vecs take what was committed. `Ok(false)` when
    /// a value did not fit the cell type (the heaps before it are kept),
    /// `Err` when the window's stream failed.
    pub(super) fn close(
        self,
        heaps: &mut Heaps<'_, C>,
        (rare, rare_values): (&mut Vec<usize>, &mut Vec<u32>),
    ) -> (Result<bool>, Repairs) {
        let front = self.front_line.0;
        let rares = front.rares.into_inner();
        let committed = front.heaps.into_inner();
        let in_front = |limit: usize| committed.min(limit);
        if let (Some((_, shelf, front_shelf, started)), Some((_, bytes, front_bytes))) =
            (self.folded, heaps.folded.as_mut())
        {
            // Every heap's byte is written while the values stay below 512.
            let written = if front.bits.into_inner() <= 9 {
                committed
            } else {
                started
            };
            shelf.close(bytes, written - self.base);
            if let (Some(shelf), Some(front_bytes), Some((_, limit))) =
                (front_shelf, front_bytes.as_mut(), &self.front)
            {
                shelf.close(front_bytes, written.min(*limit));
            }
        }
        self.table.close(heaps.tail, committed - self.base);
        if let (Some((shelf, limit)), Some((front, _))) = (self.front, heaps.front.as_mut()) {
            shelf.close(front, in_front(limit));
        }
        self.rare.close(rare, rares);
        self.rare_values.close(rare_values, rares);
        let committer = self
            .committer
            .0
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let ended = match committer.failed {
            Some(e) => Err(e),
            None => Ok(!committer.too_wide),
        };
        (ended, committer.repairs)
    }

    /// How many heaps the slot ring holds: a worker never runs this far
    /// ahead of the committed table.
    fn ahead(&self) -> usize {
        self.slots.len() * CHUNK
    }

    /// Where `heap` lies in the ring of [`Self::ahead`] heaps (a power of
    /// two).
    fn ring(&self, heap: usize) -> usize {
        heap & (self.ahead() - 1)
    }

    /// The first heap of the chunk holding `heap`: workers claim chunks
    /// of [`CHUNK`] heaps from the block's first heap on ([`Self::work`]).
    fn chunk_start(&self, heap: usize) -> usize {
        self.origin + (heap - self.origin) / CHUNK * CHUNK
    }

    fn slot(&self, heap: usize) -> &AtomicU64 {
        let at = self.ring(heap);
        &self.slots[at / CHUNK].0[at % CHUNK]
    }

    fn committed(&self) -> usize {
        self.front_line.0.heaps.load(Ordering::Acquire)
    }

    fn cut(&self) -> bool {
        self.front_line.0.cut.load(Ordering::Relaxed)
    }

    fn over(&self) -> bool {
        self.cut() || self.committed() >= self.stop
    }

    /// The committed table and rare heaps, as a worker sees them now (see
    /// [`Front`] for the order of the loads).
    #[inline(always)]
    fn published(&self) -> (View<'_, C>, Rares<'_>) {
        let front = &self.front_line.0;
        let heaps = front.heaps.load(Ordering::Acquire);
        let rares = front.rares.load(Ordering::Acquire).min(self.rare_cap);
        let bits = front.bits.load(Ordering::Relaxed);
        let rares = Rares {
            split: self.split,
            rare: self.rare.prefix(rares),
            rare_values: self.rare_values.prefix(rares),
            bits,
        };
        (self.view(heaps, bits), rares)
    }

    /// The first `heaps` heaps, as the table (or the window's tail and
    /// front) holds them, with their folded bytes while every value is
    /// below `2^bits <= 512` (the committer wrote a byte for every heap
    /// before the first value past that).
    #[inline(always)]
    fn view(&self, heaps: usize, bits: u32) -> View<'_, C> {
        let high = self.table.prefix(heaps - self.base);
        let low = match &self.front {
            Some((front, limit)) => front.prefix(heaps.min(*limit)),
            None => high,
        };
        let folded = self
            .folded
            .as_ref()
            .filter(|_| bits <= 9)
            .map(|(fold, bytes, front, _)| {
                let high = bytes.prefix(heaps - self.base);
                let low = match (front, &self.front) {
                    (Some(front), Some((_, limit))) => front.prefix(heaps.min(*limit)),
                    _ => high,
                };
                Folded {
                    fold: *fold,
                    low,
                    high,
                }
            });
        View {
            low,
            low_base: 0,
            high,
            high_base: self.base,
            far: self.far,
            folded,
        }
    }

    /// One thread's share: claims chunks of heaps until none is left, then
    /// helps commit until the block is done.
    #[inline(always)]
    pub(super) fn work(&self, scratch: &mut Scratch) {
        let _cut_on_panic = CutOnPanic(&self.front_line.0.cut);
        loop {
            let first = self.next.0.fetch_add(CHUNK, Ordering::Relaxed);
            if first >= self.stop {
                break;
            }
            let end = (first + CHUNK).min(self.stop);
            if !self.wait_for_room(end - 1, scratch) {
                return;
            }
            scratch.guesses.start(first);
            for j in first..end {
                let (view, rares) = self.published();
                if (j - first).is_multiple_of(HEAPS) {
                    let partners = Partners {
                        heaps: view.high,
                        base: view.high_base,
                        folded: view.folded.map(|f| (f.fold, f.high)),
                    };
                    scratch.premarks.make(self.solver, j, partners, &rares);
                }
                let committed = view.len();
                if j < committed {
                    // Taken over while this thread waited.
                    scratch.guesses.push(UNANSWERED);
                    continue;
                }
                // A scan past a window's heaps is the committer's, which
                // reads the stream.
                let value = self
                    .solver
                    .value_in::<C, true>(j, view, &rares, scratch)
                    .unwrap_or(FAR);
                scratch
                    .guesses
                    .push(if value == FAR { UNANSWERED } else { value });
                let answer = Answer {
                    heap: j,
                    short: j - committed,
                    value,
                };
                if let Some(word) = answer.pack() {
                    // Stored without reading the slot first. The slot is
                    // heap `j + ahead`'s only once `j` is committed (a
                    // worker claims no heap that far ahead before), so an
                    // answer stored over a newer one is a late one, of a
                    // heap the committer took over: it costs the newer
                    // heap's takeover, as the committer reads an answer
                    // only under its own heap. Reading the slot to keep
                    // the newer answer would stall on its line, last
                    // written by the other thread (2% of 0.161's samples
                    // on two threads).
                    self.slot(j).store(word, Ordering::Release);
                }
            }
            let _ = self.commit(scratch, false);
        }
        let mut spins = 0u32;
        while !self.over() {
            spins = self.idle(spins, scratch);
        }
    }

    /// Waits until heap `j` is within reach of the committed table,
    /// committing (and taking over the front heap) meanwhile. `false` when
    /// the block ended early.
    #[inline(always)]
    fn wait_for_room(&self, j: usize, scratch: &mut Scratch) -> bool {
        let mut spins = 0u32;
        while j >= self.committed() + self.ahead() {
            if self.cut() {
                return false;
            }
            spins = self.idle(spins, scratch);
        }
        !self.cut()
    }

    /// One round of waiting: commits what is ready, and after
    /// [`STEAL_AFTER_SPINS`] rounds without progress takes over the heap
    /// at the front. Returns the new count of rounds: unchanged after a
    /// takeover, so that the next round takes over the next heap at once —
    /// the late thread holds a whole chunk, and when it was descheduled
    /// (other work on the machine) it stays away for a time slice.
    #[inline(always)]
    fn idle(&self, spins: u32, scratch: &mut Scratch) -> u32 {
        let front = self.committed();
        let steal = spins >= STEAL_AFTER_SPINS;
        if self.commit(scratch, steal) {
            return spins;
        }
        if self.committed() != front {
            return 0;
        }
        if spins < STEAL_AFTER_SPINS {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
        spins.saturating_add(1)
    }

    /// Commits every answer ready at the front of the table, in order, if
    /// no other thread is committing; with `steal`, computes the front heap
    /// itself when its answer is not there. Publishes once, at the end.
    /// Returns whether it took over a heap.
    #[inline(always)]
    fn commit(&self, scratch: &mut Scratch, mut steal: bool) -> bool {
        let Ok(mut guard) = self.committer.0.try_lock() else {
            return false;
        };
        // A block cut short commits nothing more (its answers past the
        // cut may read what the block does not hold: a window's new rare
        // heap).
        if self.cut() {
            return false;
        }
        let mut took_over = false;
        let Committer {
            bits,
            repairs,
            answered,
            behind,
            failed,
            too_wide,
        } = &mut *guard;
        let front = &self.front_line.0;
        let start = front.heaps.load(Ordering::Relaxed);
        let mut n = start;
        let mut rares = front.rares.load(Ordering::Relaxed);
        let mut cut = false;
        while n < self.stop && !cut {
            let answer =
                Answer::unpack(self.slot(n).load(Ordering::Acquire)).filter(|a| a.heap == n);
            // The committer wrote every heap below `n` itself.
            let view = self.view(n, **bits);
            let value = match answer {
                Some(a) if a.value != FAR && self.stands(n, a, &view, answered) => Ok(a.value),
                Some(_) => {
                    repairs.deferred += 1;
                    self.whole(n, rares, **bits, scratch, behind)
                }
                None if steal => {
                    steal = false;
                    took_over = true;
                    repairs.taken_over += 1;
                    self.whole(n, rares, **bits, scratch, behind)
                }
                None => break,
            };
            let value = match value.and_then(|v| match behind {
                Some(_) if v >= C::LIMIT => Ok(v),
                Some(behind) => behind.push(v).map(|()| v),
                None => Ok(v),
            }) {
                Ok(value) if value < C::LIMIT => value,
                Ok(_) => {
                    *too_wide = true;
                    cut = true;
                    break;
                }
                Err(e) => {
                    *failed = Some(e);
                    cut = true;
                    break;
                }
            };
            // A worker's answer past every value (its scan ran past the
            // window) counted as no guess (see [`Self::stands`]).
            answered[self.ring(n)] = answer.map_or(UNANSWERED, |a| a.value);
            self.table.write(n - self.base, C::new(value));
            if let Some((front, limit)) = &self.front
                && n < *limit
            {
                front.write(n, C::new(value));
            }
            // Counted in the committing thread's own histogram, merged into
            // the run's when the block ends: a shared one moved its lines
            // between the cores whenever the other thread committed.
            count_value(&mut scratch.counted, bits, n, value);
            if let Some((fold, bytes, front, _)) = &self.folded
                && **bits <= 9
            {
                bytes.write(n - self.base, fold.of(value));
                if let (Some(front), Some((_, limit))) = (front, &self.front)
                    && n < *limit
                {
                    front.write(n, fold.of(value));
                }
            }
            if n > 0 && self.split.is_rare(n, value) {
                self.rare.write(rares, n);
                self.rare_values.write(rares, value);
                rares += 1;
                // A window sorts a new rare heap's partners (near, or a
                // reader of its own) before a heap reads them.
                cut = self.far.is_some();
            }
            n += 1;
        }
        if cut {
            front.cut.store(true, Ordering::Relaxed);
        }
        if n > start {
            front.bits.store(**bits, Ordering::Relaxed);
            front.rares.store(rares, Ordering::Release);
            front.heaps.store(n, Ordering::Release);
        }
        took_over
    }

    /// `g(n)` from the whole table below it (a window's scan past its
    /// heaps going on in its stream), with `rares` rare heaps and every
    /// value below `2^bits`.
    fn whole(
        &self,
        n: usize,
        rares: usize,
        bits: u32,
        scratch: &mut Scratch,
        behind: &mut Option<&'a mut dyn Behind<C>>,
    ) -> Result<u32> {
        let rares = Rares {
            split: self.split,
            rare: self.rare.prefix(rares),
            rare_values: self.rare_values.prefix(rares),
            bits,
        };
        match self
            .solver
            .value_in::<C, false>(n, self.view(n, bits), &rares, scratch)
        {
            Ok(value) => Ok(value),
            Err(resume) => match behind {
                Some(behind) => behind.scan(n, resume, &rares, scratch),
                None => unreachable!("a full table holds every pair of a scan"),
            },
        }
    }

    /// Whether a worker's answer `a` for heap `n` is `g(n)`; `view` holds
    /// heaps `0..n` and `answered` the answers they were committed from
    /// (see the module's documentation for the argument). A wrong guess of
    /// [`FAR`], past every value, did not count.
    #[inline(always)]
    fn stands(&self, n: usize, a: Answer, view: &View<'_, C>, answered: &[u32]) -> bool {
        let from = n - a.short;
        if self.deferred_worth(n, from, view, a.value) {
            return false;
        }
        // The heaps of the worker's chunk it had computed and counted.
        let guessed = from.max(self.chunk_start(n));
        self.solver.takes.iter().all(|&(t, _, one)| {
            let Some(heap) = n.checked_sub(t).filter(|&h| one && h >= guessed && h < n) else {
                return true;
            };
            let guess = answered[self.ring(heap)];
            guess == view.near(heap)
                || guess != UNANSWERED
                    && (guess > a.value || self.deferred_worth(n, from, view, guess))
        })
    }

    /// Whether an option of heap `n` with a part at or past `from` (the
    /// ones a worker with `from` heaps of table left out) is worth `v`, or
    /// may be: a window whose front does not hold the small parts of its
    /// splits cannot tell. `view` holds heaps `0..n`. Inlined (with
    /// [`Self::stands`]) into the committer's loop, which is compiled for
    /// the CPU's widest vectors, so that the runs of 64 pairs use them (out
    /// of line: SSE2).
    #[inline(always)]
    fn deferred_worth(&self, n: usize, from: usize, view: &View<'_, C>, v: u32) -> bool {
        let solver = self.solver;
        let take = solver
            .takes
            .iter()
            .any(|&(t, _, one)| one && n > t && n - t >= from && view.near(n - t) == v);
        if take {
            return true;
        }
        // A loop, not `any`: that was compiled out of line, its runs of
        // pairs without the wide vectors.
        for &(t, unequal) in &solver.splits {
            let Some(rest) = n.checked_sub(t).filter(|&r| r >= 2) else {
                continue;
            };
            let pairs = if unequal { (rest - 1) / 2 } else { rest / 2 };
            let last = pairs.min(rest.saturating_sub(from));
            if last == 0 {
                continue;
            }
            // The pairs (a, rest - a), a in 1..=last, 64 at a time, each
            // run tested whole: a loop without an early exit vectorises.
            let Some((low, high, _)) = view.block(1, last + 1, rest) else {
                return true;
            };
            for (low, high) in low.chunks(64).zip(high.rchunks(64)) {
                let worth = low
                    .iter()
                    .zip(high.iter().rev())
                    .fold(false, |worth, (&x, &y)| worth | ((x ^ y).get() == v));
                if worth {
                    return true;
                }
            }
        }
        false
    }
}

/// Decides, block by block, whether a run computes heaps on several
/// threads: it tries them when heaps are expensive, keeps them while a
/// block on several threads costs less than 19/20 of the cheaper of the
/// last two on one, and otherwise (the other cores busy, say) waits 1, 2, 4, ... up to
/// [`MAX_BACKOFF`] blocks before trying again. It does not try while the
/// kernel counts as many runnable threads as the machine has cores
/// ([`super::load::idle_core`]): such a try is slower than one thread
/// (with one busy process on two cores, a try block took 1.4 times a
/// single one) and would only teach the advisor what the count says. A
/// win halves the wait rather than forgetting it: on a loaded machine
/// block timings scatter by a third, and one lucky block must not restart
/// the tries. The margin is small because games of cheap heaps gain
/// little: on two quiet cores a parallel block costs about 0.55-0.65 of a
/// single one on Grundy's game and Officers, but 0.8-0.95 on 0.376 and
/// 0.161 (a few hundred nanoseconds a heap), and the cheaper of the last
/// two blocks on one thread is biased low; a larger margin (9/10) loses
/// their gain in the runs whose tries fall near it, while tries that
/// clearly lose (0.354's, 1.15-1.25 of a block on one) still fail (see
/// docs/engine-history.md, "Byte lookups for the rare gathers, and threads
/// for cheap heaps", item 6).
#[derive(Default)]
pub(super) struct Advisor {
    /// Nanoseconds per heap of the last two blocks computed on one
    /// thread, the lesser of them: a block that chose a split, or ended a
    /// run short, costs more a heap, and a try measured against it alone
    /// could win and keep threads that lose.
    single: u128,
    /// The last block on one thread's.
    last_single: u128,
    /// Blocks to compute on one thread before the next try.
    wait: u32,
    /// The wait after the next failed try.
    backoff: u32,
}

/// [`Advisor`] tries several threads above this many nanoseconds per heap:
/// between the games that gain from two threads and those that do not.
/// 0.161 (blocks of 172-197 ns a heap on one thread to 2^22) gains 1.2x on
/// two threads; 0.354's proof (blocks of 126-138 ns, tenth and ninetieth
/// percentiles) and 0.167 (about 110 ns) gain nothing, and a try that fails
/// costs them a few percent (see docs/engine-history.md, "The last members
/// of a scan, and a row whose heaps cost a microsecond", item 2).
pub(super) const PARALLEL_FROM_NANOS: u128 = 160;

/// Below this many nanoseconds per heap a try of several threads runs
/// [`CHEAP_TRY_BLOCKS`] blocks in one: each block starts its helper
/// threads anew, which costs a short block of cheap heaps enough to fail
/// the try: on 0.161 (about 200 ns a heap) a try of one block of 4096 heaps
/// costs 0.87-0.94 of a block on one thread, against about 0.80 for longer
/// blocks (see docs/engine-history.md, "Byte lookups for the rare gathers,
/// and threads for cheap heaps", item 4).
const CHEAP_TRY_NANOS: u128 = 400;

/// Blocks a try of cheap heaps runs in one (see [`CHEAP_TRY_NANOS`]).
const CHEAP_TRY_BLOCKS: usize = 4;

/// The most blocks [`Advisor`] computes on one thread before it tries
/// several again: a failed try beside a busy process costs a few
/// scheduler time slices, so there the tries thin out.
const MAX_BACKOFF: u32 = 1024;

impl Advisor {
    /// Whether the next block runs on several threads, given how the last
    /// one ran (`parallel`) and what it cost per heap; `idle_core` is asked
    /// before a try (see [`super::load::idle_core`]): with every core
    /// taken, the run stays on one thread without counting a failed try,
    /// and asks again after the next block.
    pub(super) fn parallel_next(
        &mut self,
        parallel: bool,
        per_heap: u128,
        idle_core: impl FnOnce() -> bool,
    ) -> bool {
        if parallel {
            if per_heap.saturating_mul(20) < self.single.saturating_mul(19) {
                self.backoff /= 2;
                return true;
            }
            self.backoff = (2 * self.backoff).clamp(1, MAX_BACKOFF);
            self.wait = self.backoff;
            return false;
        }
        let first = self.last_single == 0;
        self.single = match self.last_single {
            0 => per_heap,
            last => per_heap.min(last),
        };
        self.last_single = per_heap.max(1);
        if first {
            // A run's first block pays its start (cold caches, the probe
            // learning): alone it is no baseline, and a try measured
            // against it wins however slow (0.1777's windowed steps: first
            // blocks of 730 ns a heap, the usual 135, tries of 220 kept).
            return false;
        }
        if self.wait > 0 {
            self.wait -= 1;
            return false;
        }
        per_heap >= PARALLEL_FROM_NANOS && idle_core()
    }

    /// How many blocks the next block on several threads runs in one when
    /// it is a try: more than one for cheap heaps (see
    /// [`CHEAP_TRY_NANOS`]).
    pub(super) fn try_blocks(&self) -> usize {
        if self.single < CHEAP_TRY_NANOS {
            CHEAP_TRY_BLOCKS
        } else {
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use std::panic::AssertUnwindSafe;
    use std::time::Duration;

    use super::{
        Advisor, Answer, Behind, CHEAP_TRY_BLOCKS, CHEAP_TRY_NANOS, Heaps, PARALLEL_FROM_NANOS,
    };
    use crate::solve::sparse::{Rares, Resume, Scratch};
    use crate::solve::{Pipeline, SparseSolver};
    use crate::values::Cells;
    use crate::{Result, ValueTable};

    #[test]
    fn the_advisor_tries_threads_on_expensive_heaps_and_backs_off_when_slower() {
        let mut advisor = Advisor::default();
        let (cheap, dear) = (PARALLEL_FROM_NANOS / 2, PARALLEL_FROM_NANOS * 4);
        let idle = || true;
        assert!(
            !advisor.parallel_next(false, cheap, idle),
            "cheap heaps stay on one"
        );
        assert!(
            advisor.parallel_next(false, dear, idle),
            "expensive heaps go parallel"
        );
        assert!(
            advisor.parallel_next(true, cheap / 2, idle),
            "a parallel block faster than the cheaper of the last two on one keeps going"
        );
        // A parallel block slower than the single one: one thread for one
        // block, then two, then four, ...
        assert!(!advisor.parallel_next(true, dear * 2, idle));
        assert!(!advisor.parallel_next(false, dear, idle));
        assert!(advisor.parallel_next(false, dear, idle));
        assert!(!advisor.parallel_next(true, dear * 2, idle));
        for _ in 0..2 {
            assert!(!advisor.parallel_next(false, dear, idle));
        }
        assert!(advisor.parallel_next(false, dear, idle));
    }

    #[test]
    fn tries_of_cheap_heaps_run_several_blocks_in_one() {
        let mut advisor = Advisor::default();
        let idle = || true;
        assert!(!advisor.parallel_next(false, CHEAP_TRY_NANOS / 2, idle));
        assert!(advisor.parallel_next(false, CHEAP_TRY_NANOS / 2, idle));
        assert_eq!(advisor.try_blocks(), CHEAP_TRY_BLOCKS);
        advisor.parallel_next(false, CHEAP_TRY_NANOS * 2, idle);
        advisor.parallel_next(true, CHEAP_TRY_NANOS * 4, idle);
        for _ in 0..2 {
            advisor.parallel_next(false, CHEAP_TRY_NANOS * 2, idle);
        }
        assert_eq!(advisor.try_blocks(), 1, "a dear heap's try is one block");
    }

    #[test]
    fn a_dear_block_on_one_thread_does_not_make_a_slower_try_win() {
        let mut advisor = Advisor::default();
        let idle = || true;
        let usual = PARALLEL_FROM_NANOS * 2;
        advisor.parallel_next(false, usual, idle);
        // A block that chose a split, say: three times the usual cost.
        assert!(advisor.parallel_next(false, 3 * usual, idle));
        assert!(
            !advisor.parallel_next(true, 2 * usual, idle),
            "slower than the usual block on one thread"
        );
    }

    /// A run's first block, slowed by its start, does not start a try by
    /// itself, nor become the baseline a slower try wins against.
    #[test]
    fn a_runs_first_block_alone_starts_no_try() {
        let mut advisor = Advisor::default();
        let idle = || true;
        let usual = PARALLEL_FROM_NANOS - 25;
        assert!(!advisor.parallel_next(false, 730, idle), "the first block");
        assert!(
            !advisor.parallel_next(false, usual, idle),
            "the usual blocks are cheap"
        );
        // Dear heaps from the first block on: a try after the second.
        let mut advisor = Advisor::default();
        let dear = PARALLEL_FROM_NANOS * 4;
        assert!(!advisor.parallel_next(false, dear * 3, idle));
        assert!(advisor.parallel_next(false, dear, idle));
        assert!(
            !advisor.parallel_next(true, dear * 2, idle),
            "measured against the second block"
        );
    }

    #[test]
    fn the_advisor_does_not_try_threads_while_every_core_is_taken() {
        let mut advisor = Advisor::default();
        let dear = PARALLEL_FROM_NANOS * 4;
        for _ in 0..3 {
            assert!(!advisor.parallel_next(false, dear, || false));
        }
        // Not a failed try: the first block with a free core tries at once.
        assert!(advisor.parallel_next(false, dear, || true));
        // A cheap block does not ask.
        assert!(!advisor.parallel_next(false, dear / 8, || {
            panic!("asked about the cores for a cheap block")
        }));
    }

    #[test]
    fn answers_pack_into_one_word_and_back() {
        for answer in [
            Answer {
                heap: 0,
                short: 0,
                value: 0,
            },
            Answer {
                heap: (1 << 37) - 1,
                short: 1023,
                value: 1 << 16,
            },
            Answer {
                heap: 123_456_789,
                short: 3,
                value: 300,
            },
        ] {
            let word = answer.pack().expect("fits");
            assert_eq!(Answer::unpack(word), Some(answer));
        }
        assert_eq!(
            Answer {
                heap: 1 << 37,
                short: 0,
                value: 0
            }
            .pack(),
            None
        );
        assert_eq!(
            Answer {
                heap: 1,
                short: 1024,
                value: 0
            }
            .pack(),
            None
        );
        assert_eq!(Answer::unpack(super::EMPTY), None);
    }

    /// A stream that panics at its hundredth value, inside the committer
    /// (which holds the lock): the other thread must leave the block, not
    /// wait for the heaps and the lock of the thread that unwound.
    struct PanickingStream {
        pushed: usize,
    }

    impl Behind<u8> for PanickingStream {
        fn push(&mut self, _value: u32) -> Result<()> {
            self.pushed += 1;
            assert!(self.pushed < 100, "the test's stream panics");
            Ok(())
        }

        fn scan(&mut self, _: usize, _: Resume, _: &Rares<'_>, _: &mut Scratch) -> Result<u32> {
            unreachable!("a full table holds every pair of a scan")
        }
    }

    #[test]
    fn a_panic_on_one_thread_ends_the_block_on_every_thread() {
        let (done, finished) = std::sync::mpsc::channel();
        // On a thread of its own, so that a block that never ends fails
        // the test instead of hanging it.
        std::thread::spawn(move || {
            let code = "0.161".parse().expect("a code");
            let solver = SparseSolver::new(&code)
                .expect("an octal code")
                .with_pipeline(Pipeline::Always)
                .with_threads(2);
            let mut values = ValueTable::new();
            solver
                .extend(&mut values, 3000, &mut |_| true)
                .expect("a plain run");
            let mut run = solver.start(&values);
            let stop = run.next_choice;
            let Cells::U8(table) = values.cells_mut() else {
                unreachable!("0.161's values to 3000 fit a byte")
            };
            let heaps = Heaps {
                tail: table,
                base: 0,
                front: None,
                folded: None,
            };
            let mut stream = PanickingStream { pushed: 0 };
            let mut scratches: Vec<Scratch> = (0..2).map(|_| Scratch::default()).collect();
            let unwound = std::panic::catch_unwind(AssertUnwindSafe(|| {
                solver.all_hands(
                    heaps,
                    (None, Some(&mut stream)),
                    stop,
                    &mut run,
                    &mut scratches,
                )
            }));
            let _ = done.send(unwound.is_err());
        });
        assert_eq!(
            finished.recv_timeout(Duration::from_secs(120)),
            Ok(true),
            "the block passed the panic on"
        );
    }
}
