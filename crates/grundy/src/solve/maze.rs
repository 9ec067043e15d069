//! Values of a maze ([`Maze`]): every square's, row by row with running
//! bitsets, and the figures played together.

use crate::rules::Maze;
use crate::{Nimber, Result};

/// The values of one row or column segment so far: a bitset of the words
/// from the lowest one set, so that a column holding one large value (every
/// column of a one-row map does) takes one word, not one per 64 values
/// below it.
#[derive(Clone, Default)]
struct Segment {
    /// The index of `words[0]` among all words.
    first: usize,
    words: Vec<u64>,
}

impl Segment {
    fn clear(&mut self) {
        self.words.clear();
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
        (0..words)
            .map(|i| self.word(i) | other.word(i))
            .enumerate()
            .find(|&(_, word)| word != u64::MAX)
            .map_or(words as u64 * 64, |(i, word)| {
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
