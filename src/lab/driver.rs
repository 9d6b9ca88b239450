//! The one parallel play driver: a thread pool, each worker's strategy memory, the
//! game loop, and in-order streaming of results while the next games play.

use super::cost::Cost;
use super::schedule::{game_rng, Deal};
use super::setup::check_threads;
use crate::board::{Bits, Color, Geometry, Square};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::strategy::{Context, GameRng, Memory, Strategy};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

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
    let [black, white] = memories;
    black.new_game();
    white.new_game();
    let memories = [black, white];
    let nodes_before = memories.each_ref().map(|m| m.nodes);
    let mut costs = [Cost {
        games: 1,
        ..Cost::default()
    }; 2];
    loop {
        let board = game.board();
        let moves = game.legal_moves();
        if moves.is_empty() {
            // Passes are automatic, so no move means the game is over.
            for (seat, cost) in costs.iter_mut().enumerate() {
                cost.nodes = memories[seat].nodes - nodes_before[seat];
            }
            return (game, costs);
        }
        let seat = match game.side() {
            Color::Black => 0,
            Color::White => 1,
        };
        let square = if moves.count() == 1 {
            Square::new(moves.lowest())
        } else {
            let mut context = Context {
                rng,
                memory: &mut *memories[seat],
            };
            costs[seat].moves += 1;
            if players[seat].searches() {
                let clock = Instant::now();
                let square = players[seat].choose(board, moves, &mut context);
                costs[seat].nanos += clock.elapsed().as_nanos() as u64;
                costs[seat].timed = true;
                square
            } else {
                players[seat].choose(board, moves, &mut context)
            }
        };
        assert!(
            moves.has(square.index()),
            "a strategy chose an illegal move: {}",
            square.name(G::SIZE)
        );
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
        Some(t) => check_threads(t, &format!("{t} threads"))?,
        None => rayon::current_num_threads(),
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Internal(format!("cannot start {threads} threads: {e}")))
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
}

impl<G: Geometry> Driver<G> {
    /// A driver with `threads` workers (None: one per core).
    pub fn new(threads: Option<usize>) -> Result<Self> {
        let pool = thread_pool(threads)?;
        let threads = pool.current_num_threads();
        Ok(Driver {
            pool,
            memories: (0..threads).map(|_| Mutex::new(Vec::new())).collect(),
        })
    }

    /// The worker count.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.memories.len()
    }

    /// Plays one game on the calling worker, with that worker's memories.
    fn play_one(&self, players: &[&dyn Strategy<G>], deal: Deal<G>) -> (Game<G>, Spent) {
        let worker = rayon::current_thread_index().unwrap_or(0) % self.memories.len();
        let mut memories = self.memories[worker]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if memories.len() < players.len() {
            memories.resize_with(players.len(), Memory::new);
        }
        let [black, white] = deal.seats;
        assert_ne!(black, white, "a player cannot play itself");
        let seats = if black < white {
            let (low, high) = memories.split_at_mut(white);
            [&mut low[black], &mut high[0]]
        } else {
            let (low, high) = memories.split_at_mut(black);
            [&mut high[0], &mut low[white]]
        };
        let mut rng = game_rng(deal.seed);
        let (game, [black_cost, white_cost]) = play_game_costed(
            [players[black], players[white]],
            deal.start,
            &mut rng,
            seats,
        );
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
                    let (game, spent) = self.play_one(players, deal);
                    Some((finish(index, data, game), spent))
                })
                .collect()
        })
    }

    /// Plays every game of `games` in parallel, like [`stream`](Self::stream), and
    /// adds up the results (tallies that implement `Sum`) and what they cost per player.
    pub fn sum<T: Send + std::iter::Sum, D: Send>(
        &self,
        players: &[&dyn Strategy<G>],
        games: Range<u64>,
        deal: impl Fn(u64) -> (D, Deal<G>) + Sync,
        finish: impl Fn(u64, D, Game<G>) -> T + Sync,
    ) -> (T, Vec<Cost>) {
        let none = || {
            (
                std::iter::empty::<T>().sum(),
                vec![Cost::default(); players.len()],
            )
        };
        self.pool.install(|| {
            games
                .into_par_iter()
                .map(|index| {
                    let (data, deal) = deal(index);
                    let (game, spent) = self.play_one(players, deal);
                    (finish(index, data, game), spent)
                })
                .fold(none, |(total, mut costs), (result, spent)| {
                    add_spent(&mut costs, spent);
                    ([total, result].into_iter().sum(), costs)
                })
                .reduce(none, |(a, mut costs), (b, more)| {
                    for (cost, more) in costs.iter_mut().zip(more) {
                        *cost += more;
                    }
                    ([a, b].into_iter().sum(), costs)
                })
        })
    }

    /// Plays `games` chunk by chunk and hands each result to `sink` in game order,
    /// on the calling thread, while the pool plays the next chunk. A chunk played past
    /// the point where `sink` said stop, or past an interruption, is dropped, so what
    /// `sink` sees never depends on chunk sizes or timing.
    pub fn stream<T: Send, D: Send>(
        &self,
        players: &[&dyn Strategy<G>],
        games: Range<u64>,
        deal: impl Fn(u64) -> (D, Deal<G>) + Sync,
        finish: impl Fn(u64, D, Game<G>) -> T + Sync,
        stop: &AtomicBool,
        mut sink: impl FnMut(T) -> Result<Flow> + Send,
    ) -> Result<Streamed> {
        let mut consumed = 0u64;
        let mut costs = vec![Cost::default(); players.len()];
        let mut interrupted = false;
        let mut concluded = false;
        let mut scheduled = games.start;
        let mut chunk = 256u64;
        let mut pending: Option<Vec<Option<(T, Spent)>>> = None;
        loop {
            let ahead = if scheduled < games.end && !concluded && !interrupted {
                let end = (scheduled + chunk).min(games.end);
                let range = scheduled..end;
                scheduled = end;
                Some(range)
            } else {
                None
            };
            if pending.is_none() && ahead.is_none() {
                break;
            }
            let clock = Instant::now();
            let (drained, computed) = self.pool.install(|| {
                rayon::join(
                    || -> Result<()> {
                        for row in pending.take().into_iter().flatten() {
                            let Some((row, spent)) = row else {
                                interrupted = true;
                                break;
                            };
                            consumed += 1;
                            add_spent(&mut costs, spent);
                            if sink(row)? == Flow::Stop {
                                concluded = true;
                                break;
                            }
                        }
                        Ok(())
                    },
                    || {
                        ahead.map(|range| {
                            self.play_costed(players, range, &deal, &finish, Some(stop))
                        })
                    },
                )
            });
            drained?;
            if stop.load(Ordering::Relaxed) && !interrupted && !concluded {
                // Stopped while the next chunk played: keep the games it finished
                // up to the first one it skipped, still in order.
                interrupted = true;
                for (row, spent) in computed.into_iter().flatten().map_while(|row| row) {
                    consumed += 1;
                    add_spent(&mut costs, spent);
                    if sink(row)? == Flow::Stop {
                        interrupted = false; // the SPRT concluded: the run is complete
                        break;
                    }
                }
                break;
            }
            if concluded || interrupted {
                break; // whatever was played ahead is dropped
            }
            if let Some(rows) = computed {
                // Chunks of about half a second: responsive progress and
                // interruption, little overhead.
                // Grow at most twice over per chunk: the next games may cost far
                // more than these (a field's cheap pairs come first).
                let rate = rows.len() as f64 / clock.elapsed().as_secs_f64().max(1e-6);
                chunk = ((rate * 0.5) as u64).clamp(16, (2 * chunk).min(1 << 16));
                pending = Some(rows);
            }
        }
        Ok(Streamed {
            consumed,
            interrupted,
            costs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size6;
    use crate::strategy::StrategySpec;

    fn deal(g: u64) -> (u64, Deal<Size6>) {
        let seats = if g % 2 == 0 { [0, 1] } else { [1, 0] };
        let deal = Deal {
            seats,
            start: Game::new(),
            seed: g,
        };
        (g, deal)
    }

    #[test]
    fn results_come_in_order_and_do_not_depend_on_threads() {
        let random = StrategySpec::parse("random")
            .unwrap()
            .build::<Size6>(Default::default())
            .unwrap();
        let greedy = StrategySpec::parse("greedy")
            .unwrap()
            .build::<Size6>(Default::default())
            .unwrap();
        let players = [random.as_ref(), greedy.as_ref()];
        let play = |threads| {
            Driver::<Size6>::new(Some(threads)).unwrap().play(
                &players,
                0..200,
                deal,
                |i, g, game| (i, g, game.transcript()),
                None,
            )
        };
        let one = play(1);
        assert_eq!(one, play(2));
        assert!(one
            .iter()
            .enumerate()
            .all(|(i, r)| r.as_ref().unwrap().0 == i as u64));
    }

    #[test]
    fn a_stream_stops_where_the_sink_says_and_on_the_stop_flag() {
        let random = StrategySpec::parse("random")
            .unwrap()
            .build::<Size6>(Default::default())
            .unwrap();
        let players = [random.as_ref(), random.as_ref()];
        let driver = Driver::<Size6>::new(Some(2)).unwrap();
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        let streamed = driver
            .stream(
                &players,
                0..5000,
                deal,
                |i, _, _| i,
                &stop,
                |i| {
                    seen.push(i);
                    Ok(if i == 700 { Flow::Stop } else { Flow::Continue })
                },
            )
            .unwrap();
        assert_eq!((streamed.consumed, streamed.interrupted), (701, false));
        assert_eq!(
            streamed.costs.iter().map(|c| c.games).sum::<u64>(),
            2 * 701,
            "only the consumed games are counted"
        );
        assert_eq!(seen, (0..=700).collect::<Vec<_>>());
        stop.store(true, Ordering::Relaxed);
        let streamed = driver
            .stream(
                &players,
                0..5000,
                deal,
                |i, _, _| i,
                &stop,
                |_| Ok(Flow::Continue),
            )
            .unwrap();
        assert!(
            streamed.interrupted && streamed.consumed < 5000,
            "{streamed:?}"
        );
    }

    #[test]
    fn costs_count_every_choice_and_do_not_depend_on_threads() {
        let search = StrategySpec::parse("alphabeta:depth=2,eval=mobility")
            .unwrap()
            .build::<Size6>(Default::default())
            .unwrap();
        let random = StrategySpec::parse("random")
            .unwrap()
            .build::<Size6>(Default::default())
            .unwrap();
        let players = [search.as_ref(), random.as_ref()];
        // What is counted, without the time: (games, moves, nodes).
        let counted = |costs: &[Cost]| -> Vec<(u64, u64, u64)> {
            costs.iter().map(|c| (c.games, c.moves, c.nodes)).collect()
        };
        let summed = |threads| {
            let driver = Driver::<Size6>::new(Some(threads)).unwrap();
            let (choices, costs): (u64, Vec<Cost>) =
                driver.sum(&players, 0..40, deal, |_, _, game| {
                    // A choice is asked for wherever more than one move is legal.
                    let mut replay = Game::<Size6>::new();
                    let mut choices = 0;
                    for &square in game.moves() {
                        choices += u64::from(replay.legal_moves().count() > 1);
                        replay.play_unchecked(square);
                    }
                    choices
                });
            (choices, counted(&costs))
        };
        let (choices, costs) = summed(1);
        assert_eq!((choices, costs.clone()), summed(2));
        assert_eq!(costs[0].0 + costs[1].0, 80);
        assert_eq!(costs[0].1 + costs[1].1, choices);
        assert!(
            costs[0].2 > costs[0].1,
            "a depth-2 search visits nodes: {costs:?}"
        );
        assert_eq!(costs[1].2, 0, "random searches nothing");
        let stop = AtomicBool::new(false);
        let driver = Driver::<Size6>::new(Some(2)).unwrap();
        let streamed = driver
            .stream(
                &players,
                0..40,
                deal,
                |_, _, _| (),
                &stop,
                |()| Ok(Flow::Continue),
            )
            .unwrap();
        assert_eq!(counted(&streamed.costs), costs);
    }
}
