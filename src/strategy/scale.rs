//! The scale a player's move values are shown on (`play`'s `eval`, `watch`): discs of
//! final margin wherever the values are discs, whether estimated or solved, so that a
//! game's values do not jump from an evaluation's units to the solver's discs.

use crate::strategy::{proven_margin, StrategySpec};

/// How to read a strategy's move values (see [`Scale::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale {
    /// Units of a disc where the values count discs (the pattern evaluation's 1/64,
    /// a disc count's 1); None where they do not (a square table, mobility).
    per_disc: Option<i32>,
    /// What the values count, after each value: `discs`, `square-table points`.
    unit: &'static str,
    /// What the values are, for the line that lists them.
    note: &'static str,
    /// At or below this many empty squares the values are the solver's exact final
    /// margins (0: never).
    exact_from: u32,
}

impl Scale {
    /// The scale of `spec`'s move values.
    #[must_use]
    pub fn of(spec: &StrategySpec) -> Self {
        spec.scale()
    }

    /// Values that are not discs: `unit` after each, `note` in the legend.
    #[must_use]
    pub const fn points(unit: &'static str, note: &'static str) -> Self {
        Scale {
            per_disc: None,
            unit,
            note,
            exact_from: 0,
        }
    }

    /// This scale, exact at or below `exact_from` empties (a search's endgame).
    #[must_use]
    pub const fn exact_from(self, exact_from: u32) -> Self {
        Scale { exact_from, ..self }
    }

    /// Units of a disc where the values count discs (1 for a disc count, the pattern
    /// evaluation's 64); None where they do not.
    #[must_use]
    pub const fn per_disc(&self) -> Option<i32> {
        self.per_disc
    }

    /// Values in 1/`per_disc` of a disc.
    #[must_use]
    pub const fn fractions(per_disc: i32, unit: &'static str, note: &'static str) -> Self {
        Scale {
            per_disc: Some(per_disc),
            unit,
            note,
            exact_from: 0,
        }
    }

    /// Values in discs.
    #[must_use]
    pub const fn discs(unit: &'static str, note: &'static str) -> Self {
        Scale {
            per_disc: Some(1),
            unit,
            note,
            exact_from: 0,
        }
    }

    /// What the values are, for the line that shows them: `discs of final margin,
    /// estimated; exact where a move "wins by" or "loses by"`.
    #[must_use]
    pub fn legend(&self) -> String {
        format!(
            "{}; exact where a move wins, draws or loses by a margin",
            self.note
        )
    }

    /// [`text`](Self::text) with its unit where it is not a result in words:
    /// `+3.2 discs`, `wins by 4`, `+12 square-table points`.
    #[must_use]
    pub fn said(&self, value: i32, empties: u32) -> String {
        let text = self.text(value, empties);
        if text.starts_with(['+', '-']) || text.starts_with(|c: char| c.is_ascii_digit()) {
            format!("{text} {}", self.unit)
        } else {
            text
        }
    }

    /// `value`, a move's value in a position with `empties` empty squares, on this
    /// scale: `+3.2` (discs, estimated), `wins by 4` (exact), `+12` (other units).
    #[must_use]
    pub fn text(&self, value: i32, empties: u32) -> String {
        // A search that saw the end reports WIN plus the margin; the solver the margin.
        let exact = proven_margin(value)
            .or_else(|| (empties <= self.exact_from && self.exact_from > 0).then_some(value));
        match (exact, self.per_disc) {
            (Some(margin), _) if margin > 0 => format!("wins by {margin}"),
            (Some(margin), _) if margin < 0 => format!("loses by {}", -margin),
            (Some(_), _) => "draws".to_string(),
            (None, Some(1) | None) => format!("{value:+}"),
            (None, Some(per_disc)) => {
                crate::numbers::signed(f64::from(value) / f64::from(per_disc), 1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::WIN;

    fn scale(spec: &str) -> Scale {
        Scale::of(&StrategySpec::parse(spec).unwrap())
    }

    #[test]
    fn estimates_and_solved_margins_are_both_in_discs() {
        let pattern = scale("alphabeta:eval=pattern,depth=2,endgame=10");
        // 4413/64 discs in the midgame, the solver's +54 at 10 empties: one scale.
        assert_eq!(pattern.text(4413, 20), "+69.0");
        assert_eq!(pattern.text(54, 10), "wins by 54");
        assert_eq!(pattern.text(-6, 9), "loses by 6");
        assert_eq!(pattern.text(0, 9), "draws");
        assert_eq!(pattern.text(WIN + 42, 30), "wins by 42");
        assert_eq!(pattern.text(-32, 30), "-0.5");
        assert!(pattern.legend().starts_with("discs of final margin"));
        assert_eq!(scale("solver").text(-2, 14), "loses by 2");
        assert_eq!(scale("pattern").text(128, 40), "+2.0");
        assert_eq!(scale("greedy").text(4, 40), "+4");
        assert_eq!(pattern.said(4413, 20), "+69.0 discs");
        assert_eq!(pattern.said(54, 10), "wins by 54");
    }

    #[test]
    fn other_units_say_they_are_not_discs() {
        let weighted = scale("alphabeta:depth=4,endgame=12");
        assert_eq!(weighted.text(37, 30), "+37");
        assert_eq!(weighted.text(37, 12), "wins by 37");
        assert!(
            weighted.legend().contains("not discs"),
            "{}",
            weighted.legend()
        );
        assert_eq!(weighted.said(-3, 30), "-3 square-table points");
        assert!(scale("mobility").legend().contains("not discs"));
        // A timed search solves no deeper than MAX_SOLVE_EMPTIES.
        let timed = scale("alphabeta:time=200ms,endgame=30");
        assert_eq!(timed.text(12, 23), "+12");
        assert_eq!(timed.text(12, 22), "wins by 12");
    }
}
