#!/usr/bin/env bash
# Instruction counts (callgrind) of the four hot paths a restructuring must not slow:
# perft 9, greedy `run` (20,000 games, 1 thread), alpha-beta depth 6 games, and the
# solver on FFO #40-#44 on one thread. Counts, not seconds: the machine's load does not
# move them. Usage: benches/instructions.sh FFO_OBF [OUT_FILE]
#   FFO_OBF: the FFO file holding #40-#59 (fforum-40-59.obf), of which the first five
#   lines are solved. Builds the fat-LTO bench binaries and the release binary first.
set -euo pipefail
ffo=${1:?usage: benches/instructions.sh FFO_OBF [OUT_FILE]}
out=${2:-/dev/stdout}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
head -n 5 "$ffo" > "$scratch/ffo-40-44.obf"
cargo build --release --locked -q
cargo bench --no-run --locked -q --bench engine --bench runner --bench strategies 2>/dev/null
bench() { ls -t target/release/deps/"$1"-* | grep -v '\.d$' | head -n 1; }
count() { # NAME COMMAND...: one callgrind run, its total instructions
    local name=$1; shift
    valgrind --tool=callgrind --callgrind-out-file="$scratch/$name.cg" "$@" >/dev/null 2>"$scratch/$name.err"
    local total
    total=$(grep -m1 '^summary:' "$scratch/$name.cg" | awk '{print $2}')
    printf '%s\t%s\n' "$name" "$total"
}
{
    printf 'commit\t%s\n' "$(git rev-parse --short HEAD)$(git diff --quiet || echo '+dirty')"
    count perft-9 "$(bench engine)" --once avx2 9
    count run-greedy-20000 "$(bench runner)" --once run:1 20000
    count alphabeta-depth-6 "$(bench strategies)" --once "alphabeta depth 6"
    count ffo-40-44-1-thread target/release/reversi-lab solve --threads 1 "$scratch/ffo-40-44.obf"
} > "$out"
