//! The `solver` kind: exact play from every position, practical only near the end.

use super::Solver;
use crate::board::Geometry;
use crate::game::Rules;
use crate::strategy::kind::{Depth, Kind};
use crate::strategy::param_info::{params, ParamInfo};
use crate::strategy::spec::{typed, MAX_SOLVE_EMPTIES, TABLE_BITS};
use crate::strategy::{SpecError, Strategy};

params! {
    /// Parameters of `solver`.
    pub struct SolverSpec {
        table_bits: u32 = 20, range TABLE_BITS => "log2 of the transposition table's entries (10 to 26)",
    }
}

impl Kind for SolverSpec {
    const NAME: &'static str = "solver";
    const HELP: &'static str =
        "exact endgame play: the move with the best final score (slow before ~20 empties)";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;
    const SEARCHES: bool = true;

    fn read(params: toml::Table) -> Result<Self, SpecError> {
        let spec: SolverSpec = typed(Self::NAME, params)?;
        Ok(spec)
    }

    fn scale(&self) -> Option<crate::strategy::scale::Scale> {
        Some(
            crate::strategy::scale::Scale::discs("discs", "discs of final margin, exact")
                .exact_from(u32::MAX),
        )
    }

    fn build<G: Geometry>(&self, rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        Ok(Box::new(Solver::for_play(rules, self.table_bits)))
    }

    fn check_practical(&self, empties: u32, _clocked: bool) -> Result<(), SpecError> {
        if empties > MAX_SOLVE_EMPTIES {
            return Err(SpecError::Impractical(format!(
                "strategy 'solver' solves every move exactly, and these games start with {empties} empty squares: it is practical up to about {MAX_SOLVE_EMPTIES}; use alphabeta:endgame={MAX_SOLVE_EMPTIES} (search, then solve the last {MAX_SOLVE_EMPTIES} empties) or openings that leave at most {MAX_SOLVE_EMPTIES} empties"
            )));
        }
        Ok(())
    }

    fn exact_from(&self) -> u32 {
        u32::MAX
    }

    fn depth(&self) -> Option<Depth> {
        None
    }
}
