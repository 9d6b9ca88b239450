//! What `compare` measures both runs' ratings from (`--anchor`): the players whose
//! strategy did not change, the field's mean or one player; and the standard error of
//! a rating shifted onto an anchor, from the fit's covariance.

use crate::error::{Error, Result};
use crate::setting::{Said, Setting};
use crate::stats::RatingFit;

/// What a comparison's ratings are measured against: `--anchor NAME`.
pub static ANCHOR: Setting = Setting::new("", "--anchor", "anchor");

/// What both runs' ratings are measured from, so that a change means the same in both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The mean of the players whose strategy is the same in both runs (the default):
    /// a change is then measured against the players that did not change.
    Unchanged,
    /// The mean of the whole field (each fit's own anchor).
    Mean,
    /// One named player, whose change is then 0 by definition.
    Player(String),
}

impl Anchor {
    /// `unchanged`, `mean` or a player's name, as `--anchor` takes it.
    #[must_use]
    pub fn parse(text: &str) -> Self {
        match text {
            "unchanged" => Self::Unchanged,
            "mean" => Self::Mean,
            name => Self::Player(name.to_string()),
        }
    }
}

/// The anchor a comparison used: its label in `compare.csv`, its players, and how it
/// came about (a fallback says why).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnchorUsed {
    /// `unchanged`, `mean` or the anchor player's name: compare.csv's `anchor` column.
    pub label: String,
    /// The players whose mean rating is 0 in both runs.
    pub players: Vec<String>,
    /// One sentence for compare.md and stdout.
    pub note: String,
}

impl AnchorUsed {
    /// Resolves `anchor` over the field (`changed[i]`: player i's strategy changed).
    pub(crate) fn resolve(anchor: &Anchor, names: &[String], changed: &[bool]) -> Result<Self> {
        let mean = |why: &str| {
            AnchorUsed {
            label: "mean".into(),
            players: names.to_vec(),
            note: format!(
                "{why}Anchor: the field's mean (each run's ratings average 0 over all {} players), so a change is \
                 relative to the field: if one player gains D Elo, its own change reads about D(n-1)/n and every other \
                 player's about -D/n, though their strength did not change.",
                names.len()
            ),
        }
        };
        match anchor {
            Anchor::Mean => Ok(mean("")),
            Anchor::Unchanged => {
                let same: Vec<String> = names
                    .iter()
                    .zip(changed)
                    .filter(|(_, &c)| !c)
                    .map(|(n, _)| n.clone())
                    .collect();
                if same.is_empty() {
                    Ok(mean(
                        "Every player's strategy changed, so no player can anchor the change. ",
                    ))
                } else if same.len() == names.len() {
                    Ok(mean("No player's strategy changed (nothing to anchor on apart from the field). "))
                } else {
                    Ok(AnchorUsed {
                        label: "unchanged".into(),
                        note: format!(
                            "Anchor: the players whose strategy is the same in both runs ({}): each run's ratings are \
                             shifted so that their mean is 0, so a change is measured against them (--anchor mean for \
                             the field's mean, --anchor PLAYER for one player).",
                            same.join(", ")
                        ),
                        players: same,
                    })
                }
            }
            Anchor::Player(name) => {
                if !names.contains(name) {
                    return Err(Error::said(Said::default().given(&ANCHOR, name).then(format!(
                        ": no such player in the field ({}); give one of them, `unchanged` or `mean`",
                        names.join(", ")
                    ))));
                }
                Ok(AnchorUsed {
                    label: name.clone(),
                    players: vec![name.clone()],
                    note: format!(
                        "Anchor: {name} (rated 0 in both runs, so its change is 0 by definition and untested)."
                    ),
                })
            }
        }
    }
}

/// Ratings shifted so the anchors' mean is 0, with the standard error of each shifted
/// rating, `sqrt(w' C w)` for the contrast `w = e_i - (1/m) sum of the anchors' e_j`
/// and the fit's covariance C: exact for the fit's normal approximation, since the
/// ratings of one fit are correlated (ignoring that would misstate the error).
pub(crate) fn anchored(fit: &RatingFit, anchors: &[usize]) -> Vec<(f64, f64)> {
    let (ratings, covariance) = fit;
    let k = ratings.len();
    let m = anchors.len() as f64;
    let shift = anchors.iter().map(|&j| ratings[j].0).sum::<f64>() / m;
    (0..k)
        .map(|i| {
            let mut w = vec![0.0; k];
            w[i] += 1.0;
            for &j in anchors {
                w[j] -= 1.0 / m;
            }
            let variance: f64 = (0..k)
                .filter(|&a| w[a] != 0.0)
                .flat_map(|a| (0..k).map(move |b| (a, b)))
                .filter(|&(_, b)| w[b] != 0.0)
                .map(|(a, b)| w[a] * covariance[a][b] * w[b])
                .sum();
            // Round-off leaves the anchor player's own contrast a hair from 0.
            let se = if w.iter().all(|x| x.abs() < 1e-12) {
                0.0
            } else {
                variance.max(0.0).sqrt()
            };
            (ratings[i].0 - shift, se)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn the_anchor_falls_back_to_the_mean_and_refuses_strangers() {
        let field = names(&["a", "b", "c"]);
        let used = AnchorUsed::resolve(&Anchor::Unchanged, &field, &[true, false, false]).unwrap();
        assert_eq!(
            (used.label.as_str(), used.players),
            ("unchanged", names(&["b", "c"]))
        );
        for changed in [[false; 3], [true; 3]] {
            let used = AnchorUsed::resolve(&Anchor::Unchanged, &field, &changed).unwrap();
            assert_eq!(used.label, "mean");
            assert!(used.note.contains("field's mean"), "{}", used.note);
        }
        let err = AnchorUsed::resolve(&Anchor::parse("zed"), &field, &[false; 3]).unwrap_err();
        assert!(err.to_string().contains("--anchor zed"), "{err}");
        assert_eq!(Anchor::parse("mean"), Anchor::Mean);
    }

    #[test]
    fn a_shifted_rating_carries_the_anchors_covariance() {
        // Three players, ratings 100, 0, -100; a covariance with correlated errors.
        let cov = vec![
            vec![400.0, -100.0, -300.0],
            vec![-100.0, 200.0, -100.0],
            vec![-300.0, -100.0, 400.0],
        ];
        let fit = (
            vec![(100.0, 20.0), (0.0, 200f64.sqrt()), (-100.0, 20.0)],
            cov,
        );
        // The field's mean (already 0): nothing moves, the se's are the fit's.
        let mean = anchored(&fit, &[0, 1, 2]);
        for (got, want) in mean.iter().zip(&fit.0) {
            assert!((got.0 - want.0).abs() < 1e-9 && (got.1 - want.1).abs() < 1e-9);
        }
        // Anchored on player 1: its rating and se are 0; player 0's se is that of r0 - r1,
        // var 400 + 200 - 2(-100) = 800.
        let one = anchored(&fit, &[1]);
        assert_eq!(one[1], (0.0, 0.0));
        assert!((one[0].0 - 100.0).abs() < 1e-9 && (one[0].1 - 800f64.sqrt()).abs() < 1e-9);
        // Anchored on players 1 and 2 (mean -50): player 1's contrast is (r1 - r2)/2,
        // var (200 + 400 + 200) / 4 = 200.
        let two = anchored(&fit, &[1, 2]);
        assert!((two[1].0 - 50.0).abs() < 1e-9 && (two[1].1 - 200f64.sqrt()).abs() < 1e-9);
    }
}
