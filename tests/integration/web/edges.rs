//! The web's edges the last walk left: a folder of unmerged shards answers
//! `/live.json` as its page does and `/game` names the merge; an empty path and a
//! `Content-Length` that is no number are refused in one line saying so; a server on
//! every interface prints an address that opens; a stopped server leaves no folder;
//! play refuses tables past a game's share of memory; the live view counts a run of an
//! engine that is not here without starting it.

use super::{one_line, Server};
use crate::common::Dir;
use crate::web_live::{shard, two_shards};
use std::io::{Read, Write};
use std::net::TcpStream;

/// Before, `/live.json` of a cluster run said 0 games and status "-" while its page
/// said 6 and complete, and `/game` said "not in games.csv yet".
#[test]
fn unmerged_shards_answer_live_json_as_their_page_and_game_names_the_merge() {
    let dir = Dir::new();
    two_shards(dir.path());
    let server = Server::start(&dir.path().join("results"), &[]);
    let (status, json) = server.get("/live.json?path=c");
    assert_eq!(status, 200, "{json}");
    let live: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(live["games"], 6, "{json}");
    assert_eq!(live["status"], "complete", "{json}");
    let (_, page) = server.get("/folder?path=c");
    assert!(
        page.contains("<span class=\"games\">6"),
        "the same count: {page}"
    );
    let (status, body) = server.get("/game?path=c&id=0");
    assert_eq!(status, 404, "{body}");
    one_line(status, &body, "a game of unmerged shards");
    assert!(
        body.contains("not merged yet")
            && body.contains(&format!(
                "`reversi-lab merge {}`",
                dir.path().join("results/c").display()
            )),
        "{body}"
    );
}

/// Before, with shard 2/3 never played, the index and the page said "cluster run (2
/// shards)", complete, 8 of 8 games (the new user's walk).
#[test]
fn a_cluster_run_missing_a_shard_is_incomplete_and_names_it() {
    let dir = Dir::new();
    two_shards(dir.path());
    std::fs::remove_dir_all(dir.path().join("results/c/shards")).unwrap();
    shard(dir.path(), 1, 3);
    shard(dir.path(), 3, 3);
    let server = Server::start(&dir.path().join("results"), &[]);
    let (status, json) = server.get("/live.json?path=c");
    assert_eq!(status, 200, "{json}");
    let live: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(live["status"], "incomplete: 1 shard missing", "{json}");
    assert!(live["total"].is_null(), "{json}");
    let (_, page) = server.get("/folder?path=c");
    assert!(page.contains("cluster run (2 of 3 shards)"), "{page}");
    assert!(
        // The folder as a command typed where the server started names it: the root as
        // given (here whole), then the folder under it.
        page.contains(&format!(
            "Shard 2/3 is missing: play it with <code>reversi-lab run CONFIG --shard 2/3 --out {}</code>",
            dir.path().join("results/c").display()
        )),
        "{page}"
    );
    let (_, index) = server.get("/");
    assert!(
        index.contains(
            "cluster run (2 of 3 shards)</td><td class=\"l\">incomplete: 1 shard missing"
        ),
        "{index}"
    );
}

/// A raw request's status line and body.
fn raw(server: &Server, request: &str) -> (String, String) {
    let mut stream = TcpStream::connect(server.address).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap();
    (head.lines().next().unwrap().to_string(), body.to_string())
}

/// Before, `?path=` gave " is not a results folder" (a blank name first) and
/// `Content-Length: abc` a 413 saying the request carried a body.
#[test]
fn an_empty_path_and_a_length_that_is_no_number_are_refused_saying_so() {
    let dir = Dir::new();
    super::a_run(dir.path(), "r", 2);
    let server = Server::start(&dir.path().join("results"), &[]);
    for target in [
        "/folder?path=",
        "/live.json?path=",
        "/game?path=&id=0",
        "/folder?path=%20",
    ] {
        let (status, body) = server.get(target);
        assert_eq!(status, 400, "{target}: {body}");
        one_line(status, &body, target);
        assert!(body.starts_with("the path is empty"), "{target}: {body}");
    }
    for length in ["abc", "-1", "1x"] {
        let (status, body) = raw(
            &server,
            &format!("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: {length}\r\n\r\n"),
        );
        assert!(status.starts_with("HTTP/1.1 400"), "{length}: {status}");
        assert_eq!(body.lines().count(), 1, "{body}");
        assert!(body.contains("Content-Length is not a number"), "{body}");
    }
    // A real length is still a body, which requests do not carry.
    let (status, _) = raw(
        &server,
        "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello",
    );
    assert!(status.starts_with("HTTP/1.1 413"), "{status}");
    let (status, _) = raw(
        &server,
        "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: 00\r\n\r\n",
    );
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
}

/// Before, `--host 0.0.0.0` printed http://0.0.0.0:PORT/ as the address to open.
#[test]
fn a_server_on_every_interface_prints_an_address_that_opens() {
    let dir = Dir::new();
    super::a_run(dir.path(), "r", 2);
    let server = Server::start(&dir.path().join("results"), &["--host", "0.0.0.0"]);
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    assert!(
        server
            .second
            .starts_with("listening on every interface (0.0.0.0)")
            && server.second.contains("instead of 127.0.0.1"),
        "{}",
        server.second
    );
    let token = server.url.split("?token=").nth(1).unwrap();
    let (status, body) = server.get(&format!("/?token={token}"));
    assert_eq!(status, 200, "{body}");
}

/// The tests' server is stopped as a user stops it, so it removes its own scratch
/// folder: before, it was killed (SIGKILL) and each left a /tmp/reversi-lab-web-*.
#[test]
fn a_dropped_server_leaves_no_scratch_folder() {
    let dir = Dir::new();
    super::a_run(dir.path(), "r", 2);
    let temp = Dir::new();
    let server = Server::start_with(&dir.path().join("results"), &[], Some(temp.path()));
    let (status, body) = server.get("/folder?path=r");
    assert_eq!(status, 200, "{body}");
    let made = std::fs::read_dir(temp.path()).unwrap().count();
    assert_eq!(made, 1, "its scratch folder is in the TMPDIR given");
    drop(server);
    let left: Vec<_> = std::fs::read_dir(temp.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// Before, the page's eval against mcts listed mean values by value, with no visits
/// and no line, where `play`'s eval shows the search's own order, visits and line.
#[test]
fn the_pages_eval_against_mcts_says_what_plays_eval_says() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join("results")).unwrap();
    let server = Server::start(&dir.path().join("results"), &[]);
    let spec = "mcts:iterations=300";
    let (status, state) = server.post(&format!("/play/new?vs={spec}&seed=5&colour=black"));
    assert_eq!(status, 200, "{state}");
    let id = serde_json::from_str::<serde_json::Value>(&state).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, body) = server.post(&format!("/play/eval?id={id}"));
    assert_eq!(status, 200, "{body}");
    let eval: serde_json::Value = serde_json::from_str(&body).unwrap();
    let eval = if eval["eval"].is_object() {
        &eval["eval"]
    } else {
        &eval
    };
    let list: Vec<String> = eval["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| format!("{} {}", v[0].as_str().unwrap(), v[1].as_str().unwrap()))
        .collect();
    let page = format!(
        "eval by {spec} (larger is better for black; {}): {}\nbest line by {spec}: {}",
        eval["legend"].as_str().unwrap(),
        list.join(", "),
        eval["line"].as_str().unwrap()
    );
    let output = crate::common::reversi_lab()
        .args(["play", "--vs", spec, "--seed", "5"])
        .write_stdin("eval\nquit\n")
        .assert()
        .success();
    let printed = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert!(page.contains("visits)"), "{page}");
    assert!(printed.contains(&page), "page: {page}\nplay: {printed}");
}

/// Before, `table_bits=26` was played: each such game held about 2 GB of tables on
/// the server, which keeps up to 256 games.
#[test]
fn play_refuses_tables_past_a_games_share_of_memory_and_plays_a_normal_search() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join("results")).unwrap();
    let server = Server::start(&dir.path().join("results"), &[]);
    let (status, body) =
        server.post("/play/new?vs=alphabeta:depth=4,table_bits=26&colour=white&seed=1");
    assert_eq!(status, 400, "{body}");
    one_line(status, &body, "tables of 2 GB");
    assert!(
        body.contains("its tables would take")
            && body.contains("more than the 128 MB one game may hold")
            && body.contains("give fewer table_bits"),
        "{body}"
    );
    let (status, state) = server.post("/play/new?vs=alphabeta:depth=4&colour=white&seed=1");
    assert_eq!(status, 200, "{state}");
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    assert_eq!(
        state["black"].as_u64().unwrap() + state["white"].as_u64().unwrap(),
        5,
        "the computer (black) has moved: {state}"
    );
}

/// Before, a run with an engine whose program is not on the viewing machine (or a
/// Python callable handed over by the package) showed no standings and no SPRT: the
/// live view built its players, which starts an engine, to count its games.
#[test]
fn the_live_view_counts_an_engines_run_without_starting_the_engine() {
    let dir = Dir::new();
    let d = dir.path();
    let script = dir.write(
        "eng.sh",
        format!("exec '{}' gtp --strategy greedy\n", crate::common::binary()),
    );
    let config = dir.write(
        "h.toml",
        format!(
            "name = \"h\"\nformat = \"head-to-head\"\ngames_per_pair = 12\n\
             [sprt]\nelo0 = 0\nelo1 = 10\n\
             [[players]]\nname = \"engine\"\nstrategy = {{ kind = \"engine\", protocol = \"gtp\", command = [\"sh\", \"{}\"] }}\n\
             [[players]]\nname = \"ab\"\nstrategy = \"alphabeta:depth=1\"\n",
            script.display()
        ),
    );
    crate::common::reversi_lab()
        .args(["run", "--quiet", "--no-report", "--out"])
        .arg(d.join("results/h"))
        .arg(&config)
        .assert()
        .success();
    // The engine is not installed where the folder is viewed.
    std::fs::remove_file(&script).unwrap();
    let server = Server::start(&d.join("results"), &[]);
    let (status, json) = server.get("/live.json?path=h");
    assert_eq!(status, 200, "{json}");
    let live: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(live["games"], 12, "{json}");
    let standings = live["standings"].as_array().unwrap();
    let names: Vec<&str> = standings
        .iter()
        .map(|s| s["player"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{json}");
    assert!(names.contains(&"engine") && names.contains(&"ab"), "{json}");
    assert_eq!(
        standings
            .iter()
            .map(|s| s["games"].as_u64().unwrap())
            .sum::<u64>(),
        24,
        "{json}"
    );
    assert_eq!(live["kind"], "sprt", "{json}");
    assert!(live["sprt"]["llr"].is_number(), "the SPRT: {json}");
    assert_eq!(
        live["sprt"]["penta"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .sum::<u64>(),
        6,
        "6 pairs: {json}"
    );
}

/// Before, an SPRT run that played all its games with no bound crossed read as
/// "continue" (the report: "no bound crossed yet"; the page: "About 0 game pairs to the
/// end"), as if it were still going.
#[test]
fn an_sprt_that_ran_out_of_games_is_undecided_in_the_report_and_the_page() {
    let dir = Dir::new();
    let config = dir.write(
        "sp.toml",
        "name = \"sp\"\nformat = \"head-to-head\"\ngames_per_pair = 20\nseed = 2\n\
         [openings]\nrandom_plies = 4\n[sprt]\nelo0 = 0\nelo1 = 5\n\
         [[players]]\nname = \"a\"\nstrategy = \"greedy\"\n\
         [[players]]\nname = \"b\"\nstrategy = \"weighted\"\n",
    );
    let out = dir.path().join("results").join("sp");
    crate::common::reversi_lab()
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .arg(&config)
        .assert()
        .success();
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let undecided = "undecided: the games ran out before a bound was crossed";
    assert!(report.contains(&format!("| {undecided} |")), "{report}");
    assert!(!report.contains("no bound crossed yet"), "{report}");
    let server = Server::start(&dir.path().join("results"), &[]);
    let (status, json) = server.get("/live.json?path=sp");
    assert_eq!(status, 200, "{json}");
    let live: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(live["sprt"]["result"], undecided, "{json}");
    assert!(live["sprt"]["pairs_left"].is_null(), "{json}");
    let (_, page) = server.get("/folder?path=sp");
    assert!(!page.contains("game pairs to the end"), "{page}");
}

/// Before, a game past the end of a finished run was "not in games.csv yet", as if the
/// run might still write it.
#[test]
fn a_game_past_a_finished_runs_end_is_said_to_be_past_it() {
    let dir = Dir::new();
    super::a_run(dir.path(), "r", 2);
    let server = Server::start(&dir.path().join("results"), &[]);
    let (status, body) = server.get("/game?path=r&id=99999");
    assert_eq!(status, 404, "{body}");
    one_line(status, &body, "a game past the end");
    assert!(
        body.contains("game 99999 is not in games.csv: its games are numbered 0 to 5"),
        "{body}"
    );
}
