//! A results folder followed as it grows: `games.csv` read from where the last look
//! stopped (only complete lines; a half-written last line waits for its end), the
//! tallies the run keeps counted game by game, the SPRT's standing with a time left,
//! and the stream of server-sent events that carries each change to the page.
//! The folder's files and its record are read through `lab::ResultsFolder`.

mod kind;
mod sprt;
mod stream;

pub use kind::{identity, is_compare_folder, kind_of};
pub use stream::{json, stream};

use crate::lab::games_file::{self, Compression};
use crate::lab::rows::{PairRow, RunToml, StandingRow};
use crate::lab::tally::Tallies;
use crate::lab::{Experiment, FolderFile, GameRow, ResultsFolder, Schedule};
use crate::stats::PairsLeft;
use std::collections::VecDeque;
use std::io::{Read, Seek, SeekFrom};
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
    /// Game pairs still to play: the 10%, 50% and 90% points over the SPRT's walk
    /// continued from where it stands, at Elos drawn from the estimate's interval.
    pub pairs_left: Option<PairsLeft>,
    /// Wald's expectation of the pairs left at the point estimate (`sprt-plan`'s
    /// arithmetic), shown beside it: it runs short when the Elo sits near a hypothesis.
    pub wald_pairs: Option<f64>,
    /// The median pairs left at the measured rate, capped by the games the run has left.
    pub seconds_left: Option<f64>,
    /// The 10% and 90% points likewise.
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
    /// Whether a process holds the folder's `run.lock` (a run or a tune writing it),
    /// and when that was last asked.
    held: Option<bool>,
    held_asked: Option<Instant>,
    looked: Option<Instant>,
    /// The SPRT's pairs left as last worked out, and when.
    spread: std::cell::Cell<Option<(Instant, PairsLeft)>>,
}

/// The SPRT's time left is worked out again at most this often.
const SPREAD_EVERY: Duration = Duration::from_secs(3);

/// A folder's files are looked at no more often than this, however many pages ask.
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// The status of a run whose record says `running` while no process holds its lock.
pub const KILLED: &str = "interrupted (killed)";

/// A run with no lock holder is called killed only once its folder has been quiet
/// this long: a shard on another machine of a cluster writes a shared file system
/// whose locks this machine may not see, but its rows it does see.
const QUIET_BEFORE_KILLED: Duration = Duration::from_secs(10);

/// How often the folder's lock is asked about while its record says it is running.
const LOCK_EVERY: Duration = Duration::from_secs(2);

fn stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
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
            held: None,
            held_asked: None,
            looked: None,
            spread: std::cell::Cell::new(None),
        }
    }

    /// The state as the page shows it.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&self.snapshot)
    }

    /// Reads what has reached the disk since the last look. A folder gone is 410.
    pub fn update(&mut self) -> Result<(), (u16, String)> {
        // Many pages on one folder share one look at the disk every LOOK_EVERY.
        if self.looked.is_some_and(|at| at.elapsed() < LOOK_EVERY) {
            return Ok(());
        }
        self.looked = Some(Instant::now());
        if !self.dir.is_dir() {
            return Err((
                410,
                "this results folder was deleted (or moved) while viewed: the index lists what is there now".into(),
            ));
        }
        let run_path = ResultsFolder::at(&self.dir).path(FolderFile::RunRecord);
        let now_stamp = stamp(&run_path);
        // The first look loads it too: a tune's or a comparison's folder has no record.
        if now_stamp != self.run_stamp || self.kind.is_empty() {
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
        self.ask_lock();
        if self.held == Some(false)
            && self.snapshot.status == "running"
            && self.quiet_for(QUIET_BEFORE_KILLED)
        {
            self.dirty = true;
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

    /// Asks whether a process still writes the folder, when it may: a run whose
    /// record says `running`, or a tune. The kernel releases a run's `flock` however
    /// the run ends, so a run killed with `kill -9` is told from a live one. A
    /// shared lock is tried for an instant and dropped at once; it is asked at most
    /// every 2 s, and not while rows keep arriving (only a live run writes them).
    fn ask_lock(&mut self) {
        let may_run = self.kind == "tune"
            || self
                .record
                .as_ref()
                .is_some_and(|r| r.run.status == crate::lab::Status::Running);
        if !may_run {
            if self.held.take().is_some() {
                self.dirty = true;
            }
            return;
        }
        let growing = self.samples.back().is_some_and(|&(at, games)| {
            games == self.games && games > 0 && at.elapsed() < LOCK_EVERY
        }) && self.held == Some(true);
        if growing || self.held_asked.is_some_and(|at| at.elapsed() < LOCK_EVERY) {
            return;
        }
        self.held_asked = Some(Instant::now());
        let held = Some(crate::lab::folder::holder(&self.dir).is_some());
        if held != self.held {
            self.held = held;
            self.dirty = true;
        }
    }

    /// Whether nothing in the folder has changed for `span`.
    fn quiet_for(&self, span: Duration) -> bool {
        let newest = self.modified.max(self.run_stamp.map(|(t, _)| t));
        newest.is_none_or(|t| SystemTime::now().duration_since(t).is_ok_and(|d| d >= span))
    }

    fn load_record(&mut self) {
        let folder = ResultsFolder::at(&self.dir);
        let record = folder.record_if_any().ok().flatten();
        let experiment = record.as_ref().and_then(|r| {
            // What counting the games needs: no openings file, no strategies built.
            let origin = folder.path(FolderFile::RunRecord).display().to_string();
            let experiment = Experiment::recorded_for_tally(&r.experiment, &origin).ok()?;
            let schedule = Schedule::of(&experiment);
            Some((experiment, schedule))
        });
        self.kind = kind_of(
            &self.dir,
            record.as_ref(),
            experiment.as_ref().map(|(e, _)| e),
        );
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
                if self.kind == "tune" && self.held == Some(true) {
                    "running".to_string()
                } else if self.kind == "tune" && !crate::report::page(&self.dir).is_file() {
                    "interrupted".to_string()
                } else if self.kind == "tune" || self.kind == "compare" {
                    "complete".to_string()
                } else {
                    "-".to_string()
                }
            },
            |r| {
                if r.run.status == crate::lab::Status::Running
                    && self.held == Some(false)
                    && self.quiet_for(QUIET_BEFORE_KILLED)
                {
                    // Its record was never closed: the run was killed (`--resume`
                    // continues it).
                    return KILLED.to_string();
                }
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
        let sprt = self.sprt_view(&pairs, total, rate, running);
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
