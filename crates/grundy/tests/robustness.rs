//! Robustness: inputs a user can type or a file can hold that once
//! panicked, aborted, ran out of memory or wrote where they should not.
//! Each test is named after what it guards.

use grundy::Error;
use grundy::rules::{PRINTED_LINES, ScriptGame, ScriptLimits};

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
