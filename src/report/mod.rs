//! Reports a person reads: charts (PNG and SVG) and `report.md` / `report.html`, one file per format.

pub(crate) mod charts;
mod data;
mod html;
mod markdown;

pub use crate::chart::{interval_chart, Chart};
pub use charts::draw_all;
pub use data::{PairRow, Results, StandingRow};

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// A report format: renders the results and charts as one document.
pub trait ReportFormat {
    /// The file written into the results folder.
    fn file_name(&self) -> &'static str;
    /// The document.
    fn render(&self, results: &Results, charts: &[Chart]) -> Result<String>;
}

/// Every format `report` writes.
#[must_use]
pub fn formats() -> Vec<Box<dyn ReportFormat>> {
    vec![Box::new(markdown::Markdown), Box::new(html::Html)]
}

/// Draws the charts and writes every report format into the results folder.
/// Returns the files written.
pub fn write_report(dir: &Path) -> Result<Vec<PathBuf>> {
    let results = Results::load(dir)?;
    let charts = draw_all(&results)?;
    let mut written: Vec<PathBuf> = charts
        .iter()
        .flat_map(|c| [c.png.clone(), c.svg.clone()])
        .collect();
    for format in formats() {
        let path = dir.join(format.file_name());
        let text = format.render(&results, &charts)?;
        std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

/// The warning a report of an unfinished run opens with, if it is one.
#[must_use]
pub fn partial_note(results: &Results) -> Option<String> {
    results.partial.map(|(played, total)| {
        format!(
            "PARTIAL RESULTS: {played} of {total} games so far (the run is still going or was interrupted; `reversi-lab run --resume` finishes it). Every figure below counts only these games."
        )
    })
}

/// A percentage with its interval: `61.3% [60.1%, 62.5%]` (intervals need not be symmetric).
#[must_use]
pub fn percent_interval(mean: Option<f64>, low: Option<f64>, high: Option<f64>) -> String {
    match (mean, low, high) {
        (Some(m), Some(l), Some(h)) if m.is_finite() => {
            format!("{:.1}% [{:.1}%, {:.1}%]", 100.0 * m, 100.0 * l, 100.0 * h)
        }
        (Some(m), _, _) if m.is_finite() => format!("{:.1}%", 100.0 * m),
        _ => "-".into(),
    }
}

/// An Elo value with its interval: `+120 [+98, +143]`.
#[must_use]
pub fn elo_interval(elo: Option<f64>, low: Option<f64>, high: Option<f64>) -> String {
    let f = |x: f64| {
        if x.is_infinite() {
            if x > 0.0 {
                "+inf".to_string()
            } else {
                "-inf".to_string()
            }
        } else {
            format!("{x:+.0}")
        }
    };
    match (elo, low, high) {
        (Some(e), Some(l), Some(h)) => format!("{} [{}, {}]", f(e), f(l), f(h)),
        (Some(e), _, _) => f(e),
        _ => "-".into(),
    }
}

/// The rows both document formats show, as plain strings.
pub(crate) struct Tables {
    pub standings_header: Vec<&'static str>,
    pub standings: Vec<Vec<String>>,
    pub pairs_header: Vec<&'static str>,
    pub pairs: Vec<Vec<String>>,
    pub colours_header: Vec<&'static str>,
    pub colours: Vec<Vec<String>>,
    pub setup: Vec<(String, String)>,
    pub players: Vec<(String, String)>,
    pub metadata: Vec<(String, String)>,
    /// How each headline number was computed: model, interval level, samples.
    pub statistics: Vec<String>,
}

/// The sample behind a pair's headline interval: `pentanomial, 44 game pairs`.
fn model_cell(p: &PairRow) -> String {
    let paired = p.paired();
    let model = p.model.as_deref().unwrap_or("trinomial");
    if model == "pentanomial" {
        format!("pentanomial, {} game pairs", paired.pairs.pairs())
    } else {
        format!("trinomial, {} games", p.games)
    }
}

/// The SPRT's verdict: `H1 after 44 game pairs`, or `continue`.
fn sprt_cell(p: &PairRow) -> String {
    match (p.sprt_result.as_deref(), p.sprt_pairs.as_deref()) {
        (Some(result), Some(pairs)) if !pairs.is_empty() && result != "continue" => {
            format!("{result} after {pairs} game pairs")
        }
        (Some(result), _) => result.to_string(),
        _ => String::new(),
    }
}

/// The lines of the report's "Statistics" section.
fn statistics(results: &Results) -> Vec<String> {
    let mut lines = Vec::new();
    let pairs = results.pairs.len();
    let penta = results
        .pairs
        .iter()
        .filter(|p| p.model.as_deref() == Some("pentanomial"))
        .count();
    lines.push(format!(
        "Pair scores, Elo and LOS (the pairs table and the progress chart): 95% score intervals \
         (Wilson's score interval generalised to draws and game pairs), in the model the table's \"model, sample\" column names \
         with its sample size: pentanomial over colour-swapped game pairs when every game of the pair belongs to one, \
         trinomial over games otherwise. Pairs in the pentanomial model here: {penta} of {pairs}."
    ));
    lines.push(
        "Elo, trinomial: the per-game interval beside it, for comparison; it ignores that the games of a pair share an opening.".into(),
    );
    lines.push(
        "A's margin: the mean disc margin with a 95% normal interval, its variance taken over game pairs (mean margin of the pair) \
         in the pentanomial model and over games in the trinomial one, dividing by the sample size as the score does."
            .into(),
    );
    let games: u64 = results.pairs.iter().map(|p| p.games).sum();
    lines.push(format!(
        "Standings: ratings from a Bradley-Terry (logistic Elo) MAP fit with a weak prior (each player half a game drawn \
         against a virtual player rated 0, which keeps perfect scores finite), 95% normal intervals from the curvature of \
         the log-posterior, over all {games} games, each game one sample (the pairing is not modelled there: the games \
         column gives each player's count)."
    ));
    for p in results.pairs.iter().filter(|p| p.sprt_llr.is_some()) {
        let f = |x: Option<f64>| x.map_or("-".into(), |v| format!("{v:.2}"));
        let setting = |key: &str| {
            results
                .experiment
                .get("sprt")
                .and_then(|s| s.get(key))
                .map_or("-".into(), ToString::to_string)
        };
        lines.push(format!(
            "SPRT ({} vs {}): the exact pentanomial generalised likelihood ratio of elo1 = {} against elo0 = {} (alpha {}, beta {}), \
             over {} game pairs: LLR {} with bounds [{}, {}]: {}.",
            p.player_a,
            p.player_b,
            setting("elo1"),
            setting("elo0"),
            setting("alpha"),
            setting("beta"),
            p.paired().pairs.pairs(),
            f(p.sprt_llr),
            f(p.sprt_lower),
            f(p.sprt_upper),
            match sprt_cell(p).as_str() {
                "continue" => "no bound crossed yet".to_string(),
                verdict => verdict.to_string(),
            }
        ));
    }
    lines
}

pub(crate) fn tables(results: &Results) -> Tables {
    let standings = results
        .standings
        .iter()
        .map(|s| {
            vec![
                s.rank.to_string(),
                s.player.clone(),
                s.games.to_string(),
                format!("{}/{}/{}", s.wins, s.draws, s.losses),
                s.score.map_or("-".into(), |v| format!("{:.1}%", 100.0 * v)),
                elo_interval(s.rating, s.rating_low, s.rating_high),
            ]
        })
        .collect();
    let sprt = results.pairs.iter().any(|p| p.sprt_llr.is_some());
    let mut pairs_header = vec![
        "A",
        "B",
        "games",
        "W/D/L (A)",
        "A's score [95%]",
        "Elo (A - B) [95%]",
        "LOS",
        "model, sample",
        "A's margin [95%]",
        "Elo, trinomial [95%]",
    ];
    if sprt {
        pairs_header.extend(["SPRT LLR [bounds]", "SPRT"]);
    }
    let pairs = results
        .pairs
        .iter()
        .map(|p| {
            let mut row = vec![
                p.player_a.clone(),
                p.player_b.clone(),
                p.games.to_string(),
                format!("{}/{}/{}", p.wins, p.draws, p.losses),
                percent_interval(p.score, p.score_low, p.score_high),
                elo_interval(p.elo, p.elo_low, p.elo_high),
                p.los.map_or("-".into(), |v| format!("{:.1}%", 100.0 * v)),
                model_cell(p),
                match (p.margin_mean, p.margin_low, p.margin_high) {
                    (Some(m), Some(l), Some(h)) => format!("{m:+.1} [{l:+.1}, {h:+.1}]"),
                    (Some(m), _, _) => format!("{m:+.1}"),
                    _ => "-".into(),
                },
                elo_interval(p.elo, p.trinomial_elo_low, p.trinomial_elo_high),
            ];
            if sprt {
                row.push(match (p.sprt_llr, p.sprt_lower, p.sprt_upper) {
                    (Some(v), Some(l), Some(u)) => format!("{v:.2} [{l:.2}, {u:.2}]"),
                    (Some(v), _, _) => format!("{v:.2}"),
                    _ => "-".into(),
                });
                row.push(sprt_cell(p));
            }
            row
        })
        .collect();
    let colours = results
        .pairs
        .iter()
        .map(|p| {
            vec![
                p.player_a.clone(),
                p.player_b.clone(),
                format!("{}/{}/{}", p.black_wins, p.black_draws, p.black_losses),
                p.black_score
                    .map_or("-".into(), |v| format!("{:.1}%", 100.0 * v)),
                format!("{}/{}/{}", p.white_wins, p.white_draws, p.white_losses),
                p.white_score
                    .map_or("-".into(), |v| format!("{:.1}%", 100.0 * v)),
            ]
        })
        .collect();
    let setup = [
        "name",
        "description",
        "format",
        "size",
        "rules",
        "openings",
        "games_per_pair",
        "seed",
        "challengers",
        "sprt",
    ]
    .iter()
    .filter(|k| results.experiment.contains_key(**k))
    .map(|k| (k.to_string(), results.setting(k)))
    .collect();
    let players = results
        .experiment
        .get("players")
        .and_then(toml::Value::as_array)
        .map(|ps| {
            ps.iter()
                .map(|p| {
                    let name = p
                        .get("name")
                        .and_then(toml::Value::as_str)
                        .unwrap_or("?")
                        .to_string();
                    let strategy = p.get("strategy").map(|s| s.to_string()).unwrap_or_default();
                    (name, strategy)
                })
                .collect()
        })
        .unwrap_or_default();
    let metadata = [
        "version",
        "status",
        "seed",
        "threads",
        "started",
        "games",
        "elapsed_seconds",
        "games_per_second",
    ]
    .iter()
    .map(|k| {
        let value = if *k == "seed" {
            results.setting("seed")
        } else {
            results.run_value(k)
        };
        (k.to_string(), value)
    })
    .collect();
    Tables {
        standings_header: vec!["rank", "player", "games", "W/D/L", "score", "rating [95%]"],
        standings,
        pairs_header,
        pairs,
        colours_header: vec![
            "A",
            "B",
            "A as black W/D/L",
            "A's score as black",
            "A as white W/D/L",
            "A's score as white",
        ],
        colours,
        setup,
        players,
        metadata,
        statistics: statistics(results),
    }
}
