//! What each subcommand does, called by the thin binary with its parsed options:
//! each command's clap option struct sits next to the function that runs it.

mod analyze;
mod cli;
mod cluster;
mod compare;
mod export;
mod import;
pub mod interactive;
mod lab;
mod label;
mod matches;
mod openings;
mod patterns;
mod position;
mod probcut;
mod recipes;
mod rules;
mod serve;
mod solve;
mod sprt_plan;
mod strategies;
mod sweep;
mod usage;
mod whole;

pub use analyze::{analyze, AnalyzeArgs};
pub use cli::{interrupt_flag, Cli, Command};
pub use cluster::{cluster, merge, ClusterArgs, MergeArgs};
pub use compare::{compare, CompareArgs};
pub use export::{export_games, ExportArgs, ExportFormat};
pub use import::{import_games, ImportArgs};
pub use interactive::{play, replay, watch, PlayArgs, ReplayArgs, WatchArgs};
pub use lab::{ablate, report, run, tune, AblateArgs, OutputArgs, RunArgs, TuneArgs};
pub use label::{label, LabelArgs};
pub use matches::{play_match, MatchArgs};
pub use openings::{openings, OpeningsArgs};
pub use patterns::{fit_patterns, pattern_error, FitPatternsArgs, PatternErrorArgs};
pub use position::{perft, show, PerftArgs, PositionArgs, ShowArgs};
pub use probcut::{fit_probcut, FitProbCutArgs};
pub use rules::RulesArgs;
pub use serve::{gtp, nboard, ServeArgs};
pub use solve::{solve, SolveArgs};
pub use sprt_plan::{sprt_plan, SprtPlanArgs};
pub use strategies::{strategies, StrategiesArgs};
pub use sweep::{sweep, SweepArgs};
pub use usage::{negative_numbers_as_values, parse_arguments, parse_arguments_from, usage_error};

/// How a command ended, for the exit code: every command returns one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It did what was asked (every game played, or an SPRT concluded).
    Finished,
    /// Stopped by Ctrl-C: `--resume` continues (exit code 130).
    Interrupted,
    /// It ran, and what it checked disagreed (`solve` against the scores in its file; exit code 1).
    Disagreed,
}

impl Outcome {
    /// The process's exit code.
    #[must_use]
    pub const fn exit_code(self) -> u8 {
        match self {
            Outcome::Finished => 0,
            Outcome::Interrupted => 130,
            Outcome::Disagreed => 1,
        }
    }
}

/// How a command prints its result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// For people.
    #[default]
    Text,
    /// For scripts: JSON (`match`: one object; `solve`: one object per line; `strategies`: one array).
    Json,
}

/// Writes a results folder's report and says its warnings on stderr, where the run
/// is watched, as well as in the report. Returns the files written.
fn write_report(dir: &std::path::Path) -> reversi_lab::error::Result<Vec<std::path::PathBuf>> {
    let written = reversi_lab::report::write_report(dir)?;
    for warning in &written.warnings {
        eprintln!("warning: {warning}");
    }
    Ok(written.files)
}

/// What a command writes on standard output: a failed write (a full disk, a closed
/// terminal) ends the command with one line naming standard output (exit code 1);
/// a reader that stopped early (`| head`) is not a failure, and the command goes on.
pub(crate) trait Said {
    /// The write's outcome as the command's.
    fn said(self) -> reversi_lab::error::Result<()>;
}

impl Said for std::io::Result<()> {
    fn said(self) -> reversi_lab::error::Result<()> {
        match self {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(
                reversi_lab::error::Error::io_during("write", "standard output", e),
            ),
            _ => Ok(()),
        }
    }
}
