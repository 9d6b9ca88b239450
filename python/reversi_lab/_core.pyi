"""Types of reversi_lab._core, the Rust half of the package (see reversi_lab/__init__.py)."""

from os import PathLike
from typing import Any, Callable, Literal, Mapping, Optional, Union, final

import numpy

__version__: str

Color = Literal["black", "white"]
Scoring = Literal["winner-gets-empties", "count"]

class IllegalMoveError(ValueError):
    """A move or pass that the position does not allow."""

class ReplayWarning(UserWarning):
    """A run whose pairs played the same game more than once (their intervals are too narrow)."""

class FaultWarning(UserWarning):
    """A game a Python strategy lost by a fault: it raised, or returned what is not a legal move."""

@final
class Outcome:
    """How a game ended."""

    result: Literal["black", "white", "draw"]
    winner: Optional[Color]
    margin: int
    """Black's margin under the rules (positive when black won)."""
    black_discs: int
    white_discs: int

@final
class Board:
    """A Reversi position with its move stack, in the manner of ``chess.Board``.

    Squares are named ``a1`` (top left) to ``h8`` (``j10`` on 10x10); a pass is an
    explicit ``push_pass()`` or ``push("pass")``, needed when ``legal_moves`` is empty
    and the game goes on.
    """

    def __init__(self, size: int = 8, anti: bool = False, scoring: Scoring = "winner-gets-empties") -> None: ...
    @staticmethod
    def from_obf(line: str, anti: bool = False, scoring: Scoring = "winner-gets-empties") -> Board:
        """The position of an OBF line; the size follows from its length."""
    @staticmethod
    def from_transcript(
        text: str, size: int = 8, anti: bool = False, scoring: Scoring = "winner-gets-empties"
    ) -> Board:
        """The game of a transcript (``f5d6c3``, passes implied) from the start."""
    @property
    def size(self) -> int: ...
    @property
    def anti(self) -> bool: ...
    @property
    def scoring(self) -> Scoring: ...
    @property
    def turn(self) -> Color:
        """The side to move."""
    @property
    def legal_moves(self) -> tuple[str, ...]:
        """The legal moves (empty when the side to move must pass, or at the end)."""
    @property
    def move_stack(self) -> list[str]:
        """Moves and passes (``"pass"``) played on this board, oldest first."""
    def is_legal(self, move: str) -> bool:
        """Whether ``move`` (a square, or ``"pass"``) is legal here."""
    def push(self, move: str) -> None:
        """Plays ``move`` (``"pass"`` passes); raises IllegalMoveError (a ValueError) if it is not legal."""
    def push_pass(self) -> None:
        """Passes; only when the side to move has no move and the game goes on."""
    def pop(self) -> str:
        """Takes back the last move or pass and returns it; IndexError if none."""
    def is_game_over(self) -> bool: ...
    def result(self) -> Literal["black", "white", "draw", "*"]:
        """The winner under the board's rules once the game is over, ``"*"`` before."""
    def outcome(self) -> Optional[Outcome]: ...
    def discs(self) -> tuple[int, int]:
        """Black's and white's discs."""
    def copy(self, stack: bool = True) -> Board: ...
    def __copy__(self) -> Board: ...
    def __deepcopy__(self, memo: Any) -> Board: ...
    def obf(self) -> str:
        """The position as an OBF line."""
    def transcript(self) -> str:
        """The moves played on this board (``f5d6c3``, passes implied)."""
    def symmetries(self) -> list[Board]:
        """The position under the 8 symmetries of the square, identity first."""
    def to_numpy(self) -> numpy.ndarray:
        """A ``(2, size, size)`` int8 array: the side to move's discs, then the opponent's."""
    def _repr_svg_(self) -> str: ...
    def _repr_html_(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...

@final
class Strategy:
    """A strategy in the CLI's spec syntax, e.g. ``Strategy("alphabeta:depth=4,eval=mobility")``,
    or a Python callable ``choose(board, rng, **params)`` (or an object with ``choose`` and
    ``new_game``) with its ``params``; ``eval``, ``value`` or ``prior`` put a Python
    ``value(board, **params)`` into a search.

    It pickles by its spec and callables, and compares and hashes by the spec with every
    default written out.
    """

    def __init__(
        self,
        spec: Union[str, dict[str, Any], Callable[..., str], Any],
        *,
        params: Optional[Mapping[str, Any]] = None,
        name: Optional[str] = None,
        eval: Optional[Callable[..., float]] = None,
        value: Optional[Callable[..., float]] = None,
        prior: Optional[Callable[..., float]] = None,
    ) -> None: ...
    @property
    def spec(self) -> str: ...
    @property
    def hosted(self) -> dict[str, Any]:
        """The Python callables its ``python`` specs name, by name."""
    @property
    def kind(self) -> str: ...
    def choose(self, board: Board, seed: Optional[int] = None) -> str:
        """The move played on ``board`` (``"pass"`` when there is none)."""
    def scores(self, board: Board) -> Optional[dict[str, int]]:
        """Each legal move's value (larger is better), or None for rule-based strategies."""
    @property
    def faults(self) -> list[str]:
        """Every fault its Python callables met in ``choose`` and ``scores``, oldest first."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@final
class MatchResult:
    """A match played: the CLI's summary line and ``--format json`` object, A's tally, the games."""

    summary: str
    info: dict[str, Any]
    a: str
    b: str
    threads: int
    seconds: float
    logs: Optional[PathLike[str]]
    """Where an external engine's logs are (``engines/A-*.log``), if one played."""
    @property
    def kept(self) -> bool: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def draws(self) -> int: ...
    @property
    def losses(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def score_low(self) -> float: ...
    @property
    def score_high(self) -> float: ...
    @property
    def model(self) -> str: ...
    @property
    def n(self) -> int: ...
    def columns(self) -> list[tuple[str, Literal["<i8", "<u8", "str"], Any]]:
        """The games as ``(name, dtype, data)`` in games.csv's order (empty if not kept)."""

def game_columns(kind: Optional[Literal["str", "int"]] = None) -> list[str]:
    """The columns of ``games.csv``, from its row type: all, or those of one kind."""

def perft(board: Board, depth: int) -> int:
    """Leaves of the game tree ``depth`` plies below ``board`` (passes count as plies)."""

def play_match(
    a: str,
    b: str,
    *,
    games: int,
    seed: int,
    threads: Optional[int],
    size: int,
    anti: bool,
    scoring: str,
    openings: int,
    keep_games: bool,
    progress: Optional[Callable[[int, int], None]] = None,
    hosted: Optional[tuple[dict[str, Any], dict[str, Any]]] = None,
) -> MatchResult: ...
def run_experiment(
    config: Optional[str],
    table: Optional[Mapping[str, Any]],
    *,
    out: Optional[str],
    games: Optional[int],
    seed: Optional[int],
    threads: Optional[int],
    resume: bool,
    force: bool,
    report: bool,
    quiet: bool,
    progress: Optional[Callable[[int, int], None]] = None,
    players: Optional[dict[str, Any]] = None,
) -> dict[str, Any]: ...
def run_sweep(
    config: str,
    *,
    out: Optional[str],
    games: Optional[int],
    threads: Optional[int],
    resume: bool,
    force: bool,
    report: bool,
    quiet: bool,
    progress: Optional[Callable[[int, int], None]] = None,
    players: Optional[dict[str, Any]] = None,
) -> dict[str, Any]: ...
def run_tune(
    config: str,
    *,
    out: Optional[str],
    threads: Optional[int],
    resume: bool,
    force: bool,
    report: bool,
    quiet: bool,
    players: Optional[dict[str, Any]] = None,
) -> dict[str, Any]: ...
def load_results(dir: str) -> dict[str, Any]: ...
def read_games(path: str) -> bytes: ...
def strategies() -> list[dict[str, Any]]: ...
