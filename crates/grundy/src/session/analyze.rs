//! Analyses as `grundy analyze` asks for them: it reads its arguments into
//! an [`AnalyzeQuery`], and [`analyze`] picks the method (the web and
//! Python, which keep a game's table in memory, ask
//! [`analyze_range`](super::analyze_range), a full table's analysis):
//!
//! 1. **through a proof** — a game with a periodicity theorem is analysed
//!    adaptively first; once its period is proven, every heap of the range
//!    asked for is answered through it (histogram, P-positions, largest
//!    value, `g(to)`), whatever `to` is, at the cost of the proof alone;
//! 2. **a full table** — from heap 0, or from a checkpoint (`resume`),
//!    saving checkpoints as it goes when asked;
//! 3. **a windowed record run** — asked for, or when the sparse engine
//!    applies and the table would not fit the memory limit or, when
//!    nothing keeps it and the temporary folder is a writable disk with
//!    room for the stream, pass [`LARGE_TABLE_BYTES`]: values streamed to
//!    disk, memory bounded, resumable from its stream and checkpoint.
//!
//! The certificate of a proven period is made here too, from the table or
//! from a windowed run's value stream; a front end only writes it where its
//! user asked.

use std::path::PathBuf;
use std::time::Duration;

use super::HeapRules;
use crate::analysis::{
    self, Analysis, Certificate, DEFAULT_MAX, Limits, PeriodWindow, RecordAnalysis, analyze_record,
};
use crate::scratch::ScratchFile;
use crate::solve::{
    Checkpoint, Engine, Stage, Storage, ValueStream, WindowOptions, WindowProgress, WindowSizes,
    storage_of,
};
use crate::{Error, HeapRuleset, Result, TableSolver, ValueTable};

/// What an analysis is asked (`grundy analyze`'s flags, the web's and
/// Python's arguments).
#[derive(Clone, Debug, Default)]
pub struct AnalyzeQuery {
    /// Answer for exactly heaps `0..=to` (through a proven period where
    /// one is proven on the way).
    pub to: Option<u64>,
    /// The largest heap an adaptive analysis computes (default: the
    /// game's [`HeapRules::default_max`]).
    pub max: Option<u64>,
    /// Go on from this checkpoint's values.
    pub resume: Option<PathBuf>,
    /// Save checkpoints here (a resumed run saves to its own file).
    pub checkpoint: Option<PathBuf>,
    /// A windowed record run's settings, when one is asked for.
    pub record: RecordQuery,
    /// Make the certificate of the proven period.
    pub certificate: bool,
}

/// A windowed record run's settings.
#[derive(Clone, Debug)]
pub struct RecordQuery {
    /// Run windowed even when the table would fit.
    pub window: bool,
    /// Keep the full table even when it is large ([`LARGE_TABLE_BYTES`]),
    /// as long as it fits the memory limit.
    pub table: bool,
    /// Keep the value stream here (a run without it streams to a scratch
    /// file that is removed).
    pub values_out: Option<PathBuf>,
    /// Bytes per value of the stream; `None`: 1, widened when a value needs
    /// more.
    pub values_width: Option<u8>,
    /// How often a windowed run saves its checkpoint.
    pub checkpoint_every: Duration,
    /// The last heaps searched for a period.
    pub period_window: PeriodWindow,
    /// Write `values_out` over a file that already holds values (a run
    /// that is not resumed refuses to otherwise).
    pub overwrite: bool,
}

impl Default for RecordQuery {
    fn default() -> Self {
        RecordQuery {
            window: false,
            table: false,
            values_out: None,
            values_width: None,
            checkpoint_every: CHECKPOINT_EVERY,
            period_window: PeriodWindow::default(),
            overwrite: false,
        }
    }
}

/// How often a full-table run saves its checkpoint.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(10);

/// A table past this many bytes ([`TableSolver::table_bytes`]) is not
/// worth its memory when nothing keeps it (a checkpoint, a resume,
/// [`RecordQuery::table`], the dense engine): an analysis the sparse
/// engine applies to runs windowed instead, about as
/// fast (BENCHMARKS.md, "Windowed record runs") in a bounded window,
/// when its scratch stream has a disk to go to (see [`analyze`]'s plan).
/// 0.1777's proof to heap 4.4·10^8 takes about 90 MiB so, not 450.
pub const LARGE_TABLE_BYTES: u128 = 256 << 20;

/// What [`analyze`] found: a full-table analysis (possibly answering past
/// its table through a proof), or a windowed record run.
#[derive(Clone, Debug)]
pub enum AnalyzeAnswer {
    /// Values in memory; [`Analysis::to`] is the range answered.
    Table(Analysis),
    /// A windowed run (its stream kept at the query's `values_out`).
    Record(RecordAnalysis),
}

/// An analysis and, when the query asked for it, its certificate.
#[derive(Clone, Debug)]
pub struct Analyzed {
    /// The answer.
    pub answer: AnalyzeAnswer,
    /// The certificate of the proven period, when asked for.
    pub certificate: Option<Certificate>,
}

/// Analyses `game` as `query` asks, with `solver` for tables (its memory
/// limit bounds them and decides when a run goes windowed) and `progress`
/// called with the heaps done (`false` stops the run with
/// [`Error::Cancelled`]).
///
/// ```
/// use grundy::session::{analyze, AnalyzeAnswer, AnalyzeQuery, HeapRules};
/// use grundy::spec::{GameSpec, Question};
/// let game = HeapRules::from_spec(&GameSpec::parse("0.07")?, Question::Analyze, &Default::default())?;
/// let query = AnalyzeQuery { to: Some(1_000_000_000_000), ..AnalyzeQuery::default() };
/// let AnalyzeAnswer::Table(found) = analyze(&game, &query, &grundy::TableSolver::new(), &mut |_| true)?.answer else {
///     unreachable!("Dawson's Kayles is proven periodic long before 10^12")
/// };
/// assert!(found.computed_to() < 1000); // the proof's heaps only
/// assert_eq!(found.to, 1_000_000_000_000);
/// assert_eq!(found.value(1_000_000_000_000), found.value(53 + (1_000_000_000_000 - 53) % 34));
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn analyze(
    game: &HeapRules,
    query: &AnalyzeQuery,
    solver: &TableSolver,
    progress: &mut dyn FnMut(&WindowProgress) -> bool,
) -> Result<Analyzed> {
    let limits = Limits {
        to: query.to,
        max: query.max.unwrap_or(game.default_max()),
        ..Limits::default()
    };
    let last = limits.to.unwrap_or(limits.max);
    let scratch = storage_of(&std::env::temp_dir());
    let plan = Plan::new(game, query, solver, last, scratch);
    if plan.proof_first
        && let Some(found) = through_proof(game, &limits, solver, progress)?
    {
        return finish(AnalyzeAnswer::Table(found), query);
    }
    if plan.windowed {
        return windowed(game, &limits, query, solver, progress);
    }
    let (solver, values) = resumable(solver.clone(), game, query)?;
    solver.check_fits_for(game, last)?;
    game.start();
    let found = game.checked(analysis::analyze_from(
        game,
        values,
        &limits,
        &solver,
        &mut heap_progress(progress),
    ))?;
    finish(AnalyzeAnswer::Table(found), query)
}

/// The methods of the module docs [`analyze`] tries for heaps `0..=last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    /// A proof first: nothing asks for a windowed run or resumes a table,
    /// and the table would not fit, or would go windowed for its size.
    proof_first: bool,
    /// Windowed (without a proof first, or when it proves nothing): asked
    /// for, or the sparse engine applies and the table would not fit, or
    /// would pass [`LARGE_TABLE_BYTES`] with nothing to keep it (a
    /// checkpoint, a resume, `table`, the dense engine chosen) and a disk to
    /// hold the scratch stream (a stream on tmpfs takes the memory the table
    /// would; a disk without room would end the run midway).
    windowed: bool,
}

/// The most bytes a scratch stream takes on disk a heap: two a value once
/// values pass 255, beside the one-byte stream it rewrites (see
/// [`RecordQuery::values_width`]).
const SCRATCH_BYTES_PER_HEAP: u64 = 3;

impl Plan {
    /// The plan for heaps `0..=last`, a scratch stream going to `scratch`
    /// (the temporary folder's storage).
    fn new(
        game: &HeapRules,
        query: &AnalyzeQuery,
        solver: &TableSolver,
        last: u64,
        scratch: Storage,
    ) -> Plan {
        let record = &query.record;
        let windowed_asked = record.window || record.values_out.is_some();
        let fits = solver.check_fits_for(game, last).is_ok();
        let sparse = game
            .as_take_break()
            .and_then(crate::solve::SparseSolver::new)
            .is_some();
        let table_kept = query.resume.is_some()
            || query.checkpoint.is_some()
            || record.table
            || solver.engine() == Engine::Dense;
        let stream_bytes = last
            .saturating_add(1)
            .saturating_mul(SCRATCH_BYTES_PER_HEAP);
        let too_large = solver.table_bytes(last) > LARGE_TABLE_BYTES
            && !table_kept
            && scratch.holds_on_disk(stream_bytes);
        Plan {
            proof_first: !windowed_asked && query.resume.is_none() && (!fits || too_large),
            windowed: windowed_asked || (sparse && (!fits || too_large)),
        }
    }
}

/// The proven answer for heaps `0..=to` of a game with a theorem, when
/// an adaptive analysis within [`DEFAULT_MAX`] heaps proves its period;
/// `None` otherwise (or without an exact range).
fn through_proof(
    game: &HeapRules,
    limits: &Limits,
    solver: &TableSolver,
    progress: &mut dyn FnMut(&WindowProgress) -> bool,
) -> Result<Option<Analysis>> {
    let Some(to) = limits.to else {
        return Ok(None);
    };
    game.start();
    let found = game.checked(analysis::analyze_toward_proof(
        game,
        to,
        DEFAULT_MAX,
        solver,
        &mut heap_progress(progress),
    ))?;
    let Some(found) = found.filter(Analysis::is_proven) else {
        return Ok(None);
    };
    // Resumed from the proof's own table: proven at once, answered to `to`.
    game.checked(analysis::analyze_from(
        game,
        found.values,
        limits,
        solver,
        &mut |_| true,
    ))
    .map(Some)
}

/// The certificate, when asked for, of what a full table found.
fn finish(answer: AnalyzeAnswer, query: &AnalyzeQuery) -> Result<Analyzed> {
    let certificate = match (&answer, query.certificate) {
        (AnalyzeAnswer::Table(found), true) => Some(
            Certificate::from_analysis(found)
                .ok_or_else(|| unproven(&found.game, found.computed_to()))?,
        ),
        _ => None,
    };
    Ok(Analyzed {
        answer,
        certificate,
    })
}

/// Why there is no certificate: the period of `game`, computed to heap
/// `to`, is not proven.
fn unproven(game: &str, to: usize) -> Error {
    Error::InvalidCertificate {
        reason: format!("no certificate: the period of {game} is not proven (computed to {to})"),
    }
}

/// A full-table progress report as the record runs' kind.
fn heap_progress(
    progress: &mut dyn FnMut(&WindowProgress) -> bool,
) -> impl FnMut(usize) -> bool + '_ {
    move |n| {
        progress(&WindowProgress {
            stage: Stage::Compute,
            heaps: n as u64,
            checks: None,
            rare: 0,
            largest: 0,
            far_scans: 0,
        })
    }
}

/// The solver with checkpoints as asked, and the values to start from
/// when resuming (a checkpoint of another game is refused).
pub fn resumable(
    solver: TableSolver,
    game: &impl std::fmt::Display,
    query: &AnalyzeQuery,
) -> Result<(TableSolver, ValueTable)> {
    let mut values = ValueTable::new();
    if let Some(path) = &query.resume {
        let saved = Checkpoint::load(path)?;
        if saved.game != game.to_string() {
            return Err(Error::Checkpoint {
                path: path.display().to_string(),
                reason: format!("it holds values of {}, not of {game}", saved.game),
            });
        }
        values = saved.values;
    }
    let solver = match query.checkpoint.as_ref().or(query.resume.as_ref()) {
        Some(path) => solver.with_checkpoint(path.clone(), game.to_string(), CHECKPOINT_EVERY),
        None => solver,
    };
    Ok((solver, values))
}

/// A windowed record run: values streamed to `values_out` (or a scratch
/// file removed afterwards), resumable from the stream and checkpoint; its
/// certificate, when asked for, made from the stream before a scratch one
/// is removed.
fn windowed(
    game: &HeapRules,
    limits: &Limits,
    query: &AnalyzeQuery,
    solver: &TableSolver,
    progress: &mut dyn FnMut(&WindowProgress) -> bool,
) -> Result<Analyzed> {
    let to = limits.to.unwrap_or(limits.max);
    let record = &query.record;
    let checkpoint = query.checkpoint.as_ref().or(query.resume.as_ref());
    if let Some(path) = &record.values_out
        && query.resume.is_none()
        && !record.overwrite
        && std::fs::metadata(path).is_ok_and(|m| m.len() > 0)
    {
        return Err(Error::Refused {
            reason: format!(
                "{} exists and holds values (another run's?): resume that run, or overwrite it",
                path.display()
            ),
            knob: crate::Knob::Overwrite,
        });
    }
    let scratch = match (&record.values_out, checkpoint) {
        (Some(_), _) => None,
        (None, Some(_)) => {
            return Err(Error::InvalidRange {
                reason: "a windowed run resumes from its value stream: give the stream's file \
                         (values_out)"
                    .into(),
            });
        }
        (None, None) => Some(ScratchFile::stream(&std::env::temp_dir(), to)),
    };
    let stream = record
        .values_out
        .clone()
        .or_else(|| scratch.as_ref().map(|s| s.path().to_owned()))
        .unwrap_or_default();
    let options = WindowOptions {
        game: game.to_string(),
        stream,
        checkpoint: checkpoint.map(|path| (path.clone(), record.checkpoint_every)),
        resume: query.resume.is_some(),
        memory_limit: solver.memory_limit(),
        width: record.values_width.unwrap_or(1),
        widen: record.values_width.is_none(),
        sizes: WindowSizes::default(),
        threads: solver.threads(),
    };
    let found = analyze_record(game, limits, &options, record.period_window, progress)?;
    let certificate = match query.certificate {
        true => Some(
            Certificate::from_record(&found, &ValueStream::open(&options.stream)?)?
                .ok_or_else(|| unproven(&found.game, found.computed_to()))?,
        ),
        false => None,
    };
    drop(scratch);
    Ok(Analyzed {
        answer: AnalyzeAnswer::Record(found),
        certificate,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{GameSpec, Question};

    /// A disk with room for any stream.
    const DISK: Storage = Storage::Disk { free: u64::MAX };

    /// The plans the tests expect.
    const TABLE: Plan = Plan {
        proof_first: false,
        windowed: false,
    };
    const PROOF_THEN_TABLE: Plan = Plan {
        proof_first: true,
        windowed: false,
    };
    const WINDOWED: Plan = Plan {
        proof_first: false,
        windowed: true,
    };
    const PROOF_THEN_WINDOWED: Plan = Plan {
        proof_first: true,
        windowed: true,
    };

    fn plan_with(
        code: &str,
        query: AnalyzeQuery,
        solver: &TableSolver,
        last: u64,
        scratch: Storage,
    ) -> Plan {
        let game = HeapRules::from_spec(
            &GameSpec::parse(code).unwrap(),
            Question::Analyze,
            &Default::default(),
        )
        .unwrap();
        Plan::new(&game, &query, solver, last, scratch)
    }

    fn plan(code: &str, query: AnalyzeQuery, solver: &TableSolver, last: u64) -> Plan {
        plan_with(code, query, solver, last, DISK)
    }

    /// The query of a plain analysis with these record-run flags.
    fn recording(record: RecordQuery) -> AnalyzeQuery {
        AnalyzeQuery {
            record,
            ..AnalyzeQuery::default()
        }
    }

    /// Issue 53: `grundy analyze 0.1777 --max 2^29` runs windowed (its
    /// table, 4.4·10^8 heaps, would take 450 MiB), a small run keeps its
    /// table, and a checkpoint, `--table` or the dense engine keep a large
    /// one.
    #[test]
    fn a_large_table_goes_windowed_unless_something_keeps_it() {
        let solver = TableSolver::new().with_memory_limit(4 << 30);
        assert_eq!(
            plan("0.1777", AnalyzeQuery::default(), &solver, 1 << 29),
            PROOF_THEN_WINDOWED
        );
        assert_eq!(
            plan("0.1777", AnalyzeQuery::default(), &solver, 1 << 20),
            TABLE
        );
        // A checkpoint, `table` or the dense engine keep it.
        let checkpoint = AnalyzeQuery {
            checkpoint: Some("run.checkpoint".into()),
            ..AnalyzeQuery::default()
        };
        assert_eq!(plan("0.1777", checkpoint, &solver, 1 << 29), TABLE);
        let asked = recording(RecordQuery {
            table: true,
            ..RecordQuery::default()
        });
        assert_eq!(plan("0.1777", asked, &solver, 1 << 29), TABLE);
        let dense = solver.clone().with_engine(Engine::Dense);
        assert_eq!(
            plan("0.1777", AnalyzeQuery::default(), &dense, 1 << 26),
            TABLE
        );
        // Too large for the memory limit: windowed, checkpoint or not.
        let small = TableSolver::new().with_memory_limit(1 << 20);
        let kept = AnalyzeQuery {
            checkpoint: Some("run.window".into()),
            ..AnalyzeQuery::default()
        };
        assert_eq!(plan("0.1777", kept, &small, 1 << 20), PROOF_THEN_WINDOWED);
        // Windowed when asked, however small.
        let asked = recording(RecordQuery {
            window: true,
            ..RecordQuery::default()
        });
        assert_eq!(plan("0.1777", asked, &solver, 1 << 10), WINDOWED);
    }

    /// A large table stays a table when the scratch stream would take
    /// memory (tmpfs), not fit the disk, or go to a folder out of reach; a
    /// platform that does not say goes windowed; a table too large for the
    /// memory limit goes windowed wherever the stream goes.
    #[test]
    fn a_large_table_stays_when_the_stream_has_no_disk_to_go_to() {
        let solver = TableSolver::new().with_memory_limit(4 << 30);
        let query = AnalyzeQuery::default;
        let last = 1 << 29;
        // Three bytes a heap, for heaps 0..=2^29: three bytes short is
        // full (two bytes a heap would fit there).
        let full = Storage::Disk { free: 3 << 29 };
        let roomy = Storage::Disk { free: 3 << 29 | 3 };
        for scratch in [Storage::Memory, full, Storage::Unreachable] {
            let found = plan_with("0.1777", query(), &solver, last, scratch);
            assert_eq!(found, TABLE, "{scratch:?}");
        }
        for scratch in [roomy, Storage::Unknown] {
            let found = plan_with("0.1777", query(), &solver, last, scratch);
            assert_eq!(found, PROOF_THEN_WINDOWED, "{scratch:?}");
        }
        let small = TableSolver::new().with_memory_limit(1 << 20);
        let found = plan_with("0.1777", query(), &small, last, Storage::Memory);
        assert_eq!(found, PROOF_THEN_WINDOWED);
    }

    /// A game the sparse engine does not run (0.8 may leave three heaps)
    /// keeps its table however large, a proof tried first.
    #[test]
    fn a_game_without_the_sparse_engine_keeps_its_table() {
        let solver = TableSolver::new().with_memory_limit(4 << 30);
        assert_eq!(
            plan("0.8", AnalyzeQuery::default(), &solver, 1 << 29),
            PROOF_THEN_TABLE
        );
    }
}
