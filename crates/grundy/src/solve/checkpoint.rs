//! Checkpoints: a value table saved to disk so that a long run can stop and
//! continue without losing finished work.
//!
//! A checkpoint file (format `grundy-checkpoint/2`) is:
//!
//! 1. one JSON header line,
//!    `{"format":"grundy-checkpoint/2","game":...,"heaps":N,"width":W}` and
//!    its newline, at most [`MAX_HEADER`] bytes;
//! 2. the header's checksum: 8 bytes, little-endian;
//! 3. the values in chunks of [`CHUNK_HEAPS`] heaps (the last one shorter),
//!    each value `W` bytes little-endian (one byte per heap while every
//!    value is below 256), each chunk followed by its checksum, 8 bytes
//!    little-endian.
//!
//! Checksums are 64-bit FNV-1a ([`fnv1a`]); a chunk's covers its index (8
//! bytes, little-endian) and then its bytes, so chunks swapped or repeated
//! are caught as well as flipped bits. A damaged file is refused with
//! [`Error::Checkpoint`] naming what is wrong, before any of its values is
//! used; its sizes are checked against the file's length before anything
//! is allocated, and nothing is read past the length the header promises.
//! Files of the first format, without checksums, are refused.
//!
//! Files are replaced atomically (written beside the target, flushed to
//! disk, then renamed over it), so a run killed at any moment leaves either
//! the previous checkpoint or the new one.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{Error, Nimber, Result, ValueSlice, ValueTable};

/// The `format` of every checkpoint this version writes and reads.
pub const CHECKPOINT_FORMAT: &str = "grundy-checkpoint/2";

/// The format before checksums, refused with a message saying so.
const OLD_FORMAT: &str = "grundy-checkpoint/1";

/// Heaps per checksummed chunk of values.
pub const CHUNK_HEAPS: usize = 1 << 16;

/// The longest header line (newline included) a checkpoint may have.
pub const MAX_HEADER: usize = 64 << 10;

/// Bytes of one checksum.
pub(super) const CHECKSUM: u64 = 8;

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    game: String,
    heaps: u64,
    width: u8,
}

/// A saved table: the game and the values of heaps `0..values.len()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The game's canonical specification.
    pub game: String,
    /// The values finished when the checkpoint was written.
    pub values: ValueTable,
}

/// The 64-bit FNV-1a hash of `bytes`, continuing from `hash` (start from
/// [`FNV_OFFSET`]): for each byte, XOR it in, then multiply by the FNV
/// prime 2^40 + 2^8 + 0xb3 (Fowler, Noll and Vo; the parameters are those
/// published for 64 bits). Not cryptographic: it catches damage, not
/// forgery.
pub(crate) fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash = fnv1a_byte(hash, b);
    }
    hash
}

/// One byte of [`fnv1a`]: XOR, then multiply by the FNV-1a 64 prime.
#[inline(always)]
fn fnv1a_byte(hash: u64, byte: u8) -> u64 {
    (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
}

/// The FNV-1a 64 offset basis: the hash of no bytes.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// The checksum of chunk `index`, whose values are `bytes`.
pub(super) fn chunk_checksum(index: u64, bytes: &[u8]) -> u64 {
    fnv1a(fnv1a(FNV_OFFSET, &index.to_le_bytes()), bytes)
}

/// Chunks whose checksums [`chunk_checksums`] computes side by side.
pub(super) const CHECKED_TOGETHER: usize = 4;

/// [`chunk_checksum`] of the chunks `first..first + CHECKED_TOGETHER`,
/// the same values, computed together: FNV-1a is one chain of dependent
/// multiplies, a byte each, so one chunk's hash waits on the multiply's
/// latency (about 1.1 ns a byte here), while four chains interleaved
/// keep the multiplier busy (0.28 ns a byte), and a record run's period
/// search reads its stream back several times.
pub(super) fn chunk_checksums(
    first: u64,
    chunks: [&[u8]; CHECKED_TOGETHER],
) -> [u64; CHECKED_TOGETHER] {
    let mut hashes: [u64; CHECKED_TOGETHER] =
        std::array::from_fn(|k| fnv1a(FNV_OFFSET, &(first + k as u64).to_le_bytes()));
    let common = chunks.iter().map(|c| c.len()).min().unwrap_or(0);
    let [a, b, c, d] = chunks.map(|chunk| &chunk[..common]);
    for (((&a, &b), &c), &d) in a.iter().zip(b).zip(c).zip(d) {
        for (hash, byte) in hashes.iter_mut().zip([a, b, c, d]) {
            *hash = fnv1a_byte(*hash, byte);
        }
    }
    for (hash, chunk) in hashes.iter_mut().zip(chunks) {
        *hash = fnv1a(*hash, &chunk[common..]);
    }
    hashes
}

/// The length of a file with a header line of `header` bytes and `heaps`
/// values of `width` bytes, or `None` past `u64`.
pub(super) fn file_length(header: u64, heaps: u64, width: u64) -> Option<u64> {
    let chunks = heaps.div_ceil(CHUNK_HEAPS as u64);
    header
        .checked_add(CHECKSUM)?
        .checked_add(heaps.checked_mul(width)?)?
        .checked_add(chunks.checked_mul(CHECKSUM)?)
}

fn failure(path: &Path, reason: impl std::fmt::Display) -> Error {
    Error::Checkpoint {
        path: path.display().to_string(),
        reason: reason.to_string(),
    }
}

impl Checkpoint {
    /// Writes `values` of `game` to `path`, atomically, at the table's
    /// width (the narrowest that holds its values; two bytes for a folded
    /// table's), with checksums.
    pub fn save(path: &Path, game: &str, values: &ValueTable) -> Result<()> {
        let width = match values.as_slice() {
            ValueSlice::Folded(_) => 2,
            _ => values.width(),
        };
        let header = Header {
            format: CHECKPOINT_FORMAT.to_owned(),
            game: game.to_owned(),
            heaps: values.len() as u64,
            width: width as u8,
        };
        let mut line = serde_json::to_vec(&header).map_err(|e| failure(path, e))?;
        line.push(b'\n');
        if line.len() > MAX_HEADER {
            return Err(failure(
                path,
                format!(
                    "the game's name is too long for a checkpoint header of {MAX_HEADER} bytes"
                ),
            ));
        }
        let partial = PathBuf::from(format!("{}.partial", path.display()));
        // Streamed through a buffer, a chunk at a time: saving needs no copy
        // of the table.
        let write = || -> std::io::Result<()> {
            let mut file = BufWriter::new(File::create(&partial)?);
            file.write_all(&line)?;
            file.write_all(&fnv1a(FNV_OFFSET, &line).to_le_bytes())?;
            let mut encoded = Vec::with_capacity(CHUNK_HEAPS * width);
            for (index, first) in (0..values.len()).step_by(CHUNK_HEAPS).enumerate() {
                let end = values.len().min(first + CHUNK_HEAPS);
                let bytes: &[u8] = match values.as_slice() {
                    ValueSlice::U8(all) => &all[first..end],
                    ValueSlice::U16(all) => {
                        encoded.clear();
                        all[first..end]
                            .iter()
                            .for_each(|v| encoded.extend(v.to_le_bytes()));
                        &encoded
                    }
                    ValueSlice::Folded(all) => {
                        encoded.clear();
                        all.cells().stretches(first, end, |_, values| {
                            values.iter().for_each(|v| encoded.extend(v.to_le_bytes()))
                        });
                        &encoded
                    }
                    ValueSlice::U32(all) => {
                        encoded.clear();
                        all[first..end]
                            .iter()
                            .for_each(|v| encoded.extend(v.get().to_le_bytes()));
                        &encoded
                    }
                };
                file.write_all(bytes)?;
                file.write_all(&chunk_checksum(index as u64, bytes).to_le_bytes())?;
            }
            file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            std::fs::rename(&partial, path)
        };
        write().map_err(|e| failure(path, e))
    }

    /// Reads a checkpoint, checking its header, its length and every
    /// checksum, and refusing it with [`Error::Checkpoint`] if anything is
    /// wrong. The file's length is checked against the header before
    /// anything is allocated, and values are streamed into a table of the
    /// narrowest width, so loading needs no more memory than the table.
    pub fn load(path: &Path) -> Result<Checkpoint> {
        // Checked before opening: opening a FIFO would block, and a device
        // such as /dev/zero never ends.
        let kind = std::fs::metadata(path).map_err(|e| failure(path, e))?;
        if !kind.is_file() {
            return Err(failure(path, "not a regular file"));
        }
        let file = File::open(path).map_err(|e| failure(path, e))?;
        let meta = file.metadata().map_err(|e| failure(path, e))?;
        if !meta.is_file() {
            return Err(failure(path, "not a regular file"));
        }
        let size = meta.len();
        // Never read past the length seen here, even if the file grows.
        let mut reader = BufReader::new(file.take(size));
        let mut line = Vec::new();
        reader
            .by_ref()
            .take(MAX_HEADER as u64)
            .read_until(b'\n', &mut line)
            .map_err(|e| failure(path, e))?;
        if line.last() != Some(&b'\n') {
            return Err(failure(
                path,
                format!("not a checkpoint (no header line in its first {MAX_HEADER} bytes)"),
            ));
        }
        let header: Header = serde_json::from_slice(&line[..line.len() - 1])
            .map_err(|e| failure(path, format!("not a checkpoint ({e})")))?;
        if header.format == OLD_FORMAT {
            return Err(failure(
                path,
                format!(
                    "written in the old format {OLD_FORMAT}, which has no checksums; this \
                     version reads only {CHECKPOINT_FORMAT} (compute the table again)"
                ),
            ));
        }
        if header.format != CHECKPOINT_FORMAT {
            return Err(failure(path, format!("unknown format '{}'", header.format)));
        }
        let mut stored = [0u8; CHECKSUM as usize];
        reader
            .read_exact(&mut stored)
            .map_err(|_| failure(path, "truncated after its header"))?;
        if u64::from_le_bytes(stored) != fnv1a(FNV_OFFSET, &line) {
            return Err(failure(
                path,
                "the header is damaged (its checksum does not match)",
            ));
        }
        let width = usize::from(header.width);
        if ![1, 2, 4].contains(&width) {
            return Err(failure(path, format!("invalid value width {width}")));
        }
        let expected = file_length(line.len() as u64, header.heaps, width as u64);
        if expected != Some(size) {
            return Err(failure(
                path,
                format!(
                    "is {size} bytes, but its header promises {} heaps of {width} byte(s){}: \
                     truncated or damaged",
                    header.heaps,
                    expected.map_or_else(String::new, |e| format!(" ({e} bytes)")),
                ),
            ));
        }
        // The file holds every value, so the table is no larger than it.
        let heaps =
            usize::try_from(header.heaps).map_err(|_| failure(path, "too large to load"))?;
        let mut values = ValueTable::new();
        values
            .try_reserve_exact(heaps)
            .map_err(|_| failure(path, "too large to load"))?;
        let mut chunk = vec![0u8; CHUNK_HEAPS * width];
        for (index, first) in (0..heaps).step_by(CHUNK_HEAPS).enumerate() {
            let count = CHUNK_HEAPS.min(heaps - first);
            let bytes = &mut chunk[..count * width];
            reader
                .read_exact(bytes)
                .and_then(|()| reader.read_exact(&mut stored))
                .map_err(|e| failure(path, e))?;
            if u64::from_le_bytes(stored) != chunk_checksum(index as u64, bytes) {
                return Err(failure(
                    path,
                    format!(
                        "the values of heaps {first}..{} are damaged (their checksum does not match)",
                        first + count
                    ),
                ));
            }
            values.extend(bytes.chunks_exact(width).map(|bytes| {
                let mut word = [0u8; 4];
                word[..width].copy_from_slice(bytes);
                Nimber::new(u32::from_le_bytes(word))
            }));
        }
        Ok(Checkpoint {
            game: header.game,
            values,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch directory for one test, removed when it ends.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(test: &str) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("grundy-ckpt-{}-{test}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn file(&self, name: &str) -> PathBuf {
            self.0.join(name)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// The reason a load fails for, or a panic if it succeeds.
    fn refusal(path: &Path) -> String {
        match Checkpoint::load(path) {
            Err(Error::Checkpoint { reason, .. }) => reason,
            other => panic!("expected a checkpoint error, got {other:?}"),
        }
    }

    fn table(heaps: u32, top: u32) -> ValueTable {
        (0..heaps)
            .map(|n| Nimber::new(n.wrapping_mul(2_654_435_761) % (top + 1)))
            .collect()
    }

    /// A header line with a valid checksum, as a crafted file would have.
    fn header(heaps: u64, width: u8) -> Vec<u8> {
        let mut line = format!(
            r#"{{"format":"{CHECKPOINT_FORMAT}","game":"0.354","heaps":{heaps},"width":{width}}}"#
        )
        .into_bytes();
        line.push(b'\n');
        let sum = fnv1a(FNV_OFFSET, &line);
        line.extend(sum.to_le_bytes());
        line
    }

    #[test]
    fn chunk_checksums_together_are_each_chunks_own() {
        let bytes: Vec<u8> = (0..40_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        // Equal lengths, and unequal ones (a stream's last chunk is short).
        for lengths in [[9_000; 4], [9_000, 9_000, 9_000, 17], [0, 5, 9_000, 1]] {
            let mut from = 0;
            let chunks = lengths.map(|len| {
                from += len;
                &bytes[from - len..from]
            });
            let together = super::chunk_checksums(7, chunks);
            for (k, chunk) in chunks.iter().enumerate() {
                assert_eq!(together[k], chunk_checksum(7 + k as u64, chunk));
            }
        }
    }

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        assert_eq!(fnv1a(FNV_OFFSET, b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(FNV_OFFSET, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(FNV_OFFSET, b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn checkpoint_round_trips_in_every_width_across_chunks() {
        let scratch = Scratch::new("round-trip");
        let path = scratch.file("table.ckpt");
        let sizes = [0, 1, 1000, CHUNK_HEAPS as u32, 2 * CHUNK_HEAPS as u32 + 7];
        for top in [7u32, 300, 70_000] {
            for heaps in sizes {
                let values = table(heaps, top);
                Checkpoint::save(&path, "0.354", &values).unwrap();
                let back = Checkpoint::load(&path).unwrap();
                assert_eq!(back.game, "0.354");
                assert_eq!(back.values, values, "{heaps} heaps up to {top}");
            }
        }
        // Values below 512 folded to a byte a heap (heap 0 rare) are saved
        // two bytes each, and load folded again.
        for heaps in sizes {
            let values: ValueTable = table(heaps, 255)
                .iter()
                .enumerate()
                .map(|(n, v)| Nimber::new(if n == 0 { 5 } else { 256 + v.get() }))
                .collect();
            let folded = |t: &ValueTable| matches!(t.as_slice(), ValueSlice::Folded(_));
            assert_eq!(folded(&values), heaps > 1);
            Checkpoint::save(&path, "0.354", &values).unwrap();
            let back = Checkpoint::load(&path).unwrap();
            assert_eq!(back.values, values, "{heaps} heaps folded");
            assert_eq!(folded(&back.values), heaps > 1);
        }
        assert!(!scratch.file("table.ckpt.partial").exists());
    }

    #[test]
    fn checkpoint_with_one_flipped_value_byte_is_refused() {
        let scratch = Scratch::new("flipped");
        let path = scratch.file("table.ckpt");
        for top in [7u32, 300, 70_000] {
            let values = table(2 * CHUNK_HEAPS as u32 + 7, top);
            Checkpoint::save(&path, "0.354", &values).unwrap();
            let clean = std::fs::read(&path).unwrap();
            let start = clean.iter().position(|&b| b == b'\n').unwrap() + 1 + 8;
            // A value in the first chunk, one in the last, a header byte
            // and a checksum byte.
            for at in [start + 5, clean.len() - 9, 10, clean.len() - 1] {
                let mut bytes = clean.clone();
                bytes[at] ^= 0x10;
                std::fs::write(&path, &bytes).unwrap();
                let reason = refusal(&path);
                assert!(
                    reason.contains("damaged") || reason.contains("not a checkpoint"),
                    "byte {at}: {reason}"
                );
            }
        }
    }

    #[test]
    fn checkpoint_truncated_or_extended_is_refused() {
        let scratch = Scratch::new("truncated");
        let path = scratch.file("table.ckpt");
        Checkpoint::save(&path, "0.354", &table(CHUNK_HEAPS as u32 + 3, 300)).unwrap();
        let clean = std::fs::read(&path).unwrap();
        let header = clean.iter().position(|&b| b == b'\n').unwrap() + 1;
        for len in [
            0,
            5,
            header - 1,
            header,
            header + 4,
            header + 8,
            clean.len() - 1,
        ] {
            std::fs::write(&path, &clean[..len]).unwrap();
            let reason = refusal(&path);
            assert!(!reason.is_empty(), "{len}");
        }
        let mut longer = clean.clone();
        longer.push(0);
        std::fs::write(&path, &longer).unwrap();
        assert!(refusal(&path).contains("truncated or damaged"));
    }

    #[test]
    fn checkpoint_with_a_crafted_huge_count_is_refused_without_allocating() {
        let scratch = Scratch::new("crafted");
        let path = scratch.file("table.ckpt");
        // 8·10^9 heaps of 4 bytes (32 GB), 2^62 heaps, and a count whose
        // length overflows u64: the header's checksum is valid, so only
        // the check against the file's length, made before anything is
        // allocated, can refuse them.
        for heaps in [8_000_000_000u64, 1 << 62, u64::MAX] {
            let mut bytes = header(heaps, 4);
            bytes.extend([0u8; 64]);
            std::fs::write(&path, &bytes).unwrap();
            let reason = refusal(&path);
            assert!(reason.contains("truncated or damaged"), "{heaps}: {reason}");
        }
        std::fs::write(&path, header(3, 3)).unwrap();
        assert!(refusal(&path).contains("width"));
    }

    #[test]
    fn checkpoint_of_zeros_or_a_device_is_refused() {
        let scratch = Scratch::new("zeros");
        let path = scratch.file("zeros.ckpt");
        // More zeros than a header may hold, with no newline: read no
        // further than the header's limit.
        std::fs::write(&path, vec![0u8; 3 * MAX_HEADER]).unwrap();
        assert!(refusal(&path).contains("no header line"));
        std::fs::write(&path, b"\n\0\0\0").unwrap();
        assert!(refusal(&path).contains("not a checkpoint"));
        std::fs::write(&path, "garbage").unwrap();
        assert!(refusal(&path).contains("not a checkpoint"));
        if Path::new("/dev/zero").exists() {
            assert!(refusal(Path::new("/dev/zero")).contains("not a regular file"));
        }
        assert!(refusal(&scratch.0).contains("not a regular file"));
        assert!(!refusal(&scratch.file("missing.ckpt")).is_empty());
    }

    #[test]
    fn checkpoint_in_the_old_format_is_refused_with_a_clear_message() {
        let scratch = Scratch::new("old");
        let path = scratch.file("old.ckpt");
        let mut bytes =
            br#"{"format":"grundy-checkpoint/1","game":"0.354","heaps":3,"width":1}"#.to_vec();
        bytes.extend(b"\n\x01\x02\x00");
        std::fs::write(&path, &bytes).unwrap();
        let reason = refusal(&path);
        assert!(
            reason.contains("old format") && reason.contains(CHECKPOINT_FORMAT),
            "{reason}"
        );
    }
}
