//! Solvers: they turn rules into values.
//!
//! - [`MemoSolver`] handles any [`Ruleset`](crate::Ruleset) with hashable
//!   positions: depth-first with an explicit stack, memoized, with cycle
//!   detection and a position budget.
//! - [`TableSolver`] fills a flat table `g(0..=N)` for heap games, using a
//!   closed form when the ruleset knows one.
//! - [`SparseSolver`] computes take-and-break games that leave at most two
//!   heaps by the rare/common method, in time near-linear in the table.
//! - [`Plain`] hides a heap game's fast paths, for cross-checking them.
//! - [`sweep_outcomes`] classifies numbered states as won or lost, for
//!   games that are not sums, one bit per state.

mod checkpoint;
mod memo;
mod plain;
mod sparse;
mod sweep;
mod table;

pub use checkpoint::{CHECKPOINT_FORMAT, Checkpoint};
pub use memo::{DEFAULT_POSITION_BUDGET, MemoSolver};
pub use plain::Plain;
pub use sparse::{Pipeline, SparseSolver, SparseStats};
pub use sweep::{Outcomes, sweep_outcomes};
pub use table::{DEFAULT_TABLE_LIMIT, Engine, TableSolver};
