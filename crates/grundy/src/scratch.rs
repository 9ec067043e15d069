//! Scratch files: what a run writes for itself and removes when it ends.
//!
//! A plain `grundy analyze` of a large take-and-break table streams its
//! values to a scratch file in the temporary folder (`TMPDIR`) instead of
//! keeping a table (see `session::analyze`): gigabytes for a record run;
//! `grundy stream verify --recompute` writes the values it recomputes
//! beside the stream it checks. A run that ends, fails or is stopped with
//! Ctrl-C removes its own; one killed outright (`kill -9`, the kernel's
//! out-of-memory killer) cannot. So such a scratch file comes with a lock
//! file its run holds locked while it lives (`File::try_lock`: flock(2) on
//! Unix, which the kernel releases when the process dies), taken before
//! the scratch file exists, and a run that starts one first removes every
//! scratch file of the same kind whose lock it can take: a killed run's
//! leftovers neither fill the disk nor turn later runs' plans back to
//! tables for want of room, and a living run's file is never touched,
//! whichever process (or container) looks.

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

    /// A scratch value stream for a run to heap `to` in `dir`,
    /// `grundy-PID-TO.values`; the scratch streams no run holds any more
    /// are removed first, with every file a run derives from a stream's
    /// name (its widened rewrite, its steps' checkpoint).
    pub(crate) fn stream(dir: &Path, to: u64) -> ScratchFile {
        let owned = |rest: &str| {
            rest.strip_suffix(".values")
                .and_then(|rest| rest.split_once('-'))
                .is_some_and(|(pid, to)| digits(pid) && digits(to))
        };
        claim(dir, "grundy-", &format!("-{to}.values"), owned)
    }

    /// A scratch file beside `file`, `FILE.WHAT-PID`; those beside it of
    /// runs gone are removed first.
    pub(crate) fn beside(file: &Path, what: &str) -> ScratchFile {
        let dir = match file.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        claim(dir, &format!("{name}.{what}-"), "", digits)
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

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The scratch file `{prefix}PID{rest}` in `dir` of this process, locked,
/// after removing the abandoned ones of its kind: those named
/// `{prefix}{x}` with `owned(x)` whose lock can be taken, with every file
/// named after them.
fn claim(dir: &Path, prefix: &str, rest: &str, owned: impl Fn(&str) -> bool) -> ScratchFile {
    remove_abandoned(dir, prefix, owned);
    let path = dir.join(format!("{prefix}{}{rest}", std::process::id()));
    let lock_path = lock_of(&path);
    // Without the lock (a folder that cannot be written) the run fails
    // when it creates its file there anyway.
    let lock = File::create(&lock_path)
        .ok()
        .filter(|file| file.try_lock().is_ok())
        .map(|file| (lock_path, file));
    ScratchFile { path, lock }
}

/// The lock file of a scratch file.
fn lock_of(scratch: &Path) -> PathBuf {
    let mut name = scratch.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// See [`claim`]. Best effort: what cannot be read, locked or removed is
/// left as it is.
fn remove_abandoned(dir: &Path, prefix: &str, owned: impl Fn(&str) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let names: Vec<String> = entries
        .flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.starts_with(prefix))
        .collect();
    let locks = names.iter().filter(|name| {
        name.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(".lock"))
            .is_some_and(&owned)
    });
    for lock in locks {
        let Ok(file) = File::options().write(true).open(dir.join(lock)) else {
            continue;
        };
        if file.try_lock().is_err() {
            continue; // a living run's
        }
        let scratch = lock.trim_end_matches(".lock");
        for name in names.iter().filter(|name| name.starts_with(scratch)) {
            let _ = std::fs::remove_file(dir.join(name));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ScratchFile;
    use std::fs::File;

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
            ("grundy-doc-run-12.values.lock", true),
            ("grundy-14.values.lock", true),
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

    /// Scratch files beside a file: those of runs gone go, a living run's
    /// and the file itself stay.
    #[test]
    fn a_scratch_file_beside_a_file_removes_those_no_run_holds() {
        let dir = std::env::temp_dir().join(format!("grundy-beside-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let stream = dir.join("g.values");
        let files = [
            ("g.values", true),
            ("g.values.verify-11", false),
            ("g.values.verify-11.lock", false),
            ("g.values.verify-12", true),
            ("g.values.verify-12.lock", true),
            ("h.values.verify-11.lock", true),
        ];
        for (name, _) in files {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        let living = File::options()
            .write(true)
            .open(dir.join("g.values.verify-12.lock"))
            .unwrap();
        living.try_lock().unwrap();
        let scratch = ScratchFile::beside(&stream, "verify");
        for (name, kept) in files {
            assert_eq!(dir.join(name).exists(), kept, "{name}");
        }
        let ours = format!("g.values.verify-{}", std::process::id());
        assert_eq!(scratch.path(), dir.join(&ours));
        drop(scratch);
        assert!(!dir.join(format!("{ours}.lock")).exists());
        drop(living);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
