//! The experiment layer: the shared setup, experiments, the schedule of games, the
//! play driver, the runner and the rows of its results files.
//!
//! Everything that plays games (`run`, `match`, `tune`, `ablate`) goes through
//! [`Schedule`] (which game is which) and [`Driver`] (who plays it, where).

pub mod formats;
pub mod running;
pub mod storage;

// The rest of the crate keeps writing `lab::rows`, `lab::folder`, ...: the three
// jobs are folders here, not new names to learn outside `lab/`.
pub use formats::{export, import, positions, recorded};
pub use running::{
    config, cost, driver, experiment, faults, matches, overrides, runner, schedule, setup, tally,
};
pub use storage::{folder, games_file, merge, provenance, results_folder, rows, shard};

pub use cost::Cost;
pub use driver::{play_game, play_game_costed, Delivery, Driver, Flow, Streamed};
pub use experiment::{Experiment, ExperimentBuilder, Format, Player, Sprt};
pub use matches::{summary, summary_json, MatchOptions, MatchPlan, MatchTally};
pub use overrides::{Overrides, DEFAULT_EXPERIMENT};
pub use recorded::{load_game, recorded_run, ReplaySetting, ReplayableGame};
pub use results_folder::recorded_text;
pub use results_folder::{FolderKind, RecordKind, RecordedExperiment, ResultsFolder};
pub use rows::{CostRow, GameRow, PairRow, RunInfo, RunToml, StandingRow, Status};
pub use runner::{run, RunOptions, RunSummary};
pub use schedule::{Deal, Schedule, Seeds, Slot};
pub use setup::{Openings, Setup, SetupFile};
pub use shard::Shard;
pub use storage::file_names::FolderFile;
