//! An engine's standard error: read by a thread of its own into the engine's log, held
//! to a size (its head and its tail kept, what was cut said), with its last lines kept
//! for the messages that say why an engine failed.
//!
//! The log on disk is always whole up to the moment: the head is written once, and
//! once the part after it passes twice [`LOG_TAIL`], the file is cut back to the head,
//! a line saying how much was cut, and the last [`LOG_TAIL`] bytes. A `kill -9` of
//! reversi-lab therefore loses nothing the cap would have kept.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The first bytes of an engine's log kept whole.
pub const LOG_HEAD: u64 = 1024 * 1024;
/// The last bytes of an engine's log kept whole (the file holds at most the head, a
/// line on what was cut and twice this).
pub const LOG_TAIL: usize = 1024 * 1024;
/// How many of its last lines a message quotes, and how long each may be.
const QUOTED_LINES: usize = 3;
const QUOTED_CHARS: usize = 200;

/// Where an engine's standard error goes, shared by the thread reading it and
/// reversi-lab's own notes (`reversi-lab: ...` lines), so that both count to the cap.
#[derive(Debug)]
pub struct Sink {
    file: Option<File>,
    head: u64,
    tail: LogTail,
    /// The last lines of the engine's own output, and the one being written.
    lines: VecDeque<String>,
    partial: String,
}

/// The log past its head: what is in the file after the head (and after the line on
/// what was cut), and how much was cut in all.
#[derive(Debug, Default)]
struct LogTail {
    recent: Vec<u8>,
    cut: u64,
}

impl Sink {
    fn new(file: Option<File>) -> Self {
        Sink {
            file,
            head: 0,
            tail: LogTail::default(),
            lines: VecDeque::new(),
            partial: String::new(),
        }
    }

    /// Writes `bytes` to the log, cut to its cap.
    fn log(&mut self, mut bytes: &[u8]) {
        let Some(file) = &mut self.file else { return };
        if self.head < LOG_HEAD {
            let n = bytes
                .len()
                .min(usize::try_from(LOG_HEAD - self.head).unwrap_or(usize::MAX));
            let _ = file.write_all(&bytes[..n]);
            self.head += n as u64;
            bytes = &bytes[n..];
        }
        if bytes.is_empty() {
            return;
        }
        let _ = file.write_all(bytes);
        let tail = &mut self.tail;
        tail.recent.extend_from_slice(bytes);
        if tail.recent.len() > 2 * LOG_TAIL {
            let cut = tail.recent.len() - LOG_TAIL;
            tail.recent.drain(..cut);
            tail.cut += cut as u64;
            // The file is opened to append: after the cut, writes go to its new end.
            let note = format!(
                "\nreversi-lab: {} bytes of this log cut here (a log keeps its first {} and its last {} bytes)\n",
                tail.cut, LOG_HEAD, LOG_TAIL
            );
            if file.set_len(self.head).is_ok() {
                let _ = file.write_all(note.as_bytes());
                let _ = file.write_all(&tail.recent);
            }
        }
    }

    /// The engine's own output: logged, and its lines kept for messages.
    fn engine_wrote(&mut self, bytes: &[u8]) {
        self.log(bytes);
        for piece in String::from_utf8_lossy(bytes).split_inclusive('\n') {
            let text = piece.trim_end_matches(['\n', '\r']);
            let room = QUOTED_CHARS.saturating_sub(self.partial.chars().count());
            self.partial.extend(text.chars().take(room));
            if piece.ends_with('\n') {
                self.end_line();
            }
        }
    }

    fn end_line(&mut self) {
        let line = std::mem::take(&mut self.partial);
        let line = line.trim();
        if !line.is_empty() {
            if self.lines.len() == QUOTED_LINES {
                self.lines.pop_front();
            }
            self.lines
                .push_back(line.chars().take(QUOTED_CHARS).collect());
        }
    }
}

/// The thread reading an engine's standard error, and what it has read.
pub struct Stderr {
    sink: Arc<Mutex<Sink>>,
    /// Disconnected once the thread has read the end of the pipe.
    done: Mutex<Receiver<()>>,
}

impl std::fmt::Debug for Stderr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stderr").finish_non_exhaustive()
    }
}

impl Stderr {
    /// Reads `pipe` on a thread of its own into `log` (None: only its last lines kept).
    pub fn start(
        pipe: impl Read + Send + 'static,
        log: Option<File>,
        program: &str,
    ) -> Result<Self, String> {
        let sink = Arc::new(Mutex::new(Sink::new(log)));
        let (send, done) = std::sync::mpsc::channel::<()>();
        let shared = Arc::clone(&sink);
        std::thread::Builder::new()
            .name(format!("engine {program} stderr"))
            .spawn(move || {
                let _done = send;
                let mut pipe = pipe;
                let mut chunk = vec![0u8; 16 * 1024];
                loop {
                    match pipe.read(&mut chunk) {
                        Ok(0) => break,
                        Ok(n) => lock(&shared).engine_wrote(&chunk[..n]),
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
                lock(&shared).end_line();
            })
            .map_err(|e| format!("cannot start a thread to read engine '{program}': {e}"))?;
        Ok(Stderr {
            sink,
            done: Mutex::new(done),
        })
    }

    /// A line of reversi-lab's own in the log (`reversi-lab: TEXT`).
    pub fn note(&self, text: &str) {
        lock(&self.sink).log(format!("reversi-lab: {text}\n").as_bytes());
    }

    /// Waits until `deadline` at most for the engine's standard error to end (the
    /// engine and its children gone); true if it did.
    pub fn wait_end(&self, deadline: Instant) -> bool {
        let done = self.done.lock().unwrap_or_else(PoisonError::into_inner);
        matches!(
            done.recv_timeout(deadline.saturating_duration_since(Instant::now())),
            Err(RecvTimeoutError::Disconnected)
        )
    }

    /// Its last lines, for a message: `; its standard error ends 'A' | 'B'`, or
    /// nothing when it wrote none.
    #[must_use]
    pub fn last_words(&self) -> String {
        let sink = lock(&self.sink);
        let mut lines: Vec<&str> = sink.lines.iter().map(String::as_str).collect();
        if !sink.partial.trim().is_empty() {
            lines.push(sink.partial.trim());
        }
        let lines = &lines[lines.len().saturating_sub(QUOTED_LINES)..];
        if lines.is_empty() {
            String::new()
        } else {
            format!("; its standard error ends '{}'", lines.join(" | "))
        }
    }
}

fn lock(sink: &Mutex<Sink>) -> std::sync::MutexGuard<'_, Sink> {
    sink.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How long a message waits for the standard error of an engine that has ended.
pub const LAST_WORDS_WAIT: Duration = Duration::from_millis(500);

#[cfg(test)]
mod tests {
    use super::*;

    fn sink_at(path: &std::path::Path) -> Sink {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        Sink::new(Some(file))
    }

    #[test]
    fn a_log_keeps_its_head_and_its_tail_and_says_what_was_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("e.log");
        let mut sink = sink_at(&path);
        let line = |i: u64| format!("line {i:09} of a chatty engine\n");
        let mut written = 0u64;
        let mut i = 0;
        while written < 8 * LOG_HEAD {
            let text = line(i);
            sink.engine_wrote(text.as_bytes());
            written += text.len() as u64;
            i += 1;
            // Never more than the head, the note and twice the tail.
            if i % 10_000 == 0 {
                let size = std::fs::metadata(&path).unwrap().len();
                assert!(size <= LOG_HEAD + 200 + 2 * LOG_TAIL as u64, "{size}");
            }
        }
        let note = "reversi-lab: crash after 3 moves\n";
        sink.log(note.as_bytes());
        written += note.len() as u64;
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&line(0)), "the head is kept");
        assert!(text.ends_with(&format!(
            "{}reversi-lab: crash after 3 moves\n",
            line(i - 1)
        )));
        let cut = text
            .lines()
            .find(|l| l.starts_with("reversi-lab: ") && l.contains("cut here"))
            .expect("the cut is said");
        let bytes: u64 = cut.split_whitespace().nth(1).unwrap().parse().unwrap();
        // What is in the file and what was cut make up all that was written.
        let said = cut.len() as u64 + 2;
        assert_eq!(text.len() as u64 - said + bytes, written);
        assert!(text.len() as u64 >= LOG_HEAD + LOG_TAIL as u64);
    }

    #[test]
    fn the_last_lines_are_kept_short() {
        let mut sink = Sink::new(None);
        sink.engine_wrote(b"one\n\ntwo\nthree\r\nfour");
        sink.engine_wrote(&[b'x'; 5000]);
        assert_eq!(sink.lines, ["one", "two", "three"]);
        assert_eq!(sink.partial.len(), QUOTED_CHARS);
        assert!(sink.partial.starts_with("fourxxx"));
        sink.end_line();
        assert_eq!(sink.lines.len(), QUOTED_LINES);
        assert_eq!(sink.lines[0], "two");
    }
}
