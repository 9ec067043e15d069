//! Formulas guessed for a game's values or for a sequence (`grundy
//! guess`): a game is analysed first, so that a proven period can prove the
//! formula and the P-position rule ([`analysis::guess_report`]).

use super::HeapRules;
use crate::analysis::{self, GuessReport};
use crate::{Error, Nimber, Result, TableSolver, ValueTable};

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

/// The values `g(0), g(1), ...` a file holds: an OEIS b-file (lines `n
/// a(n)`, `n` counting up by one from 0, `#` comments) or a plain sequence
/// (numbers separated by spaces, commas or lines). A file whose every line
/// holds two numbers is read as a b-file, so its indices never pass for
/// values; one that does not start at `n = 0` is refused, since a guess
/// needs `g(0)` first.
///
/// ```
/// use grundy::session::read_sequence;
/// let plain = read_sequence("0, 1, 2, 0\n1 2")?;
/// let bfile = read_sequence("# A002187\n0 0\n1 1\n2 1\n3 2\n")?;
/// assert_eq!(plain.len(), 6);
/// assert_eq!(bfile.iter().map(|v| v.get()).collect::<Vec<_>>(), [0, 1, 1, 2]);
/// assert!(read_sequence("1 1\n2 1\n").is_err()); // from n = 1: no g(0)
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn read_sequence(text: &str) -> Result<Vec<Nimber>> {
    let value = |item: &str, line: usize| {
        item.parse::<u32>()
            .map(Nimber::new)
            .map_err(|_| Error::InvalidSequence {
                line,
                reason: format!("'{item}' is not a non-negative integer below 2^32"),
            })
    };
    // Lines with their numbers, comments and blank lines left out.
    let lines: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("")))
        .map(|(i, line)| {
            let items = line
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|item| !item.is_empty())
                .collect();
            (i, items)
        })
        .filter(|(_, items): &(usize, Vec<&str>)| !items.is_empty())
        .collect();
    if lines.is_empty() {
        return Err(Error::InvalidSequence {
            line: 0,
            reason: "no values to read".into(),
        });
    }
    let bfile = lines.len() > 1 && lines.iter().all(|(_, items)| items.len() == 2);
    if !bfile {
        return lines
            .iter()
            .flat_map(|(line, items)| items.iter().map(move |item| value(item, *line)))
            .collect();
    }
    lines
        .iter()
        .enumerate()
        .map(|(n, (line, items))| {
            if items[0].parse::<usize>().ok() != Some(n) {
                let reason = if n == 0 {
                    format!(
                        "a b-file (lines 'n a(n)') must start at n = 0 to give g(0), not at {}",
                        items[0]
                    )
                } else {
                    format!(
                        "a b-file (lines 'n a(n)') counts n up by one: expected {n}, found {}",
                        items[0]
                    )
                };
                return Err(Error::InvalidSequence {
                    line: *line,
                    reason,
                });
            }
            value(items[1], *line)
        })
        .collect()
}
