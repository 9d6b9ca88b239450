//! The scoring options every playing command shares (`--anti`, `--scoring`).

use reversi_lab::game::{Rules, Scoring};

/// Scoring rules on the command line.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct RulesArgs {
    /// Anti-reversi: the side with fewer discs wins.
    #[arg(long)]
    pub anti: bool,
    /// How empty squares at the end count: winner-gets-empties or count.
    #[arg(long, default_value = "winner-gets-empties", value_parser = parse_scoring)]
    pub scoring: Scoring,
}

impl RulesArgs {
    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        Rules {
            scoring: self.scoring,
            anti: self.anti,
        }
    }
}

fn parse_scoring(text: &str) -> std::result::Result<Scoring, String> {
    Scoring::parse(text)
}
