"""The hand-written tic-tac-toe (benchmarks/handwritten/tictactoe.py) is the game of
examples/tictactoe.game: driven with the same moves it offers the same moves, takes and
refuses the same moves, and ends with the same winners; and its whole tree counts the known
games. Without this its speed would be no yardstick for the tree walk's target."""

from __future__ import annotations

import copy
import random
from collections import Counter
from pathlib import Path

import pytest

from benchmarks.handwritten import tictactoe as hw
from benchmarks.tree_walk import KNOWN, by_result, walk
from gamedsl.errors import MoveError
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def game():
    return load(str(ROOT / "examples" / "tictactoe.game"))


def as_set(moves):
    return sorted((m["seat"], m["alt"], tuple(m["args"][0])) for m in moves)


@pytest.mark.parametrize("seed", range(40))
def test_random_games_in_lockstep(game, seed):
    rnd = random.Random(seed)
    state, mine = game.new_game(2, seed=0), hw.new_game(2)
    while not game.is_over(state):
        assert not hw.is_over(mine)
        assert hw.waiting_for(mine) == game.waiting_for(state)
        moves = game.legal_moves(state)
        assert as_set(hw.legal_moves(mine)) == as_set(moves)
        move = rnd.choice(moves)
        state, mine = game.apply(state, move), hw.apply(mine, move)
    assert hw.is_over(mine)
    assert hw.results(mine)["winners"] == game.results(state)["winners"]


def test_the_same_moves_are_refused(game):
    state, mine = game.new_game(2, seed=0), hw.new_game(2)
    first = {"seat": 0, "alt": "place", "args": [[1, 1]]}
    state, mine = game.apply(state, first), hw.apply(mine, first)
    for move in ({"seat": 1, "alt": "place", "args": [[1, 1]]},   # a taken cell
                 {"seat": 0, "alt": "place", "args": [[0, 0]]},   # not this seat's turn
                 {"seat": 1, "alt": "place", "args": [[3, 0]]},   # off the board
                 {"seat": 1, "alt": "place", "args": ["0,0"]},    # not a cell
                 {"seat": 1, "alt": "pass", "args": []}):         # no such alternative
        with pytest.raises(MoveError):
            game.apply(state, move)
        before = copy.deepcopy(mine)
        with pytest.raises(ValueError):
            hw.apply(mine, move)
        assert mine == before


def test_the_whole_tree_counts_the_known_games():
    counts = walk(hw, hw.new_game(2), Counter())
    assert by_result(counts, 0) == KNOWN
