//! Reports on explicit game graphs and mazes: every position's value with
//! its winning moves, tokens played together, and the generalized values
//! and outcomes of graphs with cycles.

use serde::Serialize;

use super::{Generalized, Winner};
use crate::Nimber;
use crate::rules::{GameGraph, Maze};
use crate::session::LoopyPlay;
use crate::solve::{LoopyValue, Outcome, Retrograde};

/// A move along an edge of a graph, to the position named `to`.
#[derive(Clone, Debug, Serialize)]
pub struct GraphMove {
    /// The position reached.
    pub to: String,
    /// The edge's label, null when the graph gives none.
    pub label: Option<String>,
}

impl GraphMove {
    fn along(graph: &GameGraph, to: usize, label: Option<&str>) -> GraphMove {
        GraphMove {
            to: graph.name(to).to_owned(),
            label: label.map(str::to_owned),
        }
    }
}

/// Every position of an acyclic graph: its value and every winning move
/// (`grundy graph FILE --format json`).
#[derive(Serialize)]
pub struct GraphReport {
    /// Each position in the graph's order.
    pub positions: Vec<GraphPosition>,
    /// The names of the positions of value 0.
    pub p_positions: Vec<String>,
    /// How many moves (edges) the graph has.
    pub move_count: usize,
}

/// A position of a [`GraphReport`].
#[derive(Serialize)]
pub struct GraphPosition {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: Nimber,
    /// Every move to a position of value 0.
    pub winning_moves: Vec<GraphMove>,
}

impl GraphReport {
    /// The report of `graph`, whose positions are worth `values`.
    pub fn new(graph: &GameGraph, values: &[Nimber]) -> Self {
        let positions = (0..graph.len())
            .map(|p| GraphPosition {
                name: graph.name(p).to_owned(),
                value: values[p],
                winning_moves: graph
                    .play(values, &[p])
                    .winning_moves
                    .into_iter()
                    .map(|(_, e)| {
                        let (_, to, label) = graph.edge(e);
                        GraphMove::along(graph, to, label)
                    })
                    .collect(),
            })
            .collect();
        GraphReport {
            positions,
            p_positions: (0..graph.len())
                .filter(|&p| values[p].is_zero())
                .map(|p| graph.name(p).to_owned())
                .collect(),
            move_count: graph.edge_count(),
        }
    }
}

/// Tokens on an acyclic graph played together (`grundy graph FILE --sum
/// ...`).
#[derive(Serialize)]
pub struct GraphSumReport {
    /// Each token's position and value.
    pub components: Vec<TokenValue>,
    /// The nim-sum.
    pub nim_sum: Nimber,
    /// Who wins.
    pub winner: Winner,
    /// Every winning move.
    pub winning_moves: Vec<TokenMove>,
}

/// A token of a [`GraphSumReport`].
#[derive(Serialize)]
pub struct TokenValue {
    /// The position it is on.
    pub position: String,
    /// Its value.
    pub value: Nimber,
}

/// A winning move of a token.
#[derive(Serialize)]
pub struct TokenMove {
    /// Which token moves (0-based).
    pub component: usize,
    /// Where it is.
    pub from: String,
    /// Where it goes.
    pub to: String,
    /// The edge's label, null when the graph gives none.
    pub label: Option<String>,
}

impl GraphSumReport {
    /// Tokens on `tokens` of `graph`, whose positions are worth `values`.
    pub fn new(graph: &GameGraph, values: &[Nimber], tokens: &[usize]) -> Self {
        let played = graph.play(values, tokens);
        GraphSumReport {
            components: tokens
                .iter()
                .map(|&p| TokenValue {
                    position: graph.name(p).to_owned(),
                    value: values[p],
                })
                .collect(),
            nim_sum: played.nim_sum,
            winner: played.winner(),
            winning_moves: played
                .winning_moves
                .iter()
                .map(|&(i, e)| {
                    let (from, to, label) = graph.edge(e);
                    TokenMove {
                        component: i,
                        from: graph.name(from).to_owned(),
                        to: graph.name(to).to_owned(),
                        label: label.map(str::to_owned),
                    }
                })
                .collect(),
        }
    }
}

/// Every position of a graph with cycles: its generalized value (Smith),
/// its outcome with remoteness, and its winning moves (fastest first) or,
/// when drawn, its drawing moves.
#[derive(Serialize)]
pub struct LoopyGraphReport {
    /// Always true.
    pub loopy: bool,
    /// Each position in the graph's order.
    pub positions: Vec<LoopyPosition>,
    /// How many moves (edges) the graph has.
    pub move_count: usize,
    /// How many positions are lost for the player to move.
    pub loss_count: usize,
    /// How many are drawn.
    pub draw_count: usize,
}

/// A position of a [`LoopyGraphReport`].
#[derive(Serialize)]
pub struct LoopyPosition {
    /// Its name.
    pub name: String,
    /// Its generalized value.
    #[serde(flatten)]
    pub value: Generalized,
    /// Who wins from it.
    pub outcome: Outcome,
    /// Moves left with perfect play; null for a draw.
    pub remoteness: Option<u32>,
    /// A won position's moves to lost ones, the fastest win first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_moves: Option<Vec<GraphMove>>,
    /// A drawn position's moves that keep the draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawing_moves: Option<Vec<GraphMove>>,
}

impl LoopyGraphReport {
    /// The report of `graph`, with generalized values `values` and the
    /// outcomes and remoteness of `plain` (its retrograde analysis).
    pub fn new(graph: &GameGraph, values: &[LoopyValue], plain: &Retrograde) -> Self {
        let moves = |p: usize, keep: Outcome| {
            let mut listed: Vec<(usize, Option<&str>)> = graph
                .moves(p)
                .filter(|&(q, _)| plain.outcomes[q] == keep)
                .collect();
            listed.sort_by_key(|&(q, _)| plain.remoteness[q]);
            listed
                .into_iter()
                .map(|(q, label)| GraphMove::along(graph, q, label))
                .collect::<Vec<_>>()
        };
        let positions = (0..graph.len())
            .map(|p| {
                let outcome = plain.outcomes[p];
                LoopyPosition {
                    name: graph.name(p).to_owned(),
                    value: Generalized(values[p].clone()),
                    outcome,
                    remoteness: plain.remoteness_of(p),
                    winning_moves: match outcome {
                        Outcome::Win => Some(moves(p, Outcome::Loss)),
                        Outcome::Loss => Some(Vec::new()),
                        Outcome::Draw => None,
                    },
                    drawing_moves: (outcome == Outcome::Draw).then(|| moves(p, Outcome::Draw)),
                }
            })
            .collect();
        let count = |o: Outcome| plain.outcomes.iter().filter(|&&x| x == o).count();
        LoopyGraphReport {
            loopy: true,
            positions,
            move_count: graph.edge_count(),
            loss_count: count(Outcome::Loss),
            draw_count: count(Outcome::Draw),
        }
    }
}

/// Tokens on a game with cycles played together (`grundy graph --sum`,
/// `grundy values FILE.rhai --position`).
#[derive(Serialize)]
pub struct LoopySumReport {
    /// Each token's position and generalized value.
    pub components: Vec<LoopyToken>,
    /// Who wins the sum.
    pub outcome: Outcome,
    /// Moves left with perfect play (null for a draw, or when the sum has
    /// too many positions to search).
    pub remoteness: Option<u32>,
    /// When the player to move wins: every move to a sum lost for the
    /// opponent.
    pub winning_moves: Vec<LoopyMove>,
    /// When the sum is drawn: every move that keeps the draw.
    pub drawing_moves: Vec<LoopyMove>,
}

/// A token of a [`LoopySumReport`].
#[derive(Serialize)]
pub struct LoopyToken {
    /// The position it is on.
    pub position: String,
    /// Its generalized value.
    #[serde(flatten)]
    pub value: Generalized,
}

/// A move of a token in a game with cycles.
#[derive(Serialize)]
pub struct LoopyMove {
    /// Which token moves (0-based).
    pub component: usize,
    /// Where it is.
    pub from: String,
    /// Where it goes.
    pub to: String,
}

impl LoopySumReport {
    /// The report of `play`.
    pub fn new(play: &LoopyPlay) -> Self {
        let describe = |&(i, to): &(usize, usize)| LoopyMove {
            component: i,
            from: play.names[play.tokens[i]].clone(),
            to: play.names[to].clone(),
        };
        LoopySumReport {
            components: play
                .tokens
                .iter()
                .map(|&p| LoopyToken {
                    position: play.names[p].clone(),
                    value: Generalized(play.values[p].clone()),
                })
                .collect(),
            outcome: play.sum.outcome,
            remoteness: play.remoteness,
            winning_moves: play.sum.winning_moves.iter().map(describe).collect(),
            drawing_moves: play.sum.drawing_moves.iter().map(describe).collect(),
        }
    }
}

/// A maze map: every square's value and the figures played together
/// (`grundy maze FILE --format json`; rows and columns from 0).
#[derive(Serialize)]
pub struct MazeReport {
    /// `values[row][column]`, null on walls.
    pub values: Vec<Vec<Option<Nimber>>>,
    /// The figures in reading order.
    pub figures: Vec<Figure>,
    /// The nim-sum of the figures' squares.
    pub nim_sum: Nimber,
    /// Who wins.
    pub winner: Winner,
    /// Every winning move.
    pub winning_moves: Vec<FigureMove>,
}

/// A figure on a maze.
#[derive(Serialize)]
pub struct Figure {
    /// Its mark on the map.
    pub mark: char,
    /// Its row.
    pub row: usize,
    /// Its column.
    pub column: usize,
    /// The value of its square.
    pub value: Nimber,
}

/// A winning move of a figure.
#[derive(Serialize)]
pub struct FigureMove {
    /// Which figure moves (0-based, in reading order).
    pub figure: usize,
    /// Its mark.
    pub mark: char,
    /// `[row, column]` it leaves.
    pub from: [usize; 2],
    /// `[row, column]` it reaches.
    pub to: [usize; 2],
}

impl MazeReport {
    /// The report of `maze`, whose squares are worth `values`.
    pub fn new(maze: &Maze, values: Vec<Vec<Option<Nimber>>>) -> Self {
        let played = maze.play(&values);
        let value = |(r, c): (usize, usize)| values[r][c].unwrap_or(Nimber::ZERO);
        MazeReport {
            figures: maze
                .figures()
                .iter()
                .map(|&(mark, at)| Figure {
                    mark,
                    row: at.0,
                    column: at.1,
                    value: value(at),
                })
                .collect(),
            nim_sum: played.nim_sum,
            winner: played.winner(),
            winning_moves: played
                .winning_moves
                .iter()
                .map(|&(i, to)| {
                    let (mark, at) = maze.figures()[i];
                    FigureMove {
                        figure: i,
                        mark,
                        from: [at.0, at.1],
                        to: [to.0, to.1],
                    }
                })
                .collect(),
            values,
        }
    }
}
