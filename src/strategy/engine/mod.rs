//! External engines as players: a program that speaks GTP or NBoard, started once per
//! worker and reused from game to game, kept in step with the game by its protocol,
//! with a deadline on every answer. A fault (it dies, stalls, or answers an illegal
//! move) loses the game for its side (see `Game::forfeit`) rather than stopping the
//! run.

pub mod groups;
pub mod gtp;
pub mod nboard;
pub mod process;
pub mod started;
pub mod stderr;

use crate::board::{Bits, Board, Color, Geometry, Position, Square};
use crate::game::{Rules, Termination};
use crate::strategy::clock::TimeControl;
use crate::strategy::kind::Kind;
use crate::strategy::param_info::{params, ParamInfo};
use crate::strategy::{Context, Fault, Pick, Picked, PlayerState, SpecError, Strategy};
use gtp::Gtp;
use nboard::Nboard;
use process::{Failure, Launch};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// The Go Text Protocol, as Othello engines use it (Edax `-gtp`, GRhino's `gtp-rhino`).
    #[default]
    Gtp,
    /// NBoard's protocol (Edax `-nboard`, NTest).
    Nboard,
}

impl Protocol {
    /// The names `protocol` takes, as serde reads them (`rename_all = "lowercase"`).
    pub const NAMES: &'static [&'static str] = &["gtp", "nboard"];
}

// Read apart by `from_table`, which words a name it does not know.
impl crate::strategy::param_info::Shaped for Protocol {
    const SHAPE: crate::strategy::param_info::Shape = crate::strategy::param_info::OWN_WORDS;
}

// A list of words or one string.
impl crate::strategy::param_info::Shaped for EngineCommand {
    const SHAPE: crate::strategy::param_info::Shape = crate::strategy::param_info::Shape {
        wanted: Some("the program and its arguments as a list, such as [\"gtp-rhino\", \"-l\", \"3\"], or as one string"),
        accepts: |value| {
            value.is_str()
                || value
                    .as_array()
                    .is_some_and(|words| words.iter().all(toml::Value::is_str))
        },
        time: false,
    };
}

/// The default deadline for start-up and for each command but a move.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);
/// The default deadline for a move when no time control sets one.
pub const STALL_TIMEOUT: Duration = Duration::from_secs(30);

/// An external engine as a strategy: `gtp:COMMAND` on one line, or a table with
/// `kind = "engine"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EngineSpec {
    /// The protocol.
    pub protocol: Protocol,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Its working folder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dir: Option<PathBuf>,
    /// Variables added to its environment.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// Lines sent once after start-up (an engine option, `set depth 8`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub init: Vec<String>,
    /// A name for reports (default: the program's file name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The deadline for start-up and each command.
    #[serde(with = "humantime_serde_text")]
    pub start_timeout: Duration,
    /// The deadline for a move.
    #[serde(with = "humantime_serde_text")]
    pub stall_timeout: Duration,
}

/// Durations written as people write them (`10s`, `250ms`).
mod humantime_serde_text {
    use serde::Serializer;
    use std::time::Duration;

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&humantime::format_duration(*d).to_string())
    }
}

params! {
    /// The keys of `engine`'s table form, as the parser reads them (`EngineSpec` is
    /// built from them: the command split, the times read), and the listing's entries.
    pub struct EngineParams {
        protocol: Protocol = Protocol::Gtp => "gtp or nboard (NBoard: 8x8 only)" (default "gtp"),
        command: Option<EngineCommand> = None
            => "the program and its arguments: [\"gtp-rhino\", \"-l\", \"3\"], or one string" (default "(required)"),
        dir: Option<PathBuf> = None => "its working folder (in a config file, from its folder)" (default "-"),
        env: BTreeMap<String, String> = BTreeMap::new()
            => "variables added to its environment: { NAME = \"value\" }" (default "-"),
        init: Vec<String> = Vec::new()
            => "lines sent once after start-up, such as an engine option" (default "-"),
        name: Option<String> = None => "the name in messages and logs" (default "its program"),
        start_timeout: Option<String> = None
            => "deadline for start-up and each command (\"10s\", \"500ms\")" (default "10s"),
        stall_timeout: Option<String> = None
            => "deadline for a move without a time control; past it the game ends `stalled`" (default "30s"),
    }
}

/// The keys of an engine's table that change no finished game, only how long an
/// engine is waited for: `--resume` lets them differ from the run's record (an engine
/// that needed a longer `stall_timeout` can continue its run).
pub const RESUMABLE_KEYS: &[&str] = &["start_timeout", "stall_timeout"];

/// `strategy` (a player's strategy as `run.toml` records it) without the
/// [`RESUMABLE_KEYS`] of each engine and Python callable in it (a search's `eval`
/// too), which have the same deadlines: what `--resume` compares.
pub fn without_resumable_keys(strategy: &mut toml::Table) {
    let kind = strategy.get("kind").and_then(toml::Value::as_str);
    if matches!(kind, Some("engine" | "python")) {
        for key in RESUMABLE_KEYS {
            strategy.remove(*key);
        }
    }
    for (_, nested) in strategy.iter_mut() {
        if let Some(nested) = nested.as_table_mut() {
            without_resumable_keys(nested);
        }
    }
}

/// A command as a list of words, or one string split as a shell splits words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EngineCommand {
    /// The program and its arguments.
    Words(Vec<String>),
    /// One line, split as a shell splits words.
    Line(String),
}

fn bad(message: String) -> SpecError {
    SpecError::BadValue {
        kind: "engine",
        message,
    }
}

/// A command line split as a shell splits words.
fn split_command(line: &str) -> Result<Vec<String>, SpecError> {
    let words =
        shlex::split(line).ok_or_else(|| bad(format!("command '{line}' has an unclosed quote")))?;
    if words.is_empty() {
        return Err(bad(
            "the command is empty: give the engine's program, such as gtp:gtp-rhino".into(),
        ));
    }
    Ok(words)
}

fn duration(key: &str, text: Option<String>, default: Duration) -> Result<Duration, SpecError> {
    let Some(text) = text else { return Ok(default) };
    match humantime::parse_duration(text.trim()) {
        Ok(d) if d > Duration::ZERO => Ok(d),
        _ => Err(bad(format!(
            "{key} = \"{text}\" is not a time: write it like \"10s\" or \"500ms\""
        ))),
    }
}

impl Kind for EngineSpec {
    const NAME: &'static str = "engine";
    const HELP: &'static str = "an external engine's program over GTP or NBoard; on one line gtp:COMMAND or nboard:COMMAND (split as a shell splits words)";
    const PARAMS: &'static [ParamInfo] = EngineParams::PARAMS;
    const SAMPLE: &'static str = "gtp:true";
    const SEARCHES: bool = true;
    const RUNS_CODE: bool = true;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        Self::from_table(params)
    }

    fn from_line(text: &str) -> Option<Result<Self, SpecError>> {
        EngineSpec::from_line(text)
    }

    fn build<G: Geometry>(&self, rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        Ok(Box::new(Engine::new(self, G::SIZE, rules)?))
    }

    fn paths(&mut self) -> Vec<&mut PathBuf> {
        self.dir.iter_mut().collect()
    }
}

impl EngineSpec {
    /// `gtp:COMMAND` or `nboard:COMMAND`, if `text` is one.
    pub fn from_line(text: &str) -> Option<Result<Self, SpecError>> {
        let (protocol, command) = text.split_once(':')?;
        let protocol = match protocol.trim() {
            "gtp" => Protocol::Gtp,
            "nboard" => Protocol::Nboard,
            _ => return None,
        };
        Some(split_command(command).map(|command| EngineSpec {
            protocol,
            command,
            dir: None,
            env: BTreeMap::new(),
            init: Vec::new(),
            name: None,
            start_timeout: START_TIMEOUT,
            stall_timeout: STALL_TIMEOUT,
        }))
    }

    /// The table form (`kind` removed).
    pub fn from_table(table: toml::Table) -> Result<Self, SpecError> {
        if let Some(toml::Value::String(protocol)) = table.get("protocol") {
            if !Protocol::NAMES.contains(&protocol.as_str()) {
                return Err(SpecError::UnknownValue {
                    kind: "engine",
                    param: "protocol",
                    value: protocol.clone(),
                    known: Protocol::NAMES,
                });
            }
        }
        let file: EngineParams = crate::strategy::spec::typed("engine", table)?;
        let command = match file.command {
            None => {
                return Err(bad("command is missing: give the engine's program and its arguments, such as [\"gtp-rhino\", \"-l\", \"3\"]".into()))
            }
            Some(EngineCommand::Words(words)) if words.is_empty() || words[0].is_empty() => {
                return Err(bad("command = []: give the engine's program and its arguments, such as [\"gtp-rhino\", \"-l\", \"3\"]".into()))
            }
            Some(EngineCommand::Words(words)) => words,
            Some(EngineCommand::Line(line)) => split_command(&line)?,
        };
        Ok(EngineSpec {
            protocol: file.protocol,
            command,
            dir: file.dir,
            env: file.env,
            init: file.init,
            name: file.name,
            start_timeout: duration("start_timeout", file.start_timeout, START_TIMEOUT)?,
            stall_timeout: duration("stall_timeout", file.stall_timeout, STALL_TIMEOUT)?,
        })
    }

    /// The engine's name in messages: `name`, or its program's file name.
    #[must_use]
    pub fn label(&self) -> String {
        self.name.clone().unwrap_or_else(|| {
            let program = self.command.first().map_or("engine", String::as_str);
            std::path::Path::new(program)
                .file_name()
                .map_or(program.to_string(), |f| f.to_string_lossy().into_owned())
        })
    }

    fn launch(&self, log: Option<std::fs::File>) -> Launch {
        Launch {
            command: self.command.clone(),
            dir: self.dir.clone(),
            env: self.env.clone().into_iter().collect(),
            log,
        }
    }

    /// Starts the engine once to check that it can play these games: it answers, and
    /// takes the board size (NBoard: 8x8 only). Anti rules are refused (engines play
    /// the standard game).
    pub fn check(&self, size: u32, rules: Rules) -> Result<String, SpecError> {
        if rules.anti {
            return Err(bad(format!(
                "engine '{}' plays the standard game: anti rules cannot be played with it",
                self.label()
            )));
        }
        if self.protocol == Protocol::Nboard && size != 8 {
            return Err(bad(format!(
                "engine '{}' speaks NBoard, which is played on 8x8 only: it cannot play {size}x{size} games",
                self.label()
            )));
        }
        Client::start(self, None, size)
            .map(|client| client.identity().to_string())
            .map_err(bad)
    }
}

/// One turn of a game: a colour and its move (None: a pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// Who moved.
    pub color: Color,
    /// Where (None: a pass).
    pub square: Option<Square>,
}

/// The turns of a game from the standard start, passes made explicit.
#[must_use]
pub fn plies<G: Geometry>(moves: &[Square]) -> Vec<Ply> {
    plies_from(Position::<G>::start(), moves)
}

/// The turns of a game from `start`, passes made explicit.
#[must_use]
pub fn plies_from<G: Geometry>(start: Position<G>, moves: &[Square]) -> Vec<Ply> {
    let mut position = start;
    let mut out = Vec::with_capacity(moves.len() + 2);
    for &square in moves {
        if position.board.moves().is_empty() {
            out.push(Ply {
                color: position.side,
                square: None,
            });
            position = position.pass();
        }
        out.push(Ply {
            color: position.side,
            square: Some(square),
        });
        position = position.play(square);
    }
    if position.board.moves().is_empty() && !position.pass().board.moves().is_empty() {
        out.push(Ply {
            color: position.side,
            square: None,
        });
    }
    out
}

/// A running engine, by the protocol it speaks.
pub enum Client {
    /// Over GTP.
    Gtp(Gtp),
    /// Over NBoard.
    Nboard(Nboard),
}

impl Client {
    /// Starts the engine of `spec` for games on `size`, its standard error to `log`.
    pub fn start(spec: &EngineSpec, log: Option<std::fs::File>, size: u32) -> Result<Self, String> {
        let launch = spec.launch(log);
        match spec.protocol {
            Protocol::Gtp => {
                Gtp::start(&launch, &spec.init, size, spec.start_timeout).map(Client::Gtp)
            }
            Protocol::Nboard => {
                Nboard::start(&launch, &spec.init, size, spec.start_timeout).map(Client::Nboard)
            }
        }
    }

    /// The next game starts afresh.
    pub fn new_game(&mut self) {
        match self {
            Client::Gtp(gtp) => gtp.new_game(),
            Client::Nboard(nboard) => nboard.new_game(),
        }
    }

    /// The engine's move for `color` after `plies` from `start` (an OBF position;
    /// None: the standard start), as it wrote it, with the nodes it
    /// reported searching for it (NBoard's `nodestats`; GTP reports none). `rng` goes
    /// to reversi-lab's own GTP server and back (see [`Gtp::move_after`]); NBoard has
    /// no such handover. Ok(Err(why)) is an answer that is the engine's fault.
    pub fn move_after(
        &mut self,
        start: Option<&str>,
        plies: &[Ply],
        color: Color,
        rng: &mut crate::strategy::GameRng,
        deadline: Instant,
    ) -> Result<Result<(String, Option<u64>), String>, Failure> {
        Ok(match self {
            // GTP has no command to set up a position (callers refuse such starts).
            Client::Gtp(_) if start.is_some() => {
                Err("GTP cannot be told a start position other than the standard one".into())
            }
            Client::Gtp(gtp) => gtp
                .move_after(plies, color, rng, deadline)?
                .map(|m| (m, None)),
            Client::Nboard(nboard) => nboard
                .move_after(start.map(nboard::ggf_board), plies, color, deadline)?
                .map(|answer| (answer.text, answer.nodes)),
        })
    }

    /// The time control of the next move and the time left on the side's clock (None:
    /// untimed). GTP engines are told where they list the commands; NBoard has no
    /// command for it. Either way the move's deadline is the control's.
    pub fn clock(&mut self, time: Option<(TimeControl, Option<Duration>)>) {
        match self {
            Client::Gtp(gtp) => gtp.clock(time),
            Client::Nboard(nboard) => nboard.timed = time.is_some(),
        }
    }

    /// Records the move the engine chose.
    pub fn played(&mut self, ply: Ply) {
        match self {
            Client::Gtp(gtp) => gtp.played(ply),
            Client::Nboard(nboard) => nboard.played(ply),
        }
    }

    /// A line of reversi-lab's own in the engine's log.
    pub fn note(&self, text: &str) {
        match self {
            Client::Gtp(gtp) => gtp.process.note(text),
            Client::Nboard(nboard) => nboard.process.note(text),
        }
    }

    /// The engine's name as it gave it (GTP: `name` and `version`; NBoard: `set myname`).
    #[must_use]
    pub fn identity(&self) -> &str {
        match self {
            Client::Gtp(gtp) => &gtp.identity,
            Client::Nboard(nboard) => &nboard.identity,
        }
    }
}

/// An engine running for one worker, kept in that worker's memory.
pub struct Session {
    client: Client,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("engine", &self.client.identity())
            .finish()
    }
}

impl PlayerState for Session {
    /// The next game starts afresh.
    fn new_game(&mut self) {
        self.client.new_game();
    }
}

impl Session {
    fn note(&self, text: &str) {
        self.client.note(text);
    }
}

/// An external engine playing as a strategy.
pub struct Engine {
    spec: EngineSpec,
    size: u32,
    /// What it said it is when it was checked.
    identity: String,
    logs: Mutex<Option<crate::strategy::logs::Logs>>,
}

impl Engine {
    /// The strategy for games on `size`, once the engine has shown it can play them.
    pub fn new(spec: &EngineSpec, size: u32, rules: Rules) -> Result<Self, SpecError> {
        let identity = spec.check(size, rules)?;
        Ok(Engine {
            spec: spec.clone(),
            size,
            identity,
            logs: Mutex::new(None),
        })
    }

    fn start(&self) -> Result<Session, String> {
        let logs = self.logs.lock().ok().and_then(|logs| logs.clone());
        let log = logs.map(|logs| logs.open()).transpose()?;
        let note = log.as_ref().and_then(|file| file.try_clone().ok());
        let client = Client::start(&self.spec, log, self.size).inspect_err(|why| {
            // No session holds the log yet: the failure goes there directly.
            if let Some(mut file) = note {
                let _ = writeln!(file, "reversi-lab: crash at start-up: {why}");
            }
        })?;
        Ok(Session { client })
    }

    /// The move, or the fault that loses the game.
    fn try_choose<G: Geometry>(
        &self,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Result<Square, (Termination, String)> {
        if context.memory.find_state::<Session>().is_none() {
            let began = Instant::now();
            let session = self.start().map_err(|why| (Termination::Crash, why))?;
            context.memory.state(|_| true, || session);
            // Starting (or restarting) is not thinking: no clock counts it.
            context.memory.clock.pause(began.elapsed());
        }
        let history = context.history;
        let start = Some(history.start()).filter(|s| *s != Position::start());
        let from = history.start();
        let plies = plies_from(from, history.moves);
        let start = start.map(|s| s.to_obf());
        let timed = context.memory.clock.limit.is_some();
        let clock = context.memory.clock;
        let session = context
            .memory
            .find_state::<Session>()
            .expect("started above");
        // The side after the last turn (a pass the side to move was owed included).
        let color = plies.last().map_or(from.side, |p| p.color.opposite());
        let fault = |f: Failure| match f {
            Failure::Crashed(why) => (Termination::Crash, why),
            Failure::Stalled(why) if timed => (Termination::Time, why),
            Failure::Stalled(why) => (Termination::Stalled, why),
            Failure::Garbage(why) => (Termination::Illegal, why),
        };
        // On a clock the move's deadline is the control's, and missing it loses on
        // time; stall_timeout is the deadline only of untimed moves.
        session.client.clock(clock.control.map(|c| (c, clock.left)));
        let deadline = clock
            .limit
            .unwrap_or_else(|| Instant::now() + self.spec.stall_timeout);
        let (text, nodes) = session
            .client
            .move_after(start.as_deref(), &plies, color, context.rng, deadline)
            .map_err(fault)?
            .map_err(|why| (Termination::Illegal, why))?;
        // What the engine says it searched is its cost (`costs.csv`'s nodes).
        context.memory.nodes += nodes.unwrap_or(0);
        let square =
            gtp::parse_move(&text, self.size).map_err(|why| (Termination::Illegal, why))?;
        match square {
            Some(square) if moves.has(square.index()) => {
                let session = context
                    .memory
                    .find_state::<Session>()
                    .expect("started above");
                session.client.played(Ply {
                    color,
                    square: Some(square),
                });
                Ok(square)
            }
            _ => Err((
                Termination::Illegal,
                format!(
                    "'{}' is not a legal move for {} (legal: {})",
                    text.trim(),
                    color.name(),
                    crate::board::square_names(moves, self.size)
                ),
            )),
        }
    }
}

impl<G: Geometry> Strategy<G> for Engine {
    fn pick(&self, _board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        let began = Instant::now();
        match self.try_choose(moves, context) {
            Ok(square) => {
                context.memory.notes.timed_from(began);
                Ok(Pick::of(square))
            }
            Err((termination, why)) => {
                let game = context.history.moves.len();
                if let Some(session) = context.memory.find_state::<Session>() {
                    session.note(&format!("{} after {game} moves: {why}", termination.name()));
                }
                // A faulty engine is started afresh for the next game, whatever the
                // fault: after an illegal or garbage answer its state is unknown too.
                context.memory.drop_state::<Session>();
                Err(Box::new(Fault {
                    termination,
                    reason: why,
                }))
            }
        }
    }

    fn identity(&self) -> Option<String> {
        Some(if self.identity.is_empty() {
            self.spec.label()
        } else {
            self.identity.clone()
        })
    }

    fn attach(&self, logs: &crate::strategy::logs::Logs) {
        if let Ok(mut kept) = self.logs.lock() {
            *kept = Some(logs.clone());
        }
    }
}
