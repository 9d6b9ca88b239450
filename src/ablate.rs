//! `reversi-lab ablate`: what each feature of an evaluation is worth, in Elo with a 95%
//! interval, by playing the full evaluation against copies of itself without that feature.

use crate::error::{Error, Result, Source};
use crate::experiment::Experiment;
use crate::report::{interval_chart, Results};
use crate::runner::{run, RunOptions, RunSummary, Status};
use crate::strategy::{StrategySpec, FEATURES};
use serde::Deserialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use toml::{Spanned, Table, Value};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAblation {
    name: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    size: Option<u32>,
    #[serde(default)]
    rules: Option<Value>,
    #[serde(default)]
    games_per_pair: Option<u64>,
    #[serde(default)]
    threads: Option<usize>,
    #[serde(default)]
    openings: Option<Value>,
    /// Also play the full evaluation against each feature alone.
    #[serde(default)]
    alone: bool,
    /// The evaluation: an `eval` strategy, or `alphabeta` over one.
    player: Spanned<Value>,
}

/// An ablation, validated: the experiment it plays and which variant drops which feature.
pub struct Ablation {
    /// The gauntlet of the full evaluation against its variants.
    pub experiment: Experiment,
    /// (variant player name, feature, whether the variant keeps only that feature).
    pub variants: Vec<(String, String, bool)>,
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

impl Ablation {
    /// Reads and validates an ablation file.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::unreadable(path, &e))?;
        let origin = path.display().to_string();
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let source = Source {
            origin: &origin,
            text: &text,
        };
        let at = |offset: usize, message: String| source.error(Some(offset), &message);
        let raw: RawAblation = toml::from_str(&text).map_err(|e| source.toml_error(&e))?;
        let span = raw.player.span();
        let spec = StrategySpec::from_value(raw.player.get_ref())
            .map_err(|e| at(span.start, format!("player: {e}")))?;
        let mut full = spec.to_table();
        let weights: Vec<(String, f64)> = {
            let table = eval_table(&mut full).ok_or_else(|| {
                at(
                    span.start,
                    format!(
                        "player: ablate needs an `eval` strategy or `alphabeta` over one (eval = {{ kind = \"eval\" }}), not '{}'",
                        spec.kind()
                    ),
                )
            })?;
            FEATURES
                .iter()
                .filter_map(|f| {
                    table
                        .get(*f)
                        .and_then(Value::as_float)
                        .map(|w| (f.to_string(), w))
                })
                .filter(|(_, w)| *w != 0.0)
                .collect()
        };
        if weights.len() < 2 {
            return Err(at(
                span.start,
                "player: the evaluation needs at least 2 features with non-zero weights to ablate"
                    .into(),
            ));
        }
        let mut players = vec![("full".to_string(), full.clone())];
        let mut variants = Vec::new();
        for (feature, _) in &weights {
            let mut without = full.clone();
            eval_table(&mut without)
                .expect("checked above")
                .insert(feature.clone(), Value::Float(0.0));
            let name = format!("without-{feature}");
            players.push((name.clone(), without));
            variants.push((name, feature.clone(), false));
        }
        if raw.alone {
            for (feature, _) in &weights {
                let mut only = full.clone();
                let table = eval_table(&mut only).expect("checked above");
                for (other, _) in &weights {
                    if other != feature {
                        table.insert(other.clone(), Value::Float(0.0));
                    }
                }
                let name = format!("only-{feature}");
                players.push((name.clone(), only));
                variants.push((name, feature.clone(), true));
            }
        }
        // The experiment, written as a table and validated like any experiment file.
        let mut t = Table::new();
        t.insert("name".into(), Value::String(raw.name.clone()));
        let description = raw.description.unwrap_or_else(|| {
            "ablation: the full evaluation against copies without one feature".into()
        });
        t.insert("description".into(), Value::String(description));
        if let Some(seed) = raw.seed {
            t.insert("seed".into(), Value::Integer(seed as i64));
        }
        if let Some(size) = raw.size {
            t.insert("size".into(), Value::Integer(i64::from(size)));
        }
        if let Some(rules) = raw.rules {
            t.insert("rules".into(), rules);
        }
        if let Some(games) = raw.games_per_pair {
            t.insert("games_per_pair".into(), Value::Integer(games as i64));
        }
        if let Some(threads) = raw.threads {
            t.insert("threads".into(), Value::Integer(threads as i64));
        }
        if let Some(openings) = raw.openings {
            t.insert("openings".into(), openings);
        }
        t.insert("format".into(), Value::String("gauntlet".into()));
        t.insert(
            "challengers".into(),
            Value::Array(vec![Value::String("full".into())]),
        );
        t.insert(
            "players".into(),
            Value::Array(
                players
                    .into_iter()
                    .map(|(name, strategy)| {
                        let mut p = Table::new();
                        p.insert("name".into(), Value::String(name));
                        p.insert("strategy".into(), Value::Table(strategy));
                        Value::Table(p)
                    })
                    .collect(),
            ),
        );
        let text = toml::to_string(&t).expect("a table serialises");
        let experiment = Experiment::parse(&text, &origin, &base)?;
        Ok(Ablation {
            experiment,
            variants,
        })
    }
}

/// One line of the ablation table.
#[derive(Clone, Debug)]
pub struct Worth {
    /// The feature.
    pub feature: String,
    /// Whether the variant kept only this feature (else it dropped it).
    pub alone: bool,
    /// Games played.
    pub games: u64,
    /// The full evaluation's score against the variant.
    pub score: f64,
    /// Elo of the full evaluation over the variant, with its 95% interval.
    pub elo: (f64, f64, f64),
}

/// Reads the worth of each feature from a finished ablation run's pairs.csv.
pub fn worths(ablation: &Ablation, dir: &Path) -> Result<Vec<Worth>> {
    let results = Results::load(dir)?;
    ablation
        .variants
        .iter()
        .map(|(name, feature, alone)| {
            let pair = results
                .pairs
                .iter()
                .find(|p| p.player_a == "full" && &p.player_b == name)
                .ok_or_else(|| {
                    Error::input(format!(
                        "{}: no pair full vs {name} in pairs.csv",
                        dir.display()
                    ))
                })?;
            let nan = f64::NAN;
            Ok(Worth {
                feature: feature.clone(),
                alone: *alone,
                games: pair.games,
                score: pair.score.unwrap_or(nan),
                elo: (
                    pair.elo_low.unwrap_or(nan),
                    pair.elo.unwrap_or(nan),
                    pair.elo_high.unwrap_or(nan),
                ),
            })
        })
        .collect()
}

fn table_text(worths: &[Worth]) -> String {
    let mut out = String::from("| feature | variant | games | full's score | feature's worth (Elo, 95%) |\n|---|---|---|---|---|\n");
    for w in worths {
        let f = |x: f64| {
            if x.is_finite() {
                format!("{x:+.0}")
            } else if x > 0.0 {
                "+inf".into()
            } else {
                "-inf".into()
            }
        };
        writeln!(
            out,
            "| {} | {} | {} | {:.1}% | {} [{}, {}] |",
            w.feature,
            if w.alone {
                "only this feature"
            } else {
                "without it"
            },
            w.games,
            100.0 * w.score,
            f(w.elo.1),
            f(w.elo.0),
            f(w.elo.2)
        )
        .ok();
    }
    out
}

/// `reversi-lab ablate`: runs the ablation and writes `ablation.csv`, `ablation.md` and
/// a chart next to the usual results. Returns the run's summary and the table.
pub fn ablate(
    path: &Path,
    out: Option<PathBuf>,
    games: Option<u64>,
    quiet: bool,
    stop: &AtomicBool,
    resume: bool,
) -> Result<(RunSummary, String)> {
    let mut ablation = Ablation::load(path)?;
    if let Some(games) = games {
        if games == 0 || games % 2 == 1 {
            return Err(Error::input(format!(
                "--games {games}: games per pair must be even and at least 2"
            )));
        }
        ablation.experiment.games_per_pair = games;
    }
    let options = RunOptions {
        out,
        resume,
        quiet,
        stop,
    };
    let summary = run(&ablation.experiment, &options)?;
    if summary.status == Status::Interrupted {
        return Ok((summary, String::new()));
    }
    let dir = summary.out.clone();
    let worths = worths(&ablation, &dir)?;
    let mut csv = csv::Writer::from_writer(Vec::new());
    csv.write_record([
        "feature",
        "variant",
        "games",
        "full_score",
        "elo",
        "elo_low",
        "elo_high",
    ])
    .map_err(|e| Error::input(e.to_string()))?;
    for w in &worths {
        csv.write_record([
            w.feature.clone(),
            if w.alone {
                "only".into()
            } else {
                "without".into()
            },
            w.games.to_string(),
            format!("{:.4}", w.score),
            format!("{:.1}", w.elo.1),
            format!("{:.1}", w.elo.0),
            format!("{:.1}", w.elo.2),
        ])
        .map_err(|e| Error::input(e.to_string()))?;
    }
    let csv_path = dir.join("ablation.csv");
    std::fs::write(
        &csv_path,
        csv.into_inner().map_err(|e| Error::input(e.to_string()))?,
    )
    .map_err(|e| Error::io(&csv_path, e))?;
    let table = table_text(&worths);
    let md_path = dir.join("ablation.md");
    let text = format!(
        "# Ablation: {}\n\nEach row: the full evaluation against a copy of itself {}. A feature's worth is the full \
         evaluation's Elo over that copy, with its 95% interval: positive means the feature helps.\n\n{table}\n![Feature worth](charts/ablation.svg)\n",
        ablation.experiment.name,
        "without one feature (or with that feature alone)"
    );
    std::fs::write(&md_path, text).map_err(|e| Error::io(&md_path, e))?;
    let rows: Vec<(String, f64, f64, f64)> = worths
        .iter()
        .rev()
        .map(|w| {
            (
                format!("{}{}", if w.alone { "only " } else { "" }, w.feature),
                w.elo.0,
                w.elo.1,
                w.elo.2,
            )
        })
        .collect();
    interval_chart(
        &dir.join("charts"),
        "ablation",
        "What each feature is worth: Elo of the full evaluation over the copy without it",
        "Elo (95% interval)",
        &rows,
    )?;
    crate::report::write_report(&dir)?;
    Ok((summary, table))
}
