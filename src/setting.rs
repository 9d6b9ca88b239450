//! A setting users give (a config file's key, the command line's flag, Python's keyword
//! argument), declared once beside the option it names, and the typed refusals that
//! carry it: the library says which setting and what is wrong, the edge that read the
//! value words it (`--games 0`, `games=0`, `games_per_pair = 0`).

use std::borrow::Cow;
use std::fmt;

/// One setting under its three names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The config file's key (`games_per_pair`); empty when no file has it.
    pub key: &'static str,
    /// The command line's flag (`--games`).
    pub flag: &'static str,
    /// Python's keyword argument (`games`); for a switch, as it is passed
    /// (`resume=True`).
    pub keyword: &'static str,
    /// Whether it takes no value (`--resume`, `resume=True`).
    pub switch: bool,
    /// The whole numbers it takes, when it takes one: what a config reader checks a
    /// value's type against before serde reads it, and words the refusal with.
    pub whole: Option<(u64, u64)>,
}

impl Setting {
    /// A setting that takes a value.
    #[must_use]
    pub const fn new(key: &'static str, flag: &'static str, keyword: &'static str) -> Self {
        Setting {
            key,
            flag,
            keyword,
            switch: false,
            whole: None,
        }
    }

    /// This setting taking the whole numbers from `least` to `most`.
    #[must_use]
    pub const fn whole(self, least: u64, most: u64) -> Self {
        Setting {
            whole: Some((least, most)),
            ..self
        }
    }

    /// Its whole numbers in words: `a whole number from 1 to 1024`, or `of at least 0`
    /// for a range whose end is only its type's largest value (`u32::MAX`, `i64::MAX`);
    /// a declared end (10^12 games) is said.
    #[must_use]
    pub fn whole_words(&self) -> Option<String> {
        self.whole.map(|(least, most)| {
            if most == u64::from(u32::MAX) || most >= i64::MAX as u64 {
                format!("a whole number of at least {least}")
            } else {
                format!("a whole number from {least} to {most}")
            }
        })
    }

    /// A setting that takes no value: `--resume` on the command line, `resume=True` in
    /// Python.
    #[must_use]
    pub const fn switch(flag: &'static str, keyword: &'static str) -> Self {
        Setting {
            key: "",
            flag,
            keyword,
            switch: true,
            whole: None,
        }
    }

    /// Its name where `edge` reads it; a setting `edge` does not have is named as a
    /// file names it, else as the command line does.
    #[must_use]
    pub fn name(&self, edge: Edge) -> &'static str {
        match self.form(edge) {
            Edge::Config => self.key,
            Edge::Cli => self.flag,
            Edge::Python => self.keyword,
        }
    }

    /// The setting given `value`, as `edge` writes it: `games_per_pair = 4`,
    /// `--games 4`, `games=4`.
    #[must_use]
    pub fn given(&self, edge: Edge, value: &str) -> String {
        let name = self.name(edge);
        match self.form(edge) {
            Edge::Config => format!("{name} = {value}"),
            Edge::Cli => format!("{name} {value}"),
            Edge::Python => format!("{name}={value}"),
        }
    }

    /// Whose words name it at `edge`: its own there if it has a name there.
    fn form(&self, edge: Edge) -> Edge {
        let has = |edge: Edge| match edge {
            Edge::Config => !self.key.is_empty(),
            Edge::Cli => !self.flag.is_empty(),
            Edge::Python => !self.keyword.is_empty(),
        };
        [edge, Edge::Config, Edge::Cli]
            .into_iter()
            .find(|&e| has(e))
            .unwrap_or(Edge::Cli)
    }
}

/// Where a value was read, which decides the words that name its setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// A config file (or a Python dict of its keys): `games_per_pair = 4`.
    Config,
    /// The command line: `--games 4`.
    Cli,
    /// Python's keyword arguments: `games=4`.
    Python,
}

/// One piece of a [`Said`] message.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    /// Words that name no setting.
    Text(Cow<'static, str>),
    /// A setting's name (`--out`, `out`); a value-taking one with its placeholder when
    /// `placeholder` is given (`--out DIR`, `out=DIR`).
    Name(&'static Setting, Option<&'static str>),
    /// A setting with a value (`--games 8`, `games=8`).
    Given(&'static Setting, String),
}

/// A message that names settings, kept in pieces until an edge words it: how lab,
/// studies and report messages say "pass --resume" without knowing who asked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Said(Vec<Part>);

impl Said {
    /// A message starting with `text`.
    #[must_use]
    pub fn text(text: impl Into<Cow<'static, str>>) -> Self {
        Said(vec![Part::Text(text.into())])
    }

    /// Then `text`.
    #[must_use]
    pub fn then(mut self, text: impl Into<Cow<'static, str>>) -> Self {
        self.0.push(Part::Text(text.into()));
        self
    }

    /// Then the setting's name: `--resume`, `resume=True`.
    #[must_use]
    pub fn name(mut self, setting: &'static Setting) -> Self {
        self.0.push(Part::Name(setting, None));
        self
    }

    /// Then the setting with a placeholder for its value: `--out DIR`, `out=DIR`.
    #[must_use]
    pub fn placeholder(mut self, setting: &'static Setting, placeholder: &'static str) -> Self {
        self.0.push(Part::Name(setting, Some(placeholder)));
        self
    }

    /// Then the setting given `value`: `--games 8`, `games=8`.
    #[must_use]
    pub fn given(mut self, setting: &'static Setting, value: impl fmt::Display) -> Self {
        self.0.push(Part::Given(setting, value.to_string()));
        self
    }

    /// Then another message.
    #[must_use]
    pub fn and(mut self, other: Said) -> Self {
        self.0.extend(other.0);
        self
    }

    /// The message in `edge`'s words.
    #[must_use]
    pub fn worded(&self, edge: Edge) -> String {
        let mut out = String::new();
        for part in &self.0 {
            match part {
                Part::Text(text) => out.push_str(text),
                Part::Name(setting, None) => out.push_str(setting.name(edge)),
                Part::Name(setting, Some(_)) if setting.switch => {
                    out.push_str(setting.name(edge));
                }
                Part::Name(setting, Some(placeholder)) => {
                    out.push_str(&setting.given(edge, placeholder));
                }
                Part::Given(setting, value) => out.push_str(&setting.given(edge, value)),
            }
        }
        out
    }
}

impl From<&'static str> for Said {
    fn from(text: &'static str) -> Self {
        Said::text(text)
    }
}

/// The command line's wording, the library's default: most settings a message names
/// are flags of the command that ran.
impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.worded(Edge::Cli))
    }
}

/// What is wrong with a setting's value, as a type the edges word.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingError {
    /// A value outside `least..=most`, with the fix in words that name no setting
    /// (None: "use LEAST to MOST").
    OutOfRange {
        /// The setting.
        setting: &'static Setting,
        /// The value as given.
        value: String,
        /// The least value accepted.
        least: u64,
        /// The most accepted.
        most: u64,
        /// What to do instead, when the range alone does not say it.
        fix: Option<Cow<'static, str>>,
    },
    /// A value the setting cannot take, with why and the fix (`is odd: ...`,
    /// ` would fill the 8x8 board: use fewer`), in words that name no setting.
    Refused {
        /// The setting.
        setting: &'static Setting,
        /// The value as given.
        value: String,
        /// The rest of the sentence after the setting and its value.
        why: Cow<'static, str>,
    },
    /// A name that is not one of `known`, with the closest known one.
    Unknown {
        /// The setting.
        setting: &'static Setting,
        /// The name given.
        value: String,
        /// The names it takes.
        known: Vec<&'static str>,
    },
    /// Two settings given together where one is meant (`move_time` and `clock`).
    Conflict {
        /// The one.
        setting: &'static Setting,
        /// The other.
        other: &'static Setting,
        /// Why only one, and what to do.
        why: &'static str,
    },
    /// A setting that means nothing without one of two others (`time_margin` without a
    /// time).
    Needs {
        /// The setting given.
        setting: &'static Setting,
        /// What it is.
        what: &'static str,
        /// The settings of which one must be given too.
        either: [&'static Setting; 2],
    },
}

impl SettingError {
    /// The refusal as a message whose settings the edge names.
    #[must_use]
    pub fn said(&self) -> Said {
        match self {
            SettingError::OutOfRange {
                setting,
                value,
                least,
                most,
                fix,
            } => {
                let said = Said::default().given(setting, value);
                match fix {
                    Some(fix) => said.then(": ").then(fix.clone()),
                    None if value.parse::<u64>().is_ok_and(|v| v > *most) => {
                        said.then(format!(" is too large: use {least} to {most}"))
                    }
                    None => said.then(format!(" is out of range: use {least} to {most}")),
                }
            }
            SettingError::Refused {
                setting,
                value,
                why,
            } => Said::default().given(setting, value).then(why.clone()),
            SettingError::Unknown {
                setting,
                value,
                known,
            } => {
                let list = known.join(", ");
                let said = Said::default().given(setting, value).then(" is unknown");
                match closest(value, known.iter().copied()) {
                    Some(best) => said.then(format!(" (did you mean '{best}'? known: {list})")),
                    None => said.then(format!(" (known: {list})")),
                }
            }
            SettingError::Conflict {
                setting,
                other,
                why,
            } => Said::default()
                .name(setting)
                .then(" and ")
                .name(other)
                .then(" are both given: ")
                .then(*why),
            SettingError::Needs {
                setting,
                what,
                either: [one, two],
            } => Said::default()
                .name(setting)
                .then(format!(" is {what}, and no time is set: add "))
                .name(one)
                .then(" or ")
                .name(two)
                .then(", or leave ")
                .name(setting)
                .then(" out"),
        }
    }

    /// The setting it is about.
    #[must_use]
    pub fn setting(&self) -> &'static Setting {
        match self {
            SettingError::OutOfRange { setting, .. }
            | SettingError::Refused { setting, .. }
            | SettingError::Unknown { setting, .. }
            | SettingError::Conflict { setting, .. }
            | SettingError::Needs { setting, .. } => setting,
        }
    }
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.said().fmt(f)
    }
}

/// The closest of `known` to `unknown` by edit distance, if it is close enough
/// to be a likely typo.
#[must_use]
pub fn closest<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let known: Vec<&'a str> = known.into_iter().collect();
    // A name's first word ("games" for `games_per_pair`) is a likelier slip than
    // any name a letter or two away ("name").
    let first_word = known.iter().copied().find(|k| {
        unknown.len() >= 3
            && k.strip_prefix(unknown)
                .is_some_and(|rest| rest.starts_with('_'))
    });
    if first_word.is_some() {
        return first_word;
    }
    known
        .into_iter()
        .map(|k| (strsim::damerau_levenshtein(unknown, k), k))
        .filter(|&(d, k)| d <= 2.max(k.len() / 3))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    static GAMES: Setting = Setting::new("games_per_pair", "--games", "games");
    static RESUME: Setting = Setting::switch("--resume", "resume=True");
    static OUT: Setting = Setting::new("", "--out", "out");

    #[test]
    fn each_edge_names_a_setting_its_own_way() {
        let error = SettingError::Refused {
            setting: &GAMES,
            value: "3".into(),
            why: " is odd".into(),
        };
        assert_eq!(error.said().worded(Edge::Cli), "--games 3 is odd");
        assert_eq!(error.said().worded(Edge::Python), "games=3 is odd");
        assert_eq!(
            error.said().worded(Edge::Config),
            "games_per_pair = 3 is odd"
        );
        let said = Said::text("pass ")
            .name(&RESUME)
            .then(", or ")
            .placeholder(&OUT, "DIR");
        assert_eq!(said.worded(Edge::Cli), "pass --resume, or --out DIR");
        assert_eq!(said.worded(Edge::Python), "pass resume=True, or out=DIR");
        // A file has no `out`: the flag is what the user can give.
        assert_eq!(said.worded(Edge::Config), "pass --resume, or --out DIR");
    }

    #[test]
    fn a_range_says_its_ends() {
        let error = |value: &str| SettingError::OutOfRange {
            setting: &GAMES,
            value: value.into(),
            least: 1,
            most: 10,
            fix: None,
        };
        assert_eq!(
            error("0").to_string(),
            "--games 0 is out of range: use 1 to 10"
        );
        assert_eq!(
            error("11").to_string(),
            "--games 11 is too large: use 1 to 10"
        );
        let unknown = SettingError::Unknown {
            setting: &GAMES,
            value: "gamez".into(),
            known: vec!["games", "seed"],
        };
        assert_eq!(
            unknown.said().worded(Edge::Python),
            "games=gamez is unknown (did you mean 'games'? known: games, seed)"
        );
    }
}
