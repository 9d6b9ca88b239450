"""The pure-Python half of ``reversi_lab``: ``match``, ``run`` and ``load`` with their
DataFrames and progress bars, on the Rust half (``_core``). The package re-exports
what is public here; the imports below stay out of its namespace."""

from __future__ import annotations

import importlib.util
import io
import os
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Optional, Union

from . import _core
from ._core import Board, Strategy

_BACKENDS = ("pandas", "polars")
# The text columns of games.csv, from its row type: text whatever they read like.
_GAMES_TEXT = tuple(_core.game_columns("str"))
# The columns of pairs.csv and standings.csv that hold names: text whatever they read
# like, since a player may be called NA, null or 1e3.
_NAMES = {"pairs": ("player_a", "player_b"), "standings": ("player",)}


def strategies() -> list[dict[str, Any]]:
    """Every strategy kind with its parameters, defaults and help, as
    ``reversi-lab strategies --format json`` lists them."""
    return _core.strategies()


def _check_backend(backend: str) -> None:
    if backend not in _BACKENDS:
        raise ValueError(f"unknown backend '{backend}': use pandas or polars")
    if backend == "polars":
        try:
            import polars  # noqa: F401
        except ImportError:
            raise ImportError("backend='polars' needs polars: pip install polars") from None


def _progress(enabled: bool, unit: str) -> tuple[Optional[Callable[[int, int], None]], Any]:
    """A tqdm bar and the callback that moves it, when wanted and tqdm is installed.
    The bar appears only for calls longer than half a second."""
    if not enabled:
        return None, None
    try:
        # tqdm.auto in Jupyter without ipywidgets warns "IProgress not found" and
        # falls back to the text bar: ask for the widget only when it can be drawn.
        if importlib.util.find_spec("ipywidgets") is None:
            from tqdm import tqdm
        else:
            from tqdm.auto import tqdm
    except ImportError:
        return None, None
    bar = tqdm(total=None, unit=unit, unit_scale=True, delay=0.5, leave=False)

    def update(done: int, total: int) -> None:
        if bar.total != total:
            bar.total = total
        bar.update(done - bar.n)

    return update, bar


def _frame(columns: Mapping[str, Any], backend: str) -> Any:
    if backend == "polars":
        import polars

        return polars.DataFrame(dict(columns))
    import pandas

    return pandas.DataFrame(dict(columns))


class Match:
    """The result of :func:`match`: the CLI's summary line, its numbers, and the games.

    ``summary, games = rl.match(...)`` unpacks it into the line and the DataFrame.
    """

    def __init__(self, raw: Any, backend: str) -> None:
        self._raw = raw
        self._backend = backend
        self._games: Any = None
        #: The one-line summary ``reversi-lab match`` prints.
        self.summary: str = raw.summary
        #: The object ``reversi-lab match --format json`` prints.
        self.info: dict[str, Any] = raw.info
        self.a: str = raw.a
        self.b: str = raw.b
        self.wins: int = raw.wins
        self.draws: int = raw.draws
        self.losses: int = raw.losses
        #: A's score with its 95% interval, in the model ``model`` over ``n`` samples.
        self.score: float = raw.score
        self.score_low: float = raw.score_low
        self.score_high: float = raw.score_high
        self.model: str = raw.model
        self.n: int = raw.n
        self.seconds: float = raw.seconds
        self.threads: int = raw.threads
        #: Where an external engine's logs are (``engines/A-*.log``), if one played.
        self.logs: Optional[Path] = None if raw.logs is None else Path(raw.logs)

    @property
    def games_per_second(self) -> float:
        return self._raw.games / max(self.seconds, 1e-9)

    @property
    def games(self) -> Any:
        """Every game, with the columns of ``games.csv`` (made on first use)."""
        if self._games is None:
            if not self._raw.kept:
                raise ValueError("the games were not kept: call match(..., keep_games=True)")
            columns = {}
            for name, dtype, data in self._raw.columns():
                if dtype == "str":
                    columns[name] = data
                else:
                    import numpy

                    columns[name] = numpy.frombuffer(data, dtype=dtype)
            self._games = _frame(columns, self._backend)
        return self._games

    def __iter__(self) -> Iterator[Any]:
        yield self.summary
        yield self.games

    def __repr__(self) -> str:
        return f"<Match {self.summary}>"

    def __str__(self) -> str:
        return self.summary


def _strategy(strategy: Any) -> Strategy:
    """A spec, a :class:`Strategy` or a Python strategy (a callable ``choose(board, rng)``
    or an object with ``choose``) as a :class:`Strategy`."""
    return strategy if isinstance(strategy, Strategy) else Strategy(strategy)


def _side(strategy: Any) -> Any:
    """A side of a match as its spec and the callables it hands over: a spec's text is
    passed on as it is, so that the library names the side in its refusal."""
    if isinstance(strategy, str):
        return strategy, {}
    strategy = _strategy(strategy)
    return strategy.spec, strategy.hosted


def match(
    a: Union[str, Strategy, Callable[[Board, Any], str], Any],
    b: Union[str, Strategy, Callable[[Board, Any], str], Any],
    *,
    games: int = 1000,
    seed: int = 1,
    threads: Optional[int] = None,
    size: int = 8,
    anti: bool = False,
    scoring: str = "winner-gets-empties",
    openings: int = 0,
    keep_games: bool = True,
    progress: bool = True,
    backend: str = "pandas",
) -> Match:
    """Plays ``games`` games of A against B, as ``reversi-lab match`` does: colours
    alternate (A is black in even games), games 2k and 2k+1 are a colour-swapped pair
    from the start or from ``openings`` random plies; ``threads=None`` means one per
    core (``threads=0`` is refused, as ``--threads 0`` is). A side that loses three games in a row by a fault (an external engine's)
    stops the match with a ValueError, as the CLI's ``match`` stops.
    Returns a :class:`Match` with the CLI's summary and a DataFrame of the games
    (``keep_games=False`` keeps none, for very long matches).

    A or B may be a Python strategy: ``choose(board, rng) -> "d3" | "pass"`` (or an
    object with ``choose`` and ``new_game``), or ``Strategy(choose, params={...})``. Its
    games play in this process on ``threads`` threads, each call taking the
    interpreter lock; a game it loses by a fault (an exception, a move that is not
    legal) is a forfeit said as a :class:`FaultWarning`, and three in a row stop the
    match with a ValueError."""
    _check_backend(backend)
    (a, a_hosted), (b, b_hosted) = _side(a), _side(b)
    update, bar = _progress(progress, "games")
    try:
        raw = _core.play_match(
            a,
            b,
            games=games,
            seed=seed,
            threads=threads,
            size=size,
            anti=anti,
            scoring=scoring,
            openings=openings,
            keep_games=keep_games,
            progress=update,
            hosted=(a_hosted, b_hosted),
        )
    finally:
        if bar is not None:
            bar.close()
    return Match(raw, backend)


class Results:
    """A results folder: ``games``, ``pairs`` and ``standings`` as DataFrames (read on
    first use), and ``experiment`` and ``run``, the two tables of its ``run.toml``."""

    def __init__(self, folder: Union[str, os.PathLike], backend: str = "pandas", line: Optional[str] = None) -> None:
        _check_backend(backend)
        loaded = _core.load_results(os.fspath(folder))
        self.dir = Path(folder)
        self.backend = backend
        #: The experiment as run (``[experiment]`` of run.toml).
        self.experiment: dict[str, Any] = loaded["experiment"]
        #: How it ran (``[run]`` of run.toml): status, games, threads, elapsed time...
        self.run: dict[str, Any] = loaded["run"]
        #: For a run that has not finished: (games played, games in all).
        self.partial: Optional[tuple[int, int]] = loaded["partial"]
        #: ``run``'s closing line, when these results come from :func:`run`.
        self.line = line
        games = loaded["games_path"]
        self._games_path: Optional[str] = None if games is None else os.fspath(games)
        self._csv = {"pairs": loaded["pairs_csv"], "standings": loaded["standings_csv"]}
        self._frames: dict[str, Any] = {}

    def _table(self, name: str) -> Any:
        if name not in self._frames:
            data = io.BytesIO(self._csv[name])
            if self.backend == "polars":
                import polars

                self._frames[name] = polars.read_csv(data, schema_overrides={c: polars.Utf8 for c in _NAMES[name]})
            else:
                import pandas

                # Only an empty field is missing: pandas' default would read the names
                # NA and null as missing, and its dtype inference 1e3 as 1000.0.
                self._frames[name] = pandas.read_csv(
                    data, keep_default_na=False, na_values=[""], dtype={c: str for c in _NAMES[name]}
                )
        return self._frames[name]

    @property
    def pairs(self) -> Any:
        """``pairs.csv``: one row per pair of players, from the first player's side."""
        return self._table("pairs")

    @property
    def standings(self) -> Any:
        """``standings.csv``: one row per player, best first, with Bradley-Terry ratings."""
        return self._table("standings")

    @property
    def games(self) -> Any:
        """``games.csv`` (or ``games.csv.zst``): one row per game, in game order."""
        if "games" not in self._frames:
            path = self._games_path
            if path is None:
                raise FileNotFoundError(f"{self.dir} has no games.csv")
            rows = self.partial[0] if self.partial else None
            source: Any = io.BytesIO(_core.read_games(path)) if path.endswith(".zst") else path
            if self.backend == "polars":
                import polars

                games = polars.read_csv(source, n_rows=rows, schema_overrides={c: polars.Utf8 for c in _GAMES_TEXT})
                # An empty opening (the start position) is text, not a missing value.
                self._frames["games"] = games.with_columns(
                    polars.col(c).fill_null("") for c in _GAMES_TEXT if c in games.columns
                )
            else:
                import pandas

                self._frames["games"] = pandas.read_csv(
                    source, nrows=rows, keep_default_na=False, dtype={c: str for c in _GAMES_TEXT}
                )
        return self._frames["games"]

    def _csv_file(self, name: str) -> Any:
        path = self.dir / name
        if not path.is_file():
            raise FileNotFoundError(f"{self.dir} has no {name}")
        if name not in self._frames:
            if self.backend == "polars":
                import polars

                self._frames[name] = polars.read_csv(path)
            else:
                import pandas

                self._frames[name] = pandas.read_csv(path, keep_default_na=False, na_values=[""])
        return self._frames[name]

    @property
    def sweep(self) -> Any:
        """``sweep.csv`` of a sweep's folder: one row per variant, with its rating and cost."""
        return self._csv_file("sweep.csv")

    @property
    def report(self) -> Optional[Path]:
        """The folder's ``report.html``, if it has one."""
        path = self.dir / "report.html"
        return path if path.is_file() else None

    def __repr__(self) -> str:
        status = self.run.get("status", "?")
        games = self.run.get("games", self.run.get("games_total", "?"))
        return f"<Results {str(self.dir)!r}: {self.experiment.get('name', '?')}, {games} games, {status}>"


def run(
    experiment: Union[str, os.PathLike, Mapping[str, Any], None] = None,
    *,
    out: Union[str, os.PathLike, None] = None,
    games: Optional[int] = None,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    resume: bool = False,
    force: bool = False,
    report: bool = True,
    progress: bool = True,
    backend: str = "pandas",
    players: Optional[Mapping[str, Any]] = None,
) -> Results:
    """Plays an experiment, as ``reversi-lab run`` does, into ``out`` (default
    ``results/<name>``), then writes its charts and report (unless ``report=False``).

    ``experiment`` is a TOML file, a dict with the same keys (``{"name": ..., "players":
    [{"name": ..., "strategy": "greedy"}, ...]}``), or None for the built-in default.
    ``games`` (per pair), ``seed`` and ``threads`` override the experiment's (``threads=0``
    is refused, as ``--threads 0`` is and as for :func:`match`). An existing
    folder needs ``resume=True`` or ``force=True`` (not both). Ctrl-C stops after the games
    in flight and raises KeyboardInterrupt; ``resume=True`` continues. A run whose pairs
    replayed games warns with :class:`ReplayWarning`.

    ``players`` hands Python strategies to the experiment's players that say
    ``{ kind = "python", name = "mine" }`` (and evaluations to searches whose ``eval``
    says so): ``players={"mine": my_choose}``. They play in this process."""
    _check_backend(backend)
    config = table = None
    if isinstance(experiment, Mapping):
        table = experiment
    elif experiment is not None:
        config = os.fspath(experiment)
    update, bar = _progress(progress, "games")
    try:
        done = _core.run_experiment(
            config,
            table,
            out=None if out is None else os.fspath(out),
            games=games,
            seed=seed,
            threads=threads,
            resume=resume,
            force=force,
            report=report,
            # Without tqdm the CLI's own bar (or its plain lines) goes to stderr.
            quiet=not progress or update is not None,
            progress=update,
            players=dict(players or {}),
        )
    finally:
        if bar is not None:
            bar.close()
    return Results(done["out"], backend, line=done["line"])


def sweep(
    config: Union[str, os.PathLike],
    *,
    out: Union[str, os.PathLike, None] = None,
    games: Optional[int] = None,
    threads: Optional[int] = None,
    resume: bool = False,
    force: bool = False,
    report: bool = True,
    progress: bool = True,
    backend: str = "pandas",
    players: Optional[Mapping[str, Any]] = None,
) -> Results:
    """Plays a sweep file's variants, as ``reversi-lab sweep`` does, into ``out`` (default
    ``results/<name>``), then writes its report. ``games`` (per pair) and ``threads``
    override the file's. The :class:`Results` have ``sweep`` (``sweep.csv``: each
    variant's rating, gain and cost) beside the usual tables. A Python player handed
    over by ``players={"mine": my_choose}`` can play in it, and the sweep can vary its
    own ``params`` (``parameter = "params.corner"``), as :func:`tune` tunes them."""
    _check_backend(backend)
    update, bar = _progress(progress, "games")
    try:
        done = _core.run_sweep(
            os.fspath(config),
            out=None if out is None else os.fspath(out),
            games=games,
            threads=threads,
            resume=resume,
            force=force,
            report=report,
            quiet=not progress or update is not None,
            progress=update,
            players=dict(players or {}),
        )
    finally:
        if bar is not None:
            bar.close()
    return Results(done["out"], backend, line=done["line"])


class Tuned:
    """The result of :func:`tune`: the tuned values, the CLI's lines, the trace and the
    validation runs."""

    def __init__(self, done: Mapping[str, Any], backend: str) -> None:
        self.dir = Path(done["out"])
        #: The tuned value of each parameter, by the name the tune file gives it.
        self.best: dict[str, float] = dict(done["best"])
        #: The lines ``reversi-lab tune`` prints: the values, then each validation's verdict.
        self.lines: list[str] = list(done["lines"])
        #: Whether Ctrl-C stopped it (``resume=True`` continues).
        self.interrupted: bool = done["interrupted"]
        #: The validation runs (an SPRT against each opponent), as :class:`Results`.
        self.validations = [Results(folder, backend) for folder in done["validations"]]
        self._backend = backend
        self._trace: Any = None

    @property
    def trace(self) -> Any:
        """``trace.csv``: one row per iteration, with the parameters and the score."""
        if self._trace is None:
            path = self.dir / "trace.csv"
            if self._backend == "polars":
                import polars

                self._trace = polars.read_csv(path)
            else:
                import pandas

                self._trace = pandas.read_csv(path)
        return self._trace

    @property
    def report(self) -> Optional[Path]:
        path = self.dir / "report.html"
        return path if path.is_file() else None

    def __repr__(self) -> str:
        return f"<Tuned {str(self.dir)!r}: {self.best}>"


def tune(
    config: Union[str, os.PathLike],
    *,
    out: Union[str, os.PathLike, None] = None,
    threads: Optional[int] = None,
    resume: bool = False,
    force: bool = False,
    report: bool = True,
    progress: bool = True,
    backend: str = "pandas",
    players: Optional[Mapping[str, Any]] = None,
) -> Tuned:
    """Tunes a tune file's player (SPSA or CMA-ES), then validates the result by SPRTs, as
    ``reversi-lab tune`` does, into ``out`` (default ``results/<name>``) with its report.
    A Python strategy or evaluation handed over by ``players={"mine": ...}`` is tuned
    over its ``params``: a parameter named ``params.corner`` (or ``eval.params.corner``
    for an evaluation inside a search). ``progress`` draws the CLI's bar on stderr."""
    _check_backend(backend)
    done = _core.run_tune(
        os.fspath(config),
        out=None if out is None else os.fspath(out),
        threads=threads,
        resume=resume,
        force=force,
        report=report,
        quiet=not progress,
        players=dict(players or {}),
    )
    return Tuned(done, backend)


def load(results_dir: Union[str, os.PathLike], *, backend: str = "pandas") -> Results:
    """Reads a results folder written by ``run`` (or ``reversi-lab run``, or ``merge``):
    its DataFrames hold the folder's CSV files column for column. A run still going or
    interrupted is read as far as its games go, its pairs and standings counted from them."""
    return Results(results_dir, backend)
