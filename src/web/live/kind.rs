//! What kind of results folder a folder is, and a file's identity (a games file
//! replaced by a resume or a merge is another file).

use crate::lab::rows::RunToml;
use crate::lab::{Experiment, RecordKind};
use std::path::Path;

#[cfg(unix)]
pub fn identity(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
pub fn identity(_: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// A comparison's folder: its table, as the comparison declares it.
pub fn is_compare_folder(dir: &Path) -> bool {
    dir.join(crate::studies::compare::COMPARE_FILES[0])
        .is_file()
}

/// The kind of a results folder: a tune or a comparison by their files, a run by its
/// record (an import, a shard, a merge) and by the study whose results it holds (as
/// the report's list of studies tells them), else its format.
pub fn kind_of(dir: &Path, record: Option<&RunToml>, experiment: Option<&Experiment>) -> String {
    if crate::studies::tune::report::is_tune_folder(dir) {
        return "tune".into();
    }
    let Some(record) = record else {
        return if is_compare_folder(dir) {
            "compare".into()
        } else {
            "results".into()
        };
    };
    let study = crate::report::RUN_STUDIES
        .iter()
        .find(|study| study.is_yours(dir))
        .map(|study| study.name());
    let format = experiment
        .and_then(|e| serde_json::to_value(e.format).ok())
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "run".into());
    match (record.kind(), study) {
        (RecordKind::Import, _) => "import".into(),
        (RecordKind::Shard(shard), _) => format!("shard {shard}"),
        (RecordKind::Run, Some(name)) => name.into(),
        (RecordKind::Run, None) if experiment.is_some_and(|e| e.sprt.is_some()) => "sprt".into(),
        (RecordKind::Run, None) if record.run.merged_from.is_some() => {
            format!("{format} (merged)")
        }
        (RecordKind::Run, None) => format,
    }
}
