//! reversi-lab: a research harness for Reversi (Othello) strategies.
//!
//! The library holds all the logic; the `reversi-lab` binary only parses its
//! arguments and calls [`commands`].

#![warn(missing_docs)]

pub mod board;
pub mod commands;
pub mod error;
pub mod experiment;
pub mod game;
pub mod perft;
pub mod play;
pub mod progress;
pub mod report;
pub mod runner;
pub mod stats;
pub mod strategy;

pub use error::{Error, Result};
