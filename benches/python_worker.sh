#!/usr/bin/env bash
# A one-line Python random mover against built-in greedy through worker processes, as
# `reversi-lab run` plays it from a config file (issue 50's goal: 3,000 games/s on 2
# cores). Prints the median of RUNS runs in games per second (wall time of the command,
# worker start-up included).
#
#   benches/python_worker.sh [BIN] [PYTHON] [GAMES] [RUNS] [THREADS]
#
# BIN: a release build of the binary (default target/release/reversi-lab); PYTHON: an
# interpreter with the package installed (default $REVERSI_LAB_PYTHON, else python3).
set -euo pipefail
bin=$(realpath "${1:-target/release/reversi-lab}")
python=${2:-${REVERSI_LAB_PYTHON:-python3}}
games=${3:-4000}
runs=${4:-3}
threads=${5:-2}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/mover.py" <<'PY'
def choose(board, rng):
    return rng.choice(board.legal_moves)
PY
cat >"$dir/bench.toml" <<TOML
name = "python-worker"
games_per_pair = $games
[[players]]
name = "mine"
strategy = { kind = "python", callable = "mover:choose", python = "$python" }
[[players]]
name = "greedy"
strategy = "greedy"
TOML
rates=()
for run in $(seq "$runs"); do
  rm -rf "$dir/out"
  start=$(date +%s.%N)
  (cd "$dir" && nice -n 10 "$bin" run bench.toml --out out --quiet --no-report --threads "$threads")
  end=$(date +%s.%N)
  rate=$(echo "$games / ($end - $start)" | bc -l)
  rates+=("$(printf '%.0f' "$rate")")
  echo "run $run: $(printf '%.0f' "$rate") games/s"
done
printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print "median: " a[int((NR+1)/2)] " games/s (" NR " runs, '"$games"' games, '"$threads"' threads)"}'
