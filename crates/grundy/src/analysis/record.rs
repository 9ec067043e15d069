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
//!    candidate instead, if it finds one. A growing window (the default)
//!    of a game with a theorem goes on to the whole stream unless the
//!    window's candidate is
//!    *settled*: its tail in the window, less one period, reaches the
//!    longest period the game's theorem can prove from the heaps computed
//!    ([`Theorem::longest_provable_period`]; a period `Q` with a longer
//!    tail than `p`'s `l` heaps has `Q > l - p`, see below). The whole
//!    stream is searched as a full table of it is: in memory up to 2^22
//!    heaps, else by the positions of one marker value
//!    (`candidate_by_markers`), read back chunk by chunk ([`StreamValues`]):
//!    two passes in order and walks back through a few chunks held at a
//!    time, so a run of 4.4·10^8 heaps finds its period of 6·10^7 in the
//!    memory of a marker's positions.
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
//! failure function up to 2^22 heaps), the candidate's last period (one or
//! two bytes a heap) and a thousand listed heaps, however long the run;
//! time is a few reads of the stream. An adaptive run searches after each
//! step, and makes the pass only at a step with a candidate and at its
//! last. Where the whole stream would be searched by markers, the period
//! the step before found is tried first, if it holds on the window: its
//! pass finds its tail, and it stands when that tail holds the step
//! before's and is proven or settled (see `settles`); else the stream is
//! searched and passed over again.
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
//! heap, when fewer) holds two of them. So a growing window settled as
//! above misses no period a full table's search would find and prove, and
//! one that goes on to the whole stream finds the full table's candidate. A
//! candidate is proven by the same code as a full table's
//! (`analysis::prove`), with the pass's check of every heap from `n0` on;
//! a theorem proves plain periods only, so an arithmetic period is
//! reported as observed.

use super::period::{
    FAILURE_FUNCTION_LIMIT, Sequence, candidate_by_markers, find_period_given, reportable,
};
use super::{Claim, Limits, Periodicity, Support, Theorem, next_target, period_candidate, prove};
use crate::ValueSlice;
use crate::report::{Listed, VALUES_LISTED};
use crate::scratch::ScratchFile;
use crate::solve::{
    CHUNK_HEAPS, ChunkReader, Pipeline, SparseSolver, Stage, ValueStream, WindowOptions,
    WindowOutcome, WindowProgress,
};
use std::cell::RefCell;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use crate::{Error, HeapGame, HeapRuleset, Nimber, Result, ValueTable, with_slice};

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
    /// This many first; then, for a game with a periodicity theorem,
    /// unless a larger window could show no period it can prove (see the
    /// module docs), the whole
    /// stream, read back chunk by chunk: every period the run can prove is
    /// found, as a full table's search finds it, in the memory of this
    /// window and of the candidate's last period.
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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
/// `options.memory_limit`, and the candidate's last period one or two:
/// [`Error::PeriodSearchTooLarge`] refuses either past it.
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
    search_fits(first_window, needed, options.memory_limit)?;
    let theorem = Theorem::for_game(&HeapGame::TakeBreak(code.clone()));
    let mut step = options.clone();
    let scratch = (limits.to.is_none() && options.checkpoint.is_none()).then(|| {
        let path = PathBuf::from(format!("{}.window", options.stream.display()));
        step.checkpoint = Some((path.clone(), Duration::MAX)); // saved at each step's end
        ScratchFile::new(path)
    });
    let mut target = limits.to.unwrap_or(limits.start.min(limits.max));
    let mut search = Search {
        window: period_window,
        theorem,
        memory_limit: options.memory_limit,
        counts: None,
        threads: options.threads,
    };
    // The periodicity of the last step's pass, tried first at the next.
    let mut hint = None;
    loop {
        let outcome = solver.extend_windowed(target, &step, progress)?;
        step.resume = step.checkpoint.is_some();
        let stream = ValueStream::open(&options.stream)?;
        let done = outcome.heaps - 1;
        let last_step = limits.to.is_some() || done >= limits.max;
        // The run's counts are of heaps 1 on; heap 0 is worth 0.
        let mut counts = outcome.histogram.clone();
        if let Some(zero) = counts.first_mut() {
            *zero += 1;
        }
        search.counts = Some(counts);
        let report = WindowProgress {
            stage: Stage::Check,
            heaps: 0,
            checks: Some(stream.heaps),
            rare: outcome.stats.rare_count,
            largest: 0,
            far_scans: outcome.far_scans,
        };
        // Without a candidate, nothing to prove, and the summary is made
        // at the last step.
        let (searched, (claim, summary, needed)) =
            match search.find(&stream, hint, last_step, report, progress)? {
                Some((searched, Found::Examined(examined))) => (searched, examined),
                Some((_, Found::Unproven(found, needed))) => {
                    hint = Some(found);
                    let needed = needed.map(|n| n as u64);
                    target = next_target(done.max(target), needed, limits.max);
                    continue;
                }
                None => {
                    target = next_target(done.max(target), None, limits.max);
                    continue;
                }
            };
        if last_step || claim.is_proven() {
            drop(scratch);
            return Ok(RecordAnalysis {
                game: code.to_string(),
                outcome,
                claim,
                period_window: searched,
                summary,
            });
        }
        hint = claim.periodicity;
        target = next_target(done.max(target), needed.map(|n| n as u64), limits.max);
    }
}

/// Refuses with [`Error::PeriodSearchTooLarge`] a search of `heaps` heaps
/// that needs `needed` bytes past `limit`.
fn search_fits(heaps: usize, needed: u64, limit: u64) -> Result<()> {
    if needed <= limit {
        return Ok(());
    }
    Err(Error::PeriodSearchTooLarge {
        heaps: heaps as u64,
        needed: crate::error::human_bytes_near(u128::from(needed), u128::from(limit)),
        limit: crate::error::human_bytes_near(u128::from(limit), u128::from(needed)),
    })
}

/// The search of a stream's last heaps for a period (step 1 of the module
/// docs).
struct Search {
    window: PeriodWindow,
    /// The game's periodicity theorem: a search goes on past the window
    /// only toward the periods it can prove.
    theorem: Option<Theorem>,
    /// The most bytes the candidate's last period may take.
    memory_limit: u64,
    /// How many heaps of the stream have each value, as the run counted
    /// them: the marker search then counts the last quarter only.
    counts: Option<Vec<u64>>,
    /// The threads the pass over the stream may use ([`examine`]).
    threads: usize,
}

/// What [`Search::run`] found.
struct Searched {
    /// The heaps searched: the window's, or the whole stream's.
    heaps: usize,
    candidate: Option<Candidate>,
    /// When the candidate is the period of the run's previous step, not
    /// searched for: that step's periodicity and the longest period the
    /// theorem can prove now. See [`settles`] for when it stands; else the
    /// stream is searched without it.
    hinted: Option<(Periodicity, usize)>,
    /// The candidate's periodicity when its pre-period is exact: found by
    /// searching every heap, its tail walked back to its first mismatch.
    exact: Option<Periodicity>,
}

/// What a step's search and pass make of its stream ([`Search::find`]).
enum Found {
    /// The pass over every heap: the claim, the summary, and the last heap
    /// a proof needs when the theorem applies but needs more heaps.
    Examined(Examined),
    /// A plain periodicity, its pre-period exact, that the theorem cannot
    /// prove from the heaps computed, and the last heap its proof needs:
    /// the pass is left to a step that can prove it or that reports.
    Unproven(Periodicity, Option<usize>),
}

/// The values of one period of a stream's tail and how they repeat: what
/// the pass over the stream checks every heap against.
struct Candidate {
    /// `g(heaps - p..heaps)`, the stream's last `p` values.
    block: ValueTable,
    /// `s`: heap `n` is worth `block[(n - (heaps - p)) mod p]` less `s` for
    /// each period between them.
    saltus: u64,
}

impl Search {
    /// The heaps searched and the candidate found there: the periodicity
    /// [`find_period`](super::find_period) reports when it is arithmetic,
    /// else the plain period of the longest tail that spans two periods
    /// however short that tail (a proof needs no more than the theorem
    /// asks; a full table's analysis proves the same candidate).
    ///
    /// The last [`PeriodWindow::first`] heaps are read into memory and
    /// searched first ([`period_candidate`], and the search for an
    /// arithmetic period). A growing window whose candidate there is not
    /// settled goes on to the whole stream when the game has a theorem,
    /// searched by markers chunk by chunk ([`StreamValues`]).
    ///
    /// A `hint`, the plain periodicity of the run's previous step, takes
    /// the place of the whole stream's search when its period still holds
    /// on the window's last heaps: the pass over every heap then finds its
    /// tail, and with it whether it stands (see [`settles`]). After a step
    /// the period usually goes on (0.1777's last step searched 4.4·10^8
    /// heaps again for the period of 6·10^7 that the step before found).
    fn run(&self, stream: &ValueStream, hint: Option<Periodicity>) -> Result<Searched> {
        let heaps = stream.heaps as usize;
        let window = self.window.first().clamp(1, heaps);
        let tail = read_tail(stream, window)?;
        let plain = period_candidate(&tail);
        // A period `Q` with a longer tail than the candidate's (`l` heaps
        // of period `p` in the window) has `Q > l - p`: were `l >= p + Q`,
        // `p` would divide `Q` and hold on `Q`'s tail (Fine and Wilf, as in
        // the module docs). So once `l - p` reaches the longest provable
        // period, no longer search shows a better one.
        let provable = self.theorem.map_or(0, |t| t.longest_provable_period(heaps));
        let settled = plain.is_some_and(|c| window - c.preperiod >= c.period + provable);
        // The window's candidate, its pre-period counted from heap 0.
        let in_window = plain.map(|c| Periodicity {
            preperiod: c.preperiod + heaps - window,
            ..c
        });
        // Without a theorem nothing is proven: the window's observation
        // stands.
        let whole = matches!(self.window, PeriodWindow::Growing(_))
            && self.theorem.is_some()
            && window < heaps
            && !settled;
        if whole
            && heaps > FAILURE_FUNCTION_LIMIT
            && let Some(hint) = hint.filter(|h| h.saltus == 0 && 2 * h.period <= heaps)
            && ends_with_period(stream, &tail, hint.period)?
        {
            return Ok(Searched {
                heaps,
                candidate: Some(self.candidate(stream, hint)?),
                hinted: Some((hint, provable)),
                exact: None,
            });
        }
        // Where `plain` is not reportable, an arithmetic period may be: as
        // a full table of the heaps searched is (`find_period_given`), in
        // memory up to the failure function's limit, else on the window.
        // `exact`: a plain candidate of the whole stream's search, whose
        // pre-period is where its tail starts (the search walks every tail
        // back to its first mismatch).
        let (searched, plain, arithmetic, exact) = if whole && heaps <= FAILURE_FUNCTION_LIMIT {
            let all = read_tail(stream, heaps)?;
            let plain = period_candidate(&all);
            let arithmetic = find_period_given(&all, plain).filter(|f| f.saltus > 0);
            (heaps, plain, arithmetic, plain)
        } else {
            let arithmetic = find_period_given(&tail, plain)
                .filter(|f| f.saltus > 0)
                .map(|a| Periodicity {
                    preperiod: a.preperiod + heaps - window,
                    ..a
                });
            match whole {
                true => {
                    let found =
                        candidate_by_markers(&StreamValues::new(stream, self.counts.as_deref())?)?;
                    // The longer tail of the two.
                    let longer = match (found, in_window) {
                        (Some(f), Some(c)) if c.preperiod < f.preperiod => Some(c),
                        (Some(f), _) => Some(f),
                        (None, c) => c,
                    };
                    let shown =
                        longer.is_some_and(|c| reportable(heaps - c.preperiod, c.period, heaps));
                    (
                        heaps,
                        longer,
                        arithmetic.filter(|_| !shown),
                        found.filter(|_| longer == found),
                    )
                }
                false => (window, in_window, arithmetic, None),
            }
        };
        let candidate = arithmetic
            .or(plain)
            .map(|found| self.candidate(stream, found))
            .transpose()?;
        Ok(Searched {
            heaps: searched,
            candidate,
            hinted: None,
            exact: exact.filter(|_| arithmetic.is_none()),
        })
    }

    /// The heaps searched and what the pass over `stream` ([`examine`])
    /// finds of the candidate [`Self::run`] finds, with `hint` first (a
    /// search without it when the pass says the hint does not stand).
    /// Unless a `summary` is asked for: `None` when there is no candidate,
    /// and no pass for one whose proof needs more heaps when the search
    /// knows where its tail starts ([`Found::Unproven`]).
    fn find(
        &self,
        stream: &ValueStream,
        hint: Option<Periodicity>,
        summary: bool,
        report: WindowProgress,
        progress: &mut dyn FnMut(&WindowProgress) -> bool,
    ) -> Result<Option<(usize, Found)>> {
        let mut searched = self.run(stream, hint)?;
        if searched.candidate.is_none() && !summary {
            return Ok(None);
        }
        let heaps = stream.heaps as usize;
        if !summary
            && let Some((found, theorem)) = searched.exact.zip(self.theorem)
            && let Err(needed) = prove(theorem, &found, heaps, |from, _| from >= found.preperiod)
        {
            return Ok(Some((searched.heaps, Found::Unproven(found, needed))));
        }
        let mut check = |candidate| {
            examine(
                stream,
                candidate,
                self.theorem,
                self.threads,
                report,
                progress,
            )
        };
        let mut examined = check(searched.candidate.take())?;
        if let Some(hinted) = searched.hinted
            && !settles(&examined.0, heaps, hinted)
        {
            searched = self.run(stream, None)?;
            examined = check(searched.candidate.take())?;
        }
        Ok(Some((searched.heaps, Found::Examined(examined))))
    }

    /// The [`Candidate`] of `found`: the stream's last period, read back,
    /// refused with [`Error::PeriodSearchTooLarge`] when it does not fit the
    /// memory limit.
    fn candidate(&self, stream: &ValueStream, found: Periodicity) -> Result<Candidate> {
        let needed = (found.period as u64).saturating_mul(u64::from(stream.width));
        search_fits(found.period, needed, self.memory_limit)?;
        Ok(Candidate {
            block: read_tail(stream, found.period)?,
            saltus: found.saltus,
        })
    }
}

/// A value stream as a [`Sequence`] for the marker search: passes in order
/// through [`ValueStream::for_each_chunk`], and the walks back of
/// [`Sequence::agree_back`] through the few chunks they are at, held
/// decoded, so that memory is a few chunks however long the stream.
struct StreamValues<'a> {
    stream: &'a ValueStream,
    held: RefCell<HeldChunks<'a>>,
    /// How many heaps of the stream have each value, as the run counted
    /// them (checked against the stream's length before use).
    counts: Option<&'a [u64]>,
}

/// Chunks read back, the most recently used last.
struct HeldChunks<'a> {
    reader: ChunkReader<'a>,
    chunks: Vec<(u64, Vec<u32>)>,
}

/// Chunks [`HeldChunks`] keeps: the two a comparison reads, and the stream's
/// last ones, which every candidate period's walk starts from.
const HELD_CHUNKS: usize = 4;

impl HeldChunks<'_> {
    /// Holds chunk `index`, read if it is not held.
    fn hold(&mut self, index: u64) -> Result<()> {
        if let Some(at) = self.chunks.iter().position(|&(i, _)| i == index) {
            let chunk = self.chunks.remove(at);
            self.chunks.push(chunk);
        } else {
            let mut values = match self.chunks.len() {
                HELD_CHUNKS => self.chunks.remove(0).1,
                _ => Vec::with_capacity(CHUNK_HEAPS),
            };
            self.reader.read(index, &mut values)?;
            self.chunks.push((index, values));
        }
        Ok(())
    }
}

impl<'a> StreamValues<'a> {
    fn new(stream: &'a ValueStream, counts: Option<&'a [u64]>) -> Result<StreamValues<'a>> {
        Ok(StreamValues {
            stream,
            held: RefCell::new(HeldChunks {
                reader: stream.chunk_reader()?,
                chunks: Vec::new(),
            }),
            counts,
        })
    }
}

impl Sequence for StreamValues<'_> {
    fn len(&self) -> usize {
        self.stream.heaps as usize
    }

    fn stretches_from(&self, from: usize, mut visit: impl FnMut(usize, &[u32])) -> Result<()> {
        let chunks = from as u64 / CHUNK_HEAPS as u64..self.stream.chunks();
        self.stream.for_each_chunk(chunks, &mut |first, values| {
            crate::cancel::check()?;
            visit(first as usize, values);
            Ok(())
        })
    }

    fn counts(&self) -> Option<&[u64]> {
        self.counts
    }

    /// Compared a stretch at a time: the heaps `n` whose chunk and whose
    /// partner `n + p`'s chunk are both held.
    fn agree_back(&self, start: usize, p: usize) -> Result<usize> {
        let chunk = CHUNK_HEAPS;
        let held = &mut *self.held.borrow_mut();
        let mut n = start;
        while n > 0 {
            crate::cancel::check()?;
            let (low_chunk, high_chunk) = ((n - 1) / chunk, (n - 1 + p) / chunk);
            held.hold(low_chunk as u64)?;
            held.hold(high_chunk as u64)?;
            let find = |index: usize| {
                let (_, values) = held
                    .chunks
                    .iter()
                    .find(|&&(i, _)| i == index as u64)
                    .expect("both chunks are held");
                values
            };
            let (low, high) = (find(low_chunk), find(high_chunk));
            let (low_first, high_first) = (low_chunk * chunk, high_chunk * chunk);
            let from = low_first.max(high_first.saturating_sub(p));
            let a = &low[from - low_first..n - low_first];
            let b = &high[from + p - high_first..n + p - high_first];
            if let Some(last) = a.iter().zip(b).rposition(|(x, y)| x != y) {
                return Ok(from + last + 1);
            }
            n = from;
        }
        Ok(0)
    }
}

/// Whether the last heaps of `stream`, `tail`, repeat the values `p` heaps
/// before them (those of `tail` that have such heaps).
fn ends_with_period(stream: &ValueStream, tail: &ValueTable, p: usize) -> Result<bool> {
    let heaps = stream.heaps as usize;
    let compared = tail.len().min(heaps - p);
    let earlier = read_values(stream, heaps - p - compared..heaps - p)?;
    Ok(tail.iter().skip(tail.len() - compared).eq(earlier.iter()))
}

/// Whether `claim`, from the pass over the stream's `heaps` with the
/// period of the previous step's `hint`, is the claim a search of the whole
/// stream would give. Its tail must hold the hint's: the hint's period `p`
/// is the minimal period of that tail (the search found it so), so the
/// minimal one of any longer tail of period `p`. And it must be proven (a
/// proven period's tail is the longest of all, see the module docs) or
/// settled as a window's candidate is in [`Search::run`]: a tail of `l`
/// heaps with `l - p` at least the longest provable period.
fn settles(claim: &Claim, heaps: usize, (hint, provable): (Periodicity, usize)) -> bool {
    claim.periodicity.is_some_and(|f| {
        f.preperiod <= hint.preperiod
            && (claim.is_proven() || heaps - f.preperiod >= f.period + provable)
    })
}

/// The last `window` values of `stream`.
fn read_tail(stream: &ValueStream, window: usize) -> Result<ValueTable> {
    let heaps = stream.heaps as usize;
    read_values(stream, heaps - window..heaps)
}

/// `g(heaps)` for the `heaps` of a stream.
fn read_values(stream: &ValueStream, heaps: std::ops::Range<usize>) -> Result<ValueTable> {
    let chunk = CHUNK_HEAPS as u64;
    let mut read = ValueTable::new();
    let chunks = heaps.start as u64 / chunk..(heaps.end as u64).div_ceil(chunk);
    stream.for_each_chunk(chunks, &mut |first, values| {
        let first = first as usize;
        let from = heaps.start.saturating_sub(first).min(values.len());
        let to = (heaps.end - first).min(values.len());
        for &v in &values[from..to] {
            read.push(Nimber::new(v));
        }
        Ok(())
    })?;
    Ok(read)
}

/// What [`examine`] finds: the claim, the summary and, when the game's
/// theorem applies to the candidate but its proof needs more heaps, the
/// last heap it needs.
type Examined = (Claim, RecordSummary, Option<usize>);

/// The pass over `stream` of the module docs, checking `candidate` on
/// every heap, which reports its progress (`report`, stage
/// [`Stage::Check`]) after every chunk and stops with
/// [`Error::Interrupted`] when `progress` says so.
///
/// With `threads` of 2 or more, the stream's first half is passed on a
/// second thread while this one passes the second (each heap's prediction
/// depends on its index alone), and the two merged in order: the pass
/// reads and checks 4.4·10^8 heaps at the end of 0.1777's proof.
fn examine(
    stream: &ValueStream,
    candidate: Option<Candidate>,
    theorem: Option<Theorem>,
    threads: usize,
    mut report: WindowProgress,
    progress: &mut dyn FnMut(&WindowProgress) -> bool,
) -> Result<Examined> {
    let heaps = stream.heaps as usize;
    let (mut block, saltus) = candidate.map_or((ValueTable::new(), 0), |c| (c.block, c.saltus));
    if let ValueSlice::Folded(_) = block.as_slice() {
        // Compared with every chunk: at its width, not unfolded each time.
        block.widen();
    }
    let period = (!block.is_empty()).then_some(block.len());
    let predicted = Predicted {
        block: &block,
        saltus,
        heaps,
    };
    let passed = if threads >= 2 && stream.chunks() >= SPLIT_PASS_FROM {
        pass_in_halves(stream, predicted, &mut report, progress)?
    } else {
        pass(
            stream,
            0..stream.chunks(),
            predicted,
            &mut |done, largest| {
                (report.heaps, report.largest) = (done, largest);
                match progress(&report) {
                    true => Ok(()),
                    false => Err(interrupted(stream)),
                }
            },
        )?
    };
    let Passed {
        mut summary,
        breaks_after,
    } = passed;
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
                .filter_map(|n| predicted.of(n))
                .map(|v| v as u32)
                .collect();
        }
        None => summary.exceptions = Listed::default(),
    }
    Ok((claim, summary, needed))
}

/// Chunks from which [`examine`] splits its pass over two threads: a
/// shorter stream is passed in milliseconds.
const SPLIT_PASS_FROM: u64 = 64;

/// How a candidate predicts a stream of `heaps` heaps: heap `n` is
/// predicted by `block[phase(n)]`, less `saltus` for each of the
/// `behind(n)` periods between it and the stream's last one.
#[derive(Clone, Copy)]
struct Predicted<'a> {
    block: &'a ValueTable,
    saltus: u64,
    heaps: usize,
}

impl Predicted<'_> {
    /// Where heap `n` stands in the block.
    fn phase(&self, n: usize) -> usize {
        let (p, heaps) = (self.block.len().max(1), self.heaps);
        (n % p + p - (heaps - p) % p) % p
    }

    /// The periods between heap `n` and the stream's last one.
    fn behind(&self, n: usize) -> usize {
        let p = self.block.len().max(1);
        (self.heaps - p + self.phase(n) - n) / p
    }

    /// The value at `at` of the block less `behind` saltuses (`None` below
    /// 0).
    fn value(&self, at: usize, behind: usize) -> Option<u64> {
        u64::from(self.block.at(at).get()).checked_sub(self.saltus.saturating_mul(behind as u64))
    }

    /// The value predicted for heap `n`.
    fn of(&self, n: usize) -> Option<u64> {
        self.value(self.phase(n), self.behind(n))
    }
}

/// What [`pass`] finds over a run of a stream's chunks: the summary of
/// its heaps (all but `repeats`, which [`examine`] fills from the claim),
/// and the last heap the candidate does not predict.
#[derive(Default)]
struct Passed {
    summary: RecordSummary,
    breaks_after: Option<usize>,
}

impl Passed {
    /// This run's findings, then those of the run after it.
    fn then(mut self, later: Passed) -> Passed {
        let (ours, theirs) = (&mut self.summary, later.summary);
        let room = VALUES_LISTED.saturating_sub(ours.first_values.len());
        ours.first_values
            .extend(theirs.first_values.into_iter().take(room));
        if theirs.max_value > ours.max_value {
            (ours.max_value, ours.max_value_at) = (theirs.max_value, theirs.max_value_at);
        }
        for (listed, more) in [
            (&mut ours.p_positions, theirs.p_positions),
            (&mut ours.exceptions, theirs.exceptions),
        ] {
            listed.extend_counted(more.count, more.first.into_iter());
        }
        ours.last_value = theirs.last_value;
        self.breaks_after = later.breaks_after.or(self.breaks_after);
        self
    }
}

/// How often the second half of a pass, done first, reports the first's
/// progress while it waits for it (sooner when the first ends).
const PROGRESS_WHILE_WAITING: Duration = Duration::from_millis(20);

/// The error of a pass that its `progress` stopped.
fn interrupted(stream: &ValueStream) -> Error {
    Error::Interrupted {
        heaps: stream.heaps,
    }
}

/// [`pass`] over every chunk of `stream` on two threads: the first half on
/// a helper, the second on this thread, which reports the progress of both
/// (`report`, `progress`), also while it waits for the first. A half that
/// fails (an error, a panic, `progress` saying stop) stops the other at its
/// next chunk, and the error returned is the one that came first, not the
/// other half's stop.
fn pass_in_halves(
    stream: &ValueStream,
    predicted: Predicted<'_>,
    report: &mut WindowProgress,
    progress: &mut dyn FnMut(&WindowProgress) -> bool,
) -> Result<Passed> {
    let chunks = stream.chunks();
    let mid = chunks / 2;
    let early_heaps = stream.heaps.min(mid * CHUNK_HEAPS as u64);
    let (early_done, largest) = (AtomicU64::new(0), AtomicU32::new(0));
    let (early_failed, late_failed) = (AtomicBool::new(false), AtomicBool::new(false));
    let token = crate::Cancel::current();
    let waiting = std::thread::current();
    // Both halves' progress, `late` heaps of the second passed.
    let mut tell = |late: u64, top: u32| {
        report.heaps = early_done.load(Ordering::Relaxed) + late;
        report.largest = largest.fetch_max(top, Ordering::Relaxed).max(top);
        match progress(report) {
            true => Ok(()),
            false => Err(interrupted(stream)),
        }
    };
    std::thread::scope(|scope| {
        let early = scope.spawn(|| {
            let mut failed = RaiseOnDrop(Some(&early_failed));
            let found = crate::cancel::run_under(token.as_ref(), || {
                pass(stream, 0..mid, predicted, &mut |done, top| {
                    early_done.store(done, Ordering::Relaxed);
                    largest.fetch_max(top, Ordering::Relaxed);
                    match late_failed.load(Ordering::Relaxed) {
                        true => Err(interrupted(stream)),
                        false => Ok(()),
                    }
                })
            });
            if found.is_ok() {
                failed.0 = None;
            }
            waiting.unpark();
            found
        });
        // Whether this half stopped because the first failed.
        let mut yielded = false;
        let mut late = pass(stream, mid..chunks, predicted, &mut |done, top| {
            if early_failed.load(Ordering::Relaxed) {
                yielded = true;
                return Err(interrupted(stream));
            }
            tell(done, top)
        });
        // A second half done first goes on reporting the first's progress
        // until it ends, and stops it when `progress` says so.
        while late.is_ok() && !early.is_finished() {
            std::thread::park_timeout(PROGRESS_WHILE_WAITING);
            if let Err(error) = tell(stream.heaps - early_heaps, 0) {
                late = Err(error);
            }
        }
        late_failed.store(late.is_err(), Ordering::Relaxed);
        let early = early
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        match (early, late) {
            (Ok(early), Ok(late)) => Ok(early.then(late)),
            (Err(error), _) if yielded => Err(error),
            (_, Err(error)) | (Err(error), Ok(_)) => Err(error),
        }
    })
}

/// Raises its flag when dropped while it holds one: the half of a pass
/// that ends without its findings, by an error or a panic, stops the other.
struct RaiseOnDrop<'a>(Option<&'a AtomicBool>);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        if let Some(flag) = self.0 {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

/// Passes `chunks` of `stream`, checking what `predicted` says of every
/// heap (nothing without a block); calls `done(heaps passed, largest value)`
/// after each chunk, which stops the pass with its error.
fn pass(
    stream: &ValueStream,
    chunks: std::ops::Range<u64>,
    predicted: Predicted<'_>,
    done: &mut dyn FnMut(u64, u32) -> Result<()>,
) -> Result<Passed> {
    let Predicted { block, saltus, .. } = predicted;
    let p = block.len().max(1);
    let from = chunks.start as usize * CHUNK_HEAPS;
    let mut found = Passed::default();
    let Passed {
        summary,
        breaks_after,
    } = &mut found;
    let (mut at, mut periods) = (predicted.phase(from), predicted.behind(from));
    stream.for_each_chunk(chunks, &mut |first, values| {
        crate::cancel::check()?; // a pass over 2^40 heaps takes an hour
        // Chunk by chunk, in loops the compiler vectorises: the values of
        // a chunk are seldom the largest so far, seldom 0, and from the
        // pre-period on all predicted.
        let first = first as usize;
        if first < VALUES_LISTED {
            let listed = values.iter().take(VALUES_LISTED - first);
            summary.first_values.extend(listed);
        }
        let top = values.iter().copied().max().unwrap_or(0);
        if top > summary.max_value {
            let at = values.iter().position(|&v| v == top).unwrap_or(0);
            (summary.max_value, summary.max_value_at) = (top, first + at);
        }
        if values.contains(&0) {
            let zeros = values.iter().enumerate().filter(|&(_, &v)| v == 0);
            zeros.for_each(|(i, _)| summary.p_positions.push(first + i));
        }
        match block.is_empty() {
            true => {}
            false if saltus == 0 => {
                at = with_slice!(block.as_slice(), b => mismatches(
                    (values, first),
                    b,
                    at,
                    &mut summary.exceptions,
                    breaks_after,
                ), folded f => mismatches(
                    (values, first),
                    &f.to_u16(usize::MAX),
                    at,
                    &mut summary.exceptions,
                    breaks_after,
                ));
            }
            false => {
                for (i, &v) in values.iter().enumerate() {
                    if predicted.value(at, periods) != Some(u64::from(v)) {
                        summary.exceptions.push(first + i);
                        *breaks_after = Some(first + i);
                    }
                    at += 1;
                    if at == p {
                        (at, periods) = (0, periods.saturating_sub(1));
                    }
                }
            }
        }
        summary.last_value = values.last().copied().unwrap_or(0);
        done((first + values.len() - from) as u64, summary.max_value)
    })?;
    Ok(found)
}

/// Counts into `exceptions` the heaps `first + i` with `values[i]` not the
/// value of a plain period `block` predicts, `block[at + i]` (`at + i`
/// taken modulo the period), sets `last` to the last of them, and returns
/// where the block stands after `values`. Compared a stretch of the block
/// at a time; the heaps that differ are visited only while `exceptions`
/// lists fewer than it keeps (before a long pre-period nearly every heap
/// differs: 0.1777 has 147,240,871 such heaps).
fn mismatches<C: Copy + Into<u32>>(
    (values, first): (&[u32], usize),
    block: &[C],
    mut at: usize,
    exceptions: &mut Listed,
    last: &mut Option<usize>,
) -> usize {
    let mut i = 0;
    while i < values.len() {
        let len = (block.len() - at).min(values.len() - i);
        let (got, predicted) = (&values[i..i + len], &block[at..at + len]);
        let differ = |(&v, &b): (&u32, &C)| v != b.into();
        let pairs = || got.iter().zip(predicted);
        let count = pairs().filter(|&pair| differ(pair)).count();
        if count > 0 {
            let heaps = pairs().enumerate().filter(|&(_, pair)| differ(pair));
            exceptions.extend_counted(count, heaps.map(|(k, _)| first + i + k));
            let at_last = pairs().rposition(differ).expect("a value differs");
            *last = Some(first + i + at_last);
        }
        i += len;
        at += len;
        if at == block.len() {
            at = 0;
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::StreamWriter;

    /// The progress report `examine` starts from.
    fn check_stage() -> WindowProgress {
        WindowProgress {
            stage: Stage::Check,
            heaps: 0,
            checks: None,
            rare: 0,
            largest: 0,
            far_scans: 0,
        }
    }

    /// Pseudo-random numbers below each bound asked for, from `seed` (a
    /// linear congruential generator: the tests' values are the same on
    /// every run).
    fn numbers(mut state: u64) -> impl FnMut(u64) -> u64 {
        move |below| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % below
        }
    }

    /// The search of a growing window of 2^12 heaps, of a game with a
    /// theorem (Kayles, 0.77: periods are proven by Guy and Smith's).
    fn kayles_search() -> Search {
        let kayles: HeapGame = "0.77".parse().unwrap();
        Search {
            window: PeriodWindow::Growing(1 << 12),
            theorem: Theorem::for_game(&kayles),
            memory_limit: 1 << 30,
            counts: None,
            threads: 2,
        }
    }

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

    /// The pass over a stream on two threads finds what it finds on one:
    /// a plain period and an arithmetic one, their exceptions (more than
    /// are listed, in both halves), P-positions in both halves, and the
    /// first heap of the largest value, in either half.
    #[test]
    fn the_pass_on_two_threads_finds_what_it_finds_on_one() {
        let heaps = (SPLIT_PASS_FROM as usize + 3) * CHUNK_HEAPS + 1234;
        let mut next = numbers(53);
        let block: Vec<u32> = (0..997).map(|_| 1 + next(60) as u32).collect();
        for saltus in [0u32, 1] {
            let period = block.len();
            let last = heaps - period;
            // Heap n repeats the block, `saltus` more each period on.
            let mut values: Vec<u32> = (0..heaps)
                .map(|n| block[n % period] + saltus * (n / period) as u32)
                .collect();
            // The first heap of the second thread's half.
            let half = heaps.div_ceil(CHUNK_HEAPS) / 2 * CHUNK_HEAPS;
            let late = half + 77;
            for n in (0..half).step_by(991) {
                values[n] = 0; // breaks, and P-positions, in the first half
            }
            for n in [half + 5, late - 3] {
                values[n] = 0;
            }
            values[late] = 60_000;
            values[late + 1000] = 60_000;
            // With a plain period the largest is reached in the first half
            // too, and that heap is the one reported.
            let largest_at = if saltus == 0 { heaps / 4 } else { late };
            values[largest_at] = 60_000;
            let path = std::env::temp_dir().join(format!(
                "grundy-record-{}-halves-{saltus}.values",
                std::process::id()
            ));
            let mut writer = StreamWriter::create(&path, "test", 2).unwrap();
            values.iter().try_for_each(|&v| writer.push(v)).unwrap();
            writer.finish().unwrap();
            let stream = ValueStream::open(&path).unwrap();
            let candidate = || Candidate {
                block: values[last..].iter().map(|&v| Nimber::new(v)).collect(),
                saltus: u64::from(saltus),
            };
            let (mut reports, mut reported) = (0, 0);
            let one = examine(
                &stream,
                Some(candidate()),
                None,
                1,
                check_stage(),
                &mut |_| true,
            );
            let two = examine(
                &stream,
                Some(candidate()),
                None,
                2,
                check_stage(),
                &mut |r| {
                    // Both halves' heaps, also while the second waits for
                    // the first: never fewer than the last report's.
                    reports += 1;
                    let rising = r.heaps >= reported;
                    reported = r.heaps;
                    rising && r.heaps <= heaps as u64
                },
            );
            let none = [1, 2].map(|threads| {
                examine(&stream, None, None, threads, check_stage(), &mut |_| true).unwrap()
            });
            // Stopped by its progress, on two threads as on one.
            let stopped = examine(
                &stream,
                Some(candidate()),
                None,
                2,
                check_stage(),
                &mut |_| false,
            );
            std::fs::remove_file(path).unwrap();
            let (one, two) = (one.unwrap(), two.unwrap());
            assert_eq!(one, two, "saltus {saltus}");
            assert!(reports > 1);
            let summary = &one.1;
            assert_eq!(
                (summary.max_value, summary.max_value_at),
                (60_000, largest_at)
            );
            assert!(summary.exceptions.count > crate::report::HEAPS_LISTED);
            assert_eq!(one.0.periodicity.map(|f| f.preperiod), Some(late + 1001));
            assert_eq!(
                summary.p_positions.count,
                values.iter().filter(|&&v| v == 0).count()
            );
            assert_eq!(none[0], none[1]);
            assert!(matches!(stopped, Err(Error::Interrupted { .. })));
        }
    }

    /// A chunk that fails its checksum in either half of a pass on two
    /// threads is reported as on one thread, not as the other half's stop.
    #[test]
    fn a_broken_chunk_in_either_half_is_reported_as_on_one_thread() {
        let heaps = (SPLIT_PASS_FROM as usize + 2) * CHUNK_HEAPS;
        let values: Vec<u32> = (0..heaps as u32).map(|n| n % 7).collect();
        let (_, path) = stream_of("broken-half", &values);
        let bytes = std::fs::read(&path).unwrap();
        for at in [bytes.len() / 4, bytes.len() * 3 / 4] {
            let mut broken = bytes.clone();
            broken[at] ^= 0x40;
            std::fs::write(&path, &broken).unwrap();
            let stream = ValueStream::open(&path).unwrap();
            let errors = [1, 2].map(|threads| {
                let found = examine(&stream, None, None, threads, check_stage(), &mut |_| true);
                found.expect_err("a broken chunk").to_string()
            });
            assert!(!errors[1].contains("interrupted"), "{}", errors[1]);
            assert_eq!(errors[0], errors[1], "byte {at}");
        }
        std::fs::remove_file(path).unwrap();
    }

    /// A stream read back as a [`Sequence`] (chunk by chunk, walking back
    /// through held chunks) answers as the same values in memory: the
    /// walks back from any heap with any shift, and the marker search, on
    /// streams of several chunks whose periods and pre-periods cross chunk
    /// boundaries.
    #[test]
    fn a_stream_is_searched_by_markers_as_its_values_in_memory() {
        let mut next = numbers(0x9e37_79b9_7f4a_7c15);
        let cases = [
            (70_001, 40_000, 300_000),
            (5, 150_001, 460_000),
            (300_000, 1_500_000, FAILURE_FUNCTION_LIMIT + 300_000),
        ];
        for (prefix, period, total) in cases {
            let mut values: Vec<u32> = (0..prefix).map(|_| next(40) as u32).collect();
            let block: Vec<u32> = (0..period).map(|_| next(40) as u32).collect();
            values.extend(block.iter().cycle().take(total - prefix));
            let (stream, path) = stream_of(&format!("markers-{period}"), &values);
            let streamed = StreamValues::new(&stream, None).unwrap();
            let found = candidate_by_markers(&streamed).unwrap().unwrap();
            assert_eq!(Some(found), candidate_by_markers(&values[..]).unwrap());
            // With the counts the run made (the last quarter alone read for
            // its own), and with counts that do not add up (ignored).
            let counts = crate::values::value_counts(&values);
            let mut wrong = counts.clone();
            wrong[0] += 1;
            for counts in [counts, wrong] {
                let counted = StreamValues::new(&stream, Some(&counts)).unwrap();
                assert_eq!(candidate_by_markers(&counted).unwrap(), Some(found));
            }
            assert_eq!((found.preperiod, found.period), (prefix, period));
            for _ in 0..200 {
                let p = 1 + next(total as u64 / 2) as usize;
                let start = next((total - p) as u64 + 1) as usize;
                assert_eq!(
                    streamed.agree_back(start, p).unwrap(),
                    values[..].agree_back(start, p).unwrap(),
                    "{start} {p}"
                );
            }
            // A growing window of a game with a theorem searches the whole
            // stream (by markers past the failure function's limit).
            let search = kayles_search();
            let searched = search.run(&stream, None).unwrap();
            assert_eq!(searched.heaps, total);
            assert_eq!(searched.candidate.map(|c| c.block.len()), Some(period));
            // The pass over the stream finds the pre-period and every heap
            // before it that breaks the period.
            let candidate = Candidate {
                block: values[total - period..]
                    .iter()
                    .map(|&v| Nimber::new(v))
                    .collect(),
                saltus: 0,
            };
            let (claim, summary, _) = examine(
                &stream,
                Some(candidate),
                None,
                1,
                check_stage(),
                &mut |_| true,
            )
            .unwrap();
            std::fs::remove_file(path).unwrap();
            assert_eq!(claim.periodicity.map(|f| f.preperiod), Some(prefix));
            let broken: Vec<usize> = (0..prefix)
                .filter(|&n| values[n] != block[(n + period - prefix % period) % period])
                .collect();
            assert_eq!(summary.exceptions.count, broken.len());
            assert_eq!(
                summary.exceptions.first,
                broken[..broken.len().min(crate::report::HEAPS_LISTED)]
            );
            let zeros = values.iter().filter(|&&v| v == 0).count();
            assert_eq!(summary.p_positions.count, zeros);
            let top = *values.iter().max().unwrap();
            let at = values.iter().position(|&v| v == top).unwrap();
            assert_eq!((summary.max_value, summary.max_value_at), (top, at));
        }
    }

    /// The period of an adaptive run's previous step is checked on every
    /// heap instead of searched for when it still holds at the stream's
    /// end, and the answer is the search's: when the new heaps go on with
    /// it, and when one of them, before the last window, breaks it.
    #[test]
    fn a_previous_steps_period_is_checked_instead_of_searched_for() {
        let mut next = numbers(0x2545_f491_4f6c_dd1d);
        let (prefix, period, total) = (300_000, 200_002, 8_000_000);
        // Noise that no value of the period repeats: the pre-period is
        // `prefix` exactly.
        let mut values: Vec<u32> = (0..prefix).map(|_| 40 + next(40) as u32).collect();
        let block: Vec<u32> = (0..period).map(|_| next(40) as u32).collect();
        values.extend(block.iter().cycle().take(total - prefix));
        let search = kayles_search();
        let claim = |name: &str, values: &[u32], hint| {
            let (stream, path) = stream_of(name, values);
            let hinted = search.run(&stream, hint).unwrap().hinted.is_some();
            let examined = search.find(&stream, hint, true, check_stage(), &mut |_| true);
            std::fs::remove_file(path).unwrap();
            let Some((searched, Found::Examined((claim, summary, _)))) = examined.unwrap() else {
                panic!("a summary asked for is made");
            };
            (
                hinted,
                searched,
                claim.periodicity,
                summary.exceptions.count,
            )
        };
        // The step before: 1.5·10^6 heaps, searched in memory.
        let (_, _, hint, _) = claim("step", &values[..1_500_000], None);
        let expected = Periodicity {
            preperiod: prefix,
            period,
            saltus: 0,
        };
        assert_eq!(hint, Some(expected));
        let searched = claim("whole", &values, None);
        assert_eq!(searched.2, Some(expected));
        let checked = claim("hinted", &values, hint);
        assert_eq!(checked, (true, total, searched.2, searched.3));
        // From a heap of the new ones on, before the last window, the
        // values repeat with half the period: the hint still holds at the
        // end, and on a tail long enough to be settled, but a new one,
        // where its period is not the least; the pass finds so, and the
        // stream is searched.
        let half = period / 2;
        let from = 2_000_000;
        for n in from..total {
            values[n] = 80 + block[(n - from) % half];
        }
        let searched = claim("broken", &values, None);
        assert_eq!(searched.2.map(|f| f.period), Some(half));
        let checked = claim("broken-hinted", &values, hint);
        assert_eq!(checked, (true, total, searched.2, searched.3));
    }

    /// A step whose candidate's proof needs more heaps makes no pass over
    /// its stream when the search found where the candidate's tail starts:
    /// the last heap the proof needs is the pass's.
    #[test]
    fn a_candidate_the_theorem_cannot_prove_yet_is_not_passed_over() {
        let (prefix, period, total) = (300_000, 200_002, 900_000);
        let mut values: Vec<u32> = (0..prefix as u32).map(|n| 40 + n % 37).collect();
        let block: Vec<u32> = (0..period as u32).map(|n| (n * 7919) % 40).collect();
        values.extend(block.iter().cycle().take(total - prefix));
        let (stream, path) = stream_of("unproven", &values);
        let search = kayles_search();
        let examine = |summary| {
            let found = search.find(&stream, None, summary, check_stage(), &mut |_| true);
            found.unwrap().unwrap()
        };
        let (searched, unproven) = examine(false);
        let (_, examined) = examine(true);
        std::fs::remove_file(path).unwrap();
        let expected = Periodicity {
            preperiod: prefix,
            period,
            saltus: 0,
        };
        let Found::Unproven(found, needed) = unproven else {
            panic!("no pass before the proof can be made");
        };
        let Found::Examined((claim, _, examined_needed)) = examined else {
            panic!("a summary asked for is made");
        };
        assert_eq!(
            (searched, found, claim.periodicity),
            (total, expected, Some(expected))
        );
        assert!(!claim.is_proven());
        // Guy and Smith's theorem for Kayles (takes up to 2, two parts)
        // checks g(n + p) = g(n) for n0 <= n < 2 n0 + p + 2: its last heap is
        // 2 n0 + 2p + 1, past the heaps computed.
        assert_eq!(needed, Some(2 * prefix + 2 * period + 1));
        assert!(needed.is_some_and(|n| n >= total));
        assert_eq!(needed, examined_needed);
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
                counts: None,
                threads: 1,
            };
            let searched = search.run(&stream, None).unwrap();
            assert_eq!(searched.heaps, 64);
            let (claim, summary, needed) = examine(
                &stream,
                searched.candidate,
                None,
                1,
                check_stage(),
                &mut |_| true,
            )
            .unwrap();
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
