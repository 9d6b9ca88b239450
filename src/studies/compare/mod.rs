//! `reversi-lab compare`: did a change help? Two runs of the same field (before and after
//! a strategy change), each player's rating in both with its change, the change's 95%
//! interval and a Holm-corrected test of "no change". The runs are read in `side.rs`,
//! the anchor chosen in `anchor.rs`, and the result written out in `report.rs`.

mod anchor;
mod report;
mod side;

pub use anchor::{Anchor, AnchorUsed};
pub use report::prepare_folder;
pub use side::Side;

use crate::error::{Error, Result};
use crate::lab::recorded_text as text;
use crate::lab::rows::decimals;
use crate::stats::{holm, phi, Z95};
use anchor::anchored;
use serde::{Deserialize, Serialize};
use side::refusal;
use std::path::{Path, PathBuf};

/// The family-wise error rate Holm's correction holds the comparison to.
pub const FAMILY_WISE_ALPHA: f64 = 0.05;

/// The files a comparison writes into its folder (the chart adds `charts/compare.*`).
pub const COMPARE_FILES: [&str; 2] = ["compare.csv", "compare.md"];

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
    #[serde(serialize_with = "decimals::p")]
    pub p_value: Option<f64>,
    /// The p-value after Holm's correction over every player.
    #[serde(serialize_with = "decimals::p")]
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
    let spec = |specs: &[(String, &toml::Table)], name: &str| {
        specs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| (*s).clone())
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
    let (x, y) = (&a.experiment, &b.experiment);
    let shown = |key: &str, one: String, other: String| {
        (one != other).then(|| format!("{key}: {one} in A, {other} in B"))
    };
    let differences = [
        shown("seed", text(&x.setup.seed), text(&y.setup.seed)),
        shown(
            "games_per_pair",
            text(&x.own.games_per_pair),
            text(&y.own.games_per_pair),
        ),
        (x.setup.openings != y.setup.openings).then(|| "openings differ".to_string()),
        (x.own.sprt != y.own.sprt).then(|| "sprt differ".to_string()),
        shown("name", text(&x.own.name), text(&y.own.name)),
    ]
    .into_iter()
    .flatten()
    .collect();
    Ok(Comparison {
        a,
        b,
        changes,
        differences,
        anchor,
    })
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
