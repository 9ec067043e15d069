//! Periods and pre-periods found by `analyze`, against the literature:
//! `testdata/octal/periods.tsv` (69 octal games), tczajka's TrivialGames.md
//! and SolvedGames.md, and the list of classics.

use grundy::analysis::{Limits, Support, analyze};
use grundy::{HeapGame, TableSolver};

mod common;
use common::testdata;

/// `(preperiod, period, saltus, proven)` from an adaptive analysis.
fn analyze_to(spec: &str, max: u64) -> (usize, usize, u64, bool) {
    let game: HeapGame = spec.parse().unwrap();
    let limits = Limits {
        max,
        ..Limits::default()
    };
    let found = analyze(&game, &limits, &TableSolver::new(), &mut |_| true).unwrap();
    let p = found
        .periodicity
        .unwrap_or_else(|| panic!("{spec}: no period found to {}", found.computed_to()));
    (p.preperiod, p.period, p.saltus, found.is_proven())
}

fn proven_period(spec: &str) -> (usize, usize) {
    proven_period_to(spec, 1 << 17)
}

fn proven_period_to(spec: &str, max: u64) -> (usize, usize) {
    let (n0, p, saltus, proven) = analyze_to(spec, max);
    assert_eq!(saltus, 0, "{spec}");
    assert!(proven, "{spec}: period {p} after {n0} is not proven");
    (n0, p)
}

#[test]
fn classic_games() {
    assert_eq!(proven_period("kayles"), (71, 12));
    assert_eq!(proven_period("dawsons-chess"), (52, 34));
    assert_eq!(proven_period("dawsons-kayles"), (53, 34));
    assert_eq!(proven_period("sub(1,3,4)"), (0, 7));
    assert_eq!(proven_period("sub(2,5,7)"), (0, 22));
}

#[test]
fn lasker_is_arithmetic_periodic() {
    assert_eq!(analyze_to("lasker", 1 << 12), (1, 4, 4, true));
    assert_eq!(analyze_to("nim", 1 << 12), (0, 1, 1, true));
}

#[test]
fn no_proof_is_claimed_without_a_theorem() {
    // Grundy's game and subtract-a-square have no theorem; take-and-split
    // (0.37, Officers shifted by one) has one but is not known to be periodic.
    for spec in ["grundy", "sub(squares)", "take-and-split"] {
        let game: HeapGame = spec.parse().unwrap();
        for max in [100, 3000] {
            let limits = Limits {
                max,
                ..Limits::default()
            };
            let found = analyze(&game, &limits, &TableSolver::new(), &mut |_| true).unwrap();
            assert!(!found.is_proven(), "{spec} to {max}");
            assert_eq!(found.support, Support::Observed, "{spec}");
        }
    }
}

/// Rows `code, pre-period, period` of periods.tsv whose proof needs at most
/// `limit` heaps (at least `from`).
fn periods_tsv(from: usize, limit: usize) -> Vec<(String, usize, usize)> {
    testdata("octal/periods.tsv")
        .lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let number = |i: usize| cells[i].parse::<usize>().unwrap();
            (cells[0].to_owned(), number(1), number(2))
        })
        .filter(|(_, n0, p)| (from..=limit).contains(&(2 * (*n0).max(1) + 2 * p)))
        .collect()
}

#[test]
fn octal_games_of_periods_tsv() {
    let rows = periods_tsv(0, 20_000);
    assert_eq!(rows.len(), 63);
    for (code, n0, p) in rows {
        assert_eq!(proven_period(&code), (n0, p), "{code}");
    }
}

/// The hard solved games, by the sparse engine: 0.127 (position-parity
/// split), 0.16 (period 149459), 0.56 (pre-period 326640).
#[test]
fn hard_octal_games_of_periods_tsv() {
    let rows = periods_tsv(20_001, 1_000_000);
    let codes: Vec<&str> = rows.iter().map(|(code, _, _)| code.as_str()).collect();
    assert_eq!(codes, ["0.16", "0.56", "0.127"]);
    for (code, n0, p) in rows {
        assert_eq!(proven_period_to(&code, 1 << 20), (n0, p), "{code}");
    }
}

/// 0.376: pre-period 2268248, period 4 — about 4.5 million heaps.
#[test]
fn octal_game_0_376() {
    assert_eq!(proven_period_to("0.376", 1 << 23), (2_268_248, 4));
}

#[test]
fn trivial_and_solved_games_of_tczajka() {
    let mut checked = 0;
    for file in ["TrivialGames.md", "SolvedGames.md"] {
        for row in testdata(&format!("octal/tczajka/{file}")).lines() {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let (Some(code), Some(Ok(n0)), Some(Ok(p))) = (
                cells.first(),
                cells.get(1).map(|c| c.parse::<usize>()),
                cells.get(2).map(|c| c.parse::<usize>()),
            ) else {
                continue;
            };
            if 2 * n0 + 2 * p > 20_000 {
                continue; // the hard ones: see periods.tsv and the benchmarks
            }
            assert_eq!(proven_period(code), (n0, p), "{code} ({file})");
            checked += 1;
        }
    }
    assert_eq!(checked, 82 + 5);
}

mod three_heaps {
    use super::*;
    use grundy::solve::Engine;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The periodicity theorem for moves that leave three heaps: every
        /// period `analyze` proves still holds far past the proof's bound.
        #[test]
        fn proven_periods_hold_beyond_the_bound(
            digits in prop::collection::vec(prop::sample::select(vec![0u32, 1, 2, 3, 4, 7, 8, 9, 12, 15]), 1..4),
        ) {
            prop_assume!(digits.iter().any(|&d| d & 8 != 0));
            let code: String = digits.iter().map(|d| format!("&{d};")).collect();
            let game: HeapGame = format!("0.{code}").parse().unwrap();
            let limits = Limits { max: 400, ..Limits::default() };
            let found = analyze(&game, &limits, &TableSolver::new(), &mut |_| true).unwrap();
            if let (true, Some(p)) = (found.is_proven(), found.periodicity) {
                let far = 3 * found.computed_to() + 60;
                let values = TableSolver::new()
                    .with_engine(Engine::Dense)
                    .values(&game, far as u64)
                    .unwrap();
                for n in p.preperiod..=far - p.period {
                    prop_assert_eq!(values.at(n + p.period), values.at(n), "{} at {}", game, n);
                }
            }
        }
    }

    #[test]
    fn three_heap_games_are_proven() {
        // 0.B: remove one token, leave nothing, one heap or three; 4.8:
        // split in two, or remove one and leave three.
        for (spec, n0, p, h) in [("0.B", 0, 2, 3), ("4.8", 1, 2, 3), ("0.F", 0, 2, 3)] {
            let game: HeapGame = spec.parse().unwrap();
            let limits = Limits {
                max: 600,
                ..Limits::default()
            };
            let found = analyze(&game, &limits, &TableSolver::new(), &mut |_| true).unwrap();
            assert!(found.is_proven(), "{spec}");
            let period = found.periodicity.unwrap();
            assert_eq!((period.preperiod, period.period), (n0, p), "{spec}");
            assert!(matches!(
                found.theorem,
                Some(grundy::analysis::Theorem::TakeBreak { max_parts, .. }) if max_parts == h
            ));
        }
    }
}
