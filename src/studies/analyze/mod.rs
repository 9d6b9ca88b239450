//! `analyze`: move quality against perfect play. Every position of a results folder's
//! games with at most K empty squares is solved exactly under the run's rules, and each
//! move's disc loss against the best is written to `analysis.csv` (in game order,
//! resumable); `quality.csv` and the charts sum it up per player and empties.

mod quality;
pub mod report;

pub use quality::{draw_charts, quality_rows, read_quality, QualityRow, ALL};

use crate::board::{squares, Bits, Color, Geometry};
use crate::chart::Chart;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::lab::folder::{FolderLock, FORCE, OUT, RESUME};
use crate::lab::rows::{read_csv, GameRow};
use crate::lab::setup::check_threads;
use crate::lab::shard::recorded_version;
use crate::lab::{games_file, recorded_run};
use crate::progress::Progress;
use crate::setting::{Said, Setting, SettingError};
use crate::strategy::solver::Solver;
use crate::strategy::Memory;
use crate::with_geometry;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::fs;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// The empties `--endgame` accepts: below 1 nothing is analysed, and past 20 a
/// position's exact solve takes seconds, too long for thousands of games.
pub const ENDGAME_RANGE: RangeInclusive<u32> = 1..=20;
/// `--endgame`'s default.
pub const DEFAULT_ENDGAME: u32 = 14;
/// `--blunder`'s default: a move that loses at least 6 discs against the best.
pub const DEFAULT_BLUNDER: u32 = 6;
/// log2 of each worker's solver table: 2^20 entries (32 MiB on 8x8), more than
/// the tree of one game's last 20 empties needs.
pub const TABLE_BITS: u32 = 20;
/// The per-move file.
pub const ANALYSIS_FILE: &str = "analysis.csv";
/// The per-player, per-empties file.
pub const QUALITY_FILE: &str = "quality.csv";
/// The settings an analysis was made with, checked by `--resume`.
pub const SETTINGS_FILE: &str = "analysis.toml";
/// The largest `--blunder`: no move loses more than twice the squares of a 10x10 board.
const MAX_BLUNDER: u32 = 200;

/// One row of `analysis.csv`: one move made with at most K empties, scores from
/// the mover's side (positive: a win by that many discs under the run's rules).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRow {
    /// The game's `game_id` in `games.csv`.
    pub game_id: u64,
    /// 1-based number of the move in the game (passes not counted), opening included.
    pub ply: u32,
    /// Empty squares before the move.
    pub empties: u32,
    /// `black` or `white`: who moved.
    pub colour: String,
    /// The mover's player name.
    pub player: String,
    /// Legal moves in the position (1: a forced move).
    pub legal: u32,
    /// The move played.
    #[serde(rename = "move")]
    pub played: String,
    /// A best move (the solver's first in its move order).
    pub best_move: String,
    /// The exact final score with perfect play from here.
    pub best_score: i32,
    /// The exact final score after the move played, perfect play after it.
    pub played_score: i32,
    /// `best_score - played_score`: the discs the move gave away.
    pub loss: i32,
    /// Whether the move changed the exact result: `win-draw`, `win-loss`,
    /// `draw-loss`, or empty.
    pub turn: String,
    /// Whether this is the game's first move (among those analysed) that changed
    /// the exact result.
    pub first_turn: bool,
}

/// How an analysis runs.
#[derive(Clone, Copy, Debug)]
pub struct AnalyzeOptions<'a> {
    /// Positions with at most this many empties are solved.
    pub endgame: u32,
    /// A loss of at least this many discs is a blunder.
    pub blunder: u32,
    /// Worker threads (None: one per core).
    pub threads: Option<usize>,
    /// Continue an interrupted analysis.
    pub resume: bool,
    /// Replace an existing analysis.
    pub force: bool,
    /// No progress.
    pub quiet: bool,
    /// Set by Ctrl-C: stop after the games in flight.
    pub stop: &'a AtomicBool,
}

/// What an analysis did.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Where its files are.
    pub out: PathBuf,
    /// Games in the folder.
    pub games: u64,
    /// Games analysed by this session (a resume skips those already done).
    pub analysed: u64,
    /// Moves analysed by this session (each one position solved, two when the move
    /// played was not the solver's best).
    pub positions: u64,
    /// Solver nodes of this session.
    pub nodes: u64,
    /// Wall time of this session in seconds.
    pub seconds: f64,
    /// Whether Ctrl-C stopped it (then `quality.csv` and charts are not written).
    pub interrupted: bool,
    /// The summary rows (`quality.csv`).
    pub quality: Vec<QualityRow>,
    /// The charts drawn.
    pub charts: Vec<Chart>,
}

/// What `analysis.toml` records.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Settings {
    endgame: u32,
    /// The results folder whose games are analysed, and how many there were: a resume
    /// must continue the same games, never append another run's to them.
    source: String,
    games: u64,
    /// The schedule version the source's games were played with (absent: 1): a run
    /// played again with another version has other games under the same count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    schedule_version: Option<u32>,
}

/// The emptiest positions solved exactly: `--endgame K`.
pub static ENDGAME: Setting = Setting::new("", "--endgame", "endgame");
/// The loss in discs that counts as a blunder: `--blunder N`.
pub static BLUNDER: Setting = Setting::new("", "--blunder", "blunder");

/// A refusal of the analysis in a folder that the user fixes by analysing again:
/// `before`, the replacing setting, `after`.
fn with_force(before: String, after: &'static str) -> Error {
    Error::said(Said::text(before).name(&FORCE).then(after))
}

/// Analyses the games of results folder `dir` into `out` (default: `dir` itself).
pub fn analyze(dir: &Path, out: Option<&Path>, options: &AnalyzeOptions<'_>) -> Result<Analysis> {
    if !ENDGAME_RANGE.contains(&options.endgame) {
        return Err(SettingError::Refused {
            setting: &ENDGAME,
            value: options.endgame.to_string(),
            why: format!(
                " is out of range: give K from {} to {} (positions with at most K empty squares are solved)",
                ENDGAME_RANGE.start(),
                ENDGAME_RANGE.end()
            )
            .into(),
        }
        .into());
    }
    if options.blunder == 0 || options.blunder > MAX_BLUNDER {
        return Err(SettingError::Refused {
            setting: &BLUNDER,
            value: options.blunder.to_string(),
            why: format!(
                ": give 1 to {MAX_BLUNDER} discs (the default is 6; 0 would count every move)"
            )
            .into(),
        }
        .into());
    }
    let threads = match options.threads {
        Some(t) => check_threads(t, &crate::lab::setup::THREADS)?,
        None => rayon::current_num_threads(),
    };
    let run = recorded_run(dir, "analyze")?;
    let out = out.unwrap_or(dir).to_path_buf();
    fs::create_dir_all(&out).map_err(|e| Error::io_during("create", &out, e))?;
    let _lock = FolderLock::acquire(&out)?;
    let games = read_games(&run.games)?;
    let source = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let start = prepare(&out, &games, &source, run.schedule_version, options)?;
    let solver = Solver::new(run.rules, TABLE_BITS);
    let started = Instant::now();
    let (positions, nodes, analysed, interrupted) = with_geometry!(run.size, G => {
        analyse_games::<G>(&out, &games, start, solver, threads, options)?
    });
    let seconds = started.elapsed().as_secs_f64();
    let mut analysis = Analysis {
        out: out.clone(),
        games: games.len() as u64,
        analysed,
        positions,
        nodes,
        seconds,
        interrupted,
        quality: Vec::new(),
        charts: Vec::new(),
    };
    if !interrupted {
        let moves: Vec<MoveRow> = read_csv(&out.join(ANALYSIS_FILE))?;
        quality::write_quality(
            &out.join(QUALITY_FILE),
            &quality_rows(&moves, options.endgame, options.blunder),
        )?;
        // Read back, so that what is printed and drawn is rounded as the file is
        // (and as `report` shows it).
        analysis.quality = read_quality(&out)?.unwrap_or_default();
        analysis.charts = draw_charts(
            &crate::lab::ResultsFolder::at(&out).path(crate::lab::FolderFile::Charts),
            &analysis.quality,
        )?;
    }
    Ok(analysis)
}

/// The `--endgame` K an analysis in `dir` was made with, as `analysis.toml` records it.
#[must_use]
pub fn recorded_endgame(dir: &Path) -> Option<u32> {
    let text = fs::read_to_string(dir.join(SETTINGS_FILE)).ok()?;
    toml::from_str::<Settings>(&text).ok().map(|s| s.endgame)
}

/// Every game of a games file, in its order.
fn read_games(path: &Path) -> Result<Vec<GameRow<'static>>> {
    games_file::check_has_games(path)?;
    let mut reader = games_file::csv_reader(path)?;
    reader
        .deserialize::<GameRow<'static>>()
        .map(|row| row.map_err(|e| games_file::row_error(path, &e)))
        .collect()
}

/// Checks what `out` already holds against `--resume` and `--force`, writes
/// `analysis.toml` and a fresh `analysis.csv` when starting over, and returns the
/// index of the first game to analyse.
fn prepare(
    out: &Path,
    games: &[GameRow<'_>],
    source: &Path,
    schedule_version: u32,
    options: &AnalyzeOptions<'_>,
) -> Result<usize> {
    let path = out.join(ANALYSIS_FILE);
    let settings_path = out.join(SETTINGS_FILE);
    let settings = Settings {
        endgame: options.endgame,
        source: source.display().to_string(),
        games: games.len() as u64,
        schedule_version: Some(schedule_version),
    };
    let quality = out.join(QUALITY_FILE);
    if !path.is_file() && quality.is_file() && !options.force {
        return Err(Error::said(
            Said::text(format!("{} already exists: ", quality.display()))
                .name(&FORCE)
                .then(" replaces it, or ")
                .placeholder(&OUT, "DIR")
                .then(" writes elsewhere"),
        ));
    }
    if path.is_file() && !options.force {
        if !options.resume {
            return Err(Error::said(
                Said::text(format!("{} already exists: ", path.display()))
                    .name(&RESUME)
                    .then(" continues it, ")
                    .name(&FORCE)
                    .then(" replaces it, or ")
                    .placeholder(&OUT, "DIR")
                    .then(" writes elsewhere"),
            ));
        }
        let text = fs::read_to_string(&settings_path)
            .map_err(|e| Error::unreadable(&settings_path, &e))?;
        let recorded: Settings = toml::from_str(&text).map_err(|e| {
            with_force(
                format!("{} cannot be read ({e}): use ", settings_path.display()),
                " to analyse again",
            )
        })?;
        if recorded.source != settings.source {
            return Err(Error::said(
                Said::text(format!(
                    "{} holds the analysis of {} ({} games), not of {}: analyse that folder with ",
                    path.display(),
                    recorded.source,
                    recorded.games,
                    settings.source
                ))
                .name(&RESUME)
                .then(", or ")
                .name(&FORCE)
                .then(" to start again"),
            ));
        }
        if recorded.games > settings.games {
            return Err(with_force(
                format!(
                    "{} analysed {} games of {}, which now holds {} (played again?): ",
                    path.display(),
                    recorded.games,
                    settings.source,
                    settings.games
                ),
                " to analyse its games again",
            ));
        }
        let versions = [recorded.schedule_version, settings.schedule_version].map(recorded_version);
        if versions[0] != versions[1] {
            return Err(with_force(
                format!("{} analysed games of schedule version {} but {} now holds version {} (played again, with other games): ",
                path.display(),
                versions[0],
                settings.source,
                versions[1]),
                " to analyse them again",
            ));
        }
        if recorded.endgame != settings.endgame {
            return Err(Error::said(
                Said::text(format!("{} was made with ", path.display()))
                    .given(&ENDGAME, recorded.endgame)
                    .then(format!(", not {}: resume with ", options.endgame))
                    .given(&ENDGAME, recorded.endgame)
                    .then(", or ")
                    .name(&FORCE)
                    .then(" to start again"),
            ));
        }
        let first = resume_point(&path, games)?;
        if recorded.games < settings.games {
            // The run grew (`run --resume`): its first games are unchanged, so the
            // analysis extends to the new ones, and records what it now covers.
            write_settings(&settings_path, &settings)?;
        }
        return Ok(first);
    }
    write_settings(&settings_path, &settings)?;
    crate::lab::folder::write_atomically(&path, header_line())?;
    Ok(0)
}

fn write_settings(path: &Path, settings: &Settings) -> Result<()> {
    let text = toml::to_string(settings)
        .map_err(|e| Error::internal_from("cannot write the settings as TOML", e))?;
    crate::lab::folder::write_atomically(path, text.as_bytes())
}

/// How many games of its run the analysis in `dir` covers, as `analysis.toml` records it.
#[must_use]
pub fn recorded_games(dir: &Path) -> Option<u64> {
    let text = fs::read_to_string(dir.join(SETTINGS_FILE)).ok()?;
    toml::from_str::<Settings>(&text).ok().map(|s| s.games)
}

/// The header line of `analysis.csv`, from [`MoveRow`] (serde writes it before a first row).
fn header_line() -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let _ = writer.serialize(MoveRow::default());
    let mut bytes = writer.into_inner().unwrap_or_default();
    let end = bytes.iter().position(|&b| b == b'\n').map_or(0, |p| p + 1);
    bytes.truncate(end);
    bytes
}

/// Where an interrupted `analysis.csv` continues: its last game may be cut short,
/// so its rows (and any partial line) are dropped and that game is analysed again.
/// Rows are written in game order, so every game before it is complete.
fn resume_point(path: &Path, games: &[GameRow<'_>]) -> Result<usize> {
    let bytes = fs::read(path).map_err(|e| Error::unreadable(path, &e))?;
    // Complete lines only: (start offset, game_id) of each row after the header.
    let mut rows = Vec::new();
    let mut offset = 0;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let start = offset;
        offset += line.len();
        if start == 0 || line.last() != Some(&b'\n') {
            continue;
        }
        let id = line
            .split(|&b| b == b',')
            .next()
            .and_then(|f| std::str::from_utf8(f).ok())
            .and_then(|f| f.parse::<u64>().ok())
            .ok_or_else(|| {
                with_force(
                    format!(
                        "{} has a row that is not an analysis row (at byte {start}): use ",
                        path.display()
                    ),
                    " to analyse again",
                )
            })?;
        rows.push((start, id));
    }
    let header_end = bytes.iter().position(|&b| b == b'\n').map_or(0, |p| p + 1);
    if header_end == 0 {
        return Err(with_force(
            format!("{} has no header line: use ", path.display()),
            " to analyse again",
        ));
    }
    let (cut, first) = match rows.last() {
        None => (header_end, 0),
        Some(&(_, last)) => {
            let cut = rows
                .iter()
                .find(|(_, id)| *id == last)
                .map_or(header_end, |r| r.0);
            let index = games
                .iter()
                .position(|g| g.game_id == last)
                .ok_or_else(|| {
                    with_force(
                        format!(
                            "{} holds game {last}, which is not in the games file: use ",
                            path.display()
                        ),
                        " to analyse these games again",
                    )
                })?;
            (cut, index)
        }
    };
    crate::lab::folder::cut_to(path, cut as u64).map_err(|e| Error::io(path, e))?;
    Ok(first)
}

/// What one game's analysis gives.
struct GameAnalysis {
    rows: Vec<MoveRow>,
    positions: u64,
    nodes: u64,
}

/// Analyses `games[start..]` in parallel, appending rows to `analysis.csv` in game
/// order. Returns (positions, nodes, games analysed, interrupted).
fn analyse_games<G: Geometry>(
    out: &Path,
    games: &[GameRow<'static>],
    start: usize,
    solver: Solver,
    threads: usize,
    options: &AnalyzeOptions<'_>,
) -> Result<(u64, u64, u64, bool)> {
    let path = out.join(ANALYSIS_FILE);
    let file = crate::lab::folder::append_existing(&path).map_err(|e| Error::io(&path, e))?;
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(std::io::BufWriter::with_capacity(1 << 20, file));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::internal_from(format!("cannot start {threads} threads"), e))?;
    // One solver memory per worker, kept across games: its table is cleared for
    // each game (so a game's rows never depend on the games before it) but lives
    // across that game's positions, which share most of their trees.
    let memories: Vec<Mutex<Memory<G>>> = (0..threads).map(|_| Mutex::new(Memory::new())).collect();
    let progress = Progress::new(games.len() as u64, start as u64, options.quiet, "games");
    let chunk = 32 * threads;
    let (mut positions, mut nodes, mut analysed) = (0, 0, 0);
    let mut interrupted = false;
    for batch in games[start..].chunks(chunk) {
        if options.stop.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        let results: Vec<Result<GameAnalysis>> = pool.install(|| {
            batch
                .par_iter()
                .map(|game| {
                    let worker = rayon::current_thread_index().unwrap_or(0) % threads;
                    let mut memory = memories[worker]
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner);
                    analyse_game(game, solver, options.endgame, &mut memory)
                })
                .collect()
        });
        for result in results {
            let game = result?;
            positions += game.positions;
            nodes += game.nodes;
            for row in game.rows {
                writer
                    .serialize(row)
                    .map_err(|e| Error::csv("write", &path, e))?;
            }
        }
        writer.flush().map_err(|e| Error::io(&path, e))?;
        analysed += batch.len() as u64;
        progress.advance(batch.len() as u64);
    }
    progress.finish();
    Ok((positions, nodes, analysed, interrupted))
}

/// Replays one game and solves each position with at most `endgame` empties after
/// its opening: the best score, then the move played's exact score unless it is the
/// solver's best move.
fn analyse_game<G: Geometry>(
    record: &GameRow<'_>,
    solver: Solver,
    endgame: u32,
    memory: &mut Memory<G>,
) -> Result<GameAnalysis> {
    memory.new_game();
    let before = memory.nodes;
    let played = Game::<G>::from_transcript(&record.moves).map_err(|e| {
        Error::input(format!(
            "game {} does not replay: move {} {}: its games file is damaged (run again, or analyse another folder)",
            record.game_id, e.ply, e.reason
        ))
    })?;
    // The opening's moves were dealt, not chosen: they are not the players'.
    let opening = record
        .opening
        .chars()
        .filter(char::is_ascii_alphabetic)
        .count();
    let mut game = Game::<G>::new();
    let mut rows = Vec::new();
    let mut positions = 0;
    let mut turned = false;
    for (i, &square) in played.moves().iter().enumerate() {
        let board = game.board();
        let empties = board.empty_count();
        if i >= opening && empties <= endgame {
            let best = solver.solve(board, memory);
            let played_score = if best.best.has(square.index()) {
                best.score
            } else {
                -solver.solve(board.play(square), memory).score
            };
            positions += 1;
            let colour = game.side();
            let player = match colour {
                Color::Black => &record.black,
                Color::White => &record.white,
            };
            rows.push(MoveRow {
                game_id: record.game_id,
                ply: i as u32 + 1,
                empties,
                colour: colour.name().to_string(),
                player: player.to_string(),
                legal: game.legal_moves().count(),
                played: square.name(G::SIZE),
                best_move: squares(best.best)
                    .next()
                    .map(|s| s.name(G::SIZE))
                    .unwrap_or_default(),
                best_score: best.score,
                played_score,
                loss: best.score - played_score,
                turn: turn(best.score, played_score).to_string(),
                first_turn: false,
            });
            if let Some(row) = rows.last_mut().filter(|r| !r.turn.is_empty() && !turned) {
                row.first_turn = true;
                turned = true;
            }
        }
        game.play_unchecked(square);
    }
    Ok(GameAnalysis {
        rows,
        positions,
        nodes: memory.nodes - before,
    })
}

/// The change of exact result a move made, from the mover's side.
#[must_use]
pub fn turn(best: i32, played: i32) -> &'static str {
    match (best.signum(), played.signum()) {
        (1, 0) => "win-draw",
        (1, -1) => "win-loss",
        (0, -1) => "draw-loss",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_are_changes_for_the_worse_of_the_exact_result() {
        assert_eq!(turn(4, -2), "win-loss");
        assert_eq!(turn(4, 0), "win-draw");
        assert_eq!(turn(0, -6), "draw-loss");
        assert_eq!(turn(4, 2), "");
        assert_eq!(turn(-4, -10), "");
    }

    #[test]
    fn the_header_comes_from_the_row_type() {
        assert_eq!(
            String::from_utf8(header_line()).unwrap(),
            "game_id,ply,empties,colour,player,legal,move,best_move,best_score,played_score,loss,turn,first_turn\n"
        );
    }
}
