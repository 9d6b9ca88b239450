//! reversi-lab: a research harness for Reversi (Othello) strategies.
//!
//! The library holds all the logic and links no command-line parser; the
//! `reversi-lab` binary (the package in `cli/`) parses its arguments and calls it.
//!
//! ```
//! use reversi_lab::board::{squares, Board, Size8, Square};
//! use reversi_lab::perft::perft;
//!
//! let start = Board::<Size8>::start();
//! let moves: Vec<String> = squares(start.moves()).map(|s| s.name(8)).collect();
//! assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
//! let after = start.play(Square::parse("f5", 8).unwrap());
//! assert_eq!(after.opponent_count(), 4); // black, who just moved, has 4 discs
//! assert_eq!(perft(start, 6), 8200);
//! ```

#![warn(missing_docs)]

// The unit tests name the library as the integration tests do, so that one file,
// `strategy/reference.rs`, compiles in both (see its top).
#[cfg(test)]
extern crate self as reversi_lab;

pub mod board;
pub mod chart;
pub mod cpu;
pub mod doc;
pub mod error;
pub mod game;
pub mod lab;
pub mod numbers;
pub mod perft;
pub mod progress;
pub mod report;
pub mod serve;
pub mod setting;
pub mod shown;
pub mod stats;
pub mod strategy;
pub mod studies;
pub mod web;

pub use error::{Error, Result};
