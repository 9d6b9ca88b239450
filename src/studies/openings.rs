//! Balanced opening lists: every position a given number of plies from the start,
//! one per class of the 8 board symmetries, valued by a strategy and kept when it
//! is near even (`reversi-lab openings`).

use crate::board::{squares, Bits, Color, Geometry, Position, Square, Symmetry};
use crate::error::{Error, Result};
use crate::game::format_transcript;
use crate::strategy::spec::StrategySpec;
use crate::strategy::{proven_margin, Context, GameRng, History, Memory, Strategy};
use rand::SeedableRng;
use rayon::prelude::*;

/// The strategy that values the openings: `--eval SPEC`.
pub static EVAL: crate::setting::Setting = crate::setting::Setting::new("", "--eval", "eval");
use std::collections::HashMap;

/// A position up to the 8 symmetries of the board: whether black is to move, then
/// the smallest image of (mover's discs, other discs).
pub type Canonical = (bool, u128, u128);

/// The canonical form of a position: the smallest of its 8 images.
#[must_use]
pub fn canonical<G: Geometry>(position: &Position<G>) -> Canonical {
    let black = position.side == Color::Black;
    Symmetry::ALL
        .iter()
        .map(|&s| {
            let board = position.board.transform(s);
            (black, board.player.to_u128(), board.opponent.to_u128())
        })
        .min()
        .expect("8 symmetries")
}

/// The positions `plies` moves from the start.
#[derive(Clone, Debug)]
pub struct Tree {
    /// Move sequences of `plies` moves (passes are made automatically and not counted;
    /// sequences whose game ends sooner are left out).
    pub sequences: u64,
    /// Distinct positions they reach.
    pub positions: u64,
    /// One transcript per class of positions up to the 8 symmetries: of the sequences
    /// reaching the class, the first in text order. Sorted.
    pub classes: Vec<String>,
}

/// A position reached by the enumeration: how many sequences reach it, and the
/// first of them in text order.
struct Reached {
    count: u64,
    transcript: String,
}

/// Enumerates the positions `plies` moves from the start, ply by ply: positions
/// reached by several sequences are expanded once (their sequences counted), so
/// the work grows with the distinct positions rather than the sequences.
#[must_use]
pub fn enumerate<G: Geometry>(plies: u32) -> Tree {
    let mut level: HashMap<Position<G>, Reached> = HashMap::from([(
        Position::start(),
        Reached {
            count: 1,
            transcript: String::new(),
        },
    )]);
    for _ in 0..plies {
        let mut next: HashMap<Position<G>, Reached> = HashMap::with_capacity(level.len() * 8);
        for (position, reached) in &level {
            for square in squares(position.board.moves()) {
                let Some(child) = after(*position, square) else {
                    continue;
                };
                let transcript = format!(
                    "{}{}",
                    reached.transcript,
                    format_transcript(&[square], G::SIZE)
                );
                next.entry(child)
                    .and_modify(|r| {
                        r.count += reached.count;
                        if transcript < r.transcript {
                            r.transcript.clone_from(&transcript);
                        }
                    })
                    .or_insert(Reached {
                        count: reached.count,
                        transcript: transcript.clone(),
                    });
            }
        }
        level = next;
    }
    let mut classes: HashMap<Canonical, String> = HashMap::new();
    for (position, reached) in &level {
        classes
            .entry(canonical(position))
            .and_modify(|t| {
                if reached.transcript < *t {
                    t.clone_from(&reached.transcript);
                }
            })
            .or_insert_with(|| reached.transcript.clone());
    }
    let mut classes: Vec<String> = classes.into_values().collect();
    classes.sort_unstable();
    Tree {
        sequences: level.values().map(|r| r.count).sum(),
        positions: level.len() as u64,
        classes,
    }
}

/// The position after `square`, the side that cannot move passing; None when the game is over.
fn after<G: Geometry>(position: Position<G>, square: Square) -> Option<Position<G>> {
    let child = position.play(square);
    if child.board.can_move() {
        Some(child)
    } else if child.board.pass().can_move() {
        Some(child.pass())
    } else {
        None
    }
}

/// A position's value for the side to move: the best of its moves' values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// On the strategy's scale, or a disc margin where `exact`.
    pub value: i32,
    /// Solved: the value is the final disc margin with best play.
    pub exact: bool,
    /// Nodes the strategy searched for it (0 for one-ply evaluations).
    pub nodes: u64,
}

/// How a list is made: what `reversi-lab openings` was given.
#[derive(Clone, Debug)]
pub struct Recipe {
    /// Moves from the start.
    pub plies: u32,
    /// The strategy whose values judge a position.
    pub eval: StrategySpec,
    /// The largest value (either side) kept.
    pub within: i32,
    /// Keep at most this many, the closest to even first.
    pub max: Option<usize>,
}

/// A generated list and the figures its header reports.
#[derive(Clone, Debug)]
pub struct List {
    /// The positions enumerated.
    pub tree: Tree,
    /// Each class's value, in the order of `tree.classes`.
    pub values: Vec<Value>,
    /// The transcripts kept, sorted.
    pub kept: Vec<String>,
    /// Kept before `--max` cut the list.
    pub within: usize,
    /// The largest value (either side) kept.
    pub widest: u32,
}

/// Values every class of `tree` with `strategy`, in parallel on the current rayon
/// pool; `tick` is called once per class. Each position is searched with fresh
/// memory, so a value depends on the position alone, whatever the thread count.
pub fn values<G: Geometry>(
    tree: &Tree,
    spec: &StrategySpec,
    strategy: &dyn Strategy<G>,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<Value>> {
    let exact_from = spec.exact_from();
    let value = |memory: &mut Memory<G>, transcript: &str| {
        memory.new_game();
        let before = memory.nodes;
        let position = *crate::game::Game::<G>::from_transcript(transcript)
            .expect("enumerated transcripts are legal")
            .position();
        let mut rng = GameRng::seed_from_u64(0);
        let mut context = Context {
            rng: &mut rng,
            memory,
            history: History::at(position),
        };
        let values = strategy.move_values(position.board, position.board.moves(), &mut context)?;
        let best = values.iter().map(|&(_, v)| v).max()?;
        tick();
        let (value, exact) = if position.board.empty_count() <= exact_from {
            (best, true)
        } else {
            proven_margin(best).map_or((best, false), |margin| (margin, true))
        };
        Some(Value {
            value,
            exact,
            nodes: memory.nodes - before,
        })
    };
    if let Some(first) = tree.classes.first() {
        if value(&mut Memory::new(), first).is_none() {
            return Err(Error::said(
                crate::setting::Said::default()
                    .given(&EVAL, spec.kind())
                    .then(format!(
                        ": this strategy chooses by a rule and gives positions no value; use alphabeta, solver or an evaluation ({})",
                        crate::strategy::spec::evaluation_names(&[], crate::strategy::spec::Noted::Bare)
                    )),
            ));
        }
    }
    Ok(tree
        .classes
        .par_iter()
        .map_init(Memory::new, |memory, t| {
            value(memory, t).expect("the strategy gave the first position values")
        })
        .collect())
}

/// A fixed pseudo-random order of transcripts (FNV-1a), for breaking ties: many
/// positions share a value, and text order would keep one family of openings.
fn scatter(transcript: &str) -> u64 {
    transcript.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Keeps the classes whose value is within `recipe.within` of even (and, with
/// `recipe.max`, the closest to even of those, ties in a fixed pseudo-random
/// order of their transcripts), sorted.
#[must_use]
pub fn select(tree: Tree, values: Vec<Value>, recipe: &Recipe) -> List {
    let mut near: Vec<(u32, u64, &String)> = tree
        .classes
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.value.unsigned_abs() <= recipe.within.unsigned_abs())
        .map(|(t, v)| (v.value.unsigned_abs(), scatter(t), t))
        .collect();
    let within = near.len();
    if let Some(max) = recipe.max {
        near.sort_unstable();
        near.truncate(max);
    }
    let widest = near.iter().map(|&(v, _, _)| v).max().unwrap_or(0);
    let mut kept: Vec<String> = near.into_iter().map(|(_, _, t)| t.clone()).collect();
    kept.sort_unstable();
    List {
        tree,
        values,
        kept,
        within,
        widest,
    }
}

impl List {
    /// The file: a `#` header saying how it was made, then one transcript per line.
    #[must_use]
    pub fn text(&self, recipe: &Recipe, size: u32, command: &str) -> String {
        let exact = self.values.iter().filter(|v| v.exact).count();
        let mut text = format!(
            "# Balanced openings for {size}x{size}, written by reversi-lab openings {}.\n\
             # Recipe: {command}\n\
             # Evaluation: {}\n\
             # {} move sequences of {} plies reach {} positions, {} up to the 8 symmetries of the board; \
             each class is written once, as the first of its sequences in text order.\n\
             # Kept: {} whose value for the side to move (the best of its moves' values, on the evaluation's \
             scale; a disc margin for the {exact} solved exactly) is within {} of even{}; the largest kept is {}.\n\
             # Play each from both colours. One transcript per line from the standard start, sorted.\n",
            env!("CARGO_PKG_VERSION"),
            toml::Value::Table(recipe.eval.to_table()),
            self.tree.sequences,
            recipe.plies,
            self.tree.positions,
            self.tree.classes.len(),
            self.kept.len(),
            recipe.within,
            match recipe.max {
                Some(max) if self.within > max => format!(
                    " ({} were; --max {max} kept the closest to even, ties in a fixed pseudo-random order)",
                    self.within
                ),
                _ => String::new(),
            },
            self.widest,
        );
        for t in &self.kept {
            text.push_str(t);
            text.push('\n');
        }
        text
    }

    /// Every class with its value, whether it was solved, the nodes it cost and
    /// whether the list kept it: `transcript,value,exact,nodes,kept`, in text order.
    #[must_use]
    pub fn csv(&self) -> String {
        let kept: std::collections::HashSet<&str> = self.kept.iter().map(String::as_str).collect();
        let mut text = String::from("transcript,value,exact,nodes,kept\n");
        for (t, v) in self.tree.classes.iter().zip(&self.values) {
            text.push_str(&format!(
                "{t},{},{},{},{}\n",
                v.value,
                v.exact,
                v.nodes,
                kept.contains(t.as_str())
            ));
        }
        text
    }

    /// Nodes searched over every class.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.values.iter().map(|v| v.nodes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Size6, Size8};

    #[test]
    fn the_8x8_tree_counts_match_perft() {
        // perft 1..=4 from the 8x8 start: 4, 12, 56, 244 (no passes this early).
        for (plies, sequences) in [(1, 4), (2, 12), (3, 56), (4, 244)] {
            assert_eq!(enumerate::<Size8>(plies).sequences, sequences);
        }
        // The 4 first moves are one position up to symmetry; after 2 plies the 12
        // sequences reach 12 positions, 3 up to symmetry (diagonal, perpendicular, parallel).
        assert_eq!(enumerate::<Size8>(1).classes, vec!["c4"]);
        let two = enumerate::<Size8>(2);
        assert_eq!((two.positions, two.classes.len()), (12, 3));
    }

    #[test]
    fn representatives_are_the_first_transcript_of_their_class() {
        let tree = enumerate::<Size6>(3);
        let mut sorted = tree.classes.clone();
        sorted.sort();
        assert_eq!(tree.classes, sorted);
        let keys: std::collections::HashSet<_> = tree
            .classes
            .iter()
            .map(|t| {
                canonical(
                    crate::game::Game::<Size6>::from_transcript(t)
                        .unwrap()
                        .position(),
                )
            })
            .collect();
        assert_eq!(keys.len(), tree.classes.len());
    }

    #[test]
    fn select_keeps_the_closest_to_even() {
        let tree = Tree {
            sequences: 3,
            positions: 3,
            classes: vec!["a".into(), "b".into(), "c".into()],
        };
        let v = |value| Value {
            value,
            exact: false,
            nodes: 0,
        };
        let recipe = Recipe {
            plies: 1,
            eval: StrategySpec::Greedy(crate::strategy::spec::GreedySpec {}),
            within: 2,
            max: Some(1),
        };
        let list = select(tree, vec![v(2), v(-1), v(5)], &recipe);
        assert_eq!(list.kept, vec!["b"]);
        assert_eq!((list.within, list.widest), (2, 1));
        assert_eq!(
            list.csv(),
            "transcript,value,exact,nodes,kept\na,2,false,0,false\nb,-1,false,0,true\nc,5,false,0,false\n"
        );
    }
}
