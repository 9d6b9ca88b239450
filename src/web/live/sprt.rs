//! The SPRT as a folder's page shows it: its standing from the pair's tallies, and
//! the time left (the SPRT's walk continued from where it stands, at most every
//! few seconds, and Wald's expectation beside it).

use super::{SprtView, Tail, SPREAD_EVERY};
use crate::lab::rows::PairRow;
use crate::stats::{expected_pairs_left, pairs_left, ELO_RANGE};
use std::time::Instant;

impl Tail {
    /// The SPRT's view, for a run that has one and a first pair with games.
    pub(super) fn sprt_view(
        &self,
        pairs: &[PairRow],
        total: Option<u64>,
        rate: Option<f64>,
        running: bool,
    ) -> Option<SprtView> {
        self.experiment
            .as_ref()
            .and_then(|(e, _)| e.sprt)
            .and_then(|sprt| {
                let pair = pairs.first()?;
                let design = sprt.design();
                let penta = [
                    pair.penta_0,
                    pair.penta_1,
                    pair.penta_2,
                    pair.penta_3,
                    pair.penta_4,
                ];
                let elo = pair
                    .elo
                    .zip(pair.elo_low)
                    .zip(pair.elo_high)
                    .map(|((e, l), h)| (e, l, h));
                let (lower, upper) = (pair.sprt_lower?, pair.sprt_upper?);
                let llr = pair.sprt_llr?;
                let games_left = total.map(|t| t.saturating_sub(self.games) as f64);
                let spent = games_left == Some(0.0);
                let result = pair
                    .sprt_verdict(spent)
                    .unwrap_or_else(|| "continue".into());
                let going = result == "continue" && penta.iter().sum::<u64>() > 0;
                let frequencies = penta.map(|c| c as f64);
                let pairs_left = elo.filter(|_| going).map(|(e, low, high)| {
                    // The continued walks cost some milliseconds: once every
                    // SPREAD_EVERY, between which the page shows the last answer.
                    if let Some((at, spread)) = self.spread.get() {
                        if at.elapsed() < SPREAD_EVERY {
                            return spread;
                        }
                    }
                    let se = ((high - low) / (2.0 * 1.96)).max(0.0);
                    let most = games_left.map_or(f64::INFINITY, |g| (g / 2.0).ceil());
                    let spread = pairs_left(
                        &design,
                        &frequencies,
                        (e, if se.is_finite() { se } else { 0.0 }),
                        llr,
                        (lower, upper),
                        most,
                        self.games,
                    );
                    self.spread.set(Some((Instant::now(), spread)));
                    spread
                });
                let wald_pairs = going.then(|| {
                    let at = elo
                        .map_or(0.0, |(e, _, _)| e)
                        .clamp(ELO_RANGE.0, ELO_RANGE.1);
                    expected_pairs_left(&design, &frequencies, at, llr, (lower, upper))
                });
                let to_seconds = |pairs: f64, rate: f64| {
                    (2.0 * pairs).min(games_left.unwrap_or(f64::INFINITY)) / rate.max(1e-9)
                };
                let rate_now = rate.filter(|_| running);
                let seconds_left = pairs_left
                    .zip(rate_now)
                    .map(|(p, r)| to_seconds(p.median, r));
                let seconds_range = pairs_left
                    .zip(rate_now)
                    .map(|(p, r)| (to_seconds(p.low, r), to_seconds(p.high, r)));
                Some(SprtView {
                    llr,
                    lower,
                    upper,
                    elo0: design.elo0,
                    elo1: design.elo1,
                    penta,
                    elo,
                    stopped_elo: pair.sprt_estimate(),
                    result,
                    pairs_left,
                    wald_pairs,
                    seconds_left,
                    seconds_range,
                })
            })
    }
}
