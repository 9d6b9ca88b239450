//! A disk that fills during a run: exit 1 with one line naming the file and the cause, no
//! lock left behind, and `--resume` (once there is room) finishes the run byte-exact.
//! Needs a small tmpfs, so it runs as root (as CI does) and says so when it cannot.

use assert_cmd::Command;
use std::fs;
use std::path::Path;
use std::process::Command as Shell;

const CONFIG: &str = "name = \"full\"\nseed = 4\ngames_per_pair = 20000\n[[players]]\nname = \"g\"\nstrategy = \"greedy\"\n[[players]]\nname = \"r\"\nstrategy = \"random\"\n";

fn mount(dir: &Path, options: &str) -> bool {
    Shell::new("mount")
        .args(["-t", "tmpfs", "-o", options, "tmpfs"])
        .arg(dir)
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_full_disk_stops_the_run_cleanly_and_resume_finishes_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("e.toml"), CONFIG).unwrap();
    let small = d.join("small");
    fs::create_dir(&small).unwrap();
    if !mount(&small, "size=256k") {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return;
    }
    let _unmount = Unmount(small.clone());
    let run = |out: &Path, resume: bool| {
        let mut cmd = Command::cargo_bin("reversi-lab").unwrap();
        cmd.current_dir(d)
            .args(["run", "e.toml", "--quiet", "--no-report", "--out"])
            .arg(out);
        if resume {
            cmd.arg("--resume");
        }
        cmd.output().unwrap()
    };
    let out = small.join("r");
    let full = run(&out, false);
    let stderr = String::from_utf8_lossy(&full.stderr).into_owned();
    let grown = mount_again(&small);
    assert_eq!(full.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("games.csv") && stderr.contains("No space left on device"),
        "{stderr}"
    );
    assert!(!out.join("run.lock").exists(), "the lock is released");
    if grown {
        let done = run(&out, true);
        assert!(
            done.status.success(),
            "{}",
            String::from_utf8_lossy(&done.stderr)
        );
        let reference = d.join("reference");
        assert!(run(&reference, false).status.success());
        assert!(
            fs::read(out.join("games.csv")).unwrap()
                == fs::read(reference.join("games.csv")).unwrap(),
            "resume after a full disk is byte-exact"
        );
    }
}

/// Unmounts the tmpfs however the test ends.
struct Unmount(std::path::PathBuf);

impl Drop for Unmount {
    fn drop(&mut self) {
        let _ = Shell::new("umount").arg(&self.0).status();
    }
}

/// Gives the tmpfs room again (a remount keeps its files).
fn mount_again(dir: &Path) -> bool {
    Shell::new("mount")
        .args(["-o", "remount,size=64m"])
        .arg(dir)
        .status()
        .is_ok_and(|s| s.success())
}
