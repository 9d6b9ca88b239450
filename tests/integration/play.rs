//! `play` and `watch` as a person meets them: whole games typed line by line
//! through a pipe (and once through a real terminal under tmux), bad input, the end of
//! input, and the values they show.

mod values;

use crate::common::{binary, reversi_lab, Dir};
use predicates::prelude::*;
use reversi_lab::board::Size8;
use reversi_lab::game::Game;
use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// `play` driven as a person would: read up to the prompt, then type a line.
struct Person {
    child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<u8>,
    /// Everything printed so far.
    seen: String,
    /// Every line typed so far.
    typed: String,
}

impl Person {
    fn start(args: &[&str]) -> Self {
        let mut child = reversi_lab()
            .args(args)
            .std()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let (send, output) = channel();
        std::thread::spawn(move || {
            let mut byte = [0u8];
            while stdout.read(&mut byte).is_ok_and(|n| n == 1) {
                if send.send(byte[0]).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Person {
            child,
            stdin,
            output,
            seen: String::new(),
            typed: String::new(),
        }
    }

    /// Reads up to the next prompt (`> ` or `[y/n] `) and returns what came since.
    fn until_prompt(&mut self) -> String {
        let from = self.seen.len();
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut bytes = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let byte = self
                .output
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no prompt; output so far:\n{}", self.seen));
            bytes.push(byte);
            if bytes.ends_with(b"> ") || bytes.ends_with(b"[y/n] ") {
                break;
            }
        }
        self.seen.push_str(&String::from_utf8(bytes).unwrap());
        self.seen[from..].to_string()
    }

    /// Types a line and reads the answer, up to the next prompt.
    fn type_line(&mut self, line: &str) -> String {
        self.answer(line);
        self.until_prompt()
    }

    /// Types a line after which no prompt comes (the last answer).
    fn answer(&mut self, line: &str) {
        writeln!(self.stdin.as_mut().unwrap(), "{line}").unwrap();
        self.typed.push_str(line);
        self.typed.push('\n');
    }

    /// The legal moves the prompt lists after an empty line.
    fn legal_moves(&mut self) -> Vec<String> {
        let answer = self.type_line("");
        let list = answer
            .split("legal moves: ")
            .nth(1)
            .unwrap_or_else(|| panic!("no legal moves in {answer}"));
        let list = list.split(" (").next().unwrap();
        list.split_whitespace().map(str::to_string).collect()
    }

    /// Plays the first legal move at every own turn until the game is over.
    fn play_to_the_end(&mut self, last: &mut String) {
        while !last.ends_with("[y/n] ") {
            let moves = self.legal_moves();
            *last = self.type_line(&moves[0]);
        }
    }

    fn finish(mut self) -> (String, String) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
        let rest: Vec<u8> = self.output.iter().collect();
        self.seen.push_str(&String::from_utf8(rest).unwrap());
        (self.seen, self.typed)
    }
}

/// The transcript after the last `transcript: ` in `text`.
fn last_transcript(text: &str) -> String {
    let tail = text.rsplit("transcript: ").next().unwrap();
    tail.lines().next().unwrap().trim().to_string()
}

#[test]
fn a_whole_game_against_alphabeta_with_hints_eval_undo_save_and_play_again() {
    let dir = Dir::new();
    let saved = dir.path().join("game.txt");
    let args = ["play", "--vs", "alphabeta:depth=4", "--seed", "7"];
    let mut person = Person::start(&args);
    let start = person.until_prompt();
    assert!(
        start.contains("you play black (X) against alphabeta:depth=4"),
        "{start}"
    );
    assert!(start.contains(" 4  . . . O X . . ."), "{start}");
    assert!(!start.contains('\x1b'), "no colour through a pipe: {start}");
    let hints = person.type_line("hints");
    assert!(hints.contains(" 5  . . . X O * . ."), "{hints}");
    let eval = person.type_line("eval");
    assert!(
        eval.contains("eval by alphabeta:depth=4 (larger is better for black; square-table points, not discs; exact where a move wins, draws or loses by a margin): "),
        "{eval}"
    );
    let reply = person.type_line("F5");
    assert!(
        reply.contains("black (you) plays f5, flipping e5"),
        "{reply}"
    );
    assert!(
        reply.contains("white (alphabeta:depth=4) plays "),
        "{reply}"
    );
    let undo = person.type_line("undo");
    assert!(undo.contains("took back 2 moves"), "{undo}");
    assert!(
        undo.contains("discs: black 2, white 2; black to move"),
        "{undo}"
    );
    for _ in 0..6 {
        let moves = person.legal_moves();
        person.type_line(&moves[0]);
    }
    let save = person.type_line(&format!("save {}", saved.display()));
    assert!(save.contains("saved the transcript to"), "{save}");
    let mut last = String::new();
    person.play_to_the_end(&mut last);
    assert!(last.contains("game over: "), "{last}");
    assert!(
        last.contains("normal rules, empty squares to the winner"),
        "{last}"
    );
    let first = last_transcript(&last);
    let game = Game::<Size8>::from_transcript(&first).unwrap();
    assert!(game.is_over(), "{first}");
    let written = std::fs::read_to_string(&saved).unwrap();
    assert!(
        written.ends_with('\n') && first.starts_with(written.trim()) && written.len() > 12,
        "{written} is not the start of {first}"
    );
    // Play again: a second game from the start, then no.
    let mut again = person.type_line("y");
    assert!(again.contains("game 2: you play black"), "{again}");
    person.play_to_the_end(&mut again);
    person.answer("n");
    let (seen, typed) = person.finish();
    assert_eq!(seen.matches("game over: ").count(), 2);
    // The replay below saves again: `save` keeps an existing file.
    std::fs::remove_file(&saved).unwrap();
    // The same lines through a plain pipe give the same session, byte for byte.
    let output = reversi_lab()
        .args(args)
        .write_stdin(typed)
        .assert()
        .success();
    let piped = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    assert_eq!(piped, seen);
}

#[test]
fn bad_input_reprompts_with_the_reason_and_the_legal_moves() {
    reversi_lab()
        .args(["play", "--vs", "greedy"])
        .write_stdin("z9\nf4\ndance\nsave\n\nf5 d6\n\x1b[15~\nquit\n")
        .assert()
        .success()
        // F5 at a terminal: said plainly, not in Rust's debug form ('\u{1b}[15~').
        .stdout(predicate::str::contains(
            "a special key (an arrow, a function key) is no command: type a square",
        ))
        .stdout(predicate::str::contains("\\u{1b}").not())
        .stdout(predicate::str::contains(
            "'z9' is not a square of the 8x8 board (columns a-h, rows 1-8); legal moves: d3 c4 f5 e6",
        ))
        .stdout(predicate::str::contains(
            "f4 is not a legal move for black (legal: d3 c4 f5 e6)",
        ))
        .stdout(predicate::str::contains("unknown command 'dance': type a square (legal: d3 c4 f5 e6)"))
        .stdout(predicate::str::contains("save needs a file name: save FILE"))
        .stdout(predicate::str::contains("legal moves: d3 c4 f5 e6 (help lists"))
        .stdout(predicate::str::contains("unknown command 'f5 d6'"))
        .stdout(predicate::str::ends_with("quit\ntranscript so far: (no moves)\n"));
}

#[test]
fn save_keeps_an_existing_file_unless_told_with_save_bang() {
    let dir = Dir::new();
    let config = dir.path().join("m.toml");
    std::fs::write(&config, "name = \"mine\"\n").unwrap();
    let c = config.display();
    reversi_lab()
        .current_dir(dir.path())
        .args(["play", "--vs", "greedy"])
        .write_stdin(format!("save {c}\nf5\nsave new.txt\nsave! {c}\nquit\n"))
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "{c} already exists: save to another file, or type save! {c} to replace it"
        )))
        .stdout(predicate::str::contains("saved the transcript to new.txt"));
    let replaced = std::fs::read_to_string(&config).unwrap();
    assert!(replaced.starts_with("f5"), "{replaced}");
    let new = std::fs::read_to_string(dir.path().join("new.txt")).unwrap();
    assert_eq!(new, replaced);
}

#[test]
fn the_end_of_input_mid_game_ends_cleanly_with_the_transcript() {
    let output = reversi_lab()
        .args(["play", "--level", "easy"])
        .write_stdin("f5\n")
        .assert()
        .success();
    let text = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    let tail = text.rsplit("transcript so far: ").next().unwrap();
    assert!(tail.starts_with("f5") && tail.trim().len() == 4, "{text}");
    // No input at all.
    reversi_lab()
        .args(["play"])
        .write_stdin("")
        .assert()
        .success()
        .stdout(predicate::str::ends_with(
            "black (you)> \ntranscript so far: (no moves)\n",
        ));
}

#[test]
fn a_closed_output_ends_play_without_a_panic() {
    let mut child = reversi_lab()
        .args(["play", "--vs", "greedy"])
        .std()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let mut stdin = child.stdin.take().unwrap();
    // The session may already have ended on the closed output.
    let _ = stdin.write_all("f5\nhints\nc4\neval\n".repeat(20).as_bytes());
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{} {stderr}", output.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn two_people_play_a_whole_game_at_one_keyboard() {
    // A whole game of first legal moves, typed one square a line.
    let mut game = Game::<Size8>::new();
    let mut lines = String::new();
    while !game.is_over() {
        let square = reversi_lab::board::squares(game.legal_moves())
            .next()
            .unwrap();
        lines.push_str(&square.name(8).to_uppercase());
        lines.push('\n');
        game.play(square).unwrap();
    }
    lines.push_str("n\n");
    let output = reversi_lab()
        .args(["play", "--vs", "human"])
        .write_stdin(lines)
        .assert()
        .success()
        .stdout(predicate::str::contains("two players at one keyboard"))
        .stdout(predicate::str::contains("white> "));
    let text = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    assert_eq!(last_transcript(&text), game.transcript());
    assert!(!text.contains("(you)"));
    let outcome = game.outcome(Default::default()).unwrap();
    let line = format!(
        "black {}, white {}; normal rules",
        outcome.black_discs, outcome.white_discs
    );
    assert!(text.contains(&line), "{line} not in {text}");
    assert!(text.ends_with("play again? [y/n] n\n"), "{text}");
}

#[test]
fn games_start_from_a_position_or_moves_and_undo_stops_there() {
    reversi_lab()
        .args(["play", "--vs", "human", "--moves", "f5d6c3"])
        .write_stdin("undo\nd3\nundo\nundo\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("discs: black 6, white 1; white to move").not())
        .stdout(predicate::str::contains("white> undo\nnothing to undo"))
        .stdout(predicate::str::contains("took back 1 move\n"))
        .stdout(predicate::str::ends_with("transcript so far: f5d6c3\n"));
    // A 6x6 position, white to move, the person playing white: the board is 6 wide.
    let obf = format!("{}OX----XO{}{} O", "-".repeat(14), "-".repeat(14), "");
    reversi_lab()
        .args([
            "play",
            "--position",
            &obf,
            "--colour",
            "white",
            "--vs",
            "greedy",
        ])
        .write_stdin("hints\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "you play white (O) against greedy; 6x6",
        ))
        .stdout(predicate::str::contains("    a b c d e f\n"))
        .stdout(predicate::str::contains("white (you)> hints"));
    // The computer moves first when the person plays white.
    reversi_lab()
        .args([
            "play", "--colour", "white", "--level", "easy", "--size", "4",
        ])
        .write_stdin("")
        .assert()
        .success()
        .stdout(predicate::str::contains("black (greedy) plays "))
        // A 4x4 board has no f5: the prompt's example is one of its squares.
        .stdout(predicate::str::contains("type a square such as f5").not())
        .stdout(predicate::function(|out: &str| {
            out.lines().any(|line| {
                let example = line
                    .strip_prefix("type a square such as ")
                    .and_then(|rest| rest.strip_suffix(" to play, or help"));
                example.is_some_and(|s| {
                    let b = s.as_bytes();
                    b.len() == 2 && (b'a'..=b'd').contains(&b[0]) && (b'1'..=b'4').contains(&b[1])
                })
            })
        }));
    // Bad starts are one-line errors with exit code 2.
    for args in [
        &["play", "--moves", "f5f5"][..],
        &["play", "--vs", "nonsense"],
        &["play", "--size", "5"],
        &["play", "--vs", "solver"],
    ] {
        reversi_lab()
            .args(args)
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with("error: "))
            .stderr(predicate::function(|e: &str| e.lines().count() == 1));
    }
}

#[test]
fn six_by_six_anti_games_are_scored_under_anti_rules() {
    let mut person = Person::start(&[
        "play",
        "--size",
        "6",
        "--anti",
        "--scoring",
        "count",
        "--vs",
        "greedy",
        "--colour",
        "random",
        "--seed",
        "5",
    ]);
    let mut last = person.until_prompt();
    assert!(
        last.contains("6x6, anti rules: fewer discs win, empty squares not counted"),
        "{last}"
    );
    person.play_to_the_end(&mut last);
    let transcript = last_transcript(&last);
    let game =
        reversi_lab::game::Game::<reversi_lab::board::Size6>::from_transcript(&transcript).unwrap();
    let rules = reversi_lab::game::Rules {
        anti: true,
        scoring: reversi_lab::game::Scoring::Count,
    };
    let outcome = game.outcome(rules).unwrap();
    let expected = match outcome.winner {
        Some(colour) => format!("game over: {colour} wins by {}", outcome.margin.abs()),
        None => "game over: a draw".to_string(),
    };
    assert!(last.contains(&expected), "{expected} not in {last}");
    person.answer("n");
    person.finish();
}

/// Through a real terminal (tmux): the board is drawn in colour.
#[test]
fn play_in_a_terminal_draws_in_colour() {
    let has_tmux = std::process::Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_tmux {
        crate::common::missing("tmux is not installed (apt-get install tmux)");
        return;
    }
    let socket = format!("reversi-lab-test-{}", std::process::id());
    let tmux = |args: &[&str]| {
        std::process::Command::new("tmux")
            .args(["-L", &socket])
            .args(args)
            .output()
            .unwrap()
    };
    let command = format!("{} play --vs greedy; sleep 30", binary());
    let started = tmux(&["new-session", "-d", "-x", "100", "-y", "50", &command]);
    assert!(started.status.success(), "{started:?}");
    let screen = |colour: bool| {
        let mut args = vec!["capture-pane", "-p"];
        if colour {
            args.push("-e");
        }
        String::from_utf8_lossy(&tmux(&args).stdout).to_string()
    };
    let wait_for = |text: &str| {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !screen(false).contains(text) {
            assert!(
                Instant::now() < deadline,
                "no '{text}' on screen:\n{}",
                screen(false)
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    wait_for("black (you)>");
    // -l: literally, since "f5" alone names a function key to tmux.
    let type_line = |line: &str| {
        tmux(&["send-keys", "-l", line]);
        tmux(&["send-keys", "Enter"]);
    };
    type_line("hints");
    wait_for("hints on");
    type_line("f5");
    wait_for("white (greedy) plays");
    let coloured = screen(true);
    let plain = screen(false);
    tmux(&["send-keys", "C-d"]);
    wait_for("transcript so far: f5");
    tmux(&["kill-server"]);
    assert!(coloured.contains("\x1b["), "no ANSI colour:\n{coloured}");
    assert!(
        coloured.contains('\u{25cf}'),
        "no black discs drawn:\n{coloured}"
    );
    assert!(
        coloured.contains('\u{25cb}'),
        "no white discs drawn:\n{coloured}"
    );
    // NO_COLOR (no-color.org): the same terminal, drawn in plain X and O (a server
    // of its own: the first one is gone).
    let socket = format!("reversi-lab-test-nc-{}", std::process::id());
    let tmux = |args: &[&str]| {
        std::process::Command::new("tmux")
            .args(["-L", &socket])
            .args(args)
            .output()
            .unwrap()
    };
    let screen = |colour: bool| {
        let mut args = vec!["capture-pane", "-p"];
        if colour {
            args.push("-e");
        }
        String::from_utf8_lossy(&tmux(&args).stdout).to_string()
    };
    let command = format!("NO_COLOR=1 {} play --vs greedy; sleep 30", binary());
    let started = tmux(&["new-session", "-d", "-x", "100", "-y", "50", &command]);
    assert!(started.status.success(), "{started:?}");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !screen(false).contains("black (you)>") {
        assert!(Instant::now() < deadline, "no prompt:\n{}", screen(false));
        std::thread::sleep(Duration::from_millis(100));
    }
    let plain_terminal = screen(true);
    tmux(&["kill-server"]);
    assert!(
        !plain_terminal.contains("\x1b[4"),
        "colour despite NO_COLOR:\n{plain_terminal}"
    );
    assert!(
        plain_terminal.contains(" X O") || plain_terminal.contains(" O X"),
        "{plain_terminal}"
    );
    // Typed lines are not echoed on a terminal (the terminal shows them).
    assert!(plain.contains("> hints\nhints on"), "{plain}");
}

#[test]
fn watch_draws_game_zero_of_the_match_move_by_move() {
    let dir = Dir::new();
    let csv = dir.path().join("games.csv");
    let common = ["--seed", "3", "--openings", "2", "--size", "6"];
    reversi_lab()
        .args(["match", "greedy", "mobility", "--games", "1", "--csv"])
        .arg(&csv)
        .args(common)
        .assert()
        .success();
    let text = std::fs::read_to_string(&csv).unwrap();
    let row = text.lines().nth(1).unwrap();
    let moves = row.split(',').nth(11).unwrap();
    let output = reversi_lab()
        .args(["watch", "greedy", "mobility"])
        .args(common)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "greedy (black) vs mobility (white), 6x6, seed 3, opening ",
        ))
        .stdout(predicate::str::contains("move 3: black (greedy) plays "))
        .stdout(predicate::str::contains("(its value "))
        .stdout(predicate::str::contains("result: "));
    let out = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    assert_eq!(last_transcript(&out), moves);
    assert!(!out.contains('\x1b'));
    reversi_lab()
        .args(["watch", "greedy", "solver"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("strategy B: "));
}

/// Issue 52, item 32: under anti rules the levels search an evaluation for anti rules
/// (the pattern evaluation's `medium` scored 10.5% against random) and say so.
#[test]
fn levels_under_anti_rules_play_the_anti_evaluation_and_beat_random() {
    use reversi_lab::game::Rules;
    use reversi_lab_cli::commands::interactive::Level;
    let anti = Rules {
        anti: true,
        ..Rules::default()
    };
    let medium = Level::Medium.spec_for(8, anti);
    assert!(
        medium.contains("discs=-1") && !medium.contains("pattern"),
        "{medium}"
    );
    reversi_lab()
        .args(["play", "--anti"])
        .write_stdin("quit\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "against {medium}; 8x8, anti rules"
        )));
    let output = reversi_lab()
        .args([
            "match", medium, "random", "--anti", "--games", "20", "--format", "json",
        ])
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    let score = json["score"].as_f64().unwrap();
    assert!(
        score >= 0.8,
        "medium under anti rules scored {score} against random"
    );
}
