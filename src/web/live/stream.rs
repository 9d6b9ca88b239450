//! What a folder's state is sent as: `/live.json`, and the server-sent events
//! that carry each change to a page.

use super::super::http::Reply;
use super::Snapshot;
use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The snapshot as JSON (`/live.json`).
pub fn json(s: &Snapshot) -> String {
    use serde_json::json;
    let standings: Vec<_> = s
        .standings
        .iter()
        .map(|r| json!({ "player": r.player, "games": r.games, "wins": r.wins, "draws": r.draws, "losses": r.losses, "score": r.score, "rating": r.rating }))
        .collect();
    let sprt = s.sprt.as_ref().map(|v| {
        json!({ "llr": v.llr, "lower": v.lower, "upper": v.upper, "penta": v.penta, "elo": v.elo, "stopped_elo": v.stopped_elo, "result": v.result, "pairs_left": v.pairs_left.map(|p| [p.low, p.median, p.high]), "wald_pairs": v.wald_pairs, "seconds_left": v.seconds_left, "seconds_range": v.seconds_range })
    });
    let newest: Vec<_> = s
        .newest
        .iter()
        .map(|g| json!({ "id": g.id, "black": g.black, "white": g.white, "result": g.result }))
        .collect();
    json!({ "kind": s.kind, "status": s.status, "games": s.games, "total": s.total, "rate": s.rate, "standings": standings, "sprt": sprt, "newest": newest, "problem": s.problem })
        .to_string()
}

/// Server-sent events for one page: each look (at once, then every 0.4 s) gives the
/// events to send, as `(name, data)` (none when nothing changed; a folder's page
/// gets its live section as `live`, a tune's its traces as `report`), a comment
/// every 15 s, and `gone` when the folder is deleted. The body is chunked and ends
/// with its last chunk after `gone`, then the connection closes. The stream ends as
/// soon as the client has left (its connection is looked at before each look), and
/// a client that reads nothing blocks only this thread, for at most the write
/// timeout.
pub fn stream(
    out: &TcpStream,
    mut look: impl FnMut() -> Result<Vec<(&'static str, String)>, Reply>,
) {
    let head = format!("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n{}\r\n", super::super::http::SAFE_HEADERS);
    let mut writer = out;
    if writer.write_all(head.as_bytes()).is_err() {
        return;
    }
    let send = move |text: &str| -> std::io::Result<()> {
        let mut writer = out;
        writer.write_all(format!("{:x}\r\n{text}\r\n", text.len()).as_bytes())
    };
    if send("retry: 1000\n\n").is_err() {
        return;
    }
    let mut quiet = Instant::now();
    loop {
        if super::super::gone::left(out) {
            return;
        }
        let sent = match look() {
            Ok(events) if !events.is_empty() => {
                let text: String = events
                    .iter()
                    .map(|(name, data)| event(name, data))
                    .collect();
                Some(send(&text))
            }
            Ok(_) if quiet.elapsed() > Duration::from_secs(15) => Some(send(": still here\n\n")),
            Ok(_) => None,
            Err(Reply { body, .. }) => {
                let line = String::from_utf8_lossy(&body).trim().to_string();
                if send(&event("gone", &line)).is_ok() {
                    let _ = send("");
                }
                return;
            }
        };
        if let Some(sent) = sent {
            if sent.is_err() {
                return;
            }
            quiet = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(400));
    }
}

/// One event: its name and its data, a `data:` line for each of its lines (the
/// browser joins them again with line breaks).
fn event(name: &str, data: &str) -> String {
    let mut out = format!("event: {name}\n");
    for line in data.split('\n') {
        out.push_str("data: ");
        out.push_str(line.trim_end_matches('\r'));
        out.push('\n');
    }
    out.push('\n');
    out
}
