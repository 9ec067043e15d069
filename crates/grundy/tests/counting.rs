//! Counts of positions by nim-sum against brute-force enumeration, periodic
//! extrapolation against tabulation, and modular against exact arithmetic.

use grundy::BigUint;
use grundy::analysis::{
    Arithmetic, ByFormula, Formula, Histogram, HistogramSource, Limits, TupleBudget, Tuples,
    count_copies, count_ordered, count_tuples, formula_histogram, range_histogram, value_histogram,
};
use grundy::{Component, HeapGame, TableSolver, analyze_sum};
use proptest::prelude::*;

fn histogram(game: &HeapGame, from: u64, to: u64) -> Histogram {
    value_histogram(game, from, to, &TableSolver::new(), &Limits::default()).unwrap()
}

fn values(game: &HeapGame, to: u64) -> Vec<u32> {
    let table = TableSolver::new().values(game, to).unwrap();
    table.iter().map(|v| v.get()).collect()
}

/// Every k-tuple of heaps in `from..=to` that `keep` accepts, by nim-sum.
fn brute_force(
    g: &[u32],
    from: usize,
    to: usize,
    k: usize,
    keep: &dyn Fn(&[usize]) -> bool,
) -> Vec<u64> {
    let mut counts = vec![0u64; 256];
    let mut tuple = vec![from; k];
    loop {
        if keep(&tuple) {
            counts[tuple.iter().fold(0, |x, &h| x ^ g[h]) as usize] += 1;
        }
        // Next tuple, odometer style.
        let mut i = 0;
        loop {
            if i == k {
                return counts;
            }
            if tuple[i] < to {
                tuple[i] += 1;
                break;
            }
            tuple[i] = from;
            i += 1;
        }
    }
}

fn as_u64(counts: &[BigUint]) -> Vec<u64> {
    let mut out: Vec<u64> = counts.iter().map(|c| c.try_into().unwrap()).collect();
    out.resize(256, 0);
    out
}

fn small_game() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("kayles".to_owned()),
        Just("sub(1,3,4)".to_owned()),
        Just("0.137".to_owned()),
        Just("grundy".to_owned()),
        Just("sub(squares)".to_owned()),
        (1u8..8, 0u8..8).prop_map(|(a, b)| format!("0.{a}{b}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn tuples_of_one_range_agree_with_enumeration(
        spec in small_game(),
        from in 0usize..6,
        len in 0usize..9,
        k in 1usize..5,
    ) {
        let game: HeapGame = spec.parse().unwrap();
        let to = from + len;
        let g = values(&game, to as u64);
        let h = histogram(&game, from as u64, to as u64);
        let ordered = brute_force(&g, from, to, k, &|_| true);
        let unordered = brute_force(&g, from, to, k, &|t| t.windows(2).all(|w| w[0] <= w[1]));
        let distinct = brute_force(&g, from, to, k, &|t| t.windows(2).all(|w| w[0] < w[1]));
        let all_different = |t: &[usize]| {
            t.iter().enumerate().all(|(i, a)| t[i + 1..].iter().all(|b| a != b))
        };
        let ordered_distinct = brute_force(&g, from, to, k, &all_different);
        for (tuples, expected) in [
            (Tuples::Ordered, ordered),
            (Tuples::OrderedDistinct, ordered_distinct),
            (Tuples::Unordered, unordered),
            (Tuples::Distinct, distinct),
        ] {
            let exact = count_tuples(&h, k as u64, tuples, Arithmetic::Exact, TupleBudget::default()).unwrap();
            prop_assert_eq!(as_u64(&exact.by_nim_sum), expected.clone(), "{} {:?} k={}", spec, tuples, k);
            prop_assert_eq!(&exact.total, &BigUint::from(expected.iter().sum::<u64>()));
            for m in [1u64, 2, 7, 12, 1_000_000_007] {
                let modular = count_tuples(&h, k as u64, tuples, Arithmetic::Modulo(m), TupleBudget::default()).unwrap();
                let reduced: Vec<BigUint> = exact.by_nim_sum.iter().map(|c| c % m).collect();
                prop_assert_eq!(&modular.by_nim_sum, &reduced, "mod {}", m);
            }
        }
    }

    #[test]
    fn ordered_positions_of_different_games_agree_with_enumeration(
        specs in prop::collection::vec(small_game(), 1..4),
        ranges in prop::collection::vec((0usize..5, 0usize..6), 3),
    ) {
        let games: Vec<HeapGame> = specs.iter().map(|s| s.parse().unwrap()).collect();
        let tables: Vec<Vec<u32>> = games.iter().map(|g| values(g, 12)).collect();
        let histograms: Vec<Histogram> = games
            .iter()
            .zip(&ranges)
            .map(|(g, &(from, len))| histogram(g, from as u64, (from + len) as u64))
            .collect();
        // Enumerate one heap per component.
        let mut expected = vec![0u64; 256];
        let mut stack = vec![(0usize, 0u32)];
        while let Some((i, x)) = stack.pop() {
            if i == games.len() {
                expected[x as usize] += 1;
                continue;
            }
            let (from, len) = ranges[i];
            for &v in &tables[i][from..=from + len] {
                stack.push((i + 1, x ^ v));
            }
        }
        for arithmetic in [Arithmetic::Exact, Arithmetic::Modulo(1 << 20), Arithmetic::Modulo(999_983)] {
            let counts = count_ordered(&histograms, arithmetic);
            let m = match arithmetic { Arithmetic::Modulo(m) => m, Arithmetic::Exact => u64::MAX };
            let want: Vec<u64> = expected.iter().map(|&c| c % m).collect();
            prop_assert_eq!(as_u64(&counts.by_nim_sum), want, "{:?}", arithmetic);
        }
    }
}

/// A random heap rule: a subtraction set, or a take-and-break code of up
/// to three hexadecimal digits (splitting into up to three heaps).
fn random_rule() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::btree_set(1u8..10, 1..4).prop_map(|set| {
            let set: Vec<String> = set.iter().map(u8::to_string).collect();
            format!("sub({})", set.join(","))
        }),
        (prop::collection::vec(0u8..16, 0..3), 1u8..16).prop_map(|(digits, last)| {
            let digits: String = digits
                .iter()
                .chain([&last])
                .map(|d| format!("{d:x}"))
                .collect();
            format!("0.{digits}")
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every count mode of `grundy count` (through `session::count`, the
    /// one way in): K = 1..6 heaps of a small range of a random rule,
    /// ordered, ordered-distinct, unordered and distinct, exact and modulo
    /// m, each nim-sum's count against plain enumeration of every tuple.
    #[test]
    fn every_count_mode_of_random_rules_agrees_with_enumeration(
        spec in random_rule(),
        from in 0u64..4,
        len in 0u64..6,
        k in 1u64..=6,
        m in prop_oneof![Just(1u64), Just(2), Just(6), Just(7), Just(1_000_000_007)],
    ) {
        use grundy::session::{CountAnswer, CountEnd, CountQuery, Counted, count};
        let to = from + len;
        let game: HeapGame = spec.parse().unwrap();
        let g = values(&game, to);
        let orders = [Tuples::Ordered, Tuples::OrderedDistinct, Tuples::Unordered, Tuples::Distinct];
        // Every ordered tuple once, into the orders it belongs to.
        let mut expected = vec![vec![0u64; 256]; orders.len()];
        let mut tuple = vec![from as usize; k as usize];
        'tuples: loop {
            let nim_sum = tuple.iter().fold(0, |x, &h| x ^ g[h]) as usize;
            let rising = tuple.windows(2).all(|w| w[0] <= w[1]);
            let strictly = tuple.windows(2).all(|w| w[0] < w[1]);
            let different = tuple.iter().enumerate().all(|(i, a)| !tuple[i + 1..].contains(a));
            for (slot, counted) in [true, different, rising, strictly].into_iter().enumerate() {
                expected[slot][nim_sum] += u64::from(counted);
            }
            for heap in tuple.iter_mut() {
                if *heap < to as usize {
                    *heap += 1;
                    continue 'tuples;
                }
                *heap = from as usize;
            }
            break;
        }
        let counted = Counted::from_spec(&spec.parse().unwrap(), &Default::default()).unwrap();
        for (order, expected) in orders.into_iter().zip(&expected) {
            for modulus in [None, Some(m)] {
                let query = CountQuery {
                    from,
                    to: Some(CountEnd::Last(to)),
                    heaps: Some(k),
                    order,
                    modulus,
                    all: true,
                    ..CountQuery::default()
                };
                let answer = count(&spec, &counted, &query, &TableSolver::new(), &mut |_| true).unwrap();
                let CountAnswer::Positions(report) = answer else {
                    panic!("{spec}: positions of heaps are counted by nim-sum");
                };
                let reduce = |c: u64| modulus.map_or(c, |m| c % m);
                let listed: Vec<(usize, String)> = report
                    .by_nim_sum
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(s, c)| (s, c.to_string()))
                    .filter(|(_, c)| c != "0")
                    .collect();
                let wanted: Vec<(usize, String)> = expected
                    .iter()
                    .enumerate()
                    .map(|(s, &c)| (s, reduce(c).to_string()))
                    .filter(|(_, c)| c != "0")
                    .collect();
                let what = format!("{spec} {from}..={to} k={k} {order:?} mod {modulus:?}");
                prop_assert_eq!(listed, wanted, "{}", what);
                let total: u64 = expected.iter().sum();
                prop_assert_eq!(report.total.to_string(), reduce(total).to_string(), "{}", what);
                prop_assert_eq!(report.p_positions.to_string(), reduce(expected[0]).to_string(), "{}", what);
                let n = total - expected[0];
                prop_assert_eq!(report.n_positions.to_string(), reduce(n).to_string(), "{}", what);
            }
        }
    }
}

#[test]
fn many_copies_by_squaring_equal_repeated_convolution() {
    let game: HeapGame = "kayles".parse().unwrap();
    let h = histogram(&game, 1, 40);
    let ranges = vec![h.clone(); 9];
    for arithmetic in [
        Arithmetic::Exact,
        Arithmetic::Modulo(1 << 30),
        Arithmetic::Modulo(65_537),
    ] {
        assert_eq!(
            count_copies(&h, 9, arithmetic).unwrap(),
            count_ordered(&ranges, arithmetic),
            "{arithmetic:?}"
        );
    }
    // 40^100 positions in all.
    let copies = count_copies(&h, 100, Arithmetic::Exact).unwrap();
    assert_eq!(copies.total, BigUint::from(40u32).pow(100));
}

#[test]
fn periodic_extrapolation_equals_tabulation() {
    let to = (1 << 22) + 12_345;
    for spec in ["kayles", "0.127", "sub(1,3,4)"] {
        let game: HeapGame = spec.parse().unwrap();
        let periodic = histogram(&game, 777, to);
        assert!(
            matches!(periodic.source, HistogramSource::Period { .. }),
            "{spec}"
        );
        let mut direct = vec![0u128; periodic.counts.len()];
        for v in &values(&game, to)[777..] {
            direct[*v as usize] += 1;
        }
        assert_eq!(periodic.counts, direct, "{spec}");
    }
    // 10^18 heaps of Kayles, counted in one go.
    let kayles: HeapGame = "kayles".parse().unwrap();
    let huge = histogram(&kayles, 1, 1_000_000_000_000_000_000);
    assert_eq!(huge.heaps(), 1_000_000_000_000_000_000);
    // An aperiodic game cannot be extrapolated.
    let squares: HeapGame = "sub(squares)".parse().unwrap();
    let refused = value_histogram(
        &squares,
        1,
        1 << 40,
        &TableSolver::new(),
        &Limits {
            max: 1 << 12,
            ..Limits::default()
        },
    );
    assert!(refused.is_err());
}

#[test]
fn nim_positions_n_2n_3n_are_lost_exactly_without_adjacent_ones() {
    // n ^ 2n ^ 3n = 0 exactly when n has no two adjacent 1 bits (since
    // n + 2n = 3n then has no carries).
    let nim: HeapGame = "nim".parse().unwrap();
    for n in 1usize..3000 {
        let heaps = [n, 2 * n, 3 * n].map(|heap| Component { game: 0, heap });
        let sum = analyze_sum(
            std::slice::from_ref(&nim),
            &heaps,
            &TableSolver::new(),
            grundy::LISTED_OPTIONS_LIMIT,
        )
        .unwrap();
        assert_eq!(sum.nim_sum.is_zero(), n & (n >> 1) == 0, "n = {n}");
    }
}

/// Counting past the computed heaps by the values' formula gives the
/// counts of computing every heap: proper divisors (g(n) = ctz(n)) and
/// subtracting 1 or 2 (g(n) = n mod 3), both computed to 3000 and counted
/// to 20000.
#[test]
fn formula_counts_past_the_table_equal_the_tabulated_counts() {
    for (spec, formula) in [("proper-divisors", "ctz"), ("sub(1,2)", "mod")] {
        let game: HeapGame = spec.parse().unwrap();
        let limits = Limits {
            to: Some(3000),
            ..Limits::default()
        };
        let by_formula =
            formula_histogram(&game, 5, 20_000, &TableSolver::new(), &limits, None).unwrap();
        let tabulated = histogram(&game, 5, 20_000);
        assert_eq!(by_formula.counts, tabulated.counts, "{spec}");
        match &by_formula.source {
            HistogramSource::Formula {
                formula: used,
                verified_to,
                ..
            } => {
                assert!(used.contains(formula), "{spec}: {used}");
                assert_eq!(*verified_to, 3000);
            }
            other => panic!("{spec}: counted {other:?}"),
        }
    }
}

/// A formula the user writes is checked on every computed heap of the
/// range from its first heap on, and counts the rest: `proper-divisors`'
/// `ctz(n)` and subtraction {1, 2}'s `n mod 3` (also as a block) give the
/// tabulated counts; Kayles' period, written by hand,
/// is proven by its proven period; a wrong formula is refused at the
/// first heap where it fails.
#[test]
fn a_formula_the_user_writes_is_checked_then_counts() {
    let solver = TableSolver::new();
    let limits = Limits {
        to: Some(3000),
        ..Limits::default()
    };
    for (spec, text) in [
        ("proper-divisors", "g(n) = ctz(n)"),
        ("sub(1,2)", "n mod 3"),
        ("sub(1,2)", "[0 1 2][n mod 3]"),
    ] {
        let game: HeapGame = spec.parse().unwrap();
        let formula: Formula = text.parse().unwrap();
        let given = ByFormula::Given(formula.clone());
        let counted = range_histogram(&game, 5, 20_000, &solver, &limits, &given).unwrap();
        assert_eq!(counted.counts, histogram(&game, 5, 20_000).counts, "{spec}");
        assert_eq!(
            counted.source,
            HistogramSource::Formula {
                formula: formula.to_string(),
                verified_to: 3000,
                proven: spec == "sub(1,2)",
            },
            "{spec}: a subtraction game's period is proven, the divisor game's is not"
        );
        // Within the table, the counts are the table's, and still checked.
        let within = range_histogram(&game, 1, 100, &solver, &limits, &given).unwrap();
        assert_eq!(within.source, HistogramSource::Tabulated);
        assert_eq!(within.counts, histogram(&game, 1, 100).counts);
    }
    // Growing values are listed one by one, within the values' cap: Nim's
    // g(n) = n, and the same as an arithmetic-periodic block.
    let nim: HeapGame = "nim".parse().unwrap();
    for text in ["n", "[0 1][n mod 2] + 2 * floor(n / 2)", "floor(n / 1)"] {
        let given = ByFormula::Given(text.parse().unwrap());
        let counted = range_histogram(&nim, 5, 200_000, &solver, &limits, &given).unwrap();
        assert_eq!(counted.counts, histogram(&nim, 5, 200_000).counts, "{text}");
    }
    // Kayles, period 12 from heap 71 (Guy and Smith 1956), counted to
    // 10^18 by the formula and proven by the proven period.
    let kayles: HeapGame = "kayles".parse().unwrap();
    let formula: Formula = "[4 1 2 8 1 4 7 2 1 8 2 7][(n - 72) mod 12]"
        .parse()
        .unwrap();
    let by_period = histogram(&kayles, 1, 1_000_000_000_000_000_000);
    let by_formula = range_histogram(
        &kayles,
        1,
        1_000_000_000_000_000_000,
        &solver,
        &limits,
        &ByFormula::Given(formula),
    )
    .unwrap();
    assert_eq!(by_formula.counts, by_period.counts);
    assert!(matches!(
        by_formula.source,
        HistogramSource::Formula { proven: true, .. }
    ));
    // Wrong formulas: the first heap where each fails, from the range's
    // first heap or the formula's own.
    for (spec, text, from, heap) in [
        ("proper-divisors", "ctz(n) + 1", 1, 1),
        ("proper-divisors", "[1 0 1 0][n mod 4]", 1, 4),
        ("sub(1,2)", "n mod 4", 0, 3),
        ("sub(1,2)", "[0 1 2][(n - 10) mod 3]", 0, 10),
        (
            "sub(1,2)",
            "[0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 1][n mod 19]",
            0,
            18,
        ),
    ] {
        let game: HeapGame = spec.parse().unwrap();
        let given = ByFormula::Given(text.parse().unwrap());
        match range_histogram(&game, from, 1_000_000, &solver, &limits, &given) {
            Err(grundy::Error::FormulaRefuted { heap: found, .. }) => {
                assert_eq!(found, heap, "{spec}: {text}")
            }
            other => panic!("{spec}: {text}: {other:?}"),
        }
    }
}

/// The partitions of `k` (non-increasing parts).
fn partitions(k: usize, largest: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    (1..=largest.min(k))
        .flat_map(|part| {
            partitions(k - part, part).into_iter().map(move |mut rest| {
                rest.insert(0, part);
                rest
            })
        })
        .collect()
}

/// Multisets (or sets) of `k` heaps with histogram `h`, by nim-sum, by
/// Burnside's lemma / Pólya's cycle index of the symmetric group:
/// `Z(S_k) = sum over partitions λ of k of p_λ / z_λ`, where a cycle of
/// length `j` fixes a tuple only if its heaps are equal, contributing
/// `p_j = sum_h x^(j g(h))`: the histogram for odd `j`, all heaps at
/// nim-sum 0 for even `j`. Sets take the sign `(-1)^(k - cycles)`.
fn burnside(h: &[u64], k: usize, sets: bool) -> Vec<i128> {
    let size = h.len().next_power_of_two().max(2);
    let heaps: u64 = h.iter().sum();
    let convolve = |a: &[i128], b: &[i128]| {
        let mut out = vec![0i128; size];
        for x in 0..size {
            for y in 0..size {
                out[x ^ y] += a[x] * b[y];
            }
        }
        out
    };
    let mut odd = vec![0i128; size];
    for (v, &c) in h.iter().enumerate() {
        odd[v] = c as i128;
    }
    let mut even = vec![0i128; size];
    even[0] = heaps as i128;
    let factorial = |n: usize| (1..=n as i128).product::<i128>();
    let mut total = vec![0i128; size];
    for lambda in partitions(k, k) {
        // z_λ = prod_j j^{m_j} m_j!, for m_j parts equal to j.
        let mut z = 1i128;
        for j in 1..=k {
            let m = lambda.iter().filter(|&&p| p == j).count();
            z *= (j as i128).pow(m as u32) * factorial(m);
        }
        let sign = if sets && (k - lambda.len()) % 2 == 1 {
            -1
        } else {
            1
        };
        let mut term = vec![0i128; size];
        term[0] = 1;
        for &part in &lambda {
            term = convolve(&term, if part % 2 == 1 { &odd } else { &even });
        }
        for (t, x) in total.iter_mut().zip(term) {
            *t += sign * x * (factorial(k) / z);
        }
    }
    total.into_iter().map(|t| t / factorial(k)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The recurrence behind unordered counts against Burnside's lemma,
    /// for up to eight heaps from ranges too large to enumerate.
    #[test]
    fn unordered_counts_agree_with_burnside(
        spec in small_game(),
        from in 0u64..20,
        len in 0u64..60,
        k in 1usize..=8,
    ) {
        let game: HeapGame = spec.parse().unwrap();
        let h = histogram(&game, from, from + len);
        let counts: Vec<u64> = h.counts.iter().map(|&c| c as u64).collect();
        for (tuples, sets) in [(Tuples::Unordered, false), (Tuples::Distinct, true)] {
            let expected = burnside(&counts, k, sets);
            let exact = count_tuples(&h, k as u64, tuples, Arithmetic::Exact, TupleBudget::default()).unwrap();
            let got: Vec<i128> = exact.by_nim_sum.iter().map(|c| i128::try_from(u128::try_from(c).unwrap()).unwrap()).collect();
            prop_assert_eq!(&got[..], &expected[..got.len()], "{} {:?} k={}", spec, tuples, k);
            prop_assert!(expected[got.len()..].iter().all(|&c| c == 0));
        }
    }
}

/// A million heaps modulo a prime: multisets of heaps 0 and 1 of Nim are
/// P-positions exactly when the number of 1s is even (k/2 + 1 of the k + 1
/// multisets); and modular counts past what exact arithmetic checks in a
/// test equal the exact ones reduced, for a few thousand heaps.
#[test]
fn unordered_counts_of_a_million_heaps() {
    let nim: HeapGame = "nim".parse().unwrap();
    let two = histogram(&nim, 0, 1);
    let k = 1_000_000u64;
    let p = 1_000_000_007u64;
    let counts = count_tuples(
        &two,
        k,
        Tuples::Unordered,
        Arithmetic::Modulo(p),
        TupleBudget::default(),
    )
    .unwrap();
    assert_eq!(counts.p_positions(), &BigUint::from(k / 2 + 1));
    assert_eq!(counts.total, BigUint::from(k + 1));
    let kayles: HeapGame = "kayles".parse().unwrap();
    let h = histogram(&kayles, 1, 200);
    for tuples in [Tuples::Unordered, Tuples::Distinct, Tuples::OrderedDistinct] {
        let exact =
            count_tuples(&h, 3000, tuples, Arithmetic::Exact, TupleBudget::default()).unwrap();
        for m in [p, 998_244_353, 3001, 1 << 40] {
            let modular = count_tuples(
                &h,
                3000,
                tuples,
                Arithmetic::Modulo(m),
                TupleBudget::default(),
            )
            .unwrap();
            let reduced: Vec<BigUint> = exact.by_nim_sum.iter().map(|c| c % m).collect();
            assert_eq!(modular.by_nim_sum, reduced, "{tuples:?} mod {m}");
        }
    }
}

/// The partitions of `n` into heaps of a game (`grundy count --partitions
/// N`), through the session, against every partition listed: every heap
/// size, a set of sizes, distinct parts; any number of parts or exactly
/// `k`; exact and modulo an odd and an even modulus.
#[test]
fn partition_counts_agree_with_enumeration() {
    use grundy::session::{CountAnswer, CountQuery, Counted, Partitions, count};
    let solver = TableSolver::new();
    for spec in [
        "kayles",
        "nim",
        "0.137",
        "sub(1,3,4)",
        "0.3333",
        "sub(squares)",
    ] {
        let g = values(&spec.parse().unwrap(), 30);
        let counted = Counted::from_spec(&spec.parse().unwrap(), &Default::default()).unwrap();
        for n in [0usize, 1, 2, 7, 16, 25, 30] {
            let every = partitions(n, n);
            for (parts, allowed) in [
                (None, (1..=n).collect::<Vec<_>>()),
                (Some("1,3,5..9"), vec![1, 3, 5, 6, 7, 8, 9]),
                (Some("squares"), vec![1, 4, 9, 16, 25]),
            ] {
                for distinct in [false, true] {
                    let listed: Vec<&Vec<usize>> = every
                        .iter()
                        .filter(|p| p.iter().all(|s| allowed.contains(s)))
                        .filter(|p| !distinct || p.windows(2).all(|w| w[0] > w[1]))
                        .collect();
                    for heaps in [None, Some(1), Some(3)] {
                        let mut expected = vec![0u64; 64];
                        for p in listed.iter().filter(|p| heaps.is_none_or(|k| p.len() == k)) {
                            expected[p.iter().fold(0, |x, &s| x ^ g[s]) as usize] += 1;
                        }
                        for modulus in [None, Some(7), Some(8)] {
                            let query = CountQuery {
                                heaps: heaps.map(|k| k as u64),
                                modulus,
                                all: true,
                                partitions: Partitions::from_options(
                                    Some(n as u64),
                                    parts,
                                    distinct,
                                )
                                .unwrap(),
                                ..CountQuery::default()
                            };
                            let what = format!(
                                "{spec} n={n} parts={parts:?} distinct={distinct} heaps={heaps:?} mod {modulus:?}"
                            );
                            let answer =
                                count(spec, &counted, &query, &solver, &mut |_| true).unwrap();
                            let CountAnswer::Partitions(report) = answer else {
                                panic!("{what}: partitions are counted as partitions");
                            };
                            let reduce = |c: u64| modulus.map_or(c, |m| c % m);
                            let got: Vec<(usize, String)> = report
                                .by_nim_sum
                                .unwrap_or_default()
                                .into_iter()
                                .map(|(s, c)| (s, c.to_string()))
                                .collect();
                            let wanted: Vec<(usize, String)> = expected
                                .iter()
                                .enumerate()
                                .map(|(s, &c)| (s, reduce(c).to_string()))
                                .filter(|(_, c)| c != "0")
                                .collect();
                            assert_eq!(got, wanted, "{what}");
                            let total = reduce(expected.iter().sum());
                            assert_eq!(report.total.to_string(), total.to_string(), "{what}");
                            assert_eq!(
                                report.part_sizes,
                                allowed.iter().filter(|&&s| s <= n).count(),
                                "{what}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Known values: the partitions of n into distinct Nim heaps by the XOR
/// of their parts (OEIS A307505, rows 0..=10, "Number T(n,k) of partitions
/// of n into distinct parts whose bitwise XOR equals k"), and the number
/// of partitions of 1000 (p(1000), OEIS A000041), past u128's reach for
/// p(n) of larger n, which every game's partitions add up to.
#[test]
fn partition_counts_match_known_values() {
    use grundy::session::{CountAnswer, CountQuery, Counted, Partitions, count};
    let a307505: [&[u64]; 11] = [
        &[1],
        &[0, 1],
        &[0, 0, 1],
        &[0, 0, 0, 2],
        &[0, 0, 1, 0, 1],
        &[0, 1, 0, 0, 0, 2],
        &[1, 0, 0, 0, 1, 0, 2],
        &[0, 0, 0, 0, 0, 0, 0, 5],
        &[0, 0, 0, 0, 1, 0, 4, 0, 1],
        &[0, 1, 0, 0, 0, 4, 0, 1, 0, 2],
        &[1, 0, 1, 0, 5, 0, 0, 0, 1, 0, 2],
    ];
    let solver = TableSolver::new();
    let count_of = |spec: &str, n: u64, distinct: bool| {
        let counted = Counted::from_spec(&spec.parse().unwrap(), &Default::default()).unwrap();
        let query = CountQuery {
            all: true,
            partitions: Partitions::from_options(Some(n), None, distinct).unwrap(),
            ..CountQuery::default()
        };
        match count(spec, &counted, &query, &solver, &mut |_| true).unwrap() {
            CountAnswer::Partitions(report) => report,
            _ => panic!("partitions are counted as partitions"),
        }
    };
    for (n, row) in a307505.iter().enumerate() {
        let report = count_of("nim", n as u64, true);
        let wanted: Vec<(usize, String)> = row
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(k, c)| (k, c.to_string()))
            .collect();
        let got: Vec<(usize, String)> = report
            .by_nim_sum
            .unwrap_or_default()
            .into_iter()
            .map(|(k, c)| (k, c.to_string()))
            .collect();
        assert_eq!(got, wanted, "A307505 row {n}");
    }
    for spec in ["kayles", "sub(1,3,4)", "0.137"] {
        let report = count_of(spec, 1000, false);
        assert_eq!(
            report.total.to_string(),
            "24061467864032622473692149727991",
            "{spec}"
        );
    }
}
