#!/usr/bin/env bash
# The sharded run on a real scheduler: writes the Slurm recipe for a small experiment with
# 3 shards, submits it to the cluster tests/slurm/start.sh started, waits for the job array
# and the dependent merge job, and compares the merged results with a run on one machine,
# byte for byte; then submits it again, and a 2-shard recipe over the same folder, whose
# merge jobs change nothing. The folder's path holds a space and a '#'. Usage: tests/slurm/test.sh [BINARY] (default target/debug/reversi-lab).
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=$(realpath "${1:-target/debug/reversi-lab}")
top=$(mktemp -d /tmp/reversi-lab-slurm.XXXXXX)
# A space and a '#' in the path: the #SBATCH lines must quote them.
work="$top/a b#c"
mkdir "$work"
cd "$work"
cat >experiment.toml <<'TOML'
name = "slurm-check"
seed = 11
games_per_pair = 40
[openings]
random_plies = 4
[[players]]
name = "greedy"
strategy = "greedy"
[[players]]
name = "mobility"
strategy = "mobility"
[[players]]
name = "corners"
strategy = "corner-first"
[[players]]
name = "ab2"
strategy = "alphabeta:depth=2"
TOML
"$binary" run experiment.toml --out single --quiet --no-report >/dev/null
# Submits the recipe and waits for its array and merge job.
submit() {
  bash results/slurm-check/slurm/submit.sh
  read -r array merge <results/slurm-check/slurm/jobs
  deadline=$((SECONDS + 300))
  while [ -n "$(squeue -h -j "$array,$merge" 2>/dev/null)" ]; do
    if [ $SECONDS -gt $deadline ]; then
      echo "error: the Slurm jobs did not finish within 300 s" >&2
      squeue >&2
      exit 1
    fi
    sleep 1
  done
}
"$binary" cluster slurm experiment.toml --shards 3 --cpus-per-task 1
submit
# The same recipe submitted again, then a recipe of another split over the same folder:
# each merge job finds the merged games it would write and changes nothing.
submit
grep -q 'nothing changed' results/slurm-check/slurm/logs/merge.out
"$binary" cluster slurm experiment.toml --shards 2 --cpus-per-task 1 --force | grep -q 'of another split'
submit
grep -q 'nothing changed' results/slurm-check/slurm/logs/merge.out
status=0
for file in games.csv pairs.csv standings.csv; do
  if cmp -s "single/$file" "results/slurm-check/$file"; then
    echo "slurm: $file merged from 3 Slurm shards equals the single-machine run"
  else
    echo "slurm: $file differs (or is missing) after the Slurm run" >&2
    status=1
  fi
done
if [ $status != 0 ]; then
  tail -n 20 results/slurm-check/slurm/logs/* >&2 || true
  exit 1
fi
test -f results/slurm-check/report.html
grep -q 'merged_from' results/slurm-check/run.toml
echo "slurm: 1 passed, 0 failed ($(ls results/slurm-check/shards | tr '\n' ' '))"
rm -rf "$top"
