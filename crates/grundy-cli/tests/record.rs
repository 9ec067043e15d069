//! Issue 18: record runs from the command line — windowed runs, their value
//! streams (histograms in Rogalski's format, verification, damage refused)
//! and resuming after SIGKILL.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;

mod common;
use common::Scratch;

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = grundy().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_windowed_run_streams_rogalskis_histograms_and_verifies() {
    let scratch = Scratch::new("hist");
    let stream = scratch.join("0.161.values");
    let (code, _, err) = run(&[
        "analyze",
        "0.161",
        "--to",
        "2^17",
        "--values-out",
        path(&stream),
    ]);
    assert_eq!(code, 0, "{err}");
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/octal/rogalski/histograms/0.161"
    );
    for k in [10, 16] {
        let (code, hist, err) = run(&["stream", "hist", path(&stream), "--to", &format!("2^{k}")]);
        assert_eq!(code, 0, "{err}");
        let published = std::fs::read_to_string(format!("{data}/{}", 1u64 << k)).unwrap();
        assert_eq!(hist, published, "0.161 at 2^{k}");
    }
    let (code, out, err) = run(&["stream", "verify", path(&stream)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("chunks 0..3 (heaps 0..131073) match their checksums"),
        "{out}"
    );
    assert!(out.contains("values not recomputed"), "{out}");
    let (code, out, err) = run(&[
        "stream",
        "verify",
        path(&stream),
        "--chunks",
        "1..2",
        "--recompute",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("chunks 1..2 (heaps 65536..131072) computed again from heap 0 and equal"),
        "{out}"
    );
    let (_, cat, _) = run(&[
        "stream",
        "cat",
        path(&stream),
        "--from",
        "100",
        "--to",
        "130",
        "--format",
        "csv",
    ]);
    let (_, table, _) = run(&["values", "0.161", "--to", "130", "--format", "csv"]);
    assert_eq!(
        cat.lines().skip(1).collect::<Vec<_>>(),
        table.lines().skip(101).collect::<Vec<_>>()
    );
    // One flipped bit, or a cut, and every reader refuses with one line.
    let clean = std::fs::read(&stream).unwrap();
    let mut flipped = clean.clone();
    flipped[clean.len() / 3] ^= 1;
    for bytes in [&flipped[..], &clean[..clean.len() - 5]] {
        std::fs::write(&stream, bytes).unwrap();
        for command in ["verify", "hist"] {
            let (code, _, err) = run(&["stream", command, path(&stream)]);
            assert_eq!(code, 2, "{command}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.contains("damaged") || err.contains("truncated"),
                "{err}"
            );
        }
    }
}

#[test]
fn bad_record_arguments_are_one_line_errors() {
    for args in [
        &["analyze", "lasker", "--window", "--to", "100"][..],
        &[
            "analyze",
            "0.16",
            "--to",
            "100",
            "--window",
            "--log-every",
            "-1",
        ],
        &[
            "analyze",
            "0.16",
            "--to",
            "100",
            "--window",
            "--checkpoint",
            "x.ckpt",
        ],
        &[
            "stream",
            "verify",
            "/nonexistent.values",
            "--chunks",
            "3..1",
        ],
        &["stream", "hist", "/dev/null"],
    ] {
        let (code, _, err) = run(args);
        assert_eq!((code, err.lines().count()), (2, 1), "{args:?}: {err}");
    }
}

/// The JSON report's root checksum.
fn root(report: &str) -> String {
    let json: serde_json::Value = serde_json::from_str(report).unwrap();
    json["record"]["root"].as_str().unwrap().to_owned()
}

/// A windowed `analyze --format json` has every field of a full-table one,
/// with the same values (its period searched in its last 64 heaps, proven
/// by the same theorem), and its own under `record`; the text says the
/// same.
#[test]
fn a_windowed_analysis_reports_what_a_full_table_reports() {
    let json = |args: &[&str]| -> serde_json::Value {
        let (code, out, err) = run(args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    // To heap 300, and adaptively (to the first proof, at heap 216).
    for to in [&["--to", "300"][..], &[]] {
        let common = [&["analyze", "kayles", "--format", "json"][..], to].concat();
        let full = json(&common);
        let mut windowed = json(&[&common[..], &["--window", "--period-window", "64"]].concat());
        let record = windowed.as_object_mut().unwrap().remove("record").unwrap();
        assert_eq!(record["period_window"], 64);
        assert_eq!(record["root"].as_str().map(str::len), Some(16), "{record}");
        let full = full.as_object().unwrap();
        assert_eq!(full["record"], serde_json::Value::Null);
        // With --to past the proof, the full table stops at the proof and
        // answers the rest through the period; the windowed run computes
        // every heap of its stream. The answers agree; what each computed
        // differs.
        let computed = [
            "computed_to",
            "rare_values",
            "rare_count",
            "last_rare",
            "position_parity",
            "sparse_scans",
            "sparse_scan_pairs",
            "sparse_repaired",
            "sparse_taken_over",
        ];
        let through_proof = full["computed_to"] != full["to"];
        for (key, value) in full.iter().filter(|(key, _)| *key != "record") {
            if through_proof && computed.contains(&key.as_str()) {
                continue;
            }
            assert_eq!(&windowed[key], value, "{key}");
        }
        assert_eq!(
            (&full["period"], &full["preperiod"], &full["proven"]),
            (&12.into(), &71.into(), &true.into())
        );
    }
    let (code, text, err) = run(&["analyze", "kayles", "--to", "300", "--window"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("period       12, pre-period 71: PROVEN"),
        "{text}"
    );
    // The period search is held to the memory limit.
    let (code, _, err) = run(&[
        "analyze",
        "kayles",
        "--to",
        "10^6",
        "--window",
        "--period-window",
        "10^6",
        "--memory-limit",
        "4M",
    ]);
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    assert!(err.contains("--period-window"), "{err}");
}

/// Without `--values-width` a run goes on at two bytes from its first value
/// above 255 (0.034's, at heap 26376), and its report is the full table's;
/// `--values-width 1` stops there, naming the flag.
#[test]
fn a_windowed_run_widens_its_values_by_itself() {
    let args = ["analyze", "0.034", "--to", "30000", "--format", "json"];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let full: serde_json::Value = serde_json::from_str(&out).unwrap();
    let (code, out, err) = run(&[&args[..], &["--window"]].concat());
    assert_eq!(code, 0, "{err}");
    let windowed: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(windowed["record"]["width"], 2);
    for key in ["histogram", "max_value", "max_value_at", "p_position_count"] {
        assert_eq!(windowed[key], full[key], "{key}");
    }
    let (code, _, err) = run(&[&args[..], &["--window", "--values-width", "1"]].concat());
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    assert!(
        err.contains("g(26376) = 256") && err.contains("--values-width"),
        "{err}"
    );
}

#[test]
fn a_run_killed_again_and_again_resumes_to_the_uninterrupted_stream() {
    let scratch = Scratch::new("kill");
    let (values, checkpoint) = (scratch.join("g.values"), scratch.join("g.ckpt"));
    let args = |resume: bool| {
        let mut args = vec![
            "analyze".to_owned(),
            "4!.0".into(),
            "--to".into(),
            "2000000".into(),
            "--format".into(),
            "json".into(),
            "--values-out".into(),
            path(&values).into(),
            "--checkpoint-every".into(),
            "0.05".into(),
        ];
        args.extend([
            if resume { "--resume" } else { "--checkpoint" }.into(),
            path(&checkpoint).into(),
        ]);
        args
    };
    let plain = scratch.join("plain.values");
    let whole = grundy()
        .args([
            "analyze",
            "4!.0",
            "--to",
            "2000000",
            "--format",
            "json",
            "--values-out",
            path(&plain),
        ])
        .output()
        .unwrap();
    assert!(whole.status.success());
    let expected = root(&String::from_utf8(whole.stdout).unwrap());
    // Each run is killed just after it saves a checkpoint (a little later
    // each time), however fast the engine is: the kill needs progress, not
    // a guess at how long the run takes.
    let saved = || {
        std::fs::metadata(&checkpoint)
            .and_then(|m| m.modified())
            .ok()
    };
    let mut kills = 0;
    for attempt in 0..6 {
        let before = saved();
        let mut child = grundy().args(args(checkpoint.exists())).spawn().unwrap();
        let give_up = std::time::Instant::now() + Duration::from_secs(60);
        while child.try_wait().unwrap().is_none()
            && saved() == before
            && std::time::Instant::now() < give_up
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        std::thread::sleep(Duration::from_millis(5 * attempt));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap(); // SIGKILL
            kills += 1;
        }
        child.wait().unwrap();
    }
    assert!(
        kills >= 3,
        "the run finished before it was killed three times"
    );
    let last = grundy().args(args(checkpoint.exists())).output().unwrap();
    assert!(
        last.status.success(),
        "{}",
        String::from_utf8_lossy(&last.stderr)
    );
    assert_eq!(root(&String::from_utf8(last.stdout).unwrap()), expected);
    let (code, out, err) = run(&[
        "stream",
        "verify",
        path(&values),
        "--chunks",
        "0..1",
        "--recompute",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&expected), "{out}");
}

/// Issue 53: a windowed run writes the certificate of its proven period,
/// which `grundy check` accepts, and which is the full table's.
#[test]
fn a_windowed_run_writes_a_certificate_that_checks() {
    let scratch = Scratch::new("certificate");
    let (windowed, full) = (scratch.join("w.json"), scratch.join("f.json"));
    for (file, window) in [(&windowed, true), (&full, false)] {
        let mut args = vec!["analyze", "0.156", "--certificate", path(file)];
        if window {
            args.push("--window");
        }
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{err}");
    }
    let read = |p: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    assert_eq!(read(&windowed), read(&full));
    let (code, out, err) = run(&["check", path(&windowed)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("valid: 0.156 is periodic from heap 3479 with minimal period 349"),
        "{out}"
    );
    // Not proven: no certificate, one line.
    let (code, _, err) = run(&[
        "analyze",
        "4!.0",
        "--to",
        "1000",
        "--window",
        "--certificate",
        path(&windowed),
    ]);
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    assert!(err.contains("not proven"), "{err}");
}

/// `--log-every` lines: every stage's heaps within its own total (a check
/// reads the stream back to the heaps computed, not to `--max`), and an ETA
/// only once the stage has a rate.
#[test]
fn progress_lines_measure_each_stage_against_its_own_end() {
    let (code, out, err) = run(&[
        "analyze",
        "0.16",
        "--max",
        "2^20",
        "--window",
        "--log-every",
        "0.000001",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let computed = report["computed_to"].as_u64().unwrap() + 1;
    let lines: Vec<serde_json::Value> = err
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let stage = |line: &serde_json::Value| line["stage"].as_str().unwrap().to_owned();
    assert!(lines.iter().any(|l| stage(l) == "compute"), "{err}");
    assert!(lines.iter().any(|l| stage(l) == "check"), "{err}");
    for line in &lines {
        let (heaps, total) = (
            line["heaps"].as_u64().unwrap(),
            line["total"].as_u64().unwrap(),
        );
        assert!(heaps <= total, "{line}");
        match stage(line).as_str() {
            "check" => assert!(total <= computed, "{line}"),
            _ => assert_eq!(total, (1 << 20) + 1, "{line}"),
        }
        let eta = &line["eta_seconds"];
        assert!(
            eta.is_null() || eta.as_f64().is_some_and(|s| (0.0..1e6).contains(&s)),
            "{line}"
        );
    }
}

/// `--table` keeps the full table (no `record` in the answer), and cannot
/// be asked together with a windowed run.
#[test]
fn table_keeps_the_table_and_refuses_a_window_beside_it() {
    let (code, out, err) = run(&[
        "analyze", "0.1777", "--max", "2^12", "--table", "--format", "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(answer["record"].is_null(), "{out}");
    for windowed in [&["--window"][..], &["--values-out", "g.values"]] {
        let mut args = vec!["analyze", "0.1777", "--max", "2^12", "--table"];
        args.extend_from_slice(windowed);
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("'--table' cannot be used with"), "{err}");
    }
}

/// A windowed run without `--values-out` streams to a scratch file in
/// `TMPDIR` and removes it when it ends; one killed outright cannot, and
/// the next such run removes what it left — but never a living run's.
#[test]
fn a_killed_runs_scratch_stream_is_removed_by_the_next_run() {
    /// The long run, killed if the test ends before it is.
    struct Running(std::process::Child);
    impl Drop for Running {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let tmp = Scratch::new("tmpdir");
    let leftovers = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&*tmp)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let short_run = || {
        let out = grundy()
            .args(["analyze", "0.161", "--to", "2^12", "--window"])
            .env("TMPDIR", &*tmp)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    // A game whose values fit one byte (no widened stream beside it), far
    // enough to run minutes.
    let mut long = Running(
        grundy()
            .args([
                "analyze", "0.161", "--to", "2^30", "--window", "--format", "json",
            ])
            .env("TMPDIR", &*tmp)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let stream = format!("grundy-{}-1073741824.values", long.0.id());
    let give_up = std::time::Instant::now() + Duration::from_secs(60);
    while !leftovers().contains(&stream) && std::time::Instant::now() < give_up {
        assert!(long.0.try_wait().unwrap().is_none(), "the long run ended");
        std::thread::sleep(Duration::from_millis(2));
    }
    let living = leftovers();
    assert_eq!(living, [stream.clone(), format!("{stream}.lock")]);
    short_run();
    assert!(long.0.try_wait().unwrap().is_none(), "the long run ended");
    assert_eq!(leftovers(), living, "a living run's stream stays");
    long.0.kill().unwrap(); // SIGKILL
    long.0.wait().unwrap();
    assert_eq!(leftovers(), living, "a killed run cannot remove its own");
    short_run();
    assert_eq!(leftovers(), Vec::<String>::new());
}
