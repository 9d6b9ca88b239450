//! `reversi-lab gtp`: a strategy served over the Go Text Protocol as Othello engines
//! speak it (Edax, GRhino, Egaroucid): the commands they answer, on 4x4 to 10x10.
//!
//! A reply is `=[id] text` or `?[id] message` and a blank line; the id of a command is
//! echoed. Errors are replies (`? unknown command`, `? illegal move`, ...), never the
//! end of the session, which ends at `quit` or at the end of the input.

use super::{check, colour, finish, is_size, move_word, read_line, Engine, Games, NAME, RULES};
use crate::board::{Color, Drawing, Geometry, Position};
use crate::error::Result;
use crate::strategy::StrategySpec;
use crate::with_geometry;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

/// The commands answered, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "set_game",
    "list_games",
    "reversi_lab-genmove",
];

/// The clock as the controller states it: shown by `showboard`, and the time a
/// `genmove` may think (see [`budget`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Clock {
    /// `time_settings`: main time, byo-yomi time (seconds), byo-yomi stones.
    settings: Option<(f64, f64, u64)>,
    /// `time_left` per colour (black, white): seconds and stones.
    left: [Option<(f64, u64)>; 2],
}

/// What lasts across board sizes: the strategy, the game numbers, the clock.
struct Session<'a> {
    spec: &'a StrategySpec,
    games: Games,
    clock: Clock,
    size: u32,
}

/// What a session on one board size ends with.
enum Next {
    Quit,
    Size(u32),
}

/// Serves `strategy` over GTP, reading commands from `input` and answering on
/// `output` until `quit` or the end of the input. Game n of the session plays with
/// the seed of game n of `match --seed SEED` (see [`super`]). Fails only on a
/// strategy that cannot be served or on output that cannot be written.
pub fn serve(
    strategy: &StrategySpec,
    seed: u64,
    input: impl BufRead,
    output: impl Write,
) -> Result<()> {
    check(strategy).map_err(|e| super::refused(&e))?;
    // Buffers of the session's own, so that it can tell whether a command is waiting
    // (see `next_line`); reading through them, standard input's own buffer stays empty.
    let mut input = BufReader::with_capacity(BUFFER, input);
    let mut output = BufWriter::with_capacity(BUFFER, output);
    let mut session = Session {
        spec: strategy,
        games: Games::new(seed),
        clock: Clock::default(),
        size: 8,
    };
    let result = loop {
        let next = with_geometry!(session.size, G => on_size::<G, _>(&mut session, &mut input, &mut output));
        match next {
            Ok(Next::Quit) => break Ok(()),
            Ok(Next::Size(size)) => session.size = size,
            Err(e) => break Err(e),
        }
    };
    finish(result.and_then(|()| output.flush()))
}

/// The size of the session's input and output buffers.
const BUFFER: usize = 64 * 1024;

/// The next command line (see [`read_line`]), once the replies written so far are
/// sent if no whole line is waiting: the replies to commands that came together (a
/// client's batch: the moves of a game, then `genmove`) go out in one write, and a
/// client waiting for a reply always has it before the server waits for input.
fn next_line<R: Read>(
    input: &mut BufReader<R>,
    out: &mut impl Write,
) -> io::Result<Option<String>> {
    if !input.buffer().contains(&b'\n') {
        out.flush()?;
    }
    read_line(input)
}

/// One command: its id, name and arguments (a comment after `#` and control
/// characters dropped, tabs as spaces); None for an empty line.
fn parse(line: &str) -> Option<(Option<&str>, String, Vec<&str>)> {
    let line = line.split('#').next().unwrap_or("");
    let mut words = line
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty());
    let mut first = words.next()?;
    let id = if first.bytes().all(|b| b.is_ascii_digit()) {
        let id = first;
        first = words.next().unwrap_or("");
        Some(id)
    } else {
        None
    };
    Some((id, first.to_ascii_lowercase(), words.collect()))
}

/// Writes one reply: `=` or `?`, the id, the text, a blank line (sent by
/// [`next_line`]).
fn reply(out: &mut impl Write, ok: bool, id: Option<&str>, text: &str) -> io::Result<()> {
    let mark = if ok { '=' } else { '?' };
    let id = id.unwrap_or("");
    if text.is_empty() || text.starts_with('\n') {
        write!(out, "{mark}{id}{text}\n\n")?;
    } else {
        write!(out, "{mark}{id} {text}\n\n")?;
    }
    Ok(())
}

/// The session on a board of `G`'s size, until `quit`, the end of the input or a
/// `boardsize` of another size.
fn on_size<G: Geometry, R: Read>(
    session: &mut Session<'_>,
    input: &mut BufReader<R>,
    out: &mut impl Write,
) -> io::Result<Next> {
    let seed = session.games.new_game();
    let mut engine = Engine::<G>::new(session.spec, Position::start(), seed)
        .expect("boardsize accepts only sizes the strategy builds on");
    while let Some(line) = next_line(input, out)? {
        let Some((id, command, args)) = parse(&line) else {
            continue;
        };
        let answer = answer(session, &mut engine, &command, &args);
        let (ok, text) = match answer {
            Answer::Ok(text) => (true, text),
            Answer::Fail(text) => (false, text.to_string()),
            Answer::Then(text, next) => {
                reply(out, true, id, &text)?;
                return Ok(next);
            }
        };
        reply(out, ok, id, &text)?;
    }
    Ok(Next::Quit)
}

/// A reply, or a reply and the end of this board size's session.
enum Answer {
    Ok(String),
    Fail(&'static str),
    Then(String, Next),
}

fn ok(text: impl Into<String>) -> Answer {
    Answer::Ok(text.into())
}

/// Whether the strategy plays on boards of `size`.
fn builds_on(spec: &StrategySpec, size: u32) -> bool {
    with_geometry!(size, H => spec.build::<H>(RULES).is_ok())
}

fn answer<G: Geometry>(
    session: &mut Session<'_>,
    engine: &mut Engine<G>,
    command: &str,
    args: &[&str],
) -> Answer {
    let arg = |i: usize| args.get(i).copied().unwrap_or("");
    match command {
        "protocol_version" => ok("2"),
        "name" => ok(NAME),
        "version" => ok(env!("CARGO_PKG_VERSION")),
        "known_command" => ok(if COMMANDS.contains(&arg(0)) {
            "true"
        } else {
            "false"
        }),
        "list_commands" => ok(COMMANDS.join("\n")),
        "quit" => Answer::Then(String::new(), Next::Quit),
        "boardsize" => match arg(0).parse::<u32>() {
            Ok(size) if is_size(size) && builds_on(session.spec, size) => {
                if size == G::SIZE {
                    engine.new_game(Position::start(), session.games.new_game());
                    ok("")
                } else {
                    Answer::Then(String::new(), Next::Size(size))
                }
            }
            Ok(_) => Answer::Fail("unacceptable size"),
            Err(_) => Answer::Fail("boardsize not an integer"),
        },
        "clear_board" => {
            engine.new_game(Position::start(), session.games.new_game());
            // A new game starts with the settings' whole time, until told otherwise.
            session.clock.left = [None; 2];
            ok("")
        }
        "komi" => ok(""),
        "play" => {
            let (Some(side), Some(square)) = (colour(arg(0)), move_word(arg(1), G::SIZE)) else {
                return Answer::Fail("syntax error");
            };
            if square.is_none() && engine.line.is_over() {
                // A pass after the end (a controller closing the game): nothing to play.
                return ok("");
            }
            let mut line = engine.line.clone();
            if side != line.side() {
                line.pass_if_forced();
            }
            if side != line.side() || line.play_turn(square).is_err() {
                return Answer::Fail("illegal move");
            }
            engine.line = line;
            session.games.begin();
            ok("")
        }
        // reversi-lab's own client hands over the game's generator (four words after
        // the colour) and takes it back after the move: a served strategy then draws
        // exactly as it would built in, which the closed-loop test checks.
        "reversi_lab-genmove" => {
            let words: Vec<u64> = args[1.min(args.len())..]
                .iter()
                .filter_map(|w| w.parse().ok())
                .collect();
            let Ok(state) = <[u64; 4]>::try_from(words) else {
                return Answer::Fail("syntax error");
            };
            engine.set_rng(crate::strategy::rng_from_state(state));
            match answer(session, engine, "genmove", &args[..1.min(args.len())]) {
                Answer::Ok(square) => {
                    let [a, b, c, d] = crate::strategy::rng_state(engine.rng());
                    ok(format!("{square} {a} {b} {c} {d}"))
                }
                other => other,
            }
        }
        "genmove" | "reg_genmove" => {
            let Some(side) = colour(arg(0)) else {
                return Answer::Fail("syntax error");
            };
            if engine.line.is_over() {
                return ok("pass");
            }
            let mut line = engine.line.clone();
            if side != line.side() {
                line.pass_if_forced();
            }
            if side != line.side() {
                return Answer::Fail("wrong color");
            }
            let kept = std::mem::replace(&mut engine.line, line);
            if command == "reg_genmove" {
                let square = engine.peek();
                engine.line = kept;
                return ok(name_of::<G>(square));
            }
            let empties = engine.line.position().board.empty_count();
            let square = engine
                .choose_within(budget(&session.clock, side, empties))
                .square;
            engine
                .line
                .play_turn(square)
                .expect("strategies choose legal moves");
            session.games.begin();
            ok(name_of::<G>(square))
        }
        "undo" => {
            if engine.line.take_back() {
                ok("")
            } else {
                Answer::Fail("cannot undo")
            }
        }
        "showboard" => ok(format!(
            "\n{}{}",
            Drawing::new(engine.line.position()),
            clock_text(&session.clock)
        )),
        "final_score" => match engine.line.outcome(RULES).map(|o| o.margin) {
            Some(0) => ok("0"),
            Some(margin) if margin > 0 => ok(format!("B+{margin}")),
            Some(margin) => ok(format!("W+{}", -margin)),
            None => Answer::Fail("cannot score"),
        },
        "time_settings" => {
            match (
                arg(0).parse::<f64>(),
                arg(1).parse::<f64>(),
                arg(2).parse::<u64>(),
            ) {
                (Ok(main), Ok(byo_yomi), Ok(stones))
                    if main.is_finite() && byo_yomi.is_finite() =>
                {
                    session.clock.settings = Some((main, byo_yomi, stones));
                    ok("")
                }
                _ => Answer::Fail("syntax error"),
            }
        }
        "time_left" => match (colour(arg(0)), arg(1).parse::<f64>(), arg(2).parse::<u64>()) {
            (Some(side), Ok(seconds), Ok(stones)) if seconds.is_finite() => {
                session.clock.left[usize::from(side == Color::White)] = Some((seconds, stones));
                ok("")
            }
            _ => Answer::Fail("syntax error"),
        },
        "set_game" => {
            if arg(0).eq_ignore_ascii_case("othello") {
                ok("")
            } else {
                Answer::Fail("unsupported game")
            }
        }
        "list_games" => ok("Othello"),
        _ => Answer::Fail("unknown command"),
    }
}

/// How long a move of `side` may think on the controller's clock, with `empties`
/// empty squares (None: no limit but the strategy's own). GTP's times are whole
/// seconds, rounded down by the controller, so `time_left c 0 0` may mean 0.9 s or
/// nothing: it is taken as nothing, the least possible think. Main time is spread over
/// about half the empties (this side's moves) and byo-yomi over its stones, and a
/// tenth of either is kept for the pipe and the rounding. Byo-yomi time with no stones
/// is GTP's "no limit".
fn budget(clock: &Clock, side: Color, empties: u32) -> Option<std::time::Duration> {
    let (main, byo_yomi, stones) = clock.settings.unwrap_or((0.0, 0.0, 0));
    if clock.settings.is_some() && main <= 0.0 && byo_yomi > 0.0 && stones == 0 {
        return None;
    }
    let per_period = |seconds: f64, stones: u64| seconds / stones.max(1) as f64;
    let seconds = match clock.left[usize::from(side == Color::White)] {
        // In byo-yomi: the period's time over the stones still to play in it.
        Some((left, left_stones)) if left_stones > 0 => per_period(left, left_stones),
        // Main time left: spread over the moves to come; none left falls to byo-yomi.
        Some((left, _)) if left > 0.0 => left / f64::from((empties / 2).clamp(1, 30)),
        Some(_) if byo_yomi > 0.0 => per_period(byo_yomi, stones),
        Some(_) => 0.0,
        None if clock.settings.is_none() => return None,
        None if main > 0.0 => main / f64::from((empties / 2).clamp(1, 30)),
        None if byo_yomi > 0.0 => per_period(byo_yomi, stones),
        // `time_settings 0 0 0`: no time at all.
        None => 0.0,
    };
    std::time::Duration::try_from_secs_f64(seconds.max(0.0) * 0.9).ok()
}

/// A move as GTP answers it: the square in lower case, or `pass`.
fn name_of<G: Geometry>(square: Option<crate::board::Square>) -> String {
    square.map_or_else(|| "pass".to_string(), |s| s.name(G::SIZE))
}

/// The clock lines under `showboard`, once the controller has stated one.
fn clock_text(clock: &Clock) -> String {
    let mut text = String::new();
    if let Some((main, byo_yomi, stones)) = clock.settings {
        text.push_str(&format!(
            "\ntime settings: {main} s main, {byo_yomi} s for {stones} stones"
        ));
    }
    for (side, left) in ["black", "white"].iter().zip(clock.left) {
        if let Some((seconds, stones)) = left {
            text.push_str(&format!("\n{side} time left: {seconds} s, {stones} stones"));
        }
    }
    text
}

#[cfg(test)]
mod tests;
