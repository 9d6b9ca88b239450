//! Held-out validation openings: openings whose positions start no training game,
//! so validation measures the tuned player on positions it was not tuned on.

use super::config::Tune;
use crate::board::Geometry;
use crate::error::Result;
use crate::game::Game;
use crate::lab::schedule::random_opening;
use crate::lab::{Openings, Schedule, Seeds};
use crate::studies::openings::{canonical as canonical_position, Canonical};
use crate::with_geometry;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

/// The file the openings are written to, in the tune's folder.
pub const FILE: &str = "validation-openings.txt";

/// Candidates drawn per ply count before moving to the next: enough to exhaust the
/// unseen openings of a short opening length, little time (microseconds each).
const CANDIDATES_PER_NEEDED: usize = 20;

/// Ply counts tried past the training's before giving up.
const EXTRA_PLIES: u32 = 8;

/// The validation openings of a tune and how they were chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldOut {
    /// The openings (transcripts), each a different position up to symmetry.
    pub transcripts: Vec<String>,
    /// Openings wanted: one per colour-swapped game pair of a validation run.
    pub wanted: usize,
    /// Openings per ply count.
    pub by_plies: BTreeMap<u32, usize>,
    /// The training's openings, and how many distinct positions (up to symmetry) they are.
    pub training_openings: u64,
    /// Distinct training start positions, up to symmetry.
    pub training_positions: usize,
    /// Of `wanted` random openings drawn the way validation drew them before (the
    /// training's recipe with the validation seed), how many start a training game.
    pub seen_before: usize,
}

/// A position up to the 8 symmetries of the board: the smallest image.
fn canonical<G: Geometry>(transcript: &str) -> Canonical {
    let game = Game::<G>::from_transcript(transcript).expect("openings are legal");
    canonical_position(game.position())
}

/// Seed of held-out candidate `i` of `plies` plies: the random-opening recipe of
/// pair `2^62 + plies` under the first validation run's seed (no training or
/// validation game uses that pair number).
fn candidate_seed(seed: u64, plies: u32, i: u64) -> u64 {
    Seeds(Seeds(seed).validation(0)).opening(1 << 62 | u64::from(plies), i)
}

/// Chooses `wanted` validation openings none of whose positions (up to symmetry)
/// starts a training game. None when the training plays from the start position
/// only (validation then does too: nothing can be held out).
#[must_use]
pub fn held_out(tune: &Tune, wanted: usize) -> Option<HeldOut> {
    with_geometry!(tune.setup.size, G => held_out_for::<G>(tune, wanted))
}

fn held_out_for<G: Geometry>(tune: &Tune, wanted: usize) -> Option<HeldOut> {
    let schedule = Schedule::new(&tune.setup, Vec::new(), tune.games);
    // Every opening a training game may have started from: iteration k plays as
    // pair k, opening j for j below games / 2 (a superset for panels, which use fewer).
    let (training, first_plies): (Vec<String>, u32) = match &tune.setup.openings {
        Openings::Start => return None,
        Openings::RandomPlies(plies) => (
            (1..=tune.iterations)
                .flat_map(|k| (0..tune.games / 2).map(move |j| (k, j)))
                .map(|(k, j)| schedule.opening(k, j))
                .collect(),
            *plies,
        ),
        Openings::List { transcripts, .. } => {
            let longest = transcripts
                .iter()
                .map(|t| Game::<G>::from_transcript(t).map_or(0, |g| g.moves().len()))
                .max()
                .unwrap_or(0);
            (transcripts.clone(), longest as u32)
        }
    };
    let seen: HashSet<Canonical> = training.iter().map(|t| canonical::<G>(t)).collect();
    // What validation drew before: the training's recipe under the validation seed.
    let before = Schedule::new(
        &crate::lab::Setup {
            seed: Seeds(tune.setup.seed).validation(0),
            ..tune.setup.clone()
        },
        Vec::new(),
        2,
    );
    let seen_before = (0..wanted as u64)
        .filter(|&k| seen.contains(&canonical::<G>(&before.opening(0, k))))
        .count();
    let mut chosen: HashSet<Canonical> = HashSet::new();
    let mut transcripts = Vec::new();
    let mut by_plies = BTreeMap::new();
    let most = G::CELLS - 5;
    for plies in (first_plies.max(1)..=first_plies + EXTRA_PLIES).filter(|&p| p <= most) {
        for i in 0..(CANDIDATES_PER_NEEDED * wanted) as u64 {
            if transcripts.len() == wanted {
                break;
            }
            let transcript = random_opening::<G>(plies, candidate_seed(tune.setup.seed, plies, i));
            let key = canonical::<G>(&transcript);
            if !seen.contains(&key) && chosen.insert(key) {
                transcripts.push(transcript);
                *by_plies.entry(plies).or_insert(0) += 1;
            }
        }
    }
    Some(HeldOut {
        transcripts,
        wanted,
        by_plies,
        training_openings: training.len() as u64,
        training_positions: seen.len(),
        seen_before,
    })
}

impl HeldOut {
    /// One line for the tune's report and terminal.
    #[must_use]
    pub fn describe(&self) -> String {
        let plies: Vec<String> = self
            .by_plies
            .iter()
            .map(|(p, n)| format!("{n} of {p} plies"))
            .collect();
        format!(
            "validation openings: {} held out ({} wanted, one per game pair), all unseen in training: none of their \
             positions, up to the 8 symmetries of the board, is among the {} openings training drew ({} distinct \
             positions); {} (file {FILE}). Drawn the way training draws them, as validation did before, {} of {} \
             would have been training positions.",
            self.transcripts.len(),
            self.wanted,
            self.training_openings,
            self.training_positions,
            if plies.is_empty() {
                "none found".to_string()
            } else {
                plies.join(", ")
            },
            self.seen_before,
            self.wanted
        )
    }

    /// Writes the openings file: a header saying how they were chosen, then one transcript per line.
    pub fn write(&self, dir: &Path, tune_name: &str) -> Result<()> {
        let mut text = format!(
            "# Held-out validation openings of tune {tune_name}, written by reversi-lab tune.\n# {}\n",
            self.describe()
        );
        for t in &self.transcripts {
            writeln!(text, "{t}").ok();
        }
        let path = dir.join(FILE);
        crate::lab::folder::write_atomically(&path, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size8;

    fn tune(plies: u32, iterations: u64) -> Tune {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.toml");
        std::fs::write(
            &path,
            format!(
                "name = \"t\"\niterations = {iterations}\ngames_per_iteration = 8\n[openings]\nrandom_plies = {plies}\n\
                 [player]\nkind = \"eval\"\n[[params]]\nname = \"corners\"\nmin = 0\nmax = 50\nstep = 2\n"
            ),
        )
        .unwrap();
        Tune::load(&path).unwrap()
    }

    #[test]
    fn held_out_openings_are_distinct_and_unseen_in_training() {
        // 2-ply openings: 12 transcripts, 3 positions up to symmetry, all drawn by
        // 40 iterations of 4 openings: the held-out ones need 3 plies or more.
        let tune = tune(2, 40);
        let held = held_out(&tune, 30).unwrap();
        assert_eq!(held.transcripts.len(), 30);
        assert_eq!(held.training_openings, 160);
        assert_eq!(held.training_positions, 3);
        assert_eq!(
            held.seen_before, 30,
            "every 2-ply opening is a training one"
        );
        assert!(!held.by_plies.contains_key(&2) && held.by_plies.contains_key(&3));
        let schedule = Schedule::new(&tune.setup, Vec::new(), tune.games);
        let training: HashSet<_> = (1..=40)
            .flat_map(|k| (0..4).map(move |j| (k, j)))
            .map(|(k, j)| canonical::<Size8>(&schedule.opening(k, j)))
            .collect();
        let chosen: HashSet<_> = held
            .transcripts
            .iter()
            .map(|t| canonical::<Size8>(t))
            .collect();
        assert_eq!(chosen.len(), 30, "distinct positions");
        assert!(chosen.is_disjoint(&training));
        // Deterministic.
        assert_eq!(held_out(&tune, 30), Some(held));
    }

    #[test]
    fn longer_openings_keep_the_training_length_when_they_can() {
        let held = held_out(&tune(6, 3), 10).unwrap();
        assert_eq!(held.by_plies, BTreeMap::from([(6, 10)]));
    }

    #[test]
    fn symmetric_positions_are_one_position() {
        // f5 and its images d3, c4, e6 are the same opening.
        let keys: HashSet<_> = ["f5", "d3", "c4", "e6"]
            .iter()
            .map(|t| canonical::<Size8>(t))
            .collect();
        assert_eq!(keys.len(), 1);
        assert_ne!(canonical::<Size8>("f5d6"), canonical::<Size8>("f5f6"));
    }
}
