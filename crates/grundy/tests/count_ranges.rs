//! Take-and-break digits written as ranges of heap counts, of any size
//! (`{2..200}`, `{1,64..70}`, issue 52 item 2): the table solver, through
//! its composition sets, against the plain solver, which sees only the
//! options the digits list.

use grundy::solve::{Engine, Plain};
use grundy::{Error, HeapGame, TableSolver};
use proptest::prelude::*;

fn game(code: &str) -> HeapGame {
    code.parse()
        .unwrap_or_else(|e| panic!("{code} should parse: {e}"))
}

/// What users get: the automatic engine.
fn auto(game: &HeapGame, to: u64) -> Vec<u32> {
    let values = TableSolver::new().values(game, to).unwrap();
    values.iter().map(|v| v.get()).collect()
}

/// The reference: every option listed from the digits, then the mex.
fn plain(game: &HeapGame, to: u64) -> Vec<u32> {
    let values = TableSolver::new().values(&Plain(game), to).unwrap();
    values.iter().map(|v| v.get()).collect()
}

#[test]
fn a_range_is_the_same_game_as_its_counts_listed() {
    for (ranged, listed) in [
        ("0.{2..5}", "0.{2,3,4,5}"),
        ("{2..6}.0", "{2,3,4,5,6}.0"),
        ("0.4{1..3}=", "0.4{1,2,3}="),
        ("0.{2..4}!", "0.{2,3,4}!"),
    ] {
        assert_eq!(game(ranged), game(listed), "{ranged}");
        assert_eq!(auto(&game(ranged), 40), auto(&game(listed), 40), "{ranged}");
    }
}

#[test]
fn counts_past_62_agree_with_the_plain_solver() {
    // Moves into 60 to 70 heaps reach heaps from 60 on; the plain solver
    // lists the partitions of a heap into that many parts (few: a part of
    // 2 or more in each, the rest ones).
    for code in [
        "0.{1,64..70}",
        "{2,60..70}.0",
        "0.3{63..66}",
        "4.{61..63,80+}",
        "{65..67}=.0",
        "0.{2,63..66}?",
        "0.[{1,63}]",
    ] {
        let game = game(code);
        assert_eq!(auto(&game, 100), plain(&game, 100), "{code}");
    }
}

#[test]
fn a_range_past_every_heap_costs_what_an_open_count_does() {
    // {2..10^9}.0 is {2+}.0 on every heap below 10^9: g(n) = n - 1. The
    // range is gathered through the sets of "at least 2 heaps", not a
    // billion exact counts.
    let wide = auto(&game("{2..1000000000}.0"), 600);
    assert_eq!(wide, auto(&game("{2+}.0"), 600));
    // Past its end a range gathers its counts one by one: heap 9 of
    // 0.{1,3..5} leaves 8 in 3 to 5 heaps, not 6 or more.
    for code in ["0.{1,3..5}", "0.2{2..4}", "{3..5}.1"] {
        assert_eq!(auto(&game(code), 40), plain(&game(code), 40), "{code}");
    }
}

#[test]
fn one_game_serves_tables_of_any_length_in_any_order() {
    // The composition sets are kept with the game: a shorter table after a
    // longer one reads them, a longer one extends them, across the heaps
    // where ranges switch from "at least" to exact counts.
    let code = game("0.{1,3..5}{2,7..9}");
    let expected = plain(&code, 60);
    for to in [40, 12, 60, 3, 25] {
        assert_eq!(auto(&code, to), expected[..=to as usize], "to {to}");
    }
}

#[test]
fn long_ranges_of_counts_stay_within_the_memory_limit() {
    // Up to heap 200 the range {2..200} is all of {2+}; past it, one set
    // per count: a tight limit is refused as the table's, not exhausted.
    let game = game("{2..200}.0");
    let solver = TableSolver::new().with_memory_limit(1 << 20);
    assert!(matches!(
        solver.values(&game, 3000),
        Err(Error::TableTooLarge { .. })
    ));
    let values = TableSolver::new().values(&game, 400).unwrap();
    assert_eq!(values.at(200).get(), 199);
}

#[test]
fn the_sparse_engine_refuses_codes_that_leave_more_than_two_heaps() {
    let solver = TableSolver::new().with_engine(Engine::Sparse);
    assert!(matches!(
        solver.values(&game("0.7{63..70}"), 100),
        Err(Error::EngineUnavailable { .. })
    ));
    let dense = TableSolver::new().with_engine(Engine::Dense);
    let code = game("0.7{63..70}");
    assert_eq!(
        dense.values(&code, 100).unwrap().to_vec(),
        TableSolver::new().values(&code, 100).unwrap().to_vec()
    );
}

#[test]
fn malformed_ranges_are_refused() {
    for bad in [
        "{5..2}.0",
        "0.{1..}",
        "0.{..3}",
        "0.{1...3}",
        "0.{1..2..3}",
        "0.{2..5+}",
        "0.{18446744073709551616}",
        "0.{1..18446744073709551616}",
    ] {
        assert!(
            matches!(bad.parse::<HeapGame>(), Err(Error::InvalidCode { .. })),
            "{bad}"
        );
    }
}

/// A digit as a set: some of the counts 0 to 3 (2 and 3 only for the
/// first digit, which must split the heap), a range of counts `low ..=
/// low + width`, an open count and a constraint.
fn digit(first: bool) -> impl Strategy<Value = String> {
    (
        (0u32..16).prop_map(move |small| if first { small & 12 } else { small }),
        prop::option::of((2u64..12, 0u64..6)),
        prop::option::of(4u64..14),
        prop::sample::select(vec!["", "=", "!", "?"]),
    )
        .prop_map(move |(small, range, open, rule)| {
            let mut items: Vec<String> = (0..4)
                .filter(|k| small >> k & 1 == 1)
                .map(|k| k.to_string())
                .collect();
            items.extend(range.map(|(low, width)| format!("{low}..{}", low + width)));
            // '!' and '?' are refused on an open digit.
            if !matches!(rule, "!" | "?") {
                items.extend(open.map(|k| format!("{k}+")));
            }
            if items.is_empty() {
                items.push(if first { "2" } else { "0" }.into());
            }
            format!("{{{}}}{rule}", items.join(","))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random codes of ranged digits: as the heaps pass a range's end, the
    /// solver switches it from the sets of "at least `low` heaps" to one
    /// set per count; every heap agrees with the plain solver.
    #[test]
    fn ranged_digits_agree_with_the_plain_solver(
        d0 in digit(true),
        rest in prop::collection::vec(digit(false), 1..3),
    ) {
        let text = format!("{d0}.{}", rest.concat());
        let game = game(&text);
        prop_assert_eq!(auto(&game, 28), plain(&game, 28), "{}", text);
    }
}
