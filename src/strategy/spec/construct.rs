//! From a checked spec to a playing strategy for one board geometry; the errors
//! here are those that depend on the board size (square tables).

use super::StrategySpec;
use crate::board::Geometry;
use crate::game::Rules;
use crate::strategy::kind::{Boxed, Kind, Visit};
use crate::strategy::{Evaluator, SpecError, Strategy};

impl StrategySpec {
    /// The evaluation this spec stands for, when it is one.
    pub fn build_evaluator<G: Geometry>(&self) -> Result<Box<dyn Evaluator<G>>, SpecError> {
        self.with_evaluator::<G, _>(Boxed)
    }

    /// The strategy for boards of geometry `G` under `rules`. Errors name what does
    /// not fit this board size. One over a Python evaluation loses the game when a
    /// call of it fails (see `python::building`).
    pub fn build<G: Geometry>(&self, rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        struct Build<G>(Rules, std::marker::PhantomData<G>);
        impl<G: Geometry> Visit for Build<G> {
            type Out = Result<Box<dyn Strategy<G>>, SpecError>;
            fn kind<K: Kind>(self, spec: &K) -> Self::Out {
                spec.build::<G>(self.0)
            }
        }
        crate::strategy::python::building(|| {
            self.visit(Build::<G>(rules, std::marker::PhantomData))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Size6, Size8};
    use crate::strategy::spec::KINDS;

    #[test]
    fn is_evaluation_agrees_with_what_builds_an_evaluator() {
        // A Python callable builds only where it imports (tests/integration/python_worker.rs).
        for kind in KINDS.iter().filter(|k| k.name != "python") {
            let spec = crate::strategy::spec::kinds::sample(kind);
            assert_eq!(
                spec.is_evaluation(),
                spec.build_evaluator::<Size8>().is_ok(),
                "{}",
                kind.name
            );
        }
        assert_eq!(
            StrategySpec::parse("random")
                .unwrap()
                .build_evaluator::<Size8>()
                .err()
                .unwrap()
                .to_string(),
            "'random' is not an evaluation: use weighted, mobility, stability, pattern, eval, python or greedy"
        );
    }

    #[test]
    fn the_pattern_evaluation_is_for_8x8_only() {
        for spec in ["pattern", "alphabeta:depth=2,eval=pattern"] {
            let spec = StrategySpec::parse(spec).unwrap();
            assert!(spec.build::<Size8>(Rules::default()).is_ok());
            assert_eq!(
                spec.build::<Size6>(Rules::default()).err().unwrap().to_string(),
                "strategy 'pattern' is fitted for 8x8 boards, not 6x6: use weighted, mobility, stability, eval or python on this board"
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
