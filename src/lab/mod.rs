//! The experiment layer: the shared setup, experiments, the schedule of games, the
//! play driver, the runner and the rows of its results files.
//!
//! Everything that plays games (`run`, `match`, `tune`, `ablate`) goes through
//! [`Schedule`] (which game is which) and [`Driver`] (who plays it, where).

pub mod config;
pub mod cost;
pub mod driver;
pub mod experiment;
pub mod export;
pub mod faults;
mod flat_csv;
pub mod folder;
pub mod games_file;
pub mod import;
pub mod matches;
pub mod merge;
pub mod overrides;
pub mod positions;
pub mod provenance;
pub mod recorded;
pub mod results_folder;
pub mod rows;
pub mod runner;
pub mod schedule;
pub mod setup;
pub mod shard;
pub mod tally;

pub use cost::Cost;
pub use driver::{play_game, play_game_costed, Delivery, Driver, Flow, Streamed};
pub use experiment::{Experiment, ExperimentBuilder, Format, Player, Sprt};
pub use matches::{summary, summary_json, MatchOptions, MatchPlan, MatchTally};
pub use overrides::{Overrides, DEFAULT_EXPERIMENT};
pub use recorded::{load_game, recorded_run, ReplaySetting, ReplayableGame};
pub use results_folder::recorded_text;
pub use results_folder::{FolderFile, FolderKind, RecordKind, RecordedExperiment, ResultsFolder};
pub use rows::{CostRow, GameRow, PairRow, RunInfo, RunToml, StandingRow, Status};
pub use runner::{run, RunOptions, RunSummary};
pub use schedule::{Deal, Schedule, Seeds, Slot};
pub use setup::{Openings, Setup, SetupFile};
pub use shard::Shard;
