//! Where a file written in a folder would be kept: asked before an
//! analysis streams its values to a scratch file instead of keeping a
//! table (see `session::analyze`).
//!
//! A windowed run bounds its memory by writing every value to disk; when
//! the folder is a file system kept in memory (tmpfs, ramfs: `/tmp` on
//! many Linux systems), the stream's pages take the memory the table
//! would have, and a disk without room for it ends the run midway.

use std::path::Path;

/// Where a folder's files are kept.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// On a disk with this many bytes free to the user.
    Disk {
        /// The bytes free.
        free: u64,
    },
    /// In memory: a file's pages count against the machine's memory.
    Memory,
    /// The platform does not say (taken as a disk with room).
    #[cfg_attr(target_os = "linux", allow(dead_code))]
    Unknown,
    /// Nothing can be written there: the folder does not exist, is out of
    /// reach, is not writable to this user, or lies on a file system
    /// mounted read-only.
    Unreachable,
}

impl Storage {
    /// Whether `bytes` more bytes of files here take disk, not memory.
    pub fn holds_on_disk(self, bytes: u64) -> bool {
        match self {
            Storage::Disk { free } => free >= bytes,
            Storage::Unknown => true,
            Storage::Memory | Storage::Unreachable => false,
        }
    }
}

/// Where files written in `dir` are kept.
pub fn storage_of(dir: &Path) -> Storage {
    #[cfg(target_os = "linux")]
    {
        match linux::statfs(dir) {
            Some(facts) if linux::writable(dir) => linux::storage(facts),
            _ => Storage::Unreachable,
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        Storage::Unknown
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use super::Storage;
    use std::path::Path;

    /// `f_type` of the file systems kept in memory (statfs(2)): tmpfs and
    /// ramfs.
    const IN_MEMORY: [u64; 2] = [0x0102_1994, 0x8584_58f6];

    /// What statfs(2) says of a file system: its type, and the bytes free
    /// to an unprivileged user.
    pub(super) struct Facts {
        pub(super) kind: u64,
        pub(super) free: u64,
    }

    fn c_path(dir: &Path) -> Option<std::ffi::CString> {
        use std::os::unix::ffi::OsStrExt;
        std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()
    }

    /// Whether `dir` is a folder this process may create files in
    /// (faccessat(2) with the effective ids, which also fails on a
    /// read-only file system, even for root).
    pub(super) fn writable(dir: &Path) -> bool {
        let Some(path) = c_path(dir).filter(|_| dir.is_dir()) else {
            return false;
        };
        // SAFETY: `path` is a NUL-terminated string.
        #[allow(unsafe_code)]
        let allowed = unsafe {
            libc::faccessat(
                libc::AT_FDCWD,
                path.as_ptr(),
                libc::W_OK | libc::X_OK,
                libc::AT_EACCESS,
            )
        };
        allowed == 0
    }

    pub(super) fn statfs(dir: &Path) -> Option<Facts> {
        let path = c_path(dir)?;
        let mut facts = std::mem::MaybeUninit::<libc::statfs>::uninit();
        // SAFETY: `path` is a NUL-terminated string and `facts` room for
        // the struct statfs fills; it is read only when statfs succeeds.
        #[allow(unsafe_code)]
        let facts = unsafe {
            if libc::statfs(path.as_ptr(), facts.as_mut_ptr()) != 0 {
                return None;
            }
            facts.assume_init()
        };
        // The field types differ between targets (`c_long`, `c_uint`):
        // the magic numbers are 32 bits.
        #[allow(clippy::unnecessary_cast)]
        let kind = facts.f_type as u64 & 0xffff_ffff;
        #[allow(clippy::unnecessary_cast)]
        let free = (facts.f_bavail as u64).saturating_mul(facts.f_bsize as u64);
        Some(Facts { kind, free })
    }

    pub(super) fn storage(facts: Facts) -> Storage {
        match IN_MEMORY.contains(&facts.kind) {
            true => Storage::Memory,
            false => Storage::Disk { free: facts.free },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disk_holds_what_fits_its_free_bytes_and_memory_nothing() {
        let disk = Storage::Disk { free: 1000 };
        assert!(disk.holds_on_disk(1000));
        assert!(!disk.holds_on_disk(1001));
        assert!(!Storage::Memory.holds_on_disk(0));
        assert!(!Storage::Unreachable.holds_on_disk(0));
        assert!(Storage::Unknown.holds_on_disk(u64::MAX));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn tmpfs_is_memory_a_disk_its_free_bytes_and_a_read_only_folder_nowhere() {
        use linux::{Facts, storage};
        let facts = |kind, free| Facts { kind, free };
        assert_eq!(storage(facts(0x0102_1994, 1 << 30)), Storage::Memory);
        assert_eq!(storage(facts(0x8584_58f6, 0)), Storage::Memory);
        let ext4 = facts(0xef53, 5 << 30);
        assert_eq!(storage(ext4), Storage::Disk { free: 5 << 30 });
        // Every tmpfs the machine mounts is memory (where it can be asked
        // about); a folder that does not exist is out of reach.
        let mounts = std::fs::read_to_string("/proc/mounts").unwrap_or_default();
        let tmpfs = mounts.lines().filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            (fields.get(2) == Some(&"tmpfs")).then(|| fields[1].to_owned())
        });
        for dir in tmpfs.filter(|dir| !dir.contains('\\')) {
            let found = storage_of(Path::new(&dir));
            assert!(!matches!(found, Storage::Disk { .. }), "{dir}");
        }
        let missing = storage_of(Path::new("/no/such/folder/here"));
        assert_eq!(missing, Storage::Unreachable);
        // Nor can anything be written on a file system mounted read-only
        // (sysfs, in most containers) where that mount is what the path
        // shows: no later mount on it or on a folder above it.
        let mounted: Vec<(&str, bool)> = mounts
            .lines()
            .filter_map(|line| {
                let fields: Vec<&str> = line.split_whitespace().collect();
                let read_only = fields.get(3)?.split(',').any(|o| o == "ro");
                Some((*fields.get(1)?, read_only))
            })
            .collect();
        let above = |later: &str, dir: &str| {
            later == "/" || dir == later || dir.starts_with(&format!("{later}/"))
        };
        for (i, &(dir, read_only)) in mounted.iter().enumerate() {
            let shown = !mounted[i + 1..].iter().any(|&(later, _)| above(later, dir));
            if read_only && shown && !dir.contains('\\') {
                assert_eq!(storage_of(Path::new(dir)), Storage::Unreachable, "{dir}");
            }
        }
        let file = storage_of(Path::new("/proc/self/status"));
        assert_eq!(file, Storage::Unreachable);
    }
}
