//! The NBoard client: an engine that speaks NBoard (version 2, as the NBoard GUI, NTest
//! and Edax `-nboard` do) kept in step with the game by `move` lines or a whole `set
//! game` record, asked for its move by `go`, and resynchronised by `ping`/`pong`.
//!
//! NBoard answers almost nothing: `set game` and `move` get no reply, so a start-up
//! or a lost message would go unnoticed. Every exchange therefore ends with `ping K`
//! and waits for `pong K`, which also discards anything an earlier command left
//! behind (a late `===`, `status` or `nodestats` line). NBoard is played on 8x8 only.

use super::process::{Failure, Launch, Process};
use super::Ply;
use crate::board::Color;
use std::time::{Duration, Instant};

/// The standard start as GGF's `BO` writes it: the size, the 64 squares from a1 row by
/// row (`*` black, `O` white, `-` empty), the side to move.
const START: &str = "8 ---------------------------O*------*O--------------------------- *";

/// How many lines of what an engine printed a start-up failure quotes.
const QUOTED: usize = 3;

/// What `go` was answered with: `=== MOVE[/EVAL[/TIME]]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// The move as the engine wrote it (`F5`, `f5`, `PA`, `pass`).
    pub text: String,
    /// Its eval in discs, when given.
    pub eval: Option<f64>,
    /// The time it took in seconds, when given.
    pub seconds: Option<f64>,
    /// The nodes of the last `nodestats` line before it, when the engine sent one.
    pub nodes: Option<u64>,
}

/// An NBoard engine and what it has been told of the current game.
pub struct Nboard {
    pub(super) process: Process,
    /// The number of the next `ping`.
    next_ping: u64,
    /// What a command other than a move may take (the start-up deadline).
    command_time: Duration,
    /// Whether the move is timed: then its deadline is the time control's, the
    /// command deadline does not extend it.
    pub timed: bool,
    /// The plies of the engine's game: what `set game` and `move` have told it. `go`
    /// does not play the move it answers, so its own moves are told back to it.
    told: Vec<Ply>,
    /// The move it answered to the last `go`, not yet told back.
    chosen: Option<Ply>,
    /// Whether the next move must start the engine's game afresh (`set game`).
    fresh: bool,
    /// The board its game started from (GGF's `BO`; None: the standard start).
    start: Option<String>,
    /// The name it gave in `set myname NAME` (empty if it gave none).
    pub identity: String,
}

/// `pong N`'s number.
fn pong(line: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some("pong"), Some(n), None) => n.parse().ok(),
        _ => None,
    }
}

/// `nodestats NODES SECONDS`'s node count (some engines write it as a float).
#[must_use]
pub fn parse_nodestats(line: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    if words.next() != Some("nodestats") {
        return None;
    }
    let nodes = words.next()?;
    nodes.parse::<u64>().ok().or_else(|| {
        nodes
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n >= 0.0)
            .map(|n| n as u64)
    })
}

/// `=== MOVE[/EVAL[/TIME]]`, the fields split by slashes (NTest, the protocol's own
/// form) or spaces (Edax: `=== f6 0.00 0.0`); None for any other line. With slashes a
/// field may be empty (`=== d3//0.0`: no eval), so they are split positionally.
#[must_use]
pub fn parse_answer(line: &str) -> Option<Answer> {
    let rest = line.trim().strip_prefix("===")?.trim();
    let fields: Vec<&str> = if rest.contains('/') {
        rest.split('/').map(str::trim).collect()
    } else {
        rest.split_whitespace().collect()
    };
    let number = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    Some(Answer {
        text: fields.first().copied().unwrap_or_default().to_string(),
        eval: number(1),
        seconds: number(2),
        nodes: None,
    })
}

/// A ply as NBoard writes it: the square in upper case, `PA` for a pass.
fn ply_text(ply: &Ply) -> String {
    ply.square
        .map_or_else(|| "PA".to_string(), |s| s.name(8).to_ascii_uppercase())
}

/// A name GGF can hold: brackets end or start properties.
fn ggf_name(name: &str) -> String {
    name.replace(['[', ']'], "")
}

/// An OBF position (`X`, `O`, `-` by square, then the side to move) as GGF's board
/// (`BO[8 ... *]`: `*` black, `O` white).
#[must_use]
pub fn ggf_board(obf: &str) -> String {
    let (squares, side) = obf.trim().split_once(' ').unwrap_or((obf, "X"));
    let squares: String = squares
        .chars()
        .map(|c| match c {
            'X' | 'x' | '*' => '*',
            'O' | 'o' => 'O',
            _ => '-',
        })
        .collect();
    let side = if side.trim().eq_ignore_ascii_case("o") {
        'O'
    } else {
        '*'
    };
    format!("8 {squares} {side}")
}

/// The game as one GGF record from its start (the standard one unless given), every ply (passes explicit),
/// no result: what `set game` sends when `move` lines cannot bring the engine there.
#[must_use]
pub fn ggf(plies: &[Ply], black: &str, white: &str, start: Option<&str>) -> String {
    let mut out = format!(
        "(;GM[Othello]PC[reversi-lab]PB[{}]PW[{}]TY[8]BO[{}]",
        ggf_name(black),
        ggf_name(white),
        start.unwrap_or(START)
    );
    for ply in plies {
        out.push_str(match ply.color {
            Color::Black => "B[",
            Color::White => "W[",
        });
        out.push_str(&ply_text(ply));
        out.push(']');
    }
    out.push_str(";)");
    out
}

impl Nboard {
    /// Starts the engine, says `nboard 2` and the `init` lines, and waits for the
    /// `pong` of a `ping`: NBoard answers nothing else at start-up, so the pong is
    /// what shows the engine is there. `set myname NAME` on the way is its identity.
    /// A size other than 8, an engine that dies or never pongs, is an error in one
    /// line (quoting what it printed).
    pub fn start(
        launch: &Launch,
        init: &[String],
        size: u32,
        start_timeout: Duration,
    ) -> Result<Self, String> {
        let program = launch.command.first().cloned().unwrap_or_default();
        if size != 8 {
            return Err(format!(
                "engine '{program}' speaks NBoard, which is played on 8x8 only: it cannot play {size}x{size} games"
            ));
        }
        let mut nboard = Nboard {
            process: Process::start(launch)
                .map_err(|e| e.worded(super::started::Started::Engine))?,
            next_ping: 1,
            command_time: start_timeout,
            timed: false,
            told: Vec::new(),
            chosen: None,
            fresh: true,
            start: None,
            identity: String::new(),
        };
        let id = nboard.ping_id();
        // Edax answers `nboard 2` with an error (it expects 1) on its standard error
        // and carries on; an engine that refuses the version outright never pongs.
        let mut lines = vec!["nboard 2".to_string()];
        lines.extend(init.iter().cloned());
        lines.push(format!("ping {id}"));
        let deadline = Instant::now() + start_timeout;
        let mut printed: Vec<String> = Vec::new();
        let outcome = nboard.process.send_lines(&lines).and_then(|()| loop {
            let line = nboard.process.line(deadline)?;
            let line = line.trim();
            if pong(line) == Some(id) {
                break Ok(());
            }
            if let Some(name) = line.strip_prefix("set myname") {
                nboard.identity = name.trim().to_string();
            }
            if !line.is_empty() && printed.len() < QUOTED {
                printed.push(line.to_string());
            }
        });
        match outcome {
            Ok(()) => Ok(nboard),
            Err(failure) => {
                let quoted = if printed.is_empty() {
                    "it printed nothing".to_string()
                } else {
                    format!("it printed '{}'", printed.join(" | "))
                };
                let why = match failure {
                    Failure::Stalled(_) => format!(
                        "no 'pong {id}' to 'ping {id}' within {:.1} s",
                        start_timeout.as_secs_f64()
                    ),
                    Failure::Crashed(why) | Failure::Garbage(why) => {
                        format!("{why} before 'pong {id}'")
                    }
                };
                Err(format!(
                    "engine '{program}' failed at start-up: {why}; {quoted}{}",
                    nboard.process.last_words()
                ))
            }
        }
    }

    fn ping_id(&mut self) -> u64 {
        let id = self.next_ping;
        self.next_ping += 1;
        id
    }

    /// The next game starts afresh (a whole `set game` before its first move).
    pub fn new_game(&mut self) {
        self.fresh = true;
    }

    /// Brings the engine's game to `plies` (from the standard start) and asks its move
    /// for `color`, the side to move, in one write: `move` lines when its game only
    /// grew by the plies since (the move it chose, the other side's), else one `set
    /// game`; then `ping K` and `go`. Lines before `pong K` are stale and dropped;
    /// after it, `nodestats` lines are counted and anything else (`status`, `set
    /// myname`, what the engine prints) is passed over until `===`, read by `deadline`.
    ///
    /// Ok(Err(why)) is an answer that is the engine's fault (`===` with no move).
    pub fn move_after(
        &mut self,
        start: Option<String>,
        plies: &[Ply],
        color: Color,
        deadline: Instant,
    ) -> Result<Result<Answer, String>, Failure> {
        let next = plies.get(self.told.len());
        if start != self.start {
            self.start = start;
            self.fresh = true;
        }
        let grows = !self.fresh
            && plies.starts_with(&self.told)
            && self.chosen.is_none_or(|chosen| next == Some(&chosen));
        let mut lines: Vec<String> = if grows {
            plies[self.told.len()..]
                .iter()
                .map(|ply| format!("move {}", ply_text(ply)))
                .collect()
        } else {
            // GGF names both players: the engine by the name it gave, its side by colour.
            let me = if self.identity.is_empty() {
                "engine"
            } else {
                self.identity.as_str()
            };
            let (black, white) = match color {
                Color::Black => (me, "opponent"),
                Color::White => ("opponent", me),
            };
            vec![format!(
                "set game {}",
                ggf(plies, black, white, self.start.as_deref())
            )]
        };
        self.told = plies.to_vec();
        self.chosen = None;
        self.fresh = false;
        let id = self.ping_id();
        lines.push(format!("ping {id}"));
        lines.push("go".to_string());
        if let Err(failure) = self.process.send_lines(&lines) {
            // What it was told is unknown now: the next move starts afresh.
            self.fresh = true;
            return Err(failure);
        }
        // The pong is a command's answer, not the move: it has the command deadline
        // (or the move's, if that is later).
        let sent = Instant::now();
        let pong_by = if self.timed {
            deadline
        } else {
            deadline.max(sent + self.command_time)
        };
        loop {
            let line = self
                .process
                .line(pong_by)
                .map_err(|failure| match failure {
                    Failure::Stalled(_) => Failure::Stalled(format!(
                        "no 'pong {id}' to 'ping {id}' within {:.1} s",
                        pong_by.saturating_duration_since(sent).as_secs_f64()
                    )),
                    crashed => crashed,
                })?;
            if pong(&line) == Some(id) {
                break;
            }
        }
        let mut nodes = None;
        loop {
            let line = self.process.line(deadline)?;
            if let Some(count) = parse_nodestats(&line) {
                nodes = Some(count);
            } else if let Some(mut answer) = parse_answer(&line) {
                if answer.text.is_empty() {
                    return Ok(Err(format!(
                        "it answered 'go' with '{}', which names no move",
                        line.trim()
                    )));
                }
                answer.nodes = nodes;
                return Ok(Ok(answer));
            }
            // `status ...`, `set myname ...` and anything unknown: passed over.
        }
    }

    /// Records the move the engine chose (its answer to `go`): `go` leaves the
    /// engine's board as it was, so the move is told back with the next request.
    pub fn played(&mut self, ply: Ply) {
        self.chosen = Some(ply);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Bits, Position, Size8, Square};

    fn answer(text: &str, eval: Option<f64>, seconds: Option<f64>) -> Option<Answer> {
        Some(Answer {
            text: text.into(),
            eval,
            seconds,
            nodes: None,
        })
    }

    #[test]
    fn answers_with_slashes_or_spaces_in_any_case() {
        let parse = parse_answer;
        assert_eq!(
            parse("=== F5/-2.00/0.1"),
            answer("F5", Some(-2.0), Some(0.1))
        );
        assert_eq!(parse("=== f6 0.00 0.0"), answer("f6", Some(0.0), Some(0.0)));
        assert_eq!(parse("===  d3//1.5 "), answer("d3", None, Some(1.5)));
        assert_eq!(parse("=== c4/3.25"), answer("c4", Some(3.25), None));
        assert_eq!(parse("=== e6 1.5"), answer("e6", Some(1.5), None));
        assert_eq!(parse("===E6"), answer("E6", None, None));
        assert_eq!(parse("=== PA"), answer("PA", None, None));
        assert_eq!(
            parse("=== pass/0.00/0.0"),
            answer("pass", Some(0.0), Some(0.0))
        );
        assert_eq!(parse("==="), answer("", None, None));
        for other in ["status thinking", "pong 3", "nodestats 10 0.1", "== f5", ""] {
            assert_eq!(parse(other), None, "{other}");
        }
        // The move word is read as GTP's: any case, every pass word.
        let move_of = |line: &str| super::super::gtp::parse_move(&parse(line).unwrap().text, 8);
        assert_eq!(move_of("=== F5/0/0"), Ok(Square::parse("f5", 8)));
        assert_eq!(move_of("=== pa"), Ok(None));
        assert!(move_of("=== hello world").is_err());
    }

    #[test]
    fn nodestats_and_pongs() {
        assert_eq!(parse_nodestats("nodestats 267 0.00"), Some(267));
        assert_eq!(parse_nodestats("nodestats 1.5e6 2.10"), Some(1_500_000));
        assert_eq!(parse_nodestats("nodestats"), None);
        assert_eq!(parse_nodestats("nodestats -3 0.1"), None);
        assert_eq!(parse_nodestats("status nodestats 3"), None);
        assert_eq!(pong("pong 12"), Some(12));
        assert_eq!(pong(" pong 12 "), Some(12));
        assert_eq!(pong("pong"), None);
        assert_eq!(pong("ping 12"), None);
    }

    #[test]
    fn the_start_is_the_boards() {
        let board = crate::lab::export::ggf::board(&Position::<Size8>::start());
        let mut words = board.split_whitespace();
        let size = words.next().unwrap();
        let mut squares: Vec<&str> = words.collect();
        let side = squares.pop().unwrap();
        assert_eq!(START, format!("{size} {} {side}", squares.concat()));
        assert_eq!(ggf_board(&Position::<Size8>::start().to_obf()), START);
        let after = Position::<Size8>::start().play(Square::parse("f5", 8).unwrap());
        let board = ggf_board(&after.to_obf());
        assert!(
            board.ends_with(" O") && board.matches('*').count() == 4,
            "{board}"
        );
    }

    #[test]
    fn a_game_with_a_pass_is_one_record() {
        let square = |name: &str| Square::parse(name, 8);
        let plies = [
            Ply {
                color: Color::Black,
                square: square("f5"),
            },
            Ply {
                color: Color::White,
                square: None,
            },
            Ply {
                color: Color::Black,
                square: square("d3"),
            },
        ];
        assert_eq!(
            ggf(&plies, "Edax4", "reversi-lab", None),
            format!("(;GM[Othello]PC[reversi-lab]PB[Edax4]PW[reversi-lab]TY[8]BO[{START}]B[F5]W[PA]B[D3];)")
        );
        assert_eq!(
            ggf(&[], "a[b]", "c", None),
            format!("(;GM[Othello]PC[reversi-lab]PB[ab]PW[c]TY[8]BO[{START}];)")
        );
        // reversi-lab's own reader takes it, the pass included.
        let text = ggf(&plies, "x", "y", None);
        let games = crate::lab::export::ggf::read_games(&text).unwrap();
        assert_eq!(
            games[0].turns,
            vec![
                (Color::Black, Some("f5".to_string())),
                (Color::White, None),
                (Color::Black, Some("d3".to_string())),
            ]
        );
    }

    #[test]
    fn the_server_takes_a_game_with_a_pass() {
        // A greedy game one move from its end, after a pass by Black.
        let transcript = concat!(
            "e6f6c4c5c6b5g7d3a5h8e2d6d7b6e7c3b4e3d2a4a6e8f4e1a3b3b2a1f7",
            "b7c7d8b1c8f5g4h4a7b8a2f8c2c1d1f1f3f2g1h6g5h5h7g8a8g3h3g2h2"
        );
        let game = crate::game::Game::<Size8>::from_transcript(transcript).unwrap();
        let plies = super::super::plies::<Size8>(game.moves());
        assert!(plies.iter().any(|p| p.square.is_none()), "{plies:?}");
        let input = format!(
            "nboard 2\nset game {}\nping 1\ngo\n",
            ggf(&plies, "a", "b", None)
        );
        let mut output = Vec::new();
        let greedy = crate::strategy::StrategySpec::parse("greedy").unwrap();
        crate::serve::nboard::serve(&greedy, 1, input.as_bytes(), &mut output).unwrap();
        let output = String::from_utf8(output).unwrap();
        assert!(!output.contains("status"), "{output}");
        let answer = output.lines().find_map(parse_answer).expect("an answer");
        let square = Square::parse(&answer.text, 8).expect("a square");
        assert!(game.legal_moves().has(square.index()), "{output}");
    }
}
