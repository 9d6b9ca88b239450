//! `merge`: checks that shard folders make one whole experiment, then streams their games
//! back into game order and recomputes every figure from the games, so the merged folder
//! equals, byte for byte, what one machine would have written.

use super::folder::write_atomically;
use super::folder::{
    a_file_not_a_folder, check_not_in_a_shard, holder, FolderLock, Staged, FORCE, OUT,
};
use super::games_file::{self, Compression, GamesWriter};
use super::results_folder::{FolderFile, ResultsFolder};
use super::rows::{csv_bytes, csv_header, GameRow, PairRow, RunInfo, RunToml, StandingRow, Status};
use super::shard::{
    check_schedule_version, experiment_hash, plays, plays_into, whole_run_of, Shard, Study,
    Unmerged, SCHEDULE_VERSION, SHARD, SHARDS,
};
use crate::error::{Error, Result};
use crate::lab::running::cost::{cost_rows, read_costs, Cost, COSTS_FILE};
use crate::lab::running::experiment::Experiment;
use crate::lab::running::runner::write_tables;
use crate::lab::running::schedule::Schedule;
use crate::lab::running::tally::Tallies;
use crate::numbers::counted;
use crate::progress::Progress;
use crate::setting::Said;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

mod stream;
use stream::stream;

/// How a merge is carried out.
#[derive(Clone, Debug, Default)]
pub struct MergeOptions {
    /// Where the merged results go (default: the folder holding `shards/`).
    pub out: Option<PathBuf>,
    /// Replace merged results already in the output folder.
    pub force: bool,
    /// No progress bar.
    pub quiet: bool,
    /// Of a folder holding shards of several splits, merge the one of this many shards.
    pub split: Option<u64>,
    /// The study command whose shards these are (`sweep`, `ablate`; None: `run`'s),
    /// so that a hint names the command that plays a shard.
    pub study: Option<Study>,
}

/// What a merge wrote.
#[derive(Clone, Debug)]
pub struct MergeSummary {
    /// The merged results folder.
    pub out: PathBuf,
    /// Shards merged.
    pub shards: u64,
    /// Games in the merged `games.csv`.
    pub games: u64,
    /// Games the shards played (more than `games` when an SPRT cut the merged run short).
    pub played: u64,
    /// Seconds the merge took.
    pub seconds: f64,
    /// How the merged run ended.
    pub status: Status,
    /// The rows of `pairs.csv`.
    pub pairs: Vec<PairRow>,
    /// The rows of `standings.csv`.
    pub standings: Vec<StandingRow>,
    /// The folder already held exactly these merged games: nothing was written.
    pub unchanged: bool,
}

impl MergeSummary {
    /// The closing line.
    #[must_use]
    pub fn line(&self) -> String {
        let cut = match self.status {
            Status::SprtAcceptedH1 | Status::SprtAcceptedH0 => format!(
                ", SPRT accepted {} after {} games (as one machine would have stopped; the shards played {})",
                if self.status == Status::SprtAcceptedH1 { "H1" } else { "H0" },
                self.games,
                self.played
            ),
            _ => String::new(),
        };
        if self.unchanged {
            return format!(
                "{} already holds these {} merged games (from {} shard{}): nothing changed",
                self.out.display(),
                self.games,
                self.shards,
                if self.shards == 1 { "" } else { "s" }
            );
        }
        format!(
            "merged {} from {} in {:.2} s{cut}; results in {}",
            counted(self.games, "game"),
            counted(self.shards, "shard"),
            self.seconds,
            self.out.display()
        )
    }
}

/// A shard folder, what its `run.toml` says, and the experiment it recorded.
struct Part {
    dir: PathBuf,
    shard: Shard,
    record: RunToml,
    experiment: Experiment,
}

/// The shard folders a merge reads, and the default output folder: one folder holding
/// `shards/`, or a list of shard folders (merged into the folder above their `shards/`).
fn shard_folders(
    paths: &[PathBuf],
    study: Option<Study>,
) -> Result<(Vec<PathBuf>, Option<PathBuf>)> {
    if let [only] = paths {
        let under = ResultsFolder::at(only).path(FolderFile::Shards);
        if under.is_dir() {
            let mut dirs: Vec<PathBuf> = fs::read_dir(&under)
                .map_err(|e| Error::io_during("list", &under, e))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.is_dir())
                .collect();
            dirs.sort();
            if dirs.is_empty() {
                return Err(Error::input(format!(
                    "{} holds no shard folders: run the shards first ({})",
                    under.display(),
                    plays_into(study, "I/N", Some(only))
                )));
            }
            return Ok((dirs, Some(only.clone())));
        }
        if !only.is_dir() {
            return Err(Error::input(format!(
                "{} is not a folder: give the results folder that holds shards/, or the shard folders",
                only.display()
            )));
        }
    }
    let above = |p: &PathBuf| {
        let parent = p.parent()?;
        (parent.file_name()? == FolderFile::Shards.name())
            .then(|| parent.parent().map(Path::to_path_buf))?
    };
    let first = paths.first().and_then(above);
    let out = first.filter(|f| paths.iter().all(|p| above(p).as_ref() == Some(f)));
    Ok((paths.to_vec(), out))
}

/// Reads a shard folder's `run.toml`.
fn part(dir: &Path) -> Result<Part> {
    let folder = ResultsFolder::at(dir);
    let path = folder.path(FolderFile::RunRecord);
    let record = folder.record("give the shard folders, or the folder holding shards/")?;
    let Some(text) = record.run.shard.as_deref() else {
        return Err(Error::said(
            Said::text(format!(
                "{} is a whole run, not a shard (it was not run with ",
                dir.display()
            ))
            .name(&SHARD)
            .then("): merge only shard folders"),
        ));
    };
    let shard = Shard::parse(text).map_err(|_| {
        Error::input(format!(
            "{}: shard = \"{text}\" is not a shard: the file was changed by hand",
            path.display()
        ))
    })?;
    let experiment = Experiment::recorded(&record.experiment, dir)?;
    Ok(Part {
        dir: dir.to_path_buf(),
        shard,
        record,
        experiment,
    })
}

/// The settings two shards' experiments differ in (the thread count aside), as
/// `KEY = A in shard I/N but B in shard J/N`: a merge continues neither, so it names no
/// option to pass as `--resume` would.
fn unlike(a: &Part, b: &Part) -> Vec<String> {
    let (x, y) = (&a.record.experiment, &b.record.experiment);
    let mut keys: Vec<&String> = x
        .keys()
        .chain(y.keys())
        .filter(|k| *k != "threads")
        .collect();
    keys.sort();
    keys.dedup();
    let show = |v: Option<&toml::Value>| v.map_or("(none)".to_string(), ToString::to_string);
    keys.into_iter()
        .filter(|k| x.get(*k) != y.get(*k))
        .map(|k| match k.as_str() {
            "players" | "rules" | "openings" | "sprt" => format!("{k} differs"),
            _ => format!(
                "{k} = {} in shard {} but {} in shard {}",
                show(x.get(k)),
                a.shard,
                show(y.get(k)),
                b.shard
            ),
        })
        .collect()
}

/// Of the shard folders under one `shards/`, those of one split: `split`, or the only
/// one there is (several without `split` are refused, naming them).
fn one_split(
    parts: Vec<Part>,
    split: Option<u64>,
    under: &Path,
    study: Option<Study>,
) -> Result<Vec<Part>> {
    let mut counts: Vec<u64> = parts.iter().map(|p| p.shard.count()).collect();
    counts.sort_unstable();
    counts.dedup();
    let shards = ResultsFolder::at(under).path(FolderFile::Shards);
    match split {
        Some(n) if !counts.contains(&n) => Err(Error::input(format!(
            "{} holds no shard of a {n}-shard split (it holds {}): run them first ({}), or give the split they have",
            shards.display(),
            splits(&counts),
            plays_into(study, &format!("I/{n}"), Some(under))
        ))),
        Some(n) => Ok(parts.into_iter().filter(|p| p.shard.count() == n).collect()),
        None if counts.len() > 1 => Err(Error::said(
            Said::text(format!(
                "{} holds shards of {} splits ({}): pass ",
                shards.display(),
                counts.len(),
                splits(&counts)
            ))
            .placeholder(&SHARDS, "N")
            .then(" to merge one of them"),
        )),
        None => Ok(parts),
    }
}

fn splits(counts: &[u64]) -> String {
    let list: Vec<String> = counts.iter().map(u64::to_string).collect();
    format!("{} shards", list.join(", "))
}

/// Checks that the parts are every shard of one experiment, each complete, and puts them in order.
fn check(mut parts: Vec<Part>, study: Option<Study>) -> Result<Vec<Part>> {
    let first = &parts[0];
    let count = first.shard.count();
    let name = |p: &Part| format!("shard {} ({})", p.shard, p.dir.display());
    for p in &parts {
        let info = &p.record.run;
        let hash = experiment_hash(&p.experiment);
        if info.experiment_hash.as_deref() != Some(hash.as_str()) {
            return Err(Error::said(
                Said::text(format!(
                    "{}: run.toml's experiment does not match its experiment_hash (was it edited by hand?): rerun the shard with ",
                    name(p)
                ))
                .name(&FORCE),
            ));
        }
        if p.shard.count() != count {
            return Err(Error::input(format!(
                "{} and {} come from different splits ({count} and {} shards): merge the shards of one split",
                name(first),
                name(p),
                p.shard.count()
            )));
        }
        if info.experiment_hash != first.record.run.experiment_hash {
            return Err(Error::input(format!(
                "{} and {} belong to different experiments ({}): play every shard of one experiment (rerun the odd one with `{} --force` from the same file), then merge again",
                name(first),
                name(p),
                Some(unlike(first, p).join("; "))
                    .filter(|d| !d.is_empty())
                    .unwrap_or_else(|| "their openings files differ".into()),
                plays_into(study, &p.shard.to_string(), Some(folder_of(&p.dir)))
            )));
        }
        if info.version != first.record.run.version {
            return Err(Error::input(format!(
                "{} was made by reversi-lab {} but {} by {}: rerun the shards with one version",
                name(first),
                first.record.run.version,
                name(p),
                info.version
            )));
        }
        check_schedule_version(
            &p.dir,
            info.schedule_version,
            "rerun the shards with this version",
        )?;
    }
    parts.sort_by_key(|p| p.shard.index());
    for w in parts.windows(2) {
        if w[0].shard == w[1].shard {
            return Err(Error::input(format!(
                "{} and {} are both shard {}: keep one of them",
                w[0].dir.display(),
                w[1].dir.display(),
                w[0].shard
            )));
        }
    }
    let found = Unmerged {
        study,
        shards: parts
            .iter()
            .map(|p| (p.shard, p.record.run.status))
            .collect(),
    };
    if let Some((which, them, command)) = found.missing_hint(whole_run_of(&parts[0].dir)) {
        return Err(Error::input(format!(
            "{which} missing: run {them} ({command}), then merge again"
        )));
    }
    for p in &parts {
        match p.record.run.status {
            Status::Complete => {}
            Status::Running if holder(&p.dir).is_some() => {
                return Err(Error::input(format!(
                    "{} is still running: merge once it has finished",
                    name(p)
                )))
            }
            _ => {
                return Err(Error::input(format!(
                    "{} did not finish (it was interrupted or killed): continue it with `{} --shard {} --out {} --resume`, then merge again",
                    name(p),
                    // A run's own run.toml gives its config and games again.
                    study.map_or("reversi-lab run".into(), |_| plays(study)),
                    p.shard,
                    folder_of(&p.dir).display()
                )));
            }
        }
    }
    Ok(parts)
}

/// Merges shard folders (or the one folder holding `shards/`) into one run's results.
pub fn merge(paths: &[PathBuf], options: &MergeOptions) -> Result<MergeSummary> {
    let clock = Instant::now();
    let (dirs, default_out) = shard_folders(paths, options.study)?;
    let mut parts: Vec<Part> = dirs.iter().map(|d| part(d)).collect::<Result<_>>()?;
    // A plain `merge` of a study's shards: their run.toml names the study.
    let study = options
        .study
        .or_else(|| parts.iter().find_map(|p| p.record.run.study));
    if let (Some(under), [_]) = (&default_out, paths) {
        parts = one_split(parts, options.split, under, study)?;
    } else if let Some(n) = options.split {
        if let Some(p) = parts.iter().find(|p| p.shard.count() != n) {
            return Err(Error::input(format!(
                "{} holds shard {}, not one of {n}: give the folders of the {n}-shard split",
                p.dir.display(),
                p.shard
            )));
        }
    }
    let dirs: Vec<PathBuf> = parts.iter().map(|p| p.dir.clone()).collect();
    let parts = check(parts, study)?;
    // A plain `merge` of a study's shards would join its variants as one run's players
    // and drop the study's own table: the study merges them.
    if let (None, Some(study)) = (options.study, study) {
        let whole = parts
            .first()
            .and_then(|p| whole_run_of(&p.dir))
            .map_or_else(|| "DIR".into(), |d| d.display().to_string());
        return Err(Error::input(format!(
            "these are the shards of a {0} (their run.toml says so): merge them with `reversi-lab {0} FILE --merge --out {whole}`, which also writes the {0}'s own table",
            study.command()
        )));
    }
    let out = options.out.clone().or(default_out).ok_or_else(|| {
        Error::said(
            Said::text("these shard folders are not under one results/<name>/shards/: give ")
                .placeholder(&OUT, "DIR")
                .then(" for the merged results"),
        )
    })?;
    // Merged results written into a shard's own folder would replace the shard's files.
    check_not_in_a_shard(&out, &OUT, dirs.iter().map(PathBuf::as_path))?;
    let recorded = &parts[0].record;
    let experiment = &parts[0].experiment;
    let schedule = Schedule::of(experiment);
    for p in &parts {
        let expected = p.shard.games(schedule.total());
        if p.record.run.games != Some(expected) {
            return Err(Error::said(
                Said::text(format!(
                    "shard {} ({}) records {} games but its share is {expected}: rerun it with ",
                    p.shard,
                    p.dir.display(),
                    p.record.run.games.map_or("no".into(), |g| g.to_string())
                ))
                .name(&FORCE),
            ));
        }
    }

    if out.exists() && !out.is_dir() {
        return Err(a_file_not_a_folder(&out));
    }
    // Merged results already there: the same games again (a recipe submitted twice)
    // change nothing; others are replaced only with --force.
    let existing = games_file::find(&out)
        .filter(|_| !options.force)
        .map(|(path, _)| path);
    if existing.is_some() {
        let other = || {
            Error::said(
                Said::text(format!(
                    "{} holds the results of another experiment than these shards: pass ",
                    out.display()
                ))
                .name(&FORCE)
                .then(" to replace them, or ")
                .placeholder(&OUT, "DIR"),
            )
        };
        let record = RunToml::load(&ResultsFolder::at(&out).path(FolderFile::RunRecord))
            .map_err(|_| other())?;
        if record.run.experiment_hash != recorded_hash(&parts) {
            return Err(other());
        }
        if games_file::find(&out).map(|(p, _)| p) != Some(out.join(experiment.compress.file_name()))
        {
            return Err(other());
        }
    }
    let games_path = out.join(experiment.compress.file_name());
    let created = !out.exists();
    fs::create_dir_all(&out).map_err(|e| Error::io_during("create", &out, e))?;
    let lock = FolderLock::acquire(&out)?;
    let merged = Staged::new(&games_path).and_then(|staged| {
        match stream(&parts, experiment, &schedule, staged.path(), options.quiet) {
            Ok(done) => Ok((staged, done)),
            Err(error) => {
                // Nothing of a failed merge stays behind.
                staged.discard();
                Err(error)
            }
        }
    });
    let (staged, (games, played, tallies)) = match merged {
        Ok(done) => done,
        Err(error) => {
            drop(lock);
            if created {
                let _ = fs::remove_dir_all(&out);
            }
            return Err(error);
        }
    };
    if let Some(existing) = &existing {
        let same = games_file::same_bytes(staged.path(), existing);
        staged.discard();
        if !same? {
            return Err(Error::said(
                Said::text(format!(
                    "{} holds other merged games than these shards give (an earlier merge of other shards?): pass ",
                    existing.display()
                ))
                .name(&FORCE)
                .then(" to replace them, or ")
                .placeholder(&OUT, "DIR"),
            ));
        }
        return Ok(MergeSummary {
            out,
            shards: parts.len() as u64,
            games,
            played,
            seconds: clock.elapsed().as_secs_f64(),
            status: tallies.sprt_done.unwrap_or(Status::Complete),
            pairs: tallies.pair_rows(experiment),
            standings: tallies.standing_rows(experiment),
            unchanged: true,
        });
    }
    for other in [Compression::None, Compression::Zstd] {
        // A forced merge replaces the games file in either form.
        let _ = fs::remove_file(out.join(other.file_name()));
    }
    staged.finish()?;
    let (pairs, standings) = write_tables(experiment, &tallies, &out)?;
    merge_costs(&parts, experiment, &out)?;
    let status = tallies.sprt_done.unwrap_or(Status::Complete);
    let info = RunInfo {
        version: recorded.run.version.clone(),
        status,
        games: Some(games),
        experiment_hash: recorded.run.experiment_hash.clone(),
        schedule_version: Some(SCHEDULE_VERSION),
        timed: recorded.run.timed,
        engines: recorded.run.engines.clone(),
        merged_from: Some(parts.iter().map(|p| p.dir.display().to_string()).collect()),
        ..RunInfo::starting(recorded.run.threads, schedule.total())
    };
    let record = RunToml {
        run: info,
        experiment: recorded.experiment.clone(),
        import: None,
    };
    let run_out = ResultsFolder::at(&out).path(FolderFile::RunRecord);
    crate::lab::folder::write_atomically(&run_out, record.to_text())?;
    Ok(MergeSummary {
        out,
        shards: parts.len() as u64,
        games,
        played,
        seconds: clock.elapsed().as_secs_f64(),
        status,
        pairs,
        standings,
        unchanged: false,
    })
}

/// The folder a shard's hint names as `--out`: the whole run's above its `shards/`,
/// or the shard's own (continued in place).
fn folder_of(dir: &Path) -> &Path {
    whole_run_of(dir).unwrap_or(dir)
}

fn recorded_hash(parts: &[Part]) -> Option<String> {
    parts[0].record.run.experiment_hash.clone()
}

/// Writes the sum of the shards' `costs.csv` (a shard without one adds nothing):
/// the cost of every game the shards played, which may be more games than the
/// merged `games.csv` keeps when an SPRT stops the merged run early.
fn merge_costs(parts: &[Part], experiment: &Experiment, out: &Path) -> Result<()> {
    let names: Vec<&str> = experiment.players.iter().map(|p| p.name.as_str()).collect();
    let mut total = vec![Cost::default(); names.len()];
    for part in parts {
        let costs = read_costs(&part.dir.join(COSTS_FILE), &names)?;
        for (sum, cost) in total.iter_mut().zip(costs) {
            *sum += cost;
        }
    }
    let path = out.join(COSTS_FILE);
    write_atomically(&path, &csv_bytes(&cost_rows(&names, &total), &path)?)
}

/// A refusal of a shard's files, `message` ending in "rerun ... with ", that the
/// user fixes by playing the shard again over them.
fn rerun_with_force(message: String) -> Error {
    Error::said(Said::text(message).name(&FORCE))
}
