//! `reversi-lab export`: a results folder's games as GGF or one CSV row per move.

use super::Outcome;
use reversi_lab::error::{Error, Result};
use reversi_lab::lab::export::{export, Format};
use reversi_lab::lab::folder::{check_not_an_input, check_output_file, write_output};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Options of `reversi-lab export`.
#[derive(Clone, Debug, clap::Args)]
pub struct ExportArgs {
    /// The results folder (its games.csv or games.csv.zst).
    pub results: PathBuf,
    /// `ggf`: one game per line in the Generic Game Format; `csv-moves`: one row per move.
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// Output file (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
}

/// Runs `reversi-lab export`: writes the games to `--out` or to `out`; returns the
/// number of games written.
pub fn export_games(args: &ExportArgs, out: &mut dyn Write) -> Result<Outcome> {
    let format = args.format.into();
    match &args.out {
        None => export(&args.results, format, out, Path::new("standard output"))
            .map(|_| Outcome::Finished),
        Some(path) => {
            check_output_file(path, "--out")?;
            if path.exists() && !args.force {
                return Err(Error::input(format!(
                    "{} already exists: --force replaces it, or choose another --out",
                    path.display()
                )));
            }
            let inputs = ["games.csv", "games.csv.zst", "run.toml"].map(|f| args.results.join(f));
            check_not_an_input(path, "--out", inputs.iter().map(PathBuf::as_path))?;
            // Written whole or not at all (a regular file), so a failed export never
            // leaves half a file under the name asked for.
            write_output(path, |writer| export(&args.results, format, writer, path))
                .map(|_| Outcome::Finished)
        }
    }
}

/// `--format` of `export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// One game per line in the Generic Game Format (GGS, NBoard, Edax).
    Ggf,
    /// One CSV row per move or pass: game_id, ply, player, colour, square, opening, discs after.
    CsvMoves,
}

impl From<ExportFormat> for Format {
    fn from(format: ExportFormat) -> Self {
        match format {
            ExportFormat::Ggf => Format::Ggf,
            ExportFormat::CsvMoves => Format::CsvMoves,
        }
    }
}
