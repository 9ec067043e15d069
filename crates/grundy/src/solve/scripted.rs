//! Solving scripted games ([`ScriptGame`], whose rules `rules/script`
//! describes): the values of heaps by memoized search over the positions
//! the script reaches, positions played together, generalized values when
//! play can cycle (Smith), and the forward sweep of numbered states.

use rustc_hash::FxHashMap;

use super::{Adjacency, LoopyValue, MemoSolver, Outcomes, loopy_values, sweep_outcomes};
use crate::rules::{ExploredGame, ScriptGame, ScriptPosition};
use crate::{PositionMove, PositionSum, Result, ValueTable, analyze_positions};

impl ScriptGame {
    /// `g(0..=to)` for a script whose positions are heaps.
    pub fn heap_values(&self, to: u64) -> Result<ValueTable> {
        let heaps = self.heaps_to(to)?;
        let explored = self.explore(&heaps)?;
        values_of(&explored, &heaps)
    }

    /// `g(0..=to)` with the explored game behind it, whose options a caller
    /// can list without calling the script again.
    ///
    /// A script's move may make a heap larger (`options(3)` may list `4`
    /// in a game that still ends), so the table goes past `to` when it must:
    /// it holds the value of every heap in every option of the heaps
    /// `0..=to`, and looking those up never runs past its end.
    pub fn heap_table(&self, to: u64) -> Result<(ExploredGame, ValueTable)> {
        let mut heaps = self.heaps_to(to)?;
        let mut explored = self.explore(&heaps)?;
        let reach = heaps
            .iter()
            .filter_map(|heap| explored.ranges.get(heap))
            .flat_map(|&(first, end)| first..end)
            .flat_map(|i| explored.options.get(i))
            .filter_map(|part| match part {
                ScriptPosition::Heap(h) => Some(*h),
                ScriptPosition::Tuple(_) => None,
            })
            .fold(to, u64::max);
        if reach > to {
            heaps = self.heaps_to(reach)?;
            self.grow(
                &mut explored,
                &heaps[heaps.len() - (reach - to) as usize..],
                false,
            )?;
        }
        let values = values_of(&explored, &heaps)?;
        Ok((explored, values))
    }

    /// Who wins from each state `0..states` of a game that need not be a
    /// sum: `options(s)` lists single states, each smaller than `s`. One
    /// forward sweep ([`sweep_outcomes`]) over the options
    /// [`ScriptGame::list_states`] lists, on as many threads as
    /// [`ScriptGame::with_threads`] allows; the answer, the error and the
    /// printed log do not depend on their number.
    pub fn outcomes(
        &self,
        states: u64,
        memory_limit: u64,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<Outcomes> {
        self.list_states(states, &mut |options| {
            sweep_outcomes(states, memory_limit, options, progress)
        })
    }
}

/// The values of `heaps`, all explored, in order.
fn values_of(explored: &ExploredGame, heaps: &[ScriptPosition]) -> Result<ValueTable> {
    let mut solver = MemoSolver::new(explored);
    heaps.iter().map(|heap| solver.value(heap)).collect()
}

/// The positions of a scripted game that may cycle, explored from some
/// starts and numbered, with their generalized Sprague–Grundy values (see
/// [`loopy_values`]).
#[derive(Clone, Debug)]
pub struct LoopyScript {
    /// Every position explored; the starts come first, in order (repeats
    /// kept once).
    pub positions: Vec<ScriptPosition>,
    /// The generalized value of each.
    pub values: Vec<LoopyValue>,
    numbers: FxHashMap<ScriptPosition, u32>,
    starts: Vec<usize>,
    targets: Vec<u32>,
}

impl LoopyScript {
    /// The explored positions as a graph.
    pub fn adjacency(&self) -> Adjacency<'_> {
        Adjacency {
            starts: &self.starts,
            targets: &self.targets,
        }
    }

    /// The number of `position`, if it was explored.
    pub fn index(&self, position: &ScriptPosition) -> Option<usize> {
        self.numbers.get(position).map(|&n| n as usize)
    }
}

/// Explores a scripted game from `starts` and gives every position reached
/// its generalized value, cycles allowed. Every option must be a single
/// position: a move that leaves a sum has no value to combine once play
/// can cycle.
pub fn script_loopy(game: &ScriptGame, starts: &[ScriptPosition]) -> Result<LoopyScript> {
    let explored = game.explore(starts)?;
    let mut positions: Vec<ScriptPosition> = Vec::with_capacity(explored.len());
    let mut numbers: FxHashMap<ScriptPosition, u32> = FxHashMap::default();
    for p in starts.iter().chain(explored.ranges.keys()) {
        if !numbers.contains_key(p) {
            numbers.insert(p.clone(), positions.len() as u32);
            positions.push(p.clone());
        }
    }
    let mut adjacency_starts = vec![0usize];
    let mut targets = Vec::new();
    for p in &positions {
        let (first, end) = explored.ranges[p];
        for i in first..end {
            match explored.options.get(i) {
                [single] => targets.push(numbers[single]),
                _ => {
                    return Err(game.error(format!(
                        "options({p}): the game has a cycle, and a move that leaves a sum of \
                         positions has no value then; list single positions"
                    )));
                }
            }
        }
        adjacency_starts.push(targets.len());
    }
    let values = loopy_values(Adjacency {
        starts: &adjacency_starts,
        targets: &targets,
    })?;
    Ok(LoopyScript {
        positions,
        values,
        numbers,
        starts: adjacency_starts,
        targets,
    })
}

/// Positions of a scripted game played together.
pub type ScriptSum = PositionSum<ScriptPosition>;

/// A winning move in a [`ScriptSum`].
pub type ScriptMove = PositionMove<ScriptPosition>;

/// The values of `positions` played together, who wins, and every winning
/// move.
pub fn script_sum(game: &ScriptGame, positions: &[ScriptPosition]) -> Result<ScriptSum> {
    analyze_positions(&game.explore(positions)?, positions)
}
