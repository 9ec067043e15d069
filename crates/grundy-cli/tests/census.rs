//! Issue 19: `grundy census` through the real binary — the JSON-lines
//! contract, a census killed with SIGKILL and resumed, shards merged, and
//! bad input refused with one line and exit code 2.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

fn grundy(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("grundy").unwrap().args(args).assert()
}

/// The JSON rows a command prints, one per line.
fn rows_of(args: &[&str]) -> Vec<Value> {
    let out = grundy(args).success().get_output().stdout.clone();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A row without what differs between runs: its wall time, and the
/// sparse engine's statistics (the table solver picks its engine for each
/// stretch of heaps by measured cost, so they depend on timing; the values,
/// periods and classes do not).
fn timeless(mut row: Value) -> Value {
    let fields = row.as_object_mut().unwrap();
    for key in [
        "seconds",
        "rare_mask",
        "rare_count",
        "last_rare",
        "position_parity",
    ] {
        fields.remove(key);
    }
    row
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-census-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn json_rows_carry_the_contract_fields() {
    let rows = rows_of(&["census", "0.?7", "--max", "2^10", "--format", "json"]);
    assert_eq!(rows.len(), 8);
    for key in [
        "game",
        "period",
        "preperiod",
        "saltus",
        "proven",
        "computed_to",
        "class",
        "class_proven",
        "stopped",
    ] {
        assert!(rows.iter().all(|r| r.get(key).is_some()), "{key}");
    }
    let kayles = rows.iter().find(|r| r["game"] == "0.77").unwrap();
    assert_eq!(
        (&kayles["preperiod"], &kayles["period"]),
        (&71.into(), &12.into())
    );
    assert_eq!(kayles["proven"], true);
    // Dawson's Kayles is 0.4 one heap on, but 0.4 is not in 0.?7.
    let dawson = rows.iter().find(|r| r["game"] == "0.07").unwrap();
    assert_eq!(dawson["class"], "0.07");
}

/// Killed with SIGKILL while it runs, a census loses only the game in
/// flight: the rerun keeps every row written (their wall times too, so
/// they were not recomputed) and finishes the rest; for an output file of
/// JSON lines and one of CSV.
#[test]
fn a_killed_census_resumes_where_it_stopped() {
    let dir = scratch("killed");
    for name in ["rows.jsonl", "rows.csv"] {
        let output = dir.join(name);
        killed_and_resumed(&output);
        assert_eq!(
            std::fs::read_to_string(&output)
                .unwrap()
                .starts_with("game,"),
            name.ends_with(".csv"),
            "{name} is written in the format its name says"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// The rows a census file holds, read back by `census merge` (which reads
/// JSON lines and CSV alike, and skips a last line cut short).
fn saved(path: &std::path::Path) -> Vec<Value> {
    rows_of(&[
        "census",
        "merge",
        path.to_str().unwrap(),
        "--format",
        "json",
    ])
}

fn killed_and_resumed(output: &std::path::Path) {
    // Five unsolved games, each cut by its budget, run one at a time
    // (costliest first), then the cheap ones.
    let args = [
        "census",
        "0.6",
        "0.04",
        "0.06",
        "0.14",
        "0.36",
        "0.?7",
        "--max",
        "2^24",
        "--time-per-game",
        "0.4",
        "--jobs",
        "1",
        "--output",
        output.to_str().unwrap(),
        "--format",
        "json",
    ];
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // Rows written whole: JSON lines, or CSV lines after the header.
    let header = usize::from(output.extension().is_some_and(|e| e == "csv"));
    let written = |path: &std::path::Path| {
        std::fs::read_to_string(path)
            .map(|t| t.matches('\n').count().saturating_sub(header))
            .unwrap_or(0)
    };
    while written(output) < 1 && started.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = saved(output);
    assert!(!before.is_empty() && before.len() < 13, "{}", before.len());
    let after = rows_of(&args);
    assert_eq!(after.len(), 13);
    for row in &before {
        let again = after.iter().find(|r| r["game"] == row["game"]).unwrap();
        assert_eq!(
            again["seconds"], row["seconds"],
            "{} was recomputed",
            row["game"]
        );
    }
    for row in after.iter().filter(|r| r["stopped"] == "time") {
        assert_eq!(row["proven"], false, "{}", row["game"]);
    }
    // The output file now holds the classified rows.
    assert_eq!(saved(output), after);
}

/// Two shards merged are the whole census, whatever their files' formats.
#[test]
fn shards_merge_into_the_whole_census() {
    let dir = scratch("shards");
    let whole: Vec<Value> = rows_of(&["census", "0.??", "--max", "2^11", "--format", "json"])
        .into_iter()
        .map(timeless)
        .collect();
    let mut files = Vec::new();
    for k in 1..=2 {
        // One shard as JSON lines, one as CSV: merge reads both.
        let file = dir.join(["shard1.jsonl", "shard2.csv"][k - 1]);
        let shard = format!("{k}/2");
        grundy(&[
            "census",
            "0.??",
            "--max",
            "2^11",
            "--shard",
            &shard,
            "--output",
            file.to_str().unwrap(),
        ])
        .success();
        files.push(file.to_str().unwrap().to_owned());
    }
    let mut args = vec!["census", "merge", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let merged: Vec<Value> = rows_of(&args).into_iter().map(timeless).collect();
    assert_eq!(merged, whole);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_census_input_is_one_line_and_exit_code_2() {
    for args in [
        &["census", "0.[z]"][..],
        &["census", "0.?", "--shard", "0/2"],
        &["census", "0.?", "--shard", "3/2"],
        &["census", "0.?", "--time-per-game", "-1"],
        &["census", "0.????????"],
        &["census", "merge", "/nonexistent/rows.jsonl"],
    ] {
        let assert = grundy(args).code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}
