"""Property tests (hypothesis): the engine's promises hold for any sequence of moves and any
move a client may send, and a rule file stays safe to check whatever is spliced into it.

tests/games/test_game_invariants.py and tests/games/test_random_play.py play seeded random games;
here hypothesis chooses the moves (an index into the legal list at each step, or a move of
its own making) and, when a promise breaks, shrinks the game to the fewest moves that
break it. The suite runs the same examples every time (the "ci" hypothesis profile); the
long randomised search is HYPOTHESIS_PROFILE=long, and what it finds is kept here as an
explicit @example.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.play_checks import (check_components, check_declared_values, check_json_round_trip, check_replay,
                         check_views_hide, dump)

from gamedsl.errors import GameError
from gamedsl.errors import MoveError
from gamedsl.pipeline import load

ROOT = Path(__file__).resolve().parents[2]
# Games quick enough to play a hundred times here; the real games get the long random runs.
GAMES = ["examples/tictactoe.game", "examples/high_card.game", "examples/pearl_auction.game",
         "examples/dominoes.game", "games/trade_tycoon.game"]
# How many examples, drawn how: the hypothesis profile's (tests/support/hypothesis_profiles.py:
# the same ones on every run in CI, the long randomised search with HYPOTHESIS_PROFILE=long).
SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_loaded: dict = {}


def game_at(path: str):
    if path not in _loaded:
        _loaded[path] = load(str(ROOT / path))
    return _loaded[path]


# Values a client could put in a move: anything JSON can carry, nested a little.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8)


def near_legal(legal):
    """A legal move with one argument changed, added or dropped, or said by another seat."""
    def tweak(move, how, i, value, seat):
        args = list(move["args"])
        if how == 0 and args:
            args[i % len(args)] = value
        elif how == 1:
            args.append(value)
        elif how == 2 and args:
            args.pop(i % len(args))
        return {"seat": seat if how == 3 else move["seat"], "alt": move["alt"], "args": args}

    return st.builds(tweak, st.sampled_from(legal), st.integers(0, 3), st.integers(0, 9),
                     st.integers(-2, 60) | json_values, st.integers(-1, 6))


def client_moves(alts):
    return st.fixed_dictionaries({
        "seat": st.integers(-3, 8) | json_values,
        "alt": st.sampled_from(sorted(alts) + ["no_such_move", ""]) | json_values,
        "args": st.lists(json_values, max_size=5) | json_values,
    })


@pytest.mark.parametrize("path", GAMES)
def test_any_sequence_of_legal_moves_keeps_the_promises(path):
    game = game_at(path)

    @SETTINGS
    @given(players=st.integers(game.min_players, game.max_players), seed=st.integers(0, 2**32 - 1),
           picks=st.lists(st.integers(0, 10**6), max_size=80))
    def run(players, seed, picks):
        state = game.new_game(players, seed)
        start, played = dump(state), []
        rnd = random.Random(seed)
        for pick in picks:
            check_components(game, state)
            check_declared_values(game, state)
            if game.is_over(state):
                break
            moves = game.legal_moves(state)
            assert moves, "nobody can move, yet the game is not over"
            move = moves[pick % len(moves)]
            played.append(move)
            state = game.apply(state, move)
        check_views_hide(game, state, rnd)
        if not game.is_over(state):
            check_json_round_trip(game, state, game.legal_moves(state)[0])
        game.results(state)
        check_replay(game, players, seed, start, played, state)

    run()


@pytest.mark.parametrize("path", GAMES)
def test_a_move_from_a_client_is_legal_or_refused_with_the_state_unchanged(path):
    game = game_at(path)

    @SETTINGS
    @given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 12), data=st.data())
    def run(seed, steps, data):
        state = game.new_game(game.min_players, seed)
        rnd = random.Random(seed)
        for _ in range(steps):
            if game.is_over(state):
                break
            state = game.apply(state, rnd.choice(game.legal_moves(state)))
        legal = game.legal_moves(state)
        before = dump(state)
        for _ in range(5):
            anything = client_moves({m["alt"] for m in legal})
            move = data.draw(near_legal(legal) | anything if legal else anything)  # none when the game is over
            try:
                after = game.apply(state, move)
            except MoveError as err:
                assert str(err).strip() and "\n" not in str(err).strip(), "a refusal is one line"
            else:
                assert move in legal, f"{move} was carried out but is not a legal move"
                assert after is not state
            assert dump(state) == before, f"trying {move} changed the state"

    run()


REAL_FILES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games").glob("*.game")) + \
    ["examples/pearl_auction.game", "examples/tictactoe.game"]


@pytest.mark.parametrize("path", REAL_FILES)
def test_any_text_spliced_into_a_rule_file_ends_in_diagnostics_or_a_game(path, tmp_path):
    text = (ROOT / path).read_text("utf-8")
    lines = text.split("\n")
    target = ROOT / path  # loaded under its own name, so its data files are found beside it

    @settings(suppress_health_check=[HealthCheck.too_slow])
    @given(at=st.integers(0, len(lines)), cut=st.integers(0, 3), junk=st.text(max_size=40))
    def run(at, cut, junk):
        mutant = "\n".join(lines[:at] + [junk] + lines[at + cut:])
        try:
            game = load(str(target), text=mutant)
        except GameError as err:
            assert err.diagnostics, "a GameError lists at least one diagnostic"
            return
        assert game.min_players >= 1

    run()


# Found by the long search (HYPOTHESIS_PROFILE=long), kept as examples every run tries:
# moves a client sent whose refusal must still be one line.
# (path, random moves played first with seed 0, as the property plays them, the move sent)
FOUND = [
    ("examples/tictactoe.game", 0, {"seat": 0, "alt": "place", "args": ["\n"]}),
    ("examples/tictactoe.game", 0, {"seat": 0, "alt": "place", "args": ["a\r\nb\x1b[2J"]}),
    # false is 0 to Python's ==, so it passed for the listed bid 0, then broke the rules' max()
    ("examples/pearl_auction.game", 1, {"seat": 1, "alt": "bid", "args": [False]}),
]


@pytest.mark.parametrize("path, steps, move", FOUND)
def test_moves_the_long_search_found_are_refused_in_one_line(path, steps, move):
    game = game_at(path)
    state = game.new_game(game.min_players, 0)
    rnd = random.Random(0)
    for _ in range(steps):
        state = game.apply(state, rnd.choice(game.legal_moves(state)))
    before = dump(state)
    with pytest.raises(MoveError) as err:
        game.apply(state, move)
    text = str(err.value).strip()
    assert text and "\n" not in text and "\r" not in text and "\x1b" not in text
    assert dump(state) == before
