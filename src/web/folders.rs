//! The results folders under the root: which folders are results folders, found by
//! walking the root (symbolic links are not followed), each with its live state.
//! A folder is recognised by its run record (`lab::ResultsFolder`).

use super::live::Snapshot;
use super::State;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How deep under the root folders are looked for (a tune's runs, a cluster run's shards).
const DEPTH: usize = 4;

/// The root is walked again at most this often (an index asked by many pages).
const RESCAN: std::time::Duration = std::time::Duration::from_secs(1);

/// At most this many folders are listed (the newest).
const MOST: usize = 2000;

/// A results folder in the index.
pub struct Listed {
    /// Its path under the root, `/` between parts.
    pub rel: String,
    pub snapshot: Arc<Snapshot>,
}

/// Whether `dir` holds results: a run's (or its games alone), a tune's or a
/// comparison's.
pub fn is_results_folder(dir: &Path) -> bool {
    crate::lab::ResultsFolder::at(dir).kind().is_some() || super::live::is_compare_folder(dir)
}

/// The shard folders of a cluster run held in `dir/shards/` (each `I-of-N`, a run's
/// folder of its own), in order.
pub fn shard_folders(dir: &Path) -> Vec<PathBuf> {
    let shards = crate::lab::ResultsFolder::at(dir).path(crate::lab::FolderFile::Shards);
    let Ok(entries) = std::fs::read_dir(&shards) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|p| crate::lab::ResultsFolder::at(p).has(crate::lab::FolderFile::RunRecord))
        .collect();
    // 2-of-10 before 10-of-10: by the shard's number, then the name.
    found.sort_by_key(|p| {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let number = name.split('-').next().and_then(|n| n.parse::<u64>().ok());
        (number, name)
    });
    found
}

/// A cluster run's state from its shards' states: kind `cluster run (N shards)`, the
/// games, totals and rates added up, `running` while any shard runs.
pub fn combined(shards: &[Arc<Snapshot>], missing: usize) -> Snapshot {
    let any = |status: &str| shards.iter().any(|s| s.status == status);
    let status = if any("running") {
        "running".to_string()
    } else if missing > 0 {
        // Shards never played (or moved away): the run is not whole, whatever the
        // others say, and its total is unknown.
        format!(
            "incomplete: {missing} shard{} missing",
            if missing == 1 { "" } else { "s" }
        )
    } else if shards.iter().all(|s| s.status == "complete") {
        "complete".to_string()
    } else if shards
        .iter()
        .all(|s| s.status.starts_with("sprt-accepted") || s.status == "complete")
    {
        "stopped by the SPRT".to_string()
    } else {
        "interrupted".to_string()
    };
    let totals: Option<Vec<u64>> = if missing > 0 {
        None
    } else {
        shards.iter().map(|s| s.total).collect()
    };
    let rates: Vec<f64> = shards
        .iter()
        .filter(|s| s.status == "running")
        .filter_map(|s| s.rate)
        .collect();
    Snapshot {
        version: shards.iter().map(|s| s.version).sum(),
        kind: if missing > 0 {
            format!(
                "cluster run ({} of {} shards)",
                shards.len(),
                shards.len() + missing
            )
        } else {
            format!("cluster run ({} shards)", shards.len())
        },
        status,
        games: shards.iter().map(|s| s.games).sum(),
        total: totals.map(|t| t.iter().sum()),
        rate: (!rates.is_empty()).then(|| rates.iter().sum()),
        modified: shards.iter().filter_map(|s| s.modified).max(),
        ..Snapshot::default()
    }
}

/// How many shards of `dir`'s cluster run are missing from its `shards/` folder.
pub fn missing_shards(dir: &Path) -> usize {
    crate::lab::shard::Unmerged::find(dir).map_or(0, |u| u.missing().len())
}

/// The live state of each shard of `dir`'s cluster run, with its path under the root.
pub fn shards_of(state: &State, dir: &Path) -> Vec<Listed> {
    shard_folders(dir)
        .into_iter()
        .filter(|shard| super::paths::files_inside(&state.root, shard, "").is_ok())
        .filter_map(|shard| {
            Some(Listed {
                rel: super::paths::relative(&state.root, &shard),
                snapshot: super::tail_of(state, &shard).ok()?,
            })
        })
        .collect()
}

/// Every results folder under the root, newest first.
pub fn scan(root: &Path, state: &State) -> Vec<Listed> {
    let found = {
        let mut listing = state
            .listing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match &*listing {
            Some((at, found)) if at.elapsed() < RESCAN => found.clone(),
            _ => {
                let mut found = Vec::new();
                walk(root, 0, &mut found);
                *listing = Some((std::time::Instant::now(), found.clone()));
                found
            }
        }
    };
    let mut listed: Vec<Listed> = found
        .into_iter()
        .filter_map(|dir| {
            let snapshot = if is_results_folder(&dir) {
                super::paths::files_inside(root, &dir, "").ok()?;
                super::tail_of(state, &dir).ok()?
            } else {
                let shards: Vec<_> = shards_of(state, &dir)
                    .into_iter()
                    .map(|l| l.snapshot)
                    .collect();
                Arc::new(combined(&shards, missing_shards(&dir)))
            };
            Some(Listed {
                rel: super::paths::relative(root, &dir),
                snapshot,
            })
        })
        .collect();
    listed.sort_by(|a, b| {
        b.snapshot
            .modified
            .cmp(&a.snapshot.modified)
            .then_with(|| a.rel.cmp(&b.rel))
    });
    listed.truncate(MOST);
    listed
}

fn walk(dir: &Path, depth: usize, found: &mut Vec<PathBuf>) {
    if depth > 0 && (is_results_folder(dir) || !shard_folders(dir).is_empty()) {
        found.push(dir.to_path_buf());
    } else if depth == 0 && is_results_folder(dir) {
        // The root itself is one results folder.
        found.push(dir.to_path_buf());
        return;
    }
    if depth >= DEPTH || found.len() >= MOST {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        // file_type does not follow links: a link out of the root is never entered.
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n != "charts" && !n.to_string_lossy().starts_with('.'))
        })
        .collect();
    dirs.sort();
    for sub in dirs {
        walk(&sub, depth + 1, found);
    }
}
