use super::*;

fn parse(text: &str) -> Result<Sweep> {
    Sweep::parse(text, "s.toml", Path::new("."))
}

const DEPTH: &str = r#"
name = "s"
games_per_pair = 2
[sweep]
base = "alphabeta:eval=mobility"
parameter = "depth"
values = [1, 2, 3]
"#;

#[test]
fn variants_set_the_parameter() {
    let sweep = parse(DEPTH).unwrap();
    let names: Vec<&str> = sweep.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["depth=1", "depth=2", "depth=3"]);
    assert_eq!(sweep.experiment.format, Format::RoundRobin);
    match &sweep.experiment.players[2].spec {
        StrategySpec::Alphabeta(ab) => {
            assert_eq!(ab.depth, 3);
            assert_eq!(ab.eval.kind(), "mobility");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(sweep.experiment.pairs().len(), 3);
}

#[test]
fn nested_parameters_panels_and_neighbours() {
    let text = r#"
name = "w"
[sweep]
base = { kind = "alphabeta", depth = 1, eval = { kind = "eval" } }
parameter = "eval.mobility"
range = { from = 0, to = 2, steps = 3 }
plays = "panel"
panel = ["greedy", { name = "ab2", strategy = "alphabeta:depth=2" }]
"#;
    let sweep = parse(text).unwrap();
    let names: Vec<&str> = sweep
        .experiment
        .players
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "eval.mobility=0",
            "eval.mobility=1",
            "eval.mobility=2",
            "greedy",
            "ab2"
        ]
    );
    assert_eq!(sweep.experiment.format, Format::Gauntlet);
    assert_eq!(
        sweep.experiment.pairs().len(),
        6,
        "3 variants x 2 panel players"
    );
    let chain = parse(&DEPTH.replace("[1, 2, 3]", "[1, 2, 3, 4]\nplays = \"neighbours\"")).unwrap();
    assert_eq!(chain.experiment.pairs(), [(0, 1), (1, 2), (2, 3)]);
    let nodes = parse(
        &DEPTH
            .replace(
                "parameter = \"depth\"",
                "parameter = \"nodes\"\nscale = \"log\"",
            )
            .replace(
                "values = [1, 2, 3]",
                "range = { from = 100, to = 10000, steps = 3 }",
            ),
    )
    .unwrap();
    let values: Vec<String> = nodes.variants.iter().map(|v| v.value.to_string()).collect();
    assert_eq!(values, ["100", "1000", "10000"]);
}

#[test]
fn bad_sweeps_say_what_to_fix() {
    let err = |from: &str, to: &str| parse(&DEPTH.replace(from, to)).unwrap_err().to_string();
    let e = err("parameter = \"depth\"", "parameter = \"dept\"");
    assert!(
        e.starts_with("s.toml:6:13: parameter: strategy 'alphabeta' has no parameter `dept` (did you mean `depth`?"),
        "{e}"
    );
    let e = err("parameter = \"depth\"", "parameter = \"eval\"");
    assert!(e.contains("`eval` is a strategy, not a number"), "{e}");
    let e = err("alphabeta:eval=mobility", "greedy");
    assert!(
        e.contains("strategy 'greedy' has no parameters to sweep"),
        "{e}"
    );
    let e = err("values = [1, 2, 3]", "values = [0, 1]");
    assert!(e.contains("depth = 0"), "{e}");
    let e = err("values = [1, 2, 3]", "values = [2, 1]");
    assert!(e.contains("1 after 2: list the values once each"), "{e}");
    let e = err("values = [1, 2, 3]", "");
    assert!(e.contains("needs either values"), "{e}");
    let e = err("values = [1, 2, 3]", "values = [1, 2]\nplays = \"panel\"");
    assert!(e.contains("needs panel"), "{e}");
    let e = err(
        "values = [1, 2, 3]",
        "values = [1, 2]\npanel = [\"greedy\"]",
    );
    assert!(e.contains("panel is only for plays = \"panel\""), "{e}");
    let e = err(
        "values = [1, 2, 3]",
        "values = [1, 2]\nplays = \"gauntlet\"",
    );
    assert!(e.contains("plays = \"gauntlet\" is unknown"), "{e}");
    assert!(!e.contains('\n'), "one line: {e}");
}
