//! Running a census that resumes and shards: its output file, and what is
//! left to do — the one implementation behind `grundy census --output
//! FILE --shard K/N` and Python's `grundy.census(…, output=…, shard=…)`.
//!
//! A census file holds one [`CensusRow`] per line, as JSON lines or, for a
//! file named `*.csv`, as CSV with a header ([`CensusCsvRow`], every field
//! of the row). Rows are appended as games finish, each line written at
//! once, so a census killed (even by SIGKILL) loses only the games in
//! flight: a rerun with the same file ([`CensusRun::new`]) reads the rows
//! back, in either format, skips their games, and runs the rest. A last
//! line without its newline was cut short by the kill and is dropped
//! (its game runs again). At the end ([`CensusRun::finish`]) the rows are
//! classified and the file rewritten with their classes.
//!
//! ```
//! use grundy::analysis::{CensusLimits, CensusRun, census_game, expand_family};
//! use grundy::TableSolver;
//! let dir = std::env::temp_dir().join(format!("grundy-doc-run-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let file = dir.join("rows.csv");
//! let limits = CensusLimits { max: 1 << 10, time_per_game: None };
//! // The first of two shards of 0.?7, then the whole family: the second
//! // run computes only the games the first did not.
//! for shard in [Some((1, 2)), None] {
//!     let mut run = CensusRun::new(expand_family("0.?7")?, shard, Some(&file))?;
//!     assert_eq!(run.todo().len(), 4);
//!     for game in run.todo().to_vec() {
//!         run.record(census_game(&game, &limits, &TableSolver::new())?)?;
//!     }
//!     run.finish()?;
//! }
//! let rows = grundy::analysis::read_rows(&file)?;
//! assert_eq!(rows.len(), 8);
//! # std::fs::remove_dir_all(dir).unwrap();
//! # Ok::<(), grundy::Error>(())
//! ```

use std::collections::HashSet;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::census::{classify, expected_cost, in_census_order, shard};
use crate::report::{CensusCsvRow, CensusRow, RowFormat, csv_writer, write_json_line, write_rows};
use crate::{Error, HeapGame, Result};

/// The largest census file read back (about 2 KB a row, so room for the
/// largest family, [`super::FAMILY_LIMIT`] games, several times over).
pub const CENSUS_FILE_LIMIT: u64 = 256 << 20;

fn file_error(path: &Path, reason: impl std::fmt::Display) -> Error {
    Error::CensusFile {
        path: path.display().to_string(),
        reason: reason.to_string(),
    }
}

/// The rows of a census file's text (`source` names it in errors), JSON
/// lines or CSV, told apart by the first line (CSV starts with its header,
/// `game,…`). A last line without its newline was cut short by a killed
/// run and is dropped; any other line that is not a row is an error.
pub fn parse_rows(text: &str, source: &str) -> Result<Vec<CensusRow>> {
    // Everything up to the last newline: what was written whole.
    let whole = &text[..text.rfind('\n').map_or(0, |at| at + 1)];
    let bad = |line: usize, e: &dyn std::fmt::Display| Error::CensusFile {
        path: source.to_owned(),
        reason: format!("line {line} is not a census row: {e}"),
    };
    if whole.trim_start().starts_with("game,") {
        let mut reader = csv::Reader::from_reader(whole.as_bytes());
        let mut rows = Vec::new();
        for (i, record) in reader.deserialize::<CensusCsvRow>().enumerate() {
            let line = i + 2;
            let row = record.map_err(|e| bad(line, &e))?;
            rows.push(CensusRow::try_from(row).map_err(|e| bad(line, &e))?);
        }
        return Ok(rows);
    }
    whole
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| bad(i + 1, &e)))
        .collect()
}

/// The rows of a census file (see [`parse_rows`]), of at most
/// [`CENSUS_FILE_LIMIT`] bytes.
pub fn read_rows(path: &Path) -> Result<Vec<CensusRow>> {
    let mut text = String::new();
    File::open(path)
        .and_then(|f| f.take(CENSUS_FILE_LIMIT + 1).read_to_string(&mut text))
        .map_err(|e| file_error(path, format!("cannot read it: {e}")))?;
    if text.len() as u64 > CENSUS_FILE_LIMIT {
        return Err(file_error(
            path,
            format!("larger than {} MiB", CENSUS_FILE_LIMIT >> 20),
        ));
    }
    parse_rows(&text, &path.display().to_string())
}

/// Writes `rows` to `path` in its [`RowFormat`] through a temporary file
/// renamed over it (so a kill leaves the old file or the new), and returns
/// it open for appending.
fn rewrite(path: &Path, rows: &[CensusRow]) -> Result<File> {
    let cannot = |e: std::io::Error| file_error(path, format!("cannot write it: {e}"));
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let mut file = File::create(&partial).map_err(cannot)?;
    write_rows(&mut file, rows, RowFormat::for_path(path)).map_err(cannot)?;
    file.sync_all().map_err(cannot)?;
    std::fs::rename(&partial, path).map_err(cannot)?;
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(cannot)
}

/// A census file open for appending rows.
struct Journal {
    path: PathBuf,
    file: File,
    /// Whether the file is empty: a CSV file gets its header (which the
    /// `csv` crate takes from the first row) with its first row.
    empty: bool,
}

impl Journal {
    /// One row, written as one line in a single write (in a CSV file, the
    /// header comes before the first).
    fn append(&mut self, row: &CensusRow) -> Result<()> {
        let mut line = Vec::new();
        match RowFormat::for_path(&self.path) {
            RowFormat::JsonLines => write_json_line(&mut line, row),
            RowFormat::Csv => {
                let mut csv = csv_writer(&mut line, self.empty);
                csv.serialize(CensusCsvRow::from(row))
                    .map_err(std::io::Error::other)
                    .and_then(|()| csv.flush())
            }
        }
        .and_then(|()| self.file.write_all(&line))
        .map_err(|e| file_error(&self.path, format!("cannot write it: {e}")))?;
        self.empty = false;
        Ok(())
    }
}

/// A census under way: the rows it has (read back from its file, or
/// recorded since) and the games it still has to run, costliest first.
pub struct CensusRun {
    rows: Vec<CensusRow>,
    todo: Vec<HeapGame>,
    journal: Option<Journal>,
    /// The games of the census (of its shard), canonically written.
    wanted: HashSet<String>,
}

impl CensusRun {
    /// The census of `games` (only the `k`-th of `n` shares for
    /// `shard = Some((k, n))`, see [`shard`]), resumed from `output` when
    /// that file exists: its rows are kept (each game once) and those games
    /// not run again. A file that holds rows of games outside this census
    /// (another family's, another shard's) is refused, not truncated. The
    /// file is rewritten with the kept rows at once (a line cut by a kill
    /// must not run into the next row), and every row recorded is appended
    /// to it.
    pub fn new(
        games: Vec<HeapGame>,
        shard_of: Option<(usize, usize)>,
        output: Option<&Path>,
    ) -> Result<CensusRun> {
        let mut games = in_census_order(games);
        if let Some((k, n)) = shard_of {
            games = shard(games, k, n)?;
        }
        let wanted: HashSet<String> = games.iter().map(ToString::to_string).collect();
        let mut rows = match output {
            Some(path) if path.exists() => read_rows(path)?,
            _ => Vec::new(),
        };
        if let (Some(path), Some(other)) = (output, rows.iter().find(|r| !wanted.contains(&r.game)))
        {
            return Err(Error::Refused {
                reason: format!(
                    "{} holds rows of games outside this census (such as {}), which a run \
                     would drop: write this census to another file and merge the two",
                    path.display(),
                    other.game
                ),
                knob: crate::Knob::Output,
            });
        }
        let mut seen = HashSet::new();
        rows.retain(|r| seen.insert(r.game.clone()));
        let mut todo: Vec<HeapGame> = games
            .into_iter()
            .filter(|g| !seen.contains(&g.to_string()))
            .collect();
        todo.sort_by_key(|g| std::cmp::Reverse(expected_cost(g)));
        let journal = output
            .map(|path| {
                rewrite(path, &rows).map(|file| Journal {
                    path: path.to_owned(),
                    file,
                    empty: rows.is_empty(),
                })
            })
            .transpose()?;
        Ok(CensusRun {
            rows,
            todo,
            journal,
            wanted,
        })
    }

    /// The games still to run, costliest first (the order to start them
    /// in, so that the last to finish is a cheap one).
    pub fn todo(&self) -> &[HeapGame] {
        &self.todo
    }

    /// How many rows the census has (read back or recorded).
    pub fn done(&self) -> usize {
        self.rows.len()
    }

    /// Keeps a finished game's row, appending it to the file; a row of a
    /// game outside the census (or its shard), or of one it holds already,
    /// is refused.
    pub fn record(&mut self, row: CensusRow) -> Result<()> {
        let refused = |why: &str| Error::InvalidPosition {
            text: row.game.clone(),
            reason: format!("a row of {why}"),
        };
        if !self.wanted.contains(&row.game) {
            return Err(refused("a game outside this census"));
        }
        if self.rows.iter().any(|r| r.game == row.game) {
            return Err(refused("a game this census holds already"));
        }
        if let Some(journal) = self.journal.as_mut() {
            journal.append(&row)?;
        }
        self.rows.push(row);
        Ok(())
    }

    /// Every row, classified ([`classify`]) and in census order; the file
    /// rewritten with them.
    pub fn finish(mut self) -> Result<Vec<CensusRow>> {
        classify(&mut self.rows);
        if let Some(journal) = &self.journal {
            rewrite(&journal.path, &self.rows)?;
        }
        Ok(self.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TableSolver;
    use crate::analysis::{CensusLimits, census_game, expand_family};

    /// Rows of 0.?7 to heap 2^10, classified: proven and unproven games,
    /// offsets, every optional field both set and unset.
    fn rows() -> Vec<CensusRow> {
        let limits = CensusLimits {
            max: 1 << 10,
            time_per_game: None,
        };
        let mut rows: Vec<CensusRow> = expand_family("0.?7")
            .unwrap()
            .iter()
            .chain(&["0.6".parse().unwrap()])
            .map(|g| census_game(g, &limits, &TableSolver::new()).unwrap())
            .collect();
        classify(&mut rows);
        rows
    }

    fn text(rows: &[CensusRow], format: RowFormat) -> String {
        let mut out = Vec::new();
        write_rows(&mut out, rows, format).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rows_read_back_from_json_lines_and_csv_field_for_field() {
        let rows = rows();
        assert!(rows.iter().any(|r| r.proven) && rows.iter().any(|r| !r.proven));
        for format in [RowFormat::JsonLines, RowFormat::Csv] {
            assert_eq!(parse_rows(&text(&rows, format), "rows").unwrap(), rows);
        }
        let csv = text(&rows, RowFormat::Csv);
        assert!(csv.starts_with("game,period,preperiod,"));
        assert_eq!(csv.lines().count(), rows.len() + 1);
    }

    /// A kill can cut the last line anywhere, even inside a CSV field that
    /// would still parse: an unterminated last line is dropped, and a bad
    /// line before it is an error naming its line.
    #[test]
    fn a_line_cut_by_a_kill_is_dropped_and_a_bad_one_is_an_error() {
        let rows = rows();
        for format in [RowFormat::JsonLines, RowFormat::Csv] {
            let whole = text(&rows, format);
            let cut = &whole[..whole.len() - 5];
            assert_eq!(
                parse_rows(cut, "rows").unwrap(),
                rows[..rows.len() - 1],
                "{format:?}"
            );
            let mut lines: Vec<&str> = whole.lines().collect();
            lines[2] = "game,oops";
            let damaged = lines.join("\n") + "\n";
            let error = parse_rows(&damaged, "rows.file").unwrap_err().to_string();
            assert!(
                error.contains("rows.file") && error.contains("line 3"),
                "{error}"
            );
        }
        assert_eq!(RowFormat::for_path(Path::new("a/b.CSV")), RowFormat::Csv);
        assert_eq!(
            RowFormat::for_path(Path::new("b.jsonl")),
            RowFormat::JsonLines
        );
    }

    /// A run resumed from a file of either format skips the games it holds
    /// and refuses a file with rows of games outside the census, leaving
    /// it as it was; shards split the games.
    #[test]
    fn a_run_resumes_from_its_file_and_shards_split_the_games() {
        let dir = std::env::temp_dir().join(format!("grundy-census-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rows = rows();
        let games = || expand_family("0.?7").unwrap();
        for name in ["rows.jsonl", "rows.csv"] {
            let file = dir.join(name);
            // Three rows of the family and one of another game (0.6).
            let held: Vec<CensusRow> = rows
                .iter()
                .filter(|r| ["0.07", "0.37", "0.77", "0.6"].contains(&r.game.as_str()))
                .cloned()
                .collect();
            let written = text(&held, RowFormat::for_path(&file));
            std::fs::write(&file, &written).unwrap();
            let refused = CensusRun::new(games(), None, Some(&file)).err().unwrap();
            assert!(refused.to_string().contains("such as 0.6"), "{refused}");
            assert_eq!(std::fs::read_to_string(&file).unwrap(), written);
            let family: Vec<CensusRow> = held.iter().filter(|r| r.game != "0.6").cloned().collect();
            std::fs::write(&file, text(&family, RowFormat::for_path(&file))).unwrap();
            let mut run = CensusRun::new(games(), None, Some(&file)).unwrap();
            assert_eq!(run.done(), 3, "{name}");
            let todo: Vec<String> = run.todo().iter().map(ToString::to_string).collect();
            assert_eq!(todo.len(), 5);
            assert!(
                !todo
                    .iter()
                    .any(|g| ["0.07", "0.37", "0.77"].contains(&g.as_str()))
            );
            for game in &todo {
                run.record(rows.iter().find(|r| &r.game == game).unwrap().clone())
                    .unwrap();
            }
            let mut family = rows.clone();
            family.retain(|r| r.game != "0.6");
            classify(&mut family);
            assert_eq!(run.finish().unwrap(), family);
            assert_eq!(read_rows(&file).unwrap(), family, "{name}");
        }
        // A fresh file, and the run killed (dropped) after two rows.
        for name in ["fresh.jsonl", "fresh.csv"] {
            let file = dir.join(name);
            let mut run = CensusRun::new(games(), None, Some(&file)).unwrap();
            let family: Vec<&CensusRow> = rows.iter().filter(|r| r.game != "0.6").collect();
            run.record(family[0].clone()).unwrap();
            run.record(family[1].clone()).unwrap();
            // Rows of another game, or of a game held already, are refused.
            let other = rows.iter().find(|r| r.game == "0.6").unwrap();
            assert!(run.record(other.clone()).is_err());
            assert!(run.record(family[0].clone()).is_err());
            drop(run);
            let written = read_rows(&file).unwrap();
            assert_eq!(written, [family[0].clone(), family[1].clone()], "{name}");
        }
        let share = |k| {
            CensusRun::new(games(), Some((k, 3)), None)
                .unwrap()
                .todo()
                .len()
        };
        assert_eq!((share(1), share(2), share(3)), (3, 3, 2));
        assert!(CensusRun::new(games(), Some((4, 3)), None).is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
