//! The GTP client: commands with ids, replies `=`/`?` ended by a blank line (with or
//! without a space after the mark or the id), the game kept in step by `play`
//! commands, and passes sent where the engine takes them and left to its colour rule
//! where it refuses them (GRhino).

use super::process::{Failure, Launch, Process, MAX_LINE};
use super::Ply;
use crate::board::{Color, Square};
use crate::strategy::clock::{Limit, TimeControl};
use std::time::{Duration, Instant};

/// A reply: the text after `=`, or the engine's refusal after `?`.
pub type Reply = Result<String, String>;

/// A GTP engine and what it has been told of the current game.
pub struct Gtp {
    pub(super) process: Process,
    next_id: u64,
    /// What each command may take (the start-up deadline).
    command_time: Duration,
    /// Whether `play COLOUR pass` is accepted (None: not tried yet).
    takes_passes: Option<bool>,
    /// The plies the engine's board has had since its last `clear_board`.
    told: Vec<Ply>,
    /// Whether the next game must start with `clear_board`.
    fresh: bool,
    size: u32,
    /// The time control to tell it of before the next move, and the time left on its
    /// clock (see [`Gtp::clock`]).
    time: Option<(TimeControl, Option<Duration>)>,
    /// The control it was last told with `time_settings`.
    told_time: Option<TimeControl>,
    /// Whether it echoes the ids of commands in its replies (None: not seen yet). GTP
    /// says a reply carries an id only if its command did; an engine that drops them
    /// answers `= 1.0` to `7 version`, whose `1` is no id.
    echoes: Option<bool>,
    /// `name` and `version` as it answered them.
    pub identity: String,
    /// Commands it lists.
    pub commands: Vec<String>,
}

/// The GTP name of a colour.
fn colour(color: Color) -> &'static str {
    color.name()
}

/// A move as an engine writes it, in any case; None for a pass, Err for anything else.
pub fn parse_move(text: &str, size: u32) -> Result<Option<Square>, String> {
    let word = text.trim().to_ascii_lowercase();
    match word.as_str() {
        "pass" | "pa" | "ps" | "@@@@" | "--" => Ok(None),
        _ => Square::parse(&word, size)
            .map(Some)
            .ok_or_else(|| format!("'{}' is not a move", text.trim())),
    }
}

impl Gtp {
    /// Starts the engine and asks its name, version and commands, then sets the board
    /// size; `init` lines are sent after. An engine that refuses the size, or does not
    /// answer, is an error quoting its answer.
    pub fn start(
        launch: &Launch,
        init: &[String],
        size: u32,
        start_timeout: Duration,
    ) -> Result<Self, String> {
        let process =
            Process::start(launch).map_err(|e| e.worded(super::started::Started::Engine))?;
        let mut gtp = Gtp {
            process,
            next_id: 1,
            command_time: start_timeout,
            takes_passes: None,
            told: Vec::new(),
            fresh: true,
            size,
            time: None,
            told_time: None,
            echoes: None,
            identity: String::new(),
            commands: Vec::new(),
        };
        let program = gtp.process.program.clone();
        let ask = |gtp: &mut Gtp, command: &str| -> Result<Reply, String> {
            gtp.command(command).map_err(|f| {
                format!(
                    "engine '{program}' failed at start-up ({command}): {}{}",
                    describe(&f),
                    gtp.process.last_words()
                )
            })
        };
        let name = ask(&mut gtp, "name")?.unwrap_or_default();
        let version = ask(&mut gtp, "version")?.unwrap_or_default();
        gtp.identity = format!("{name} {version}").trim().to_string();
        if let Ok(list) = ask(&mut gtp, "list_commands")? {
            gtp.commands = list.lines().map(|l| l.trim().to_string()).collect();
        }
        match ask(&mut gtp, &format!("boardsize {size}"))? {
            Ok(_) => {}
            Err(answer) => {
                return Err(format!(
                    "engine '{program}' cannot play {size}x{size}: it answered 'boardsize {size}' with '? {answer}'"
                ))
            }
        }
        for line in init {
            if let Err(answer) = ask(&mut gtp, line)? {
                return Err(format!(
                    "engine '{program}' refused the init line '{line}': '? {answer}'"
                ));
            }
        }
        Ok(gtp)
    }

    /// Sends `text` with an id and reads its reply, discarding replies to earlier
    /// commands (a late answer must not be taken for this one).
    pub fn command(&mut self, text: &str) -> Result<Reply, Failure> {
        let deadline = Instant::now() + self.command_time;
        self.command_by(text, deadline)
    }

    fn command_by(&mut self, text: &str, deadline: Instant) -> Result<Reply, Failure> {
        let id = self.next_id;
        self.next_id += 1;
        self.process.send(&format!("{id} {text}"))?;
        loop {
            let (reply_id, reply) = self.reply(deadline)?;
            if reply_id.is_none_or(|r| r == id) {
                return Ok(reply);
            }
        }
    }

    /// One reply: its id if it has one, and its text (lines joined by newlines).
    fn reply(&mut self, deadline: Instant) -> Result<(Option<u64>, Reply), Failure> {
        let first = loop {
            let line = self.process.line(deadline)?;
            let line = line.trim();
            if line.starts_with('=') || line.starts_with('?') {
                break line.to_string();
            }
            // Blank lines between replies, and anything an engine prints that is no
            // reply, are passed over.
        };
        let (id, mut text) = reply_head(&first, self.echoes, self.next_id);
        // The first reply is to the first command (`1 name`): whether it carries
        // that id tells whether the engine echoes ids at all.
        if self.echoes.is_none() {
            self.echoes = Some(id == Some(1));
        }
        loop {
            let line = self.process.line(deadline)?;
            if line.trim().is_empty() {
                break;
            }
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(line.trim());
            if text.len() > MAX_LINE {
                return Err(Failure::Garbage(format!(
                    "it wrote a reply longer than {MAX_LINE} bytes"
                )));
            }
        }
        let ok = first.starts_with('=');
        Ok((id, if ok { Ok(text) } else { Err(text) }))
    }

    /// The next game starts afresh (`clear_board` before its first move).
    pub fn new_game(&mut self) {
        self.fresh = true;
    }

    /// The time control of the next move and the time left on the side's clock (None:
    /// untimed): told with `time_settings` when it changes or a game starts, and under a
    /// clock with `time_left` before each move, where the engine lists the commands.
    pub fn clock(&mut self, time: Option<(TimeControl, Option<Duration>)>) {
        self.time = time;
    }

    /// The time lines to send before a move: `time_settings` (each game, and when the
    /// control changes) and `time_left`, those the engine lists.
    fn time_lines(&mut self, color: Color, new_game: bool) -> Vec<String> {
        let mut lines = Vec::new();
        let Some((control, left)) = self.time else {
            return lines;
        };
        if (new_game || self.told_time != Some(control)) && self.knows("time_settings") {
            // GTP's times are whole seconds, and it has no increment: a clock is told
            // as its main time (time_left then gives what is really left, increments
            // included), a time a move as byo-yomi of one stone, at least a second
            // (0 would read as no limit); the real budget is held to either way.
            lines.push(match control.limit {
                Limit::PerMove(d) => format!("time_settings 0 {} 1", d.as_secs().max(1)),
                Limit::Clock { base, .. } => format!("time_settings {} 0 0", base.as_secs()),
            });
            self.told_time = Some(control);
        }
        if let Some(left) = left.filter(|_| self.knows("time_left")) {
            lines.push(format!("time_left {} {} 0", colour(color), left.as_secs()));
        }
        lines
    }

    /// Brings the engine's board to `plies` (from the standard start) and asks for the
    /// move of the side to move (`color`), in one exchange: the moves it has not been
    /// told (or, for a new game, `boardsize`, `clear_board` and the whole game), then
    /// the `genmove`, all written at once and their replies read in order, so that a
    /// move costs one round trip however many plies came before it. With `rng`, where
    /// the engine is reversi-lab's own server (it lists `reversi_lab-genmove`), the
    /// game's generator goes with the request and comes back with the move.
    ///
    /// Ok(Ok(text)) is the engine's move as it wrote it; Ok(Err(why)) an answer that
    /// is the engine's fault (a refused legal move, a refused `genmove`).
    pub fn move_after(
        &mut self,
        plies: &[Ply],
        color: Color,
        rng: &mut crate::strategy::GameRng,
        deadline: Instant,
    ) -> Result<Result<String, String>, Failure> {
        #[derive(PartialEq)]
        enum Purpose {
            Setup,
            Play,
            Pass,
            Told,
            Move,
        }
        let mut batch: Vec<(String, Purpose)> = Vec::new();
        let new_game = self.fresh || !plies.starts_with(&self.told);
        if new_game {
            batch.push((format!("boardsize {}", self.size), Purpose::Setup));
            batch.push(("clear_board".into(), Purpose::Setup));
            self.told.clear();
            self.fresh = false;
        }
        for &ply in &plies[self.told.len()..] {
            match ply.square {
                Some(square) => batch.push((
                    format!("play {} {}", colour(ply.color), square.name(self.size)),
                    Purpose::Play,
                )),
                // A pass: said where the engine takes it; else the colour of the next
                // command tells it (GRhino answers every pass word with an error).
                None if self.takes_passes != Some(false) => {
                    batch.push((format!("play {} pass", colour(ply.color)), Purpose::Pass));
                }
                None => {}
            }
            self.told.push(ply);
        }
        // Its refusal of a time line is no fault: the time is held to either way.
        for line in self.time_lines(color, new_game) {
            batch.push((line, Purpose::Told));
        }
        let handover = self.knows("reversi_lab-genmove");
        batch.push((
            if handover {
                let [a, b, c, d] = crate::strategy::rng_state(rng);
                format!("reversi_lab-genmove {} {a} {b} {c} {d}", colour(color))
            } else {
                format!("genmove {}", colour(color))
            },
            Purpose::Move,
        ));
        let first = self.next_id;
        self.next_id += batch.len() as u64;
        let lines: Vec<String> = batch
            .iter()
            .zip(first..)
            .map(|((command, _), id)| format!("{id} {command}"))
            .collect();
        self.process.send_lines(&lines)?;
        // Untimed, the plays before the move get a command's deadline at least, and the
        // move its own stall deadline from when the engine has taken them (so a
        // stall_timeout shorter than start_timeout holds); on a clock the time
        // control's deadline is the whole of it.
        let timed = self.time.is_some();
        let sent = Instant::now();
        let stall = deadline.saturating_duration_since(sent);
        let setup_by = if timed {
            deadline
        } else {
            deadline.max(sent + self.command_time)
        };
        let mut fault = None;
        let mut answer = String::new();
        for ((command, purpose), id) in batch.iter().zip(first..) {
            let asked = Instant::now();
            let by = match purpose {
                Purpose::Move if !timed => asked + stall,
                _ => setup_by,
            };
            let stalled = |failure| match failure {
                Failure::Stalled(_) if timed => {
                    Failure::Stalled(format!("no answer to '{command}' before its time ran out"))
                }
                Failure::Stalled(_) => Failure::Stalled(format!(
                    "no answer to '{command}' within {:.1} s",
                    by.saturating_duration_since(asked).as_secs_f64()
                )),
                other => other,
            };
            let reply = loop {
                let (reply_id, reply) = self.reply(by).map_err(stalled)?;
                // Replies to earlier commands (late answers) are dropped by their id.
                if reply_id.is_none_or(|r| r >= id) {
                    break reply;
                }
            };
            match (purpose, reply) {
                (Purpose::Pass, reply) => self.takes_passes = Some(reply.is_ok()),
                (Purpose::Told, _) => {}
                (Purpose::Move, Ok(text)) => answer = text,
                (_, Ok(_)) => {}
                (Purpose::Move, Err(text)) => {
                    fault.get_or_insert(format!("it answered '{command}' with '? {text}'"));
                }
                (Purpose::Setup, Err(text)) => {
                    fault.get_or_insert(format!("'{command}' was answered '? {text}'"));
                }
                (Purpose::Play, Err(text)) => {
                    fault.get_or_insert(format!(
                        "it refused the legal move '{command}': '? {text}'"
                    ));
                }
            }
        }
        if let Some(why) = fault {
            return Ok(Err(why));
        }
        let mut words = answer.split_whitespace();
        let square = words.next().unwrap_or_default().to_string();
        if handover {
            let state: Vec<u64> = words.filter_map(|w| w.parse().ok()).collect();
            if let Ok(state) = <[u64; 4]>::try_from(state) {
                *rng = crate::strategy::rng_from_state(state);
            }
        }
        Ok(Ok(square))
    }

    /// Records a move the engine chose (after `genmove`).
    pub fn played(&mut self, ply: Ply) {
        self.told.push(ply);
    }

    /// Whether it lists `command`.
    #[must_use]
    pub fn knows(&self, command: &str) -> bool {
        self.commands.iter().any(|c| c == command)
    }
}

/// The first line of a reply (`=` or `?` first) read as its id and the start of its
/// text. An id is digits right after the mark (`=12 f5`) or after one space (Edax:
/// `= 12 f5`), as a whole word, and only one the client can have sent (below
/// `next_id`); none at all once the engine is known not to echo ids (`echoes`), so
/// that `= 1.0` is the text `1.0`, never id 1 and `.0`.
fn reply_head(first: &str, echoes: Option<bool>, next_id: u64) -> (Option<u64>, String) {
    let rest = first.get(1..).unwrap_or("");
    let trimmed = rest.trim_start();
    fn whole(s: &str, next_id: u64) -> Option<(u64, &str)> {
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        let after = &s[digits..];
        let ends = after.is_empty() || after.starts_with(char::is_whitespace);
        let id = s[..digits].parse::<u64>().ok().filter(|id| *id < next_id)?;
        ends.then_some((id, after))
    }
    match whole(trimmed, next_id).filter(|_| echoes != Some(false)) {
        Some((id, after)) => (Some(id), after.trim().to_string()),
        None => (None, trimmed.trim().to_string()),
    }
}

/// A failure in the project's words.
#[must_use]
pub fn describe(failure: &Failure) -> String {
    match failure {
        Failure::Crashed(why) | Failure::Stalled(why) | Failure::Garbage(why) => why.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_has_an_id_only_where_the_command_had_one() {
        let head = |line: &str, echoes| reply_head(line, echoes, 8);
        // Echoed, with or without a space after the mark.
        assert_eq!(head("=7 f5", Some(true)), (Some(7), "f5".into()));
        assert_eq!(head("= 7 f5", None), (Some(7), "f5".into()));
        assert_eq!(head("=7", Some(true)), (Some(7), String::new()));
        assert_eq!(
            head("?3 illegal move", Some(true)),
            (Some(3), "illegal move".into())
        );
        // Digits that are no whole word, or an id never sent, are text.
        assert_eq!(head("= 1.0", None), (None, "1.0".into()));
        assert_eq!(head("=1.0", Some(true)), (None, "1.0".into()));
        assert_eq!(head("= 12 f5", Some(true)), (None, "12 f5".into()));
        // An engine that drops ids: a reply starting with a number is all text.
        assert_eq!(head("= 1", Some(false)), (None, "1".into()));
        assert_eq!(head("= 0.16.1", Some(false)), (None, "0.16.1".into()));
        assert_eq!(head("=", Some(false)), (None, String::new()));
    }

    #[test]
    fn moves_in_any_case_and_every_pass_word() {
        assert_eq!(parse_move("E6", 8), Ok(Square::parse("e6", 8)));
        assert_eq!(parse_move(" f5 ", 8), Ok(Square::parse("f5", 8)));
        for pass in ["pass", "PASS", "pa", "PS", "@@@@"] {
            assert_eq!(parse_move(pass, 8), Ok(None), "{pass}");
        }
        assert!(parse_move("resign", 8).is_err());
        assert!(parse_move("i9", 8).is_err());
    }
}
