//! Unit tests of experiment reading, building and validation.

use super::*;
use crate::lab::schedule::Schedule;
use crate::lab::setup::Openings;

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

fn err(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn defaults_and_pairs() {
    let e = parse(GOOD).unwrap();
    assert_eq!(
        (e.setup.seed, e.setup.size, e.format),
        (1, 8, Format::RoundRobin)
    );
    assert_eq!(e.pairs(), [(0, 1), (0, 2), (1, 2)]);
    assert_eq!(e.total_games(), 12);
    let schedule = Schedule::of(&e);
    let opening = schedule.opening(0, 0);
    assert_eq!(opening.len(), 8);
    assert_eq!(opening, schedule.opening(0, 0));
    assert_ne!(opening, schedule.opening(0, 1));
    // The table form reads back to the same experiment.
    let text = toml::to_string(&e.to_table()).unwrap();
    assert_eq!(parse(&text).unwrap(), e);
}

#[test]
fn the_builder_makes_what_the_file_makes() {
    let setup = Setup {
        openings: Openings::RandomPlies(4),
        ..Setup::default()
    };
    let spec = |s: &str| StrategySpec::parse(s).unwrap();
    let built = Experiment::builder("t", setup)
        .games_per_pair(4)
        .player("g", spec("greedy"))
        .player("ab", spec("alphabeta:depth=2"))
        .player("r", spec("random"))
        .build()
        .unwrap();
    assert_eq!(built, parse(GOOD).unwrap());
    let odd = Experiment::builder("t", Setup::default())
        .games_per_pair(3)
        .player("g", spec("greedy"))
        .player("r", spec("random"))
        .build()
        .unwrap_err();
    assert!(odd.to_string().contains("is odd"), "{odd}");
    let alone = Experiment::builder("t", Setup::default())
        .player("g", spec("greedy"))
        .build()
        .unwrap_err();
    assert!(alone.to_string().contains("at least 2"), "{alone}");
}

#[test]
fn errors_name_line_column_and_fix() {
    let e = err(&GOOD.replace("games_per_pair", "gams_per_pair"));
    assert!(
        e.starts_with("x.toml:3:1: unknown key `gams_per_pair` in the experiment; did you mean `games_per_pair`? (known keys: `name`, "),
        "{e}"
    );
    let e = err(&GOOD.replace("\"greedy\"", "\"greddy\""));
    assert!(
        e.starts_with("x.toml:8:12: player 'g': unknown strategy 'greddy' (did you mean 'greedy'?"),
        "{e}"
    );
    assert!(err(&GOOD.replace("= 4\n[openings]", "= 0\n[openings]")).contains("games_per_pair = 0"));
    assert!(err(&GOOD.replace("= 4\n[openings]", "= 3\n[openings]")).contains("is odd"));
    assert!(err(&GOOD.replace("depth=2", "depth=0")).contains("depth = 0 is out of range"));
    assert!(parse(&GOOD.replace("name = \"t\"", "name = \"t\"\nsize = 6")).is_ok());
    let e = err(&GOOD.replace("name = \"t\"", "name = \"t\"\nsize = 7"));
    assert!(e.starts_with("x.toml: unsupported board size 7"), "{e}");
    let e = err(&GOOD.replace("name = \"t\"", "name = \"t\"\nseed = -1"));
    assert_eq!(
        e,
        "x.toml:3:1: seed = -1 is not accepted: use a whole number of at least 0"
    );
    let e = err(&GOOD.replace("name = \"t\"", "name = \"t\"\nformat = \"head-to-head\""));
    assert!(e.contains("exactly 2 players"), "{e}");
    let e = err("name = \"t\"\n[[players]]\nname = \"a\"\nstrategy = \"greedy\"\n");
    assert!(e.contains("at least 2"), "{e}");
    let e = err("name = \"t\"\n[players]\na = \"greedy\"\nb = \"random\"\n");
    assert!(
        e.starts_with("x.toml:") && e.contains("write each player as its own [[players]] table"),
        "{e}"
    );
    assert!(err("name = \"t\n").starts_with("x.toml:1:"));
    let e = err(&GOOD.replace("name = \"t\"", "name = \"t\"\nthreads = 0"));
    assert!(e.contains("threads = 0: use at least 1"), "{e}");
}

#[test]
fn size_specific_strategy_errors() {
    let text = GOOD
        .replace("name = \"t\"", "name = \"t\"\nsize = 6")
        .replace("\"alphabeta:depth=2\"", "\"weighted:preset=classic\"");
    let e = err(&text);
    assert!(e.starts_with("x.toml:12:12: player 'ab'"), "{e}");
    assert!(e.contains("8x8 table"), "{e}");
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
    assert!(err(&bad).contains("did you mean 'ab'"));
}

/// Counting a recorded run's games builds none of its players: a Python callable
/// the package handed over by name (none here) and an engine that is not installed
/// here are taken as recorded, while a run would refuse them.
#[test]
fn a_record_is_read_for_tally_without_building_its_players() {
    let text = "name = \"r\"\nformat = \"head-to-head\"\n[sprt]\nelo0 = 0\nelo1 = 10\n\
        [[players]]\nname = \"py\"\nstrategy = { kind = \"python\", name = \"mine\" }\n\
        [[players]]\nname = \"engine\"\nstrategy = \"gtp:no-such-engine-here\"\n";
    let table: toml::Table = toml::from_str(text).unwrap();
    assert!(parse(text).is_err(), "a run builds its players");
    let tally = Experiment::recorded_for_tally(&table, "run.toml").unwrap();
    assert_eq!(tally.pairs().len(), 1);
    assert!(tally.sprt.is_some());
}
