"""Rule coverage counts what the games played ran, the same under both back ends, and not what
a bot tried while it searched."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamedsl.pipeline import load
from gamedsl.sim.coverage import Coverage
from gamedsl.sim.simulate import SimSpec, play_one

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["examples/tictactoe.game", "games/trade_tycoon.game", "games/legendary_inventors.game",
         "examples/high_card.game", "tests/sim/games/dead_rules.game", "examples/knockout.game"]


def _counts(path: str, backend: str, seats: list, games: int = 3) -> list:
    game = load(str(ROOT / path), backend=backend)
    cov = Coverage(game)
    spec = SimSpec(path=str(ROOT / path), seats=seats, games=games, seed=5)
    out = []
    for index in range(games):
        cov.reset()
        record = play_one(game, spec, index, cov)
        out.append((record["moves"], cov.counts()))
    return out


@pytest.mark.parametrize("path", GAMES)
def test_both_back_ends_count_the_same(path):
    players = 3 if path.startswith("games/") else 2
    seats = ["random"] * players
    compiled = _counts(path, "compiled", seats)
    assert compiled == _counts(path, "interpreter", seats)
    assert all(counts["stmts"] for _, counts in compiled)


# the compiled back end runs nested blocks, loops and procedures in place and moves
# components by its own code while an observer looks: every game and example counted alike
EVERY = sorted(str(p.relative_to(ROOT)) for p in [*ROOT.glob("games/*.game"), *ROOT.glob("examples/*.game")]
               if str(p.relative_to(ROOT)) not in GAMES)


@pytest.mark.parametrize("path", EVERY)
def test_every_game_counted_alike(path):
    game = load(str(ROOT / path))
    seats = ["random"] * game.min_players
    compiled = _counts(path, "compiled", seats, games=1)
    assert compiled == _counts(path, "interpreter", seats, games=1)
    assert compiled[0][1]["stmts"]


def test_a_search_is_not_counted():
    # greedy plays every move it considers on a copy of the state: none of those is the game's
    for moves, counts in _counts("examples/tictactoe.game", "compiled", ["greedy", "greedy"]):
        assert sum(counts["alts"].values()) == moves
        assert sum(counts["comps"].values()) == moves  # the stone placed
