//! Games given move by move: a front end explores a user's rules (Python's
//! `grundy.Rules`, whose `options` is any Python callable), numbers the
//! positions it meets and hands each one's options here, and asks about
//! them. The answers are the engine's: values by memoized search (kept
//! between questions, so a position once valued costs a look-up), sums
//! with every winning move by the Sprague–Grundy theorem, and, when play
//! can cycle, generalized values and Smith's rule for who wins.
//!
//! A game that is not a sum, with its states numbered so that every move
//! lowers the number, is swept instead ([`state_outcomes`]).
//!
//! ```
//! use grundy::session::{ExplicitGame, Outcome};
//! // Positions 0..=4, a move takes one or two away: 3 is lost.
//! let mut game = ExplicitGame::default();
//! for n in 0..=4u32 {
//!     game.add_position();
//!     game.set_options(n, (1..=2).filter(|&t| t <= n).map(|t| vec![n - t]));
//! }
//! assert_eq!(game.value(3)?.get(), 0);
//! assert_eq!(game.outcome(&[4, 1])?, Outcome::Loss);
//! # Ok::<(), grundy::Error>(())
//! ```

use crate::solve::{
    Adjacency, LoopyValue, Memo, Outcome, Outcomes, loopy_values, sum_outcome, sweep_outcomes,
};
use crate::sum::{PositionSum, analyze_positions_with};
use crate::{Error, MemoSolver, Nimber, Options, Result, Ruleset};

/// A game whose positions are numbers `0..positions()`, explored one by
/// one: each position's options are given once ([`ExplicitGame::set_options`]),
/// each option the positions a move leaves side by side (one, usually; a
/// move that splits a game leaves several).
#[derive(Default)]
pub struct ExplicitGame {
    /// Where the options of each explored position lie in `listed`.
    explored: Vec<Option<(usize, usize)>>,
    listed: Options<u32>,
    /// The values found so far: explored positions keep their options, so
    /// a value once found stays right.
    memo: Memo<u32>,
}

/// The explored part, as the engine's solvers see a game.
struct Explored<'a>(&'a ExplicitGame);

impl Ruleset for Explored<'_> {
    type Position = u32;

    fn options(&self, &p: &u32, out: &mut Options<u32>) {
        if let Some(Some((first, end))) = self.0.explored.get(p as usize) {
            for i in *first..*end {
                out.push(self.0.listed.get(i).iter().copied());
            }
        }
    }
}

impl ExplicitGame {
    /// How many positions are numbered.
    pub fn positions(&self) -> usize {
        self.explored.len()
    }

    /// Numbers a new position, its options not yet given.
    pub fn add_position(&mut self) -> u32 {
        self.explored.push(None);
        (self.explored.len() - 1) as u32
    }

    /// Whether `position`'s options are given.
    pub fn is_explored(&self, position: u32) -> bool {
        matches!(self.explored.get(position as usize), Some(Some(_)))
    }

    /// Gives `position`'s options (each the numbered positions a move
    /// leaves), once: a position explored already keeps its options.
    pub fn set_options(&mut self, position: u32, options: impl IntoIterator<Item = Vec<u32>>) {
        let Some(slot @ None) = self.explored.get_mut(position as usize) else {
            return;
        };
        let first = self.listed.len();
        for option in options {
            self.listed.push(option);
        }
        *slot = Some((first, self.listed.len()));
    }

    /// Runs `search` with the memoized solver, keeping what it finds.
    fn solve<T>(&mut self, search: impl FnOnce(&mut MemoSolver<'_, Explored<'_>>) -> T) -> T {
        let memo = std::mem::take(&mut self.memo);
        let (found, memo) = {
            let explored = Explored(self);
            let mut solver = MemoSolver::resume(&explored, memo);
            let found = search(&mut solver);
            (found, solver.into_memo())
        };
        self.memo = memo;
        found
    }

    /// The Grundy value of `position`; [`Error::Cycle`] (naming a
    /// position's number) when play from it can cycle.
    pub fn value(&mut self, position: u32) -> Result<Nimber> {
        self.solve(|solver| solver.value(&position))
    }

    /// `positions` played together: their values, the nim-sum and every
    /// winning move.
    pub fn sum(&mut self, positions: &[u32]) -> Result<PositionSum<u32>> {
        self.solve(|solver| analyze_positions_with(solver, positions))
    }

    /// Who wins `positions` played together, the player to move's view:
    /// by the nim-sum when every play ends, by Smith's rule over
    /// generalized values when it can cycle.
    pub fn outcome(&mut self, positions: &[u32]) -> Result<Outcome> {
        match self.sum(positions) {
            Ok(found) if found.nim_sum.is_zero() => Ok(Outcome::Loss),
            Ok(_) => Ok(Outcome::Win),
            Err(Error::Cycle { .. }) => {
                let values = self.generalized_values()?;
                let parts: Vec<LoopyValue> = positions
                    .iter()
                    .map(|&p| values[p as usize].clone())
                    .collect();
                Ok(sum_outcome(&parts))
            }
            Err(other) => Err(other),
        }
    }

    /// The generalized Sprague–Grundy value (Smith) of `position`.
    pub fn generalized_value(&self, position: u32) -> Result<LoopyValue> {
        let mut values = self.generalized_values()?;
        Ok(values.swap_remove(position as usize))
    }

    /// Generalized values of every numbered position. A move that leaves
    /// several positions side by side has no generalized value: such a
    /// game is refused.
    fn generalized_values(&self) -> Result<Vec<LoopyValue>> {
        let mut starts = vec![0usize];
        let mut targets = Vec::new();
        for range in &self.explored {
            if let Some((first, end)) = *range {
                for i in first..end {
                    match self.listed.get(i) {
                        [single] => targets.push(*single),
                        _ => {
                            return Err(Error::Unsupported {
                                kind: "a game that can cycle",
                                question: "generalized value",
                                reason: "a move that leaves a sum of positions has no value \
                                         then; list single positions"
                                    .into(),
                            });
                        }
                    }
                }
            }
            starts.push(targets.len());
        }
        loopy_values(Adjacency {
            starts: &starts,
            targets: &targets,
        })
    }
}

/// Who wins at each state `0..states` of a game whose moves lower the state
/// number (a bitmask of pieces left, digits left, …): `options(s, out)`
/// pushes the states one move from `s`. One forward pass, one bit a state
/// ([`sweep_outcomes`]); the bits must fit in `memory_limit` bytes.
/// `progress(s)` hears every 2^16 states; `false` stops the sweep.
pub fn state_outcomes(
    states: u64,
    memory_limit: u64,
    options: &mut dyn FnMut(u64, &mut Vec<u64>) -> Result<()>,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Outcomes> {
    sweep_outcomes(states, memory_limit, options, progress)
}
