//! Experiments: read from TOML or built in Rust with [`ExperimentBuilder`], validated
//! in one place either way.

use super::config::{read_config, WithSetup};
use super::setup::{OpeningsFrom, Setup, OPENINGS_COPY};
use crate::error::{unknown_name, Error, Result, Source};
use crate::lab::storage::file_names::Compression;
use crate::setting::{Edge, Setting, SettingError};
use crate::strategy::clock::{TimeControl, TimeSpec};
use crate::strategy::StrategySpec;
use crate::with_geometry;
use serde::{Deserialize, Serialize};
use std::path::Path;
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
    /// Each player against the next in the list (a chain: a sweep's neighbouring values).
    Neighbours,
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
    /// Whether the bounds are corrected for the LLR's overshoot (see
    /// [`crate::stats::Overshoot`]); `false` gives the plain Wald bounds.
    #[serde(default = "on")]
    pub overshoot: bool,
}

impl Sprt {
    /// The test as the statistics see it.
    #[must_use]
    pub fn design(&self) -> crate::stats::SprtDesign {
        crate::stats::SprtDesign {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            overshoot: self.overshoot,
        }
    }
}

fn five_percent() -> f64 {
    0.05
}

fn on() -> bool {
    true
}

/// One `[[players]]` entry; `S` is how the strategy is held (spanned when read,
/// a table with every default when written).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerFile<S> {
    /// The name used in every result.
    pub name: String,
    /// The strategy.
    pub strategy: S,
    /// This player's time for each move (over the experiment's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_time: Option<String>,
    /// This player's game clock (over the experiment's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// This player's margin past its time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_margin: Option<String>,
}

/// An experiment's own keys as a file writes them (the shared setup sits beside them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExperimentFile<S> {
    /// Name (and default results folder).
    pub name: String,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Pairing format.
    #[serde(default)]
    pub format: Format,
    /// Challengers (gauntlet only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub challengers: Vec<String>,
    /// Games per pair of players.
    #[serde(default = "default_games")]
    pub games_per_pair: u64,
    /// Early stop (head-to-head only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<Sprt>,
    /// How `games.csv` is stored: "none" (plain) or "zstd" (`games.csv.zst`).
    #[serde(default, skip_serializing_if = "Compression::is_none")]
    pub compress: Compression,
    /// The players.
    #[serde(
        deserialize_with = "player_list",
        bound(deserialize = "S: Deserialize<'de>")
    )]
    pub players: Vec<PlayerFile<S>>,
}

/// Reads `[[players]]`; a `[players]` table (a natural first guess) is refused in
/// words that show the form, rather than serde's "expected a sequence".
fn player_list<'de, D, S>(deserializer: D) -> std::result::Result<Vec<PlayerFile<S>>, D::Error>
where
    D: serde::Deserializer<'de>,
    S: Deserialize<'de>,
{
    struct Players<S>(std::marker::PhantomData<S>);
    impl<'de, S: Deserialize<'de>> serde::de::Visitor<'de> for Players<S> {
        type Value = Vec<PlayerFile<S>>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of [[players]] tables")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            seq: A,
        ) -> std::result::Result<Self::Value, A::Error> {
            Deserialize::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            _: A,
        ) -> std::result::Result<Self::Value, A::Error> {
            Err(serde::de::Error::custom(
                "`players` is a list: write each player as its own [[players]] table with `name` and `strategy`",
            ))
        }
    }
    deserializer.deserialize_seq(Players(std::marker::PhantomData))
}

fn default_games() -> u64 {
    100
}

/// One player: a name and a strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// The name used in every result.
    pub name: String,
    /// The strategy.
    pub spec: StrategySpec,
    /// Its own time control, over the experiment's (see [`Experiment::time_of`]).
    pub time: TimeSpec,
}

/// A validated experiment: every value checked, every default filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    /// Name (and default results folder).
    pub name: String,
    /// Free text.
    pub description: Option<String>,
    /// Board, rules, openings, seed and threads.
    pub setup: Setup,
    /// Pairing format.
    pub format: Format,
    /// Challengers (gauntlet only).
    pub challengers: Vec<String>,
    /// Games per pair of players (even: each opening with both colours).
    pub games_per_pair: u64,
    /// Early stop (head-to-head only).
    pub sprt: Option<Sprt>,
    /// How `games.csv` is stored.
    pub compress: Compression,
    /// The players.
    pub players: Vec<Player>,
}

/// Builds an [`Experiment`] in Rust; [`build`](Self::build) checks it exactly as a file is checked.
#[derive(Clone, Debug)]
#[must_use]
pub struct ExperimentBuilder {
    experiment: Experiment,
}

impl ExperimentBuilder {
    /// A description.
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.experiment.description = Some(text.into());
        self
    }

    /// The pairing format (round robin by default).
    pub fn format(mut self, format: Format) -> Self {
        self.experiment.format = format;
        self
    }

    /// A gauntlet with these challengers.
    pub fn gauntlet(mut self, challengers: &[&str]) -> Self {
        self.experiment.format = Format::Gauntlet;
        self.experiment.challengers = challengers.iter().map(|c| c.to_string()).collect();
        self
    }

    /// Games per pair (100 by default).
    pub fn games_per_pair(mut self, games: u64) -> Self {
        self.experiment.games_per_pair = games;
        self
    }

    /// How `games.csv` is stored (plain by default).
    pub fn compress(mut self, compress: Compression) -> Self {
        self.experiment.compress = compress;
        self
    }

    /// An SPRT early stop (head-to-head only).
    pub fn sprt(mut self, sprt: Sprt) -> Self {
        self.experiment.sprt = Some(sprt);
        self
    }

    /// Adds a player.
    pub fn player(mut self, name: impl Into<String>, spec: StrategySpec) -> Self {
        self.experiment.players.push(Player {
            name: name.into(),
            spec,
            time: TimeSpec::default(),
        });
        self
    }

    /// Adds a player with a time control of its own.
    pub fn timed_player(
        mut self,
        name: impl Into<String>,
        spec: StrategySpec,
        time: TimeSpec,
    ) -> Self {
        self.experiment.players.push(Player {
            name: name.into(),
            spec,
            time,
        });
        self
    }

    /// Checks everything; errors name the setting and the fix.
    pub fn build(self) -> Result<Experiment> {
        self.build_with(Players::Built)
    }

    fn build_with(self, players: Players) -> Result<Experiment> {
        let e = self.experiment;
        if e.name.trim().is_empty() || e.name.contains(['/', '\\']) || e.name.starts_with('.') {
            return Err(Error::input(format!(
                "name '{}' cannot name a results folder: use letters, digits, '-' or '_'",
                e.name
            )));
        }
        // The builder's values are an experiment file's keys, whoever built it.
        check_games_per_pair(e.games_per_pair, &GAMES_PER_PAIR)
            .map_err(|e| e.in_words(Edge::Config))?;
        if e.players.len() < 2 {
            return Err(Error::input(format!(
                "{} player(s): an experiment needs at least 2 [[players]]",
                e.players.len()
            )));
        }
        for (i, player) in e.players.iter().enumerate() {
            if player.name.trim().is_empty() {
                return Err(Error::input("a player has an empty name"));
            }
            if e.players[..i].iter().any(|p| p.name == player.name) {
                return Err(Error::input(format!(
                    "two players are named '{}': names must be unique",
                    player.name
                )));
            }
            if players == Players::Built {
                check_player(player, &e.setup).map_err(Error::input)?;
            }
        }
        let names: Vec<&str> = e.players.iter().map(|p| p.name.as_str()).collect();
        match e.format {
            Format::HeadToHead if e.players.len() != 2 => {
                return Err(Error::input(format!(
                    "format = \"head-to-head\" needs exactly 2 players, not {}",
                    e.players.len()
                )))
            }
            Format::Gauntlet => {
                if e.challengers.is_empty() {
                    return Err(Error::input(
                        "format = \"gauntlet\" needs challengers = [\"name\", ...]",
                    ));
                }
                for c in &e.challengers {
                    if !names.contains(&c.as_str()) {
                        return Err(Error::input(unknown_name("challenger", c, &names)));
                    }
                }
                if e.challengers.len() == e.players.len() {
                    return Err(Error::input(
                        "every player is a challenger: a gauntlet needs at least one other player",
                    ));
                }
            }
            _ => {}
        }
        if e.format != Format::Gauntlet && !e.challengers.is_empty() {
            return Err(Error::input(
                "challengers are only for format = \"gauntlet\"",
            ));
        }
        if let Some(sprt) = e.sprt {
            if e.format != Format::HeadToHead {
                return Err(Error::input("[sprt] needs format = \"head-to-head\""));
            }
            if sprt.elo0.partial_cmp(&sprt.elo1) != Some(std::cmp::Ordering::Less) {
                return Err(Error::input(format!(
                    "sprt elo0 = {} must be below elo1 = {}",
                    sprt.elo0, sprt.elo1
                )));
            }
            for (key, value) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
                if !(value > 0.0 && value < 0.5) {
                    return Err(Error::input(format!(
                        "sprt {key} = {value} is out of range: use a rate between 0 and 0.5, such as 0.05"
                    )));
                }
            }
        }
        Ok(e)
    }
}

// Declared with the other settings every config file shares, which the config reader
// checks too (it sits below this file).
pub use super::setup::{GAMES_PER_PAIR, MAX_GAMES_PER_PAIR};

/// Games per pair must be even and at least 2; `setting` is what gave them
/// ([`GAMES_PER_PAIR`], a tune's `[validation] games`).
pub fn check_games_per_pair(games: u64, setting: &'static Setting) -> Result<u64> {
    let refused = |why: String| -> Error {
        SettingError::Refused {
            setting,
            value: games.to_string(),
            why: why.into(),
        }
        .into()
    };
    if games == 0 {
        Err(refused(": play at least 2 games per pair".into()))
    } else if games > MAX_GAMES_PER_PAIR {
        Err(refused(format!(
            " is more games than a run can play: use at most {MAX_GAMES_PER_PAIR} per pair"
        )))
    } else if games % 2 == 1 {
        Err(refused(format!(
            " is odd: games per pair must be even, since every opening is played twice, once with each colour (use {})",
            games.saturating_add(1)
        )))
    } else {
        Ok(games)
    }
}

/// A player's strategy must build for the board size and rules.
/// Whether reading an experiment builds its players to check them (for a run that
/// will play them), or takes their specs as recorded (for counting a run's games,
/// which must neither start an engine nor need a Python callable handed over).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Players {
    Built,
    AsRecorded,
}

fn check_player(player: &Player, setup: &Setup) -> std::result::Result<(), String> {
    with_geometry!(setup.size, G => {
        player
            .spec
            .build::<G>(setup.rules)
            .map(drop)
            .and_then(|()| {
                let clocked = player.time.over(setup.time).control().is_some();
                player.spec.check_practical_under(setup.start_empties(), clocked)
            })
            .map_err(|e| format!("player '{}': {e}", player.name))
    })
}

impl Experiment {
    /// An experiment to build in Rust.
    pub fn builder(name: impl Into<String>, setup: Setup) -> ExperimentBuilder {
        ExperimentBuilder {
            experiment: Experiment {
                name: name.into(),
                description: None,
                setup,
                format: Format::default(),
                challengers: Vec::new(),
                games_per_pair: default_games(),
                sprt: None,
                compress: Compression::None,
                players: Vec::new(),
            },
        }
    }

    /// Reads and validates an experiment file.
    pub fn load(path: &Path) -> Result<Self> {
        crate::lab::config::load(path, Self::parse)
    }

    /// Validates experiment text; `origin` names it in errors and `base` is the
    /// folder relative paths (the openings file) start from.
    pub fn parse(text: &str, origin: &str, base: &Path) -> Result<Self> {
        Self::parse_in(
            Source::new(origin, text),
            OpeningsFrom::Folder(base),
            Some(base),
            Players::Built,
        )
    }

    /// As [`Experiment::parse`], for text made from something else (a Python dict):
    /// its errors name `origin` but no line and column, which would point into the
    /// made text rather than anything the user wrote.
    pub fn parse_made(text: &str, origin: &str, base: &Path) -> Result<Self> {
        let source = Source {
            located: false,
            ..Source::new(origin, text)
        };
        Self::parse_in(
            source,
            OpeningsFrom::Folder(base),
            Some(base),
            Players::Built,
        )
    }

    /// The experiment a results folder's `run.toml` recorded (`table`), with its
    /// openings list from the folder's own copy when it has one.
    pub fn recorded(table: &Table, dir: &Path) -> Result<Self> {
        let text = toml::to_string(table)
            .map_err(|e| Error::internal_from("cannot write the experiment as TOML", e))?;
        let origin = dir
            .join(crate::lab::FolderFile::RunRecord.name())
            .display()
            .to_string();
        let copy = dir.join(OPENINGS_COPY);
        let from = if copy.is_file() {
            OpeningsFrom::Copy(&copy)
        } else {
            OpeningsFrom::Folder(Path::new("."))
        };
        // Its strategies' paths were rebased when the experiment was first read.
        Self::parse_in(Source::new(&origin, &text), from, None, Players::Built)
    }

    /// The experiment `table` recorded, without its openings: what counting a run's
    /// games needs (the openings change no tally, and their file need not be
    /// reachable from where the folder is read), nor its players built (an engine's
    /// program or a Python callable need not be here, and none is started). `origin`
    /// names it in errors.
    pub fn recorded_for_tally(table: &Table, origin: &str) -> Result<Self> {
        let mut table = table.clone();
        table.remove("openings");
        let text = toml::to_string(&table)
            .map_err(|e| Error::internal_from("cannot write the settings as TOML", e))?;
        let here = Path::new(".");
        Self::parse_in(
            Source::new(origin, &text),
            OpeningsFrom::Folder(here),
            Some(here),
            Players::AsRecorded,
        )
    }

    fn parse_in(
        source: Source<'_>,
        from: OpeningsFrom<'_>,
        paths_from: Option<&Path>,
        players: Players,
    ) -> Result<Self> {
        let file: WithSetup<ExperimentFile<Spanned<Value>>> = read_config(&source)?;
        let in_file = |e: Error| crate::lab::config::in_file(&source, e);
        let setup = Setup::from_file_in(&file.setup, from).map_err(in_file)?;
        let own = file.own;
        let mut builder = Experiment::builder(own.name, setup.clone());
        builder.experiment.description = own.description;
        builder.experiment.format = own.format;
        builder.experiment.challengers = own.challengers;
        builder.experiment.games_per_pair = own.games_per_pair;
        builder.experiment.sprt = own.sprt;
        builder.experiment.compress = own.compress;
        for raw in own.players {
            let span = raw.strategy.span().start;
            let at = |message: String| source.error(Some(span), &message);
            let spec = match paths_from {
                Some(base) => StrategySpec::from_value_in(raw.strategy.get_ref(), base),
                None => StrategySpec::from_value(raw.strategy.get_ref()),
            }
            .map_err(|e| at(format!("player '{}': {e}", raw.name)))?;
            let time = TimeSpec::parse(
                raw.move_time.as_deref(),
                raw.clock.as_deref(),
                raw.time_margin.as_deref(),
            )
            .map_err(|e| {
                at(format!(
                    "player '{}': {}",
                    raw.name,
                    e.said().worded(Edge::Config)
                ))
            })?;
            let player = Player {
                name: raw.name,
                spec,
                time,
            };
            if players == Players::Built {
                check_player(&player, &setup).map_err(at)?;
            }
            builder.experiment.players.push(player);
        }
        builder.build_with(players).map_err(in_file)
    }

    /// The experiment as a file would write it, every default filled in: what
    /// `run.toml` records and what `--resume` compares.
    #[must_use]
    pub fn to_file(&self) -> WithSetup<ExperimentFile<Table>> {
        WithSetup {
            setup: self.setup.to_file(),
            own: ExperimentFile {
                name: self.name.clone(),
                description: self.description.clone(),
                format: self.format,
                challengers: self.challengers.clone(),
                games_per_pair: self.games_per_pair,
                sprt: self.sprt,
                compress: self.compress,
                players: self
                    .players
                    .iter()
                    .map(|p| PlayerFile {
                        name: p.name.clone(),
                        strategy: p.spec.to_table(),
                        move_time: p.time.move_time_text(),
                        clock: p.time.clock_text(),
                        time_margin: p.time.margin_text(),
                    })
                    .collect(),
            },
        }
    }

    /// The time control player `index` plays under (None: untimed).
    #[must_use]
    pub fn time_of(&self, index: usize) -> Option<TimeControl> {
        self.players[index].time.over(self.setup.time).control()
    }

    /// Whether any move is timed, by a time control or a strategy's own time budget:
    /// then games depend on the machine and cannot be replayed byte for byte.
    #[must_use]
    pub fn timed(&self) -> bool {
        (0..self.players.len()).any(|i| self.time_of(i).is_some())
            || self.players.iter().any(|p| p.spec.timed())
    }

    /// [`to_file`](Self::to_file) as a TOML table.
    #[must_use]
    pub fn to_table(&self) -> Table {
        match Value::try_from(self.to_file()) {
            Ok(Value::Table(table)) => table,
            _ => unreachable!("an experiment always serialises to a table"),
        }
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
            Format::Neighbours => (1..n).map(|b| (b - 1, b)).collect(),
        }
    }

    /// Total games.
    #[must_use]
    pub fn total_games(&self) -> u64 {
        self.pairs().len() as u64 * self.games_per_pair
    }
}

#[cfg(test)]
#[path = "experiment_tests.rs"]
mod tests;
