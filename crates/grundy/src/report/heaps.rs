//! Reports on heap games: value tables, analyses, comparisons, formulas
//! and counts.

use serde::{Serialize, Serializer};

use super::{Decimal, Generalized, Listed, RecordRun};
use crate::analysis::{
    Analysis, Claim, Comparison, GuessReport, Histogram, HistogramSource, NimSumCounts, PartSizes,
    Partitions, RecordAnalysis, RecordSummary, Tuples,
};
use crate::solve::{LoopyValue, Outcome, SparseStats};
use crate::{Nimber, ValueTable};

/// `g(0..=N)` of a heap game: `{"game", "canonical", "values"}`.
#[derive(Serialize)]
pub struct ValuesReport<'a> {
    /// The game as the user wrote it.
    pub game: String,
    /// Its canonical specification.
    pub canonical: String,
    /// `values[n] = g(n)`.
    #[serde(serialize_with = "table")]
    pub values: &'a ValueTable,
}

/// A value table as a JSON list of numbers, without a copy.
fn table<S: Serializer>(values: &&ValueTable, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(values.iter())
}

impl<'a> ValuesReport<'a> {
    /// The values of `game` (written `written`, canonically `canonical`).
    pub fn new(written: &str, canonical: String, values: &'a ValueTable) -> Self {
        ValuesReport {
            game: written.trim().to_owned(),
            canonical,
            values,
        }
    }
}

/// `g(a, b)` of a game on pairs: `{"game", "values": [[g(0,0), g(0,1), ...],
/// ...]}`, row `a`, column `b`.
#[derive(Serialize)]
pub struct PairValuesReport {
    /// The game's canonical name.
    pub game: String,
    /// `values[a][b] = g(a, b)`.
    pub values: Vec<Vec<Nimber>>,
}

/// Generalized values of the heaps of a game whose play can cycle.
#[derive(Serialize)]
pub struct LoopyHeapsReport {
    /// The game as written.
    pub game: String,
    /// Always true: the values are generalized (Smith) values.
    pub loopy: bool,
    /// Each heap, its value and its outcome.
    pub heaps: Vec<LoopyHeap>,
}

/// One heap of a [`LoopyHeapsReport`].
#[derive(Serialize)]
pub struct LoopyHeap {
    /// The heap size.
    pub heap: u64,
    /// Its generalized value.
    #[serde(flatten)]
    pub value: Generalized,
    /// Who wins it alone.
    pub outcome: Outcome,
}

impl LoopyHeapsReport {
    /// Heaps `0, 1, ...` worth `values`.
    pub fn new(written: &str, values: Vec<LoopyValue>) -> Self {
        LoopyHeapsReport {
            game: written.trim().to_owned(),
            loopy: true,
            heaps: (0..)
                .zip(values)
                .map(|(heap, value)| LoopyHeap {
                    heap,
                    outcome: value.outcome(),
                    value: Generalized(value),
                })
                .collect(),
        }
    }
}

/// How many of the first values, and of the repeating block, a report
/// lists.
pub(crate) const VALUES_LISTED: usize = 100;

/// An analysis: the period, how it is supported, the sparse engine's
/// statistics and the values' summary (`grundy analyze --format json`).
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisReport {
    /// The game as written.
    pub game: String,
    /// Its canonical specification.
    pub canonical: String,
    /// The minimal period, when the values show one.
    pub period: Option<usize>,
    /// Where the period starts.
    pub preperiod: Option<usize>,
    /// `g(n + period) = g(n) + saltus` (0 for a plain period).
    pub saltus: Option<u64>,
    /// Whether the period holds for every heap.
    pub proven: bool,
    /// `"theorem"`, `"closed-form"`, `"observed"` or `"none"`.
    pub support: &'static str,
    /// The theorem that proved the period.
    pub theorem: Option<&'static str>,
    /// The largest heap the proof used.
    pub last_heap_needed: Option<usize>,
    /// For an observed period: the heaps the theorem would need to prove it.
    pub heaps_needed_for_proof: Option<usize>,
    /// The periodicity theorem that applies to the game, proven or not.
    pub applicable_theorem: Option<&'static str>,
    /// The sparse engine's rare/common split, when it ran: values `v` with
    /// popcount(v & mask) even are rare.
    pub rare_values: Option<u32>,
    /// How many heaps are rare.
    pub rare_count: Option<usize>,
    /// The largest rare heap.
    pub last_rare: Option<usize>,
    /// Whether the split is the position-parity one (heap parity counts).
    pub position_parity: Option<bool>,
    /// Heaps whose partial mex was rare.
    pub sparse_scans: Option<u64>,
    /// The pairs their scans read.
    pub sparse_scan_pairs: Option<u64>,
    /// Heaps computed on several threads that an option left out could
    /// change, computed again (see `solve/crew.rs`).
    pub sparse_repaired: Option<u64>,
    /// Heaps computed again because the thread computing them was late.
    pub sparse_taken_over: Option<u64>,
    /// The largest heap computed.
    pub computed_to: usize,
    /// The heaps the summary below covers, `0..=to`: `computed_to`, or
    /// further when a proven period answers for the heaps past the table
    /// (`analyze --to N` past the proof).
    pub to: usize,
    /// The largest value of heaps `0..=to`.
    pub max_value: u32,
    /// The first heap with it.
    pub max_value_at: usize,
    /// `g(to)`.
    pub last_value: u32,
    /// `[[value, count], ...]` over heaps `0..=to`.
    pub histogram: Vec<[u64; 2]>,
    /// How many heaps of `0..=to` have value 0.
    pub p_position_count: usize,
    /// The heaps of value 0.
    pub p_positions: Listed,
    /// Heaps before the pre-period whose values break the period.
    pub exceptions: Listed,
    /// `g(0..100)`.
    pub first_values: Vec<u32>,
    /// The first values of the repeating block, `g(preperiod..)`, at most
    /// 100 of them.
    pub repeats: Vec<u32>,
    /// A windowed run's own fields (its stream, checksum, window, far
    /// scans, Rogalski's histogram); `null` for a full table.
    pub record: Option<RecordRun>,
}

/// The values' side of an analysis report, from a table or a stream.
struct Values {
    computed_to: usize,
    to: usize,
    histogram: Vec<(Nimber, u64)>,
    summary: RecordSummary,
}

impl AnalysisReport {
    /// The report of `found`, a game written `written`.
    pub fn new(written: &str, found: &Analysis) -> Self {
        let (max_value, max_value_at) = found.max_value();
        let histogram = found.histogram();
        let zeros = histogram
            .first()
            .filter(|(v, _)| v.is_zero())
            .map_or(0, |&(_, c)| c);
        let repeats = found.periodicity.map_or_else(Vec::new, |p| {
            found
                .values
                .iter()
                .skip(p.preperiod)
                .take(p.period.min(VALUES_LISTED))
                .map(Nimber::get)
                .collect()
        });
        let summary = RecordSummary {
            first_values: found
                .values
                .iter()
                .take(VALUES_LISTED)
                .map(Nimber::get)
                .collect(),
            repeats,
            max_value: max_value.get(),
            max_value_at,
            last_value: found.last_value().get(),
            p_positions: Listed::counted(zeros, found.p_positions()),
            exceptions: Listed::of(found.exceptions()),
        };
        let values = Values {
            computed_to: found.computed_to(),
            to: found.to,
            histogram,
            summary,
        };
        Self::of(
            written,
            &found.game,
            &found.claim(),
            found.sparse.as_ref(),
            values,
        )
    }

    /// The report of a windowed run, `found`, of a game written `written`,
    /// whose stream was kept at `stream` (or not kept): the fields of a
    /// full-table analysis, and the run's own in `record`.
    pub fn of_record(written: &str, found: &RecordAnalysis, stream: Option<String>) -> Self {
        let values = Values {
            computed_to: found.computed_to(),
            to: found.computed_to(),
            histogram: found.histogram(),
            summary: found.summary.clone(),
        };
        let mut report = Self::of(
            written,
            &found.game,
            &found.claim,
            Some(&found.outcome.stats),
            values,
        );
        report.record = Some(RecordRun::new(found, stream));
        report
    }

    /// The fields every analysis report has.
    fn of(
        written: &str,
        canonical: &str,
        claim: &Claim,
        sparse: Option<&SparseStats>,
        values: Values,
    ) -> Self {
        let period = claim.periodicity;
        let (theorem, last_heap_needed) = claim.proof().unzip();
        let summary = values.summary;
        AnalysisReport {
            game: written.trim().to_owned(),
            canonical: canonical.to_owned(),
            period: period.map(|p| p.period),
            preperiod: period.map(|p| p.preperiod),
            saltus: period.map(|p| p.saltus),
            proven: claim.is_proven(),
            support: claim.support_label(),
            theorem,
            last_heap_needed,
            heaps_needed_for_proof: claim.heaps_needed_for_proof(),
            applicable_theorem: claim.theorem.map(|t| t.name()),
            rare_values: sparse.map(|s| s.mask),
            rare_count: sparse.map(|s| s.rare_count),
            last_rare: sparse.and_then(|s| s.last_rare),
            position_parity: sparse.map(|s| s.position_parity),
            sparse_scans: sparse.map(|s| s.scans),
            sparse_scan_pairs: sparse.map(|s| s.scan_pairs),
            sparse_repaired: sparse.map(|s| s.repaired),
            sparse_taken_over: sparse.map(|s| s.taken_over),
            computed_to: values.computed_to,
            to: values.to,
            max_value: summary.max_value,
            max_value_at: summary.max_value_at,
            last_value: summary.last_value,
            histogram: values
                .histogram
                .into_iter()
                .map(|(v, c)| [u64::from(v), c])
                .collect(),
            p_position_count: summary.p_positions.count,
            p_positions: summary.p_positions,
            exceptions: summary.exceptions,
            first_values: summary.first_values,
            repeats: summary.repeats,
            record: None,
        }
    }

    /// Whether the period was proven by this game's closed-form theorem.
    pub fn by_closed_form(&self) -> bool {
        self.support == "closed-form"
    }
}

/// Two heap games compared (`grundy compare --format json`).
#[derive(Serialize)]
pub struct ComparisonReport {
    /// The games as written.
    pub games: [String; 2],
    /// Both were computed to this heap.
    pub compared_to: usize,
    /// Whether they agree on every heap compared.
    pub equal: bool,
    /// Whether they agree on every heap: both proven periodic and equal
    /// on enough heaps.
    pub proven_equal: bool,
    /// The first heap where they differ.
    pub first_difference: Option<Difference>,
}

/// Where two games first differ.
#[derive(Serialize)]
pub struct Difference {
    /// The heap.
    pub heap: usize,
    /// The two values there.
    pub values: [u32; 2],
}

impl ComparisonReport {
    /// The comparison of the games written `games`.
    pub fn new(games: [&str; 2], comparison: &Comparison) -> Self {
        ComparisonReport {
            games: games.map(|g| g.trim().to_owned()),
            compared_to: comparison.compared_to,
            equal: comparison.first_difference.is_none(),
            proven_equal: comparison.proven_equal,
            first_difference: comparison.first_difference.map(|(heap, x, y)| Difference {
                heap,
                values: [x.get(), y.get()],
            }),
        }
    }
}

/// A formula guessed for a value sequence (`grundy guess --format json`).
#[derive(Serialize)]
pub struct FormulaReport {
    /// The game or file the values came from.
    pub source: String,
    /// The values were `g(0..=computed_to)`.
    pub computed_to: usize,
    /// The formula in words, or null when none fits.
    pub formula: Option<String>,
    /// The formula fits every value from this heap on.
    pub formula_from: Option<usize>,
    /// Heaps below `formula_from` where it does not fit.
    pub exceptions: Vec<usize>,
    /// True only when a proven period implies the formula for every heap.
    pub proven: bool,
    /// A rule for the P-positions in words: proven for every heap when
    /// `p_positions_proven`, else verified on the computed heaps.
    pub p_positions: Option<String>,
    /// Whether the proven period makes the P-position rule a theorem.
    pub p_positions_proven: bool,
    /// The P-positions found (heaps of value 0).
    pub p_position_list: Vec<u64>,
}

impl FormulaReport {
    /// The guesses made from the values of `source`.
    pub fn new(source: &str, report: &GuessReport) -> Self {
        let guess = report.guess.as_ref();
        FormulaReport {
            source: source.trim().to_owned(),
            computed_to: report.computed_to,
            formula: guess.map(|g| g.formula.to_string()),
            formula_from: guess.map(|g| g.from),
            exceptions: guess.map(|g| g.exceptions.clone()).unwrap_or_default(),
            proven: report.proven,
            p_positions: report.p_rule.as_ref().map(ToString::to_string),
            p_positions_proven: report.p_rule_proven,
            p_position_list: report.p_positions.clone(),
        }
    }
}

/// How many heaps of a range have each value (`grundy count GAME --to N`).
#[derive(Serialize)]
pub struct CountReport {
    /// The game as written.
    pub game: String,
    /// The first heap counted.
    pub from: u64,
    /// The last heap counted.
    pub to: u64,
    /// How many heaps were counted.
    pub heaps: Decimal,
    /// The heaps of value 0: a lone such heap is lost by the player to
    /// move.
    pub p_positions: Decimal,
    /// The heaps of other values: won by the player to move.
    pub n_positions: Decimal,
    /// How the counts were obtained, in words.
    pub source: String,
    /// The period the counts went through, when they did.
    pub through_period: Option<PeriodUsed>,
    /// The formula that counted the heaps past the computed ones, when one
    /// did.
    pub by_formula: Option<FormulaUsed>,
    /// `[[value, count], ...]` for the values that occur.
    pub histogram: Vec<(usize, Decimal)>,
}

/// The proven period a count went through.
#[derive(Serialize)]
pub struct PeriodUsed {
    /// Where it starts.
    pub preperiod: usize,
    /// Its length.
    pub period: usize,
}

/// The formula a count went through.
#[derive(Serialize)]
pub struct FormulaUsed {
    /// The formula in words.
    pub formula: String,
    /// Every heap up to this one was computed and fits it.
    pub verified_to: u64,
    /// Whether a proven period implies it for every heap; if not, the
    /// counts past `verified_to` are a conjecture.
    pub proven: bool,
}

impl CountReport {
    /// The counts of `histogram` over heaps `from..=to` of `game`.
    pub fn new(game: &str, from: u64, to: u64, histogram: &Histogram) -> Self {
        let (source, through_period, by_formula) = counted_how(&histogram.source);
        CountReport {
            game: game.trim().to_owned(),
            from,
            to,
            heaps: Decimal::of(histogram.heaps()),
            p_positions: Decimal::of(histogram.counts.first().copied().unwrap_or(0)),
            n_positions: Decimal::of(
                histogram.heaps() - histogram.counts.first().copied().unwrap_or(0),
            ),
            source,
            through_period,
            by_formula,
            histogram: histogram
                .counts
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .map(|(v, &c)| (v, Decimal::of(c)))
                .collect(),
        }
    }
}

/// How a histogram's counts were obtained: in words, and the period or
/// formula they went through (one description for every count report).
fn counted_how(source: &HistogramSource) -> (String, Option<PeriodUsed>, Option<FormulaUsed>) {
    match source {
        HistogramSource::Tabulated => ("computed heap by heap".to_owned(), None, None),
        HistogramSource::Given => ("given".to_owned(), None, None),
        &HistogramSource::Period { preperiod, period } => (
            format!("through the proven period {period} from heap {preperiod}"),
            Some(PeriodUsed { preperiod, period }),
            None,
        ),
        HistogramSource::Formula {
            formula,
            verified_to,
            proven,
        } => (
            format!(
                "computed to heap {verified_to}, then by the formula {formula} ({})",
                if *proven {
                    "PROVEN by the proven period"
                } else {
                    "verified on the computed heaps, a conjecture beyond"
                }
            ),
            None,
            Some(FormulaUsed {
                formula: formula.clone(),
                verified_to: *verified_to,
                proven: *proven,
            }),
        ),
    }
}

/// Positions of several heaps counted by nim-sum (`grundy count --heaps K`
/// or `--range ...`).
#[derive(Serialize)]
pub struct NimSumCountReport {
    /// The positions counted.
    pub positions: CountedPositions,
    /// Counts are modulo this, when given.
    pub modulus: Option<u64>,
    /// Every position counted.
    pub total: Decimal,
    /// Those of nim-sum 0: the player to move loses.
    pub p_positions: Decimal,
    /// The positions the player to move wins (nim-sum not 0); modulo
    /// `modulus` when given.
    pub n_positions: Decimal,
    /// `[[nim-sum, count], ...]` for the nim-sums that occur, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_nim_sum: Option<Vec<(usize, Decimal)>>,
}

/// What a [`NimSumCountReport`] counts: positions of `heaps` heaps, from
/// one range for all of them or one range for each in turn.
#[derive(Serialize)]
pub struct CountedPositions {
    /// Heaps in each position.
    pub heaps: u64,
    /// `ordered`, `ordered-distinct`, `unordered` (`a <= b <= ...`) or
    /// `distinct` (`a < b < ...`).
    pub order: Tuples,
    /// One range every heap comes from, or one range per heap.
    pub ranges: Vec<CountedRange>,
}

/// The heaps one heap of a counted position may be.
#[derive(Serialize)]
pub struct CountedRange {
    /// The game as written, or the histogram file.
    pub game: String,
    /// The first heap, inclusive (none for a given histogram).
    pub from: Option<u64>,
    /// The last heap, inclusive (none for a given histogram).
    pub to: Option<u64>,
    /// How many heaps the range has.
    pub heaps: Decimal,
    /// How its heaps' values were counted, in words.
    pub source: String,
    /// The period the counts went through, when they did.
    pub through_period: Option<PeriodUsed>,
    /// The formula that counted the heaps past the computed ones, when one
    /// did: unless `proven`, the counts rest on a conjecture past
    /// `verified_to`.
    pub by_formula: Option<FormulaUsed>,
}

impl CountedRange {
    /// Heaps `from..=to` of `game` (`None` for a given histogram), with
    /// their histogram.
    pub fn new(game: &str, range: Option<(u64, u64)>, histogram: &Histogram) -> CountedRange {
        let (source, through_period, by_formula) = counted_how(&histogram.source);
        CountedRange {
            game: game.to_owned(),
            from: range.map(|r| r.0),
            to: range.map(|r| r.1),
            heaps: Decimal::of(histogram.heaps()),
            source,
            through_period,
            by_formula,
        }
    }
}

impl NimSumCountReport {
    /// The report of `counts` of the positions described by `positions`;
    /// `all` lists every nim-sum.
    pub fn new(
        positions: CountedPositions,
        counts: &NimSumCounts,
        modulus: Option<u64>,
        all: bool,
    ) -> Self {
        NimSumCountReport {
            positions,
            modulus,
            total: Decimal::of(&counts.total),
            p_positions: Decimal::of(counts.p_positions()),
            n_positions: Decimal::of(counts.n_positions(modulus)),
            by_nim_sum: all.then(|| listed_nim_sums(counts)),
        }
    }
}

/// `[[nim-sum, count], ...]` of the nim-sums that occur.
fn listed_nim_sums(counts: &NimSumCounts) -> Vec<(usize, Decimal)> {
    counts
        .by_nim_sum
        .iter()
        .enumerate()
        .filter(|(_, c)| c.bits() > 0)
        .map(|(s, c)| (s, Decimal::of(c)))
        .collect()
}

/// The partitions of a number into heaps of a game, counted by the nim-sum
/// of their heaps' values (`grundy count GAME --partitions N`).
#[derive(Serialize)]
pub struct PartitionCountReport {
    /// The game as written.
    pub game: String,
    /// The number partitioned: the heaps of every partition add up to it.
    pub partitions_of: u64,
    /// The sizes a part may have, as `--parts` takes them (`1,3,5..9`,
    /// `squares`, `2+3k`); `None` for every size `1..=N`.
    pub parts: Option<String>,
    /// How many of those sizes are at most the number partitioned.
    pub part_sizes: usize,
    /// Whether the parts of a partition are all different.
    pub distinct: bool,
    /// Only partitions into exactly this many parts, when asked.
    pub heaps: Option<u64>,
    /// Counts are modulo this, when given.
    pub modulus: Option<u64>,
    /// Every partition counted.
    pub total: Decimal,
    /// Those of nim-sum 0: the player to move loses.
    pub p_positions: Decimal,
    /// The partitions the player to move wins (nim-sum not 0); modulo
    /// `modulus` when given.
    pub n_positions: Decimal,
    /// `[[nim-sum, count], ...]` for the nim-sums that occur, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_nim_sum: Option<Vec<(usize, Decimal)>>,
}

impl PartitionCountReport {
    /// The report of `counts` of the `partitions` of a game written `game`
    /// into `part_sizes` sizes, in exactly `heaps` parts when given; `all`
    /// lists every nim-sum.
    pub fn new(
        game: &str,
        partitions: &Partitions,
        part_sizes: usize,
        heaps: Option<u64>,
        counts: &NimSumCounts,
        modulus: Option<u64>,
        all: bool,
    ) -> Self {
        PartitionCountReport {
            game: game.trim().to_owned(),
            partitions_of: partitions.of,
            parts: match &partitions.parts {
                PartSizes::Every => None,
                set => Some(set.to_string()),
            },
            part_sizes,
            distinct: partitions.distinct,
            heaps,
            modulus,
            total: Decimal::of(&counts.total),
            p_positions: Decimal::of(counts.p_positions()),
            n_positions: Decimal::of(counts.n_positions(modulus)),
            by_nim_sum: all.then(|| listed_nim_sums(counts)),
        }
    }
}
