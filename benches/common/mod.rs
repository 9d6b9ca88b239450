//! What several benchmarks share: a `match` between two strategies, as the CLI runs it.

use reversi_lab::commands::{MatchArgs, MatchPlan, OutputFormat, RulesArgs};

/// `reversi-lab match A B --games GAMES --threads THREADS` (seed 1, 8x8, standard
/// rules, from the start position, no CSV).
pub fn match_plan(a: &str, b: &str, games: u64, threads: usize) -> MatchPlan {
    MatchPlan::new(&MatchArgs {
        a: a.into(),
        b: b.into(),
        games,
        seed: 1,
        threads,
        size: 8,
        rules: RulesArgs {
            anti: false,
            scoring: Default::default(),
        },
        openings: 0,
        csv: None,
        format: OutputFormat::Text,
    })
    .unwrap()
}
