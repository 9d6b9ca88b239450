//! `reversi-lab fit-patterns`: fits the 8x8 pattern evaluation to recorded games and
//! writes a weights file (the solver orders by the one built in:
//! `src/strategy/pattern/weights-8x8.bin.zst`, read when the crate is compiled).

use crate::error::{Error, Result};
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
pub fn fit_patterns(args: &FitPatternsArgs, out: &mut dyn Write) -> Result<()> {
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
    std::fs::write(&args.out, result.weights.encode()).map_err(|e| Error::io(&args.out, e))?;
    let o = &mut *out;
    let w = |e| Error::io("standard output", e);
    writeln!(
        o,
        "fitted {} positions of {} games in {:.1} s; wrote {}",
        thousands(result.positions as u64),
        thousands(result.games as u64),
        start.elapsed().as_secs_f64(),
        args.out.display()
    )
    .map_err(w)?;
    writeln!(
        o,
        "error on the held-out games (every {HOLD_OUT_EVERY}th), in discs of the final margin:"
    )
    .map_err(w)?;
    writeln!(o, "empties  fitted on  held out   error  spread").map_err(w)?;
    for s in &result.stages {
        writeln!(
            o,
            "{:>2}-{:<2}   {:>9}  {:>8}  {:>6.2}  {:>6.2}",
            s.empties.0, s.empties.1, s.train, s.test, s.rmse, s.spread
        )
        .map_err(w)?;
    }
    Ok(())
}
