//! The text of the scheduler recipes `cluster` writes: a Slurm job array with a dependent
//! merge job, and a Kubernetes Indexed Job with its merge Job.

use sha2::Digest as _;
use std::fmt::Write as _;
use std::path::Path;

/// Quotes a word for a POSIX shell.
#[must_use]
pub fn shell_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Quotes an option's value on a `#SBATCH` line: sbatch reads double quotes and
/// backslash escapes there, and an unquoted `#` would start a comment. Values with a
/// line break cannot be written so: [`sbatch_unquotable`] finds them first.
#[must_use]
pub fn sbatch_quote(value: &str) -> String {
    format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The first character a `#SBATCH` line cannot hold, even quoted (a line break or
/// another control character).
#[must_use]
pub fn sbatch_unquotable(value: &str) -> Option<char> {
    value.chars().find(|c| c.is_control())
}

/// Quotes a string for YAML (double-quoted scalar).
#[must_use]
pub fn yaml_quote(text: &str) -> String {
    serde_json::to_string(text).expect("a string serialises")
}

/// What a Slurm recipe runs, all paths absolute.
pub struct Slurm<'a> {
    /// The experiment's name.
    pub name: &'a str,
    /// The command that plays a shard of the file (`run`, `sweep`, `ablate`).
    pub command: &'a str,
    /// The reversi-lab binary.
    pub binary: &'a Path,
    /// The experiment file.
    pub config: &'a Path,
    /// The folder the jobs run in (results/<name> is under it).
    pub workdir: &'a Path,
    /// The folder of the scripts and their logs.
    pub scripts: &'a Path,
    /// Array tasks, one shard each.
    pub shards: u64,
    /// At most this many tasks at once (`%K`).
    pub throttle: Option<u64>,
    /// The partition.
    pub partition: Option<&'a str>,
    /// The time limit per task.
    pub time: Option<&'a str>,
    /// Cores per task (the shard's threads).
    pub cpus: u64,
}

impl Slurm<'_> {
    fn common(&self, job: &str, output: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "#SBATCH --job-name={}", sbatch_quote(job));
        // `%` in --output starts a file name pattern (%a: the task): doubled, it is itself.
        let logs = self.scripts.join("logs").display().to_string();
        let _ = writeln!(
            s,
            "#SBATCH --output={}",
            sbatch_quote(&format!("{}/{output}", logs.replace('%', "%%")))
        );
        let _ = writeln!(
            s,
            "#SBATCH --chdir={}",
            sbatch_quote(&self.workdir.display().to_string())
        );
        if let Some(p) = self.partition {
            let _ = writeln!(s, "#SBATCH --partition={p}");
        }
        s
    }

    /// `array.sbatch`: one shard per task, resumable when Slurm requeues a task.
    #[must_use]
    pub fn array(&self) -> String {
        let mut s = String::from("#!/bin/bash\n");
        let _ = writeln!(
            s,
            "# Written by `reversi-lab cluster slurm`: experiment '{}' as a job array, one shard per task.",
            self.name
        );
        s += &self.common(&format!("rl-{}", self.name), "shard-%a.out");
        let throttle = self.throttle.map(|k| format!("%{k}")).unwrap_or_default();
        let _ = writeln!(s, "#SBATCH --array=1-{}{throttle}", self.shards);
        let _ = writeln!(s, "#SBATCH --cpus-per-task={}", self.cpus);
        let _ = writeln!(s, "#SBATCH --ntasks=1");
        if let Some(t) = self.time {
            let _ = writeln!(s, "#SBATCH --time={t}");
        }
        s += "#SBATCH --requeue\nset -euo pipefail\n";
        s +=
            "# The shard comes from SLURM_ARRAY_TASK_ID; --resume continues what a requeued task\n";
        s += "# left (a fresh shard starts from its first game, a finished one does nothing).\n";
        let _ = writeln!(
            s,
            "exec {} {} {} --shard auto --resume --threads \"${{SLURM_CPUS_PER_TASK:-{}}}\"{}",
            shell_quote(&self.binary.display().to_string()),
            self.command,
            shell_quote(&self.config.display().to_string()),
            self.cpus,
            if self.command == "run" {
                " --no-report"
            } else {
                ""
            }
        );
        s
    }

    /// `merge.sbatch`: joins the shards once every task succeeded.
    #[must_use]
    pub fn merge(&self) -> String {
        let mut s = String::from("#!/bin/bash\n");
        let _ = writeln!(
            s,
            "# Written by `reversi-lab cluster slurm`: merges the shards of '{}' (submitted with --dependency=afterok on the array).",
            self.name
        );
        s += &self.common(&format!("rl-{}-merge", self.name), "merge.out");
        s += "#SBATCH --cpus-per-task=1\n#SBATCH --ntasks=1\nset -euo pipefail\n";
        // Only this recipe's split: a folder may hold shards of an earlier one, and
        // merged results the same as these (a recipe submitted again) change nothing.
        // A study's merge also writes its own file from the merged games: its command
        // reads the study's file again (`sweep FILE --merge`).
        let what = if self.command == "run" {
            format!("merge {}", shell_quote(&format!("results/{}", self.name)))
        } else {
            format!(
                "{} {} --merge",
                self.command,
                shell_quote(&self.config.display().to_string())
            )
        };
        let _ = writeln!(
            s,
            "exec {} {what} --shards {} --quiet",
            shell_quote(&self.binary.display().to_string()),
            self.shards
        );
        s
    }

    /// `submit.sh`: checks the files every node needs, then submits the array and the merge.
    #[must_use]
    pub fn submit(&self) -> String {
        let q = |p: &Path| shell_quote(&p.display().to_string());
        let results = self.workdir.join("results").join(self.name);
        format!(
            r#"#!/usr/bin/env bash
# Written by `reversi-lab cluster slurm`: submits experiment '{name}' as a Slurm job array of
# {shards} shards and a merge job that runs once all of them succeeded. Run it on a login node.
set -euo pipefail
binary={binary}
config={config}
scripts={scripts}
for file in "$binary" "$config"; do
  if [ ! -e "$file" ]; then
    echo "error: $file does not exist: the binary and the experiment must be on a filesystem every node sees" >&2
    exit 2
  fi
done
if [ ! -x "$binary" ]; then
  echo "error: $binary is not executable: build it with cargo build --release" >&2
  exit 2
fi
if ! command -v sbatch >/dev/null 2>&1; then
  echo "error: sbatch not found: run this on a machine of the Slurm cluster" >&2
  exit 2
fi
mkdir -p "$scripts/logs"
array=$(sbatch --parsable "$scripts/array.sbatch")
array=${{array%%;*}}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes "$scripts/merge.sbatch")
merge=${{merge%%;*}}
echo "submitted the shards as job array $array ({shards} tasks) and the merge as job $merge"
echo "watch them with: squeue -j $array,$merge   (logs in $scripts/logs)"
echo "merged results: "{results}" (report.html once the merge has run)"
echo "$array $merge" > "$scripts/jobs"
"#,
            name = self.name,
            shards = self.shards,
            binary = q(self.binary),
            config = q(self.config),
            scripts = q(self.scripts),
            results = q(&results),
        )
    }
}

/// What a Kubernetes recipe runs.
pub struct Kubernetes<'a> {
    /// The experiment's name (also the Job's, made DNS-safe).
    pub name: &'a str,
    /// The command that plays a shard of the file (`run`, `sweep`, `ablate`).
    pub command: &'a str,
    /// The experiment file's text.
    pub config: &'a str,
    /// The openings file the experiment reads, if any: its path as the config writes
    /// it (relative) and its text.
    pub openings: Option<(&'a str, &'a str)>,
    /// The container image with `reversi-lab` on its PATH.
    pub image: &'a str,
    /// Completions: one shard each.
    pub shards: u64,
    /// Pods at once.
    pub parallelism: u64,
    /// Cores per pod.
    pub cpus: u64,
    /// Retries per index before the index counts as failed.
    pub retries: u64,
    /// An existing ReadWriteMany claim for the results; without it the manifest makes one.
    pub claim: Option<&'a str>,
}

/// A Kubernetes object name from an experiment name, valid DNS-1123 (lower-case
/// letters, digits and `-`, at most 63 characters with the suffixes added to it): a
/// name that maps over unchanged keeps it (`rl-<name>`); any other gets a short hash
/// of the whole name, so that names differing only in what was mapped (`ünï`, `äna`)
/// stay distinct.
#[must_use]
pub fn dns_name(name: &str) -> String {
    let mapped: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let mut stem = mapped.trim_matches('-').to_string();
    stem.truncate(40);
    let stem = stem.trim_end_matches('-');
    if stem == name {
        return format!("rl-{stem}");
    }
    let digest = sha2::Sha256::digest(name.as_bytes());
    let hash: String = digest[..3].iter().map(|b| format!("{b:02x}")).collect();
    if stem.is_empty() {
        format!("rl-{hash}")
    } else {
        format!("rl-{stem}-{hash}")
    }
}

impl Kubernetes<'_> {
    fn claim(&self) -> String {
        self.claim.map_or_else(
            || format!("{}-results", dns_name(self.name)),
            str::to_string,
        )
    }

    fn pod(&self, command: &[String], cpus: u64) -> String {
        let args = command
            .iter()
            .map(|a| yaml_quote(a))
            .collect::<Vec<_>>()
            .join(", ");
        let items = match self.openings {
            Some((path, _)) => format!(
                "\n            items:\n              - key: experiment.toml\n                path: experiment.toml\n              - key: openings\n                path: {}",
                yaml_quote(path)
            ),
            None => String::new(),
        };
        format!(
            r#"      containers:
        - name: reversi-lab
          image: {image}
          workingDir: /data
          command: [{args}]
          resources:
            requests:
              cpu: "{cpus}"
              memory: 512Mi
            limits:
              cpu: "{cpus}"
          volumeMounts:
            - name: results
              mountPath: /data
            - name: experiment
              mountPath: /config
              readOnly: true
      volumes:
        - name: results
          persistentVolumeClaim:
            claimName: {claim}
        - name: experiment
          configMap:
            name: {job}-experiment{items}
"#,
            image = yaml_quote(self.image),
            claim = self.claim(),
            job = dns_name(self.name),
        )
    }

    /// `job.yaml`: the experiment as a ConfigMap, the results claim (unless given) and
    /// the Indexed Job whose completion index is the shard.
    #[must_use]
    pub fn job(&self) -> String {
        let job = dns_name(self.name);
        let indent = |text: &str| {
            text.lines()
                .map(|l| format!("    {l}\n"))
                .collect::<String>()
        };
        let mut s = format!(
            "# Written by `reversi-lab cluster kubernetes`: experiment '{name}' as an Indexed Job of {n} shards.\n# kubectl apply -f job.yaml, then (once it completes) kubectl apply -f merge.yaml; see docs/cluster.md.\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {job}-experiment\ndata:\n  experiment.toml: |\n{config}",
            name = self.name,
            n = self.shards,
            config = indent(self.config),
        );
        if let Some((_, text)) = self.openings {
            let _ = write!(s, "  openings: |\n{}", indent(text));
        }
        if self.claim.is_none() {
            let _ = write!(
                s,
                "---\n# The results, shared by every pod: a ReadWriteMany volume (NFS, CephFS, a cloud file store).\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {}\nspec:\n  accessModes: [ReadWriteMany]\n  resources:\n    requests:\n      storage: 10Gi\n",
                self.claim()
            );
        }
        let mut command: Vec<String> = [
            "reversi-lab",
            self.command,
            "/config/experiment.toml",
            "--shard",
            "auto",
            "--shards",
            &self.shards.to_string(),
            "--resume",
            "--threads",
            &self.cpus.to_string(),
        ]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
        if self.command == "run" {
            command.push("--no-report".into());
        }
        let _ = write!(
            s,
            "---\n# Pod i plays shard i+1 of {n} (JOB_COMPLETION_INDEX); a pod that fails is replaced with\n# the same index, and --resume continues the games its shard already wrote.\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {job}\nspec:\n  completionMode: Indexed\n  completions: {n}\n  parallelism: {p}\n  backoffLimitPerIndex: {r}\n  maxFailedIndexes: {n}\n  template:\n    spec:\n      restartPolicy: Never\n{pod}",
            n = self.shards,
            p = self.parallelism,
            r = self.retries,
            pod = self.pod(&command, self.cpus),
        );
        s
    }

    /// `merge.yaml`: a one-pod Job that merges the shards on the shared volume.
    #[must_use]
    pub fn merge(&self) -> String {
        let job = dns_name(self.name);
        // A study's merge also writes its own file: its command reads the file again.
        let what = if self.command == "run" {
            ["merge".to_string(), format!("results/{}", self.name)]
        } else {
            [self.command.to_string(), "/config/experiment.toml".into()]
        };
        let mut command: Vec<String> = vec!["reversi-lab".into(), what[0].clone(), what[1].clone()];
        if self.command != "run" {
            command.push("--merge".into());
        }
        command.extend(["--shards".into(), self.shards.to_string(), "--quiet".into()]);
        format!(
            "# Written by `reversi-lab cluster kubernetes`: merges the shards of '{name}'. Apply it once job {job} is complete:\n#   kubectl wait --for=condition=complete job/{job} --timeout=168h && kubectl apply -f merge.yaml\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {job}-merge\nspec:\n  completions: 1\n  backoffLimit: 2\n  template:\n    spec:\n      restartPolicy: Never\n{pod}",
            name = self.name,
            pod = self.pod(&command, 1),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 52, item 36: names that map to the same letters stay distinct and valid.
    #[test]
    fn kubernetes_names_are_distinct_and_valid() {
        let names = [
            "ünï",
            "äna",
            "n",
            "Default",
            "default",
            "a_b",
            "a-b",
            "ééé",
            &"x".repeat(80),
        ];
        let dns: Vec<String> = names.iter().map(|n| dns_name(n)).collect();
        for (name, d) in names.iter().zip(&dns) {
            assert!(d.len() + "-experiment".len() <= 63, "{name}: {d}");
            assert!(
                d.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{d}"
            );
            assert!(!d.ends_with('-') && !d.contains("--"), "{d}");
        }
        let mut unique = dns.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), dns.len(), "{dns:?}");
        assert_eq!(dns_name("default"), "rl-default");
        assert_eq!(dns_name("a-b"), "rl-a-b");
    }
}
