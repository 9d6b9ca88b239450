//! The one place that maps a game number to its identity (pair, game in the pair,
//! colours, opening, seed), and the one seed recipe every command derives its seeds from.

use super::experiment::Experiment;
use super::setup::{Openings, Setup};
use crate::board::{Bits, Geometry};
use crate::game::Game;
use crate::strategy::GameRng;
use crate::with_geometry;
use rand::SeedableRng;

/// splitmix64: spreads nearby integers over the whole 64-bit range.
#[must_use]
pub const fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The generator a seed stands for (Xoshiro256++ seeded by SplitMix64: see [`GameRng`]).
/// The state `GameRng::seed_from_u64(seed)` makes (rand_xoshiro 0.6: four SplitMix64
/// outputs from `seed`, little-endian), written out so that it inlines: that call
/// filled the state byte by byte, a visible share of a random game's setup.
#[must_use]
#[inline(always)]
pub fn game_rng(seed: u64) -> GameRng {
    let word = |i: u64| splitmix(seed.wrapping_add(i.wrapping_mul(GOLDEN_GAMMA))).to_le_bytes();
    let [a, b, c, d] = [word(0), word(1), word(2), word(3)];
    let mut state = [0u8; 32];
    state[..8].copy_from_slice(&a);
    state[8..16].copy_from_slice(&b);
    state[16..24].copy_from_slice(&c);
    state[24..].copy_from_slice(&d);
    GameRng::from_seed(state)
}

/// SplitMix64's increment (2^64 over the golden ratio), which [`splitmix`] adds first.
const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// Every seed a run uses, derived from the one seed of its config. Each is a
/// function of numbers alone (never of a thread or of timing), so results are the
/// same on any thread or shard count. docs/seeds.md states this recipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seeds(pub u64);

impl Seeds {
    /// Game `game` of pair `pair`: `splitmix(splitmix(splitmix(seed) ^ pair) ^ rotl(game, 32))`.
    #[must_use]
    pub const fn game(self, pair: u64, game: u64) -> u64 {
        splitmix(splitmix(splitmix(self.0) ^ pair) ^ game.rotate_left(32))
    }

    /// The random opening shared by games 2k and 2k+1 of pair `pair`: the game
    /// recipe with the top bit of k set, so it never equals a game's seed.
    #[must_use]
    pub const fn opening(self, pair: u64, k: u64) -> u64 {
        self.game(pair, k | 1 << 63)
    }

    /// SPSA's perturbation signs at iteration `k`: `splitmix(seed ^ splitmix(k))`.
    #[must_use]
    pub const fn perturbation(self, k: u64) -> u64 {
        splitmix(self.0 ^ splitmix(k))
    }

    /// The seed of a tune's validation run number `index`: `splitmix(seed) / 2 + index`,
    /// apart from every training game's.
    #[must_use]
    pub const fn validation(self, index: u64) -> u64 {
        (splitmix(self.0) >> 1) + index
    }
}

/// A game's place in a schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The pair (for a tune: the iteration).
    pub pair: u64,
    /// The game's index within its pair.
    pub game_in_pair: u64,
}

impl Slot {
    /// Whether the pair's first player (A) has black: games 2k and 2k+1 share an
    /// opening with colours swapped, A black in the even one.
    #[must_use]
    pub const fn a_black(self) -> bool {
        self.game_in_pair.is_multiple_of(2)
    }

    /// Which opening of the pair the game plays.
    #[must_use]
    pub const fn opening_index(self) -> u64 {
        self.game_in_pair / 2
    }
}

/// What the play driver needs to play one game.
#[derive(Clone, Debug)]
pub struct Deal<G: Geometry> {
    /// The players' indices: black, then white.
    pub seats: [usize; 2],
    /// Where the game starts (the opening played).
    pub start: Game<G>,
    /// The game's seed.
    pub seed: u64,
}

/// The games of a run: pairs of players, games per pair, openings and seeds.
#[derive(Clone, Debug)]
pub struct Schedule {
    seeds: Seeds,
    size: u32,
    openings: Openings,
    pairs: Vec<(usize, usize)>,
    games_per_pair: u64,
}

impl Schedule {
    /// A schedule of `games_per_pair` games for each pair of player indices.
    #[must_use]
    pub fn new(setup: &Setup, pairs: Vec<(usize, usize)>, games_per_pair: u64) -> Self {
        Schedule {
            seeds: Seeds(setup.seed),
            size: setup.size,
            openings: setup.openings.clone(),
            pairs,
            games_per_pair: games_per_pair.max(1),
        }
    }

    /// An experiment's schedule.
    #[must_use]
    pub fn of(experiment: &Experiment) -> Self {
        Self::new(
            &experiment.setup,
            experiment.pairs(),
            experiment.games_per_pair,
        )
    }

    /// The seeds.
    #[must_use]
    pub const fn seeds(&self) -> Seeds {
        self.seeds
    }

    /// The pairs, in order.
    #[must_use]
    pub fn pairs(&self) -> &[(usize, usize)] {
        &self.pairs
    }

    /// Games per pair.
    #[must_use]
    pub const fn games_per_pair(&self) -> u64 {
        self.games_per_pair
    }

    /// Every game of every pair.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.pairs.len() as u64 * self.games_per_pair
    }

    /// Game number `game`'s place: pairs play one after another.
    #[must_use]
    pub const fn slot(&self, game: u64) -> Slot {
        Slot {
            pair: game / self.games_per_pair,
            game_in_pair: game % self.games_per_pair,
        }
    }

    /// Black's and white's player indices in a game of the pair list.
    #[must_use]
    pub fn seats(&self, slot: Slot) -> [usize; 2] {
        let (a, b) = self.pairs[slot.pair as usize];
        if slot.a_black() {
            [a, b]
        } else {
            [b, a]
        }
    }

    /// The game's seed.
    #[must_use]
    pub const fn seed(&self, slot: Slot) -> u64 {
        self.seeds.game(slot.pair, slot.game_in_pair)
    }

    /// Opening number `k` of pair `pair`, as a transcript (empty: the start).
    #[must_use]
    pub fn opening(&self, pair: u64, k: u64) -> String {
        match &self.openings {
            Openings::Start => String::new(),
            Openings::List { transcripts, .. } => {
                transcripts[(k % transcripts.len() as u64) as usize].clone()
            }
            Openings::RandomPlies(plies) => {
                let seed = self.seeds.opening(pair, k);
                with_geometry!(self.size, G => random_opening::<G>(*plies, seed))
            }
        }
    }

    /// The game's opening and the position it leaves.
    #[must_use]
    #[inline(always)]
    pub fn start<G: Geometry>(&self, slot: Slot) -> (String, Game<G>) {
        // Inlined where games are dealt, so that the start position is built where the
        // game is played rather than copied out through each caller (a visible share of
        // a fast game); the dealt openings are played or parsed out of line.
        match self.openings {
            // No transcript to parse: a sizeable share of a random game's setup.
            Openings::Start => (String::new(), Game::new()),
            _ => self.dealt_start(slot),
        }
    }

    /// [`start`](Self::start) for an opening from the list or played at random.
    #[inline(never)]
    fn dealt_start<G: Geometry>(&self, slot: Slot) -> (String, Game<G>) {
        let k = slot.opening_index();
        match self.openings {
            Openings::Start => return (String::new(), Game::new()),
            Openings::RandomPlies(plies) => {
                // Played here rather than parsed back from its transcript.
                let game = random_opening_game::<G>(plies, self.seeds.opening(slot.pair, k));
                return (game.transcript(), game);
            }
            Openings::List { .. } => {}
        }
        let opening = self.opening(slot.pair, k);
        let game = Game::<G>::from_transcript(&opening)
            .expect("openings are checked when the setup is validated");
        (opening, game)
    }

    /// Everything needed to play game number `game` of the pair list.
    #[must_use]
    #[inline(always)]
    pub fn deal<G: Geometry>(&self, game: u64) -> (Slot, String, Deal<G>) {
        let slot = self.slot(game);
        let (opening, start) = self.start::<G>(slot);
        let deal = Deal {
            seats: self.seats(slot),
            start,
            seed: self.seed(slot),
        };
        (slot, opening, deal)
    }
}

/// `plies` uniformly random moves from the start (fewer if the game ends first).
pub fn random_opening<G: Geometry>(plies: u32, seed: u64) -> String {
    random_opening_game::<G>(plies, seed).transcript()
}

/// The game [`random_opening`] writes down.
fn random_opening_game<G: Geometry>(plies: u32, seed: u64) -> Game<G> {
    let mut rng = game_rng(seed);
    let mut game = Game::<G>::new();
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play_unchecked(crate::strategy::random_square(moves, &mut rng));
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size8;
    use rand::RngCore;

    #[test]
    fn game_rng_is_rand_xoshiros_seeding() {
        let edges = [
            0,
            1,
            u64::MAX,
            1 << 63,
            GOLDEN_GAMMA,
            GOLDEN_GAMMA.wrapping_neg(),
        ];
        for seed in (0..2000).map(|k| Seeds(7).game(k % 3, k)).chain(edges) {
            let (mut ours, mut theirs) = (game_rng(seed), GameRng::seed_from_u64(seed));
            for _ in 0..8 {
                assert_eq!(ours.next_u64(), theirs.next_u64(), "seed {seed}");
            }
        }
    }

    #[test]
    fn seeds_differ_by_pair_and_index() {
        let seeds = Seeds(1);
        let s = [
            seeds.game(0, 0),
            seeds.game(0, 1),
            seeds.game(1, 0),
            Seeds(2).game(0, 0),
            seeds.opening(0, 0),
        ];
        for i in 0..s.len() {
            for j in i + 1..s.len() {
                assert_ne!(s[i], s[j]);
            }
        }
    }

    #[test]
    fn colour_swapped_pairs_share_an_opening() {
        let setup = Setup {
            openings: Openings::RandomPlies(4),
            ..Setup::default()
        };
        let schedule = Schedule::new(&setup, vec![(0, 1), (0, 2)], 4);
        assert_eq!(schedule.total(), 8);
        let (slot, opening, deal) = schedule.deal::<Size8>(5);
        assert_eq!(
            slot,
            Slot {
                pair: 1,
                game_in_pair: 1
            }
        );
        assert_eq!(deal.seats, [2, 0]);
        let (_, twin, twin_deal) = schedule.deal::<Size8>(4);
        assert_eq!((twin, twin_deal.seats), (opening.clone(), [0, 2]));
        assert_ne!(deal.seed, twin_deal.seed);
        assert_eq!(opening.len(), 8);
    }

    #[test]
    fn a_random_opening_leaves_the_game_its_transcript_replays() {
        let setup = Setup {
            openings: Openings::RandomPlies(9),
            ..Setup::default()
        };
        let schedule = Schedule::new(&setup, vec![(0, 1)], 40);
        for game in 0..40 {
            let (opening, start) = schedule.start::<Size8>(schedule.slot(game));
            let replayed = Game::<Size8>::from_transcript(&opening).unwrap();
            assert_eq!(start.moves(), replayed.moves());
            assert_eq!(start.position(), replayed.position());
            assert_eq!(start.passes(), replayed.passes());
            assert_eq!(
                opening,
                schedule.opening(0, schedule.slot(game).opening_index())
            );
        }
    }
}
