//! Counting games as they stream past, in game order, into per-pair tallies, the
//! SPRT's verdict, and the rows of `pairs.csv` and `standings.csv`.

use super::experiment::Experiment;
use super::schedule::Slot;
use crate::lab::storage::rows::{PairRow, StandingRow, Status};
use crate::stats::{
    bradley_terry, median_unbiased, Moments, Paired, Pentanomial, SprtWatch, Trinomial, Verdict,
    Z95,
};

/// One pair's results from its first player's (A's) point of view.
#[derive(Clone, Debug, Default)]
pub struct PairTally {
    /// Every game.
    pub all: Trinomial,
    /// A's games as black.
    pub as_black: Trinomial,
    /// A's games as white.
    pub as_white: Trinomial,
    /// A's disc margins, per game.
    pub margin: Moments,
    /// A's mean disc margin per colour-swapped game pair.
    pub pair_margin: Moments,
    /// Colour-swapped game pairs by A's points.
    pub penta: Pentanomial,
    /// The first game of a colour-swapped pair (A's points and margin), waiting for its twin.
    pending: Option<(f64, i32)>,
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
            self.pending = Some((points, a_margin));
        } else if let Some((first, first_margin)) = self.pending.take() {
            self.penta.record(first + points);
            self.pair_margin
                .push(f64::from(first_margin + a_margin) / 2.0);
        }
    }

    /// The games and the complete pairs among them.
    #[must_use]
    pub fn paired(&self) -> Paired {
        Paired {
            games: self.all,
            pairs: self.penta,
        }
    }
}

/// The SPRT's columns of a `pairs.csv` row.
struct SprtColumns {
    llr: f64,
    lower: f64,
    upper: f64,
    crossed: String,
    verdict: &'static str,
    estimate: Option<crate::stats::SprtEstimate>,
}

/// Everything counted so far, in game order.
#[derive(Clone, Debug)]
pub struct Tallies {
    /// Per pair, in the experiment's pair order.
    pub pairs: Vec<PairTally>,
    /// The SPRT's verdict once it has one.
    pub sprt_done: Option<Status>,
    /// The game pairs after which the SPRT's LLR crossed a bound.
    pub sprt_pairs: Option<u64>,
    /// The SPRT's running state (its overshoot correction follows the LLR's path).
    pub sprt_watch: SprtWatch,
}

impl Tallies {
    /// Empty tallies for `pairs` pairs.
    #[must_use]
    pub fn new(pairs: usize) -> Self {
        Tallies {
            pairs: vec![PairTally::default(); pairs],
            sprt_done: None,
            sprt_pairs: None,
            sprt_watch: SprtWatch::default(),
        }
    }

    /// Counts the game in `slot` from black's margin in it; returns true if the
    /// SPRT has just concluded.
    pub fn record_game(&mut self, experiment: &Experiment, slot: Slot, black_margin: i32) -> bool {
        let a_black = slot.a_black();
        let a_margin = if a_black { black_margin } else { -black_margin };
        self.record(experiment, slot.pair as usize, a_black, a_margin)
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
                let (_, verdict) = self.sprt_watch.judge(&sprt.design(), &tally.penta);
                self.sprt_done = verdict.map(|v| match v {
                    Verdict::H1 => Status::SprtAcceptedH1,
                    Verdict::H0 => Status::SprtAcceptedH0,
                });
                if self.sprt_done.is_some() {
                    self.sprt_pairs = Some(tally.penta.pairs());
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
                let paired = t.paired();
                // The headline: pentanomial when every game is in a complete pair.
                let score = paired.interval95();
                let (elo, elo_low, elo_high) = score.elo();
                let trinomial = t.all.interval95();
                let (_, tri_elo_low, tri_elo_high) = trinomial.elo();
                // The margin's interval follows the same model: per pair or per game.
                let margin = match score.model {
                    crate::stats::Model::Pentanomial => t.pair_margin.estimate(),
                    crate::stats::Model::Trinomial => t.margin.estimate(),
                };
                let (margin_low, margin_high) = margin.interval95();
                let sprt = experiment.sprt.map(|sprt| {
                    let design = sprt.design();
                    let (lower, upper) = self.sprt_watch.bounds(&design);
                    let verdict = match self.sprt_done {
                        Some(Status::SprtAcceptedH1) => Some(Verdict::H1),
                        Some(Status::SprtAcceptedH0) => Some(Verdict::H0),
                        _ => None,
                    };
                    let crossed = self.sprt_pairs.map_or(String::new(), |p| p.to_string());
                    // After a stop, the Elo that corrects for stopping early.
                    let estimate = verdict.and_then(|v| median_unbiased(&design, &t.penta, v));
                    SprtColumns {
                        llr: t.penta.llr(sprt.elo0, sprt.elo1),
                        lower,
                        upper,
                        crossed,
                        verdict: verdict.map_or("continue", |v| match v {
                            Verdict::H1 => "H1",
                            Verdict::H0 => "H0",
                        }),
                        estimate,
                    }
                });
                let [penta_0, penta_1, penta_2, penta_3, penta_4] = t.penta.0;
                let mut row = PairRow {
                    player_a: experiment.players[a].name.clone(),
                    player_b: experiment.players[b].name.clone(),
                    games: t.all.games(),
                    wins: t.all.wins,
                    draws: t.all.draws,
                    losses: t.all.losses,
                    score: defined(t.all.score().mean),
                    model: Some(score.model.name().to_string()),
                    game_pairs: Some(t.penta.pairs()),
                    score_low: defined(score.low),
                    score_high: defined(score.high),
                    elo: defined(elo),
                    elo_low: defined(elo_low),
                    elo_high: defined(elo_high),
                    los: defined(paired.los()),
                    trinomial_score_low: defined(trinomial.low),
                    trinomial_score_high: defined(trinomial.high),
                    trinomial_elo_low: defined(tri_elo_low),
                    trinomial_elo_high: defined(tri_elo_high),
                    black_wins: t.as_black.wins,
                    black_draws: t.as_black.draws,
                    black_losses: t.as_black.losses,
                    black_score: defined(t.as_black.score().mean),
                    white_wins: t.as_white.wins,
                    white_draws: t.as_white.draws,
                    white_losses: t.as_white.losses,
                    white_score: defined(t.as_white.score().mean),
                    margin_mean: defined(t.margin.estimate().mean),
                    margin_low: defined(margin_low),
                    margin_high: defined(margin_high),
                    penta_0,
                    penta_1,
                    penta_2,
                    penta_3,
                    penta_4,
                    sprt_llr: sprt.as_ref().map(|s| s.llr),
                    sprt_lower: sprt.as_ref().map(|s| s.lower),
                    sprt_upper: sprt.as_ref().map(|s| s.upper),
                    sprt_pairs: sprt.as_ref().map(|s| s.crossed.clone()),
                    sprt_result: sprt.as_ref().map(|s| s.verdict.to_string()),
                    sprt_elo: None,
                    sprt_elo_low: None,
                    sprt_elo_high: None,
                };
                if let Some(s) = &sprt {
                    row.set_sprt_estimate(s.estimate);
                }
                row
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
