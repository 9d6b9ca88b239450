//! An engine's process: started in a process group of its own that dies with
//! reversi-lab, its output read line by line with a deadline on every read, its
//! standard error kept in a log file, and the whole group killed when the handle is
//! dropped.
//!
//! Reading: the engine's output goes into a buffer that the process owns, and lines
//! are taken from it by the thread asking for them. When no whole line is buffered,
//! that thread waits for the pipe with `poll(2)` until the deadline at most, then
//! reads what has come (on Linux; elsewhere a thread reads the pipe into a channel,
//! which the deadline waits on). A reply costs one wake-up of the caller, not two
//! thread hand-offs: greedy served over GTP plays about twice as many games per
//! second as it did through a reader thread (`cargo bench --bench protocol`).

use super::started::StartError;
use super::stderr::{Stderr, LAST_WORDS_WAIT};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// How an exchange with the engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process ended, or closed its output or input.
    Crashed(String),
    /// No answer by the deadline.
    Stalled(String),
    /// An answer no engine would give: a line longer than [`MAX_LINE`].
    Garbage(String),
}

/// The longest line an engine may write (a reply, a move, `list_commands`'s whole
/// reply): longer is garbage, and a fault, so that a runaway engine cannot fill the
/// memory.
pub const MAX_LINE: usize = 1024 * 1024;

/// What starts an engine: the command split into words, its folder and environment.
#[derive(Debug)]
pub struct Launch {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The working folder (None: reversi-lab's own).
    pub dir: Option<PathBuf>,
    /// Variables added to its environment.
    pub env: Vec<(String, String)>,
    /// Where its standard error goes (None: discarded): a log the caller opened.
    pub log: Option<std::fs::File>,
}

/// A running engine.
///
/// Send and Sync (checked below): a memory holding an engine may be shared (the
/// Python package keeps built strategies' memories as `dyn Any + Send + Sync`); one
/// thread reads it at a time anyway, through `&mut self`.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    output: Output<Source>,
    stderr: Stderr,
    /// The command, for messages.
    pub program: String,
}

const _: () = {
    const fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<Process>();
};

impl Process {
    /// Starts the engine, or says why it cannot be started.
    pub fn start(launch: &Launch) -> Result<Self, StartError> {
        let (program, args) = launch
            .command
            .split_first()
            .ok_or(StartError::EmptyCommand)?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .envs(launch.env.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &launch.dir {
            // Else the spawn's "not found" would blame the program.
            if !dir.is_dir() {
                return Err(StartError::NoFolder {
                    program: program.clone(),
                    dir: dir.clone(),
                    exists: dir.exists(),
                });
            }
            command.current_dir(dir);
        }
        let log = launch
            .log
            .as_ref()
            .map(std::fs::File::try_clone)
            .transpose()
            .map_err(StartError::Log)?;
        command.stderr(Stdio::piped());
        own_group_dying_with_parent(&mut command);
        let mut child = command.spawn().map_err(|source| StartError::Spawn {
            program: program.clone(),
            source,
        })?;
        if !super::groups::started(child.id()) {
            // The process is ending its games at once (a second Ctrl-C).
            kill_group(&mut child);
            let _ = child.wait();
            return Err(StartError::Stopping {
                program: program.clone(),
            });
        }
        let stdout = child.stdout.take().expect("stdout was piped");
        let stderr = child.stderr.take().expect("stderr was piped");
        let readers = Source::new(stdout, program)
            .and_then(|source| Ok((source, Stderr::start(stderr, log, program)?)));
        let (source, stderr) = match readers {
            Ok(readers) => readers,
            Err(why) => {
                kill_group(&mut child);
                let _ = child.wait();
                return Err(StartError::Output(why));
            }
        };
        Ok(Process {
            stdin: child.stdin.take(),
            child,
            output: Output::new(source),
            stderr,
            program: program.clone(),
        })
    }

    /// A line of reversi-lab's own in the engine's log (`reversi-lab: TEXT`).
    pub fn note(&self, text: &str) {
        self.stderr.note(text);
    }

    /// The last lines of its standard error, for a message on why it failed
    /// (`; its standard error ends '...'`, or nothing). An engine that has ended is
    /// given a moment for the rest of its standard error to be read.
    pub fn last_words(&mut self) -> String {
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            self.stderr.wait_end(Instant::now() + LAST_WORDS_WAIT);
        }
        self.stderr.last_words()
    }

    /// How it ended, once it has failed to read or write (`fallback` if it is still
    /// running after a short wait): its exit status where it exited, so that the same
    /// failure reads the same whichever side of the pipe saw it first.
    fn ended(&mut self, fallback: String) -> Failure {
        let until = Instant::now() + LAST_WORDS_WAIT;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Failure::Crashed(format!("it exited ({status})"));
            }
            if Instant::now() >= until {
                return Failure::Crashed(fallback);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        self.write(format!("{line}\n").as_bytes())
    }

    /// Sends several lines in one write.
    pub fn send_lines(&mut self, lines: &[String]) -> Result<(), Failure> {
        let mut text = lines.join("\n");
        text.push('\n');
        self.write(text.as_bytes())
    }

    /// Writes `text` in one write (the pipe is unbuffered: a formatted write would
    /// be several, and the engine could read half a line).
    fn write(&mut self, text: &[u8]) -> Result<(), Failure> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Failure::Crashed("its input is closed".into()))?;
        match stdin.write_all(text) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.ended(format!("it stopped reading its input ({e})"))),
        }
    }

    /// The next line it writes (its line end and a `\r` before it removed), waiting
    /// until `deadline` at most.
    pub fn line(&mut self, deadline: Instant) -> Result<String, Failure> {
        // Most lines come several to a read (a reply and its blank line, the replies
        // to a batch): those need neither the clock nor a system call.
        if let Some(line) = self.output.buffered_line() {
            return Ok(line);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.output.line(deadline) {
            Ok(line) => Ok(line),
            Err(Ended::Timeout) => Err(Failure::Stalled(format!(
                "no answer within {:.1} s",
                wait.as_secs_f64()
            ))),
            Err(Ended::Closed) => Err(self.ended("it closed its output".into())),
            Err(Ended::TooLong) => Err(Failure::Garbage(format!(
                "it wrote a line longer than {MAX_LINE} bytes"
            ))),
        }
    }

    /// Drops lines already written and not read (a late answer to an earlier command).
    pub fn drain(&mut self) {
        self.output.drain();
    }
}

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    /// The engine closed its output (or it could not be read), nothing left.
    Closed,
    /// The deadline passed.
    Timeout,
    /// The line being written is longer than [`MAX_LINE`] (its bytes are dropped).
    TooLong,
}

/// What a wait for more output brought.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fill {
    /// This many bytes (none after an interrupted wait: look again).
    Data(usize),
    Closed,
    Timeout,
}

/// Where an engine's output comes from: bytes read into `into` (at least
/// [`READ_SIZE`] long), waiting until a deadline at most (None: only what has come
/// already, no wait).
trait Fills {
    fn fill(&mut self, into: &mut [u8], deadline: Option<Instant>) -> Fill;
}

/// The engine's output, split into lines on the reading thread.
struct Output<S> {
    source: S,
    /// Bytes read and not yet taken as lines are `buffer[start..end]`.
    buffer: Vec<u8>,
    start: usize,
    end: usize,
    /// Where the search for a line end resumes (no `\n` in `buffer[start..scanned]`).
    scanned: usize,
    closed: bool,
}

impl<S: Fills> Output<S> {
    fn new(source: S) -> Self {
        Output {
            source,
            buffer: vec![0; READ_SIZE],
            start: 0,
            end: 0,
            scanned: 0,
            closed: false,
        }
    }

    /// A whole line already read, if there is one.
    fn buffered_line(&mut self) -> Option<String> {
        let Some(at) = self.buffer[self.scanned..self.end]
            .iter()
            .position(|&b| b == b'\n')
        else {
            self.scanned = self.end;
            return None;
        };
        let end = self.scanned + at;
        let line = text(&self.buffer[self.start..end]);
        self.start = end + 1;
        self.scanned = self.start;
        Some(line)
    }

    /// Reads more after what is buffered, making room first.
    fn fill(&mut self, deadline: Option<Instant>) -> Fill {
        if self.start == self.end {
            (self.start, self.end, self.scanned) = (0, 0, 0);
        } else if self.buffer.len() - self.end < READ_SIZE {
            self.buffer.copy_within(self.start..self.end, 0);
            (self.end, self.scanned) = (self.end - self.start, self.scanned - self.start);
            self.start = 0;
            if self.buffer.len() - self.end < READ_SIZE {
                self.buffer.resize(self.end + READ_SIZE, 0);
            }
        }
        let fill = self.source.fill(&mut self.buffer[self.end..], deadline);
        match fill {
            Fill::Data(n) => self.end += n,
            Fill::Closed => self.closed = true,
            Fill::Timeout => {}
        }
        fill
    }

    /// The next line, lossily for bytes that are not UTF-8; the last one may lack its
    /// line end.
    fn line(&mut self, deadline: Instant) -> Result<String, Ended> {
        loop {
            if let Some(line) = self.buffered_line() {
                return Ok(line);
            }
            if self.end - self.start > MAX_LINE {
                (self.start, self.end, self.scanned) = (0, 0, 0);
                self.buffer.truncate(READ_SIZE);
                self.buffer.shrink_to(READ_SIZE);
                return Err(Ended::TooLong);
            }
            if self.closed {
                if self.start == self.end {
                    return Err(Ended::Closed);
                }
                let line = text(&self.buffer[self.start..self.end]);
                self.start = self.end;
                return Ok(line);
            }
            if self.fill(Some(deadline)) == Fill::Timeout {
                return Err(Ended::Timeout);
            }
        }
    }

    /// Reads what has come without waiting and drops every whole line buffered; a
    /// line still being written stays.
    fn drain(&mut self) {
        // Bounded, against an engine that writes without end.
        for _ in 0..64 {
            if self.closed || !matches!(self.fill(None), Fill::Data(1..)) {
                break;
            }
        }
        if let Some(last) = self.buffer[self.start..self.end]
            .iter()
            .rposition(|&b| b == b'\n')
        {
            self.start += last + 1;
            self.scanned = self.start;
        }
    }

    /// Waits until `deadline` at most for the engine to close its output, dropping
    /// what it writes meanwhile.
    fn wait_closed(&mut self, deadline: Instant) {
        while !self.closed && Instant::now() < deadline {
            self.start = self.end;
            if self.fill(Some(deadline)) == Fill::Timeout {
                break;
            }
        }
    }
}

/// A line's text without its `\r`.
fn text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// Bytes asked for by one read.
const READ_SIZE: usize = 16 * 1024;

/// The pipe itself, waited on with `poll(2)` and read on the calling thread.
#[cfg(target_os = "linux")]
struct Pipe {
    stdout: ChildStdout,
}

#[cfg(target_os = "linux")]
type Source = Pipe;

#[cfg(target_os = "linux")]
impl Pipe {
    fn new(stdout: ChildStdout, _program: &str) -> Result<Self, String> {
        Ok(Pipe { stdout })
    }

    /// Whether the pipe has something to read (bytes, its end or an error) by
    /// `deadline` (None: now).
    fn ready(&self, deadline: Option<Instant>) -> std::io::Result<bool> {
        use std::os::fd::AsRawFd;
        loop {
            // Past the deadline (or with none) one look without waiting, so that an
            // answer already in the pipe is still taken.
            let left = deadline.map_or(Duration::ZERO, |d| {
                d.saturating_duration_since(Instant::now())
            });
            // Whole milliseconds, rounded up: never woken before the deadline.
            let timeout = i32::try_from(left.as_nanos().div_ceil(1_000_000)).unwrap_or(i32::MAX);
            let mut poll = libc::pollfd {
                fd: self.stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd, for a descriptor this handle owns.
            match unsafe { libc::poll(&mut poll, 1, timeout) } {
                0 if left.is_zero() => return Ok(false),
                // Woken at the deadline's millisecond: the next look decides.
                0 => {}
                n if n > 0 => return Ok(true),
                _ => {
                    let e = std::io::Error::last_os_error();
                    if e.kind() != std::io::ErrorKind::Interrupted {
                        return Err(e);
                    }
                }
            }
        }
    }
}

#[cfg(target_os = "linux")]
impl Fills for Pipe {
    fn fill(&mut self, into: &mut [u8], deadline: Option<Instant>) -> Fill {
        match self.ready(deadline) {
            Ok(true) => {}
            Ok(false) => return Fill::Timeout,
            Err(_) => return Fill::Closed,
        }
        // Readable: this read does not block (this thread alone reads the pipe).
        match self.stdout.read(into) {
            Ok(0) => Fill::Closed,
            Ok(n) => Fill::Data(n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Fill::Data(0),
            Err(_) => Fill::Closed,
        }
    }
}

/// Where `poll` is not at hand: a thread reads the pipe and hands what it reads over
/// a channel, which the deadline waits on.
#[cfg(any(test, not(target_os = "linux")))]
struct Threaded {
    /// In a mutex only so that the process stays Sync (see [`Process`]).
    chunks: std::sync::Mutex<std::sync::mpsc::Receiver<Vec<u8>>>,
    /// The chunk being handed out, from `at`.
    chunk: Vec<u8>,
    at: usize,
}

#[cfg(not(target_os = "linux"))]
type Source = Threaded;

#[cfg(any(test, not(target_os = "linux")))]
impl Threaded {
    fn new(mut stdout: impl Read + Send + 'static, program: &str) -> Result<Self, String> {
        let (send, chunks) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name(format!("engine {program}"))
            .spawn(move || {
                let mut chunk = vec![0u8; READ_SIZE];
                loop {
                    match stdout.read(&mut chunk) {
                        Ok(0) => break,
                        Ok(n) => {
                            if send.send(chunk[..n].to_vec()).is_err() {
                                break;
                            }
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
            })
            .map_err(|e| format!("cannot start a thread to read engine '{program}': {e}"))?;
        Ok(Threaded {
            chunks: std::sync::Mutex::new(chunks),
            chunk: Vec::new(),
            at: 0,
        })
    }
}

#[cfg(any(test, not(target_os = "linux")))]
impl Fills for Threaded {
    fn fill(&mut self, into: &mut [u8], deadline: Option<Instant>) -> Fill {
        use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
        if self.at == self.chunk.len() {
            let chunks = self
                .chunks
                .get_mut()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let chunk = match deadline {
                None => chunks.try_recv().map_err(|e| match e {
                    TryRecvError::Empty => Fill::Timeout,
                    TryRecvError::Disconnected => Fill::Closed,
                }),
                Some(deadline) => chunks
                    .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                    .map_err(|e| match e {
                        RecvTimeoutError::Timeout => Fill::Timeout,
                        RecvTimeoutError::Disconnected => Fill::Closed,
                    }),
            };
            match chunk {
                Ok(chunk) => (self.chunk, self.at) = (chunk, 0),
                Err(fill) => return fill,
            }
        }
        let n = into.len().min(self.chunk.len() - self.at);
        into[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Fill::Data(n)
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Closing its input is how most engines are told to quit; a short grace, then
        // the whole group goes (an engine started through a shell has children). The
        // grace ends as soon as it has exited; its output closing (most often at its
        // exit) wakes the wait at once.
        drop(self.stdin.take());
        let grace = Instant::now() + Duration::from_millis(200);
        loop {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            let now = Instant::now();
            if now >= grace {
                break;
            }
            if self.output.closed {
                std::thread::sleep(Duration::from_micros(250).min(grace - now));
            } else {
                self.output
                    .wait_closed(grace.min(now + Duration::from_millis(5)));
            }
        }
        kill_group(&mut self.child);
        let _ = self.child.wait();
        // The rest of its standard error into the log, before any note after it.
        self.stderr
            .wait_end(Instant::now() + Duration::from_millis(200));
    }
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
    super::groups::ended(child.id());
    super::groups::kill(child.id());
    let _ = child.kill();
}

#[cfg(not(target_os = "linux"))]
fn kill_group(child: &mut Child) {
    super::groups::ended(child.id());
    let _ = child.kill();
}

#[cfg(test)]
#[path = "process_tests.rs"]
mod tests;
