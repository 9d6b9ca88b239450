"""sweep and tune from Python, over a Python strategy's declared parameters: the CLI's
studies with its files and folders, the callables handed over by name."""

from __future__ import annotations

from pathlib import Path

import pytest

import reversi_lab as rl

CORNERS = ("a1", "a8", "h1", "h8")


def corner_lover(board, rng, corner=0.0):
    """Takes a corner with probability ``corner`` (clipped to 0..1), else moves at random."""
    corners = [m for m in board.legal_moves if m in CORNERS]
    if corners and rng.random() < corner:
        return corners[0]
    return rng.choice(board.legal_moves)


def disc_count(board):
    black, white = board.discs()
    return black - white if board.turn == "black" else white - black


def test_a_sweep_of_a_search_over_a_python_evaluation(tmp_path: Path):
    config = tmp_path / "sweep.toml"
    config.write_text(
        'name = "depth-sweep"\nseed = 3\ngames_per_pair = 4\n\n[sweep]\n'
        'base = { kind = "alphabeta", depth = 1, eval = { kind = "python", name = "mine" } }\n'
        'parameter = "depth"\nvalues = [1, 2]\nplays = "panel"\npanel = ["random"]\n'
    )
    results = rl.sweep(config, out=tmp_path / "out", threads=2, players={"mine": disc_count}, progress=False)
    assert (tmp_path / "out" / "sweep.csv").is_file() and (tmp_path / "out" / "report.html").is_file()
    assert len(results.sweep) == 2
    assert len(results.games) == 2 * 4
    # The same folder as the CLI's: it reads back with load.
    assert len(rl.load(tmp_path / "out").standings) == 3
    with pytest.raises(ValueError, match="no callable is named 'mine'"):
        rl.sweep(config, out=tmp_path / "again", progress=False)


def test_a_tune_of_a_python_parameter(tmp_path: Path):
    config = tmp_path / "tune.toml"
    config.write_text(
        'name = "corner-tune"\nseed = 1\nmethod = "spsa"\niterations = 4\ngames_per_iteration = 8\n'
        'opponents = ["random"]\n\n'
        '[player]\nkind = "python"\nname = "mine"\nparams = { corner = 0.5 }\n\n'
        '[[params]]\nname = "params.corner"\nmin = 0\nmax = 1\nstep = 0.2\n\n'
        "[validation]\nskip = true\n"
    )
    tuned = rl.tune(config, out=tmp_path / "out", threads=2, players={"mine": corner_lover}, progress=False)
    assert set(tuned.best) == {"params.corner"} and 0 <= tuned.best["params.corner"] <= 1
    assert len(tuned.trace) == 4 and (tmp_path / "out" / "best.toml").is_file()
    assert tuned.lines


def test_a_sweep_of_a_python_strategys_own_parameter(tmp_path: Path):
    config = tmp_path / "sweep.toml"
    config.write_text(
        'name = "corner-sweep"\nseed = 5\ngames_per_pair = 4\n\n[sweep]\n'
        'base = { kind = "python", name = "mine", params = { corner = 0.0 } }\n'
        'parameter = "params.corner"\nvalues = [0.25, 1.0]\nplays = "panel"\npanel = ["random"]\n'
    )
    seen = set()

    def recorder(board, rng, corner=0.0):
        seen.add(corner)
        return corner_lover(board, rng, corner=corner)

    results = rl.sweep(config, out=tmp_path / "out", threads=2, players={"mine": recorder}, report=False, progress=False)
    assert len(results.sweep) == 2
    games = results.games
    assert len(games) == 2 * 4 and set(games["termination"]) == {"normal"}
    # Each variant called the callable with its own value.
    assert seen == {0.25, 1.0}
