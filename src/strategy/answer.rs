//! A strategy's answer: the one-word `Pick` a game plays, the `Notes` a search adds in
//! the player's memory, the `Choice` its callers show, and the `Fault` that loses a game.

use crate::board::Square;

/// A strategy's answer as its callers see it (see [`Strategy::choose`](super::Strategy::choose)): the move it
/// chose with all it knows of it, or the fault that lost the game for it.
pub type Answer = Result<Choice, Box<Fault>>;

/// A strategy's answer as a game plays it (see [`Strategy::pick`](super::Strategy::pick)): the move and its
/// value, or the fault (boxed: a fault is rare).
pub type Picked = Result<Pick, Box<Fault>>;

// A fast game asks for a pick at every move: a word and a tag come back in two
// registers, where a larger answer (or one of several fields) is written to memory
// and read back (about 20 instructions a move of a greedy game, 2% of a run).
const _: () = assert!(std::mem::size_of::<Picked>() == 16);

/// The move a strategy picked, its value and whether that is proven: what a game
/// needs of every choice, packed in one word (the move in the low byte, then a bit
/// each for "proven" and "valued", the value in the high half) so that the answer
/// comes back in registers. The rest (time, depth, principal variation) goes into
/// the player's [`Notes`].
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(transparent)]
pub struct Pick(u64);

impl Pick {
    const PROVEN: u64 = 1 << 8;
    const VALUED: u64 = 1 << 9;

    /// A move chosen by a rule.
    #[inline]
    #[must_use]
    pub const fn of(square: Square) -> Self {
        Pick(square.index() as u64)
    }

    /// A move chosen for its `value` (on the strategy's own scale, see `spec::Scale`).
    #[inline]
    #[must_use]
    pub const fn valued(square: Square, value: i32) -> Self {
        Pick(square.index() as u64 | Self::VALUED | (value as u32 as u64) << 32)
    }

    /// This pick, its value proven: the game's final margin under best play (a solve,
    /// or a search that saw every line to the end), not an estimate.
    #[inline]
    #[must_use]
    pub const fn proven(self) -> Self {
        Pick(self.0 | Self::PROVEN)
    }

    /// The move.
    #[inline]
    #[must_use]
    pub const fn square(self) -> Square {
        Square::new(self.0 as u8 as u32)
    }

    /// Its value, where it chose by a value: a search's best value, an evaluation's
    /// after the move.
    #[inline]
    #[must_use]
    pub const fn value(self) -> Option<i32> {
        if self.0 & Self::VALUED == 0 {
            None
        } else {
            Some((self.0 >> 32) as u32 as i32)
        }
    }

    /// Whether the value is proven (see [`proven`](Self::proven)).
    #[inline]
    #[must_use]
    pub const fn is_proven(self) -> bool {
        self.0 & Self::PROVEN != 0
    }
}

impl std::fmt::Debug for Pick {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pick")
            .field("square", &self.square())
            .field("value", &self.value())
            .field("proven", &self.is_proven())
            .finish()
    }
}

/// What a strategy notes of its last pick besides the move and its value, in a slot
/// of the player's [`Memory`](super::Memory) that a caller reads only when it wants it: a search's
/// time, depth and line are rare beside a fast game's moves, and written here they
/// keep the pick two words and need no allocation (the line's vector is reused).
#[derive(Debug, Default)]
pub struct Notes {
    /// How long it thought in nanoseconds, where it thinks long enough to be worth
    /// timing (a search, an engine): a one-ply rule takes about as long as reading
    /// the clock, so timing its every move would slow a run by a third.
    thought: Option<std::num::NonZeroU64>,
    /// The plies a search completed.
    depth: Option<std::num::NonZeroU8>,
    /// The principal variation: the move, then the replies the search expects, passes
    /// implied (a side with no legal move passes); empty where there is none.
    pv: Vec<Square>,
}

impl Notes {
    /// Forgets the last pick's notes (keeping the line's room).
    pub fn clear(&mut self) {
        self.thought = None;
        self.depth = None;
        self.pv.clear();
    }

    /// The pick was found by a search that completed `plies` plies.
    pub fn searched(&mut self, plies: u32) {
        self.depth = u8::try_from(plies).ok().and_then(std::num::NonZeroU8::new);
    }

    /// The pick's principal variation is `line`: the move, then the replies the
    /// search expects (see [`Choice::pv`]).
    pub fn set_pv(&mut self, line: Vec<Square>) {
        self.pv = line;
    }

    /// The pick took `elapsed`.
    pub fn timed(&mut self, elapsed: std::time::Duration) {
        let nanos = u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
        self.thought = Some(std::num::NonZeroU64::new(nanos).unwrap_or(std::num::NonZeroU64::MIN));
    }

    /// The pick took the time since `began`.
    pub fn timed_from(&mut self, began: std::time::Instant) {
        self.timed(began.elapsed());
    }

    /// How long the pick took, where it was timed.
    #[must_use]
    pub fn elapsed(&self) -> Option<std::time::Duration> {
        self.thought
            .map(|nanos| std::time::Duration::from_nanos(nanos.get()))
    }

    /// How long the pick took in nanoseconds, where it was timed, forgotten once read
    /// (the game loop reads it after every pick).
    #[inline]
    pub fn take_nanos(&mut self) -> Option<u64> {
        // Written back only where there was a time: a rule's pick (most of a fast
        // game's) leaves the slot as it was.
        let nanos = self.thought?;
        self.thought = None;
        Some(nanos.get())
    }
}

/// The move a strategy chose, with all it knows of it: its [`Pick`] and its [`Notes`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move.
    pub square: Square,
    /// Its value on the strategy's own scale (see `spec::Scale`), where it chose by a
    /// value: a search's best value, an evaluation's after the move.
    pub value: Option<i32>,
    /// How long it thought (see [`elapsed`](Self::elapsed)).
    thought: Option<std::time::Duration>,
    /// The principal variation (see [`pv`](Self::pv)).
    pv: Vec<Square>,
    /// The plies a search completed (see [`depth`](Self::depth)).
    depth: Option<u32>,
    /// Whether the value is proven (see [`is_proven`](Self::is_proven)).
    proven: bool,
}

impl Choice {
    /// The choice of `pick`, with what `notes` say of it.
    #[must_use]
    pub fn noted(pick: Pick, notes: &Notes) -> Self {
        Choice {
            square: pick.square(),
            value: pick.value(),
            thought: notes.elapsed(),
            pv: notes.pv.clone(),
            depth: notes.depth.map(|d| u32::from(d.get())),
            proven: pick.is_proven(),
        }
    }

    /// Whether its value is the game's final margin under best play, on the
    /// strategy's scale, rather than an estimate.
    #[must_use]
    pub const fn is_proven(&self) -> bool {
        self.proven
    }

    /// The plies its search completed; None for a choice made without a search.
    #[must_use]
    pub fn depth(&self) -> Option<u32> {
        self.depth
    }

    /// The principal variation: the move, then the best play the search found for
    /// both sides after it (as far as it knows it; passes implied). Empty where the
    /// strategy has none (a rule, an evaluation).
    #[must_use]
    pub fn pv(&self) -> &[Square] {
        &self.pv
    }

    /// The principal variation as a line of square names on a board of `size`
    /// (`c4 c3 d3`), where it goes past the move itself; None otherwise.
    #[must_use]
    pub fn line_text(&self, size: u32) -> Option<String> {
        (self.pv.len() > 1).then(|| {
            let names: Vec<String> = self.pv.iter().map(|s| s.name(size)).collect();
            names.join(" ")
        })
    }

    /// How long it thought, where it thinks long enough to be worth timing (a search,
    /// an engine); None for a one-ply rule (see [`Notes`]).
    #[must_use]
    pub fn elapsed(&self) -> Option<std::time::Duration> {
        self.thought
    }
}

/// One search's root (see [`Strategy::move_visits`](super::Strategy::move_visits)).
#[derive(Clone, Debug, PartialEq)]
pub struct Visits {
    /// Each move considered: the move chosen first, then the rest by visits.
    pub moves: Vec<Visited>,
    /// The move the search chooses, with its principal variation.
    pub choice: Choice,
}

/// One root move of a search that counts visits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visited {
    /// The move.
    pub square: Square,
    /// Its value on the strategy's scale, as [`Strategy::move_values`](super::Strategy::move_values) gives it.
    pub value: i32,
    /// The iterations through it.
    pub visits: u64,
    /// The final margins it is proven to lie between, where the search narrowed them
    /// (both equal: proven exactly).
    pub bounds: Option<(i32, i32)>,
}

/// Move values best first, as an eval lists them: by value, and among equal values
/// the move the strategy chooses first (so that the line shown after the list starts
/// with the first move listed), then by square.
pub fn best_first(values: &mut [(Square, i32)], chosen: Option<Square>) {
    values
        .sort_by_key(|&(square, value)| (std::cmp::Reverse(value), Some(square) != chosen, square));
}

impl Visited {
    /// What its value rests on, as shown beside it: `412 visits`, `30 visits, proven
    /// a draw`, `9 visits, proven +2 to +8`.
    #[must_use]
    pub fn note(&self) -> String {
        let bounds = match self.bounds {
            Some((0, 0)) => ", proven a draw".to_string(),
            Some((lower, upper)) if lower < upper => format!(", proven {lower:+} to {upper:+}"),
            _ => String::new(),
        };
        format!("{}{bounds}", crate::numbers::counted(self.visits, "visit"))
    }
}

/// What made a move worthless: an engine's crash, stall or illegal move, any player's
/// move past its time. The game loop forfeits the game for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// How the game ends.
    pub termination: crate::game::Termination,
    /// What happened, in one line.
    pub reason: String,
}
