//! Coin-turning games against the literature and against plain game-tree
//! search on rows and grids of coins, where the coin-turning and Tartan
//! theorems are not assumed.

use grundy::analysis::{analyze_coins, analyze_grid, coin_move_table};
use grundy::rules::CoinRule;
use grundy::solve::tartan_table;
use grundy::{MemoSolver, Nimber, Options, Ruleset};

mod common;
use common::testdata;

const LIMIT: u64 = 1 << 30;

/// The tables of a grid count within [`LIMIT`] bytes, with no work limit.
const UNLIMITED: grundy::analysis::TableBudget = grundy::analysis::TableBudget {
    memory: LIMIT,
    work: u64::MAX,
};

fn rule(spec: &str) -> CoinRule {
    spec.parse().unwrap()
}

fn values(spec: &str, to: u64) -> Vec<u64> {
    let table = rule(spec).table(to, &[], LIMIT, u64::MAX).unwrap();
    table.values[1..].iter().map(|&v| u64::from(v)).collect()
}

#[test]
fn turning_turtles_is_nim() {
    assert_eq!(values("turtles", 500), (1..=500).collect::<Vec<u64>>());
}

#[test]
fn mock_turtles_are_the_odious_numbers_a000069() {
    let odious: Vec<u64> = testdata("oeis/A000069.txt")
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert_eq!(values("mock-turtles", odious.len() as u64), odious);
    let mock = rule("mock-turtles");
    // 2^40 - 1 has an even number of ones, so the odious number is 2m + 1.
    assert_eq!(mock.value(1 << 40, LIMIT).unwrap(), 2 * ((1 << 40) - 1) + 1);
}

#[test]
fn grunt_is_grundys_game_shifted_by_one() {
    let grundy: Vec<u64> = testdata("oeis/A002188.txt")
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert_eq!(values("grunt", grundy.len() as u64), grundy);
    let by_engine = rule("grunt").values(5000, LIMIT, &mut |_| true).unwrap();
    let by_definition = rule("grunt")
        .table(5000, &[], LIMIT, u64::MAX)
        .unwrap()
        .values;
    assert_eq!(by_engine, by_definition);
}

#[test]
fn ruler_is_the_largest_power_of_two_dividing_n() {
    let found = values("ruler", 1000);
    for (i, &v) in found.iter().enumerate() {
        let n = i as u64 + 1;
        assert_eq!(v, 1 << n.trailing_zeros(), "coin {n}");
    }
}

/// The sets of coins (bit `c - 1` for coin `c`) that a move with rightmost
/// coin `n` may turn, from the rule's words.
fn moves_from_the_rule(spec: &str, n: usize) -> Vec<u32> {
    let others = (1..n).map(|c| 1u32 << (c - 1));
    let subsets = |size: usize| -> Vec<u32> {
        let mut sets = vec![0u32];
        for bit in others.clone() {
            let more: Vec<u32> = sets.iter().map(|s| s | bit).collect();
            sets.extend(more);
        }
        sets.retain(|s| s.count_ones() as usize <= size);
        sets
    };
    let corner = 1u32 << (n - 1);
    let sets: Vec<u32> = match spec {
        "turn(1)" => vec![0],
        "turtles" => subsets(1),
        "mock-turtles" => subsets(2),
        "turn(4)" => subsets(3),
        "twins" => subsets(1)
            .into_iter()
            .filter(|s| s.count_ones() == 1)
            .collect(),
        "turn(=3)" => subsets(2)
            .into_iter()
            .filter(|s| s.count_ones() == 2)
            .collect(),
        "ruler" => (0..n).map(|j| ((1u32 << j) - 1) << (n - 1 - j)).collect(),
        "ruler(2)" => (0..n.min(2))
            .map(|j| ((1u32 << j) - 1) << (n - 1 - j))
            .collect(),
        "ruler(3)" => (0..n.min(3))
            .map(|j| ((1u32 << j) - 1) << (n - 1 - j))
            .collect(),
        // Coins 1, 1 + i and n - i (bits 0, i and n - i - 1).
        "grunt" => (1..n)
            .filter(|&i| 1 + i < n - i)
            .map(|i| 1 | 1 << i | 1 << (n - i - 1))
            .collect(),
        other => panic!("no brute-force rule for {other}"),
    };
    sets.into_iter().map(|s| s | corner).collect()
}

const RULES: [&str; 10] = [
    "turn(1)",
    "turtles",
    "mock-turtles",
    "turn(4)",
    "twins",
    "turn(=3)",
    "ruler",
    "ruler(2)",
    "ruler(3)",
    "grunt",
];

/// Rows of coins as bitmasks of heads; every move of the rule.
struct Row {
    spec: &'static str,
    coins: usize,
}

impl Ruleset for Row {
    type Position = u32;

    fn options(&self, &heads: &u32, out: &mut Options<u32>) {
        for n in 1..=self.coins {
            if heads >> (n - 1) & 1 == 1 {
                for turned in moves_from_the_rule(self.spec, n) {
                    out.push([heads ^ turned]);
                }
            }
        }
    }
}

#[test]
fn every_row_of_up_to_nine_coins_is_the_nim_sum_of_its_heads() {
    for spec in RULES {
        let coins = 9;
        let row = Row { spec, coins };
        let mut solver = MemoSolver::new(&row);
        let table = rule(spec)
            .table(coins as u64, &[], LIMIT, u64::MAX)
            .unwrap();
        for heads in 0u32..1 << coins {
            let from_values: Nimber = (1..=coins)
                .filter(|n| heads >> (n - 1) & 1 == 1)
                .map(|n| table.values[n])
                .sum();
            assert_eq!(
                solver.value(&heads).unwrap(),
                from_values,
                "{spec} {heads:b}"
            );
        }
    }
}

#[test]
fn winning_moves_are_legal_and_lead_to_p_positions() {
    for spec in RULES {
        let coins = 9;
        let row = Row { spec, coins };
        let mut solver = MemoSolver::new(&row);
        for heads in 0u32..1 << coins {
            let list: Vec<usize> = (1..=coins).filter(|n| heads >> (n - 1) & 1 == 1).collect();
            let found = analyze_coins(&rule(spec), &list, LIMIT, u64::MAX).unwrap();
            assert_eq!(
                found.winning_moves.is_empty(),
                found.nim_sum.is_zero(),
                "{spec} {heads:b}"
            );
            for m in &found.winning_moves {
                let turned = m
                    .also
                    .iter()
                    .fold(1u32 << (m.coin - 1), |t, c| t | 1 << (c - 1));
                assert!(
                    moves_from_the_rule(spec, m.coin).contains(&turned),
                    "{spec} {m:?}"
                );
                assert!(
                    solver.value(&(heads ^ turned)).unwrap().is_zero(),
                    "{spec} {m:?}"
                );
            }
        }
    }
}

/// Grids of coins (bit `(y - 1) * width + (x - 1)` for coin `(x, y)`) under
/// the product of two rules: a move turns `S x T`.
struct Grid {
    columns: &'static str,
    rows: &'static str,
    width: usize,
    height: usize,
}

impl Grid {
    fn bit(&self, x: usize, y: usize) -> u32 {
        1 << ((y - 1) * self.width + (x - 1))
    }

    fn product_moves(&self, x: usize, y: usize) -> Vec<u32> {
        let mut moves = Vec::new();
        for s in moves_from_the_rule(self.columns, x) {
            for t in moves_from_the_rule(self.rows, y) {
                let mut turned = 0;
                for cx in (1..=x).filter(|c| s >> (c - 1) & 1 == 1) {
                    for cy in (1..=y).filter(|c| t >> (c - 1) & 1 == 1) {
                        turned |= self.bit(cx, cy);
                    }
                }
                moves.push(turned);
            }
        }
        moves
    }
}

impl Ruleset for Grid {
    type Position = u32;

    fn options(&self, &heads: &u32, out: &mut Options<u32>) {
        for y in 1..=self.height {
            for x in 1..=self.width {
                if heads & self.bit(x, y) != 0 {
                    for turned in self.product_moves(x, y) {
                        out.push([heads ^ turned]);
                    }
                }
            }
        }
    }
}

#[test]
fn tartan_products_agree_with_search_on_small_grids() {
    for (columns, rows) in [
        ("turtles", "turtles"),
        ("ruler", "ruler"),
        ("mock-turtles", "ruler"),
        ("twins", "turn(=3)"),
        ("ruler(2)", "mock-turtles"),
    ] {
        let grid = Grid {
            columns,
            rows,
            width: 4,
            height: 3,
        };
        let mut solver = MemoSolver::new(&grid);
        let table = tartan_table(&rule(columns), &rule(rows), 4, LIMIT, u64::MAX).unwrap();
        for heads in 0u32..1 << 12 {
            let coins: Vec<(usize, usize)> = (1..=3)
                .flat_map(|y| (1..=4).map(move |x| (x, y)))
                .filter(|&(x, y)| heads & grid.bit(x, y) != 0)
                .collect();
            let expected = solver.value(&heads).unwrap();
            let from_table: Nimber = coins.iter().map(|&(x, y)| table[y][x]).sum();
            assert_eq!(from_table, expected, "{columns}*{rows} {heads:b}");
            let found = analyze_grid(&rule(columns), &rule(rows), &coins, LIMIT, u64::MAX).unwrap();
            assert_eq!(found.nim_sum, expected);
            assert_eq!(
                found.winning_move.is_some(),
                !expected.is_zero(),
                "{columns}*{rows} {heads:b}"
            );
            if let Some(m) = found.winning_move {
                let (x, y) = (*m.columns.last().unwrap(), *m.rows.last().unwrap());
                assert!(heads & grid.bit(x, y) != 0, "the corner is a head");
                let mut turned = 0;
                for &cx in &m.columns {
                    for &cy in &m.rows {
                        turned |= grid.bit(cx, cy);
                    }
                }
                assert!(grid.product_moves(x, y).contains(&turned), "legal: {m:?}");
                assert!(
                    solver.value(&(heads ^ turned)).unwrap().is_zero(),
                    "wins: {m:?}"
                );
            }
            // Every winning move is listed, once: the moves from each head
            // (the corner) that leave a position worth 0.
            let mut expected = std::collections::BTreeSet::new();
            for &(x, y) in &coins {
                for turned in grid.product_moves(x, y) {
                    if solver.value(&(heads ^ turned)).unwrap().is_zero() {
                        expected.insert(turned);
                    }
                }
            }
            let listed: Vec<u32> = found
                .winning_moves
                .iter()
                .map(|m| {
                    let mut turned = 0;
                    for &cx in &m.columns {
                        for &cy in &m.rows {
                            turned |= grid.bit(cx, cy);
                        }
                    }
                    turned
                })
                .collect();
            assert!(found.complete);
            assert_eq!(listed.len(), expected.len(), "{columns}*{rows} {heads:b}");
            assert_eq!(
                listed
                    .into_iter()
                    .collect::<std::collections::BTreeSet<_>>(),
                expected,
                "{columns}*{rows} {heads:b}"
            );
        }
    }
}

/// The winning moves of a lone head on every coin (`grundy moves`),
/// counted by values and counts of values (with the Tartan theorem on a
/// grid), against every move of the rule searched: on rows of 9 coins for
/// every rule, and on 4 x 4 grids for five products.
#[test]
fn lone_heads_count_the_winning_moves_search_finds() {
    for spec in RULES {
        let coins = 9;
        let row = Row { spec, coins };
        let mut solver = MemoSolver::new(&row);
        let table = coin_move_table(&rule(spec), None, coins, LIMIT, u64::MAX).unwrap();
        assert_eq!(table.len(), coins);
        for (n, found) in (1..=coins).zip(&table) {
            let head = 1u32 << (n - 1);
            let wins = moves_from_the_rule(spec, n)
                .into_iter()
                .filter(|&turned| solver.value(&(head ^ turned)).unwrap().is_zero())
                .count();
            assert_eq!(found.coin, n);
            assert_eq!(found.value, solver.value(&head).unwrap(), "{spec} {n}");
            assert_eq!(found.count, wins as u128, "{spec} coin {n}");
        }
    }
    for (columns, rows) in [
        ("turtles", "turtles"),
        ("ruler", "ruler"),
        ("mock-turtles", "ruler"),
        ("twins", "turn(=3)"),
        ("turn(4)", "mock-turtles"),
    ] {
        let grid = Grid {
            columns,
            rows,
            width: 4,
            height: 4,
        };
        let mut solver = MemoSolver::new(&grid);
        let table = coin_move_table(&rule(columns), Some(&rule(rows)), 4, LIMIT, u64::MAX).unwrap();
        assert_eq!(table.len(), 16);
        for found in &table {
            let (x, y) = (found.coin, found.row.unwrap());
            let head = grid.bit(x, y);
            let wins = grid
                .product_moves(x, y)
                .into_iter()
                .filter(|&turned| solver.value(&(head ^ turned)).unwrap().is_zero())
                .count();
            assert_eq!(
                found.value,
                solver.value(&head).unwrap(),
                "{columns}*{rows}"
            );
            assert_eq!(found.count, wins as u128, "{columns}*{rows} at ({x}, {y})");
        }
    }
    // The counts of turn(k) are bounded in work and memory, refused past.
    let refused = coin_move_table(&rule("turn(4)"), None, 5000, LIMIT, 1_000_000);
    assert!(
        matches!(refused, Err(grundy::Error::WorkLimit { .. })),
        "{refused:?}"
    );
    let turtles = rule("turtles");
    let refused = coin_move_table(&turtles, Some(&turtles), 1000, LIMIT, 1_000_000);
    assert!(
        matches!(refused, Err(grundy::Error::WorkLimit { .. })),
        "{refused:?}"
    );
}

/// A product of two ruler games on 20,000 x 20,000: each table visits its
/// runs once (listing every run made it cubic: 10,000 x 10,000 took 144 s),
/// and the winning move found leaves nim-sum 0.
#[test]
fn a_ruler_grid_of_20000_coins_a_side_is_quadratic_not_cubic() {
    let ruler = rule("ruler");
    let heads = [(20_000, 20_000), (3, 5)];
    let found = analyze_grid(&ruler, &ruler, &heads, 1 << 30, u64::MAX).unwrap();
    let move_ = found.winning_move.expect("the nim-sum is not 0");
    // Turning S x T changes the nim-sum by g(S) ⊗ g(T), the sums of the
    // turned coins' values: it must cancel the nim-sum.
    let g = |n: usize| Nimber::new(1 << (n as u32).trailing_zeros());
    let sum = |coins: &[usize]| coins.iter().map(|&c| g(c)).sum::<Nimber>();
    let product = Nimber::new(grundy::nim_field::mul(
        u64::from(sum(&move_.columns).get()),
        u64::from(sum(&move_.rows).get()),
    ) as u32);
    assert_eq!(product, found.nim_sum);
}

/// Positions of a grid (or, without a row rule, a row) of coins by
/// nim-sum, by listing every set of heads: cell values from the Tartan
/// table (or the row's values).
fn positions_by_nim_sum(
    columns_rule: &str,
    rows_rule: Option<&str>,
    columns: usize,
    rows: usize,
) -> std::collections::HashMap<u64, u64> {
    let cells: Vec<u64> = match rows_rule {
        Some(rows_rule) => {
            let side = columns.max(rows) as u64;
            let table =
                tartan_table(&rule(columns_rule), &rule(rows_rule), side, LIMIT, u64::MAX).unwrap();
            (1..=rows)
                .flat_map(|y| (1..=columns).map(move |x| (x, y)))
                .map(|(x, y)| u64::from(table[y][x].get()))
                .collect()
        }
        None => values(columns_rule, columns as u64),
    };
    let mut counts = std::collections::HashMap::new();
    for heads in 0u32..1 << cells.len() {
        let sum = (0..cells.len())
            .filter(|i| heads >> i & 1 == 1)
            .fold(0, |acc, i| acc ^ cells[i]);
        *counts.entry(sum).or_insert(0) += 1;
    }
    counts
}

#[test]
fn grid_counts_equal_the_positions_listed_for_every_nim_sum() {
    use grundy::analysis::{Arithmetic, count_grid};
    let pairs = [
        ("ruler", Some("ruler")),
        ("mock-turtles", Some("turtles")),
        ("turn(4)", Some("ruler(3)")),
        ("runs(1,3,4)", Some("mock-turtles")),
        ("grunt", Some("twins")),
        ("turn(=3)", Some("ruler")),
        ("mock-turtles", None),
        ("runs(2,3)", None),
    ];
    for (columns_rule, rows_rule) in pairs {
        let sizes: &[(usize, usize)] = match rows_rule {
            Some(_) => &[(3, 4), (4, 3), (2, 5), (1, 6)],
            None => &[(12, 1), (5, 1)],
        };
        for &(columns, rows) in sizes {
            let listed = positions_by_nim_sum(columns_rule, rows_rule, columns, rows);
            let what = format!("{columns_rule} * {rows_rule:?}, {columns} x {rows}");
            for arithmetic in [
                Arithmetic::Exact,
                Arithmetic::Modulo(1_000_000_007),
                Arithmetic::Modulo(12),
                Arithmetic::Modulo(1),
            ] {
                let counts = count_grid(
                    &rule(columns_rule),
                    rows_rule.map(rule).as_ref(),
                    columns as u64,
                    rows as u64,
                    arithmetic,
                    UNLIMITED,
                    &mut |_| true,
                )
                .unwrap();
                let reduce = |n: u64| match arithmetic {
                    Arithmetic::Exact => n,
                    Arithmetic::Modulo(m) => n % m,
                };
                let largest = listed.keys().max().copied().unwrap_or(0);
                for v in 0..=(largest + 1).next_power_of_two() {
                    let expected = reduce(listed.get(&v).copied().unwrap_or(0));
                    assert_eq!(
                        counts.with_nim_sum(v).to_string(),
                        expected.to_string(),
                        "{what}, nim-sum {v}, {arithmetic:?}"
                    );
                }
                let total = 1u64 << (columns * rows);
                let p = listed[&0];
                assert_eq!(
                    counts.total.to_string(),
                    reduce(total).to_string(),
                    "{what}"
                );
                assert_eq!(
                    counts.p_positions().to_string(),
                    reduce(p).to_string(),
                    "{what}"
                );
                assert_eq!(
                    counts.n_positions().to_string(),
                    reduce(total - p).to_string(),
                    "{what}"
                );
                assert_eq!(1 << counts.span.rank(), listed.len(), "{what}");
            }
        }
    }
}

/// `2^e mod m` by squaring, with the exponent reduced first by Fermat's
/// little theorem (`m` prime): another route than the library's.
fn power_of_two_mod_prime(e: u128, m: u64) -> u64 {
    let mut e = (e % u128::from(m - 1)) as u64;
    let (mut base, mut result) = (2u128, 1u128);
    while e > 0 {
        if e & 1 == 1 {
            result = result * base % u128::from(m);
        }
        base = base * base % u128::from(m);
        e >>= 1;
    }
    result as u64
}

#[test]
fn huge_grids_are_counted_modulo_a_prime_through_closed_forms() {
    use grundy::analysis::{Arithmetic, count_grid};
    let p = 1_000_000_007;
    let side = 1_000_000_000_000u64;
    // The ruler's values on 10^12 coins are the powers of two up to 2^39,
    // spanning every number below 2^40; their products include every
    // a * 1 and 2^32 * b = 2^32 b for a, b < 2^32, hence every number below
    // 2^64: the rank is 64.
    let counts = count_grid(
        &rule("ruler"),
        Some(&rule("ruler")),
        side,
        side,
        Arithmetic::Modulo(p),
        UNLIMITED,
        &mut |_| true,
    )
    .unwrap();
    assert!(counts.columns_by.by_theorem() && counts.rows_by.by_theorem());
    assert_eq!(counts.span.rank(), 64);
    let cells = u128::from(side) * u128::from(side);
    let expected = power_of_two_mod_prime(cells - 64, p);
    assert_eq!(counts.p_positions().to_string(), expected.to_string());
    assert_eq!(
        counts.with_nim_sum(u64::MAX).to_string(),
        expected.to_string()
    );
    assert_eq!(
        counts.total.to_string(),
        power_of_two_mod_prime(cells, p).to_string()
    );
    // A row of 10^18 Mock Turtles: the odious numbers up to g(10^18), which
    // has 61 bits, span every number below 2^61.
    let row = count_grid(
        &rule("mock-turtles"),
        None,
        1_000_000_000_000_000_000,
        1,
        Arithmetic::Modulo(p),
        UNLIMITED,
        &mut |_| true,
    )
    .unwrap();
    assert_eq!(row.span.rank(), 61);
    assert!(!row.span.contains(1 << 61));
    assert_eq!(row.with_nim_sum(1 << 61).to_string(), "0");
    assert_eq!(
        row.p_positions().to_string(),
        power_of_two_mod_prime(1_000_000_000_000_000_000 - 61, p).to_string()
    );
}

/// Rules of runs have a period the coin-run window proves
/// (`Theorem::CoinRuns`): each rule's proven period predicts every value of
/// a table computed by the definition far past the coins it was proven on,
/// a row past those coins has the span of the whole table, and a grid of
/// 10^12 x 10^12 coins is counted through the periods.
#[test]
fn rules_of_runs_are_counted_through_their_proven_periods() {
    use grundy::analysis::{Arithmetic, count_grid};
    use grundy::analysis::{COIN_PERIOD_FIRST, ValuesBy};
    use grundy::nim_field::XorBasis;
    for spec in [
        "ruler(3)",
        "ruler(5)",
        "runs(2)",
        "runs(3)",
        "runs(2,5)",
        "runs(1,3,4)",
        "runs(2,7,11)",
        "runs(4,9,16)",
    ] {
        let r = rule(spec);
        let found = r
            .proven_period(1 << 16, LIMIT, &mut |_| true)
            .unwrap()
            .unwrap_or_else(|| panic!("{spec}: no period proven"));
        let (n0, p) = (found.periodicity.preperiod, found.periodicity.period);
        let computed = found.values.len() - 1;
        assert!(found.last_coin_needed <= computed, "{spec}");
        let far = 3 * computed + 5000;
        let table = r.table(far as u64, &[], LIMIT, u64::MAX).unwrap().values;
        for n in n0..=far {
            assert_eq!(table[n], table[n0 + (n - n0) % p], "{spec}: coin {n}");
        }
        let to = (computed + 10_000) as u64;
        assert!(to > COIN_PERIOD_FIRST);
        let (span, by) = r.value_span(to, LIMIT, u64::MAX, &mut |_| true).unwrap();
        assert!(matches!(by, ValuesBy::Period { .. }), "{spec}: {by:?}");
        let mut direct = XorBasis::new();
        for v in &table[1..=to as usize] {
            direct.insert(u64::from(v.get()));
        }
        assert_eq!(span, direct, "{spec}");
    }
    let p = 1_000_000_007;
    let side = 1_000_000_000_000u64;
    let counts = count_grid(
        &rule("runs(2,5)"),
        Some(&rule("ruler(3)")),
        side,
        side,
        Arithmetic::Modulo(p),
        UNLIMITED,
        &mut |_| true,
    )
    .unwrap();
    assert!(matches!(counts.columns_by, ValuesBy::Period { .. }));
    assert!(matches!(counts.rows_by, ValuesBy::Period { .. }));
    let cells = u128::from(side) * u128::from(side);
    let rank = u128::from(counts.span.rank());
    assert_eq!(
        counts.p_positions().to_string(),
        power_of_two_mod_prime(cells - rank, p).to_string()
    );
}

#[test]
fn grid_counts_refuse_what_they_cannot_do_within_their_limits() {
    use grundy::Error;
    use grundy::analysis::{Arithmetic, EXACT_GRID_CELLS, TableBudget, count_grid};
    let count = |columns_rule: &str, rows_rule: Option<&str>, columns, rows, arithmetic| {
        count_grid(
            &rule(columns_rule),
            rows_rule.map(rule).as_ref(),
            columns,
            rows,
            arithmetic,
            UNLIMITED,
            &mut |_| true,
        )
    };
    let modulo = Arithmetic::Modulo(1_000_000_007);
    // Grundy's game has no closed form and no period theorem: a table of
    // 10^12 coins is refused.
    assert!(matches!(
        count("ruler", Some("grunt"), 3, 1_000_000_000_000, modulo),
        Err(Error::TableTooLarge { .. })
    ));
    // turn(4) has no closed form (its values are a lexicode, growing like
    // a power of the coin): a table of 10^5 coins is refused within a
    // budget of 10^9 word operations as soon as it is sure to pass it,
    // while 100 coins fit and count as the direct span says.
    let turn4 = rule("turn(4)");
    let within = |coins, work| {
        count_grid(
            &turn4,
            None,
            coins,
            1,
            modulo,
            TableBudget {
                memory: LIMIT,
                work,
            },
            &mut |_| true,
        )
    };
    match within(100_000, 1_000_000_000) {
        Err(error @ Error::WorkLimit { .. }) => {
            let message = error.to_string();
            assert!(
                message.contains("a table of turn(4) to coin 100000"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    let table = turn4.table(100, &[], LIMIT, u64::MAX).unwrap();
    let mut direct = grundy::nim_field::XorBasis::new();
    for v in &table.values[1..] {
        direct.insert(u64::from(v.get()));
    }
    assert_eq!(
        within(100, 1_000_000_000).unwrap().span.rank(),
        direct.rank()
    );
    // Its bitsets grow with its values, past the 2 bits a coin of the
    // other rules: the memory limit holds as they grow.
    assert!(matches!(
        count_grid(
            &turn4,
            None,
            1000,
            1,
            modulo,
            TableBudget {
                memory: 1 << 16,
                work: u64::MAX,
            },
            &mut |_| true
        ),
        Err(Error::TableTooLarge { .. })
    ));
    // Exact counts stop at EXACT_GRID_CELLS coins, whatever the rules.
    let side = 1 << 11;
    assert!(u128::from(side) * u128::from(side) > EXACT_GRID_CELLS);
    assert!(matches!(
        count("ruler", Some("ruler"), side, side, Arithmetic::Exact),
        Err(Error::InvalidRange { .. })
    ));
    assert!(count("ruler", Some("ruler"), side, side, modulo).is_ok());
    // A row has one row; sides start at coin 1.
    assert!(count("ruler", None, 4, 2, modulo).is_err());
    assert!(count("ruler", Some("ruler"), 0, 4, modulo).is_err());
    assert!(count("ruler", Some("ruler"), 4, 0, Arithmetic::Exact).is_err());
}

#[test]
fn tables_past_the_work_limit_are_refused_and_the_limit_counts_work_not_time() {
    let refused = |found: grundy::Result<_>| match found {
        Err(grundy::Error::WorkLimit {
            at_least, limit, ..
        }) => {
            assert!(at_least > u128::from(limit));
        }
        Err(other) => panic!("refused otherwise: {other}"),
        Ok(_) => panic!("not refused"),
    };
    let limit = grundy::session::DEFAULT_WORK;
    // Rules whose moves are listed: refused before the table starts.
    refused(
        rule("grunt")
            .table(1_000_000, &[], LIMIT, limit)
            .map(|_| ()),
    );
    refused(analyze_coins(&rule("ruler"), &[1_000_000], LIMIT, limit).map(|_| ()));
    refused(
        analyze_grid(
            &rule("grunt"),
            &rule("grunt"),
            &[(1_000_000, 1_000_000)],
            LIMIT,
            limit,
        )
        .map(|_| ()),
    );
    // turn(7)'s bitsets grow with its values: refused once sure to pass.
    refused(
        rule("turn(7)")
            .table(1_000_000, &[], LIMIT, limit)
            .map(|_| ()),
    );
    // The same tables within a limit they fit run.
    assert!(rule("grunt").table(2000, &[], LIMIT, limit).is_ok());
    assert!(analyze_coins(&rule("ruler"), &[2000], LIMIT, limit).is_ok());
    refused(rule("grunt").table(2000, &[], LIMIT, 1000).map(|_| ()));
}
