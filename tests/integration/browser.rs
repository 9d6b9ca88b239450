//! The report's game viewer in a real browser: headless Chromium, driven over the
//! DevTools protocol on a pipe (`--remote-debugging-pipe`), clicks and types through
//! a notable game and checks the counts shown against games.csv, several viewers
//! staying independent, and that the page loaded nothing but itself. Skipped with a
//! message when Chromium is missing, except in CI (`CI` set), where that fails.

use crate::common::{reversi_lab, Dir};
use reversi_lab::lab::GameRow;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any one browser step may take before the test fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(60);

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|p| p.is_file())
}

/// A headless Chromium and one page of it, spoken to over the DevTools protocol.
struct Browser {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    events: Vec<Value>,
    next_id: u64,
    session: Option<String>,
    _profile: Dir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    fn launch(binary: &Path) -> Browser {
        let profile = Dir::new();
        // The protocol pipe is the child's descriptors 3 (commands) and 4 (replies):
        // bash moves our stdin and stdout there before it becomes Chromium.
        let mut child = std::process::Command::new("bash")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 </dev/null >/dev/null"#)
            .arg(binary)
            .args([
                "--headless",
                "--disable-gpu",
                "--no-sandbox",
                "--no-first-run",
                "--hide-scrollbars",
                "--window-size=1200,900",
                // Anything that tries the network meets a closed port.
                "--proxy-server=127.0.0.1:9",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromium");
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        let (send, messages) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            let mut message = Vec::new();
            while reader.read_until(0, &mut message).unwrap_or(0) > 0 {
                if message.last() == Some(&0) {
                    message.pop();
                }
                if let Ok(value) = serde_json::from_slice::<Value>(&message) {
                    if send.send(value).is_err() {
                        break;
                    }
                }
                message.clear();
            }
        });
        Browser {
            child,
            input,
            messages,
            events: Vec::new(),
            next_id: 0,
            session: None,
            _profile: profile,
        }
    }

    fn receive(&mut self, deadline: Instant, what: &str) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("chromium did not answer {what} in time"),
            Err(RecvTimeoutError::Disconnected) => panic!("chromium quit while waiting for {what}"),
        }
    }

    /// Sends a command (to the page once attached) and returns its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut command = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = &self.session {
            command["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&command).unwrap();
        bytes.push(0);
        self.input.write_all(&bytes).unwrap();
        self.input.flush().unwrap();
        let deadline = Instant::now() + PATIENCE;
        loop {
            let message = self.receive(deadline, method);
            if message["id"] == json!(id) {
                assert!(message.get("error").is_none(), "{method}: {message}");
                return message["result"].clone();
            }
            self.events.push(message);
        }
    }

    /// Waits for an event of the page.
    fn wait_for(&mut self, method: &str) {
        let deadline = Instant::now() + PATIENCE;
        while !self.events.iter().any(|e| e["method"] == json!(method)) {
            let message = self.receive(deadline, method);
            self.events.push(message);
        }
    }

    /// Opens `url` in a new page, recording its network requests from the start.
    fn open(&mut self, url: &str) {
        let target = self.call("Target.createTarget", json!({ "url": "about:blank" }));
        let attached = self.call(
            "Target.attachToTarget",
            json!({ "targetId": target["targetId"], "flatten": true }),
        );
        self.session = Some(attached["sessionId"].as_str().unwrap().to_string());
        self.call("Network.enable", json!({}));
        self.call("Page.enable", json!({}));
        // A page of a headless browser never has the focus unless told to pretend.
        self.call(
            "Emulation.setFocusEmulationEnabled",
            json!({ "enabled": true }),
        );
        self.events.clear();
        self.call("Page.navigate", json!({ "url": url }));
        self.wait_for("Page.loadEventFired");
    }

    /// The value of a JavaScript expression.
    fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true }),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// Clicks the middle of the element `selector` with the mouse, as a person would.
    fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); e.scrollIntoView({{block: 'center'}}); \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": at[0], "y": at[1], "button": "left", "clickCount": 1 }),
            );
        }
    }

    /// Presses a key (`ArrowRight`, `End`...) on whatever has the focus.
    fn press(&mut self, key: &str, code: u32) {
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code }),
            );
        }
    }
}

/// A viewer's state: (ply shown, black count, white count).
fn shown(browser: &mut Browser, id: &str) -> (u64, u64, u64) {
    let v = browser.eval(&format!(
        "(() => {{ const v = document.getElementById({id:?}); const c = v.querySelector('.rv-counts'); \
         return [Number(v.dataset.ply), Number(c.dataset.black), Number(c.dataset.white)]; }})()"
    ));
    let n = |k: usize| v[k].as_u64().unwrap();
    (n(0), n(1), n(2))
}

#[test]
fn the_report_viewer_steps_through_a_game_in_chromium() {
    let Some(binary) = chromium() else {
        crate::common::missing("chromium is not installed (apt-get install chromium)");
        return;
    };
    // A small field on a 6x6 board under anti rules: several pairs, several viewers.
    let dir = Dir::new();
    let config = dir.path().join("small.toml");
    std::fs::write(
        &config,
        "name = \"browser\"\nsize = 6\ngames_per_pair = 4\n[rules]\nanti = true\n\
         [[players]]\nname = \"random\"\nstrategy = \"random\"\n\
         [[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n\
         [[players]]\nname = \"corners\"\nstrategy = \"corner-first\"\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    reversi_lab()
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .arg(&config)
        .assert()
        .success();
    let games: Vec<GameRow> = csv::Reader::from_path(out.join("games.csv"))
        .unwrap()
        .deserialize()
        .map(Result::unwrap)
        .collect();

    let mut browser = Browser::launch(&binary);
    let page = out.join("report.html");
    let url = format!("file://{}", page.display());
    browser.open(&url);

    // Nothing but the page itself was asked for.
    let requests: Vec<String> = browser
        .events
        .iter()
        .filter(|e| e["method"] == json!("Network.requestWillBeSent"))
        .map(|e| e["params"]["request"]["url"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(requests, [url.as_str()], "the page loads nothing else");
    assert_eq!(
        browser.eval("performance.getEntriesByType('resource').length"),
        json!(0)
    );

    let viewers = browser.eval(
        "Array.from(document.querySelectorAll('.rv')).map(v => [v.id, Number(v.dataset.game)])",
    );
    let viewers = viewers.as_array().unwrap();
    assert!(viewers.len() >= 3, "a viewer per notable game: {viewers:?}");
    let id = viewers[0][0].as_str().unwrap().to_string();
    let other = viewers[1][0].as_str().unwrap().to_string();
    let game = &games[viewers[0][1].as_u64().unwrap() as usize];
    let plies = u64::from(game.plies);
    let other_before = shown(&mut browser, &other);

    // A report's viewer opens at the end of its game.
    assert_eq!(
        shown(&mut browser, &id),
        (
            plies,
            u64::from(game.black_discs),
            u64::from(game.white_discs)
        )
    );
    browser.click(&format!("#{id} [data-step=first]"));
    assert_eq!(shown(&mut browser, &id), (0, 2, 2), "the start position");
    for ply in 1..=plies {
        browser.click(&format!("#{id} [data-step=next]"));
        assert_eq!(shown(&mut browser, &id).0, ply);
    }
    let (_, black, white) = shown(&mut browser, &id);
    assert_eq!(
        (black, white),
        (u64::from(game.black_discs), u64::from(game.white_discs)),
        "the counts after the last move are games.csv's for game {}",
        game.game_id
    );
    let result = browser.eval(&format!(
        "document.querySelector('#{id} .rv-result').hidden"
    ));
    assert_eq!(result, json!(false), "the result shows at the end");

    // The keys move the viewer that has the focus (the button just clicked is in it).
    browser.press("ArrowLeft", 37);
    assert_eq!(shown(&mut browser, &id).0, plies - 1);
    browser.press("Home", 36);
    assert_eq!(shown(&mut browser, &id).0, 0);
    browser.press("ArrowRight", 39);
    browser.press("ArrowRight", 39);
    assert_eq!(shown(&mut browser, &id).0, 2);
    browser.press("End", 35);
    assert_eq!(shown(&mut browser, &id).0, plies);
    assert_eq!(
        shown(&mut browser, &other),
        other_before,
        "another viewer on the page did not move"
    );
}
