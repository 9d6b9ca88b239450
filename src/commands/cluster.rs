//! `merge`, which joins a sharded run's folders into one run's results, and `cluster`,
//! which writes the Slurm and Kubernetes recipes that play the shards.

use crate::error::Result;
use crate::lab::merge::{merge as merge_shards, MergeOptions};
use std::io::Write;
use std::path::PathBuf;

/// Options of `reversi-lab merge`.
#[derive(Clone, Debug, clap::Args)]
pub struct MergeArgs {
    /// The results folder holding shards/ (such as results/default), or the shard folders.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// Where the merged results go (default: the folder holding shards/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace merged results already in the output folder.
    #[arg(long)]
    pub force: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Skip the charts and the report at the end.
    #[arg(long)]
    pub no_report: bool,
}

/// `reversi-lab merge`: checks and merges the shards, prints the closing line, then writes the report.
pub fn merge(args: &MergeArgs, out: &mut dyn Write) -> Result<()> {
    let options = MergeOptions {
        out: args.out.clone(),
        force: args.force,
        quiet: args.quiet,
    };
    let summary = merge_shards(&args.shards, &options)?;
    writeln!(out, "{}", summary.line()).ok();
    if !args.no_report {
        super::report(&summary.out, out)?;
    }
    Ok(())
}
