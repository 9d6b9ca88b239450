//! `reversi-lab tune`: find evaluation weights by play (SPSA, or CMA-ES), then prove
//! the gain with validation runs against the starting player and a panel. The
//! folder's charts and report are drawn by the report layer from what the tune
//! leaves there (`report::write_report`, which the command calls at the end).

pub mod charts;
mod cmaes;
pub mod config;
pub mod openings;
pub mod report;
mod spsa;
pub mod trace;
pub mod validate;

pub use config::{Method, Param, Tune};

use crate::board::Geometry;
use crate::error::{Error, Result};
use crate::lab::folder::{
    a_file_not_a_folder, cannot_create_folder, move_aside, remove_aside, FolderLock, FORCE, OUT,
    RESUME,
};
use crate::lab::shard::{check_schedule_version, SCHEDULE_VERSION};
use crate::lab::{Deal, Driver, RunOptions, Schedule, Slot};
use crate::lab::{FolderFile, ResultsFolder};
use crate::numbers::fixed;
use crate::progress::Progress;
use crate::setting::Said;
use crate::stats::Trinomial;
use crate::strategy::clock::held_to;
use crate::strategy::{Strategy, StrategySpec};
use crate::with_geometry;
use std::path::{Path, PathBuf};
use toml::{Table, Value};
use trace::Trace;

/// How a tune's games are played: one driver for the whole tune, and the schedule
/// whose pair number is the iteration, so every iteration has its own openings and
/// seeds, and theta+ and theta- of one iteration meet the same ones.
pub struct Games<'a, G: Geometry> {
    tune: &'a Tune,
    driver: Driver<G>,
    schedule: Schedule,
}

impl<G: Geometry> Games<'_, G> {
    /// The strategy with the parameters at `theta`.
    pub fn build(&self, theta: &[f64]) -> Result<Box<dyn Strategy<G>>> {
        let strategy = self.tune.spec(theta)?.build::<G>(self.tune.setup.rules)?;
        Ok(held_to(strategy, self.tune.setup.time.control()))
    }

    /// The fixed opponents.
    pub fn panel(&self) -> Result<Vec<Box<dyn Strategy<G>>>> {
        self.tune
            .panel
            .iter()
            .map(|(name, spec)| {
                spec.build::<G>(self.tune.setup.rules)
                    .map(|s| held_to(s, self.tune.setup.time.control()))
                    .map_err(|e| Error::input(format!("opponent '{name}': {e}")))
            })
            .collect()
    }

    /// Plays `games` games of X against the opponents (one after another by
    /// colour-swapped pair), X black in the even games. Returns X's tally.
    pub fn play(
        &self,
        x: &dyn Strategy<G>,
        opponents: &[&dyn Strategy<G>],
        iteration: u64,
        games: u64,
    ) -> Trinomial {
        let mut players = vec![x];
        players.extend_from_slice(opponents);
        let rules = self.tune.setup.rules;
        self.driver
            .sum(
                &players,
                0..games,
                |g| {
                    let slot = Slot {
                        pair: iteration,
                        game_in_pair: g,
                    };
                    let opponent = 1 + (g / 2) as usize % opponents.len();
                    let seats = if slot.a_black() {
                        [0, opponent]
                    } else {
                        [opponent, 0]
                    };
                    let (_, start) = self.schedule.start::<G>(slot);
                    let seed = self.schedule.seed(slot);
                    (slot, Deal { seats, start, seed })
                },
                |_, slot, game| {
                    let margin = game.outcome(rules).expect("played to the end").margin;
                    Trinomial::of_margin(if slot.a_black() { margin } else { -margin })
                },
            )
            .0
    }
}

/// What a tune did.
pub struct TuneSummary {
    /// The tune's folder.
    pub out: PathBuf,
    /// The tuned parameters.
    pub best: Vec<f64>,
    /// Lines for the terminal: the parameters and the validation.
    pub lines: Vec<String>,
    /// The validation runs' folders (the tune's report redraws their reports too).
    pub validations: Vec<PathBuf>,
    /// Whether the run was interrupted.
    pub interrupted: bool,
}

/// Runs a tune (or the rest of one, with `resume`), then validates the result.
pub fn tune(path: &Path, threads: Option<usize>, options: &RunOptions<'_>) -> Result<TuneSummary> {
    let (quiet, stop) = (options.quiet, options.stop);
    let mut tune = Tune::load(path)?;
    if let Some(threads) = threads {
        let threads = crate::lab::setup::check_threads(threads, &crate::lab::setup::THREADS)?;
        tune.setup.threads = Some(threads);
    }
    let out = options
        .out
        .clone()
        .unwrap_or_else(|| Path::new("results").join(&tune.name));
    if out.exists() && !out.is_dir() {
        return Err(a_file_not_a_folder(&out));
    }
    let aside = if out.exists() && options.force {
        Some(move_aside(&out)?)
    } else if out.exists() && !options.resume {
        return Err(already_exists(&out));
    } else {
        None
    };
    let text = std::fs::read_to_string(path).map_err(|e| Error::unreadable(path, &e))?;
    let opened = (|| {
        let cannot = |e: std::io::Error| cannot_create_folder(&out, &e);
        if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(cannot)?;
        }
        // Of two tunes making one new folder at once, the second is refused as if it
        // had existed, rather than taking the folder over once the first is done.
        match std::fs::create_dir(&out) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && !options.resume => {
                return Err(already_exists(&out));
            }
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(cannot(e)),
            _ => {}
        }
        let lock = FolderLock::acquire(&out)?;
        let folder = ResultsFolder::at(&out);
        let a_tune = folder.has(FolderFile::TuneFile) || folder.has(FolderFile::Trace);
        if options.resume && !a_tune && crate::lab::folder::holds_anything(&out)? {
            return Err(Error::said(
                Said::text(format!(
                    "nothing to resume in {}: it holds no tune.toml or trace.csv, so it is not a tune's folder (its files are left alone): choose another ",
                    out.display()
                ))
                .name(&OUT),
            ));
        }
        check_same_tune(&out, &text)?;
        Ok((lock, Trace::open(&folder.path(FolderFile::Trace), &tune)?))
    })();
    let (_lock, (trace, mut rows)) = match opened {
        Ok(opened) => opened,
        Err(error) => {
            if let Some(aside) = &aside {
                // Put the replaced folder back: the new tune never started.
                let _ = std::fs::remove_dir_all(&out);
                let _ = std::fs::rename(aside, &out);
            }
            return Err(error);
        }
    };
    if let Some(aside) = aside {
        remove_aside(&aside)?;
    }
    let progress = Progress::new(tune.iterations, rows.len() as u64, quiet, "iterations");
    let (best, interrupted) = with_geometry!(tune.setup.size, G => {
        let games = Games::<G> {
            tune: &tune,
            driver: Driver::new(tune.setup.threads)?,
            schedule: Schedule::new(&tune.setup, Vec::new(), tune.games),
        };
        match tune.method {
            Method::Spsa => spsa::spsa(&tune, &games, &mut rows, &trace, &progress, stop)?,
            Method::Cmaes => cmaes::cmaes(&tune, &games, &mut rows, &trace, &progress, stop)?,
        }
    });
    progress.finish();
    if interrupted {
        let lines = tune
            .params
            .iter()
            .zip(&best)
            .map(|(p, v)| {
                format!(
                    "{:<24} {:>10} -> {:>10}",
                    p.name,
                    fixed(p.start, 3),
                    fixed(*v, 3)
                )
            })
            .collect();
        return Ok(TuneSummary {
            out,
            best,
            lines,
            validations: Vec::new(),
            interrupted,
        });
    }
    // The tuned weights: the mean of the last 10% of the iterations (the final
    // point stays in trace.csv).
    let last = best;
    let best = trace::tail_mean(&rows).unwrap_or_else(|| last.clone());
    let mut lines: Vec<String> = tune
        .params
        .iter()
        .zip(best.iter().zip(&last))
        .map(|(p, (v, end))| {
            format!(
                "{:<24} {:>10} -> {:>10}  (final iteration {})",
                p.name,
                fixed(p.start, 3),
                fixed(*v, 3),
                fixed(*end, 3)
            )
        })
        .collect();
    lines.push(format!(
        "tuned values: the mean over the last {} of {} iterations",
        trace::tail_count(rows.len()),
        rows.len()
    ));
    let tuned = tune.spec(&best)?;
    write_best(&tune, &tuned, &out)?;
    let (validation, validations) = validate::validate(&tune, &tuned, &out, quiet, stop)?;
    lines.extend(validation);
    Ok(TuneSummary {
        out,
        best,
        lines,
        validations,
        interrupted,
    })
}

/// Keeps the tune file in its folder (`tune.toml`), and refuses to continue a
/// folder made by a different one (comments and layout aside).
fn check_same_tune(out: &Path, text: &str) -> Result<()> {
    let kept = ResultsFolder::at(out).path(FolderFile::TuneFile);
    let schedule = out.join(SCHEDULE_FILE);
    if kept.is_file() {
        check_schedule_version(
            out,
            read_schedule_version(&schedule)?,
            Said::default()
                .name(&FORCE)
                .then(" to tune again with this version, or ")
                .placeholder(&OUT, "DIR")
                .then(" for a new tune"),
        )?;
        let before = std::fs::read_to_string(&kept).map_err(|e| Error::unreadable(&kept, &e))?;
        // [validation] plays after training and changes none of it: a resume may
        // change it (the kept copy then records the new one).
        let training = |text: &str| {
            text.parse::<Table>().ok().map(|mut table| {
                let validation = table.remove("validation");
                (table, validation)
            })
        };
        let (before, now) = (training(&before), training(text));
        let same = matches!((&before, &now), (Some(a), Some(b)) if a.0 == b.0);
        if same && before.map(|b| b.1) != now.map(|n| n.1) {
            crate::lab::folder::write_atomically(&kept, text)?;
        }
        if !same {
            return Err(Error::said(
                Said::text(format!(
                    "{} was made by a different tune file (compare it with {}): use the same file to ",
                    out.display(),
                    kept.display()
                ))
                .name(&RESUME)
                .then(", ")
                .name(&FORCE)
                .then(" to replace the folder, or ")
                .placeholder(&OUT, "DIR"),
            ));
        }
        return Ok(());
    }
    crate::lab::folder::write_atomically(&kept, text)?;
    let version = format!("schedule_version = {SCHEDULE_VERSION}\n");
    crate::lab::folder::write_atomically(&schedule, version)
}

/// A tune's folder is there already and neither resumed nor replaced.
fn already_exists(out: &Path) -> Error {
    Error::said(
        Said::text(format!(
            "results folder {} already exists: pass ",
            out.display()
        ))
        .name(&RESUME)
        .then(" to continue the tune, ")
        .name(&FORCE)
        .then(" to replace it, or ")
        .placeholder(&OUT, "DIR"),
    )
}

/// The file in a tune's folder that records its schedule version (its games'
/// generator), for `--resume`; a folder without one is of version 1.
const SCHEDULE_FILE: &str = "schedule.toml";

/// The schedule version `path` records, None when there is no such file.
fn read_schedule_version(path: &Path) -> Result<Option<u32>> {
    #[derive(serde::Deserialize)]
    struct Recorded {
        schedule_version: u32,
    }
    if !path.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(path).map_err(|e| Error::unreadable(path, &e))?;
    let recorded: Recorded = toml::from_str(&text).map_err(|e| {
        Error::said(
            Said::text(format!(
                "{} cannot be read ({}): ",
                path.display(),
                e.message()
            ))
            .name(&FORCE)
            .then(" to tune again, or ")
            .placeholder(&OUT, "DIR"),
        )
    })?;
    Ok(Some(recorded.schedule_version))
}

/// `best.toml`: a player an experiment file can include as it is.
fn write_best(tune: &Tune, tuned: &StrategySpec, out: &Path) -> Result<()> {
    let mut player = Table::new();
    player.insert("name".into(), Value::String(format!("{}-tuned", tune.name)));
    player.insert("strategy".into(), Value::Table(tuned.to_table()));
    let mut doc = Table::new();
    doc.insert("players".into(), Value::Array(vec![Value::Table(player)]));
    let path = ResultsFolder::at(out).path(FolderFile::Best);
    let method = match tune.method {
        Method::Spsa => "SPSA",
        Method::Cmaes => "CMA-ES",
    };
    let text = format!(
        "# The tuned player of `reversi-lab tune` {} ({method}, {} iterations): paste into an experiment file.\n{}",
        tune.name,
        tune.iterations,
        toml::to_string(&doc).expect("a table serialises")
    );
    crate::lab::folder::write_atomically(&path, text)
}
