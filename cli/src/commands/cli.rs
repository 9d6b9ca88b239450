//! The command line's grammar (clap derive) and its dispatch: one arm per command,
//! each turning its arguments into the library's options and returning an [`Outcome`].

use super::*;
use reversi_lab::error::Result;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// A research harness for Reversi (Othello) strategies.
#[derive(clap::Parser)]
#[command(name = "reversi-lab", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Every command, with its arguments.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Run an experiment: play its games in parallel and write games.csv, pairs.csv,
    /// standings.csv and run.toml to its results folder.
    ///
    /// Without CONFIG, runs the built-in default experiment (experiments/default.toml):
    /// every built-in heuristic in a round robin. Ctrl-C stops cleanly; --resume continues.
    Run(RunArgs),
    /// Tune evaluation weights by play (SPSA or CMA-ES), then validate the result.
    ///
    /// Writes trace.csv (one row per iteration), charts, best.toml (a player for an
    /// experiment file), report.md and report.html, with validation runs against the starting player
    /// (head-to-head with an SPRT) and the panel.
    Tune(TuneArgs),
    /// Measure what each feature of an evaluation is worth: the full evaluation against
    /// copies of itself without one feature, as Elo with 95% intervals.
    ///
    /// Writes the usual results plus ablation.csv, ablation.md and charts/ablation.*
    /// (with alone = true also charts/ablation-alone.*: each feature used alone).
    Ablate(AblateArgs),
    /// Sweep one parameter of a strategy (depth, a node budget, a weight): each variant's
    /// rating with its 95% interval in one fit over all games, against its cost.
    ///
    /// Writes the usual results plus sweep.csv, charts/sweep-rating.* and charts/sweep-cost.*.
    Sweep(SweepArgs),
    /// Join the shards of a sharded run (`run --shard I/N`) into one run's results,
    /// byte-identical to a run on one machine, and write its report.
    ///
    /// Checks that the shards are complete and belong to one experiment; an SPRT is
    /// replayed over the merged games and cut where one machine would have stopped.
    Merge(MergeArgs),
    /// Write a recipe that plays an experiment's shards on a cluster: a Slurm job array
    /// with a dependent merge job, or a Kubernetes Indexed Job with a merge Job.
    Cluster(ClusterArgs),
    /// Compare two runs of the same field (before and after a change): each player's
    /// rating in both, the change with its 95% interval, Holm-corrected significance,
    /// measured from the players whose strategy did not change (--anchor).
    ///
    /// Writes compare.md, compare.csv and charts/compare.{png,svg} to --out (default
    /// results/compare-<A>-vs-<B>) and prints the table. Refuses runs whose size, rules,
    /// format or players differ (a strategy may change under the same name).
    Compare(CompareArgs),
    /// Write a results folder's games as GGF (one game per line) or as one CSV row per move.
    Export(ExportArgs),
    /// Turn game files from outside into a results folder: WTHOR (.wtb, with WTHOR.JOU
    /// and WTHOR.TRN for the names) and GGF (.ggf).
    ///
    /// Every game is replayed (passes found by the rules) and gets the replay's result,
    /// checked against the one the file records. Writes games.csv, imported.csv and
    /// run.toml; analyze, replay, export and fit-patterns then work on the folder.
    Import(ImportArgs),
    /// Draw the charts and write report.md and report.html for a results folder: a
    /// run's, an ablation's, a sweep's or a tune's.
    Report {
        /// The results folder, such as results/default.
        results: std::path::PathBuf,
    },
    /// Size an SPRT before running it: the chance it accepts H1 and the game pairs it
    /// takes, by true Elo (a table; with --out also sprt-plan.csv and a chart).
    ///
    /// From Wald's approximation for the exact pentanomial LLR, for independent
    /// games with --draw-ratio or the game pairs of an earlier run (--from).
    SprtPlan(SprtPlanArgs),
    /// Count the leaves of the game tree DEPTH plies deep (checks and times the move generator).
    ///
    /// A pass counts as a ply; a finished game counts as one leaf at every depth past its end.
    Perft(PerftArgs),
    /// Draw a position with coordinates, its OBF line and its legal moves.
    Show(ShowArgs),
    /// List every strategy with its parameters, defaults and a one-line description.
    Strategies(StrategiesArgs),
    /// Play two strategies against each other and print one summary line.
    ///
    /// Prints `A vs B: W wins, D draws, L losses (win rate X%, score Y% [L%, H%], 95%
    /// pentanomial interval over N game pairs)`, from A's point of view. Games alternate
    /// colours from the start: games 2k and 2k+1 are a colour-swapped pair (an odd game
    /// count gives the per-game, trinomial interval).
    Match(MatchArgs),
    /// Solve the positions of an OBF file exactly: best move, score, nodes, time.
    ///
    /// Where a line lists moves with scores (`; G8:+18; ...`, as the FFO suites do),
    /// the solution is checked against them; the exit code is 1 if any disagrees.
    Solve(SolveArgs),
    /// Write a list of balanced openings: every position PLIES moves from the start, one
    /// per class of the 8 board symmetries, valued by a strategy, kept within D of even.
    ///
    /// One transcript per line with a '#' header recording the recipe: the format an
    /// experiment's `[openings] file =` reads. The same options write the same bytes.
    Openings(OpeningsArgs),
    /// Fit the 8x8 pattern evaluation (what eval=pattern plays) to games or positions.
    ///
    /// Every position of a results folder's games, labelled with the game's final
    /// margin, or of a labelled-positions file from `label`, fitted per stage of 4
    /// empties; prints the error (rmse, in discs) on held-out games.
    FitPatterns(FitPatternsArgs),
    /// Measure pattern weights on labelled positions: per stage of 4 empties and kind
    /// of label (exact solves, deep searches), the error of each weights' estimate.
    PatternError(PatternErrorArgs),
    /// Fit Multi-ProbCut's cut lines (alphabeta's `probcut`) to positions of games.
    ///
    /// Each sampled position is searched at every depth up to --depth with the pattern
    /// evaluation; per stage of 4 empties and depth, the deep value is regressed on a
    /// search about half as deep. Writes the lines as CSV and prints them.
    FitProbcut(FitProbCutArgs),
    /// Label positions for fitting: every position of a results folder's games, once,
    /// valued by a deep search of the pattern evaluation or, near the end, an exact solve.
    ///
    /// Writes a labelled-positions file (docs/training.md has its layout) that
    /// fit-patterns and Python's read_positions read. A rerun resumes it; the same
    /// games give the same file on any thread count.
    Label(LabelArgs),
    /// Play against a strategy (or a friend, --vs human) at a prompt, move by move.
    ///
    /// At the prompt: a square such as f5, hints, eval, undo, save FILE, help, quit.
    /// The board is drawn after every move, in colour on a terminal.
    Play(PlayArgs),
    /// Serve a results root in the browser: the folders, live updates while runs
    /// write, their games step by step, and play (loopback only unless --host).
    Web(WebArgs),
    /// Watch two strategies play one game, drawn move by move with each mover's value for its move.
    Watch(WatchArgs),
    /// Step through a recorded game: a results folder's game (--game ID) or a transcript (--moves).
    ///
    /// Enter or n: next move; p: previous; a number: jump to that move; q: quit.
    Replay(ReplayArgs),
    /// Move quality against perfect play: solve every position of a results folder's
    /// games with at most K empties exactly and measure each move's disc loss.
    ///
    /// Writes analysis.csv (per move), quality.csv (per player and empties) and
    /// charts/quality-*; `report` then shows a quality section. --resume continues.
    Analyze(AnalyzeArgs),
    /// Serve a strategy as an engine over GTP (the Go Text Protocol as Othello
    /// engines speak it) on standard input and output, for Quarry, scripts and
    /// tournament managers.
    ///
    /// Answers protocol_version, name, version, known_command, list_commands, quit,
    /// boardsize (4, 6, 8, 10), clear_board, komi, play, genmove, reg_genmove, undo,
    /// showboard, final_score, time_settings, time_left, set_game and list_games.
    Gtp(ServeArgs),
    /// Serve a strategy as an engine over the NBoard protocol (version 2) on standard
    /// input and output, for the NBoard GUI and other controllers.
    ///
    /// Answers nboard, set depth, set game, set contempt, move, hint, go, ping,
    /// learn and analyze; other lines are ignored.
    Nboard(ServeArgs),
}

/// A flag set by the first Ctrl-C or SIGTERM (the run stops after the games in
/// flight). A second drops the games in flight, and the run ends as the first stop
/// does (checkpoint, status, one line); a third, or a second where no games are in
/// flight to drop, exits at once, as a kill would.
pub fn interrupt_flag() -> &'static AtomicBool {
    static STOP: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            if !reversi_lab::lab::driver::abandon_games_in_flight() {
                std::process::exit(130);
            }
            return;
        }
        // The blank line ends a progress bar's line; with no terminal there is none.
        let end_bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            "\n"
        } else {
            ""
        };
        eprintln!(
            "{end_bar}stopping after the games in flight (Ctrl-C or SIGTERM again to drop them)"
        );
    });
    &STOP
}

impl Cli {
    /// Runs the command, writing its result on standard output (a failed write is
    /// the command's failure; a reader that stopped early is not).
    pub fn run(self) -> Result<Outcome> {
        let mut stdout = std::io::stdout().lock();
        let out = &mut stdout;
        let stop = || interrupt_flag();
        let stdin = || std::io::stdin().lock();
        let outcome = match self.command {
            Command::Run(args) => run(&args, stop(), out)?,
            Command::Tune(args) => tune(&args, stop(), out)?,
            Command::Ablate(args) => ablate(&args, stop(), out)?,
            Command::Sweep(args) => sweep(&args, stop(), out)?,
            Command::Analyze(args) => analyze(&args, stop(), out)?,
            Command::Merge(args) => merge(&args, out)?,
            Command::Cluster(args) => cluster(&args, out)?,
            Command::Compare(args) => compare(&args, out)?,
            Command::Export(args) => export_games(&args, out)?,
            Command::Import(args) => import_games(&args, out)?,
            Command::Report { results } => report(&results, out)?,
            Command::SprtPlan(args) => sprt_plan(&args, out)?,
            Command::Perft(args) => perft(&args, out)?,
            Command::Show(args) => show(&args, out)?,
            Command::Strategies(args) => strategies(&args, out)?,
            Command::Match(args) => play_match(&args, out)?,
            Command::Solve(args) => solve(&args, out)?,
            Command::Openings(args) => openings(&args, out)?,
            Command::FitPatterns(args) => fit_patterns(&args, out)?,
            Command::PatternError(args) => pattern_error(&args, out)?,
            Command::FitProbcut(args) => fit_probcut(&args, out)?,
            Command::Label(args) => label(&args, stop(), out)?,
            Command::Play(args) => play(&args, &mut stdin(), out)?,
            Command::Web(args) => web(&args, out)?,
            Command::Watch(args) => watch(&args, out)?,
            Command::Replay(args) => replay(&args, &mut stdin(), out)?,
            Command::Gtp(args) => gtp(&args, stdin(), out)?,
            Command::Nboard(args) => nboard(&args, stdin(), out)?,
        };
        // What is left of a last line without a newline: a failure is said, as every write's.
        stdout.flush().said()?;
        Ok(outcome)
    }
}
