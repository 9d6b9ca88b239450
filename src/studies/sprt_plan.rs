//! `sprt-plan`: sizing an SPRT before running it. Its options, the plan (pass
//! probability and expected game pairs by true Elo, from Wald's approximation for the LLR's walk),
//! its rows, its table and its chart.

use crate::chart::{both, register_fonts, tick, Chart, FONT};
use crate::error::{Error, Result};
use crate::lab::folder::{check_output_folder, write_atomically};
use crate::lab::rows::{csv_bytes, decimals, read_rows, PairRow};
use crate::setting::{Said, Setting};
use crate::stats::{pairs_from_draw_ratio, plan, PlanError, PlanPoint, SprtDesign};
use plotters::prelude::*;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Where the shape of the results comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanBase {
    /// Two independent games at equal strength drawing this share of the time.
    DrawRatio(f64),
    /// The colour-swapped game pairs of an earlier run's `pairs.csv` (its draw ratio
    /// and its pair variance, the correlation of a pair's games included), of the
    /// named pair of players (needed when the run has more than one pair).
    Results(PathBuf, Option<(String, String)>),
}

/// What `sprt-plan` is asked.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanOptions {
    /// The test.
    pub design: SprtDesign,
    /// The shape of the results.
    pub base: PlanBase,
    /// Where to write `sprt-plan.csv` and the chart (none: the table only).
    pub out: Option<PathBuf>,
}

/// One row of `sprt-plan.csv`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlanRow {
    /// The true Elo difference.
    #[serde(serialize_with = "decimals::two")]
    pub elo: Option<f64>,
    /// The chance the test accepts H1.
    #[serde(serialize_with = "decimals::four")]
    pub pass_probability: Option<f64>,
    /// The expected colour-swapped game pairs until it stops.
    #[serde(serialize_with = "decimals::one")]
    pub expected_pairs: Option<f64>,
    /// The expected games (twice the pairs).
    #[serde(serialize_with = "decimals::one")]
    pub expected_games: Option<f64>,
}

/// A plan: what it rests on and its points.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The options it answers.
    pub options: PlanOptions,
    /// The pair frequencies used (0 to 2 points).
    pub frequencies: [f64; 5],
    /// The points, by rising Elo.
    pub points: Vec<PlanPoint>,
    /// The chart, when written.
    pub chart: Option<Chart>,
}

/// The true Elos a plan shows: from a step below elo0 to a step above elo1 in
/// quarters of the hypotheses' distance.
#[must_use]
pub fn grid(design: &SprtDesign) -> Vec<f64> {
    let step = (design.elo1 - design.elo0) / 4.0;
    (-4..=8)
        .map(|i| design.elo0 + f64::from(i) * step)
        .collect()
}

/// The Elo difference of the null hypothesis: `--elo0`.
pub static ELO0: Setting = Setting::new("", "--elo0", "elo0");
/// The Elo difference of the alternative: `--elo1`.
pub static ELO1: Setting = Setting::new("", "--elo1", "elo1");
/// The false-positive rate: `--alpha`.
pub static ALPHA: Setting = Setting::new("", "--alpha", "alpha");
/// The false-negative rate: `--beta`.
pub static BETA: Setting = Setting::new("", "--beta", "beta");
/// A finished run whose game pairs give the shape: `--from DIR`.
pub static FROM: Setting = Setting::new("", "--from", "from");
/// Which pair of players of `--from`: `--pair A,B`.
pub static PAIR: Setting = Setting::new("", "--pair", "pair");
/// The share of drawn games, instead of `--from`: `--draw-ratio`.
pub static DRAW_RATIO: Setting = Setting::new("", "--draw-ratio", "draw_ratio");

/// Checks the design as a run's `[sprt]` is checked.
fn check(design: &SprtDesign) -> Result<()> {
    for (setting, value) in [
        (&ELO0, design.elo0),
        (&ELO1, design.elo1),
        (&ALPHA, design.alpha),
        (&BETA, design.beta),
    ] {
        if !value.is_finite() {
            return Err(Error::said(
                Said::default()
                    .given(setting, value)
                    .then(": give a finite number, such as 5"),
            ));
        }
    }
    if design.elo0.partial_cmp(&design.elo1) != Some(std::cmp::Ordering::Less) {
        return Err(Error::said(
            Said::default()
                .given(&ELO0, design.elo0)
                .then(" must be below ")
                .given(&ELO1, design.elo1),
        ));
    }
    if design.elo0.abs() > 1000.0 || design.elo1.abs() > 1000.0 {
        return Err(Error::said(
            Said::default()
                .name(&ELO0)
                .then(" and ")
                .name(&ELO1)
                .then(" must lie within +/-1000 Elo"),
        ));
    }
    for (setting, value) in [(&ALPHA, design.alpha), (&BETA, design.beta)] {
        if !(value > 0.0 && value < 0.5) {
            return Err(Error::said(Said::default().given(setting, value).then(
                " is out of range: use a rate between 0 and 0.5, such as 0.05",
            )));
        }
    }
    Ok(())
}

/// The game pairs of one pair of players of a results folder, as frequencies: the
/// only pair, or the one `pair` names (either way round).
fn pairs_of(dir: &Path, pair: Option<&(String, String)>) -> Result<[f64; 5]> {
    let path = crate::lab::ResultsFolder::at(dir).path(crate::lab::FolderFile::Pairs);
    if !path.is_file() {
        return Err(Error::said(
            Said::default()
                .given(&FROM, dir.display())
                .then(": no pairs.csv there: give the folder of a finished run"),
        ));
    }
    let rows: Vec<PairRow> = read_rows(&path)?;
    let names = || {
        rows.iter()
            .map(|r| format!("{},{}", r.player_a, r.player_b))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let counts = match (pair, rows.as_slice()) {
        (None, [only]) => only.paired().pairs.0,
        (None, _) => {
            // Pooling pairs of players of different strengths would mix their shapes.
            return Err(Error::said(
                Said::default()
                    .given(&FROM, dir.display())
                    .then(format!(
                        ": its pairs.csv holds {} pairs of players: choose one with ",
                        rows.len()
                    ))
                    .placeholder(&PAIR, "A,B")
                    .then(format!(" (one of {})", names())),
            ));
        }
        (Some((a, b)), _) => {
            let found = rows.iter().find_map(|r| {
                if (&r.player_a, &r.player_b) == (a, b) {
                    Some(r.paired().pairs.0)
                } else if (&r.player_a, &r.player_b) == (b, a) {
                    // From the other side: 2 points become 0.
                    let mut c = r.paired().pairs.0;
                    c.reverse();
                    Some(c)
                } else {
                    None
                }
            });
            found.ok_or_else(|| {
                Error::said(
                    Said::default()
                        .given(&PAIR, format!("{a},{b}"))
                        .then(format!(
                            ": {} has no such pair of players: use one of {}",
                            path.display(),
                            names()
                        )),
                )
            })?
        }
    };
    if counts.iter().sum::<u64>() < 2 {
        return Err(Error::said(
            Said::default()
                .given(&FROM, dir.display())
                .then(": its pairs.csv has fewer than 2 colour-swapped game pairs to take a shape from: use ")
                .name(&DRAW_RATIO)
                .then(" instead"),
        ));
    }
    Ok(counts.map(|c| c as f64))
}

/// Makes the plan, and writes its CSV and chart when `out` is given.
pub fn run(options: &PlanOptions) -> Result<Plan> {
    check(&options.design)?;
    let frequencies = match &options.base {
        PlanBase::DrawRatio(d) if !(0.0..1.0).contains(d) => {
            return Err(Error::said(Said::default().given(&DRAW_RATIO, d).then(
                " is out of range: use a share of drawn games in [0, 1), such as 0.3",
            )))
        }
        PlanBase::DrawRatio(d) => pairs_from_draw_ratio(*d),
        PlanBase::Results(dir, pair) => pairs_of(dir, pair.as_ref())?,
    };
    let total: f64 = frequencies.iter().sum();
    let frequencies = frequencies.map(|c| c / total);
    let points = plan(&options.design, &frequencies, &grid(&options.design)).map_err(
        |PlanError::Coarse { step, bound }| {
            Error::input(format!(
                "this test is too coarse to plan: one game pair moves its LLR by up to {step:.2}, \
                 more than half its bound {bound:.2}, so it decides in a few pairs with large overshoots \
                 that no approximation sizes reliably: narrow elo1 - elo0, or plan with a lower draw ratio"
            ))
        },
    )?;
    let mut plan = Plan {
        options: options.clone(),
        frequencies,
        points,
        chart: None,
    };
    if let Some(out) = &options.out {
        check_output_folder(out, &crate::lab::folder::OUT)?;
        std::fs::create_dir_all(out).map_err(|e| Error::io_during("create", out, e))?;
        let rows: Vec<PlanRow> = plan.points.iter().map(row).collect();
        let path = out.join("sprt-plan.csv");
        write_atomically(&path, &csv_bytes(&rows, &path)?)?;
        plan.chart = Some(chart(&plan, out)?);
    }
    Ok(plan)
}

fn row(p: &PlanPoint) -> PlanRow {
    PlanRow {
        elo: Some(p.elo),
        pass_probability: Some(p.pass_probability),
        expected_pairs: Some(p.expected_pairs),
        expected_games: Some(2.0 * p.expected_pairs),
    }
}

impl Plan {
    /// What the plan rests on, in one line.
    #[must_use]
    pub fn basis(&self) -> String {
        let d = &self.options.design;
        let f = &self.frequencies;
        let mean = (0..5).map(|k| f[k] * k as f64 / 4.0).sum::<f64>();
        let variance = (0..5)
            .map(|k| f[k] * (k as f64 / 4.0 - mean).powi(2))
            .sum::<f64>();
        let source = match &self.options.base {
            PlanBase::DrawRatio(r) => {
                format!("independent games drawing {:.1}% of the time", 100.0 * r)
            }
            PlanBase::Results(dir, None) => format!("the game pairs of {}", dir.display()),
            PlanBase::Results(dir, Some((a, b))) => {
                format!("the game pairs of {a} against {b} in {}", dir.display())
            }
        };
        format!(
            "SPRT elo0 = {}, elo1 = {}, alpha = {}, beta = {}: pass probability and expected length by true Elo, \
             from Wald's approximation for the walk of the exact pentanomial LLR, for {source} \
             (pair outcomes 0 to 2 points: {}; pair score variance {variance:.4}). The overshoot correction keeps a run close to these figures.",
            d.elo0,
            d.elo1,
            d.alpha,
            d.beta,
            f.iter()
                .map(|x| format!("{:.1}%", 100.0 * x))
                .collect::<Vec<_>>()
                .join(" / "),
        )
    }

    /// The table as Markdown.
    #[must_use]
    pub fn table(&self) -> String {
        let mut text = String::from(
            "| true Elo | pass probability | expected game pairs | expected games |\n|---|---|---|---|\n",
        );
        for p in &self.points {
            text.push_str(&format!(
                "| {} | {:.1}% | {:.0} | {:.0} |\n",
                crate::numbers::signed(p.elo, 2),
                100.0 * p.pass_probability,
                p.expected_pairs,
                2.0 * p.expected_pairs
            ));
        }
        text
    }
}

fn chart(plan: &Plan, dir: &Path) -> Result<Chart> {
    register_fonts();
    let d = plan.options.design;
    let title = format!("SPRT plan: elo0 {} elo1 {}", d.elo0, d.elo1);
    let points = &plan.points;
    let (x0, x1) = (points[0].elo, points[points.len() - 1].elo);
    let longest = points.iter().map(|p| p.expected_pairs).fold(1.0, f64::max);
    let pass: Vec<(f64, f64)> = points.iter().map(|p| (p.elo, p.pass_probability)).collect();
    let pairs: Vec<(f64, f64)> = points.iter().map(|p| (p.elo, p.expected_pairs)).collect();
    let panels = [
        (
            format!(
                "Pass probability (accepting H1) by true Elo: elo0 {}, elo1 {}, alpha {}, beta {}",
                d.elo0, d.elo1, d.alpha, d.beta
            ),
            "pass probability",
            1.0,
            pass,
        ),
        (
            "Expected colour-swapped game pairs until the test stops".to_string(),
            "game pairs",
            longest * 1.08,
            pairs,
        ),
    ];
    both!(dir, "sprt-plan", &title, (1000, 760), |root| {
        (|| -> std::result::Result<(), String> {
            let fail = |e: &dyn std::fmt::Display| e.to_string();
            root.fill(&WHITE).map_err(|e| fail(&e))?;
            let (top, bottom) = root.split_vertically(380);
            for ((caption, y_desc, y_max, values), area) in panels.iter().zip([&top, &bottom]) {
                let mut chart = ChartBuilder::on(area)
                    .caption(caption, (FONT, 18))
                    .margin(12)
                    .x_label_area_size(40)
                    .y_label_area_size(60)
                    .build_cartesian_2d(x0..x1, 0.0..*y_max)
                    .map_err(|e| fail(&e))?;
                chart
                    .configure_mesh()
                    .x_desc("true Elo")
                    .y_desc(*y_desc)
                    .x_label_formatter(&|x| tick(*x))
                    .y_label_formatter(&|y| tick(*y))
                    .label_style((FONT, 13))
                    .axis_desc_style((FONT, 15))
                    .draw()
                    .map_err(|e| fail(&e))?;
                chart
                    .draw_series(LineSeries::new(
                        values.iter().copied(),
                        BLUE.stroke_width(2),
                    ))
                    .map_err(|e| fail(&e))?;
                chart
                    .draw_series(values.iter().map(|&p| Circle::new(p, 3, BLUE.filled())))
                    .map_err(|e| fail(&e))?;
                // The hypotheses, where the pass probability is alpha and 1 - beta.
                for (elo, colour) in [(d.elo0, RED), (d.elo1, GREEN)] {
                    chart
                        .draw_series(LineSeries::new(
                            vec![(elo, 0.0), (elo, *y_max)],
                            colour.stroke_width(1),
                        ))
                        .map_err(|e| fail(&e))?;
                }
            }
            root.present().map_err(|e| fail(&e))
        })()
    })
}
