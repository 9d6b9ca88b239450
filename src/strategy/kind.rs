//! What a strategy kind is: its name, help and parameters, how its spec is read and
//! checked, what it builds, and the facts callers ask of it. Each family implements
//! [`Kind`] beside its parameter struct; `registry.rs` lists the kinds, one line each.

use super::param_info::ParamInfo;
use super::scale::Scale;
use super::spec::StrategySpec;
use super::{Evaluator, OnePly, SpecError, Strategy};
use crate::board::Geometry;
use crate::game::Rules;
use std::path::PathBuf;
use toml::Table;

/// One strategy kind, implemented by its parameter struct.
pub trait Kind: Clone + std::fmt::Debug + PartialEq + serde::Serialize + Sized + 'static {
    /// The name users write (`kind = "..."`).
    const NAME: &'static str;
    /// One line on what it does.
    const HELP: &'static str;
    /// Its parameters: the only keys the parser accepts for it, and the listing's.
    const PARAMS: &'static [ParamInfo];
    /// The smallest spec that reads, for the tests that walk every kind: the name alone
    /// unless a key is required (an engine's command).
    const SAMPLE: &'static str = Self::NAME;
    /// Whether it runs code of the user's choosing on this machine (a program, a
    /// Python callable): what a web page may never ask for.
    const RUNS_CODE: bool = false;
    /// Whether choosing one move searches ahead (a game tree, an exact solve, an
    /// external engine): far too dear for every move of a playout.
    const SEARCHES: bool = false;

    /// Reads the spec from its parameters (`kind` removed, every key one of
    /// [`PARAMS`](Self::PARAMS)), with the kind's own checks.
    fn read(params: Table) -> Result<Self, SpecError>;

    /// The spec a one-line form other than `kind:key=value` stands for (an engine's
    /// `gtp:COMMAND`), or None when `text` is not one.
    fn from_line(text: &str) -> Option<Result<Self, SpecError>> {
        let _ = text;
        None
    }

    /// The player for boards of geometry `G` under `rules`; errors name what does not
    /// fit this board size.
    fn build<G: Geometry>(&self, rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError>;

    /// The strategies among its parameters (a search's evaluation, a base strategy):
    /// what is asked of the kind is asked of them too (paths, clocks, practicality).
    fn nested(&self) -> Vec<&StrategySpec> {
        Vec::new()
    }

    /// [`nested`](Self::nested), to change them.
    fn nested_mut(&mut self) -> Vec<&mut StrategySpec> {
        Vec::new()
    }

    /// Its file paths, which a config file's folder is the base of.
    fn paths(&mut self) -> Vec<&mut PathBuf> {
        Vec::new()
    }

    /// Whether its own moves stop on a clock (a search's `time`).
    fn timed(&self) -> bool {
        false
    }

    /// Refuses a spec that could not finish a game starting with `empties` empty
    /// squares in reasonable time; `clocked`: the player may be on a time control,
    /// which bounds every move.
    fn check_practical(&self, empties: u32, clocked: bool) -> Result<(), SpecError> {
        let _ = (empties, clocked);
        Ok(())
    }

    /// At or below this many empty squares its move values are exact final margins
    /// (0: never).
    fn exact_from(&self) -> u32 {
        0
    }

    /// Its search depth, which a controller may set (NBoard's `set depth`), and the
    /// deepest it accepts: None when it has none.
    fn depth(&self) -> Option<Depth> {
        None
    }

    /// This spec with its search depth set to `depth` (within [`depth`](Self::depth)'s
    /// range).
    fn set_depth(&mut self, depth: u32) {
        let _ = depth;
    }

    /// The scale its move values are on as a player, where it is not its evaluation's
    /// (see [`Evaluation::value_scale`]) or the strategy's own units.
    fn scale(&self) -> Option<Scale> {
        None
    }
}

/// A search depth and the deepest one a spec accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Depth {
    /// The depth searched now.
    pub now: u32,
    /// The deepest accepted.
    pub most: u32,
    /// Whether a node or time budget bounds the search (the deepest is then 60).
    pub budgeted: bool,
}

/// A kind that is also an evaluation: a search's leaves, or one ply deep as a player.
pub trait Evaluation: Kind {
    /// The evaluation for boards of geometry `G`.
    fn evaluator<G: Geometry>(&self) -> Result<impl Evaluator<G> + 'static, SpecError>;

    /// The scale of its values.
    fn value_scale(&self) -> Scale;
}

/// The one-ply player over an evaluation kind: how such a kind builds as a player.
pub fn one_ply<G: Geometry, K: Evaluation>(spec: &K) -> Result<Box<dyn Strategy<G>>, SpecError> {
    Ok(Box::new(OnePly {
        eval: spec.evaluator::<G>()?,
    }))
}

/// What to make of an evaluation once its concrete type is known. Exists so that the
/// registry maps eval specs to evaluators in one match, while searches can still be
/// monomorphised over theirs (measured: about 10% faster than calling a boxed
/// evaluation at every leaf).
pub trait WithEvaluator<G: Geometry> {
    /// What is made.
    type Output;
    /// Makes it over `eval`.
    fn with<E: Evaluator<G> + 'static>(self, eval: E) -> Self::Output;
}

/// An evaluation boxed.
pub(crate) struct Boxed;

impl<G: Geometry> WithEvaluator<G> for Boxed {
    type Output = Box<dyn Evaluator<G>>;
    fn with<E: Evaluator<G> + 'static>(self, eval: E) -> Self::Output {
        Box::new(eval)
    }
}

/// A question asked of whichever kind a spec is: the registry's one dispatch.
pub trait Visit {
    /// The answer.
    type Out;
    /// Asks `spec`, of kind `K`.
    fn kind<K: Kind>(self, spec: &K) -> Self::Out;
}

/// [`Visit`] for a change.
pub trait VisitMut {
    /// The answer.
    type Out;
    /// Changes `spec`, of kind `K`.
    fn kind<K: Kind>(self, spec: &mut K) -> Self::Out;
}

/// A strategy among a kind's parameters (`alphabeta`'s `eval`, `parity`'s `base`),
/// read by the one parser: taken out of `params` (so that the rest reads typed), errors
/// said to be this parameter's, `default` when absent; `evaluation`: it must be one.
pub fn take_nested(
    params: &mut Table,
    kind: &'static str,
    key: &'static str,
    default: StrategySpec,
    evaluation: bool,
) -> Result<StrategySpec, SpecError> {
    thread_local! {
        static DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }
    let spec = match params.remove(key) {
        Some(value) => {
            let depth = DEPTH.with(|d| d.get());
            if depth >= crate::strategy::spec::MAX_NESTING {
                return Err(SpecError::TooDeep {
                    limit: crate::strategy::spec::MAX_NESTING,
                });
            }
            DEPTH.with(|d| d.set(depth + 1));
            let read = StrategySpec::from_value(&value);
            DEPTH.with(|d| d.set(depth));
            read.map_err(|e| e.within(kind, key))?
        }
        None => default,
    };
    if evaluation && !spec.is_evaluation() {
        return Err(SpecError::NestedNotAnEvaluation {
            within: kind,
            key,
            found: spec.kind(),
        });
    }
    Ok(spec)
}
