//! `reversi-lab ablate`: what each feature of an evaluation is worth, in Elo with a 95%
//! interval, by playing the full evaluation against copies of itself without that feature.

use crate::chart::{interval_chart, Chart};
use crate::error::{Error, Result, Source};
use crate::lab::config::read_config;
use crate::lab::experiment::check_games_per_pair;
use crate::lab::rows::csv_bytes;
use crate::lab::{Experiment, PairRow, RunOptions, Setup};
use crate::numbers::elo_interval;
use crate::stats::holm;
use crate::strategy::spec::{ParamPath, ParamValue};
use crate::strategy::{Feature, StrategySpec};
use crate::studies::sharded::{self, Played};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;
use toml::{Spanned, Value};

pub mod report;

/// The ablation's own results file, beside the run's.
pub const ABLATION_FILE: &str = "ablation.csv";

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

/// The full strategy with some features' weights set to 0.
fn with_zeros(full: &StrategySpec, zero: &[Feature]) -> Result<StrategySpec> {
    zero.iter().try_fold(full.clone(), |spec, &feature| {
        let path = ParamPath::to_feature(&spec, feature).expect("checked when loaded");
        path.set(&spec, ParamValue::Decimal(0.0))
            .map_err(|e| Error::internal_from("cannot build the ablated evaluation", e))
    })
}

impl Ablation {
    /// Reads and validates an ablation file.
    pub fn load(path: &Path) -> Result<Self> {
        crate::lab::config::load(path, Self::parse)
    }

    /// Validates ablation text; `origin` names it in errors and `base` is the
    /// folder relative paths start from.
    pub fn parse(text: &str, origin: &str, base: &Path) -> Result<Self> {
        let source = Source::new(origin, text);
        let file = read_config::<AblationFile>(&source)?;
        let in_file = |e: Error| crate::lab::config::in_file(&source, e);
        let setup = Setup::from_file(&file.setup, base).map_err(in_file)?;
        let raw = file.own;
        let span = raw.player.span().start;
        let at = |message: String| source.error(Some(span), &message);
        let spec = StrategySpec::from_value_in(raw.player.get_ref(), base)
            .map_err(|e| at(format!("player: {e}")))?;
        if ParamPath::to_feature(&spec, Feature::Discs).is_none() {
            // Name what is wrong: a search over another evaluation is refused for its
            // evaluation, not for being a search.
            let given = match &spec {
                StrategySpec::Alphabeta(ab) => format!("`alphabeta` over '{}'", ab.eval.kind()),
                other => format!("'{}'", other.kind()),
            };
            return Err(at(format!(
                "player: ablate needs an `eval` strategy or `alphabeta` over one (eval = {{ kind = \"eval\" }}), not {given}: only `eval` has named features to take out"
            )));
        }
        let features: Vec<Feature> = Feature::ALL
            .into_iter()
            .filter(|&f| {
                ParamPath::to_feature(&spec, f)
                    .and_then(|path| path.get(&spec))
                    .and_then(|weight| weight.number())
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
            let name = format!("without-{}", feature.name());
            builder = builder.player(name.clone(), with_zeros(&spec, &[feature])?);
            variants.push(Variant {
                name,
                feature: feature.name().to_string(),
                alone: false,
            });
        }
        if raw.alone {
            for &feature in &features {
                let others: Vec<Feature> =
                    features.iter().copied().filter(|f| *f != feature).collect();
                let name = format!("only-{}", feature.name());
                builder = builder.player(name.clone(), with_zeros(&spec, &others)?);
                variants.push(Variant {
                    name,
                    feature: feature.name().to_string(),
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
    #[serde(serialize_with = "crate::lab::rows::decimals::p")]
    pub p_value: Option<f64>,
    /// The p-value after Holm's correction over every row of the ablation.
    #[serde(serialize_with = "crate::lab::rows::decimals::p")]
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
                .ok_or_else(|| Error::internal(format!("no pair full vs {}", v.name)))?;
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

/// One part of an ablation's table: the rows of one kind of variant, under a
/// header that says what their Elo measures.
pub struct Part {
    /// `true` for the features used alone, `false` for the features removed.
    pub alone: bool,
    /// What the part shows, for a heading.
    pub title: &'static str,
    /// The column names.
    pub header: Vec<&'static str>,
    /// The rows, as text.
    pub rows: Vec<Vec<String>>,
}

/// The chart of each part: (file stem, title, the chart's own heading).
fn chart_of(alone: bool) -> (&'static str, &'static str, &'static str) {
    if alone {
        (
            "ablation-alone",
            "Each feature alone",
            "Each feature alone: Elo of the full evaluation over a copy that keeps only that feature",
        )
    } else {
        (
            "ablation",
            "Feature worth (each feature removed)",
            "What each feature is worth: Elo of the full evaluation over the copy without it",
        )
    }
}

/// The ablation's rows in two parts: the features removed (each one's worth), then,
/// with `alone = true`, the features used alone. An "only" row's Elo is the full
/// evaluation's margin over that feature on its own, not the feature's worth: it
/// says how far the feature alone falls short of the whole evaluation.
#[must_use]
pub fn parts(worths: &[Worth]) -> Vec<Part> {
    let p = |x: Option<f64>| match x {
        Some(x) if x < 0.0001 => "<0.0001".to_string(),
        Some(x) => format!("{x:.4}"),
        None => "-".into(),
    };
    let nan = f64::NAN;
    [false, true]
        .into_iter()
        .map(|alone| {
            let rows: Vec<Vec<String>> = worths
                .iter()
                .filter(|w| (w.variant == "only") == alone)
                .map(|w| {
                    vec![
                        w.feature.clone(),
                        if alone { "only this feature" } else { "without it" }.to_string(),
                        w.games.to_string(),
                        format!("{:.1}%", 100.0 * w.full_score.unwrap_or(nan)),
                        elo_interval(
                            w.elo.unwrap_or(nan),
                            w.elo_low.unwrap_or(nan),
                            w.elo_high.unwrap_or(nan),
                        ),
                        p(w.p_value),
                        p(w.p_holm),
                        w.significant_holm.clone(),
                    ]
                })
                .collect();
            let (title, worth) = if alone {
                (
                    "Each feature alone: the full evaluation against a copy that keeps only that feature",
                    "Elo of the full evaluation over the feature alone [95%]",
                )
            } else {
                (
                    "Each feature removed: the full evaluation against a copy without that feature",
                    "feature's worth: Elo of the full evaluation over the copy without it [95%]",
                )
            };
            Part {
                alone,
                title,
                header: vec![
                    "feature",
                    "variant",
                    "games",
                    "full's score",
                    worth,
                    "p",
                    "p, Holm",
                    "significant after Holm",
                ],
                rows,
            }
        })
        .filter(|part| !part.rows.is_empty())
        .collect()
}

/// What the ablation measured and how to read it, one paragraph per entry.
#[must_use]
pub fn explanation(worths: &[Worth]) -> Vec<String> {
    let model = worths.first().map_or("pentanomial", |w| w.model.as_str());
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
    let mut lines = vec![format!(
        "Each row: the full evaluation against a copy of itself without one feature. A feature's worth is the full \
         evaluation's Elo over that copy, with its 95% interval ({model} model: {}): positive means the feature helps.",
        if model == "pentanomial" {
            "each colour-swapped game pair one sample"
        } else {
            "each game one sample"
        }
    )];
    if worths.iter().any(|w| w.variant == "only") {
        lines.push(
            "The rows of each feature alone (alone = true) measure something else: the full evaluation against a copy \
             that keeps only that feature, every other weight 0. Their Elo is how far the feature alone falls short of \
             the whole evaluation: the smaller, the more the feature carries on its own; it is not the feature's worth."
                .into(),
        );
    }
    lines.push(format!(
        "With {} comparisons, some intervals exclude 0 by chance alone. The p-value tests \"Elo 0\" (the score test \
         the interval inverts, so p < 0.05 exactly when the interval excludes 0); Holm's step-down correction over every \
         row holds the chance of any false \"significant\" in the whole table to {:.0}%. Significant after the \
         correction (* in the charts): {}.",
        worths.len(),
        100.0 * FAMILY_WISE_ALPHA,
        if significant.is_empty() {
            "none".to_string()
        } else {
            significant.join(", ")
        }
    ));
    lines
}

/// The tables as Markdown: a heading and a table per part.
#[must_use]
pub fn table_text(worths: &[Worth]) -> String {
    let mut out = String::new();
    for part in parts(worths) {
        writeln!(out, "{}:\n", part.title).ok();
        writeln!(out, "| {} |", part.header.join(" | ")).ok();
        writeln!(out, "|---|---|---:|---:|---:|---:|---:|---|").ok();
        for row in &part.rows {
            writeln!(out, "| {} |", row.join(" | ")).ok();
        }
        out.push('\n');
    }
    out
}

/// Reads `ablation.csv` from a results folder, if it has one.
pub fn read_worths(dir: &Path) -> Result<Option<Vec<Worth>>> {
    let path = dir.join(ABLATION_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    crate::lab::rows::read_rows(&path).map(Some)
}

/// Draws the ablation's charts into `dir`: `ablation` (each feature removed) and,
/// with `alone = true`, `ablation-alone` (each feature alone), each under a title
/// that says what its Elo measures.
pub fn draw_charts(dir: &Path, worths: &[Worth]) -> Result<Vec<Chart>> {
    let nan = f64::NAN;
    let mut charts = Vec::new();
    for part in [false, true] {
        // First row at the bottom: the table's order reads top down.
        let rows: Vec<(String, f64, f64, f64)> = worths
            .iter()
            .filter(|w| (w.variant == "only") == part)
            .rev()
            .map(|w| {
                (
                    format!(
                        "{}{}{}",
                        w.feature,
                        if part { " alone" } else { "" },
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
        if rows.is_empty() {
            continue;
        }
        let (name, title, heading) = chart_of(part);
        let mut chart = interval_chart(
            dir,
            name,
            heading,
            "Elo (95% interval; * significant after Holm's correction)",
            &rows,
        )?;
        chart.title = title.to_string();
        charts.push(chart);
    }
    Ok(charts)
}

/// `ablation.md`: what was measured, the tables and the charts.
fn markdown(name: &str, worths: &[Worth]) -> String {
    let mut text = format!("# Ablation: {name}\n\n");
    for line in explanation(worths) {
        writeln!(text, "{line}\n").ok();
    }
    text.push_str(&table_text(worths));
    for part in [false, true] {
        if worths.iter().any(|w| (w.variant == "only") == part) {
            let (file, title, _) = chart_of(part);
            writeln!(text, "![{title}](charts/{file}.svg)\n").ok();
        }
    }
    text
}

/// Runs the ablation (or one shard of it, or merges its shards, as `part` says) and
/// writes `ablation.csv`, `ablation.md` and its charts next to the usual results once
/// the games are whole. Returns what was played and the tables.
pub fn ablate(
    path: &Path,
    games: Option<u64>,
    threads: Option<usize>,
    options: &RunOptions<'_>,
    part: sharded::Part,
) -> Result<(Played, String)> {
    let mut ablation = Ablation::load(path)?;
    if let Some(games) = games {
        ablation.experiment.games_per_pair =
            check_games_per_pair(games, &crate::lab::experiment::GAMES_PER_PAIR)?;
    }
    if let Some(threads) = threads {
        let threads = crate::lab::setup::check_threads(threads, &crate::lab::setup::THREADS)?;
        ablation.experiment.setup.threads = Some(threads);
    }
    // The ablation's own files are written under the run's lock, through the one
    // write path, once the games are whole (a run, or the merge of its shards).
    let played = sharded::play(
        &ablation.experiment,
        options,
        part,
        crate::lab::shard::Study::Ablate,
    )?;
    if !played.whole {
        return Ok((played, String::new()));
    }
    let dir = played.out.clone();
    let worths = worths(&ablation, &played.pairs)?;
    let csv_path = dir.join(ABLATION_FILE);
    crate::lab::folder::write_atomically(&csv_path, &csv_bytes(&worths, &csv_path)?)?;
    // The file's figures, as `report` reads them again: printed and written from the
    // same rounded values, never rounded twice (+110 in ablation.md, +109 printed).
    let worths: Vec<Worth> = crate::lab::rows::read_rows(&csv_path)?;
    write_outputs(&dir, &ablation.experiment.name, &worths)?;
    Ok((played, table_text(&worths)))
}

/// Writes `ablation.md` and draws the charts from the worths (`report` calls it
/// again on an ablation folder, so both paths draw the same).
pub fn write_outputs(dir: &Path, name: &str, worths: &[Worth]) -> Result<Vec<Chart>> {
    let md_path = dir.join("ablation.md");
    crate::lab::folder::write_atomically(&md_path, markdown(name, worths))?;
    draw_charts(
        &crate::lab::ResultsFolder::at(dir).path(crate::lab::FolderFile::Charts),
        worths,
    )
}
