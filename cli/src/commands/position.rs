//! `perft` and `show`: commands on one position, and how a position is given
//! (`--size`, `--position` as an OBF line or a file).

use super::Said;
use crate::commands::Outcome;
use reversi_lab::board::{squares, FlipKernel, Geometry, Position};
use reversi_lab::error::{Error, Result};
use reversi_lab::game::Game;
use reversi_lab::lab::driver::thread_pool;
use reversi_lab::lab::setup::{check_size as validate_size, check_threads, size_of_obf, THREADS};
use reversi_lab::perft::{perft_kernel, perft_parallel_with, perft_with};
use reversi_lab::with_geometry;
use std::io::Write;
use std::time::Instant;

/// Reads a position given as an OBF line, or as a file whose first non-empty line is one.
fn obf_text(position: &str) -> Result<String> {
    let path = std::path::Path::new(position);
    if path.is_dir() {
        return Err(Error::input(format!(
            "{position} is a folder: give an OBF line, or a file holding one"
        )));
    }
    if path.is_file() {
        let text = std::fs::read_to_string(path).map_err(|e| Error::unreadable(path, &e))?;
        return text
            .lines()
            .find(|l| !l.trim().is_empty() && !l.starts_with('%'))
            .map(str::to_string)
            .ok_or_else(|| Error::input(format!("{position}: no position in the file")));
    }
    // An OBF line always has a space before the side to move; a single word that
    // names a path or has a file extension is a file that is not there.
    let word = !position.trim().contains(char::is_whitespace);
    if word && (position.contains(['/', '\\']) || path.extension().is_some()) {
        return Err(Error::input(format!(
            "{position}: no such file (--position takes an OBF line such as '{}X', or a file holding one)",
            "-".repeat(27) + "OX------XO" + &"-".repeat(27) + " "
        )));
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

/// The position an OBF line (or none: the start) gives, for a board of geometry `G`.
pub(super) fn parse_position<G: Geometry>(obf: Option<&str>) -> Result<Position<G>> {
    match obf {
        None => Ok(Position::start()),
        Some(line) => Position::from_obf(line).map_err(|e| Error::input(e.to_string())),
    }
}

/// Highest perft depth accepted: deeper counts would run for days.
pub const MAX_PERFT_DEPTH: u32 = 30;

/// Where a position comes from: `--size` and `--position`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct PositionArgs {
    /// Board size: 4, 6, 8 or 10 (default 8, or the size of --position).
    #[arg(long, allow_negative_numbers = true, value_parser = super::whole::board_size)]
    pub size: Option<u32>,
    /// Start from this OBF position (squares of X/O/-, a space, the side to move), or a file holding one.
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
}

impl PositionArgs {
    /// The board size and the OBF line of `--position` (read from its file if it
    /// names one), checked to agree.
    pub fn resolve(&self) -> Result<(u32, Option<String>)> {
        let text = self.position.as_deref().map(obf_text).transpose()?;
        Ok((resolve_size(self.size, text.as_deref())?, text))
    }
}

/// Options of `reversi-lab perft`.
#[derive(Clone, Debug, clap::Args)]
pub struct PerftArgs {
    /// Plies to search (0 to 30; depth 0 counts the position itself: 1).
    pub depth: u32,
    /// Where the position comes from.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Threads to share the root moves among.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Flip kernel: portable, carry or avx2 (default: the fastest on this CPU,
    /// measured in a few milliseconds for 8x8 depths of 10 or more).
    #[arg(long, value_parser = parse_kernel)]
    pub kernel: Option<FlipKernel>,
}

fn parse_kernel(text: &str) -> std::result::Result<FlipKernel, String> {
    let names: Vec<&str> = FlipKernel::ALL.iter().map(|k| k.name()).collect();
    FlipKernel::ALL
        .iter()
        .copied()
        .find(|k| k.name() == text)
        .ok_or_else(|| format!("unknown kernel '{text}': use one of {}", names.join(", ")))
}

/// Options of `reversi-lab show`.
#[derive(Clone, Debug, clap::Args)]
pub struct ShowArgs {
    /// Moves to play first, as a transcript such as f5d6c3.
    pub moves: Option<String>,
    /// Where the position comes from.
    #[command(flatten)]
    pub position: PositionArgs,
}

/// `reversi-lab perft`: prints the leaf count on its own line, then time and speed.
pub fn perft(args: &PerftArgs, out: &mut dyn Write) -> Result<Outcome> {
    perft_command(
        args.depth,
        args.position.size,
        args.position.position.as_deref(),
        args.threads,
        args.kernel,
        out,
    )
    .map(|_| Outcome::Finished)
}

/// `reversi-lab show`.
pub fn show(args: &ShowArgs, out: &mut dyn Write) -> Result<Outcome> {
    show_command(
        args.position.size,
        args.position.position.as_deref(),
        args.moves.as_deref(),
        out,
    )
    .map(|()| Outcome::Finished)
}

fn perft_command(
    depth: u32,
    size: Option<u32>,
    position: Option<&str>,
    threads: usize,
    kernel: Option<FlipKernel>,
    out: &mut dyn Write,
) -> Result<u64> {
    // Depth 0 counts the position itself (1), as the library and Python's perft do.
    if depth > MAX_PERFT_DEPTH {
        return Err(Error::input(format!(
            "perft depth {depth} is out of range: use 0 to {MAX_PERFT_DEPTH}"
        )));
    }
    check_threads(threads, &THREADS)?;
    let text = position.map(obf_text).transpose()?;
    let size = resolve_size(size, text.as_deref())?;
    let (leaves, kernel, seconds) = with_geometry!(size, G => {
        let board = parse_position::<G>(text.as_deref())?.board;
        // Measuring the kernels is part of the time: the rate is what a user gets.
        let started = Instant::now();
        let kernel = match kernel {
            // The other sizes have only the portable code (see `FlipKernel`).
            Some(kernel) if G::CELLS == 64 || kernel == FlipKernel::Portable => kernel,
            Some(kernel) => {
                return Err(Error::input(format!(
                    "--kernel {}: only the 8x8 board has the {} kernel (this board is {size}x{size}): use --kernel portable, or leave --kernel out",
                    kernel.name(),
                    kernel.name()
                )))
            }
            None => perft_kernel::<G>(depth),
        };
        let leaves = if threads == 1 {
            perft_with(board, depth, kernel)
        } else {
            thread_pool(Some(threads))?.install(|| perft_parallel_with(board, depth, kernel))
        };
        (leaves, kernel, started.elapsed().as_secs_f64())
    });
    let rate = leaves as f64 / seconds.max(1e-9);
    writeln!(out, "{leaves}").said()?;
    writeln!(
        out,
        "time {seconds:.3} s, {:.1} M leaves/s ({size}x{size}, depth {depth}, {}, {} flips)",
        rate / 1e6,
        reversi_lab::numbers::counted(threads as u64, "thread"),
        kernel.name()
    )
    .said()?;
    Ok(leaves)
}

/// Draws a position (the start, an OBF line, and/or a transcript played from it)
/// with its OBF line and legal moves.
fn show_command(
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
        // The side the position names may have no move: the game passes for it.
        let passed = !game.is_over() && game.side() != start.side;
        if let Some(moves) = moves {
            game.play_transcript(moves).map_err(|e| Error::input(e.to_string()))?;
        }
        let legal: Vec<String> = squares(game.board().moves()).map(|s| s.name(G::SIZE)).collect();
        writeln!(out, "{game}").said()?;
        writeln!(out, "obf: {}", game.position().to_obf()).said()?;
        if passed {
            writeln!(
                out,
                "{} has no legal move and passes (at the start)",
                start.side
            )
            .said()?;
        }
        if let Some(outcome) = game.outcome(reversi_lab::game::Rules::default()) {
            let result = crate::commands::interactive::result_text(&outcome, reversi_lab::game::Rules::default());
            writeln!(out, "game over: {result}").said()?;
        } else {
            writeln!(out, "legal moves: {}", legal.join(" ")).said()?;
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
        let leaves = perft_command(5, None, None, 1, None, &mut out).unwrap();
        assert_eq!(leaves, 1396);
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("1396\ntime "), "{text}");
    }

    #[test]
    fn a_named_kernel_counts_the_same_and_is_reported() {
        for &kernel in FlipKernel::ALL {
            let mut out = Vec::new();
            let leaves = perft_command(6, None, None, 1, Some(kernel), &mut out).unwrap();
            assert_eq!(leaves, 8200);
            let text = String::from_utf8(out).unwrap();
            assert!(
                text.contains(&format!("1 thread, {} flips)", kernel.name())),
                "{text}"
            );
        }
        // Other sizes have only the portable code: another kernel is refused.
        let mut out = Vec::new();
        perft_command(4, Some(6), None, 1, Some(FlipKernel::Portable), &mut out).unwrap();
        assert!(String::from_utf8(out).unwrap().contains("portable flips"));
        let err = perft_command(
            4,
            Some(6),
            None,
            1,
            Some(FlipKernel::Carry),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(err.exit_code(), 2, "{err}");
        assert!(
            err.to_string()
                .starts_with("--kernel carry: only the 8x8 board"),
            "{err}"
        );
        assert_eq!(parse_kernel("carry"), Ok(FlipKernel::Carry));
        let err = parse_kernel("sse").unwrap_err();
        assert!(
            err.starts_with("unknown kernel 'sse': use one of portable, carry"),
            "{err}"
        );
    }

    #[test]
    fn bad_inputs_are_input_errors() {
        let mut out = Vec::new();
        for result in [
            perft_command(31, None, None, 1, None, &mut out),
            perft_command(99, None, None, 1, None, &mut out),
            perft_command(3, Some(7), None, 1, None, &mut out),
            perft_command(3, None, Some("XXO X"), 1, None, &mut out),
            perft_command(
                3,
                Some(6),
                Some(&format!("{} X", "-".repeat(64))),
                1,
                None,
                &mut out,
            ),
        ] {
            let err = result.unwrap_err();
            assert_eq!(err.exit_code(), 2, "{err}");
        }
    }
}
