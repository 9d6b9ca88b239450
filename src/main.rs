//! The `reversi-lab` command line: parses arguments and hands them to the library.

use clap::{Parser, Subcommand};
use reversi_lab::commands;
use reversi_lab::game::{Rules, Scoring};
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
    Run {
        /// The experiment file (TOML).
        config: Option<std::path::PathBuf>,
        /// Results folder (default: results/<experiment name>).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Threads (default: the experiment's, else one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Games per pair of players, overriding the experiment (even).
        #[arg(long)]
        games: Option<u64>,
        /// Seed, overriding the experiment.
        #[arg(long)]
        seed: Option<u64>,
        /// Continue the games already in the results folder.
        #[arg(long)]
        resume: bool,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
        /// Skip the charts and the report at the end.
        #[arg(long)]
        no_report: bool,
    },
    /// Tune evaluation weights by play (SPSA or CMA-ES), then validate the result.
    ///
    /// Writes trace.csv (one row per iteration), charts, best.toml (a player for an
    /// experiment file) and report.md, with validation runs against the starting player
    /// (head-to-head with an SPRT) and the panel.
    Tune {
        /// The tune file (TOML).
        config: std::path::PathBuf,
        /// Results folder (default: results/<name>).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Continue an interrupted tune from its trace.
        #[arg(long)]
        resume: bool,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Measure what each feature of an evaluation is worth: the full evaluation against
    /// copies of itself without one feature, as Elo with 95% intervals.
    ///
    /// Writes the usual results plus ablation.csv, ablation.md and charts/ablation.*.
    Ablate {
        /// The ablation file (TOML): name, games_per_pair, openings, alone, and [player].
        config: std::path::PathBuf,
        /// Results folder (default: results/<name>).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Games per pair, overriding the file (even).
        #[arg(long)]
        games: Option<u64>,
        /// Continue the games already in the results folder.
        #[arg(long)]
        resume: bool,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Draw the charts and write report.md and report.html for a results folder.
    Report {
        /// The results folder, such as results/default.
        results: std::path::PathBuf,
    },
    /// Count the leaves of the game tree DEPTH plies deep (checks and times the move generator).
    ///
    /// A pass counts as a ply; a finished game counts as one leaf at every depth past its end.
    Perft {
        /// Plies to search (1 to 30).
        depth: u32,
        /// Board size: 4, 6, 8 or 10 (default 8, or the size of --position).
        #[arg(long)]
        size: Option<u32>,
        /// Start from this OBF position (squares of X/O/-, a space, the side to move), or a file holding one.
        #[arg(long, allow_hyphen_values = true)]
        position: Option<String>,
        /// Threads to share the root moves among.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Draw a position with coordinates, its OBF line and its legal moves.
    Show {
        /// Moves to play first, as a transcript such as f5d6c3.
        moves: Option<String>,
        /// Board size: 4, 6, 8 or 10 (default 8, or the size of --position).
        #[arg(long)]
        size: Option<u32>,
        /// Start from this OBF position instead of the standard start, or a file holding one.
        #[arg(long, allow_hyphen_values = true)]
        position: Option<String>,
    },
    /// List every strategy with its parameters, defaults and a one-line description.
    Strategies,
    /// Play two strategies against each other and print one summary line.
    ///
    /// Prints `A vs B: W wins, D draws, L losses (win rate X%, score Y% +/- Z%)`, from A's
    /// point of view; the score interval is 95%. Games alternate colours from the start.
    Match {
        /// Strategy A, as a spec such as `alphabeta:depth=4,eval=mobility` (see `strategies`).
        a: String,
        /// Strategy B.
        b: String,
        /// Games to play.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Seed: the same seed replays the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads (0: one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Solve the positions of an OBF file exactly: best move, score, nodes, time.
    ///
    /// Where a line lists moves with scores (`; G8:+18; ...`, as the FFO suites do),
    /// the solution is checked against them; the exit code is 1 if any disagrees.
    Solve {
        /// OBF file: one position per line.
        file: std::path::PathBuf,
        /// log2 of the transposition table's entries.
        #[arg(long, default_value_t = 22)]
        table_bits: u32,
        /// Anti-reversi: the side with fewer discs wins.
        #[arg(long)]
        anti: bool,
        /// How empty squares at the end count: winner-gets-empties or count.
        #[arg(long, default_value = "winner-gets-empties", value_parser = parse_scoring)]
        scoring: Scoring,
    },
}

/// Board size and scoring rules.
#[derive(clap::Args)]
struct RulesArgs {
    /// Board size: 4, 6, 8 or 10.
    #[arg(long, default_value_t = 8)]
    size: u32,
    /// Anti-reversi: the side with fewer discs wins.
    #[arg(long)]
    anti: bool,
    /// How empty squares at the end count: winner-gets-empties or count.
    #[arg(long, default_value = "winner-gets-empties", value_parser = parse_scoring)]
    scoring: Scoring,
}

fn parse_scoring(text: &str) -> Result<Scoring, String> {
    match text {
        "winner-gets-empties" => Ok(Scoring::WinnerGetsEmpties),
        "count" => Ok(Scoring::Count),
        other => Err(format!(
            "unknown scoring '{other}': use winner-gets-empties or count"
        )),
    }
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    let result = match cli.command {
        Command::Run {
            config,
            out,
            threads,
            games,
            seed,
            resume,
            quiet,
            no_report,
        } => {
            let stop = interrupt_flag();
            let options = commands::RunCommand {
                config: config.as_deref(),
                out,
                threads,
                games,
                seed,
                resume,
                quiet,
                no_report,
            };
            match commands::run_command(&options, stop, &mut stdout) {
                Ok(summary) if summary.status == reversi_lab::runner::Status::Interrupted => {
                    return ExitCode::from(130)
                }
                Ok(_) => Ok(()),
                Err(err) => Err(err),
            }
        }
        Command::Perft {
            depth,
            size,
            position,
            threads,
        } => commands::perft_command(depth, size, position.as_deref(), threads, &mut stdout)
            .map(|_| ()),
        Command::Show {
            moves,
            size,
            position,
        } => commands::show_command(size, position.as_deref(), moves.as_deref(), &mut stdout),
        Command::Strategies => commands::strategies_command(&mut stdout),
        Command::Tune {
            config,
            out,
            resume,
            quiet,
        } => {
            match commands::tune_command(&config, out, resume, quiet, interrupt_flag(), &mut stdout)
            {
                Ok(true) => return ExitCode::from(130),
                Ok(false) => Ok(()),
                Err(err) => Err(err),
            }
        }
        Command::Ablate {
            config,
            out,
            games,
            resume,
            quiet,
        } => match commands::ablate_command(
            &config,
            out,
            games,
            resume,
            quiet,
            interrupt_flag(),
            &mut stdout,
        ) {
            Ok(true) => return ExitCode::from(130),
            Ok(false) => Ok(()),
            Err(err) => Err(err),
        },
        Command::Report { results } => commands::report_command(&results, &mut stdout),
        Command::Match {
            a,
            b,
            games,
            seed,
            threads,
            rules,
        } => {
            let options = commands::MatchOptions {
                games,
                seed,
                threads,
                size: rules.size,
                rules: Rules {
                    scoring: rules.scoring,
                    anti: rules.anti,
                },
            };
            commands::match_command(&a, &b, &options, &mut stdout).map(|_| ())
        }
        Command::Solve {
            file,
            table_bits,
            anti,
            scoring,
        } => match commands::solve_command(&file, Rules { scoring, anti }, table_bits, &mut stdout)
        {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(err) => Err(err),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(err.exit_code())
        }
    }
}
