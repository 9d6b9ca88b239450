"""Labelled positions (the files ``reversi-lab label`` writes) as numpy arrays."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    import numpy as np

MAGIC = b"reversi-lab positions 1\n"
HEADER_SIZE = 32
RECORD_SIZE = 24
# The record's fields (docs/training.md), for numpy's structured dtype.
FIELDS = [
    ("player", "<u8"),
    ("opponent", "<u8"),
    ("value", "<i2"),
    ("kind", "u1"),
    ("depth", "u1"),
    ("game", "<u4"),
]
# The pattern evaluation's stages: 4 empties each, 16 in all (60 empties in the last).
STAGE_WIDTH = 4
STAGES = 16


@dataclass(frozen=True)
class Positions:
    """One array per field, one row per position (all of the same length).

    ``planes`` is ``(n, 2, 8, 8)`` int8 like ``Board.to_numpy()``: plane 0 the side to
    move's discs, plane 1 the opponent's, ``[plane, row, column]`` with ``[0, 0, 0]`` a1.
    ``value`` is the label in discs for the side to move; ``exact`` says it is the
    solved final margin (else a ``depth``-ply search's value); ``empties`` and ``stage``
    are the pattern evaluation's; ``game`` is the ``game_id`` it came from.
    """

    player: "np.ndarray"
    opponent: "np.ndarray"
    planes: "np.ndarray"
    value: "np.ndarray"
    exact: "np.ndarray"
    depth: "np.ndarray"
    empties: "np.ndarray"
    stage: "np.ndarray"
    game: "np.ndarray"

    def __len__(self) -> int:
        return len(self.value)


def _planes(bits: Any) -> Any:
    """``(n,)`` uint64 bitboards to ``(n, 8, 8)`` int8, bit ``8 * row + column``."""
    import numpy as np

    little = bits.astype("<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(little, axis=1, bitorder="little").reshape(-1, 8, 8).astype(np.int8)


def read_positions(path: Union[str, os.PathLike]) -> Positions:
    """Reads a labelled-positions file whole (24 bytes a position; docs/training.md)."""
    import numpy as np

    record = np.dtype(FIELDS)
    assert record.itemsize == RECORD_SIZE
    with open(path, "rb") as file:
        header = file.read(HEADER_SIZE)
        if len(header) < HEADER_SIZE or not header.startswith(MAGIC):
            raise ValueError(f"{os.fspath(path)} is not a labelled-positions file (it lacks the header `reversi-lab label` writes)")
        size = int.from_bytes(header[24:28], "little")
        if size != RECORD_SIZE:
            raise ValueError(f"{os.fspath(path)} has records of {size} bytes, where this package reads {RECORD_SIZE}")
        body = file.read()
    if len(body) % RECORD_SIZE:
        raise ValueError(f"{os.fspath(path)} ends in the middle of a record: rerun `reversi-lab label` to complete it")
    records = np.frombuffer(body, dtype=record)
    empties = (64 - _popcount(records["player"] | records["opponent"])).astype(np.uint8)
    return Positions(
        player=records["player"].copy(),
        opponent=records["opponent"].copy(),
        planes=np.stack([_planes(records["player"]), _planes(records["opponent"])], axis=1),
        value=records["value"].astype(np.float32) / 64.0,
        exact=records["kind"] == 1,
        depth=records["depth"].copy(),
        empties=empties,
        stage=np.minimum(empties // STAGE_WIDTH, STAGES - 1).astype(np.uint8),
        game=records["game"].copy(),
    )


def _popcount(bits: Any) -> Any:
    import numpy as np

    little = bits.astype("<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(little, axis=1).sum(axis=1)
