//! Scripted NBoard sessions: a whole conversation in, every line out.

use super::*;
use crate::board::{Color, Size6, Size8};
use crate::lab::export::ggf::board;
use crate::lab::Seeds;
use crate::serve::tests::self_play;

fn session(spec: &str, seed: u64, script: &str) -> Vec<String> {
    let spec = StrategySpec::parse(spec).unwrap();
    let mut out = Vec::new();
    serve(&spec, seed, script.as_bytes(), &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A `set game` line from the start of a `size` board with these turns.
fn set_game<G: Geometry>(turns: &[Option<Square>]) -> String {
    let mut text = format!(
        "set game (;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[a]PW[b]RE[?]TI[15:00]TY[{}]BO[{}]",
        G::SIZE,
        board(&Position::<G>::start())
    );
    let mut side = Color::Black;
    for turn in turns {
        let name = turn.map_or("PA".to_string(), |s| s.name(G::SIZE).to_uppercase());
        text.push_str(&format!(
            "{}[{name}/0.00/1.2]",
            if side == Color::Black { "B" } else { "W" }
        ));
        side = side.opposite();
    }
    text.push_str(";)\n");
    text
}

/// The moves of the `===` lines.
fn moves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("=== "))
        .map(|m| m.split('/').next().unwrap().to_string())
        .collect()
}

#[test]
fn handshake_and_small_talk() {
    let got = session(
        "greedy",
        1,
        "nboard 2\nset depth 6\nset contempt 0\nping 3\nlearn\nwhatever this is\n\nquit\nping 4\n",
    );
    assert_eq!(
        got,
        [
            "set myname reversi-lab",
            "set myname reversi-lab",
            "pong 3",
            "learned"
        ]
    );
}

#[test]
fn a_bad_depth_is_refused_with_a_status_line() {
    let got = session(
        "alphabeta:depth=3",
        1,
        "nboard 2\nset depth -3\nset depth abc\nset depth 0\nset depth 99\nset depth 5\n",
    );
    let refused: Vec<&String> = got.iter().filter(|l| l.starts_with("status")).collect();
    assert_eq!(refused.len(), 4, "{got:?}");
    for (line, depth) in refused.iter().zip(["-3", "abc", "0", "99"]) {
        assert_eq!(
            **line,
            format!("status reversi-lab: set depth {depth}: the depth must be a whole number from 1 to 12 (60 with a node or time budget, which this strategy lacks); the depth stays as it was")
        );
    }
    // Every `set depth` is still answered with the name, as NBoard expects.
    assert_eq!(
        got.iter()
            .filter(|l| *l == "set myname reversi-lab")
            .count(),
        6
    );
}

#[test]
fn go_answers_without_playing_and_move_plays() {
    let start = set_game::<Size8>(&[]);
    let got = session(
        "alphabeta:depth=3",
        1,
        &format!("nboard 2\n{start}go\ngo\nmove F5/0.00/0.1\ngo\n"),
    );
    let moves = moves(&got);
    assert_eq!(moves[0], moves[1], "go twice for one position: one answer");
    assert!(["d3", "c4", "f5", "e6"].contains(&moves[0].as_str()));
    assert!(["d6", "f4", "f6"].contains(&moves[2].as_str()), "{got:?}");
    let go = got.iter().find(|l| l.starts_with("===")).unwrap();
    let fields: Vec<&str> = go[4..].split('/').collect();
    assert_eq!(fields.len(), 3, "{go}");
    assert!(
        fields[1].parse::<f64>().is_ok() && fields[2].parse::<f64>().is_ok(),
        "{go}"
    );
    let stats = got
        .iter()
        .position(|l| l.starts_with("nodestats "))
        .unwrap();
    assert!(
        got[stats + 1].starts_with("=== "),
        "nodestats before the move"
    );
}

/// `go` and `move` in turn, or `set game` growing by a move, play the built strategy's game.
#[test]
fn go_plays_the_built_strategys_game() {
    let spec = "alphabeta:depth=3,endgame=6";
    let turns = self_play::<Size6>(spec, Seeds(4).game(0, 0));
    let mut by_move = format!("nboard 2\n{}", set_game::<Size6>(&[]));
    let mut by_game = by_move.clone();
    for (i, turn) in turns.iter().enumerate() {
        let name = turn.map_or("PA".to_string(), |s| s.name(6));
        by_move.push_str(&format!("go\nmove {name}\n"));
        by_game.push_str(&format!("go\n{}", set_game::<Size6>(&turns[..=i])));
    }
    let expected: Vec<String> = turns
        .iter()
        .map(|t| t.map_or("PA".to_string(), |s| s.name(6)))
        .collect();
    assert_eq!(moves(&session(spec, 4, &by_move)), expected);
    assert_eq!(moves(&session(spec, 4, &by_game)), expected);
}

/// A new game takes the next number, so the next seed; a reset before any move does not.
#[test]
fn new_games_take_the_next_seed() {
    let first = |seed: u64| self_play::<Size6>("random", seed)[0].unwrap().name(6);
    let start = set_game::<Size6>(&[]);
    let zero = first(Seeds(9).game(0, 0));
    // The same game until a move makes the start another game's.
    let script = format!("{start}{start}go\n{start}go\nmove {zero}\n{start}go\n");
    let got = session("random", 9, &script);
    assert_eq!(
        moves(&got),
        [zero.clone(), zero, first(Seeds(9).game(0, 1))]
    );
}

#[test]
fn hints_rank_moves_and_say_when_exact() {
    let start = set_game::<Size8>(&[]);
    let got = session("alphabeta:depth=2", 1, &format!("{start}hint 3\n"));
    assert_eq!(got.len(), 5, "{got:?}");
    let evals: Vec<f64> = got[..3]
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!((f[0], f[3], f[4]), ("search", "0", "2"), "{l}");
            f[2].parse().unwrap()
        })
        .collect();
    assert!(evals.windows(2).all(|w| w[0] >= w[1]), "{evals:?}");
    assert!(got[3].starts_with("nodestats "));
    assert_eq!(got[4], "status");
    // Near the end a search that solves gives exact values.
    let turns = self_play::<Size6>("greedy", 2);
    let late = set_game::<Size6>(&turns[..turns.len() - 6]);
    let got = session("alphabeta:depth=2,endgame=8", 1, &format!("{late}hint 1\n"));
    assert!(
        got[0].starts_with("search ") && got[0].ends_with(" 0 100%"),
        "{got:?}"
    );
}

#[test]
fn a_hint_sends_the_best_moves_principal_variation_in_its_pv_field() {
    let start = set_game::<Size8>(&[]);
    let got = session("alphabeta:depth=4", 1, &format!("{start}hint 2\n"));
    let pvs: Vec<&str> = got[..2]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap())
        .collect();
    // The best move with the replies the search expects, as moves one after the
    // other; the second move alone.
    assert!(
        pvs[0].len() >= 6 && pvs[0].len().is_multiple_of(2),
        "{got:?}"
    );
    assert_eq!(pvs[1].len(), 2, "{got:?}");
    let mut board = Board::<Size8>::start();
    for ply in 0..pvs[0].len() / 2 {
        let square = Square::parse(&pvs[0][2 * ply..2 * ply + 2], 8).unwrap();
        assert!(board.moves().has(square.index()), "{} is legal", pvs[0]);
        board = board.play(square);
    }
    assert_ne!(&pvs[0][..2], pvs[1]);
}

#[test]
fn analysis_covers_every_position() {
    let turns = self_play::<Size6>("greedy", 2);
    let game = set_game::<Size6>(&turns[..10]);
    let got = session("alphabeta:depth=2", 1, &format!("{game}analyze\n"));
    let numbers: Vec<usize> = got
        .iter()
        .filter_map(|l| l.strip_prefix("analysis "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(numbers, (0..=10).rev().collect::<Vec<_>>());
    assert_eq!(got.last().unwrap(), "status");
}

#[test]
fn bad_games_and_moves_are_said_and_ignored() {
    let start = set_game::<Size8>(&[]);
    let illegal = start
        .replace("BO[", "B[A1]BO[")
        .replace("B[A1]", "")
        .replace(";)", "B[A1];)");
    let got = session(
        "greedy",
        1,
        &format!("{start}move A1\nmove Z9\n{illegal}set game nonsense\nset game (;GM[Othello]TY[6]BO[6 ---];)\ngo\n"),
    );
    assert!(
        got[0].contains("a1 is not a legal move here") || got[0].contains("A1 is not a legal move"),
        "{got:?}"
    );
    assert!(got[1].contains("cannot read the move"), "{got:?}");
    assert!(
        got[2].contains("turn 1: a1 is not a legal move for black"),
        "{got:?}"
    );
    assert!(got[3].contains("no (; ... ;)"), "{got:?}");
    assert!(got[4].contains("BO[6 ---]"), "{got:?}");
    // The game in hand is still the start.
    assert!(
        ["d3", "c4", "f5", "e6"].contains(&moves(&got)[0].as_str()),
        "{got:?}"
    );
    // The pattern evaluation cannot play 6x6.
    let six = set_game::<Size6>(&[]);
    let got = session(super::super::DEFAULT_STRATEGY, 1, &six);
    assert_eq!(
        got,
        ["status reversi-lab: cannot play a 6x6 game with this strategy"]
    );
}

#[test]
fn an_mcts_hint_is_one_search_ordered_as_it_chooses() {
    let start = set_game::<Size8>(&[]);
    let spec = "mcts:iterations=400";
    let hint = session(spec, 3, &format!("{start}hint 4\n"));
    let go = session(spec, 3, &format!("{start}go\n"));
    let nodestats = |lines: &[String]| -> u64 {
        let line = lines.iter().find(|l| l.starts_with("nodestats ")).unwrap();
        line.split(' ').nth(1).unwrap().parse().unwrap()
    };
    // The nodes of one search, as `go` counts them: not two searches' worth.
    assert_eq!(nodestats(&hint), nodestats(&go), "{hint:?} {go:?}");
    let searches: Vec<&String> = hint.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(searches.len(), 4, "{hint:?}");
    // The move it would play first, with its line; then the others.
    let first = &searches[0].split(' ').nth(1).unwrap()[..2];
    assert_eq!(first, moves(&go)[0], "{hint:?} {go:?}");
    assert!(searches[0].split(' ').nth(1).unwrap().len() > 2, "{hint:?}");
}
