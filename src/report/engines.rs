//! The report's "Engines and time" section: each external engine's command and
//! identity, each player's time control, what its moves cost (mean and largest time,
//! nodes), how its games ended, and the log of every game lost by a fault.

use super::data::Results;
use crate::doc::{Block, Section, Table};
use crate::game::Termination;
use crate::numbers::fixed;
use crate::strategy::StrategySpec;

/// The engine players of the experiment: (name, command line).
fn engines(results: &Results) -> Vec<(String, String)> {
    results
        .experiment
        .own
        .players
        .iter()
        .filter_map(|player| match StrategySpec::from_table(&player.strategy) {
            Ok(StrategySpec::Engine(engine)) => {
                Some((player.name.clone(), engine.command.join(" ")))
            }
            _ => None,
        })
        .collect()
}

/// The players on a clock: (name, its control as the experiment states it).
fn clocked(results: &Results) -> Vec<(String, String)> {
    let text = |move_time: &Option<String>, clock: &Option<String>| {
        [("move_time", move_time), ("clock", clock)]
            .into_iter()
            .find_map(|(key, v)| v.as_ref().map(|v| format!("{key} {v}")))
    };
    let setup = &results.experiment.setup;
    let all = text(&setup.move_time, &setup.clock);
    results
        .experiment
        .own
        .players
        .iter()
        .filter_map(|player| {
            text(&player.move_time, &player.clock)
                .or_else(|| all.clone())
                .map(|t| (player.name.clone(), t))
        })
        .collect()
}

/// The section, for a run with external engines or time controls.
#[must_use]
pub fn section(results: &Results) -> Option<Section> {
    let engines = engines(results);
    let clocked = clocked(results);
    let timed = results.run.timed == Some(true);
    if engines.is_empty() && clocked.is_empty() && results.faults.is_empty() && !timed {
        return None;
    }
    let faulty = [
        Termination::Time,
        Termination::Crash,
        Termination::Illegal,
        Termination::Stalled,
        Termination::Error,
    ];
    let identities = results.run.engines.as_ref();
    let mut players: Vec<(String, String, String)> = engines
        .iter()
        .map(|(name, command)| {
            let identity = identities
                .and_then(|t| t.get(name))
                .map_or("-", String::as_str);
            (name.clone(), command.clone(), identity.to_string())
        })
        .collect();
    // Built-in players on a clock, and any other player that lost by a fault.
    for name in &results.players {
        let listed = players.iter().any(|(n, ..)| n == name);
        let timed = clocked.iter().any(|(n, _)| n == name);
        if !listed && (timed || results.faults.iter().any(|f| &f.player == name)) {
            players.push((name.clone(), "-".into(), "built in".into()));
        }
    }
    // In the experiment's order.
    let order = |name: &String| results.players.iter().position(|p| p == name);
    players.sort_by_key(|(name, ..)| order(name));
    let mut header = vec![
        "player",
        "command",
        "engine",
        "time control",
        "games",
        "ms per move",
        "largest ms",
        "nodes per move",
    ];
    header.extend(faulty.iter().map(|t| t.name()));
    let rows = players
        .iter()
        .map(|(name, command, identity)| {
            let cost = results
                .costs
                .as_ref()
                .and_then(|rows| rows.iter().find(|r| &r.player == name));
            let control = clocked
                .iter()
                .find(|(n, _)| n == name)
                .map_or("-".to_string(), |(_, t)| t.clone());
            let mut row = vec![
                name.clone(),
                command.clone(),
                identity.clone(),
                control,
                cost.map_or("-".into(), |c| c.games.to_string()),
                cost.and_then(|c| c.ms_per_move)
                    .map_or("-".into(), |ms| fixed(ms, 2)),
                cost.and_then(|c| c.max_ms)
                    .map_or("-".into(), |ms| fixed(ms, 1)),
                cost.and_then(|c| c.nodes_per_move)
                    .filter(|&n| n > 0.0)
                    .map_or("-".into(), |n| fixed(n, 0)),
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
    let mut text = "External engines and players on a clock. A game a player could not finish (it lost on time, its engine crashed, stalled or answered an illegal move) is lost by its side by the whole board; an engine's log in the folder engines/ says what happened. The engine column is what it answered to name and version; nodes are those a search or an engine reported. See docs/engines.md.".to_string();
    if timed {
        text.push_str(" Moves were limited by time, so these games depend on the machine and its load: the same seed does not replay them exactly.");
    }
    let mut section = Section::new("engines", "Engines and time")
        .with(Block::Text(text))
        .with(Block::Table(Table::new(&header, rows).code(1)));
    if !results.faults.is_empty() {
        let shown = 50;
        let mut lines: Vec<String> = results
            .faults
            .iter()
            .take(shown)
            .map(|f| {
                let log = if engines.iter().any(|(n, _)| n == &f.player) {
                    format!(" (logs: engines/{}-*.log)", f.player)
                } else {
                    String::new()
                };
                format!(
                    "game {}: {} lost by {}{log}",
                    f.game_id, f.player, f.termination
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
