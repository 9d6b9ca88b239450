"""run and load: experiments into results folders, read back as DataFrames."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import reversi_lab as rl

EXPERIMENT = {
    "name": "py-test",
    "seed": 4,
    "size": 6,
    "games_per_pair": 20,
    "threads": 2,
    "openings": {"random_plies": 2},
    "players": [
        {"name": "greedy", "strategy": "greedy"},
        {"name": "search", "strategy": {"kind": "alphabeta", "depth": 2}},
        {"name": "random", "strategy": "random"},
    ],
}


def test_run_a_dict_then_load_it(tmp_path):
    out = tmp_path / "results"
    results = rl.run(EXPERIMENT, out=out, progress=False)
    assert results.line.startswith("60 games in ") and results.line.endswith(f"results in {out}")
    assert results.run["status"] == "complete" and results.experiment["name"] == "py-test"
    assert results.report == out / "report.html"
    games, pairs, standings = results.games, results.pairs, results.standings
    assert len(games) == 60 and list(games["game_id"]) == list(range(60))
    assert (games["opening"].str.len() == 4).all()
    assert list(pairs["player_a"]) == ["greedy", "greedy", "search"]
    assert pairs["games"].sum() == 60 and sorted(standings["player"]) == ["greedy", "random", "search"]
    loaded = rl.load(out)
    pd.testing.assert_frame_equal(loaded.games, games)
    pd.testing.assert_frame_equal(loaded.pairs, pd.read_csv(out / "pairs.csv"))
    pd.testing.assert_frame_equal(loaded.standings, pd.read_csv(out / "standings.csv"))
    assert "py-test" in repr(loaded)


def test_a_toml_file_overrides_and_an_existing_folder(tmp_path):
    config = tmp_path / "h2h.toml"
    config.write_text(
        'name = "h2h"\nformat = "head-to-head"\ngames_per_pair = 10\nthreads = 1\n'
        '[[players]]\nname = "a"\nstrategy = "greedy"\n'
        '[[players]]\nname = "b"\nstrategy = "mobility"\n'
    )
    out = tmp_path / "h2h"
    first = rl.run(config, out=out, games=8, seed=2, report=False, progress=False)
    assert len(first.games) == 8 and first.report is None
    with pytest.raises(ValueError, match=r"already exists: pass --resume to continue it, --force"):
        rl.run(config, out=out, progress=False)
    again = rl.run(str(config), out=out, games=8, seed=2, force=True, report=False, progress=False)
    pd.testing.assert_frame_equal(again.games, first.games)
    same = rl.run(config, out=out, games=8, seed=2, resume=True, report=False, progress=False)
    assert same.line.startswith("0 games in ")
    pd.testing.assert_frame_equal(same.games, first.games)
    with pytest.raises(ValueError, match=r"was made by a different experiment \(games_per_pair = 8 in run.toml but 12 now\)"):
        rl.run(config, out=out, games=12, seed=2, resume=True, progress=False)


def test_compressed_games_and_polars(tmp_path):
    experiment = dict(EXPERIMENT, compress="zstd", name="zst")
    results = rl.run(experiment, out=tmp_path / "zst", report=False, progress=False)
    assert (tmp_path / "zst" / "games.csv.zst").is_file()
    assert len(results.games) == 60
    plain = rl.run(EXPERIMENT, out=tmp_path / "plain", report=False, progress=False)
    pd.testing.assert_frame_equal(results.games, plain.games)
    polars = pytest.importorskip("polars")
    frames = rl.load(tmp_path / "zst", backend="polars")
    assert isinstance(frames.games, polars.DataFrame) and frames.games.height == 60
    assert frames.pairs.height == 3 and frames.games["opening"].str.len_chars().min() == 4


def test_errors(tmp_path):
    with pytest.raises(ValueError, match=r"^the experiment dict: player 'a': unknown strategy 'gredy'"):
        rl.run({"name": "x", "players": [{"name": "a", "strategy": "gredy"}]}, out=tmp_path / "x")
    with pytest.raises(ValueError, match="unknown key|plyers"):
        rl.run(dict(EXPERIMENT, plyers=[]), out=tmp_path / "y")
    with pytest.raises(ValueError, match=r"results folder .*nowhere does not exist"):
        rl.load(tmp_path / "nowhere")
    with pytest.raises(ValueError, match="unknown backend"):
        rl.load(tmp_path, backend="excel")
    assert not (tmp_path / "x").exists()


def test_an_interrupted_run_resumes_to_the_same_games(tmp_path):
    experiment = dict(EXPERIMENT, name="long", size=8, games_per_pair=2000, threads=1)
    # Slow enough (about 1.5 s on one core) that the first progress poll, 0.1 s in, always
    # comes before the end: at depth 2 the 2000 games took 0.14 s on an idle machine.
    experiment["players"] = [
        EXPERIMENT["players"][0],
        {"name": "search", "strategy": {"kind": "alphabeta", "depth": 4}},
    ]

    def interrupt(done, total):
        raise KeyboardInterrupt

    out = tmp_path / "long"
    with pytest.raises(KeyboardInterrupt):
        # As Ctrl-C does: the runner stops after the games in flight.
        rl._core.run_experiment(
            None, __import__("json").dumps(experiment), out=str(out), games=None, seed=None,
            threads=None, resume=False, force=False, report=False, quiet=True, progress=interrupt,
        )
    stopped = rl.load(out)
    assert stopped.run["status"] == "interrupted" and stopped.partial[0] < 2000
    resumed = rl.run(experiment, out=out, resume=True, report=False, progress=False)
    whole = rl.run(experiment, out=tmp_path / "whole", report=False, progress=False)
    assert resumed.run["status"] == "complete"
    pd.testing.assert_frame_equal(resumed.games, whole.games)
    pd.testing.assert_frame_equal(resumed.pairs, whole.pairs)
