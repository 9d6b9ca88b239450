//! The report's "Notable games": for each pair (the pairs with the most games, in a
//! large field), the biggest upset by the standings' ratings, the largest margin and
//! the shortest game, picked while the report reads games.csv once.

use super::{PairRow, Results, StandingRow};
use crate::doc::replay::Replay;
use crate::doc::{Block, GameView, Section};
use crate::lab::GameRow;

/// The most pairs shown: a large field shows those with the most games.
pub const MAX_PAIRS: usize = 10;

/// One pair's notable games, from games.csv.
#[derive(Clone, Debug, Default)]
pub struct Notable {
    /// The pair, as pairs.csv numbers it.
    pub pair_id: usize,
    /// The lower-rated player of the pair (None: equal or missing ratings).
    pub underdog: Option<String>,
    /// The underdog's widest win.
    pub upset: Option<GameRow<'static>>,
    /// The game with the largest margin (the first such).
    pub widest: Option<GameRow<'static>>,
    /// The game with the fewest moves (the first such).
    pub shortest: Option<GameRow<'static>>,
    /// The most moves any game of the pair had.
    pub longest: u32,
}

/// Picks the notable games of the chosen pairs as the rows go by.
pub(crate) struct Picker {
    /// Indexed by pair: None for a pair not shown.
    picks: Vec<Option<Notable>>,
}

fn winner<'a>(row: &'a GameRow<'_>) -> Option<&'a str> {
    match row.margin.signum() {
        1 => Some(&row.black),
        -1 => Some(&row.white),
        _ => None,
    }
}

impl Picker {
    /// The pairs with the most games (at most [`MAX_PAIRS`]; ties go to the earlier pair).
    pub(crate) fn new(pairs: &[PairRow], standings: &[StandingRow]) -> Self {
        let mut order: Vec<usize> = (0..pairs.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(pairs[i].games));
        order.truncate(MAX_PAIRS);
        let rating = |name: &str| {
            standings
                .iter()
                .find(|s| s.player == name)
                .and_then(|s| s.rating)
        };
        let mut picks = vec![None; pairs.len()];
        for i in order {
            let p = &pairs[i];
            let underdog = match (rating(&p.player_a), rating(&p.player_b)) {
                (Some(a), Some(b)) if a < b => Some(p.player_a.clone()),
                (Some(a), Some(b)) if b < a => Some(p.player_b.clone()),
                _ => None,
            };
            picks[i] = Some(Notable {
                pair_id: i,
                underdog,
                ..Notable::default()
            });
        }
        Picker { picks }
    }

    /// Looks at one game of pair `pair`.
    pub(crate) fn offer(&mut self, pair: usize, row: &GameRow<'static>) {
        let Some(Some(pick)) = self.picks.get_mut(pair) else {
            return;
        };
        let better = |kept: &Option<GameRow<'static>>, key: fn(&GameRow) -> i64| {
            kept.as_ref().is_none_or(|k| key(row) > key(k))
        };
        if pick
            .underdog
            .as_deref()
            .is_some_and(|u| winner(row) == Some(u))
            && better(&pick.upset, |r| i64::from(r.margin.abs()))
        {
            pick.upset = Some(row.clone());
        }
        if better(&pick.widest, |r| i64::from(r.margin.abs())) {
            pick.widest = Some(row.clone());
        }
        if better(&pick.shortest, |r| -i64::from(r.plies)) {
            pick.shortest = Some(row.clone());
        }
        pick.longest = pick.longest.max(row.plies);
    }

    /// The picks, in pair order.
    pub(crate) fn finish(self) -> Vec<Notable> {
        self.picks.into_iter().flatten().collect()
    }
}

/// `game 17: greedy (black) beat random (white) by 12, 38-26, in 58 moves`.
fn describe(row: &GameRow) -> String {
    let score = format!("{}-{}", row.black_discs, row.white_discs);
    let how = match row.margin.signum() {
        1 => format!(
            "{} (black) beat {} (white) by {}",
            row.black, row.white, row.margin
        ),
        -1 => format!(
            "{} (white) beat {} (black) by {}",
            row.white, row.black, -row.margin
        ),
        _ => format!("{} (black) and {} (white) drew", row.black, row.white),
    };
    format!(
        "game {}: {how}, {score}, in {} moves",
        row.game_id, row.plies
    )
}

/// The section, for a run with games (None when no pair has one).
pub(crate) fn section(results: &Results) -> Option<Section> {
    if results.notable.iter().all(|n| n.widest.is_none()) {
        return None;
    }
    let setup = &results.experiment.setup;
    let anti = if setup.rules.anti {
        " Under these anti rules the player with fewer discs wins; margins count that way."
    } else {
        ""
    };
    let shown = results.notable.len();
    let field = if results.pairs.len() > shown {
        format!(
            " Of {} pairs, the {shown} with the most games are shown.",
            results.pairs.len()
        )
    } else {
        String::new()
    };
    let mut section = Section::new("notable", "Notable games").with(Block::Text(format!(
        "For each pair: the biggest upset (the lower-rated player's widest win, by the standings' ratings), \
         the largest margin and the shortest game.{field}{anti} Each game is given as its moves from the \
         start position; report.html shows it on a board to step through (the buttons, or the arrow keys, \
         Home and End once the board is clicked)."
    )));
    for pick in &results.notable {
        let pair = &results.pairs[pick.pair_id];
        section = section.with(Block::Subheading(format!(
            "{} vs {}",
            pair.player_a, pair.player_b
        )));
        let mut shown: Vec<(Vec<&str>, &GameRow)> = Vec::new();
        // When every game filled the board, the first is no shorter than the rest.
        let shortest = pick.shortest.as_ref().filter(|s| s.plies < pick.longest);
        for (label, row) in [
            ("Biggest upset", pick.upset.as_ref()),
            ("Largest margin", pick.widest.as_ref()),
            ("Shortest game", shortest),
        ] {
            let Some(row) = row else { continue };
            match shown.iter_mut().find(|(_, r)| r.game_id == row.game_id) {
                Some((labels, _)) => labels.push(label),
                None => shown.push((vec![label], row)),
            }
        }
        match (&pick.underdog, &pick.upset) {
            (Some(underdog), None) => {
                section = section.with(Block::Text(format!(
                    "No upset: {underdog}, the lower-rated, won no game of this pair."
                )));
            }
            (None, _) => {
                section = section.with(Block::Text(
                    "No upset: the two players are rated alike.".into(),
                ));
            }
            _ => {}
        }
        if shortest.is_none() {
            section = section.with(Block::Text(format!(
                "Every game of this pair lasted {} moves.",
                pick.longest
            )));
        }
        for (labels, row) in shown {
            let mut caption = labels.join(", ");
            caption = format!("{}{}", &caption[..1], caption[1..].to_lowercase());
            let caption = format!("{caption}: {}", describe(row));
            match Replay::new(setup.size, setup.rules, &row.moves) {
                Ok(replay) => {
                    section = section.with(Block::Game(GameView {
                        id: format!("game-{}", row.game_id),
                        caption,
                        game: row.game_id,
                        transcript: row.moves.to_string(),
                        replay,
                    }));
                }
                Err(e) => {
                    section =
                        section.with(Block::Text(format!("{caption}: cannot be replayed ({e})")));
                }
            }
        }
    }
    Some(section)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::DeserializeOwned;

    fn rows<T: DeserializeOwned>(text: &str) -> Vec<T> {
        csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn picks_the_underdogs_widest_win_the_largest_margin_and_the_shortest() {
        let pairs: Vec<PairRow> = rows(include_str!("../../tests/data/round-robin/pairs.csv"));
        let standings: Vec<StandingRow> =
            rows(include_str!("../../tests/data/round-robin/standings.csv"));
        let games: Vec<GameRow> = rows(include_str!("../../tests/data/round-robin/games.csv"));
        let mut picker = Picker::new(&pairs, &standings);
        for game in &games {
            picker.offer(game.pair_id as usize, game);
        }
        let picks = picker.finish();
        assert_eq!(picks.len(), 3);
        let first = &picks[0];
        assert_eq!(first.underdog.as_deref(), Some("greedy"), "rated -128");
        let id = |g: &Option<GameRow<'static>>| g.as_ref().map(|g| g.game_id);
        assert_eq!(id(&first.upset), Some(2), "greedy's wins: +18 (game 2), +2");
        assert_eq!(id(&first.widest), Some(7), "42 discs");
        assert_eq!((id(&first.shortest), first.longest), (Some(0), 60));
        assert_eq!(id(&picks[2].upset), Some(21), "corner-first's widest win");

        // A large field: the pairs with the most games, in pair order.
        let many: Vec<PairRow> = (0..MAX_PAIRS as u64 + 3)
            .map(|k| PairRow {
                games: 100 + k % 4,
                ..pairs[0].clone()
            })
            .collect();
        let shown: Vec<usize> = Picker::new(&many, &standings)
            .finish()
            .iter()
            .map(|n| n.pair_id)
            .collect();
        assert_eq!(
            shown,
            [0, 1, 2, 3, 5, 6, 7, 9, 10, 11],
            "ties: the earlier pair"
        );
    }
}
