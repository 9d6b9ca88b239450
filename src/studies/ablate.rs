//! `reversi-lab ablate`: what each feature of an evaluation is worth, in Elo with a 95%
//! interval, by playing the full evaluation against copies of itself without that feature.

use crate::chart::interval_chart;
use crate::error::{Error, Result, Source};
use crate::lab::config::read_config;
use crate::lab::experiment::check_games_per_pair;
use crate::lab::rows::csv_bytes;
use crate::lab::{run, Experiment, PairRow, RunOptions, RunSummary, Setup, Status};
use crate::stats::holm;
use crate::strategy::{StrategySpec, FEATURES};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;
use toml::{Spanned, Table, Value};

/// An ablation file's own keys; the shared setup sits beside them.
#[derive(Deserialize)]
struct AblationFile {
    name: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    games_per_pair: Option<u64>,
    /// Also play the full evaluation against each feature alone.
    #[serde(default)]
    alone: bool,
    /// The evaluation: an `eval` strategy, or `alphabeta` over one.
    player: Spanned<Value>,
}

/// A variant of the full evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Its player name.
    pub name: String,
    /// The feature it is about.
    pub feature: String,
    /// Whether it keeps only that feature (else it drops it).
    pub alone: bool,
}

/// An ablation, validated: the experiment it plays and its variants.
pub struct Ablation {
    /// The gauntlet of the full evaluation against its variants.
    pub experiment: Experiment,
    /// The variants, in player order.
    pub variants: Vec<Variant>,
}

/// The eval table inside a strategy table: the table itself for `eval`, or its
/// `eval` for `alphabeta`.
fn eval_table(table: &mut Table) -> Option<&mut Table> {
    match table.get("kind").and_then(Value::as_str) {
        Some("eval") => Some(table),
        Some("alphabeta") => match table.get_mut("eval") {
            Some(Value::Table(inner))
                if inner.get("kind").and_then(Value::as_str) == Some("eval") =>
            {
                Some(inner)
            }
            _ => None,
        },
        _ => None,
    }
}

/// The full strategy with some features' weights set to 0.
fn with_zeros(full: &Table, zero: &[&str]) -> Result<StrategySpec> {
    let mut table = full.clone();
    let eval = eval_table(&mut table).expect("checked when loaded");
    for feature in zero {
        eval.insert((*feature).to_string(), Value::Float(0.0));
    }
    StrategySpec::from_table(&table).map_err(|e| Error::Internal(e.to_string()))
}

impl Ablation {
    /// Reads and validates an ablation file.
    pub fn load(path: &Path) -> Result<Self> {
        crate::lab::config::load(path, Self::parse)
    }

    /// Validates ablation text; `origin` names it in errors and `base` is the
    /// folder relative paths start from.
    pub fn parse(text: &str, origin: &str, base: &Path) -> Result<Self> {
        let source = Source { origin, text };
        let file = read_config::<AblationFile>(&source)?;
        let in_file = |e: Error| crate::lab::config::in_file(origin, e);
        let setup = Setup::from_file(&file.setup, base).map_err(in_file)?;
        let raw = file.own;
        let span = raw.player.span().start;
        let at = |message: String| source.error(Some(span), &message);
        let spec = StrategySpec::from_value(raw.player.get_ref())
            .map_err(|e| at(format!("player: {e}")))?;
        let mut full = spec.to_table();
        let Some(table) = eval_table(&mut full) else {
            return Err(at(format!(
                "player: ablate needs an `eval` strategy or `alphabeta` over one (eval = {{ kind = \"eval\" }}), not '{}'",
                spec.kind()
            )));
        };
        let features: Vec<&str> = FEATURES
            .iter()
            .copied()
            .filter(|f| {
                table
                    .get(*f)
                    .and_then(Value::as_float)
                    .is_some_and(|w| w != 0.0)
            })
            .collect();
        if features.len() < 2 {
            return Err(at(
                "player: the evaluation needs at least 2 features with non-zero weights to ablate"
                    .into(),
            ));
        }
        let description = raw.description.unwrap_or_else(|| {
            "ablation: the full evaluation against copies without one feature".into()
        });
        let mut builder = Experiment::builder(raw.name, setup)
            .description(description)
            .gauntlet(&["full"])
            .player("full", spec.clone());
        if let Some(games) = raw.games_per_pair {
            builder = builder.games_per_pair(games);
        }
        let mut variants = Vec::new();
        for &feature in &features {
            let name = format!("without-{feature}");
            builder = builder.player(name.clone(), with_zeros(&full, &[feature])?);
            variants.push(Variant {
                name,
                feature: feature.to_string(),
                alone: false,
            });
        }
        if raw.alone {
            for &feature in &features {
                let others: Vec<&str> =
                    features.iter().copied().filter(|f| *f != feature).collect();
                let name = format!("only-{feature}");
                builder = builder.player(name.clone(), with_zeros(&full, &others)?);
                variants.push(Variant {
                    name,
                    feature: feature.to_string(),
                    alone: true,
                });
            }
        }
        let experiment = builder.build().map_err(in_file)?;
        Ok(Ablation {
            experiment,
            variants,
        })
    }
}

/// One row of `ablation.csv`: what one feature is worth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Worth {
    /// The feature.
    pub feature: String,
    /// `without` (the variant drops the feature) or `only` (keeps only it).
    pub variant: String,
    /// Games played.
    pub games: u64,
    /// The full evaluation's score against the variant.
    #[serde(serialize_with = "crate::lab::rows::decimals::four")]
    pub full_score: Option<f64>,
    /// Elo of the full evaluation over the variant.
    #[serde(serialize_with = "crate::lab::rows::decimals::one")]
    pub elo: Option<f64>,
    /// Its 95% interval's lower end.
    #[serde(serialize_with = "crate::lab::rows::decimals::one")]
    pub elo_low: Option<f64>,
    /// Its 95% interval's upper end.
    #[serde(serialize_with = "crate::lab::rows::decimals::one")]
    pub elo_high: Option<f64>,
    /// The model of the interval and the test: `pentanomial` (game pairs) or `trinomial`.
    pub model: String,
    /// The two-sided p-value of "the feature is worth 0 Elo" (the score test the
    /// interval inverts: below 0.05 exactly when the interval excludes 0).
    #[serde(serialize_with = "crate::lab::rows::decimals::four")]
    pub p_value: Option<f64>,
    /// The p-value after Holm's correction over every row of the ablation.
    #[serde(serialize_with = "crate::lab::rows::decimals::four")]
    pub p_holm: Option<f64>,
    /// `yes` when the worth stays significant at a family-wise 5% after Holm's correction.
    pub significant_holm: String,
}

/// The family-wise error rate Holm's correction holds the ablation to.
pub const FAMILY_WISE_ALPHA: f64 = 0.05;

/// Each variant's worth from the run's pairs, with p-values corrected by Holm's
/// method over the whole ablation (every feature, `without` and `only` rows alike).
pub fn worths(ablation: &Ablation, pairs: &[PairRow]) -> Result<Vec<Worth>> {
    let mut worths = ablation
        .variants
        .iter()
        .map(|v| {
            let pair = pairs
                .iter()
                .find(|p| p.player_a == "full" && p.player_b == v.name)
                .ok_or_else(|| Error::Internal(format!("no pair full vs {}", v.name)))?;
            let paired = pair.paired();
            let p_value = paired.p_value();
            Ok(Worth {
                feature: v.feature.clone(),
                variant: if v.alone { "only" } else { "without" }.to_string(),
                games: pair.games,
                full_score: pair.score,
                elo: pair.elo,
                elo_low: pair.elo_low,
                elo_high: pair.elo_high,
                model: paired.model().name().to_string(),
                p_value: (!p_value.is_nan()).then_some(p_value),
                p_holm: None,
                significant_holm: String::new(),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let raw: Vec<f64> = worths
        .iter()
        .map(|w| w.p_value.unwrap_or(f64::NAN))
        .collect();
    for (w, adjusted) in worths.iter_mut().zip(holm(&raw)) {
        w.p_holm = (!adjusted.is_nan()).then_some(adjusted);
        w.significant_holm = if adjusted <= FAMILY_WISE_ALPHA {
            "yes"
        } else {
            "no"
        }
        .to_string();
    }
    Ok(worths)
}

fn table_text(worths: &[Worth]) -> String {
    let mut out = String::from(
        "| feature | variant | games | full's score | feature's worth (Elo, 95%) | p | p, Holm | significant after Holm |\n|---|---|---|---|---|---|---|---|\n",
    );
    for w in worths {
        let f = |x: Option<f64>| match x {
            Some(x) if x.is_finite() => format!("{x:+.0}"),
            Some(x) if x > 0.0 => "+inf".into(),
            Some(_) => "-inf".into(),
            None => "-".into(),
        };
        let p = |x: Option<f64>| match x {
            Some(x) if x < 0.0001 => "<0.0001".to_string(),
            Some(x) => format!("{x:.4}"),
            None => "-".into(),
        };
        writeln!(
            out,
            "| {} | {} | {} | {:.1}% | {} [{}, {}] | {} | {} | {} |",
            w.feature,
            if w.variant == "only" {
                "only this feature"
            } else {
                "without it"
            },
            w.games,
            100.0 * w.full_score.unwrap_or(f64::NAN),
            f(w.elo),
            f(w.elo_low),
            f(w.elo_high),
            p(w.p_value),
            p(w.p_holm),
            w.significant_holm
        )
        .ok();
    }
    out
}

/// Runs the ablation and writes `ablation.csv`, `ablation.md` and a chart next to
/// the usual results. Returns the run's summary and the table.
pub fn ablate(
    path: &Path,
    games: Option<u64>,
    options: &RunOptions<'_>,
) -> Result<(RunSummary, String)> {
    let mut ablation = Ablation::load(path)?;
    if let Some(games) = games {
        ablation.experiment.games_per_pair = check_games_per_pair(games, "--games ")?;
    }
    let summary = run(&ablation.experiment, options)?;
    if summary.status == Status::Interrupted {
        return Ok((summary, String::new()));
    }
    let dir = summary.out.clone();
    let worths = worths(&ablation, &summary.pairs)?;
    let csv_path = dir.join("ablation.csv");
    std::fs::write(&csv_path, csv_bytes(&worths, &csv_path)?)
        .map_err(|e| Error::io(&csv_path, e))?;
    let table = table_text(&worths);
    let md_path = dir.join("ablation.md");
    let significant: Vec<String> = worths
        .iter()
        .filter(|w| w.significant_holm == "yes")
        .map(|w| {
            if w.variant == "only" {
                format!("{} alone", w.feature)
            } else {
                w.feature.clone()
            }
        })
        .collect();
    let model = worths.first().map_or("pentanomial", |w| w.model.as_str());
    let text = format!(
        "# Ablation: {}\n\nEach row: the full evaluation against a copy of itself {}. A feature's worth is the full \
         evaluation's Elo over that copy, with its 95% interval ({model} model: {}): positive means the feature helps.\n\n\
         With {} comparisons, some intervals exclude 0 by chance alone. The p-value tests \"worth 0 Elo\" (the score test \
         the interval inverts, so p < 0.05 exactly when the interval excludes 0); Holm's step-down correction holds the \
         chance of any false \"significant\" in the whole table to {:.0}%. Significant after the correction: {}.\n\n{table}\n\
         ![Feature worth](charts/ablation.svg)\n",
        ablation.experiment.name,
        "without one feature (or with that feature alone)",
        if model == "pentanomial" {
            "each colour-swapped game pair one sample"
        } else {
            "each game one sample"
        },
        worths.len(),
        100.0 * FAMILY_WISE_ALPHA,
        if significant.is_empty() {
            "none".to_string()
        } else {
            significant.join(", ")
        }
    );
    std::fs::write(&md_path, text).map_err(|e| Error::io(&md_path, e))?;
    let nan = f64::NAN;
    let rows: Vec<(String, f64, f64, f64)> = worths
        .iter()
        .rev()
        .map(|w| {
            (
                format!(
                    "{}{}{}",
                    if w.variant == "only" { "only " } else { "" },
                    w.feature,
                    if w.significant_holm == "yes" {
                        " *"
                    } else {
                        ""
                    }
                ),
                w.elo_low.unwrap_or(nan),
                w.elo.unwrap_or(nan),
                w.elo_high.unwrap_or(nan),
            )
        })
        .collect();
    interval_chart(
        &dir.join("charts"),
        "ablation",
        "What each feature is worth: Elo of the full evaluation over the copy without it",
        "Elo (95% interval; * significant after Holm's correction)",
        &rows,
    )?;
    Ok((summary, table))
}
