//! The `reversi-lab` command line: parses arguments and hands them to the library.

use clap::{Parser, Subcommand};
use reversi_lab::commands::{self, Ending};
use reversi_lab::Result;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// A research harness for Reversi (Othello) strategies.
#[derive(Parser)]
#[command(name = "reversi-lab", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run an experiment: play its games in parallel and write games.csv, pairs.csv,
    /// standings.csv and run.toml to its results folder.
    ///
    /// Without CONFIG, runs the built-in default experiment (experiments/default.toml):
    /// every built-in heuristic in a round robin. Ctrl-C stops cleanly; --resume continues.
    Run(commands::RunArgs),
    /// Tune evaluation weights by play (SPSA or CMA-ES), then validate the result.
    ///
    /// Writes trace.csv (one row per iteration), charts, best.toml (a player for an
    /// experiment file), report.md and report.html, with validation runs against the starting player
    /// (head-to-head with an SPRT) and the panel.
    Tune(commands::TuneArgs),
    /// Measure what each feature of an evaluation is worth: the full evaluation against
    /// copies of itself without one feature, as Elo with 95% intervals.
    ///
    /// Writes the usual results plus ablation.csv, ablation.md and charts/ablation.*
    /// (with alone = true also charts/ablation-alone.*: each feature used alone).
    Ablate(commands::AblateArgs),
    /// Sweep one parameter of a strategy (depth, a node budget, a weight): each variant's
    /// rating with its 95% interval in one fit over all games, against its cost.
    ///
    /// Writes the usual results plus sweep.csv, charts/sweep-rating.* and charts/sweep-cost.*.
    Sweep(commands::SweepArgs),
    /// Join the shards of a sharded run (`run --shard I/N`) into one run's results,
    /// byte-identical to a run on one machine, and write its report.
    ///
    /// Checks that the shards are complete and belong to one experiment; an SPRT is
    /// replayed over the merged games and cut where one machine would have stopped.
    Merge(commands::MergeArgs),
    /// Write a recipe that plays an experiment's shards on a cluster: a Slurm job array
    /// with a dependent merge job, or a Kubernetes Indexed Job with a merge Job.
    Cluster(commands::ClusterArgs),
    /// Compare two runs of the same field (before and after a change): each player's
    /// rating in both, the change with its 95% interval, Holm-corrected significance,
    /// measured from the players whose strategy did not change (--anchor).
    ///
    /// Writes compare.md, compare.csv and charts/compare.{png,svg} to --out (default
    /// results/compare-<A>-vs-<B>) and prints the table. Refuses runs whose size, rules,
    /// format or players differ (a strategy may change under the same name).
    Compare(commands::CompareArgs),
    /// Write a results folder's games as GGF (one game per line) or as one CSV row per move.
    Export(commands::ExportArgs),
    /// Draw the charts and write report.md and report.html for a results folder: a
    /// run's, an ablation's, a sweep's or a tune's.
    Report {
        /// The results folder, such as results/default.
        results: std::path::PathBuf,
    },
    /// Size an SPRT before running it: the chance it accepts H1 and the game pairs it
    /// takes, by true Elo (a table; with --out also sprt-plan.csv and a chart).
    ///
    /// From the Brownian approximation of the exact pentanomial LLR, for independent
    /// games with --draw-ratio or the game pairs of an earlier run (--from).
    SprtPlan(commands::SprtPlanArgs),
    /// Count the leaves of the game tree DEPTH plies deep (checks and times the move generator).
    ///
    /// A pass counts as a ply; a finished game counts as one leaf at every depth past its end.
    Perft(commands::PerftArgs),
    /// Draw a position with coordinates, its OBF line and its legal moves.
    Show(commands::ShowArgs),
    /// List every strategy with its parameters, defaults and a one-line description.
    Strategies(commands::StrategiesArgs),
    /// Play two strategies against each other and print one summary line.
    ///
    /// Prints `A vs B: W wins, D draws, L losses (win rate X%, score Y% [L%, H%], 95%
    /// pentanomial interval over N game pairs)`, from A's point of view. Games alternate
    /// colours from the start: games 2k and 2k+1 are a colour-swapped pair (an odd game
    /// count gives the per-game, trinomial interval).
    Match(commands::MatchArgs),
    /// Solve the positions of an OBF file exactly: best move, score, nodes, time.
    ///
    /// Where a line lists moves with scores (`; G8:+18; ...`, as the FFO suites do),
    /// the solution is checked against them; the exit code is 1 if any disagrees.
    Solve(commands::SolveArgs),
    /// Write a list of balanced openings: every position PLIES moves from the start, one
    /// per class of the 8 board symmetries, valued by a strategy, kept within D of even.
    ///
    /// One transcript per line with a '#' header recording the recipe: the format an
    /// experiment's `[openings] file =` reads. The same options write the same bytes.
    Openings(commands::OpeningsArgs),
    /// Fit the 8x8 pattern evaluation (the solver's move ordering) to recorded games.
    ///
    /// Every position of every game, labelled with the game's final margin, fitted per
    /// stage of 4 empties; prints the error on held-out games.
    FitPatterns(commands::FitPatternsArgs),
    /// Play against a strategy (or a friend, --vs human) at a prompt, move by move.
    ///
    /// At the prompt: a square such as f5, hints, eval, undo, save FILE, help, quit.
    /// The board is drawn after every move, in colour on a terminal.
    Play(commands::PlayArgs),
    /// Watch two strategies play one game, drawn move by move with each mover's value for its move.
    Watch(commands::WatchArgs),
    /// Step through a recorded game: a results folder's game (--game ID) or a transcript (--moves).
    ///
    /// Enter or n: next move; p: previous; a number: jump to that move; q: quit.
    Replay(commands::ReplayArgs),
    /// Move quality against perfect play: solve every position of a results folder's
    /// games with at most K empties exactly and measure each move's disc loss.
    ///
    /// Writes analysis.csv (per move), quality.csv (per player and empties) and
    /// charts/quality-*; `report` then shows a quality section. --resume continues.
    Analyze(commands::AnalyzeArgs),
    /// Serve a strategy as an engine over GTP (the Go Text Protocol as Othello
    /// engines speak it) on standard input and output, for Quarry, scripts and
    /// tournament managers.
    ///
    /// Answers protocol_version, name, version, known_command, list_commands, quit,
    /// boardsize (4, 6, 8, 10), clear_board, komi, play, genmove, reg_genmove, undo,
    /// showboard, final_score, time_settings, time_left, set_game and list_games.
    Gtp(commands::ServeArgs),
    /// Serve a strategy as an engine over the NBoard protocol (version 2) on standard
    /// input and output, for the NBoard GUI and other controllers.
    ///
    /// Answers nboard, set depth, set game, set contempt, move, hint, go, ping,
    /// learn and analyze; other lines are ignored.
    Nboard(commands::ServeArgs),
}

/// A flag set by the first Ctrl-C (the run stops after the games in flight);
/// a second Ctrl-C exits at once.
fn interrupt_flag() -> &'static AtomicBool {
    static STOP: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\nstopping after the games in flight (Ctrl-C again to quit at once)");
    });
    &STOP
}

fn exit(ending: Ending) -> ExitCode {
    match ending {
        Ending::Finished => ExitCode::SUCCESS,
        Ending::Interrupted => ExitCode::from(130),
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    let out = &mut stdout;
    let code = match cli.command {
        Command::Run(args) => exit(Ending::from(&commands::run(&args, interrupt_flag(), out)?)),
        Command::Tune(args) => exit(commands::tune(&args, interrupt_flag(), out)?),
        Command::Ablate(args) => exit(commands::ablate(&args, interrupt_flag(), out)?),
        Command::Sweep(args) => exit(commands::sweep(&args, interrupt_flag(), out)?),
        Command::Analyze(args) => exit(commands::analyze(&args, interrupt_flag(), out)?),
        Command::Merge(args) => {
            commands::merge(&args, out)?;
            ExitCode::SUCCESS
        }
        Command::Cluster(args) => {
            commands::cluster(&args, out)?;
            ExitCode::SUCCESS
        }
        Command::Compare(args) => {
            commands::compare(&args, out)?;
            ExitCode::SUCCESS
        }
        Command::Export(args) => {
            commands::export_games(&args, out)?;
            ExitCode::SUCCESS
        }
        Command::Report { results } => {
            commands::report(&results, out)?;
            ExitCode::SUCCESS
        }
        Command::Perft(args) => {
            commands::perft(&args, out)?;
            ExitCode::SUCCESS
        }
        Command::Show(args) => {
            commands::show(&args, out)?;
            ExitCode::SUCCESS
        }
        Command::Strategies(args) => {
            commands::strategies(&args, out)?;
            ExitCode::SUCCESS
        }
        Command::Match(args) => {
            commands::play_match(&args, out)?;
            ExitCode::SUCCESS
        }
        Command::SprtPlan(args) => {
            commands::sprt_plan(&args, out)?;
            ExitCode::SUCCESS
        }
        Command::Openings(args) => {
            commands::openings(&args, out)?;
            ExitCode::SUCCESS
        }
        Command::FitPatterns(args) => {
            commands::fit_patterns(&args, out)?;
            ExitCode::SUCCESS
        }
        Command::Play(args) => {
            commands::play(&args, &mut std::io::stdin().lock(), out)?;
            ExitCode::SUCCESS
        }
        Command::Watch(args) => {
            commands::watch(&args, out)?;
            ExitCode::SUCCESS
        }
        Command::Replay(args) => {
            commands::replay(&args, &mut std::io::stdin().lock(), out)?;
            ExitCode::SUCCESS
        }
        Command::Gtp(args) => {
            commands::gtp(&args, std::io::stdin().lock(), out)?;
            ExitCode::SUCCESS
        }
        Command::Nboard(args) => {
            commands::nboard(&args, std::io::stdin().lock(), out)?;
            ExitCode::SUCCESS
        }
        Command::Solve(args) => {
            if commands::solve(&args, out)? {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
    };
    // What is left of a last line without a newline: a failure is said, as every write's.
    use std::io::Write;
    match stdout.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(
            reversi_lab::error::Error::io_during("write", "standard output", e),
        ),
        _ => Ok(code),
    }
}

fn main() -> ExitCode {
    let missing = reversi_lab::cpu::missing_features();
    if !missing.is_empty() {
        eprintln!("error: {}", reversi_lab::cpu::advice(&missing));
        return ExitCode::from(1);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version: clap's own.
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            eprintln!("error: {}", commands::usage_error(&e));
            return ExitCode::from(2);
        }
    };
    run(cli).unwrap_or_else(|err| {
        eprintln!("error: {err}");
        ExitCode::from(err.exit_code())
    })
}
