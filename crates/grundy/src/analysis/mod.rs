//! Analysis: turning value sequences into answers.
//!
//! [`analyze`] computes a heap game's values adaptively — further and further
//! until a period is proven by a [`Theorem`] or a limit is reached — and
//! reports the period, whether it is proven, and the statistics people read
//! off a table (P-positions, largest value, histogram). [`Certificate`]s make
//! a proof checkable by anyone with the plain solver.

mod census;
mod census_run;
mod certificate;
mod coins;
mod count;
mod expression;
mod fibonacci_nim;
mod formula_text;
mod grid_count;
mod guess;
mod hackenbush;
mod misere;
mod number_theory;
mod partitions;
mod period;
mod quotient;
mod rare;
mod record;
mod theorem;

pub use census::{
    CENSUS_START, CensusLimits, FAMILY_LIMIT, census_game, check_shard, classify, expand_family,
    expand_list, expected_cost, family_order, in_census_order, shard,
};
pub use census_run::{CENSUS_FILE_LIMIT, CensusRun, parse_rows, read_rows};
pub use certificate::{CERTIFICATE_FORMAT, CHECK_HEAPS, Certificate};
pub use coins::{
    COIN_MOVES_LISTED, COIN_PERIOD_FIRST, COIN_PERIOD_MAX, CoinGrid, CoinMove, CoinPeriod, CoinRow,
    CoinWins, GridMove, ValuesBy, analyze_coins, analyze_grid, coin_move_table,
};
pub use count::{
    Arithmetic, ByFormula, EXACT_COPIES_LIMIT, GIVEN_VALUE_LIMIT, Histogram, HistogramSource,
    NimSumCounts, TABULATE_LIMIT, TupleBudget, Tuples, UNORDERED_HEAPS_LIMIT, UNORDERED_WORK_LIMIT,
    count_copies, count_ordered, count_tuples, formula_histogram, pair_histogram, periodic_counts,
    range_histogram, value_histogram,
};
pub use expression::{Expression, FORMULA_FUNCTIONS, FormulaFunction};
pub use fibonacci_nim::{TakeOutcome, zeckendorf};
pub use grid_count::{EXACT_GRID_CELLS, GridCounts, TableBudget, count_grid};
pub(crate) use guess::gcd;
pub use guess::{Formula, Guess, GuessReport, SetRule, guess_formula, guess_report, guess_set};
pub use hackenbush::{HackenbushSum, analyze_hackenbush, hackenbush_move_counts};
pub use misere::{DEFAULT_MISERE_BUDGET, Genus, Misere, MisereMove, misere_nim_loses};
pub use number_theory::{PRIME_COUNT_LAST, SIEVE_LAST, SIEVE_WORK};
pub use partitions::{PartSizes, Partitions};
use period::find_period_given;
pub use period::{Periodicity, find_period, period_candidate};
pub use quotient::{MisereQuotient, Relation};
pub use rare::{RareSplit, rare_split, rare_under};
pub use record::{PERIOD_WINDOW, PeriodWindow, RecordAnalysis, RecordSummary, analyze_record};
pub use theorem::Theorem;

use crate::solve::SparseStats;
use std::fmt;

use crate::{Error, HeapRuleset, Nimber, Result, TableSolver, TakeBreak, ValueTable};

/// How far [`analyze`] computes.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Compute exactly heaps `0..=to` instead of adaptively.
    pub to: Option<u64>,
    /// The largest heap an adaptive run computes.
    pub max: u64,
    /// Where an adaptive run starts before doubling.
    pub start: u64,
    /// With `to`: compute every heap of `0..=to` even when a proof on the
    /// way answers the rest (a comparison with a windowed run's stream,
    /// which holds every value). Without it an exact range is approached
    /// adaptively and answered through a proven period past the proof.
    pub tabulate: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            to: None,
            max: DEFAULT_MAX,
            start: 64,
            tabulate: false,
        }
    }
}

impl Limits {
    /// The limits of a count of heaps (`grundy count --max`, Python's
    /// `max`): `max` is the analysis bound (by default the game's
    /// `default_max`), and with a formula (`by_formula`) also the last heap
    /// computed to verify it (by default the tabulation bound).
    pub fn for_count(max: Option<u64>, default_max: u64, by_formula: &ByFormula) -> Limits {
        Limits {
            max: max.unwrap_or(default_max),
            to: max.filter(|_| *by_formula != ByFormula::No),
            ..Limits::default()
        }
    }
}

/// The default largest heap of an adaptive analysis (2^17).
pub const DEFAULT_MAX: u64 = 1 << 17;

/// Ranges of heaps longer than this are worth a period search before a
/// table: a game with a periodicity theorem whose period is proven early
/// answers every heap through it.
pub const PERIOD_FIRST: u64 = 1 << 12;

/// An adaptive analysis of `game` toward a proof of its period, over at
/// most `min(last, max)` heaps, for answering heaps up to `last`: `None`
/// when no periodicity theorem applies (no proof can come of it). Callers
/// take its proven periodicity, or its values to go on from.
pub fn analyze_toward_proof<G: HeapRuleset + fmt::Display + ?Sized>(
    game: &G,
    last: u64,
    max: u64,
    solver: &TableSolver,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<Option<Analysis>> {
    if Theorem::for_rules(game).is_none() {
        return Ok(None);
    }
    let limits = Limits {
        max: max.min(last),
        ..Limits::default()
    };
    analyze(game, &limits, solver, progress).map(Some)
}

/// How a periodicity claim is supported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// A theorem's window was checked on computed values: true for all `n`.
    Proven {
        /// The theorem applied.
        theorem: Theorem,
        /// The largest heap whose value the proof used.
        last_heap_needed: usize,
    },
    /// The values follow a closed form that is itself a theorem (Nim,
    /// Lasker's Nim), checked on every computed value.
    ClosedForm,
    /// Seen on the computed values only.
    Observed,
}

/// What [`analyze`] found.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The canonical specification of the game.
    pub game: String,
    /// `g(0..=computed_to)`.
    pub values: ValueTable,
    /// The periodic behaviour found, if any.
    pub periodicity: Option<Periodicity>,
    /// How the periodicity is supported (meaningless without one).
    pub support: Support,
    /// The sparse-space solver's statistics, when it computed the values.
    pub sparse: Option<SparseStats>,
    /// The periodicity theorem that applies to the game, if any.
    pub theorem: Option<Theorem>,
    /// The heaps the answer covers, `0..=to`: [`Analysis::computed_to`],
    /// or further when a proven periodicity answers for the heaps past the
    /// table (an exact range asked for, [`Limits::to`], past the proof).
    pub to: usize,
}

/// Analyses a heap game: values, period, proof.
///
/// ```
/// use grundy::analysis::{analyze, Limits, Support};
/// let kayles: grundy::HeapGame = "kayles".parse().unwrap();
/// let found = analyze(&kayles, &Limits::default(), &grundy::TableSolver::new(), &mut |_| true)?;
/// let period = found.periodicity.unwrap();
/// assert_eq!((period.preperiod, period.period), (71, 12));
/// assert!(found.is_proven());
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn analyze<G: HeapRuleset + fmt::Display + ?Sized>(
    game: &G,
    limits: &Limits,
    solver: &TableSolver,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<Analysis> {
    analyze_from(game, ValueTable::new(), limits, solver, progress)
}

/// [`analyze`], starting from values already computed (heaps
/// `0..values.len()`, as from a [`Checkpoint`](crate::solve::Checkpoint)).
pub fn analyze_from<G: HeapRuleset + fmt::Display + ?Sized>(
    game: &G,
    values: ValueTable,
    limits: &Limits,
    solver: &TableSolver,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<Analysis> {
    // A closed form tells the largest value before anything is computed.
    let last = limits.to.unwrap_or(limits.max);
    if let Some(largest) = usize::try_from(last).ok().and_then(|n| game.closed_form(n)) {
        check_histogram_fits(solver, last, largest)?;
    }
    let found = analyze_within(game, values, limits, solver, progress)?;
    let largest = found.max_value().0;
    check_histogram_fits(solver, found.to as u64, largest.into())?;
    Ok(found)
}

/// Bytes per distinct value that [`Analysis::histogram`] and the reports
/// built from it take: the counts of even and odd heaps (16), the
/// `(value, count)` list (16) and a rendering of each entry (up to 56 as
/// text).
pub const HISTOGRAM_BYTES_PER_VALUE: u128 = 88;

/// Checks that the histogram of a table whose values are at most `largest`
/// fits the solver's memory limit.
fn check_histogram_fits(solver: &TableSolver, to: u64, largest: u64) -> Result<()> {
    let values = u128::from(largest) + 1;
    let needed = values * HISTOGRAM_BYTES_PER_VALUE;
    if needed > u128::from(solver.memory_limit()) {
        return Err(crate::Error::HistogramTooLarge {
            to,
            values,
            needed: crate::error::human_bytes_near(needed, u128::from(solver.memory_limit())),
            limit: crate::error::human_bytes_near(u128::from(solver.memory_limit()), needed),
        });
    }
    Ok(())
}

/// [`analyze_from`] without the histogram's memory check.
fn analyze_within<G: HeapRuleset + fmt::Display + ?Sized>(
    game: &G,
    mut values: ValueTable,
    limits: &Limits,
    solver: &TableSolver,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<Analysis> {
    let theorem = Theorem::for_rules(game);
    let mut sparse: Option<SparseStats> = None;
    if let Some(to) = limits.to {
        values.truncate(usize::try_from(to).unwrap_or(usize::MAX).saturating_add(1));
    }
    let resumed = values.len().saturating_sub(1) as u64;
    // An exact range (`to`) of a game with a theorem is approached
    // adaptively as far as [`DEFAULT_MAX`]: once the period is proven, the
    // heaps past the table are answered through it, at no cost that grows
    // with `to`. Past that bound, the rest of the range is computed at once.
    let adaptive_max = match limits.to {
        Some(to) if theorem.is_some() && !limits.tabulate => to.min(limits.max.max(DEFAULT_MAX)),
        Some(to) => to,
        None => limits.max,
    };
    // A proven periodicity answers the whole range asked for.
    let answered_to = |values: &ValueTable| {
        limits.to.map_or(values.len() - 1, |to| {
            usize::try_from(to).unwrap_or(usize::MAX)
        })
    };
    let mut target = match limits.to {
        Some(to) if limits.tabulate => to,
        _ => limits
            .start
            .min(adaptive_max)
            .max(resumed.min(adaptive_max)),
    };
    loop {
        // Each step's statistics count its own heaps' scans; the report
        // counts every heap's.
        sparse = match (solver.extend(game, &mut values, target, progress)?, sparse) {
            (Some(mut step), Some(before)) => {
                step.scans += before.scans;
                step.scan_pairs += before.scan_pairs;
                Some(step)
            }
            (step, before) => step.or(before),
        };
        // The plain period of the tail, found once for the proof and the
        // report (on 2^22 heaps, a pass of 10 ms and 16 MiB). A candidate
        // period needs no more evidence than the theorem asks: either its
        // window checks and it is proven, or the values up to its bound
        // will refute it.
        let plain = period_candidate(&values);
        let candidate = theorem.zip(plain);
        let mut needed = None;
        if let Some((theorem, found)) = candidate {
            match prove(theorem, &found, values.len(), |from, to| {
                found.holds_on(&values, from, to)
            }) {
                Ok(support) => {
                    return Ok(Analysis {
                        game: game.to_string(),
                        to: answered_to(&values),
                        values,
                        periodicity: Some(found),
                        support,
                        sparse,
                        theorem: Some(theorem),
                    });
                }
                Err(last) => needed = last.map(|last| last as u64),
            }
        }
        if target >= adaptive_max {
            // A closed-form theorem gives the periodicity outright (and
            // answers the whole range); a short prefix could suggest
            // another.
            let known = game
                .as_take_break()
                .and_then(TakeBreak::closed_form_periodicity)
                .filter(|_| follows_closed_form(game, &values));
            if known.is_none()
                && let Some(to) = limits.to.filter(|&to| target < to)
            {
                // No proof within the adaptive bound: the rest of the range.
                target = to;
                continue;
            }
            let (periodicity, support, to) = match known {
                Some((preperiod, period, saltus)) => (
                    Some(Periodicity {
                        preperiod,
                        period,
                        saltus,
                    }),
                    Support::ClosedForm,
                    answered_to(&values),
                ),
                None => (
                    find_period_given(&values, plain),
                    Support::Observed,
                    values.len() - 1,
                ),
            };
            return Ok(Analysis {
                game: game.to_string(),
                to,
                values,
                periodicity,
                support,
                sparse,
                theorem,
            });
        }
        target = next_target(target, needed, adaptive_max);
    }
}

/// The next heap an adaptive analysis computes to, after `target`, when
/// the candidate period's proof needs heaps up to `needed`: that heap
/// (growing by at least a sixteenth, so refuted candidates cannot make us
/// creep), or half as far again: a period shows as a candidate once its
/// tail spans two periods, and smaller steps overshoot the proof's bound
/// less. At most `max`.
fn next_target(target: u64, needed: Option<u64>, max: u64) -> u64 {
    match needed {
        Some(last) if last > target => last.max(target + target / 16),
        _ => target.saturating_add(target / 2).max(target + 1),
    }
    .min(max)
}

/// What `theorem` makes of the plain periodicity `found` in a sequence of
/// `heaps` computed values, where `holds_on(from, to)` checks
/// `g(n + p) = g(n)` for `from <= n < to`: `Ok` with the proof when the
/// heaps its window needs (up to [`Theorem::last_heap_needed`]) are
/// computed and the window checks; else `Err` with that last heap (`None`
/// when its bound overflows). The one place a periodicity becomes proven,
/// for full tables and windowed runs alike.
pub(crate) fn prove(
    theorem: Theorem,
    found: &Periodicity,
    heaps: usize,
    holds_on: impl FnOnce(usize, usize) -> bool,
) -> std::result::Result<Support, Option<usize>> {
    let last = theorem.last_heap_needed(found.preperiod, found.period);
    match last {
        Some(last)
            if found.saltus == 0
                && last < heaps
                && holds_on(found.preperiod, last + 1 - found.period) =>
        {
            Ok(Support::Proven {
                theorem,
                last_heap_needed: last,
            })
        }
        _ => Err(last),
    }
}

/// Whether every computed value equals the game's closed form, which is
/// itself a theorem (Nim, Lasker's Nim).
fn follows_closed_form<G: HeapRuleset + ?Sized>(game: &G, values: &ValueTable) -> bool {
    values
        .iter()
        .enumerate()
        .all(|(n, v)| game.closed_form(n) == Some(u64::from(v)))
}

/// A periodicity claim: what was found, how it is supported, and the
/// theorem that applies to the game; the same for full-table analyses
/// ([`Analysis::claim`]) and windowed runs ([`RecordAnalysis::claim`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The periodic behaviour found, if any.
    pub periodicity: Option<Periodicity>,
    /// How it is supported (meaningless without one).
    pub support: Support,
    /// The periodicity theorem that applies to the game, if any.
    pub theorem: Option<Theorem>,
}

impl Claim {
    /// For an observed (not proven) plain period, the largest heap whose
    /// value the applicable theorem would need to prove it.
    pub fn heaps_needed_for_proof(&self) -> Option<usize> {
        let found = self.periodicity.filter(|p| p.saltus == 0)?;
        if self.is_proven() {
            return None;
        }
        self.theorem?
            .last_heap_needed(found.preperiod, found.period)
    }

    /// How the periodicity is supported, in the one spelling every front end
    /// uses (CLI JSON, Python, the web): `"theorem"` (a periodicity theorem
    /// proves it), `"closed-form"` (the values follow a formula that is
    /// itself a theorem), `"observed"` (seen on the computed values only),
    /// or `"none"` (no periodicity found).
    pub fn support_label(&self) -> &'static str {
        match (self.periodicity, self.support) {
            (None, _) => "none",
            (Some(_), Support::Proven { .. }) => "theorem",
            (Some(_), Support::ClosedForm) => "closed-form",
            (Some(_), Support::Observed) => "observed",
        }
    }

    /// Whether the periodicity holds for every heap, not just those computed.
    pub fn is_proven(&self) -> bool {
        self.periodicity.is_some() && self.support != Support::Observed
    }

    /// The theorem that proves the period and the last heap its proof
    /// needed, when a theorem proves it.
    pub fn proof(&self) -> Option<(&'static str, usize)> {
        self.proven_by()
            .map(|(theorem, _, last_heap_needed)| (theorem.name(), last_heap_needed))
    }

    /// The theorem, the periodicity it proves and the last heap its proof
    /// needed, when a theorem proves it.
    pub fn proven_by(&self) -> Option<(Theorem, Periodicity, usize)> {
        match (self.periodicity, self.support) {
            (
                Some(found),
                Support::Proven {
                    theorem,
                    last_heap_needed,
                },
            ) => Some((theorem, found, last_heap_needed)),
            _ => None,
        }
    }
}

impl Analysis {
    /// The periodicity claim of this analysis.
    pub fn claim(&self) -> Claim {
        Claim {
            periodicity: self.periodicity,
            support: self.support,
            theorem: self.theorem,
        }
    }

    /// See [`Claim::heaps_needed_for_proof`].
    pub fn heaps_needed_for_proof(&self) -> Option<usize> {
        self.claim().heaps_needed_for_proof()
    }

    /// The largest heap computed.
    pub fn computed_to(&self) -> usize {
        self.values.len() - 1
    }

    /// See [`Claim::support_label`].
    pub fn support_label(&self) -> &'static str {
        self.claim().support_label()
    }

    /// See [`Claim::is_proven`].
    pub fn is_proven(&self) -> bool {
        self.claim().is_proven()
    }

    /// See [`Claim::proof`].
    pub fn proof(&self) -> Option<(&'static str, usize)> {
        self.claim().proof()
    }

    /// The periodicity, when it holds for every heap.
    pub fn proven_periodicity(&self) -> Option<Periodicity> {
        self.periodicity.filter(|_| self.is_proven())
    }

    /// `g(n)`: from the table, or past it through the proven periodicity
    /// (`None` past the table without one, or for a value past
    /// [`Nimber`]'s width).
    pub fn value(&self, n: usize) -> Option<Nimber> {
        match self.values.get(n) {
            Some(v) => Some(v),
            None => through_period(&self.values, self.proven_periodicity()?, n),
        }
    }

    /// The largest value of heaps `0..=to` and the first heap that has it.
    /// Past the table only a saltus makes values grow, and then the largest
    /// lies in the last period (`g(n + p) > g(n)` from the pre-period on).
    pub fn max_value(&self) -> (Nimber, usize) {
        let table_end = self.computed_to().min(self.to);
        let mut best = self
            .values
            .largest_first(table_end + 1)
            .unwrap_or((Nimber::ZERO, 0));
        if let Some(p) = self.proven_periodicity().filter(|p| p.saltus > 0) {
            let first = (table_end + 1).max(self.to.saturating_sub(p.period - 1));
            for n in first..=self.to {
                match self.value(n) {
                    Some(v) if v > best.0 => best = (v, n),
                    _ => {}
                }
            }
        }
        best
    }

    /// `(value, how many heaps in 0..=to have it)`, by value: counted
    /// through the proven periodicity past the table.
    pub fn histogram(&self) -> Vec<(Nimber, u64)> {
        let counts: Vec<u128> = match self.proven_periodicity() {
            Some(period) if self.to > self.computed_to() => {
                periodic_counts(&self.values, &period, 0, self.to as u64)
            }
            _ => {
                let [mut counts, odd] = self.values.counts_by_parity();
                for (count, more) in counts.iter_mut().zip(odd) {
                    *count += more;
                }
                counts.into_iter().map(u128::from).collect()
            }
        };
        counts
            .into_iter()
            .enumerate()
            .filter(|&(_, c)| c > 0)
            .map(|(v, c)| (Nimber::new(v as u32), c as u64))
            .collect()
    }

    /// The heaps of `0..=to` with value 0 (P-positions: the player to move
    /// loses), in order; past the table, the heaps of the repeating
    /// block's zeros (with a saltus there are none: values grow).
    pub fn p_positions(&self) -> impl Iterator<Item = usize> + '_ {
        let table_end = self.computed_to().min(self.to);
        let in_table = self
            .values
            .iter()
            .take(table_end + 1)
            .enumerate()
            .filter(|(_, v)| v.is_zero())
            .map(|(n, _)| n);
        let to = self.to;
        let beyond = self
            .proven_periodicity()
            .filter(|p| p.saltus == 0 && to > table_end)
            .map(move |p| {
                let zeros: Vec<usize> = (0..p.period)
                    .filter(|&r| self.values.at(p.preperiod + r).is_zero())
                    .collect();
                // The periods from the one holding the first heap past the
                // table, each contributing its zeros in order.
                let first_block = (table_end + 1 - p.preperiod) / p.period;
                (0usize..)
                    .map_while(move |i| {
                        let block = first_block.checked_add(i.checked_div(zeros.len())?)?;
                        let start = p.preperiod.checked_add(block.checked_mul(p.period)?)?;
                        let n = start.checked_add(zeros[i % zeros.len()])?;
                        (n <= to).then_some(n)
                    })
                    .filter(move |&n| n > table_end)
            });
        in_table.chain(beyond.into_iter().flatten())
    }

    /// How many heaps of `0..=to` have value 0 ([`Analysis::p_positions`]
    /// counted without listing them).
    pub fn p_position_count(&self) -> u64 {
        self.histogram()
            .first()
            .filter(|(v, _)| v.is_zero())
            .map_or(0, |&(_, c)| c)
    }

    /// The values of every heap of `0..=to`: the table, extended through
    /// the proven periodicity (a copy per heap; refused past the memory
    /// a table of that length may take).
    pub fn values_to_end(&self) -> Result<ValueTable> {
        match self.proven_periodicity() {
            Some(period) if self.to > self.computed_to() => {
                extend_by_period(self.values.clone(), &period, self.to as u64)
            }
            _ => Ok(self.values.clone()),
        }
    }

    /// `g(to)`, the last value the analysis answers for.
    pub fn last_value(&self) -> Nimber {
        self.value(self.to).unwrap_or(Nimber::ZERO)
    }

    /// Heaps before the pre-period whose values differ from what the
    /// periodicity, extended backwards, would give, in order: for a saltus
    /// `s`, heap `n` is `k` periods before a heap of the first period and
    /// would be worth `s·k` less.
    ///
    /// Heap `n`'s image in the first period, `preperiod + (n - preperiod)
    /// mod period`, and the periods between them are stepped with `n` (the
    /// image wraps at the period's end, a period fewer between them)
    /// instead of divided out at each heap.
    pub fn exceptions(&self) -> impl Iterator<Item = usize> + '_ {
        let (preperiod, period, saltus) = self
            .periodicity
            .map_or((0, 1, 0), |p| (p.preperiod, p.period, p.saltus));
        let image = preperiod + (period - preperiod % period) % period;
        (0..preperiod)
            .scan((image, image / period), move |(image, periods), n| {
                let here = (*image, *periods as u64);
                *image += 1;
                if *image == preperiod + period {
                    *image = preperiod;
                    *periods = periods.saturating_sub(1);
                }
                Some((n, here))
            })
            .filter(move |&(n, (image, periods))| {
                let predicted = u64::from(self.values.at(image)).checked_sub(saltus * periods);
                predicted != Some(u64::from(self.values.at(n)))
            })
            .map(|(n, _)| n)
    }
}

/// `values` extended to heaps `0..=to` by a periodicity that holds for
/// every heap (a copy per heap, no computation).
fn extend_by_period(mut values: ValueTable, period: &Periodicity, to: u64) -> Result<ValueTable> {
    let end = to as usize + 1; // the caller checked that `to` fits
    if values.len() >= end {
        values.truncate(end);
        return Ok(values);
    }
    values
        .try_reserve_exact(end - values.len())
        .map_err(|_| Error::OutOfMemory {
            to,
            needed: crate::error::human_bytes(end as u128),
        })?;
    for n in values.len()..end {
        // `n - p >= preperiod` here, so the value is already in the table.
        let earlier = u64::from(values.at(n - period.period));
        values.push(Nimber::try_from(earlier + period.saltus)?);
    }
    Ok(values)
}

/// `g(n)` for a heap `n` past `values` through `period`, which must hold
/// for every heap (`None` for a value past [`Nimber`]'s width).
pub(crate) fn through_period(values: &ValueTable, period: Periodicity, n: usize) -> Option<Nimber> {
    Nimber::try_from(period.predict(values, n)?).ok()
}

/// The outcome of comparing two heap games value by value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Heaps `0..=compared_to` were compared.
    pub compared_to: usize,
    /// The first heap where the values differ, with both values.
    pub first_difference: Option<(usize, Nimber, Nimber)>,
    /// Equal for every heap: both games are proven periodic and agree on
    /// `0..max(n0) + lcm(p)`, after which both repeat the same block.
    pub proven_equal: bool,
}

/// Equality can only be proven through two proven periods: without a
/// theorem for both games, [`compare`] compares exactly the heaps asked for.
fn provable<G: HeapRuleset + ?Sized>(a: &G, b: &G) -> bool {
    Theorem::for_rules(a).is_some() && Theorem::for_rules(b).is_some()
}

/// The largest heap [`compare`] may tabulate for either game (for a
/// progress bar): `to`, or `limits.max` when both games have a period
/// theorem and an analysis may go on to prove them equal.
pub fn compare_reach<G: HeapRuleset + ?Sized>(a: &G, b: &G, to: u64, limits: &Limits) -> u64 {
    if provable(a, b) {
        limits.max.max(to)
    } else {
        to
    }
}

/// How many heaps, `0..reach`, two sequences with proven plain periods
/// (pre-periods `n0`, `n0'`, periods `p`, `p'`) must agree on to agree on
/// every heap: `reach = max(n0, n0') + lcm(p, p')`. Past `max(n0, n0')` both
/// repeat with period `lcm(p, p')`, so a heap `n >= reach` has the value of
/// `n - lcm` in both, and by induction every heap agrees. `None` when a
/// saltus is non-zero (growing sequences are not compared this way) or the
/// bound overflows.
pub fn equality_reach(x: &Periodicity, y: &Periodicity) -> Option<u64> {
    if x.saltus != 0 || y.saltus != 0 {
        return None;
    }
    let lcm =
        (x.period as u64 / gcd(x.period as u64, y.period as u64)).checked_mul(y.period as u64)?;
    (x.preperiod.max(y.preperiod) as u64).checked_add(lcm)
}

/// Compares two heap games on heaps `0..=to`, and tries to prove them equal
/// for all heaps: when both are proven periodic (pre-periods `n0`, `n0'`,
/// periods `p`, `p'`), equality on `0..max(n0, n0') + lcm(p, p')` implies
/// equality everywhere, since past `max(n0, n0')` both sequences repeat with
/// period `lcm(p, p')`.
///
/// The two games are analysed on two threads: `progress(i, n)` says that
/// game `i` (0 for `a`, 1 for `b`) has reached heap `n`, and the tables stop
/// with [`Error::Interrupted`] soon after it returns `false`. The calling
/// thread's [`Cancel`](crate::Cancel) token reaches both threads.
///
/// [`Error::Interrupted`]: crate::Error::Interrupted
pub fn compare<G: HeapRuleset + fmt::Display + Sync + ?Sized>(
    a: &G,
    b: &G,
    to: u64,
    limits: &Limits,
    solver: &TableSolver,
    progress: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Result<Comparison> {
    let effort = Limits {
        to: (!provable(a, b)).then_some(to),
        ..limits.clone()
    };
    // The two games are independent: analyse them on two threads, each
    // with one.
    let solver = &solver.clone().with_threads(1);
    let token = crate::Cancel::current();
    let (first, second) = std::thread::scope(|scope| {
        let first = scope.spawn(|| {
            crate::cancel::run_under(token.as_ref(), || {
                analyze(a, &effort, solver, &mut |n| progress(0, n))
            })
        });
        let second = analyze(b, &effort, solver, &mut |n| progress(1, n));
        let first = first
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (first, second)
    });
    let (first, second) = (first?, second?);
    let mut enough = to;
    let mut proof_reach = None;
    if let (Some(x), Some(y)) = (first.periodicity, second.periodicity)
        && first.is_proven()
        && second.is_proven()
        && let Some(reach) = equality_reach(&x, &y)
        && reach <= limits.max.max(to)
    {
        enough = enough.max(reach);
        proof_reach = Some(reach);
    }
    let (mut xs, mut ys) = (first.values, second.values);
    solver.extend(a, &mut xs, enough, &mut |n| progress(0, n))?;
    solver.extend(b, &mut ys, enough, &mut |n| progress(1, n))?;
    let compared = enough as usize;
    let first_difference = (0..=compared)
        .find(|&n| xs.at(n) != ys.at(n))
        .map(|n| (n, xs.at(n), ys.at(n)));
    Ok(Comparison {
        compared_to: compared,
        proven_equal: first_difference.is_none() && proof_reach.is_some(),
        first_difference,
    })
}

#[cfg(test)]
mod tests {
    use super::{Analysis, Periodicity, Support};
    use crate::{Nimber, ValueTable};
    use proptest::prelude::*;

    proptest! {
        /// The exceptions are the heaps before the pre-period whose values
        /// the periodicity, extended backwards, does not give: heap `n` is
        /// `k` periods before the heap of its phase in the first period,
        /// and would be worth `s·k` less.
        #[test]
        fn exceptions_are_the_heaps_the_period_does_not_predict(
            values in proptest::collection::vec(0u32..12, 1..200),
            preperiod in 0usize..120,
            period in 1usize..40,
            saltus in 0u64..3,
        ) {
            prop_assume!(preperiod + period <= values.len());
            let analysis = Analysis {
                game: "test".into(),
                to: values.len() - 1,
                values: values.iter().map(|&v| Nimber::new(v)).collect::<ValueTable>(),
                periodicity: Some(Periodicity { preperiod, period, saltus }),
                support: Support::Observed,
                sparse: None,
                theorem: None,
            };
            let expected: Vec<usize> = (0..preperiod)
                .filter(|&n| {
                    let k = (preperiod - n).div_ceil(period);
                    let image = n + k * period;
                    u64::from(values[image]).checked_sub(saltus * k as u64)
                        != Some(u64::from(values[n]))
                })
                .collect();
            prop_assert_eq!(analysis.exceptions().collect::<Vec<_>>(), expected);
        }
    }
}
