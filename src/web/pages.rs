//! The pages, rendered on the server so that they read with JavaScript off: the
//! index, a folder's page (its live section, then its report as `report.html` shows
//! it), one game in the step-through viewer, and play.

use super::folders::Listed;
use super::http::{encode, Reply};
use super::live::Snapshot;
use super::{script, State};
use crate::doc::elo_interval;
use crate::report::look::escape;
use crate::report::viewer;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

/// A folder's report is drawn again at most this often while its run writes.
const REDRAW: Duration = Duration::from_secs(5);

const STYLE: &str = "body{font-family:sans-serif;max-width:1200px;margin:1.5em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:0.6em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f0f0f0}\
.l{text-align:left}.muted{color:#666}.warning{color:#a00}nav.top{margin-bottom:1em}meter{width:22em;height:1.4em}\
#live{border:1px solid #cde;background:#f8fbff;padding:0.2em 1em;margin:1em 0}.new{animation:flash 1.5s}\
@keyframes flash{from{background:#fff3a0}to{background:transparent}}";

/// A page's head, then `<body>`; `refresh`: the seconds after which a page without
/// JavaScript loads itself again.
fn head(title: &str, extra_style: &str, refresh: Option<u32>) -> String {
    let refresh = refresh.map_or_else(String::new, |seconds| {
        format!("<meta http-equiv=\"refresh\" content=\"{seconds}\">")
    });
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">{refresh}<title>{}</title><style>{STYLE}{extra_style}</style></head><body>\n",
        escape(title)
    )
}

fn ago(time: Option<SystemTime>) -> String {
    let Some(seconds) = time
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .map(|d| d.as_secs())
    else {
        return "-".into();
    };
    match seconds {
        0..=59 => format!("{seconds} s ago"),
        60..=3599 => format!("{} min ago", seconds / 60),
        3600..=86_399 => format!("{} h ago", seconds / 3600),
        _ => format!("{} days ago", seconds / 86_400),
    }
}

/// A duration for people: `40 s`, `12 min`, `3 h 20 min`.
pub fn duration(seconds: f64) -> String {
    if !seconds.is_finite() {
        return "unknown".into();
    }
    let s = seconds.round() as u64;
    match s {
        0..=89 => format!("{s} s"),
        90..=5399 => format!("{} min", (s + 30) / 60),
        _ => format!("{} h {} min", s / 3600, (s % 3600) / 60),
    }
}

fn rate_text(rate: Option<f64>) -> String {
    rate.map_or("-".into(), |r| {
        if r >= 10.0 {
            format!("{r:.0}")
        } else {
            format!("{r:.2}")
        }
    })
}

fn games_text(s: &Snapshot) -> String {
    match s.total {
        Some(total) if total > 0 => format!("{} of {total}", s.games),
        _ => s.games.to_string(),
    }
}

/// The index: every results folder, newest first.
pub fn index(state: &State, listed: &[Listed]) -> String {
    // Without JavaScript the index refreshes itself; nothing is lost by it.
    let mut out = head("reversi-lab: results", "", Some(10));
    write!(
        out,
        "<h1>Results in {}</h1>\n<p><a href=\"/play\">Play a game</a> · {} results folders, newest first (the page refreshes every 10 s)</p>\n",
        escape(&state.root_name()),
        listed.len()
    )
    .ok();
    out.push_str("<table id=\"folders\">");
    folder_rows(&mut out, listed);
    out.push_str("</table>\n</body></html>\n");
    out
}

/// The rows of folders: each a link to its page, with kind, status, games, rate and
/// last change.
fn folder_rows(out: &mut String, listed: &[Listed]) {
    out.push_str("<tr><th class=\"l\">folder</th><th class=\"l\">kind</th><th class=\"l\">status</th><th>games</th><th>games/s</th><th class=\"l\">last change</th></tr>\n");
    for item in listed {
        let s = &item.snapshot;
        writeln!(
            out,
            "<tr><td class=\"l\"><a href=\"/folder?path={}\">{}</a></td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td class=\"l\">{}</td></tr>",
            encode(&item.rel),
            escape(if item.rel.is_empty() { "." } else { &item.rel }),
            escape(&s.kind),
            escape(&s.status),
            games_text(s),
            rate_text(s.rate),
            ago(s.modified)
        )
        .ok();
    }
}

/// The shards of a cluster run, each read from its own folder on the shared file
/// system, and their sum; the live stream sends the section again as shards change.
pub fn cluster(state: &State, rel: &str, shards: &[Listed]) -> String {
    let snapshots: Vec<_> = shards.iter().map(|l| Arc::clone(&l.snapshot)).collect();
    let sum = super::folders::combined(
        &snapshots,
        super::folders::missing_shards(&state.root.join(rel)),
    );
    let shown = if rel.is_empty() { "." } else { rel };
    let mut out = head(&format!("{shown} ({})", sum.kind), "", None);
    write!(
        out,
        "<nav class=\"top\"><a href=\"/\">all results</a> · <a href=\"/play\">play</a></nav>\n<h1>{} <span class=\"muted\">({})</span></h1>\n<section id=\"live\" data-path=\"{}\">{}</section>\n<p class=\"muted\">The shards above follow their folders while the page is open (with JavaScript; without it, reload the page).</p>\n<script>{}</script>\n</body></html>\n",
        escape(shown),
        escape(&sum.kind),
        escape(&encode(rel)),
        cluster_section(state, rel, shards),
        script::LIVE
    )
    .ok();
    out
}

/// The part of a cluster run's page that follows its shards: their sum, each
/// shard's state, and what merges them once all have ended.
pub fn cluster_section(state: &State, rel: &str, shards: &[Listed]) -> String {
    let snapshots: Vec<_> = shards.iter().map(|l| Arc::clone(&l.snapshot)).collect();
    let sum = super::folders::combined(
        &snapshots,
        super::folders::missing_shards(&state.root.join(rel)),
    );
    let mut out = String::new();
    writeln!(
        out,
        "<div id=\"live-body\" data-games=\"{}\"><p id=\"cluster\"><strong class=\"status\">{}</strong> · <span class=\"games\">{}</span> games · {} games/s</p>",
        sum.games,
        escape(&sum.status),
        games_text(&sum),
        rate_text(sum.rate),
    )
    .ok();
    out.push_str("<h3>Shards</h3><table id=\"shards\">");
    folder_rows(&mut out, shards);
    out.push_str("</table>\n");
    if !matches!(sum.status.as_str(), "running") && !shards.is_empty() {
        // A study's shards merge through the study's own command (its run.toml says which).
        let study = shards.first().and_then(|l| {
            let dir = state.root.join(&l.rel);
            let record = crate::lab::ResultsFolder::at(&dir).record_if_any().ok()??;
            record.run.study
        });
        let whole = state.typed(rel);
        let merges = crate::lab::shard::merges(study, Some(&whole));
        let missing = crate::lab::shard::Unmerged::find(&state.root.join(rel))
            .and_then(|u| u.missing_hint(Some(&whole)));
        if let Some((which, them, command)) = missing {
            writeln!(
                out,
                "<p class=\"missing\">{}{} missing: play {them} with <code>{}</code>.</p>",
                which[..1].to_uppercase(),
                escape(&which[1..]),
                escape(&command)
            )
            .ok();
        }
        writeln!(
            out,
            "<p class=\"muted\">Once every shard has ended, <code>{}</code> makes the run's one folder and its report.</p>",
            escape(&merges)
        )
        .ok();
    }
    out.push_str("</div>");
    out
}

/// The part of a folder's page that follows the run: status, SPRT, standings,
/// pairs and the newest games. The stream sends it again whenever it changes.
pub fn live_section(s: &Snapshot, rel: &str) -> String {
    let mut out = String::new();
    write!(
        out,
        "<div id=\"live-body\" data-games=\"{}\"><p><strong class=\"status\">{}</strong> · {} · <span class=\"games\">{}</span> games · {} games/s</p>",
        s.games,
        escape(&s.status),
        escape(&s.kind),
        games_text(s),
        rate_text(s.rate)
    )
    .ok();
    if let Some(problem) = &s.problem {
        write!(out, "<p class=\"warning\">{}</p>", escape(problem)).ok();
    }
    if let Some(v) = &s.sprt {
        write!(
            out,
            "<h3>SPRT: elo0 {} against elo1 {}</h3><p>LLR <strong class=\"llr\">{:.3}</strong> between bounds {:.3} and {:.3}: <meter class=\"llr-gauge\" min=\"{:.4}\" max=\"{:.4}\" value=\"{:.4}\"></meter> {}</p>",
            v.elo0, v.elo1, v.llr, v.lower, v.upper, v.lower, v.upper, v.llr, escape(&v.result)
        )
        .ok();
        out.push_str("<table class=\"penta\"><tr><th class=\"l\">game pairs scoring</th><th>0</th><th>0.5</th><th>1</th><th>1.5</th><th>2</th></tr><tr><td class=\"l\">count</td>");
        for c in v.penta {
            write!(out, "<td>{c}</td>").ok();
        }
        out.push_str("</tr></table>");
        let fixed = v.elo.map_or("-".into(), |(e, l, h)| {
            elo_interval(Some(e), Some(l), Some(h))
        });
        write!(
            out,
            "<p>Elo (fixed-sample, 95%): <span class=\"elo\">{fixed}</span>"
        )
        .ok();
        if let Some((e, l, h)) = v.stopped_elo {
            write!(
                out,
                " · after the stop, median-unbiased: {}",
                elo_interval(Some(e), Some(l), Some(h))
            )
            .ok();
        }
        out.push_str("</p>");
        match (v.pairs_left, v.seconds_left, v.seconds_range) {
            (Some(p), Some(secs), Some((low, high))) => {
                let wald = v.wald_pairs.map_or(String::new(), |w| format!("; Wald's expectation at the current Elo, as <code>sprt-plan</code> works it out: {w:.0} pairs"));
                write!(out, "<p>Time left: about <strong class=\"time-left\">{}</strong>, and for 8 tests in 10 like this one between <span class=\"time-range\">{} and {}</span> ({:.0} game pairs, {:.0} to {:.0}: the SPRT's walk continued from where it stands, at Elos drawn from the interval{wald})</p>", duration(secs), duration(low), duration(high), p.median, p.low, p.high).ok()
            }
            (Some(p), _, _) => write!(out, "<p>About {:.0} game pairs to the end ({:.0} to {:.0} for 8 tests in 10; no time left while the run is not writing)</p>", p.median, p.low, p.high).ok(),
            _ => None,
        };
    }
    if !s.standings.is_empty() {
        out.push_str("<h3>Standings</h3><table class=\"standings\"><tr><th>rank</th><th class=\"l\">player</th><th>games</th><th>wins</th><th>draws</th><th>losses</th><th>score</th><th>rating</th></tr>");
        for r in &s.standings {
            let score = r.score.map_or("-".into(), |x| format!("{:.1}%", 100.0 * x));
            let rating = elo_interval(r.rating, r.rating_low, r.rating_high);
            write!(
                out,
                "<tr><td>{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{score}</td><td>{rating}</td></tr>",
                r.rank, escape(&r.player), r.games, r.wins, r.draws, r.losses
            )
            .ok();
        }
        out.push_str("</table>");
    }
    if s.pairs.len() > 1 || (s.sprt.is_none() && !s.pairs.is_empty()) {
        out.push_str("<h3>Pairs</h3><table class=\"pairs\"><tr><th class=\"l\">A</th><th class=\"l\">B</th><th>games</th><th>A wins</th><th>draws</th><th>B wins</th><th>Elo of A</th></tr>");
        for p in s.pairs.iter().take(200) {
            write!(
                out,
                "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&p.player_a), escape(&p.player_b), p.games, p.wins, p.draws, p.losses, elo_interval(p.elo, p.elo_low, p.elo_high)
            )
            .ok();
        }
        out.push_str("</table>");
    }
    if !s.newest.is_empty() {
        out.push_str("<h3>Newest games</h3><ul class=\"newest\">");
        for g in &s.newest {
            write!(
                out,
                "<li><a href=\"/game?path={}&amp;id={}\">game {}</a>: {} (black) against {} (white), {} {}-{}</li>",
                encode(rel), g.id, g.id, escape(&g.black), escape(&g.white), escape(&g.result), g.black_discs, g.white_discs
            )
            .ok();
        }
        out.push_str("</ul>");
    }
    out.push_str("</div>");
    out
}

/// A folder's rendered report, kept while its files stay as they were. While one
/// request draws it again, the others are served the one drawn before: a redraw
/// reads the whole `games.csv` and draws every chart, and no page should wait on it.
#[derive(Default)]
pub struct Cached {
    shown: Mutex<Shown>,
    drawing: Mutex<()>,
}

/// The report as last drawn, and the files' stamps it was drawn from.
#[derive(Default)]
struct Shown {
    stamp: Vec<Option<(SystemTime, u64)>>,
    at: Option<Instant>,
    style: Arc<String>,
    body: Arc<String>,
}

fn between<'a>(text: &'a str, from: &str, to: &str) -> Option<&'a str> {
    let start = text.find(from)? + from.len();
    let end = text[start..].find(to)? + start;
    Some(&text[start..end])
}

fn locked<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The report's style and body: drawn in memory for a run's folder (a running
/// tune's: its traces), else the folder's own `report.html` when it has one.
pub(super) fn report(state: &State, dir: &Path, live_status: &str) -> (Arc<String>, Arc<String>) {
    let cache = {
        let mut reports = locked(&state.reports);
        if reports.len() > 256 {
            reports.clear();
        }
        Arc::clone(reports.entry(dir.to_path_buf()).or_default())
    };
    let folder = crate::lab::ResultsFolder::at(dir);
    let stamp: Vec<_> = [
        crate::lab::FolderFile::RunRecord,
        crate::lab::FolderFile::Games,
        crate::lab::FolderFile::CompressedGames,
        crate::lab::FolderFile::Pairs,
        crate::lab::FolderFile::Trace,
    ]
    .map(|file| folder.path(file))
    .into_iter()
    .chain([crate::report::page(dir)])
    .map(|path| {
        std::fs::metadata(path)
            .ok()
            .and_then(|m| Some((m.modified().ok()?, m.len())))
    })
    .collect();
    let fresh = |shown: &Shown| {
        shown
            .at
            .is_some_and(|at| stamp == shown.stamp || at.elapsed() < REDRAW)
    };
    let drawing = {
        let shown = locked(&cache.shown);
        if fresh(&shown) {
            return (Arc::clone(&shown.style), Arc::clone(&shown.body));
        }
        match cache.drawing.try_lock() {
            Ok(drawing) => drawing,
            // Another request draws it: the one drawn before serves meanwhile.
            Err(_) if shown.at.is_some() => {
                return (Arc::clone(&shown.style), Arc::clone(&shown.body));
            }
            Err(_) => {
                drop(shown);
                let drawing = locked(&cache.drawing);
                let shown = locked(&cache.shown);
                if fresh(&shown) {
                    return (Arc::clone(&shown.style), Arc::clone(&shown.body));
                }
                drawing
            }
        }
    };
    let (style, body) = draw(state, dir, live_status);
    let mut shown = locked(&cache.shown);
    *shown = Shown {
        stamp,
        at: Some(Instant::now()),
        style: Arc::new(style),
        body: Arc::new(body),
    };
    drop(drawing);
    (Arc::clone(&shown.style), Arc::clone(&shown.body))
}

/// Draws a folder's report: its style and body.
fn draw(state: &State, dir: &Path, live_status: &str) -> (String, String) {
    let charts = state.scratch.path().join(format!("{:x}", fxhash(dir)));
    // A tune draws its traces as they grow until it has written its own report.
    let tune = crate::studies::tune::report::is_tune_folder(dir);
    let finished_tune = tune && live_status != "running" && crate::report::page(dir).is_file();
    let drawn = state.shown(|| {
        if tune && !finished_tune {
            crate::report::tune_traces_page(dir, &charts).map(Some)
        } else {
            crate::report::html_page(dir, &charts)
        }
        .map_err(|e| e.to_string())
    });
    let html = match drawn {
        Ok(Some(html)) => Ok(html),
        Ok(None) => {
            let own = dir.join("report.html");
            match own.canonicalize() {
                Ok(real) if real.starts_with(&state.root) => {
                    std::fs::read_to_string(real).map_err(|e| e.to_string())
                }
                _ => Err(format!(
                    "no report yet: `reversi-lab report {}` writes one",
                    state
                        .typed(&super::paths::relative(&state.root, dir))
                        .display()
                )),
            }
        }
        Err(e) => Err(e),
    };
    let (style, body) = match &html {
        Ok(html) => (
            between(html, "<style>", "</style>")
                .unwrap_or_default()
                .to_string(),
            between(html, "<body>", "</body>")
                .unwrap_or_default()
                .to_string(),
        ),
        Err(e) => (
            String::new(),
            format!(
                "<p class=\"muted\">The report cannot be shown yet: {}</p>",
                escape(e)
            ),
        ),
    };
    (style, body)
}

fn fxhash(path: &Path) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    path.hash(&mut h);
    h.finish()
}

/// A folder's page: the live section (updated by the stream when JavaScript runs),
/// then the report.
pub fn folder(state: &State, dir: &Path, rel: &str) -> Result<Reply, Reply> {
    let snapshot = super::tail_of(state, dir)?;
    let (style, body) = report(state, dir, &snapshot.status);
    let shown = if rel.is_empty() { "." } else { rel };
    let mut out = head(&format!("{shown} ({})", snapshot.kind), &style, None);
    let note = if snapshot.kind == "tune" {
        // A tune writes no games: the stream sends its traces as they grow.
        "The tune's parameters and traces below are drawn as they stand and follow trace.csv while the page is open (with JavaScript; without it, reload the page)."
    } else {
        "The section above follows the run; the report's charts below are drawn again every 30 s while it runs, its tables are as of the page's loading."
    };
    let shards = super::folders::shards_of(state, dir);
    let mut shard_table = String::new();
    if !shards.is_empty() {
        shard_table.push_str("<h3>Shards</h3><table id=\"shards\">");
        folder_rows(&mut shard_table, &shards);
        shard_table.push_str("</table>\n");
    }
    write!(
        out,
        "<nav class=\"top\"><a href=\"/\">all results</a> · <a href=\"/play\">play</a></nav>\n<h1>{} <span class=\"muted\">({})</span></h1>\n<section id=\"live\" data-path=\"{}\">{}</section>\n{shard_table}<p class=\"muted\" id=\"live-note\">{note}</p>\n<div id=\"report\">{}</div>\n<script>{}</script>\n",
        escape(shown),
        escape(&snapshot.kind),
        escape(&encode(rel)),
        live_section(&snapshot, rel),
        body,
        script::LIVE
    )
    .ok();
    out.push_str("</body></html>\n");
    Ok(Reply::html(out))
}

/// A report's charts as JSON, each chart's name to its SVG (the report draws each as
/// `<h3 id="chart-NAME">` then `<div>SVG</div>`), for the stream to replace them.
pub fn charts_json(body: &str) -> String {
    let mut charts = serde_json::Map::new();
    let mut rest = body;
    while let Some(at) = rest.find("<h3 id=\"chart-") {
        rest = &rest[at + "<h3 id=\"chart-".len()..];
        let Some(name_end) = rest.find('"') else {
            break;
        };
        let name = &rest[..name_end];
        let Some(svg) = rest
            .find("<div>")
            .map(|start| &rest[start + "<div>".len()..])
            .and_then(|from| from.find("</div>").map(|end| &from[..end]))
        else {
            break;
        };
        charts.insert(name.to_string(), svg.into());
    }
    serde_json::Value::Object(charts).to_string()
}

/// One game of a folder in the step-through viewer.
pub fn game(state: &State, dir: &Path, id: u64) -> Result<Reply, Reply> {
    let tail = super::tail_of(state, dir)?;
    let games = tail.games;
    // A run that is still writing may add the game; one that is not will not.
    let writing = tail.status == "running";
    // A game's row never changes once complete: its page is kept while the games
    // file is the same file (a resume or a merge replaces it).
    let file = crate::lab::ResultsFolder::at(dir)
        .games()
        .and_then(|(path, _)| std::fs::metadata(path).ok())
        .and_then(|meta| super::live::identity(&meta));
    let key = (dir.to_path_buf(), id);
    if let Some((kept, page)) = locked(&state.games).get(&key) {
        if file.is_some() && *kept == file {
            return Ok(Reply::html(page.to_string()));
        }
    }
    let found = state
        .shown(|| crate::lab::recorded::load_game(dir, id))
        .map_err(|e| {
            let line = state.shown(|| e.to_string());
            if id >= games && writing {
                Reply::error(
                    404,
                    &format!("game {id} is not in games.csv yet ({games} complete rows so far)"),
                )
            } else if id >= games {
                let numbered = match games {
                    0 => "it holds no games".to_string(),
                    n => format!("its games are numbered 0 to {}", n - 1),
                };
                Reply::error(404, &format!("game {id} is not in games.csv: {numbered}"))
            } else {
                Reply::error(404, &line)
            }
        })?;
    let replay = crate::doc::replay::Replay::new(found.size, found.rules, &found.moves)
        .map_err(|e| Reply::error(422, &e.to_string()))?;
    let rel = super::paths::relative(&state.root, dir);
    let back = format!(
        "<nav><a href=\"/folder?path={}\">back to {}</a></nav>\n",
        encode(&rel),
        escape(if rel.is_empty() { "." } else { &rel })
    );
    let page = Arc::new(viewer::page(&replay, &found.title, &back));
    let mut kept = locked(&state.games);
    if kept.len() >= 1024 {
        kept.clear();
    }
    kept.insert(key, (file, Arc::clone(&page)));
    Ok(Reply::html(page.to_string()))
}

/// Play: a form for the game, the board the script draws, and the transcript.
pub fn play(state: &State) -> String {
    let book = state.play.book();
    let mut out = head("reversi-lab: play", script::PLAY_STYLE, None);
    out.push_str("<nav class=\"top\"><a href=\"/\">all results</a></nav>\n<h1>Play</h1>\n<noscript><p class=\"warning\">Play needs JavaScript; the results pages work without it.</p></noscript>\n<form id=\"setup\"><label>against <input name=\"vs\" size=\"40\" placeholder=\"a strategy spec, or human (empty: the level)\"></label> <label>level <select name=\"level\">");
    for level in book.levels {
        let selected = if *level == "medium" { " selected" } else { "" };
        write!(out, "<option{selected}>{level}</option>").ok();
    }
    out.push_str("</select></label> <label>size <select name=\"size\"><option>4</option><option>6</option><option selected>8</option><option>10</option></select></label> <label>you play <select name=\"colour\"><option>black</option><option>white</option><option>random</option></select></label> <label>seed <input name=\"seed\" value=\"1\" size=\"6\"></label> <label><input type=\"checkbox\" name=\"anti\" value=\"1\"> anti rules</label> <label><input type=\"checkbox\" name=\"scoring\" value=\"count\"> empties not counted</label> <button type=\"submit\" id=\"new\">new game</button></form>\n<p id=\"message\" class=\"warning\"></p>\n<div id=\"board\"></div>\n<p id=\"status\"></p>\n<p><button id=\"hints\" type=\"button\">hints</button> <button id=\"eval\" type=\"button\">eval</button> <button id=\"undo\" type=\"button\">undo</button> <button id=\"again\" type=\"button\">play again</button></p>\n<p id=\"values\" style=\"white-space: pre-line\"></p>\n<p>Transcript: <input id=\"transcript\" readonly size=\"70\"></p>\n");
    write!(out, "<script>{}</script>\n</body></html>\n", script::PLAY).ok();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(duration(40.2), "40 s");
        assert_eq!(duration(12.0 * 60.0), "12 min");
        assert_eq!(duration(3.0 * 3600.0 + 20.0 * 60.0), "3 h 20 min");
        assert_eq!(duration(f64::INFINITY), "unknown");
    }

    #[test]
    fn the_live_section_names_games_and_escapes_names() {
        let snapshot = Snapshot {
            games: 3,
            total: Some(10),
            status: "running".into(),
            kind: "round-robin".into(),
            newest: vec![super::super::live::Newest {
                id: 2,
                black: "<b>".into(),
                white: "w".into(),
                result: "black".into(),
                black_discs: 40,
                white_discs: 24,
            }],
            ..Snapshot::default()
        };
        let html = live_section(&snapshot, "a b");
        assert!(html.contains("data-games=\"3\"") && html.contains("3 of 10"));
        assert!(html.contains("&lt;b&gt;") && !html.contains("<b>"));
        assert!(html.contains("/game?path=a%20b&amp;id=2"));
    }

    #[test]
    fn a_reports_charts_are_found_by_name_for_the_stream() {
        let body = "<p>x</p><h3 id=\"chart-elo\">Elo</h3>\n<div><svg a=\"1\"></svg></div>\n\
                    <table></table><h3 id=\"chart-score\">Score</h3>\n<div><svg b=\"2\"></svg></div>\n";
        let charts: serde_json::Value = serde_json::from_str(&charts_json(body)).unwrap();
        assert_eq!(charts["elo"], "<svg a=\"1\"></svg>");
        assert_eq!(charts["score"], "<svg b=\"2\"></svg>");
        assert_eq!(charts.as_object().unwrap().len(), 2);
        assert_eq!(charts_json("<p>no charts</p>"), "{}");
    }
}
