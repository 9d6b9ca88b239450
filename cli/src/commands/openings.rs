//! `reversi-lab openings`: writes a list of balanced openings (one transcript per
//! line, the format `[openings] file =` reads) with a header saying how it was made.

use super::Said;
use crate::commands::Outcome;
use reversi_lab::error::{Error, Result};
use reversi_lab::lab::driver::thread_pool;
use reversi_lab::lab::folder::{check_output_file, write_atomically};
use reversi_lab::lab::setup::check_size;
use reversi_lab::progress::{thousands, Progress};
use reversi_lab::strategy::spec::StrategySpec;
use reversi_lab::studies::openings::{enumerate, select, values, Recipe};
use reversi_lab::with_geometry;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// The most plies accepted: the 8x8 tree has about 10^7 distinct positions at 12
/// plies, each to be searched; more would run for days.
pub const MAX_OPENING_PLIES: u32 = 12;

/// Options of `reversi-lab openings`.
#[derive(Clone, Debug, clap::Args)]
pub struct OpeningsArgs {
    /// Moves from the start (1 to 12; passes are automatic and not counted).
    #[arg(long)]
    pub plies: u32,
    /// Board size: 4, 6, 8 or 10.
    #[arg(long, default_value_t = 8)]
    pub size: u32,
    /// The strategy whose values judge a position, as in `match` (see `reversi-lab
    /// strategies`): a position's value is the best of its moves' values for the side to move.
    #[arg(long)]
    pub eval: String,
    /// Keep positions whose value is within this of even (in the evaluation's units:
    /// disc margins for `alphabeta:eval=greedy` and wherever the position is solved exactly).
    #[arg(long, allow_hyphen_values = true)]
    pub within: i32,
    /// Keep at most this many, the closest to even (ties in a fixed pseudo-random order
    /// of their transcripts, so that no family of openings is favoured).
    #[arg(long)]
    pub max: Option<usize>,
    /// The file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Also write every position's value here (CSV: transcript,value,exact,nodes,kept).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Replace --out (and --csv) if it exists.
    #[arg(long)]
    pub force: bool,
    /// Worker threads (default: one per core). The file is the same whatever the count.
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// The recipe line of the header: the options that decide the list's contents
/// (not --out, --threads or --quiet, so that any thread count writes the same bytes).
fn recipe_line(args: &OpeningsArgs) -> String {
    let quoted = if args
        .eval
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || ":=,.-_".contains(c))
    {
        args.eval.clone()
    } else {
        format!("'{}'", args.eval.replace('\'', r"'\''"))
    };
    let mut line = format!(
        "reversi-lab openings --plies {} --size {} --eval {quoted} --within {}",
        args.plies, args.size, args.within
    );
    if let Some(max) = args.max {
        line.push_str(&format!(" --max {max}"));
    }
    line
}

/// `reversi-lab openings`: enumerates, values and writes the list; prints what it did.
pub fn openings(args: &OpeningsArgs, out: &mut dyn Write) -> Result<Outcome> {
    let size = check_size(args.size)?;
    let most = size * size - 5;
    if args.plies == 0 || args.plies > MAX_OPENING_PLIES.min(most) {
        return Err(Error::input(format!(
            "--plies {}: use 1 to {} (each ply multiplies the positions to search)",
            args.plies,
            MAX_OPENING_PLIES.min(most)
        )));
    }
    if args.within < 0 {
        return Err(Error::input(format!(
            "--within {}: use 0 or more (the largest value either side kept)",
            args.within
        )));
    }
    if args.max == Some(0) {
        return Err(Error::input(
            "--max 0 keeps nothing: use 1 or more, or leave it out",
        ));
    }
    // The valuing can take many minutes: a folder that is not there is said now, not after.
    check_output_file(&args.out, "--out")?;
    if let Some(path) = &args.csv {
        check_output_file(path, "--csv")?;
    }
    for (path, flag) in [(Some(&args.out), "--out"), (args.csv.as_ref(), "--csv")] {
        if let Some(path) = path.filter(|p| p.exists() && !args.force) {
            return Err(Error::input(format!(
                "{} already exists: choose another {flag} file, or add --force to replace it",
                path.display()
            )));
        }
    }
    if args.csv.as_ref() == Some(&args.out) {
        return Err(Error::input(format!(
            "--csv and --out both name {}: give the values' CSV a file of its own",
            args.out.display()
        )));
    }
    let spec = StrategySpec::parse(&args.eval).map_err(|e| Error::input(format!("--eval: {e}")))?;
    let pool = thread_pool(args.threads)?;
    let recipe = Recipe {
        plies: args.plies,
        eval: spec.clone(),
        within: args.within,
        max: args.max,
    };
    let started = Instant::now();
    let (list, enumerated) = with_geometry!(size, G => {
        let empties = size * size - 4 - args.plies;
        let strategy = spec
            .check_practical(empties)
            .and_then(|()| spec.build::<G>(reversi_lab::game::Rules::default()))
            .map_err(|e| Error::input(format!("--eval: {e}")))?;
        let tree = enumerate::<G>(args.plies);
        let enumerated = started.elapsed().as_secs_f64();
        let progress = Progress::new(tree.classes.len() as u64, 0, args.quiet, "positions");
        let values = pool.install(|| values::<G>(&tree, &spec, strategy.as_ref(), &|| progress.advance(1)))?;
        progress.finish();
        (select(tree, values, &recipe), enumerated)
    });
    if list.kept.is_empty() {
        // An empty list would only be refused later, by the run that reads it.
        return Err(Error::input(format!(
            "--within {}: none of the {} positions is that close to even (the closest is {} away): give a larger --within; nothing was written",
            args.within,
            thousands(list.tree.classes.len() as u64),
            list.values
                .iter()
                .map(|v| v.value.unsigned_abs())
                .min()
                .map_or("none".to_string(), |v| v.to_string())
        )));
    }
    let text = list.text(&recipe, size, &recipe_line(args));
    write_atomically(&args.out, text.as_bytes())?;
    if let Some(path) = &args.csv {
        write_atomically(path, list.csv().as_bytes())?;
    }
    writeln!(
        out,
        "{} sequences of {} plies, {} positions, {} up to symmetry (enumerated in {enumerated:.2} s); \
         {} nodes; {} within {} of even, kept {} (largest {}); wrote {} in {:.1} s ({})",
        thousands(list.tree.sequences),
        args.plies,
        thousands(list.tree.positions),
        thousands(list.tree.classes.len() as u64),
        thousands(list.nodes()),
        thousands(list.within as u64),
        args.within,
        thousands(list.kept.len() as u64),
        list.widest,
        args.out.display(),
        started.elapsed().as_secs_f64(),
        reversi_lab::numbers::counted(pool.current_num_threads() as u64, "thread")
    )
    .said()?;
    Ok(Outcome::Finished)
}
