//! A gauntlet's challengers against the field: each challenger's pooled score
//! against the players it met, so that no one is ranked against a player they never
//! met (the standings' fit compares the other players only through the challengers
//! and its prior).

use super::Results;
use crate::doc::{elo_interval, percent_interval};
use crate::doc::{Block, Section, Table};
use crate::lab::Format;
use crate::stats::{Paired, Pentanomial, Trinomial};

/// What the standings of a gauntlet can and cannot say, for the report.
pub const STANDINGS_NOTE: &str = "This is a gauntlet: the other players met only the challengers, never each other. \
Their ratings and ranks among themselves come only through the challengers, and a player who won or lost every game \
is held finite by the fit's prior rather than measured (its pair row can say +inf where its rating is finite; see \
Statistics). Read what was measured in \"Challengers against the field\" and in the pair rows.";

/// A challenger's games against the field, from its side.
fn pooled(results: &Results, challenger: &str) -> (Paired, Vec<(String, f64)>) {
    let mut total = Paired::default();
    let mut each = Vec::new();
    for p in &results.pairs {
        let mine = p.paired();
        // Every count from the challenger's side: as B, its wins are A's losses.
        let (paired, opponent, score) = if p.player_a == challenger {
            (mine, &p.player_b, p.score)
        } else if p.player_b == challenger {
            let [a, b, c, d, e] = mine.pairs.0;
            (
                Paired {
                    games: Trinomial {
                        wins: mine.games.losses,
                        draws: mine.games.draws,
                        losses: mine.games.wins,
                    },
                    pairs: Pentanomial([e, d, c, b, a]),
                },
                &p.player_a,
                p.score.map(|s| 1.0 - s),
            )
        } else {
            continue;
        };
        total.games.wins += paired.games.wins;
        total.games.draws += paired.games.draws;
        total.games.losses += paired.games.losses;
        for (sum, add) in total.pairs.0.iter_mut().zip(paired.pairs.0) {
            *sum += add;
        }
        if let Some(score) = score {
            each.push((opponent.clone(), score));
        }
    }
    (total, each)
}

/// The section, for a gauntlet (None for other formats).
pub(crate) fn against_the_field(results: &Results) -> Option<Section> {
    if results.format() != Format::Gauntlet {
        return None;
    }
    let challengers = &results.experiment.own.challengers;
    let rows = challengers
        .iter()
        .map(|c| {
            let (paired, each) = pooled(results, c);
            let interval = paired.interval95();
            let (elo, low, high) = interval.elo();
            let n = paired.games.games();
            let defined = |x: f64| (n > 0).then_some(x);
            let range = |best: bool| {
                let pick = each.iter().min_by(|x, y| {
                    let order = x.1.total_cmp(&y.1);
                    if best {
                        order.reverse()
                    } else {
                        order
                    }
                });
                pick.map_or("-".into(), |(name, s)| {
                    format!("{:.1}% ({name})", 100.0 * s)
                })
            };
            vec![
                c.clone(),
                each.len().to_string(),
                n.to_string(),
                format!(
                    "{}/{}/{}",
                    paired.games.wins, paired.games.draws, paired.games.losses
                ),
                percent_interval(
                    defined(interval.mean),
                    defined(interval.low),
                    defined(interval.high),
                ),
                elo_interval(defined(elo), defined(low), defined(high)),
                format!(
                    "{}, {} {}",
                    interval.model.name(),
                    interval.n,
                    interval.model.unit()
                ),
                range(false),
                range(true),
            ]
        })
        .collect();
    Some(
        Section::new("field", "Challengers against the field")
            .with(Block::Text(
                "Each challenger's results against every player it met, pooled: its score against the field as a \
                 whole with a 95% score interval in the model named (pentanomial: each colour-swapped game pair one \
                 sample), and the Elo that score is worth. This counts only games that were played, so unlike the \
                 standings it ranks no player against one it never met. The Elo is the challenger's performance \
                 against this field, not a rating on the standings' scale; pooling opponents of different strength \
                 into one sample makes the interval a little wider than it need be. Its weakest and best pair show \
                 how even the field was; each pair's own interval is in Pairs."
                    .into(),
            ))
            .with(Block::Table(Table::new(
                &[
                    "challenger",
                    "opponents",
                    "games",
                    "W/D/L",
                    "score against the field [95%]",
                    "Elo against the field [95%]",
                    "model, sample",
                    "weakest pair",
                    "best pair",
                ],
                rows,
            ))),
    )
}
