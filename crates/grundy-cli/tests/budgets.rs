//! Issue 16 (command line): inputs that used to run for hours, abort on an
//! allocation or get refused for the wrong reason. Each runs the real
//! binary under a generous time limit, a guard against hangs only: a run
//! that takes it fails the test instead of stalling the suite.

use std::time::Duration;

use assert_cmd::Command;

mod common;

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
    common::refused(grundy(args), args, needles);
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
            "1000001",
            "--distinct",
        ],
        &[
            "ordered positions of distinct heaps of 1000001 heaps: at most 1000000",
            "--max-heaps",
        ],
    );
}

#[test]
fn the_heap_cap_of_unordered_counts_is_named_and_raised_by_its_flag() {
    // 1001 heaps from ten: the multisets number C(1010, 9).
    rejects(
        &[
            "count",
            "kayles",
            "--to",
            "10",
            "--heaps",
            "1001",
            "--unordered",
            "--max-heaps",
            "1000",
        ],
        &[
            "unordered positions of 1001 heaps: at most 1000",
            "--max-heaps",
        ],
    );
    let text = stdout(&[
        "count",
        "kayles",
        "--to",
        "10",
        "--heaps",
        "1001",
        "--unordered",
        "--max-heaps",
        "1001",
    ]);
    assert!(
        text.starts_with(
            "positions of 1001 heaps of kayles in 1..=10, unordered (a <= b <= ...): \
             2908077120956865974260\n"
        ),
        "{text}"
    );
}

#[test]
fn the_option_cap_of_winning_moves_is_named_and_set_by_its_flag() {
    // 0.{2+} at 30: 4564 options (the partitions of 29 into two or more
    // heaps), listed once the cap is raised past them.
    rejects(
        &["sum", "0.{2+}", "30", "7", "--max-options", "1000"],
        &[
            "heap 30 of 0.{2+} has more than 1000 options",
            "--max-options",
        ],
    );
    rejects(
        &["count", "0.{2+}", "--moves", "30", "--max-options", "1000"],
        &["more than 1000 options", "--max-options"],
    );
    let text = stdout(&["sum", "0.{2+}", "30", "7", "--max-options", "4564"]);
    assert!(text.contains("becomes 7 + 11 + 11"), "{text}");
}

#[test]
fn pair_positions_are_refused_past_the_memory_limit_not_searched() {
    // The memoized search listed every option on its path: an abort on a
    // 4 GiB allocation after 25 s at (10^9, 10^9), and no answer in 30 s
    // at (10^5, 10^5).
    rejects(
        &["sum", "wythoff", "1e9,1e9", "--memory-limit", "100M"],
        &[
            "needs 3.5 EiB, over the limit of 100.0 MiB",
            "--memory-limit",
        ],
    );
    rejects(
        &["sum", "wythoff", "100000,100000", "--memory-limit", "100M"],
        &["needs 37.3 GiB", "--memory-limit"],
    );
    // Within the limit, the answer: (1, 2) and (3, 5) are P-positions
    // (Wythoff's pairs for k = 1, 2), and (2, 2) is won by taking both.
    let text = stdout(&["sum", "wythoff", "1,2", "3,5"]);
    assert!(text.contains("second player wins (nim-sum 0)"), "{text}");
    let text = stdout(&["sum", "wythoff", "2,2", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["winner"], "first", "{text}");
    assert!(text.contains("(0,0)"), "{text}");
}

#[test]
fn maze_values_are_refused_past_the_memory_limit() {
    let file =
        TempFile(std::env::temp_dir().join(format!("grundy-maze-{}.txt", std::process::id())));
    std::fs::write(&file.0, format!("{}\n", ".".repeat(1000)).repeat(1000)).unwrap();
    let path = file.0.to_str().unwrap();
    // 10^6 squares of 8 bytes, at least.
    rejects(
        &["maze", path, "--memory-limit", "1M"],
        &[
            "the table of a map of 1000000 squares needs at least 7.7 MiB",
            "--memory-limit",
        ],
    );
    assert!(
        stdout(&["maze", path, "--memory-limit", "64M", "--format", "json"]).contains("\"values\"")
    );
}

#[test]
fn compare_stops_at_the_time_limit() {
    // 8.0 is not periodic in the plain sense, so the analysis looked for a
    // proof up to 2^17 heaps of a three-part split: forever.
    rejects(
        &["compare", "8.0", "kayles", "--time-limit", "2"],
        &["compare stopped at the time limit of 2 s", "--time-limit"],
    );
}

#[test]
fn outcomes_past_the_time_limit_are_refused_at_the_first_report() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/digits.rhai");
    rejects(
        &["outcomes", script, "--states", "1e10"],
        &["10000000000 states would take about", "--time-limit"],
    );
}

/// A temporary file, removed when dropped.
struct TempFile(std::path::PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn check_refuses_a_forged_proof_size_before_any_work() {
    let file =
        TempFile(std::env::temp_dir().join(format!("grundy-forged-{}.json", std::process::id())));
    let path = file.0.to_str().unwrap();
    grundy(&["analyze", "kayles", "--certificate", path]).success();
    let mut certificate: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    // A consistent forgery: pre-period 10^5, its bound, and that many
    // values. The plain solver took over 120 s before comparing one. The
    // bound is 2 n0 + 2 p + k - 1 for Kayles (k = 2, p = 12).
    certificate["preperiod"] = 100_000.into();
    let needed = 2 * 100_000 + 2 * 12 + 1;
    certificate["last_heap_needed"] = needed.into();
    certificate["values"] = vec![0; needed + 1].into();
    std::fs::write(path, certificate.to_string()).unwrap();
    let refused = grundy(&["check", path]).code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert!(
        stderr.contains("past the check's largest heap, 131072"),
        "{stderr}"
    );
    assert!(stderr.contains("--max"), "{stderr}");
    // With the budget raised, the first wrong value is found at once.
    let rejected = grundy(&["check", path, "--max", "1e6"]).code(1);
    let stderr = String::from_utf8_lossy(&rejected.get_output().stderr).into_owned();
    assert!(stderr.starts_with("invalid: g(1) is 1"), "{stderr}");
}

#[test]
fn winning_moves_of_many_part_codes_are_refused_not_enumerated() {
    // Listing the partitions of 199 into 62 heaps aborted on memory; those
    // of 100 (190 million) took 20 s.
    rejects(&["sum", "0.{62}", "200"], &["more than 10000000 options"]);
    rejects(&["sum", "0.{2+}", "100"], &["more than 10000000 options"]);
    // Small heaps still list theirs.
    assert!(stdout(&["sum", "0.{2+}", "30", "7"]).contains("becomes 7 + 11 + 11"));
}

#[test]
fn a_value_stream_of_another_run_is_not_overwritten_without_consent() {
    let dir = std::env::temp_dir().join(format!("grundy-overwrite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stream = dir.join("kayles.values");
    let path = stream.to_str().unwrap();
    grundy(&["analyze", "kayles", "--to", "1000", "--values-out", path]).success();
    let kept = std::fs::read(&stream).unwrap();
    rejects(
        &["analyze", "0.07", "--to", "1000", "--values-out", path],
        &["holds values", "--force", "--resume"],
    );
    assert_eq!(
        std::fs::read(&stream).unwrap(),
        kept,
        "the stream is untouched"
    );
    grundy(&[
        "analyze",
        "0.07",
        "--to",
        "1000",
        "--values-out",
        path,
        "--force",
    ])
    .success();
    assert_ne!(std::fs::read(&stream).unwrap(), kept);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn threads_are_capped_at_a_few_a_core() {
    rejects(
        &["values", "grundy", "--to", "100", "--threads", "30000"],
        &["threads from 1 to"],
    );
    rejects(
        &["values", "grundy", "--to", "100", "--threads", "0"],
        &["threads from 1 to"],
    );
    grundy(&["values", "grundy", "--to", "100", "--threads", "2"]).success();
}
