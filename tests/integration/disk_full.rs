//! A disk that fills during a run: exit 1 with one line naming the file and the cause, no
//! lock left behind, and `--resume` (once there is room) finishes the run byte-exact.
//! Needs a small tmpfs, so it runs as root (as CI does) and says so when it cannot.

use crate::common::{reversi_lab, Dir};
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
    let dir = Dir::new();
    let d = dir.path();
    fs::write(d.join("e.toml"), CONFIG).unwrap();
    let small = d.join("small");
    fs::create_dir(&small).unwrap();
    if !mount(&small, "size=256k") {
        crate::common::missing("cannot mount a tmpfs here (needs root)");
        return;
    }
    let _unmount = Unmount(small.clone());
    let run = |out: &Path, resume: bool| {
        let mut cmd = reversi_lab();
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
    if !grown {
        crate::common::missing("cannot remount the tmpfs larger, so the resume half is not tested");
    } else {
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

/// A disk that fills while charts, the report or an animation are written: one line
/// naming the file and the cause, and no partial file left (each is written whole
/// under a temporary name, then renamed), so a retry with room succeeds.
#[test]
fn a_full_disk_while_drawing_leaves_no_partial_file() {
    let dir = Dir::new();
    let d = dir.path();
    let small_run = CONFIG.replace("games_per_pair = 20000", "games_per_pair = 20");
    fs::write(d.join("e.toml"), small_run).unwrap();
    let made = reversi_lab()
        .current_dir(d)
        .args(["run", "e.toml", "--quiet", "--no-report", "--out", "r"])
        .output()
        .unwrap();
    assert!(made.status.success());
    let small = d.join("small");
    fs::create_dir(&small).unwrap();
    if !mount(&small, "size=64k") {
        crate::common::missing("cannot mount a tmpfs here (needs root)");
        return;
    }
    let _unmount = Unmount(small.clone());
    let folder = small.join("r");
    fs::create_dir(&folder).unwrap();
    for entry in fs::read_dir(d.join("r")).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), folder.join(entry.file_name())).unwrap();
    }
    let report = reversi_lab().arg("report").arg(&folder).output().unwrap();
    let stderr = String::from_utf8_lossy(&report.stderr).into_owned();
    assert_eq!(report.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert!(
        !stderr.contains("backend") && !stderr.contains("Custom {"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&small.display().to_string()),
        "names the file: {stderr}"
    );
    let mut left = Vec::new();
    let mut walk = vec![folder.clone()];
    while let Some(dir) = walk.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk.push(path);
            } else {
                left.push(path);
            }
        }
    }
    for path in &left {
        let name = path.display().to_string();
        assert!(
            !name.ends_with(".partial"),
            "a partial file is left: {name}"
        );
        if name.ends_with(".png") {
            let bytes = fs::read(path).unwrap();
            assert!(
                bytes.ends_with(&[0xAE, 0x42, 0x60, 0x82]),
                "{name} is cut short"
            );
        }
    }
    // An animation that does not fit: nothing left under its name.
    let gif = small.join("g.gif");
    let replay = reversi_lab()
        .arg("replay")
        .arg(d.join("r"))
        .args(["--game", "0", "--out"])
        .arg(&gif)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&replay.stderr).into_owned();
    if replay.status.success() {
        eprintln!("the animation fitted in what was left; its half is not tested");
    } else {
        assert_eq!(replay.status.code(), Some(1), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("g.gif") && stderr.contains("No space left"),
            "{stderr}"
        );
        assert!(!gif.exists(), "a partial animation is left");
    }
    // With room again, both succeed (nothing partial blocks them).
    assert!(mount_again(&small));
    assert!(reversi_lab()
        .arg("report")
        .arg(&folder)
        .output()
        .unwrap()
        .status
        .success());
    let again = reversi_lab()
        .arg("replay")
        .arg(d.join("r"))
        .args(["--game", "0", "--force", "--out"])
        .arg(&gif)
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
}
