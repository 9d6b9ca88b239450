//! `costs.csv`: what each player's moves cost, counted exactly (moves, nodes), summed
//! over a resume and over shards, shown in the report; kept apart from the
//! byte-identical results files.

use crate::common::{ok, Dir};
use reversi_lab::board::{Bits, Size8, Square};
use reversi_lab::game::Game;
use reversi_lab::lab::rows::{read_csv, CostRow, GameRow};
use std::path::Path;

const SMALL: &str = r#"
name = "small"
seed = 3
games_per_pair = 4
[openings]
random_plies = 4
[[players]]
name = "greedy"
strategy = "greedy"
[[players]]
name = "ab"
strategy = { kind = "alphabeta", depth = 2, eval = { kind = "mobility" } }
[[players]]
name = "random"
strategy = "random"
"#;

fn costs(folder: &Path) -> Vec<CostRow> {
    read_csv(&folder.join("costs.csv")).unwrap()
}

/// What is counted, without the time: (player, games, moves, nodes).
fn counted(rows: &[CostRow]) -> Vec<(String, u64, u64, u64)> {
    rows.iter()
        .map(|r| (r.player.clone(), r.games, r.moves, r.nodes))
        .collect()
}

/// Each player's games and choices by replaying `games.csv`: a choice is a move
/// after the opening made where more than one move was legal.
fn replayed(folder: &Path, players: &[&str]) -> Vec<(u64, u64)> {
    let games: Vec<GameRow> = read_csv(&folder.join("games.csv")).unwrap();
    let mut counts = vec![(0, 0); players.len()];
    for game in games {
        let seat = |name: &str| players.iter().position(|p| *p == name).unwrap();
        let (black, white) = (seat(&game.black), seat(&game.white));
        counts[black].0 += 1;
        counts[white].0 += 1;
        let mut replay = Game::<Size8>::from_transcript(&game.opening).unwrap();
        let opening = replay.moves().len();
        let all = Game::<Size8>::from_transcript(&game.moves).unwrap();
        for &square in &all.moves()[opening..] {
            if replay.legal_moves().count() > 1 {
                let mover = match replay.side() {
                    reversi_lab::board::Color::Black => black,
                    reversi_lab::board::Color::White => white,
                };
                counts[mover].1 += 1;
            }
            replay.play(Square::new(square.index())).unwrap();
        }
    }
    counts
}

#[test]
fn costs_count_every_choice_exactly() {
    let dir = Dir::new();
    let d = dir.path();
    std::fs::write(d.join("small.toml"), SMALL).unwrap();
    ok(
        d,
        &[
            "run",
            "small.toml",
            "--out",
            "one",
            "--quiet",
            "--threads",
            "1",
        ],
    );
    ok(
        d,
        &[
            "run",
            "small.toml",
            "--out",
            "two",
            "--quiet",
            "--threads",
            "2",
        ],
    );
    let text = std::fs::read_to_string(d.join("one/costs.csv")).unwrap();
    assert_eq!(
        text.lines().next().unwrap(),
        "player,games,moves,nodes,nodes_per_move,seconds,ms_per_move,max_ms"
    );
    let rows = costs(&d.join("one"));
    let players = ["greedy", "ab", "random"];
    assert_eq!(
        rows.iter().map(|r| r.player.as_str()).collect::<Vec<_>>(),
        players
    );
    let replay = replayed(&d.join("one"), &players);
    for (row, (games, moves)) in rows.iter().zip(replay) {
        assert_eq!((row.games, row.moves), (games, moves), "{}", row.player);
        assert_eq!(row.games, 8, "two pairs of 4 games each");
        // Only a search is timed: a one-ply rule costs about as much as the clock.
        assert_eq!(row.seconds.is_some(), row.player == "ab", "{row:?}");
        assert_eq!(row.ms_per_move.is_some(), row.player == "ab", "{row:?}");
    }
    assert_eq!(rows[0].nodes, 0, "greedy searches no node");
    assert_eq!(rows[2].nodes, 0, "random searches no node");
    let ab = &rows[1];
    assert!(ab.nodes > 2 * ab.moves, "a depth-2 search: {ab:?}");
    let per_move = ab.nodes as f64 / ab.moves as f64;
    assert!((ab.nodes_per_move.unwrap() - per_move).abs() < 0.05);
    // Nodes and moves do not depend on the thread count; time does, so it is
    // kept out of the byte-identical files.
    assert_eq!(counted(&rows), counted(&costs(&d.join("two"))));
    for file in ["games.csv", "pairs.csv", "standings.csv"] {
        assert_eq!(
            std::fs::read(d.join("one").join(file)).unwrap(),
            std::fs::read(d.join("two").join(file)).unwrap(),
            "{file}"
        );
    }
    // The report shows them.
    let report = std::fs::read_to_string(d.join("one/report.md")).unwrap();
    assert!(
        report.contains("## Cost per player") && report.contains("nodes/move"),
        "{report}"
    );
}

#[test]
fn a_resume_adds_to_the_recorded_costs() {
    let dir = Dir::new();
    let d = dir.path();
    std::fs::write(d.join("small.toml"), SMALL).unwrap();
    ok(
        d,
        &[
            "run",
            "small.toml",
            "--out",
            "full",
            "--quiet",
            "--no-report",
        ],
    );
    // A run stopped after 5 games whose costs.csv records made-up costs.
    let part = d.join("part");
    std::fs::create_dir(&part).unwrap();
    std::fs::copy(d.join("full/run.toml"), part.join("run.toml")).unwrap();
    let games = std::fs::read_to_string(d.join("full/games.csv")).unwrap();
    let kept: Vec<&str> = games.lines().take(6).collect();
    std::fs::write(part.join("games.csv"), kept.join("\n") + "\n").unwrap();
    std::fs::write(
        part.join("costs.csv"),
        "player,games,moves,nodes,nodes_per_move,seconds,ms_per_move\ngreedy,100,1000,7,,2.5,\n",
    )
    .unwrap();
    ok(
        d,
        &[
            "run",
            "small.toml",
            "--out",
            "part",
            "--quiet",
            "--resume",
            "--no-report",
        ],
    );
    let resumed = costs(&d.join("part"));
    // Only games 5 and later were played by the resumed run.
    let all: Vec<GameRow> = read_csv(&d.join("full/games.csv")).unwrap();
    let later = |name: &str| {
        all.iter()
            .filter(|g| g.game_id >= 5 && (g.black == name || g.white == name))
            .count() as u64
    };
    assert_eq!(resumed[0].games, 100 + later("greedy"));
    assert_eq!(resumed[0].nodes, 7);
    assert!(resumed[0].seconds.unwrap() >= 2.5);
    assert_eq!(resumed[1].games, later("ab"));
    assert_eq!(resumed[2].games, later("random"));
    assert!(
        later("greedy") < 8,
        "the made-up row was added to, not replaced"
    );
}

#[test]
fn merge_sums_the_shards_costs() {
    let dir = Dir::new();
    let d = dir.path();
    std::fs::write(d.join("small.toml"), SMALL).unwrap();
    ok(
        d,
        &[
            "run",
            "small.toml",
            "--out",
            "single",
            "--quiet",
            "--no-report",
        ],
    );
    for shard in ["1/3", "2/3", "3/3"] {
        let out = format!("sharded/shards/{}", shard.replace('/', "-of-"));
        ok(
            d,
            &[
                "run",
                "small.toml",
                "--shard",
                shard,
                "--out",
                &out,
                "--quiet",
            ],
        );
        assert!(
            d.join(&out).join("costs.csv").is_file(),
            "a shard writes its costs"
        );
    }
    ok(d, &["merge", "sharded", "--quiet", "--no-report"]);
    assert_eq!(
        counted(&costs(&d.join("sharded"))),
        counted(&costs(&d.join("single")))
    );
}
