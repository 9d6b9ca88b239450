//! From a checked spec to a playing strategy for one board geometry; the errors
//! here are those that depend on the board size (square tables).

use super::{AlphaBetaSpec, EvalSpec, PatternSpec, SquaresSpec, StrategySpec};
use crate::board::Geometry;
use crate::game::Rules;
use crate::strategy::pattern::{PatternEval, Weights};
use crate::strategy::{
    AlphaBeta, CornerEdge, CornerFirst, DiscEval, Evaluator, Feature, FeatureEval, Greedy,
    MinimumDisc, MobilityEval, OnePly, Parity, RandomMove, Solver, SpecError, StabilityEval,
    Strategy, WeightedEval,
};

/// What to make of an evaluation once its concrete type is known. Exists so that
/// one match maps eval specs to evaluators, while searches can still be
/// monomorphised over theirs (measured: about 10% faster than calling a boxed
/// evaluation at every leaf).
trait WithEvaluator<G: Geometry> {
    type Output;
    fn with<E: Evaluator<G> + 'static>(self, eval: E) -> Self::Output;
}

struct Boxed;

impl<G: Geometry> WithEvaluator<G> for Boxed {
    type Output = Box<dyn Evaluator<G>>;
    fn with<E: Evaluator<G> + 'static>(self, eval: E) -> Self::Output {
        Box::new(eval)
    }
}

struct OnePlyOver;

impl<G: Geometry> WithEvaluator<G> for OnePlyOver {
    type Output = Box<dyn Strategy<G>>;
    fn with<E: Evaluator<G> + 'static>(self, eval: E) -> Self::Output {
        Box::new(OnePly { eval })
    }
}

struct SearchOver<'a> {
    spec: &'a AlphaBetaSpec,
    rules: Rules,
}

impl<G: Geometry> WithEvaluator<G> for SearchOver<'_> {
    type Output = Box<dyn Strategy<G>>;
    fn with<E: Evaluator<G> + 'static>(self, eval: E) -> Self::Output {
        let spec = self.spec;
        Box::new(AlphaBeta {
            depth: spec.depth,
            eval,
            endgame: spec.endgame,
            nodes: spec.nodes,
            time: spec.time,
            probcut: spec.probcut_confidence(),
            table: spec.table,
            ordering: spec.ordering,
            table_bits: spec.table_bits,
            rules: self.rules,
            geometry: std::marker::PhantomData,
        })
    }
}

/// The pattern evaluation `spec` names: the shipped weights, or a file's, each file
/// read once per process (every game and thread shares its weights).
fn pattern_eval<G: Geometry>(spec: &PatternSpec) -> Result<PatternEval, SpecError> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static READ: OnceLock<Mutex<HashMap<std::path::PathBuf, &'static Weights>>> = OnceLock::new();
    let shipped = PatternEval::for_board::<G>().ok_or(SpecError::PatternSize { size: G::SIZE })?;
    let Some(path) = &spec.weights else {
        return Ok(shipped);
    };
    let mut read = READ
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(weights) = read.get(path) {
        return Ok(PatternEval::with(weights));
    }
    let bad = |reason: String| SpecError::PatternWeights {
        path: path.display().to_string(),
        reason,
    };
    let bytes = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
    let weights = Weights::decode(&bytes).map_err(|e| bad(e.to_string()))?;
    let weights: &'static Weights = Box::leak(Box::new(weights));
    read.insert(path.clone(), weights);
    Ok(PatternEval::with(weights))
}

impl StrategySpec {
    /// Hands the evaluation this spec stands for to `then`. The only place that
    /// knows which kinds are evaluations besides [`StrategySpec::is_evaluation`],
    /// which a test keeps in agreement with it.
    fn with_evaluator<G: Geometry, W: WithEvaluator<G>>(
        &self,
        then: W,
    ) -> Result<W::Output, SpecError> {
        Ok(match self {
            StrategySpec::Weighted(spec) => then.with(spec.build(G::SIZE)?),
            StrategySpec::Mobility(spec) => then.with(MobilityEval {
                normalised: spec.normalised,
                potential: spec.potential,
                frontier: spec.frontier,
            }),
            StrategySpec::Stability => then.with(StabilityEval),
            StrategySpec::Pattern(spec) => then.with(pattern_eval::<G>(spec)?),
            StrategySpec::Greedy => then.with(DiscEval),
            StrategySpec::Eval(spec) => then.with(feature_eval(spec, G::SIZE)?),
            other => return Err(SpecError::NotAnEvaluation { kind: other.kind() }),
        })
    }

    /// The evaluation this spec stands for, when it is one.
    pub fn build_evaluator<G: Geometry>(&self) -> Result<Box<dyn Evaluator<G>>, SpecError> {
        self.with_evaluator::<G, _>(Boxed)
    }

    /// The strategy for boards of geometry `G` under `rules`. Errors name what
    /// does not fit this board size.
    pub fn build<G: Geometry>(&self, rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        Ok(match self {
            StrategySpec::Random => Box::new(RandomMove),
            // `greedy` as an evaluation is the disc count; as a player it has its own rule.
            StrategySpec::Greedy => Box::new(Greedy),
            StrategySpec::CornerFirst => Box::new(CornerFirst),
            StrategySpec::CornerEdge => Box::new(CornerEdge),
            StrategySpec::MinimumDisc(spec) => Box::new(MinimumDisc {
                endgame: spec.endgame,
            }),
            StrategySpec::Weighted(_)
            | StrategySpec::Mobility(_)
            | StrategySpec::Stability
            | StrategySpec::Pattern(_)
            | StrategySpec::Eval(_) => self.with_evaluator::<G, _>(OnePlyOver)?,
            StrategySpec::Parity(spec) => Box::new(Parity {
                endgame: spec.endgame,
                base: spec.base.build::<G>(rules)?,
            }),
            StrategySpec::Alphabeta(spec) => spec
                .eval
                .with_evaluator::<G, _>(SearchOver { spec, rules })?,
            StrategySpec::Solver(spec) => Box::new(Solver::for_play(rules, spec.table_bits)),
            StrategySpec::Engine(spec) => {
                Box::new(crate::strategy::engine::Engine::new(spec, G::SIZE, rules)?)
            }
        })
    }
}

fn feature_eval(spec: &EvalSpec, size: u32) -> Result<FeatureEval, SpecError> {
    // Without the `squares` feature the table is never read, so a table that does
    // not fit this board (say the 8x8 default on 6x6) must not fail the build.
    let table = if spec.weights[Feature::Squares] != 0.0 || spec.squares != SquaresSpec::default() {
        spec.squares.table(size)?
    } else {
        vec![0; (size * size) as usize]
    };
    Ok(FeatureEval {
        weights: spec.weights,
        squares: WeightedEval::new(table, false),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Size6, Size8};
    use crate::strategy::spec::KINDS;

    #[test]
    fn is_evaluation_agrees_with_what_builds_an_evaluator() {
        for kind in KINDS {
            let spec = crate::strategy::spec::kinds::sample(kind);
            assert_eq!(
                spec.is_evaluation(),
                spec.build_evaluator::<Size8>().is_ok(),
                "{}",
                kind.name
            );
        }
        assert_eq!(
            StrategySpec::Random
                .build_evaluator::<Size8>()
                .err()
                .unwrap()
                .to_string(),
            "'random' is not an evaluation: use weighted, mobility, stability, pattern, eval or greedy"
        );
    }

    #[test]
    fn the_pattern_evaluation_is_for_8x8_only() {
        for spec in ["pattern", "alphabeta:depth=2,eval=pattern"] {
            let spec = StrategySpec::parse(spec).unwrap();
            assert!(spec.build::<Size8>(Rules::default()).is_ok());
            assert_eq!(
                spec.build::<Size6>(Rules::default()).err().unwrap().to_string(),
                "strategy 'pattern' is fitted for 8x8 boards, not 6x6: use weighted, mobility, stability or eval on this board"
            );
        }
    }

    #[test]
    fn an_unused_square_table_need_not_fit_the_board() {
        let spec = StrategySpec::parse("eval").unwrap();
        assert!(spec.build::<Size6>(Rules::default()).is_ok());
        let spec = StrategySpec::parse("eval:squares=1").unwrap();
        assert!(spec.build::<Size6>(Rules::default()).is_ok());
        let spec = StrategySpec::parse("eval:squares=1,preset=paip").unwrap();
        assert!(matches!(
            spec.build::<Size6>(Rules::default()),
            Err(SpecError::PresetSize {
                name: "paip",
                size: 6
            })
        ));
    }
}
