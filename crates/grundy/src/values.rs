//! [`ValueTable`]: the Grundy values of heaps `0..len`, stored compactly.
//!
//! Most heap games have small values — every octal game solved so far stays
//! below 256 for hundreds of millions of heaps — so a table keeps one byte
//! per heap and widens to two, then four, only when a value needs it. That
//! is what lets a run to `4·10^8` heaps fit in well under a gigabyte.

use std::collections::TryReserveError;

use crate::Nimber;

/// The values of heaps `0..len()`, one, two or four bytes each: the
/// narrowest width that holds every value pushed so far.
///
/// ```
/// use grundy::{Nimber, ValueTable};
/// let mut table = ValueTable::new();
/// table.push(Nimber::new(3));
/// assert_eq!(table.width(), 1);
/// table.push(Nimber::new(300)); // widens to two bytes, keeping the values
/// assert_eq!((table.width(), table.at(0).get(), table.at(1).get()), (2, 3, 300));
/// ```
#[derive(Clone, Debug)]
pub struct ValueTable {
    cells: Cells,
}

/// A table's storage, at its current width.
#[derive(Clone, Debug)]
pub(crate) enum Cells {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<Nimber>),
}

/// A borrowed view of a table's values at their stored width, for loops
/// that run once per width instead of branching per value.
#[derive(Clone, Copy, Debug)]
pub enum ValueSlice<'a> {
    /// Every value is below 2^8.
    U8(&'a [u8]),
    /// Every value is below 2^16.
    U16(&'a [u16]),
    /// Any values.
    U32(&'a [Nimber]),
}

/// Applies a generic expression to the slice inside a [`ValueSlice`].
macro_rules! with_slice {
    ($slice:expr, $s:ident => $body:expr) => {
        match $slice {
            $crate::ValueSlice::U8($s) => $body,
            $crate::ValueSlice::U16($s) => $body,
            $crate::ValueSlice::U32($s) => $body,
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
            Cells::U16(c) => c.len(),
            Cells::U32(c) => c.len(),
        }
    }

    /// Whether the table holds no heap.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes per stored value: 1, 2 or 4.
    pub fn width(&self) -> usize {
        match &self.cells {
            Cells::U8(_) => 1,
            Cells::U16(_) => 2,
            Cells::U32(_) => 4,
        }
    }

    /// The value of heap `n`, if computed.
    #[inline]
    pub fn get(&self, n: usize) -> Option<Nimber> {
        match &self.cells {
            Cells::U8(c) => c.get(n).map(|&v| Nimber::new(u32::from(v))),
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
            Cells::U16(c) => ValueSlice::U16(c),
            Cells::U32(c) => ValueSlice::U32(c),
        }
    }

    /// Appends the value of the next heap, widening the table if needed.
    pub fn push(&mut self, value: Nimber) {
        while !self.fits(value) {
            self.widen();
        }
        match &mut self.cells {
            Cells::U8(c) => c.push(value.get() as u8),
            Cells::U16(c) => c.push(value.get() as u16),
            Cells::U32(c) => c.push(value),
        }
    }

    fn fits(&self, value: Nimber) -> bool {
        match self.cells {
            Cells::U8(_) => value.get() <= 0xff,
            Cells::U16(_) => value.get() <= 0xffff,
            Cells::U32(_) => true,
        }
    }

    /// Doubles the width (one byte to two, two to four), keeping the values.
    pub(crate) fn widen(&mut self) {
        self.cells = match std::mem::replace(&mut self.cells, Cells::U8(Vec::new())) {
            Cells::U8(c) => {
                let mut wide = Vec::with_capacity(c.capacity());
                wide.extend(c.into_iter().map(u16::from));
                Cells::U16(wide)
            }
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
            Cells::U16(c) => c.try_reserve_exact(additional),
            Cells::U32(c) => c.try_reserve_exact(additional),
        }
    }

    /// Keeps the first `len` heaps.
    pub fn truncate(&mut self, len: usize) {
        match &mut self.cells {
            Cells::U8(c) => c.truncate(len),
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
        }
    }

    /// The largest value, if any.
    pub fn max(&self) -> Option<Nimber> {
        with_slice!(self.as_slice(), s => largest(s).map(Nimber::new))
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
        })
    }

    /// How many heaps hold each value, even and odd heaps apart:
    /// `counts[k % 2][v]` is the number of heaps `k` with `g(k) = v`. Both
    /// vectors run to the largest value (empty for an empty table).
    pub fn counts_by_parity(&self) -> [Vec<u64>; 2] {
        match self.as_slice() {
            ValueSlice::U8(s) => tally::<u8, 4>(s),
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
        within(a) && within(b) && with_slice!(self.as_slice(), s => s[a..a + len] == s[b..b + len])
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
fn tally<T: Copy + Into<u32>, const LANES: usize>(cells: &[T]) -> [Vec<u64>; 2] {
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
}

impl Iter<'_> {
    #[inline]
    fn value(&self, n: usize) -> Nimber {
        with_slice!(self.slice, s => Nimber::new(s[n].into()))
    }
}

impl Iterator for Iter<'_> {
    type Item = Nimber;

    #[inline]
    fn next(&mut self) -> Option<Nimber> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.value(self.front - 1)
        })
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
            prop_assert_eq!(table.width(), width);
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
