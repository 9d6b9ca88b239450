//! The Python callable as a player and as an evaluation, over [`Session`]s from either
//! source. A player keeps its session in the worker's memory and tells it only the
//! plies since its last request; a game's first request carries the seed of the game's
//! `random.Random`, drawn from the game's generator, so that games depend on neither
//! the thread count nor which worker plays them. Any fault loses the game and the
//! session is started afresh for the next one.

use super::{Failure, NewGame, PythonSpec, Role, Session, Source, Turn, VALUE_UNITS};
use crate::board::{Bits, Board, Color, Geometry, Position, Square};
use crate::game::{Rules, Termination};
use crate::strategy::engine::process::Failure as ProcessFailure;
use crate::strategy::engine::{gtp, plies_from, LOG_FOLDER};
use crate::strategy::{
    Answer, Choice, Context, Evaluator, Fault, PlayerState, SpecError, Strategy, EVAL_LIMIT,
};
use rand::RngCore;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Where the player's logs go: the results folder and the player's name.
#[derive(Clone, Debug, Default)]
struct Logs {
    dir: Option<PathBuf>,
    player: String,
}

/// A Python callable playing as a strategy.
pub struct PythonPlayer {
    source: Source,
    size: u32,
    rules: Rules,
    stall_timeout: Duration,
    logs: Mutex<Logs>,
}

/// A player's session, kept in the worker's memory.
struct Kept {
    session: Box<dyn Session>,
    /// No request of the game in play yet.
    fresh: bool,
    /// Plies of the game in play the session has been told.
    told: usize,
}

impl PlayerState for Kept {
    fn new_game(&mut self) {
        self.fresh = true;
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
            logs: Mutex::new(Logs::default()),
        })
    }

    fn log(&self) -> Option<PathBuf> {
        let logs = self.logs.lock().map(|l| l.clone()).unwrap_or_default();
        let worker = rayon::current_thread_index().map_or(0, |w| w + 1);
        logs.dir.map(|dir| {
            dir.join(LOG_FOLDER)
                .join(format!("{}-{worker}.log", logs.player))
        })
    }

    /// The move, or the fault that loses the game.
    fn try_choose<G: Geometry>(
        &self,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Result<Square, (Termination, String)> {
        if context.memory.find_state::<Kept>().is_none() {
            let began = Instant::now();
            let session = self
                .source
                .session(self.log())
                .map_err(|why| (Termination::Crash, why))?;
            context.memory.state(
                |_| true,
                || Kept {
                    session,
                    fresh: true,
                    told: 0,
                },
            );
            // Starting (or restarting) is not thinking: no clock counts it.
            context.memory.clock.pause(began.elapsed());
        }
        let history = context.history;
        let plies = plies_from(history.start, history.moves);
        let clock = context.memory.clock;
        let timed = clock.limit.is_some();
        let deadline = clock
            .limit
            .unwrap_or_else(|| Instant::now() + self.stall_timeout);
        let fresh = context
            .memory
            .find_state::<Kept>()
            .is_some_and(|kept| kept.fresh);
        // One draw a game, at its first request.
        let seed = if fresh { context.rng.next_u64() } else { 0 };
        let kept = context.memory.find_state::<Kept>().expect("started above");
        let new_game = kept.fresh.then(|| NewGame {
            seed,
            size: self.size,
            rules: self.rules,
            start: Some(history.start)
                .filter(|s| *s != Position::start())
                .map(|s| s.to_obf()),
        });
        if kept.fresh {
            kept.told = 0;
        }
        let names: Vec<String> = plies[kept.told.min(plies.len())..]
            .iter()
            .map(|p| p.square.map_or("pass".into(), |s| s.name(self.size)))
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let turn = Turn {
            new_game,
            plies: &names,
        };
        let text = kept.session.choose(&turn, deadline).map_err(|f| match f {
            Failure::Raised(line) => (Termination::Error, line),
            Failure::Process(ProcessFailure::Crashed(why)) => (Termination::Crash, why),
            Failure::Process(ProcessFailure::Stalled(why)) if timed => (Termination::Time, why),
            Failure::Process(ProcessFailure::Stalled(why)) => (Termination::Stalled, why),
            Failure::Process(ProcessFailure::Garbage(why)) => (Termination::Illegal, why),
        })?;
        kept.fresh = false;
        kept.told = plies.len();
        let side = plies
            .last()
            .map_or(history.start.side, |p| p.color.opposite());
        match gtp::parse_move(&text, self.size) {
            Ok(Some(square)) if moves.has(square.index()) => Ok(square),
            _ => Err((Termination::Illegal, self.not_legal(&text, side, moves))),
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
    fn choose(&self, _board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Answer {
        let began = Instant::now();
        match self.try_choose(moves, context) {
            Ok(square) => Ok(Choice::of(square).timed_from(began)),
            Err((termination, why)) => {
                let game = context.history.moves.len();
                if let Some(kept) = context.memory.find_state::<Kept>() {
                    kept.session
                        .note(&format!("{} after {game} moves: {why}", termination.name()));
                }
                // Started afresh for the next game, whatever the fault: after a stall or
                // garbage its state is unknown, and a restart is cheap next to a game.
                context.memory.drop_state::<Kept>();
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

    fn attach(&self, folder: &std::path::Path, player: &str) {
        if let Ok(mut logs) = self.logs.lock() {
            *logs = Logs {
                dir: Some(folder.to_path_buf()),
                player: player.to_string(),
            };
        }
    }
}

/// A Python callable as an evaluation: sessions taken from a pool for each call, as
/// many as threads evaluate at once. An evaluation has no way to lose a game, so a
/// call that fails values the position 0, its session is dropped, and the first such
/// failure is said once on standard error.
pub struct PythonEval {
    source: Source,
    stall_timeout: Duration,
    idle: Mutex<Vec<Box<dyn Session>>>,
    warned: std::sync::atomic::AtomicBool,
}

impl PythonEval {
    /// The evaluation, once its callable has shown it can be called.
    pub fn new(spec: &PythonSpec) -> Result<Self, SpecError> {
        Ok(PythonEval {
            source: spec.source(Role::Evaluation)?,
            stall_timeout: spec.stall_timeout(),
            idle: Mutex::new(Vec::new()),
            warned: std::sync::atomic::AtomicBool::new(false),
        })
    }

    fn value(&self, obf: &str) -> Result<f64, String> {
        let kept = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let mut session = match kept {
            Some(session) => session,
            None => self.source.session(None)?,
        };
        let value = session.value(obf, Instant::now() + self.stall_timeout);
        // A session that answered, even with an exception or a number that is not one,
        // is kept: a new worker process for every failing call would make the search
        // crawl. Only one that crashed, stalled or spoke garbage is dropped.
        if matches!(value, Ok(_) | Err(Failure::Raised(_))) {
            if let Ok(mut idle) = self.idle.lock() {
                idle.push(session);
            }
        }
        match value {
            Ok(v) if v.is_finite() => Ok(v),
            Ok(v) => Err(format!("it returned {v}, not a finite number")),
            Err(Failure::Raised(line)) => Err(format!("it raised {line}")),
            Err(Failure::Process(
                ProcessFailure::Crashed(why)
                | ProcessFailure::Stalled(why)
                | ProcessFailure::Garbage(why),
            )) => Err(why),
        }
    }
}

impl<G: Geometry> Evaluator<G> for PythonEval {
    fn evaluate(&self, board: Board<G>) -> i32 {
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
            Err(why) => {
                if !self.warned.swap(true, std::sync::atomic::Ordering::Relaxed) {
                    eprintln!(
                        "reversi-lab: the Python evaluation {} failed ({why}); such positions are valued 0",
                        self.source.identity()
                    );
                }
                0
            }
        }
    }
}
