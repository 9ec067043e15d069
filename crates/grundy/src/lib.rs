//! # grundy — Grundy values for impartial games
//!
//! Every position of a finite impartial game under normal play (the player
//! who cannot move loses) is equivalent to a Nim heap whose size is the
//! position's *Grundy value* `g(P) = mex { g(Q) : P -> Q }`, and a sum of
//! independent games is worth the XOR (nim-sum) of its parts
//! (Sprague 1935, Grundy 1939). This crate computes those values and answers
//! the questions people ask with them: who wins, and every winning move.
//!
//! The crate is layered the way the work flows:
//!
//! - **rules** describe games: the [`Ruleset`] trait (positions and options,
//!   each option a sum of components) and [`HeapRuleset`] for games on single
//!   heaps; built-in rulesets in [`rules`] — take-and-break codes
//!   ([`TakeBreak`], any digits and CGSuite's constraints), subtraction games
//!   ([`Subtraction`], finite or named infinite sets), divisor games and
//!   named games such as Kayles, all reachable through [`HeapGame`]'s
//!   parser — and explicit game graphs ([`rules::GameGraph`]);
//! - **solvers** turn rules into values: [`MemoSolver`] for any ruleset,
//!   [`TableSolver`] for heap tables, which picks a closed form, the
//!   sparse-space engine ([`solve::SparseSolver`]) or the dense one, and can
//!   checkpoint long runs; a [`Cancel`] token (a deadline, a client gone)
//!   stops any of them from outside, inside a heap's own work;
//! - **analysis** turns values into answers: [`analyze_sum`] for sums,
//!   [`analysis::analyze`] for periods proven by theorem, with certificates.
//!
//! ```
//! use grundy::{analyze_sum, Component, TableSolver, HeapGame};
//!
//! // Kayles: g(0..=10).
//! let kayles: HeapGame = "kayles".parse()?;
//! let values = TableSolver::new().values(&kayles, 10)?;
//! assert_eq!(values.iter().map(|v| v.get()).collect::<Vec<_>>(),
//!            [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2]);
//!
//! // Rows of 4 and 7 pins: 1 ^ 2 = 3, so the first player wins.
//! let rows = [Component { game: 0, heap: 4 }, Component { game: 0, heap: 7 }];
//! let sum = analyze_sum(&[kayles], &rows, &TableSolver::new(), grundy::LISTED_OPTIONS_LIMIT)?;
//! assert!(sum.first_player_wins());
//! for win in &sum.winning_moves {
//!     println!("row {} of {} pins becomes {:?}", win.component + 1, win.from, win.to);
//! }
//! # Ok::<(), grundy::Error>(())
//! ```

pub mod analysis;
mod bitset;
mod cancel;
mod error;
mod fold;
mod game;
mod mex;
pub mod nim_field;
mod nimber;
pub mod report;
pub mod rules;
mod scratch;
pub mod session;
pub mod solve;
pub mod spec;
mod sum;
mod transform;
mod values;

pub use cancel::{Cancel, CancelOnDrop};
pub use error::{Error, Knob, Result};
pub use game::{HeapRuleset, Options, Ruleset};
pub use mex::MexScratch;
pub use nimber::Nimber;
/// Exact counts ([`analysis::NimSumCounts`]) are big unsigned integers.
pub use num_bigint::BigUint;
pub use rules::{HeapGame, Subtraction, SubtractionSet, TakeBreak};
pub use solve::{MemoSolver, TableSolver};
pub use sum::{
    Component, ExplainedHeap, ExplainedOption, ExplainedSum, HeapMoveTable, HeapPart, HeapTables,
    HeapWins, LISTED_OPTIONS_LIMIT, ListedPart, Listing, MOVE_ROWS_LIMIT, MoveCounts, MoveReply,
    PartMove, PartMoves, PartsSum, PositionMove, PositionSum, PositionWins, SumAnalysis, SumPart,
    TokenSum, WINNING_MOVES_LISTED, Winner, WinningMove, WinsByValue, analyze_positions,
    analyze_positions_with, analyze_sum, analyze_sum_watched, explain_sum, has_option,
    heap_move_table, heaps_left, move_counts, play_move, play_parts, play_tokens,
    position_move_table, winning_move_counts, winning_targets,
};
pub(crate) use values::with_slice;
pub use values::{FoldedValues, Iter as ValueIter, ValueSlice, ValueTable};

/// The Rust example of `docs/architecture.md`, compiled and run as a
/// doctest so that the guide cannot drift from the library.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/architecture.md")]
pub struct ArchitectureGuide;
