//! `parity`: near the end, move into regions with an odd number of empties to get the last move there.

use super::kind::{take_nested, Kind};
use super::param_info::{params, ParamInfo};
use super::spec::{typed, StrategySpec};
use super::SpecError;
use super::{Context, Picked, Strategy};
use crate::board::{neighbours, Bits, Board, Geometry};
use crate::game::Rules;

/// The `endgame`s accepted: past the most empties a game can have (96 on 10x10) it
/// would mean nothing more.
const ENDGAME: std::ops::RangeInclusive<u32> = 0..=96;

params! {
    /// Parameters of `parity`.
    pub struct ParitySpec {
        endgame: u32 = 14, range ENDGAME => "empties at or below which parity applies",
        // A strategy of its own, read by `take_nested`, whose errors say they are the
        // base's.
        #[serde(skip_deserializing)]
        base: Box<StrategySpec> = Box::new(super::greedy::GreedySpec {}.into())
            => "the strategy that chooses among the candidates (and alone before the endgame)",
    }
}

impl Kind for ParitySpec {
    const NAME: &'static str = "parity";
    const HELP: &'static str =
        "in the endgame, moves into regions with an odd number of empties first";
    const PARAMS: &'static [ParamInfo] = Self::PARAMS;

    fn read(mut params: toml::Table) -> Result<Self, SpecError> {
        let base = take_nested(
            &mut params,
            Self::NAME,
            "base",
            *Self::default().base,
            false,
        )?;
        Ok(ParitySpec {
            base: Box::new(base),
            ..typed(Self::NAME, params)?
        })
    }

    fn build<G: Geometry>(&self, rules: Rules) -> Result<Box<dyn Strategy<G>>, SpecError> {
        Ok(Box::new(Parity {
            endgame: self.endgame,
            base: self.base.build::<G>(rules)?,
        }))
    }

    fn nested(&self) -> Vec<&StrategySpec> {
        vec![&self.base]
    }

    fn nested_mut(&mut self) -> Vec<&mut StrategySpec> {
        vec![&mut self.base]
    }
}

/// Parity play: with at most `endgame` empties, prefer moves into odd regions
/// (8-connected groups of empty squares); the base strategy chooses among the
/// preferred moves, and decides alone before the endgame.
pub struct Parity<G: Geometry> {
    /// Empty squares at or below which parity applies.
    pub endgame: u32,
    /// Chooses among the candidates.
    pub base: Box<dyn Strategy<G>>,
}

/// The union of the 8-connected regions of `empty` that hold an odd number of squares.
#[must_use]
pub fn odd_regions<G: Geometry>(empty: G::Bits) -> G::Bits {
    let mut rest = empty;
    let mut odd = G::Bits::ZERO;
    while !rest.is_empty() {
        let mut region = G::Bits::bit(rest.lowest());
        loop {
            let grown = (region | neighbours::<G>(region)) & empty;
            if grown == region {
                break;
            }
            region = grown;
        }
        if region.count() % 2 == 1 {
            odd |= region;
        }
        rest &= !region;
    }
    odd
}

impl<G: Geometry> Strategy<G> for Parity<G> {
    fn pick(&self, board: Board<G>, moves: G::Bits, context: &mut Context<'_, G>) -> Picked {
        let mut candidates = moves;
        if board.empty_count() <= self.endgame {
            let odd = moves & odd_regions::<G>(board.empty());
            if !odd.is_empty() {
                candidates = odd;
            }
        }
        self.base.pick(board, candidates, context)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Size8, Square};

    #[test]
    fn regions_are_8_connected() {
        let bit = |n: &str| 1u64 << Square::parse(n, 8).unwrap().index();
        // a1 alone (odd), b3+c4 touch diagonally (even), h8 h7 g8 (odd).
        let empty = bit("a1") | bit("b3") | bit("c4") | bit("h8") | bit("h7") | bit("g8");
        assert_eq!(
            odd_regions::<Size8>(empty),
            bit("a1") | bit("h8") | bit("h7") | bit("g8")
        );
    }
}
