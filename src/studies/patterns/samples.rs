//! The positions a fit reads: from results folders (every position of every game,
//! labelled with the game's final margin) or from labelled-positions files (`label`'s
//! deep-search and exact values), 24 bytes each whatever their source.

use crate::board::{Board, Color, Size8};
use crate::error::{Error, Result};
use crate::game::{Game, Rules};
use crate::lab::positions::Reader;
use crate::lab::rows::GameRow;
use crate::lab::{games_file, recorded_run};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Games whose id is a multiple of this are held out to measure the fit.
pub const HOLD_OUT_EVERY: u64 = 10;

/// One position and its label, in discs for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The side to move's discs.
    pub player: u64,
    /// The opponent's discs.
    pub opponent: u64,
    /// The label in discs.
    pub label: f32,
    /// Empty squares.
    pub empties: u8,
    /// Whether it belongs to the held-out games.
    pub held_out: bool,
}

impl Sample {
    fn new(player: u64, opponent: u64, label: f32, game: u64) -> Self {
        Sample {
            player,
            opponent,
            label,
            empties: (64 - (player | opponent).count_ones()) as u8,
            held_out: game.is_multiple_of(HOLD_OUT_EVERY),
        }
    }
}

/// Everything read.
pub struct Samples {
    /// The positions, in the inputs' order.
    pub samples: Vec<Sample>,
    /// Distinct games they came from (per input).
    pub games: usize,
}

/// Reads every input: a folder is a results folder's games, a file a positions file.
pub fn read(inputs: &[PathBuf]) -> Result<Samples> {
    let mut out = Samples {
        samples: Vec::new(),
        games: 0,
    };
    for input in inputs {
        if input.is_file() {
            read_positions(input, &mut out)?;
        } else {
            read_games(input, &mut out)?;
        }
    }
    Ok(out)
}

fn read_positions(path: &Path, out: &mut Samples) -> Result<()> {
    let reader = Reader::open(path)?;
    out.samples.reserve(reader.len() as usize);
    let mut games = HashSet::new();
    for record in reader {
        let record = record?;
        games.insert(record.game);
        out.samples.push(Sample::new(
            record.player,
            record.opponent,
            record.discs() as f32,
            u64::from(record.game),
        ));
    }
    out.games += games.len();
    Ok(())
}

/// The games file of the results folder `dir`, which must hold 8x8 games under the
/// standard rules (the patterns' board); `purpose` says what needs them, as in
/// "patterns are fitted to".
pub fn standard_games(dir: &Path, verb: &str, purpose: &str) -> Result<PathBuf> {
    let run = recorded_run(dir, verb)?;
    games_file::check_has_games(&run.games)?;
    if run.size != 8 || run.rules != Rules::default() {
        let what = if run.size == 8 {
            "other rules than the standard ones".to_string()
        } else {
            format!("{}x{}", run.size, run.size)
        };
        return Err(Error::input(format!(
            "{} holds games on {what}: {purpose} 8x8 games under the standard rules",
            dir.display()
        )));
    }
    Ok(run.games)
}

/// The game of `row` (from the games file `path`), as each position before a move
/// with the colour to move there.
pub fn positions_before_moves(
    row: &GameRow<'_>,
    path: &Path,
) -> Result<Vec<(Board<Size8>, Color)>> {
    let played = Game::<Size8>::from_transcript(&row.moves).map_err(|e| {
        Error::input(format!(
            "game {} of {} does not replay: move {} {}: its games file is damaged",
            row.game_id,
            path.display(),
            e.ply,
            e.reason
        ))
    })?;
    let mut game = Game::<Size8>::new();
    let mut out = Vec::with_capacity(played.moves().len());
    for &square in played.moves() {
        out.push((game.board(), game.side()));
        game.play_unchecked(square);
    }
    Ok(out)
}

fn read_games(dir: &Path, out: &mut Samples) -> Result<()> {
    let games = standard_games(dir, "fit patterns to", "patterns are fitted to")?;
    let mut reader = games_file::csv_reader(&games)?;
    for row in reader.deserialize::<GameRow>() {
        let row = row.map_err(|e| games_file::row_error(&games, &e))?;
        for (board, side) in positions_before_moves(&row, &games)? {
            let margin = match side {
                Color::Black => row.margin,
                Color::White => -row.margin,
            };
            out.samples.push(Sample::new(
                board.player,
                board.opponent,
                margin as f32,
                row.game_id,
            ));
        }
        out.games += 1;
    }
    Ok(())
}
