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

use crate::{Error, Nimber, Result, TakeBreak};

/// Heaps computed by plain scans before the first mask is chosen.
const WARM_UP: usize = 1 << 10;

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
}

/// Values of a take-and-break game by the rare/common method.
///
/// ```
/// use grundy::solve::SparseSolver;
/// use grundy::{TableSolver, HeapGame, TakeBreak};
/// let code: TakeBreak = "0.165".parse().unwrap();
/// let sparse = SparseSolver::new(&code).unwrap();
/// let mut values = Vec::new();
/// sparse.extend(&mut values, 20_000, &mut |_| {}).unwrap();
/// let dense = TableSolver::new().values(&HeapGame::TakeBreak(code), 20_000).unwrap();
/// assert_eq!(values, dense);
/// ```
#[derive(Clone, Debug)]
pub struct SparseSolver {
    /// `(t, leave nothing, leave one)` for digits with those bits.
    takes: Vec<(usize, bool, bool)>,
    /// `(t, parts unequal)` for digits that may leave two heaps.
    splits: Vec<(usize, bool)>,
}

/// The evolving state of one run.
struct Run {
    mask: u32,
    rare: Vec<usize>,
    histogram: Vec<u64>,
    seen: Seen,
    stats: SparseStats,
}

/// The option values of one heap: a bitset that clears what it touched.
#[derive(Default)]
struct Seen {
    words: Vec<u64>,
    touched: Vec<usize>,
}

#[inline]
fn is_rare(mask: u32, v: u32) -> bool {
    (v & mask).count_ones().is_multiple_of(2)
}

impl SparseSolver {
    /// The solver for `code`, if the method applies: a finite code whose
    /// moves leave at most two heaps.
    pub fn new(code: &TakeBreak) -> Option<SparseSolver> {
        if code.max_parts() > 2 {
            return None;
        }
        let digits = code.digits()?;
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

    /// Extends `values` (heaps `0..values.len()`) to heaps `0..=to`.
    /// Returns statistics of the run.
    pub fn extend(
        &self,
        values: &mut Vec<Nimber>,
        to: u64,
        progress: &mut dyn FnMut(usize),
    ) -> Result<SparseStats> {
        let end = usize::try_from(to)
            .ok()
            .and_then(|t| t.checked_add(1))
            .ok_or(Error::NimberOverflow { value: to })?;
        let mut run = Run {
            mask: 0,
            rare: Vec::new(),
            histogram: Vec::new(),
            seen: Seen::default(),
            stats: SparseStats::default(),
        };
        for v in values.iter() {
            run.count(*v);
        }
        if values.len() >= WARM_UP {
            run.choose_mask(values);
        } else {
            run.rebuild_rare(values);
        }
        values.reserve(end.saturating_sub(values.len()));
        let mut next_choice = values.len().max(WARM_UP).next_power_of_two();
        for n in values.len()..end {
            if n == next_choice {
                run.choose_mask(values);
                next_choice *= 2;
            }
            let v = self.value(n, values, &mut run)?;
            values.push(v);
            run.count(v);
            if n > 0 && is_rare(run.mask, v.get()) {
                run.rare.push(n);
            }
            if n % 4096 == 0 {
                progress(n);
            }
        }
        progress(end.saturating_sub(1));
        run.stats.mask = run.mask;
        run.stats.rare_count = run.rare.len();
        run.stats.last_rare = run.rare.last().copied();
        Ok(run.stats)
    }

    /// `g(n)` from the values of smaller heaps.
    #[inline]
    fn value(&self, n: usize, g: &[Nimber], run: &mut Run) -> Result<Nimber> {
        let seen = &mut run.seen;
        seen.clear();
        for &(t, nothing, one) in &self.takes {
            if t > n {
                break;
            }
            if nothing && n == t {
                seen.mark(0);
            }
            if one && n > t {
                seen.mark(g[n - t].get());
            }
        }
        for &(t, unequal) in &self.splits {
            let Some(rest) = n.checked_sub(t) else { break };
            for &r in &run.rare {
                if r >= rest {
                    break;
                }
                let other = rest - r;
                if !(unequal && r == other) {
                    seen.mark(g[r].get() ^ g[other].get());
                }
            }
        }
        let mut m = seen.mex_from(0);
        // Under mask 0 (the warm-up) every heap is rare, so the gathering
        // above already saw every split.
        if run.mask != 0 && is_rare(run.mask, m) && !self.splits.is_empty() {
            m = self.scan(n, g, run, m);
        }
        Nimber::try_from(u64::from(m))
    }

    /// Step 3: scans the splits of two heaps, all splitting digits at the
    /// same `a`, until the mex is common or the splits run out.
    fn scan(&self, n: usize, g: &[Nimber], run: &mut Run, mut m: u32) -> u32 {
        run.stats.scans += 1;
        let largest_rest = n.saturating_sub(self.splits[0].0);
        let mut pairs = 0u64;
        'scan: for a in 1..=largest_rest / 2 {
            for &(t, unequal) in &self.splits {
                let Some(rest) = n.checked_sub(t) else { break };
                if 2 * a > rest || (unequal && 2 * a == rest) {
                    continue;
                }
                pairs += 1;
                let v = g[a].get() ^ g[rest - a].get();
                run.seen.mark(v);
                if v == m {
                    m = run.seen.mex_from(m);
                    if !is_rare(run.mask, m) {
                        break 'scan;
                    }
                }
            }
        }
        run.stats.scan_pairs += pairs;
        m
    }
}

impl Seen {
    #[inline]
    fn mark(&mut self, v: u32) {
        let (word, bit) = ((v / 64) as usize, 1u64 << (v % 64));
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        if self.words[word] == 0 {
            self.touched.push(word);
        }
        self.words[word] |= bit;
    }

    #[inline]
    fn clear(&mut self) {
        for &w in &self.touched {
            self.words[w] = 0;
        }
        self.touched.clear();
    }

    /// The least value `>= from` not marked.
    #[inline]
    fn mex_from(&self, from: u32) -> u32 {
        let mut v = from;
        loop {
            let word = (v / 64) as usize;
            let Some(&bits) = self.words.get(word) else {
                return v;
            };
            let free = !bits & (u64::MAX << (v % 64));
            if free != 0 {
                return word as u32 * 64 + free.trailing_zeros();
            }
            v = (word as u32 + 1) * 64;
        }
    }
}

impl Run {
    fn count(&mut self, v: Nimber) {
        if v.index() >= self.histogram.len() {
            self.histogram.resize(v.index() + 1, 0);
        }
        self.histogram[v.index()] += 1;
    }

    /// Picks the mask with the fewest rare heaps for the values so far and
    /// rebuilds the rare list.
    fn choose_mask(&mut self, g: &[Nimber]) {
        let size = self.histogram.len().next_power_of_two();
        // W(M) = sum_v cnt[v] (-1)^{popcount(v & M)}, by the fast
        // Walsh-Hadamard transform.
        let mut w: Vec<i64> = self.histogram.iter().map(|&c| c as i64).collect();
        w.resize(size, 0);
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
        // Rare heaps = (total + W(M)) / 2; mask 0 makes everything rare.
        let best = (1..size).min_by_key(|&mask| (w[mask], mask)).unwrap_or(0) as u32;
        self.stats.mask_choices += 1;
        if best != self.mask || self.rare.is_empty() {
            self.mask = best;
            self.rebuild_rare(g);
        }
    }

    /// The rare heaps (heap 0 excluded) under the current mask.
    fn rebuild_rare(&mut self, g: &[Nimber]) {
        let mask = self.mask;
        self.rare = (1..g.len())
            .filter(|&k| is_rare(mask, g[k].get()))
            .collect();
    }
}
