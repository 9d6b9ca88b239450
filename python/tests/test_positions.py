"""read_positions: a file `reversi-lab label` wrote, as numpy arrays that agree with the
package's own boards (planes, empties) and with the documented record layout."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

import reversi_lab as rl

GAMES = """
name = "few"
seed = 3
size = 8
games_per_pair = 4
[openings]
random_plies = 6
[[players]]
name = "greedy"
strategy = "greedy"
[[players]]
name = "mobility"
strategy = "mobility"
"""


def test_positions_read_as_arrays_that_match_the_games(cli: str, tmp_path: Path) -> None:
    (tmp_path / "few.toml").write_text(GAMES)
    subprocess.run([cli, "run", "few.toml", "--out", "games", "--quiet"], check=True, cwd=tmp_path)
    subprocess.run(
        [cli, "label", "games", "--out", "p.bin", "--depth", "2", "--exact", "10", "--quiet"],
        check=True,
        cwd=tmp_path,
    )
    positions = rl.read_positions(tmp_path / "p.bin")
    n = len(positions)
    assert n > 100
    assert positions.planes.shape == (n, 2, 8, 8) and positions.planes.dtype == np.int8
    # The start position comes first, from game 0: d5 and e4 the side to move's (black).
    start = rl.Board().to_numpy()
    np.testing.assert_array_equal(positions.planes[0], start)
    assert positions.game[0] == 0 and positions.empties[0] == 60
    assert not (positions.planes[:, 0] & positions.planes[:, 1]).any()
    np.testing.assert_array_equal(positions.empties, 64 - positions.planes.sum(axis=(1, 2, 3)))
    np.testing.assert_array_equal(positions.stage, np.minimum(positions.empties // 4, 15))
    # Exact labels at 10 empties or fewer, whole discs there; searches of depth 2 before.
    np.testing.assert_array_equal(positions.exact, positions.empties <= 10)
    np.testing.assert_array_equal(positions.depth[positions.exact], positions.empties[positions.exact])
    assert (positions.depth[~positions.exact] == 2).all()
    assert (positions.value[positions.exact] == np.round(positions.value[positions.exact])).all()
    assert np.abs(positions.value).max() <= 64
    # Every position once.
    assert len(set(zip(positions.player.tolist(), positions.opponent.tolist()))) == n


def test_a_file_that_is_not_positions_is_refused(tmp_path: Path) -> None:
    (tmp_path / "junk.bin").write_bytes(b"not a positions file at all, no, not one")
    with pytest.raises(ValueError, match="not a labelled-positions file"):
        rl.read_positions(tmp_path / "junk.bin")
    good = b"reversi-lab positions 1\n" + (24).to_bytes(4, "little") + bytes(4)
    (tmp_path / "torn.bin").write_bytes(good + bytes(30))
    with pytest.raises(ValueError, match="middle of a record"):
        rl.read_positions(tmp_path / "torn.bin")
    (tmp_path / "empty.bin").write_bytes(good)
    assert len(rl.read_positions(tmp_path / "empty.bin")) == 0
