//! The stop that drops the games in flight (a second Ctrl-C or SIGTERM): the
//! first stop lets them finish, which takes as long as their slowest player; this
//! one ends them at once. Process-wide, as the signals it answers are.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};

/// Set once the games in flight are to be dropped; shared as every driver memory's
/// [`Memory::cancel`](crate::strategy::Memory::cancel), so a search in progress stops.
pub(super) static ABANDONED: LazyLock<Arc<AtomicBool>> = LazyLock::new(Arc::default);

/// Streams in progress: only those can drop their games in flight.
static STREAMS: AtomicUsize = AtomicUsize::new(0);

/// Drops the games in flight of every stream in progress: no row is delivered
/// after this call, each stream checkpoints what it delivered and ends as
/// interrupted, a built-in player's search in progress stops at its next look at
/// the clock (its move is dropped with its game), and every engine process is killed so that its move ends now. Returns
/// false (and does nothing) when no stream is in progress, or when called before:
/// the caller then has nothing to wait for, and may quit at once.
pub fn abandon_games_in_flight() -> bool {
    if STREAMS.load(Ordering::SeqCst) == 0 || ABANDONED.swap(true, Ordering::SeqCst) {
        return false;
    }
    // After the flag: a game an engine's death ends is never delivered.
    crate::strategy::engine::groups::kill_all();
    true
}

/// A stream in progress, for as long as it lives.
pub(super) struct Streaming;

impl Streaming {
    pub(super) fn begin() -> Self {
        STREAMS.fetch_add(1, Ordering::SeqCst);
        Streaming
    }
}

impl Drop for Streaming {
    fn drop(&mut self) {
        STREAMS.fetch_sub(1, Ordering::SeqCst);
    }
}
