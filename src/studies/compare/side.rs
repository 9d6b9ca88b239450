//! The two results folders a comparison reads (their experiment, standings and pairs,
//! and the ratings refitted with their covariance), and whether they are one field.

use crate::error::{Error, Result};
use crate::lab::rows::{read_rows, PairRow, StandingRow};
use crate::lab::{
    recorded_text as text, FolderFile, RecordKind, RecordedExperiment, ResultsFolder,
};
use crate::stats::{bradley_terry_covariance, RatingFit, Trinomial};
use std::path::{Path, PathBuf};
use toml::Table;

/// One results folder as a comparison reads it: the experiment and the standings.
#[derive(Clone, Debug)]
pub struct Side {
    /// The folder.
    pub dir: PathBuf,
    /// `[experiment]` of its run.toml, as recorded.
    pub experiment: RecordedExperiment,
    /// Its standings.csv.
    pub standings: Vec<StandingRow>,
    /// Its pairs.csv: the tallies the ratings are refitted from for their covariance.
    pub pairs: Vec<PairRow>,
}

impl Side {
    /// Reads a finished run's `run.toml` and `standings.csv`; an unfinished run, a
    /// shard or a folder without standings is bad input naming the fix.
    pub fn load(dir: &Path) -> Result<Self> {
        if let Some(shards) = crate::lab::shard::Unmerged::find(dir) {
            return Err(shards.refusal(dir, "compare the merged folder"));
        }
        let folder = ResultsFolder::at(dir);
        let record = folder.record("give two folders `reversi-lab run` wrote")?;
        let experiment = record.recorded_experiment(&folder.path(FolderFile::RunRecord))?;
        record.refuse_import(dir, "compared (it has no ratings)")?;
        if let RecordKind::Shard(shard) = record.kind() {
            return Err(Error::input(format!(
                "{} holds shard {shard} of a sharded run: merge the shards first ({}), then compare the merged folder",
                dir.display(),
                crate::lab::shard::merges(record.run.study, crate::lab::shard::whole_run_of(dir))
            )));
        }
        if !record.run.status.is_finished() {
            return Err(Error::input(format!(
                "{} is an unfinished run: finish it (reversi-lab run --resume) before comparing",
                dir.display()
            )));
        }
        let standings_path = folder.path(FolderFile::Standings);
        if !standings_path.is_file() {
            return Err(Error::input(format!(
                "{} has no standings.csv: compare folders of runs (a tune's runs are in its validation folders)",
                dir.display()
            )));
        }
        let pairs_path = folder.path(FolderFile::Pairs);
        if !pairs_path.is_file() {
            return Err(Error::input(format!(
                "{} has no pairs.csv: compare folders of finished runs, whose pairs.csv the rating changes' intervals need",
                dir.display()
            )));
        }
        Ok(Side {
            dir: dir.to_path_buf(),
            experiment,
            standings: read_rows(&standings_path)?,
            pairs: read_rows(&pairs_path)?,
        })
    }

    /// The Bradley-Terry fit of this run's pairs.csv, players in the order of `names`:
    /// (rating, se) each and the ratings' covariance (Elo²). It is the fit of
    /// standings.csv, redone because standings.csv keeps no covariances.
    pub(super) fn fit(&self, names: &[String]) -> Result<RatingFit> {
        let index = |name: &str| {
            names.iter().position(|n| n == name).ok_or_else(|| {
                Error::input(format!(
                    "{}: pairs.csv names {name}, who is not in standings.csv: the folder's files come from different runs",
                    self.dir.display()
                ))
            })
        };
        let mut matrix = vec![vec![Trinomial::default(); names.len()]; names.len()];
        for row in &self.pairs {
            let (a, b) = (index(&row.player_a)?, index(&row.player_b)?);
            let t = Trinomial {
                wins: row.wins,
                draws: row.draws,
                losses: row.losses,
            };
            matrix[a][b] += t;
            matrix[b][a] += t.mirrored();
        }
        let (ratings, covariance) = bradley_terry_covariance(&matrix);
        for (name, &(refit, _)) in names.iter().zip(&ratings) {
            let recorded = self
                .standings
                .iter()
                .find(|r| &r.player == name)
                .and_then(|r| r.rating);
            if let Some(recorded) = recorded.filter(|r| (r - refit).abs() > 0.5) {
                return Err(Error::input(format!(
                    "{}: pairs.csv gives {name} a rating of {refit:.1} but standings.csv {recorded:.1}: the folder's files come from different runs",
                    self.dir.display()
                )));
            }
        }
        Ok((ratings, covariance))
    }

    /// The players' names and strategy tables, in experiment order.
    pub(super) fn players(&self) -> Vec<(String, &Table)> {
        self.experiment
            .own
            .players
            .iter()
            .map(|p| (p.name.clone(), &p.strategy))
            .collect()
    }
}

/// The challengers as run.toml writes them (`-` when it leaves them out: none).
fn challengers(names: &[String]) -> String {
    if names.is_empty() {
        "-".into()
    } else {
        text(&names)
    }
}

/// Why two runs are not the same field, if they are not: the first difference found.
/// Size, rules, format (with a gauntlet's challengers) and the set of player names must
/// agree; seeds, games, openings and the players' strategies may differ.
pub(super) fn refusal(a: &Side, b: &Side) -> Result<Option<String>> {
    let fields = format!("{} and {}", a.dir.display(), b.dir.display());
    let (x, y) = (&a.experiment, &b.experiment);
    let unlike = [
        (
            "size",
            x.setup.size != y.setup.size,
            text(&x.setup.size),
            text(&y.setup.size),
        ),
        (
            "format",
            x.own.format != y.own.format,
            text(&x.own.format),
            text(&y.own.format),
        ),
        (
            "challengers",
            x.own.challengers != y.own.challengers,
            challengers(&x.own.challengers),
            challengers(&y.own.challengers),
        ),
    ];
    if let Some((key, _, one, other)) = unlike.into_iter().find(|u| u.1) {
        return Ok(Some(format!(
            "{fields} are not the same field: {key} is {one} in one and {other} in the other (compare runs of one experiment, changing only strategies, seeds, games or openings)",
        )));
    }
    let (rules_a, rules_b) = (x.setup.rules, y.setup.rules);
    if rules_a != rules_b {
        // As an experiment file writes them, not Rust's debug form.
        let words = |r: crate::game::Rules| {
            let scoring = serde_json::to_value(r.scoring).unwrap_or_default();
            format!("scoring = {scoring}, anti = {}", r.anti)
        };
        return Ok(Some(format!(
            "{fields} are not the same field: the rules differ ({} against {}; compare runs under the same rules)",
            words(rules_a),
            words(rules_b)
        )));
    }
    let names = |side: &Side| {
        let mut names: Vec<String> = side.players().into_iter().map(|p| p.0).collect();
        names.sort();
        names
    };
    let (names_a, names_b) = (names(a), names(b));
    if names_a != names_b {
        let only = |x: &[String], y: &[String]| {
            x.iter()
                .filter(|n| !y.contains(n))
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Ok(Some(format!(
            "{fields} are not the same field: the players differ (only in the first: {}; only in the second: {}); a change of strategy keeps the player's name",
            or_none(&only(&names_a, &names_b)),
            or_none(&only(&names_b, &names_a))
        )));
    }
    Ok(None)
}

fn or_none(text: &str) -> &str {
    if text.is_empty() {
        "none"
    } else {
        text
    }
}
