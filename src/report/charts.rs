//! Charts drawn with plotters, each as PNG and SVG: win-rate matrix, ratings ladder,
//! margin distributions, colour advantage, and a head-to-head run's history.

use super::data::Results;
use crate::chart::{
    both, draw_intervals, register_fonts, row_label, rows_axis, tick, Chart, DrawResult, FONT,
};
use crate::error::{Error, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Score to colour: red below 50%, white at 50%, blue above.
fn score_colour(score: f64) -> RGBColor {
    let mix =
        |a: u8, b: u8, t: f64| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
    let t = ((score - 0.5) * 2.0).clamp(-1.0, 1.0);
    if t < 0.0 {
        RGBColor(mix(255, 215, -t), mix(255, 48, -t), mix(255, 39, -t))
    } else {
        RGBColor(mix(255, 49, t), mix(255, 104, t), mix(255, 175, t))
    }
}

/// The row player's score against each column player.
fn score_matrix(results: &Results) -> Vec<Vec<Option<f64>>> {
    let n = results.players.len();
    let index = |name: &str| results.players.iter().position(|p| p == name);
    let mut m = vec![vec![None; n]; n];
    for pair in &results.pairs {
        if let (Some(a), Some(b), Some(s)) =
            (index(&pair.player_a), index(&pair.player_b), pair.score)
        {
            m[a][b] = Some(s);
            m[b][a] = Some(1.0 - s);
        }
    }
    m
}

macro_rules! draw_fn {
    ($name:ident, $body:expr) => {
        fn $name<DB: DrawingBackend>(
            root: &DrawingArea<DB, Shift>,
            results: &Results,
        ) -> DrawResult<DB> {
            #[allow(clippy::redundant_closure_call)]
            ($body)(root, results)
        }
    };
}

/// The score matrix's layout: (label column width, cell, top of the grid, width of the colour bar's column).
fn matrix_layout(results: &Results) -> (i32, i32, i32, i32) {
    let longest = results
        .players
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(4) as i32;
    (14 + 8 * longest, 86, 124, 110)
}

/// The matrix's sample size: `40 games per cell (20 colour-swapped game pairs)`,
/// or a range when pairs differ (a partial run).
fn cell_games(results: &Results) -> String {
    let games = results.pairs.iter().map(|p| p.games);
    let (least, most) = (games.clone().min().unwrap_or(0), games.max().unwrap_or(0));
    if least == most {
        let pairs = if least % 2 == 0 {
            format!(" ({} colour-swapped game pairs)", least / 2)
        } else {
            String::new()
        };
        format!("{least} games per cell{pairs}")
    } else {
        format!("{least} to {most} games per cell")
    }
}

draw_fn!(draw_winrate, |root: &DrawingArea<DB, Shift>,
                        results: &Results| {
    let m = score_matrix(results);
    let names = &results.players;
    let (label_width, cell, top, _) = matrix_layout(results);
    root.draw(&Text::new(
        "Score of row player against column player (draws count \u{bd})",
        (10, 10),
        (FONT, 22).into_font().style(FontStyle::Bold),
    ))?;
    root.draw(&Text::new(
        format!("{}; score = (wins + draws/2) / games", cell_games(results)),
        (10, 42),
        (FONT, 15),
    ))?;
    root.draw(&Text::new(
        "blue above 50%, red below (colour bar at right); grey: not played",
        (10, 62),
        (FONT, 15),
    ))?;
    let centre = Pos::new(HPos::Center, VPos::Center);
    for (j, name) in names.iter().enumerate() {
        let x = label_width + j as i32 * cell + cell / 2;
        // Column headers alternate in height so long names do not collide.
        let y = top - 12 - if j % 2 == 1 { 16 } else { 0 };
        root.draw(&Text::new(
            name.clone(),
            (x, y),
            (FONT, 13).into_font().color(&BLACK).pos(centre),
        ))?;
    }
    for (i, name) in names.iter().enumerate() {
        let y = top + i as i32 * cell;
        root.draw(&Text::new(
            name.clone(),
            (label_width - 8, y + cell / 2),
            (FONT, 14)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Right, VPos::Center)),
        ))?;
        for (j, &value) in m[i].iter().enumerate() {
            let x = label_width + j as i32 * cell;
            let (fill, text) = match value {
                Some(s) => (score_colour(s), format!("{:.1}%", 100.0 * s)),
                None => (RGBColor(225, 225, 225), String::new()),
            };
            root.draw(&Rectangle::new(
                [(x, y), (x + cell - 2, y + cell - 2)],
                fill.filled(),
            ))?;
            if !text.is_empty() {
                root.draw(&Text::new(
                    text,
                    (x + cell / 2, y + cell / 2),
                    (FONT, 15).into_font().color(&BLACK).pos(centre),
                ))?;
            }
        }
    }
    // The colour bar: 100% at the top, 0% at the bottom, in 100 bands.
    let bar_x = label_width + names.len() as i32 * cell + 24;
    let bar_height = (names.len() as i32 * cell - 2).max(150);
    let band = |k: i32| top + bar_height * k / 100;
    for k in 0..100 {
        let score = 1.0 - (f64::from(k) + 0.5) / 100.0;
        root.draw(&Rectangle::new(
            [(bar_x, band(k)), (bar_x + 18, band(k + 1))],
            score_colour(score).filled(),
        ))?;
    }
    root.draw(&Rectangle::new(
        [(bar_x, top), (bar_x + 18, top + bar_height)],
        BLACK.mix(0.4),
    ))?;
    for k in 0..=4 {
        let y = band(25 * k);
        root.draw(&PathElement::new(
            vec![(bar_x + 18, y), (bar_x + 23, y)],
            BLACK.mix(0.6),
        ))?;
        root.draw(&Text::new(
            format!("{}%", 100 - 25 * k),
            (bar_x + 26, y),
            (FONT, 13)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    root.draw(&Text::new(
        "score",
        (bar_x, top - 12),
        (FONT, 13)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center)),
    ))?;
    Ok(())
});

fn draw_ratings<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    results: &Results,
) -> DrawResult<DB> {
    // Best at the top: the chart draws its first row at the bottom.
    let rows: Vec<(String, f64, f64, f64)> = results
        .standings
        .iter()
        .rev()
        .filter_map(|r| Some((r.player.clone(), r.rating_low?, r.rating?, r.rating_high?)))
        .collect();
    draw_intervals(
        root,
        "Ratings with 95% intervals (Bradley-Terry MAP, weak prior, mean 0)",
        "rating (Elo)",
        &rows,
    )
}

draw_fn!(draw_margins, |root: &DrawingArea<DB, Shift>,
                        results: &Results| {
    let labels: Vec<String> = results
        .pairs
        .iter()
        .map(|p| format!("{} vs {}", p.player_a, p.player_b))
        .collect();
    let extent = results
        .margins
        .iter()
        .flatten()
        .fold(1.0f32, |m, &v| m.max(v.abs()));
    let label = 20 + 7 * labels.iter().map(|s| s.chars().count()).max().unwrap_or(4) as u32;
    let mut chart = ChartBuilder::on(root)
        .caption(
            "Disc margin of A (the pair's first-named player), per pair (box: quartiles, whiskers: 1.5 IQR)",
            (FONT, 20),
        )
        .margin(14)
        .x_label_area_size(46)
        .y_label_area_size(label)
        .build_cartesian_2d(-extent * 1.05..extent * 1.05, rows_axis(labels.len()))?;
    chart
        .configure_mesh()
        .x_desc("A's disc margin (positive: A won)")
        .x_label_formatter(&|x| tick(f64::from(*x)))
        .y_labels(labels.len())
        .y_label_formatter(&|v| row_label(&labels, v))
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 15))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    chart.draw_series(
        results
            .margins
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.is_empty())
            .map(|(i, m)| {
                let quartiles = Quartiles::new(m);
                Boxplot::new_horizontal(SegmentValue::CenterOf(i as i32), &quartiles)
                    .width(14)
                    .style(RGBColor(49, 104, 175))
            }),
    )?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(0.0f32, SegmentValue::Exact(0)), (0.0, SegmentValue::Last)],
        BLACK.mix(0.4),
    )))?;
    Ok(())
});

draw_fn!(draw_colours, |root: &DrawingArea<DB, Shift>,
                        results: &Results| {
    let labels: Vec<String> = results
        .pairs
        .iter()
        .map(|p| format!("{} vs {}", p.player_a, p.player_b))
        .collect();
    let label = 20 + 7 * labels.iter().map(|s| s.chars().count()).max().unwrap_or(4) as u32;
    let mut chart = ChartBuilder::on(root)
        .caption(
            "Colour advantage: A's score as black (filled) and as white (open)",
            (FONT, 20),
        )
        .margin(14)
        .x_label_area_size(46)
        .y_label_area_size(label)
        // A little room past 0% and 100%, so markers there are drawn whole.
        .build_cartesian_2d(-2.0f64..102.0, rows_axis(labels.len()))?;
    chart
        .configure_mesh()
        .x_desc("A's score (%)")
        .x_label_formatter(&|x| tick(*x))
        .y_labels(labels.len())
        .y_label_formatter(&|v| row_label(&labels, v))
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 15))
        .draw()?;
    chart.draw_series(results.pairs.iter().enumerate().filter_map(|(i, p)| {
        let (b, w) = (p.black_score? * 100.0, p.white_score? * 100.0);
        Some(PathElement::new(
            vec![
                (b, SegmentValue::CenterOf(i as i32)),
                (w, SegmentValue::CenterOf(i as i32)),
            ],
            BLACK.mix(0.5).stroke_width(2),
        ))
    }))?;
    // No legend: the caption says which marker is which, and a legend box would
    // sit on the points near 100%.
    chart.draw_series(results.pairs.iter().enumerate().filter_map(|(i, p)| {
        Some(Circle::new(
            (p.black_score? * 100.0, SegmentValue::CenterOf(i as i32)),
            6,
            BLACK.filled(),
        ))
    }))?;
    chart.draw_series(results.pairs.iter().enumerate().filter_map(|(i, p)| {
        Some(Circle::new(
            (p.white_score? * 100.0, SegmentValue::CenterOf(i as i32)),
            6,
            BLACK.stroke_width(2),
        ))
    }))?;
    Ok(())
});

draw_fn!(draw_progress, |root: &DrawingArea<DB, Shift>,
                         results: &Results| {
    let h = &results.history.score;
    // Whole games on the x axis: an integer range, so no tick falls between two games.
    let games = h.last().map_or(1, |p| p.0).max(1);
    let name = results
        .pairs
        .first()
        .map(|p| format!("{} vs {}", p.player_a, p.player_b))
        .unwrap_or_default();
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!("{name}: A's score as game pairs accumulate (pentanomial 95% interval)"),
            (FONT, 20),
        )
        .margin(14)
        .x_label_area_size(46)
        .y_label_area_size(60)
        .build_cartesian_2d(0u64..games, 0.0f64..100.0)?;
    chart
        .configure_mesh()
        .x_desc("games")
        .y_desc("score (%)")
        .y_label_formatter(&|y| tick(*y))
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 15))
        .draw()?;
    chart.draw_series(std::iter::once(Polygon::new(
        h.iter()
            .map(|p| (p.0, 100.0 * p.3.clamp(0.0, 1.0)))
            .chain(h.iter().rev().map(|p| (p.0, 100.0 * p.2.clamp(0.0, 1.0))))
            .collect::<Vec<_>>(),
        BLUE.mix(0.15).filled(),
    )))?;
    chart.draw_series(LineSeries::new(
        h.iter().map(|p| (p.0, 100.0 * p.1)),
        BLUE.stroke_width(2),
    ))?;
    // Even strength: the line the interval must leave for a verdict.
    chart.draw_series(DashedLineSeries::new(
        [(0, 50.0), (games, 50.0)],
        6,
        4,
        BLACK.mix(0.6).stroke_width(1),
    ))?;
    Ok(())
});

draw_fn!(draw_sprt, |root: &DrawingArea<DB, Shift>,
                     results: &Results| {
    let h = &results.history.llr;
    let (lower, upper) = results.history.bounds.unwrap_or((-3.0, 3.0));
    let corrected = !results.history.in_force.is_empty();
    let pairs = h.last().map_or(1, |p| p.0).max(1);
    let low = h.iter().map(|p| p.1).fold(lower, f64::min) - 0.5;
    let high = h.iter().map(|p| p.1).fold(upper, f64::max) + 0.5;
    // Where the LLR crossed a bound, from pairs.csv: (pairs, LLR, verdict).
    let crossed = results.pairs.first().and_then(|p| {
        let at: u64 = p.sprt_pairs.as_deref()?.parse().ok()?;
        Some((at, p.sprt_llr?, p.sprt_result.clone()?))
    });
    let mut chart =
        ChartBuilder::on(root)
            .caption(
                format!(
                "SPRT: exact pentanomial log-likelihood ratio, bounds {lower:.2} and {upper:.2}{}",
                if corrected { " (thick: corrected for overshoot)" } else { "" }
            ),
                (FONT, 20),
            )
            .margin(14)
            .x_label_area_size(46)
            .y_label_area_size(60)
            .build_cartesian_2d(0u64..pairs, low..high)?;
    chart
        .configure_mesh()
        .x_desc("colour-swapped game pairs")
        .y_desc("LLR")
        .y_label_formatter(&|y| tick(*y))
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 15))
        .draw()?;
    chart.draw_series(LineSeries::new(
        h.iter().map(|p| (p.0, p.1)),
        BLUE.stroke_width(2),
    ))?;
    for (bound, colour, name) in [(upper, GREEN, "H1"), (lower, RED, "H0")] {
        // Corrected bounds move inwards with the LLR's jumps: the nominal ones thin.
        chart.draw_series(LineSeries::new(
            vec![(0, bound), (pairs, bound)],
            colour.stroke_width(if corrected { 1 } else { 2 }),
        ))?;
        chart.draw_series(std::iter::once(
            EmptyElement::at((0, bound))
                + Text::new(
                    format!("accept {name}: {bound:.2}"),
                    (6, -3),
                    (FONT, 13)
                        .into_font()
                        .color(&colour)
                        .pos(Pos::new(HPos::Left, VPos::Bottom)),
                ),
        ))?;
    }
    if corrected {
        let path = &results.history.in_force;
        chart.draw_series(LineSeries::new(
            path.iter().map(|p| (p.0, p.2)),
            GREEN.stroke_width(2),
        ))?;
        chart.draw_series(LineSeries::new(
            path.iter().map(|p| (p.0, p.1)),
            RED.stroke_width(2),
        ))?;
    }
    if let Some((at, llr, verdict)) = crossed {
        chart.draw_series(std::iter::once(Circle::new((at, llr), 6, BLACK.filled())))?;
        let label = format!("{verdict} after {at} game pairs (LLR {llr:.2})");
        // The label sits left of the point, inside the chart.
        chart.draw_series(std::iter::once(Text::new(
            label,
            (at, llr),
            (FONT, 14)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Right, VPos::Bottom)),
        )))?;
    }
    Ok(())
});

/// Draws every chart that fits the results into `results.dir/charts`.
pub fn draw_all(results: &Results) -> Result<Vec<Chart>> {
    let dir = crate::lab::ResultsFolder::at(&results.dir).path(crate::lab::FolderFile::Charts);
    draw_all_in(results, &dir)
}

/// Draws every chart that fits the results into `dir`.
pub fn draw_all_in(results: &Results, dir: &std::path::Path) -> Result<Vec<Chart>> {
    register_fonts();
    let dir = dir.to_path_buf();
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    macro_rules! chart {
        ($name:expr, $title:expr, $size:expr, $draw:ident) => {
            both!(&dir, $name, $title, $size, |root| $draw(root, results))
        };
    }
    let mut charts = Vec::new();
    let n = results.players.len() as u32;
    let rows = results.pairs.len() as u32;
    if !results.is_head_to_head() {
        let (label, cell, top, bar) = matrix_layout(results);
        let grid = cell as u32 * n;
        let size = (
            (label as u32 + grid + bar as u32).max(720),
            top as u32 + grid.max(150) + 20,
        );
        charts.push(chart!("winrate", "Score matrix", size, draw_winrate)?);
    }
    let ladder = (1000, 110 + 34 * n.max(2));
    charts.push(chart!("ratings", "Ratings ladder", ladder, draw_ratings)?);
    let tall = (1100, 120 + 30 * rows.max(2));
    charts.push(chart!(
        "margins",
        "Disc-margin distributions",
        tall,
        draw_margins
    )?);
    charts.push(chart!("colours", "Colour advantage", tall, draw_colours)?);
    if results.is_head_to_head() && !results.history.score.is_empty() {
        charts.push(chart!(
            "progress",
            "Score as games accumulate",
            (1000, 500),
            draw_progress
        )?);
        if results.history.bounds.is_some() && !results.history.llr.is_empty() {
            charts.push(chart!(
                "sprt",
                "SPRT log-likelihood ratio",
                (1000, 500),
                draw_sprt
            )?);
        }
    }
    Ok(charts)
}
