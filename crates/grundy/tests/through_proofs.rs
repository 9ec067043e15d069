//! Answers through a proven period agree with the table computed heap by
//! heap: analyses past their proof (histogram, P-positions, largest value,
//! `g(to)`), sums with huge heaps (values, every winning move and their
//! count) and counts through an arithmetic period.

use std::ops::ControlFlow;

use grundy::analysis::{Limits, Periodicity, analyze, periodic_counts};
use grundy::{
    Component, HeapGame, HeapRuleset, LISTED_OPTIONS_LIMIT, Nimber, TableSolver, ValueTable,
    analyze_sum,
};

/// Take-and-break codes of one to three digits, from a fixed seed: the
/// random games the fast paths are checked on, with the named ones.
fn codes() -> Vec<String> {
    let mut codes: Vec<String> = [
        "0.77", "0.07", "0.137", "0.51", "0.14", "0.4!", "0.34", "0.72",
    ]
    .map(String::from)
    .to_vec();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |bound: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % bound
    };
    while codes.len() < 40 {
        let digits = 1 + next(3);
        let code: String = (0..digits)
            .map(|_| char::from(b'0' + next(8) as u8))
            .collect();
        if !code.ends_with('0') {
            codes.push(format!("0.{code}"));
        }
    }
    codes
}

/// The games among [`codes`] whose period is proven within a few thousand
/// heaps, with their analysis.
fn proven_games() -> Vec<(HeapGame, grundy::analysis::Analysis)> {
    let solver = TableSolver::new();
    codes()
        .iter()
        .filter_map(|code| {
            let game: HeapGame = code.parse().ok()?;
            let limits = Limits {
                max: 3000,
                ..Limits::default()
            };
            let found = analyze(&game, &limits, &solver, &mut |_| true).ok()?;
            found
                .proven_periodicity()
                .filter(|p| p.saltus == 0)
                .map(|_| (game, found))
        })
        .collect()
}

#[test]
fn analyses_past_their_proof_agree_with_the_table() {
    let solver = TableSolver::new();
    let games = proven_games();
    assert!(games.len() >= 10, "only {} proven games", games.len());
    for (game, _) in games {
        let to = 9_000;
        let limits = Limits {
            to: Some(to),
            ..Limits::default()
        };
        let found = analyze(&game, &limits, &solver, &mut |_| true).unwrap();
        assert_eq!(found.to, to as usize, "{game}");
        assert!(
            found.computed_to() < to as usize,
            "{game}: not answered through its proof"
        );
        let table = solver.values(&game, to).unwrap();
        let mut histogram = std::collections::BTreeMap::new();
        for v in table.iter() {
            *histogram.entry(v).or_insert(0u64) += 1;
        }
        assert_eq!(
            found.histogram(),
            histogram.into_iter().collect::<Vec<_>>(),
            "{game}"
        );
        let zeros: Vec<usize> = (0..table.len())
            .filter(|&n| table.at(n).is_zero())
            .collect();
        assert_eq!(found.p_positions().collect::<Vec<_>>(), zeros, "{game}");
        assert_eq!(found.p_position_count(), zeros.len() as u64, "{game}");
        let max = table.max().unwrap();
        let at = table.iter().position(|v| v == max).unwrap();
        assert_eq!(found.max_value(), (max, at), "{game}");
        assert_eq!(found.last_value(), table.at(to as usize), "{game}");
        assert!(found.values_to_end().unwrap() == table, "{game}");
    }
}

/// Every winning move of heap `n` of `game` beside a heap worth `other`
/// (those reaching `other`), by visiting its options with the full table.
fn winning_moves_by_table(
    game: &HeapGame,
    table: &ValueTable,
    n: usize,
    other: Nimber,
) -> Vec<Vec<usize>> {
    let mut found = Vec::new();
    let _ = game.visit_options(n, &mut |option| {
        let reached: Nimber = option.iter().map(|&p| table.at(p)).sum();
        if reached == other {
            let mut to: Vec<usize> = option.iter().copied().filter(|&p| p > 0).collect();
            to.sort_unstable();
            found.push(to);
        }
        ControlFlow::Continue(())
    });
    found.sort();
    found.dedup();
    found
}

#[test]
fn winning_moves_of_huge_heaps_through_the_period_agree_with_the_table() {
    let solver = TableSolver::new();
    for (game, _) in proven_games() {
        for n in [4_097, 5_000, 5_003, 6_144] {
            let table = solver.values(&game, n as u64).unwrap();
            // A second heap of each value the first could be brought to.
            for other in 0..=table.at(n).get().max(3) {
                let other = Nimber::new(other);
                let Some(small) = (1..200).find(|&h| table.at(h) == other) else {
                    continue;
                };
                let components = [
                    Component { game: 0, heap: n },
                    Component {
                        game: 0,
                        heap: small,
                    },
                ];
                let sum = analyze_sum(
                    std::slice::from_ref(&game),
                    &components,
                    &solver,
                    LISTED_OPTIONS_LIMIT,
                )
                .unwrap();
                assert_eq!(sum.values, [table.at(n), other], "{game} at {n}");
                let in_big: Vec<Vec<usize>> = sum
                    .winning_moves
                    .iter()
                    .filter(|m| m.component == 0)
                    .map(|m| m.to.clone())
                    .collect();
                let expected = if sum.nim_sum.is_zero() {
                    Vec::new()
                } else {
                    winning_moves_by_table(&game, &table, n, other)
                };
                assert_eq!(
                    in_big, expected,
                    "{game}: heap {n} with a heap worth {other}"
                );
                let in_small = sum.winning_moves.len() - in_big.len();
                assert_eq!(
                    sum.winning_move_count,
                    (expected.len() + in_small) as u64,
                    "{game} at {n}"
                );
                assert!(sum.complete());
            }
        }
    }
}

#[test]
fn a_huge_heap_lists_its_first_winning_moves_and_counts_them_all() {
    let kayles: HeapGame = "kayles".parse().unwrap();
    let components = [
        Component {
            game: 0,
            heap: 1_000_000_000,
        },
        Component { game: 0, heap: 3 },
    ];
    let sum = analyze_sum(
        &[kayles],
        &components,
        &TableSolver::new(),
        LISTED_OPTIONS_LIMIT,
    )
    .unwrap();
    assert!(!sum.complete());
    assert_eq!(sum.winning_moves.len(), grundy::WINNING_MOVES_LISTED);
    assert!(
        sum.winning_move_count > 200_000_000,
        "{}",
        sum.winning_move_count
    );
    // Each listed move leaves a P-position with the other heap.
    let found = analyze(
        &"kayles".parse::<HeapGame>().unwrap(),
        &Limits::default(),
        &TableSolver::new(),
        &mut |_| true,
    )
    .unwrap();
    for m in sum.winning_moves.iter().take(500) {
        let left: Nimber = m.to.iter().map(|&h| found.value(h).unwrap()).sum();
        assert_eq!(left ^ found.value(3).unwrap(), Nimber::ZERO, "{m:?}");
    }
}

/// A lone heap whose winning moves fall in no residue class of the split
/// pairs (none reach 0 past the table) ends at once.
#[test]
fn a_lone_huge_heap_is_answered_without_scanning_its_periods() {
    let kayles: HeapGame = "kayles".parse().unwrap();
    for heap in [99_999_999_999_999, 1_000_000_000_000_000_000] {
        let sum = analyze_sum(
            std::slice::from_ref(&kayles),
            &[Component { game: 0, heap }],
            &TableSolver::new(),
            LISTED_OPTIONS_LIMIT,
        )
        .unwrap();
        assert_eq!(
            sum.winning_moves.len() as u64,
            sum.winning_move_count.min(10_000)
        );
        assert_eq!(sum.nim_sum.is_zero(), sum.winning_move_count == 0);
        // The value is the period's, and every listed move leaves a
        // P-position.
        let limits = Limits::default();
        let found = analyze(&kayles, &limits, &TableSolver::new(), &mut |_| true).unwrap();
        assert_eq!(sum.values[0], found.value(heap).unwrap());
        for m in &sum.winning_moves {
            let left: Nimber = m.to.iter().map(|&h| found.value(h).unwrap()).sum();
            assert!(left.is_zero(), "{m:?}");
        }
    }
}

#[test]
fn arithmetic_periodic_counts_agree_with_enumeration() {
    // g(n) = block[(n - n0) mod p] + s * floor((n - n0) / p) from n0 on.
    for (pre, block, saltus) in [
        (vec![5, 0], vec![1, 2, 4, 3], 4u64),
        (vec![], vec![0, 1], 1),
        (vec![2, 2, 9], vec![3, 0, 0], 3),
        (vec![1], vec![7], 2),
    ] {
        let n0 = pre.len();
        let p = block.len();
        let value = |n: usize| -> u64 {
            if n < n0 {
                pre[n]
            } else {
                block[(n - n0) % p] + saltus * ((n - n0) / p) as u64
            }
        };
        let table: ValueTable = (0..n0 + p).map(|n| Nimber::new(value(n) as u32)).collect();
        let period = Periodicity {
            preperiod: n0,
            period: p,
            saltus,
        };
        for (from, to) in [
            (0u64, 0u64),
            (0, 50),
            (3, 97),
            (n0 as u64, 1000),
            (17, 17),
            (40, 41),
        ] {
            let mut expected = Vec::new();
            for n in from..=to {
                let v = value(n as usize) as usize;
                if v >= expected.len() {
                    expected.resize(v + 1, 0u128);
                }
                expected[v] += 1;
            }
            while expected.last() == Some(&0) {
                expected.pop();
            }
            assert_eq!(
                periodic_counts(&table, &period, from, to),
                expected,
                "{pre:?} {block:?} {saltus} {from}..={to}"
            );
        }
    }
}
