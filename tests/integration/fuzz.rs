//! Fuzzing the parsers a user's text reaches (transcripts, OBF positions, one-line
//! strategy specs, experiment, tune and ablation files): whatever the input, they
//! return an error, never panic. `cargo fuzz` needs a nightly toolchain, which these
//! machines cannot fetch, so proptest drives the same entry points: arbitrary
//! strings, strings over each format's alphabet, and valid files with random edits.
//! Each runs proptest's default 256 cases in `cargo test`;
//! `PROPTEST_CASES=1000000 cargo test --test integration fuzz::` runs a long campaign.

use proptest::prelude::*;
use reversi_lab::board::{Position, Size10, Size4, Size6, Size8};
use reversi_lab::game::Game;
use reversi_lab::lab::Experiment;
use reversi_lab::strategy::StrategySpec;
use reversi_lab::studies::ablate::Ablation;
use reversi_lab::studies::tune::Tune;
use std::path::Path;

const EXPERIMENT: &str = include_str!("../../experiments/search-vs-heuristics.toml");
const TUNE: &str = include_str!("../../experiments/tune-weak.toml");
const ABLATION: &str = include_str!("../../experiments/ablation-eval.toml");
const SPRT: &str = include_str!("../../experiments/sprt-mobility.toml");

/// A valid text with a few random edits: characters replaced, deleted or inserted.
fn edited(text: &'static str) -> impl Strategy<Value = String> {
    let len = text.len();
    proptest::collection::vec((0..len, 0u8..3, any::<char>()), 1..6).prop_map(move |edits| {
        let mut chars: Vec<char> = text.chars().collect();
        for (at, how, c) in edits {
            let at = at % chars.len().max(1);
            match how {
                0 => chars[at] = c,
                1 if !chars.is_empty() => {
                    chars.remove(at);
                }
                _ => chars.insert(at, c),
            }
        }
        chars.into_iter().collect()
    })
}

fn config_text() -> impl Strategy<Value = String> {
    prop_oneof![
        edited(EXPERIMENT),
        edited(TUNE),
        edited(ABLATION),
        edited(SPRT),
        "[a-z_ =\"\\[\\]{},.0-9\\n#-]{0,200}",
        any::<String>(),
    ]
}

fn configs_never_panic(text: &str) {
    let base = Path::new("experiments");
    let _ = Experiment::parse(text, "fuzz.toml", base);
    let _ = Tune::parse(text, "fuzz.toml", base);
    let _ = Ablation::parse(text, "fuzz.toml", base);
}

proptest! {
    #[test]
    fn transcripts(text in prop_oneof!["[a-kA-K0-9 ]{0,140}", any::<String>()]) {
        let _ = Game::<Size4>::from_transcript(&text);
        let _ = Game::<Size6>::from_transcript(&text);
        let _ = Game::<Size8>::from_transcript(&text);
        let _ = Game::<Size10>::from_transcript(&text);
    }

    #[test]
    fn obf_positions(text in prop_oneof!["[XO\\-xo*. ;:A-H1-8+]{0,120}", any::<String>()]) {
        let _ = Position::<Size4>::from_obf(&text);
        let _ = Position::<Size6>::from_obf(&text);
        let _ = Position::<Size8>::from_obf(&text);
        let _ = Position::<Size10>::from_obf(&text);
    }

    #[test]
    fn strategy_specs(text in prop_oneof![
        "[a-z_:=,(){}\\[\\]\" .0-9-]{0,80}",
        edited("alphabeta:depth=4,eval=(eval:corners=30,mobility=5),nodes=1000"),
        edited("{ kind = \"parity\", endgame = 10, base = \"corner-first\" }"),
        any::<String>(),
    ]) {
        if let Ok(spec) = StrategySpec::parse(&text) {
            let _ = spec.build::<Size8>(Default::default());
            let _ = spec.build::<Size6>(Default::default());
            let _ = spec.check_practical(60);
        }
    }

    #[test]
    fn config_files(text in config_text()) {
        configs_never_panic(&text);
    }
}
