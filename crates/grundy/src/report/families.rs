//! Reports on the other families: coin-turning rows and grids, Hackenbush
//! pictures, Fibonacci Nim, swept outcomes and nim-field arithmetic.

use serde::Serialize;

use super::{Decimal, Winner};
use crate::analysis::HackenbushSum;
use crate::analysis::TakeOutcome;
use crate::analysis::{CoinGrid, CoinRow, GridCounts, GridMove, ValuesBy};
use crate::rules::{Hackenbush, Ratio, ScriptGame};
use crate::solve::Outcomes;
use crate::{Nimber, Result};

/// Coin values `g(1..=N)` of a coin-turning rule.
#[derive(Serialize)]
pub struct CoinValuesReport {
    /// The rule, canonically written.
    pub rule: String,
    /// The number of the first coin listed: 1.
    pub first_coin: usize,
    /// `values[i] = g(i + 1)`.
    pub values: Vec<Nimber>,
}

impl CoinValuesReport {
    /// `values[n] = g(n)`, `values[0]` unused (there is no coin 0).
    pub fn new(rule: String, values: &[Nimber]) -> Self {
        CoinValuesReport {
            rule,
            first_coin: 1,
            values: values.iter().skip(1).copied().collect(),
        }
    }
}

/// A row of coins: each head's value, the winner and every winning move.
#[derive(Serialize)]
pub struct CoinRowReport {
    /// The rule, canonically written.
    pub rule: String,
    /// Each head: its coin number (from 1) and value.
    pub heads: Vec<CoinHead>,
    /// The nim-sum of the heads.
    pub nim_sum: Nimber,
    /// Who wins.
    pub winner: Winner,
    /// Every winning move: the coins it turns, the head that goes down
    /// last.
    pub winning_moves: Vec<CoinTurn>,
    /// Whether `winning_moves` is every winning move; false when there are
    /// more than [`crate::rules::COIN_MOVES_LISTED`] and only those are
    /// listed.
    pub complete: bool,
}

/// A head of a [`CoinRowReport`].
#[derive(Serialize)]
pub struct CoinHead {
    /// Its number, from 1.
    pub coin: usize,
    /// Its value.
    pub value: Nimber,
}

/// A move in a row of coins.
#[derive(Serialize)]
pub struct CoinTurn {
    /// The coins turned, in increasing order; the last goes from heads to
    /// tails.
    pub turn: Vec<usize>,
}

impl CoinRowReport {
    /// The report of `row` under the rule written `rule`.
    pub fn new(rule: String, row: &CoinRow) -> Self {
        CoinRowReport {
            rule,
            heads: row
                .heads
                .iter()
                .map(|&(coin, value)| CoinHead { coin, value })
                .collect(),
            nim_sum: row.nim_sum,
            winner: Winner::of(row.nim_sum),
            winning_moves: row
                .winning_moves
                .iter()
                .map(|m| CoinTurn {
                    turn: m.also.iter().copied().chain([m.coin]).collect(),
                })
                .collect(),
            complete: row.complete,
        }
    }
}

/// Values of a product of coin rules on a grid: `values[y - 1][x - 1] =
/// g(x, y)`.
#[derive(Serialize)]
pub struct CoinTableReport {
    /// The product, written `A*B`.
    pub rule: String,
    /// The number of the first row and column listed: 1.
    pub first_coin: usize,
    /// Rows `y = 1..`, columns `x = 1..`.
    pub values: Vec<Vec<Nimber>>,
}

impl CoinTableReport {
    /// `table[y][x]`, row and column 0 unused.
    pub fn new(rule: String, table: &[Vec<Nimber>]) -> Self {
        CoinTableReport {
            rule,
            first_coin: 1,
            values: table
                .iter()
                .skip(1)
                .map(|row| row.iter().skip(1).copied().collect())
                .collect(),
        }
    }
}

/// A grid of coins under a product rule.
#[derive(Serialize)]
pub struct CoinGridReport {
    /// The product, written `A*B`.
    pub rule: String,
    /// Each head: column `x`, row `y` (from 1) and value.
    pub heads: Vec<GridHead>,
    /// The nim-sum of the heads.
    pub nim_sum: Nimber,
    /// Who wins.
    pub winner: Winner,
    /// A winning move, when the first player wins: the first of
    /// `winning_moves`.
    pub winning_move: Option<GridTurn>,
    /// Every winning move, by head, at most
    /// [`COIN_MOVES_LISTED`](crate::analysis::COIN_MOVES_LISTED).
    pub winning_moves: Vec<GridTurn>,
    /// Whether `winning_moves` is every winning move.
    pub complete: bool,
}

/// A head of a [`CoinGridReport`].
#[derive(Serialize)]
pub struct GridHead {
    /// Its column, from 1.
    pub x: usize,
    /// Its row, from 1.
    pub y: usize,
    /// Its value.
    pub value: Nimber,
}

/// A move on a grid: turn the coins of `columns x rows`.
#[derive(Serialize)]
pub struct GridTurn {
    /// The columns, in increasing order.
    pub columns: Vec<usize>,
    /// The rows, in increasing order.
    pub rows: Vec<usize>,
}

impl GridTurn {
    fn of(turn: &GridMove) -> GridTurn {
        GridTurn {
            columns: turn.columns.clone(),
            rows: turn.rows.clone(),
        }
    }
}

impl CoinGridReport {
    /// The report of `grid` under the product written `rule`.
    pub fn new(rule: String, grid: &CoinGrid) -> Self {
        CoinGridReport {
            rule,
            heads: grid
                .heads
                .iter()
                .map(|&(x, y, value)| GridHead { x, y, value })
                .collect(),
            nim_sum: grid.nim_sum,
            winner: Winner::of(grid.nim_sum),
            winning_move: grid.winning_move.as_ref().map(GridTurn::of),
            winning_moves: grid.winning_moves.iter().map(GridTurn::of).collect(),
            complete: grid.complete,
        }
    }
}

/// The positions of a row or grid of coins counted by nim-sum (`grundy
/// count RULE --to X,Y`).
#[derive(Serialize)]
pub struct GridCountReport {
    /// The rule (a product `A*B` for a grid), canonical.
    pub rule: String,
    /// Coins across: columns `1..=columns`.
    pub columns: u64,
    /// Coins down: rows `1..=rows` (1 for a row).
    pub rows: u64,
    /// The coins, `columns x rows`.
    pub cells: Decimal,
    /// Counts are modulo this, when given.
    pub modulus: Option<u64>,
    /// Every position (set of heads): `2^cells`.
    pub total: Decimal,
    /// Those of nim-sum 0: the player to move loses.
    pub p_positions: Decimal,
    /// Those of another nim-sum: the player to move wins.
    pub n_positions: Decimal,
    /// The rank over GF(2) of the coins' values: `2^rank` nim-sums occur.
    pub rank: u32,
    /// A basis of the nim-sums that occur (reduced, increasing).
    pub span_basis: Vec<u64>,
    /// Positions of each nim-sum that occurs: `2^(cells - rank)`, the same
    /// for all of them.
    pub per_nim_sum: Decimal,
    /// The count for the nim-sum asked, when one was.
    pub nim_sum: Option<NimSumAsked>,
    /// Whether the column values came from a theorem (a closed form or a
    /// proven period) rather than a table alone.
    pub columns_by_theorem: bool,
    /// The same for the rows.
    pub rows_by_theorem: bool,
    /// How the column values were known.
    pub columns_values: SideValues,
    /// How the row values were known.
    pub rows_values: SideValues,
}

/// How the values of one side of a [`GridCountReport`] were known.
#[derive(Serialize)]
pub struct SideValues {
    /// `closed-form` (any number of coins), `table` (every coin computed)
    /// or `period` (coins up to `computed_to` computed, the rest through
    /// the period).
    pub by: &'static str,
    /// The period, when the count went through one.
    pub period: Option<CoinPeriodUsed>,
}

/// The period of a coin rule a grid count went through.
#[derive(Serialize)]
pub struct CoinPeriodUsed {
    /// Where it starts (coin numbers; coin 0 is no coin, worth 0).
    pub preperiod: usize,
    /// Its length.
    pub period: usize,
    /// `theorem`, spelt as every report spells a proven period: a count
    /// never goes through a period only observed.
    pub support: &'static str,
    /// Whether it is proven for every coin (always, see `support`).
    pub proven: bool,
    /// The theorem that proves it, in words.
    pub theorem: &'static str,
    /// The last coin computed.
    pub computed_to: u64,
}

impl SideValues {
    fn of(by: &ValuesBy) -> SideValues {
        let (by, period) = match *by {
            ValuesBy::ClosedForm => ("closed-form", None),
            ValuesBy::Table => ("table", None),
            ValuesBy::Period {
                periodicity,
                theorem,
                computed_to,
            } => (
                "period",
                Some(CoinPeriodUsed {
                    preperiod: periodicity.preperiod,
                    period: periodicity.period,
                    support: "theorem",
                    proven: true,
                    theorem: theorem.name(),
                    computed_to,
                }),
            ),
        };
        SideValues { by, period }
    }
}

/// A nim-sum of a [`GridCountReport`] and its positions.
#[derive(Serialize)]
pub struct NimSumAsked {
    /// The nim-sum.
    pub value: u64,
    /// Whether some position has it.
    pub occurs: bool,
    /// How many positions have it.
    pub positions: Decimal,
}

impl GridCountReport {
    /// The report of `counts` for the rule written `rule`, with the count
    /// of nim-sum `asked` when given.
    pub fn new(rule: String, counts: &GridCounts, asked: Option<u64>) -> Self {
        GridCountReport {
            rule,
            columns: counts.columns,
            rows: counts.rows,
            cells: Decimal::of(counts.cells()),
            modulus: counts.modulus,
            total: Decimal::of(&counts.total),
            p_positions: Decimal::of(counts.p_positions()),
            n_positions: Decimal::of(counts.n_positions()),
            rank: counts.span.rank(),
            span_basis: counts.span.vectors().collect(),
            per_nim_sum: Decimal::of(&counts.per_nim_sum),
            nim_sum: asked.map(|value| NimSumAsked {
                value,
                occurs: counts.span.contains(value),
                positions: Decimal::of(counts.with_nim_sum(value)),
            }),
            columns_by_theorem: counts.columns_by.by_theorem(),
            rows_by_theorem: counts.rows_by.by_theorem(),
            columns_values: SideValues::of(&counts.columns_by),
            rows_values: SideValues::of(&counts.rows_by),
        }
    }
}

/// Green Hackenbush pictures played together.
#[derive(Serialize)]
pub struct HackenbushReport {
    /// Each picture as written and its value.
    pub pictures: Vec<PictureValue>,
    /// The nim-sum.
    pub nim_sum: Nimber,
    /// Who wins.
    pub winner: Winner,
    /// Every winning cut.
    pub winning_cuts: Vec<Cut>,
}

/// A picture of a [`HackenbushReport`].
#[derive(Serialize)]
pub struct PictureValue {
    /// The picture as written (a tree or a file name).
    pub picture: String,
    /// Its value.
    pub value: Nimber,
}

/// A winning cut.
#[derive(Serialize)]
pub struct Cut {
    /// Which picture (0-based).
    pub picture: usize,
    /// The edge's number, from 1 in the order the picture lists its edges
    /// (as the text prints it).
    pub edge: usize,
    /// The two ends of the edge.
    pub between: [String; 2],
}

impl HackenbushReport {
    /// The report of `sum`, the pictures `pictures` written `names`.
    pub fn new(names: &[String], pictures: &[Hackenbush], sum: &HackenbushSum) -> Self {
        HackenbushReport {
            pictures: names
                .iter()
                .zip(&sum.values)
                .map(|(name, &value)| PictureValue {
                    picture: name.clone(),
                    value,
                })
                .collect(),
            nim_sum: sum.nim_sum,
            winner: Winner::of(sum.nim_sum),
            winning_cuts: sum
                .winning_cuts
                .iter()
                .map(|&(i, e)| {
                    let (a, b) = pictures[i].edge(e);
                    Cut {
                        picture: i,
                        edge: e + 1,
                        between: [a.to_owned(), b.to_owned()],
                    }
                })
                .collect(),
        }
    }
}

/// A position of Fibonacci Nim (or its generalization with ratio `c`).
#[derive(Serialize)]
pub struct FibonacciNimReport {
    /// The heap.
    pub heap: u64,
    /// The most the player to move may take now.
    pub limit: u64,
    /// Later takes are at most `ratio` times the previous one, rounded
    /// down: a number, or `"P/Q"` for a fraction.
    pub ratio: Ratio,
    /// Who wins.
    pub winner: Winner,
    /// Winning takes, in increasing order: all of them when tabulated,
    /// else the one the theorem gives.
    pub winning_takes: Vec<u64>,
    /// The Zeckendorf representation of the heap (ratio 2), largest first.
    pub zeckendorf: Option<Vec<u64>>,
}

impl FibonacciNimReport {
    /// The report of `found`, heap `heap` with at most `limit` to take.
    pub fn new(heap: u64, limit: u64, ratio: Ratio, found: &TakeOutcome) -> Self {
        FibonacciNimReport {
            heap,
            limit: limit.min(heap),
            ratio,
            winner: if found.first_player_wins {
                Winner::First
            } else {
                Winner::Second
            },
            winning_takes: found.winning_takes.clone(),
            zeckendorf: found.zeckendorf.clone(),
        }
    }
}

/// The outcomes of a script's states swept in order (`grundy outcomes`).
#[derive(Serialize)]
pub struct OutcomesReport {
    /// The script.
    pub script: String,
    /// States `0..states` were classified.
    pub states: u64,
    /// The lost states: `{"count", "states"}`, every one of them.
    pub p_positions: LossListing,
    /// The states asked about, with every winning move.
    pub positions: Vec<StateReport>,
}

/// The lost states of an [`OutcomesReport`]: all of them, written out as
/// they are serialized (a sweep of 10^9 states may lose 10^8 of them),
/// never collected.
#[derive(Serialize)]
pub struct LossListing {
    /// How many.
    pub count: u64,
    /// Every lost state, in increasing order.
    pub states: EveryLoss,
}

/// The lost states of a sweep, serialized as a sequence straight from its
/// bitset.
pub struct EveryLoss(pub Outcomes);

impl Serialize for EveryLoss {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.losses())
    }
}

/// A state asked about.
#[derive(Serialize)]
pub struct StateReport {
    /// The state.
    pub state: u64,
    /// Who wins from it.
    pub winner: Winner,
    /// Every move to a lost state, in increasing order.
    pub winning_moves: Vec<u64>,
}

impl OutcomesReport {
    /// The sweep `found` of `game`, with the states `asked` and their
    /// winning moves (options lost for the opponent).
    pub fn new(game: &ScriptGame, found: Outcomes, asked: &[u64]) -> Result<Self> {
        let mut positions = Vec::with_capacity(asked.len());
        for &state in asked {
            let winning = found.winning_moves(state, game.state_options(state)?);
            positions.push(StateReport {
                state,
                winner: if found.is_loss(state) {
                    Winner::Second
                } else {
                    Winner::First
                },
                winning_moves: winning,
            });
        }
        Ok(OutcomesReport {
            script: game.name().to_owned(),
            states: found.states(),
            p_positions: LossListing {
                count: found.loss_count(),
                states: EveryLoss(found),
            },
            positions,
        })
    }
}

/// One result in the nim field (`grundy nim`).
#[derive(Serialize)]
pub struct NimFieldReport {
    /// The expression, e.g. `3 * 5`.
    pub expression: String,
    /// Its value.
    pub result: u64,
}
