//! Golden outputs: small runs of the committed experiments must reproduce `tests/golden/` byte for byte.

use crate::common::{reversi_lab, Dir};
use std::path::Path;

fn same(golden: &str, out: &Path, files: &[&str]) {
    let golden = crate::common::root().join("tests/golden").join(golden);
    for file in files {
        let expected = std::fs::read_to_string(golden.join(file)).unwrap();
        let actual = std::fs::read_to_string(out.join(file))
            .unwrap_or_else(|e| panic!("{}: {e}", out.join(file).display()));
        assert!(
            expected == actual,
            "{} differs from tests/golden/{}",
            out.join(file).display(),
            golden.join(file).display()
        );
    }
}

const RESULTS: [&str; 3] = ["games.csv", "pairs.csv", "standings.csv"];

fn run_golden(name: &str, config: &str, extra: &[&str]) {
    let dir = Dir::new();
    let out = dir.path().join(name);
    let mut args = vec![
        "run",
        config,
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--no-report",
    ];
    args.extend(extra);
    reversi_lab().args(&args).ok();
    same(name, &out, &RESULTS);
}

#[test]
fn round_robin() {
    run_golden("round-robin", "experiments/default.toml", &["--games", "4"]);
}

#[test]
fn gauntlet() {
    run_golden(
        "gauntlet",
        "experiments/search-vs-heuristics.toml",
        &["--games", "6"],
    );
}

#[test]
fn head_to_head_with_an_sprt() {
    run_golden("head-to-head", "experiments/sprt-mobility.toml", &[]);
}

#[test]
fn ablation() {
    let dir = Dir::new();
    let out = dir.path().join("ablation");
    reversi_lab()
        .args([
            "ablate",
            "experiments/ablation-eval.toml",
            "--games",
            "80",
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ])
        .ok();
    same(
        "ablation",
        &out,
        &["games.csv", "pairs.csv", "standings.csv", "ablation.csv"],
    );
}

#[test]
fn tune() {
    let dir = Dir::new();
    let out = dir.path().join("tune");
    reversi_lab()
        .args([
            "tune",
            "tests/golden/tune-small.toml",
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ])
        .ok();
    same(
        "tune",
        &out,
        &["trace.csv", "best.toml", "validation-openings.txt"],
    );
    for opponent in ["start", "alphabeta-2-classic"] {
        let folder = format!("validation-{opponent}");
        same(&format!("tune/{folder}"), &out.join(&folder), &RESULTS);
    }
}

/// Every golden folder with games: (folder, board size). All are normal rules, scored
/// winner-gets-empties (the experiments' default).
const GAMES: [(&str, usize); 6] = [
    ("round-robin", 8),
    ("gauntlet", 8),
    ("head-to-head", 8),
    ("ablation", 8),
    ("tune/validation-start", 8),
    ("tune/validation-alphabeta-2-classic", 8),
];

/// A CSV file of the golden folders (no field of theirs is quoted) as rows of named fields.
fn rows(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), header.len(), "{}: {line}", path.display());
            header
                .iter()
                .zip(fields)
                .map(|(h, f)| (h.to_string(), f.to_string()))
                .collect()
        })
        .collect()
}

fn golden_dir(folder: &str) -> std::path::PathBuf {
    crate::common::root().join("tests/golden").join(folder)
}

/// Every golden game replayed under the naive board of reference.rs, not the engine
/// that wrote it: each move legal, passes where the side to move has none, the game
/// over at the end, and the discs, margin, result, plies and passes it records.
#[test]
fn golden_games_replay_under_the_reference_rules() {
    use crate::reference::Reference;
    for (folder, size) in GAMES {
        let games = rows(&golden_dir(folder).join("games.csv"));
        assert!(!games.is_empty(), "{folder}");
        for game in &games {
            let id = format!("{folder} game {}", game["game_id"]);
            let moves = game["moves"].as_bytes();
            assert!(moves.len().is_multiple_of(2), "{id}");
            assert!(game["moves"].starts_with(&game["opening"]), "{id}");
            let mut board = Reference::start(size);
            let mut black_to_move = true;
            let mut passes = 0;
            for name in moves.chunks(2) {
                let column = usize::from(name[0] - b'a');
                let row = usize::from(name[1] - b'1');
                assert!(column < size && row < size, "{id}: {name:?}");
                if board.moves().is_empty() {
                    passes += 1;
                    board = board.pass();
                    black_to_move = !black_to_move;
                }
                let index = row * size + column;
                assert!(
                    board.moves().contains(&index),
                    "{id}: illegal move {name:?}"
                );
                board = board.play(index);
                black_to_move = !black_to_move;
            }
            assert!(
                board.moves().is_empty() && board.pass().moves().is_empty(),
                "{id}: the game is not over"
            );
            let (own, other, empty) = board.discs();
            let (black, white) = if black_to_move {
                (own, other)
            } else {
                (other, own)
            };
            let difference = black - white;
            let margin = difference + difference.signum() * empty;
            let result = match difference.signum() {
                1 => "black",
                -1 => "white",
                _ => "draw",
            };
            let number = |field: &str| game[field].parse::<i32>().unwrap();
            assert_eq!(number("black_discs"), black, "{id}");
            assert_eq!(number("white_discs"), white, "{id}");
            assert_eq!(number("margin"), margin, "{id}");
            assert_eq!(game["result"], result, "{id}");
            assert_eq!(number("plies"), moves.len() as i32 / 2, "{id}");
            assert_eq!(number("passes"), passes, "{id}");
            assert_eq!(game["termination"], "normal", "{id}");
        }
    }
}

/// What the games give `player`: wins, draws, losses, and the sum of its margins.
#[derive(Default, Debug, PartialEq)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    margin: i64,
}

impl Tally {
    fn add(&mut self, game: &std::collections::HashMap<String, String>, player: &str) {
        let black = game["black"] == player;
        let margin: i64 = game["margin"].parse().unwrap();
        self.margin += if black { margin } else { -margin };
        match (game["result"].as_str(), black) {
            ("draw", _) => self.draws += 1,
            ("black", true) | ("white", false) => self.wins += 1,
            _ => self.losses += 1,
        }
    }

    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    fn score(&self) -> f64 {
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games())
    }
}

/// `value` as written in a golden file (rounded to `decimals`) against the exact one.
fn written(
    row: &std::collections::HashMap<String, String>,
    field: &str,
    exact: f64,
    decimals: i32,
) {
    let value: f64 = row[field].parse().unwrap();
    assert!(
        (value - exact).abs() <= 0.5 * 10f64.powi(-decimals) + 1e-9,
        "{field} = {value}, the games give {exact}"
    );
}

/// The golden standings and pairs recomputed from the golden games alone: each
/// player's games, wins, draws, losses and score; each pair's counts, per colour,
/// margin and pentanomial (game pairs are consecutive games, colours swapped).
#[test]
fn golden_statistics_follow_from_the_golden_games() {
    for (folder, _) in GAMES {
        let dir = golden_dir(folder);
        let games = rows(&dir.join("games.csv"));
        let count = |row: &std::collections::HashMap<String, String>, field: &str| -> u32 {
            row[field].parse().unwrap()
        };
        let standings = rows(&dir.join("standings.csv"));
        let mut seen = 0;
        for row in &standings {
            let player = &row["player"];
            let mut tally = Tally::default();
            for game in games
                .iter()
                .filter(|g| &g["black"] == player || &g["white"] == player)
            {
                tally.add(game, player);
            }
            let id = format!("{folder} standings {player}");
            assert_eq!(count(row, "games"), tally.games(), "{id}");
            assert_eq!(count(row, "wins"), tally.wins, "{id}");
            assert_eq!(count(row, "draws"), tally.draws, "{id}");
            assert_eq!(count(row, "losses"), tally.losses, "{id}");
            written(row, "score", tally.score(), 4);
            seen += tally.games();
        }
        assert_eq!(
            seen as usize,
            2 * games.len(),
            "{folder}: every game in the standings"
        );
        let pairs = rows(&dir.join("pairs.csv"));
        let mut paired = 0;
        for row in &pairs {
            let (a, b) = (&row["player_a"], &row["player_b"]);
            let id = format!("{folder} pair {a} {b}");
            let between: Vec<_> = games
                .iter()
                .filter(|g| {
                    (&g["black"] == a && &g["white"] == b) || (&g["black"] == b && &g["white"] == a)
                })
                .collect();
            let (mut all, mut as_black, mut as_white) =
                (Tally::default(), Tally::default(), Tally::default());
            let mut game_pairs = std::collections::BTreeMap::<u64, (u32, f64)>::new();
            for game in &between {
                all.add(game, a);
                if &game["black"] == a {
                    as_black.add(game, a)
                } else {
                    as_white.add(game, a)
                }
                let mut one = Tally::default();
                one.add(game, a);
                let id: u64 = game["game_id"].parse().unwrap();
                let pair = game_pairs.entry(id / 2).or_default();
                pair.0 += 1;
                pair.1 += one.score();
            }
            paired += between.len();
            assert_eq!(count(row, "games"), all.games(), "{id}");
            assert_eq!(count(row, "wins"), all.wins, "{id}");
            assert_eq!(count(row, "draws"), all.draws, "{id}");
            assert_eq!(count(row, "losses"), all.losses, "{id}");
            written(row, "score", all.score(), 4);
            for (colour, tally) in [("black", &as_black), ("white", &as_white)] {
                assert_eq!(count(row, &format!("{colour}_wins")), tally.wins, "{id}");
                assert_eq!(count(row, &format!("{colour}_draws")), tally.draws, "{id}");
                assert_eq!(
                    count(row, &format!("{colour}_losses")),
                    tally.losses,
                    "{id}"
                );
                written(row, &format!("{colour}_score"), tally.score(), 4);
            }
            written(
                row,
                "margin_mean",
                all.margin as f64 / f64::from(all.games()),
                2,
            );
            assert_eq!(count(row, "game_pairs") as usize, game_pairs.len(), "{id}");
            assert!(
                game_pairs.values().all(|&(n, _)| n == 2),
                "{id}: a game pair of other than 2 games"
            );
            for (i, field) in ["penta_0", "penta_1", "penta_2", "penta_3", "penta_4"]
                .iter()
                .enumerate()
            {
                let expected = game_pairs
                    .values()
                    .filter(|&&(_, s)| (s * 2.0) as usize == i)
                    .count();
                assert_eq!(count(row, field) as usize, expected, "{id} {field}");
            }
        }
        assert_eq!(paired, games.len(), "{folder}: every game in one pair");
    }
}

/// The golden ablation's Holm column from its own p-values (step-down: the i-th
/// smallest times m - i + 1, never below the one before, at most 1), and its games
/// and scores from its pairs: the correction changes a decision there (the folder's
/// README says which), so a Holm step that did nothing would show.
#[test]
fn golden_ablation_applies_holm() {
    let dir = golden_dir("ablation");
    let features = rows(&dir.join("ablation.csv"));
    let pairs = rows(&dir.join("pairs.csv"));
    let m = features.len();
    let p = |row: &std::collections::HashMap<String, String>, field: &str| -> f64 {
        row[field].parse().unwrap()
    };
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| p(&features[i], "p_value").total_cmp(&p(&features[j], "p_value")));
    let mut running: f64 = 0.0;
    let mut changed = 0;
    for (rank, &i) in order.iter().enumerate() {
        let row = &features[i];
        running = running.max((m - rank) as f64 * p(row, "p_value")).min(1.0);
        // The p-values are written to 4 decimals, so the product is known to m halves of one.
        let holm = p(row, "p_holm");
        assert!(
            (holm - running).abs() <= (m as f64 + 1.0) * 0.5e-4,
            "{}: p_holm {holm}, recomputed {running}",
            row["feature"]
        );
        let significant = if holm < 0.05 { "yes" } else { "no" };
        assert_eq!(row["significant_holm"], significant, "{}", row["feature"]);
        if p(row, "p_value") < 0.05 && holm >= 0.05 {
            changed += 1;
        }
        let pair = pairs
            .iter()
            .find(|r| {
                r["player_a"] == "full" && r["player_b"] == format!("without-{}", row["feature"])
            })
            .unwrap();
        assert_eq!(row["games"], pair["games"]);
        assert_eq!(row["full_score"], pair["score"]);
    }
    assert!(
        changed > 0,
        "no decision in the golden ablation depends on the correction"
    );
    assert!(features.iter().any(|r| r["significant_holm"] == "yes"));
}
