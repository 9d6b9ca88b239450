//! Play in the browser: sessions of games against a strategy spec or a level, as
//! `play` plays them — the same seeds per game (`Seeds(seed).game(0, round)`), the
//! same forced moves, the same levels and fallback for `eval` (handed over by the
//! command in a [`PlayBook`], since they are the `play` command's own) — so a game
//! typed at `play` and clicked here with the same seed has the same moves.

use super::http::{Reply, Want};
use crate::board::{squares, Bits, Color, Geometry, Position, Square};
use crate::game::{Line, Outcome, Rules, Scoring};
use crate::lab::schedule::{game_rng, Seeds};
use crate::strategy::spec::{ParamPath, ParamValue};
use crate::strategy::{
    best_first, Context, GameRng, History, Memory, SolverTable, Strategy, StrategySpec,
    TranspositionTable,
};
use crate::with_geometry;
use rand::Rng;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What play takes from the `play` command, so that both play alike.
#[derive(Clone, Copy, Debug)]
pub struct PlayBook {
    /// The level names, easiest first.
    pub levels: &'static [&'static str],
    /// A level's spec on a board of this size under these rules (None: no such level).
    pub level_spec: fn(&str, u32, Rules) -> Option<&'static str>,
    /// What `eval` asks when the opponent has no values of its own.
    pub eval_fallback: fn(u32, Rules) -> &'static str,
    /// A move value as text on the scale of the spec that gave it, with the empties.
    pub value_text: fn(&StrategySpec, i32, u32) -> String,
    /// What the values of a spec mean, for the line that lists them.
    pub value_legend: fn(&StrategySpec) -> String,
    /// The result line of a finished game.
    pub result_text: fn(&Outcome, Rules) -> String,
}

/// The longest a computer's move may think (the searches stop deepening at their
/// deadline): a page may ask for `alphabeta:time=1h`, and the server answers soon.
pub const MOVE_TIME: Duration = Duration::from_secs(5);

/// The longest one request may keep the computer thinking over all the moves it
/// plays in a row (the person passing); past it each move gets only a first look.
pub const REQUEST_TIME: Duration = Duration::from_secs(15);

/// Sessions kept at once; the one used longest ago goes first.
const MOST_SESSIONS: usize = 256;

/// The most one game's tables may take (its opponent's and its `eval` fallback's
/// transposition and solver tables): room for `table_bits = 20`, the expert level's,
/// on any board. A page could otherwise ask for 2 GB a game (`table_bits = 26`).
pub const GAME_TABLE_BYTES: u64 = 128 << 20;

/// The most all sessions' tables may take together: past it the games used longest
/// ago go first, as past [`MOST_SESSIONS`].
pub const TOTAL_TABLE_BYTES: u64 = 2 << 30;

// At least 16 of the biggest games fit together.
const _: () = assert!(GAME_TABLE_BYTES * 16 <= TOTAL_TABLE_BYTES);

/// Every game being played, by id.
pub struct Sessions {
    book: PlayBook,
    open: Mutex<HashMap<String, Open>>,
}

/// An open session: when it was last used, the bytes its tables may take, and its game.
type Open = (Instant, u64, Arc<Mutex<Box<dyn Table>>>);

/// A session of some board size.
trait Table: Send {
    fn state(&self) -> Value;
    fn play(&mut self, square: &str) -> Result<(), Reply>;
    fn undo(&mut self) -> Result<(), Reply>;
    fn eval(&self) -> Value;
    fn again(&mut self) -> Result<(), Reply>;
    /// The flag a search stops at once the page has gone (None: no longer watched).
    fn watch(&mut self, gone: Option<&Arc<AtomicBool>>);
    /// The most its tables may take, in bytes.
    fn table_bytes(&self) -> u64;
}

/// The reply to a page that left while the computer thought (nobody reads it).
fn left() -> Reply {
    Reply::error(
        503,
        "the page closed while the computer thought: nothing was played",
    )
}

impl Sessions {
    pub fn new(book: PlayBook) -> Self {
        Sessions {
            book,
            open: Mutex::default(),
        }
    }

    pub fn book(&self) -> &PlayBook {
        &self.book
    }

    /// A new session: `vs` (a spec, or `human`) or `level`, `size`, `anti`,
    /// `scoring=count`, `colour`, `seed`, `moves` (played before the game begins).
    pub fn start(&self, want: &Want, gone: Option<&Arc<AtomicBool>>) -> Result<String, Reply> {
        let size = match want.query("size").as_deref() {
            None | Some("") => 8,
            Some(s) => match s.parse::<u32>() {
                Ok(n @ (4 | 6 | 8 | 10)) => n,
                _ => {
                    return Err(Reply::error(
                        400,
                        &format!("size {s} is not played: give 4, 6, 8 or 10"),
                    ))
                }
            },
        };
        let anti = match want.query("anti").as_deref() {
            None | Some("" | "0" | "off" | "false") => false,
            Some("1" | "on" | "true") => true,
            Some(other) => {
                return Err(Reply::error(
                    400,
                    &format!("anti {other}: give 1 (anti rules) or 0 (normal rules)"),
                ))
            }
        };
        let scoring = match want.query("scoring").as_deref() {
            None | Some("" | "winner") => Scoring::WinnerGetsEmpties,
            Some("count") => Scoring::Count,
            Some(other) => {
                return Err(Reply::error(
                    400,
                    &format!("scoring {other}: give count (empties not counted) or winner (empties to the winner)"),
                ))
            }
        };
        let rules = Rules { anti, scoring };
        let seed = match want.query("seed").filter(|s| !s.is_empty()) {
            None => 1,
            Some(s) => s.parse::<u64>().map_err(|_| {
                Reply::error(400, &format!("seed {s} is not a whole number of 0 or more"))
            })?,
        };
        let choice = match want.query("colour").as_deref().unwrap_or("black") {
            "black" | "" => Choice::Black,
            "white" => Choice::White,
            "random" => Choice::Random,
            other => {
                return Err(Reply::error(
                    400,
                    &format!("colour {other}: give black, white or random"),
                ))
            }
        };
        let vs = want.query("vs").filter(|v| !v.trim().is_empty());
        let text: Option<String> = match vs.as_deref() {
            Some(v) if v.trim().eq_ignore_ascii_case("human") => None,
            Some(v) => Some(v.trim().to_string()),
            None => {
                let level = want.query("level").unwrap_or_else(|| "medium".into());
                let spec = (self.book.level_spec)(&level, size, rules).ok_or_else(|| {
                    Reply::error(
                        400,
                        &format!("level {level}: give one of {}", self.book.levels.join(", ")),
                    )
                })?;
                Some(spec.to_string())
            }
        };
        let spec = match &text {
            Some(t) => Some(
                StrategySpec::parse(t).map_err(|e| Reply::error(400, &format!("vs {t}: {e}")))?,
            ),
            None => None,
        };
        if let (Some(spec), Some(t)) = (&spec, &text) {
            // A page may not start programs on the server's machine, at any depth of
            // the spec (a base strategy, a rollout), nor read its files.
            if spec.any(&mut StrategySpec::runs_code) {
                return Err(Reply::error(400, &format!("vs {t}: external engines and Python strategies are not played from the browser (they would run a program or Python code on the server): play them with `reversi-lab play --vs`")));
            }
            if spec.any(&mut |s| !s.files().is_empty()) {
                return Err(Reply::error(400, &format!("vs {t}: strategies that read files on the server (a pattern's weights, an engine's folder) are not played from the browser: play them with `reversi-lab play --vs`")));
            }
        }
        let moves = want.query("moves").unwrap_or_default();
        let setup = Setup {
            book: self.book,
            text,
            spec,
            rules,
            seed,
            choice,
            moves,
        };
        let mut table: Box<dyn Table> =
            with_geometry!(size, G => Box::new(Session::<G>::new(setup, gone)?));
        table.watch(None);
        let id = format!("{:032x}", rand::random::<u128>());
        let state = table.state();
        let mut open = self
            .open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let bytes = table.table_bytes();
        while open.len() >= MOST_SESSIONS
            || open.values().map(|(_, b, _)| b).sum::<u64>() + bytes > TOTAL_TABLE_BYTES
        {
            let Some(oldest) = open
                .iter()
                .min_by_key(|(_, (used, _, _))| *used)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            open.remove(&oldest);
        }
        open.insert(
            id.clone(),
            (Instant::now(), bytes, Arc::new(Mutex::new(table))),
        );
        Ok(with_id(state, &id))
    }

    /// An action on a session: `/play/move?id=..&square=f5`, `undo`, `eval`, `again`, `state`.
    pub fn act(&self, want: &Want, gone: Option<&Arc<AtomicBool>>) -> Result<String, Reply> {
        let id = want
            .query("id")
            .ok_or_else(|| Reply::error(400, "give the game as ?id= (from /play/new)"))?;
        let table = {
            let mut open = self
                .open
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let entry = open.get_mut(&id).ok_or_else(|| {
                Reply::error(404, "no such game (the server was restarted, or the game was put away for newer ones): start a new game")
            })?;
            entry.0 = Instant::now();
            Arc::clone(&entry.2)
        };
        let mut table = table
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        table.watch(gone);
        let state = Self::action(&mut **table, want);
        table.watch(None);
        let mut state = state?;
        state["id"] = json!(id);
        Ok(state.to_string())
    }

    fn action(table: &mut dyn Table, want: &Want) -> Result<Value, Reply> {
        Ok(match want.path.as_str() {
            "/play/move" => {
                let square = want
                    .query("square")
                    .ok_or_else(|| Reply::error(400, "give the move as &square=f5"))?;
                table.play(&square)?;
                table.state()
            }
            "/play/undo" => {
                table.undo()?;
                table.state()
            }
            "/play/again" => {
                table.again()?;
                table.state()
            }
            "/play/eval" => {
                let mut state = table.state();
                state["eval"] = table.eval();
                state
            }
            _ => table.state(),
        })
    }
}

fn with_id(mut state: Value, id: &str) -> String {
    state["id"] = json!(id);
    state.to_string()
}

#[derive(Clone, Copy)]
enum Choice {
    Black,
    White,
    Random,
}

struct Setup {
    book: PlayBook,
    text: Option<String>,
    spec: Option<StrategySpec>,
    rules: Rules,
    seed: u64,
    choice: Choice,
    moves: String,
}

struct Session<G: Geometry> {
    setup: Setup,
    opponent: Option<Box<dyn Strategy<G>>>,
    fallback: (StrategySpec, Box<dyn Strategy<G>>),
    /// The most the opponent's and the fallback's tables may take.
    bytes: u64,
    /// The moves played before the game began (undo stops there).
    fixed: usize,
    initial: Line<G>,
    /// The game, passes made as soon as a side has no move, as `play` makes them.
    game: Line<G>,
    round: u64,
    you: Color,
    rng: GameRng,
    memory: Memory<G>,
}

impl<G: Geometry> Session<G> {
    fn new(setup: Setup, gone: Option<&Arc<AtomicBool>>) -> Result<Self, Reply> {
        let mut initial = Line::new(Position::<G>::start());
        initial.pass_if_forced();
        initial
            .play_transcript(&setup.moves)
            .map_err(|e| Reply::error(400, &format!("moves {}: {e}", setup.moves)))?;
        initial.pass_if_forced();
        let empties = initial.board().empty_count();
        let fallback_text = (setup.book.eval_fallback)(G::SIZE, setup.rules);
        let fallback_spec = StrategySpec::parse(fallback_text)
            .map_err(|e| Reply::error(500, &format!("eval fallback: {e}")))?;
        let bytes =
            setup.spec.as_ref().map_or(0, table_bytes::<G>) + table_bytes::<G>(&fallback_spec);
        if let (Some(text), true) = (&setup.text, bytes > GAME_TABLE_BYTES) {
            return Err(Reply::error(400, &format!("vs {text}: its tables would take {} MB, more than the {} MB one game may hold on the server (it keeps up to {MOST_SESSIONS} games): give fewer table_bits, or play it with `reversi-lab play --vs`", bytes >> 20, GAME_TABLE_BYTES >> 20)));
        }
        let opponent = match (&setup.spec, &setup.text) {
            (Some(spec), Some(text)) => Some(
                spec.check_practical(empties)
                    .and_then(|()| spec.build::<G>(setup.rules))
                    .map_err(|e| Reply::error(400, &format!("vs {text}: {e}")))?,
            ),
            _ => None,
        };
        let fallback = fallback_spec
            .build::<G>(setup.rules)
            .map_err(|e| Reply::error(500, &format!("eval fallback: {e}")))?;
        let mut session = Session {
            fixed: initial.moves().len(),
            game: initial.clone(),
            initial,
            opponent,
            fallback: (fallback_spec, fallback),
            bytes,
            round: 0,
            you: Color::Black,
            rng: game_rng(setup.seed),
            memory: Memory::new(),
            setup,
        };
        session.memory.cancel = gone.cloned();
        session.begin();
        if session.memory.cancelled() {
            return Err(left());
        }
        Ok(session)
    }

    /// A round as `play` starts one: the game's own generator, fresh memory, the
    /// person's colour, then the opponent's moves up to the person's turn.
    fn begin(&mut self) {
        self.game = self.initial.clone();
        self.rng = game_rng(Seeds(self.setup.seed).game(0, self.round));
        self.memory.new_game();
        self.you = match self.setup.choice {
            Choice::Black => Color::Black,
            Choice::White => Color::White,
            Choice::Random if self.rng.gen::<bool>() => Color::Black,
            Choice::Random => Color::White,
        };
        self.computer_moves();
    }

    fn human(&self, side: Color) -> bool {
        self.opponent.is_none() || side == self.you
    }

    fn computer_moves(&mut self) {
        let Some(strategy) = &self.opponent else {
            return;
        };
        let asked = Instant::now();
        while !self.game.is_over() && self.game.side() != self.you {
            let moves = self.game.legal_moves();
            let square = if moves.count() == 1 {
                Square::new(moves.lowest())
            } else {
                // The server's limit, as a clock would set it: the search's own
                // budget still holds when it is shorter.
                let now = Instant::now();
                let left = REQUEST_TIME.saturating_sub(now - asked);
                self.memory.clock.deadline = Some(now + MOVE_TIME.min(left));
                let mut context = Context {
                    rng: &mut self.rng,
                    memory: &mut self.memory,
                    history: History::of(&self.game),
                };
                let answer = strategy.choose(self.game.board(), moves, &mut context);
                self.memory.clock.deadline = None;
                if self.memory.cancelled() {
                    return;
                }
                match answer {
                    Ok(choice) => choice.square,
                    // Only an external engine faults, and play refuses those: stop
                    // rather than guess a move.
                    Err(_) => return,
                }
            };
            self.game
                .play(square)
                .expect("strategies choose legal moves");
            self.game.pass_if_forced();
        }
    }
}

impl<G: Geometry> Table for Session<G> {
    fn state(&self) -> Value {
        let n = G::SIZE;
        let position = self.game.position();
        let cells: String = (0..n * n)
            .map(|i| {
                let square = Square::new(i);
                if position.black().has(square.index()) {
                    'b'
                } else if position.white().has(square.index()) {
                    'w'
                } else {
                    '.'
                }
            })
            .collect();
        let over = self.game.is_over();
        let legal: Vec<String> = if over {
            Vec::new()
        } else {
            squares(self.game.legal_moves())
                .map(|s| s.name(n))
                .collect()
        };
        let outcome = self.game.outcome(self.setup.rules);
        let verdict = match (&self.opponent, outcome.as_ref().and_then(|o| o.winner)) {
            (None, _) | (_, None) if outcome.is_none() => "",
            (None, _) => "",
            // The result already says "a draw".
            (Some(_), None) => "",
            (Some(_), Some(c)) if c == self.you => "you win",
            (Some(_), Some(_)) => "you lose",
        };
        json!({
            "size": n,
            "cells": cells,
            "side": self.game.side().to_string(),
            "you": if self.opponent.is_some() { self.you.to_string() } else { "both".to_string() },
            "opponent": self.setup.text.clone().unwrap_or_else(|| "human".into()),
            "your_turn": !over && self.human(self.game.side()),
            "legal": legal,
            "last": self.game.moves().last().map(|s| s.name(n)),
            "transcript": self.game.transcript(),
            "black": position.black().count(),
            "white": position.white().count(),
            "over": over,
            "result": outcome.map(|o| (self.setup.book.result_text)(&o, self.setup.rules)),
            "verdict": verdict,
            "game": self.round + 1,
            "seed": self.setup.seed,
        })
    }

    fn play(&mut self, text: &str) -> Result<(), Reply> {
        let n = G::SIZE;
        if self.game.is_over() {
            return Err(Reply::error(
                409,
                "the game is over: start another (play again) or undo",
            ));
        }
        if !self.human(self.game.side()) {
            return Err(Reply::error(409, "it is not your move"));
        }
        let square = Square::parse(text.trim(), n).ok_or_else(|| {
            Reply::error(
                400,
                &format!(
                    "{text} is not a square of the {n}x{n} board (columns a-{}, rows 1-{n})",
                    (b'a' + n as u8 - 1) as char
                ),
            )
        })?;
        let before = (self.game.clone(), self.rng.clone());
        self.game
            .play(square)
            .map_err(|e| Reply::error(400, &e.to_string()))?;
        self.game.pass_if_forced();
        self.computer_moves();
        if self.memory.cancelled() {
            // As if never asked: the person's move can be made again.
            (self.game, self.rng) = before;
            return Err(left());
        }
        Ok(())
    }

    /// Takes back the person's last move and the replies after it, as `play`'s `undo`.
    fn undo(&mut self) -> Result<(), Reply> {
        let movers: Vec<Color> = (self.game.turns().iter())
            .filter(|t| t.square.is_some())
            .map(|t| t.side())
            .collect();
        let own = movers.iter().rposition(|&by| self.human(by));
        let Some(index) = own.filter(|&i| i >= self.fixed) else {
            return Err(Reply::error(
                409,
                "nothing to undo (undo goes back no further than the start of the game)",
            ));
        };
        self.game.back_to_move(index);
        Ok(())
    }

    /// Each legal move's value, best first: the opponent's own, or the fallback's.
    fn eval(&self) -> Value {
        let board = self.game.board();
        let moves = self.game.legal_moves();
        if self.game.is_over() {
            return json!({ "by": "", "legend": "", "values": [] });
        }
        let mut memory = Memory::new();
        memory.clock.deadline = Some(Instant::now() + MOVE_TIME);
        memory.cancel.clone_from(&self.memory.cancel);
        let mut rng = game_rng(self.setup.seed);
        let mut context = Context {
            rng: &mut rng,
            memory: &mut memory,
            history: History::of(&self.game),
        };
        let empties = board.empty_count();
        let text =
            |spec: &StrategySpec, value: i32| (self.setup.book.value_text)(spec, value, empties);
        let side = self.game.side().to_string();
        // A search that counts visits (mcts) shows them beside each value, its moves in
        // its own order and the line of that same search, as `play`'s `eval` does.
        if let (Some(s), Some(spec), Some(by)) =
            (&self.opponent, &self.setup.spec, &self.setup.text)
        {
            if let Some(visits) = s.move_visits(board, moves, &mut context) {
                let list: Vec<Value> = (visits.moves.iter())
                    .map(|v| {
                        json!([
                            v.square.name(G::SIZE),
                            format!("{} ({})", text(spec, v.value), v.note())
                        ])
                    })
                    .collect();
                let legend = format!(
                    "{}; most visited first",
                    (self.setup.book.value_legend)(spec)
                );
                return json!({ "by": by, "legend": legend, "side": side, "values": list, "line": visits.choice.line_text(G::SIZE) });
            }
        }
        let own = match (&self.opponent, &self.setup.spec, &self.setup.text) {
            (Some(s), Some(spec), Some(text)) => s
                .move_values(board, moves, &mut context)
                .map(|v| (text.clone(), spec, s.as_ref(), v)),
            _ => None,
        };
        let (by, spec, evaluator, mut values) = match own {
            Some(found) => found,
            None => {
                let (spec, fallback) = &self.fallback;
                let values = fallback
                    .move_values(board, moves, &mut context)
                    .unwrap_or_default();
                (
                    (self.setup.book.eval_fallback)(G::SIZE, self.setup.rules).to_string(),
                    spec,
                    fallback.as_ref(),
                    values,
                )
            }
        };
        // The line the evaluating search expects, from its own choice (after the values,
        // so that its table is warm).
        let choice = evaluator.choose(board, moves, &mut context).ok();
        let line = choice.as_ref().and_then(|c| c.line_text(G::SIZE));
        best_first(&mut values, choice.map(|c| c.square));
        let list: Vec<Value> = values
            .iter()
            .map(|&(square, value)| json!([square.name(G::SIZE), text(spec, value)]))
            .collect();
        json!({ "by": by, "legend": (self.setup.book.value_legend)(spec), "side": side, "values": list, "line": line })
    }

    fn again(&mut self) -> Result<(), Reply> {
        let before = (self.game.clone(), self.rng.clone(), self.round, self.you);
        self.round += 1;
        self.begin();
        if self.memory.cancelled() {
            (self.game, self.rng, self.round, self.you) = before;
            return Err(left());
        }
        Ok(())
    }

    fn watch(&mut self, gone: Option<&Arc<AtomicBool>>) {
        self.memory.cancel = gone.cloned();
    }

    fn table_bytes(&self) -> u64 {
        self.bytes
    }
}

/// The most the tables of `spec` may take on this board: for every `table_bits` it
/// holds (nested strategies too), a search's transposition table and the solver's
/// (a search solves its endgame with one), each as `solve` reckons its table.
fn table_bytes<G: Geometry>(spec: &StrategySpec) -> u64 {
    ParamPath::all(spec)
        .iter()
        .filter(|path| !path.is_entry() && path.last() == "table_bits")
        .filter_map(|path| match path.get(spec) {
            Some(ParamValue::Whole(bits)) => u32::try_from(bits).ok(),
            _ => None,
        })
        .map(|bits| TranspositionTable::<G>::bytes(bits) + SolverTable::<G>::bytes(bits))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Size10, Size8};

    fn bytes<G: Geometry>(text: &str) -> u64 {
        table_bytes::<G>(&StrategySpec::parse(text).unwrap())
    }

    #[test]
    fn the_expert_level_fits_a_game_and_the_biggest_tables_do_not() {
        let expert = crate::strategy::spec::EXPERT;
        assert!(bytes::<Size8>(expert) <= GAME_TABLE_BYTES);
        assert!(bytes::<Size10>("alphabeta:table_bits=20") <= GAME_TABLE_BYTES);
        assert!(bytes::<Size8>("alphabeta:depth=4,table_bits=26") > GAME_TABLE_BYTES);
        // A table nested in another strategy counts too.
        let nested = "parity:base=(alphabeta:depth=1,table_bits=26)";
        assert!(bytes::<Size8>(nested) > GAME_TABLE_BYTES, "{nested}");
    }
}
