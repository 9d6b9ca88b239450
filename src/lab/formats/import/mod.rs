//! `reversi-lab import`: games from outside turned into a results folder, so that every
//! study of games (`analyze`, `replay`, `export`, `fit-patterns`) works on them. Reads
//! WTHOR game files ([`wthor`], with the players' and tournaments' names if given) and
//! GGF ([`super::export::ggf`]); every game is replayed, its result is the replay's and
//! is checked against the one the file records.
//!
//! The folder holds `games.csv` (written by the runner's own row writer), `imported.csv`
//! (each game's file, number there, tournament and recorded result) and `run.toml`,
//! whose `[import]` says where the games came from. Imported players are people or
//! programs, not strategies: `run.toml` records their names, and the commands that
//! need strategies (`run --resume`, `report`, `compare`) refuse the folder by name.

pub mod record;
pub mod wthor;

pub use record::{ImportInfo, ImportedRow, SourceFormat, SourceInfo};

mod output;
use super::export::ggf;
use crate::board::Geometry;
use crate::error::{Error, Result};
use crate::game::{Game, Rules, Scoring};
use crate::lab::running::runner::write_game_row;
use crate::lab::storage::folder::{
    a_file_not_a_folder, cannot_create_folder, move_aside, remove_aside, write_atomically,
    FolderLock, FORCE, OUT,
};
use crate::lab::storage::results_folder::FolderFile;
use crate::lab::storage::rows::{csv_bytes, csv_header, GameRow, RunInfo, RunToml, Status};
use crate::setting::{Said, Setting};
use crate::with_geometry;
use output::{check_inputs_outside, write_folder};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Leave out games a file holds damaged instead of refusing the file: `--skip-bad`.
pub static SKIP_BAD: Setting = Setting::switch("--skip-bad", "skip_bad=True");

/// The per-game provenance file of an imported folder.
pub const IMPORTED_FILE: &str = "imported.csv";

/// What `import` reads and where it writes.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// The files, in order: game files (`.wtb`, `.ggf`) and WTHOR names files
    /// (`.jou` players, `.trn` tournaments), told apart by their extension.
    pub files: Vec<PathBuf>,
    /// The results folder to make.
    pub out: PathBuf,
    /// Replace an existing results folder.
    pub force: bool,
    /// Leave out games with an illegal or unreadable move (each one is said) instead
    /// of refusing the import.
    pub skip_bad: bool,
}

/// What an import did.
#[derive(Clone, Debug)]
pub struct ImportSummary {
    /// The results folder.
    pub out: PathBuf,
    /// Games written.
    pub games: u64,
    /// Their board size.
    pub size: u32,
    /// What `run.toml` records of the files.
    pub info: ImportInfo,
    /// One line per game left out (unfinished, or bad under `--skip-bad`).
    pub left_out: Vec<String>,
    /// One line per game whose recorded result disagrees with the replay.
    pub disagreements: Vec<String>,
    /// Names the files lack, each line with its count: WTHOR numbers missing from the
    /// names files, GGF games without `PB` or `PW`.
    pub warnings: Vec<String>,
}

/// The result a file records for a game.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Recorded {
    /// WTHOR: black's discs (empties to the winner, or discs alone: either is taken).
    BlackDiscs(u8),
    /// GGF `RE`: black's margin, played out (no `:r`, `:t` or `:s` flag).
    Margin(f64),
    /// None, or one not reached by playing (resigned, lost on time, agreed).
    Unknown,
}

/// A game as read, before its replay.
struct Candidate {
    source: usize,
    number: u64,
    black: String,
    white: String,
    size: u32,
    anti: bool,
    transcript: std::result::Result<String, String>,
    recorded: Recorded,
    row: ImportedRow,
    /// Whether the file says the game's size and rules (a GGF game that cannot be read
    /// does not).
    has_setting: bool,
}

/// What a GGF game without `PB` (or `PW`) names its player.
pub const UNNAMED: [&str; 2] = ["unnamed black", "unnamed white"];

/// The bytes of an input file, refused by name when they cannot be read.
fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(|e| Error::unreadable(path, &e))
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn source(path: &Path, format: SourceFormat, bytes: &[u8]) -> SourceInfo {
    SourceInfo {
        file: path.display().to_string(),
        format,
        sha256: sha256(bytes),
        bytes: bytes.len() as u64,
        created: None,
        year: None,
        names: None,
        games: None,
        imported: None,
        first_game_id: None,
        unfinished: None,
        bad: None,
        disagreeing: None,
    }
}

/// The names of a names file given once at most.
fn names_of(
    files: &[PathBuf],
    format: SourceFormat,
    width: usize,
    sources: &mut Vec<SourceInfo>,
) -> Result<Option<Vec<String>>> {
    let mut found: Option<(&Path, Vec<String>)> = None;
    for path in files {
        if SourceFormat::of(path)? != format {
            continue;
        }
        if let Some((first, _)) = &found {
            return Err(Error::input(format!(
                "{} and {} are both WTHOR names files of one kind: give one of them",
                first.display(),
                path.display()
            )));
        }
        let bytes = read_bytes(path)?;
        let names = wthor::read_names(&bytes, path, width)?;
        let mut info = source(path, format, &bytes);
        info.names = Some(names.len() as u64);
        sources.push(info);
        found = Some((path, names));
    }
    Ok(found.map(|(_, names)| names))
}

/// A WTHOR number's name: the names file's, else `what N` (a number the names file
/// lacks is added to `missing`).
fn named(
    names: Option<&[String]>,
    number: u16,
    what: &str,
    missing: &mut std::collections::BTreeSet<u16>,
) -> String {
    let name = names
        .and_then(|n| n.get(usize::from(number)))
        .filter(|n| !n.is_empty())
        .cloned();
    if name.is_none() && names.is_some() {
        missing.insert(number);
    }
    name.unwrap_or_else(|| format!("{what} {number}"))
}

/// The warning for the numbers a WTHOR names file lacks (`what`: player, tournament).
fn missing_names(
    missing: &std::collections::BTreeSet<u16>,
    what: &str,
    file: &str,
) -> Option<String> {
    let shown: Vec<String> = missing.iter().take(5).map(ToString::to_string).collect();
    let more = if missing.len() > 5 { ", ..." } else { "" };
    (!missing.is_empty()).then(|| {
        format!(
            "{} {what} numbers are missing from {file} ({}{more}): those are called `{what} N`",
            missing.len(),
            shown.join(", ")
        )
    })
}

/// Reads every game file into candidates, in order, recording each file in `sources`
/// and the names the files lack in `warnings`.
fn read_candidates(
    files: &[PathBuf],
    sources: &mut Vec<SourceInfo>,
    warnings: &mut Vec<String>,
) -> Result<Vec<Candidate>> {
    let players = names_of(
        files,
        SourceFormat::WthorPlayers,
        wthor::PLAYER_NAME,
        sources,
    )?;
    let tournaments = names_of(
        files,
        SourceFormat::WthorTournaments,
        wthor::TOURNAMENT_NAME,
        sources,
    )?;
    let mut candidates = Vec::new();
    let (mut no_player, mut no_tournament) = Default::default();
    let mut unnamed = 0;
    let mut read: HashMap<String, &Path> = HashMap::new();
    for path in files {
        let format = SourceFormat::of(path)?;
        if !matches!(format, SourceFormat::Wthor | SourceFormat::Ggf) {
            continue;
        }
        let bytes = read_bytes(path)?;
        let mut info = source(path, format, &bytes);
        // The same games twice would count twice in every study.
        if let Some(first) = read.insert(info.sha256.clone(), path) {
            let same = if first == path {
                "is given twice".to_string()
            } else {
                format!(
                    "holds the same bytes as {} (SHA-256 {})",
                    first.display(),
                    &info.sha256[..16]
                )
            };
            return Err(Error::input(format!(
                "{} {same}: its games would count twice; give each file once",
                path.display()
            )));
        }
        let index = sources.len();
        let file = path.display().to_string();
        let blank = |number: u64| ImportedRow {
            file: file.clone(),
            number,
            ..ImportedRow::default()
        };
        let start = candidates.len();
        if format == SourceFormat::Wthor {
            let read = wthor::read_game_file(&bytes, path)?;
            info.created = Some(read.header.created());
            info.year = Some(read.header.year);
            for (i, record) in read.records.iter().enumerate() {
                let number = i as u64 + 1;
                candidates.push(Candidate {
                    source: index,
                    number,
                    black: named(players.as_deref(), record.black, "player", &mut no_player),
                    white: named(players.as_deref(), record.white, "player", &mut no_player),
                    size: 8,
                    anti: false,
                    transcript: record.transcript(),
                    recorded: Recorded::BlackDiscs(record.black_discs),
                    row: ImportedRow {
                        event: named(
                            tournaments.as_deref(),
                            record.tournament,
                            "tournament",
                            &mut no_tournament,
                        ),
                        date: read.header.year.to_string(),
                        recorded: record.black_discs.to_string(),
                        theoretical: record.theoretical.to_string(),
                        ..blank(number)
                    },
                    has_setting: true,
                });
            }
        } else {
            let text = String::from_utf8_lossy(&bytes);
            for (i, game) in ggf::read_each(&text).into_iter().enumerate() {
                let number = i as u64 + 1;
                let mut game = match game {
                    Ok(game) => game,
                    Err(reason) => {
                        // Left out by --skip-bad, or refused, when it is replayed.
                        candidates.push(Candidate {
                            source: index,
                            number,
                            black: String::new(),
                            white: String::new(),
                            size: 8,
                            anti: false,
                            transcript: Err(reason),
                            recorded: Recorded::Unknown,
                            row: blank(number),
                            has_setting: false,
                        });
                        continue;
                    }
                };
                for (name, default) in [&mut game.black, &mut game.white].into_iter().zip(UNNAMED) {
                    if name.trim().is_empty() {
                        *name = default.to_string();
                        unnamed += 1;
                    }
                }
                let recorded = match (game.result, game.result_flag) {
                    (Some(margin), None) => Recorded::Margin(margin),
                    _ => Recorded::Unknown,
                };
                let re = match (game.result, game.result_flag) {
                    (Some(r), None) => format!("{r:+.3}"),
                    (Some(r), Some(flag)) => format!("{r:+.3}:{flag}"),
                    (None, _) => String::new(),
                };
                candidates.push(Candidate {
                    source: index,
                    number,
                    black: game.black.clone(),
                    white: game.white.clone(),
                    size: game.size,
                    anti: game.anti,
                    transcript: game.transcript().map_err(|e| e.to_string()),
                    recorded,
                    row: ImportedRow {
                        event: game.place.clone().unwrap_or_default(),
                        date: game.date.clone().unwrap_or_default(),
                        recorded: re,
                        ..blank(number)
                    },
                    has_setting: true,
                });
            }
        }
        info.games = Some((candidates.len() - start) as u64);
        sources.push(info);
    }
    let names_file = |format| {
        (sources.iter())
            .find(|s| s.format == format)
            .map_or(String::new(), |s| s.file.clone())
    };
    warnings.extend(missing_names(
        &no_player,
        "player",
        &names_file(SourceFormat::WthorPlayers),
    ));
    warnings.extend(missing_names(
        &no_tournament,
        "tournament",
        &names_file(SourceFormat::WthorTournaments),
    ));
    if unnamed > 0 {
        warnings.push(format!(
            "{} {} not named (no PB or PW, or an empty one): they are called `{}` and `{}`",
            crate::numbers::counted(unnamed as u64, "GGF player"),
            if unnamed == 1 { "is" } else { "are" },
            UNNAMED[0],
            UNNAMED[1]
        ));
    }
    Ok(candidates)
}

/// How a candidate's replay ended.
enum Replayed {
    /// Written as a row of `games.csv` (`agrees`: the recorded result's verdict), with
    /// the discs at the end and black's margin.
    Row(Vec<u8>, Option<bool>, (u32, u32, i32)),
    /// The moves stop before the game is over.
    Unfinished(usize),
}

/// Replays a checked transcript, writing its row of `games.csv` when the game is over.
fn replay<G: Geometry>(
    candidate: &Candidate,
    transcript: &str,
    game_id: u64,
    pair_id: u64,
    rules: Rules,
) -> std::result::Result<Replayed, String> {
    let game = Game::<G>::from_transcript(transcript)
        .map_err(|e| format!("move {}: {}", e.ply, e.reason))?;
    let Some(outcome) = game.outcome(rules) else {
        return Ok(Replayed::Unfinished(game.moves().len()));
    };
    let cells = (G::SIZE * G::SIZE) as i32;
    let agrees = match candidate.recorded {
        Recorded::BlackDiscs(discs) => {
            // WTHOR counts the empties to the winner; a file may also give discs alone.
            let with_empties = Rules {
                scoring: Scoring::WinnerGetsEmpties,
                ..rules
            };
            let margin = game.outcome(with_empties).map_or(0, |o| o.margin);
            let discs = i32::from(discs);
            Some(discs == outcome.black_discs as i32 || 2 * discs - cells == margin)
        }
        Recorded::Margin(margin) => {
            let count = outcome.black_discs as i32 - outcome.white_discs as i32;
            let count = if rules.anti { -count } else { count };
            Some(margin == f64::from(outcome.margin) || margin == f64::from(count))
        }
        Recorded::Unknown => None,
    };
    let mut bytes = Vec::with_capacity(256);
    let names = [candidate.black.as_str(), candidate.white.as_str()];
    write_game_row::<G>(game_id, pair_id, "", names, 0, &game, rules, &mut bytes);
    let end = (outcome.black_discs, outcome.white_discs, outcome.margin);
    Ok(Replayed::Row(bytes, agrees, end))
}

/// The replayed games: the bytes of `games.csv`'s rows, `imported.csv`'s rows, and
/// the lines saying what was left out and what disagrees.
struct Converted {
    games: Vec<u8>,
    rows: Vec<ImportedRow>,
    players: Vec<String>,
    left_out: Vec<String>,
    disagreements: Vec<String>,
}

/// Replays every candidate under `rules`, numbering the games kept in order.
fn convert(
    candidates: &[Candidate],
    size: u32,
    rules: Rules,
    skip_bad: bool,
    sources: &mut [SourceInfo],
) -> Result<Converted> {
    let mut out = Converted {
        games: csv_header::<GameRow>(),
        rows: Vec::new(),
        players: Vec::new(),
        left_out: Vec::new(),
        disagreements: Vec::new(),
    };
    let mut pairs: HashMap<(String, String), u64> = HashMap::new();
    for candidate in candidates {
        let info = &mut sources[candidate.source];
        let what = if candidate.has_setting {
            format!(
                "{}: game {} ({} vs {})",
                info.file, candidate.number, candidate.black, candidate.white
            )
        } else {
            format!("{}: game {}", info.file, candidate.number)
        };
        let game_id = out.rows.len() as u64;
        let key = if candidate.black <= candidate.white {
            (candidate.black.clone(), candidate.white.clone())
        } else {
            (candidate.white.clone(), candidate.black.clone())
        };
        let next = pairs.len() as u64;
        let pair_id = *pairs.get(&key).unwrap_or(&next);
        let replayed = candidate.transcript.clone().and_then(|transcript| {
            with_geometry!(size, G => replay::<G>(candidate, &transcript, game_id, pair_id, rules))
        });
        match replayed {
            Err(reason) if skip_bad => {
                out.left_out.push(format!("{what} left out: {reason}"));
                *info.bad.get_or_insert(0) += 1;
            }
            Err(reason) => {
                return Err(Error::said(
                    Said::text(format!("{what}: {reason}: the file is damaged; pass "))
                        .name(&SKIP_BAD)
                        .then(" to leave such games out"),
                ));
            }
            Ok(Replayed::Unfinished(moves)) => {
                out.left_out.push(format!(
                    "{what} left out: its {moves} moves stop before the game ends"
                ));
                *info.unfinished.get_or_insert(0) += 1;
            }
            Ok(Replayed::Row(bytes, agrees, (black, white, margin))) => {
                pairs.entry(key).or_insert(next);
                out.games.extend_from_slice(&bytes);
                if agrees == Some(false) {
                    out.disagreements.push(format!(
                        "{what}: the file records {} but the moves end {black}-{white} (margin {margin:+}); games.csv has the replay's result",
                        match candidate.recorded {
                            Recorded::BlackDiscs(d) => format!("{d} black discs"),
                            Recorded::Margin(m) => format!("RE[{m:+.3}]"),
                            Recorded::Unknown => String::new(),
                        },
                    ));
                    *info.disagreeing.get_or_insert(0) += 1;
                }
                info.first_game_id.get_or_insert(game_id);
                *info.imported.get_or_insert(0) += 1;
                for name in [&candidate.black, &candidate.white] {
                    out.players.push(name.clone());
                }
                out.rows.push(ImportedRow {
                    game_id,
                    agrees: match agrees {
                        Some(true) => "yes".into(),
                        Some(false) => "no".into(),
                        None => String::new(),
                    },
                    ..candidate.row.clone()
                });
            }
        }
    }
    out.players.sort();
    out.players.dedup();
    Ok(out)
}

/// The board size and rules of every candidate, which must share them.
fn setting(candidates: &[Candidate], sources: &[SourceInfo]) -> Result<(u32, Rules)> {
    let known = || candidates.iter().filter(|c| c.has_setting);
    let first = known().next().unwrap_or(&candidates[0]);
    for c in known() {
        if (c.size, c.anti) != (first.size, first.anti) {
            let kind =
                |c: &Candidate| format!("{0}x{0}{1}", c.size, if c.anti { " anti" } else { "" });
            return Err(Error::input(format!(
                "{}: game {} is {} but {} game {} is {}: a results folder holds games of one size and rules; import them into separate folders",
                sources[c.source].file,
                c.number,
                kind(c),
                sources[first.source].file,
                first.number,
                kind(first)
            )));
        }
    }
    if !crate::board::SIZES.contains(&first.size) {
        return Err(Error::input(format!(
            "{}: game {} is on a {}x{} board, which reversi-lab does not play (4, 6, 8 or 10)",
            sources[first.source].file, first.number, first.size, first.size
        )));
    }
    Ok((
        first.size,
        Rules {
            anti: first.anti,
            ..Rules::default()
        },
    ))
}

/// Imports the files into a new results folder.
pub fn import(options: &ImportOptions) -> Result<ImportSummary> {
    if options.files.is_empty() {
        return Err(Error::input(
            "no files to import: give WTHOR game files (.wtb) or GGF files (.ggf)",
        ));
    }
    let out = &options.out;
    if out.exists() && !out.is_dir() {
        return Err(a_file_not_a_folder(out));
    }
    let mut sources = Vec::new();
    let mut warnings = Vec::new();
    let candidates = read_candidates(&options.files, &mut sources, &mut warnings)?;
    if candidates.is_empty() {
        return Err(Error::input(
            "the files hold no games: give WTHOR game files (.wtb) or GGF files (.ggf) with games (WTHOR.JOU and WTHOR.TRN only name them)",
        ));
    }
    let (size, rules) = setting(&candidates, &sources)?;
    let converted = convert(&candidates, size, rules, options.skip_bad, &mut sources)?;
    if converted.rows.is_empty() {
        return Err(Error::input(format!(
            "none of the {} games could be imported (each was left out: {}): there is nothing to write",
            candidates.len(),
            converted.left_out.first().map_or("", String::as_str)
        )));
    }
    let games = converted.rows.len() as u64;
    let info = ImportInfo {
        players: converted.players,
        sources,
    };
    let mut run = RunInfo::starting(1, games);
    run.status = Status::Complete;
    run.games = Some(games);
    run.games_this_session = Some(games);
    let mut experiment = toml::Table::new();
    let name = out
        .file_name()
        .map_or("import".into(), |n| n.to_string_lossy().into_owned());
    experiment.insert("name".into(), toml::Value::String(name));
    experiment.insert("size".into(), toml::Value::Integer(i64::from(size)));
    let rules_value = toml::Value::try_from(rules)
        .map_err(|e| Error::internal_from("cannot write the rules as TOML", e))?;
    experiment.insert("rules".into(), rules_value);
    let record = RunToml {
        run,
        experiment,
        import: Some(info.clone()),
    };
    let imported_path = out.join(IMPORTED_FILE);
    let files = [
        (FolderFile::Games.name(), converted.games),
        (IMPORTED_FILE, csv_bytes(&converted.rows, &imported_path)?),
        (FolderFile::RunRecord.name(), record.to_text().into_bytes()),
    ];
    check_inputs_outside(out, &options.files, options.force)?;
    write_folder(out, options.force, &files)?;
    Ok(ImportSummary {
        out: out.clone(),
        games,
        size,
        info,
        left_out: converted.left_out,
        disagreements: converted.disagreements,
        warnings,
    })
}

#[cfg(test)]
mod tests;
