//! Ctrl-C on the real binary: SIGINT cancels the running computation
//! through the token every command runs under, the command stops with one
//! line and exit code 130, and a checkpointing run keeps its finished heaps.

#![cfg(unix)]

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The hang guard: a run that takes it fails the test.
const LIMIT: Duration = Duration::from_secs(60);

fn spawn(args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn sigint(child: &Child) {
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// Waits for `child` (killing it past [`LIMIT`]); its exit code and stderr.
fn finish(mut child: Child) -> (Option<i32>, String) {
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (status.and_then(|s| s.code()), stderr)
}

/// Runs that would take minutes stop at once on SIGINT, through the token:
/// the line is exactly `interrupted` (the fallback that ends a process
/// whose work does not stop within a few seconds says so). `compare`
/// analyses its first game on a thread of its own, which the token must
/// reach too.
#[test]
fn ctrl_c_cancels_the_computation_with_one_line_and_exit_code_130() {
    for args in [
        &["values", "0.{62}", "--to", "20000"][..],
        &["compare", "8.0", "kayles", "--time-limit", "600"],
        &["analyze", "4.{2+}", "--to", "100000"],
    ] {
        let child = spawn(args);
        // Long enough for the handler to be installed (it is, before any
        // work); the runs take minutes.
        std::thread::sleep(Duration::from_millis(500));
        sigint(&child);
        let (code, stderr) = finish(child);
        assert_eq!(code, Some(130), "{args:?}: {stderr:?}");
        assert_eq!(stderr, "interrupted\n", "{args:?}");
    }
}

/// A temporary directory, removed when dropped.
struct Scratch(std::path::PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn wait_for(path: &Path) {
    let deadline = Instant::now() + LIMIT;
    while !path.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(path.exists(), "no checkpoint at {}", path.display());
}

/// Ctrl-C on a checkpointing run saves the heaps finished so far and says
/// where; resuming from that file gives the same table as a direct run.
#[test]
fn ctrl_c_keeps_a_checkpointing_run_s_finished_heaps() {
    let dir = Scratch(std::env::temp_dir().join(format!("grundy-sigint-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let path = dir.0.join("run.ckpt");
    let path_text = path.to_str().unwrap();
    let child = spawn(&[
        "values",
        "0.354",
        "--to",
        "1e9",
        "--memory-limit",
        "8G",
        "--checkpoint",
        path_text,
    ]);
    // The first chunk is saved before the run goes on.
    wait_for(&path);
    sigint(&child);
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(130), "{stderr:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    assert!(
        stderr.starts_with("interrupted; the finished heaps are saved to"),
        "{stderr:?}"
    );
    assert!(
        stderr.contains(&format!("--resume {path_text}")),
        "{stderr:?}"
    );
    let run = |args: &[&str]| {
        let output = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "{args:?}");
        output.stdout
    };
    let direct = run(&["values", "0.354", "--to", "300000", "--format", "csv"]);
    let resumed = run(&[
        "values", "0.354", "--to", "300000", "--format", "csv", "--resume", path_text,
    ]);
    assert!(resumed == direct, "the resumed table differs");
}
