//! Record runs analysed: the period of a windowed run, found and proven in
//! bounded memory.
//!
//! A windowed run keeps no table, but its value stream holds every value.
//! [`analyze_record`] reads two things back from it:
//!
//! 1. The last `L` values (the *period window*, [`PERIOD_WINDOW`] by
//!    default): [`period_candidate`] on them gives the minimal period `p`
//!    of their longest tail that spans two periods.
//! 2. Every value once, in order, compared with the value the candidate
//!    predicts from the last `p` heaps of the window (heap `n` against the
//!    heap `m` of the last period with `m ≡ n (mod p)`). The heaps where
//!    they differ are exactly the heaps before the pre-period that break
//!    the period (the `exceptions` of a full-table report), and the last of
//!    them is `n0 - 1`: from `n0` on every value is predicted, so
//!    `g(n + p) = g(n)` for every `n >= n0`, and `g(n0 - 1) != g(n0 - 1 +
//!    p)`. The same pass counts the P-positions and finds the largest
//!    value's first heap, and checks every chunk's checksum and the root.
//!
//! Memory is the window (one or two bytes a heap, and four for the
//! failure function up to 2^22 heaps, then four for each heap of one
//! period, at most half the window) and a thousand listed heaps, however
//! long the run; time is one read of the stream.
//!
//! The candidate is the full-table one whenever that one's tail spans two
//! periods inside the window, or lies inside it: if a period `q <= L/2`
//! has a tail longer than `L`, the window's minimal period `p` divides `q`
//! (Fine and Wilf: the window has both periods and `L >= p + q`), and `p`
//! then holds on all of `q`'s tail (any `n` there is congruent mod `q` to a
//! heap of the window's first `q` heaps, where `p` holds), so `p`'s tail is
//! the longest. Periods above `L/2` whose tail covers the window are not
//! seen: the run reports none, or a shorter tail, as observed — never a
//! different proven period: a proven period holds for every heap, so its
//! tail is the longest of all (a longer tail of another period `P` would
//! share an infinite stretch with it, so `p | P`, and `p` would hold on
//! that longer tail). A candidate is proven by the same code as a full
//! table's (`analysis::prove`), with the pass's check of every heap from
//! `n0` on.

use super::period::reportable;
use super::{Claim, Limits, Periodicity, Support, Theorem, next_target, period_candidate, prove};
use crate::report::{Listed, VALUES_LISTED};
use crate::solve::{
    CHUNK_HEAPS, SparseSolver, Stage, ValueStream, WindowOptions, WindowOutcome, WindowProgress,
};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::{Error, HeapGame, HeapRuleset, Nimber, Result, ValueTable};

/// The heaps at the end of a windowed run searched for a period by
/// default: periods up to 2^21 are found (0.16's 149459, 0.354's 1180;
/// not 0.106's 328226140, which needs a window of 2^30 heaps).
pub const PERIOD_WINDOW: usize = 1 << 22;

/// Bytes per heap of the period window besides its values: the failure
/// function (four bytes a heap) up to 2^22 heaps; past that the marker
/// method needs far less, but the bound stays simple.
const SEARCH_BYTES_PER_HEAP: u64 = 4;

/// What a windowed run's values say besides the period, read from its
/// stream; the same fields a full-table analysis reads from its table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordSummary {
    /// `g(0..100)`.
    pub first_values: Vec<u32>,
    /// `g(preperiod..)`, at most 100 values of the repeating block.
    pub repeats: Vec<u32>,
    /// The largest value.
    pub max_value: u32,
    /// The first heap with it.
    pub max_value_at: usize,
    /// `g(N)`.
    pub last_value: u32,
    /// The heaps of value 0.
    pub p_positions: Listed,
    /// Heaps before the pre-period whose values break the period.
    pub exceptions: Listed,
}

/// What [`analyze_record`] found: the windowed run, its period and the
/// summary of its values.
#[derive(Clone, Debug)]
pub struct RecordAnalysis {
    /// The game's canonical specification.
    pub game: String,
    /// The run: histogram, counters, root checksum.
    pub outcome: WindowOutcome,
    /// The periodicity found in the stream, and how it is supported.
    pub claim: Claim,
    /// The last heaps searched for a period: periods up to half of it are
    /// found.
    pub period_window: usize,
    /// The values' summary.
    pub summary: RecordSummary,
}

impl RecordAnalysis {
    /// The largest heap computed.
    pub fn computed_to(&self) -> usize {
        (self.outcome.heaps - 1) as usize
    }

    /// `(value, how many heaps in 0..=computed_to have it)`, by value, for
    /// the values that occur.
    pub fn histogram(&self) -> Vec<(Nimber, u64)> {
        (0u32..)
            .zip(&self.outcome.histogram)
            .map(|(v, &c)| (Nimber::new(v), c + u64::from(v == 0))) // heap 0
            .filter(|&(_, c)| c > 0)
            .collect()
    }
}

/// Runs `game`, a take-and-break code, with the windowed engine (see
/// [`SparseSolver::extend_windowed`]) to heap `limits.to`, or adaptively as
/// [`analyze`](super::analyze) does (further and further, the same steps,
/// until a period is proven or `limits.max` is reached); after each step
/// searches the last `period_window` heaps of its stream for a period,
/// proves it when the game's theorem allows, and summarises the values (see
/// the module docs).
///
/// An adaptive run goes on from where its last step ended, through its
/// checkpoint: `options.checkpoint`, or a scratch one beside the stream
/// (`STREAM.window`, removed at the end).
///
/// The period window takes `period_window` times five bytes (six for
/// two-byte values) of `options.memory_limit`;
/// [`Error::PeriodSearchTooLarge`] refuses more.
pub fn analyze_record<G: HeapRuleset + fmt::Display + ?Sized>(
    game: &G,
    limits: &Limits,
    options: &WindowOptions,
    period_window: usize,
    progress: &mut dyn FnMut(&WindowProgress) -> bool,
) -> Result<RecordAnalysis> {
    let code = game.as_take_break();
    let solver = code.and_then(SparseSolver::new);
    let (Some(code), Some(solver)) = (code, solver) else {
        return Err(Error::EngineUnavailable {
            reason: format!(
                "{game}: windowed runs are for take-and-break codes the sparse engine applies to \
                 (moves leaving at most two heaps, no repeating block)"
            ),
        });
    };
    let last = limits.to.unwrap_or(limits.max);
    let heaps = usize::try_from(last)
        .ok()
        .and_then(|t| t.checked_add(1))
        .ok_or(Error::NimberOverflow { value: last })?;
    let largest_window = period_window.clamp(1, heaps);
    let needed =
        (largest_window as u64).saturating_mul(u64::from(options.widest()) + SEARCH_BYTES_PER_HEAP);
    if needed > options.memory_limit {
        return Err(Error::PeriodSearchTooLarge {
            heaps: largest_window as u64,
            needed: crate::error::human_bytes_near(
                u128::from(needed),
                u128::from(options.memory_limit),
            ),
            limit: crate::error::human_bytes_near(
                u128::from(options.memory_limit),
                u128::from(needed),
            ),
        });
    }
    let theorem = Theorem::for_game(&HeapGame::TakeBreak(code.clone()));
    let mut step = options.clone();
    let scratch = (limits.to.is_none() && options.checkpoint.is_none()).then(|| {
        let path = PathBuf::from(format!("{}.window", options.stream.display()));
        step.checkpoint = Some((path.clone(), Duration::MAX)); // saved at each step's end
        Scratch(path)
    });
    let mut target = limits.to.unwrap_or(limits.start.min(limits.max));
    loop {
        let outcome = solver.extend_windowed(target, &step, progress)?;
        step.resume = step.checkpoint.is_some();
        let stream = ValueStream::open(&options.stream)?;
        let window = period_window.clamp(1, stream.heaps as usize);
        let report = WindowProgress {
            stage: Stage::Check,
            heaps: 0,
            rare: outcome.stats.rare_count,
            largest: 0,
            far_scans: outcome.far_scans,
        };
        let (claim, summary, needed) = examine(&stream, window, theorem, report, progress)?;
        let done = outcome.heaps - 1;
        if limits.to.is_some() || claim.is_proven() || done >= limits.max {
            drop(scratch);
            return Ok(RecordAnalysis {
                game: code.to_string(),
                outcome,
                claim,
                period_window: window,
                summary,
            });
        }
        target = next_target(done.max(target), needed.map(|n| n as u64), limits.max);
    }
}

/// A scratch checkpoint, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The period search and the pass over `stream` of the module docs, which
/// reports its progress (`report`, stage [`Stage::Check`]) after every chunk and
/// stops with [`Error::Interrupted`] when `progress` says so. Returns the
/// claim, the summary and, when the game's theorem applies to the candidate
/// but its proof needs more heaps, the last heap it needs.
fn examine(
    stream: &ValueStream,
    window: usize,
    theorem: Option<Theorem>,
    mut report: WindowProgress,
    progress: &mut dyn FnMut(&WindowProgress) -> bool,
) -> Result<(Claim, RecordSummary, Option<usize>)> {
    let heaps = stream.heaps as usize;
    let start = heaps - window;
    let chunk = CHUNK_HEAPS as u64;
    let mut tail = ValueTable::new();
    stream.for_each_chunk(
        start as u64 / chunk..stream.chunks(),
        &mut |first, values| {
            let skip = start.saturating_sub(first as usize);
            for &v in values.iter().skip(skip) {
                tail.push(Nimber::new(v));
            }
            Ok(())
        },
    )?;
    let period = period_candidate(&tail).map(|c| c.period);
    // The values of the window's last period, `block[phase(n)]` predicting
    // heap `n`; the pass below steps the phase instead of dividing.
    let p = period.unwrap_or(1);
    let block: Vec<u32> = match period {
        Some(p) => (heaps - p..heaps)
            .map(|m| tail.at(m - start).get())
            .collect(),
        None => Vec::new(),
    };
    drop(tail);
    let phase = |n: usize| (n % p + p - (heaps - p) % p) % p;
    let mut summary = RecordSummary {
        first_values: Vec::new(),
        repeats: Vec::new(),
        max_value: 0,
        max_value_at: 0,
        last_value: 0,
        p_positions: Listed::default(),
        exceptions: Listed::default(),
    };
    let mut breaks_after = None; // the last heap the candidate does not predict
    let mut at = phase(0);
    stream.for_each_chunk(0..stream.chunks(), &mut |first, values| {
        crate::cancel::check()?; // a pass over 2^40 heaps takes an hour
        for (n, &v) in (first as usize..).zip(values) {
            if n < VALUES_LISTED {
                summary.first_values.push(v);
            }
            if v > summary.max_value {
                (summary.max_value, summary.max_value_at) = (v, n);
            }
            if v == 0 {
                summary.p_positions.push(n);
            }
            if period.is_some() {
                if v != block[at] {
                    summary.exceptions.push(n);
                    breaks_after = Some(n);
                }
                at = if at + 1 == p { 0 } else { at + 1 };
            }
            summary.last_value = v;
        }
        report.heaps = first + values.len() as u64;
        report.largest = summary.max_value;
        if !progress(&report) {
            return Err(Error::Interrupted {
                heaps: stream.heaps,
            });
        }
        Ok(())
    })?;
    let found = period.map(|period| Periodicity {
        preperiod: breaks_after.map_or(0, |n| n + 1),
        period,
        saltus: 0,
    });
    // Every heap from the pre-period on was checked in the pass.
    let checked_from = found.map_or(usize::MAX, |f| f.preperiod);
    let proof = theorem
        .zip(found)
        .map(|(theorem, found)| prove(theorem, &found, heaps, |from, _| from >= checked_from));
    let (proven, needed) = match proof {
        Some(Ok(support)) => (Some(support), None),
        Some(Err(last)) => (None, last),
        None => (None, None),
    };
    let claim = match (found, proven) {
        (Some(found), Some(support)) => Claim {
            periodicity: Some(found),
            support,
            theorem,
        },
        (Some(found), None) if reportable(heaps - found.preperiod, found.period, heaps) => Claim {
            periodicity: Some(found),
            support: Support::Observed,
            theorem,
        },
        _ => Claim {
            periodicity: None,
            support: Support::Observed,
            theorem,
        },
    };
    match claim.periodicity {
        Some(found) => {
            summary.repeats = (found.preperiod..heaps)
                .take(found.period.min(VALUES_LISTED))
                .map(|n| block[phase(n)])
                .collect();
        }
        None => summary.exceptions = Listed::default(),
    }
    Ok((claim, summary, needed))
}
