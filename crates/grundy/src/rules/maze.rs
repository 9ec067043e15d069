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
    pub(crate) floor: Vec<Vec<bool>>,
    /// Each figure's mark and square, in reading order.
    pub(crate) figures: Vec<(char, (usize, usize))>,
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
    pub(crate) fn too_large(&self, needed: u128, memory_limit: u64) -> Error {
        Error::MemoryLimit {
            what: format!("the table of a map of {} squares", self.squares()),
            needed: format!(
                "at least {}",
                crate::error::human_bytes_near(needed, u128::from(memory_limit))
            ),
            limit: crate::error::human_bytes_near(u128::from(memory_limit), needed),
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
