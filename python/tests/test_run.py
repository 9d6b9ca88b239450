"""run and load: experiments into results folders, read back as DataFrames."""

from __future__ import annotations

import warnings
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
    with pytest.raises(
        ValueError,
        match=r"already exists: pass resume=True to continue it, force=True to replace it, or out=DIR to write elsewhere$",
    ):
        rl.run(config, out=out, progress=False)
    again = rl.run(str(config), out=out, games=8, seed=2, force=True, report=False, progress=False)
    pd.testing.assert_frame_equal(again.games, first.games)
    same = rl.run(config, out=out, games=8, seed=2, resume=True, report=False, progress=False)
    assert same.line.startswith("0 games in ")
    pd.testing.assert_frame_equal(same.games, first.games)
    with pytest.raises(ValueError, match=r"was made by a different experiment \(games_per_pair = 8 in run.toml but 12 now \(pass games=8 to continue it\)\)"):
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
            None, experiment, out=str(out), games=None, seed=None,
            threads=None, resume=False, force=False, report=False, quiet=True, progress=interrupt,
        )
    stopped = rl.load(out)
    assert stopped.run["status"] == "interrupted" and stopped.partial[0] < 2000
    resumed = rl.run(experiment, out=out, resume=True, report=False, progress=False)
    whole = rl.run(experiment, out=tmp_path / "whole", report=False, progress=False)
    assert resumed.run["status"] == "complete"
    pd.testing.assert_frame_equal(resumed.games, whole.games)
    pd.testing.assert_frame_equal(resumed.pairs, whole.pairs)


def test_resume_and_force_together_are_refused(tmp_path):
    out = tmp_path / "kept"
    first = rl.run(EXPERIMENT, out=out, report=False, progress=False)
    before = (out / "games.csv").read_bytes()
    with pytest.raises(
        ValueError, match=r"^resume=True and force=True contradict each other: .*; pass one of them$"
    ):
        rl.run(dict(EXPERIMENT, seed=99), out=out, resume=True, force=True, progress=False)
    # Nothing was replaced: the folder holds the first run's games.
    assert (out / "games.csv").read_bytes() == before
    pd.testing.assert_frame_equal(rl.load(out).games, first.games)


def test_messages_name_the_keyword_arguments(tmp_path):
    with pytest.raises(ValueError, match=r"^games=3 is odd: games per pair must be even"):
        rl.run(EXPERIMENT, out=tmp_path / "odd", games=3, progress=False)
    with pytest.raises(ValueError, match=r"^games=0: play at least 2 games per pair$"):
        rl.run(EXPERIMENT, out=tmp_path / "none", games=0, progress=False)
    with pytest.raises(ValueError, match=r"^seed=9223372036854775808 is too large: use 0 to 9223372036854775807$"):
        rl.run(EXPERIMENT, out=tmp_path / "big", seed=2**63, progress=False)
    with pytest.raises(ValueError, match=r"nothing to resume in .*: give the experiment file, or check out=DIR$"):
        rl.run(None, out=tmp_path / "empty", resume=True, progress=False)


@pytest.mark.parametrize(
    "keyword,value,error,message",
    [
        ("games", -5, ValueError, r"^games=-5 is negative: play at least 2 games per pair$"),
        ("seed", -1, ValueError, r"^seed=-1 is negative: use a seed from 0 to 9223372036854775807$"),
        ("threads", -1, ValueError, r"^threads=-1 is negative: use a number of threads, or None for the experiment's$"),
        ("seed", 2**64, ValueError, r"^seed=18446744073709551616 is too large: use 0 to 9223372036854775807$"),
        ("games", 10.0, TypeError, r"^games=10\.0 is not an integer \(float\): give a whole number$"),
        ("seed", 1.5, TypeError, r"^seed=1\.5 is not an integer \(float\)"),
    ],
)
def test_counts_are_refused_by_name(tmp_path, keyword, value, error, message):
    with pytest.raises(error, match=message):
        rl.run(EXPERIMENT, out=tmp_path / "x", progress=False, **{keyword: value})
    assert not (tmp_path / "x").exists()


def test_a_dict_names_the_key_of_a_bad_value(tmp_path):
    message = r"^the experiment dict: seed = NaN is not accepted: use a whole number of at least 0$"
    with pytest.raises(ValueError, match=message):
        rl.run(dict(EXPERIMENT, seed=float("nan")), out=tmp_path / "nan", progress=False)
    # Named by its key, with the range it takes (issue 52 item 35: it said "at least 0").
    message = r'^the experiment dict: games_per_pair = "4" is not accepted: use a whole number from 2 to 1000000000000$'
    with pytest.raises(ValueError, match=message):
        rl.run(dict(EXPERIMENT, games_per_pair="4"), out=tmp_path / "text", progress=False)
    with pytest.raises(ValueError, match=r"^the experiment dict: players\[1\]\.strategy\.depth is None"):
        players = [EXPERIMENT["players"][0], {"name": "s", "strategy": {"kind": "alphabeta", "depth": None}}]
        rl.run(dict(EXPERIMENT, players=players), out=tmp_path / "none", progress=False)
    with pytest.raises(TypeError, match=r"^the experiment dict: openings = \{1, 2\} is a set"):
        rl.run(dict(EXPERIMENT, openings={1, 2}), out=tmp_path / "set", progress=False)
    # A path is a file name, as in a TOML file.
    openings = tmp_path / "openings.txt"
    openings.write_text("c2\nb3\n")  # 6x6 openings
    done = rl.run(dict(EXPERIMENT, openings={"file": openings}), out=tmp_path / "file", report=False, progress=False)
    assert set(done.games["opening"]) == {"c2", "b3"}


def test_replayed_games_warn_with_a_warning_python_can_filter(tmp_path, capfd):
    # A deep search sees through the 4x4 board's ties, so from the start position with
    # no random openings both pairs of colours play the same two games.
    search = "alphabeta:depth=6"
    replays = {
        "name": "replays",
        "size": 4,
        "games_per_pair": 4,
        "threads": 1,
        "players": [{"name": "a", "strategy": search}, {"name": "b", "strategy": search}],
    }
    with pytest.warns(rl.ReplayWarning, match=r"^REPLAYED GAMES: 1 of 1 pairs played the same game") as caught:
        rl.run(replays, out=tmp_path / "warned", progress=False)
    assert issubclass(rl.ReplayWarning, UserWarning) and "ReplayWarning" in rl.__all__
    assert caught[0].filename == __file__  # the caller's line, not the package's
    assert "warning" not in capfd.readouterr().err
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=rl.ReplayWarning)
        rl.run(replays, out=tmp_path / "quiet", progress=False)
    assert "REPLAYED" not in capfd.readouterr().err


@pytest.mark.parametrize("backend", ["pandas", "polars"])
def test_player_names_that_read_like_missing_values_or_numbers_stay_names(tmp_path, backend):
    """Issue 52, item 33: NA, null and 1e3 came back as NaN, NaN and 1000.0."""
    if backend == "polars":
        pytest.importorskip("polars")
    names = ["NA", "null", "1e3"]
    experiment = dict(EXPERIMENT, games_per_pair=2, players=[{"name": n, "strategy": "random"} for n in names])
    rl.run(experiment, out=tmp_path / "names", report=False, progress=False)
    results = rl.load(tmp_path / "names", backend=backend)
    assert sorted(results.standings["player"].to_list()) == sorted(names)
    pairs = set(results.pairs["player_a"].to_list()) | set(results.pairs["player_b"].to_list())
    assert pairs == set(names)
    assert set(results.games["black"].to_list()) == set(names)


def test_threads_and_seeds_are_taken_as_match_takes_them(tmp_path):
    # Item 52.35, and issue 50: run, sweep and tune take threads as match does and as the
    # CLI takes --threads (0 is refused in one line, None leaves the count to the
    # experiment's, else one per core), and run and match take seeds from 0 to the
    # largest run.toml can record.
    refused = r"^threads=0: use at least 1 thread, or leave it out for one per core$"
    with pytest.raises(ValueError, match=refused):
        rl.match("greedy", "random", games=2, threads=0, progress=False)
    with pytest.raises(ValueError, match=refused):
        rl.run(EXPERIMENT, out=tmp_path / "zero", threads=0, progress=False)
    assert not (tmp_path / "zero").exists()
    experiments = Path(__file__).resolve().parents[2] / "experiments"
    for study, config in ((rl.sweep, "sweep-depth.toml"), (rl.tune, "tune-weak.toml")):
        with pytest.raises(ValueError, match=refused):
            study(experiments / config, out=tmp_path / "study", threads=0, progress=False)
        assert not (tmp_path / "study").exists()
    results = rl.run(EXPERIMENT, out=tmp_path / "cores", seed=2**63 - 1, report=False, progress=False)
    assert results.experiment["seed"] == 2**63 - 1
    assert rl.run(EXPERIMENT, out=tmp_path / "own", report=False, progress=False).run["threads"] == EXPERIMENT["threads"]
    for play in (
        lambda: rl.run(EXPERIMENT, out=tmp_path / "big", seed=2**63, progress=False),
        lambda: rl.match("greedy", "random", seed=2**63, progress=False),
    ):
        with pytest.raises(ValueError, match=r"^seed=9223372036854775808 is too large: use 0 to 9223372036854775807$"):
            play()
