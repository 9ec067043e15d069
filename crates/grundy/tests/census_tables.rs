//! Issue 19: a census of a family agrees with Czajka's tables
//! (`testdata/octal/tczajka/`): every pre-period and period of
//! TrivialGames.md and SolvedGames.md the census can reach is proven and
//! equal, no game of UnsolvedGames.md is proven, and every pair of
//! GameLookup.md whose games are both in the family is in one class, at
//! the offset the values show. Kept small (`0.??` and `4.??` to 2^12) so
//! that it stays cheap; docs/census.md records the large runs.

use std::collections::HashMap;

use grundy::analysis::{CensusLimits, census_game, classify, expand_family, in_census_order};
use grundy::report::CensusRow;
use grundy::{HeapGame, TableSolver};

fn testdata(path: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/");
    std::fs::read_to_string(format!("{root}{path}")).unwrap()
}

/// Czajka's spelling (`.07`, `4`, `4.12`) as a canonical code.
fn canonical(short: &str) -> String {
    let code = if short.starts_with('.') {
        format!("0{short}")
    } else if short.contains('.') {
        short.to_owned()
    } else {
        format!("{short}.0")
    };
    code.parse::<HeapGame>().unwrap().to_string()
}

/// The cells of each table row of a Markdown file, header and rule lines
/// left out.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| l.contains('|') && !l.starts_with(":") && !l.trim_start().starts_with("game"))
        .map(|l| l.split('|').map(|c| c.trim().to_owned()).collect())
        .collect()
}

fn census(families: &[&str], max: u64) -> HashMap<String, CensusRow> {
    let games = in_census_order(
        families
            .iter()
            .flat_map(|f| expand_family(f).unwrap())
            .collect(),
    );
    let limits = CensusLimits {
        max,
        time_per_game: None,
    };
    let mut rows: Vec<CensusRow> = games
        .iter()
        .map(|g| census_game(g, &limits, &TableSolver::new()).unwrap())
        .collect();
    classify(&mut rows);
    rows.into_iter().map(|r| (r.game.clone(), r)).collect()
}

#[test]
fn a_census_of_two_digit_codes_agrees_with_czajkas_tables() {
    let max = 1 << 12;
    let rows = census(&["0.??", "4.??"], max);
    assert_eq!(rows.len(), 63 + 64);

    // Periods: proven and equal wherever the proof fits in the census.
    let mut checked = 0;
    for file in ["TrivialGames.md", "SolvedGames.md"] {
        for cells in table_rows(&testdata(&format!("octal/tczajka/{file}"))) {
            let (Ok(n0), Ok(p)) = (cells[1].parse::<usize>(), cells[2].parse::<usize>()) else {
                continue;
            };
            let Some(row) = rows.get(&canonical(&cells[0])) else {
                continue;
            };
            if row.proven {
                assert_eq!(
                    (row.preperiod, row.period),
                    (Some(n0), Some(p)),
                    "{}",
                    row.game
                );
                checked += 1;
            } else {
                // The octal theorem's bound for two heaps: 2 n0 + 2 p + t.
                assert!(2 * n0 + 2 * p + 3 > max as usize, "{} not proven", row.game);
            }
        }
    }
    assert_eq!(checked, 28, "periods compared");

    // Unsolved games are never proven.
    let mut unsolved = 0;
    for cells in table_rows(&testdata("octal/tczajka/UnsolvedGames.md")) {
        let name = cells[0].as_str();
        if !(name.starts_with('.') || name.starts_with('4')) {
            continue; // Grundy's game
        }
        if let Some(row) = rows.get(&canonical(name)) {
            assert!(!row.proven, "{} is unsolved", row.game);
            unsolved += 1;
        }
    }
    assert!(unsolved >= 5, "{unsolved}");

    // GameLookup.md: a row `.0x` and a column `7` name the game `.07`; the
    // cell, its equivalent.
    let mut pairs = 0;
    for cells in table_rows(&testdata("octal/tczajka/GameLookup.md")) {
        let pattern = &cells[0];
        for (column, cell) in cells.iter().enumerate().skip(1).take(7) {
            if cell == "-" || cell.is_empty() {
                continue;
            }
            let game = canonical(&pattern.replace('x', &column.to_string()));
            let (Some(a), Some(b)) = (rows.get(&game), rows.get(&canonical(cell))) else {
                continue;
            };
            assert_eq!(
                a.class, b.class,
                "{} and {} (GameLookup.md)",
                a.game, b.game
            );
            if a.proven && b.proven {
                assert!(a.class_proven && b.class_proven, "{} ~ {}", a.game, b.game);
            }
            pairs += 1;
        }
    }
    assert!(pairs >= 40, "only {pairs} pairs of GameLookup.md checked");
}

/// Games in one class agree on every heap both computed, at their offsets;
/// games in different classes differ somewhere (the plain solver says).
#[test]
fn classes_are_exactly_the_equal_sequences() {
    let rows = census(&["0.?[0-7]"], 1 << 10);
    let solver = TableSolver::new();
    let values: HashMap<&str, grundy::ValueTable> = rows
        .keys()
        .map(|g| {
            (
                g.as_str(),
                solver
                    .values(&g.parse::<HeapGame>().unwrap(), 1100)
                    .unwrap(),
            )
        })
        .collect();
    // g_row(n) = g_class(n + offset) on heaps n >= 0, n + offset >= 0 up to
    // 1020, inside the census.
    let agree = |row: &CensusRow, other: &str, offset: i64| {
        (offset.min(0).abs()..1020).all(|n: i64| {
            values[row.game.as_str()].at(n as usize) == values[other].at((n + offset) as usize)
        })
    };
    for row in rows.values() {
        let class = row.class.as_deref().unwrap();
        assert!(
            agree(row, class, row.class_offset),
            "{} in {class}",
            row.game
        );
        for other in rows.values().filter(|o| o.class.as_deref() != Some(class)) {
            for offset in -1..=1 {
                assert!(
                    !agree(row, &other.game, offset),
                    "{} and {} at {offset}",
                    row.game,
                    other.game
                );
            }
        }
    }
}
