//! `run`, `report`, `tune` and `ablate`: commands that write a results folder.

use super::{Outcome, Said};
use reversi_lab::error::{Error, Result};
use reversi_lab::lab::{run as run_experiment, Overrides, RunOptions, RunSummary, Shard, Status};
use reversi_lab::lab::{FolderFile, ResultsFolder};
use reversi_lab::studies::sharded::Part;
use reversi_lab::studies::{ablate, tune};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// Options shared by commands that write a results folder.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct OutputArgs {
    /// Results folder (default: results/<name>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue what is already in the results folder (for `run`, its run.toml
    /// supplies the games, seed and threads not given again).
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
    /// Replace an existing results folder (kept until the new run has started writing).
    #[arg(long)]
    pub force: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

impl OutputArgs {
    /// The runner's options.
    #[must_use]
    pub fn options<'a>(&self, stop: &'a AtomicBool) -> RunOptions<'a> {
        RunOptions {
            out: self.out.clone(),
            resume: self.resume,
            force: self.force,
            quiet: self.quiet,
            stop,
            shard: None,
            played: None,
        }
    }
}

/// Options of `reversi-lab run`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct RunArgs {
    /// The experiment file (TOML).
    pub config: Option<PathBuf>,
    /// Where results go.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Threads (default: the experiment's, else one per core).
    #[arg(long, allow_negative_numbers = true, value_parser = super::whole::at_least::<usize>(1))]
    pub threads: Option<usize>,
    /// Games per pair of players, overriding the experiment (even).
    #[arg(long, allow_negative_numbers = true, value_parser = super::whole::at_least::<u64>(2))]
    pub games: Option<u64>,
    /// Seed, overriding the experiment.
    #[arg(long, allow_negative_numbers = true, value_parser = super::whole::at_least::<u64>(0))]
    pub seed: Option<u64>,
    /// Skip the charts and the report at the end.
    #[arg(long)]
    pub no_report: bool,
    /// Play only shard I of N (`I/N`, from 1) into results/<name>/shards/I-of-N (with
    /// --out DIR, DIR/shards/I-of-N: give every shard the same DIR), or `auto` to read it
    /// from a Slurm job array or a Kubernetes Indexed Job; `reversi-lab merge DIR` joins them.
    #[arg(long, value_name = "I/N|auto", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// The number of shards, for `--shard auto` under Kubernetes (the Job's completions).
    #[arg(long, value_name = "N", requires = "shard", allow_negative_numbers = true, value_parser = super::whole::at_least::<u64>(1))]
    pub shards: Option<u64>,
}

/// The shard `--shard I/N` names, or `--shard auto` reads from the scheduler's
/// environment (`--shards N` for a Kubernetes Indexed Job).
fn shard_of(text: Option<&str>, shards: Option<u64>) -> Result<Option<Shard>> {
    match text {
        None => Ok(None),
        Some("auto") => Shard::from_env(|k| std::env::var(k).ok(), shards).map(Some),
        Some(text) => {
            let shard = Shard::parse(text)?;
            match shards {
                Some(n) if n != shard.count() => Err(Error::input(format!(
                    "--shards {n} disagrees with --shard {text}: give one of them"
                ))),
                _ => Ok(Some(shard)),
            }
        }
    }
}

/// How a study that plays one experiment (`sweep`, `ablate`) is split over machines.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct SplitArgs {
    /// Play only shard I of N (`I/N`, from 1) into results/<name>/shards/I-of-N (with
    /// --out DIR, DIR/shards/I-of-N), or `auto` to read it from a Slurm job array or a
    /// Kubernetes Indexed Job; `--merge` (with the same --out) joins the shards.
    #[arg(long, value_name = "I/N|auto", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// The number of shards: for `--shard auto` under Kubernetes, or the split `--merge` joins.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = super::whole::at_least::<u64>(1))]
    pub shards: Option<u64>,
    /// Play no game: merge the shards under the results folder (results/<name>, or
    /// --out DIR with the shards in DIR/shards/) and write the study's own files.
    #[arg(long, conflicts_with_all = ["shard", "resume"])]
    pub merge: bool,
}

impl SplitArgs {
    /// Which part of the games to play.
    pub fn part(&self) -> Result<Part> {
        if self.merge {
            return Ok(Part::Merge(self.shards));
        }
        match shard_of(self.shard.as_deref(), self.shards)? {
            Some(shard) => Ok(Part::Shard(shard)),
            None if self.shards.is_some() => Err(Error::input(
                "--shards N goes with --shard auto or --merge: give one of them, or leave --shards out",
            )),
            None => Ok(Part::Whole),
        }
    }
}

impl RunArgs {
    /// The shard to play, if any: `--shard I/N`, or `--shard auto` from the scheduler's environment.
    pub fn shard(&self) -> Result<Option<Shard>> {
        shard_of(self.shard.as_deref(), self.shards)
    }

    /// What the command line changes of the experiment.
    pub fn overrides(&self) -> Result<Overrides> {
        Ok(Overrides {
            out: self.output.out.clone(),
            resume: self.output.resume,
            games: self.games,
            seed: self.seed,
            threads: self.threads,
            shard: self.shard()?,
        })
    }
}

/// `reversi-lab run`: plays an experiment, prints the closing line, then writes the report.
pub fn run(args: &RunArgs, stop: &AtomicBool, out: &mut dyn Write) -> Result<Outcome> {
    let overrides = args.overrides()?;
    if let (Some(config), Some(_)) = (&args.config, overrides.shard) {
        reversi_lab::lab::config::check_shardable(config, overrides.out.as_deref())?;
    }
    let experiment = overrides.load(args.config.as_deref())?;
    let shard = overrides.shard;
    let options = RunOptions {
        out: Some(overrides.out(&experiment.name)?),
        shard,
        ..args.output.options(stop)
    };
    let summary = run_experiment(&experiment, &options)?;
    // The report is written even when standard output fails: the run's results are whole.
    let said = writeln!(out, "{}", summary.line()).said();
    if shard.is_some() {
        return said.map(|()| Outcome::from(&summary));
    }
    if summary.status != Status::Interrupted && !args.no_report {
        let written = super::write_report(&summary.out)?;
        said?;
        report_line(&summary.out, written.len(), out)?;
        return Ok(Outcome::from(&summary));
    }
    said.map(|()| Outcome::from(&summary))
}

/// `reversi-lab report`: charts, report.md and report.html for a results folder.
pub fn report(dir: &Path, out: &mut dyn Write) -> Result<Outcome> {
    let written = super::write_report(dir)?;
    report_line(dir, written.len(), out)?;
    Ok(Outcome::Finished)
}

fn report_line(dir: &Path, files: usize, out: &mut dyn Write) -> Result<()> {
    writeln!(
        out,
        "wrote {}: {} and charts in {}",
        reversi_lab::numbers::counted(files as u64, "file"),
        reversi_lab::report::page(dir).display(),
        ResultsFolder::at(dir).path(FolderFile::Charts).display()
    )
    .said()
}

/// Options of `reversi-lab tune`.
#[derive(Clone, Debug, clap::Args)]
pub struct TuneArgs {
    /// The tune file (TOML).
    pub config: PathBuf,
    /// Where results go.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Threads (default: the file's `threads`, else one per core); no result depends on it.
    #[arg(long)]
    pub threads: Option<usize>,
}

/// `reversi-lab tune`: prints the tuned parameters and the validation lines, and
/// writes each validation run's report.
pub fn tune(args: &TuneArgs, stop: &AtomicBool, out: &mut dyn Write) -> Result<Outcome> {
    let summary = tune::tune(&args.config, args.threads, &args.output.options(stop))?;
    for line in &summary.lines {
        writeln!(out, "{line}").said()?;
    }
    if summary.interrupted {
        writeln!(
            out,
            "interrupted: rerun with --resume to continue ({})",
            summary.out.display()
        )
        .said()?;
        return Ok(Outcome::Interrupted);
    }
    // The tune's report, which also writes each validation run's.
    super::write_report(&summary.out)?;
    writeln!(out, "results in {}", summary.out.display()).said()?;
    Ok(Outcome::Finished)
}

/// Options of `reversi-lab ablate`.
#[derive(Clone, Debug, clap::Args)]
pub struct AblateArgs {
    /// The ablation file (TOML): name, games_per_pair, openings, alone, and [player].
    pub config: PathBuf,
    /// Where results go.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Games per pair, overriding the file (even).
    #[arg(long)]
    pub games: Option<u64>,
    /// Threads (default: the file's `threads`, else one per core); no result depends on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Sharding over machines.
    #[command(flatten)]
    pub split: SplitArgs,
}

/// `reversi-lab ablate`: prints the run's line and the table of feature worths,
/// and writes the report (a shard prints its line only).
pub fn ablate(args: &AblateArgs, stop: &AtomicBool, out: &mut dyn Write) -> Result<Outcome> {
    let (played, table) = ablate::ablate(
        &args.config,
        args.games,
        args.threads,
        &args.output.options(stop),
        args.split.part()?,
    )?;
    writeln!(out, "{}", played.line).said()?;
    if !played.whole {
        return Ok(Outcome::of(played.status));
    }
    super::write_report(&played.out)?;
    write!(out, "{table}").said()?;
    Ok(Outcome::Finished)
}

impl Outcome {
    /// How a command that played games (or merged them) ended.
    #[must_use]
    pub fn of(status: Status) -> Self {
        if status == Status::Interrupted {
            Outcome::Interrupted
        } else {
            Outcome::Finished
        }
    }
}

impl From<&RunSummary> for Outcome {
    fn from(summary: &RunSummary) -> Self {
        if summary.status == Status::Interrupted {
            Outcome::Interrupted
        } else {
            Outcome::Finished
        }
    }
}
