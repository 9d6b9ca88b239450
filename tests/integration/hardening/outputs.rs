//! Outputs a user names: never the command's own input, special files written in
//! place, bad paths refused in the project's words, a full standard output or disk
//! said in one line naming the file, and options written into recipes checked.

use super::SMALL;
use crate::common::{in_dir, refused_in, run_in, Dir};
use std::fs;
use std::path::Path;
/// A small finished run in `d/name` (8x8, standard rules), for the output tests below.
fn small_run(d: &Path, name: &str) {
    fs::write(d.join("small.toml"), SMALL).unwrap();
    let args = [
        "run",
        "small.toml",
        "--out",
        name,
        "--threads",
        "1",
        "--quiet",
        "--no-report",
    ];
    let (code, _, stderr) = run_in(d, &args);
    assert_eq!(code, 0, "{stderr}");
}

/// An output that is the command's own input is refused, even with --force and
/// through a link, and the input is left as it was.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = Dir::new();
    let d = dir.path();
    small_run(d, "run1");
    let games = fs::read(d.join("run1/games.csv")).unwrap();
    std::os::unix::fs::symlink("run1/games.csv", d.join("alias.csv")).unwrap();
    let reads = "is a file this command reads";
    for args in [
        &[
            "export",
            "run1",
            "--format",
            "ggf",
            "--out",
            "run1/games.csv",
            "--force",
        ][..],
        &[
            "export",
            "run1",
            "--format",
            "csv-moves",
            "--out",
            "alias.csv",
            "--force",
        ],
        &[
            "export",
            "run1",
            "--format",
            "ggf",
            "--out",
            "run1/run.toml",
            "--force",
        ],
        &["fit-patterns", "run1", "--out", "run1/games.csv", "--force"],
        &[
            "replay",
            "run1",
            "--game",
            "0",
            "--out",
            "run1/games.csv",
            "--force",
        ],
    ] {
        refused_in(d, args, reads);
        assert_eq!(
            fs::read(d.join("run1/games.csv")).unwrap(),
            games,
            "{args:?}"
        );
    }
    // A shard's own folder (or one inside it) as merge's output.
    for shard in ["1/2", "2/2"] {
        let args = [
            "run",
            "small.toml",
            "--shard",
            shard,
            "--threads",
            "1",
            "--quiet",
        ];
        let (code, _, stderr) = run_in(d, &args);
        assert_eq!(code, 0, "{stderr}");
    }
    let shard = d.join("results/small/shards/1-of-2");
    let before: Vec<_> = fs::read_dir(&shard)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let shard_games = fs::read(shard.join("games.csv")).unwrap();
    for out in [
        "results/small/shards/1-of-2",
        "results/small/shards/1-of-2/sub",
    ] {
        let args = ["merge", "results/small", "--out", out, "--force", "--quiet"];
        refused_in(d, &args, "the shard folder results/small/shards/1-of-2");
        let after: Vec<_> = fs::read_dir(&shard)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(before.len(), after.len(), "{out}: {after:?}");
        assert_eq!(fs::read(shard.join("games.csv")).unwrap(), shard_games);
    }
    // The default output, the folder holding shards/, is still fine.
    let (code, _, stderr) = run_in(d, &["merge", "results/small", "--quiet", "--no-report"]);
    assert_eq!(code, 0, "{stderr}");
}

/// Only an absent or regular file is replaced through a temporary file: a FIFO is
/// written into and stays a FIFO, a symbolic link stays a link and its target is
/// written.
#[test]
fn special_outputs_are_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let dir = Dir::new();
    let d = dir.path();
    small_run(d, "run1");
    let fifo = d.join("f.ggf");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    let args = [
        "export", "run1", "--format", "ggf", "--out", "f.ggf", "--force",
    ];
    let (code, _, stderr) = run_in(d, &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(reader.join().unwrap().starts_with("(;GM[Othello]"));
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    // A link to a regular file: the target is replaced whole, the link stays.
    fs::write(d.join("real.ggf"), "old").unwrap();
    std::os::unix::fs::symlink("real.ggf", d.join("link.ggf")).unwrap();
    let args = [
        "export", "run1", "--format", "ggf", "--out", "link.ggf", "--force",
    ];
    let (code, _, stderr) = run_in(d, &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(fs::symlink_metadata(d.join("link.ggf"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(fs::read_to_string(d.join("real.ggf"))
        .unwrap()
        .starts_with("(;GM[Othello]"));
    assert!(!d.join("real.ggf.partial").exists());
    // The same for a drawing (written by the report's code) and for fit-patterns.
    fs::write(d.join("real.svg"), "old").unwrap();
    std::os::unix::fs::symlink("real.svg", d.join("link.svg")).unwrap();
    let args = ["replay", "--moves", "f5d6", "--out", "link.svg", "--force"];
    let (code, _, stderr) = run_in(d, &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(fs::symlink_metadata(d.join("link.svg"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(fs::read_to_string(d.join("real.svg"))
        .unwrap()
        .contains("<svg"));
}

/// An output path that cannot be written is the user's to change: exit 2 and the
/// project's words, before any work is done.
#[test]
fn bad_output_paths_are_input_errors() {
    let dir = Dir::new();
    let d = dir.path();
    small_run(d, "run1");
    fs::write(d.join("exists.txt"), "kept").unwrap();
    fs::create_dir(d.join("emptydir")).unwrap();
    fs::create_dir(d.join("d.svg")).unwrap();
    let missing = "the folder nope does not exist; create it first, or write elsewhere";
    for (args, needle) in [
        (
            &["export", "run1", "--format", "ggf", "--out", "nope/x.ggf"][..],
            missing,
        ),
        (
            &["replay", "--moves", "f5d6", "--out", "nope/g.svg"],
            missing,
        ),
        (&["fit-patterns", "run1", "--out", "nope/w.bin"], missing),
        (
            &["analyze", "run1", "--endgame", "4", "--out", "exists.txt"],
            "exists.txt is a file, not a folder",
        ),
        (
            &["replay", "--moves", "f5d6", "--out", "d.svg", "--force"],
            "d.svg is a folder: choose a file",
        ),
        (
            &[
                "openings", "--plies", "2", "--eval", "greedy", "--within", "1", "--out",
                "emptydir", "--force",
            ],
            "emptydir is a folder: choose a file",
        ),
        (
            &["fit-patterns", "run1", "--out", "emptydir", "--force"],
            "emptydir is a folder: choose a file",
        ),
        (
            &[
                "export",
                "run1",
                "--format",
                "ggf",
                "--out",
                "exists.txt/x.ggf",
            ],
            "exists.txt is a file, not a folder",
        ),
    ] {
        refused_in(d, args, needle);
    }
    assert_eq!(fs::read_to_string(d.join("exists.txt")).unwrap(), "kept");
    assert!(!d.join("nope").exists());
    // A folder where a resumed run's games.csv should be.
    small_run(d, "gamesdir");
    fs::remove_file(d.join("gamesdir/games.csv")).unwrap();
    fs::create_dir(d.join("gamesdir/games.csv")).unwrap();
    refused_in(
        d,
        &[
            "run",
            "--resume",
            "--out",
            "gamesdir",
            "--quiet",
            "--no-report",
        ],
        "gamesdir/games.csv is a folder, not a games file",
    );
}

/// A standard output that cannot be written (a full disk) is an error, said once.
#[test]
fn a_full_standard_output_is_an_error() {
    let dir = Dir::new();
    let d = dir.path();
    let obf = "XOOOOOOOXXOXOOXXXOXOOXXXXOOXOXOOXXOXXXO-OOOXOX-O-XO-OOO-X---O-X- X\n";
    fs::write(d.join("good.obf"), obf).unwrap();
    for args in [
        &["strategies"][..],
        &["strategies", "--format", "json"],
        &["solve", "good.obf", "--threads", "1"],
        &["match", "greedy", "random", "--games", "2"],
        &["perft", "3"],
        &["show"],
    ] {
        // Opened for writing only (as a shell's `> /dev/full` does): the device stays.
        let full = fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = in_dir(d)
            .args(args)
            .std()
            .stdout(std::process::Stdio::from(full))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(
            stderr.trim_end(),
            "error: cannot write standard output: No space left on device (os error 28)",
            "{args:?}"
        );
    }
}

/// A write that fails (a full disk) names the file being written.
#[test]
fn a_failed_export_names_its_file() {
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::from_raw_os_error(28))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let dir = Dir::new();
    let d = dir.path();
    small_run(d, "run1");
    use reversi_lab::lab::export::{export, Format};
    let err = export(
        &d.join("run1"),
        Format::CsvMoves,
        &mut Full,
        Path::new("x.csv"),
    )
    .unwrap_err();
    assert_eq!(err.exit_code(), 1);
    assert_eq!(
        err.to_string(),
        "cannot write x.csv: No space left on device (os error 28)"
    );
}

/// `cluster` options written into scripts and manifests are checked first, and a
/// refusal leaves no recipe folder.
#[test]
fn cluster_options_are_checked() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("small.toml"), SMALL).unwrap();
    let slurm = ["cluster", "slurm", "small.toml", "--shards", "2"];
    let k8s = ["cluster", "kubernetes", "small.toml", "--shards", "2"];
    let time = "is not a Slurm time limit: use MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS";
    for (base, extra, needle) in [
        (&slurm[..], &["--time", ""][..], time),
        (&slurm, &["--time", "two hours"], time),
        (&slurm, &["--time", "1-"], time),
        (
            &slurm,
            &["--partition", "a b;rm -rf /"],
            "--partition \"a b;rm -rf /\" has whitespace",
        ),
        (
            &slurm,
            &["--partition", "a;b"],
            "--partition \"a;b\" has ';'",
        ),
        (&slurm, &["--partition", ""], "--partition \"\" is empty"),
        (&k8s, &["--image", ""], "--image \"\" is empty"),
        (
            &k8s,
            &["--image", "my image:latest"],
            "--image \"my image:latest\" has whitespace",
        ),
        (
            &k8s,
            &["--image", "x", "--claim", ""],
            "--claim \"\" is empty",
        ),
        (
            &k8s,
            &["--image", "x", "--claim", "a$b"],
            "--claim \"a$b\" has '$'",
        ),
        (
            &k8s,
            &["--image", "x", "--parallelism", "0"],
            "--parallelism 0: run at least 1 pod",
        ),
    ] {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        refused_in(d, &args, needle);
        assert!(!d.join("results").exists(), "{args:?}");
    }
    for (base, extra) in [
        (
            &slurm[..],
            &["--time", "1-2:00:00", "--partition", "gpu"][..],
        ),
        (&slurm, &["--time", "90"]),
        (
            &k8s,
            &[
                "--image",
                "ghcr.io/x/reversi-lab:1.0",
                "--claim",
                "results-pvc",
            ],
        ),
    ] {
        let args: Vec<&str> = base
            .iter()
            .chain(extra)
            .chain(&["--force"])
            .copied()
            .collect();
        let (code, _, stderr) = run_in(d, &args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
    }
}

/// `perft --kernel` names a kernel only the 8x8 board has: on another size it is
/// refused rather than silently replaced by the portable code.
#[test]
fn perft_kernels_off_8x8_are_refused() {
    let dir = Dir::new();
    let d = dir.path();
    let ten = format!("{}{} X", "-".repeat(42), "XO".repeat(29));
    fs::write(d.join("ten.obf"), ten).unwrap();
    refused_in(
        d,
        &["perft", "2", "--kernel", "carry", "--size", "6"],
        "--kernel carry: only the 8x8 board has the carry kernel (this board is 6x6)",
    );
    refused_in(
        d,
        &["perft", "2", "--position", "ten.obf", "--kernel", "carry"],
        "this board is 10x10",
    );
    let (code, stdout, stderr) = run_in(d, &["perft", "2", "--size", "6", "--kernel", "portable"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("portable flips"), "{stdout}");
}

/// The one write path, command by command: every command that writes a file a user
/// names refuses an existing one without `--force` (leaving it as it was), and with
/// `--force` writes through a symbolic link (the link stays, its target is replaced
/// whole, no `.partial` is left) and into a FIFO in place. A full disk is the
/// `disk_full` suite's.
#[test]
fn every_named_output_goes_through_the_one_write_path() {
    use std::os::unix::fs::FileTypeExt;
    let dir = Dir::new();
    let d = dir.path();
    small_run(d, "run1");
    // (the command line before its output, the output's flag, the output's extension)
    let commands: [(&[&str], &str, &str); 4] = [
        (&["export", "run1", "--format", "ggf"], "--out", "ggf"),
        (&["replay", "--moves", "f5d6"], "--out", "svg"),
        (&["fit-patterns", "run1"], "--out", "bin"),
        (
            &[
                "label",
                "run1",
                "--depth",
                "1",
                "--exact",
                "4",
                "--threads",
                "1",
            ],
            "--out",
            "bin",
        ),
    ];
    for (i, (command, flag, extension)) in commands.iter().enumerate() {
        let name = |what: &str| format!("{what}{i}.{extension}");
        let with = |out: &str, force: bool| {
            let mut args = command.to_vec();
            args.extend([*flag, out]);
            if force {
                args.push("--force");
            }
            args.into_iter().map(String::from).collect::<Vec<_>>()
        };
        let call = |args: &[String]| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            run_in(d, &args)
        };
        // An existing file: refused without --force, and kept.
        fs::write(d.join(name("old")), "old").unwrap();
        let (code, _, stderr) = call(&with(&name("old"), false));
        assert_eq!(code, 2, "{command:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{command:?}: {stderr}");
        assert!(stderr.contains("--force"), "{command:?}: {stderr}");
        assert_eq!(fs::read_to_string(d.join(name("old"))).unwrap(), "old");
        // A link to a regular file: the target is replaced whole, the link stays.
        fs::write(d.join(name("real")), "old").unwrap();
        std::os::unix::fs::symlink(name("real"), d.join(name("link"))).unwrap();
        let (code, _, stderr) = call(&with(&name("link"), true));
        assert_eq!(code, 0, "{command:?}: {stderr}");
        let link = fs::symlink_metadata(d.join(name("link"))).unwrap();
        assert!(link.file_type().is_symlink(), "{command:?}");
        let written = fs::read(d.join(name("real"))).unwrap();
        assert!(written != b"old" && !written.is_empty(), "{command:?}");
        assert!(
            !d.join(format!("{}.partial", name("real"))).exists(),
            "{command:?}"
        );
        // A FIFO: written in place, and still a FIFO.
        let fifo = d.join(name("fifo"));
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        let (code, _, stderr) = call(&with(&name("fifo"), true));
        assert_eq!(code, 0, "{command:?}: {stderr}");
        assert!(!reader.join().unwrap().is_empty(), "{command:?}");
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }
}
