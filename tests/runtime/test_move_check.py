"""`apply` (and `is_legal`) check a move against its alternative's choices and guard
instead of listing every move: it must agree with the listing, move by move.

For each game in games/ and examples/, a few random games: at every step, every listed move
is accepted, and moves made from listed ones by changing one argument (to another listed
move's value, or to a value no move has), dropping or adding an argument, or renaming the
alternative are accepted exactly when the listing holds them.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted((ROOT / "games").glob("*.game")) + sorted((ROOT / "examples").glob("*.game"))
SEEDS = range(2)
MAX_STEPS = 40
SAMPLE = 25   # listed moves varied at each step


def variants(move: dict, listed: list, rng: random.Random) -> list:
    out = [dict(move, alt=move["alt"] + "_not"), dict(move, args=move["args"] + [0])]
    if move["args"]:
        out.append(dict(move, args=move["args"][:-1]))
    values = [a for m in listed for a in m["args"]]
    for i in range(len(move["args"])):
        for value in (rng.choice(values), "no such value", -1):
            args = list(move["args"])
            args[i] = value
            out.append(dict(move, args=args))
    return out


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_is_listed_agrees_with_the_listing(path):
    game = load(str(path))
    players = game.min_players
    checked = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        for _ in range(MAX_STEPS):
            if game.is_over(state):
                break
            seat = game.waiting_for(state)[0]
            listed = game.legal_moves(state, seat)
            plain = [m for m in listed if not game.is_suggestion(state, m)]
            for move in rng.sample(plain, min(SAMPLE, len(plain))):
                assert game.is_legal(state, move), move
                for other in variants(move, listed, rng):
                    assert game.is_legal(state, other) == (other in listed), other
                    checked += 1
            state = game.apply(state, rng.choice(listed))
    assert checked > 0
