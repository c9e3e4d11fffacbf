"""A move from a client is anything JSON can say: a refusal repeats it safely (one line,
control characters escaped, bounded), and odd shapes are refused, never an internal error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamedsl.errors import MoveError
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pearls():
    game = load(str(ROOT / "examples" / "pearl_auction.game"))
    return game, game.new_game(3, 1)


def refusal(game, state, move) -> str:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(MoveError) as err:
        game.apply(state, move)
    assert json.dumps(state, sort_keys=True) == before
    text = str(err.value)
    assert "\n" not in text and len(text) < 200, text
    return text


def test_a_key_with_a_newline_is_refused_on_one_line(pearls):
    # (found by test_a_move_from_a_client_is_legal_or_refused_with_the_state_unchanged)
    game, state = pearls
    assert refusal(game, state, {"seat": 0, "alt": "bid", "args": [{"\n": None}]}) == \
        "'bid {\\n: none}' is not a legal move now"


@pytest.mark.parametrize("args, said", [
    (["x" * 100_000], "'bid " + "x" * 76 + "…' is not a legal move now"),
    (["\x1b[2J\r"], "'bid \\x1b[2J\\r' is not a legal move now"),
])
def test_a_refusal_repeats_a_move_escaped_and_bounded(pearls, args, said):
    game, state = pearls
    assert refusal(game, state, {"seat": 0, "alt": "bid", "args": args}) == said


def test_deeply_nested_arguments_are_malformed_not_a_recursion(pearls):
    game, state = pearls
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert refusal(game, state, {"seat": 0, "alt": "bid", "args": [deep]}) == \
        "a move's arguments are nested at most 16 deep"


def test_a_huge_seat_number_is_refused(pearls):
    game, state = pearls
    assert refusal(game, state, {"seat": 10 ** 5000, "alt": "bid", "args": [0]}).startswith(
        "that seat cannot move now; waiting for P1")
