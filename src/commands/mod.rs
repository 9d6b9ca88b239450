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
