//! Reading a config file whose top level is the shared [`SetupFile`] plus a file
//! type's own keys, with every error located at its file, line and column.
//!
//! serde's `flatten` would merge the two but loses the position of every error
//! inside the flattened part and cannot deny unknown keys; so each part is read
//! from the text on its own, and the top-level keys are checked here against the
//! field names both types declare.

use super::setup::SetupFile;
use super::shape::{Misfit, Node, Shape};
use crate::error::{Error, Result, Source};
use crate::setting::{Edge, Setting};
use crate::strategy::spec::non_finite;
use serde::de::{self, DeserializeOwned, IgnoredAny, Visitor};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

/// A config's own part together with the shared setup: reads with [`read_config`],
/// writes (for `run.toml`) as one flat table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WithSetup<T> {
    /// The shared part.
    #[serde(flatten)]
    pub setup: SetupFile,
    /// The file type's own part.
    #[serde(flatten)]
    pub own: T,
}

/// Reads `source` as a `T` (whose struct must not deny unknown fields: the setup's
/// keys sit beside its own) plus the shared setup. Unknown top-level keys are
/// refused at their position with the closest known key.
pub fn read_config<T: DeserializeOwned>(source: &Source<'_>) -> Result<WithSetup<T>> {
    let wholes: Vec<&Setting> = WHOLE.iter().map(|&(_, setting)| setting).collect();
    let source = &Source {
        wholes: &wholes,
        ..*source
    };
    let keys: BTreeMap<Spanned<String>, IgnoredAny> =
        toml::from_str(source.text).map_err(|e| source.toml_error(&e))?;
    let document: toml::Table = toml::from_str(source.text).map_err(|e| source.toml_error(&e))?;
    let own_fields = field_names::<T>();
    let has = |key: &str| keys.keys().any(|k| k.get_ref() == key);
    let this = kind_of(|key| own_fields.contains(&key));
    let that = kind_of(has);
    // `[[player]]` in an experiment is a slip for `[[players]]`, not an ablation's one
    // `[player]` (which is a table, not a list of them).
    if let (Some((_, "experiment", _)), Some(toml::Value::Array(_))) =
        (this, document.get("player"))
    {
        let at = keys
            .keys()
            .find(|k| k.get_ref() == "player")
            .map(|k| k.span().start);
        return Err(source.error(
            at,
            "[[player]] is not an experiment's table: write each player as [[players]] (an ablation file has one [player])",
        ));
    }
    if let (Some(this), Some((that_kind, _, command))) = (this, that) {
        if this.0 != that_kind {
            return Err(source.error(
                None,
                &format!(
                    "this is {that_kind} file, not {}: use `reversi-lab {command} {}`",
                    this.0, source.origin
                ),
            ));
        }
    }
    let mut known: Vec<&'static str> = own_fields.to_vec();
    known.extend(field_names::<SetupFile>());
    if let Some(key) = keys.keys().find(|k| !known.contains(&k.get_ref().as_str())) {
        let misfit = Misfit::UnknownKey {
            key: key.get_ref().clone(),
            within: within(this),
            known: known.clone(),
        };
        return Err(source.error(Some(key.span().start), &misfit.to_string()));
    }
    // The settings that take whole numbers are checked here, before serde, so that a
    // refusal names the key and its range (serde would say "expected u64").
    for (table, setting) in WHOLE {
        let within = match table {
            Some(name) => document.get(name).and_then(toml::Value::as_table),
            None => Some(&document),
        };
        let Some(value) = within.and_then(|t| t.get(setting.key)) else {
            continue;
        };
        let most = setting.whole.map_or(u64::MAX, |(_, most)| most);
        let fits = value
            .as_integer()
            .and_then(|i| u64::try_from(i).ok())
            .is_some_and(|i| i <= most);
        if !fits {
            let at = keys
                .keys()
                .find(|k| k.get_ref() == table.unwrap_or(setting.key))
                .map(|k| k.span().start);
            let wanted = setting.whole_words().unwrap_or_default();
            let least = setting.whole.map_or(0, |(least, _)| least);
            let message = match value.as_float() {
                // `1e3` is a number with a fraction to TOML: said so, not as the whole
                // number it looks like.
                Some(x) if x.fract() == 0.0 && (least as f64..=most as f64).contains(&x) => {
                    super::shape::Misfit::NotWhole {
                        key: setting.key.to_string(),
                        value: shown(value),
                        whole: Some(x as i64),
                    }
                    .to_string()
                }
                _ => format!(
                    "{} is not accepted: use {wanted}",
                    setting.given(Edge::Config, &shown(value))
                ),
            };
            return Err(source.error(at, &message));
        }
    }
    // The board size is one of a few numbers, which its type (u32) does not say: a
    // value that is no number at all is told them (a number is checked by its own).
    if let Some(value) = document
        .get("size")
        .filter(|v| !matches!(v, toml::Value::Integer(_) | toml::Value::Float(_)))
    {
        let at = keys
            .keys()
            .find(|k| k.get_ref() == "size")
            .map(|k| k.span().start);
        let message = format!(
            "size = {} is not accepted: use a board size, one of {}, written as a number (size = 8)",
            shown(value),
            super::setup::size_words()
        );
        return Err(source.error(at, &message));
    }
    // Keys and values inside tables are checked against what the types declare, so
    // that a refusal is typed rather than serde's English.
    let shapes = [Shape::of::<T>(), Shape::of::<SetupFile>()];
    let node: Spanned<Node> = toml::from_str(source.text).map_err(|e| source.toml_error(&e))?;
    if let Node::Table(entries) = node.get_ref() {
        for (key, value) in entries {
            let shape = shapes.iter().find_map(|shape| match shape {
                Shape::Table(_, inner, _) => inner.get(key.get_ref().as_str()),
                _ => None,
            });
            if let Some((at, misfit)) = shape.and_then(|shape| shape.misfit(key.get_ref(), value)) {
                return Err(source.error(Some(at), &misfit.to_string()));
            }
        }
        let every = this.map_or("file", |(_, kind, _)| kind);
        for shape in &shapes {
            if let Shape::Table(_, _, required) = shape {
                if let Some(misfit) = Misfit::missing(required, entries, &within(this), every) {
                    return Err(source.error(None, &misfit.to_string()));
                }
            }
        }
    }
    // A NaN or infinity left in a number that may be fractional is refused as not finite.
    let not_finite = non_finite(&document, "");
    let own: T = toml::from_str(source.text).map_err(|e| source.toml_error(&e))?;
    let setup: SetupFile = toml::from_str(source.text).map_err(|e| source.toml_error(&e))?;
    if let Some((key, value)) = not_finite {
        return Err(source.error(
            None,
            &format!("{key} = {value} is not a finite number: use an ordinary number such as 1.5"),
        ));
    }
    Ok(WithSetup { setup, own })
}

/// The file's top table as a message names it: `the experiment`, `the sweep`.
fn within(kind: Option<(&str, &str, &str)>) -> String {
    kind.map_or_else(|| "the file".into(), |(_, kind, _)| format!("the {kind}"))
}

/// The settings that take whole numbers, and the table each sits in (None: the top).
const WHOLE: [(Option<&str>, &Setting); 4] = [
    (None, &super::setup::SEED),
    (None, &super::setup::THREADS),
    (None, &super::setup::GAMES_PER_PAIR),
    (Some("openings"), &super::setup::RANDOM_PLIES),
];

/// A value as a message shows it: text in quotes, NaN as Rust writes it, a long
/// number in exponent form.
fn shown(value: &toml::Value) -> String {
    match value {
        toml::Value::Float(x) if x.is_nan() => "NaN".to_string(),
        toml::Value::Float(x) if format!("{x:?}").len() > 12 => crate::numbers::plain(*x),
        toml::Value::Float(x) => format!("{x:?}"),
        other => other.to_string(),
    }
}

/// Reads the config file at `path` and hands its text to `parse` with the name
/// errors use and the folder its relative paths start from.
pub fn load<T>(path: &Path, parse: impl FnOnce(&str, &str, &Path) -> Result<T>) -> Result<T> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::unreadable(path, &e))?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    parse(&text, &path.display().to_string(), &base)
}

/// A bad-input error prefixed with the file it is about, its settings named by the
/// file's keys and, for a refused setting, at the line and column of its key (other
/// errors pass through).
#[must_use]
pub fn in_file(source: &Source<'_>, error: Error) -> Error {
    let at = match &error {
        Error::Setting(refused) => key_at(source.text, refused.setting().key),
        _ => None,
    };
    match error.in_words(Edge::Config) {
        Error::Input(message) => source.error(at, &message),
        other => other,
    }
}

/// Where `key` is written in a config's text: at the top, else in the first table
/// that has it (`random_plies` under `[openings]`); None where it is not written.
fn key_at(text: &str, key: &str) -> Option<usize> {
    if key.is_empty() {
        return None;
    }
    let node: Spanned<Node> = toml::from_str(text).ok()?;
    let Node::Table(entries) = node.get_ref() else {
        return None;
    };
    let here = entries.iter().find(|(k, _)| k.get_ref() == key);
    let within = || {
        entries.iter().find_map(|(_, value)| match value.get_ref() {
            Node::Table(inner) => inner.iter().find(|(k, _)| k.get_ref() == key),
            _ => None,
        })
    };
    here.or_else(within).map(|(k, _)| k.span().start)
}

/// Refuses to shard anything but an experiment with `run --shard`: a sweep or an
/// ablation shards through its own command, and a tune does not shard. `out` is the
/// `--out` given, which the hint keeps so that the study's shards land where its
/// merge looks.
pub fn check_shardable(path: &Path, out: Option<&Path>) -> Result<()> {
    let out = out.map_or(String::new(), |o| format!(" --out {}", o.display()));
    match shard_command(path, "--shard")? {
        "run" => Ok(()),
        command => Err(Error::input(format!(
            "{}: this is {} file, not an experiment: play its shards with `reversi-lab {command} {} --shard I/N{out}` and join them with `reversi-lab {command} {} --merge{out}`",
            path.display(),
            if command == "sweep" { "a sweep" } else { "an ablation" },
            path.display(),
            path.display()
        ))),
    }
}

/// The command that plays shards of the file at `path` and merges them: `run` for an
/// experiment, `sweep` and `ablate` for theirs; a tune file does not shard, refused in
/// one line naming what to do (docs/cluster.md). `how` is what asked (`cluster slurm`).
pub fn shard_command(path: &Path, how: &str) -> Result<&'static str> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok("run"); // The experiment's loading says what is wrong with the file.
    };
    let Ok(keys) = toml::from_str::<toml::Table>(&text) else {
        return Ok("run");
    };
    match kind_of(|key| keys.contains_key(key)) {
        Some((kind, _, command)) if command == "tune" => Err(Error::input(format!(
            "{}: {how} plays shards of an experiment, a sweep or an ablation, but this is {kind} file, which does not shard (each step needs the last one's games): run `reversi-lab {command} {}` on one machine (docs/cluster.md says what shards)",
            path.display(),
            path.display()
        ))),
        Some((_, _, command)) => Ok(command),
        None => Ok("run"),
    }
}

/// A kind of config file: with its article (`an experiment`), alone (`experiment`),
/// and the command that reads it.
type FileKind = (&'static str, &'static str, &'static str);

fn kind_of(has: impl Fn(&str) -> bool) -> Option<FileKind> {
    if has("iterations") || has("params") {
        Some(("a tune", "tune", "tune"))
    } else if has("players") {
        Some(("an experiment", "experiment", "run"))
    } else if has("player") {
        Some(("an ablation", "ablation", "ablate"))
    } else if has("sweep") {
        Some(("a sweep", "sweep", "sweep"))
    } else {
        None
    }
}

/// The field names a derived `Deserialize` struct declares, read from the list it
/// hands to `deserialize_struct`.
#[must_use]
pub fn field_names<T: DeserializeOwned>() -> &'static [&'static str] {
    struct Names(Option<&'static [&'static str]>);
    #[derive(Debug)]
    struct Stop;
    impl std::fmt::Display for Stop {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("stop")
        }
    }
    impl std::error::Error for Stop {}
    impl de::Error for Stop {
        fn custom<M: std::fmt::Display>(_: M) -> Self {
            Stop
        }
    }
    impl<'de> de::Deserializer<'de> for &mut Names {
        type Error = Stop;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
            Err(Stop)
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Stop> {
            self.0 = Some(fields);
            Err(Stop)
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map enum identifier ignored_any
        }
    }
    let mut names = Names(None);
    let _ = T::deserialize(&mut names);
    names.0.unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, Serialize, PartialEq)]
    struct Own {
        name: String,
        #[serde(default)]
        games: u64,
    }

    fn read(text: &str) -> Result<WithSetup<Own>> {
        read_config(&Source::new("t.toml", text))
    }

    #[test]
    fn both_parts_and_located_errors() {
        let c = read("name = \"a\"\nseed = 3\ngames = 4\n[rules]\nanti = true\n").unwrap();
        assert_eq!((c.own.games, c.setup.seed, c.setup.size), (4, 3, 8));
        assert!(c.setup.rules.anti);
        let err = read("name = \"a\"\ngams = 4\n").unwrap_err().to_string();
        assert!(
            err.starts_with(
                "t.toml:2:1: unknown key `gams` in the file; did you mean `games`? (known keys: `name`, `games`, `seed`, "
            ),
            "{err}"
        );
        let err = read("name = \"a\"\nseed = -3\n").unwrap_err().to_string();
        assert_eq!(
            err,
            "t.toml:2:1: seed = -3 is not accepted: use a whole number of at least 0"
        );
        let err = read("name = \"a\"\n[rules]\nanty = true\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("t.toml:3:1: unknown key `anty` in [rules]; did you mean `anti`?"),
            "{err}"
        );
        // A NaN where a whole number belongs is told what the key takes.
        let err = read("name = \"a\"\nseed = nan\n").unwrap_err().to_string();
        assert_eq!(
            err,
            "t.toml:2:1: seed = NaN is not accepted: use a whole number of at least 0"
        );
        // A setting's range is the one worded (issue 52 item 35).
        let err = read("name = \"a\"\nthreads = \"4\"\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "t.toml:2:1: threads = \"4\" is not accepted: use a whole number from 1 to 1024"
        );
        let err = read("name = \"a\"\n[openings]\nrandom_plies = -2\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "t.toml:2:2: random_plies = -2 is not accepted: use a whole number of at least 0"
        );
        // Written back, both parts make one flat table.
        let text = toml::to_string(&c).unwrap();
        assert!(
            text.contains("name = \"a\"") && text.contains("seed = 3"),
            "{text}"
        );
    }
}
