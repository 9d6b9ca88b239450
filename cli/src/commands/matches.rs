//! `reversi-lab match`: two strategies, colour-swapped game pairs, one summary line
//! (or JSON), optionally every game to CSV.

use super::RulesArgs;
use super::{Outcome, OutputFormat, Said};
use reversi_lab::error::{Error, Result};
use reversi_lab::lab::folder::check_output_file;
use reversi_lab::lab::games_file::{Compression, GamesWriter};
use reversi_lab::lab::matches::{
    cost_line, default_logs, summary, summary_json, MatchOptions, MatchPlan, MatchPlayed,
};
use reversi_lab::lab::rows::{csv_header, GameRow};
use reversi_lab::lab::{FolderFile, ResultsFolder};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Options of `reversi-lab match`.
#[derive(Clone, Debug, clap::Args)]
pub struct MatchArgs {
    /// Strategy A, as a spec such as `alphabeta:depth=4,eval=mobility` (see `strategies`).
    pub a: String,
    /// Strategy B.
    pub b: String,
    /// Games to play.
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = super::whole::at_least::<u64>(1))]
    pub games: u64,
    /// Seed: the same seed replays the same games.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = super::whole::at_least::<u64>(0))]
    pub seed: u64,
    /// Threads (default: one per core).
    #[arg(long, allow_negative_numbers = true, value_parser = super::whole::at_least::<usize>(1))]
    pub threads: Option<usize>,
    /// Board size: 4, 6, 8 or 10.
    #[arg(long, default_value_t = 8, allow_negative_numbers = true, value_parser = super::whole::board_size)]
    pub size: u32,
    /// Scoring rules.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Random opening plies: each colour-swapped pair of games starts from the same
    /// K random moves (0: the standard start).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = super::whole::at_least::<u32>(0))]
    pub openings: u32,
    /// Time for each move of both players, such as `100ms`: a move later than that
    /// plus the margin loses the game on time.
    #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
    pub move_time: Option<String>,
    /// A game clock for both players: seconds at the start and the increment a move,
    /// such as `60+0.5`.
    #[arg(long, value_name = "BASE+INC", allow_hyphen_values = true)]
    pub clock: Option<String>,
    /// How far past its time a move may go before it loses on time [default: 50ms].
    #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
    pub time_margin: Option<String>,
    /// Also write every game to this CSV file (the columns of games.csv; an existing file is refused).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Where an external engine's logs go (`DIR/engines/A-*.log`, `B-*.log`) [default:
    /// a new folder in the system's temporary folder, named on stderr].
    #[arg(long, value_name = "DIR")]
    pub logs: Option<PathBuf>,
    /// Output: the one-line summary, or one JSON object for scripts.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

impl MatchArgs {
    /// The match to play.
    #[must_use]
    pub fn options(&self) -> MatchOptions {
        MatchOptions {
            a: self.a.clone(),
            b: self.b.clone(),
            games: self.games,
            seed: self.seed,
            threads: self.threads,
            size: self.size,
            rules: self.rules.rules(),
            openings: self.openings,
            move_time: self.move_time.clone(),
            clock: self.clock.clone(),
            time_margin: self.time_margin.clone(),
        }
    }
}

/// `reversi-lab match`: plays A against B from the start, colours alternating (A
/// black in even games), through the lab's schedule (one pair) and play driver;
/// prints the one-line summary on stdout and the speed on stderr. Returns A's tally.
pub fn play_match(args: &MatchArgs, out: &mut dyn Write) -> Result<Outcome> {
    let plan = MatchPlan::new(&args.options())?;
    if let Some(path) = &args.csv {
        check_output_file(path, "--csv")?;
    }
    let csv = match &args.csv {
        Some(path) if path.exists() => {
            return Err(Error::input(format!(
                "{} already exists: choose another --csv file, or remove it first",
                path.display()
            )))
        }
        Some(path) => {
            // The runner's writer: a `BufWriter`'s 8 KiB default made a write call every 45
            // rows (0.89x plain `match`'s games/s, against 0.93x through this one). A path
            // that cannot be made (a missing folder, no permission) is the user's to change.
            let mut writer = GamesWriter::open(path, Compression::None, false)
                .map_err(|e| Error::input(format!("{e}: choose another --csv file")))?;
            writer
                .write_all(&csv_header::<GameRow>())
                .map_err(|e| Error::io(path, e))?;
            Some((path, writer))
        }
        None => None,
    };
    let names = [args.a.as_str(), args.b.as_str()];
    let logs = args.logs.clone().unwrap_or_else(default_logs);
    let started = Instant::now();
    let played = match csv {
        None => plan.play(names, None, &logs)?,
        Some((path, mut writer)) => {
            let played = plan.play(names, Some((path, &mut writer)), &logs)?;
            writer.finish(path)?;
            played
        }
    };
    let MatchPlayed {
        tally,
        costs,
        threads,
        broken,
    } = played;
    let seconds = started.elapsed().as_secs_f64();
    match args.format {
        OutputFormat::Text => writeln!(out, "{}", summary(&tally, &args.a, &args.b)).said()?,
        OutputFormat::Json => writeln!(
            out,
            "{}",
            summary_json(&tally, &args.options(), seconds, threads, broken.as_ref())
        )
        .said()?,
    };
    let games = tally.paired.games;
    eprintln!(
        "{} in {seconds:.2} s ({:.0} games/s, {}, seed {})",
        reversi_lab::numbers::counted(games.games(), "game"),
        games.games() as f64 / seconds.max(1e-9),
        reversi_lab::numbers::counted(threads as u64, "thread"),
        args.seed
    );
    eprintln!("{}", cost_line(&costs));
    let engine_logs = ResultsFolder::at(&logs).path(FolderFile::EngineLogs);
    if engine_logs.is_dir() {
        eprintln!("engine logs: {}", engine_logs.display());
    }
    match broken {
        Some(broken) => Err(Error::said(
            broken.line("play the match again (the games above are those before the stop)"),
        )),
        None => Ok(Outcome::Finished),
    }
}
