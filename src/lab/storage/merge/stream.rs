//! The merge's stream: the shards' games copied back into game order as parsed
//! fields, each checked against the schedule and counted, in constant memory.

use super::*;

/// Where the columns `merge` checks sit in a `games.csv` row.
struct Columns {
    game_id: usize,
    pair_id: usize,
    black: usize,
    white: usize,
    margin: usize,
    seed: usize,
}

impl Columns {
    fn of(header: &csv::ByteRecord) -> Self {
        let at = |name: &str| {
            header
                .iter()
                .position(|h| h == name.as_bytes())
                .expect("GameRow has the column")
        };
        Columns {
            game_id: at("game_id"),
            pair_id: at("pair_id"),
            black: at("black"),
            white: at("white"),
            margin: at("margin"),
            seed: at("seed"),
        }
    }
}

/// A number in a CSV field.
fn number<T: std::str::FromStr>(record: &csv::ByteRecord, index: usize) -> Option<T> {
    std::str::from_utf8(record.get(index)?).ok()?.parse().ok()
}

/// Streams the shards' games in game order into `path`, checking each against the
/// schedule and counting it; stops where an SPRT would have stopped one machine.
/// Rows are copied as parsed fields, never re-formatted from numbers, so the merge
/// runs near disk speed in constant memory. Returns the games written, the games
/// the shards hold, and the tallies.
pub(super) fn stream(
    parts: &[Part],
    experiment: &Experiment,
    schedule: &Schedule,
    path: &Path,
    quiet: bool,
) -> Result<(u64, u64, Tallies)> {
    let count = parts[0].shard.count();
    let header_line = csv_header::<GameRow>();
    let header = csv::Reader::from_reader(header_line.as_slice())
        .byte_headers()
        .expect("the header parses")
        .clone();
    let columns = Columns::of(&header);
    let mut readers = parts
        .iter()
        .map(|p| {
            let (file, _) = games_file::find(&p.dir).ok_or_else(|| {
                rerun_with_force(format!(
                    "shard {} ({}) has no games.csv: rerun that shard with ",
                    p.shard,
                    p.dir.display()
                ))
            })?;
            let mut reader = csv::Reader::from_reader(games_file::Hashing::new(
                games_file::reader(&file)?,
            ));
            if reader.byte_headers().ok() != Some(&header) {
                return Err(rerun_with_force(format!(
                    "shard {} ({}): games.csv has other columns than this reversi-lab writes: rerun that shard with ",
                    p.shard,
                    file.display()
                )));
            }
            Ok((reader, file))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut out = GamesWriter::whole(path, experiment.compress)?;
    out.write_all(&header_line)
        .map_err(|e| Error::io(path, e))?;
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(out);
    let names: Vec<&[u8]> = experiment
        .players
        .iter()
        .map(|p| p.name.as_bytes())
        .collect();
    let total = schedule.total();
    let progress = Progress::new(total, 0, quiet, "games");
    let mut tallies = Tallies::new(schedule.pairs().len());
    let mut record = csv::ByteRecord::new();
    let mut written = total;
    for game in 0..total {
        let owner = (Shard::owner(count, game) - 1) as usize;
        let (reader, file) = &mut readers[owner];
        let shard = parts[owner].shard;
        let bad = |what: String| {
            rerun_with_force(format!(
                "shard {shard} ({}): {what}: rerun that shard with ",
                file.display()
            ))
        };
        match reader.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => {
                return Err(bad(format!(
                    "games.csv ends before game {game} (it was truncated)"
                )))
            }
            Err(e) => {
                let line = e.position().map_or(0, csv::Position::line);
                return Err(bad(format!(
                    "line {line} of games.csv is cut or damaged (the shard was killed while writing?)"
                )));
            }
        }
        let slot = schedule.slot(game);
        let [black, white] = schedule.seats(slot).map(|i| names[i]);
        let margin = number::<i32>(&record, columns.margin);
        let fits = number::<u64>(&record, columns.game_id) == Some(game)
            && number::<u64>(&record, columns.pair_id) == Some(slot.pair)
            && record.get(columns.black) == Some(black)
            && record.get(columns.white) == Some(white)
            && number::<u64>(&record, columns.seed) == Some(schedule.seed(slot));
        let (true, Some(margin)) = (fits, margin) else {
            let id = record.get(columns.game_id).unwrap_or_default();
            return Err(bad(format!(
                "game {} is not the experiment's game {game} (was games.csv changed?)",
                String::from_utf8_lossy(id)
            )));
        };
        writer
            .write_byte_record(&record)
            .map_err(|e| Error::csv("write", path, e))?;
        if game % 4096 == 4095 {
            progress.advance(4096);
        }
        if tallies.record_game(experiment, slot, margin) {
            written = game + 1;
            break;
        }
    }
    if written == total {
        for (i, (reader, file)) in readers.iter_mut().enumerate() {
            if reader.read_byte_record(&mut record).unwrap_or(true) {
                return Err(rerun_with_force(format!(
                    "shard {} ({}): games.csv has more games than the shard's share: rerun that shard with ",
                    parts[i].shard,
                    file.display()
                )));
            }
        }
    }
    for ((reader, file), part) in readers.into_iter().zip(parts) {
        // Every byte of every shard's games is checked against the digest it recorded
        // when it finished, past an SPRT cut too: an edited field of any row is caught.
        let digest = reader
            .into_inner()
            .finish()
            .map_err(|e| Error::io_during("read", &file, e))?;
        if part.record.run.games_sha256.as_deref() != Some(digest.as_str()) {
            let why = if part.record.run.games_sha256.is_some() {
                "its games differ from those it recorded when it finished (games.csv was edited or damaged)"
            } else {
                "its run.toml records no digest of its games (made by an older reversi-lab, or edited)"
            };
            return Err(rerun_with_force(format!(
                "shard {} ({}): {why}: rerun that shard with ",
                part.shard,
                file.display()
            )));
        }
    }
    progress.finish();
    let out = writer
        .into_inner()
        .map_err(|e| Error::io(path, e.into_error()))?;
    out.finish(path)?;
    Ok((written, total, tallies))
}
