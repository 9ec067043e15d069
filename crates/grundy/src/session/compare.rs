//! Two heap games compared value by value (`grundy compare`): the bound
//! each may analyse to, the memory check, the time limit, and a proof of
//! equality when both periods are proven ([`analysis::compare`]).

use std::time::Duration;

use super::HeapRules;
use crate::analysis::{self, Comparison, Limits};
use crate::{Cancel, Result, TableSolver};

/// How far [`compare`] goes: heaps `0..=to`, and as far as the larger of
/// the games' analysis bounds when both have a periodicity theorem (so
/// that their periods can prove them equal everywhere).
fn limits(first: &HeapRules, second: &HeapRules, to: u64) -> Limits {
    Limits {
        max: first.default_max().min(second.default_max()).max(to),
        ..Limits::default()
    }
}

/// The largest heap [`compare`] may tabulate for either game: what a
/// progress bar counts to.
pub fn compare_reach(first: &HeapRules, second: &HeapRules, to: u64) -> u64 {
    analysis::compare_reach(first, second, to, &limits(first, second, to))
}

/// Compares `first` and `second` on heaps `0..=to` (or further, to prove
/// them equal), stopping with [`crate::Error::TimeLimit`] after `time`;
/// `progress(game, n)` is told each game's heaps done (0 for the first).
///
/// ```
/// use grundy::session::{compare, HeapRules};
/// use grundy::spec::{GameSpec, Question};
/// let game = |s| HeapRules::from_spec(&GameSpec::parse(s).unwrap(), Question::Compare, &Default::default());
/// let found = compare(&game("kayles")?, &game("0.77")?, 100, &grundy::TableSolver::new(), std::time::Duration::from_secs(60), &|_, _| true)?;
/// assert!(found.proven_equal);
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn compare(
    first: &HeapRules,
    second: &HeapRules,
    to: u64,
    solver: &TableSolver,
    time: Duration,
    progress: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Result<Comparison> {
    let limits = limits(first, second, to);
    solver.check_fits(to.max(limits.max))?;
    first.start();
    second.start();
    // The time limit and Ctrl-C reach the thread that analyses the first
    // game through the token it runs under.
    let limit = Cancel::current()
        .unwrap_or_default()
        .child_with_time_limit(time);
    let compared = limit.run(|| analysis::compare(first, second, to, &limits, solver, progress));
    first.checked(second.checked(compared))
}
