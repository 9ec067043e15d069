//! Sums of heap games: the nim-sum, the winner and every winning move.
//!
//! By the Sprague–Grundy theorem a disjoint sum is worth the nim-sum `G` of
//! its components' values, and the player to move wins exactly when `G != 0`.
//! A move in component `i` wins exactly when it takes that component's value
//! `g_i` to `g_i ^ G`, since then the whole sum is worth zero; so the winning
//! moves are found component by component, without searching the product
//! space.

use crate::{DenseSolver, HeapRuleset, Nimber, Options, Result};

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
/// Each game's value table is computed once, up to its largest heap.
///
/// ```
/// use grundy::{analyze_sum, Component, DenseSolver, HeapGame, WinningMove};
/// let nim: HeapGame = "nim".parse().unwrap();
/// let heaps = [3, 5, 7].map(|heap| Component { game: 0, heap });
/// let sum = analyze_sum(&[nim], &heaps, &DenseSolver::new()).unwrap();
/// assert_eq!(sum.nim_sum.get(), 1);
/// // Every winning move makes the nim-sum zero: 3 -> 2, 5 -> 4, 7 -> 6.
/// assert_eq!(sum.winning_moves.len(), 3);
/// assert_eq!(sum.winning_moves[0], WinningMove { component: 0, from: 3, to: vec![2] });
/// ```
pub fn analyze_sum<G: HeapRuleset>(
    games: &[G],
    components: &[Component],
    solver: &DenseSolver,
) -> Result<SumAnalysis> {
    let mut tables = Vec::with_capacity(games.len());
    for (index, game) in games.iter().enumerate() {
        let largest = components
            .iter()
            .filter(|c| c.game == index)
            .map(|c| c.heap)
            .max()
            .unwrap_or(0);
        tables.push(solver.values(game, largest as u64)?);
    }
    let values: Vec<Nimber> = components.iter().map(|c| tables[c.game][c.heap]).collect();
    let nim_sum: Nimber = values.iter().copied().sum();

    let mut winning_moves = Vec::new();
    if !nim_sum.is_zero() {
        let mut options = Options::new();
        for (index, (component, &value)) in components.iter().zip(&values).enumerate() {
            let target = value ^ nim_sum;
            let table = &tables[component.game];
            options.clear();
            games[component.game].options(&component.heap, &mut options);
            for option in options.iter() {
                let reached: Nimber = option.iter().map(|&part| table[part]).sum();
                if reached == target {
                    let mut to: Vec<usize> = option.iter().copied().filter(|&p| p > 0).collect();
                    to.sort_unstable();
                    winning_moves.push(WinningMove {
                        component: index,
                        from: component.heap,
                        to,
                    });
                }
            }
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
