//! One game of a results folder, with the size and rules it was played under: what
//! `replay` steps through (and what an animation of a game draws).

use crate::error::{Error, Result};
use crate::game::Rules;
use crate::lab::running::experiment::Experiment;
use crate::lab::storage::games_file;
use crate::lab::storage::results_folder::{FolderFile, ResultsFolder};
use crate::lab::storage::rows::GameRow;
use crate::lab::storage::shard::recorded_version;
use crate::shown::ShowPath;
use std::path::{Path, PathBuf};

/// A recorded game and what it takes to play it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayableGame {
    /// Board size.
    pub size: u32,
    /// The rules it was scored under.
    pub rules: Rules,
    /// The whole game as a transcript from the start position, opening included.
    pub moves: String,
    /// One line naming the game: `game 12 of results/default: greedy (black) vs ...`.
    pub title: String,
    /// Its row of `games.csv`.
    pub record: GameRow<'static>,
}

/// What a results folder's games were played under, and where they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplaySetting {
    /// Board size.
    pub size: u32,
    /// The rules the games were scored under.
    pub rules: Rules,
    /// Its games file (`games.csv` or `games.csv.zst`).
    pub games: PathBuf,
    /// The schedule version its games were played with (see `shard::recorded_version`).
    pub schedule_version: u32,
}

/// The size, rules and games file of the results folder `dir`, from its `run.toml`.
/// A missing folder or file is bad input naming the fix (`verb` says what the
/// command does with the games, as in "replay a folder that holds games").
pub fn recorded_run(dir: &Path, verb: &str) -> Result<ReplaySetting> {
    let folder = ResultsFolder::open(dir)?;
    let run_path = folder.path(FolderFile::RunRecord);
    if let Some(shards) = crate::lab::shard::Unmerged::find(dir) {
        return Err(shards.refusal(dir, &format!("{verb} the merged folder")));
    }
    let record = folder.record("give the folder a run wrote, such as results/default")?;
    let (size, rules) = if record.import.is_some() {
        // Imported games: their players are not strategies, only the setting counts.
        size_and_rules(&record.experiment, &run_path)?
    } else {
        let experiment = Experiment::recorded(&record.experiment, dir)?;
        (experiment.setup.size, experiment.setup.rules)
    };
    let Some((games, _)) = folder.games() else {
        return Err(Error::input(format!(
            "{} has no games.csv: {verb} a folder that holds games (a tune's are in its validation folders)",
            dir.shown()
        )));
    };
    Ok(ReplaySetting {
        size,
        rules,
        games,
        schedule_version: recorded_version(record.run.schedule_version),
    })
}

/// The board size and rules `[experiment]` of `run.toml` (at `path`) records, the
/// defaults where it leaves them out; a value that cannot be read is bad input.
pub fn size_and_rules(experiment: &toml::Table, path: &Path) -> Result<(u32, Rules)> {
    let bad = |what: &str| {
        Error::input(format!(
            "{}: {what} cannot be read (was it written by reversi-lab?)",
            path.shown()
        ))
    };
    let size = match experiment.get("size") {
        None => 8,
        Some(v) => v
            .as_integer()
            .and_then(|s| u32::try_from(s).ok())
            .filter(|s| crate::board::SIZES.contains(s))
            .ok_or_else(|| bad("[experiment] size"))?,
    };
    let rules = match experiment.get("rules") {
        None => Rules::default(),
        Some(v) => v
            .clone()
            .try_into()
            .map_err(|_| bad("[experiment.rules]"))?,
    };
    Ok((size, rules))
}

/// Game `id` (the `game_id` column) of the results folder `dir`, with the size and
/// rules of the experiment its `run.toml` recorded. A missing folder, file or game
/// is bad input naming the fix.
pub fn load_game(dir: &Path, id: u64) -> Result<ReplayableGame> {
    let run = recorded_run(dir, "replay")?;
    let path = run.games;
    games_file::check_has_games(&path)?;
    let mut reader = games_file::csv_reader(&path)?;
    // A shard's games keep the run's game_id: said, so the numbers are not read as the shard's own.
    let shard = ResultsFolder::at(dir)
        .record_if_any()
        .ok()
        .flatten()
        .and_then(|r| r.run.shard)
        .map(|s| format!(" (shard {s})"))
        .unwrap_or_default();
    let mut highest = None;
    for row in reader.deserialize::<GameRow>() {
        let row = row.map_err(|e| games_file::row_error(&path, &e))?;
        if row.game_id == id {
            let title = format!(
                "game {id} of the run{shard} in {}: {} (black) vs {} (white), {}",
                dir.shown(),
                row.black,
                row.white,
                match &*row.result {
                    "draw" => "a draw".to_string(),
                    winner => format!("{winner} won by {}", row.margin.abs()),
                }
            );
            return Ok(ReplayableGame {
                size: run.size,
                rules: run.rules,
                moves: row.moves.to_string(),
                title,
                record: row,
            });
        }
        highest = highest.max(Some(row.game_id));
    }
    Err(Error::input(match highest {
        Some(last) if !shard.is_empty() => format!(
            "game {id} is not in {}{shard}: a shard holds the run's games dealt to it, numbered as in the whole run (up to {last}; the game_id column): give one of those, or replay the merged folder",
            path.shown()
        ),
        Some(last) => format!(
            "game {id} is not in {}: its games are numbered 0 to {last} (the game_id column)",
            path.shown()
        ),
        None => format!("{} holds no games yet", path.shown()),
    }))
}
