//! Games with cycles: the generalized Sprague–Grundy function and
//! win/lose/draw by retrograde analysis.
//!
//! In a finite game graph that may have cycles, play can go on forever (a
//! draw). Smith (1966) extended the Grundy function to such graphs: every
//! position gets either a finite value `m` or `∞(K)`, where `K` is the set of
//! finite values among its options. A position gets `m` exactly when
//!
//! 1. no option has value `m`,
//! 2. every `j < m` is the value of some option, and
//! 3. every option whose value is larger than `m` or infinite has itself an
//!    option of value `m` (so a move there can be reversed);
//!
//! the values are found for `m = 0, 1, 2, …` in turn by the retrograde
//! labelling of Fraenkel and Yesha (1986), `O((V + E)·(M + 1))` for largest
//! finite value `M`. Then (Smith's theorem, Fraenkel's survey "Complexity,
//! appeal and challenges of combinatorial games", §3) a sum of positions
//! with values `γ_i` is:
//!
//! - all finite: a win for the player to move exactly when their nim-sum
//!   `s` is not 0, as in the finite theory;
//! - exactly one infinite, `∞(K)`, the rest with nim-sum `s`: a win when
//!   `s ∈ K` (move the infinite part to an option of value `s`), else a draw;
//! - two or more infinite: a draw.
//!
//! [`retrograde`] classifies the positions of one explicit graph as won, lost
//! or drawn with their remoteness (how many moves the winner needs, when
//! the loser delays as long as possible), for single games and as the
//! brute-force check of the sum rule.

use crate::game::Adjacency;
use crate::{Nimber, Result};

/// The generalized Sprague–Grundy value of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoopyValue {
    /// A finite value: the position plays like a Nim heap of that size.
    Finite(Nimber),
    /// `∞(K)`: `K`, in increasing order, holds the finite values among the
    /// position's options.
    Infinite(Vec<Nimber>),
}

/// Who wins with perfect play, from the player to move's side; JSON
/// `"win"`, `"loss"` or `"draw"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The player to move wins (an N-position).
    Win,
    /// The player to move loses (a P-position).
    Loss,
    /// Neither can force a win: play goes on forever.
    Draw,
}

impl Outcome {
    /// `"win"`, `"loss"` or `"draw"`, as reports print it.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
        }
    }

    /// What a good move leaves the opponent: a won sum is left lost, a
    /// drawn one drawn (any other move of a drawn sum hands the opponent a
    /// win); a lost sum has no good move.
    pub fn left_by_good_move(self) -> Option<Outcome> {
        match self {
            Outcome::Win => Some(Outcome::Loss),
            Outcome::Draw => Some(Outcome::Draw),
            Outcome::Loss => None,
        }
    }
}

impl LoopyValue {
    /// The outcome of the position on its own.
    pub fn outcome(&self) -> Outcome {
        sum_outcome(std::slice::from_ref(self))
    }
}

impl std::fmt::Display for LoopyValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoopyValue::Finite(v) => write!(f, "{v}"),
            LoopyValue::Infinite(k) => {
                let shown: Vec<String> = k.iter().map(Nimber::to_string).collect();
                write!(f, "∞{{{}}}", shown.join(","))
            }
        }
    }
}

/// The outcome of positions played together, by Smith's theorem (see the
/// module documentation).
pub fn sum_outcome(values: &[LoopyValue]) -> Outcome {
    let mut finite = Nimber::ZERO;
    let mut infinite = None;
    for value in values {
        match value {
            LoopyValue::Finite(v) => finite ^= *v,
            LoopyValue::Infinite(k) => {
                if infinite.is_some() {
                    return Outcome::Draw;
                }
                infinite = Some(k);
            }
        }
    }
    match infinite {
        None if finite.is_zero() => Outcome::Loss,
        None => Outcome::Win,
        Some(k) if k.contains(&finite) => Outcome::Win,
        Some(_) => Outcome::Draw,
    }
}

/// The generalized Sprague–Grundy value of every position of `graph`.
///
/// ```
/// use grundy::solve::{loopy_values, Adjacency, LoopyValue, Outcome};
/// use grundy::Nimber;
/// // a <-> b, b -> c (c has no moves).
/// let (starts, targets) = ([0, 1, 3, 3], [1, 0, 2]);
/// let values = loopy_values(Adjacency { starts: &starts, targets: &targets })?;
/// assert_eq!(values[2], LoopyValue::Finite(Nimber::ZERO));
/// assert_eq!(values[1], LoopyValue::Finite(Nimber::new(1)));
/// // a's only move goes to b, worth 1: a is worth 0, a loss.
/// assert_eq!(values[0].outcome(), Outcome::Loss);
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn loopy_values(graph: Adjacency<'_>) -> Result<Vec<LoopyValue>> {
    const UNLABELED: u32 = u32::MAX;
    let count = graph.len();
    let (back_starts, sources) = graph.reversed();
    let predecessors = |p: usize| {
        sources[back_starts[p]..back_starts[p + 1]]
            .iter()
            .map(|&q| q as usize)
    };
    let mut label = vec![UNLABELED; count];
    // eligible[u]: u is unlabeled and every j < m is the value of an option.
    let mut eligible = vec![true; count];
    let mut blocked = vec![false; count];
    let mut waiting = vec![0usize; count];
    let mut queue = Vec::new();
    let mut m: u32 = 0;
    while eligible.iter().any(|&e| e) {
        // waiting[u]: options of u unlabeled before this stage and not yet
        // known to have an option labelled m.
        for u in 0..count {
            blocked[u] = false;
            waiting[u] = graph.moves(u).filter(|&v| label[v] == UNLABELED).count();
            if eligible[u] && waiting[u] == 0 {
                queue.push(u);
            }
        }
        while let Some(u) = queue.pop() {
            if label[u] != UNLABELED || blocked[u] {
                continue;
            }
            label[u] = m;
            for p in predecessors(u) {
                if label[p] != UNLABELED || blocked[p] {
                    continue;
                }
                // p has an option labelled m: it cannot be m, and a move to
                // it can be answered by a move to m.
                blocked[p] = true;
                for q in predecessors(p) {
                    waiting[q] -= 1;
                    if waiting[q] == 0 && eligible[q] && !blocked[q] && label[q] == UNLABELED {
                        queue.push(q);
                    }
                }
            }
        }
        // Positions that met no option labelled m cannot be worth more.
        for u in 0..count {
            eligible[u] = eligible[u] && label[u] == UNLABELED && blocked[u];
        }
        m = m.checked_add(1).ok_or(crate::Error::NimberOverflow {
            value: u64::from(u32::MAX),
        })?;
    }
    Ok((0..count)
        .map(|u| {
            if label[u] != UNLABELED {
                LoopyValue::Finite(Nimber::new(label[u]))
            } else {
                let mut finite: Vec<Nimber> = graph
                    .moves(u)
                    .filter(|&v| label[v] != UNLABELED)
                    .map(|v| Nimber::new(label[v]))
                    .collect();
                finite.sort_unstable();
                finite.dedup();
                LoopyValue::Infinite(finite)
            }
        })
        .collect())
}

/// Won, lost or drawn, with remoteness, for every position of one explicit
/// graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retrograde {
    /// The outcome of each position.
    pub outcomes: Vec<Outcome>,
    /// For won and lost positions, the number of moves left with perfect
    /// play (the winner hurries, the loser delays); 0 for draws.
    pub remoteness: Vec<u32>,
}

impl Retrograde {
    /// The moves left from `p` with perfect play; `None` for a draw, which
    /// never ends.
    pub fn remoteness_of(&self, p: usize) -> Option<u32> {
        (self.outcomes[p] != Outcome::Draw).then(|| self.remoteness[p])
    }
}

/// Classifies every position of `graph` by retrograde analysis: positions
/// without moves are lost; a position with a move to a lost one is won
/// (remoteness one more than the least such); a position all of whose
/// moves lead to won ones is lost (one more than the largest); the rest
/// are drawn. Linear in the size of the graph.
pub fn retrograde(graph: Adjacency<'_>) -> Retrograde {
    let count = graph.len();
    let (back_starts, sources) = graph.reversed();
    let mut outcomes = vec![Outcome::Draw; count];
    let mut remoteness = vec![0u32; count];
    let mut unresolved: Vec<usize> = (0..count).map(|p| graph.moves(p).count()).collect();
    // Breadth-first by remoteness, so the first lost option found for a
    // position is its nearest and the last won option its farthest.
    let mut frontier: std::collections::VecDeque<usize> =
        (0..count).filter(|&p| unresolved[p] == 0).collect();
    for &p in &frontier {
        outcomes[p] = Outcome::Loss;
    }
    let mut decided = vec![false; count];
    for &p in &frontier {
        decided[p] = true;
    }
    while let Some(q) = frontier.pop_front() {
        for &p in &sources[back_starts[q]..back_starts[q + 1]] {
            let p = p as usize;
            if decided[p] {
                continue;
            }
            match outcomes[q] {
                Outcome::Loss => {
                    outcomes[p] = Outcome::Win;
                    remoteness[p] = remoteness[q] + 1;
                    decided[p] = true;
                    frontier.push_back(p);
                }
                Outcome::Win => {
                    unresolved[p] -= 1;
                    if unresolved[p] == 0 {
                        outcomes[p] = Outcome::Loss;
                        remoteness[p] = remoteness[q] + 1;
                        decided[p] = true;
                        frontier.push_back(p);
                    }
                }
                Outcome::Draw => {}
            }
        }
    }
    Retrograde {
        outcomes,
        remoteness,
    }
}

/// Tokens on positions of one graph played together: the outcome by
/// Smith's theorem, and the moves that keep it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopySum {
    /// Who wins with perfect play.
    pub outcome: Outcome,
    /// When the player to move wins: every move `(token, to)` to a sum that
    /// is lost for the opponent.
    pub winning_moves: Vec<(usize, usize)>,
    /// When the sum is a draw: every move that keeps it one (the others
    /// give the opponent a win).
    pub drawing_moves: Vec<(usize, usize)>,
}

/// The outcome of tokens on `tokens` (positions of `graph`, whose values
/// are `values`) played together, with every winning or drawing move.
pub fn analyze_loopy_sum(
    graph: Adjacency<'_>,
    values: &[LoopyValue],
    tokens: &[usize],
) -> LoopySum {
    let mut parts: Vec<LoopyValue> = tokens.iter().map(|&t| values[t].clone()).collect();
    let outcome = sum_outcome(&parts);
    let mut winning_moves = Vec::new();
    let mut drawing_moves = Vec::new();
    if outcome != Outcome::Loss {
        for (i, &token) in tokens.iter().enumerate() {
            let before = parts[i].clone();
            for to in graph.moves(token) {
                parts[i] = values[to].clone();
                if outcome.left_by_good_move() == Some(sum_outcome(&parts)) {
                    match outcome {
                        Outcome::Draw => drawing_moves.push((i, to)),
                        _ => winning_moves.push((i, to)),
                    }
                }
            }
            parts[i] = before;
        }
    }
    LoopySum {
        outcome,
        winning_moves,
        drawing_moves,
    }
}

/// The outcome and remoteness of tokens on `tokens` played together, by
/// retrograde analysis of the sum's own state space (multisets of token
/// positions), explored up to `budget` states: independent of Smith's
/// theorem, and the source of the remoteness of a sum.
pub fn sum_retrograde(
    graph: Adjacency<'_>,
    tokens: &[usize],
    budget: usize,
) -> Result<(Outcome, u32)> {
    use rustc_hash::FxHashMap;
    let mut start: Vec<u32> = tokens.iter().map(|&t| t as u32).collect();
    start.sort_unstable();
    let mut index: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
    let mut states: Vec<Vec<u32>> = vec![start.clone()];
    index.insert(start, 0);
    let mut starts = vec![0usize];
    let mut targets: Vec<u32> = Vec::new();
    let mut next = 0;
    while next < states.len() {
        let state = states[next].clone();
        next += 1;
        for i in 0..state.len() {
            if i > 0 && state[i] == state[i - 1] {
                continue; // the same move from an equal token
            }
            for to in graph.moves(state[i] as usize) {
                let mut moved = state.clone();
                moved[i] = to as u32;
                moved.sort_unstable();
                let id = match index.get(&moved) {
                    Some(&id) => id,
                    None => {
                        if states.len() >= budget {
                            return Err(crate::Error::PositionBudget { limit: budget });
                        }
                        let id = states.len() as u32;
                        index.insert(moved.clone(), id);
                        states.push(moved);
                        id
                    }
                };
                targets.push(id);
            }
        }
        starts.push(targets.len());
    }
    let found = retrograde(Adjacency {
        starts: &starts,
        targets: &targets,
    });
    Ok((found.outcomes[0], found.remoteness[0]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(count: usize, edges: &[(usize, usize)]) -> (Vec<usize>, Vec<u32>) {
        let mut starts = vec![0usize; count + 1];
        let mut sorted = edges.to_vec();
        sorted.sort_unstable();
        for &(a, _) in &sorted {
            starts[a + 1] += 1;
        }
        for p in 0..count {
            starts[p + 1] += starts[p];
        }
        (starts, sorted.iter().map(|&(_, b)| b as u32).collect())
    }

    #[test]
    fn a_lone_cycle_is_a_draw_and_an_exit_changes_it() {
        // a -> b -> a: both ∞{}, draws.
        let (s, t) = graph(2, &[(0, 1), (1, 0)]);
        let values = loopy_values(Adjacency {
            starts: &s,
            targets: &t,
        })
        .unwrap();
        assert_eq!(
            values,
            [LoopyValue::Infinite(vec![]), LoopyValue::Infinite(vec![])]
        );
        assert_eq!(values[0].outcome(), Outcome::Draw);
        // With b -> end: end is 0; a is 0 (its only option, b, has the
        // option end of value 0 that reverses a move there), and b, with
        // options a = 0 and end = 0, is 1.
        let (s, t) = graph(3, &[(0, 1), (1, 0), (1, 2)]);
        let values = loopy_values(Adjacency {
            starts: &s,
            targets: &t,
        })
        .unwrap();
        assert_eq!(values[2], LoopyValue::Finite(Nimber::ZERO));
        assert_eq!(values[1], LoopyValue::Finite(Nimber::new(1)));
        assert_eq!(values[0], LoopyValue::Finite(Nimber::ZERO));
    }

    #[test]
    fn infinite_values_list_their_finite_options() {
        // a self-loop with an exit to a terminal: ∞{0}, a win.
        let (s, t) = graph(2, &[(0, 0), (0, 1)]);
        let values = loopy_values(Adjacency {
            starts: &s,
            targets: &t,
        })
        .unwrap();
        assert_eq!(values[0], LoopyValue::Infinite(vec![Nimber::ZERO]));
        assert_eq!(values[0].outcome(), Outcome::Win);
        assert_eq!(values[0].to_string(), "∞{0}");
        let sum = [values[0].clone(), LoopyValue::Finite(Nimber::new(1))];
        assert_eq!(sum_outcome(&sum), Outcome::Draw);
        let sum = [values[0].clone(), values[0].clone()];
        assert_eq!(sum_outcome(&sum), Outcome::Draw);
    }

    #[test]
    fn retrograde_remoteness_counts_moves() {
        // 0 -> 1 -> 2 -> 3 (terminal), 0 -> 3, 4 <-> 5.
        let (s, t) = graph(6, &[(0, 1), (1, 2), (2, 3), (0, 3), (4, 5), (5, 4)]);
        let found = retrograde(Adjacency {
            starts: &s,
            targets: &t,
        });
        assert_eq!(
            found.outcomes,
            [
                Outcome::Win,
                Outcome::Loss,
                Outcome::Win,
                Outcome::Loss,
                Outcome::Draw,
                Outcome::Draw
            ]
        );
        // The winner at 0 goes straight to 3; from 1 the loser lasts two moves.
        assert_eq!(found.remoteness[..4], [1, 2, 1, 0]);
    }
}
