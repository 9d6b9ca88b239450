//! `reversi-lab fit-probcut`: fits Multi-ProbCut's lines to positions of recorded
//! games (`studies::probcut`) and writes them as CSV, the table `probcut` plays with
//! (the shipped one is `src/strategy/alphabeta/probcut-8x8.csv`).

use super::{Outcome, Said};
use reversi_lab::error::{Error, Result};
use reversi_lab::lab::folder::{
    check_not_an_input, check_output_file, check_replaceable, write_output, FolderLock,
};
use reversi_lab::lab::setup::{check_threads, THREADS};
use reversi_lab::lab::ResultsFolder;
use reversi_lab::progress::thousands;
use reversi_lab::studies::probcut::{self, ProbCutOptions, MAX_DEPTH};
use std::io::Write;
use std::path::PathBuf;

/// Options of `reversi-lab fit-probcut`.
#[derive(Clone, Debug, clap::Args)]
pub struct FitProbCutArgs {
    /// Results folders whose games' positions to sample (8x8, standard rules).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The CSV to write: one line per stage of 4 empties and depth.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The deepest search; lines are fitted from depth 3 up to it.
    #[arg(long, value_name = "PLIES", default_value_t = 10)]
    pub depth: u32,
    /// Search one position in this many (each distinct position counted once).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub every: usize,
    /// Only positions with LOW to HIGH empty squares.
    #[arg(long, value_name = "LOW-HIGH", default_value = "12-59", value_parser = super::label::parse_range)]
    pub empties: (u32, u32),
    /// The evaluation's weights file (default: the shipped weights).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Threads (default: one per core); the lines are the same for any count.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Replace --out if it exists.
    #[arg(long)]
    pub force: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `reversi-lab fit-probcut`: fits, writes the CSV and prints the lines.
pub fn fit_probcut(args: &FitProbCutArgs, out: &mut dyn Write) -> Result<Outcome> {
    check_output_file(&args.out, "--out")?;
    let inputs: Vec<PathBuf> = (args.dirs.iter())
        .flat_map(|d| ResultsFolder::at(d).game_inputs())
        .chain(args.weights.clone())
        .collect();
    check_not_an_input(&args.out, "--out", inputs.iter().map(PathBuf::as_path))?;
    if !(3..=MAX_DEPTH).contains(&args.depth) {
        return Err(Error::input(format!(
            "--depth {} is out of range: give 3 to {MAX_DEPTH}",
            args.depth
        )));
    }
    if args.every == 0 {
        return Err(Error::input("--every 0: give 1 (every position) or more"));
    }
    let (low, high) = args.empties;
    if low > high || high > 60 {
        return Err(Error::input(format!(
            "--empties {low}-{high} is not a range of empty squares: give LOW-HIGH with LOW <= HIGH <= 60, such as 12-59"
        )));
    }
    if let Some(threads) = args.threads {
        check_threads(threads, &THREADS)?;
    }
    // Locked before it is looked at: a second fit into the file is refused while this
    // one runs, rather than racing it to the same file.
    let _lock = FolderLock::acquire_file(&args.out, "fit-probcut")?;
    check_replaceable(&args.out, &reversi_lab::lab::folder::OUT, args.force)?;
    let fit = probcut::fit(&ProbCutOptions {
        inputs: args.dirs.clone(),
        depth: args.depth,
        every: args.every,
        empties: args.empties,
        weights: args.weights.clone(),
        threads: args.threads,
        quiet: args.quiet,
    })?;
    write_output(&args.out, |file| {
        let mut csv = csv::Writer::from_writer(file);
        for row in &fit.rows {
            csv.serialize(row)
                .map_err(|e| Error::csv("write", &args.out, e))?;
        }
        csv.flush().map_err(|e| Error::io(&args.out, e))
    })?;
    let o = &mut *out;
    writeln!(
        o,
        "searched {} positions to depths 1-{} in {:.1} s; wrote {} to {}",
        thousands(fit.positions as u64),
        args.depth,
        fit.seconds,
        reversi_lab::numbers::counted(fit.rows.len() as u64, "line"),
        args.out.display()
    )
    .said()?;
    writeln!(
        o,
        "empties  depth  shallow  pairs  slope  intercept  sigma (discs)"
    )
    .said()?;
    for r in &fit.rows {
        let first = r.stage * reversi_lab::strategy::probcut::STAGE_EMPTIES;
        writeln!(
            o,
            "{:>2}-{:<2}    {:>5}  {:>7}  {:>5}  {:>5.3}  {:>9.2}  {:>5.2}",
            first,
            first + reversi_lab::strategy::probcut::STAGE_EMPTIES - 1,
            r.depth,
            r.shallow,
            r.pairs,
            r.slope,
            r.intercept,
            r.sigma
        )
        .said()?;
    }
    Ok(Outcome::Finished)
}
