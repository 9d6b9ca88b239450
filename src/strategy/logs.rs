//! Where a player's logs go (an external engine's standard error, a Python worker's):
//! the strategy layer names none and opens none itself. Whoever holds the results
//! folder hands a [`LogFolder`] down through [`Strategy::attach`](super::Strategy::attach)
//! (the lab's opens each log through its one write path), and a player asks it for its
//! playing thread's log when it starts a process.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A folder of players' logs, opened by the layer that owns it.
pub trait LogFolder: Send + Sync {
    /// Where the log of `player`'s playing thread `worker` is (0: a thread of no pool).
    fn path(&self, player: &str, worker: usize) -> PathBuf;
    /// That log opened to add to its end, made if it is not there.
    fn open(&self, path: &Path) -> std::io::Result<File>;
}

/// One player's logs: the folder that keeps them and the player's name.
#[derive(Clone)]
pub struct Logs {
    folder: Arc<dyn LogFolder>,
    player: String,
}

impl std::fmt::Debug for Logs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Logs")
            .field("player", &self.player)
            .finish()
    }
}

impl Logs {
    /// `player`'s logs in `folder`.
    pub fn new(folder: Arc<dyn LogFolder>, player: impl Into<String>) -> Self {
        Logs {
            folder,
            player: player.into(),
        }
    }

    /// The calling playing thread's log, opened, or why it cannot be (in one line).
    pub fn open(&self) -> Result<File, String> {
        let worker = rayon::current_thread_index().map_or(0, |w| w + 1);
        let path = self.folder.path(&self.player, worker);
        self.folder
            .open(&path)
            .map_err(|e| format!("cannot write the engine log {}: {e}", path.display()))
    }
}
