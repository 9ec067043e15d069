//! The rare gathers of a chunk of consecutive heaps, made in one pass.
//!
//! Step 2 of the sparse method marks, for every splitting digit `t` and
//! every rare heap `r`, the value `g(r) ^ g(n - t - r)` of heap `n`. For the
//! heaps `first..first + HEAPS` the partners of one rare heap are the
//! consecutive heaps `first - t - r + j`: one or two cache lines. Heap by
//! heap, each partner is a separate load that usually misses the first
//! cache level (the rare heaps' partners are spread over the table, and a
//! heap reads each once); chunk by chunk, one rare heap's entry is read
//! once and its partners come from one line, so the gather costs about a
//! store per mark.
//!
//! With AVX2 or AVX-512, one-byte cells and 64 to 256 values, the marks
//! are bits kept in registers while the rare heaps pass: for rare heap `r`
//! the 16 partners are one load, their marks `x_j = g(r) ^ partner_j` set
//! bit `x_j` of heap `j`'s one to four 64-bit words by variable shifts
//! (`1 << (x_j - 32 k)` for each 32-bit half `k`, zero out of range),
//! sixteen heaps to a vector with AVX-512, eight with AVX2, whose rare
//! heaps pass twice (heaps 0-8, then 8-16) so that the words stay in the
//! sixteen registers — no store per mark and no byte matrix to clear. A
//! heap's bits become bytes again when it starts ([`Premarked::write`]).
//! (With byte marks the store of each mark, about three cycles, was half of
//! Officers' time; see docs/engine-history.md, "Bit premarks with AVX2".)
//!
//! Two-byte tables whose values are below 512 (Officers past 255) get bit
//! marks too, through the scan's [`Fold`]: once every partner of the
//! chunk's rare heaps is common (past the last rare heap), every mark
//! `g(r) ^ g(p)` has `chi = 1` (rare `chi` 0, common 1, plain split), a
//! coset on which the fold to a byte is one to one; so the chunk marks the
//! folded bytes `fold(g(r)) ^ fold(g(p))` (the fold is linear) as 256 bits
//! from the table of folded bytes the scan keeps, exactly as for a
//! one-byte table, and [`Premarked::write`] unfolds them: value `v` is
//! marked when `chi(v) = 1` and bit `fold(v)` is set: a word of values at
//! a time, since the keys of 64 values are a word of keys with its bits
//! permuted (`Fold::values_with_keys`): no table of keys and no lookup per
//! value.
//!
//! One-byte tables of values up to 255 fold the same way one bit down
//! ([`Fold::below`] 7): once every partner is common, every mark has `chi =
//! 1` and folds one to one to seven bits, so the marks take two words a
//! heap instead of four. The table is not folded ahead; each mark is,
//! as it is made (`x ^ z` where `x` has bit 7: three instructions a rare
//! heap per vector of heaps, against half the shift-and-OR steps). The
//! rare heaps' folded values are kept as for the folded table, though
//! these marks fold after the XOR and do not read them (one fold per rare
//! heap, once). Games whose values pass 127 but stay below 256 gain most
//! (unfolded, the marks took 28% of 0.161's time; see
//! docs/engine-history.md, "Premarks of one-byte tables folded to seven
//! bits").
//!
//! With AVX-512 VBMI and GFNI (Ice Lake on), the bits come from byte
//! lookups instead of variable shifts ([`mark_bits_lookups`]): the
//! partners are loaded into each 128-bit lane, lane `k` for the values
//! whose bits lie in byte `k` of a 32-bit half, and a byte permute into a
//! table of `1 << (i & 7)` makes the bits of two of the four halves at
//! once, the half among those picked by a GF(2) affine map of the mark
//! (which also folds it). The variable shifts share one port, the permutes
//! another; a rare heap of two words costs nine vector instructions, two
//! of them permutes, against sixteen (faster on each of the four games
//! timed; see docs/engine-history.md, "Byte lookups for the rare
//! gathers").
//!
//! A chunk's kernel marks only the rare heaps whose partner is already in
//! the table (or in a windowed run's tail, see [`Partners`]) for every
//! heap of the chunk, and, for a digit that forbids equal parts, none that
//! could be the equal split `(r, r)` of one of them. The smallest rare
//! heaps pair the chunk's later heaps with heaps of the chunk itself
//! (`r < HEAPS - t`; 0.1777's 3, 4, 12 and 13): with bit marks, the chunk
//! lists those splits too, and each heap adds them to its bits from the
//! heaps just before it as it starts ([`Premarked::write`]), in registers,
//! where its own gather stored a byte per split after finding its ranges
//! digit by digit (0.1777 to 2^25 took 3.73-3.78 s against 4.06-4.23 s;
//! see docs/engine-history.md, "The chunk's own splits"); with AVX-512 and
//! marks of one word, in one kernel over the 16 heaps before it
//! ([`RecentLanes`]; "The chunk's own splits in one kernel"). The heap's own
//! computation gathers the rare heaps the chunk leaves out (see
//! [`Premarks::covered`]).

use std::ops::Range;

use super::SparseSolver;
use super::sparse::{Cell, Rares};
use super::wanted::has_avx512_vbmi;
use crate::fold::{Fold, Split};

/// Heaps a chunk premarks.
pub(super) const HEAPS: usize = 16;

/// The heaps a chunk's premarks read partners from: `heaps[i]` is heap
/// `base + i` (the whole table from heap 0, or a windowed run's tail),
/// with the fold in force and the folded bytes of the same heaps, if the
/// scan keeps them.
#[derive(Clone, Copy)]
pub(super) struct Partners<'a, C> {
    pub(super) heaps: &'a [C],
    pub(super) base: usize,
    pub(super) folded: Option<(Fold, &'a [u8])>,
}

impl<'a, C> Partners<'a, C> {
    /// The table of heaps `0..table.len()`, with its folded bytes.
    pub(super) fn table(table: &'a [C], folded: Option<(Fold, &'a [u8])>) -> Self {
        Partners {
            heaps: table,
            base: 0,
            folded,
        }
    }
}

/// The rare-split marks of heaps `first..first + HEAPS`, made ahead.
pub(super) struct Premarks {
    /// The chunk's first heap.
    first: usize,
    /// The number of values: every mark lies below it.
    size: usize,
    /// `marks[j * size..(j + 1) * size]` for heap `first + j`, when the
    /// marks are bytes (`words == 0`).
    marks: Vec<u8>,
    /// 64-bit words of bits per heap (1, 2 or 4) when the marks are bits,
    /// else 0: `bits[j * words + w]` has bit `b` for value `64 w + b` of
    /// heap `first + j`.
    words: usize,
    bits: Vec<u64>,
    /// Per splitting digit, in the solver's order, the indices into the
    /// rare list whose splits are marked: two ranges, in increasing order.
    covered: Vec<[Range<usize>; 2]>,
    /// The covered splits each heap marks as it starts, from the heaps
    /// just before it (see [`Premarked::write`]): `(t + r, g(r))` for
    /// splitting digit `t` and rare heap `r`, for every digit.
    recent: Vec<(usize, u32)>,
    /// Per splitting digit, the rare heaps `rare[..k]` whose splits are in
    /// `recent` (`k` 0 for none).
    recent_to: Vec<usize>,
    /// `recent` as the lanes of an AVX-512 kernel, when it fits them.
    recent_lanes: Option<RecentLanes>,
    /// Whether `bits` hold folded values (see the module's notes), to be
    /// unfolded by `unfold`.
    folded: bool,
    /// The fold of a one-byte table's marks to seven bits, applied to each
    /// mark as it is made, if the bits are folded so.
    folded_as_made: Option<Fold>,
    /// The folded values of the rare heaps, for the split and fold
    /// `unfold` was made for: the list only grows with the rare list. Each
    /// in the four bytes of its word, as `byte_values`.
    folded_values: Vec<u32>,
    /// The values of the rare heaps, for the split `split`, each in the
    /// four bytes of its word (`v * 0x0101_0101`, `v` below 256 where a
    /// kernel reads them): the byte-lookup kernel XORs its lanes with them
    /// broadcast from memory (a broadcast from a register would share the
    /// permutes' port).
    byte_values: Vec<u32>,
    /// The unfolding of the last fold used.
    unfold: Option<Unfold>,
    /// The split the rare list was made for: within a run the list of one
    /// split only grows, so its indices stay valid.
    split: Option<Split>,
    /// The vector instructions the bit marks use, if the CPU has any.
    kernel: Option<Kernel>,
}

/// The instruction sets the bit marks are made and spread with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kernel {
    Avx2,
    /// AVX-512F and BW; `lookups` when the CPU also has VBMI and GFNI
    /// (the marks made by byte lookups, [`mark_bits_lookups`]).
    Avx512 {
        lookups: bool,
    },
}

impl Kernel {
    /// The widest kernel the CPU runs.
    fn detect() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512f") && has!("avx512bw") {
                return Some(Kernel::Avx512 {
                    lookups: has_avx512_vbmi() && has!("gfni"),
                });
            }
            if has!("avx2") {
                return Some(Kernel::Avx2);
            }
        }
        None
    }
}

impl Default for Premarks {
    fn default() -> Premarks {
        Premarks {
            first: 0,
            size: 0,
            marks: Vec::new(),
            words: 0,
            bits: Vec::new(),
            covered: Vec::new(),
            recent: Vec::new(),
            recent_to: Vec::new(),
            recent_lanes: None,
            folded: false,
            folded_as_made: None,
            folded_values: Vec::new(),
            byte_values: Vec::new(),
            unfold: None,
            split: None,
            kernel: Kernel::detect(),
        }
    }
}

impl Premarks {
    /// Marks the rare splits of heaps `first..first + HEAPS` whose partners
    /// `partners` holds. Inlined into the engine's loops, which are
    /// compiled for the CPU's instruction sets.
    #[inline(always)]
    pub(super) fn make<C: Cell>(
        &mut self,
        solver: &SparseSolver,
        first: usize,
        partners: Partners<'_, C>,
        rares: &Rares<'_>,
    ) {
        let Partners {
            heaps: table,
            base,
            folded,
        } = partners;
        if solver.splits.is_empty() {
            // Nothing to gather: `of` finds no marks and heaps start clean.
            self.split = None;
            return;
        }
        let size = 1usize << rares.bits;
        self.first = first;
        self.size = size;
        let all_common = || self.kernel.is_some() && partners_all_common(solver, first, rares);
        let folded =
            folded.filter(|&(_, bytes)| size == 512 && bytes.len() == table.len() && all_common());
        let bytes = match folded {
            Some((_, bytes)) => Some(bytes),
            None => C::bytes(table).filter(|_| (64..=256).contains(&size) && self.kernel.is_some()),
        };
        // A one-byte table of values up to 255 folds its marks to 128
        // values, as they are made: half the words.
        self.folded_as_made = match (bytes, folded) {
            (Some(_), None) if size == 256 && all_common() => Fold::below(rares.split.mask, 7),
            _ => None,
        };
        self.folded = folded.is_some() || self.folded_as_made.is_some();
        if let Some(fold) = folded.map(|(fold, _)| fold).or(self.folded_as_made) {
            self.unfold_for(fold, rares);
        }
        self.words = match (bytes, folded, self.folded_as_made) {
            (Some(_), Some(_), _) => 4,
            (Some(_), None, Some(_)) => 2,
            (Some(_), None, None) => size / 64,
            (None, ..) => 0,
        };
        if self.words == 0 {
            self.marks.clear();
            self.marks.resize(HEAPS * size, 0);
        } else {
            self.bits.clear();
            self.bits.resize(HEAPS * self.words, 0);
        }
        self.covered.clear();
        self.recent.clear();
        self.recent_to.clear();
        let recent_bits = self.words > 0;
        let fresh = self.split != Some(rares.split);
        sync_values(&mut self.byte_values, rares.rare_values, fresh, |v| v & 255);
        self.split = Some(rares.split);
        let last = first + HEAPS - 1;
        let rare = rares.rare;
        let point = |bound: usize| rare.partition_point(|&r| r < bound);
        for &(t, unequal) in &solver.splits {
            // Every heap of the chunk pairs `r` with `first - t - r + j`:
            // above `base` for all of them (`r < top - base`, the partners'
            // place in `table`), and `last - t - r` in the table.
            let Some(top) = first.checked_sub(t) else {
                self.covered.push([0..0, 0..0]);
                self.recent_to.push(0);
                continue;
            };
            let at = top.saturating_sub(base);
            let lo = point((last + 1).saturating_sub(t + base + table.len()));
            let hi = point(at).max(lo);
            let ranges = if unequal {
                // The equal splits `(r, r)` of the chunk's even rests.
                let (a, b) = (
                    point(top / 2).clamp(lo, hi),
                    point((last - t) / 2 + 1).clamp(lo, hi),
                );
                [lo..a, b..hi]
            } else {
                [lo..hi, hi..hi]
            };
            for range in ranges.iter() {
                match bytes {
                    #[cfg(target_arch = "x86_64")]
                    Some(bytes) => self.mark_bits(bytes, rares, at, range.clone()),
                    _ => self.mark_range(table, rares, at, range.clone()),
                }
            }
            // The rare heaps below `lo` pair with heaps of the chunk
            // itself (or after the table): each heap marks those splits
            // from the heaps just before it as it starts (`write`), when
            // the marks are bits, every partner lies past `base` and, for
            // a digit that forbids equal parts, none is the equal split of
            // a heap of the chunk.
            let recent =
                recent_bits && lo > 0 && lo <= point(at) && (!unequal || 2 * rare[lo - 1] < top);
            let [first_range, second] = ranges;
            self.covered.push(match recent {
                true => {
                    let values = &rares.rare_values[..lo];
                    let splits = rare[..lo].iter().zip(values).map(|(&r, &v)| (t + r, v));
                    self.recent.extend(splits);
                    self.recent_to.push(lo);
                    [0..first_range.end, second]
                }
                false => {
                    self.recent_to.push(0);
                    [first_range, second]
                }
            });
        }
        // Lanes for one word of marks (values below 64): there the kernel
        // won (0.1777, nine splits: 3.94 s against 4.30 s to 2^25), while
        // with several words the scalar loop was as fast or faster (0.161's
        // six splits over four words, reduced word by word or four at once:
        // 1.77 s against 1.73 s to 2^23).
        let one_word = self.words == 1 && !self.folded;
        self.recent_lanes = match self.kernel {
            Some(Kernel::Avx512 { .. }) if one_word => RecentLanes::new(&self.recent),
            _ => None,
        };
    }

    /// Marks `g(r) ^ table[top - r + j]` for heap `first + j`, every rare
    /// heap `r = rare[range]`.
    #[inline(always)]
    fn mark_range<C: Cell>(
        &mut self,
        table: &[C],
        rares: &Rares<'_>,
        top: usize,
        range: Range<usize>,
    ) {
        let Some((rare, values)) = partners_in_table(rares, range, top, table.len()) else {
            return;
        };
        let size = self.size;
        let top_value = size - 1;
        let marks = &mut self.marks[..HEAPS * size];
        for (&r, &value) in rare.iter().zip(values) {
            // SAFETY: `top - r + HEAPS - 1 < table.len()` for every rare heap
            // of the range (checked by `partners_in_table`),
            // and `j * size + (x & (size - 1)) < HEAPS * size = marks.len()`.
            #[allow(unsafe_code)]
            unsafe {
                let partners = table.get_unchecked(top - r..top - r + HEAPS);
                for (j, partner) in partners.iter().enumerate() {
                    let at = j * size + ((value ^ partner.get()) as usize & top_value);
                    *marks.get_unchecked_mut(at) = 1;
                }
            }
        }
    }

    /// Makes `unfold` that of `fold` for the split of `rares`, and brings
    /// the folded values of its rare heaps up to date.
    fn unfold_for(&mut self, fold: Fold, rares: &Rares<'_>) {
        let mask = rares.split.mask;
        let fresh = !self
            .unfold
            .as_ref()
            .is_some_and(|unfold| unfold.fold == fold && unfold.mask == mask);
        if fresh {
            self.unfold = Some(Unfold::new(fold, mask));
        }
        sync_values(&mut self.folded_values, rares.rare_values, fresh, |v| {
            u32::from(fold.of(v))
        });
    }

    /// [`Self::mark_range`] as bits (`words > 0`: a kernel, values below
    /// `64 * words`), of `table` or of the folded bytes.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn mark_bits(&mut self, table: &[u8], rares: &Rares<'_>, top: usize, range: Range<usize>) {
        let Some(mut rare) = partners_in_table(rares, range.clone(), top, table.len()) else {
            return;
        };
        // The folded table's marks come from the rare heaps' folded
        // values; those folded as made, from their values.
        rare.1 = match self.folded && self.folded_as_made.is_none() {
            true => &self.folded_values[range],
            false => &self.byte_values[range],
        };
        let fold = self.folded_as_made.map(|fold| fold.kernel() as u8);
        // SAFETY: `words > 0` only when the CPU has the kernel's
        // instructions (`make`), and every partner `top - r..top - r +
        // HEAPS` lies in `table` (checked by `partners_in_table`).
        #[allow(unsafe_code)]
        if let Some(kernel) = self.kernel {
            unsafe { mark_bits(kernel, (self.words, fold), table, rare, top, &mut self.bits) }
        }
    }

    /// The marks and the covered rare indices of heap `n`, if this chunk
    /// holds it and was made for `split`'s rare list.
    #[inline(always)]
    pub(super) fn of(&self, n: usize, split: Split) -> Option<Premarked<'_>> {
        if self.split != Some(split) {
            return None;
        }
        let j = n.checked_sub(self.first).filter(|&j| j < HEAPS)?;
        let unfold = self.unfold.as_ref().filter(|_| self.folded);
        // Bits only when a kernel made them (`words > 0`).
        let words = self.words;
        let marks = match (self.kernel.filter(|_| words > 0), unfold) {
            (None, _) => Marks::Bytes(&self.marks[j * self.size..(j + 1) * self.size]),
            (Some(kernel), None) => Marks::Bits(&self.bits[j * words..(j + 1) * words], kernel),
            (Some(kernel), Some(unfold)) => {
                Marks::Folded(&self.bits[j * words..(j + 1) * words], unfold, kernel)
            }
        };
        Some(Premarked {
            marks,
            covered: &self.covered,
            recent: &self.recent,
            recent_to: &self.recent_to,
            recent_lanes: self.recent_lanes.as_ref(),
        })
    }
}

/// The rare heaps `rare[range]` and their values, if any, after checking
/// that all their partners `top - r..top - r + HEAPS` lie in a table of
/// `len` heaps (`make` chose the range so that they do): the partners run
/// from `top - largest` to `top - smallest + HEAPS - 1`, and the rare heaps
/// increase, so the extremes suffice.
#[inline(always)]
fn partners_in_table<'a>(
    rares: &Rares<'a>,
    range: Range<usize>,
    top: usize,
    len: usize,
) -> Option<(&'a [usize], &'a [u32])> {
    let rare = rares.rare.get(range.clone())?;
    let (&smallest, &largest) = rare.first().zip(rare.last())?;
    assert!(
        largest < top && top - smallest + HEAPS - 1 < len,
        "a premarked partner lies in the table"
    );
    Some((rare, &rares.rare_values[range]))
}

/// Whether every partner `first + j - t - r` (`j < HEAPS`) of every rare
/// heap `r` is common, for every splitting digit `t`: whether it lies past
/// the last rare heap, under the plain split (under the position-parity
/// split `chi` of a mark depends on its heaps' positions).
fn partners_all_common(solver: &SparseSolver, first: usize, rares: &Rares<'_>) -> bool {
    let Some(&last) = rares.rare.last() else {
        return true;
    };
    let most = solver.splits.iter().map(|&(t, _)| t).max().unwrap_or(0);
    rares.split.parity.is_none() && first.saturating_sub(most + last) > last
}

/// Brings `list`, the byte `byte(v)` of each rare heap's value `v` in the
/// four bytes of a word (as the kernels read it), up to the rare list
/// `values`: made anew when `fresh` (another split or fold) or when the
/// list is shorter than it (another run's), else extended by the new rare
/// heaps, since within a run the rare list of one split only grows.
fn sync_values(list: &mut Vec<u32>, values: &[u32], fresh: bool, byte: impl Fn(u32) -> u32) {
    if fresh || list.len() > values.len() {
        list.clear();
    }
    let done = list.len();
    list.extend(values[done..].iter().map(|&v| byte(v) * 0x0101_0101));
}

/// How folded bit marks become marks by value (see the module's notes):
/// bit `v` of `odd` is `chi(v)`, for the values the fold maps (below 512
/// or 256); zero past them.
pub(super) struct Unfold {
    fold: Fold,
    mask: u32,
    odd: [u64; 8],
}

impl Unfold {
    fn new(fold: Fold, mask: u32) -> Unfold {
        let mut odd = [0; 8];
        for v in 0..fold.domain() {
            if (v & mask).count_ones() % 2 == 1 {
                odd[v as usize / 64] |= 1 << (v % 64);
            }
        }
        Unfold { fold, mask, odd }
    }

    /// The marked values `64 c..64 c + 64` of the folded marks `words`:
    /// those of `chi = 1` whose key is marked.
    #[inline(always)]
    fn marked(&self, words: &[u64], c: usize) -> u64 {
        self.fold.values_with_keys(64 * c as u32, words) & self.odd[c]
    }
}

/// Marks, as bits, `g(r) ^ g(top - r + j)` for heap `first + j` and every
/// rare heap `r` of `rare` into `bits` (`words` of 1, 2 or 4 per heap),
/// with `kernel`; with `fold`, a [`Fold`]'s `z` below 256, each mark
/// folded to seven bits first (`x ^ z` when `x` has bit 7; `words` is 2).
/// Each rare heap's value `v` is given in the four bytes of its word (`v *
/// 0x0101_0101`).
///
/// # Safety
///
/// The CPU has the kernel's instructions, and `top - r..top - r + HEAPS`
/// lies in `table` for every rare heap `r`, whose values are below `64 *
/// words` (below 256 with `fold`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn mark_bits(
    kernel: Kernel,
    (words, fold): (usize, Option<u8>),
    table: &[u8],
    rare: (&[usize], &[u32]),
    top: usize,
    bits: &mut [u64],
) {
    let z = fold.unwrap_or(0);
    // SAFETY: the caller's promises.
    unsafe {
        match (kernel, words, fold.is_some()) {
            (Kernel::Avx512 { lookups: true }, 1, _) => {
                mark_bits_lookups::<1, false>(table, rare, top, bits, z)
            }
            (Kernel::Avx512 { lookups: true }, 2, false) => {
                mark_bits_lookups::<2, false>(table, rare, top, bits, z)
            }
            (Kernel::Avx512 { lookups: true }, 2, true) => {
                mark_bits_lookups::<2, true>(table, rare, top, bits, z)
            }
            (Kernel::Avx512 { lookups: true }, ..) => {
                mark_bits_lookups::<4, false>(table, rare, top, bits, z)
            }
            (Kernel::Avx512 { .. }, 1, _) => {
                mark_bits_avx512::<1, false>(table, rare, top, bits, z)
            }
            (Kernel::Avx512 { .. }, 2, false) => {
                mark_bits_avx512::<2, false>(table, rare, top, bits, z)
            }
            (Kernel::Avx512 { .. }, 2, true) => {
                mark_bits_avx512::<2, true>(table, rare, top, bits, z)
            }
            (Kernel::Avx512 { .. }, ..) => mark_bits_avx512::<4, false>(table, rare, top, bits, z),
            (Kernel::Avx2, 1, _) => mark_bits_avx2::<1, false>(table, rare, top, bits, z),
            (Kernel::Avx2, 2, false) => mark_bits_avx2::<2, false>(table, rare, top, bits, z),
            (Kernel::Avx2, 2, true) => mark_bits_avx2::<2, true>(table, rare, top, bits, z),
            (Kernel::Avx2, ..) => mark_bits_avx2::<4, false>(table, rare, top, bits, z),
        }
    }
}

/// `x` with each byte of bit 7 set XORed with `z`: the fold of
/// [`mark_bits`] when `FOLD`, else `x`.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "sse2")]
fn fold_bytes<const FOLD: bool>(
    x: std::arch::x86_64::__m128i,
    z: u8,
) -> std::arch::x86_64::__m128i {
    use std::arch::x86_64::{
        _mm_and_si128, _mm_cmplt_epi8, _mm_set1_epi8, _mm_setzero_si128, _mm_xor_si128,
    };
    if !FOLD {
        return x;
    }
    let high = _mm_cmplt_epi8(x, _mm_setzero_si128());
    _mm_xor_si128(x, _mm_and_si128(high, _mm_set1_epi8(z as i8)))
}

/// Marks, as bits, `g(r) ^ g(top - r + j)` for heap `first + j` and every
/// rare heap `r` of `rare` into `bits` (`W` words per heap, values below
/// `64 W`): the sixteen heaps' words stay in registers while the rare
/// heaps pass, as the halves of 32 bits of sixteen lanes (one zero-extend
/// of the sixteen marks, not two of eight to 64-bit lanes), two rare heaps
/// at a time, so that one three-way OR (a ternary logic instruction) adds
/// the marks of both to a word instead of an OR each. Both save
/// instructions per rare heap (see docs/engine-history.md, "The scan
/// without a branch per hit", items 6 and 7).
///
/// # Safety
///
/// The CPU has AVX-512F, and `top - r..top - r + HEAPS` lies in `table` for
/// every rare heap `r`, whose values are below 256.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[allow(unsafe_code)]
unsafe fn mark_bits_avx512<const W: usize, const FOLD: bool>(
    table: &[u8],
    (rare, values): (&[usize], &[u32]),
    top: usize,
    bits: &mut [u64],
    z: u8,
) {
    use std::arch::x86_64::{
        __m512i, _mm_loadu_si128, _mm_set1_epi8, _mm_xor_si128, _mm512_cvtepu8_epi32,
        _mm512_or_si512, _mm512_set1_epi32, _mm512_setzero_si512, _mm512_sllv_epi32,
        _mm512_sub_epi32, _mm512_ternarylogic_epi32,
    };
    const { assert!(HEAPS == 16, "one vector of sixteen 32-bit lanes") };
    let one = _mm512_set1_epi32(1);
    // `64 w + 32 h` for the half `h` of word `w`, hidden from the optimiser
    // (see `mark_bits_avx2`).
    let starts: [[__m512i; 2]; W] = std::hint::black_box(std::array::from_fn(|w| {
        [0, 1].map(|h| _mm512_set1_epi32((64 * w + 32 * h) as i32))
    }));
    // `words[w][h]`: bits `64 w + 32 h..` of the sixteen heaps, a 32-bit
    // lane each.
    let mut words = [[_mm512_setzero_si512(); 2]; W];
    // The marks of rare heap `r` for the sixteen heaps, as `[w][h]`
    // vectors of bits.
    let marks = |r: usize, value: u32| {
        // SAFETY: `top - r + 16 <= table.len()` (the caller's promise).
        let partners = unsafe { _mm_loadu_si128(table.as_ptr().add(top - r).cast()) };
        let x = _mm_xor_si128(partners, _mm_set1_epi8(value as u8 as i8));
        let x = _mm512_cvtepu8_epi32(fold_bytes::<FOLD>(x, z));
        // Shifts of 32 or more (and the negative ones, as unsigned) give
        // 0: a value outside half `h` of word `w` sets nothing in it. (A
        // loop, not `map`: the compiler may leave a `map`'s closure out of
        // line when the caller grows, a call per shift.)
        let mut marks = [[_mm512_setzero_si512(); 2]; W];
        for (word, starts) in marks.iter_mut().zip(&starts) {
            for (half, &start) in word.iter_mut().zip(starts) {
                *half = _mm512_sllv_epi32(one, _mm512_sub_epi32(x, start));
            }
        }
        marks
    };
    // Two rare heaps at a time, their marks ORed in with one three-way OR.
    let (rare_pairs, value_pairs) = (rare.chunks_exact(2), values.chunks_exact(2));
    let rest = (rare_pairs.remainder(), value_pairs.remainder());
    for (r, value) in rare_pairs.zip(value_pairs) {
        let (first, second) = (marks(r[0], value[0]), marks(r[1], value[1]));
        for (w, word) in words.iter_mut().enumerate() {
            for (h, half) in word.iter_mut().enumerate() {
                *half = _mm512_ternarylogic_epi32::<0xfe>(*half, first[w][h], second[w][h]);
            }
        }
    }
    if let (&[r], &[value]) = rest {
        let last = marks(r, value);
        for (w, word) in words.iter_mut().enumerate() {
            for (h, half) in word.iter_mut().enumerate() {
                *half = _mm512_or_si512(*half, last[w][h]);
            }
        }
    }
    for (w, word) in words.iter().enumerate() {
        for (h, &half) in word.iter().enumerate() {
            add_half::<W>(bits, 2 * w + h, half);
        }
    }
}

/// ORs the sixteen 32-bit lanes of `half` into half `a` (bits `32 a..32 a
/// + 32`) of the `W` words of heaps `0..16` in `bits`: lane `j` is heap
/// `j`'s.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn add_half<const W: usize>(bits: &mut [u64], a: usize, half: std::arch::x86_64::__m512i) {
    use std::arch::x86_64::{__m512i, _mm512_storeu_si512};
    let mut lanes = [0u32; 16];
    // SAFETY: `lanes` is 64 writable bytes; the store is unaligned.
    #[allow(unsafe_code)]
    unsafe {
        _mm512_storeu_si512(lanes.as_mut_ptr().cast::<__m512i>(), half)
    };
    for (j, &lane) in lanes.iter().enumerate() {
        bits[j * W + a / 2] |= u64::from(lane) << (32 * (a % 2));
    }
}

/// [`mark_bits_avx512`] by byte lookups (AVX-512 VBMI and GFNI): fewer
/// instructions a rare heap, and most of them not variable shifts, which
/// share one port.
///
/// The sixteen partners are loaded into each 128-bit lane `k` of a vector,
/// XORed with the rare heap's value and with `8 k`: byte `j` of lane `k`
/// is `i = x ^ 8 k`, `x` heap `j`'s mark. Byte `k` of heap `j`'s half `a`
/// (bits `32 a..`) holds the bits of values `32 a + 8 k..+ 8`, so `x`
/// belongs there when `(x >> 3) ^ k == 4 a`: when `i` has bits 3 and 4
/// clear and bits 5 to 7 equal to `a`, its bit then being `i & 7`. A
/// permute of `i`'s low six bits into a table of `1 << (i & 7)` at `i < 8`
/// (or at `32 <= i < 40`) makes the bits of the halves with bit 5 of `a`
/// clear (or set); bits 6 and 7 pick the half among those, by bytes of all
/// ones or zeros made by a GF(2) affine map of `i` (the ones of bit 6 or 7
/// of each byte). The fold to seven bits (`x ^ low` when `x` has bit 7, `z
/// = 128 | low`) is linear, so it is an affine map too. Once the rare heaps
/// have passed, one permute a half moves byte `j` of lane `k` to byte `k`
/// of heap `j`'s 32-bit lane. A rare heap of two words costs two permutes,
/// a three-way XOR (its value broadcast from memory), two affine maps and
/// four three-way ORs: nine vector instructions, two of them on the permute
/// port, against sixteen, four of them variable shifts that share another port
/// (on the Xeon of BENCHMARKS.md a shift or a permute issues one a cycle, an
/// XOR two). The permutes are one-register ones (six bits of `i`, bit 6 by
/// the affine map): a two-register permute issues only every two cycles.
/// The rare values are kept with the rare list ([`Premarks`]'
/// `byte_values`) and broadcast from memory in the XOR, which keeps the
/// broadcast off the permutes' port. The alternatives and their timings
/// are in docs/engine-history.md, "Byte lookups for the rare gathers".
///
/// # Safety
///
/// The CPU has AVX-512F, BW and VBMI and GFNI, and `top - r..top - r +
/// HEAPS` lies in `table` for every rare heap `r`, whose values are below
/// 256.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
#[allow(unsafe_code)]
unsafe fn mark_bits_lookups<const W: usize, const FOLD: bool>(
    table: &[u8],
    (rare, values): (&[usize], &[u32]),
    top: usize,
    bits: &mut [u64],
    z: u8,
) {
    use std::arch::x86_64::{
        __m512i, _mm_loadu_si128, _mm512_and_si512, _mm512_andnot_si512, _mm512_broadcast_i32x4,
        _mm512_gf2p8affine_epi64_epi8, _mm512_loadu_si512, _mm512_or_si512,
        _mm512_permutexvar_epi8, _mm512_set1_epi32, _mm512_set1_epi64, _mm512_setzero_si512,
        _mm512_ternarylogic_epi32,
    };
    const { assert!(HEAPS == 16, "one vector of sixteen 32-bit lanes") };
    const { assert!(matches!(W, 1 | 2 | 4), "one, two or four words a heap") };
    // The marks are made with byte `j` of 128-bit lane `k` for heap `j`
    // (the sixteen partners loaded into each lane: no permute), then moved
    // to byte `k` of heap `j`'s 32-bit lane: byte `4 j + k` from `16 k + j`.
    const GATHER: [u8; 64] = {
        let mut gather = [0u8; 64];
        let mut i = 0;
        while i < 64 {
            gather[i] = (16 * (i % 4) + i / 4) as u8;
            i += 1;
        }
        gather
    };
    // `8 k` in every byte of 128-bit lane `k`.
    const SPREAD: [u8; 64] = {
        let mut spread = [0u8; 64];
        let mut i = 0;
        while i < 64 {
            spread[i] = (8 * (i / 16)) as u8;
            i += 1;
        }
        spread
    };
    // `1 << (i & 7)` at `i < 8` (`LOOKUP[0]`) or at `32 <= i < 40` (`[1]`).
    const LOOKUP: [[u8; 64]; 2] = {
        let mut lookup = [[0u8; 64]; 2];
        let mut i = 0;
        while i < 8 {
            lookup[0][i] = 1 << i;
            lookup[1][32 + i] = 1 << i;
            i += 1;
        }
        lookup
    };
    /// The GF(2) matrix (as `_mm512_gf2p8affine_epi64_epi8` reads it: byte
    /// `7 - b` is the row of output bit `b`) of `rows`.
    const fn matrix(rows: [u8; 8]) -> i64 {
        let mut matrix = 0u64;
        let mut b = 0;
        while b < 8 {
            matrix |= (rows[b] as u64) << (8 * (7 - b));
            b += 1;
        }
        matrix as i64
    }
    // The fold: output bit `b < 7` is `x_b ^ (low_b & x_7)`; bit 7 is read
    // by nothing after it (the permutes read six bits, the halves bit 6).
    let low = z & 127;
    let fold = matrix(std::array::from_fn(|b| match b {
        7 => 0,
        _ => 1 << b | (low >> b & 1) << 7,
    }));
    // Every output bit is bit 6 of the (folded) byte, or bit 7.
    let sixth = matrix([0x40; 8]);
    let seventh = matrix([0x80; 8]);
    // SAFETY: the constants are 64 readable bytes; the loads are unaligned.
    let (gather, spread, lookup) = unsafe {
        (
            _mm512_loadu_si512(GATHER.as_ptr().cast()),
            _mm512_loadu_si512(SPREAD.as_ptr().cast()),
            LOOKUP.map(|table| _mm512_loadu_si512(table.as_ptr().cast())),
        )
    };
    let (fold, sixth, seventh) = (
        _mm512_set1_epi64(fold),
        _mm512_set1_epi64(sixth),
        _mm512_set1_epi64(seventh),
    );
    let zero = _mm512_setzero_si512();
    // Adds rare heap `r`'s marks to the halves.
    let add = |halves: &mut [__m512i; 8], r: usize, value: u32| {
        // SAFETY: `top - r + 16 <= table.len()` (the caller's promise).
        let partners = unsafe { _mm_loadu_si128(table.as_ptr().add(top - r).cast()) };
        let value = _mm512_set1_epi32(value as i32);
        // `partner ^ value ^ 8 k`
        let i = _mm512_ternarylogic_epi32::<0x96>(_mm512_broadcast_i32x4(partners), value, spread);
        let i = if FOLD {
            _mm512_gf2p8affine_epi64_epi8::<0>(i, fold)
        } else {
            i
        };
        let looked = lookup.map(|table| _mm512_permutexvar_epi8(i, table));
        if W == 1 {
            for (half, looked) in halves.iter_mut().zip(looked) {
                *half = _mm512_or_si512(*half, looked);
            }
            return;
        }
        let six = _mm512_gf2p8affine_epi64_epi8::<0>(i, sixth);
        let seven = _mm512_gf2p8affine_epi64_epi8::<0>(i, seventh);
        for (a, half) in halves.iter_mut().enumerate().take(2 * W) {
            // The bits of the halves whose bit 5 is that of `a`, kept where
            // bit 7 is that of `a` (four words), then ORed in where bit 6 is.
            let bit = match (W, a < 4) {
                (4, true) => _mm512_andnot_si512(seven, looked[a % 2]),
                (4, false) => _mm512_and_si512(seven, looked[a % 2]),
                _ => looked[a % 2],
            };
            *half = match a / 2 % 2 {
                // `half | bit & !six`
                0 => _mm512_ternarylogic_epi32::<0xf4>(*half, bit, six),
                // `half | bit & six`
                _ => _mm512_ternarylogic_epi32::<0xf8>(*half, bit, six),
            };
        }
    };
    let mut words = [zero; 8];
    for (&r, &value) in rare.iter().zip(values) {
        add(&mut words, r, value);
    }
    for (a, half) in words.iter().enumerate().take(2 * W) {
        add_half::<W>(bits, a, _mm512_permutexvar_epi8(gather, *half));
    }
}

/// [`mark_bits_avx512`] with AVX2: 32-bit words, eight heaps to a vector,
/// and the rare heaps passed twice, for heaps `0..8` and `8..16`, so that
/// the words of eight heaps stay in the sixteen registers.
///
/// # Safety
///
/// The CPU has AVX2, and `top - r..top - r + HEAPS` lies in `table` for
/// every rare heap `r`, whose values are below 256.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn mark_bits_avx2<const W: usize, const FOLD: bool>(
    table: &[u8],
    (rare, values): (&[usize], &[u32]),
    top: usize,
    bits: &mut [u64],
    z: u8,
) {
    use std::arch::x86_64::{
        __m256i, _mm_loadl_epi64, _mm_set1_epi8, _mm_xor_si128, _mm256_cvtepu8_epi32,
        _mm256_or_si256, _mm256_set1_epi32, _mm256_setzero_si256, _mm256_sllv_epi32,
        _mm256_storeu_si256, _mm256_xor_si256,
    };
    const { assert!(HEAPS == 16, "two passes of eight heaps") };
    let one = _mm256_set1_epi32(1);
    // `32 k` for 32-bit word `k`, hidden from the optimiser: told that a
    // shift by `x ^ 0` has `x < 256`, it rewrites the shift as a shift and
    // a select (five more instructions a rare heap).
    let starts: [[__m256i; 2]; W] = std::hint::black_box(std::array::from_fn(|w| {
        [0, 1].map(|h| _mm256_set1_epi32(32 * (2 * w + h) as i32))
    }));
    for pass in 0..2 {
        // `halves[w][h]`: bits `64 w + 32 h..` of eight heaps, a 32-bit
        // lane each.
        let mut halves = [[_mm256_setzero_si256(); 2]; W];
        for (&r, &value) in rare.iter().zip(values) {
            // SAFETY: `top - r + 16 <= table.len()` (the caller's promise).
            let partners =
                unsafe { _mm_loadl_epi64(table.as_ptr().add(top - r + 8 * pass).cast()) };
            let x = _mm_xor_si128(partners, _mm_set1_epi8(value as u8 as i8));
            let x = _mm256_cvtepu8_epi32(fold_bytes::<FOLD>(x, z));
            for (word, starts) in halves.iter_mut().zip(&starts) {
                for (half, &start) in word.iter_mut().zip(starts) {
                    // `x ^ 32 k` is `x - 32 k` when `x` lies in 32-bit word
                    // `k`, else 32 or more: a shift that gives 0.
                    let shift = _mm256_xor_si256(x, start);
                    *half = _mm256_or_si256(*half, _mm256_sllv_epi32(one, shift));
                }
            }
        }
        let mut lanes = [0u32; 8];
        for (w, word) in halves.iter().enumerate() {
            for (h, half) in word.iter().enumerate() {
                // SAFETY: `lanes` is 32 writable bytes; the store is
                // unaligned.
                unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), *half) };
                for (i, &lane) in lanes.iter().enumerate() {
                    bits[(8 * pass + i) * W + w] |= u64::from(lane) << (32 * h);
                }
            }
        }
    }
}

/// What a heap's gather starts from: the marks its chunk made, and, per
/// splitting digit, the rare heaps they cover.
#[derive(Clone, Copy)]
pub(super) struct Premarked<'a> {
    marks: Marks<'a>,
    pub(super) covered: &'a [[Range<usize>; 2]],
    recent: &'a [(usize, u32)],
    /// Per splitting digit, the rare heaps `rare[..k]` whose splits
    /// `recent` holds.
    pub(super) recent_to: &'a [usize],
    recent_lanes: Option<&'a RecentLanes>,
}

/// A chunk's recent splits (see [`Premarked::write`]) as the lanes of one
/// AVX-512 kernel, for marks of one word, when there are at most 16 and
/// each reads one of the 16 heaps before the heap (the usual case: `t + r
/// < HEAPS` when the table ends at the chunk): a heap's partners are then
/// one load and a byte shuffle of the heaps before it, and its marks a few
/// vector instructions, where the scalar loop takes about 25 instructions
/// a split (0.1777's nine splits a heap were a tenth of its heap loop).
#[derive(Clone, Copy, Debug)]
pub(super) struct RecentLanes {
    /// Lane `i` reads byte `picks[i]` of the 16 heaps before the heap:
    /// `16 - distance`.
    picks: [u8; 16],
    /// Lane `i`'s rare value, `2^40` in the lanes past the list: a mark
    /// beyond every word.
    values: [u64; 16],
    /// Bit `i` for the lanes of the list.
    active: u16,
}

impl RecentLanes {
    /// The lanes of `recent`, if it fits them.
    fn new(recent: &[(usize, u32)]) -> Option<RecentLanes> {
        if recent.is_empty() || recent.len() > 16 {
            return None;
        }
        let mut lanes = RecentLanes {
            picks: [0; 16],
            values: [1 << 40; 16],
            active: 0,
        };
        for (i, &(distance, value)) in recent.iter().enumerate() {
            lanes.picks[i] = u8::try_from(16usize.checked_sub(distance)?).ok()?;
            lanes.values[i] = u64::from(value);
            lanes.active |= 1 << i;
        }
        Some(lanes)
    }

    /// [`Premarked::recent_bits`] of one word from `before`, the values
    /// of the 16 heaps before the heap: the word, and whether a mark lies
    /// past it.
    ///
    /// # Safety
    ///
    /// The CPU has AVX-512F and BW.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    #[allow(unsafe_code)]
    unsafe fn word(&self, before: &[u8; 16]) -> (u64, bool) {
        use std::arch::x86_64::{
            _mm_loadu_si128, _mm_shuffle_epi8, _mm_srli_si128, _mm512_cvtepu8_epi64,
            _mm512_loadu_si512, _mm512_mask_cmpge_epu64_mask, _mm512_or_si512,
            _mm512_reduce_or_epi64, _mm512_set1_epi64, _mm512_sllv_epi64, _mm512_xor_si512,
        };
        // SAFETY: every load reads 16 bytes of a 16-byte array or 64 of
        // the 128 bytes of `values`.
        unsafe {
            let heaps = _mm_loadu_si128(before.as_ptr().cast());
            let partners = _mm_shuffle_epi8(heaps, _mm_loadu_si128(self.picks.as_ptr().cast()));
            let values = self.values.as_ptr();
            let low = _mm512_xor_si512(
                _mm512_cvtepu8_epi64(partners),
                _mm512_loadu_si512(values.cast()),
            );
            let high = _mm512_xor_si512(
                _mm512_cvtepu8_epi64(_mm_srli_si128::<8>(partners)),
                _mm512_loadu_si512(values.add(8).cast()),
            );
            // `1 << x`, 0 for a count past 63.
            let one = _mm512_set1_epi64(1);
            let bits = _mm512_or_si512(_mm512_sllv_epi64(one, low), _mm512_sllv_epi64(one, high));
            let limit = _mm512_set1_epi64(64);
            let past = _mm512_mask_cmpge_epu64_mask(self.active as u8, low, limit)
                | _mm512_mask_cmpge_epu64_mask((self.active >> 8) as u8, high, limit);
            (_mm512_reduce_or_epi64(bits) as u64, past != 0)
        }
    }
}

/// A heap's premarks: a byte per value, 64-bit words of bits, or bits of
/// folded bytes, with the kernel that made the bits.
#[derive(Clone, Copy)]
enum Marks<'a> {
    Bytes(&'a [u8]),
    Bits(&'a [u64], Kernel),
    Folded(&'a [u64], &'a Unfold, Kernel),
}

impl Premarked<'_> {
    /// Writes the marks of heap `n` into `seen`, one byte per value (1 for
    /// marked), and clears the rest of it. The splits whose partners are
    /// the heaps just before `n` (the chunk's own, see the module's notes)
    /// are marked here, from `partner(k)`, the value of heap `k`, or `None`
    /// where the heap's view does not hold it: then the split is left out
    /// and `write` returns `true`, and the heap gathers those rare heaps
    /// itself (`recent_to`), as it does those the chunk does not cover.
    /// `before()`, the values of the 16 heaps before `n` as bytes where
    /// the view holds them, lets an AVX-512 kernel mark those splits at
    /// once.
    #[inline(always)]
    pub(super) fn write<'b>(
        &self,
        seen: &mut [u8],
        n: usize,
        before: impl FnOnce() -> Option<&'b [u8; 16]>,
        partner: impl Fn(usize) -> Option<u32>,
    ) -> bool {
        // The chunk's marks cover values `0..64 * value_words`.
        let value_words = match self.marks {
            Marks::Bytes(_) => 0,
            Marks::Bits(words, _) => words.len(),
            Marks::Folded(words, ..) => 2 * words.len(),
        };
        // Lanes exist only for one word of marks (`Premarks::make`).
        let lanes = self.recent_lanes.and_then(|lanes| Some((lanes, before()?)));
        let (recent, spilled, missed) = match lanes {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: lanes are made only for the AVX-512 kernel, which
            // runs only where the CPU has AVX-512F and BW.
            #[allow(unsafe_code)]
            Some((lanes, before)) => {
                assert_eq!(value_words, 1, "lanes mark one word");
                let (word, spilled) = unsafe { lanes.word(before) };
                let mut words = [0; 8];
                words[0] = word;
                (words, spilled, false)
            }
            _ => self.recent_bits(n, value_words, &partner),
        };
        let made = match self.marks {
            Marks::Bytes(marks) => {
                assert!(self.recent.is_empty(), "recent splits are marked as bits");
                seen[..marks.len()].copy_from_slice(marks);
                marks.len()
            }
            Marks::Bits(words, kernel) => {
                assert!(seen.len() >= 64 * words.len() && words.len() <= 4);
                for (at, &word) in words.iter().enumerate() {
                    let word = word | recent[at];
                    spread_bits(kernel, word, &mut seen[64 * at..64 * at + 64]);
                }
                64 * words.len()
            }
            Marks::Folded(words, unfold, kernel) => {
                // Four words of folded bytes for 512 values, two of seven
                // bits for 256: the values of the fold's domain, a word of
                // them at a time (see `Fold::values_with_keys`).
                let size = 128 * words.len();
                assert!(seen.len() >= size && matches!(words.len(), 2 | 4));
                for c in 0..2 * words.len() {
                    let marked = unfold.marked(words, c) | recent[c];
                    spread_bits(kernel, marked, &mut seen[64 * c..64 * c + 64]);
                }
                size
            }
        };
        seen[made..].fill(0);
        if spilled {
            // A value past the chunk's marks, new since it was made.
            for &(distance, value) in self.recent {
                if let Some(p) = partner(n - distance) {
                    let x = (value ^ p) as usize;
                    if x >= made {
                        seen[x] = 1;
                    }
                }
            }
        }
        missed
    }

    /// The bits of heap `n`'s recent splits (see [`Self::write`]), by
    /// value, in the first `value_words` of eight words, which stay in
    /// registers: a word is picked by masks, not by an index into memory,
    /// whose stores and loads would chain the splits one after another.
    /// Also whether a split is worth a value past those words (a value
    /// larger than any when the chunk was made, in a heap of the chunk):
    /// [`Self::write`] marks those apart. By value, not folded: a heap of
    /// the chunk may be rare, and its splits' values outside the fold's
    /// coset.
    #[inline(always)]
    fn recent_bits(
        &self,
        n: usize,
        value_words: usize,
        partner: &impl Fn(usize) -> Option<u32>,
    ) -> ([u64; 8], bool, bool) {
        let mut words = [0u64; 8];
        let limit = 64 * value_words as u32;
        let (mut past, mut missed) = (0, false);
        if value_words == 1 {
            for &(distance, value) in self.recent {
                match partner(n - distance) {
                    Some(p) => {
                        let x = value ^ p;
                        words[0] |= u64::from(x < 64) << (x % 64);
                        past |= x >> 6;
                    }
                    None => missed = true,
                }
            }
            return (words, past != 0, missed);
        }
        for &(distance, value) in self.recent {
            match partner(n - distance) {
                Some(p) => {
                    let x = value ^ p;
                    let bit = 1u64 << (x % 64);
                    for (w, word) in words.iter_mut().enumerate() {
                        *word |= bit & u64::from(x / 64 == w as u32).wrapping_neg();
                    }
                    past |= u32::from(x >= limit);
                }
                None => missed = true,
            }
        }
        (words, past != 0, missed)
    }
}

/// Writes bit `b` of `word` as byte `b` (0 or 1) of `out`, with the
/// kernel's instructions.
#[inline(always)]
fn spread_bits(kernel: Kernel, word: u64, out: &mut [u8]) {
    assert_eq!(out.len(), 64);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (kernel, word);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: bit marks are made only when the CPU has the kernel's
    // instructions (`Premarks::make`), and `out` has 64 bytes (asserted).
    #[allow(unsafe_code)]
    unsafe {
        match kernel {
            Kernel::Avx512 { .. } => spread_bits_avx512(word, out.as_mut_ptr()),
            Kernel::Avx2 => spread_bits_avx2(word, out.as_mut_ptr()),
        }
    }
}

/// Writes bit `b` of `word` as byte `b` (0 or 1) of the 64 bytes at `out`.
///
/// # Safety
///
/// The CPU has AVX-512F and BW, and `out` points to 64 writable bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[allow(unsafe_code)]
unsafe fn spread_bits_avx512(word: u64, out: *mut u8) {
    use std::arch::x86_64::{_mm512_maskz_set1_epi8, _mm512_storeu_si512};
    // SAFETY: the caller's promise.
    unsafe { _mm512_storeu_si512(out.cast(), _mm512_maskz_set1_epi8(word, 1)) };
}

/// Byte `i` of each eight is `1 << i`: the bit a byte lane tests.
#[cfg(target_arch = "x86_64")]
const BIT_OF_BYTE_LANE: i64 = 0x8040_2010_0804_0201_u64 as i64;

/// [`spread_bits_avx512`] with AVX2: each 32 bits broadcast, every byte
/// spread to the eight lanes of its bits, and each lane's bit tested.
///
/// # Safety
///
/// The CPU has AVX2, and `out` points to 64 writable bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn spread_bits_avx2(word: u64, out: *mut u8) {
    use std::arch::x86_64::{
        _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_set1_epi8, _mm256_set1_epi32,
        _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_storeu_si256,
    };
    // Lane `i` takes byte `i / 8` of the 32 bits (each 128-bit half of the
    // broadcast holds all four) and bit `i % 8` of it.
    let bytes = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3,
        3, 3,
    );
    let bit = _mm256_set1_epi64x(BIT_OF_BYTE_LANE);
    for half in 0..2 {
        let spread = _mm256_shuffle_epi8(_mm256_set1_epi32((word >> (32 * half)) as i32), bytes);
        let set = _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
        // SAFETY: the caller's promise: 32 bytes from `32 * half`.
        unsafe {
            _mm256_storeu_si256(
                out.add(32 * half).cast(),
                _mm256_and_si256(set, _mm256_set1_epi8(1)),
            )
        };
    }
}

/// Calls `each` with the parts of `from..to` outside `covered` (two
/// increasing ranges), without index `skip`, in order: the rare heaps a
/// heap still gathers itself. The empty parts are left out. (This runs
/// once per heap and splitting digit, so the parts are handed over as they
/// are found: an iterator over a stored array of them costs a store and a
/// load each.)
#[inline(always)]
pub(super) fn uncovered(
    from: usize,
    to: usize,
    covered: &[Range<usize>; 2],
    skip: Option<usize>,
    mut each: impl FnMut(Range<usize>),
) {
    let [first, second] = covered;
    let pieces = [
        from..first.start.clamp(from, to),
        first.end.clamp(from, to)..second.start.clamp(from, to),
        second.end.clamp(from, to)..to,
    ];
    for piece in pieces {
        let (before, after) = match skip {
            Some(i) if piece.contains(&i) => (piece.start..i, i + 1..piece.end),
            _ => (piece, 0..0),
        };
        for part in [before, after] {
            if !part.is_empty() {
                each(part);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Fold, HEAPS, Kernel, Partners, Premarks, uncovered};
    use crate::fold::Split;
    use crate::solve::SparseSolver;
    use crate::solve::sparse::Rares;
    use proptest::prelude::*;

    /// The kernels this CPU runs: the one detected and the narrower ones.
    fn kernels() -> Vec<Kernel> {
        match Kernel::detect() {
            Some(Kernel::Avx512 { lookups }) => {
                let mut kernels = vec![Kernel::Avx2, Kernel::Avx512 { lookups: false }];
                if lookups {
                    kernels.push(Kernel::Avx512 { lookups: true });
                }
                kernels
            }
            Some(Kernel::Avx2) => vec![Kernel::Avx2],
            None => Vec::new(),
        }
    }

    /// Premarks of heaps `first..first + HEAPS` made with `kernel` (byte
    /// marks if `None`).
    fn premarks(
        kernel: Option<Kernel>,
        solver: &SparseSolver,
        first: usize,
        partners: Partners<'_, impl crate::solve::sparse::Cell>,
        rares: &Rares<'_>,
    ) -> Premarks {
        let mut premarks = Premarks {
            kernel,
            ..Premarks::default()
        };
        premarks.make(solver, first, partners, rares);
        premarks
    }

    proptest! {
        /// The bit marks of every kernel set exactly the bits of the marks
        /// `g(r) ^ g(top - r + j)`, for one, two and four words, and of
        /// their folds to seven bits (two words, values below 256).
        #[test]
        #[cfg(target_arch = "x86_64")]
        fn bit_marks_are_the_marks(
            words in prop_oneof![Just(1usize), Just(2), Just(4)],
            fold_mask in proptest::option::of(1u32..256),
            table in proptest::collection::vec(any::<u8>(), 40..120),
            rare in proptest::collection::btree_map(0usize..20, any::<u8>(), 0..12),
        ) {
            let fold = fold_mask.and_then(|mask| Fold::below(mask, 7));
            let words = if fold.is_some() { 2 } else { words };
            let top_value = if fold.is_some() { 255 } else { 64 * words - 1 };
            let table: Vec<u8> = table.iter().map(|&v| (v as usize & top_value) as u8).collect();
            let top = table.len() - HEAPS;
            let (rare, values): (Vec<usize>, Vec<u32>) =
                rare.into_iter().map(|(r, v)| (r, u32::from(v) & top_value as u32)).unzip();
            let in_bytes: Vec<u32> = values.iter().map(|&v| v * 0x0101_0101).collect();
            let mut expected = vec![0u64; HEAPS * words];
            for (&r, &v) in rare.iter().zip(&values) {
                for j in 0..HEAPS {
                    let x = v ^ u32::from(table[top - r + j]);
                    let x = fold.map_or(x, |fold| u32::from(fold.of(x))) as usize;
                    expected[j * words + x / 64] |= 1 << (x % 64);
                }
            }
            let z = fold.map(|fold| fold.kernel() as u8);
            for kernel in kernels() {
                let mut got = vec![0u64; HEAPS * words];
                // SAFETY: the CPU runs the kernel (`kernels`) and every
                // partner lies in the table: `top - r + HEAPS <= table.len()`
                // for r >= 0.
                #[allow(unsafe_code)]
                unsafe {
                    super::mark_bits(kernel, (words, z), &table, (&rare, &in_bytes), top, &mut got)
                };
                prop_assert_eq!(&got, &expected, "{:?}", kernel);
            }
        }
    }

    proptest! {
        /// Premarks made from a one-byte table (heaps `0..first`) or from
        /// a tail of it (heaps `base..first`, as a windowed run holds them)
        /// mark exactly the splits of the rare heaps they cover, whose
        /// partners all lie in the table, and cover every rare heap whose
        /// partners do (but the equal splits a digit forbids); every
        /// kernel's bit marks, spread to bytes, are the byte marks. For the
        /// splitting digits of Officers, of 0.376 (two, neighbouring) and
        /// of 0.161 (equal parts forbidden or not).
        #[test]
        fn premarks_mark_what_they_cover(
            code in prop_oneof![Just("0.6"), Just("0.376"), Just("0.161"), Just("0.07")],
            mask in 1u32..256,
            bits in 6u32..=8,
            values in proptest::collection::vec(any::<u8>(), 300),
            first in 100usize..280,
            base in prop_oneof![Just(0usize), 0usize..280],
        ) {
            let solver = SparseSolver::new(&code.parse().unwrap()).unwrap();
            let top_value = (1u32 << bits) - 1;
            let table: Vec<u8> = values.iter().map(|&v| (u32::from(v) & top_value) as u8).collect();
            let (rare, rare_values): (Vec<usize>, Vec<u32>) = (1..table.len())
                .filter(|&k| (u32::from(table[k]) & mask).count_ones() % 2 == 0)
                .map(|k| (k, u32::from(table[k])))
                .unzip();
            let split = Split { mask, parity: None };
            let rares = Rares { split, rare: &rare, rare_values: &rare_values, bits };
            let base = base.min(first);
            let tail = &table[base..first];
            let by_bytes = premarks(None, &solver, first, Partners { heaps: tail, base, folded: None }, &rares);
            let last = first + HEAPS - 1;
            for n in first..=last {
                let made = by_bytes.of(n, split).unwrap();
                let mut want = vec![0u8; 1 << bits];
                for (digit, &(t, unequal)) in solver.splits.iter().enumerate() {
                    let covered: Vec<usize> = made.covered[digit].iter().cloned().flatten().collect();
                    for &i in &covered {
                        let partner = (n - t).checked_sub(rare[i]);
                        prop_assert!(partner.is_some_and(|p| p > base && p < first));
                        want[(rare_values[i] ^ u32::from(table[n - t - rare[i]])) as usize] = 1;
                    }
                    for (i, &r) in rare.iter().enumerate() {
                        let inside = first > t + r + base && last < t + r + first;
                        let equal_band = unequal && r >= (first - t) / 2 && r <= (last - t) / 2;
                        prop_assert!(!inside || equal_band || covered.contains(&i), "rare {} digit {}", r, t);
                    }
                }
                let mut got = vec![7u8; 1 << bits];
                made.write(&mut got, n, || None, |_| None);
                prop_assert_eq!(got, want, "heap {}", n);
            }
            // The chunk's own heaps may pass every value of the table
            // before it (a larger value, new since the chunk was made).
            let values: Vec<u32> = (0..table.len())
                .map(|k| u32::from(if k < first { table[k] } else { values[k] }))
                .collect();
            let gathers = (&solver, &rares, &values[..]);
            gather_every_rare_split(&by_bytes, first, gathers)?;
            for kernel in kernels() {
                let by_bits = premarks(Some(kernel), &solver, first, Partners { heaps: tail, base, folded: None }, &rares);
                prop_assert!(by_bits.words > 0 && by_bytes.words == 0);
                gather_every_rare_split(&by_bits, first, gathers)?;
                // Bit marks also cover the splits with a heap of the chunk,
                // which each heap marks as it starts.
                for n in (first..=last).filter(|_| base + HEAPS <= first) {
                    let made = by_bits.of(n, split).unwrap();
                    for (digit, &(t, unequal)) in solver.splits.iter().enumerate() {
                        let covered: Vec<usize> = made.covered[digit].iter().cloned().flatten().collect();
                        for (i, &r) in rare.iter().enumerate() {
                            let past_base = first > t + r + base;
                            let equal_band = unequal && r >= (first - t) / 2 && r <= (last - t) / 2;
                            prop_assert!(!past_base || equal_band || covered.contains(&i), "rare {} digit {}", r, t);
                        }
                    }
                }
            }
        }
    }

    /// A table of `values` (below `2^bits`) whose heaps from 40 on are
    /// common under `mask` (a value of `chi` 0 there moves to the other
    /// coset), and its rare heaps with their values.
    fn common_from_40<C: crate::solve::sparse::Cell>(
        mask: u32,
        values: &[u32],
    ) -> (Vec<C>, Vec<usize>, Vec<u32>) {
        let chi = |v: u32| (v & mask).count_ones() % 2;
        let low = mask & mask.wrapping_neg();
        let table: Vec<C> = values
            .iter()
            .enumerate()
            .map(|(k, &v)| C::new(if k >= 40 && chi(v) == 0 { v ^ low } else { v }))
            .collect();
        let (rare, rare_values) = (1..table.len())
            .filter(|&k| chi(table[k].get()) == 0)
            .map(|k| (k, table[k].get()))
            .unzip();
        (table, rare, rare_values)
    }

    /// Checks that each heap `n` of the chunk `premarks` starts at `first`
    /// gathers every split `g(r) ^ g(n - t - r)` of a rare heap `r` (but
    /// the equal split a digit forbids) and nothing else: its premarks
    /// written, with the splits each heap marks as it starts read from
    /// `values` (every heap's value), and the rare heaps they leave out
    /// marked from `values` as the heap's own gather does.
    fn gather_every_rare_split(
        premarks: &Premarks,
        first: usize,
        (solver, rares, values): (&SparseSolver, &Rares<'_>, &[u32]),
    ) -> Result<(), TestCaseError> {
        for n in first..first + HEAPS {
            let mut want = vec![0u8; 513];
            for &(t, unequal) in &solver.splits {
                let rest = n - t;
                for (&r, &v) in rares.rare.iter().zip(rares.rare_values) {
                    if r < rest && !(unequal && 2 * r == rest) {
                        want[(v ^ values[rest - r]) as usize] = 1;
                    }
                }
            }
            let made = premarks.of(n, rares.split).unwrap();
            // With every heap before `n` in view, also as the bytes of the
            // 16 heaps before it where they are bytes (the lanes' kernel),
            // and with a view that lacks the odd heaps: a split left out
            // is gathered again.
            let before: Option<[u8; 16]> = n
                .checked_sub(16)
                .and_then(|from| {
                    values[from..n]
                        .iter()
                        .map(|&v| u8::try_from(v).ok())
                        .collect::<Option<Vec<u8>>>()
                })
                .map(|bytes| bytes.try_into().unwrap());
            for (view_all, before) in [(true, None), (true, before.as_ref()), (false, None)] {
                let mut got = vec![7u8; 513];
                let missed = made.write(
                    &mut got,
                    n,
                    || before,
                    |k| {
                        assert!(k < n, "a heap's own splits read the heaps before it");
                        (view_all || k % 2 == 0).then(|| values[k])
                    },
                );
                for (digit, &(t, unequal)) in solver.splits.iter().enumerate() {
                    let rest = n - t;
                    let below = rares.rare.partition_point(|&r| r < rest);
                    let equal = rares.rare.binary_search(&(rest / 2)).ok();
                    let equal = equal.filter(|_| unequal && rest % 2 == 0);
                    let mut mark = |piece: std::ops::Range<usize>| {
                        for i in piece {
                            let partner = values[rest - rares.rare[i]];
                            got[(rares.rare_values[i] ^ partner) as usize] = 1;
                        }
                    };
                    if missed {
                        mark(0..made.recent_to[digit].min(below));
                    }
                    uncovered(0, below, &made.covered[digit], equal, &mut mark);
                }
                prop_assert_eq!(
                    &got,
                    &want,
                    "heap {} {:?} {} {:?}",
                    n,
                    premarks.kernel,
                    view_all,
                    before
                );
            }
        }
        Ok(())
    }

    proptest! {
        /// Folded bit marks, unfolded, are the byte marks: on a two-byte
        /// table of values below 512 whose rare heaps (`chi = 0`) all lie
        /// below the chunk's partners, for the splitting digits of Officers
        /// and of 0.376 (two, neighbouring).
        #[test]
        fn folded_marks_unfold_to_the_marks(
            code in prop_oneof![Just("0.6"), Just("0.376")],
            mask in 1u32..512,
            values in proptest::collection::vec(0u32..512, 300),
            first in 100usize..280,
        ) {
            let solver = SparseSolver::new(&code.parse().unwrap()).unwrap();
            let fold = Fold::for_mask(mask).unwrap();
            let (table, rare, rare_values) = common_from_40::<u16>(mask, &values);
            let split = Split { mask, parity: None };
            let rares = Rares { split, rare: &rare, rare_values: &rare_values, bits: 9 };
            let folded: Vec<u8> = table.iter().map(|&c| fold.of(c.into())).collect();
            // The chunk's own heaps may be rare (their splits outside the
            // fold's coset).
            let values: Vec<u32> = (0..table.len())
                .map(|k| if k < first { u32::from(table[k]) } else { values[k] })
                .collect();
            let gathers = (&solver, &rares, &values[..]);
            let table = &table[..first];
            let by_bytes = premarks(None, &solver, first, Partners::table(table, None), &rares);
            gather_every_rare_split(&by_bytes, first, gathers)?;
            for kernel in kernels() {
                let folds = Some((fold, &folded[..first]));
                let by_folds = premarks(Some(kernel), &solver, first, Partners::table(table, folds), &rares);
                prop_assert!(by_folds.folded && by_folds.words == 4);
                // Splits with the chunk's own heaps, for the rare heaps
                // that have them.
                let own = solver.splits.iter().any(|&(t, _)| rare.iter().any(|&r| r + t < HEAPS));
                prop_assert_eq!(by_folds.recent.is_empty(), !own);
                gather_every_rare_split(&by_folds, first, gathers)?;
            }
        }

        /// The same for a one-byte table of values below 256, whose marks
        /// the kernels fold to seven bits as they make them, for the
        /// splitting digits of 0.161 (equal parts forbidden or not), of
        /// 0.376 and of Officers.
        #[test]
        fn marks_folded_as_made_unfold_to_the_marks(
            code in prop_oneof![Just("0.161"), Just("0.376"), Just("0.6"), Just("0.07")],
            mask in 1u32..256,
            values in proptest::collection::vec(0u32..256, 300),
            first in 100usize..280,
        ) {
            let solver = SparseSolver::new(&code.parse().unwrap()).unwrap();
            let (table, rare, rare_values) = common_from_40::<u8>(mask, &values);
            let split = Split { mask, parity: None };
            let rares = Rares { split, rare: &rare, rare_values: &rare_values, bits: 8 };
            // The chunk's own heaps may be rare (see above).
            let values: Vec<u32> = (0..table.len())
                .map(|k| if k < first { u32::from(table[k]) } else { values[k] })
                .collect();
            let gathers = (&solver, &rares, &values[..]);
            let table = &table[..first];
            let by_bytes = premarks(None, &solver, first, Partners::table(table, None), &rares);
            gather_every_rare_split(&by_bytes, first, gathers)?;
            for kernel in kernels() {
                let by_bits = premarks(Some(kernel), &solver, first, Partners::table(table, None), &rares);
                prop_assert!(by_bits.folded && by_bits.words == 2);
                // Splits with the chunk's own heaps, for the rare heaps
                // that have them.
                let own = solver.splits.iter().any(|&(t, _)| rare.iter().any(|&r| r + t < HEAPS));
                prop_assert_eq!(by_bits.recent.is_empty(), !own);
                gather_every_rare_split(&by_bits, first, gathers)?;
            }
        }
    }

    fn pieces(
        from: usize,
        to: usize,
        covered: [std::ops::Range<usize>; 2],
        skip: Option<usize>,
    ) -> Vec<usize> {
        let mut indices = Vec::new();
        uncovered(from, to, &covered, skip, |part| indices.extend(part));
        indices
    }

    #[test]
    fn the_uncovered_indices_are_the_rest_of_the_range() {
        assert_eq!(pieces(0, 10, [2..4, 6..8], None), [0, 1, 4, 5, 8, 9]);
        assert_eq!(pieces(0, 10, [2..4, 6..8], Some(5)), [0, 1, 4, 8, 9]);
        assert_eq!(pieces(3, 7, [2..4, 6..8], Some(3)), [4, 5]);
        assert_eq!(pieces(0, 5, [0..0, 0..0], Some(2)), [0, 1, 3, 4]);
        assert_eq!(pieces(0, 5, [0..5, 5..5], None), Vec::<usize>::new());
        // Four parts: the skip splits the first piece.
        assert_eq!(pieces(0, 10, [3..4, 6..7], Some(1)), [0, 2, 4, 5, 7, 8, 9]);
        let mut parts = Vec::new();
        uncovered(0, 10, &[3..4, 6..7], Some(1), |part| parts.push(part));
        assert_eq!(parts, [0..1, 2..3, 4..6, 7..10]);
    }
}
