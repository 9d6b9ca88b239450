//! What each subcommand does, called by the thin binary with its parsed options:
//! each command's clap option struct sits next to the function that runs it.

mod analyze;
mod cluster;
mod compare;
pub mod interactive;
mod lab;
mod matches;
mod openings;
mod patterns;
mod play;
mod position;
mod recipes;
mod serve;
mod sprt_plan;
mod sweep;
mod usage;

pub use analyze::{analyze, AnalyzeArgs};
pub use cluster::{cluster, merge, ClusterArgs, MergeArgs};
pub use compare::{compare, export_games, CompareArgs, ExportArgs, ExportFormat};
pub use interactive::{play, replay, watch, PlayArgs, ReplayArgs, WatchArgs};
pub use lab::{
    ablate, experiment, report, run, tune, with_overrides, AblateArgs, Ending, OutputArgs, RunArgs,
    TuneArgs, DEFAULT_EXPERIMENT,
};
pub use matches::{play_match, summary, summary_json, MatchArgs, MatchPlan, MatchTally};
pub use openings::{openings, OpeningsArgs};
pub use patterns::{fit_patterns, FitPatternsArgs};
pub use play::{solve, strategies, RulesArgs, SolveArgs, StrategiesArgs};
pub use position::{perft, show, size_of_obf, PerftArgs, PositionArgs, ShowArgs};
pub use serve::{gtp, nboard, ServeArgs};
pub use sprt_plan::{sprt_plan, SprtPlanArgs};
pub use sweep::{sweep, SweepArgs};
pub use usage::usage_error;

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
fn write_report(dir: &std::path::Path) -> crate::error::Result<Vec<std::path::PathBuf>> {
    let written = crate::report::write_report(dir)?;
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
    fn said(self) -> crate::error::Result<()>;
}

impl Said for std::io::Result<()> {
    fn said(self) -> crate::error::Result<()> {
        match self {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(
                crate::error::Error::io_during("write", "standard output", e),
            ),
            _ => Ok(()),
        }
    }
}
