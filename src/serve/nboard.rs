//! `reversi-lab nboard`: a strategy served over the NBoard protocol (version 2), as
//! the NBoard GUI and NTest speak it: the game arrives as GGF (`set game`) and grows
//! by `move`; `go` answers the move without playing it, `hint` ranks moves.
//!
//! Lines the server does not know are ignored, as NBoard engines do; a game or move
//! it cannot read is answered with a `status` line naming the problem.

use super::{check, finish, is_size, read_line, with_depth, Engine, Eval, Games, NAME};
use crate::board::{Bits, Board, Geometry, Position, Square};
use crate::error::Result;
use crate::game::Line;
use crate::lab::export::ggf::{read_games, GgfGame};
use crate::strategy::StrategySpec;
use crate::with_geometry;
use std::io::{self, BufRead, Write};
use std::time::Instant;

/// What lasts across board sizes: the strategy (with `set depth`), the game numbers.
struct Session {
    spec: StrategySpec,
    games: Games,
    size: u32,
}

/// What a session on one board size ends with: the end, or a game on another size.
enum Next {
    Quit,
    Game(GgfGame),
}

/// Serves `strategy` over NBoard, reading from `input` and answering on `output`
/// until `quit` or the end of the input. Game n of the session plays with the seed
/// of game n of `match --seed SEED` (see [`super`]); a `set game` that continues
/// the game in hand (the same start, the moves so far and perhaps more) is the same
/// game. Fails only on a strategy that cannot be served or on output that cannot be
/// written.
pub fn serve(
    strategy: &StrategySpec,
    seed: u64,
    mut input: impl BufRead,
    mut output: impl Write,
) -> Result<()> {
    check(strategy).map_err(|e| super::refused(&e))?;
    let mut session = Session {
        spec: strategy.clone(),
        games: Games::new(seed),
        size: 8,
    };
    let mut pending = None;
    let result = loop {
        let next = with_geometry!(session.size, G => on_size::<G>(&mut session, pending.take(), &mut input, &mut output));
        match next {
            Ok(Next::Quit) => break Ok(()),
            Ok(Next::Game(game)) => {
                session.size = game.size;
                pending = Some(game);
            }
            Err(e) => break Err(e),
        }
    };
    finish(result)
}

fn send(out: &mut impl Write, line: &str) -> io::Result<()> {
    writeln!(out, "{line}")?;
    out.flush()
}

/// The session on a board of `G`'s size, starting with `game` if one came for it.
fn on_size<G: Geometry>(
    session: &mut Session,
    game: Option<GgfGame>,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> io::Result<Next> {
    let seed = session.games.new_game();
    let mut engine = Engine::<G>::new(&session.spec, Position::start(), seed)
        .expect("games are taken only on sizes the strategy builds on");
    if let Some(game) = game {
        if let Err(problem) = set_game(session, &mut engine, &game) {
            send(out, &format!("status {NAME}: {problem}"))?;
        }
    }
    // The last `go`'s answer and the game it was for: asked again, it is said again.
    let mut asked: Option<(Line<G>, String)> = None;
    while let Some(line) = read_line(input)? {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            continue;
        };
        let rest = line.trim_start()[command.len()..].trim();
        match command {
            "nboard" => send(out, &format!("set myname {NAME}"))?,
            "set" => {
                let mut parts = rest.splitn(2, char::is_whitespace);
                let (key, value) = (
                    parts.next().unwrap_or(""),
                    parts.next().unwrap_or("").trim(),
                );
                match key {
                    "depth" => {
                        match with_depth(&session.spec, value) {
                            Ok(Some(spec)) => {
                                engine
                                    .rebuild(&spec)
                                    .expect("a depth changes no board size");
                                session.spec = spec;
                            }
                            // A strategy without a search depth plays as it does.
                            Ok(None) => {}
                            // NBoard has no error reply: a status line says it.
                            Err(problem) => send(out, &format!("status {NAME}: {problem}"))?,
                        }
                        send(out, &format!("set myname {NAME}"))?;
                    }
                    "game" => match read_game(value) {
                        Ok(game) if game.size == G::SIZE => {
                            if let Err(problem) = set_game(session, &mut engine, &game) {
                                send(out, &format!("status {NAME}: {problem}"))?;
                            }
                        }
                        Ok(game) if is_size(game.size) && builds_on(&session.spec, game.size) => {
                            match with_geometry!(game.size, H => replay::<H>(&game).map(drop)) {
                                Ok(()) => return Ok(Next::Game(game)),
                                Err(problem) => send(out, &format!("status {NAME}: {problem}"))?,
                            }
                        }
                        Ok(game) => send(
                            out,
                            &format!(
                                "status {NAME}: cannot play a {0}x{0} game with this strategy",
                                game.size
                            ),
                        )?,
                        Err(problem) => send(out, &format!("status {NAME}: {problem}"))?,
                    },
                    // `contempt` and anything newer: nothing to change.
                    _ => {}
                }
            }
            "move" => play_move(session, &mut engine, rest, out)?,
            "hint" => hint(&mut engine, rest.parse().unwrap_or(1), out)?,
            "go" => go(session, &mut engine, &mut asked, out)?,
            "ping" => send(out, &format!("pong {rest}"))?,
            "learn" => send(out, "learned")?,
            "analyze" => analyze(&mut engine, out)?,
            "quit" => return Ok(Next::Quit),
            // NBoard 1.1 sent a move alone (`F5`), without `move`.
            word if word.len() <= 3 && Square::parse(word, G::SIZE).is_some() => {
                play_move(session, &mut engine, word, out)?;
            }
            _ => {}
        }
    }
    Ok(Next::Quit)
}

/// Whether the strategy plays on boards of `size`.
fn builds_on(spec: &StrategySpec, size: u32) -> bool {
    with_geometry!(size, H => spec.build::<H>(super::RULES).is_ok())
}

/// The one game of a `set game` line.
fn read_game(text: &str) -> std::result::Result<GgfGame, String> {
    let mut games = read_games(text).map_err(|e| format!("cannot read the game: {e}"))?;
    if games.is_empty() {
        return Err("cannot read the game: no (; ... ;) in it".into());
    }
    Ok(games.swap_remove(0))
}

/// The game's start and turns as a line (a pass put in where a colour moves out
/// of turn because the other had to pass).
fn replay<G: Geometry>(game: &GgfGame) -> std::result::Result<Line<G>, String> {
    let start = match &game.start {
        Some(text) => super::ggf_board::<G>(text)?,
        None => Position::start(),
    };
    let mut line = Line::new(start);
    for (i, (side, name)) in game.turns.iter().enumerate() {
        let square = match name {
            None => None,
            Some(name) => Some(
                Square::parse(name, G::SIZE)
                    .ok_or_else(|| format!("turn {}: '{name}' is not a square", i + 1))?,
            ),
        };
        if *side != line.side() {
            line.pass_if_forced();
        }
        if *side != line.side() || line.play_turn(square).is_err() {
            return Err(format!(
                "turn {}: {} is not a legal move for {}",
                i + 1,
                name.as_deref().unwrap_or("a pass"),
                side.name()
            ));
        }
    }
    Ok(line)
}

/// `set game`: the same game if it continues the one in hand, else a new game.
fn set_game<G: Geometry>(
    session: &mut Session,
    engine: &mut Engine<G>,
    game: &GgfGame,
) -> std::result::Result<(), String> {
    let line = replay::<G>(game)?;
    let now = &engine.line;
    let continues = line.start() == now.start()
        && line.turns().len() >= now.turns().len()
        && line
            .turns()
            .iter()
            .zip(now.turns())
            .all(|(a, b)| (a.before, a.square) == (b.before, b.square));
    if !continues {
        engine.new_game(line.start(), session.games.new_game());
    }
    if line.turns().len() > engine.line.turns().len() {
        session.games.begin();
    }
    engine.line = line;
    Ok(())
}

/// `move F5[/eval[/time]]` (`PA`: a pass).
fn play_move<G: Geometry>(
    session: &mut Session,
    engine: &mut Engine<G>,
    text: &str,
    out: &mut impl Write,
) -> io::Result<()> {
    let word = text.split('/').next().unwrap_or("").trim();
    let square = match super::move_word(word, G::SIZE) {
        Some(square) => square,
        None => {
            return send(
                out,
                &format!("status {NAME}: cannot read the move '{text}'"),
            )
        }
    };
    let mut line = engine.line.clone();
    if square.is_some() {
        line.pass_if_forced();
    }
    if line.play_turn(square).is_err() {
        return send(
            out,
            &format!("status {NAME}: {word} is not a legal move here"),
        );
    }
    engine.line = line;
    session.games.begin();
    Ok(())
}

/// An eval as NBoard reads it: discs with two decimals and a sign.
/// A move's name as the engine writes it (lower case; `PA` for a pass).
fn move_text<G: Geometry>(square: Option<Square>) -> String {
    square.map_or_else(|| "PA".to_string(), |s| s.name(G::SIZE))
}

/// `go`: the move the strategy plays here, with its eval and time, not played. A
/// choice draws from the game's generator and fills its memory, so the same
/// question about the same game gets the same answer rather than a second choice.
fn go<G: Geometry>(
    session: &mut Session,
    engine: &mut Engine<G>,
    asked: &mut Option<(Line<G>, String)>,
    out: &mut impl Write,
) -> io::Result<()> {
    if let Some((_, answer)) = asked.as_ref().filter(|(line, _)| *line == engine.line) {
        return send(out, answer);
    }
    let choice = engine.choose();
    session.games.begin();
    send(
        out,
        &format!("nodestats {} {:.2}", choice.nodes, choice.seconds),
    )?;
    let eval = choice
        .eval
        .map_or_else(String::new, |e| engine.eval_text(e));
    let answer = format!(
        "=== {}/{eval}/{:.1}",
        move_text::<G>(choice.square),
        choice.seconds
    );
    *asked = Some((engine.line.clone(), answer.clone()));
    send(out, &answer)
}

/// `hint N`: up to N best moves with their evals, best first, then `status`.
fn hint<G: Geometry>(engine: &mut Engine<G>, count: usize, out: &mut impl Write) -> io::Result<()> {
    let clock = Instant::now();
    let nodes = engine.analysis_nodes();
    let board = engine.line.position().board;
    let mut expected = Vec::new();
    let lines: Vec<(String, Option<Eval>)> = if engine.line.is_over() {
        Vec::new()
    } else if engine.line.must_pass() {
        vec![("PA".to_string(), engine.value_at(board))]
    } else if let Some((values, line)) = engine.visited() {
        // A search that counts visits gives the moves, their order and the line at
        // once: asked apart, it would search twice (and count its nodes twice).
        expected = line;
        values
            .into_iter()
            .take(count.max(1))
            .map(|(s, e)| (s.name(G::SIZE), Some(e)))
            .collect()
    } else {
        match engine.values() {
            Some(mut values) => {
                values.sort_by(|a, b| b.1.discs.total_cmp(&a.1.discs).then(a.0.cmp(&b.0)));
                values
                    .into_iter()
                    .take(count.max(1))
                    .map(|(s, e)| (s.name(G::SIZE), Some(e)))
                    .collect()
            }
            None => engine
                .peek()
                .map(|s| (s.name(G::SIZE), None))
                .into_iter()
                .collect(),
        }
    };
    // The best move's line as the strategy expects it to go on (the protocol's PV
    // field); the other moves are sent alone.
    if expected.is_empty() && lines.first().is_some_and(|(name, _)| name != "PA") {
        expected = engine.expected_line();
    }
    for (name, eval) in lines {
        let (value, depth) = match eval {
            Some(e) if e.exact => (engine.eval_text(e), "100%".to_string()),
            Some(e) => (engine.eval_text(e), engine.depth().to_string()),
            None => ("0.00".to_string(), "0".to_string()),
        };
        let pv = match expected.first() {
            Some(first) if first.name(G::SIZE) == name => pv_text(board, &expected),
            _ => name,
        };
        send(out, &format!("search {pv} {value} 0 {depth}"))?;
    }
    searched(engine, out, nodes, clock)
}

/// A principal variation as NBoard's PV field writes it: the moves one after the
/// other without spaces, a pass as `PA` (the line implies them), cut where a move
/// is not legal.
fn pv_text<G: Geometry>(mut board: Board<G>, line: &[Square]) -> String {
    let mut text = String::new();
    for &square in line {
        if board.moves().is_empty() && !board.is_game_over() {
            text.push_str("PA");
            board = board.pass();
        }
        if !board.moves().has(square.index()) {
            break;
        }
        text.push_str(&square.name(G::SIZE));
        board = board.play(square);
    }
    text
}

/// `analyze`: the value of every position of the game for its side to move, from
/// the end back to the start (`analysis N EVAL`, N the turns played before it).
fn analyze<G: Geometry>(engine: &mut Engine<G>, out: &mut impl Write) -> io::Result<()> {
    let clock = Instant::now();
    let nodes = engine.analysis_nodes();
    let mut positions: Vec<Position<G>> = engine.line.turns().iter().map(|t| t.before).collect();
    positions.push(engine.line.position());
    for (number, position) in positions.iter().enumerate().rev() {
        match engine.value_at(position.board) {
            Some(eval) => send(
                out,
                &format!("analysis {number} {}", engine.eval_text(eval)),
            )?,
            None => break,
        }
    }
    searched(engine, out, nodes, clock)
}

/// Ends a search's answer: `nodestats` with the nodes since `nodes` and the time
/// since `clock`, then an empty `status`.
fn searched<G: Geometry>(
    engine: &Engine<G>,
    out: &mut impl Write,
    nodes: u64,
    clock: Instant,
) -> io::Result<()> {
    send(
        out,
        &format!(
            "nodestats {} {:.2}",
            engine.analysis_nodes() - nodes,
            clock.elapsed().as_secs_f64()
        ),
    )?;
    send(out, "status")
}

#[cfg(test)]
mod tests;
