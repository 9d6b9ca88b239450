//! Ratings for a whole field: a Bradley-Terry fit with a weak prior.

use super::Trinomial;

/// Games of the prior in [`bradley_terry`]: every player is taken to have drawn
/// this many games against a virtual player rated 0 (the field's average).
pub const BRADLEY_TERRY_PRIOR_GAMES: f64 = 0.5;

/// Ratings for a whole field from pairwise results: a Bradley-Terry (logistic Elo)
/// fit, draws counting half a win each, ratings averaging 0. It is the maximum a
/// posteriori (MAP) estimate under a weak prior, not the pure maximum likelihood:
/// every player also has [`BRADLEY_TERRY_PRIOR_GAMES`] (half a game) drawn against a
/// virtual player rated 0. Without it the likelihood has no maximum when a player
/// wins (or loses) every game, or when the field splits into groups one of which
/// beat the other every time (separation): those ratings would run off to infinity.
/// The prior keeps them finite at the cost of a pull towards 0 of about
/// half a game's worth, negligible past a few dozen games per player (two players
/// at 60% over 100 games: 70.3 Elo apart instead of 70.4). Standard errors come
/// from the inverse of the curvature of the log-posterior (the Fisher information
/// plus the prior's), projected onto ratings that average 0. `results[i][j]` is
/// player i's tally against player j, so every game appears twice: in
/// `results[i][j]` and, mirrored, in `results[j][i]`. Returns (rating, standard
/// error) per player; a player with no games gets NaN.
#[must_use]
pub fn bradley_terry(results: &[Vec<Trinomial>]) -> Vec<(f64, f64)> {
    bradley_terry_covariance(results).0
}

/// A Bradley-Terry fit: (rating, standard error) per player and the ratings'
/// covariance (Elo²).
pub type RatingFit = (Vec<(f64, f64)>, Vec<Vec<f64>>);

/// [`bradley_terry`] with the covariance of its ratings (Elo², `k x k`, NaN in the
/// rows and columns of players without games): what a contrast such as a rating less
/// the mean of some anchors needs, since the ratings of one fit are correlated.
#[must_use]
pub fn bradley_terry_covariance(results: &[Vec<Trinomial>]) -> RatingFit {
    let k = results.len();
    let games = |i: usize, j: usize| results[i][j].games() as f64;
    let points = |i: usize, j: usize| results[i][j].wins as f64 + 0.5 * results[i][j].draws as f64;
    let played: Vec<bool> = (0..k).map(|i| (0..k).any(|j| games(i, j) > 0.0)).collect();
    // Strengths gamma = 10^(r/400), fitted by Hunter's MM iteration with the prior's
    // games against a virtual player of strength 1 (rating 0).
    let prior = BRADLEY_TERRY_PRIOR_GAMES;
    let mut gamma = vec![1.0f64; k];
    for _ in 0..10_000 {
        let mut next = gamma.clone();
        let mut change = 0.0f64;
        for i in 0..k {
            if !played[i] {
                continue;
            }
            let wins: f64 = (0..k).map(|j| points(i, j)).sum::<f64>() + prior * 0.5;
            let denom: f64 = (0..k)
                .filter(|&j| j != i)
                .map(|j| games(i, j) / (gamma[i] + gamma[j]))
                .sum::<f64>()
                + prior / (gamma[i] + 1.0);
            next[i] = wins / denom;
        }
        // Normalise: geometric mean 1 (ratings average 0).
        let count = played.iter().filter(|&&p| p).count().max(1) as f64;
        let log_mean: f64 = (0..k)
            .filter(|&i| played[i])
            .map(|i| next[i].ln())
            .sum::<f64>()
            / count;
        for i in 0..k {
            if played[i] {
                next[i] = (next[i].ln() - log_mean).exp();
                change = change.max((next[i].ln() - gamma[i].ln()).abs());
            }
        }
        gamma = next;
        if change < 1e-10 {
            break;
        }
    }
    let scale = 400.0 / std::f64::consts::LN_10;
    let ratings: Vec<f64> = gamma.iter().map(|g| g.ln() * scale).collect();
    // The curvature of the log-posterior in natural (log-strength) units, over the
    // players with games: the Fisher information of the games plus the prior's.
    let index: Vec<usize> = (0..k).filter(|&i| played[i]).collect();
    let m = index.len();
    let mut info = nalgebra::DMatrix::<f64>::zeros(m, m);
    for (a, &i) in index.iter().enumerate() {
        let p = gamma[i] / (gamma[i] + 1.0);
        info[(a, a)] += prior * p * (1.0 - p);
        for (b, &j) in index.iter().enumerate().skip(a + 1) {
            let n = games(i, j);
            if n == 0.0 {
                continue;
            }
            let p = gamma[i] / (gamma[i] + gamma[j]);
            let w = n * p * (1.0 - p);
            info[(a, a)] += w;
            info[(b, b)] += w;
            info[(a, b)] -= w;
            info[(b, a)] -= w;
        }
    }
    // The covariance of the ratings less their average: P C P, P = I - 11'/m.
    let covariance = info.try_inverse().map(|c| {
        let centre = nalgebra::DMatrix::<f64>::identity(m, m)
            - nalgebra::DMatrix::<f64>::from_element(m, m, 1.0 / m as f64);
        &centre * c * &centre
    });
    let mut out = vec![(f64::NAN, f64::NAN); k];
    let mut elo_covariance = vec![vec![f64::NAN; k]; k];
    for (a, &i) in index.iter().enumerate() {
        let se = covariance
            .as_ref()
            .map_or(f64::NAN, |c| c[(a, a)].max(0.0).sqrt() * scale);
        out[i] = (ratings[i], se);
        if let Some(c) = &covariance {
            for (b, &j) in index.iter().enumerate() {
                elo_covariance[i][j] = c[(a, b)] * scale * scale;
            }
        }
    }
    (out, elo_covariance)
}
