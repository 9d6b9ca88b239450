#!/bin/sh
# Issue 49's study as run for docs/mcts.md on the shared 2-core machine (2026-12-05), at
# low priority and at the scale stated there. BIN: the release binary. Queue A holds the
# timed runs (their wall time is set by the clock), queue B those budgeted in iterations;
# they run side by side.
set -e
BIN=${BIN:-target/release/reversi-lab}
OUT=${OUT:-results}
queue_a() {
    nice -n 10 "$BIN" run experiments/mcts-grhino.toml --threads 2 --out "$OUT/mcts-grhino"
    nice -n 10 "$BIN" run experiments/mcts-equal-time.toml --threads 2 --games 10 --out "$OUT/mcts-equal-time"
}
queue_b() {
    nice -n 10 "$BIN" run experiments/mcts-weighted-classic.toml --threads 1 --out "$OUT/mcts-weighted-classic"
    nice -n 10 "$BIN" sweep experiments/sweep-mcts-iterations-small.toml --threads 1 --out "$OUT/mcts-sweep-small"
    nice -n 10 "$BIN" run experiments/mcts-no-evaluation.toml --threads 1 --games 10 --out "$OUT/mcts-no-evaluation-6x6"
    for opponent in "alphabeta:depth=4,eval=weighted" greedy; do
        nice -n 10 "$BIN" match "mcts:iterations=10000,objective=margin" "$opponent" --anti --scoring count --openings 4 --games 6 --threads 1
        nice -n 10 "$BIN" match mcts:iterations=10000 "$opponent" --size 10 --openings 4 --games 4 --threads 1
    done
}
queue_a > "$OUT/mcts-queue-a.log" 2>&1 &
queue_b > "$OUT/mcts-queue-b.log" 2>&1 &
wait
