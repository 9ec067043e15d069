//! Sums of heap games: the nim-sum, the winner and every winning move.
//!
//! By the Sprague–Grundy theorem a disjoint sum is worth the nim-sum `G` of
//! its components' values, and the player to move wins exactly when `G != 0`.
//! A move in component `i` wins exactly when it takes that component's value
//! `g_i` to `g_i ^ G`, since then the whole sum is worth zero; so the winning
//! moves are found component by component, without searching the product
//! space.

use crate::{
    Error, HeapRuleset, MemoSolver, Nimber, Options, Result, Ruleset, TableSolver, ValueTable,
};

/// One component of a sum: a heap of one of the sum's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Component {
    /// Index of the component's game in the list of games.
    pub game: usize,
    /// The heap size.
    pub heap: usize,
}

/// A move in a sum that leaves the opponent a P-position.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WinningMove {
    /// The 0-based index of the component moved in.
    pub component: usize,
    /// The heap size before the move.
    pub from: usize,
    /// The heaps the component becomes, in increasing order and without empty
    /// heaps; empty when the heap disappears.
    pub to: Vec<usize>,
}

/// The outcome of a sum of heap games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumAnalysis {
    /// The value of each component, in order.
    pub values: Vec<Nimber>,
    /// The nim-sum of all components.
    pub nim_sum: Nimber,
    /// Every distinct winning move, ordered by component then result; empty
    /// when the player to move loses.
    pub winning_moves: Vec<WinningMove>,
}

impl SumAnalysis {
    /// Whether the player to move (the first player) wins.
    pub fn first_player_wins(&self) -> bool {
        !self.nim_sum.is_zero()
    }
}

/// Analyses the sum of `components`, each a heap of one of `games`.
///
/// Each game's value table is computed once, up to its largest heap; the
/// tables together must fit the solver's memory limit. Options are visited
/// one at a time, so a huge heap needs no buffer of its options.
///
/// ```
/// use grundy::{analyze_sum, Component, TableSolver, HeapGame, WinningMove};
/// let nim: HeapGame = "nim".parse().unwrap();
/// let heaps = [3, 5, 7].map(|heap| Component { game: 0, heap });
/// let sum = analyze_sum(&[nim], &heaps, &TableSolver::new()).unwrap();
/// assert_eq!(sum.nim_sum.get(), 1);
/// // Every winning move makes the nim-sum zero: 3 -> 2, 5 -> 4, 7 -> 6.
/// assert_eq!(sum.winning_moves.len(), 3);
/// assert_eq!(sum.winning_moves[0], WinningMove { component: 0, from: 3, to: vec![2] });
/// ```
pub fn analyze_sum<G: HeapRuleset>(
    games: &[G],
    components: &[Component],
    solver: &TableSolver,
) -> Result<SumAnalysis> {
    let tables = tables_for(games, components, solver)?;
    let values: Vec<Nimber> = components
        .iter()
        .map(|c| tables[c.game].at(c.heap))
        .collect();
    let nim_sum: Nimber = values.iter().copied().sum();

    let mut winning_moves = Vec::new();
    if !nim_sum.is_zero() {
        for (index, (component, &value)) in components.iter().zip(&values).enumerate() {
            let target = value ^ nim_sum;
            let table = &tables[component.game];
            games[component.game].visit_options(component.heap, &mut |option| {
                let reached: Nimber = option.iter().map(|&part| table.at(part)).sum();
                if reached == target {
                    winning_moves.push(WinningMove {
                        component: index,
                        from: component.heap,
                        to: leaves(option),
                    });
                }
            });
        }
        winning_moves.sort();
        winning_moves.dedup();
    }
    Ok(SumAnalysis {
        values,
        nim_sum,
        winning_moves,
    })
}

/// The heaps an option leaves: its non-empty parts, in increasing order.
/// Options that leave the same heaps are the same move.
fn leaves(option: &[usize]) -> Vec<usize> {
    let mut to: Vec<usize> = option.iter().copied().filter(|&p| p > 0).collect();
    to.sort_unstable();
    to
}

/// The moves of one component of a sum, counted by the value they reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveCounts {
    /// The component's value.
    pub value: Nimber,
    /// `(value reached, distinct moves reaching it)`, by value.
    pub by_value: Vec<(Nimber, u64)>,
}

impl MoveCounts {
    /// All distinct moves of the component.
    pub fn total(&self) -> u64 {
        self.by_value.iter().map(|&(_, c)| c).sum()
    }

    /// Moves to the value `v`.
    pub fn to_value(&self, v: Nimber) -> u64 {
        self.by_value
            .iter()
            .find(|&&(w, _)| w == v)
            .map_or(0, |&(_, c)| c)
    }
}

/// For each component of a sum, its distinct moves counted by the value
/// they reach. A move in component `i` wins exactly when it reaches
/// `g_i ^ G`, so the winning moves of the sum number
/// `sum_i counts[i].to_value(g_i ^ G)`.
///
/// ```
/// use grundy::{move_counts, Component, HeapGame, Nimber, TableSolver};
/// let kayles: HeapGame = "kayles".parse().unwrap();
/// let rows = [4, 7].map(|heap| Component { game: 0, heap });
/// let counts = move_counts(&[kayles], &rows, &TableSolver::new())?;
/// let nim_sum = counts[0].value ^ counts[1].value;
/// let winning: u64 = counts.iter().map(|c| c.to_value(c.value ^ nim_sum)).sum();
/// assert_eq!(winning, 2); // row 4 -> 2, row 7 -> 2 + 3
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn move_counts<G: HeapRuleset>(
    games: &[G],
    components: &[Component],
    solver: &TableSolver,
) -> Result<Vec<MoveCounts>> {
    let tables = tables_for(games, components, solver)?;
    Ok(components
        .iter()
        .map(|component| {
            let table = &tables[component.game];
            let mut seen = rustc_hash::FxHashSet::default();
            let mut counts = std::collections::BTreeMap::new();
            games[component.game].visit_options(component.heap, &mut |option| {
                if seen.insert(leaves(option)) {
                    let reached: Nimber = option.iter().map(|&part| table.at(part)).sum();
                    *counts.entry(reached).or_insert(0u64) += 1;
                }
            });
            MoveCounts {
                value: table.at(component.heap),
                by_value: counts.into_iter().collect(),
            }
        })
        .collect())
}

/// The value table of each game of a sum, up to the largest heap the
/// components use; together they must fit the solver's memory limit.
fn tables_for<G: HeapRuleset>(
    games: &[G],
    components: &[Component],
    solver: &TableSolver,
) -> Result<Vec<ValueTable>> {
    if let Some(bad) = components.iter().find(|c| c.game >= games.len()) {
        return Err(Error::InvalidComponent {
            game: bad.game,
            games: games.len(),
        });
    }
    // The largest heap of each game: its table must reach it.
    let mut largest = vec![None; games.len()];
    for c in components {
        let entry: &mut Option<usize> = &mut largest[c.game];
        *entry = Some(entry.map_or(c.heap, |m| m.max(c.heap)));
    }
    let total: u64 = largest
        .iter()
        .flatten()
        .map(|&heap| heap as u64 + 1)
        .fold(0, u64::saturating_add);
    solver.check_fits(total.saturating_sub(1))?;
    let mut tables = Vec::with_capacity(games.len());
    for (game, largest) in games.iter().zip(&largest) {
        tables.push(match largest {
            Some(heap) => solver.values(game, *heap as u64)?,
            None => ValueTable::new(),
        });
    }
    Ok(tables)
}

/// Positions of any ruleset played together: each one's value, the
/// nim-sum, and every winning move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionSum<P> {
    /// The value of each position.
    pub values: Vec<Nimber>,
    /// Their nim-sum: the first player wins when it is not zero.
    pub nim_sum: Nimber,
    /// Every move to a nim-sum of zero, by component in the order the
    /// rules list the options.
    pub winning_moves: Vec<PositionMove<P>>,
}

/// A winning move in a [`PositionSum`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionMove<P> {
    /// Which position moves (an index into the positions given).
    pub component: usize,
    /// What it becomes: positions played together (none: it disappears).
    pub to: Vec<P>,
}

/// The values of `positions` of `rules` played together, who wins, and
/// every winning move: the moves of one component to a position of value
/// `g ^ nim_sum`, which leave a nim-sum of zero (Sprague–Grundy).
///
/// ```
/// use grundy::{analyze_positions, Nimber, Options, Ruleset};
/// // Take one or two from a heap.
/// struct OneOrTwo;
/// impl Ruleset for OneOrTwo {
///     type Position = u32;
///     fn options(&self, n: &u32, out: &mut Options<u32>) {
///         (1..=2).filter(|t| t <= n).for_each(|t| out.push([n - t]));
///     }
/// }
/// let sum = analyze_positions(&OneOrTwo, &[4, 4, 2])?;
/// assert_eq!(sum.nim_sum, Nimber::new(2));
/// assert_eq!(sum.winning_moves[0].component, 2); // 2 -> 0
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn analyze_positions<R: Ruleset>(
    rules: &R,
    positions: &[R::Position],
) -> Result<PositionSum<R::Position>> {
    let mut solver = MemoSolver::new(rules);
    let values = positions
        .iter()
        .map(|p| solver.value(p))
        .collect::<Result<Vec<Nimber>>>()?;
    let nim_sum: Nimber = values.iter().copied().sum();
    let mut winning_moves = Vec::new();
    if !nim_sum.is_zero() {
        let mut options = Options::new();
        for (component, (position, &value)) in positions.iter().zip(&values).enumerate() {
            options.clear();
            rules.options(position, &mut options);
            for option in options.iter() {
                let reached = option
                    .iter()
                    .map(|p| solver.value(p))
                    .sum::<Result<Nimber>>()?;
                if reached == value ^ nim_sum {
                    winning_moves.push(PositionMove {
                        component,
                        to: option.to_vec(),
                    });
                }
            }
        }
    }
    Ok(PositionSum {
        values,
        nim_sum,
        winning_moves,
    })
}
