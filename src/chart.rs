//! Charts any layer may draw, each as PNG and SVG: the bundled font, the writer
//! that draws one picture on both backends, and the interval chart.

use crate::error::{Error, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
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
    {
        let root = BitMapBackend::new(&png, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&png, e.to_string()))?;
        draw(&root).map_err(|e| fail(&png, e))?;
        root.present().map_err(|e| fail(&png, e.to_string()))?;
    }
    {
        let root = SVGBackend::new(&svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&svg, e.to_string()))?;
        draw_svg(&root).map_err(|e| fail(&svg, e))?;
        root.present().map_err(|e| fail(&svg, e.to_string()))?;
    }
    Ok(Chart {
        name: name.to_string(),
        title: title.to_string(),
        png,
        svg,
    })
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

/// Draws labelled values with 95% intervals, `(label, low, value, high)` per row, first row at the bottom.
pub fn draw_intervals<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    x_desc: &str,
    rows: &[(String, f64, f64, f64)],
) -> DrawResult<DB> {
    let n = rows.len() as i32;
    let finite = |v: f64| if v.is_finite() { Some(v) } else { None };
    let min = rows
        .iter()
        .filter_map(|r| finite(r.1))
        .fold(0.0f64, f64::min);
    let max = rows
        .iter()
        .filter_map(|r| finite(r.3))
        .fold(0.0f64, f64::max);
    let pad = ((max - min) * 0.08).max(10.0);
    let label = 20 + 8 * rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(4) as u32;
    let mut chart = ChartBuilder::on(root)
        .caption(title, (FONT, 20))
        .margin(14)
        .x_label_area_size(46)
        .y_label_area_size(label)
        .build_cartesian_2d((min - pad)..(max + pad), (0..n).into_segmented())?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_labels(rows.len())
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => rows
                .get(*i as usize)
                .map(|r| r.0.clone())
                .unwrap_or_default(),
            SegmentValue::Last => String::new(),
        })
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    let clamp = |v: f64| v.clamp(min - pad, max + pad);
    chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
        ErrorBar::new_horizontal(
            SegmentValue::CenterOf(i as i32),
            clamp(r.1),
            clamp(r.2),
            clamp(r.3),
            BLUE.filled(),
            12,
        )
    }))?;
    chart.draw_series(rows.iter().enumerate().map(|(i, r)| {
        Circle::new(
            (clamp(r.2), SegmentValue::CenterOf(i as i32)),
            5,
            BLUE.filled(),
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
