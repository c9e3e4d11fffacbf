"""A grid's cells read by their keys, and its lines, are worked out once per grid size: the
values the rules are handed must still be fresh, and a cell beyond the keys worked out ahead
is read all the same."""

from __future__ import annotations

import pytest

from gamedsl.pipeline import load
from gamedsl.runtime.builtins import FUNCTIONS
from gamedsl.runtime.ctx import Ctx

# stones placed on a board without bounds at cells far from the corner and on its other
# sides, then read back by `at` (in a def the compiling back end writes out, once warm)
FAR = """game "Far cells"
players 2
kind stone:
  copies 4 per player
zone supply of stone: public
zone map of stone: grid
zone board of stone: grid 3 by 3, public
def mine(p: player, c: cell) = at(map, c) != none and at(map, c).owner == p
def cells_of(p: player) = [c for c in [(0, 0), (2, 1), (-7, 40), (120, -3), (-1, -1)] if mine(p, c)]
setup:
  move stone to supply
turn:
  choose by current:
    place(c in [c for c in [(0, 0), (2, 1), (-7, 40), (120, -3), (-1, -1)] if at(map, c) == none]) "place {c}":
      move first([s for s in supply if s.owner == current]) to map at c
  if len(cells_of(current)) >= 3:
    end game winner current
  elif len([c for c in [(0, 0), (2, 1), (-7, 40), (120, -3), (-1, -1)] if at(map, c) == none]) == 0:
    end game
score of p: len(cells_of(p))
"""


def game_from(text, tmp_path, backend):
    path = tmp_path / "g.game"
    path.write_text(text)
    return load(str(path), backend=backend)


@pytest.mark.parametrize("backend", ["compiled", "interpreter"])
def test_cells_far_from_the_corner_are_read_by_their_keys(tmp_path, backend):
    game = game_from(FAR, tmp_path, backend)
    for seed in range(4):  # (warm: the compiling back end writes the defs out after two runs)
        state = game.new_game(2, seed=seed)
        placed = []
        while not game.is_over(state):
            move = game.legal_moves(state)[seed % len(game.legal_moves(state))]
            placed.append((move["seat"], move["args"][0]))
            state = game.apply(state, move)
        scores = game.results(state)["scores"]
        assert scores == [sum(1 for seat, _ in placed if seat == p) for p in range(2)]
        assert set(state["zones"]["map"]) == {f"{x},{y}" for _, (x, y) in placed}


def test_the_lines_of_a_grid_are_a_fresh_list_each_time(tmp_path):
    game = game_from(FAR, tmp_path, "compiled")
    state = game.new_game(2, seed=0)
    lines = FUNCTIONS["lines"].impl
    ctx = Ctx(game.program, state, {}, None)
    first, again = lines(ctx, None, ("board", -1), 3), lines(ctx, None, ("board", -1), 3)
    assert first == again and len(first) == 3 + 3 + 2  # (rows, columns, diagonals)
    assert [[0, 0], [1, 0], [2, 0]] in first and [[0, 2], [1, 1], [2, 0]] in first
    held = [id(x) for x in first] + [id(c) for line in first for c in line]
    held_again = [id(x) for x in again] + [id(c) for line in again for c in line]
    # no list held twice, in one answer or across two: two places holding one list would
    # compare without the work the rules are charged for it (values.equal)
    assert first is not again and len(set(held)) == len(held) and not set(held) & set(held_again)
