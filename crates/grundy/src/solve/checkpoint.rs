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

use crate::{Error, Nimber, Result};

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
    pub values: Vec<Nimber>,
}

fn failure(path: &Path, reason: impl std::fmt::Display) -> Error {
    Error::Checkpoint {
        path: path.display().to_string(),
        reason: reason.to_string(),
    }
}

impl Checkpoint {
    /// Writes `values` of `game` to `path`, atomically.
    pub fn save(path: &Path, game: &str, values: &[Nimber]) -> Result<()> {
        let max = values.iter().copied().max().unwrap_or(Nimber::ZERO).get();
        let width: u8 = match max {
            0..=0xff => 1,
            0x100..=0xffff => 2,
            _ => 4,
        };
        let header = Header {
            format: CHECKPOINT_FORMAT.to_owned(),
            game: game.to_owned(),
            heaps: values.len() as u64,
            width,
        };
        let mut line = serde_json::to_vec(&header).map_err(|e| failure(path, e))?;
        line.push(b'\n');
        let partial = PathBuf::from(format!("{}.partial", path.display()));
        // Streamed through a buffer: saving needs no copy of the table.
        let write = || -> std::io::Result<()> {
            let mut file = BufWriter::new(File::create(&partial)?);
            file.write_all(&line)?;
            for v in values {
                file.write_all(&v.get().to_le_bytes()[..usize::from(width)])?;
            }
            file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            std::fs::rename(&partial, path)
        };
        write().map_err(|e| failure(path, e))
    }

    /// Reads a checkpoint, checking its header and length.
    pub fn load(path: &Path) -> Result<Checkpoint> {
        let file = File::open(path).map_err(|e| failure(path, e))?;
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
        let mut data = Vec::new();
        reader
            .read_to_end(&mut data)
            .map_err(|e| failure(path, e))?;
        if data.len() as u64 != header.heaps.saturating_mul(width as u64) {
            return Err(failure(
                path,
                format!(
                    "holds {} bytes of values, its header promises {} heaps of {width}",
                    data.len(),
                    header.heaps
                ),
            ));
        }
        let values = data
            .chunks_exact(width)
            .map(|chunk| {
                let mut word = [0u8; 4];
                word[..width].copy_from_slice(chunk);
                Nimber::new(u32::from_le_bytes(word))
            })
            .collect();
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
            let values: Vec<Nimber> = (0..1000).map(|n| Nimber::new(n * top / 999)).collect();
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
