//! `reversi-lab tune`: find evaluation weights by play (SPSA, or CMA-ES), then prove the
//! gain with a validation run against the starting player and a panel.

use crate::board::Geometry;
use crate::error::{Error, Result, Source};
use crate::experiment::Experiment;
use crate::game::Game;
use crate::play::{game_rng, game_seed, play_game, splitmix};
use crate::progress::Progress;
use crate::report::charts::{register_fonts, FONT};
use crate::runner::{run, two_mut, with_memories, RunOptions, Status};
use crate::stats::Trinomial;
use crate::strategy::{Strategy, StrategySpec};
use crate::with_geometry;
use plotters::prelude::*;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::Deserialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use toml::{Spanned, Table, Value};

/// The optimiser.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Simultaneous perturbation stochastic approximation (Spall), as chess testing frameworks use it.
    #[default]
    Spsa,
    /// Covariance matrix adaptation (the `cmaes` crate).
    Cmaes,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParam {
    name: String,
    start: Option<f64>,
    min: f64,
    max: f64,
    step: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOpponent {
    name: String,
    strategy: Value,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawSpsa {
    r_end: Option<f64>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawValidation {
    games: Option<u64>,
    elo1: Option<f64>,
    #[serde(default)]
    panel: Vec<RawOpponent>,
    #[serde(default)]
    skip: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTune {
    name: String,
    #[serde(default = "one")]
    seed: u64,
    size: Option<u32>,
    rules: Option<Value>,
    #[serde(default)]
    method: Method,
    iterations: u64,
    #[serde(default = "sixty_four")]
    games_per_iteration: u64,
    threads: Option<usize>,
    openings: Option<Value>,
    player: Spanned<Value>,
    params: Vec<RawParam>,
    /// None: self-play (the two perturbed players against each other).
    opponents: Option<Vec<RawOpponent>>,
    #[serde(default)]
    spsa: RawSpsa,
    #[serde(default)]
    validation: RawValidation,
}

fn one() -> u64 {
    1
}
fn sixty_four() -> u64 {
    64
}

/// A tuned parameter: a dotted path into the player's strategy table.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Such as `eval.mobility`.
    pub name: String,
    /// Starting value.
    pub start: f64,
    /// Lower bound.
    pub min: f64,
    /// Upper bound.
    pub max: f64,
    /// Final perturbation size (SPSA's c at the last iteration; CMA-ES's scale).
    pub step: f64,
    /// The value is an integer in the strategy (rounded when set).
    pub integer: bool,
}

/// A validated tune.
pub struct Tune {
    /// Name (and results folder).
    pub name: String,
    /// The seed.
    pub seed: u64,
    /// The optimiser.
    pub method: Method,
    /// Iterations (SPSA) or function evaluations (CMA-ES).
    pub iterations: u64,
    /// Games per iteration (even).
    pub games: u64,
    /// SPSA's final learning rate factor.
    pub r_end: f64,
    /// The player to tune, every default written out.
    pub player: Table,
    /// The parameters.
    pub params: Vec<Param>,
    /// The fixed opponents (empty: self-play).
    pub panel: Vec<(String, Table)>,
    /// Openings, board and rules, as an experiment (its players are placeholders).
    pub base: Experiment,
    /// Validation games (0: skip validation).
    pub validation_games: u64,
    /// Elo of the validation SPRT's H1.
    pub validation_elo1: f64,
    /// Players the validation plays the tuned player against besides the start.
    pub validation_panel: Vec<(String, Table)>,
}

fn path_get<'a>(table: &'a Table, path: &str) -> Option<&'a Value> {
    let mut parts = path.split('.').peekable();
    let mut current = table;
    while let Some(part) = parts.next() {
        let value = current.get(part)?;
        if parts.peek().is_none() {
            return Some(value);
        }
        current = value.as_table()?;
    }
    None
}

fn path_set(table: &mut Table, path: &str, value: Value) {
    let mut parts: Vec<&str> = path.split('.').collect();
    let last = parts.pop().expect("a non-empty path");
    let mut current = table;
    for part in parts {
        current = current
            .get_mut(part)
            .and_then(Value::as_table_mut)
            .expect("the path was checked");
    }
    current.insert(last.to_string(), value);
}

/// Every numeric leaf of a table, as dotted paths (for "did you mean").
fn numeric_paths(table: &Table, prefix: &str, out: &mut Vec<String>) {
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            Value::Integer(_) | Value::Float(_) => out.push(path),
            Value::Table(t) => numeric_paths(t, &path, out),
            _ => {}
        }
    }
}

impl Tune {
    /// Reads and validates a tune file; every error comes before any game.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::unreadable(path, &e))?;
        let origin = path.display().to_string();
        let base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let source = Source {
            origin: &origin,
            text: &text,
        };
        let at = |offset: usize, message: String| source.error(Some(offset), &message);
        let fail = |message: String| Error::input(format!("{origin}: {message}"));
        let raw: RawTune = toml::from_str(&text).map_err(|e| source.toml_error(&e))?;
        if raw.iterations == 0 {
            return Err(fail("iterations = 0: tune for at least 1 iteration".into()));
        }
        if raw.games_per_iteration < 2 || raw.games_per_iteration % 2 == 1 {
            return Err(fail(format!(
                "games_per_iteration = {}: use an even number of at least 2 (colour-swapped pairs)",
                raw.games_per_iteration
            )));
        }
        let span = raw.player.span();
        let spec = StrategySpec::from_value(raw.player.get_ref())
            .map_err(|e| at(span.start, format!("player: {e}")))?;
        let player = spec.to_table();
        if raw.params.is_empty() {
            return Err(fail(
                "no [[params]]: name at least one parameter to tune".into(),
            ));
        }
        let mut known = Vec::new();
        numeric_paths(&player, "", &mut known);
        let known_refs: Vec<&str> = known.iter().map(String::as_str).collect();
        let mut params = Vec::new();
        for p in raw.params {
            let current = path_get(&player, &p.name).ok_or_else(|| {
                fail(crate::error::unknown_name(
                    &format!("parameter for strategy '{}':", spec.kind()),
                    &p.name,
                    &known_refs,
                ))
            })?;
            let (value, integer) = match current {
                Value::Integer(i) => (*i as f64, true),
                Value::Float(f) => (*f, false),
                _ => {
                    return Err(fail(format!(
                        "parameter '{}' is not a number in the strategy",
                        p.name
                    )))
                }
            };
            if p.min.partial_cmp(&p.max) != Some(std::cmp::Ordering::Less) {
                return Err(fail(format!(
                    "parameter '{}': min = {} is not below max = {}",
                    p.name, p.min, p.max
                )));
            }
            let start = p.start.unwrap_or(value);
            if start < p.min || start > p.max {
                return Err(fail(format!(
                    "parameter '{}': start = {start} is outside [{}, {}]",
                    p.name, p.min, p.max
                )));
            }
            if p.step.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                return Err(fail(format!(
                    "parameter '{}': step = {} must be above 0",
                    p.name, p.step
                )));
            }
            params.push(Param {
                name: p.name,
                start,
                min: p.min,
                max: p.max,
                step: p.step,
                integer,
            });
        }
        let parse_players = |list: Vec<RawOpponent>, what: &str| -> Result<Vec<(String, Table)>> {
            list.into_iter()
                .map(|o| {
                    let spec = StrategySpec::from_value(&o.strategy)
                        .map_err(|e| fail(format!("{what} '{}': {e}", o.name)))?;
                    Ok((o.name, spec.to_table()))
                })
                .collect()
        };
        let panel = parse_players(raw.opponents.unwrap_or_default(), "opponent")?;
        let mut validation_panel = parse_players(raw.validation.panel, "validation panel player")?;
        if validation_panel.is_empty() {
            validation_panel = panel.clone();
        }
        // The board, rules and openings, checked as an experiment with placeholder players.
        let mut t = Table::new();
        t.insert("name".into(), Value::String(raw.name.clone()));
        t.insert("seed".into(), Value::Integer(raw.seed as i64));
        if let Some(size) = raw.size {
            t.insert("size".into(), Value::Integer(i64::from(size)));
        }
        if let Some(rules) = raw.rules {
            t.insert("rules".into(), rules);
        }
        if let Some(openings) = raw.openings {
            t.insert("openings".into(), openings);
        }
        if let Some(threads) = raw.threads {
            t.insert("threads".into(), Value::Integer(threads as i64));
        }
        t.insert(
            "games_per_pair".into(),
            Value::Integer(raw.games_per_iteration as i64),
        );
        let mut players = vec![("start".to_string(), player.clone())];
        players.extend(panel.iter().cloned());
        players.extend(validation_panel.iter().cloned());
        if players.len() < 2 {
            players.push(("start-copy".into(), player.clone()));
        }
        let mut seen = std::collections::HashSet::new();
        players.retain(|(n, _)| seen.insert(n.clone()));
        t.insert(
            "players".into(),
            Value::Array(
                players
                    .into_iter()
                    .map(|(n, s)| {
                        let mut p = Table::new();
                        p.insert("name".into(), Value::String(n));
                        p.insert("strategy".into(), Value::Table(s));
                        Value::Table(p)
                    })
                    .collect(),
            ),
        );
        let base = Experiment::parse(
            &toml::to_string(&t).expect("serialises"),
            &origin,
            &base_dir,
        )?;
        let tune = Tune {
            name: raw.name,
            seed: raw.seed,
            method: raw.method,
            iterations: raw.iterations,
            games: raw.games_per_iteration,
            r_end: raw.spsa.r_end.unwrap_or(2.0),
            player,
            params,
            panel,
            base,
            validation_games: if raw.validation.skip {
                0
            } else {
                raw.validation.games.unwrap_or(1000)
            },
            validation_elo1: raw.validation.elo1.unwrap_or(20.0),
            validation_panel,
        };
        // Every parameter must reach a buildable strategy at both bounds.
        for p in &tune.params {
            for v in [p.min, p.max] {
                let mut theta: Vec<f64> = tune.params.iter().map(|q| q.start).collect();
                let i = tune
                    .params
                    .iter()
                    .position(|q| q.name == p.name)
                    .expect("present");
                theta[i] = v;
                let spec = tune
                    .spec(&theta)
                    .map_err(|e| fail(format!("parameter '{}' = {v}: {e}", p.name)))?;
                with_geometry!(tune.base.size, G => {
                    spec.build::<G>(tune.base.rules).map_err(|e| fail(format!("parameter '{}' = {v}: {e}", p.name)))?;
                });
            }
        }
        Ok(tune)
    }

    /// The strategy table with the parameters set to `theta`.
    #[must_use]
    pub fn table(&self, theta: &[f64]) -> Table {
        let mut table = self.player.clone();
        for (p, &v) in self.params.iter().zip(theta) {
            let value = if p.integer {
                Value::Integer(v.round() as i64)
            } else {
                Value::Float(v)
            };
            path_set(&mut table, &p.name, value);
        }
        table
    }

    /// The strategy with the parameters set to `theta`.
    pub fn spec(&self, theta: &[f64]) -> Result<StrategySpec, crate::strategy::SpecError> {
        StrategySpec::from_table(&self.table(theta))
    }

    fn clamp(&self, theta: &mut [f64]) {
        for (v, p) in theta.iter_mut().zip(&self.params) {
            *v = v.clamp(p.min, p.max);
        }
    }
}

/// Plays `games` games of X against Y (or against the panel when Y is None),
/// colours alternating, openings and seeds from `(tune seed, stream, game)`.
/// Returns X's tally.
fn play_games<G: Geometry>(
    tune: &Tune,
    x: &dyn Strategy<G>,
    y: &[&dyn Strategy<G>],
    stream: u64,
    games: u64,
) -> Trinomial {
    (0..games)
        .into_par_iter()
        .map(|g| {
            let opponent = y[(g / 2) as usize % y.len()];
            let x_black = g % 2 == 0;
            let players = if x_black {
                [x, opponent]
            } else {
                [opponent, x]
            };
            let opening = tune.base.opening(stream, g / 2);
            let start = Game::<G>::from_transcript(&opening).expect("openings are checked");
            let mut rng = game_rng(game_seed(tune.seed, stream, g));
            let game = with_memories::<G, _>(2, |memories| {
                play_game(players, start, &mut rng, two_mut(memories, 0, 1))
            });
            let margin = game.outcome(tune.base.rules).expect("finished").margin;
            Trinomial::of_margin(if x_black { margin } else { -margin })
        })
        .reduce(Trinomial::default, |a, b| a + b)
}

/// One row of trace.csv.
#[derive(Clone, Debug)]
struct TraceRow {
    iteration: u64,
    result: f64,
    theta: Vec<f64>,
}

fn read_trace(path: &Path, tune: &Tune) -> Result<Vec<TraceRow>> {
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| Error::unreadable(path, &std::io::Error::other(e.to_string())))?;
    let headers = reader
        .headers()
        .map_err(|e| Error::input(format!("{}: {e}", path.display())))?
        .clone();
    let expected = trace_header(tune);
    if headers.iter().collect::<Vec<_>>() != expected.iter().map(String::as_str).collect::<Vec<_>>()
    {
        return Err(Error::input(format!(
            "{} was written by a different tune (its columns differ): use --out DIR for a new tune",
            path.display()
        )));
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let Ok(record) = record else { break }; // a partial last line from a kill
        let parse = |i: usize| record.get(i).and_then(|v| v.parse::<f64>().ok());
        let (Some(iteration), Some(result)) = (parse(0), parse(1)) else {
            break;
        };
        let theta: Option<Vec<f64>> = (0..tune.params.len()).map(|i| parse(2 + i)).collect();
        let Some(theta) = theta else { break };
        rows.push(TraceRow {
            iteration: iteration as u64,
            result,
            theta,
        });
    }
    Ok(rows)
}

fn trace_header(tune: &Tune) -> Vec<String> {
    let mut h = vec!["iteration".to_string(), "result".to_string()];
    h.extend(tune.params.iter().map(|p| p.name.clone()));
    h
}

fn trace_line(row: &TraceRow) -> String {
    let mut line = format!("{},{}", row.iteration, row.result);
    for v in &row.theta {
        write!(line, ",{v}").ok();
    }
    line.push('\n');
    line
}

/// What a tune did.
pub struct TuneSummary {
    /// The tune's folder.
    pub out: PathBuf,
    /// The tuned parameters.
    pub best: Vec<f64>,
    /// Lines for the terminal: the parameters and the validation.
    pub lines: Vec<String>,
    /// Whether the run was interrupted.
    pub interrupted: bool,
}

/// Runs a tune (or the rest of one, with `resume`), then validates the result.
pub fn tune(
    path: &Path,
    out: Option<PathBuf>,
    resume: bool,
    quiet: bool,
    stop: &AtomicBool,
) -> Result<TuneSummary> {
    let tune = Tune::load(path)?;
    let out = out.unwrap_or_else(|| Path::new("results").join(&tune.name));
    let trace_path = out.join("trace.csv");
    if out.exists() && !resume {
        return Err(Error::input(format!(
            "results folder {} already exists: pass --resume to continue the tune, or --out DIR",
            out.display()
        )));
    }
    std::fs::create_dir_all(&out).map_err(|e| {
        Error::input(format!(
            "cannot create results folder {}: {e} (choose another with --out)",
            out.display()
        ))
    })?;
    let mut rows = if trace_path.exists() {
        read_trace(&trace_path, &tune)?
    } else {
        Vec::new()
    };
    // Rewrite the trace from its complete rows (drops a partial last line).
    let mut text = trace_header(&tune).join(",") + "\n";
    for row in &rows {
        text.push_str(&trace_line(row));
    }
    std::fs::write(&trace_path, &text).map_err(|e| Error::io(&trace_path, e))?;
    let threads = tune.base.threads.unwrap_or_else(rayon::current_num_threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::input(format!("cannot start {threads} threads: {e}")))?;
    let progress = Progress::new(tune.iterations, rows.len() as u64, quiet);
    let mut interrupted = false;
    let best = with_geometry!(tune.base.size, G => {
        pool.install(|| match tune.method {
            Method::Spsa => spsa::<G>(&tune, &mut rows, &trace_path, &progress, stop, &mut interrupted),
            Method::Cmaes => cmaes::<G>(&tune, &mut rows, &trace_path, &progress, stop, &mut interrupted),
        })
    })?;
    progress.finish();
    let mut lines = Vec::new();
    for (p, v) in tune.params.iter().zip(&best) {
        lines.push(format!("{:<24} {:>10.3} -> {:>10.3}", p.name, p.start, v));
    }
    if interrupted {
        return Ok(TuneSummary {
            out,
            best,
            lines,
            interrupted,
        });
    }
    // best.toml: a player an experiment file can include as it is.
    let tuned = tune.table(&best);
    let mut player = Table::new();
    player.insert("name".into(), Value::String(format!("{}-tuned", tune.name)));
    player.insert("strategy".into(), Value::Table(tuned.clone()));
    let mut doc = Table::new();
    doc.insert("players".into(), Value::Array(vec![Value::Table(player)]));
    let best_path = out.join("best.toml");
    let best_text = format!(
        "# The tuned player of `reversi-lab tune` {} ({:?}, {} iterations): paste into an experiment file.\n{}",
        tune.name,
        tune.method,
        tune.iterations,
        toml::to_string(&doc).expect("serialises")
    );
    std::fs::write(&best_path, best_text).map_err(|e| Error::io(&best_path, e))?;
    draw_trace(&tune, &rows, &out.join("charts"))?;
    let validation = validate(&tune, &tuned, &out, quiet, stop)?;
    lines.extend(validation.iter().cloned());
    let mut report = format!(
        "# Tune: {}\n\nMethod {:?}, {} iterations of {} games, seed {}.\n\n| parameter | start | tuned | bounds |\n|---|---|---|---|\n",
        tune.name, tune.method, tune.iterations, tune.games, tune.seed
    );
    for (p, v) in tune.params.iter().zip(&best) {
        writeln!(
            report,
            "| {} | {} | {:.3} | [{}, {}] |",
            p.name, p.start, v, p.min, p.max
        )
        .ok();
    }
    report.push_str("\n## Validation\n\n");
    for line in &validation {
        writeln!(report, "- {line}").ok();
    }
    report.push_str("\n## Charts\n\n![Parameters](charts/parameters.svg)\n\n![Result per iteration](charts/results.svg)\n");
    let report_path = out.join("report.md");
    std::fs::write(&report_path, report).map_err(|e| Error::io(&report_path, e))?;
    Ok(TuneSummary {
        out,
        best,
        lines,
        interrupted,
    })
}

fn append(trace: &Path, row: &TraceRow) -> Result<()> {
    use std::io::Write as _;
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(trace)
        .map_err(|e| Error::io(trace, e))?;
    file.write_all(trace_line(row).as_bytes())
        .map_err(|e| Error::io(trace, e))
}

fn build<G: Geometry>(tune: &Tune, theta: &[f64]) -> Result<Box<dyn Strategy<G>>> {
    let spec = tune.spec(theta)?;
    Ok(spec.build::<G>(tune.base.rules)?)
}

fn panel<G: Geometry>(tune: &Tune) -> Result<Vec<Box<dyn Strategy<G>>>> {
    tune.panel
        .iter()
        .map(|(name, table)| {
            StrategySpec::from_table(table)
                .and_then(|s| s.build::<G>(tune.base.rules))
                .map_err(|e| Error::input(format!("opponent '{name}': {e}")))
        })
        .collect()
}

/// SPSA with the standard gains: a_k = a/(A+k)^0.602, c_k = c/k^0.101, A = 10% of
/// the iterations; per parameter c = step K^0.101 (so the last perturbation is
/// `step`) and a = r_end step^2 (A+K)^0.602 (so the last update is r_end step per unit result).
fn spsa<G: Geometry>(
    tune: &Tune,
    rows: &mut Vec<TraceRow>,
    trace: &Path,
    progress: &Progress,
    stop: &AtomicBool,
    interrupted: &mut bool,
) -> Result<Vec<f64>> {
    let k_total = tune.iterations as f64;
    let big_a = 0.1 * k_total;
    let mut theta: Vec<f64> = rows.last().map_or_else(
        || tune.params.iter().map(|p| p.start).collect(),
        |r| r.theta.clone(),
    );
    let panel = panel::<G>(tune)?;
    for k in rows.len() as u64 + 1..=tune.iterations {
        if stop.load(Ordering::Relaxed) {
            *interrupted = true;
            break;
        }
        let kf = k as f64;
        let mut rng = crate::strategy::GameRng::seed_from_u64(splitmix(tune.seed ^ splitmix(k)));
        let delta: Vec<f64> = tune
            .params
            .iter()
            .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let c: Vec<f64> = tune
            .params
            .iter()
            .map(|p| p.step * k_total.powf(0.101) / kf.powf(0.101))
            .collect();
        let a: Vec<f64> = tune
            .params
            .iter()
            .map(|p| {
                tune.r_end * p.step * p.step * (big_a + k_total).powf(0.602)
                    / (big_a + kf).powf(0.602)
            })
            .collect();
        let mut plus = theta.clone();
        let mut minus = theta.clone();
        for i in 0..theta.len() {
            plus[i] += c[i] * delta[i];
            minus[i] -= c[i] * delta[i];
        }
        tune.clamp(&mut plus);
        tune.clamp(&mut minus);
        let (sp, sm) = (build::<G>(tune, &plus)?, build::<G>(tune, &minus)?);
        // The result: how much better theta+ did than theta-, per game, in [-1, 1].
        let result = if panel.is_empty() {
            let t = play_games::<G>(tune, sp.as_ref(), &[sm.as_ref()], k, tune.games);
            (t.wins as f64 - t.losses as f64) / t.games() as f64
        } else {
            let opponents: Vec<&dyn Strategy<G>> = panel.iter().map(AsRef::as_ref).collect();
            let tp = play_games::<G>(tune, sp.as_ref(), &opponents, k, tune.games / 2);
            let tm = play_games::<G>(tune, sm.as_ref(), &opponents, k, tune.games / 2);
            tp.score().mean - tm.score().mean
        };
        for i in 0..theta.len() {
            theta[i] += a[i] / c[i] * result * delta[i];
        }
        tune.clamp(&mut theta);
        let row = TraceRow {
            iteration: k,
            result,
            theta: theta.clone(),
        };
        append(trace, &row)?;
        rows.push(row);
        progress.advance(1);
        let recent: Vec<f64> = rows.iter().rev().take(20).map(|r| r.result).collect();
        progress.message(format!(
            "recent result {:+.3}; {}",
            recent.iter().sum::<f64>() / recent.len() as f64,
            tune.params
                .iter()
                .zip(&theta)
                .map(|(p, v)| format!("{}={v:.2}", p.name))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    Ok(theta)
}

/// CMA-ES over the parameters scaled by their steps, minimising minus the score
/// against the panel (or against the starting player). Each evaluation plays
/// `games` games; evaluations are seeded by their index, and a resumed tune replays
/// the stored results, so it reaches the same state as an uninterrupted one.
fn cmaes<G: Geometry>(
    tune: &Tune,
    rows: &mut Vec<TraceRow>,
    trace: &Path,
    progress: &Progress,
    stop: &AtomicBool,
    interrupted: &mut bool,
) -> Result<Vec<f64>> {
    let start: Vec<f64> = tune.params.iter().map(|p| p.start / p.step).collect();
    let start_strategy = build::<G>(
        tune,
        &tune.params.iter().map(|p| p.start).collect::<Vec<_>>(),
    )?;
    let panel = panel::<G>(tune)?;
    let replay: Vec<TraceRow> = rows.clone();
    let mut evaluations = 0u64;
    let mut failure: Option<Error> = None;
    let mut fresh: Vec<TraceRow> = Vec::new();
    let objective = |x: &nalgebra::DVector<f64>| -> f64 {
        evaluations += 1;
        if let Some(row) = replay.get(evaluations as usize - 1) {
            return -row.result;
        }
        if failure.is_some() || stop.load(Ordering::Relaxed) || evaluations > tune.iterations {
            return 0.0;
        }
        let mut theta: Vec<f64> = x
            .iter()
            .zip(&tune.params)
            .map(|(v, p)| v * p.step)
            .collect();
        tune.clamp(&mut theta);
        let strategy = match build::<G>(tune, &theta) {
            Ok(s) => s,
            Err(e) => {
                failure = Some(e);
                return 0.0;
            }
        };
        let opponents: Vec<&dyn Strategy<G>> = if panel.is_empty() {
            vec![start_strategy.as_ref()]
        } else {
            panel.iter().map(AsRef::as_ref).collect()
        };
        let t = play_games::<G>(tune, strategy.as_ref(), &opponents, evaluations, tune.games);
        let score = t.score().mean;
        let row = TraceRow {
            iteration: evaluations,
            result: score,
            theta,
        };
        if let Err(e) = append(trace, &row) {
            failure = Some(e);
        }
        fresh.push(row);
        progress.advance(1);
        progress.message(format!("score {:.3}", score));
        -score
    };
    let mut optimiser = cmaes::CMAESOptions::new(start, 1.0)
        .seed(tune.seed)
        .max_function_evals(tune.iterations as usize)
        .build(objective)
        .map_err(|e| Error::input(format!("CMA-ES cannot start: {e:?}")))?;
    let mut mean: Vec<f64>;
    loop {
        let done = optimiser.next();
        mean = optimiser
            .mean()
            .iter()
            .zip(&tune.params)
            .map(|(v, p)| (v * p.step).clamp(p.min, p.max))
            .collect();
        if done.is_some() || stop.load(Ordering::Relaxed) {
            break;
        }
    }
    drop(optimiser);
    if let Some(e) = failure {
        return Err(e);
    }
    rows.extend(fresh);
    if stop.load(Ordering::Relaxed) && (rows.len() as u64) < tune.iterations {
        *interrupted = true;
    }
    Ok(mean)
}

fn draw_trace(tune: &Tune, rows: &[TraceRow], dir: &Path) -> Result<()> {
    register_fonts();
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let last = rows.last().map_or(1, |r| r.iteration).max(1) as f64;
    let palette = [
        BLUE,
        RED,
        GREEN,
        MAGENTA,
        CYAN,
        BLACK,
        RGBColor(255, 140, 0),
        RGBColor(128, 0, 128),
        RGBColor(0, 128, 128),
        RGBColor(128, 128, 0),
    ];
    let fail = |e: String| Error::input(format!("cannot draw the tune charts: {e}"));
    macro_rules! on_both {
        ($name:expr, $size:expr, $draw:expr) => {{
            let png = dir.join(format!("{}.png", $name));
            let root = BitMapBackend::new(&png, $size).into_drawing_area();
            root.fill(&WHITE).map_err(|e| fail(e.to_string()))?;
            $draw(&root).map_err(|e: Box<dyn std::error::Error>| fail(e.to_string()))?;
            root.present().map_err(|e| fail(e.to_string()))?;
            let svg = dir.join(format!("{}.svg", $name));
            let root = SVGBackend::new(&svg, $size).into_drawing_area();
            root.fill(&WHITE).map_err(|e| fail(e.to_string()))?;
            $draw(&root).map_err(|e: Box<dyn std::error::Error>| fail(e.to_string()))?;
            root.present().map_err(|e| fail(e.to_string()))?;
        }};
    }
    fn params_chart<DB: DrawingBackend>(
        root: &DrawingArea<DB, plotters::coord::Shift>,
        tune: &Tune,
        rows: &[TraceRow],
        last: f64,
        palette: &[RGBColor],
    ) -> std::result::Result<(), Box<dyn std::error::Error>>
    where
        DB::ErrorType: 'static,
    {
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Parameters over iterations (% of each parameter's range)",
                (FONT, 20),
            )
            .margin(14)
            .x_label_area_size(46)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..last, 0.0f64..100.0)?;
        chart
            .configure_mesh()
            .x_desc("iteration")
            .y_desc("position in [min, max] (%)")
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 15))
            .draw()?;
        for (i, p) in tune.params.iter().enumerate() {
            let colour = palette[i % palette.len()];
            let start = 100.0 * (p.start - p.min) / (p.max - p.min);
            chart
                .draw_series(LineSeries::new(
                    std::iter::once((0.0, start)).chain(rows.iter().map(|r| {
                        (
                            r.iteration as f64,
                            100.0 * (r.theta[i] - p.min) / (p.max - p.min),
                        )
                    })),
                    colour.stroke_width(2),
                ))?
                .label(format!("{} [{}, {}]", p.name, p.min, p.max))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .label_font((FONT, 13))
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK.mix(0.3))
            .draw()?;
        Ok(())
    }
    fn results_chart<DB: DrawingBackend>(
        root: &DrawingArea<DB, plotters::coord::Shift>,
        tune: &Tune,
        rows: &[TraceRow],
        last: f64,
    ) -> std::result::Result<(), Box<dyn std::error::Error>>
    where
        DB::ErrorType: 'static,
    {
        let what = match (tune.method, tune.panel.is_empty()) {
            (Method::Spsa, true) => "theta+ over theta-: (wins - losses) per game",
            (Method::Spsa, false) => "theta+ over theta- against the panel: score difference",
            (Method::Cmaes, true) => "candidate's score against the starting player",
            (Method::Cmaes, false) => "candidate's score against the panel",
        };
        let low = rows.iter().map(|r| r.result).fold(-0.1f64, f64::min);
        let high = rows.iter().map(|r| r.result).fold(0.1f64, f64::max);
        let mut chart = ChartBuilder::on(root)
            .caption(
                format!("Result per iteration: {what} (line: mean of the last 20)"),
                (FONT, 18),
            )
            .margin(14)
            .x_label_area_size(46)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..last, low..high)?;
        chart
            .configure_mesh()
            .x_desc("iteration")
            .y_desc("result")
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 15))
            .draw()?;
        chart.draw_series(
            rows.iter()
                .map(|r| Circle::new((r.iteration as f64, r.result), 2, BLUE.mix(0.4).filled())),
        )?;
        let mean: Vec<(f64, f64)> = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let window = &rows[i.saturating_sub(19)..=i];
                (
                    r.iteration as f64,
                    window.iter().map(|w| w.result).sum::<f64>() / window.len() as f64,
                )
            })
            .collect();
        chart.draw_series(LineSeries::new(mean, RED.stroke_width(2)))?;
        Ok(())
    }
    on_both!("parameters", (1000, 520), |root: &DrawingArea<_, _>| {
        params_chart(root, tune, rows, last, &palette)
    });
    on_both!("results", (1000, 420), |root: &DrawingArea<_, _>| {
        results_chart(root, tune, rows, last)
    });
    Ok(())
}

/// Plays the tuned player against the starting player (head-to-head with an SPRT)
/// and against the validation panel; returns one line per comparison.
fn validate(
    tune: &Tune,
    tuned: &Table,
    out: &Path,
    quiet: bool,
    stop: &AtomicBool,
) -> Result<Vec<String>> {
    if tune.validation_games == 0 {
        return Ok(vec!["validation skipped (validation.skip = true)".into()]);
    }
    let mut lines = Vec::new();
    let start = tune.player.clone();
    let mut comparisons = vec![("start".to_string(), start)];
    comparisons.extend(tune.validation_panel.iter().cloned());
    for (index, (name, opponent)) in comparisons.into_iter().enumerate() {
        let mut t = tune.base.to_table();
        t.insert(
            "name".into(),
            Value::String(format!("{}-validation-{name}", tune.name)),
        );
        t.insert(
            "seed".into(),
            Value::Integer((splitmix(tune.seed) >> 1) as i64 + index as i64),
        );
        t.insert("format".into(), Value::String("head-to-head".into()));
        t.insert(
            "games_per_pair".into(),
            Value::Integer(tune.validation_games as i64),
        );
        t.remove("challengers");
        if index == 0 {
            let mut sprt = Table::new();
            sprt.insert("elo0".into(), Value::Float(0.0));
            sprt.insert("elo1".into(), Value::Float(tune.validation_elo1));
            t.insert("sprt".into(), Value::Table(sprt));
        }
        let player = |n: String, s: Table| {
            let mut p = Table::new();
            p.insert("name".into(), Value::String(n));
            p.insert("strategy".into(), Value::Table(s));
            Value::Table(p)
        };
        let opponent_name = if name == "start" {
            "start".to_string()
        } else {
            name.clone()
        };
        t.insert(
            "players".into(),
            Value::Array(vec![
                player("tuned".into(), tuned.clone()),
                player(opponent_name.clone(), opponent),
            ]),
        );
        let experiment = Experiment::parse(
            &toml::to_string(&t).expect("serialises"),
            "validation",
            Path::new("."),
        )?;
        let dir = out.join(format!("validation-{name}"));
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        }
        let summary = run(
            &experiment,
            &RunOptions {
                out: Some(dir.clone()),
                resume: false,
                quiet,
                stop,
            },
        )?;
        if summary.status == Status::Interrupted {
            lines.push(format!("validation against {name} interrupted"));
            break;
        }
        crate::report::write_report(&dir)?;
        let results = crate::report::Results::load(&dir)?;
        let pair = &results.pairs[0];
        let (elo, low, high) = (
            pair.elo.unwrap_or(f64::NAN),
            pair.elo_low.unwrap_or(f64::NAN),
            pair.elo_high.unwrap_or(f64::NAN),
        );
        let verdict = if low > 0.0 {
            "significant gain: the 95% interval is entirely above 0"
        } else if high < 0.0 {
            "significantly WORSE: the 95% interval is entirely below 0"
        } else {
            "NOT significant: the 95% interval includes 0"
        };
        let sprt = match summary.status {
            Status::SprtAcceptedH1 => ", SPRT accepted H1",
            Status::SprtAcceptedH0 => ", SPRT accepted H0",
            _ => "",
        };
        lines.push(format!(
            "tuned vs {opponent_name}: {} games, {}/{}/{}, score {:.1}%, Elo {elo:+.0} [{low:+.0}, {high:+.0}]{sprt}: {verdict}",
            pair.games,
            pair.wins,
            pair.draws,
            pair.losses,
            100.0 * pair.score.unwrap_or(f64::NAN)
        ));
    }
    Ok(lines)
}
