//! Square tables as users give them (a preset, square classes or every weight),
//! checked against the board size only when a strategy is built for one.

use crate::strategy::param_info::params;
use crate::strategy::weighted::{preset_table, SquareClasses};
use crate::strategy::SpecError;
use serde::{Deserialize, Serialize};

/// A square table given by its weights: flat, or as rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TableSpec {
    /// n*n weights, row 1 first.
    Flat(Vec<i32>),
    /// n rows of n weights.
    Rows(Vec<Vec<i32>>),
}

impl crate::strategy::param_info::Shaped for TableSpec {
    const SHAPE: crate::strategy::param_info::Shape = crate::strategy::param_info::Shape {
        wanted: Some("a list of n*n whole numbers, or n rows of n, for the n x n board"),
        accepts: |value| {
            let whole = |v: &toml::Value| v.as_integer().is_some_and(|i| i32::try_from(i).is_ok());
            value.as_array().is_some_and(|items| {
                items.iter().all(whole)
                    || items
                        .iter()
                        .all(|row| row.as_array().is_some_and(|row| row.iter().all(whole)))
            })
        },
        time: false,
    };
}

params! {
    /// Where a square table comes from: at most one of the three.
    pub struct SquaresSpec {
        #[serde(skip_serializing_if = "Option::is_none")]
        preset: Option<String> = None
            => "built-in table: classic, paip or explorer"
            (default "classic (8x8), classes elsewhere"),
        #[serde(skip_serializing_if = "Option::is_none")]
        classes: Option<SquareClasses> = None
            => "square-class weights for any size: { corner, c_square, x_square, edge, centre, inner }"
            (default "-"),
        #[serde(skip_serializing_if = "Option::is_none")]
        table: Option<TableSpec> = None
            => "a full table: n*n weights, or n rows of n, row 1 first"
            (default "-"),
    }
}

impl SquaresSpec {
    /// The table for a board of `size`.
    pub fn table(&self, size: u32) -> Result<Vec<i32>, SpecError> {
        let given = [
            self.preset.is_some(),
            self.classes.is_some(),
            self.table.is_some(),
        ];
        if given.iter().filter(|&&g| g).count() > 1 {
            return Err(SpecError::SeveralTables);
        }
        let cells = (size * size) as usize;
        if let Some(table) = &self.table {
            let flat: Vec<i32> = match table {
                TableSpec::Flat(v) => v.clone(),
                TableSpec::Rows(rows) => {
                    if rows.len() != size as usize || rows.iter().any(|r| r.len() != size as usize)
                    {
                        return Err(SpecError::TableRows { size });
                    }
                    rows.concat()
                }
            };
            if flat.len() != cells {
                return Err(SpecError::TableLength {
                    len: flat.len(),
                    size,
                });
            }
            return Ok(flat);
        }
        if let Some(classes) = &self.classes {
            return Ok(classes.table(size));
        }
        match &self.preset {
            Some(name) => preset_table(name, size),
            None if size == 8 => preset_table("classic", 8),
            None => Ok(SquareClasses::default().table(size)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::spec::{WeightedOptions, WeightedSpec};

    #[test]
    fn tables_fit_the_board_or_say_why_not() {
        let rows = |n: usize| TableSpec::Rows(vec![vec![1; n]; n]);
        let spec = |table| SquaresSpec {
            table: Some(table),
            ..SquaresSpec::default()
        };
        assert_eq!(spec(rows(6)).table(6).unwrap().len(), 36);
        assert_eq!(
            spec(rows(6)).table(8),
            Err(SpecError::TableRows { size: 8 })
        );
        assert_eq!(
            spec(TableSpec::Flat(vec![0; 3])).table(8),
            Err(SpecError::TableLength { len: 3, size: 8 })
        );
        let both = SquaresSpec {
            preset: Some("paip".into()),
            classes: Some(SquareClasses::default()),
            table: None,
        };
        assert_eq!(both.table(8), Err(SpecError::SeveralTables));
        assert_eq!(SquaresSpec::default().table(8), preset_table("classic", 8));
        assert_eq!(
            SquaresSpec::default().table(6).unwrap(),
            SquareClasses::default().table(6)
        );
    }

    #[test]
    fn explorer_counts_own_discs_unless_told_otherwise() {
        let explorer = |own_only| WeightedSpec {
            squares: SquaresSpec {
                preset: Some("explorer".into()),
                ..SquaresSpec::default()
            },
            options: WeightedOptions { own_only },
        };
        assert!(explorer(None).build(8).unwrap().own_only);
        assert!(!explorer(Some(false)).build(8).unwrap().own_only);
        assert!(!WeightedSpec::default().build(8).unwrap().own_only);
    }
}
