//! Tests of parameter paths: parsing, reading, setting, their errors, and every
//! declared parameter reachable.

use super::*;
use crate::strategy::spec::kinds::sample;

fn spec(text: &str) -> StrategySpec {
    StrategySpec::parse(text).unwrap()
}

#[test]
fn a_path_reads_and_sets_a_parameter() {
    let ab = spec("alphabeta:depth=3,eval=eval");
    let depth = ParamPath::parse(&ab, "depth").unwrap();
    assert_eq!((depth.kind(), depth.last()), ("alphabeta", "depth"));
    assert_eq!(depth.get(&ab), Some(ParamValue::Whole(3)));
    let deeper = depth.set(&ab, ParamValue::Whole(5)).unwrap();
    assert_eq!(deeper, spec("alphabeta:depth=5,eval=eval"));
    let mobility = ParamPath::parse(&ab, "eval.mobility").unwrap();
    assert_eq!(mobility.to_string(), "eval.mobility");
    assert_eq!(mobility.kind(), "eval");
    assert_eq!(mobility.get(&ab), Some(ParamValue::Decimal(8.0)));
    let set = mobility.set(&ab, ParamValue::Decimal(1.5)).unwrap();
    assert_eq!(set, spec("alphabeta:depth=3,eval=(eval:mobility=1.5)"));
    // An unset optional parameter is declared but holds nothing.
    let nodes = ParamPath::parse(&ab, "nodes").unwrap();
    assert_eq!(nodes.get(&ab), None);
    let budgeted = nodes.set(&ab, ParamValue::Whole(1000)).unwrap();
    assert_eq!(nodes.get(&budgeted), Some(ParamValue::Whole(1000)));
}

#[test]
fn a_refused_value_is_refused_in_the_parsers_words() {
    let ab = spec("alphabeta");
    let depth = ParamPath::parse(&ab, "depth").unwrap();
    let err = depth
        .set(&ab, ParamValue::Whole(0))
        .unwrap_err()
        .to_string();
    assert!(err.contains("depth = 0"), "{err}");
}

#[test]
fn bad_paths_name_the_strategy_and_its_parameters() {
    let ab = spec("alphabeta:eval=mobility");
    assert_eq!(
        ParamPath::parse(&ab, "dept").unwrap_err(),
        PathError::NoSuchParam {
            kind: "alphabeta",
            name: "dept".into(),
            params: KINDS
                .iter()
                .find(|k| k.name == "alphabeta")
                .unwrap()
                .params
                .iter()
                .map(|p| p.name)
                .collect(),
        }
    );
    let err = ParamPath::parse(&ab, "eval.mobilty").unwrap_err();
    assert!(
        matches!(&err, PathError::NoSuchParam { kind: "mobility", name, .. } if name == "mobilty"),
        "{err:?}"
    );
    assert!(err
        .to_string()
        .contains("its parameters are normalised, potential, frontier"));
    assert_eq!(
        ParamPath::parse(&ab, "depth.x").unwrap_err(),
        PathError::NotAStrategy {
            walked: "depth".into(),
            kind: "alphabeta"
        }
    );
    let err = ParamPath::parse(&spec("greedy"), "depth").unwrap_err();
    assert_eq!(
        err.to_string(),
        "strategy 'greedy' has no parameters, so none named `depth`"
    );
}

#[test]
fn every_declared_parameter_is_reachable_and_round_trips() {
    for kind in KINDS {
        let spec = sample(kind);
        let table = spec.to_table();
        for param in kind.params {
            let path = ParamPath::parse(&spec, param.name)
                .unwrap_or_else(|e| panic!("{}.{}: {e}", kind.name, param.name));
            assert_eq!(path.kind(), kind.name);
            // Through the TOML form and back: setting what is there changes nothing.
            match path.get(&spec) {
                Some(value) => {
                    assert!(table.contains_key(param.name));
                    assert_eq!(path.set(&spec, value).unwrap(), spec, "{}", path);
                }
                None => assert!(!table.contains_key(param.name), "{path}"),
            }
        }
        for path in ParamPath::all(&spec) {
            let again = ParamPath::parse(&spec, &path.to_string()).unwrap();
            assert_eq!(again, path);
            let value = path.get(&spec).unwrap();
            assert_eq!(path.set(&spec, value).unwrap(), spec, "{path}");
        }
    }
    // Nested strategies' parameters too, in the TOML form's order.
    let ab = spec("alphabeta:eval=mobility");
    let names: Vec<String> = ParamPath::all(&ab)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(names.contains(&"eval.frontier".to_string()), "{names:?}");
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}

#[test]
fn a_table_parameters_entries_are_paths() {
    let weighted = spec("{ kind = \"weighted\", classes = { corner = 50 } }");
    let corner = ParamPath::parse(&weighted, "classes.corner").unwrap();
    assert!(corner.is_entry());
    assert_eq!(corner.get(&weighted), Some(ParamValue::Whole(50)));
    assert!(ParamPath::all(&weighted).contains(&corner));
    assert!(!ParamPath::parse(&weighted, "classes").unwrap().is_entry());
}

#[test]
fn a_features_path_finds_its_evaluation() {
    use crate::strategy::Feature;
    let alone = spec("eval");
    let inner = spec("alphabeta:eval=eval");
    for feature in Feature::ALL {
        let path = ParamPath::to_feature(&alone, feature).unwrap();
        assert_eq!(path.to_string(), feature.name());
        let path = ParamPath::to_feature(&inner, feature).unwrap();
        assert_eq!(path.to_string(), format!("eval.{}", feature.name()));
        let zero = path.set(&inner, ParamValue::Decimal(0.0)).unwrap();
        assert_eq!(path.get(&zero), Some(ParamValue::Decimal(0.0)));
    }
    assert_eq!(
        ParamPath::to_feature(&spec("alphabeta"), Feature::Discs),
        None
    );
    assert_eq!(ParamPath::to_feature(&spec("greedy"), Feature::Discs), None);
}
