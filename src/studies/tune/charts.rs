//! The tune's charts: each parameter over the iterations (one small panel per
//! parameter), and each iteration's result.

use super::config::{Method, Tune};
use super::trace::{tail_count, tail_mean, TraceRow};
use crate::chart::{both, tick, Chart, FONT};
use crate::error::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

type Drawn = std::result::Result<(), Box<dyn std::error::Error>>;

/// Panels per row of the parameters chart.
const COLUMNS: usize = 2;

/// Height of one parameter's panel, in pixels.
const PANEL: u32 = 200;

/// One panel per parameter, each on its own scale ([min, max]), with its start and
/// tuned value as dashed lines. One panel per parameter rather than every line on
/// one chart: seven noisy traces on one chart hid each other and the legend.
/// Traces are drawn one pixel wide: a wider polyline that reverses at every
/// iteration draws mitre spikes far past its points, out of the plot area.
fn params_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    tune: &Tune,
    rows: &[TraceRow],
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let last = rows.last().map_or(1, |r| r.iteration).max(1);
    let tuned = tail_mean(rows).unwrap_or_else(|| tune.start());
    let root = root.titled(
        &format!(
            "Parameters over iterations (blue); dashed: start (grey) and tuned, the mean of the last {} (red)",
            tail_count(rows.len())
        ),
        (FONT, 18),
    )?;
    let panels = root.split_evenly((tune.params.len().div_ceil(COLUMNS), COLUMNS));
    for (i, (p, area)) in tune.params.iter().zip(&panels).enumerate() {
        // A sliver of room beyond the bounds, so a trace resting on one stays visible.
        let pad = (p.max - p.min) * 0.03;
        let mut chart = ChartBuilder::on(area)
            .caption(
                format!(
                    "{}: {} to {} (bounds [{}, {}])",
                    p.name,
                    tick(p.start),
                    tick(tuned[i]),
                    tick(p.min),
                    tick(p.max)
                ),
                (FONT, 14),
            )
            .margin(8)
            .margin_right(22)
            .x_label_area_size(22)
            .y_label_area_size(46)
            .build_cartesian_2d(0u64..last, (p.min - pad)..(p.max + pad))?;
        chart
            .configure_mesh()
            .x_labels(6)
            .y_labels(5)
            .y_label_formatter(&|y| tick(*y))
            .label_style((FONT, 11))
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        for (value, colour) in [(p.start, BLACK.mix(0.45)), (tuned[i], RED.mix(0.9))] {
            chart.draw_series(DashedLineSeries::new(
                [(0, value), (last, value)],
                6,
                4,
                colour.stroke_width(1),
            ))?;
        }
        chart.draw_series(LineSeries::new(
            std::iter::once((0, p.start)).chain(rows.iter().map(|r| (r.iteration, r.theta[i]))),
            BLUE.stroke_width(1),
        ))?;
    }
    Ok(())
}

/// Each iteration's result as a dot, with the mean of the last 20 as a line.
fn results_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    tune: &Tune,
    rows: &[TraceRow],
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let last = rows.last().map_or(1, |r| r.iteration).max(1);
    let what = match (tune.method, tune.panel.is_empty()) {
        (Method::Spsa, true) => "theta+ over theta-: (wins - losses) per game",
        (Method::Spsa, false) => "theta+ over theta- against the panel: score difference",
        (Method::Cmaes, true) => "candidate's score against the starting player",
        (Method::Cmaes, false) => "candidate's score against the panel",
    };
    let low = rows.iter().map(|r| r.result).fold(-0.1f64, f64::min);
    let high = rows.iter().map(|r| r.result).fold(0.1f64, f64::max);
    let pad = (high - low) * 0.03;
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!("Result per iteration: {what} (line: mean of the last 20)"),
            (FONT, 18),
        )
        .margin(14)
        .x_label_area_size(46)
        .y_label_area_size(60)
        .build_cartesian_2d(0u64..last, (low - pad)..(high + pad))?;
    chart
        .configure_mesh()
        .x_desc("iteration")
        .y_desc("result")
        .y_label_formatter(&|y| tick(*y))
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 15))
        .draw()?;
    chart.draw_series(
        rows.iter()
            .map(|r| Circle::new((r.iteration, r.result), 2, BLUE.mix(0.4).filled())),
    )?;
    let mean: Vec<(u64, f64)> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let window = &rows[i.saturating_sub(19)..=i];
            (
                r.iteration,
                window.iter().map(|w| w.result).sum::<f64>() / window.len() as f64,
            )
        })
        .collect();
    chart.draw_series(LineSeries::new(mean, RED.stroke_width(1)))?;
    Ok(())
}

/// Draws `parameters` (one panel per parameter over the iterations) and `results`
/// (each iteration's result with a running mean) into `dir`.
pub fn draw(tune: &Tune, rows: &[TraceRow], dir: &Path) -> Result<Vec<Chart>> {
    let panel_rows = tune.params.len().div_ceil(COLUMNS) as u32;
    Ok(vec![
        both!(
            dir,
            "parameters",
            "Parameters over iterations",
            (1000, 40 + PANEL * panel_rows),
            |root| params_chart(root, tune, rows)
        )?,
        both!(
            dir,
            "results",
            "Result per iteration",
            (1000, 420),
            |root| results_chart(root, tune, rows)
        )?,
    ])
}
