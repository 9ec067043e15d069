//! Robustness: inputs a user can type or a file can hold that once
//! panicked, aborted, ran out of memory or wrote where they should not.
//! Each test is named after what it guards.

use grundy::Error;
use grundy::rules::{
    GameGraph, Hackenbush, Maze, PRINTED_LINES, PairGame, ScriptGame, ScriptLimits, ScriptPosition,
};
use grundy::solve::{LoopyValue, script_loopy, script_sum};
use grundy::{Nimber, Options, Ruleset};

fn script(source: &str) -> ScriptGame {
    ScriptGame::compile("game.rhai", source, ScriptLimits::default()).unwrap()
}

/// Set in the child process of the print test, which runs the script.
const PRINT_CHILD: &str = "GRUNDY_ROBUSTNESS_PRINT_CHILD";

#[test]
fn script_print_and_debug_never_reach_stdout_or_stderr() {
    let source =
        r#"fn options(n) { print(`marker-print-${n}`); debug(`marker-debug-${n}`); [n - 1] }"#;
    if std::env::var_os(PRINT_CHILD).is_some() {
        let game = script(source);
        game.heap_values(3).unwrap();
        let printed = game.printed();
        assert!(printed.iter().any(|l| l.contains("marker-print-3")));
        assert!(printed.iter().any(|l| l.contains("marker-debug-3")));
        return;
    }
    // Run this test again in a child process, with its output not captured
    // by the test harness, and read what reached the real stdout and stderr.
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "script_print_and_debug_never_reach_stdout_or_stderr",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(PRINT_CHILD, "1")
        .output()
        .unwrap();
    assert!(child.status.success(), "{child:?}");
    let output = format!(
        "{}{}",
        String::from_utf8_lossy(&child.stdout),
        String::from_utf8_lossy(&child.stderr)
    );
    assert!(
        output.contains("1 passed"),
        "the child ran no test: {output}"
    );
    assert!(!output.contains("marker-"), "a script wrote: {output}");
}

#[test]
fn script_print_log_is_bounded() {
    let game = script(
        r#"fn options(n) {
        let line = "x";
        line.pad(1000, 'y');
        for i in 0..50 { print(line); }
        [n - 1]
    }"#,
    );
    game.heap_values(20).unwrap();
    let printed = game.printed();
    assert_eq!(printed.len(), PRINTED_LINES + 1);
    assert!(printed.iter().all(|l| l.chars().count() <= 200));
    assert!(printed[PRINTED_LINES].contains("more lines not kept"));
}

/// The error a script's run ends in, as text.
fn script_failure(source: &str, limits: ScriptLimits, to: u64) -> String {
    let game = ScriptGame::compile("game.rhai", source, limits).unwrap();
    match game.heap_values(to) {
        Err(e @ Error::Script { .. }) => e.to_string(),
        other => panic!("expected a script error, got {other:?}"),
    }
}

#[test]
fn script_split_with_too_many_ways_is_an_error_not_an_abort() {
    for call in [
        "split(300, 20)",
        "split(9223372036854775807, 2)",
        "split(9223372036854775807, 9223372036854775807)",
    ] {
        let source = format!("fn options(n) {{ if n == 3 {{ {call} }} else {{ [] }} }}");
        let message = script_failure(&source, ScriptLimits::default(), 3);
        assert!(message.contains("size limit"), "{call}: {message}");
    }
    // Negative and extreme arguments list nothing.
    let source =
        "fn options(n) { [split(-9223372036854775807 - 1, 2), split(5, -3), split(n, 0)] }";
    assert!(script(source).heap_values(5).is_ok());
}

#[test]
fn script_split_respects_the_size_limit_of_its_own_engine() {
    // split(20, 2) lists 10 ways of 2 heaps: 20 heaps.
    let source = "fn options(n) { if n == 20 { split(20, 2) } else { [] } }";
    let small = ScriptLimits {
        size: 19,
        ..ScriptLimits::default()
    };
    let roomy = ScriptLimits {
        size: 20,
        ..ScriptLimits::default()
    };
    // Engines with different limits, alive at once, each keep their own.
    let refused = ScriptGame::compile("small.rhai", source, small).unwrap();
    let allowed = ScriptGame::compile("roomy.rhai", source, roomy).unwrap();
    assert!(allowed.heap_values(20).is_ok());
    assert!(
        refused
            .heap_values(20)
            .unwrap_err()
            .to_string()
            .contains("19 heaps")
    );
    assert!(allowed.heap_values(20).is_ok());
}

/// A finite game whose heaps grow: heap `n < 5` moves to `n + 1`.
const GROWING: &str = "fn options(n) { if n < 5 { [n + 1] } else { [] } }";

#[test]
fn script_options_larger_than_the_heap_never_panic() {
    let game = script(GROWING);
    // 5 loses, 4 wins, 3 loses, ... : g(n) = (5 - n) % 2 here.
    let expect = |n: u64| (5 - n) % 2;
    let values = game.heap_values(3).unwrap();
    assert_eq!(values.len(), 4);
    for n in 0..=3 {
        assert_eq!(u64::from(values.at(n as usize)), expect(n), "g({n})");
    }
    // The table with the explored game covers every option it lists.
    let (explored, table) = game.heap_table(3).unwrap();
    for n in 0..=3 {
        let mut options = Options::new();
        explored.options(&ScriptPosition::Heap(n), &mut options);
        for option in options.iter() {
            for part in option {
                let ScriptPosition::Heap(h) = part else {
                    panic!("heaps only")
                };
                assert_eq!(u64::from(table.at(*h as usize)), expect(*h), "g({h})");
            }
        }
    }
    let heaps: Vec<ScriptPosition> = (0..=3).map(ScriptPosition::Heap).collect();
    let sum = script_sum(&game, &heaps).unwrap();
    assert_eq!(sum.nim_sum.get(), 0);
    let loopy = script_loopy(&game, &heaps).unwrap();
    for n in 0..=3 {
        let index = loopy.index(&ScriptPosition::Heap(n)).unwrap();
        assert_eq!(
            loopy.values[index],
            LoopyValue::Finite(Nimber::new(expect(n) as u32)),
            "heap {n}"
        );
    }
}

#[test]
fn script_table_past_the_position_limit_is_an_error_not_a_huge_table() {
    // Heap 3 moves to heap 10^12: its value is found, but a table reaching
    // it would hold 10^12 heaps.
    let game = script("fn options(n) { if n <= 3 { [n + 1000000000000] } else { [] } }");
    let values = game.heap_values(3).unwrap();
    assert_eq!(
        values.to_vec().iter().map(|v| v.get()).collect::<Vec<_>>(),
        [1, 1, 1, 1]
    );
    assert!(matches!(game.heap_table(3), Err(Error::Script { .. })));
    // So is asking for more heaps than a run may explore.
    for to in [u64::MAX, 1 << 63, 10_000_000] {
        let message = game.heap_values(to).unwrap_err().to_string();
        assert!(
            message.contains("ScriptLimits::positions"),
            "{to}: {message}"
        );
    }
}

#[test]
fn script_heaps_past_two_to_the_63_are_refused_not_wrapped() {
    let game = script("fn options(n) { if n < 0 { throw \"negative\" } [n - 1] }");
    for text in ["9223372036854775808", "18446744073709551615"] {
        assert!(
            matches!(
                text.parse::<ScriptPosition>(),
                Err(Error::InvalidPosition { .. })
            ),
            "{text}"
        );
    }
    assert_eq!(
        "9223372036854775807".parse::<ScriptPosition>().unwrap(),
        ScriptPosition::Heap(i64::MAX as u64)
    );
    for heap in [1u64 << 63, u64::MAX] {
        let start = [ScriptPosition::Heap(heap)];
        assert!(matches!(
            game.explore(&start),
            Err(Error::InvalidPosition { .. })
        ));
        assert!(matches!(
            script_sum(&game, &start),
            Err(Error::InvalidPosition { .. })
        ));
        assert!(matches!(
            script_loopy(&game, &start),
            Err(Error::InvalidPosition { .. })
        ));
        assert!(matches!(
            game.state_options(heap),
            Err(Error::InvalidPosition { .. })
        ));
    }
    // The largest heap a script handles is played as it is: halving it
    // reaches 0 in 63 moves.
    let halve = script(
        "fn options(n) { if n < 0 { throw \"negative\" } if n > 0 { [n / 2] } else { [] } }",
    );
    let top = [ScriptPosition::Heap(i64::MAX as u64)];
    assert_eq!(halve.explore(&top).unwrap().len(), 64);
    assert_eq!(script_sum(&halve, &top).unwrap().nim_sum.get(), 1);
}

#[test]
fn pair_table_with_a_side_near_two_to_the_64_is_too_large_not_empty() {
    for game in ["wythoff", "rook"] {
        let game = PairGame::parse(game).unwrap().unwrap();
        for to in [
            u64::MAX,
            u64::MAX - 1,
            1 << 63,
            1 << 32,
            u64::from(u32::MAX),
        ] {
            match game.table(to, u64::MAX) {
                Err(e @ Error::TableTooLarge { .. }) => {
                    assert!(e.to_string().contains(&to.to_string()), "{e}");
                }
                other => panic!("{game} to {to}: expected TableTooLarge, got {other:?}"),
            }
        }
        assert_eq!(game.table(3, u64::MAX).unwrap().len(), 4);
    }
}

#[test]
fn graph_json_with_a_byte_order_mark_is_read_as_json() {
    let json = r#"{"nodes": ["d"], "edges": [["a", "b"], ["b", "c"]]}"#;
    let plain = GameGraph::parse(json).unwrap();
    for text in [format!("\u{feff}{json}"), format!("\u{feff}  \n{json}")] {
        let marked = GameGraph::parse(&text).unwrap();
        assert_eq!(
            (marked.len(), marked.edge_count()),
            (plain.len(), plain.edge_count())
        );
        assert!(marked.position("a").is_some());
        assert!(marked.position("d").is_some());
    }
    let listed = GameGraph::parse("\u{feff}[[\"a\", \"b\"]]").unwrap();
    assert_eq!(listed.edge_count(), 1);
    // In an edge list the mark does not become part of the first name.
    let edges = GameGraph::parse("\u{feff}a b\nb c\n").unwrap();
    assert!(edges.position("a").is_some());
    assert_eq!(edges.len(), 3);
}

#[test]
fn hackenbush_edge_list_with_a_byte_order_mark_keeps_its_ground() {
    let marked = Hackenbush::parse("\u{feff}g a\na b\n").unwrap();
    assert_eq!(marked.value().get(), 2);
}

#[test]
fn maze_values_take_linear_time_in_the_squares() {
    // One row of 100,000 squares took 41 s walking every move; an open
    // 3000 x 3000 map ran unbounded. Without walls a square is worth r ^ c.
    let row = Maze::parse(&".".repeat(100_000))
        .unwrap()
        .values(1 << 30)
        .unwrap();
    assert!(
        row[0]
            .iter()
            .enumerate()
            .all(|(c, v)| v.unwrap().index() == c)
    );
    let open = Maze::parse(&format!("{}\n", ".".repeat(1500)).repeat(1500))
        .unwrap()
        .values(1 << 30)
        .unwrap();
    for (r, row) in open.iter().enumerate() {
        assert!(
            row.iter()
                .enumerate()
                .all(|(c, v)| v.unwrap().index() == r ^ c)
        );
    }
}

#[test]
fn a_script_too_slow_to_compile_is_refused_before_parsing_under_its_time_limit() {
    // Rhai's parser scans every function at each name: 30,000 functions of
    // two names each are about 10^10 lookups.
    let source: String = (0..30_000)
        .map(|i| format!("fn f{i}(x) {{ x + {i} }}\n"))
        .chain(["fn options(n) { [] }\n".to_owned()])
        .collect();
    let (functions, names, estimate) = grundy::rules::compile_estimate(&source);
    assert!(functions > 30_000 && names > 120_000, "{functions} {names}");
    let limits = ScriptLimits {
        time: std::time::Duration::from_secs(1),
        ..ScriptLimits::default()
    };
    assert!(estimate > limits.time);
    match ScriptGame::compile("many.rhai", &source, limits.clone()) {
        Err(Error::Refused { knob, reason }) => {
            assert_eq!(knob, grundy::Knob::TimeLimit);
            assert!(reason.contains("30001 functions"), "{reason}");
        }
        Err(other) => panic!("refused otherwise: {other}"),
        Ok(_) => panic!("compiled past its time limit"),
    }
    // A small script is not.
    let small = "fn options(n) { if n > 0 { [n - 1] } else { [] } }";
    assert!(ScriptGame::compile("small.rhai", small, limits).is_ok());
}

#[test]
fn options_kept_to_count_them_are_held_to_the_memory_limit() {
    // 0.{2+} at heap 60 has 831,819 distinct options (splits into any
    // number of heaps): tens of megabytes kept, past a limit of one.
    let game: grundy::HeapGame = "0.{2+}".parse().unwrap();
    let heap = grundy::Component { game: 0, heap: 60 };
    let small = grundy::TableSolver::new().with_memory_limit(1 << 20);
    match grundy::move_counts(
        std::slice::from_ref(&game),
        &[heap],
        &small,
        u64::MAX,
        &mut |_, _| true,
    ) {
        Err(Error::MemoryLimit { what, .. }) => assert!(what.contains("heap 60"), "{what}"),
        other => panic!("not refused: {:?}", other.map(|_| ())),
    }
    let counts = grundy::move_counts(
        &[game],
        &[heap],
        &grundy::TableSolver::new(),
        u64::MAX,
        &mut |_, _| true,
    )
    .unwrap();
    let total: u64 = counts[0].by_value.iter().map(|&(_, n)| n).sum();
    assert_eq!(total, 831_819);
}

#[test]
fn a_sum_of_a_heap_too_long_to_compute_reports_progress_and_stops_when_told() {
    // 0.{2+} (splits into any number of heaps) costs about n^2/4 to heap
    // n: the table toward heap 10^5 reports its heaps and the whole one
    // to reach, and stops at the first `false`.
    let query = grundy::session::SumQuery {
        game: Some("0.{2+}"),
        items: vec![grundy::session::SumItem::Written("100000".into())],
        script: ScriptLimits::default(),
        solver: &grundy::TableSolver::new(),
        max_options: grundy::LISTED_OPTIONS_LIMIT,
        work_limit: grundy::session::DEFAULT_WORK,
        files: false,
    };
    let mut heard = Vec::new();
    let answer = grundy::session::sum(&query, &mut |n, last| {
        heard.push((n, last));
        false
    });
    assert!(
        matches!(answer, Err(Error::Interrupted { .. })),
        "not stopped"
    );
    assert_eq!(heard.len(), 1);
    assert_eq!(heard[0].1, 100_000);
    assert!(heard[0].0 < 100_000);
}

#[test]
fn grunt_coins_count_their_returned_values_against_the_memory_limit() {
    // Coin n + 1 of Grunt is heap n of Grundy's game: its table (3 bytes a
    // heap at the peak) and the four-byte values returned must fit
    // together, 7 bytes a coin.
    let fits = |limit: u64, to: u64| {
        grundy::session::coins(
            "grunt",
            grundy::session::CoinsQuestion::Values(to),
            limit,
            grundy::session::DEFAULT_WORK,
            &mut |_| true,
        )
    };
    match fits(7_000, 1_000) {
        Err(Error::TableTooLarge { .. }) => {}
        other => panic!("not refused: {:?}", other.map(|_| ())),
    }
    assert!(fits(7_100, 1_000).is_ok());
}
