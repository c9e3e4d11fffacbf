"""A choice that is not listed when reached (a secret choice) is only made sure to have a
move for each of its seats: by the choice's generated search for a first move in the
compiling back end (compiler/listing.py, `generate_first`), by `moves_for(first_only=True)`
in the interpreter. Both must agree: the same states after every move, the same failure (a
seat with no move, a list that is not one, too much work) at the same line.

The games here are the real and the generated ones with every `choose by X:` made secret
(`choose secretly by each ... in [X]:`), so every decision goes through that search.
"""

from __future__ import annotations

import random
import re

import pytest

from gamedsl.errors import GameError, RuleError
from gamedsl.pipeline import load
from tests.support import rulegen

REAL = [p for p in rulegen.real_files() if p.name not in ("letter_tycoon.game", "wordomino.game")]
_CHOOSE = re.compile(r"choose by (.+):")


def secret(text: str) -> str:
    return _CHOOSE.sub(r"choose secretly by each fm_seat in [\1]:", text)


def both(text: str):
    try:
        a = load("first.game", text=text, backend="interpreter")
    except GameError:
        return None
    return a, load("first.game", text=text, backend="compiled")


def outcome(call):
    try:
        return "ok", call()
    except RuleError as err:
        return "failed", (err.code, str(err), err.span)


def play_both(a, b, players: int, seed: int, steps: int) -> int:
    """Random moves made in both back ends, the states and failures compared; the moves made."""
    rng = random.Random(seed)
    x, y = outcome(lambda: a.new_game(players, seed)), outcome(lambda: b.new_game(players, seed))
    assert x == y
    made = 0
    while x[0] == "ok" and made < steps and not a.is_over(x[1]):
        moves = a.legal_moves(x[1])
        assert moves == b.legal_moves(y[1])
        move = rng.choice(moves)
        x, y = outcome(lambda: a.apply(x[1], move)), outcome(lambda: b.apply(y[1], move))
        assert x == y, move
        made += 1
    return made


@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_every_choice_made_secret_plays_alike_in_both_back_ends(path):
    games = both(secret(path.read_text("utf-8")))
    if games is not None:
        play_both(*games, games[0].min_players, 1, 25)


def test_generated_games_with_secret_choices_play_alike():
    made = loaded = 0
    for seed in range(60):
        games = both(secret(rulegen.typed_game(random.Random(f"first-move-{seed}"))))
        if games is None:
            continue
        loaded += 1
        made += play_both(*games, games[0].min_players, seed, 12)
    assert loaded >= 20 and made > 30


STUCK = """game "stuck"
players 2

var n: number = 0

turn:
  choose by current:
    grow "grow":
      n += 1
  choose secretly by each p in [current]:
    take(x in [1, 2, 3]) "take {x}" if x > n:
      n += x
    skip(y in range(0, 3 - n)) "skip {y}":
      n += 0
"""


def test_a_secret_choice_with_no_move_fails_alike():
    a, b = both(STUCK)
    failures = []
    for game in (a, b):
        state = game.new_game(2, 0)
        try:
            while True:
                state = game.apply(state, game.legal_moves(state)[-1])
        except RuleError as err:
            failures.append((err.code, str(err), err.span))
    assert failures[0] == failures[1] and failures[0][0] == "E503"
