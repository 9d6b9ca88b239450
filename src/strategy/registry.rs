//! Every strategy kind, one line each: the one declaration from which the spec enum,
//! the list of names the parser and the listing read, and the dispatch to each kind's
//! [`Kind`](super::kind::Kind) all come. A new kind is a folder of its own (its player
//! and its parameter struct implementing `Kind`) and its line here; a kind that is
//! also an evaluation says `evaluation` (with a note when its value is not what its
//! name says as a player: greedy's disc count).

use super::kind::{Evaluation, Kind, Visit, VisitMut, WithEvaluator};
use super::spec::KindInfo;
use super::SpecError;
use crate::board::Geometry;

macro_rules! kinds {
    ($(
        $(#[$meta:meta])*
        $variant:ident($spec:ty) $($evaluation:ident $($note:literal)?)?,
    )*) => {
        /// A strategy as described by a user: validated names and values, defaults filled
        /// in. One variant a kind, each holding its parameter struct.
        #[derive(Clone, Debug, PartialEq)]
        pub enum StrategySpec {
            $(
                $(#[$meta])*
                $variant($spec),
            )*
        }

        /// Every strategy kind with its parameters, in the listing's order.
        pub const KINDS: &[KindInfo] = &[$(
            KindInfo {
                name: <$spec as Kind>::NAME,
                help: <$spec as Kind>::HELP,
                params: <$spec as Kind>::PARAMS,
                sample: <$spec as Kind>::SAMPLE,
                evaluation: kinds!(@evaluation $($evaluation $($note)?)?),
                searches: <$spec as Kind>::SEARCHES,
            },
        )*];

        $(
            impl From<$spec> for StrategySpec {
                fn from(spec: $spec) -> Self {
                    StrategySpec::$variant(spec)
                }
            }
        )*

        impl StrategySpec {
            /// Asks whichever kind this is.
            pub fn visit<V: Visit>(&self, visit: V) -> V::Out {
                match self {
                    $(StrategySpec::$variant(spec) => visit.kind(spec),)*
                }
            }

            /// Changes whichever kind this is.
            pub fn visit_mut<V: VisitMut>(&mut self, visit: V) -> V::Out {
                match self {
                    $(StrategySpec::$variant(spec) => visit.kind(spec),)*
                }
            }

            /// The spec of the kind named `name` from its parameters; None for no such kind.
            pub(crate) fn read_kind(
                name: &str,
                params: toml::Table,
            ) -> Option<Result<Self, SpecError>> {
                $(
                    if name == <$spec as Kind>::NAME {
                        return Some(<$spec as Kind>::read(params).map(StrategySpec::$variant));
                    }
                )*
                None
            }

            /// The spec of a kind's own one-line form (an engine's `gtp:COMMAND`).
            pub(crate) fn read_line(text: &str) -> Option<Result<Self, SpecError>> {
                $(
                    if let Some(read) = <$spec as Kind>::from_line(text) {
                        return Some(read.map(StrategySpec::$variant));
                    }
                )*
                None
            }

            /// The scale of the evaluation this spec stands for; None when it is none.
            pub fn evaluation_scale(&self) -> Option<crate::strategy::scale::Scale> {
                match self {
                    $(
                        StrategySpec::$variant(spec) => {
                            kinds!(@scale spec $(, $evaluation)?)
                        }
                    )*
                }
            }

            /// Hands the evaluation this spec stands for to `then`, or says it is none.
            pub(crate) fn with_evaluator<G: Geometry, W: WithEvaluator<G>>(
                &self,
                then: W,
            ) -> Result<W::Output, SpecError> {
                match self {
                    $(
                        StrategySpec::$variant(spec) => {
                            kinds!(@with spec, then, G $(, $evaluation)?)
                        }
                    )*
                }
            }
        }
    };
    (@evaluation) => { None };
    (@evaluation evaluation) => { Some("") };
    (@evaluation evaluation $note:literal) => { Some($note) };
    (@scale $spec:ident, evaluation) => {
        Some(Evaluation::value_scale($spec))
    };
    (@scale $spec:ident) => {{
        let _ = $spec;
        None
    }};
    (@with $spec:ident, $then:ident, $g:ident, evaluation) => {
        Ok($then.with(Evaluation::evaluator::<$g>($spec)?))
    };
    (@with $spec:ident, $then:ident, $g:ident) => {{
        let _ = $then;
        Err(SpecError::NotAnEvaluation { kind: name_of($spec) })
    }};
}

// A nested strategy is read apart (`take_nested`), which words its refusals.
impl crate::strategy::param_info::Shaped for StrategySpec {
    const SHAPE: crate::strategy::param_info::Shape = crate::strategy::param_info::OWN_WORDS;
}

/// The kind name of a spec whose type is not written out.
fn name_of<K: Kind>(_: &K) -> &'static str {
    K::NAME
}

kinds! {
    /// `random`.
    Random(super::random::RandomSpec),
    /// `greedy`; as an evaluation, the disc count.
    Greedy(super::greedy::GreedySpec) evaluation "disc count",
    /// `corner-first`.
    CornerFirst(super::corner::CornerFirstSpec),
    /// `corner-edge`.
    CornerEdge(super::corner::CornerEdgeSpec),
    /// `minimum-disc`.
    MinimumDisc(super::minimum_disc::MinimumDiscSpec),
    /// `weighted`.
    Weighted(super::weighted::WeightedSpec) evaluation,
    /// `mobility`.
    Mobility(super::mobility::MobilitySpec) evaluation,
    /// `parity`.
    Parity(super::parity::ParitySpec),
    /// `stability`.
    Stability(super::stability::StabilitySpec) evaluation,
    /// `pattern`: the fitted 8x8 pattern evaluation.
    Pattern(super::pattern::PatternSpec) evaluation,
    /// `eval`: the tunable evaluation.
    Eval(super::eval::EvalSpec) evaluation,
    /// `alphabeta`.
    Alphabeta(super::alphabeta::AlphaBetaSpec),
    /// `solver`.
    Solver(super::solver::SolverSpec),
    /// `engine`: an external program (`gtp:COMMAND`).
    Engine(super::engine::EngineSpec),
    /// `mcts`: Monte-Carlo tree search.
    Mcts(super::mcts::MctsSpec),
    /// `python`: a Python callable, as a player or an evaluation.
    Python(super::python::PythonSpec) evaluation,
}
