//! `reversi-lab label`: recorded games into labelled training positions (the options
//! turned into `studies::label`'s, and its summary printed).

use super::{Outcome, Said};
use reversi_lab::error::Result;
use reversi_lab::lab::folder::{check_not_an_input, check_output_file};
use reversi_lab::lab::setup::{check_threads, THREADS};
use reversi_lab::lab::ResultsFolder;
use reversi_lab::progress::thousands;
use reversi_lab::studies::label::{self, LabelOptions, DEFAULT_DEPTH, DEFAULT_EXACT};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Options of `reversi-lab label`.
#[derive(Clone, Debug, clap::Args)]
pub struct LabelArgs {
    /// Results folders whose games to label (8x8, standard rules), such as results/selfplay.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The positions file to write; rerunning the same command resumes it.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Plies searched with the pattern evaluation for positions not solved exactly.
    #[arg(long, value_name = "PLIES", default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,
    /// Solve positions with at most this many empty squares exactly (0: never).
    #[arg(long, value_name = "EMPTIES", default_value_t = DEFAULT_EXACT)]
    pub exact: u32,
    /// Only label positions with LOW to HIGH empty squares.
    #[arg(long, value_name = "LOW-HIGH", default_value = "0-60", value_parser = parse_range)]
    pub empties: (u32, u32),
    /// The evaluation's weights file, as fit-patterns writes (default: the shipped weights).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Threads (default: one per core); the file is the same for any count.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Start afresh, replacing the file (finished or checkpointed) once the new one is finished.
    #[arg(long)]
    pub force: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

pub(super) fn parse_range(text: &str) -> std::result::Result<(u32, u32), String> {
    let bad = || format!("'{text}' is not a range: give LOW-HIGH, such as 14-26");
    let (low, high) = text.split_once('-').ok_or_else(bad)?;
    Ok((
        low.trim().parse().map_err(|_| bad())?,
        high.trim().parse().map_err(|_| bad())?,
    ))
}

/// `reversi-lab label`: labels, then says what the file holds.
pub fn label(args: &LabelArgs, stop: &AtomicBool, out: &mut dyn Write) -> Result<Outcome> {
    check_output_file(&args.out, "--out")?;
    let inputs: Vec<PathBuf> = (args.dirs.iter())
        .flat_map(|d| ResultsFolder::at(d).game_inputs())
        .chain(args.weights.clone())
        .collect();
    check_not_an_input(&args.out, "--out", inputs.iter().map(PathBuf::as_path))?;
    if let Some(threads) = args.threads {
        check_threads(threads, &THREADS)?;
    }
    let done = label::label(&LabelOptions {
        inputs: args.dirs.clone(),
        out: args.out.clone(),
        depth: args.depth,
        exact: args.exact,
        empties: args.empties,
        weights: args.weights.clone(),
        threads: args.threads,
        force: args.force,
        quiet: args.quiet,
        stop,
    })?;
    let labelled = done.exact + done.searched;
    writeln!(
        out,
        "labelled {} positions of {} games in {:.1} s ({}/s): {} by a depth-{} search, {} solved exactly (at most {} empties)",
        thousands(labelled),
        thousands(done.games_done - done.resumed_games),
        done.seconds,
        thousands((labelled as f64 / done.seconds.max(1e-3)).round() as u64),
        thousands(done.searched),
        args.depth,
        thousands(done.exact),
        args.exact
    )
    .said()?;
    if done.interrupted {
        let kept = match &done.unfinished {
            Some(work) => format!(
                "{} holds {} positions until {} is finished; rerun the same command to resume",
                work.display(),
                thousands(done.records),
                args.out.display()
            ),
            None => format!(
                "{} got {} positions and cannot be resumed (it is not a file)",
                args.out.display(),
                thousands(done.records)
            ),
        };
        writeln!(
            out,
            "interrupted after {} of {} games: {kept}",
            thousands(done.games_done),
            thousands(done.games)
        )
        .said()?;
        return Ok(Outcome::Interrupted);
    }
    let resumed = if done.resumed_games > 0 {
        format!(" (resumed after {} games)", thousands(done.resumed_games))
    } else {
        String::new()
    };
    writeln!(
        out,
        "wrote {}: {} positions of {} games{resumed}",
        args.out.display(),
        thousands(done.records),
        thousands(done.games)
    )
    .said()?;
    Ok(Outcome::Finished)
}
