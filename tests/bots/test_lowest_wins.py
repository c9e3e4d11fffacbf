"""Bots read a lowest-wins score the right way round: no per-game code, the score's direction."""

from __future__ import annotations

from pathlib import Path

from gamedsl.bots.search import leaf_rewards, score_margin
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]


def test_a_lower_score_is_a_lead():
    game = load(str(ROOT / "examples" / "knockout.game"))
    state = game.new_game(2, seed=1)
    state["pvars"]["penalty"] = [4, 1]
    assert score_margin(game, state, 1) > 0 > score_margin(game, state, 0)
    rewards = leaf_rewards(game, state)
    assert rewards[1] > rewards[0]
