//! The one fault path: how `run` and `match` account for games lost by a fault (an
//! engine that crashed, stalled or answered garbage), and when a player that keeps
//! faulting is taken as broken and play stops.

use crate::board::{Color, Geometry};
use crate::game::{Game, Termination};
use crate::setting::Said;
use std::path::{Path, PathBuf};

/// Faults in a row after which a player is taken as broken and play stops.
pub const MAX_FAULTS_IN_A_ROW: u32 = 3;

/// The player (by index) that lost `game` by a fault, and how, given who sat where
/// (`seats`: black's and white's indices). A loss on time is a result, not a fault.
#[must_use]
pub fn at_fault<G: Geometry>(game: &Game<G>, seats: [usize; 2]) -> Option<(usize, Termination)> {
    game.forfeited()
        .filter(|f| f.termination.is_fault())
        .map(|f| (seats[usize::from(f.loser == Color::White)], f.termination))
}

/// Makes `folder/engines`, where external engines write their logs, before any game:
/// a folder that cannot hold them is the user's to change (`fix` says how), not a crash
/// of every engine at its first write.
pub fn prepare_logs(folder: &Path, fix: crate::setting::Said) -> crate::error::Result<()> {
    let engines = crate::lab::ResultsFolder::at(folder).path(crate::lab::FolderFile::EngineLogs);
    std::fs::create_dir_all(&engines).map_err(|e| {
        crate::error::Error::said(
            crate::setting::Said::text(format!(
                "cannot keep engine logs in {}: {e}; ",
                engines.display()
            ))
            .and(fix),
        )
    })?;
    // Logs are appended to (a resume, a `match --logs` folder used again): a line
    // marks where this session's part begins, so that old faults are not read as new.
    let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now());
    for entry in std::fs::read_dir(&engines).into_iter().flatten().flatten() {
        let path = entry.path();
        let written = entry.metadata().is_ok_and(|m| m.is_file() && m.len() > 0);
        if written && path.extension().is_some_and(|e| e == "log") {
            if let Ok(mut file) = crate::lab::folder::append_existing(&path) {
                use std::io::Write as _;
                let _ = writeln!(
                    file,
                    "reversi-lab: ---- a new session starts here ({now}); the lines above are an earlier one's ----"
                );
            }
        }
    }
    Ok(())
}

/// The engines' logs of a results folder (`engines/<player>-<worker>.log`), each opened
/// through the one write path: what a player that keeps a log is handed.
struct EngineLogs {
    engines: PathBuf,
}

impl crate::strategy::logs::LogFolder for EngineLogs {
    fn path(&self, player: &str, worker: usize) -> PathBuf {
        self.engines.join(log_name(player, &worker.to_string()))
    }

    fn open(&self, path: &Path) -> std::io::Result<std::fs::File> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        crate::lab::folder::append(path)
    }
}

/// The logs of `player` in the results folder `folder`.
#[must_use]
pub fn logs_in(folder: &Path, player: &str) -> crate::strategy::logs::Logs {
    let engines = crate::lab::ResultsFolder::at(folder).path(crate::lab::FolderFile::EngineLogs);
    crate::strategy::logs::Logs::new(std::sync::Arc::new(EngineLogs { engines }), player)
}

/// A log's file name: `<player>-<worker>.log` (`*` for every worker's).
fn log_name(player: &str, worker: &str) -> String {
    format!("{player}-{worker}.log")
}

/// Faults in a row per player, over the games in the order they are recorded.
#[derive(Clone, Debug)]
pub struct FaultWatch {
    in_a_row: Vec<(u32, Termination)>,
}

impl FaultWatch {
    /// A watch over `players` players, none at fault yet.
    #[must_use]
    pub fn new(players: usize) -> Self {
        FaultWatch {
            in_a_row: vec![(0, Termination::Normal); players],
        }
    }

    /// Records a game between `seats` (black's and white's indices) that `fault` (from
    /// [`at_fault`]) says who lost by a fault, if anyone. Returns the player now broken
    /// and its last fault: play stops there.
    pub fn record(
        &mut self,
        seats: [usize; 2],
        fault: Option<(usize, Termination)>,
    ) -> Option<(usize, Termination)> {
        let mut broken = None;
        for seat in seats {
            let count = &mut self.in_a_row[seat];
            match fault {
                Some((player, termination)) if player == seat => {
                    *count = (count.0 + 1, termination)
                }
                _ => count.0 = 0,
            }
            if count.0 >= MAX_FAULTS_IN_A_ROW {
                broken = broken.or(Some((seat, count.1)));
            }
        }
        broken
    }
}

/// A player that lost [`MAX_FAULTS_IN_A_ROW`] games in a row by a fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// The player's name.
    pub player: String,
    /// How it lost its last game.
    pub last: Termination,
    /// Where its engine's logs are (`engines/<player>-*.log` there); None for a player
    /// that keeps none (see `Strategy::keeps_log`).
    pub logs: Option<PathBuf>,
}

impl Broken {
    /// A broken player whose logs are under `folder`, if it keeps any.
    #[must_use]
    pub fn new(player: &str, last: Termination, folder: Option<&Path>) -> Self {
        Broken {
            player: player.to_string(),
            last,
            logs: folder.map(|folder| {
                crate::lab::ResultsFolder::at(folder).path(crate::lab::FolderFile::EngineLogs)
            }),
        }
    }

    /// Its logs as a pattern (`DIR/engines/<player>-*.log`), if it keeps any.
    #[must_use]
    pub fn log_pattern(&self) -> Option<PathBuf> {
        let player = &self.player;
        self.logs.as_ref().map(|l| l.join(log_name(player, "*")))
    }

    /// The one line a stop is said in (and that `run.toml` records), with what to do.
    #[must_use]
    pub fn line(&self, then: impl Into<Said>) -> Said {
        let (player, last) = (&self.player, self.last.name());
        Said::text(match self.log_pattern() {
            Some(log) => format!(
                "player '{player}' lost {MAX_FAULTS_IN_A_ROW} games in a row by a fault (the last: {last}; its log: {}): fix it, then ",
                log.display()
            ),
            None => format!(
                "player '{player}' lost {MAX_FAULTS_IN_A_ROW} games in a row by a fault (the last: {last}): fix it, then "
            ),
        })
        .and(then.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_faults_in_a_row_break_a_player() {
        let mut watch = FaultWatch::new(3);
        let stall = Some((1, Termination::Stalled));
        assert_eq!(watch.record([0, 1], stall), None);
        assert_eq!(watch.record([1, 0], stall), None);
        // A game of player 1 without a fault starts its count again.
        assert_eq!(watch.record([2, 1], None), None);
        assert_eq!(watch.record([0, 1], stall), None);
        assert_eq!(watch.record([0, 1], stall), None);
        // Games of other players in between do not.
        assert_eq!(watch.record([0, 2], None), None);
        assert_eq!(
            watch.record([1, 2], Some((1, Termination::Crash))),
            Some((1, Termination::Crash))
        );
    }

    #[test]
    fn a_loss_on_time_is_a_result_not_a_fault() {
        assert!(!Termination::Time.is_fault() && !Termination::Normal.is_fault());
        assert!([
            Termination::Crash,
            Termination::Illegal,
            Termination::Stalled
        ]
        .iter()
        .all(|t| t.is_fault()));
    }
}
