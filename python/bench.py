"""Speed of the Python front, printed as medians of several runs.

    python python/bench.py playout            # a pure-Python random playout loop through Board
    python python/bench.py match [--cli BIN]  # match from Python against `reversi-lab match`

The playout loop is the one a Python user writes: read ``legal_moves``, push a random
one (or pass), until the game is over; it runs on one core. ``match`` plays greedy
against greedy in Rust on every core, once from Python and once through the CLI (its
wall time, process start included), the same games either way.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import time
from pathlib import Path

import reversi_lab as rl


def playouts(games: int, seed: int) -> int:
    choice = random.Random(seed).choice
    plies = 0
    for _ in range(games):
        board = rl.Board()
        while not board.is_game_over():
            moves = board.legal_moves
            if moves:
                board.push(choice(moves))
            else:
                board.push_pass()
        plies += len(board.move_stack)
    return plies


def bench_playout(games: int, runs: int) -> None:
    rates = []
    for run in range(runs):
        started = time.perf_counter()
        plies = playouts(games, run)
        seconds = time.perf_counter() - started
        rates.append(games / seconds)
        print(f"  run {run + 1}: {games} games ({plies} plies) in {seconds:.2f} s: {games / seconds:,.0f} games/s")
    print(f"playout loop through Board: median {statistics.median(rates):,.0f} games/s (one core)")


def bench_match(games: int, runs: int, cli: str | None, threads: int) -> None:
    cli = cli or shutil.which("reversi-lab") or _built_cli()
    python_rates, cli_rates, frame_rates = [], [], []
    for run in range(runs):
        started = time.perf_counter()
        m = rl.match("greedy", "greedy", games=games, threads=threads, progress=False)
        call = time.perf_counter() - started
        m.games  # the DataFrame, built on first use
        with_frame = time.perf_counter() - started
        python_rates.append(games / call)
        frame_rates.append(games / with_frame)
        line = f"  run {run + 1}: Python {games / call:,.0f} games/s ({games / with_frame:,.0f} with the DataFrame)"
        if cli:
            started = time.perf_counter()
            subprocess.run(
                [cli, "match", "greedy", "greedy", "--games", str(games), "--threads", str(threads)],
                check=True,
                capture_output=True,
            )
            seconds = time.perf_counter() - started
            cli_rates.append(games / seconds)
            line += f", CLI {games / seconds:,.0f} games/s"
        print(line)
    python = statistics.median(python_rates)
    print(f"match from Python: median {python:,.0f} games/s ({statistics.median(frame_rates):,.0f} with the DataFrame)")
    if cli_rates:
        reference = statistics.median(cli_rates)
        print(f"reversi-lab match ({cli}): median {reference:,.0f} games/s; Python/CLI = {python / reference:.1%}")
    else:
        print("no reversi-lab binary found: pass --cli")


def _built_cli() -> str | None:
    root = Path(__file__).resolve().parents[1]
    release = root / "target" / "release" / "reversi-lab"
    return str(release) if release.exists() else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["playout", "match"])
    parser.add_argument("--games", type=int, help="games per run (playout: 10000, match: 200000)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0, help="match threads (0: one per core)")
    parser.add_argument("--cli", help="the reversi-lab binary (default: on PATH, else target/release)")
    args = parser.parse_args()
    if args.what == "playout":
        bench_playout(args.games or 10_000, args.runs)
    else:
        bench_match(args.games or 200_000, args.runs, args.cli, args.threads)


if __name__ == "__main__":
    main()
