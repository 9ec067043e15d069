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
        with_slice!(self.as_slice(), s => s.iter().max().map(|&v| Nimber::new(v.into())))
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
