//! A Python evaluation's fault (an exception, a value that is not a finite number, a
//! worker that died or stalled) ends the game as a forfeit of the player whose search
//! called it, like a strategy's own fault. [`Evaluator::evaluate`] answers a number at
//! every leaf, so the fault is kept aside on the calling thread, the rest of that
//! search's calls are skipped (valued 0 without calling Python), and the player's
//! [`EvalFaults`] wrapper turns it into the move's [`Fault`] once the search returns:
//! one thread-local look a move, nothing a node, and built-in evaluations untouched.
//!
//! [`Evaluator::evaluate`]: crate::strategy::Evaluator::evaluate

use crate::board::{Board, Geometry, Square};
use crate::game::Termination;
use crate::strategy::{Context, Fault, Picked, SpecError, Strategy};
use std::cell::RefCell;

thread_local! {
    /// The first fault of a Python evaluation on this thread since the search began.
    static PENDING: RefCell<Option<Fault>> = const { RefCell::new(None) };
    /// What each Python evaluation built while a strategy is built is (see [`building`]).
    static BUILT: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// Keeps `termination` and `reason` as this thread's pending fault, unless one is.
pub(crate) fn raise(termination: Termination, reason: String) {
    PENDING.with(|p| {
        p.borrow_mut().get_or_insert(Fault {
            termination,
            reason,
        });
    });
}

/// Whether a fault is pending on this thread: the search's remaining calls are skipped.
pub(crate) fn pending() -> bool {
    PENDING.with(|p| p.borrow().is_some())
}

/// The pending fault of this thread, taken.
pub(crate) fn take() -> Option<Fault> {
    PENDING.with(|p| p.borrow_mut().take())
}

/// Notes that a Python evaluation described as `identity` was built, for the strategy
/// being built around it (see [`building`]).
pub(crate) fn built(identity: String) {
    BUILT.with(|b| {
        if let Some(list) = b.borrow_mut().as_mut() {
            list.push(identity);
        }
    });
}

/// Builds a strategy with `build`; when Python evaluations were built inside it (a
/// search over one), it comes wrapped in [`EvalFaults`]. Only the outermost build wraps.
pub fn building<G: Geometry>(
    build: impl FnOnce() -> Result<Box<dyn Strategy<G>>, SpecError>,
) -> Result<Box<dyn Strategy<G>>, SpecError> {
    let outermost = BUILT.with(|b| {
        let mut b = b.borrow_mut();
        let outermost = b.is_none();
        if outermost {
            *b = Some(Vec::new());
        }
        outermost
    });
    if !outermost {
        return build();
    }
    /// Ends the list however the build ends, so that a later build is outermost again.
    struct Done;
    impl Drop for Done {
        fn drop(&mut self) {
            BUILT.with(|b| b.borrow_mut().take());
        }
    }
    let done = Done;
    let strategy = build();
    let evaluations = BUILT.with(|b| b.borrow_mut().take()).unwrap_or_default();
    drop(done);
    let strategy = strategy?;
    if evaluations.is_empty() {
        return Ok(strategy);
    }
    Ok(Box::new(EvalFaults {
        inner: strategy,
        evaluations: evaluations.join("; "),
    }))
}

/// A strategy whose search calls Python evaluations: a fault of one loses the game.
pub struct EvalFaults<G: Geometry> {
    inner: Box<dyn Strategy<G>>,
    /// What the evaluations are, for `run.toml` (and so that a run watches the
    /// player's faults, as an engine's).
    evaluations: String,
}

impl<G: Geometry> Strategy<G> for EvalFaults<G> {
    fn pick(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        // A fault left by a call outside a move (a value asked for analysis) is not
        // this move's.
        let _ = take();
        let answer = self.inner.pick(board, moves, context);
        match take() {
            Some(fault) => Err(Box::new(fault)),
            None => answer,
        }
    }

    fn move_values(
        &self,
        board: Board<G>,
        moves: G::Bits,
        context: &mut Context<'_, G>,
    ) -> Option<Vec<(Square, i32)>> {
        let _ = take();
        let values = self.inner.move_values(board, moves, context);
        // Values some of which are stand-ins for a failed call are no values.
        take().is_none().then_some(values).flatten()
    }

    fn identity(&self) -> Option<String> {
        Some(match self.inner.identity() {
            Some(inner) => format!("{inner}; evaluation {}", self.evaluations),
            None => format!("evaluation {}", self.evaluations),
        })
    }

    fn attach(&self, logs: &crate::strategy::logs::Logs) {
        self.inner.attach(logs);
    }

    fn keeps_log(&self) -> bool {
        self.inner.keeps_log()
    }
}
