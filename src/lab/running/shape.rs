//! The shape a config type declares to serde (its tables' keys, each value's type),
//! read once from the type itself, and a config's text checked against it before
//! serde reads it: an unknown key or a value of the wrong type is refused as a typed
//! [`Misfit`] at its line, instead of by taking serde's English message apart.

use serde::de::{self, DeserializeOwned, Visitor};
use std::collections::BTreeMap;
use std::fmt;
use toml::Spanned;

/// What a value of a config must be, as its type tells serde.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A table with these keys (a struct), the shapes of their values, and the keys
    /// it cannot do without (as far as they are known: see [`Shape::of`]).
    Table(
        &'static [&'static str],
        BTreeMap<&'static str, Shape>,
        Vec<&'static str>,
    ),
    /// A table of any keys, each value of one shape.
    Map(Box<Shape>),
    /// A list, each item of one shape.
    List(Box<Shape>),
    /// A whole number from `least` to `most`.
    Whole(i128, i128),
    /// A number, whole or not.
    Number,
    /// `true` or `false`.
    Bool,
    /// Text.
    Text,
    /// One of these names.
    Name(&'static [&'static str]),
    /// Anything: the type reads it its own way (and says what is wrong itself).
    Any,
}

impl Shape {
    /// The shape of `T`, as its `Deserialize` declares it.
    #[must_use]
    pub fn of<T: DeserializeOwned>() -> Shape {
        probe::shape_at::<T>(&mut Vec::new())
    }

    /// Checks `value`, the value of `key` (a config's text read keeping positions),
    /// against the shape; the first misfit, with the byte offset it is at.
    #[must_use]
    pub fn misfit(&self, key: &str, value: &Spanned<Node>) -> Option<(usize, Misfit)> {
        let at = value.span().start;
        let shown = || value.get_ref().shown();
        let wrong = |wanted: &'static str| {
            Some((
                at,
                Misfit::Wrong {
                    key: key.to_string(),
                    value: shown(),
                    wanted,
                },
            ))
        };
        let scalar = matches!(
            value.get_ref(),
            Node::Integer(_) | Node::Float(_) | Node::Bool(_) | Node::Text(_)
        );
        match (self, value.get_ref()) {
            (Shape::Any, _) => None,
            (Shape::Table(keys, inner, required), Node::Table(entries)) => {
                let table = key;
                entries
                    .iter()
                    .find_map(|(key, value)| match inner.get(key.get_ref().as_str()) {
                        Some(shape) => shape.misfit(key.get_ref(), value),
                        None if keys.contains(&key.get_ref().as_str()) => None,
                        None => Some((
                            key.span().start,
                            Misfit::UnknownKey {
                                key: key.get_ref().clone(),
                                within: format!("[{table}]"),
                                known: keys.to_vec(),
                            },
                        )),
                    })
                    .or_else(|| {
                        let table = format!("[{table}]");
                        Misfit::missing(required, entries, &table, &table)
                            .map(|missing| (at, missing))
                    })
            }
            (Shape::Table(keys, inner, _), _) if scalar => Some((
                at,
                Misfit::NotATable {
                    key: key.to_string(),
                    value: shown(),
                    keys,
                    // A value one of the table's keys takes (`rules = "count"` for
                    // `[rules] scoring = "count"`): where it was likely meant.
                    meant: inner.iter().find_map(|(inner_key, shape)| match shape {
                        Shape::Name(names)
                            if matches!(value.get_ref(), Node::Text(t) if names.contains(&t.as_str())) =>
                        {
                            Some(*inner_key)
                        }
                        _ => None,
                    }),
                },
            )),
            (Shape::Map(inner), Node::Table(entries)) => entries
                .iter()
                .find_map(|(key, value)| inner.misfit(key.get_ref(), value)),
            (Shape::Map(_), _) if scalar => wrong("a table in braces, such as { key = 1 }"),
            (Shape::List(inner), Node::List(items)) => {
                items.iter().find_map(|i| inner.misfit(key, i))
            }
            (Shape::List(inner), _) if scalar => Some((
                at,
                Misfit::NotAList {
                    key: key.to_string(),
                    value: shown(),
                    of_tables: match **inner {
                        Shape::Table(keys, ..) => Some(keys),
                        _ => None,
                    },
                },
            )),
            // A table where a list belongs (or the other way round) is left to the
            // type, which may say it in its own words (`[players]` for `[[players]]`).
            (Shape::Table(..) | Shape::Map(_) | Shape::List(_), _) => None,
            (&Shape::Whole(least, most), &Node::Integer(i))
                if least <= i128::from(i) && i128::from(i) <= most =>
            {
                None
            }
            (&Shape::Whole(least, most), &Node::Float(x)) => Some((
                at,
                Misfit::NotWhole {
                    key: key.to_string(),
                    value: shown(),
                    whole: (x.fract() == 0.0 && (least as f64..=most as f64).contains(&x))
                        .then_some(x as i64),
                },
            )),
            (&Shape::Whole(least, _), _) if least < 0 => wrong("a whole number"),
            (Shape::Whole(..), _) => wrong("a whole number of at least 0"),
            (Shape::Number, Node::Integer(_) | Node::Float(_)) => None,
            (Shape::Number, _) => wrong("a number"),
            (Shape::Bool, Node::Bool(_)) => None,
            (Shape::Bool, _) => wrong("true or false"),
            (Shape::Text, Node::Text(_)) => None,
            // A bare number is seconds to a time's parser: the unit is what was missing.
            (Shape::Text, Node::Integer(_) | Node::Float(_)) if is_time(key) => {
                wrong("a time in quotes with its unit, such as \"100ms\" or \"2s\"")
            }
            (Shape::Text, _) => wrong("text in quotes"),
            (Shape::Name(names), Node::Text(name)) if names.contains(&name.as_str()) => None,
            (Shape::Name(names), Node::Text(name)) => Some((
                at,
                Misfit::UnknownName {
                    key: key.to_string(),
                    name: name.clone(),
                    known: names,
                },
            )),
            (Shape::Name(_), _) => wrong("text in quotes"),
        }
    }
}

/// What is wrong with a config's value, found before serde reads it. Each names the
/// key the value is given to (empty for a whole file's table).
#[derive(Clone, Debug, PartialEq)]
pub enum Misfit {
    /// A key its table does not have.
    UnknownKey {
        /// The key.
        key: String,
        /// The table it is in, as a message names it: `[players]`, `the experiment`.
        within: String,
        /// The keys the table has.
        known: Vec<&'static str>,
    },
    /// A name that is not one of the names the value takes.
    UnknownName {
        /// The key.
        key: String,
        /// The name.
        name: String,
        /// The names it takes.
        known: &'static [&'static str],
    },
    /// A value of the wrong type.
    Wrong {
        /// The key.
        key: String,
        /// The value as written.
        value: String,
        /// What to write instead.
        wanted: &'static str,
    },
    /// A fraction or exponent where a whole number belongs (`size = 8.0`).
    NotWhole {
        /// The key.
        key: String,
        /// The value as written.
        value: String,
        /// The whole number it equals, when the key takes that one.
        whole: Option<i64>,
    },
    /// One value where a table belongs (`rules = "count"`).
    NotATable {
        /// The key.
        key: String,
        /// The value as written.
        value: String,
        /// The table's keys.
        keys: &'static [&'static str],
        /// The table's key that takes this value, where one does.
        meant: Option<&'static str>,
    },
    /// A table without a key it needs (`[[players]]` with no `strategy`).
    Missing {
        /// The key.
        key: &'static str,
        /// The table, as a message names it: `[players]`, `the experiment`.
        within: String,
        /// What every such table is, for the rule: `[players]`, `experiment`.
        every: String,
        /// Every key the table needs.
        required: Vec<&'static str>,
    },
    /// One value where a list belongs (`challengers = "a"`).
    NotAList {
        /// The key.
        key: String,
        /// The value as written.
        value: String,
        /// The keys of each item, when the items are tables (`players = 3`).
        of_tables: Option<&'static [&'static str]>,
    },
}

impl Misfit {
    /// The first of `required` that `entries` lack, as a misfit of the table `within`
    /// (one of the tables `every` names).
    #[must_use]
    pub fn missing(
        required: &[&'static str],
        entries: &[(Spanned<String>, Spanned<Node>)],
        within: &str,
        every: &str,
    ) -> Option<Misfit> {
        let key = required
            .iter()
            .find(|&&key| !entries.iter().any(|(k, _)| k.get_ref() == key))?;
        Some(Misfit::Missing {
            key,
            within: within.to_string(),
            every: every.to_string(),
            required: required.to_vec(),
        })
    }
}

impl fmt::Display for Misfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let one_of = |names: &[&str]| match names {
            [] => String::new(),
            [one] => format!("`{one}`"),
            [one, two] => format!("`{one}` or `{two}`"),
            more => format!(
                "one of {}",
                more.iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let guess = |given: &str, known: &[&'static str]| {
            crate::setting::closest(given, known.iter().copied())
                .map(|best| format!(" (did you mean `{best}`?)"))
                .unwrap_or_default()
        };
        // `key = value`, or the value alone where no key names it.
        let given = |key: &str, value: &str| {
            if key.is_empty() {
                value.to_string()
            } else {
                format!("{key} = {value}")
            }
        };
        match self {
            Misfit::UnknownKey { key, within, known } if known.is_empty() => {
                write!(f, "unknown key `{key}` in {within}, which takes no keys")
            }
            Misfit::UnknownKey { key, within, known } => {
                write!(f, "unknown key `{key}` in {within}")?;
                if let Some(best) = crate::setting::closest(key, known.iter().copied()) {
                    write!(f, "; did you mean `{best}`?")?;
                }
                let listed: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
                write!(f, " (known keys: {})", listed.join(", "))
            }
            Misfit::UnknownName { key, name, known } => write!(
                f,
                "{} is unknown: use {}{}",
                given(key, &toml::Value::String(name.clone()).to_string()),
                one_of(known),
                guess(name, known)
            ),
            Misfit::Wrong { key, value, wanted } => {
                write!(
                    f,
                    "{} is not accepted here: use {wanted}",
                    given(key, value)
                )
            }
            Misfit::NotWhole {
                key,
                value,
                whole: Some(whole),
            } => write!(
                f,
                "{} is not written as a whole number: write it as one, such as {}",
                given(key, value),
                given(key, &whole.to_string())
            ),
            Misfit::NotWhole {
                key,
                value,
                whole: None,
            } => write!(
                f,
                "{} is not a whole number: use a whole number",
                given(key, value)
            ),
            Misfit::NotATable {
                key,
                value,
                keys,
                meant,
            } => {
                write!(
                    f,
                    "{} is not accepted here: `{key}` is a table, written [{key}], with the keys {}",
                    given(key, value),
                    keys.iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )?;
                match meant {
                    Some(meant) => write!(f, " (did you mean [{key}] {meant} = {value}?)"),
                    None => Ok(()),
                }
            }
            Misfit::NotAList {
                key,
                value,
                of_tables: None,
            } => write!(
                f,
                "{} is not accepted here: use a list in brackets, such as {}",
                given(key, value),
                given(key, &format!("[{value}]"))
            ),
            Misfit::Missing {
                key,
                within,
                every,
                required,
            } => {
                let all = required
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>();
                let all = match all.split_last() {
                    Some((last, [])) => last.clone(),
                    Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                    None => String::new(),
                };
                write!(f, "{within} has no `{key}`: add it (every {every} needs {all})")
            }
            // `[3]` would be no better: each item is a table of its own.
            Misfit::NotAList {
                key,
                value,
                of_tables: Some(keys),
            } => write!(
                f,
                "{} is not accepted here: `{key}` is a list of tables, each written [[{key}]] with the keys {}",
                given(key, value),
                keys.iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// Whether `key` takes a time (`move_time`, `clock`, `time_margin`).
fn is_time(key: &str) -> bool {
    use crate::strategy::clock::{CLOCK, MARGIN, MOVE_TIME};
    [&MOVE_TIME, &CLOCK, &MARGIN].iter().any(|s| s.key == key)
}

/// A config's text as read keeping every key's and value's position.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// A table.
    Table(Vec<(Spanned<String>, Spanned<Node>)>),
    /// A list.
    List(Vec<Spanned<Node>>),
    /// A whole number.
    Integer(i64),
    /// A number with a fraction (or NaN, an infinity).
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// Text, or a date.
    Text(String),
}

impl Node {
    /// The value as a message shows it: text in quotes, a long number in exponent form.
    fn shown(&self) -> String {
        match self {
            Node::Table(_) => "a table".into(),
            Node::List(_) => "a list".into(),
            Node::Integer(i) => i.to_string(),
            Node::Float(x) if x.is_nan() => "NaN".into(),
            Node::Float(x) if format!("{x:?}").len() > 12 => crate::numbers::plain(*x),
            // `{:?}` keeps a whole float's `.0`: `8.0`, not the `8` it is not.
            Node::Float(x) => format!("{x:?}"),
            Node::Bool(b) => b.to_string(),
            Node::Text(text) => toml::Value::String(text.clone()).to_string(),
        }
    }
}

impl<'de> de::Deserialize<'de> for Node {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NodeVisitor;
        impl<'de> Visitor<'de> for NodeVisitor {
            type Value = Node;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a TOML value")
            }
            fn visit_bool<E>(self, b: bool) -> Result<Node, E> {
                Ok(Node::Bool(b))
            }
            fn visit_i64<E>(self, i: i64) -> Result<Node, E> {
                Ok(Node::Integer(i))
            }
            fn visit_u64<E: de::Error>(self, u: u64) -> Result<Node, E> {
                i64::try_from(u)
                    .map(Node::Integer)
                    .map_err(|_| E::custom("the number is too large"))
            }
            fn visit_f64<E>(self, x: f64) -> Result<Node, E> {
                Ok(Node::Float(x))
            }
            fn visit_str<E>(self, s: &str) -> Result<Node, E> {
                Ok(Node::Text(s.to_string()))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Node::List(items))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut entries: Vec<(Spanned<String>, Spanned<Node>)> = Vec::new();
                while let Some(key) = map.next_key::<Spanned<String>>()? {
                    let value = map.next_value()?;
                    entries.push((key, value));
                }
                // A date comes as a table of one private key: it is text here.
                if let [(key, value)] = entries.as_slice() {
                    if key.get_ref().starts_with("$__toml_private") {
                        return Ok(value.get_ref().clone());
                    }
                }
                Ok(Node::Table(entries))
            }
        }
        deserializer.deserialize_any(NodeVisitor)
    }
}

mod probe;

#[cfg(test)]
mod tests;
