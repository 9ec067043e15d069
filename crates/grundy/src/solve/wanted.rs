//! The values a sparse scan still has to find among the splits of two
//! common heaps, and the block test that skips the pairs worth none of them.
//!
//! A scan (step 3 of the [sparse method](super::SparseSolver)) knows, before
//! it starts, every value it may still need: the rare values below the
//! least common value `c` missing from what the heap gathered. `g(n)` is the
//! least of them that no pair `(a, rest - a)` of two common heaps is worth,
//! or `c` when the pairs are worth all of them. So the scan does not mark
//! the value of every pair it passes: it tests each block of pairs for a
//! value still wanted and looks pair by pair only at the pairs the test
//! finds; as the wanted values are found the set shrinks, most blocks
//! test clean, and the scan ends when the set is empty.
//!
//! With AVX2 the test runs 32 pairs per step, for one- and two-byte table
//! cells. A value `x` is split into its page `x >> 8` and its byte
//! `w = x & 255`; `w` is wanted in a page when bit `w >> 4 & 7` of
//! `row[w & 15]` is set, `row` being the page's table for `w < 128` or for
//! `w >= 128`: two byte shuffles look both up for 32 values at once (the
//! classic nibble-table set test), once per page the values can reach.

/// Pages (of 256 values) the vector test handles; sets of larger values are
/// tested pair by pair.
const PAGES: usize = 4;

/// A set of values below a size, with the count and the nibble tables of
/// its members.
pub(super) struct Wanted {
    /// `flags[v]` is 1 when `v` is wanted.
    flags: Vec<u8>,
    count: usize,
    /// `nibbles[x >> 8][x >> 7 & 1][x & 15]` has bit `x >> 4 & 7` set for
    /// every member `x` below `256 * PAGES`.
    nibbles: [[[u8; 16]; 2]; PAGES],
    /// Pages the values reach: `size / 256` rounded up.
    pages: usize,
    /// Whether the CPU runs the AVX2 block test.
    simd: bool,
}

impl Default for Wanted {
    fn default() -> Self {
        Wanted {
            flags: Vec::new(),
            count: 0,
            nibbles: [[[0; 16]; 2]; PAGES],
            pages: 0,
            simd: has_avx2(),
        }
    }
}

fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl Wanted {
    /// Empties the set and sizes it for values below `size`.
    pub(super) fn reset(&mut self, size: usize) {
        if self.count > 0 {
            self.flags.fill(0);
        }
        if self.flags.len() < size {
            self.flags.resize(size, 0);
        }
        self.count = 0;
        self.nibbles = [[[0; 16]; 2]; PAGES];
        self.pages = size.div_ceil(256);
    }

    /// The table bit of `v`, if `v` has one.
    #[inline(always)]
    fn nibble(&mut self, v: u32) -> Option<(&mut u8, u8)> {
        let page = self.nibbles.get_mut((v >> 8) as usize)?;
        Some((
            &mut page[(v >> 7 & 1) as usize][(v & 15) as usize],
            1 << (v >> 4 & 7),
        ))
    }

    /// Adds `v` (below the size given to [`Self::reset`]).
    pub(super) fn insert(&mut self, v: u32) {
        let flag = &mut self.flags[v as usize];
        if *flag == 0 {
            *flag = 1;
            self.count += 1;
            if let Some((row, bit)) = self.nibble(v) {
                *row |= bit;
            }
        }
    }

    /// Removes `v` if it is a member.
    #[inline(always)]
    pub(super) fn remove(&mut self, v: u32) {
        if let Some(flag) = self.flags.get_mut(v as usize).filter(|f| **f != 0) {
            *flag = 0;
            self.count -= 1;
            if let Some((row, bit)) = self.nibble(v) {
                *row &= !bit;
            }
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether `v` is a member.
    #[inline(always)]
    pub(super) fn contains(&self, v: u32) -> bool {
        self.flags.get(v as usize).is_some_and(|&f| f != 0)
    }

    /// The members in increasing order, from `from` up to (not including)
    /// `to`.
    pub(super) fn members(&self, from: u32, to: u32) -> impl Iterator<Item = u32> + '_ {
        (from..to).filter(|&v| self.contains(v))
    }

    /// Whether the vector test applies to this set.
    #[inline(always)]
    fn vectorised(&self) -> bool {
        self.simd && self.pages <= PAGES
    }

    /// Crosses off every member some pair `(low[i], high[high.len() - 1 -
    /// i])` is worth, stopping when none is left.
    #[inline(always)]
    pub(super) fn cross_off_pairs<T: Lane>(&mut self, low: &[T], high: &[T]) {
        #[cfg(target_arch = "x86_64")]
        if self.vectorised() {
            // SAFETY: `simd` is set only when the CPU has AVX2.
            #[allow(unsafe_code)]
            return unsafe { self.cross_off_pairs_avx2(low, high) };
        }
        self.cross_off_plain(pair_values(low, high))
    }

    /// Crosses off every member among `values`, stopping when none is
    /// left.
    #[inline(always)]
    pub(super) fn cross_off_plain(&mut self, values: impl Iterator<Item = u32>) {
        for v in values {
            if self.is_empty() {
                return;
            }
            self.remove(v);
        }
    }

    /// [`Self::cross_off_pairs`] with AVX2: the lanes of each step of 32
    /// pairs that hold a member, then those pairs one by one.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn cross_off_pairs_avx2<T: Lane>(&mut self, low: &[T], high: &[T]) {
        use std::arch::x86_64::{_mm256_cmpeq_epi8, _mm256_movemask_epi8, _mm256_setzero_si256};
        let len = low.len().min(high.len());
        let steps = len / 32;
        let pair = |i: usize| (low[i] ^ high[high.len() - 1 - i]).into();
        let mut lookup = Lookup::new(self);
        for step in 0..steps {
            let hits = lookup.hits(low, high, step);
            let mut lanes =
                !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hits, _mm256_setzero_si256())) as u32);
            if lanes != 0 {
                while lanes != 0 {
                    self.remove(pair(32 * step + lanes.trailing_zeros() as usize));
                    lanes &= lanes - 1;
                }
                if self.is_empty() {
                    return;
                }
                lookup = Lookup::new(self);
            }
        }
        self.cross_off_plain((32 * steps..len).map(pair));
    }
}

/// The values `low[i] ^ high[high.len() - 1 - i]` of the pairs of a block.
fn pair_values<'a, T: Lane>(low: &'a [T], high: &'a [T]) -> impl Iterator<Item = u32> + 'a {
    low.iter()
        .zip(high.iter().rev())
        .map(|(&a, &b)| (a ^ b).into())
}

/// A table cell the vector test reads: one byte or two.
pub(super) trait Lane: Copy + std::ops::BitXor<Output = Self> + Into<u32> {
    /// The values of the 32 pairs `(low[32 * step + i], high[high.len() -
    /// 1 - 32 * step - i])`, as their bytes and their pages, lane `i` for
    /// pair `i`.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    unsafe fn step(low: &[Self], high: &[Self], step: usize) -> Step;
}

/// 32 pair values, split for the nibble tables.
#[cfg(target_arch = "x86_64")]
pub(super) struct Step {
    bytes: std::arch::x86_64::__m256i,
    /// `None` for one-byte cells, whose values all lie in page 0.
    pages: Option<std::arch::x86_64::__m256i>,
}

/// 32 bytes of a slice, from `at`, as a vector.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
fn load<T>(values: &[T], at: usize) -> std::arch::x86_64::__m256i {
    let bytes = &values[at..at + 32 / size_of::<T>()];
    // SAFETY: `bytes` is 32 readable bytes; the load is unaligned.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm256_loadu_si256(bytes.as_ptr().cast())
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
impl Lane for u8 {
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn step(low: &[u8], high: &[u8], step: usize) -> Step {
        use std::arch::x86_64::{
            _mm256_permute4x64_epi64, _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_xor_si256,
        };
        // Reverses the bytes within each 128-bit lane; the lanes are then
        // swapped by a permute.
        let reverse = _mm256_setr_epi8(
            15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7,
            6, 5, 4, 3, 2, 1, 0,
        );
        let b = load(high, high.len() - 32 * step - 32);
        let b = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(b, reverse), 0b01_00_11_10);
        Step {
            bytes: _mm256_xor_si256(load(low, 32 * step), b),
            pages: None,
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl Lane for u8 {}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
impl Lane for u16 {
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn step(low: &[u16], high: &[u16], step: usize) -> Step {
        use std::arch::x86_64::{
            _mm256_and_si256, _mm256_packus_epi16, _mm256_permute4x64_epi64, _mm256_set1_epi16,
            _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_xor_si256,
        };
        // Reverses the 16-bit words within each 128-bit lane; the lanes
        // are then swapped by a permute.
        let reverse = _mm256_setr_epi8(
            14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6,
            7, 4, 5, 2, 3, 0, 1,
        );
        let half = |i: usize| {
            let b = load(high, high.len() - 32 * step - 16 * i - 16);
            let b = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(b, reverse), 0b01_00_11_10);
            _mm256_xor_si256(load(low, 32 * step + 16 * i), b)
        };
        let (first, second) = (half(0), half(1));
        // Packing interleaves the 128-bit lanes of its inputs; the permute
        // puts the 32 values back in order.
        let pack = |a, b| _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0b11_01_10_00);
        let byte = _mm256_set1_epi16(0xff);
        Step {
            bytes: pack(
                _mm256_and_si256(first, byte),
                _mm256_and_si256(second, byte),
            ),
            pages: Some(pack(
                _mm256_srli_epi16(first, 8),
                _mm256_srli_epi16(second, 8),
            )),
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl Lane for u16 {}

/// The AVX2 form of the nibble tables of a [`Wanted`] set.
#[cfg(target_arch = "x86_64")]
struct Lookup {
    /// Per page, the rows for bytes below 128 and from 128 on.
    rows: [(std::arch::x86_64::__m256i, std::arch::x86_64::__m256i); PAGES],
    pages: usize,
}

#[cfg(target_arch = "x86_64")]
impl Lookup {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(wanted: &Wanted) -> Lookup {
        use std::arch::x86_64::{_mm_loadu_si128, _mm256_broadcastsi128_si256};
        let table = |row: &[u8; 16]| {
            // SAFETY: `row` is 16 readable bytes; the load is unaligned.
            #[allow(unsafe_code)]
            _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(row.as_ptr().cast()) })
        };
        Lookup {
            rows: wanted
                .nibbles
                .each_ref()
                .map(|[below, above]| (table(below), table(above))),
            pages: wanted.pages,
        }
    }

    /// For the 32 pairs of a step, a nonzero byte in each lane whose pair
    /// is worth a member.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn hits<T: Lane>(&self, low: &[T], high: &[T], step: usize) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::{
            _mm256_and_si256, _mm256_blendv_epi8, _mm256_cmpeq_epi8, _mm256_or_si256,
            _mm256_set1_epi8, _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
            _mm256_srli_epi16,
        };
        // SAFETY: the caller has AVX2, as this function does.
        #[allow(unsafe_code)]
        let Step { bytes, pages } = unsafe { T::step(low, high, step) };
        let nibble = _mm256_set1_epi8(0x0f);
        let bit = _mm256_setr_epi8(
            1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64,
            -128, 1, 2, 4, 8, 16, 32, 64, -128,
        );
        let low_nibble = _mm256_and_si256(bytes, nibble);
        let bits = _mm256_shuffle_epi8(bit, _mm256_and_si256(_mm256_srli_epi16(bytes, 4), nibble));
        // The row of a page's table for bytes below 128 or from 128 on, by
        // the byte's top bit.
        let in_page = |(below, above)| {
            let rows = _mm256_blendv_epi8(
                _mm256_shuffle_epi8(below, low_nibble),
                _mm256_shuffle_epi8(above, low_nibble),
                bytes,
            );
            _mm256_and_si256(rows, bits)
        };
        match pages {
            None => in_page(self.rows[0]),
            Some(pages) => {
                let mut hits = _mm256_setzero_si256();
                for (page, &rows) in self.rows[..self.pages].iter().enumerate() {
                    let here = _mm256_cmpeq_epi8(pages, _mm256_set1_epi8(page as i8));
                    hits = _mm256_or_si256(hits, _mm256_and_si256(in_page(rows), here));
                }
                hits
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Lane, Wanted};
    use proptest::prelude::*;

    /// Checks the crossing off against the definition.
    fn agrees<T: Lane + std::fmt::Debug>(
        size: usize,
        members: &[u32],
        pairs: &[(T, T)],
    ) -> std::result::Result<(), TestCaseError> {
        let mut wanted = Wanted::default();
        wanted.reset(size);
        for &v in members {
            wanted.insert(v);
        }
        let low: Vec<T> = pairs.iter().map(|p| p.0).collect();
        let mut high: Vec<T> = pairs.iter().map(|p| p.1).collect();
        high.reverse();
        let worth = |v: u32| pairs.iter().any(|&(a, b)| (a ^ b).into() == v);
        wanted.cross_off_pairs(&low, &high);
        let mut left: Vec<u32> = members.iter().copied().filter(|&v| !worth(v)).collect();
        left.sort_unstable();
        left.dedup();
        prop_assert_eq!(wanted.members(0, size as u32).collect::<Vec<_>>(), left);
        Ok(())
    }

    proptest! {
        /// Crossing off leaves exactly the members no pair is worth, for
        /// every set and every block, tails of fewer than 32 pairs
        /// included.
        #[test]
        fn one_byte_cells_agree_with_pairs_one_by_one(
            members in proptest::collection::vec(0u32..256, 0..6),
            pairs in proptest::collection::vec((any::<u8>(), any::<u8>()), 0..200),
        ) {
            agrees(257, &members, &pairs)?;
        }

        /// The same for two-byte cells, over one to five pages (the last
        /// past what the vector test handles).
        #[test]
        fn two_byte_cells_agree_with_pairs_one_by_one(
            pages in 1u32..=5,
            members in proptest::collection::vec(0u32..1280, 0..6),
            pairs in proptest::collection::vec((0u16..1280, 0u16..1280), 0..200),
        ) {
            let top = 256 * pages;
            let members: Vec<u32> = members.into_iter().map(|v| v % top).collect();
            let pairs: Vec<(u16, u16)> = pairs
                .into_iter()
                .map(|(a, b)| (a % top as u16, b % top as u16))
                .collect();
            agrees(top as usize + 1, &members, &pairs)?;
        }
    }

    #[test]
    fn members_come_and_go() {
        let mut wanted = Wanted::default();
        wanted.reset(300);
        for v in [3, 200, 299, 3] {
            wanted.insert(v);
        }
        assert_eq!(wanted.members(0, 300).collect::<Vec<_>>(), [3, 200, 299]);
        wanted.remove(200);
        wanted.remove(200);
        // The pairs (200, 0) and (2, 1).
        wanted.cross_off_pairs(&[200u8, 2], &[1, 0]);
        assert_eq!(wanted.members(0, 300).collect::<Vec<_>>(), [299]);
        wanted.cross_off_pairs(&[298u16], &[1]);
        assert!(wanted.is_empty());
        wanted.reset(300);
        assert_eq!(wanted.members(0, 300).count(), 0);
    }
}
