//! A results folder as one type: the name of every file it can hold, declared once
//! ([`FolderFile`]), the one answer to "is this a results folder, and of which kind"
//! ([`ResultsFolder::kind`]), and its typed records: the run record (`run.toml`), the
//! experiment it recorded, how it stands and the engines it met.
//!
//! A study's own files (`sweep.csv`, `ablation.csv`, `quality.csv`) and the report's
//! (`report.md`, `report.html`) are declared by the study and the report format that
//! write them; the folder knows the files the run, a shard, a merge, an import and a
//! tune write.

use super::file_names::Compression;
pub use super::file_names::FolderFile;
use super::rows::{RunToml, Status};
use crate::error::{Error, Result};
use crate::lab::running::config::WithSetup;
use crate::lab::running::experiment::{Experiment, ExperimentFile};
use crate::lab::running::setup::SetupFile;
use crate::shown::ShowPath;
use std::path::{Path, PathBuf};

/// What kind of results folder a folder is, from the files it holds (nothing is read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FolderKind {
    /// It has a run record: a run's folder (or a shard's, a merge's, an import's:
    /// [`RecordKind`] says which once the record is read).
    Run,
    /// A tune's folder: its `tune.toml` or `trace.csv`, and no run record.
    Tune,
    /// Games without a run record (a run stopped before it wrote one).
    GamesOnly,
}

/// What a run record says its folder holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// A run's games and tables (also a merge of shards).
    Run,
    /// One shard of a sharded run (`I/N`): merged before it is reported or compared.
    Shard(String),
    /// Games imported by `reversi-lab import`, whose players are not strategies.
    Import,
}

impl RunToml {
    /// What the folder holding this record holds.
    #[must_use]
    pub fn kind(&self) -> RecordKind {
        match (&self.import, &self.run.shard) {
            (Some(_), _) => RecordKind::Import,
            (None, Some(shard)) => RecordKind::Shard(shard.clone()),
            (None, None) => RecordKind::Run,
        }
    }

    /// The experiment as recorded, typed as a file writes it (each strategy as its
    /// table, the openings as named): what a report or a comparison shows, read
    /// without the openings file, the strategies' files or the engines being there.
    pub fn recorded_experiment(&self, path: &Path) -> Result<RecordedExperiment> {
        let bad = |e: toml::de::Error| {
            Error::input(format!(
                "{}: [experiment] cannot be read: {} (was it written by reversi-lab?)",
                path.shown(),
                e.message().trim()
            ))
        };
        let table = toml::Value::Table(self.experiment.clone());
        Ok(WithSetup {
            setup: table.clone().try_into::<SetupFile>().map_err(bad)?,
            own: table.try_into().map_err(bad)?,
        })
    }
}

/// A recorded value as `run.toml` writes it, for a person to read: a string without
/// its quotes, anything else as TOML (`{ anti = false, scoring = "..." }`).
#[must_use]
pub fn recorded_text(value: &impl serde::Serialize) -> String {
    match toml::Value::try_from(value) {
        Ok(toml::Value::String(s)) => s,
        Ok(v) => v.to_string(),
        Err(_) => "-".into(),
    }
}

/// The experiment a run record holds, as a file writes it (every default written out).
pub type RecordedExperiment = WithSetup<ExperimentFile<toml::Table>>;

/// A results folder: where it is, and what it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultsFolder {
    dir: PathBuf,
}

impl ResultsFolder {
    /// The folder at `dir`, whatever it holds (nothing is checked).
    #[must_use]
    pub fn at(dir: &Path) -> Self {
        ResultsFolder {
            dir: dir.to_path_buf(),
        }
    }

    /// The folder a run wrote at `dir`: a missing folder, or a file, is bad input
    /// naming the fix.
    pub fn open(dir: &Path) -> Result<Self> {
        if dir.is_file() {
            return Err(Error::input(format!(
                "{} is a file, not a results folder: give the folder a run wrote, such as results/default",
                dir.shown()
            )));
        }
        if !dir.is_dir() {
            return Err(Error::input(format!(
                "results folder {} does not exist: give the folder a run wrote, such as results/default",
                dir.shown()
            )));
        }
        Ok(Self::at(dir))
    }

    /// The folders directly inside `parent` that are results folders of any kind,
    /// sorted by name (nothing is read but their listings).
    pub fn within(parent: &Path) -> Result<Vec<Self>> {
        let entries = std::fs::read_dir(parent).map_err(|e| Error::io_during("read", parent, e))?;
        let mut found: Vec<Self> = entries
            .filter_map(std::result::Result::ok)
            .map(|entry| Self::at(&entry.path()))
            .filter(|folder| folder.dir.is_dir() && folder.kind().is_some())
            .collect();
        found.sort_by(|a, b| a.dir.cmp(&b.dir));
        Ok(found)
    }

    /// The folder.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where `file` is (or would be) in the folder.
    #[must_use]
    pub fn path(&self, file: FolderFile) -> PathBuf {
        self.dir.join(file.name())
    }

    /// Whether the folder holds `file` (a folder for [`FolderFile::is_folder`] ones).
    #[must_use]
    pub fn has(&self, file: FolderFile) -> bool {
        let path = self.path(file);
        if file.is_folder() {
            path.is_dir()
        } else {
            path.is_file()
        }
    }

    /// Whether this is a results folder, and of which kind: the one answer every
    /// command asks (None: not a results folder).
    #[must_use]
    pub fn kind(&self) -> Option<FolderKind> {
        if self.has(FolderFile::RunRecord) {
            Some(FolderKind::Run)
        } else if self.has(FolderFile::TuneFile) || self.has(FolderFile::Trace) {
            Some(FolderKind::Tune)
        } else if self.games().is_some() {
            Some(FolderKind::GamesOnly)
        } else {
            None
        }
    }

    /// The files a command that reads its games reads (see [`FolderFile::GAME_INPUTS`]).
    #[must_use]
    pub fn game_inputs(&self) -> [PathBuf; 3] {
        FolderFile::GAME_INPUTS.map(|file| self.path(file))
    }

    /// Its games file, plain or compressed, if it has one.
    #[must_use]
    pub fn games(&self) -> Option<(PathBuf, Compression)> {
        super::file_names::find(&self.dir)
    }

    /// Reads the run record; a folder without one is bad input that ends with `fix`
    /// (what to give instead).
    pub fn record(&self, fix: &str) -> Result<RunToml> {
        if !self.has(FolderFile::RunRecord) {
            return Err(Error::input(format!(
                "{} is not a results folder (no {}): {fix}",
                self.dir.shown(),
                FolderFile::RunRecord.name()
            )));
        }
        RunToml::load(&self.path(FolderFile::RunRecord))
    }

    /// Reads the run record, if the folder has one.
    pub fn record_if_any(&self) -> Result<Option<RunToml>> {
        if !self.has(FolderFile::RunRecord) {
            return Ok(None);
        }
        RunToml::load(&self.path(FolderFile::RunRecord)).map(Some)
    }

    /// How the run stands, when the folder has a run record.
    pub fn status(&self) -> Result<Option<Status>> {
        Ok(self.record_if_any()?.map(|record| record.run.status))
    }

    /// The experiment a run record recorded, validated (its strategies built to check
    /// them) with its openings from the folder's copy; see [`Experiment::recorded`].
    pub fn experiment(&self, record: &RunToml) -> Result<Experiment> {
        Experiment::recorded(&record.experiment, &self.dir)
    }
}

#[cfg(test)]
#[path = "results_folder_tests.rs"]
mod tests;
