"""A move checked at the decision a state was handed out at is found in the table listed
when that choice was reached (Machine.listed_when_reached), not worked out again: the
verdicts must be the full check's, and nothing a caller does to the moves it was handed,
nor a state that has moved on, may change them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from gamedsl.errors import MoveError
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = str(ROOT / "examples" / "tictactoe.game")


@pytest.fixture(scope="module")
def tictactoe():
    return load(TICTACTOE)


def test_a_handed_out_move_changed_in_place_is_checked_as_changed(tictactoe):
    game = tictactoe
    state = game.new_game(2, seed=0)
    moves = game.legal_moves(state)
    cells = json.loads(json.dumps([m["args"][0] for m in moves]))
    assert len(cells) == 9 and cells[0] == [0, 0]
    moves[0]["args"][0][0] = 7  # a cell off the board
    with pytest.raises(MoveError):
        game.apply(state, moves[0])
    drawn = game.random_move(state, 0, random.Random(3))
    drawn["args"][0][1] = 9
    assert not game.is_legal(state, drawn)
    at = game.move_at(state, 0, 4)
    at["args"][0][:] = [5, 5]
    assert not game.is_legal(state, at)
    # the listing and the checks of the untouched moves are as they were
    assert [m["args"][0] for m in game.legal_moves(state)] == cells
    assert all(game.is_legal(state, m) for m in game.legal_moves(state))


def test_a_state_moved_on_in_place_is_not_checked_against_its_old_listing(tictactoe):
    game = tictactoe
    state = game.new_game(2, seed=0)
    first = game.legal_moves(state)[0]
    again = json.loads(json.dumps(first))
    game.apply_legal(state, first, in_place=True)
    assert state["flow"]["current"] == 1
    assert not game.is_legal(state, dict(again, seat=1))  # (the cell is taken now)
    assert not game.is_legal(state, again)  # (and it is not P1's turn)


@pytest.mark.parametrize("name", ["games/trade_tycoon.game", "games/legendary_inventors.game",
                                  "examples/tictactoe.game"])
def test_checks_at_a_reached_decision_agree_with_the_full_check(name):
    """The engine's own states (checked against their tables) and the same states read
    back from JSON (nothing kept for them: the full check) give every move and every
    variant of one the same verdict; a truth for a number and a number for a truth are
    refused alike."""
    game = load(str(ROOT / name))
    players = 3 if "trade" in name else game.min_players
    rng = random.Random(5)
    compared = 0
    for seed in range(2):
        state = game.new_game(players, seed)
        for _ in range(30):
            if game.is_over(state):
                break
            listed = game.legal_moves(state)
            read_back = json.loads(json.dumps(state))
            values = [a for m in listed for a in m["args"]] or [0]
            for move in rng.sample(listed, min(12, len(listed))):
                tries = [move, dict(move, alt=move["alt"] + "x"), dict(move, args=move["args"] + [0])]
                for i, a in enumerate(move["args"]):
                    for other in (rng.choice(values), True if a == 1 else 1 if a is True else -1, [a]):
                        tries.append(dict(move, args=move["args"][:i] + [other] + move["args"][i + 1:]))
                for t in tries:
                    assert game.is_legal(state, t) == game.is_legal(read_back, t), t
                    compared += 1
                assert game.is_legal(state, move)
            state = game.apply(state, rng.choice(listed))
    assert compared > 100


TWICE = '''game "Twice"
players 2

var picked: number = 0

turn:
  choose by current:
    pick(n in [1, 2]) "pick {n}":
      picked = n
  choose secretly by each p in [current]:
    pick(n in [3, 4]) "pick {n}":
      picked = n
  if picked == 4:
    end game winner current
'''


def test_a_decision_reached_unlisted_is_not_checked_against_the_one_before():
    """The same seat, the same alternative, a new decision reached in place (a secret one,
    which is not listed when reached): its moves are its own lists', not the last table's."""
    game = load("twice.game", text=TWICE)
    state = game.new_game(2, seed=0)
    one = {"seat": 0, "alt": "pick", "args": [1]}
    assert game.is_legal(state, one)
    game.apply_legal(state, one, in_place=True)
    assert game.waiting_for(state) == [0]
    assert not game.is_legal(state, one)
    assert game.is_legal(state, {"seat": 0, "alt": "pick", "args": [3]})


GUARDED = '''game "guarded"
players 2

var picked: number = 0

turn:
  choose by current:
    pick(n in [1, 2, 3]) "pick {n}" if n > picked:
      picked = n
    mark(c in [[0, 0], [1, 0]]) "mark {c}" if picked < 3:
      picked = 3
  if picked == 3:
    end game winner current
'''


def test_a_move_its_condition_let_through_is_checked_as_changed():
    """Moves of an alternative with a condition are kept listed: a caller changing one it
    was handed (an argument, a cell in it) changes neither the listing nor the check."""
    game = load("guarded.game", text=GUARDED)
    state = game.new_game(2, seed=0)
    moves = game.legal_moves(state)
    assert [(m["alt"], m["args"]) for m in moves] == [
        ("pick", [1]), ("pick", [2]), ("pick", [3]), ("mark", [[0, 0]]), ("mark", [[1, 0]])]
    moves[0]["args"][0] = 7
    moves[3]["args"][0][0] = 9
    assert not game.is_legal(state, moves[0]) and not game.is_legal(state, moves[3])
    assert not game.is_legal(state, {"seat": 0, "alt": "pick", "args": [True]})
    at = game.move_at(state, 0, 4)
    at["args"][0][1] = 9
    assert not game.is_legal(state, at)
    assert [m["args"] for m in game.legal_moves(state)] == [[1], [2], [3], [[0, 0]], [[1, 0]]]
    state = game.apply(state, {"seat": 0, "alt": "pick", "args": [2]})
    assert not game.is_legal(state, {"seat": 1, "alt": "pick", "args": [2]})
    assert game.is_legal(state, {"seat": 1, "alt": "pick", "args": [3]})
