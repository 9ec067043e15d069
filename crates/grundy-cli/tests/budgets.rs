//! Issue 16 (command line): inputs that used to run for hours, abort on an
//! allocation or get refused for the wrong reason. Each runs the real
//! binary under a generous time limit, a guard against hangs only: a run
//! that takes it fails the test instead of stalling the suite.

use std::time::Duration;

use assert_cmd::Command;

/// The hang guard.
const LIMIT: Duration = Duration::from_secs(60);

fn grundy(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("grundy")
        .unwrap()
        .args(args)
        .timeout(LIMIT)
        .assert()
}

fn stdout(args: &[&str]) -> String {
    let output = grundy(args).success().get_output().stdout.clone();
    String::from_utf8(output).unwrap()
}

/// Bad input or a refused budget: exit code 2, nothing on stdout, one line
/// on stderr that contains every `needle`.
fn rejects(args: &[&str], needles: &[&str]) {
    let assert = grundy(args).code(2);
    let output = assert.get_output();
    assert!(output.stdout.is_empty(), "{args:?}: no output on stdout");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.lines().count(),
        1,
        "{args:?}: one line, got {stderr:?}"
    );
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{args:?}: {stderr:?} should mention {needle:?}"
        );
    }
}

/// The last value of a `--format csv` table.
fn last_value(csv: &str) -> &str {
    csv.lines()
        .last()
        .and_then(|l| l.split(',').nth(1))
        .unwrap()
}

#[test]
fn many_part_digits_take_polynomial_time() {
    // Enumerating partitions, these ran for minutes (0.{62} to 200 over
    // 120 s, 0.&(2^63-1); to 100 36 s, {2..7}.0 to 300 unbounded).
    let csv = stdout(&["values", "0.{62}", "--to", "200", "--format", "csv"]);
    assert_eq!(last_value(&csv), "3");
    let csv = stdout(&[
        "values",
        "0.&9223372036854775807;",
        "--to",
        "100",
        "--format",
        "csv",
    ]);
    assert_eq!(csv.lines().count(), 102);
    // Splitting into two to seven heaps: g(n) = n - 1, as for {2+}.0.
    let csv = stdout(&[
        "values",
        "{2,3,4,5,6,7}.0",
        "--to",
        "300",
        "--format",
        "csv",
    ]);
    assert_eq!(last_value(&csv), "299");
}

#[test]
fn tables_are_refused_past_the_memory_limit_before_allocating() {
    // Nim's values are known up front, four bytes each: this used to
    // pass the one-byte estimate and abort on the allocation, or reach
    // 7 GB through the histogram of an analysis.
    rejects(
        &["values", "nim", "--to", "10^9", "--memory-limit", "1G"],
        &["over the limit of 1.0 GiB", "--memory-limit"],
    );
    rejects(
        &["analyze", "nim", "--to", "1e8", "--memory-limit", "400M"],
        &["needs 762.9 MiB", "--memory-limit"],
    );
    rejects(
        &["analyze", "nim", "--to", "1e8"],
        &["histogram", "100000001 values", "--memory-limit"],
    );
}

#[test]
fn misere_budget_bounds_the_options_listed_too() {
    // 2.8 GB of listed options, and 4·10^12 partitions at heap 200.
    rejects(
        &["misere", "kayles", "10000", "10000", "--budget", "1e3"],
        &["more than 1000 positions", "--budget"],
    );
    rejects(&["misere", "0.{2+}", "200"], &["positions", "--budget"]);
}

#[test]
fn misere_quotient_checks_heaps_before_computing() {
    // Used to compute the quotient for 16 s first.
    rejects(
        &["misere", "kayles", "--quotient", "6", "1e18"],
        &["the quotient covers heaps up to 6"],
    );
}

#[test]
fn ordered_positions_of_distinct_heaps_take_more_than_forty_heaps() {
    // Was refused as "unordered positions of 41 heaps: at most 40". The
    // total is 100!/59!, and the P-positions are 41! times the sets'
    // (1257278261719143174031795944, checked by hand with Python).
    let text = stdout(&[
        "count",
        "kayles",
        "--to",
        "100",
        "--heaps",
        "41",
        "--distinct",
    ]);
    assert!(
        text.contains(
            ": 672945751599877470526861010462948352548794215040273178520663254630400000000000\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            ": 42059134510311967277073239599355923150621677869622921619711079743488000000000\n"
        ),
        "{text}"
    );
    rejects(
        &[
            "count",
            "kayles",
            "--to",
            "100",
            "--heaps",
            "1001",
            "--distinct",
        ],
        &["ordered positions of distinct heaps of 1001 heaps: at most 1000"],
    );
}
