//! Positions with colours: the OBF line format of endgame suites and an ASCII drawing.

use super::bits::Bits;
use super::geometry::Geometry;
use super::square::{Color, Square};
use super::Board;
use std::fmt;

/// A board together with the colour to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<G: Geometry> {
    /// The discs, relative to the side to move.
    pub board: Board<G>,
    /// The colour of `board.player`.
    pub side: Color,
}

/// Why an OBF line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    /// The board part has the wrong number of squares.
    #[error("position has {found} squares, expected {expected} ({size}x{size} board): write one of X, O, - per square")]
    Length {
        /// Squares found.
        found: usize,
        /// Squares needed.
        expected: usize,
        /// Board size.
        size: u32,
    },
    /// A square character is not one of `X`, `O`, `-`.
    #[error("invalid square character {0:?} in position: use X (black), O (white) or - (empty)")]
    Square(char),
    /// The side to move is missing or not `X`/`O`.
    #[error(
        "invalid side to move {0:?}: write a space then X (black) or O (white) after the squares"
    )]
    Side(String),
}

impl<G: Geometry> Position<G> {
    /// The standard start, black to move.
    #[must_use]
    pub fn start() -> Self {
        Position {
            board: Board::start(),
            side: Color::Black,
        }
    }

    /// Black's discs.
    #[must_use]
    pub fn black(&self) -> G::Bits {
        match self.side {
            Color::Black => self.board.player,
            Color::White => self.board.opponent,
        }
    }

    /// White's discs.
    #[must_use]
    pub fn white(&self) -> G::Bits {
        match self.side {
            Color::Black => self.board.opponent,
            Color::White => self.board.player,
        }
    }

    /// A position from absolute disc sets.
    #[must_use]
    pub fn from_colors(black: G::Bits, white: G::Bits, side: Color) -> Self {
        let board = match side {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        Position { board, side }
    }

    /// Plays a legal move.
    #[must_use]
    pub fn play(self, square: Square) -> Self {
        Position {
            board: self.board.play(square),
            side: self.side.opposite(),
        }
    }

    /// Passes the turn.
    #[must_use]
    pub fn pass(self) -> Self {
        Position {
            board: self.board.pass(),
            side: self.side.opposite(),
        }
    }

    /// Reads an OBF line: one of `X`/`O`/`-` per square, a space, the side to
    /// move, then optionally `;` and anything (such as the FFO scores).
    pub fn from_obf(line: &str) -> Result<Self, ParsePositionError> {
        let content = line.split(';').next().unwrap_or("").trim();
        let mut parts = content.split_whitespace();
        let squares = parts.next().unwrap_or("");
        let count = squares.chars().count();
        if count != G::CELLS as usize {
            return Err(ParsePositionError::Length {
                found: count,
                expected: G::CELLS as usize,
                size: G::SIZE,
            });
        }
        let mut black = G::Bits::ZERO;
        let mut white = G::Bits::ZERO;
        for (index, c) in squares.chars().enumerate() {
            let bit = G::Bits::bit(index as u32);
            match c {
                'X' | 'x' | '*' => black |= bit,
                'O' | 'o' | '0' => white |= bit,
                '-' | '.' => {}
                other => return Err(ParsePositionError::Square(other)),
            }
        }
        let side = match parts.next() {
            Some("X" | "x" | "*") => Color::Black,
            Some("O" | "o" | "0") => Color::White,
            other => return Err(ParsePositionError::Side(other.unwrap_or("").to_string())),
        };
        if let Some(extra) = parts.next() {
            return Err(ParsePositionError::Side(format!("{} {extra}", side.obf())));
        }
        Ok(Position::from_colors(black, white, side))
    }

    /// Writes the OBF line (`X`, `O`, `-` per square, a space, the side to move).
    #[must_use]
    pub fn to_obf(&self) -> String {
        let (black, white) = (self.black(), self.white());
        let mut out = String::with_capacity(G::CELLS as usize + 2);
        for index in 0..G::CELLS {
            out.push(if black.has(index) {
                'X'
            } else if white.has(index) {
                'O'
            } else {
                '-'
            });
        }
        out.push(' ');
        out.push(self.side.obf());
        out
    }
}

impl<G: Geometry> fmt::Display for Position<G> {
    /// An ASCII drawing with coordinates: `X` black, `O` white, `.` empty, `*` a legal move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", super::Drawing::new(*self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Size4, Size8};

    #[test]
    fn obf_round_trip() {
        let start = Position::<Size8>::start();
        let obf = start.to_obf();
        assert_eq!(
            obf,
            "---------------------------OX------XO--------------------------- X"
        );
        assert_eq!(Position::<Size8>::from_obf(&obf).unwrap(), start);
        let line =
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;";
        let position = Position::<Size8>::from_obf(line).unwrap();
        assert_eq!(position.side, Color::Black);
        assert_eq!(position.to_obf(), line.split(';').next().unwrap());
    }

    #[test]
    fn obf_errors_name_the_problem() {
        let err = Position::<Size8>::from_obf("XO X").unwrap_err();
        assert!(err.to_string().contains("2 squares, expected 64"));
        let bad = format!("{}Z X", "-".repeat(63));
        assert_eq!(
            Position::<Size8>::from_obf(&bad).unwrap_err(),
            ParsePositionError::Square('Z')
        );
        let no_side = "-".repeat(64);
        assert!(matches!(
            Position::<Size8>::from_obf(&no_side),
            Err(ParsePositionError::Side(_))
        ));
    }

    #[test]
    fn drawing_has_coordinates_and_moves() {
        let text = Position::<Size4>::start().to_string();
        assert!(text.starts_with("    a b c d\n 1  . * . ."), "{text}");
        assert!(text.contains("black to move; black 2, white 2"));
    }
}
