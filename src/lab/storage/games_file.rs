//! The games file of a results folder, plain (`games.csv`) or compressed (`games.csv.zst`):
//! one writer, one reader and one recovery after a kill for both, so every command that
//! reads games (`report`, `merge`, `--resume`) takes either.

pub use super::file_names::{find, Compression};
use crate::error::{Error, Result};
use crate::shown::ShowPath;
use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

/// The zstd level: level 1 compresses games about 2.4x at some 450,000 games/s on one
/// core, ahead of the players; level 3 gains 4% in size at half the speed.
const LEVEL: i32 = 1;

fn compression_of(path: &Path) -> Compression {
    if path.extension().is_some_and(|e| e == "zst") {
        Compression::Zstd
    } else {
        Compression::None
    }
}

/// Reads a games file, decompressing a `.zst` one. A compressed file cut short by a kill
/// reads up to its last complete block and then fails; [`recover`] mends it first.
pub fn reader(path: &Path) -> Result<Box<dyn Read>> {
    let file = File::open(path).map_err(|e| Error::unreadable(path, &e))?;
    Ok(match compression_of(path) {
        Compression::None => Box::new(BufReader::with_capacity(1 << 16, file)),
        Compression::Zstd => Box::new(
            zstd::stream::read::Decoder::new(file)
                .map_err(|e| Error::io_during("read", path, e))?,
        ),
    })
}

/// A CSV reader over a games file.
pub fn csv_reader(path: &Path) -> Result<csv::Reader<Box<dyn Read>>> {
    Ok(csv::Reader::from_reader(reader(path)?))
}

/// A row of a games file that cannot be read, in the project's words: a cut row
/// (a run stopped while writing) names its line and the repair, a damaged one the
/// column it fails in.
#[must_use]
pub fn row_error(path: &Path, error: &csv::Error) -> Error {
    let header: Vec<&str> = GAME_COLUMNS.iter().map(String::as_str).collect();
    super::rows::row_error(path, &header, GAMES_FILE, error)
}

/// How a games file is made whole: a cut one by resuming its run.
const GAMES_FILE: super::rows::TableKind = super::rows::TableKind {
    cut: "`reversi-lab run --resume` on its folder repairs it",
    remake: "make it again with `run --force`, or `run --resume` for a file cut by a kill",
};

/// The columns of `games.csv`, in order, from the row type itself.
static GAME_COLUMNS: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
    let header = super::rows::csv_header::<super::rows::GameRow<'static>>();
    String::from_utf8_lossy(&header)
        .trim_end()
        .split(',')
        .map(str::to_string)
        .collect()
});

/// Refuses a games file that holds no games (empty, or its header alone): a command
/// that reads games would otherwise write an empty analysis, export or report.
pub fn check_has_games(path: &Path) -> Result<()> {
    let mut reader = csv_reader(path)?;
    let mut record = csv::ByteRecord::new();
    match reader.read_byte_record(&mut record) {
        Ok(true) => Ok(()),
        Ok(false) => Err(Error::input(format!(
            "{} holds no games: run the experiment first, or give a folder whose run has played",
            path.shown()
        ))),
        Err(e) => Err(row_error(path, &e)),
    }
}

/// Writes games into a new or existing games file; [`finish`](Self::finish) completes it.
pub enum GamesWriter {
    /// `games.csv`.
    Plain(BufWriter<File>),
    /// `games.csv.zst`: each session appends a Zstandard frame (frames concatenate).
    Zstd(zstd::stream::write::Encoder<'static, BufWriter<File>>),
    /// `games.csv.zst` written whole in one go, sealed as it is written (see [`seal`]).
    Sealed(Box<OneFrame<BufWriter<File>>>),
}

impl GamesWriter {
    /// Creates (or truncates) `path` holding `header`, finished.
    pub fn create(path: &Path, compression: Compression, header: &[u8]) -> Result<()> {
        let mut writer = Self::open(path, compression, false)?;
        writer.write_all(header).map_err(|e| Error::io(path, e))?;
        writer.finish(path)
    }

    /// Opens `path` to append to it, or to write it anew (`append` false).
    pub fn open(path: &Path, compression: Compression, append: bool) -> Result<Self> {
        let file = super::folder::grow_or_start(path, append)
            .map_err(|e| Error::io_during(if append { "open" } else { "create" }, path, e))?;
        let file = BufWriter::with_capacity(1 << 20, file);
        Ok(match compression {
            Compression::None => GamesWriter::Plain(file),
            Compression::Zstd => GamesWriter::Zstd(
                zstd::stream::write::Encoder::new(file, LEVEL)
                    .map_err(|e| Error::io_during("compress", path, e))?,
            ),
        })
    }

    /// Writes `path` anew in one go: a compressed file comes out sealed (see [`seal`]),
    /// as `merge` needs to equal a finished run's file byte for byte.
    pub fn whole(path: &Path, compression: Compression) -> Result<Self> {
        Ok(match Self::open(path, Compression::None, false)? {
            GamesWriter::Plain(file) if compression == Compression::Zstd => GamesWriter::Sealed(
                Box::new(OneFrame::new(file).map_err(|e| Error::io_during("compress", path, e))?),
            ),
            plain => plain,
        })
    }

    /// Flushes everything and ends a compressed frame.
    pub fn finish(self, path: &Path) -> Result<()> {
        let mut inner = match self {
            GamesWriter::Plain(w) => w,
            GamesWriter::Zstd(e) => e.finish().map_err(|e| Error::io(path, e))?,
            GamesWriter::Sealed(f) => f.finish().map_err(|e| Error::io(path, e))?,
        };
        inner.flush().map_err(|e| Error::io(path, e))
    }
}

impl Write for GamesWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            GamesWriter::Plain(w) => w.write(buf),
            GamesWriter::Zstd(e) => e.write(buf),
            GamesWriter::Sealed(f) => f.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            GamesWriter::Plain(w) => w.write_all(buf),
            GamesWriter::Zstd(e) => e.write_all(buf),
            GamesWriter::Sealed(f) => f.write_all(buf),
        }
    }

    /// Makes every row written so far readable from the file (a compressed block ends).
    fn flush(&mut self) -> io::Result<()> {
        match self {
            GamesWriter::Plain(w) => w.flush(),
            GamesWriter::Zstd(e) => {
                e.flush()?;
                e.get_mut().flush()
            }
            GamesWriter::Sealed(f) => f.flush(),
        }
    }
}

/// Bytes fed to the encoder at a time when sealing: Zstandard's output depends on how
/// its input is cut into writes, so every sealed file is fed in the same pieces.
const SEAL_PIECE: usize = 1 << 17;

/// A compressed games file written as one frame, its input fed to the encoder in
/// pieces of [`SEAL_PIECE`] bytes whatever the writes: a sealed file's bytes depend on
/// its text alone.
pub struct OneFrame<W: Write> {
    encoder: zstd::stream::write::Encoder<'static, W>,
    piece: Vec<u8>,
}

impl<W: Write> OneFrame<W> {
    fn new(out: W) -> io::Result<Self> {
        Ok(OneFrame {
            encoder: zstd::stream::write::Encoder::new(out, LEVEL)?,
            piece: Vec::with_capacity(SEAL_PIECE),
        })
    }

    fn finish(mut self) -> io::Result<W> {
        self.encoder.write_all(&self.piece)?;
        self.encoder.finish()
    }
}

impl<W: Write> Write for OneFrame<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = buf.len().min(SEAL_PIECE - self.piece.len());
        self.piece.extend_from_slice(&buf[..n]);
        if self.piece.len() == SEAL_PIECE {
            self.encoder.write_all(&self.piece)?;
            self.piece.clear();
        }
        Ok(n)
    }

    /// Ends no block: the frame's bytes must not depend on when it was flushed.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A reader that hashes every byte read through it: `merge` checks a shard's games
/// against the digest the shard recorded while it streams them.
pub struct Hashing<R> {
    inner: R,
    hasher: sha2::Sha256,
}

impl<R: Read> Hashing<R> {
    /// Hashes what is read from `inner`.
    pub fn new(inner: R) -> Self {
        Hashing {
            inner,
            hasher: sha2::Sha256::default(),
        }
    }

    /// Reads the rest and returns the SHA-256 (hex) of everything read.
    pub fn finish(mut self) -> io::Result<String> {
        io::copy(&mut self, &mut io::sink())?;
        Ok(hex(&sha2::Digest::finalize(self.hasher)))
    }
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        sha2::Digest::update(&mut self.hasher, &buf[..n]);
        Ok(n)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Seals a finished games file and returns the SHA-256 (hex) of its text (header and
/// rows, decompressed). A compressed file is written again as one Zstandard frame
/// without flushes, since the frames and blocks a run leaves depend on when it was
/// stopped and flushed: sealed, it is byte for byte the file a merge writes in one go.
pub fn seal(path: &Path) -> Result<String> {
    let mut text = Hashing::new(reader(path)?);
    if compression_of(path) == Compression::None {
        return text.finish().map_err(|e| Error::io_during("read", path, e));
    }
    let text = super::folder::write_output(path, |out| {
        let mut frame = OneFrame::new(out).map_err(|e| Error::io_during("compress", path, e))?;
        io::copy(&mut text, &mut frame).map_err(|e| Error::io_during("compress", path, e))?;
        frame.finish().map_err(|e| Error::io(path, e))?;
        Ok(text)
    })?;
    text.finish().map_err(|e| Error::io_during("read", path, e))
}

/// Where the kept part of `text` ends: after its last whole record, and with `rows`,
/// after at most the header and that many rows. Records, not lines: a player's name
/// may hold a line break (quoted). A record is whole when it ends with its line break
/// and has the header's fields (a row cut inside a quoted name has fewer).
fn kept_length(text: &[u8], rows: Option<u64>) -> usize {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text);
    let mut record = csv::ByteRecord::new();
    let mut fields = None;
    let (mut kept, mut records) = (0, 0u64);
    while let Ok(true) = reader.read_byte_record(&mut record) {
        let end = reader.position().byte() as usize;
        let whole = end > 0
            && text[end - 1] == b'\n'
            && *fields.get_or_insert(record.len()) == record.len();
        if !whole || rows.is_some_and(|rows| records > rows) {
            break;
        }
        kept = end;
        records += 1;
    }
    kept
}

/// Cuts a games file back to whole rows after a kill (a partial last row, or an
/// unfinished compressed frame), and with `rows` to at most that many rows (games
/// past a checkpoint, to be played again).
pub fn recover(path: &Path, rows: Option<u64>) -> Result<()> {
    match compression_of(path) {
        Compression::None => {
            let bytes = fs::read(path).map_err(|e| Error::io_during("read", path, e))?;
            let keep = kept_length(&bytes, rows);
            if keep < bytes.len() {
                super::folder::cut_to(path, keep as u64).map_err(|e| Error::io(path, e))?;
            }
        }
        Compression::Zstd => {
            let mut text = Vec::new();
            let complete = reader(path)?.read_to_end(&mut text).is_ok();
            let keep = kept_length(&text, rows);
            if complete && keep == text.len() {
                return Ok(());
            }
            // Rewritten whole through a temporary file, so a second kill loses nothing.
            let temporary = path.with_extension("zst.tmp");
            let mut writer = GamesWriter::open(&temporary, Compression::Zstd, false)?;
            writer
                .write_all(&text[..keep])
                .map_err(|e| Error::io(&temporary, e))?;
            writer.finish(&temporary)?;
            fs::rename(&temporary, path).map_err(|e| Error::io_during("rename", path, e))?;
        }
    }
    Ok(())
}

/// Whether two files hold the same bytes, compared in pieces (a merge's games against
/// the merged games already there).
pub(crate) fn same_bytes(a: &Path, b: &Path) -> Result<bool> {
    let open = |p: &Path| {
        fs::File::open(p)
            .map(|f| std::io::BufReader::with_capacity(1 << 16, f))
            .map_err(|e| Error::io_during("read", p, e))
    };
    let (mut x, mut y) = (open(a)?, open(b)?);
    let (mut bx, mut by) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let n = read_full(&mut x, &mut bx).map_err(|e| Error::io_during("read", a, e))?;
        let m = read_full(&mut y, &mut by).map_err(|e| Error::io_during("read", b, e))?;
        if n != m || bx[..n] != by[..m] {
            return Ok(false);
        }
        if n == 0 {
            return Ok(true);
        }
    }
}

fn read_full(from: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match from.read(&mut buf[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_records_are_kept_whatever_line_breaks_names_hold() {
        let text = b"a,b\n1,\"x\ny\"\n2,z\n3,\"p\nq";
        // The header and rows 1 and 2: the third is cut inside its quoted name.
        assert_eq!(kept_length(text, None), 16);
        assert_eq!(&text[..kept_length(text, Some(1))], b"a,b\n1,\"x\ny\"\n");
        assert_eq!(kept_length(text, Some(0)), 4);
        assert_eq!(kept_length(b"a,b\n1,2", None), 4);
        assert_eq!(kept_length(b"a,b\n1\n", None), 4);
    }

    #[test]
    fn a_compressed_file_cut_anywhere_recovers_whole_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv.zst");
        GamesWriter::create(&path, Compression::Zstd, b"a,b\n").unwrap();
        let mut w = GamesWriter::open(&path, Compression::Zstd, true).unwrap();
        for i in 0..2000 {
            writeln!(w, "{i},{}", i * 7).unwrap();
            if i % 300 == 0 {
                w.flush().unwrap();
            }
        }
        w.flush().unwrap();
        drop(w); // a kill: the frame is never finished
        let full = fs::read(&path).unwrap();
        for cut in [full.len(), full.len() - 3, full.len() / 2, 20] {
            fs::write(&path, &full[..cut]).unwrap();
            recover(&path, None).unwrap();
            let mut text = String::new();
            reader(&path).unwrap().read_to_string(&mut text).unwrap();
            assert!(text.starts_with("a,b\n0,0\n") || cut == 20, "{cut}");
            assert!(text.ends_with('\n') || text.is_empty());
            // Appending after recovery reads back as one file.
            let mut w = GamesWriter::open(&path, Compression::Zstd, true).unwrap();
            w.write_all(b"end,0\n").unwrap();
            w.finish(&path).unwrap();
            let mut again = String::new();
            reader(&path).unwrap().read_to_string(&mut again).unwrap();
            assert_eq!(again, format!("{text}end,0\n"));
        }
    }
}
