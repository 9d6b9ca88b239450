//! What `play`'s `eval` and `watch` show of a strategy's values: one search's visits and
//! line against `mcts`, values in discs estimated or solved.

use super::Person;
use crate::common::reversi_lab;
use crate::reference;
use predicates::prelude::*;
use reversi_lab::board::{Size8, Square};

/// Issue 49: against `mcts`, `eval` shows one search: its moves by visits (the move it
/// plays first), and the best line is that move's line in the same search (it came from
/// a second search and could start elsewhere, the list ordered by mean).
#[test]
fn eval_against_mcts_lists_moves_by_visits_and_its_line_starts_with_the_first() {
    let args = ["play", "--vs", "mcts:iterations=3000", "--seed", "11"];
    let mut person = Person::start(&args);
    person.until_prompt();
    let mut checked = 0;
    for step in 0..6 {
        let eval = person.type_line("eval");
        let list = eval
            .lines()
            .find(|l| l.starts_with("eval by mcts:iterations=3000 "))
            .and_then(|l| l.split_once("most visited first): "))
            .unwrap_or_else(|| panic!("{eval}"))
            .1;
        // "d3 +512 (1,101 visits)", proven bounds after the visits where proven.
        let moves: Vec<(&str, u64)> = list
            .split("), ")
            .map(|item| {
                let (square, rest) = item.split_once(' ').unwrap();
                let visits = rest.split_once(" (").unwrap().1;
                let visits = visits.split(" visit").next().unwrap().replace(',', "");
                (square, visits.parse().unwrap_or_else(|_| panic!("{item}")))
            })
            .collect();
        let counts: Vec<u64> = moves.iter().map(|m| m.1).collect();
        assert!(counts.windows(2).all(|w| w[0] >= w[1]), "by visits: {list}");
        assert_eq!(counts.iter().sum::<u64>(), 3000, "{list}");
        let line = eval
            .split("best line by mcts:iterations=3000: ")
            .nth(1)
            .unwrap_or_else(|| panic!("no line: {eval}"));
        assert_eq!(line.split(' ').next(), Some(moves[0].0), "{eval}");
        checked += 1;
        // The person plays the least visited move, so that the game goes on elsewhere.
        let answer = person.type_line(moves[moves.len() - 1 - step % moves.len()].0);
        if answer.ends_with("[y/n] ") {
            break;
        }
    }
    assert!(checked >= 4);
    person.answer("quit");
    person.finish();
}

/// Issue 52, item 13: values stay on one scale when the solver takes over (they were
/// the pattern evaluation's 1/64 discs, +4413, then the solver's discs, +54).
#[test]
fn watch_and_eval_show_values_in_discs_estimated_or_solved() {
    let output = reversi_lab()
        .args([
            "watch",
            "alphabeta:eval=pattern,depth=2,endgame=10",
            "greedy",
        ])
        .assert()
        .success();
    let out = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    let searched: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("(alphabeta:eval=pattern,depth=2,endgame=10) plays"))
        .collect();
    assert!(searched.len() > 20, "{out}");
    // The mover's principal variation follows the value: from the move played, and
    // in the solved endgame to the end of the game.
    let mut board = reversi_lab::board::Board::<Size8>::start();
    let mut lines = 0;
    for text in out.lines().filter(|l| l.starts_with("move ")) {
        let played = text.split(" plays ").nth(1).unwrap();
        let square = Square::parse(played.split([' ', ',']).next().unwrap(), 8).unwrap();
        if let Some(line) = text.split("; line ").nth(1) {
            let line: Vec<Square> = line
                .split(')')
                .next()
                .unwrap()
                .split(' ')
                .map(|name| Square::parse(name, 8).unwrap())
                .collect();
            assert_eq!(line[0], square, "{text}");
            let (end, _) = reference::play_line(board, &line);
            if board.empty_count() <= 10 {
                assert!(end.is_game_over(), "a solved line stops short: {text}");
            }
            lines += 1;
        }
        if !board.can_move() {
            board = board.pass();
        }
        board = board.play(square);
    }
    // At depth 2 the table keeps nothing below the root's children, so a midgame line
    // is the move alone and is not shown; the solved endgame's lines run to the end.
    assert!(lines >= 3, "{out}");
    for line in &searched {
        let value = line.split("(its value ").nth(1).unwrap();
        let value = value.split([')', ';']).next().unwrap();
        let exact = ["wins by ", "loses by ", "draws"]
            .iter()
            .any(|w| value.starts_with(w));
        // An estimate: discs with one decimal, within a game's margin.
        let estimate = value
            .strip_suffix(" discs")
            .and_then(|n| n.parse::<f64>().ok())
            .is_some_and(|n| n.abs() < 200.0 && value.contains('.'));
        assert!(exact || estimate, "not discs: {line}");
    }
    assert!(
        searched.last().unwrap().contains("(its value wins by"),
        "{out}"
    );
    // `eval` says the scale on screen, and the line its search expects.
    reversi_lab()
        .args(["play", "--level", "medium"])
        .write_stdin("eval\nquit\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "(larger is better for black; discs of final margin, estimated; exact where",
        ))
        .stdout(predicate::function(|out: &str| {
            // A line of at least two moves, from one of the four first moves.
            out.lines()
                .filter_map(|l| l.split_once("best line by "))
                .filter_map(|(_, rest)| rest.split_once(": "))
                .any(|(_, line)| {
                    let moves: Vec<&str> = line.split(' ').collect();
                    moves.len() >= 2 && ["d3", "c4", "f5", "e6"].contains(&moves[0])
                })
        }));
}
