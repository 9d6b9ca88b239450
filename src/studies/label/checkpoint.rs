//! The checkpoint beside a positions file being written (`FILE.checkpoint`, JSON):
//! how the run was asked for and how far it got, saved after each batch is on disk,
//! so that a rerun of the same command resumes it and a different one is refused.

use super::LabelOptions;
use crate::error::{Error, Result};
use crate::lab::folder::{write_atomically, FORCE};
use crate::setting::Said;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The checkpoint's format version.
const FORMAT: u32 = 1;

/// What a run was asked for and how far it got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    format: u32,
    /// The results folders, as given.
    inputs: Vec<PathBuf>,
    depth: u32,
    exact: u32,
    empties: (u32, u32),
    /// `shipped`, or the SHA-256 of the weights (as fit-patterns encodes them).
    weights: String,
    /// Games whose positions are all in the file.
    pub games: u64,
    /// Records the file holds after those games.
    pub records: u64,
}

/// The SHA-256 of `bytes` in hex.
pub fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn path_of(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".checkpoint");
    PathBuf::from(name)
}

impl Checkpoint {
    /// The checkpoint of a run of `options` that has done nothing yet.
    pub fn new(options: &LabelOptions<'_>, weights: &str) -> Self {
        Checkpoint {
            format: FORMAT,
            inputs: options.inputs.clone(),
            depth: options.depth,
            exact: options.exact,
            empties: options.empties,
            weights: weights.to_string(),
            games: 0,
            records: 0,
        }
    }

    /// The checkpoint beside `out`, if there is one.
    pub fn load(out: &Path) -> Result<Option<Self>> {
        let path = path_of(out);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::unreadable(&path, &e)),
        };
        let found: Checkpoint = serde_json::from_str(&text).map_err(|e| {
            Error::said(
                Said::text(format!(
                    "{} is not a checkpoint `reversi-lab label` wrote ({e}): remove it and pass ",
                    path.display()
                ))
                .name(&FORCE)
                .then(" to label again"),
            )
        })?;
        if found.format != FORMAT {
            return Err(Error::said(
                Said::text(format!(
                    "{} is a checkpoint of format {}, where this build writes {FORMAT}: pass ",
                    path.display(),
                    found.format
                ))
                .name(&FORCE)
                .then(" to label again"),
            ));
        }
        Ok(Some(found))
    }

    /// Refuses to resume a run begun with other inputs or settings than `wanted`'s.
    pub fn check_same(&self, wanted: &Checkpoint, out: &Path) -> Result<()> {
        let mut differences: Vec<Said> = Vec::new();
        if self.inputs != wanted.inputs {
            let list = |v: &[PathBuf]| {
                v.iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            differences.push(Said::text(format!("folders {}", list(&self.inputs))));
        }
        if self.depth != wanted.depth {
            differences.push(Said::default().given(&super::DEPTH, self.depth));
        }
        if self.exact != wanted.exact {
            differences.push(Said::default().given(&super::EXACT, self.exact));
        }
        if self.empties != wanted.empties {
            differences.push(Said::default().given(
                &super::EMPTIES,
                format!("{}-{}", self.empties.0, self.empties.1),
            ));
        }
        if self.weights != wanted.weights {
            differences.push(Said::text(if self.weights == "shipped" {
                "the shipped weights".to_string()
            } else {
                format!("a weights file of SHA-256 {}", self.weights)
            }));
        }
        if differences.is_empty() {
            return Ok(());
        }
        let mut said = Said::text(format!("{} was begun with ", out.display()));
        for (i, difference) in differences.into_iter().enumerate() {
            if i > 0 {
                said = said.then(", ");
            }
            said = said.and(difference);
        }
        Err(Error::said(
            said.then(": rerun with those to resume it, or pass ")
                .name(&FORCE)
                .then(" to label again"),
        ))
    }

    /// Saves it beside `out`, whole or not at all.
    pub fn save(&self, out: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::internal_from("cannot write a checkpoint", e))?;
        write_atomically(&path_of(out), text.as_bytes())
    }

    /// Removes the checkpoint beside `out` (the file is finished), if any.
    pub fn remove(out: &Path) -> Result<()> {
        let path = path_of(out);
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(Error::io_during("remove", &path, e)),
        }
    }
}
