//! The winning moves of every heap of a range, every position of a game
//! on pairs, or every position reachable from a script's positions
//! (`grundy moves`).

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::{Decimal, PeriodUsed};
use crate::analysis::CoinWins;
use crate::solve::PairWins;
use crate::{HeapMoveTable, Nimber, PositionWins};

/// The winning moves of heaps `from..=to` of a heap game: each heap when
/// listed, and the range counted by value.
#[derive(Serialize)]
pub struct HeapMovesReport {
    /// The game, as written.
    pub game: String,
    /// The first heap.
    pub from: u64,
    /// The last heap.
    pub to: u64,
    /// Each heap of the range, unless only the counts by value were asked.
    pub heaps: Option<Vec<HeapMovesRow>>,
    /// The heaps of the range and their winning moves, by value.
    pub by_value: Vec<MovesByValue>,
    /// The heaps counted.
    pub heap_count: Decimal,
    /// Their winning moves, in all.
    pub winning_moves: Decimal,
    /// How the counts were obtained, in words.
    pub source: String,
    /// The proven period the counts past the first heaps went through,
    /// when they did.
    pub through_period: Option<PeriodUsed>,
}

/// One heap's winning moves: the moves to a position of value 0.
#[derive(Serialize)]
pub struct HeapMovesRow {
    /// The heap.
    pub heap: usize,
    /// Its value.
    pub value: Nimber,
    /// Its distinct winning moves (none exactly when the value is 0).
    pub winning_moves: u64,
    /// The fewest tokens a winning move takes, `null` without one.
    pub fewest_taken: Option<i64>,
    /// The most tokens a winning move takes, `null` without one.
    pub most_taken: Option<i64>,
}

/// The heaps (or positions) of a range with one value.
#[derive(Serialize)]
pub struct MovesByValue {
    /// The value.
    pub value: Nimber,
    /// The heaps (positions) with it.
    pub heaps: Decimal,
    /// Their winning moves, in all.
    pub winning_moves: Decimal,
}

impl HeapMovesReport {
    /// The report of `table`, the winning moves of heaps of `game`.
    pub fn new(game: &str, table: &HeapMoveTable) -> Self {
        let through_period = table.through_period.map(|p| PeriodUsed {
            preperiod: p.preperiod,
            period: p.period,
        });
        HeapMovesReport {
            game: game.trim().to_owned(),
            from: table.from as u64,
            to: table.to as u64,
            heaps: table.rows.as_ref().map(|rows| {
                rows.iter()
                    .map(|row| HeapMovesRow {
                        heap: row.heap,
                        value: row.value,
                        winning_moves: row.count,
                        fewest_taken: row.fewest_taken,
                        most_taken: row.most_taken,
                    })
                    .collect()
            }),
            by_value: table
                .by_value
                .iter()
                .map(|t| MovesByValue {
                    value: t.value,
                    heaps: Decimal::of(t.heaps),
                    winning_moves: Decimal::of(t.winning_moves),
                })
                .collect(),
            heap_count: Decimal::of(table.by_value.iter().map(|t| t.heaps).sum::<u128>()),
            winning_moves: Decimal::of(table.winning_moves),
            source: match table.through_period {
                Some(p) => format!(
                    "heap by heap, then through the proven period {} from heap {}",
                    p.period, p.preperiod
                ),
                None => "heap by heap".to_owned(),
            },
            through_period,
        }
    }
}

/// The winning moves of every position `(a, b)`, `a, b <= to`, of a game
/// on pairs (`grundy moves wythoff --to N`).
#[derive(Serialize)]
pub struct PairMovesReport {
    /// The game, as written.
    pub game: String,
    /// The largest coordinate.
    pub to: u64,
    /// Each position, row by row, unless only the counts by value were
    /// asked.
    pub positions: Option<Vec<PairMovesRow>>,
    /// The positions and their winning moves, by value.
    pub by_value: Vec<MovesByValue>,
    /// The positions counted.
    pub position_count: Decimal,
    /// Their winning moves, in all.
    pub winning_moves: Decimal,
}

/// One position's winning moves.
#[derive(Serialize)]
pub struct PairMovesRow {
    /// The first coordinate.
    pub a: usize,
    /// The second coordinate.
    pub b: usize,
    /// Its value.
    pub value: Nimber,
    /// Its distinct winning moves.
    pub winning_moves: u64,
    /// The fewest tokens a winning move takes, `null` without one.
    pub fewest_taken: Option<i64>,
    /// The most tokens a winning move takes, `null` without one.
    pub most_taken: Option<i64>,
}

impl PairMovesReport {
    /// The report of `rows`, the winning moves of the positions of `game`
    /// up to `to`, each listed when `listed`.
    pub fn new(game: &str, to: u64, rows: &[PairWins], listed: bool) -> Self {
        let (by_value, winning_moves) =
            counted(rows.iter().map(|row| (row.value, u128::from(row.count))));
        PairMovesReport {
            game: game.trim().to_owned(),
            to,
            positions: listed.then(|| {
                rows.iter()
                    .map(|row| PairMovesRow {
                        a: row.position.0,
                        b: row.position.1,
                        value: row.value,
                        winning_moves: row.count,
                        fewest_taken: row.fewest_taken,
                        most_taken: row.most_taken,
                    })
                    .collect()
            }),
            position_count: Decimal::of(rows.len()),
            winning_moves,
            by_value,
        }
    }
}

/// The winning moves of every position of a game given by its moves (a
/// script's tuples) reachable from the positions asked about (`grundy
/// moves FILE.rhai --position [3,4]`).
#[derive(Serialize)]
pub struct PositionMovesReport {
    /// The game, as written.
    pub game: String,
    /// The positions asked about, whose reachable positions are listed.
    pub starts: Vec<String>,
    /// Each position reachable from them, in increasing order, unless
    /// only the counts by value were asked.
    pub positions: Option<Vec<PositionMovesRow>>,
    /// The positions and their winning moves, by value.
    pub by_value: Vec<MovesByValue>,
    /// The positions counted.
    pub position_count: Decimal,
    /// Their winning moves, in all.
    pub winning_moves: Decimal,
}

/// One position's winning moves, each written as the positions it leaves.
#[derive(Serialize)]
pub struct PositionMovesRow {
    /// The position.
    pub position: String,
    /// Its value.
    pub value: Nimber,
    /// How many winning moves it has.
    pub winning_moves: u64,
    /// Each winning move: the positions it leaves side by side (none: the
    /// position disappears).
    pub moves: Vec<Vec<String>>,
}

impl PositionMovesReport {
    /// The report of `rows`, the positions of `game` reachable from
    /// `starts`, each listed when `listed`.
    pub fn new<P: fmt::Display>(
        game: &str,
        starts: &[P],
        rows: &[PositionWins<P>],
        listed: bool,
    ) -> Self {
        let (by_value, winning_moves) = counted(
            rows.iter()
                .map(|row| (row.value, row.winning_moves.len() as u128)),
        );
        let written = |positions: &[P]| positions.iter().map(ToString::to_string).collect();
        PositionMovesReport {
            game: game.trim().to_owned(),
            starts: written(starts),
            positions: listed.then(|| {
                rows.iter()
                    .map(|row| PositionMovesRow {
                        position: row.position.to_string(),
                        value: row.value,
                        winning_moves: row.winning_moves.len() as u64,
                        moves: row.winning_moves.iter().map(|m| written(m)).collect(),
                    })
                    .collect()
            }),
            position_count: Decimal::of(rows.len()),
            winning_moves,
            by_value,
        }
    }
}

/// The winning moves of a lone head on every coin of a row, or of a grid
/// (`grundy moves turtles --to N`, `grundy moves turtles*ruler --to N`).
#[derive(Serialize)]
pub struct CoinMovesReport {
    /// The rule (or product), as written.
    pub game: String,
    /// Whether the coins are those of a grid (a product of two rules).
    pub grid: bool,
    /// The last coin (of a grid: the last column and row).
    pub to: u64,
    /// Each coin, row by row on a grid, unless only the counts by value
    /// were asked.
    pub coins: Option<Vec<CoinMovesRow>>,
    /// The coins and their winning moves, by value.
    pub by_value: Vec<MovesByValue>,
    /// The coins counted.
    pub coin_count: Decimal,
    /// Their winning moves, in all.
    pub winning_moves: Decimal,
}

/// A lone head's winning moves.
#[derive(Serialize)]
pub struct CoinMovesRow {
    /// The coin (of a grid: its column), from 1.
    pub coin: usize,
    /// Its row, on a grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// The value of a lone head there.
    pub value: Nimber,
    /// Its moves to value 0.
    pub winning_moves: Decimal,
}

impl CoinMovesReport {
    /// The report of `rows`, the coins of `game` (a product played on a
    /// grid when `grid`) up to `to`, each listed when `listed`.
    pub fn new(game: &str, grid: bool, to: u64, rows: &[CoinWins], listed: bool) -> Self {
        let (by_value, winning_moves) = counted(rows.iter().map(|row| (row.value, row.count)));
        CoinMovesReport {
            game: game.trim().to_owned(),
            grid,
            to,
            coins: listed.then(|| {
                rows.iter()
                    .map(|row| CoinMovesRow {
                        coin: row.coin,
                        row: row.row,
                        value: row.value,
                        winning_moves: Decimal::of(row.count),
                    })
                    .collect()
            }),
            coin_count: Decimal::of(rows.len()),
            winning_moves,
            by_value,
        }
    }
}

/// Positions counted by value, from each one's value and number of
/// winning moves: the counts by value in increasing order, and the
/// winning moves in all.
fn counted(rows: impl Iterator<Item = (Nimber, u128)>) -> (Vec<MovesByValue>, Decimal) {
    let mut totals: BTreeMap<Nimber, (u128, u128)> = BTreeMap::new();
    for (value, count) in rows {
        let entry = totals.entry(value).or_default();
        entry.0 += 1;
        entry.1 += count;
    }
    let winning_moves = Decimal::of(totals.values().map(|t| t.1).sum::<u128>());
    let by_value = totals
        .into_iter()
        .map(|(value, (heaps, moves))| MovesByValue {
            value,
            heaps: Decimal::of(heaps),
            winning_moves: Decimal::of(moves),
        })
        .collect();
    (by_value, winning_moves)
}
