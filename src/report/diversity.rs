//! How many distinct games each pair played: deterministic strategies from the same
//! opening replay the same game (or its mirror image, when the opening is
//! symmetric), and a replayed game adds no information, so the effective sample is
//! the distinct games, not all of them.

use super::doc::{Block, Section, Table};
use super::Results;
use crate::board::{Square, Symmetry};
use crate::lab::GameRow;
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

/// Per pair, the games seen so far: a 64-bit hash of who played black and the
/// moves up to the 8 symmetries of the board (a collision among a million games
/// has odds of about one in 10^7).
#[derive(Clone, Debug, Default)]
pub struct Distinct {
    size: u32,
    seen: Vec<HashSet<u64>>,
}

/// The squares of a transcript, as indices; a token that is no square of the board
/// (a file edited by hand) ends it, which at worst counts two games as one.
fn moves(transcript: &str, size: u32) -> Vec<Square> {
    let mut squares = Vec::with_capacity(transcript.len() / 2);
    let mut rest = transcript;
    while let Some(first) = rest.chars().next() {
        let digits = rest[first.len_utf8()..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let (token, after) = rest.split_at(first.len_utf8() + digits);
        let Some(square) = Square::parse(token, size) else {
            break;
        };
        squares.push(square);
        rest = after;
    }
    squares
}

impl Distinct {
    /// Counts for `pairs` pairs on a board of `size`.
    #[must_use]
    pub fn new(pairs: usize, size: u32) -> Self {
        Distinct {
            size,
            seen: vec![HashSet::new(); pairs],
        }
    }

    /// Notes a game of pair `pair`.
    pub fn offer(&mut self, pair: usize, row: &GameRow<'_>) {
        let played = moves(&row.moves, self.size);
        // The smallest of the game's 8 images: a game and its mirror image are one game.
        let image = Symmetry::ALL
            .iter()
            .map(|s| {
                played
                    .iter()
                    .map(|&m| s.apply(m, self.size).index())
                    .collect::<Vec<u32>>()
            })
            .min()
            .unwrap_or_default();
        let mut hasher = DefaultHasher::new();
        (row.black.as_ref(), image).hash(&mut hasher);
        if let Some(seen) = self.seen.get_mut(pair) {
            seen.insert(hasher.finish());
        }
    }

    /// Distinct games per pair.
    #[must_use]
    pub fn finish(self) -> Vec<u64> {
        self.seen.into_iter().map(|s| s.len() as u64).collect()
    }
}

/// Replays, as a share of a pair's games, above which the report warns.
const WARN_REPLAYS_PERCENT: u64 = 5;

/// The pairs whose replays are more than that share: (A, B, games, distinct games).
fn replayed(results: &Results) -> Vec<(&str, &str, u64, u64)> {
    results
        .pairs
        .iter()
        .zip(&results.distinct)
        // A stray repeat (a short game two random-ish players happen to play twice)
        // costs little; the warning is for pairs that lose a real share of their sample.
        .filter(|(p, &d)| d * 100 < p.games * (100 - WARN_REPLAYS_PERCENT))
        .map(|(p, &d)| (p.player_a.as_str(), p.player_b.as_str(), p.games, d))
        .collect()
}

/// The warning a report opens with when some pair replayed games, if any did.
#[must_use]
pub fn warning(results: &Results) -> Option<String> {
    let replayed = replayed(results);
    let (games, distinct) = replayed
        .iter()
        .fold((0, 0), |(g, d), &(_, _, pg, pd)| (g + pg, d + pd));
    let first = replayed.first()?;
    Some(format!(
        "REPLAYED GAMES: {} of {} pairs played the same game (up to symmetry) more than once ({games} games, {distinct} distinct; \
         first {} vs {}: {} games, {} distinct). A replayed game adds no information, so those pairs' \
         intervals are narrower than their games warrant: give deterministic strategies varied openings \
         ([openings] random_plies or file). See \"Distinct games\".",
        replayed.len(),
        results.pairs.len(),
        first.0,
        first.1,
        first.2,
        first.3
    ))
}

/// The report's section: per pair, games, distinct games and the duplicates.
#[must_use]
pub fn section(results: &Results) -> Section {
    let rows = results
        .pairs
        .iter()
        .zip(&results.distinct)
        .map(|(p, &d)| {
            vec![
                p.player_a.clone(),
                p.player_b.clone(),
                p.games.to_string(),
                d.to_string(),
                (p.games - d.min(p.games)).to_string(),
                format!("{:.1}%", 100.0 * d as f64 / p.games.max(1) as f64),
            ]
        })
        .collect();
    Section::new("distinct", "Distinct games")
        .with(Block::Text(
            "Games that differ in who played black or in at least one move, a game and its mirror or \
             rotated image counting as one, from games.csv. Strategies that choose without chance replay \
             the same game from the same opening: the copies repeat a result already counted, so the \
             effective sample is the distinct games, while the intervals above count every game."
                .into(),
        ))
        .with(Block::Table(Table::new(
            &["A", "B", "games", "distinct games (effective sample)", "replays", "distinct share"],
            rows,
        )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(black: &str, moves: &str) -> GameRow<'static> {
        GameRow {
            black: black.to_string().into(),
            moves: moves.to_string().into(),
            ..GameRow::default()
        }
    }

    #[test]
    fn mirror_images_are_one_game_and_colours_two() {
        let mut distinct = Distinct::new(2, 8);
        // f5 and d3 (the same first move up to symmetry), then a different second move.
        for (pair, black, moves) in [
            (0, "a", "f5d6c3"),
            (0, "a", "d3c5f6"),
            (0, "b", "f5d6c3"),
            (0, "a", "f5f6e6"),
            (1, "a", "c4c3"),
        ] {
            distinct.offer(pair, &row(black, moves));
        }
        assert_eq!(distinct.finish(), vec![3, 1]);
        assert_eq!(moves("a10b2", 10).len(), 2);
        assert_eq!(moves("f5zz", 8).len(), 1);
    }
}
