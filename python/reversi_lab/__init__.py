"""Reversi (Othello) from Python, on the same Rust library as the ``reversi-lab`` CLI.

>>> import reversi_lab as rl
>>> board = rl.Board()
>>> board.legal_moves
('d3', 'c4', 'f5', 'e6')
>>> board.push("f5")
>>> rl.Strategy("alphabeta:depth=4,eval=mobility").choose(board, seed=1) in board.legal_moves
True

``match`` plays two strategies against each other, ``run`` plays an experiment into a
results folder and ``load`` reads one back; ``read_positions`` reads the labelled
positions of ``reversi-lab label`` as numpy arrays; ``reversi_lab.pettingzoo.env()`` is a
PettingZoo environment. Long calls release the interpreter lock and show a progress
bar (tqdm's, or the CLI's on stderr without tqdm).
"""

from ._core import Board, FaultWarning, IllegalMoveError, Outcome, ReplayWarning, Strategy, __version__, perft
from ._lab import Match, Results, Tuned, load, match, run, strategies, sweep, tune
from ._positions import Positions, read_positions

__all__ = [
    "Board",
    "FaultWarning",
    "IllegalMoveError",
    "Match",
    "Outcome",
    "Positions",
    "ReplayWarning",
    "Results",
    "Strategy",
    "__version__",
    "load",
    "match",
    "perft",
    "read_positions",
    "run",
    "strategies",
    "sweep",
    "tune",
    "Tuned",
]
