//! The results folders under the root: which folders are results folders, found by
//! walking the root (symbolic links are not followed), each with its live state.
//! A folder is recognised by its run record (`lab::ResultsFolder`).

use super::live::Snapshot;
use super::State;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How deep under the root folders are looked for (a tune's runs, a cluster run's shards).
const DEPTH: usize = 4;

/// At most this many folders are listed (the newest).
const MOST: usize = 2000;

/// A results folder in the index.
pub struct Listed {
    /// Its path under the root, `/` between parts.
    pub rel: String,
    pub snapshot: Arc<Snapshot>,
}

/// Whether `dir` holds results: a run's, a tune's or a comparison's.
pub fn is_results_folder(dir: &Path) -> bool {
    crate::lab::ResultsFolder::at(dir).has(crate::lab::FolderFile::RunRecord)
        || crate::studies::tune::report::is_tune_folder(dir)
        || dir.join("compare.csv").is_file()
}

/// Every results folder under the root, newest first.
pub fn scan(root: &Path, state: &State) -> Vec<Listed> {
    let mut found = Vec::new();
    walk(root, 0, &mut found);
    let mut listed: Vec<Listed> = found
        .into_iter()
        .filter_map(|dir| {
            let snapshot = super::tail_of(state, &dir).ok()?;
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
    if depth > 0 && is_results_folder(dir) {
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
