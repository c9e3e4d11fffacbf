"""Random play of every example game, checking the engine's promises after every step.

For every examples/*.game (and the tutorial's examples/tutorial/*/*.game), every player count and several seeds, a random game is
played to its end. After every step:
  * every legal move (or, when there are many, a sample of them) applies;
  * illegal moves (a legal move with an argument changed, a seat that is not
    waiting, an alternative that does not exist) are refused with MoveError and
    leave the state exactly as it was;
  * the state survives JSON, and the game continues identically from the copy;
  * no seat's view depends on what it cannot see (hidden zones, other players'
    `owner` zones): shuffling those contents leaves the view unchanged;
  * every component lies in at most one place, and state["where"] agrees.
At the end, replaying the moves from the same seed gives the identical state.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamedsl.pipeline import load
from tests.support.play_checks import check_replay, play

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.game"))
GAMES = EXAMPLES + sorted((ROOT / "examples" / "tutorial").glob("*/*.game"))
SEEDS = range(25)


@pytest.fixture(scope="module", params=GAMES, ids=[str(g.relative_to(ROOT / "examples").with_suffix("")) for g in GAMES])
def game(request):
    return load(str(request.param))


# ---------------------------------------------------------------- the games


@pytest.mark.parametrize("seed", SEEDS)
def test_random_games(game, seed):
    for players in range(game.min_players, game.max_players + 1):
        start, played, final = play(game, players, seed)
        results = game.results(final)
        assert results["finished"], "the game hit the turn limit"
        # (a cooperative game the players lost together has none)
        assert results["winners"] or results.get("outcome") == "lost", "a finished game has winners"
        assert len(results["scores"]) == players
        check_replay(game, players, seed, start, played, final)


def option_values(game):
    """Every word of every option, and both ends of its number ranges."""
    for spec in game.info.options:
        for word in spec.words:
            yield spec.name, word
        for lo, hi in spec.ranges:
            yield spec.name, lo
            yield spec.name, hi


def test_every_option_value_plays_to_the_end(game):
    for name, value in option_values(game):
        for players in (game.min_players, game.max_players):
            for seed in range(3):
                _, _, final = play(game, players, seed, checks=seed == 0, options={name: value})
                assert game.results(final)["finished"], f"{name}={value}: the game hit the turn limit"


def test_every_example_is_covered_by_scenarios():
    scenarios = (ROOT / "examples" / "scenarios").glob("*.scenario")
    named = set()
    for path in scenarios:
        first = next(ln for ln in path.read_text().splitlines() if ln.startswith("game "))
        named.add(Path(json.loads(first[5:].strip())).stem)
    missing = [g.stem for g in EXAMPLES if g.stem not in named]
    assert not missing, f"examples without scenarios: {missing}"
