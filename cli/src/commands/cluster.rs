//! `merge`, which joins a sharded run's folders into one run's results, and `cluster`,
//! which writes the Slurm and Kubernetes recipes that play the shards.

use super::recipes::{sbatch_unquotable, Kubernetes, Slurm};
use super::Said;
use crate::commands::Outcome;
use reversi_lab::error::{Error, Result};
use reversi_lab::lab::folder::write_atomically;
use reversi_lab::lab::merge::{merge as merge_shards, MergeOptions};
use reversi_lab::lab::setup::MAX_THREADS;
use reversi_lab::lab::{Experiment, Openings, Shard};
use reversi_lab::lab::{FolderFile, ResultsFolder};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Options of `reversi-lab merge`.
#[derive(Clone, Debug, clap::Args)]
pub struct MergeArgs {
    /// The results folder holding shards/ (such as results/default), or the shard folders.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// Where the merged results go (default: the folder holding shards/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace merged results already in the output folder.
    #[arg(long)]
    pub force: bool,
    /// Merge the split of N shards, when shards/ holds folders of several splits.
    #[arg(long = "shards", value_name = "N")]
    pub split: Option<u64>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Skip the charts and the report at the end.
    #[arg(long)]
    pub no_report: bool,
}

/// `reversi-lab merge`: checks and merges the shards, prints the closing line, then writes the report.
pub fn merge(args: &MergeArgs, out: &mut dyn Write) -> Result<Outcome> {
    let options = MergeOptions {
        out: args.out.clone(),
        force: args.force,
        quiet: args.quiet,
        split: args.split,
        study: None,
    };
    let summary = merge_shards(&args.shards, &options)?;
    writeln!(out, "{}", summary.line()).said()?;
    if args.no_report {
        return Ok(Outcome::Finished);
    }
    // The same games again (a recipe submitted twice): their report stands, and
    // rewriting it would contradict "nothing changed"; one that is missing is made.
    let report = reversi_lab::report::page(&summary.out);
    if summary.unchanged && report.is_file() {
        return Ok(Outcome::Finished);
    }
    if summary.unchanged {
        write!(out, "its report was missing: ").said()?;
    }
    super::report(&summary.out, out)?;
    Ok(Outcome::Finished)
}

/// Options of `reversi-lab cluster`.
#[derive(Clone, Debug, clap::Args)]
pub struct ClusterArgs {
    /// The scheduler to write a recipe for.
    #[command(subcommand)]
    pub scheduler: Scheduler,
}

/// The schedulers `cluster` writes recipes for.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum Scheduler {
    /// A Slurm job array (one shard per task) and a merge job that waits for it
    /// (array.sbatch, merge.sbatch, submit.sh).
    Slurm(SlurmArgs),
    /// A Kubernetes Indexed Job (one shard per completion index) and a merge Job
    /// (job.yaml, merge.yaml); the image comes from the repository's Dockerfile.
    Kubernetes(KubernetesArgs),
}

/// What every recipe needs.
#[derive(Clone, Debug, clap::Args)]
pub struct RecipeArgs {
    /// The experiment file (TOML).
    pub config: PathBuf,
    /// How many shards (array tasks, or completions).
    #[arg(long)]
    pub shards: u64,
    /// Cores per shard (its threads).
    #[arg(long, default_value_t = 2)]
    pub cpus_per_task: u64,
    /// Where the recipe goes (default: results/<name>/slurm or results/<name>/kubernetes).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace a recipe already written there.
    #[arg(long)]
    pub force: bool,
}

/// Options of `reversi-lab cluster slurm`.
#[derive(Clone, Debug, clap::Args)]
pub struct SlurmArgs {
    /// The experiment and its split.
    #[command(flatten)]
    pub recipe: RecipeArgs,
    /// The partition (default: the cluster's).
    #[arg(long)]
    pub partition: Option<String>,
    /// Time limit per task, in Slurm's format (such as 2:00:00).
    #[arg(long)]
    pub time: Option<String>,
    /// Run at most K tasks at once (`--array=1-N%K`).
    #[arg(long, value_name = "K")]
    pub throttle: Option<u64>,
}

/// Options of `reversi-lab cluster kubernetes`.
#[derive(Clone, Debug, clap::Args)]
pub struct KubernetesArgs {
    /// The experiment and its split.
    #[command(flatten)]
    pub recipe: RecipeArgs,
    /// The container image with reversi-lab on its PATH (built from the repository's Dockerfile).
    #[arg(long)]
    pub image: String,
    /// Pods at once (default: all shards).
    #[arg(long)]
    pub parallelism: Option<u64>,
    /// Retries of one shard before it counts as failed (backoffLimitPerIndex).
    #[arg(long, default_value_t = 3)]
    pub retries: u64,
    /// An existing ReadWriteMany PersistentVolumeClaim for the results (default: the manifest makes one).
    #[arg(long)]
    pub claim: Option<String>,
}

/// Refuses a value that would be written into a script or manifest as it is: empty,
/// or with whitespace, quotes or other characters a shell or YAML gives a meaning to.
fn check_word(flag: &str, value: &str, what: &str) -> Result<()> {
    let bad = value.chars().find(|c| {
        c.is_whitespace() || c.is_control() || "'\"`$;&|<>()[]{}*?!#~\\^,=%".contains(*c)
    });
    if value.is_empty() || bad.is_some() {
        let why = match bad {
            Some(c) if c.is_whitespace() => "has whitespace".to_string(),
            Some(c) => format!("has '{}'", c.escape_default()),
            None => "is empty".to_string(),
        };
        return Err(Error::input(format!(
            "{flag} \"{}\" {why}: give {what}, with no whitespace or shell characters",
            value.escape_default()
        )));
    }
    Ok(())
}

/// Whether `text` is a Slurm time limit: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS.
fn slurm_time(text: &str) -> bool {
    let numbers = |part: &str, most: usize| {
        let fields: Vec<&str> = part.split(':').collect();
        fields.len() <= most
            && fields
                .iter()
                .all(|f| !f.is_empty() && f.len() <= 9 && f.bytes().all(|b| b.is_ascii_digit()))
    };
    match text.split_once('-') {
        Some((days, rest)) => numbers(days, 1) && numbers(rest, 3),
        None => numbers(text, 3),
    }
}

/// Checks the options a Slurm recipe writes into its scripts.
fn check_slurm(slurm: &SlurmArgs) -> Result<()> {
    if let Some(time) = &slurm.time {
        if !slurm_time(time) {
            return Err(Error::input(format!(
                "--time \"{}\" is not a Slurm time limit: use MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (such as 2:00:00)",
                time.escape_default()
            )));
        }
    }
    if let Some(k) = slurm.throttle.filter(|&k| k == 0) {
        return Err(Error::input(format!(
            "--throttle {k}: run at least 1 task at once"
        )));
    }
    if let Some(partition) = &slurm.partition {
        check_word("--partition", partition, "a partition's name")?;
    }
    Ok(())
}

/// Checks the options a Kubernetes recipe writes into its manifests.
fn check_kubernetes(k8s: &KubernetesArgs) -> Result<()> {
    // An image reference: registry/name:tag or name@sha256:digest.
    let bad = k8s
        .image
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || "-_./:@".contains(*c)));
    if k8s.image.is_empty() || bad.is_some() {
        let why = match bad {
            Some(c) if c.is_whitespace() => "has whitespace".to_string(),
            Some(c) => format!("has '{}'", c.escape_default()),
            None => "is empty".to_string(),
        };
        return Err(Error::input(format!(
            "--image \"{}\" {why}: give an image reference such as registry.example/reversi-lab:latest, with no whitespace or shell characters",
            k8s.image.escape_default()
        )));
    }
    if let Some(claim) = &k8s.claim {
        check_word(
            "--claim",
            claim,
            "the name of an existing PersistentVolumeClaim",
        )?;
    }
    if k8s.parallelism == Some(0) {
        return Err(Error::input(
            "--parallelism 0: run at least 1 pod at once, or leave it out for all shards",
        ));
    }
    Ok(())
}

/// Refuses what a Slurm script cannot hold, even quoted: a line break in a name or path.
fn check_scriptable(experiment: &Experiment, recipe: &RecipeArgs, dir: &Path) -> Result<()> {
    let binary = std::env::current_exe().unwrap_or_default();
    let workdir = std::env::current_dir().unwrap_or_default();
    for (what, path) in [
        ("the experiment's name", Path::new(&experiment.name)),
        ("the program's path", binary.as_path()),
        ("the current folder", workdir.as_path()),
        ("the recipe's folder", dir),
        ("the experiment file's path", recipe.config.as_path()),
    ] {
        let text = path.display().to_string();
        if let Some(c) = sbatch_unquotable(&text) {
            return Err(Error::input(format!(
                "{what} \"{}\" holds '{}', which a Slurm script cannot hold: rename it without line breaks or control characters",
                text.escape_default(),
                c.escape_default()
            )));
        }
    }
    Ok(())
}

/// Checks the split, loads the experiment, and makes the recipe's folder; for Slurm,
/// also what the jobs will meet in `results/<name>` (a note for the user, if any).
fn prepare(recipe: &RecipeArgs, kind: &str) -> Result<(Prepared, PathBuf, Option<String>)> {
    let command =
        reversi_lab::lab::config::shard_command(&recipe.config, &format!("cluster {kind}"))?;
    // A sweep or an ablation shards the one experiment it plays, through its own command.
    let experiment = match command {
        "sweep" => reversi_lab::studies::sweep::Sweep::load(&recipe.config)?.experiment,
        "ablate" => reversi_lab::studies::ablate::Ablation::load(&recipe.config)?.experiment,
        _ => Experiment::load(&recipe.config)?,
    };
    Shard::new(1, recipe.shards)
        .map_err(|e| Error::input(format!("--shards {}: {e}", recipe.shards)))?;
    if recipe.cpus_per_task == 0 || recipe.cpus_per_task > MAX_THREADS as u64 {
        return Err(Error::input(format!(
            "--cpus-per-task {} is out of range: use 1 to {MAX_THREADS}",
            recipe.cpus_per_task
        )));
    }
    let dir = recipe
        .out
        .clone()
        .unwrap_or_else(|| Path::new("results").join(&experiment.name).join(kind));
    if dir.exists() && !dir.is_dir() {
        return Err(Error::input(format!(
            "{} is a file, not a folder: give --out a folder for the recipe's files",
            dir.display()
        )));
    }
    if dir.exists() && !recipe.force {
        return Err(Error::input(format!(
            "{} already exists: pass --force to write the recipe again, or --out DIR",
            dir.display()
        )));
    }
    let mut note = None;
    if kind == "slurm" {
        check_scriptable(&experiment, recipe, &dir)?;
        note = earlier_results(&experiment, recipe.shards)?;
    }
    fs::create_dir_all(&dir).map_err(|e| Error::io_during("create", &dir, e))?;
    Ok((
        Prepared {
            experiment,
            command,
        },
        dir,
        note,
    ))
}

/// What a recipe's jobs play: the experiment, and the command that plays its shards
/// and merges them (`run` and `merge`, or a study's own `--shard` and `--merge`).
struct Prepared {
    experiment: Experiment,
    command: &'static str,
}

/// What `results/<name>` already holds that the recipe's jobs meet: shards of this
/// split from another experiment, or merged results of another experiment, are
/// refused (the jobs would fail on them); shards of another split are left alone
/// (the merge job merges only this split) and named in the returned note.
fn earlier_results(experiment: &Experiment, shards: u64) -> Result<Option<String>> {
    let results = Path::new("results").join(&experiment.name);
    let hash = reversi_lab::lab::shard::experiment_hash(experiment);
    let another = |what: &Path| {
        Error::input(format!(
            "{} holds the results of another experiment named '{}': the cluster's jobs would refuse them; move {} away (or rename the experiment), then write the recipe again",
            what.display(),
            experiment.name,
            results.display()
        ))
    };
    let recorded = |dir: &Path| ResultsFolder::at(dir).record_if_any().ok().flatten();
    if let Some(record) = recorded(&results) {
        if record.run.experiment_hash.as_deref() != Some(hash.as_str()) {
            return Err(another(&results));
        }
    }
    let mut others = Vec::new();
    let shards_dir = ResultsFolder::at(&results).path(FolderFile::Shards);
    if let Ok(entries) = fs::read_dir(&shards_dir) {
        let mut dirs: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        dirs.sort();
        for dir in dirs {
            let Some(record) = recorded(&dir) else {
                continue;
            };
            let Some(shard) = record
                .run
                .shard
                .as_deref()
                .and_then(|t| Shard::parse(t).ok())
            else {
                continue;
            };
            if shard.count() != shards {
                others.push(shard.to_string());
            } else if record.run.experiment_hash.as_deref() != Some(hash.as_str()) {
                return Err(another(&dir));
            }
        }
    }
    Ok((!others.is_empty()).then(|| {
        format!(
            "note: {} also holds shard{} {} of another split: the merge job merges only the {shards}-shard split and leaves {}",
            shards_dir.display(),
            if others.len() == 1 { "" } else { "s" },
            others.join(", "),
            if others.len() == 1 { "it" } else { "them" }
        )
    }))
}

fn absolute(path: &Path) -> Result<PathBuf> {
    fs::canonicalize(path).map_err(|e| Error::io_during("find", path, e))
}

fn write(path: &Path, text: &str, executable: bool) -> Result<()> {
    write_atomically(path, text.as_bytes())?;
    if executable {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755))
            .map_err(|e| Error::io_during("make executable", path, e))?;
    }
    Ok(())
}

/// `reversi-lab cluster`: writes a scheduler recipe and prints how to start it.
pub fn cluster(args: &ClusterArgs, out: &mut dyn Write) -> Result<Outcome> {
    match &args.scheduler {
        Scheduler::Slurm(slurm) => {
            check_slurm(slurm)?;
            let (
                Prepared {
                    experiment,
                    command,
                },
                dir,
                note,
            ) = prepare(&slurm.recipe, "slurm")?;
            let binary = std::env::current_exe()
                .map_err(|e| Error::internal_from("cannot find this program's path", e))?;
            let workdir = std::env::current_dir()
                .map_err(|e| Error::internal_from("cannot read the current folder", e))?;
            let scripts = absolute(&dir)?;
            let recipe = Slurm {
                name: &experiment.name,
                command,
                binary: &absolute(&binary)?,
                config: &absolute(&slurm.recipe.config)?,
                workdir: &workdir,
                scripts: &scripts,
                shards: slurm.recipe.shards,
                throttle: slurm.throttle,
                partition: slurm.partition.as_deref(),
                time: slurm.time.as_deref(),
                cpus: slurm.recipe.cpus_per_task,
            };
            write(&dir.join("array.sbatch"), &recipe.array(), false)?;
            write(&dir.join("merge.sbatch"), &recipe.merge(), false)?;
            let submit = dir.join("submit.sh");
            write(&submit, &recipe.submit(), true)?;
            if let Some(note) = note {
                writeln!(out, "{note}").said()?;
            }
            writeln!(
                out,
                "wrote {}, array.sbatch and merge.sbatch: submit with `bash {}` on the cluster",
                submit.display(),
                submit.display()
            )
            .said()?;
        }
        Scheduler::Kubernetes(k8s) => {
            check_kubernetes(k8s)?;
            let (
                Prepared {
                    experiment,
                    command,
                },
                dir,
                _,
            ) = prepare(&k8s.recipe, "kubernetes")?;
            let config = &k8s.recipe.config;
            let text = fs::read_to_string(config).map_err(|e| Error::unreadable(config, &e))?;
            let openings_text;
            let openings = match &experiment.setup.openings {
                Openings::List { file, .. } => {
                    let relative = Path::new(file);
                    if relative.is_absolute() || file.contains("..") {
                        return Err(Error::input(format!(
                            "openings file {file} is outside the experiment's folder: give it as a path below the experiment file's folder, so the ConfigMap can carry it"
                        )));
                    }
                    let base = config.parent().unwrap_or(Path::new("."));
                    let path = base.join(relative);
                    openings_text =
                        fs::read_to_string(&path).map_err(|e| Error::unreadable(&path, &e))?;
                    Some((file.as_str(), openings_text.as_str()))
                }
                _ => None,
            };
            let recipe = Kubernetes {
                name: &experiment.name,
                command,
                config: &text,
                openings,
                image: &k8s.image,
                shards: k8s.recipe.shards,
                parallelism: k8s
                    .parallelism
                    .unwrap_or(k8s.recipe.shards)
                    .clamp(1, k8s.recipe.shards),
                cpus: k8s.recipe.cpus_per_task,
                retries: k8s.retries,
                claim: k8s.claim.as_deref(),
            };
            let job = dir.join("job.yaml");
            write(&job, &recipe.job(), false)?;
            let merge = dir.join("merge.yaml");
            write(&merge, &recipe.merge(), false)?;
            writeln!(
                out,
                "wrote {} and {}: build the image from the repository's Dockerfile (docker build -t {} .), then `kubectl apply -f {}`; once the Job completes, `kubectl apply -f {}`",
                job.display(),
                merge.display(),
                k8s.image,
                job.display(),
                merge.display()
            )
            .said()?;
        }
    }
    Ok(Outcome::Finished)
}
