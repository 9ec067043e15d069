//! `grundy moves`: the winning moves of every heap of a range, of every
//! position of a game on pairs, of a lone head on every coin of a row or a
//! grid, or of every position reachable from a script's positions (tuples
//! or heaps). Every door asks [`moves`]; the kind of game picks the table.

use serde::Serialize;

use super::HeapRules;
use crate::analysis::coin_move_table;
use crate::report::{CoinMovesReport, HeapMovesReport, PairMovesReport, PositionMovesReport};
use crate::rules::{CoinRule, PairGame, ScriptLimits, ScriptPosition};
use crate::spec::{GameSpec, Question};
use crate::{
    Error, Knob, MOVE_ROWS_LIMIT, Result, TableSolver, heap_move_table, position_move_table,
};

/// The answer to `grundy moves`, serialized as itself.
#[derive(Serialize)]
#[serde(untagged)]
pub enum MovesAnswer {
    /// Heaps of a heap game.
    Heaps(HeapMovesReport),
    /// Positions of a game on pairs.
    Pairs(PairMovesReport),
    /// The positions of a script reachable from those asked about.
    Positions(PositionMovesReport),
    /// A lone head on each coin of a row or a grid.
    Coins(CoinMovesReport),
}

/// A game whose winning moves `grundy moves` tabulates.
pub enum MovesGame {
    /// A heap game: built in, a script or a front end's rules (a script's
    /// positions, tuples included, are reached from starting positions).
    Heaps(HeapRules),
    /// A game on pairs `(a, b)`.
    Pairs(PairGame),
    /// A coin-turning rule played on a row, or with a second rule, the
    /// product played on a grid.
    Coins(CoinRule, Option<CoinRule>),
}

impl MovesGame {
    /// The game `spec` names, scripts run with `limits`.
    pub fn from_spec(spec: &GameSpec, limits: &ScriptLimits) -> Result<MovesGame> {
        match spec {
            GameSpec::Pair(game) => Ok(MovesGame::Pairs(game.clone())),
            GameSpec::Coins(rule) => Ok(MovesGame::Coins(rule.clone(), None)),
            GameSpec::CoinGrid(columns, rows) => {
                Ok(MovesGame::Coins(columns.clone(), Some(rows.clone())))
            }
            other => HeapRules::from_spec(other, Question::Moves, limits).map(MovesGame::Heaps),
        }
    }
}

/// Which positions `grundy moves` tabulates, and how.
#[derive(Clone, Copy, Debug)]
pub struct MovesQuery<'a> {
    /// The first heap.
    pub from: u64,
    /// The last heap (of a pair game: the largest coordinate); `None`
    /// where `positions` are given instead.
    pub to: Option<u64>,
    /// A script's positions (`7`, `[3,4]`): every position reachable from
    /// them is listed, in place of a range of heaps.
    pub positions: &'a [String],
    /// Whether each heap or position is listed (else the range is counted
    /// by value).
    pub rows: bool,
    /// The most rows listed (`None`: [`MOVE_ROWS_LIMIT`], also the most
    /// one may ask); more is refused with [`Knob::Rows`].
    pub max_rows: Option<usize>,
    /// The solver of the values (its memory limit bounds every table).
    pub solver: &'a TableSolver,
    /// The most options of one heap listed one by one.
    pub max_options: u64,
    /// The most machine-word operations a coin rule's values and counts
    /// may take.
    pub work_limit: u64,
}

/// The winning moves `query` asks for of `game` (named `name`, as the user
/// wrote it): of heaps `from..=to` (each listed when `rows`, the range
/// counted by value, through a proven period where the range is long and
/// the game's moves leave at most two heaps; see [`heap_move_table`]), of
/// every position `(a, b)` with `a, b <= to` of a game on pairs, of a
/// lone head on every coin `1..=to` of a row (of a grid: `(x, y)`,
/// `x, y <= to`; see [`coin_move_table`]), or of every position reachable
/// from a script's `positions`.
/// `progress(done, total)` hears the values computed and then the rows;
/// `false` stops with [`Error::Interrupted`].
pub fn moves(
    name: &str,
    game: &MovesGame,
    query: &MovesQuery,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<MovesAnswer> {
    let max_rows = query
        .max_rows
        .map_or(MOVE_ROWS_LIMIT, |m| m.min(MOVE_ROWS_LIMIT));
    let too_many = |rows: u128, what: &str, knob: Knob| Error::Refused {
        reason: format!(
            "listing the winning moves of {rows} {what}, over the limit of {max_rows} rows"
        ),
        knob,
    };
    let invalid = |reason: &str| Error::InvalidRange {
        reason: reason.to_owned(),
    };
    match (game, query.to, query.positions.is_empty()) {
        (_, Some(_), false) => Err(invalid(
            "give the last heap or the positions whose reachable positions are listed, not both",
        )),
        (_, None, true) => Err(invalid(
            "give the last heap (of a game on pairs, the largest coordinate), or a script's \
             positions",
        )),
        (MovesGame::Heaps(rules), None, false) => {
            let Some(script) = rules.as_script() else {
                return Err(invalid(
                    "positions are listed for scripts; a heap game's heaps are a range up to \
                     the last heap",
                ));
            };
            if query.from != 0 {
                return Err(invalid(
                    "positions list every position reachable from them: give no first heap",
                ));
            }
            let starts = query
                .positions
                .iter()
                .map(|p| p.parse::<ScriptPosition>())
                .collect::<Result<Vec<_>>>()?;
            let explored = script.explore(&starts)?;
            if query.rows && explored.len() > max_rows {
                return Err(too_many(
                    explored.len() as u128,
                    "positions reachable",
                    Knob::Rows,
                ));
            }
            let table = position_move_table(&explored, &explored.positions(), progress)?;
            Ok(MovesAnswer::Positions(PositionMovesReport::new(
                name, &starts, &table, query.rows,
            )))
        }
        (MovesGame::Pairs(pairs), Some(to), true) => {
            if query.from != 0 {
                return Err(Error::Refused {
                    reason: "a game on pairs tabulates every position (a, b) with a, b <= the \
                             largest coordinate, from (0, 0)"
                        .into(),
                    knob: Knob::From,
                });
            }
            let side = u128::from(to) + 1;
            if side * side > MOVE_ROWS_LIMIT as u128
                || (query.rows && side * side > max_rows as u128)
            {
                return Err(too_many(side * side, "positions", Knob::To));
            }
            let rows = pairs.move_table(to, query.solver.memory_limit(), progress)?;
            Ok(MovesAnswer::Pairs(PairMovesReport::new(
                name, to, &rows, query.rows,
            )))
        }
        (MovesGame::Heaps(rules), Some(to), true) => {
            if query.rows && u128::from(to.saturating_sub(query.from)) + 1 > max_rows as u128 {
                return Err(too_many(
                    u128::from(to.saturating_sub(query.from)) + 1,
                    "heaps",
                    Knob::Rows,
                ));
            }
            let heap = |n: u64| {
                usize::try_from(n).map_err(|_| Error::InvalidRange {
                    reason: format!("heap {n} is past the largest this machine addresses"),
                })
            };
            rules.start();
            let table = heap_move_table(
                rules,
                heap(query.from)?,
                heap(to)?,
                query.rows,
                query.solver,
                query.max_options,
                progress,
            );
            Ok(MovesAnswer::Heaps(HeapMovesReport::new(
                name,
                &rules.checked(table)?,
            )))
        }
        (MovesGame::Coins(columns, rows), Some(to), true) => {
            if query.from > 1 {
                return Err(Error::Refused {
                    reason: "coins are tabulated from coin 1 (of a grid, from (1, 1))".into(),
                    knob: Knob::From,
                });
            }
            let side = u128::from(to);
            let coins = if rows.is_some() { side * side } else { side };
            if coins > MOVE_ROWS_LIMIT as u128 || (query.rows && coins > max_rows as u128) {
                return Err(too_many(coins, "coins", Knob::To));
            }
            let table = coin_move_table(
                columns,
                rows.as_ref(),
                to as usize,
                query.solver.memory_limit(),
                query.work_limit,
            )?;
            Ok(MovesAnswer::Coins(CoinMovesReport::new(
                name,
                rows.is_some(),
                to,
                &table,
                query.rows,
            )))
        }
        (MovesGame::Pairs(_) | MovesGame::Coins(..), None, false) => Err(invalid(
            "positions are listed for scripts: give the largest coordinate of a game on pairs, \
             the last coin of coins",
        )),
    }
}
