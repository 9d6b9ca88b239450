//! The shape check's tests: each config type's shape read from its serde declaration,
//! and the typed refusals a config gets before serde reads it.

use super::*;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Inner {
    anti: bool,
    size: u32,
}

#[derive(Deserialize)]
#[allow(dead_code)]
enum Format {
    #[serde(rename = "round-robin")]
    RoundRobin,
    #[serde(rename = "gauntlet")]
    Gauntlet,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Outer {
    name: String,
    rules: Option<Inner>,
    players: Vec<Spanned<Inner>>,
    format: Format,
    ratio: f64,
}

/// As a config file is checked: each top-level key's value against its shape (the
/// top table's own needs are the file's, said without a position).
fn misfit(text: &str) -> Option<String> {
    let node: Spanned<Node> = toml::from_str(text).unwrap();
    let (Shape::Table(_, inner, _), Node::Table(entries)) = (Shape::of::<Outer>(), node.get_ref())
    else {
        panic!("tables");
    };
    entries
        .iter()
        .find_map(|(key, value)| inner[key.get_ref().as_str()].misfit(key.get_ref(), value))
        .map(|(at, m)| format!("{at}: {m}"))
}

#[test]
fn a_types_declaration_gives_its_shape() {
    let Shape::Table(keys, inner, required) = Shape::of::<Outer>() else {
        panic!("a table");
    };
    assert_eq!(keys, ["name", "rules", "players", "format", "ratio"]);
    // `rules` is an `Option`; `players` cannot be made up, so what follows is unknown.
    assert_eq!(required, ["name", "players"]);
    assert_eq!(inner["name"], Shape::Text);
    assert_eq!(inner["ratio"], Shape::Number);
    assert_eq!(inner["format"], Shape::Name(&["round-robin", "gauntlet"]));
    let rules = &inner["rules"];
    assert!(
        matches!(rules, Shape::Table(["anti", "size"], _, required) if required == &["anti", "size"]),
        "{rules:?}"
    );
    let Shape::List(player) = &inner["players"] else {
        panic!("a list");
    };
    assert_eq!(**player, *rules);
}

#[test]
fn misfits_are_found_where_they_are() {
    assert_eq!(
        misfit("name = \"a\"\n[rules]\nanti = true\nsize = 8\n"),
        None
    );
    assert_eq!(
        misfit("name = \"a\"\n[rules]\nanti = true\n").unwrap(),
        "11: [rules] has no `size`: add it (every [rules] needs `anti` and `size`)"
    );
    assert_eq!(
        misfit("name = \"a\"\n[rules]\nanty = true\n").unwrap(),
        "19: unknown key `anty` in [rules]; did you mean `anti`? (known keys: `anti`, `size`)"
    );
    assert_eq!(
        misfit("[[players]]\nsize = -1\n").unwrap(),
        "19: size = -1 is not accepted here: use a whole number of at least 0"
    );
    assert_eq!(
        misfit("name = 3").unwrap(),
        "7: name = 3 is not accepted here: use text in quotes"
    );
    assert_eq!(
        misfit("format = \"gauntlett\"").unwrap(),
        "9: format = \"gauntlett\" is unknown: use `round-robin` or `gauntlet` (did you mean `gauntlet`?)"
    );
    assert_eq!(misfit("ratio = 1"), None);
    assert_eq!(
        misfit("players = 3").unwrap(),
        "10: players = 3 is not accepted here: `players` is a list of tables, each written [[players]] with the keys `anti`, `size`"
    );
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Setup {
    size: u32,
    rules: Option<Rules>,
    names: Vec<String>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Rules {
    anti: bool,
    format: Format,
}

#[test]
fn a_value_of_the_wrong_form_is_said_with_its_key_and_the_form_it_takes() {
    let misfit = |text: &str| {
        let node: Spanned<Node> = toml::from_str(text).unwrap();
        Shape::of::<Setup>()
            .misfit("", &node)
            .map(|(at, m)| format!("{at}: {m}"))
    };
    assert_eq!(
        misfit("size = 8.0").unwrap(),
        "7: size = 8.0 is not written as a whole number: write it as one, such as size = 8"
    );
    assert_eq!(
        misfit("size = 8.5").unwrap(),
        "7: size = 8.5 is not a whole number: use a whole number"
    );
    assert_eq!(
        misfit("rules = \"gauntlet\"").unwrap(),
        "8: rules = \"gauntlet\" is not accepted here: `rules` is a table, written [rules], with the keys `anti`, `format` (did you mean [rules] format = \"gauntlet\"?)"
    );
    assert_eq!(
        misfit("rules = 3").unwrap(),
        "8: rules = 3 is not accepted here: `rules` is a table, written [rules], with the keys `anti`, `format`"
    );
    assert_eq!(
        misfit("names = \"a\"").unwrap(),
        "8: names = \"a\" is not accepted here: use a list in brackets, such as names = [\"a\"]"
    );
    assert_eq!(
        misfit("[rules]\nformat = \"swiss\"").unwrap(),
        "17: format = \"swiss\" is unknown: use `round-robin` or `gauntlet`"
    );
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct Needs {
    strategy: Spanned<toml::Value>,
    depth: u32,
    note: Option<String>,
    kind: Format,
    label: String,
    #[serde(default)]
    games: u64,
}

/// The keys a table needs are learnt from its type past values kept with their
/// position and values of any form, in the order it declares them.
#[test]
fn the_keys_a_table_needs_are_learnt_from_its_type() {
    let Shape::Table(_, _, required) = Shape::of::<Needs>() else {
        panic!("a table");
    };
    assert_eq!(required, ["strategy", "depth", "kind", "label"]);
}
