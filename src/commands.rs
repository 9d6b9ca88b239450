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
        let text = std::fs::read_to_string(path).map_err(|e| Error::unreadable(path, &e))?;
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

/// `reversi-lab strategies`: every strategy with its parameters and defaults.
pub fn strategies_command(out: &mut dyn Write) -> Result<()> {
    write!(out, "{}", crate::strategy::spec::describe_kinds()).ok();
    Ok(())
}

/// A rayon pool of `threads` threads (0: one per core).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::input(format!("cannot start {threads} threads: {e}")))
}

/// Options of `reversi-lab match`.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    /// Games to play (colours alternate).
    pub games: u64,
    /// The match seed.
    pub seed: u64,
    /// Threads (0: all cores).
    pub threads: usize,
    /// Board size.
    pub size: u32,
    /// Scoring rules.
    pub rules: crate::game::Rules,
}

/// `reversi-lab match`: plays A against B and prints the one-line summary on
/// stdout (and the speed on stderr).
pub fn match_command(
    a: &str,
    b: &str,
    options: &MatchOptions,
    out: &mut dyn Write,
) -> Result<crate::play::Tally> {
    use crate::strategy::StrategySpec;
    let spec_a = StrategySpec::parse(a).map_err(|e| Error::input(format!("strategy A: {e}")))?;
    let spec_b = StrategySpec::parse(b).map_err(|e| Error::input(format!("strategy B: {e}")))?;
    if options.games == 0 {
        return Err(Error::input("--games 0: play at least 1 game"));
    }
    let size = validate_size(options.size)?;
    let pool = thread_pool(options.threads)?;
    let started = Instant::now();
    let tally = with_geometry!(size, G => {
        let sa = spec_a.build::<G>(options.rules).map_err(|e| Error::input(format!("strategy A: {e}")))?;
        let sb = spec_b.build::<G>(options.rules).map_err(|e| Error::input(format!("strategy B: {e}")))?;
        pool.install(|| crate::play::play_match::<G>(sa.as_ref(), sb.as_ref(), options.rules, options.games, options.seed))
    });
    let seconds = started.elapsed().as_secs_f64();
    writeln!(out, "{}", crate::play::summary(&tally, a, b)).ok();
    eprintln!(
        "{} games in {seconds:.2} s ({:.0} games/s, {} threads, seed {})",
        tally.games(),
        tally.games() as f64 / seconds.max(1e-9),
        pool.current_num_threads(),
        options.seed
    );
    Ok(tally)
}

/// The scores an OBF line's comment gives for its moves (`; G8:+18; H1:+12;`), best first.
fn annotated_scores(line: &str) -> Vec<(String, i32)> {
    line.split(';')
        .skip(1)
        .filter_map(|item| {
            let (mv, score) = item.trim().split_once(':')?;
            Some((mv.trim().to_ascii_lowercase(), score.trim().parse().ok()?))
        })
        .collect()
}

/// `reversi-lab solve`: solves every position of an OBF file exactly and prints
/// best move, score, nodes and time per position; where the file gives scores,
/// checks them. Returns false if any score disagrees.
pub fn solve_command(
    path: &std::path::Path,
    rules: crate::game::Rules,
    table_bits: u32,
    out: &mut dyn Write,
) -> Result<bool> {
    use crate::strategy::{Memory, Solver};
    let text = std::fs::read_to_string(path).map_err(|e| Error::unreadable(path, &e))?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('%') && !l.starts_with('#'))
        .collect();
    if lines.is_empty() {
        return Err(Error::input(format!(
            "{}: no positions in the file (one OBF line per position)",
            path.display()
        )));
    }
    if !(10..=28).contains(&table_bits) {
        return Err(Error::input(format!(
            "--table-bits {table_bits} is out of range: use 10 to 28"
        )));
    }
    let solver = Solver { rules, table_bits };
    let mut all_ok = true;
    let (mut total_nodes, mut total_time) = (0u64, 0.0f64);
    for &(number, line) in &lines {
        let size = size_of_obf(line)
            .map_err(|e| Error::input(format!("{}:{}: {e}", path.display(), number + 1)))?;
        with_geometry!(size, G => {
            let position = Position::<G>::from_obf(line)
                .map_err(|e| Error::input(format!("{}:{}: {e}", path.display(), number + 1)))?;
            // The table is made before the clock starts: allocating it is not solving.
            let mut memory = Memory::<G>::new();
            let _ = memory.solver_table(table_bits);
            let started = Instant::now();
            let solution = solver.solve(position.board, &mut memory);
            let seconds = started.elapsed().as_secs_f64();
            total_nodes += solution.nodes;
            total_time += seconds;
            let best: Vec<String> = squares(solution.best).map(|s| s.name(G::SIZE)).collect();
            let best_text = if best.is_empty() { "pass".to_string() } else { best.join(",") };
            let expected = annotated_scores(line);
            let check = match expected.first() {
                None => String::new(),
                Some(&(_, score)) => {
                    let best_listed: Vec<&str> = expected.iter().filter(|(_, s)| *s == score).map(|(m, _)| m.as_str()).collect();
                    let moves_ok = best.iter().all(|m| best_listed.contains(&m.as_str()));
                    if score == solution.score && moves_ok {
                        format!("  expected {score:+}: ok")
                    } else {
                        all_ok = false;
                        format!("  expected {score:+} ({}): MISMATCH", best_listed.join(","))
                    }
                }
            };
            writeln!(
                out,
                "line {:>3}  empties {:>2}  best {:<8} score {:+4}  nodes {:>12}  time {:>8.3} s  ({:.1} M nodes/s){check}",
                number + 1,
                position.board.empty_count(),
                best_text,
                solution.score,
                solution.nodes,
                seconds,
                solution.nodes as f64 / seconds.max(1e-9) / 1e6
            )
            .ok();
        });
    }
    writeln!(
        out,
        "{} positions, {} nodes, {:.3} s, {:.1} M nodes/s{}",
        lines.len(),
        total_nodes,
        total_time,
        total_nodes as f64 / total_time.max(1e-9) / 1e6,
        if all_ok { "" } else { ", SOME SCORES DISAGREE" }
    )
    .ok();
    Ok(all_ok)
}

/// The built-in default experiment (also committed as `experiments/default.toml`).
pub const DEFAULT_EXPERIMENT: &str = include_str!("../experiments/default.toml");

/// Options of `reversi-lab run` besides the config.
pub struct RunCommand<'a> {
    /// The experiment file (None: the built-in default).
    pub config: Option<&'a std::path::Path>,
    /// Results folder.
    pub out: Option<std::path::PathBuf>,
    /// Threads (overrides the experiment).
    pub threads: Option<usize>,
    /// Games per pair (overrides the experiment).
    pub games: Option<u64>,
    /// Seed (overrides the experiment).
    pub seed: Option<u64>,
    /// Continue an interrupted run.
    pub resume: bool,
    /// No progress bar.
    pub quiet: bool,
    /// Skip the charts and report at the end.
    pub no_report: bool,
}

/// `reversi-lab report`: charts, report.md and report.html for a results folder.
pub fn report_command(dir: &std::path::Path, out: &mut dyn Write) -> Result<()> {
    let written = crate::report::write_report(dir)?;
    writeln!(
        out,
        "wrote {} files: {} and charts in {}",
        written.len(),
        dir.join("report.html").display(),
        dir.join("charts").display()
    )
    .ok();
    Ok(())
}

/// `reversi-lab run`: loads, overrides, validates and plays an experiment.
pub fn run_command(
    options: &RunCommand<'_>,
    stop: &std::sync::atomic::AtomicBool,
    out: &mut dyn Write,
) -> Result<crate::runner::RunSummary> {
    use crate::experiment::Experiment;
    let mut experiment = match options.config {
        Some(path) => Experiment::load(path)?,
        None => Experiment::parse(
            DEFAULT_EXPERIMENT,
            "built-in default experiment",
            std::path::Path::new("experiments"),
        )?,
    };
    if let Some(games) = options.games {
        if games == 0 || games % 2 == 1 {
            return Err(Error::input(format!(
                "--games {games}: games per pair must be even and at least 2 (each opening is played with both colours)"
            )));
        }
        experiment.games_per_pair = games;
    }
    if let Some(seed) = options.seed {
        experiment.seed = seed;
    }
    if let Some(threads) = options.threads {
        if threads == 0 {
            return Err(Error::input("--threads 0: use at least 1 thread"));
        }
        experiment.threads = Some(threads);
    }
    let run_options = crate::runner::RunOptions {
        out: options.out.clone(),
        resume: options.resume,
        quiet: options.quiet,
        stop,
    };
    let summary = crate::runner::run(&experiment, &run_options)?;
    writeln!(out, "{}", summary.line()).ok();
    if summary.status != crate::runner::Status::Interrupted && !options.no_report {
        report_command(&summary.out, out)?;
    }
    Ok(summary)
}

/// `reversi-lab tune`: prints the tuned parameters and the validation lines.
/// Returns true if the tune was interrupted.
pub fn tune_command(
    config: &std::path::Path,
    out_dir: Option<std::path::PathBuf>,
    resume: bool,
    quiet: bool,
    stop: &std::sync::atomic::AtomicBool,
    out: &mut dyn Write,
) -> Result<bool> {
    let summary = crate::tune::tune(config, out_dir, resume, quiet, stop)?;
    for line in &summary.lines {
        writeln!(out, "{line}").ok();
    }
    if summary.interrupted {
        writeln!(
            out,
            "interrupted: rerun with --resume to continue ({})",
            summary.out.display()
        )
        .ok();
    } else {
        writeln!(out, "results in {}", summary.out.display()).ok();
    }
    Ok(summary.interrupted)
}

/// `reversi-lab ablate`: prints the run's line and the table of feature worths.
/// Returns true if the run was interrupted.
pub fn ablate_command(
    config: &std::path::Path,
    out_dir: Option<std::path::PathBuf>,
    games: Option<u64>,
    resume: bool,
    quiet: bool,
    stop: &std::sync::atomic::AtomicBool,
    out: &mut dyn Write,
) -> Result<bool> {
    let (summary, table) = crate::ablate::ablate(config, out_dir, games, quiet, stop, resume)?;
    writeln!(out, "{}", summary.line()).ok();
    write!(out, "{table}").ok();
    Ok(summary.status == crate::runner::Status::Interrupted)
}
