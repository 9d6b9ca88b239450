//! `run`, `report`, `tune` and `ablate`: commands that write a results folder.

use super::Said;
use crate::error::{Error, Result};
use crate::lab::experiment::check_games_per_pair;
use crate::lab::rows::{ResumeGiven, RunRecord};
use crate::lab::runner::default_out;
use crate::lab::setup::check_threads;
use crate::lab::{run as run_experiment, Experiment, RunOptions, RunSummary, Shard, Status};
use crate::studies::{ablate, tune};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The built-in default experiment (also committed as `experiments/default.toml`).
pub const DEFAULT_EXPERIMENT: &str = include_str!("../../experiments/default.toml");

/// How a command that plays for long ended: normally, or stopped by Ctrl-C
/// (`--resume` continues; the exit code is 130).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every game was played (or an SPRT concluded).
    Finished,
    /// Stopped by the user.
    Interrupted,
}

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
    #[arg(long)]
    pub threads: Option<usize>,
    /// Games per pair of players, overriding the experiment (even).
    #[arg(long)]
    pub games: Option<u64>,
    /// Seed, overriding the experiment.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Skip the charts and the report at the end.
    #[arg(long)]
    pub no_report: bool,
    /// Play only shard I of N (`I/N`, from 1) into results/<name>/shards/I-of-N, or
    /// `auto` to read it from a Slurm job array or a Kubernetes Indexed Job;
    /// `reversi-lab merge` joins the shards.
    #[arg(long, value_name = "I/N|auto")]
    pub shard: Option<String>,
    /// The number of shards, for `--shard auto` under Kubernetes (the Job's completions).
    #[arg(long, value_name = "N", requires = "shard")]
    pub shards: Option<u64>,
}

impl RunArgs {
    /// The shard to play, if any: `--shard I/N`, or `--shard auto` from the scheduler's environment.
    pub fn shard(&self) -> Result<Option<Shard>> {
        match self.shard.as_deref() {
            None => Ok(None),
            Some("auto") => Shard::from_env(|k| std::env::var(k).ok(), self.shards).map(Some),
            Some(text) => {
                let shard = Shard::parse(text)?;
                match self.shards {
                    Some(n) if n != shard.count() => Err(Error::input(format!(
                        "--shards {n} disagrees with --shard {text}: give one of them"
                    ))),
                    _ => Ok(Some(shard)),
                }
            }
        }
    }

    /// The results folder: `--out`, or `results/<name>` (a shard's under `shards/I-of-N`).
    fn out(&self, name: &str, shard: Option<Shard>) -> PathBuf {
        self.output
            .out
            .clone()
            .unwrap_or_else(|| default_out(name, shard))
    }
}

/// Loads an experiment (the built-in default without a config) with the command
/// line's overrides applied. With `--resume`, the folder's `run.toml` supplies the
/// experiment when no config is given, and the games, seed and threads not given again.
pub fn experiment(args: &RunArgs) -> Result<Experiment> {
    let experiment = match &args.config {
        Some(path) => Experiment::load(path)?,
        None => Experiment::parse(
            DEFAULT_EXPERIMENT,
            "built-in default experiment",
            Path::new("experiments"),
        )?,
    };
    with_overrides(experiment, args, args.config.is_some())
}

/// `experiment` with the command line's overrides applied, as [`experiment`] does;
/// `given` says whether the experiment came from the caller (a config file, or a
/// Python dict), else `--resume` takes it from the folder's `run.toml`.
pub fn with_overrides(
    mut experiment: Experiment,
    args: &RunArgs,
    given: bool,
) -> Result<Experiment> {
    let out = args.out(&experiment.name, args.shard()?);
    let run_path = out.join("run.toml");
    if args.output.resume && !given && !run_path.is_file() {
        return Err(Error::input(format!(
            "nothing to resume in {} (no run.toml): give the experiment file, or check --out",
            out.display()
        )));
    }
    if args.output.resume && run_path.is_file() {
        let record = RunRecord::load(&run_path)?;
        if !given {
            experiment = Experiment::recorded(&record.experiment, &out)?;
        }
        record.resume_settings(
            &mut experiment,
            // A config given again speaks for its own games and seed: a value changed in
            // it is then refused by the run (naming the field), never silently replaced
            // by the folder's.
            ResumeGiven {
                games: given || args.games.is_some(),
                seed: given || args.seed.is_some(),
                threads: args.threads.is_some(),
            },
        );
    }
    if let Some(games) = args.games {
        experiment.games_per_pair = check_games_per_pair(games, "--games ")?;
    }
    if let Some(seed) = args.seed {
        // run.toml records the seed as a TOML integer, which is signed 64-bit.
        if seed > i64::MAX as u64 {
            return Err(Error::input(format!(
                "--seed {seed} is too large: use 0 to {}",
                i64::MAX
            )));
        }
        experiment.setup.seed = seed;
    }
    if let Some(threads) = args.threads {
        experiment.setup.threads = Some(check_threads(threads, &format!("--threads {threads}"))?);
    }
    Ok(experiment)
}

/// `reversi-lab run`: plays an experiment, prints the closing line, then writes the report.
pub fn run(args: &RunArgs, stop: &AtomicBool, out: &mut dyn Write) -> Result<RunSummary> {
    let experiment = experiment(args)?;
    let shard = args.shard()?;
    let options = RunOptions {
        out: Some(args.out(&experiment.name, shard)),
        shard,
        ..args.output.options(stop)
    };
    let summary = run_experiment(&experiment, &options)?;
    // The report is written even when standard output fails: the run's results are whole.
    let said = writeln!(out, "{}", summary.line()).said();
    if shard.is_some() {
        return said.map(|()| summary);
    }
    if summary.status != Status::Interrupted && !args.no_report {
        let written = super::write_report(&summary.out)?;
        said?;
        report_line(&summary.out, written.len(), out)?;
        return Ok(summary);
    }
    said.map(|()| summary)
}

/// `reversi-lab report`: charts, report.md and report.html for a results folder.
pub fn report(dir: &Path, out: &mut dyn Write) -> Result<()> {
    let written = super::write_report(dir)?;
    report_line(dir, written.len(), out)
}

fn report_line(dir: &Path, files: usize, out: &mut dyn Write) -> Result<()> {
    writeln!(
        out,
        "wrote {files} files: {} and charts in {}",
        dir.join("report.html").display(),
        dir.join("charts").display()
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
pub fn tune(args: &TuneArgs, stop: &AtomicBool, out: &mut dyn Write) -> Result<Ending> {
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
        return Ok(Ending::Interrupted);
    }
    // The tune's report, which also writes each validation run's.
    super::write_report(&summary.out)?;
    writeln!(out, "results in {}", summary.out.display()).said()?;
    Ok(Ending::Finished)
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
}

/// `reversi-lab ablate`: prints the run's line and the table of feature worths,
/// and writes the report.
pub fn ablate(args: &AblateArgs, stop: &AtomicBool, out: &mut dyn Write) -> Result<Ending> {
    let (summary, table) = ablate::ablate(
        &args.config,
        args.games,
        args.threads,
        &args.output.options(stop),
    )?;
    writeln!(out, "{}", summary.line()).said()?;
    if summary.status == Status::Interrupted {
        return Ok(Ending::Interrupted);
    }
    super::write_report(&summary.out)?;
    write!(out, "{table}").said()?;
    Ok(Ending::Finished)
}

impl From<&RunSummary> for Ending {
    fn from(summary: &RunSummary) -> Self {
        if summary.status == Status::Interrupted {
            Ending::Interrupted
        } else {
            Ending::Finished
        }
    }
}
