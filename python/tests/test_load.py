"""load: the DataFrames equal the folder's CSV files, column for column, in every kind of
results folder: the committed examples of tests/golden remade, an SPRT that never
stopped, shards merged, compressed games, and a run that was interrupted."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pandas as pd
import pytest

import reversi_lab as rl

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
EXPERIMENTS = ROOT / "experiments"
TEXT = {"opening": str, "moves": str}


def assert_frames_are_the_files(folder: Path) -> rl.Results:
    """Every table of ``load(folder)`` against pandas' own reading of the file."""
    results = rl.load(folder)
    for name in ("pairs", "standings"):
        expected = pd.read_csv(folder / f"{name}.csv")
        got = getattr(results, name)
        assert list(got.columns) == list(expected.columns), (folder, name)
        pd.testing.assert_frame_equal(got, expected, obj=f"{folder.name}/{name}")
    games = next(folder / f for f in ("games.csv", "games.csv.zst") if (folder / f).is_file())
    if games.suffix == ".csv":
        expected = pd.read_csv(games, keep_default_na=False, dtype=TEXT)
        pd.testing.assert_frame_equal(results.games, expected, obj=f"{folder.name}/games")
    polars = pytest.importorskip("polars")
    frames = rl.load(folder, backend="polars")
    for name in ("pairs", "standings"):
        expected = polars.read_csv(folder / f"{name}.csv")
        assert getattr(frames, name).equals(expected), (folder, name)
    return results


def assert_same_files(made: Path, golden: Path) -> None:
    """The folder remade is the committed example, so the comparison above is over it."""
    for csv in sorted(golden.glob("*.csv")):
        assert (made / csv.name).read_bytes() == csv.read_bytes(), csv


# The commands of tests/golden/README.md that `run` plays, from Python.
RUNS = {
    "round-robin": ("default.toml", {"games": 4}),
    "gauntlet": ("search-vs-heuristics.toml", {"games": 6}),
    "head-to-head": ("sprt-mobility.toml", {}),
}


@pytest.mark.parametrize("kind", sorted(RUNS))
def test_the_golden_runs_load_as_their_files(kind, tmp_path):
    config, overrides = RUNS[kind]
    out = tmp_path / kind
    rl.run(EXPERIMENTS / config, out=out, report=False, progress=False, **overrides)
    assert_same_files(out, GOLDEN / kind)
    assert_frames_are_the_files(out)


def test_the_golden_ablation_and_tune_load_as_their_files(cli, tmp_path):
    quiet = ["--quiet"]
    subprocess.run(
        [cli, "ablate", str(EXPERIMENTS / "ablation-eval.toml"), "--games", "80", "--out", str(tmp_path / "ablation")]
        + quiet,
        check=True, capture_output=True,
    )
    assert_same_files(tmp_path / "ablation", GOLDEN / "ablation")
    assert_frames_are_the_files(tmp_path / "ablation")
    subprocess.run(
        [cli, "tune", str(GOLDEN / "tune-small.toml"), "--out", str(tmp_path / "tune")] + quiet,
        check=True, capture_output=True,
    )
    for validation in sorted((GOLDEN / "tune").glob("validation-*/")):
        assert_same_files(tmp_path / "tune" / validation.name, validation)
        assert_frames_are_the_files(tmp_path / "tune" / validation.name)


def test_an_sprt_that_never_stopped_keeps_its_empty_columns(tmp_path):
    # The committed SPRT with too few games for it to decide: sprt_pairs and the
    # median-unbiased Elo (given only after a stop) stay empty.
    out = tmp_path / "sprt"
    results = rl.run(EXPERIMENTS / "sprt-mobility.toml", out=out, games=8, report=False, progress=False)
    assert results.run["status"] == "complete"
    header = (out / "pairs.csv").read_text().splitlines()[0].split(",")
    after_stop = ["sprt_elo", "sprt_elo_low", "sprt_elo_high"]
    assert header[-5:] == ["sprt_pairs", "sprt_result", *after_stop] and len(header) == 43
    loaded = assert_frames_are_the_files(out)
    assert len(loaded.pairs.columns) == 43
    assert loaded.pairs["sprt_pairs"].isna().all() and list(loaded.pairs["sprt_result"]) == ["continue"]
    assert all(loaded.pairs[c].isna().all() for c in after_stop)


def even_sprt(games: int) -> dict:
    """An SPRT between two copies of one player: every colour-swapped pair splits 1-1,
    so the LLR stays at 0 and the test never stops, however many games it plays."""
    search = "alphabeta:depth=4"
    return {
        "name": "even",
        "format": "head-to-head",
        "games_per_pair": games,
        "threads": 1,
        "openings": {"random_plies": 4},
        "sprt": {"elo0": 0, "elo1": 5, "alpha": 0.05, "beta": 0.05},
        "players": [{"name": "one", "strategy": search}, {"name": "other", "strategy": search}],
    }


def test_merged_shards_and_compressed_games_load_as_their_files(cli, tmp_path):
    for shard in ("1/2", "2/2"):
        subprocess.run(
            [cli, "run", str(EXPERIMENTS / "default.toml"), "--games", "4", "--shard", shard, "--quiet", "--no-report"],
            check=True, capture_output=True, cwd=tmp_path,
        )
    subprocess.run([cli, "merge", "results/default", "--quiet", "--no-report"], check=True, capture_output=True, cwd=tmp_path)
    merged = tmp_path / "results" / "default"
    assert_same_files(merged, GOLDEN / "round-robin")
    assert_frames_are_the_files(merged)
    zst = dict(even_sprt(8), compress="zstd")
    assert_frames_are_the_files(rl.run(zst, out=tmp_path / "zst", report=False, progress=False).dir)


def test_an_interrupted_sprt_run_has_the_columns_of_a_finished_one(tmp_path):
    # Slow enough (about 1.5 s on one core) that the first progress poll, 0.1 s in,
    # comes before the end, as in test_run's interrupted run.
    experiment = even_sprt(2000)

    def interrupt(done, total):
        raise KeyboardInterrupt

    out = tmp_path / "stopped"
    with pytest.raises(KeyboardInterrupt):
        rl._core.run_experiment(
            None, experiment, out=str(out), games=None, seed=None, threads=None, resume=False,
            force=False, report=False, quiet=True, progress=interrupt,
        )
    stopped = rl.load(out)
    assert stopped.partial is not None and not (out / "pairs.csv").exists()
    finished = rl.run(even_sprt(8), out=tmp_path / "finished", report=False, progress=False)
    assert list(stopped.pairs.columns) == list(pd.read_csv(finished.dir / "pairs.csv").columns)
    assert list(stopped.standings.columns) == list(pd.read_csv(finished.dir / "standings.csv").columns)
    assert stopped.pairs["games"].sum() == stopped.partial[0] == len(stopped.games)
