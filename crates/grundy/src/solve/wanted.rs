//! The values a sparse scan still has to find among the splits of two
//! common heaps, and the block test that skips the pairs worth none of them.
//!
//! A scan (step 3 of the [sparse method](super::SparseSolver)) knows, before
//! it starts, every value it may still need: the rare values below the
//! least common value `c` missing from what the heap gathered. `g(n)` is the
//! least of them that no pair `(a, rest - a)` of two common heaps is worth,
//! or `c` when the pairs are worth all of them. So the scan does not mark
//! the value of every pair it passes: it tests each block of pairs for a
//! value still wanted and looks at a block pair by pair only when the test
//! says so; as the wanted values are found the set shrinks, most blocks
//! test clean, and the scan ends when the set is empty.
//!
//! For one-byte cells the test runs 32 pairs per AVX2 step: a value `x` is
//! wanted when bit `x >> 4 & 7` of `row[x & 15]` is set, `row` being the
//! table for `x < 128` or for `x >= 128` — two byte shuffles look both up
//! for 32 values at once (the classic nibble-table set test).

/// A set of values below `2^bits`, with the count and the per-nibble tables
/// of its members below 256.
pub(super) struct Wanted {
    /// `flags[v]` is 1 when `v` is wanted.
    flags: Vec<u8>,
    count: usize,
    /// `nibbles[x >> 7][x & 15]` has bit `x >> 4 & 7` set for every member
    /// `x < 256`.
    nibbles: [[u8; 16]; 2],
    /// Whether the CPU runs the AVX2 block test.
    simd: bool,
}

impl Default for Wanted {
    fn default() -> Self {
        Wanted {
            flags: Vec::new(),
            count: 0,
            nibbles: [[0; 16]; 2],
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
        self.nibbles = [[0; 16]; 2];
    }

    /// Adds `v` (below the size given to [`Self::reset`]).
    pub(super) fn insert(&mut self, v: u32) {
        let flag = &mut self.flags[v as usize];
        if *flag == 0 {
            *flag = 1;
            self.count += 1;
            if v < 256 {
                self.nibbles[(v >> 7) as usize][(v & 15) as usize] |= 1 << (v >> 4 & 7);
            }
        }
    }

    /// Removes `v` if it is a member; `true` if it was.
    #[inline(always)]
    pub(super) fn remove(&mut self, v: u32) -> bool {
        match self.flags.get_mut(v as usize) {
            Some(flag) if *flag != 0 => {
                *flag = 0;
                self.count -= 1;
                if v < 256 {
                    self.nibbles[(v >> 7) as usize][(v & 15) as usize] &= !(1 << (v >> 4 & 7));
                }
                true
            }
            _ => false,
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

    /// Whether some pair `(low[i], high[high.len() - 1 - i])` is worth a
    /// member: `low[i] ^ high[high.len() - 1 - i]` in the set. `low` and
    /// `high` have the same length.
    #[inline(always)]
    pub(super) fn any_in_pairs(&self, low: &[u8], high: &[u8]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            // SAFETY: `simd` is set only when the CPU has AVX2.
            #[allow(unsafe_code)]
            return unsafe { self.any_in_pairs_avx2(low, high) };
        }
        self.any_in_pairs_plain(low, high)
    }

    /// [`Self::any_in_pairs`], one pair at a time.
    fn any_in_pairs_plain(&self, low: &[u8], high: &[u8]) -> bool {
        low.iter()
            .zip(high.iter().rev())
            .any(|(&a, &b)| self.contains(u32::from(a ^ b)))
    }

    /// Crosses off every member some pair `(low[i], high[high.len() - 1 -
    /// i])` is worth.
    #[inline(always)]
    pub(super) fn cross_off_pairs(&mut self, low: &[u8], high: &[u8]) {
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            // SAFETY: `simd` is set only when the CPU has AVX2.
            #[allow(unsafe_code)]
            return unsafe { self.cross_off_pairs_avx2(low, high) };
        }
        self.cross_off_plain(
            low.iter()
                .zip(high.iter().rev())
                .map(|(&a, &b)| u32::from(a ^ b)),
        );
    }

    /// Crosses off every member among `values`.
    #[inline(always)]
    pub(super) fn cross_off_plain(&mut self, values: impl Iterator<Item = u32>) {
        for v in values {
            self.remove(v);
        }
    }

    /// [`Self::any_in_pairs`], 32 pairs per step with AVX2; the pairs past
    /// the last whole step one at a time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn any_in_pairs_avx2(&self, low: &[u8], high: &[u8]) -> bool {
        use std::arch::x86_64::{_mm256_or_si256, _mm256_setzero_si256, _mm256_testz_si256};
        let lookup = Lookup::new(&self.nibbles);
        let steps = low.len().min(high.len()) / 32;
        let mut hits = _mm256_setzero_si256();
        for step in 0..steps {
            hits = _mm256_or_si256(hits, lookup.hits(low, high, step));
        }
        _mm256_testz_si256(hits, hits) == 0
            || self.any_in_pairs_plain(&low[32 * steps..], &high[..high.len() - 32 * steps])
    }

    /// [`Self::cross_off_pairs`] with AVX2: the lanes of each step of 32
    /// pairs that hold a member, then those pairs one by one.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn cross_off_pairs_avx2(&mut self, low: &[u8], high: &[u8]) {
        use std::arch::x86_64::{_mm256_cmpeq_epi8, _mm256_movemask_epi8, _mm256_setzero_si256};
        let len = low.len().min(high.len());
        let steps = len / 32;
        let pair = |i: usize| u32::from(low[i] ^ high[high.len() - 1 - i]);
        for step in 0..steps {
            let lookup = Lookup::new(&self.nibbles);
            let hits = lookup.hits(low, high, step);
            let mut lanes =
                !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hits, _mm256_setzero_si256())) as u32);
            while lanes != 0 {
                self.remove(pair(32 * step + lanes.trailing_zeros() as usize));
                lanes &= lanes - 1;
            }
        }
        self.cross_off_plain((32 * steps..len).map(pair));
    }
}

/// The AVX2 form of the nibble tables of a [`Wanted`] set.
#[cfg(target_arch = "x86_64")]
struct Lookup {
    below: std::arch::x86_64::__m256i,
    above: std::arch::x86_64::__m256i,
    nibble: std::arch::x86_64::__m256i,
    bit: std::arch::x86_64::__m256i,
    reverse: std::arch::x86_64::__m256i,
}

#[cfg(target_arch = "x86_64")]
impl Lookup {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(nibbles: &[[u8; 16]; 2]) -> Lookup {
        use std::arch::x86_64::{
            _mm_loadu_si128, _mm256_broadcastsi128_si256, _mm256_set1_epi8, _mm256_setr_epi8,
        };
        let table = |row: &[u8; 16]| {
            // SAFETY: `row` is 16 readable bytes; the load is unaligned.
            #[allow(unsafe_code)]
            _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(row.as_ptr().cast()) })
        };
        Lookup {
            below: table(&nibbles[0]),
            above: table(&nibbles[1]),
            nibble: _mm256_set1_epi8(0x0f),
            bit: _mm256_setr_epi8(
                1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64,
                -128, 1, 2, 4, 8, 16, 32, 64, -128,
            ),
            // Reverses the bytes within each 128-bit lane; the lanes are
            // then swapped by a permute.
            reverse: _mm256_setr_epi8(
                15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
                7, 6, 5, 4, 3, 2, 1, 0,
            ),
        }
    }

    /// For the pairs `32 * step ..` of `low` and their partners at the end
    /// of `high`, a nonzero byte in each lane whose pair is worth a member.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn hits(&self, low: &[u8], high: &[u8], step: usize) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::{
            __m256i, _mm256_and_si256, _mm256_blendv_epi8, _mm256_loadu_si256,
            _mm256_permute4x64_epi64, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_xor_si256,
        };
        let load = |bytes: &[u8]| {
            let bytes: &[u8; 32] = bytes.try_into().expect("32 bytes");
            // SAFETY: `bytes` is 32 readable bytes; the load is unaligned.
            #[allow(unsafe_code)]
            unsafe {
                _mm256_loadu_si256(bytes.as_ptr().cast::<__m256i>())
            }
        };
        let a = load(&low[32 * step..32 * step + 32]);
        let b = load(&high[high.len() - 32 * step - 32..high.len() - 32 * step]);
        let b = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(b, self.reverse), 0b01_00_11_10);
        let x = _mm256_xor_si256(a, b);
        let low_nibble = _mm256_and_si256(x, self.nibble);
        // The row of the table for x < 128 or x >= 128, by x's top bit.
        let rows = _mm256_blendv_epi8(
            _mm256_shuffle_epi8(self.below, low_nibble),
            _mm256_shuffle_epi8(self.above, low_nibble),
            x,
        );
        let high_nibble = _mm256_and_si256(_mm256_srli_epi16(x, 4), self.nibble);
        _mm256_and_si256(rows, _mm256_shuffle_epi8(self.bit, high_nibble))
    }
}

#[cfg(test)]
mod tests {
    use super::Wanted;
    use proptest::prelude::*;

    proptest! {
        /// The vector test agrees with the pair-by-pair one on every set
        /// and every block, tails of fewer than 32 pairs included, and
        /// crossing off leaves exactly the members no pair is worth.
        #[test]
        fn the_block_test_agrees_with_pairs_one_by_one(
            members in proptest::collection::vec(0u32..256, 0..6),
            pairs in proptest::collection::vec((any::<u8>(), any::<u8>()), 0..200),
        ) {
            let mut wanted = Wanted::default();
            wanted.reset(257);
            for &v in &members {
                wanted.insert(v);
            }
            let low: Vec<u8> = pairs.iter().map(|p| p.0).collect();
            let mut high: Vec<u8> = pairs.iter().map(|p| p.1).collect();
            high.reverse();
            let expected = pairs.iter().any(|&(a, b)| members.contains(&u32::from(a ^ b)));
            prop_assert_eq!(wanted.any_in_pairs(&low, &high), expected);
            prop_assert_eq!(wanted.any_in_pairs_plain(&low, &high), expected);
            wanted.cross_off_pairs(&low, &high);
            let left: Vec<u32> = wanted.members(0, 256).collect();
            let mut expected: Vec<u32> = members.iter().copied()
                .filter(|&v| !pairs.iter().any(|&(a, b)| u32::from(a ^ b) == v))
                .collect();
            expected.sort_unstable();
            expected.dedup();
            prop_assert_eq!(left, expected);
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
        assert!(wanted.remove(200));
        assert!(!wanted.remove(200));
        assert!(!wanted.any_in_pairs(&[200], &[0]));
        assert!(wanted.any_in_pairs(&[2], &[1]));
        assert!(wanted.remove(3) && wanted.remove(299) && wanted.is_empty());
        wanted.reset(300);
        assert_eq!(wanted.members(0, 300).count(), 0);
    }
}
