//! Long calls (`match`, `run`) play on another thread with the interpreter lock
//! released, while the calling thread wakes a few times a second to report progress
//! and to notice Ctrl-C, which Python delivers only to the main thread.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

/// How often the waiting thread looks at signals and progress.
const POLL: Duration = Duration::from_millis(100);

/// Shared between the work and the waiting thread.
pub struct Watch {
    /// Set on Ctrl-C (or when the progress callback fails): the work stops after
    /// the games in flight, as the CLI does on Ctrl-C.
    pub stop: AtomicBool,
    /// Games done so far, for the progress callback.
    pub done: AtomicU64,
    /// Games in all.
    total: u64,
}

impl Watch {
    /// Nothing done yet of `total` games.
    #[must_use]
    pub fn new(total: u64) -> Self {
        Watch {
            stop: AtomicBool::new(false),
            done: AtomicU64::new(0),
            total,
        }
    }
}

/// Runs `work` on a new thread without the interpreter lock, calling `progress`
/// (if any) with the games done and the total every [`POLL`] and at the end. After a Ctrl-C, or an
/// error in `progress`, `work` is told to stop; once it has, that error is returned.
pub fn in_background<T: Send>(
    py: Python<'_>,
    watch: &Watch,
    progress: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (finished, wait) = mpsc::channel::<()>();
        let handle = scope.spawn(move || {
            let value = work();
            let _ = finished.send(());
            value
        });
        // Detached code must be shareable between threads, a receiver alone is not.
        let wait = Mutex::new(wait);
        let mut failure: Option<PyErr> = None;
        loop {
            let over = py.detach(|| {
                let wait = wait
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                !matches!(
                    wait.recv_timeout(POLL),
                    Err(mpsc::RecvTimeoutError::Timeout)
                )
            });
            if failure.is_none() {
                let checked = py.check_signals().and_then(|()| match progress {
                    Some(callback) => callback
                        .call1((watch.done.load(Ordering::Relaxed), watch.total))
                        .map(drop),
                    None => Ok(()),
                });
                if let Err(error) = checked {
                    watch.stop.store(true, Ordering::Relaxed);
                    failure = Some(error);
                }
            }
            if over {
                break;
            }
        }
        // Joined without the lock: a thread that called Python lets its kept thread
        // state go as it ends, which takes the lock.
        let joined = py.detach(|| handle.join());
        let value = match joined {
            Ok(value) => value,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        match failure {
            Some(error) => Err(error),
            None => Ok(value),
        }
    })
}
