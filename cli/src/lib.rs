//! The `reversi-lab` command line over the [`reversi_lab`] library: the clap grammar
//! and what each subcommand does ([`commands`]). The binary (`src/main.rs`) parses its
//! arguments with it; the integration tests and the benchmarks parse command lines with
//! the same grammar.

#![warn(missing_docs)]

pub mod commands;
