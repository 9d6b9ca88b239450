//! The `reversi-lab` command line: parses arguments and hands them to the library.

use reversi_lab_cli::commands::{parse_arguments, usage_error, Cli};
use std::process::ExitCode;

fn main() -> ExitCode {
    let missing = reversi_lab::cpu::missing_features();
    if !missing.is_empty() {
        eprintln!("error: {}", reversi_lab::cpu::advice(&missing));
        return ExitCode::from(1);
    }
    let cli = match parse_arguments::<Cli>() {
        Ok(cli) => cli,
        // --help and --version: clap's own.
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            eprintln!("error: {}", usage_error(&e));
            return ExitCode::from(2);
        }
    };
    match cli.run() {
        Ok(outcome) => ExitCode::from(outcome.exit_code()),
        Err(err) => {
            eprintln!("error: {}", err.worded(reversi_lab::setting::Edge::Cli));
            ExitCode::from(err.exit_code())
        }
    }
}
