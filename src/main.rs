//! The `reversi-lab` command line: parses arguments and hands them to the library.

use clap::{Parser, Subcommand};
use reversi_lab::commands;
use std::process::ExitCode;

/// A research harness for Reversi (Othello) strategies.
#[derive(Parser)]
#[command(name = "reversi-lab", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree DEPTH plies deep (checks and times the move generator).
    ///
    /// A pass counts as a ply; a finished game counts as one leaf at every depth past its end.
    Perft {
        /// Plies to search (1 to 30).
        depth: u32,
        /// Board size: 4, 6, 8 or 10 (default 8, or the size of --position).
        #[arg(long)]
        size: Option<u32>,
        /// Start from this OBF position (squares of X/O/-, a space, the side to move), or a file holding one.
        #[arg(long, allow_hyphen_values = true)]
        position: Option<String>,
        /// Threads to share the root moves among.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Draw a position with coordinates, its OBF line and its legal moves.
    Show {
        /// Moves to play first, as a transcript such as f5d6c3.
        moves: Option<String>,
        /// Board size: 4, 6, 8 or 10 (default 8, or the size of --position).
        #[arg(long)]
        size: Option<u32>,
        /// Start from this OBF position instead of the standard start, or a file holding one.
        #[arg(long, allow_hyphen_values = true)]
        position: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    let result = match cli.command {
        Command::Perft {
            depth,
            size,
            position,
            threads,
        } => commands::perft_command(depth, size, position.as_deref(), threads, &mut stdout)
            .map(|_| ()),
        Command::Show {
            moves,
            size,
            position,
        } => commands::show_command(size, position.as_deref(), moves.as_deref(), &mut stdout),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(err.exit_code())
        }
    }
}
