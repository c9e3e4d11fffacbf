"""The fast clone of search (gamedsl/compiler/copier.py) for every number of players a game
allows: the copy is the state, and a move played on it leaves the state as it was."""

from __future__ import annotations

import marshal
import random

import pytest

from gamedsl.compiler.copier import UNROLLED, generate
from gamedsl.pipeline import load
from tests.support import rulegen

GAMES = rulegen.real_games()


def _containers(value, out: list) -> list:
    """Every list and dict inside `value`, itself included."""
    if isinstance(value, (list, dict)):
        out.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, out)
    return out


@pytest.mark.parametrize("path", GAMES, ids=[p.name for p in GAMES])
def test_a_clone_is_the_state_and_shares_no_zone_with_it(path):
    game = load(str(path))
    rng = random.Random(5)
    for n in range(game.min_players, game.max_players + 1):
        state = game.new_game(n, seed=n)
        for _ in range(12):
            if game.is_over(state):
                break
            copy = game.clone(state)
            assert copy == marshal.loads(marshal.dumps(state))
            mine = {id(c) for c in _containers(state["zones"], [])}
            assert not any(id(c) in mine for c in _containers(copy["zones"], []))
            before = marshal.loads(marshal.dumps(state))
            move = game.random_move(copy, game.waiting_for(copy)[0], rng)
            game.apply_legal(copy, move, in_place=True)
            assert state == before  # (played on the copy only)
            state = copy


def test_the_players_zones_are_written_out_seat_by_seat_for_the_counts_a_game_allows():
    game = load("cards.game", text='game "Cards"\nplayers 2..12\nkind card:\n  copies 3\n'
                                   'player zone hand of card: owner\nzone deck of card: hidden\n'
                                   'turn:\n  end game\n')
    zones = list(game.program.zones.values())
    source = generate(zones, range(game.min_players, game.max_players + 1))
    assert "if n == 2:" in source and f"elif n == {UNROLLED}:" in source
    assert f"n == {UNROLLED + 1}" not in source  # (more players: a loop, under `else`)
    assert "[x.copy() for x in z[Z0]]" in source
    assert "n == 1" not in source
