//! Scratch files: what a run writes for itself and removes when it ends.
//!
//! A plain `grundy analyze` of a large take-and-break table streams its
//! values to a scratch file in the temporary folder (`TMPDIR`) instead of
//! keeping a table (see `session::analyze`): gigabytes for a record run.
//! A run that ends, fails or is stopped with Ctrl-C removes its own; one
//! killed outright (`kill -9`, the kernel's out-of-memory killer) cannot.
//! Scratch streams are therefore named after the process that writes them,
//! and a run that starts one first removes those of processes that no
//! longer exist, so that a killed run's leftovers neither fill the disk nor
//! turn later runs' plans back to tables for want of room.

use std::path::{Path, PathBuf};

/// The name every scratch value stream starts with, before its process's
/// id and a `-`.
const STREAM_PREFIX: &str = "grundy-";

/// A file removed when dropped.
#[derive(Debug)]
pub(crate) struct ScratchFile(PathBuf);

impl ScratchFile {
    /// Takes charge of `path`: it is removed when this is dropped.
    pub(crate) fn new(path: PathBuf) -> ScratchFile {
        ScratchFile(path)
    }

    /// A scratch value stream for a run to heap `to` in `dir`, named
    /// after this process; the streams of processes that no longer exist
    /// are removed first (and every file beside them that a run derives
    /// from its stream's name: a widened stream, a step's checkpoint).
    pub(crate) fn stream(dir: &Path, to: u64) -> ScratchFile {
        remove_stale_streams(dir);
        ScratchFile(dir.join(format!("{STREAM_PREFIX}{}-{to}.values", std::process::id())))
    }

    /// Where the file is.
    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Removes the files in `dir` named as scratch streams (`grundy-PID-…`)
/// whose process `PID` no longer exists. Best effort: a folder or file
/// that cannot be read or removed is left as it is.
fn remove_stale_streams(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(stream_owner) else {
            continue;
        };
        if pid != std::process::id()
            && !process_exists(pid)
            && entry.file_type().is_ok_and(|t| t.is_file())
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The process a scratch stream's file name names: `grundy-PID-TO.values`
/// and the names derived from it (`….values.wide`, `….values.window`, …).
fn stream_owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(STREAM_PREFIX)?;
    let (pid, rest) = rest.split_once('-')?;
    let (to, _) = rest.split_once(".values")?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(to)).then(|| pid.parse().ok())?
}

/// Whether a process with this id exists (`kill(pid, 0)`, which sends
/// nothing: it fails with `ESRCH` only when there is no such process; a
/// process of another user answers `EPERM` and counts as existing).
#[cfg(unix)]
fn process_exists(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    if pid <= 0 {
        return true;
    }
    // SAFETY: signal 0 only checks that the process could be signalled.
    #[allow(unsafe_code)]
    let sent = unsafe { libc::kill(pid, 0) };
    sent == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Elsewhere every process counts as existing: nothing is removed.
#[cfg(not(unix))]
fn process_exists(_pid: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::{ScratchFile, process_exists, stream_owner};

    #[test]
    fn scratch_stream_names_give_their_process() {
        assert_eq!(stream_owner("grundy-4242-536870912.values"), Some(4242));
        assert_eq!(stream_owner("grundy-4242-99.values.wide"), Some(4242));
        assert_eq!(stream_owner("grundy-4242-99.values.window"), Some(4242));
        for other in [
            "grundy-doc-run-12.values",
            "grundy-4242.values",
            "grundy--99.values",
            "grundy-4242-.values",
            "grundy-census-run-4242",
            "grundy-ckpt-4242-x",
            "grundy-4242-99.json",
            "notes.txt",
        ] {
            assert_eq!(stream_owner(other), None, "{other}");
        }
    }

    /// The streams of a process that has exited go; this process's own,
    /// a living process's and every other file stay.
    #[cfg(unix)]
    #[test]
    fn a_new_scratch_stream_removes_those_of_processes_gone() {
        let dir = std::env::temp_dir().join(format!("grundy-scratch-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        assert!(!process_exists(gone), "a reaped child no longer exists");
        let living = 1; // init, which never exits
        let ours = std::process::id();
        let files = [
            (format!("grundy-{gone}-1000.values"), false),
            (format!("grundy-{gone}-1000.values.wide"), false),
            (format!("grundy-{gone}-1000.values.window"), false),
            (format!("grundy-{living}-1000.values"), true),
            (format!("grundy-{ours}-7.values"), true),
            (format!("grundy-{gone}-notes.txt"), true),
            ("kept.values".to_owned(), true),
        ];
        for (name, _) in &files {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        let stream = ScratchFile::stream(&dir, 1000);
        for (name, kept) in &files {
            assert_eq!(dir.join(name).exists(), *kept, "{name}");
        }
        assert_eq!(
            stream.path(),
            dir.join(format!("grundy-{ours}-1000.values")),
            "named after this process"
        );
        std::fs::write(stream.path(), b"x").unwrap();
        let path = stream.path().to_owned();
        drop(stream);
        assert!(!path.exists(), "removed when dropped");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
