//! Solvers: they turn rules into values.
//!
//! - [`MemoSolver`] handles any [`Ruleset`](crate::Ruleset) with hashable
//!   positions: depth-first with an explicit stack, memoized, with cycle
//!   detection and a position budget.
//! - [`TableSolver`] fills a flat table `g(0..=N)` for heap games, using a
//!   closed form when the ruleset knows one.
//! - [`SparseSolver`] computes take-and-break games that leave at most two
//!   heaps by the rare/common method, in time near-linear in the table;
//!   [`SparseSolver::extend_windowed`] does it in bounded memory, writing
//!   a checksummed [`ValueStream`].
//! - [`Plain`] hides a heap game's fast paths, for cross-checking them.
//! - [`loopy_values`] gives games with cycles their generalized Grundy
//!   values (finite or `∞(K)`), and [`retrograde`] win/lose/draw with
//!   remoteness.
//! - [`sweep_outcomes`] classifies numbered states as won or lost, for
//!   games that are not sums, one bit per state.

mod checkpoint;
mod clock;
mod coins;
mod crew;
mod graph;
mod hackenbush;
mod load;
mod loopy;
mod maze;
mod memo;
mod pair;
pub use pair::PairWins;
mod plain;
mod premark;
mod probe;
mod scripted;
mod sparse;
mod storage;
mod stream;
mod sweep;
mod table;
mod wanted;
mod window;

pub use crate::game::Adjacency;
pub use checkpoint::{CHECKPOINT_FORMAT, CHUNK_HEAPS, Checkpoint, MAX_HEADER};
pub use coins::{CoinTable, nim_product, tartan_table};
pub use graph::GraphValues;
pub use hackenbush::HACKENBUSH_WORK;

/// The default work limit of computations counted in machine-word
/// operations (coin tables, counts of many heaps, Hackenbush cuts): about
/// ten seconds of one core for the cheapest operations.
pub const DEFAULT_WORK: u64 = 1_000_000_000;
pub use loopy::{
    LoopySum, LoopyValue, Outcome, Retrograde, analyze_loopy_sum, loopy_values, retrograde,
    sum_outcome, sum_retrograde,
};
pub use memo::{DEFAULT_POSITION_BUDGET, Memo, MemoSolver};
pub use plain::Plain;
pub use scripted::{LoopyScript, ScriptMove, ScriptSum, script_loopy, script_sum};
pub use sparse::{Pipeline, SparseSolver, SparseStats};
pub(crate) use storage::{Storage, storage_of};
pub use stream::{ChunkReader, STREAM_FORMAT, StreamState, StreamWriter, ValueStream};
pub use sweep::{Outcomes, sweep_outcomes};
pub use table::{DEFAULT_TABLE_LIMIT, Engine, TableSolver};
pub use window::{
    Recompute, Stage, WINDOW_FORMAT, WindowOptions, WindowOutcome, WindowProgress, WindowSizes,
    verify_stream,
};
