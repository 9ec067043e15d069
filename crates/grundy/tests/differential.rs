//! Differential tests: the dense heap solver against the generic memoized
//! solver, and both against a reference written from the definition of an
//! octal code, on random rules.

use grundy::solve::Engine;
use grundy::{HeapGame, MemoSolver, TableSolver, TakeBreak};
use proptest::prelude::*;

/// Values of a take-and-break code straight from its definition, with no
/// shared code: `digit(t)` for removing `t` tokens (bit 1: leave nothing,
/// bit 2: one heap, bit 4: two heaps).
fn reference(digit: impl Fn(usize) -> u8, to: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(to + 1);
    for n in 0..=to {
        let mut reachable = Vec::new();
        for t in 0..=n {
            let d = digit(t);
            let rest = n - t;
            if d & 1 != 0 && rest == 0 {
                reachable.push(0);
            }
            if d & 2 != 0 && rest > 0 && t > 0 {
                reachable.push(g[rest]);
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    reachable.push(g[a] ^ g[rest - a]);
                }
            }
        }
        g.push((0..).find(|m| !reachable.contains(m)).unwrap());
    }
    g
}

fn reference_octal(digits: &[u8], to: usize) -> Vec<u32> {
    reference(|t| digits.get(t).copied().unwrap_or(0), to)
}

fn dense(game: &HeapGame, to: usize) -> Vec<u32> {
    let solver = TableSolver::new().with_engine(Engine::Dense);
    let values = solver.values(game, to as u64).unwrap();
    values.iter().map(|v| v.get()).collect()
}

/// What users get: the automatic choice (sparse for codes it applies to).
fn auto(game: &HeapGame, to: usize) -> Vec<u32> {
    let values = TableSolver::new().values(game, to as u64).unwrap();
    values.iter().map(|v| v.get()).collect()
}

fn memo(game: &HeapGame, to: usize) -> Vec<u32> {
    let mut solver = MemoSolver::new(game);
    (0..=to).map(|n| solver.value(&n).unwrap().get()).collect()
}

fn octal_code() -> impl Strategy<Value = Vec<u8>> {
    (
        prop_oneof![Just(0u8), Just(4u8)],
        prop::collection::vec(0u8..8, 1..5),
    )
        .prop_map(|(d0, rest)| {
            let mut digits = vec![d0];
            digits.extend(rest);
            digits
        })
}

fn code_text(digits: &[u8]) -> String {
    let rest: String = digits[1..].iter().map(|d| d.to_string()).collect();
    format!("{}.{rest}", digits[0])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn octal_codes_agree_everywhere(digits in octal_code()) {
        let game: HeapGame = code_text(&digits).parse().unwrap();
        let expected = reference_octal(&digits, 120);
        prop_assert_eq!(&dense(&game, 120), &expected);
        prop_assert_eq!(&memo(&game, 120), &expected);
        prop_assert_eq!(&auto(&game, 120), &expected);
    }

    /// Codes with a repeating block reach large values (Nim-like growth),
    /// which exercises every width of the kernel's bitset and its fallback.
    #[test]
    fn repeating_codes_agree(
        digits in octal_code(),
        block in prop::collection::vec(0u8..8, 1..3),
    ) {
        let text = format!(
            "{}[{}]",
            code_text(&digits),
            block.iter().map(|d| d.to_string()).collect::<String>()
        );
        let game: HeapGame = text.parse().unwrap();
        let digit = |t: usize| match digits.get(t) {
            Some(&d) => d,
            None => block[(t - digits.len()) % block.len()],
        };
        let expected = reference(digit, 140);
        prop_assert_eq!(&dense(&game, 140), &expected, "{}", text);
        prop_assert_eq!(&memo(&game, 140), &expected, "{}", text);
    }

    #[test]
    fn subtraction_sets_agree(set in prop::collection::btree_set(1usize..25, 1..6)) {
        let listed: Vec<String> = set.iter().map(usize::to_string).collect();
        let game: HeapGame = format!("sub({})", listed.join(",")).parse().unwrap();
        let dense = dense(&game, 300);
        prop_assert_eq!(&memo(&game, 300), &dense);
        // Definition: mex of g(n - s) over s in the set.
        for n in 0..=300 {
            let reachable: Vec<u32> = set.iter().filter(|&&s| s <= n).map(|&s| dense[n - s]).collect();
            prop_assert_eq!(dense[n], (0..).find(|m| !reachable.contains(m)).unwrap());
        }
    }

    #[test]
    fn unequal_splits_agree(digits in octal_code()) {
        // Mark the split digits `!`: the dense and generic paths must agree.
        let code: String = digits.iter().enumerate().map(|(t, d)| {
            let mark = if d & 4 != 0 { "!" } else { "" };
            if t == 0 { format!("{d}{mark}.") } else { format!("{d}{mark}") }
        }).collect();
        let game: HeapGame = code.parse().unwrap();
        prop_assert_eq!(dense(&game, 120), memo(&game, 120));
    }

    #[test]
    fn malformed_codes_never_panic(code in "[0-9a-z.!\\[\\]{}?=&;+,-]{0,12}") {
        let parsed = code.parse::<TakeBreak>();
        if let Ok(game) = parsed {
            // What parses prints canonically and parses back to itself.
            let again: TakeBreak = game.to_string().parse().unwrap();
            prop_assert_eq!(again, game);
        }
        let _ = code.parse::<HeapGame>();
    }
}

#[test]
fn wide_values_use_every_kernel_width() {
    // 4.[3] reaches values past 512 by heap 600: widths 1, 2, 4, 8 and the
    // fallback all run.
    let game: HeapGame = "4.[3]".parse().unwrap();
    let plain = TableSolver::new()
        .without_closed_forms()
        .values(&grundy::solve::Plain(&game), 600)
        .unwrap();
    let fast = TableSolver::new()
        .without_closed_forms()
        .values(&game, 600)
        .unwrap();
    assert_eq!(fast, plain);
    assert!(fast.iter().any(|v| v.get() > 512));
    let split_heavy: HeapGame = "0.[7]".parse().unwrap();
    assert_eq!(
        dense(&split_heavy, 150),
        reference(|t| if t == 0 { 0 } else { 7 }, 150)
    );
}

#[test]
fn divisor_games_agree_with_the_generic_solver() {
    for spec in [
        "proper-divisors",
        "divisors",
        "equal-split",
        "mark",
        "sub(primes)",
        "allbut(2,3)",
    ] {
        let game: HeapGame = spec.parse().unwrap();
        assert_eq!(dense(&game, 500), memo(&game, 500), "{spec}");
    }
}

#[test]
fn grundys_game_agrees_with_the_generic_solver() {
    let game: HeapGame = "grundy".parse().unwrap();
    assert_eq!(dense(&game, 400), memo(&game, 400));
    assert_eq!(dense(&game, 400)[..10], [0, 0, 0, 1, 0, 2, 1, 0, 2, 1]);
}

/// Every multiset of `k` positive parts summing to `total`, from scratch:
/// non-decreasing sequences, by recursion on the first part.
fn multisets(total: usize, k: usize, least: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return if total == 0 { vec![vec![]] } else { vec![] };
    }
    let mut all = Vec::new();
    for first in least..=total {
        for mut rest in multisets(total - first, k - 1, first) {
            rest.insert(0, first);
            all.push(rest);
        }
    }
    all
}

/// Values of a code with any digits and constraints, from the definition:
/// `digits[t] = (d, rule)` where bit `2^k` of `d` allows leaving `k` heaps
/// and `rule` is one of "", "!", "?", "=".
fn reference_general(digits: &[(u32, &str)], to: usize) -> Vec<u32> {
    let open: Vec<_> = digits.iter().map(|&(d, rule)| (d, None, rule)).collect();
    reference_open(&open, to)
}

/// [`reference_general`] with open-ended digits: `(d, Some(k), rule)` also
/// allows leaving any number `>= k` of heaps.
fn reference_open(digits: &[(u32, Option<usize>, &str)], to: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=to {
        let mut reachable = Vec::new();
        for (t, &(d, open, rule)) in digits.iter().enumerate() {
            let Some(rest) = n.checked_sub(t) else { break };
            for k in 0..32.max(rest + 1) {
                let allowed = (k < 32 && d & (1 << k) != 0) || open.is_some_and(|o| k >= o);
                if !allowed || (k == 1 && t == 0) {
                    continue;
                }
                for parts in multisets(rest, k, 1) {
                    let distinct = parts.windows(2).all(|w| w[0] != w[1]);
                    let all_equal = parts.windows(2).all(|w| w[0] == w[1]);
                    // Constraints concern moves that leave two or more heaps.
                    let allowed = match rule {
                        _ if k < 2 => true,
                        "!" => distinct,
                        "?" => !all_equal,
                        "=" => all_equal,
                        _ => true,
                    };
                    if allowed {
                        reachable.push(parts.iter().fold(0, |x, &p| x ^ g[p]));
                    }
                }
            }
        }
        g.push((0..).find(|m| !reachable.contains(m)).unwrap());
    }
    g
}

fn general_code(digits: &[(u32, &str)]) -> String {
    let text: Vec<String> = digits
        .iter()
        .map(|&(d, rule)| format!("&{d};{rule}"))
        .collect();
    format!("{}.{}", text[0], text[1..].concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Hexadecimal and wider digits (up to four heaps) with every kind of
    /// constraint: the table solver and the generic solver agree with the
    /// definition.
    #[test]
    fn wide_digits_and_constraints_agree(
        d0 in prop::sample::select(vec![0u32, 4, 8, 12, 16, 20, 28]),
        rest in prop::collection::vec(0u32..32, 1..4),
        rules in prop::collection::vec(prop::sample::select(vec!["", "!", "?", "="]), 4),
    ) {
        let mut digits = vec![(d0, rules[0])];
        digits.extend(rest.iter().zip(&rules[1..]).map(|(&d, &r)| (d, r)));
        let text = general_code(&digits);
        let game: HeapGame = text.parse().unwrap();
        let expected = reference_general(&digits, 32);
        prop_assert_eq!(&auto(&game, 32), &expected, "{}", text);
        prop_assert_eq!(&memo(&game, 32), &expected, "{}", text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Open-ended digits such as `{2+}` (split into any number of heaps),
    /// unconstrained or all equal: the composition sets of the table
    /// solver and the partitions of the generic solver agree with the
    /// definition.
    #[test]
    fn open_ended_digits_agree(
        d0_open in prop::option::of(2usize..5),
        rest in prop::collection::vec((0u32..8, prop::option::of(0usize..5)), 1..4),
        rules in prop::collection::vec(prop::sample::select(vec!["", "="]), 4),
    ) {
        let mut digits = vec![(0u32, d0_open, rules[0])];
        digits.extend(rest.iter().zip(&rules[1..]).map(|(&(d, o), &r)| (d, o, r)));
        let text = spelled(&digits, 8);
        let Ok(game) = text.parse::<HeapGame>() else {
            // `{}` alone is not a digit.
            prop_assume!(false);
            unreachable!()
        };
        let expected = reference_open(&digits, 22);
        prop_assert_eq!(&auto(&game, 22), &expected, "{}", text);
        prop_assert_eq!(&memo(&game, 22), &expected, "{}", text);
    }
}

/// A code written digit by digit in set notation: each digit's counts
/// below `counts` (bit `k` of the mask allows leaving `k` heaps), its open
/// count `{o+}`, and its constraint.
fn spelled(digits: &[(u32, Option<usize>, &str)], counts: u32) -> String {
    let text: Vec<String> = digits
        .iter()
        .map(|&(d, open, rule)| {
            let mut listed: Vec<String> = (0..counts)
                .filter(|k| d & (1 << k) != 0)
                .map(|k| k.to_string())
                .collect();
            listed.extend(open.map(|o| format!("{o}+")));
            format!("{{{}}}{rule}", listed.join(","))
        })
        .collect();
    format!("{}.{}", text[0], text[1..].concat())
}

#[test]
fn equal_splits_into_any_number_are_the_equal_split_game() {
    let open: HeapGame = "{2+}=.0".parse().unwrap();
    let divisor: HeapGame = "equal-split".parse().unwrap();
    assert_eq!(dense(&open, 300), dense(&divisor, 300));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Digits that leave up to ten heaps, finite counts mixed with open
    /// ones, with every constraint (`!` and `?` only on finite digits):
    /// the exact and open composition sets of the table solver and the
    /// partitions of the generic solver agree with the definition (issue
    /// 16, item 11).
    #[test]
    fn many_part_digits_agree(
        d0 in (0u32..1 << 11, prop::option::of(2usize..8)),
        rest in prop::collection::vec((0u32..1 << 11, prop::option::of(0usize..11)), 1..4),
        rules in prop::collection::vec(prop::sample::select(vec!["", "!", "?", "="]), 4),
    ) {
        let mut digits = vec![(d0.0 & !3, d0.1, rules[0])];
        digits.extend(rest.iter().zip(&rules[1..]).map(|(&(d, o), &r)| (d, o, r)));
        for digit in &mut digits {
            if matches!(digit.2, "!" | "?") {
                digit.1 = None;
            }
        }
        let text = spelled(&digits, 11);
        let Ok(game) = text.parse::<HeapGame>() else {
            // `{}` alone is not a digit.
            prop_assume!(false);
            unreachable!()
        };
        let expected = reference_open(&digits, 20);
        prop_assert_eq!(&auto(&game, 20), &expected, "{}", text);
        prop_assert_eq!(&memo(&game, 20), &expected, "{}", text);
    }
}
