//! A report as a document: titled sections of text, tables and charts. Each kind of
//! results folder (run, ablation, tune) builds one; each format (`markdown.rs`,
//! `html.rs`) renders any of them, so the formats never disagree on content.

use replay::Replay;

mod cells;
pub mod replay;

use crate::chart::Chart;
pub use cells::{elo_interval, how_run, model_cell, percent_interval};

/// A whole report.
#[derive(Clone, Debug, Default)]
pub struct Document {
    /// The title (`Experiment report: default`).
    pub title: String,
    /// A warning shown before everything else (a partial run).
    pub warning: Option<String>,
    /// The sections, in reading order; the HTML contents list links to each.
    pub sections: Vec<Section>,
}

/// One section, with an anchor for the contents.
#[derive(Clone, Debug)]
pub struct Section {
    /// The anchor (`standings`).
    pub id: String,
    /// The heading.
    pub heading: String,
    /// What it holds.
    pub blocks: Vec<Block>,
}

impl Section {
    /// An empty section.
    #[must_use]
    pub fn new(id: &str, heading: impl Into<String>) -> Self {
        Section {
            id: id.to_string(),
            heading: heading.into(),
            blocks: Vec::new(),
        }
    }

    /// Adds a block.
    #[must_use]
    pub fn with(mut self, block: Block) -> Self {
        self.blocks.push(block);
        self
    }
}

/// A piece of a section.
#[derive(Clone, Debug)]
pub enum Block {
    /// A paragraph.
    Text(String),
    /// A heading inside the section.
    Subheading(String),
    /// A bulleted list.
    List(Vec<String>),
    /// Links (text, relative address), as a list.
    Links(Vec<(String, String)>),
    /// A table.
    Table(Table),
    /// A chart drawn into the folder's `charts/`.
    Chart(Chart),
    /// A game: its transcript, and in HTML a board to step through.
    Game(GameView),
}

/// A game as a report shows it.
#[derive(Clone, Debug)]
pub struct GameView {
    /// The element id of its viewer (`game-17`).
    pub id: String,
    /// What the game is and why it is shown.
    pub caption: String,
    /// Its `game_id` in games.csv.
    pub game: u64,
    /// The moves from the standard start.
    pub transcript: String,
    /// The game move by move.
    pub replay: Replay,
}

/// A table of text cells.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
    /// Columns shown as code (strategies).
    pub code: Vec<usize>,
}

impl Table {
    /// A table with this header and these rows.
    #[must_use]
    pub fn new(header: &[&str], rows: Vec<Vec<String>>) -> Self {
        Table {
            header: header.iter().map(ToString::to_string).collect(),
            rows,
            code: Vec::new(),
        }
    }

    /// A two-column table of names and values.
    #[must_use]
    pub fn pairs(header: [&str; 2], rows: &[(String, String)]) -> Self {
        Table::new(
            &header,
            rows.iter()
                .map(|(k, v)| vec![k.clone(), v.clone()])
                .collect(),
        )
    }

    /// Marks a column as code.
    #[must_use]
    pub fn code(mut self, column: usize) -> Self {
        self.code.push(column);
        self
    }

    /// Which columns hold numbers (right-aligned, header too): those whose every
    /// filled cell reads as a number, a count such as `2/0/8`, or a number with its
    /// interval; a column of names or of mixed values stays left-aligned.
    #[must_use]
    pub fn numeric(&self) -> Vec<bool> {
        (0..self.header.len())
            .map(|c| {
                let mut cells = self
                    .rows
                    .iter()
                    .filter_map(|r| r.get(c))
                    .filter(|v| !v.is_empty() && v.as_str() != "-")
                    .peekable();
                cells.peek().is_some() && cells.all(|v| is_number(v))
            })
            .collect()
    }
}

/// Whether a cell starts as a number does: `12`, `+3 [..]`, `-inf`, `61.3%`, `<0.0001`.
fn is_number(cell: &str) -> bool {
    let body = cell.trim_start_matches(['+', '-', '<']);
    body.starts_with(|c: char| c.is_ascii_digit()) || body.starts_with("inf")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_columns_are_recognised() {
        let table = Table::new(
            &["player", "games", "W/D/L", "Elo", "model", "p"],
            vec![
                vec![
                    "a".into(),
                    "10".into(),
                    "2/0/8".into(),
                    "+inf [+166, +inf]".into(),
                    "pentanomial, 5 game pairs".into(),
                    "<0.0001".into(),
                ],
                vec![
                    "b".into(),
                    "12".into(),
                    "-".into(),
                    "-12 [-30, +4]".into(),
                    "trinomial, 12 games".into(),
                    "0.5".into(),
                ],
            ],
        );
        assert_eq!(
            table.numeric(),
            [false, true, true, true, false, true],
            "names and models left, numbers right"
        );
    }
}
