#!/bin/sh
# Issue 49's study as run for docs/mcts.md on the shared 2-core machine (2026-12-05,
# second session), at low priority and at the scale stated there. BIN: the release
# binary (copied out of the tree, so that rebuilds do not touch it); OUT: a folder
# outside the repository. The first target's run went first and alone; then the rest
# side by side (on a machine shared many ways, more of one's own threads cost the
# others little): the runs budgeted in iterations (queue B) and the timed round robin
# (queue C), whose wall time is set by the clock.
set -e
BIN=${BIN:-target/release/reversi-lab}
OUT=${OUT:-results}
nice -n 10 "$BIN" run experiments/mcts-uct-target.toml --threads 2 --out "$OUT/mcts-uct-target"
queue_b() {
    nice -n 10 "$BIN" sweep experiments/sweep-mcts-iterations.toml --threads 2 --games 20 --out "$OUT/mcts-sweep"
    nice -n 10 "$BIN" run experiments/mcts-no-evaluation.toml --threads 2 --out "$OUT/mcts-no-evaluation-6x6"
    nice -n 10 "$BIN" run experiments/mcts-no-evaluation-anti.toml --threads 2 --out "$OUT/mcts-no-evaluation-anti"
    nice -n 10 "$BIN" run experiments/mcts-no-evaluation-10x10.toml --threads 2 --out "$OUT/mcts-no-evaluation-10x10"
    nice -n 10 "$BIN" sweep experiments/sweep-mcts-c.toml --threads 2 --out "$OUT/mcts-sweep-c"
    nice -n 10 "$BIN" sweep experiments/sweep-mcts-iterations.toml --threads 2 --games 40 --out "$OUT/mcts-sweep-40"  # stopped at the deadline
}
queue_c() {
    nice -n 10 "$BIN" run experiments/mcts-equal-time.toml --threads 2 --out "$OUT/mcts-equal-time"
}
# Third session (docs/mcts.md, "The search audited"): the target's variants against
# weighted classic, alone on the shared machine, stopped at the session's end.
variants() {
    nice -n 10 "$BIN" run experiments/mcts-target-variants.toml --threads 2 --out "$OUT/target-shuffled"
}
# Fourth session: the round robin with all nine players (the file now lists them), the
# sweep at 40 games a pair, and 400-game runs against weighted classic, side by side.
fourth() {
    nice -n 5 "$BIN" run experiments/mcts-target-seed7.toml --threads 2 --out "$OUT/target-seed7" &
    nice -n 5 "$BIN" run experiments/mcts-equal-time.toml --threads 2 --out "$OUT/equal-time-9" &
    wait
    nice -n 10 "$BIN" run experiments/mcts-target-c-seed7.toml --threads 1 --out "$OUT/target-c-seed7" &
    nice -n 10 "$BIN" sweep experiments/sweep-mcts-iterations.toml --threads 2 --games 40 --out "$OUT/sweep-40" &
    wait
}
if [ "${1:-}" = variants ]; then variants; exit; fi
if [ "${1:-}" = fourth ]; then fourth; exit; fi
queue_b > "$OUT/mcts-queue-b.log" 2>&1 &
queue_c > "$OUT/mcts-queue-c.log" 2>&1 &
wait
