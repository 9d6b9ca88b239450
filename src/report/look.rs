//! The look every picture of a game shares (the GIF, the animated SVG, the page's
//! step-through viewer): layout, colours, frame timing, the counts line, and escaping
//! text for HTML and SVG.

use crate::board::Square;
use crate::doc::replay::Frame;
use plotters::style::RGBColor;

/// Text made safe inside HTML (and SVG) elements and attribute values.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// How long a frame stays, in hundredths of a second: the start a little longer so
/// the eye finds the board, each move 0.6 s, the end 3 s before the loop restarts.
#[must_use]
pub const fn delay_cs(ply: usize, plies: usize) -> u16 {
    if ply == plies {
        300
    } else if ply == 0 {
        100
    } else {
        60
    }
}

/// The layout and colours every picture of a board shares (the viewer's style sheet
/// takes the colours from here too).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Look {
    /// Squares per side.
    pub n: u32,
    /// Pixels per square.
    pub cell: u32,
}

impl Look {
    /// The board's side in pixels, whatever its size.
    const BOARD: u32 = 360;
    /// The band of the title above the board.
    pub const TITLE: u32 = 30;
    /// The coordinates' margin around the board.
    pub const MARGIN: u32 = 24;
    /// The text lines under the board.
    pub const FOOTER: u32 = 72;
    pub const BACKGROUND: RGBColor = RGBColor(255, 255, 255);
    pub const TEXT: RGBColor = RGBColor(34, 34, 34);
    pub const GREEN: RGBColor = RGBColor(46, 125, 50);
    pub const GRID: RGBColor = RGBColor(27, 61, 29);
    pub const BLACK: RGBColor = RGBColor(17, 17, 17);
    pub const WHITE: RGBColor = RGBColor(245, 245, 245);
    pub const WHITE_EDGE: RGBColor = RGBColor(68, 68, 68);
    pub const LAST: RGBColor = RGBColor(229, 57, 53);
    pub const FLIPPED: RGBColor = RGBColor(255, 179, 0);

    pub const fn new(n: u32) -> Self {
        Look {
            n,
            cell: Self::BOARD / n,
        }
    }

    pub const fn board(self) -> u32 {
        self.n * self.cell
    }

    pub const fn width(self) -> u32 {
        2 * Self::MARGIN + self.board()
    }

    pub const fn height(self) -> u32 {
        Self::TITLE + Self::MARGIN + self.board() + Self::FOOTER
    }

    /// The title as it fits the band above the board: one line at 16 px, or two
    /// lines at 12 px broken between words (the second cut with an ellipsis if need
    /// be), as (font size, lines with their vertical centres). The widths are those of
    /// DejaVu Sans's average character, with room to spare.
    pub fn title_lines(self, title: &str) -> (u32, Vec<(String, u32)>) {
        let fits = |size: u32| ((self.width() - 16) as f64 / (0.56 * f64::from(size))) as usize;
        if title.chars().count() <= fits(16) {
            return (16, vec![(title.to_string(), Self::TITLE / 2)]);
        }
        let room = fits(12);
        let mut first = String::new();
        let mut rest = title;
        for word in title.split_inclusive(' ') {
            if first.chars().count() + word.trim_end().chars().count() > room {
                break;
            }
            first.push_str(word);
            rest = &title[first.len()..];
        }
        if first.is_empty() {
            let cut: String = title.chars().take(room).collect();
            rest = &title[cut.len()..];
            first = cut;
        }
        let mut second: String = rest.chars().take(room).collect();
        if rest.chars().count() > room {
            second = second.chars().take(room - 1).collect::<String>() + "\u{2026}";
        }
        (
            12,
            vec![
                (first.trim_end().to_string(), Self::TITLE / 2 - 7),
                (second, Self::TITLE / 2 + 7),
            ],
        )
    }

    /// The board's top-left corner.
    pub const fn origin(self) -> (u32, u32) {
        (Self::MARGIN, Self::TITLE + Self::MARGIN)
    }

    /// A square's centre.
    pub const fn centre(self, square: Square) -> (u32, u32) {
        let (x, y) = self.origin();
        (
            x + square.column(self.n) * self.cell + self.cell / 2,
            y + square.row(self.n) * self.cell + self.cell / 2,
        )
    }

    pub const fn radius(self) -> u32 {
        self.cell * 42 / 100
    }

    /// The baseline-centre of footer line `k` (0, 1, 2).
    pub const fn footer_line(self, k: u32) -> u32 {
        Self::TITLE + Self::MARGIN + self.board() + 18 + 22 * k
    }

    pub const fn rgb(color: RGBColor) -> [u8; 3] {
        [color.0, color.1, color.2]
    }
}

/// `#rrggbb`.
pub(crate) fn css(color: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", color.0, color.1, color.2)
}

/// The disc counts line: `black 12 · white 9`.
pub(crate) fn counts(frame: &Frame) -> String {
    format!(
        "black {} \u{b7} white {}",
        frame.black_count(),
        frame.white_count()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_title_wraps_into_the_band_instead_of_being_clipped() {
        let look = Look::new(8);
        let short = "game 3 of r: a draw";
        assert_eq!(
            look.title_lines(short),
            (16, vec![(short.to_string(), Look::TITLE / 2)])
        );
        let long = "game 12 of results/default: corner-first (black) vs weighted-classic (white), black won by 10";
        let (font, lines) = look.title_lines(long);
        assert_eq!(font, 12);
        assert_eq!(lines.len(), 2);
        let room = ((look.width() - 16) as f64 / (0.56 * 12.0)) as usize;
        assert!(
            lines.iter().all(|(l, _)| l.chars().count() <= room),
            "{lines:?}"
        );
        assert_eq!(format!("{} {}", lines[0].0, lines[1].0), long);
        let huge = "x".repeat(500);
        let (_, lines) = look.title_lines(&huge);
        assert!(lines[1].0.ends_with('\u{2026}'), "{lines:?}");
        assert!(lines.iter().all(|(_, y)| *y < Look::TITLE));
    }
}
