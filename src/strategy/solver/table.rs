//! The solver's transposition table: 2-way buckets of one cache line, shared by
//! the search threads, each entry an interval for the score and the confidence it
//! was proved with (exact, or a selective pass's), deepest entries kept first.

use crate::board::{Bits, Board, Geometry, Square};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Entries per bucket: a position may sit in either. Two 8x8 entries and the
/// lock fill one 64-byte cache line, so a probe costs one memory access.
const WAYS: usize = 2;

/// What the table knows of a position: its exact score lies in `lower..=upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The score is at least this.
    pub lower: i32,
    /// The score is at most this.
    pub upper: i32,
    /// The best move found, tried first next time.
    pub best: Option<Square>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot<B: Bits> {
    player: B,
    opponent: B,
    lower: i8,
    upper: i8,
    /// Empty squares of the position: the bigger its tree, the longer it is kept.
    empties: u8,
    best: Option<Square>,
    /// The table generation it was stored in (0: never stored).
    generation: u8,
    /// How far its bounds can be trusted (see [`Confidence`]).
    confidence: Confidence,
}

/// How far a search's values can be trusted: `EXACT`, or the cut threshold of a
/// selective search (its Multi-ProbCut `t`, in tenths of a standard deviation).
/// A search uses the bounds of entries at least as confident as itself; the others
/// only lend it their best move, so no exact value ever rests on a selective one.
pub type Confidence = u8;

/// The confidence of exact searches.
pub const EXACT: Confidence = u8::MAX;

type Slots<B> = [Slot<B>; WAYS];

/// A position's bucket in one table (see [`SolverTable::place`]).
#[derive(Clone, Copy, Debug)]
pub struct Place(usize);

/// A bucket and its lock, one cache line on 8x8.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket<B: Bits>(Mutex<Slots<B>>);

/// A table of 2^bits entries in buckets of 2, safe to share between threads
/// (each bucket has its own lock; with two threads they almost never meet).
/// `clear` bumps a generation counter instead of wiping memory.
#[derive(Debug)]
pub struct SolverTable<G: Geometry> {
    buckets: Vec<Bucket<G::Bits>>,
    bits: u32,
    generation: u8,
}

/// Scores never leave -128..=127 (at most 100 squares), so `i8` holds every bound.
fn narrow(value: i32) -> i8 {
    value.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i8
}

impl<G: Geometry> crate::strategy::PlayerState for SolverTable<G> {
    fn new_game(&mut self) {
        self.clear();
    }
}

impl<G: Geometry> SolverTable<G> {
    /// The exact solver's table a player keeps in `memory` (apart from a search's, whose
    /// values are on another scale), made on first use with 2^`bits` entries.
    pub fn kept(memory: &mut crate::strategy::Memory<G>, bits: u32) -> &mut Self {
        memory.state(|t: &Self| t.bits == bits, || Self::new(bits))
    }

    /// A table of 2^`bits` entries (`bits` at least 1).
    #[must_use]
    pub fn new(bits: u32) -> Self {
        let count = 1usize << (bits - 1);
        let mut buckets = Vec::with_capacity(count);
        advise_huge_pages(&buckets);
        buckets.extend((0..count).map(|_| Bucket::default()));
        SolverTable {
            buckets,
            bits,
            generation: 1,
        }
    }

    /// Bytes a table of 2^`bits` entries takes.
    #[must_use]
    pub const fn bytes(bits: u32) -> u64 {
        (std::mem::size_of::<Bucket<G::Bits>>() as u64) << (bits - 1)
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
            // Every 255 clears the counter wraps and old generations would come back to
            // life: wipe the table then (for `analyze`, once every 255 games a worker solves).
            for bucket in &mut self.buckets {
                *bucket.0.get_mut().unwrap_or_else(PoisonError::into_inner) = Slots::default();
            }
            self.generation = 1;
        }
    }

    /// Where `board` lives in the table: computed once a node, for its
    /// prefetch, probe and store.
    #[inline(always)]
    #[must_use]
    pub fn place(&self, board: Board<G>) -> Place {
        Place(board.hash() as usize & (self.buckets.len() - 1))
    }

    #[inline(always)]
    fn bucket(&self, place: Place) -> MutexGuard<'_, Slots<G::Bits>> {
        // A panic elsewhere cannot leave a bucket half-written: slots are Copy.
        self.buckets[place.0]
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts loading the bucket at `place` into the cache, so that a probe soon
    /// after does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, place: Place) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket<G::Bits> = &self.buckets[place.0];
            // SAFETY: a prefetch is only a hint; it never faults, even on a bad address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = place;
    }

    /// What is known of `board`, if it was stored since the last `clear`.
    #[inline]
    #[must_use]
    pub fn probe(&self, board: Board<G>, confidence: Confidence) -> Option<Bounds> {
        self.probe_at(self.place(board), board, confidence)
    }

    /// [`Self::probe`] at a place already computed. An entry less confident than
    /// `confidence` gives its best move with bounds that say nothing.
    #[inline]
    #[must_use]
    pub fn probe_at(
        &self,
        place: Place,
        board: Board<G>,
        confidence: Confidence,
    ) -> Option<Bounds> {
        let bucket = self.bucket(place);
        bucket
            .iter()
            .find(|s| {
                s.generation == self.generation
                    && s.player == board.player
                    && s.opponent == board.opponent
            })
            .map(|s| {
                let trusted = s.confidence >= confidence;
                Bounds {
                    lower: if trusted {
                        i32::from(s.lower)
                    } else {
                        i32::from(i8::MIN)
                    },
                    upper: if trusted {
                        i32::from(s.upper)
                    } else {
                        i32::from(i8::MAX)
                    },
                    best: s.best,
                }
            })
    }

    /// Stores what a search of `board` proved. A known position keeps the
    /// intersection of old and new intervals; a new one replaces the bucket's
    /// stale or smallest-tree entry.
    #[inline]
    pub fn store(&self, board: Board<G>, empties: u32, bounds: Bounds, confidence: Confidence) {
        self.store_at(self.place(board), board, empties, bounds, confidence);
    }

    /// [`Self::store`] at a place already computed. Bounds of one confidence are
    /// intersected; more confident ones replace less confident ones, which never
    /// replace them (but lend a best move where there was none).
    #[inline]
    pub fn store_at(
        &self,
        place: Place,
        board: Board<G>,
        empties: u32,
        bounds: Bounds,
        confidence: Confidence,
    ) {
        let generation = self.generation;
        let mut bucket = self.bucket(place);
        let mut victim = 0;
        let mut victim_rank = u32::MAX;
        for (i, slot) in bucket.iter_mut().enumerate() {
            let current = slot.generation == generation;
            if current && slot.player == board.player && slot.opponent == board.opponent {
                match slot.confidence.cmp(&confidence) {
                    std::cmp::Ordering::Equal => {
                        slot.lower = slot.lower.max(narrow(bounds.lower));
                        slot.upper = slot.upper.min(narrow(bounds.upper));
                    }
                    std::cmp::Ordering::Less => {
                        slot.lower = narrow(bounds.lower);
                        slot.upper = narrow(bounds.upper);
                        slot.confidence = confidence;
                    }
                    std::cmp::Ordering::Greater => {
                        slot.best = slot.best.or(bounds.best);
                        return;
                    }
                }
                if bounds.best.is_some() {
                    slot.best = bounds.best;
                }
                return;
            }
            let rank = if current {
                1 + u32::from(slot.empties)
            } else {
                0
            };
            if rank < victim_rank {
                victim_rank = rank;
                victim = i;
            }
        }
        bucket[victim] = Slot {
            player: board.player,
            opponent: board.opponent,
            lower: narrow(bounds.lower),
            upper: narrow(bounds.upper),
            empties: empties.min(255) as u8,
            best: bounds.best,
            generation,
            confidence,
        };
    }
}

/// Asks the kernel to back the (still untouched) table with huge pages: a table
/// of hundreds of megabytes in 4 KiB pages misses the TLB on almost every probe,
/// and the page walk costs as much as the probe itself. Only a hint: where the
/// kernel has no transparent huge pages, nothing changes.
fn advise_huge_pages<T>(buckets: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        let bytes = buckets.capacity() * std::mem::size_of::<T>();
        const HUGE: usize = 2 << 20;
        let start = (buckets.as_ptr() as usize).next_multiple_of(HUGE);
        let end = (buckets.as_ptr() as usize + bytes) & !(HUGE - 1);
        if end > start {
            // SAFETY: the range lies inside the vector's own allocation, and
            // MADV_HUGEPAGE changes how it is backed, never its contents.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buckets;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size8;

    fn bounds(lower: i32, upper: i32) -> Bounds {
        Bounds {
            lower,
            upper,
            best: None,
        }
    }

    #[test]
    fn stores_intersects_and_clears() {
        assert_eq!(std::mem::size_of::<Bucket<u64>>(), 64);
        let mut table = SolverTable::<Size8>::new(10);
        let board = Board::<Size8>::start();
        assert!(table.probe(board, EXACT).is_none());
        table.store(board, 60, bounds(-4, 64), EXACT);
        table.store(board, 60, bounds(-64, 10), EXACT);
        assert_eq!(table.probe(board, EXACT), Some(bounds(-4, 10)));
        assert!(table.probe(board.pass(), EXACT).is_none());
        table.clear();
        assert!(table.probe(board, EXACT).is_none());
    }

    #[test]
    fn selective_bounds_never_reach_an_exact_search() {
        let table = SolverTable::<Size8>::new(10);
        let board = Board::<Size8>::start();
        let guessed = Bounds {
            best: Some(Square::new(19)),
            ..bounds(4, 4)
        };
        table.store(board, 60, guessed, 10);
        let unknown = Bounds {
            best: Some(Square::new(19)),
            ..bounds(-128, 127)
        };
        assert_eq!(table.probe(board, EXACT), Some(unknown), "the move only");
        assert_eq!(
            table.probe(board, 20),
            Some(unknown),
            "a more confident pass"
        );
        assert_eq!(table.probe(board, 10), Some(guessed));
        assert_eq!(table.probe(board, 5), Some(guessed));
        // Exact bounds replace selective ones, and selective ones never replace them.
        table.store(board, 60, bounds(-2, 64), EXACT);
        table.store(board, 60, bounds(-64, -6), 10);
        let exact = Bounds {
            best: Some(Square::new(19)),
            ..bounds(-2, 64)
        };
        assert_eq!(table.probe(board, EXACT), Some(exact));
        assert_eq!(table.probe(board, 10), Some(exact));
    }

    #[test]
    fn a_full_bucket_gives_up_its_smallest_tree() {
        // With one bucket every position shares it.
        let table = SolverTable::<Size8>::new(1);
        let boards: Vec<Board<Size8>> = (0..3u64).map(|i| Board::new(1 << i, 1 << 40)).collect();
        table.store(boards[0], 10, bounds(0, 0), EXACT);
        table.store(boards[1], 11, bounds(0, 0), EXACT);
        table.store(boards[2], 20, bounds(0, 0), EXACT);
        assert!(
            table.probe(boards[0], EXACT).is_none(),
            "the smallest tree goes"
        );
        assert!(boards[1..].iter().all(|&b| table.probe(b, EXACT).is_some()));
    }
}
