//! The batch runner: plays an experiment's games in parallel, streams them to
//! `games.csv` in game order, and writes `pairs.csv`, `standings.csv` and `run.toml`.

use crate::board::Geometry;
use crate::error::{Error, Result};
use crate::experiment::Experiment;
use crate::game::Game;
use crate::play::{game_rng, game_seed, play_game};
use crate::progress::Progress;
use crate::stats::{bradley_terry, sprt_bounds, Moments, Pentanomial, Trinomial, Z95};
use crate::strategy::{Memory, Strategy};
use crate::with_geometry;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::cell::RefCell;
use std::fs::{self, OpenOptions};
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How a run is carried out (not part of the experiment).
pub struct RunOptions<'a> {
    /// The results folder (default `results/<name>`).
    pub out: Option<PathBuf>,
    /// Continue the games already in the folder.
    pub resume: bool,
    /// No progress bar.
    pub quiet: bool,
    /// Set (by a Ctrl-C handler) to stop after the games in flight.
    pub stop: &'a AtomicBool,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Every game was played.
    Complete,
    /// The SPRT accepted H1 (the first player is stronger by elo1).
    SprtAcceptedH1,
    /// The SPRT accepted H0.
    SprtAcceptedH0,
    /// Stopped by the user; `--resume` continues.
    Interrupted,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// The results folder.
    pub out: PathBuf,
    /// Games in `games.csv` now.
    pub games: u64,
    /// Games played by this invocation.
    pub played: u64,
    /// Seconds this invocation spent playing.
    pub seconds: f64,
    /// How the run ended.
    pub status: Status,
    /// Threads used.
    pub threads: usize,
}

impl RunSummary {
    /// The closing line: games, elapsed, games/s.
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "{} games in {:.2} s ({:.0} games/s, {} threads){}; results in {}",
            self.played,
            self.seconds,
            self.played as f64 / self.seconds.max(1e-9),
            self.threads,
            match self.status {
                Status::Complete => String::new(),
                Status::SprtAcceptedH1 => ", SPRT accepted H1".to_string(),
                Status::SprtAcceptedH0 => ", SPRT accepted H0".to_string(),
                Status::Interrupted => format!(
                    ", interrupted after {} games: rerun with --resume to continue",
                    self.games
                ),
            },
            self.out.display()
        )
    }
}

/// One row of `games.csv`.
/// NOTE: the column order here is the one the README documents.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameRecord {
    /// 0-based index of the game in the run.
    pub game_id: u64,
    /// 0-based index of the pair of players.
    pub pair_id: u64,
    /// The opening transcript (empty: the start position).
    pub opening: String,
    /// Black's player name.
    pub black: String,
    /// White's player name.
    pub white: String,
    /// Black discs at the end.
    pub black_discs: u32,
    /// White discs at the end.
    pub white_discs: u32,
    /// `black`, `white` or `draw`.
    pub result: String,
    /// Black's margin under the rules (positive: black won).
    pub margin: i32,
    /// Discs placed (moves), openings included.
    pub plies: u32,
    /// Passes.
    pub passes: u32,
    /// The whole game as a transcript from the start position.
    pub moves: String,
    /// The game's random seed.
    pub seed: u64,
}

/// Per-pair tallies from the first player's (A's) point of view.
#[derive(Clone, Debug, Default)]
struct PairTally {
    all: Trinomial,
    as_black: Trinomial,
    as_white: Trinomial,
    margin: Moments,
    penta: Pentanomial,
    pending: Option<f64>,
}

impl PairTally {
    fn record(&mut self, a_black: bool, a_margin: i32, game_in_pair: u64) {
        let t = Trinomial::of_margin(a_margin);
        self.all = self.all + t;
        if a_black {
            self.as_black = self.as_black + t;
        } else {
            self.as_white = self.as_white + t;
        }
        self.margin.push(f64::from(a_margin));
        let points = t.wins as f64 + 0.5 * t.draws as f64;
        // Games 2k and 2k+1 of a pair share an opening with colours swapped.
        if game_in_pair % 2 == 0 {
            self.pending = Some(points);
        } else if let Some(first) = self.pending.take() {
            self.penta.record(first + points);
        }
    }
}

/// Everything accumulated while games stream past, in game order.
struct Tallies {
    pairs: Vec<PairTally>,
    sprt_done: Option<Status>,
}

impl Tallies {
    /// Counts a game; returns true if the SPRT has just concluded.
    fn record(
        &mut self,
        experiment: &Experiment,
        pair: usize,
        a_black: bool,
        a_margin: i32,
        game_in_pair: u64,
    ) -> bool {
        let tally = &mut self.pairs[pair];
        tally.record(a_black, a_margin, game_in_pair);
        if let (Some(sprt), None) = (experiment.sprt, self.sprt_done) {
            if game_in_pair % 2 == 1 {
                let llr = tally.penta.llr(sprt.elo0, sprt.elo1);
                let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
                if llr >= upper {
                    self.sprt_done = Some(Status::SprtAcceptedH1);
                } else if llr <= lower {
                    self.sprt_done = Some(Status::SprtAcceptedH0);
                }
                return self.sprt_done.is_some();
            }
        }
        false
    }
}

thread_local! {
    /// Each worker thread's memories, one per player, reused from game to game
    /// (every game starts by resetting them, so reuse changes no result).
    static MEMORIES: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

pub(crate) fn with_memories<G: Geometry, R>(
    players: usize,
    f: impl FnOnce(&mut [Memory<G>]) -> R,
) -> R {
    MEMORIES.with(|cell| {
        let mut slot = cell.borrow_mut();
        let fits = slot
            .as_ref()
            .and_then(|b| b.downcast_ref::<Vec<Memory<G>>>())
            .is_some_and(|v| v.len() == players);
        if !fits {
            *slot = Some(Box::new(
                (0..players).map(|_| Memory::<G>::new()).collect::<Vec<_>>(),
            ));
        }
        let memories = slot
            .as_mut()
            .and_then(|b| b.downcast_mut::<Vec<Memory<G>>>())
            .expect("just made");
        f(memories)
    })
}

/// Two distinct elements of a slice, mutably.
pub(crate) fn two_mut<T>(items: &mut [T], a: usize, b: usize) -> [&mut T; 2] {
    assert_ne!(a, b);
    if a < b {
        let (left, right) = items.split_at_mut(b);
        [&mut left[a], &mut right[0]]
    } else {
        let (left, right) = items.split_at_mut(a);
        [&mut right[0], &mut left[b]]
    }
}

/// A played game, ready for writing: its CSV row, formatted on the worker thread,
/// and what the tallies need.
struct Played {
    csv: Vec<u8>,
    pair: usize,
    game_in_pair: u64,
    a_black: bool,
    a_margin: i32,
}

impl Played {
    /// NOTE: `game_in_pair` and `a_black` follow the schedule in `play_one`.
    fn new(record: &GameRecord, games_per_pair: u64) -> Self {
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .buffer_capacity(512)
            .from_writer(Vec::with_capacity(256));
        writer
            .serialize(record)
            .expect("a record always serialises");
        let csv = writer.into_inner().expect("writing to memory cannot fail");
        let game_in_pair = record.game_id % games_per_pair;
        let a_black = game_in_pair % 2 == 0;
        Played {
            csv,
            pair: record.pair_id as usize,
            game_in_pair,
            a_black,
            a_margin: if a_black {
                record.margin
            } else {
                -record.margin
            },
        }
    }
}

/// Plays game number `index` of the run.
fn play_one<G: Geometry>(
    experiment: &Experiment,
    strategies: &[Box<dyn Strategy<G>>],
    pairs: &[(usize, usize)],
    index: u64,
) -> GameRecord {
    let per_pair = experiment.games_per_pair;
    let pair = index / per_pair;
    let game_in_pair = index % per_pair;
    let (a, b) = pairs[pair as usize];
    let a_black = game_in_pair % 2 == 0;
    let (black, white) = if a_black { (a, b) } else { (b, a) };
    let opening = experiment.opening(pair, game_in_pair / 2);
    let start = Game::<G>::from_transcript(&opening)
        .expect("openings are checked when the experiment is loaded");
    let seed = game_seed(experiment.seed, pair, game_in_pair);
    let mut rng = game_rng(seed);
    let game = with_memories::<G, _>(strategies.len(), |memories| {
        let seats = two_mut(memories, black, white);
        play_game(
            [strategies[black].as_ref(), strategies[white].as_ref()],
            start,
            &mut rng,
            seats,
        )
    });
    let outcome = game.outcome(experiment.rules).expect("played to the end");
    GameRecord {
        game_id: index,
        pair_id: pair,
        opening,
        black: experiment.players[black].name.clone(),
        white: experiment.players[white].name.clone(),
        black_discs: outcome.black_discs,
        white_discs: outcome.white_discs,
        result: outcome.result_name().to_string(),
        margin: outcome.margin,
        plies: game.moves().len() as u32,
        passes: game.passes(),
        moves: game.transcript(),
        seed,
    }
}

fn io_error(path: &Path, error: std::io::Error) -> Error {
    Error::io(path, error)
}

fn csv_error(path: &Path, error: csv::Error) -> Error {
    Error::io(path, std::io::Error::other(error.to_string()))
}

/// Reads the games already in `games.csv` (dropping a partial last row left by a
/// kill) and counts them into `tallies`. Returns how many there are.
fn resume_games(
    path: &Path,
    experiment: &Experiment,
    pairs: &[(usize, usize)],
    tallies: &mut Tallies,
) -> Result<u64> {
    // Cut the file after its last complete line.
    let bytes = fs::read(path).map_err(|e| io_error(path, e))?;
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep < bytes.len() {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| io_error(path, e))?;
        file.set_len(keep as u64).map_err(|e| io_error(path, e))?;
    }
    drop(bytes);
    let mut reader = csv::Reader::from_path(path).map_err(|e| csv_error(path, e))?;
    let mut count = 0u64;
    let per_pair = experiment.games_per_pair;
    for row in reader.deserialize::<GameRecord>() {
        let row = row.map_err(|e| {
            Error::input(format!(
                "{}: row {} cannot be read ({e}): the file was changed by hand; start a new run with --out",
                path.display(),
                count + 2
            ))
        })?;
        let pair = count / per_pair;
        let game_in_pair = count % per_pair;
        let mismatch = || {
            Error::input(format!(
                "{}: game {} does not match the experiment (was games.csv made by another config?): start a new run with --out",
                path.display(),
                count
            ))
        };
        if row.game_id != count || pair as usize >= pairs.len() || row.pair_id != pair {
            return Err(mismatch());
        }
        let (a, b) = pairs[pair as usize];
        let a_black = game_in_pair % 2 == 0;
        let (black, white) = if a_black { (a, b) } else { (b, a) };
        if row.black != experiment.players[black].name
            || row.white != experiment.players[white].name
        {
            return Err(mismatch());
        }
        let a_margin = if a_black { row.margin } else { -row.margin };
        tallies.record(experiment, pair as usize, a_black, a_margin, game_in_pair);
        count += 1;
        if tallies.sprt_done.is_some() {
            break;
        }
    }
    Ok(count)
}

/// Writes `contents` to `path` through a temporary file, so a reader never sees half a file.
fn write_atomically(path: &Path, contents: &[u8]) -> Result<()> {
    let temporary = path.with_extension("tmp");
    fs::write(&temporary, contents).map_err(|e| io_error(&temporary, e))?;
    fs::rename(&temporary, path).map_err(|e| io_error(path, e))
}

fn number(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        String::new()
    } else if x.is_infinite() {
        if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{x:.decimals$}")
    }
}

fn pairs_csv(
    experiment: &Experiment,
    pairs: &[(usize, usize)],
    tallies: &Tallies,
) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec![
        "player_a",
        "player_b",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "score_low",
        "score_high",
        "elo",
        "elo_low",
        "elo_high",
        "los",
        "black_wins",
        "black_draws",
        "black_losses",
        "black_score",
        "white_wins",
        "white_draws",
        "white_losses",
        "white_score",
        "margin_mean",
        "margin_low",
        "margin_high",
        "penta_0",
        "penta_1",
        "penta_2",
        "penta_3",
        "penta_4",
        "penta_elo",
        "penta_elo_low",
        "penta_elo_high",
    ];
    if experiment.sprt.is_some() {
        header.extend(["sprt_llr", "sprt_lower", "sprt_upper", "sprt_result"]);
    }
    w.write_record(&header)
        .map_err(|e| Error::input(e.to_string()))?;
    for (index, &(a, b)) in pairs.iter().enumerate() {
        let t = &tallies.pairs[index];
        let score = t.all.score();
        // A score lies in [0, 1]; the normal approximation's interval may not.
        let (score_low, score_high) = score.interval95();
        let (score_low, score_high) = (score_low.clamp(0.0, 1.0), score_high.clamp(0.0, 1.0));
        let (elo, elo_low, elo_high) = score.elo95();
        let margin = t.margin.estimate();
        let (margin_low, margin_high) = margin.interval95();
        let penta = t.penta.score();
        let (p_elo, p_low, p_high) = if t.penta.pairs() > 0 {
            penta.elo95()
        } else {
            (f64::NAN, f64::NAN, f64::NAN)
        };
        let mut row = vec![
            experiment.players[a].name.clone(),
            experiment.players[b].name.clone(),
            t.all.games().to_string(),
            t.all.wins.to_string(),
            t.all.draws.to_string(),
            t.all.losses.to_string(),
            number(score.mean, 4),
            number(score_low, 4),
            number(score_high, 4),
            number(elo, 1),
            number(elo_low, 1),
            number(elo_high, 1),
            number(score.los(), 4),
            t.as_black.wins.to_string(),
            t.as_black.draws.to_string(),
            t.as_black.losses.to_string(),
            number(t.as_black.score().mean, 4),
            t.as_white.wins.to_string(),
            t.as_white.draws.to_string(),
            t.as_white.losses.to_string(),
            number(t.as_white.score().mean, 4),
            number(margin.mean, 2),
            number(margin_low, 2),
            number(margin_high, 2),
        ];
        row.extend(t.penta.0.iter().map(u64::to_string));
        row.extend([number(p_elo, 1), number(p_low, 1), number(p_high, 1)]);
        if let Some(sprt) = experiment.sprt {
            let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
            row.extend([
                number(t.penta.llr(sprt.elo0, sprt.elo1), 3),
                number(lower, 3),
                number(upper, 3),
                match tallies.sprt_done {
                    Some(Status::SprtAcceptedH1) => "H1".to_string(),
                    Some(Status::SprtAcceptedH0) => "H0".to_string(),
                    _ => "continue".to_string(),
                },
            ]);
        }
        w.write_record(&row)
            .map_err(|e| Error::input(e.to_string()))?;
    }
    w.into_inner().map_err(|e| Error::input(e.to_string()))
}

fn standings_csv(
    experiment: &Experiment,
    pairs: &[(usize, usize)],
    tallies: &Tallies,
) -> Result<Vec<u8>> {
    let n = experiment.players.len();
    let mut matrix = vec![vec![Trinomial::default(); n]; n];
    for (index, &(a, b)) in pairs.iter().enumerate() {
        let t = tallies.pairs[index].all;
        matrix[a][b] = matrix[a][b] + t;
        matrix[b][a] = matrix[b][a]
            + Trinomial {
                wins: t.losses,
                draws: t.draws,
                losses: t.wins,
            };
    }
    let ratings = bradley_terry(&matrix);
    let mut rows: Vec<(usize, Trinomial, f64, f64)> = (0..n)
        .map(|i| {
            let total = matrix[i]
                .iter()
                .fold(Trinomial::default(), |acc, &t| acc + t);
            (i, total, ratings[i].0, ratings[i].1)
        })
        .collect();
    rows.sort_by(|x, y| {
        y.2.partial_cmp(&x.2)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(x.0.cmp(&y.0))
    });
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "rank",
        "player",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "rating",
        "rating_low",
        "rating_high",
    ])
    .map_err(|e| Error::input(e.to_string()))?;
    for (rank, (i, total, rating, se)) in rows.into_iter().enumerate() {
        w.write_record([
            (rank + 1).to_string(),
            experiment.players[i].name.clone(),
            total.games().to_string(),
            total.wins.to_string(),
            total.draws.to_string(),
            total.losses.to_string(),
            number(total.score().mean, 4),
            number(rating, 1),
            number(rating - Z95 * se, 1),
            number(rating + Z95 * se, 1),
        ])
        .map_err(|e| Error::input(e.to_string()))?;
    }
    w.into_inner().map_err(|e| Error::input(e.to_string()))
}

fn run_toml(
    experiment: &Experiment,
    status: &str,
    summary: Option<&RunSummary>,
    threads: usize,
    started: &str,
) -> String {
    let mut run = toml::Table::new();
    run.insert("version".into(), env!("CARGO_PKG_VERSION").into());
    run.insert("status".into(), status.into());
    run.insert("threads".into(), (threads as i64).into());
    run.insert("started".into(), started.into());
    run.insert(
        "games_total".into(),
        (experiment.total_games() as i64).into(),
    );
    if let Some(s) = summary {
        run.insert("games".into(), (s.games as i64).into());
        run.insert("games_this_session".into(), (s.played as i64).into());
        run.insert(
            "elapsed_seconds".into(),
            ((s.seconds * 1000.0).round() / 1000.0).into(),
        );
        run.insert(
            "games_per_second".into(),
            ((s.played as f64 / s.seconds.max(1e-9)).round()).into(),
        );
    }
    let mut top = toml::Table::new();
    top.insert("run".into(), toml::Value::Table(run));
    top.insert(
        "experiment".into(),
        toml::Value::Table(experiment.to_table()),
    );
    format!(
        "# Written by reversi-lab: the experiment exactly as run (defaults filled in) and how the run went.\n{}",
        toml::to_string(&top).expect("a table serialises")
    )
}

/// Plays an experiment (or the rest of it, with `resume`) and writes its results.
pub fn run(experiment: &Experiment, options: &RunOptions<'_>) -> Result<RunSummary> {
    let out = options
        .out
        .clone()
        .unwrap_or_else(|| Path::new("results").join(&experiment.name));
    let games_path = out.join("games.csv");
    let run_path = out.join("run.toml");
    let exists = out.exists();
    if exists && !options.resume {
        return Err(Error::input(format!(
            "results folder {} already exists: pass --resume to continue it, or --out DIR to write elsewhere",
            out.display()
        )));
    }
    let threads = experiment
        .threads
        .unwrap_or_else(rayon::current_num_threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::input(format!("cannot start {threads} threads: {e}")))?;
    let pairs = experiment.pairs();
    let total = experiment.total_games();
    let mut tallies = Tallies {
        pairs: vec![PairTally::default(); pairs.len()],
        sprt_done: None,
    };
    let started = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();

    let resuming = exists && games_path.exists();
    let done = if resuming {
        let recorded =
            fs::read_to_string(&run_path).map_err(|e| Error::unreadable(&run_path, &e))?;
        let recorded: toml::Table = toml::from_str(&recorded)
            .map_err(|e| Error::input(format!("{}: {}", run_path.display(), e.message())))?;
        if recorded.get("experiment") != Some(&toml::Value::Table(experiment.to_table())) {
            return Err(Error::input(format!(
                "{} was made by a different experiment (config, --games or --seed differ): rerun with the same ones, or use --out DIR for a new run",
                out.display()
            )));
        }
        resume_games(&games_path, experiment, &pairs, &mut tallies)?
    } else {
        if !exists {
            fs::create_dir_all(&out).map_err(|e| {
                Error::input(format!(
                    "cannot create results folder {}: {e} (choose another with --out)",
                    out.display()
                ))
            })?;
        }
        let setup = (|| -> Result<()> {
            fs::write(
                &run_path,
                run_toml(experiment, "running", None, threads, &started),
            )
            .map_err(|e| io_error(&run_path, e))?;
            let mut header =
                csv::Writer::from_path(&games_path).map_err(|e| csv_error(&games_path, e))?;
            header
                .write_record([
                    "game_id",
                    "pair_id",
                    "opening",
                    "black",
                    "white",
                    "black_discs",
                    "white_discs",
                    "result",
                    "margin",
                    "plies",
                    "passes",
                    "moves",
                    "seed",
                ])
                .map_err(|e| csv_error(&games_path, e))?;
            header.flush().map_err(|e| io_error(&games_path, e))
        })();
        if let Err(error) = setup {
            if !exists {
                // Leave nothing behind: the folder was ours and holds no games.
                let _ = fs::remove_dir_all(&out);
            }
            return Err(error);
        }
        0
    };

    let file = OpenOptions::new()
        .append(true)
        .open(&games_path)
        .map_err(|e| io_error(&games_path, e))?;
    let mut writer = BufWriter::with_capacity(1 << 20, file);

    let progress = Progress::new(total, done, options.quiet);
    let clock = Instant::now();
    let mut next = done;
    let mut played = 0u64;
    let mut chunk = 256u64;
    let mut interrupted = false;
    with_geometry!(experiment.size, G => {
        let strategies: Vec<Box<dyn Strategy<G>>> = experiment
            .players
            .iter()
            .map(|p| p.spec.build::<G>(experiment.rules).map_err(|e| Error::input(format!("player '{}': {e}", p.name))))
            .collect::<Result<_>>()?;
        let compute = |from: u64, to: u64| -> Vec<Option<Played>> {
            (from..to)
                .into_par_iter()
                .map(|index| {
                    if options.stop.load(Ordering::Relaxed) {
                        None
                    } else {
                        Some(Played::new(&play_one::<G>(experiment, &strategies, &pairs, index), experiment.games_per_pair))
                    }
                })
                .collect()
        };
        // Games are played one chunk ahead of writing: while this thread writes and
        // counts chunk k in game order, the pool plays chunk k + 1. A chunk played
        // past an SPRT stop or an interruption is dropped, so results never depend
        // on chunk sizes or timing.
        let mut pending: Option<Vec<Option<Played>>> = None;
        let mut scheduled = next;
        loop {
            let ahead = if scheduled < total && tallies.sprt_done.is_none() && !interrupted {
                let end = (scheduled + chunk).min(total);
                let range = (scheduled, end);
                scheduled = end;
                Some(range)
            } else {
                None
            };
            if pending.is_none() && ahead.is_none() {
                break;
            }
            let chunk_clock = Instant::now();
            let (written, computed) = pool.install(|| {
                rayon::join(
                    || -> Result<Option<u64>> {
                        let Some(rows) = pending.take() else { return Ok(None) };
                        let mut written = 0u64;
                        for row in &rows {
                            let Some(row) = row else {
                                interrupted = true;
                                break;
                            };
                            use std::io::Write as _;
                            writer.write_all(&row.csv).map_err(|e| io_error(&games_path, e))?;
                            written += 1;
                            if tallies.record(experiment, row.pair, row.a_black, row.a_margin, row.game_in_pair) {
                                break;
                            }
                        }
                        use std::io::Write as _;
                        writer.flush().map_err(|e| io_error(&games_path, e))?;
                        Ok(Some(written))
                    },
                    || ahead.map(|(from, to)| compute(from, to)),
                )
            });
            if let Some(written) = written? {
                next += written;
                played += written;
                progress.advance(written);
                if let Some(sprt) = experiment.sprt {
                    let llr = tallies.pairs[0].penta.llr(sprt.elo0, sprt.elo1);
                    progress.message(format!("LLR {llr:.2}"));
                }
            }
            if options.stop.load(Ordering::Relaxed) {
                interrupted = true;
            }
            if tallies.sprt_done.is_some() || interrupted {
                break; // whatever was played ahead is dropped
            }
            if let Some(rows) = computed {
                // Aim for chunks of about half a second: responsive progress and
                // interruption, little overhead.
                let rate = rows.len() as f64 / chunk_clock.elapsed().as_secs_f64().max(1e-6);
                chunk = ((rate * 0.5) as u64).clamp(16, 1 << 16);
                pending = Some(rows);
            }
        }
        Ok::<(), Error>(())
    })?;
    progress.finish();
    drop(writer);
    let seconds = clock.elapsed().as_secs_f64();
    let status = if interrupted {
        Status::Interrupted
    } else {
        tallies.sprt_done.unwrap_or(Status::Complete)
    };
    let summary = RunSummary {
        out: out.clone(),
        games: next,
        played,
        seconds,
        status,
        threads,
    };
    let status_name = match status {
        Status::Complete => "complete",
        Status::SprtAcceptedH1 => "sprt-accepted-h1",
        Status::SprtAcceptedH0 => "sprt-accepted-h0",
        Status::Interrupted => "interrupted",
    };
    if status != Status::Interrupted {
        write_atomically(
            &out.join("pairs.csv"),
            &pairs_csv(experiment, &pairs, &tallies)?,
        )?;
        write_atomically(
            &out.join("standings.csv"),
            &standings_csv(experiment, &pairs, &tallies)?,
        )?;
    }
    write_atomically(
        &run_path,
        run_toml(experiment, status_name, Some(&summary), threads, &started).as_bytes(),
    )?;
    Ok(summary)
}
