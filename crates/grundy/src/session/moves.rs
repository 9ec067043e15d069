//! `grundy moves`: the winning moves of every heap of a range.

use serde::Serialize;

use super::HeapRules;
use crate::report::{HeapMovesReport, PairMovesReport};
use crate::rules::PairGame;
use crate::{Error, Knob, MOVE_ROWS_LIMIT, Result, TableSolver, heap_move_table};

/// The answer to `grundy moves`: a table of heaps or of pairs, serialized
/// as itself.
#[derive(Serialize)]
#[serde(untagged)]
pub enum MovesAnswer {
    /// Heaps of a heap game.
    Heaps(HeapMovesReport),
    /// Positions of a game on pairs.
    Pairs(PairMovesReport),
}

/// Which heaps `grundy moves` tabulates, and how.
#[derive(Clone, Copy, Debug)]
pub struct MovesQuery<'a> {
    /// The first heap.
    pub from: u64,
    /// The last heap.
    pub to: u64,
    /// Whether each heap is listed (else the range is counted by value).
    pub rows: bool,
    /// The solver of the values (its memory limit bounds every table).
    pub solver: &'a TableSolver,
    /// The most options of one heap listed one by one.
    pub max_options: u64,
}

/// The winning moves of heaps `from..=to` of `game` (named `name`, as the
/// user wrote it): each heap listed when
/// `rows`, and the range counted by value (through a proven period where
/// the range is long and the game's moves leave at most two heaps; see
/// [`heap_move_table`]). `progress(done, total)` hears the values computed
/// and then the heaps counted; `false` stops with [`Error::Interrupted`].
pub fn heap_moves(
    name: &str,
    game: &HeapRules,
    query: &MovesQuery,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<HeapMovesReport> {
    let heap = |n: u64| {
        usize::try_from(n).map_err(|_| Error::InvalidRange {
            reason: format!("heap {n} is past the largest this machine addresses"),
        })
    };
    game.start();
    let table = heap_move_table(
        game,
        heap(query.from)?,
        heap(query.to)?,
        query.rows,
        query.solver,
        query.max_options,
        progress,
    );
    Ok(HeapMovesReport::new(name, &game.checked(table)?))
}

/// The winning moves of every position `(a, b)`, `a, b <= to`, of the pair
/// game `game` (named `name`): at most [`MOVE_ROWS_LIMIT`] positions, their
/// values within `memory_limit`. `progress(a, to)` hears each row; `false`
/// stops with [`Error::Interrupted`].
pub fn pair_moves(
    name: &str,
    game: &PairGame,
    to: u64,
    memory_limit: u64,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<PairMovesReport> {
    let side = u128::from(to) + 1;
    if side * side > MOVE_ROWS_LIMIT as u128 {
        return Err(Error::Refused {
            reason: format!(
                "listing the winning moves of {} positions, over the limit of {MOVE_ROWS_LIMIT} \
                 rows",
                side * side
            ),
            knob: Knob::To,
        });
    }
    let rows = game.move_table(to, memory_limit, progress)?;
    Ok(PairMovesReport::new(name, to, &rows))
}
