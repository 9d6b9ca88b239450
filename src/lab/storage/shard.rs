//! Shards: which games of a schedule shard I of N plays, read from `--shard I/N` or from
//! a cluster scheduler's environment, and the content hash that ties shards to one experiment.

use crate::error::{Error, Result};
use crate::lab::running::experiment::Experiment;
use crate::lab::running::setup::Openings;
use crate::lab::storage::results_folder::{FolderFile, ResultsFolder};
use crate::lab::storage::rows::Status;
pub use crate::lab::storage::rows::Study;
use crate::setting::{Said, Setting};
use crate::shown::ShowPath;
use sha2::{Digest, Sha256};
use std::fmt;
use std::path::Path;

/// The share of a run this process plays: `--shard I/N`.
pub static SHARD: Setting = Setting::new("", "--shard", "shard");
/// How many shards a run is split into, where the scheduler does not say: `--shards N`.
pub static SHARDS: Setting = Setting::new("", "--shards", "shards");

/// The version of the game-numbering recipe (pairs, games, colours, openings and seeds
/// as [`super::Schedule`] derives them, and the generator each game draws from: 1 was
/// ChaCha8, 2 is Xoshiro256++). Shards merge only with shards of the same version, and
/// a folder is continued only by a build of its version: its games would differ.
pub const SCHEDULE_VERSION: u32 = 2;

/// The schedule version a folder was made with: `recorded`, or 1 where none is
/// recorded (folders written before the version was).
#[must_use]
pub const fn recorded_version(recorded: Option<u32>) -> u32 {
    match recorded {
        Some(version) => version,
        None => 1,
    }
}

/// The generator games of a schedule version draw from.
const fn generator(version: u32) -> &'static str {
    match version {
        1 => "ChaCha8",
        2 => "Xoshiro256++",
        _ => "an unknown generator",
    }
}

/// An error unless `folder`, made with schedule version `recorded` (see
/// [`recorded_version`]), has this build's: continuing it would mix games of two
/// generators. `fix` ends the message (what to do instead).
pub fn check_schedule_version(
    folder: &Path,
    recorded: Option<u32>,
    fix: impl Into<Said>,
) -> Result<()> {
    let version = recorded_version(recorded);
    if version == SCHEDULE_VERSION {
        return Ok(());
    }
    Err(Error::said(
        Said::text(format!(
            "{} was played with schedule version {version} ({}) but this reversi-lab plays version {SCHEDULE_VERSION} ({}), whose games differ: ",
            folder.shown(),
            generator(version),
            generator(SCHEDULE_VERSION)
        ))
        .and(fix.into()),
    ))
}

/// Most shards a run may be split into.
pub const MAX_SHARDS: u64 = 1_000_000;

/// Shard `index` of `count` (1-based, like `cargo nextest --partition count:I/N`).
///
/// A shard plays whole colour-swapped game pairs, dealt out in turn: game pair `u`
/// (games `2u` and `2u + 1` in the schedule's order) goes to shard `u mod N + 1`, so
/// every shard gets a near-equal share of every player pair, however their costs differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// Shard `index` of `count`, checked.
    pub fn new(index: u64, count: u64) -> Result<Self> {
        if count == 0 || count > MAX_SHARDS {
            return Err(Error::input(format!(
                "{count} shards cannot be played: use 1 to {MAX_SHARDS} shards"
            )));
        }
        if index == 0 || index > count {
            return Err(Error::input(format!(
                "shard {index}/{count} does not exist: shards are numbered 1 to {count}"
            )));
        }
        Ok(Shard { index, count })
    }

    /// The whole run as one shard.
    #[must_use]
    pub const fn whole() -> Self {
        Shard { index: 1, count: 1 }
    }

    /// The shard's number, from 1.
    #[must_use]
    pub const fn index(self) -> u64 {
        self.index
    }

    /// How many shards the run has.
    #[must_use]
    pub const fn count(self) -> u64 {
        self.count
    }

    /// Parses `I/N`.
    pub fn parse(text: &str) -> Result<Self> {
        let bad = || {
            Error::said(Said::default().given(&SHARD, text).then(
                " is not a shard: write I/N (for example 2/8, shards numbered from 1), or auto to read it from Slurm or Kubernetes",
            ))
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let i = i.trim().parse::<u64>().map_err(|_| bad())?;
        let n = n.trim().parse::<u64>().map_err(|_| bad())?;
        Self::new(i, n)
    }

    /// The shard a cluster scheduler assigned this task, from its environment:
    /// Slurm job arrays (`SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`, or
    /// `_MIN` and `_MAX`) or Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX`, from 0,
    /// with the count from `shards`). `shards`, when given, must agree with Slurm's count.
    pub fn from_env(var: impl Fn(&str) -> Option<String>, shards: Option<u64>) -> Result<Self> {
        let number = |name: &str| -> Result<Option<u64>> {
            match var(name) {
                None => Ok(None),
                Some(v) => v.trim().parse::<u64>().map(Some).map_err(|_| {
                    Error::said(
                        Said::text(format!("{name}={v} is not a whole number: "))
                            .given(&SHARD, "auto")
                            .then(" needs the scheduler's own value"),
                    )
                }),
            }
        };
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let min = number("SLURM_ARRAY_TASK_MIN")?;
            let max = number("SLURM_ARRAY_TASK_MAX")?;
            let first = min.unwrap_or(1);
            let count = match (number("SLURM_ARRAY_TASK_COUNT")?, min, max) {
                (Some(count), _, _) => count,
                (None, Some(min), Some(max)) if max >= min => max - min + 1,
                _ => {
                    return Err(Error::input(
                        "SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MIN/MAX: submit the run as a job array (sbatch --array=1-N)",
                    ))
                }
            };
            if id < first {
                return Err(Error::input(format!(
                    "SLURM_ARRAY_TASK_ID={id} is below SLURM_ARRAY_TASK_MIN={first}: the array's environment is inconsistent"
                )));
            }
            if let Some(n) = shards.filter(|&n| n != count) {
                return Err(Error::said(
                    Said::default()
                        .given(&SHARDS, n)
                        .then(format!(
                            " disagrees with the Slurm array's {count} tasks: submit --array=1-{n}, or drop "
                        ))
                        .name(&SHARDS),
                ));
            }
            return Self::new(id - first + 1, count).map_err(|e| {
                Error::input(format!(
                    "the Slurm array's task {id} (of {count}) is not a shard: {e}; submit a contiguous array such as --array=1-{count}"
                ))
            });
        }
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            let Some(count) = shards.or(number("REVERSI_LAB_SHARDS")?) else {
                return Err(Error::said(
                    Said::text(
                        "JOB_COMPLETION_INDEX is set but the shard count is not known: pass ",
                    )
                    .placeholder(&SHARDS, "N")
                    .then(" (the Job's completions)"),
                ));
            };
            return Self::new(index + 1, count).map_err(|e| {
                Error::said(
                    Said::text(format!(
                        "JOB_COMPLETION_INDEX={index} with {count} shards: {e}; completions must equal "
                    ))
                    .name(&SHARDS),
                )
            });
        }
        Err(Error::said(
            Said::default()
                .given(&SHARD, "auto")
                .then(" found no scheduler: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set; give ")
                .placeholder(&SHARD, "I/N")
                .then(" instead"),
        ))
    }

    /// How many games of a schedule of `total` (even) games the shard plays.
    #[must_use]
    pub const fn games(self, total: u64) -> u64 {
        let units = total / 2;
        let first = self.index - 1;
        if units <= first {
            0
        } else {
            2 * (units - first).div_ceil(self.count)
        }
    }

    /// The schedule's number of the shard's game number `local` (both from 0).
    #[must_use]
    pub const fn game(self, local: u64) -> u64 {
        2 * (self.index - 1 + (local / 2) * self.count) + local % 2
    }

    /// The shard (its index, from 1) that plays game `game` of the schedule.
    #[must_use]
    pub const fn owner(count: u64, game: u64) -> u64 {
        (game / 2) % count + 1
    }

    /// The folder name of the shard under `shards/`: `I-of-N`.
    #[must_use]
    pub fn folder_name(self) -> String {
        format!("{}-of-{}", self.index, self.count)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The command line that plays a shard of `study` (None: a run's), for hints.
#[must_use]
pub fn plays(study: Option<Study>) -> String {
    study.map_or("reversi-lab run CONFIG".into(), |s| {
        format!("reversi-lab {} FILE", s.command())
    })
}

/// The whole run's folder a shard folder belongs to: the one above its `shards/`.
#[must_use]
pub fn whole_run_of(dir: &Path) -> Option<&Path> {
    dir.parent()
        .filter(|p| p.file_name().is_some_and(|n| n == "shards"))
        .and_then(Path::parent)
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
}

/// The command line that merges the shards of the run in `whole` (None: not known):
/// `merge` of the run's folder, or the study's own `--merge` (which also writes the
/// study's files from the merged games).
#[must_use]
pub fn merges(study: Option<Study>, whole: Option<&Path>) -> String {
    match (study, whole) {
        (None, Some(whole)) => format!("reversi-lab merge {}", whole.shown()),
        (None, None) => "reversi-lab merge SHARD_FOLDERS --out DIR".into(),
        (Some(study), Some(whole)) => format!(
            "reversi-lab {} FILE --merge --out {}",
            study.command(),
            whole.shown()
        ),
        (Some(study), None) => format!(
            "reversi-lab {} FILE --merge --out DIR, with the shards in DIR/shards/",
            study.command()
        ),
    }
}

/// The command line that plays shard `which` (`I/N`, or one shard) into the run's
/// folder `whole` (None: the default folder): a hint that names it works as written,
/// since a shard played without the same `--out` lands in another folder.
#[must_use]
pub fn plays_into(study: Option<Study>, which: &str, whole: Option<&Path>) -> String {
    let out = whole.map_or(String::new(), |w| format!(" --out {}", w.shown()));
    format!("{} --shard {which}{out}", plays(study))
}

/// The shards under `DIR/shards/` of a folder that holds no run of its own (no
/// `run.toml`): they are not merged yet, so a command that reads or continues the run
/// there says so and names the merge (the study's, from the shards' own record).
#[derive(Clone, Debug)]
pub struct Unmerged {
    /// The study whose command merges them (None: `merge`).
    pub study: Option<Study>,
    /// Each shard found, and how it stands, by split then number.
    pub shards: Vec<(Shard, Status)>,
}

impl Unmerged {
    /// The shards in `dir`, when it holds some and no run record of its own.
    #[must_use]
    pub fn find(dir: &Path) -> Option<Unmerged> {
        let folder = ResultsFolder::at(dir);
        if folder.has(FolderFile::RunRecord) {
            return None;
        }
        let entries = std::fs::read_dir(folder.path(FolderFile::Shards)).ok()?;
        let mut study = None;
        let mut shards = Vec::new();
        for entry in entries.flatten() {
            let Ok(Some(record)) = ResultsFolder::at(&entry.path()).record_if_any() else {
                continue;
            };
            let Some(shard) = record
                .run
                .shard
                .as_deref()
                .and_then(|s| Shard::parse(s).ok())
            else {
                continue;
            };
            study = study.or(record.run.study);
            shards.push((shard, record.run.status));
        }
        shards.sort_by_key(|(s, _)| (s.count(), s.index()));
        (!shards.is_empty()).then_some(Unmerged { study, shards })
    }

    /// The shards of each split found that are not there (never played, or moved).
    #[must_use]
    pub fn missing(&self) -> Vec<Shard> {
        let mut counts: Vec<u64> = self.shards.iter().map(|(s, _)| s.count()).collect();
        counts.dedup();
        counts
            .into_iter()
            .flat_map(|count| (1..=count).filter_map(move |index| Shard::new(index, count).ok()))
            .filter(|shard| !self.shards.iter().any(|(s, _)| s == shard))
            .collect()
    }

    /// The missing shards (as [`missing`](Self::missing) finds them) for a hint: which
    /// ("shard 2/3 is", "shards 2/5, 4/5 are"; ten at most named) and how to play them
    /// into `whole`: "it" or "them", and the command (`I/N` for several).
    #[must_use]
    pub fn missing_hint(&self, whole: Option<&Path>) -> Option<(String, &'static str, String)> {
        let missing = self.missing();
        let first = missing.first()?;
        let one = missing.len() == 1;
        let named: Vec<String> = missing.iter().take(10).map(ToString::to_string).collect();
        let which = format!(
            "shard{} {}{} {}",
            if one { "" } else { "s" },
            named.join(", "),
            if missing.len() > 10 { ", …" } else { "" },
            if one { "is" } else { "are" }
        );
        let shard = if one {
            first.to_string()
        } else {
            format!("I/{}", first.count())
        };
        let them = if one { "it" } else { "them" };
        Some((which, them, plays_into(self.study, &shard, whole)))
    }

    /// The command line that merges them (with `--shards N` where several splits lie there).
    #[must_use]
    pub fn merge_line(&self, dir: &Path) -> String {
        let line = merges(self.study, Some(dir));
        let first = self.shards[0].0.count();
        if self.shards.iter().any(|(s, _)| s.count() != first) {
            format!("{line} --shards N")
        } else {
            line
        }
    }

    /// The refusal of a command that reads a whole run's results in `dir`; `then`
    /// says what to do once merged ("report the merged folder").
    #[must_use]
    pub fn refusal(&self, dir: &Path, then: &str) -> Error {
        // A shard missing is played first: the merge alone would be refused.
        let first = match self.missing_hint(Some(dir)) {
            Some((which, them, command)) => {
                format!("{which} missing: play {them} with `{command}`, then ")
            }
            None => String::new(),
        };
        Error::input(format!(
            "{} holds the shards of a sharded run, not merged yet (it has no run.toml of its own): {first}merge them with `{}`, then {then}",
            dir.shown(),
            self.merge_line(dir)
        ))
    }

    /// The refusal of `--resume` of `dir` itself: the shards are continued one by one
    /// (those not finished, each named), and the run is made by the merge.
    #[must_use]
    pub fn resume_refusal(&self, dir: &Path) -> Error {
        // A run's shard continues from its own run.toml: no CONFIG to give again.
        let command = self
            .study
            .map_or("reversi-lab run".to_string(), |_| plays(self.study));
        let unfinished: Vec<String> = self
            .shards
            .iter()
            .filter(|(_, status)| !status.is_finished())
            .map(|(shard, _)| format!("`{command} --shard {shard} --out {} --resume`", dir.shown()))
            .collect();
        let merge = self.merge_line(dir);
        if let Some((which, them, command)) = self.missing_hint(Some(dir)) {
            return Error::input(format!(
                "{} holds the shards of a sharded run, not one run to resume, and {which} missing: play {them} with `{command}`{}, then merge them with `{merge}`",
                dir.shown(),
                if unfinished.is_empty() {
                    String::new()
                } else {
                    format!(", continue {}", unfinished.join(" and "))
                },
            ));
        }
        if unfinished.is_empty() {
            return Error::input(format!(
                "nothing to resume in {}: it holds the shards of a sharded run, all finished, and no run of its own: merge them with `{merge}`",
                dir.shown()
            ));
        }
        Error::input(format!(
            "{} holds the shards of a sharded run, not one run to resume: continue the unfinished shard{} with {}, then merge them with `{merge}`",
            dir.shown(),
            if unfinished.len() == 1 { "" } else { "s" },
            unfinished.join(" and ")
        ))
    }
}

/// The experiment's content hash: SHA-256 of its TOML with every default written out,
/// leaving out the thread count (which changes no result), followed by the openings it
/// plays when they come from a file (so that a changed file is a different experiment).
/// Shards of one experiment share it.
#[must_use]
pub fn experiment_hash(experiment: &Experiment) -> String {
    let mut table = experiment.to_table();
    table.remove("threads");
    let mut text = toml::to_string(&table).expect("a TOML table serialises");
    if let Openings::List { transcripts, .. } = &experiment.setup.openings {
        text.push_str("\n# openings\n");
        for t in transcripts {
            text.push_str(t);
            text.push('\n');
        }
    }
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn shards_cover_every_game_once_in_order() {
        for total in [0u64, 2, 4, 10, 22, 100] {
            for count in 1..=9 {
                let mut seen = vec![0u32; total as usize];
                for index in 1..=count {
                    let shard = Shard::new(index, count).unwrap();
                    let games: Vec<u64> = (0..shard.games(total)).map(|i| shard.game(i)).collect();
                    assert!(games.windows(2).all(|w| w[0] < w[1]), "in order");
                    for g in games {
                        assert_eq!(Shard::owner(count, g), index);
                        seen[g as usize] += 1;
                    }
                }
                assert!(
                    seen.iter().all(|&s| s == 1),
                    "total {total}, {count} shards"
                );
            }
        }
    }

    #[test]
    fn shards_are_balanced_within_one_pair() {
        let sizes: Vec<u64> = (1..=7)
            .map(|i| Shard::new(i, 7).unwrap().games(1000))
            .collect();
        assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 2);
    }

    #[test]
    fn parses_and_refuses() {
        assert_eq!(Shard::parse("2/8").unwrap(), Shard::new(2, 8).unwrap());
        for bad in ["0/3", "4/3", "1/0", "x", "1-3", "-1/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn reads_slurm_and_kubernetes() {
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ]);
        assert_eq!(
            Shard::from_env(&slurm, None).unwrap(),
            Shard::new(3, 4).unwrap()
        );
        assert!(Shard::from_env(&slurm, Some(5)).is_err());
        let from_zero = env(&[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "2"),
        ]);
        assert_eq!(
            Shard::from_env(&from_zero, None).unwrap(),
            Shard::new(1, 3).unwrap()
        );
        let k8s = env(&[("JOB_COMPLETION_INDEX", "6")]);
        assert_eq!(
            Shard::from_env(&k8s, Some(7)).unwrap(),
            Shard::new(7, 7).unwrap()
        );
        assert!(Shard::from_env(&k8s, Some(6)).is_err());
        assert!(Shard::from_env(&k8s, None).is_err());
        assert!(Shard::from_env(env(&[]), Some(3)).is_err());
        assert!(Shard::from_env(env(&[("SLURM_ARRAY_TASK_ID", "2")]), None).is_err());
    }
}
