//! Values of the built-in games against the literature (`testdata/`).

use grundy::{HeapGame, HeapRuleset, TableSolver};

mod common;
use common::testdata;

/// The terms of an OEIS sequence, from its first listed term on.
fn oeis(anumber: &str) -> Vec<u32> {
    testdata(&format!("oeis/{anumber}.txt"))
        .lines()
        .map(|line| line.trim().parse().expect("an integer term"))
        .collect()
}

fn values(game: &str, to: usize) -> Vec<u32> {
    let game: HeapGame = game.parse().unwrap();
    TableSolver::new()
        .values(&game, to as u64)
        .unwrap()
        .iter()
        .map(|v| v.get())
        .collect()
}

/// Checks `g(first + i) = terms[i]` for every listed term, and `g(n) = 0`
/// below `first` (heaps too small to move in).
fn assert_matches_oeis(game: &str, anumber: &str, first: usize) {
    let terms = oeis(anumber);
    let g = values(game, first + terms.len() - 1);
    assert!(g[..first].iter().all(|&v| v == 0), "{game}: small heaps");
    assert_eq!(g[first..], terms[..], "{game} against {anumber}");
}

#[test]
fn kayles_is_a002186() {
    assert_matches_oeis("kayles", "A002186", 0);
}

#[test]
fn dawsons_chess_is_a002187() {
    assert_matches_oeis("dawsons-chess", "A002187", 0);
}

#[test]
fn dawsons_kayles_is_a002187_shifted_by_one() {
    assert_matches_oeis("dawsons-kayles", "A002187", 1);
}

#[test]
fn grundys_game_is_a002188() {
    assert_matches_oeis("grundy", "A002188", 0);
}

#[test]
fn grundys_game_p_positions_are_a036685() {
    let zeros = oeis("A036685");
    let last = *zeros.last().unwrap() as usize;
    let g = values("grundy", last);
    let found: Vec<u32> = (0..=last)
        .filter(|&n| g[n] == 0)
        .map(|n| n as u32)
        .collect();
    assert_eq!(found, zeros);
}

#[test]
fn treblecross_is_a071426_shifted_by_two() {
    // A071426 has offset 1: g(n) = a(n - 2) for n >= 3.
    assert_matches_oeis("treblecross", "A071426", 3);
}

#[test]
fn officers_is_a046695() {
    assert_matches_oeis("officers", "A046695", 0);
}

#[test]
fn take_and_split_is_0_37_a071433() {
    assert_matches_oeis("take-and-split", "A071433", 1);
    let expected = [
        0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0, 3, 4, 2, 1, 3, 2, 1, 0, 2, 1, 4, 5, 1, 4, 5, 1, 2, 0, 1,
    ];
    assert_eq!(values("take-and-split", expected.len() - 1), expected);
}

#[test]
fn subtract_a_square_is_a014586() {
    assert_matches_oeis("sub(squares)", "A014586", 0);
}

#[test]
fn subtract_a_factorial_is_a014587() {
    assert_matches_oeis("sub(factorials)", "A014587", 0);
}

/// Every named or infinite subtraction set against a brute force written
/// from the set's definition (membership by trial, mex by search).
#[test]
fn infinite_subtraction_sets_follow_their_definitions() {
    let is_prime = |s: usize| {
        s >= 2
            && (2..s)
                .take_while(|d| d * d <= s)
                .all(|d| !s.is_multiple_of(d))
    };
    let fibonacci = |s: usize| {
        let (mut a, mut b) = (1, 2);
        while a < s {
            (a, b) = (b, a + b);
        }
        a == s
    };
    let factorial = |s: usize| {
        (1..=20)
            .scan(1usize, |f, k| {
                *f *= k;
                Some(*f)
            })
            .any(|f| f == s)
    };
    let families: [(&str, &dyn Fn(usize) -> bool); 8] = [
        ("sub(primes)", &is_prime),
        ("sub(powers-of-2)", &|s: usize| s.is_power_of_two()),
        ("sub(fibonacci)", &fibonacci),
        ("sub(factorials)", &factorial),
        ("sub(triangular)", &|s: usize| {
            (1..=s).any(|k| k * (k + 1) / 2 == s)
        }),
        ("sub(squares)", &|s: usize| (1..=s).any(|k| k * k == s)),
        ("sub(2+3k)", &|s: usize| s >= 2 && (s - 2).is_multiple_of(3)),
        ("allbut(1,2,5)", &|s: usize| {
            s >= 1 && ![1, 2, 5].contains(&s)
        }),
    ];
    for (spec, member) in families {
        let got = values(spec, 400);
        let mut expected: Vec<u32> = Vec::new();
        for n in 0..=400 {
            let reachable: Vec<u32> = (1..=n)
                .filter(|&s| member(s))
                .map(|s| expected[n - s])
                .collect();
            expected.push((0..).find(|m| !reachable.contains(m)).unwrap());
        }
        assert_eq!(got, expected, "{spec}");
        let game: HeapGame = spec.parse().unwrap();
        assert_eq!(game.to_string(), spec, "{spec} prints as written");
    }
}

#[test]
fn mark_is_a229764() {
    assert_matches_oeis("mark", "A229764", 0);
}

/// The divisor games against a brute force written from their rules.
#[test]
fn divisor_games_follow_their_rules() {
    let mex = |reachable: &[u32]| (0..).find(|m| !reachable.contains(m)).unwrap();
    let mut proper = vec![0u32];
    let mut any = vec![0u32];
    let mut split = vec![0u32];
    for n in 1..=300usize {
        let divisors: Vec<usize> = (1..=n).filter(|d| n % d == 0).collect();
        let from_proper: Vec<u32> = divisors
            .iter()
            .filter(|&&d| d < n)
            .map(|&d| proper[n - d])
            .collect();
        proper.push(mex(&from_proper));
        let from_any: Vec<u32> = divisors.iter().map(|&d| any[n - d]).collect();
        any.push(mex(&from_any));
        // k equal heaps of n / k: the XOR of k copies.
        let from_split: Vec<u32> = divisors
            .iter()
            .filter(|&&k| k >= 2)
            .map(|&k| (0..k).fold(0, |x, _| x ^ split[n / k]))
            .collect();
        split.push(mex(&from_split));
    }
    assert_eq!(values("proper-divisors", 300), proper);
    assert_eq!(values("divisors", 300), any);
    assert_eq!(values("equal-split", 300), split);
}

#[test]
fn wythoff_is_a004481_a047708_and_a004484() {
    let table = grundy::rules::PairGame::Wythoff
        .table(130, 1 << 24)
        .unwrap();
    let g = |a: usize, b: usize| table[a][b].get();
    // Antidiagonals a + b = d, in order of increasing a (the table is
    // symmetric, so the order within one does not matter).
    let antidiagonals: Vec<u32> = (0..)
        .flat_map(|d: usize| (0..=d).map(move |a| (a, d - a)))
        .take(oeis("A004481").len())
        .map(|(a, b)| g(a, b))
        .collect();
    assert_eq!(antidiagonals, oeis("A004481"));
    let diagonal: Vec<u32> = (0..oeis("A047708").len()).map(|n| g(n, n)).collect();
    assert_eq!(diagonal, oeis("A047708"));
    let row_three: Vec<u32> = (0..oeis("A004484").len()).map(|n| g(3, n)).collect();
    assert_eq!(row_three, oeis("A004484"));
}

#[test]
fn subtraction_2_5_7_is_a266756() {
    assert_matches_oeis("sub(2,5,7)", "A266756", 0);
}

#[test]
fn subtraction_1_3_4_has_period_7() {
    let g = values("sub(1,3,4)", 700);
    assert_eq!(g[..7], [0, 1, 0, 1, 2, 3, 2]);
    assert!((7..=700).all(|n| g[n] == g[n - 7]));
}

#[test]
fn lasker_search_equals_its_closed_form() {
    let lasker: HeapGame = "lasker".parse().unwrap();
    let searched = TableSolver::new()
        .without_closed_forms()
        .values(&lasker, 600)
        .unwrap();
    for (n, v) in searched.iter().enumerate() {
        assert_eq!(Some(u64::from(v)), lasker.closed_form(n), "g({n})");
    }
}

#[test]
fn nim_search_equals_its_closed_form() {
    let nim: HeapGame = "nim".parse().unwrap();
    let searched = TableSolver::new()
        .without_closed_forms()
        .values(&nim, 300)
        .unwrap();
    assert!(searched.iter().enumerate().all(|(n, v)| v.index() == n));
}

/// One row of TrivialGames.md: the code and the values it lists, with the
/// periodic part repeated until `len` values are known.
fn expand_trivial_game(row: &str, len: usize) -> Option<(String, usize, usize, Vec<u32>)> {
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    let [code, prefix, period, nimbers] = cells[..] else {
        return None;
    };
    let (prefix, period) = (prefix.parse().ok()?, period.parse().ok()?);
    let digit = |c: char| c.to_digit(36).expect("a base-36 digit");
    let open = nimbers.find('(')?;
    let head: Vec<u32> = nimbers[..open].chars().map(digit).collect();
    let cycle: Vec<u32> = nimbers[open + 1..nimbers.len() - 1]
        .chars()
        .map(digit)
        .collect();
    assert_eq!(
        (head.len(), cycle.len()),
        (prefix, period),
        "{code}: table row"
    );
    let mut values = head;
    values.extend(cycle.iter().cycle().take(len.saturating_sub(values.len())));
    Some((code.to_owned(), prefix, period, values))
}

#[test]
fn trivial_octal_games_match_tczajka() {
    let table = testdata("octal/tczajka/TrivialGames.md");
    let mut checked = 0;
    for row in table.lines().filter(|l| l.contains('(')) {
        let Some((code, prefix, period, _)) = expand_trivial_game(row, 0) else {
            continue;
        };
        // Far enough past the pre-period to see the period several times.
        let len = 2 * (prefix + period) + 200;
        let (_, _, _, expected) = expand_trivial_game(row, len).unwrap();
        assert_eq!(values(&code, len - 1), expected, "{code}");
        checked += 1;
    }
    assert_eq!(checked, 82, "every game of the table is checked");
}
