//! The scheduler recipes `cluster` writes: the Kubernetes manifests parse as YAML with the
//! fields an Indexed Job needs, and playing them (each pod's command, then the merge
//! Job's) gives the single-machine results; the Slurm scripts are valid shell with the
//! array and the dependency. (`tests/slurm/test.sh` runs them on a real Slurm cluster.)

use crate::common::{ok, refused_in, reversi_lab, Dir};
use serde_yaml_ng::Value;
use std::fs;
use std::path::Path;

const EXPERIMENT: &str = "name = \"k8s_Check\"\nseed = 2\ngames_per_pair = 14\n[openings]\nfile = \"open/list.txt\"\n[[players]]\nname = \"greedy\"\nstrategy = \"greedy\"\n[[players]]\nname = \"random\"\nstrategy = \"random\"\n[[players]]\nname = \"mobility\"\nstrategy = \"mobility\"\n";

fn documents(path: &Path) -> Vec<Value> {
    let text = fs::read_to_string(path).unwrap();
    serde_yaml_ng::Deserializer::from_str(&text)
        .map(|d| serde::Deserialize::deserialize(d).unwrap())
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_sequence()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn kubernetes_manifest_is_an_indexed_job_that_merges_to_the_single_run() {
    let dir = Dir::new();
    let d = dir.path();
    fs::create_dir_all(d.join("exp/open")).unwrap();
    fs::write(d.join("exp/e.toml"), EXPERIMENT).unwrap();
    fs::write(d.join("exp/open/list.txt"), "f5d6\nf5f6\nf5f4\n").unwrap();
    let line = ok(
        d,
        &[
            "cluster",
            "kubernetes",
            "exp/e.toml",
            "--shards",
            "3",
            "--image",
            "example/reversi-lab:1",
            "--parallelism",
            "2",
        ],
    );
    assert!(
        line.contains("docker build -t example/reversi-lab:1 ."),
        "{line}"
    );
    let folder = d.join("results/k8s_Check/kubernetes");
    let docs = documents(&folder.join("job.yaml"));
    let kinds: Vec<&str> = docs.iter().map(|d| d["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["ConfigMap", "PersistentVolumeClaim", "Job"]);
    let (config, claim, job) = (&docs[0], &docs[1], &docs[2]);
    let name = job["metadata"]["name"].as_str().unwrap();
    assert!(
        name.starts_with("rl-k8s-check-") && name.len() == 19,
        "{name}"
    );
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    assert_eq!(spec["completions"].as_u64(), Some(3));
    assert_eq!(spec["parallelism"].as_u64(), Some(2));
    assert_eq!(spec["backoffLimitPerIndex"].as_u64(), Some(3));
    let pod = &spec["template"]["spec"];
    assert_eq!(pod["restartPolicy"].as_str(), Some("Never"));
    let container = &pod["containers"][0];
    assert_eq!(container["image"].as_str(), Some("example/reversi-lab:1"));
    let command = strings(&container["command"]);
    assert_eq!(
        &command[..7],
        [
            "reversi-lab",
            "run",
            "/config/experiment.toml",
            "--shard",
            "auto",
            "--shards",
            "3"
        ]
    );
    assert!(command.contains(&"--resume".to_string()));
    let claim_name = claim["metadata"]["name"].as_str().unwrap();
    assert_eq!(
        claim["spec"]["accessModes"][0].as_str(),
        Some("ReadWriteMany")
    );
    let volumes = pod["volumes"].as_sequence().unwrap();
    assert_eq!(
        volumes[0]["persistentVolumeClaim"]["claimName"].as_str(),
        Some(claim_name)
    );
    assert_eq!(
        container["volumeMounts"][0]["mountPath"].as_str(),
        Some("/data")
    );
    assert_eq!(container["workingDir"].as_str(), Some("/data"));
    let config_name = config["metadata"]["name"].as_str().unwrap();
    assert_eq!(volumes[1]["configMap"]["name"].as_str(), Some(config_name));
    assert_eq!(
        volumes[1]["configMap"]["items"][1]["path"].as_str(),
        Some("open/list.txt")
    );

    // Play the manifest as a cluster would: the ConfigMap's files under /config (here
    // `config/`), the volume at /data (here `data/`), and each pod's command with its index.
    let mount = d.join("config");
    fs::create_dir_all(mount.join("open")).unwrap();
    fs::write(
        mount.join("experiment.toml"),
        config["data"]["experiment.toml"].as_str().unwrap(),
    )
    .unwrap();
    fs::write(
        mount.join("open/list.txt"),
        config["data"]["openings"].as_str().unwrap(),
    )
    .unwrap();
    let data = d.join("data");
    fs::create_dir_all(&data).unwrap();
    let local = |args: &[String]| -> Vec<String> {
        args[1..]
            .iter()
            .map(|a| a.replace("/config", mount.to_str().unwrap()))
            .collect()
    };
    for index in 0..3 {
        let output = reversi_lab()
            .current_dir(&data)
            .args(local(&command))
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let merge = documents(&folder.join("merge.yaml"));
    assert_eq!(merge.len(), 1);
    let merge_pod = &merge[0]["spec"]["template"]["spec"];
    assert_eq!(
        merge_pod["volumes"][0]["persistentVolumeClaim"]["claimName"].as_str(),
        Some(claim_name)
    );
    let merge_command = strings(&merge_pod["containers"][0]["command"]);
    let output = reversi_lab()
        .current_dir(&data)
        .args(local(&merge_command))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    ok(
        d,
        &[
            "run",
            "exp/e.toml",
            "--out",
            "single",
            "--quiet",
            "--no-report",
        ],
    );
    for file in ["games.csv", "pairs.csv", "standings.csv"] {
        assert_eq!(
            fs::read(d.join("single").join(file)).unwrap(),
            fs::read(data.join("results/k8s_Check").join(file)).unwrap(),
            "{file}"
        );
    }

    // An existing claim replaces the made one.
    ok(
        d,
        &[
            "cluster",
            "kubernetes",
            "exp/e.toml",
            "--shards",
            "3",
            "--image",
            "x",
            "--claim",
            "shared",
            "--force",
        ],
    );
    let docs = documents(&folder.join("job.yaml"));
    assert_eq!(docs.len(), 2);
    assert_eq!(
        docs[1]["spec"]["template"]["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"]
            .as_str(),
        Some("shared")
    );
}

#[test]
fn slurm_scripts_hold_the_array_and_the_dependent_merge() {
    let dir = Dir::new();
    let d = dir.path();
    fs::write(
        d.join("e.toml"),
        EXPERIMENT.replace("[openings]\nfile = \"open/list.txt\"\n", ""),
    )
    .unwrap();
    ok(
        d,
        &[
            "cluster",
            "slurm",
            "e.toml",
            "--shards",
            "5",
            "--throttle",
            "2",
            "--partition",
            "short",
            "--time",
            "1:00:00",
            "--cpus-per-task",
            "4",
        ],
    );
    let folder = d.join("results/k8s_Check/slurm");
    let array = fs::read_to_string(folder.join("array.sbatch")).unwrap();
    for needle in [
        "#SBATCH --array=1-5%2",
        "#SBATCH --partition=short",
        "#SBATCH --time=1:00:00",
        "#SBATCH --cpus-per-task=4",
        "--shard auto --resume",
    ] {
        assert!(array.contains(needle), "{needle}: {array}");
    }
    let submit = fs::read_to_string(folder.join("submit.sh")).unwrap();
    assert!(
        submit.contains("--dependency=\"afterok:$array\""),
        "{submit}"
    );
    let merge = fs::read_to_string(folder.join("merge.sbatch")).unwrap();
    assert!(merge.contains(" merge results/k8s_Check"), "{merge}");
    for script in ["array.sbatch", "merge.sbatch", "submit.sh"] {
        let status = std::process::Command::new("bash")
            .arg("-n")
            .arg(folder.join(script))
            .status()
            .unwrap();
        assert!(status.success(), "{script} is not valid shell");
    }
    // Without sbatch the submit script says so and exits 2.
    let output = std::process::Command::new("bash")
        .arg(folder.join("submit.sh"))
        .env("PATH", "/usr/bin:/bin:/nonexistent")
        .env_remove("SLURM_CONF")
        .output()
        .unwrap();
    if !Path::new("/usr/bin/sbatch").exists() {
        assert_eq!(output.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&output.stderr).contains("sbatch not found"));
    }
    // Writing again needs --force; nonsense is refused in one line.
    let again = reversi_lab()
        .current_dir(d)
        .args(["cluster", "slurm", "e.toml", "--shards", "5"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    let refused = reversi_lab()
        .current_dir(d)
        .args(["cluster", "slurm", "e.toml", "--shards", "0", "--force"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--shards 0"));
}

#[test]
fn the_dockerfile_builds_in_two_stages() {
    let text = fs::read_to_string(crate::common::root().join("Dockerfile")).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("FROM ")).count(), 2);
    assert!(text.contains("cargo build --release --locked"));
    assert!(text.contains("COPY --from=build"));
}

/// Issue 52, item 28: the merge job of a recipe submitted again, or over a folder that
/// holds an earlier split and its merged results, succeeds without changing them;
/// `cluster slurm` names the earlier split and refuses another experiment's results;
/// paths with a space or `#` are quoted on the `#SBATCH` lines; `--out FILE` is refused.
#[test]
fn slurm_merge_job_over_earlier_results_and_quoted_paths() {
    let dir = Dir::new();
    let d = dir.path().join("a b#c");
    let d = d.as_path();
    fs::create_dir_all(d).unwrap();
    let config = EXPERIMENT.replace("[openings]\nfile = \"open/list.txt\"\n", "");
    fs::write(d.join("e.toml"), &config).unwrap();
    for i in 1..=2 {
        ok(
            d,
            &["run", "e.toml", "--shard", &format!("{i}/2"), "--quiet"],
        );
    }
    ok(d, &["merge", "results/k8s_Check", "--quiet", "--no-report"]);
    let games = fs::read(d.join("results/k8s_Check/games.csv")).unwrap();
    let said = ok(d, &["cluster", "slurm", "e.toml", "--shards", "3"]);
    assert!(
        said.contains("also holds shards 1/2, 2/2 of another split"),
        "{said}"
    );
    let folder = d.join("results/k8s_Check/slurm");
    let array = fs::read_to_string(folder.join("array.sbatch")).unwrap();
    let quoted = format!("#SBATCH --chdir=\"{}\"\n", d.display());
    assert!(array.contains(&quoted), "{array}");
    assert!(
        array.contains("#SBATCH --job-name=\"rl-k8s_Check\"\n"),
        "{array}"
    );
    // The array's tasks, then its merge job, twice (the recipe submitted again).
    for _ in 0..2 {
        for i in 1..=3 {
            let task = reversi_lab()
                .current_dir(d)
                .args([
                    "run",
                    "e.toml",
                    "--shard",
                    "auto",
                    "--resume",
                    "--quiet",
                    "--no-report",
                ])
                .env("SLURM_ARRAY_TASK_ID", i.to_string())
                .env("SLURM_ARRAY_TASK_COUNT", "3")
                .output()
                .unwrap();
            assert!(
                task.status.success(),
                "{}",
                String::from_utf8_lossy(&task.stderr)
            );
        }
        let job = std::process::Command::new("bash")
            .arg(folder.join("merge.sbatch"))
            .current_dir(d)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&job.stderr);
        assert!(job.status.success(), "{stderr}");
        let stdout = String::from_utf8_lossy(&job.stdout);
        assert!(stdout.contains("nothing changed"), "{stdout}");
        assert_eq!(
            fs::read(d.join("results/k8s_Check/games.csv")).unwrap(),
            games
        );
    }
    // Merged results of another experiment of that name: the recipe is refused, and
    // so is a merge over them without --force.
    let other = config.replace("seed = 2", "seed = 3");
    fs::write(d.join("other.toml"), &other).unwrap();
    refused_in(
        d,
        &["cluster", "slurm", "other.toml", "--shards", "3", "--force"],
        "holds the results of another experiment named 'k8s_Check'",
    );
    for i in 1..=2 {
        let out = format!("o/shards/{i}-of-2");
        ok(
            d,
            &[
                "run",
                "other.toml",
                "--shard",
                &format!("{i}/2"),
                "--out",
                &out,
                "--quiet",
            ],
        );
    }
    refused_in(
        d,
        &["merge", "o", "--out", "results/k8s_Check", "--quiet"],
        "holds the results of another experiment than these shards: pass --force",
    );
    refused_in(
        d,
        &["merge", "results/k8s_Check", "--quiet"],
        "holds shards of 2 splits (2, 3 shards): pass --shards N",
    );
    // A file where the recipe's folder should go.
    fs::write(d.join("file"), "x").unwrap();
    refused_in(
        d,
        &[
            "cluster", "slurm", "e.toml", "--shards", "3", "--out", "file", "--force",
        ],
        "file is a file, not a folder",
    );
}

/// Issue 52, item 29: `cluster slurm` of a sweep file writes tasks that play the
/// sweep's shards (`sweep FILE --shard auto`) and a merge job that joins them with
/// `sweep FILE --merge`; run as Slurm would run them, they give the single sweep's
/// files. `cluster kubernetes` writes the same commands.
#[test]
fn a_sweeps_recipes_play_its_shards_and_merge_to_the_single_sweep() {
    let dir = Dir::new();
    let d = dir.path();
    let sweep = "name = \"sw\"\nseed = 3\nsize = 6\ngames_per_pair = 4\n[openings]\nrandom_plies = 2\n[sweep]\nbase = \"alphabeta:eval=mobility\"\nparameter = \"depth\"\nvalues = [1, 2]\n";
    fs::write(d.join("sw.toml"), sweep).unwrap();
    ok(d, &["sweep", "sw.toml", "--out", "one", "--quiet"]);
    ok(d, &["cluster", "slurm", "sw.toml", "--shards", "2"]);
    let folder = d.join("results/sw/slurm");
    let array = fs::read_to_string(folder.join("array.sbatch")).unwrap();
    assert!(
        array.contains(" sweep ") && array.contains("--shard auto --resume"),
        "{array}"
    );
    let merge = fs::read_to_string(folder.join("merge.sbatch")).unwrap();
    assert!(
        merge.contains("sw.toml --merge --shards 2 --quiet"),
        "{merge}"
    );
    for task in ["1", "2"] {
        let status = std::process::Command::new("bash")
            .arg(folder.join("array.sbatch"))
            .current_dir(d)
            .env("SLURM_ARRAY_TASK_ID", task)
            .env("SLURM_ARRAY_TASK_COUNT", "2")
            .env("SLURM_CPUS_PER_TASK", "1")
            .output()
            .unwrap();
        assert!(status.status.success(), "{status:?}");
    }
    let merged = std::process::Command::new("bash")
        .arg(folder.join("merge.sbatch"))
        .current_dir(d)
        .output()
        .unwrap();
    assert!(merged.status.success(), "{merged:?}");
    for file in ["games.csv", "pairs.csv", "standings.csv", "sweep.csv"] {
        let single = fs::read(d.join("one").join(file)).unwrap();
        let joined = fs::read(d.join("results/sw").join(file)).unwrap();
        assert!(single == joined, "{file} differs from the single sweep's");
    }
    ok(
        d,
        &[
            "cluster",
            "kubernetes",
            "sw.toml",
            "--shards",
            "2",
            "--image",
            "x",
        ],
    );
    let job = fs::read_to_string(d.join("results/sw/kubernetes/job.yaml")).unwrap();
    assert!(
        job.contains(
            "\"reversi-lab\", \"sweep\", \"/config/experiment.toml\", \"--shard\", \"auto\""
        ),
        "{job}"
    );
    let merge = fs::read_to_string(d.join("results/sw/kubernetes/merge.yaml")).unwrap();
    assert!(
        merge.contains("\"sweep\", \"/config/experiment.toml\", \"--merge\", \"--shards\", \"2\""),
        "{merge}"
    );
}
