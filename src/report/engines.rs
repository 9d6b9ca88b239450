//! The report's "Engines" section: each external engine's command, what its moves
//! cost, how its games ended, and the log of every game it lost by a fault.

use super::data::Results;
use super::doc::{Block, Section, Table};
use crate::game::Termination;
use crate::numbers::fixed;

/// The engine players of the experiment: (name, command line).
fn engines(results: &Results) -> Vec<(String, String)> {
    let Some(toml::Value::Array(players)) = results.experiment.get("players") else {
        return Vec::new();
    };
    players
        .iter()
        .filter_map(|player| {
            let name = player.get("name")?.as_str()?.to_string();
            let strategy = player.get("strategy")?;
            if strategy.get("kind")?.as_str()? != "engine" {
                return None;
            }
            let command: Vec<&str> = match strategy.get("command")? {
                toml::Value::Array(words) => words.iter().filter_map(toml::Value::as_str).collect(),
                other => vec![other.as_str()?],
            };
            Some((name, command.join(" ")))
        })
        .collect()
}

/// The section, for a run with external engines.
#[must_use]
pub fn section(results: &Results) -> Option<Section> {
    let engines = engines(results);
    if engines.is_empty() {
        return None;
    }
    let faulty = [
        Termination::Time,
        Termination::Crash,
        Termination::Illegal,
        Termination::Stalled,
    ];
    let mut header = vec!["engine", "command", "games", "ms per move"];
    header.extend(faulty.iter().map(|t| t.name()));
    let rows = engines
        .iter()
        .map(|(name, command)| {
            let cost = results
                .costs
                .as_ref()
                .and_then(|rows| rows.iter().find(|r| &r.player == name));
            let mut row = vec![
                name.clone(),
                command.clone(),
                cost.map_or("-".into(), |c| c.games.to_string()),
                cost.and_then(|c| c.ms_per_move)
                    .map_or("-".into(), |ms| fixed(ms, 2)),
            ];
            row.extend(faulty.iter().map(|t| {
                results
                    .faults
                    .iter()
                    .filter(|f| &f.player == name && f.termination == t.name())
                    .count()
                    .to_string()
            }));
            row
        })
        .collect();
    let mut section = Section::new("engines", "Engines")
        .with(Block::Text(
            "External engines played over GTP. A game an engine could not finish (it crashed, stalled, or answered an illegal move) is lost by its side by the whole board; its log in the folder engines/ says what happened. See docs/engines.md.".into(),
        ))
        .with(Block::Table(Table::new(&header, rows).code(1)));
    if !results.faults.is_empty() {
        let shown = 50;
        let mut lines: Vec<String> = results
            .faults
            .iter()
            .take(shown)
            .map(|f| {
                format!(
                    "game {}: {} lost by {} (logs: engines/{}-*.log)",
                    f.game_id, f.player, f.termination, f.player
                )
            })
            .collect();
        if results.faults.len() > shown {
            lines.push(format!("... and {} more", results.faults.len() - shown));
        }
        section = section
            .with(Block::Subheading("Games lost by a fault".into()))
            .with(Block::List(lines));
    }
    Some(section)
}
