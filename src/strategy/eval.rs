//! `eval`: the tunable evaluation, a weighted sum of named features from the side to move's view.

use super::mobility::{frontier, potential_mobility};
use super::{Evaluator, WeightedEval};
use crate::board::{neighbours, stable_discs, Bits, Board, Geometry};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::ops::{Index, IndexMut};

use super::kind::{one_ply, Evaluation, Kind};
use super::param_info::{concat, ParamInfo};
use super::spec::{typed, SquaresSpec, MAX_EVAL_WEIGHT};
use super::{SpecError, Strategy};
use crate::game::Rules;
use toml::{Table, Value};

/// Parameters of `eval`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EvalSpec {
    /// The feature weights.
    #[serde(flatten)]
    pub weights: EvalWeights,
    /// The square table of the `squares` feature.
    #[serde(flatten)]
    pub squares: SquaresSpec,
}

const fn param(name: &'static str, help: &'static str) -> ParamInfo {
    ParamInfo {
        name,
        help,
        default_text: None,
        shape: <f64 as crate::strategy::param_info::Shaped>::SHAPE,
        range: None,
    }
}

/// `eval`'s parameters: a weight per feature, named and described by the
/// feature list itself, then its square table's.
const EVAL_PARAMS: [ParamInfo; FEATURE_COUNT + SquaresSpec::PARAMS.len()] = {
    let mut features = [param("", ""); FEATURE_COUNT];
    let mut i = 0;
    while i < FEATURE_COUNT {
        features[i] = param(Feature::ALL[i].name(), Feature::ALL[i].help());
        i += 1;
    }
    concat(&[&features, SquaresSpec::PARAMS])
};

impl Kind for EvalSpec {
    const NAME: &'static str = "eval";
    const HELP: &'static str =
        "the tunable evaluation: a weighted sum of named features, one ply deep";
    const PARAMS: &'static [ParamInfo] = &EVAL_PARAMS;

    fn read(mut params: Table) -> Result<Self, SpecError> {
        let kind = Self::NAME;
        let mut squares_table = Table::new();
        for param in SquaresSpec::PARAMS {
            if let Some(v) = params.remove(param.name) {
                squares_table.insert(param.name.to_string(), v);
            }
        }
        for (_, value) in params.iter_mut() {
            // Let users write integer weights.
            if let Value::Integer(i) = *value {
                *value = Value::Float(i as f64);
            }
        }
        let weights: EvalWeights = typed(kind, params.clone())?;
        // A stated range: past it a weight's products run into the clamp of the
        // evaluation's scale and every position looks alike.
        for (name, value) in &params {
            if let Some(w) = value.as_float().filter(|w| w.abs() > MAX_EVAL_WEIGHT) {
                return Err(SpecError::BadValue {
                    kind,
                    message: format!(
                        "{name} = {w:e} is out of range: weights go from -{MAX_EVAL_WEIGHT:e} to {MAX_EVAL_WEIGHT:e}"
                    ),
                });
            }
        }
        Ok(EvalSpec {
            weights,
            squares: typed(kind, squares_table)?,
        })
    }

    fn build<G: Geometry>(&self, _rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        one_ply(self)
    }
}

impl Evaluation for EvalSpec {
    fn value_scale(&self) -> crate::strategy::scale::Scale {
        crate::strategy::scale::Scale::points(
            "eval points",
            "eval points (hundredths of a weight), not discs",
        )
    }

    fn evaluator<G: Geometry>(&self) -> Result<impl Evaluator<G> + 'static, SpecError> {
        // Without the `squares` feature the table is never read, so a table that does
        // not fit this board (say the 8x8 default on 6x6) must not fail the build.
        let table =
            if self.weights[Feature::Squares] != 0.0 || self.squares != SquaresSpec::default() {
                self.squares.table(G::SIZE)?
            } else {
                vec![0; (G::SIZE * G::SIZE) as usize]
            };
        Ok(FeatureEval {
            weights: self.weights,
            squares: WeightedEval::new(table, false),
        })
    }
}

/// Declares the features once: the enum, its names, the default weights and the help
/// that `reversi-lab strategies` prints all come from this one list.
macro_rules! features {
    ($($(#[$doc:meta])* $variant:ident = $name:literal, $default:literal, $help:literal;)*) => {
        /// A feature of the evaluation. Each is own minus opponent's unless said otherwise.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Feature {
            $($(#[$doc])* $variant,)*
        }

        impl Feature {
            /// Every feature, in the order of files, listings and sums.
            pub const ALL: [Feature; FEATURE_COUNT] = [$(Feature::$variant),*];
            /// Their names, in [`Feature::ALL`] order (serde wants a static list).
            pub const NAMES: [&'static str; FEATURE_COUNT] = [$($name),*];

            /// The name users write.
            #[must_use]
            pub const fn name(self) -> &'static str {
                Self::NAMES[self as usize]
            }

            /// What the feature counts, for `reversi-lab strategies`.
            #[must_use]
            pub const fn help(self) -> &'static str {
                match self {
                    $(Feature::$variant => $help,)*
                }
            }
        }

        impl Default for Features<f64> {
            fn default() -> Self {
                Features([$($default),*])
            }
        }
    };
}

/// How many features there are.
pub const FEATURE_COUNT: usize = 10;

features! {
    /// Discs.
    Discs = "discs", 0.0, "weight: discs, own minus opponent's";
    /// Legal moves.
    Mobility = "mobility", 8.0, "weight: legal moves";
    /// Empty squares next to the other side's discs.
    PotentialMobility = "potential_mobility", 2.0, "weight: empties next to the other side's discs";
    /// Discs next to an empty square (a weight below 0 penalises them).
    Frontier = "frontier", -3.0, "weight: discs next to an empty square";
    /// Corners held.
    Corners = "corners", 30.0, "weight: corners held";
    /// X-squares held next to an empty corner.
    XSquares = "x_squares", -15.0, "weight: X-squares held next to an empty corner";
    /// C-squares held next to an empty corner.
    CSquares = "c_squares", -6.0, "weight: C-squares held next to an empty corner";
    /// Stable discs.
    Stable = "stable", 6.0, "weight: stable discs";
    /// +1 when the number of empties is odd (the side to move would get the last move), else -1.
    Parity = "parity", 2.0, "weight: +1 if the empties are odd, else -1";
    /// The square-weight sum (the `weighted` evaluation with the chosen table).
    Squares = "squares", 0.0, "weight: square-table sum (table from `preset`, `classes` or `table`)";
}

impl Feature {
    /// The feature of that name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// One `T` per feature, indexed by [`Feature`]: a plain array, so it stays `Copy`
/// and costs nothing on the search's hot path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features<T>(pub [T; FEATURE_COUNT]);

impl<T> Index<Feature> for Features<T> {
    type Output = T;
    fn index(&self, feature: Feature) -> &T {
        &self.0[feature as usize]
    }
}

impl<T> IndexMut<Feature> for Features<T> {
    fn index_mut(&mut self, feature: Feature) -> &mut T {
        &mut self.0[feature as usize]
    }
}

impl<T: Copy> Features<T> {
    /// Every feature with its value, in [`Feature::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Feature, T)> + '_ {
        Feature::ALL.into_iter().zip(self.0.iter().copied())
    }

    /// The same value for every feature.
    #[must_use]
    pub const fn splat(value: T) -> Self {
        Features([value; FEATURE_COUNT])
    }
}

/// One weight per feature.
pub type EvalWeights = Features<f64>;

impl EvalWeights {
    /// The weight of a feature by name.
    #[must_use]
    pub fn get(&self, feature: &str) -> Option<f64> {
        Feature::from_name(feature).map(|f| self[f])
    }

    /// Sets the weight of a feature by name; false if there is no such feature.
    pub fn set(&mut self, feature: &str, value: f64) -> bool {
        match Feature::from_name(feature) {
            Some(f) => {
                self[f] = value;
                true
            }
            None => false,
        }
    }
}

/// As a struct of one field per feature would: `name = weight`, in feature order.
impl Serialize for EvalWeights {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(FEATURE_COUNT))?;
        for (feature, weight) in self.iter() {
            map.serialize_entry(feature.name(), &weight)?;
        }
        map.end()
    }
}

/// As `#[serde(deny_unknown_fields, default)]` on a struct would: a missing feature
/// keeps its default weight, an unknown name is refused with the list of names.
impl<'de> Deserialize<'de> for EvalWeights {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Weights;
        impl<'de> Visitor<'de> for Weights {
            type Value = EvalWeights;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("struct EvalWeights")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<EvalWeights, A::Error> {
                let mut weights = EvalWeights::default();
                while let Some(key) = map.next_key::<String>()? {
                    let feature = Feature::from_name(&key)
                        .ok_or_else(|| serde::de::Error::unknown_field(&key, &Feature::NAMES))?;
                    weights[feature] = map.next_value()?;
                }
                Ok(weights)
            }
        }
        deserializer.deserialize_struct("EvalWeights", &Feature::NAMES, Weights)
    }
}

/// The feature evaluation. Values are in hundredths of a weight unit, rounded.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureEval {
    /// The feature weights.
    pub weights: EvalWeights,
    /// The square table for the `squares` feature.
    pub squares: WeightedEval,
}

/// The features of `board` from `board.player`'s point of view; features whose
/// weight is zero are skipped (left 0) to save time.
#[must_use]
pub fn features<G: Geometry>(
    board: Board<G>,
    weights: &EvalWeights,
    squares: &WeightedEval,
) -> Features<i32> {
    use Feature as F;
    let w = weights;
    let mut f = Features::splat(0i32);
    let diff = |a: G::Bits, b: G::Bits| a.count() as i32 - b.count() as i32;
    let other = board.pass();
    if w[F::Discs] != 0.0 {
        f[F::Discs] = diff(board.player, board.opponent);
    }
    if w[F::Mobility] != 0.0 {
        f[F::Mobility] = diff(board.moves(), other.moves());
    }
    if w[F::PotentialMobility] != 0.0 {
        f[F::PotentialMobility] =
            potential_mobility(board) as i32 - potential_mobility(other) as i32;
    }
    if w[F::Frontier] != 0.0 {
        f[F::Frontier] = frontier(board) as i32 - frontier(other) as i32;
    }
    if w[F::Corners] != 0.0 {
        f[F::Corners] = diff(board.player & G::CORNERS, board.opponent & G::CORNERS);
    }
    if w[F::XSquares] != 0.0 || w[F::CSquares] != 0.0 {
        let near_empty_corner = neighbours::<G>(G::CORNERS & board.empty());
        let x = near_empty_corner & !G::EDGES;
        let c = near_empty_corner & G::EDGES & !G::CORNERS;
        f[F::XSquares] = diff(board.player & x, board.opponent & x);
        f[F::CSquares] = diff(board.player & c, board.opponent & c);
    }
    if w[F::Stable] != 0.0 {
        let (own, theirs) = stable_discs(board);
        f[F::Stable] = diff(own, theirs);
    }
    if w[F::Parity] != 0.0 {
        f[F::Parity] = if board.empty_count() % 2 == 1 { 1 } else { -1 };
    }
    if w[F::Squares] != 0.0 {
        f[F::Squares] = squares.sum::<G>(board.player) - squares.sum::<G>(board.opponent);
    }
    f
}

impl<G: Geometry> Evaluator<G> for FeatureEval {
    fn evaluate(&self, board: Board<G>) -> i32 {
        let f = features(board, &self.weights, &self.squares);
        // In feature order, so the rounding of the sum never changes.
        let total: f64 =
            f.0.iter()
                .zip(self.weights.0)
                .map(|(&x, w)| f64::from(x) * w)
                .sum();
        let limit = f64::from(super::EVAL_LIMIT);
        (total * 100.0).round().clamp(-limit, limit) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Position, Size8, Square};
    use Feature as F;

    #[test]
    fn every_feature_has_its_own_name_slot_and_help() {
        let mut w = EvalWeights::default();
        for (i, feature) in Feature::ALL.into_iter().enumerate() {
            assert_eq!(feature as usize, i, "ALL is in declaration order");
            assert_eq!(Feature::from_name(feature.name()), Some(feature));
            assert!(feature.help().starts_with("weight: "), "{feature:?}");
            assert!(w.set(feature.name(), 100.0 + i as f64));
            assert_eq!(w.get(feature.name()), Some(100.0 + i as f64));
            assert_eq!(w[feature], 100.0 + i as f64);
        }
        assert!(!w.set("mobilty", 1.0));
        assert_eq!(Feature::from_name("mobilty"), None);
        let names: std::collections::BTreeSet<_> = Feature::NAMES.into_iter().collect();
        assert_eq!(names.len(), FEATURE_COUNT, "names differ");
    }

    #[test]
    fn weights_read_and_write_as_a_table_of_names() {
        let mut w = EvalWeights::default();
        w[F::Squares] = 1.5;
        let table = toml::Value::try_from(w).unwrap();
        let keys: Vec<&str> = table
            .as_table()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut sorted = Feature::NAMES.to_vec();
        sorted.sort_unstable();
        let mut got = keys.clone();
        got.sort_unstable();
        assert_eq!(got, sorted);
        assert_eq!(table.clone().try_into::<EvalWeights>().unwrap(), w);
        let partial: EvalWeights = toml::from_str("corners = 1.0").unwrap();
        assert_eq!(partial[F::Corners], 1.0);
        assert_eq!(partial[F::Mobility], EvalWeights::default()[F::Mobility]);
        let err = toml::from_str::<EvalWeights>("mobilty = 1.0")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("unknown field `mobilty`, expected one of `discs`, `mobility`"),
            "{err}"
        );
    }

    #[test]
    fn features_by_hand() {
        let bit = |n: &str| 1u64 << Square::parse(n, 8).unwrap().index();
        // Black (to move): a1 corner, b7 (X-square of empty a8), e4. White: d4, d5, b1 (C-square of a1, but a1 is taken).
        let black = bit("a1") | bit("b7") | bit("e4");
        let white = bit("d4") | bit("d5") | bit("b1");
        let p = Position::<Size8>::from_colors(black, white, crate::board::Color::Black);
        let all = EvalWeights::splat(1.0);
        let table = WeightedEval::new(vec![0; 64], false);
        let f = features(p.board, &all, &table);
        assert_eq!(f[F::Discs], 0, "3 discs each");
        assert_eq!(f[F::Corners], 1, "black holds a corner");
        assert_eq!(f[F::XSquares], 1, "b7 is an X-square next to empty a8");
        assert_eq!(f[F::CSquares], 0, "b1 is next to a1, which is taken");
        assert_eq!(f[F::Stable], 1, "a1 is stable");
        assert_eq!(
            f[F::Parity],
            -1,
            "58 empties: even, the opponent gets the last move"
        );
        // A zero weight skips its feature.
        let mut some = all;
        some[F::Corners] = 0.0;
        assert_eq!(features(p.board, &some, &table)[F::Corners], 0);
    }
}
