//! Time controls: a budget for each move or a game clock with an increment, the margin
//! past which a move loses on time, and [`Timed`], which holds any strategy to them.
//!
//! Searches read the move's deadline from [`crate::strategy::Memory::clock`] (iterative deepening stops
//! there); engines are told the control and get the time they have left; the wrapper
//! measures every move and records a move past its limit as a fault, which loses the
//! game on time.

use super::{Context, Fault, Picked, Strategy};
use crate::board::{Board, Geometry, Square};
use crate::game::Termination;
use crate::setting::{Setting, SettingError};
use std::time::{Duration, Instant};

/// The default margin past a move's budget before it loses on time: the pipe to an
/// engine and the clock's own reading take a few milliseconds on a busy machine.
pub const TIME_MARGIN: Duration = Duration::from_millis(50);

/// How much time a side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Each move gets this long.
    PerMove(Duration),
    /// A clock for the whole game, with an increment added after each move.
    Clock {
        /// Time at the start of the game.
        base: Duration,
        /// Time added after each move.
        increment: Duration,
    },
}

/// A time control: the limit and the margin past it before a move loses on time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// How much time a side has.
    pub limit: Limit,
    /// How far past its limit a move may go before it loses on time.
    pub margin: Duration,
}

/// The longest time a key takes: a day is more than any game needs, and far from
/// the limits of the clock arithmetic.
pub const MAX_TIME: Duration = Duration::from_secs(24 * 3600);

/// A time as a config writes it: a duration (`100ms`, `1m 30s`) or a plain number of
/// seconds (`0.5`, `60`), at most [`MAX_TIME`].
pub fn parse_time(text: &str) -> Option<Duration> {
    let text = text.trim();
    let time = match text.parse::<f64>() {
        Ok(seconds) => Duration::try_from_secs_f64(seconds).ok()?,
        Err(_) => humantime::parse_duration(text).ok()?,
    };
    (time <= MAX_TIME).then_some(time)
}

/// A search's time budget as a spec writes it (`100ms`): alphabeta's and mcts's `time`.
pub(crate) fn time_text<S: serde::Serializer>(
    time: &Option<Duration>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match time {
        Some(d) => s.serialize_str(&humantime::format_duration(*d).to_string()),
        None => s.serialize_none(),
    }
}

/// A search's time budget from its text; the refusal is worded in full here, and the
/// spec parser passes it on as it is.
pub(crate) fn time_of_text<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Duration>, D::Error> {
    let text = <String as serde::Deserialize>::deserialize(d)?;
    match parse_time(&text) {
        Some(d) if d > Duration::ZERO => Ok(Some(d)),
        _ => Err(serde::de::Error::custom(format!(
            "time = {text} is not a time: write it like time=100ms or time=2s"
        ))),
    }
}

/// Time for each move: `move_time`, `--move-time`.
pub static MOVE_TIME: Setting = Setting::new("move_time", "--move-time", "move_time");
/// A game clock: `clock`, `--clock`.
pub static CLOCK: Setting = Setting::new("clock", "--clock", "clock");
/// How far past its time a move may go: `time_margin`, `--time-margin`.
pub static MARGIN: Setting = Setting::new("time_margin", "--time-margin", "time_margin");

/// A time control as a config states it, before a player's is put over the
/// experiment's: each part may be missing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeSpec {
    /// `move_time` or `clock` (None: not given here).
    pub limit: Option<Limit>,
    /// `time_margin` (None: not given here).
    pub margin: Option<Duration>,
}

impl TimeSpec {
    /// Reads the keys `move_time`, `clock` and `time_margin` as a config writes them.
    pub fn parse(
        move_time: Option<&str>,
        clock: Option<&str>,
        time_margin: Option<&str>,
    ) -> Result<Self, SettingError> {
        let refused =
            |setting: &'static Setting, text: &str, why: &'static str| SettingError::Refused {
                setting,
                value: format!("\"{text}\""),
                why: why.into(),
            };
        let margin = match time_margin {
            None => None,
            Some(text) => Some(parse_time(text).ok_or_else(|| {
                refused(
                    &MARGIN,
                    text,
                    " is not a time of at most a day: write it like \"50ms\" or \"0.05\"",
                )
            })?),
        };
        let limit = match (move_time, clock) {
            (Some(_), Some(_)) => {
                return Err(SettingError::Conflict {
                    setting: &MOVE_TIME,
                    other: &CLOCK,
                    why: "a player has one time control, so keep one",
                })
            }
            (Some(text), None) => match parse_time(text) {
                Some(d) if d > Duration::ZERO => Some(Limit::PerMove(d)),
                Some(_) => {
                    return Err(refused(
                        &MOVE_TIME,
                        text,
                        " leaves no time: give each move more than 0, like \"100ms\"",
                    ))
                }
                None => {
                    return Err(refused(
                        &MOVE_TIME,
                        text,
                        " is not a time of at most a day: write it like \"100ms\" or \"2s\"",
                    ))
                }
            },
            (None, Some(text)) => Some(parse_clock(text).ok_or_else(|| {
                refused(
                    &CLOCK,
                    text,
                    " is not a clock: write the time at the start (more than 0, at most a day) and the increment a move, like \"60+0.5\" (or \"5m+2s\")",
                )
            })?),
            (None, None) => None,
        };
        Ok(TimeSpec { limit, margin })
    }

    /// This player's control over the experiment's: its own limit or margin wins.
    #[must_use]
    pub fn over(self, outer: TimeSpec) -> TimeSpec {
        TimeSpec {
            limit: self.limit.or(outer.limit),
            margin: self.margin.or(outer.margin),
        }
    }

    /// The control played (None: untimed).
    #[must_use]
    pub fn control(self) -> Option<TimeControl> {
        self.limit.map(|limit| TimeControl {
            limit,
            margin: self.margin.unwrap_or(TIME_MARGIN),
        })
    }

    /// `move_time` as a config writes it.
    #[must_use]
    pub fn move_time_text(self) -> Option<String> {
        match self.limit {
            Some(Limit::PerMove(d)) => Some(humantime::format_duration(d).to_string()),
            _ => None,
        }
    }

    /// `clock` as a config writes it (`60+0.5`).
    #[must_use]
    pub fn clock_text(self) -> Option<String> {
        match self.limit {
            Some(Limit::Clock { base, increment }) => Some(format!(
                "{}+{}",
                seconds_text(base),
                seconds_text(increment)
            )),
            _ => None,
        }
    }

    /// `time_margin` as a config writes it.
    #[must_use]
    pub fn margin_text(self) -> Option<String> {
        self.margin
            .map(|d| humantime::format_duration(d).to_string())
    }
}

/// `BASE+INCREMENT` (or just `BASE`), each a time as [`parse_time`] reads it.
fn parse_clock(text: &str) -> Option<Limit> {
    let (base, increment) = match text.split_once('+') {
        Some((base, increment)) => (parse_time(base)?, parse_time(increment)?),
        None => (parse_time(text)?, Duration::ZERO),
    };
    (base > Duration::ZERO).then_some(Limit::Clock { base, increment })
}

/// A duration in seconds, exactly (`60`, `0.5`, `0.0004`): what a clock is written
/// back as, so that it reads back the same.
#[must_use]
pub fn seconds_text(d: Duration) -> String {
    match d.subsec_nanos() {
        0 => d.as_secs().to_string(),
        nanos => format!("{}.{nanos:09}", d.as_secs())
            .trim_end_matches('0')
            .to_string(),
    }
}

/// A side's clock during a game, kept in its [`crate::strategy::Memory`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// When the search for this move should stop (None: untimed).
    pub deadline: Option<Instant>,
    /// When this move is lost on time: its budget plus the margin.
    pub limit: Option<Instant>,
    /// The control played, for an engine that is told it.
    pub control: Option<TimeControl>,
    /// The time the side had left before this move (under a clock).
    pub left: Option<Duration>,
    /// Time this move spent on what is not thinking (an engine starting up), which
    /// does not count against the clock.
    pub paused: Duration,
    /// Time spent on the moves of this game so far.
    used: Duration,
    /// Moves made this game.
    moves: u32,
}

impl Clock {
    /// A new game: nothing used.
    pub fn new_game(&mut self) {
        *self = Clock::default();
    }

    /// `spent` of this move was not thinking (an engine's start-up): the move's
    /// deadlines move on by as much, and the clock does not count it.
    pub fn pause(&mut self, spent: Duration) {
        self.paused += spent;
        self.deadline = self.deadline.map(|d| d + spent);
        self.limit = self.limit.map(|d| d + spent);
    }

    /// The search deadline of a move begun at `now` by a strategy with its `own` time
    /// budget: the earlier of that and the one a time control set.
    #[must_use]
    pub fn deadline_with(&self, own: Option<Duration>, now: Instant) -> Option<Instant> {
        let own = own.and_then(|d| now.checked_add(d));
        match (own, self.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

impl TimeControl {
    /// The time left on a clock before the next move, given the clock so far.
    fn left(&self, clock: &Clock) -> Option<Duration> {
        match self.limit {
            Limit::PerMove(_) => None,
            Limit::Clock { base, increment } => {
                Some((base + increment * clock.moves).saturating_sub(clock.used))
            }
        }
    }

    /// For a move with `empties` empty squares: how long to think, and how long until
    /// the move is lost on time.
    fn budget(&self, clock: &Clock, empties: u32) -> (Duration, Duration) {
        match self.limit {
            Limit::PerMove(d) => (d, d + self.margin),
            Limit::Clock { increment, .. } => {
                let left = self.left(clock).unwrap_or_default();
                // About half the empties are this side's moves; the spread keeps time
                // for the end, and the cap keeps a search's overshoot inside the clock.
                let to_go = (empties / 2).clamp(1, 30);
                let think = (left / to_go + increment / 2).min(left * 9 / 10);
                (think, left + self.margin)
            }
        }
    }
}

/// `strategy` held to `control`, if there is one.
#[must_use]
pub fn held_to<G: Geometry>(
    strategy: Box<dyn Strategy<G>>,
    control: Option<TimeControl>,
) -> Box<dyn Strategy<G>> {
    match control {
        Some(control) => Box::new(Timed {
            inner: strategy,
            control,
        }),
        None => strategy,
    }
}

/// Any strategy held to a time control.
pub struct Timed<G: Geometry> {
    /// The strategy.
    pub inner: Box<dyn Strategy<G>>,
    /// Its control.
    pub control: TimeControl,
}

impl<G: Geometry> Strategy<G> for Timed<G> {
    fn pick(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        let start = Instant::now();
        let clock = &mut context.memory.clock;
        let (think, lose_after) = self.control.budget(clock, board.empty_count());
        clock.left = self.control.left(clock);
        clock.control = Some(self.control);
        clock.deadline = Some(start + think);
        clock.limit = Some(start + lose_after);
        clock.paused = Duration::ZERO;
        let picked = self.inner.pick(board, moves, context);
        let clock = &mut context.memory.clock;
        let spent = start.elapsed().saturating_sub(clock.paused);
        clock.deadline = None;
        clock.limit = None;
        clock.used += spent;
        clock.moves += 1;
        // An engine that missed the limit has said so already (as `time`).
        let pick = picked?;
        if spent > lose_after {
            return Err(Box::new(Fault {
                termination: Termination::Time,
                reason: format!(
                    "its move took {} ms, past its {} ms and the {} ms margin",
                    spent.as_millis(),
                    (lose_after - self.control.margin).as_millis(),
                    self.control.margin.as_millis()
                ),
            }));
        }
        // Every move on a clock is timed, whatever it is.
        let notes = &mut context.memory.notes;
        if notes.elapsed().is_none() {
            notes.timed(spent);
        }
        Ok(pick)
    }

    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        self.inner.move_values(board, moves, context)
    }

    fn move_visits(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<crate::strategy::Visits> {
        self.inner.move_visits(board, moves, context)
    }

    fn attach(&self, logs: &crate::strategy::logs::Logs) {
        self.inner.attach(logs);
    }

    fn identity(&self) -> Option<String> {
        self.inner.identity()
    }

    fn keeps_log(&self) -> bool {
        self.inner.keeps_log()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_as_people_write_them_and_write_back() {
        let spec = |m, c, t| TimeSpec::parse(m, c, t);
        assert_eq!(
            spec(Some("100ms"), None, None).unwrap().control(),
            Some(TimeControl {
                limit: Limit::PerMove(Duration::from_millis(100)),
                margin: TIME_MARGIN
            })
        );
        let clock = spec(None, Some("60+0.5"), Some("20ms")).unwrap();
        assert_eq!(
            clock.control(),
            Some(TimeControl {
                limit: Limit::Clock {
                    base: Duration::from_secs(60),
                    increment: Duration::from_millis(500)
                },
                margin: Duration::from_millis(20)
            })
        );
        let texts = (
            clock.move_time_text(),
            clock.clock_text(),
            clock.margin_text(),
        );
        assert_eq!(texts, (None, Some("60+0.5".into()), Some("20ms".into())));
        assert_eq!(
            parse_clock("5m+2s"),
            Some(Limit::Clock {
                base: Duration::from_secs(300),
                increment: Duration::from_secs(2)
            })
        );
        assert_eq!(spec(None, None, None).unwrap().control(), None);
        for (m, c, t) in [
            (Some("fast"), None, None),
            (Some("0"), None, None),
            (None, Some("60+"), None),
            (None, Some("-1"), None),
            (Some("1s"), Some("60"), None),
            (None, None, Some("soon")),
        ] {
            assert!(spec(m, c, t).is_err(), "{m:?} {c:?} {t:?}");
        }
        // A player's limit replaces the experiment's; the margin falls through.
        let outer = spec(None, Some("60"), Some("10ms")).unwrap();
        let own = spec(Some("1s"), None, None).unwrap().over(outer);
        assert_eq!(
            own.control(),
            Some(TimeControl {
                limit: Limit::PerMove(Duration::from_secs(1)),
                margin: Duration::from_millis(10)
            })
        );
        assert_eq!(seconds_text(Duration::from_secs(60)), "60");
        assert_eq!(seconds_text(Duration::from_millis(250)), "0.25");
        // Written back exactly, so that it reads back the same.
        let tiny = spec(None, Some("0.0004+0.000001"), None).unwrap();
        assert_eq!(tiny.clock_text().as_deref(), Some("0.0004+0.000001"));
        let written = tiny.clock_text();
        assert_eq!(spec(None, written.as_deref(), None).unwrap(), tiny);
        // Times past a day are refused, not overflowed.
        for huge in ["1e20", "1e19", "100000", "1e18+1e18"] {
            assert!(spec(Some(huge), None, None).is_err(), "{huge}");
            assert!(spec(None, Some(huge), None).is_err(), "{huge}");
        }
    }

    #[test]
    fn a_clock_spreads_its_time_and_counts_the_increment() {
        let control = TimeControl {
            limit: Limit::Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_secs(1),
            },
            margin: TIME_MARGIN,
        };
        let mut clock = Clock::default();
        let (think, lose) = control.budget(&clock, 60);
        assert_eq!(
            think,
            Duration::from_secs(10) / 30 + Duration::from_millis(500)
        );
        assert_eq!(lose, Duration::from_secs(10) + TIME_MARGIN);
        clock.used = Duration::from_secs(4);
        clock.moves = 2;
        // 10 + 2 increments - 4 used.
        assert_eq!(control.left(&clock), Some(Duration::from_secs(8)));
        let (think, _) = control.budget(&clock, 1);
        assert_eq!(think, Duration::from_millis(7200));
    }

    #[test]
    fn a_search_stops_at_its_own_time_or_at_the_clock() {
        use crate::board::{Bits, Position, Size8};
        use crate::strategy::{GameRng, Memory, StrategySpec};
        use rand::SeedableRng;
        let start = Position::<Size8>::start();
        let (board, moves) = (start.board, start.board.moves());
        // Unbounded by depth (60 plies), so only the clock can stop it: well within a
        // few seconds, where the full search would take years.
        for (spec, deadline) in [
            ("alphabeta:time=30ms", None),
            (
                "alphabeta:depth=60,nodes=1000000000000",
                Some(Duration::from_millis(30)),
            ),
        ] {
            let player = StrategySpec::parse(spec)
                .unwrap()
                .build::<Size8>(Default::default())
                .unwrap();
            let mut memory = Memory::new();
            let began = Instant::now();
            memory.clock.deadline = deadline.map(|d| began + d);
            let mut rng = GameRng::seed_from_u64(1);
            let square = player
                .choose(
                    board,
                    moves,
                    &mut Context {
                        rng: &mut rng,
                        memory: &mut memory,
                        history: crate::strategy::History::at(start),
                    },
                )
                .unwrap()
                .square;
            assert!(moves.has(square.index()), "{spec}");
            assert!(
                began.elapsed() < Duration::from_secs(5),
                "{spec}: {:?}",
                began.elapsed()
            );
            assert!(memory.nodes > 0, "{spec}");
        }
    }
}
