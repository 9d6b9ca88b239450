//! Charts any layer may draw, each as PNG and SVG: the bundled font, the writer
//! that draws one picture on both backends, the rows axis, tick labels and the interval chart.

use crate::error::{Error, Result};
use crate::lab::folder::write_atomically;
pub use crate::numbers::tick;
use plotters::coord::ranged1d::{
    DefaultFormatting, DiscreteRanged, KeyPointHint, Ranged, SegmentedCoord,
};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::{Path, PathBuf};
use std::sync::Once;

/// The font every chart uses (registered by [`register_fonts`]), bundled so text renders on machines without fonts.
pub const FONT: &str = "sans-serif";

/// Registers the bundled font; every drawing function calls it first.
pub fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // DejaVu Sans, from the `dejavu` crate (a free font licence): plotters'
        // ab_glyph backend draws only fonts registered here.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// A chart written to disk.
#[derive(Clone, Debug)]
pub struct Chart {
    /// File stem, such as `winrate`.
    pub name: String,
    /// What it shows, for the report.
    pub title: String,
    /// The PNG.
    pub png: PathBuf,
    /// The SVG.
    pub svg: PathBuf,
}

/// The whole picture on backend `DB`.
pub type Area<DB> = DrawingArea<DB, Shift>;

/// What a drawing handed to [`write_both`] returns: any error as text.
pub type Drawn = std::result::Result<(), String>;

/// What a drawing function returns on backend `DB`.
pub type DrawResult<DB> =
    std::result::Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Draws into `dir/name.png` and `dir/name.svg`: `draw` and `draw_svg` are the same
/// drawing for each backend type; the [`both!`] macro writes it once.
pub fn write_both(
    dir: &Path,
    name: &str,
    title: &str,
    size: (u32, u32),
    draw: &dyn Fn(&Area<BitMapBackend<'_>>) -> Drawn,
    draw_svg: &dyn Fn(&Area<SVGBackend<'_>>) -> Drawn,
) -> Result<Chart> {
    let png = dir.join(format!("{name}.png"));
    let svg = dir.join(format!("{name}.svg"));
    register_fonts();
    std::fs::create_dir_all(dir).map_err(|e| Error::io_during("create", dir, e))?;
    let fail = |path: &Path, message: String| Error::Draw {
        path: path.to_path_buf(),
        message,
    };
    // Both are drawn in memory and written whole (see `write_atomically`), so a full
    // disk leaves no partial chart and its error names the file, not the library.
    let mut pixels = vec![0u8; size.0 as usize * size.1 as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&png, e.to_string()))?;
        draw(&root).map_err(|e| fail(&png, e))?;
        root.present().map_err(|e| fail(&png, e.to_string()))?;
    }
    write_atomically(&png, &encode_png(&pixels, size).map_err(|e| fail(&png, e))?)?;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&svg, e.to_string()))?;
        draw_svg(&root).map_err(|e| fail(&svg, e))?;
        root.present().map_err(|e| fail(&svg, e.to_string()))?;
    }
    write_atomically(&svg, text.as_bytes())?;
    Ok(Chart {
        name: name.to_string(),
        title: title.to_string(),
        png,
        svg,
    })
}

/// An RGB picture of `size` as PNG bytes.
pub fn encode_png(pixels: &[u8], size: (u32, u32)) -> std::result::Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, size.0, size.1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(pixels))
        .map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// Draws one picture into `dir/name.png` and `dir/name.svg`:
/// `both!(dir, name, title, (w, h), |root| draw(root, ...))`, where `draw` is
/// generic over the backend and returns any error that displays.
macro_rules! both {
    ($dir:expr, $name:expr, $title:expr, $size:expr, |$root:ident| $draw:expr) => {
        $crate::chart::write_both(
            $dir,
            $name,
            $title,
            $size,
            &|$root: &plotters::drawing::DrawingArea<
                plotters::backend::BitMapBackend<'_>,
                plotters::coord::Shift,
            >| ($draw).map_err(|e| e.to_string()),
            &|$root: &plotters::drawing::DrawingArea<
                plotters::backend::SVGBackend<'_>,
                plotters::coord::Shift,
            >| ($draw).map_err(|e| e.to_string()),
        )
    };
}
pub(crate) use both;

/// Row numbers `0..n` as a discrete axis, for charts with one row per label.
/// Plotters' integer range `0..n` holds n + 1 values, which left an empty row at
/// the top, and `0..n - 1` maps nothing sensibly when n is 1; this holds exactly n.
#[derive(Clone, Debug)]
pub struct Rows(usize);

impl Ranged for Rows {
    type FormatOption = DefaultFormatting;
    type ValueType = i32;

    fn map(&self, value: &i32, limit: (i32, i32)) -> i32 {
        if self.0 <= 1 {
            return limit.0;
        }
        let share = f64::from(*value) / (self.0 - 1) as f64;
        limit.0 + (f64::from(limit.1 - limit.0) * share).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<i32> {
        // Every row has its label.
        (0..self.0 as i32).collect()
    }

    fn range(&self) -> std::ops::Range<i32> {
        0..self.0.max(1) as i32 - 1
    }
}

impl DiscreteRanged for Rows {
    fn size(&self) -> usize {
        self.0.max(1)
    }

    fn index_of(&self, value: &i32) -> Option<usize> {
        usize::try_from(*value).ok().filter(|&i| i < self.size())
    }

    fn from_index(&self, index: usize) -> Option<i32> {
        (index < self.size()).then_some(index as i32)
    }
}

/// The y axis of a chart with `n` rows, the first at the bottom; each row is a
/// segment, its label at [`SegmentValue::CenterOf`] the row number.
#[must_use]
pub fn rows_axis(n: usize) -> SegmentedCoord<Rows> {
    Rows(n).into_segmented()
}

/// The label of row `v` of a [`rows_axis`], from `labels` (first at the bottom).
#[must_use]
pub fn row_label(labels: &[String], v: &SegmentValue<i32>) -> String {
    match v {
        SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
            labels.get(*i as usize).cloned().unwrap_or_default()
        }
        SegmentValue::Last => String::new(),
    }
}

/// Draws labelled values with 95% intervals, `(label, low, value, high)` per row,
/// first row at the bottom. An infinite end (a score of 0% or 100% has an infinite
/// Elo) is drawn to the edge of the plot with an arrowhead and `+inf` / `-inf`
/// beside it, so it does not read as a bounded interval that happens to end there;
/// a NaN value draws no marker.
pub fn draw_intervals<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    x_desc: &str,
    rows: &[(String, f64, f64, f64)],
) -> DrawResult<DB> {
    let all = || rows.iter().flat_map(|r| [r.1, r.2, r.3]);
    let min = all().filter(|v| v.is_finite()).fold(0.0f64, f64::min);
    let max = all().filter(|v| v.is_finite()).fold(0.0f64, f64::max);
    let pad = ((max - min) * 0.08).max(10.0);
    // Room at an edge where an interval runs off to infinity, for its arrow and label.
    let room = |side: f64| {
        if all().any(|v| v == side) {
            (max - min).max(40.0) * 0.1
        } else {
            0.0
        }
    };
    let left = min - pad - room(f64::NEG_INFINITY);
    let right = max + pad + room(f64::INFINITY);
    let labels: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let label = 20 + 8 * labels.iter().map(|r| r.chars().count()).max().unwrap_or(4) as u32;
    let mut chart = ChartBuilder::on(root)
        .caption(title, (FONT, 20))
        .margin(14)
        .x_label_area_size(46)
        .y_label_area_size(label)
        .build_cartesian_2d(left..right, rows_axis(rows.len()))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .x_label_formatter(&|x| tick(*x))
        .y_labels(rows.len())
        .y_label_formatter(&|v| row_label(&labels, v))
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    let clamp = |v: f64| v.clamp(left, right);
    let row = |i: usize| SegmentValue::CenterOf(i as i32);
    let drawn = || {
        rows.iter()
            .enumerate()
            .filter(|(_, r)| !r.2.is_nan() && !r.1.is_nan() && !r.3.is_nan())
    };
    // The interval as a line with a cap at each finite end (plotters' ErrorBar would
    // cap an infinite end too, and draw a dot at an infinite value).
    chart
        .draw_series(drawn().map(|(i, r)| {
            PathElement::new(vec![(clamp(r.1), row(i)), (clamp(r.3), row(i))], BLUE)
        }))?;
    let caps = drawn().flat_map(|(i, r)| [(i, r.1), (i, r.3)]);
    chart.draw_series(caps.filter(|(_, v)| v.is_finite()).map(|(i, v)| {
        EmptyElement::at((v, row(i))) + PathElement::new(vec![(0, -6), (0, 6)], BLUE)
    }))?;
    chart.draw_series(
        drawn()
            .filter(|(_, r)| r.2.is_finite())
            .map(|(i, r)| Circle::new((r.2, row(i)), 5, BLUE.filled())),
    )?;
    // Arrowheads at the edges for infinite ends (and infinite values).
    let ends = drawn().flat_map(|(i, r)| {
        let mut ends = Vec::new();
        if r.1 == f64::NEG_INFINITY || r.2 == f64::NEG_INFINITY {
            ends.push((i, false));
        }
        if r.3 == f64::INFINITY || r.2 == f64::INFINITY {
            ends.push((i, true));
        }
        ends
    });
    chart.draw_series(ends.map(|(i, up)| {
        let (x, back, text, anchor) = if up {
            (right, -12, "+inf", HPos::Right)
        } else {
            (left, 12, "-inf", HPos::Left)
        };
        EmptyElement::at((x, row(i)))
            + Polygon::new(vec![(0, 0), (back, -7), (back, 7)], BLUE.filled())
            + Text::new(
                text,
                (0, -8),
                (FONT, 13)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(anchor, VPos::Bottom)),
            )
    }))?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(0.0, SegmentValue::Exact(0)), (0.0, SegmentValue::Last)],
        BLACK.mix(0.4),
    )))?;
    Ok(())
}

/// A chart of labelled values with 95% intervals, `(label, low, value, high)` per
/// row (first row at the bottom), written as `dir/name.png` and `dir/name.svg`.
pub fn interval_chart(
    dir: &Path,
    name: &str,
    title: &str,
    x_desc: &str,
    rows: &[(String, f64, f64, f64)],
) -> Result<Chart> {
    let size = (1000, 110 + 34 * rows.len().max(2) as u32);
    both!(dir, name, title, size, |root| draw_intervals(
        root, title, x_desc, rows
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infinite_ends_are_marked() {
        let dir = tempfile::tempdir().unwrap();
        let rows = [
            (
                "lost all".to_string(),
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
                -687.0,
            ),
            ("even".to_string(), -163.0, 0.0, 163.0),
            ("won all".to_string(), 166.0, f64::INFINITY, f64::INFINITY),
        ];
        let chart = interval_chart(dir.path(), "x", "title", "Elo", &rows).unwrap();
        let svg = std::fs::read_to_string(chart.svg).unwrap();
        assert!(svg.contains("+inf") && svg.contains("-inf"), "{svg}");
        // An arrowhead at each unbounded end, one dot for the one finite value.
        assert_eq!(svg.matches("<polygon").count(), 2, "{svg}");
        assert_eq!(svg.matches("<circle").count(), 1, "{svg}");
    }

    #[test]
    fn rows_map_without_an_empty_row() {
        let rows = Rows(3);
        assert_eq!(rows.size(), 3);
        assert_eq!(rows.map(&0, (0, 200)), 0);
        assert_eq!(rows.map(&2, (0, 200)), 200);
        assert_eq!(Rows(1).map(&0, (10, 300)), 10);
        assert_eq!(Rows(1).key_points(5usize), vec![0]);
    }
}
