//! The batch runner: plays an experiment through the play driver, streams games to
//! `games.csv` in game order, and writes `pairs.csv`, `standings.csv` and `run.toml`;
//! resumes a folder where its `games.csv` ends.

use super::cost::{cost_rows, Cost, COSTS_FILE};
use super::driver::{Delivery, Driver, Flow};
use super::experiment::Experiment;
use super::faults::{at_fault, logs_in, prepare_logs, Broken, FaultWatch};
use super::prepare::{prepare, run_record, Asked, Prepared};
use super::schedule::{Schedule, Slot};
use super::tally::Tallies;
use crate::board::Geometry;
use crate::error::{Error, Result};
use crate::game::{Game, Rules, Termination};
use crate::lab::storage::folder::{remove_aside, write_atomically, FolderLock};
use crate::lab::storage::folder::{OUT, RESUME};
use crate::lab::storage::games_file::{self, GamesWriter};
use crate::lab::storage::results_folder::{FolderFile, ResultsFolder};
use crate::lab::storage::rows::{csv_bytes, GameRow, PairRow, RunInfo, StandingRow, Status};
use crate::lab::storage::shard::{experiment_hash, whole_run_of, Shard, Study, SCHEDULE_VERSION};
use crate::progress::Progress;
use crate::setting::Said;
use crate::strategy::clock::held_to;
use crate::strategy::Strategy;
use crate::with_geometry;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// How a run is carried out (not part of the experiment).
pub struct RunOptions<'a> {
    /// The results folder (default `results/<name>`).
    pub out: Option<PathBuf>,
    /// Continue the games already in the folder.
    pub resume: bool,
    /// Replace an existing folder (moved aside, then deleted once the new run writes).
    pub force: bool,
    /// No progress bar.
    pub quiet: bool,
    /// Set (by a Ctrl-C handler) to stop after the games in flight.
    pub stop: &'a AtomicBool,
    /// Play only this shard of the games (default folder `results/<name>/shards/I-of-N`);
    /// it plays its whole share, since an SPRT can only be judged on the merged games.
    pub shard: Option<Shard>,
    /// Counts the games played as they are written, for a caller that shows its own
    /// progress (the Python package's bar) with `quiet` set.
    pub played: Option<&'a AtomicU64>,
}

/// What a run did, with the rows it wrote.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// The results folder.
    pub out: PathBuf,
    /// Games in `games.csv` now.
    pub games: u64,
    /// Games played by this invocation.
    pub played: u64,
    /// Seconds this invocation spent playing.
    pub seconds: f64,
    /// How the run ended.
    pub status: Status,
    /// Threads used.
    pub threads: usize,
    /// The rows of `pairs.csv` (empty when interrupted).
    pub pairs: Vec<PairRow>,
    /// The rows of `standings.csv` (empty when interrupted).
    pub standings: Vec<StandingRow>,
}

impl RunSummary {
    /// The closing line: games, elapsed, games/s (with `--resume` after an
    /// interruption, worded by the caller's edge).
    #[must_use]
    pub fn line(&self) -> Said {
        let said = Said::text(format!(
            "{} in {:.2} s ({:.0} games/s, {})",
            crate::numbers::counted(self.played, "game"),
            self.seconds,
            self.played as f64 / self.seconds.max(1e-9),
            crate::numbers::counted(self.threads as u64, "thread"),
        ));
        let said = match self.status {
            Status::Complete | Status::Running => said,
            Status::SprtAcceptedH1 => said.then(", SPRT accepted H1"),
            Status::SprtAcceptedH0 => said.then(", SPRT accepted H0"),
            Status::Interrupted => said
                .then(format!(
                    ", interrupted after {} games: rerun with ",
                    self.games
                ))
                .name(&RESUME)
                .then(" to continue"),
            Status::Stopped => said.then(format!(", stopped after {} games", self.games)),
        };
        said.then(format!("; results in {}", self.out.display()))
    }
}

/// What a run stopped by a broken player says to do.
fn resume_fix() -> Said {
    Said::text("continue with ").name(&RESUME)
}

/// Where a run of experiment `name` goes without `--out`: `results/<name>`, or for a
/// shard `results/<name>/shards/I-of-N` (the folder `merge` looks in).
#[must_use]
pub fn default_out(name: &str, shard: Option<Shard>) -> PathBuf {
    let folder = Path::new("results").join(name);
    match shard {
        Some(shard) => folder
            .join(FolderFile::Shards.name())
            .join(shard.folder_name()),
        None => folder,
    }
}

/// Where a run's games go: `out` (default `results/<name>`) names the whole run's
/// folder, for a shard as for a study's shard, and shard I of N goes to its
/// `shards/I-of-N`, where `merge` finds it. A folder that already is this shard's is
/// used as it is: an `out` ending in `shards/I-of-N`, or one that holds this very shard
/// (as `run --shard --out` wrote them before); one holding another shard is refused.
pub fn run_folder(name: &str, out: Option<&Path>, shard: Option<Shard>) -> Result<PathBuf> {
    let (Some(out), Some(shard)) = (out, shard) else {
        return Ok(out.map_or_else(|| default_out(name, shard), Path::to_path_buf));
    };
    let under_shards = out
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|n| n == FolderFile::Shards.name());
    let own = out.file_name().and_then(|n| n.to_str());
    if under_shards && own == Some(shard.folder_name().as_str()) {
        return Ok(out.to_path_buf());
    }
    let held = ResultsFolder::at(out)
        .record_if_any()
        .ok()
        .flatten()
        .and_then(|record| record.run.shard);
    let held = held.as_deref().and_then(|text| Shard::parse(text).ok());
    if held == Some(shard) {
        return Ok(out.to_path_buf());
    }
    if under_shards && (held.is_some() || own.is_some_and(|n| n.contains("-of-"))) {
        let whole = whole_run_of(out).unwrap_or(Path::new("."));
        return Err(Error::said(
            Said::text(format!(
                "{} is another shard's folder, but this run plays shard {shard}: give ",
                out.display()
            ))
            .name(&OUT)
            .then(format!(
                " {} (the whole run's folder: each shard goes to its shards/I-of-N)",
                whole.display()
            )),
        ));
    }
    match held {
        Some(held) => Err(Error::said(
            Said::text(format!(
                "{} holds shard {held} itself, as shards were written before ",
                out.display()
            ))
            .name(&OUT)
            .then(format!(
                " named the whole run's folder: move it to {}, then play shard {shard} again",
                ResultsFolder::at(out)
                    .path(FolderFile::Shards)
                    .join(held.folder_name())
                    .display()
            )),
        )),
        None => Ok(ResultsFolder::at(out)
            .path(FolderFile::Shards)
            .join(shard.folder_name())),
    }
}

/// Plays an experiment (or the rest of it, with `resume`) and writes its results.
pub fn run(experiment: &Experiment, options: &RunOptions<'_>) -> Result<RunSummary> {
    run_locked(experiment, options, None).map(|(summary, _)| summary)
}

/// [`run`], handing back the folder's lock: a study that writes its own files into
/// the run's folder (`sweep.csv`, `ablation.csv`) writes them under the same lock.
/// A study's shard records `study`, so that hints about it name the study's command.
pub fn run_locked(
    experiment: &Experiment,
    options: &RunOptions<'_>,
    study: Option<Study>,
) -> Result<(RunSummary, FolderLock)> {
    let shard = options.shard;
    let out = options
        .out
        .clone()
        .unwrap_or_else(|| default_out(&experiment.name, shard));
    let schedule = Schedule::of(experiment);
    let total = shard.unwrap_or(Shard::whole()).games(schedule.total());
    let threads = experiment.setup.thread_count();
    let mut info = RunInfo {
        experiment_hash: Some(experiment_hash(experiment)),
        schedule_version: Some(SCHEDULE_VERSION),
        shard: shard.map(|s| s.to_string()),
        study: shard.and(study),
        timed: experiment.timed().then_some(true),
        ..RunInfo::starting(threads, total)
    };
    let mut tallies = Tallies::new(schedule.pairs().len());
    let asked = Asked {
        resume: options.resume,
        force: options.force,
        shard,
    };
    let Prepared {
        done,
        before,
        recorded,
        mut aside,
        lock,
    } = prepare(experiment, &schedule, &out, asked, &info, &mut tallies)?;

    let games_path = out.join(experiment.compress.file_name());
    let mut writer = GamesWriter::open(&games_path, experiment.compress, true)?;
    let progress = Progress::new(total, done, options.quiet, "games");
    let clock = Instant::now();
    let already_concluded = tallies.sprt_done.is_some() && shard.is_none();
    let mut engines = std::collections::BTreeMap::new();
    let played = with_geometry!(experiment.setup.size, G => {
        play::<G>(experiment, &schedule, shard, done, already_concluded, options, &progress, &mut tallies, &mut writer, &games_path, &before, &mut engines, &mut aside)
    });
    if total == 0 && played.is_ok() {
        // A shard with no game to play (more shards than pairs) is whole as soon as it
        // starts: the folder it replaces goes.
        if let Some(replaced) = aside.take() {
            remove_aside(&replaced)?;
        }
    }
    if let Some(aside) = aside {
        // The new run wrote no game (stopped or failed before its first): the folder
        // it replaces goes back as it was.
        drop(lock);
        let _ = fs::remove_dir_all(&out);
        fs::rename(&aside, &out).map_err(|e| Error::io_during("restore", &aside, e))?;
        played?;
        return Err(Error::input(format!(
            "stopped before the new run wrote a game: {} is left as it was",
            out.display()
        )));
    }
    progress.finish();
    let run_path = ResultsFolder::at(&out).path(FolderFile::RunRecord);
    let record = |info: RunInfo| {
        write_atomically(&run_path, run_record(experiment, info).to_text().as_bytes())
    };
    let (streamed, broken) = match played.and_then(|p| writer.finish(&games_path).map(|()| p)) {
        Ok(played) => played,
        Err(error) => {
            // A failed write (a full disk): the rows up to the last checkpoint are
            // kept, and the status says the run did not end by itself, if it can still
            // be written.
            info.status = Status::Stopped;
            info.stopped_by = Some(error.to_string());
            let _ = record(info);
            return Err(error);
        }
    };
    let seconds = clock.elapsed().as_secs_f64();
    let status = if broken.is_some() {
        Status::Stopped
    } else if streamed.interrupted {
        Status::Interrupted
    } else if shard.is_some() {
        Status::Complete
    } else {
        tallies.sprt_done.unwrap_or(Status::Complete)
    };
    let played = streamed.consumed;
    let compressed = experiment.compress != games_file::Compression::None;
    if status.is_finished() && (shard.is_some() || compressed) {
        // A shard records its games' digest, which `merge` checks: an edited row is caught.
        let digest = games_file::seal(&games_path)?;
        info.games_sha256 = shard.map(|_| digest);
    }
    write_costs(experiment, &out, &before, &streamed.costs)?;
    // A shard's figures would describe a sample of the games: `merge` writes them.
    let (pairs, standings) = if !status.is_finished() || shard.is_some() {
        (Vec::new(), Vec::new())
    } else {
        write_tables(experiment, &tallies, &out)?
    };
    match recorded {
        // A resume of a run that had ended played nothing: its record of how it was
        // made stays as it was.
        Some(recorded) if played == 0 && recorded.status == status && status.is_finished() => {}
        _ => {
            info.status = status;
            info.games = Some(done + played);
            info.games_this_session = Some(played);
            info.elapsed_seconds = Some((seconds * 1000.0).round() / 1000.0);
            info.games_per_second = Some((played as f64 / seconds.max(1e-9)).round());
            info.engines = (!engines.is_empty()).then_some(engines);
            info.stopped_by = broken.as_ref().map(|b| b.line(resume_fix()).to_string());
            record(info)?;
        }
    }
    if let Some(broken) = broken {
        return Err(Error::said(broken.line(resume_fix())));
    }
    Ok((
        RunSummary {
            out,
            games: done + played,
            played,
            seconds,
            status,
            threads,
            pairs,
            standings,
        },
        lock,
    ))
}

/// Writes `costs.csv`: what this invocation's games cost each player, added to
/// `before`, the costs recorded for the games it resumed after (so the file covers
/// every game of `games.csv` up to the point it is written).
fn write_costs(experiment: &Experiment, out: &Path, before: &[Cost], costs: &[Cost]) -> Result<()> {
    let names: Vec<&str> = experiment.players.iter().map(|p| p.name.as_str()).collect();
    let path = out.join(COSTS_FILE);
    let total: Vec<Cost> = before.iter().zip(costs).map(|(a, b)| *a + *b).collect();
    write_atomically(&path, &csv_bytes(&cost_rows(&names, &total), &path)?)
}

/// Writes `pairs.csv` and `standings.csv` from the tallies of every game, and returns their rows.
pub(crate) fn write_tables(
    experiment: &Experiment,
    tallies: &Tallies,
    out: &Path,
) -> Result<(Vec<PairRow>, Vec<StandingRow>)> {
    let pairs = tallies.pair_rows(experiment);
    let standings = tallies.standing_rows(experiment);
    let folder = ResultsFolder::at(out);
    let pairs_path = folder.path(FolderFile::Pairs);
    write_atomically(&pairs_path, &csv_bytes(&pairs, &pairs_path)?)?;
    let standings_path = folder.path(FolderFile::Standings);
    write_atomically(&standings_path, &csv_bytes(&standings, &standings_path)?)?;
    Ok((pairs, standings))
}

/// Appends the `games.csv` row of a finished game to `into` and returns black's
/// margin: game number `index` of pair `pair`, opened by `opening`, between `names`
/// (black, white), seeded by `seed`. The row borrows its text, and the transcript is
/// written into a buffer each thread keeps, so a row costs no allocation of its own.
#[allow(clippy::too_many_arguments)]
pub fn write_game_row<G: Geometry>(
    index: u64,
    pair: u64,
    opening: &str,
    names: [&str; 2],
    seed: u64,
    game: &Game<G>,
    rules: Rules,
    into: &mut Vec<u8>,
) -> i32 {
    thread_local! {
        static MOVES: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    let outcome = game.outcome(rules).expect("played to the end");
    MOVES.with_borrow_mut(|moves| {
        moves.clear();
        game.write_transcript(moves);
        let record = GameRow {
            game_id: index,
            pair_id: pair,
            opening: opening.into(),
            black: names[0].into(),
            white: names[1].into(),
            black_discs: outcome.black_discs,
            white_discs: outcome.white_discs,
            result: outcome.result_name().into(),
            margin: outcome.margin,
            plies: game.moves().len() as u32,
            passes: game.passes(),
            moves: moves.as_str().into(),
            seed,
            termination: game.termination().name().into(),
        };
        record.write_csv(into);
    });
    outcome.margin
}

/// A game the runner deals to the driver: what its `games.csv` row needs besides the
/// game itself.
struct Dealt {
    /// The game's number in the whole schedule.
    index: u64,
    slot: Slot,
    opening: String,
    /// Black's and white's player indices.
    seats: [usize; 2],
    seed: u64,
}

/// A finished game whose row is written: what the runner tallies from it, in order.
struct Written {
    slot: Slot,
    /// Black's disc margin.
    black_margin: i32,
    /// Black's and white's player indices.
    seats: [usize; 2],
    /// The player that lost it by a fault, and how.
    at_fault: Option<(usize, Termination)>,
}

/// Plays games `done..` through the driver, writing and counting them in order.
#[allow(clippy::too_many_arguments)]
fn play<G: Geometry>(
    experiment: &Experiment,
    schedule: &Schedule,
    shard: Option<Shard>,
    done: u64,
    already_concluded: bool,
    options: &RunOptions<'_>,
    progress: &Progress,
    tallies: &mut Tallies,
    writer: &mut GamesWriter,
    games_path: &Path,
    before: &[Cost],
    engines: &mut std::collections::BTreeMap<String, String>,
    aside: &mut Option<PathBuf>,
) -> Result<(super::driver::Streamed, Option<Broken>)> {
    let strategies: Vec<Box<dyn Strategy<G>>> = experiment
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            p.spec
                .build::<G>(experiment.setup.rules)
                .map(|s| held_to(s, experiment.time_of(i)))
                .map_err(|e| Error::input(format!("player '{}': {e}", p.name)))
        })
        .collect::<Result<_>>()?;
    let folder = games_path.parent().unwrap_or(Path::new("."));
    // Players that keep a log (engines, Python workers) log to the folder.
    if strategies.iter().any(|s| s.keeps_log()) {
        prepare_logs(
            folder,
            crate::setting::Said::text("remove what stands there, or choose another ")
                .name(&crate::lab::storage::folder::OUT),
        )?;
    }
    for (strategy, player) in strategies.iter().zip(&experiment.players) {
        strategy.attach(&logs_in(folder, &player.name));
        if let Some(identity) = strategy.identity() {
            engines.insert(player.name.clone(), identity);
        }
    }
    let players: Vec<&dyn Strategy<G>> = strategies.iter().map(AsRef::as_ref).collect();
    let driver = Driver::<G>::new(experiment.setup.threads)?;
    let part = shard.unwrap_or(Shard::whole());
    // Past MAX_FAULTS_IN_A_ROW faults in a row a player is broken, and the run stops
    // (every finished game kept) rather than forfeit game after game.
    let mut faults = FaultWatch::new(experiment.players.len());
    let end = if already_concluded {
        done
    } else {
        part.games(schedule.total())
    };
    let rules = experiment.setup.rules;
    let mut since_flush = 0u64;
    let mut broken = None;
    let streamed = driver.stream_rows(
        &players,
        done..end,
        |local| {
            let index = part.game(local);
            let (slot, opening, deal) = schedule.deal::<G>(index);
            let dealt = Dealt {
                index,
                slot,
                opening,
                seats: deal.seats,
                seed: deal.seed,
            };
            (dealt, deal)
        },
        |_, dealt: Dealt, game, csv| {
            let Dealt {
                index,
                slot,
                opening,
                seats,
                seed,
            } = dealt;
            let names = seats.map(|i| experiment.players[i].name.as_str());
            let black_margin =
                write_game_row(index, slot.pair, &opening, names, seed, game, rules, csv);
            Written {
                slot,
                black_margin,
                seats,
                at_fault: at_fault(game, seats),
            }
        },
        options.stop,
        |delivery| match delivery {
            Delivery::Row(
                Written {
                    slot,
                    black_margin,
                    seats,
                    at_fault,
                },
                csv,
            ) => {
                writer
                    .write_all(csv)
                    .map_err(|e| Error::io(games_path, e))?;
                since_flush += 1;
                let concluded =
                    tallies.record_game(experiment, slot, black_margin) && shard.is_none();
                if let Some((player, last)) = faults.record(seats, at_fault) {
                    // The engine is broken: no game starts, the games in flight are
                    // dropped, and the ones kept are checkpointed before the stop.
                    broken = Some(Broken::new(
                        &experiment.players[player].name,
                        last,
                        strategies[player].keeps_log().then_some(folder),
                    ));
                    return Ok(Flow::Stop);
                }
                if since_flush.is_multiple_of(1024) {
                    writer.flush().map_err(|e| Error::io(games_path, e))?;
                }
                Ok(if concluded {
                    Flow::Stop
                } else {
                    Flow::Continue
                })
            }
            Delivery::Checkpoint(costs) => {
                // Rows reach the disk in step with the progress shown, within a
                // checkpoint's interval of their game's end, and the costs recorded
                // cover exactly the rows in the file.
                writer.flush().map_err(|e| Error::io(games_path, e))?;
                write_costs(experiment, folder, before, costs)?;
                if let Some(replaced) = aside.take() {
                    // The new run has written a game: the folder it replaces goes.
                    remove_aside(&replaced)?;
                }
                progress.advance(since_flush);
                if let Some(played) = options.played {
                    played.fetch_add(since_flush, Ordering::Relaxed);
                }
                since_flush = 0;
                if let Some(sprt) = experiment.sprt.filter(|_| shard.is_none()) {
                    let llr = tallies.pairs[0].penta.llr(sprt.elo0, sprt.elo1);
                    progress.message(format!("LLR {llr:.2}"));
                }
                Ok(Flow::Continue)
            }
        },
    )?;
    Ok((streamed, broken))
}
