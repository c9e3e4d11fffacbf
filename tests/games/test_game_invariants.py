"""Random and adversarial play of the real games (games/*.game), checking the engine's
promises as the game goes (see tests/support/play_checks.py for each check):

  * components are conserved, each lies in exactly one place (no rule of these games
    takes one out of play), and state["where"] agrees;
  * sampled legal moves apply without touching the state they were given;
  * illegal moves (an argument changed, a seat that is not waiting, an alternative that
    does not exist, one argument too many) and typed text that cannot be a move are
    refused with MoveError, the state unchanged;
  * a seat's view is unchanged when what it cannot see is permuted or changed;
  * the state survives JSON, and a game saved half-way, loaded and continued ends in the
    same state; replaying the move list from the same seed gives the identical game.

The real games are far bigger than the examples, so the checks run on every few steps
and sample fewer legal moves: the budget is about a minute for the whole file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamedsl.pipeline import load
from tests.support.play_checks import check_replay, dump, play

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted((ROOT / "games").glob("*.game"))
SEEDS = range(5)
CHECK_EVERY = 4     # steps between full checks (component count is checked on every step)
SAMPLE_APPLY = 8    # legal moves applied at each checked step


@pytest.fixture(scope="module", params=GAMES, ids=[g.stem for g in GAMES])
def game(request):
    return load(str(request.param))


def test_there_are_real_games_to_check():
    assert {g.stem for g in GAMES} >= {"letter_tycoon", "legendary_inventors", "trade_tycoon",
                                        "trade_tycoon_draft6", "wordomino"}


@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_keeps_the_engines_promises(game, seed):
    span = game.max_players - game.min_players + 1
    players = game.min_players + seed % span   # every player count across the seeds
    start, played, final = play(game, players, seed, check_every=CHECK_EVERY,
                                sample_apply=SAMPLE_APPLY, typed=True, all_placed=True)
    results = game.results(final)
    assert results["finished"], "the game hit the turn limit"
    assert len(results["scores"]) == players

    check_replay(game, players, seed, start, played, final)

    # Save half-way as JSON text, load it, continue: the same game.
    state = game.new_game(players, seed)
    half = len(played) // 2
    for move in played[:half]:
        state = game.apply(state, move)
    state = json.loads(json.dumps(state))
    for move in played[half:]:
        state = game.apply(state, move)
    assert dump(state) == dump(final)


def test_the_view_check_catches_a_leak():
    """The view check is not vacuous: a view that shows a hidden zone's order fails it."""
    import random

    from tests.support.play_checks import check_views_hide

    game = load(str(ROOT / "games" / "letter_tycoon.game"))
    state = game.new_game(2, 0)
    honest = game.view
    hidden = [z.name for z in game.info.zones if z.visibility == "hidden"]
    assert hidden
    game.view = lambda s, seat: dict(honest(s, seat), leak=[s["zones"][name] for name in hidden])
    with pytest.raises(AssertionError, match="view shows what it may not see"):
        check_views_hide(game, state, random.Random(0))


def test_the_component_check_catches_a_lost_or_doubled_component():
    from tests.support.play_checks import check_components

    game = load(str(ROOT / "games" / "trade_tycoon.game"))
    state = game.new_game(3, 0)
    check_components(game, state, all_placed=True)
    deck = state["zones"]["deck"]
    doubled = json.loads(json.dumps(state))
    doubled["zones"]["deck"].append(deck[0])
    with pytest.raises(AssertionError, match="is in"):
        check_components(game, doubled)
    lost = json.loads(json.dumps(state))
    lost["zones"]["deck"].pop()
    lost["where"][deck[-1]] = None
    with pytest.raises(AssertionError, match="lie in no zone"):
        check_components(game, lost, all_placed=True)


def test_the_declared_values_check_catches_a_value_out_of_bounds():
    """Options out of their declaration, seats and components that do not exist, runaway
    numbers: each is caught (the check is not vacuous)."""
    from tests.support.play_checks import check_declared_values

    game = load(str(ROOT / "games" / "legendary_inventors.game"))
    state = game.new_game(3, 0)
    check_declared_values(game, state)
    player_var = next(v.name for v in game.info.vars if not v.per_player and v.kind == "player")
    number_var = next(v.name for v in game.info.vars if v.per_player and v.kind == "value"
                      and isinstance(state["pvars"][v.name][0], int))
    broken = []
    seat = json.loads(json.dumps(state))
    seat["vars"][player_var] = 3
    broken.append((seat, "no seat"))
    huge = json.loads(json.dumps(state))
    huge["pvars"][number_var][1] = 10 ** 16
    broken.append((huge, number_var))
    turn = json.loads(json.dumps(state))
    turn["flow"]["current"] = -1
    broken.append((turn, "no seat"))
    for changed, message in broken:
        with pytest.raises(AssertionError, match=message):
            check_declared_values(game, changed)

    cards = load(str(ROOT / "examples" / "high_card.game"))   # a game with options: target 10..50
    state = cards.new_game(2, 0)
    check_declared_values(cards, state)
    state["options"]["target"] = 51
    with pytest.raises(AssertionError, match="option target"):
        check_declared_values(cards, state)
