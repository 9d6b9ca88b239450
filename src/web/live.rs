//! A results folder followed as it grows: `games.csv` read from where the last look
//! stopped (only complete lines; a half-written last line waits for its end), the
//! tallies the run keeps counted game by game, the SPRT's standing with a time left,
//! and the stream of server-sent events that carries each change to the page.
//! The folder's files and its record are read through `lab::ResultsFolder`.

use super::http::Reply;
use super::State;
use crate::lab::games_file::{self, Compression};
use crate::lab::rows::{PairRow, RunToml, StandingRow};
use crate::lab::tally::Tallies;
use crate::lab::{Experiment, FolderFile, GameRow, ResultsFolder, Schedule};
use crate::stats::{expected_pairs_left, ELO_RANGE};
use std::collections::VecDeque;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// At most this much of `games.csv` is read per look, so that a first look at a
/// large file answers soon and the rest follows on the next looks.
const CHUNK: u64 = 16 << 20;

/// The newest games kept for the page.
const NEWEST: usize = 12;

/// How long the rate is measured over.
const RATE_WINDOW: Duration = Duration::from_secs(10);

/// A folder's state as the page shows it.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    /// Grows by one with every change, so a stream sends only changes.
    pub version: u64,
    /// What kind of folder (run, sprt, shard 1/4, tune, ...).
    pub kind: String,
    /// `running`, `complete`, `interrupted`, `sprt-accepted-h1`, ...
    pub status: String,
    /// Complete rows read from `games.csv`.
    pub games: u64,
    /// Games the run has in all (None when unknown).
    pub total: Option<u64>,
    /// Games per second: measured while the run writes, else as the run recorded.
    pub rate: Option<f64>,
    pub pairs: Vec<PairRow>,
    pub standings: Vec<StandingRow>,
    pub sprt: Option<SprtView>,
    pub newest: Vec<Newest>,
    /// Something wrong with the files, in one line (a row that cannot be read).
    pub problem: Option<String>,
    /// When anything last changed (newest first in the index).
    pub modified: Option<SystemTime>,
}

/// One of the newest games.
#[derive(Clone, Debug)]
pub struct Newest {
    pub id: u64,
    pub black: String,
    pub white: String,
    pub result: String,
    pub black_discs: u32,
    pub white_discs: u32,
}

/// The SPRT as it stands.
#[derive(Clone, Debug)]
pub struct SprtView {
    pub llr: f64,
    /// The bounds in force (corrected for overshoot, when the test is).
    pub lower: f64,
    pub upper: f64,
    pub elo0: f64,
    pub elo1: f64,
    pub penta: [u64; 5],
    /// The fixed-sample Elo with its 95% interval.
    pub elo: Option<(f64, f64, f64)>,
    /// After the stop: the median-unbiased Elo with its corrected interval.
    pub stopped_elo: Option<(f64, f64, f64)>,
    /// `H1`, `H0` or `continue`.
    pub result: String,
    /// Game pairs still expected at the current estimate (`sprt-plan`'s arithmetic).
    pub pairs_left: Option<f64>,
    /// That at the measured rate, capped by the games the run has left.
    pub seconds_left: Option<f64>,
    /// The least and most seconds left over the Elo's 95% interval: one test's length
    /// varies widely, and this range says how much the estimate alone moves it.
    pub seconds_range: Option<(f64, f64)>,
}

/// A folder followed incrementally.
pub struct Tail {
    dir: PathBuf,
    run_stamp: Option<(SystemTime, u64)>,
    record: Option<RunToml>,
    experiment: Option<(Experiment, Schedule)>,
    kind: String,
    /// Where the next read starts, and the file it is in (replaced by a resume or a
    /// merge: then it is read again from the start).
    offset: u64,
    identity: Option<(u64, u64)>,
    compressed_len: Option<u64>,
    header: Vec<u8>,
    partial: Vec<u8>,
    tallies: Option<Tallies>,
    games: u64,
    newest: VecDeque<Newest>,
    samples: VecDeque<(Instant, u64)>,
    problem: Option<String>,
    modified: Option<SystemTime>,
    snapshot: Arc<Snapshot>,
    dirty: bool,
}

fn stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// The kind of a results folder, from its files.
pub fn kind_of(dir: &Path, record: Option<&RunToml>) -> String {
    if crate::studies::tune::report::is_tune_folder(dir) {
        return "tune".into();
    }
    let Some(record) = record else {
        return if dir.join("compare.csv").is_file() {
            "compare".into()
        } else {
            "results".into()
        };
    };
    let format = record
        .experiment
        .get("format")
        .and_then(toml::Value::as_str)
        .unwrap_or("run")
        .to_string();
    if record.import.is_some() {
        "import".into()
    } else if let Some(shard) = &record.run.shard {
        format!("shard {shard}")
    } else if dir.join("sweep.csv").is_file() {
        "sweep".into()
    } else if dir.join("ablation.csv").is_file() {
        "ablation".into()
    } else if dir.join("analysis.csv").is_file() {
        "analysis".into()
    } else if record.experiment.contains_key("sprt") {
        "sprt".into()
    } else if record.run.merged_from.is_some() {
        format!("{format} (merged)")
    } else {
        format
    }
}

impl Tail {
    pub fn new(dir: &Path) -> Tail {
        Tail {
            dir: dir.to_path_buf(),
            run_stamp: None,
            record: None,
            experiment: None,
            kind: String::new(),
            offset: 0,
            identity: None,
            compressed_len: None,
            header: Vec::new(),
            partial: Vec::new(),
            tallies: None,
            games: 0,
            newest: VecDeque::new(),
            samples: VecDeque::new(),
            problem: None,
            modified: None,
            snapshot: Arc::default(),
            dirty: true,
        }
    }

    /// The state as the page shows it.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&self.snapshot)
    }

    /// Reads what has reached the disk since the last look. A folder gone is 410.
    pub fn update(&mut self) -> Result<(), (u16, String)> {
        if !self.dir.is_dir() {
            return Err((
                410,
                format!("{} was deleted while viewed", self.dir.display()),
            ));
        }
        let run_path = ResultsFolder::at(&self.dir).path(FolderFile::RunRecord);
        let now_stamp = stamp(&run_path);
        if now_stamp != self.run_stamp {
            self.run_stamp = now_stamp;
            self.load_record();
            self.dirty = true;
        }
        if let Some((path, compression)) = games_file::find(&self.dir) {
            match compression {
                Compression::None => self.follow(&path),
                Compression::Zstd => self.reread_compressed(&path),
            }
        }
        let now = Instant::now();
        if self.samples.back().is_none_or(|&(_, g)| g != self.games) || self.samples.len() < 2 {
            self.samples.push_back((now, self.games));
        }
        while self.samples.len() > 2 && now.duration_since(self.samples[1].0) > RATE_WINDOW {
            self.samples.pop_front();
        }
        if self.dirty {
            self.dirty = false;
            self.rebuild();
        }
        Ok(())
    }

    fn load_record(&mut self) {
        let folder = ResultsFolder::at(&self.dir);
        let record = folder.record_if_any().ok().flatten();
        self.kind = kind_of(&self.dir, record.as_ref());
        let experiment = record.as_ref().and_then(|r| {
            // What counting the games needs: no openings file, no strategies built.
            let origin = folder.path(FolderFile::RunRecord).display().to_string();
            let experiment = Experiment::recorded_for_tally(&r.experiment, &origin).ok()?;
            let schedule = Schedule::of(&experiment);
            Some((experiment, schedule))
        });
        let same = match (&experiment, &self.experiment) {
            (Some((a, _)), Some((b, _))) => {
                a.pairs() == b.pairs() && a.games_per_pair == b.games_per_pair && a.sprt == b.sprt
            }
            (None, None) => true,
            _ => false,
        };
        self.record = record;
        self.experiment = experiment;
        if !same {
            self.restart();
        }
    }

    /// Forgets every row read: the file is read again from its start.
    fn restart(&mut self) {
        self.offset = 0;
        self.identity = None;
        self.compressed_len = None;
        self.header.clear();
        self.partial.clear();
        self.tallies = self
            .experiment
            .as_ref()
            .map(|(_, s)| Tallies::new(s.pairs().len()));
        self.games = 0;
        self.newest.clear();
        self.samples.clear();
        self.problem = None;
        self.dirty = true;
    }

    /// Reads the plain file's new bytes.
    fn follow(&mut self, path: &Path) {
        let Ok(mut file) = std::fs::File::open(path) else {
            return;
        };
        let Ok(meta) = file.metadata() else { return };
        let id = identity(&meta);
        if meta.len() < self.offset || (self.identity.is_some() && id != self.identity) {
            self.restart();
        }
        self.identity = id;
        self.modified = meta.modified().ok().max(self.modified);
        if meta.len() == self.offset {
            return;
        }
        let want = (meta.len() - self.offset).min(CHUNK);
        let mut bytes = std::mem::take(&mut self.partial);
        if file.seek(SeekFrom::Start(self.offset)).is_err() {
            return;
        }
        let before = bytes.len();
        if file.take(want).read_to_end(&mut bytes).is_err() {
            bytes.truncate(before);
            self.partial = bytes;
            return;
        }
        self.offset += (bytes.len() - before) as u64;
        self.take_lines(bytes);
    }

    /// Counts the complete lines of `bytes` and keeps the rest for the next look.
    fn take_lines(&mut self, mut bytes: Vec<u8>) {
        let Some(end) = bytes.iter().rposition(|&b| b == b'\n') else {
            self.partial = bytes;
            return;
        };
        self.partial = bytes.split_off(end + 1);
        let mut lines = &bytes[..];
        if self.header.is_empty() {
            let first = lines
                .iter()
                .position(|&b| b == b'\n')
                .map_or(lines.len(), |i| i + 1);
            self.header = lines[..first].to_vec();
            lines = &lines[first..];
        }
        if lines.is_empty() {
            return;
        }
        let header = self.header.clone();
        let reader = std::io::Cursor::new(header).chain(lines);
        let mut csv = csv::ReaderBuilder::new()
            .flexible(false)
            .from_reader(reader);
        for (n, row) in csv.deserialize::<GameRow>().enumerate() {
            match row {
                Ok(row) => self.count(&row),
                Err(e) => {
                    self.problem = Some(format!(
                        "games.csv row {} cannot be read ({e}): the row is left out",
                        self.games + n as u64 + 1
                    ));
                }
            }
        }
        self.dirty = true;
    }

    fn count(&mut self, row: &GameRow<'_>) {
        if let (Some((experiment, schedule)), Some(tallies)) = (&self.experiment, &mut self.tallies)
        {
            if row.game_id < schedule.total() {
                tallies.record_game(experiment, schedule.slot(row.game_id), row.margin);
            }
        }
        self.games += 1;
        self.newest.push_front(Newest {
            id: row.game_id,
            black: row.black.to_string(),
            white: row.white.to_string(),
            result: row.result.to_string(),
            black_discs: row.black_discs,
            white_discs: row.white_discs,
        });
        self.newest.truncate(NEWEST);
    }

    /// A compressed file (a finished run's) is read whole whenever it changes.
    fn reread_compressed(&mut self, path: &Path) {
        let len = std::fs::metadata(path).map(|m| m.len()).ok();
        if len == self.compressed_len {
            return;
        }
        self.restart();
        self.compressed_len = len;
        self.modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let Ok(mut reader) = games_file::reader(path) else {
            return;
        };
        let mut bytes = Vec::new();
        if reader.read_to_end(&mut bytes).is_err() {
            self.problem = Some("games.csv.zst cannot be read to its end (cut short?)".into());
        }
        self.take_lines(bytes);
    }

    fn rebuild(&mut self) {
        let previous = self.snapshot.version;
        let record = self.record.as_ref();
        let status = record.map_or_else(
            || {
                if self.kind == "tune" || self.kind == "compare" {
                    "complete".to_string()
                } else {
                    "-".to_string()
                }
            },
            |r| {
                serde_json::to_value(r.run.status)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            },
        );
        let total = record.map(|r| r.run.games_total);
        let running = status == "running";
        let rate = match (self.samples.front(), self.samples.back()) {
            (Some(&(t0, g0)), Some(&(t1, g1))) if running && g1 > g0 && t1 > t0 => {
                let span = Instant::now()
                    .duration_since(t0)
                    .as_secs_f64()
                    .max(t1.duration_since(t0).as_secs_f64());
                Some((g1 - g0) as f64 / span)
            }
            _ => record.and_then(|r| r.run.games_per_second),
        };
        let (pairs, standings) = match (&self.experiment, &self.tallies) {
            (Some((experiment, _)), Some(tallies)) if self.games > 0 => (
                tallies.pair_rows(experiment),
                tallies.standing_rows(experiment),
            ),
            _ => (Vec::new(), Vec::new()),
        };
        let sprt = self
            .experiment
            .as_ref()
            .and_then(|(e, _)| e.sprt)
            .and_then(|sprt| {
                let pair = pairs.first()?;
                let design = sprt.design();
                let penta = [
                    pair.penta_0,
                    pair.penta_1,
                    pair.penta_2,
                    pair.penta_3,
                    pair.penta_4,
                ];
                let elo = pair
                    .elo
                    .zip(pair.elo_low)
                    .zip(pair.elo_high)
                    .map(|((e, l), h)| (e, l, h));
                let (lower, upper) = (pair.sprt_lower?, pair.sprt_upper?);
                let llr = pair.sprt_llr?;
                let result = pair
                    .sprt_result
                    .clone()
                    .unwrap_or_else(|| "continue".into());
                let going = result == "continue" && penta.iter().sum::<u64>() > 0;
                let frequencies = penta.map(|c| c as f64);
                let left_at = |elo: f64| {
                    let elo = elo.clamp(ELO_RANGE.0, ELO_RANGE.1);
                    expected_pairs_left(&design, &frequencies, elo, llr, (lower, upper))
                };
                let pairs_left = going.then(|| left_at(elo.map_or(0.0, |(e, _, _)| e)));
                let games_left = total.map(|t| t.saturating_sub(self.games) as f64);
                let to_seconds = |pairs: f64, rate: f64| {
                    (2.0 * pairs).min(games_left.unwrap_or(f64::INFINITY)) / rate.max(1e-9)
                };
                let rate_now = rate.filter(|_| running);
                let seconds_left = pairs_left.zip(rate_now).map(|(p, r)| to_seconds(p, r));
                let interval = elo.filter(|_| going).zip(rate_now);
                let seconds_range = interval.map(|((_, low, high), r)| {
                    (0..=8)
                        .map(|k| to_seconds(left_at(low + (high - low) * f64::from(k) / 8.0), r))
                        .fold((f64::INFINITY, 0.0f64), |(a, b), x| (a.min(x), b.max(x)))
                });
                Some(SprtView {
                    llr,
                    lower,
                    upper,
                    elo0: design.elo0,
                    elo1: design.elo1,
                    penta,
                    elo,
                    stopped_elo: pair.sprt_estimate(),
                    result,
                    pairs_left,
                    seconds_left,
                    seconds_range,
                })
            });
        self.snapshot = Arc::new(Snapshot {
            version: previous + 1,
            kind: self.kind.clone(),
            status,
            games: self.games,
            total,
            rate,
            pairs,
            standings,
            sprt,
            newest: self.newest.iter().cloned().collect(),
            problem: self.problem.clone(),
            modified: self.modified.or(self.run_stamp.map(|(t, _)| t)),
        });
    }
}

/// The snapshot as JSON (`/live.json`).
pub fn json(s: &Snapshot) -> String {
    use serde_json::json;
    let standings: Vec<_> = s
        .standings
        .iter()
        .map(|r| json!({ "player": r.player, "games": r.games, "wins": r.wins, "draws": r.draws, "losses": r.losses, "score": r.score, "rating": r.rating }))
        .collect();
    let sprt = s.sprt.as_ref().map(|v| {
        json!({ "llr": v.llr, "lower": v.lower, "upper": v.upper, "penta": v.penta, "elo": v.elo, "stopped_elo": v.stopped_elo, "result": v.result, "pairs_left": v.pairs_left, "seconds_left": v.seconds_left, "seconds_range": v.seconds_range })
    });
    let newest: Vec<_> = s
        .newest
        .iter()
        .map(|g| json!({ "id": g.id, "black": g.black, "white": g.white, "result": g.result }))
        .collect();
    json!({ "kind": s.kind, "status": s.status, "games": s.games, "total": s.total, "rate": s.rate, "standings": standings, "sprt": sprt, "newest": newest, "problem": s.problem })
        .to_string()
}

/// Server-sent events for one page: the live section whenever it changes (at once,
/// then within half a second of a look finding new rows), a comment every 15 s so
/// that a closed page is noticed, and `gone` when the folder is deleted. A client
/// that reads nothing blocks only this thread.
pub fn stream(state: &State, dir: &Path, rel: &str, request: tiny_http::Request) {
    let mut out = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\n\r\nretry: 1000\n\n";
    if out
        .write_all(head.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        return;
    }
    let mut shown = 0;
    let mut quiet = Instant::now();
    loop {
        let sent = match super::tail_of(state, dir) {
            Ok(snapshot) if snapshot.version != shown => {
                shown = snapshot.version;
                let html = super::pages::live_section(&snapshot, rel).replace(['\n', '\r'], " ");
                Some(write!(
                    out,
                    "event: live\nid: {}\ndata: {html}\n\n",
                    snapshot.games
                ))
            }
            Ok(_) if quiet.elapsed() > Duration::from_secs(15) => {
                Some(write!(out, ": still here\n\n"))
            }
            Ok(_) => None,
            Err(Reply { body, .. }) => {
                let line = String::from_utf8_lossy(&body).trim().to_string();
                let _ = write!(out, "event: gone\ndata: {line}\n\n").and_then(|()| out.flush());
                return;
            }
        };
        if let Some(sent) = sent {
            if sent.and_then(|()| out.flush()).is_err() {
                return;
            }
            quiet = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(400));
    }
}
