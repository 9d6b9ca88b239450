"""Shared fixtures: the CLI binary, for the tests that compare the package with it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli() -> str:
    """The reversi-lab binary: $REVERSI_LAB, or the one `cargo test` or `cargo build`
    left in target/ (CI runs pytest after `cargo test`), or one on PATH."""
    candidates = [os.environ.get("REVERSI_LAB", "")]
    candidates += [str(ROOT / "target" / p / "reversi-lab") for p in ("debug", "release")]
    candidates.append(shutil.which("reversi-lab") or "")
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            # Absolute, so that tests may run it from another folder (CI's is relative).
            return str(Path(candidate).resolve())
    pytest.skip("no reversi-lab binary: run cargo build first, or set REVERSI_LAB")
