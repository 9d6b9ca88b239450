//! `reversi-lab solve`: the exact endgame solver over the positions of an OBF file.

use super::{Outcome, OutputFormat, RulesArgs, Said};
use reversi_lab::board::{squares, Geometry, Position, Square};
use reversi_lab::error::{Error, Result};
use reversi_lab::lab::setup::{check_threads, size_of_obf, THREADS};
use reversi_lab::strategy::{Budget, Memory, Mode, Solver};
use reversi_lab::with_geometry;
use std::io::{IsTerminal, Write};
use std::time::Instant;

/// Options of `reversi-lab solve`.
#[derive(Clone, Debug, clap::Args)]
pub struct SolveArgs {
    /// OBF file: one position per line.
    pub file: std::path::PathBuf,
    /// log2 of the transposition table's entries (10 to 26; allocated once for the run).
    #[arg(long, default_value_t = 22)]
    pub table_bits: u32,
    /// Give up on a position after this many nodes (it is reported as unsolved).
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Give up on a position after this many seconds (it is reported as unsolved).
    #[arg(long)]
    pub time: Option<f64>,
    /// Report every best move (slower: each must be proved equal), not just one.
    #[arg(long)]
    pub all: bool,
    /// Threads searching each position (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Scoring rules.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Output: a line per position for people, or one JSON object per line for scripts.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

/// The most empty squares `solve` takes without `--time` or `--max-nodes`: the
/// hardest FFO positions (36 empties) take hours; past that, years.
const MAX_UNBUDGETED_EMPTIES: usize = 36;

/// Refuses a table larger than half the machine's available memory.
fn check_table_memory<G: Geometry>(bits: u32) -> Result<()> {
    let bytes = reversi_lab::strategy::SolverTable::<G>::bytes(bits);
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                .map(|kib| kib * 1024)
        });
    match available {
        Some(available) if bytes > available / 2 => Err(Error::input(format!(
            "--table-bits {bits} needs {} MB for the table but only {} MB of memory is available: use fewer bits",
            bytes >> 20,
            available >> 20
        ))),
        _ => Ok(()),
    }
}

/// The scores an OBF line's comment gives for its moves (`; G8:+18; H1:+12;`), best
/// first. Every item of the comment must be a square of the board (or `PA` for a
/// pass) with a whole-number score: a typo must not leave a line unchecked.
fn annotated_scores(line: &str, size: u32) -> std::result::Result<Vec<(String, i32)>, String> {
    line.split(';')
        .skip(1)
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            let malformed =
                || format!("the annotation '{item}' is not a move and its score, such as G8:+18");
            let (mv, score) = item.split_once(':').ok_or_else(malformed)?;
            let mv = mv.trim().to_ascii_lowercase();
            let score: i32 = score.trim().parse().map_err(|_| malformed())?;
            let named = mv == "pa" || mv == "pass" || Square::parse(&mv, size).is_some();
            if !named {
                return Err(format!(
                    "the annotation '{item}' names '{mv}', not a square of the {size}x{size} board"
                ));
            }
            Ok((if mv == "pa" { "pass".into() } else { mv }, score))
        })
        .collect()
}

/// `reversi-lab solve`: solves every position of an OBF file exactly and prints
/// best move, score, nodes and time per position; where the file gives scores,
/// checks them. Returns false if any score disagrees.
pub fn solve(args: &SolveArgs, out: &mut dyn Write) -> Result<Outcome> {
    let path = &args.file;
    let table_bits = args.table_bits;
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
    if !(10..=26).contains(&table_bits) {
        return Err(Error::input(format!(
            "--table-bits {table_bits} is out of range: use 10 to 26"
        )));
    }
    let budget = Budget {
        nodes: match args.max_nodes {
            Some(0) => {
                return Err(Error::input(
                    "--max-nodes 0: give at least 1 node, or leave it out",
                ))
            }
            other => other,
        },
        time: match args.time {
            Some(t) => match std::time::Duration::try_from_secs_f64(t) {
                Ok(time) if t > 0.0 && t <= 1e9 => Some(time),
                _ => {
                    return Err(Error::input(format!(
                        "--time {}: give a number of seconds above 0 and at most 1e9, such as 60",
                        reversi_lab::numbers::plain(t)
                    )))
                }
            },
            None => None,
        },
    };
    let threads = match args.threads {
        None => std::thread::available_parallelism().map_or(1, usize::from),
        Some(t) => check_threads(t, &THREADS)?,
    };
    let mode = if args.all { Mode::All } else { Mode::One };
    let solver = Solver::new(args.rules.rules(), table_bits)
        .with_mode(mode)
        .with_threads(threads);
    let sizes: Vec<u32> = lines
        .iter()
        .map(|&(number, line)| {
            size_of_obf(line)
                .map_err(|e| Error::input(format!("{}:{}: {e}", path.display(), number + 1)))
        })
        .collect::<Result<_>>()?;
    // Without a budget, a position far from the end would run for years: refused.
    if budget.nodes.is_none() && budget.time.is_none() {
        for &(number, line) in &lines {
            let empties = line
                .split_whitespace()
                .next()
                .map_or(0, |board| board.bytes().filter(|&b| b == b'-').count());
            if empties > MAX_UNBUDGETED_EMPTIES {
                return Err(Error::input(format!(
                    "{}:{}: the position has {empties} empty squares, too many to solve exactly without a budget (the FFO suites have 20 to 36): give --time SECONDS or --max-nodes N, or a position with at most {MAX_UNBUDGETED_EMPTIES} empties",
                    path.display(),
                    number + 1
                )));
            }
        }
    }
    // Read before the first solve, so a typo on the last line is not found hours in.
    let annotations: Vec<Vec<(String, i32)>> = lines
        .iter()
        .zip(&sizes)
        .map(|(&(number, line), &size)| {
            annotated_scores(line, size).map_err(|e| {
                Error::input(format!(
                    "{}:{}: {e}: correct it, or remove the annotation",
                    path.display(),
                    number + 1
                ))
            })
        })
        .collect::<Result<_>>()?;
    let started = Instant::now();
    let mut all_ok = true;
    let mut unsolved = 0;
    let mut total_nodes = 0u64;
    let progress = std::io::stderr().is_terminal();
    // One table per board size, made once for the whole file: its allocation is
    // part of the time reported (but not of any one position's).
    let mut memories: [Option<Box<dyn std::any::Any>>; 4] = Default::default();
    for ((&(number, line), &size), expected) in lines.iter().zip(&sizes).zip(&annotations) {
        let located = |e: &dyn std::fmt::Display| {
            Error::input(format!("{}:{}: {e}", path.display(), number + 1))
        };
        with_geometry!(size, G => {
            let position = Position::<G>::from_obf(line).map_err(|e| located(&e))?;
            let slot = &mut memories[(size / 2 - 2) as usize];
            if slot.is_none() {
                check_table_memory::<G>(table_bits)?;
                let mut memory = Memory::<G>::new();
                let _ = reversi_lab::strategy::SolverTable::kept(&mut memory, table_bits);
                *slot = Some(Box::new(memory));
            }
            let memory = slot
                .as_mut()
                .and_then(|m| m.downcast_mut::<Memory<G>>())
                .expect("made for this size");
            memory.new_game();
            if progress {
                eprint!("\rsolving line {} ({} empties)...", number + 1, position.board.empty_count());
            }
            let clock = Instant::now();
            let outcome = solver.solve_within(position.board, memory, budget);
            let seconds = clock.elapsed().as_secs_f64();
            if progress {
                eprint!("\r\x1b[K");
            }
            let solution = match outcome {
                Ok(solution) => solution,
                Err(nodes) => {
                    unsolved += 1;
                    total_nodes += nodes;
                    let text = match args.format {
                        OutputFormat::Text => format!(
                            "line {:>3}  empties {:>2}  UNSOLVED: gave up after {nodes} nodes and {seconds:.3} s (--max-nodes/--time)",
                            number + 1,
                            position.board.empty_count(),
                        ),
                        OutputFormat::Json => serde_json::json!({
                            "line": number + 1,
                            "empties": position.board.empty_count(),
                            "solved": false,
                            "nodes": nodes,
                            "seconds": seconds,
                        })
                        .to_string(),
                    };
                    writeln!(out, "{text}").said()?;
                    continue;
                }
            };
            total_nodes += solution.nodes;
            let best: Vec<String> = squares(solution.best).map(|s| s.name(G::SIZE)).collect();
            let best_text = if best.is_empty() { "pass".to_string() } else { best.join(",") };
            let agrees = expected.first().map(|&(_, score)| score).map(|score| {
                let best_listed: Vec<&str> = expected.iter().filter(|(_, s)| *s == score).map(|(m, _)| m.as_str()).collect();
                let ok = score == solution.score && best.iter().all(|m| best_listed.contains(&m.as_str()));
                all_ok &= ok;
                (score, best_listed.join(","), ok)
            });
            let check = match &agrees {
                None => String::new(),
                Some((score, _, true)) => format!("  expected {score:+}: ok"),
                Some((score, listed, false)) => format!("  expected {score:+} ({listed}): MISMATCH"),
            };
            if args.format == OutputFormat::Json {
                let json = serde_json::json!({
                    "line": number + 1,
                    "empties": position.board.empty_count(),
                    "solved": true,
                    "best": best,
                    "score": solution.score,
                    "nodes": solution.nodes,
                    "seconds": seconds,
                    "expected": agrees.as_ref().map(|a| a.0),
                    "agrees": agrees.as_ref().map(|a| a.2),
                });
                writeln!(out, "{json}").said()?;
                continue;
            }
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
            .said()?;
        });
    }
    let total_time = started.elapsed().as_secs_f64();
    if args.format == OutputFormat::Json {
        let json = serde_json::json!({
            "positions": lines.len(),
            "nodes": total_nodes,
            "seconds": total_time,
            "unsolved": unsolved,
            "all_agree": all_ok,
        });
        writeln!(out, "{json}").said()?;
        return Ok(agreed(all_ok && unsolved == 0));
    }
    writeln!(
        out,
        "{}, {} nodes, {:.3} s, {:.1} M nodes/s{}{}",
        reversi_lab::numbers::counted(lines.len() as u64, "position"),
        total_nodes,
        total_time,
        total_nodes as f64 / total_time.max(1e-9) / 1e6,
        if unsolved > 0 {
            format!(", {unsolved} UNSOLVED")
        } else {
            String::new()
        },
        if all_ok { "" } else { ", SOME SCORES DISAGREE" }
    )
    .said()?;
    Ok(agreed(all_ok && unsolved == 0))
}

/// `solve`'s outcome: every position solved, and agreeing with the scores its file lists.
const fn agreed(all: bool) -> Outcome {
    if all {
        Outcome::Finished
    } else {
        Outcome::Disagreed
    }
}
