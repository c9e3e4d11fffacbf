"""A choice's moves as a table (move_table, move_count, move_at, random_move) and the fast clone of the
compiling back end, against the listing and marshal's copy: in every rule file of the project,
on the states of a random game, in both back ends."""

from __future__ import annotations

import marshal
import random
from pathlib import Path

import pytest

from gamedsl.errors import GameError, RuleError
from gamedsl.pipeline import load
from tests.support import rulegen
from tests.support.fixtures import COUNTER
from tests.support.play_checks import memo_and_fresh_heuristics

ROOT = Path(__file__).resolve().parents[2]
REAL = rulegen.real_files()
SHORT = {"letter_tycoon.game": 4, "wordomino.game": 3}  # (a word game lists every word)


def snapshot(state: dict) -> dict:
    return marshal.loads(marshal.dumps(state))


def check_state(game, state: dict, rng_seed: int) -> None:
    for seat in game.waiting_for(state):
        legal = game.legal_moves(state, seat)
        assert game.move_count(state, seat) == len(legal)
        table = game.move_table(state, seat)
        assert table.count == len(legal) and table.moves() == legal
        assert table.keys() == [(m["alt"], *m["args"]) for m in legal]
        for i in sorted({0, len(legal) // 2, len(legal) - 1} if legal else ()):
            assert game.move_at(state, seat, i) == legal[i]
        if legal and not game.has_typed_moves(state, seat):
            mine, theirs = random.Random(rng_seed), random.Random(rng_seed)
            assert game.random_move(state, seat, mine) == theirs.choice(legal)
            assert mine.getstate() == theirs.getstate()  # the listing's own draw
        elif legal:
            # (suggestions are checked as they are drawn: tests/runtime/test_random_move.py)
            assert game.random_move(state, seat, random.Random(rng_seed)) in legal
        else:
            assert game.random_move(state, seat, random.Random(rng_seed)) is None
    copy = game.clone(state)
    assert copy == snapshot(state) and copy is not state


@pytest.mark.parametrize("path", REAL, ids=[str(p.relative_to(ROOT)) for p in REAL])
@pytest.mark.parametrize("backend", ["compiled", "interpreter"])
def test_tables_and_clones_agree_with_the_listing_and_marshal(path, backend):
    try:
        game = load(str(path), backend=backend)
    except GameError:
        return
    rng = random.Random(7)
    state = game.new_game(game.min_players, seed=3)
    for step in range(SHORT.get(path.name, 30)):
        if game.is_over(state):
            break
        check_state(game, state, step)
        seat = game.waiting_for(state)[0]
        move = game.random_move(state, seat, rng)
        # a move played in place on a clone leaves the original as it was
        before = snapshot(state)
        copy = game.clone(state)
        try:
            after = game.apply_legal(copy, move, in_place=True)
        except RuleError:
            break
        assert state == before
        assert after == game.apply(state, move)
        state = after


BIG = '''
game "Big choice"
players 2
turn:
  choose by current:
    pick(a in range(1, {a}), b in range(1, 300)) "pick {a} {b}":
      pass
    odd(c in range(1, {c})) "odd {c}" if c % 2 == 1:
      pass
    hold "hold":
      end game
'''


@pytest.mark.parametrize("a, c", [(340, 10), (300, 30000)])
def test_a_choice_of_too_many_moves_fails_alike_with_tables(a, c):
    """More than 100,000 moves: the same failure in both back ends, from the same alternative
    (the moves a table only counts are counted against the limit as the listed ones are)."""
    text = BIG.replace("{a}", str(a)).replace("{c}", str(c))
    failures = []
    for backend in ("interpreter", "compiled"):
        game = load("big.game", text=text, backend=backend)
        state = game.new_game(2, seed=1)  # (reaching the choice only makes sure it has a move)
        for ask in (game.legal_moves, game.move_count):
            with pytest.raises(RuleError) as err:
                ask(state, 0)
            failures.append((err.value.code, str(err.value)))
    assert len(set(failures)) == 1
    assert failures[0][0] == "E504" and "more than 100,000 moves" in failures[0][1]


def test_a_table_counts_without_listing_and_lists_in_order():
    text = BIG.replace("{a}", "4").replace("{c}", "6")
    game = load("big.game", text=text)
    state = game.new_game(2, seed=1)
    legal = game.legal_moves(state, 0)
    # 4 x 300 combinations (a range holds both its ends), then the odd numbers up to 6 the
    # condition lets through, then hold
    assert game.move_count(state, 0) == len(legal) == 4 * 300 + 3 + 1
    assert [game.move_at(state, 0, i) for i in range(len(legal))] == legal
    assert legal[300] == {"seat": 0, "alt": "pick", "args": [2, 1]}
    assert [m["args"] for m in legal[-4:-1]] == [[1], [3], [5]]
    assert game.move_count(state, 1) == 0 and game.random_move(state, 1, random.Random(1)) is None
    with pytest.raises(IndexError):
        game.move_at(state, 0, len(legal))


@pytest.mark.parametrize("path", REAL, ids=[str(p.relative_to(ROOT)) for p in REAL])
def test_a_heuristics_memo_gives_what_scoring_each_state_gives(path):
    """One memo over every state of a game and of its resampled worlds (as a search keeps
    one): each seat's heuristic is the one worked out afresh, wherever it was reused."""
    try:
        game = load(str(path))
    except GameError:
        return
    memo, rng = game.heuristics_memo(), random.Random(5)
    state = game.new_game(game.min_players, seed=4)
    for _ in range(SHORT.get(path.name, 30)):
        if game.is_over(state):
            break
        seat = game.waiting_for(state)[0]
        for look in (state, game.resample(state, seat, rng)):
            scored = memo_and_fresh_heuristics(game, look, memo)
            if scored is None:
                continue
            got, fresh = scored
            assert got == fresh
            assert game.heuristics(look, memo) == fresh  # (the second time from the memo)
        try:
            state = game.apply_legal(state, game.random_move(state, seat, rng))
        except RuleError:
            break
    assert memo.hits > 0 or game.program.score is None


def test_a_memo_keeps_a_score_only_for_the_values_it_read():
    game = load("counter.game", text=COUNTER)
    memo = game.heuristics_memo()
    state = game.new_game(2, seed=1)
    assert game.heuristics(state, memo) == [0, 0]
    after = game.apply(state, {"seat": 0, "alt": "add", "args": [2]})
    # P1's total changed, P2's did not: P2's score comes from the memo, P1's is worked out
    hits = memo.hits
    assert game.heuristics(after, memo) == [2, 0]
    assert memo.hits == hits + 1


@pytest.mark.parametrize("backend", ["compiled", "interpreter"])
def test_a_tables_keys_are_the_callers_own(backend):
    # tic-tac-toe's cells are lists: a key changed in place changes neither the table nor
    # the moves listed or checked after it
    game = load(str(ROOT / "examples" / "tictactoe.game"), backend=backend)
    state = game.new_game(2, seed=1)
    legal = game.legal_moves(state, 0)
    table = game.move_table(state, 0)
    for key in table.keys():
        for v in key[1:]:
            if isinstance(v, list):
                v.append(99)
    assert table.moves() == legal == game.legal_moves(state, 0)
    assert table.keys() == [(m["alt"], *m["args"]) for m in legal]
    assert game.is_legal(state, legal[0])
