//! The winning-move table (`grundy moves`) against moves listed from the
//! definition: every heap's winning moves counted, the fewest and most
//! tokens they take, and the counts over ranges by value, including ranges
//! counted through a proven period.

use std::collections::{BTreeMap, BTreeSet};

use grundy::{HeapGame, Nimber, Options, Ruleset, TableSolver, heap_move_table};

/// Each heap's winning moves from the definition: the distinct multisets
/// of heaps a move leaves, by the tokens it takes, kept when their values
/// XOR to 0 (values from the plain solver's table).
fn reference(game: &HeapGame, to: usize) -> Vec<(u32, u64, Option<i64>, Option<i64>)> {
    let mut table = grundy::ValueTable::new();
    TableSolver::new()
        .extend(game, &mut table, to as u64, &mut |_| true)
        .unwrap();
    let mut options = Options::new();
    (0..=to)
        .map(|n| {
            options.clear();
            game.options(&n, &mut options);
            let mut seen = BTreeSet::new();
            for option in options.iter() {
                let mut left: Vec<usize> = option.iter().copied().filter(|&h| h > 0).collect();
                left.sort_unstable();
                let value: u32 = left.iter().fold(0, |v, &h| v ^ table.at(h).get());
                if value == 0 {
                    let taken = n as i64 - left.iter().sum::<usize>() as i64;
                    seen.insert((taken, left));
                }
            }
            let fewest = seen.iter().map(|m| m.0).min();
            let most = seen.iter().map(|m| m.0).max();
            (table.at(n).get(), seen.len() as u64, fewest, most)
        })
        .collect()
}

fn by_value(
    rows: &[(u32, u64, Option<i64>, Option<i64>)],
    from: usize,
    to: usize,
) -> Vec<(u32, u128, u128)> {
    let mut totals: BTreeMap<u32, (u128, u128)> = BTreeMap::new();
    for row in &rows[from..=to] {
        let entry = totals.entry(row.0).or_default();
        entry.0 += 1;
        entry.1 += u128::from(row.1);
    }
    totals.into_iter().map(|(v, (h, m))| (v, h, m)).collect()
}

fn totals(table: &grundy::HeapMoveTable) -> Vec<(u32, u128, u128)> {
    table
        .by_value
        .iter()
        .map(|t| (t.value.get(), t.heaps, t.winning_moves))
        .collect()
}

const GAMES: [&str; 10] = [
    "kayles",
    "0.137",
    "0.07",
    "0.51",
    "0.6",
    "4.7",
    "sub(1,3,4)",
    "sub(2,5,7)",
    "0.{2+}",
    "allbut(1,2)",
];

#[test]
fn every_heap_matches_the_definition() {
    for name in GAMES {
        let game: HeapGame = name.parse().unwrap();
        let to = if name.contains('+') { 40 } else { 300 };
        let expected = reference(&game, to);
        let table = heap_move_table(
            &game,
            0,
            to,
            true,
            &TableSolver::new(),
            u64::MAX,
            &mut |_, _| true,
        )
        .unwrap();
        let rows = table.rows.as_ref().unwrap();
        assert_eq!(rows.len(), to + 1);
        for (n, (row, want)) in rows.iter().zip(&expected).enumerate() {
            assert_eq!(row.heap, n);
            assert_eq!(
                (row.value.get(), row.count, row.fewest_taken, row.most_taken),
                *want,
                "{name} heap {n}"
            );
            // A heap wins exactly when it has a winning move.
            assert_eq!(row.count == 0, row.value == Nimber::ZERO, "{name} heap {n}");
        }
        assert_eq!(totals(&table), by_value(&expected, 0, to), "{name}");
    }
}

#[test]
fn ranges_counted_through_the_period_match_every_heap_counted() {
    // Past 2^12 heaps the values come through a proven period; without
    // rows the range is summed class by class by the theorem of
    // `period_totals`. The rows, counted heap by heap, are the reference.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for name in [
        "kayles",
        "0.137",
        "0.07",
        "0.51",
        "sub(1,3,4)",
        "sub(2,5,7)",
        "0.15",
    ] {
        let game: HeapGame = name.parse().unwrap();
        let solver = TableSolver::new();
        let to = 9_000;
        let listed =
            heap_move_table(&game, 0, to, true, &solver, u64::MAX, &mut |_, _| true).unwrap();
        let rows = listed.rows.unwrap();
        let row_tuples: Vec<_> = rows
            .iter()
            .map(|r| (r.value.get(), r.count, r.fewest_taken, r.most_taken))
            .collect();
        if name == "0.137" {
            // Rows past the table go through the period too.
            assert_eq!(row_tuples, reference(&game, to), "{name}");
        }
        for _ in 0..6 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let from = (seed % 5000) as usize;
            let last = from + (seed >> 20) as usize % (to - from + 1);
            let counted = heap_move_table(
                &game,
                from,
                last.max(4097),
                false,
                &solver,
                u64::MAX,
                &mut |_, _| true,
            )
            .unwrap();
            assert!(counted.rows.is_none());
            assert_eq!(
                totals(&counted),
                by_value(&row_tuples, from, last.max(4097)),
                "{name} {from}..={last}"
            );
        }
    }
}

#[test]
fn long_ranges_are_counted_through_the_period_or_refused() {
    let kayles: HeapGame = "kayles".parse().unwrap();
    let solver = TableSolver::new();
    let far = heap_move_table(
        &kayles,
        1,
        1_000_000_000_000,
        false,
        &solver,
        u64::MAX,
        &mut |_, _| true,
    )
    .unwrap();
    let period = far.through_period.expect("Kayles' period is proven");
    assert_eq!((period.preperiod, period.period), (71, 12));
    let heaps: u128 = far.by_value.iter().map(|t| t.heaps).sum();
    assert_eq!(heaps, 1_000_000_000_000);
    // Every heap of Kayles but 0 is won (the mirror strategy).
    assert_ne!(far.by_value[0].value, Nimber::ZERO);
    // Dawson's Kayles has P-positions all the way: they have no winning move.
    let dawson: HeapGame = "0.137".parse().unwrap();
    let far = heap_move_table(
        &dawson,
        1,
        1 << 60,
        false,
        &solver,
        u64::MAX,
        &mut |_, _| true,
    )
    .unwrap();
    assert_eq!(far.by_value[0].value, Nimber::ZERO);
    assert!(far.by_value[0].heaps > 1 << 55);
    assert_eq!(far.by_value[0].winning_moves, 0);
    // Listing that many rows is refused, naming the knob.
    let refused = heap_move_table(
        &kayles,
        1,
        10_000_000,
        true,
        &solver,
        u64::MAX,
        &mut |_, _| true,
    );
    assert!(
        matches!(
            refused,
            Err(grundy::Error::Refused {
                knob: grundy::Knob::Rows,
                ..
            })
        ),
        "{refused:?}"
    );
    // A game without a period that answers past the table is refused.
    let squares: HeapGame = "sub(squares)".parse().unwrap();
    let refused = heap_move_table(
        &squares,
        0,
        100_000_000,
        false,
        &solver,
        u64::MAX,
        &mut |_, _| true,
    );
    assert!(refused.is_err());
    // An empty range is an error, not an empty table.
    assert!(heap_move_table(&kayles, 5, 4, false, &solver, u64::MAX, &mut |_, _| true).is_err());
}

#[test]
fn counts_agree_with_the_winning_moves_a_sum_lists() {
    // A heap alone is a sum of one component: `analyze_sum` lists its
    // winning moves (each leaving a P-position), by a separate path.
    for name in ["kayles", "0.137", "4.7", "sub(1,3,4)", "0.{2+}"] {
        let game: HeapGame = name.parse().unwrap();
        let solver = TableSolver::new();
        let to = 40;
        let table =
            heap_move_table(&game, 0, to, true, &solver, u64::MAX, &mut |_, _| true).unwrap();
        for row in table.rows.unwrap() {
            let sum = grundy::analyze_sum(
                std::slice::from_ref(&game),
                &[grundy::Component {
                    game: 0,
                    heap: row.heap,
                }],
                &solver,
                u64::MAX,
            )
            .unwrap();
            assert_eq!(sum.winning_move_count, row.count, "{name} {}", row.heap);
            let taken: Vec<i64> = sum
                .winning_moves
                .iter()
                .map(|m| (m.from - m.to.iter().sum::<usize>()) as i64)
                .collect();
            assert_eq!(
                taken.iter().min().copied(),
                row.fewest_taken,
                "{name} {}",
                row.heap
            );
            assert_eq!(
                taken.iter().max().copied(),
                row.most_taken,
                "{name} {}",
                row.heap
            );
        }
    }
}

#[test]
fn pair_games_count_the_winning_moves_a_sum_lists() {
    for name in ["wythoff", "rook(sub(1,2),kayles)", "rook(0.{2+},nim)"] {
        let game = grundy::rules::PairGame::parse(name).unwrap().unwrap();
        let to = 12;
        let rows = game.move_table(to, 1 << 30, &mut |_, _| true).unwrap();
        assert_eq!(rows.len(), 13 * 13);
        for row in rows {
            let sum = game.analyze_positions(&[row.position], 1 << 30).unwrap();
            let distinct: BTreeSet<Vec<(usize, usize)>> = sum
                .winning_moves
                .iter()
                .map(|m| {
                    let mut to: Vec<(usize, usize)> =
                        m.to.iter().copied().filter(|&p| p != (0, 0)).collect();
                    to.sort_unstable();
                    to
                })
                .collect();
            assert_eq!(row.value, sum.nim_sum, "{name} {:?}", row.position);
            assert_eq!(
                row.count,
                distinct.len() as u64,
                "{name} {:?}",
                row.position
            );
        }
    }
}

/// A script's tuples: Nim on three heaps written as one tuple position.
/// By Bouton's theorem a position is worth the XOR `X` of its heaps, and
/// its winning moves are the moves of each heap `a` with `a ^ X < a` to
/// `a ^ X`: one for each such heap.
#[test]
fn tuple_positions_of_a_script_follow_bouton() {
    use grundy::rules::{ScriptGame, ScriptLimits, ScriptPosition};
    let nim = "fn options(p) {
        let out = [];
        for i in 0..p.len() {
            for k in 1..=p[i] { let q = p; q[i] -= k; out.push(q); }
        }
        out
    }";
    let game = ScriptGame::compile("nim3", nim, ScriptLimits::default()).unwrap();
    let start: ScriptPosition = "[3,5,6]".parse().unwrap();
    let explored = game.explore(&[start]).unwrap();
    let positions = explored.positions();
    assert_eq!(positions.len(), 4 * 6 * 7);
    let table = grundy::position_move_table(&explored, &positions, &mut |_, _| true).unwrap();
    for row in &table {
        let ScriptPosition::Tuple(heaps) = &row.position else {
            panic!("{:?} is no tuple", row.position);
        };
        let x = heaps.iter().fold(0, |x, &h| x ^ h);
        assert_eq!(i64::from(row.value.get()), x, "{:?}", row.position);
        let expected: Vec<ScriptPosition> = (0..heaps.len())
            .filter(|&i| heaps[i] ^ x < heaps[i])
            .map(|i| {
                let mut to = heaps.clone();
                to[i] ^= x;
                ScriptPosition::Tuple(to)
            })
            .collect();
        let found: Vec<ScriptPosition> = row
            .winning_moves
            .iter()
            .map(|m| {
                assert_eq!(m.len(), 1);
                m[0].clone()
            })
            .collect();
        assert_eq!(found, expected, "{:?}", row.position);
    }
}
