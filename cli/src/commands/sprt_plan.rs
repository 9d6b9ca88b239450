//! `sprt-plan`: the command-line options of sizing an SPRT, turned into the study's options.

use crate::commands::Outcome;
use reversi_lab::error::{Error, Result};
use reversi_lab::lab::folder::{check_output_folder, check_replaceable};
use reversi_lab::stats::SprtDesign;
use reversi_lab::studies::sprt_plan::{run, PlanBase, PlanOptions};
use std::io::Write;
use std::path::PathBuf;

/// Options of `reversi-lab sprt-plan`.
#[derive(Clone, Debug, clap::Args)]
pub struct SprtPlanArgs {
    /// Elo under H0.
    #[arg(long, allow_negative_numbers = true)]
    pub elo0: f64,
    /// Elo under H1.
    #[arg(long, allow_negative_numbers = true)]
    pub elo1: f64,
    /// False-positive rate.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// False-negative rate.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// The share of drawn games between equal players (games independent).
    #[arg(long, conflicts_with = "from", default_value_t = 0.0)]
    pub draw_ratio: f64,
    /// Take the draw ratio and the pair variance from an earlier run's results folder.
    #[arg(long, value_name = "RESULTS_DIR")]
    pub from: Option<PathBuf>,
    /// With --from a run of several pairs of players: the pair whose games shape the
    /// plan, as A,B (names as in its pairs.csv).
    #[arg(long, value_name = "A,B", requires = "from")]
    pub pair: Option<String>,
    /// Also write sprt-plan.csv and charts sprt-plan.{png,svg} to this folder.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace an earlier plan in --out.
    #[arg(long)]
    pub force: bool,
}

/// Prints the plan's basis and table; writes its files with `--out`.
pub fn sprt_plan(args: &SprtPlanArgs, out: &mut dyn Write) -> Result<Outcome> {
    if let Some(dir) = &args.out {
        check_output_folder(dir, &reversi_lab::lab::folder::OUT)?;
        check_replaceable(
            &dir.join("sprt-plan.csv"),
            &reversi_lab::lab::folder::OUT,
            args.force,
        )?;
    }
    let pair = match &args.pair {
        None => None,
        Some(text) => match text.split_once(',') {
            Some((a, b)) if !a.is_empty() && !b.is_empty() => Some((a.to_string(), b.to_string())),
            _ => {
                return Err(Error::input(format!(
                    "--pair {text}: give two player names separated by a comma, as in pairs.csv"
                )))
            }
        },
    };
    let plan = run(&PlanOptions {
        design: SprtDesign {
            elo0: args.elo0,
            elo1: args.elo1,
            alpha: args.alpha,
            beta: args.beta,
            overshoot: true,
        },
        base: args
            .from
            .clone()
            .map_or(PlanBase::DrawRatio(args.draw_ratio), |dir| {
                PlanBase::Results(dir, pair)
            }),
        out: args.out.clone(),
    })?;
    let write = |e: std::io::Error| Error::io_during("write", "standard output", e);
    writeln!(out, "{}\n\n{}", plan.basis(), plan.table()).map_err(write)?;
    if let Some(chart) = &plan.chart {
        writeln!(
            out,
            "Wrote {} and {}",
            chart.png.display(),
            chart.svg.display()
        )
        .map_err(write)?;
    }
    Ok(Outcome::Finished)
}
