//! Value streams: `g(0..=N)` of a record run on disk, written while the run
//! goes, checksummed so that anyone can check any stretch of it.
//!
//! A stream file (format `grundy-values/1`) is laid out as a checkpoint
//! (see the `checkpoint` module, whose checksums it uses) with a trailer:
//!
//! 1. one JSON header line, `{"format":"grundy-values/1","game":...,
//!    "width":W,"chunk":65536}` and its newline, at most [`MAX_HEADER`]
//!    bytes, then the header's FNV-1a checksum (8 bytes, little-endian);
//! 2. the values in chunks of [`CHUNK_HEAPS`] heaps (the last one shorter),
//!    `W` bytes per value, each chunk followed by its checksum (FNV-1a over
//!    the chunk's index, 8 bytes little-endian, then its bytes);
//! 3. a trailer of 16 bytes: the number of heaps and the *root checksum*,
//!    both little-endian: FNV-1a over the header's checksum, every chunk's
//!    checksum in order, and the number of heaps. Two streams with the same
//!    root hold the same values (up to FNV's collisions: it catches damage,
//!    not forgery).
//!
//! A stream being written has no trailer yet; one without a trailer, or
//! whose length is not what its trailer promises, is refused as truncated.
//! [`StreamWriter`] appends values and reads old ones back (a windowed
//! run's long scans), and resumes from the [`StreamState`] a checkpoint
//! recorded; [`ValueStream`] reads and checks a finished stream.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::checkpoint::{
    CHECKED_TOGETHER, CHECKSUM, FNV_OFFSET, chunk_checksum, chunk_checksums, file_length, fnv1a,
};
use super::{CHUNK_HEAPS, MAX_HEADER};
use crate::{Error, Result};

/// The `format` of every value stream this version writes and reads.
pub const STREAM_FORMAT: &str = "grundy-values/1";

/// Bytes of the trailer: the number of heaps and the root checksum.
const TRAILER: u64 = 16;

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    game: String,
    width: u8,
    chunk: u64,
}

fn failure(path: &Path, reason: impl std::fmt::Display) -> Error {
    Error::Stream {
        path: path.display().to_string(),
        reason: reason.to_string(),
    }
}

/// The header line of a stream of `game` and its checksum.
fn header_bytes(path: &Path, game: &str, width: u8) -> Result<Vec<u8>> {
    let header = Header {
        format: STREAM_FORMAT.to_owned(),
        game: game.to_owned(),
        width,
        chunk: CHUNK_HEAPS as u64,
    };
    let mut line = serde_json::to_vec(&header).map_err(|e| failure(path, e))?;
    line.push(b'\n');
    if line.len() > MAX_HEADER {
        return Err(failure(path, "the game's name is too long for a header"));
    }
    let sum = fnv1a(FNV_OFFSET, &line);
    line.extend(sum.to_le_bytes());
    Ok(line)
}

/// Reads and checks a header; returns it and its length with checksum.
fn read_header(path: &Path, reader: &mut impl BufRead) -> Result<(Header, u64, u64)> {
    let mut line = Vec::new();
    reader
        .take(MAX_HEADER as u64)
        .read_until(b'\n', &mut line)
        .map_err(|e| failure(path, e))?;
    if line.last() != Some(&b'\n') {
        return Err(failure(path, "not a value stream (no header line)"));
    }
    let header: Header = serde_json::from_slice(&line[..line.len() - 1])
        .map_err(|e| failure(path, format!("not a value stream ({e})")))?;
    if header.format != STREAM_FORMAT {
        return Err(failure(path, format!("unknown format '{}'", header.format)));
    }
    let mut stored = [0u8; CHECKSUM as usize];
    reader
        .read_exact(&mut stored)
        .map_err(|_| failure(path, "truncated after its header"))?;
    let sum = fnv1a(FNV_OFFSET, &line);
    if u64::from_le_bytes(stored) != sum {
        return Err(failure(
            path,
            "the header is damaged (its checksum does not match)",
        ));
    }
    if ![1, 2].contains(&header.width) || header.chunk != CHUNK_HEAPS as u64 {
        return Err(failure(
            path,
            format!(
                "width {} and chunks of {} heaps are not supported (this version reads widths 1 and 2, chunks of {CHUNK_HEAPS})",
                header.width, header.chunk
            ),
        ));
    }
    Ok((header, line.len() as u64 + CHECKSUM, sum))
}

/// Where heap `k`'s value lies in a stream of values `width` bytes wide
/// whose header takes `header` bytes (with its checksum).
fn offset_of(header: u64, k: u64, width: u64) -> u64 {
    let chunk = CHUNK_HEAPS as u64;
    header + (k / chunk) * (chunk * width + CHECKSUM) + k % chunk * width
}

/// The running state of a stream being written, saved in a checkpoint so
/// that a resumed run can check the file and go on with the same checksums.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamState {
    /// Heaps written.
    pub heaps: u64,
    /// The checksum of the chunk being written, so far.
    pub chunk_hash: u64,
    /// The root checksum over the header and every finished chunk.
    pub root: u64,
}

/// A stream being written: values are appended through a buffer, and old
/// ones can be read back.
pub struct StreamWriter {
    path: PathBuf,
    out: BufWriter<File>,
    back: File,
    header: u64,
    width: u64,
    /// The bytes of values pushed since the last [`Self::drain`]: hashed
    /// and written a slice at a time, not a value at a time (a heap of
    /// 0.167 costs 0.4 µs, and a write per value was 4% of it), and whole
    /// chunks [`CHECKED_TOGETHER`] at a time, their checksums computed side
    /// by side (one chunk's alone is a chain of dependent multiplies: 1.1
    /// ns a byte). At most that many chunks, or the rest of one chunk
    /// after a drain within it.
    pending: Vec<u8>,
    /// `state.heaps` counts every value pushed; `state.chunk_hash` covers
    /// the drained ones only.
    state: StreamState,
    /// Values read back so far.
    pub read_back: u64,
}

impl StreamWriter {
    /// Starts a stream of `game` at `path`, values `width` (1 or 2) bytes
    /// wide, replacing any file there.
    pub fn create(path: &Path, game: &str, width: u8) -> Result<StreamWriter> {
        let header = header_bytes(path, game, width)?;
        let mut file = File::create(path).map_err(|e| failure(path, e))?;
        file.write_all(&header).map_err(|e| failure(path, e))?;
        let header_sum =
            u64::from_le_bytes(header[header.len() - 8..].try_into().expect("8 bytes"));
        let state = StreamState {
            heaps: 0,
            chunk_hash: fnv1a(FNV_OFFSET, &0u64.to_le_bytes()),
            root: fnv1a(FNV_OFFSET, &header_sum.to_le_bytes()),
        };
        StreamWriter::over(path, file, header.len() as u64, u64::from(width), state)
    }

    /// Goes on with the stream of `game` at `path` from `state`, as saved
    /// by [`Self::sync`]: values past it are dropped, and the chunk being
    /// written is read back and checked against the saved checksum.
    pub fn resume(path: &Path, game: &str, width: u8, state: StreamState) -> Result<StreamWriter> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| failure(path, e))?;
        let mut reader = BufReader::new(&file);
        let (header, header_len, _) = read_header(path, &mut reader)?;
        if header.game != game || header.width != width {
            return Err(failure(
                path,
                format!(
                    "holds values of {} {} byte(s) wide, not of {game} {width} byte(s) wide",
                    header.game, header.width
                ),
            ));
        }
        let width = u64::from(width);
        let end = offset_of(header_len, state.heaps, width);
        let size = file.metadata().map_err(|e| failure(path, e))?.len();
        if size < end {
            return Err(failure(
                path,
                format!("is {size} bytes, shorter than the {end} its checkpoint saw: truncated"),
            ));
        }
        file.set_len(end).map_err(|e| failure(path, e))?;
        let mut writer = StreamWriter::over(path, file, header_len, width, state)?;
        let chunk_start = state.heaps - state.heaps % CHUNK_HEAPS as u64;
        let mut partial = Vec::new();
        writer.read(chunk_start, state.heaps, &mut partial)?;
        writer.read_back = 0;
        let hash = fnv1a(
            fnv1a(
                FNV_OFFSET,
                &(chunk_start / CHUNK_HEAPS as u64).to_le_bytes(),
            ),
            &partial,
        );
        if hash != state.chunk_hash {
            return Err(failure(
                path,
                format!(
                    "the values of heaps {chunk_start}..{} are damaged (their checksum does not match the checkpoint's)",
                    state.heaps
                ),
            ));
        }
        Ok(writer)
    }

    fn over(
        path: &Path,
        mut file: File,
        header: u64,
        width: u64,
        state: StreamState,
    ) -> Result<StreamWriter> {
        file.seek(SeekFrom::End(0)).map_err(|e| failure(path, e))?;
        let back = File::open(path).map_err(|e| failure(path, e))?;
        Ok(StreamWriter {
            path: path.to_owned(),
            out: BufWriter::with_capacity(1 << 16, file),
            back,
            header,
            width,
            pending: Vec::with_capacity(CHECKED_TOGETHER * CHUNK_HEAPS * width as usize),
            state,
            read_back: 0,
        })
    }

    /// Heaps written so far.
    pub fn heaps(&self) -> u64 {
        self.state.heaps
    }

    /// Appends the value of the next heap, which fits the stream's width.
    #[inline]
    pub fn push(&mut self, value: u32) -> Result<()> {
        let [low, high, ..] = value.to_le_bytes();
        self.pending.push(low);
        if self.width == 2 {
            self.pending.push(high);
        }
        self.state.heaps += 1;
        if self.state.heaps.is_multiple_of(CHUNK_HEAPS as u64) {
            let chunk_bytes = CHUNK_HEAPS * self.width as usize;
            // The pending bytes started at a chunk's start (they are whole
            // chunks), or within this chunk, after a drain.
            if !self.pending.len().is_multiple_of(chunk_bytes) {
                self.end_chunk()?;
            } else if self.pending.len() >= CHECKED_TOGETHER * chunk_bytes {
                self.write_whole_chunks()?;
            }
        }
        Ok(())
    }

    /// Hands the pending values to the file's buffer: the whole chunks with
    /// their checksums, the rest hashed into the open chunk's checksum.
    fn drain(&mut self) -> Result<()> {
        self.write_whole_chunks()?;
        self.state.chunk_hash = fnv1a(self.state.chunk_hash, &self.pending);
        self.out
            .write_all(&self.pending)
            .map_err(|e| failure(&self.path, e))?;
        self.pending.clear();
        Ok(())
    }

    /// Writes the whole chunks at the start of the pending bytes, each
    /// followed by its checksum, when the pending bytes start at a chunk's
    /// start (else they hold the rest of one chunk at most).
    fn write_whole_chunks(&mut self) -> Result<()> {
        let chunk_bytes = CHUNK_HEAPS * self.width as usize;
        let whole = self.pending.len() / chunk_bytes;
        let held = (self.pending.len() as u64) / self.width;
        let first_heap = self.state.heaps - held;
        if whole == 0 || !first_heap.is_multiple_of(CHUNK_HEAPS as u64) {
            return Ok(());
        }
        let first = first_heap / CHUNK_HEAPS as u64;
        let bytes = &self.pending[..whole * chunk_bytes];
        for (g, group) in bytes.chunks(CHECKED_TOGETHER * chunk_bytes).enumerate() {
            let mut chunks = [&[][..]; CHECKED_TOGETHER];
            for (place, chunk) in chunks.iter_mut().zip(group.chunks(chunk_bytes)) {
                *place = chunk;
            }
            let index = first + (g * CHECKED_TOGETHER) as u64;
            let sums = chunk_checksums(index, chunks);
            for (chunk, sum) in group.chunks(chunk_bytes).zip(sums) {
                let sum = sum.to_le_bytes();
                self.out
                    .write_all(chunk)
                    .and_then(|()| self.out.write_all(&sum))
                    .map_err(|e| failure(&self.path, e))?;
                self.state.root = fnv1a(self.state.root, &sum);
            }
        }
        self.pending.drain(..whole * chunk_bytes);
        let next = first + whole as u64;
        self.state.chunk_hash = fnv1a(FNV_OFFSET, &next.to_le_bytes());
        Ok(())
    }

    /// Writes the checksum of the chunk just filled and starts the next.
    fn end_chunk(&mut self) -> Result<()> {
        self.drain()?;
        let sum = self.state.chunk_hash.to_le_bytes();
        self.out
            .write_all(&sum)
            .map_err(|e| failure(&self.path, e))?;
        self.state.root = fnv1a(self.state.root, &sum);
        let next = self.state.heaps.div_ceil(CHUNK_HEAPS as u64);
        self.state.chunk_hash = fnv1a(FNV_OFFSET, &next.to_le_bytes());
        Ok(())
    }

    /// Reads the values of heaps `from..to` (all written) into `out`, as
    /// bytes (little-endian at the stream's width).
    pub fn read(&mut self, from: u64, to: u64, out: &mut Vec<u8>) -> Result<()> {
        self.drain()?;
        self.out.flush().map_err(|e| failure(&self.path, e))?;
        out.clear();
        let at = (self.header, self.width);
        read_values(&self.path, &mut self.back, at, from, to, out)?;
        self.read_back += to - from;
        Ok(())
    }

    /// Flushes what was written to disk and returns the state to save with
    /// a checkpoint: a checkpoint written after this never promises values
    /// the disk does not hold.
    pub fn sync(&mut self) -> Result<StreamState> {
        self.drain()?;
        self.out.flush().map_err(|e| failure(&self.path, e))?;
        self.out
            .get_ref()
            .sync_data()
            .map_err(|e| failure(&self.path, e))?;
        Ok(self.state)
    }

    /// The same stream, its file renamed to `to` (replacing any file
    /// there); writing and reading go on through the open files.
    pub fn rename(mut self, to: &Path) -> Result<StreamWriter> {
        self.sync()?;
        std::fs::rename(&self.path, to).map_err(|e| failure(to, e))?;
        self.path = to.to_owned();
        Ok(self)
    }

    /// Ends the stream: the last chunk's checksum and the trailer. Returns
    /// the number of heaps and the root checksum.
    pub fn finish(mut self) -> Result<(u64, u64)> {
        match self.state.heaps.is_multiple_of(CHUNK_HEAPS as u64) {
            true => self.drain()?,
            false => self.end_chunk()?,
        }
        let heaps = self.state.heaps;
        let root = fnv1a(self.state.root, &heaps.to_le_bytes());
        let mut trailer = heaps.to_le_bytes().to_vec();
        trailer.extend(root.to_le_bytes());
        self.out
            .write_all(&trailer)
            .map_err(|e| failure(&self.path, e))?;
        self.sync()?;
        Ok((heaps, root))
    }
}

/// Reads heaps `from..to` of the stream behind `file`, whose header takes
/// `header` bytes and whose values `width`, chunk by chunk (skipping the
/// checksums between them).
fn read_values(
    path: &Path,
    file: &mut File,
    (header, width): (u64, u64),
    from: u64,
    to: u64,
    out: &mut Vec<u8>,
) -> Result<()> {
    let chunk = CHUNK_HEAPS as u64;
    let mut k = from;
    while k < to {
        let stop = to.min((k / chunk + 1) * chunk);
        file.seek(SeekFrom::Start(offset_of(header, k, width)))
            .map_err(|e| failure(path, e))?;
        let at = out.len();
        out.resize(at + ((stop - k) * width) as usize, 0);
        file.read_exact(&mut out[at..])
            .map_err(|e| failure(path, e))?;
        k = stop;
    }
    Ok(())
}

/// A finished value stream, its header and trailer checked.
#[derive(Debug)]
pub struct ValueStream {
    pub(super) path: PathBuf,
    /// The game's canonical specification.
    pub game: String,
    /// Heaps `0..heaps` are in the stream.
    pub heaps: u64,
    /// The root checksum its trailer records.
    pub root: u64,
    /// Bytes per value: 1 or 2.
    pub width: u8,
    header: u64,
    header_sum: u64,
}

impl ValueStream {
    /// Opens a stream, checking its header, and its length against its
    /// trailer, before any value is read; refuses anything else with
    /// [`Error::Stream`].
    pub fn open(path: &Path) -> Result<ValueStream> {
        let kind = std::fs::metadata(path).map_err(|e| failure(path, e))?;
        if !kind.is_file() {
            return Err(failure(path, "not a regular file"));
        }
        let mut file = File::open(path).map_err(|e| failure(path, e))?;
        let size = file.metadata().map_err(|e| failure(path, e))?.len();
        let (header, header_len, header_sum) = read_header(
            path,
            &mut BufReader::new(Read::by_ref(&mut file).take(size)),
        )?;
        let mut trailer = [0u8; TRAILER as usize];
        let truncated = || {
            failure(
                path,
                "truncated (no trailer: the run that wrote it did not finish)",
            )
        };
        if size < header_len + TRAILER {
            return Err(truncated());
        }
        file.seek(SeekFrom::Start(size - TRAILER))
            .and_then(|_| file.read_exact(&mut trailer))
            .map_err(|e| failure(path, e))?;
        let heaps = u64::from_le_bytes(trailer[..8].try_into().expect("8 bytes"));
        let root = u64::from_le_bytes(trailer[8..].try_into().expect("8 bytes"));
        let expected = file_length(header_len - CHECKSUM, heaps, u64::from(header.width))
            .and_then(|l| l.checked_add(TRAILER));
        // A heap takes a byte at least: a count past the file's size is
        // not a trailer but values, cut off where the run stopped.
        if heaps > size {
            return Err(truncated());
        }
        if expected != Some(size) {
            return Err(failure(
                path,
                format!("is {size} bytes, which {heaps} heaps do not fill: truncated or damaged"),
            ));
        }
        Ok(ValueStream {
            path: path.to_owned(),
            game: header.game,
            heaps,
            root,
            width: header.width,
            header: header_len,
            header_sum,
        })
    }

    /// The number of chunks.
    pub fn chunks(&self) -> u64 {
        self.heaps.div_ceil(CHUNK_HEAPS as u64)
    }

    /// Checks the trailer's root checksum against the checksums the chunks
    /// store, reading those alone (8 bytes a chunk), so that a part of the
    /// stream read by itself is known to belong to the run the trailer
    /// records.
    fn check_root(&self) -> Result<()> {
        let path = &self.path;
        let mut file = File::open(path).map_err(|e| failure(path, e))?;
        let chunk = CHUNK_HEAPS as u64;
        let width = u64::from(self.width);
        let mut root = fnv1a(FNV_OFFSET, &self.header_sum.to_le_bytes());
        let mut stored = [0u8; CHECKSUM as usize];
        for index in 0..self.chunks() {
            let first = index * chunk;
            let count = chunk.min(self.heaps - first);
            file.seek(SeekFrom::Start(
                offset_of(self.header, first, width) + count * width,
            ))
            .and_then(|_| file.read_exact(&mut stored))
            .map_err(|e| failure(path, e))?;
            root = fnv1a(root, &stored);
        }
        if fnv1a(root, &self.heaps.to_le_bytes()) != self.root {
            return Err(failure(path, "the root checksum does not match its chunks"));
        }
        Ok(())
    }

    /// Reads chunks `chunks` in order, checking each one's checksum, and
    /// calls `visit(first_heap, values)` for each; checks the root checksum
    /// too (from the chunks read when they are all, else from the
    /// checksums every chunk stores). Refuses damage with [`Error::Stream`]
    /// naming the heaps.
    pub fn for_each_chunk(
        &self,
        chunks: std::ops::Range<u64>,
        visit: &mut dyn FnMut(u64, &[u32]) -> Result<()>,
    ) -> Result<()> {
        let path = &self.path;
        let mut file =
            BufReader::with_capacity(1 << 20, File::open(path).map_err(|e| failure(path, e))?);
        let all = chunks.start == 0 && chunks.end >= self.chunks();
        if !all {
            self.check_root()?;
        }
        let chunk = CHUNK_HEAPS as u64;
        let width = usize::from(self.width);
        file.seek(SeekFrom::Start(offset_of(
            self.header,
            chunks.start * chunk,
            width as u64,
        )))
        .map_err(|e| failure(path, e))?;
        let mut root = fnv1a(FNV_OFFSET, &self.header_sum.to_le_bytes());
        // Read and checked [`CHECKED_TOGETHER`] chunks at a time, their
        // checksums computed side by side.
        let chunk_bytes = CHUNK_HEAPS * width;
        let mut bytes = vec![0u8; CHECKED_TOGETHER * chunk_bytes];
        let mut values = Vec::with_capacity(CHUNK_HEAPS);
        let (mut index, end) = (chunks.start, chunks.end.min(self.chunks()));
        while index < end {
            let group = (end - index).min(CHECKED_TOGETHER as u64) as usize;
            let mut read = [(0, 0); CHECKED_TOGETHER];
            for (k, place) in bytes.chunks_exact_mut(chunk_bytes).take(group).enumerate() {
                read[k] = self.read_raw(&mut file, index + k as u64, place)?;
            }
            let parts: [&[u8]; CHECKED_TOGETHER] =
                std::array::from_fn(|k| &bytes[k * chunk_bytes..][..read[k].0]);
            // A group short of four (the range's end) has empty parts.
            let sums = chunk_checksums(index, parts);
            for k in 0..group {
                let (at, stored) = (index + k as u64, read[k].1);
                self.check_sum(at, parts[k].len(), stored, sums[k])?;
                root = fnv1a(root, &stored.to_le_bytes());
                self.decode(parts[k], &mut values);
                visit(at * chunk, &values)?;
            }
            index += group as u64;
        }
        if all && fnv1a(root, &self.heaps.to_le_bytes()) != self.root {
            return Err(failure(path, "the root checksum does not match its chunks"));
        }
        Ok(())
    }

    /// Reads chunk `index` from `file`, positioned at its start, into the
    /// front of `bytes` (a chunk's size): its length in bytes and the
    /// checksum stored after it.
    fn read_raw(&self, file: &mut impl Read, index: u64, bytes: &mut [u8]) -> Result<(usize, u64)> {
        let first = index * CHUNK_HEAPS as u64;
        let count = (CHUNK_HEAPS as u64).min(self.heaps - first) as usize;
        let bytes = &mut bytes[..count * usize::from(self.width)];
        let mut stored = [0u8; CHECKSUM as usize];
        file.read_exact(bytes)
            .and_then(|()| file.read_exact(&mut stored))
            .map_err(|e| failure(&self.path, e))?;
        Ok((bytes.len(), u64::from_le_bytes(stored)))
    }

    /// Refuses chunk `index`, of `length` bytes, unless its checksum as
    /// read (`computed`) is the one it stores.
    fn check_sum(&self, index: u64, length: usize, stored: u64, computed: u64) -> Result<()> {
        if stored == computed {
            return Ok(());
        }
        let first = index * CHUNK_HEAPS as u64;
        Err(failure(
            &self.path,
            format!(
                "the values of heaps {first}..{} (chunk {index}) are damaged (their checksum does not match)",
                first + (length / usize::from(self.width)) as u64
            ),
        ))
    }

    /// The values of a chunk's `bytes` into `values`.
    fn decode(&self, bytes: &[u8], values: &mut Vec<u32>) {
        values.clear();
        // Widths 1 and 2 only (the header's check), each decoded in its own
        // loop: no copy call per value.
        if self.width == 1 {
            values.extend(bytes.iter().map(|&b| u32::from(b)));
        } else {
            let pairs = bytes.chunks_exact(2);
            values.extend(pairs.map(|b| u32::from(u16::from_le_bytes([b[0], b[1]]))));
        }
    }

    /// A reader of single chunks in any order, for searches that walk the
    /// stream back (`analysis::record`): the root is checked against every
    /// chunk's stored checksum first, then each chunk read against its own.
    pub fn chunk_reader(&self) -> Result<ChunkReader<'_>> {
        self.check_root()?;
        Ok(ChunkReader {
            file: File::open(&self.path).map_err(|e| failure(&self.path, e))?,
            bytes: vec![0u8; CHUNK_HEAPS * usize::from(self.width)],
            stream: self,
        })
    }

    /// `chunks` (every chunk when `None`), refused with
    /// [`Error::InvalidRange`] unless it is a non-empty range of this
    /// stream's chunks.
    pub fn chunk_range(
        &self,
        chunks: Option<std::ops::Range<u64>>,
    ) -> Result<std::ops::Range<u64>> {
        let chunks = chunks.unwrap_or(0..self.chunks());
        if chunks.start >= chunks.end || chunks.end > self.chunks() {
            return Err(Error::InvalidRange {
                reason: format!(
                    "chunks {}..{} are not in the stream, which has chunks 0..{}",
                    chunks.start,
                    chunks.end,
                    self.chunks()
                ),
            });
        }
        Ok(chunks)
    }

    /// Checks chunks `chunks` against the checksums they store, and the
    /// root against every chunk's stored checksum (see
    /// [`Self::for_each_chunk`]), recomputing nothing: one read of those
    /// chunks, at disk speed. `progress` hears the heaps checked after
    /// each chunk; returning false stops the check with
    /// [`Error::Interrupted`]. Damage is refused with [`Error::Stream`]
    /// naming the heaps of the first damaged chunk.
    ///
    /// The checksums catch damage to the file (a flipped bit, a cut, a
    /// chunk from another stream), not a wrong value the run itself wrote:
    /// that takes computing the values again (see `verify_stream`).
    pub fn check(
        &self,
        chunks: std::ops::Range<u64>,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<()> {
        self.for_each_chunk(chunks, &mut |first, values| {
            let heaps = first + values.len() as u64;
            match progress(heaps) {
                true => Ok(()),
                false => Err(Error::Interrupted { heaps }),
            }
        })
    }

    /// Bytes of the file before heap `heaps`'s value (its header and the
    /// chunks before, with their checksums): a stream cut there and
    /// resumed (see [`StreamWriter::resume`]) goes on at that heap.
    pub(super) fn bytes_before(&self, heaps: u64) -> u64 {
        offset_of(self.header, heaps, u64::from(self.width))
    }

    /// `counts[v]`: how many of heaps `1..=to` (at most the last heap) have
    /// value `v` — the histograms Rogalski publishes.
    pub fn histogram(&self, to: u64) -> Result<Vec<u64>> {
        let to = to.min(self.heaps.saturating_sub(1));
        let mut counts = vec![0u64; 1 << (8 * self.width)];
        let chunks = 0..(to + 1).div_ceil(CHUNK_HEAPS as u64);
        self.for_each_chunk(chunks, &mut |first, values| {
            for (k, &v) in (first..).zip(values) {
                if (1..=to).contains(&k) {
                    counts[v as usize] += 1;
                }
            }
            Ok(())
        })?;
        while counts.last() == Some(&0) {
            counts.pop();
        }
        Ok(counts)
    }

    /// The values of heaps `from..=to` (checked chunk by chunk).
    pub fn values(&self, from: u64, to: u64) -> Result<Vec<u32>> {
        if from > to || to >= self.heaps {
            return Err(Error::InvalidRange {
                reason: format!(
                    "the stream holds heaps 0..={}",
                    self.heaps.saturating_sub(1)
                ),
            });
        }
        let chunk = CHUNK_HEAPS as u64;
        let mut out = Vec::new();
        self.for_each_chunk(from / chunk..to / chunk + 1, &mut |first, values| {
            let lo = from.saturating_sub(first) as usize;
            let hi = ((to + 1 - first) as usize).min(values.len());
            out.extend_from_slice(&values[lo..hi]);
            Ok(())
        })?;
        Ok(out)
    }
}

/// Single chunks of a [`ValueStream`], read on demand and checked (see
/// [`ValueStream::chunk_reader`]).
pub struct ChunkReader<'a> {
    stream: &'a ValueStream,
    file: File,
    bytes: Vec<u8>,
}

impl ChunkReader<'_> {
    /// The values of chunk `index` (heaps from `index * CHUNK_HEAPS`) into
    /// `values`; damage is refused with [`Error::Stream`] naming the heaps.
    pub fn read(&mut self, index: u64, values: &mut Vec<u32>) -> Result<()> {
        let stream = self.stream;
        if index >= stream.chunks() {
            return Err(failure(&stream.path, format!("has no chunk {index}")));
        }
        let at = offset_of(
            stream.header,
            index * CHUNK_HEAPS as u64,
            u64::from(stream.width),
        );
        self.file
            .seek(SeekFrom::Start(at))
            .map_err(|e| failure(&stream.path, e))?;
        let (length, stored) = stream.read_raw(&mut self.file, index, &mut self.bytes)?;
        let bytes = &self.bytes[..length];
        stream.check_sum(index, length, stored, chunk_checksum(index, bytes))?;
        stream.decode(bytes, values);
        Ok(())
    }
}
