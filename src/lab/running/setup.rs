//! The part every config shares (board size, rules, openings, seed, threads), read once
//! and validated once for experiments, tunes and ablations alike.

use crate::board::SIZES;
use crate::error::{Error, Result};
use crate::game::{Game, Rules};
use crate::setting::{Setting, SettingError};
use crate::strategy::clock::TimeSpec;
use crate::with_geometry;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The most games per pair accepted: a trillion games is years of play on any cluster.
pub const MAX_GAMES_PER_PAIR: u64 = 1_000_000_000_000;

/// Games per pair: `games_per_pair`, `--games` (`run`, `sweep`, `ablate`).
pub static GAMES_PER_PAIR: Setting =
    Setting::new("games_per_pair", "--games", "games").whole(2, MAX_GAMES_PER_PAIR);

/// The seed: `seed`, `--seed`.
pub static SEED: Setting = Setting::new("seed", "--seed", "seed").whole(0, MAX_SEED);
/// Worker threads: `threads`, `--threads`.
pub static THREADS: Setting =
    Setting::new("threads", "--threads", "threads").whole(1, MAX_THREADS as u64);
/// Random opening plies: `random_plies` under `[openings]`, `--openings`.
pub static RANDOM_PLIES: Setting =
    Setting::new("random_plies", "--openings", "openings").whole(0, u32::MAX as u64);

/// Where games start, as a config file writes it (`[openings]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningsFile {
    /// K uniformly random moves per colour-swapped game pair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_plies: Option<u32>,
    /// A file of transcripts, one per line, relative to the config.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

impl OpeningsFile {
    fn is_start(&self) -> bool {
        self.random_plies.is_none() && self.file.is_none()
    }
}

/// The shared setup as a config file writes it: flattened into the top level of
/// experiment, tune and ablation files, every default written here once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetupFile {
    /// The seed: the same seed replays the same games.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Board size: 4, 6, 8 or 10.
    #[serde(default = "default_size")]
    pub size: u32,
    /// Scoring rules.
    #[serde(default)]
    pub rules: Rules,
    /// Worker threads (None: one per core).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// Openings.
    #[serde(default, skip_serializing_if = "OpeningsFile::is_start")]
    pub openings: OpeningsFile,
    /// Time for each move of every player (`100ms`), unless a player has its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_time: Option<String>,
    /// A game clock for every player, seconds and increment (`60+0.5`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// How far past its time a move may go before it loses on time (default 50ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_margin: Option<String>,
}

fn default_seed() -> u64 {
    1
}

fn default_size() -> u32 {
    8
}

impl Default for SetupFile {
    fn default() -> Self {
        SetupFile {
            seed: default_seed(),
            size: default_size(),
            rules: Rules::default(),
            threads: None,
            openings: OpeningsFile::default(),
            move_time: None,
            clock: None,
            time_margin: None,
        }
    }
}

/// Where games start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Openings {
    /// The standard start.
    #[default]
    Start,
    /// This many uniformly random moves, drawn from the schedule's opening seed.
    RandomPlies(u32),
    /// Transcripts from a file, one per line, used in turn.
    List {
        /// The file, as written in the config.
        file: String,
        /// Its transcripts (checked legal).
        transcripts: Vec<String>,
    },
}

/// The validated setup: size checked, openings read and checked, threads non-zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The seed.
    pub seed: u64,
    /// Board size.
    pub size: u32,
    /// Scoring rules.
    pub rules: Rules,
    /// Worker threads (None: one per core).
    pub threads: Option<usize>,
    /// Openings.
    pub openings: Openings,
    /// The time control of every player without its own.
    pub time: TimeSpec,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            seed: default_seed(),
            size: default_size(),
            rules: Rules::default(),
            threads: None,
            openings: Openings::Start,
            time: TimeSpec::default(),
        }
    }
}

/// The most worker threads accepted: more only adds overhead on any machine this runs on.
pub const MAX_THREADS: usize = 1024;

/// The largest seed accepted: `run.toml` and config files record it as a TOML integer,
/// which is signed 64-bit, and a match takes the same range so that any seed carries over.
pub const MAX_SEED: u64 = i64::MAX as u64;

/// Checks a seed the user gave ([`SEED`]).
pub fn check_seed(seed: u64) -> Result<u64> {
    if seed > MAX_SEED {
        Err(SettingError::OutOfRange {
            setting: &SEED,
            value: seed.to_string(),
            least: 0,
            most: MAX_SEED,
            fix: None,
        }
        .into())
    } else {
        Ok(seed)
    }
}

/// Checks a board size typed by the user.
pub fn check_size(size: u32) -> Result<u32> {
    if SIZES.contains(&size) {
        Ok(size)
    } else {
        Err(Error::input(format!(
            "unsupported board size {size}: use one of {}",
            size_words()
        )))
    }
}

/// The board sizes played, as messages list them: `4, 6, 8, 10`.
#[must_use]
pub fn size_words() -> String {
    SIZES.map(|s| s.to_string()).join(", ")
}

/// Checks a thread count the user gave as `setting` (most often [`THREADS`]).
pub fn check_threads(threads: usize, setting: &'static Setting) -> Result<usize> {
    let refuse = |fix: String| -> Error {
        SettingError::OutOfRange {
            setting,
            value: threads.to_string(),
            least: 1,
            most: MAX_THREADS as u64,
            fix: Some(fix.into()),
        }
        .into()
    };
    if threads == 0 {
        Err(refuse(
            "use at least 1 thread, or leave it out for one per core".into(),
        ))
    } else if threads > MAX_THREADS {
        Err(refuse(format!(
            "at most {MAX_THREADS} threads are accepted (one per core is fastest)"
        )))
    } else {
        Ok(threads)
    }
}

/// Where a setup's openings file is read from.
#[derive(Clone, Copy, Debug)]
pub enum OpeningsFrom<'a> {
    /// The `file` the setup names, relative to this folder.
    Folder(&'a Path),
    /// A copy kept elsewhere (a results folder's `openings.txt`), whatever `file` says.
    Copy(&'a Path),
}

/// The copy of its openings list a results folder keeps, so that the experiment can be
/// reloaded from the folder alone (`--resume` without a config, `merge`).
pub const OPENINGS_COPY: &str = crate::lab::FolderFile::OpeningsCopy.name();

impl Setup {
    /// Validates the file form; relative opening files start from `base`.
    /// Refusals name the setting and the fix, without the file (the caller adds it,
    /// and words the setting as the key, flag or keyword that gave it).
    pub fn from_file(file: &SetupFile, base: &Path) -> Result<Self> {
        Self::from_file_in(file, OpeningsFrom::Folder(base))
    }

    /// [`from_file`](Self::from_file), with the openings read from `from`.
    pub fn from_file_in(file: &SetupFile, from: OpeningsFrom<'_>) -> Result<Self> {
        let size = check_size(file.size)?;
        if let Some(threads) = file.threads {
            check_threads(threads, &THREADS)?;
        }
        let openings = match (&file.openings.random_plies, &file.openings.file) {
            (Some(_), Some(_)) => {
                return Err(Error::input(
                    "[openings] takes random_plies or file, not both",
                ))
            }
            (Some(k), None) if *k >= size * size - 4 => {
                return Err(SettingError::Refused {
                    setting: &RANDOM_PLIES,
                    value: k.to_string(),
                    why: format!(" would fill the {size}x{size} board: use fewer").into(),
                }
                .into())
            }
            (Some(0), None) | (None, None) => Openings::Start,
            (Some(k), None) => Openings::RandomPlies(*k),
            (None, Some(name)) => Openings::List {
                file: name.clone(),
                transcripts: load_openings(
                    &match from {
                        OpeningsFrom::Folder(base) => base.join(name),
                        OpeningsFrom::Copy(path) => path.to_path_buf(),
                    },
                    size,
                )?,
            },
        };
        let time = TimeSpec::parse(
            file.move_time.as_deref(),
            file.clock.as_deref(),
            file.time_margin.as_deref(),
        )?;
        Ok(Setup {
            seed: file.seed,
            size,
            rules: file.rules,
            threads: file.threads,
            openings,
            time,
        })
    }

    /// The file form, every default written out: what `run.toml` records.
    #[must_use]
    pub fn to_file(&self) -> SetupFile {
        SetupFile {
            seed: self.seed,
            size: self.size,
            rules: self.rules,
            threads: self.threads,
            openings: match &self.openings {
                Openings::Start => OpeningsFile::default(),
                Openings::RandomPlies(k) => OpeningsFile {
                    random_plies: Some(*k),
                    file: None,
                },
                Openings::List { file, .. } => OpeningsFile {
                    random_plies: None,
                    file: Some(file.clone()),
                },
            },
            move_time: self.time.move_time_text(),
            clock: self.time.clock_text(),
            time_margin: self.time.margin_text(),
        }
    }

    /// The most empty squares a game can start with after its opening.
    #[must_use]
    pub fn start_empties(&self) -> u32 {
        let full = self.size * self.size - 4;
        match &self.openings {
            Openings::Start => full,
            Openings::RandomPlies(k) => full.saturating_sub(*k),
            Openings::List { transcripts, .. } => transcripts
                .iter()
                .map(|t| {
                    with_geometry!(self.size, G => Game::<G>::from_transcript(t)
                        .map_or(full, |g| g.board().empty_count()))
                })
                .max()
                .unwrap_or(full),
        }
    }

    /// The worker threads a run uses.
    #[must_use]
    pub fn thread_count(&self) -> usize {
        self.threads.unwrap_or_else(rayon::current_num_threads)
    }
}

/// Reads an openings file: one transcript per line; blank lines and lines
/// starting with `#` or `%` are skipped. Every transcript is checked.
fn load_openings(path: &Path, size: u32) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::unreadable(path, &e))?;
    let mut transcripts = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let transcript = with_geometry!(size, G => {
            Game::<G>::from_transcript(line)
                .map(|g| g.transcript())
                .map_err(|e| Error::input(format!("{}:{}: {e}", path.display(), number + 1)))?
        });
        transcripts.push(transcript);
    }
    if transcripts.is_empty() {
        return Err(Error::input(format!(
            "{}: no openings in the file (one transcript such as f5d6c3 per line)",
            path.display()
        )));
    }
    Ok(transcripts)
}

/// The board size an OBF line implies by its number of squares.
pub fn size_of_obf(line: &str) -> Result<u32> {
    let squares = line
        .split(';')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next()
        .unwrap_or("");
    let count = squares.chars().count();
    crate::board::SIZES
        .iter()
        .copied()
        .find(|&s| (s * s) as usize == count)
        .ok_or_else(|| {
            Error::input(format!(
                "position has {count} squares: an OBF position has 16, 36, 64 or 100 of X, O, - (4x4 to 10x10), then a space and the side to move"
            ))
        })
}
