"""Speed of the Python front, printed as medians of several runs.

    python python/bench.py playout            # a pure-Python random playout loop through Board
    python python/bench.py match [--cli BIN]  # match from Python against `reversi-lab match`
    python python/bench.py python             # a Python random mover against greedy, in this process
    python python/bench.py eval               # a Python evaluation inside alphabeta: the cost a call

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
        m = rl.match("greedy", "greedy", games=games, threads=threads or None, progress=False)
        call = time.perf_counter() - started
        m.games  # the DataFrame, built on first use
        with_frame = time.perf_counter() - started
        python_rates.append(games / call)
        frame_rates.append(games / with_frame)
        line = f"  run {run + 1}: Python {games / call:,.0f} games/s ({games / with_frame:,.0f} with the DataFrame)"
        if cli:
            started = time.perf_counter()
            subprocess.run(
                [cli, "match", "greedy", "greedy", "--games", str(games)] + (["--threads", str(threads)] if threads else []),
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


def random_mover(board, rng):
    return rng.choice(board.legal_moves)


def bench_python(games: int, runs: int, threads: int) -> None:
    """The issue's one-line random mover against built-in greedy through ``match``:
    the Python calls take the interpreter lock one at a time, the rest plays in Rust
    on every thread."""
    rates, cpu = [], []
    for run in range(runs):
        started = time.process_time()
        m = rl.match(random_mover, "greedy", games=games, threads=threads or None, seed=run, progress=False, keep_games=False)
        # CPU time of the whole process (every thread) a game: what a loaded machine
        # changes least, beside the wall-clock rate.
        cpu.append((time.process_time() - started) / games)
        rates.append(games / m.seconds)
        print(
            f"  run {run + 1}: {games} games in {m.seconds:.2f} s on {m.threads} threads: {games / m.seconds:,.0f} games/s, "
            f"{cpu[-1] * 1e6:.1f} us of CPU a game"
        )
    print(
        f"Python random mover vs greedy: median {statistics.median(rates):,.0f} games/s, "
        f"{statistics.median(cpu) * 1e6:.1f} us of CPU a game"
    )


def bench_eval(runs: int) -> None:
    """A Python evaluation inside ``alphabeta``: the time a search spends per call of the
    evaluation beyond the function's own time. The function is the disc count, so the
    search visits the very tree it visits over built-in ``greedy`` (the same count, one
    thousandth the units), whose time is taken off; the function's own time is timed
    calling it from Python."""
    calls = 0

    def value(board):
        nonlocal calls
        calls += 1
        black, white = board.discs()
        return black - white if board.turn == "black" else white - black

    board = rl.Board()
    for move in ("f5", "d6", "c3", "d3", "c4", "f4"):
        board.push(move)
    depth = 5
    python = rl.Strategy(f"alphabeta:depth={depth}", eval=value)
    builtin = rl.Strategy(f"alphabeta:depth={depth},eval=greedy")
    assert python.choose(board, seed=1) == builtin.choose(board, seed=1)
    costs = []
    for run in range(runs):
        calls = 0
        started = time.perf_counter()
        python.choose(board, seed=run)
        with_python = time.perf_counter() - started
        counted = calls
        started = time.perf_counter()
        builtin.choose(board, seed=run)
        with_builtin = time.perf_counter() - started
        started = time.perf_counter()
        for _ in range(counted):
            value(board)
        own = (time.perf_counter() - started) / counted
        per_call = (with_python - with_builtin) / counted
        costs.append(per_call - own)
        print(
            f"  run {run + 1}: {counted} calls in {with_python * 1e3:.1f} ms (built-in greedy {with_builtin * 1e3:.1f} ms): "
            f"{per_call * 1e6:.2f} us a call, {own * 1e6:.2f} us of it the function's own"
        )
    print(f"Python evaluation in alphabeta: median {statistics.median(costs) * 1e6:.2f} us a call beyond the function's own time")


def _built_cli() -> str | None:
    root = Path(__file__).resolve().parents[1]
    release = root / "target" / "release" / "reversi-lab"
    return str(release) if release.exists() else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["playout", "match", "python", "eval"])
    parser.add_argument("--games", type=int, help="games per run (playout: 10000, match: 200000, python: 20000)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0, help="match threads (0: one per core, threads=None)")
    parser.add_argument("--cli", help="the reversi-lab binary (default: on PATH, else target/release)")
    args = parser.parse_args()
    if args.what == "playout":
        bench_playout(args.games or 10_000, args.runs)
    elif args.what == "python":
        bench_python(args.games or 20_000, args.runs, args.threads)
    elif args.what == "eval":
        bench_eval(args.runs)
    else:
        bench_match(args.games or 200_000, args.runs, args.cli, args.threads)


if __name__ == "__main__":
    main()
