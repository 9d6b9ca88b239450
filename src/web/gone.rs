//! Whether a request's client is still there: a play request that searches and a
//! live stream look at their own connection, and stop once the client has closed
//! or reset it. A look peeks at the socket without waiting and without taking
//! anything from it (a next request the client sent early stays to be read).
//! A client that half-closes after asking (rare in HTTP) counts as gone.

use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often a searching request's connection is looked at.
const EVERY: Duration = Duration::from_millis(100);

/// Whether the client has closed or reset the connection: its end of the stream
/// has been read (a peek gives 0 bytes), or the socket has an error.
#[cfg(target_os = "linux")]
pub fn left(stream: &TcpStream) -> bool {
    use std::os::fd::AsRawFd;
    let mut byte = 0u8;
    // SAFETY: a valid socket and a buffer of the one byte given; MSG_PEEK takes
    // nothing from the socket and MSG_DONTWAIT never blocks, whatever its flags.
    let got = unsafe {
        libc::recv(
            stream.as_raw_fd(),
            std::ptr::addr_of_mut!(byte).cast(),
            1,
            libc::MSG_PEEK | libc::MSG_DONTWAIT,
        )
    };
    match got {
        0 => true,
        n if n > 0 => false,
        _ => !matches!(
            std::io::Error::last_os_error().kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
        ),
    }
}

/// Elsewhere a client's leaving is seen only when a write to it fails.
#[cfg(not(target_os = "linux"))]
pub fn left(_stream: &TcpStream) -> bool {
    false
}

/// A request's connection watched while it is handled (until dropped): a thread
/// looks every [`EVERY`] and raises the flag once the client has gone; the search
/// reads the flag as it reads its clock ([`crate::strategy::Memory::cancel`]).
pub struct Watch {
    flag: Arc<AtomicBool>,
    over: Arc<AtomicBool>,
    watcher: Option<std::thread::Thread>,
}

impl Watch {
    /// Watches `stream` (a copy of its descriptor, so that the look is of this socket).
    pub fn start(stream: &TcpStream) -> Watch {
        let flag = Arc::new(AtomicBool::new(false));
        let over = Arc::new(AtomicBool::new(false));
        let watcher = stream.try_clone().ok().and_then(|socket| {
            let (flag, over) = (Arc::clone(&flag), Arc::clone(&over));
            std::thread::Builder::new()
                .name("web-watch".into())
                .stack_size(64 * 1024)
                .spawn(move || {
                    while !over.load(Ordering::Relaxed) {
                        if left(&socket) {
                            flag.store(true, Ordering::Relaxed);
                            return;
                        }
                        std::thread::park_timeout(EVERY);
                    }
                })
                .ok()
                .map(|handle| handle.thread().clone())
        });
        Watch {
            flag,
            over,
            watcher,
        }
    }

    /// Raised once the client has gone.
    pub fn flag(&self) -> &Arc<AtomicBool> {
        &self.flag
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.over.store(true, Ordering::Relaxed);
        if let Some(watcher) = &self.watcher {
            watcher.unpark();
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    #[test]
    fn a_peer_that_closes_is_seen_and_one_that_asks_again_is_not() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        assert!(!left(&server), "connected, silent");
        client.write_all(b"GET / HTTP/1.1\r\n").unwrap();
        std::thread::sleep(Duration::from_millis(50));
        assert!(!left(&server), "a next request waiting");
        let mut taken = [0u8; 16];
        (&server).read_exact(&mut taken).unwrap();
        assert_eq!(&taken, b"GET / HTTP/1.1\r\n", "the peek took nothing");
        let watch = Watch::start(&server);
        drop(client);
        let mut waited = Duration::ZERO;
        while !watch.flag().load(Ordering::Relaxed) && waited < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
            waited += Duration::from_millis(20);
        }
        assert!(watch.flag().load(Ordering::Relaxed), "closed: seen");
        assert!(left(&server));
    }
}
