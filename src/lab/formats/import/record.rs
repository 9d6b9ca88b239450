//! What an import records of its sources: `run.toml`'s `[import]` and the rows of
//! `imported.csv`. Apart from the import itself so that `run.toml`'s reader can name
//! them without depending on the code that writes them.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The kind of an input file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceFormat {
    /// A WTHOR game file (`.wtb`).
    Wthor,
    /// The WTHOR players' names (`WTHOR.JOU`).
    WthorPlayers,
    /// The WTHOR tournaments' names (`WTHOR.TRN`).
    WthorTournaments,
    /// The Generic Game Format (`.ggf`).
    Ggf,
}

impl SourceFormat {
    /// The kind of `path`, from its extension (any case).
    pub fn of(path: &Path) -> Result<Self> {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("wtb") => Ok(SourceFormat::Wthor),
            Some("jou") => Ok(SourceFormat::WthorPlayers),
            Some("trn") => Ok(SourceFormat::WthorTournaments),
            Some("ggf") => Ok(SourceFormat::Ggf),
            _ => Err(Error::input(format!(
                "{}: import reads WTHOR game files (.wtb) with WTHOR.JOU and WTHOR.TRN for the names, and GGF (.ggf): name the file by its format",
                path.display()
            ))),
        }
    }
}

/// `[import]` of an imported folder's `run.toml`: where its games came from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ImportInfo {
    /// Every player's name, sorted: imported players are people or programs, not
    /// strategies, so no command can play them again.
    pub players: Vec<String>,
    /// The files read, in the order given.
    pub sources: Vec<SourceInfo>,
}

/// One file an import read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SourceInfo {
    /// The path as given.
    pub file: String,
    /// Its kind.
    pub format: SourceFormat,
    /// SHA-256 of its bytes.
    pub sha256: String,
    /// Its length in bytes.
    pub bytes: u64,
    /// The date in a WTHOR header (`YYYY-MM-DD`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    /// The year of a WTHOR file's games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<u16>,
    /// Names in a names file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<u64>,
    /// Games in a game file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u64>,
    /// Of them, those in `games.csv`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<u64>,
    /// The `game_id` of its first game in `games.csv`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_game_id: Option<u64>,
    /// Games left out because their moves stop before the game ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unfinished: Option<u64>,
    /// Games left out for an illegal or unreadable move (`--skip-bad`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bad: Option<u64>,
    /// Imported games whose recorded result disagrees with the replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disagreeing: Option<u64>,
}

/// One row of `imported.csv`: where game `game_id` of `games.csv` came from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportedRow {
    /// The game's `game_id` in `games.csv`.
    pub game_id: u64,
    /// The file it was read from, as given.
    pub file: String,
    /// 1-based number of the game in that file.
    pub number: u64,
    /// The tournament (WTHOR) or place (GGF `PC`).
    pub event: String,
    /// The year (WTHOR) or date (GGF `DT`).
    pub date: String,
    /// The result as the file records it: black's discs (WTHOR), `RE` (GGF).
    pub recorded: String,
    /// WTHOR's theoretical score: black's discs with perfect play from the file's depth.
    pub theoretical: String,
    /// `yes` when the recorded result is the replay's, `no` when not, empty without one.
    pub agrees: String,
}
