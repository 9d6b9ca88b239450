//! The WTHOR database format of the Fédération Française d'Othello: the archive of
//! tournament games (`WTH_YYYY.wtb`, one file a year) and the files naming its players
//! (`WTHOR.JOU`) and tournaments (`WTHOR.TRN`).
//!
//! Every file opens with a 16-byte header, little-endian: the century, year, month and
//! day it was made (bytes 0-3), the number of games (4-7, a u32; 0 in a names file), the
//! number of names (8-9, a u16; 0 in a game file), the year of the games (10-11), the
//! board size (12: 0 or 8 for 8x8, 10 for 10x10), the game type (13), the depth of the
//! theoretical score (14) and a reserved byte. An 8x8 game is then 68 bytes: the
//! tournament, black and white player numbers (u16 each), black's disc count at the end,
//! black's theoretical count, and 60 moves, each `10 * row + column` (11 is a1, 18 h1,
//! 88 h8), 0 after the last; passes are not written. A player's name takes 20 bytes, a
//! tournament's 26, each ended by a zero byte (Latin-1 text).

use crate::board::{Size8, Square};
use crate::error::{Error, Result};
use crate::game::Game;
use std::path::Path;

/// The header's length.
pub const HEADER: usize = 16;
/// An 8x8 game's length.
pub const RECORD: usize = 68;
/// A player's name's length in `WTHOR.JOU`.
pub const PLAYER_NAME: usize = 20;
/// A tournament's name's length in `WTHOR.TRN`.
pub const TOURNAMENT_NAME: usize = 26;
/// Moves a record holds.
const MOVES: usize = 60;

/// A file's header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// When the file was made: century, year, month, day.
    pub created: [u8; 4],
    /// Games in a game file.
    pub games: u32,
    /// Names in a names file.
    pub names: u16,
    /// The year of the games.
    pub year: u16,
    /// The board size byte (0 or 8: 8x8; 10: 10x10).
    pub board: u8,
    /// The game type byte.
    pub game_type: u8,
    /// The depth of the theoretical score (empties solved perfectly).
    pub depth: u8,
}

impl Header {
    /// Reads the first 16 bytes.
    #[must_use]
    pub fn read(bytes: &[u8; HEADER]) -> Self {
        Header {
            created: [bytes[0], bytes[1], bytes[2], bytes[3]],
            games: u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
            names: u16::from_le_bytes([bytes[8], bytes[9]]),
            year: u16::from_le_bytes([bytes[10], bytes[11]]),
            board: bytes[12],
            game_type: bytes[13],
            depth: bytes[14],
        }
    }

    /// The 16 bytes (for tests and tools that write files).
    #[must_use]
    pub fn bytes(&self) -> [u8; HEADER] {
        let mut out = [0u8; HEADER];
        out[..4].copy_from_slice(&self.created);
        out[4..8].copy_from_slice(&self.games.to_le_bytes());
        out[8..10].copy_from_slice(&self.names.to_le_bytes());
        out[10..12].copy_from_slice(&self.year.to_le_bytes());
        out[12] = self.board;
        out[13] = self.game_type;
        out[14] = self.depth;
        out
    }

    /// The date the file was made, `YYYY-MM-DD`.
    #[must_use]
    pub fn created(&self) -> String {
        let [century, year, month, day] = self.created;
        format!(
            "{:04}-{month:02}-{day:02}",
            u32::from(century) * 100 + u32::from(year)
        )
    }
}

/// One game of a game file, as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The tournament's number in `WTHOR.TRN`.
    pub tournament: u16,
    /// Black's number in `WTHOR.JOU`.
    pub black: u16,
    /// White's number in `WTHOR.JOU`.
    pub white: u16,
    /// Black's discs at the end, as the file records them.
    pub black_discs: u8,
    /// Black's discs with perfect play from `depth` empties on.
    pub theoretical: u8,
    /// The moves' bytes up to the first 0.
    pub moves: Vec<u8>,
}

impl Record {
    /// Reads one 68-byte record.
    #[must_use]
    pub fn read(bytes: &[u8; RECORD]) -> Self {
        let word = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        Record {
            tournament: word(0),
            black: word(2),
            white: word(4),
            black_discs: bytes[6],
            theoretical: bytes[7],
            moves: bytes[8..].iter().copied().take_while(|&b| b != 0).collect(),
        }
    }

    /// The 68 bytes (for tests and tools that write files).
    #[must_use]
    pub fn bytes(&self) -> [u8; RECORD] {
        let mut out = [0u8; RECORD];
        out[..2].copy_from_slice(&self.tournament.to_le_bytes());
        out[2..4].copy_from_slice(&self.black.to_le_bytes());
        out[4..6].copy_from_slice(&self.white.to_le_bytes());
        out[6] = self.black_discs;
        out[7] = self.theoretical;
        for (slot, &code) in out[8..].iter_mut().zip(self.moves.iter().take(MOVES)) {
            *slot = code;
        }
        out
    }

    /// The game as a transcript from the start (passes implicit), each move checked:
    /// a square's code, and a legal move for the side to move (a side that cannot move
    /// passes, as the file leaves passes out). An error names the move and what is wrong.
    pub fn transcript(&self) -> std::result::Result<String, String> {
        let mut game = Game::<Size8>::new();
        for (i, &code) in self.moves.iter().enumerate() {
            let ply = i + 1;
            let square = square(code).ok_or_else(|| {
                format!("move {ply} is byte {code}, not a square (10 * row + column, 11 for a1 to 88 for h8)")
            })?;
            game.play(square)
                .map_err(|e| format!("move {ply} ({}, byte {code}): {e}", square.name(8)))?;
        }
        Ok(game.transcript())
    }
}

/// The square of a move's byte, `10 * row + column` with both 1 to 8.
#[must_use]
pub fn square(code: u8) -> Option<Square> {
    let (row, column) = (code / 10, code % 10);
    ((1..=8).contains(&row) && (1..=8).contains(&column))
        .then(|| Square::new(u32::from((row - 1) * 8 + column - 1)))
}

/// The byte of a square of the 8x8 board.
#[must_use]
pub fn code(square: Square) -> u8 {
    let index = square.index() as u8;
    (index / 8 + 1) * 10 + index % 8 + 1
}

/// A game file read whole: its header and its games in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFile {
    /// The header.
    pub header: Header,
    /// The games.
    pub records: Vec<Record>,
}

/// The header of a file, or a refusal naming it: too short to hold one.
fn header(bytes: &[u8], path: &Path, what: &str) -> Result<Header> {
    let Some(first) = bytes.first_chunk::<HEADER>() else {
        return Err(Error::input(format!(
            "{} is {} bytes, too short for {what} (a 16-byte header comes first): the download was cut, or it is another kind of file",
            path.display(),
            bytes.len()
        )));
    };
    Ok(Header::read(first))
}

/// Reads a game file (`.wtb`): the header, then its 68-byte games. Refused with the
/// file's name and the fix: a 10x10 file, a file cut inside a game, and one whose
/// header counts other games than it holds.
pub fn read_game_file(bytes: &[u8], path: &Path) -> Result<GameFile> {
    let header = header(bytes, path, "a WTHOR game file")?;
    let name = path.display();
    if header.board == 10 {
        return Err(Error::input(format!(
            "{name} holds 10x10 games, which this reader does not take (their records have another layout): import 8x8 WTHOR files"
        )));
    }
    if !matches!(header.board, 0 | 8) {
        return Err(Error::input(format!(
            "{name}: the header gives board size {} (WTHOR game files have 0 or 8 for 8x8): it is not a WTHOR game file",
            header.board
        )));
    }
    if header.games == 0 && header.names > 0 {
        return Err(Error::input(format!(
            "{name} is a WTHOR names file ({} names, no games): pass it as WTHOR.JOU (players) or WTHOR.TRN (tournaments), with the .wtb files",
            header.names
        )));
    }
    let body = &bytes[HEADER..];
    let whole = body.len() / RECORD;
    if !body.len().is_multiple_of(RECORD) {
        return Err(Error::input(format!(
            "{name} is cut: after its header it holds {} and {} of another (a game is {RECORD} bytes; the header counts {}): download it again",
            crate::numbers::counted(whole as u64, "whole game"),
            crate::numbers::counted((body.len() % RECORD) as u64, "byte"),
            header.games
        )));
    }
    if whole as u64 != u64::from(header.games) {
        return Err(Error::input(format!(
            "{name}: the header counts {} games but the file holds {whole} ({} bytes after the header, {RECORD} a game): the file is damaged or cut; download it again",
            header.games,
            body.len()
        )));
    }
    let records = body
        .chunks_exact(RECORD)
        .map(|chunk| Record::read(chunk.try_into().expect("chunks are whole records")))
        .collect();
    Ok(GameFile { header, records })
}

/// Reads a names file (`WTHOR.JOU` with `width` 20, `WTHOR.TRN` with 26): the names in
/// order of their numbers, Latin-1 decoded, cut at their first zero byte and trimmed.
pub fn read_names(bytes: &[u8], path: &Path, width: usize) -> Result<Vec<String>> {
    let header = header(bytes, path, "a WTHOR names file")?;
    let name = path.display();
    let body = &bytes[HEADER..];
    if header.games > 0 {
        return Err(Error::input(format!(
            "{name} is a WTHOR game file ({} games), not a names file: give it a .wtb name",
            header.games
        )));
    }
    if !body.len().is_multiple_of(width) || body.len() / width != usize::from(header.names) {
        return Err(Error::input(format!(
            "{name}: the header counts {} names of {width} bytes but {} bytes follow it: the file is damaged or cut; download it again",
            header.names,
            body.len()
        )));
    }
    Ok(body
        .chunks_exact(width)
        .map(|chunk| {
            let text: String = chunk
                .iter()
                .take_while(|&&b| b != 0)
                .map(|&b| char::from(b))
                .collect();
            text.trim().to_string()
        })
        .collect())
}

/// A names file's bytes: a header counting `names`, then each name in `width` bytes.
#[must_use]
pub fn names_file(names: &[&str], width: usize) -> Vec<u8> {
    let header = Header {
        created: [20, 26, 1, 1],
        names: names.len() as u16,
        ..Header::default()
    };
    let mut out = header.bytes().to_vec();
    for name in names {
        let mut field = vec![0u8; width];
        for (slot, b) in field.iter_mut().zip(name.bytes().take(width - 1)) {
            *slot = b;
        }
        out.extend_from_slice(&field);
    }
    out
}

/// A game file's bytes: a header for `year` counting the records, then the records.
#[must_use]
pub fn game_file(year: u16, records: &[Record]) -> Vec<u8> {
    let header = Header {
        created: [20, 26, 1, 1],
        games: records.len() as u32,
        year,
        board: 8,
        depth: 22,
        ..Header::default()
    };
    let mut out = header.bytes().to_vec();
    for record in records {
        out.extend_from_slice(&record.bytes());
    }
    out
}

/// A record of the game `transcript` (bytes of its moves), with these numbers.
#[must_use]
pub fn record_of(transcript: &str, black: u16, white: u16, black_discs: u8) -> Record {
    let game = Game::<Size8>::from_transcript(transcript).expect("a legal transcript");
    Record {
        tournament: 0,
        black,
        white,
        black_discs,
        theoretical: black_discs,
        moves: game.moves().iter().map(|&s| code(s)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Game 1 of tests/golden/round-robin: 60 moves, 2 passes, 24 to 40.
    const WITH_PASSES: &str = "f5f4e3d2g3d6c1g4c5g2h4d3d7c7g1h2e6g5g6f2b8f6e1h6g7e2f3e7e8c2d1b6a7f8g8h7c3b5a5c6b7h8f7d8h5b4a3b2c4b1f1c8a2a1b3h3h1a8a6a4";
    /// The shortest game: black wipes white out in 9 moves, 13 to 0 with 51 empty.
    const WIPE_OUT: &str = "d3c3b3d2e1d6d7e3f4";

    #[test]
    fn squares_are_ten_times_the_row_plus_the_column() {
        assert_eq!(square(11).unwrap().name(8), "a1");
        assert_eq!(square(18).unwrap().name(8), "h1");
        assert_eq!(square(56).unwrap().name(8), "f5");
        assert_eq!(square(88).unwrap().name(8), "h8");
        for bad in [0, 10, 19, 9, 89, 90, 255] {
            assert!(square(bad).is_none(), "{bad}");
        }
        for index in 0..64 {
            assert_eq!(square(code(Square::new(index))), Some(Square::new(index)));
        }
    }

    #[test]
    fn a_file_built_here_reads_back_with_its_passes() {
        let games = [
            record_of(WITH_PASSES, 3, 1, 24),
            record_of(WIPE_OUT, 1, 2, 64),
        ];
        let bytes = game_file(2004, &games);
        assert_eq!(bytes.len(), HEADER + 2 * RECORD);
        let file = read_game_file(&bytes, Path::new("WTH_2004.wtb")).unwrap();
        assert_eq!(file.header.year, 2004);
        assert_eq!(file.header.games, 2);
        assert_eq!(file.header.created(), "2026-01-01");
        assert_eq!(file.records, games);
        // 60 moves, no byte for either pass: the replay finds them.
        assert_eq!(file.records[0].moves.len(), 60);
        assert_eq!(file.records[0].transcript().unwrap(), WITH_PASSES);
        let replayed = Game::<Size8>::from_transcript(WITH_PASSES).unwrap();
        assert_eq!(replayed.passes(), 2);
        assert_eq!(file.records[1].transcript().unwrap(), WIPE_OUT);
        assert_eq!(file.records[1].moves.len(), 9);
    }

    #[test]
    fn bad_records_and_files_are_named() {
        let mut illegal = record_of(WIPE_OUT, 1, 2, 64);
        illegal.moves[1] = 11; // a1 for white's first move
        let err = illegal.transcript().unwrap_err();
        assert!(
            err.starts_with("move 2 (a1, byte 11): a1 is not a legal move for white"),
            "{err}"
        );
        let mut unreadable = record_of(WIPE_OUT, 1, 2, 64);
        unreadable.moves[0] = 99;
        assert!(unreadable
            .transcript()
            .unwrap_err()
            .contains("move 1 is byte 99"));
        let mut late = record_of(WIPE_OUT, 1, 2, 64);
        late.moves.push(code(Square::parse("c3", 8).unwrap()));
        assert!(late.transcript().unwrap_err().contains("the game is over"));

        let path = Path::new("WTH_2004.wtb");
        let bytes = game_file(2004, &[record_of(WIPE_OUT, 1, 2, 64)]);
        let cut = read_game_file(&bytes[..bytes.len() - 5], path)
            .unwrap_err()
            .to_string();
        assert!(
            cut.contains("WTH_2004.wtb is cut") && cut.contains("63 bytes"),
            "{cut}"
        );
        let short = read_game_file(&bytes[..10], path).unwrap_err().to_string();
        assert!(short.contains("too short"), "{short}");
        let mut miscounted = bytes.clone();
        miscounted[4] = 3;
        let err = read_game_file(&miscounted, path).unwrap_err().to_string();
        assert!(err.contains("counts 3 games but the file holds 1"), "{err}");
        let mut ten = bytes.clone();
        ten[12] = 10;
        let err = read_game_file(&ten, path).unwrap_err().to_string();
        assert!(err.contains("10x10"), "{err}");
        let names = names_file(&["a", "b"], PLAYER_NAME);
        assert!(read_game_file(&names, path)
            .unwrap_err()
            .to_string()
            .contains("names file"));
    }

    #[test]
    fn names_are_read_in_their_numbers_order() {
        let path = Path::new("WTHOR.JOU");
        let bytes = names_file(&["Tastet Marc", "  Shaman Brian  ", ""], PLAYER_NAME);
        assert_eq!(bytes.len(), HEADER + 3 * PLAYER_NAME);
        assert_eq!(
            read_names(&bytes, path, PLAYER_NAME).unwrap(),
            ["Tastet Marc", "Shaman Brian", ""]
        );
        // Latin-1: one byte a character.
        let mut accented = names_file(&["Leve"], PLAYER_NAME);
        accented[HEADER + 3] = 0xe9;
        assert_eq!(
            read_names(&accented, path, PLAYER_NAME).unwrap(),
            ["Lev\u{e9}"]
        );
        let err = read_names(&bytes[..bytes.len() - 1], path, PLAYER_NAME)
            .unwrap_err()
            .to_string();
        assert!(err.contains("counts 3 names of 20 bytes"), "{err}");
    }
}
