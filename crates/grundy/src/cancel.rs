//! Stopping a computation from outside it: a [`Cancel`] token, with an
//! optional time limit, that the engine's long loops check as they run.
//!
//! A progress callback between heaps cannot stop a single heap that takes
//! minutes (the options of one heap of `0.{2+}` at 200 are 4·10^12
//! partitions; a table of `0.{62}` to 20,000 builds split sets for
//! minutes), so the loops that can be long for one heap — partitions of a
//! take-and-break move, composition sets, a script's evaluation, the option
//! listings of a sum, the table solvers' heap loops — check the token
//! themselves and stop with [`Error::Cancelled`] or [`Error::TimeLimit`].
//!
//! The token is installed for the current thread by [`Cancel::run`] rather
//! than passed down: the loops sit behind [`HeapRuleset`](crate::HeapRuleset)
//! methods and closures that every ruleset, binding and solver would
//! otherwise have to thread a parameter through. Code outside `run` sees no
//! token and is never stopped; a check costs a thread-local read and an
//! atomic load (and a clock read when the token has a time limit), so the
//! loops check every few thousand steps, not every step.
//!
//! ```
//! use std::time::Duration;
//! use grundy::{Cancel, Error, HeapGame, TableSolver};
//! let game: HeapGame = "0.{62}".parse()?; // moves into 62 heaps
//! let limit = Cancel::with_time_limit(Duration::from_millis(50));
//! let found = limit.run(|| TableSolver::new().values(&game, 20_000));
//! assert!(matches!(found, Err(Error::TimeLimit { .. })));
//! # Ok::<(), grundy::Error>(())
//! ```

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::{Error, Result};

/// A shared flag that stops the computations running under it, set by
/// [`Cancel::cancel`] (from any thread) or by its time limit passing.
/// Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<State>);

#[derive(Debug, Default)]
struct State {
    cancelled: AtomicBool,
    /// When the time limit passes, and the limit (for the error).
    deadline: Option<(Instant, Duration)>,
    /// The token this one was made from (see [`Cancel::child_with_time_limit`]):
    /// when it stops, this one does.
    parent: Option<Cancel>,
}

thread_local! {
    /// The token of the [`Cancel::run`] the current thread is in.
    static CURRENT: RefCell<Option<Cancel>> = const { RefCell::new(None) };
}

impl Cancel {
    /// A token that stops work only when cancelled.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// A token that also stops work once `limit` has passed from now.
    pub fn with_time_limit(limit: Duration) -> Cancel {
        Cancel(Arc::new(State {
            cancelled: AtomicBool::new(false),
            deadline: Some((Instant::now() + limit, limit)),
            parent: None,
        }))
    }

    /// A token that stops once `limit` has passed from now or when this
    /// one stops, whichever comes first: a command's time limit under a
    /// process-wide Ctrl-C token. Cancelling the child leaves this one
    /// running.
    pub fn child_with_time_limit(&self, limit: Duration) -> Cancel {
        Cancel(Arc::new(State {
            cancelled: AtomicBool::new(false),
            deadline: Some((Instant::now() + limit, limit)),
            parent: Some(self.clone()),
        }))
    }

    /// A token that stops when this one stops or when it is cancelled
    /// itself: the helper threads of a piece of work, which the work stops
    /// when it ends early, and which stop with the caller's token.
    /// Cancelling the child leaves this one running.
    pub(crate) fn child(&self) -> Cancel {
        Cancel(Arc::new(State {
            cancelled: AtomicBool::new(false),
            deadline: None,
            parent: Some(self.clone()),
        }))
    }

    /// The token the current thread runs under (see [`Cancel::run`]), if
    /// any: work handed to another thread runs under it there too, so that
    /// it stops with the work that started it.
    pub fn current() -> Option<Cancel> {
        CURRENT.with_borrow(Clone::clone)
    }

    /// Stops the work running under this token (and its clones) at its next
    /// check.
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::Relaxed);
    }

    /// A guard that cancels the token when dropped: held by a request
    /// handler, it stops the request's work when the handler is dropped
    /// (the client left, or the request timed out).
    pub fn cancel_on_drop(&self) -> CancelOnDrop {
        CancelOnDrop(self.clone())
    }

    /// `Ok` while the work may go on; [`Error::Cancelled`] once cancelled,
    /// [`Error::TimeLimit`] once the time limit has passed. Once stopped,
    /// a token stays stopped.
    pub fn check(&self) -> Result<()> {
        if self.0.cancelled.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        if let Some(parent) = &self.0.parent {
            parent.check()?;
        }
        match self.0.deadline {
            Some((at, limit)) if Instant::now() >= at => Err(Error::TimeLimit { limit }),
            _ => Ok(()),
        }
    }

    /// Runs `work` on the current thread with this token installed: the
    /// engine's loops inside it stop when the token does. Runs nest; the
    /// outer token is restored afterwards, also when `work` panics.
    pub fn run<T>(&self, work: impl FnOnce() -> T) -> T {
        /// Puts the outer token back.
        struct Restore(Option<Cancel>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let outer = self.0.take();
                CURRENT.with_borrow_mut(|current| *current = outer);
            }
        }
        let outer = CURRENT.with_borrow_mut(|current| current.replace(self.clone()));
        let _restore = Restore(outer);
        work()
    }
}

/// Cancels its token when dropped (see [`Cancel::cancel_on_drop`]).
#[derive(Debug)]
#[must_use = "the token is cancelled when the guard is dropped"]
pub struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Runs `work` under `token` when there is one (a token taken with
/// [`Cancel::current`] on the thread that handed the work over).
pub(crate) fn run_under<T>(token: Option<&Cancel>, work: impl FnOnce() -> T) -> T {
    match token {
        Some(token) => token.run(work),
        None => work(),
    }
}

/// [`Cancel::check`] for the token the current thread runs under; `Ok`
/// outside every [`Cancel::run`].
pub(crate) fn check() -> Result<()> {
    CURRENT.with_borrow(|current| current.as_ref().map_or(Ok(()), Cancel::check))
}

/// Whether the current thread's token has stopped.
pub(crate) fn stopped() -> bool {
    check().is_err()
}

/// The error of the current thread's token, for work that broke off
/// because it stopped (a token stays stopped, so the error is still there).
pub(crate) fn stopped_error() -> Error {
    check().err().unwrap_or(Error::Cancelled)
}

/// Counts the steps of a loop and checks the current token every
/// [`Ticker::EVERY`] of them, so that a loop of cheap steps pays for the
/// check once in a few thousand.
#[derive(Debug, Default)]
pub(crate) struct Ticker(u32);

impl Ticker {
    /// Steps between two checks.
    const EVERY: u32 = 4096;

    /// One step: `true` when the work must stop.
    #[inline]
    pub(crate) fn stop(&mut self) -> bool {
        self.0 += 1;
        if self.0 < Self::EVERY {
            return false;
        }
        self.0 = 0;
        stopped()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_stops_the_work_under_it_and_only_that() {
        let token = Cancel::new();
        assert!(check().is_ok());
        token.run(|| {
            assert!(check().is_ok());
            token.cancel();
            assert_eq!(check(), Err(Error::Cancelled));
            // An inner run with a fresh token is not stopped, and the
            // outer one is back afterwards.
            Cancel::new().run(|| assert!(check().is_ok()));
            assert_eq!(check(), Err(Error::Cancelled));
        });
        assert!(check().is_ok(), "no token outside a run");
    }

    #[test]
    fn dropping_the_guard_cancels_the_token() {
        let token = Cancel::new();
        let guard = token.cancel_on_drop();
        assert!(token.check().is_ok());
        drop(guard);
        assert_eq!(token.check(), Err(Error::Cancelled));
        // Clones share the flag, across threads too.
        let other = Cancel::new();
        let clone = other.clone();
        std::thread::spawn(move || clone.cancel()).join().unwrap();
        assert_eq!(other.check(), Err(Error::Cancelled));
    }

    /// Each loop that can be long for one heap stops at the limit:
    /// composition sets of exact counts (0.9z: three or five heaps; 0.{62}:
    /// 62 heaps) and of open ones (4.{2+}), and a full listing of 190
    /// million options (partitions, one by one).
    #[test]
    fn the_long_loops_stop_at_the_time_limit() {
        use crate::{HeapGame, Listing, TableSolver, explain_sum};
        let limit = Duration::from_millis(100);
        for (code, to) in [("0.9z", 100_000), ("0.{62}", 20_000), ("4.{2+}", 100_000)] {
            let game: HeapGame = code.parse().unwrap();
            let started = Instant::now();
            let found = Cancel::with_time_limit(limit)
                .run(|| TableSolver::new().with_threads(1).values(&game, to));
            assert_eq!(found, Err(Error::TimeLimit { limit }), "{code}");
            assert!(started.elapsed() < Duration::from_secs(20), "{code}");
        }
        let game: HeapGame = "0.{2+}".parse().unwrap();
        let values = TableSolver::new().values(&game, 100).unwrap();
        let listed = Cancel::with_time_limit(limit)
            .run(|| explain_sum(&game, &values, &[100], &Listing::ALL));
        assert_eq!(listed, Err(Error::TimeLimit { limit }));
    }

    #[test]
    fn a_script_stops_with_its_token_not_its_own_limits() {
        use crate::rules::{ScriptGame, ScriptLimits};
        let limits = ScriptLimits {
            operations: u64::MAX,
            ..ScriptLimits::default()
        };
        let game = ScriptGame::compile("spin.rhai", "fn options(n) { loop {} }", limits).unwrap();
        game.begin_run();
        let token = Cancel::new();
        token.cancel();
        let listed = token.run(|| game.heap_options(3, &mut crate::Options::new()));
        assert_eq!(listed, Err(Error::Cancelled));
    }

    #[test]
    fn a_child_stops_with_its_parent_or_its_own_limit() {
        let parent = Cancel::new();
        let child = parent.child_with_time_limit(Duration::from_secs(3600));
        assert!(child.check().is_ok());
        parent.cancel();
        assert_eq!(child.check(), Err(Error::Cancelled));
        let parent = Cancel::new();
        let child = parent.child_with_time_limit(Duration::ZERO);
        assert_eq!(
            child.check(),
            Err(Error::TimeLimit {
                limit: Duration::ZERO
            })
        );
        child.cancel();
        assert!(parent.check().is_ok(), "a child does not stop its parent");
        assert!(Cancel::current().is_none());
        let current = parent.run(Cancel::current);
        parent.cancel();
        assert_eq!(current.map(|c| c.check()), Some(Err(Error::Cancelled)));
    }

    #[test]
    fn the_time_limit_stops_the_work_and_names_the_limit() {
        let token = Cancel::with_time_limit(Duration::ZERO);
        assert_eq!(
            token.check(),
            Err(Error::TimeLimit {
                limit: Duration::ZERO
            })
        );
        let mut ticker = Ticker::default();
        let steps = token.run(|| (1..).find(|_| ticker.stop()).unwrap());
        assert_eq!(steps, Ticker::EVERY);
    }
}
