//! A game as an animation: an animated GIF, an animated SVG (no script) or a page
//! with the step-through viewer, chosen by the file's extension. The three share the
//! frames of [`Replay`], the timing and the look (layout and colours) written here.

use super::look::{counts, delay_cs, Look};
use super::{svg_game, viewer};
use crate::board::{Color, Square};
use crate::chart::{register_fonts, FONT};
use crate::doc::replay::Replay;
use crate::error::{Error, Result};
use crate::game::Rules;
use crate::lab::folder::write_atomically;
use crate::shown::ShowPath;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::Color as _;
use std::collections::HashMap;
use std::path::Path;

/// The formats [`write_game`] writes, by extension.
pub const EXTENSIONS: [&str; 3] = ["gif", "svg", "html"];

/// Writes a game as an animation: `.gif`, `.svg` or `.html`, by `path`'s extension.
/// `transcript` is the game's moves from the standard start (`f5d6c3...`, as the
/// `moves` column of games.csv), passes implicit; `title` heads every frame.
pub fn write_game(
    path: &Path,
    size: u32,
    rules: Rules,
    transcript: &str,
    title: &str,
) -> Result<()> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    if !EXTENSIONS.contains(&extension.as_str()) {
        return Err(Error::input(format!(
            "cannot tell the format of {}: name the file .gif (animated picture), .svg (animated drawing) or .html (a page to step through)",
            path.shown()
        )));
    }
    let replay = Replay::new(size, rules, transcript)?;
    match extension.as_str() {
        "gif" => write_gif(path, &replay, title),
        "svg" => write_text(path, &svg_game::svg(&replay, title)),
        _ => write_text(path, &viewer::page(&replay, title, "")),
    }
}

fn write_text(path: &Path, text: &str) -> Result<()> {
    write_atomically(path, text.as_bytes())
}

type Drawn = std::result::Result<(), String>;

/// Draws one frame into an RGB buffer.
fn draw_frame(buffer: &mut [u8], look: Look, replay: &Replay, ply: usize, title: &str) -> Drawn {
    let (w, h) = (look.width(), look.height());
    let root = BitMapBackend::with_buffer(buffer, (w, h)).into_drawing_area();
    let e = |e: plotters::drawing::DrawingAreaErrorKind<_>| e.to_string();
    root.fill(&Look::BACKGROUND).map_err(e)?;
    let text = |size: u32, pos: HPos| {
        TextStyle::from((FONT, f64::from(size)).into_font())
            .color(&Look::TEXT)
            .pos(Pos::new(pos, VPos::Center))
    };
    let mid = (w / 2) as i32;
    let (font, lines) = look.title_lines(title);
    for (line, middle) in lines {
        root.draw(&Text::new(
            line,
            (mid, (middle + 2) as i32),
            text(font, HPos::Center),
        ))
        .map_err(e)?;
    }
    let (x0, y0) = look.origin();
    let (x0, y0, side, cell) = (x0 as i32, y0 as i32, look.board() as i32, look.cell as i32);
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + side, y0 + side)],
        Look::GREEN.filled(),
    ))
    .map_err(e)?;
    for k in 0..=look.n as i32 {
        let at = k * cell;
        let line = Look::GRID.stroke_width(if k == 0 || k == look.n as i32 { 2 } else { 1 });
        root.draw(&PathElement::new(
            vec![(x0 + at, y0), (x0 + at, y0 + side)],
            line,
        ))
        .map_err(e)?;
        root.draw(&PathElement::new(
            vec![(x0, y0 + at), (x0 + side, y0 + at)],
            line,
        ))
        .map_err(e)?;
    }
    for k in 0..look.n {
        let centre = (k * look.cell + look.cell / 2) as i32;
        let letter = ((b'a' + k as u8) as char).to_string();
        root.draw(&Text::new(
            letter,
            (x0 + centre, y0 - 12),
            text(13, HPos::Center),
        ))
        .map_err(e)?;
        root.draw(&Text::new(
            (k + 1).to_string(),
            (x0 - 12, y0 + centre),
            text(13, HPos::Center),
        ))
        .map_err(e)?;
    }
    let frame = &replay.frames[ply];
    let radius = look.radius() as i32;
    for index in 0..look.n * look.n {
        let Some(color) = frame.at(index) else {
            continue;
        };
        let (x, y) = look.centre(Square::new(index));
        let centre = (x as i32, y as i32);
        let (fill, edge) = match color {
            Color::Black => (Look::BLACK, Look::BLACK),
            Color::White => (Look::WHITE, Look::WHITE_EDGE),
        };
        root.draw(&Circle::new(centre, radius, fill.filled()))
            .map_err(e)?;
        root.draw(&Circle::new(centre, radius, edge.stroke_width(1)))
            .map_err(e)?;
        if frame.flipped >> index & 1 == 1 {
            root.draw(&Circle::new(
                centre,
                radius * 6 / 10,
                Look::FLIPPED.stroke_width(3),
            ))
            .map_err(e)?;
        }
    }
    if let Some((square, _)) = frame.played {
        let (x, y) = look.centre(square);
        root.draw(&Circle::new(
            (x as i32, y as i32),
            (radius / 3).max(3),
            Look::LAST.filled(),
        ))
        .map_err(e)?;
    }
    let left = x0;
    root.draw(&Text::new(
        replay.caption(ply),
        (left, look.footer_line(0) as i32),
        text(14, HPos::Left),
    ))
    .map_err(e)?;
    root.draw(&Text::new(
        counts(frame),
        (left, look.footer_line(1) as i32),
        text(14, HPos::Left),
    ))
    .map_err(e)?;
    if ply == replay.plies() {
        root.draw(&Text::new(
            replay.result(),
            (left, look.footer_line(2) as i32),
            TextStyle::from((FONT, 14.0, FontStyle::Bold).into_font())
                .color(&Look::TEXT)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(e)?;
    }
    root.present().map_err(e)
}

/// One palette for every frame: the look's colours and the blends between each two
/// of them, which is what anti-aliased edges and text are made of.
struct Palette {
    colors: Vec<[u8; 3]>,
    cache: HashMap<[u8; 3], u8>,
}

impl Palette {
    const STEPS: u32 = 5;
    /// The index left unused by the colours: "unchanged" in every frame after the first.
    const CLEAR: u8 = 255;

    fn new() -> Self {
        let keys = [
            Look::BACKGROUND,
            Look::TEXT,
            Look::GREEN,
            Look::GRID,
            Look::BLACK,
            Look::WHITE,
            Look::WHITE_EDGE,
            Look::LAST,
            Look::FLIPPED,
        ]
        .map(Look::rgb);
        let mut colors: Vec<[u8; 3]> = keys.to_vec();
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                for step in 1..Self::STEPS {
                    let mix = |x: u8, y: u8| {
                        ((u32::from(x) * (Self::STEPS - step) + u32::from(y) * step) / Self::STEPS)
                            as u8
                    };
                    colors.push([mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])]);
                }
            }
        }
        debug_assert!(colors.len() < usize::from(Self::CLEAR));
        Palette {
            colors,
            cache: HashMap::new(),
        }
    }

    fn index(&mut self, rgb: [u8; 3]) -> u8 {
        let colors = &self.colors;
        *self.cache.entry(rgb).or_insert_with(|| {
            let distance = |c: &[u8; 3]| {
                (0..3)
                    .map(|k| (i32::from(c[k]) - i32::from(rgb[k])).pow(2))
                    .sum::<i32>()
            };
            (0..colors.len())
                .min_by_key(|&i| distance(&colors[i]))
                .unwrap_or(0) as u8
        })
    }

    fn flat(&self) -> Vec<u8> {
        let mut flat: Vec<u8> = self.colors.iter().flatten().copied().collect();
        flat.resize(256 * 3, 0);
        flat
    }
}

/// The smallest rectangle (left, top, width, height) holding every pixel that
/// differs between two frames: only that part of a frame is stored.
fn changed(previous: &[u8], next: &[u8], width: usize) -> (usize, usize, usize, usize) {
    let (mut left, mut top, mut right, mut bottom) = (usize::MAX, usize::MAX, 0, 0);
    for (i, (a, b)) in previous.iter().zip(next).enumerate() {
        if a != b {
            let (x, y) = (i % width, i / width);
            left = left.min(x);
            right = right.max(x);
            top = top.min(y);
            bottom = bottom.max(y);
        }
    }
    if left == usize::MAX {
        (0, 0, 1, 1) // nothing changed: one pixel, redrawn as it was
    } else {
        (left, top, right - left + 1, bottom - top + 1)
    }
}

fn write_gif(path: &Path, replay: &Replay, title: &str) -> Result<()> {
    register_fonts();
    let look = Look::new(replay.size);
    let (w, h) = (look.width() as usize, look.height() as usize);
    let fail = |message: String| Error::Draw {
        path: path.to_path_buf(),
        message,
    };
    let gif_error = |e: gif::EncodingError| match e {
        gif::EncodingError::Io(e) => Error::io(path, e),
        e => fail(e.to_string()),
    };
    // Encoded in memory and written whole: a full disk leaves no partial file.
    let mut palette = Palette::new();
    let mut encoder =
        gif::Encoder::new(Vec::new(), w as u16, h as u16, &palette.flat()).map_err(gif_error)?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(gif_error)?;
    let mut rgb = vec![0u8; w * h * 3];
    let mut previous: Option<Vec<u8>> = None;
    for ply in 0..=replay.plies() {
        draw_frame(&mut rgb, look, replay, ply, title).map_err(fail)?;
        let pixels: Vec<u8> = rgb
            .chunks_exact(3)
            .map(|p| palette.index([p[0], p[1], p[2]]))
            .collect();
        let (left, top, width, height) = match &previous {
            Some(before) => changed(before, &pixels, w),
            None => (0, 0, w, h),
        };
        // Inside the changed rectangle, pixels as they were are transparent: runs of
        // one index, which the compression shrinks to almost nothing.
        let mut part = Vec::with_capacity(width * height);
        for row in top..top + height {
            let span = row * w + left..row * w + left + width;
            match &previous {
                Some(before) => part.extend(
                    pixels[span.clone()]
                        .iter()
                        .zip(&before[span])
                        .map(|(&now, &was)| if now == was { Palette::CLEAR } else { now }),
                ),
                None => part.extend_from_slice(&pixels[span]),
            }
        }
        let frame = gif::Frame {
            left: left as u16,
            top: top as u16,
            width: width as u16,
            height: height as u16,
            delay: delay_cs(ply, replay.plies()),
            dispose: gif::DisposalMethod::Keep,
            transparent: previous.is_some().then_some(Palette::CLEAR),
            buffer: std::borrow::Cow::Owned(part),
            ..gif::Frame::default()
        };
        encoder.write_frame(&frame).map_err(gif_error)?;
        previous = Some(pixels);
    }
    let bytes = encoder.into_inner().map_err(gif_error)?;
    write_atomically(path, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4x4 game with two passes (from a run: black wins 14-1).
    pub(crate) const GAME4: &str = "d3d2b1a2d1b4a4d4c4a1a3";

    fn frames_of(path: &Path) -> (Vec<u16>, u16, u16) {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options
            .read_info(std::fs::File::open(path).unwrap())
            .unwrap();
        let (w, h) = (decoder.width(), decoder.height());
        let mut delays = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            delays.push(frame.delay);
        }
        (delays, w, h)
    }

    #[test]
    fn a_gif_has_one_frame_per_ply_and_the_start() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.gif");
        write_game(&path, 4, Rules::default(), GAME4, "random vs greedy").unwrap();
        let (delays, w, h) = frames_of(&path);
        assert_eq!(delays.len(), 11 + 1);
        assert_eq!(
            (w, h),
            (Look::new(4).width() as u16, Look::new(4).height() as u16)
        );
        assert_eq!(delays[1], 60);
        assert_eq!(delays.last(), Some(&300), "the end stays longer");

        let moves = "f5d6c3d3c4f4f6f3e6e7";
        let path = dir.path().join("eight.GIF");
        let anti = Rules {
            anti: true,
            ..Rules::default()
        };
        write_game(&path, 8, anti, moves, "eight").unwrap();
        assert_eq!(frames_of(&path).0.len(), 10 + 1);
    }

    #[test]
    fn frames_store_only_what_changed() {
        let a = [0u8, 0, 0, 0, 0, 0];
        let b = [0u8, 0, 0, 0, 1, 0];
        assert_eq!(changed(&a, &b, 3), (1, 1, 1, 1));
        assert_eq!(changed(&a, &a, 3), (0, 0, 1, 1));
    }

    #[test]
    fn an_unknown_extension_names_the_three() {
        let err = write_game(Path::new("game.png"), 8, Rules::default(), "f5", "t").unwrap_err();
        assert_eq!(err.exit_code(), 2);
        let text = err.to_string();
        assert!(!text.contains('\n'));
        for ext in EXTENSIONS {
            assert!(text.contains(&format!(".{ext}")), "{text}");
        }
        let dir = tempfile::tempdir().unwrap();
        let err =
            write_game(&dir.path().join("g.gif"), 8, Rules::default(), "f5f5", "t").unwrap_err();
        assert!(err.to_string().contains("ply 2"), "{err}");
    }
}
