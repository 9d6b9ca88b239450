//! The labelled-positions file: 8x8 positions, each with a value for the side to move
//! from a deep search or an exact solve, in fixed-size little-endian records so that
//! a fitter can stream it and numpy can map it. The layout is in docs/training.md.
//!
//! A file is a 32-byte header (the magic line, then the record size as a `u32` and
//! four zero bytes) followed by records of [`RECORD_SIZE`] bytes:
//!
//! | bytes | field | type |
//! |---|---|---|
//! | 0..8 | the side to move's discs, bit `8 * row + column` | `u64` |
//! | 8..16 | the opponent's discs | `u64` |
//! | 16..18 | the value for the side to move, in 1/64 of a disc | `i16` |
//! | 18 | how the value was found: 0 a search, 1 an exact solve | `u8` |
//! | 19 | the search depth in plies (for a solve, the empties) | `u8` |
//! | 20..24 | the game the position came from (its `game_id`) | `u32` |

use crate::error::{Error, Result};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The first bytes of a positions file, with its format's version.
pub const MAGIC: &[u8; 24] = b"reversi-lab positions 1\n";
/// The header's length: the magic line, the record size, four zero bytes.
pub const HEADER_SIZE: u64 = 32;
/// One record's length.
pub const RECORD_SIZE: usize = 24;
/// Values are stored in 1/`VALUE_SCALE` of a disc (the pattern weights' unit).
pub const VALUE_SCALE: i32 = 64;

/// How a position's value was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// A search of this many plies with the evaluation.
    Search {
        /// The depth in plies.
        depth: u8,
    },
    /// An exact solve: the final disc margin under perfect play.
    Exact,
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Labelled {
    /// The side to move's discs.
    pub player: u64,
    /// The opponent's discs.
    pub opponent: u64,
    /// The value for the side to move, in 1/64 of a disc.
    pub value: i16,
    /// How the value was found.
    pub label: Label,
    /// The game it came from.
    pub game: u32,
}

impl Labelled {
    /// Empty squares.
    #[must_use]
    pub fn empties(&self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }

    /// The value in discs.
    #[must_use]
    pub fn discs(&self) -> f64 {
        f64::from(self.value) / f64::from(VALUE_SCALE)
    }

    /// The record's bytes.
    #[must_use]
    pub fn encode(&self) -> [u8; RECORD_SIZE] {
        let mut out = [0u8; RECORD_SIZE];
        out[0..8].copy_from_slice(&self.player.to_le_bytes());
        out[8..16].copy_from_slice(&self.opponent.to_le_bytes());
        out[16..18].copy_from_slice(&self.value.to_le_bytes());
        let (kind, depth) = match self.label {
            Label::Search { depth } => (0, depth),
            Label::Exact => (1, self.empties() as u8),
        };
        out[18] = kind;
        out[19] = depth;
        out[20..24].copy_from_slice(&self.game.to_le_bytes());
        out
    }

    /// A record from its bytes; `None` when they cannot be one (overlapping discs,
    /// an unknown kind, an exact label whose depth is not the empties).
    #[must_use]
    pub fn decode(bytes: &[u8; RECORD_SIZE]) -> Option<Self> {
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let (player, opponent) = (word(0), word(8));
        if player & opponent != 0 {
            return None;
        }
        let value = i16::from_le_bytes([bytes[16], bytes[17]]);
        let label = match bytes[18] {
            0 => Label::Search { depth: bytes[19] },
            1 => Label::Exact,
            _ => return None,
        };
        let game = u32::from_le_bytes(bytes[20..24].try_into().expect("4 bytes"));
        let record = Labelled {
            player,
            opponent,
            value,
            label,
            game,
        };
        (label != Label::Exact || u32::from(bytes[19]) == record.empties()).then_some(record)
    }
}

/// The header every positions file starts with.
#[must_use]
pub fn header() -> [u8; HEADER_SIZE as usize] {
    let mut out = [0u8; HEADER_SIZE as usize];
    out[..MAGIC.len()].copy_from_slice(MAGIC);
    out[24..28].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
    out
}

fn not_positions(path: &Path) -> Error {
    Error::input(format!(
        "{} is not a labelled-positions file (it lacks the header `reversi-lab label` writes): give a file that command made",
        path.display()
    ))
}

/// Checks the header at the start of `file`.
fn check_header(file: &mut File, path: &Path) -> Result<()> {
    let mut bytes = [0u8; HEADER_SIZE as usize];
    file.read_exact(&mut bytes)
        .map_err(|_| not_positions(path))?;
    if bytes != header() {
        return Err(not_positions(path));
    }
    Ok(())
}

/// Reads a positions file record by record, in bounded memory.
pub struct Reader {
    path: PathBuf,
    inner: BufReader<File>,
    index: u64,
    len: u64,
}

impl Reader {
    /// Opens `path`; refuses a file without the header or with a torn last record.
    pub fn open(path: &Path) -> Result<Self> {
        let mut file = File::open(path).map_err(|e| Error::unreadable(path, &e))?;
        check_header(&mut file, path)?;
        let size = file
            .metadata()
            .map_err(|e| Error::io_during("read", path, e))?
            .len();
        let body = size - HEADER_SIZE;
        if !body.is_multiple_of(RECORD_SIZE as u64) {
            return Err(Error::input(format!(
                "{} ends in the middle of a record ({} bytes past the last whole one): rerun `reversi-lab label` on it to resume and complete it",
                path.display(),
                body % RECORD_SIZE as u64
            )));
        }
        Ok(Reader {
            path: path.to_path_buf(),
            inner: BufReader::with_capacity(1 << 16, file),
            index: 0,
            len: body / RECORD_SIZE as u64,
        })
    }

    /// Records in the file.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file holds no records.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Iterator for Reader {
    type Item = Result<Labelled>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.index == self.len {
            return None;
        }
        let mut bytes = [0u8; RECORD_SIZE];
        if let Err(e) = self.inner.read_exact(&mut bytes) {
            self.index = self.len;
            return Some(Err(Error::io_during("read", &self.path, e)));
        }
        let at = self.index;
        self.index += 1;
        Some(Labelled::decode(&bytes).ok_or_else(|| {
            Error::input(format!(
                "record {at} of {} is not a position (overlapping discs or an unknown label): the file is damaged, label the games again",
                self.path.display()
            ))
        }))
    }
}

/// Appends records to a positions file: creates it with its header, or reopens one
/// to resume after its last whole record (a torn record from a killed run is cut).
/// It takes no lock: `label` locks its output before it opens one.
pub struct Writer {
    path: PathBuf,
    inner: BufWriter<File>,
    records: u64,
}

impl Writer {
    /// Creates `path` afresh; refuses one that exists.
    pub fn create(path: &Path) -> Result<Self> {
        let file = crate::lab::folder::create_new(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                Error::input(format!(
                    "{} exists: resume it, or give another path",
                    path.display()
                ))
            } else {
                Error::io_during("create", path, e)
            }
        })?;
        let mut writer = Writer {
            path: path.to_path_buf(),
            inner: BufWriter::new(file),
            records: 0,
        };
        writer
            .inner
            .write_all(&header())
            .map_err(|e| Error::io(&writer.path, e))?;
        Ok(writer)
    }

    /// Reopens `path` to append after its first `keep` records (None: after its last
    /// whole one), cutting what follows; returns the writer and the records kept.
    /// A file holding fewer than `keep` records is refused: it is not the one a
    /// checkpoint counted.
    pub fn resume(path: &Path, keep: Option<u64>) -> Result<(Self, u64)> {
        let mut file = crate::lab::folder::reopen(path).map_err(|e| Error::unreadable(path, &e))?;
        check_header(&mut file, path)?;
        let size = file
            .metadata()
            .map_err(|e| Error::io_during("read", path, e))?
            .len();
        let whole = (size - HEADER_SIZE) / RECORD_SIZE as u64;
        let records = keep.unwrap_or(whole);
        if records > whole {
            return Err(Error::input(format!(
                "{} holds {whole} records where its checkpoint counted {records}: it was changed since; label the games again into a new file",
                path.display()
            )));
        }
        let end = HEADER_SIZE + records * RECORD_SIZE as u64;
        file.set_len(end)
            .map_err(|e| Error::io_during("truncate", path, e))?;
        file.seek(SeekFrom::Start(end))
            .map_err(|e| Error::io_during("seek in", path, e))?;
        let writer = Writer {
            path: path.to_path_buf(),
            inner: BufWriter::new(file),
            records,
        };
        Ok((writer, records))
    }

    /// Appends one record.
    pub fn push(&mut self, record: &Labelled) -> Result<()> {
        self.inner
            .write_all(&record.encode())
            .map_err(|e| Error::io(&self.path, e))?;
        self.records += 1;
        Ok(())
    }

    /// Records in the file, counting those pushed.
    #[must_use]
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Writes what is buffered and asks the system to keep it (a checkpoint).
    pub fn sync(&mut self) -> Result<()> {
        self.inner.flush().map_err(|e| Error::io(&self.path, e))?;
        self.inner
            .get_ref()
            .sync_data()
            .map_err(|e| Error::io(&self.path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(game: u32) -> Labelled {
        Labelled {
            player: 0x0000_0008_1000_0000,
            opponent: 0x0000_0010_0800_0000,
            value: -3 * 64 + 5,
            label: if game.is_multiple_of(2) {
                Label::Search { depth: 12 }
            } else {
                Label::Exact
            },
            game,
        }
    }

    #[test]
    fn records_round_trip_and_the_layout_is_the_documented_one() {
        let record = sample(7);
        let bytes = record.encode();
        assert_eq!(&bytes[0..8], &record.player.to_le_bytes());
        assert_eq!(&bytes[16..18], &(-187i16).to_le_bytes());
        assert_eq!(bytes[18], 1);
        assert_eq!(u32::from(bytes[19]), record.empties());
        assert_eq!(&bytes[20..24], &7u32.to_le_bytes());
        assert_eq!(Labelled::decode(&bytes), Some(record));
        assert_eq!(Labelled::decode(&sample(4).encode()), Some(sample(4)));
        let mut bad = bytes;
        bad[18] = 2;
        assert_eq!(Labelled::decode(&bad), None);
        bad = bytes;
        bad[19] = 3;
        assert_eq!(Labelled::decode(&bad), None);
    }

    #[test]
    fn a_file_written_cut_and_resumed_reads_back_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.bin");
        let mut writer = Writer::create(&path).unwrap();
        for game in 0..5 {
            writer.push(&sample(game)).unwrap();
        }
        writer.sync().unwrap();
        drop(writer);
        assert!(Writer::create(&path).is_err());
        // A kill in the middle of a record leaves a torn tail.
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        (&file).write_all(&[1, 2, 3]).unwrap();
        assert!(Reader::open(&path).is_err());
        let (mut writer, records) = Writer::resume(&path, None).unwrap();
        assert_eq!(records, 5);
        writer.push(&sample(5)).unwrap();
        writer.sync().unwrap();
        drop(writer);
        let read: Vec<_> = Reader::open(&path).unwrap().map(Result::unwrap).collect();
        assert_eq!(read, (0..6).map(sample).collect::<Vec<_>>());
        std::fs::write(&path, b"not a positions file at all, no").unwrap();
        assert!(Reader::open(&path).is_err());
    }
}
