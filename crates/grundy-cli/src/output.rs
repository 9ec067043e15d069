//! Printing reports as text, JSON or CSV.
//!
//! Every answer is a report of [`grundy::report`], built by the library.
//! JSON is the report itself through serde (the contract other tools rely
//! on; fields are only ever added); text, and CSV for tables, are rendered
//! here from the report's fields. Nothing here computes an answer.

use std::io::{self, Write};

use grundy::report::ScriptParametersReport;
use grundy::report::{
    AnalysisReport, CensusReport, CensusRow, CoinGridReport, CoinMovesReport, CoinRowReport,
    CoinTableReport, CoinValuesReport, ComparisonReport, CountReport, CountedRange,
    FibonacciNimReport, FormulaReport, GeneraReport, GraphReport, GraphSumReport, GridCountReport,
    HackenbushReport, HeapMovesReport, LoopyGraphReport, LoopyHeapsReport, LoopySumReport,
    MazeReport, MisereSumReport, MoveCountReport, MovesByValue, NimFieldReport, NimSumCountReport,
    OutcomesReport, PairMovesReport, PairValuesReport, PartitionCountReport, PartsSumReport,
    PositionMovesReport, PositionSumReport, QuotientReport, RecordRun, RowFormat,
    StreamHistogramReport, StreamValuesReport, StreamVerifyReport, SumReport, ValueCount,
    ValuesReport, write_rows,
};
use grundy::session::{CountAnswer, MovesAnswer, Outcome, Tuples};
use grundy::spec::CatalogueEntry;
use serde::Serialize;

use crate::Failure;
use crate::cli::{Format, SumFormat};

/// A report the CLI prints: JSON through serde, text and CSV here.
pub trait Render: Serialize {
    /// The report for people.
    fn text(&self, out: &mut dyn Write) -> io::Result<()>;

    /// The report as CSV, for reports that are tables; others print their
    /// text.
    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        self.text(out)
    }

    /// The report as an OEIS b-file (`n a(n)` lines), for reports that are
    /// sequences of values; `None` for others.
    fn bfile(&self, _out: &mut dyn Write) -> Option<io::Result<()>> {
        None
    }

    /// The report as a LaTeX `tabular`, for reports that are tables;
    /// `None` for others.
    fn latex(&self, _out: &mut dyn Write) -> Option<io::Result<()>> {
        None
    }
}

impl From<SumFormat> for Format {
    fn from(format: SumFormat) -> Format {
        match format {
            SumFormat::Text => Format::Text,
            SumFormat::Json => Format::Json,
        }
    }
}

/// Prints `report` in `format`: the one formatter of every command.
pub fn print(
    out: &mut impl Write,
    format: impl Into<Format>,
    report: &impl Render,
) -> Result<(), Failure> {
    match format.into() {
        Format::Json => {
            serde_json::to_writer(&mut *out, report).map_err(|e| Failure::Io(e.into()))?;
            writeln!(out)?;
        }
        Format::Text => report.text(out)?,
        Format::Csv => report.csv(out)?,
        Format::Bfile => report.bfile(out).ok_or_else(|| {
            Failure::Input(
                "--format bfile writes a sequence of values: `grundy values` or `grundy stream \
                 values`"
                    .into(),
            )
        })??,
        Format::Latex => report.latex(out).ok_or_else(|| {
            Failure::Input(
                "--format latex writes a table: `grundy values` or `grundy census`".into(),
            )
        })??,
    }
    Ok(())
}

/// `grundy games`.
pub fn catalogue(
    out: &mut impl Write,
    format: SumFormat,
    entries: &'static [CatalogueEntry],
) -> Result<(), Failure> {
    print(out, format, &Catalogue(entries))
}

/// The catalogue as a report.
#[derive(Serialize)]
#[serde(transparent)]
struct Catalogue(&'static [CatalogueEntry]);

impl Render for Catalogue {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let (named, families): (Vec<&CatalogueEntry>, Vec<&CatalogueEntry>) =
            self.0.iter().partition(|e| e.code.is_some());
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

/// `kayles` or `kayles (0.77)`.
fn titled(written: &str, canonical: &str) -> String {
    if written == canonical {
        written.to_owned()
    } else {
        format!("{written} ({canonical})")
    }
}

/// `first player wins (nim-sum 3)`.
fn winner_line(
    out: &mut dyn Write,
    winner: grundy::Winner,
    nim_sum: grundy::Nimber,
) -> io::Result<()> {
    writeln!(out, "{} player wins (nim-sum {nim_sum})", winner.as_str())
}

/// Items joined by `separator`.
fn joined<T: std::fmt::Display>(items: &[T], separator: &str) -> String {
    items
        .iter()
        .map(T::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}

/// The first `limit` items separated by spaces, then `...` if the list
/// (of `total` items) has more.
fn listing_of<T: std::fmt::Display>(items: &[T], total: usize, limit: usize) -> String {
    let shown = joined(&items[..items.len().min(limit)], " ");
    if total > limit { shown + " ..." } else { shown }
}

/// `": a b c ..."` for a list of `total` whose first items are `items`, or
/// nothing for an empty one.
fn colon_listing<T: std::fmt::Display>(items: &[T], total: usize, limit: usize) -> String {
    if total == 0 {
        String::new()
    } else {
        format!(": {}", listing_of(items, total, limit))
    }
}

impl Render for ValuesReport<'_> {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        values_text(self, false, out)
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        values_csv(self, false, out)
    }

    fn bfile(&self, out: &mut dyn Write) -> Option<io::Result<()>> {
        Some(bfile_lines(0, self.values.iter(), out))
    }

    fn latex(&self, out: &mut dyn Write) -> Option<io::Result<()>> {
        Some(values_latex(self, false, out))
    }
}

/// A table of values written as nimbers (`grundy values --star`): `0`,
/// `*`, `*2`, ... in text, CSV and LaTeX; JSON and b-files keep numbers.
#[derive(Serialize)]
#[serde(transparent)]
pub struct Starred<'r, 'a>(pub &'r ValuesReport<'a>);

impl Render for Starred<'_, '_> {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        values_text(self.0, true, out)
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        values_csv(self.0, true, out)
    }

    fn bfile(&self, out: &mut dyn Write) -> Option<io::Result<()>> {
        self.0.bfile(out)
    }

    fn latex(&self, out: &mut dyn Write) -> Option<io::Result<()>> {
        Some(values_latex(self.0, true, out))
    }
}

/// A value as a number or, with `star`, as a nimber.
fn written(value: grundy::Nimber, star: bool) -> String {
    if star {
        format!("{value:#}")
    } else {
        value.to_string()
    }
}

/// Rows of ten values, each after its first heap.
fn values_text(report: &ValuesReport, star: bool, out: &mut dyn Write) -> io::Result<()> {
    let last = report.values.len().saturating_sub(1);
    writeln!(
        out,
        "{}: g(0..={last})",
        titled(&report.game, &report.canonical)
    )?;
    let index_width = last.to_string().len();
    let value_width = report.values.max().map_or(1, |v| written(v, star).len());
    for (n, v) in report.values.iter().enumerate() {
        if n % 10 == 0 {
            write!(out, "{n:>index_width$}:")?;
        }
        write!(out, " {:>value_width$}", written(v, star))?;
        if n % 10 == 9 || n == last {
            writeln!(out)?;
        }
    }
    Ok(())
}

fn values_csv(report: &ValuesReport, star: bool, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "heap,value")?;
    for (n, v) in report.values.iter().enumerate() {
        writeln!(out, "{n},{}", written(v, star))?;
    }
    Ok(())
}

/// `n a(n)` lines from heap `from` on, as OEIS b-files hold a sequence.
fn bfile_lines(
    from: u64,
    values: impl Iterator<Item = grundy::Nimber>,
    out: &mut dyn Write,
) -> io::Result<()> {
    for (n, v) in (from..).zip(values) {
        writeln!(out, "{n} {v}")?;
    }
    Ok(())
}

/// `text` with LaTeX's special characters escaped, as codes such as
/// `0.{2+}` or `4&12;` need.
fn latex_text(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '~' => escaped.push_str("\\textasciitilde{}"),
            '^' => escaped.push_str("\\textasciicircum{}"),
            '\\' => escaped.push_str("\\textbackslash{}"),
            _ => escaped.push(c),
        }
    }
    escaped
}

/// A `tabular` of ten values a row: heap `10r + c` in row `r`, column `c`.
fn values_latex(report: &ValuesReport, star: bool, out: &mut dyn Write) -> io::Result<()> {
    let last = report.values.len().saturating_sub(1);
    writeln!(
        out,
        "% {}: g(0..={last})",
        titled(&report.game, &report.canonical)
    )?;
    writeln!(out, "\\begin{{tabular}}{{r|*{{10}}{{c}}}}")?;
    let columns: Vec<String> = (0..10).map(|c| c.to_string()).collect();
    writeln!(out, "$n$ & {} \\\\ \\hline", columns.join(" & "))?;
    let values: Vec<grundy::Nimber> = report.values.iter().collect();
    for (row, chunk) in values.chunks(10).enumerate() {
        let mut cells: Vec<String> = chunk
            .iter()
            .map(|&v| format!("${}$", written(v, star)))
            .collect();
        cells.resize(10, String::new());
        writeln!(out, "{} & {} \\\\", row * 10, cells.join(" & "))?;
    }
    writeln!(out, "\\end{{tabular}}")
}

impl Render for PairValuesReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let last = self.values.len().saturating_sub(1);
        writeln!(
            out,
            "{}: g(a, b) for 0 <= a, b <= {last} (row a, column b)",
            self.game
        )?;
        let width = self
            .values
            .iter()
            .flatten()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1)
            .max(last.to_string().len());
        write!(out, "{:>width$} |", "")?;
        for b in 0..self.values.len() {
            write!(out, " {b:>width$}")?;
        }
        writeln!(out)?;
        for (a, row) in self.values.iter().enumerate() {
            write!(out, "{a:>width$} |")?;
            for v in row {
                write!(out, " {v:>width$}")?;
            }
            writeln!(out)?;
        }
        Ok(())
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "a,b,value")?;
        for (a, row) in self.values.iter().enumerate() {
            for (b, v) in row.iter().enumerate() {
                writeln!(out, "{a},{b},{v}")?;
            }
        }
        Ok(())
    }
}

impl Render for LoopyHeapsReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{}: the game has cycles; generalized values (Smith)",
            self.game
        )?;
        for h in &self.heaps {
            writeln!(out, "g({}) = {}  {}", h.heap, h.value, h.outcome.as_str())?;
        }
        Ok(())
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "heap,value,outcome")?;
        for h in &self.heaps {
            writeln!(out, "{},{},{}", h.heap, h.value, h.outcome.as_str())?;
        }
        Ok(())
    }
}

impl Render for AnalysisReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let to = self.computed_to;
        if self.to > to {
            writeln!(
                out,
                "{}, g(0..={}) through the proven period (computed g(0..={to}))",
                titled(&self.game, &self.canonical),
                self.to
            )?;
        } else {
            writeln!(
                out,
                "{}, computed g(0..={to})",
                titled(&self.game, &self.canonical)
            )?;
        }
        writeln!(
            out,
            "values       {}",
            listing_of(&self.first_values, self.to.saturating_add(1), 40)
        )?;
        match (self.period, self.preperiod, self.saltus) {
            (Some(period), Some(preperiod), Some(saltus)) => {
                let kind = if saltus == 0 {
                    period.to_string()
                } else {
                    format!("{period} (arithmetic, saltus {saltus})")
                };
                let how = match (self.theorem, self.last_heap_needed) {
                    (Some(theorem), Some(needed)) => {
                        format!("PROVEN by the {theorem}, using g(0..={needed})")
                    }
                    _ if self.by_closed_form() => {
                        "PROVEN: the values follow this game's closed-form theorem".to_owned()
                    }
                    _ => match (self.applicable_theorem, self.heaps_needed_for_proof) {
                        (Some(theorem), Some(needed)) => format!(
                            "observed up to {to}, not proven: the {theorem} needs g(0..={needed}) \
                             (rerun with --to {needed})"
                        ),
                        (Some(_), None) => format!("observed up to {to}, not proven"),
                        (None, _) => format!(
                            "observed up to {to}, not proven (no periodicity theorem applies \
                             to this game)"
                        ),
                    },
                };
                writeln!(out, "period       {kind}, pre-period {preperiod}: {how}")?;
                writeln!(
                    out,
                    "repeats      {}",
                    listing_of(&self.repeats, period, 60)
                )?;
                if saltus == 0 {
                    writeln!(
                        out,
                        "exceptions   {} heap(s) before {preperiod} break the period{}",
                        self.exceptions.count,
                        colon_listing(&self.exceptions.first, self.exceptions.count, 20)
                    )?;
                }
            }
            _ => match &self.record {
                Some(record) => writeln!(
                    out,
                    "period       none found in g(0..={to}) (periods up to {} searched)",
                    record.period_window / 2
                )?,
                None => writeln!(out, "period       none found in g(0..={to})")?,
            },
        }
        writeln!(
            out,
            "largest      {}, first at heap {}",
            self.max_value, self.max_value_at
        )?;
        writeln!(
            out,
            "P-positions  {} in 0..={}{}",
            self.p_positions.count,
            self.to,
            colon_listing(&self.p_positions.first, self.p_positions.count, 20)
        )?;
        let histogram: Vec<String> = self
            .histogram
            .iter()
            .map(|[v, c]| format!("{v}:{c}"))
            .collect();
        writeln!(
            out,
            "histogram    {}",
            listing_of(&histogram, histogram.len(), 40)
        )?;
        match &self.record {
            Some(record) => record_run(out, self, record),
            None => Ok(()),
        }
    }
}

/// What a windowed run adds to its analysis: the engine's counters, the
/// stream, and the histogram in Rogalski's format.
fn record_run(out: &mut dyn Write, report: &AnalysisReport, record: &RecordRun) -> io::Result<()> {
    let last = report
        .last_rare
        .map_or("none".to_owned(), |r| r.to_string());
    let split = if report.position_parity == Some(true) {
        ", position parity"
    } else {
        ""
    };
    writeln!(
        out,
        "rare heaps   {} (last {last}; mask {:#x}{split})",
        report.rare_count.unwrap_or(0),
        report.rare_values.unwrap_or(0)
    )?;
    writeln!(
        out,
        "scans        {} heaps, {} pairs; {} ran past the window ({} values read back)",
        report.sparse_scans.unwrap_or(0),
        report.sparse_scan_pairs.unwrap_or(0),
        record.far_scans,
        record.values_read
    )?;
    writeln!(
        out,
        "window       {} bytes at most (windowed run); periods up to {} searched",
        record.window_bytes,
        record.period_window / 2
    )?;
    match &record.stream {
        Some(path) => writeln!(out, "values       {path} (root checksum {})", record.root)?,
        None => writeln!(out, "values       not kept (root checksum {})", record.root)?,
    }
    writeln!(
        out,
        "histogram of heaps 1..={} (value count):",
        report.computed_to
    )?;
    value_counts(out, &record.histogram)
}

impl Render for ComparisonReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let [a, b] = &self.games;
        match &self.first_difference {
            Some(d) => writeln!(
                out,
                "different: first at heap {}, where {a} has {} and {b} has {}",
                d.heap, d.values[0], d.values[1]
            ),
            None if self.proven_equal => writeln!(
                out,
                "equal for every heap: PROVEN (both are proven periodic and agree on \
                 g(0..={}))",
                self.compared_to
            ),
            None => writeln!(
                out,
                "equal on g(0..={}), not proven beyond",
                self.compared_to
            ),
        }
    }
}

impl Render for FormulaReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let last = self.computed_to;
        writeln!(out, "{}, g(0..={last})", self.source)?;
        match (&self.formula, self.formula_from) {
            (Some(formula), Some(from)) => {
                writeln!(out, "values       {formula}")?;
                let from = if from == 0 {
                    "for every heap".to_owned()
                } else {
                    format!(
                        "from heap {from} ({} exception(s) below: {})",
                        self.exceptions.len(),
                        listing_of(&self.exceptions, self.exceptions.len(), 20)
                    )
                };
                let status = if self.proven {
                    "PROVEN for every heap by the proven period".to_owned()
                } else {
                    format!("verified on 0..={last}, a conjecture beyond")
                };
                writeln!(out, "             {from}; {status}")?;
            }
            _ => writeln!(out, "values       no simple formula fits")?,
        }
        match &self.p_positions {
            Some(rule) if self.p_positions_proven => writeln!(
                out,
                "P-positions  {rule}; PROVEN for every heap by the proven period"
            ),
            Some(rule) => writeln!(
                out,
                "P-positions  {rule} (verified on 0..={last}, a conjecture beyond)"
            ),
            None => {
                let zeros = &self.p_position_list;
                writeln!(
                    out,
                    "P-positions  {} in 0..={last}, no simple rule found{}",
                    zeros.len(),
                    colon_listing(zeros, zeros.len(), 20)
                )
            }
        }
    }
}

impl Render for CountReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{}, heaps {}..={}: {} heaps, {}",
            self.game, self.from, self.to, self.heaps, self.source
        )?;
        writeln!(
            out,
            "P-positions (value 0): {}; N-positions: {}",
            self.p_positions, self.n_positions
        )?;
        writeln!(out, "value  heaps")?;
        for (v, c) in &self.histogram {
            writeln!(out, "{v:<5}  {c}")?;
        }
        Ok(())
    }
}

impl Render for MovesAnswer {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            MovesAnswer::Heaps(report) => report.text(out),
            MovesAnswer::Pairs(report) => report.text(out),
            MovesAnswer::Positions(report) => report.text(out),
            MovesAnswer::Coins(report) => report.text(out),
        }
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            MovesAnswer::Heaps(report) => report.csv(out),
            MovesAnswer::Pairs(report) => report.csv(out),
            MovesAnswer::Positions(report) => report.csv(out),
            MovesAnswer::Coins(report) => report.csv(out),
        }
    }
}

/// A winning move of a script's position: the positions it leaves side
/// by side, or `nothing` where it leaves none.
fn leaves(positions: &[String]) -> String {
    if positions.is_empty() {
        "nothing".to_owned()
    } else {
        positions.join(" + ")
    }
}

impl Render for CoinMovesReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let span = match self.grid {
            true => format!("a lone head on each coin (x, y) with x, y <= {}", self.to),
            false => format!("a lone head on each coin 1..={}", self.to),
        };
        writeln!(
            out,
            "{}, {span}: {} winning moves (moves to value 0)",
            self.game, self.winning_moves
        )?;
        if let Some(rows) = &self.coins {
            match self.grid {
                true => writeln!(out, "x     y     value  winning")?,
                false => writeln!(out, "coin    value  winning")?,
            }
            for row in rows {
                match row.row {
                    Some(y) => writeln!(
                        out,
                        "{:<5} {:<5} {:<6} {}",
                        row.coin, y, row.value, row.winning_moves
                    )?,
                    None => writeln!(
                        out,
                        "{:<7} {:<6} {}",
                        row.coin, row.value, row.winning_moves
                    )?,
                }
            }
        }
        by_value_lines(out, &self.by_value, "coins")
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        let Some(rows) = &self.coins else {
            return by_value_csv(out, &self.by_value, "coins");
        };
        match self.grid {
            true => writeln!(out, "x,y,value,winning_moves")?,
            false => writeln!(out, "coin,value,winning_moves")?,
        }
        for row in rows {
            match row.row {
                Some(y) => writeln!(out, "{},{y},{},{}", row.coin, row.value, row.winning_moves)?,
                None => writeln!(out, "{},{},{}", row.coin, row.value, row.winning_moves)?,
            }
        }
        Ok(())
    }
}

impl Render for PositionMovesReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{}, the {} positions reachable from {}: {} winning moves (moves to value 0)",
            self.game,
            self.position_count,
            self.starts.join(", "),
            self.winning_moves
        )?;
        if let Some(rows) = &self.positions {
            let width = rows
                .iter()
                .map(|row| row.position.len())
                .max()
                .unwrap_or(0)
                .max("position".len());
            writeln!(out, "{:<width$}  value  winning  to", "position")?;
            for row in rows {
                let to: Vec<String> = row.moves.iter().map(|m| leaves(m)).collect();
                let to = if to.is_empty() {
                    "-".to_owned()
                } else {
                    to.join(", ")
                };
                writeln!(
                    out,
                    "{:<width$}  {:<6} {:<8} {to}",
                    row.position, row.value, row.winning_moves,
                )?;
            }
        }
        by_value_lines(out, &self.by_value, "positions")
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        match &self.positions {
            Some(rows) => {
                writeln!(out, "position,value,winning_moves,to")?;
                for row in rows {
                    let to: Vec<String> = row.moves.iter().map(|m| leaves(m)).collect();
                    writeln!(
                        out,
                        "\"{}\",{},{},\"{}\"",
                        row.position,
                        row.value,
                        row.winning_moves,
                        to.join("; ")
                    )?;
                }
            }
            None => by_value_csv(out, &self.by_value, "positions")?,
        }
        Ok(())
    }
}

impl Render for PairMovesReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{}, positions (a, b) with a, b <= {}: {} winning moves (moves to value 0)",
            self.game, self.to, self.winning_moves
        )?;
        if let Some(rows) = &self.positions {
            writeln!(out, "a     b     value  winning  fewest taken  most taken")?;
            for row in rows {
                writeln!(
                    out,
                    "{:<5} {:<5} {:<6} {:<8} {:<13} {}",
                    row.a,
                    row.b,
                    row.value,
                    row.winning_moves,
                    taken(row.fewest_taken, "-"),
                    taken(row.most_taken, "-")
                )?;
            }
        }
        by_value_lines(out, &self.by_value, "positions")
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        let Some(rows) = &self.positions else {
            return by_value_csv(out, &self.by_value, "positions");
        };
        writeln!(out, "a,b,value,winning_moves,fewest_taken,most_taken")?;
        for row in rows {
            writeln!(
                out,
                "{},{},{},{},{},{}",
                row.a,
                row.b,
                row.value,
                row.winning_moves,
                taken(row.fewest_taken, ""),
                taken(row.most_taken, "")
            )?;
        }
        Ok(())
    }
}

/// Tokens a winning move takes, as a table shows them: `none` where there
/// is no winning move (`-` in text, an empty CSV cell).
fn taken(tokens: Option<i64>, none: &str) -> String {
    tokens.map_or_else(|| none.to_owned(), |t| t.to_string())
}

/// The counts of a winning-move table by value: `what` (heaps or
/// positions) of each value, and their winning moves.
fn by_value_lines(out: &mut dyn Write, by_value: &[MovesByValue], what: &str) -> io::Result<()> {
    let width = by_value
        .iter()
        .map(|t| t.heaps.to_string().len())
        .max()
        .unwrap_or(0)
        .max(what.len());
    writeln!(out, "value   {what:<width$}   winning moves")?;
    for t in by_value {
        let heaps = t.heaps.to_string();
        writeln!(out, "{:<7} {heaps:<width$}   {}", t.value, t.winning_moves)?;
    }
    Ok(())
}

/// The counts of a winning-move table by value as CSV: `what` (heaps or
/// positions) of each value, and their winning moves.
fn by_value_csv(out: &mut dyn Write, by_value: &[MovesByValue], what: &str) -> io::Result<()> {
    writeln!(out, "value,{what},winning_moves")?;
    for t in by_value {
        writeln!(out, "{},{},{}", t.value, t.heaps, t.winning_moves)?;
    }
    Ok(())
}

impl Render for HeapMovesReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{}, heaps {}..={}: {} winning moves (moves to value 0), {}",
            self.game, self.from, self.to, self.winning_moves, self.source
        )?;
        if let Some(rows) = &self.heaps {
            writeln!(out, "heap    value  winning  fewest taken  most taken")?;
            for row in rows {
                writeln!(
                    out,
                    "{:<7} {:<6} {:<8} {:<13} {}",
                    row.heap,
                    row.value,
                    row.winning_moves,
                    taken(row.fewest_taken, "-"),
                    taken(row.most_taken, "-")
                )?;
            }
        }
        by_value_lines(out, &self.by_value, "heaps")
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        match &self.heaps {
            Some(rows) => {
                writeln!(out, "heap,value,winning_moves,fewest_taken,most_taken")?;
                for row in rows {
                    writeln!(
                        out,
                        "{},{},{},{},{}",
                        row.heap,
                        row.value,
                        row.winning_moves,
                        taken(row.fewest_taken, ""),
                        taken(row.most_taken, "")
                    )?;
                }
            }
            None => by_value_csv(out, &self.by_value, "heaps")?,
        }
        Ok(())
    }
}

/// The P- and N-position lines of a count.
fn outcome_counts(
    out: &mut dyn Write,
    p: &dyn std::fmt::Display,
    n: &dyn std::fmt::Display,
    modulo: &str,
) -> io::Result<()> {
    writeln!(
        out,
        "P-positions (nim-sum 0, the player to move loses): {p}{modulo}"
    )?;
    writeln!(out, "N-positions (the player to move wins): {n}{modulo}")
}

impl Render for CountAnswer {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            CountAnswer::Heaps(report) => report.text(out),
            CountAnswer::Positions(report) => report.text(out),
            CountAnswer::Coins(report) => report.text(out),
            CountAnswer::Partitions(report) => report.text(out),
        }
    }
}

impl Render for PartitionCountReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let modulo = self
            .modulus
            .map_or(String::new(), |m| format!(" (mod {m})"));
        let parts = self.heaps.map_or(String::new(), |k| format!("{k} "));
        let distinct = if self.distinct { "distinct " } else { "" };
        write!(
            out,
            "partitions of {} into {parts}{distinct}heaps of {}",
            self.partitions_of, self.game
        )?;
        if let Some(parts) = &self.parts {
            write!(
                out,
                ", heap sizes {parts} ({} of them up to {})",
                self.part_sizes, self.partitions_of
            )?;
        }
        writeln!(out, ": {}{modulo}", self.total)?;
        outcome_counts(out, &self.p_positions, &self.n_positions, &modulo)?;
        for (s, c) in self.by_nim_sum.iter().flatten() {
            writeln!(out, "nim-sum {s}: {c}")?;
        }
        Ok(())
    }
}

impl Render for NimSumCountReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let modulo = self
            .modulus
            .map_or(String::new(), |m| format!(" (mod {m})"));
        let positions = &self.positions;
        let heaps = |r: &CountedRange| match (r.from, r.to) {
            (Some(from), Some(to)) => format!("{} in {from}..={to}", r.game),
            _ => format!("the histogram {} ({} heaps)", r.game, r.heaps),
        };
        match &positions.ranges[..] {
            [range] => {
                let order = match positions.order {
                    Tuples::Ordered => "ordered",
                    Tuples::OrderedDistinct => "ordered, distinct heaps",
                    Tuples::Unordered => "unordered (a <= b <= ...)",
                    Tuples::Distinct => "unordered and distinct (a < b < ...)",
                };
                write!(
                    out,
                    "positions of {} heaps of {}, {order}",
                    positions.heaps,
                    heaps(range)
                )?;
            }
            ranges => {
                let each: Vec<String> = ranges.iter().map(heaps).collect();
                write!(
                    out,
                    "positions of one heap from each of {}",
                    each.join(", ")
                )?;
            }
        }
        writeln!(out, ": {}{modulo}", self.total)?;
        for range in &positions.ranges {
            if range.by_formula.is_some() {
                writeln!(out, "{}: {}", range.game, range.source)?;
            }
        }
        outcome_counts(out, &self.p_positions, &self.n_positions, &modulo)?;
        for (s, c) in self.by_nim_sum.iter().flatten() {
            writeln!(out, "nim-sum {s}: {c}")?;
        }
        Ok(())
    }
}

impl Render for SumReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        winner_line(out, self.winner, self.nim_sum)?;
        // Heaps are numbered from 1 for people: `heap 2 (size 10) becomes
        // 9`, `heap 1 (kayles, size 6) becomes 1 + 3`, `heap 3 (size 2) is
        // removed`.
        for m in &self.winning_moves {
            let game = if self.mixes_games() {
                format!("{}, ", self.components[m.component].game)
            } else {
                String::new()
            };
            let result = if m.to.is_empty() {
                "is removed".to_owned()
            } else {
                format!("becomes {}", joined(&m.to, " + "))
            };
            writeln!(
                out,
                "heap {} ({game}size {}) {result}",
                m.component + 1,
                m.from
            )?;
        }
        if !self.complete {
            writeln!(
                out,
                "... {} winning moves in all (the first {} listed)",
                self.winning_move_count,
                self.winning_moves.len()
            )?;
        }
        Ok(())
    }
}

impl Render for PartsSumReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let named = |i: usize| {
            let c = &self.components[i];
            match c.position.as_str() {
                "" => c.game.clone(),
                position => format!("{}:{position}", c.game),
            }
        };
        for (i, c) in self.components.iter().enumerate() {
            writeln!(out, "g({}) = {}", named(i), c.value)?;
        }
        match (self.outcome, self.nim_sum) {
            (Outcome::Draw, _) => writeln!(
                out,
                "draw: neither player can force a win (Smith's theorem)"
            )?,
            (_, Some(nim_sum)) => winner_line(out, grundy::Winner::of(nim_sum), nim_sum)?,
            (Outcome::Win, None) => writeln!(out, "first player wins (Smith's theorem)")?,
            (Outcome::Loss, None) => writeln!(out, "second player wins (Smith's theorem)")?,
        }
        for m in &self.winning_moves {
            writeln!(out, "winning move: {} -> {}", named(m.component), m.to)?;
        }
        for m in &self.drawing_moves {
            let from = named(m.component);
            writeln!(out, "{from} ~> {} (keeps the draw)", m.to)?;
        }
        let listed = self.winning_moves.len() + self.drawing_moves.len();
        match (self.complete, self.move_count) {
            (true, _) => {}
            (false, Some(count)) => {
                writeln!(out, "... {count} moves in all (the first {listed} listed)")?
            }
            (false, None) => writeln!(out, "... and more (the first {listed} listed)")?,
        }
        Ok(())
    }
}

impl Render for PositionSumReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for p in &self.positions {
            writeln!(out, "g({}) = {}", p.position, p.value)?;
        }
        winner_line(out, self.winner, self.nim_sum)?;
        for m in &self.winning_moves {
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

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "position,value")?;
        for p in &self.positions {
            writeln!(out, "\"{}\",{}", p.position, p.value)?;
        }
        Ok(())
    }
}

impl Render for MoveCountReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for c in &self.components {
            let by_value: Vec<String> =
                c.by_value.iter().map(|[v, n]| format!("{v}:{n}")).collect();
            writeln!(
                out,
                "{} {} (value {}): {} moves, by value reached {}",
                c.game,
                c.heap,
                c.value,
                c.moves,
                by_value.join(" ")
            )?;
        }
        writeln!(
            out,
            "{} player wins (nim-sum {}): {} winning moves",
            self.winner.as_str(),
            self.nim_sum,
            self.winning_moves
        )
    }
}

impl Render for NimFieldReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{} = {} (in the nim field)",
            self.expression, self.result
        )
    }
}

impl Render for CoinValuesReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{}: g(1..={})", self.rule, self.values.len())?;
        for (row, chunk) in self.values.chunks(10).enumerate() {
            writeln!(out, "{:>4}: {}", row * 10 + 1, joined(chunk, " "))?;
        }
        Ok(())
    }
}

impl Render for CoinRowReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let heads: Vec<String> = self
            .heads
            .iter()
            .map(|h| format!("{}:{}", h.coin, h.value))
            .collect();
        writeln!(out, "{}, heads (coin:value) {}", self.rule, heads.join(" "))?;
        winner_line(out, self.winner, self.nim_sum)?;
        for m in &self.winning_moves {
            writeln!(out, "turn coins {}", joined(&m.turn, " "))?;
        }
        if !self.complete {
            writeln!(
                out,
                "(the first {} winning moves; there are more)",
                self.winning_moves.len()
            )?;
        }
        Ok(())
    }
}

impl Render for CoinTableReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{}: g(x, y) = g(x) * g(y) (nim-product), row y, column x from 1",
            self.rule
        )?;
        let width = self
            .values
            .iter()
            .flatten()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1);
        for (y, row) in self.values.iter().enumerate() {
            let shown: Vec<String> = row.iter().map(|v| format!("{v:>width$}")).collect();
            writeln!(out, "{:>4} | {}", y + 1, shown.join(" "))?;
        }
        Ok(())
    }
}

impl Render for CoinGridReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let heads: Vec<String> = self
            .heads
            .iter()
            .map(|h| format!("({},{}):{}", h.x, h.y, h.value))
            .collect();
        writeln!(out, "{}, heads (x,y):value {}", self.rule, heads.join(" "))?;
        winner_line(out, self.winner, self.nim_sum)?;
        for m in &self.winning_moves {
            writeln!(
                out,
                "turn the coins in columns {} of rows {}",
                joined(&m.columns, " "),
                joined(&m.rows, " ")
            )?;
        }
        if !self.complete {
            writeln!(
                out,
                "(the first {} winning moves; there are more)",
                self.winning_moves.len()
            )?;
        }
        Ok(())
    }
}

impl Render for GridCountReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let modulo = self
            .modulus
            .map_or(String::new(), |m| format!(" (mod {m})"));
        let board = if !self.rule.contains('*') {
            format!("a row of {} coins", self.columns)
        } else {
            format!("a grid of {} x {} coins", self.columns, self.rows)
        };
        writeln!(
            out,
            "positions (sets of heads) of {board} of {}: {}{modulo}",
            self.rule, self.total
        )?;
        outcome_counts(out, &self.p_positions, &self.n_positions, &modulo)?;
        // A basis 1, 2, 4, ... spans every number below 2^rank.
        let interval = self
            .span_basis
            .iter()
            .enumerate()
            .all(|(i, &v)| v == 1 << i);
        let span = if interval {
            format!("every number below 2^{}", self.rank)
        } else {
            format!("basis {}", joined(&self.span_basis, " "))
        };
        writeln!(
            out,
            "the coins' values span 2^{} nim-sums ({span}); each has {} positions{modulo}, \
             every other nim-sum none",
            self.rank, self.per_nim_sum
        )?;
        if let Some(asked) = &self.nim_sum {
            writeln!(out, "nim-sum {}: {}{modulo}", asked.value, asked.positions)?;
        }
        for (side, values) in [
            ("columns", &self.columns_values),
            ("rows", &self.rows_values),
        ] {
            if let Some(period) = &values.period {
                writeln!(
                    out,
                    "the {side}' values through the period {} from coin {}, PROVEN by the {} \
                     (coins computed to {})",
                    period.period, period.preperiod, period.theorem, period.computed_to
                )?;
            }
        }
        Ok(())
    }
}

impl Render for HackenbushReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        for (i, p) in self.pictures.iter().enumerate() {
            writeln!(out, "picture {}  {}  value {}", i + 1, p.picture, p.value)?;
        }
        winner_line(out, self.winner, self.nim_sum)?;
        for c in &self.winning_cuts {
            let [a, b] = &c.between;
            writeln!(
                out,
                "cut edge {} ({a} - {b}) of picture {}",
                c.edge,
                c.picture + 1
            )?;
        }
        Ok(())
    }
}

impl Render for FibonacciNimReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "heap {}, take at most {} now, then at most {} times the last take",
            self.heap, self.limit, self.ratio
        )?;
        if let Some(terms) = self.zeckendorf.as_ref().filter(|t| !t.is_empty()) {
            writeln!(out, "zeckendorf   {} = {}", self.heap, joined(terms, " + "))?;
        }
        writeln!(out, "{} player wins", self.winner.as_str())?;
        if !self.winning_takes.is_empty() {
            writeln!(out, "winning takes {}", joined(&self.winning_takes, " "))?;
        }
        Ok(())
    }
}

impl Render for OutcomesReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{}: states 0..{}", self.script, self.states)?;
        let losses = &self.p_positions;
        let first: Vec<u64> = losses.states.0.losses().take(40).collect();
        writeln!(
            out,
            "P-positions  {} (the player to move loses): {}",
            losses.count,
            listing_of(&first, losses.count as usize, 40)
        )?;
        for p in &self.positions {
            match p.winner {
                grundy::Winner::Second => writeln!(out, "state {}: second player wins", p.state)?,
                grundy::Winner::First => writeln!(
                    out,
                    "state {}: first player wins, moving to {}",
                    p.state,
                    joined(&p.winning_moves, " ")
                )?,
            }
        }
        Ok(())
    }

    /// Every P-position, one state a line, streamed.
    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "p_position")?;
        for state in self.p_positions.states.0.losses() {
            writeln!(out, "{state}")?;
        }
        Ok(())
    }
}

impl Render for ScriptParametersReport {
    /// `NAME = value` and the documentation of each, aligned.
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let count = self.parameters.len();
        if count == 0 {
            return writeln!(
                out,
                "{}: no parameters (a constant declared outside its functions, `const NAME = 1;`, \
                 is one)",
                self.script
            );
        }
        let plural = if count == 1 { "" } else { "s" };
        writeln!(
            out,
            "{}: {count} parameter{plural} (set with --define NAME=VALUE)",
            self.script
        )?;
        let assigned: Vec<String> = self
            .parameters
            .iter()
            .map(|p| {
                if p.value == p.default {
                    format!("{} = {}", p.name, p.value)
                } else {
                    format!("{} = {} (the script's: {})", p.name, p.value, p.default)
                }
            })
            .collect();
        let width = assigned
            .iter()
            .map(|a| a.chars().count())
            .max()
            .unwrap_or(0);
        for (p, assigned) in self.parameters.iter().zip(&assigned) {
            let doc = if p.doc.is_empty() {
                format!("line {}", p.line)
            } else {
                format!("{} (line {})", p.doc, p.line)
            };
            writeln!(out, "  {assigned:<width$}  {doc}")?;
        }
        Ok(())
    }
}

/// The column width for position names: the longest name, but at most
/// [`MAX_NAME_COLUMN`] (longer names are printed whole and break the
/// alignment rather than the formatter, whose widths stop at 2^16).
fn name_width<'a>(names: impl Iterator<Item = &'a str>) -> usize {
    names
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(0)
        .min(MAX_NAME_COLUMN)
}

/// The widest column a position name is padded to.
const MAX_NAME_COLUMN: usize = 64;

/// `  -> to (label)` after a position in a graph table.
fn write_move(out: &mut dyn Write, arrow: &str, m: &grundy::report::GraphMove) -> io::Result<()> {
    match &m.label {
        Some(label) => write!(out, "  {arrow} {} ({label})", m.to),
        None => write!(out, "  {arrow} {}", m.to),
    }
}

impl Render for GraphReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{} positions, {} moves; {} P-positions (the player to move loses)",
            self.positions.len(),
            self.move_count,
            self.p_positions.len()
        )?;
        let width = name_width(self.positions.iter().map(|p| p.name.as_str()));
        for p in &self.positions {
            write!(out, "{:<width$}  {:>3}", p.name, p.value)?;
            for m in &p.winning_moves {
                write_move(out, "->", m)?;
            }
            writeln!(out)?;
        }
        Ok(())
    }
}

impl Render for GraphSumReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        winner_line(out, self.winner, self.nim_sum)?;
        for m in &self.winning_moves {
            write!(
                out,
                "token {} moves {} -> {}",
                m.component + 1,
                m.from,
                m.to
            )?;
            match &m.label {
                Some(label) => writeln!(out, " ({label})")?,
                None => writeln!(out)?,
            }
        }
        Ok(())
    }
}

impl Render for LoopyGraphReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{} positions, {} moves, with cycles: generalized values (Smith); {} P-positions, {} \
             draws",
            self.positions.len(),
            self.move_count,
            self.loss_count,
            self.draw_count
        )?;
        let width = name_width(self.positions.iter().map(|p| p.name.as_str()));
        for p in &self.positions {
            let (mark, arrow) = match (p.outcome, p.remoteness) {
                (Outcome::Win, Some(r)) => (format!("win in {r}"), "->"),
                (Outcome::Loss, Some(r)) => (format!("loss in {r}"), "->"),
                _ => ("draw".to_owned(), "~>"),
            };
            write!(
                out,
                "{:<width$}  {:>6}  {:<10}",
                p.name,
                p.value.to_string(),
                mark
            )?;
            for m in p.winning_moves.iter().chain(&p.drawing_moves).flatten() {
                write_move(out, arrow, m)?;
            }
            writeln!(out)?;
        }
        Ok(())
    }
}

impl Render for LoopySumReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let shown: Vec<String> = self
            .components
            .iter()
            .map(|t| format!("{}:{}", t.position, t.value))
            .collect();
        writeln!(out, "tokens (position:value) {}", shown.join(" "))?;
        let within = self
            .remoteness
            .map(|r| format!(" in {r} moves"))
            .unwrap_or_default();
        match self.outcome {
            Outcome::Win => writeln!(out, "first player wins{within} (Smith's theorem)")?,
            Outcome::Loss => writeln!(out, "second player wins{within} (Smith's theorem)")?,
            Outcome::Draw => writeln!(
                out,
                "draw: neither player can force a win (Smith's theorem)"
            )?,
        }
        for m in &self.winning_moves {
            writeln!(
                out,
                "token {} moves {} -> {}",
                m.component + 1,
                m.from,
                m.to
            )?;
        }
        for m in &self.drawing_moves {
            writeln!(
                out,
                "token {} may move {} ~> {} (keeps the draw)",
                m.component + 1,
                m.from,
                m.to
            )?;
        }
        Ok(())
    }
}

impl Render for MazeReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let width = self
            .values
            .iter()
            .flatten()
            .flatten()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1);
        for row in &self.values {
            let cells: Vec<String> = row
                .iter()
                .map(|v| match v {
                    Some(v) => format!("{v:>width$}"),
                    None => format!("{:>width$}", "#"),
                })
                .collect();
            writeln!(out, "{}", cells.join(" "))?;
        }
        if self.figures.is_empty() {
            return Ok(());
        }
        winner_line(out, self.winner, self.nim_sum)?;
        for m in &self.winning_moves {
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

/// Misère winning moves, one line each: `heap 2 (size 7) becomes 1 + 5`.
fn misere_moves(out: &mut dyn Write, moves: &[grundy::report::MisereMoveReport]) -> io::Result<()> {
    for m in moves {
        let to = if m.to.is_empty() {
            "nothing".to_owned()
        } else {
            joined(&m.to, " + ")
        };
        writeln!(
            out,
            "heap {} (size {}) becomes {to}",
            m.component + 1,
            m.from
        )?;
    }
    Ok(())
}

impl Render for MisereSumReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{}, misère play (the last player to move loses)",
            self.game
        )?;
        writeln!(
            out,
            "{} player wins (misère Grundy number {})",
            self.winner.as_str(),
            self.misere_value
        )?;
        misere_moves(out, &self.winning_moves)
    }
}

/// [`GeneraReport`] with the game as the user wrote it, for the title.
#[derive(Serialize)]
#[serde(transparent)]
pub struct Genera<'a> {
    /// The report.
    pub report: &'a GeneraReport,
    /// The game as written.
    #[serde(skip)]
    pub written: &'a str,
}

impl Render for Genera<'_> {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let report = self.report;
        writeln!(
            out,
            "{}: genus g^γ0γ1... of heaps 0..={} (γk: misère value with k extra *2)",
            titled(self.written.trim(), &report.game),
            report.genera.len().saturating_sub(1)
        )?;
        for (n, g) in report.genera.iter().enumerate() {
            let tame = if g.tame { "tame" } else { "wild" };
            writeln!(out, "{n:>5}  {:<12} {tame}", g.genus)?;
        }
        match report.hereditarily_tame_below {
            0 => writeln!(out, "no heap is tame"),
            n => writeln!(
                out,
                "heaps 0..={} are hereditarily tame: their sums play by the misère Nim rule on \
                 normal values",
                n - 1
            ),
        }
    }
}

impl Render for QuotientReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{}: misère quotient of heaps up to {} (verified against exhaustive search)",
            self.game, self.max_heap
        )?;
        let generators: Vec<String> = self
            .generators
            .iter()
            .map(|g| format!("{} = heap {}", g.letter, g.heap))
            .collect();
        writeln!(out, "generators  {}", generators.join(", "))?;
        writeln!(out, "relations   {}", self.relations.join(", "))?;
        writeln!(out, "size        {}", self.size)?;
        writeln!(out, "P-portion   {}", self.p_portion.join(", "))?;
        if let (Some(heaps), Some(winner), Some(moves)) =
            (&self.heaps, self.winner, &self.winning_moves)
        {
            writeln!(
                out,
                "heaps {}: {} player wins",
                joined(heaps, " "),
                winner.as_str()
            )?;
            misere_moves(out, moves)?;
        }
        Ok(())
    }
}

/// What `grundy plot` drew where.
#[derive(Serialize)]
pub struct Plotted {
    /// The file written.
    pub file: String,
    /// How many heaps were drawn.
    pub heaps: usize,
    /// How many marks.
    pub points: usize,
    /// How many of them mark P-positions.
    pub p_marks: usize,
    /// How many of them mark rare values.
    pub rare_marks: usize,
    /// How many heaps are P-positions.
    pub p_positions: usize,
    /// The mask of the rare/common split of the values, when they split.
    pub rare_mask: Option<u32>,
    /// The period drawn, when there is one.
    pub period: Option<grundy::report::PlottedPeriod>,
}

impl Render for Plotted {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "wrote {}: {} heaps as {} marks; {} P-positions, in {} red marks",
            self.file, self.heaps, self.points, self.p_positions, self.p_marks
        )?;
        if let Some(mask) = self.rare_mask {
            writeln!(
                out,
                "rare values (mask {mask}) in {} orange marks",
                self.rare_marks
            )?;
        }
        if let Some(p) = &self.period {
            writeln!(
                out,
                "period {}, pre-period {} ({})",
                p.period, p.preperiod, p.support
            )?;
        }
        Ok(())
    }
}

/// `grundy census`: the summary as text, one JSON object per game per line
/// (the rows), one CSV line per game, or Markdown tables.
pub fn census(
    out: &mut impl Write,
    how: &crate::cli::CensusPrint,
    report: CensusReport,
) -> Result<(), Failure> {
    if how.markdown {
        return print(out, Format::Text, &CensusMarkdown(report));
    }
    match how.format {
        Format::Json => write_rows(out, &report.rows, RowFormat::JsonLines).map_err(Failure::Io),
        Format::Csv => write_rows(out, &report.rows, RowFormat::Csv).map_err(Failure::Io),
        format => print(out, format, &report),
    }
}

/// A value or `-`.
fn or_dash<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

/// A row's stop reason as the JSON spells it, or empty.
fn stopped_label(row: &CensusRow) -> String {
    row.stopped
        .and_then(|s| serde_json::to_value(s).ok())
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

impl Render for CensusReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{} games", self.rows.len())?;
        let largest = |found: &Option<(String, usize)>| {
            found
                .as_ref()
                .map_or_else(String::new, |(game, n)| format!("{n} ({game})"))
        };
        writeln!(
            out,
            "proven: {} (largest pre-period {}, largest period {})",
            self.proven,
            largest(&self.largest_preperiod),
            largest(&self.largest_period)
        )?;
        writeln!(
            out,
            "observed only: {}; no period seen: {}",
            self.observed, self.aperiodic
        )?;
        writeln!(
            out,
            "stopped by the time budget: {}; by the memory budget: {}",
            self.stopped_time, self.stopped_memory
        )?;
        writeln!(
            out,
            "classes: {} ({} with more than one game)",
            self.class_count,
            self.classes.len()
        )?;
        for class in &self.classes {
            let how = if class.proven { "proven" } else { "observed" };
            writeln!(out, "  {}: {} ({how})", class.name, class.members.join(" "))?;
        }
        writeln!(
            out,
            "\n{:<10} {:>10} {:>8} {:>9} {:>10} {:>8}  {:<10} stopped",
            "game", "preperiod", "period", "proven", "to heap", "largest", "class"
        )?;
        for row in &self.rows {
            let class = match row.class_offset {
                0 => or_dash(row.class.as_deref()),
                k => format!("{} {k:+}", or_dash(row.class.as_deref())),
            };
            writeln!(
                out,
                "{:<10} {:>10} {:>8} {:>9} {:>10} {:>8}  {:<10} {}",
                row.game,
                or_dash(row.preperiod),
                or_dash(row.period),
                if row.proven { "yes" } else { "no" },
                row.computed_to,
                row.max_value,
                class,
                stopped_label(row)
            )?;
        }
        Ok(())
    }

    /// One row a game: pre-period, period (with its proof), largest value
    /// and its first heap, and the class of equal value sequences.
    fn latex(&self, out: &mut dyn Write) -> Option<io::Result<()>> {
        let mut table = || -> io::Result<()> {
            writeln!(out, "\\begin{{tabular}}{{lrrlrl}}")?;
            writeln!(
                out,
                "game & pre-period & period & proof & largest value (heap) & class \\\\ \\hline"
            )?;
            for row in &self.rows {
                writeln!(
                    out,
                    "{} & {} & {} & {} & {} ({}) & {} \\\\",
                    latex_text(&row.game),
                    or_dash(row.preperiod),
                    match (row.period, row.saltus) {
                        (Some(p), Some(s)) if s > 0 => format!("{p} (saltus {s})"),
                        (period, _) => or_dash(period),
                    },
                    row.support,
                    row.max_value,
                    row.max_value_at,
                    latex_text(row.class.as_deref().unwrap_or("-")),
                )?;
            }
            writeln!(out, "\\end{{tabular}}")
        };
        Some(table())
    }
}

/// A census as Markdown tables in the shape of Czajka's SolvedGames.md
/// (proven games) and UnsolvedGames.md (the others), games spelled as he
/// spells them.
#[derive(Serialize)]
#[serde(transparent)]
struct CensusMarkdown(CensusReport);

impl Render for CensusMarkdown {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let spell = grundy::report::czajka_spelling;
        let sparse = |r: &CensusRow| {
            let mask = match (r.rare_mask, r.position_parity) {
                (Some(m), Some(true)) => format!("{m:x}+pos"),
                (Some(m), _) => format!("{m:x}"),
                _ => String::new(),
            };
            let count = r.rare_count.map_or_else(String::new, |c| c.to_string());
            let last = r.last_rare.map_or_else(String::new, |c| c.to_string());
            format!("{mask} | {count} | {last}")
        };
        writeln!(out, "# Solved games\n")?;
        writeln!(
            out,
            "game  | prefix | period | largest idx | largest | rare mask | num rare | last rare | class"
        )?;
        writeln!(
            out,
            ":---  | -----: | -----: | ----------: | ------: | --------: | -------: | --------: | :----"
        )?;
        for r in self.0.rows.iter().filter(|r| r.proven) {
            writeln!(
                out,
                "{} | {} | {} | {} | {} | {} | {}",
                spell(&r.game),
                or_dash(r.preperiod),
                or_dash(r.period),
                r.max_value_at,
                r.max_value,
                sparse(r),
                r.class.as_deref().map_or_else(String::new, spell)
            )?;
        }
        writeln!(out, "\n# Unsolved games\n")?;
        writeln!(
            out,
            "game  | n | largest idx | largest | rare mask | num rare | last rare | stopped"
        )?;
        writeln!(
            out,
            ":---  | ---: | ----------: | ------: | --------: | -------: | --------: | :----"
        )?;
        for r in self.0.rows.iter().filter(|r| !r.proven) {
            writeln!(
                out,
                "{} | {} | {} | {} | {} | {}",
                spell(&r.game),
                r.computed_to,
                r.max_value_at,
                r.max_value,
                sparse(r),
                stopped_label(r)
            )?;
        }
        Ok(())
    }
}

/// `value count` lines, as Rogalski publishes histograms.
fn value_counts(out: &mut dyn Write, histogram: &[ValueCount]) -> io::Result<()> {
    for ValueCount { value, count } in histogram {
        writeln!(out, "{value} {count}")?;
    }
    Ok(())
}

impl Render for StreamHistogramReport {
    /// Exactly Rogalski's format, for `diff` against the published files.
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        value_counts(out, &self.histogram)
    }
}

impl Render for StreamValuesReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let values = self.values.iter().map(|&v| grundy::Nimber::new(v));
        bfile_lines(self.from, values, out)
    }

    fn bfile(&self, out: &mut dyn Write) -> Option<io::Result<()>> {
        Some(self.text(out))
    }

    fn csv(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "heap,value")?;
        for (n, v) in (self.from..).zip(&self.values) {
            writeln!(out, "{n},{v}")?;
        }
        Ok(())
    }
}

impl Render for StreamVerifyReport {
    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let [a, b] = self.checked;
        let [from, to] = self.heaps_checked;
        write!(
            out,
            "ok: {} heaps of {}; chunks {a}..{b} (heaps {from}..{to}) match their checksums, and \
             the root ({}) every chunk's",
            self.heaps, self.game, self.root
        )?;
        match (self.recomputed, self.heaps_recomputed, self.recomputed_from) {
            (Some([a, b]), Some([from, to]), Some(start)) => writeln!(
                out,
                "; chunks {a}..{b} (heaps {from}..{to}) computed again from heap {start} and equal"
            ),
            _ => writeln!(out, " (values not recomputed: --recompute)"),
        }
    }
}
