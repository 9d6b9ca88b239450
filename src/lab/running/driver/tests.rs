//! The driver's tests: results in order whatever the threads, streams that stop where
//! told, random games drawn as the strategy would, costs counted exactly.

use super::*;
use crate::board::Size6;
use crate::strategy::{Picked, StrategySpec};

fn deal(g: u64) -> (u64, Deal<Size6>) {
    let seats = if g.is_multiple_of(2) { [0, 1] } else { [1, 0] };
    let deal = Deal {
        seats,
        start: Game::new(),
        seed: g,
    };
    (g, deal)
}

fn strategy(spec: &str) -> Box<dyn Strategy<Size6>> {
    StrategySpec::parse(spec)
        .unwrap()
        .build::<Size6>(Default::default())
        .unwrap()
}

#[test]
fn results_come_in_order_and_do_not_depend_on_threads() {
    let random = strategy("random");
    let greedy = strategy("greedy");
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

/// `random` through the trait, as the game loop played it before its own draw.
struct ThroughTheTrait;

impl Strategy<Size6> for ThroughTheTrait {
    fn pick(
        &self,
        board: crate::board::Board<Size6>,
        moves: u64,
        context: &mut Context<'_, Size6>,
    ) -> Picked {
        crate::strategy::RandomMove.pick(board, moves, context)
    }
}

#[test]
fn the_loop_draws_random_moves_as_the_strategy_would() {
    let random = strategy("random");
    assert!(random.uniform_random());
    let driver = Driver::<Size6>::new(Some(1)).unwrap();
    let play = |players: &[&dyn Strategy<Size6>]| {
        driver.play(players, 0..300, deal, |_, _, game| game.transcript(), None)
    };
    let fast = play(&[random.as_ref(), random.as_ref()]);
    assert_eq!(fast, play(&[&ThroughTheTrait, &ThroughTheTrait]));
    assert_eq!(fast, play(&[random.as_ref(), &ThroughTheTrait]));
}

#[test]
fn a_stream_stops_where_the_sink_says_and_on_the_stop_flag() {
    let random = strategy("random");
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
fn streamed_rows_keep_their_bytes_in_order_and_a_sink_error_ends_the_stream() {
    let random = strategy("random");
    let players = [random.as_ref(), random.as_ref()];
    let stop = AtomicBool::new(false);
    for threads in [1, 2] {
        let driver = Driver::<Size6>::new(Some(threads)).unwrap();
        let mut text = Vec::new();
        let mut ends = Vec::new();
        let mut last = None;
        let streamed = driver
            .stream_rows(
                &players,
                0..3000,
                deal,
                |i, _, game, bytes| {
                    bytes.extend_from_slice(format!("{i},{}\n", game.transcript()).as_bytes());
                    i
                },
                &stop,
                |delivery| {
                    match delivery {
                        Delivery::Row(i, bytes) => {
                            assert!(bytes.starts_with(format!("{i},").as_bytes()));
                            text.extend_from_slice(bytes);
                            last = Some(i);
                        }
                        Delivery::Checkpoint(costs) => {
                            // A checkpoint covers exactly the rows delivered before it.
                            let i = last.expect("a row before each checkpoint");
                            assert_eq!(costs.iter().map(|c| c.games).sum::<u64>(), 2 * (i + 1));
                            ends.push(i);
                        }
                    }
                    Ok(Flow::Continue)
                },
            )
            .unwrap();
        assert_eq!((streamed.consumed, streamed.interrupted), (3000, false));
        // The last checkpoint comes with the stream's end.
        assert_eq!(ends.last(), Some(&2999), "{ends:?}");
        let text = String::from_utf8(text).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3000);
        assert!(lines
            .iter()
            .enumerate()
            .all(|(i, l)| l.starts_with(&format!("{i},"))));
        let failed = driver.stream_rows(
            &players,
            0..3000,
            deal,
            |i, _, _, _| i,
            &stop,
            |delivery| {
                if matches!(delivery, Delivery::Row(1234, _)) {
                    Err(Error::input("the disk is full"))
                } else {
                    Ok(Flow::Continue)
                }
            },
        );
        assert!(matches!(failed, Err(Error::Input(m)) if m == "the disk is full"));
    }
}

#[test]
fn random_against_random_counts_each_sides_choices() {
    let random = strategy("random");
    let players = [random.as_ref(), random.as_ref()];
    let driver = Driver::<Size6>::new(Some(1)).unwrap();
    /// Choices per player (the players' order, not the seats').
    #[derive(Default)]
    struct Choices([u64; 2]);
    impl std::ops::Add for Choices {
        type Output = Self;
        fn add(self, other: Self) -> Self {
            Choices([self.0[0] + other.0[0], self.0[1] + other.0[1]])
        }
    }
    let (Choices(choices), costs) = driver.sum(&players, 0..50, deal, |g, _, game| {
        // Black moves at even plies until a pass, so replay to tell the sides apart.
        let mut replay = Game::<Size6>::new();
        let mut choices = [0; 2];
        for &square in game.moves() {
            let seat = usize::from(replay.side() == Color::White);
            let seat = if g % 2 == 0 { seat } else { 1 - seat };
            choices[seat] += u64::from(replay.legal_moves().count() > 1);
            replay.play_unchecked(square);
        }
        Choices(choices)
    });
    assert_eq!([costs[0].moves, costs[1].moves], choices);
    assert!(choices.iter().all(|&c| c > 0));
    assert_eq!([costs[0].games, costs[1].games], [50, 50]);
}

#[test]
fn costs_count_every_choice_and_do_not_depend_on_threads() {
    let search = strategy("alphabeta:depth=2,eval=mobility");
    let random = strategy("random");
    let players = [search.as_ref(), random.as_ref()];
    // What is counted, without the time: (games, moves, nodes).
    let counted = |costs: &[Cost]| -> Vec<(u64, u64, u64)> {
        costs.iter().map(|c| (c.games, c.moves, c.nodes)).collect()
    };
    let summed = |threads| {
        let driver = Driver::<Size6>::new(Some(threads)).unwrap();
        let (choices, costs): (u64, Vec<Cost>) = driver.sum(&players, 0..40, deal, |_, _, game| {
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

/// Greedy after a pause: slower than its time control allows from its `slow_from`-th move on.
struct Slow {
    slow_from: u32,
}

impl Strategy<Size6> for Slow {
    fn pick(
        &self,
        board: crate::board::Board<Size6>,
        moves: u64,
        context: &mut Context<'_, Size6>,
    ) -> Picked {
        if context.history.moves.len() as u32 >= self.slow_from {
            std::thread::sleep(std::time::Duration::from_millis(40));
        }
        crate::strategy::Greedy.pick(board, moves, context)
    }
}

#[test]
fn a_move_past_its_time_loses_on_time_and_others_do_not() {
    use crate::game::{Rules, Termination};
    use crate::strategy::clock::{held_to, TimeSpec};
    let control = TimeSpec::parse(Some("5ms"), None, Some("5ms"))
        .unwrap()
        .control();
    let slow = held_to(Box::new(Slow { slow_from: 6 }), control);
    // Thinking well inside its time (alphabeta's own budget of 1 ms, on a clock of a
    // second a move) even on a loaded machine.
    let generous = TimeSpec::parse(Some("1s"), None, None).unwrap().control();
    let quick = held_to(strategy("alphabeta:time=1ms"), generous);
    let players = [slow.as_ref(), quick.as_ref()];
    let games =
        Driver::<Size6>::new(Some(2))
            .unwrap()
            .play(&players, 0..4, deal, |_, _, game| game, None);
    for (g, game) in games.into_iter().enumerate() {
        let game = game.unwrap();
        assert_eq!(game.termination(), Termination::Time, "game {g}");
        let slow_colour = if g % 2 == 0 {
            crate::board::Color::Black
        } else {
            crate::board::Color::White
        };
        let forfeit = game.forfeited().unwrap();
        assert_eq!(forfeit.loser, slow_colour, "game {g}");
        // Lost at its first slow move that is not forced: six plies in or soon after.
        assert!(
            (6..=12).contains(&game.moves().len()),
            "game {g}: {}",
            game.transcript()
        );
        let outcome = game.outcome(Rules::default()).unwrap();
        assert_eq!(outcome.margin.abs(), 36);
    }
}

/// Plays the first legal move after `0` milliseconds: a game that costs wall time.
struct Sleepy(u64);

impl Strategy<Size6> for Sleepy {
    fn pick(
        &self,
        _: crate::board::Board<Size6>,
        moves: u64,
        _: &mut Context<'_, Size6>,
    ) -> Picked {
        std::thread::sleep(std::time::Duration::from_millis(self.0));
        Ok(crate::strategy::Pick::of(Square::new(
            moves.trailing_zeros(),
        )))
    }
}

#[test]
fn slow_games_reach_the_sink_soon_after_they_end() {
    // Games of about a quarter of a second: before, every row waited for its chunk's
    // last game (the first chunk held all 16 games, some 2 s of play on 2 workers).
    let slow = Sleepy(15);
    let random = strategy("random");
    let players: [&dyn Strategy<Size6>; 2] = [&slow, random.as_ref()];
    let driver = Driver::<Size6>::new(Some(2)).unwrap();
    let stop = AtomicBool::new(false);
    let mut ended = Vec::new();
    let mut saved = Vec::new();
    let started = Instant::now();
    driver
        .stream_rows(
            &players,
            0..16,
            deal,
            |_, _, _, _| Instant::now(),
            &stop,
            |delivery| {
                match delivery {
                    Delivery::Row(end, _) => ended.push(end),
                    Delivery::Checkpoint(_) => saved.push((ended.len(), Instant::now())),
                }
                Ok(Flow::Continue)
            },
        )
        .unwrap();
    let total = started.elapsed();
    assert!(total > Duration::from_secs(1), "the games took {total:?}");
    // Each row is checkpointed within a second of its game's end (the checkpoint
    // interval, and at most one game of the other worker that it waited for).
    for (row, end) in ended.iter().enumerate() {
        let (_, at) = saved.iter().find(|(rows, _)| *rows > row).unwrap();
        let waited = at.duration_since(*end);
        assert!(
            waited < Duration::from_secs(1),
            "row {row} waited {waited:?} of {total:?}"
        );
    }
}

/// A player whose every move takes a while, counting the moves it is asked for
/// once `abandon` is set.
struct Thinker {
    abandon: std::sync::Arc<AtomicBool>,
    asked_after: std::sync::atomic::AtomicU64,
}

impl Strategy<Size6> for Thinker {
    fn pick(
        &self,
        board: crate::board::Board<Size6>,
        moves: u64,
        context: &mut Context<'_, Size6>,
    ) -> Picked {
        let began = std::time::Instant::now();
        if self.abandon.load(Ordering::SeqCst) {
            self.asked_after.fetch_add(1, Ordering::SeqCst);
        }
        std::thread::sleep(Duration::from_millis(5));
        // Timed, as every strategy that thinks this long is (a search, an engine).
        let picked = crate::strategy::RandomMove.pick(board, moves, context);
        context.memory.notes.timed_from(began);
        picked
    }
}

/// Abandoning a stream (a second Ctrl-C) delivers no row after it, ends the games in
/// flight before their next move, and checkpoints the rows delivered.
#[test]
fn an_abandoned_stream_drops_its_games_in_flight_before_their_next_move() {
    let flag = std::sync::Arc::new(AtomicBool::new(false));
    let mut driver = Driver::<Size6>::new(Some(2)).unwrap();
    driver.abandon = std::sync::Arc::clone(&flag);
    let slow = Thinker {
        abandon: std::sync::Arc::clone(&flag),
        asked_after: Default::default(),
    };
    let random = strategy("random");
    let players: [&dyn Strategy<Size6>; 2] = [&slow, random.as_ref()];
    let stop = AtomicBool::new(false);
    let (mut seen, mut checkpoints) = (Vec::new(), Vec::new());
    let streamed = driver
        .stream_rows(
            &players,
            0..400,
            deal,
            |i, _, _, _| i,
            &stop,
            |delivery| {
                match delivery {
                    Delivery::Row(i, _) => {
                        seen.push(i);
                        if i == 2 {
                            // The next games are in flight, a move or so in.
                            std::thread::sleep(Duration::from_millis(30));
                            flag.store(true, Ordering::SeqCst);
                        }
                    }
                    Delivery::Checkpoint(costs) => {
                        checkpoints.push(costs.iter().map(|c| c.games).sum::<u64>());
                    }
                }
                Ok(Flow::Continue)
            },
        )
        .unwrap();
    assert_eq!(seen, [0, 1, 2]);
    assert_eq!((streamed.consumed, streamed.interrupted), (3, true));
    assert_eq!(checkpoints.last(), Some(&6), "{checkpoints:?}");
    // A worker may have been between its check and the call: at most one move each.
    let after = slow.asked_after.load(Ordering::SeqCst);
    assert!(after <= 2, "{after} moves asked after the abandon");
}

/// Abandoning a stream stops a built-in search already in progress (the driver's
/// memories carry the abandon as `Memory::cancel`): alpha-beta in its one iteration,
/// the exact solver and MCTS, each far from done, end within a moment.
#[test]
fn an_abandon_stops_a_built_in_search_in_progress() {
    for spec in [
        "alphabeta:depth=30,table=false",
        "alphabeta:depth=1,endgame=32",
        "mcts:iterations=1000000000",
    ] {
        let flag = std::sync::Arc::new(AtomicBool::new(false));
        let mut driver = Driver::<Size6>::new(Some(1)).unwrap();
        driver.abandon = std::sync::Arc::clone(&flag);
        let slow = strategy(spec);
        let random = strategy("random");
        let players: [&dyn Strategy<Size6>; 2] = [slow.as_ref(), random.as_ref()];
        let stop = AtomicBool::new(false);
        let raised = std::sync::Arc::clone(&flag);
        let raise = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            raised.store(true, Ordering::SeqCst);
            Instant::now()
        });
        let streamed = driver
            .stream_rows(
                &players,
                0..2,
                deal,
                |i, _, _, _| i,
                &stop,
                |_| Ok(Flow::Continue),
            )
            .unwrap();
        let waited = raise.join().unwrap().elapsed();
        assert!(waited < Duration::from_secs(2), "{spec}: {waited:?}");
        assert_eq!(
            (streamed.consumed, streamed.interrupted),
            (0, true),
            "{spec}"
        );
    }
}
