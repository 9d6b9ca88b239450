//! Every engine process group alive in this process, so that a stop that drops the
//! games in flight (a second Ctrl-C or SIGTERM) can end their moves at once: no
//! protocol can cancel a move an engine is thinking about, but its process can be
//! killed, and the game it was playing then ends as a crash the stop drops.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The process group ids of the engines started and not yet killed.
static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Set by [`kill_all`]: an engine that starts afterwards is killed as it starts,
/// so that a start-up in progress at the stop cannot outlive it.
static CLOSED: AtomicBool = AtomicBool::new(false);

fn live() -> std::sync::MutexGuard<'static, Vec<u32>> {
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// An engine's process group started (its leader's pid); false if [`kill_all`] has
/// been called, and the caller must kill it.
pub(super) fn started(pid: u32) -> bool {
    let mut live = live();
    // Read under the lock kill_all takes: no group slips between its flag and its kills.
    if CLOSED.load(Ordering::SeqCst) {
        return false;
    }
    live.push(pid);
    true
}

/// The group is being killed and reaped by its owner (its pid is about to be free).
pub(super) fn ended(pid: u32) {
    live().retain(|&p| p != pid);
}

/// Kills every engine process group alive, and every one started from now on. For
/// a process that is ending its games at once; the games those engines were
/// playing end as crashes.
pub fn kill_all() {
    let mut live = live();
    CLOSED.store(true, Ordering::SeqCst);
    for pid in live.drain(..) {
        kill(pid);
    }
}

/// SIGKILL to the group `pid` leads (the owner still holds the unreaped leader, so
/// the id cannot have been reused).
pub(super) fn kill(pid: u32) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill with a negative pid signals the process group the engine leads.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}
