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
                $field:ident: $ty:ty = $default:expr => $help:literal $((default $text:literal))?
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
