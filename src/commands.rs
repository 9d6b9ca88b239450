//! What each subcommand does, called by the thin binary with already-parsed arguments.

use crate::board::{squares, Geometry, Position, SIZES};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::perft::{perft, perft_parallel};
use crate::with_geometry;
use std::io::Write;
use std::time::Instant;

/// Checks a board size typed by the user.
pub fn validate_size(size: u32) -> Result<u32> {
    if SIZES.contains(&size) {
        Ok(size)
    } else {
        Err(Error::input(format!(
            "unsupported board size {size}: use one of 4, 6, 8, 10"
        )))
    }
}

/// The board size an OBF line implies by its number of squares.
pub fn size_of_obf(line: &str) -> Result<u32> {
    let squares = line
        .split(';')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next()
        .unwrap_or("");
    let count = squares.chars().count();
    SIZES
        .iter()
        .copied()
        .find(|&s| (s * s) as usize == count)
        .ok_or_else(|| {
            Error::input(format!(
                "position has {count} squares: an OBF position has 16, 36, 64 or 100 of X, O, - (4x4 to 10x10), then a space and the side to move"
            ))
        })
}

/// Reads a position given as an OBF line, or as a file whose first non-empty line is one.
fn obf_text(position: &str) -> Result<String> {
    let path = std::path::Path::new(position);
    if path.is_file() {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        return text
            .lines()
            .find(|l| !l.trim().is_empty() && !l.starts_with('%'))
            .map(str::to_string)
            .ok_or_else(|| Error::input(format!("{position}: no position in the file")));
    }
    Ok(position.to_string())
}

/// Resolves `--size` and `--position` into one size, checking they agree.
fn resolve_size(size: Option<u32>, obf: Option<&str>) -> Result<u32> {
    match (size, obf) {
        (Some(size), None) => validate_size(size),
        (None, None) => Ok(8),
        (size, Some(line)) => {
            let implied = size_of_obf(line)?;
            if let Some(size) = size {
                validate_size(size)?;
                if size != implied {
                    return Err(Error::input(format!(
                        "--size {size} does not match the position, which is {implied}x{implied}: drop --size or fix the position"
                    )));
                }
            }
            Ok(implied)
        }
    }
}

fn parse_position<G: Geometry>(obf: Option<&str>) -> Result<Position<G>> {
    match obf {
        None => Ok(Position::start()),
        Some(line) => Position::from_obf(line).map_err(|e| Error::input(e.to_string())),
    }
}

/// Highest perft depth accepted: deeper counts would run for days.
pub const MAX_PERFT_DEPTH: u32 = 30;

/// `reversi-lab perft`: prints the leaf count on its own line, then time and speed.
pub fn perft_command(
    depth: u32,
    size: Option<u32>,
    position: Option<&str>,
    threads: usize,
    out: &mut dyn Write,
) -> Result<u64> {
    if !(1..=MAX_PERFT_DEPTH).contains(&depth) {
        return Err(Error::input(format!(
            "perft depth {depth} is out of range: use 1 to {MAX_PERFT_DEPTH}"
        )));
    }
    if threads == 0 {
        return Err(Error::input("--threads 0: use at least 1 thread"));
    }
    let text = position.map(obf_text).transpose()?;
    let size = resolve_size(size, text.as_deref())?;
    let (leaves, seconds) = with_geometry!(size, G => {
        let board = parse_position::<G>(text.as_deref())?.board;
        let started = Instant::now();
        let leaves = if threads == 1 {
            perft(board, depth)
        } else {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| Error::input(format!("cannot start {threads} threads: {e}")))?;
            pool.install(|| perft_parallel(board, depth))
        };
        (leaves, started.elapsed().as_secs_f64())
    });
    let rate = leaves as f64 / seconds.max(1e-9);
    writeln!(out, "{leaves}").ok();
    writeln!(
        out,
        "time {seconds:.3} s, {:.1} M leaves/s ({size}x{size}, depth {depth}, {threads} thread{})",
        rate / 1e6,
        if threads == 1 { "" } else { "s" }
    )
    .ok();
    Ok(leaves)
}

/// `reversi-lab show`: draws a position (the start, an OBF line, and/or a transcript
/// played from it) with its OBF line and legal moves.
pub fn show_command(
    size: Option<u32>,
    position: Option<&str>,
    moves: Option<&str>,
    out: &mut dyn Write,
) -> Result<()> {
    let text = position.map(obf_text).transpose()?;
    let size = resolve_size(size, text.as_deref())?;
    with_geometry!(size, G => {
        let start = parse_position::<G>(text.as_deref())?;
        let mut game = Game::<G>::from_position(start);
        if let Some(moves) = moves {
            game.play_transcript(moves).map_err(|e| Error::input(e.to_string()))?;
        }
        let legal: Vec<String> = squares(game.board().moves()).map(|s| s.name(G::SIZE)).collect();
        writeln!(out, "{game}").ok();
        writeln!(out, "obf: {}", game.position().to_obf()).ok();
        if game.is_over() {
            writeln!(out, "game over").ok();
        } else {
            writeln!(out, "legal moves: {}", legal.join(" ")).ok();
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_prints_count_first() {
        let mut out = Vec::new();
        let leaves = perft_command(5, None, None, 1, &mut out).unwrap();
        assert_eq!(leaves, 1396);
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("1396\ntime "), "{text}");
    }

    #[test]
    fn bad_inputs_are_input_errors() {
        let mut out = Vec::new();
        for result in [
            perft_command(0, None, None, 1, &mut out),
            perft_command(99, None, None, 1, &mut out),
            perft_command(3, Some(7), None, 1, &mut out),
            perft_command(3, None, Some("XXO X"), 1, &mut out),
            perft_command(
                3,
                Some(6),
                Some(&format!("{} X", "-".repeat(64))),
                1,
                &mut out,
            ),
        ] {
            let err = result.unwrap_err();
            assert_eq!(err.exit_code(), 2, "{err}");
        }
    }
}
