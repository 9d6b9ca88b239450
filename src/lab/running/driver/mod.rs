//! The one parallel play driver: a thread pool, each worker's strategy memory, the
//! game loop, and in-order streaming of results while the next games play.

mod abandon;
mod plan;

pub use abandon::abandon_games_in_flight;

use plan::{lock, Plan};

use super::cost::Cost;
use super::schedule::{game_rng, Deal};
use super::setup::check_threads;
use crate::board::{Bits, Color, Geometry, Square};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::strategy::{random_square, Context, GameRng, History, Memory, Strategy};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// Plays `game` to its end: `players[0]` plays black, `players[1]` white. Each
/// player's memory is reset first, so the game depends on its seed alone.
pub fn play_game<G: Geometry>(
    players: [&dyn Strategy<G>; 2],
    game: Game<G>,
    rng: &mut GameRng,
    memories: [&mut Memory<G>; 2],
) -> Game<G> {
    play_game_costed(players, game, rng, memories).0
}

/// [`play_game`], also returning what the game cost each seat (black, white).
pub fn play_game_costed<G: Geometry>(
    players: [&dyn Strategy<G>; 2],
    mut game: Game<G>,
    rng: &mut GameRng,
    memories: [&mut Memory<G>; 2],
) -> (Game<G>, [Cost; 2]) {
    let costs = if both_uniform(players) {
        random_costs(&mut game, rng)
    } else {
        play_on(players, &mut game, rng, memories, None)
    };
    (game, costs)
}

/// Whether both players draw uniformly at random: then a game needs no memory, no
/// clock and no node count, and [`play_random`] is the whole of it.
fn both_uniform<G: Geometry>(players: [&dyn Strategy<G>; 2]) -> bool {
    players[0].uniform_random() && players[1].uniform_random()
}

/// A game of two random players: [`play_random`], its choices as costs.
#[inline]
fn random_costs<G: Geometry>(game: &mut Game<G>, rng: &mut GameRng) -> [Cost; 2] {
    play_random(game, rng).map(|choices| Cost {
        games: 1,
        moves: choices,
        ..Cost::default()
    })
}

/// Plays `game` to its end in place (any players), returning what it cost each seat;
/// once `abandon` is set, it ends after the next timed move, unfinished (to be dropped).
fn play_on<G: Geometry>(
    players: [&dyn Strategy<G>; 2],
    game: &mut Game<G>,
    rng: &mut GameRng,
    memories: [&mut Memory<G>; 2],
    abandon: Option<&AtomicBool>,
) -> [Cost; 2] {
    let [black, white] = memories;
    black.new_game();
    white.new_game();
    let memories = [black, white];
    let nodes_before = memories.each_ref().map(|m| m.nodes);
    // Asked once a game rather than once a move: a virtual call per move is a
    // visible share of a random game.
    let uniform = players.map(|p| p.uniform_random());
    let mut costs = [Cost {
        games: 1,
        ..Cost::default()
    }; 2];
    loop {
        let moves = game.legal_moves();
        if moves.is_empty() {
            // Passes are automatic, so no move means the game is over.
            end_costs(&mut costs, &memories, nodes_before);
            return costs;
        }
        let seat = match game.side() {
            Color::Black => 0,
            Color::White => 1,
        };
        let square = if moves.count() == 1 {
            Square::new(moves.lowest())
        } else if uniform[seat] {
            // The draw `RandomMove::choose` makes, without the virtual call and the
            // context: the same games, a third less work per random move.
            costs[seat].moves += 1;
            random_square(moves, rng)
        } else {
            costs[seat].moves += 1;
            let mut context = Context {
                rng,
                memory: &mut *memories[seat],
                // The games the driver plays start from the standard start (openings are moves).
                history: History::from_start(game.moves()),
            };
            let square = match players[seat].pick(game.board(), moves, &mut context) {
                Ok(pick) => pick.square(),
                Err(fault) => {
                    game.forfeit(fault.termination);
                    continue;
                }
            };
            // A strategy that thinks long enough to be worth timing notes how long.
            if let Some(nanos) = memories[seat].notes.take_nanos() {
                costs[seat].nanos += nanos;
                costs[seat].max_nanos = costs[seat].max_nanos.max(nanos);
                costs[seat].timed = true;
                // An abandoned game ends before its next move: looked at only after
                // a move long enough to be timed, as the moves of a rule (a few
                // microseconds) end their game sooner than the look would.
                if abandon.is_some_and(|a| a.load(Ordering::Relaxed)) {
                    end_costs(&mut costs, &memories, nodes_before);
                    return costs;
                }
            }
            assert!(
                moves.has(square.index()),
                "a strategy chose an illegal move: {}",
                square.name(G::SIZE)
            );
            square
        };
        game.play_unchecked(square);
    }
}

/// Completes a game's `costs` with the nodes each seat's memory counted since `before`.
fn end_costs<G: Geometry>(costs: &mut [Cost; 2], memories: &[&mut Memory<G>; 2], before: [u64; 2]) {
    for (seat, cost) in costs.iter_mut().enumerate() {
        cost.nodes = memories[seat].nodes - before[seat];
    }
}

/// Plays `game` to its end with both sides drawing [`random_square`], the draws
/// [`play_game_costed`] makes for a `random` player; returns the choices each side
/// made (black, white): moves with more than one legal square.
#[inline]
fn play_random<G: Geometry>(game: &mut Game<G>, rng: &mut GameRng) -> [u64; 2] {
    // A copy the loop owns, so that its state stays in registers rather than being
    // written back after every draw.
    let mut local = rng.clone();
    let mut choices = [0; 2];
    loop {
        let moves = game.legal_moves();
        if moves.is_empty() {
            *rng = local;
            return choices;
        }
        let square = if moves.count() == 1 {
            Square::new(moves.lowest())
        } else {
            choices[game.side() as usize] += 1;
            random_square(moves, &mut local)
        };
        game.play_unchecked(square);
    }
}

/// What one game cost its two players: (player index, cost) for black and white.
type Spent = [(usize, Cost); 2];

/// Adds a game's costs to per-player totals.
fn add_spent(totals: &mut [Cost], spent: Spent) {
    for (player, cost) in spent {
        totals[player] += cost;
    }
}

/// A pool of `threads` worker threads (None: one per core), the count checked.
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let threads = match threads {
        Some(t) => check_threads(t, &super::setup::THREADS)?,
        None => rayon::current_num_threads(),
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::internal_from(format!("cannot start {threads} threads"), e))
}

/// What a stream's consumer wants next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep going.
    Continue,
    /// Stop here: games after this one are not wanted (an SPRT has concluded).
    Stop,
}

/// How a stream ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Streamed {
    /// Results handed to the consumer.
    pub consumed: u64,
    /// Whether the stop flag ended it early.
    pub interrupted: bool,
    /// What the consumed games cost, per player (games played ahead and dropped
    /// are not counted, so these match the results handed over).
    pub costs: Vec<Cost>,
}

/// A pool of worker threads, each with its own strategy memory reused from game
/// to game (every game resets it, so reuse changes no result).
pub struct Driver<G: Geometry> {
    pool: rayon::ThreadPool,
    memories: Vec<Mutex<Vec<Memory<G>>>>,
    /// Set when a stream's games in flight are to be dropped ([`abandon_games_in_flight`];
    /// a flag of their own in tests).
    abandon: Arc<AtomicBool>,
}

impl<G: Geometry> Driver<G> {
    /// A driver with `threads` workers (None: one per core).
    pub fn new(threads: Option<usize>) -> Result<Self> {
        let pool = thread_pool(threads)?;
        let threads = pool.current_num_threads();
        Ok(Driver {
            pool,
            memories: (0..threads).map(|_| Mutex::new(Vec::new())).collect(),
            abandon: Arc::clone(&abandon::ABANDONED),
        })
    }

    /// The worker count.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.memories.len()
    }

    /// Plays one game on the calling worker, with that worker's memories.
    fn play_one(
        &self,
        players: &[&dyn Strategy<G>],
        deal: Deal<G>,
        abandon: Option<&AtomicBool>,
    ) -> (Game<G>, Spent) {
        let [black, white] = deal.seats;
        assert_ne!(black, white, "a player cannot play itself");
        let pair = [players[black], players[white]];
        let mut game = deal.start;
        let mut rng = game_rng(deal.seed);
        let [black_cost, white_cost] = if both_uniform(pair) {
            // No memory to lock: a lock and its release are a visible share of a random game.
            random_costs(&mut game, &mut rng)
        } else {
            let worker = rayon::current_thread_index().unwrap_or(0) % self.memories.len();
            let mut memories = lock(&self.memories[worker]);
            if memories.len() < players.len() {
                // A search in progress stops once its game is abandoned.
                memories.resize_with(players.len(), || {
                    let mut memory = Memory::new();
                    memory.cancel = Some(Arc::clone(&self.abandon));
                    memory
                });
            }
            let seats = if black < white {
                let (low, high) = memories.split_at_mut(white);
                [&mut low[black], &mut high[0]]
            } else {
                let (low, high) = memories.split_at_mut(black);
                [&mut high[0], &mut low[white]]
            };
            play_on(pair, &mut game, &mut rng, seats, abandon)
        };
        (game, [(black, black_cost), (white, white_cost)])
    }

    /// Plays every game of `games` in parallel: `deal(i)` says who plays game `i`
    /// from where, `finish(i, game)` turns the finished game into a result. Results
    /// come in game order; once `stop` is set, the games not yet started give None.
    pub fn play<T: Send, D: Send>(
        &self,
        players: &[&dyn Strategy<G>],
        games: Range<u64>,
        deal: impl Fn(u64) -> (D, Deal<G>) + Sync,
        finish: impl Fn(u64, D, Game<G>) -> T + Sync,
        stop: Option<&AtomicBool>,
    ) -> Vec<Option<T>> {
        self.play_costed(players, games, deal, finish, stop)
            .into_iter()
            .map(|row| row.map(|(result, _)| result))
            .collect()
    }

    /// [`play`](Self::play), each result with what its game cost.
    fn play_costed<T: Send, D: Send>(
        &self,
        players: &[&dyn Strategy<G>],
        games: Range<u64>,
        deal: impl Fn(u64) -> (D, Deal<G>) + Sync,
        finish: impl Fn(u64, D, Game<G>) -> T + Sync,
        stop: Option<&AtomicBool>,
    ) -> Vec<Option<(T, Spent)>> {
        self.pool.install(|| {
            games
                .into_par_iter()
                .map(|index| {
                    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                        return None;
                    }
                    let (data, deal) = deal(index);
                    let (game, spent) = self.play_one(players, deal, None);
                    Some((finish(index, data, game), spent))
                })
                .collect()
        })
    }

    /// Plays every game of `games` in parallel, like [`stream`](Self::stream), and
    /// adds up the results (tallies whose `default` is zero) and what they cost per player.
    pub fn sum<T: Send + Default + std::ops::Add<Output = T>, D: Send>(
        &self,
        players: &[&dyn Strategy<G>],
        games: Range<u64>,
        deal: impl Fn(u64) -> (D, Deal<G>) + Sync,
        finish: impl Fn(u64, D, Game<G>) -> T + Sync,
    ) -> (T, Vec<Cost>) {
        let count = games.end - games.start;
        // Runs of consecutive games, each added up in a plain loop: rayon's fold moved
        // the running total through its folder for every game. As in `play_batches`,
        // some 16 runs per worker so that costly games still spread over every worker.
        let size = (count / (16 * self.threads() as u64)).clamp(1, 64);
        let none = || (T::default(), vec![Cost::default(); players.len()]);
        self.pool.install(|| {
            (0..count.div_ceil(size))
                .into_par_iter()
                .map(|run| {
                    let first = games.start + run * size;
                    let (mut total, mut costs) = none();
                    for index in first..(first + size).min(games.end) {
                        let (data, deal) = deal(index);
                        let (game, spent) = self.play_one(players, deal, None);
                        total = total + finish(index, data, game);
                        add_spent(&mut costs, spent);
                    }
                    (total, costs)
                })
                .reduce(none, |(a, mut costs), (b, more)| {
                    for (cost, more) in costs.iter_mut().zip(more) {
                        *cost += more;
                    }
                    (a + b, costs)
                })
        })
    }

    /// Plays `games` and hands each result to `sink` in game order, on a thread of its
    /// own (the writer), while the pool plays on. Once `sink` says stop, or `stop` is
    /// set, no game starts and the games played ahead are dropped: what `sink` sees
    /// never depends on batch sizes or timing, and after a stop it is the games finished
    /// up to the first one skipped.
    pub fn stream<T: Send, D: Send>(
        &self,
        players: &[&dyn Strategy<G>],
        games: Range<u64>,
        deal: impl Fn(u64) -> (D, Deal<G>) + Sync,
        finish: impl Fn(u64, D, &Game<G>) -> T + Sync,
        stop: &AtomicBool,
        mut sink: impl FnMut(T) -> Result<Flow> + Send,
    ) -> Result<Streamed> {
        self.stream_rows(
            players,
            games,
            deal,
            |index, data, game, _| finish(index, data, game),
            stop,
            |delivery| match delivery {
                Delivery::Row(row, _) => sink(row),
                Delivery::Checkpoint(_) => Ok(Flow::Continue),
            },
        )
    }

    /// [`stream`](Self::stream) for results written as bytes (CSV rows): `finish`
    /// appends a game's bytes to a buffer its worker shares with the neighbouring
    /// games, so a row costs no allocation of its own. `sink` gets each result with
    /// its bytes as soon as the games before it are in, and a [`Delivery::Checkpoint`]
    /// at most [`CHECKPOINT`] after a row (and after the last one), whatever a game
    /// costs: where a sink flushes its file and records the costs in step with its rows.
    pub fn stream_rows<T: Send, D: Send>(
        &self,
        players: &[&dyn Strategy<G>],
        games: Range<u64>,
        deal: impl Fn(u64) -> (D, Deal<G>) + Sync,
        finish: impl Fn(u64, D, &Game<G>, &mut Vec<u8>) -> T + Sync,
        stop: &AtomicBool,
        mut sink: impl FnMut(Delivery<'_, T>) -> Result<Flow> + Send,
    ) -> Result<Streamed> {
        let _streaming = abandon::Streaming::begin();
        let abandon: &AtomicBool = &self.abandon;
        // Set by the writer once it wants no more games (the sink said stop or failed).
        let done = AtomicBool::new(false);
        let halted = || {
            stop.load(Ordering::Relaxed)
                || done.load(Ordering::Relaxed)
                || abandon.load(Ordering::Relaxed)
        };
        let wanted = games.end - games.start;
        let plan = Plan::new(games.clone(), self.threads());
        // Batches the writer has emptied, for the workers to fill again: a fresh buffer
        // per batch cost page faults and cache misses that were a visible share of a
        // fast game (greedy against greedy).
        let spare = Mutex::new(Vec::<Batch<T>>::new());
        let (finished, received) = mpsc::channel::<Batch<T>>();
        std::thread::scope(|scope| {
            let (done, plan, spare) = (&done, &plan, &spare);
            let writer = scope.spawn(move || -> Result<Streamed> {
                let mut streamed = Streamed {
                    consumed: 0,
                    interrupted: false,
                    costs: vec![Cost::default(); players.len()],
                };
                let concluded = deliver(
                    received,
                    games.start,
                    (plan, abandon),
                    spare,
                    &mut streamed,
                    &mut sink,
                );
                done.store(true, Ordering::Relaxed);
                plan.wake();
                let concluded = concluded?;
                streamed.interrupted = !concluded && streamed.consumed < wanted;
                Ok(streamed)
            });
            self.pool.broadcast(|_| {
                while let Some(claim) = plan.claim(&halted) {
                    let end = claim.end;
                    let batch = self.play_batch(players, claim, &deal, &finish, &halted, spare);
                    plan.timed(batch.nanos, batch.rows.len() as u64);
                    let faulted = batch.faulted;
                    if finished.send(batch).is_err() {
                        break; // the writer has stopped
                    }
                    if faulted {
                        // A game lost by a fault may be the one that stops play (a
                        // broken engine): the next game waits until the sink has seen it.
                        plan.wait_delivered(end, &halted);
                    }
                }
            });
            drop(finished);
            writer
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    }

    /// Plays the consecutive games `claim` on the calling worker, each row written as
    /// soon as its game ends. Once `halted` says so, the games not yet started are
    /// skipped and the batch is `cut` there; how long its games took tells the plan
    /// how many games the next batches should hold.
    fn play_batch<T: Send, D: Send>(
        &self,
        players: &[&dyn Strategy<G>],
        claim: Range<u64>,
        deal: &(impl Fn(u64) -> (D, Deal<G>) + Sync),
        finish: &(impl Fn(u64, D, &Game<G>, &mut Vec<u8>) -> T + Sync),
        halted: &(impl Fn() -> bool + Sync),
        spare: &Mutex<Vec<Batch<T>>>,
    ) -> Batch<T> {
        let mut batch = lock(spare).pop().unwrap_or_else(|| Batch {
            first: 0,
            rows: Vec::new(),
            bytes: Vec::new(),
            cut: false,
            nanos: 0,
            faulted: false,
        });
        batch.first = claim.start;
        batch.faulted = false;
        let clock = Instant::now();
        for index in claim.clone() {
            if halted() {
                batch.cut = true;
                break;
            }
            let (data, deal) = deal(index);
            let (game, spent) = self.play_one(players, deal, Some(&self.abandon));
            if self.abandon.load(Ordering::Relaxed) {
                // The game may be unfinished, or ended by its engine's killing: dropped.
                batch.cut = true;
                break;
            }
            batch.faulted |= game
                .forfeited()
                .is_some_and(|forfeit| forfeit.termination.is_fault());
            let row = finish(index, data, &game, &mut batch.bytes);
            if batch.rows.is_empty() {
                // Room for the batch's rows at once, sized by its first one (with a
                // little slack), rather than a dozen regrowths.
                let rest = (claim.end - index) as usize;
                batch.bytes.reserve(batch.bytes.len() * rest * 9 / 8);
            }
            batch.rows.push((row, spent, batch.bytes.len()));
        }
        batch.nanos = clock.elapsed().as_nanos() as u64;
        batch
    }
}

/// How long a row may wait in the writer before a [`Delivery::Checkpoint`] follows it:
/// a kill loses at most this much play (and the games in flight), and a reader of
/// the folder sees progress at this pace.
pub const CHECKPOINT: Duration = Duration::from_millis(250);

/// How often the writer looks for an abandon while it waits for games.
const ABANDON_POLL: Duration = Duration::from_millis(50);

/// What a stream hands its sink, in order.
pub enum Delivery<'a, T> {
    /// A finished game's result and the bytes `finish` wrote for it, in game order.
    Row(T, &'a [u8]),
    /// Every row so far has been delivered: what their games cost, per player.
    Checkpoint(&'a [Cost]),
}

/// The writer's loop: takes finished batches in any order, hands their rows to `sink`
/// in game order, and checkpoints at most [`CHECKPOINT`] after a row; once `abandon`
/// is set it delivers no more rows and checkpoints those delivered at once. Returns
/// whether the sink concluded the stream (said stop).
fn deliver<T>(
    received: mpsc::Receiver<Batch<T>>,
    first: u64,
    (plan, abandon): (&Plan, &AtomicBool),
    spare: &Mutex<Vec<Batch<T>>>,
    streamed: &mut Streamed,
    sink: &mut impl FnMut(Delivery<'_, T>) -> Result<Flow>,
) -> Result<bool> {
    // Batches finished ahead of the next game to deliver, by their first game.
    let mut ahead = std::collections::BTreeMap::new();
    let mut next = first;
    // When the oldest row not yet checkpointed was delivered.
    let mut unsaved: Option<Instant> = None;
    let mut concluded = false;
    'batches: loop {
        if abandon.load(Ordering::SeqCst) {
            break; // the games in flight are dropped, and the rows ahead with them
        }
        let batch = match unsaved {
            // Woken now and then to see an abandon while the games in flight play on.
            None => match received.recv_timeout(ABANDON_POLL) {
                Ok(batch) => Some(batch),
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => None,
            },
            Some(since) => {
                match received
                    .recv_timeout(CHECKPOINT.saturating_sub(since.elapsed()).min(ABANDON_POLL))
                {
                    Ok(batch) => Some(batch),
                    Err(mpsc::RecvTimeoutError::Timeout) => None,
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
        };
        match batch {
            Some(batch) => {
                ahead.insert(batch.first, batch);
            }
            None if unsaved.is_none() => break, // every worker has finished
            None => {}
        }
        while let Some(mut batch) = ahead.remove(&next) {
            let mut start = 0;
            for (row, spent, end) in batch.rows.drain(..) {
                if abandon.load(Ordering::SeqCst) {
                    break 'batches;
                }
                streamed.consumed += 1;
                next += 1;
                add_spent(&mut streamed.costs, spent);
                unsaved.get_or_insert_with(Instant::now);
                let flow = sink(Delivery::Row(row, &batch.bytes[start..end]));
                start = end;
                if flow? == Flow::Stop {
                    concluded = true;
                    break 'batches;
                }
            }
            if batch.cut {
                break 'batches; // games after the first one skipped are dropped
            }
            plan.delivered(next);
            batch.bytes.clear();
            batch.cut = false;
            lock(spare).push(batch);
        }
        if unsaved.is_some_and(|since| since.elapsed() >= CHECKPOINT) {
            sink(Delivery::Checkpoint(&streamed.costs))?;
            unsaved = None;
        }
    }
    if unsaved.is_some() {
        sink(Delivery::Checkpoint(&streamed.costs))?;
    }
    Ok(concluded)
}

/// Consecutive games played by one worker from game `first`: each result with its
/// cost and where its bytes end in `bytes`.
struct Batch<T> {
    first: u64,
    rows: Vec<(T, Spent, usize)>,
    bytes: Vec<u8>,
    /// Whether the batch stopped at a game skipped after a stop.
    cut: bool,
    /// How long its games took to play.
    nanos: u64,
    /// Whether a game of it was lost by a fault.
    faulted: bool,
}

#[cfg(test)]
mod tests;
