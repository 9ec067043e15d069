//! Robustness: inputs a user can type or a file can hold that once
//! panicked, aborted, ran out of memory or wrote where they should not.
//! Each test is named after what it guards.

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
