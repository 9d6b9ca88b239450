//! NBoard engines as players: the closed loop over NBoard, faults over NBoard, engines
//! that cannot start or play the size, and a start position told in `set game`.

use super::*;

/// A weight table for `weighted`: 64 weights from a fixed generator, asymmetric and
/// far apart, so that two moves valued by it (at one ply) never tie. reversi-lab's
/// strategies break ties by the game's generator, which NBoard, unlike GTP, has no
/// way to hand over: only a strategy that never ties plays the same over NBoard.
fn generic_table(seed: u64) -> String {
    let mut x = seed;
    let weights: Vec<String> = (0..64)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (((x >> 33) % 20_011) as i64 - 10_005).to_string()
        })
        .collect();
    weights.join(",")
}

/// The closed loop over NBoard: strategies served by `reversi-lab nboard` and played
/// as engines in a run play the very games the built-in ones play (the same `moves`,
/// game for game, engine against engine included), on two threads, and the nodes
/// their `nodestats` lines report are the built-in searches' nodes in `costs.csv`.
#[test]
fn a_strategy_served_over_nboard_plays_as_it_does_built_in() {
    let dir = Dir::new();
    let d = dir.path();
    let bin = common::binary();
    let (t, u, v) = (generic_table(1), generic_table(2), generic_table(3));
    let served = [
        (
            "search",
            format!("alphabeta:depth=1,eval=(weighted:table=[{t}])"),
        ),
        ("table", format!("weighted:table=[{v}]")),
    ];
    let config = |as_engines: bool| {
        let mut text =
            "name = \"loop\"\ngames_per_pair = 16\n[openings]\nrandom_plies = 4\n".to_string();
        for (name, spec) in &served {
            let strategy = if as_engines {
                format!(
                    "{{ kind = \"engine\", protocol = \"nboard\", command = {} }}",
                    words(&[bin, "nboard", "--strategy", spec])
                )
            } else {
                format!("{spec:?}")
            };
            text += &format!("[[players]]\nname = \"{name}\"\nstrategy = {strategy}\n");
        }
        text += &format!(
            "[[players]]\nname = \"a\"\nstrategy = \"weighted:table=[{u}]\"\n[[players]]\nname = \"b\"\nstrategy = \"alphabeta:depth=1,eval=(weighted:table=[{u}])\"\n"
        );
        text
    };
    let nodes = |out: &str| -> Vec<(String, u64)> {
        let text = fs::read_to_string(d.join(out).join("costs.csv")).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let column = header.iter().position(|c| *c == "nodes").unwrap();
        lines
            .map(|l| {
                let cells: Vec<&str> = l.split(',').collect();
                (cells[0].to_string(), cells[column].parse().unwrap())
            })
            .collect()
    };
    for (out, as_engines) in [("served", true), ("built", false)] {
        fs::write(d.join(format!("{out}.toml")), config(as_engines)).unwrap();
        ok(
            d,
            &[
                "run",
                &format!("{out}.toml"),
                "--out",
                out,
                "--quiet",
                "--no-report",
                "--threads",
                "2",
            ],
        );
    }
    let (served_games, built_games) = (games(&d.join("served")), games(&d.join("built")));
    assert_eq!(served_games.len(), 6 * 16);
    assert!(served_games.iter().all(|r| r.termination == "normal"));
    let moves = |rows: &[GameRow<'_>]| -> Vec<String> {
        rows.iter().map(|r| r.moves.to_string()).collect()
    };
    assert_eq!(moves(&served_games), moves(&built_games));
    let (served_nodes, built_nodes) = (nodes("served"), nodes("built"));
    assert_eq!(served_nodes, built_nodes);
    let search = served_nodes.iter().find(|(p, _)| p == "search").unwrap();
    assert!(search.1 > 0, "{served_nodes:?}");
}

fn nboard_backend() -> [&'static str; 4] {
    ["--", common::binary(), "nboard", "--strategy"]
}

/// The GTP faults over NBoard (the backend `reversi-lab nboard --strategy greedy`),
/// and an engine that stops answering `ping` mid-game (its fifth ping is its fourth
/// move's): each one game lost by that termination, the run completed.
#[test]
fn nboard_faults_are_terminations_and_the_run_completes() {
    let dir = Dir::new();
    let d = dir.path();
    for (mode, termination) in [
        ("exit", "crash"),
        ("sleep", "stalled"),
        ("illegal", "illegal"),
        ("garbage", "illegal"),
        ("no-pong", "stalled"),
    ] {
        let marker = d.join(format!("marker-{mode}")).display().to_string();
        let script = misbehave();
        let engine = [
            &[script.as_str(), "--nboard", mode, "5", &marker][..],
            &nboard_backend(),
            &["greedy"],
        ]
        .concat();
        // The pong's deadline is the longer of the two: short for the ping that is
        // never answered, long enough for a start-up under a loaded test run.
        let start = if mode == "no-pong" { "4s" } else { "20s" };
        let extra =
            format!(", protocol = \"nboard\", stall_timeout = \"2s\", start_timeout = \"{start}\"");
        fs::write(
            d.join(format!("{mode}.toml")),
            experiment(&engine, &extra, 6),
        )
        .unwrap();
        let out = format!("r-{mode}");
        ok(
            d,
            &[
                "run",
                &format!("{mode}.toml"),
                "--out",
                &out,
                "--quiet",
                "--no-report",
            ],
        );
        let logs = one_game_lost_by(&d.join(&out), mode, termination);
        if mode == "no-pong" {
            assert!(logs.contains("no 'pong 5' to 'ping 5'"), "{logs}");
        }
    }
}

/// An NBoard engine that never answers `ping` (or dies at once) is refused before any
/// game, quoting what it printed; so is any NBoard engine on a board other than 8x8.
#[test]
fn an_nboard_engine_that_cannot_start_or_play_the_size_is_refused() {
    let dir = Dir::new();
    let d = dir.path();
    let marker = d.join("m").display().to_string();
    let script = misbehave();
    let never_pongs = [
        &[script.as_str(), "--nboard", "never-pong", "1", &marker][..],
        &nboard_backend(),
        &["greedy"],
    ]
    .concat();
    // Long enough for the script to have printed its first line under a loaded test
    // run, so that the message quotes it.
    let extra = ", protocol = \"nboard\", start_timeout = \"5s\"";
    fs::write(d.join("e.toml"), experiment(&never_pongs, extra, 2)).unwrap();
    let (code, _, stderr) = run_in(d, &["run", "e.toml", "--out", "r", "--quiet"]);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr
            .contains("no 'pong 1' to 'ping 1' within 5.0 s; it printed 'set myname reversi-lab'"),
        "{stderr}"
    );
    assert!(
        !d.join("r").exists(),
        "no folder for an engine that cannot play"
    );
    let dead = format!("nboard:{script} --nboard never-start 1 {marker} -- true");
    let served = format!("nboard:{} nboard", common::binary());
    for (args, says) in [
        (
            vec!["match", dead.as_str(), "greedy", "--games", "2"],
            "before 'pong 1'; it printed nothing",
        ),
        (
            vec![
                "match",
                served.as_str(),
                "greedy",
                "--games",
                "2",
                "--size",
                "6",
            ],
            "speaks NBoard, which is played on 8x8 only: it cannot play 6x6 games",
        ),
    ] {
        let (code, _, stderr) = run_in(d, &args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// `play --position` against an engine: NBoard is told the start in its `set game`
/// record and moves from it; GTP, which has no such command, is refused in one line.
#[test]
fn an_nboard_engine_plays_from_a_position_and_gtp_is_refused() {
    let bin = common::binary();
    // White to move; f4 (flipping e4) is white's only move.
    let obf = "---------------------------OX------XXX-------------------------- O";
    let play = |vs: String| {
        reversi_lab()
            .args(["play", "--vs", &vs, "--position", obf, "--colour", "black"])
            .std()
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write as _;
                // A refused start exits before reading: its closed input is no error here.
                let _ = child.stdin.take().unwrap().write_all(b"quit\n");
                child.wait_with_output()
            })
            .unwrap()
    };
    let done = play(format!("nboard:{bin} nboard --strategy greedy"));
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert!(stdout.contains("plays f4, flipping e4"), "{stdout}");
    assert!(stdout.contains("transcript so far: f4"), "{stdout}");
    let refused = play(format!("gtp:{bin} gtp --strategy greedy"));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("a GTP engine can only be told games from the standard start"),
        "{stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}
