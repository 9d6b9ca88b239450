//! Scripted GTP sessions: a whole conversation in, every reply out.

use super::*;
use crate::board::{Size4, Size6};
use crate::serve::tests::self_play;

fn session(spec: &str, script: &str) -> String {
    let spec = StrategySpec::parse(spec).unwrap();
    let mut out = Vec::new();
    serve(&spec, 1, script.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The replies of a session, each without its blank line.
fn replies(spec: &str, script: &str) -> Vec<String> {
    let text = session(spec, script);
    assert!(text.ends_with("\n\n") || text.is_empty(), "{text:?}");
    text.split_terminator("\n\n").map(str::to_string).collect()
}

#[test]
fn administrative_commands_and_ids() {
    let got = replies(
        "greedy",
        "protocol_version\n1 name\n\n# a comment\n  2 version  \nknown_command genmove\nknown_command fly\nlist_commands\n7 bogus\nkomi 6.5\nset_game Othello\nset_game chess\nlist_games\n",
    );
    let list = format!("= {}", COMMANDS.join("\n"));
    let expected = [
        "= 2",
        "=1 reversi-lab",
        &format!("=2 {}", env!("CARGO_PKG_VERSION")),
        "= true",
        "= false",
        &list,
        "?7 unknown command",
        "=",
        "=",
        "? unsupported game",
        "= Othello",
    ];
    assert_eq!(got, expected);
}

#[test]
fn board_sizes() {
    let got = replies(
        "greedy",
        "boardsize 9\nboardsize x\nboardsize 6\nshowboard\nboardsize 10\ngenmove b\nboardsize 8\n",
    );
    assert_eq!(got[0], "? unacceptable size");
    assert_eq!(got[1], "? boardsize not an integer");
    assert_eq!(got[2], "=");
    let board = format!("=\n{}", Drawing::new(Position::<Size6>::start()));
    assert_eq!(got[3], board);
    assert_eq!((got[4].as_str(), got[6].as_str()), ("=", "="));
    let moves: Vec<String> =
        crate::board::squares(crate::board::Board::<crate::board::Size10>::start().moves())
            .map(|s| format!("= {}", s.name(10)))
            .collect();
    assert!(moves.contains(&got[5]), "{}", got[5]);
    // The pattern evaluation is for 8x8 only.
    let got = replies(super::super::DEFAULT_STRATEGY, "boardsize 6\nboardsize 8\n");
    assert_eq!(got, ["? unacceptable size", "="]);
}

#[test]
fn plays_undoes_and_refuses() {
    let got = replies(
        "greedy",
        "play BLACK F5\nplay w D6\nplay b d6\nplay b z9\nplay x f4\nplay w c3\nplay b pass\nundo\nundo\nundo\nshowboard\n",
    );
    assert_eq!(
        got[..7],
        [
            "=",
            "=",
            "? illegal move",
            "? syntax error",
            "? syntax error",
            "? illegal move",
            "? illegal move"
        ]
    );
    assert_eq!(got[7..10], ["=", "=", "? cannot undo"]);
    assert_eq!(
        got[10],
        format!(
            "=\n{}",
            Drawing::new(Position::<crate::board::Size8>::start())
        )
    );
}

/// Every turn of a self-play game told by `play`, passes left out (the server puts
/// them in) or said, then scored.
#[test]
fn passes_are_put_in_or_taken_and_the_game_scored() {
    let turns = (0..)
        .map(|seed| self_play::<Size4>("random", seed))
        .find(|turns| turns.contains(&None))
        .unwrap();
    let game = crate::game::Game::<Size4>::from_transcript(
        &turns
            .iter()
            .flatten()
            .map(|s| s.name(4))
            .collect::<String>(),
    )
    .unwrap();
    let margin = game.outcome(RULES).unwrap().margin;
    let score = match margin {
        0 => "= 0".to_string(),
        m if m > 0 => format!("= B+{m}"),
        m => format!("= W+{}", -m),
    };
    for said in [false, true] {
        let mut script = String::from("boardsize 4\nclear_board\nfinal_score\n");
        let mut side = Color::Black;
        for turn in &turns {
            match turn {
                Some(square) => script.push_str(&format!("play {side} {}\n", square.name(4))),
                None if said => script.push_str(&format!("play {side} PASS\n")),
                None => {}
            }
            side = side.opposite();
        }
        script.push_str("final_score\nplay b pass\n");
        let got = replies("greedy", &script);
        assert_eq!(got[2], "? cannot score");
        assert!(got[3..got.len() - 2].iter().all(|r| r == "="), "{got:?}");
        assert_eq!(got[got.len() - 2], score);
        assert_eq!(got[got.len() - 1], "=");
    }
}

/// genmove for each colour in turn plays the built strategy's game, passes included.
#[test]
fn genmove_plays_the_built_strategys_game() {
    for (spec, size) in [("alphabeta:depth=3,endgame=6", 6), ("random", 4)] {
        let turns =
            with_geometry!(size, G => self_play::<G>(spec, crate::lab::Seeds(1).game(0, 0)));
        let mut script = format!("boardsize {size}\nclear_board\n");
        for i in 0..turns.len() + 2 {
            script.push_str(if i % 2 == 0 {
                "genmove b\n"
            } else {
                "genmove w\n"
            });
        }
        let got = replies(spec, &script);
        let expected: Vec<String> = ["=", "="]
            .into_iter()
            .map(String::from)
            .chain(
                turns
                    .iter()
                    .map(|t| format!("= {}", t.map_or("pass".into(), |s| s.name(size)))),
            )
            .chain(["= pass", "= pass"].map(String::from))
            .collect();
        assert_eq!(got, expected, "{spec}");
    }
}

#[test]
fn reg_genmove_leaves_the_board_and_the_game() {
    let got = replies(
        "alphabeta:depth=3",
        "reg_genmove b\nshowboard\ngenmove b\nreg_genmove b\ngenmove white\n",
    );
    assert_eq!(got[0], got[2], "the same search at the start");
    assert_eq!(
        got[1],
        format!(
            "=\n{}",
            Drawing::new(Position::<crate::board::Size8>::start())
        )
    );
    assert_eq!(got[3], "? wrong color");
    assert!(got[4].starts_with("= "));
}

#[test]
fn clocks_are_accepted_and_shown() {
    let got = replies(
        "greedy",
        "time_settings 300 0 0\ntime_left black 120 0\ntime_left w 7.5 3\ntime_settings a b c\ntime_left x 1 1\nshowboard\n",
    );
    assert_eq!(
        got[..5],
        ["=", "=", "=", "? syntax error", "? syntax error"]
    );
    assert!(got[5].ends_with(
        "time settings: 300 s main, 0 s for 0 stones\nblack time left: 120 s, 0 stones\nwhite time left: 7.5 s, 3 stones"
    ), "{}", got[5]);
}

#[test]
fn the_clock_bounds_the_think() {
    use std::time::Duration;
    let clock = |settings, black, white| Clock {
        settings,
        left: [black, white],
    };
    let secs = |s: f64| Some(Duration::from_secs_f64(s * 0.9));
    let main = Some((60.0, 0.0, 0));
    // No clock, or GTP's "no limit": the strategy's own limits only.
    assert_eq!(budget(&Clock::default(), Color::White, 40), None);
    assert_eq!(
        budget(&clock(Some((0.0, 5.0, 0)), None, None), Color::White, 40),
        None
    );
    // Told 0 s left (0.9 s rounded down by GTP): the least possible think.
    let none_left = clock(main, None, Some((0.0, 0)));
    assert_eq!(budget(&none_left, Color::White, 40), Some(Duration::ZERO));
    assert_eq!(
        budget(&clock(Some((0.0, 0.0, 0)), None, None), Color::Black, 40),
        Some(Duration::ZERO)
    );
    // Main time spread over this side's moves to come; byo-yomi over its stones.
    assert_eq!(
        budget(&clock(main, Some((20.0, 0)), None), Color::Black, 40),
        secs(1.0)
    );
    assert_eq!(
        budget(&clock(main, None, None), Color::Black, 2),
        secs(60.0)
    );
    assert_eq!(
        budget(&clock(Some((0.0, 1.0, 1)), None, None), Color::Black, 50),
        secs(1.0)
    );
    assert_eq!(
        budget(
            &clock(Some((0.0, 10.0, 5)), Some((6.0, 3)), None),
            Color::Black,
            50
        ),
        secs(2.0)
    );
    assert_eq!(
        budget(
            &clock(Some((30.0, 10.0, 5)), Some((0.0, 0)), None),
            Color::Black,
            50
        ),
        secs(2.0)
    );
}

/// `time_left white 0 0` (0.9 s, as GTP rounds it) is a move at once: a search of a
/// 2 s budget a move answers in far less, where before it took its whole budget.
#[test]
fn no_time_left_is_a_move_at_once() {
    let spec = "alphabeta:depth=60,time=2s,eval=pattern";
    let script = "boardsize 8\nclear_board\ntime_settings 60 0 0\nplay black f5\ntime_left white 0 0\ngenmove white\n";
    let began = std::time::Instant::now();
    let got = replies(spec, script);
    assert!(
        began.elapsed() < std::time::Duration::from_millis(1000),
        "{:?}",
        began.elapsed()
    );
    assert_eq!(got.len(), 6, "{got:?}");
    assert!(
        ["= f6", "= d6", "= f4"].contains(&got[5].as_str()),
        "{got:?}"
    );
    // A new game starts with the settings' whole time.
    let mut clock = Clock {
        settings: Some((60.0, 0.0, 0)),
        left: [None, Some((0.0, 0))],
    };
    assert_eq!(
        budget(&clock, Color::White, 58),
        Some(std::time::Duration::ZERO)
    );
    clock.left = [None; 2];
    assert!(budget(&clock, Color::White, 58) > Some(std::time::Duration::from_secs(1)));
}

#[test]
fn quit_and_the_end_of_input_end_cleanly() {
    assert_eq!(replies("greedy", "5 quit\nname\n"), ["=5"]);
    assert_eq!(replies("greedy", "name"), ["= reversi-lab"]);
    assert!(session("greedy", "").is_empty());
    // Bytes that are not UTF-8 are a command like any other.
    let spec = StrategySpec::Greedy(crate::strategy::spec::GreedySpec {});
    let mut out = Vec::new();
    serve(&spec, 1, &b"\xff\xfe\nname\n"[..], &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "? unknown command\n\n= reversi-lab\n\n"
    );
}
