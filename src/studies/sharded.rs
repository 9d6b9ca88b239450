//! A study that plays one experiment (a sweep, an ablation) plays it whole, as one
//! shard of a split, or merges its shards, as `run` and `merge` do: the study's own
//! file is then written from the merged games, so it equals the unsharded study's.

use crate::error::{Error, Result};
use crate::lab::folder::{FolderLock, OUT};
use crate::lab::merge::{merge, MergeOptions};
use crate::lab::runner::{default_out, run_folder, run_locked};
use crate::lab::shard::SHARD;
use crate::lab::shard::{experiment_hash, Study};
use crate::lab::{
    Experiment, FolderFile, PairRow, ResultsFolder, RunOptions, Shard, StandingRow, Status,
};
use crate::setting::Said;
use std::path::PathBuf;

/// Which part of a study's games an invocation plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Part {
    /// Every game, on this machine.
    #[default]
    Whole,
    /// One shard of a split (into `results/<name>/shards/I-of-N` by default).
    Shard(Shard),
    /// No game: merge the shards under the results folder (of the split of this many
    /// shards, when there are several).
    Merge(Option<u64>),
}

/// What the games came to.
pub struct Played {
    /// The results folder.
    pub out: PathBuf,
    /// The run's or the merge's closing line.
    pub line: crate::setting::Said,
    /// How the run (or the merged run) stands.
    pub status: Status,
    /// Whether the study's own files are due: the games are whole and finished
    /// (not a shard, whose figures would describe a sample, nor an interrupted run).
    pub whole: bool,
    /// The rows of `pairs.csv`.
    pub pairs: Vec<PairRow>,
    /// The rows of `standings.csv`.
    pub standings: Vec<StandingRow>,
    /// The folder's lock, held while the study writes its own files.
    pub lock: Option<FolderLock>,
}

/// Plays `experiment` (or merges its shards) as `part` says, for the command `study`
/// (`sweep`, `ablate`: what hints name). `--out DIR` names the study's folder in
/// every part: a shard goes in `DIR/shards/I-of-N`, where `--merge --out DIR` finds it.
pub fn play(
    experiment: &Experiment,
    options: &RunOptions<'_>,
    part: Part,
    study: Study,
) -> Result<Played> {
    let split = match part {
        Part::Merge(split) => split,
        Part::Whole | Part::Shard(_) => {
            let shard = match part {
                Part::Shard(shard) => Some(shard),
                _ => None,
            };
            let options = RunOptions {
                out: Some(folder(experiment, options.out.as_deref(), shard)?),
                shard,
                ..*options
            };
            let (summary, lock) = run_locked(experiment, &options, Some(study))?;
            return Ok(Played {
                line: summary.line(),
                status: summary.status,
                whole: shard.is_none() && summary.status != Status::Interrupted,
                out: summary.out,
                pairs: summary.pairs,
                standings: summary.standings,
                lock: Some(lock),
            });
        }
    };
    let out = options
        .out
        .clone()
        .unwrap_or_else(|| default_out(&experiment.name, None));
    check_shards_match(experiment, &out, split, study)?;
    let summary = merge(
        std::slice::from_ref(&out),
        &MergeOptions {
            out: None,
            force: options.force,
            quiet: options.quiet,
            split,
            study: Some(study),
        },
    )?;
    // The study's own files go in under the folder's lock, as after a run.
    let lock = FolderLock::acquire(&summary.out)?;
    Ok(Played {
        line: crate::setting::Said::text(summary.line()),
        status: summary.status,
        whole: true,
        out: summary.out,
        pairs: summary.pairs,
        standings: summary.standings,
        lock: Some(lock),
    })
}

/// Where a study's games go: `--out DIR` (default `results/<name>`) is the study's
/// folder, and shard I of N goes in its `shards/I-of-N`, where `--merge` finds it (as
/// for a run: [`run_folder`]).
pub fn folder(
    experiment: &Experiment,
    out: Option<&std::path::Path>,
    shard: Option<Shard>,
) -> Result<PathBuf> {
    run_folder(&experiment.name, out, shard)
}

/// Refuses shards played from another file (or other `--games`) than the one given to
/// merge them, or by another command: the study's own file would describe other
/// players than the games'.
fn check_shards_match(
    experiment: &Experiment,
    out: &std::path::Path,
    split: Option<u64>,
    study: Study,
) -> Result<()> {
    let shards = ResultsFolder::at(out).path(FolderFile::Shards);
    let Ok(entries) = std::fs::read_dir(&shards) else {
        return Err(Error::said(
            Said::text(format!(
                "{} holds no shards: play them first (the same command with ",
                out.display()
            ))
            .placeholder(&SHARD, "I/N")
            .then("), or give ")
            .name(&OUT)
            .then(" the folder whose shards/ holds them"),
        ));
    };
    let hash = experiment_hash(experiment);
    let mut dirs: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    dirs.sort();
    for dir in dirs {
        let Some(record) = ResultsFolder::at(&dir).record_if_any().ok().flatten() else {
            continue;
        };
        let count = record
            .run
            .shard
            .as_deref()
            .and_then(|s| Shard::parse(s).ok())
            .map(|s| s.count());
        if split.is_some() && count != split {
            continue;
        }
        // Another command's shards (a plain run's, another study's): its own merge,
        // not a file or --games this one would never match.
        if record.run.study != Some(study) {
            return Err(Error::input(format!(
                "{} holds the shards of `reversi-lab {}`, not of `reversi-lab {}`: merge them with `{}`",
                out.display(),
                record.run.study.map_or("run", |s| s.command()),
                study.command(),
                crate::lab::shard::merges(record.run.study, Some(out))
            )));
        }
        if record.run.experiment_hash.as_deref() != Some(hash.as_str()) {
            return Err(Error::said(
                Said::text(format!(
                    "{} was played from another file or with other settings than this one (its experiment differs): merge with the file and ",
                    dir.display()
                ))
                .name(&crate::lab::setup::GAMES_PER_PAIR)
                .then(" the shards were played with"),
            ));
        }
    }
    Ok(())
}
