//! The tune's charts: the parameters over the iterations, and each iteration's result.

use super::config::{Method, Tune};
use super::trace::TraceRow;
use crate::chart::{both, FONT};
use crate::error::Result;
use plotters::prelude::*;
use std::path::Path;

/// Draws `parameters` (each parameter over the iterations, as a share of its
/// range) and `results` (each iteration's result with a running mean).
pub fn draw(tune: &Tune, rows: &[TraceRow], dir: &Path) -> Result<()> {
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
    both!(
        dir,
        "parameters",
        "Parameters over iterations",
        (1000, 520),
        |root| params_chart(root, tune, rows, last, &palette)
    )?;
    both!(
        dir,
        "results",
        "Result per iteration",
        (1000, 420),
        |root| results_chart(root, tune, rows, last)
    )?;
    Ok(())
}
