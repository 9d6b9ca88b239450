//! The driver's plan of which games the workers take next: batches sized to their
//! games' cost, held a bounded distance ahead of the in-order writer.

use std::ops::Range;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Which games the workers take next: batches of consecutive games, as many as keep
/// a batch near [`BATCH_TIME`] (at most [`MAX_BATCH`]), never more than [`AHEAD`]
/// games past the writer, so that the rows in flight stay in a few reused megabytes.
pub(super) struct Plan {
    state: Mutex<PlanState>,
    moved: Condvar,
}

struct PlanState {
    next: u64,
    end: u64,
    /// The next game the writer will deliver.
    delivered: u64,
    /// Games a batch holds now: one until a game's cost is known.
    size: u64,
    threads: u64,
}

/// The most games in a batch: some 16 a worker at most, so that a run of costly
/// games still spreads over every worker.
const MAX_BATCH: u64 = 64;

/// About how long a batch should play: short enough that a row reaches the writer
/// soon after its game ends, long enough that claiming costs nothing.
const BATCH_TIME: Duration = Duration::from_millis(20);

/// The most games scheduled past the writer's next one.
const AHEAD: u64 = 1 << 13;

impl Plan {
    pub(super) fn new(games: Range<u64>, threads: usize) -> Self {
        Plan {
            state: Mutex::new(PlanState {
                next: games.start,
                end: games.end,
                delivered: games.start,
                size: 1,
                threads: threads as u64,
            }),
            moved: Condvar::new(),
        }
    }

    /// The next batch to play, or None once every game is taken or `halted`; waits
    /// while the workers are [`AHEAD`] games past the writer.
    pub(super) fn claim(&self, halted: &impl Fn() -> bool) -> Option<Range<u64>> {
        let mut state = lock(&self.state);
        loop {
            if halted() || state.next >= state.end {
                return None;
            }
            if state.next < state.delivered + AHEAD {
                break;
            }
            // A timeout too, so that a stop is seen even if no wake-up comes.
            state = self
                .moved
                .wait_timeout(state, Duration::from_millis(50))
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
        // Near the end, smaller batches keep the wait for the last one short.
        let left = state.end - state.next;
        let size = state.size.min(left.div_ceil(4 * state.threads)).max(1);
        let claim = state.next..state.next + size;
        state.next = claim.end;
        Some(claim)
    }

    /// A batch of `games` games took `nanos` to play: the next batches hold as many
    /// as would take [`BATCH_TIME`] at that pace.
    pub(super) fn timed(&self, nanos: u64, games: u64) {
        if let Some(per_game) = nanos.checked_div(games) {
            lock(&self.state).size =
                (BATCH_TIME.as_nanos() as u64 / per_game.max(1)).clamp(1, MAX_BATCH);
        }
    }

    /// Waits until the writer has delivered every game before `end`, or `halted`.
    pub(super) fn wait_delivered(&self, end: u64, halted: &impl Fn() -> bool) {
        let mut state = lock(&self.state);
        while state.delivered < end && !halted() {
            state = self
                .moved
                .wait_timeout(state, Duration::from_millis(50))
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
    }

    /// The writer has delivered every game before `next`.
    pub(super) fn delivered(&self, next: u64) {
        lock(&self.state).delivered = next;
        self.moved.notify_all();
    }

    /// Wakes the workers waiting for room (the stream has stopped).
    pub(super) fn wake(&self) {
        self.moved.notify_all();
    }
}

/// The lock, whether or not a thread panicked holding it (what it guards stays whole).
pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
