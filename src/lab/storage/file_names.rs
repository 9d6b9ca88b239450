//! The names of a results folder's files ([`FolderFile`]) and the two forms of its
//! games file ([`Compression`]): a leaf that the experiment, the folder, the games file
//! and the results folder all import, so that none of them imports another for a name.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A file (or folder) a results folder can hold, by what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FolderFile {
    /// `run.toml`: the run record (how the run went, and the experiment as run).
    RunRecord,
    /// `games.csv`: one row per game.
    Games,
    /// `games.csv.zst`: the games, compressed (the experiment's `compress = "zstd"`).
    CompressedGames,
    /// `pairs.csv`: one row per pair of players, once the run has finished.
    Pairs,
    /// `standings.csv`: one row per player, once the run has finished.
    Standings,
    /// `costs.csv`: what each player's moves cost.
    Costs,
    /// `openings.txt`: the copy of the openings list, so the folder alone replays its games.
    OpeningsCopy,
    /// `run.lock`: held while a run writes the folder.
    Lock,
    /// `tune.toml`: a tune's file, kept in its folder.
    TuneFile,
    /// `trace.csv`: a tune's trace, one row per iteration.
    Trace,
    /// `best.toml`: a tune's best parameters.
    Best,
    /// `engines/`: the external engines' logs.
    EngineLogs,
    /// `shards/`: the shard folders of a sharded run.
    Shards,
    /// `charts/`: the report's charts.
    Charts,
}

impl FolderFile {
    /// Every file, in the order a listing shows them.
    pub const ALL: [FolderFile; 14] = [
        FolderFile::RunRecord,
        FolderFile::Games,
        FolderFile::CompressedGames,
        FolderFile::Pairs,
        FolderFile::Standings,
        FolderFile::Costs,
        FolderFile::OpeningsCopy,
        FolderFile::Lock,
        FolderFile::TuneFile,
        FolderFile::Trace,
        FolderFile::Best,
        FolderFile::EngineLogs,
        FolderFile::Shards,
        FolderFile::Charts,
    ];

    /// Its name in the folder.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            FolderFile::RunRecord => "run.toml",
            FolderFile::Games => "games.csv",
            FolderFile::CompressedGames => "games.csv.zst",
            FolderFile::Pairs => "pairs.csv",
            FolderFile::Standings => "standings.csv",
            FolderFile::Costs => "costs.csv",
            FolderFile::OpeningsCopy => "openings.txt",
            FolderFile::Lock => "run.lock",
            FolderFile::TuneFile => "tune.toml",
            FolderFile::Trace => "trace.csv",
            FolderFile::Best => "best.toml",
            FolderFile::EngineLogs => "engines",
            FolderFile::Shards => "shards",
            FolderFile::Charts => "charts",
        }
    }

    /// Whether it is a folder rather than a file.
    #[must_use]
    pub const fn is_folder(self) -> bool {
        matches!(
            self,
            FolderFile::EngineLogs | FolderFile::Shards | FolderFile::Charts
        )
    }

    /// The files a command that reads a folder's games reads (either games file and
    /// the run record): what its output must not replace.
    pub const GAME_INPUTS: [FolderFile; 3] = [
        FolderFile::Games,
        FolderFile::CompressedGames,
        FolderFile::RunRecord,
    ];
}

/// How `games.csv` is stored: the experiment's `compress` key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Compression {
    /// Plain `games.csv`.
    #[default]
    None,
    /// `games.csv.zst` (Zstandard), read back transparently.
    Zstd,
}

impl Compression {
    /// Whether this is the default (left out of `run.toml`).
    #[must_use]
    pub fn is_none(&self) -> bool {
        *self == Compression::None
    }

    /// The file's name in a results folder.
    #[must_use]
    pub const fn file_name(self) -> &'static str {
        match self {
            Compression::None => FolderFile::Games.name(),
            Compression::Zstd => FolderFile::CompressedGames.name(),
        }
    }
}

/// The games file in `dir`, whichever form it has.
#[must_use]
pub fn find(dir: &Path) -> Option<(PathBuf, Compression)> {
    [Compression::None, Compression::Zstd]
        .into_iter()
        .map(|c| (dir.join(c.file_name()), c))
        .find(|(p, _)| p.is_file())
}
