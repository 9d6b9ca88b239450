"""match: the CLI's match, from Python: summary, games, determinism, errors."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

import reversi_lab as rl

ROOT = Path(__file__).resolve().parents[2]

GAMES_COLUMNS = [
    "game_id", "pair_id", "opening", "black", "white", "black_discs", "white_discs",
    "result", "margin", "plies", "passes", "moves", "seed", "termination",
]


def test_summary_and_games():
    m = rl.match("greedy", "random", games=200, seed=3, threads=2, progress=False)
    assert re.fullmatch(
        r"greedy vs random: \d+ wins, \d+ draws?, \d+ loss(es)? \(win rate [\d.]+%, score [\d.]+% "
        r"\[[\d.]+%, [\d.]+%\], 95% pentanomial interval over 100 game pairs\)",
        m.summary,
    ), m.summary
    assert m.wins + m.draws + m.losses == 200 and m.model == "pentanomial" and m.n == 100
    assert m.score_low <= m.score <= m.score_high
    summary, games = m
    assert summary == m.summary and str(m) == m.summary
    assert list(games.columns) == GAMES_COLUMNS and len(games) == 200
    assert list(games["game_id"]) == list(range(200))
    assert list(games["black"][:4]) == ["greedy", "random", "greedy", "random"]
    # Every game replays on a Board to the recorded end.
    for row in games.head(40).itertuples():
        board = rl.Board.from_transcript(row.moves)
        if not board.is_game_over():
            board.push_pass()
        outcome = board.outcome()
        assert (outcome.result, outcome.margin) == (row.result, row.margin)
        assert (outcome.black_discs, outcome.white_discs) == (row.black_discs, row.white_discs)
        assert row.plies == len(board.transcript()) // 2
        assert row.passes == board.move_stack.count("pass")
    a_points = [
        1.0 if r.result == ("black" if r.black == "greedy" else "white") else 0.5 if r.result == "draw" else 0.0
        for r in games.itertuples()
    ]
    assert sum(a_points) == pytest.approx(m.score * 200)


def test_same_seed_same_games_on_any_thread_count():
    one = rl.match("mobility", "random", games=60, seed=9, threads=1, openings=4, progress=False)
    two = rl.match(rl.Strategy("mobility"), rl.Strategy("random"), games=60, seed=9, threads=2, openings=4, progress=False)
    pd.testing.assert_frame_equal(one.games, two.games)
    openings = one.games["opening"]
    assert all(len(o) == 8 for o in openings)  # 4 plies of two characters
    assert all(openings[2 * k] == openings[2 * k + 1] for k in range(30))
    assert all(g.startswith(o) for g, o in zip(one.games["moves"], openings))


def test_the_games_equal_the_cli_csv(cli, tmp_path):
    csv = tmp_path / "games.csv"
    out = subprocess.run(
        [cli, "match", "greedy", "corner-edge", "--games", "51", "--seed", "5", "--size", "6",
         "--openings", "2", "--anti", "--csv", str(csv)],
        check=True, capture_output=True, text=True,
    )
    m = rl.match("greedy", "corner-edge", games=51, seed=5, size=6, openings=2, anti=True, progress=False)
    assert m.summary == out.stdout.strip()
    expected = pd.read_csv(csv, keep_default_na=False, dtype={"opening": str, "moves": str})
    got = m.games.astype({"seed": expected["seed"].dtype})
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)


def test_without_games_and_with_polars():
    m = rl.match("greedy", "greedy", games=10, keep_games=False, progress=False)
    with pytest.raises(ValueError, match="keep_games=True"):
        m.games
    polars = pytest.importorskip("polars")
    frame = rl.match("greedy", "random", games=10, progress=False, backend="polars").games
    assert isinstance(frame, polars.DataFrame) and frame.columns == GAMES_COLUMNS


def test_errors_are_the_cli_messages():
    # From Python the messages name the keyword arguments, not the CLI's flags.
    with pytest.raises(ValueError, match=r"^games=0: play at least 1 game$"):
        rl.match("greedy", "random", games=0)
    with pytest.raises(ValueError, match=r"^games=2000000000000: a match plays at most 1000000000000 games$"):
        rl.match("greedy", "random", games=2 * 10**12)
    with pytest.raises(ValueError, match=r"^openings=70 would fill the 8x8 board: use fewer$"):
        rl.match("greedy", "random", openings=70)
    with pytest.raises(ValueError, match=r"^strategy A: unknown strategy 'gredy' \(did you mean 'greedy'\?"):
        rl.match("gredy", "random", games=2)
    with pytest.raises(ValueError, match=r"^strategy B: strategy 'solver' solves every move exactly"):
        rl.match("greedy", "solver", games=2)
    with pytest.raises(ValueError, match="unsupported board size 5"):
        rl.match("greedy", "random", size=5)
    with pytest.raises(ValueError, match="unknown backend"):
        rl.match("greedy", "random", backend="excel")


def test_progress_reaches_the_total():
    seen = []
    raw = rl._core.play_match(
        "greedy", "random", games=3000, seed=1, threads=1, size=8, anti=False,
        scoring="count", openings=0, keep_games=False, progress=lambda done, total: seen.append((done, total)),
    )
    assert seen[-1] == (3000, 3000) and "vs random" in raw.summary


def test_a_failing_progress_callback_stops_the_match():
    def fail(done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        rl._core.play_match(
            "alphabeta:depth=2", "random", games=100000, seed=1, threads=1, size=8, anti=False,
            scoring="count", openings=0, keep_games=False, progress=fail,
        )


def test_ctrl_c_interrupts_a_long_match():
    # The handler is set in the child: a shell may start it with SIGINT ignored.
    script = (
        "import signal, time, reversi_lab as rl\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "print('playing', flush=True)\n"
        "try:\n"
        "    rl.match('alphabeta:depth=4', 'random', games=10**6, threads=2, progress=False)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "playing"
    time.sleep(0.5)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=30)
    assert out.strip() == "interrupted" and child.returncode == 0
    assert time.monotonic() - sent < 10


def test_a_match_lets_other_python_threads_run():
    done = threading.Event()
    result = {}

    def play():
        result["match"] = rl.match("alphabeta:depth=3", "greedy", games=1000, threads=1, progress=False)
        done.set()

    worker = threading.Thread(target=play)
    started = time.perf_counter()
    worker.start()
    spins = 0
    while not done.is_set():
        spins += 1
    worker.join()
    # Holding the interpreter lock for the whole match would leave the loop a few
    # switch intervals (5 ms each) at most.
    assert time.perf_counter() - started > 0.05 and spins > 100_000
    assert result["match"].wins + result["match"].draws + result["match"].losses == 1000


@pytest.mark.parametrize(
    "keyword,value,error,message",
    [
        ("games", -5, ValueError, r"^games=-5 is negative: play at least 1 game$"),
        ("seed", -1, ValueError, r"^seed=-1 is negative: use a seed from 0 to 9223372036854775807$"),
        ("threads", -1, ValueError, r"^threads=-1 is negative: use a number of threads, or None for one per core$"),
        ("openings", -1, ValueError, r"^openings=-1 is negative: use 0 to start from the start position"),
        ("size", -8, ValueError, r"^size=-8 is negative: use one of 4, 6, 8, 10$"),
        ("games", 10.0, TypeError, r"^games=10\.0 is not an integer \(float\): give a whole number$"),
        ("games", None, TypeError, r"^games=None is not an integer \(NoneType\): give a whole number$"),
        ("games", True, TypeError, r"^games=True is not an integer \(bool\)"),
        ("seed", "1", TypeError, r"^seed='1' is not an integer \(str\)"),
        ("seed", 2**64, ValueError, r"^seed=18446744073709551616 is too large: use 0 to 9223372036854775807$"),
    ],
)
def test_counts_are_refused_by_name(keyword, value, error, message):
    with pytest.raises(error, match=message):
        rl.match("greedy", "random", progress=False, **{keyword: value})


def test_numpy_integers_are_counts():
    import numpy as np

    m = rl.match("greedy", "random", games=np.int64(4), seed=np.uint64(3), threads=np.int8(1), size=np.int32(6), progress=False)
    assert (m.info["games"], m.info["seed"], m.info["size"], m.threads) == (4, 3, 6, 1)


def test_forfeits_are_counted_and_a_broken_engine_stops_the_match(cli, tmp_path):
    # Item 52.35: the tally counts a game lost by an engine's fault as the CLI's match
    # does (it used to be an ordinary loss), and three in a row stop the match.
    script = ROOT / "tests" / "data" / "engines" / "misbehave.py"
    once = f"gtp:{sys.executable} {script} exit 2 {tmp_path / 'once'} -- {cli} gtp --strategy greedy"
    m = rl.match(once, "greedy", games=4, threads=1, progress=False)
    assert m.summary.endswith("; forfeits: A 1 crash"), m.summary
    assert m.info["forfeits"]["a"]["crash"] == 1 and m.info["forfeits"]["b"]["crash"] == 0
    assert list(m.games["termination"]).count("crash") == 1
    assert m.logs is not None and any(m.logs.glob("A-*.log"))
    always = f"gtp:{sys.executable} {script} always-exit 2 {tmp_path / 'always'} -- {cli} gtp --strategy greedy"
    with pytest.raises(ValueError, match=r"^player 'A' lost 3 games in a row by a fault \(the last: crash"):
        rl.match(always, "greedy", games=40, threads=1, progress=False)
