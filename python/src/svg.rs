//! The picture of a board that Jupyter shows (`Board._repr_svg_`): green squares, the
//! discs, the legal moves as faint dots, the last move marked, coordinates around.

use reversi_lab::board::{Bits, Square};
use std::fmt::Write as _;

/// Pixels per square and around the board (the coordinates' margin).
const CELL: u32 = 40;
const MARGIN: u32 = 24;

/// What to draw: the discs and legal moves as bit sets over `size` x `size` squares.
pub struct Picture {
    /// The board size.
    pub size: u32,
    /// Black discs.
    pub black: u128,
    /// White discs.
    pub white: u128,
    /// Legal moves of the side to move.
    pub legal: u128,
    /// The last move played, if any.
    pub last: Option<Square>,
}

impl Picture {
    /// The board as a standalone SVG document.
    #[must_use]
    pub fn svg(&self) -> String {
        let n = self.size;
        let side = MARGIN + n * CELL + MARGIN / 2;
        let mut out = String::with_capacity(8192);
        write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" viewBox="0 0 {side} {side}" font-family="sans-serif" font-size="13">"#
        )
        .ok();
        write!(
            out,
            r##"<rect x="{MARGIN}" y="{MARGIN}" width="{0}" height="{0}" fill="#2e7d32" stroke="#1b3d1d" stroke-width="2"/>"##,
            n * CELL
        )
        .ok();
        for k in 1..n {
            let at = MARGIN + k * CELL;
            let end = MARGIN + n * CELL;
            write!(
                out,
                r##"<line x1="{at}" y1="{MARGIN}" x2="{at}" y2="{end}" stroke="#1b3d1d"/><line x1="{MARGIN}" y1="{at}" x2="{end}" y2="{at}" stroke="#1b3d1d"/>"##
            )
            .ok();
        }
        for k in 0..n {
            let centre = MARGIN + k * CELL + CELL / 2;
            let letter = (b'a' + k as u8) as char;
            write!(
                out,
                r##"<text x="{centre}" y="{0}" text-anchor="middle" fill="#333">{letter}</text><text x="{1}" y="{2}" text-anchor="middle" fill="#333">{3}</text>"##,
                MARGIN - 8,
                MARGIN / 2,
                centre + 5,
                k + 1
            )
            .ok();
        }
        for index in 0..n * n {
            let square = Square::new(index);
            let x = MARGIN + square.column(n) * CELL + CELL / 2;
            let y = MARGIN + square.row(n) * CELL + CELL / 2;
            let radius = CELL * 42 / 100;
            if self.black.has(index) {
                write!(
                    out,
                    r##"<circle cx="{x}" cy="{y}" r="{radius}" fill="#111" stroke="#000"/>"##
                )
                .ok();
            } else if self.white.has(index) {
                write!(
                    out,
                    r##"<circle cx="{x}" cy="{y}" r="{radius}" fill="#f5f5f5" stroke="#444"/>"##
                )
                .ok();
            } else if self.legal.has(index) {
                write!(
                    out,
                    r##"<circle cx="{x}" cy="{y}" r="{}" fill="#000" fill-opacity="0.25"/>"##,
                    CELL / 8
                )
                .ok();
            }
            if self.last == Some(square) {
                write!(
                    out,
                    r##"<circle cx="{x}" cy="{y}" r="{}" fill="#e53935"/>"##,
                    CELL / 10
                )
                .ok();
            }
        }
        out.push_str("</svg>");
        out
    }
}
