"""Leaving the round, ending it, and a parameter that may be nobody, in lockstep through both
back ends: whole states compared after every move (as tests/compiler/test_backend.py does for
the shipped games)."""

from __future__ import annotations

import pytest

from gamedsl.pipeline import load
from tests.runtime.test_rounds import ROWS, TARGET
from tools.lockstep import lockstep


@pytest.mark.parametrize("text", [ROWS, TARGET], ids=["rows", "target"])
def test_rounds_and_nobody_play_alike_in_both_back_ends(tmp_path, text):
    path = tmp_path / "g.game"
    path.write_text(text, encoding="utf-8")
    a, b = load(str(path), backend="interpreter"), load(str(path), backend="compiled")
    for seed in range(4):
        lockstep(a, b, 3, seed, stop_after=60)
