"""A choice reached without being listed (`apply_legal(..., list_ahead=False)`, a secret
choice) is only made sure to have a move: by the choice's generated search for a first move
in the compiling back end (compiler/listing.py, `L.any`), by `moves_for(first_only=True)`
in the interpreter. Both must agree: the same states after every move, the same failure
(a choice with no move, a list that is not one, too much work) at the same line.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gamedsl.errors import GameError, RuleError
from gamedsl.pipeline import load
from tests.support import rulegen

ROOT = Path(__file__).resolve().parents[2]
REAL = [p for p in rulegen.real_files() if p.name not in ("letter_tycoon.game", "wordomino.game")]


def outcome(game, state, move):
    try:
        return "ok", game.apply_legal(state, move, list_ahead=False)
    except RuleError as err:
        return "failed", (err.code, str(err), err.span)


def walk_both(a, b, players: int, seed: int, steps: int) -> int:
    """Random moves made in both back ends; at each state every move (at most 12) applied
    without listing ahead in both. The number of moves so compared."""
    rng = random.Random(seed)
    sa, sb = a.new_game(players, seed), b.new_game(players, seed)
    compared = 0
    for _ in range(steps):
        assert sa == sb
        if a.is_over(sa):
            break
        moves = a.legal_moves(sa)
        assert moves == b.legal_moves(sb)
        for move in rng.sample(moves, min(12, len(moves))):
            x, y = outcome(a, sa, move), outcome(b, sb, move)
            assert x == y, move
            compared += 1
        move = rng.choice(moves)
        try:
            sa, sb = a.apply(sa, move), b.apply(sb, move)
        except RuleError:
            break  # (the same failure: compared above)
    return compared


@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_a_choice_reached_unlisted_has_a_move_alike_in_both_back_ends(path):
    try:
        a = load(str(path), backend="interpreter")
    except GameError:
        return
    b = load(str(path), backend="compiled")
    assert walk_both(a, b, a.min_players, 1, 25) > 0


def test_generated_games_reach_choices_unlisted_alike():
    compared = 0
    for seed in range(30):
        text = rulegen.typed_game(random.Random(f"first-move-{seed}"))
        try:
            a = load("fuzz-first.game", text=text, backend="interpreter")
        except GameError:
            continue
        b = load("fuzz-first.game", text=text, backend="compiled")
        try:
            compared += walk_both(a, b, a.min_players, seed, 12)
        except RuleError:
            pass  # (new_game failed: alike, or the states above would differ)
    assert compared > 50


STUCK = """game "stuck"
players 2

var n: number = 0

turn:
  choose by current:
    grow "grow":
      n += 1
  choose by current:
    take(x in [1, 2, 3]) "take {x}" if x > n:
      n += x
    skip(y in range(0, 3 - n)) "skip {y}":
      n += 0
"""


def test_a_choice_with_no_move_fails_alike_when_reached_unlisted():
    games = [load("stuck.game", text=STUCK, backend=b) for b in ("interpreter", "compiled")]
    results = []
    for game in games:
        state = game.new_game(2, 0)
        for _ in range(3):
            state = game.apply_legal(state, {"seat": state["flow"]["current"], "alt": "grow", "args": []},
                                     list_ahead=False) if state["pending"]["s"] == 0 else state
            move = next(iter(game.legal_moves(state)), None)
            if move is None:
                break
            results.append(outcome(game, state, move)[0])
            try:
                state = game.apply_legal(state, move, list_ahead=False)
            except RuleError as err:
                results.append((err.code, str(err)))
                break
    half = len(results) // 2
    assert results[:half] == results[half:]
    assert any(isinstance(r, tuple) and r[0] == "E503" for r in results)
