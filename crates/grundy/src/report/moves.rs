//! The winning moves of every heap of a range (`grundy moves`).

use serde::Serialize;

use super::{Decimal, PeriodUsed};
use std::collections::BTreeMap;

use crate::solve::PairWins;
use crate::{HeapMoveTable, Nimber};

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
    /// Each position, row by row.
    pub positions: Vec<PairMovesRow>,
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
    /// up to `to`.
    pub fn new(game: &str, to: u64, rows: &[PairWins]) -> Self {
        let mut totals: BTreeMap<Nimber, (u128, u128)> = BTreeMap::new();
        for row in rows {
            let entry = totals.entry(row.value).or_default();
            entry.0 += 1;
            entry.1 += u128::from(row.count);
        }
        PairMovesReport {
            game: game.trim().to_owned(),
            to,
            positions: rows
                .iter()
                .map(|row| PairMovesRow {
                    a: row.position.0,
                    b: row.position.1,
                    value: row.value,
                    winning_moves: row.count,
                    fewest_taken: row.fewest_taken,
                    most_taken: row.most_taken,
                })
                .collect(),
            position_count: Decimal::of(rows.len()),
            winning_moves: Decimal::of(totals.values().map(|t| t.1).sum::<u128>()),
            by_value: totals
                .into_iter()
                .map(|(value, (heaps, moves))| MovesByValue {
                    value,
                    heaps: Decimal::of(heaps),
                    winning_moves: Decimal::of(moves),
                })
                .collect(),
        }
    }
}
