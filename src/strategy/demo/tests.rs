//! `first-legal` through the same paths every kind takes: parsing, its range, the
//! registry's listing, building and playing.

use crate::board::{squares, Size6};
use crate::game::{Game, Rules};
use crate::strategy::spec::{describe_kinds, kind_names, kinds_json};
use crate::strategy::{Context, GameRng, History, Memory, StrategySpec};
use rand::SeedableRng;

#[test]
fn it_parses_from_a_line_and_a_table_with_its_default() {
    let spec = StrategySpec::parse("first-legal:nth=3").unwrap();
    assert_eq!(spec.kind(), "first-legal");
    assert_eq!(
        StrategySpec::parse("first-legal").unwrap().to_table()["nth"].as_integer(),
        Some(1)
    );
    let table: toml::Table = toml::from_str("kind = \"first-legal\"\nnth = 3").unwrap();
    assert_eq!(StrategySpec::from_table(&table).unwrap(), spec);
}

#[test]
fn it_refuses_a_parameter_outside_its_range_naming_the_range() {
    let error = StrategySpec::parse("first-legal:nth=9").unwrap_err().to_string();
    assert_eq!(
        error,
        "strategy 'first-legal': nth = 9 is out of range: use 1 to 4"
    );
    let error = StrategySpec::parse("first-legal:nth=2.0").unwrap_err().to_string();
    assert!(error.contains("not written as a whole number"), "{error}");
    let error = StrategySpec::parse("first-legal:nht=2").unwrap_err().to_string();
    assert!(error.contains("(did you mean 'nth'?"), "{error}");
}

#[test]
fn the_registry_lists_it() {
    assert!(kind_names().contains(&"first-legal"));
    let listing = describe_kinds();
    assert!(listing.contains("first-legal"), "{listing}");
    assert!(listing.contains("which legal move in square order"), "{listing}");
    assert!(kinds_json().to_string().contains("\"first-legal\""));
    let error = StrategySpec::parse("first-legl").unwrap_err().to_string();
    assert!(error.contains("did you mean 'first-legal'?"), "{error}");
}

#[test]
fn it_plays_a_game_to_its_end_choosing_the_nth_legal_move() {
    let rules = Rules::default();
    let player = StrategySpec::parse("first-legal:nth=2")
        .unwrap()
        .build::<Size6>(rules)
        .unwrap();
    let mut game = Game::<Size6>::new();
    let mut rng = GameRng::seed_from_u64(1);
    let mut memory = Memory::new();
    while !game.is_over() {
        let moves = game.legal_moves();
        let moves_before = game.moves().to_vec();
        let choice = player
            .choose(
                game.board(),
                moves,
                &mut Context {
                    rng: &mut rng,
                    memory: &mut memory,
                    history: History::from_start(&moves_before),
                },
            )
            .unwrap();
        let legal: Vec<_> = squares(moves).collect();
        assert_eq!(choice.square, legal[1.min(legal.len() - 1)]);
        game.play(choice.square).unwrap();
    }
    assert!(game.moves().len() > 20, "a whole game: {:?}", game.moves());
}
