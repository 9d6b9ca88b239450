//! `reversi-lab fit-patterns`: fits the 8x8 pattern evaluation to recorded games and
//! writes a weights file (the solver orders by the one built in:
//! `src/strategy/pattern/weights-8x8.bin.zst`, read when the crate is compiled).

use super::Said;
use crate::commands::Outcome;
use crate::error::{Error, Result};
use crate::lab::folder::{check_not_an_input, check_output_file, write_atomically};
use crate::progress::thousands;
use crate::studies::patterns::{fit, HOLD_OUT_EVERY};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Options of `reversi-lab fit-patterns`.
#[derive(Clone, Debug, clap::Args)]
pub struct FitPatternsArgs {
    /// Results folders whose games to fit to (8x8, standard rules).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The weights file to write (the shipped one is src/strategy/pattern/weights-8x8.bin.zst).
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the positions per stage.
    #[arg(long, default_value_t = 40)]
    pub iterations: usize,
    /// Replace --out if it exists.
    #[arg(long)]
    pub force: bool,
}

/// `reversi-lab fit-patterns`: fits, writes the file and prints each stage's error.
pub fn fit_patterns(args: &FitPatternsArgs, out: &mut dyn Write) -> Result<Outcome> {
    check_output_file(&args.out, "--out")?;
    let inputs: Vec<PathBuf> = (args.dirs.iter())
        .flat_map(|d| ["games.csv", "games.csv.zst", "run.toml"].map(|f| d.join(f)))
        .collect();
    check_not_an_input(&args.out, "--out", inputs.iter().map(PathBuf::as_path))?;
    if args.out.exists() && !args.force {
        return Err(Error::input(format!(
            "{} exists: pass --force to replace it, or choose another --out",
            args.out.display()
        )));
    }
    if !(1..=10_000).contains(&args.iterations) {
        return Err(Error::input(format!(
            "--iterations {} is out of range: give 1 to 10000",
            args.iterations
        )));
    }
    let start = Instant::now();
    let result = fit(&args.dirs, args.iterations)?;
    write_atomically(&args.out, &result.weights.encode())?;
    let o = &mut *out;
    writeln!(
        o,
        "fitted {} positions of {} games in {:.1} s; wrote {}",
        thousands(result.positions as u64),
        thousands(result.games as u64),
        start.elapsed().as_secs_f64(),
        args.out.display()
    )
    .said()?;
    writeln!(
        o,
        "error on the held-out games (every {HOLD_OUT_EVERY}th), in discs of the final margin:"
    )
    .said()?;
    writeln!(o, "empties  fitted on  held out   error  spread").said()?;
    for s in &result.stages {
        writeln!(
            o,
            "{:>2}-{:<2}   {:>9}  {:>8}  {:>6.2}  {:>6.2}",
            s.empties.0, s.empties.1, s.train, s.test, s.rmse, s.spread
        )
        .said()?;
    }
    Ok(Outcome::Finished)
}
