//! An engine's process: started in a process group of its own that dies with
//! reversi-lab, its output read line by line on a thread so that every read has a
//! deadline, its standard error kept in a log file, and the whole group killed when
//! the handle is dropped.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How an exchange with the engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process ended, or closed its output or input.
    Crashed(String),
    /// No answer by the deadline.
    Stalled(String),
}

/// What starts an engine: the command split into words, its folder and environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The working folder (None: reversi-lab's own).
    pub dir: Option<PathBuf>,
    /// Variables added to its environment.
    pub env: Vec<(String, String)>,
    /// Where its standard error goes (None: discarded).
    pub log: Option<PathBuf>,
}

/// A running engine.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    /// In a mutex only so that a memory holding an engine may be shared (the Python
    /// package's strategies are); one thread reads it at a time anyway.
    lines: Mutex<Receiver<String>>,
    /// The command, for messages.
    pub program: String,
}

impl Process {
    /// Starts the engine, or says in one line why it cannot be started.
    pub fn start(launch: &Launch) -> Result<Self, String> {
        let (program, args) = launch
            .command
            .split_first()
            .ok_or_else(|| "the engine's command is empty".to_string())?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .envs(launch.env.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &launch.dir {
            command.current_dir(dir);
        }
        command.stderr(match &launch.log {
            Some(path) => match log_file(path) {
                Ok(file) => Stdio::from(file),
                Err(e) => {
                    return Err(format!(
                        "cannot write the engine log {}: {e}",
                        path.display()
                    ))
                }
            },
            None => Stdio::null(),
        });
        own_group_dying_with_parent(&mut command);
        let mut child = command.spawn().map_err(|e| {
            let hint = match e.kind() {
                std::io::ErrorKind::NotFound => " (is it installed, and on PATH?)",
                std::io::ErrorKind::PermissionDenied => " (is it executable?)",
                _ => "",
            };
            format!("cannot start engine '{program}': {e}{hint}")
        })?;
        let stdout = child.stdout.take().expect("stdout was piped");
        let (send, lines) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("engine {program}"))
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if send.send(line).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start a thread to read engine '{program}': {e}"))?;
        Ok(Process {
            stdin: child.stdin.take(),
            child,
            lines: Mutex::new(lines),
            program: program.clone(),
        })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Failure::Crashed("its input is closed".into()))?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| Failure::Crashed(format!("it stopped reading its input ({e})")))
    }

    /// Sends several lines in one write.
    pub fn send_lines(&mut self, lines: &[String]) -> Result<(), Failure> {
        let mut text = lines.join("\n");
        text.push('\n');
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Failure::Crashed("its input is closed".into()))?;
        stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| Failure::Crashed(format!("it stopped reading its input ({e})")))
    }

    /// The next line it writes, waiting until `deadline` at most.
    pub fn line(&mut self, deadline: Instant) -> Result<String, Failure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        let lines = self.lines.get_mut().unwrap_or_else(PoisonError::into_inner);
        match lines.recv_timeout(wait) {
            Ok(line) => Ok(line.trim_end_matches('\r').to_string()),
            Err(RecvTimeoutError::Timeout) => Err(Failure::Stalled(format!(
                "no answer within {:.1} s",
                wait.as_secs_f64()
            ))),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.child.try_wait().ok().flatten();
                Err(Failure::Crashed(match status {
                    Some(status) => format!("it exited ({status})"),
                    None => "it closed its output".into(),
                }))
            }
        }
    }

    /// Drops lines already written and not read (a late answer to an earlier command).
    pub fn drain(&mut self) {
        let lines = self.lines.get_mut().unwrap_or_else(PoisonError::into_inner);
        while lines.try_recv().is_ok() {}
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Closing its input is how most engines are told to quit; a short grace, then
        // the whole group goes (an engine started through a shell has children).
        drop(self.stdin.take());
        let grace = Instant::now() + Duration::from_millis(200);
        while Instant::now() < grace {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        kill_group(&mut self.child);
        let _ = self.child.wait();
    }
}

fn log_file(path: &Path) -> std::io::Result<std::fs::File> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
}

/// The engine leads a process group of its own (so that its children can be killed
/// with it) and gets SIGKILL when reversi-lab dies, even by `kill -9`.
#[cfg(target_os = "linux")]
fn own_group_dying_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the child between fork and exec and calls only
    // async-signal-safe functions (setpgid, prctl, getppid).
    unsafe {
        command.pre_exec(|| {
            libc::setpgid(0, 0);
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // The parent may have died before prctl: then nobody would kill us.
            if libc::getppid() == 1 {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn own_group_dying_with_parent(command: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let _ = command;
}

#[cfg(target_os = "linux")]
fn kill_group(child: &mut Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill with a negative pid signals the process group the engine leads.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}

#[cfg(not(target_os = "linux"))]
fn kill_group(child: &mut Child) {
    let _ = child.kill();
}
