//! `reversi-lab analyze`: move quality against perfect play over a results folder's endgames.

use super::Said;
use reversi_lab::error::Result;
use reversi_lab::lab::folder::check_output_folder;
use reversi_lab::progress::thousands;
use reversi_lab::studies::analyze::{self, AnalyzeOptions, DEFAULT_BLUNDER, DEFAULT_ENDGAME};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use super::Outcome;

/// Options of `reversi-lab analyze`.
#[derive(Clone, Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The results folder whose games are analysed, such as results/default.
    pub results: PathBuf,
    /// Solve every position with at most K empty squares (1 to 20).
    #[arg(long, value_name = "K", default_value_t = DEFAULT_ENDGAME, allow_negative_numbers = true, value_parser = super::whole::at_least::<u32>(1))]
    pub endgame: u32,
    /// A move losing at least D discs against the best counts as a blunder.
    #[arg(long, value_name = "D", default_value_t = DEFAULT_BLUNDER)]
    pub blunder: u32,
    /// Threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Where analysis.csv, quality.csv and charts/quality-* go (default: the results folder).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue an interrupted analysis (its last, possibly partial, game is analysed again).
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
    /// Replace an existing analysis.csv.
    #[arg(long)]
    pub force: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `reversi-lab analyze`: analyses, then prints the figures and each player's line.
pub fn analyze(args: &AnalyzeArgs, stop: &AtomicBool, out: &mut dyn Write) -> Result<Outcome> {
    let options = AnalyzeOptions {
        endgame: args.endgame,
        blunder: args.blunder,
        threads: args.threads,
        resume: args.resume,
        force: args.force,
        quiet: args.quiet,
        stop,
    };
    if let Some(dir) = &args.out {
        check_output_folder(dir, &reversi_lab::lab::folder::OUT)?;
    }
    let done = analyze::analyze(&args.results, args.out.as_deref(), &options)?;
    let per_second = |n: u64| thousands((n as f64 / done.seconds.max(1e-3)).round() as u64);
    writeln!(
        out,
        "analysed {} of {} games in {:.1} s: {} positions ({}/s), {} nodes ({}/s), up to {} empties",
        thousands(done.analysed),
        thousands(done.games),
        done.seconds,
        thousands(done.positions),
        per_second(done.positions),
        thousands(done.nodes),
        per_second(done.nodes),
        args.endgame
    )
    .said()?;
    if done.interrupted {
        writeln!(
            out,
            "interrupted: --resume continues {}",
            done.out.join(analyze::ANALYSIS_FILE).display()
        )
        .said()?;
        return Ok(Outcome::Interrupted);
    }
    for row in done.quality.iter().filter(|r| r.empties == analyze::ALL) {
        let percent = |x: Option<f64>| x.map_or("-".into(), |v| format!("{:.1}%", 100.0 * v));
        let loss = match (row.loss_mean, row.loss_low, row.loss_high) {
            (Some(m), Some(l), Some(h)) => format!("{m:.2} [{l:.2}, {h:.2}]"),
            (Some(m), _, _) => format!("{m:.2}"),
            _ => "-".into(),
        };
        writeln!(
            out,
            "{}: {} moves, best {}, mean loss {} discs, blunders (>= {}) {}, first to change the exact result in {}",
            row.player,
            thousands(row.moves),
            percent(row.best_share),
            loss,
            row.blunder_at,
            percent(row.blunder_rate),
            reversi_lab::numbers::counted(row.first_turns, "game")
        )
        .said()?;
    }
    writeln!(
        out,
        "wrote {}, {} and {} charts in {}",
        analyze::ANALYSIS_FILE,
        analyze::QUALITY_FILE,
        done.charts.len(),
        done.out.display()
    )
    .said()?;
    Ok(Outcome::Finished)
}
