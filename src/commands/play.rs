//! `strategies`, `match` and `solve`: commands about strategies themselves.

use super::position::size_of_obf;
use crate::board::{squares, Geometry, Position};
use crate::error::{Error, Result};
use crate::game::{Rules, Scoring};
use crate::lab::setup::check_size;
use crate::lab::{Driver, Schedule, Setup};
use crate::stats::{Paired, Pentanomial, Trinomial};
use crate::strategy::{Budget, Memory, Solver, Strategy, StrategySpec};
use crate::with_geometry;
use std::io::{IsTerminal, Write};
use std::time::Instant;

/// Scoring rules on the command line.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct RulesArgs {
    /// Anti-reversi: the side with fewer discs wins.
    #[arg(long)]
    pub anti: bool,
    /// How empty squares at the end count: winner-gets-empties or count.
    #[arg(long, default_value = "winner-gets-empties", value_parser = parse_scoring)]
    pub scoring: Scoring,
}

impl RulesArgs {
    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        Rules {
            scoring: self.scoring,
            anti: self.anti,
        }
    }
}

fn parse_scoring(text: &str) -> std::result::Result<Scoring, String> {
    match text {
        "winner-gets-empties" => Ok(Scoring::WinnerGetsEmpties),
        "count" => Ok(Scoring::Count),
        other => Err(format!(
            "unknown scoring '{other}': use winner-gets-empties or count"
        )),
    }
}

/// `reversi-lab strategies`: every strategy with its parameters and defaults.
pub fn strategies(out: &mut dyn Write) -> Result<()> {
    write!(out, "{}", crate::strategy::spec::describe_kinds()).ok();
    Ok(())
}

/// Options of `reversi-lab match`.
#[derive(Clone, Debug, clap::Args)]
pub struct MatchArgs {
    /// Strategy A, as a spec such as `alphabeta:depth=4,eval=mobility` (see `strategies`).
    pub a: String,
    /// Strategy B.
    pub b: String,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Seed: the same seed replays the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Board size: 4, 6, 8 or 10.
    #[arg(long, default_value_t = 8)]
    pub size: u32,
    /// Scoring rules.
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// A match's results, addable in any order (the driver sums games in parallel):
/// every game, and the colour-swapped game pairs (games 2k and 2k+1 start from the
/// same position with colours swapped) once both of their games are in.
#[derive(Clone, Debug, Default)]
pub struct MatchTally {
    /// The games and the complete pairs.
    pub paired: Paired,
    /// Games of a contiguous run whose twin is outside it, by game number, with A's
    /// points: only its first and last game can be such, so a run holds at most two
    /// and adding runs allocates nothing.
    open: [Option<(u64, f64)>; 2],
}

impl MatchTally {
    /// One game: game number `game` of the match, A's margin in it.
    #[must_use]
    pub fn game(game: u64, a_margin: i32) -> Self {
        let t = Trinomial::of_margin(a_margin);
        MatchTally {
            paired: Paired {
                games: t,
                pairs: Pentanomial::default(),
            },
            open: [Some((game, t.points())), None],
        }
    }
}

impl std::ops::Add for MatchTally {
    type Output = Self;
    /// Adds the run after `self` (rayon keeps runs in order), pairing the twins
    /// that meet at the seam.
    fn add(mut self, other: Self) -> Self {
        self.paired.games += other.paired.games;
        self.paired.pairs += other.paired.pairs;
        let [a, b] = self.open;
        let [c, d] = other.open;
        let mut open = [a, b, c, d];
        open.sort_by_key(|item| item.map_or(u64::MAX, |(game, _)| game));
        let count = open.iter().flatten().count();
        let open: [(u64, f64); 4] = open.map(|item| item.unwrap_or((u64::MAX, 0.0)));
        let mut left = [None, None];
        let mut k = 0;
        let mut i = 0;
        while i < count {
            if i + 1 < count && open[i].0 / 2 == open[i + 1].0 / 2 {
                self.paired.pairs.record(open[i].1 + open[i + 1].1);
                i += 2;
            } else {
                debug_assert!(k < 2, "a contiguous run has at most two open games");
                left[k.min(1)] = Some(open[i]);
                k += 1;
                i += 1;
            }
        }
        self.open = left;
        self
    }
}

impl std::iter::Sum for MatchTally {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::default(), std::ops::Add::add)
    }
}

/// The one-line match summary `A vs B: W wins, D draws, L losses (win rate X%,
/// score Y% [L%, H%], 95% pentanomial interval over N game pairs)`: the score
/// interval of the colour-swapped game pairs when every game is in one (an even
/// number of games), else the per-game (trinomial) one over the games.
#[must_use]
pub fn summary(tally: &MatchTally, a: &str, b: &str) -> String {
    let games = &tally.paired.games;
    let score = tally.paired.interval95();
    format!(
        "{a} vs {b}: {} wins, {} draws, {} losses (win rate {:.1}%, score {:.1}% [{:.1}%, {:.1}%], 95% {} interval over {} {})",
        games.wins,
        games.draws,
        games.losses,
        100.0 * games.wins as f64 / games.games().max(1) as f64,
        100.0 * score.mean,
        100.0 * score.low,
        100.0 * score.high,
        score.model.name(),
        score.n,
        score.model.unit()
    )
}

/// `reversi-lab match`: plays A against B from the start, colours alternating (A
/// black in even games), through the lab's schedule (one pair) and play driver;
/// prints the one-line summary on stdout and the speed on stderr. Returns A's tally.
pub fn play_match(args: &MatchArgs, out: &mut dyn Write) -> Result<Trinomial> {
    let spec_a =
        StrategySpec::parse(&args.a).map_err(|e| Error::input(format!("strategy A: {e}")))?;
    let spec_b =
        StrategySpec::parse(&args.b).map_err(|e| Error::input(format!("strategy B: {e}")))?;
    if args.games == 0 {
        return Err(Error::input("--games 0: play at least 1 game"));
    }
    let setup = Setup {
        seed: args.seed,
        size: check_size(args.size)?,
        rules: args.rules.rules(),
        threads: (args.threads > 0).then_some(args.threads),
        ..Setup::default()
    };
    let schedule = Schedule::new(&setup, vec![(0, 1)], args.games);
    let started = Instant::now();
    let (tally, threads) = with_geometry!(setup.size, G => {
        let empties = setup.start_empties();
        let sa = spec_a.check_practical(empties).and_then(|()| spec_a.build::<G>(setup.rules)).map_err(|e| Error::input(format!("strategy A: {e}")))?;
        let sb = spec_b.check_practical(empties).and_then(|()| spec_b.build::<G>(setup.rules)).map_err(|e| Error::input(format!("strategy B: {e}")))?;
        let players: [&dyn Strategy<G>; 2] = [sa.as_ref(), sb.as_ref()];
        let driver = Driver::<G>::new(setup.threads)?;
        let tally: MatchTally = driver
            .sum(
                &players,
                0..args.games,
                |g| {
                    let (slot, _, deal) = schedule.deal::<G>(g);
                    (slot, deal)
                },
                |g, slot, game| {
                    let margin = game.outcome(setup.rules).expect("played to the end").margin;
                    MatchTally::game(g, if slot.a_black() { margin } else { -margin })
                },
            );
        (tally, driver.threads())
    });
    let seconds = started.elapsed().as_secs_f64();
    writeln!(out, "{}", summary(&tally, &args.a, &args.b)).ok();
    let tally = tally.paired.games;
    eprintln!(
        "{} games in {seconds:.2} s ({:.0} games/s, {threads} thread{}, seed {})",
        tally.games(),
        tally.games() as f64 / seconds.max(1e-9),
        if threads == 1 { "" } else { "s" },
        args.seed
    );
    Ok(tally)
}

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
    /// Scoring rules.
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Refuses a table larger than half the machine's available memory.
fn check_table_memory<G: Geometry>(bits: u32) -> Result<()> {
    let bytes = crate::strategy::TranspositionTable::<G>::bytes(bits);
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
pub fn solve(args: &SolveArgs, out: &mut dyn Write) -> Result<bool> {
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
            Some(t) if !(t.is_finite() && t > 0.0) => {
                return Err(Error::input(format!(
                    "--time {t}: give a number of seconds above 0, such as 60"
                )))
            }
            other => other.map(std::time::Duration::from_secs_f64),
        },
    };
    let solver = Solver {
        rules: args.rules.rules(),
        table_bits,
    };
    let sizes: Vec<u32> = lines
        .iter()
        .map(|&(number, line)| {
            size_of_obf(line)
                .map_err(|e| Error::input(format!("{}:{}: {e}", path.display(), number + 1)))
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
    for (&(number, line), &size) in lines.iter().zip(&sizes) {
        let located = |e: &dyn std::fmt::Display| {
            Error::input(format!("{}:{}: {e}", path.display(), number + 1))
        };
        with_geometry!(size, G => {
            let position = Position::<G>::from_obf(line).map_err(|e| located(&e))?;
            let slot = &mut memories[(size / 2 - 2) as usize];
            if slot.is_none() {
                check_table_memory::<G>(table_bits)?;
                let mut memory = Memory::<G>::new();
                let _ = memory.solver_table(table_bits);
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
                    writeln!(
                        out,
                        "line {:>3}  empties {:>2}  UNSOLVED: gave up after {nodes} nodes and {seconds:.3} s (--max-nodes/--time)",
                        number + 1,
                        position.board.empty_count(),
                    )
                    .ok();
                    continue;
                }
            };
            total_nodes += solution.nodes;
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
    let total_time = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "{} positions, {} nodes, {:.3} s, {:.1} M nodes/s{}{}",
        lines.len(),
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
    .ok();
    Ok(all_ok && unsolved == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tally_summary_and_interval() {
        // 100 games in 50 colour-swapped pairs: A wins both games of 20 pairs,
        // wins one and loses one in 20, loses both in 10.
        let mut games = Vec::new();
        for pair in 0..50u64 {
            let (first, second) = match pair {
                0..20 => (1, 1),
                20..40 => (1, -1),
                _ => (-1, -1),
            };
            games.push(MatchTally::game(2 * pair, first));
            games.push(MatchTally::game(2 * pair + 1, second));
        }
        // Any order of addition gives the same tally.
        let forward: MatchTally = games.iter().cloned().sum();
        let backward: MatchTally = games.iter().rev().cloned().sum();
        assert_eq!(forward.paired, backward.paired);
        assert_eq!(forward.paired.pairs.0, [10, 0, 20, 0, 20]);
        let interval = forward.paired.pairs.interval95();
        let line = summary(&forward, "A", "B");
        assert_eq!(
            line,
            format!(
                "A vs B: 60 wins, 0 draws, 40 losses (win rate 60.0%, score 60.0% [{:.1}%, {:.1}%], 95% pentanomial interval over 50 game pairs)",
                100.0 * interval.low,
                100.0 * interval.high
            )
        );
        // One game more: not every game is in a pair, so the per-game interval.
        let odd = forward + MatchTally::game(100, 0);
        assert!(summary(&odd, "A", "B").ends_with("95% trinomial interval over 101 games)"));
    }

    #[test]
    fn match_tallies_pair_twins_across_any_split() {
        let margins: Vec<i32> = (0..37).map(|g| g * 7 % 5 - 2).collect();
        let one = |range: std::ops::Range<usize>| -> MatchTally {
            range.map(|g| MatchTally::game(g as u64, margins[g])).sum()
        };
        let whole = one(0..margins.len());
        assert_eq!(whole.paired.pairs.pairs(), 18);
        for cut in 0..margins.len() {
            for second in cut..margins.len() {
                let split = one(0..cut) + one(cut..second) + one(second..margins.len());
                assert_eq!(split.paired.pairs, whole.paired.pairs, "{cut} {second}");
                assert_eq!(split.paired.games, whole.paired.games);
            }
        }
    }
}
