//! Formulas guessed for a game's values or for a sequence (`grundy
//! guess`): a game is analysed first, so that a proven period can prove the
//! formula and the P-position rule ([`analysis::guess_report`]).

use super::HeapRules;
use crate::analysis::{self, GuessReport};
use crate::{Nimber, Result, TableSolver, ValueTable};

/// The guesses for `game`'s values: of heaps `0..=to` (answered through
/// a proven period past its proof), or adaptively to the game's analysis
/// bound.
///
/// ```
/// use grundy::session::{guess, HeapRules};
/// use grundy::spec::{GameSpec, Question};
/// let game = HeapRules::from_spec(&GameSpec::parse("sub(1,3,4)")?, Question::Guess, &Default::default())?;
/// let report = guess(&game, None, &grundy::TableSolver::new())?;
/// assert!(report.proven && report.p_rule_proven);
/// assert_eq!(report.p_rule.unwrap().to_string(), "n = 0, 2 (mod 7)");
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn guess(game: &HeapRules, to: Option<u64>, solver: &TableSolver) -> Result<GuessReport> {
    let found = super::analyze_range(game, ValueTable::new(), to, None, solver, &mut |_| true)?;
    Ok(analysis::guess_report(&found.values.to_vec(), Some(&found)))
}

/// The guesses for a sequence given as it is (a file of values): nothing
/// proves them.
pub fn guess_sequence(values: &[Nimber]) -> GuessReport {
    analysis::guess_report(values, None)
}
