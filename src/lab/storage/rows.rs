//! The rows of every results file (`games.csv`, `pairs.csv`, `standings.csv`,
//! `costs.csv`, `run.toml`'s `[run]`): written by the runner and read back by reports and
//! `--resume`. CSV headers come from these types; no column list is kept elsewhere.

use crate::error::{Error, Result};
use crate::setting::Said;
use crate::shown::ShowPath;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::path::Path;

pub use super::csv_table::{
    csv_bytes, csv_columns, csv_header, csv_row, parse_csv, read_csv, read_rows, row_error,
    TableKind, RESULTS_TABLE,
};

/// One row of `games.csv`, in the column order docs/experiments.md documents. Its text fields
/// borrow where a run writes rows (no allocation per game) and own where rows are read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow<'a> {
    /// 0-based index of the game in the run.
    pub game_id: u64,
    /// 0-based index of the pair of players.
    pub pair_id: u64,
    /// The opening transcript (empty: the start position).
    pub opening: Cow<'a, str>,
    /// Black's player name.
    pub black: Cow<'a, str>,
    /// White's player name.
    pub white: Cow<'a, str>,
    /// Black discs at the end.
    pub black_discs: u32,
    /// White discs at the end.
    pub white_discs: u32,
    /// `black`, `white` or `draw`.
    pub result: Cow<'a, str>,
    /// Black's margin under the rules (positive: black won).
    pub margin: i32,
    /// Discs placed (moves), openings included.
    pub plies: u32,
    /// Passes.
    pub passes: u32,
    /// The whole game as a transcript from the start position.
    pub moves: Cow<'a, str>,
    /// The game's random seed.
    pub seed: u64,
    /// How the game ended: `normal`, or the fault that lost it (`time`, `crash`,
    /// `illegal`, `stalled`: see [`crate::game::Termination`]). Files written before
    /// the column existed read as `normal`.
    #[serde(default = "normal_termination")]
    pub termination: Cow<'a, str>,
}

fn normal_termination<'a>() -> Cow<'a, str> {
    Cow::Borrowed(crate::game::Termination::Normal.name())
}

impl GameRow<'_> {
    /// Appends the row and its newline to `out`: the bytes the csv crate writes for it
    /// (a test compares the two) in about 60% of the instructions of serde's field-by-field
    /// path (callgrind: some 820 against 1,190 a row), since a run writes a row for every
    /// game. The pattern below names every
    /// field, so a new column does not compile until it is written here too; the
    /// header still comes from serde.
    pub fn write_csv(&self, out: &mut Vec<u8>) {
        let GameRow {
            game_id,
            pair_id,
            opening,
            black,
            white,
            black_discs,
            white_discs,
            result,
            margin,
            plies,
            passes,
            moves,
            seed,
            termination,
        } = self;
        let text = [opening, black, white, result, moves, termination];
        // Eight numbers of at most 20 bytes, 14 separators, and each text quoted at worst.
        let bound = 8 * 20 + 14 + text.iter().map(|t| 2 * t.len() + 2).sum::<usize>();
        super::flat_csv::append(out, bound, |row| {
            row.unsigned(*game_id);
            row.byte(b',');
            row.unsigned(*pair_id);
            row.byte(b',');
            row.text(opening);
            row.byte(b',');
            row.text(black);
            row.byte(b',');
            row.text(white);
            row.byte(b',');
            row.unsigned(u64::from(*black_discs));
            row.byte(b',');
            row.unsigned(u64::from(*white_discs));
            row.byte(b',');
            row.text(result);
            row.byte(b',');
            row.signed(i64::from(*margin));
            row.byte(b',');
            row.unsigned(u64::from(*plies));
            row.byte(b',');
            row.unsigned(u64::from(*passes));
            row.byte(b',');
            row.text(moves);
            row.byte(b',');
            row.unsigned(*seed);
            row.byte(b',');
            row.text(termination);
            row.byte(b'\n');
        });
    }
}

/// One row of `reversi-lab export --format csv-moves`: one turn of one game, a move
/// or a pass, in the column order docs/exporting.md documents. `games.csv` records no time per
/// move, so there is no time column.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRow<'a> {
    /// The game's `game_id` in `games.csv`.
    pub game_id: u64,
    /// 1-based turn in the game, passes counted (as GGF lists them).
    pub ply: u32,
    /// The name of the player whose turn it was.
    pub player: Cow<'a, str>,
    /// `black` or `white`.
    pub colour: Cow<'a, str>,
    /// The square played (`f5`), or `pass`.
    pub square: Cow<'a, str>,
    /// Whether the turn belongs to the game's opening (dealt, not chosen by the player).
    pub opening: bool,
    /// Black discs after the turn.
    pub black_discs: u32,
    /// White discs after the turn.
    pub white_discs: u32,
}

/// Serde writers for numbers with a fixed count of decimals (`serialize_with =
/// "decimals::four"`): NaN or None is an empty field, infinities `inf`/`-inf`, so
/// results files read the same on every platform and read back as `Option<f64>`.
pub mod decimals {
    use serde::Serializer;

    macro_rules! decimals {
        ($($name:ident: $d:literal),*) => {$(
            #[doc = concat!("Writes a number with ", stringify!($d), " decimal(s).")]
            pub fn $name<S: Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
                match x {
                    // `fixed`: a value that rounds to zero is `0.0`, never `-0.0`.
                    Some(v) if !v.is_nan() => s.serialize_str(&crate::numbers::fixed(*v, $d)),
                    _ => s.serialize_none(),
                }
            }
        )*};
    }
    decimals!(one: 1, two: 2, three: 3, four: 4, six: 6);

    /// Writes a p-value with four decimals, or below 0.0001 with three significant
    /// digits (`3.12e-7`): four decimals would write every small one as `0.0000`.
    pub fn p<S: Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        match x {
            Some(v) if *v > 0.0 && *v < 1e-4 => s.serialize_str(&format!("{v:.2e}")),
            Some(v) if !v.is_nan() => s.serialize_str(&crate::numbers::fixed(*v, 4)),
            _ => s.serialize_none(),
        }
    }
}

/// One row of `pairs.csv`, from the first player's (A's) point of view. An
/// empty number (None) is one the data do not define, such as a score of no games.
/// The headline interval (`score_low` to `los`) is that of `model`: the pentanomial
/// over colour-swapped game pairs when every game belongs to one, else the
/// trinomial over games; the `trinomial_*` columns give the per-game one beside it.
/// Columns added after 0.1.0 read as empty from older files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct PairRow {
    pub player_a: String,
    pub player_b: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    #[serde(serialize_with = "decimals::four")]
    pub score: Option<f64>,
    /// `pentanomial` or `trinomial`: the model of the headline interval.
    #[serde(default)]
    pub model: Option<String>,
    /// Complete colour-swapped game pairs (the pentanomial's sample size).
    #[serde(default)]
    pub game_pairs: Option<u64>,
    #[serde(serialize_with = "decimals::four")]
    pub score_low: Option<f64>,
    #[serde(serialize_with = "decimals::four")]
    pub score_high: Option<f64>,
    #[serde(serialize_with = "decimals::one")]
    pub elo: Option<f64>,
    #[serde(serialize_with = "decimals::one")]
    pub elo_low: Option<f64>,
    #[serde(serialize_with = "decimals::one")]
    pub elo_high: Option<f64>,
    #[serde(serialize_with = "decimals::four")]
    pub los: Option<f64>,
    #[serde(default, serialize_with = "decimals::four")]
    pub trinomial_score_low: Option<f64>,
    #[serde(default, serialize_with = "decimals::four")]
    pub trinomial_score_high: Option<f64>,
    #[serde(default, serialize_with = "decimals::one")]
    pub trinomial_elo_low: Option<f64>,
    #[serde(default, serialize_with = "decimals::one")]
    pub trinomial_elo_high: Option<f64>,
    pub black_wins: u64,
    pub black_draws: u64,
    pub black_losses: u64,
    #[serde(serialize_with = "decimals::four")]
    pub black_score: Option<f64>,
    pub white_wins: u64,
    pub white_draws: u64,
    pub white_losses: u64,
    #[serde(serialize_with = "decimals::four")]
    pub white_score: Option<f64>,
    #[serde(serialize_with = "decimals::two")]
    pub margin_mean: Option<f64>,
    #[serde(serialize_with = "decimals::two")]
    pub margin_low: Option<f64>,
    #[serde(serialize_with = "decimals::two")]
    pub margin_high: Option<f64>,
    pub penta_0: u64,
    pub penta_1: u64,
    pub penta_2: u64,
    pub penta_3: u64,
    pub penta_4: u64,
    /// The SPRT columns, present only in runs with an SPRT.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "decimals::three"
    )]
    pub sprt_llr: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "decimals::three"
    )]
    pub sprt_lower: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "decimals::three"
    )]
    pub sprt_upper: Option<f64>,
    /// The game pairs after which the LLR crossed a bound (empty: it has not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt_pairs: Option<String>,
    /// `H1`, `H0` or `continue`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt_result: Option<String>,
    /// After an SPRT stopped: the median-unbiased Elo (empty until then; the `elo`
    /// columns are the fixed-sample figures, biased by the early stop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt_elo: Option<String>,
    /// The lower end of its 95% interval, corrected for the stop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt_elo_low: Option<String>,
    /// The upper end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt_elo_high: Option<String>,
}

impl PairRow {
    /// Writes the SPRT's estimate after a stop (empty cells without one).
    pub fn set_sprt_estimate(&mut self, estimate: Option<crate::stats::SprtEstimate>) {
        let text = |x: Option<f64>| Some(x.map_or(String::new(), |x| format!("{x:.1}")));
        self.sprt_elo = text(estimate.map(|e| e.elo));
        self.sprt_elo_low = text(estimate.map(|e| e.low));
        self.sprt_elo_high = text(estimate.map(|e| e.high));
    }

    /// The SPRT's verdict as a reader sees it: `continue` while games remain, and
    /// once its run has played every game with no bound crossed, that it is undecided.
    #[must_use]
    pub fn sprt_verdict(&self, games_spent: bool) -> Option<String> {
        match self.sprt_result.as_deref()? {
            "continue" if games_spent => {
                Some("undecided: the games ran out before a bound was crossed".into())
            }
            result => Some(result.to_string()),
        }
    }

    /// After an SPRT stopped: its median-unbiased Elo and corrected 95% interval.
    #[must_use]
    pub fn sprt_estimate(&self) -> Option<(f64, f64, f64)> {
        let number = |s: &Option<String>| s.as_deref()?.parse::<f64>().ok();
        Some((
            number(&self.sprt_elo)?,
            number(&self.sprt_elo_low)?,
            number(&self.sprt_elo_high)?,
        ))
    }

    /// The pair's results as counts: every game, and the complete colour-swapped pairs.
    #[must_use]
    pub fn paired(&self) -> crate::stats::Paired {
        crate::stats::Paired {
            games: crate::stats::Trinomial {
                wins: self.wins,
                draws: self.draws,
                losses: self.losses,
            },
            pairs: crate::stats::Pentanomial([
                self.penta_0,
                self.penta_1,
                self.penta_2,
                self.penta_3,
                self.penta_4,
            ]),
        }
    }
}

/// One row of `standings.csv`, best first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct StandingRow {
    pub rank: u64,
    pub player: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    #[serde(serialize_with = "decimals::four")]
    pub score: Option<f64>,
    #[serde(serialize_with = "decimals::one")]
    pub rating: Option<f64>,
    #[serde(serialize_with = "decimals::one")]
    pub rating_low: Option<f64>,
    #[serde(serialize_with = "decimals::one")]
    pub rating_high: Option<f64>,
}

/// One row of `costs.csv`: what one player's moves cost (see `lab::cost`). Time is
/// thinking time on the worker thread, so it grows when threads share cores.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CostRow {
    /// The player's name.
    pub player: String,
    /// Games it played.
    pub games: u64,
    /// Moves it chose (forced moves, a single legal move, are not asked for).
    pub moves: u64,
    /// Nodes its searches visited (0 for strategies that do not search).
    pub nodes: u64,
    /// `nodes / moves`.
    #[serde(serialize_with = "decimals::one")]
    pub nodes_per_move: Option<f64>,
    /// Seconds spent choosing moves.
    #[serde(serialize_with = "decimals::six")]
    pub seconds: Option<f64>,
    /// Milliseconds per move chosen.
    #[serde(serialize_with = "decimals::four")]
    pub ms_per_move: Option<f64>,
    /// Milliseconds of the longest move (absent from files written before it was kept).
    #[serde(default, serialize_with = "decimals::four")]
    pub max_ms: Option<f64>,
}

/// How a run stands, as `run.toml` records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Playing (or killed while playing: `--resume` continues).
    Running,
    /// Every game was played.
    Complete,
    /// The SPRT accepted H1 (the first player is stronger by elo1).
    SprtAcceptedH1,
    /// The SPRT accepted H0.
    SprtAcceptedH0,
    /// Stopped by the user (Ctrl-C, SIGTERM); `--resume` continues.
    Interrupted,
    /// Stopped by a fault the run cannot play past (a player that kept faulting, a
    /// write that failed): `stopped_by` in `run.toml` says which; `--resume`
    /// continues once it is mended.
    Stopped,
}

impl Status {
    /// Whether the run has ended for good (played out, or decided by its SPRT): its
    /// tables describe every game it will have.
    #[must_use]
    pub const fn is_finished(self) -> bool {
        matches!(
            self,
            Status::Complete | Status::SprtAcceptedH1 | Status::SprtAcceptedH0
        )
    }
}

/// `[run]` of `run.toml`: how the run went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The crate version that wrote it.
    pub version: String,
    /// How the run stands.
    pub status: Status,
    /// Worker threads.
    pub threads: usize,
    /// When this session started (RFC 3339).
    pub started: String,
    /// Games the experiment has in all.
    pub games_total: u64,
    /// Games in `games.csv` now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u64>,
    /// Games played by the last session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games_this_session: Option<u64>,
    /// Seconds the last session played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_seconds: Option<f64>,
    /// Games per second in the last session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games_per_second: Option<f64>,
    /// SHA-256 of the experiment as run, without the thread count: shards of one
    /// experiment share it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experiment_hash: Option<String>,
    /// The game-numbering recipe's version (see `lab::shard::SCHEDULE_VERSION`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule_version: Option<u32>,
    /// The shard this folder holds, `I/N`, for a sharded run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// The study whose shard this is (`sweep`, `ablate`), so hints name its command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub study: Option<Study>,
    /// Present (true) when moves were limited by time (a time control, or a search's
    /// `time` budget): the games then depend on the machine and its load, so the same
    /// seed does not replay them byte for byte.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed: Option<bool>,
    /// SHA-256 of a finished shard's games file as text (header and rows,
    /// decompressed): `merge` refuses a shard whose games no longer match it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games_sha256: Option<String>,
    /// The shard folders a merged run was made from, in shard order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged_from: Option<Vec<String>>,
    /// The command line of the last session. This and the two below are absent
    /// from folders written before they were recorded, and `--resume` compares
    /// only the experiment, never them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// `git rev-parse HEAD` where the last session started (absent outside a repository).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The host name of the machine of the last session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// What each external engine said it is (`name` and `version`), by player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engines: Option<std::collections::BTreeMap<String, String>>,
    /// What stopped a run whose status is `stopped`, in one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<String>,
}

impl RunInfo {
    /// A run starting now with this crate's version, `status = running`, nothing counted yet.
    #[must_use]
    pub fn starting(threads: usize, games_total: u64) -> Self {
        RunInfo {
            version: env!("CARGO_PKG_VERSION").to_string(),
            status: Status::Running,
            threads,
            started: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            games_total,
            games: None,
            games_this_session: None,
            elapsed_seconds: None,
            games_per_second: None,
            experiment_hash: None,
            schedule_version: None,
            shard: None,
            study: None,
            timed: None,
            games_sha256: None,
            merged_from: None,
            command: Some(super::provenance::command_line()),
            commit: super::provenance::git_commit(),
            host: super::provenance::host_name(),
            engines: None,
            stopped_by: None,
        }
    }
}

/// `run.toml`: how the run went, and the experiment exactly as run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunToml {
    /// How the run went.
    pub run: RunInfo,
    /// The experiment, every default written out (of an import: its name, size and
    /// rules alone).
    pub experiment: toml::Table,
    /// Where an imported folder's games came from (`reversi-lab import`); absent from runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import: Option<crate::lab::formats::import::record::ImportInfo>,
}

impl RunToml {
    /// The file's text.
    #[must_use]
    pub fn to_text(&self) -> String {
        format!(
            "# Written by reversi-lab: the experiment exactly as run (defaults filled in) and how the run went.\n{}",
            toml::to_string(self).expect("a run record serialises")
        )
    }

    /// Refuses an imported folder for `what` (a command that needs the players'
    /// strategies or a run's tables), naming the commands that take it.
    pub fn refuse_import(&self, dir: &Path, what: impl Into<Said>) -> Result<()> {
        if self.import.is_none() {
            return Ok(());
        }
        Err(Error::said(
            Said::text(format!(
                "{} holds games imported by `reversi-lab import`, whose players are not strategies, so it cannot be ",
                dir.shown()
            ))
            .and(what.into())
            .then(": analyze, replay, export and fit-patterns take it"),
        ))
    }

    /// What `--resume` keeps from the run when the command line does not say it
    /// again: the games per pair, the seed and the threads it was started with
    /// (applied to `experiment`, each only where its `given` flag is false).
    pub fn resume_settings(&self, experiment: &mut crate::lab::Experiment, given: ResumeGiven) {
        let number = |key: &str| self.experiment.get(key).and_then(toml::Value::as_integer);
        if let (false, Some(games)) = (given.games, number("games_per_pair")) {
            experiment.games_per_pair = games as u64;
        }
        if let (false, Some(seed)) = (given.seed, number("seed")) {
            experiment.setup.seed = seed as u64;
        }
        if !given.threads {
            experiment.setup.threads = number("threads").map(|t| t as usize);
        }
    }

    /// Reads `run.toml`. An SPRT recorded before its bounds could be corrected for
    /// overshoot ran without the correction, and reads so.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::unreadable(path, &e))?;
        let mut record: Self = toml::from_str(&text).map_err(|e| {
            let message: Vec<&str> = e
                .message()
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            Error::input(format!(
                "{}: {} (was it written by reversi-lab?)",
                path.shown(),
                message.join(": ")
            ))
        })?;
        if let Some(toml::Value::Table(sprt)) = record.experiment.get_mut("sprt") {
            sprt.entry("overshoot")
                .or_insert(toml::Value::Boolean(false));
        }
        Ok(record)
    }
}

/// Which of the settings [`RunToml::resume_settings`] restores the command line gives again.
#[derive(Clone, Copy, Debug, Default)]
pub struct ResumeGiven {
    /// `--games` was given.
    pub games: bool,
    /// `--seed` was given (or the command has none, and its file's seed stands).
    pub seed: bool,
    /// `--threads` was given.
    pub threads: bool,
}

/// The study whose command plays a shard's experiment (a run's shards have none),
/// recorded in the shard's `run.toml` so that a hint about the shard names the
/// command that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Study {
    /// `reversi-lab sweep FILE`.
    Sweep,
    /// `reversi-lab ablate FILE`.
    Ablate,
}

impl Study {
    /// The command's name.
    #[must_use]
    pub const fn command(self) -> &'static str {
        match self {
            Study::Sweep => "sweep",
            Study::Ablate => "ablate",
        }
    }
}

#[cfg(test)]
#[path = "rows_tests.rs"]
mod tests;
