//! Grid and maze games drawn as ASCII maps.
//!
//! `#` is a wall and `.` floor; a figure on a floor square is drawn as a
//! letter or digit. A move takes one figure any number of squares left or up
//! along its row or column, through floor only. Figures do not block one
//! another, so a position with several figures is the sum of one-figure
//! games and its value the nim-sum of theirs. Without walls a square `(r, c)`
//! is worth `r ^ c`: the figure plays two-heap Nim on its coordinates.

use crate::{Error, Nimber, Result};

/// A map: its squares, and the figures standing on them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maze {
    /// `floor[r][c]`: whether square `(r, c)` can be stood on.
    floor: Vec<Vec<bool>>,
    /// Each figure's mark and square, in reading order.
    figures: Vec<(char, (usize, usize))>,
}

impl Maze {
    /// Parses a map. Rows may differ in length; missing squares are walls.
    ///
    /// ```
    /// use grundy::rules::Maze;
    /// let maze = Maze::parse("..A\n.#.\n").unwrap();
    /// let values = maze.values(1 << 20).unwrap();
    /// assert_eq!(values[0][2].unwrap().get(), 2); // two squares left of A
    /// assert_eq!(values[1][1], None);             // a wall
    /// ```
    pub fn parse(text: &str) -> Result<Maze> {
        let mut floor = Vec::new();
        let mut figures = Vec::new();
        for (r, line) in text.lines().enumerate() {
            let mut row = Vec::new();
            for (c, ch) in line.trim_end().chars().enumerate() {
                match ch {
                    '#' => row.push(false),
                    '.' => row.push(true),
                    ch if ch.is_ascii_alphanumeric() => {
                        row.push(true);
                        figures.push((ch, (r, c)));
                    }
                    _ => {
                        return Err(Error::InvalidMap {
                            line: r + 1,
                            reason: format!(
                                "'{ch}' at column {} is not '#', '.' or a figure (a letter or digit)",
                                c + 1
                            ),
                        });
                    }
                }
            }
            floor.push(row);
        }
        while floor.last().is_some_and(Vec::is_empty) {
            floor.pop();
        }
        if floor.is_empty() {
            return Err(Error::InvalidMap {
                line: 0,
                reason: "the map is empty".into(),
            });
        }
        Ok(Maze { floor, figures })
    }

    /// The squares of the map, walls included (rows as long as written).
    fn squares(&self) -> u128 {
        self.floor.iter().map(|row| row.len() as u128).sum()
    }

    /// The memory [`Maze::values`] takes at least: a value (an
    /// `Option<Nimber>`) per square, a vector per row and a word of running
    /// bitset per column. The bitsets can grow past a word (a square's
    /// value is at most the squares left of and above it in its segments),
    /// which `values` counts as they grow.
    pub fn values_bytes(&self) -> u128 {
        let width = self.floor.iter().map(Vec::len).max().unwrap_or(0) as u128;
        let height = self.floor.len() as u128;
        let cell = std::mem::size_of::<Option<Nimber>>() as u128;
        let row = std::mem::size_of::<Vec<Option<Nimber>>>() as u128;
        self.squares() * cell + height * row + width * 8
    }

    /// The error for a map whose values need at least `needed` bytes.
    fn too_large(&self, needed: u128, memory_limit: u64) -> Error {
        Error::MemoryLimit {
            what: format!("the table of a map of {} squares", self.squares()),
            needed: format!("at least {}", crate::error::human_bytes(needed)),
            limit: crate::error::human_bytes(u128::from(memory_limit)),
        }
    }

    /// The figures, as `(mark, (row, column))`, in reading order.
    pub fn figures(&self) -> &[(char, (usize, usize))] {
        &self.figures
    }

    fn is_floor(&self, r: usize, c: usize) -> bool {
        self.floor
            .get(r)
            .and_then(|row| row.get(c))
            .copied()
            .unwrap_or(false)
    }

    /// The squares one move from `(r, c)`: left along the row, then up
    /// along the column, each until a wall.
    pub fn moves(&self, (r, c): (usize, usize)) -> impl Iterator<Item = (usize, usize)> + '_ {
        let left = (0..c)
            .rev()
            .take_while(move |&c2| self.is_floor(r, c2))
            .map(move |c2| (r, c2));
        let up = (0..r)
            .rev()
            .take_while(move |&r2| self.is_floor(r2, c))
            .map(move |r2| (r2, c));
        left.chain(up)
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::GameGraph;

    #[test]
    fn an_open_board_is_two_heap_nim() {
        let maze = Maze::parse(&".........\n".repeat(7)).unwrap();
        let values = maze.values(1 << 30).unwrap();
        for (r, row) in values.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                assert_eq!(v.unwrap().index(), r ^ c);
            }
        }
    }

    #[test]
    fn walls_agree_with_the_same_game_as_a_graph() {
        let map = "..#....\n.A...#.\n#..#...\n....B..\n.#.....\n";
        let maze = Maze::parse(map).unwrap();
        assert_eq!(maze.figures(), [('A', (1, 1)), ('B', (3, 4))]);
        // The same game written out as an explicit graph, its moves found
        // here from the characters of the map.
        let grid: Vec<Vec<char>> = map.lines().map(|l| l.chars().collect()).collect();
        let open = |r: usize, c: usize| grid[r][c] != '#';
        let mut edges = String::new();
        for (r, row) in grid.iter().enumerate() {
            for c in 0..row.len() {
                if !open(r, c) {
                    continue;
                }
                edges.push_str(&format!("{r},{c}\n"));
                let mut c2 = c;
                while c2 > 0 && open(r, c2 - 1) {
                    c2 -= 1;
                    edges.push_str(&format!("{r},{c} {r},{c2}\n"));
                }
                let mut r2 = r;
                while r2 > 0 && open(r2 - 1, c) {
                    r2 -= 1;
                    edges.push_str(&format!("{r},{c} {r2},{c}\n"));
                }
            }
        }
        let graph = GameGraph::parse(&edges).unwrap();
        let by_graph = graph.solve().unwrap().values;
        let values = maze.values(1 << 30).unwrap();
        for (p, value) in by_graph.iter().enumerate() {
            let (r, c) = graph.name(p).split_once(',').unwrap();
            let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
            assert_eq!(values[r][c], Some(*value), "square {r},{c}");
        }
    }

    #[test]
    fn bad_maps_are_refused() {
        assert!(matches!(
            Maze::parse("..\n.?\n"),
            Err(Error::InvalidMap { line: 2, .. })
        ));
        assert!(Maze::parse("\n\n").is_err());
    }
}
