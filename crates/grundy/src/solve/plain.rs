//! The plain path: a heap game's values from its listed options only.

use crate::{HeapRuleset, Options, Ruleset};

/// Wraps a heap ruleset so that solvers see only its
/// [`Ruleset::options`], never its fast [`HeapRuleset::gather`] or closed
/// form. Values computed through it depend on nothing but the rules as
/// listed: the reference for differential tests, benchmarks and certificate
/// checks.
///
/// ```
/// use grundy::{TableSolver, HeapGame};
/// use grundy::solve::Plain;
/// let grundy: HeapGame = "grundy".parse().unwrap();
/// let solver = TableSolver::new();
/// assert_eq!(solver.values(&Plain(&grundy), 50).unwrap(),
///            solver.values(&grundy, 50).unwrap());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Plain<'a, R>(pub &'a R);

impl<R: HeapRuleset> Ruleset for Plain<'_, R> {
    type Position = usize;
    fn options(&self, n: &usize, out: &mut Options<usize>) {
        self.0.options(n, out);
    }
}

impl<R: HeapRuleset> HeapRuleset for Plain<'_, R> {}
