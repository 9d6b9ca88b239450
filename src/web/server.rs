//! The server's own accept loop on `std::net`: a thread per connection (so a client
//! that reads nothing, or a live stream, holds only its own), request heads parsed by
//! `httparse`, keep-alive as HTTP/1.1 has it, and the timeouts set on each accepted
//! socket, never on the listener (on Linux a receive timeout there bounds `accept`).
//! Past the cap on open connections a new one gets a one-line 503 and is closed.

use super::http::{Head, Reply};
use super::State;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a connection may send nothing while the server waits for a request
/// (an idle keep-alive connection is closed then).
const READ_TIMEOUT: Duration = Duration::from_secs(5);
/// How long one write may wait on a client that takes nothing.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a request's head may take from its first byte to its end, so that a
/// client trickling a byte now and then cannot hold its thread for ever.
const HEAD_DEADLINE: Duration = Duration::from_secs(10);
/// The longest request head taken (the address's own bound, 4,096 bytes, is
/// checked after, with its own message).
const LONGEST_HEAD: usize = 16 << 10;
/// The most headers a request may have.
const MOST_HEADERS: usize = 64;

/// A request's handler: the reply to send, or None when it has used the connection
/// itself (a live stream) and is done with it.
pub type Handler = fn(&State, &Head, &TcpStream) -> Option<Reply>;

/// Accepts connections until the process ends. A failed `accept` (out of file
/// descriptors, a connection reset while queued) is retried: connections wait in
/// the kernel's queue meanwhile.
pub fn run(listener: &TcpListener, state: &Arc<State>, handle: Handler) {
    loop {
        match listener.accept() {
            Ok((stream, _)) => admit(state, stream, handle),
            Err(e) => {
                if !matches!(
                    e.kind(),
                    std::io::ErrorKind::Interrupted | std::io::ErrorKind::ConnectionAborted
                ) {
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        }
    }
}

/// Gives a connection its own thread, or a 503 past the cap.
fn admit(state: &Arc<State>, stream: TcpStream, handle: Handler) {
    let _ = stream.set_nodelay(true);
    if stream.set_read_timeout(Some(READ_TIMEOUT)).is_err()
        || stream.set_write_timeout(Some(WRITE_TIMEOUT)).is_err()
    {
        return;
    }
    if state.open.fetch_add(1, Ordering::SeqCst) >= state.most_connections {
        state.open.fetch_sub(1, Ordering::SeqCst);
        return refuse(stream, state.most_connections);
    }
    let thread_state = Arc::clone(state);
    let spawned = std::thread::Builder::new()
        .name("web".into())
        .stack_size(256 * 1024)
        .spawn(move || {
            serve(&thread_state, stream, handle);
            thread_state.open.fetch_sub(1, Ordering::SeqCst);
        });
    if spawned.is_err() {
        state.open.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The 503 of a connection past the cap, sent from the accept thread: what the
/// client has sent so far is read away first and after, for a moment each, so that
/// closing leaves nothing unread (which would reset the connection, and the client
/// could lose the reply).
fn refuse(mut stream: TcpStream, most: usize) {
    let moment = Some(Duration::from_millis(50));
    let _ = stream.set_read_timeout(moment);
    let _ = stream.set_write_timeout(moment);
    let mut scrap = [0u8; 4096];
    let _ = stream.read(&mut scrap);
    let reply = Reply::error(
        503,
        &format!(
            "the server is busy ({most} connection{} open): try again in a moment",
            if most == 1 { "" } else { "s" }
        ),
    );
    let _ = stream.write_all(&reply.to_bytes(false, true));
    let _ = stream.shutdown(std::net::Shutdown::Write);
    while matches!(stream.read(&mut scrap), Ok(n) if n > 0) {}
}

/// One connection: its requests in turn until it closes, times out, or a reply
/// ends it.
fn serve(state: &State, mut stream: TcpStream, handle: Handler) {
    let mut pending = Vec::new();
    loop {
        let head = match read_head(&mut stream, &mut pending) {
            Ok(Some(head)) => head,
            Ok(None) => return,
            Err(reply) => {
                if stream.write_all(&reply.to_bytes(false, true)).is_ok() {
                    linger(stream);
                }
                return;
            }
        };
        let Some(reply) = handle(state, &head, &stream) else {
            return;
        };
        // A body is never read, so a connection that sent one cannot go on.
        let close = !head.keeps_alive() || head.has_body();
        let sent = stream.write_all(&reply.to_bytes(head.method == "HEAD", close));
        if sent.is_err() {
            return;
        }
        if close {
            return linger(stream);
        }
    }
}

/// Closes after a reply that ends the connection: the writing side first, then what
/// the client still sends (a body never read) is read away for a moment, so that
/// the close leaves nothing unread, which would reset the connection and could
/// lose the reply on its way.
fn linger(stream: TcpStream) {
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    let mut scrap = [0u8; 4096];
    let mut left: usize = 64 << 10;
    while left > 0 {
        match (&stream).read(&mut scrap) {
            Ok(n) if n > 0 => left = left.saturating_sub(n),
            _ => return,
        }
    }
}

/// Reads the next request's head; bytes after it (a next request sent early) stay
/// in `pending`. None when the connection closes or stays silent for the read
/// timeout before a request starts, or a started head takes too long (nothing is
/// sent then: the client is not listening, or is not a browser).
fn read_head(stream: &mut TcpStream, pending: &mut Vec<u8>) -> Result<Option<Head>, Reply> {
    let mut started = (!pending.is_empty()).then(Instant::now);
    let mut chunk = [0u8; 4096];
    loop {
        if !pending.is_empty() {
            let mut headers = [httparse::EMPTY_HEADER; MOST_HEADERS];
            let mut request = httparse::Request::new(&mut headers);
            match request.parse(pending) {
                // A whole head that came in one read is held to the same length.
                Ok(httparse::Status::Complete(length)) if length > LONGEST_HEAD => {
                    return Err(too_long());
                }
                Ok(httparse::Status::Complete(length)) => {
                    let head = Head {
                        method: request.method.unwrap_or_default().to_string(),
                        target: request.path.unwrap_or_default().to_string(),
                        version: request.version.unwrap_or(1),
                        headers: request
                            .headers
                            .iter()
                            .map(|h| {
                                (
                                    h.name.to_string(),
                                    String::from_utf8_lossy(h.value).into_owned(),
                                )
                            })
                            .collect(),
                    };
                    pending.drain(..length);
                    return Ok(Some(head));
                }
                Ok(httparse::Status::Partial) => {}
                Err(httparse::Error::TooManyHeaders) => {
                    return Err(Reply::error(
                        431,
                        &format!("the request has more than {MOST_HEADERS} headers"),
                    ))
                }
                Err(e) => {
                    return Err(Reply::error(
                        400,
                        &format!("malformed request ({e}): send an HTTP/1.1 request"),
                    ))
                }
            }
            if pending.len() > LONGEST_HEAD {
                return Err(too_long());
            }
        }
        if started.is_some_and(|at| at.elapsed() > HEAD_DEADLINE) {
            return Err(too_slow());
        }
        match stream.read(&mut chunk) {
            // A head begun and then left unfinished is answered, as any refusal is.
            Err(e)
                if started.is_some()
                    && matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
            {
                return Err(too_slow());
            }
            Ok(0) | Err(_) => return Ok(None),
            Ok(n) => {
                started.get_or_insert_with(Instant::now);
                pending.extend_from_slice(&chunk[..n]);
            }
        }
    }
}

fn too_long() -> Reply {
    Reply::error(
        431,
        &format!("the request's head is longer than {LONGEST_HEAD} bytes"),
    )
}

fn too_slow() -> Reply {
    Reply::error(
        408,
        "the request's head was begun and not finished in time: send it whole",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head_of(bytes: &[&[u8]]) -> (Result<Option<Head>, Reply>, Vec<u8>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (mut server, _) = listener.accept().unwrap();
        server
            .set_read_timeout(Some(Duration::from_millis(300)))
            .unwrap();
        for part in bytes {
            client.write_all(part).unwrap();
        }
        let mut pending = Vec::new();
        let head = read_head(&mut server, &mut pending);
        (head, pending)
    }

    #[test]
    fn a_head_in_pieces_is_read_whole_and_a_next_request_waits() {
        let (head, pending) = head_of(&[
            b"GET /folder?path=a HTTP/1.1\r\nHo",
            b"st: localhost\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\n",
        ]);
        let head = head.unwrap().unwrap();
        assert_eq!(
            (head.method.as_str(), head.target.as_str()),
            ("GET", "/folder?path=a")
        );
        assert_eq!(head.header("host"), Some("localhost"));
        assert!(!head.keeps_alive());
        assert_eq!(pending, b"GET / HTTP/1.1\r\n");
    }

    #[test]
    fn malformed_and_oversized_heads_are_refused_and_silence_is_no_request() {
        let (head, _) = head_of(&[b"GET / HTTP/9\r\n\r\n"]);
        assert_eq!(head.unwrap_err().status, 400);
        let big = format!("GET / HTTP/1.1\r\nX: {}\r\n", "a".repeat(LONGEST_HEAD));
        let (head, _) = head_of(&[big.as_bytes()]);
        assert_eq!(head.unwrap_err().status, 431);
        // Whole in one write, a little past the limit (it was read and answered).
        let whole = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(17_000));
        let (head, _) = head_of(&[whole.as_bytes()]);
        assert_eq!(head.unwrap_err().status, 431);
        // Begun and left unfinished past the read timeout: 408, not a silent close.
        let (head, _) = head_of(&[b"GET / HTTP/1.1\r\nHost: x\r\n"]);
        assert_eq!(head.unwrap_err().status, 408);
        let many: String = (0..=MOST_HEADERS).map(|i| format!("X{i}: 1\r\n")).collect();
        let (head, _) = head_of(&[b"GET / HTTP/1.1\r\n", many.as_bytes(), b"\r\n"]);
        assert_eq!(head.unwrap_err().status, 431);
        let (head, _) = head_of(&[]);
        assert!(head.unwrap().is_none());
    }
}
