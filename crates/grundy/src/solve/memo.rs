//! The generic memoized solver: Grundy values for any [`Ruleset`] with
//! hashable positions.
//!
//! It walks the game graph depth-first with an explicit stack, so a chain of
//! ten million positions uses heap memory, not the thread's stack. A position
//! met again while it is still being evaluated lies on a cycle; the solver
//! stops with [`Error::Cycle`] naming it. Every position evaluated is counted
//! against a budget, so a runaway state space stops with
//! [`Error::PositionBudget`] instead of exhausting memory.

use rustc_hash::FxHashMap;

use crate::{Error, MexScratch, Nimber, Options, Result, Ruleset};

/// The default position budget. It counts positions, not bytes: at a few
/// dozen bytes of bookkeeping per small position it stays within a few GiB;
/// games with large positions should set a smaller one.
pub const DEFAULT_POSITION_BUDGET: usize = 50_000_000;

/// What the solver knows about a position.
#[derive(Clone, Copy)]
enum Slot {
    /// Being evaluated: on the current search path.
    Open,
    /// Evaluated.
    Done(Nimber),
}

/// The values a [`MemoSolver`] finished, kept between solvers.
pub struct Memo<P>(FxHashMap<P, Slot>);

impl<P> Default for Memo<P> {
    fn default() -> Self {
        Memo(FxHashMap::default())
    }
}

/// How a stack frame combines the values of its options.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Combine {
    /// A position: the mex over its options.
    Mex,
    /// A position that decomposed: the nim-sum of its single option's parts.
    Sum,
}

struct Frame<P> {
    position: P,
    combine: Combine,
    /// Index of this frame's first option in the shared option buffer.
    first_option: usize,
    /// Next component (counted over the whole buffer) still to be checked.
    cursor: usize,
}

/// A memoizing solver for one ruleset.
///
/// Values are remembered between calls, so asking for many positions of the
/// same game shares the work.
///
/// ```
/// use grundy::{MemoSolver, Nimber, Options, Ruleset};
///
/// /// Take one or two tokens from a single pile.
/// struct OneOrTwo;
/// impl Ruleset for OneOrTwo {
///     type Position = u32;
///     fn options(&self, n: &u32, out: &mut Options<u32>) {
///         for take in 1..=2 {
///             if *n >= take {
///                 out.push([n - take]);
///             }
///         }
///     }
/// }
///
/// let mut solver = MemoSolver::new(&OneOrTwo);
/// assert_eq!(solver.value(&7).unwrap(), Nimber::new(1));
/// assert_eq!(solver.value(&9).unwrap(), Nimber::ZERO);
/// ```
pub struct MemoSolver<'r, R: Ruleset> {
    rules: &'r R,
    memo: FxHashMap<R::Position, Slot>,
    budget: usize,
    options: Options<R::Position>,
    parts: Vec<R::Position>,
    stack: Vec<Frame<R::Position>>,
    seen: MexScratch,
}

impl<'r, R: Ruleset> MemoSolver<'r, R> {
    /// A solver with the [default budget](DEFAULT_POSITION_BUDGET).
    pub fn new(rules: &'r R) -> Self {
        MemoSolver {
            rules,
            memo: FxHashMap::default(),
            budget: DEFAULT_POSITION_BUDGET,
            options: Options::new(),
            parts: Vec::new(),
            stack: Vec::new(),
            seen: MexScratch::new(),
        }
    }

    /// Sets the largest number of positions the solver may evaluate.
    pub fn with_budget(mut self, positions: usize) -> Self {
        self.budget = positions;
        self
    }

    /// A solver that starts from the values an earlier one finished
    /// ([`MemoSolver::into_memo`]) over the same rules, or rules that only
    /// added positions since (as a game explored step by step does): a
    /// cache that outlives one borrow of the rules, so that each query costs
    /// the positions it adds, not every position cached.
    pub fn resume(rules: &'r R, memo: Memo<R::Position>) -> Self {
        MemoSolver {
            memo: memo.0,
            ..MemoSolver::new(rules)
        }
    }

    /// The values finished so far, for [`MemoSolver::resume`].
    pub fn into_memo(mut self) -> Memo<R::Position> {
        self.abandon();
        Memo(std::mem::take(&mut self.memo))
    }

    /// The rules the solver plays.
    pub fn rules(&self) -> &'r R {
        self.rules
    }

    /// The number of positions evaluated so far.
    pub fn positions_evaluated(&self) -> usize {
        self.memo.len()
    }

    /// The Grundy value of `position`.
    ///
    /// After an error the solver keeps the values it finished and can be used
    /// again.
    pub fn value(&mut self, position: &R::Position) -> Result<Nimber> {
        if let Some(Slot::Done(v)) = self.memo.get(position) {
            return Ok(*v);
        }
        let result = self.search(position.clone());
        if result.is_err() {
            self.abandon();
        }
        result
    }

    fn search(&mut self, root: R::Position) -> Result<Nimber> {
        self.enter(root)?;
        loop {
            let frame = self
                .stack
                .last_mut()
                .expect("search keeps a frame until it returns");
            let mut pending = None;
            while frame.cursor < self.options.component_count() {
                let component = self.options.component(frame.cursor);
                match self.memo.get(component) {
                    Some(Slot::Done(_)) => frame.cursor += 1,
                    Some(Slot::Open) => {
                        return Err(Error::Cycle {
                            position: format!("{component:?}"),
                        });
                    }
                    None => {
                        pending = Some(component.clone());
                        break;
                    }
                }
            }
            if let Some(next) = pending {
                self.enter(next)?;
                continue;
            }
            let frame = self.stack.pop().expect("frame checked above");
            let value = match self.combine(&frame) {
                Ok(value) => value,
                Err(error) => {
                    self.memo.remove(&frame.position);
                    return Err(error);
                }
            };
            self.options.truncate(frame.first_option);
            self.memo.insert(frame.position, Slot::Done(value));
            if self.stack.is_empty() {
                return Ok(value);
            }
        }
    }

    /// Opens a frame for `position`: marks it open and lists its options.
    fn enter(&mut self, position: R::Position) -> Result<()> {
        if self.memo.len() >= self.budget {
            return Err(Error::PositionBudget { limit: self.budget });
        }
        let first_option = self.options.len();
        let cursor = self.options.component_count();
        self.parts.clear();
        let combine = if self.rules.decompose(&position, &mut self.parts) {
            self.options.push(self.parts.drain(..));
            Combine::Sum
        } else {
            self.rules.options(&position, &mut self.options);
            // A listing cut short by a Cancel token must not be solved.
            crate::cancel::check()?;
            Combine::Mex
        };
        self.memo.insert(position.clone(), Slot::Open);
        self.stack.push(Frame {
            position,
            combine,
            first_option,
            cursor,
        });
        Ok(())
    }

    /// The value of a frame whose option components are all evaluated.
    fn combine(&mut self, frame: &Frame<R::Position>) -> Result<Nimber> {
        let option_value = |option: &[R::Position]| -> Nimber {
            option
                .iter()
                .map(|c| match self.memo.get(c) {
                    Some(Slot::Done(v)) => *v,
                    _ => unreachable!("every component is evaluated before its frame closes"),
                })
                .sum()
        };
        match frame.combine {
            Combine::Sum => Ok(option_value(self.options.get(frame.first_option))),
            Combine::Mex => {
                self.seen.clear();
                for i in frame.first_option..self.options.len() {
                    self.seen.insert(option_value(self.options.get(i)));
                }
                self.seen.mex()
            }
        }
    }

    /// Discards an unfinished search, forgetting the positions it opened.
    fn abandon(&mut self) {
        for frame in self.stack.drain(..) {
            self.memo.remove(&frame.position);
        }
        self.options.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Take-and-split heaps as a sum game whose positions are sorted lists of
    /// heaps, to exercise decomposition.
    struct Heaps;
    impl Ruleset for Heaps {
        type Position = Vec<u8>;
        fn options(&self, position: &Vec<u8>, out: &mut Options<Vec<u8>>) {
            // Only single heaps reach here; sums are decomposed.
            let n = position.first().copied().unwrap_or(0);
            for take in 1..=n.min(2) {
                let rest = n - take;
                out.push([vec![rest]]);
            }
        }
        fn decompose(&self, position: &Vec<u8>, parts: &mut Vec<Vec<u8>>) -> bool {
            if position.len() < 2 {
                return false;
            }
            parts.extend(position.iter().map(|&h| vec![h]));
            true
        }
    }

    #[test]
    fn decomposed_positions_are_nim_sums() {
        let mut solver = MemoSolver::new(&Heaps);
        // Subtraction {1,2}: g(n) = n mod 3.
        assert_eq!(solver.value(&vec![4]).unwrap(), Nimber::new(1));
        assert_eq!(solver.value(&vec![4, 5]).unwrap(), Nimber::new(3));
        assert_eq!(solver.value(&vec![4, 5, 3]).unwrap(), Nimber::new(3));
    }

    struct Ring(u32);
    impl Ruleset for Ring {
        type Position = u32;
        fn options(&self, n: &u32, out: &mut Options<u32>) {
            out.push([(n + 1) % self.0]);
        }
    }

    #[test]
    fn a_cycle_is_an_error_and_the_solver_stays_usable() {
        let mut solver = MemoSolver::new(&Ring(5));
        assert!(matches!(solver.value(&0), Err(Error::Cycle { .. })));
        assert!(matches!(solver.value(&3), Err(Error::Cycle { .. })));
        assert_eq!(solver.positions_evaluated(), 0);
    }

    struct Unbounded;
    impl Ruleset for Unbounded {
        type Position = u64;
        fn options(&self, n: &u64, out: &mut Options<u64>) {
            out.push([n + 1]);
        }
    }

    #[test]
    fn a_runaway_state_space_hits_the_budget() {
        let mut solver = MemoSolver::new(&Unbounded).with_budget(1000);
        assert_eq!(solver.value(&0), Err(Error::PositionBudget { limit: 1000 }));
    }
}
