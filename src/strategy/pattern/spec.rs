//! The `pattern` kind: its parameter (a weights file) and its evaluation, each file's
//! weights read once per process.

use super::{PatternEval, Weights};
use crate::board::Geometry;
use crate::game::Rules;
use crate::strategy::kind::{one_ply, Evaluation, Kind};
use crate::strategy::param_info::{params, ParamInfo};
use crate::strategy::spec::typed;
use crate::strategy::{Evaluator, SpecError, Strategy};
use std::path::PathBuf;

params! {
    /// Parameters of `pattern`.
    pub struct PatternSpec {
        #[serde(skip_serializing_if = "Option::is_none")]
        weights: Option<std::path::PathBuf> = None
            => "a weights file fit-patterns wrote (from the working folder; in a config file, from its folder)" (default "the shipped weights"),
    }
}

impl Kind for PatternSpec {
    const NAME: &'static str = "pattern";
    const HELP: &'static str = "the fitted 8x8 pattern evaluation (the shipped weights, which the solver orders by too, or weights=FILE): the estimated final margin after the move";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        typed(Self::NAME, params)
    }

    fn build<G: Geometry>(&self, _rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        one_ply(self)
    }

    fn paths(&mut self) -> Vec<&mut PathBuf> {
        self.weights.iter_mut().collect()
    }
}

impl Evaluation for PatternSpec {
    fn value_scale(&self) -> crate::strategy::scale::Scale {
        crate::strategy::scale::Scale::fractions(
            super::SCALE,
            "discs",
            "discs of final margin, estimated",
        )
    }

    fn evaluator<G: Geometry>(&self) -> Result<impl Evaluator<G> + 'static, SpecError> {
        pattern_eval::<G>(self)
    }
}

/// The pattern evaluation `spec` names: the shipped weights, or a file's, each file
/// read once per process (every game and thread shares its weights).
fn pattern_eval<G: Geometry>(spec: &PatternSpec) -> Result<PatternEval, SpecError> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static READ: OnceLock<Mutex<HashMap<PathBuf, &'static Weights>>> = OnceLock::new();
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
