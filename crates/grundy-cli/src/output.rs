//! Printing results as text, JSON or CSV.
//!
//! The JSON shapes are a contract other tools rely on; they are the serde
//! structs below, and fields are only ever added.

use std::io::Write;

use grundy::analysis::{
    Analysis, Comparison, GuessReport, Histogram, HistogramSource, NimSumCounts, Support,
};
use grundy::rules::{GameGraph, Maze};
use grundy::spec::CatalogueEntry;
use grundy::{Component, MoveCounts, Nimber, SumAnalysis, ValueTable, WinningMove};
use serde::Serialize;

use crate::Failure;
use crate::cli::{Format, SumFormat};

/// `grundy values`: `{"game", "canonical", "values"}`.
#[derive(Serialize)]
struct ValuesJson<'a> {
    game: &'a str,
    canonical: String,
    values: Vec<u32>,
}

/// `grundy sum`.
#[derive(Serialize)]
struct SumJson<'a> {
    components: Vec<ComponentJson<'a>>,
    nim_sum: u32,
    winner: &'static str,
    winning_moves: &'a [WinningMoveJson],
}

#[derive(Serialize)]
struct ComponentJson<'a> {
    game: &'a str,
    heap: usize,
    value: u32,
}

#[derive(Serialize)]
struct WinningMoveJson {
    component: usize,
    from: usize,
    to: Vec<usize>,
}

/// Who wins a sum worth `nim_sum`, as reports print it.
fn winner(nim_sum: Nimber) -> &'static str {
    grundy::Winner::of(nim_sum).as_str()
}

fn json(out: &mut impl Write, value: &impl Serialize) -> Result<(), Failure> {
    serde_json::to_writer(&mut *out, value).map_err(|e| Failure::Io(e.into()))?;
    writeln!(out)?;
    Ok(())
}

pub fn values(
    out: &mut impl Write,
    format: Format,
    name: &str,
    canonical: &str,
    values: &ValueTable,
) -> Result<(), Failure> {
    match format {
        Format::Json => json(
            out,
            &ValuesJson {
                game: name,
                canonical: canonical.to_owned(),
                values: values.iter().map(|v| v.get()).collect(),
            },
        ),
        Format::Csv => {
            writeln!(out, "heap,value")?;
            for (n, v) in values.iter().enumerate() {
                writeln!(out, "{n},{v}")?;
            }
            Ok(())
        }
        Format::Text => {
            let last = values.len().saturating_sub(1);
            if canonical == name {
                writeln!(out, "{name}: g(0..={last})")?;
            } else {
                writeln!(out, "{name} ({canonical}): g(0..={last})")?;
            }
            let index_width = last.to_string().len();
            let value_width = values.max().map_or(1, |v| v.to_string().len());
            for (n, v) in values.iter().enumerate() {
                if n % 10 == 0 {
                    write!(out, "{n:>index_width$}:")?;
                }
                write!(out, " {v:>value_width$}")?;
                if n % 10 == 9 || n == last {
                    writeln!(out)?;
                }
            }
            Ok(())
        }
    }
}

pub fn sum(
    out: &mut impl Write,
    format: SumFormat,
    names: &[String],
    components: &[Component],
    analysis: &SumAnalysis,
) -> Result<(), Failure> {
    let winner = winner(analysis.nim_sum);
    match format {
        SumFormat::Json => {
            let moves: Vec<WinningMoveJson> = analysis
                .winning_moves
                .iter()
                .map(|m| WinningMoveJson {
                    component: m.component,
                    from: m.from,
                    to: m.to.clone(),
                })
                .collect();
            json(
                out,
                &SumJson {
                    components: components
                        .iter()
                        .zip(&analysis.values)
                        .map(|(c, v)| ComponentJson {
                            game: &names[c.game],
                            heap: c.heap,
                            value: v.get(),
                        })
                        .collect(),
                    nim_sum: analysis.nim_sum.get(),
                    winner,
                    winning_moves: &moves,
                },
            )
        }
        SumFormat::Text => {
            writeln!(out, "{winner} player wins (nim-sum {})", analysis.nim_sum)?;
            for m in &analysis.winning_moves {
                writeln!(out, "{}", describe_move(m, names, components))?;
            }
            Ok(())
        }
    }
}

/// `heap 2 (size 10) becomes 9`, `heap 1 (kayles, size 6) becomes 1 + 3`,
/// `heap 3 (size 2) is removed`. Heaps are numbered from 1 for people.
fn describe_move(m: &WinningMove, names: &[String], components: &[Component]) -> String {
    let game = if names.len() > 1 {
        format!("{}, ", names[components[m.component].game])
    } else {
        String::new()
    };
    let result = if m.to.is_empty() {
        "is removed".to_owned()
    } else {
        let parts: Vec<String> = m.to.iter().map(usize::to_string).collect();
        format!("becomes {}", parts.join(" + "))
    };
    format!("heap {} ({game}size {}) {result}", m.component + 1, m.from)
}

pub fn catalogue(
    out: &mut impl Write,
    format: SumFormat,
    entries: &[CatalogueEntry],
) -> Result<(), Failure> {
    match format {
        SumFormat::Json => json(out, &entries),
        SumFormat::Text => {
            let (named, families): (Vec<&CatalogueEntry>, Vec<&CatalogueEntry>) =
                entries.iter().partition(|e| e.code.is_some());
            writeln!(out, "Games (type the name or the code):")?;
            for e in named {
                writeln!(
                    out,
                    "  {:<16} {:<7} {}",
                    e.name,
                    e.code.unwrap_or(""),
                    e.description
                )?;
            }
            writeln!(out, "\nFamilies (example in brackets):")?;
            for e in families {
                writeln!(out, "  {:<16} {} [{}]", e.name, e.description, e.example)?;
            }
            Ok(())
        }
    }
}

/// `grundy analyze --format json`.
#[derive(Serialize)]
struct AnalysisJson<'a> {
    game: &'a str,
    canonical: &'a str,
    period: Option<usize>,
    preperiod: Option<usize>,
    saltus: Option<u64>,
    proven: bool,
    /// "theorem", "closed-form", "observed" or "none".
    support: &'static str,
    theorem: Option<&'static str>,
    last_heap_needed: Option<usize>,
    /// For an observed period: the heaps the theorem would need to prove it.
    heaps_needed_for_proof: Option<usize>,
    /// The sparse engine's rare/common split, when it ran: `rare_values` is
    /// the mask (values v with popcount(v & mask) even are rare).
    rare_values: Option<u32>,
    rare_count: Option<usize>,
    last_rare: Option<usize>,
    /// Whether the split is the position-parity one (heap parity counts).
    position_parity: Option<bool>,
    /// Heaps whose partial mex was rare, and the pairs their scans read.
    sparse_scans: Option<u64>,
    sparse_scan_pairs: Option<u64>,
    computed_to: usize,
    max_value: u32,
    max_value_at: usize,
    histogram: Vec<[u64; 2]>,
    p_position_count: usize,
    /// Each the list, or `{"count", "first"}` when longer than 1000.
    p_positions: serde_json::Value,
    exceptions: serde_json::Value,
    first_values: Vec<u32>,
}

/// How many heaps JSON lists (P-positions, exceptions) before it switches to
/// a count and the first ones.
const HEAPS_LISTED: usize = 1000;

/// A count of heaps with the first [`HEAPS_LISTED`] of them, taken from an
/// iterator so that a table of 10^9 heaps needs no list of them.
struct Sample {
    count: usize,
    first: Vec<usize>,
}

impl Sample {
    fn of(heaps: impl Iterator<Item = usize>) -> Sample {
        let mut sample = Sample {
            count: 0,
            first: Vec::new(),
        };
        for heap in heaps {
            if sample.count < HEAPS_LISTED {
                sample.first.push(heap);
            }
            sample.count += 1;
        }
        sample
    }

    /// The list, or `{"count", "first"}` past [`HEAPS_LISTED`].
    fn json(&self) -> serde_json::Value {
        if self.count <= HEAPS_LISTED {
            serde_json::json!(self.first)
        } else {
            serde_json::json!({ "count": self.count, "first": self.first })
        }
    }

    /// `": a b c ..."` with at most `limit` heaps, or nothing when empty.
    fn colon_listing(&self, limit: usize) -> String {
        if self.count == 0 {
            String::new()
        } else {
            format!(": {}", listing_of(&self.first, self.count, limit))
        }
    }
}

pub fn analysis(
    out: &mut impl Write,
    format: SumFormat,
    name: &str,
    found: &Analysis,
) -> Result<(), Failure> {
    let (max_value, max_value_at) = found.max_value();
    let p_positions = Sample::of(found.p_positions());
    let exceptions = Sample::of(found.exceptions());
    let support = found.support_label();
    let (theorem, last_heap_needed) = match (found.periodicity, found.support) {
        (
            Some(_),
            Support::Proven {
                theorem,
                last_heap_needed,
            },
        ) => (Some(theorem.name()), Some(last_heap_needed)),
        _ => (None, None),
    };
    let period = found.periodicity;
    match format {
        SumFormat::Json => json(
            out,
            &AnalysisJson {
                game: name,
                canonical: &found.game,
                period: period.map(|p| p.period),
                preperiod: period.map(|p| p.preperiod),
                saltus: period.map(|p| p.saltus),
                proven: found.is_proven(),
                support,
                theorem,
                last_heap_needed,
                heaps_needed_for_proof: found.heaps_needed_for_proof(),
                rare_values: found.sparse.as_ref().map(|s| s.mask),
                rare_count: found.sparse.as_ref().map(|s| s.rare_count),
                last_rare: found.sparse.as_ref().and_then(|s| s.last_rare),
                position_parity: found.sparse.as_ref().map(|s| s.position_parity),
                sparse_scans: found.sparse.as_ref().map(|s| s.scans),
                sparse_scan_pairs: found.sparse.as_ref().map(|s| s.scan_pairs),
                computed_to: found.computed_to(),
                max_value: max_value.get(),
                max_value_at,
                histogram: found
                    .histogram()
                    .into_iter()
                    .map(|(v, c)| [u64::from(v), c])
                    .collect(),
                p_position_count: p_positions.count,
                p_positions: p_positions.json(),
                exceptions: exceptions.json(),
                first_values: found.values.iter().take(100).map(|v| v.get()).collect(),
            },
        ),
        SumFormat::Text => {
            let title = if found.game == name {
                name.to_owned()
            } else {
                format!("{name} ({})", found.game)
            };
            writeln!(out, "{title}, computed g(0..={})", found.computed_to())?;
            writeln!(
                out,
                "values       {}",
                listing_of(
                    &found.values.iter().take(40).collect::<Vec<_>>(),
                    found.values.len(),
                    40
                )
            )?;
            match period {
                None => writeln!(
                    out,
                    "period       none found in g(0..={})",
                    found.computed_to()
                )?,
                Some(p) => {
                    let kind = if p.saltus == 0 {
                        p.period.to_string()
                    } else {
                        format!("{} (arithmetic, saltus {})", p.period, p.saltus)
                    };
                    let how = match (found.support, last_heap_needed) {
                        (Support::Proven { theorem, .. }, Some(needed)) => {
                            format!("PROVEN by the {}, using g(0..={needed})", theorem.name())
                        }
                        (Support::ClosedForm, _) => {
                            "PROVEN: the values follow this game's closed-form theorem".to_owned()
                        }
                        _ => match (found.theorem, found.heaps_needed_for_proof()) {
                            (Some(theorem), Some(needed)) => format!(
                                "observed up to {}, not proven: the {} needs g(0..={needed}) \
                                 (rerun with --to {needed})",
                                found.computed_to(),
                                theorem.name()
                            ),
                            (Some(_), None) => {
                                format!("observed up to {}, not proven", found.computed_to())
                            }
                            (None, _) => format!(
                                "observed up to {}, not proven (no periodicity theorem applies \
                                 to this game)",
                                found.computed_to()
                            ),
                        },
                    };
                    writeln!(
                        out,
                        "period       {kind}, pre-period {}: {how}",
                        p.preperiod
                    )?;
                    let block: Vec<Nimber> = found
                        .values
                        .iter()
                        .skip(p.preperiod)
                        .take(p.period.min(61))
                        .collect();
                    writeln!(out, "repeats      {}", listing_of(&block, p.period, 60))?;
                    if p.saltus == 0 {
                        writeln!(
                            out,
                            "exceptions   {} heap(s) before {} break the period{}",
                            exceptions.count,
                            p.preperiod,
                            exceptions.colon_listing(20)
                        )?;
                    }
                }
            }
            writeln!(
                out,
                "largest      {max_value}, first at heap {max_value_at}"
            )?;
            writeln!(
                out,
                "P-positions  {} in 0..={}{}",
                p_positions.count,
                found.computed_to(),
                p_positions.colon_listing(20)
            )?;
            let histogram: Vec<String> = found
                .histogram()
                .into_iter()
                .map(|(v, c)| format!("{v}:{c}"))
                .collect();
            writeln!(out, "histogram    {}", shorten(&histogram, 40))?;
            Ok(())
        }
    }
}

/// The first `limit` items separated by spaces, then `...` if there are
/// more.
fn listing<T: std::fmt::Display>(items: &[T], limit: usize) -> String {
    listing_of(items, items.len(), limit)
}

/// [`listing`] of the first items of a list of `total`.
fn listing_of<T: std::fmt::Display>(items: &[T], total: usize, limit: usize) -> String {
    let shown: Vec<String> = items.iter().take(limit).map(T::to_string).collect();
    shorten(&shown, limit) + if total > limit { " ..." } else { "" }
}

/// `": a b c ..."`, or nothing for an empty list.
fn colon_listing<T: std::fmt::Display>(items: &[T], limit: usize) -> String {
    if items.is_empty() {
        String::new()
    } else {
        format!(": {}", listing(items, limit))
    }
}

fn shorten(items: &[String], limit: usize) -> String {
    let mut text = items[..items.len().min(limit)].join(" ");
    if items.len() > limit && !text.ends_with("...") {
        text.push_str(" ...");
    }
    text
}

/// `grundy compare --format json`.
#[derive(Serialize)]
struct ComparisonJson<'a> {
    games: [&'a str; 2],
    compared_to: usize,
    equal: bool,
    proven_equal: bool,
    first_difference: Option<DifferenceJson>,
}

#[derive(Serialize)]
struct DifferenceJson {
    heap: usize,
    values: [u32; 2],
}

pub fn comparison(
    out: &mut impl Write,
    format: SumFormat,
    names: [&str; 2],
    comparison: &Comparison,
) -> Result<(), Failure> {
    let [a, b] = names;
    match format {
        SumFormat::Json => json(
            out,
            &ComparisonJson {
                games: names,
                compared_to: comparison.compared_to,
                equal: comparison.first_difference.is_none(),
                proven_equal: comparison.proven_equal,
                first_difference: comparison
                    .first_difference
                    .map(|(heap, x, y)| DifferenceJson {
                        heap,
                        values: [x.get(), y.get()],
                    }),
            },
        ),
        SumFormat::Text => {
            match comparison.first_difference {
                Some((heap, x, y)) => writeln!(
                    out,
                    "different: first at heap {heap}, where {a} has {x} and {b} has {y}"
                )?,
                None if comparison.proven_equal => writeln!(
                    out,
                    "equal for every heap: PROVEN (both are proven periodic and agree on \
                     g(0..={}))",
                    comparison.compared_to
                )?,
                None => writeln!(
                    out,
                    "equal on g(0..={}), not proven beyond",
                    comparison.compared_to
                )?,
            }
            Ok(())
        }
    }
}

/// `grundy guess --format json`.
#[derive(Serialize)]
struct GuessJson<'a> {
    source: &'a str,
    computed_to: usize,
    /// The formula in words, or null when none fits.
    formula: Option<String>,
    /// The formula fits every value from this heap on.
    formula_from: Option<usize>,
    exceptions: Vec<usize>,
    /// True only when a proven period implies the formula for every heap.
    proven: bool,
    p_positions: Option<String>,
}

pub fn guess(
    out: &mut impl Write,
    format: SumFormat,
    name: &str,
    report: &GuessReport,
) -> Result<(), Failure> {
    let last = report.computed_to;
    let (guess, proven) = (&report.guess, report.proven);
    let (zeros, set_rule) = (&report.p_positions, &report.p_rule);
    match format {
        SumFormat::Json => json(
            out,
            &GuessJson {
                source: name,
                computed_to: last,
                formula: guess.as_ref().map(|g| g.formula.to_string()),
                formula_from: guess.as_ref().map(|g| g.from),
                exceptions: guess
                    .as_ref()
                    .map(|g| g.exceptions.clone())
                    .unwrap_or_default(),
                proven,
                p_positions: set_rule.as_ref().map(ToString::to_string),
            },
        ),
        SumFormat::Text => {
            writeln!(out, "{name}, g(0..={last})")?;
            match &guess {
                None => writeln!(out, "values       no simple formula fits")?,
                Some(g) => {
                    writeln!(out, "values       {}", g.formula)?;
                    let from = if g.from == 0 {
                        "for every heap".to_owned()
                    } else {
                        format!(
                            "from heap {} ({} exception(s) below: {})",
                            g.from,
                            g.exceptions.len(),
                            listing(&g.exceptions, 20)
                        )
                    };
                    let status = if proven {
                        "PROVEN for every heap by the proven period".to_owned()
                    } else {
                        format!("verified on 0..={last}, a conjecture beyond")
                    };
                    writeln!(out, "             {from}; {status}")?;
                }
            }
            match set_rule {
                Some(rule) => writeln!(
                    out,
                    "P-positions  {rule} (verified on 0..={last}, a conjecture beyond)"
                )?,
                None => writeln!(
                    out,
                    "P-positions  {} in 0..={last}, no simple rule found{}",
                    zeros.len(),
                    colon_listing(zeros, 20)
                )?,
            }
            Ok(())
        }
    }
}

/// `grundy graph --format json`.
#[derive(Serialize)]
struct GraphJson<'a> {
    positions: Vec<PositionJson<'a>>,
    p_positions: Vec<&'a str>,
}

#[derive(Serialize)]
struct PositionJson<'a> {
    name: &'a str,
    value: u32,
    winning_moves: Vec<GraphMoveJson<'a>>,
}

#[derive(Serialize)]
struct GraphMoveJson<'a> {
    to: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
}

pub fn graph(
    out: &mut impl Write,
    format: SumFormat,
    graph: &GameGraph,
    values: &[Nimber],
) -> Result<(), Failure> {
    let winning = |p: usize| {
        graph
            .play(values, &[p])
            .winning_moves
            .into_iter()
            .map(|(_, e)| {
                let (_, q, label) = graph.edge(e);
                GraphMoveJson {
                    to: graph.name(q),
                    label,
                }
            })
    };
    let p_positions: Vec<&str> = (0..graph.len())
        .filter(|&p| values[p].is_zero())
        .map(|p| graph.name(p))
        .collect();
    match format {
        SumFormat::Json => json(
            out,
            &GraphJson {
                positions: (0..graph.len())
                    .map(|p| PositionJson {
                        name: graph.name(p),
                        value: values[p].get(),
                        winning_moves: winning(p).collect(),
                    })
                    .collect(),
                p_positions,
            },
        ),
        SumFormat::Text => {
            writeln!(
                out,
                "{} positions, {} moves; {} P-positions (the player to move loses)",
                graph.len(),
                graph.edge_count(),
                p_positions.len()
            )?;
            let width = name_width(graph);
            for (p, value) in values.iter().enumerate() {
                write!(out, "{:<width$}  {:>3}", graph.name(p), value)?;
                for m in winning(p) {
                    write_move(out, "->", m.to, m.label)?;
                }
                writeln!(out)?;
            }
            Ok(())
        }
    }
}

/// The width of the longest position name of `graph`, for aligned tables.
/// The column width for position names: the longest name, but at most
/// [`MAX_NAME_COLUMN`] (longer names are printed whole and break the
/// alignment rather than the formatter, whose widths stop at 2^16).
fn name_width(graph: &GameGraph) -> usize {
    (0..graph.len())
        .map(|p| graph.name(p).chars().count())
        .max()
        .unwrap_or(0)
        .min(MAX_NAME_COLUMN)
}

/// The widest column a position name is padded to.
const MAX_NAME_COLUMN: usize = 64;

/// `  -> to (label)` after a position in a graph table.
fn write_move(
    out: &mut impl Write,
    arrow: &str,
    to: &str,
    label: Option<&str>,
) -> std::io::Result<()> {
    match label {
        Some(label) => write!(out, "  {arrow} {to} ({label})"),
        None => write!(out, "  {arrow} {to}"),
    }
}

/// `grundy maze --format json`: rows and columns from 0.
#[derive(Serialize)]
struct MazeJson<'a> {
    /// `values[row][column]`, null on walls.
    values: Vec<Vec<Option<u32>>>,
    figures: Vec<FigureJson>,
    nim_sum: u32,
    winner: &'static str,
    winning_moves: &'a [FigureMoveJson],
}

#[derive(Serialize)]
struct FigureJson {
    mark: char,
    row: usize,
    column: usize,
    value: u32,
}

#[derive(Serialize)]
struct FigureMoveJson {
    figure: usize,
    mark: char,
    from: [usize; 2],
    to: [usize; 2],
}

pub fn maze(
    out: &mut impl Write,
    format: SumFormat,
    maze: &Maze,
    values: &[Vec<Option<Nimber>>],
) -> Result<(), Failure> {
    let value = |(r, c): (usize, usize)| values[r][c].unwrap_or(Nimber::ZERO);
    let played = maze.play(values);
    let nim_sum = played.nim_sum;
    let moves: Vec<FigureMoveJson> = played
        .winning_moves
        .iter()
        .map(|&(i, to)| {
            let (mark, at) = maze.figures()[i];
            FigureMoveJson {
                figure: i,
                mark,
                from: [at.0, at.1],
                to: [to.0, to.1],
            }
        })
        .collect();
    let winner = winner(nim_sum);
    match format {
        SumFormat::Json => json(
            out,
            &MazeJson {
                values: values
                    .iter()
                    .map(|row| row.iter().map(|v| v.map(Nimber::get)).collect())
                    .collect(),
                figures: maze
                    .figures()
                    .iter()
                    .map(|&(mark, at)| FigureJson {
                        mark,
                        row: at.0,
                        column: at.1,
                        value: value(at).get(),
                    })
                    .collect(),
                nim_sum: nim_sum.get(),
                winner,
                winning_moves: &moves,
            },
        ),
        SumFormat::Text => {
            let width = values
                .iter()
                .flatten()
                .flatten()
                .map(|v| v.to_string().len())
                .max()
                .unwrap_or(1);
            for row in values {
                let cells: Vec<String> = row
                    .iter()
                    .map(|v| match v {
                        Some(v) => format!("{v:>width$}"),
                        None => format!("{:>width$}", "#"),
                    })
                    .collect();
                writeln!(out, "{}", cells.join(" "))?;
            }
            if maze.figures().is_empty() {
                return Ok(());
            }
            writeln!(out, "{winner} player wins (nim-sum {nim_sum})")?;
            for m in &moves {
                writeln!(
                    out,
                    "{} (row {}, column {}) moves to row {}, column {}",
                    m.mark,
                    m.from[0] + 1,
                    m.from[1] + 1,
                    m.to[0] + 1,
                    m.to[1] + 1
                )?;
            }
            Ok(())
        }
    }
}

/// `grundy values` for a game on pairs: `{"game", "values": [[g(0,0), g(0,1),
/// ...], [g(1,0), ...], ...]}`.
#[derive(Serialize)]
struct PairValuesJson<'a> {
    game: &'a str,
    values: Vec<Vec<u32>>,
}

pub fn pair_values(
    out: &mut impl Write,
    format: Format,
    name: &str,
    table: &[Vec<Nimber>],
) -> Result<(), Failure> {
    match format {
        Format::Json => json(
            out,
            &PairValuesJson {
                game: name,
                values: table
                    .iter()
                    .map(|row| row.iter().map(|v| v.get()).collect())
                    .collect(),
            },
        ),
        Format::Csv => {
            writeln!(out, "a,b,value")?;
            for (a, row) in table.iter().enumerate() {
                for (b, v) in row.iter().enumerate() {
                    writeln!(out, "{a},{b},{v}")?;
                }
            }
            Ok(())
        }
        Format::Text => {
            let last = table.len().saturating_sub(1);
            writeln!(
                out,
                "{name}: g(a, b) for 0 <= a, b <= {last} (row a, column b)"
            )?;
            let width = table
                .iter()
                .flatten()
                .map(|v| v.to_string().len())
                .max()
                .unwrap_or(1)
                .max(last.to_string().len());
            write!(out, "{:>width$} |", "")?;
            for b in 0..table.len() {
                write!(out, " {b:>width$}")?;
            }
            writeln!(out)?;
            for (a, row) in table.iter().enumerate() {
                write!(out, "{a:>width$} |")?;
                for v in row {
                    write!(out, " {v:>width$}")?;
                }
                writeln!(out)?;
            }
            Ok(())
        }
    }
}

/// `grundy graph FILE --sum ... --format json`.
#[derive(Serialize)]
struct GraphSumJson<'a> {
    components: Vec<GraphTokenJson<'a>>,
    nim_sum: u32,
    winner: &'static str,
    winning_moves: Vec<GraphSumMoveJson<'a>>,
}

#[derive(Serialize)]
struct GraphTokenJson<'a> {
    position: &'a str,
    value: u32,
}

#[derive(Serialize)]
struct GraphSumMoveJson<'a> {
    component: usize,
    from: &'a str,
    to: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
}

/// A sum of tokens on a graph, with its winning moves.
pub fn graph_sum(
    out: &mut impl Write,
    format: SumFormat,
    graph: &GameGraph,
    values: &[Nimber],
    tokens: &[usize],
) -> Result<(), Failure> {
    let played = graph.play(values, tokens);
    let nim_sum = played.nim_sum;
    let winner = played.winner().as_str();
    let moves: Vec<GraphSumMoveJson> = played
        .winning_moves
        .iter()
        .map(|&(i, e)| {
            let (from, to, label) = graph.edge(e);
            GraphSumMoveJson {
                component: i,
                from: graph.name(from),
                to: graph.name(to),
                label,
            }
        })
        .collect();
    match format {
        SumFormat::Json => json(
            out,
            &GraphSumJson {
                components: tokens
                    .iter()
                    .map(|&p| GraphTokenJson {
                        position: graph.name(p),
                        value: values[p].get(),
                    })
                    .collect(),
                nim_sum: nim_sum.get(),
                winner,
                winning_moves: moves,
            },
        ),
        SumFormat::Text => {
            writeln!(out, "{winner} player wins (nim-sum {nim_sum})")?;
            for m in &moves {
                write!(
                    out,
                    "token {} moves {} -> {}",
                    m.component + 1,
                    m.from,
                    m.to
                )?;
                match m.label {
                    Some(label) => writeln!(out, " ({label})")?,
                    None => writeln!(out)?,
                }
            }
            Ok(())
        }
    }
}

#[derive(Serialize)]
struct ScriptSumJson {
    positions: Vec<ScriptTokenJson>,
    nim_sum: u32,
    winner: &'static str,
    winning_moves: Vec<ScriptMoveJson>,
}

#[derive(Serialize)]
struct ScriptTokenJson {
    position: String,
    value: u32,
}

#[derive(Serialize)]
struct ScriptMoveJson {
    component: usize,
    from: String,
    /// The positions the move leaves, played together.
    to: Vec<String>,
}

/// Positions of a game (a script's heaps or tuples, pairs of a pair game)
/// played together: values, the winner and every winning move.
pub fn position_sum<P: std::fmt::Display>(
    out: &mut impl Write,
    format: Format,
    positions: &[P],
    sum: &grundy::PositionSum<P>,
) -> Result<(), Failure> {
    let (values, nim_sum) = (&sum.values, sum.nim_sum);
    let winner = winner(nim_sum);
    let moves = sum.winning_moves.iter().map(|m| ScriptMoveJson {
        component: m.component,
        from: positions[m.component].to_string(),
        to: m.to.iter().map(ToString::to_string).collect(),
    });
    match format {
        Format::Json => json(
            out,
            &ScriptSumJson {
                positions: positions
                    .iter()
                    .zip(values)
                    .map(|(p, v)| ScriptTokenJson {
                        position: p.to_string(),
                        value: v.get(),
                    })
                    .collect(),
                nim_sum: nim_sum.get(),
                winner,
                winning_moves: moves.collect(),
            },
        ),
        Format::Csv => {
            writeln!(out, "position,value")?;
            for (p, v) in positions.iter().zip(values) {
                writeln!(out, "\"{p}\",{v}")?;
            }
            Ok(())
        }
        Format::Text => {
            for (p, v) in positions.iter().zip(values) {
                writeln!(out, "g({p}) = {v}")?;
            }
            writeln!(out, "{winner} player wins (nim-sum {nim_sum})")?;
            for m in moves {
                let to = if m.to.is_empty() {
                    "nothing".to_owned()
                } else {
                    m.to.join(" + ")
                };
                writeln!(
                    out,
                    "winning move: position {} {} -> {to}",
                    m.component + 1,
                    m.from
                )?;
            }
            Ok(())
        }
    }
}

/// A count as JSON: a string, since counts outgrow JavaScript's exact
/// integers.
fn count_json(count: impl std::fmt::Display) -> serde_json::Value {
    serde_json::Value::String(count.to_string())
}

/// `grundy count GAME --to N`: how many heaps of the range have each value.
pub fn histogram(
    out: &mut impl Write,
    format: SumFormat,
    name: &str,
    from: u64,
    to: u64,
    histogram: &Histogram,
) -> Result<(), Failure> {
    let rows = histogram.counts.iter().enumerate().filter(|&(_, &c)| c > 0);
    let source = match histogram.source {
        HistogramSource::Tabulated => "computed heap by heap".to_owned(),
        HistogramSource::Period { preperiod, period } => {
            format!("through the proven period {period} from heap {preperiod}")
        }
    };
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({
                "game": name,
                "from": from,
                "to": to,
                "heaps": count_json(histogram.heaps()),
                "source": source,
                "histogram": rows.map(|(v, &c)| serde_json::json!([v, count_json(c)])).collect::<Vec<_>>(),
            }),
        ),
        SumFormat::Text => {
            writeln!(
                out,
                "{name}, heaps {from}..={to}: {} heaps, {source}",
                histogram.heaps()
            )?;
            writeln!(out, "value  heaps")?;
            for (v, c) in rows {
                writeln!(out, "{v:<5}  {c}")?;
            }
            Ok(())
        }
    }
}

/// `grundy count ... --heaps K` or `--range ...`: positions by nim-sum.
pub fn nim_sum_counts(
    out: &mut impl Write,
    format: SumFormat,
    what: &str,
    counts: &NimSumCounts,
    modulus: Option<u64>,
    all: bool,
) -> Result<(), Failure> {
    let modulo = modulus.map_or(String::new(), |m| format!(" (mod {m})"));
    let by_nim_sum = counts
        .by_nim_sum
        .iter()
        .enumerate()
        .filter(|(_, c)| c.bits() > 0);
    match format {
        SumFormat::Json => {
            let mut value = serde_json::json!({
                "positions": what,
                "modulus": modulus,
                "total": count_json(&counts.total),
                "p_positions": count_json(counts.p_positions()),
            });
            if all {
                value["by_nim_sum"] = by_nim_sum
                    .map(|(s, c)| serde_json::json!([s, count_json(c)]))
                    .collect();
            }
            json(out, &value)
        }
        SumFormat::Text => {
            writeln!(out, "{what}: {}{modulo}", counts.total)?;
            writeln!(
                out,
                "P-positions (nim-sum 0, the player to move loses): {}{modulo}",
                counts.p_positions()
            )?;
            if all {
                for (s, c) in by_nim_sum {
                    writeln!(out, "nim-sum {s}: {c}")?;
                }
            }
            Ok(())
        }
    }
}

/// `grundy count --moves ...`: each component's moves by the value they
/// reach, and the winning moves of the sum.
pub fn move_counts(
    out: &mut impl Write,
    format: SumFormat,
    names: &[String],
    components: &[Component],
    counts: &[MoveCounts],
) -> Result<(), Failure> {
    let (nim_sum, winning_by_component) = grundy::winning_move_counts(counts);
    let winning: u64 = winning_by_component.iter().sum();
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({
                "components": components.iter().zip(counts).enumerate().map(|(i, (c, m))| serde_json::json!({
                    "game": names[c.game],
                    "heap": c.heap,
                    "value": m.value.get(),
                    "moves": m.total(),
                    "by_value": m.by_value.iter().map(|(v, n)| [u64::from(*v), *n]).collect::<Vec<_>>(),
                    "winning_moves": winning_by_component[i],
                })).collect::<Vec<_>>(),
                "nim_sum": nim_sum.get(),
                "winner": winner(nim_sum),
                "winning_moves": winning,
            }),
        ),
        SumFormat::Text => {
            for (c, m) in components.iter().zip(counts) {
                let by_value: Vec<String> =
                    m.by_value.iter().map(|(v, n)| format!("{v}:{n}")).collect();
                writeln!(
                    out,
                    "{} {} (value {}): {} moves, by value reached {}",
                    names[c.game],
                    c.heap,
                    m.value,
                    m.total(),
                    by_value.join(" ")
                )?;
            }
            writeln!(
                out,
                "{} player wins (nim-sum {nim_sum}): {winning} winning moves",
                winner(nim_sum)
            )?;
            Ok(())
        }
    }
}

/// `grundy nim ...`: one result in the nim field.
pub fn nim(
    out: &mut impl Write,
    format: SumFormat,
    symbol: &str,
    result: u64,
) -> Result<(), Failure> {
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({ "expression": symbol, "result": result }),
        ),
        SumFormat::Text => {
            writeln!(out, "{symbol} = {result} (in the nim field)")?;
            Ok(())
        }
    }
}

/// `grundy coins RULE --to N`.
pub fn coin_values(
    out: &mut impl Write,
    format: SumFormat,
    rule: &str,
    values: &[Nimber],
) -> Result<(), Failure> {
    let listed: Vec<u32> = values.iter().skip(1).map(|v| v.get()).collect();
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({ "rule": rule, "first_coin": 1, "values": listed }),
        ),
        SumFormat::Text => {
            writeln!(out, "{rule}: g(1..={})", listed.len())?;
            for (row, chunk) in listed.chunks(10).enumerate() {
                let shown: Vec<String> = chunk.iter().map(u32::to_string).collect();
                writeln!(out, "{:>4}: {}", row * 10 + 1, shown.join(" "))?;
            }
            Ok(())
        }
    }
}

/// `grundy coins RULE HEADS...`.
pub fn coin_row(
    out: &mut impl Write,
    format: SumFormat,
    rule: &str,
    row: &grundy::rules::CoinRow,
) -> Result<(), Failure> {
    let turned = |m: &grundy::rules::CoinMove| {
        let mut coins = m.also.clone();
        coins.push(m.coin);
        coins
    };
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({
                "rule": rule,
                "heads": row.heads.iter().map(|&(coin, v)| serde_json::json!({"coin": coin, "value": v.get()})).collect::<Vec<_>>(),
                "nim_sum": row.nim_sum.get(),
                "winner": winner(row.nim_sum),
                "winning_moves": row.winning_moves.iter().map(|m| serde_json::json!({"turn": turned(m)})).collect::<Vec<_>>(),
            }),
        ),
        SumFormat::Text => {
            let heads: Vec<String> = row
                .heads
                .iter()
                .map(|(coin, v)| format!("{coin}:{v}"))
                .collect();
            writeln!(out, "{rule}, heads (coin:value) {}", heads.join(" "))?;
            writeln!(
                out,
                "{} player wins (nim-sum {})",
                winner(row.nim_sum),
                row.nim_sum
            )?;
            for m in &row.winning_moves {
                let coins: Vec<String> = turned(m).iter().map(usize::to_string).collect();
                writeln!(out, "turn coins {}", coins.join(" "))?;
            }
            Ok(())
        }
    }
}

/// `grundy coins A*B --to N`: `table[y][x]`, row and column 0 unused.
pub fn coin_table(
    out: &mut impl Write,
    format: SumFormat,
    rule: &str,
    table: &[Vec<Nimber>],
) -> Result<(), Failure> {
    let rows: Vec<Vec<u32>> = table
        .iter()
        .skip(1)
        .map(|row| row.iter().skip(1).map(|v| v.get()).collect())
        .collect();
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({ "rule": rule, "first_coin": 1, "values": rows }),
        ),
        SumFormat::Text => {
            writeln!(
                out,
                "{rule}: g(x, y) = g(x) * g(y) (nim-product), row y, column x from 1"
            )?;
            let width = rows
                .iter()
                .flatten()
                .map(|v| v.to_string().len())
                .max()
                .unwrap_or(1);
            for (y, row) in rows.iter().enumerate() {
                let shown: Vec<String> = row.iter().map(|v| format!("{v:>width$}")).collect();
                writeln!(out, "{:>4} | {}", y + 1, shown.join(" "))?;
            }
            Ok(())
        }
    }
}

/// `grundy coins A*B X,Y... | --grid FILE`.
pub fn coin_grid(
    out: &mut impl Write,
    format: SumFormat,
    rule: &str,
    grid: &grundy::rules::CoinGrid,
) -> Result<(), Failure> {
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({
                "rule": rule,
                "heads": grid.heads.iter().map(|&(x, y, v)| serde_json::json!({"x": x, "y": y, "value": v.get()})).collect::<Vec<_>>(),
                "nim_sum": grid.nim_sum.get(),
                "winner": winner(grid.nim_sum),
                "winning_move": grid.winning_move.as_ref().map(|m| serde_json::json!({"columns": m.columns, "rows": m.rows})),
            }),
        ),
        SumFormat::Text => {
            let heads: Vec<String> = grid
                .heads
                .iter()
                .map(|(x, y, v)| format!("({x},{y}):{v}"))
                .collect();
            writeln!(out, "{rule}, heads (x,y):value {}", heads.join(" "))?;
            writeln!(
                out,
                "{} player wins (nim-sum {})",
                winner(grid.nim_sum),
                grid.nim_sum
            )?;
            if let Some(m) = &grid.winning_move {
                let list =
                    |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(" ");
                writeln!(
                    out,
                    "turn the coins in columns {} of rows {}",
                    list(&m.columns),
                    list(&m.rows)
                )?;
            }
            Ok(())
        }
    }
}

/// `grundy hackenbush`: edges are numbered from 1.
pub fn hackenbush(
    out: &mut impl Write,
    format: SumFormat,
    names: &[String],
    pictures: &[grundy::rules::Hackenbush],
    sum: &grundy::rules::HackenbushSum,
) -> Result<(), Failure> {
    let cut = |&(i, e): &(usize, usize)| {
        let (a, b) = pictures[i].edge(e);
        (i, e + 1, a.to_owned(), b.to_owned())
    };
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({
                "pictures": names.iter().zip(&sum.values).map(|(name, v)| serde_json::json!({"picture": name, "value": v.get()})).collect::<Vec<_>>(),
                "nim_sum": sum.nim_sum.get(),
                "winner": winner(sum.nim_sum),
                "winning_cuts": sum.winning_cuts.iter().map(|c| {
                    let (i, edge, a, b) = cut(c);
                    serde_json::json!({"picture": i, "edge": edge, "between": [a, b]})
                }).collect::<Vec<_>>(),
            }),
        ),
        SumFormat::Text => {
            for (i, (name, v)) in names.iter().zip(&sum.values).enumerate() {
                writeln!(out, "picture {}  {name}  value {v}", i + 1)?;
            }
            writeln!(
                out,
                "{} player wins (nim-sum {})",
                winner(sum.nim_sum),
                sum.nim_sum
            )?;
            for c in &sum.winning_cuts {
                let (i, edge, a, b) = cut(c);
                writeln!(out, "cut edge {edge} ({a} - {b}) of picture {}", i + 1)?;
            }
            Ok(())
        }
    }
}

/// `grundy fibonacci-nim`.
pub fn fibonacci_nim(
    out: &mut impl Write,
    format: SumFormat,
    heap: u64,
    limit: u64,
    ratio: u64,
    found: &grundy::rules::TakeOutcome,
) -> Result<(), Failure> {
    let winner = if found.first_player_wins {
        "first"
    } else {
        "second"
    };
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({
                "heap": heap,
                "limit": limit,
                "ratio": ratio,
                "winner": winner,
                "winning_takes": found.winning_takes,
                "zeckendorf": found.zeckendorf,
            }),
        ),
        SumFormat::Text => {
            writeln!(
                out,
                "heap {heap}, take at most {limit} now, then at most {ratio} times the last take"
            )?;
            if let Some(terms) = found.zeckendorf.as_ref().filter(|t| !t.is_empty()) {
                let shown: Vec<String> = terms.iter().map(u64::to_string).collect();
                writeln!(out, "zeckendorf   {heap} = {}", shown.join(" + "))?;
            }
            writeln!(out, "{winner} player wins")?;
            if !found.winning_takes.is_empty() {
                let shown: Vec<String> = found.winning_takes.iter().map(u64::to_string).collect();
                writeln!(out, "winning takes {}", shown.join(" "))?;
            }
            Ok(())
        }
    }
}

/// `grundy outcomes`: `reports` holds each asked state and its winning
/// moves.
pub fn outcomes(
    out: &mut impl Write,
    format: SumFormat,
    script: &str,
    found: &grundy::solve::Outcomes,
    reports: &[(u64, Vec<u64>)],
) -> Result<(), Failure> {
    const SHOWN: usize = 1000;
    let first: Vec<u64> = found.losses().take(SHOWN).collect();
    let positions: Vec<serde_json::Value> = reports
        .iter()
        .map(|(p, moves)| {
            serde_json::json!({
                "state": p,
                "winner": if found.is_loss(*p) { "second" } else { "first" },
                "winning_moves": moves,
            })
        })
        .collect();
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({
                "script": script,
                "states": found.states(),
                "p_positions": { "count": found.loss_count(), "first": first },
                "positions": positions,
            }),
        ),
        SumFormat::Text => {
            writeln!(out, "{script}: states 0..{}", found.states())?;
            let shown: Vec<String> = first.iter().take(40).map(u64::to_string).collect();
            let more = if found.loss_count() > 40 { " ..." } else { "" };
            writeln!(
                out,
                "P-positions  {} (the player to move loses): {}{more}",
                found.loss_count(),
                shown.join(" ")
            )?;
            for (p, moves) in reports {
                if found.is_loss(*p) {
                    writeln!(out, "state {p}: second player wins")?;
                } else {
                    let shown: Vec<String> = moves.iter().map(u64::to_string).collect();
                    writeln!(
                        out,
                        "state {p}: first player wins, moving to {}",
                        shown.join(" ")
                    )?;
                }
            }
            Ok(())
        }
    }
}

fn outcome_name(outcome: grundy::solve::Outcome) -> &'static str {
    match outcome {
        grundy::solve::Outcome::Win => "win",
        grundy::solve::Outcome::Loss => "loss",
        grundy::solve::Outcome::Draw => "draw",
    }
}

/// A generalized value in JSON: the number, or `null` with the finite
/// values of the options under `infinite`.
fn loopy_json(value: &grundy::solve::LoopyValue) -> serde_json::Value {
    match value {
        grundy::solve::LoopyValue::Finite(v) => serde_json::json!({ "value": v.get() }),
        grundy::solve::LoopyValue::Infinite(k) => serde_json::json!({
            "value": null,
            "infinite": { "finite_options": k.iter().map(|v| v.get()).collect::<Vec<_>>() },
        }),
    }
}

/// `grundy graph FILE` for a graph with cycles: generalized values,
/// outcomes with remoteness, the winning moves of won positions (fastest
/// first) and the drawing moves of drawn ones.
pub fn loopy_graph(
    out: &mut impl Write,
    format: SumFormat,
    graph: &GameGraph,
    values: &[grundy::solve::LoopyValue],
    plain: &grundy::solve::Retrograde,
) -> Result<(), Failure> {
    use grundy::solve::Outcome;
    let moves = |p: usize| -> Vec<(usize, Option<&str>)> {
        let keep = match plain.outcomes[p] {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => return Vec::new(),
        };
        let mut listed: Vec<(usize, Option<&str>)> = graph
            .moves(p)
            .filter(|&(q, _)| plain.outcomes[q] == keep)
            .collect();
        listed.sort_by_key(|&(q, _)| plain.remoteness[q]);
        listed
    };
    let count = |o: Outcome| plain.outcomes.iter().filter(|&&x| x == o).count();
    match format {
        SumFormat::Json => {
            let positions: Vec<serde_json::Value> = (0..graph.len())
                .map(|p| {
                    let mut entry = loopy_json(&values[p]);
                    entry["name"] = graph.name(p).into();
                    entry["outcome"] = outcome_name(plain.outcomes[p]).into();
                    entry["remoteness"] = plain.remoteness_of(p).into();
                    let key = if plain.outcomes[p] == Outcome::Draw { "drawing_moves" } else { "winning_moves" };
                    entry[key] = moves(p)
                        .iter()
                        .map(|&(q, label)| serde_json::json!({ "to": graph.name(q), "label": label }))
                        .collect::<Vec<_>>()
                        .into();
                    entry
                })
                .collect();
            json(
                out,
                &serde_json::json!({ "loopy": true, "positions": positions }),
            )
        }
        SumFormat::Text => {
            writeln!(
                out,
                "{} positions, {} moves, with cycles: generalized values (Smith); {} P-positions, {} draws",
                graph.len(),
                graph.edge_count(),
                count(Outcome::Loss),
                count(Outcome::Draw)
            )?;
            let width = name_width(graph);
            for (p, value) in values.iter().enumerate() {
                let (mark, arrow) = match plain.outcomes[p] {
                    Outcome::Win => (format!("win in {}", plain.remoteness[p]), "->"),
                    Outcome::Loss => (format!("loss in {}", plain.remoteness[p]), "->"),
                    Outcome::Draw => ("draw".to_owned(), "~>"),
                };
                write!(
                    out,
                    "{:<width$}  {:>6}  {:<10}",
                    graph.name(p),
                    value.to_string(),
                    mark
                )?;
                for (q, label) in moves(p) {
                    write_move(out, arrow, graph.name(q), label)?;
                }
                writeln!(out)?;
            }
            Ok(())
        }
    }
}

/// Tokens on the positions of a game with cycles (`grundy graph --sum`,
/// `grundy values FILE.rhai --position`), `names[p]` naming position `p`.
pub fn loopy_sum(
    out: &mut impl Write,
    format: SumFormat,
    play: &grundy::session::LoopyPlay,
) -> Result<(), Failure> {
    use grundy::solve::Outcome;
    let (names, values, tokens, sum, remoteness) = (
        &play.names,
        &play.values,
        &play.tokens,
        &play.sum,
        play.remoteness,
    );
    let describe = |&(i, to): &(usize, usize)| serde_json::json!({ "component": i, "from": names[tokens[i]], "to": names[to] });
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({
                "components": tokens.iter().map(|&p| {
                    let mut entry = loopy_json(&values[p]);
                    entry["position"] = names[p].as_str().into();
                    entry
                }).collect::<Vec<_>>(),
                "outcome": outcome_name(sum.outcome),
                "remoteness": remoteness,
                "winning_moves": sum.winning_moves.iter().map(describe).collect::<Vec<_>>(),
                "drawing_moves": sum.drawing_moves.iter().map(describe).collect::<Vec<_>>(),
            }),
        ),
        SumFormat::Text => {
            let shown: Vec<String> = tokens
                .iter()
                .map(|&p| format!("{}:{}", names[p], values[p]))
                .collect();
            writeln!(out, "tokens (position:value) {}", shown.join(" "))?;
            let within = remoteness
                .map(|r| format!(" in {r} moves"))
                .unwrap_or_default();
            match sum.outcome {
                Outcome::Win => writeln!(out, "first player wins{within} (Smith's theorem)")?,
                Outcome::Loss => writeln!(out, "second player wins{within} (Smith's theorem)")?,
                Outcome::Draw => writeln!(
                    out,
                    "draw: neither player can force a win (Smith's theorem)"
                )?,
            }
            for &(i, to) in &sum.winning_moves {
                writeln!(
                    out,
                    "token {} moves {} -> {}",
                    i + 1,
                    names[tokens[i]],
                    names[to]
                )?;
            }
            for &(i, to) in &sum.drawing_moves {
                writeln!(
                    out,
                    "token {} may move {} ~> {} (keeps the draw)",
                    i + 1,
                    names[tokens[i]],
                    names[to]
                )?;
            }
            Ok(())
        }
    }
}

/// `grundy values FILE.rhai --to N` for a script whose heaps can cycle:
/// generalized values and outcomes.
pub fn loopy_heaps(
    out: &mut impl Write,
    format: Format,
    name: &str,
    heaps: &[(u64, grundy::solve::LoopyValue)],
) -> Result<(), Failure> {
    match format {
        Format::Json => json(
            out,
            &serde_json::json!({
                "game": name,
                "loopy": true,
                "heaps": heaps.iter().map(|(n, v)| {
                    let mut entry = loopy_json(v);
                    entry["heap"] = (*n).into();
                    entry["outcome"] = outcome_name(v.outcome()).into();
                    entry
                }).collect::<Vec<_>>(),
            }),
        ),
        Format::Csv => {
            writeln!(out, "heap,value,outcome")?;
            for (n, v) in heaps {
                writeln!(out, "{n},{v},{}", outcome_name(v.outcome()))?;
            }
            Ok(())
        }
        Format::Text => {
            writeln!(
                out,
                "{name}: the game has cycles; generalized values (Smith)"
            )?;
            for (n, v) in heaps {
                writeln!(out, "g({n}) = {v}  {}", outcome_name(v.outcome()))?;
            }
            Ok(())
        }
    }
}

/// `grundy misere GAME --to N`.
pub fn genera(
    out: &mut impl Write,
    format: SumFormat,
    spec: &str,
    canonical: &str,
    genera: &[grundy::analysis::Genus],
) -> Result<(), Failure> {
    let tame_below = genera.iter().take_while(|g| g.is_tame()).count();
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({
                "game": canonical,
                "genera": genera.iter().map(|g| serde_json::json!({
                    "genus": g.to_string(),
                    "normal": g.normal.get(),
                    "misere": g.misere,
                    "tame": g.is_tame(),
                })).collect::<Vec<_>>(),
                "hereditarily_tame_below": tame_below,
            }),
        ),
        SumFormat::Text => {
            let name = if spec.trim() == canonical {
                canonical.to_owned()
            } else {
                format!("{} ({canonical})", spec.trim())
            };
            writeln!(
                out,
                "{name}: genus g^γ0γ1... of heaps 0..={} (γk: misère value with k extra *2)",
                genera.len() - 1
            )?;
            for (n, g) in genera.iter().enumerate() {
                let tame = if g.is_tame() { "tame" } else { "wild" };
                writeln!(out, "{n:>5}  {:<12} {tame}", g.to_string())?;
            }
            match tame_below {
                0 => writeln!(out, "no heap is tame")?,
                n => writeln!(
                    out,
                    "heaps 0..={} are hereditarily tame: their sums play by the misère Nim rule on \
                     normal values",
                    n - 1
                )?,
            }
            Ok(())
        }
    }
}

/// `grundy misere GAME HEAPS...`.
pub fn misere_sum(
    out: &mut impl Write,
    format: SumFormat,
    game: &str,
    heaps: &[usize],
    value: u32,
    moves: &[grundy::analysis::MisereMove],
) -> Result<(), Failure> {
    let winner = if value == 0 { "second" } else { "first" };
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({
                "game": game,
                "play": "misere",
                "heaps": heaps,
                "misere_value": value,
                "winner": winner,
                "winning_moves": moves.iter().map(|m| serde_json::json!({
                    "component": m.component, "from": heaps[m.component], "to": m.to,
                })).collect::<Vec<_>>(),
            }),
        ),
        SumFormat::Text => {
            writeln!(out, "{game}, misère play (the last player to move loses)")?;
            writeln!(out, "{winner} player wins (misère Grundy number {value})")?;
            misere_moves(out, heaps, moves)
        }
    }
}

/// Misère winning moves, one line each: `heap 2 (size 7) becomes 1 + 5`.
fn misere_moves(
    out: &mut impl Write,
    heaps: &[usize],
    moves: &[grundy::analysis::MisereMove],
) -> Result<(), Failure> {
    for m in moves {
        let to = if m.to.is_empty() {
            "nothing".to_owned()
        } else {
            let parts: Vec<String> = m.to.iter().map(usize::to_string).collect();
            parts.join(" + ")
        };
        writeln!(
            out,
            "heap {} (size {}) becomes {to}",
            m.component + 1,
            heaps[m.component]
        )?;
    }
    Ok(())
}

/// `grundy misere GAME --quotient N [HEAPS...]`.
pub fn quotient(
    out: &mut impl Write,
    format: SumFormat,
    game: &str,
    q: &grundy::analysis::MisereQuotient,
    played: Option<&(Vec<usize>, bool, Vec<grundy::analysis::MisereMove>)>,
) -> Result<(), Failure> {
    use grundy::analysis::generator_letter;
    let generators: Vec<(String, usize)> = q
        .heaps
        .iter()
        .enumerate()
        .map(|(g, &h)| (generator_letter(g), h))
        .collect();
    let relations: Vec<String> = q
        .relations()
        .iter()
        .map(|(l, r)| format!("{} = {}", q.spell(l), q.spell(r)))
        .collect();
    let p_portion: Vec<String> = q.p_portion().map(|e| q.spell(q.word(e))).collect();
    let elements: Vec<String> = (0..q.len()).map(|e| q.spell(q.word(e))).collect();
    match format {
        SumFormat::Json => {
            let mut document = serde_json::json!({
                "game": game,
                "generators": generators.iter().map(|(l, h)| serde_json::json!({"letter": l, "heap": h})).collect::<Vec<_>>(),
                "size": q.len(),
                "elements": elements,
                "relations": relations,
                "p_portion": p_portion,
                "fold": q.fold,
            });
            if let Some((heaps, loses, moves)) = played {
                document["heaps"] = serde_json::json!(heaps);
                document["winner"] = (if *loses { "second" } else { "first" }).into();
                document["winning_moves"] = moves
                    .iter()
                    .map(|m| serde_json::json!({"component": m.component, "from": heaps[m.component], "to": m.to}))
                    .collect::<Vec<_>>()
                    .into();
            }
            json(out, &document)
        }
        SumFormat::Text => {
            writeln!(
                out,
                "{game}: misère quotient of heaps up to {} (verified against exhaustive search)",
                q.max_heap
            )?;
            let shown: Vec<String> = generators
                .iter()
                .map(|(l, h)| format!("{l} = heap {h}"))
                .collect();
            writeln!(out, "generators  {}", shown.join(", "))?;
            writeln!(out, "relations   {}", relations.join(", "))?;
            writeln!(out, "size        {}", q.len())?;
            writeln!(out, "P-portion   {}", p_portion.join(", "))?;
            if let Some((heaps, loses, moves)) = played {
                let listed: Vec<String> = heaps.iter().map(usize::to_string).collect();
                writeln!(
                    out,
                    "heaps {}: {} player wins",
                    listed.join(" "),
                    if *loses { "second" } else { "first" }
                )?;
                misere_moves(out, heaps, moves)?;
            }
            Ok(())
        }
    }
}

/// `grundy plot`: what was drawn where.
pub fn plotted(
    out: &mut impl Write,
    format: SumFormat,
    path: &std::path::Path,
    picture: &crate::plot::Picture<'_>,
    drawn: &crate::plot::Drawn,
) -> Result<(), Failure> {
    let period = picture.period.map(
        |(pre, p)| serde_json::json!({ "preperiod": pre, "period": p, "support": picture.support }),
    );
    match format {
        SumFormat::Json => json(
            out,
            &serde_json::json!({
                "file": path.display().to_string(),
                "heaps": picture.values.len(),
                "points": drawn.points,
                "p_marks": drawn.p_marks,
                "p_positions": picture.values.iter().filter(|v| v.is_zero()).count(),
                "period": period,
            }),
        ),
        SumFormat::Text => {
            let p_positions = picture.values.iter().filter(|v| v.is_zero()).count();
            writeln!(
                out,
                "wrote {}: {} heaps as {} marks; {p_positions} P-positions, in {} red marks",
                path.display(),
                picture.values.len(),
                drawn.points,
                drawn.p_marks
            )?;
            if let Some((pre, p)) = picture.period {
                writeln!(out, "period {p}, pre-period {pre} ({})", picture.support)?;
            }
            Ok(())
        }
    }
}
