//! `reversi-lab openings`: balanced opening lists (the enumeration against a brute
//! force, the values, the header, determinism, `run` reading the file, bad input),
//! and the run report's count of distinct games.

use crate::common::{ok, Dir};
use reversi_lab::board::{squares, Geometry, Size6, Symmetry};
use reversi_lab::game::{Game, Rules};
use reversi_lab::strategy::{Context, GameRng, Memory, StrategySpec};
use std::collections::HashSet;

/// The transcripts of a list (its lines that are not comments).
fn lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.starts_with('#')).collect()
}

/// A position as text, seen through a symmetry: the side to move, then each
/// square's disc, written independently of the library's canonical form.
fn image<G: Geometry>(game: &Game<G>, symmetry: Symmetry) -> String {
    let position = game.position();
    let size = G::SIZE;
    let mut text = format!("{:?}", position.side);
    let mut cells = vec!['-'; (size * size) as usize];
    for (set, disc) in [(position.black(), 'X'), (position.white(), 'O')] {
        for square in squares(set) {
            cells[symmetry.apply(square, size).index() as usize] = disc;
        }
    }
    text.extend(cells);
    text
}

/// Every position `plies` moves from the start up to symmetry, by playing every sequence.
fn brute_force<G: Geometry>(game: &Game<G>, plies: u32, seen: &mut HashSet<String>) {
    if game.is_over() {
        return;
    }
    if plies == 0 {
        let smallest = Symmetry::ALL.iter().map(|&s| image(game, s)).min().unwrap();
        seen.insert(smallest);
        return;
    }
    for square in squares(game.legal_moves()) {
        let mut next = game.clone();
        next.play(square).unwrap();
        brute_force(&next, plies - 1, seen);
    }
}

#[test]
fn small_trees_match_a_brute_force_count_up_to_symmetry() {
    let dir = Dir::new();
    for plies in 2..=4 {
        let mut seen = HashSet::new();
        brute_force(&Game::<Size6>::new(), plies, &mut seen);
        let out = format!("p{plies}.txt");
        ok(
            dir.path(),
            &[
                "openings",
                "--plies",
                &plies.to_string(),
                "--size",
                "6",
                "--eval",
                "greedy",
            ]
            .into_iter()
            .chain(["--within", "100", "--out", &out, "--quiet"])
            .collect::<Vec<_>>(),
        );
        let text = std::fs::read_to_string(dir.path().join(&out)).unwrap();
        let listed = lines(&text);
        assert_eq!(listed.len(), seen.len(), "{plies} plies");
        // Each line reaches a different class, in exactly `plies` moves.
        let classes: HashSet<String> = listed
            .iter()
            .map(|t| {
                let game = Game::<Size6>::from_transcript(t).unwrap();
                assert_eq!(game.moves().len(), plies as usize, "{t}");
                Symmetry::ALL
                    .iter()
                    .map(|&s| image(&game, s))
                    .min()
                    .unwrap()
            })
            .collect();
        assert_eq!(classes, seen);
    }
}

#[test]
fn kept_lines_replay_to_positions_within_the_bound() {
    let dir = Dir::new();
    let summary = ok(
        dir.path(),
        &[
            "openings", "--plies", "4", "--size", "6", "--eval", "greedy", "--within", "2",
            "--out", "o.txt", "--csv", "o.csv", "--quiet",
        ],
    );
    assert!(summary.contains("up to symmetry"), "{summary}");
    let text = std::fs::read_to_string(dir.path().join("o.txt")).unwrap();
    let kept = lines(&text);
    assert!(!kept.is_empty());
    let strategy = StrategySpec::parse("greedy")
        .unwrap()
        .build::<Size6>(Rules::default())
        .unwrap();
    for t in &kept {
        let game = Game::<Size6>::from_transcript(t).unwrap();
        let board = game.board();
        let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(0);
        let mut memory = Memory::new();
        let mut context = Context {
            rng: &mut rng,
            memory: &mut memory,
            history: reversi_lab::strategy::History::from_start(game.moves()),
        };
        let best = strategy
            .move_values(board, board.moves(), &mut context)
            .unwrap()
            .into_iter()
            .map(|(_, v)| v)
            .max()
            .unwrap();
        // greedy values a move by the discs it flips.
        assert!(best.abs() <= 2, "{t}: value {best}");
    }
    // The CSV lists every class, and marks exactly the kept ones.
    let csv = std::fs::read_to_string(dir.path().join("o.csv")).unwrap();
    let mut rows = csv.lines();
    assert_eq!(rows.next(), Some("transcript,value,exact,nodes,kept"));
    let marked: Vec<&str> = rows
        .filter(|r| r.ends_with(",true"))
        .map(|r| r.split(',').next().unwrap())
        .collect();
    assert_eq!(marked, kept);
    // The header records the recipe and the counts, as comments `run` skips.
    assert!(text.starts_with("# Balanced openings for 6x6"), "{text}");
    assert!(text
        .contains("# Recipe: reversi-lab openings --plies 4 --size 6 --eval greedy --within 2\n"));
    assert!(text.contains(&format!("# Kept: {} whose value", kept.len())));
}

#[test]
fn the_same_options_write_the_same_bytes_on_any_thread_count() {
    let dir = Dir::new();
    let args = |threads: &'static str, out: &'static str| {
        vec![
            "openings",
            "--plies",
            "4",
            "--size",
            "6",
            "--eval",
            "alphabeta:depth=3",
            "--within",
            "1000",
            "--max",
            "30",
            "--threads",
            threads,
            "--out",
            out,
            "--quiet",
        ]
    };
    ok(dir.path(), &args("1", "one.txt"));
    ok(dir.path(), &args("2", "two.txt"));
    let one = std::fs::read(dir.path().join("one.txt")).unwrap();
    assert_eq!(one, std::fs::read(dir.path().join("two.txt")).unwrap());
    assert_eq!(lines(std::str::from_utf8(&one).unwrap()).len(), 30);
}

#[test]
fn run_plays_from_a_generated_list() {
    let dir = Dir::new();
    ok(
        dir.path(),
        &[
            "openings",
            "--plies",
            "3",
            "--size",
            "6",
            "--eval",
            "greedy",
            "--within",
            "100",
            "--out",
            "openings.txt",
            "--quiet",
        ],
    );
    std::fs::write(
        dir.path().join("e.toml"),
        "name = \"e\"\nsize = 6\ngames_per_pair = 8\n[openings]\nfile = \"openings.txt\"\n\
         [[players]]\nname = \"g\"\nstrategy = \"greedy\"\n[[players]]\nname = \"r\"\nstrategy = \"random\"\n",
    )
    .unwrap();
    ok(
        dir.path(),
        &["run", "e.toml", "--out", "res", "--quiet", "--no-report"],
    );
    let text = std::fs::read_to_string(dir.path().join("openings.txt")).unwrap();
    let listed: HashSet<&str> = lines(&text).into_iter().collect();
    let games = std::fs::read_to_string(dir.path().join("res/games.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(games.as_bytes());
    let openings: Vec<String> = rows.records().map(|r| r.unwrap()[2].to_string()).collect();
    assert_eq!(openings.len(), 8);
    assert!(
        openings.iter().all(|o| listed.contains(o.as_str())),
        "{openings:?}"
    );
}

#[test]
fn bad_input_is_refused_with_exit_code_2() {
    let dir = Dir::new();
    std::fs::write(dir.path().join("taken.txt"), "c4\n").unwrap();
    let base = ["openings", "--size", "6", "--within", "2"];
    for (extra, says) in [
        (
            vec!["--plies", "2", "--eval", "greedy", "--out", "taken.txt"],
            "--force",
        ),
        (
            vec!["--plies", "0", "--eval", "greedy", "--out", "a.txt"],
            "--plies 0",
        ),
        (
            vec![
                "--plies", "2", "--eval", "greedy", "--out", "a.txt", "--csv", "a.txt",
            ],
            "both name a.txt",
        ),
        (
            vec!["--plies", "2", "--eval", "greedy", "--out", "nowhere/a.txt"],
            "the folder nowhere does not exist",
        ),
        (
            vec!["--plies", "13", "--eval", "greedy", "--out", "a.txt"],
            "--plies 13",
        ),
        (
            vec!["--plies", "2", "--eval", "nonsense", "--out", "a.txt"],
            "--eval",
        ),
        (
            vec!["--plies", "2", "--eval", "random", "--out", "a.txt"],
            "no value",
        ),
        (
            vec!["--plies", "2", "--eval", "solver", "--out", "a.txt"],
            "solver",
        ),
        (
            vec![
                "--plies", "2", "--eval", "greedy", "--out", "a.txt", "--max", "0",
            ],
            "--max 0",
        ),
        (
            vec![
                "--plies",
                "2",
                "--eval",
                "greedy",
                "--out",
                "a.txt",
                "--threads",
                "0",
            ],
            "thread",
        ),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra).collect();
        let output = dir.command().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    }
    let output = dir
        .command()
        .args([
            "openings", "--plies", "2", "--size", "7", "--eval", "greedy", "--within", "2",
            "--out", "a.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(!dir.path().join("a.txt").exists());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("taken.txt")).unwrap(),
        "c4\n"
    );
    // --force replaces it.
    ok(
        dir.path(),
        &[
            "openings",
            "--plies",
            "1",
            "--eval",
            "greedy",
            "--within",
            "9",
            "--out",
            "taken.txt",
            "--force",
        ],
    );
    assert!(std::fs::read_to_string(dir.path().join("taken.txt"))
        .unwrap()
        .ends_with("c4\n"));
}

/// Runs two players from the start on a board of `size` with the report,
/// returning stderr, report.md and the pair's distinct games.
fn run_pair(size: u32, a: &str, b: &str) -> (String, String, u64) {
    let dir = Dir::new();
    std::fs::write(
        dir.path().join("e.toml"),
        format!(
            "name = \"e\"\nsize = {size}\ngames_per_pair = 8\n[[players]]\nname = \"a\"\nstrategy = \"{a}\"\n\
             [[players]]\nname = \"b\"\nstrategy = \"{b}\"\n"
        ),
    )
    .unwrap();
    let output = dir
        .command()
        .args(["run", "e.toml", "--out", "res", "--quiet"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = std::fs::read_to_string(dir.path().join("res/report.md")).unwrap();
    let row = report
        .lines()
        .find(|l| l.starts_with("| a | b | 8 |") && l.ends_with("% |"))
        .unwrap_or_else(|| panic!("no distinct-games row: {report}"));
    let distinct = row.split(" | ").nth(3).unwrap().parse().unwrap();
    (String::from_utf8(output.stderr).unwrap(), report, distinct)
}

#[test]
fn deterministic_players_from_the_start_are_warned_about() {
    // Two searches from the start of the 4x4 board: they choose by value and break
    // ties by the game's seed, so their 8 games are a few, replayed.
    let (stderr, report, distinct) = run_pair(4, "alphabeta:depth=3", "alphabeta:depth=2");
    assert!(
        stderr.contains("warning: REPLAYED GAMES: 1 of 1 pairs"),
        "{stderr}"
    );
    assert!(report.contains("**REPLAYED GAMES"), "{report}");
    assert!((2..8).contains(&distinct), "{distinct}");
    assert!(report.contains(&format!("| a | b | 8 | {distinct} | {} |", 8 - distinct)));
}

#[test]
fn random_players_replay_nothing() {
    let (stderr, report, distinct) = run_pair(8, "random", "random");
    assert!(!stderr.contains("REPLAYED"), "{stderr}");
    assert!(!report.contains("REPLAYED"), "{report}");
    assert_eq!(distinct, 8);
    assert!(
        report.contains("| a | b | 8 | 8 | 0 | 100.0% |"),
        "{report}"
    );
}
