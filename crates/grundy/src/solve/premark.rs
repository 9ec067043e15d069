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
//! A chunk covers only the rare heaps whose partner is already in the
//! table for every heap of the chunk, and, for a digit that forbids equal
//! parts, none that could be the equal split `(r, r)` of one of them; the
//! heap's own computation gathers the others (see [`Premarks::covered`]).

use std::ops::Range;

use super::SparseSolver;
use super::sparse::{Cell, Rares, Split};

/// Heaps a chunk premarks.
pub(super) const HEAPS: usize = 16;

/// The rare-split marks of heaps `first..first + HEAPS`, made ahead.
#[derive(Default)]
pub(super) struct Premarks {
    /// The chunk's first heap.
    first: usize,
    /// The number of values: every mark lies below it.
    size: usize,
    /// `marks[j * size..(j + 1) * size]` for heap `first + j`.
    marks: Vec<u8>,
    /// Per splitting digit, in the solver's order, the indices into the
    /// rare list whose splits are marked: two ranges, in increasing order.
    covered: Vec<[Range<usize>; 2]>,
    /// The split the rare list was made for: within a run the list of one
    /// split only grows, so its indices stay valid.
    split: Option<Split>,
}

impl Premarks {
    /// Marks the rare splits of heaps `first..first + HEAPS` whose partners
    /// `table` (heaps `0..table.len()`) holds. Inlined into the engine's
    /// loops, which are compiled for the CPU's instruction sets.
    #[inline(always)]
    pub(super) fn make<C: Cell>(
        &mut self,
        solver: &SparseSolver,
        first: usize,
        table: &[C],
        rares: &Rares<'_>,
    ) {
        if solver.splits.is_empty() {
            // Nothing to gather: `of` finds no marks and heaps start clean.
            self.split = None;
            return;
        }
        let size = 1usize << rares.bits;
        self.first = first;
        self.size = size;
        self.marks.clear();
        self.marks.resize(HEAPS * size, 0);
        self.covered.clear();
        self.split = Some(rares.split);
        let last = first + HEAPS - 1;
        let rare = rares.rare;
        let point = |bound: usize| rare.partition_point(|&r| r < bound);
        for &(t, unequal) in &solver.splits {
            // Every heap of the chunk pairs `r` with `first - t - r + j`:
            // below `first - t` for all of them, and `last - t - r` in the
            // table.
            let Some(top) = first.checked_sub(t) else {
                self.covered.push([0..0, 0..0]);
                continue;
            };
            let lo = point((last + 1).saturating_sub(t + table.len()));
            let hi = point(top).max(lo);
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
                self.mark_range(table, rares, top, range.clone());
            }
            self.covered.push(ranges);
        }
    }

    /// Marks `g(r) ^ g(top - r + j)` for heap `first + j`, every rare heap
    /// `r = rare[range]`.
    #[inline(always)]
    fn mark_range<C: Cell>(
        &mut self,
        table: &[C],
        rares: &Rares<'_>,
        top: usize,
        range: Range<usize>,
    ) {
        let Some((&smallest, &largest)) = rares
            .rare
            .get(range.clone())
            .and_then(|r| r.first().zip(r.last()))
        else {
            return;
        };
        // The partners run from `top - largest` to `top - smallest + HEAPS
        // - 1`; `make` chose the range so that they lie in the table.
        assert!(
            largest < top && top - smallest + HEAPS - 1 < table.len(),
            "a premarked partner lies in the table"
        );
        let size = self.size;
        let top_value = size - 1;
        let marks = &mut self.marks[..HEAPS * size];
        for (&r, &value) in rares.rare[range.clone()]
            .iter()
            .zip(&rares.rare_values[range])
        {
            // SAFETY: `top - r + HEAPS - 1 < table.len()` for every rare heap
            // of the range (checked above at its smallest, `r` increases),
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

    /// The marks and the covered rare indices of heap `n`, if this chunk
    /// holds it and was made for `split`'s rare list.
    pub(super) fn of(&self, n: usize, split: Split) -> Option<Premarked<'_>> {
        if self.split != Some(split) {
            return None;
        }
        let j = n.checked_sub(self.first).filter(|&j| j < HEAPS)?;
        Some(Premarked {
            marks: &self.marks[j * self.size..(j + 1) * self.size],
            covered: &self.covered,
        })
    }
}

/// What a heap's gather starts from: the marks its chunk made, and, per
/// splitting digit, the rare heaps they cover.
#[derive(Clone, Copy)]
pub(super) struct Premarked<'a> {
    pub(super) marks: &'a [u8],
    pub(super) covered: &'a [[Range<usize>; 2]],
}

/// The parts of `from..to` outside `covered` (two increasing ranges),
/// without index `skip`: the rare heaps a heap still gathers itself.
pub(super) fn uncovered(
    from: usize,
    to: usize,
    covered: &[Range<usize>; 2],
    skip: Option<usize>,
) -> impl Iterator<Item = Range<usize>> {
    let [first, second] = covered;
    let pieces = [
        from..first.start.clamp(from, to),
        first.end.clamp(from, to)..second.start.clamp(from, to),
        second.end.clamp(from, to)..to,
    ];
    pieces.into_iter().flat_map(move |piece| {
        let (before, after) = match skip {
            Some(i) if piece.contains(&i) => (piece.start..i, i + 1..piece.end),
            _ => (piece.clone(), piece.end..piece.end),
        };
        [before, after].into_iter().filter(|r| !r.is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::uncovered;

    fn pieces(
        from: usize,
        to: usize,
        covered: [std::ops::Range<usize>; 2],
        skip: Option<usize>,
    ) -> Vec<usize> {
        uncovered(from, to, &covered, skip).flatten().collect()
    }

    #[test]
    fn the_uncovered_indices_are_the_rest_of_the_range() {
        assert_eq!(pieces(0, 10, [2..4, 6..8], None), [0, 1, 4, 5, 8, 9]);
        assert_eq!(pieces(0, 10, [2..4, 6..8], Some(5)), [0, 1, 4, 8, 9]);
        assert_eq!(pieces(3, 7, [2..4, 6..8], Some(3)), [4, 5]);
        assert_eq!(pieces(0, 5, [0..0, 0..0], Some(2)), [0, 1, 3, 4]);
        assert_eq!(pieces(0, 5, [0..5, 5..5], None), Vec::<usize>::new());
    }
}
