//! The `mcts` kind: its parameters with their ranges and checks, and the player it builds.

use super::leaf::{Leaf, Rollout};
use super::search::{Final, Objective, Settings};
use super::Mcts;
use crate::board::Geometry;
use crate::game::Rules;
use crate::strategy::kind::{take_nested, Kind};
use crate::strategy::param_info::{params, ParamInfo};
use crate::strategy::spec::{typed, StrategySpec};
use crate::strategy::{SpecError, Strategy};
use std::ops::RangeInclusive;
use std::time::Duration;

/// The iterations a move gets when no budget is written: cheap enough for a test game
/// on 10x10, a few games a second on 8x8.
pub const DEFAULT_ITERATIONS: u64 = 1000;
/// The most iterations (or tree nodes) a move may be given: far past what an hour buys.
pub const MAX_ITERATIONS: u64 = 1_000_000_000;
/// The deepest `solve` accepted: each leaf with that many empties is solved exactly,
/// and a solve of 20 empties takes a tenth of a second.
pub const SOLVE: RangeInclusive<u32> = 0..=20;
/// The `rave` reference counts accepted (0: off).
pub const RAVE: RangeInclusive<u32> = 0..=1_000_000;
/// GRAVE's bias when none is written: Ludii's and Cazenave's order of magnitude.
pub const RAVE_BIAS: f64 = 1e-6;
/// The evaluation difference that is one logistic unit when none is written.
pub const SCALE: f64 = 640.0;
/// The playout's weight in a leaf's value beside an evaluation when none is written.
pub const MIX: f64 = 0.5;
/// The prior softmax's temperature when none is written.
pub const TEMPERATURE: f64 = 1.0;

params! {
    /// Parameters of `mcts`.
    pub struct MctsSpec {
        #[serde(skip_serializing_if = "Option::is_none")]
        iterations: Option<u64> = None, range 1..=MAX_ITERATIONS
            => "iterations per move (1 to 10^9)" (default "1000 without nodes or time, else none"),
        #[serde(skip_serializing_if = "Option::is_none")]
        nodes: Option<u64> = None, range 1..=MAX_ITERATIONS
            => "tree nodes per move: stop once the tree holds this many" (default "none"),
        #[serde(
            skip_serializing_if = "Option::is_none",
            serialize_with = "crate::strategy::clock::time_text",
            deserialize_with = "crate::strategy::clock::time_of_text"
        )]
        time: Option<Duration> = None
            => "time budget per move (\"100ms\", \"2s\")" (default "none"),
        c: f64 = 1.0
            => "exploration constant of UCB1, or of PUCT with a prior (0 to 100)",
        objective: String = "win".to_string()
            => "what a finished game is worth: win (1, 0.5, 0) or margin (the final margin under the rules, scaled to 0..1)",
        #[serde(skip_serializing_if = "Option::is_none", skip_deserializing)]
        rollout: Option<Box<StrategySpec>> = None
            => "the playout policy to the end of the game: random, or any strategy spec such as greedy" (default "random (none with value)"),
        epsilon: f64 = 0.0
            => "share of playout moves made at random instead of by the rollout policy (0 to 1)",
        #[serde(skip_serializing_if = "Option::is_none", skip_deserializing)]
        value: Option<Box<StrategySpec>> = None
            => "value leaves by this evaluation instead of a playout (with rollout too: the mean of both)" (default "none"),
        scale: f64 = SCALE
            => "the evaluation difference that is one logistic unit of expected result (pattern: 64 a disc)",
        #[serde(skip_serializing_if = "Option::is_none", skip_deserializing)]
        prior: Option<Box<StrategySpec>> = None
            => "PUCT: priors from this evaluation, a softmax over the moves' standardised values" (default "none: UCB1"),
        temperature: f64 = TEMPERATURE
            => "the prior softmax's temperature, in standard deviations of the moves' values",
        bias: f64 = 0.0
            => "progressive bias: with a prior, UCB1 plus this weight times the move's prior over (visits + 1) instead of PUCT (0 to 100; 0: off)",
        mix: f64 = MIX
            => "with both rollout and value: the playout result's weight in a leaf's value, the evaluation's being 1 - mix (0 to 1)",
        rave: u32 = 0, range RAVE
            => "GRAVE: all-moves-as-first values from the nearest node above with at least this many visits, the reference count (1: plain RAVE; 0: off)",
        rave_bias: f64 = RAVE_BIAS
            => "GRAVE's bias b: a move's all-moves-as-first weight is a / (a + n + b a n) for a such and n own visits (0 to 1)",
        solve: u32 = 0, range SOLVE
            => "MCTS-Solver: solve leaves with at most this many empties exactly, and back proven values up (0: only finished games)",
        final_move: String = "visits".to_string()
            => "the move played: visits (the most visited, robust child) or value (the best mean)",
        reuse: bool = false
            => "keep the tree between a game's moves: the next search starts from the subtree after the opponent's reply",
    }
}

/// A float parameter's range check, worded as the other ranges are.
fn in_float_range(param: &str, value: f64, low: f64, high: f64) -> Result<(), SpecError> {
    if (low..=high).contains(&value) {
        Ok(())
    } else {
        Err(SpecError::BadValue {
            kind: MctsSpec::NAME,
            message: format!("{param} = {value} is out of range: use {low} to {high}"),
        })
    }
}

impl MctsSpec {
    /// The search settings for the rules in force.
    pub(crate) fn settings(&self, rules: Rules) -> Settings {
        let budgeted = self.nodes.is_some() || self.time.is_some();
        Settings {
            iterations: self
                .iterations
                .or((!budgeted).then_some(DEFAULT_ITERATIONS)),
            nodes: self.nodes,
            time: self.time,
            c: self.c,
            objective: if self.objective == "margin" {
                Objective::Margin
            } else {
                Objective::Win
            },
            rave: self.rave,
            rave_bias: self.rave_bias,
            bias: self.bias,
            mix: self.mix,
            solve: self.solve,
            temperature: self.temperature,
            final_move: if self.final_move == "value" {
                Final::Value
            } else {
                Final::Visits
            },
            rules,
            reuse: self.reuse,
        }
    }

    /// The player for boards of geometry `G` under `rules`.
    pub fn player<G: Geometry>(&self, rules: Rules) -> Result<Mcts<G>, SpecError> {
        let rollout = match self.rollout_policy() {
            None => None,
            Some(spec) => {
                let policy = spec.build::<G>(rules)?;
                Some(if policy.uniform_random() {
                    Rollout::Random
                } else {
                    Rollout::Policy {
                        policy,
                        epsilon: self.epsilon,
                    }
                })
            }
        };
        let evaluator = |spec: &Option<Box<StrategySpec>>| match spec {
            Some(spec) => spec.build_evaluator::<G>().map(Some),
            None => Ok(None),
        };
        let leaf = Leaf {
            rollout,
            value: evaluator(&self.value)?,
            scale: self.scale,
        };
        Ok(Mcts {
            settings: self.settings(rules),
            leaf,
            prior: evaluator(&self.prior)?,
        })
    }

    /// The playout policy, if leaves get playouts: `rollout`, else random without `value`.
    fn rollout_policy(&self) -> Option<StrategySpec> {
        match (&self.rollout, &self.value) {
            (Some(policy), _) => Some((**policy).clone()),
            (None, None) => Some(crate::strategy::spec::RandomSpec {}.into()),
            (None, Some(_)) => None,
        }
    }
}

/// Refuses a playout policy that searches at each move (a tree, a solve, an engine):
/// a playout asks it for every move to the end of the game, thousands of playouts a
/// move, so one game would take hours with nothing said.
fn refuse_searching_rollout(policy: &StrategySpec) -> Result<(), SpecError> {
    if !policy.searches() {
        return Ok(());
    }
    let mut searching = policy.kind();
    policy.any(&mut |spec| {
        let found = spec.info().searches;
        if found {
            searching = spec.kind();
        }
        found
    });
    let what = if searching == policy.kind() {
        format!("rollout = {searching} searches")
    } else {
        format!(
            "rollout = {} holds {searching}, which searches",
            policy.kind()
        )
    };
    let cheap: Vec<&str> = crate::strategy::spec::KINDS
        .iter()
        .filter(|kind| !kind.searches)
        .map(|kind| kind.name)
        .collect();
    Err(SpecError::BadValue {
        kind: MctsSpec::NAME,
        message: format!(
            "{what} at every playout move, which would take hours: use a cheap strategy ({})",
            cheap.join(", ")
        ),
    })
}

impl MctsSpec {
    /// Refuses a parameter written away from its default that does nothing without a
    /// partner (`bias` without `prior`, ...), naming the partner to add: a setting that
    /// silently does nothing would make a sweep or a study measure noise.
    fn refuse_inert(&self) -> Result<(), SpecError> {
        let playouts = self.rollout_policy().is_some();
        let missing = if self.bias > 0.0 && self.prior.is_none() {
            Some((
                "bias",
                self.bias,
                "the moves' priors: add prior = (EVAL), such as prior = (pattern)",
            ))
        } else if self.temperature != TEMPERATURE && self.prior.is_none() {
            Some((
                "temperature",
                self.temperature,
                "the moves' priors: add prior = (EVAL), such as prior = (pattern)",
            ))
        } else if self.mix != MIX && self.value.is_none() {
            Some(("mix", self.mix, "an evaluation to weigh the playouts against: add value = (EVAL), such as value = (pattern)"))
        } else if self.mix != MIX && !playouts {
            Some(("mix", self.mix, "playouts to weigh against the evaluation: add rollout = random (or a policy such as greedy)"))
        } else if self.epsilon > 0.0 && self.rollout.as_ref().is_none_or(|r| r.kind() == "random") {
            Some((
                "epsilon",
                self.epsilon,
                "a playout policy to stray from: add rollout = STRATEGY, such as rollout = greedy",
            ))
        } else if self.scale != SCALE && self.value.is_none() {
            Some((
                "scale",
                self.scale,
                "an evaluation to scale: add value = (EVAL), such as value = (pattern)",
            ))
        } else if self.rave_bias != RAVE_BIAS && self.rave == 0 {
            Some((
                "rave_bias",
                self.rave_bias,
                "GRAVE: add rave = K, the reference count, such as rave = 100",
            ))
        } else {
            None
        };
        match missing {
            Some((param, value, needs)) => Err(SpecError::BadValue {
                kind: Self::NAME,
                message: format!("{param} = {value} needs {needs}"),
            }),
            None => Ok(()),
        }
    }
}

impl Kind for MctsSpec {
    const NAME: &'static str = "mcts";
    const HELP: &'static str = "Monte-Carlo tree search: UCT or PUCT, playouts or evaluated leaves, RAVE, proven values (MCTS-Solver)";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;
    const SEARCHES: bool = true;

    fn read(mut params: toml::Table) -> Result<Self, SpecError> {
        let kind = Self::NAME;
        // Each nested strategy is optional: taken only when written.
        let mut nested = |key, evaluation| -> Result<_, SpecError> {
            if !params.contains_key(key) {
                return Ok(None);
            }
            let placeholder = StrategySpec::from(crate::strategy::spec::RandomSpec {});
            let spec = take_nested(&mut params, kind, key, placeholder, evaluation)?;
            Ok(Some(Box::new(spec)))
        };
        let rollout = nested("rollout", false)?;
        if let Some(policy) = rollout.as_deref() {
            refuse_searching_rollout(policy)?;
        }
        let value = nested("value", true)?;
        let prior = nested("prior", true)?;
        let mut spec: MctsSpec = typed(kind, params)?;
        spec.rollout = rollout;
        spec.value = value;
        spec.prior = prior;
        in_float_range("c", spec.c, 0.0, 100.0)?;
        in_float_range("epsilon", spec.epsilon, 0.0, 1.0)?;
        in_float_range("scale", spec.scale, 1e-6, 1e9)?;
        in_float_range("temperature", spec.temperature, 1e-3, 1e3)?;
        in_float_range("bias", spec.bias, 0.0, 100.0)?;
        in_float_range("mix", spec.mix, 0.0, 1.0)?;
        in_float_range("rave_bias", spec.rave_bias, 0.0, 1.0)?;
        spec.refuse_inert()?;
        for (param, value, known) in [
            ("objective", &spec.objective, ["win", "margin"]),
            ("final_move", &spec.final_move, ["visits", "value"]),
        ] {
            if !known.contains(&value.as_str()) {
                return Err(SpecError::BadValue {
                    kind,
                    message: format!(
                        "{param} = {value} is not known: use {} or {}",
                        known[0], known[1]
                    ),
                });
            }
        }
        Ok(spec)
    }

    fn build<G: Geometry>(&self, rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        Ok(Box::new(self.player::<G>(rules)?))
    }

    fn nested(&self) -> Vec<&StrategySpec> {
        let mut nested: Vec<&StrategySpec> = self.rollout.as_deref().into_iter().collect();
        nested.extend(self.value.as_deref());
        nested.extend(self.prior.as_deref());
        nested
    }

    fn nested_mut(&mut self) -> Vec<&mut StrategySpec> {
        let mut nested: Vec<&mut StrategySpec> = self.rollout.as_deref_mut().into_iter().collect();
        nested.extend(self.value.as_deref_mut());
        nested.extend(self.prior.as_deref_mut());
        nested
    }

    fn timed(&self) -> bool {
        self.time.is_some()
    }

    fn scale(&self) -> Option<crate::strategy::scale::Scale> {
        // What 1000 means follows the objective: a won game, or the largest margin.
        let note = if self.objective == "margin" {
            "each move's mean result for the mover, in thousandths (1000: the largest margin, 500: even)"
        } else {
            "each move's mean result for the mover, in thousandths (1000: a sure win, 500: even)"
        };
        // At `solve` empties or fewer the root is solved: its values are margins.
        Some(crate::strategy::scale::Scale::points("thousandths", note).exact_from(self.solve))
    }

    fn exact_from(&self) -> u32 {
        self.solve
    }
}
