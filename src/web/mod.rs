//! `reversi-lab web`: a local web server over a results root — the index of its
//! results folders, each folder's report with live updates while a run writes, its
//! games in the step-through viewer, and play in the browser. Read-only towards the
//! results: it writes nothing into a results folder and starts no run.
//!
//! Its own accept loop on `std::net` (a thread per connection; see `server.rs` and
//! `docs/web.md` for why), with server-sent events for the live updates.

mod folders;
mod gone;
mod http;
mod live;
mod pages;
mod paths;
mod play;
mod script;
mod server;

pub use play::PlayBook;

use crate::error::{Error, Result};
use http::{Head, Reply, Want};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};

/// How `web` serves.
#[derive(Clone, Debug)]
pub struct WebOptions {
    /// The results root (every folder served lies under it).
    pub root: PathBuf,
    /// The address to listen on (loopback unless told).
    pub host: IpAddr,
    /// The port (0: any free one).
    pub port: u16,
    /// The token every request must carry; required off loopback (a fresh one is
    /// drawn when none is given).
    pub token: Option<String>,
    /// What play needs from the `play` command (its levels, its value scales).
    pub play: PlayBook,
    /// At most this many connections are open at once (each holds a thread, a live
    /// page's stream too); past it a new one gets a one-line 503.
    pub connections: usize,
}

/// The cap on open connections unless told: a live page holds one, a browser opens
/// at most six to a server, and it stays well within the usual 1,024 descriptors.
pub const CONNECTIONS: usize = 512;

/// Game pages kept: (folder, game id) to the games file's identity and the page.
type GamePages = HashMap<(PathBuf, u64), (Option<(u64, u64)>, Arc<String>)>;

/// What every connection's thread shares.
pub(crate) struct State {
    /// The root as given, for display.
    root_shown: PathBuf,
    /// The root, canonical: every path served must lie under it.
    root: PathBuf,
    token: Option<String>,
    /// Whether only loopback names may be in `Host` (no token: guards against DNS
    /// rebinding, a foreign page reaching the server through a name of its own).
    loopback: bool,
    /// The live state of each folder looked at, followed incrementally.
    tails: Mutex<HashMap<PathBuf, Arc<Mutex<live::Tail>>>>,
    /// Each folder's rendered report, and where its charts are drawn.
    reports: Mutex<HashMap<PathBuf, Arc<pages::Cached>>>,
    /// The pages of games shown, by folder and game, with the games file they
    /// came from.
    games: Mutex<GamePages>,
    /// The results folders found by the last walk of the root, and when.
    listing: Mutex<Option<(std::time::Instant, Vec<PathBuf>)>>,
    scratch: tempdir::Scratch,
    play: play::Sessions,
    /// Connections open, and the most that may be.
    open: AtomicUsize,
    most_connections: usize,
}

mod tempdir {
    //! The server's own scratch folder (the report's charts), removed when it stops.
    use std::path::{Path, PathBuf};

    pub struct Scratch(PathBuf);

    impl Scratch {
        pub fn new() -> std::io::Result<Self> {
            let dir = std::env::temp_dir().join(format!(
                "reversi-lab-web-{}-{:x}",
                std::process::id(),
                rand::random::<u64>()
            ));
            std::fs::create_dir_all(&dir)?;
            Ok(Scratch(dir))
        }

        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A bound server: its address and token, then [`Web::run`].
pub struct Web {
    /// The bound socket (no timeouts of its own: they are set on each connection).
    listener: std::net::TcpListener,
    state: Arc<State>,
    address: SocketAddr,
}

impl Web {
    /// Binds the address. Off loopback a token is required: the given one, or one
    /// drawn here ([`Web::token`] says it, for the command to print).
    pub fn bind(options: WebOptions) -> Result<Web> {
        let root = options.root.canonicalize().map_err(|e| {
            Error::input(format!(
                "results root {} cannot be opened ({e}): give a folder that holds results folders, such as results",
                options.root.display()
            ))
        })?;
        if !root.is_dir() {
            return Err(Error::input(format!(
                "results root {} is not a folder: give a folder that holds results folders, such as results",
                options.root.display()
            )));
        }
        let loopback = options.host.is_loopback();
        let token = match options.token {
            Some(t) if t.is_empty() || !t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') => {
                return Err(Error::input(
                    "--token must be letters, digits, - and _ only (it goes into URLs): give another, or leave it out to have one drawn",
                ))
            }
            Some(t) => Some(t),
            None if loopback => None,
            None => Some(format!("{:032x}", rand::random::<u128>())),
        };
        let address = SocketAddr::new(options.host, options.port);
        let cannot = |e: &dyn std::fmt::Display| {
            Error::input(format!(
                "cannot listen on {address}: {e} (give another --port, or --port 0 for any free one)"
            ))
        };
        if options.connections == 0 {
            return Err(Error::input(
                "a server that takes 0 connections serves nobody: allow 1 or more",
            ));
        }
        let listener = std::net::TcpListener::bind(address).map_err(|e| cannot(&e))?;
        let address = listener.local_addr().map_err(|e| cannot(&e))?;
        let scratch = tempdir::Scratch::new()
            .map_err(|e| Error::io_during("create", std::env::temp_dir(), e))?;
        Ok(Web {
            listener,
            address,
            state: Arc::new(State {
                root_shown: options.root,
                root,
                token,
                loopback,
                tails: Mutex::default(),
                reports: Mutex::default(),
                listing: Mutex::default(),
                games: Mutex::default(),
                scratch,
                play: play::Sessions::new(options.play),
                open: AtomicUsize::new(0),
                most_connections: options.connections,
            }),
        })
    }

    /// The address it listens on.
    #[must_use]
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Its scratch folder (the report's charts): removed when the server is dropped,
    /// and by the command's signal handler when a signal ends the process instead.
    #[must_use]
    pub fn scratch(&self) -> &std::path::Path {
        self.state.scratch.path()
    }

    /// The token every request must carry, if one is required.
    #[must_use]
    pub fn token(&self) -> Option<&str> {
        self.state.token.as_deref()
    }

    /// The address to open in a browser (with the token, which the page then keeps
    /// in a cookie).
    #[must_use]
    pub fn url(&self) -> String {
        let host = match self.address.ip() {
            // Bound to every interface: this machine opens it by its loopback name
            // (0.0.0.0 is no address to open); the command says what others use.
            IpAddr::V6(ip) if ip.is_unspecified() => "[::1]".to_string(),
            IpAddr::V4(ip) if ip.is_unspecified() => "127.0.0.1".to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        match self.token() {
            Some(token) => format!("http://{host}:{}/?token={token}", self.address.port()),
            None => format!("http://{host}:{}/", self.address.port()),
        }
    }

    /// Whether it listens on every interface (`--host 0.0.0.0` or `::`), where
    /// [`Web::url`] is this machine's own address and other machines use its name.
    #[must_use]
    pub fn on_every_interface(&self) -> bool {
        self.address.ip().is_unspecified()
    }

    /// Serves until the process ends: each connection on a thread of its own, so
    /// that a client that reads nothing (or a live page) holds only its own.
    pub fn run(self) -> Result<()> {
        server::run(&self.listener, &self.state, handle);
        Ok(())
    }
}

/// One request: its reply, or None once a live stream has used the connection.
fn handle(state: &State, head: &Head, stream: &std::net::TcpStream) -> Option<Reply> {
    let want = match http::check(state, head) {
        Ok(want) => want,
        Err(reply) => return Some(reply),
    };
    if want.path == "/events" {
        return match folder_of(state, &want) {
            Ok(dir) => {
                let rel = want.query("path").unwrap_or_default();
                live::stream(stream, events(state, dir, rel));
                None
            }
            Err(reply) => Some(reply),
        };
    }
    // A search for a page that has closed stops (and plays nothing).
    let watch = (want.post && want.path != "/play/undo" && want.path != "/play/state")
        .then(|| gone::Watch::start(stream));
    let reply =
        route(state, &want, watch.as_ref().map(gone::Watch::flag)).unwrap_or_else(|reply| reply);
    drop(watch);
    Some(match want.set_cookie {
        Some(token) => reply.with_cookie(&token),
        None => reply,
    })
}

/// A running run's charts are sent again at most this often: each drawing reads
/// the whole `games.csv` (the live section above them never does).
const CHARTS_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

/// What a folder's live stream sends at each look: the live section when the
/// folder's state changed (a cluster run's: its shards' states); for a tune also
/// its traces, drawn again as `trace.csv` grows (at most every 5 s, as a page load
/// would); for a running run its report's charts, at most every [`CHARTS_EVERY`].
/// The first look sends the live section again (the page may be older).
fn events(
    state: &State,
    dir: PathBuf,
    rel: String,
) -> impl FnMut() -> std::result::Result<Vec<(&'static str, String)>, Reply> + '_ {
    let cluster = !folders::is_results_folder(&dir);
    let tune = crate::studies::tune::report::is_tune_folder(&dir);
    let mut shown: Option<Vec<u64>> = None;
    let mut drawn: Option<Arc<String>> = None;
    let mut charts_looked = std::time::Instant::now();
    move || {
        let mut out = Vec::new();
        if cluster {
            if !dir.is_dir() {
                return Err(Reply::error(410, "this cluster run's folder was deleted (or moved) while viewed: the index lists what is there now"));
            }
            let shards = folders::shards_of(state, &dir);
            let versions: Vec<u64> = shards.iter().map(|l| l.snapshot.version).collect();
            if shown.as_ref() != Some(&versions) {
                shown = Some(versions);
                out.push(("live", pages::cluster_section(state, &rel, &shards)));
            }
            return Ok(out);
        }
        let snapshot = tail_of(state, &dir)?;
        if shown.as_deref() != Some(&[snapshot.version]) {
            shown = Some(vec![snapshot.version]);
            out.push(("live", pages::live_section(&snapshot, &rel)));
        }
        let charts = !tune && snapshot.status == "running";
        let due = drawn.is_none() || tune || charts_looked.elapsed() >= CHARTS_EVERY;
        if (tune || charts) && due {
            charts_looked = std::time::Instant::now();
            let (_, body) = pages::report(state, &dir, &snapshot.status);
            match &drawn {
                Some(before) if Arc::ptr_eq(before, &body) => {}
                // The page drew the first it shows itself.
                None => drawn = Some(body),
                Some(_) if tune => {
                    out.push(("report", body.to_string()));
                    drawn = Some(body);
                }
                // A run's report holds the game viewers' script: only its charts
                // are replaced.
                Some(_) => {
                    out.push(("charts", pages::charts_json(&body)));
                    drawn = Some(body);
                }
            }
        }
        Ok(out)
    }
}

fn route(
    state: &State,
    want: &Want,
    gone: Option<&Arc<std::sync::atomic::AtomicBool>>,
) -> std::result::Result<Reply, Reply> {
    let post = want.post;
    match (want.path.as_str(), post) {
        ("/", false) => Ok(Reply::html(pages::index(
            state,
            &folders::scan(&state.root, state),
        ))),
        ("/folder", false) => {
            let dir = folder_of(state, want)?;
            let rel = want.query("path").unwrap_or_default();
            if folders::is_results_folder(&dir) {
                pages::folder(state, &dir, &rel)
            } else {
                Ok(Reply::html(pages::cluster(
                    state,
                    &rel,
                    &folders::shards_of(state, &dir),
                )))
            }
        }
        ("/live.json", false) => {
            let dir = folder_of(state, want)?;
            if !folders::is_results_folder(&dir) {
                // A cluster run's shards, added up as its page and stream show them.
                let shards = folders::shards_of(state, &dir);
                let snapshots: Vec<_> = shards.iter().map(|l| Arc::clone(&l.snapshot)).collect();
                return Ok(Reply::json(live::json(&folders::combined(
                    &snapshots,
                    folders::missing_shards(&dir),
                ))));
            }
            let tail = tail_of(state, &dir)?;
            Ok(Reply::json(live::json(&tail)))
        }
        ("/game", false) => {
            let dir = folder_of(state, want)?;
            let id = want.query_u64("id").ok_or_else(|| {
                Reply::error(400, "give the game as ?id=N (its game_id in games.csv)")
            })?;
            if let Some(shards) = crate::lab::shard::Unmerged::find(&dir) {
                let rel = want.query("path").unwrap_or_default();
                let whole = state.typed(&rel);
                return Err(Reply::error(
                    404,
                    &format!(
                        "{rel} holds the shards of a sharded run, not merged yet: its games are shown once `{}` has merged them",
                        shards.merge_line(&whole)
                    ),
                ));
            }
            pages::game(state, &dir, id)
        }
        ("/play", false) => Ok(Reply::html(pages::play(state))),
        ("/play/new", true) => state.play.start(want, gone).map(Reply::json),
        ("/play/move" | "/play/undo" | "/play/eval" | "/play/again" | "/play/state", true) => {
            state.play.act(want, gone).map(Reply::json)
        }
        ("/" | "/folder" | "/live.json" | "/game" | "/play", true)
        | (
            "/play/new" | "/play/move" | "/play/undo" | "/play/eval" | "/play/again"
            | "/play/state",
            false,
        ) => Err(Reply::error(405, "wrong method for this address")),
        (path, _) => Err(Reply::error(
            404,
            &format!(
                "no page {path}: the pages are /, /folder?path=..., /game?path=...&id=N and /play"
            ),
        )),
    }
}

impl State {
    /// Runs `f` with the paths its messages and pages show relative to the root (see
    /// [`crate::shown`]): a page shows where things are under the root, not where the
    /// root is on the server; paths above the root (a run's experiment file beside
    /// it) read as `../`.
    fn shown<T>(&self, f: impl FnOnce() -> T) -> T {
        crate::shown::under(&[&self.root, &self.root_shown], f)
    }

    /// The folder `rel` under the root as a command typed where the server was started
    /// names it (the root as it was given): for the hints that name a command.
    fn typed(&self, rel: &str) -> PathBuf {
        if self.root_shown == Path::new(".") {
            PathBuf::from(rel)
        } else {
            self.root_shown.join(rel)
        }
    }

    /// The root's name, as the index shows it.
    fn root_name(&self) -> String {
        self.root_shown
            .file_name()
            .or_else(|| self.root.file_name())
            .map_or_else(|| ".".into(), |n| n.to_string_lossy().into_owned())
    }
}

/// The results folder `?path=` names, checked to lie under the root.
fn folder_of(state: &State, want: &Want) -> std::result::Result<PathBuf, Reply> {
    let rel = want.query("path").ok_or_else(|| {
        Reply::error(
            400,
            "give the folder as ?path=FOLDER (relative to the results root)",
        )
    })?;
    if rel.trim().is_empty() {
        return Err(Reply::error(
            400,
            "the path is empty: give the folder as ?path=FOLDER (relative to the results root)",
        ));
    }
    let dir = paths::resolve(&state.root, &rel)?;
    if !folders::is_results_folder(&dir) && folders::shard_folders(&dir).is_empty() {
        return Err(Reply::error(
            404,
            &format!("{rel} is not a results folder (no run.toml, games.csv, tune.toml, compare.csv or shards/ in it)"),
        ));
    }
    // A file of the folder that is a link out of the root (a games.csv pointing at
    // another machine's files) is not read either.
    paths::files_inside(&state.root, &dir, &rel)?;
    Ok(dir)
}

/// The folder's live state, brought up to date with what has reached the disk.
pub(crate) fn tail_of(
    state: &State,
    dir: &Path,
) -> std::result::Result<Arc<live::Snapshot>, Reply> {
    let tail = {
        let mut tails = state
            .tails
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Folders deleted while viewed drop out, so the map stays bounded by the root.
        if tails.len() > 4096 {
            tails.retain(|path, _| path.is_dir());
        }
        Arc::clone(
            tails
                .entry(dir.to_path_buf())
                .or_insert_with(|| Arc::new(Mutex::new(live::Tail::new(dir)))),
        )
    };
    let mut tail = tail
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    tail.update().map_err(|e| Reply::error(e.0, &e.1))?;
    Ok(tail.snapshot())
}
