//! Experiment files: the raw TOML form (serde), then a validated form with every default filled in.

use crate::board::Geometry;
use crate::commands::validate_size;
use crate::error::{Error, Result, Source};
use crate::game::{Game, Rules};
use crate::strategy::StrategySpec;
use crate::with_geometry;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use toml::{Spanned, Table, Value};

/// How players are paired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every pair of players.
    #[default]
    RoundRobin,
    /// Each challenger against every other (non-challenger) player.
    Gauntlet,
    /// Exactly two players.
    HeadToHead,
}

/// The SPRT early stop for head-to-head runs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False-positive rate.
    #[serde(default = "five_percent")]
    pub alpha: f64,
    /// False-negative rate.
    #[serde(default = "five_percent")]
    pub beta: f64,
}

fn five_percent() -> f64 {
    0.05
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOpenings {
    random_plies: Option<u32>,
    file: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlayer {
    name: String,
    strategy: Spanned<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExperiment {
    name: String,
    description: Option<String>,
    #[serde(default = "default_seed")]
    seed: u64,
    #[serde(default = "default_size")]
    size: u32,
    #[serde(default)]
    rules: Rules,
    #[serde(default)]
    format: Format,
    #[serde(default)]
    challengers: Vec<String>,
    #[serde(default = "default_games")]
    games_per_pair: u64,
    threads: Option<usize>,
    openings: Option<RawOpenings>,
    sprt: Option<Sprt>,
    players: Vec<RawPlayer>,
}

fn default_seed() -> u64 {
    1
}
fn default_size() -> u32 {
    8
}
fn default_games() -> u64 {
    100
}

/// Where games start.
#[derive(Clone, Debug, PartialEq)]
pub enum Openings {
    /// The standard start.
    Start,
    /// This many uniformly random moves, drawn from the pair's seed.
    RandomPlies(u32),
    /// Transcripts from a file, one per line, used in turn.
    List {
        /// The file, as written in the experiment.
        file: String,
        /// Its transcripts (checked legal).
        transcripts: Vec<String>,
    },
}

/// One player: a name and a strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// The name used in every result.
    pub name: String,
    /// The strategy.
    pub spec: StrategySpec,
}

/// A validated experiment: every value checked, every default filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    /// Name (and default results folder).
    pub name: String,
    /// Free text.
    pub description: Option<String>,
    /// The experiment seed.
    pub seed: u64,
    /// Board size.
    pub size: u32,
    /// Scoring rules.
    pub rules: Rules,
    /// Pairing format.
    pub format: Format,
    /// Challengers (gauntlet only).
    pub challengers: Vec<String>,
    /// Games per pair of players (even: each opening with both colours).
    pub games_per_pair: u64,
    /// Threads (None: one per core).
    pub threads: Option<usize>,
    /// Openings.
    pub openings: Openings,
    /// Early stop (head-to-head only).
    pub sprt: Option<Sprt>,
    /// The players.
    pub players: Vec<Player>,
}

impl Experiment {
    /// Reads and validates an experiment file.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::unreadable(path, &e))?;
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Self::parse(&text, &path.display().to_string(), &base)
    }

    /// Validates experiment text; `origin` names it in errors and `base` is the
    /// folder relative paths (the openings file) start from.
    pub fn parse(text: &str, origin: &str, base: &Path) -> Result<Self> {
        let source = Source { origin, text };
        let at = |span: Option<std::ops::Range<usize>>, message: String| {
            source.error(span.map(|s| s.start), &message)
        };
        let raw: RawExperiment = toml::from_str(text).map_err(|e| source.toml_error(&e))?;
        let fail = |message: String| Error::input(format!("{origin}: {message}"));

        if raw.name.trim().is_empty() || raw.name.contains(['/', '\\']) || raw.name.starts_with('.')
        {
            return Err(fail(format!(
                "name '{}' cannot name a results folder: use letters, digits, '-' or '_'",
                raw.name
            )));
        }
        let size = validate_size(raw.size).map_err(|e| fail(e.to_string()))?;
        if raw.games_per_pair == 0 {
            return Err(fail(
                "games_per_pair = 0: play at least 2 games per pair".into(),
            ));
        }
        if raw.games_per_pair % 2 == 1 {
            return Err(fail(format!(
                "games_per_pair = {} is odd: every opening is played twice, once with each colour, so use an even number such as {}",
                raw.games_per_pair,
                raw.games_per_pair + 1
            )));
        }
        if raw.threads == Some(0) {
            return Err(fail(
                "threads = 0: use at least 1, or leave it out for one per core".into(),
            ));
        }
        if raw.players.len() < 2 {
            return Err(fail(format!(
                "{} player(s): an experiment needs at least 2 [[players]]",
                raw.players.len()
            )));
        }
        let mut players = Vec::new();
        for player in &raw.players {
            if player.name.trim().is_empty() {
                return Err(fail("a player has an empty name".into()));
            }
            if players.iter().any(|p: &Player| p.name == player.name) {
                return Err(fail(format!(
                    "two players are named '{}': names must be unique",
                    player.name
                )));
            }
            let span = Some(player.strategy.span());
            let spec = StrategySpec::from_value(player.strategy.get_ref())
                .map_err(|e| at(span.clone(), format!("player '{}': {e}", player.name)))?;
            with_geometry!(size, G => {
                spec.build::<G>(raw.rules)
                    .map_err(|e| at(span.clone(), format!("player '{}': {e}", player.name)))?;
            });
            players.push(Player {
                name: player.name.clone(),
                spec,
            });
        }
        let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        match raw.format {
            Format::HeadToHead if players.len() != 2 => {
                return Err(fail(format!(
                    "format = \"head-to-head\" needs exactly 2 players, not {}",
                    players.len()
                )))
            }
            Format::Gauntlet => {
                if raw.challengers.is_empty() {
                    return Err(fail(
                        "format = \"gauntlet\" needs challengers = [\"name\", ...]".into(),
                    ));
                }
                for c in &raw.challengers {
                    if !names.contains(&c.as_str()) {
                        return Err(fail(crate::error::unknown_name("challenger", c, &names)));
                    }
                }
                if raw.challengers.len() == players.len() {
                    return Err(fail(
                        "every player is a challenger: a gauntlet needs at least one other player"
                            .into(),
                    ));
                }
            }
            _ => {}
        }
        if raw.format != Format::Gauntlet && !raw.challengers.is_empty() {
            return Err(fail(
                "challengers are only for format = \"gauntlet\"".into(),
            ));
        }
        if let Some(sprt) = raw.sprt {
            if raw.format != Format::HeadToHead {
                return Err(fail("[sprt] needs format = \"head-to-head\"".into()));
            }
            if sprt.elo0.partial_cmp(&sprt.elo1) != Some(std::cmp::Ordering::Less) {
                return Err(fail(format!(
                    "sprt elo0 = {} must be below elo1 = {}",
                    sprt.elo0, sprt.elo1
                )));
            }
            for (key, value) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
                if !(value > 0.0 && value < 0.5) {
                    return Err(fail(format!(
                        "sprt {key} = {value} is out of range: use a rate between 0 and 0.5, such as 0.05"
                    )));
                }
            }
        }
        let openings = match raw.openings {
            None => Openings::Start,
            Some(RawOpenings {
                random_plies: Some(_),
                file: Some(_),
            }) => {
                return Err(fail(
                    "[openings] takes random_plies or file, not both".into(),
                ))
            }
            Some(RawOpenings {
                random_plies: Some(k),
                file: None,
            }) => {
                if k >= size * size - 4 {
                    return Err(fail(format!(
                        "random_plies = {k} would fill the {size}x{size} board: use fewer"
                    )));
                }
                if k == 0 {
                    Openings::Start
                } else {
                    Openings::RandomPlies(k)
                }
            }
            Some(RawOpenings {
                random_plies: None,
                file: Some(file),
            }) => {
                let path = base.join(&file);
                let transcripts = load_openings(&path, size)?;
                Openings::List { file, transcripts }
            }
            Some(RawOpenings {
                random_plies: None,
                file: None,
            }) => Openings::Start,
        };
        Ok(Experiment {
            name: raw.name,
            description: raw.description,
            seed: raw.seed,
            size,
            rules: raw.rules,
            format: raw.format,
            challengers: raw.challengers,
            games_per_pair: raw.games_per_pair,
            threads: raw.threads,
            openings,
            sprt: raw.sprt,
            players,
        })
    }

    /// The pairs of player indices, in the order their games are played.
    #[must_use]
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.players.len();
        match self.format {
            Format::RoundRobin | Format::HeadToHead => (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect(),
            Format::Gauntlet => {
                let is_challenger = |i: usize| self.challengers.contains(&self.players[i].name);
                (0..n)
                    .filter(|&a| is_challenger(a))
                    .flat_map(|a| {
                        (0..n)
                            .filter(move |&b| !is_challenger(b))
                            .map(move |b| (a, b))
                    })
                    .collect()
            }
        }
    }

    /// Total games.
    #[must_use]
    pub fn total_games(&self) -> u64 {
        self.pairs().len() as u64 * self.games_per_pair
    }

    /// The experiment as a TOML table, defaults written out: what `run.toml`
    /// records and what `--resume` compares.
    #[must_use]
    pub fn to_table(&self) -> Table {
        let mut t = Table::new();
        t.insert("name".into(), Value::String(self.name.clone()));
        if let Some(d) = &self.description {
            t.insert("description".into(), Value::String(d.clone()));
        }
        t.insert("seed".into(), Value::Integer(self.seed as i64));
        t.insert("size".into(), Value::Integer(i64::from(self.size)));
        t.insert(
            "rules".into(),
            Value::try_from(self.rules).expect("rules serialise"),
        );
        t.insert(
            "format".into(),
            Value::try_from(self.format).expect("format serialises"),
        );
        if !self.challengers.is_empty() {
            t.insert(
                "challengers".into(),
                Value::Array(
                    self.challengers
                        .iter()
                        .cloned()
                        .map(Value::String)
                        .collect(),
                ),
            );
        }
        t.insert(
            "games_per_pair".into(),
            Value::Integer(self.games_per_pair as i64),
        );
        if let Some(threads) = self.threads {
            t.insert("threads".into(), Value::Integer(threads as i64));
        }
        let mut openings = Table::new();
        match &self.openings {
            Openings::Start => {}
            Openings::RandomPlies(k) => {
                openings.insert("random_plies".into(), Value::Integer(i64::from(*k)));
            }
            Openings::List { file, .. } => {
                openings.insert("file".into(), Value::String(file.clone()));
            }
        }
        if !openings.is_empty() {
            t.insert("openings".into(), Value::Table(openings));
        }
        if let Some(sprt) = self.sprt {
            t.insert(
                "sprt".into(),
                Value::try_from(sprt).expect("sprt serialises"),
            );
        }
        let players = self
            .players
            .iter()
            .map(|p| {
                let mut pt = Table::new();
                pt.insert("name".into(), Value::String(p.name.clone()));
                pt.insert("strategy".into(), Value::Table(p.spec.to_table()));
                Value::Table(pt)
            })
            .collect();
        t.insert("players".into(), Value::Array(players));
        t
    }

    /// The opening transcript for opening number `index` of pair `pair`.
    #[must_use]
    pub fn opening(&self, pair: u64, index: u64) -> String {
        match &self.openings {
            Openings::Start => String::new(),
            Openings::List { transcripts, .. } => {
                transcripts[(index % transcripts.len() as u64) as usize].clone()
            }
            Openings::RandomPlies(k) => {
                with_geometry!(self.size, G => random_opening::<G>(*k, crate::play::game_seed(self.seed, pair, index | 1 << 63)))
            }
        }
    }
}

/// `plies` uniformly random moves from the start (fewer if the game ends first).
fn random_opening<G: Geometry>(plies: u32, seed: u64) -> String {
    use crate::board::Bits;
    use rand::Rng;
    let mut rng = crate::play::game_rng(seed);
    let mut game = Game::<G>::new();
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mut rest = moves;
        for _ in 0..rng.gen_range(0..moves.count()) {
            rest = rest.without_lowest();
        }
        game.play_unchecked(crate::board::Square::new(rest.lowest()));
    }
    game.transcript()
}

/// Reads an openings file: one transcript per line; blank lines and lines
/// starting with `#` or `%` are skipped. Every transcript is checked.
fn load_openings(path: &PathBuf, size: u32) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::unreadable(path, &e))?;
    let mut transcripts = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let transcript = with_geometry!(size, G => {
            Game::<G>::from_transcript(line)
                .map(|g| g.transcript())
                .map_err(|e| Error::input(format!("{}:{}: {e}", path.display(), number + 1)))?
        });
        transcripts.push(transcript);
    }
    if transcripts.is_empty() {
        return Err(Error::input(format!(
            "{}: no openings in the file (one transcript such as f5d6c3 per line)",
            path.display()
        )));
    }
    Ok(transcripts)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
name = "t"
games_per_pair = 4
[openings]
random_plies = 4
[[players]]
name = "g"
strategy = { kind = "greedy" }
[[players]]
name = "ab"
strategy = "alphabeta:depth=2"
[[players]]
name = "r"
strategy = { kind = "random" }
"#;

    fn parse(text: &str) -> Result<Experiment> {
        Experiment::parse(text, "x.toml", Path::new("."))
    }

    #[test]
    fn defaults_and_pairs() {
        let e = parse(GOOD).unwrap();
        assert_eq!((e.seed, e.size, e.format), (1, 8, Format::RoundRobin));
        assert_eq!(e.pairs(), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(e.total_games(), 12);
        let opening = e.opening(0, 0);
        assert_eq!(opening.len(), 8);
        assert_eq!(opening, e.opening(0, 0));
        assert_ne!(opening, e.opening(0, 1));
        // The table form reads back to the same experiment.
        let text = toml::to_string(&e.to_table()).unwrap();
        assert_eq!(parse(&text).unwrap(), e);
    }

    #[test]
    fn errors_name_line_column_and_fix() {
        let err = parse(&GOOD.replace("games_per_pair", "gams_per_pair"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("x.toml:3:1: unknown field `gams_per_pair`"),
            "{err}"
        );
        assert!(err.contains("did you mean `games_per_pair`?"), "{err}");
        let err = parse(&GOOD.replace("\"greedy\"", "\"greddy\""))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(
                "x.toml:8:12: player 'g': unknown strategy 'greddy' (did you mean 'greedy'?"
            ),
            "{err}"
        );
        let err = parse(&GOOD.replace("= 4\n[openings]", "= 0\n[openings]"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("games_per_pair = 0"), "{err}");
        let err = parse(&GOOD.replace("= 4\n[openings]", "= 3\n[openings]"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("is odd"), "{err}");
        let err = parse(&GOOD.replace("depth=2", "depth=0"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("depth = 0 is out of range"), "{err}");
        assert!(parse(&GOOD.replace("name = \"t\"", "name = \"t\"\nsize = 6")).is_ok());
        let err = parse(&GOOD.replace("name = \"t\"", "name = \"t\"\nsize = 7"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("unsupported board size 7"), "{err}");
        let err = parse(&GOOD.replace("name = \"t\"", "name = \"t\"\nformat = \"head-to-head\""))
            .unwrap_err()
            .to_string();
        assert!(err.contains("exactly 2 players"), "{err}");
        let err = parse("name = \"t\"\n[[players]]\nname = \"a\"\nstrategy = \"greedy\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("at least 2"), "{err}");
        let err = parse("name = \"t\n").unwrap_err().to_string();
        assert!(err.starts_with("x.toml:1:"), "{err}");
    }

    #[test]
    fn size_specific_strategy_errors() {
        let text = GOOD
            .replace("name = \"t\"", "name = \"t\"\nsize = 6")
            .replace("\"alphabeta:depth=2\"", "\"weighted:preset=classic\"");
        let err = parse(&text).unwrap_err().to_string();
        assert!(err.contains("8x8 table"), "{err}");
    }

    #[test]
    fn gauntlet_pairs() {
        let text = GOOD.replace(
            "name = \"t\"",
            "name = \"t\"\nformat = \"gauntlet\"\nchallengers = [\"ab\"]",
        );
        let e = parse(&text).unwrap();
        assert_eq!(e.pairs(), [(1, 0), (1, 2)]);
        let bad = GOOD.replace(
            "name = \"t\"",
            "name = \"t\"\nformat = \"gauntlet\"\nchallengers = [\"abb\"]",
        );
        assert!(parse(&bad)
            .unwrap_err()
            .to_string()
            .contains("did you mean 'ab'"));
    }
}
