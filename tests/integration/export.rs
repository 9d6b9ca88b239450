//! `reversi-lab export`: GGF read back by the library's GGF reader gives every game's
//! transcript, players and result again; csv-moves has one row per turn and ends each
//! game on its final counts; both stream from `games.csv` or `games.csv.zst`.

use reversi_lab::lab::export::ggf::read_games;
use reversi_lab::lab::rows::{read_csv, GameRow, MoveRow};
use std::fs;
use std::path::Path;

use crate::common;
use common::{ok, run_in, Dir};

/// Random players on `size`, so games have passes and early ends; `extra` adds keys.
fn play(dir: &Path, name: &str, size: u32, extra: &str) -> Vec<GameRow<'static>> {
    let text = format!(
        "name = \"{name}\"\nseed = 11\nsize = {size}\ngames_per_pair = 40\n{extra}\n[openings]\nrandom_plies = 2\n\
         [[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n\
         [[players]]\nname = \"random\"\nstrategy = \"random\"\n\
         [[players]]\nname = \"corners\"\nstrategy = \"corner-first\"\n"
    );
    fs::write(dir.join(format!("{name}.toml")), text).unwrap();
    ok(
        dir,
        &["run", &format!("{name}.toml"), "--quiet", "--no-report"],
    );
    let folder = dir.join("results").join(name);
    if folder.join("games.csv").is_file() {
        read_csv(&folder.join("games.csv")).unwrap()
    } else {
        // The zst copy: decompress through the library's reader.
        let mut reader =
            reversi_lab::lab::games_file::csv_reader(&folder.join("games.csv.zst")).unwrap();
        reader.deserialize().map(Result::unwrap).collect()
    }
}

#[test]
fn ggf_round_trips_every_game() {
    let tmp = Dir::new();
    let dir = tmp.path();
    for (name, size, extra) in [
        ("eight", 8, ""),
        (
            "four-anti",
            4,
            "[rules]\nanti = true\nscoring = \"count\"\n",
        ),
        ("ten-zst", 10, "compress = \"zstd\""),
    ] {
        let games = play(dir, name, size, extra);
        assert!(
            games.iter().any(|g| g.passes > 0),
            "{name}: a game with a pass"
        );
        let out = format!("{name}.ggf");
        ok(
            dir,
            &[
                "export",
                &format!("results/{name}"),
                "--format",
                "ggf",
                "--out",
                &out,
            ],
        );
        let text = fs::read_to_string(dir.join(&out)).unwrap();
        assert_eq!(text.lines().count(), games.len());
        let read = read_games(&text).unwrap();
        assert_eq!(read.len(), games.len());
        for (game, back) in games.iter().zip(&read) {
            assert_eq!(
                back.transcript().unwrap(),
                game.moves,
                "{name} game {}",
                game.game_id
            );
            assert_eq!(
                (back.black.as_str(), back.white.as_str()),
                (&*game.black, &*game.white)
            );
            assert_eq!(back.result, Some(f64::from(game.margin)));
            assert_eq!(back.size, size);
            assert_eq!(back.anti, name.contains("anti"));
            let passes = back.turns.iter().filter(|t| t.1.is_none()).count() as u32;
            assert_eq!(passes, game.passes, "{name} game {}", game.game_id);
        }
        // The standard output gets the same bytes as --out.
        let stdout = ok(
            dir,
            &["export", &format!("results/{name}"), "--format", "ggf"],
        );
        assert_eq!(stdout, text);
    }
}

#[test]
fn csv_moves_has_a_row_per_turn_ending_on_the_final_counts() {
    let tmp = Dir::new();
    let dir = tmp.path();
    let games = play(dir, "moves", 6, "");
    ok(
        dir,
        &[
            "export",
            "results/moves",
            "--format",
            "csv-moves",
            "--out",
            "moves.csv",
        ],
    );
    let rows: Vec<MoveRow> = read_csv(&dir.join("moves.csv")).unwrap();
    let plies: u32 = games.iter().map(|g| g.plies).sum();
    let passes: u32 = games.iter().map(|g| g.passes).sum();
    assert_eq!(
        rows.iter().filter(|r| r.square != "pass").count() as u32,
        plies
    );
    assert_eq!(rows.len() as u32, plies + passes);
    for game in &games {
        let of_game: Vec<&MoveRow> = rows.iter().filter(|r| r.game_id == game.game_id).collect();
        let last = of_game.last().unwrap();
        assert_eq!(
            (last.black_discs, last.white_discs),
            (game.black_discs, game.white_discs)
        );
        assert!(of_game
            .iter()
            .enumerate()
            .all(|(i, r)| r.ply as usize == i + 1));
        // The opening's turns come first and are marked; the player named is the one
        // whose colour it was.
        let opening = of_game.iter().take_while(|r| r.opening).count();
        assert_eq!(opening, 2, "random_plies = 2");
        assert!(of_game.iter().all(|r| {
            let name = if r.colour == "black" {
                &game.black
            } else {
                &game.white
            };
            r.player == *name
        }));
    }
    let header = fs::read_to_string(dir.join("moves.csv")).unwrap();
    assert!(
        header.starts_with("game_id,ply,player,colour,square,opening,black_discs,white_discs\n")
    );
}

#[test]
fn bad_exports_are_refused_in_one_line() {
    let tmp = Dir::new();
    let dir = tmp.path();
    play(dir, "small", 4, "");
    fs::write(dir.join("taken.ggf"), "keep me").unwrap();
    for (args, says) in [
        (
            vec![
                "export",
                "results/small",
                "--format",
                "ggf",
                "--out",
                "taken.ggf",
            ],
            "already exists",
        ),
        (
            vec!["export", "results/none", "--format", "ggf"],
            "is not a results folder",
        ),
    ] {
        let (code, _, stderr) = run_in(dir, &args);
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
    }
    assert_eq!(
        fs::read_to_string(dir.join("taken.ggf")).unwrap(),
        "keep me"
    );
    ok(
        dir,
        &[
            "export",
            "results/small",
            "--format",
            "ggf",
            "--out",
            "taken.ggf",
            "--force",
        ],
    );
    assert!(fs::read_to_string(dir.join("taken.ggf"))
        .unwrap()
        .starts_with("(;GM[Othello]"));
}

#[test]
fn an_unfinished_run_exports_its_complete_games() {
    let tmp = Dir::new();
    let dir = tmp.path();
    let games = play(dir, "killed", 4, "");
    let folder = dir.join("results/killed");
    // As a kill leaves it: status running and half a row at the end of games.csv.
    let run = fs::read_to_string(folder.join("run.toml")).unwrap();
    fs::write(
        folder.join("run.toml"),
        run.replace("status = \"complete\"", "status = \"running\""),
    )
    .unwrap();
    let mut csv = fs::read_to_string(folder.join("games.csv")).unwrap();
    csv.push_str("120,1,f5,gre");
    fs::write(folder.join("games.csv"), csv).unwrap();
    let text = ok(dir, &["export", "results/killed", "--format", "ggf"]);
    assert_eq!(text.lines().count(), games.len());
    // A finished run with a broken row is bad input naming the row.
    fs::write(folder.join("run.toml"), run).unwrap();
    let (code, _, stderr) = run_in(dir, &["export", "results/killed", "--format", "ggf"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(&format!("is cut at line {}", games.len() + 2)),
        "{stderr}"
    );
}
