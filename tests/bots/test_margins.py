"""What the searching bots judge a state by, where every seat is a side of its own: the margin
and the leaf rewards read each seat's heuristic straight, and must be what the sides give."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gamedsl.bots.search import leaf_rewards, score_margin
from gamedsl.errors import RuleError
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted((ROOT / "games").glob("*.game")) + sorted((ROOT / "examples").glob("*.game"))

# a game of one or two seats, not cooperative: one seat alone is its only side
SOLO = """game "solo"
players 1..2
player var points: number = 0
score of p: p.points
turn:
  choose by current:
    up "up":
      current.points += 1.5
    down "down":
      current.points -= 2
  end game
"""


def squash(x, size):
    """A lead in (0, 1) relative to the size of the scores, as the searches judge a leaf."""
    return 0.5 + 0.5 * x / (size + 1.0)


def by_sides(game, state, seat, memo=None):
    """The margin and the leaf rewards as the sides define them (the general case)."""
    sides = game.sides(state)
    values = game.side_heuristics(state, sides, memo)
    mine = next(i for i, side in enumerate(sides) if seat in side)
    others = [v for i, v in enumerate(values) if i != mine]
    margin = float(values[mine] - max(others)) if others else float(values[mine])
    floats = [float(v) for v in values]
    if len(floats) < 2:
        leaves = [0.5] * state["n"]
    else:
        leaves = [0.0] * state["n"]
        for i, side in enumerate(sides):
            best_other = max(h for k, h in enumerate(floats) if k != i)
            for s in side:
                leaves[s] = squash(floats[i] - best_other, abs(floats[i]) + abs(best_other))
    return margin, leaves


def states_of(game, n, seed, most=25):
    rng = random.Random(seed)
    state = game.new_game(n, seed=seed)
    for _ in range(most):
        if game.is_over(state):
            return
        yield state
        try:
            state = game.apply_legal(state, game.random_move(state, game.waiting_for(state)[0], rng))
        except RuleError:
            return


@pytest.mark.parametrize("path", GAMES, ids=[str(p.relative_to(ROOT)) for p in GAMES])
def test_a_seat_alone_is_judged_as_its_side(path):
    game = load(str(path))
    if not game.seats_alone:
        assert game.cooperative or game.program.team is not None
        return
    memo = game.heuristics_memo()
    for state in states_of(game, game.min_players, seed=3):
        for seat in range(state["n"]):
            for kept in (None, memo):
                margin, leaves = by_sides(game, state, seat, kept)
                assert score_margin(game, state, seat, kept) == margin
                assert leaf_rewards(game, state, kept) == leaves


def test_one_seat_alone_has_no_one_to_lead():
    game = load("solo.game", text=SOLO)
    assert game.seats_alone
    state = game.apply(game.new_game(1, seed=1), {"seat": 0, "alt": "up", "args": []})
    assert score_margin(game, state, 0) == 1.5 == by_sides(game, state, 0)[0]
    two = game.new_game(2, seed=1)
    two = game.apply(two, {"seat": two["flow"]["current"], "alt": "down", "args": []})
    for seat in (0, 1):
        assert score_margin(game, two, seat) == by_sides(game, two, seat)[0]
    assert sorted(score_margin(game, two, seat) for seat in (0, 1)) == [-2.0, 2.0]


def test_a_memo_met_by_a_state_of_other_players_scores_every_seat_of_it():
    game = load("solo.game", text=SOLO)
    memo = game.heuristics_memo()
    one, two = game.new_game(1, seed=1), game.new_game(2, seed=1)
    two = game.apply(two, {"seat": two["flow"]["current"], "alt": "up", "args": []})
    assert game.heuristics(one, memo) == [0]
    assert game.heuristics(two, memo) == game.heuristics(two) and len(game.heuristics(two)) == 2
