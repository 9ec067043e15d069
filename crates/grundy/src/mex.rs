//! The minimum excludant, computed in reusable scratch space.
//!
//! `mex(S)` is the least non-negative integer not in `S`. It is at most `|S|`,
//! so only small values matter, but option values can be arbitrarily large.
//! [`MexScratch`] keeps a bitset of seen values that grows on demand and a list
//! of the words it touched, so resetting it costs time proportional to what
//! was inserted rather than to the size of the bitset — clearing a full array
//! per position would turn an `O(n·d)` table into `O(n·max g)`.

use crate::{Nimber, Result};

/// Values at or above this go to an overflow list instead of the bitset, so a
/// single huge option value cannot make the bitset allocate gigabytes.
const BITSET_LIMIT: usize = 1 << 20;

/// Reusable scratch space for computing `mex` of a set of nimbers.
///
/// Insert the option values of one position, call [`MexScratch::mex`], then
/// [`MexScratch::clear`] before the next position. One scratch is meant to be
/// owned by a solver and reused for every position it evaluates.
///
/// ```
/// use grundy::{MexScratch, Nimber};
/// let mut seen = MexScratch::new();
/// for v in [0, 1, 3, 1_000_000_000] {
///     seen.insert(Nimber::new(v));
/// }
/// assert_eq!(seen.mex()?, Nimber::new(2));
/// seen.clear();
/// assert_eq!(seen.mex()?, Nimber::ZERO);
/// # Ok::<(), grundy::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct MexScratch {
    words: Vec<u64>,
    touched: Vec<u32>,
    overflow: Vec<u32>,
}

impl MexScratch {
    /// An empty scratch.
    pub fn new() -> MexScratch {
        MexScratch::default()
    }

    /// Marks `v` as the value of some option.
    #[inline]
    pub fn insert(&mut self, v: Nimber) {
        let v = v.index();
        if v >= BITSET_LIMIT {
            self.overflow.push(v as u32);
            return;
        }
        let word = v / 64;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        let slot = &mut self.words[word];
        if *slot == 0 {
            self.touched.push(word as u32);
        }
        *slot |= 1 << (v % 64);
    }

    /// Inserts every value `64 * i + b` for which bit `b` of `words[i]` is
    /// set: the bulk form of [`MexScratch::insert`] for kernels that collect
    /// small values in a local bitset.
    pub fn insert_bits(&mut self, words: &[u64]) {
        if words.len() > self.words.len() {
            self.words.resize(words.len(), 0);
        }
        for (i, (slot, &bits)) in self.words.iter_mut().zip(words).enumerate() {
            if *slot == 0 && bits != 0 {
                self.touched.push(i as u32);
            }
            *slot |= bits;
        }
    }

    /// Whether `v` has been inserted since the last clear.
    pub fn contains(&self, v: Nimber) -> bool {
        let v = v.index();
        if v >= BITSET_LIMIT {
            return self.overflow.contains(&(v as u32));
        }
        self.words
            .get(v / 64)
            .is_some_and(|w| w & (1 << (v % 64)) != 0)
    }

    /// The least value not inserted since the last clear; an
    /// [`Error::NimberOverflow`](crate::Error::NimberOverflow) in the one case it does not fit, when every
    /// value `0..=u32::MAX` was inserted.
    pub fn mex(&mut self) -> Result<Nimber> {
        let mut m = match self.words.iter().position(|&w| w != u64::MAX) {
            Some(i) => i * 64 + self.words[i].trailing_ones() as usize,
            None => self.words.len() * 64,
        };
        if m == BITSET_LIMIT && !self.overflow.is_empty() {
            self.overflow.sort_unstable();
            for &v in &self.overflow {
                match (v as usize).cmp(&m) {
                    std::cmp::Ordering::Less => {}
                    std::cmp::Ordering::Equal => m += 1,
                    std::cmp::Ordering::Greater => break,
                }
            }
        }
        Nimber::try_from(m)
    }

    /// Forgets every inserted value, touching only the words that were set.
    #[inline]
    pub fn clear(&mut self) {
        for &w in &self.touched {
            self.words[w as usize] = 0;
        }
        self.touched.clear();
        self.overflow.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive_mex(values: &[u32]) -> u32 {
        (0..).find(|m| !values.contains(m)).unwrap()
    }

    proptest! {
        #[test]
        fn mex_is_the_least_missing_value(values in prop::collection::vec(0u32..200, 0..100)) {
            let mut seen = MexScratch::new();
            for &v in &values {
                seen.insert(Nimber::new(v));
            }
            prop_assert_eq!(seen.mex().unwrap().get(), naive_mex(&values));
            // Minimality: every smaller value is present, the mex itself is not.
            let m = seen.mex().unwrap();
            prop_assert!(!values.contains(&m.get()));
            prop_assert!((0..m.get()).all(|v| seen.contains(Nimber::new(v))));
        }

        #[test]
        fn clear_forgets_everything(first in prop::collection::vec(0u32..5000, 0..50),
                                    second in prop::collection::vec(0u32..5000, 0..50)) {
            let mut seen = MexScratch::new();
            for &v in &first {
                seen.insert(Nimber::new(v));
            }
            seen.clear();
            for &v in &second {
                seen.insert(Nimber::new(v));
            }
            prop_assert_eq!(seen.mex().unwrap().get(), naive_mex(&second));
        }
    }

    #[test]
    fn bits_insert_in_bulk() {
        let mut seen = MexScratch::new();
        seen.insert(Nimber::new(64));
        seen.insert_bits(&[0b1011, u64::MAX]);
        assert_eq!(seen.mex().unwrap(), Nimber::new(2));
        seen.insert(Nimber::new(2));
        assert_eq!(seen.mex().unwrap(), Nimber::new(4));
        seen.clear();
        seen.insert_bits(&[0b1]);
        assert_eq!(seen.mex().unwrap(), Nimber::new(1));
    }

    #[test]
    fn overflow_values_count_when_the_bitset_is_full() {
        let mut seen = MexScratch::new();
        for v in 0..=BITSET_LIMIT as u32 + 1 {
            seen.insert(Nimber::new(v));
        }
        seen.insert(Nimber::new(BITSET_LIMIT as u32 + 3));
        assert_eq!(seen.mex().unwrap().index(), BITSET_LIMIT + 2);
    }
}
