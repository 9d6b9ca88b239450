//! Where `label`'s positions go: a resumable work file (`FILE.partial`, with its
//! checkpoint beside the file, under the output's lock) that takes the output's place
//! once finished, so that `--force` keeps the old file until then; or a stream (a
//! device, a FIFO), written in one go with nothing to resume.

use super::checkpoint::Checkpoint;
use super::{LabelOptions, Seen};
use crate::error::{Error, Result};
use crate::lab::folder::{put_in_place, FORCE, OUT};
use crate::lab::positions::{Labelled, Reader, Writer};
use crate::setting::Said;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where labelled records are appended.
pub(super) trait Sink {
    /// Appends one record.
    fn push(&mut self, record: &Labelled) -> Result<()>;
    /// Makes what was pushed durable, `games` games being done.
    fn commit(&mut self, games: u64) -> Result<()>;
    /// Records written, counting those pushed.
    fn records(&self) -> u64;
}

/// The work file of a resumable run and its checkpoint.
pub(super) struct WorkFile {
    writer: Writer,
    checkpoint: Checkpoint,
    /// The output file (a link's target): the checkpoint is named after it.
    target: PathBuf,
}

impl Sink for WorkFile {
    fn push(&mut self, record: &Labelled) -> Result<()> {
        self.writer.push(record)
    }

    fn commit(&mut self, games: u64) -> Result<()> {
        self.writer.sync()?;
        self.checkpoint.games = games;
        self.checkpoint.records = self.writer.records();
        self.checkpoint.save(&self.target)
    }

    fn records(&self) -> u64 {
        self.writer.records()
    }
}

/// A device or FIFO written straight through.
pub(super) struct Stream<'w> {
    pub out: &'w mut dyn Write,
    pub path: &'w Path,
    pub records: u64,
}

impl Sink for Stream<'_> {
    fn push(&mut self, record: &Labelled) -> Result<()> {
        self.records += 1;
        (self.out.write_all(&record.encode())).map_err(|e| Error::io(self.path, e))
    }

    fn commit(&mut self, _games: u64) -> Result<()> {
        self.out.flush().map_err(|e| Error::io(self.path, e))
    }

    fn records(&self) -> u64 {
        self.records
    }
}

/// Opens the work file `work` of the output `target` (whose lock is held): afresh,
/// or resumed from its checkpoint (the positions already written are remembered, so
/// that none is labelled twice). Returns it, the games already done and those positions.
pub(super) fn open(
    options: &LabelOptions<'_>,
    wanted: &Checkpoint,
    target: &Path,
    work: &Path,
) -> Result<(WorkFile, u64, Seen)> {
    let out = &options.out;
    let found = if options.force {
        None
    } else {
        Checkpoint::load(target)?
    };
    if let Some(found) = found.clone().filter(|f| f.records > 0) {
        found.check_same(wanted, out)?;
        if !work.exists() {
            return Err(Error::said(
                Said::text(format!(
                    "the checkpoint beside {} counts {} positions, but {} that held them is gone: pass ",
                    out.display(),
                    found.records,
                    work.display()
                ))
                .name(&FORCE)
                .then(" to label again"),
            ));
        }
        let (writer, _) = Writer::resume(work, Some(found.records))?;
        let mut seen = HashSet::new();
        for record in Reader::open(work)? {
            let record = record?;
            seen.insert((record.player, record.opponent));
        }
        let games = found.games;
        let file = WorkFile {
            writer,
            checkpoint: found,
            target: target.to_path_buf(),
        };
        return Ok((file, games, seen));
    }
    if found.is_none() && !options.force && target.exists() {
        return Err(Error::said(
            Said::text(format!(
                "{} exists and is finished (it has no checkpoint to resume): pass ",
                out.display()
            ))
            .name(&FORCE)
            .then(" to label again, or give another ")
            .name(&OUT),
        ));
    }
    // The checkpoint first: a kill before the first batch is on disk (the header
    // perhaps half written) leaves a checkpoint of no records, which the next run
    // starts afresh from. The old output, if any, stays until the new one is finished.
    wanted.save(target)?;
    remove_if_there(work)?;
    let mut writer = Writer::create(work)?;
    writer.sync()?;
    let file = WorkFile {
        writer,
        checkpoint: wanted.clone(),
        target: target.to_path_buf(),
    };
    Ok((file, 0, HashSet::new()))
}

/// Puts the finished work file in the output's place, then drops the checkpoint.
pub(super) fn finish(file: WorkFile, work: &Path, out: &Path) -> Result<()> {
    let WorkFile { writer, target, .. } = file;
    drop(writer);
    put_in_place(work, &target, out)?;
    Checkpoint::remove(&target)
}

fn remove_if_there(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io_during("remove", path, e)),
    }
}
