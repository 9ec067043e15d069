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
//!    is rare and `n` joins the rare heaps.
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
//! searches blocks of pairs for `m` with vector instructions, marking the
//! values it passed only when it finds `m` (it needs them then to find the
//! next `m`). A scan that finds nothing needs no marks at all.

use crate::values::Cells;
use crate::{Error, Nimber, Result, TakeBreak, ValueTable, with_slice};

/// Heaps computed by plain scans before the first mask is chosen.
const WARM_UP: usize = 1 << 10;

/// Pairs searched together in one block of a scan.
const BLOCK: usize = 64;

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
    takes: Vec<(usize, bool, bool)>,
    /// `(t, parts unequal)` for digits that may leave two heaps, by `t`.
    splits: Vec<(usize, bool)>,
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

/// A compact table cell holding values below `LIMIT`.
trait Cell: Copy + Default + 'static {
    /// Every value stored is below this.
    const LIMIT: u32;
    /// The cell of a value below `LIMIT`.
    fn new(v: u32) -> Self;
    /// The value.
    fn get(self) -> u32;
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
    #[inline(always)]
    fn new(v: u32) -> u16 {
        v as u16
    }
    #[inline(always)]
    fn get(self) -> u32 {
        u32::from(self)
    }
}

/// How heaps are divided into rare and common.
///
/// With `chi(v) = parity(popcount(v & mask))`, a heap `k` of value `v` is
/// rare when `chi(v) = 0` (plain split), or when `chi(v) ^ (k mod 2)` equals
/// `rho` (position-parity split). A split `(a, b)` of `rest` has
/// `chi(g(a) ^ g(b)) = chi(g(a)) ^ chi(g(b))`, so a pair of common heaps
/// gives `chi = 0` in the plain split and `chi = rest mod 2` in the
/// position-parity one; every other value of a split comes from a pair
/// with a rare heap, which the gathering step sees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Split {
    mask: u32,
    /// `Some(rho)` for the position-parity split.
    parity: Option<usize>,
}

impl Split {
    #[inline(always)]
    fn chi(self, v: u32) -> usize {
        ((v & self.mask).count_ones() & 1) as usize
    }

    /// Whether heap `k` of value `v` is rare.
    #[inline(always)]
    fn is_rare(self, k: usize, v: u32) -> bool {
        match self.parity {
            None => self.chi(v) == 0,
            Some(rho) => self.chi(v) ^ (k & 1) == rho,
        }
    }

    /// Whether two common heaps summing to `rest` can be worth `v`.
    #[inline(always)]
    fn common_pairs_may_give(self, v: u32, rest: usize) -> bool {
        match self.parity {
            None => self.chi(v) == 0,
            Some(_) => self.chi(v) == rest & 1,
        }
    }
}

/// The evolving state of one run.
struct Run {
    split: Split,
    /// Rare heaps, heap 0 excluded, increasing.
    rare: Vec<usize>,
    /// Their values, side by side, so the gathering loop reads one table
    /// entry per pair instead of two.
    rare_values: Vec<u32>,
    /// `histogram[k mod 2][v]`: heaps of each parity with value `v`.
    histogram: [Vec<u64>; 2],
    /// The parity of `t` shared by every splitting digit, which the
    /// position-parity split needs.
    split_parity: Option<usize>,
    /// Option values of the current heap, one byte per value, sized for
    /// every XOR of two table values plus one byte that stays unmarked.
    seen: Vec<u8>,
    /// Every table value is below `2^bits`.
    bits: u32,
    next_choice: usize,
    stats: SparseStats,
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
        let splits = digits
            .iter()
            .filter(|&&(_, leaves, _)| leaves & 4 != 0)
            .map(|&(t, _, unequal)| (t, unequal))
            .collect();
        Some(SparseSolver { takes, splits })
    }

    /// Extends `values` (heaps `0..values.len()`) to heaps `0..=to`, in
    /// place at the table's width (widening it when a value needs it).
    /// Returns statistics of the run, or [`Error::Interrupted`] when
    /// `progress` (called every 4096 heaps) returns `false`; `values` then
    /// holds every heap finished so far.
    pub fn extend(
        &self,
        values: &mut ValueTable,
        to: u64,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Result<SparseStats> {
        let end = usize::try_from(to)
            .ok()
            .and_then(|t| t.checked_add(1))
            .ok_or(Error::NimberOverflow { value: to })?;
        let parities: Vec<usize> = self.splits.iter().map(|&(t, _)| t & 1).collect();
        let mut run = Run {
            split: Split::default(),
            rare: Vec::new(),
            rare_values: Vec::new(),
            histogram: [Vec::new(), Vec::new()],
            split_parity: parities
                .first()
                .copied()
                .filter(|&p| parities.iter().all(|&q| q == p)),
            seen: vec![0; 2],
            bits: 0,
            next_choice: values.len().max(WARM_UP).next_power_of_two(),
            stats: SparseStats::default(),
        };
        for (k, v) in values.iter().enumerate() {
            run.count(k, v.get());
        }
        with_slice!(values.as_slice(), g => if g.len() >= WARM_UP {
            run.choose_mask(g)
        } else {
            run.rebuild_rare(g)
        });
        loop {
            let outcome = match values.cells_mut() {
                Cells::U8(table) => self.run(table, end, &mut run, progress),
                Cells::U16(table) => self.run(table, end, &mut run, progress),
                Cells::U32(_) => {
                    return Err(Error::NimberOverflow {
                        value: u64::from(u16::LIMIT),
                    });
                }
            };
            match outcome {
                Outcome::Done => return Ok(run.finish()),
                Outcome::Stopped => {
                    return Err(Error::Interrupted {
                        heaps: values.len() as u64,
                    });
                }
                Outcome::Widen => values.widen(),
            }
        }
    }

    /// Computes heaps `table.len()..end` into `table`, until done, until a
    /// value does not fit the cell type (nothing is pushed for it), or until
    /// `progress` returns `false`.
    /// Runs the loop compiled for the widest vector instructions the CPU
    /// has.
    fn run<C: Cell>(
        &self,
        table: &mut Vec<C>,
        end: usize,
        run: &mut Run,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512f") && has!("avx512bw") && has!("avx512vl") {
                // SAFETY: the CPU supports these features, checked above.
                #[allow(unsafe_code)]
                return unsafe { self.run_avx512(table, end, run, progress) };
            }
            if has!("avx2") {
                // SAFETY: the CPU supports AVX2, checked above.
                #[allow(unsafe_code)]
                return unsafe { self.run_avx2(table, end, run, progress) };
            }
        }
        self.run_portable(table, end, run, progress)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
    fn run_avx512<C: Cell>(
        &self,
        table: &mut Vec<C>,
        end: usize,
        run: &mut Run,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Outcome {
        self.run_portable(table, end, run, progress)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn run_avx2<C: Cell>(
        &self,
        table: &mut Vec<C>,
        end: usize,
        run: &mut Run,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Outcome {
        self.run_portable(table, end, run, progress)
    }

    #[inline(always)]
    fn run_portable<C: Cell>(
        &self,
        table: &mut Vec<C>,
        end: usize,
        run: &mut Run,
        progress: &mut dyn FnMut(usize) -> bool,
    ) -> Outcome {
        table.reserve(end.saturating_sub(table.len()));
        for n in table.len()..end {
            if n == run.next_choice {
                run.choose_mask(table);
                run.next_choice *= 2;
            }
            let v = self.value(n, table, run);
            if v >= C::LIMIT {
                return Outcome::Widen;
            }
            table.push(C::new(v));
            run.count(n, v);
            if n > 0 && run.split.is_rare(n, v) {
                run.rare.push(n);
                run.rare_values.push(v);
            }
            if n % 4096 == 0 && !progress(n) {
                return Outcome::Stopped;
            }
        }
        progress(end.saturating_sub(1));
        Outcome::Done
    }

    /// `g(n)` from the values of smaller heaps.
    #[inline(always)]
    fn value<C: Cell>(&self, n: usize, g: &[C], run: &mut Run) -> u32 {
        let seen = &mut run.seen[..];
        seen.fill(0);
        for &(t, nothing, one) in &self.takes {
            if t > n {
                break;
            }
            if nothing && n == t {
                mark(seen, 0);
            }
            if one && n > t {
                mark(seen, g[n - t].get());
            }
        }
        for &(t, unequal) in &self.splits {
            let Some(rest) = n.checked_sub(t) else { break };
            // Rare heaps are mostly small: usually all of them are below.
            let below = match run.rare.last() {
                Some(&last) if last >= rest => run.rare.partition_point(|&r| r < rest),
                _ => run.rare.len(),
            };
            // XORs of two values below 2^bits stay below it; masking with
            // 2^bits - 1 lets the compiler drop the bounds check.
            let top = (1usize << run.bits) - 1;
            let marks = &mut seen[..=top];
            for (&r, &value) in run.rare[..below].iter().zip(&run.rare_values) {
                if !(unequal && 2 * r == rest) {
                    marks[(value ^ g[rest - r].get()) as usize & top] = 1;
                }
            }
        }
        let m = mex_from(seen, 0);
        // Under the warm-up split every heap is rare, so the gathering above
        // already saw every split.
        if run.split == Split::default() || self.exact(n, m, run) {
            return m;
        }
        run.stats.scans += 1;
        self.scan(n, g, run, m)
    }

    /// Whether no split of two common heaps can be worth `m`, so that `m`,
    /// missing from what was gathered, is `g(n)`. A value past every XOR of
    /// two table values cannot come from a split at all.
    #[inline(always)]
    fn exact(&self, n: usize, m: u32, run: &Run) -> bool {
        m >= 1 << run.bits
            || !self
                .splits
                .iter()
                .any(|&(t, _)| n >= t + 2 && run.split.common_pairs_may_give(m, n - t))
    }

    /// Step 3: finds `g(n)` when the partial mex `m` is rare. Searches the
    /// splits of two heaps block by block (every splitting digit within a
    /// block) for one worth `m`, with vector instructions. Values are marked
    /// only when `m` is found, for the blocks passed since the last mark, so
    /// that the next `m` accounts for them; a scan that never finds `m`
    /// marks nothing.
    #[inline(always)]
    fn scan<C: Cell>(&self, n: usize, g: &[C], run: &mut Run, mut m: u32) -> u32 {
        let pairs_of = |rest: usize, unequal: bool| if unequal { (rest - 1) / 2 } else { rest / 2 };
        // The splits (a, rest - a) for a in `from..to`, per digit.
        let blocks = |from: usize, to: usize| {
            self.splits.iter().filter_map(move |&(t, unequal)| {
                let rest = n.checked_sub(t).filter(|&r| r >= 2)?;
                let last = to.min(pairs_of(rest, unequal) + 1);
                (last > from).then(|| (&g[from..last], &g[rest + 1 - last..=rest - from]))
            })
        };
        let most = self
            .splits
            .iter()
            .filter(|&&(t, _)| t + 2 <= n)
            .map(|&(t, unequal)| pairs_of(n - t, unequal))
            .max()
            .unwrap_or(0);
        let mut marked = 1;
        let mut start = 1;
        while start <= most {
            let stop = (start + BLOCK).min(most + 1);
            if blocks(start, stop).any(|(low, high)| contains(low, high, m)) {
                for (low, high) in blocks(marked, stop) {
                    for (a, b) in low.iter().zip(high.iter().rev()) {
                        mark(&mut run.seen, a.get() ^ b.get());
                    }
                }
                marked = stop;
                m = mex_from(&run.seen, m);
                if self.exact(n, m, run) {
                    break;
                }
            }
            start = stop;
        }
        run.stats.scan_pairs += (start.min(most + 1) - 1) as u64 * self.splits.len() as u64;
        m
    }
}

/// Whether `low[i] ^ high[high.len() - 1 - i] == m` for some `i`: the pairs
/// `(a, rest - a)` of a block. Written as a branch-free fold so the compiler
/// vectorises it.
#[inline(always)]
fn contains<C: Cell>(low: &[C], high: &[C], m: u32) -> bool {
    low.iter()
        .zip(high.iter().rev())
        .fold(false, |found, (a, b)| found | (a.get() ^ b.get() == m))
}

impl Run {
    fn count(&mut self, k: usize, v: u32) {
        let v = v as usize;
        let counts = &mut self.histogram[k & 1];
        if v >= counts.len() {
            counts.resize(v + 1, 0);
        }
        counts[v] += 1;
        // Keep `seen` large enough for every XOR of two values and their mex.
        let bits = u32::BITS - (v as u32).leading_zeros();
        if bits > self.bits {
            self.bits = bits;
            self.seen.resize((1usize << bits) + 1, 0);
        }
    }

    fn finish(mut self) -> SparseStats {
        self.stats.mask = self.split.mask;
        self.stats.position_parity = self.split.parity.is_some();
        self.stats.rare_count = self.rare.len();
        self.stats.last_rare = self.rare.last().copied();
        self.stats
    }

    /// Picks the split with the fewest rare heaps for the values so far,
    /// plain or (when the splitting digits share a parity) position-parity,
    /// and rebuilds the rare list.
    ///
    /// For a mask `M`, `W(M) = sum_v cnt[v] (-1)^{chi_M(v)}` is the number of
    /// heaps with `chi = 0` minus those with `chi = 1`; one fast
    /// Walsh-Hadamard transform per heap parity gives it for every mask at
    /// once, and every rare count follows from it.
    fn choose_mask<C: Cell>(&mut self, g: &[C]) {
        let size = self
            .histogram
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(1)
            .next_power_of_two();
        let [even, odd] = [0, 1].map(|p| {
            let mut w: Vec<i64> = self.histogram[p].iter().map(|&c| c as i64).collect();
            w.resize(size, 0);
            walsh_hadamard(&mut w);
            w
        });
        let (heaps_even, heaps_odd) = (even[0], odd[0]);
        // Plain: rare = chi 0 = (E + O + W_e + W_o) / 2.
        let plain = (1..size).map(|m| {
            let rare = (heaps_even + heaps_odd + even[m] + odd[m]) / 2;
            (
                rare,
                Split {
                    mask: m as u32,
                    parity: None,
                },
            )
        });
        // Position-parity with rho: rare = even heaps with chi = rho plus odd
        // heaps with chi = 1 - rho.
        let parity = self.split_parity.into_iter().flat_map(|rho| {
            let (even, odd) = (&even, &odd);
            (1..size).map(move |m| {
                let (chi0_even, chi1_even) =
                    ((heaps_even + even[m]) / 2, (heaps_even - even[m]) / 2);
                let (chi0_odd, chi1_odd) = ((heaps_odd + odd[m]) / 2, (heaps_odd - odd[m]) / 2);
                let rare = if rho == 0 {
                    chi0_even + chi1_odd
                } else {
                    chi1_even + chi0_odd
                };
                (
                    rare,
                    Split {
                        mask: m as u32,
                        parity: Some(rho),
                    },
                )
            })
        });
        let best = plain
            .chain(parity)
            .min_by_key(|&(rare, split)| (rare, split.parity.is_some(), split.mask))
            .map(|(_, split)| split);
        self.stats.mask_choices += 1;
        if let Some(best) = best
            && (best != self.split || self.rare.is_empty())
        {
            self.split = best;
            self.rebuild_rare(g);
        }
    }

    /// The rare heaps (heap 0 excluded) under the current split.
    fn rebuild_rare<C: Cell>(&mut self, g: &[C]) {
        let split = self.split;
        self.rare = (1..g.len())
            .filter(|&k| split.is_rare(k, g[k].get()))
            .collect();
        self.rare_values = self.rare.iter().map(|&k| g[k].get()).collect();
    }
}

/// The fast Walsh-Hadamard transform, in place; `w.len()` is a power of two.
fn walsh_hadamard(w: &mut [i64]) {
    let size = w.len();
    let mut half = 1;
    while half < size {
        for block in (0..size).step_by(2 * half) {
            for i in block..block + half {
                let (x, y) = (w[i], w[i + half]);
                w[i] = x + y;
                w[i + half] = x - y;
            }
        }
        half *= 2;
    }
}
