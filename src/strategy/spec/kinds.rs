//! The strategy kinds and their parameters: the keys the parser accepts, and the
//! `reversi-lab strategies` listing, whose defaults come from the parser itself.

use super::StrategySpec;
pub use crate::strategy::param_info::ParamInfo;
pub use crate::strategy::registry::KINDS;
use crate::strategy::weighted::PRESETS;
use std::fmt::Write as _;
use toml::Value;

/// One strategy kind, as the registry lists it.
#[derive(Clone, Copy, Debug)]
pub struct KindInfo {
    /// The name users write (`kind = "..."`).
    pub name: &'static str,
    /// One line on what it does.
    pub help: &'static str,
    /// Its parameters: the only keys `StrategySpec::from_table` accepts for it.
    pub params: &'static [ParamInfo],
    /// The smallest spec of it that reads (see `Kind::SAMPLE`).
    pub sample: &'static str,
    /// Whether it is also an evaluation, with a note where its value as one is not what
    /// its name says as a player (greedy's disc count): None when it is not one.
    pub evaluation: Option<&'static str>,
    /// Whether a move of it searches ahead (see `Kind::SEARCHES`).
    pub searches: bool,
}

/// How [`evaluation_names`] names the evaluations whose value as one is not what their
/// name says as a player (greedy: its disc count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Noted {
    /// Left out.
    Out,
    /// By name only.
    Bare,
    /// With what they count: `greedy (disc count)`.
    Said,
}

/// The evaluations' names for a message, `a, b, c or d`, in the listing's order with
/// the noted ones (greedy) last, leaving out `except`.
#[must_use]
pub fn evaluation_names(except: &[&str], noted: Noted) -> String {
    let keep = |k: &&KindInfo| !except.contains(&k.name);
    let plain = KINDS
        .iter()
        .filter(keep)
        .filter(|k| k.evaluation == Some(""))
        .map(|k| k.name.to_string());
    let with_note = KINDS
        .iter()
        .filter(keep)
        .filter_map(|k| match (k.evaluation, noted) {
            (Some(""), _) | (None, _) | (_, Noted::Out) => None,
            (Some(_), Noted::Bare) => Some(k.name.to_string()),
            (Some(note), Noted::Said) => Some(format!("{} ({note})", k.name)),
        });
    let names: Vec<String> = plain.chain(with_note).collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A spec of `kind` with every default: the kind alone, or for a kind with a required
/// key (an engine's command) the smallest spec that has it. For the tests that walk
/// every kind.
#[cfg(test)]
#[must_use]
pub fn sample(kind: &KindInfo) -> StrategySpec {
    StrategySpec::parse(kind.sample).unwrap_or_else(|e| panic!("kind '{}' parses: {e}", kind.name))
}

/// The kind names, in listing order.
#[must_use]
pub fn kind_names() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.name).collect()
}

/// The listing's width: lines stay below 100 columns unless one word is longer.
const WIDTH: usize = 99;
/// Defaults longer than this would push every help text right, so they take
/// the help's place and the help moves to the next line.
const LONG_DEFAULT: usize = 12;

/// Every parameter's default as the listing shows it, in `kind.params` order.
#[must_use]
pub fn defaults(kind: &KindInfo) -> Vec<String> {
    // A kind with a required key (an engine's command) describes every default in words.
    let table = StrategySpec::parse(kind.name)
        .map(|spec| spec.to_table())
        .unwrap_or_default();
    kind.params
        .iter()
        .map(|param| match (param.default_text, table.get(param.name)) {
            (Some(text), _) => text.to_string(),
            (None, Some(value)) => value_text(value),
            (None, None) => {
                unreachable!("checked by the tests: every default is in the table or described")
            }
        })
        .collect()
}

/// A default as users would write it on the command line: nested strategies as
/// one-line specs, whole floats without `.0`.
fn value_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Float(f) => format!("{f}"),
        Value::Table(table) => {
            let kind = table.get("kind").map(value_text).unwrap_or_default();
            let params: Vec<String> = table
                .iter()
                .filter(|(key, _)| *key != "kind")
                .map(|(key, value)| match value {
                    Value::Table(_) => format!("{key}=({})", value_text(value)),
                    _ => format!("{key}={}", value_text(value)),
                })
                .collect();
            if params.is_empty() {
                kind
            } else {
                format!("{kind}:{}", params.join(","))
            }
        }
        other => other.to_string(),
    }
}

/// Greedy word wrap to `width` columns; a word longer than that gets a line of its own.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Writes `text` wrapped, the first line after `first` and the rest indented to `indent`.
fn write_wrapped(out: &mut String, first: &str, indent: usize, text: &str) {
    for (i, line) in wrap(text, WIDTH.saturating_sub(indent).max(20))
        .iter()
        .enumerate()
    {
        let lead = if i == 0 {
            format!("{first:<indent$}")
        } else {
            " ".repeat(indent)
        };
        writeln!(out, "{}", format!("{lead}{line}").trim_end()).ok();
    }
}

/// The listing printed by `reversi-lab strategies`.
#[must_use]
pub fn describe_kinds() -> String {
    let defaults: Vec<Vec<String>> = KINDS.iter().map(defaults).collect();
    let kind_width = KINDS.iter().map(|k| k.name.len()).max().unwrap_or(0) + 2;
    let name_width = KINDS
        .iter()
        .flat_map(|k| k.params)
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        + 2;
    let default_width = defaults
        .iter()
        .flatten()
        .map(String::len)
        .filter(|&len| len <= LONG_DEFAULT)
        .max()
        .unwrap_or(0);
    let param_indent = 4;
    let help_column = param_indent + name_width + "default ".len() + default_width + 2;
    let mut out = String::new();
    for (kind, defaults) in KINDS.iter().zip(&defaults) {
        write_wrapped(&mut out, kind.name, kind_width, kind.help);
        for (param, default) in kind.params.iter().zip(defaults) {
            let lead = format!(
                "{:param_indent$}{:<name_width$}default {default}",
                "", param.name
            );
            if default.len() > default_width {
                writeln!(out, "{lead}").ok();
                write_wrapped(&mut out, "", help_column, param.help);
            } else {
                write_wrapped(&mut out, &lead, help_column, param.help);
            }
        }
    }
    writeln!(out).ok();
    for (first, text) in [
        (
            "In config files:",
            "{ kind = \"alphabeta\", depth = 4, eval = { kind = \"mobility\" } }".to_string(),
        ),
        (
            "On the command line:",
            "alphabeta:depth=4,eval=mobility (nested parameters in parentheses: eval=(weighted:preset=paip))"
                .to_string(),
        ),
        ("Weighted presets:", PRESETS.join(", ")),
    ] {
        write_wrapped(&mut out, &format!("{first} "), first.len() + 1, &text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::SpecError;
    use toml::Table;

    /// Values of every shape a parameter takes, for a parameter whose default is
    /// described rather than written out: the parser must take one of them. Generic,
    /// so that a new kind's parameters need no entry here.
    fn candidates() -> Vec<Value> {
        let mut values: Vec<Value> = ["greedy", "100ms", "classic", "x", "module:function"]
            .into_iter()
            .map(|text| Value::String(text.into()))
            .collect();
        values.extend([
            Value::Integer(1000),
            Value::Integer(1),
            Value::Float(0.0),
            Value::Boolean(true),
            Value::Table(Table::new()),
            Value::Array(vec![Value::Integer(0)]),
            Value::Array(Vec::new()),
        ]);
        values
    }

    #[test]
    fn the_listed_parameters_are_exactly_those_accepted() {
        for kind in KINDS {
            let defaults = super::sample(kind);
            let full = defaults.to_table();
            assert_eq!(
                StrategySpec::from_table(&full).unwrap(),
                defaults,
                "{}",
                kind.name
            );
            for param in kind.params {
                // The smallest spec (with any required key), then the parameter.
                let mut table = Table::new();
                table.insert("kind".into(), Value::String(kind.name.into()));
                for (key, value) in super::sample(kind).to_table() {
                    if kind.sample != kind.name {
                        table.insert(key, value);
                    }
                }
                let values = full
                    .get(param.name)
                    .map_or_else(candidates, |value| vec![value.clone()]);
                // Accepted as a key: one value parses, or every refusal is of the
                // value (a word of its own list, a shape no candidate has), none of
                // the key.
                let mut errors = Vec::new();
                let mut accepted = false;
                for value in values {
                    table.insert(param.name.into(), value);
                    match StrategySpec::from_table(&table) {
                        Ok(_) => accepted = true,
                        Err(e @ SpecError::UnknownParam { .. }) => errors.push(e.to_string()),
                        Err(_) => {}
                    }
                }
                let accepted = accepted || errors.is_empty();
                assert!(
                    accepted,
                    "{}.{} is listed but not accepted: {errors:?}",
                    kind.name, param.name
                );
            }
            let mut table = full.clone();
            table.insert("not_a_param".into(), Value::Integer(1));
            assert!(
                matches!(
                    StrategySpec::from_table(&table),
                    Err(SpecError::UnknownParam { .. })
                ),
                "{} accepts an unlisted key",
                kind.name
            );
        }
    }

    #[test]
    fn the_listing_keeps_its_columns() {
        let listing = describe_kinds();
        for line in listing.lines() {
            assert!(line.len() < 100, "too wide: {line}");
        }
        for expected in [
            "random",
            "minimum-disc",
            "default 4 ",
            "default -3 ",
            "default weighted ",
            "default greedy ",
            "default none ",
            "default classic (8x8), classes elsewhere\n",
            "default true for explorer, else false\n",
        ] {
            assert!(
                listing.contains(expected),
                "{expected:?} missing:\n{listing}"
            );
        }
        // Every help beside a default starts in the same column.
        let mut columns = Vec::new();
        for kind in KINDS {
            for (param, default) in kind.params.iter().zip(defaults(kind)) {
                let lead = format!("    {:<20}default {default} ", param.name);
                if let Some(line) = listing.lines().find(|l| l.starts_with(&lead)) {
                    columns.push(line.len() - line[lead.len()..].trim_start().len());
                }
            }
        }
        assert!(columns.len() > 20, "{columns:?}");
        assert!(
            columns.iter().all(|&c| c == columns[0]),
            "{columns:?}\n{listing}"
        );
    }

    #[test]
    fn wrapping_keeps_words_whole() {
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
        assert_eq!(wrap("", 4), [""]);
        assert_eq!(wrap("abcdef g", 4), ["abcdef", "g"]);
    }
}
