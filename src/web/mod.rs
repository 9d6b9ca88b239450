//! `reversi-lab web`: a local web server over a results root — the index of its
//! results folders, each folder's report with live updates while a run writes, its
//! games in the step-through viewer, and play in the browser. Read-only towards the
//! results: it writes nothing into a results folder and starts no run.
//!
//! Built on `tiny_http` (one accept thread, a thread per request here; see
//! `docs/web.md` for why), with server-sent events for the live updates.

mod folders;
mod gone;
mod http;
mod live;
mod pages;
mod paths;
mod play;
mod script;

pub use play::PlayBook;

use crate::error::{Error, Result};
use http::{Reply, Want};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
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
}

/// At most this many requests are handled at once; past it a request gets 503.
/// Live streams count: each holds its thread while the page is open.
const MOST_REQUESTS: usize = 2048;

/// Game pages kept: (folder, game id) to the games file's identity and the page.
type GamePages = HashMap<(PathBuf, u64), (Option<(u64, u64)>, Arc<String>)>;

/// What every request's thread shares.
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
    busy: AtomicUsize,
    /// The port listened on (a request's connection is found by it).
    port: u16,
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

/// How long a connection may send nothing while the server reads it, and take
/// nothing while the server writes to it.
const READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);
const WRITE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Sets the read and write timeouts on the listening socket, which every accepted
/// connection inherits (Linux copies them). `tiny_http` sets none, and its pool of
/// connection threads can queue a new connection behind threads that wait on clients
/// sending nothing (a race between its count of idle threads and their waking): the
/// timeout frees such a thread within 5 s, so nobody waits longer.
///
/// On Linux the read timeout also bounds `accept` itself: after 5 s without a new
/// connection `tiny_http`'s accept thread gets `EAGAIN` and ends. [`Web::run`] starts
/// a new `tiny_http` server on the same socket then (see there).
#[cfg(target_os = "linux")]
fn socket_timeouts(listener: &std::net::TcpListener) {
    use std::os::fd::AsRawFd;
    for (option, after) in [
        (libc::SO_RCVTIMEO, READ_TIMEOUT),
        (libc::SO_SNDTIMEO, WRITE_TIMEOUT),
    ] {
        let time = libc::timeval {
            tv_sec: after.as_secs() as libc::time_t,
            tv_usec: 0,
        };
        // SAFETY: a valid socket, and a timeval of the size given.
        unsafe {
            libc::setsockopt(
                listener.as_raw_fd(),
                libc::SOL_SOCKET,
                option,
                std::ptr::addr_of!(time).cast(),
                std::mem::size_of::<libc::timeval>() as libc::socklen_t,
            );
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn socket_timeouts(_listener: &std::net::TcpListener) {}

/// A bound server: its address and token, then [`Web::run`].
pub struct Web {
    /// The bound socket; each `tiny_http` server accepts on a copy of it.
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
        let listener = std::net::TcpListener::bind(address).map_err(|e| cannot(&e))?;
        socket_timeouts(&listener);
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
                busy: AtomicUsize::new(0),
                port: address.port(),
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
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        match self.token() {
            Some(token) => format!("http://{host}:{}/?token={token}", self.address.port()),
            None => format!("http://{host}:{}/", self.address.port()),
        }
    }

    /// Serves until the process ends: each request on a thread of its own, so that
    /// a client that reads nothing holds only its own.
    ///
    /// `tiny_http`'s accept thread ends at its first failed `accept` (after 5 s with
    /// no new connection, as the socket's read timeout bounds `accept` too; or out of
    /// file descriptors), and its server then answers nothing more. So each failure
    /// starts a new `tiny_http` server on a copy of the same socket, which accepts
    /// from then on (connections waiting in the kernel's backlog included), while the
    /// old one is drained on a thread of its own: its live connections (a keep-alive
    /// page, a live stream) still hand their requests to it, and each is answered.
    pub fn run(self) -> Result<()> {
        let mut server = self.serve()?;
        loop {
            match server.recv() {
                Ok(request) => dispatch(&self.state, &server.work, request),
                Err(e) => {
                    if e.kind() != std::io::ErrorKind::WouldBlock {
                        // Not the idle timeout (too many open files, say): not again at once.
                        std::thread::sleep(std::time::Duration::from_millis(100));
                    }
                    let old = std::mem::replace(&mut server, self.serve()?);
                    let state = Arc::clone(&self.state);
                    let drained = std::thread::Builder::new()
                        .name("web-drain".into())
                        .stack_size(256 * 1024)
                        .spawn(move || old.drain(&state));
                    if let Err(e) = drained {
                        return Err(Error::io_during(
                            "drain connections on",
                            self.address.to_string(),
                            e,
                        ));
                    }
                }
            }
        }
    }

    /// A new `tiny_http` server accepting on the socket.
    fn serve(&self) -> Result<Generation> {
        let cannot = |e: &dyn std::fmt::Display| {
            Error::io_during(
                "accept connections on",
                self.address.to_string(),
                std::io::Error::other(e.to_string()),
            )
        };
        let listener = self.listener.try_clone().map_err(|e| cannot(&e))?;
        let server = tiny_http::Server::from_listener(listener, None).map_err(|e| cannot(&e))?;
        Ok(Generation {
            server,
            work: Arc::new(Work {
                busy: AtomicUsize::new(0),
                last: Mutex::new(std::time::Instant::now()),
            }),
        })
    }
}

/// One `tiny_http` server on the socket, and what its requests are doing.
struct Generation {
    server: tiny_http::Server,
    work: Arc<Work>,
}

/// The requests of one generation being handled, and when the last one ended.
struct Work {
    busy: AtomicUsize,
    last: Mutex<std::time::Instant>,
}

impl Generation {
    fn recv(&self) -> std::io::Result<tiny_http::Request> {
        self.server.recv()
    }

    /// Answers the requests its connections still hand it, until none can come:
    /// none is being handled, and for longer than a connection may stay silent
    /// (the read timeout) none has ended or arrived, so each connection has timed
    /// out or closed. Only a client that trickles a request's head a byte at a time
    /// for longer than that would find it gone (and get an empty 500).
    fn drain(self, state: &Arc<State>) {
        let quiet = READ_TIMEOUT * 2;
        let mut arrived = std::time::Instant::now();
        loop {
            match self.server.recv_timeout(std::time::Duration::from_secs(1)) {
                Ok(Some(request)) => {
                    arrived = std::time::Instant::now();
                    dispatch(state, &self.work, request);
                }
                Ok(None) => {
                    let ended = *self
                        .work
                        .last
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    if self.work.busy.load(Ordering::SeqCst) == 0
                        && arrived.elapsed() > quiet
                        && ended.elapsed() > quiet
                    {
                        return;
                    }
                }
                // Its accept thread has ended already: no other error can come.
                Err(_) => return,
            }
        }
    }
}

/// Hands a request to a thread of its own (or answers 503 when too many are).
fn dispatch(state: &Arc<State>, work: &Arc<Work>, request: tiny_http::Request) {
    if state.busy.fetch_add(1, Ordering::SeqCst) >= MOST_REQUESTS {
        state.busy.fetch_sub(1, Ordering::SeqCst);
        http::send(
            request,
            Reply::error(503, "the server is busy: try again in a moment"),
        );
        return;
    }
    work.busy.fetch_add(1, Ordering::SeqCst);
    let done = {
        let (state, work) = (Arc::clone(state), Arc::clone(work));
        move || {
            *work
                .last
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = std::time::Instant::now();
            work.busy.fetch_sub(1, Ordering::SeqCst);
            state.busy.fetch_sub(1, Ordering::SeqCst);
        }
    };
    let thread_state = Arc::clone(state);
    let finish = done.clone();
    let spawned = std::thread::Builder::new()
        .name("web".into())
        .stack_size(256 * 1024)
        .spawn(move || {
            handle(&thread_state, request);
            finish();
        });
    if spawned.is_err() {
        done();
    }
}

/// One request, start to end.
fn handle(state: &State, request: tiny_http::Request) {
    let want = match http::check(state, &request) {
        Ok(want) => want,
        Err(reply) => return http::send(request, reply),
    };
    if want.path == "/events" {
        return match folder_of(state, &want) {
            Ok(dir) => {
                let rel = want.query("path").unwrap_or_default();
                live::stream(request, events(state, dir, rel));
            }
            Err(reply) => http::send(request, reply),
        };
    }
    // A search for a page that has closed stops (and plays nothing).
    let watch = (want.post && want.path != "/play/undo" && want.path != "/play/state")
        .then(|| gone::Watch::start(request.remote_addr().copied(), state.port));
    let reply =
        route(state, &want, watch.as_ref().map(gone::Watch::flag)).unwrap_or_else(|reply| reply);
    drop(watch);
    let reply = match want.set_cookie {
        Some(token) => reply.with_cookie(&token),
        None => reply,
    };
    http::send(request, reply);
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
            let tail = tail_of(state, &dir)?;
            Ok(Reply::json(live::json(&tail)))
        }
        ("/game", false) => {
            let dir = folder_of(state, want)?;
            let id = want.query_u64("id").ok_or_else(|| {
                Reply::error(400, "give the game as ?id=N (its game_id in games.csv)")
            })?;
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
    /// `text` with the server's own paths made relative to the root: a page shows
    /// where things are under the root, not where the root is on the server.
    /// Paths above the root (a run's experiment file beside it) read as `../`.
    fn relative_text(&self, text: &str) -> String {
        let mut out = text.to_string();
        for root in [&self.root, &self.root_shown] {
            if !root.is_absolute() {
                continue;
            }
            let levels = root.ancestors().filter(|a| a.parent().is_some());
            for (up, above) in levels.enumerate() {
                let above = above.display().to_string();
                out = out.replace(&format!("{above}/"), &"../".repeat(up));
                if up == 0 {
                    out = out.replace(&above, ".");
                }
            }
        }
        out
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
