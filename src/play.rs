//! The game loop between two strategies, per-game seeding, and quick matches.

use crate::board::{Bits, Geometry};
use crate::game::{Game, Rules};
use crate::stats::Trinomial;
use crate::strategy::{Context, GameRng, Memory, Strategy};
use rand::SeedableRng;
use rayon::prelude::*;

/// splitmix64: spreads nearby integers over the whole 64-bit range.
#[must_use]
pub const fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of one game: a function of the experiment seed, the pair and the
/// game's index only, so results do not depend on which thread plays the game.
#[must_use]
pub const fn game_seed(seed: u64, pair: u64, index: u64) -> u64 {
    splitmix(splitmix(splitmix(seed) ^ pair) ^ index.rotate_left(32))
}

/// The generator for a game seed.
#[must_use]
pub fn game_rng(game_seed: u64) -> GameRng {
    GameRng::seed_from_u64(game_seed)
}

/// Plays `game` to its end: `players[0]` plays black, `players[1]` white. Each
/// player's memory is reset first, so the game depends on its seed alone.
pub fn play_game<G: Geometry>(
    players: [&dyn Strategy<G>; 2],
    mut game: Game<G>,
    rng: &mut GameRng,
    memories: [&mut Memory<G>; 2],
) -> Game<G> {
    memories[0].new_game();
    memories[1].new_game();
    loop {
        let board = game.board();
        let moves = game.legal_moves();
        if moves.is_empty() {
            return game; // passes are automatic, so no move means the game is over
        }
        let seat = match game.side() {
            crate::board::Color::Black => 0,
            crate::board::Color::White => 1,
        };
        let square = if moves.count() == 1 {
            crate::board::Square::new(moves.lowest())
        } else {
            let mut context = Context {
                rng,
                memory: &mut *memories[seat],
            };
            players[seat].choose(board, moves, &mut context)
        };
        assert!(
            moves.has(square.index()),
            "a strategy chose an illegal move: {}",
            square.name(G::SIZE)
        );
        game.play_unchecked(square);
    }
}

/// Wins, draws and losses from one player's point of view.
pub type Tally = Trinomial;

/// The one-line match summary `A vs B: W wins, D draws, L losses (win rate X%, score Y% +/- Z%)`,
/// the interval being 95% (normal approximation over the per-game results 1, 1/2, 0).
#[must_use]
pub fn summary(tally: &Tally, a: &str, b: &str) -> String {
    let games = tally.games().max(1) as f64;
    let score = tally.score();
    let (low, high) = score.interval95();
    format!(
        "{a} vs {b}: {} wins, {} draws, {} losses (win rate {:.1}%, score {:.1}% +/- {:.1}%)",
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.wins as f64 / games,
        100.0 * score.mean,
        100.0 * (high - low) / 2.0
    )
}

/// Plays `games` games between A and B from the start position, colours
/// alternating (A is black in even-numbered games), in parallel on the current
/// rayon pool. Game `i` is seeded from (`seed`, `i`), so the tally does not
/// depend on the thread count.
pub fn play_match<G: Geometry>(
    a: &dyn Strategy<G>,
    b: &dyn Strategy<G>,
    rules: Rules,
    games: u64,
    seed: u64,
) -> Tally {
    (0..games)
        .into_par_iter()
        .map_init(
            || [Memory::<G>::new(), Memory::<G>::new()],
            |memories, index| {
                let a_black = index % 2 == 0;
                let players = if a_black { [a, b] } else { [b, a] };
                let mut rng = game_rng(game_seed(seed, 0, index));
                let game = play_game(players, Game::new(), &mut rng, memories.each_mut());
                let outcome = game.outcome(rules).expect("play_game plays to the end");
                let a_margin = if a_black {
                    outcome.margin
                } else {
                    -outcome.margin
                };
                Tally::of_margin(a_margin)
            },
        )
        .reduce(Tally::default, |x, y| x + y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tally_summary_and_interval() {
        let t = Tally {
            wins: 60,
            draws: 10,
            losses: 30,
        };
        // Per-game variance: (60*0.35^2 + 10*0.15^2 + 30*0.65^2)/100 = 0.2025; sd/sqrt(n) = 0.045.
        assert!((t.score().se - 0.045).abs() < 1e-12);
        assert_eq!(
            summary(&t, "A", "B"),
            "A vs B: 60 wins, 10 draws, 30 losses (win rate 60.0%, score 65.0% +/- 8.8%)"
        );
    }

    #[test]
    fn seeds_differ_by_pair_and_index() {
        let s = [
            game_seed(1, 0, 0),
            game_seed(1, 0, 1),
            game_seed(1, 1, 0),
            game_seed(2, 0, 0),
        ];
        for i in 0..s.len() {
            for j in i + 1..s.len() {
                assert_ne!(s[i], s[j]);
            }
        }
    }
}
