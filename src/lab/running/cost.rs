//! What playing costs each player: games, moves chosen, nodes searched and thinking
//! time, counted per game by the driver and written to `costs.csv` (kept apart
//! from the byte-identical results files, since time varies from run to run).

use crate::error::Result;
use crate::lab::storage::rows::{read_csv, CostRow};
use std::ops::{Add, AddAssign};
use std::path::Path;

/// The file name of a run's costs, next to `pairs.csv`.
pub const COSTS_FILE: &str = crate::lab::FolderFile::Costs.name();

/// One player's cost over some games. Only moves the strategy was asked for count:
/// a position with a single legal move is played without asking, so it adds nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Games played.
    pub games: u64,
    /// Moves the strategy chose.
    pub moves: u64,
    /// Nodes its searches visited (0 for strategies that do not search).
    pub nodes: u64,
    /// Nanoseconds spent choosing those moves.
    pub nanos: u64,
    /// The longest of those moves, in nanoseconds.
    pub max_nanos: u64,
    /// Whether the moves were timed (only a searching strategy's are: see
    /// [`crate::strategy::Strategy::searches`]).
    pub timed: bool,
}

impl Add for Cost {
    type Output = Cost;

    fn add(self, other: Cost) -> Cost {
        Cost {
            games: self.games + other.games,
            moves: self.moves + other.moves,
            nodes: self.nodes + other.nodes,
            nanos: self.nanos + other.nanos,
            max_nanos: self.max_nanos.max(other.max_nanos),
            timed: self.timed || other.timed,
        }
    }
}

impl AddAssign for Cost {
    fn add_assign(&mut self, other: Cost) {
        *self = *self + other;
    }
}

impl std::iter::Sum for Cost {
    fn sum<I: Iterator<Item = Cost>>(iter: I) -> Cost {
        iter.fold(Cost::default(), Add::add)
    }
}

impl Cost {
    /// Seconds spent choosing moves.
    #[must_use]
    pub fn seconds(self) -> f64 {
        self.nanos as f64 * 1e-9
    }

    /// Nodes per move chosen (None before any move).
    #[must_use]
    pub fn nodes_per_move(self) -> Option<f64> {
        (self.moves > 0).then(|| self.nodes as f64 / self.moves as f64)
    }

    /// Milliseconds per move chosen (None before any move, or when not timed).
    #[must_use]
    pub fn ms_per_move(self) -> Option<f64> {
        (self.moves > 0 && self.timed).then(|| self.seconds() * 1e3 / self.moves as f64)
    }

    /// The `costs.csv` row of player `name`.
    #[must_use]
    pub fn row(self, name: &str) -> CostRow {
        CostRow {
            player: name.to_string(),
            games: self.games,
            moves: self.moves,
            nodes: self.nodes,
            nodes_per_move: self.nodes_per_move(),
            seconds: self.timed.then(|| self.seconds()),
            ms_per_move: self.ms_per_move(),
            max_ms: self.timed.then_some(self.max_nanos as f64 * 1e-6),
        }
    }

    /// The cost a `costs.csv` row records (time to the microsecond it is written with).
    #[must_use]
    pub fn of_row(row: &CostRow) -> Cost {
        Cost {
            games: row.games,
            moves: row.moves,
            nodes: row.nodes,
            nanos: (row.seconds.unwrap_or(0.0).max(0.0) * 1e9).round() as u64,
            max_nanos: (row.max_ms.unwrap_or(0.0).max(0.0) * 1e6).round() as u64,
            timed: row.seconds.is_some(),
        }
    }
}

/// Each named player's cost as `path` records it: zero for a player it does not
/// name, or for every player when there is no such file.
pub fn read_costs(path: &Path, names: &[&str]) -> Result<Vec<Cost>> {
    if !path.exists() {
        return Ok(vec![Cost::default(); names.len()]);
    }
    let rows: Vec<CostRow> = read_csv(path)?;
    Ok(names
        .iter()
        .map(|name| {
            rows.iter()
                .filter(|row| row.player == *name)
                .map(Cost::of_row)
                .sum()
        })
        .collect())
}

/// The `costs.csv` rows of `names` (in player order) with their `costs`.
#[must_use]
pub fn cost_rows(names: &[&str], costs: &[Cost]) -> Vec<CostRow> {
    names
        .iter()
        .zip(costs)
        .map(|(name, cost)| cost.row(name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::rows::csv_bytes;

    #[test]
    fn rows_read_back_and_add_up() {
        let a = Cost {
            games: 2,
            moves: 50,
            nodes: 12_345,
            nanos: 1_500_000_000,
            max_nanos: 250_000_000,
            timed: true,
        };
        let rows = cost_rows(&["a", "b"], &[a, Cost::default()]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(COSTS_FILE);
        let bytes = csv_bytes(&rows, &path).unwrap();
        assert_eq!(
            String::from_utf8(bytes.clone()).unwrap(),
            "player,games,moves,nodes,nodes_per_move,seconds,ms_per_move,max_ms\na,2,50,12345,246.9,1.500000,30.0000,250.0000\nb,0,0,0,,,,\n"
        );
        std::fs::write(&path, bytes).unwrap();
        let back = read_costs(&path, &["b", "a", "c"]).unwrap();
        assert_eq!(back, vec![Cost::default(), a, Cost::default()]);
        assert_eq!(a + a, [a, a].into_iter().sum());
        let none = read_costs(&dir.path().join("none.csv"), &["a"]).unwrap();
        assert_eq!(none, vec![Cost::default()]);
    }
}
