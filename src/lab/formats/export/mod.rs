//! `reversi-lab export`: a results folder's games in other shapes, streamed game by
//! game from `games.csv` (or `.zst`): GGF for Othello servers and analysis programs
//! ([`ggf`]), or one CSV row per move ([`MoveRow`]) for move-level analysis.

pub mod ggf;

use crate::board::{Bits, Color, Geometry, Position};
use crate::error::{Error, Result};
use crate::game::{Line, Rules};
use crate::lab::storage::games_file;
use crate::lab::storage::results_folder::{FolderFile, ResultsFolder};
use crate::lab::storage::rows::{csv_header, csv_row, GameRow, MoveRow};
use crate::with_geometry;
use std::borrow::Cow;
use std::io::Write;
use std::path::Path;

/// What `export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One game per line in the Generic Game Format.
    Ggf,
    /// One CSV row per turn ([`MoveRow`]).
    CsvMoves,
}

/// The size and rules a results folder's games were played under, and the date its
/// run started (from `run.toml`).
pub struct Recorded {
    /// Board size.
    pub size: u32,
    /// Rules.
    pub rules: Rules,
    /// When the run started (RFC 3339).
    pub started: String,
    /// Whether the run has finished (else `games.csv` may end in a row cut by a kill).
    pub finished: bool,
}

impl Recorded {
    /// Reads `dir/run.toml`.
    pub fn load(dir: &Path) -> Result<Self> {
        let folder = ResultsFolder::at(dir);
        let path = folder.path(FolderFile::RunRecord);
        if let Some(shards) = crate::lab::shard::Unmerged::find(dir) {
            return Err(shards.refusal(dir, "export the merged folder"));
        }
        let record = folder.record("give the folder a run wrote, such as results/default")?;
        let (size, rules) = super::recorded::size_and_rules(&record.experiment, &path)?;
        Ok(Recorded {
            size,
            rules,
            started: record.run.started,
            finished: record.run.status.is_finished(),
        })
    }
}

/// Writes every game of the results folder `dir` to `out` (named `name` in errors,
/// such as its file or "standard output") in `format`; returns the number of games.
/// Games stream one at a time, so memory does not grow with the file.
pub fn export(dir: &Path, format: Format, out: &mut dyn Write, name: &Path) -> Result<u64> {
    let recorded = Recorded::load(dir)?;
    let Some((path, _)) = games_file::find(dir) else {
        return Err(Error::input(format!(
            "{} has no games.csv: export a folder that holds games (a tune's are in its validation folders)",
            dir.display()
        )));
    };
    games_file::check_has_games(&path)?;
    with_geometry!(recorded.size, G => stream::<G>(&path, &recorded, format, out, name))
}

fn stream<G: Geometry>(
    path: &Path,
    recorded: &Recorded,
    format: Format,
    out: &mut dyn Write,
    name: &Path,
) -> Result<u64> {
    let write_error = |e: std::io::Error| Error::io(name, e);
    let mut reader = games_file::csv_reader(path)?;
    let mut buffer: Vec<u8> = Vec::with_capacity(1 << 16);
    let mut text = String::new();
    let date = ggf::date(&recorded.started);
    if format == Format::CsvMoves {
        buffer.extend_from_slice(&csv_header::<MoveRow>());
    }
    let mut games = 0u64;
    // One line for every game, its room kept. Its passes come wherever the side to
    // move has no move before a move: a game lost by a fault ends on a move.
    let mut line = Line::<G>::new(Position::start());
    for row in reader.deserialize::<GameRow>() {
        let row = match row {
            Ok(row) => row,
            // A run still playing, or killed: its last row may be cut short.
            Err(_) if !recorded.finished => break,
            Err(e) => return Err(games_file::row_error(path, &e)),
        };
        line.restart(Position::start());
        line.play_transcript(&row.moves).map_err(|e| {
            Error::input(format!(
                "{}: game {} cannot be replayed: {e} (is the folder's run.toml the one that played it?)",
                path.display(),
                row.game_id
            ))
        })?;
        match format {
            Format::Ggf => {
                text.clear();
                ggf::write_game::<G>(&row, recorded.rules, &date, &line, &mut text)?;
                text.push('\n');
                buffer.extend_from_slice(text.as_bytes());
            }
            Format::CsvMoves => move_rows::<G>(&row, &line, &mut buffer),
        }
        games += 1;
        if buffer.len() >= 1 << 16 {
            match out.write_all(&buffer) {
                // A reader that stopped early (`| head`) is not a failure.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(games),
                other => other.map_err(write_error)?,
            }
            buffer.clear();
        }
    }
    match out.write_all(&buffer).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(games),
        other => other.map(|()| games).map_err(write_error),
    }
}

/// Appends a game's rows of `csv-moves` to `into`.
fn move_rows<G: Geometry>(row: &GameRow<'_>, line: &Line<G>, into: &mut Vec<u8>) {
    let mut name = String::with_capacity(3);
    // The opening is a prefix of the transcript: its turns are those whose squares'
    // names fit inside its text (passes in an opening belong to it too).
    let mut written = 0usize;
    let opening_length = row.opening.len();
    for (i, turn) in line.turns().iter().enumerate() {
        name.clear();
        let (square, in_opening) = match turn.square {
            Some(square) => {
                square.push_name(G::SIZE, &mut name);
                written += name.len();
                (Cow::Borrowed(name.as_str()), written <= opening_length)
            }
            None => (Cow::Borrowed("pass"), written < opening_length),
        };
        let player = match turn.side() {
            Color::Black => &row.black,
            Color::White => &row.white,
        };
        let counts = line.after(i);
        csv_row(
            &MoveRow {
                game_id: row.game_id,
                ply: i as u32 + 1,
                player: Cow::Borrowed(player),
                colour: Cow::Borrowed(turn.side().name()),
                square,
                opening: in_opening,
                black_discs: counts.black().count(),
                white_discs: counts.white().count(),
            },
            into,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size8;

    /// Game 1 of tests/golden/round-robin: 60 moves, 2 passes, 24 to 40.
    const GOLDEN: &str = "f5f4e3d2g3d6c1g4c5g2h4d3d7c7g1h2e6g5g6f2b8f6e1h6g7e2f3e7e8c2d1b6a7f8g8h7c3b5a5c6b7h8f7d8h5b4a3b2c4b1f1c8a2a1b3h3h1a8a6a4";

    fn golden() -> Line<Size8> {
        let mut line = Line::new(Position::start());
        line.play_transcript(GOLDEN).unwrap();
        line
    }

    #[test]
    fn passes_are_written_out_where_the_rules_make_them() {
        let line = golden();
        let turns = line.turns();
        assert_eq!(turns.iter().filter(|t| t.square.is_none()).count(), 2);
        assert_eq!(turns.len(), 62);
        // Turns alternate colours strictly once passes are in: what GGF needs.
        assert!(turns.windows(2).all(|w| w[0].side() != w[1].side()));
        // A pass leaves the board as it was.
        for (i, t) in turns.iter().enumerate().skip(1) {
            if t.square.is_none() {
                assert_eq!(line.after(i).black(), line.after(i - 1).black());
            }
        }
    }

    #[test]
    fn the_last_turn_has_the_final_counts() {
        let line = golden();
        let last = line.after(line.turns().len() - 1);
        assert_eq!((last.black().count(), last.white().count()), (24, 40));
    }

    #[test]
    fn a_game_that_stops_before_a_forced_pass_ends_on_its_move() {
        // Up to the move before the first pass: a game lost by a fault there ends on
        // the move, as the driver's record does, with no pass written after it.
        let full = golden();
        let pass = full
            .turns()
            .iter()
            .position(|t| t.square.is_none())
            .unwrap();
        let mut line = Line::<Size8>::new(Position::start());
        line.play_transcript(&crate::game::format_transcript(&full.moves()[..pass], 8))
            .unwrap();
        assert!(line.must_pass());
        assert_eq!(line.turns().len(), pass);
        assert!(line.turns().last().unwrap().square.is_some());
    }
}
