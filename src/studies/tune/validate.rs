//! Validation of a tuned player: head-to-head runs against the starting player
//! (with an SPRT) and against each panel player, from held-out openings (see
//! `openings.rs`), with a plain verdict per run.

use super::config::Tune;
use super::openings;
use crate::error::{Error, Result};
use crate::lab::{run, Experiment, Format, Openings, PairRow, RunOptions, Seeds, Sprt, Status};
use crate::numbers::elo_interval;
use crate::strategy::StrategySpec;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The names of the validation's opponents, in the order they play: the start, then the panel.
#[must_use]
pub fn opponents(tune: &Tune) -> Vec<String> {
    std::iter::once("start".to_string())
        .chain(tune.validation_panel.iter().map(|(name, _)| name.clone()))
        .collect()
}

/// Why the tune has no validation, if it has none.
#[must_use]
pub fn skipped(tune: &Tune) -> Option<String> {
    (tune.validation_games == 0).then(|| {
        if tune.validation_skipped {
            "validation skipped (validation.skip = true)".into()
        } else {
            "validation skipped (validation.games = 0)".into()
        }
    })
}

/// The folder of the validation run against `opponent`.
#[must_use]
pub fn folder(out: &Path, opponent: &str) -> PathBuf {
    out.join(format!("validation-{opponent}"))
}

/// One validation's verdict from its pair row (the tuned player is A) and how the
/// run ended: counts, score and Elo with their 95% interval, the model and sample
/// size, the SPRT's decision, and whether the interval excludes 0.
#[must_use]
pub fn verdict(opponent: &str, pair: &PairRow, status: Status) -> String {
    let nan = f64::NAN;
    let fixed = (
        pair.elo.unwrap_or(nan),
        pair.elo_low.unwrap_or(nan),
        pair.elo_high.unwrap_or(nan),
    );
    // After an SPRT stop the fixed-sample interval is biased by the stop: the
    // verdict rests on the corrected one.
    let stopped = pair.sprt_estimate();
    let (_, low, high) = stopped.unwrap_or(fixed);
    let verdict = if low > 0.0 {
        "significant gain: the 95% interval is entirely above 0"
    } else if high < 0.0 {
        "significantly WORSE: the 95% interval is entirely below 0"
    } else {
        "NOT significant: the 95% interval includes 0"
    };
    let after = pair
        .sprt_pairs
        .as_deref()
        .filter(|p| !p.is_empty())
        .map_or(String::new(), |p| format!(" after {p} game pairs"));
    let sprt = match status {
        Status::SprtAcceptedH1 => format!(", SPRT accepted H1{after}"),
        Status::SprtAcceptedH0 => format!(", SPRT accepted H0{after}"),
        _ => String::new(),
    };
    let model = pair.model.as_deref().unwrap_or("trinomial");
    let sample = if model == "pentanomial" {
        format!("{} game pairs", pair.paired().pairs.pairs())
    } else {
        format!("{} games", pair.games)
    };
    let (elo, fixed_low, fixed_high) = fixed;
    let unbiased = stopped.map_or(String::new(), |(e, l, h)| {
        format!(
            ", median-unbiased Elo {} (corrected for the stop)",
            elo_interval(e, l, h)
        )
    });
    let label = if stopped.is_some() {
        "fixed-sample "
    } else {
        ""
    };
    format!(
        "tuned vs {opponent}: {} games, {}/{}/{}, score {:.1}% [{:.1}%, {:.1}%], {label}Elo {} ({model}, 95%, {sample}){sprt}{unbiased}: {verdict}",
        pair.games,
        pair.wins,
        pair.draws,
        pair.losses,
        100.0 * pair.score.unwrap_or(nan),
        100.0 * pair.score_low.unwrap_or(nan),
        100.0 * pair.score_high.unwrap_or(nan),
        elo_interval(elo, fixed_low, fixed_high),
    )
}

/// Plays the tuned player against the start and the validation panel; returns one
/// line per comparison and the folders of the runs.
pub fn validate(
    tune: &Tune,
    tuned: &StrategySpec,
    out: &Path,
    quiet: bool,
    stop: &AtomicBool,
) -> Result<(Vec<String>, Vec<PathBuf>)> {
    if let Some(line) = skipped(tune) {
        return Ok((vec![line], Vec::new()));
    }
    // Held-out openings: one per colour-swapped pair of a validation run.
    let held = openings::held_out(tune, (tune.validation_games / 2).max(1) as usize);
    let mut lines = Vec::new();
    let validation_openings = match &held {
        Some(held) if !held.transcripts.is_empty() => {
            held.write(out, &tune.name)?;
            lines.push(held.describe());
            Some(Openings::List {
                file: format!("../{}", openings::FILE),
                transcripts: held.transcripts.clone(),
            })
        }
        Some(held) => {
            lines.push(format!(
                "validation openings: no opening unseen in training was found ({} training positions): validation draws its openings as training does",
                held.training_positions
            ));
            None
        }
        None => {
            lines.push(
                "validation openings: training plays from the start position only, and so does validation (nothing to hold out)"
                    .into(),
            );
            None
        }
    };
    let mut comparisons = vec![("start".to_string(), tune.player.clone())];
    comparisons.extend(tune.validation_panel.iter().cloned());
    let mut dirs = Vec::new();
    for (index, (name, opponent)) in comparisons.into_iter().enumerate() {
        let mut setup = tune.setup.clone();
        setup.seed = Seeds(tune.setup.seed).validation(index as u64);
        if let Some(list) = &validation_openings {
            setup.openings = list.clone();
        }
        let mut builder = Experiment::builder(format!("{}-validation-{name}", tune.name), setup)
            .format(Format::HeadToHead)
            .games_per_pair(tune.validation_games)
            .player("tuned", tuned.clone())
            .player(name.clone(), opponent);
        if index == 0 {
            builder = builder.sprt(Sprt {
                elo0: 0.0,
                elo1: tune.validation_elo1,
                alpha: 0.05,
                beta: 0.05,
                overshoot: true,
            });
        }
        let experiment = builder.build()?;
        let dir = folder(out, &name);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(|e| Error::io_during("remove", &dir, e))?;
        }
        let summary = run(
            &experiment,
            &RunOptions {
                out: Some(dir.clone()),
                resume: false,
                force: false,
                quiet,
                stop,
                shard: None,
                played: None,
            },
        )?;
        if summary.status == Status::Interrupted {
            lines.push(format!("validation against {name} interrupted"));
            break;
        }
        dirs.push(dir);
        lines.push(verdict(&name, &summary.pairs[0], summary.status));
    }
    Ok((lines, dirs))
}
