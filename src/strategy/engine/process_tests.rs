//! The engine process's line reading, deadlines and end, on scripted output and real processes.
use super::*;
use std::collections::VecDeque;

/// Output arriving in the chunks given, then the end (or a stall, if `open`).
struct Script {
    chunks: VecDeque<Vec<u8>>,
    open: bool,
}

impl Fills for Script {
    fn fill(&mut self, into: &mut [u8], _deadline: Option<Instant>) -> Fill {
        match self.chunks.pop_front() {
            Some(chunk) => {
                into[..chunk.len()].copy_from_slice(&chunk);
                Fill::Data(chunk.len())
            }
            None if self.open => Fill::Timeout,
            None => Fill::Closed,
        }
    }
}

fn output(chunks: &[&[u8]], open: bool) -> Output<Script> {
    Output::new(Script {
        chunks: chunks.iter().map(|c| c.to_vec()).collect(),
        open,
    })
}

fn soon() -> Instant {
    Instant::now() + Duration::from_secs(5)
}

#[test]
fn lines_across_chunks_without_their_line_ends() {
    let mut out = output(&[b"= a\r\n\r", b"\n=1 b", b"c\n\nlast"], false);
    for expected in ["= a", "", "=1 bc", "", "last"] {
        assert_eq!(out.line(soon()).as_deref(), Ok(expected));
    }
    assert_eq!(out.line(soon()), Err(Ended::Closed));
    assert_eq!(out.line(soon()), Err(Ended::Closed));
}

#[test]
fn lines_longer_than_a_read_and_many_reads_of_short_ones() {
    let long = "x".repeat(3 * READ_SIZE + 5);
    let text = format!("= a\n{long}\n= b\n");
    let mut chunks: Vec<&[u8]> = text.as_bytes().chunks(READ_SIZE - 7).collect();
    let short = "=12345 short line\n".repeat(5000);
    chunks.extend(short.as_bytes().chunks(1000));
    let mut out = output(&chunks, false);
    assert_eq!(out.line(soon()).as_deref(), Ok("= a"));
    assert_eq!(out.line(soon()).as_deref(), Ok(long.as_str()));
    assert_eq!(out.line(soon()).as_deref(), Ok("= b"));
    for _ in 0..5000 {
        assert_eq!(out.line(soon()).as_deref(), Ok("=12345 short line"));
    }
    assert_eq!(out.line(soon()), Err(Ended::Closed));
    assert!(out.buffer.len() <= 5 * READ_SIZE, "{}", out.buffer.len());
}

#[test]
fn a_line_past_the_cap_is_refused_and_its_memory_freed() {
    let long = vec![b'x'; 3 * MAX_LINE];
    let mut chunks: Vec<&[u8]> = long.chunks(READ_SIZE).collect();
    chunks.push(b"\n= after\n");
    let mut out = output(&chunks, false);
    assert_eq!(out.line(soon()), Err(Ended::TooLong));
    assert!(
        out.buffer.len() <= MAX_LINE + 2 * READ_SIZE,
        "{}",
        out.buffer.len()
    );
    let mut out = output(&[b"= short\n"], false);
    assert_eq!(out.line(soon()).as_deref(), Ok("= short"));
}

#[test]
fn bytes_that_are_not_utf8_are_replaced() {
    let mut out = output(&[b"= \xff\n"], false);
    assert_eq!(out.line(soon()).as_deref(), Ok("= \u{fffd}"));
}

#[test]
fn a_stall_and_a_passed_deadline() {
    let mut out = output(&[b"= partial"], true);
    assert_eq!(out.line(soon()), Err(Ended::Timeout));
    let past = Instant::now() - Duration::from_millis(1);
    assert_eq!(out.line(past), Err(Ended::Timeout));
}

#[test]
fn drain_drops_whole_lines_and_keeps_one_being_written() {
    let mut out = output(&[b"=1 old\n\n", b"=2 late\n\n=3 ha", b"lf"], true);
    out.drain();
    out.source.chunks.push_back(b"\n".to_vec());
    assert_eq!(out.line(soon()).as_deref(), Ok("=3 half"));
}

#[test]
fn the_threaded_source_reads_lines_too() {
    let bytes: &[u8] = b"= one\r\n\nlast";
    let mut out = Output::new(Threaded::new(bytes, "test").unwrap());
    for expected in ["= one", "", "last"] {
        assert_eq!(out.line(soon()).as_deref(), Ok(expected));
    }
    assert_eq!(out.line(soon()), Err(Ended::Closed));
    let (send, receive) = std::sync::mpsc::channel::<Vec<u8>>();
    let mut out = Output::new(Threaded {
        chunks: std::sync::Mutex::new(receive),
        chunk: Vec::new(),
        at: 0,
    });
    let by = Instant::now() + Duration::from_millis(20);
    assert_eq!(out.line(by), Err(Ended::Timeout));
    drop(send);
}

fn sh(script: &str) -> Process {
    Process::start(&Launch {
        command: vec!["sh".into(), "-c".into(), script.into()],
        dir: None,
        env: Vec::new(),
        log: None,
    })
    .unwrap()
}

#[test]
fn a_process_answers_stalls_and_ends() {
    let mut process = sh("read line; echo \"got $line\"; exec sleep 30");
    process.send("hello").unwrap();
    assert_eq!(process.line(soon()).as_deref(), Ok("got hello"));
    let clock = Instant::now();
    let stalled = process.line(Instant::now() + Duration::from_millis(50));
    assert!(matches!(stalled, Err(Failure::Stalled(_))), "{stalled:?}");
    let waited = clock.elapsed();
    assert!(waited >= Duration::from_millis(50), "{waited:?}");
    assert!(waited < Duration::from_secs(2), "{waited:?}");
    // It does not quit when its input closes: the grace, then the group is killed.
    let clock = Instant::now();
    drop(process);
    assert!(clock.elapsed() < Duration::from_secs(2));

    let mut process = sh("printf 'a\\r\\nb'");
    assert_eq!(process.line(soon()).as_deref(), Ok("a"));
    assert_eq!(process.line(soon()).as_deref(), Ok("b"));
    let ended = process.line(soon());
    assert!(matches!(ended, Err(Failure::Crashed(_))), "{ended:?}");
}

#[test]
fn a_process_that_quits_at_the_end_of_its_input_is_not_kept_waiting() {
    let process = sh("cat");
    let clock = Instant::now();
    drop(process);
    // Far under the 200 ms grace: its output closing wakes the wait.
    assert!(
        clock.elapsed() < Duration::from_millis(150),
        "{:?}",
        clock.elapsed()
    );
}
