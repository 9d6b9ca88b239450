//! An experiment as a run is asked to play it: the file (or the built-in default)
//! with the games, seed and threads given again, and with `resume` what the results
//! folder's `run.toml` already says. The `run` command and the Python package both
//! start here.

use super::experiment::Experiment;
use super::experiment::{check_games_per_pair, GAMES_PER_PAIR};
use super::runner::run_folder;
use super::setup::{check_seed, check_threads, THREADS};
use crate::error::{Error, Result};
use crate::lab::storage::folder::OUT;
use crate::lab::storage::rows::ResumeGiven;
use crate::lab::storage::shard::Shard;
use crate::setting::Said;
use std::path::{Path, PathBuf};

/// The built-in default experiment (also committed as `experiments/default.toml`).
pub const DEFAULT_EXPERIMENT: &str = include_str!("../../../experiments/default.toml");

/// What a run changes of an experiment, each named as the command line names it in
/// the errors it gives.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// The results folder (`None`: `results/<name>`); a shard's goes under its `shards/I-of-N`.
    pub out: Option<PathBuf>,
    /// Continue what is in the results folder.
    pub resume: bool,
    /// Games per pair (even).
    pub games: Option<u64>,
    /// The seed.
    pub seed: Option<u64>,
    /// Threads.
    pub threads: Option<usize>,
    /// The shard played, if any.
    pub shard: Option<Shard>,
}

impl Overrides {
    /// The results folder of the experiment called `name` (a shard's, see [`run_folder`]).
    pub fn out(&self, name: &str) -> Result<PathBuf> {
        run_folder(name, self.out.as_deref(), self.shard)
    }

    /// Loads the experiment at `config` (the built-in default without one) with
    /// these overrides applied, as [`Overrides::apply`] does.
    pub fn load(&self, config: Option<&Path>) -> Result<Experiment> {
        let experiment = match config {
            Some(path) => Experiment::load(path)?,
            None => Experiment::parse(
                DEFAULT_EXPERIMENT,
                "built-in default experiment",
                Path::new("experiments"),
            )?,
        };
        self.apply(experiment, config.is_some())
    }

    /// `experiment` with these overrides applied. `given` says whether the
    /// experiment came from the caller (a config file, or a Python dict); if not,
    /// `resume` takes it from the folder's `run.toml`, as it takes the games, seed
    /// and threads not given again.
    pub fn apply(&self, mut experiment: Experiment, given: bool) -> Result<Experiment> {
        let out = self.out(&experiment.name)?;
        let folder = crate::lab::ResultsFolder::at(&out);
        if self.resume && !given && !folder.has(crate::lab::FolderFile::RunRecord) {
            if let Some(shards) = crate::lab::shard::Unmerged::find(&out) {
                return Err(shards.resume_refusal(&out));
            }
            return Err(Error::said(
                Said::text(format!(
                    "nothing to resume in {} (no run.toml): give the experiment file, or check ",
                    out.display()
                ))
                .placeholder(&OUT, "DIR"),
            ));
        }
        let record = if self.resume {
            folder.record_if_any()?
        } else {
            None
        };
        if let Some(record) = record {
            record.refuse_import(
                &out,
                crate::setting::Said::text("resumed (choose another ")
                    .name(&crate::lab::folder::OUT)
                    .then(" for a run)"),
            )?;
            if !given {
                experiment = Experiment::recorded(&record.experiment, &out)?;
            }
            // A config given again with its own `threads` speaks for them too.
            let own_threads = given && experiment.setup.threads.is_some();
            record.resume_settings(
                &mut experiment,
                // A config given again speaks for its own games and seed: a value changed in
                // it is then refused by the run (naming the field), never silently replaced
                // by the folder's.
                ResumeGiven {
                    games: given || self.games.is_some(),
                    seed: given || self.seed.is_some(),
                    threads: self.threads.is_some() || own_threads,
                },
            );
        }
        if let Some(games) = self.games {
            experiment.games_per_pair = check_games_per_pair(games, &GAMES_PER_PAIR)?;
        }
        if let Some(seed) = self.seed {
            experiment.setup.seed = check_seed(seed)?;
        }
        if let Some(threads) = self.threads {
            experiment.setup.threads = Some(check_threads(threads, &THREADS)?);
        }
        Ok(experiment)
    }
}
