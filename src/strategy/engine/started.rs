//! Why a process could not be started, typed; the caller that knows what it started
//! (an engine, or the Python interpreter of a worker) words it once.

use std::path::PathBuf;

/// What a [`super::process::Launch`] starts, for the words of its refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Started {
    /// An external engine (GTP or NBoard).
    Engine,
    /// The Python interpreter of a strategy's worker process.
    Interpreter,
}

impl Started {
    /// "engine" / "the interpreter", as `cannot start NAME 'program'` reads.
    fn name(self) -> &'static str {
        match self {
            Started::Engine => "engine",
            Started::Interpreter => "the interpreter",
        }
    }

    /// Whose working folder or log it is.
    fn owner(self) -> &'static str {
        match self {
            Started::Engine => "the engine's",
            Started::Interpreter => "the worker's",
        }
    }
}

/// Why the process could not be started.
#[derive(Debug)]
pub enum StartError {
    /// The command has no words.
    EmptyCommand,
    /// The working folder is missing or not a folder.
    NoFolder {
        /// The program.
        program: String,
        /// The folder asked for.
        dir: PathBuf,
        /// Whether something else is there.
        exists: bool,
    },
    /// The log could not be handed to the process.
    Log(std::io::Error),
    /// The operating system refused to start the program.
    Spawn {
        /// The program.
        program: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The run is stopping (a second Ctrl-C): nothing new starts.
    Stopping {
        /// The program.
        program: String,
    },
    /// Its output could not be set up for reading (one line saying why).
    Output(String),
}

impl StartError {
    /// The one-line refusal, naming what was started.
    #[must_use]
    pub fn worded(&self, started: Started) -> String {
        let name = started.name();
        let owner = started.owner();
        match self {
            StartError::EmptyCommand => format!("{owner} command is empty"),
            StartError::NoFolder {
                program,
                dir,
                exists,
            } => {
                let what = if *exists {
                    "is not a folder"
                } else {
                    "does not exist"
                };
                format!(
                    "cannot start {name} '{program}': its dir {} {what}: give {owner} working folder (in a config file, relative to the file's folder)",
                    dir.display()
                )
            }
            StartError::Log(e) => format!("cannot write {owner} log: {e}"),
            StartError::Spawn { program, source } => {
                let hint = match source.kind() {
                    std::io::ErrorKind::NotFound => " (is it installed, and on PATH?)",
                    std::io::ErrorKind::PermissionDenied => " (is it executable?)",
                    _ => "",
                };
                format!("cannot start {name} '{program}': {source}{hint}")
            }
            StartError::Stopping { program } => {
                format!("cannot start {name} '{program}': the run is stopping")
            }
            StartError::Output(why) => why.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_names_what_was_started() {
        let missing = StartError::Spawn {
            program: "no-such".into(),
            source: std::io::ErrorKind::NotFound.into(),
        };
        assert!(missing
            .worded(Started::Engine)
            .starts_with("cannot start engine 'no-such': "));
        assert!(missing
            .worded(Started::Interpreter)
            .starts_with("cannot start the interpreter 'no-such': "));
        let folder = StartError::NoFolder {
            program: "python3".into(),
            dir: "gone".into(),
            exists: false,
        };
        assert_eq!(
            folder.worded(Started::Interpreter),
            "cannot start the interpreter 'python3': its dir gone does not exist: give the worker's working folder (in a config file, relative to the file's folder)"
        );
    }
}
