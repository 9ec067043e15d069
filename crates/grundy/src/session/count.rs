//! Counts as a front end asks for them: `grundy count`, the web's
//! `/api/count` and Python read their arguments into a [`Counted`] game and
//! a [`CountQuery`], and [`count`] picks the method and builds the report.
//!
//! - heaps of a heap game (built in or scripted) or of a pair game, one
//!   heap: a value histogram ([`CountReport`]), through a proven period,
//!   by tabulation, or by the values' formula past the table when asked;
//! - positions of `k` such heaps, ordered, unordered or distinct, or of a
//!   given histogram's heaps: counts by nim-sum ([`NimSumCountReport`]);
//! - a row or grid of coins: the positions by nim-sum through the span of
//!   the coins' values ([`GridCountReport`]);
//! - the partitions of a number into heaps of a heap game, by the nim-sum
//!   of their values ([`PartitionCountReport`]), the heaps' values from
//!   the game's table (through a proven period for long ones).
//!
//! Every refusal of a combination that does not apply (a number of heaps
//! for coins, a grid's `X,Y` for heaps) is made here, once.

use serde::Serialize;

use super::{HeapRules, HeapValues};
use crate::analysis::{
    Arithmetic, ByFormula, DEFAULT_MAX, Histogram, Limits, NimSumCounts, Partitions, TableBudget,
    TupleBudget, Tuples, count_grid, count_ordered, count_tuples, pair_histogram, range_histogram,
};
use crate::report::{
    CountReport, CountedPositions, CountedRange, GridCountReport, NimSumCountReport,
    PartitionCountReport,
};
use crate::rules::{CoinRule, PairGame, ScriptLimits, parse_size};
use crate::spec::{GameSpec, Question};
use crate::{Error, Knob, Result, TableSolver};

/// What a count counts.
#[derive(Debug)]
pub enum Counted {
    /// Heaps of a heap game, built in or scripted.
    Heaps(HeapRules),
    /// Positions `(a, b)` of a pair game, both coordinates in the range.
    Pairs(PairGame),
    /// A row of coins of the first rule, or the grid of the product of the
    /// two (Tartan theorem).
    Coins(CoinRule, Option<CoinRule>),
    /// Heaps whose values the user gives ([`Histogram::parse`]).
    Given(Histogram),
}

impl Counted {
    /// The game `spec` names, for counting; a script file is read and
    /// compiled with `limits`. Kinds without a count are refused with
    /// [`Error::Unsupported`].
    pub fn from_spec(spec: &GameSpec, limits: &ScriptLimits) -> Result<Counted> {
        match spec {
            GameSpec::Pair(game) => Ok(Counted::Pairs(game.clone())),
            GameSpec::Coins(rule) => Ok(Counted::Coins(rule.clone(), None)),
            GameSpec::CoinGrid(columns, rows) => {
                Ok(Counted::Coins(columns.clone(), Some(rows.clone())))
            }
            other => HeapRules::from_spec(other, Question::Count, limits).map(Counted::Heaps),
        }
    }

    /// The value histogram of heaps `from..=to`: through a proven period,
    /// by tabulation up to `max` heaps (default: the game's analysis
    /// bound), and by a formula as `by_formula` asks ([`range_histogram`];
    /// `max` is then the last heap computed to verify the formula). For a
    /// pair game the positions with both coordinates in the range; a given
    /// histogram is itself.
    pub fn histogram(
        &self,
        from: u64,
        to: u64,
        max: Option<u64>,
        by_formula: &ByFormula,
        solver: &TableSolver,
    ) -> Result<Histogram> {
        match self {
            Counted::Given(_) | Counted::Pairs(_) if *by_formula != ByFormula::No => {
                Err(Error::InvalidRange {
                    reason: "only heaps of a heap game are counted by a formula (a given \
                             histogram is counted as it is, a pair game's positions by table)"
                        .into(),
                })
            }
            Counted::Pairs(game) => {
                let limits = Limits {
                    max: max.unwrap_or(DEFAULT_MAX),
                    ..Limits::default()
                };
                pair_histogram(game, from, to, solver, &limits)
            }
            Counted::Heaps(game) => heap_histogram(game, from, to, max, by_formula, solver),
            Counted::Given(histogram) => Ok(histogram.clone()),
            Counted::Coins(..) => Err(Error::Refused {
                reason: "coins are not heaps of a range: count a row of coins (up to its last \
                         coin) or a grid (up to its last column and row) alone"
                    .into(),
                knob: Knob::To,
            }),
        }
    }
}

/// The value histogram of heaps `from..=to` of a heap game of any kind
/// (built in, a script, a front end's rules): through a proven period, by
/// tabulation up to `max` heaps (default: the game's analysis bound), and
/// by a formula as `by_formula` asks ([`range_histogram`]).
pub fn heap_histogram(
    game: &HeapRules,
    from: u64,
    to: u64,
    max: Option<u64>,
    by_formula: &ByFormula,
    solver: &TableSolver,
) -> Result<Histogram> {
    let limits = Limits::for_count(max, game.default_max(), by_formula);
    game.start();
    game.checked(range_histogram(game, from, to, solver, &limits, by_formula))
}

/// Where a count's range ends: the last heap or coin (`--to N`), or the
/// last column and row of a grid of coins (`--to X,Y`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountEnd {
    /// Heaps (or coins) up to this one, inclusive.
    Last(u64),
    /// Columns `1..=X` and rows `1..=Y` of a grid.
    Grid(u64, u64),
}

impl CountEnd {
    /// `N` or `X,Y`, each a size (`1e12`, `2^40`).
    pub fn parse(text: &str) -> Result<CountEnd> {
        Ok(match text.split_once(',') {
            Some((x, y)) => CountEnd::Grid(parse_size(x)?, parse_size(y)?),
            None => CountEnd::Last(parse_size(text)?),
        })
    }
}

/// A count's options besides the game (`grundy count`'s flags, the web's
/// query fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountQuery {
    /// The first heap counted, inclusive (coins start at 1).
    pub from: u64,
    /// The last heap or coin; `None` only for a given histogram.
    pub to: Option<CountEnd>,
    /// Positions of this many heaps by nim-sum; without it, heaps by value
    /// (a given histogram: positions of one heap).
    pub heaps: Option<u64>,
    /// Which positions of `heaps` heaps count.
    pub order: Tuples,
    /// Count modulo this instead of exactly.
    pub modulus: Option<u64>,
    /// For coins: also the positions of this nim-sum.
    pub nim_sum: Option<u64>,
    /// List the count of every nim-sum of heaps.
    pub all: bool,
    /// Count heaps past the table by the values' formula, guessed or
    /// given.
    pub by_formula: ByFormula,
    /// The most heaps tabulated or analysed (default: the game's bound).
    pub max: Option<u64>,
    /// Bounds of unordered and distinct counts (and the operations of a
    /// count of partitions).
    pub budget: TupleBudget,
    /// Count the partitions of a number into heaps of the game instead of
    /// a range's heaps (into exactly `heaps` parts when given).
    pub partitions: Option<Partitions>,
}

impl Default for CountQuery {
    fn default() -> CountQuery {
        CountQuery {
            from: 1,
            to: None,
            heaps: None,
            order: Tuples::Ordered,
            modulus: None,
            nim_sum: None,
            all: false,
            by_formula: ByFormula::No,
            max: None,
            budget: TupleBudget::default(),
            partitions: None,
        }
    }
}

impl CountQuery {
    /// Exact counts, or residues modulo the query's modulus.
    pub fn arithmetic(&self) -> Result<Arithmetic> {
        match self.modulus {
            Some(0) => Err(Error::Refused {
                reason: "counts modulo 0: the modulus must be at least 1".into(),
                knob: Knob::Modulus,
            }),
            Some(m) => Ok(Arithmetic::Modulo(m)),
            None => Ok(Arithmetic::Exact),
        }
    }
}

/// The answer to a count: one of three reports, serialized as itself.
#[derive(Serialize)]
#[serde(untagged)]
pub enum CountAnswer {
    /// Heaps by value.
    Heaps(CountReport),
    /// Positions of several heaps by nim-sum.
    Positions(NimSumCountReport),
    /// Positions of a row or grid of coins by nim-sum.
    Coins(GridCountReport),
    /// Partitions of a number into heaps by nim-sum.
    Partitions(PartitionCountReport),
}

/// The refusal of an option a kind of count does not take.
fn not_taken(what: &str, knob: Knob) -> Error {
    Error::Refused {
        reason: format!("counting the positions of coins does not take {what}"),
        knob,
    }
}

/// Counts `game` (written `name`) as `query` asks, with `solver` for heap
/// tables (its memory limit bounds coin tables and the counts of
/// partitions too) and `progress` for coin tables ([`CoinRule::values`]),
/// the heaps' table of a count of partitions and its part sizes
/// ([`Partitions::count`]).
///
/// ```
/// use grundy::session::{count, CountAnswer, CountEnd, CountQuery, Counted};
/// use grundy::spec::GameSpec;
/// let kayles = Counted::from_spec(&GameSpec::parse("kayles")?, &Default::default())?;
/// let query = CountQuery { to: Some(CountEnd::Last(1_000_000_000_000)), heaps: Some(2), ..CountQuery::default() };
/// let CountAnswer::Positions(report) = count("kayles", &kayles, &query, &grundy::TableSolver::new(), &mut |_| true)? else {
///     unreachable!("two heaps are counted by nim-sum")
/// };
/// assert_eq!(report.total.to_string(), "1000000000000000000000000");
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn count(
    name: &str,
    game: &Counted,
    query: &CountQuery,
    solver: &TableSolver,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<CountAnswer> {
    let arithmetic = query.arithmetic()?;
    if let Some(partitions) = &query.partitions {
        return count_partitions(name, game, partitions, query, arithmetic, solver, progress)
            .map(CountAnswer::Partitions);
    }
    if let Counted::Coins(columns_rule, rows_rule) = game {
        let (columns_rule, rows_rule) = (columns_rule.clone(), rows_rule.clone());
        return count_coins(columns_rule, rows_rule, query, arithmetic, solver, progress);
    }
    if query.nim_sum.is_some() {
        return Err(Error::Refused {
            reason: "one nim-sum is asked of rows and grids of coins; positions of heaps list \
                     every nim-sum when all are asked for"
                .into(),
            knob: Knob::NimSum,
        });
    }
    if query.heaps.is_none() && query.order != Tuples::Ordered {
        return Err(Error::Refused {
            reason: "unordered and distinct counts are of positions of several heaps: give their \
                     number of heaps"
                .into(),
            knob: Knob::Heaps,
        });
    }
    let (histogram, range) = match (game, query.to) {
        (Counted::Given(_), _) => (game.histogram(0, 0, None, &query.by_formula, solver)?, None),
        (_, Some(CountEnd::Last(to))) => {
            let histogram = game.histogram(query.from, to, query.max, &query.by_formula, solver)?;
            if query.heaps.is_none() {
                let report = CountReport::new(name, query.from, to, &histogram);
                return Ok(CountAnswer::Heaps(report));
            }
            (histogram, Some((query.from, to)))
        }
        (_, Some(CountEnd::Grid(x, y))) => {
            return Err(Error::Refused {
                reason: format!(
                    "'{x},{y}' is the last coin of a grid; heaps are counted up to one last heap"
                ),
                knob: Knob::To,
            });
        }
        (_, None) => {
            return Err(Error::Refused {
                reason: "give the last heap counted".into(),
                knob: Knob::To,
            });
        }
    };
    let k = query.heaps.unwrap_or(1);
    let query = CountQuery {
        heaps: Some(k),
        ..query.clone()
    };
    let counts = count_histograms(std::slice::from_ref(&histogram), &query)?;
    let positions = CountedPositions {
        heaps: k,
        order: query.order,
        ranges: vec![CountedRange::new(name.trim(), range, &histogram)],
    };
    let report = NimSumCountReport::new(positions, &counts, query.modulus, query.all);
    Ok(CountAnswer::Positions(report))
}

/// Positions by nim-sum of heaps whose values `histograms` count:
/// `query.heaps` heaps of the one histogram, in `query.order`, when the
/// query gives a number of heaps; one heap from each histogram in turn
/// otherwise. Exact, or modulo `query.modulus`. The counting behind
/// [`count`] and [`count_ranges`], for a front end that holds histograms
/// (Python's `count_positions`, a user's published histogram).
pub fn count_histograms(histograms: &[Histogram], query: &CountQuery) -> Result<NimSumCounts> {
    let arithmetic = query.arithmetic()?;
    match (query.heaps, histograms) {
        (Some(k), [histogram]) => count_tuples(histogram, k, query.order, arithmetic, query.budget),
        (Some(_), _) => Err(Error::Refused {
            reason: "a number of heaps counts positions of one range; several ranges give one \
                     heap each"
                .into(),
            knob: Knob::Heaps,
        }),
        (None, _) if query.order != Tuples::Ordered => Err(Error::Refused {
            reason: "one heap from each range is counted in order; unordered and distinct \
                     counts are of several heaps of one range"
                .into(),
            knob: Knob::Order,
        }),
        (None, _) => Ok(count_ordered(histograms, arithmetic)),
    }
}

/// One heap from each range in turn (`grundy count --range GAME:A..B ...`),
/// counted by nim-sum: each range is a game written `name` with its heaps
/// `from..=to`.
pub fn count_ranges(
    ranges: &[(String, Counted, u64, u64)],
    query: &CountQuery,
    solver: &TableSolver,
) -> Result<NimSumCountReport> {
    let mut counted = Vec::new();
    let mut histograms = Vec::new();
    for (name, game, from, to) in ranges {
        let histogram = game.histogram(*from, *to, query.max, &query.by_formula, solver)?;
        counted.push(CountedRange::new(
            name.trim(),
            Some((*from, *to)),
            &histogram,
        ));
        histograms.push(histogram);
    }
    let counts = count_histograms(
        &histograms,
        &CountQuery {
            heaps: None,
            order: Tuples::Ordered,
            ..query.clone()
        },
    )?;
    let positions = CountedPositions {
        heaps: counted.len() as u64,
        order: Tuples::Ordered,
        ranges: counted,
    };
    Ok(NimSumCountReport::new(
        positions,
        &counts,
        query.modulus,
        query.all,
    ))
}

/// The partitions of `partitions.of` into heaps of `game` (written
/// `name`), by the nim-sum of their values: the part sizes first, refused
/// if the count cannot run within the query's work limit and `solver`'s
/// memory limit whatever the values; then the values of the heaps up to
/// the largest size ([`HeapRules::values`]: through a proven period where
/// the game proves one); then the knapsack ([`Partitions::count`]), into
/// exactly `query.heaps` parts when given.
fn count_partitions(
    name: &str,
    game: &Counted,
    partitions: &Partitions,
    query: &CountQuery,
    arithmetic: Arithmetic,
    solver: &TableSolver,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<PartitionCountReport> {
    let Counted::Heaps(rules) = game else {
        return Err(Error::Refused {
            reason: "partitions are into heaps of a heap game (built in or scripted): pairs, \
                     coins and given histograms have no heap sizes to add up"
                .into(),
            knob: Knob::Partitions,
        });
    };
    let refused = [
        (
            query.to.is_some(),
            "a last heap (the part sizes go up to the number partitioned; give a set of them \
             to count fewer)",
            Knob::To,
        ),
        (
            query.from != 1,
            "a first heap (parts have at least one token)",
            Knob::From,
        ),
        (
            query.nim_sum.is_some(),
            "one nim-sum (every nim-sum is listed when all are asked)",
            Knob::NimSum,
        ),
        (
            query.by_formula != ByFormula::No,
            "a formula (the parts' values are computed)",
            Knob::Formula,
        ),
        (query.max.is_some(), "an analysis bound", Knob::Max),
        (
            matches!(query.order, Tuples::Distinct | Tuples::OrderedDistinct),
            "an order of heaps (partitions are unordered; distinct parts are asked as such)",
            Knob::Order,
        ),
    ];
    if let Some(&(_, option, knob)) = refused.iter().find(|(given, ..)| *given) {
        return Err(Error::Refused {
            reason: format!("counting partitions does not take {option}"),
            knob,
        });
    }
    let budget = TableBudget {
        memory: solver.memory_limit(),
        work: query.budget.work,
    };
    let sizes = partitions.sizes(query.heaps, arithmetic, budget)?;
    let largest = sizes.last().map_or(0, |&s| s as u64);
    let values = match rules.values(largest, solver, progress)? {
        HeapValues::Finite(values) => values,
        HeapValues::Loopy(_) => {
            return Err(Error::InvalidRange {
                reason: format!(
                    "the heaps of {name} can grow, so play can cycle: they have no Grundy values                      to add up"
                ),
            });
        }
    };
    let parts: Vec<(usize, usize)> = sizes.iter().map(|&s| (s, values.at(s).index())).collect();
    let counts = partitions.count(&parts, query.heaps, arithmetic, budget, progress)?;
    Ok(PartitionCountReport::new(
        name,
        partitions,
        parts.len(),
        query.heaps,
        &counts,
        query.modulus,
        query.all,
    ))
}

/// The positions of a row or grid of coins by nim-sum.
fn count_coins(
    columns_rule: CoinRule,
    rows_rule: Option<CoinRule>,
    query: &CountQuery,
    arithmetic: Arithmetic,
    solver: &TableSolver,
    progress: &mut dyn FnMut(usize) -> bool,
) -> Result<CountAnswer> {
    let refused = [
        (query.heaps.is_some(), "a number of heaps", Knob::Heaps),
        (
            query.order != Tuples::Ordered,
            "an order of heaps",
            Knob::Order,
        ),
        (
            query.by_formula != ByFormula::No,
            "a formula",
            Knob::Formula,
        ),
        (query.max.is_some(), "an analysis bound", Knob::Max),
        (
            query.all,
            "every nim-sum at once (every nim-sum of the span has the same count: ask one)",
            Knob::All,
        ),
        (
            query.from != 1,
            "a first coin (the coins start at 1)",
            Knob::From,
        ),
    ];
    if let Some(&(_, option, knob)) = refused.iter().find(|(given, ..)| *given) {
        return Err(not_taken(option, knob));
    }
    let (columns, rows) = match (query.to, &rows_rule) {
        (Some(CountEnd::Grid(x, y)), Some(_)) => (x, y),
        (Some(CountEnd::Last(n)), Some(_)) => (n, n),
        (Some(CountEnd::Last(n)), None) => (n, 1),
        (Some(CountEnd::Grid(x, y)), None) => {
            return Err(Error::Refused {
                reason: format!(
                    "'{x},{y}': a row of coins ends at one coin; a grid is played by a product \
                     A*B"
                ),
                knob: Knob::To,
            });
        }
        (None, _) => {
            return Err(Error::Refused {
                reason: "give the last coin: N for a row, X,Y for a grid".into(),
                knob: Knob::To,
            });
        }
    };
    let counts = count_grid(
        &columns_rule,
        rows_rule.as_ref(),
        columns,
        rows,
        arithmetic,
        TableBudget {
            memory: solver.memory_limit(),
            work: query.budget.work,
        },
        progress,
    )?;
    let rule = match rows_rule {
        Some(rows_rule) => format!("{columns_rule}*{rows_rule}"),
        None => columns_rule.to_string(),
    };
    Ok(CountAnswer::Coins(GridCountReport::new(
        rule,
        &counts,
        query.nim_sum,
    )))
}
