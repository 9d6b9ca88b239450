//! `web`: the server over a results root, spoken to over plain HTTP on loopback: the
//! index and a folder's page, the live stream gaining games as rows reach the disk
//! (a half-written last line waiting for its end), the refusals (paths out of the
//! root, a token off loopback, bad play requests) as one-line 4xx replies, play
//! giving `play`'s moves, and many clients at once with slow ones among them.

use crate::common::{reversi_lab, Dir, Running};

mod edges;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A `web` server started for a test, stopped when dropped as a user stops it
/// (SIGTERM: it removes its scratch folder; SIGKILL only if it does not end).
pub(super) struct Server {
    child: Running,
    pub address: SocketAddr,
    /// The address it printed (with `?token=` when it needs one).
    pub url: String,
    /// The line it printed after the address.
    pub second: String,
}

impl Server {
    pub fn start(root: &Path, extra: &[&str]) -> Server {
        Server::start_with(root, extra, None)
    }

    /// With `temp` as its temporary folder (`TMPDIR`), where its scratch folder goes.
    pub fn start_with(root: &Path, extra: &[&str], temp: Option<&Path>) -> Server {
        let mut command = reversi_lab();
        command
            .arg("web")
            .arg(root)
            .args(["--port", "0"])
            .args(extra);
        if let Some(temp) = temp {
            command.env("TMPDIR", temp);
        }
        let mut child = Running::start(command.std().stdout(Stdio::piped()).stderr(Stdio::null()));
        let lines = child.first_lines(2);
        let url = lines[0]
            .split_whitespace()
            .last()
            .expect("the address")
            .to_string();
        let port: u16 = url
            .split(':')
            .nth(2)
            .unwrap()
            .split('/')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        Server {
            child,
            address: SocketAddr::from(([127, 0, 0, 1], port)),
            url,
            second: lines[1].trim_end().to_string(),
        }
    }

    pub fn get(&self, target: &str) -> (u16, String) {
        request(self.address, "GET", target, "")
    }

    pub fn post(&self, target: &str) -> (u16, String) {
        request(self.address, "POST", target, "")
    }
}

/// One request on its own connection: (status, body).
pub(super) fn request(
    address: SocketAddr,
    method: &str,
    target: &str,
    headers: &str,
) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 0\r\n{headers}\r\n"
    )
    .unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).unwrap();
    let reply = String::from_utf8_lossy(&reply).into_owned();
    let status = reply
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = reply
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

/// A finished run of a small round robin in `root/name`.
pub(super) fn a_run(root: &Path, name: &str, games: u32) -> PathBuf {
    let config = root.join(format!("{name}.toml"));
    std::fs::write(
        &config,
        format!(
            "name = \"{name}\"\nsize = 6\ngames_per_pair = {games}\n\
             [[players]]\nname = \"random\"\nstrategy = \"random\"\n\
             [[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n\
             [[players]]\nname = \"corners\"\nstrategy = \"corner-first\"\n"
        ),
    )
    .unwrap();
    let out = root.join("results").join(name);
    reversi_lab()
        .args(["run", "--quiet", "--no-report", "--out"])
        .arg(&out)
        .arg(&config)
        .assert()
        .success();
    out
}

fn one_line(status: u16, body: &str, what: &str) {
    assert!(
        (400..500).contains(&status),
        "{what}: status {status}: {body}"
    );
    assert_eq!(body.lines().count(), 1, "{what}: one line: {body:?}");
}

#[test]
fn the_index_lists_folders_and_a_folder_page_shows_its_standings() {
    let dir = Dir::new();
    a_run(dir.path(), "field", 4);
    a_run(dir.path(), "other", 2);
    let server = Server::start(&dir.path().join("results"), &[]);
    assert!(
        server.url.starts_with("http://127.0.0.1:"),
        "{}",
        server.url
    );
    let (status, index) = server.get("/");
    assert_eq!(status, 200);
    for name in ["field", "other"] {
        assert!(
            index.contains(&format!("<a href=\"/folder?path={name}\">{name}</a>")),
            "{index}"
        );
    }
    assert!(
        index.contains("round-robin") && index.contains("complete"),
        "{index}"
    );
    assert!(index.contains("12 of 12"), "3 pairs of 4 games: {index}");

    let (status, page) = server.get("/folder?path=field");
    assert_eq!(status, 200);
    // Paths under the root, never where the root is on the server.
    let real = dir.path().canonicalize().unwrap();
    for (what, text) in [("index", &index), ("folder page", &page)] {
        for absolute in [dir.path(), real.as_path()] {
            let absolute = absolute.display().to_string();
            assert!(!text.contains(&absolute), "{what} shows {absolute}");
        }
    }
    // Shown where they are under the root: the command line's folder and, above the
    // root, the experiment file beside it.
    assert!(
        page.contains(" --out field ../field.toml</td>"),
        "the command line relative to the root: {page}"
    );
    assert!(
        index.contains("<meta http-equiv=\"refresh\" content=\"10\"><title>"),
        "the index refreshes itself without JavaScript: {index}"
    );
    let live = page.split("<section id=\"live\"").nth(1).unwrap();
    assert!(live.contains("<h3>Standings</h3>"), "{live}");
    for player in ["random", "greedy", "corners"] {
        assert!(
            live.contains(&format!("<td class=\"l\">{player}</td>")),
            "{player}: {live}"
        );
    }
    // The report below is report.html's, drawn without writing into the folder.
    assert!(
        page.contains("<nav id=\"contents\">") && page.contains("<svg"),
        "the report with its charts"
    );
    assert!(
        !dir.path().join("results/field/report.html").exists(),
        "nothing written into the folder"
    );
    assert!(
        !dir.path().join("results/field/charts").exists(),
        "no charts written into the folder"
    );
    // A game in the viewer.
    let (status, game) = server.get("/game?path=field&id=3");
    assert_eq!(status, 200, "{game}");
    assert!(
        game.contains("class=\"rv\"")
            && game.contains("game 3 of the run in field: ")
            && game.contains(
                "<body>\n<nav><a href=\"/folder?path=field\">back to field</a></nav>\n<h1>"
            ),
        "{game}"
    );
    let (status, json) = server.get("/live.json?path=field");
    assert_eq!(status, 200);
    assert!(json.contains("\"games\":12"), "{json}");
}

/// Reads server-sent events until one whose data says `data-games="N"`; its N.
fn next_count(reader: &mut BufReader<TcpStream>) -> u64 {
    let mut line = String::new();
    loop {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
        if let Some(at) = line
            .strip_prefix("data: ")
            .and_then(|d| d.split("data-games=\"").nth(1))
        {
            return at[..at.find('"').unwrap()].parse().unwrap();
        }
    }
}

#[test]
fn a_live_stream_gains_games_as_rows_are_appended_and_waits_for_a_half_written_line() {
    let dir = Dir::new();
    let run = a_run(dir.path(), "growing", 6);
    let games = std::fs::read_to_string(run.join("games.csv")).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    assert_eq!(lines.len(), 1 + 18);
    // The folder as a run leaves it after 5 games.
    let mut file = String::new();
    for line in &lines[..6] {
        file.push_str(line);
        file.push('\n');
    }
    std::fs::write(run.join("games.csv"), &file).unwrap();
    let server = Server::start(&dir.path().join("results"), &[]);

    let mut stream = TcpStream::connect(server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET /events?path=growing HTTP/1.1\r\nHost: localhost\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    reader.read_line(&mut head).unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(next_count(&mut reader), 5);

    let append = |text: &str| {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(run.join("games.csv"))
            .unwrap();
        f.write_all(text.as_bytes()).unwrap();
        f.flush().unwrap();
    };
    // One whole row and half of the next: the whole one counts, the half waits.
    let half = lines[7].len() / 2;
    let started = Instant::now();
    append(&format!("{}\n{}", lines[6], &lines[7][..half]));
    assert_eq!(next_count(&mut reader), 6);
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(2),
        "the row reached the page in {took:?}"
    );
    let (status, body) = server.get("/game?path=growing&id=6");
    one_line(status, &body, "the half-written game");
    append(&format!("{}\n", &lines[7][half..]));
    assert_eq!(next_count(&mut reader), 7);
    assert_eq!(server.get("/game?path=growing&id=6").0, 200);

    // A folder deleted while viewed: the stream says so and ends at once (its last
    // chunk), pages get 4xx.
    std::fs::remove_dir_all(&run).unwrap();
    let deleted = Instant::now();
    let mut rest = String::new();
    let mut line = String::new();
    while line.trim_end() != "0" || !rest.contains("event: gone") {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "{rest}");
        rest.push_str(&line);
    }
    assert!(
        deleted.elapsed() < Duration::from_secs(3),
        "the stream ended {:?} after the deletion: {rest}",
        deleted.elapsed()
    );
    assert!(!rest.contains(&dir.path().display().to_string()), "{rest}");
    let (status, body) = server.get("/folder?path=growing");
    one_line(status, &body, "a deleted folder");
}

#[test]
fn paths_out_of_the_root_and_bad_requests_are_refused_in_one_line() {
    let dir = Dir::new();
    let run = a_run(dir.path(), "inside", 2);
    let results = dir.path().join("results");
    // A results folder outside the root, and a link to it from inside.
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    for file in ["run.toml", "games.csv"] {
        std::fs::copy(run.join(file), outside.join(file)).unwrap();
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&outside, results.join("link-out")).unwrap();
        // A folder inside whose games.csv is a link to one outside.
        let games_out = results.join("games-out");
        std::fs::create_dir_all(&games_out).unwrap();
        std::fs::copy(run.join("run.toml"), games_out.join("run.toml")).unwrap();
        std::os::unix::fs::symlink(outside.join("games.csv"), games_out.join("games.csv")).unwrap();
    }
    let server = Server::start(&results, &[]);
    let mut cases = vec![
        ("/folder?path=../outside", 400),
        ("/folder?path=inside/../../outside", 400),
        ("/folder?path=%2e%2e/outside", 400),
        ("/folder?path=/etc", 400),
        ("/folder?path=%2Fetc", 400),
        ("/folder?path=nothing-here", 404),
        ("/folder", 400),
        ("/game?path=inside&id=999", 404),
        ("/game?path=inside&id=x", 400),
        ("/nowhere", 404),
        ("/folder?path=%ff", 400),
    ];
    if cfg!(unix) {
        cases.push(("/folder?path=link-out", 403));
        cases.push(("/events?path=link-out", 403));
        cases.push(("/folder?path=games-out", 403));
        cases.push(("/live.json?path=games-out", 403));
        cases.push(("/game?path=games-out&id=0", 403));
    }
    for (target, want) in cases {
        let (status, body) = server.get(target);
        assert_eq!(status, want, "{target}: {body}");
        one_line(status, &body, target);
    }
    let long = format!("/folder?path={}", "a".repeat(5000));
    let (status, body) = server.get(&long);
    one_line(status, &body, "a long address");
    if cfg!(unix) {
        let (_, index) = server.get("/");
        assert!(!index.contains("games-out"), "not listed: {index}");
    }
    // A chunked body, which has no length to refuse it by.
    let mut stream = TcpStream::connect(server.address).unwrap();
    write!(
        stream,
        "POST /play/new HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 4"), "{reply}");
    assert!(
        body.contains("no body") && body.lines().count() == 1,
        "{reply}"
    );
    // A request line that is not HTTP.
    let mut stream = TcpStream::connect(server.address).unwrap();
    write!(stream, "HELLO THERE\r\n\r\n").unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 400"), "{reply}");
    assert_eq!(body.lines().count(), 1, "{reply}");
    let (status, body) = request(server.address, "DELETE", "/", "");
    assert_eq!(status, 405, "{body}");
    let (status, body) = request(server.address, "GET", "/", "X-Padding: 1\r\n");
    assert_eq!(status, 200, "{body}");
    // A page elsewhere reaching the server through its own name (DNS rebinding),
    // also by a name that starts like a loopback address.
    for host in ["evil.example:80", "127.0.0.1.evil.com", "127.evil"] {
        let mut stream = TcpStream::connect(server.address).unwrap();
        write!(
            stream,
            "GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        assert!(reply.starts_with("HTTP/1.1 403"), "{host}: {reply}");
    }
}

#[test]
fn off_loopback_every_request_needs_the_token() {
    let dir = Dir::new();
    a_run(dir.path(), "secret", 2);
    let results = dir.path().join("results");
    // Listening on every address (reached here through loopback only).
    let server = Server::start(&results, &["--host", "0.0.0.0"]);
    let token = server
        .url
        .split("?token=")
        .nth(1)
        .expect("a drawn token in the address")
        .to_string();
    assert!(token.len() >= 32, "{token}");
    for target in [
        "/",
        "/folder?path=secret",
        "/live.json?path=secret",
        "/play",
    ] {
        let (status, body) = server.get(target);
        assert_eq!(status, 401, "{target}: {body}");
        one_line(status, &body, target);
    }
    let (status, _) = server.get("/?token=wrong");
    assert_eq!(status, 403);
    let (status, body) = server.get(&format!("/folder?path=secret&token={token}"));
    assert_eq!(status, 200, "{body}");
    let auth = format!("Authorization: Bearer {token}\r\n");
    assert_eq!(request(server.address, "GET", "/", &auth).0, 200);
    let cookie = format!("Cookie: reversi_lab_token={token}\r\n");
    assert_eq!(
        request(server.address, "GET", "/live.json?path=secret", &cookie).0,
        200
    );
    drop(server);
    let given = Server::start(&results, &["--host", "0.0.0.0", "--token", "sesame"]);
    assert!(given.url.ends_with("?token=sesame"), "{}", given.url);
    assert_eq!(given.get("/?token=sesame").0, 200);
    assert_eq!(given.get("/").0, 401);
}

/// The state's value of `key` as text (the JSON is flat enough for this).
pub(super) fn field(json: &str, key: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    match &value[key] {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[test]
fn play_refuses_bad_specs_and_illegal_moves_in_one_line_and_plays_as_play_does() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join("results")).unwrap();
    let server = Server::start(&dir.path().join("results"), &[]);
    for target in [
        "/play/new?vs=nonsense",
        "/play/new?vs=alphabeta:depth=99",
        "/play/new?level=impossible",
        "/play/new?size=7",
        "/play/new?vs=engine:/bin/true",
        "/play/new?vs=greedy&moves=a1",
        "/play/new?vs=greedy&scoring=banana",
        "/play/new?vs=greedy&anti=maybe",
        "/play/move?id=none&square=f5",
    ] {
        let (status, body) = server.post(target);
        one_line(status, &body, target);
    }
    // A page may not run code on the server: a Python callable (it would import any
    // module and call it) is refused as an engine's program is, before any process.
    for target in [
        "/play/new?vs=python:callable=os:system",
        "/play/new?vs=gtp:/bin/true",
    ] {
        let (status, body) = server.post(target);
        one_line(status, &body, target);
        assert!(body.contains("not played from the browser"), "{body}");
    }
    assert_eq!(
        server.get("/play/new?vs=greedy").0,
        405,
        "actions are POSTs"
    );
    let (status, state) = server.post("/play/new?vs=greedy&seed=5");
    assert_eq!(status, 200, "{state}");
    let id = field(&state, "id");
    for bad in ["a1", "z9", "pass"] {
        let (status, body) = server.post(&format!("/play/move?id={id}&square={bad}"));
        one_line(status, &body, bad);
    }
    let (status, body) = server.post(&format!("/play/undo?id={id}"));
    one_line(status, &body, "undo at the start");

    // A whole game by the first legal move each turn, then the same moves at `play`.
    let mut state = state;
    let mut typed = String::new();
    while field(&state, "over") == "false" {
        let legal: Vec<String> = serde_json::from_str::<serde_json::Value>(&state).unwrap()
            ["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        typed.push_str(&legal[0]);
        typed.push('\n');
        let (status, next) = server.post(&format!("/play/move?id={id}&square={}", legal[0]));
        assert_eq!(status, 200, "{next}");
        state = next;
    }
    let (status, evaluated) = server.post(&format!("/play/eval?id={id}"));
    assert_eq!(status, 200, "{evaluated}");
    typed.push_str("n\n");
    let output = reversi_lab()
        .args(["play", "--vs", "greedy", "--seed", "5"])
        .write_stdin(typed)
        .assert()
        .success();
    let printed = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    let transcript = field(&state, "transcript");
    assert!(
        printed.contains(&format!("transcript: {transcript}")),
        "web {transcript}, play: {printed}"
    );
    assert!(
        printed.contains(&format!("game over: {}", field(&state, "result"))),
        "{printed}"
    );

    // Undo takes back the person's last move and the reply; play again starts game 2.
    let (status, undone) = server.post(&format!("/play/undo?id={id}"));
    assert_eq!(status, 200, "{undone}");
    assert_eq!(field(&undone, "over"), "false");
    let (_, again) = server.post(&format!("/play/again?id={id}"));
    assert_eq!(field(&again, "game"), "2");
    assert_eq!(field(&again, "transcript"), "");
}

#[test]
fn many_clients_at_once_get_no_error_and_slow_clients_stall_nobody() {
    let dir = Dir::new();
    a_run(dir.path(), "busy", 6);
    let server = Server::start(&dir.path().join("results"), &[]);
    let address = server.address;
    // Clients that ask and never read, and clients that never finish asking.
    let mut idle = Vec::new();
    for i in 0..40 {
        let mut stream = TcpStream::connect(address).unwrap();
        if i % 2 == 0 {
            write!(
                stream,
                "GET /folder?path=busy HTTP/1.1\r\nHost: localhost\r\n\r\n"
            )
            .unwrap();
            write!(
                stream,
                "GET /events?path=busy HTTP/1.1\r\nHost: localhost\r\n\r\n"
            )
            .unwrap();
        } else {
            write!(stream, "GET /folder?pa").unwrap();
        }
        idle.push(stream);
    }
    let started = Instant::now();
    let workers: Vec<_> = (0..64)
        .map(|i| {
            std::thread::spawn(move || {
                let mut failures = Vec::new();
                for k in 0..5 {
                    let (method, target) = match (i + k) % 4 {
                        0 => ("GET", "/"),
                        1 => ("GET", "/folder?path=busy"),
                        2 => ("GET", "/live.json?path=busy"),
                        _ => ("POST", "/play/new?vs=random"),
                    };
                    let (status, body) = request(address, method, target, "");
                    if status != 200 {
                        failures.push(format!("{target}: {status} {body}"));
                    }
                }
                failures
            })
        })
        .collect();
    let failures: Vec<String> = workers
        .into_iter()
        .flat_map(|w| w.join().unwrap())
        .collect();
    assert!(failures.is_empty(), "{failures:?}");
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "{:?}",
        started.elapsed()
    );
    drop(idle);
}

/// One request on a connection kept open: (status, body), read by its length.
fn request_kept(reader: &mut BufReader<TcpStream>, target: &str) -> (u16, String) {
    write!(
        reader.get_mut(),
        "GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    )
    .unwrap();
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap();
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let status = status.split(' ').nth(1).and_then(|s| s.parse().ok());
    (
        status.unwrap_or(0),
        String::from_utf8_lossy(&body).into_owned(),
    )
}

#[test]
fn the_server_answers_after_long_without_a_connection_and_keeps_its_open_ones() {
    // The socket's read timeout (5 s) bounds accept too: the server used to stop
    // accepting, and then answer nothing, after 5 s without a new connection.
    let dir = Dir::new();
    a_run(dir.path(), "quiet", 2);
    let server = Server::start(&dir.path().join("results"), &[]);
    let kept = TcpStream::connect(server.address).unwrap();
    kept.set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut kept = BufReader::new(kept);
    // A connection kept open across the server's change of accept thread, asking
    // every 2 s (within the 5 s a connection may stay silent): each one answered.
    for round in 0..4 {
        std::thread::sleep(Duration::from_secs(2));
        let (status, body) = request_kept(&mut kept, "/live.json?path=quiet");
        assert_eq!(status, 200, "round {round}: {body}");
        assert!(body.contains("\"games\""), "round {round}: {body}");
    }
    // More than 6 s since the last new connection: a new one is answered.
    let (status, body) = server.get("/");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("quiet"), "{body}");
}

/// Ctrl-C or SIGTERM ends the server with its scratch folder (the report's charts)
/// removed and exit code 130; a signal ended it without dropping the server before.
#[test]
fn a_signal_stops_the_server_and_removes_its_scratch_folder() {
    let dir = Dir::new();
    a_run(dir.path(), "signalled", 2);
    for signal in ["-INT", "-TERM"] {
        // Its own temporary folder: in the shared one, a folder left by another
        // process that once had the same PID would be counted too.
        let temp = Dir::new();
        let mut server = Server::start_with(&dir.path().join("results"), &[], Some(temp.path()));
        let (status, _) = server.get("/folder?path=signalled");
        assert_eq!(status, 200);
        let pid = server.child.id();
        let prefix = format!("reversi-lab-web-{pid}-");
        let scratch: Vec<PathBuf> = std::fs::read_dir(temp.path())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
            .map(|e| e.path())
            .collect();
        assert_eq!(scratch.len(), 1, "{scratch:?}");
        server.child.signal(signal);
        let code = server.child.wait().code();
        assert_eq!(code, Some(130), "{signal}");
        assert!(!scratch[0].exists(), "{signal}: {:?} left", scratch[0]);
    }
}
