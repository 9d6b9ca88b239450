//! `reversi-lab fit-patterns`: fits the 8x8 pattern evaluation to recorded games or
//! labelled positions and writes a weights file and each stage's held-out error (the
//! built-in weights, `src/strategy/pattern/weights-8x8.bin.zst`, are read when the crate
//! is compiled: `eval=pattern` plays by them and the solver orders by them).

use super::Said;
use crate::commands::Outcome;
use reversi_lab::error::{Error, Result};
use reversi_lab::lab::folder::{
    check_not_an_input, check_output_file, check_replaceable, write_atomically, write_output,
};
use reversi_lab::lab::ResultsFolder;
use reversi_lab::progress::thousands;
use reversi_lab::setting::Setting;
use reversi_lab::strategy::pattern::Weights;
use reversi_lab::studies::patterns::{
    built_in_weights, fit_with, named_weights, read_weights, stage_errors, FitOptions, Named,
    DEFAULT_RIDGE, HOLD_OUT_EVERY,
};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// The file of each stage's held-out error: `--errors`.
static ERRORS: Setting = Setting::new("", "--errors", "");
/// The CSV of the fitted weights: `--csv`.
static CSV: Setting = Setting::new("", "--csv", "");

/// Options of `reversi-lab fit-patterns`.
#[derive(Clone, Debug, clap::Args)]
pub struct FitPatternsArgs {
    /// What to fit to: results folders (every position of their 8x8 games, labelled
    /// with the final margin) and labelled-positions files from `label`, in any mix.
    #[arg(required = true, value_name = "DIR_OR_FILE")]
    pub dirs: Vec<PathBuf>,
    /// The weights file to write (the built-in ones, what eval=pattern plays and the solver orders by, are src/strategy/pattern/weights-8x8.bin.zst).
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the positions per stage.
    #[arg(long, default_value_t = 40)]
    pub iterations: usize,
    /// The ridge penalty: how many positions' worth of evidence pulls a weight towards 0.
    #[arg(long, default_value_t = DEFAULT_RIDGE)]
    pub ridge: f64,
    /// Weights to start from, `shipped` or a file: the fit is of the change from them,
    /// and a weight the positions seldom show keeps its start (default: from zero).
    #[arg(long, value_name = "FILE")]
    pub start: Option<PathBuf>,
    /// The weights the held-out error is compared with, `shipped` or a file (default:
    /// the shipped ones).
    #[arg(long, value_name = "FILE")]
    pub before: Option<PathBuf>,
    /// Where each stage's held-out error goes as CSV (default: the --out file's name
    /// with `.errors.csv` added).
    #[arg(long, value_name = "FILE")]
    pub errors: Option<PathBuf>,
    /// Replace --out and the errors CSV if they exist.
    #[arg(long)]
    pub force: bool,
}

/// `reversi-lab fit-patterns`: fits, writes the files and prints each stage's error.
pub fn fit_patterns(args: &FitPatternsArgs, out: &mut dyn Write) -> Result<Outcome> {
    check_output_file(&args.out, "--out")?;
    let errors_path = args.errors.clone().unwrap_or_else(|| {
        let mut name = args.out.as_os_str().to_owned();
        name.push(".errors.csv");
        PathBuf::from(name)
    });
    check_output_file(&errors_path, "--errors")?;
    let inputs: Vec<PathBuf> = (args.dirs.iter())
        .flat_map(|d| {
            if d.is_file() {
                vec![d.clone()]
            } else {
                ResultsFolder::at(d).game_inputs().to_vec()
            }
        })
        .chain(args.before.clone())
        .chain(args.start.clone())
        .collect();
    for (path, flag) in [(&args.out, "--out"), (&errors_path, "--errors")] {
        check_not_an_input(path, flag, inputs.iter().map(PathBuf::as_path))?;
    }
    if errors_path == args.out {
        return Err(Error::input(
            "--errors names the --out file: give the errors CSV another name",
        ));
    }
    check_replaceable(&args.out, &reversi_lab::lab::folder::OUT, args.force)?;
    check_replaceable(&errors_path, &ERRORS, args.force)?;
    if !(1..=10_000).contains(&args.iterations) {
        return Err(Error::input(format!(
            "--iterations {} is out of range: give 1 to 10000",
            args.iterations
        )));
    }
    if !(args.ridge.is_finite() && args.ridge > 0.0) {
        return Err(Error::input(format!(
            "--ridge {} is not a penalty: give a number above 0, such as {DEFAULT_RIDGE}",
            args.ridge
        )));
    }
    let before = match &args.before {
        Some(path) => named_weights(path)?,
        None => Weights::shipped().clone(),
    };
    let start = args.start.as_deref().map(named_weights).transpose()?;
    let began = Instant::now();
    let result = fit_with(
        &FitOptions {
            inputs: args.dirs.clone(),
            iterations: args.iterations,
            ridge: args.ridge,
            start,
        },
        &before,
    )?;
    write_atomically(&args.out, result.weights.encode())?;
    write_output(&errors_path, |file| {
        let mut csv = csv::Writer::from_writer(file);
        for stage in &result.stages {
            csv.serialize(stage)
                .map_err(|e| Error::csv("write", &errors_path, e))?;
        }
        csv.flush().map_err(|e| Error::io(&errors_path, e))
    })?;
    let o = &mut *out;
    writeln!(
        o,
        "fitted {} positions of {} games in {:.1} s; wrote {} and {}",
        thousands(result.positions as u64),
        thousands(result.games as u64),
        began.elapsed().as_secs_f64(),
        args.out.display(),
        errors_path.display()
    )
    .said()?;
    let compared = match &args.before {
        Some(path) => path.display().to_string(),
        None => "the shipped weights".to_string(),
    };
    writeln!(
        o,
        "error on the held-out games (every {HOLD_OUT_EVERY}th), in discs of the label; before: {compared}"
    )
    .said()?;
    writeln!(
        o,
        "empties  fitted on  held out    rmse  spread     mae  mae before"
    )
    .said()?;
    for s in &result.stages {
        writeln!(
            o,
            "{:>2}-{:<2}   {:>9}  {:>8}  {:>6.2}  {:>6.2}  {:>6.2}  {:>10.2}",
            s.empties_from, s.empties_to, s.train, s.test, s.rmse, s.spread, s.mae, s.mae_before
        )
        .said()?;
    }
    Ok(Outcome::Finished)
}

/// Options of `reversi-lab pattern-error`.
#[derive(Clone, Debug, clap::Args)]
pub struct PatternErrorArgs {
    /// Labelled-positions files from `label`: the fixed set to measure on.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Weights to measure: a file fit-patterns wrote, `shipped` (what eval=pattern
    /// plays and the solver orders by) or `ordering` (the first fit, to final margins,
    /// kept to compare with); repeat it to compare (default: both built-in sets).
    #[arg(long, value_name = "FILE")]
    pub weights: Vec<PathBuf>,
    /// Also write the rows as CSV here.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Replace --csv if it exists.
    #[arg(long)]
    pub force: bool,
}

/// `reversi-lab pattern-error`: each weights' error per stage and kind of label.
pub fn pattern_error(args: &PatternErrorArgs, out: &mut dyn Write) -> Result<Outcome> {
    if let Some(path) = &args.csv {
        check_output_file(path, "--csv")?;
        let inputs = args.files.iter().chain(&args.weights).map(PathBuf::as_path);
        check_not_an_input(path, "--csv", inputs)?;
        check_replaceable(path, &CSV, args.force)?;
    }
    let asked: Vec<PathBuf> = if args.weights.is_empty() {
        vec!["shipped".into(), "ordering".into()]
    } else {
        args.weights.clone()
    };
    let built_in = |path: &PathBuf| built_in_weights(path);
    let files: Vec<Option<Weights>> = (asked.iter())
        .map(|path| match built_in(path) {
            Some(_) => Ok(None),
            None => read_weights(path).map(Some),
        })
        .collect::<Result<_>>()?;
    let named: Vec<Named<'_>> = (asked.iter().zip(&files))
        .map(|(path, file)| Named {
            name: path.display().to_string(),
            weights: file
                .as_ref()
                .or_else(|| built_in(path))
                .expect("read or built in"),
        })
        .collect();
    let rows = stage_errors(&args.files, &named)?;
    if let Some(path) = &args.csv {
        write_output(path, |file| {
            let mut csv = csv::Writer::from_writer(file);
            for row in &rows {
                csv.serialize(row)
                    .map_err(|e| Error::csv("write", path, e))?;
            }
            csv.flush().map_err(|e| Error::io(path, e))
        })?;
    }
    let o = &mut *out;
    writeln!(
        o,
        "error against the labels, in discs (mae, rmse, bias: estimate minus label)"
    )
    .said()?;
    let width = named.iter().map(|n| n.name.len()).max().unwrap_or(0).max(7);
    writeln!(
        o,
        "{:<width$}  empties  label      positions     mae    rmse    bias",
        "weights"
    )
    .said()?;
    for r in &rows {
        let label = match r.label {
            "search" => format!("depth {}", r.depth),
            other => other.to_string(),
        };
        writeln!(
            o,
            "{:<width$}  {:>2}-{:<2}    {:<9} {:>9}  {:>6.2}  {:>6.2}  {:>+6.2}",
            r.weights,
            r.empties_from,
            r.empties_to,
            label,
            thousands(r.positions as u64),
            r.mae,
            r.rmse,
            r.bias
        )
        .said()?;
    }
    Ok(Outcome::Finished)
}
