//! A Python callable's worker process: `PYTHON -m reversi_lab._worker ROLE CALLABLE
//! PARAMS`, started through the engines' process layer (its own process group, a
//! deadline on every answer, its standard error in `engines/<player>-<worker>.log`),
//! spoken to in the line protocol `python/reversi_lab/_worker.py` describes.

use super::{Failure, Reply, Role, Session, Turn};
use crate::strategy::engine::process::{self, Launch, Process};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

/// How to start a callable's workers, and what the check at build found it to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerSource {
    /// The interpreter.
    pub python: PathBuf,
    /// `module:function`.
    pub callable: String,
    /// The keyword arguments of every call, as a JSON object.
    pub params: String,
    /// What the callable is called as.
    pub role: Role,
    /// The workers' working folder.
    pub dir: Option<PathBuf>,
    /// The deadline for start-up.
    pub start_timeout: std::time::Duration,
    /// The callable, its module's hash and the interpreter's version, once checked.
    pub identity: String,
}

/// A running worker.
pub struct Worker {
    process: Process,
    line: String,
}

impl WorkerSource {
    /// This source once a worker has started: the callable imported and its parameters
    /// taken, its identity known; else the one line that refuses it.
    pub fn checked(mut self) -> Result<Self, String> {
        let (_, identity) = self.launch(None)?;
        self.identity = identity;
        Ok(self)
    }

    /// A worker, its standard error to `log`.
    pub fn start(&self, log: Option<std::fs::File>) -> Result<Worker, String> {
        self.launch(log).map(|(worker, _)| worker)
    }

    fn launch(&self, log: Option<std::fs::File>) -> Result<(Worker, String), String> {
        let python = self.python.to_string_lossy().into_owned();
        let launch = Launch {
            command: vec![
                python.clone(),
                "-m".into(),
                "reversi_lab._worker".into(),
                self.role.name().into(),
                self.callable.clone(),
                self.params.clone(),
            ],
            dir: self.dir.clone(),
            env: Vec::new(),
            log,
        };
        let mut process = Process::start(&launch)
            .map_err(|e| e.worded(crate::strategy::engine::started::Started::Interpreter))?;
        let hello = process.line(Instant::now() + self.start_timeout);
        let callable = &self.callable;
        match hello {
            Ok(line) => {
                if let Some(rest) = line.strip_prefix("ok ") {
                    let mut words = rest.split_whitespace();
                    let hash = words.next().unwrap_or("-");
                    let version = words.next().unwrap_or("-");
                    let identity =
                        format!("python {callable} (module sha256 {hash}; {version} {python})");
                    Ok((
                        Worker {
                            process,
                            line: String::new(),
                        },
                        identity,
                    ))
                } else if let Some(reason) = line.strip_prefix("no ") {
                    Err(format!("callable '{callable}': {reason}"))
                } else {
                    Err(format!(
                        "'{python} -m reversi_lab._worker' answered '{line}' at start-up, not the worker's greeting: is the reversi_lab package of this version installed for {python}?"
                    ))
                }
            }
            Err(failure) => {
                let words = process.last_words();
                if words.contains("No module named 'reversi_lab")
                    || words.contains("No module named reversi_lab")
                {
                    return Err(format!(
                        "the Python package reversi_lab is not installed for {python}: install it there (pip install reversi-lab, or the wheel), or set python = \"path/to/python\" to an interpreter that has it"
                    ));
                }
                let why = match failure {
                    process::Failure::Stalled(why)
                    | process::Failure::Crashed(why)
                    | process::Failure::Garbage(why) => why,
                };
                Err(format!(
                    "the worker '{python} -m reversi_lab._worker' for '{callable}' failed at start-up: {why}{words}"
                ))
            }
        }
    }
}

impl Worker {
    /// The answer to the request in `self.line`: the text after `r `.
    fn ask(&mut self, deadline: Instant) -> Result<String, Failure> {
        self.process.send(&self.line).map_err(Failure::Process)?;
        let answer = self.process.line(deadline).map_err(Failure::Process)?;
        if let Some(text) = answer.strip_prefix("r ") {
            Ok(text.to_string())
        } else if let Some(line) = answer.strip_prefix("e ") {
            Err(Failure::Raised(line.to_string()))
        } else {
            Err(Failure::Process(process::Failure::Garbage(format!(
                "the worker answered '{answer}', not r or e"
            ))))
        }
    }
}

impl Session for Worker {
    fn choose(&mut self, turn: &Turn<'_>, deadline: Instant) -> Result<Reply, Failure> {
        self.line.clear();
        match &turn.new_game {
            Some(game) => {
                let _ = write!(
                    self.line,
                    "n {} {} {} {} {}",
                    game.seed,
                    game.size,
                    u8::from(game.rules.anti),
                    game.rules.scoring.name(),
                    game.start
                        .as_deref()
                        .map_or("-".into(), |s| s.replace(' ', "_"))
                );
            }
            None => self.line.push('m'),
        }
        for ply in turn.plies {
            self.line.push(' ');
            match ply {
                Some(square) => square.push_name(turn.size, &mut self.line),
                None => self.line.push_str("pass"),
            }
        }
        self.ask(deadline).map(Reply::Text)
    }

    fn value(&mut self, obf: &str, deadline: Instant) -> Result<f64, Failure> {
        self.line.clear();
        self.line.push_str("v ");
        self.line.push_str(&obf.replace(' ', "_"));
        let text = self.ask(deadline)?;
        text.trim().parse::<f64>().map_err(|_| {
            Failure::Process(process::Failure::Garbage(format!(
                "the worker answered '{text}', not a number"
            )))
        })
    }

    fn note(&self, text: &str) {
        self.process.note(text);
    }
}
