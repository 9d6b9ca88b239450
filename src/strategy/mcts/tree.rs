//! The search tree: an arena of `Copy` node records, each node's children one
//! contiguous block, grown by pushes into vectors reserved ahead (no allocation per
//! iteration). One value, [`Tree`], holds all of a search's state, so that a tree kept
//! between a game's moves is this value kept.

use crate::board::{Board, Geometry, Square};
use std::num::NonZeroU32;

/// One node: the move into it and what the search has learnt of it, from the point of
/// view of the side that made that move. 24 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    /// The sum of the results (each 0 to 1) of the iterations through it.
    pub total: f32,
    /// Iterations through it.
    pub visits: u32,
    /// Its first child's place in the arena; None until it is expanded.
    pub first: Option<NonZeroU32>,
    /// Its prior probability among its siblings (PUCT), else 0.
    pub prior: f32,
    /// The lowest final margin proven for the side that moved into it.
    pub lower: i8,
    /// The highest final margin not yet disproven for that side.
    pub upper: i8,
    /// How many children it has once expanded (a pass is one child).
    pub children: u8,
    /// The move into it; None for a pass.
    pub square: Option<Square>,
}

/// One move's all-moves-as-first statistics (GRAVE) in a node's table.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Amaf {
    /// The sum of the results of iterations through the node where the move was played
    /// later by that side, for that side.
    pub total: f32,
    /// How many.
    pub visits: u32,
}

/// A node without an all-moves-as-first table.
pub const NO_TABLE: u32 = u32::MAX;

impl Node {
    /// A fresh node after `square`, nothing proven on a board of `cells` squares.
    #[must_use]
    pub fn new(square: Option<Square>, cells: u32, prior: f32) -> Self {
        let most = cells.min(127) as i8;
        Node {
            total: 0.0,
            visits: 0,
            first: None,
            prior,
            lower: -most,
            upper: most,
            children: 0,
            square,
        }
    }

    /// Its mean result (0 when unvisited).
    #[must_use]
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            f64::from(self.total) / f64::from(self.visits)
        }
    }

    /// Its children's places in the arena.
    #[must_use]
    pub fn child_range(&self) -> std::ops::Range<usize> {
        match self.first {
            Some(first) => {
                let first = first.get() as usize;
                first..first + usize::from(self.children)
            }
            None => 0..0,
        }
    }
}

/// A search's whole state: the position at its root, the arena, and the buffers one
/// iteration uses.
pub struct Tree<G: Geometry> {
    /// The position searched.
    pub root: Board<G>,
    /// The moves considered at the root (all legal moves, or those a caller allows).
    pub root_moves: G::Bits,
    /// The nodes; the root is the first.
    pub nodes: Vec<Node>,
    /// GRAVE: each node's table's number, or [`NO_TABLE`] (empty when GRAVE is off).
    /// A node gets a table once it has the reference count of visits, so only the
    /// well-visited nodes near the root pay for one.
    pub table: Vec<u32>,
    /// GRAVE's tables, each `2 * cells` records: the moves of the side to move at its
    /// node, then the other side's.
    pub amaf: Vec<Amaf>,
    /// The nodes of the current iteration, root first.
    pub path: Vec<u32>,
    /// Iterations run.
    pub iterations: u64,
}

impl<G: Geometry> Tree<G> {
    /// A tree of one unvisited node for `root`, considering `moves` there, with room for
    /// `capacity` nodes reserved.
    #[must_use]
    pub fn new(root: Board<G>, moves: G::Bits, capacity: usize, rave: bool) -> Self {
        let mut nodes = Vec::with_capacity(capacity.max(1));
        nodes.push(Node::new(None, G::CELLS, 1.0));
        let table = if rave {
            let mut table = Vec::with_capacity(capacity.max(1));
            table.push(NO_TABLE);
            table
        } else {
            Vec::new()
        };
        Tree {
            root,
            root_moves: moves,
            nodes,
            table,
            amaf: Vec::new(),
            path: Vec::with_capacity(2 * G::CELLS as usize + 2),
            iterations: 0,
        }
    }

    /// The root's children, as (place, node).
    pub fn root_children(&self) -> impl Iterator<Item = (usize, &Node)> {
        let range = self.nodes[0].child_range();
        range.clone().zip(&self.nodes[range])
    }

    /// The principal variation after the root's child `square`: that move, then at
    /// each node the most visited child (the first among equals), as far as
    /// the tree is expanded; passes are implied.
    #[must_use]
    pub fn most_visited_line(&self, square: Square) -> Vec<Square> {
        let mut line = vec![square];
        let Some((mut at, _)) = self.root_children().find(|(_, c)| c.square == Some(square)) else {
            return line;
        };
        loop {
            let children = self.nodes[at].child_range();
            let most = children.max_by(|&a, &b| {
                let (a_node, b_node) = (&self.nodes[a], &self.nodes[b]);
                a_node.visits.cmp(&b_node.visits).then(b.cmp(&a))
            });
            match most {
                Some(child) if self.nodes[child].visits > 0 => {
                    line.extend(self.nodes[child].square);
                    at = child;
                }
                _ => return line,
            }
        }
    }

    /// Bytes held per node: the record, and GRAVE's table number beside it when on
    /// (the tables themselves are [`table_bytes`](Self::table_bytes) each).
    #[must_use]
    pub fn bytes_per_node(&self) -> usize {
        std::mem::size_of::<Node>()
            + if self.table.is_empty() {
                0
            } else {
                std::mem::size_of::<u32>()
            }
    }

    /// Bytes of one GRAVE table.
    #[must_use]
    pub fn table_bytes() -> usize {
        2 * G::CELLS as usize * std::mem::size_of::<Amaf>()
    }

    /// Whether GRAVE is on for this tree.
    #[must_use]
    pub fn grave(&self) -> bool {
        !self.table.is_empty()
    }

    /// The table of the node at `index`, if it has one: its first record's place.
    #[must_use]
    pub fn table_of(&self, index: usize) -> Option<usize> {
        match self.table.get(index) {
            Some(&t) if t != NO_TABLE => Some(t as usize * 2 * G::CELLS as usize),
            _ => None,
        }
    }

    /// Gives the node at `index` a table of its own, empty.
    pub fn add_table(&mut self, index: usize) {
        let number = self.amaf.len() / (2 * G::CELLS as usize);
        self.table[index] = u32::try_from(number).expect("fewer tables than nodes");
        self.amaf
            .resize(self.amaf.len() + 2 * G::CELLS as usize, Amaf::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_24_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 24);
        assert_eq!(std::mem::size_of::<Amaf>(), 8);
    }
}
