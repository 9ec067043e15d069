//! Checkpoints: a value table saved to disk so that a long run can stop and
//! continue without losing finished work.
//!
//! A checkpoint file is one JSON header line
//! (`{"format": "grundy-checkpoint/1", "game": ..., "heaps": N, "width": W}`)
//! followed by `N` values of `W` bytes each, little-endian: one byte per heap
//! while every value is below 256. Files are replaced atomically (written
//! beside the target, flushed to disk, then renamed over it), so a run killed
//! at any moment leaves either the previous checkpoint or the new one.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{Error, Nimber, Result, ValueSlice, ValueTable};

/// The `format` of every checkpoint this version writes.
pub const CHECKPOINT_FORMAT: &str = "grundy-checkpoint/1";

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

fn failure(path: &Path, reason: impl std::fmt::Display) -> Error {
    Error::Checkpoint {
        path: path.display().to_string(),
        reason: reason.to_string(),
    }
}

impl Checkpoint {
    /// Writes `values` of `game` to `path`, atomically, at the table's
    /// width (the narrowest that holds its values).
    pub fn save(path: &Path, game: &str, values: &ValueTable) -> Result<()> {
        let width = values.width();
        let header = Header {
            format: CHECKPOINT_FORMAT.to_owned(),
            game: game.to_owned(),
            heaps: values.len() as u64,
            width: width as u8,
        };
        let mut line = serde_json::to_vec(&header).map_err(|e| failure(path, e))?;
        line.push(b'\n');
        let partial = PathBuf::from(format!("{}.partial", path.display()));
        // Streamed through a buffer: saving needs no copy of the table.
        let write = || -> std::io::Result<()> {
            let mut file = BufWriter::new(File::create(&partial)?);
            file.write_all(&line)?;
            if let ValueSlice::U8(bytes) = values.as_slice() {
                file.write_all(bytes)?;
            } else {
                for v in values {
                    file.write_all(&v.get().to_le_bytes()[..width])?;
                }
            }
            file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            std::fs::rename(&partial, path)
        };
        write().map_err(|e| failure(path, e))
    }

    /// Reads a checkpoint, checking its header and length. The values are
    /// streamed into a table of the narrowest width, so loading needs no
    /// more memory than the table itself.
    pub fn load(path: &Path) -> Result<Checkpoint> {
        let file = File::open(path).map_err(|e| failure(path, e))?;
        let size = file.metadata().map_err(|e| failure(path, e))?.len();
        let mut reader = BufReader::new(file);
        let mut line = String::new();
        reader.read_line(&mut line).map_err(|e| failure(path, e))?;
        let header: Header = serde_json::from_str(line.trim_end())
            .map_err(|e| failure(path, format!("not a checkpoint ({e})")))?;
        if header.format != CHECKPOINT_FORMAT {
            return Err(failure(path, format!("unknown format '{}'", header.format)));
        }
        let width = usize::from(header.width);
        if ![1, 2, 4].contains(&width) {
            return Err(failure(path, format!("invalid value width {width}")));
        }
        let data_bytes = size - line.len() as u64;
        if data_bytes != header.heaps.saturating_mul(width as u64) {
            return Err(failure(
                path,
                format!(
                    "holds {data_bytes} bytes of values, its header promises {} heaps of {width}",
                    header.heaps
                ),
            ));
        }
        let mut values = ValueTable::new();
        values
            .try_reserve_exact(usize::try_from(header.heaps).unwrap_or(usize::MAX))
            .map_err(|_| failure(path, "too large to load"))?;
        let mut chunk = vec![0u8; width << 16];
        let mut left = data_bytes as usize;
        while left > 0 {
            let take = left.min(chunk.len());
            reader
                .read_exact(&mut chunk[..take])
                .map_err(|e| failure(path, e))?;
            values.extend(chunk[..take].chunks_exact(width).map(|bytes| {
                let mut word = [0u8; 4];
                word[..width].copy_from_slice(bytes);
                Nimber::new(u32::from_le_bytes(word))
            }));
            left -= take;
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

    #[test]
    fn round_trip_in_every_width_and_rejects_damage() {
        let dir = std::env::temp_dir().join(format!("grundy-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("table.ckpt");
        for top in [7u32, 300, 70_000] {
            let values: ValueTable = (0..1000).map(|n| Nimber::new(n * top / 999)).collect();
            Checkpoint::save(&path, "0.354", &values).unwrap();
            let back = Checkpoint::load(&path).unwrap();
            assert_eq!(back.game, "0.354");
            assert_eq!(back.values, values);
        }
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.pop();
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            Checkpoint::load(&path),
            Err(Error::Checkpoint { .. })
        ));
        std::fs::write(&path, "garbage").unwrap();
        assert!(Checkpoint::load(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
