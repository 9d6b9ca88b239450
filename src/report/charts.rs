//! Charts drawn with plotters, each as PNG and SVG: win-rate matrix, ratings ladder,
//! margin distributions, colour advantage, and a head-to-head run's history.

use super::data::Results;
use crate::chart::{both, draw_intervals, register_fonts, Chart, DrawResult, FONT};
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

draw_fn!(draw_winrate, |root: &DrawingArea<DB, Shift>,
                        results: &Results| {
    let m = score_matrix(results);
    let names = &results.players;
    let label_width = 14 + 8 * names.iter().map(|s| s.chars().count()).max().unwrap_or(4) as i32;
    let cell = 86i32;
    let top = 90i32;
    root.draw(&Text::new(
        "Win rate: row player's score against column player",
        (10, 12),
        (FONT, 22).into_font().style(FontStyle::Bold),
    ))?;
    root.draw(&Text::new(
        "score = (wins + draws/2) / games; blue above 50%, red below",
        (10, 40),
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
    let n = labels.len() as i32;
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
        .build_cartesian_2d(-extent * 1.05..extent * 1.05, (0..n).into_segmented())?;
    chart
        .configure_mesh()
        .x_desc("A's disc margin (positive: A won)")
        .y_labels(labels.len())
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
                labels.get(*i as usize).cloned().unwrap_or_default()
            }
            SegmentValue::Last => String::new(),
        })
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
    let n = labels.len() as i32;
    let label = 20 + 7 * labels.iter().map(|s| s.chars().count()).max().unwrap_or(4) as u32;
    let mut chart = ChartBuilder::on(root)
        .caption(
            "Colour advantage: A's score as black (filled) and as white (open)",
            (FONT, 20),
        )
        .margin(14)
        .x_label_area_size(46)
        .y_label_area_size(label)
        .build_cartesian_2d(0.0f64..100.0, (0..n).into_segmented())?;
    chart
        .configure_mesh()
        .x_desc("A's score (%)")
        .y_labels(labels.len())
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
                labels.get(*i as usize).cloned().unwrap_or_default()
            }
            SegmentValue::Last => String::new(),
        })
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
    chart
        .draw_series(results.pairs.iter().enumerate().filter_map(|(i, p)| {
            Some(Circle::new(
                (p.black_score? * 100.0, SegmentValue::CenterOf(i as i32)),
                6,
                BLACK.filled(),
            ))
        }))?
        .label("as black")
        .legend(|(x, y)| Circle::new((x, y), 5, BLACK.filled()));
    chart
        .draw_series(results.pairs.iter().enumerate().filter_map(|(i, p)| {
            Some(Circle::new(
                (p.white_score? * 100.0, SegmentValue::CenterOf(i as i32)),
                6,
                BLACK.stroke_width(2),
            ))
        }))?
        .label("as white")
        .legend(|(x, y)| Circle::new((x, y), 5, BLACK.stroke_width(2)));
    chart
        .configure_series_labels()
        .label_font((FONT, 14))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .draw()?;
    Ok(())
});

draw_fn!(draw_progress, |root: &DrawingArea<DB, Shift>,
                         results: &Results| {
    let h = &results.history.score;
    let games = h.last().map_or(1, |p| p.0).max(1) as f64;
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
        .build_cartesian_2d(0.0..games, 0.0f64..100.0)?;
    chart
        .configure_mesh()
        .x_desc("games")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc("score (%)")
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 15))
        .draw()?;
    // Even strength: the line the interval must leave for a verdict.
    chart.draw_series(DashedLineSeries::new(
        [(0.0, 50.0), (games, 50.0)],
        6,
        4,
        BLACK.mix(0.6).stroke_width(1),
    ))?;
    chart.draw_series(std::iter::once(Polygon::new(
        h.iter()
            .map(|p| (p.0 as f64, 100.0 * p.3.clamp(0.0, 1.0)))
            .chain(
                h.iter()
                    .rev()
                    .map(|p| (p.0 as f64, 100.0 * p.2.clamp(0.0, 1.0))),
            )
            .collect::<Vec<_>>(),
        BLUE.mix(0.15).filled(),
    )))?;
    chart.draw_series(LineSeries::new(
        h.iter().map(|p| (p.0 as f64, 100.0 * p.1)),
        BLUE.stroke_width(2),
    ))?;
    chart.draw_series(LineSeries::new(
        vec![(0.0, 50.0), (games, 50.0)],
        BLACK.mix(0.4),
    ))?;
    Ok(())
});

draw_fn!(draw_sprt, |root: &DrawingArea<DB, Shift>,
                     results: &Results| {
    let h = &results.history.llr;
    let (lower, upper) = results.history.bounds.unwrap_or((-3.0, 3.0));
    let pairs = h.last().map_or(1, |p| p.0).max(1) as f64;
    let low = h.iter().map(|p| p.1).fold(lower, f64::min) - 0.5;
    let high = h.iter().map(|p| p.1).fold(upper, f64::max) + 0.5;
    // Where the LLR crossed a bound, from pairs.csv: (pairs, LLR, verdict).
    let crossed = results.pairs.first().and_then(|p| {
        let at: u64 = p.sprt_pairs.as_deref()?.parse().ok()?;
        Some((at as f64, p.sprt_llr?, p.sprt_result.clone()?))
    });
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!(
                "SPRT: exact pentanomial log-likelihood ratio, bounds {lower:.2} and {upper:.2}"
            ),
            (FONT, 20),
        )
        .margin(14)
        .x_label_area_size(46)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..pairs, low..high)?;
    chart
        .configure_mesh()
        .x_desc("colour-swapped game pairs")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc("LLR")
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 15))
        .draw()?;
    chart.draw_series(LineSeries::new(
        h.iter().map(|p| (p.0 as f64, p.1)),
        BLUE.stroke_width(2),
    ))?;
    for (bound, colour, name) in [(upper, GREEN, "H1"), (lower, RED, "H0")] {
        chart.draw_series(LineSeries::new(
            vec![(0.0, bound), (pairs, bound)],
            colour.stroke_width(2),
        ))?;
        chart.draw_series(std::iter::once(Text::new(
            format!("accept {name}: {bound:.2}"),
            (pairs * 0.01, bound + (high - low) * 0.01),
            (FONT, 13)
                .into_font()
                .color(&colour)
                .pos(Pos::new(HPos::Left, VPos::Bottom)),
        )))?;
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
    register_fonts();
    let dir = results.dir.join("charts");
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    macro_rules! chart {
        ($name:expr, $title:expr, $size:expr, $draw:ident) => {
            both!(&dir, $name, $title, $size, |root| $draw(root, results))
        };
    }
    let mut charts = Vec::new();
    let n = results.players.len() as u32;
    let longest = results
        .players
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(4) as u32;
    let rows = results.pairs.len() as u32;
    if !results.is_head_to_head() {
        let size = (14 + 8 * longest + 86 * n + 40, 90 + 86 * n + 20);
        charts.push(chart!("winrate", "Win-rate matrix", size, draw_winrate)?);
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
