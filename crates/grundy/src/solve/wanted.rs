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
//!
//! Two-byte cells whose values are all below 512 are tested as one byte
//! through a [`Fold`]: the pairs of two common heaps are all worth values
//! of one coset of the rare hyperplane, on which a fold to a byte is
//! one-to-one, so the scan reads a table of folded bytes (half the memory,
//! one page) and checks each hit against the two-byte values.
//!
//! One-byte cells and a set of at most 64 members can instead be tested
//! the other way round, when the scan's plan says so (the `probe` module
//! learns it per run): the members are listed in vectors and every step's
//! 32 pairs are compared with all of them at once, without a branch per
//! hit ([`Wanted::cross_off_listed_avx2`]). It pays on games whose scans
//! find most members in their first steps (0.161, 0.167) and costs time on
//! others (0.376, Grundy's game), hence learned rather than always on (see
//! docs/engine-history.md, "The listed test of small wanted sets").
//!
//! With AVX-512 one-byte cells are tested 64 pairs per step against a bit
//! set of 256 keys, and, for sets of fewer than 64 members on CPUs with
//! VBMI2, without looking at hits one by one: each member is named by its
//! rank, and a step's pairs turn into the word of the ranks they hit
//! ([`Wanted::cross_off_ranked`]).

use crate::bitset::xor_bits;
use crate::fold::Fold;

/// Pages (of 256 values) the vector test handles; sets of larger values are
/// tested pair by pair.
const PAGES: usize = 4;

/// The most members the listed test ([`Wanted::cross_off_listed_avx2`])
/// holds in registers: four vectors of 16 bytes.
const LISTED: usize = 64;

/// The steps of a scan that run the listed test, at most: past them hits
/// are rare, and the nibble test, cheaper per step, takes over. (At 24
/// steps 0.161 keeps the listed test's whole gain and Grundy's game loses
/// nothing; see docs/engine-history.md, "The listed test of small wanted
/// sets".)
const LISTED_STEPS: usize = 24;

/// The ranked test ([`Wanted::cross_off_ranked`]) runs on sets of fewer
/// members than this: their ranks and the rank of every other byte (63)
/// are the bits of one 64-bit word.
#[cfg(target_arch = "x86_64")]
const RANKED: usize = 64;

/// 64 bytes as a vector.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn vector(bytes: &[u8; 64]) -> std::arch::x86_64::__m512i {
    // SAFETY: 64 readable bytes; the load is unaligned.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm512_loadu_si512(bytes.as_ptr().cast())
    }
}

/// The rank the ranked test gives a byte that is no member's key: the last
/// bit of a 32-bit lane (`narrow`, fewer than 32 members) or of a 64-bit
/// one.
#[cfg(target_arch = "x86_64")]
const fn unranked(narrow: bool) -> i8 {
    if narrow { 31 } else { 63 }
}

/// The lanes `0..k` of a vector of 64 (all of them from `k = 64` on): a
/// block's last, partial step.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn first_lanes(k: usize) -> u64 {
    match k {
        64.. => u64::MAX,
        k => (1 << k) - 1,
    }
}

/// Byte `i` is `63 - i`: the permute that reverses 64 bytes.
#[cfg(target_arch = "x86_64")]
const REVERSE: [u8; 64] = {
    let mut bytes = [0; 64];
    let mut i = 0;
    while i < 64 {
        bytes[i] = 63 - i as u8;
        i += 1;
    }
    bytes
};

/// Byte `i` is `i`.
#[cfg(target_arch = "x86_64")]
const IOTA: [u8; 64] = {
    let mut bytes = [0; 64];
    let mut i = 0;
    while i < 64 {
        bytes[i] = i as u8;
        i += 1;
    }
    bytes
};

/// Bytes `1 << i` for `i < 8`, then 0.
#[cfg(target_arch = "x86_64")]
const BYTE_BITS: [u8; 64] = {
    let mut bytes = [0; 64];
    let mut i = 0;
    while i < 8 {
        bytes[i] = 1 << i;
        i += 1;
    }
    bytes
};

/// `SPREAD[k]` moves bytes `8 k..8 k + 8` of a vector into the 64-bit
/// lanes, byte `8 k + i` to every byte of lane `i` (a byte permute): the
/// rotates that read the lane use its low six bits only.
#[cfg(target_arch = "x86_64")]
const SPREAD: [[u8; 64]; 8] = spread(8);

/// `SPREAD32[k]` moves bytes `16 k..16 k + 16` into the 32-bit lanes, as
/// [`SPREAD`] does (the rotates read the low five bits).
#[cfg(target_arch = "x86_64")]
const SPREAD32: [[u8; 64]; 4] = {
    let wide = spread(16);
    [wide[0], wide[1], wide[2], wide[3]]
};

/// Permutes that move run `k` of `64 / lanes` bytes into the `lanes` lanes
/// of a vector, byte `k * lanes + i` to every byte of lane `i`, for `k`
/// below 8.
#[cfg(target_arch = "x86_64")]
const fn spread(lanes: usize) -> [[u8; 64]; 8] {
    let mut spread = [[0; 64]; 8];
    let mut k = 0;
    while k < 64 / lanes && k < 8 {
        let mut byte = 0;
        while byte < 64 {
            spread[k][byte] = (k * lanes + byte / (64 / lanes)) as u8;
            byte += 1;
        }
        k += 1;
    }
    spread
}

/// Bit `i` set when `(i & mask)` has an odd number of bits, `i < 64`: the
/// XOR of the words whose bit `i` is bit `b` of `i`, for each bit `b` of
/// the mask below 64 (parity is linear): six XORs at most, where counting
/// the bits of each `i` cost a fill a fifth of its time on 0.161 (see
/// docs/engine-history.md, "The scan without a branch per hit").
#[cfg(any(target_arch = "x86_64", test))]
fn low_parities(mask: u32) -> u64 {
    const BIT_OF_INDEX: [u64; 6] = [
        0xaaaa_aaaa_aaaa_aaaa,
        0xcccc_cccc_cccc_cccc,
        0xf0f0_f0f0_f0f0_f0f0,
        0xff00_ff00_ff00_ff00,
        0xffff_0000_ffff_0000,
        0xffff_ffff_0000_0000,
    ];
    (0..6)
        .filter(|b| mask >> b & 1 != 0)
        .fold(0, |word, b| word ^ BIT_OF_INDEX[b])
}

/// One run of lanes of [`Wanted::fill`], lane `i` for value `base + i`:
/// given the unmarked lanes, `low_odd` (bit `i` is `chi(i)`), whether lane
/// `i` is in the wanted coset when `chi(i) = 0` (`chi(base) = odd`), and
/// `end - base` (the end's lane, if below the run's `width` of 32 or 64
/// lanes), returns the members — the
/// unmarked lanes of the coset before the first unmarked lane outside it
/// or the end — and the lane that stops the fill, if the run has one.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn run_members(
    (unmarked, width): (u64, usize),
    low_odd: u64,
    even_in: bool,
    end_lane: usize,
) -> (u64, Option<u32>) {
    let coset = if even_in { !low_odd } else { low_odd };
    let last = if end_lane < width { 1 << end_lane } else { 0 };
    let stops = unmarked & !coset | last;
    let mut members = unmarked & coset & !last;
    if stops != 0 {
        members &= (1 << stops.trailing_zeros()) - 1;
    }
    (members, (stops != 0).then(|| stops.trailing_zeros()))
}

/// A set of values below a size, with the count and the table of its
/// members' keys that its block test reads.
pub(super) struct Wanted {
    /// `flags[v]` is 1 when `v` is wanted.
    flags: Vec<u8>,
    count: usize,
    /// The size given to [`Self::reset`].
    size: usize,
    /// The block test that runs, chosen by [`Self::reset`]; only its table
    /// is kept.
    test: Test,
    /// [`Test::Nibbles`]' table: `nibbles[x >> 8][x >> 7 & 1][x & 15]` has
    /// bit `x >> 4 & 7` set for every member's key `x`.
    nibbles: [[[u8; 16]; 2]; PAGES],
    /// Pages the keys reach: `size / 256` rounded up, 1 when folded.
    pages: usize,
    /// [`Test::Bits`]' table: the members' keys, all below 256, as a bit
    /// set; the last four words stay 0, so it loads as one 64-byte vector.
    bits: [u64; 8],
    /// Whether the CPU runs the AVX2 block test.
    simd: bool,
    /// Whether the AVX2 test of one-byte cells may list sets of up to
    /// [`LISTED`] members ([`Self::cross_off_listed_avx2`]), and whether
    /// it does (as the scan's plan says: see the `probe` module).
    lists: bool,
    listing: bool,
    /// Whether the CPU runs the AVX-512 block test (AVX-512 F, BW and
    /// VBMI).
    wide: bool,
    /// Whether the AVX-512 test of one-byte cells may run ranked
    /// ([`Self::cross_off_ranked`]: the CPU has VBMI2 and BMI2 too).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    ranked: bool,
    /// The fold the keys are folded bytes of, if any.
    fold: Option<Fold>,
    /// The members in `list[..len]`, when `listed` is `Some(len)`: kept
    /// while there are at most [`LISTED`], all below 256, for the listed
    /// test; `None` when the list is out of date (made again from the
    /// flags when the test wants it).
    list: [u8; LISTED],
    listed: Option<u8>,
    /// Whether the nibble tables may still hold members the listed test
    /// crossed off: it leaves the tables as they were (clearing them cost
    /// a twentieth of its time), and [`Self::cross_off_avx2`] makes them
    /// again before it reads them.
    stale_nibbles: bool,
    /// The steps the listed test ran since the set was emptied.
    steps_listed: usize,
}

/// The block test a set runs, by the CPU and the members' keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Test {
    /// Pair by pair.
    Plain,
    /// AVX2, 32 pairs per step, nibble tables: keys below `256 * PAGES`.
    Nibbles,
    /// AVX-512, 64 pairs per step, one bit set: keys below 256 (one-byte
    /// cells, or folded bytes), read from one-byte test cells.
    Bits,
}

impl Default for Wanted {
    fn default() -> Self {
        Wanted {
            flags: Vec::new(),
            count: 0,
            size: 0,
            test: Test::Plain,
            nibbles: [[[0; 16]; 2]; PAGES],
            pages: 0,
            bits: [0; 8],
            simd: has_avx2(),
            lists: can_list(),
            listing: false,
            wide: has_avx512_vbmi(),
            ranked: has_avx512_vbmi() && has_vbmi2_bmi2(),
            fold: None,
            list: [0; LISTED],
            listed: Some(0),
            stale_nibbles: false,
            steps_listed: 0,
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

/// Whether the CPU runs the listed test ([`Wanted::cross_off_listed_avx2`]):
/// it has AVX2, and not the AVX-512 test that one-byte cells run instead.
pub(super) fn can_list() -> bool {
    has_avx2() && !has_avx512_vbmi()
}

/// Whether the CPU has AVX-512 VBMI2 and BMI2, which the ranked test
/// ([`Wanted::cross_off_ranked`]) needs beside [`has_avx512_vbmi`].
fn has_vbmi2_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        has!("avx512vbmi2") && has!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the CPU has AVX-512 F, BW and VBMI: the 64-lane tests of a set
/// of byte keys ([`keys_in_set`]).
pub(super) fn has_avx512_vbmi() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        has!("avx512f") && has!("avx512bw") && has!("avx512vbmi")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl Wanted {
    /// An empty set whose block tests are only those given, for tests
    /// that run each: `simd` for AVX2, `wide` for AVX-512, `lists` for
    /// the AVX2 listed test of one-byte cells, `ranked` for AVX-512's
    /// ranked test of one-byte cells (each only if the CPU has it).
    #[cfg(test)]
    fn with_tests((simd, wide, lists, ranked): (bool, bool, bool, bool)) -> Wanted {
        let all = Wanted::default();
        Wanted {
            simd: simd && all.simd,
            ranked: ranked && all.ranked,
            // The listed test runs wherever AVX2 does once AVX-512 is
            // left out.
            lists: lists && has_avx2(),
            listing: lists && has_avx2(),
            wide: wide && all.wide,
            ..all
        }
    }

    /// Empties the set and sizes it for values below `size`; with `fold`,
    /// the keys are folded bytes (see [`Fold`]), for values below 512 —
    /// while the members all have the same `chi` under the fold's split; a
    /// member whose folded byte another's has drops the fold.
    pub(super) fn reset(&mut self, size: usize, fold: Option<Fold>) {
        if self.count > 0 {
            self.flags.fill(0);
        }
        // Room for [`Self::fill_avx2`]'s last store of 32 flags.
        if self.flags.len() < size.next_multiple_of(32) {
            self.flags.resize(size.next_multiple_of(32), 0);
        }
        self.count = 0;
        self.size = size;
        debug_assert!(
            fold.is_none_or(|f| f.domain() == 512),
            "the scan folds to bytes"
        );
        self.fold = fold.filter(|_| size <= 513);
        // A set the listed test does not run on is not listed.
        self.listed = self.listing.then_some(0);
        self.steps_listed = 0;
        self.choose_test();
    }

    /// Chooses the block test for the size and the fold, with an empty
    /// table.
    fn choose_test(&mut self) {
        self.pages = match self.fold {
            Some(_) => 1,
            None => self.size.div_ceil(256),
        };
        // Every key is below 256 when folded; unfolded, below 257, and no
        // pair of one-byte cells is worth 256.
        self.test = if self.wide && (self.fold.is_some() || self.size <= 257) {
            self.bits = [0; 8];
            Test::Bits
        } else if self.simd && self.pages <= PAGES {
            self.nibbles = [[[0; 16]; 2]; PAGES];
            self.stale_nibbles = false;
            Test::Nibbles
        } else {
            Test::Plain
        };
    }

    /// The key of `v` in the block tests' tables: its folded byte when the
    /// set folds, else `v`.
    #[inline(always)]
    fn key(&self, v: u32) -> u32 {
        self.fold.map_or(v, |fold| u32::from(fold.of(v)))
    }

    /// Sets `key` in the table of the test.
    #[inline(always)]
    fn set_key(&mut self, key: u32) {
        match self.test {
            Test::Plain => {}
            Test::Nibbles => {
                self.nibbles[(key >> 8) as usize][(key >> 7 & 1) as usize][(key & 15) as usize] |=
                    1 << (key >> 4 & 7)
            }
            Test::Bits => self.bits[(key >> 6) as usize] |= 1 << (key & 63),
        }
    }

    /// Clears `key` from the nibble tables if `member` is 1 (nothing if
    /// 0): without a branch, for the AVX2 block test's hits.
    #[inline(always)]
    fn clear_nibble(&mut self, key: u32, member: u8) {
        // Every member's key lies in the nibble tables' `PAGES` pages; the
        // mask only spares a bounds check.
        let row = &mut self.nibbles[(key >> 8) as usize & (PAGES - 1)][(key >> 7 & 1) as usize]
            [(key & 15) as usize];
        *row &= !(member << (key >> 4 & 7));
    }

    /// Adds `v` (below the size given to [`Self::reset`]).
    #[inline(always)]
    pub(super) fn insert(&mut self, v: u32) {
        if self.contains(v) {
            return;
        }
        if let Some(fold) = self.fold
            && self.contains(fold.twin(v))
        {
            // Two members fold to one byte: they differ in `chi` (the
            // sparse scan's never do). Test unfolded.
            self.flags[v as usize] = 1;
            self.count += 1;
            self.list_new(v);
            self.unfold();
            return;
        }
        self.flags[v as usize] = 1;
        self.count += 1;
        self.set_key(self.key(v));
        self.list_new(v);
    }

    /// Adds the new member `v` to the list, or marks the list out of date
    /// when it cannot hold `v`.
    #[inline(always)]
    fn list_new(&mut self, v: u32) {
        self.list_run(v & !31, 1 << (v & 31));
    }

    /// Adds the new members `base + i` of `new` (bits `i`, `base` a
    /// multiple of 32) to the list, or marks the list out of date when it
    /// cannot hold them.
    #[inline(always)]
    fn list_run(&mut self, base: u32, mut new: u32) {
        let Some(len) = self.listed else { return };
        let mut len = usize::from(len);
        if base >= 256 || len + new.count_ones() as usize > LISTED {
            self.listed = None;
            return;
        }
        while new != 0 {
            self.list[len] = (base + new.trailing_zeros()) as u8;
            len += 1;
            new &= new - 1;
        }
        self.listed = Some(len as u8);
    }

    /// Runs the listed test, if the CPU has it, or not.
    pub(super) fn set_listing(&mut self, on: bool) {
        self.listing = on && self.lists;
    }

    /// Whether the members are listed (at most [`LISTED`], all below 256),
    /// listing them from the flags if the list is out of date.
    fn relist(&mut self) -> bool {
        if self.listed.is_some() {
            return true;
        }
        if self.count > LISTED {
            return false;
        }
        let mut len = 0;
        for (v, &flag) in self.flags[..self.size.min(256)].iter().enumerate() {
            if flag != 0 && len < LISTED {
                self.list[len] = v as u8;
                len += 1;
            }
        }
        // Members from 256 on are not listed: then the list is not used.
        let whole = len == self.count;
        self.listed = whole.then_some(len as u8);
        whole
    }

    /// Adds every value `v` from `from` on that `seen` leaves unmarked and
    /// that lies in the coset `chi(v) = odd` of `mask`'s character, up to
    /// the first unmarked value that does not, or `seen.len() - 1`, which
    /// it returns: the values a sparse scan wants and where they end (its
    /// `c`). `seen` holds one byte per value, 0 for unmarked.
    ///
    /// The set must be empty. With AVX-512 the members come 64 values at a
    /// time.
    #[inline(always)]
    pub(super) fn fill(&mut self, seen: &[u8], from: u32, mask: u32, odd: bool) -> u32 {
        debug_assert!(self.is_empty(), "fill starts from an empty set");
        let end = seen.len() - 1;
        #[cfg(target_arch = "x86_64")]
        if self.test == Test::Bits && seen.len() <= self.flags.len() && end <= 512 {
            // SAFETY: `Test::Bits` is chosen only when the CPU has AVX-512 F,
            // BW and VBMI.
            #[allow(unsafe_code)]
            return unsafe { self.fill_avx512(seen, from, mask, odd) };
        }
        #[cfg(target_arch = "x86_64")]
        if self.test == Test::Nibbles && seen.len() <= self.size {
            // SAFETY: `Test::Nibbles` is chosen only when the CPU has AVX2.
            #[allow(unsafe_code)]
            return unsafe { self.fill_avx2(seen, from, mask, odd) };
        }
        let chi = |v: u32| (v & mask).count_ones() % 2 == 1;
        let mut v = from;
        while (v as usize) < end {
            if seen[v as usize] == 0 {
                if chi(v) != odd {
                    return v;
                }
                self.insert(v);
            }
            v += 1;
        }
        v
    }

    /// [`Self::fill`] with AVX-512, values below 513.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt,bmi1")]
    fn fill_avx512(&mut self, seen: &[u8], from: u32, mask: u32, odd: bool) -> u32 {
        use std::arch::x86_64::{
            _mm512_cmpeq_epi8_mask, _mm512_mask_storeu_epi8, _mm512_maskz_loadu_epi8,
            _mm512_set1_epi8, _mm512_setzero_si512,
        };
        let end = seen.len() - 1;
        assert!(end <= 512 && seen.len() <= self.flags.len() && from as usize <= end);
        // `chi` is linear: `chi(64 k + i) = chi(64 k) ^ chi(i)`, and bit `i`
        // of `low_odd` is `chi(i)`, `i < 64`.
        let chi = |v: u32| (v & mask).count_ones() % 2 == 1;
        let low_odd = low_parities(mask);
        let mut chunk = from as usize / 64;
        loop {
            let base = 64 * chunk;
            let lanes = first_lanes(seen.len() - base);
            // SAFETY: the masked load reads `seen[base..base + k]`, `k` the
            // lanes selected, all in `seen`.
            #[allow(unsafe_code)]
            let cells = unsafe { _mm512_maskz_loadu_epi8(lanes, seen.as_ptr().add(base).cast()) };
            let after = u64::MAX << (from as usize).saturating_sub(base).min(63);
            let unmarked = _mm512_cmpeq_epi8_mask(cells, _mm512_setzero_si512()) & lanes & after;
            let (members, stop) =
                run_members((unmarked, 64), low_odd, chi(base as u32) == odd, end - base);
            // SAFETY: the masked store writes `flags[base + i]` for the
            // members `base + i < seen.len() <= flags.len()` (asserted).
            #[allow(unsafe_code)]
            unsafe {
                _mm512_mask_storeu_epi8(
                    self.flags.as_mut_ptr().add(base).cast(),
                    members,
                    _mm512_set1_epi8(1),
                )
            };
            self.add_keys(base as u32, members);
            if let Some(stop) = stop {
                return base as u32 + stop;
            }
            chunk += 1;
        }
    }

    /// [`Self::fill`] with AVX2, 32 values at a time: the members of each
    /// run of 32 come as a bit mask, their flags are stored as one vector,
    /// and their keys are set in the nibble tables 16 rows at a time (a
    /// run of 32 keys from a multiple of 32 fills bits `k` and `k + 1` of
    /// one table's 16 rows, `k = key >> 4 & 7`). In a scan's fill, which
    /// lists some 60 values per heap, the value-by-value inserts cost a
    /// sixth of 0.161's and Officers' runs.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    fn fill_avx2(&mut self, seen: &[u8], from: u32, mask: u32, odd: bool) -> u32 {
        use std::arch::x86_64::{
            __m256i, _mm_and_si128, _mm_loadu_si128, _mm_or_si128, _mm_set1_epi8, _mm_storeu_si128,
            _mm256_and_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi8, _mm256_extracti128_si256,
            _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8, _mm256_set1_epi32,
            _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_storeu_si256,
        };
        let end = seen.len() - 1;
        assert!(seen.len() <= self.size && (from as usize) <= end);
        // `chi` is linear: `chi(32 k + i) = chi(32 k) ^ chi(i)`, and bit `i`
        // of `low_odd` is `chi(i)`, `i < 32`.
        let chi = |v: u32| (v & mask).count_ones() % 2 == 1;
        let low_odd = low_parities(mask) as u32;
        // Byte `j` of a bit mask's expansion is 0xff when bit `j` is set.
        let expand = |bits: u32| -> __m256i {
            let select = _mm256_setr_epi8(
                1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64,
                -128, 1, 2, 4, 8, 16, 32, 64, -128,
            );
            let spread = _mm256_setr_epi8(
                0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3,
                3, 3, 3, 3,
            );
            let bytes = _mm256_shuffle_epi8(_mm256_set1_epi32(bits as i32), spread);
            _mm256_cmpeq_epi8(_mm256_and_si256(bytes, select), select)
        };
        let mut base = from as usize & !31;
        loop {
            // The run's bytes, the ones past `seen` as marked.
            let cells = if base + 32 <= seen.len() {
                // SAFETY: `seen[base..base + 32]` is in bounds.
                #[allow(unsafe_code)]
                unsafe {
                    _mm256_loadu_si256(seen.as_ptr().add(base).cast())
                }
            } else {
                let mut tail = [1u8; 32];
                tail[..seen.len() - base].copy_from_slice(&seen[base..]);
                // SAFETY: `tail` is 32 bytes.
                #[allow(unsafe_code)]
                unsafe {
                    _mm256_loadu_si256(tail.as_ptr().cast())
                }
            };
            let after = u32::MAX << (from as usize).saturating_sub(base);
            let unmarked = _mm256_movemask_epi8(_mm256_cmpeq_epi8(cells, _mm256_setzero_si256()))
                as u32
                & after;
            let (members, stop) = run_members(
                (u64::from(unmarked), 32),
                u64::from(low_odd),
                chi(base as u32) == odd,
                end - base,
            );
            let members = members as u32;
            if members != 0 {
                let lanes = expand(members);
                let flags = &mut self.flags[base..base + 32];
                // SAFETY: `flags` is 32 bytes; the set was empty, so the
                // bytes of the lanes that are not members stay 0.
                #[allow(unsafe_code)]
                unsafe {
                    _mm256_storeu_si256(
                        flags.as_mut_ptr().cast(),
                        _mm256_and_si256(lanes, _mm256_set1_epi8(1)),
                    )
                };
                self.count += members.count_ones() as usize;
                self.list_run(base as u32, members);
                // The keys: the values themselves, or their folded bytes,
                // which for a value from 256 on are its low byte XOR `low`
                // (one bit or none): a run of 32 keys from another multiple
                // of 32, in another order when `low < 32`.
                let (key_base, keys) = match self.fold {
                    Some(fold) if base >= 256 => {
                        let low = fold.kernel() & 255;
                        let swapped = xor_bits(u64::from(members), low & 31) as u32;
                        ((base as u32 & 255) ^ (low & !31), swapped)
                    }
                    _ => (base as u32, members),
                };
                let lanes = if keys == members { lanes } else { expand(keys) };
                let level = key_base >> 4 & 7;
                let row = &mut self.nibbles[(key_base >> 8) as usize & (PAGES - 1)]
                    [(key_base >> 7 & 1) as usize];
                let first = _mm_and_si128(
                    _mm256_castsi256_si128(lanes),
                    _mm_set1_epi8((1u8 << level) as i8),
                );
                let second = _mm_and_si128(
                    _mm256_extracti128_si256::<1>(lanes),
                    _mm_set1_epi8((2u8 << level) as i8),
                );
                // SAFETY: `row` is 16 bytes.
                #[allow(unsafe_code)]
                unsafe {
                    let old = _mm_loadu_si128(row.as_ptr().cast());
                    _mm_storeu_si128(
                        row.as_mut_ptr().cast(),
                        _mm_or_si128(old, _mm_or_si128(first, second)),
                    );
                }
            }
            if let Some(stop) = stop {
                return base as u32 + stop;
            }
            base += 32;
        }
    }

    /// Counts the new members `base + i` of `new` and sets their keys in
    /// the bit set ([`Test::Bits`]); the flags are set already.
    #[inline(always)]
    fn add_keys(&mut self, base: u32, mut new: u64) {
        self.count += new.count_ones() as usize;
        self.listed = None;
        match self.fold {
            // Below 256 a key is the value, folded or not.
            _ if base < 256 => self.bits[base as usize / 64] |= new,
            // Folded bytes from 256 on: a run of keys, permuted.
            Some(fold) if base < 512 => {
                let (keys, bits) = fold.twin_run(base, new);
                self.bits[keys as usize / 64] |= bits;
            }
            _ => {
                while new != 0 {
                    self.set_key(self.key(base + new.trailing_zeros()));
                    new &= new - 1;
                }
            }
        }
    }

    /// Drops the fold: the tables are made again from the members.
    #[cold]
    fn unfold(&mut self) {
        self.fold = None;
        self.retable();
    }

    /// Makes the block test's table again from the members.
    fn retable(&mut self) {
        self.choose_test();
        if let Some(len) = self.listed {
            for j in 0..usize::from(len) {
                self.set_key(self.key(u32::from(self.list[j])));
            }
            return;
        }
        for v in 0..self.size as u32 {
            if self.contains(v) {
                self.set_key(self.key(v));
            }
        }
    }

    /// Removes `v` if it is a member.
    #[inline(always)]
    pub(super) fn remove(&mut self, v: u32) {
        if let Some(flag) = self.flags.get_mut(v as usize).filter(|f| **f != 0) {
            *flag = 0;
            self.count -= 1;
            self.listed = None;
            let key = self.key(v);
            match self.test {
                Test::Plain => {}
                Test::Nibbles => self.clear_nibble(key, 1),
                Test::Bits => self.bits[(key >> 6) as usize] &= !(1 << (key & 63)),
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

    /// Crosses off every member some pair `(low[i], high[high.len() - 1 -
    /// i])` is worth, stopping when none is left.
    #[inline(always)]
    pub(super) fn cross_off_pairs<T: Lane>(&mut self, low: &[T], high: &[T]) {
        match self.test {
            #[cfg(target_arch = "x86_64")]
            Test::Bits if self.fold.is_none() => {
                if let Some(bytes) = T::as_bytes(low).zip(T::as_bytes(high)) {
                    return self.cross_off_wide(bytes, low, high, Some(|_| 0));
                }
            }
            #[cfg(target_arch = "x86_64")]
            Test::Nibbles if self.fold.is_none() => {
                if let Some(bytes) = T::as_bytes(low).zip(T::as_bytes(high))
                    && self.listing
                    && self.steps_listed < LISTED_STEPS
                    && self.relist()
                {
                    // SAFETY: `Test::Nibbles` is chosen only when the CPU
                    // has AVX2.
                    #[allow(unsafe_code)]
                    return unsafe { self.cross_off_listed_avx2(bytes) };
                }
                // SAFETY: as above.
                #[allow(unsafe_code)]
                return unsafe { self.cross_off_avx2(low, high, low, high) };
            }
            _ => {}
        }
        self.cross_off_plain(pair_values(low, high))
    }

    /// [`Self::cross_off_pairs`] given also the folded bytes of the same
    /// heaps, `folded_low` and `folded_high` (see [`Fold`]): the vector test
    /// runs on the bytes, and each hit is checked against the values; or,
    /// when the members all lie in the coset of the pairs of two common
    /// heaps and `rare_pairs` names the pairs with a rare part (bit `i` of
    /// `rare_pairs(at)` for pair `at + i`), by the ranked test with those
    /// left out: the only pairs that fold onto a member's byte without
    /// being worth it are then those of the other coset, which have a rare
    /// part, and were gathered.
    #[inline(always)]
    pub(super) fn cross_off_folded<T: Lane>(
        &mut self,
        (folded_low, folded_high): (&[u8], &[u8]),
        low: &[T],
        high: &[T],
        rare_pairs: Option<impl Fn(usize) -> u64>,
    ) {
        match self.test {
            #[cfg(target_arch = "x86_64")]
            Test::Bits if self.fold.is_some() => {
                self.cross_off_wide((folded_low, folded_high), low, high, rare_pairs)
            }
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Test::Nibbles` is chosen only when the CPU has AVX2.
            #[allow(unsafe_code)]
            Test::Nibbles if self.fold.is_some() => unsafe {
                self.cross_off_avx2(folded_low, folded_high, low, high)
            },
            _ => self.cross_off_pairs(low, high),
        }
    }

    /// The AVX-512 tests of one-byte test cells (`test`: the pairs' own
    /// cells, or their folded bytes): the per-hit loop
    /// ([`Self::cross_off_avx512`]) while the set has too many members for
    /// the ranked test, which takes over from the step that leaves fewer
    /// (in the first steps of a scan, most of them are found), with the
    /// pairs `left_out` names left out (see [`Self::cross_off_folded`]);
    /// without `left_out`, the per-hit loop throughout.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn cross_off_wide<T: Lane>(
        &mut self,
        test: (&[u8], &[u8]),
        low: &[T],
        high: &[T],
        left_out: Option<impl Fn(usize) -> u64>,
    ) {
        let until = match left_out {
            Some(_) if self.ranked => RANKED,
            _ => 1,
        };
        // SAFETY: the callers run this for `Test::Bits`, chosen only when
        // the CPU has AVX-512 F, BW and VBMI.
        #[allow(unsafe_code)]
        let done = match self.count {
            c if c >= until => unsafe { self.cross_off_avx512(test, low, high, until) },
            _ => 0,
        };
        let (test_low, test_high) = test;
        if let Some(left_out) = left_out.filter(|_| self.ranked && self.count > 0)
            && done < test_low.len().min(test_high.len())
        {
            let rest = (&test_low[done..], &test_high[..test_high.len() - done]);
            // SAFETY: `ranked` is set only when the CPU has AVX-512 F, BW,
            // VBMI and VBMI2 and BMI2.
            #[allow(unsafe_code)]
            unsafe {
                self.cross_off_ranked(rest, |at| left_out(done + at))
            }
        }
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

    /// Crosses off `v`, a value a pair of the vector test hit: without a
    /// branch on whether it is still a member, since whether a hit is one
    /// (a duplicate within a step, or a pair with a rare heap whose folded
    /// byte a member shares) is as good as random to the branch predictor.
    /// Returns 1 if `v` was a member, else 0.
    #[inline(always)]
    fn cross_off_hit(&mut self, v: u32) -> u8 {
        let Some(flag) = self.flags.get_mut(v as usize) else {
            return 0;
        };
        let was = *flag;
        *flag = 0;
        self.count -= usize::from(was);
        was
    }

    /// [`Self::cross_off_pairs`] with AVX2: the lanes of each step of 32
    /// pairs whose test cells (`test_low`, `test_high`: the pairs' own
    /// cells, or their folded bytes) hit the nibble tables, then those pairs
    /// one by one from `low` and `high`; the tail of fewer than 32 pairs
    /// pair by pair.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn cross_off_avx2<L: Lane, T: Lane>(
        &mut self,
        test_low: &[L],
        test_high: &[L],
        low: &[T],
        high: &[T],
    ) {
        use std::arch::x86_64::{_mm256_cmpeq_epi8, _mm256_movemask_epi8, _mm256_setzero_si256};
        assert!(test_low.len() == low.len() && test_high.len() == high.len());
        // Hits cross members off one by one.
        if self.stale_nibbles {
            self.retable();
        }
        self.listed = None;
        let len = low.len().min(high.len());
        let pair = |i: usize| (low[i] ^ high[high.len() - 1 - i]).into();
        let mut lookup = Lookup::new(self);
        let starts = (0..len / 32).map(|step| 32 * step);
        for at in starts {
            let hits = lookup.hits(test_low, test_high, at);
            let mut lanes =
                !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hits, _mm256_setzero_si256())) as u32);
            if lanes != 0 {
                while lanes != 0 {
                    let v = pair(at + lanes.trailing_zeros() as usize);
                    let member = self.cross_off_hit(v);
                    self.clear_nibble(self.key(v), member);
                    lanes &= lanes - 1;
                }
                if self.is_empty() {
                    return;
                }
                lookup = Lookup::new(self);
            }
        }
        self.cross_off_plain((32 * (len / 32)..len).map(pair));
    }
}

impl Wanted {
    /// [`Self::cross_off_pairs`] with AVX2 for one-byte cells and a listed
    /// set ([`Self::relist`]): each step of 32 pairs is compared with
    /// every member at once, in registers, and the members found are
    /// crossed off when the block ends or none is left; the tail of fewer
    /// than 32 pairs pair by pair.
    ///
    /// The members, at most 64, sit in vectors of 16 bytes, each repeated
    /// in both 128-bit lanes; the 16 rotations of the step's bytes within
    /// their lanes meet every member with every pair (`vpalignr` and one
    /// `vpcmpeqb` per vector of members: 16 to 64 compares a step, with
    /// no branch). The nibble test ([`Self::cross_off_avx2`]) costs a few
    /// instructions a step but a branch and a store per hit, and the first
    /// steps of a scan hit often (0.161 past 2^21: 22 values wanted, 12
    /// hits in the first 32 pairs, 23 in the first 128): there the
    /// compares cost less than the hits they replace.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn cross_off_listed_avx2(&mut self, (low, high): (&[u8], &[u8])) {
        let len = low.len().min(high.len());
        let mut done = 0;
        // As members are found the set needs fewer vectors: each run of
        // steps ends when it does, or when none is left.
        while done + 32 <= len {
            done = match usize::from(self.listed.unwrap_or(0)).div_ceil(16) {
                0 => return,
                1 => self.cross_off_listed_in::<1>((low, high), done),
                2 => self.cross_off_listed_in::<2>((low, high), done),
                3 => self.cross_off_listed_in::<3>((low, high), done),
                _ => self.cross_off_listed_in::<4>((low, high), done),
            };
            if self.steps_listed >= LISTED_STEPS && !self.is_empty() {
                let (low, high) = (&low[done..], &high[..high.len() - done]);
                return self.cross_off_avx2(low, high, low, high);
            }
        }
        if !self.is_empty() {
            self.cross_off_plain(pair_values(&low[done..], &high[..high.len() - done]));
        }
    }

    /// The steps of [`Self::cross_off_listed_avx2`] from pair `done` with
    /// `VECTORS` vectors of members, until the pairs that fill steps run
    /// out, none is left, or those left fit in fewer vectors; returns
    /// where they stopped, the members found crossed off.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn cross_off_listed_in<const VECTORS: usize>(
        &mut self,
        (low, high): (&[u8], &[u8]),
        mut done: usize,
    ) -> usize {
        use std::arch::x86_64::{
            __m256i, _mm_loadu_si128, _mm256_alignr_epi8, _mm256_broadcastsi128_si256,
            _mm256_cmpeq_epi8, _mm256_movemask_epi8, _mm256_or_si256, _mm256_setzero_si256,
        };
        let len = low.len().min(high.len());
        let count = usize::from(self.listed.unwrap_or(0));
        debug_assert!(count.div_ceil(16) == VECTORS, "vectors for every member");
        // The unused lanes repeat the first member.
        let mut members = [self.list[0]; LISTED];
        members[..count].copy_from_slice(&self.list[..count]);
        let members: [__m256i; VECTORS] = std::array::from_fn(|k| {
            // SAFETY: 16 readable bytes; the load is unaligned.
            #[allow(unsafe_code)]
            _mm256_broadcastsi128_si256(unsafe {
                _mm_loadu_si128(members[16 * k..].as_ptr().cast())
            })
        });
        let all = u64::MAX >> (LISTED - count);
        // Byte `j` of either lane of `met[k]` is nonzero once member `16 k
        // + j` met a pair.
        let mut met = [_mm256_setzero_si256(); VECTORS];
        let found = |met: &[__m256i; VECTORS]| {
            met.iter().enumerate().fold(0u64, |found, (k, &lanes)| {
                let lanes = _mm256_movemask_epi8(lanes) as u32;
                found | u64::from((lanes | lanes >> 16) & 0xffff) << (16 * k)
            })
        };
        while done + 32 <= len && self.steps_listed < LISTED_STEPS {
            // SAFETY: the caller has AVX2, as this function does.
            #[allow(unsafe_code)]
            let pairs = unsafe { u8::step(low, high, done) }.bytes;
            done += 32;
            self.steps_listed += 1;
            macro_rules! meet {
                ($($shift:literal)*) => {$(
                    let turned = _mm256_alignr_epi8::<$shift>(pairs, pairs);
                    for (met, &members) in met.iter_mut().zip(&members) {
                        *met = _mm256_or_si256(*met, _mm256_cmpeq_epi8(members, turned));
                    }
                )*};
            }
            meet!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
            if (all & !found(&met)).count_ones() as usize <= 16 * (VECTORS - 1) {
                break;
            }
        }
        self.cross_off_listed(all & found(&met));
        done
    }

    /// Crosses off the listed members whose bits `found` sets (bit `j`
    /// for `list[j]`), and lists the others.
    #[inline(always)]
    fn cross_off_listed(&mut self, found: u64) {
        let count = usize::from(self.listed.unwrap_or(0));
        // Without a branch on whether each was found, which is as good as
        // random to the branch predictor.
        let mut kept = 0;
        for j in 0..count {
            let v = self.list[j];
            let hit = (found >> j & 1) as u8;
            self.flags[usize::from(v)] = hit ^ 1;
            self.list[kept] = v;
            kept += usize::from(hit ^ 1);
        }
        self.stale_nibbles |= found != 0;
        self.count = kept;
        self.listed = Some(kept as u8);
    }

    /// [`Self::cross_off_pairs`] with AVX-512, for one-byte test cells
    /// (`test`: the pairs' own cells, or their folded bytes), 64 pairs per
    /// step: the key set is 256 bits, tested by [`keys_in_set`]. The
    /// pairs the test hits are crossed off one by one from `low` and
    /// `high`, and their keys cleared from the set in its register (a
    /// masked byte broadcast and an AND-NOT: no store for the next step's
    /// load to wait for). A block's last, partial step loads only its own
    /// bytes (the masked loads touch no memory outside the slices), so
    /// there is no pair-by-pair tail.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn cross_off_avx512<T: Lane>(
        &mut self,
        (test_low, test_high): (&[u8], &[u8]),
        low: &[T],
        high: &[T],
        until: usize,
    ) -> usize {
        use std::arch::x86_64::{
            __m512i, _mm512_andnot_si512, _mm512_loadu_si512, _mm512_maskz_set1_epi8,
            _mm512_storeu_si512,
        };
        assert!(test_low.len() == low.len() && test_high.len() == high.len());
        self.listed = None;
        let len = low.len().min(high.len());
        let pair = |i: usize| (low[i] ^ high[high.len() - 1 - i]).into();
        // SAFETY: `bits` is 64 readable bytes; the load is unaligned.
        #[allow(unsafe_code)]
        let mut set = unsafe { _mm512_loadu_si512(self.bits.as_ptr().cast::<__m512i>()) };
        let mut at = 0;
        while at < len {
            let lanes = first_lanes(len - at);
            let keys = pair_keys((test_low, test_high), at, lanes);
            let mut hits = keys_in_set(keys, set) & lanes;
            if hits != 0 {
                while hits != 0 {
                    let v = pair(at + hits.trailing_zeros() as usize);
                    let member = self.cross_off_hit(v);
                    // Keys are bytes: bit `key & 7` of byte `key >> 3`.
                    let key = self.key(v) & 255;
                    let clear =
                        _mm512_maskz_set1_epi8(1 << (key >> 3), (member << (key & 7)) as i8);
                    set = _mm512_andnot_si512(clear, set);
                    hits &= hits - 1;
                }
                if self.count < until {
                    at += 64;
                    break;
                }
            }
            at += 64;
        }
        // SAFETY: `bits` is 64 writable bytes; the store is unaligned.
        #[allow(unsafe_code)]
        unsafe {
            _mm512_storeu_si512(self.bits.as_mut_ptr().cast::<__m512i>(), set)
        };
        at.min(len)
    }
}

impl Wanted {
    /// [`Self::cross_off_pairs`] with AVX-512 for one-byte test cells (the
    /// cells, or folded bytes with the pairs `left_out` names left out: see
    /// [`Self::cross_off_folded`]) and fewer than [`RANKED`] members,
    /// without a branch per hit: each member is
    /// named by its rank among the members (`0..count`), every other byte
    /// by a rank no member has (31, or 63 from 32 members on), in a table
    /// of 256 bytes made from the bit set by four byte expands (VBMI2).
    /// [`RankedPairs::ranked`] turns the ranks the pairs' keys look up into
    /// the bits of a word and crosses them off the members left, until
    /// [`FEW`] or fewer are; [`RankedPairs::few`] then looks up bits of one
    /// byte, until one is left, and [`RankedPairs::last`] compares the keys
    /// with its (most scans spend most of their steps on the last few
    /// members: of the steps of 0.161's scans at 2^22, 82% start with at
    /// most eight members left, 44% with one). The flags, the count and the
    /// bit set are brought up to date once, at the end (a bit deposit per
    /// word of the set maps ranks back to keys).
    ///
    /// Unlike the per-hit loop of [`Self::cross_off_avx512`], where each
    /// hit is a chain of scalar loads (the pair's cells, the member's flag,
    /// the count), no step here waits on a hit (see docs/engine-history.md,
    /// "The scan without a branch per hit" and "The last members of a
    /// scan").
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    fn cross_off_ranked(&mut self, (low, high): (&[u8], &[u8]), left_out: impl Fn(usize) -> u64) {
        use std::arch::x86_64::{
            _mm512_add_epi8, _mm512_mask_expand_epi8, _mm512_mask_storeu_epi8, _mm512_set1_epi8,
            _mm512_setzero_si512, _pdep_u64,
        };
        debug_assert!(self.count < RANKED);
        self.listed = None;
        let iota = vector(&IOTA);
        // Ranks below 32 are bits of 32-bit lanes, others of 64-bit ones;
        // the last bit is never a member's.
        let total = self.count as u32;
        let not_a_member = _mm512_set1_epi8(unranked(total < 32));
        let mut ranks = [_mm512_setzero_si512(); 4];
        let mut before = [0u32; 4];
        // The rank of key `64 w + i`: the members of the words before, and
        // those before it in its word.
        let mut ranked = 0;
        for (w, &word) in self.bits[..4].iter().enumerate() {
            before[w] = ranked;
            let counted = _mm512_add_epi8(iota, _mm512_set1_epi8(ranked as i8));
            ranks[w] = _mm512_mask_expand_epi8(not_a_member, word, counted);
            ranked += word.count_ones();
        }
        debug_assert_eq!(ranked, total);
        let all = (1u64 << total) - 1;
        // Keys from 128 on name no member when the last two words are
        // empty (0.161's wanted values mostly lie below 128): one table
        // lookup a step instead of two.
        let low_keys = self.bits[2] | self.bits[3] == 0;
        let pairs = RankedPairs {
            low,
            high,
            left_out,
            ranks,
        };
        let mut at = 0;
        let mut left = all;
        if total > FEW {
            left = match (total < 32, low_keys) {
                (true, true) => pairs.ranked::<true, true>(&mut at, left),
                (true, false) => pairs.ranked::<true, false>(&mut at, left),
                (false, true) => pairs.ranked::<false, true>(&mut at, left),
                (false, false) => pairs.ranked::<false, false>(&mut at, left),
            };
        }
        let len = pairs.len();
        if left.count_ones() > 1 && at < len {
            // The members' keys are below 128 when no member is ranked
            // past those of the first two words.
            left = match left >> before[2] == 0 {
                true => pairs.few::<true>(&mut at, left),
                false => pairs.few::<false>(&mut at, left),
            };
        }
        if left.count_ones() == 1 && at < len {
            // The member's key: its word is the last whose members are
            // ranked from `rank` down.
            let rank = left.trailing_zeros();
            let w = before.iter().rposition(|&b| b <= rank).unwrap_or(0);
            let key =
                64 * w as u32 + _pdep_u64(1 << (rank - before[w]), self.bits[w]).trailing_zeros();
            left = pairs.last(key as u8, &mut at, left);
        }
        // Back from ranks to keys, and from keys to values: a key is its
        // value, or, folded, the value's low byte XOR `low` when bit 8 is
        // set (see `add_keys`); a member is one of the two, the other no
        // member, so both flags are cleared (those in `flags`: every
        // member is).
        let clear = |flags: &mut [u8], base: usize, gone: u64| {
            let gone = gone & first_lanes(flags.len().saturating_sub(base));
            if gone != 0 {
                assert!(base + 64 - gone.leading_zeros() as usize <= flags.len());
                // SAFETY: the masked store writes `flags[base + i]` for the
                // bits `i` of `gone` only, all in `flags` (asserted).
                #[allow(unsafe_code)]
                unsafe {
                    _mm512_mask_storeu_epi8(
                        flags.as_mut_ptr().wrapping_add(base).cast(),
                        gone,
                        _mm512_setzero_si512(),
                    )
                };
            }
        };
        for (w, word) in self.bits[..4].iter_mut().enumerate() {
            let kept = _pdep_u64(left >> before[w], *word);
            let gone = *word & !kept;
            clear(&mut self.flags, 64 * w, gone);
            if let Some(fold) = self.fold {
                let (values, bits) = fold.twin_run(64 * w as u32, gone);
                clear(&mut self.flags, 256 + values as usize, bits);
            }
            *word = kept;
        }
        self.count = left.count_ones() as usize;
    }
}

/// The ranked test hands over to [`RankedPairs::few`] once this many members or
/// fewer are left: their bits fit one byte.
#[cfg(target_arch = "x86_64")]
const FEW: u32 = 8;

/// The keys of the pairs `at..at + 64` of a block, `(low[at + i],
/// high[high.len() - 1 - at - i])` XORed in byte `i`, for the lanes `i`
/// of `lanes` (the others are 0): lane `i` of the 64 bytes of `high`
/// before `end = high.len() - at`, reversed.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn pair_keys((low, high): (&[u8], &[u8]), at: usize, lanes: u64) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::{_mm512_maskz_loadu_epi8, _mm512_permutexvar_epi8, _mm512_xor_si512};
    // Every lane selected names a pair of the block (the steps' own bounds
    // make this check free where the compiler sees them).
    let past_lanes = 64 - lanes.leading_zeros() as usize;
    assert!(at + past_lanes <= low.len().min(high.len()));
    let end = high.len() - at;
    // SAFETY: each masked load reads only the bytes its mask selects, which
    // lie in the slices: `low[at + i]` and `high[end - 1 - i]` for lanes
    // `i < past_lanes` (asserted); the pointers outside the slices are
    // never read through.
    #[allow(unsafe_code)]
    let (a, b) = unsafe {
        (
            _mm512_maskz_loadu_epi8(lanes, low.as_ptr().add(at).cast()),
            _mm512_maskz_loadu_epi8(
                match lanes {
                    u64::MAX => u64::MAX,
                    lanes => lanes.reverse_bits(),
                },
                high.as_ptr().wrapping_add(end).wrapping_sub(64).cast(),
            ),
        )
    };
    _mm512_xor_si512(a, _mm512_permutexvar_epi8(vector(&REVERSE), b))
}

/// Runs the steps of a scan from pair `at` on, crossing the members each
/// finds off `left`, until at most `stop` members are left or the pairs
/// run out: `four(at)` are the members the steps `at..at + 256` find (ORed
/// before they are folded into a word: the fold is a chain of shuffles),
/// `one(at, lanes)` those the step `at..at + 64` finds in `lanes`. `at` is
/// left at the first step not run.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn drive_steps(
    len: usize,
    at: &mut usize,
    mut left: u64,
    stop: u32,
    four: impl Fn(usize) -> u64,
    one: impl Fn(usize, u64) -> u64,
) -> u64 {
    while *at + 256 <= len {
        left &= !four(*at);
        *at += 256;
        if left.count_ones() <= stop {
            return left;
        }
    }
    while *at < len {
        let lanes = first_lanes(len - *at);
        left &= !one(*at, lanes);
        *at += 64;
        if left.count_ones() <= stop {
            return left;
        }
    }
    left
}

/// A block's pairs as the phases of the ranked test read them (see
/// [`Wanted::cross_off_ranked`]): the one-byte keys of the pairs `(low[i],
/// high[high.len() - 1 - i])`, the pairs `left_out(at)` names among `at..at
/// + 64` left out, and the rank of each key.
#[cfg(target_arch = "x86_64")]
struct RankedPairs<'a, F> {
    low: &'a [u8],
    high: &'a [u8],
    left_out: F,
    ranks: [std::arch::x86_64::__m512i; 4],
}

#[cfg(target_arch = "x86_64")]
impl<F: Fn(usize) -> u64> RankedPairs<'_, F> {
    /// How many pairs the block has.
    fn len(&self) -> usize {
        self.low.len().min(self.high.len())
    }

    /// The keys of the pairs `at..at + 64` in `lanes` ([`pair_keys`]), and
    /// those of the lanes that are not left out.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn keys(&self, at: usize, lanes: u64) -> (std::arch::x86_64::__m512i, u64) {
        (
            pair_keys((self.low, self.high), at, lanes),
            lanes & !(self.left_out)(at),
        )
    }

    /// The members of `left` (bit `r` for rank `r`) that no pair from `at`
    /// on is worth, the pairs' keys ranked by `ranks`, or those left
    /// when [`FEW`] or fewer are, `at` then at the first pair not tested.
    /// Each step of 64 pairs looks its keys' ranks up (two two-register byte
    /// permutes and a blend; with `LOW`, when every member's key is below 128,
    /// one permute, the keys from 128 on naming no member), and turns rank `r`
    /// into bit `r` of a lane: with `NARROW` the ranks lie below 32, and four
    /// byte permutes spread them over 32-bit lanes, else eight over 64-bit
    /// lanes; a rotate of 1 by each (which reads only the low bits of its
    /// lane, so the permutes need not clear the others). The lanes ORed into
    /// one word are the members the step found, crossed off `left` in one
    /// AND-NOT. The steps depend on each other only through `left`, so they
    /// overlap in the CPU however many hits they have. Four steps are ORed
    /// before their lanes are folded into a word and `left` is checked: the
    /// fold is a chain of shuffles, and a check after every step or every two
    /// costs more than the scans it ends early save (see
    /// docs/engine-history.md, "The scan without a branch per hit").
    /// `left_out(at)` names the pairs `at..at + 64` to leave out.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn ranked<const NARROW: bool, const LOW: bool>(&self, at: &mut usize, left: u64) -> u64 {
        use std::arch::x86_64::{
            __m512i, _mm512_mask_blend_epi8, _mm512_movepi8_mask, _mm512_or_si512,
            _mm512_permutex2var_epi8, _mm512_permutexvar_epi8, _mm512_reduce_or_epi32,
            _mm512_reduce_or_epi64, _mm512_rolv_epi32, _mm512_rolv_epi64, _mm512_set1_epi8,
            _mm512_set1_epi32, _mm512_set1_epi64, _mm512_setzero_si512, _mm512_ternarylogic_epi32,
        };
        let spread = SPREAD.map(|lanes| vector(&lanes));
        let spread32 = SPREAD32.map(|lanes| vector(&lanes));
        let not_a_member = _mm512_set1_epi8(unranked(NARROW));
        let one = _mm512_set1_epi64(1);
        let one32 = _mm512_set1_epi32(1);
        // The members the pairs `at..at + 64` of `lanes` are worth, as bits of
        // the lanes of a vector.
        let ranks = self.ranks;
        let step = |at: usize, lanes: u64| {
            // Lanes past the block, or left out, name no member.
            let (keys, lanes) = self.keys(at, lanes);
            let below = _mm512_permutex2var_epi8(ranks[0], keys, ranks[1]);
            let high_keys = _mm512_movepi8_mask(keys);
            let rank = if LOW {
                _mm512_mask_blend_epi8(lanes & !high_keys, not_a_member, below)
            } else {
                let above = _mm512_permutex2var_epi8(ranks[2], keys, ranks[3]);
                let rank = _mm512_mask_blend_epi8(high_keys, below, above);
                _mm512_mask_blend_epi8(lanes, not_a_member, rank)
            };
            if NARROW {
                let bits = spread32
                    .map(|moves| _mm512_rolv_epi32(one32, _mm512_permutexvar_epi8(moves, rank)));
                let three = _mm512_ternarylogic_epi32::<0xfe>(bits[0], bits[1], bits[2]);
                _mm512_or_si512(three, bits[3])
            } else {
                let mut found = _mm512_setzero_si512();
                for moves in spread {
                    let rank = _mm512_permutexvar_epi8(moves, rank);
                    found = _mm512_or_si512(found, _mm512_rolv_epi64(one, rank));
                }
                found
            }
        };
        let fold = |found: __m512i| {
            if NARROW {
                u64::from(_mm512_reduce_or_epi32(found) as u32)
            } else {
                _mm512_reduce_or_epi64(found) as u64
            }
        };
        drive_steps(
            self.len(),
            at,
            left,
            FEW,
            |at| {
                let two = _mm512_or_si512(step(at, u64::MAX), step(at + 64, u64::MAX));
                let four = _mm512_or_si512(step(at + 128, u64::MAX), step(at + 192, u64::MAX));
                fold(_mm512_or_si512(two, four))
            },
            |at, lanes| fold(step(at, lanes)),
        )
    }

    /// [`Self::ranked`] for at most [`FEW`] members left, from pair `at` on,
    /// until one is left: the ranks' table turned into one of bytes, the key
    /// of the member of rank `r` looking up `1 << i`, `i` its place among the
    /// members of `left`, other keys 0, so that a step is its keys' lookup (one
    /// two-register byte permute with `LOW`, every member's key below 128, else
    /// two and a blend) ORed into the bytes of the steps before. The bits of a
    /// byte map back to ranks by a bit deposit into `left`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2")]
    fn few<const LOW: bool>(&self, at: &mut usize, left: u64) -> u64 {
        use std::arch::x86_64::{
            __m512i, _mm512_mask_blend_epi8, _mm512_maskz_expand_epi8, _mm512_maskz_mov_epi8,
            _mm512_maskz_permutex2var_epi8, _mm512_movepi8_mask, _mm512_or_si512,
            _mm512_permutex2var_epi8, _mm512_permutexvar_epi8, _mm512_reduce_or_epi64,
            _mm512_ternarylogic_epi32, _pdep_u64,
        };
        debug_assert!(left.count_ones() <= FEW);
        // Byte `r` of `bits` is `1 << i` for the `i`-th member `r` of `left`
        // (rank 31 or 63, no member's, is no member of `left`).
        let bits = _mm512_maskz_expand_epi8(left, vector(&BYTE_BITS));
        let table = self.ranks.map(|ranks| _mm512_permutexvar_epi8(ranks, bits));
        let step = |at: usize, lanes: u64| {
            let (keys, lanes) = self.keys(at, lanes);
            let high_keys = _mm512_movepi8_mask(keys);
            if LOW {
                _mm512_maskz_permutex2var_epi8(lanes & !high_keys, table[0], keys, table[1])
            } else {
                let below = _mm512_permutex2var_epi8(table[0], keys, table[1]);
                let above = _mm512_permutex2var_epi8(table[2], keys, table[3]);
                _mm512_maskz_mov_epi8(lanes, _mm512_mask_blend_epi8(high_keys, below, above))
            }
        };
        let fold = |found: __m512i| {
            let word = _mm512_reduce_or_epi64(found) as u64;
            let word = word | word >> 32;
            let word = word | word >> 16;
            _pdep_u64((word | word >> 8) & 0xff, left)
        };
        drive_steps(
            self.len(),
            at,
            left,
            1,
            |at| {
                let three = _mm512_ternarylogic_epi32::<0xfe>(
                    step(at, u64::MAX),
                    step(at + 64, u64::MAX),
                    step(at + 128, u64::MAX),
                );
                fold(_mm512_or_si512(three, step(at + 192, u64::MAX)))
            },
            |at, lanes| fold(step(at, lanes)),
        )
    }

    /// [`Self::ranked`] for the last member left, of rank `left`'s one bit and
    /// key `key`, from pair `at` on: a step compares its keys with `key`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn last(&self, key: u8, at: &mut usize, left: u64) -> u64 {
        use std::arch::x86_64::{_mm512_cmpeq_epi8_mask, _mm512_set1_epi8};
        debug_assert_eq!(left.count_ones(), 1);
        let key = _mm512_set1_epi8(key as i8);
        let step = |at: usize, lanes: u64| {
            let (keys, lanes) = self.keys(at, lanes);
            _mm512_cmpeq_epi8_mask(keys, key) & lanes
        };
        let found = |hits: u64| if hits == 0 { 0 } else { left };
        drive_steps(
            self.len(),
            at,
            left,
            0,
            |at| {
                found(
                    step(at, u64::MAX)
                        | step(at + 64, u64::MAX)
                        | step(at + 128, u64::MAX)
                        | step(at + 192, u64::MAX),
                )
            },
            |at, lanes| found(step(at, lanes)),
        )
    }
}

/// Bit `i` set for each byte `keys[i]` whose bit is set in `set`, a set of
/// 256 bits (the vector's first 32 bytes; byte `k` holds keys `8 k..8 k +
/// 8`): the byte of each key (`key >> 3`) is looked up by one byte permute
/// (VBMI), its bit (`key & 7`) by one shuffle, and the two tested into a
/// mask.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn keys_in_set(keys: std::arch::x86_64::__m512i, set: std::arch::x86_64::__m512i) -> u64 {
    use std::arch::x86_64::{
        _mm512_and_si512, _mm512_permutexvar_epi8, _mm512_set1_epi8, _mm512_setr4_epi32,
        _mm512_shuffle_epi8, _mm512_srli_epi16, _mm512_test_epi8_mask,
    };
    // Byte `i` of each 16 is `1 << i` for `i < 8`.
    let bit = _mm512_setr4_epi32(0x0804_0201, 0x8040_2010_u32 as i32, 0, 0);
    // Bits 3..8 of each byte: a 16-bit shift, then the byte's own five
    // bits.
    let byte = _mm512_and_si512(_mm512_srli_epi16(keys, 3), _mm512_set1_epi8(0x1f));
    let rows = _mm512_permutexvar_epi8(byte, set);
    let bits = _mm512_shuffle_epi8(bit, _mm512_and_si512(keys, _mm512_set1_epi8(7)));
    _mm512_test_epi8_mask(rows, bits)
}

/// The values `low[i] ^ high[high.len() - 1 - i]` of the pairs of a block.
fn pair_values<'a, T: Lane>(low: &'a [T], high: &'a [T]) -> impl Iterator<Item = u32> + 'a {
    low.iter()
        .zip(high.iter().rev())
        .map(|(&a, &b)| (a ^ b).into())
}

/// A table cell the vector test reads: one byte or two.
pub(super) trait Lane: Copy + std::ops::BitXor<Output = Self> + Into<u32> {
    /// The cells as bytes, for one-byte cells.
    #[inline(always)]
    fn as_bytes(_cells: &[Self]) -> Option<&[u8]> {
        None
    }

    /// The values of the 32 pairs `(low[at + i], high[high.len() - 1 - at -
    /// i])`, as their bytes and their pages, lane `i` for pair `i`.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    unsafe fn step(low: &[Self], high: &[Self], at: usize) -> Step;
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
    #[inline(always)]
    fn as_bytes(cells: &[u8]) -> Option<&[u8]> {
        Some(cells)
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn step(low: &[u8], high: &[u8], at: usize) -> Step {
        use std::arch::x86_64::{
            _mm256_permute4x64_epi64, _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_xor_si256,
        };
        // Reverses the bytes within each 128-bit lane; the lanes are then
        // swapped by a permute.
        let reverse = _mm256_setr_epi8(
            15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7,
            6, 5, 4, 3, 2, 1, 0,
        );
        let b = load(high, high.len() - at - 32);
        let b = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(b, reverse), 0b01_00_11_10);
        Step {
            bytes: _mm256_xor_si256(load(low, at), b),
            pages: None,
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl Lane for u8 {
    #[inline(always)]
    fn as_bytes(cells: &[u8]) -> Option<&[u8]> {
        Some(cells)
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
impl Lane for u16 {
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn step(low: &[u16], high: &[u16], at: usize) -> Step {
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
            let b = load(high, high.len() - at - 16 * i - 16);
            let b = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(b, reverse), 0b01_00_11_10);
            _mm256_xor_si256(load(low, at + 16 * i), b)
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
        use std::arch::x86_64::{
            _mm_loadu_si128, _mm256_broadcastsi128_si256, _mm256_setzero_si256,
        };
        let table = |row: &[u8; 16]| {
            // SAFETY: `row` is 16 readable bytes; the load is unaligned.
            #[allow(unsafe_code)]
            _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(row.as_ptr().cast()) })
        };
        // Only the pages in use: the tables were just written byte by
        // byte, and each load of them waits for those stores.
        let zero = _mm256_setzero_si256();
        let mut rows = [(zero, zero); PAGES];
        let pages = wanted.pages.min(PAGES);
        for (row, [below, above]) in rows.iter_mut().zip(&wanted.nibbles).take(pages) {
            *row = (table(below), table(above));
        }
        Lookup {
            rows,
            pages: wanted.pages,
        }
    }

    /// For the 32 pairs from pair `at`, a nonzero byte in each lane whose
    /// pair is worth a member.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn hits<T: Lane>(&self, low: &[T], high: &[T], at: usize) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::{
            _mm256_and_si256, _mm256_blendv_epi8, _mm256_cmpeq_epi8, _mm256_or_si256,
            _mm256_set1_epi8, _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
            _mm256_srli_epi16,
        };
        // SAFETY: the caller has AVX2, as this function does.
        #[allow(unsafe_code)]
        let Step { bytes, pages } = unsafe { T::step(low, high, at) };
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
    use super::{Fold, Lane, Wanted};
    use proptest::prelude::*;

    fn chi(mask: u32, v: u32) -> u32 {
        (v & mask).count_ones() & 1
    }

    #[test]
    fn low_parities_are_those_of_each_index() {
        for mask in 0..512 {
            let expected = (0..64).fold(0u64, |word, i| word | u64::from(chi(mask, i)) << i);
            assert_eq!(super::low_parities(mask), expected, "mask {mask}");
        }
    }

    /// Each block test: pair by pair, AVX2 (the nibble test, and the
    /// listed test of small sets of one-byte values), AVX-512 (the bit set
    /// test, and the ranked test of small sets of one-byte values); the
    /// vector ones fall back to the plain test on CPUs without them.
    const TESTS: [(bool, bool, bool, bool); 5] = [
        (false, false, false, false),
        (true, false, false, false),
        (true, false, true, false),
        (true, true, false, false),
        (true, true, false, true),
    ];

    /// Checks the crossing off against the definition, with each block
    /// test.
    fn agrees<T: Lane + std::fmt::Debug>(
        size: usize,
        members: &[u32],
        pairs: &[(T, T)],
    ) -> std::result::Result<(), TestCaseError> {
        for tests in TESTS {
            agrees_with(Wanted::with_tests(tests), size, members, pairs)?;
        }
        Ok(())
    }

    fn agrees_with<T: Lane + std::fmt::Debug>(
        mut wanted: Wanted,
        size: usize,
        members: &[u32],
        pairs: &[(T, T)],
    ) -> std::result::Result<(), TestCaseError> {
        wanted.reset(size, None);
        for &v in members {
            wanted.insert(v);
        }
        let low: Vec<T> = pairs.iter().map(|p| p.0).collect();
        let mut high: Vec<T> = pairs.iter().map(|p| p.1).collect();
        high.reverse();
        let worth = |v: u32| pairs.iter().any(|&(a, b)| (a ^ b).into() == v);
        // In two blocks, as a scan crosses off: the second starts from the
        // tables the first left.
        let cut = pairs.len() / 3;
        wanted.cross_off_pairs(&low[..cut], &high[pairs.len() - cut..]);
        wanted.cross_off_pairs(&low[cut..], &high[..pairs.len() - cut]);
        let mut left: Vec<u32> = members.iter().copied().filter(|&v| !worth(v)).collect();
        left.sort_unstable();
        left.dedup();
        prop_assert_eq!(wanted.members(0, size as u32).collect::<Vec<_>>(), left);
        Ok(())
    }

    proptest! {
        /// Crossing off leaves exactly the members no pair is worth, for
        /// every set and every block, with each block test, tails of
        /// fewer than 32 or 64 pairs included.
        #[test]
        fn one_byte_cells_agree_with_pairs_one_by_one(
            members in proptest::collection::vec(0u32..256, 0..6),
            pairs in proptest::collection::vec((any::<u8>(), any::<u8>()), 0..300),
        ) {
            agrees(257, &members, &pairs)?;
        }

        /// The same for sets of up to 100 members drawn from a few
        /// values, and pairs worth those values often: the listed test
        /// with one to four vectors of members, the nibble test while there
        /// are more than it lists (then the list made from the flags), and
        /// the nibble test after the listed test's last step (its tables
        /// made again from the list).
        #[test]
        fn listed_sets_agree_with_pairs_one_by_one(
            top in 8u32..=256,
            members in proptest::collection::vec(0u32..256, 0..100),
            pairs in proptest::collection::vec((any::<u8>(), any::<u8>()), 0..1500),
        ) {
            let members: Vec<u32> = members.into_iter().map(|v| v % top).collect();
            let pairs: Vec<(u8, u8)> =
                pairs.into_iter().map(|(a, b)| ((u32::from(a) % top) as u8, (u32::from(b) % top) as u8)).collect();
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

    proptest! {
        /// Through a fold, crossing off leaves exactly the members no pair
        /// is worth: members of one `chi`, pairs of any values below 512
        /// (those of the other `chi` fold onto members' bytes and must be
        /// rejected by the check of their two-byte values, or left out by
        /// the ranked test, in each of its phases: up to 39 members); and
        /// members of both `chi`, which drop the fold when two share a byte.
        #[test]
        fn folded_cells_agree_with_pairs_one_by_one(
            mask in 1u32..512,
            odd in any::<bool>(),
            mixed in any::<bool>(),
            members in proptest::collection::vec(0u32..512, 0..40),
            pairs in proptest::collection::vec((0u16..512, 0u16..512), 0..300),
        ) {
            let fold = Fold::for_mask(mask).unwrap();
            let members: Vec<u32> = members
                .into_iter()
                .filter(|&v| mixed || chi(mask, v) == u32::from(odd))
                .collect();
            for tests in TESTS {
                let mut wanted = Wanted::with_tests(tests);
                wanted.reset(513, Some(fold));
                for &v in &members {
                    wanted.insert(v);
                }
                let low: Vec<u16> = pairs.iter().map(|p| p.0).collect();
                let mut high: Vec<u16> = pairs.iter().map(|p| p.1).collect();
                high.reverse();
                let folded = |cells: &[u16]| -> Vec<u8> { cells.iter().map(|&c| fold.of(c.into())).collect() };
                // The pairs of the other coset than the members', which in
                // a scan have a rare part: the ranked test leaves them out.
                let coset = members.first().map(|&v| chi(mask, v));
                let other = |i: usize| {
                    pairs.get(i).is_some_and(|&(a, b)| Some(chi(mask, u32::from(a ^ b))) != coset)
                };
                let rare_pairs = |at: usize| (0..64).filter(|&i| other(at + i)).fold(0u64, |w, i| w | 1 << i);
                let one_coset = members.iter().all(|&v| Some(chi(mask, v)) == coset);
                wanted.cross_off_folded(
                    (&folded(&low), &folded(&high)),
                    &low,
                    &high,
                    Some(rare_pairs).filter(|_| one_coset),
                );
                let worth = |v: u32| pairs.iter().any(|&(a, b)| u32::from(a ^ b) == v);
                let mut left: Vec<u32> = members.iter().copied().filter(|&v| !worth(v)).collect();
                left.sort_unstable();
                left.dedup();
                prop_assert_eq!(wanted.members(0, 513).collect::<Vec<_>>(), left);
            }
        }
    }

    proptest! {
        /// `fill` adds exactly the unmarked values of the coset from
        /// `from` up to the first unmarked value outside it (or the last
        /// byte), with each block test, folded or not.
        #[test]
        fn fill_adds_the_coset_up_to_the_first_value_outside(
            bits in 6u32..=9,
            marks in proptest::collection::vec(any::<bool>(), 513),
            mask in 1u32..512,
            odd in any::<bool>(),
            from in 0u32..512,
            folds in any::<bool>(),
            long in any::<bool>(),
        ) {
            let end = 1u32 << bits;
            let from = from % end;
            let chi = |v: u32| (v & mask).count_ones() % 2 == 1;
            // `long`: every value outside the coset is marked, so that the
            // fill runs to the end through every run of vector lanes.
            let mut seen: Vec<u8> = marks[..=end as usize]
                .iter()
                .enumerate()
                .map(|(v, &m)| u8::from(m || (long && chi(v as u32) != odd)))
                .collect();
            seen[end as usize] = 0;
            let stop = (from..end).find(|&v| seen[v as usize] == 0 && chi(v) != odd).unwrap_or(end);
            let expected: Vec<u32> = (from..stop).filter(|&v| seen[v as usize] == 0).collect();
            let fold = Fold::for_mask(mask).filter(|_| folds && bits == 9);
            for tests in TESTS {
                let mut wanted = Wanted::with_tests(tests);
                wanted.reset(end as usize + 1, fold);
                prop_assert_eq!(wanted.fill(&seen, from, mask, odd), stop);
                prop_assert_eq!(wanted.members(0, end + 1).collect::<Vec<_>>(), expected.clone());
                // The block tests' tables are those of the members added
                // one by one.
                let mut one_by_one = Wanted::with_tests(tests);
                one_by_one.reset(end as usize + 1, fold);
                for &v in &expected {
                    one_by_one.insert(v);
                }
                prop_assert_eq!(wanted.count, one_by_one.count);
                prop_assert_eq!(wanted.nibbles, one_by_one.nibbles);
                prop_assert_eq!(wanted.bits, one_by_one.bits);
                // The table holds them: pairs worth each cross all off.
                let low: Vec<u16> = expected.iter().map(|&v| v as u16).collect();
                let high = vec![0u16; low.len()];
                let folded = |cells: &[u16]| -> Vec<u8> {
                    cells.iter().map(|&c| fold.map_or(c as u8, |f| f.of(c.into()))).collect()
                };
                match fold {
                    Some(_) => wanted.cross_off_folded((&folded(&low), &folded(&high)), &low, &high, Some(|_| 0)),
                    None if bits <= 8 => {
                        let low: Vec<u8> = low.iter().map(|&v| v as u8).collect();
                        wanted.cross_off_pairs(&low, &vec![0u8; low.len()]);
                    }
                    None => wanted.cross_off_pairs(&low, &high),
                }
                prop_assert!(wanted.is_empty());
            }
        }
    }

    /// Every fold (each mask's lowest bit, with bit 8 or without), both
    /// cosets: a fill of every value below 512 sets the keys that inserts
    /// one by one set (the runs of 64 folded keys from 256 on, moved as a
    /// word, land in another word when the fold flips bit 6 or 7).
    #[test]
    fn folded_fills_set_the_keys_of_inserts() {
        for mask in 1u32..512 {
            let chi = |v: u32| (v & mask).count_ones() % 2 == 1;
            let fold = Fold::for_mask(mask);
            for odd in [false, true] {
                for tests in TESTS {
                    let mut wanted = Wanted::with_tests(tests);
                    wanted.reset(513, fold);
                    // The fill stops at the first value outside the coset:
                    // mark those, so that it lists the whole coset.
                    let seen: Vec<u8> = (0..513u32)
                        .map(|v| u8::from(v < 512 && chi(v) != odd))
                        .collect();
                    assert_eq!(wanted.fill(&seen, 0, mask, odd), 512);
                    let mut one_by_one = Wanted::with_tests(tests);
                    one_by_one.reset(513, fold);
                    for v in (0..512).filter(|&v| chi(v) == odd) {
                        one_by_one.insert(v);
                    }
                    assert_eq!(wanted.count, one_by_one.count, "mask {mask:#x}");
                    assert_eq!(wanted.bits, one_by_one.bits, "mask {mask:#x}");
                    assert_eq!(wanted.nibbles, one_by_one.nibbles, "mask {mask:#x}");
                }
            }
        }
    }

    /// Two members of different `chi` on one folded byte: the set drops
    /// the fold and still finds exactly the members no pair is worth.
    #[test]
    fn members_sharing_a_folded_byte_are_tested_unfolded() {
        let mask = 0x100;
        let fold = Fold::for_mask(mask).unwrap();
        assert_eq!(fold.of(7), fold.of(7 + 256));
        let mut wanted = Wanted::default();
        wanted.reset(513, Some(fold));
        wanted.insert(7);
        wanted.insert(7 + 256);
        wanted.insert(40);
        // Pair 5 is worth 263 = 7 + 256, pair 40 (a later step of 32) is
        // worth 7, every other pair 1: on a shared byte, crossing off 263
        // would hide 7.
        let low: Vec<u16> = (0..64)
            .map(|i| match i {
                5 => 263,
                40 => 7,
                _ => 1,
            })
            .collect();
        let high: Vec<u16> = vec![0; 64];
        let folded: Vec<u8> = low.iter().map(|&c| fold.of(c.into())).collect();
        wanted.cross_off_folded((&folded, &[0; 64]), &low, &high, None::<fn(usize) -> u64>);
        assert_eq!(wanted.members(0, 513).collect::<Vec<_>>(), [40]);
    }

    #[test]
    fn members_come_and_go() {
        let mut wanted = Wanted::default();
        wanted.reset(300, None);
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
        wanted.reset(300, None);
        assert_eq!(wanted.members(0, 300).count(), 0);
    }
}
