//! Values of a maze ([`Maze`]): every square's, row by row with running
//! bitsets, and the figures played together.

use crate::rules::Maze;
use crate::{Nimber, Result};

/// The values of one row or column segment so far: a bitset of the words
/// from the lowest one set, so that a column holding one large value (every
/// column of a one-row map does) takes one word, not one per 64 values
/// below it.
///
/// `full` counts the words from 0 that hold every value: a mex never looks
/// at them again. A segment whose values run `0, 1, 2, …` (a long
/// corridor, the row of a one-row map) then costs a word a square, not
/// one per 64 values below it (which made long corridors quadratic).
#[derive(Clone, Default)]
struct Segment {
    /// The index of `words[0]` among all words.
    first: usize,
    words: Vec<u64>,
    /// Words `0..full` are all ones (so `first` is 0 when `full > 0`).
    full: usize,
}

#[cfg(test)]
thread_local! {
    /// Words a mex looked at, for the scaling test.
    static SCANNED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl Segment {
    fn clear(&mut self) {
        self.words.clear();
        self.full = 0;
    }

    /// Word `i` of the whole bitset.
    fn word(&self, i: usize) -> u64 {
        i.checked_sub(self.first)
            .and_then(|i| self.words.get(i))
            .copied()
            .unwrap_or(0)
    }

    fn insert(&mut self, value: u64) {
        let w = value as usize / 64;
        if self.words.is_empty() {
            self.first = w;
        } else if w < self.first {
            self.words
                .splice(0..0, std::iter::repeat_n(0, self.first - w));
            self.first = w;
        }
        let i = w - self.first;
        if i >= self.words.len() {
            self.words.resize(i + 1, 0);
        }
        self.words[i] |= 1 << (value % 64);
        if self.first == 0 {
            while self.words.get(self.full) == Some(&u64::MAX) {
                self.full += 1;
            }
        }
    }

    /// The smallest number in neither this segment nor `other`.
    fn mex_with(&self, other: &Segment) -> u64 {
        let end = |s: &Segment| {
            if s.words.is_empty() {
                0
            } else {
                s.first + s.words.len()
            }
        };
        let words = end(self).max(end(other));
        // Below either segment's full words the union is full too.
        let start = self.full.max(other.full);
        (start..words)
            .map(|i| {
                #[cfg(test)]
                SCANNED.with(|s| s.set(s.get() + 1));
                self.word(i) | other.word(i)
            })
            .zip(start..)
            .find(|&(word, _)| word != u64::MAX)
            .map_or(words as u64 * 64, |(word, i)| {
                i as u64 * 64 + u64::from(word.trailing_ones())
            })
    }
}

impl Maze {
    /// The figures played together, given the squares' [`Maze::values`]:
    /// who wins and every winning move (figure, square it moves to).
    pub fn play(&self, values: &[Vec<Option<Nimber>>]) -> crate::TokenSum<(usize, usize)> {
        let value = |(r, c): (usize, usize)| values[r][c].unwrap_or(Nimber::ZERO);
        crate::play_tokens(
            self.figures.iter().map(|&(_, at)| value(at)).collect(),
            |i| self.moves(self.figures[i].1).map(|to| (to, value(to))),
        )
    }

    /// The value of every square, `None` on walls; refused with
    /// [`Error::MemoryLimit`] before any work when [`Maze::values_bytes`]
    /// passes `memory_limit` bytes, and as soon as the running bitsets take
    /// it past the limit (counted once a row).
    ///
    /// A square's options are the floor squares left of it in its row
    /// segment and above it in its column segment (segments end at walls),
    /// so the values of those segments so far, kept as running bitsets, one
    /// for the row and one per column, are exactly its option values: each
    /// square costs a mex over two bitsets, not a walk over its moves (a
    /// one-row map of 100,000 squares took 41 s that way).
    pub fn values(&self, memory_limit: u64) -> Result<Vec<Vec<Option<Nimber>>>> {
        let fixed = self.values_bytes();
        if fixed > u128::from(memory_limit) {
            return Err(self.too_large(fixed, memory_limit));
        }
        let width = self.floor.iter().map(Vec::len).max().unwrap_or(0);
        let mut columns: Vec<Segment> = vec![Segment::default(); width];
        let mut row_set = Segment::default();
        let mut values = Vec::with_capacity(self.floor.len());
        for row in &self.floor {
            row_set.clear();
            let mut computed = Vec::with_capacity(row.len());
            for (c, column) in columns.iter_mut().enumerate() {
                // Squares past the end of a row are walls.
                if !row.get(c).copied().unwrap_or(false) {
                    column.clear();
                    row_set.clear();
                    if c < row.len() {
                        computed.push(None);
                    }
                    continue;
                }
                let value = row_set.mex_with(column);
                row_set.insert(value);
                column.insert(value);
                computed.push(Some(Nimber::try_from(value)?));
            }
            values.push(computed);
            // Past the word each column was counted with.
            let words: usize = columns
                .iter()
                .map(|c| c.words.capacity().max(1))
                .sum::<usize>()
                + row_set.words.capacity();
            let used = fixed + (words - columns.len()) as u128 * 8;
            if used > u128::from(memory_limit) {
                return Err(self.too_large(used, memory_limit));
            }
            crate::cancel::check()?;
        }
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::SCANNED;
    use crate::rules::Maze;

    /// Words the mexes of a map's values look at.
    fn scanned(map: &str) -> u64 {
        SCANNED.with(|s| s.set(0));
        Maze::parse(map).unwrap().values(1 << 30).unwrap();
        SCANNED.with(|s| s.get())
    }

    #[test]
    fn corridors_cost_a_word_a_square() {
        for squares in [1 << 12, 1 << 16] {
            let row = format!("A{}", ".".repeat(squares - 1));
            let column = format!("A\n{}", ".\n".repeat(squares - 1));
            for map in [row, column] {
                let words = scanned(&map);
                assert!(
                    words <= 2 * squares as u64,
                    "{squares} squares: {words} words"
                );
            }
        }
    }
}
