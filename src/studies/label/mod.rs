//! `label`: turns recorded games into training positions for the pattern fitter. Every
//! position of every game (once each), valued for the side to move by a deep search of
//! the pattern evaluation or, near the end, by an exact solve, is appended to a
//! labelled-positions file (`lab::positions`) in the games' order, with a checkpoint
//! beside it: a killed run resumes where it stopped, and any thread count writes the
//! same bytes.

mod checkpoint;
mod output;

use crate::board::{Board, Size8};
use crate::error::{Error, Result};
use crate::game::Rules;
use crate::lab::driver::thread_pool;
use crate::lab::folder::{check_replaceable, placement, write_output, FolderLock, Placement};
use crate::lab::games_file;
use crate::lab::positions::{header, Label, Labelled, VALUE_SCALE};
use crate::lab::rows::GameRow;
use crate::progress::Progress;
use crate::setting::{Said, Setting, SettingError};
use crate::strategy::pattern::{PatternEval, Weights};
use crate::strategy::spec::{MAX_SOLVE_EMPTIES, MAX_UNBUDGETED_DEPTH};
use crate::strategy::{proven_margin, AlphaBeta};
use crate::strategy::{Memory, Solver};
use crate::studies::patterns::{positions_before_moves, read_weights, standard_games};
use checkpoint::Checkpoint;
use output::{Sink, Stream};
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The search depth by default, and the empties solved exactly by default: measured
/// on self-play of `alphabeta:depth=4,eval=pattern` (docs/training.md), a depth-8
/// search costs about 4 ms a position on one core and a solve of 18 empties about
/// 35 ms, where depth 10 costs 56 ms and 20 empties 175 ms.
pub const DEFAULT_DEPTH: u32 = 8;
/// See [`DEFAULT_DEPTH`].
pub const DEFAULT_EXACT: u32 = 18;
/// The deepest search accepted: as deep as an `alphabeta` player searches without a
/// budget, for the same reason (deeper can take hours, here a position).
pub const MAX_DEPTH: u32 = MAX_UNBUDGETED_DEPTH;
/// The most empties solved exactly: as many as an `alphabeta` player's `endgame`
/// solves, for the same reason, unless only exact labels are asked for.
pub const MAX_EXACT: u32 = MAX_SOLVE_EMPTIES;
/// The most empties solved exactly when only exact labels are asked for (`--empties`
/// ending at `--exact` or below: a held-out set, seconds a position).
pub const MAX_EXACT_ONLY: u32 = 30;
/// log2 of the search's and the solver's table entries.
const TABLE_BITS: u32 = 18;
/// Games labelled between checkpoints: a kill loses at most this many games' work.
const BATCH_GAMES: usize = 32;
/// Labels are clamped to a whole board's margin.
const VALUE_LIMIT: i32 = 64 * VALUE_SCALE;

/// What `label` is asked to do.
#[derive(Clone, Debug)]
pub struct LabelOptions<'a> {
    /// Results folders whose games are labelled (8x8, standard rules), in this order.
    pub inputs: Vec<PathBuf>,
    /// The positions file to write (or resume).
    pub out: PathBuf,
    /// Plies searched for positions with more than `exact` empties.
    pub depth: u32,
    /// Positions with at most this many empties are solved exactly.
    pub exact: u32,
    /// Only positions with `empties.0..=empties.1` empty squares are labelled.
    pub empties: (u32, u32),
    /// The evaluation's weights file (None: the shipped weights).
    pub weights: Option<PathBuf>,
    /// Worker threads (None: one per core); no byte of the file depends on it.
    pub threads: Option<usize>,
    /// Start afresh, replacing a finished or half-written file.
    pub force: bool,
    /// No progress bar.
    pub quiet: bool,
    /// Set to stop after the batch in flight (Ctrl-C).
    pub stop: &'a AtomicBool,
}

/// What a `label` run did.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelSummary {
    /// Games in the inputs.
    pub games: u64,
    /// Games labelled so far (all of them unless interrupted).
    pub games_done: u64,
    /// Games done by an earlier run this one resumed.
    pub resumed_games: u64,
    /// Records in the file.
    pub records: u64,
    /// Records this run wrote by an exact solve and by a search.
    pub exact: u64,
    /// See `exact`.
    pub searched: u64,
    /// Wall time of this run.
    pub seconds: f64,
    /// Stopped before the end (the checkpoint is kept for a resume).
    pub interrupted: bool,
    /// Where the positions of an interrupted run wait for its resume (`FILE.partial`;
    /// None when finished, or when written to a stream, which cannot be resumed).
    pub unfinished: Option<PathBuf>,
}

/// Values positions: a plain alpha-beta search of the pattern evaluation, or the
/// exact solver at `exact` empties or fewer. Each position gets a cleared memory, so
/// its label is the one a search of that position alone finds, whatever came before.
pub struct Labeller {
    search: AlphaBeta<Size8, PatternEval>,
    solver: Solver,
    exact: u32,
}

impl Labeller {
    /// A labeller searching `depth` plies with `eval`, solving at `exact` empties or fewer.
    #[must_use]
    pub fn new(depth: u32, exact: u32, eval: PatternEval) -> Self {
        Labeller {
            search: AlphaBeta {
                depth,
                eval,
                endgame: 0,
                nodes: None,
                time: None,
                probcut: None,
                table: true,
                ordering: true,
                table_bits: TABLE_BITS,
                rules: Rules::default(),
                geometry: std::marker::PhantomData,
            },
            solver: Solver::new(Rules::default(), TABLE_BITS),
            exact,
        }
    }

    /// The value of `board` for the side to move (who has a move), in 1/64 disc, and how it was found.
    pub fn label(&self, board: Board<Size8>, memory: &mut Memory<Size8>) -> (i16, Label) {
        memory.new_game();
        let (value, label) = if board.empty_count() <= self.exact {
            let score = self.solver.solve(board, memory).score;
            (score * VALUE_SCALE, Label::Exact)
        } else {
            let (value, _) = self.search.search(board, board.moves(), memory);
            let value = proven_margin(value).map_or(value, |m| m * VALUE_SCALE);
            let depth = u8::try_from(self.search.depth).expect("depth checked");
            (value, Label::Search { depth })
        };
        (value.clamp(-VALUE_LIMIT, VALUE_LIMIT) as i16, label)
    }
}

/// The positions already in the file, as (player, opponent) discs.
type Seen = HashSet<(u64, u64)>;

/// One game's positions to label, in the order played.
struct Pending {
    game: u32,
    boards: Vec<Board<Size8>>,
}

/// How deep each position is searched: `--depth N`.
pub static DEPTH: Setting = Setting::new("", "--depth", "depth");
/// Up to how many empty squares a position is solved: `--exact N`.
pub static EXACT: Setting = Setting::new("", "--exact", "exact");
/// The empty squares of the positions labelled: `--empties LOW-HIGH`.
pub static EMPTIES: Setting = Setting::new("", "--empties", "empties");

/// Checks the options that need no file.
fn check(options: &LabelOptions<'_>) -> Result<()> {
    if options.inputs.is_empty() {
        return Err(Error::input(
            "no results folders given: name the folders whose games to label",
        ));
    }
    if options.depth == 0 {
        return Err(SettingError::Refused {
            setting: &DEPTH,
            value: "0".into(),
            why: format!(" is out of range: give 1 to {MAX_DEPTH}").into(),
        }
        .into());
    }
    if options.depth > MAX_DEPTH {
        return Err(SettingError::Refused {
            setting: &DEPTH,
            value: options.depth.to_string(),
            why: format!(" can take hours a position: give 1 to {MAX_DEPTH}").into(),
        }
        .into());
    }
    let (low, high) = options.empties;
    // Deeper solves are a deliberate choice only when every position asked for is
    // solved (docs/training.md's held-out set: --exact 26 --empties 14-26).
    let limit = if high <= options.exact {
        MAX_EXACT_ONLY
    } else {
        MAX_EXACT
    };
    if options.exact > limit {
        return Err(Error::said(
            Said::default()
                .given(&EXACT, options.exact)
                .then(format!(
                    " would solve positions with up to {} empty squares exactly, which can take hours: give 0 (never solve) to {MAX_EXACT}, or up to {MAX_EXACT_ONLY} with ",
                    options.exact
                ))
                .placeholder(&EMPTIES, "LOW-HIGH")
                .then(" ending at ")
                .name(&EXACT)
                .then(" or below to label only solved positions"),
        ));
    }
    if low > high || high > 60 {
        return Err(SettingError::Refused {
            setting: &EMPTIES,
            value: format!("{low}-{high}"),
            why: " is not a range of empty squares: give LOW-HIGH with LOW <= HIGH <= 60, such as 0-60"
                .into(),
        }
        .into());
    }
    Ok(())
}

/// The evaluation the searches use, and what names it in the checkpoint.
fn evaluation(weights: Option<&Path>) -> Result<(PatternEval, String)> {
    let Some(path) = weights else {
        return Ok((
            PatternEval::for_board::<Size8>().expect("8x8"),
            "shipped".into(),
        ));
    };
    let decoded = read_weights(path)?;
    // What the checkpoint names: the weights themselves, whatever file holds them.
    let digest = checkpoint::digest(&decoded.encode());
    // One evaluation for the whole run, shared by every worker.
    let weights: &'static Weights = Box::leak(Box::new(decoded));
    Ok((PatternEval::with(weights), digest))
}

/// Labels the games of `options.inputs` into `options.out`, resuming a checkpointed run.
pub fn label(options: &LabelOptions<'_>) -> Result<LabelSummary> {
    check(options)?;
    let started = Instant::now();
    // Everything that can refuse the options comes before the output is touched.
    let pool = thread_pool(options.threads)?;
    let (eval, weights) = evaluation(options.weights.as_deref())?;
    let mut games = Vec::new();
    for dir in &options.inputs {
        games.push(input_games(dir)?);
    }
    let job = Job {
        options,
        games: &games,
        labeller: Labeller::new(options.depth, options.exact, eval),
        pool: &pool,
        started,
    };
    let out = &options.out;
    match placement(out)? {
        Placement::Direct => {
            check_replaceable(out, &crate::lab::folder::OUT, options.force)?;
            write_output(out, |stream| {
                stream.write_all(&header()).map_err(|e| Error::io(out, e))?;
                let mut sink = Stream {
                    out: stream,
                    path: out,
                    records: 0,
                };
                job.run(&mut sink, 0, HashSet::new())
            })
        }
        Placement::Replace { target, temporary } => {
            let _lock = FolderLock::acquire_file(out, "label")?;
            let wanted = Checkpoint::new(options, &weights);
            let (mut file, resumed, seen) = output::open(options, &wanted, &target, &temporary)?;
            let mut summary = job.run(&mut file, resumed, seen)?;
            if summary.interrupted {
                summary.unfinished = Some(temporary);
            } else {
                output::finish(file, &temporary, out)?;
            }
            Ok(summary)
        }
    }
}

/// A run's inputs and workers.
struct Job<'a> {
    options: &'a LabelOptions<'a>,
    /// Each input's games file and its games.
    games: &'a [(PathBuf, u64)],
    labeller: Labeller,
    pool: &'a rayon::ThreadPool,
    started: Instant,
}

impl Job<'_> {
    /// Labels every game after the first `resumed` into `sink`, committing each batch.
    fn run(&self, sink: &mut dyn Sink, resumed: u64, mut seen: Seen) -> Result<LabelSummary> {
        let options = self.options;
        let total: u64 = self.games.iter().map(|g| g.1).sum();
        let progress = Progress::new(total, resumed, options.quiet, "games");
        let (mut exact, mut searched) = (0, 0);
        let mut skip = resumed;
        let mut done = resumed;
        let mut interrupted = false;
        'inputs: for (path, _) in self.games {
            let mut reader = games_file::csv_reader(path)?;
            let mut rows = reader.deserialize::<GameRow>();
            loop {
                if options.stop.load(Ordering::SeqCst) {
                    interrupted = true;
                    break 'inputs;
                }
                let mut batch = Vec::with_capacity(BATCH_GAMES);
                for row in rows.by_ref() {
                    let row = row.map_err(|e| games_file::row_error(path, &e))?;
                    if skip > 0 {
                        skip -= 1;
                        continue;
                    }
                    batch.push(positions_of(&row, path, options.empties, &mut seen)?);
                    if batch.len() == BATCH_GAMES {
                        break;
                    }
                }
                if batch.is_empty() {
                    break;
                }
                let boards: Vec<(u32, Board<Size8>)> = (batch.iter())
                    .flat_map(|p| p.boards.iter().map(|&b| (p.game, b)))
                    .collect();
                let labels: Vec<(i16, Label)> = self.pool.install(|| {
                    boards
                        .par_iter()
                        .map_init(Memory::new, |memory, &(_, board)| {
                            self.labeller.label(board, memory)
                        })
                        .collect()
                });
                for (&(game, board), &(value, label)) in boards.iter().zip(&labels) {
                    match label {
                        Label::Exact => exact += 1,
                        Label::Search { .. } => searched += 1,
                    }
                    sink.push(&Labelled {
                        player: board.player,
                        opponent: board.opponent,
                        value,
                        label,
                        game,
                    })?;
                }
                done += batch.len() as u64;
                sink.commit(done)?;
                progress.advance(batch.len() as u64);
            }
        }
        progress.finish();
        // A stop after the last batch stops nothing: the file is finished.
        interrupted &= done < total;
        Ok(LabelSummary {
            games: total,
            games_done: done,
            resumed_games: resumed,
            records: sink.records(),
            exact,
            searched,
            seconds: self.started.elapsed().as_secs_f64(),
            interrupted,
            unfinished: None,
        })
    }
}

/// The games file of the results folder `dir` and how many games it holds.
fn input_games(dir: &Path) -> Result<(PathBuf, u64)> {
    let games = standard_games(dir, "label", "positions are labelled from")?;
    let mut reader = games_file::csv_reader(&games)?;
    let mut count = 0;
    for row in reader.deserialize::<GameRow>() {
        row.map_err(|e| games_file::row_error(&games, &e))?;
        count += 1;
    }
    Ok((games, count))
}

/// The positions of one game to label: those before each move with empties in
/// `range`, each only the first time it is seen in the run.
fn positions_of(
    row: &GameRow<'_>,
    path: &Path,
    (low, high): (u32, u32),
    seen: &mut Seen,
) -> Result<Pending> {
    let game = u32::try_from(row.game_id).map_err(|_| {
        Error::input(format!(
            "game {} of {}: labelled positions record game numbers up to {}",
            row.game_id,
            path.display(),
            u32::MAX
        ))
    })?;
    let boards = (positions_before_moves(row, path)?.into_iter())
        .map(|(board, _)| board)
        .filter(|b| (low..=high).contains(&b.empty_count()) && seen.insert((b.player, b.opponent)))
        .collect();
    Ok(Pending { game, boards })
}
