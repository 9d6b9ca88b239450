//! A sweep's part of the report: the table of variants (rating, gain per step,
//! nodes and time per move) and its two charts, rating against the parameter and
//! rating against nodes per move on a log scale.

use super::{cost_spread, Scale, SweepRow, MIN_COST_DOUBLINGS};
use crate::chart::{both, tick, Chart, DrawResult, FONT};
use crate::doc::{elo_interval, Block, Section, Table};
use crate::error::Result;
use crate::numbers::signed;
use crate::studies::section::{Part, Place, RunStudy, RunTables};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

/// One point of a curve: (x, low, rating, high, label).
type Point = (f64, f64, f64, f64, String);

/// The variants that have a rating, as points over `x` (skipping those without one).
fn points(rows: &[SweepRow], x: impl Fn(&SweepRow) -> Option<f64>) -> Vec<Point> {
    rows.iter()
        .filter_map(|r| {
            Some((
                x(r)?,
                r.rating_low?,
                r.rating?,
                r.rating_high?,
                tick(r.value),
            ))
        })
        .filter(|p| p.0.is_finite() && p.1.is_finite() && p.3.is_finite())
        .collect()
}

/// The panel's players and their ratings (players in standings.csv that are not variants).
fn panel(rows: &[SweepRow], run: &RunTables<'_>) -> Vec<(String, f64)> {
    run.standings
        .iter()
        .filter(|s| rows.iter().all(|r| r.variant != s.player))
        .filter_map(|s| Some((s.player.clone(), s.rating.filter(|r| r.is_finite())?)))
        .collect()
}

/// One chart of rating against something.
struct Curve<'a> {
    /// The chart's heading.
    title: &'a str,
    /// The x axis's name.
    x_desc: &'a str,
    /// The variants.
    points: &'a [Point],
    /// A log x axis.
    log: bool,
    /// Write each step's gain between its points.
    gains: bool,
    /// Write each point's value beside it.
    labels: bool,
}

/// Rating (with 95% interval bars) against `x`, linear or log; each step's gain
/// written between its points and the panel's ratings as dashed lines.
fn draw_curve<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    curve: &Curve<'_>,
    panel: &[(String, f64)],
) -> DrawResult<DB> {
    let Curve {
        title,
        x_desc,
        points,
        log,
        gains,
        labels,
    } = *curve;
    let xs = || points.iter().map(|p| p.0);
    let (x_min, x_max) = (
        xs().fold(f64::INFINITY, f64::min),
        xs().fold(f64::NEG_INFINITY, f64::max),
    );
    let ys = || {
        points
            .iter()
            .flat_map(|p| [p.1, p.3])
            .chain(panel.iter().map(|p| p.1))
    };
    let (y_min, y_max) = (
        ys().fold(f64::INFINITY, f64::min),
        ys().fold(f64::NEG_INFINITY, f64::max),
    );
    let pad = ((y_max - y_min) * 0.08).max(10.0);
    let (bottom, top) = (y_min - pad, y_max + pad);
    let small = (FONT, 13).into_font().color(&BLACK);
    // Whole values (depths) get a tick each rather than 1.2, 1.4, ...
    let whole = points.iter().all(|p| p.0.fract() == 0.0);
    let x_labels = if log {
        8
    } else if whole {
        ((x_max - x_min) as usize + 1).min(12)
    } else {
        10
    };
    macro_rules! body {
        ($x_range:expr) => {{
            let mut chart = ChartBuilder::on(root)
                .caption(title, (FONT, 20))
                .margin(16)
                .x_label_area_size(46)
                .y_label_area_size(64)
                .build_cartesian_2d($x_range, bottom..top)?;
            chart
                .configure_mesh()
                .x_desc(x_desc)
                .x_labels(x_labels)
                .y_desc("rating (Elo, 95% interval)")
                .x_label_formatter(&|x| tick(*x))
                .y_label_formatter(&|y| tick(*y))
                .label_style((FONT, 13))
                .axis_desc_style((FONT, 15))
                .draw()?;
            for (name, rating) in panel {
                chart.draw_series(DashedLineSeries::new(
                    [(x_min, *rating), (x_max, *rating)],
                    6,
                    4,
                    BLACK.mix(0.5).stroke_width(1),
                ))?;
                chart.draw_series(std::iter::once(
                    EmptyElement::at((x_min, *rating))
                        + Text::new(
                            format!("panel: {name}"),
                            (4, -3),
                            small.clone().pos(Pos::new(HPos::Left, VPos::Bottom)),
                        ),
                ))?;
            }
            chart.draw_series(LineSeries::new(
                points.iter().map(|p| (p.0, p.2)),
                BLUE.mix(0.6).stroke_width(2),
            ))?;
            chart.draw_series(
                points
                    .iter()
                    .map(|p| PathElement::new(vec![(p.0, p.1), (p.0, p.3)], BLUE.stroke_width(2))),
            )?;
            chart.draw_series(
                points
                    .iter()
                    .flat_map(|p| [(p.0, p.1), (p.0, p.3)])
                    .map(|end| {
                        EmptyElement::at(end)
                            + PathElement::new(vec![(-6, 0), (6, 0)], BLUE.stroke_width(2))
                    }),
            )?;
            chart.draw_series(
                points
                    .iter()
                    .map(|p| Circle::new((p.0, p.2), 5, BLUE.filled())),
            )?;
            if labels {
                chart.draw_series(points.iter().map(|p| {
                    EmptyElement::at((p.0, p.2))
                        + Text::new(
                            p.4.clone(),
                            (8, 4),
                            small.clone().pos(Pos::new(HPos::Left, VPos::Top)),
                        )
                }))?;
            }
            if gains {
                // Each step's gain, written at the middle of its segment.
                chart.draw_series(points.windows(2).map(|w| {
                    let x = if log {
                        (w[0].0 * w[1].0).sqrt()
                    } else {
                        0.5 * (w[0].0 + w[1].0)
                    };
                    EmptyElement::at((x, 0.5 * (w[0].2 + w[1].2)))
                        + Text::new(
                            signed(w[1].2 - w[0].2, 0),
                            (-4, -6),
                            (FONT, 14)
                                .into_font()
                                .color(&RED)
                                .pos(Pos::new(HPos::Right, VPos::Bottom)),
                        )
                }))?;
            }
            Ok(())
        }};
    }
    if log {
        // A log axis labels the powers of ten within it (and points between them): a
        // range without one would have no label at all, so it reaches out to them.
        let (mut low, mut high) = (x_min / 1.4, x_max * 1.4);
        if high.log10().floor() < low.log10().ceil() {
            (low, high) = (
                10f64.powf(low.log10().floor()),
                10f64.powf(high.log10().ceil()),
            );
        }
        body!((low..high).log_scale())
    } else {
        let margin = (x_max - x_min).max(1e-9) * 0.06;
        body!((x_min - margin)..(x_max + margin))
    }
}

/// Draws `sweep-rating` (rating against the parameter) and, when every variant
/// searches, `sweep-cost` (rating against nodes per move, log scale) into `dir`.
pub fn draw(dir: &Path, rows: &[SweepRow], run: &RunTables<'_>) -> Result<Vec<Chart>> {
    let Some(first) = rows.first() else {
        return Ok(Vec::new());
    };
    let panel = panel(rows, run);
    let parameter = first.parameter.clone();
    let log = first.scale == Scale::Log;
    let mut charts = Vec::new();
    let by_value = points(rows, |r| Some(r.value));
    if by_value.len() >= 2 {
        let title = format!("Rating against {parameter} (red: gain over the previous value)");
        let x_desc = format!("{parameter}{}", if log { " (log scale)" } else { "" });
        let curve = Curve {
            title: &title,
            x_desc: &x_desc,
            points: &by_value,
            log,
            gains: true,
            labels: false,
        };
        let mut chart = both!(dir, "sweep-rating", &title, (1000, 560), |root| {
            draw_curve(root, &curve, &panel)
        })?;
        chart.title = format!("Rating against {parameter}");
        charts.push(chart);
    }
    let by_cost = points(rows, |r| r.nodes_per_move.filter(|n| *n > 0.0));
    let spread = cost_spread(rows)
        .is_some_and(|(low, high)| Scale::Log.steps(low, high) >= MIN_COST_DOUBLINGS);
    if by_cost.len() == rows.len() && by_cost.len() >= 2 && spread {
        let title = format!("Rating against cost (points labelled with {parameter})");
        let curve = Curve {
            title: &title,
            x_desc: "nodes searched per move (log scale)",
            points: &by_cost,
            log: true,
            gains: false,
            labels: true,
        };
        let mut chart = both!(dir, "sweep-cost", &title, (1000, 560), |root| {
            draw_curve(root, &curve, &panel)
        })?;
        chart.title = "Rating against nodes per move".into();
        charts.push(chart);
    }
    Ok(charts)
}

/// What the sweep measured, one paragraph per entry; `direct` says whether
/// neighbouring values played each other.
fn explanation(rows: &[SweepRow], panel: &[(String, f64)], direct: bool) -> Vec<String> {
    let Some(first) = rows.first() else {
        return Vec::new();
    };
    let step = first.scale.step_name();
    let mut lines = vec![format!(
        "Each variant is the base strategy with `{}` set to one value. Ratings come from one Bradley-Terry fit over \
         every game of the sweep (the standings'), averaging 0 over all players, with 95% intervals; gain is a \
         variant's rating over the previous one's, and gain per step divides it by the {step}s of {} between them{}.",
        first.parameter,
        first.parameter,
        if first.scale == Scale::Log { " (log scale: per doubling)" } else { "" }
    )];
    if direct {
        lines.push(
            "Neighbouring values played each other: their head-to-head Elo (pairs.csv, with its own interval) \
             measures the same step from their games alone."
                .into(),
        );
    }
    if !panel.is_empty() {
        let names: Vec<String> = panel
            .iter()
            .map(|(name, rating)| format!("{name} ({})", signed(*rating, 0)))
            .collect();
        lines.push(format!(
            "The variants played a fixed panel, not each other: {}.",
            names.join(", ")
        ));
    }
    let gains: Vec<(&SweepRow, f64)> = rows
        .iter()
        .filter_map(|r| Some((r, r.gain_per_step?)))
        .collect();
    if let (Some(best), Some(last)) = (
        gains.iter().max_by(|a, b| a.1.total_cmp(&b.1)),
        gains.last(),
    ) {
        let mut line = format!(
            "Largest gain per {step}: {} Elo, reaching {}",
            signed(best.1, 0),
            best.0.variant
        );
        if last.0.variant != best.0.variant {
            line.push_str(&format!(
                "; the last step, to {}, gains {} Elo per {step}",
                last.0.variant,
                signed(last.1, 0)
            ));
        }
        line.push('.');
        lines.push(line);
    }
    lines
}

/// The sweep study, as the report asks it.
pub struct Sweep;

impl RunStudy for Sweep {
    fn name(&self) -> &'static str {
        "sweep"
    }

    fn is_yours(&self, dir: &Path) -> bool {
        dir.join(super::SWEEP_FILE).is_file()
    }

    fn part(&self, dir: &Path, run: &RunTables<'_>) -> Result<Option<Part>> {
        let Some(rows) = super::read_rows(dir)? else {
            return Ok(None);
        };
        let charts = draw(
            &crate::lab::ResultsFolder::at(dir).path(crate::lab::FolderFile::Charts),
            &rows,
            run,
        )?;
        Ok(Some(Part {
            section: section(&rows, run, &charts),
            charts,
            place: Place::First {
                title: "Sweep report",
            },
        }))
    }
}

/// The sweep's section of the report: what was measured, the table and the charts.
#[must_use]
pub fn section(rows: &[SweepRow], run: &RunTables<'_>, charts: &[Chart]) -> Section {
    let heading = rows.first().map_or("Sweep".to_string(), |r| {
        format!("Sweep: strength against cost over {}", r.parameter)
    });
    let mut section = Section::new("sweep", heading);
    let ms = |name: &str| {
        run.costs
            .and_then(|costs| costs.iter().find(|c| c.player == name))
            .and_then(|c| c.ms_per_move)
            .map_or("-".to_string(), |ms| format!("{ms:.3}"))
    };
    // The direct games between neighbouring values, when they played each other:
    // a second look at each step's gain, with its own interval.
    let direct = |before: &str, after: &str| {
        run.pairs.iter().find_map(|p| {
            let flip = |x: Option<f64>| x.map(|x| -x);
            if p.player_a == after && p.player_b == before {
                Some(elo_interval(p.elo, p.elo_low, p.elo_high))
            } else if p.player_a == before && p.player_b == after {
                Some(elo_interval(flip(p.elo), flip(p.elo_high), flip(p.elo_low)))
            } else {
                None
            }
        })
    };
    let played_each_other = rows
        .windows(2)
        .any(|w| direct(&w[0].variant, &w[1].variant).is_some());
    for line in explanation(rows, &panel(rows, run), played_each_other) {
        section = section.with(Block::Text(line));
    }
    let step = rows.first().map_or("step", |r| r.scale.step_name());
    let per_step = format!("gain per {step}");
    let table_rows = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let or_dash = |x: Option<f64>, f: &dyn Fn(f64) -> String| x.map_or("-".into(), f);
            vec![
                r.variant.clone(),
                tick(r.value),
                r.games.to_string(),
                or_dash(r.score, &|s| format!("{:.1}%", 100.0 * s)),
                elo_interval(r.rating, r.rating_low, r.rating_high),
                or_dash(r.gain, &|g| signed(g, 0)),
                or_dash(r.gain_per_step, &|g| signed(g, 1)),
                i.checked_sub(1)
                    .and_then(|j| direct(&rows[j].variant, &r.variant))
                    .unwrap_or_else(|| "-".into()),
                or_dash(r.nodes_per_move, &|n| format!("{n:.1}")),
                or_dash(r.gain_per_node_doubling, &|g| signed(g, 1)),
                ms(&r.variant),
            ]
        })
        .collect();
    section = section.with(Block::Table(Table::new(
        &[
            "variant",
            "value",
            "games",
            "score",
            "rating [95%]",
            "gain",
            &per_step,
            "head-to-head over the previous [95%]",
            "nodes/move",
            "gain per doubling of nodes",
            "ms/move",
        ],
        table_rows,
    )));
    section = section.with(Block::Text(
        "Time per move is thinking time on a worker thread (costs.csv): it grows when threads share cores; nodes per move do not depend on the machine.".into(),
    ));
    if !charts.iter().any(|c| c.name == "sweep-cost") {
        let why = match cost_spread(rows) {
            None => "some variant searches no node (a one-ply strategy), which a log axis of nodes per move cannot show".to_string(),
            Some((low, high)) => format!(
                "nodes per move stay between {} and {} over the sweep, less than {:.0}% apart: the parameter barely changes the search's cost, so there is no cost to chart and no gain per doubling of nodes (left empty)",
                tick(low),
                tick(high),
                100.0 * (MIN_COST_DOUBLINGS.exp2() - 1.0)
            ),
        };
        section = section.with(Block::Text(format!("No chart against cost: {why}.")));
    }
    for chart in charts {
        section = section.with(Block::Chart(chart.clone()));
    }
    section
}
