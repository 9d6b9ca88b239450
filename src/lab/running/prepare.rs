//! A run's folder made ready before play: a new folder with its record and the games
//! file's header, or, for `--resume`, the folder checked against the experiment and
//! the games it holds read back into the tallies; `--force` moves the old one aside.

use super::cost::{read_costs, Cost, COSTS_FILE};
use super::experiment::{Experiment, GAMES_PER_PAIR};
use super::schedule::Schedule;
use super::setup::{Openings, OPENINGS_COPY, SEED};
use super::tally::Tallies;
use crate::error::{Error, Result};
use crate::lab::storage::folder::{differences, holds_anything, move_aside, FolderLock};
use crate::lab::storage::folder::{FORCE, OUT, RESUME};
use crate::lab::storage::games_file::{self, GamesWriter};
use crate::lab::storage::results_folder::{FolderFile, FolderKind, ResultsFolder};
use crate::lab::storage::rows::{csv_header, GameRow, RunInfo, RunToml, Status};
use crate::lab::storage::shard::SHARD;
use crate::lab::storage::shard::{check_schedule_version, Shard};
use crate::setting::Said;
use std::fs;
use std::path::{Path, PathBuf};

pub(super) fn run_record(experiment: &Experiment, info: RunInfo) -> RunToml {
    RunToml {
        run: info,
        experiment: experiment.to_table(),
        import: None,
    }
}

/// Reads the games already in `games.csv` (dropping a partial last row left by a
/// kill, and the rows past the first `checkpoint`, whose costs were not recorded),
/// checks each against the schedule, and counts them. Returns how many there are.
fn resume_games(
    path: &Path,
    checkpoint: u64,
    experiment: &Experiment,
    schedule: &Schedule,
    shard: Option<Shard>,
    tallies: &mut Tallies,
) -> Result<u64> {
    let part = shard.unwrap_or(Shard::whole());
    let games = part.games(schedule.total());
    games_file::recover(path, Some(checkpoint))?;
    let mut reader = games_file::csv_reader(path)?;
    // Rows are appended in this version's columns: a file of other columns is not
    // continued (it would mix two layouts).
    let header = reader
        .byte_headers()
        .map_err(|e| games_file::row_error(path, &e))?;
    let mut now = csv::ByteRecord::new();
    let expected = csv_header::<GameRow>();
    now.extend(expected.trim_ascii_end().split(|&b| b == b','));
    if header != &now && !header.is_empty() {
        return Err(Error::said(
            Said::text(format!(
                "{} has other columns than this version writes (it was made by an older reversi-lab, before the termination column): ",
                path.display()
            ))
            .name(&FORCE)
            .then(" to play it again, or finish it with the version that started it"),
        ));
    }
    let mut count = 0u64;
    for row in reader.deserialize::<GameRow>() {
        let row = row.map_err(|e| {
            Error::said(
                Said::text(format!(
                    "{}: row {} cannot be read ({e}): the file was changed by hand; start a new run with ",
                    path.display(),
                    count + 2
                ))
                .name(&OUT),
            )
        })?;
        let game = part.game(count);
        let slot = schedule.slot(game);
        let fits = row.game_id == game
            && count < games
            && row.pair_id == slot.pair
            && schedule
                .seats(slot)
                .map(|i| experiment.players[i].name.as_str())
                == [&*row.black, &*row.white];
        if !fits {
            return Err(Error::said(
                Said::text(format!(
                    "{}: game {count} does not match the experiment (was games.csv made by another config?): start a new run with ",
                    path.display()
                ))
                .name(&OUT),
            ));
        }
        let concluded = tallies.record_game(experiment, slot, row.margin);
        count += 1;
        if concluded && shard.is_none() {
            break;
        }
    }
    Ok(count)
}

/// The refusal of a folder that exists, without `--resume` or `--force`.
fn already_exists(out: &Path) -> Error {
    Error::said(
        Said::text(format!(
            "results folder {} already exists: pass ",
            out.display()
        ))
        .name(&RESUME)
        .then(" to continue it, ")
        .name(&FORCE)
        .then(" to replace it, or ")
        .placeholder(&OUT, "DIR")
        .then(" to write elsewhere"),
    )
}

/// What the command line asks of a folder that may exist: the run's `--resume` and
/// `--force`, and the shard it plays.
#[derive(Clone, Copy, Debug)]
pub(super) struct Asked {
    pub(super) resume: bool,
    pub(super) force: bool,
    pub(super) shard: Option<Shard>,
}

/// A results folder ready for play.
pub(super) struct Prepared {
    /// Games already in `games.csv`.
    pub(super) done: u64,
    /// What they cost, per player.
    pub(super) before: Vec<Cost>,
    /// The `[run]` of the run resumed.
    pub(super) recorded: Option<RunInfo>,
    /// The folder `--force` replaces, moved aside: deleted once the new run has
    /// written a game, put back if it writes none.
    pub(super) aside: Option<PathBuf>,
    pub(super) lock: FolderLock,
}

/// Makes the results folder with a `run.toml` and the header of `games.csv`, or
/// checks an existing one for `--resume`.
pub(super) fn prepare(
    experiment: &Experiment,
    schedule: &Schedule,
    out: &Path,
    asked: Asked,
    info: &RunInfo,
    tallies: &mut Tallies,
) -> Result<Prepared> {
    let games_path = out.join(experiment.compress.file_name());
    let folder = ResultsFolder::at(out);
    let run_path = folder.path(FolderFile::RunRecord);
    if out.exists() && !out.is_dir() {
        return Err(Error::said(
            Said::text(format!(
                "{} is a file, not a results folder: choose a folder with ",
                out.display()
            ))
            .name(&OUT),
        ));
    }
    crate::lab::folder::check_no_stranded_aside(out)?;
    // An empty folder (made beforehand, say) holds nothing to keep or continue: it is
    // taken as the new run's, as a missing one would be made.
    let holds = out.exists() && holds_anything(out)?;
    let mut aside = None;
    if holds && asked.force {
        aside = Some(move_aside(out)?);
    } else if holds && !asked.resume {
        return Err(already_exists(out));
    }
    // Whether this process made the folder: only then may a failure remove it. Of two
    // runs making the same new folder at once, one makes it and the other is refused
    // here, as if it had existed (without --resume): neither writes into the other's.
    let mut created = false;
    if !out.exists() {
        let cannot = |e: std::io::Error| {
            // "File exists" of a file where a folder on the way belongs: name that file.
            let file = out.ancestors().skip(1).find(|a| a.is_file());
            let why = file.map_or_else(
                || e.to_string(),
                |file| format!("{} is a file, not a folder", file.display()),
            );
            Error::said(
                Said::text(format!(
                    "cannot create results folder {}: {why} (choose another with ",
                    out.display()
                ))
                .name(&OUT)
                .then(")"),
            )
        };
        if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(parent).map_err(cannot)?;
        }
        match fs::create_dir(out) {
            Ok(()) => created = true,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && asked.resume => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(already_exists(out))
            }
            Err(e) => return Err(cannot(e)),
        }
    }
    // Everything below looks at the folder under its lock, so what it sees cannot
    // change under it (another run's files appearing between a check and a write).
    let lock = match FolderLock::acquire(out) {
        Ok(lock) => lock,
        Err(error) => {
            if let Some(aside) = &aside {
                let _ = fs::remove_dir(out);
                let _ = fs::rename(aside, out);
            }
            return Err(error);
        }
    };
    // Another run may have filled the empty folder between the look above and the lock.
    if !holds && !created && !asked.resume && holds_anything(out)? {
        return Err(already_exists(out));
    }
    let a_run = folder.kind() == Some(FolderKind::Run);
    if asked.resume && !created && !a_run && holds_anything(out)? {
        if let Some(shards) = crate::lab::shard::Unmerged::find(out) {
            return Err(shards.resume_refusal(out));
        }
        return Err(Error::said(
            Said::text(format!(
                "nothing to resume in {}: it holds no run.toml, so it is not a run's results folder (its files are left alone): choose another ",
                out.display()
            ))
            .name(&OUT),
        ));
    }
    if asked.resume && games_path.is_dir() {
        return Err(Error::said(
            Said::text(format!(
                "{} is a folder, not a games file, so {} cannot be resumed: choose another ",
                games_path.display(),
                out.display()
            ))
            .name(&OUT),
        ));
    }
    // A resume that asks for the other form of games file would start the games again
    // beside the folder's own file, which readers would still find first.
    if let Some((found, _)) = crate::lab::storage::file_names::find(out)
        .filter(|(found, _)| asked.resume && a_run && *found != games_path)
    {
        return Err(Error::said(
            Said::text(format!(
                "{} holds its games in {}, but this run would write {} (compress differs): set compress as the folder has it to continue, ",
                out.display(),
                found.display(),
                games_path.display()
            ))
            .name(&FORCE)
            .then(" to replace it, or ")
            .placeholder(&OUT, "DIR")
            .then(" for a new run"),
        ));
    }
    if asked.resume && games_path.exists() && a_run {
        let recorded = RunToml::load(&run_path)?;
        let info_before = recorded.run.clone();
        recorded.refuse_import(
            out,
            Said::text("resumed (choose another ")
                .name(&OUT)
                .then(" for a run)"),
        )?;
        check_schedule_version(
            out,
            recorded.run.schedule_version,
            Said::default()
                .name(&FORCE)
                .then(" to play it again with this version, or ")
                .placeholder(&OUT, "DIR")
                .then(" for a new run"),
        )?;
        // The thread count changes no result, so a resume may use another.
        let mut now = experiment.to_table();
        now.remove("threads");
        let mut before = recorded.experiment.clone();
        before.remove("threads");
        let recorded = RunToml {
            experiment: before,
            ..recorded
        };
        if recorded.run.shard != info.shard {
            let name = |s: &Option<String>, none: &str| s.clone().unwrap_or_else(|| none.into());
            return Err(Error::said(
                Said::text(format!(
                    "{} holds {} but this run is {}: resume with the same ",
                    out.display(),
                    name(&recorded.run.shard, "an unsharded run"),
                    name(&info.shard, "no shard")
                ))
                .name(&SHARD)
                .then(", or use ")
                .placeholder(&OUT, "DIR"),
            ));
        }
        // An engine's deadlines change no finished game: they may change on resume.
        let comparable = |experiment: &toml::Table| {
            let mut experiment = experiment.clone();
            for player in experiment
                .get_mut("players")
                .and_then(toml::Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                if let Some(strategy) = player
                    .get_mut("strategy")
                    .and_then(toml::Value::as_table_mut)
                {
                    crate::strategy::engine::without_resumable_keys(strategy);
                }
            }
            experiment
        };
        let (was, is) = (comparable(&recorded.experiment), comparable(&now));
        if was != is {
            return Err(Error::said(
                Said::text(format!(
                    "{} was made by a different experiment (",
                    out.display()
                ))
                .and(differences(&was, &is, &[&GAMES_PER_PAIR, &SEED]))
                .then("): rerun with the same settings, ")
                .name(&FORCE)
                .then(" to replace it, or ")
                .placeholder(&OUT, "DIR")
                .then(" for a new run"),
            ));
        }
        // The openings file is named in the settings, its lines kept in the folder: an
        // edited file under the same name would mix two lists in one run.
        if let Openings::List { file, transcripts } = &experiment.setup.openings {
            let copy = out.join(OPENINGS_COPY);
            match fs::read_to_string(&copy) {
                Ok(kept) if kept.lines().ne(transcripts.iter().map(String::as_str)) => {
                    return Err(Error::said(
                        Said::text(format!(
                            "{} was made by a different experiment (the openings in {file} are not the ones it played, kept in {}): put those back in {file} to continue, ",
                            out.display(),
                            copy.display()
                        ))
                        .name(&FORCE)
                        .then(" to replace it, or ")
                        .placeholder(&OUT, "DIR")
                        .then(" for a new run"),
                    ));
                }
                Ok(_) => {}
                // A folder from before the copy was kept: nothing to compare with.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::unreadable(&copy, &e)),
            }
        }
        // costs.csv is written at checkpoints, after the rows it covers reached the
        // file: the games past it (a kill came between) are played again, so that the
        // costs cover exactly the games kept, as in an uninterrupted run.
        let names: Vec<&str> = experiment.players.iter().map(|p| p.name.as_str()).collect();
        let costs = read_costs(&out.join(COSTS_FILE), &names)?;
        let checkpoint = costs.iter().map(|c| c.games).sum::<u64>() / 2;
        let done = resume_games(
            &games_path,
            checkpoint,
            experiment,
            schedule,
            asked.shard,
            tallies,
        )?;
        if !info_before.status.is_finished() {
            // While the resume plays, the folder says so (to `web`, to a reader after
            // a kill), as a new run's does; its end writes the whole record.
            let running = RunInfo {
                status: Status::Running,
                ..info_before.clone()
            };
            crate::lab::folder::write_atomically(
                &run_path,
                run_record(experiment, running).to_text(),
            )?;
        }
        return Ok(Prepared {
            done,
            before: costs,
            recorded: Some(info_before),
            aside: None,
            lock,
        });
    }
    let setup = (|| {
        let record = run_record(experiment, info.clone());
        crate::lab::folder::write_atomically(&run_path, record.to_text())?;
        if let Openings::List { transcripts, .. } = &experiment.setup.openings {
            let copy = out.join(OPENINGS_COPY);
            let text: String = transcripts.iter().map(|t| format!("{t}\n")).collect();
            crate::lab::folder::write_atomically(&copy, text)?;
        }
        GamesWriter::create(&games_path, experiment.compress, &csv_header::<GameRow>())
    })();
    if let Err(error) = setup {
        drop(lock);
        if created {
            // Leave nothing behind: the folder was ours and holds no games.
            let _ = fs::remove_dir_all(out);
        }
        if let Some(aside) = &aside {
            // Put the replaced folder back: nothing of the new run was written.
            let _ = fs::rename(aside, out);
        }
        return Err(error);
    }
    Ok(Prepared {
        done: 0,
        before: vec![Cost::default(); experiment.players.len()],
        recorded: None,
        aside,
        lock,
    })
}
