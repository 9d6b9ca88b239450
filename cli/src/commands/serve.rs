//! `gtp` and `nboard`: a built-in strategy served as an engine on standard input and output.

use crate::commands::Outcome;
use reversi_lab::error::{Error, Result};
use reversi_lab::serve::{self, DEFAULT_STRATEGY};
use reversi_lab::strategy::StrategySpec;
use std::io::{BufRead, Write};

/// Options of `reversi-lab gtp` and `reversi-lab nboard`.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// The strategy served, as a spec (see `strategies`).
    #[arg(long, default_value = DEFAULT_STRATEGY)]
    pub strategy: String,
    /// Seed: game n of the session plays with the seed of game n of `match --seed S`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl ServeArgs {
    /// The strategy, checked for serving (refused in one line, exit code 2).
    pub fn spec(&self) -> Result<StrategySpec> {
        let spec = StrategySpec::parse(&self.strategy)
            .map_err(|e| Error::input(format!("--strategy {}: {e}", self.strategy)))?;
        serve::check(&spec)
            .map_err(|e| Error::input(format!("--strategy {}: {e}", self.strategy)))?;
        Ok(spec)
    }
}

/// `reversi-lab gtp`: serves the strategy over GTP until `quit` or the end of `input`.
pub fn gtp(args: &ServeArgs, input: impl BufRead, out: impl Write) -> Result<Outcome> {
    serve::gtp::serve(&args.spec()?, args.seed, input, out).map(|()| Outcome::Finished)
}

/// `reversi-lab nboard`: serves the strategy over the NBoard protocol until `quit` or the end of `input`.
pub fn nboard(args: &ServeArgs, input: impl BufRead, out: impl Write) -> Result<Outcome> {
    serve::nboard::serve(&args.spec()?, args.seed, input, out).map(|()| Outcome::Finished)
}
