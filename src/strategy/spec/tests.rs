//! The spec parser's tests: every kind read from a line and a table, defaults, and
//! the messages bad specs get.

use super::*;
use crate::board::{Size6, Size8};
use crate::game::Rules;
use std::path::PathBuf;

#[test]
fn one_line_and_table_agree() {
    let line = StrategySpec::parse("alphabeta:depth=4,eval=mobility").unwrap();
    let table: Table =
        toml::from_str("kind = \"alphabeta\"\ndepth = 4\neval = { kind = \"mobility\" }").unwrap();
    assert_eq!(StrategySpec::from_table(&table).unwrap(), line);
    let StrategySpec::Alphabeta(spec) = &line else {
        panic!()
    };
    assert_eq!(spec.depth, 4);
    assert_eq!(
        *spec.eval,
        StrategySpec::Mobility(MobilitySpec {
            normalised: false,
            potential: 0,
            frontier: 0
        })
    );
    assert!(spec.table && spec.ordering);
}

#[test]
fn nested_and_inline_specs() {
    let spec =
        StrategySpec::parse("alphabeta:depth=2,eval=(weighted:preset=paip),nodes=5000").unwrap();
    let StrategySpec::Alphabeta(ab) = &spec else {
        panic!()
    };
    assert_eq!(ab.nodes, Some(5000));
    assert_eq!(ab.eval.kind(), "weighted");
    let inline =
        StrategySpec::parse("{ kind = \"parity\", endgame = 10, base = \"corner-first\" }")
            .unwrap();
    assert_eq!(
        inline,
        StrategySpec::Parity(ParitySpec {
            endgame: 10,
            base: Box::new(StrategySpec::CornerFirst(CornerFirstSpec {}))
        })
    );
    let eval = StrategySpec::parse("eval:mobility=3,corners=50.5,preset=paip,squares=1").unwrap();
    let StrategySpec::Eval(e) = eval else {
        panic!()
    };
    assert_eq!(
        (
            e.weights[crate::strategy::Feature::Mobility],
            e.weights[crate::strategy::Feature::Corners],
            e.weights[crate::strategy::Feature::Squares],
        ),
        (3.0, 50.5, 1.0)
    );
    assert_eq!(e.squares.preset.as_deref(), Some("paip"));
}

#[test]
fn errors_list_and_suggest() {
    let parse_err = |text: &str| StrategySpec::parse(text).unwrap_err();
    let err = parse_err("greddy").to_string();
    assert!(
        err.starts_with("unknown strategy 'greddy' (did you mean 'greedy'? known: random, greedy"),
        "{err}"
    );
    let err = parse_err("alphabeta:depht=3").to_string();
    assert!(
        err.contains("'depht'") && err.contains("did you mean 'depth'"),
        "{err}"
    );
    let err = parse_err("greedy:depth=3").to_string();
    assert!(err.contains("takes no parameters"), "{err}");
    assert_eq!(
        parse_err("alphabeta:depth=0"),
        SpecError::OutOfRange {
            kind: "alphabeta",
            param: "depth",
            value: 0,
            accepted: 1..=60
        }
    );
    let err = parse_err("alphabeta:depth=x").to_string();
    assert!(err.contains("depth"), "{err}");
    assert_eq!(
        parse_err("alphabeta:eval=random"),
        SpecError::NestedNotAnEvaluation {
            within: "alphabeta",
            key: "eval",
            found: "random"
        }
    );
    let build_err = |text: &str| {
        StrategySpec::parse(text)
            .unwrap()
            .build::<Size8>(Rules::default())
            .err()
            .unwrap()
    };
    let err = build_err("weighted:preset=clasic").to_string();
    assert!(err.contains("did you mean 'classic'"), "{err}");
    assert_eq!(
        build_err("weighted:table=[1,2,3]"),
        SpecError::TableLength { len: 3, size: 8 }
    );
    let classic = StrategySpec::parse("weighted:preset=classic").unwrap();
    assert_eq!(
        classic.build::<Size6>(Rules::default()).err().unwrap(),
        SpecError::PresetSize {
            name: "classic",
            size: 6
        }
    );
    assert!(StrategySpec::parse("weighted")
        .unwrap()
        .build::<Size6>(Rules::default())
        .is_ok());
    let err = parse_err("eval:mobilty=3").to_string();
    assert!(err.contains("did you mean 'mobility'"), "{err}");
}

/// The messages users see, word for word: the error type must not change them.
#[test]
fn messages_are_the_projects_own() {
    // The list comes from the registry; what is pinned is the wording around it.
    let kinds = super::kind_names().join(", ");
    let parse_cases = [
        ("", format!("empty strategy spec: write a kind such as 'greedy' (known: {kinds})")),
        ("{ kind = 3 }", "`kind` must be a string such as \"greedy\"".into()),
        ("{ depth = 4 }", format!("a strategy table needs `kind` (one of: {kinds})")),
        ("{ knd = \"mcts\" }", format!("a strategy table needs `kind`, not `knd` (one of: {kinds})")),
        ("{ kind = \"nope\" }", format!("unknown strategy 'nope' (known: {kinds})")),
        ("alphabeta:depht=3", "unknown parameter for strategy 'alphabeta': 'depht' (did you mean 'depth'? known: depth, eval, endgame, nodes, time, probcut, table, ordering, table_bits)".into()),
        ("greedy:depth=3", "strategy 'greedy' takes no parameters, but 'depth' was given".into()),
        ("alphabeta:depth=61", "strategy 'alphabeta': depth = 61 is out of range: use 1 to 60".into()),
        ("alphabeta:depth=x", "strategy 'alphabeta': depth = \"x\" is not accepted: use a whole number from 1 to 60".into()),
        ("alphabeta:depth=nan", "strategy 'alphabeta': depth = NaN is not accepted: use a whole number from 1 to 60".into()),
        ("alphabeta:eval=(alphabeta:depth=2)", "alphabeta eval: 'alphabeta' is not an evaluation: use weighted, mobility, stability, pattern, eval, python or greedy (disc count)".into()),
        ("alphabeta:eval=(weighted:bogus=1)", "alphabeta eval: unknown parameter for strategy 'weighted': 'bogus' (known: preset, classes, table, own_only)".into()),
        ("alphabeta:nodes=0", "strategy 'alphabeta': nodes = 0 leaves no budget: use at least 1, or leave it out".into()),
        ("alphabeta:eval=pattern,probcut=5", "strategy 'alphabeta': probcut = 5 is out of range: use 0 (off) up to 4 standard deviations, such as 1.5".into()),
        ("alphabeta:eval=pattern,probcut=-1", "strategy 'alphabeta': probcut = -1 is out of range: use 0 (off) up to 4 standard deviations, such as 1.5".into()),
        ("alphabeta:probcut=1.5", "strategy 'alphabeta': probcut's cut lines are fitted to the pattern evaluation, not 'weighted': use eval=pattern, or leave probcut out".into()),
        ("alphabeta:table_bits=9", "strategy 'alphabeta': table_bits = 9 is out of range: use 10 to 26".into()),
        ("solver:table_bits=27", "strategy 'solver': table_bits = 27 is out of range: use 10 to 26".into()),
        ("alphabeta:time=5x", "strategy 'alphabeta': time = \"5x\" is not accepted: use a positive time of at most a day with its unit, such as 100ms or 2s (in quotes in a TOML file: \"100ms\")".into()),
        // A time of nothing is a time: it is told it leaves none, not to use quotes.
        ("alphabeta:time=0ms,depth=0", "strategy 'alphabeta': time = 0ms leaves no time: give each move more than 0, such as time=100ms".into()),
        ("alphabeta:time=abc", "strategy 'alphabeta': time = \"abc\" is not accepted: use a positive time of at most a day with its unit, such as 100ms or 2s (in quotes in a TOML file: \"100ms\")".into()),
        // `1e3` is a number with a fraction to TOML: said so, with the whole number.
        ("alphabeta:depth=4e0", "strategy 'alphabeta': depth = 4.0 is not written as a whole number: write it as one, such as depth=4".into()),
        ("alphabeta:depth=2.5", "strategy 'alphabeta': depth = 2.5 is not a whole number: use a whole number from 1 to 60".into()),
        ("weighted:classes={corner=1,edje=2}", "strategy 'weighted': classes = { corner = 1, edje = 2 } is not accepted: use a table of whole numbers in braces, with keys among corner, c_square, x_square, edge, centre and inner, such as { corner = 100, x_square = -50 }".into()),
        ("alphabeta:time=100", "strategy 'alphabeta': time = 100 is not accepted: use a positive time of at most a day with its unit, such as 100ms or 2s (in quotes in a TOML file: \"100ms\")".into()),
        ("alphabeta:time=5x,depth=true", "strategy 'alphabeta': depth = true is not accepted: use a whole number from 1 to 60".into()),
        ("parity:endgame=x,base=5", "parity base: a strategy is a table such as { kind = \"greedy\" } or a spec string such as \"alphabeta:depth=4\", not integer".into()),
        ("parity:base=5", "parity base: a strategy is a table such as { kind = \"greedy\" } or a spec string such as \"alphabeta:depth=4\", not integer".into()),
        ("parity:base=(mobility:frontier=x)", "parity base: strategy 'mobility': frontier = \"x\" is not accepted: use a whole number".into()),
        ("weighted:classes={corn=1}", "strategy 'weighted': classes = { corn = 1 } is not accepted: use a table of whole numbers in braces, with keys among corner, c_square, x_square, edge, centre and inner, such as { corner = 100, x_square = -50 }".into()),
        ("alphabeta:depth", "strategy spec 'alphabeta:depth': 'depth' should be key=value, as in alphabeta:depth=4,eval=mobility".into()),
        ("engine:gtp:cat", "strategy spec 'engine:gtp:cat': 'gtp:cat' is a whole spec of its own: write it alone, as gtp:cat".into()),
        ("alphabeta:depth=4,depth=5", "strategy spec 'alphabeta:depth=4,depth=5': 'depth' is given twice".into()),
        ("alphabeta:eval=(weighted", "unbalanced brackets or quotes in strategy spec 'eval=(weighted'".into()),
        ("alphabeta:eval=weighted)", "unbalanced brackets in strategy spec 'eval=weighted)'".into()),
        // Ranges declared beside the parameter are the ones worded.
        ("alphabeta:nodes=-1", "strategy 'alphabeta': nodes = -1 is not accepted: use a whole number of at least 1".into()),
        ("parity:endgame=1000", "strategy 'parity': endgame = 1000 is out of range: use 0 to 96".into()),
        ("parity:endgame=-1", "strategy 'parity': endgame = -1 is not accepted: use a whole number from 0 to 96".into()),
        ("engine:protocol=foo", "strategy 'engine': unknown protocol 'foo' (known: gtp, nboard)".into()),
        ("engine:protocol=nbord", "strategy 'engine': unknown protocol 'nbord' (did you mean 'nboard'? known: gtp, nboard)".into()),
        ("weighted:table=1", "strategy 'weighted': table = 1 is not accepted: use a list of n*n whole numbers, or n rows of n, for the n x n board".into()),
        ("{kind=\"greedy\"} x", "strategy spec '{kind=\"greedy\"} x' is not a TOML inline table: 'x' follows its closing brace; write it as {kind = \"alphabeta\", depth = 4}, or as alphabeta:depth=4".into()),
    ];
    for (text, message) in parse_cases {
        assert_eq!(
            StrategySpec::parse(text).unwrap_err().to_string(),
            message,
            "{text}"
        );
    }
    let build_cases = [
        ("weighted:classes={corner=1},preset=paip", "give only one of `preset`, `classes` and `table`"),
        ("weighted:preset=clasic", "unknown weighted preset 'clasic' (did you mean 'classic'? known: classic, paip, explorer)"),
        ("weighted:table=[1,2,3]", "the weight table has 3 weights but the 6x6 board needs 36 (or 6 rows of 6)"),
        ("weighted:table=[[1,2],[3,4]]", "the weight table must have 6 rows of 6 weights for the 6x6 board"),
        ("alphabeta:eval=(weighted:preset=paip)", "weighted preset 'paip' is an 8x8 table and the board is 6x6: use `classes` (square classes for any size), preset 'explorer', or a 6x6 `table`"),
    ];
    for (text, message) in build_cases {
        let spec = StrategySpec::parse(text).unwrap();
        let err = spec.build::<Size6>(Rules::default()).err().unwrap();
        assert_eq!(err.to_string(), message, "{text}");
        assert_eq!(crate::Error::from(err).exit_code(), 2);
    }
}

#[test]
fn an_engine_nests_in_parentheses_as_in_quotes() {
    assert_eq!(
        StrategySpec::parse("parity:base=(gtp:cat)").unwrap(),
        StrategySpec::parse("parity:base=\"gtp:cat\"").unwrap()
    );
    assert_eq!(
        StrategySpec::parse("parity:endgame=10,base=(nboard:edax -n 1)").unwrap(),
        StrategySpec::parse("parity:endgame=10,base=\"nboard:edax -n 1\"").unwrap()
    );
}

#[test]
fn an_hour_a_move_is_refused_unless_a_clock_bounds_it() {
    let spec = StrategySpec::parse("alphabeta:time=1h").unwrap();
    assert_eq!(
        spec.check_practical(60).unwrap_err().to_string(),
        "strategy 'alphabeta': time = 1h a move makes a game of about 30 moves a side take hours: use time = 1m or less, or play it on a clock (move_time or clock)"
    );
    assert!(spec.check_practical_under(60, true).is_ok());
    assert!(StrategySpec::parse("alphabeta:time=1m")
        .unwrap()
        .check_practical(60)
        .is_ok());
}

#[test]
fn a_time_budget_deepens_unless_a_depth_is_given() {
    let depth = |text: &str| match StrategySpec::parse(text).unwrap() {
        StrategySpec::Alphabeta(ab) => ab.depth,
        other => panic!("{other:?}"),
    };
    assert_eq!(depth("alphabeta"), 4);
    assert_eq!(depth("alphabeta:time=100ms"), 60);
    assert_eq!(depth("alphabeta:time=100ms,depth=5"), 5);
    let timed = StrategySpec::parse("alphabeta:time=2s").unwrap();
    assert_eq!(timed.to_table()["time"].as_str(), Some("2s"));
    assert_eq!(StrategySpec::from_table(&timed.to_table()).unwrap(), timed);
}

#[test]
fn every_kind_parses_with_defaults_and_round_trips() {
    for kind in KINDS {
        let spec = kinds::sample(kind);
        assert_eq!(spec.kind(), kind.name);
        let table = spec.to_table();
        assert_eq!(
            StrategySpec::from_table(&table).unwrap(),
            spec,
            "{}",
            kind.name
        );
        // An engine builds only with a program that answers (tests/integration/engines.rs),
        // a Python callable only where it imports (tests/integration/python_worker.rs).
        if !["engine", "python"].contains(&kind.name) {
            spec.build::<Size8>(Rules::default()).unwrap();
        }
    }
    assert!(describe_kinds().contains("minimum-disc"));
}

#[test]
fn a_config_files_relative_paths_start_from_its_folder() {
    let base = std::path::Path::new("experiments");
    let value = |text: &str| -> Value { toml::from_str::<Table>(text).unwrap()["s"].clone() };
    let read = |text: &str| StrategySpec::from_value_in(&value(text), base).unwrap();
    let weights = |spec: StrategySpec| match spec {
        StrategySpec::Alphabeta(a) => match *a.eval {
            StrategySpec::Pattern(p) => p.weights,
            other => panic!("{other:?}"),
        },
        StrategySpec::Parity(p) => match *p.base {
            StrategySpec::Alphabeta(a) => match *a.eval {
                StrategySpec::Pattern(p) => p.weights,
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    };
    let joined = Some(PathBuf::from("experiments/w.bin"));
    assert_eq!(
        weights(read(r#"s = "alphabeta:eval=(pattern:weights=w.bin)""#)),
        joined
    );
    assert_eq!(
        weights(read(
            r#"s = { kind = "alphabeta", eval = { kind = "pattern", weights = "w.bin" } }"#
        )),
        joined
    );
    assert_eq!(
        weights(read(
            r#"s = "parity:base=(alphabeta:eval=(pattern:weights=w.bin))""#
        )),
        joined
    );
    assert_eq!(
        weights(read(r#"s = "alphabeta:eval=(pattern:weights=/abs/w.bin)""#)),
        Some(PathBuf::from("/abs/w.bin"))
    );
    assert_eq!(weights(read(r#"s = "alphabeta:eval=pattern""#)), None);
    match read(r#"s = { kind = "engine", command = "prog", dir = "engines" }"#) {
        StrategySpec::Engine(e) => assert_eq!(e.dir, Some(PathBuf::from("experiments/engines"))),
        other => panic!("{other:?}"),
    }
}

/// Nesting is bounded (deeper specs would exhaust a thread's stack, in a web server's
/// request thread first), and a caller can find an engine or a file at any depth.
#[test]
fn nesting_is_bounded_and_searched_to_any_depth() {
    let nest = |levels: usize| {
        format!(
            "{}greedy{}",
            "parity:base=(".repeat(levels),
            ")".repeat(levels)
        )
    };
    assert!(StrategySpec::parse(&nest(MAX_NESTING)).is_ok());
    for levels in [MAX_NESTING + 1, 4 * MAX_NESTING, 5000] {
        assert_eq!(
            StrategySpec::parse(&nest(levels)),
            Err(SpecError::TooDeep { limit: MAX_NESTING }),
            "{levels}"
        );
    }
    let engine = |s: &StrategySpec| s.kind() == "engine";
    let nested = StrategySpec::parse("parity:base=\"gtp:true\"").unwrap();
    assert!(nested.any(&mut |s| engine(s)));
    assert!(!StrategySpec::parse("parity")
        .unwrap()
        .any(&mut |s| engine(s)));
    let weights =
        StrategySpec::parse("parity:base=(alphabeta:eval=(pattern:weights=w.bin))").unwrap();
    assert!(weights.any(&mut |s| !s.files().is_empty()));
    assert!(!StrategySpec::parse("alphabeta:eval=pattern")
        .unwrap()
        .any(&mut |s| !s.files().is_empty()));
}
