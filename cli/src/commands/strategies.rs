//! `reversi-lab strategies`: every strategy with its parameters and defaults.

use super::{Outcome, OutputFormat, Said};
use reversi_lab::error::Result;
use std::io::Write;

/// Options of `reversi-lab strategies`.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct StrategiesArgs {
    /// Output: the listing, or a JSON array of kinds for scripts.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

/// `reversi-lab strategies`: every strategy with its parameters and defaults.
pub fn strategies(args: &StrategiesArgs, out: &mut dyn Write) -> Result<Outcome> {
    use reversi_lab::strategy::spec::describe_kinds;
    match args.format {
        OutputFormat::Text => write!(out, "{}", describe_kinds()).said()?,
        OutputFormat::Json => {
            writeln!(out, "{}", reversi_lab::strategy::spec::kinds_json()).said()?
        }
    };
    Ok(Outcome::Finished)
}
