//! Shared by the command-line tests: scratch directories and the check
//! that bad input is refused the way every command refuses it.

// Each test binary uses the part of this it needs.
#![allow(dead_code)]

/// A fresh directory for one test's files, removed when the test ends
/// (passing or not); it derefs to its path.
pub struct Scratch(std::path::PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("grundy-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;

    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Bad input or a refused budget, as `run` (the binary started with
/// `args`) ended: exit code 2, nothing on stdout, one line on stderr,
/// starting `error: ` and containing every `needle`.
pub fn refused(run: assert_cmd::assert::Assert, args: &[&str], needles: &[&str]) {
    let assert = run.code(2);
    let output = assert.get_output();
    assert!(output.stdout.is_empty(), "{args:?}: no output on stdout");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.lines().count(),
        1,
        "{args:?}: one line, got {stderr:?}"
    );
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{args:?}: {stderr:?} should mention {needle:?}"
        );
    }
}
