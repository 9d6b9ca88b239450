//! Tree reuse (`reuse`): the tree a move's search grew is kept in the player's memory,
//! and the next move's search starts from the subtree after the moves played since,
//! found by following the game's history down the tree; when that line is not in the
//! tree (another game, an analysis of one position), the search starts afresh.

use super::tree::{Node, Tree, NO_TABLE};
use crate::board::{Board, Geometry, Position, Square};
use crate::strategy::{History, PlayerState};
use std::num::NonZeroU32;

/// The tree kept between a game's moves, with the line of the game that led to its root.
pub struct Kept<G: Geometry> {
    /// The tree, while one is kept.
    pub tree: Option<Tree<G>>,
    /// Where the game started.
    start: Position<G>,
    /// The moves from `start` to the tree's root.
    line: Vec<Square>,
}

impl<G: Geometry> Default for Kept<G> {
    fn default() -> Self {
        Kept {
            tree: None,
            start: Position::start(),
            line: Vec::new(),
        }
    }
}

impl<G: Geometry> PlayerState for Kept<G> {
    fn new_game(&mut self) {
        self.tree = None;
        self.line.clear();
    }
}

impl<G: Geometry> Kept<G> {
    /// Keeps `tree`, grown at the end of `history`.
    pub fn keep(&mut self, tree: Tree<G>, history: &History<'_, G>) {
        self.tree = Some(tree);
        self.start = history.start();
        self.line.clear();
        self.line.extend_from_slice(history.moves);
    }

    /// The kept tree re-rooted at `board`, reached by the moves of `history` since the
    /// tree's root, with room for `room` more nodes; None when `history` does not
    /// continue the kept line, the tree never searched that far, or `moves` are not all
    /// of `board`'s (the kept children are).
    pub fn take(
        &mut self,
        board: Board<G>,
        moves: G::Bits,
        history: &History<'_, G>,
        room: usize,
    ) -> Option<Tree<G>> {
        let tree = self.tree.take()?;
        if history.start() != self.start
            || !history.moves.starts_with(&self.line)
            || moves != board.moves()
        {
            return None;
        }
        let (index, reached) = tree.follow(&history.moves[self.line.len()..])?;
        (reached == board && tree.nodes[index].first.is_some())
            .then(|| tree.rerooted(index, board, moves, room))
    }
}

impl<G: Geometry> Tree<G> {
    /// The node reached from the root by `moves` (the passes between them implied) and
    /// its board; None when the tree does not hold that line.
    pub fn follow(&self, moves: &[Square]) -> Option<(usize, Board<G>)> {
        let mut index = 0;
        let mut board = self.root;
        let pass_if_stuck = |index: &mut usize, board: &mut Board<G>| -> Option<()> {
            if !board.can_move() && board.pass().can_move() {
                // The pass is a node of its own: the only child.
                let range = self.nodes[*index].child_range();
                let child = range.start;
                (range.len() == 1 && self.nodes[child].square.is_none()).then_some(())?;
                *index = child;
                *board = board.pass();
            }
            Some(())
        };
        for &square in moves {
            pass_if_stuck(&mut index, &mut board)?;
            index = self.nodes[index]
                .child_range()
                .find(|&child| self.nodes[child].square == Some(square))?;
            board = board.play(square);
        }
        pass_if_stuck(&mut index, &mut board)?;
        Some((index, board))
    }

    /// A tree of the subtree under `index` (whose board is `board`), its nodes copied
    /// breadth first into a new arena so that each node's children stay one block, with
    /// GRAVE's tables carried along and room for `room` more nodes.
    #[must_use]
    pub fn rerooted(&self, index: usize, board: Board<G>, moves: G::Bits, room: usize) -> Self {
        let grave = self.grave();
        let mut tree = Tree::new(board, moves, 1, grave);
        tree.nodes.clear();
        tree.table.clear();
        tree.iterations = 0;
        // The old place of each new node, in the new order.
        let mut old = Vec::new();
        tree.nodes.push(Node {
            square: None,
            ..self.nodes[index]
        });
        old.push(index);
        let mut at = 0;
        while at < tree.nodes.len() {
            let range = self.nodes[old[at]].child_range();
            if !range.is_empty() {
                tree.nodes[at].first = NonZeroU32::new(tree.nodes.len() as u32);
            }
            tree.nodes.extend_from_slice(&self.nodes[range.clone()]);
            old.extend(range);
            at += 1;
        }
        if grave {
            let stride = 2 * G::CELLS as usize;
            for &place in &old {
                match self.table_of(place) {
                    Some(from) => {
                        tree.table.push((tree.amaf.len() / stride) as u32);
                        tree.amaf.extend_from_slice(&self.amaf[from..from + stride]);
                    }
                    None => tree.table.push(NO_TABLE),
                }
            }
            tree.table.reserve(room);
        }
        tree.nodes.reserve(room);
        tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Bits, Size6, Size8};
    use crate::game::Rules;
    use crate::strategy::mcts::Mcts;
    use crate::strategy::{random_square, Context, GameRng, Memory, Strategy, StrategySpec};
    use rand::SeedableRng;

    fn player<G: Geometry>(text: &str) -> Mcts<G> {
        match StrategySpec::parse(text).unwrap() {
            StrategySpec::Mcts(spec) => spec.player::<G>(Rules::default()).unwrap(),
            other => panic!("not mcts: {other:?}"),
        }
    }

    fn kept<G: Geometry>(memory: &mut Memory<G>) -> &Tree<G> {
        memory
            .find_state::<Kept<G>>()
            .unwrap()
            .tree
            .as_ref()
            .unwrap()
    }

    #[test]
    fn the_next_search_starts_from_the_subtree_after_the_reply() {
        let mcts = player::<Size8>("mcts:iterations=400,reuse=true");
        let mut rng = GameRng::seed_from_u64(7);
        let mut memory = Memory::new();
        let start = Board::<Size8>::start();
        let mut context = Context {
            rng: &mut rng,
            memory: &mut memory,
            history: History::from_start(&[]),
        };
        let ours = mcts
            .choose(start, start.moves(), &mut context)
            .unwrap()
            .square;
        let tree = kept(&mut memory);
        assert_eq!(tree.nodes[0].visits, 400);
        // The opponent's reply the search looked at most.
        let (after, _) = tree.follow(&[ours]).unwrap();
        let reply = tree.nodes[tree.nodes[after].child_range()]
            .iter()
            .max_by_key(|n| n.visits)
            .and_then(|n| n.square)
            .unwrap();
        let (index, board) = tree.follow(&[ours, reply]).unwrap();
        assert_eq!(board, start.play(ours).play(reply));
        let before = tree.nodes[index];
        assert!(before.visits > 1 && before.first.is_some());
        // Re-rooted: the same subtree, node for node.
        let subtree = tree.rerooted(index, board, board.moves(), 0);
        let count = |tree: &Tree<Size8>, at: usize| {
            let mut stack = vec![at];
            let mut count = 0;
            while let Some(at) = stack.pop() {
                count += 1;
                stack.extend(tree.nodes[at].child_range());
            }
            count
        };
        assert_eq!(subtree.nodes.len(), count(tree, index));
        assert_eq!(subtree.nodes[0].visits, before.visits);
        let children = |tree: &Tree<Size8>, at: usize| -> Vec<(Option<Square>, u32, f32)> {
            tree.nodes[tree.nodes[at].child_range()]
                .iter()
                .map(|n| (n.square, n.visits, n.total))
                .collect()
        };
        assert_eq!(children(&subtree, 0), children(tree, index));

        let line = [ours, reply];
        let mut context = Context {
            rng: &mut rng,
            memory: &mut memory,
            history: History::from_start(&line),
        };
        mcts.choose(board, board.moves(), &mut context).unwrap();
        let tree = kept(&mut memory);
        assert_eq!(tree.root, board);
        assert_eq!(tree.nodes[0].visits, before.visits + 400);
    }

    #[test]
    fn an_unknown_line_is_searched_afresh() {
        let reusing = player::<Size8>("mcts:iterations=300,reuse=true");
        let fresh = player::<Size8>("mcts:iterations=300");
        let (mut rng_a, mut rng_b) = (GameRng::seed_from_u64(3), GameRng::seed_from_u64(3));
        let (mut memory_a, mut memory_b) = (Memory::new(), Memory::new());
        let mut position = Position::<Size8>::start();
        for ply in 0..12 {
            let moves = position.board.moves();
            if moves.is_empty() {
                position = position.pass();
                continue;
            }
            // An analysis of one position after another (no line), then a new game.
            if ply == 6 {
                memory_a.new_game();
            }
            let ask = |mcts: &Mcts<Size8>, rng: &mut GameRng, memory: &mut Memory<Size8>| {
                let mut context = Context {
                    rng,
                    memory,
                    history: History::at(position),
                };
                mcts.choose(position.board, moves, &mut context).unwrap()
            };
            let a = ask(&reusing, &mut rng_a, &mut memory_a);
            let b = ask(&fresh, &mut rng_b, &mut memory_b);
            assert_eq!((a.square, a.value), (b.square, b.value), "ply {ply}");
            position = position.play(a.square);
        }
    }

    /// Whole games on 6x6 with passes, against random: every reuse's tree is the
    /// position's, and most moves search on from a kept subtree.
    #[test]
    fn games_with_passes_reuse_their_trees() {
        let mcts = player::<Size6>("mcts:iterations=200,reuse=true");
        let mut reused = 0;
        let mut searched = 0;
        for seed in 0..6u64 {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut memory = Memory::new();
            memory.new_game();
            let mut board = Board::<Size6>::start();
            let mut line = Vec::new();
            while !board.is_game_over() {
                let moves = board.moves();
                if moves.is_empty() {
                    board = board.pass();
                    continue;
                }
                let square = if line.len() % 2 == (seed % 2) as usize {
                    let mut context = Context {
                        rng: &mut rng,
                        memory: &mut memory,
                        history: History::from_start(&line),
                    };
                    let square = mcts.choose(board, moves, &mut context).unwrap().square;
                    let tree = kept(&mut memory);
                    assert_eq!((tree.root, tree.root_moves), (board, moves));
                    searched += 1;
                    if tree.nodes[0].visits > 200 {
                        reused += 1;
                    }
                    square
                } else {
                    random_square(moves, &mut rng)
                };
                assert!(moves.has(square.index()));
                line.push(square);
                board = board.play(square);
            }
        }
        assert!(reused * 2 > searched, "{reused} of {searched}");
    }
}
