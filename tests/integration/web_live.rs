//! `web` over folders that change under it: a run killed with `kill -9` (its record
//! still says running, its lock is gone), the shards of a cluster run shown together,
//! a tune's traces drawn as they grow, play's searches held to the server's time
//! and stopped when their page leaves, a games file replaced or cut while viewed (a
//! merge, a resume), and the cap on open connections.

use super::web::{field, Server};
use crate::common::{reversi_lab, Dir, Running};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

/// Polls `target` until its body holds `want` (at most `within`); the last body.
fn wait_for(server: &Server, target: &str, want: &str, within: Duration) -> String {
    let started = Instant::now();
    loop {
        let (status, body) = server.get(target);
        if status == 200 && body.contains(want) {
            return body;
        }
        assert!(
            started.elapsed() < within,
            "{target} never showed {want}: {status} {body}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_run_killed_with_kill_9_is_not_shown_running() {
    let dir = Dir::new();
    let config = dir.path().join("slow.toml");
    std::fs::write(
        &config,
        "name = \"slow\"\ngames_per_pair = 2000\nthreads = 1\n\
         [[players]]\nname = \"a\"\nstrategy = \"alphabeta:depth=3\"\n\
         [[players]]\nname = \"b\"\nstrategy = \"alphabeta:depth=2\"\n",
    )
    .unwrap();
    let out = dir.path().join("results/slow");
    std::fs::create_dir_all(dir.path().join("results")).unwrap();
    let mut run = Running::start(
        reversi_lab()
            .args(["run", "--quiet", "--no-report", "--out"])
            .arg(&out)
            .arg(&config)
            .std()
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null()),
    );
    let server = Server::start(&dir.path().join("results"), &[]);
    let live = wait_for(
        &server,
        "/live.json?path=slow",
        "\"status\":\"running\"",
        Duration::from_secs(60),
    );
    assert!(!live.contains("killed"), "{live}");
    run.signal("-KILL"); // the run cannot close its record
    run.wait();
    assert!(std::fs::read_to_string(out.join("run.toml"))
        .unwrap()
        .contains("status = \"running\""));
    let live = wait_for(
        &server,
        "/live.json?path=slow",
        "interrupted (killed)",
        Duration::from_secs(40),
    );
    assert!(!live.contains("\"status\":\"running\""), "{live}");
    let (_, index) = server.get("/");
    assert!(index.contains("interrupted (killed)"), "{index}");
}

/// Shard `i` of `n` of the round robin `e.toml` in `d/results/c/shards/i-of-n`.
pub(super) fn shard(d: &Path, i: u32, n: u32) {
    reversi_lab()
        .current_dir(d)
        .args(["run", "e.toml", "--quiet", "--no-report", "--shard"])
        .arg(format!("{i}/{n}"))
        .arg("--out")
        .arg(format!("results/c/shards/{i}-of-{n}"))
        .assert()
        .success();
}

/// The two shards of a small round robin in `d/results/c/shards`.
pub(super) fn two_shards(d: &Path) {
    std::fs::write(
        d.join("e.toml"),
        "name = \"c\"\nsize = 6\ngames_per_pair = 6\n\
         [[players]]\nname = \"random\"\nstrategy = \"random\"\n\
         [[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n",
    )
    .unwrap();
    shard(d, 1, 2);
    shard(d, 2, 2);
}

/// The small tune of [`TUNE`] played to its end in `d/results/t`.
pub(super) fn a_tune(d: &Path) -> std::path::PathBuf {
    std::fs::write(d.join("t.toml"), TUNE).unwrap();
    let out = d.join("results/t");
    reversi_lab()
        .arg("tune")
        .arg(d.join("t.toml"))
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .assert()
        .success();
    out
}

#[test]
fn the_shards_of_a_cluster_run_are_shown_together_and_each_on_its_own() {
    let dir = Dir::new();
    let d = dir.path();
    two_shards(d);
    let server = Server::start(&d.join("results"), &[]);
    let (status, index) = server.get("/");
    assert_eq!(status, 200);
    let row = index
        .lines()
        .find(|l| l.contains("<a href=\"/folder?path=c\">"))
        .unwrap_or_else(|| panic!("the cluster run is listed: {index}"));
    assert!(
        row.contains("cluster run (2 shards)")
            && row.contains("6 of 6")
            && row.contains("complete"),
        "{row}"
    );
    for i in 1..=2 {
        assert!(
            index.contains(&format!("c/shards/{i}-of-2")),
            "each shard too: {index}"
        );
    }
    let (status, page) = server.get("/folder?path=c");
    assert_eq!(status, 200, "{page}");
    let shards = page.split("<table id=\"shards\">").nth(1).unwrap();
    assert!(
        shards.contains("shard 1/2") && shards.contains("shard 2/2"),
        "{shards}"
    );
    assert!(page.contains("reversi-lab merge"), "{page}");

    // A shard that a node's kill left half done: the run is no longer complete.
    let second = d.join("results/c/shards/2-of-2");
    let games = std::fs::read_to_string(second.join("games.csv")).unwrap();
    let kept: Vec<&str> = games.lines().take(2).collect();
    std::fs::write(second.join("games.csv"), kept.join("\n") + "\n").unwrap();
    let record = std::fs::read_to_string(second.join("run.toml")).unwrap();
    std::fs::write(
        second.join("run.toml"),
        record.replace("status = \"complete\"", "status = \"running\""),
    )
    .unwrap();
    let page = wait_for(
        &server,
        "/folder?path=c",
        "interrupted",
        Duration::from_secs(40),
    );
    assert!(page.contains("5 of 6"), "4 + 1 games: {page}");
}

pub(super) const TUNE: &str = r#"
name = "t"
seed = 4
iterations = 6
games_per_iteration = 4
[openings]
random_plies = 4
[player]
kind = "alphabeta"
depth = 1
eval = { kind = "eval", discs = 1, mobility = 0, potential_mobility = 0, frontier = 0, corners = 0, x_squares = 0, c_squares = 0, stable = 0, parity = 0 }
[[params]]
name = "eval.corners"
min = -20
max = 80
step = 4
[validation]
games = 0
"#;

#[test]
fn a_tunes_traces_are_drawn_as_they_grow() {
    let dir = Dir::new();
    let d = dir.path();
    let out = a_tune(d);
    // The tune as it stood after 3 iterations, before it wrote its report.
    std::fs::remove_file(out.join("report.html")).unwrap();
    let trace = std::fs::read_to_string(out.join("trace.csv")).unwrap();
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(lines.len(), 1 + 6, "{trace}");
    std::fs::write(out.join("trace.csv"), lines[..4].join("\n") + "\n").unwrap();
    let listed: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();

    let server = Server::start(&d.join("results"), &[]);
    let (status, page) = server.get("/folder?path=t");
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("3 of 6 iterations"), "{page}");
    assert!(
        page.contains("<h1>t <span class=\"muted\">(tune)</span>"),
        "{page}"
    );
    assert!(
        page.contains("eval.corners") && page.contains("<svg"),
        "{page}"
    );
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(out.join("trace.csv"))
        .unwrap();
    std::io::Write::write_all(&mut file, format!("{}\n", lines[4]).as_bytes()).unwrap();
    drop(file);
    wait_for(
        &server,
        "/folder?path=t",
        "4 of 6 iterations",
        Duration::from_secs(15),
    );
    let now: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(listed.len(), now.len(), "nothing written into the folder");
}

#[test]
fn play_holds_a_search_to_the_servers_time() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join("results")).unwrap();
    let server = Server::start(&dir.path().join("results"), &[]);
    // The computer moves first with a minute a move of its own (the most a spec takes
    // off a clock); the server gives 5 s.
    let started = Instant::now();
    let (status, state) = server.post("/play/new?vs=alphabeta:time=1m&colour=white");
    let took = started.elapsed();
    assert_eq!(status, 200, "{state}");
    assert_eq!(field(&state, "your_turn"), "true", "{state}");
    assert!(
        took < Duration::from_secs(12),
        "the first move took {took:?}"
    );
}

#[test]
fn a_search_stops_when_its_page_leaves_and_plays_nothing() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join("results")).unwrap();
    let server = Server::start(&dir.path().join("results"), &[]);
    let (status, state) = server.post("/play/new?vs=alphabeta:time=1m&colour=black");
    assert_eq!(status, 200, "{state}");
    let id = field(&state, "id");
    // The person's move, then the page closes while the computer thinks (the server
    // gives it 5 s).
    let mut page = TcpStream::connect(server.address).unwrap();
    write!(
        page,
        "POST /play/move?id={id}&square=f5 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n"
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    drop(page);
    let left = Instant::now();
    // The game is held while its search runs: its state comes once the search stops.
    let (status, state) = server.post(&format!("/play/state?id={id}"));
    let took = left.elapsed();
    assert_eq!(status, 200, "{state}");
    assert!(
        took < Duration::from_secs(3),
        "the search went on {took:?} after its page left"
    );
    // Nothing was played: the move can be made again, and is answered.
    assert_eq!(field(&state, "transcript"), "", "{state}");
    assert_eq!(field(&state, "your_turn"), "true", "{state}");
    let (status, state) = server.post(&format!("/play/move?id={id}&square=f5"));
    assert_eq!(status, 200, "{state}");
    assert!(field(&state, "transcript").starts_with("f5"), "{state}");
}

/// Reads server-sent events until one named `name` whose data holds `want`; its data.
fn event_with(reader: &mut BufReader<TcpStream>, name: &str, want: &str) -> String {
    let (mut event, mut data) = (String::new(), String::new());
    loop {
        let mut line = String::new();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
        let line = line.trim_end_matches(['\r', '\n']);
        if let Some(e) = line.strip_prefix("event: ") {
            event = e.to_string();
        } else if let Some(d) = line.strip_prefix("data: ") {
            data.push_str(d);
            data.push('\n');
        } else if line.is_empty() {
            if event == name && data.contains(want) {
                return data;
            }
            (event, data) = (String::new(), String::new());
        }
    }
}

/// The live stream of `path`, its head read.
fn stream_of(server: &Server, path: &str) -> BufReader<TcpStream> {
    let mut stream = TcpStream::connect(server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET /events?path={path} HTTP/1.1\r\nHost: localhost\r\n\r\n"
    )
    .unwrap();
    BufReader::new(stream)
}

#[test]
fn a_cluster_page_and_a_tune_page_follow_through_the_live_stream() {
    let dir = Dir::new();
    let d = dir.path();
    two_shards(d);
    // The second shard cut to 1 of its 2 games (5 of 6 in all); the tune after 3 of
    // its 6 iterations.
    let second = d.join("results/c/shards/2-of-2/games.csv");
    let games = std::fs::read_to_string(&second).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    std::fs::write(&second, lines[..2].join("\n") + "\n").unwrap();
    let tune = a_tune(d);
    std::fs::remove_file(tune.join("report.html")).unwrap();
    let trace = std::fs::read_to_string(tune.join("trace.csv")).unwrap();
    let iterations: Vec<&str> = trace.lines().collect();
    std::fs::write(tune.join("trace.csv"), iterations[..4].join("\n") + "\n").unwrap();
    let server = Server::start(&d.join("results"), &[]);

    // Server-rendered as they stand (readable with JavaScript off), no meta refresh.
    let (status, page) = server.get("/folder?path=c");
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains("5 of 6") && page.contains("shard 2/2"),
        "{page}"
    );
    let (status, tune_page) = server.get("/folder?path=t");
    assert_eq!(status, 200, "{tune_page}");
    assert!(tune_page.contains("3 of 6 iterations"), "{tune_page}");
    for page in [&page, &tune_page] {
        assert!(!page.contains("http-equiv=\"refresh\""), "{page}");
        assert!(page.contains("<section id=\"live\""), "{page}");
    }

    // The cluster run's stream: its shards as they are, then as the shard grows.
    let mut cluster = stream_of(&server, "c");
    event_with(&mut cluster, "live", "5 of 6");
    std::fs::write(&second, games).unwrap();
    let grown = event_with(&mut cluster, "live", "6 of 6");
    assert!(grown.contains("<table id=\"shards\">"), "{grown}");

    // The tune's: its traces drawn again once trace.csv has grown.
    let mut traces = stream_of(&server, "t");
    event_with(&mut traces, "live", "tune");
    std::fs::write(tune.join("trace.csv"), trace).unwrap();
    let drawn = event_with(&mut traces, "report", "6 of 6 iterations");
    assert!(drawn.contains("eval.corners"), "{drawn}");
}

/// Past `--connections` a new connection gets a one-line 503; a live page that
/// closes frees its place at once (its stream sees the client leave), and keep-alive
/// connections take request after request.
#[test]
fn past_the_connection_cap_a_client_gets_503_until_a_page_closes() {
    let dir = Dir::new();
    super::web::a_run(dir.path(), "capped", 2);
    let server = Server::start(&dir.path().join("results"), &["--connections", "3"]);
    let mut streams: Vec<_> = (0..3)
        .map(|_| {
            let mut stream = stream_of(&server, "capped");
            event_with(&mut stream, "live", "data-games");
            stream
        })
        .collect();
    let (status, body) = server.get("/live.json?path=capped");
    assert_eq!(status, 503, "{body}");
    assert!(
        body.contains("busy") && body.lines().count() == 1,
        "{body:?}"
    );
    drop(streams.pop());
    let started = Instant::now();
    let (mut status, mut body) = server.get("/live.json?path=capped");
    while status == 503 && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
        (status, body) = server.get("/live.json?path=capped");
    }
    assert_eq!(status, 200, "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "the closed page held its place {:?}",
        started.elapsed()
    );
    // One connection, several requests (the only place left serves them all, once
    // the request before has let go of it).
    let mut replies = String::new();
    for _ in 0..50 {
        let mut kept = TcpStream::connect(server.address).unwrap();
        write!(
            kept,
            "GET /live.json?path=capped HTTP/1.1\r\nHost: localhost\r\n\r\n\
             HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n\
             GET /live.json?path=capped HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        replies.clear();
        std::io::Read::read_to_string(&mut kept, &mut replies).unwrap();
        if !replies.starts_with("HTTP/1.1 503") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(replies.matches("HTTP/1.1 200 OK").count(), 3, "{replies}");
    assert_eq!(replies.matches("\"games\":6").count(), 2, "{replies}");
}

/// A merge replaces `games.csv` with another file and a resume may cut a torn tail:
/// the page's count follows the file as it is now, read again from its start.
#[test]
fn a_games_file_replaced_or_cut_while_viewed_is_read_again_from_its_start() {
    let dir = Dir::new();
    let run = super::web::a_run(dir.path(), "redone", 6);
    let games = std::fs::read_to_string(run.join("games.csv")).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    let first = |n: usize| {
        lines[..=n]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    };
    std::fs::write(run.join("games.csv"), first(10)).unwrap();
    let server = Server::start(&dir.path().join("results"), &[]);
    let mut stream = stream_of(&server, "redone");
    event_with(&mut stream, "live", "data-games=\"10\"");
    // Another file renamed over it, as a merge writes it.
    let merged = run.join("games.csv.new");
    std::fs::write(&merged, first(4)).unwrap();
    std::fs::rename(&merged, run.join("games.csv")).unwrap();
    event_with(&mut stream, "live", "data-games=\"4\"");
    // Cut in place to fewer rows, as a resume cuts a torn tail, then grown again.
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(run.join("games.csv"))
        .unwrap();
    file.set_len(first(2).len() as u64).unwrap();
    event_with(&mut stream, "live", "data-games=\"2\"");
    std::fs::write(run.join("games.csv"), first(7)).unwrap();
    event_with(&mut stream, "live", "data-games=\"7\"");
    let (status, json) = server.get("/live.json?path=redone");
    assert_eq!(status, 200, "{json}");
    assert_eq!(field(&json, "games"), "7", "{json}");
}
