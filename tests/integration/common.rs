//! The suites' one helper module, after ripgrep's `tests/util.rs`: a scratch folder
//! (`Dir`), a command builder that runs the binary (`TestCommand`), and the checks the
//! suites share. No suite names the binary or makes a temporary folder itself (the test
//! at the end keeps it so), so where the binary lives is said here once.

use std::ffi::OsStr;
use std::io;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};

/// The path of the binary under test, for the tests that put it into a command line
/// of their own (an engine served by `reversi-lab gtp`, a shell pipeline).
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_reversi-lab")
}

/// The binary, run in the test process's folder (the repository's root, see `main.rs`).
pub fn reversi_lab() -> TestCommand {
    TestCommand {
        cmd: assert_cmd::Command::new(binary()),
    }
}

/// The binary, run in `dir`.
pub fn in_dir(dir: &Path) -> TestCommand {
    let mut command = reversi_lab();
    command.current_dir(dir);
    command
}

/// The repository's root: the integration tests are declared by the binary's package,
/// `cli/`, so `CARGO_MANIFEST_DIR` is the folder below it.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is a folder of the repository")
}

/// Runs the binary in `dir`; returns (exit code, stdout, stderr).
pub fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    in_dir(dir).args(args).run()
}

/// Runs the binary in `dir`, asserts it succeeded and returns its stdout.
pub fn ok(dir: &Path, args: &[&str]) -> String {
    in_dir(dir).args(args).ok()
}

/// Bad input, run in `dir`: exit 2 and one line on stderr that contains `needle`.
pub fn refused_in(dir: &Path, args: &[&str], needle: &str) -> String {
    in_dir(dir).args(args).refused(needle)
}

/// Bad input, run in a fresh scratch folder: exit 2 and one line on stderr that
/// contains `needle`.
pub fn refused(args: &[&str], needle: &str) -> String {
    refused_in(&Dir::new(), args, needle)
}

/// A file's text; the panic names the file.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A test's own scratch folder, removed when it is dropped. It reads as the `Path` it
/// is, so `dir.join(..)` and `&dir` passed as a `&Path` work as for a folder's path.
pub struct Dir {
    temp: tempfile::TempDir,
}

impl Dir {
    /// A new empty folder under the system's temporary folder.
    #[allow(clippy::new_without_default)] // each call makes a different folder
    pub fn new() -> Dir {
        Dir {
            temp: tempfile::tempdir().expect("a temporary folder"),
        }
    }

    pub fn path(&self) -> &Path {
        self.temp.path()
    }

    /// The binary, run in this folder.
    pub fn command(&self) -> TestCommand {
        in_dir(self.path())
    }

    /// Writes `name` (relative to this folder) and returns its path.
    pub fn write(&self, name: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path().join(name);
        std::fs::write(&path, contents).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        path
    }
}

impl Deref for Dir {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.path()
    }
}

impl AsRef<Path> for Dir {
    fn as_ref(&self) -> &Path {
        self.path()
    }
}

/// A command line for the binary, with the checks the suites make of its outcome. The
/// builder methods are assert_cmd's (`write_stdin` too), and `assert()`
/// gives assert_cmd's assertions.
#[derive(Debug)]
pub struct TestCommand {
    cmd: assert_cmd::Command,
}

impl TestCommand {
    pub fn arg(&mut self, arg: impl AsRef<OsStr>) -> &mut Self {
        self.cmd.arg(arg);
        self
    }

    pub fn args<I, S>(&mut self, args: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.cmd.args(args);
        self
    }

    pub fn env(&mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> &mut Self {
        self.cmd.env(key, value);
        self
    }

    pub fn env_remove(&mut self, key: impl AsRef<OsStr>) -> &mut Self {
        self.cmd.env_remove(key);
        self
    }

    pub fn current_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.cmd.current_dir(dir);
        self
    }

    /// What the binary reads on its standard input (nothing when not set).
    pub fn write_stdin(&mut self, input: impl Into<Vec<u8>>) -> &mut Self {
        self.cmd.write_stdin(input);
        self
    }

    /// Runs it; assert_cmd's assertions on the outcome.
    pub fn assert(&mut self) -> assert_cmd::assert::Assert {
        self.cmd.assert()
    }

    /// Runs it and returns its output.
    pub fn output(&mut self) -> io::Result<Output> {
        self.cmd.output()
    }

    /// Runs it; returns (exit code, -1 when killed by a signal, stdout, stderr).
    pub fn run(&mut self) -> (i32, String, String) {
        let output = self.output().expect("the binary starts");
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }

    /// Runs it, asserts it succeeded and returns its stdout (which must be UTF-8).
    pub fn ok(&mut self) -> String {
        let output = self.output().expect("the binary starts");
        assert!(
            output.status.success(),
            "{}: {}",
            self.line(),
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).expect("stdout is UTF-8")
    }

    /// Bad input: asserts exit 2 and one line on stderr that contains `needle`; returns
    /// the line.
    pub fn refused(&mut self, needle: &str) -> String {
        let (code, _, stderr) = self.run();
        let line = self.line();
        assert_eq!(code, 2, "{line}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{line}: {stderr}");
        assert!(stderr.contains(needle), "{line}: {stderr}");
        stderr
    }

    /// The same command line as a `std::process::Command`, for a test that starts the
    /// binary and talks to it or stops it while it runs (its own stdio, `spawn`).
    /// Standard input and the timeout stay behind: such a test handles both itself.
    pub fn std(&self) -> std::process::Command {
        let mut command = std::process::Command::new(self.cmd.get_program());
        command.args(self.cmd.get_args());
        for (key, value) in self.cmd.get_envs() {
            match value {
                Some(value) => command.env(key, value),
                None => command.env_remove(key),
            };
        }
        if let Some(dir) = self.cmd.get_current_dir() {
            command.current_dir(dir);
        }
        command
    }

    /// Starts it without waiting, its stdout and stderr piped to the caller.
    pub fn spawn(&self) -> Child {
        self.std()
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts")
    }

    /// The arguments, for a failing assertion's message.
    fn line(&self) -> String {
        let args: Vec<_> = self.cmd.get_args().map(OsStr::to_string_lossy).collect();
        format!("{args:?}")
    }
}

/// The run the suites that stop, break or resume a run play in their scratch folder:
/// `run e.toml --out r --quiet --no-report --threads N` (append `--resume` and the like).
pub const fn run_e_into_r(threads: &'static str) -> [&'static str; 8] {
    [
        "run",
        "e.toml",
        "--out",
        "r",
        "--quiet",
        "--no-report",
        "--threads",
        threads,
    ]
}

/// A process of the binary that a test talks to while it runs and then stops: started
/// with the stdio its caller chose, waited on until it is ready (a line it prints, a
/// file it makes), sent a signal, and waited for. Dropped while it still runs, it is
/// stopped as a user stops it ([`Running::stop`]: SIGTERM, then SIGKILL past a
/// timeout), so that it cleans up after itself (a server's scratch folder).
pub struct Running {
    child: Option<Child>,
}

/// How long a process may take to end after SIGTERM before it is killed.
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(20);

impl Running {
    /// Starts `command` (a [`TestCommand::std`] with the stdio the test wants).
    pub fn start(command: &mut std::process::Command) -> Running {
        Running {
            child: Some(command.spawn().expect("the binary starts")),
        }
    }

    fn child(&mut self) -> &mut Child {
        self.child.as_mut().expect("still held")
    }

    /// Its process id.
    pub fn id(&self) -> u32 {
        self.child.as_ref().expect("still held").id()
    }

    /// The first `n` lines of its piped stdout (as it prints them when ready); the
    /// rest is read away on a thread of its own, so that it never blocks on a full pipe.
    pub fn first_lines(&mut self, n: usize) -> Vec<String> {
        use std::io::BufRead;
        let stdout = self.child().stdout.take().expect("stdout is piped");
        let mut lines = io::BufReader::new(stdout);
        let mut first = Vec::new();
        for _ in 0..n {
            let mut line = String::new();
            lines.read_line(&mut line).expect("its stdout reads");
            first.push(line);
        }
        std::thread::spawn(move || io::copy(&mut lines, &mut io::sink()));
        first
    }

    /// Waits (polling) until `ready` holds, at most `within`; the panic says `what`
    /// it waited for.
    pub fn wait_until(&self, what: &str, within: std::time::Duration, ready: impl Fn() -> bool) {
        let deadline = std::time::Instant::now() + within;
        while !ready() {
            assert!(
                std::time::Instant::now() < deadline,
                "{what} within {within:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Waits until `path` exists, at most `within`.
    pub fn wait_for_file(&self, path: &Path, within: std::time::Duration) {
        self.wait_until(&format!("{} appears", path.display()), within, || {
            path.exists()
        });
    }

    /// Sends `signal` (`-INT`, `-TERM`, `-KILL`) with kill(1).
    pub fn signal(&self, signal: &str) {
        let status = std::process::Command::new("kill")
            .args([signal, &self.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill {signal} {}", self.id());
    }

    /// Waits for it to end; its exit status and what it wrote to piped stdio.
    pub fn output(mut self) -> Output {
        let child = self.child.take().expect("still held");
        child.wait_with_output().expect("it is waited for")
    }

    /// Waits for it to end.
    pub fn wait(&mut self) -> std::process::ExitStatus {
        self.child().wait().expect("it is waited for")
    }

    /// Stops it as a user would (SIGTERM) and waits; one that has not ended after
    /// [`PATIENCE`] is killed (SIGKILL). Its exit status.
    pub fn stop(&mut self) -> std::process::ExitStatus {
        if let Some(status) = self.child().try_wait().expect("it is looked at") {
            return status;
        }
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.id().to_string()])
            .status();
        let deadline = std::time::Instant::now() + PATIENCE;
        while std::time::Instant::now() < deadline {
            if let Some(status) = self.child().try_wait().expect("it is looked at") {
                return status;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = self.child().kill();
        self.wait()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if self.child.is_some() {
            self.stop();
        }
    }
}

/// A program or facility the test needs is missing (`what`, with how to get it). Under
/// CI (`CI` set, as `.ci/run` and CI services set it) that is a failure: `.ci/run`
/// installs every dependency, so a skip there would hide a broken setup. Elsewhere the
/// caller skips, and the line goes straight to the process's stderr: libtest captures
/// `print!`/`eprint!` but not a direct write, so a plain `cargo test` shows it beside
/// the test's `ok` instead of hiding it behind `--nocapture`.
pub fn missing(what: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{what}: under CI every dependency must be there (.ci/run installs them)"
    );
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED (in part) {test}: {what}");
}

/// Keeps this module the only way in: no other suite file names the binary through
/// cargo or assert_cmd, or makes a temporary folder with tempfile, so a change to how
/// the binary is found or a folder made is one change here.
#[test]
fn every_suite_runs_the_binary_and_makes_folders_through_this_module() {
    let suites = root().join("tests/integration");
    let mut files = vec![suites.clone()];
    let mut offences = Vec::new();
    let mut checked = 0;
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.extension() != Some(OsStr::new("rs")) || path == suites.join("common.rs") {
            continue;
        }
        checked += 1;
        for (number, line) in read(&path).lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue; // prose may name them
            }
            // Spelled apart so that this file's own list is not what it finds.
            for word in [
                concat!("cargo", "_bin"),
                concat!("CARGO_BIN", "_EXE"),
                concat!("assert", "_cmd"),
                concat!("temp", "file"),
                concat!("temp", "dir("),
            ] {
                if line.contains(word) {
                    offences.push(format!("{}:{}: {word}", path.display(), number + 1));
                }
            }
        }
    }
    assert!(
        checked > 20,
        "found only {checked} suites under {}",
        suites.display()
    );
    assert!(
        offences.is_empty(),
        "run the binary with common::reversi_lab/in_dir/Dir::command and make folders \
         with common::Dir:\n{}",
        offences.join("\n")
    );
}
