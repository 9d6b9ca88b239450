//! `compare` (two runs of one field: what changed) and `export` (a run's games as GGF
//! or one CSV row per move).

use super::Said;
use crate::error::{Error, Result};
use crate::lab::export::{export, Format};
use crate::lab::folder::{check_not_an_input, check_output_file, write_output, FolderLock};
use crate::studies::compare::{compare as compare_runs, default_out, Anchor, COMPARE_FILES};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Options of `reversi-lab compare`.
#[derive(Clone, Debug, clap::Args)]
pub struct CompareArgs {
    /// The first results folder (before).
    pub a: PathBuf,
    /// The second results folder (after): the same players, size, rules and format.
    pub b: PathBuf,
    /// What the ratings are measured from: `unchanged` (the mean of the players whose
    /// strategy is the same in A and B), `mean` (the field's) or a player's name.
    #[arg(
        long,
        default_value = "unchanged",
        value_name = "unchanged|mean|PLAYER"
    )]
    pub anchor: String,
    /// Output folder (default: results/compare-<A>-vs-<B>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace the files of an earlier comparison in the output folder.
    #[arg(long)]
    pub force: bool,
}

/// Prepares the output folder: new, or (with `force`) one an earlier comparison wrote.
fn output_folder(dir: &Path, force: bool) -> Result<()> {
    if dir.exists() {
        if !dir.is_dir() {
            return Err(Error::input(format!(
                "{} is a file: give --out a folder",
                dir.display()
            )));
        }
        let ours = COMPARE_FILES.iter().any(|f| dir.join(f).is_file());
        let empty = std::fs::read_dir(dir)
            .map_err(|e| Error::unreadable(dir, &e))?
            .next()
            .is_none();
        if !empty && !force {
            return Err(Error::input(format!(
                "{} already exists: --force replaces an earlier comparison there, or choose another --out",
                dir.display()
            )));
        }
        if !empty && !ours {
            return Err(Error::input(format!(
                "{} is not a comparison's folder (no compare.csv): --force replaces only a comparison; choose another --out",
                dir.display()
            )));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io_during("create", dir, e))
}

/// Runs `reversi-lab compare`: prints the table and writes the folder.
pub fn compare(args: &CompareArgs, out: &mut dyn Write) -> Result<PathBuf> {
    let comparison = compare_runs(&args.a, &args.b, &Anchor::parse(&args.anchor))?;
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(&args.a, &args.b));
    output_folder(&dir, args.force)?;
    let _lock = FolderLock::acquire(&dir)?;
    let chart = comparison.write(&dir)?;
    writeln!(out, "{}\n", comparison.anchor.note).said()?;
    write!(out, "{}", comparison.table()).said()?;
    let last = comparison.explanation().pop().unwrap_or_default();
    writeln!(out, "\n{last}").said()?;
    writeln!(
        out,
        "wrote {}, {} and {} (and .png)",
        dir.join(COMPARE_FILES[1]).display(),
        dir.join(COMPARE_FILES[0]).display(),
        chart.svg.display()
    )
    .said()?;
    Ok(dir)
}

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
pub fn export_games(args: &ExportArgs, out: &mut dyn Write) -> Result<u64> {
    let format = args.format.into();
    match &args.out {
        None => export(&args.results, format, out, Path::new("standard output")),
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
