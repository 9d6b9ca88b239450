//! `reversi-lab compare`: did a change help? Two runs of the same field (before and after
//! a strategy change), each player's rating in both with its change, the change's 95%
//! interval and a Holm-corrected test of "no change".

use crate::chart::{interval_chart, Chart};
use crate::error::{Error, Result};
use crate::game::Rules;
use crate::lab::rows::{csv_bytes, decimals, read_rows, PairRow, RunToml, StandingRow, Status};
use crate::numbers::{elo_interval, signed};
use crate::stats::{bradley_terry_covariance, holm, phi, RatingFit, Trinomial, Z95};
use crate::studies::compare_anchor::anchored;
pub use crate::studies::compare_anchor::{Anchor, AnchorUsed};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// The family-wise error rate Holm's correction holds the comparison to.
pub const FAMILY_WISE_ALPHA: f64 = 0.05;

/// The files a comparison writes into its folder (the chart adds `charts/compare.*`).
pub const COMPARE_FILES: [&str; 2] = ["compare.csv", "compare.md"];

/// One results folder as a comparison reads it: the experiment and the standings.
#[derive(Clone, Debug)]
pub struct Side {
    /// The folder.
    pub dir: PathBuf,
    /// `[experiment]` of its run.toml.
    pub experiment: Table,
    /// Its standings.csv.
    pub standings: Vec<StandingRow>,
    /// Its pairs.csv: the tallies the ratings are refitted from for their covariance.
    pub pairs: Vec<PairRow>,
}

impl Side {
    /// Reads a finished run's `run.toml` and `standings.csv`; an unfinished run, a
    /// shard or a folder without standings is bad input naming the fix.
    pub fn load(dir: &Path) -> Result<Self> {
        let run_path = dir.join("run.toml");
        if !run_path.is_file() {
            return Err(Error::input(format!(
                "{} is not a results folder (no run.toml): give two folders `reversi-lab run` wrote",
                dir.display()
            )));
        }
        let record = RunToml::load(&run_path)?;
        record.refuse_import(dir, "compared (it has no ratings)")?;
        if let Some(shard) = &record.run.shard {
            return Err(Error::input(format!(
                "{} holds shard {shard} of a sharded run: merge the shards first (reversi-lab merge), then compare the merged folder",
                dir.display()
            )));
        }
        if matches!(record.run.status, Status::Running | Status::Interrupted) {
            return Err(Error::input(format!(
                "{} is an unfinished run: finish it (reversi-lab run --resume) before comparing",
                dir.display()
            )));
        }
        let standings_path = dir.join("standings.csv");
        if !standings_path.is_file() {
            return Err(Error::input(format!(
                "{} has no standings.csv: compare folders of runs (a tune's runs are in its validation folders)",
                dir.display()
            )));
        }
        let pairs_path = dir.join("pairs.csv");
        if !pairs_path.is_file() {
            return Err(Error::input(format!(
                "{} has no pairs.csv: compare folders of finished runs, whose pairs.csv the rating changes' intervals need",
                dir.display()
            )));
        }
        Ok(Side {
            dir: dir.to_path_buf(),
            experiment: record.experiment,
            standings: read_rows(&standings_path)?,
            pairs: read_rows(&pairs_path)?,
        })
    }

    /// The Bradley-Terry fit of this run's pairs.csv, players in the order of `names`:
    /// (rating, se) each and the ratings' covariance (Elo²). It is the fit of
    /// standings.csv, redone because standings.csv keeps no covariances.
    fn fit(&self, names: &[String]) -> Result<RatingFit> {
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

    /// A top-level value of the experiment as text (`-` when absent).
    fn setting(&self, key: &str) -> String {
        match self.experiment.get(key) {
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => "-".into(),
        }
    }

    /// The players' names and strategy tables, in experiment order.
    fn players(&self) -> Vec<(String, Option<Value>)> {
        self.experiment
            .get("players")
            .and_then(Value::as_array)
            .map(|players| {
                players
                    .iter()
                    .filter_map(|p| {
                        let name = p.get("name")?.as_str()?.to_string();
                        Some((name, p.get("strategy").cloned()))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The rules, every default filled in (so an absent table equals a default one).
    fn rules(&self) -> Result<Rules> {
        match self.experiment.get("rules") {
            None => Ok(Rules::default()),
            Some(value) => value.clone().try_into().map_err(|e| {
                Error::input(format!(
                    "{}: [experiment.rules] cannot be read: {e}",
                    self.dir.join("run.toml").display()
                ))
            }),
        }
    }
}

/// Why two runs are not the same field, if they are not: the first difference found.
/// Size, rules, format (with a gauntlet's challengers) and the set of player names must
/// agree; seeds, games, openings and the players' strategies may differ.
fn refusal(a: &Side, b: &Side) -> Result<Option<String>> {
    let fields = format!("{} and {}", a.dir.display(), b.dir.display());
    for key in ["size", "format", "challengers"] {
        if a.experiment.get(key) != b.experiment.get(key) {
            return Ok(Some(format!(
                "{fields} are not the same field: {key} is {} in one and {} in the other (compare runs of one experiment, changing only strategies, seeds, games or openings)",
                a.setting(key),
                b.setting(key)
            )));
        }
    }
    let (rules_a, rules_b) = (a.rules()?, b.rules()?);
    if rules_a != rules_b {
        return Ok(Some(format!(
            "{fields} are not the same field: the rules differ ({rules_a:?} against {rules_b:?}; compare runs under the same rules)"
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

/// One row of `compare.csv`: a player's rating in both runs and its change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// The player.
    pub player: String,
    /// `yes` when its strategy differs between the runs.
    pub spec_changed: String,
    /// What the ratings are measured from: `unchanged` (the mean of the players whose
    /// strategy did not change), `mean` (the field's) or the anchor player's name.
    pub anchor: String,
    /// Games it played in run A.
    pub games_a: u64,
    /// Its rating in A (Bradley-Terry Elo, the anchor's mean 0).
    #[serde(serialize_with = "decimals::one")]
    pub rating_a: Option<f64>,
    /// Its 95% interval's lower end in A.
    #[serde(serialize_with = "decimals::one")]
    pub rating_a_low: Option<f64>,
    /// Its 95% interval's upper end in A.
    #[serde(serialize_with = "decimals::one")]
    pub rating_a_high: Option<f64>,
    /// Games it played in run B.
    pub games_b: u64,
    /// Its rating in B.
    #[serde(serialize_with = "decimals::one")]
    pub rating_b: Option<f64>,
    /// Its 95% interval's lower end in B.
    #[serde(serialize_with = "decimals::one")]
    pub rating_b_low: Option<f64>,
    /// Its 95% interval's upper end in B.
    #[serde(serialize_with = "decimals::one")]
    pub rating_b_high: Option<f64>,
    /// `rating_b - rating_a`.
    #[serde(serialize_with = "decimals::one")]
    pub change: Option<f64>,
    /// The change's 95% interval, `change -/+ 1.96 sqrt(se_a^2 + se_b^2)`: lower end.
    #[serde(serialize_with = "decimals::one")]
    pub change_low: Option<f64>,
    /// Its upper end.
    #[serde(serialize_with = "decimals::one")]
    pub change_high: Option<f64>,
    /// The two-sided p-value of "no change", `2 Phi(-|change| / se)`.
    #[serde(serialize_with = "decimals::four")]
    pub p_value: Option<f64>,
    /// The p-value after Holm's correction over every player.
    #[serde(serialize_with = "decimals::four")]
    pub p_holm: Option<f64>,
    /// `yes` when the change stays significant at a family-wise 5% after Holm.
    pub significant_holm: String,
}

/// A comparison of two runs of one field.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Run A (before).
    pub a: Side,
    /// Run B (after).
    pub b: Side,
    /// One row per player, in A's standings order.
    pub changes: Vec<Change>,
    /// The settings that differ but are allowed to (`seed`, `games_per_pair`, ...), as text.
    pub differences: Vec<String>,
    /// What both runs' ratings are measured from.
    pub anchor: AnchorUsed,
}

/// Compares two finished runs of the same field, their ratings measured from `anchor`;
/// runs of different fields, or an anchor not in the field, are refused with a
/// one-line message naming the problem.
pub fn compare(a: &Path, b: &Path, anchor: &Anchor) -> Result<Comparison> {
    let (a, b) = (Side::load(a)?, Side::load(b)?);
    if let Some(message) = refusal(&a, &b)? {
        return Err(Error::input(message));
    }
    let names: Vec<String> = a.standings.iter().map(|r| r.player.clone()).collect();
    for name in &names {
        if !b.standings.iter().any(|r| &r.player == name) {
            return Err(Error::input(format!(
                "{}: standings.csv has no row for {name}: the folder's files come from different runs",
                b.dir.display()
            )));
        }
    }
    let (specs_a, specs_b) = (a.players(), b.players());
    let spec = |specs: &[(String, Option<Value>)], name: &str| {
        specs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s.clone())
    };
    let changed: Vec<bool> = names
        .iter()
        .map(|n| spec(&specs_a, n) != spec(&specs_b, n))
        .collect();
    let anchor = AnchorUsed::resolve(anchor, &names, &changed)?;
    let anchors: Vec<usize> = anchor
        .players
        .iter()
        .filter_map(|p| names.iter().position(|n| n == p))
        .collect();
    let (fit_a, fit_b) = (
        anchored(&a.fit(&names)?, &anchors),
        anchored(&b.fit(&names)?, &anchors),
    );
    let games = |side: &Side, name: &str| {
        side.standings
            .iter()
            .find(|r| r.player == name)
            .map_or(0, |r| r.games)
    };
    let finite = |(r, se): (f64, f64)| (r.is_finite() && se.is_finite()).then_some((r, se));
    let mut changes = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let (ea, eb) = (finite(fit_a[i]), finite(fit_b[i]));
        let (change, low, high, p) = match (ea, eb) {
            (Some((ra, sa)), Some((rb, sb))) => {
                let d = rb - ra;
                // The runs are independent: their variances add.
                let se = sa.hypot(sb);
                let p = if se > 0.0 {
                    2.0 * phi(-d.abs() / se)
                } else {
                    f64::NAN
                };
                (Some(d), Some(d - Z95 * se), Some(d + Z95 * se), p)
            }
            _ => (None, None, None, f64::NAN),
        };
        let rating = |e: Option<(f64, f64)>| {
            e.map_or((None, None, None), |(r, se)| {
                (Some(r), Some(r - Z95 * se), Some(r + Z95 * se))
            })
        };
        let ((rating_a, rating_a_low, rating_a_high), (rating_b, rating_b_low, rating_b_high)) =
            (rating(ea), rating(eb));
        changes.push(Change {
            player: name.clone(),
            spec_changed: if changed[i] { "yes" } else { "no" }.into(),
            anchor: anchor.label.clone(),
            games_a: games(&a, name),
            rating_a,
            rating_a_low,
            rating_a_high,
            games_b: games(&b, name),
            rating_b,
            rating_b_low,
            rating_b_high,
            change,
            change_low: low,
            change_high: high,
            p_value: (!p.is_nan()).then_some(p),
            p_holm: None,
            significant_holm: String::new(),
        });
    }
    let raw: Vec<f64> = changes
        .iter()
        .map(|c| c.p_value.unwrap_or(f64::NAN))
        .collect();
    for (c, adjusted) in changes.iter_mut().zip(holm(&raw)) {
        c.p_holm = (!adjusted.is_nan()).then_some(adjusted);
        c.significant_holm = if adjusted <= FAMILY_WISE_ALPHA {
            "yes"
        } else {
            "no"
        }
        .into();
    }
    let differences = ["seed", "games_per_pair", "openings", "sprt", "name"]
        .into_iter()
        .filter(|k| a.experiment.get(*k) != b.experiment.get(*k))
        .map(|k| match k {
            "openings" | "sprt" => format!("{k} differ"),
            _ => format!("{k}: {} in A, {} in B", a.setting(k), b.setting(k)),
        })
        .collect();
    Ok(Comparison {
        a,
        b,
        changes,
        differences,
        anchor,
    })
}

fn p_text(x: Option<f64>) -> String {
    match x {
        Some(x) if x < 0.0001 => "<0.0001".into(),
        Some(x) => format!("{x:.4}"),
        None => "-".into(),
    }
}

fn interval(x: Option<f64>, low: Option<f64>, high: Option<f64>) -> String {
    let nan = f64::NAN;
    elo_interval(x.unwrap_or(nan), low.unwrap_or(nan), high.unwrap_or(nan))
}

impl Comparison {
    /// The table as Markdown (what `compare.md` shows and the command prints).
    #[must_use]
    pub fn table(&self) -> String {
        let mut out = String::from(
            "| player | strategy | rating A [95%] | rating B [95%] | change B - A [95%] | p | p, Holm | significant after Holm |\n|---|---|---:|---:|---:|---:|---:|---|\n",
        );
        for c in &self.changes {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                c.player,
                if c.spec_changed == "yes" {
                    "changed"
                } else {
                    "same"
                },
                interval(c.rating_a, c.rating_a_low, c.rating_a_high),
                interval(c.rating_b, c.rating_b_low, c.rating_b_high),
                interval(c.change, c.change_low, c.change_high),
                p_text(c.p_value),
                p_text(c.p_holm),
                c.significant_holm
            )
            .ok();
        }
        out
    }

    /// What was compared and how to read it, one paragraph per entry.
    #[must_use]
    pub fn explanation(&self) -> Vec<String> {
        let n = self.changes.len();
        let changed: Vec<&str> = self
            .changes
            .iter()
            .filter(|c| c.spec_changed == "yes")
            .map(|c| c.player.as_str())
            .collect();
        let significant: Vec<String> = self
            .changes
            .iter()
            .filter(|c| c.significant_holm == "yes")
            .map(|c| format!("{} ({})", c.player, signed(c.change.unwrap_or(f64::NAN), 0)))
            .collect();
        let mut lines = vec![format!(
            "A is {} and B is {}: the same field ({} players, size {}, the same rules and format).{}",
            self.a.dir.display(),
            self.b.dir.display(),
            n,
            self.a.setting("size"),
            if self.differences.is_empty() {
                String::new()
            } else {
                format!(" Allowed differences: {}.", self.differences.join("; "))
            }
        )];
        lines.push(if changed.is_empty() {
            "No player's strategy changed: every change below is noise or a difference of seeds, games or openings.".into()
        } else {
            format!(
                "The strategy changed under the same name for: {}. The other players are the same in both runs. \
                 For evidence that does not depend on the anchor below, compare the changed players' rows of \
                 pairs.csv in A and B: their score against each unchanged opponent.",
                changed.join(", ")
            )
        });
        lines.push(self.anchor.note.clone());
        for (side, name) in [(&self.a, "A"), (&self.b, "B")] {
            for p in &side.pairs {
                if let Some((e, l, h)) = p.sprt_estimate() {
                    lines.push(format!(
                        "{name} stopped on an SPRT ({} after {} game pairs), so its ratings are fixed-sample figures biased \
                         towards that verdict: the median-unbiased Elo of {} against {} is {} (95%, corrected for the stop; \
                         fixed-sample {}).",
                        p.sprt_result.as_deref().unwrap_or("-"),
                        p.sprt_pairs.as_deref().unwrap_or("-"),
                        p.player_a,
                        p.player_b,
                        elo_interval(e, l, h),
                        interval(p.elo, p.elo_low, p.elo_high)
                    ));
                }
            }
        }
        lines.push(
            "Ratings are each run's Bradley-Terry fit (standings.csv), refitted from pairs.csv for the covariance of \
             its ratings and shifted so the anchor's mean is 0; a shifted rating's standard error is that of the \
             contrast (rating less the anchor's mean) under the fit's covariance, so the anchor's own uncertainty is \
             included. The change's 95% interval is change +/- 1.96 sqrt(se_A^2 + se_B^2) (the runs are independent)."
                .into(),
        );
        lines.push(format!(
            "With {n} players some intervals exclude 0 by chance alone: the p-value tests \"no change\" (normal, \
             two-sided) and Holm's step-down correction over every player holds the chance of any false \"significant\" \
             to {:.0}%. Significant after the correction (* in the chart): {}.",
            100.0 * FAMILY_WISE_ALPHA,
            if significant.is_empty() {
                "none".to_string()
            } else {
                significant.join(", ")
            }
        ));
        lines
    }

    /// `compare.md`: what was compared, the table and the chart.
    #[must_use]
    pub fn markdown(&self) -> String {
        let mut text = String::from("# Comparison: did it help?\n\n");
        for line in self.explanation() {
            writeln!(text, "{line}\n").ok();
        }
        text.push_str(&self.table());
        text.push_str("\n![Rating changes, B minus A, with 95% intervals](charts/compare.svg)\n");
        text
    }

    /// The forest plot of the changes into `dir` (`compare.png`, `compare.svg`).
    pub fn draw(&self, dir: &Path) -> Result<Chart> {
        let nan = f64::NAN;
        // First row at the bottom: the table's order reads top down.
        let rows: Vec<(String, f64, f64, f64)> = self
            .changes
            .iter()
            .rev()
            .map(|c| {
                (
                    format!(
                        "{}{}{}",
                        c.player,
                        if c.spec_changed == "yes" {
                            " (changed)"
                        } else {
                            ""
                        },
                        if c.significant_holm == "yes" {
                            " *"
                        } else {
                            ""
                        }
                    ),
                    c.change_low.unwrap_or(nan),
                    c.change.unwrap_or(nan),
                    c.change_high.unwrap_or(nan),
                )
            })
            .collect();
        interval_chart(
            dir,
            "compare",
            "Rating change from A to B",
            &format!(
                "Elo change, B minus A, anchor {} (95% interval; * significant after Holm)",
                self.anchor.label
            ),
            &rows,
        )
    }

    /// Writes `compare.csv`, `compare.md` and `charts/compare.{png,svg}` into `dir`
    /// (which exists). Returns the chart.
    pub fn write(&self, dir: &Path) -> Result<Chart> {
        let csv_path = dir.join(COMPARE_FILES[0]);
        std::fs::write(&csv_path, csv_bytes(&self.changes, &csv_path)?)
            .map_err(|e| Error::io(&csv_path, e))?;
        let md_path = dir.join(COMPARE_FILES[1]);
        std::fs::write(&md_path, self.markdown()).map_err(|e| Error::io(&md_path, e))?;
        self.draw(&dir.join("charts"))
    }
}

/// The default output folder: `results/compare-<A>-vs-<B>` from the folders' names.
#[must_use]
pub fn default_out(a: &Path, b: &Path) -> PathBuf {
    let name = |p: &Path| {
        p.file_name()
            .map_or_else(|| "run".into(), |n| n.to_string_lossy().into_owned())
    };
    Path::new("results").join(format!("compare-{}-vs-{}", name(a), name(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_folder_names_both_runs() {
        assert_eq!(
            default_out(Path::new("results/before"), Path::new("/x/after")),
            Path::new("results/compare-before-vs-after")
        );
    }
}
