//! A sweep's values: listed, or spread over a range on a linear or log scale, and
//! how a step between two of them is measured.

use crate::strategy::spec::ParamValue;
use serde::{Deserialize, Serialize};
use std::fmt;
use toml::Value;

/// The most variants a sweep plays: a round robin of n plays n(n-1)/2 pairs.
pub const MAX_VALUES: usize = 32;

/// How a sweep's values are spaced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scale {
    /// Evenly: a step is one unit of the parameter (one ply of depth).
    #[default]
    Linear,
    /// By factors: a step is one doubling (node budgets).
    Log,
}

impl Scale {
    /// How many steps lie from `a` to `b`: units on a linear scale, doublings on a log one.
    #[must_use]
    pub fn steps(self, a: f64, b: f64) -> f64 {
        match self {
            Scale::Linear => b - a,
            Scale::Log => (b / a).log2(),
        }
    }

    /// What one step is, for tables and charts.
    #[must_use]
    pub const fn step_name(self) -> &'static str {
        match self {
            Scale::Linear => "unit",
            Scale::Log => "doubling",
        }
    }

    /// Its name in files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Scale::Linear => "linear",
            Scale::Log => "log",
        }
    }
}

/// `range = { from, to, steps }`: `steps` values from `from` to `to`, both included.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    from: f64,
    to: f64,
    steps: usize,
}

/// One value of the parameter: whole for an integer parameter (depth, nodes),
/// else a decimal (an evaluation weight).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SweepValue {
    /// A whole number.
    Whole(i64),
    /// A decimal.
    Decimal(f64),
}

impl SweepValue {
    /// The value as a number, for fits and charts.
    #[must_use]
    pub fn number(self) -> f64 {
        match self {
            SweepValue::Whole(n) => n as f64,
            SweepValue::Decimal(x) => x,
        }
    }

    /// The value as the strategy holds it: a decimal parameter takes a decimal
    /// even when written whole.
    #[must_use]
    pub fn param(self, float: bool) -> ParamValue {
        match self {
            SweepValue::Whole(n) if float => ParamValue::Decimal(n as f64),
            SweepValue::Whole(n) => ParamValue::Whole(n),
            SweepValue::Decimal(x) => ParamValue::Decimal(x),
        }
    }
}

impl fmt::Display for SweepValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SweepValue::Whole(n) => write!(f, "{n}"),
            SweepValue::Decimal(x) => f.write_str(&crate::numbers::plain(*x)),
        }
    }
}

/// Values must be at least 2, at most [`MAX_VALUES`], and strictly increasing.
fn checked(values: Vec<SweepValue>) -> Result<Vec<SweepValue>, String> {
    if values.len() < 2 {
        return Err(format!(
            "{} value(s): a sweep needs at least 2 to compare",
            values.len()
        ));
    }
    if values.len() > MAX_VALUES {
        return Err(format!(
            "{} values is more than a sweep plays: use at most {MAX_VALUES}",
            values.len()
        ));
    }
    for pair in values.windows(2) {
        if pair[1].number() <= pair[0].number() {
            return Err(format!(
                "{} after {}: list the values once each, in increasing order",
                pair[1], pair[0]
            ));
        }
    }
    Ok(values)
}

/// `values = [...]` as written: numbers only.
pub fn listed(values: &[Value]) -> Result<Vec<SweepValue>, String> {
    let values = values
        .iter()
        .map(|v| match v {
            Value::Integer(n) => Ok(SweepValue::Whole(*n)),
            Value::Float(x) if x.is_finite() => Ok(SweepValue::Decimal(*x)),
            other => Err(format!(
                "{other} is not a number: a sweep varies a numeric parameter"
            )),
        })
        .collect::<Result<Vec<_>, String>>()?;
    checked(values)
}

/// Log-scale values must all be above 0.
pub fn check_scale(values: &[SweepValue], scale: Scale) -> Result<(), String> {
    match values.iter().find(|v| v.number() <= 0.0) {
        Some(v) if scale == Scale::Log => Err(format!(
            "scale = \"log\" needs values above 0, not {v}: use scale = \"linear\", or start above 0"
        )),
        _ => Ok(()),
    }
}

impl Range {
    /// The range's values on `scale`, rounded to whole numbers unless `float`
    /// (the parameter takes decimals); decimals keep 4 significant digits.
    pub fn values(&self, scale: Scale, float: bool) -> Result<Vec<SweepValue>, String> {
        let Range { from, to, steps } = *self;
        if steps < 2 || from >= to {
            return Err(format!(
                "from = {from}, to = {to}, steps = {steps}: use from below to and at least 2 steps"
            ));
        }
        if scale == Scale::Log && from <= 0.0 {
            return Err(format!(
                "scale = \"log\" needs from above 0, not {from}: use scale = \"linear\", or start above 0"
            ));
        }
        if steps > MAX_VALUES {
            return Err(format!(
                "steps = {steps} is more values than a sweep plays: use at most {MAX_VALUES}"
            ));
        }
        let t = |i: usize| i as f64 / (steps - 1) as f64;
        let values: Vec<SweepValue> = (0..steps)
            .map(|i| match scale {
                Scale::Linear => from + (to - from) * t(i),
                Scale::Log => from * (to / from).powf(t(i)),
            })
            .map(|x| {
                if float {
                    SweepValue::Decimal(significant(x, 4))
                } else {
                    SweepValue::Whole(x.round() as i64)
                }
            })
            .collect();
        checked(values).map_err(|m| {
            format!("{m} (rounded to whole numbers, some values repeat: use fewer steps)")
        })
    }
}

/// `x` to `digits` significant digits, so names read `eval.mobility=0.3333`.
fn significant(x: f64, digits: i32) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    let scale = 10f64.powi(digits - 1 - x.abs().log10().floor() as i32);
    (x * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_spread_and_round() {
        let range = Range {
            from: 100.0,
            to: 1_000_000.0,
            steps: 5,
        };
        let values = range.values(Scale::Log, false).unwrap();
        assert_eq!(
            values,
            [100, 1000, 10_000, 100_000, 1_000_000].map(SweepValue::Whole)
        );
        let linear = Range {
            from: 0.0,
            to: 1.0,
            steps: 4,
        };
        let values = linear.values(Scale::Linear, true).unwrap();
        assert_eq!(values[1], SweepValue::Decimal(0.3333));
        assert_eq!(values[1].to_string(), "0.3333");
        let crowded = Range {
            from: 1.0,
            to: 3.0,
            steps: 5,
        };
        let err = crowded.values(Scale::Linear, false).unwrap_err();
        assert!(err.contains("use fewer steps"), "{err}");
        assert!((Scale::Log.steps(100.0, 400.0) - 2.0).abs() < 1e-12);
        assert!((Scale::Linear.steps(2.0, 5.0) - 3.0).abs() < 1e-12);
    }

    #[test]
    fn listed_values_are_numbers_in_order() {
        let ok = listed(&[Value::Integer(1), Value::Float(2.5)]).unwrap();
        assert_eq!(ok, [SweepValue::Whole(1), SweepValue::Decimal(2.5)]);
        let err = listed(&[Value::Integer(3), Value::Integer(2)]).unwrap_err();
        assert_eq!(
            err,
            "2 after 3: list the values once each, in increasing order"
        );
        assert!(listed(&[Value::Integer(1)])
            .unwrap_err()
            .contains("at least 2"));
        assert!(listed(&[Value::Integer(1), Value::String("x".into())])
            .unwrap_err()
            .contains("not a number"));
        let err =
            check_scale(&[SweepValue::Whole(0), SweepValue::Whole(4)], Scale::Log).unwrap_err();
        assert!(
            err.starts_with("scale = \"log\" needs values above 0"),
            "{err}"
        );
    }
}
