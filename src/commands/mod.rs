//! What each subcommand does, called by the thin binary with its parsed options:
//! each command's clap option struct sits next to the function that runs it.

mod lab;
mod play;
mod position;

pub use lab::{
    ablate, experiment, report, run, tune, AblateArgs, Ending, OutputArgs, RunArgs, TuneArgs,
    DEFAULT_EXPERIMENT,
};
pub use play::{play_match, solve, strategies, summary, MatchArgs, RulesArgs, SolveArgs};
pub use position::{perft, show, size_of_obf, PerftArgs, PositionArgs, ShowArgs};
