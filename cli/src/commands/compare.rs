//! `reversi-lab compare`: two runs of one field, and what changed.

use super::Said;
use crate::commands::Outcome;
use reversi_lab::error::Result;
use reversi_lab::lab::folder::FolderLock;
use reversi_lab::studies::compare::{
    compare as compare_runs, default_out, prepare_folder, Anchor, COMPARE_FILES,
};
use std::io::Write;
use std::path::PathBuf;

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

/// Runs `reversi-lab compare`: prints the table and writes the folder.
pub fn compare(args: &CompareArgs, out: &mut dyn Write) -> Result<Outcome> {
    let comparison = compare_runs(&args.a, &args.b, &Anchor::parse(&args.anchor))?;
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(&args.a, &args.b));
    prepare_folder(&dir, args.force)?;
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
    Ok(Outcome::Finished)
}
