//! Whether a request's client is still there, for the play requests that search.
//! `tiny_http` gives a request no sign that its client left, so a watcher finds the
//! request's connection among the process's sockets (by its two ends) and looks at
//! its TCP state every 0.1 s while the request is handled: once it is no longer
//! established (the client closed or reset it) the request's flag goes up, and the
//! search reads it as it reads its clock ([`crate::strategy::Memory::cancel`]).
//!
//! The TCP state, not a read, tells: `tiny_http` shuts the socket's reading side
//! itself when a keep-alive connection sends no next request within the read
//! timeout, which a read (or `poll`) could not tell from the client's close.
//! A client that half-closes after asking (rare in HTTP) counts as gone.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often the connection is looked at.
const EVERY: Duration = Duration::from_millis(100);

/// A request's connection watched while it is handled (until dropped).
pub struct Watch {
    flag: Arc<AtomicBool>,
    over: Arc<AtomicBool>,
    watcher: Option<std::thread::Thread>,
}

impl Watch {
    /// Watches the connection from `peer` to the server's `port`.
    pub fn start(peer: Option<SocketAddr>, port: u16) -> Watch {
        let flag = Arc::new(AtomicBool::new(false));
        let over = Arc::new(AtomicBool::new(false));
        let watcher = peer.and_then(|peer| {
            let (flag, over) = (Arc::clone(&flag), Arc::clone(&over));
            std::thread::Builder::new()
                .name("web-watch".into())
                .stack_size(64 * 1024)
                .spawn(move || watch(peer, port, &flag, &over))
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

#[cfg(target_os = "linux")]
fn watch(peer: SocketAddr, port: u16, flag: &AtomicBool, over: &AtomicBool) {
    let Some(socket) = linux::connection(peer, port) else {
        return;
    };
    while !over.load(Ordering::Relaxed) {
        if !linux::established(&socket) {
            flag.store(true, Ordering::Relaxed);
            return;
        }
        std::thread::park_timeout(EVERY);
    }
}

#[cfg(not(target_os = "linux"))]
fn watch(_peer: SocketAddr, _port: u16, _flag: &AtomicBool, _over: &AtomicBool) {}

#[cfg(target_os = "linux")]
mod linux {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

    /// A copy of the descriptor of the connection from `peer` to local `port`
    /// (a copy, so that it stays this socket whatever the server closes meanwhile).
    pub fn connection(peer: SocketAddr, port: u16) -> Option<OwnedFd> {
        let ends = |fd: RawFd| {
            address(fd, libc::getpeername) == Some(peer)
                && address(fd, libc::getsockname).map(|a| a.port()) == Some(port)
        };
        for entry in std::fs::read_dir("/proc/self/fd").ok()?.flatten() {
            let Some(fd) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
                continue;
            };
            if !ends(fd) {
                continue;
            }
            // SAFETY: F_DUPFD_CLOEXEC on any number; a new descriptor or -1.
            let copy = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
            if copy < 0 {
                continue;
            }
            // SAFETY: `copy` is a descriptor of our own, owned from here on.
            let copy = unsafe { OwnedFd::from_raw_fd(copy) };
            // The number may have been closed and given to another between the look
            // and the copy: the copy's ends say.
            if ends(copy.as_raw_fd()) {
                return Some(copy);
            }
        }
        None
    }

    type Name =
        unsafe extern "C" fn(libc::c_int, *mut libc::sockaddr, *mut libc::socklen_t) -> libc::c_int;

    /// One end of a socket (`getpeername` or `getsockname`); None for what is not
    /// an IP socket.
    fn address(fd: RawFd, name: Name) -> Option<SocketAddr> {
        // SAFETY: all zeros is a valid sockaddr_storage.
        let mut storage: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
        let mut len = std::mem::size_of::<libc::sockaddr_storage>() as libc::socklen_t;
        // SAFETY: a buffer of the length given.
        let done = unsafe { name(fd, std::ptr::addr_of_mut!(storage).cast(), &mut len) };
        if done != 0 {
            return None;
        }
        match libc::c_int::from(storage.ss_family) {
            libc::AF_INET => {
                // SAFETY: the family says it is a sockaddr_in.
                let a: libc::sockaddr_in = unsafe {
                    std::ptr::addr_of!(storage)
                        .cast::<libc::sockaddr_in>()
                        .read()
                };
                let ip = Ipv4Addr::from(u32::from_be(a.sin_addr.s_addr));
                Some(SocketAddr::new(IpAddr::V4(ip), u16::from_be(a.sin_port)))
            }
            libc::AF_INET6 => {
                // SAFETY: the family says it is a sockaddr_in6.
                let a: libc::sockaddr_in6 = unsafe {
                    std::ptr::addr_of!(storage)
                        .cast::<libc::sockaddr_in6>()
                        .read()
                };
                let ip = Ipv6Addr::from(a.sin6_addr.s6_addr);
                Some(SocketAddr::new(IpAddr::V6(ip), u16::from_be(a.sin6_port)))
            }
            _ => None,
        }
    }

    /// Whether the connection is still established (the client has neither closed
    /// nor reset it). `tcpi_state` is the first byte of `struct tcp_info`.
    pub fn established(socket: &OwnedFd) -> bool {
        const TCP_ESTABLISHED: u8 = 1;
        let mut info = [0u8; 8];
        let mut len = info.len() as libc::socklen_t;
        // SAFETY: a buffer of the length given; the kernel copies at most that.
        let done = unsafe {
            libc::getsockopt(
                socket.as_raw_fd(),
                libc::IPPROTO_TCP,
                libc::TCP_INFO,
                info.as_mut_ptr().cast(),
                &mut len,
            )
        };
        done != 0 || info[0] == TCP_ESTABLISHED
    }
}
