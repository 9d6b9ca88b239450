//! `web` in a real browser (headless Chromium over the DevTools protocol, as the
//! report viewer's suite drives it): a folder's page gains games while a run plays,
//! a whole game played by clicks ends as `play` ends it for the same moves, and a
//! cluster run's and a tune's pages follow their folders through the live stream;
//! no page loads anything from outside the
//! server. With `REVERSI_LAB_SCREENSHOTS=DIR` set, the pages are also saved there as
//! PNG (the pictures in docs/web.md come from this). Skipped as the viewer's suite is when
//! Chromium is missing.

use super::browser::{chromium, Browser};
use super::web::{field, Server};
use crate::common::{binary, reversi_lab, Dir};
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

/// Saves the page as `name`.png when screenshots are asked for.
fn screenshot(browser: &mut Browser, name: &str) {
    let Some(dir) = std::env::var_os("REVERSI_LAB_SCREENSHOTS") else {
        return;
    };
    let shot = browser.call("Page.captureScreenshot", json!({ "format": "png" }));
    let bytes = base64(shot["data"].as_str().unwrap());
    std::fs::write(Path::new(&dir).join(format!("{name}.png")), bytes).unwrap();
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &c)| n | (u32::from(value(c)) << (18 - 6 * i)));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// Every address the page asked for lies on the server.
fn loaded_only_from(browser: &Browser, origin: &str) {
    for event in browser
        .events
        .iter()
        .filter(|e| e["method"] == json!("Network.requestWillBeSent"))
    {
        let url = event["params"]["request"]["url"].as_str().unwrap();
        assert!(url.starts_with(origin), "the page asked for {url}");
    }
}

fn poll<T>(what: &str, patience: Duration, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + patience;
    loop {
        if let Some(found) = check() {
            return found;
        }
        assert!(Instant::now() < deadline, "{what}: not within {patience:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_folder_page_gains_games_while_a_run_plays_in_chromium() {
    let Some(chrome) = chromium() else {
        crate::common::missing("chromium is not installed (apt-get install chromium)");
        return;
    };
    let dir = Dir::new();
    let config = dir.path().join("live.toml");
    std::fs::write(
        &config,
        "name = \"live\"\nformat = \"head-to-head\"\ngames_per_pair = 20000\nthreads = 1\n\
         [openings]\nrandom_plies = 4\n[sprt]\nelo0 = 0\nelo1 = 5\n\
         [[players]]\nname = \"search\"\nstrategy = \"alphabeta:depth=6\"\n\
         [[players]]\nname = \"same\"\nstrategy = \"alphabeta:depth=6\"\n",
    )
    .unwrap();
    let results = dir.path().join("results");
    let out = results.join("live");
    let mut run = std::process::Command::new(binary())
        .args(["run", "--quiet", "--no-report", "--out"])
        .arg(&out)
        .arg(&config)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    poll("the run's first games", Duration::from_secs(60), || {
        let text = std::fs::read_to_string(out.join("games.csv")).ok()?;
        (text.lines().count() > 3).then_some(())
    });
    let server = Server::start(&results, &[]);
    let origin = server.url.trim_end_matches('/').to_string();
    let mut browser = Browser::launch(&chrome);
    browser.open(&format!("{origin}/folder?path=live"));
    let count = |browser: &mut Browser| {
        browser
            .eval("Number(document.getElementById('live-body').dataset.games)")
            .as_u64()
            .unwrap()
    };
    let first = count(&mut browser);
    assert!(first > 0);
    // Equal players: the test goes on for thousands of games, far longer than this.
    let later = poll("the page gaining games", Duration::from_secs(20), || {
        let now = count(&mut browser);
        (now > first).then_some(now)
    });
    assert!(later > first);
    let text = browser
        .eval("document.getElementById('live').innerText")
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains("LLR") && text.contains("running"), "{text}");
    screenshot(&mut browser, "web-folder");
    loaded_only_from(&browser, &origin);
    browser.open(&format!("{origin}/"));
    let index = browser
        .eval("document.getElementById('folders').innerText")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        index.contains("live") && index.contains("running"),
        "{index}"
    );
    screenshot(&mut browser, "web-index");
    let _ = run.kill();
    let _ = run.wait();
}

#[test]
fn a_game_played_by_clicks_in_chromium_ends_as_play_ends_it() {
    let Some(chrome) = chromium() else {
        crate::common::missing("chromium is not installed (apt-get install chromium)");
        return;
    };
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join("results")).unwrap();
    let server = Server::start(&dir.path().join("results"), &[]);
    let origin = server.url.trim_end_matches('/').to_string();
    let mut browser = Browser::launch(&chrome);
    browser.open(&format!("{origin}/play?vs=greedy&seed=9"));
    let state = |browser: &mut Browser| -> Option<String> {
        browser.eval("window.reversiPlay && reversiPlay.state() ? JSON.stringify(reversiPlay.state()) : null").as_str().map(str::to_string)
    };
    let mut now = poll("the first game", Duration::from_secs(30), || {
        state(&mut browser)
    });
    assert_eq!(field(&now, "opponent"), "greedy");
    browser.click("#hints");
    let mut typed = String::new();
    let mut turn = 0;
    while field(&now, "over") == "false" {
        let legal = serde_json::from_str::<serde_json::Value>(&now).unwrap()["legal"][0]
            .as_str()
            .unwrap()
            .to_string();
        let before = field(&now, "transcript");
        if turn == 2 {
            // Eval and undo once on the way, then the same move again.
            browser.click("#eval");
            poll("the values", Duration::from_secs(30), || {
                let text = browser.eval("document.getElementById('values').textContent");
                text.as_str()
                    .filter(|t| t.starts_with("eval by"))
                    .map(str::to_string)
            });
            screenshot(&mut browser, "web-play");
            typed.push_str("eval\n");
            // `play`'s undo: the person's last move and the reply; the same square again.
            browser.click("#undo");
            poll("the undo", Duration::from_secs(30), || {
                state(&mut browser).filter(|s| field(s, "transcript").len() < before.len())
            });
            typed.push_str("undo\n");
            let last_own = typed
                .lines()
                .rev()
                .find(|l| l.len() == 2)
                .unwrap()
                .to_string();
            browser.click(&format!("#sq-{last_own}"));
            typed.push_str(&last_own);
            typed.push('\n');
            now = poll("the move again", Duration::from_secs(30), || {
                state(&mut browser).filter(|s| field(s, "transcript").len() == before.len())
            });
            if field(&now, "over") == "true" {
                break;
            }
            let legal_now = serde_json::from_str::<serde_json::Value>(&now).unwrap()["legal"][0]
                .as_str()
                .unwrap()
                .to_string();
            let before = field(&now, "transcript");
            turn += 1;
            browser.click(&format!("#sq-{legal_now}"));
            typed.push_str(&legal_now);
            typed.push('\n');
            now = poll("the move", Duration::from_secs(30), || {
                state(&mut browser).filter(|s| field(s, "transcript") != before)
            });
            continue;
        }
        turn += 1;
        browser.click(&format!("#sq-{legal}"));
        typed.push_str(&legal);
        typed.push('\n');
        now = poll("the move", Duration::from_secs(30), || {
            state(&mut browser).filter(|s| field(s, "transcript") != before)
        });
    }
    let shown = browser
        .eval("document.getElementById('status').textContent")
        .as_str()
        .unwrap()
        .to_string();
    assert!(shown.contains("game over"), "{shown}");
    loaded_only_from(&browser, &origin);
    typed.push_str("n\n");
    let output = reversi_lab()
        .args(["play", "--vs", "greedy", "--seed", "9"])
        .write_stdin(typed)
        .assert()
        .success();
    let printed = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    let transcript = field(&now, "transcript");
    assert!(
        printed.contains(&format!("transcript: {transcript}")),
        "web {transcript}, play: {printed}"
    );
    assert!(
        printed.contains(&format!("game over: {}", field(&now, "result"))),
        "{printed}"
    );
}

#[test]
fn a_cluster_run_and_a_tune_show_in_chromium() {
    let Some(chrome) = chromium() else {
        crate::common::missing("chromium is not installed (apt-get install chromium)");
        return;
    };
    let dir = Dir::new();
    super::web_live::two_shards(dir.path());
    // The second shard half done, to grow while the page is open.
    let second = dir.path().join("results/c/shards/2-of-2/games.csv");
    let games = std::fs::read_to_string(&second).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    std::fs::write(&second, lines[..2].join("\n") + "\n").unwrap();
    let tune = super::web_live::a_tune(dir.path());
    // The tune as it stands half-way, before its report.
    std::fs::remove_file(tune.join("report.html")).unwrap();
    let trace = std::fs::read_to_string(tune.join("trace.csv")).unwrap();
    let half: Vec<&str> = trace.lines().take(4).collect();
    std::fs::write(tune.join("trace.csv"), half.join("\n") + "\n").unwrap();
    let server = Server::start(&dir.path().join("results"), &[]);
    let origin = server.url.trim_end_matches('/').to_string();
    let mut browser = Browser::launch(&chrome);
    browser.open(&format!("{origin}/folder?path=c"));
    let shards = browser
        .eval("document.getElementById('shards').innerText")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        shards.contains("shard 1/2") && shards.contains("shard 2/2"),
        "{shards}"
    );
    let refreshes = "document.querySelectorAll('meta[http-equiv=refresh]').length";
    assert_eq!(browser.eval(refreshes), json!(0));
    // The page follows the shard through the live stream, without reloading.
    browser.eval("window.kept = 'this page'");
    std::fs::write(&second, games).unwrap();
    let text = |browser: &mut Browser, what: &str| {
        browser.eval(what).as_str().unwrap_or_default().to_string()
    };
    poll(
        "the cluster page gaining games",
        Duration::from_secs(20),
        || {
            let shown = text(&mut browser, "document.getElementById('cluster').innerText");
            shown.contains("6 of 6").then_some(())
        },
    );
    assert_eq!(browser.eval("window.kept"), json!("this page"));
    screenshot(&mut browser, "web-cluster");
    browser.open(&format!("{origin}/folder?path=t"));
    let shown = text(&mut browser, "document.body.innerText");
    assert!(
        shown.contains("3 of 6 iterations") && shown.contains("eval.corners"),
        "{shown}"
    );
    assert_eq!(browser.eval(refreshes), json!(0));
    browser.eval("window.kept = 'this page'");
    // The tune's traces grow on the page as trace.csv does.
    std::fs::write(tune.join("trace.csv"), trace).unwrap();
    poll(
        "the tune page drawing its traces again",
        Duration::from_secs(30),
        || {
            let shown = text(&mut browser, "document.getElementById('report').innerText");
            shown.contains("6 of 6 iterations").then_some(())
        },
    );
    assert_eq!(browser.eval("window.kept"), json!("this page"));
    screenshot(&mut browser, "web-tune");
    loaded_only_from(&browser, &origin);
}
