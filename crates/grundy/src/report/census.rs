//! A census: one row per game of a family (`grundy census … --format
//! json`, one row per line), and the summary of a family.
//!
//! The rows are what a census writes as it goes and reads back when it
//! resumes or merges shards, so they deserialize too. Rows are built by
//! [`crate::analysis::census_game`] and their classes filled in by
//! [`crate::analysis::classify`].

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// Why a game's analysis stopped short of a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stopped {
    /// `--max` was reached without a proof.
    Max,
    /// The per-game time budget ran out (`--time-per-game`).
    Time,
    /// The next table would not fit the memory budget (`--memory-limit`).
    Memory,
}

/// Fingerprints of a game's values over the first `heaps` heaps, for
/// grouping games into classes without keeping their values: `same` is a
/// hash of `g(0..heaps)`, `shifted` of `g(1..=heaps)` (the offset of
/// Czajka's `GameLookup.md`). Hex of two 61-bit polynomial hashes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Digest {
    /// How many values were hashed.
    pub heaps: u64,
    /// Hash of `g(0), …, g(heaps - 1)`.
    pub same: String,
    /// Hash of `g(1), …, g(heaps)`.
    pub shifted: String,
}

/// One game of a census.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CensusRow {
    /// The canonical code.
    pub game: String,
    /// The minimal period, when the values show one.
    pub period: Option<usize>,
    /// Where it starts.
    pub preperiod: Option<usize>,
    /// `g(n + period) = g(n) + saltus`; null where no period.
    pub saltus: Option<u64>,
    /// Whether the period holds for every heap.
    pub proven: bool,
    /// `"theorem"`, `"closed-form"`, `"observed"` or `"none"`.
    pub support: String,
    /// The theorem that proved the period.
    pub theorem: Option<String>,
    /// The largest heap the proof used (its bound).
    pub last_heap_needed: Option<usize>,
    /// For an observed period: the heaps the theorem would need to prove it.
    pub heaps_needed_for_proof: Option<usize>,
    /// The largest heap computed.
    pub computed_to: usize,
    /// The largest value computed.
    pub max_value: u32,
    /// The first heap with it.
    pub max_value_at: usize,
    /// The sparse engine's rare mask (values `v` with popcount(v & mask)
    /// even are rare), when it ran.
    pub rare_mask: Option<u32>,
    /// How many heaps are rare.
    pub rare_count: Option<usize>,
    /// The largest rare heap.
    pub last_rare: Option<usize>,
    /// Whether the split is the position-parity one (Czajka's `+pos`).
    pub position_parity: Option<bool>,
    /// Why the analysis stopped without a proof; null when proven.
    pub stopped: Option<Stopped>,
    /// Wall time of the game's analysis in seconds.
    pub seconds: f64,
    /// The equivalence class: its smallest member in Czajka's order (see
    /// [`crate::analysis::family_order`]); null until classified.
    pub class: Option<String>,
    /// `g_game(n) = g_class(n + class_offset)` (1 for a game that may not
    /// take a lone token and is the class's game with every heap one
    /// smaller).
    pub class_offset: i64,
    /// Equal to the class's game for every heap, by two periodicity proofs.
    pub class_proven: bool,
    /// Otherwise: equal to the class's game on heaps `0..=class_equal_to`
    /// (of this game); null for the class's own game.
    pub class_equal_to: Option<u64>,
    /// Fingerprints of the values (for classes, also across shards).
    pub digests: Vec<Digest>,
}

/// A class of a census: games with the same values (up to the offset).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CensusClass {
    /// The smallest member, which names the class.
    pub name: String,
    /// Every member (the name included) in Czajka's order.
    pub members: Vec<String>,
    /// Whether every member is proven equal to the name.
    pub proven: bool,
}

/// The summary of a census (`grundy census …`, as text).
#[derive(Clone, Debug, Serialize)]
pub struct CensusReport {
    /// Every row, classified, in Czajka's order.
    pub rows: Vec<CensusRow>,
    /// Games whose period is proven.
    pub proven: usize,
    /// Games with a period observed but not proven.
    pub observed: usize,
    /// Games with no period seen.
    pub aperiodic: usize,
    /// Games cut by their time budget.
    pub stopped_time: usize,
    /// Games cut by the memory budget.
    pub stopped_memory: usize,
    /// The proven game with the largest pre-period, and it.
    pub largest_preperiod: Option<(String, usize)>,
    /// The proven game with the largest period, and it.
    pub largest_period: Option<(String, usize)>,
    /// Classes with more than one member.
    pub classes: Vec<CensusClass>,
    /// How many classes there are, singletons included.
    pub class_count: usize,
}

impl CensusReport {
    /// The summary of classified `rows` (see
    /// [`crate::analysis::classify`]), kept in their order.
    pub fn new(rows: Vec<CensusRow>) -> CensusReport {
        let proven: Vec<&CensusRow> = rows.iter().filter(|r| r.proven).collect();
        let largest = |key: fn(&CensusRow) -> Option<usize>| {
            // The first of the largest, in census order.
            proven
                .iter()
                .rev()
                .filter_map(|r| key(r).map(|k| (r.game.clone(), k)))
                .max_by_key(|&(_, k)| k)
        };
        let mut classes: Vec<CensusClass> = Vec::new();
        for row in &rows {
            let name = row.class.clone().unwrap_or_else(|| row.game.clone());
            match classes.iter_mut().find(|c| c.name == name) {
                Some(class) => {
                    class.members.push(row.game.clone());
                    class.proven &= row.class_proven;
                }
                None => classes.push(CensusClass {
                    name,
                    members: vec![row.game.clone()],
                    proven: row.class_proven,
                }),
            }
        }
        let class_count = classes.len();
        classes.retain(|c| c.members.len() > 1);
        CensusReport {
            proven: proven.len(),
            observed: rows
                .iter()
                .filter(|r| !r.proven && r.period.is_some())
                .count(),
            aperiodic: rows.iter().filter(|r| r.period.is_none()).count(),
            stopped_time: count(&rows, Stopped::Time),
            stopped_memory: count(&rows, Stopped::Memory),
            largest_preperiod: largest(|r| r.preperiod),
            largest_period: largest(|r| r.period),
            classes,
            class_count,
            rows,
        }
    }
}

fn count(rows: &[CensusRow], why: Stopped) -> usize {
    rows.iter().filter(|r| r.stopped == Some(why)).count()
}

/// A [`CensusRow`] as one line of CSV (`grundy census --format csv`, and an
/// `--output` file named `*.csv`): every field of the row, so that a census
/// resumes and merges from CSV as it does from JSON lines. The digests,
/// which JSON nests, are one column of `heaps:same:shifted` entries
/// separated by spaces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CensusCsvRow {
    /// [`CensusRow::game`].
    pub game: String,
    /// [`CensusRow::period`].
    pub period: Option<usize>,
    /// [`CensusRow::preperiod`].
    pub preperiod: Option<usize>,
    /// [`CensusRow::saltus`].
    pub saltus: Option<u64>,
    /// [`CensusRow::proven`].
    pub proven: bool,
    /// [`CensusRow::support`].
    pub support: String,
    /// [`CensusRow::computed_to`].
    pub computed_to: usize,
    /// [`CensusRow::last_heap_needed`].
    pub last_heap_needed: Option<usize>,
    /// [`CensusRow::max_value`].
    pub max_value: u32,
    /// [`CensusRow::max_value_at`].
    pub max_value_at: usize,
    /// [`CensusRow::rare_mask`].
    pub rare_mask: Option<u32>,
    /// [`CensusRow::rare_count`].
    pub rare_count: Option<usize>,
    /// [`CensusRow::last_rare`].
    pub last_rare: Option<usize>,
    /// [`CensusRow::stopped`].
    pub stopped: Option<Stopped>,
    /// [`CensusRow::seconds`].
    pub seconds: f64,
    /// [`CensusRow::class`].
    pub class: Option<String>,
    /// [`CensusRow::class_offset`].
    pub class_offset: i64,
    /// [`CensusRow::class_proven`].
    pub class_proven: bool,
    /// [`CensusRow::class_equal_to`].
    pub class_equal_to: Option<u64>,
    /// [`CensusRow::theorem`].
    pub theorem: Option<String>,
    /// [`CensusRow::heaps_needed_for_proof`].
    pub heaps_needed_for_proof: Option<usize>,
    /// [`CensusRow::position_parity`].
    pub position_parity: Option<bool>,
    /// [`CensusRow::digests`], as `heaps:same:shifted` entries.
    pub digests: String,
}

impl From<&CensusRow> for CensusCsvRow {
    fn from(r: &CensusRow) -> CensusCsvRow {
        let digests: Vec<String> = r
            .digests
            .iter()
            .map(|d| format!("{}:{}:{}", d.heaps, d.same, d.shifted))
            .collect();
        CensusCsvRow {
            game: r.game.clone(),
            period: r.period,
            preperiod: r.preperiod,
            saltus: r.saltus,
            proven: r.proven,
            support: r.support.clone(),
            computed_to: r.computed_to,
            last_heap_needed: r.last_heap_needed,
            max_value: r.max_value,
            max_value_at: r.max_value_at,
            rare_mask: r.rare_mask,
            rare_count: r.rare_count,
            last_rare: r.last_rare,
            stopped: r.stopped,
            seconds: r.seconds,
            class: r.class.clone(),
            class_offset: r.class_offset,
            class_proven: r.class_proven,
            class_equal_to: r.class_equal_to,
            theorem: r.theorem.clone(),
            heaps_needed_for_proof: r.heaps_needed_for_proof,
            position_parity: r.position_parity,
            digests: digests.join(" "),
        }
    }
}

impl TryFrom<CensusCsvRow> for CensusRow {
    /// What is wrong with the digests column.
    type Error = String;

    fn try_from(r: CensusCsvRow) -> Result<CensusRow, String> {
        let digests = r
            .digests
            .split_whitespace()
            .map(|entry| {
                let mut parts = entry.split(':');
                let (heaps, same, shifted) = (parts.next(), parts.next(), parts.next());
                let hash = |h: Option<&str>| {
                    h.filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                        .map(str::to_owned)
                };
                match (
                    heaps.and_then(|h| h.parse().ok()),
                    hash(same),
                    hash(shifted),
                ) {
                    (Some(heaps), Some(same), Some(shifted)) if parts.next().is_none() => {
                        Ok(Digest {
                            heaps,
                            same,
                            shifted,
                        })
                    }
                    _ => Err(format!("not a digest (heaps:same:shifted): {entry}")),
                }
            })
            .collect::<Result<Vec<Digest>, String>>()?;
        Ok(CensusRow {
            game: r.game,
            period: r.period,
            preperiod: r.preperiod,
            saltus: r.saltus,
            proven: r.proven,
            support: r.support,
            theorem: r.theorem,
            last_heap_needed: r.last_heap_needed,
            heaps_needed_for_proof: r.heaps_needed_for_proof,
            computed_to: r.computed_to,
            max_value: r.max_value,
            max_value_at: r.max_value_at,
            rare_mask: r.rare_mask,
            rare_count: r.rare_count,
            last_rare: r.last_rare,
            position_parity: r.position_parity,
            stopped: r.stopped,
            seconds: r.seconds,
            class: r.class,
            class_offset: r.class_offset,
            class_proven: r.class_proven,
            class_equal_to: r.class_equal_to,
            digests,
        })
    }
}

/// How census rows are written: JSON lines or CSV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFormat {
    /// One JSON object per line ([`CensusRow`]).
    JsonLines,
    /// A header line, then one CSV line per row ([`CensusCsvRow`]).
    Csv,
}

impl RowFormat {
    /// The format of a census file by its name: CSV for `*.csv` (any
    /// case), JSON lines otherwise.
    pub fn for_path(path: &Path) -> RowFormat {
        match path.extension() {
            Some(ext) if ext.eq_ignore_ascii_case("csv") => RowFormat::Csv,
            _ => RowFormat::JsonLines,
        }
    }
}

/// Writes `rows` in `format` (CSV with its header, unless there are no
/// rows), as `grundy census --format json|csv` prints them and census
/// files hold them.
pub fn write_rows(
    out: &mut dyn Write,
    rows: &[CensusRow],
    format: RowFormat,
) -> std::io::Result<()> {
    match format {
        RowFormat::JsonLines => {
            for row in rows {
                write_json_line(out, row)?;
            }
            Ok(())
        }
        RowFormat::Csv => {
            let mut csv = csv_writer(out, true);
            for row in rows {
                csv.serialize(CensusCsvRow::from(row))
                    .map_err(std::io::Error::other)?;
            }
            csv.flush()
        }
    }
}

pub(crate) fn csv_writer(out: &mut dyn Write, header: bool) -> csv::Writer<&mut dyn Write> {
    csv::WriterBuilder::new()
        .has_headers(header)
        .from_writer(out)
}

/// One row as one line of JSON, in a single write.
pub(crate) fn write_json_line(out: &mut dyn Write, row: &CensusRow) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(row).map_err(std::io::Error::other)?;
    line.push(b'\n');
    out.write_all(&line)
}

/// A code as Czajka writes it: `.07` for `0.07`, `4` for `4.0`.
pub fn czajka_spelling(code: &str) -> String {
    let short = code.strip_prefix('0').filter(|s| s.starts_with('.'));
    let short = short.unwrap_or(code);
    short.strip_suffix(".0").unwrap_or(short).to_owned()
}
