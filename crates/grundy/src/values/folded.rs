//! Values below 512 at one byte a heap: each value folded to a byte by the
//! fold of a split's mask, the heaps of the split's rare class listed apart
//! (see the `fold` module).
//!
//! Of the two values below 512 that fold to a byte, one is of each class,
//! so a heap's byte and its class give its value back. Octal games whose
//! values pass 255 are the sparse ones, whose heaps are nearly all of one
//! class (Officers, 0.6, has 1,583 rare heaps among its first 2^22, the
//! last at heap 20,627; Grundy's game, 4!.0, 1,273 among its first 2^23,
//! the last at 82,860): the list of the others costs next to nothing, and
//! the table stays at one byte a heap instead of two.

use crate::fold::{Fold, Split, fewest_rare};

/// The largest share of rare heaps a folded table keeps: past one heap in
/// [`RARE_SHARE`] (and [`RARE_FREE`] heaps), whose listing would cost more
/// than an eighth of a byte a heap, the table looks for a better split, or
/// widens to two bytes.
const RARE_SHARE: usize = 64;

/// Rare heaps a folded table may list whatever its length (32 KiB): the
/// rare heaps of a sparse game come early (Officers' pass 255 at heap
/// 10,344 with 1,466 rare heaps, more than a tenth), and the table grows
/// past them.
const RARE_FREE: usize = 1 << 12;

/// Heaps a bulk decode passes at a time.
const STRETCH: usize = 1 << 12;

/// A table of values below 512, a byte each (see the module's notes).
#[derive(Clone, Debug)]
pub(crate) struct FoldedCells {
    /// `fold(g(k))` for heap `k`.
    bytes: Vec<u8>,
    split: Split,
    fold: Fold,
    /// The heaps rare under `split`, heap 0 among them when its value is,
    /// increasing.
    rare: Vec<usize>,
    /// `unfold[k mod 2][rare][byte]`: the value of heap `k` of that class
    /// whose byte is `byte`.
    unfold: Box<[[[u16; 256]; 2]; 2]>,
}

impl FoldedCells {
    /// The folded table of the values `bytes` (below 256, each its own
    /// fold) under the split of fewest rare heaps for `counts`, their
    /// counts by heap parity and those of a value about to be pushed (see
    /// [`split_for`]); the bytes back if no split folds them.
    pub(crate) fn from_bytes(
        bytes: Vec<u8>,
        counts: &[Vec<u64>; 2],
    ) -> Result<FoldedCells, Vec<u8>> {
        let Some((split, fold)) = split_for(counts) else {
            return Err(bytes);
        };
        let rare = (0..bytes.len())
            .filter(|&k| split.is_rare(k, u32::from(bytes[k])))
            .collect();
        Ok(FoldedCells::new(bytes, split, fold, rare))
    }

    /// This table folded again under the split [`split_for`] picks for
    /// `counts`, if one does (and the memory for it is there).
    pub(crate) fn refolded(&self, counts: &[Vec<u64>; 2]) -> Option<FoldedCells> {
        let (split, fold) = split_for(counts)?;
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(self.bytes.capacity()).ok()?;
        let mut rare = Vec::new();
        self.stretches(0, self.len(), |first, values| {
            for (k, &v) in (first..).zip(values) {
                let v = u32::from(v);
                if split.is_rare(k, v) {
                    rare.push(k);
                }
                bytes.push(fold.of(v));
            }
        });
        Some(FoldedCells::new(bytes, split, fold, rare))
    }

    fn new(bytes: Vec<u8>, split: Split, fold: Fold, rare: Vec<usize>) -> FoldedCells {
        let mut unfold = Box::new([[[0u16; 256]; 2]; 2]);
        for (parity, classes) in unfold.iter_mut().enumerate() {
            for (class, values) in classes.iter_mut().enumerate() {
                for (byte, value) in values.iter_mut().enumerate() {
                    *value = split.unfold(fold, byte as u8, parity, class == 1) as u16;
                }
            }
        }
        FoldedCells {
            bytes,
            split,
            fold,
            rare,
            unfold,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    /// How many heaps are listed rare.
    #[cfg(test)]
    pub(crate) fn rare_heaps(&self) -> usize {
        self.rare.len()
    }

    /// The value of heap `k < len`.
    #[inline]
    pub(crate) fn value(&self, k: usize) -> u32 {
        let rare = self.rare.binary_search(&k).is_ok();
        self.unfolded(k, rare, self.bytes[k])
    }

    #[inline(always)]
    fn unfolded(&self, k: usize, rare: bool, byte: u8) -> u32 {
        u32::from(self.unfold[k & 1][usize::from(rare)][usize::from(byte)])
    }

    /// A reader of single values in constant time, for searches that read
    /// heaps out of order: the rare heaps as a bit set up to the last one
    /// (every heap past it is common), where [`Self::value`] searches the
    /// rare list.
    pub(crate) fn reader(&self) -> Reader<'_> {
        let end = self.rare.last().map_or(0, |&k| k + 1);
        let mut rare = vec![0u64; end.div_ceil(64)];
        for &k in &self.rare {
            rare[k / 64] |= 1 << (k % 64);
        }
        Reader { cells: self, rare }
    }

    /// Appends `g(len) = v`; `false`, with nothing appended, when `v` is
    /// not below 512 or one more rare heap is more than the table keeps.
    #[inline]
    pub(crate) fn push(&mut self, v: u32) -> bool {
        let k = self.bytes.len();
        if v >= self.fold.domain() {
            return false;
        }
        if self.split.is_rare(k, v) {
            if self.rare.len() >= rare_limit(k + 1) {
                return false;
            }
            self.rare.push(k);
        }
        self.bytes.push(self.fold.of(v));
        true
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        self.bytes.truncate(len);
        let kept = self.rare.partition_point(|&k| k < len);
        self.rare.truncate(kept);
    }

    pub(crate) fn try_reserve_exact(
        &mut self,
        additional: usize,
    ) -> Result<(), std::collections::TryReserveError> {
        self.bytes.try_reserve_exact(additional)
    }

    /// Calls `visit(first, values)` for the values of heaps `from..to` in
    /// order, a stretch of at most [`STRETCH`] at a time.
    pub(crate) fn stretches(&self, from: usize, to: usize, mut visit: impl FnMut(usize, &[u16])) {
        let mut stretch = Vec::with_capacity(STRETCH);
        let mut next_rare = self.first_rare(from);
        let mut first = from;
        while first < to {
            let end = to.min(first + STRETCH);
            stretch.clear();
            for k in first..end {
                let rare = self.rare.get(next_rare) == Some(&k);
                next_rare += usize::from(rare);
                stretch.push(self.unfold[k & 1][usize::from(rare)][usize::from(self.bytes[k])]);
            }
            visit(first, &stretch);
            first = end;
        }
    }

    /// The values of heaps `0..len`, two bytes each.
    pub(crate) fn widened(&self) -> Vec<u16> {
        let mut wide = Vec::with_capacity(self.bytes.capacity());
        self.stretches(0, self.len(), |_, values| wide.extend_from_slice(values));
        wide
    }

    /// `counts[k % 2][v]`: how many heaps `k` hold `v`, each vector running
    /// to the largest value: the bytes counted as common heaps, then each
    /// rare heap moved to its own value.
    pub(crate) fn counts_by_parity(&self) -> [Vec<u64>; 2] {
        let bytes = super::tally::<u8, 4>(&self.bytes);
        let mut counts = [vec![0u64; 512], vec![0u64; 512]];
        for (parity, bytes) in bytes.iter().enumerate() {
            for (byte, &count) in bytes.iter().enumerate() {
                counts[parity][self.unfold[parity][0][byte] as usize] += count;
            }
        }
        for &k in &self.rare {
            let byte = usize::from(self.bytes[k]);
            counts[k & 1][self.unfold[k & 1][0][byte] as usize] -= 1;
            counts[k & 1][self.unfold[k & 1][1][byte] as usize] += 1;
        }
        let size = counts
            .iter()
            .filter_map(|c| c.iter().rposition(|&n| n > 0))
            .max()
            .map_or(0, |top| top + 1);
        counts.map(|mut c| {
            c.truncate(size);
            c
        })
    }

    /// Whether heaps `a..a + len` and `b..b + len` (both within the table)
    /// hold the same values: the same bytes where neither range holds a
    /// rare heap and the heaps of both unfold alike (a plain split, or
    /// ranges an even distance apart); else value by value.
    pub(crate) fn ranges_equal(&self, a: usize, b: usize, len: usize) -> bool {
        let (mut rare_a, mut rare_b) = (self.first_rare(a), self.first_rare(b));
        let no_rare = |i: usize, start: usize| self.rare.get(i).is_none_or(|&k| k >= start + len);
        if no_rare(rare_a, a)
            && no_rare(rare_b, b)
            && (self.split.parity.is_none() || (a ^ b) & 1 == 0)
        {
            return self.bytes[a..a + len] == self.bytes[b..b + len];
        }
        (0..len).all(|i| {
            let value = |k: usize, next: &mut usize| {
                let rare = self.rare.get(*next) == Some(&k);
                *next += usize::from(rare);
                self.unfolded(k, rare, self.bytes[k])
            };
            value(a + i, &mut rare_a) == value(b + i, &mut rare_b)
        })
    }

    /// The index in the rare list of the first rare heap from `k` on.
    fn first_rare(&self, k: usize) -> usize {
        self.rare.partition_point(|&r| r < k)
    }
}

/// See [`FoldedCells::reader`].
pub(crate) struct Reader<'a> {
    cells: &'a FoldedCells,
    /// Bit `k % 64` of word `k / 64` for rare heap `k`.
    rare: Vec<u64>,
}

impl Reader<'_> {
    /// The value of heap `k < len`.
    #[inline]
    pub(crate) fn value(&self, k: usize) -> u32 {
        let rare = self
            .rare
            .get(k / 64)
            .is_some_and(|w| w >> (k % 64) & 1 != 0);
        self.cells.unfolded(k, rare, self.cells.bytes[k])
    }
}

/// The split of fewest rare heaps (plain or position-parity, either
/// `rho`) for a table whose values occur `counts` times by heap parity,
/// and its fold, if every value is below 512 and the rare heaps are few
/// enough to leave room for more (half of [`rare_limit`]).
fn split_for(counts: &[Vec<u64>; 2]) -> Option<(Split, Fold)> {
    if counts.iter().any(|c| c.len() > 512) {
        return None;
    }
    let (rare_heaps, split) = fewest_rare(counts, &[0, 1])?;
    let heaps = counts.iter().flatten().sum::<u64>() as usize;
    if rare_heaps as usize > rare_limit(heaps) / 2 {
        return None;
    }
    Some((split, Fold::for_mask(split.mask)?))
}

/// The rare heaps a folded table of `heaps` heaps may list.
fn rare_limit(heaps: usize) -> usize {
    RARE_FREE + heaps / RARE_SHARE
}
