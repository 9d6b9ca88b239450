//! Every strategy kind, one line each: the one declaration from which the spec enum,
//! the list of names the parser and the listing read, and the dispatch to each kind's
//! [`Kind`](kind::Kind) all come. A new kind is a folder of its own (its player
//! and its parameter struct implementing `Kind`) and its line here, which names the
//! folder (`Name(family::NameSpec in "family/mod.rs")`, as the test-only `first-legal`
//! does) so that nothing else declares it; a kind that is also an evaluation says
//! `evaluation` (with a note when its value is not what its name says as a player:
//! greedy's disc count). The kinds from before a line could name its folder are
//! declared in `strategy/mod.rs`, which their other items are used through.

// The families' folders, each line naming its own (`random::RandomSpec`).
use super::kind::{Evaluation, Kind, Visit, VisitMut, WithEvaluator};
use super::spec::KindInfo;
use super::SpecError;
#[allow(clippy::wildcard_imports)]
use super::*;
use crate::board::Geometry;

macro_rules! kinds {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $variant:ident($module:ident :: $spec:ident $(in $folder:literal)?) $($evaluation:ident $($note:literal)?)?,
    )*) => {
        // A kind whose folder its line names is declared here: its folder and its line
        // are all it takes.
        $(kinds!(@folder $module; $($cfg)?; $($folder)?);)*

        /// A strategy as described by a user: validated names and values, defaults filled
        /// in. One variant a kind, each holding its parameter struct.
        #[derive(Clone, Debug, PartialEq)]
        pub enum StrategySpec {
            $(
                $(#[doc = $doc])*
                $(#[cfg($cfg)])?
                $variant($module::$spec),
            )*
        }

        /// Every strategy kind with its parameters, in the listing's order.
        pub const KINDS: &[KindInfo] = &[$(
            $(#[cfg($cfg)])?
            KindInfo {
                name: <$module::$spec as Kind>::NAME,
                help: <$module::$spec as Kind>::HELP,
                params: <$module::$spec as Kind>::PARAMS,
                sample: <$module::$spec as Kind>::SAMPLE,
                evaluation: kinds!(@evaluation $($evaluation $($note)?)?),
                searches: <$module::$spec as Kind>::SEARCHES,
            },
        )*];

        $(
            $(#[cfg($cfg)])?
            impl From<$module::$spec> for StrategySpec {
                fn from(spec: $module::$spec) -> Self {
                    StrategySpec::$variant(spec)
                }
            }
        )*

        impl StrategySpec {
            /// Asks whichever kind this is.
            pub fn visit<V: Visit>(&self, visit: V) -> V::Out {
                match self {
                    $($(#[cfg($cfg)])? StrategySpec::$variant(spec) => visit.kind(spec),)*
                }
            }

            /// Changes whichever kind this is.
            pub fn visit_mut<V: VisitMut>(&mut self, visit: V) -> V::Out {
                match self {
                    $($(#[cfg($cfg)])? StrategySpec::$variant(spec) => visit.kind(spec),)*
                }
            }

            /// The spec of the kind named `name` from its parameters; None for no such kind.
            pub(crate) fn read_kind(
                name: &str,
                params: toml::Table,
            ) -> Option<Result<Self, SpecError>> {
                $(
                    $(#[cfg($cfg)])?
                    if name == <$module::$spec as Kind>::NAME {
                        return Some(<$module::$spec as Kind>::read(params).map(StrategySpec::$variant));
                    }
                )*
                None
            }

            /// The spec of a kind's own one-line form (an engine's `gtp:COMMAND`).
            pub(crate) fn read_line(text: &str) -> Option<Result<Self, SpecError>> {
                $(
                    $(#[cfg($cfg)])?
                    if let Some(read) = <$module::$spec as Kind>::from_line(text) {
                        return Some(read.map(StrategySpec::$variant));
                    }
                )*
                None
            }

            /// The scale of the evaluation this spec stands for; None when it is none.
            pub fn evaluation_scale(&self) -> Option<crate::strategy::scale::Scale> {
                match self {
                    $(
                        $(#[cfg($cfg)])?
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
                        $(#[cfg($cfg)])?
                        StrategySpec::$variant(spec) => {
                            kinds!(@with spec, then, G $(, $evaluation)?)
                        }
                    )*
                }
            }
        }
    };
    (@folder $module:ident; $($cfg:meta)?; $folder:literal) => {
        $(#[cfg($cfg)])?
        #[path = $folder]
        pub(crate) mod $module;
    };
    (@folder $module:ident; $($cfg:meta)?;) => {};
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
    Random(random::RandomSpec),
    /// `greedy`; as an evaluation, the disc count.
    Greedy(greedy::GreedySpec) evaluation "disc count",
    /// `corner-first`.
    CornerFirst(corner::CornerFirstSpec),
    /// `corner-edge`.
    CornerEdge(corner::CornerEdgeSpec),
    /// `minimum-disc`.
    MinimumDisc(minimum_disc::MinimumDiscSpec),
    /// `weighted`.
    Weighted(weighted::WeightedSpec) evaluation,
    /// `mobility`.
    Mobility(mobility::MobilitySpec) evaluation,
    /// `parity`.
    Parity(parity::ParitySpec),
    /// `stability`.
    Stability(stability::StabilitySpec) evaluation,
    /// `pattern`: the fitted 8x8 pattern evaluation.
    Pattern(pattern::PatternSpec) evaluation,
    /// `eval`: the tunable evaluation.
    Eval(eval::EvalSpec) evaluation,
    /// `alphabeta`.
    Alphabeta(alphabeta::AlphaBetaSpec),
    /// `solver`.
    Solver(solver::SolverSpec),
    /// `engine`: an external program (`gtp:COMMAND`).
    Engine(engine::EngineSpec),
    /// `mcts`: Monte-Carlo tree search.
    Mcts(mcts::MctsSpec),
    /// `python`: a Python callable, as a player or an evaluation.
    Python(python::PythonSpec) evaluation,
    /// `first-legal`: the demonstration that a new kind is its folder and this line.
    #[cfg(test)]
    FirstLegal(demo::FirstLegalSpec in "demo/mod.rs"),
}
