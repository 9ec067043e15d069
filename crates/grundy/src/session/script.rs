//! Questions about a script's own positions: positions (heaps or tuples)
//! played together (`grundy values FILE.rhai --position P...`), who wins at
//! every state of a script that numbers its states (`grundy outcomes
//! FILE.rhai --states N`), and the parameters a script declares (`grundy
//! games FILE.rhai`).

use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use super::{ScriptPlay, play_script};
use crate::report::{LoopySumReport, OutcomesReport, PositionSumReport, ScriptParametersReport};
use crate::rules::{ScriptGame, ScriptLimits, ScriptPosition};
use crate::{Error, Knob, Result};

/// Reads and compiles the script at `path` with `limits`.
fn compile(path: &Path, limits: ScriptLimits) -> Result<ScriptGame> {
    let source = crate::spec::read_input(path)?;
    ScriptGame::compile(&path.to_string_lossy(), &source, limits)
}

/// The parameters of the script at `path` (the constants it declares
/// outside its functions), with the values `limits.defines` gives them.
pub fn script_parameters(path: &Path, limits: ScriptLimits) -> Result<ScriptParametersReport> {
    Ok(ScriptParametersReport::new(&compile(path, limits)?))
}

/// Positions of a script played together.
#[derive(Serialize)]
#[serde(untagged)]
pub enum ScriptAnswer {
    /// Every play ends: values, nim-sum and every winning move.
    Finite(PositionSumReport),
    /// Play can cycle: generalized values, who wins or draws, and the
    /// moves that win or keep the draw.
    Loopy(LoopySumReport),
}

/// The positions `positions` (each a heap `7` or a tuple `[3,4]`) of the
/// script at `path` played together: by the Sprague–Grundy theorem when
/// every play ends, by generalized values and Smith's rule when it can
/// cycle.
pub fn script_positions(
    path: &Path,
    limits: ScriptLimits,
    positions: &[impl AsRef<str>],
) -> Result<ScriptAnswer> {
    let game = compile(path, limits)?;
    let positions = positions
        .iter()
        .map(|p| p.as_ref().parse::<ScriptPosition>())
        .collect::<Result<Vec<_>>>()?;
    Ok(match play_script(&game, &positions)? {
        ScriptPlay::Finite(sum) => ScriptAnswer::Finite(PositionSumReport::new(
            &positions,
            &sum,
            ToString::to_string,
        )),
        ScriptPlay::Loopy(play) => ScriptAnswer::Loopy(LoopySumReport::new(&play)),
    })
}

/// A sweep of a script's numbered states (`grundy outcomes`).
#[derive(Clone, Debug, Default)]
pub struct OutcomesQuery {
    /// States `0..states` are classified.
    pub states: u64,
    /// The states whose winner and winning moves are reported.
    pub positions: Vec<u64>,
    /// The most bytes the sweep's bits may take.
    pub memory_limit: u64,
    /// Threads that list options ahead of the sweep; `None` for the
    /// script's default.
    pub threads: Option<usize>,
}

/// Who wins at every state `0..query.states` of the script at `path`
/// (whose `options(s)` lists states below `s`), one forward sweep, with
/// the winning moves of the states asked about. `progress` hears how many
/// states are done. A sweep whose rate so far projects it past the
/// script's time limit stops at once (after the first 65,536 states),
/// refused with the projection, rather than at the limit.
pub fn script_outcomes(
    path: &Path,
    limits: ScriptLimits,
    query: &OutcomesQuery,
    progress: &mut dyn FnMut(u64),
) -> Result<OutcomesReport> {
    let states = query.states;
    if let Some(&past) = query.positions.iter().find(|&&p| p >= states) {
        return Err(Error::InvalidPosition {
            text: past.to_string(),
            reason: format!("not among the states 0..{states}"),
        });
    }
    let time = limits.time;
    let mut game = compile(path, limits)?;
    if let Some(threads) = query.threads {
        game = game.with_threads(threads);
    }
    let started = Instant::now();
    let mut projected = None;
    let found = game.outcomes(states, query.memory_limit, &mut |s| {
        progress(s);
        let whole = started.elapsed().mul_f64(states as f64 / s.max(1) as f64);
        if s > 0 && whole > time {
            projected = Some((s, whole));
            return false;
        }
        true
    });
    if let Some((done, whole)) = projected {
        return Err(Error::Refused {
            reason: format!(
                "{states} states would take about {:.0} s at the rate of the first {done}, past \
                 the time limit of {} s",
                whole.as_secs_f64(),
                time.as_secs_f64()
            ),
            knob: Knob::TimeLimit,
        });
    }
    OutcomesReport::new(&game, found?, &query.positions)
}
