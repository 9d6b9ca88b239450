//! Loading a results folder: run.toml, pairs.csv, standings.csv, costs.csv, and what the charts need from games.csv.

use super::diversity::Distinct;
use super::notable::{Notable, Picker};
use crate::error::{Error, Result};
use crate::lab::games_file;
use crate::lab::rows::{read_csv, CostRow, RunInfo, RunToml};
pub use crate::lab::rows::{PairRow, StandingRow};
use crate::lab::GameRow;
use crate::lab::{FolderFile, Format, RecordKind, RecordedExperiment, ResultsFolder};
use crate::stats::{Pentanomial, SprtWatch};
use std::path::{Path, PathBuf};

/// A head-to-head run's history, sampled: (games, score, low, high) and (pairs, LLR).
#[derive(Clone, Debug, Default)]
pub struct History {
    /// Score of the first player with its 95% pentanomial score interval after each
    /// sampled count of games (a whole number of colour-swapped game pairs).
    pub score: Vec<(u64, f64, f64, f64)>,
    /// The SPRT log-likelihood ratio after each sampled pair count.
    pub llr: Vec<(u64, f64)>,
    /// The SPRT's nominal bounds (lower, upper), when an SPRT ran.
    pub bounds: Option<(f64, f64)>,
    /// The bounds in force after each sampled pair count, when they are corrected
    /// for overshoot: (pairs, lower, upper).
    pub in_force: Vec<(u64, f64, f64)>,
}

/// Everything a report shows.
#[derive(Clone, Debug)]
pub struct Results {
    /// The folder.
    pub dir: PathBuf,
    /// `[experiment]` of run.toml, as recorded.
    pub experiment: RecordedExperiment,
    /// `[run]` of run.toml.
    pub run: RunInfo,
    /// pairs.csv.
    pub pairs: Vec<PairRow>,
    /// standings.csv.
    pub standings: Vec<StandingRow>,
    /// Player names in experiment order.
    pub players: Vec<String>,
    /// Per pair, the first player's disc margins.
    pub margins: Vec<Vec<f32>>,
    /// Head-to-head history (empty for other formats).
    pub history: History,
    /// The notable games of each pair shown (the pairs with the most games).
    pub notable: Vec<Notable>,
    /// Per pair, the distinct games (by who played black and every move).
    pub distinct: Vec<u64>,
    /// `costs.csv`: what each player's moves cost (None for folders made before it existed).
    pub costs: Option<Vec<CostRow>>,
    /// The games lost by a fault (an external engine's), in game order.
    pub faults: Vec<Fault>,
    /// For a run still going or interrupted: (games played so far, games in all);
    /// the pairs and standings are then counted from `games.csv` as it stands.
    pub partial: Option<(u64, u64)>,
}

/// A game lost by a fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Its `game_id`.
    pub game_id: u64,
    /// The player at fault.
    pub player: String,
    /// Its `termination`.
    pub termination: String,
}

/// The pairs and standings of a run that has not finished, counted from the
/// games in `games.csv` so far (a partial last row is ignored).
fn so_far(
    record: &RunToml,
    games_path: &Path,
) -> Result<(Vec<PairRow>, Vec<StandingRow>, u64, u64)> {
    use crate::lab::{Experiment, GameRow, Schedule};
    let experiment =
        Experiment::recorded_for_tally(&record.experiment, &games_path.display().to_string())?;
    let schedule = Schedule::of(&experiment);
    let mut tallies = crate::lab::tally::Tallies::new(schedule.pairs().len());
    let mut reader = games_file::csv_reader(games_path)?;
    let mut played = 0u64;
    for row in reader.deserialize::<GameRow>() {
        let Ok(row) = row else { break };
        if row.game_id != played || played >= schedule.total() {
            break;
        }
        tallies.record_game(&experiment, schedule.slot(played), row.margin);
        played += 1;
    }
    Ok((
        tallies.pair_rows(&experiment),
        tallies.standing_rows(&experiment),
        played,
        schedule.total(),
    ))
}

fn need(folder: &ResultsFolder, file: FolderFile) -> Result<PathBuf> {
    if folder.has(file) {
        Ok(folder.path(file))
    } else {
        Err(Error::said(
            crate::setting::Said::text(format!(
                "{} is missing {}: not a complete results folder (run `reversi-lab run` to make one, or ",
                folder.dir().display(),
                file.name()
            ))
            .name(&crate::lab::folder::RESUME)
            .then(" an interrupted run)"),
        ))
    }
}

impl Results {
    /// Loads a results folder; a missing file is an error that names it.
    pub fn load(dir: &Path) -> Result<Self> {
        if let Some(shards) = crate::lab::shard::Unmerged::find(dir) {
            return Err(shards.refusal(dir, "report the merged folder"));
        }
        let folder = ResultsFolder::open(dir)?;
        let run_path = need(&folder, FolderFile::RunRecord)?;
        let games_path = match folder.games() {
            Some((path, _)) => path,
            None => need(&folder, FolderFile::Games)?,
        };
        games_file::check_has_games(&games_path)?;
        let record = RunToml::load(&run_path)?;
        record.refuse_import(dir, "reported (it has no standings to show)")?;
        if let RecordKind::Shard(shard) = record.kind() {
            return Err(Error::input(format!(
                "{} holds shard {shard} of a sharded run: merge the shards first ({}), then report the merged folder",
                dir.display(),
                crate::lab::shard::merges(record.run.study, crate::lab::shard::whole_run_of(dir))
            )));
        }
        let experiment = record.recorded_experiment(&run_path)?;
        let players: Vec<String> = experiment
            .own
            .players
            .iter()
            .map(|p| p.name.clone())
            .collect();
        let finished = record.run.status.is_finished() && folder.has(FolderFile::Pairs);
        let (pairs, standings, partial) = if finished {
            let pairs: Vec<PairRow> =
                crate::lab::rows::read_rows(&need(&folder, FolderFile::Pairs)?)?;
            let standings: Vec<StandingRow> =
                crate::lab::rows::read_rows(&need(&folder, FolderFile::Standings)?)?;
            (pairs, standings, None)
        } else {
            let (pairs, standings, played, total) = so_far(&record, &games_path)?;
            (pairs, standings, Some((played, total)))
        };
        let head_to_head = experiment.own.format == Format::HeadToHead;
        let design = experiment.own.sprt.map(|s| s.design());
        let mut watch = SprtWatch::default();
        let mut pairs = pairs;
        if let Some(design) = &design {
            fill_in_the_estimate(&mut pairs, design);
        }

        // One pass over games.csv: margins per pair, and the head-to-head history.
        let mut margins = vec![Vec::new(); pairs.len()];
        let mut history = History {
            bounds: design.map(|d| d.bounds()),
            ..History::default()
        };
        let mut penta = Pentanomial::default();
        let mut pending: Option<f64> = None;
        let mut picker = Picker::new(&pairs, &standings);
        let size = experiment.setup.size;
        let mut distinct = Distinct::new(pairs.len(), size);
        let mut faults = Vec::new();
        let mut reader = games_file::csv_reader(&games_path)?;
        let total: u64 = pairs.iter().map(|p| p.games).sum();
        let step = (total / 1500).max(1);
        for (index, row) in reader.deserialize::<GameRow>().enumerate() {
            if partial.is_some_and(|(played, _)| index as u64 >= played) {
                break; // a run still writing, or a partial row left by a kill
            }
            let row = row.map_err(|e| games_file::row_error(&games_path, &e))?;
            let pair_id = row.pair_id as usize;
            let Some(pair) = pairs.get(pair_id) else {
                return Err(Error::input(format!(
                    "{}: game {index} names pair {} but pairs.csv has {}: the files come from different runs",
                    games_path.display(),
                    row.pair_id,
                    pairs.len()
                )));
            };
            let a_margin = if row.black == pair.player_a {
                row.margin
            } else {
                -row.margin
            };
            margins[pair_id].push(a_margin as f32);
            if row.termination != crate::game::Termination::Normal.name() {
                // The side at fault lost: the other side is the result.
                let loser = if row.result == "white" {
                    &row.black
                } else {
                    &row.white
                };
                faults.push(Fault {
                    game_id: row.game_id,
                    player: loser.to_string(),
                    termination: row.termination.to_string(),
                });
            }
            picker.offer(pair_id, &row);
            distinct.offer(pair_id, &row);
            if head_to_head {
                let points = match a_margin.signum() {
                    1 => 1.0,
                    -1 => 0.0,
                    _ => 0.5,
                };
                let games = index as u64 + 1;
                match pending.take() {
                    None => pending = Some(points),
                    Some(first) => {
                        penta.record(first + points);
                        if games.is_multiple_of(2 * step) || games >= total - 1 {
                            let s = penta.interval95();
                            history.score.push((games, s.mean, s.low, s.high));
                        }
                        if let Some(design) = &design {
                            // Every pair, as the run judged it: the correction follows the path.
                            let (llr, _) = watch.judge(design, &penta);
                            if games.is_multiple_of(2 * step) || games == total {
                                history.llr.push((penta.pairs(), llr));
                                if design.overshoot {
                                    let (lower, upper) = watch.bounds(design);
                                    history.in_force.push((penta.pairs(), lower, upper));
                                }
                            }
                        }
                    }
                }
            }
        }
        let costs = if folder.has(FolderFile::Costs) {
            Some(read_csv(&folder.path(FolderFile::Costs))?)
        } else {
            None
        };
        Ok(Results {
            notable: picker.finish(),
            distinct: distinct.finish(),
            faults,
            partial,
            costs,
            dir: dir.to_path_buf(),
            experiment,
            run: record.run,
            pairs,
            standings,
            players,
            margins,
            history,
        })
    }

    /// The experiment's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.experiment.own.name
    }

    /// How its players were paired.
    #[must_use]
    pub fn format(&self) -> Format {
        self.experiment.own.format
    }

    /// Whether the run was head-to-head.
    #[must_use]
    pub fn is_head_to_head(&self) -> bool {
        self.format() == Format::HeadToHead
    }
}

/// A pairs.csv written before the median-unbiased Elo existed: worked out from the
/// row's own counts, so an old SPRT folder's report shows it too.
fn fill_in_the_estimate(pairs: &mut [PairRow], design: &crate::stats::SprtDesign) {
    use crate::stats::{median_unbiased, Verdict};
    for p in pairs.iter_mut().filter(|p| p.sprt_elo.is_none()) {
        let verdict = match p.sprt_result.as_deref() {
            Some("H1") => Verdict::H1,
            Some("H0") => Verdict::H0,
            _ => continue,
        };
        p.set_sprt_estimate(median_unbiased(design, &p.paired().pairs, verdict));
    }
}
