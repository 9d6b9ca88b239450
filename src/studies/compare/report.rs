//! A comparison written out: its table and explanation (what the command prints and
//! `compare.md` shows), the forest plot of the changes, and its folder and files.

use super::{Comparison, COMPARE_FILES, FAMILY_WISE_ALPHA};
use crate::chart::{interval_chart, Chart};
use crate::error::{Error, Result};
use crate::lab::folder::{FORCE, OUT};
use crate::lab::rows::csv_bytes;
use crate::numbers::{elo_interval, signed};
use crate::setting::Said;
use std::fmt::Write as _;
use std::path::Path;

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
            self.a.experiment.setup.size,
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
        crate::lab::folder::write_atomically(&csv_path, csv_bytes(&self.changes, &csv_path)?)?;
        let md_path = dir.join(COMPARE_FILES[1]);
        crate::lab::folder::write_atomically(&md_path, self.markdown())?;
        self.draw(&crate::lab::ResultsFolder::at(dir).path(crate::lab::FolderFile::Charts))
    }
}

/// Prepares the output folder: new, or (with `force`) one an earlier comparison wrote.
pub fn prepare_folder(dir: &Path, force: bool) -> Result<()> {
    if dir.exists() {
        if !dir.is_dir() {
            return Err(Error::said(
                Said::text(format!("{} is a file: give ", dir.display()))
                    .name(&OUT)
                    .then(" a folder"),
            ));
        }
        let ours = COMPARE_FILES.iter().any(|f| dir.join(f).is_file());
        let empty = std::fs::read_dir(dir)
            .map_err(|e| Error::unreadable(dir, &e))?
            .next()
            .is_none();
        if !empty && !force {
            return Err(Error::said(
                Said::text(format!("{} already exists: ", dir.display()))
                    .name(&FORCE)
                    .then(" replaces an earlier comparison there, or choose another ")
                    .name(&OUT),
            ));
        }
        if !empty && !ours {
            return Err(Error::said(
                Said::text(format!(
                    "{} is not a comparison's folder (no compare.csv): ",
                    dir.display()
                ))
                .name(&FORCE)
                .then(" replaces only a comparison; choose another ")
                .name(&OUT),
            ));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io_during("create", dir, e))
}
