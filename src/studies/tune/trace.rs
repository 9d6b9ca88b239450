//! `trace.csv`: one row per iteration (its result and the parameters after it),
//! appended as the tune goes and read back by `--resume`.

use super::config::Tune;
use crate::error::{Error, Result};
use crate::lab::folder::{FORCE, OUT};
use crate::setting::Said;
use crate::shown::ShowPath;
use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One row of `trace.csv`. Its columns are `iteration`, `result` and then one per
/// tuned parameter, named by the tune, so the header comes from the tune rather
/// than from a derive; numbers are written in Rust's shortest exact form.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceRow {
    /// 1-based iteration (SPSA) or evaluation (CMA-ES).
    pub iteration: u64,
    /// SPSA: theta+ over theta-; CMA-ES: the candidate's score.
    pub result: f64,
    /// The parameters after the iteration (CMA-ES: the candidate).
    pub theta: Vec<f64>,
}

impl Serialize for TraceRow {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(2 + self.theta.len()))?;
        seq.serialize_element(&self.iteration)?;
        seq.serialize_element(&self.result.to_string())?;
        for v in &self.theta {
            seq.serialize_element(&v.to_string())?;
        }
        seq.end()
    }
}

impl TraceRow {
    /// A row read back, or None for a partial row left by a kill.
    fn from_record(record: &csv::StringRecord, params: usize) -> Option<Self> {
        let number = |i: usize| record.get(i).and_then(|v| v.parse::<f64>().ok());
        let theta: Option<Vec<f64>> = (0..params).map(|i| number(2 + i)).collect();
        Some(TraceRow {
            iteration: record.get(0)?.parse().ok()?,
            result: number(1)?,
            theta: theta?,
        })
    }
}

/// The share of the last iterations whose mean parameters are the tuned ones.
pub const TAIL: f64 = 0.1;

/// The tuned parameters: the mean over the last 10% of the rows (at least one),
/// steadier than the final point, which moves with every iteration's noise.
/// None without rows.
#[must_use]
pub fn tail_mean(rows: &[TraceRow]) -> Option<Vec<f64>> {
    let last = rows.last()?;
    let count = ((rows.len() as f64 * TAIL).ceil() as usize).clamp(1, rows.len());
    let tail = &rows[rows.len() - count..];
    Some(
        (0..last.theta.len())
            .map(|i| tail.iter().map(|r| r.theta[i]).sum::<f64>() / count as f64)
            .collect(),
    )
}

/// The complete rows of a trace file (a partial last line, left by a kill, is
/// dropped); an error when its columns are not the tune's or a row is unreadable.
pub fn read(path: &Path, tune: &Tune) -> Result<Vec<TraceRow>> {
    let mut rows = Vec::new();
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| Error::unreadable(path, &std::io::Error::other(e.to_string())))?;
    let headers = reader
        .headers()
        .map_err(|e| Error::input(format!("{}: {e}", path.shown())))?
        .clone();
    if headers.iter().ne(header(tune).iter().map(String::as_str)) {
        return Err(Error::said(
            Said::text(format!(
                "{} was written by a different tune (its columns differ): use ",
                path.shown()
            ))
            .placeholder(&OUT, "DIR")
            .then(" for a new tune"),
        ));
    }
    let records: Vec<_> = reader.records().collect();
    let last = records.len().saturating_sub(1);
    for (i, record) in records.into_iter().enumerate() {
        match record
            .ok()
            .and_then(|r| TraceRow::from_record(&r, tune.params.len()))
        {
            Some(row) => rows.push(row),
            // A kill can leave half a last line: drop it.
            None if i == last => break,
            None => {
                return Err(Error::said(
                    Said::text(format!(
                        "{}: row {} cannot be read (was the file edited?): use ",
                        path.shown(),
                        i + 2
                    ))
                    .name(&FORCE)
                    .then(" or ")
                    .placeholder(&OUT, "DIR")
                    .then(" for a new tune"),
                ))
            }
        }
    }
    Ok(rows)
}

/// How many of the last iterations the tuned values average over: 10% (at least one).
#[must_use]
pub fn tail_count(rows: usize) -> usize {
    ((rows as f64 * TAIL).ceil() as usize).clamp(1, rows.max(1))
}

/// The trace file of a tune, open for appending.
pub struct Trace {
    path: PathBuf,
}

fn header(tune: &Tune) -> Vec<String> {
    let mut h = vec!["iteration".to_string(), "result".to_string()];
    h.extend(tune.params.iter().map(|p| p.name.clone()));
    h
}

fn line(row: &TraceRow) -> Vec<u8> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    writer.serialize(row).expect("a row serialises to memory");
    writer.into_inner().expect("writing to memory cannot fail")
}

impl Trace {
    /// Opens (or starts) `path`: returns the complete rows already there, and
    /// rewrites the file from them so a partial last line is dropped.
    pub fn open(path: &Path, tune: &Tune) -> Result<(Self, Vec<TraceRow>)> {
        let rows = if path.exists() {
            read(path, tune)?
        } else {
            Vec::new()
        };
        let mut text = header(tune).join(",").into_bytes();
        text.push(b'\n');
        for row in &rows {
            text.extend(line(row));
        }
        // Through the one write path, so a failure never leaves half a trace.
        crate::lab::folder::write_atomically(path, text)?;
        Ok((
            Trace {
                path: path.to_path_buf(),
            },
            rows,
        ))
    }

    /// Appends one row.
    pub fn append(&self, row: &TraceRow) -> Result<()> {
        let mut file = crate::lab::folder::append_existing(&self.path)
            .map_err(|e| Error::io(&self.path, e))?;
        file.write_all(&line(row))
            .map_err(|e| Error::io(&self.path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tuned_parameters_are_the_mean_of_the_last_tenth() {
        let rows: Vec<TraceRow> = (1..=25)
            .map(|k| TraceRow {
                iteration: k,
                result: 0.0,
                theta: vec![k as f64, -2.0 * k as f64],
            })
            .collect();
        // 25 rows: the last ceil(2.5) = 3, iterations 23, 24, 25.
        assert_eq!(tail_mean(&rows), Some(vec![24.0, -48.0]));
        assert_eq!(tail_mean(&rows[..1]), Some(vec![1.0, -2.0]));
        assert_eq!(tail_mean(&[]), None);
    }
}
