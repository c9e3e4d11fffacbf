"""Expressions compiled to Python source (gamedsl/compiler/pysource.py) answer what the closures answer:
the same games move for move, the same values, and the same diagnostics where a rule fails."""

import ast
import json
from pathlib import Path
import random
import re

import pytest

from gamedsl.errors import RuleError
from gamedsl.compiler.pysource import SourceCompiler
from gamedsl.compiler.closures import ExprCompiler
from gamedsl.pipeline import load
from gamedsl.syntax.parser import parse

from tests.support.fixtures import COUNTER

ROOT = Path(__file__).resolve().parents[2]

# (file, random moves to play); the word games list moves slowly, so they play fewer
GAMES = [(path, 30 if any(w in path for w in ("letter_tycoon", "wordomino")) else 150)
         for path in map(str, sorted([*ROOT.glob("games/*.game"), *ROOT.glob("examples/*.game")]))]


@pytest.fixture(autouse=True)
def generate_at_once(monkeypatch):
    """Generated code from an expression's first run (not its third), so every run of a test
    goes through it."""
    monkeypatch.setattr(SourceCompiler, "warmup", 0)


def parse_expression(text: str):
    tree, errors = parse(f"score of p: {text}\n", "<expr>")
    assert not errors, errors
    return tree.decls[0].expr


def _load(path, generate: bool, monkeypatch):
    monkeypatch.setattr(ExprCompiler, "generate", generate)
    return load(path)


def _trajectory(game, seed: int, moves: int) -> list:
    """Every state of a seeded random game, as JSON, and each seat's heuristic and score."""
    rng = random.Random(seed)
    state = game.new_game(game.min_players, seed)
    seen = []
    for _ in range(moves):
        if game.is_over(state):
            break
        seat = game.waiting_for(state)[0]
        state = game.apply(state, rng.choice(game.legal_moves(state, seat)))
        seen.append((json.dumps(state, sort_keys=True), game.heuristics(state), game.scores(state)))
    return seen


@pytest.mark.parametrize("path,moves", GAMES, ids=[p for p, _ in GAMES])
def test_every_game_plays_the_same_with_generated_code(path, moves, monkeypatch):
    closures = _load(path, False, monkeypatch)
    generated = _load(path, True, monkeypatch)
    for seed in (1, 2):
        assert _trajectory(generated, seed, moves) == _trajectory(closures, seed, moves)
    source = generated.snippets.source
    assert source is not None and source.generated > 0
    # the generated code ran these games itself: it never had to leave one to the closures
    assert source.give_ups == 0
    # and every source it wrote was Python (one that is not leaves its expression to the closures)
    assert source.unwritable == 0
    # the rules' names reach the generated code as values: its only texts are the state's keys
    texts = {node.value for text in source.sources.values() for node in ast.walk(ast.parse(text))
             if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert texts <= STATE_KEYS, texts - STATE_KEYS


STATE_KEYS = {"vars", "pvars", "cstate", "zones", "flow", "current", "start", "round", "n",
              "player", "component", "cell", "value", ","}  # (",": a grid's key, f"{x},{y}")


ERRORS = COUNTER + '''
table bonus by n:
  | n | vp |
  | 1 | 3  |
def half(n: number) = 10 / n
def nth(l: list of number, i: number) = l[i]
def vp(n: number) = bonus[n].vp
def doubling(n: number) = 0 if n < 1 else doubling(n - 1) + doubling(n - 1)
def deep(n: number) = 0 if n < 1 else 1 + deep(n - 1)
def grow(t: text, n: number) = t if n < 1 else grow(t + t, n - 1)

kind chip:
  copies 1 per player
  show "chip " + text(seat(owner))
'''


def _evaluated_both(text, tmp_path, monkeypatch):
    """The value of `text` in a new game of ERRORS by the closures alone, then with generated
    code; and the second game (its generated sources)."""
    path = tmp_path / "g.game"
    path.write_text(ERRORS)
    values = []
    for generate in (False, True):
        game = _load(str(path), generate, monkeypatch)
        values.append(game.evaluate(game.new_game(2), parse_expression(text)))
    return values, game


@pytest.mark.parametrize("text", [
    "half(0)",
    "[half(n) for n in [2, 1, 0]]",
    "nth([1, 2, 3], 5)",
    "vp(2)",
    "doubling(40)",      # 2**40 calls: stopped by the work budget (E501)
    "deep(500)",         # deeper than the call limit (E502)
    "len(5)",
    "sum([x.total for x in [current, none]])",
    # whole numbers beyond ±10**15, however computed (x = x * x in a loop once grew without end)
    "[n * n for n in [10, 100000000]]",
    "999999999999999 + 2",
    "-999999999999999 - 2",
    "sum([999999999999999, 2])",
    "grow(\"ab\", 25)",  # a text of more than a million letters
    # texts added up in one go: too long only as a whole, or from the first sum
    "grow(\"ab\", 18) + grow(\"ab\", 18) + \"x\"",
    "grow(\"ab\", 19) + \"x\" + text(1)",
    "range(1, 200000)",
    "len([range(1, 100000) for n in range(1, 30)])",  # 3 million numbers made
    "min([x for x in [1, 2] if x == 5])",
    "first([x for x in [1] if x != 1])",
    "sum([n * n for n in [10, 100000000]])",
    "len([x for x in range(1, 99999) if len([y for y in range(1, 99999)]) > 0])",
])
def test_a_failing_expression_gives_the_closures_diagnostic(text, tmp_path, monkeypatch):
    path = tmp_path / "g.game"
    path.write_text(ERRORS)
    errors = []
    for generate in (False, True):
        game = _load(str(path), generate, monkeypatch)
        state = game.new_game(2)
        with pytest.raises(RuleError) as err:
            game.evaluate(state, parse_expression(text))
        errors.append((err.value.code, err.value.message, str(err.value.span)))
    assert errors[1] == errors[0]


@pytest.mark.parametrize("text,value", [
    ("vp(1) + deep(150)", 153),
    ("half(4)", 2.5),
    ("[n * 2 for n in [1, 2, 3] if n != 2]", [2, 6]),
    ("sort p in players by most p.total", [0, 1]),
    ("[text(p) for p in players]", ["P1", "P2"]),
    ("[x for x in \"ab\"] + [len([1, 2]) // 2, -(3 % 2)]", ["a", "b", 1, -1]),
    ("true and 0 == 1 or not (1 in [2])", True),
    ("[\"a\" + \"b\", 999999999999999 + 0, -999999999999999 - 0, abs(-3), min([4, 2]), max([4, 2])]",
     ["ab", 999999999999999, -999999999999999, 3, 2, 4]),
    ("[len(\"abc\"), sum([1, 2]), sum([]), len(grow(\"a\", 3))]", [3, 3, 0, 8]),
    ("text(current) + \": \" + text(current.total) + \", \" + text(first(chip)) + \", \" + text(\"x\")",
     "P1: 0, chip 1, x"),
    ("[range(2, 4), range(3, 2), [n for n in range(1, 3) if n > 1 and (n < 3 or n == 9)]]", [[2, 3, 4], [], [2]]),
])
def test_generated_values(text, value, tmp_path, monkeypatch):
    values, game = _evaluated_both(text, tmp_path, monkeypatch)
    assert values == [value, value]
    assert game.snippets.source.give_ups == 0



def _last_root(source) -> str:
    """The source of the expression's function written last."""
    return [code for name, code in source.sources.items() if name.startswith("_R")][-1]

@pytest.mark.parametrize("text,value,give_ups", [
    ("len([x for x in [1, 2, 3] if x != 2])", 2, 0),
    ("sum([x * 2 for x in [1, 2]])", 6, 0),
    ("any([x == 3 for x in [1, 3]])", True, 0),
    ("any([x == 3 for x in [1, 2]])", False, 0),
    ("all([x == 3 for x in [1, 3]])", False, 0),
    ("all([x != 3 for x in [1, 2]])", True, 0),
    ("first([x for x in [5, 6] if x != 5])", 6, 0),
    ("last([x for x in [5, 6, 7] if x != 7])", 6, 0),
    ("len([x for x in [1, 2]])", 2, 0),
    ("sum([x for x in [1] if x == 0])", 0, 0),
    ("sum([half(n) for n in [4, 8]])", 3.75, 1),  # (fractions: the closures' sum)
])
def test_functions_of_a_comprehension_are_worked_out_in_its_loop(text, value, give_ups, tmp_path, monkeypatch):
    """`len`, `sum`, `any`, `all`, `min`, `max`, `first` and `last` of a comprehension are
    worked out in the loop going through it (no list made, no function called for it), with
    the closures' value."""
    values, game = _evaluated_both(text, tmp_path, monkeypatch)
    assert values == [value, value] and type(values[1]) is type(value)
    source = game.snippets.source
    assert source.give_ups == give_ups
    code = _last_root(source)
    assert not re.search(r"_g_(len|sum|any|all|min|max|first|last)\(|\[.* for ", code), code


# any/all/first of a comprehension: (expression, value or the error code) where an item after
# the one that gives the value would fail (half(0)), or would pass the work limit
# (doubling(40), the long lists); each also written where the generated code takes no
# statements (a sort's key).
# (Only == and != compare items here: an expression evaluated alone is not checked, and the
# generated code leaves other comparisons of unchecked values to the closures.)
STOPPING_CASES = [
    ("any([half(n) == 5 for n in [2, 0]])", True),
    ("all([half(n) == 1 for n in [2, 0]])", False),
    ("any([half(n) == 1 for n in [2, 0]])", "E504"),
    ("all([half(n) == 5 for n in [2, 0]])", "E504"),
    ("any([doubling(n) == 0 for n in [1, 40]])", True),
    ("all([doubling(n) != 0 for n in [1, 40]])", False),
    ("any([half(n) == 5 for n in [0, 2] if n != 0])", True),
    ("all([x != 2 for x in [1, 2, 3] if x != 1])", False),
    ("any([len([y for y in range(1, 99999)]) != 0 for x in range(1, 99999)])", True),
    ("any([len([y for y in range(1, 99999)]) == 0 for x in range(1, 99999)])", "E501"),
    ("first([half(n) for n in [2, 0]])", 5),
    ("first([half(n) for n in [0, 2] if n != 0])", 5),
    ("first([half(n) for n in [0, 2]])", "E504"),
    ("first([x for x in [1, 2] if x == 3])", "E504"),
    ("first([doubling(n) for n in [1, 40]])", 0),
    ("first([len([y for y in range(1, 99999)]) for x in range(1, 99999)])", 99999),
]


@pytest.mark.parametrize("text,value", STOPPING_CASES)
@pytest.mark.parametrize("written", ["alone", "in a sort's key"])
def test_any_all_and_first_stop_at_the_item_that_gives_their_value(text, value, written, tmp_path, monkeypatch):
    """`any`, `all` and `first` of a comprehension go through its items up to the first that
    gives the value: what comes after is never worked out, on both back ends, and both charge
    the same work."""
    path = tmp_path / "g.game"
    path.write_text(ERRORS)
    if written != "alone":
        text = f"sort x in [1, 2] by most {text}"
        value = value if isinstance(value, str) else [1, 2]
    found = []
    for generate in (False, True):
        game = _load(str(path), generate, monkeypatch)
        try:
            found.append(game.evaluate(game.new_game(2), parse_expression(text)))
        except RuleError as err:
            found.append(err.code)
    assert found == [value, value]
    if generate and not isinstance(value, str):
        source = game.snippets.source
        assert source.give_ups == 0
        code = "\n".join(source.sources.values())
        assert ("break" in code) if written == "alone" else re.search(r"_g_(decided|first_of)\(ctx, \(", code), code


def test_a_range_of_two_written_numbers_is_worked_out_as_it_is_written(tmp_path, monkeypatch):
    """A comprehension over `range(a, b)` of two whole numbers written in the rule: the range
    and its charge written as numbers, its items used as positions as they are."""
    text = ("[[[5, 6, 7][i] for i in range(-1, 1)], [x for x in range(3, 2)], "
            "len([x for x in range(1, 99999)])]")
    values, game = _evaluated_both(text, tmp_path, monkeypatch)
    assert values == [[[7, 5, 6], [], 99999]] * 2
    source = game.snippets.source
    assert source.give_ups == 0
    code = _last_root(source)
    assert "range(-1, 2)" in code and "range(3, 3)" in code and "ctx.work += 200004" in code, code  # (6 + 199,998: one charge)
    assert "int(" not in code and "type(-1)" not in code, code


def test_numbers_worked_out_in_place_are_the_functions_numbers(tmp_path, monkeypatch):
    """Sums, differences and products of two numbers are worked out in the generated code
    when both are whole; a fraction is the arithmetic functions' (a product or a difference
    made whole where it is)."""
    text = "[half(4) + half(4), half(4) * 2, half(4) - 0.5, deep(3) * 3 - 1 + deep(2), half(3) + 1]"
    values, game = _evaluated_both(text, tmp_path, monkeypatch)
    assert json.dumps(values[1]) == json.dumps(values[0]) == json.dumps([5.0, 5, 2, 10, 10 / 3 + 1])
    assert game.snippets.source.give_ups == 0
    assert any("-_MAX_NUMBER <= (" in text for text in game.snippets.source.sources.values())


def test_texts_the_generated_code_leaves_to_the_closures(tmp_path, monkeypatch):
    text = "text(1.5) + text(true) + text(none) + text([current, 1]) + text(-2) + text(current - 1)"
    values, game = _evaluated_both(text, tmp_path, monkeypatch)
    assert values == ["1.5truenoneP1 P2-2-1"] * 2


PICK = '''
game "Pick"
players 2
var limit: number = 3
def ok(a: number, b: number) = a + b != limit

turn:
  let skip = 2
  choose by current:
    pick(a in LIST_A, b in LIST_B) "pick {a} {b}" if GUARD:
      limit += 1
  if limit > 8:
    end game

score of p: limit
'''


def _pick_game(tmp_path, monkeypatch, generate, guard, list_a="[1, 2, 3]", list_b="[0, 1, 2]"):
    path = tmp_path / "pick.game"
    path.write_text(PICK.replace("GUARD", guard).replace("LIST_A", list_a).replace("LIST_B", list_b))
    return _load(str(path), generate, monkeypatch)


def test_a_choice_lists_the_same_moves_through_its_generated_guard(tmp_path, monkeypatch):
    listings = []
    for generate in (False, True):
        game = _pick_game(tmp_path, monkeypatch, generate, "ok(a, b) and a != skip")
        state, seen = game.new_game(2), []
        while not game.is_over(state):
            moves = game.legal_moves(state, game.waiting_for(state)[0])
            seen.append([m["args"] for m in moves])
            state = game.apply(state, moves[-1])
        listings.append(seen)
    assert listings[1] == listings[0]
    assert listings[0][0] == [[1, 0], [1, 1], [3, 1], [3, 2]]  # a + b != 3, a != 2
    assert game.snippets.source.give_ups == 0


@pytest.mark.parametrize("guard,lists", [
    ("a < 3 or 6 / (a - 3 + b) > 0", ("[1, 2, 3]", "[0, 1, 2]")),          # 6 / 0 at a=3, b=0
    ("a != b", ("range(1, 400)", "range(1, 400)")),                       # more than 100,000 moves
])
def test_a_failing_listing_gives_the_closures_diagnostic(guard, lists, tmp_path, monkeypatch):
    errors = []
    for generate in (False, True):
        game = _pick_game(tmp_path, monkeypatch, generate, guard, *lists)
        state = game.new_game(2)
        with pytest.raises(RuleError) as err:
            game.legal_moves(state, 0)
        errors.append((err.value.code, err.value.message, str(err.value.span)))
    assert errors[1] == errors[0]


SHARED = '''
game "Shared"
players 2
kind stone:
  copies 1 per player
zone supply of stone: public
zone board of stone: grid 3 by 3, public
var k: number = 0
def held(c: cell) = at(board, c) != none and at(board, c).owner == start_player and at(board, c).owner != none

setup:
  move stone to supply
  move first(supply) to board at (0, 0)
  while k < LIMIT and held((0, 0)) and [held(c) for c in [(0, 0), (0, 0)]] == [true, true]:
    k += 1

turn:
  end game

score of p: k
'''


def test_a_value_read_once_is_charged_as_often_as_it_is_read(tmp_path, monkeypatch):
    """`at(board, c)` read three times in `held` is read once by the generated code, but
    charged three times: a loop calling it runs out of steps at the same turn of the loop."""
    sources = []

    def stops(limit: int, generate: bool) -> bool:
        return _setup_stops(tmp_path / "shared.game", SHARED, limit, generate, monkeypatch, sources)

    # (the loop ends by itself at 1, runs out of steps at 400)
    assert _first(lambda n: stops(n, True), 1, 400) == _first(lambda n: stops(n, False), 1, 400)
    held = [text for text in sources[-1].sources.values() if ".get(_CELL_KEYS.get((_x, _y))" in text]
    # (the two readings again are charged where they run: as statements, or as expressions
    # inside code written as one)
    again = held[0].count("_again(ctx, 2,") + held[0].count("ctx.work += 2") - 1
    assert held and held[0].count(".get(_CELL_KEYS.get((_x, _y))") == 1 and again == 2
    assert "_at_grid" not in held[0]


TWICE = '''
game "Twice"
players 2
var k: number = 0
def many(n: number) = len([x for x in range(1, n) if x > 0])
def one(n: number) = n + 1
def ones(n: number) = len([one(x) for x in range(1, n)])
def down(n: number) = sum([one(x) for x in [n]]) if n == 0 else down(n - 1)

setup:
  while k < LIMIT and many(SIZE) + many(SIZE) > 0 and ones(SIZE) > 0:
    k += 1

turn:
  choose by current:
    pick(a in range(1, 20)) "pick {a}" if many(a * SIZE) + many(a * SIZE) > a:
      end game

score of p: k
'''


def _twice(tmp_path, monkeypatch, generate: bool, limit: int, size: int):
    path = tmp_path / "twice.game"
    path.write_text(TWICE.replace("LIMIT", str(limit)).replace("SIZE", str(size)))
    monkeypatch.setattr(ExprCompiler, "generate", generate)
    return load(str(path), max_steps=400)


def _setup_stops(path, text: str, limit: int, generate: bool, monkeypatch, sources: list) -> bool:
    """Whether the setup of `text` (its LIMIT made `limit`) runs out of steps (E501) within
    400; if not, each seat's score is `limit`. The generated code's compiler kept in
    `sources`."""
    path.write_text(text.replace("LIMIT", str(limit)))
    monkeypatch.setattr(ExprCompiler, "generate", generate)
    game = load(str(path), max_steps=400)
    try:
        state = game.new_game(2)
    except RuleError as err:
        assert err.code == "E501"
        return True
    finally:
        if generate:
            sources.append(game.snippets.source)
    assert game.scores(state) == [limit, limit]
    return False


def _first(stops, low: int, high: int) -> int:
    """The least value in (low, high] for which `stops` holds (it holds from there on)."""
    assert not stops(low) and stops(high)
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if stops(mid) else (mid, high)
    return high


def test_a_def_called_twice_is_charged_twice_without_a_memo(tmp_path, monkeypatch):
    """Outside a listing no memo is kept: `many(n)` called twice in one condition is worked
    out twice, and a loop testing it runs out of steps at the same turn in both back ends
    (the comprehension over a range charged as the range's list and its items, and `one(x)`,
    written out in its comprehension, charged as a call)."""
    sources = []

    def stops(generate: bool, limit: int) -> bool:
        game = _twice(tmp_path, monkeypatch, generate, limit, 30)
        try:
            state = game.new_game(2)
        except RuleError as err:
            assert err.code == "E501"
            return True
        assert game.scores(state) == [limit, limit]
        if generate:
            assert game.snippets.source.give_ups == 0
            sources.append(game.snippets.source.sources)
        return False

    assert _first(lambda n: stops(True, n), 1, 400) == _first(lambda n: stops(False, n), 1, 400)
    # (`one(x)` written out in the loop `ones` goes through)
    assert any("for " in text and "if _memo is None:" in text for text in sources[-1].values())


def test_a_def_written_out_stops_at_the_depth_a_call_stops(tmp_path, monkeypatch):
    """`one(x)` written out in `down`'s comprehension is checked for depth as its call is:
    too deep, the closures' diagnostic, else the value."""
    outcomes = {True: [], False: []}
    for generate in (True, False):
        game = _twice(tmp_path, monkeypatch, generate, 1, 5)
        for n in range(194, 204):
            try:
                outcomes[generate].append(game.evaluate(game.new_game(2), parse_expression(f"down({n})")))
            except RuleError as err:
                outcomes[generate].append((err.code, err.message, str(err.span)))
    assert outcomes[True] == outcomes[False]
    assert 1 in outcomes[True] and any(o != 1 and o[0] == "E502" for o in outcomes[True])


def test_a_def_called_again_in_a_listing_takes_the_first_value(tmp_path, monkeypatch):
    """While moves are listed the memo answers a def called again with the same arguments,
    charging nothing: the generated guard takes the first call's value instead of asking the
    memo, charges what the closures charge (it never gives up below the limit) and stops
    where they stop."""
    def stops(generate: bool, size: int):
        game = _twice(tmp_path, monkeypatch, generate, 0, size)
        state = game.new_game(2)
        try:
            moves = game.legal_moves(state, 0)
        except RuleError as err:
            assert err.code == "E501"
            return (err.message, str(err.span))
        assert [m["args"] for m in moves] == [[a] for a in range(1, 21)]  # (range(1, 20) holds 20)
        source = game.snippets.source
        assert not generate or (source.give_ups == 0 and any(
            "if _memo is not None else" in text for name, text in source.sources.items() if name.startswith("_F")))
        return None

    first = [_first(lambda n: stops(generate, n) is not None, 1, 5000) for generate in (True, False)]
    assert first[0] == first[1]
    assert stops(True, first[0]) == stops(False, first[0])


WALK = '''
game "Walk"
players 2
kind stone:
  copies 3 per player
zone supply of stone: public
zone board of stone: grid 3 by 3, public
player zone bag of stone: public
var k: number = 0
def mine(p: player) = len([c for c in p.bag if c.owner == p])
def walked(p: player) = mine(p) + len(p.bag) + len([c for c in supply]) + len([c for c in board])

setup:
  move stone to supply
  move first(supply) to board at (1, 0)
  move first(supply) to board at (0, 0)
  move first(supply) to start_player.bag
  move first(supply) to start_player.bag
  while k < LIMIT and walked(start_player) > 0:
    k += 1

turn:
  end game

score of p: k
'''


def test_a_comprehension_over_a_zone_is_charged_as_the_closures_charge_it(tmp_path, monkeypatch):
    """A comprehension over a zone goes through the zone itself, and `len` of a zone counts
    it where it lies (a player's zone, a zone of the table, a grid's components in cell
    order): the same values, and a loop asking them runs out of steps at the same turn."""
    path = tmp_path / "walk.game"
    sources = []

    def stops(limit: int, generate: bool) -> bool:
        return _setup_stops(path, WALK, limit, generate, monkeypatch, sources)

    assert _first(lambda n: stops(n, True), 1, 400) == _first(lambda n: stops(n, False), 1, 400)
    written = "\n".join(sources[-1].sources.values())
    # (the zone's own list gone through: by _zone_walk, or read where a loop goes through it)
    assert ("_zone_walk(ctx, _st" in written or "= _st['zones'][" in written) and "_zone_len(ctx, _st" in written
    assert sources[-1].give_ups == 0
    values = []
    for generate in (False, True):
        path.write_text(WALK.replace("LIMIT", "1"))
        game = _load(str(path), generate, monkeypatch)
        state = game.new_game(2)
        values.append([game.evaluate(state, parse_expression(text)) for text in (
            "[c for c in board]", "[c for c in start_player.bag if c.owner == 0]", "[c for c in supply]",
            "[len(p.bag) for p in players]", "walked(start_player)")])
    assert values[0] == values[1] and values[0][0] == [1, 0]
