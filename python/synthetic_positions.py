"""Writes a labelled-positions file of random positions, for measuring what
``reversi-lab fit-patterns`` costs at scale (its memory, its time):

    python python/synthetic_positions.py big.positions --count 10000000
    /usr/bin/time -v reversi-lab fit-patterns big.positions --out big.bin

Each position has a uniform number of empties (0 to 59), its discs on random squares
split at random between the sides, and a random label; 60 positions to a game. The
labels mean nothing: the file measures the fitter, not the fit. Needs only numpy.
"""

from __future__ import annotations

import argparse

import numpy as np

MAGIC = b"reversi-lab positions 1\n"
RECORD = np.dtype([("player", "<u8"), ("opponent", "<u8"), ("value", "<i2"), ("kind", "u1"), ("depth", "u1"), ("game", "<u4")])
CHUNK = 500_000


def chunk(rng: np.random.Generator, start: int, n: int) -> np.ndarray:
    empties = rng.integers(0, 60, size=n)
    ranks = rng.random((n, 64)).argsort(axis=1).argsort(axis=1)
    occupied = ranks < (64 - empties)[:, None]
    mine = occupied & (rng.random((n, 64)) < 0.5)
    theirs = occupied & ~mine
    weights = np.uint64(1) << np.arange(64, dtype=np.uint64)
    out = np.zeros(n, dtype=RECORD)
    out["player"] = (mine * weights).sum(axis=1, dtype=np.uint64)
    out["opponent"] = (theirs * weights).sum(axis=1, dtype=np.uint64)
    out["value"] = np.clip(rng.normal(0, 12, n) * 64, -4096, 4096).astype(np.int16)
    out["depth"] = 8
    out["game"] = (start + np.arange(n)) // 60
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=10_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    with open(args.out, "xb") as file:
        file.write(MAGIC + RECORD.itemsize.to_bytes(4, "little") + bytes(4))
        for start in range(0, args.count, CHUNK):
            file.write(chunk(rng, start, min(CHUNK, args.count - start)).tobytes())


if __name__ == "__main__":
    main()
