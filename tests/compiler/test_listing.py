"""The generated listings (gamedsl/compiler/listing.py) against the interpreter's: a move's
check in generated code gives the interpreter's verdict, argument by argument, and the part
of a condition that reads no parameter, tested once for all the combinations, lists the
same moves and fails with the same diagnostic."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamedsl.errors import MoveError, RuleError
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ("interpreter", "compiled")

KINDS = '''
game "Kinds of values"
players 2
var ready: bool = false
var big: list of number = []
turn:
  choose by current:
    num(n in [0, 1, 2], f in [true, false]) "num {n} {f}":
      ready = not ready
    spot(c in [[0, 1], [1, 0]]) "spot {c}" if ready and c[0] == 1:
      ready = false
    wait(n in range(1, 3)) "wait {n}" if not ready:
      ready = true
    heavy(a in range(1, 100), b in range(1, 100)) "heavy {a} {b}" if sum(big) < 0 and a == b:
      pass
    stop "stop" if ready:
      end game
'''


def games(text: str = KINDS) -> list:
    return [load("kinds.game", text=text, backend=backend) for backend in BACKENDS]


def verdict(game, state: dict, move: dict):
    try:
        game.apply(state, move)
    except MoveError as err:
        return str(err)
    return "taken"


@pytest.mark.parametrize("args, taken", [
    ([1, True], True), ([1.0, False], True), ([2, True], True),
    ([True, True], False),    # true is not 1 in the rules, though Python says they are equal
    ([1, 1], False), ([0, 0], False), ([3, True], False), ([float("nan"), True], False),
    (["1", True], False), ([[1], True], False),
])
def test_a_move_of_a_product_of_lists_is_checked_as_the_interpreter_checks_it(args, taken):
    verdicts = []
    for game in games():
        state = game.new_game(2)
        verdicts.append(verdict(game, state, {"seat": 0, "alt": "num", "args": args}))
    assert verdicts[0] == verdicts[1]
    assert (verdicts[0] == "taken") == taken


def test_cells_and_conditions_are_checked_alike_and_listed_alike():
    interpreter, compiled = games()
    states = [g.new_game(2) for g in (interpreter, compiled)]
    moves = [
        {"seat": 0, "alt": "spot", "args": [[1, 0]]},   # not ready: its condition refuses it
        {"seat": 0, "alt": "wait", "args": [2]},
        {"seat": 1, "alt": "spot", "args": [[0, 1]]},   # ready, but the cell fails the condition
        {"seat": 1, "alt": "spot", "args": [[1, 0]]},
        {"seat": 0, "alt": "wait", "args": [1]},
        {"seat": 0, "alt": "num", "args": [0, True]},
        {"seat": 1, "alt": "stop", "args": []},
    ]
    for move in moves:
        listed = [g.legal_moves(s, move["seat"]) for g, s in zip((interpreter, compiled), states)]
        assert listed[0] == listed[1]
        assert [g.move_count(s, move["seat"]) for g, s in zip((interpreter, compiled), states)] == [len(listed[0])] * 2
        said = [verdict(g, s, move) for g, s in zip((interpreter, compiled), states)]
        assert said[0] == said[1]
        assert (said[0] == "taken") == (move in listed[0])
        if said[0] == "taken":
            states = [g.apply(s, move) for g, s in zip((interpreter, compiled), states)]
            assert states[0] == states[1]
    assert interpreter.is_over(states[0]) and compiled.is_over(states[1])
    # waiting (not ready) lists no spot and no stop; ready lists both cells' spots only
    # where the cell passes
    first = compiled.new_game(2)
    assert {m["alt"] for m in compiled.legal_moves(first, 0)} == {"num", "wait"}
    ready = compiled.apply(first, {"seat": 0, "alt": "wait", "args": [1]})
    assert [m["args"] for m in compiled.legal_moves(ready, 1) if m["alt"] == "spot"] == [[[1, 0]]]


def listing_failures(text: str) -> list:
    """(code, message) of the failure of the first seat's listing, in each back end."""
    failures = []
    for game in games(text):
        state = game.new_game(2)  # (reaching the choice only makes sure it has a move)
        with pytest.raises(RuleError) as err:
            game.legal_moves(state, 0)
        failures.append((err.value.code, str(err.value)))
    return failures


def test_a_condition_reading_no_parameter_fails_as_the_interpreter_fails():
    """`sum(big) < 0` reads no parameter: false, it is tested once for 10,000 combinations,
    charged as the loop charges them; where that is more than a listing may go through, both
    back ends stop at the same diagnostic (where the moves are asked for)."""
    failures = listing_failures(KINDS.replace("var big: list of number = []",
                                              "var big: list of number = range(1, 3000)"))
    assert failures[0] == failures[1]
    assert failures[0][0] == "E501"


def test_an_error_in_a_condition_reading_no_parameter_is_the_interpreters():
    failures = listing_failures(KINDS.replace("if not ready:", "if 10 / len(big) > 1 and not ready:"))
    assert failures[0] == failures[1]
    assert failures[0][0] == "E504" and "kinds.game:" in failures[0][1]


def test_the_empty_cells_of_a_grid_are_listed_in_rows_and_fresh_each_time():
    """`empty_cells` of a grid of known size, a choice's list at every listing: the cells in
    rows, each listing's own (a caller changing one changes no later listing)."""
    game = load(str(ROOT / "examples" / "tictactoe.game"))
    state = game.new_game(2)
    state = game.apply(state, {"seat": 0, "alt": "place", "args": [[1, 0]]})
    state = game.apply(state, {"seat": 1, "alt": "place", "args": [[0, 2]]})
    cells = [m["args"][0] for m in game.legal_moves(state, 0)]
    assert cells == [[0, 0], [2, 0], [0, 1], [1, 1], [2, 1], [1, 2], [2, 2]]
    cells[0][0] = 9
    assert [m["args"][0] for m in game.legal_moves(state, 0)][0] == [0, 0]
    assert game.is_legal(state, {"seat": 0, "alt": "place", "args": [[0, 0]]})
    assert not game.is_legal(state, {"seat": 0, "alt": "place", "args": [[1, 0]]})
