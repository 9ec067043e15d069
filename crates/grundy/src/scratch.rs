//! Scratch files: what a run writes for itself and removes when it ends.
//!
//! A plain `grundy analyze` of a large take-and-break table streams its
//! values to a scratch file in the temporary folder (`TMPDIR`) instead of
//! keeping a table (see `session::analyze`): gigabytes for a record run.
//! A run that ends, fails or is stopped with Ctrl-C removes its own; one
//! killed outright (`kill -9`, the kernel's out-of-memory killer) cannot.
//! So a scratch stream comes with a lock file its run holds locked while it
//! lives (`File::try_lock`: flock(2) on Unix, which the kernel releases
//! when the process dies), taken before the stream exists, and a run that
//! starts a scratch stream first removes every scratch stream whose lock
//! it can take: a killed run's leftovers neither fill the disk nor turn
//! later runs' plans back to tables for want of room, and a living run's
//! stream is never touched, whichever process (or container) looks.

use std::fs::File;
use std::path::{Path, PathBuf};

/// A file removed when dropped, with the lock that marks it in use if it
/// has one.
#[derive(Debug)]
pub(crate) struct ScratchFile {
    path: PathBuf,
    /// The lock file, held locked until this is dropped.
    lock: Option<(PathBuf, File)>,
}

impl ScratchFile {
    /// Takes charge of `path`: it is removed when this is dropped.
    pub(crate) fn new(path: PathBuf) -> ScratchFile {
        ScratchFile { path, lock: None }
    }

    /// A scratch value stream for a run to heap `to` in `dir`, named
    /// after this process (`grundy-PID-TO.values`) and marked in use by its
    /// lock file; the scratch streams no run holds any more are removed
    /// first, with every file a run derives from a stream's name (its
    /// widened rewrite, its steps' checkpoint).
    pub(crate) fn stream(dir: &Path, to: u64) -> ScratchFile {
        remove_abandoned_streams(dir);
        let path = dir.join(format!("grundy-{}-{to}.values", std::process::id()));
        let lock_path = lock_of(&path);
        // Without the lock (a folder that cannot be written) the run fails
        // when it creates its stream there anyway.
        let lock = File::create(&lock_path)
            .ok()
            .filter(|file| file.try_lock().is_ok())
            .map(|file| (lock_path, file));
        ScratchFile { path, lock }
    }

    /// Where the file is.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        if let Some((path, _held)) = self.lock.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The lock file of a scratch stream.
fn lock_of(stream: &Path) -> PathBuf {
    let mut name = stream.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Removes from `dir` every scratch stream whose lock file can be locked
/// (no living run holds it), with the files named after it. Best effort:
/// what cannot be read, locked or removed is left as it is.
fn remove_abandoned_streams(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let names: Vec<String> = entries
        .flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.starts_with("grundy-"))
        .collect();
    for lock in names.iter().filter(|name| is_stream_lock(name)) {
        let Ok(file) = File::options().write(true).open(dir.join(lock)) else {
            continue;
        };
        if file.try_lock().is_err() {
            continue; // a living run's
        }
        let stream = lock.trim_end_matches(".lock");
        for name in names.iter().filter(|name| name.starts_with(stream)) {
            let _ = std::fs::remove_file(dir.join(name));
        }
    }
}

/// Whether `name` is a scratch stream's lock file, `grundy-PID-TO.values.lock`.
fn is_stream_lock(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    name.strip_prefix("grundy-")
        .and_then(|rest| rest.strip_suffix(".values.lock"))
        .and_then(|rest| rest.split_once('-'))
        .is_some_and(|(pid, to)| digits(pid) && digits(to))
}

#[cfg(test)]
mod tests {
    use super::{ScratchFile, is_stream_lock};
    use std::fs::File;

    #[test]
    fn lock_files_of_scratch_streams_are_told_apart() {
        assert!(is_stream_lock("grundy-4242-536870912.values.lock"));
        for other in [
            "grundy-4242-536870912.values",
            "grundy-4242-99.values.wide",
            "grundy-doc-run-12.values.lock",
            "grundy--99.values.lock",
            "grundy-4242-.values.lock",
            "grundy-census-run-4242",
            "notes.lock",
        ] {
            assert!(!is_stream_lock(other), "{other}");
        }
    }

    /// The streams of runs that hold no lock any more go, with the files
    /// named after them; a stream whose lock is held (a living run, here
    /// this test's own open file), one without a lock file, and other
    /// files stay; the new stream holds its lock until dropped.
    #[test]
    fn a_new_scratch_stream_removes_those_no_run_holds() {
        let dir = std::env::temp_dir().join(format!("grundy-scratch-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let files = [
            ("grundy-11-1000.values", false),
            ("grundy-11-1000.values.wide", false),
            ("grundy-11-1000.values.window", false),
            ("grundy-11-1000.values.lock", false),
            ("grundy-12-1000.values", true),
            ("grundy-12-1000.values.lock", true),
            ("grundy-13-1000.values", true),
            ("grundy-11-1000.json", true),
            ("kept.values.lock", true),
        ];
        for (name, _) in files {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        let living = File::options()
            .write(true)
            .open(dir.join("grundy-12-1000.values.lock"))
            .unwrap();
        living.try_lock().unwrap();
        let stream = ScratchFile::stream(&dir, 1000);
        for (name, kept) in files {
            assert_eq!(dir.join(name).exists(), kept, "{name}");
        }
        let ours = format!("grundy-{}-1000.values", std::process::id());
        assert_eq!(stream.path(), dir.join(&ours), "named after this process");
        let lock = dir.join(format!("{ours}.lock"));
        let held = File::options().write(true).open(&lock).unwrap();
        assert!(held.try_lock().is_err(), "its lock is held");
        drop(held);
        std::fs::write(stream.path(), b"x").unwrap();
        drop(stream);
        assert!(
            !dir.join(&ours).exists() && !lock.exists(),
            "removed when dropped"
        );
        drop(living);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
