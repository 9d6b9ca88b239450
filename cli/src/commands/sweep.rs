//! `reversi-lab sweep`: plays a sweep's variants, prints each one's rating and
//! cost, and writes the report with the sweep's charts.

use super::lab::{OutputArgs, SplitArgs};
use super::Outcome;
use super::Said;
use reversi_lab::error::Result;
use reversi_lab::studies::sweep::{self, SweepRow};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Options of `reversi-lab sweep`.
#[derive(Clone, Debug, clap::Args)]
pub struct SweepArgs {
    /// The sweep file (TOML): name, games_per_pair, openings, and [sweep] with base,
    /// parameter, values or range, scale, plays and panel.
    pub config: PathBuf,
    /// Where results go.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Games per pair, overriding the file (even).
    #[arg(long)]
    pub games: Option<u64>,
    /// Threads, overriding the file (results do not depend on it).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Sharding over machines.
    #[command(flatten)]
    pub split: SplitArgs,
}

/// One line per variant: `depth=3  +112 [+80, +144]  gain +95.0/unit  1234.5 nodes/move`.
fn line(row: &SweepRow) -> String {
    format!(
        "{:<20} {}  gain {}  {} nodes/move",
        row.variant,
        reversi_lab::doc::elo_interval(row.rating, row.rating_low, row.rating_high),
        row.gain_per_step.map_or("-".to_string(), |g| format!(
            "{g:+.1}/{}",
            row.scale.step_name()
        )),
        row.nodes_per_move
            .map_or("-".to_string(), |n| format!("{n:.1}")),
    )
}

/// `reversi-lab sweep`: prints the run's line and each variant's rating, and writes the report.
pub fn sweep(args: &SweepArgs, stop: &AtomicBool, out: &mut dyn Write) -> Result<Outcome> {
    let (played, rows) = sweep::sweep(
        &args.config,
        args.games,
        args.threads,
        &args.output.options(stop),
        args.split.part()?,
    )?;
    writeln!(out, "{}", played.line).said()?;
    if !played.whole {
        return Ok(Outcome::of(played.status));
    }
    super::write_report(&played.out)?;
    for row in &rows {
        writeln!(out, "{}", line(row)).said()?;
    }
    writeln!(
        out,
        "report: {}",
        reversi_lab::report::page(&played.out).display()
    )
    .said()?;
    Ok(Outcome::Finished)
}
