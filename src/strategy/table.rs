//! The transposition table: search results by position, forgotten per game in O(1).

use crate::board::{Board, Geometry, Square};

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (a beta cut-off).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry<G: Geometry> {
    /// The position, stored whole so that hash collisions can never mislead.
    pub board: Board<G>,
    /// The value found.
    pub value: i32,
    /// Plies searched below the position (`u8::MAX` for an exact endgame solve).
    pub depth: u8,
    /// How `value` bounds the true value.
    pub bound: Bound,
    /// The best move found, tried first next time.
    pub best: Option<Square>,
    generation: u32,
}

/// A fixed-size, always-replace table of 2^bits entries. `clear` bumps a
/// generation counter instead of wiping memory, so a new game costs nothing.
#[derive(Debug)]
pub struct TranspositionTable<G: Geometry> {
    entries: Vec<Option<Entry<G>>>,
    bits: u32,
    generation: u32,
}

impl<G: Geometry> crate::strategy::PlayerState for TranspositionTable<G> {
    fn new_game(&mut self) {
        self.clear();
    }
}

impl<G: Geometry> TranspositionTable<G> {
    /// The table a player keeps in `memory`, made on first use with 2^`bits` entries
    /// (anew for another size).
    pub fn kept(memory: &mut crate::strategy::Memory<G>, bits: u32) -> &mut Self {
        memory.state(|t: &Self| t.bits == bits, || Self::new(bits))
    }

    /// A table of 2^`bits` entries.
    #[must_use]
    pub fn new(bits: u32) -> Self {
        TranspositionTable {
            entries: vec![None; 1usize << bits],
            bits,
            generation: 0,
        }
    }

    /// Bytes a table of 2^`bits` entries takes.
    #[must_use]
    pub const fn bytes(bits: u32) -> u64 {
        (std::mem::size_of::<Entry<G>>() as u64) << bits
    }

    /// log2 of the number of entries.
    #[must_use]
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Once every 4 billion games: old generations would come back to life.
            self.entries.iter_mut().for_each(|e| *e = None);
        }
    }

    #[inline(always)]
    fn slot(&self, board: Board<G>) -> usize {
        (board.hash() >> (64 - self.bits)) as usize
    }

    /// The entry for `board`, if one from this game is stored.
    #[inline]
    #[must_use]
    pub fn probe(&self, board: Board<G>) -> Option<Entry<G>> {
        let entry = self.entries[self.slot(board)]?;
        (entry.generation == self.generation && entry.board == board).then_some(entry)
    }

    /// Stores a result, replacing whatever was in its slot unless that came from
    /// a deeper search of the same position.
    #[inline]
    pub fn store(
        &mut self,
        board: Board<G>,
        value: i32,
        depth: u8,
        bound: Bound,
        best: Option<Square>,
    ) {
        let slot = self.slot(board);
        if let Some(old) = self.entries[slot] {
            if old.generation == self.generation && old.board == board && old.depth > depth {
                return;
            }
        }
        self.entries[slot] = Some(Entry {
            board,
            value,
            depth,
            bound,
            best,
            generation: self.generation,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size8;

    #[test]
    fn store_probe_and_clear() {
        let mut table = TranspositionTable::<Size8>::new(8);
        let board = Board::<Size8>::start();
        assert!(table.probe(board).is_none());
        table.store(board, 7, 3, Bound::Exact, Some(Square::new(37)));
        let entry = table.probe(board).unwrap();
        assert_eq!(
            (entry.value, entry.depth, entry.best),
            (7, 3, Some(Square::new(37)))
        );
        assert!(table.probe(board.pass()).is_none());
        table.store(board, 1, 1, Bound::Lower, None);
        assert_eq!(
            table.probe(board).unwrap().value,
            7,
            "a shallower result must not replace a deeper one"
        );
        table.clear();
        assert!(table.probe(board).is_none());
    }
}
