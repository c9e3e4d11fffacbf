"""The recorder a kept score reads the state through (gamedsl/runtime/readmemo.py): the parts
it notes are the parts read, each once, whatever reads them again, and a use of the state it
does not follow is refused rather than answered from what it has seen so far."""

from pathlib import Path

import pytest

from gamedsl.errors import RuleError
from gamedsl.pipeline import load
from gamedsl.runtime.readmemo import read_parts
from tests.support.play_checks import memo_and_fresh_heuristics

ROOT = Path(__file__).resolve().parents[2]

PER_PLAYER = frozenset({"hand"})


def _state():
    return {"n": 2, "vars": {"a": 1, "b": [2, 3]}, "flow": {"current": 0, "round": 1},
            "pvars": {"total": [4, 5]}, "cstate": {"up": [True, False]},
            "zones": {"hand": [[0], [1, 2]], "pile": [3]}, "where": [["hand", 0, None], None]}


def test_each_part_read_is_noted_once_in_the_order_first_read():
    def evaluate(s):
        return (s["zones"]["hand"][1], s["zones"]["hand"][1], s["pvars"]["total"][0], s["zones"]["pile"],
                s["vars"]["a"], s["zones"]["hand"][1], s["n"], s["where"][0], s["pvars"]["total"][0])

    value, parts = read_parts(_state(), evaluate, PER_PLAYER)
    assert value == ([1, 2], [1, 2], 4, [3], 1, [1, 2], 2, ["hand", 0, None], 4)
    assert parts == (("zones", "hand", 1), ("pvars", "total", 0), ("zones", "pile"), ("vars", "a"), ("n",),
                     ("where", 0))


@pytest.mark.parametrize("use, part", [
    (lambda s: s["flow"].get("out"), ("flow",)),
    (lambda s: "b" in s["vars"], ("vars",)),
    (lambda s: len(s["zones"]["hand"]), ("zones", "hand")),
    (lambda s: sorted(s["cstate"].keys()), ("cstate",)),
    (lambda s: [v for v in s["pvars"]["total"]], ("pvars", "total")),
    (lambda s: (s["vars"]["a"], dict(s["vars"])), ("vars",)),
])
def test_a_container_used_whole_is_noted_whole(use, part):
    state = _state()
    value, parts = read_parts(state, use, PER_PLAYER)
    assert value == use(state) and part in parts


@pytest.mark.parametrize("use", [
    lambda s: s["zones"].copy(),
    lambda s: repr(s["vars"]),
    lambda s: s["flow"] == {"current": 0, "round": 1},
    lambda s: s["pvars"].setdefault("total", []),
    lambda s: s["vars"] | {},
    lambda s: s["zones"].pop("pile"),
])
def test_a_use_the_recorder_does_not_follow_is_refused(use):
    # (a name read so far is held by the recorder: what it holds is never shown as the state)
    def evaluate(s):
        s["vars"]["a"], s["zones"]["pile"], s["flow"]["current"], s["pvars"]["total"][1]
        return use(s)

    with pytest.raises(Exception):
        read_parts(_state(), evaluate, PER_PLAYER)


def test_a_kept_score_of_a_grid_and_lists_of_lists_is_found():
    # (a part whose value is a grid or holds lists is kept frozen all the way down, and found so)
    game = load(str(ROOT / "examples" / "tictactoe.game"))
    memo = game.heuristics_memo()
    state = game.apply(game.new_game(2, seed=1), game.legal_moves(game.new_game(2, seed=1))[4])
    reads = []

    def evaluate(s, seat):
        reads.append(seat)
        return len(s["where"]) + len(s["zones"]["board"]) * 10 + seat

    first = [memo.score(state, seat, evaluate) for seat in range(2)]
    assert [memo.score(game.clone(state), seat, evaluate) for seat in range(2)] == first == [20, 21]
    assert reads == [0, 1] and memo.hits == 2
    later = game.apply(state, game.legal_moves(state)[0])
    assert [memo.score(later, seat, evaluate) for seat in range(2)] == [30, 31] and reads == [0, 1, 0, 1]


PARTS = '''
game "Parts"
players 2
player var a: number = 0
player var b: number = 0

def from_a(p: player) = p.a * 10
def from_b(p: player) = p.b

turn:
  choose by current:
    up_a "a":
      current.a += 1
    up_b "b":
      current.b += 1
  if current.a + current.b >= 500:
    end game

score of p: from_a(p) + from_b(p)
'''


@pytest.mark.parametrize("backend", ["compiled", "interpreter"])
def test_a_part_of_a_score_is_found_only_where_what_it_read_holds(backend):
    game = load("parts.game", text=PARTS, backend=backend)
    assert [name for name, _, _ in game.program.heuristic_parts] == ["from_a", "from_b"]
    memo = game.heuristics_memo()
    state = game.new_game(2, seed=1)
    assert game.heuristics(state, memo) == [0, 0]
    # P1's b changed: its score is from_a's value found and from_b's worked out; P2's is
    # found whole
    state = game.apply(state, {"seat": 0, "alt": "up_b", "args": []})
    hits, parts = memo.hits, memo.part_hits
    assert game.heuristics(state, memo) == [1, 0]
    assert (memo.hits, memo.part_hits) == (hits + 1, parts + 1)
    # P2's a changed: from_a, which reads it, is worked out again (found, it would give 0)
    state = game.apply(state, {"seat": 1, "alt": "up_a", "args": []})
    assert game.heuristics(state, memo) == [1, 10]
    assert (memo.hits, memo.part_hits) == (hits + 2, parts + 2)
    # (each value the one worked out afresh, before and after the parts' readers are
    # written: read step by step for their first hundred look-ups)
    for move in ({"seat": 0, "alt": "up_a", "args": []}, {"seat": 1, "alt": "up_b", "args": []}):
        state = game.apply(state, move)
    assert game.heuristics(state, memo) == [11, 11] == game.heuristics(state)
    states = [state]
    for turn in range(250):
        states.append(game.apply(states[-1], {"seat": turn % 2, "alt": "up_b", "args": []}))
    for later in states + states[::-1]:
        fresh = game.heuristics(later)
        assert game.heuristics(later, memo) == fresh and game.heuristics(later, game.heuristics_memo()) == fresh


HEAVY = '''
game "Heavy"
players 2
player var a: number = 0

def heavy(p: player) = sum([len(1..1000) for i in 1..550]) + p.a
def again(p: player) = heavy(p)
def other(p: player) = sum([len(1..1000) for i in 1..550]) + p.a

turn:
  choose by current:
    up "up":
      current.a += 1
  if current.a >= 3:
    end game

score of p: heavy(p) + SECOND(p)
'''


@pytest.mark.parametrize("second", ["again", "other"])
def test_parts_of_a_score_stop_where_the_score_whole_stops(second):
    # Each part goes through 1.1 million values alone, under the limit of 2 million. With
    # `again`, the score whole goes through them once (the second call answered by the memo
    # of def values) and has a value; with `other`, twice, and stops (E501): made of its
    # parts, it must stop there too, not add up two values each under the limit.
    game = load("heavy.game", text=HEAVY.replace("SECOND", second))
    state = game.new_game(2, seed=1)
    if second == "again":
        assert game.heuristics(state, game.heuristics_memo()) == [1100000, 1100000]
    else:
        with pytest.raises(RuleError, match="E501"):
            game.heuristics(state, game.heuristics_memo())


SUMMED = '''
game "Summed"
players 2
player var a: number = 0

def one(p: player) = FIRST
def two(p: player) = p.a + SECOND

turn:
  choose by current:
    up "up":
      current.a += 1
  if current.a >= 3:
    end game

score of p: SCORE
'''


@pytest.mark.parametrize("first, second, score, summed", [
    ("p.a * 10", "1", "one(p) + two(p)", True),
    ("p.a / 4", "0.5", "one(p) + two(p)", True),                     # fractions: added as the rules add
    ("999999999999999", "1", "one(p) + two(p)", True),               # the sum past the bound: E504 alike
    ("999999999999999", "-5", "one(p) + two(p)", True),
    ("-999999999999999", "-1", "one(p) + two(p) + one(p)", False),  # a part twice
    ("p.a", "2", "two(p) + one(p)", True),
    ("p.a", "2", "one(p) - two(p)", False),
    ("p.a", "2", "one(p) + two(p) + 1", False),
])
def test_a_score_that_sums_its_parts_is_what_the_rules_add(first, second, score, summed):
    text = SUMMED.replace("FIRST", first).replace("SECOND", second).replace("SCORE", score)
    game = load("summed.game", text=text)
    assert game.program.heuristic_summed is summed
    memo = game.heuristics_memo()
    state = game.new_game(2, seed=1)
    for _ in range(4):
        scored = memo_and_fresh_heuristics(game, state, memo)
        if scored is not None:
            got, fresh = scored
            assert got == fresh and [type(v) for v in got] == [type(v) for v in fresh]
        if game.is_over(state):
            break
        state = game.apply(state, {"seat": state["flow"]["current"], "alt": "up", "args": []})
