//! A census: every game of one or more families analysed toward a proof of
//! its period, the rows classified into games with the same values — the
//! one implementation behind `grundy census`, Python's `grundy.census` and
//! its pieces (`census_games`, `CensusRun`, `census_row`,
//! `census_classify`).
//!
//! The games of a run are its families' games ([`census_games`]), the
//! share of a shard, less those whose rows the output file holds already
//! ([`CensusRun`]: a rerun resumes). [`census`] runs them on `jobs`
//! threads, costliest first, one game to a thread, each row appended to the
//! file as it finishes, so that a killed census loses only the games in
//! flight.
//!
//! ```
//! use grundy::session::{self, CensusLimits, CensusRun};
//! let games = session::census_games(&["0.?7"])?;
//! let run = CensusRun::new(games, None, None)?;
//! let limits = CensusLimits { max: 1 << 10, time_per_game: None };
//! let report = session::census(run, &limits, 1 << 30, 2, &mut |_| {})?;
//! assert_eq!(report.rows.len(), 8);
//! // 0.07 is Dawson's Kayles: period 34, proven.
//! let dawson = report.rows.iter().find(|r| r.game == "0.07").unwrap();
//! assert_eq!((dawson.period, dawson.proven), (Some(34), true));
//! # Ok::<(), grundy::Error>(())
//! ```

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

pub use crate::analysis::{CensusLimits, CensusRun, check_shard};
use crate::analysis::{census_game, classify, expand_family, expand_list, read_rows};
use crate::report::{CensusReport, CensusRow};
use crate::{HeapGame, Result, TableSolver};

/// The games of `families`, each a pattern (`0.??`, `4.[0-7]7`, or one
/// game) or the path of a file listing games, one to a line.
pub fn census_games(families: &[impl AsRef<str>]) -> Result<Vec<HeapGame>> {
    let mut games = Vec::new();
    for family in families {
        let family = family.as_ref();
        let path = Path::new(family);
        games.extend(if path.is_file() {
            expand_list(&crate::spec::read_input(path)?)?
        } else {
            expand_family(family)?
        });
    }
    Ok(games)
}

/// Where a census stands, after each row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CensusProgress {
    /// Rows the run holds (read back from its file, or computed).
    pub done: usize,
    /// Games being analysed now.
    pub running: usize,
    /// Games not started.
    pub left: usize,
}

/// Runs the games `run` has still to do on `jobs` threads (at least one,
/// at most one a game), costliest first, each analysed as [`census_row`]
/// does, and returns every row classified, in census order. `progress`
/// hears of each row. On an error no further game starts; those running
/// finish (their rows kept in the file), and the error is returned.
pub fn census(
    mut run: CensusRun,
    limits: &CensusLimits,
    memory_limit: u64,
    jobs: usize,
    progress: &mut dyn FnMut(CensusProgress),
) -> Result<CensusReport> {
    let solver = TableSolver::new().with_memory_limit(memory_limit);
    let todo = run.todo().to_vec();
    let jobs = jobs.clamp(1, todo.len().max(1));
    let next = AtomicUsize::new(0);
    let running = AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (send, next, running, todo, solver) =
                (send.clone(), &next, &running, &todo, &solver);
            scope.spawn(move || {
                while let Some(game) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                    running.fetch_add(1, Ordering::Relaxed);
                    let row = census_game(game, limits, solver);
                    running.fetch_sub(1, Ordering::Relaxed);
                    if send.send(row).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        for row in receive {
            let recorded = row.and_then(|row| run.record(row));
            if let Err(error) = recorded {
                next.store(todo.len(), Ordering::Relaxed);
                return Err(error);
            }
            progress(CensusProgress {
                done: run.done(),
                running: running.load(Ordering::Relaxed),
                left: todo.len().saturating_sub(next.load(Ordering::Relaxed)),
            });
        }
        Ok(())
    })?;
    Ok(CensusReport::new(run.finish()?))
}

/// One game's census row, before classification: `game` analysed
/// adaptively up to `limits.max`, within its time and `memory_limit`.
pub fn census_row(game: &str, limits: &CensusLimits, memory_limit: u64) -> Result<CensusRow> {
    let game: HeapGame = game.parse()?;
    census_game(
        &game,
        limits,
        &TableSolver::new().with_memory_limit(memory_limit),
    )
}

/// `rows` (from any machines) with their equivalence classes filled in, in
/// census order.
pub fn census_classify(mut rows: Vec<CensusRow>) -> Vec<CensusRow> {
    classify(&mut rows);
    rows
}

/// The census in the files at `paths` (shards of one census, or censuses
/// of several families), each game's first row kept, classified anew.
pub fn census_merge(paths: &[impl AsRef<Path>]) -> Result<CensusReport> {
    let mut rows = Vec::new();
    for path in paths {
        rows.extend(read_rows(path.as_ref())?);
    }
    let mut seen = HashSet::new();
    rows.retain(|r| seen.insert(r.game.clone()));
    Ok(CensusReport::new(census_classify(rows)))
}
