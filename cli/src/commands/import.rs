//! `reversi-lab import`: WTHOR and GGF game files into a results folder.

use super::{Outcome, Said};
use reversi_lab::error::Result;
use reversi_lab::lab::folder::check_output_folder;
use reversi_lab::lab::import::{import, ImportOptions};
use reversi_lab::numbers::counted;
use std::io::Write;
use std::path::PathBuf;

/// How many lines of games left out or disagreeing are printed before a count.
const SHOWN: usize = 5;

/// Options of `reversi-lab import`.
#[derive(Clone, Debug, clap::Args)]
pub struct ImportArgs {
    /// The files: WTHOR game files (.wtb) with WTHOR.JOU (players' names) and
    /// WTHOR.TRN (tournaments' names) if you have them, and GGF files (.ggf).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The results folder to write (games.csv, imported.csv, run.toml).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Replace an existing results folder.
    #[arg(long)]
    pub force: bool,
    /// Leave out games with an illegal or unreadable move, a malformed GGF property or a GGF game cut short (each one is named and counted) instead of refusing the import.
    #[arg(long)]
    pub skip_bad: bool,
}

/// Runs `reversi-lab import`: writes the folder, then says what it holds, and on
/// stderr which games were left out and which recorded results disagree with the moves.
pub fn import_games(args: &ImportArgs, out: &mut dyn Write) -> Result<Outcome> {
    check_output_folder(&args.out, &reversi_lab::lab::folder::OUT)?;
    let done = import(&ImportOptions {
        files: args.files.clone(),
        out: args.out.clone(),
        force: args.force,
        skip_bad: args.skip_bad,
    })?;
    for line in &done.warnings {
        eprintln!("warning: {line}");
    }
    for (lines, what) in [
        (&done.left_out, "left out"),
        (&done.disagreements, "disagreeing with their moves"),
    ] {
        for line in lines.iter().take(SHOWN) {
            eprintln!("warning: {line}");
        }
        if lines.len() > SHOWN {
            eprintln!(
                "warning: and {} more games {what} (run.toml counts them by file)",
                lines.len() - SHOWN
            );
        }
    }
    writeln!(
        out,
        "imported {} ({}x{}, {}) from {} into {}{}",
        counted(done.games, "game"),
        done.size,
        done.size,
        counted(done.info.players.len() as u64, "player"),
        counted(done.info.sources.len() as u64, "file"),
        done.out.display(),
        match (done.left_out.len(), done.disagreements.len()) {
            (0, 0) => String::new(),
            (left, disagree) => format!(
                "; {left} left out, {disagree} with a recorded result other than the moves' (imported.csv: agrees = no)"
            ),
        }
    )
    .said()?;
    Ok(Outcome::Finished)
}
