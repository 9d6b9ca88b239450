//! A strategy parameter's description (`ParamInfo`) and `params!`, which declares a
//! kind's parameter struct from one list: below both the spec parser and the kinds
//! that declare their parameters beside their code (the engine), so neither imports
//! the other for it.

/// One parameter of a strategy kind, for validation and `reversi-lab strategies`.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// The key users write.
    pub name: &'static str,
    /// What it does.
    pub help: &'static str,
    /// The default in words, only where it is not a plain value in the default
    /// spec (it depends on other parameters, or is absence). Plain defaults are
    /// read from the parser's own defaults, so the listing cannot disagree with them.
    pub default_text: Option<&'static str>,
    /// The values its type takes (from the field's type): checked before serde reads
    /// the value, so a refusal is the parser's own, worded from this.
    pub shape: Shape,
    /// The whole numbers it takes, where declared beside it (`range 1..=60`).
    pub range: Option<(i64, i64)>,
}

/// The TOML values a parameter's type reads, and what to write instead in words.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// What it takes (`a whole number of at least 0`); None where the type words its
    /// own refusals (a nested strategy, an engine's command).
    pub wanted: Option<&'static str>,
    /// Whether a value has the type's shape.
    pub accepts: fn(&toml::Value) -> bool,
    /// Whether it is a time, whose zero is refused as leaving no time rather than as
    /// not being one.
    pub time: bool,
}

/// A parameter type's [`Shape`].
pub trait Shaped {
    /// Its shape.
    const SHAPE: Shape;
}

fn any(_: &toml::Value) -> bool {
    true
}

/// A type whose own reading words every refusal.
pub const OWN_WORDS: Shape = Shape {
    wanted: None,
    accepts: any,
    time: false,
};

macro_rules! shaped {
    ($($ty:ty => $wanted:expr, $accepts:expr $(, $time:ident)?;)*) => {
        $(impl Shaped for $ty {
            const SHAPE: Shape = Shape {
                wanted: $wanted,
                accepts: $accepts,
                time: shaped!(@time $($time)?),
            };
        })*
    };
    (@time) => { false };
    (@time time) => { true };
}

/// A time of more than nothing, as a config writes it (the shape of every time
/// parameter, so that its refusal names its own key).
fn is_time(value: &toml::Value) -> bool {
    value
        .as_str()
        .and_then(crate::strategy::clock::parse_time)
        .is_some_and(|time| !time.is_zero())
}

/// Whether `value` is a time of nothing (`0ms`): a time, refused for leaving none.
#[must_use]
pub fn is_zero_time(value: &toml::Value) -> bool {
    value
        .as_str()
        .and_then(crate::strategy::clock::parse_time)
        .is_some_and(|time| time.is_zero())
}

/// A list of text items.
fn is_words(value: &toml::Value) -> bool {
    value
        .as_array()
        .is_some_and(|items| items.iter().all(toml::Value::is_str))
}

/// A table of text values.
fn is_text_table(value: &toml::Value) -> bool {
    value
        .as_table()
        .is_some_and(|table| table.values().all(toml::Value::is_str))
}

fn whole<T: TryFrom<i64>>(value: &toml::Value) -> bool {
    value.as_integer().is_some_and(|i| T::try_from(i).is_ok())
}

shaped! {
    u32 => Some("a whole number of at least 0"), whole::<u32>;
    u64 => Some("a whole number of at least 0"), whole::<u64>;
    i32 => Some("a whole number"), whole::<i32>;
    f64 => Some("a number"), |v| v.is_integer() || v.is_float();
    bool => Some("true or false"), toml::Value::is_bool;
    String => Some("text in quotes"), toml::Value::is_str;
    std::path::PathBuf => Some("text in quotes"), toml::Value::is_str;
    std::time::Duration => Some("a positive time of at most a day with its unit, such as 100ms or 2s (in quotes in a TOML file: \"100ms\")"), is_time, time;
    Vec<String> => Some("a list of text in brackets, such as [\"a\", \"b\"]"), is_words;
    std::collections::BTreeMap<String, String> => Some("a table of text in braces, such as { key = \"value\" }"), is_text_table;
    toml::Table => Some("a table in braces, such as { key = 1 }"), toml::Value::is_table;
}

impl<T: Shaped> Shaped for Option<T> {
    const SHAPE: Shape = T::SHAPE;
}

impl<T: Shaped> Shaped for Box<T> {
    const SHAPE: Shape = T::SHAPE;
}

/// Words for the whole numbers from `low` to `high`.
#[must_use]
pub fn whole_numbers(low: i64, high: i64) -> String {
    if no_practical_end(high) {
        format!("a whole number of at least {low}")
    } else {
        format!("a whole number from {low} to {high}")
    }
}

/// Whether `high` is only a type's largest value (`u32::MAX`, `i64::MAX`), which a
/// message leaves unsaid, rather than a declared end (10^12 games).
#[must_use]
pub fn no_practical_end(high: i64) -> bool {
    high == i64::from(u32::MAX) || high == i64::MAX
}

/// Declares a kind's parameter struct from one list of fields, each
/// `name: Type = default => "help"`, after any serde attributes, and followed by
/// `(default "words")` where the listing describes the default instead of showing
/// the value (it depends on other parameters, or is absence).
///
/// The struct refuses unknown keys and fills a missing one from `Default`, which is
/// built from the same defaults; `PARAMS` names each parameter after its field, so
/// the key users write, the field and the listing's name cannot differ.
macro_rules! params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$attr:meta])*
                $field:ident: $ty:ty = $default:expr $(, range $range:expr)? => $help:literal $((default $text:literal))?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
        #[serde(deny_unknown_fields, default)]
        pub struct $name {
            $(
                #[doc = $help]
                $(#[$attr])*
                pub $field: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    $($field: $default,)*
                }
            }
        }

        impl $name {
            /// Its parameters in field order: the keys the parser accepts, and the listing.
            pub const PARAMS: &'static [$crate::strategy::param_info::ParamInfo] = &[$(
                $crate::strategy::param_info::ParamInfo {
                    name: stringify!($field),
                    help: $help,
                    default_text: params!(@described $($text)?),
                    shape: <$ty as $crate::strategy::param_info::Shaped>::SHAPE,
                    range: params!(@range $($range)?),
                },
            )*];
        }
    };
    (@described) => {
        None
    };
    (@described $text:literal) => {
        Some($text)
    };
    (@range) => {
        None
    };
    (@range $range:expr) => {
        Some((*$range.start() as i64, *$range.end() as i64))
    };
}

pub(crate) use params;

/// The parameters of several lists as one array, for a kind whose parameter struct
/// flattens others; `N` must be their total length (checked when compiled, since
/// it is called in constants).
#[must_use]
pub const fn concat<const N: usize>(lists: &[&[ParamInfo]]) -> [ParamInfo; N] {
    let blank = ParamInfo {
        name: "",
        help: "",
        default_text: None,
        shape: OWN_WORDS,
        range: None,
    };
    let mut out = [blank; N];
    let mut at = 0;
    let mut list = 0;
    while list < lists.len() {
        let mut i = 0;
        while i < lists[list].len() {
            out[at] = lists[list][i];
            at += 1;
            i += 1;
        }
        list += 1;
    }
    assert!(at == N, "concat: N is not the lists' total length");
    out
}
