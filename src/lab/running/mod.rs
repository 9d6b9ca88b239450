//! Running experiments: the experiment and its settings, the schedule of games, the
//! play driver, the runner, matches and the tallies of results.

pub mod config;
pub mod cost;
pub mod driver;
pub mod experiment;
pub mod faults;
pub mod matches;
pub mod overrides;
mod prepare;
pub mod runner;
pub mod schedule;
pub mod setup;
pub mod shape;
pub mod tally;
