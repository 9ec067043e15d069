//! [`ValueTable`]: the Grundy values of heaps `0..len`, stored compactly.
//!
//! Most heap games have small values — every octal game solved so far stays
//! below 256 for hundreds of millions of heaps — so a table keeps one byte
//! per heap and widens to two, then four, only when a value needs it. That
//! is what lets a run to `4·10^8` heaps fit in well under a gigabyte. Past
//! 255, values below 512 stay at one byte a heap where a split of the
//! values into rare and common ones leaves few rare heaps (see the
//! `folded` module): the sparse octal games whose values pass 255 do.

mod folded;

use std::collections::TryReserveError;

use crate::Nimber;
pub(crate) use folded::FoldedCells;

/// The values of heaps `0..len()`, one, two or four bytes each: the
/// narrowest width that holds every value pushed so far (values below 512
/// at one byte where few heaps are rare, see [`ValueSlice::Folded`]).
///
/// ```
/// use grundy::{Nimber, ValueSlice, ValueTable};
/// let mut table = ValueTable::new();
/// table.push(Nimber::new(3));
/// assert_eq!(table.width(), 1);
/// // Past 255, values below 512 stay at a byte a heap, folded, where a
/// // split of the values into rare and common ones leaves few heaps rare.
/// table.push(Nimber::new(300));
/// assert!(matches!(table.as_slice(), ValueSlice::Folded(_)));
/// assert_eq!((table.width(), table.at(0).get(), table.at(1).get()), (1, 3, 300));
/// table.push(Nimber::new(70_000)); // widens to four bytes, keeping the values
/// assert_eq!((table.width(), table.at(0).get(), table.at(1).get()), (4, 3, 300));
/// ```
#[derive(Clone, Debug)]
pub struct ValueTable {
    cells: Cells,
}

/// A table's storage, at its current width.
#[derive(Clone, Debug)]
pub(crate) enum Cells {
    U8(Vec<u8>),
    Folded(FoldedCells),
    U16(Vec<u16>),
    U32(Vec<Nimber>),
}

/// A borrowed view of a table's values at their stored width, for loops
/// that run once per width instead of branching per value.
#[derive(Clone, Copy, Debug)]
pub enum ValueSlice<'a> {
    /// Every value is below 2^8.
    U8(&'a [u8]),
    /// Every value is below 2^9, folded to a byte, the heaps of one class
    /// listed apart.
    Folded(FoldedValues<'a>),
    /// Every value is below 2^16.
    U16(&'a [u16]),
    /// Any values.
    U32(&'a [Nimber]),
}

/// The values of a folded table (see the `folded` module): values below
/// 512, one byte a heap.
#[derive(Clone, Copy, Debug)]
pub struct FoldedValues<'a> {
    cells: &'a FoldedCells,
}

impl<'a> FoldedValues<'a> {
    /// How many heaps the table holds.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the table holds no heap.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of heap `k`, if the table holds it.
    pub fn get(&self, k: usize) -> Option<Nimber> {
        (k < self.len()).then(|| Nimber::new(self.cells.value(k)))
    }

    /// The values of heaps `0..len` (all of them for a longer `len`), two
    /// bytes each.
    pub fn to_u16(&self, len: usize) -> Vec<u16> {
        let mut wide = Vec::with_capacity(len.min(self.len()));
        let cells = self.cells;
        cells.stretches(0, len.min(cells.len()), |_, v| wide.extend_from_slice(v));
        wide
    }

    /// The storage.
    pub(crate) fn cells(&self) -> &'a FoldedCells {
        self.cells
    }
}

/// Applies a generic expression to the slice inside a [`ValueSlice`], or
/// the second expression to a folded table's [`FoldedValues`].
macro_rules! with_slice {
    ($slice:expr, $s:ident => $body:expr, folded $f:ident => $folded:expr) => {
        match $slice {
            $crate::ValueSlice::U8($s) => $body,
            $crate::ValueSlice::U16($s) => $body,
            $crate::ValueSlice::U32($s) => $body,
            $crate::ValueSlice::Folded($f) => $folded,
        }
    };
}
pub(crate) use with_slice;

impl Default for ValueTable {
    fn default() -> Self {
        ValueTable::new()
    }
}

impl ValueTable {
    /// An empty table, one byte wide.
    pub fn new() -> ValueTable {
        ValueTable {
            cells: Cells::U8(Vec::new()),
        }
    }

    /// How many heaps the table holds.
    pub fn len(&self) -> usize {
        match &self.cells {
            Cells::U8(c) => c.len(),
            Cells::Folded(c) => c.len(),
            Cells::U16(c) => c.len(),
            Cells::U32(c) => c.len(),
        }
    }

    /// Whether the table holds no heap.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes per stored value: 1, 2 or 4 (1 for a folded table, whose rare
    /// heaps are listed apart).
    pub fn width(&self) -> usize {
        match &self.cells {
            Cells::U8(_) | Cells::Folded(_) => 1,
            Cells::U16(_) => 2,
            Cells::U32(_) => 4,
        }
    }

    /// The value of heap `n`, if computed.
    #[inline]
    pub fn get(&self, n: usize) -> Option<Nimber> {
        match &self.cells {
            Cells::U8(c) => c.get(n).map(|&v| Nimber::new(u32::from(v))),
            Cells::Folded(c) => (n < c.len()).then(|| Nimber::new(c.value(n))),
            Cells::U16(c) => c.get(n).map(|&v| Nimber::new(u32::from(v))),
            Cells::U32(c) => c.get(n).copied(),
        }
    }

    /// The value of heap `n`.
    ///
    /// # Panics
    /// When `n >= len()`, like indexing a slice.
    #[inline]
    pub fn at(&self, n: usize) -> Nimber {
        self.get(n)
            .unwrap_or_else(|| panic!("heap {n} is past the table of {} heaps", self.len()))
    }

    /// The values at their stored width.
    pub fn as_slice(&self) -> ValueSlice<'_> {
        match &self.cells {
            Cells::U8(c) => ValueSlice::U8(c),
            Cells::Folded(cells) => ValueSlice::Folded(FoldedValues { cells }),
            Cells::U16(c) => ValueSlice::U16(c),
            Cells::U32(c) => ValueSlice::U32(c),
        }
    }

    /// Appends the value of the next heap, widening the table if needed: a
    /// table of bytes to a folded one for a value below 512 when few heaps
    /// would be rare (else to two bytes), a folded table to two bytes when
    /// a value is 512 or more or the rare heaps become too many for the
    /// split (unless another split folds the table with fewer).
    #[inline]
    pub fn push(&mut self, value: Nimber) {
        let v = value.get();
        loop {
            let pushed = match &mut self.cells {
                Cells::U8(c) if v <= 0xff => {
                    c.push(v as u8);
                    true
                }
                Cells::Folded(c) => c.push(v),
                Cells::U16(c) if v <= 0xffff => {
                    c.push(v as u16);
                    true
                }
                Cells::U32(c) => {
                    c.push(value);
                    true
                }
                _ => false,
            };
            if pushed || self.fold_with(v) {
                return;
            }
            self.widen();
        }
    }

    /// Folds a table of bytes, or a folded one again, under the split with
    /// the fewest rare heaps for its values and `v` at the next heap, and
    /// pushes `v`; `false`, the table unchanged, when `v` is not below 512,
    /// the table is wider, or the split would leave too many rare heaps.
    #[cold]
    fn fold_with(&mut self, v: u32) -> bool {
        if v >= 512 || !matches!(self.cells, Cells::U8(_) | Cells::Folded(_)) {
            return false;
        }
        let mut counts = self.counts_by_parity();
        let parity = &mut counts[self.len() & 1];
        parity.resize(parity.len().max(v as usize + 1), 0);
        parity[v as usize] += 1;
        let folded = match std::mem::replace(&mut self.cells, Cells::U8(Vec::new())) {
            Cells::U8(bytes) => FoldedCells::from_bytes(bytes, &counts).map_err(Cells::U8),
            Cells::Folded(cells) => cells.refolded(&counts).ok_or(Cells::Folded(cells)),
            _ => unreachable!("matched above"),
        };
        match folded {
            Ok(mut folded) => {
                // It takes `v`, whose counts chose the split; if it did
                // not, the caller widens it.
                let pushed = folded.push(v);
                self.cells = Cells::Folded(folded);
                pushed
            }
            Err(cells) => {
                self.cells = cells;
                false
            }
        }
    }

    /// Widens the table (one byte to two, two to four; a folded table to
    /// two), keeping the values.
    pub(crate) fn widen(&mut self) {
        self.cells = match std::mem::replace(&mut self.cells, Cells::U8(Vec::new())) {
            Cells::U8(c) => {
                let mut wide = Vec::with_capacity(c.capacity());
                wide.extend(c.into_iter().map(u16::from));
                Cells::U16(wide)
            }
            Cells::Folded(c) => Cells::U16(c.widened()),
            Cells::U16(c) => {
                let mut wide = Vec::with_capacity(c.capacity());
                wide.extend(c.into_iter().map(|v| Nimber::new(u32::from(v))));
                Cells::U32(wide)
            }
            wide @ Cells::U32(_) => wide,
        };
    }

    /// The storage, for solvers that fill it at its native width.
    pub(crate) fn cells_mut(&mut self) -> &mut Cells {
        &mut self.cells
    }

    /// Reserves room for `additional` more values at the current width.
    pub fn try_reserve_exact(&mut self, additional: usize) -> Result<(), TryReserveError> {
        match &mut self.cells {
            Cells::U8(c) => c.try_reserve_exact(additional),
            Cells::Folded(c) => c.try_reserve_exact(additional),
            Cells::U16(c) => c.try_reserve_exact(additional),
            Cells::U32(c) => c.try_reserve_exact(additional),
        }
    }

    /// Keeps the first `len` heaps.
    pub fn truncate(&mut self, len: usize) {
        match &mut self.cells {
            Cells::U8(c) => c.truncate(len),
            Cells::Folded(c) => c.truncate(len),
            Cells::U16(c) => c.truncate(len),
            Cells::U32(c) => c.truncate(len),
        }
    }

    /// The values in heap order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            slice: self.as_slice(),
            front: 0,
            back: self.len(),
            stretch: (0, Vec::new()),
        }
    }

    /// The largest value, if any.
    pub fn max(&self) -> Option<Nimber> {
        with_slice!(self.as_slice(), s => largest(s).map(Nimber::new),
            folded f => self.largest_first(f.len()).map(|(top, _)| top))
    }

    /// The largest of the values of heaps `0..len` and the first heap
    /// holding it, if there are any: in loops at the table's width, which
    /// vectorise (by [`Self::iter`], value by value, it was 1.6% of a
    /// profile of `analyze 0.1777 --to 10^8`).
    pub fn largest_first(&self, len: usize) -> Option<(Nimber, usize)> {
        with_slice!(self.as_slice(), s => {
            let s = &s[..len.min(s.len())];
            let top = largest(s)?;
            let at = s.iter().position(|&c| Into::<u32>::into(c) == top)?;
            Some((Nimber::new(top), at))
        }, folded f => {
            let mut first: Option<(u32, usize)> = None;
            f.cells().stretches(0, len.min(f.len()), |from, values| {
                if let Some(top) = largest(values)
                    && first.is_none_or(|(best, _)| top > best)
                {
                    let at = values.iter().position(|&v| u32::from(v) == top);
                    first = at.map(|at| (top, from + at));
                }
            });
            first.map(|(top, at)| (Nimber::new(top), at))
        })
    }

    /// How many heaps hold each value, even and odd heaps apart:
    /// `counts[k % 2][v]` is the number of heaps `k` with `g(k) = v`. Both
    /// vectors run to the largest value (empty for an empty table).
    pub fn counts_by_parity(&self) -> [Vec<u64>; 2] {
        match self.as_slice() {
            ValueSlice::U8(s) => tally::<u8, 4>(s),
            ValueSlice::Folded(f) => f.cells().counts_by_parity(),
            ValueSlice::U16(s) => tally::<u16, 4>(s),
            // Values may be large: no tallies beyond the two the answer is.
            ValueSlice::U32(s) => tally::<Nimber, 2>(s),
        }
    }

    /// The values as a plain vector, four bytes each.
    pub fn to_vec(&self) -> Vec<Nimber> {
        self.iter().collect()
    }

    /// Whether heaps `a..a + len` and `b..b + len` have equal values
    /// (`false` when either range runs past the table).
    pub fn ranges_equal(&self, a: usize, b: usize, len: usize) -> bool {
        let within = |start: usize| start.checked_add(len).is_some_and(|end| end <= self.len());
        within(a)
            && within(b)
            && with_slice!(self.as_slice(), s => s[a..a + len] == s[b..b + len],
                folded f => f.cells().ranges_equal(a, b, len))
    }
}

/// The largest of `cells`, as a fold over plain integers (which compiles
/// to vector maxima; `Iterator::max` over references does not).
fn largest<T: Copy + Into<u32>>(cells: &[T]) -> Option<u32> {
    let top = cells.iter().fold(0, |top: u32, &c| top.max(c.into()));
    (!cells.is_empty()).then_some(top)
}

/// How many of `cells` hold each value (index: value; as long as the
/// largest value allows), counted as [`tally`] counts.
pub(crate) fn value_counts<T: Copy + Into<u32>>(cells: &[T]) -> Vec<u64> {
    let [mut counts, odd] = tally::<T, 4>(cells);
    for (count, more) in counts.iter_mut().zip(odd) {
        *count += more;
    }
    counts
}

/// The counts of [`ValueTable::counts_by_parity`], kept in `LANES` (even)
/// tallies, one per heap modulo `LANES`: where a value repeats, the
/// increments of neighbouring heaps go to different counters instead of
/// each waiting for the last one's store.
pub(crate) fn tally<T: Copy + Into<u32>, const LANES: usize>(cells: &[T]) -> [Vec<u64>; 2] {
    let size = largest(cells).map_or(0, |top| top as usize + 1);
    let mut tallies: [Vec<u64>; LANES] = std::array::from_fn(|_| vec![0; size]);
    let mut runs = cells.chunks_exact(LANES);
    for run in runs.by_ref() {
        for (tally, &c) in tallies.iter_mut().zip(run) {
            tally[c.into() as usize] += 1;
        }
    }
    for (tally, &c) in tallies.iter_mut().zip(runs.remainder()) {
        tally[c.into() as usize] += 1;
    }
    let mut lanes = tallies.into_iter();
    let mut counts = [(); 2].map(|()| lanes.next().unwrap_or_default());
    for (lane, tally) in lanes.enumerate() {
        for (sum, count) in counts[lane % 2].iter_mut().zip(tally) {
            *sum += count;
        }
    }
    counts
}

impl From<Vec<Nimber>> for ValueTable {
    fn from(values: Vec<Nimber>) -> ValueTable {
        values.into_iter().collect()
    }
}

impl FromIterator<Nimber> for ValueTable {
    fn from_iter<I: IntoIterator<Item = Nimber>>(values: I) -> ValueTable {
        let mut table = ValueTable::new();
        table.extend(values);
        table
    }
}

impl Extend<Nimber> for ValueTable {
    fn extend<I: IntoIterator<Item = Nimber>>(&mut self, values: I) {
        let values = values.into_iter();
        // Reserving is only a hint here; a failure shows when pushing.
        let _ = self.try_reserve_exact(values.size_hint().0);
        for v in values {
            self.push(v);
        }
    }
}

/// Tables are equal when they hold the same values, whatever their widths.
impl PartialEq for ValueTable {
    fn eq(&self, other: &ValueTable) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for ValueTable {}

impl<'a> IntoIterator for &'a ValueTable {
    type Item = Nimber;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// Iterator over a [`ValueTable`]'s values, from [`ValueTable::iter`].
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    slice: ValueSlice<'a>,
    front: usize,
    back: usize,
    /// A folded table's values from a heap on, decoded a stretch at a time
    /// for the front.
    stretch: (usize, Vec<u16>),
}

impl Iter<'_> {
    #[inline]
    fn value(&self, n: usize) -> Nimber {
        with_slice!(self.slice, s => Nimber::new(s[n].into()),
            folded f => Nimber::new(f.cells().value(n)))
    }
}

impl Iterator for Iter<'_> {
    type Item = Nimber;

    #[inline]
    fn next(&mut self) -> Option<Nimber> {
        if self.front >= self.back {
            return None;
        }
        self.front += 1;
        let n = self.front - 1;
        let ValueSlice::Folded(f) = self.slice else {
            return Some(self.value(n));
        };
        let (first, values) = &mut self.stretch;
        if !(*first..*first + values.len()).contains(&n) {
            values.clear();
            f.cells().stretches(n, self.back.min(n + 4096), |_, v| {
                values.extend_from_slice(v)
            });
            *first = n;
        }
        Some(Nimber::new(u32::from(values[n - *first])))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.back - self.front;
        (left, Some(left))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Nimber> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.value(self.back)
        })
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn counts_by_parity_count_every_heap_once(
            values in prop::collection::vec(prop_oneof![0u32..300, 0u32..70_000, 0u32..5], 0..70),
        ) {
            let table: ValueTable = values.iter().map(|&v| Nimber::new(v)).collect();
            let counts = table.counts_by_parity();
            let size = values.iter().map(|&v| v as usize + 1).max().unwrap_or(0);
            for (parity, counts) in counts.iter().enumerate() {
                prop_assert_eq!(counts.len(), size);
                for (v, &count) in counts.iter().enumerate() {
                    let heaps = values
                        .iter()
                        .enumerate()
                        .filter(|&(k, &w)| k % 2 == parity && w as usize == v)
                        .count();
                    prop_assert_eq!(count, heaps as u64, "value {} at parity {}", v, parity);
                }
            }
        }

        #[test]
        fn holds_what_was_pushed_at_the_narrowest_width(
            values in prop::collection::vec(prop_oneof![0u32..300, 0u32..70_000, any::<u32>()], 0..64),
        ) {
            let table: ValueTable = values.iter().map(|&v| Nimber::new(v)).collect();
            let max = values.iter().copied().max().unwrap_or(0);
            let width = if max < 1 << 8 { 1 } else if max < 1 << 16 { 2 } else { 4 };
            let folded = matches!(table.as_slice(), ValueSlice::Folded(_));
            prop_assert_eq!(table.width(), if folded { 1 } else { width });
            prop_assert!(!folded || max < 512);
            prop_assert_eq!(table.iter().map(Nimber::get).collect::<Vec<_>>(), values.clone());
            prop_assert_eq!(table.iter().rev().map(Nimber::get).collect::<Vec<_>>(),
                values.iter().rev().copied().collect::<Vec<_>>());
            prop_assert_eq!(table.max().map(Nimber::get), values.iter().copied().max());
            for len in [0, values.len() / 2, values.len() + 1] {
                let prefix = &values[..len.min(values.len())];
                let first = prefix.iter().copied().max().map(|top| {
                    (top, prefix.iter().position(|&v| v == top).unwrap())
                });
                prop_assert_eq!(table.largest_first(len).map(|(v, at)| (v.get(), at)), first);
            }
            for (n, &v) in values.iter().enumerate() {
                prop_assert_eq!(table.at(n).get(), v);
            }
            prop_assert_eq!(table.get(values.len()), None);
        }
    }

    /// Values below 512 of a sparse-like table: every value of `chi = 1`
    /// under `mask` (`chi = 1 ^ (k mod 2)` at heap `k` when `by_position`),
    /// but at the heaps listed in `rare` (taken modulo the length), whose
    /// values are of the other `chi`.
    fn sparse_values(mask: u32, by_position: bool, seeds: &[u32], rare: &[usize]) -> Vec<u32> {
        let chi = |v: u32| (v & mask).count_ones() & 1;
        let fit = |v: u32, want: u32| {
            if chi(v) == want {
                v
            } else {
                v ^ (mask & mask.wrapping_neg())
            }
        };
        let common = |k: usize| 1 ^ (u32::from(by_position) & k as u32 & 1);
        let mut values: Vec<u32> = seeds
            .iter()
            .enumerate()
            .map(|(k, &v)| fit(v % 512, common(k)))
            .collect();
        let len = values.len();
        for &k in rare {
            values[k % len] = fit(values[k % len], 1 ^ common(k % len));
        }
        values
    }

    proptest! {
        /// A table of values up to 511 with few rare heaps is folded, and
        /// reads back what was pushed by every reader, at every length it
        /// is cut to; a value past 511 widens it to two bytes.
        #[test]
        fn a_folded_table_holds_what_was_pushed(
            mask in 1u32..512,
            by_position in any::<bool>(),
            seeds in prop::collection::vec(256u32..512, 1..6000),
            rare in prop::collection::vec(any::<usize>(), 0..40),
            cut in any::<prop::sample::Index>(),
            a in any::<prop::sample::Index>(),
            b in any::<prop::sample::Index>(),
        ) {
            let values = sparse_values(mask, by_position, &seeds, &rare);
            let mut table: ValueTable = values.iter().map(|&v| Nimber::new(v)).collect();
            let folded = matches!(table.as_slice(), ValueSlice::Folded(_));
            prop_assert!(folded, "{} values, {} rare", values.len(), rare.len());
            prop_assert_eq!(table.width(), 1);
            let check = |table: &ValueTable, values: &[u32]| -> Result<(), TestCaseError> {
                // The same values, two bytes each.
                let mut plain = ValueTable::new();
                plain.widen();
                plain.extend(values.iter().map(|&v| Nimber::new(v)));
                prop_assert_eq!(plain.width(), 2);
                prop_assert_eq!(table.iter().map(Nimber::get).collect::<Vec<_>>(), values.to_vec());
                prop_assert_eq!(table.iter().rev().map(Nimber::get).collect::<Vec<_>>(),
                    values.iter().rev().copied().collect::<Vec<_>>());
                for (n, &v) in values.iter().enumerate() {
                    prop_assert_eq!(table.get(n).map(Nimber::get), Some(v));
                }
                prop_assert_eq!(table.get(values.len()), None);
                prop_assert_eq!(table.counts_by_parity(), plain.counts_by_parity());
                prop_assert_eq!(table.max(), plain.max());
                for len in [0, values.len() / 3, values.len() + 1] {
                    prop_assert_eq!(table.largest_first(len), plain.largest_first(len));
                }
                if let ValueSlice::Folded(f) = table.as_slice() {
                    let wide: Vec<u32> = f.to_u16(usize::MAX).into_iter().map(u32::from).collect();
                    prop_assert_eq!(wide, values.to_vec());
                    let reader = f.cells().reader();
                    let read: Vec<u32> = (0..values.len()).map(|k| reader.value(k)).collect();
                    prop_assert_eq!(read, values.to_vec());
                }
                prop_assert!(table == &plain);
                Ok(())
            };
            check(&table, &values)?;
            let (a, b) = (a.index(values.len()), b.index(values.len()));
            let len = values.len() - a.max(b);
            prop_assert_eq!(table.ranges_equal(a, b, len), values[a..a + len] == values[b..b + len]);
            let period = 1 + a % 7;
            let periodic: Vec<u32> = (0..values.len()).map(|n| values[n % period]).collect();
            let repeats: ValueTable = periodic.iter().map(|&v| Nimber::new(v)).collect();
            if matches!(repeats.as_slice(), ValueSlice::Folded(_)) {
                prop_assert!(repeats.ranges_equal(0, period, values.len() - period));
            }
            let cut = cut.index(values.len() + 1);
            table.truncate(cut);
            check(&table, &values[..cut])?;
            table.push(Nimber::new(512));
            prop_assert_eq!(table.width(), 2);
            prop_assert_eq!(table.at(cut).get(), 512);
            check(&table, &[&values[..cut], &[512]].concat())?;
        }

        /// A folded table whose rare heaps grow past what its split keeps
        /// folds again under another split, or widens, and keeps its values.
        #[test]
        fn a_folded_table_keeps_its_values_when_its_split_no_longer_fits(
            masks in (1u32..512, 1u32..512),
            seeds in prop::collection::vec(256u32..512, 1..3000),
            more in prop::collection::vec(0u32..512, 1..3000),
        ) {
            let mut values = sparse_values(masks.0, false, &seeds, &[]);
            values.extend(sparse_values(masks.1, true, &more, &[]));
            let table: ValueTable = values.iter().map(|&v| Nimber::new(v)).collect();
            prop_assert_eq!(table.iter().map(Nimber::get).collect::<Vec<_>>(), values);
        }
    }

    /// A folded table whose rare heaps outgrow its split folds again under
    /// a split that fits its values: even values from 256 on (common only
    /// under mask 256 and masks like it), then odd ones below 256 (rare
    /// under those, common with the even ones under mask 257).
    #[test]
    fn a_folded_table_folds_again_when_its_rare_heaps_outgrow_its_split() {
        let values: Vec<u32> = (0..12_000u32)
            .map(|n| match n < 300 {
                true => 256 + 2 * ((n * 37) % 128),
                false => 1 + 2 * ((n * 91) % 128),
            })
            .collect();
        let table: ValueTable = values[..300].iter().map(|&v| Nimber::new(v)).collect();
        let ValueSlice::Folded(first) = table.as_slice() else {
            panic!("not folded")
        };
        assert_eq!(first.cells().rare_heaps(), 0);
        let table: ValueTable = values.iter().map(|&v| Nimber::new(v)).collect();
        let ValueSlice::Folded(folded) = table.as_slice() else {
            panic!("not folded again")
        };
        assert_eq!(folded.cells().rare_heaps(), 0);
        assert_eq!(table.iter().map(Nimber::get).collect::<Vec<_>>(), values);
    }

    /// Values with no split of few rare heaps (each below 512 as often)
    /// are kept at two bytes.
    #[test]
    fn values_without_a_sparse_split_take_two_bytes() {
        let values: Vec<u32> = (0..20_000u32)
            .map(|n| (n.wrapping_mul(2_654_435_761) >> 7) % 512)
            .collect();
        let table: ValueTable = values.iter().map(|&v| Nimber::new(v)).collect();
        assert!(matches!(table.as_slice(), ValueSlice::U16(_)));
        assert_eq!(table.iter().map(Nimber::get).collect::<Vec<_>>(), values);
    }

    /// Under a position-parity split, heaps an odd distance apart may
    /// share a byte and differ in value: after 1 and 0 at even and odd
    /// heaps, the split of mask 1 by position makes every heap common, and
    /// 257 and 0 both fold to 0 under it.
    #[test]
    fn folded_ranges_an_odd_distance_apart_compare_by_value() {
        let value = |k: usize| match (k < 2000, k % 2) {
            (_, 1) => 0,
            (true, _) => 1,
            (false, _) => 257,
        };
        let table: ValueTable = (0..2100).map(|k| Nimber::new(value(k))).collect();
        let ValueSlice::Folded(folded) = table.as_slice() else {
            panic!("not folded")
        };
        assert_eq!(folded.cells().rare_heaps(), 0);
        assert!(!table.ranges_equal(2000, 2001, 50));
        assert!(table.ranges_equal(2000, 2002, 50));
    }

    #[test]
    fn equality_ignores_width() {
        let narrow: ValueTable = [1, 2].map(Nimber::new).into_iter().collect();
        let mut wide = narrow.clone();
        wide.widen();
        assert_eq!(wide.width(), 2);
        assert_eq!(narrow, wide);
        wide.push(Nimber::new(0));
        assert_ne!(narrow, wide);
    }

    #[test]
    fn compares_ranges() {
        let table: ValueTable = [1, 2, 1, 2, 3].map(Nimber::new).into_iter().collect();
        assert!(table.ranges_equal(0, 2, 2));
        assert!(!table.ranges_equal(0, 2, 3));
        assert!(!table.ranges_equal(3, 4, 2));
        assert!(!table.ranges_equal(usize::MAX, 0, 2));
    }
}
