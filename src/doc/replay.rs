//! A game replayed move by move for its pictures (the GIF, the animated SVG and the
//! page's viewer): the discs after every ply, the move just played, the discs it
//! flipped, and who passed. The engine plays the moves, so no picture repeats a rule.

use crate::board::{Bits, Color, Square};
use crate::error::{Error, Result};
use crate::game::{Game, Outcome, Rules};
use crate::lab::setup::check_size;
use crate::with_geometry;

/// The board after one ply (or the start position, ply 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Black's discs, one bit per row-major square.
    pub black: u128,
    /// White's discs.
    pub white: u128,
    /// The move that made this position and who played it (None at the start).
    pub played: Option<(Square, Color)>,
    /// The discs that move flipped.
    pub flipped: u128,
    /// The side that had to pass right after this move, if one did.
    pub passed: Option<Color>,
}

impl Frame {
    /// Black's disc count.
    #[must_use]
    pub const fn black_count(&self) -> u32 {
        self.black.count_ones()
    }

    /// White's disc count.
    #[must_use]
    pub const fn white_count(&self) -> u32 {
        self.white.count_ones()
    }

    /// The colour on a square, if any.
    #[must_use]
    pub const fn at(&self, index: u32) -> Option<Color> {
        if self.black >> index & 1 == 1 {
            Some(Color::Black)
        } else if self.white >> index & 1 == 1 {
            Some(Color::White)
        } else {
            None
        }
    }
}

/// A whole game as frames: the start position and one frame per ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The board size.
    pub size: u32,
    /// The rules it is scored under.
    pub rules: Rules,
    /// Ply 0 (the start) to the last ply.
    pub frames: Vec<Frame>,
    /// How it ended, if the transcript plays to the end.
    pub outcome: Option<Outcome>,
}

impl Replay {
    /// Plays a transcript (square names from the standard start; passes are implicit).
    /// A bad size or a move that cannot be played is bad input naming the ply.
    pub fn new(size: u32, rules: Rules, transcript: &str) -> Result<Self> {
        let size = check_size(size)?;
        with_geometry!(size, G => Self::play::<G>(rules, transcript))
    }

    fn play<G: crate::board::Geometry>(rules: Rules, transcript: &str) -> Result<Self> {
        let mut game = Game::<G>::new();
        let discs = |game: &Game<G>| {
            let position = game.position();
            (position.black().to_u128(), position.white().to_u128())
        };
        let (black, white) = discs(&game);
        let mut frames = vec![Frame {
            black,
            white,
            played: None,
            flipped: 0,
            passed: None,
        }];
        let whole = Game::<G>::from_transcript(transcript).map_err(|e| {
            Error::input(format!(
                "{e} (the transcript must be a legal {0}x{0} game from the standard start)",
                G::SIZE
            ))
        })?;
        for &square in whole.moves() {
            let mover = game.side();
            let passes = game.passes();
            let before = frames[frames.len() - 1];
            game.play_unchecked(square);
            let (black, white) = discs(&game);
            let (was_theirs, now_mine) = match mover {
                Color::Black => (before.white, black),
                Color::White => (before.black, white),
            };
            frames.push(Frame {
                black,
                white,
                played: Some((square, mover)),
                flipped: was_theirs & now_mine,
                passed: (game.passes() > passes).then_some(mover.opposite()),
            });
        }
        Ok(Replay {
            size: G::SIZE,
            rules,
            frames,
            outcome: game.outcome(rules),
        })
    }

    /// The number of moves.
    #[must_use]
    pub fn plies(&self) -> usize {
        self.frames.len() - 1
    }

    /// What a frame says under the board: `Start`, or `Move 12 of 60: f5 by black`
    /// (with `white passes` when the move left white without a move).
    #[must_use]
    pub fn caption(&self, ply: usize) -> String {
        let frame = &self.frames[ply];
        let Some((square, mover)) = frame.played else {
            return format!("Start ({} moves)", self.plies());
        };
        let mut text = format!(
            "Move {ply} of {}: {} by {}",
            self.plies(),
            square.name(self.size),
            mover.name()
        );
        if let Some(side) = frame.passed {
            text.push_str(&format!(", {} passes", side.name()));
        }
        text
    }

    /// The result, worded for the rules: `Black wins by 16 (40-24)`, `Draw (32-32)`,
    /// `White wins by 6 under anti rules (fewer discs win): 35-29 (black-white)`, or
    /// `Unfinished` for a transcript that stops before the end.
    #[must_use]
    pub fn result(&self) -> String {
        let Some(outcome) = self.outcome else {
            let last = self.frames[self.plies()];
            return format!(
                "Unfinished after {} moves ({}-{})",
                self.plies(),
                last.black_count(),
                last.white_count()
            );
        };
        let discs = format!("{}-{}", outcome.black_discs, outcome.white_discs);
        let anti = if self.rules.anti {
            " under anti rules (fewer discs win)"
        } else {
            ""
        };
        match outcome.winner {
            None => format!("Draw{anti} ({discs})"),
            Some(color) => {
                let name = match color {
                    Color::Black => "Black",
                    Color::White => "White",
                };
                format!("{name} wins by {}{anti} ({discs})", outcome.margin.abs())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_follow_the_moves_flips_and_counts() {
        let replay = Replay::new(8, Rules::default(), "f5d6c3").unwrap();
        assert_eq!(replay.plies(), 3);
        assert_eq!(replay.frames.len(), 4);
        let start = replay.frames[0];
        assert_eq!((start.black_count(), start.white_count()), (2, 2));
        let first = replay.frames[1];
        let f5 = Square::parse("f5", 8).unwrap();
        let e5 = Square::parse("e5", 8).unwrap();
        assert_eq!(first.played, Some((f5, Color::Black)));
        assert_eq!(first.flipped, 1u128 << e5.index(), "f5 flips e5");
        assert_eq!((first.black_count(), first.white_count()), (4, 1));
        assert_eq!(first.at(f5.index()), Some(Color::Black));
        assert_eq!(replay.caption(2), "Move 2 of 3: d6 by white");
        assert_eq!(replay.caption(0), "Start (3 moves)");
        assert!(replay.result().starts_with("Unfinished after 3 moves"));
    }

    #[test]
    fn a_whole_game_has_a_result_under_its_rules() {
        // A complete 4x4 game with two passes: black wins 14-1, the empty square to the winner.
        let moves = "d3d2b1a2d1b4a4d4c4a1a3";
        let normal = Replay::new(4, Rules::default(), moves).unwrap();
        let outcome = normal.outcome.expect("the game is over");
        assert_eq!(
            (outcome.black_discs, outcome.white_discs, outcome.margin),
            (14, 1, 14)
        );
        assert_eq!(normal.result(), "Black wins by 14 (14-1)");
        let passes = normal.frames.iter().filter(|f| f.passed.is_some()).count();
        assert_eq!(passes, 2, "the two passes of games.csv");
        let anti = Replay::new(
            4,
            Rules {
                anti: true,
                ..Rules::default()
            },
            moves,
        )
        .unwrap();
        assert_ne!(
            normal.result(),
            anti.result(),
            "the winner flips under anti rules"
        );
        assert!(anti.result().contains("anti rules"), "{}", anti.result());
        let last = normal.frames[normal.plies()];
        assert_eq!(
            (last.black_count(), last.white_count()),
            (outcome.black_discs, outcome.white_discs)
        );
    }

    #[test]
    fn bad_transcripts_name_the_ply() {
        let err = Replay::new(8, Rules::default(), "f5d6a1").unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains("ply 3"), "{err}");
        let err = Replay::new(7, Rules::default(), "").unwrap_err();
        assert!(err.to_string().contains("board size 7"), "{err}");
    }
}
