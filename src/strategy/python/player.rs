//! The Python callable as a player and as an evaluation, over [`Session`]s from either
//! source. A player keeps its session in the worker's memory and tells it only the
//! plies since its last request; a game's first request carries the seed of the game's
//! `random.Random`, drawn from the game's generator, so that games depend on neither
//! the thread count nor which worker plays them. Any fault loses the game and the
//! session is started afresh for the next one.

use super::{Failure, NewGame, PythonSpec, Reply, Role, Session, Source, Turn, VALUE_UNITS};
use crate::board::{Bits, Board, Color, Geometry, Position, Square};
use crate::game::{Rules, Termination};
use crate::strategy::engine::gtp;
use crate::strategy::engine::process::Failure as ProcessFailure;
use crate::strategy::{
    Context, Evaluator, Fault, Pick, Picked, PlayerState, SpecError, Strategy, EVAL_LIMIT,
};
use rand::RngCore;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A Python callable playing as a strategy.
pub struct PythonPlayer {
    source: Source,
    size: u32,
    rules: Rules,
    stall_timeout: Duration,
    logs: Mutex<Option<crate::strategy::logs::Logs>>,
}

/// A player's session, kept in the worker's memory, with the game in play as far as
/// the session was told it: each request then reads only the moves since the last one
/// (replaying the game from its start at every move cost more than the call itself).
struct Kept<G: Geometry> {
    session: Box<dyn Session>,
    /// No request of the game in play yet.
    fresh: bool,
    /// Plies of the game in play the session has been told.
    told: usize,
    /// The game's moves read so far, as plies with the passes made explicit (None).
    plies: Vec<Option<Square>>,
    /// How many of the game's moves `plies` holds, and the position after them.
    read: usize,
    position: Position<G>,
}

impl<G: Geometry> PlayerState for Kept<G> {
    fn new_game(&mut self) {
        self.fresh = true;
    }
}

impl<G: Geometry> Kept<G> {
    /// `plies` brought up to the game's `moves` from `start` (read afresh on a new game).
    fn read(&mut self, start: Position<G>, moves: &[Square]) {
        if self.fresh || self.read > moves.len() {
            self.plies.clear();
            self.read = 0;
            self.position = start;
        }
        for &square in &moves[self.read..] {
            if self.position.board.moves().is_empty() {
                self.plies.push(None);
                self.position = self.position.pass();
            }
            self.plies.push(Some(square));
            self.position = self.position.play(square);
        }
        // The opponent's pass after the last move: asked to move, the player is to move.
        let passed = self.position.pass();
        if self.position.board.moves().is_empty() && !passed.board.moves().is_empty() {
            self.plies.push(None);
            self.position = passed;
        }
        self.read = moves.len();
    }
}

impl PythonPlayer {
    /// The player for games on `size`, once its callable has shown it can be called.
    pub fn new(spec: &PythonSpec, size: u32, rules: Rules) -> Result<Self, SpecError> {
        Ok(PythonPlayer {
            source: spec.source(Role::Strategy)?,
            size,
            rules,
            stall_timeout: spec.stall_timeout(),
            logs: Mutex::new(None),
        })
    }

    /// This playing thread's log, opened by the folder attached; None without one, and
    /// for a callable in this process, which keeps no log (nor makes its folder).
    fn log(&self) -> Result<Option<std::fs::File>, String> {
        if !matches!(self.source, Source::Worker(_)) {
            return Ok(None);
        }
        let logs = self.logs.lock().ok().and_then(|logs| logs.clone());
        logs.map(|logs| logs.open()).transpose()
    }

    /// The move, or the fault that loses the game.
    fn try_choose<G: Geometry>(
        &self,
        moves: G::Bits,
        context: &mut Context<'_, G>,
        began: Instant,
    ) -> Result<Square, (Termination, String)> {
        let mut asked = began;
        if context.memory.find_state::<Kept<G>>().is_none() {
            let session = self
                .source
                .session(self.log().map_err(|why| (Termination::Crash, why))?)
                .map_err(|why| (Termination::Crash, why))?;
            context.memory.state(
                |_: &Kept<G>| true,
                || Kept {
                    session,
                    fresh: true,
                    told: 0,
                    plies: Vec::new(),
                    read: 0,
                    position: Position::start(),
                },
            );
            // Starting (or restarting) is not thinking: no clock counts it.
            let started = began.elapsed();
            context.memory.clock.pause(started);
            asked += started;
        }
        let history = context.history;
        let clock = context.memory.clock;
        let timed = clock.limit.is_some();
        // From the move's start (after any start-up): a clock read a move less, a third
        // of a fast move's.
        let deadline = clock.limit.unwrap_or(asked + self.stall_timeout);
        let fresh = context
            .memory
            .find_state::<Kept<G>>()
            .is_some_and(|kept| kept.fresh);
        // One draw a game, at its first request.
        let seed = if fresh { context.rng.next_u64() } else { 0 };
        let kept = context
            .memory
            .find_state::<Kept<G>>()
            .expect("started above");
        kept.read(history.start(), history.moves);
        let new_game = kept.fresh.then(|| NewGame {
            seed,
            size: self.size,
            rules: self.rules,
            start: Some(history.start())
                .filter(|s| *s != Position::start())
                .map(|s| s.to_obf()),
        });
        if kept.fresh {
            kept.told = 0;
        }
        let turn = Turn {
            size: self.size,
            new_game,
            plies: &kept.plies[kept.told.min(kept.plies.len())..],
        };
        let reply = kept.session.choose(&turn, deadline).map_err(|f| match f {
            Failure::Raised(line) => (Termination::Error, line),
            Failure::Process(ProcessFailure::Crashed(why)) => (Termination::Crash, why),
            Failure::Process(ProcessFailure::Stalled(why)) if timed => (Termination::Time, why),
            Failure::Process(ProcessFailure::Stalled(why)) => (Termination::Stalled, why),
            Failure::Process(ProcessFailure::Garbage(why)) => (Termination::Illegal, why),
        })?;
        kept.fresh = false;
        kept.told = kept.plies.len();
        let side = kept.position.side;
        match reply {
            Reply::Square(square) if moves.has(square.index()) => Ok(square),
            Reply::Square(square) => Err((
                Termination::Illegal,
                self.not_legal(&square.name(self.size), side, moves),
            )),
            Reply::Text(text) => match gtp::parse_move(&text, self.size) {
                Ok(Some(square)) if moves.has(square.index()) => Ok(square),
                _ => Err((Termination::Illegal, self.not_legal(&text, side, moves))),
            },
        }
    }

    fn not_legal<B: Bits>(&self, text: &str, side: Color, moves: B) -> String {
        format!(
            "it returned '{}', not a legal move for {} (legal: {})",
            text.trim(),
            side.name(),
            crate::board::square_names(moves, self.size)
        )
    }
}

impl<G: Geometry> Strategy<G> for PythonPlayer {
    fn pick(&self, _board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        let began = Instant::now();
        match self.try_choose(moves, context, began) {
            Ok(square) => {
                context.memory.notes.timed_from(began);
                Ok(Pick::of(square))
            }
            Err((termination, why)) => {
                let game = context.history.moves.len();
                if let Some(kept) = context.memory.find_state::<Kept<G>>() {
                    kept.session
                        .note(&format!("{} after {game} moves: {why}", termination.name()));
                }
                // Started afresh for the next game, whatever the fault: after a stall or
                // garbage its state is unknown, and a restart is cheap next to a game.
                context.memory.drop_state::<Kept<G>>();
                Err(Box::new(Fault {
                    termination,
                    reason: why,
                }))
            }
        }
    }

    fn identity(&self) -> Option<String> {
        Some(self.source.identity())
    }

    fn keeps_log(&self) -> bool {
        // A host's callable runs in this process: its faults go to the host.
        matches!(self.source, Source::Worker(_))
    }

    fn attach(&self, logs: &crate::strategy::logs::Logs) {
        if let Ok(mut kept) = self.logs.lock() {
            *kept = Some(logs.clone());
        }
    }
}

/// A Python callable as an evaluation: sessions taken from a pool for each call, as
/// many as threads evaluate at once. A call that fails values the position 0 and
/// leaves a fault pending on its thread, which loses the game for the player whose
/// search called it (see [`eval_fault`](super::eval_fault)).
pub struct PythonEval {
    source: Source,
    stall_timeout: Duration,
    idle: Mutex<Vec<Box<dyn Session>>>,
}

impl PythonEval {
    /// The evaluation, once its callable has shown it can be called.
    pub fn new(spec: &PythonSpec) -> Result<Self, SpecError> {
        let source = spec.source(Role::Evaluation)?;
        super::eval_fault::built(source.identity());
        Ok(PythonEval {
            source,
            stall_timeout: spec.stall_timeout(),
            idle: Mutex::new(Vec::new()),
        })
    }

    fn value(&self, obf: &str) -> Result<f64, (Termination, String)> {
        let kept = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let mut session = match kept {
            Some(session) => session,
            None => self
                .source
                .session(None)
                .map_err(|why| (Termination::Crash, why))?,
        };
        let value = session.value(obf, Instant::now() + self.stall_timeout);
        // A session that answered, even with an exception or a number that is not one,
        // is kept: a new worker process for every failing call would make the search
        // crawl. Only one that crashed, stalled or spoke garbage is dropped.
        let keep = matches!(value, Ok(_) | Err(Failure::Raised(_)));
        let value = match value {
            Ok(v) if v.is_finite() => Ok(v),
            Ok(v) => Err((
                Termination::Error,
                format!("ValueError: the evaluation returned {v}, not a finite number"),
            )),
            Err(Failure::Raised(line)) => Err((Termination::Error, line)),
            Err(Failure::Process(ProcessFailure::Stalled(why))) => Err((Termination::Stalled, why)),
            Err(Failure::Process(ProcessFailure::Crashed(why) | ProcessFailure::Garbage(why))) => {
                Err((Termination::Crash, why))
            }
        };
        if let Err((termination, why)) = &value {
            session.note(&format!("{} in a search: {why}", termination.name()));
        }
        if keep {
            if let Ok(mut idle) = self.idle.lock() {
                idle.push(session);
            }
        }
        value
    }
}

impl<G: Geometry> Evaluator<G> for PythonEval {
    fn evaluate(&self, board: Board<G>) -> i32 {
        // After a fault the game is lost: the rest of the search need not call Python.
        if super::eval_fault::pending() {
            return 0;
        }
        // The side to move is shown as black: the value is that side's either way.
        let obf = Position {
            board,
            side: Color::Black,
        }
        .to_obf();
        match self.value(&obf) {
            Ok(v) => {
                let limit = f64::from(EVAL_LIMIT);
                (v * VALUE_UNITS).round().clamp(-limit, limit) as i32
            }
            Err((termination, why)) => {
                super::eval_fault::raise(termination, why);
                0
            }
        }
    }
}
