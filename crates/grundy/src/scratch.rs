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

use std::ffi::OsString;
use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

/// How many names a run tries for its scratch file (`…PID…`, `…PID.1…`,
/// …) when one is taken: by a run of another PID namespace sharing the
/// folder, or one whose leftovers could not be removed.
const NAMES_TRIED: u32 = 64;

/// A file removed when dropped, with every file named after it (`FILE.…`:
/// a widened rewrite, a checkpoint) and the lock that marks it in use if it
/// has one, removed last.
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
    /// `grundy-ID-TO.values` (`ID` this process's id, or `PID.N` when that
    /// name is taken); the scratch streams no run holds any more are
    /// removed first, with every file a run derives from a stream's name
    /// (its widened rewrite, its steps' checkpoint).
    pub(crate) fn stream(dir: &Path, to: u64) -> ScratchFile {
        let owned = |rest: &str| {
            rest.strip_suffix(".values")
                .and_then(|rest| rest.rsplit_once('-'))
                .is_some_and(|(id, to)| is_id(id) && digits(to))
        };
        claim(dir, "grundy-", &format!("-{to}.values"), owned)
    }

    /// A scratch file beside `file`, `FILE.WHAT-ID`; those beside it of
    /// runs gone are removed first.
    pub(crate) fn beside(file: &Path, what: &str) -> ScratchFile {
        let Some(name) = file.file_name().and_then(|name| name.to_str()) else {
            // No name to find others by (`..`, or not UTF-8): this run's
            // own, unlocked, as the file's path goes.
            let mut path = file.as_os_str().to_owned();
            path.push(format!(".{what}-{}", std::process::id()));
            return ScratchFile::new(PathBuf::from(path));
        };
        claim(folder_of(file), &format!("{name}.{what}-"), "", is_id)
    }

    /// Where the file is.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        remove_with_derived(&self.path);
        if let Some((path, _held)) = self.lock.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The folder `path` lies in: its parent, or `.` for a bare name.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// A run's id in a scratch file's name: `PID` or `PID.N`.
fn is_id(s: &str) -> bool {
    match s.split_once('.') {
        Some((pid, n)) => digits(pid) && digits(n),
        None => digits(s),
    }
}

/// The scratch file `{prefix}ID{rest}` in `dir` of this process, its lock
/// file made and locked before it exists, after removing the abandoned
/// ones of its kind: those named `{prefix}{x}` with `owned(x)` whose lock
/// can be taken.
fn claim(dir: &Path, prefix: &str, rest: &str, owned: impl Fn(&str) -> bool) -> ScratchFile {
    remove_abandoned(dir, prefix, owned);
    let pid = std::process::id();
    let path = |id: &str| dir.join(format!("{prefix}{id}{rest}"));
    for n in 0..NAMES_TRIED {
        let id = match n {
            0 => pid.to_string(),
            n => format!("{pid}.{n}"),
        };
        let (path, lock_path) = (path(&id), lock_of(&path(&id)));
        // A name whose lock file exists is another run's (or one left that
        // could not be removed): the next name.
        let Ok(file) = File::options()
            .write(true)
            .create_new(true)
            .open(&lock_path)
        else {
            continue;
        };
        match file.try_lock() {
            Ok(()) if is_at(&file, &lock_path) => {
                return ScratchFile {
                    path,
                    lock: Some((lock_path, file)),
                };
            }
            // Taken by a cleaner between its making and its locking (and
            // removed, or about to be): the next name.
            Ok(()) | Err(TryLockError::WouldBlock) => continue,
            // A file system without locks: no lock file, and so no
            // removal by a later run if this one is killed.
            Err(TryLockError::Error(_)) => {
                drop(file);
                let _ = std::fs::remove_file(&lock_path);
                return ScratchFile::new(path);
            }
        }
    }
    // Every name taken: this process's own, unlocked.
    ScratchFile::new(path(&pid.to_string()))
}

/// Whether `path` still names the open `file` (not a file made since in
/// its place). Where the platform cannot say, it is taken to.
fn is_at(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::symlink_metadata(path)) {
            (Ok(open), Ok(named)) => (open.dev(), open.ino()) == (named.dev(), named.ino()),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// The lock file of a scratch file.
fn lock_of(scratch: &Path) -> PathBuf {
    let mut name = scratch.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Removes `path` and the files named after it (`path.…`), the lock file
/// aside (its holder removes it last).
fn remove_with_derived(path: &Path) {
    let _ = std::fs::remove_file(path);
    let Some(name) = path.file_name() else {
        return;
    };
    let mut dotted: OsString = name.to_owned();
    dotted.push(".");
    let lock = lock_of(path);
    let Ok(entries) = std::fs::read_dir(folder_of(path)) else {
        return;
    };
    for entry in entries.flatten() {
        let other = entry.file_name();
        let derived = other
            .as_encoded_bytes()
            .starts_with(dotted.as_encoded_bytes());
        if derived && Some(other.as_os_str()) != lock.file_name() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// See [`claim`]: for each abandoned scratch file, the files named after
/// it go first and its lock file last, still locked, and only while the
/// lock file's name still names the file locked. Best effort: what cannot
/// be read, locked or removed is left as it is, and a lock that cannot be
/// taken for any reason but another holder (a file system without locks)
/// counts as held.
fn remove_abandoned(dir: &Path, prefix: &str, owned: impl Fn(&str) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let locks: Vec<String> = entries
        .flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| {
            name.strip_prefix(prefix)
                .and_then(|rest| rest.strip_suffix(".lock"))
                .is_some_and(&owned)
        })
        .collect();
    for lock in locks {
        let lock_path = dir.join(&lock);
        let Ok(file) = File::options().write(true).open(&lock_path) else {
            continue;
        };
        if !(file.try_lock().is_ok() && is_at(&file, &lock_path)) {
            continue;
        }
        let scratch = lock.strip_suffix(".lock").unwrap_or(&lock);
        remove_with_derived(&dir.join(scratch));
        let _ = std::fs::remove_file(&lock_path);
    }
}

#[cfg(test)]
mod tests {
    use super::ScratchFile;
    use std::fs::File;
    use std::path::Path;

    /// Makes `files` in a fresh folder, holds the lock of `held` as a
    /// living run would, runs `claim` there, checks which files stay, and
    /// returns the claimed file with the folder and the held lock.
    fn claimed(
        name: &str,
        files: &[(&str, bool)],
        held: &str,
        claim: impl FnOnce(&Path) -> ScratchFile,
    ) -> (ScratchFile, std::path::PathBuf, File) {
        let dir = std::env::temp_dir().join(format!("grundy-{name}-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, _) in files {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        let living = File::options().write(true).open(dir.join(held)).unwrap();
        living.try_lock().unwrap();
        let scratch = claim(&dir);
        for &(name, kept) in files {
            assert_eq!(dir.join(name).exists(), kept, "{name}");
        }
        (scratch, dir, living)
    }

    /// The streams of runs that hold no lock any more go, with the files
    /// named after them; a stream whose lock is held (a living run, here
    /// this test's own open file, its id the dead one's with a digit
    /// more), one without a lock file, and other files stay; the new
    /// stream holds its lock until dropped, and then goes with what it
    /// wrote beside it. (Process ids above any a system gives.)
    #[test]
    fn a_new_scratch_stream_removes_those_no_run_holds() {
        let files = [
            ("grundy-4294967291-1000.values", false),
            ("grundy-4294967291-1000.values.wide", false),
            ("grundy-4294967291-1000.values.window", false),
            ("grundy-4294967291-1000.values.window.part", false),
            ("grundy-4294967291-1000.values.lock", false),
            ("grundy-4294967291.3-1000.values", false),
            ("grundy-4294967291.3-1000.values.lock", false),
            ("grundy-4294967291-10000.values", true),
            ("grundy-4294967291-10000.values.lock", true),
            ("grundy-4294967292-1000.values", true),
            ("grundy-4294967291-1000.json", true),
            ("grundy-doc-run-12.values.lock", true),
            ("grundy-4294967293.values.lock", true),
            ("kept.values.lock", true),
        ];
        let (stream, dir, living) = claimed(
            "scratch",
            &files,
            "grundy-4294967291-10000.values.lock",
            |dir| ScratchFile::stream(dir, 1000),
        );
        let ours = format!("grundy-{}-1000.values", std::process::id());
        assert_eq!(stream.path(), dir.join(&ours), "named after this process");
        let lock = dir.join(format!("{ours}.lock"));
        let held = File::options().write(true).open(&lock).unwrap();
        assert!(held.try_lock().is_err(), "its lock is held");
        drop(held);
        // A name taken (its lock file there): the next one.
        let second = ScratchFile::stream(&dir, 1000);
        let next = format!("grundy-{}.1-1000.values", std::process::id());
        assert_eq!(second.path(), dir.join(&next));
        drop(second);
        for written in ["", ".wide", ".window"] {
            std::fs::write(dir.join(format!("{ours}{written}")), b"x").unwrap();
        }
        drop(stream);
        for gone in [&ours, &next] {
            for suffix in ["", ".lock", ".wide", ".window"] {
                let name = format!("{gone}{suffix}");
                assert!(!dir.join(&name).exists(), "{name} removed when dropped");
            }
        }
        drop(living);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Scratch files beside a file: those of runs gone go, a living run's
    /// (its id the dead one's with a digit more) and the file itself stay.
    #[test]
    fn a_scratch_file_beside_a_file_removes_those_no_run_holds() {
        let files = [
            ("g.values", true),
            ("g.values.verify-4294967291", false),
            ("g.values.verify-4294967291.lock", false),
            ("g.values.verify-42949672910", true),
            ("g.values.verify-42949672910.lock", true),
            ("h.values.verify-4294967291.lock", true),
        ];
        let (scratch, dir, living) = claimed(
            "beside",
            &files,
            "g.values.verify-42949672910.lock",
            |dir| ScratchFile::beside(&dir.join("g.values"), "verify"),
        );
        let ours = format!("g.values.verify-{}", std::process::id());
        assert_eq!(scratch.path(), dir.join(&ours));
        drop(scratch);
        assert!(!dir.join(format!("{ours}.lock")).exists());
        drop(living);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
