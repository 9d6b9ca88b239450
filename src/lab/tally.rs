//! Counting games as they stream past, in game order, into per-pair tallies, the
//! SPRT's verdict, and the rows of `pairs.csv` and `standings.csv`.

use super::experiment::Experiment;
use super::rows::{PairRow, StandingRow, Status};
use crate::stats::{bradley_terry, sprt_bounds, Moments, Pentanomial, Trinomial, Z95};

/// One pair's results from its first player's (A's) point of view.
#[derive(Clone, Debug, Default)]
pub struct PairTally {
    /// Every game.
    pub all: Trinomial,
    /// A's games as black.
    pub as_black: Trinomial,
    /// A's games as white.
    pub as_white: Trinomial,
    /// A's disc margins.
    pub margin: Moments,
    /// Colour-swapped game pairs by A's points.
    pub penta: Pentanomial,
    /// The first game of a colour-swapped pair, waiting for its twin.
    pending: Option<f64>,
}

impl PairTally {
    /// Counts one game: A had black or not, and A's margin.
    pub fn record(&mut self, a_black: bool, a_margin: i32) {
        let t = Trinomial::of_margin(a_margin);
        self.all += t;
        if a_black {
            self.as_black += t;
        } else {
            self.as_white += t;
        }
        self.margin.push(f64::from(a_margin));
        // Games 2k and 2k+1 of a pair share an opening with colours swapped, and
        // A has black in the even one.
        let points = t.points();
        if a_black {
            self.pending = Some(points);
        } else if let Some(first) = self.pending.take() {
            self.penta.record(first + points);
        }
    }
}

/// Everything counted so far, in game order.
#[derive(Clone, Debug)]
pub struct Tallies {
    /// Per pair, in the experiment's pair order.
    pub pairs: Vec<PairTally>,
    /// The SPRT's verdict once it has one.
    pub sprt_done: Option<Status>,
}

impl Tallies {
    /// Empty tallies for `pairs` pairs.
    #[must_use]
    pub fn new(pairs: usize) -> Self {
        Tallies {
            pairs: vec![PairTally::default(); pairs],
            sprt_done: None,
        }
    }

    /// Counts a game; returns true if the SPRT has just concluded.
    pub fn record(
        &mut self,
        experiment: &Experiment,
        pair: usize,
        a_black: bool,
        a_margin: i32,
    ) -> bool {
        let tally = &mut self.pairs[pair];
        tally.record(a_black, a_margin);
        if let (Some(sprt), None) = (experiment.sprt, self.sprt_done) {
            if !a_black {
                let llr = tally.penta.llr(sprt.elo0, sprt.elo1);
                let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
                if llr >= upper {
                    self.sprt_done = Some(Status::SprtAcceptedH1);
                } else if llr <= lower {
                    self.sprt_done = Some(Status::SprtAcceptedH0);
                }
                return self.sprt_done.is_some();
            }
        }
        false
    }

    /// The rows of `pairs.csv`.
    #[must_use]
    pub fn pair_rows(&self, experiment: &Experiment) -> Vec<PairRow> {
        let defined = |x: f64| (!x.is_nan()).then_some(x);
        experiment
            .pairs()
            .iter()
            .zip(&self.pairs)
            .map(|(&(a, b), t)| {
                let score = t.all.score();
                // A score lies in [0, 1]; the normal approximation's interval may not.
                let (low, high) = score.interval95();
                let (elo, elo_low, elo_high) = score.elo95();
                let margin = t.margin.estimate();
                let (margin_low, margin_high) = margin.interval95();
                let (p_elo, p_low, p_high) = if t.penta.pairs() > 0 {
                    t.penta.score().elo95()
                } else {
                    (f64::NAN, f64::NAN, f64::NAN)
                };
                let sprt = experiment.sprt.map(|sprt| {
                    let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
                    let verdict = match self.sprt_done {
                        Some(Status::SprtAcceptedH1) => "H1",
                        Some(Status::SprtAcceptedH0) => "H0",
                        _ => "continue",
                    };
                    (t.penta.llr(sprt.elo0, sprt.elo1), lower, upper, verdict)
                });
                let [penta_0, penta_1, penta_2, penta_3, penta_4] = t.penta.0;
                PairRow {
                    player_a: experiment.players[a].name.clone(),
                    player_b: experiment.players[b].name.clone(),
                    games: t.all.games(),
                    wins: t.all.wins,
                    draws: t.all.draws,
                    losses: t.all.losses,
                    score: defined(score.mean),
                    score_low: defined(low.clamp(0.0, 1.0)),
                    score_high: defined(high.clamp(0.0, 1.0)),
                    elo: defined(elo),
                    elo_low: defined(elo_low),
                    elo_high: defined(elo_high),
                    los: defined(score.los()),
                    black_wins: t.as_black.wins,
                    black_draws: t.as_black.draws,
                    black_losses: t.as_black.losses,
                    black_score: defined(t.as_black.score().mean),
                    white_wins: t.as_white.wins,
                    white_draws: t.as_white.draws,
                    white_losses: t.as_white.losses,
                    white_score: defined(t.as_white.score().mean),
                    margin_mean: defined(margin.mean),
                    margin_low: defined(margin_low),
                    margin_high: defined(margin_high),
                    penta_0,
                    penta_1,
                    penta_2,
                    penta_3,
                    penta_4,
                    penta_elo: defined(p_elo),
                    penta_elo_low: defined(p_low),
                    penta_elo_high: defined(p_high),
                    sprt_llr: sprt.map(|s| s.0),
                    sprt_lower: sprt.map(|s| s.1),
                    sprt_upper: sprt.map(|s| s.2),
                    sprt_result: sprt.map(|s| s.3.to_string()),
                }
            })
            .collect()
    }

    /// The rows of `standings.csv`: a Bradley-Terry fit over every game, best first.
    #[must_use]
    pub fn standing_rows(&self, experiment: &Experiment) -> Vec<StandingRow> {
        let n = experiment.players.len();
        let mut matrix = vec![vec![Trinomial::default(); n]; n];
        for (&(a, b), tally) in experiment.pairs().iter().zip(&self.pairs) {
            let t = tally.all;
            matrix[a][b] += t;
            matrix[b][a] += t.mirrored();
        }
        let ratings = bradley_terry(&matrix);
        let mut rows: Vec<(usize, Trinomial, f64, f64)> = (0..n)
            .map(|i| {
                let total: Trinomial = matrix[i].iter().copied().sum();
                (i, total, ratings[i].0, ratings[i].1)
            })
            .collect();
        rows.sort_by(|x, y| {
            y.2.partial_cmp(&x.2)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(x.0.cmp(&y.0))
        });
        let defined = |x: f64| (!x.is_nan()).then_some(x);
        rows.into_iter()
            .enumerate()
            .map(|(rank, (i, total, rating, se))| StandingRow {
                rank: rank as u64 + 1,
                player: experiment.players[i].name.clone(),
                games: total.games(),
                wins: total.wins,
                draws: total.draws,
                losses: total.losses,
                score: defined(total.score().mean),
                rating: defined(rating),
                rating_low: defined(rating - Z95 * se),
                rating_high: defined(rating + Z95 * se),
            })
            .collect()
    }
}
