//! Record runs analysed: the period of a windowed run, found and proven in
//! bounded memory.
//!
//! A windowed run keeps no table, but its value stream holds every value.
//! [`analyze_record`] reads two things back from it:
//!
//! 1. The last `L` values (the *period window*, see [`PeriodWindow`]):
//!    [`period_candidate`] on them gives the minimal period `p` of their
//!    longest tail that spans two periods; when that tail is too short to
//!    report, [`find_period`](super::find_period)'s search for an
//!    arithmetic period (a saltus `s`: `g(n + p) = g(n) + s`) gives the
//!    candidate instead, if it finds one. A growing window doubles until
//!    no larger one can show a period the run could prove: until the
//!    candidate's tail in the window, less one period, reaches the longest
//!    period the game's theorem can prove from the heaps computed
//!    ([`Theorem::longest_provable_period`]; a period `Q` with a longer
//!    tail than `p`'s `l` heaps has `Q > l - p`, see below), or the window
//!    holds twice that period (two periods of any provable one), or the
//!    run's memory limit stops it.
//! 2. Every value once, in order, compared with the value the candidate
//!    predicts from the last `p` heaps of the window (heap `n` against the
//!    heap `m` of the last period with `m ≡ n (mod p)`, less `s` for each
//!    of the `(m - n) / p` periods between them). The heaps where they
//!    differ are exactly the heaps before the pre-period that break the
//!    period (the `exceptions` of a full-table report), and the last of
//!    them is `n0 - 1`: from `n0` on every value is predicted, so
//!    `g(n + p) = g(n) + s` for every `n >= n0`, and `g(n0 - 1 + p) !=
//!    g(n0 - 1) + s`. The same pass counts the P-positions and finds the
//!    largest value's first heap, and checks every chunk's checksum and the
//!    root.
//!
//! Memory is the window (one or two bytes a heap, and four for the
//! failure function up to 2^22 heaps, then four for each heap of one
//! period, at most half the window) and a thousand listed heaps, however
//! long the run; time is one read of the stream, and of the window (twice
//! it when the window grows: each size read whole).
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
//! that longer tail). The same argument bounds what a larger window can
//! show: a period `Q` whose tail is longer than the candidate's `l` heaps
//! has `Q > l - p` (were `l >= p + Q`, `p` would divide `Q` and hold on
//! `Q`'s tail). A period `Q` the run can prove is at most the longest
//! provable one, `P`, and is found at all (by a full table's search too)
//! only when its tail spans two periods; a window of `2P` heaps (or every
//! heap, when fewer) holds two of them. So a growing window that stops as
//! above misses no period a full table's search would find and prove. A
//! candidate is proven by the same code as a full table's
//! (`analysis::prove`), with the pass's check of every heap from `n0` on;
//! a theorem proves plain periods only, so an arithmetic period is
//! reported as observed.

use super::period::{find_period_given, reportable};
use super::{Claim, Limits, Periodicity, Support, Theorem, next_target, period_candidate, prove};
use crate::report::{Listed, VALUES_LISTED};
use crate::solve::{
    CHUNK_HEAPS, Pipeline, SparseSolver, Stage, ValueStream, WindowOptions, WindowOutcome,
    WindowProgress,
};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::{Error, HeapGame, HeapRuleset, Nimber, Result, ValueTable};

/// The heaps at the end of a windowed run searched for a period first by
/// default: periods up to 2^21 are found without growing the window (0.16's
/// 149459, 0.354's 1180; not 0.106's 328226140, which needs a window of
/// 2^30 heaps).
pub const PERIOD_WINDOW: usize = 1 << 22;

/// Bytes per heap of the period window besides its values: the failure
/// function (four bytes a heap) up to 2^22 heaps; past that the marker
/// method needs far less, but the bound stays simple.
const SEARCH_BYTES_PER_HEAP: u64 = 4;

/// How many of its last heaps a windowed run searches for a period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeriodWindow {
    /// Exactly this many (every heap, when the run has fewer): periods up
    /// to half of it are found.
    Fixed(usize),
    /// This many first; then twice as many, and so on, while a larger
    /// window could show a period the game's theorem can prove (see the
    /// module docs) and the window fits the run's memory limit: every
    /// period the run can prove is found, at the cost of up to the whole
    /// stream in memory for a game whose values show none.
    Growing(usize),
}

impl Default for PeriodWindow {
    /// [`PERIOD_WINDOW`] heaps first, growing.
    fn default() -> Self {
        PeriodWindow::Growing(PERIOD_WINDOW)
    }
}

impl PeriodWindow {
    /// The heaps searched first.
    pub fn first(&self) -> usize {
        match *self {
            PeriodWindow::Fixed(heaps) | PeriodWindow::Growing(heaps) => heaps,
        }
    }
}

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
/// searches the last heaps of its stream for a period (`period_window`),
/// proves it when the game's theorem allows, and summarises the values (see
/// the module docs).
///
/// An adaptive run goes on from where its last step ended, through its
/// checkpoint: `options.checkpoint`, or a scratch one beside the stream
/// (`STREAM.window`, removed at the end).
///
/// The period window takes five bytes a heap (six for two-byte values) of
/// `options.memory_limit`: [`Error::PeriodSearchTooLarge`] refuses a first
/// window past it, and a growing one grows only within it.
pub fn analyze_record<G: HeapRuleset + fmt::Display + ?Sized>(
    game: &G,
    limits: &Limits,
    options: &WindowOptions,
    period_window: PeriodWindow,
    progress: &mut dyn FnMut(&WindowProgress) -> bool,
) -> Result<RecordAnalysis> {
    let code = game.as_take_break();
    let pipeline = match options.threads {
        0 | 1 => Pipeline::Off,
        _ => Pipeline::Auto,
    };
    let solver = code
        .and_then(SparseSolver::new)
        .map(|solver| solver.with_pipeline(pipeline).with_threads(options.threads));
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
    let first_window = period_window.first().clamp(1, heaps);
    let needed =
        (first_window as u64).saturating_mul(u64::from(options.widest()) + SEARCH_BYTES_PER_HEAP);
    if needed > options.memory_limit {
        return Err(Error::PeriodSearchTooLarge {
            heaps: first_window as u64,
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
        let search = Search {
            window: period_window,
            theorem,
            memory_limit: options.memory_limit,
        };
        let (window, candidate) = search.run(&stream)?;
        let report = WindowProgress {
            stage: Stage::Check,
            heaps: 0,
            rare: outcome.stats.rare_count,
            largest: 0,
            far_scans: outcome.far_scans,
        };
        let (claim, summary, needed) = examine(&stream, candidate, theorem, report, progress)?;
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

/// The search of a stream's last heaps for a period (step 1 of the module
/// docs).
struct Search {
    window: PeriodWindow,
    /// The game's periodicity theorem: a window grows only toward the
    /// periods it can prove.
    theorem: Option<Theorem>,
    /// The most bytes the window may take.
    memory_limit: u64,
}

/// The values of one period of a stream's tail and how they repeat: what
/// the pass over the stream checks every heap against.
struct Candidate {
    /// `g(heaps - p..heaps)`, the stream's last `p` values.
    block: Vec<u32>,
    /// `s`: heap `n` is worth `block[(n - (heaps - p)) mod p]` less `s` for
    /// each period between them.
    saltus: u64,
}

impl Search {
    /// The window searched in the end and the candidate found there: the
    /// periodicity [`find_period`](super::find_period) reports when it is
    /// arithmetic, else [`period_candidate`], the plain period of the
    /// longest tail that spans two periods however short that tail (a
    /// proof needs no more than the theorem asks; a full table's analysis
    /// proves the same candidate).
    fn run(&self, stream: &ValueStream) -> Result<(usize, Option<Candidate>)> {
        let heaps = stream.heaps as usize;
        let first = self.window.first().clamp(1, heaps);
        let provable = self.theorem.map_or(0, |t| t.longest_provable_period(heaps));
        let largest = match self.window {
            PeriodWindow::Fixed(_) => first,
            PeriodWindow::Growing(_) => {
                let per_heap = u64::from(stream.width) + SEARCH_BYTES_PER_HEAP;
                let fits = usize::try_from(self.memory_limit / per_heap).unwrap_or(usize::MAX);
                provable.saturating_mul(2).min(fits).min(heaps).max(first)
            }
        };
        let mut window = first;
        loop {
            let tail = read_tail(stream, window)?;
            let plain = period_candidate(&tail);
            // A period `Q` with a longer tail than the candidate's (`l`
            // heaps of period `p` in the window) has `Q > l - p`: were `l
            // >= p + Q`, `p` would divide `Q` and hold on `Q`'s tail (Fine
            // and Wilf, as in the module docs). So once `l - p` reaches the
            // longest provable period, no larger window shows a better one.
            let settled = plain.is_some_and(|c| window - c.preperiod >= c.period + provable);
            if settled || window == largest {
                let found = find_period_given(&tail, plain);
                let pick = found.filter(|f| f.saltus > 0).or(plain);
                let candidate = pick.map(|p| Candidate {
                    block: (window - p.period..window)
                        .map(|n| tail.at(n).get())
                        .collect(),
                    saltus: p.saltus,
                });
                return Ok((window, candidate));
            }
            window = window.saturating_mul(2).min(largest);
        }
    }
}

/// The last `window` values of `stream`.
fn read_tail(stream: &ValueStream, window: usize) -> Result<ValueTable> {
    let start = stream.heaps as usize - window;
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
    Ok(tail)
}

/// The pass over `stream` of the module docs, checking `candidate` on
/// every heap, which reports its progress (`report`, stage
/// [`Stage::Check`]) after every chunk and stops with
/// [`Error::Interrupted`] when `progress` says so. Returns the claim, the
/// summary and, when the game's theorem applies to the candidate but its
/// proof needs more heaps, the last heap it needs.
fn examine(
    stream: &ValueStream,
    candidate: Option<Candidate>,
    theorem: Option<Theorem>,
    mut report: WindowProgress,
    progress: &mut dyn FnMut(&WindowProgress) -> bool,
) -> Result<(Claim, RecordSummary, Option<usize>)> {
    let heaps = stream.heaps as usize;
    let (block, saltus) = candidate.map_or((Vec::new(), 0), |c| (c.block, c.saltus));
    let period = (!block.is_empty()).then_some(block.len());
    // Heap `n` is predicted by `block[phase(n)]`, less `saltus` for each of
    // the `behind(n)` periods between it and the last one; the pass below
    // steps both instead of dividing.
    let p = period.unwrap_or(1);
    let phase = |n: usize| (n % p + p - (heaps - p) % p) % p;
    let behind = |n: usize| (heaps - p + phase(n) - n) / p;
    let predict = |at: usize, behind: usize| {
        u64::from(block[at]).checked_sub(saltus.saturating_mul(behind as u64))
    };
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
    let (mut at, mut periods) = (phase(0), behind(0));
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
                if predict(at, periods) != Some(u64::from(v)) {
                    summary.exceptions.push(n);
                    breaks_after = Some(n);
                }
                at += 1;
                if at == p {
                    (at, periods) = (0, periods.saturating_sub(1));
                }
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
        saltus,
    });
    // Every heap from the pre-period on was checked in the pass. The
    // theorems prove plain periods only.
    let checked_from = found.map_or(usize::MAX, |f| f.preperiod);
    let proof = theorem
        .zip(found.filter(|f| f.saltus == 0))
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
            // Predicted, and checked in the pass, from the pre-period on.
            summary.repeats = (found.preperiod..heaps)
                .take(found.period.min(VALUES_LISTED))
                .filter_map(|n| predict(phase(n), behind(n)))
                .map(|v| v as u32)
                .collect();
        }
        None => summary.exceptions = Listed::default(),
    }
    Ok((claim, summary, needed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::StreamWriter;

    /// The stream of `values` at a scratch path, read back.
    fn stream_of(name: &str, values: &[u32]) -> (ValueStream, PathBuf) {
        let path = std::env::temp_dir().join(format!(
            "grundy-record-{}-{name}.values",
            std::process::id()
        ));
        let mut writer = StreamWriter::create(&path, "test", 1).unwrap();
        for &v in values {
            writer.push(v).unwrap();
        }
        writer.finish().unwrap();
        (ValueStream::open(&path).unwrap(), path)
    }

    /// Issue 53: an arithmetic period (Lasker's Nim's saltus 4, and one
    /// after a pre-period of noise) is found in the window, checked on
    /// every heap by the pass, and reported as the full-table search
    /// reports it, observed (no theorem proves a saltus).
    #[test]
    fn arithmetic_periods_are_found_in_a_window() {
        let lasker: Vec<u32> = (0..240u32)
            .map(|n| match n % 4 {
                0 if n > 0 => n - 1,
                3 => n + 1,
                _ => n,
            })
            .collect();
        let mut noisy: Vec<u32> = (0..50u32).map(|n| (n * 7 + 3) % 11).collect();
        noisy.extend((0..150u32).map(|n| 12 + n / 3 * 2 + n % 3));
        for (name, values) in [("lasker", lasker), ("noisy", noisy)] {
            let (stream, path) = stream_of(name, &values);
            let search = Search {
                window: PeriodWindow::Fixed(64),
                theorem: None,
                memory_limit: 1 << 20,
            };
            let (window, candidate) = search.run(&stream).unwrap();
            assert_eq!(window, 64);
            let report = WindowProgress {
                stage: Stage::Check,
                heaps: 0,
                rare: 0,
                largest: 0,
                far_scans: 0,
            };
            let (claim, summary, needed) =
                examine(&stream, candidate, None, report, &mut |_| true).unwrap();
            std::fs::remove_file(path).unwrap();
            let table: ValueTable = values.iter().copied().map(Nimber::new).collect();
            let expected = super::super::find_period(&table).unwrap();
            assert!(expected.saltus > 0, "{name}");
            assert_eq!(claim.periodicity, Some(expected), "{name}");
            assert_eq!((claim.support, needed), (Support::Observed, None));
            let n0 = expected.preperiod;
            assert_eq!(summary.repeats, values[n0..n0 + expected.period], "{name}");
            // The heaps before the pre-period that the period, extended
            // backwards, does not predict: the full table's exceptions.
            let analysis = super::super::Analysis {
                game: "test".into(),
                to: values.len() - 1,
                values: table,
                periodicity: Some(expected),
                support: Support::Observed,
                sparse: None,
                theorem: None,
            };
            let exceptions: Vec<usize> = analysis.exceptions().collect();
            assert_eq!(summary.exceptions.count, exceptions.len(), "{name}");
            assert_eq!(summary.exceptions.first, exceptions, "{name}");
        }
    }
}
